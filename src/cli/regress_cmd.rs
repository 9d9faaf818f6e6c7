//! `atomport regress --seed S --count N [--latency N|MIN..MAX] [--stall P]
//! [--per-script M] [--out DIR] [--jobs J] [--shard K/N] [--script k]
//! [--max-failures F] [--kinds GLOB,..] [--ops GLOB,..] [--report FILE.json]
//! [--junit FILE.xml] [--directed]`: seeded random valid scripts run on the RTL and
//! checked in lockstep against the golden model (testbench/src/regress.rs),
//! on J threads (default: every core), with a progress bar on a terminal
//! (one line per tenth in a log).
//!
//! Exit status: 0 all messages agreed, 1 a mismatch (each failing script is
//! written to `<out>/fail-<seed>-<k>.atom`, the first differing transaction is
//! named, and a one-line reproduce command printed), 2 bad arguments or
//! no RTL model.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use atomport_core::diag::EXIT_BAD_INPUT;
use atomport_core::output_file::{write_file, OutputPlan};
use atomport_testbench::dut::UnitBuild;
use atomport_testbench::generator::{admitted_fp_families, all_fp_families, MessageFilter};
use atomport_testbench::memory::{LatencyRange, MemConfig};
use atomport_testbench::regress::{self, latency_text, RegressConfig, Shard};
use atomport_testbench::results::{junit_of_run, RunRecord};

/// Arguments of `atomport regress`.
#[derive(clap::Args, Debug)]
pub struct RegressArgs {
    /// seed of the whole run (printed; the same seed reruns the same scripts)
    #[arg(allow_negative_numbers = true, long, default_value_t = 1)]
    pub seed: u64,
    /// random messages to run
    #[arg(allow_negative_numbers = true, long, default_value_t = 1000, value_parser = super::optval::at_least_one)]
    pub count: usize,
    /// memory read latency in cycles: N, or MIN..MAX drawn per read
    #[arg(allow_negative_numbers = true, long, value_name = "N|MIN..MAX", default_value = "1..4")]
    pub latency: LatencyRange,
    /// probability (0 <= PROB < 1) that the memory stalls each channel in a cycle
    #[arg(allow_negative_numbers = true, long, value_name = "PROB", default_value_t = 0.2, value_parser = super::optval::stall)]
    pub stall: f64,
    /// messages per generated script
    #[arg(allow_negative_numbers = true, long, value_name = "M", default_value_t = 200, value_parser = super::optval::at_least_one)]
    pub per_script: usize,
    /// folder for failing scripts and their waveforms [default: target/regress]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// no progress line
    #[arg(long)]
    pub quiet: bool,
    /// the unit build to run: l32_w128 (= full, `atomic_unit`),
    /// l8_w32_int (= small, `variants/atomic_unit_l8_w32_int`) or
    /// serial_l8_w32_int (= serial, `variants/serial_unit_l8_w32_int`, one
    /// element at a time); a small build must reject every message it does
    /// not admit
    #[arg(long, default_value = "full", value_parser = parse_unit)]
    pub unit: UnitBuild,
    /// threads, each with its own Verilated model (default: the number of
    /// cores); the outcome is the same for every value
    #[arg(allow_negative_numbers = true, long, value_name = "J", value_parser = super::optval::at_least_one)]
    pub jobs: Option<usize>,
    /// run the K-th of N disjoint slices of the scripts (script k when
    /// k % N == K-1); `atomport merge` joins the shards' reports
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// run script k of the run alone (what a failure's reproduce command does)
    #[arg(allow_negative_numbers = true, long, value_name = "k", conflicts_with = "shard")]
    pub script: Option<usize>,
    /// stop after F failing scripts (in script order); 0 runs every script
    #[arg(allow_negative_numbers = true, long, value_name = "F", default_value_t = 1)]
    pub max_failures: usize,
    /// only these message kinds (comma-separated globs, any case):
    /// SVM_ATOMIC, DWORD_ATOMIC, TYPED_ATOMIC, SVM_SCATTER, atom
    #[arg(long, value_name = "GLOB,..", value_delimiter = ',')]
    pub kinds: Vec<String>,
    /// only these ops (comma-separated globs, any case): vISA op names
    /// (ADD, CMPXCHG, FADD...), PTX ops (add, cas, exch...), SCATTER
    #[arg(long, value_name = "GLOB,..", value_delimiter = ',')]
    pub ops: Vec<String>,
    /// write the run's report (format atomport-regress/1) to FILE.json
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// write a JUnit XML file: one test case per script, failures with
    /// the first difference and the reproduce command
    #[arg(long, value_name = "FILE.xml")]
    pub junit: Option<PathBuf>,
    /// print the functional coverage: bins hit / reachable per group, every
    /// hole, and the bins this build cannot reach with the reason
    #[arg(long)]
    pub coverage: bool,
    /// after --count messages, keep running scripts until every reachable
    /// coverage bin is hit or --budget more messages ran
    #[arg(long, conflicts_with = "shard")]
    pub until_covered: bool,
    /// the message budget of --until-covered
    #[arg(allow_negative_numbers = true, long, value_name = "MESSAGES", default_value_t = 1_000_000, value_parser = super::optval::at_least_one)]
    pub budget: usize,
    /// write the traced re-runs of failing scripts as FST (`fail-S-k.fst`,
    /// Verilator's FST tracing) instead of VCD
    #[arg(long)]
    pub fst: bool,
    /// first run the bench's directed suite on the build (every directed
    /// script, the illegal descriptors, the descriptor byte sweep), in
    /// lockstep with the golden model; a failure there is exit 1
    #[arg(long)]
    pub directed: bool,
}

fn parse_unit(text: &str) -> Result<UnitBuild, String> {
    UnitBuild::by_name(text).map_err(|e| e.to_string())
}

/// The number of cores this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Progress on stderr: an indicatif bar with messages/s and ETA on a
/// terminal; in a log (CI, a pipe) one line per tenth.
pub struct ProgressReport {
    bar: Option<indicatif::ProgressBar>,
    start: Instant,
    last_tenth: usize,
    quiet: bool,
}

impl ProgressReport {
    pub fn new(total: usize, quiet: bool) -> ProgressReport {
        let live = !quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
        let bar = live.then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template("  [{bar:30}] {pos}/{len} messages, {per_sec:.0}, ETA {eta} ")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    .progress_chars("#>-"),
            );
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        ProgressReport { bar, start: Instant::now(), last_tenth: 0, quiet }
    }

    pub fn update(&mut self, done: usize, total: usize) {
        if self.quiet {
            return;
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            return;
        }
        let tenth = (done * 10).checked_div(total).unwrap_or(10);
        if tenth > self.last_tenth {
            self.last_tenth = tenth;
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            let rate = done as f64 / secs;
            let eta = (total - done) as f64 / rate.max(1e-9);
            eprintln!("  {done}/{total} messages, {rate:.0} msg/s, ETA {eta:.0} s");
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Where failing scripts go without `--out`.
pub const DEFAULT_OUT: &str = "target/regress";

pub fn main(a: RegressArgs) -> i32 {
    let out_dir = a.out.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_OUT));
    let plan = match &a.out {
        Some(dir) => OutputPlan::new().folder("--out", Some(dir)),
        None => OutputPlan::new().default_folder("--out", &out_dir),
    };
    if let Err(code) = super::check_outputs(plan.file("--report", a.report.as_deref()).file("--junit", a.junit.as_deref())) {
        return code;
    }
    let mem = MemConfig { latency_min: a.latency.min, latency_max: a.latency.max, stall: a.stall, seed: a.seed };
    let cfg = RegressConfig {
        seed: a.seed,
        count: a.count,
        per_script: a.per_script,
        mem,
        out_dir,
        unit: a.unit,
        jobs: a.jobs.unwrap_or_else(cores),
        shard: a.shard,
        script: a.script,
        max_failures: a.max_failures,
        filter: MessageFilter { kinds: a.kinds.clone(), ops: a.ops.clone() },
        traced_failures: 3,
        fst: a.fst,
        until_covered: a.until_covered,
        budget: a.budget,
    };
    let selected = cfg.selected_scripts();
    let total: usize = selected.iter().map(|&k| cfg.script_messages(k)).sum();
    let slice = match (cfg.script, cfg.shard) {
        (Some(k), _) => format!("; script {k} of {} alone", cfg.total_scripts()),
        (None, Some(s)) => format!("; shard {s}: {} of {} scripts, {total} messages", selected.len(), cfg.total_scripts()),
        (None, None) => String::new(),
    };
    let filter = if cfg.filter.is_empty() {
        String::new()
    } else {
        format!("; only kinds {:?} ops {:?}", cfg.filter.kinds, cfg.filter.ops)
    };
    eprintln!(
        "atomport regress: unit {}, seed {}, {} messages, {} per script, memory latency {}, stall {}, {} jobs{slice}{filter}; float families: all {} generated, {} admitted by the build",
        a.unit.name(),
        a.seed,
        a.count,
        cfg.per_script,
        latency_text(&mem),
        a.stall,
        cfg.jobs,
        all_fp_families().len(),
        admitted_fp_families(&a.unit.config()).len()
    );
    if atomport_sim::x_unique() {
        eprintln!(
            "atomport regress: models with random power-up state (--x-initial unique --x-assign unique, no register power-up values), +verilator+seed+{}",
            atomport_sim::verilator_seed().unwrap_or_default()
        );
    }
    if a.directed {
        let start = Instant::now();
        match atomport_testbench::dut::run_directed_suite(a.unit) {
            Ok(d) => outln!(
                "directed suite on the {} build: {} scripts, {} messages ({} rejected by the build, as expected), {} illegal requests and {} messages with a misaligned lane agree with the golden model ({:.1} s)",
                a.unit.name(),
                d.scripts,
                d.messages,
                d.rejected,
                d.illegal_requests,
                d.misaligned,
                start.elapsed().as_secs_f64()
            ),
            Err(e) => {
                outln!("directed suite on the {} build FAILED: {e}", a.unit.name());
                return 1;
            }
        }
    }
    let start = Instant::now();
    let mut bar = ProgressReport::new(total, a.quiet);
    let result = regress::run(&cfg, &mut |done, total| bar.update(done, total));
    bar.finish();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("atomport regress: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    let record = RunRecord::new(&cfg, &report, secs);
    if let Some(path) = &a.report {
        let text = serde_json::to_string_pretty(&record.to_json()).expect("JSON") + "\n";
        if let Err(e) = write_file(path, text.as_bytes()) {
            return super::report_output_error(&e);
        }
    }
    if let Some(path) = &a.junit {
        if let Err(e) = write_file(path, junit_of_run(&record).as_bytes()) {
            return super::report_output_error(&e);
        }
    }
    let ran: usize = report.outcomes.iter().map(|o| o.messages).sum();
    let rate = ran as f64 / secs.max(1e-9);
    if report.failures.is_empty() {
        outln!(
            "regress seed {}: {} messages in {} scripts agree with the golden model ({} cycles, {:.1} s, {:.0} msg/s, {} jobs)",
            a.seed, report.messages, report.scripts, report.cycles, secs, rate, cfg.jobs
        );
        if report.rejected > 0 {
            outln!(
                "  {} of them need more than the {} build has and were rejected (rsp_error, no access), as expected",
                report.rejected,
                a.unit.name()
            );
        }
        if report.extra_scripts > 0 || cfg.until_covered {
            outln!(
                "  --until-covered: {} more scripts ({} messages) after the first {}; {}",
                report.extra_scripts,
                report.extra_messages,
                a.count,
                if report.coverage.holes(&report.space).is_empty() { "every reachable bin hit".to_string() } else {
                    format!("budget of {} messages spent with {} holes left", a.budget, report.coverage.holes(&report.space).len())
                }
            );
        }
        print_coverage(&report, a.coverage);
        return 0;
    }
    outln!(
        "regress seed {}: {} of {} scripts FAILED ({} messages agreed in {} scripts; {} cycles, {:.1} s, {:.0} msg/s, {} jobs){}",
        a.seed,
        report.failures.len(),
        report.outcomes.len(),
        report.messages,
        report.scripts,
        report.cycles,
        secs,
        rate,
        cfg.jobs,
        if report.stopped_early {
            format!("; stopped after {} failure(s) (--max-failures), {} scripts not run", cfg.max_failures, report.selected - report.outcomes.len())
        } else {
            String::new()
        }
    );
    // the failures' GTKWave views first: one that cannot be written is exit 2
    let mut views = Vec::new();
    for f in &report.failures {
        views.push(match &f.vcd {
            Err(e) => Err(e.to_string()),
            Ok(vcd) => match atomport_wave::gtkw::write_unit_gtkw(vcd) {
                Ok(view) => Ok((vcd.clone(), view)),
                Err(atomport_wave::gtkw::GtkwError::Write(e)) => return super::report_output_error(&e),
                Err(e) => Err(e.to_string()),
            },
        });
    }
    let mut waveform_views = views.into_iter();
    for f in &report.failures {
        outln!("MISMATCH in script {} (script seed {:#x})", f.script, f.script_seed);
        outln!("  first difference: {}", f.what.replace('\n', "\n  "));
        outln!("  failing script: {}", f.file.display());
        match waveform_views.next().expect("one per failure") {
            Ok((vcd, view)) => outln!("  waveform: {} (GTKWave view {})", vcd.display(), view.display()),
            Err(e) => outln!("  waveform: none ({e})"),
        }
        outln!("  run: {}", f.run_command);
        outln!("  reproduce: {}", f.reproduce);
    }
    print_coverage(&report, a.coverage);
    1
}

/// The coverage summary line, or with `--coverage` the whole report.
fn print_coverage(report: &regress::RegressReport, full: bool) {
    if full {
        out!("{}", report.coverage.report(&report.space));
    } else {
        outln!("  {} (--coverage lists the holes)", report.coverage.summary(&report.space));
    }
}
