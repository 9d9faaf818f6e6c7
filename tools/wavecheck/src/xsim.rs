//! Two simulators on the same random stimulus (`atomport xsim`): seeded
//! random scripts (the generator and script seeds of `atomport regress`)
//! run on a unit build under Verilator, checked in lockstep against the
//! golden model, with a VCD; each VCD's inputs replayed on the same emitted
//! Verilog (`hdl/verilog/`) under Icarus; the two VCDs compared with
//! [`diff`] on every signal of the unit's scope (every port and the unit's
//! own registers and wires, as deep as the Verilator models trace), both
//! sampled on `clock` (`wavediff --clock clock`) and in time, strict: a
//! signal one simulator dumps and the other does not is a difference.
//!
//! Icarus compiles one bench per build ([`stimulus_bench`]), run once per
//! script on a stimulus file (`+stim=`), so a run of hundreds of scripts
//! pays one compile.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use atomport_testbench::dut::{simulate_build, UnitBuild};
use atomport_testbench::generator::{random_script, GenConfig};
use atomport_testbench::regress::script_seed;
use atomport_testbench::{MemConfig, RtlOptions};

use atomport_wave::diff::{diff, DiffOptions, DiffReport};
use atomport_wave::gtkw::unit_scope;
use atomport_wave::reader::{Timescale, Waveform};
use super::replay::{module_ports, stimulus_bench, stimulus_file, VerilogPort};

/// What `atomport xsim` runs.
#[derive(Clone, Debug)]
pub struct XsimConfig {
    pub unit: UnitBuild,
    pub seed: u64,
    pub scripts: usize,
    pub per_script: usize,
    /// memory model (its seed is replaced per script, as in `regress`)
    pub mem: MemConfig,
    /// the emitted Verilog (`hdl/verilog`)
    pub verilog_dir: PathBuf,
    /// bench, stimuli and VCDs (those of agreeing scripts are deleted)
    pub work: PathBuf,
    pub jobs: usize,
    /// replay without this input's changes (a deliberate fault: the run must fail)
    pub drop_input: Option<String>,
    /// an Icarus run still going after this long is killed and its script
    /// disagrees (a zero-delay loop never lets simulated time advance)
    pub icarus_timeout: Duration,
}

/// One script's outcome.
#[derive(Clone, Debug)]
pub struct XsimScript {
    pub index: usize,
    pub seed: u64,
    pub messages: usize,
    pub cycles: u64,
    /// signals compared (on the clock)
    pub compared: usize,
    /// the first differences (empty: the simulators agree)
    pub differences: Vec<String>,
}

impl XsimScript {
    pub fn agrees(&self) -> bool {
        self.differences.is_empty()
    }
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct XsimReport {
    pub module: String,
    pub scripts: Vec<XsimScript>,
    pub compile: Duration,
    pub wall: Duration,
}

impl XsimReport {
    pub fn agreeing(&self) -> usize {
        self.scripts.iter().filter(|s| s.agrees()).count()
    }
}

/// Why a run could not be done (a disagreement is not an error: it is in the report).
#[derive(Debug, thiserror::Error)]
pub enum XsimError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{0}")]
    Replay(#[from] super::replay::ReplayError),
    #[error("{0}")]
    Tool(String),
    #[error("script {script} (seed {seed:#x}): {what}")]
    Script { script: usize, seed: u64, what: String },
}

/// The emitted Verilog of a build: the top's file first (its stem is the module).
pub fn build_sources(unit: UnitBuild, verilog_dir: &Path) -> Vec<PathBuf> {
    match unit {
        UnitBuild::Full => vec![verilog_dir.join("atomic_unit.v"), verilog_dir.join("atomic_alu.v")],
        UnitBuild::Small => vec![verilog_dir.join("variants/atomic_unit_l8_w32_int.v")],
        UnitBuild::Serial => vec![verilog_dir.join("variants/serial_unit_l8_w32_int.v")],
    }
}

fn write_whole(path: &Path, text: &str) -> Result<(), XsimError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, path)).map_err(|source| XsimError::Io { path: path.to_path_buf(), source })
}

/// The unit's time unit in the Verilator models' VCDs (sim/build.rs `--timescale 1ns/1ns`).
const TIMESCALE: Timescale = Timescale::NS;

/// Compiles the bench of `cfg.unit` once; returns the module and its ports.
fn compile(cfg: &XsimConfig) -> Result<(String, Vec<VerilogPort>, HashSet<String>, PathBuf), XsimError> {
    let sources = build_sources(cfg.unit, &cfg.verilog_dir);
    let top = &sources[0];
    let module = top.file_stem().unwrap_or_default().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(top).map_err(|source| XsimError::Io { path: top.clone(), source })?;
    let ports = module_ports(&text, &module).map_err(|e| XsimError::Tool(format!("{}: {e}", top.display())))?;
    std::fs::create_dir_all(&cfg.work).map_err(|source| XsimError::Io { path: cfg.work.clone(), source })?;
    let bench = cfg.work.join(format!("{module}_xtb.v"));
    write_whole(&bench, &stimulus_bench(&module, &ports, TIMESCALE))?;
    let vvp = cfg.work.join(format!("{module}_xtb.vvp"));
    let out = Command::new("iverilog")
        .args(["-g2005", "-o"])
        .arg(&vvp)
        .arg(&bench)
        .args(&sources)
        .output()
        .map_err(|e| XsimError::Tool(format!("iverilog: {e} (apt-get install -y iverilog)")))?;
    if !out.status.success() {
        return Err(XsimError::Tool(format!("iverilog failed on {}: {}", bench.display(), String::from_utf8_lossy(&out.stderr))));
    }
    let params = localparams(&text, &module);
    Ok((module, ports, params, vvp))
}

/// The `localparam` names of `module` in `verilog` (constants Verilator
/// traces and Icarus does not dump).
pub fn localparams(verilog: &str, module: &str) -> HashSet<String> {
    let head = format!("module {module}(");
    let Some(start) = verilog.find(&head) else { return HashSet::new() };
    let body = &verilog[start..];
    let body = &body[..body.find("endmodule").unwrap_or(body.len())];
    body.lines()
        .filter_map(|l| l.trim().strip_prefix("localparam "))
        .filter_map(|rest| {
            let rest = rest.trim_start();
            let rest = if rest.starts_with('[') { &rest[rest.find(']')? + 1..] } else { rest };
            Some(rest.split('=').next()?.trim().to_string())
        })
        .collect()
}

/// Script `k`: Verilator with a VCD, Icarus on its inputs, the comparison.
fn run_script(cfg: &XsimConfig, ports: &[VerilogPort], localparams: &HashSet<String>, vvp: &Path, k: usize) -> Result<XsimScript, XsimError> {
    let seed = script_seed(cfg.seed, k);
    let g = random_script(seed, &GenConfig::every_family(cfg.per_script)).map_err(|e| XsimError::Script { script: k, seed, what: e.to_string() })?;
    let vcd = cfg.work.join(format!("s{k}.verilator.vcd"));
    let opts = RtlOptions { mem: MemConfig { seed, ..cfg.mem }, vcd: Some(vcd.clone()), fst: None };
    let sim = simulate_build(cfg.unit, &g.program, &opts, true).map_err(|e| XsimError::Script { script: k, seed, what: e.to_string() })?;
    if let Some(m) = sim.mismatch {
        return Err(XsimError::Script { script: k, seed, what: format!("the RTL disagrees with the golden model: {m}") });
    }
    let script_error = |what: String| XsimError::Script { script: k, seed, what };
    let a = Waveform::read(&vcd).map_err(|d| script_error(d.to_string()))?;
    if a.timescale != TIMESCALE {
        return Err(script_error(format!("{}: timescale {} (the bench runs in {TIMESCALE})", vcd.display(), a.timescale)));
    }
    let stim = cfg.work.join(format!("s{k}.stim"));
    write_whole(&stim, &stimulus_file(&a, &unit_scope(&a), ports, 10, cfg.drop_input.as_deref())?)?;
    let icarus = cfg.work.join(format!("s{k}.icarus.vcd"));
    let mut child = Command::new("vvp")
        .arg("-n")
        .arg(vvp)
        .arg(format!("+stim={}", stim.display()))
        .arg(format!("+dump={}", icarus.display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| XsimError::Tool(format!("vvp: {e}")))?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| XsimError::Tool(format!("vvp: {e}")))? {
            Some(st) => break Some(st),
            None if started.elapsed() > cfg.icarus_timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    let Some(status) = status else {
        // the last time Icarus finished before it was stopped
        let reached = std::fs::read_to_string(&icarus).ok().and_then(|t| t.lines().rev().find_map(|l| l.strip_prefix('#').map(str::to_string)));
        return Ok(XsimScript {
            index: k,
            seed,
            messages: g.program.messages().count(),
            cycles: sim.cycles,
            compared: 0,
            differences: vec![format!(
                "Icarus did not finish within {} s (simulated time stuck after #{}; the Verilator run ends at #{}): a zero-delay loop",
                cfg.icarus_timeout.as_secs(),
                reached.unwrap_or_else(|| "?".into()),
                a.end_time
            )],
        });
    };
    let out = child.wait_with_output().map_err(|e| XsimError::Tool(format!("vvp: {e}")))?;
    let said = String::from_utf8_lossy(&out.stdout);
    if !status.success() || said.contains("error:") {
        return Err(script_error(format!("vvp: {}{}", said, String::from_utf8_lossy(&out.stderr))));
    }
    let b = Waveform::read(&icarus).map_err(|d| script_error(d.to_string()))?;
    let mut differences = Vec::new();
    let mut compared = 0;
    for clock in [Some("clock".to_string()), None] {
        let r: DiffReport = diff(&a, &b, &DiffOptions { clock: clock.clone(), ..Default::default() }).map_err(|e| script_error(e.to_string()))?;
        if clock.is_some() {
            compared = r.compared;
        }
        let how = if clock.is_some() { "on clock" } else { "in time" };
        differences.extend(r.lines().into_iter().filter(|_| !r.equal()).take(8).map(|l| format!("{how}: {l}")));
        // every signal in both: Icarus dumps no parameters, the rest must be there
        let missing_b = r.only_a.iter().filter(|n| !localparams.contains(n.as_str()));
        differences.extend(missing_b.take(8).map(|n| format!("{how}: {n} only in the Verilator VCD")));
        differences.extend(r.only_b.iter().take(8).map(|n| format!("{how}: {n} only in the Icarus VCD")));
    }
    if compared == 0 {
        differences.push("no signal compared".into());
    }
    if differences.is_empty() {
        for p in [&vcd, &stim, &icarus] {
            let _ = std::fs::remove_file(p);
        }
    }
    Ok(XsimScript { index: k, seed, messages: g.program.messages().count(), cycles: sim.cycles, compared, differences })
}

/// Runs `cfg.scripts` scripts on `cfg.jobs` threads (outcomes in script
/// order); `progress(done)` after each script.
pub fn run(cfg: &XsimConfig, progress: &(dyn Fn(usize) + Sync)) -> Result<XsimReport, XsimError> {
    let start = Instant::now();
    let (module, ports, localparams, vvp) = compile(cfg)?;
    let compile_time = start.elapsed();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Result<XsimScript, XsimError>>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..cfg.jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= cfg.scripts || stop.load(Ordering::Relaxed) {
                    break;
                }
                let r = run_script(cfg, &ports, &localparams, &vvp, k);
                if r.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                results.lock().unwrap().push(r);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    let mut scripts = Vec::new();
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| match r {
        Ok(s) => s.index,
        Err(XsimError::Script { script, .. }) => *script,
        Err(_) => 0,
    });
    for r in results {
        scripts.push(r?);
    }
    Ok(XsimReport { module, scripts, compile: compile_time, wall: start.elapsed() })
}
