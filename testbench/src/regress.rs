//! Seeded random regression: random valid scripts ([`super::generator`])
//! run on the RTL with the scoreboard in lockstep.
//!
//! A run of `count` messages is `ceil(count / per_script)` scripts; script
//! `k` is a job of its own: the run's seed `S` and `k` give its script seed
//! (text) and its memory model's seed (latency and stalls), so it is the
//! same script whichever thread, machine or shard runs it. `jobs` threads,
//! each with its own Verilated model (its own `VerilatedContext`), take the
//! scripts in order; the outcomes are collected in script order, so which
//! scripts ran, their verdicts and the failing script files are the same for
//! every `jobs`. `--shard K/N` runs the scripts with `k % N == K - 1`
//! (disjoint; the union of the N shards is the whole run), `--script k`
//! one script: the reproduce command of a failure.
//!
//! With `max_failures` M > 0 the run stops after the M-th failing script in
//! script order (scripts after it are not part of the outcome, whichever
//! thread had started them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use atomport_core::output_file::{self, OutputError};
use atomport_sim::SimError;

use super::dut::{simulate_build, UnitBuild};
use super::session::{RtlError, RtlOptions};
use super::funcov::{CoverSpace, FunctionalCoverage};
use super::generator::{random_script, GenConfig, GenerateError, Generated, MessageFilter};
use super::memory::MemConfig;

/// What `atomport regress` runs.
#[derive(Clone, Debug)]
pub struct RegressConfig {
    pub seed: u64,
    /// messages in all
    pub count: usize,
    /// messages per script
    pub per_script: usize,
    /// memory model (its seed is replaced per script)
    pub mem: MemConfig,
    /// where a failing script is written
    pub out_dir: PathBuf,
    /// the unit build to run (the generator writes every kind of message
    /// and every float family, whatever the RTL passes; a smaller build must
    /// reject those it does not admit)
    pub unit: UnitBuild,
    /// threads, each with its own model (1: the calling thread's order, same outcome)
    pub jobs: usize,
    /// run only this slice of the scripts
    pub shard: Option<Shard>,
    /// run only script `k` (a failure's reproduce command)
    pub script: Option<usize>,
    /// stop after this many failing scripts (0: run every script)
    pub max_failures: usize,
    /// narrow the generated messages to some kinds / ops
    pub filter: MessageFilter,
    /// traced re-runs (VCD) of at most this many failing scripts
    pub traced_failures: usize,
    /// the traced re-runs write FST (`fail-S-k.fst`, Verilator's FST
    /// tracing) instead of VCD
    pub fst: bool,
    /// after `count` messages, keep running scripts (in batches of
    /// [`UNTIL_COVERED_BATCH`]) until every reachable coverage bin is hit or
    /// `budget` more messages ran
    pub until_covered: bool,
    /// the message budget of `until_covered`
    pub budget: usize,
}

/// Scripts per round of `--until-covered` (fixed, so the outcome does not
/// depend on the number of threads).
pub const UNTIL_COVERED_BATCH: usize = 8;

impl Default for RegressConfig {
    fn default() -> RegressConfig {
        RegressConfig {
            seed: 1,
            count: 1000,
            per_script: 200,
            mem: MemConfig { latency_min: 1, latency_max: 4, stall: 0.2, seed: 1 },
            out_dir: PathBuf::from("target/regress"),
            unit: UnitBuild::Full,
            jobs: 1,
            shard: None,
            script: None,
            max_failures: 1,
            filter: MessageFilter::default(),
            traced_failures: 3,
            fst: false,
            until_covered: false,
            budget: 1_000_000,
        }
    }
}

/// `--shard K/N`: the K-th (1-based) of N disjoint slices of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, 1..=count
    pub index: usize,
    /// N
    pub count: usize,
}

impl Shard {
    /// Does script `k` belong to this shard?
    pub fn has(&self, k: usize) -> bool {
        k % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `--shard` value that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a shard: write K/N with 1 <= K <= N (e.g. 2/4)")]
pub struct ShardError(pub String);

impl std::str::FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl RegressConfig {
    /// Scripts in the whole (unsharded) run.
    pub fn total_scripts(&self) -> usize {
        self.count.div_ceil(self.per_script.max(1))
    }

    /// Messages in script `k` (the last one takes what is left). Scripts
    /// after the run, which `--until-covered` adds, are full until the
    /// budget is spent: the last takes what is left of it, so the extra
    /// scripts never run more than `budget` messages (0: past the budget).
    pub fn script_messages(&self, k: usize) -> usize {
        let per = self.per_script.max(1);
        let total = self.total_scripts();
        if k >= total {
            if !self.until_covered {
                return per;
            }
            return self.budget.saturating_sub((k - total).saturating_mul(per)).min(per);
        }
        self.count.saturating_sub(k * per).min(per)
    }

    /// The scripts this run executes, in order.
    pub fn selected_scripts(&self) -> Vec<usize> {
        if let Some(k) = self.script {
            return vec![k];
        }
        (0..self.total_scripts()).filter(|&k| self.shard.is_none_or(|s| s.has(k))).collect()
    }

    /// The options that define the run's scripts (not jobs, shard or reports):
    /// `--seed 1 --count 1000 --per-script 200 --latency 1..4 --stall 0.2 ...`.
    pub fn run_options(&self) -> String {
        let mut s = format!(
            "--seed {} --count {} --per-script {} --latency {} --stall {}",
            self.seed,
            self.count,
            self.per_script,
            latency_text(&self.mem),
            self.mem.stall
        );
        if self.unit != UnitBuild::Full {
            s += &format!(" --unit {}", self.unit.name());
        }
        if !self.filter.kinds.is_empty() {
            s += &format!(" --kinds {}", self.filter.kinds.join(","));
        }
        if !self.filter.ops.is_empty() {
            s += &format!(" --ops {}", self.filter.ops.join(","));
        }
        if self.until_covered {
            s += &format!(" --until-covered --budget {}", self.budget);
        }
        s
    }

    /// The one-line command that reruns script `k` alone (any machine, no file needed).
    pub fn reproduce_command(&self, k: usize) -> String {
        format!("atomport regress {} --script {k}", self.run_options())
    }

    /// The shard script `k` belongs to in this run (`None`: unsharded).
    pub fn shard_of(&self, k: usize) -> Option<Shard> {
        self.shard.map(|s| Shard { index: k % s.count + 1, count: s.count })
    }
}

/// A regression failure: where, what, and how to reproduce it.
#[derive(Clone, Debug)]
pub struct RegressFailure {
    pub script: usize,
    pub script_seed: u64,
    pub mem_seed: u64,
    /// the failing script as written to disk
    pub file: PathBuf,
    /// the first difference (or the watchdog / contract report)
    pub what: String,
    /// the one-line command that reproduces it: `atomport regress ... --script k`
    pub reproduce: String,
    /// the same from the written file: `atomport run FILE --engine both ...`
    /// (full build) or the regress command (other builds: `run` runs the full one)
    pub run_command: String,
    /// a traced re-run of the failing script (`fail-S-k.vcd`; the CLI adds its
    /// GTKWave view beside it), or why none could be written
    pub vcd: Result<PathBuf, NotTraced>,
}

/// Why a failing script has no waveform.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotTraced {
    #[error("not traced: only the first {limit} failures are")]
    Limit { limit: usize },
    /// the traced re-run could not write its waveform
    #[error("{0}")]
    Failed(String),
}

/// Why a regression stopped without a verdict (a bench problem, not an RTL
/// failure: those are in the report).
#[derive(Debug, thiserror::Error)]
pub enum RegressError {
    /// a failing script or its waveform could not be written
    #[error("{0}")]
    Output(#[from] OutputError),
    #[error("script {script} (seed {seed:#x}): {source}")]
    Generate { script: usize, seed: u64, source: GenerateError },
    /// the simulator itself failed (not the RTL disagreeing)
    #[error("{0}")]
    Rtl(RtlError),
    #[error("script {script} is not in the run: it has scripts 0..{scripts} ({count} messages, {per_script} per script)")]
    NotInRun { script: usize, scripts: usize, count: usize, per_script: usize },
    #[error("script {0} did not report")]
    NoReport(usize),
}

/// One script's outcome.
#[derive(Clone, Debug)]
pub struct ScriptOutcome {
    /// k: the script's number in the whole run
    pub index: usize,
    pub seed: u64,
    pub messages: usize,
    pub cycles: u64,
    /// messages the build does not admit, checked to be rejected
    pub rejected: usize,
    /// wall time of the job (not part of the outcome's identity)
    pub seconds: f64,
    /// why it failed (the first difference, the watchdog, ...)
    pub failure: Option<RegressFailure>,
}

/// What a regression did.
#[derive(Clone, Debug, Default)]
pub struct RegressReport {
    /// every script run, in script order
    pub outcomes: Vec<ScriptOutcome>,
    pub messages: usize,
    pub scripts: usize,
    pub cycles: u64,
    /// messages the build does not admit, checked to be rejected
    pub rejected: usize,
    /// functional coverage of the scripts that agreed (testbench/src/funcov.rs)
    pub coverage: FunctionalCoverage,
    /// its bins for this build and memory configuration
    pub space: CoverSpace,
    /// scripts `--until-covered` ran after the `count` messages
    pub extra_scripts: usize,
    /// the messages of those scripts (at most `--budget`)
    pub extra_messages: usize,
    /// failing scripts in script order
    pub failures: Vec<RegressFailure>,
    /// `max_failures` ended the run before every selected script ran
    pub stopped_early: bool,
    /// scripts the run would have run without the stop
    pub selected: usize,
}

impl RegressReport {
    /// The first failing script.
    pub fn failure(&self) -> Option<&RegressFailure> {
        self.failures.first()
    }

    /// Messages of the scripts that agreed.
    pub fn passed_messages(&self) -> usize {
        self.outcomes.iter().filter(|o| o.failure.is_none()).map(|o| o.messages).sum()
    }
}

/// Progress after each script: (messages done, messages in all).
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize);

/// The seed of script `k` of a run with seed `seed` (splitmix64 of both).
pub fn script_seed(seed: u64, k: usize) -> u64 {
    let mut z = seed.wrapping_add((k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `--latency` text of a memory configuration (`N` or `MIN..MAX`).
pub fn latency_text(mem: &MemConfig) -> String {
    if mem.latency_min == mem.latency_max {
        mem.latency_min.to_string()
    } else {
        format!("{}..{}", mem.latency_min, mem.latency_max)
    }
}

/// Writes the failing script with the notes after it (so its line numbers
/// stay those of the report).
fn write_failure(dir: &Path, name: &str, notes: &str, text: &str) -> Result<PathBuf, RegressError> {
    output_file::create_folder(dir)?;
    let path = dir.join(name);
    output_file::write_file(&path, format!("{text}{notes}").as_bytes())?;
    Ok(path)
}

/// Re-runs a failing script with the same memory model and tracing on, so
/// the failure can be looked at in a waveform (the caller adds the GTKWave
/// view: that is the waveform tools' business).
/// The re-run is deterministic (same script, same memory seed), so it fails
/// the same way; its own verdict is not needed here. A waveform that cannot
/// be written (a full disk) is an error, as any output is.
fn trace_failure(unit: UnitBuild, program: &atomport_core::program::Program, mem: MemConfig, vcd: &Path, fst: bool) -> Result<Result<PathBuf, NotTraced>, RegressError> {
    let (vcd_path, fst_path) = if fst { (None, Some(vcd.to_path_buf())) } else { (Some(vcd.to_path_buf()), None) };
    let opts = RtlOptions { mem, vcd: vcd_path, fst: fst_path };
    match simulate_build(unit, program, &opts, true) {
        Err(RtlError::Sim(SimError::Trace(m))) => Err(RegressError::Output(OutputError::new(vcd, m))),
        Err(e @ (RtlError::Sim(_) | RtlError::Unavailable(_) | RtlError::Encode(_))) => Ok(Err(NotTraced::Failed(e.to_string()))),
        _ => Ok(Ok(vcd.to_path_buf())),
    }
}

/// One script's job as a worker thread returns it: the outcome (without
/// the failure's files), the failure text, and the script of a failure
/// (written by the collector, so only the failures of the outcome leave
/// files).
struct Job {
    outcome: ScriptOutcome,
    what: Option<String>,
    generated: Option<Generated>,
    coverage: FunctionalCoverage,
}

/// Generates and runs script `k` on a model of its own.
fn run_script(cfg: &RegressConfig, gen_cfg: &GenConfig, k: usize) -> Result<Job, RegressError> {
    let start = Instant::now();
    let messages = cfg.script_messages(k);
    let seed = script_seed(cfg.seed, k);
    let g = random_script(seed, &GenConfig { messages, ..gen_cfg.clone() }).map_err(|source| RegressError::Generate { script: k, seed, source })?;
    let opts = RtlOptions { mem: MemConfig { seed, ..cfg.mem }, vcd: None, fst: None };
    let mut outcome = ScriptOutcome { index: k, seed, messages, cycles: 0, rejected: 0, seconds: 0.0, failure: None };
    let mut coverage = FunctionalCoverage::default();
    let what = match simulate_build(cfg.unit, &g.program, &opts, true) {
        Ok(sim) => {
            outcome.cycles = sim.cycles;
            outcome.rejected = sim.rejected.len();
            if sim.mismatch.is_none() {
                coverage.sample(&g.program, &sim, &cfg.unit.config());
            }
            sim.mismatch.map(|m| m.to_string())
        }
        Err(e @ RtlError::Unavailable(_)) | Err(e @ RtlError::Sim(_)) => return Err(RegressError::Rtl(e)),
        Err(e) => Some(e.to_string()),
    };
    outcome.seconds = start.elapsed().as_secs_f64();
    let generated = what.is_some().then_some(g);
    Ok(Job { outcome, what, generated, coverage })
}

/// Writes a failing script (and a traced re-run when `trace`) and builds its report.
fn record_failure(cfg: &RegressConfig, k: usize, seed: u64, what: String, g: &Generated, trace: bool) -> Result<RegressFailure, RegressError> {
    let mem = MemConfig { seed, ..cfg.mem };
    let name = format!("fail-{}-{k}.atom", cfg.seed);
    let reproduce = cfg.reproduce_command(k);
    let run_command = if cfg.unit != UnitBuild::Full {
        // `atomport run` runs the full build: rerun the regression's script
        reproduce.clone()
    } else {
        format!(
            "atomport run {} --engine both --latency {} --stall {} --seed {seed}",
            cfg.out_dir.join(&name).display(),
            latency_text(&cfg.mem),
            cfg.mem.stall
        )
    };
    let notes = format!(
        "# atomport regress --seed {} failed in script {k} (script seed {seed:#x}):\n# {}\n# reproduce: {run_command}\n# or: {reproduce}\n",
        cfg.seed,
        what.lines().next().unwrap_or("")
    );
    let file = write_failure(&cfg.out_dir, &name, &notes, &g.text)?;
    let vcd = if trace {
        trace_failure(cfg.unit, &g.program, mem, &file.with_extension(if cfg.fst { "fst" } else { "vcd" }), cfg.fst)?
    } else {
        Err(NotTraced::Limit { limit: cfg.traced_failures })
    };
    Ok(RegressFailure { script: k, script_seed: seed, mem_seed: seed, file, what, reproduce, run_command, vcd })
}

/// Runs the regression on `cfg.jobs` threads. `Err` only for a bench
/// problem (a script the generator got wrong, a file that cannot be
/// written, no RTL model). `progress` is called on the calling thread after
/// each script.
pub fn run(cfg: &RegressConfig, progress: Progress) -> Result<RegressReport, RegressError> {
    let gen_cfg = GenConfig { filter: cfg.filter.clone(), ..GenConfig::every_family(cfg.per_script.max(1)) };
    let list = cfg.selected_scripts();
    if let Some(k) = cfg.script {
        if k >= cfg.total_scripts() && (!cfg.until_covered || cfg.script_messages(k) == 0) {
            return Err(RegressError::NotInRun { script: k, scripts: cfg.total_scripts(), count: cfg.count, per_script: cfg.per_script });
        }
    }
    let mut total: usize = list.iter().map(|&k| cfg.script_messages(k)).sum();
    let mut report = RegressReport {
        selected: list.len(),
        space: CoverSpace::new(&cfg.unit.config(), &cfg.unit.name(), &cfg.mem),
        ..RegressReport::default()
    };
    let mut done = 0;
    run_list(cfg, &gen_cfg, &list, &mut report, progress, &mut done, total)?;
    if cfg.until_covered && cfg.script.is_none() {
        let mut next = cfg.total_scripts();
        while !report.stopped_early && report.failures.is_empty() && !report.coverage.holes(&report.space).is_empty() {
            // the budget's scripts: full ones, the last with what is left
            let batch: Vec<usize> = (next..next + UNTIL_COVERED_BATCH).filter(|&k| cfg.script_messages(k) > 0).collect();
            if batch.is_empty() {
                break;
            }
            next += batch.len();
            let messages: usize = batch.iter().map(|&k| cfg.script_messages(k)).sum();
            total += messages;
            report.extra_messages += messages;
            report.selected += batch.len();
            report.extra_scripts += batch.len();
            run_list(cfg, &gen_cfg, &batch, &mut report, progress, &mut done, total)?;
        }
    }
    Ok(report)
}

/// Runs the scripts of `list` on `cfg.jobs` threads and appends their
/// outcomes to `report` in list order (stopping at `max_failures` failures
/// in all).
fn run_list(
    cfg: &RegressConfig,
    gen_cfg: &GenConfig,
    list: &[usize],
    report: &mut RegressReport,
    progress: Progress,
    messages_done: &mut usize,
    total: usize,
) -> Result<(), RegressError> {
    let jobs = cfg.jobs.clamp(1, list.len().max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // outcomes by position in `list`
    let mut done: BTreeMap<usize, Job> = BTreeMap::new();
    let mut error: Option<(usize, RegressError)> = None;
    let mut cutoff: Option<usize> = None;
    let earlier_failures = report.failures.len();
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Job, RegressError>)>();
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let p = next.fetch_add(1, Ordering::SeqCst);
                    if p >= list.len() {
                        break;
                    }
                    let job = run_script(cfg, gen_cfg, list[p]);
                    if tx.send((p, job)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut prefix = 0;
        let mut failures = earlier_failures;
        for (p, job) in rx {
            match job {
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    if error.as_ref().is_none_or(|(q, _)| p < *q) {
                        error = Some((p, e));
                    }
                }
                Ok(job) => {
                    *messages_done += job.outcome.messages;
                    done.insert(p, job);
                    progress((*messages_done).min(total), total);
                }
            }
            // the failures count in script order, whatever finished first
            while cutoff.is_none() {
                let Some(job) = done.get(&prefix) else { break };
                if job.what.is_some() {
                    failures += 1;
                    if cfg.max_failures > 0 && failures >= cfg.max_failures {
                        cutoff = Some(prefix);
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                prefix += 1;
            }
        }
    });
    if let Some((_, e)) = error {
        return Err(e);
    }
    let end = cutoff.map_or(list.len(), |c| c + 1);
    report.stopped_early |= end < list.len();
    for p in 0..end {
        let Some(mut job) = done.remove(&p) else {
            return Err(RegressError::NoReport(list[p]));
        };
        if let Some(what) = job.what.take() {
            let g = job.generated.take().expect("a failing job keeps its script");
            let trace = report.failures.len() < cfg.traced_failures;
            let f = record_failure(cfg, job.outcome.index, job.outcome.seed, what, &g, trace)?;
            job.outcome.failure = Some(f.clone());
            report.failures.push(f);
        } else {
            report.messages += job.outcome.messages;
            report.scripts += 1;
        }
        report.cycles += job.outcome.cycles;
        report.rejected += job.outcome.rejected;
        report.coverage.merge(&job.coverage);
        report.outcomes.push(job.outcome);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_disjoint_and_cover_the_run() {
        let cfg = RegressConfig { count: 2345, per_script: 100, ..RegressConfig::default() };
        assert_eq!(cfg.total_scripts(), 24);
        assert_eq!(cfg.script_messages(23), 45);
        let mut all = vec![];
        for k in 1..=4 {
            let shard: Shard = format!("{k}/4").parse().unwrap();
            all.extend(RegressConfig { shard: Some(shard), ..cfg.clone() }.selected_scripts());
        }
        all.sort();
        assert_eq!(all, cfg.selected_scripts());
        for bad in ["0/4", "5/4", "1/0", "x", "1/"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_reproduce_command_names_seed_options_and_script() {
        let cfg = RegressConfig { seed: 9, count: 500, per_script: 50, ..RegressConfig::default() };
        assert_eq!(cfg.reproduce_command(3), "atomport regress --seed 9 --count 500 --per-script 50 --latency 1..4 --stall 0.2 --script 3");
    }
}
