//! The synthesis targets and the FPGA parts nextpnr places and routes for.

use strum::IntoEnumIterator;

use super::asic;
use super::SynthError;

/// Where the synthesis flow ends. Its names (`generic`, `ice40`, ...) are
/// strum's: `Target::iter()` in table order, `name()`, `str::parse`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumIter, strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "lowercase")]
pub enum Target {
    /// Yosys `synth`: technology-independent gates, no place and route
    Generic,
    /// Lattice iCE40: `synth_ice40` + `nextpnr-ice40`
    Ice40,
    /// Lattice ECP5: `synth_ecp5` + `nextpnr-ecp5`
    Ecp5,
    /// Standard cells (`--lib`, `--liberty`): Yosys + `abc -liberty` + OpenSTA
    Asic,
}

impl Target {
    /// Every target, in table order.
    pub fn all() -> Vec<Target> {
        Target::iter().collect()
    }

    /// The name on the command line and in directory names.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether place and route ends the flow (the FPGA targets).
    pub fn is_fpga(self) -> bool {
        matches!(self, Target::Ice40 | Target::Ecp5)
    }

    /// The Yosys synthesis command (before its options).
    pub fn yosys_synth(self) -> &'static str {
        match self {
            Target::Generic | Target::Asic => "synth",
            Target::Ice40 => "synth_ice40",
            Target::Ecp5 => "synth_ecp5",
        }
    }

    /// The clock constraint given to nextpnr when `--freq` is not: about
    /// twice what wide datapaths reach on the family, so the placer works
    /// for speed; the achieved figure is reported either way. ASIC: ABC's
    /// delay target and OpenSTA's clock ([`asic::DEFAULT_CLOCK_MHZ`]).
    pub fn default_freq_mhz(self) -> Option<f64> {
        match self {
            Target::Generic => None,
            Target::Ice40 => Some(50.0),
            Target::Ecp5 => Some(100.0),
            Target::Asic => Some(asic::DEFAULT_CLOCK_MHZ),
        }
    }

    /// Parts tried when `--part` is not given.
    pub fn default_parts(self) -> &'static [&'static str] {
        match self {
            Target::Generic | Target::Asic => &[],
            Target::Ice40 => &["hx8k"],
            Target::Ecp5 => &["85k"],
        }
    }
}

/// One FPGA part nextpnr can place and route for.
#[derive(Debug, PartialEq, Eq)]
pub struct Part {
    /// the name `--part` takes
    pub name: &'static str,
    pub target: Target,
    /// the device and package, as the vendor names them
    pub device: &'static str,
    /// nextpnr's options selecting it
    pub nextpnr_args: &'static [&'static str],
}

/// Every part `--part` accepts. iCE40: the largest (HX8K) and the UltraPlus
/// (UP5K); HX1K, to see the "does not fit" path quickly. ECP5: the three
/// LFE5U sizes in the CABGA381 package.
pub const PARTS: &[Part] = &[
    Part {
        name: "hx8k",
        target: Target::Ice40,
        device: "iCE40HX8K-CT256",
        nextpnr_args: &["--hx8k", "--package", "ct256"],
    },
    Part {
        name: "up5k",
        target: Target::Ice40,
        device: "iCE40UP5K-SG48",
        nextpnr_args: &["--up5k", "--package", "sg48"],
    },
    Part {
        name: "hx1k",
        target: Target::Ice40,
        device: "iCE40HX1K-TQ144",
        nextpnr_args: &["--hx1k", "--package", "tq144"],
    },
    Part {
        name: "25k",
        target: Target::Ecp5,
        device: "LFE5U-25F-CABGA381",
        nextpnr_args: &["--25k", "--package", "CABGA381"],
    },
    Part {
        name: "45k",
        target: Target::Ecp5,
        device: "LFE5U-45F-CABGA381",
        nextpnr_args: &["--45k", "--package", "CABGA381"],
    },
    Part {
        name: "85k",
        target: Target::Ecp5,
        device: "LFE5U-85F-CABGA381",
        nextpnr_args: &["--85k", "--package", "CABGA381"],
    },
];

/// The part `name` of `target`.
pub fn part(target: Target, name: &str) -> Result<&'static Part, SynthError> {
    PARTS.iter().find(|p| p.target == target && p.name == name).ok_or_else(|| SynthError::UnknownPart {
        target,
        name: name.to_string(),
        known: PARTS.iter().filter(|p| p.target == target).map(|p| p.name.to_string()).collect(),
    })
}
