//! `atomport merge SHARD.json... [--out FILE.json] [--junit FILE.xml]
//! [--expect FILE.json]`: joins the reports of the shards of one regression
//! (`regress --shard K/N --report ...`) into the run's report: counts,
//! failures with their reproduce commands, coverage.
//!
//! Exit status: 0 every script of the run is there and agreed (and the
//! merge equals `--expect`), 1 a failure, a script no shard ran, or a
//! difference from `--expect`, 2 a report that cannot be read or reports of
//! different runs / overlapping shards.

use std::path::PathBuf;

use atomport_core::diag::EXIT_BAD_INPUT;
use atomport_core::output_file::{write_file, OutputPlan};
use atomport_testbench::results::{self, junit_of_run, RunRecord};

/// Arguments of `atomport merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// shard reports (`regress --report`), any order
    #[arg(required = true, value_name = "SHARD.json")]
    pub reports: Vec<PathBuf>,
    /// write the merged report here
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// write the merged JUnit XML here
    #[arg(long, value_name = "FILE.xml")]
    pub junit: Option<PathBuf>,
    /// a report the merge must equal (the unsharded run): same scripts,
    /// verdicts, cycles and coverage
    #[arg(long, value_name = "FILE.json")]
    pub expect: Option<PathBuf>,
    /// print the merged functional coverage report (holes, unreachable bins)
    #[arg(long)]
    pub coverage: bool,
}

fn read(path: &std::path::Path) -> Result<RunRecord, String> {
    let input = super::input::read_input(&path.to_string_lossy(), "report").map_err(|d| d.to_string())?;
    RunRecord::from_json(&input.name, &String::from_utf8_lossy(&input.bytes)).map_err(|e| e.to_string())
}

pub fn main(a: MergeArgs) -> i32 {
    let mut plan = OutputPlan::new();
    for p in a.reports.iter().chain(&a.expect) {
        plan = plan.input(p);
    }
    if let Err(code) = super::check_outputs(plan.file("--out", a.out.as_deref()).file("--junit", a.junit.as_deref())) {
        return code;
    }
    let mut records = vec![];
    for p in &a.reports {
        match read(p) {
            Ok(r) => records.push((p.display().to_string(), r)),
            Err(e) => {
                eprintln!("{e}");
                return EXIT_BAD_INPUT;
            }
        }
    }
    let merged = match results::merge(&records) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let expected = match a.expect.as_deref().map(read).transpose() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    if let Some(path) = &a.out {
        let text = serde_json::to_string_pretty(&merged.to_json()).expect("JSON") + "\n";
        if let Err(e) = write_file(path, text.as_bytes()) {
            return super::report_output_error(&e);
        }
    }
    if let Some(path) = &a.junit {
        if let Err(e) = write_file(path, junit_of_run(&merged).as_bytes()) {
            return super::report_output_error(&e);
        }
    }
    let failures: Vec<_> = merged.failures().collect();
    let missing = merged.missing();
    outln!(
        "merge of {} reports ({}): {} scripts of {}, {} messages, {} cycles, {} rejected by the build, {} failed{}",
        records.len(),
        merged.options,
        merged.scripts.len(),
        merged.total_scripts,
        merged.messages(),
        merged.cycles(),
        merged.rejected(),
        failures.len(),
        if merged.shards.is_empty() { String::new() } else {
            format!("; shards present: {}", merged.shards.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" "))
        }
    );
    if a.coverage {
        out!("{}", merged.coverage.report(&merged.space));
    } else {
        outln!("  {}", merged.coverage.summary(&merged.space));
    }
    for (s, f) in &failures {
        outln!("FAILED script {} (seed {:#x}{}): {}", s.index, s.seed, s.shard.map_or(String::new(), |x| format!(", shard {x}")), f.what.lines().next().unwrap_or(""));
        outln!("  failing script: {}", f.file);
        outln!("  reproduce: {}", f.reproduce);
    }
    let mut status = if failures.is_empty() { 0 } else { 1 };
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(20).map(|k| k.to_string()).collect();
        outln!(
            "MISSING {} scripts no report holds{}: {}{}",
            missing.len(),
            if merged.stopped_early { " (a shard stopped at --max-failures)" } else { "" },
            shown.join(" "),
            if missing.len() > shown.len() { " ..." } else { "" }
        );
        status = 1;
    }
    if let (Some(e), Some(path)) = (&expected, &a.expect) {
        match merged.differs_from(e) {
            None => outln!("  equals {}: same scripts, verdicts, cycles and coverage", path.display()),
            Some(d) => {
                outln!("DIFFERS from {}: {d}", path.display());
                status = 1;
            }
        }
    }
    status
}
