//! `atomport run FILE [--engine golden|rtl|both] [--json]`: run a message
//! script and print its results and dumps (scripts.md "JSON output").
//!
//! Exit status: 0 success, 1 the engines disagree (`both`) or the RTL run
//! failed (a message flagged illegal, the watchdog, a broken port
//! contract, a Verilator fatal), 2 bad input (the parser's
//! `FILE:LINE:COL: error: ...` on stderr, or a bad option value: nothing
//! runs), 3 the unit build (`--unit`) rejected a message of the script, so
//! it could not run the whole script (the rest ran and was checked).
//!
//! RTL engines (testbench/): `--latency N` or `MIN..MAX` (read latency in
//! cycles, drawn per read; default 1), `--stall PROB` (each memory channel
//! stalls a cycle with this probability, 0 <= PROB < 1; default 0),
//! `--seed S` (the memory model's random choices; default 1), `--vcd PATH`
//! (waveform of the run, and its GTKWave view `PATH.gtkw`:
//! docs/waveforms.md; a `.fst` name is refused), `--fst PATH` (the same
//! waveform as FST, from the unit verilated with `--trace-fst`; not with
//! `--vcd`), `--unit BUILD` (the unit
//! build: `full`, default, `l8_w32_int` = `small`, or its serial build
//! `serial_l8_w32_int` = `serial`). A smaller build
//! rejects the messages it does not admit (docs/microarchitecture.md
//! "Build parameters"): each is a note on stderr, it makes no access, its
//! JSON `results` entry has every lane `null` and a `rejected` field
//! saying why, and the exit status is 3; `both` compares with the golden
//! model's run of the admitted messages.
//!
//! `--engine both` ends with a one-line verdict on stderr ("RTL and golden
//! agree: N transactions, M results, final memory (K bytes) equal", or the
//! first difference) and its JSON has a `comparison` object (scripts.md
//! extension, docs/script-language.md "JSON extensions").

use std::path::PathBuf;

use atomport_core::diag::EXIT_BAD_INPUT;
use atomport_core::outcome::{LaneResults, RunOutput};
use atomport_core::output_file::{write_file, OutputPlan};
use atomport_core::program::Program;
use atomport_core::report::{Comparison, Extensions, RejectedResult};
use atomport_testbench::memory::{LatencyRange, MemConfig};
use atomport_testbench::scoreboard::first_output_difference;
use atomport_testbench::dut::{golden_final_memory_bytes, golden_for_build, rejected_by_build, simulate_build, UnitBuild};
use atomport_testbench::{RtlError, RtlOptions};

/// Which engine runs the script.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// the golden behavioral model
    Golden,
    /// the Verilated RTL
    Rtl,
    /// both; prints the RTL's output and exits 1 on the first difference
    Both,
}

/// Arguments of `atomport run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// the script (`.atom`), or `-` for standard input
    pub file: String,
    /// the engine to run
    #[arg(long, value_enum, default_value_t = EngineChoice::Golden)]
    pub engine: EngineChoice,
    /// print the JSON of scripts.md instead of a table
    #[arg(long)]
    pub json: bool,
    /// RTL engines: write a VCD waveform to this path
    #[arg(long, value_name = "PATH", value_parser = super::optval::vcd_out)]
    pub vcd: Option<PathBuf>,
    /// RTL engines: write an FST waveform to this path (Verilator's FST tracing; not with --vcd)
    #[arg(long, value_name = "PATH", value_parser = super::optval::fst_out, conflicts_with = "vcd")]
    pub fst: Option<PathBuf>,
    /// RTL engines: memory-model read latency in cycles, N or MIN..MAX (drawn per read)
    #[arg(allow_negative_numbers = true, long, value_name = "N|MIN..MAX")]
    pub latency: Option<LatencyRange>,
    /// RTL engines: probability (0 <= PROB < 1) that the memory model stalls a cycle
    #[arg(allow_negative_numbers = true, long, value_name = "PROB", value_parser = super::optval::stall)]
    pub stall: Option<f64>,
    /// RTL engines: seed of the memory model's random stalls
    #[arg(allow_negative_numbers = true, long, value_name = "S")]
    pub seed: Option<u64>,
    /// RTL engines: the unit build, full (l32_w128), small (l8_w32_int) or serial (serial_l8_w32_int)
    #[arg(long, value_name = "BUILD", value_parser = UnitBuild::by_name)]
    pub unit: Option<UnitBuild>,
    /// also write the run's JSON (the --json output) to FILE.json
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// write a JUnit XML file: one test case, the script; with --engine both
    /// a failure carries the first difference and the reproduce command
    #[arg(long, value_name = "FILE.xml")]
    pub junit: Option<PathBuf>,
}

/// Exit status of `run --unit BUILD` when the build rejects a message of
/// the script (it could not run the whole script; the rest ran and the
/// output holds the rejected messages with their rejection).
pub const EXIT_BUILD_CANNOT_RUN: i32 = 3;

/// Print a run's output in the chosen form; returns its JSON (`--report`).
fn print(out: &RunOutput, ext: &Extensions, json: bool) -> String {
    let text = atomport_core::report::json_extended(out, ext);
    if json {
        out!("{text}");
    } else {
        out!("{}", atomport_core::report::table(out));
    }
    text
}

/// What `--report` and `--junit` write: the run's JSON and, for a failed
/// run, what failed.
#[derive(Default)]
struct Written {
    json: Option<String>,
    failure: Option<String>,
}

/// The one-line command that reruns this run as it was (`--engine both`).
fn reproduce_command(a: &RunArgs) -> String {
    let o = rtl_options(a);
    let mut s = format!(
        "atomport run {} --engine both --latency {} --stall {} --seed {}",
        a.file,
        atomport_testbench::regress::latency_text(&o.mem),
        o.mem.stall,
        o.mem.seed
    );
    if let Some(u) = a.unit {
        s += &format!(" --unit {}", u.name());
    }
    s
}

/// Writes `--report` and `--junit`; a file that cannot be written turns the
/// exit status into 2.
fn write_reports(a: &RunArgs, w: &Written, code: i32, seconds: f64) -> i32 {
    use atomport_testbench::results::{junit_xml, JunitCase};
    if let (Some(path), Some(json)) = (&a.report, &w.json) {
        if let Err(e) = write_file(path, json.as_bytes()) {
            return super::report_output_error(&e);
        }
    }
    if let Some(path) = &a.junit {
        let engine = format!("{:?}", a.engine).to_lowercase();
        let failure = (code == 1 || code == EXIT_BUILD_CANNOT_RUN).then(|| {
            let what = w.failure.clone().unwrap_or_else(|| format!("exit status {code}"));
            let first = what.lines().next().unwrap_or("").to_string();
            (format!("{first} -- reproduce: {}", reproduce_command(a)), format!("{what}\nreproduce: {}\n", reproduce_command(a)))
        });
        let failure_type = if code == EXIT_BUILD_CANNOT_RUN { JunitCase::REJECTED } else { JunitCase::MISMATCH };
        let case = JunitCase { classname: format!("atomport.run.{engine}"), name: a.file.clone(), seconds, failure, failure_type };
        let xml = junit_xml(&format!("atomport run {}", a.file), &[("engine", engine)], &[case], "");
        if let Err(e) = write_file(path, xml.as_bytes()) {
            return super::report_output_error(&e);
        }
    }
    code
}

/// The `results` entries of the messages the build rejects (dst not V0):
/// every lane `null`, and why (scripts.md extension, docs/script-language.md).
fn rejected_results(unit: UnitBuild, program: &Program) -> Vec<RejectedResult> {
    rejected_by_build(unit, program)
        .into_iter()
        .filter_map(|(_, m, why)| {
            m.dst.as_ref().map(|name| RejectedResult {
                result: LaneResults { line: m.line, name: name.clone(), width: m.result_width(), lanes: vec![None; m.exec_size as usize] },
                why: format!("the {} build does not admit this message: {why}", unit.name()),
            })
        })
        .collect()
}

/// Says that the build could not run the whole script (exit 3).
fn cannot_run(a: &RunArgs, unit: UnitBuild, rejected: usize) -> i32 {
    eprintln!(
        "atomport run: {}: the {} build cannot run this script: it rejected {rejected} message(s) (the rest ran; exit status {EXIT_BUILD_CANNOT_RUN})",
        a.file,
        unit.name()
    );
    EXIT_BUILD_CANNOT_RUN
}

/// The run's outputs and input, checked before it starts: the waveform and
/// its GTKWave view (RTL engines), the report, the JUnit file.
fn output_plan(a: &RunArgs) -> OutputPlan {
    let mut plan = OutputPlan::new().input_str(&a.file);
    if a.engine != EngineChoice::Golden {
        let view = a.vcd.as_deref().or(a.fst.as_deref()).map(atomport_wave::gtkw::gtkw_path);
        plan = plan.file("--vcd", a.vcd.as_deref()).file("--fst", a.fst.as_deref()).file("the GTKWave view", view.as_deref());
    }
    plan.file("--report", a.report.as_deref()).file("--junit", a.junit.as_deref())
}

pub fn main(a: RunArgs) -> i32 {
    if let Err(code) = super::check_outputs(output_plan(&a)) {
        return code;
    }
    let start = std::time::Instant::now();
    let mut w = Written::default();
    let code = run(&a, &mut w);
    if code == EXIT_BAD_INPUT {
        return code;
    }
    write_reports(&a, &w, code, start.elapsed().as_secs_f64())
}

fn run(a: &RunArgs, w: &mut Written) -> i32 {
    let program = match super::read_script(&a.file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let unit = a.unit.unwrap_or(UnitBuild::Full);
    match a.engine {
        EngineChoice::Golden => {
            if a.vcd.is_some() || a.fst.is_some() || a.latency.is_some() || a.stall.is_some() || a.seed.is_some() || a.unit.is_some() {
                eprintln!("atomport run: note: --vcd, --fst, --latency, --stall, --seed and --unit apply to --engine rtl|both; ignored");
            }
            w.json = Some(print(&atomport_core::golden::run(&program), &Extensions::default(), a.json));
            0
        }
        EngineChoice::Rtl => with_view(a, match simulate_build(unit, &program, &rtl_options(&a), false) {
            Ok(sim) => {
                let ext = Extensions { rejected: rejected_results(unit, &program), comparison: None };
                w.json = Some(print(&sim.output, &ext, a.json));
                // a rejection the build is expected to make is a note
                let mut failed = false;
                for flag in &sim.illegal {
                    if sim.rejected.contains(&flag.index) {
                        eprintln!("{}:{}: note: {}", a.file, flag.line, flag.what());
                    } else {
                        eprintln!("{}:{}: error: {}", a.file, flag.line, flag.what());
                        w.failure.get_or_insert_with(|| format!("{}:{}: {}", a.file, flag.line, flag.what()));
                        failed = true;
                    }
                }
                if failed {
                    1
                } else if !sim.rejected.is_empty() {
                    cannot_run(a, unit, sim.rejected.len())
                } else {
                    0
                }
            }
            Err(e) => {
                w.failure = Some(e.to_string());
                rtl_failed(a, &e)
            }
        }),
        EngineChoice::Both => {
            let golden = golden_for_build(unit, &program);
            with_view(a, match simulate_build(unit, &program, &rtl_options(&a), true) {
                Ok(sim) => {
                    let diff = sim.mismatch.as_ref().map(|m| m.to_string()).or_else(|| first_output_difference(&golden, &sim.output));
                    let comparison = Comparison {
                        agree: diff.is_none(),
                        rtl_transactions: sim.output.txns.len(),
                        golden_transactions: golden.txns.len(),
                        rtl_results: sim.output.results.len(),
                        golden_results: golden.results.len(),
                        final_memory_bytes: golden_final_memory_bytes(unit, &program),
                        rejected: sim.rejected.len(),
                        first_difference: diff,
                    };
                    let ext = Extensions { rejected: rejected_results(unit, &program), comparison: Some(comparison.clone()) };
                    w.json = Some(print(&sim.output, &ext, a.json));
                    w.failure = comparison.first_difference.clone();
                    // the scoreboard checked these rejections; anything else flagged is a mismatch
                    for flag in sim.illegal.iter().filter(|f| sim.rejected.contains(&f.index)) {
                        eprintln!("{}:{}: note: {}", a.file, flag.line, flag.what());
                    }
                    eprintln!("atomport run: {}: {}", a.file, comparison.verdict());
                    if !comparison.agree {
                        1
                    } else if comparison.rejected > 0 {
                        w.failure.get_or_insert_with(|| format!("the {} build rejected {} message(s)", unit.name(), comparison.rejected));
                        cannot_run(a, unit, comparison.rejected)
                    } else {
                        0
                    }
                }
                Err(e) => {
                    w.failure = Some(e.to_string());
                    rtl_failed(a, &e)
                }
            })
        }
    }
}

/// After an RTL run with `--vcd PATH` or `--fst PATH` (passed or failed),
/// writes the GTKWave view `PATH.gtkw` beside the waveform
/// (docs/waveforms.md); `code` is the run's exit status, returned unchanged
/// unless the view cannot be written (2).
fn with_view(a: &RunArgs, code: i32) -> i32 {
    if let Some(vcd) = a.vcd.as_deref().or(a.fst.as_deref()).filter(|p| p.exists() && code != EXIT_BAD_INPUT) {
        match atomport_wave::gtkw::write_unit_gtkw(vcd) {
            Err(atomport_wave::gtkw::GtkwError::Write(e)) => return super::report_output_error(&e),
            Err(e) => eprintln!("atomport run: note: no GTKWave view: {e}"),
            Ok(_) => {}
        }
    }
    code
}

/// Reports an RTL run that stopped: a trace file that cannot be written is
/// bad input (2); anything else is the RTL failing (1).
fn rtl_failed(a: &RunArgs, e: &RtlError) -> i32 {
    if let RtlError::Sim(atomport_sim::SimError::Trace(m)) = e {
        eprintln!("atomport run: error: {} {m}; no waveform written", if a.fst.is_some() { "--fst" } else { "--vcd" });
        return EXIT_BAD_INPUT;
    }
    eprintln!("atomport run: error: the RTL run failed: {e}");
    1
}

/// The memory model and waveform of the RTL engines, from the options.
fn rtl_options(a: &RunArgs) -> RtlOptions {
    let latency = a.latency.unwrap_or(LatencyRange { min: 1, max: 1 });
    RtlOptions {
        mem: MemConfig { latency_min: latency.min, latency_max: latency.max, stall: a.stall.unwrap_or(0.0), seed: a.seed.unwrap_or(1) },
        vcd: a.vcd.clone(),
        fst: a.fst.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(file: &str, engine: EngineChoice) -> RunArgs {
        RunArgs { file: file.into(), engine, json: true, vcd: None, fst: None, latency: None, stall: None, seed: None, unit: None, report: None, junit: None }
    }

    fn example(name: &str) -> String {
        format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn exit_status_golden_ok_bad_input_and_rtl() {
        assert_eq!(main(args(&example("lock.atom"), EngineChoice::Golden)), 0);
        assert_eq!(main(args(&example("no-such-file.atom"), EngineChoice::Golden)), EXIT_BAD_INPUT);
        assert_eq!(main(args(&example("no-such-file.atom"), EngineChoice::Both)), EXIT_BAD_INPUT);
        assert_eq!(main(args(&example("lock.atom"), EngineChoice::Rtl)), 0);
        assert_eq!(main(args(&example("lock.atom"), EngineChoice::Both)), 0);
    }

    /// The small build runs what it admits and rejects the rest (examples/fp.atom
    /// is all float ops, examples/typed_2d.atom is 32-bit integer at 8 lanes).
    #[test]
    fn small_build_rejects_what_it_does_not_admit() {
        for (file, rejected) in [("fp.atom", true), ("typed_2d.atom", false)] {
            let program = atomport_core::script::parse_file(&example(file)).unwrap();
            let opts = RtlOptions::default();
            let small = simulate_build(UnitBuild::Small, &program, &opts, true).unwrap();
            assert_eq!(!small.rejected.is_empty(), rejected, "{file}");
            assert_eq!(small.illegal.len(), small.rejected.len(), "{file}");
            assert!(small.mismatch.is_none(), "{file}");
            assert!(simulate_build(UnitBuild::Full, &program, &opts, true).unwrap().rejected.is_empty());
            for engine in [EngineChoice::Rtl, EngineChoice::Both] {
                let mut a = args(&example(file), engine);
                a.unit = Some(UnitBuild::Small);
                // a build that rejects a message could not run the script
                let want = if rejected { EXIT_BUILD_CANNOT_RUN } else { 0 };
                assert_eq!(main(a), want, "{file} {engine:?}");
            }
        }
    }

    #[test]
    fn rtl_options_parse_and_are_kept() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            run: RunArgs,
        }
        let cli = Cli::try_parse_from([
            "run",
            "x.atom",
            "--engine",
            "both",
            "--json",
            "--vcd",
            "w.vcd",
            "--latency",
            "3",
            "--stall",
            "0.25",
            "--seed",
            "7",
        ])
        .unwrap();
        let a = cli.run;
        assert_eq!(
            (a.engine, a.json, a.latency, a.stall, a.seed),
            (EngineChoice::Both, true, Some(LatencyRange { min: 3, max: 3 }), Some(0.25), Some(7))
        );
        assert_eq!(a.vcd.as_deref(), Some(std::path::Path::new("w.vcd")));
        assert!(Cli::try_parse_from(["run", "x.atom", "--engine", "verilog"]).is_err());
    }
}
