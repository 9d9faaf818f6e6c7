//! Reference waves: `waves/scenarios/NAME.atom` run on the RTL with
//! tracing gives `waves/NAME.vcd` and its view `waves/NAME.vcd.gtkw`.
//!
//! * `atomport wave update-refs` regenerates them. A reference keeps the
//!   unit's ports and the internal signals of its GTKWave view (lane index,
//!   FSM state, ALU old/new, ...), not the thousands of other internals,
//!   and has no `$date`: an unchanged wave leaves the file byte for byte
//!   alone;
//!   every run must also agree with the golden model, in lockstep (the
//!   scoreboard) and on its waves (`wavecheck`): a wrong wave never becomes
//!   a reference.
//! * `atomport wave check-refs` (and the `waves` test) regenerates them
//!   under `target/waves/` and wavediffs them against the references on
//!   the unit's ports (the port table), sampled on `clock`: a change in
//!   any port in any cycle fails until the references are updated on
//!   purpose. Internal signals are not compared (they are free to change).
//!
//! A scenario sets up the memory model and the unit build with a comment
//! line `# wave: latency=N|MIN..MAX stall=PROB seed=S unit=BUILD`
//! (defaults: 1, 0, 1, the full unit; BUILD as `atomport run --unit`
//! takes it, e.g. `serial_l8_w32_int`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use atomport_testbench::dut::{simulate_build, UnitBuild};
use atomport_testbench::{MemConfig, RtlOptions};

use super::check::check;
use super::check::CheckError;
use atomport_wave::diff::{diff, DiffError, DiffOptions};
use atomport_wave::gtkw::GtkwError;
use atomport_core::diag::Diag;
use atomport_testbench::RtlError;
use atomport_core::ops::ports::{is_unit_port, UNIT_PORTS};
use atomport_wave::gtkw::{unit_groups, unit_scope, write_unit_gtkw};
use atomport_wave::reader::Waveform;
use atomport_wave::writer::{rewrite, Rewrite};

/// The unit's port families as globs (`clock reset req_* pay_* ...`), from
/// the port table: how the CLI names what a port-level comparison covers.
pub fn port_globs() -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for p in &UNIT_PORTS {
        let glob = match p.name.split_once('_') {
            Some((family, _)) => format!("{family}_*"),
            None => p.name.to_string(),
        };
        if !out.contains(&glob) {
            out.push(glob);
        }
    }
    out
}

/// Whether a signal name is one of the unit's ports (the port table,
/// `atomport_isa::ports`).
pub fn is_port(name: &str) -> bool {
    is_unit_port(name)
}

/// `waves/` of the source tree.
pub fn default_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../waves"))
}


/// One scenario: its name, script, memory model and unit build.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub script: PathBuf,
    pub mem: MemConfig,
    pub unit: UnitBuild,
}

/// A bad `# wave:` setting line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("`{item}` is not key=value")]
    NotKeyValue { item: String },
    #[error("bad latency `{value}`")]
    BadLatency { value: String },
    #[error("bad stall `{value}`")]
    BadStall { value: String },
    #[error("bad seed `{value}`")]
    BadSeed { value: String },
    #[error("bad unit `{value}`: {why}")]
    BadUnit { value: String, why: String },
    #[error("unknown setting `{key}` (latency, stall, seed, unit)")]
    Unknown { key: String },
}

/// Why the reference waves could not be generated or compared.
#[derive(Debug, thiserror::Error)]
pub enum RefsError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// a reference, its view or a fresh run's folder could not be written
    #[error("{0}")]
    Output(#[from] atomport_core::output_file::OutputError),
    #[error("{}:{line}:1: error: {source}", path.display())]
    Setting { path: PathBuf, line: usize, source: SettingError },
    #[error("{}: no scenario (*.atom)", dir.display())]
    NoScenario { dir: PathBuf },
    #[error("{0}")]
    Script(Diag),
    #[error("{0}")]
    Read(Diag),
    #[error("{name}: the RTL run failed: {source}")]
    Rtl { name: String, source: RtlError },
    #[error("{name}: the RTL disagrees with the golden model: {first}")]
    Mismatch { name: String, first: String },
    #[error("{0}")]
    Check(#[from] CheckError),
    #[error("{name}: wavecheck: {failure}")]
    Wavecheck { name: String, failure: String },
    #[error("{0}")]
    Gtkw(#[from] GtkwError),
    #[error("{0}")]
    Diff(#[from] DiffError),
    #[error("{}: no reference wave; run `atomport wave update-refs`", path.display())]
    NoReference { path: PathBuf },
}

/// Parses a `# wave: ...` line's settings into `mem` and `unit`.
fn wave_settings(line: &str, mem: &mut MemConfig, unit: &mut UnitBuild) -> Result<(), SettingError> {
    for item in line.split_whitespace() {
        let (k, v) = item.split_once('=').ok_or_else(|| SettingError::NotKeyValue { item: item.to_string() })?;
        match k {
            "latency" => {
                let (lo, hi) = v.split_once("..").unwrap_or((v, v));
                let p = |s: &str| s.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| SettingError::BadLatency { value: v.to_string() });
                mem.latency_min = p(lo)?;
                mem.latency_max = p(hi)?;
                if mem.latency_max < mem.latency_min {
                    return Err(SettingError::BadLatency { value: v.to_string() });
                }
            }
            "stall" => {
                mem.stall = v.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p)).ok_or_else(|| SettingError::BadStall { value: v.to_string() })?
            }
            "seed" => mem.seed = v.parse().map_err(|_| SettingError::BadSeed { value: v.to_string() })?,
            "unit" => {
                *unit = UnitBuild::by_name(v).map_err(|e| SettingError::BadUnit { value: v.to_string(), why: e.to_string() })?
            }
            _ => return Err(SettingError::Unknown { key: k.to_string() }),
        }
    }
    Ok(())
}

/// The scenarios under `dir/scenarios/`, by name.
pub fn scenarios(dir: &Path) -> Result<Vec<Scenario>, RefsError> {
    let sdir = dir.join("scenarios");
    let mut out = Vec::new();
    let entries = std::fs::read_dir(&sdir).map_err(|source| RefsError::Io { path: sdir.clone(), source })?;
    for e in entries {
        let path = e.map_err(|source| RefsError::Io { path: sdir.clone(), source })?.path();
        if path.extension().is_some_and(|x| x == "atom") {
            let text = std::fs::read_to_string(&path).map_err(|source| RefsError::Io { path: path.clone(), source })?;
            let (mut mem, mut unit) = (MemConfig::FAST, UnitBuild::Full);
            for (i, line) in text.lines().enumerate() {
                if let Some(rest) = line.trim().strip_prefix("# wave:") {
                    wave_settings(rest, &mut mem, &mut unit)
                        .map_err(|source| RefsError::Setting { path: path.clone(), line: i + 1, source })?;
                }
            }
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            out.push(Scenario { name, script: path, mem, unit });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    if out.is_empty() {
        return Err(RefsError::NoScenario { dir: sdir });
    }
    Ok(out)
}

/// Runs `s` on the RTL with tracing into `out_dir/NAME.vcd` (and its
/// `.gtkw`); fails unless the run agrees with the golden model, both in
/// lockstep and by `wavecheck` on the written VCD.
pub fn generate(s: &Scenario, out_dir: &Path) -> Result<PathBuf, RefsError> {
    atomport_core::output_file::create_folder(out_dir)?;
    let file = s.script.display().to_string();
    let program = atomport_core::script::parse_file(&file).map_err(RefsError::Script)?;
    let vcd = out_dir.join(format!("{}.vcd", s.name));
    let opts = RtlOptions { mem: s.mem, vcd: Some(vcd.clone()), fst: None };
    let sim = simulate_build(s.unit, &program, &opts, true).map_err(|source| RefsError::Rtl { name: s.name.clone(), source })?;
    if let Some(m) = sim.mismatch {
        return Err(RefsError::Mismatch { name: s.name.clone(), first: m.to_string() });
    }
    let w = Waveform::read(&vcd).map_err(RefsError::Read)?;
    let report = check(&w, &program, "clock", s.unit)?;
    if let Some(m) = report.failure {
        return Err(RefsError::Wavecheck { name: s.name.clone(), failure: m.to_string() });
    }
    write_unit_gtkw(&vcd)?;
    Ok(vcd)
}

/// Port-level comparison of two waves of one scenario.
pub fn compare(reference: &Waveform, fresh: &Waveform) -> Result<atomport_wave::diff::DiffReport, DiffError> {
    let opts = DiffOptions {
        signals: UNIT_PORTS.iter().map(|p| p.name.to_string()).collect(),
        clock: Some("clock".into()),
        ..Default::default()
    };
    diff(reference, fresh, &opts)
}

/// The reference form of a fresh wave: the unit's ports and the internal
/// state of its GTKWave view ([`unit_groups`]), every other signal dropped
/// (references stay small and do not churn when unrelated internals
/// change), no `$date` (equal waves give equal bytes).
pub fn reference_text(fresh: &Waveform, scenario: &str) -> Result<Vec<u8>, std::io::Error> {
    let mut keep: BTreeSet<usize> = unit_groups(fresh)
        .iter()
        .flat_map(|g| g.signals.iter())
        .filter_map(|s| fresh.vars.iter().find(|v| v.gtkwave_name() == s.name).map(|v| v.trace))
        .collect();
    // every port in the unit's scope and the scopes around it, whatever
    // trace it shares (the view names one signal per trace; rust-hdl's
    // internal names carry a `$`, ports never do)
    let unit = unit_scope(fresh);
    keep.extend(fresh.vars.iter().filter(|v| unit.starts_with(&v.scope.join(".")) && is_port(&v.name)).map(|v| v.trace));
    let how = Rewrite {
        timescale: fresh.timescale,
        keep: Some(keep),
        comment: Some(format!(
            "reference wave of waves/scenarios/{scenario}.atom (the unit's ports and view signals); regenerate with `atomport wave update-refs`"
        )),
        ..Default::default()
    };
    rewrite(fresh, Vec::new(), &how)
}

/// Regenerates every reference in `dir` (the fresh runs' full VCDs go to
/// `work_dir`); returns (name, `new` | `updated` | `unchanged`).
pub fn update_refs(dir: &Path, work_dir: &Path) -> Result<Vec<(String, String)>, RefsError> {
    let tmp = work_dir;
    let mut out = Vec::new();
    for s in scenarios(dir)? {
        let fresh = generate(&s, tmp)?;
        let text = reference_text(&Waveform::read(&fresh).map_err(RefsError::Read)?, &s.name)
            .map_err(|source| RefsError::Io { path: fresh.clone(), source })?;
        let target = dir.join(format!("{}.vcd", s.name));
        let status = match std::fs::read(&target) {
            Ok(old) if old == text => "unchanged",
            Ok(_) => "updated",
            Err(_) => "new",
        };
        if status != "unchanged" {
            atomport_core::output_file::write_file(&target, &text)?;
        }
        write_unit_gtkw(&target)?;
        out.push((s.name.clone(), status.to_string()));
    }
    Ok(out)
}

/// One scenario's comparison with its reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefDiff {
    pub name: String,
    pub equal: bool,
    /// wavediff's lines (the summary last)
    pub lines: Vec<String>,
}

impl std::fmt::Display for RefDiff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.lines.join("\n  "))
    }
}

/// Regenerates every scenario into `out_dir` and compares each with its
/// reference in `dir` on the ports. A missing reference is an error.
pub fn check_refs(dir: &Path, out_dir: &Path) -> Result<Vec<RefDiff>, RefsError> {
    let mut out = Vec::new();
    for s in scenarios(dir)? {
        let reference = dir.join(format!("{}.vcd", s.name));
        if !reference.exists() {
            return Err(RefsError::NoReference { path: reference });
        }
        let fresh = generate(&s, out_dir)?;
        let (r, f) = (Waveform::read(&reference).map_err(RefsError::Read)?, Waveform::read(&fresh).map_err(RefsError::Read)?);
        let report = compare(&r, &f)?;
        let mut lines = report.lines();
        lines.push(report.summary());
        out.push(RefDiff { name: s.name.clone(), equal: report.equal(), lines });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wave_settings_parse_and_reject() {
        let (mut m, mut u) = (MemConfig::FAST, UnitBuild::Full);
        wave_settings(" latency=2..5 stall=0.25 seed=9", &mut m, &mut u).unwrap();
        assert_eq!((m.latency_min, m.latency_max, m.stall, m.seed), (2, 5, 0.25, 9));
        assert_eq!(u, UnitBuild::Full);
        wave_settings("latency=3 unit=serial_l8_w32_int", &mut m, &mut u).unwrap();
        assert_eq!((m.latency_min, m.latency_max, u), (3, 3, UnitBuild::Serial));
        assert!(wave_settings("latency=0", &mut m, &mut u).is_err());
        assert!(wave_settings("latency=5..2", &mut m, &mut u).is_err());
        assert!(wave_settings("stall=2", &mut m, &mut u).is_err());
        assert!(wave_settings("speed=fast", &mut m, &mut u).is_err());
        assert!(matches!(wave_settings("unit=l4", &mut m, &mut u), Err(SettingError::BadUnit { .. })));
    }

    /// Ports that equal each other share one trace in the unit's scope (the
    /// serial build: `mem_wr_addr` is `mem_rd_addr`, Verilator aliases
    /// them); the view lists both, and the reference keeps every port of
    /// every scope around the unit, but not the unit's internals.
    #[test]
    fn aliased_ports_stay_in_the_view_and_the_reference() {
        let text = "$timescale 1ns $end
$scope module top $end $var wire 1 ! clock $end $var wire 64 \" mem_rd_addr [63:0] $end $var wire 64 # mem_wr_addr [63:0] $end
$scope module top $end
$var wire 1 ! clock $end $var wire 64 \" mem_rd_addr [63:0] $end $var wire 64 \" mem_wr_addr [63:0] $end
$var wire 64 $ rsp_data_q$d [63:0] $end $var wire 1 % rsp_valid $end
$upscope $end $upscope $end $enddefinitions $end
#0
0!
b0 \"
b1 #
b0 $
0%
";
        let w = Waveform::parse("t.vcd", text.as_bytes()).unwrap();
        let view: Vec<String> = unit_groups(&w).iter().flat_map(|g| g.signals.iter().map(|s| s.alias.clone())).collect();
        assert!(view.contains(&"mem_wr_addr[63:0]".to_string()), "{view:?}");
        let reference = String::from_utf8(reference_text(&w, "t").unwrap()).unwrap();
        assert_eq!(reference.matches("mem_wr_addr").count(), 2, "{reference}");
        assert!(!reference.contains("rsp_data_q$d"), "{reference}");
    }
}
