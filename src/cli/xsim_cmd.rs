//! `atomport xsim [--unit U] [--scripts N] [--seed S] [--per-script M]
//! [--latency N|MIN..MAX] [--stall P] [--jobs J] [--work DIR] [--icarus-timeout SECS]`: the same
//! seeded random scripts as `atomport regress` on Verilator (checked against
//! the golden model, with a VCD) and replayed on the emitted Verilog under
//! Icarus; the two VCDs compared on every signal of the unit's scope, on
//! the clock and in time (`atomport_wavecheck::xsim`). Prints scripts, agreeing,
//! signals compared and wall time; the first differences of a script that
//! disagrees, whose VCDs stay in the work directory.
//!
//! Exit status: 0 every script agrees, 1 a script disagrees (or the RTL
//! disagrees with the golden model), 2 bad options, or a tool missing or
//! failing.

use std::path::PathBuf;

use atomport_core::diag::EXIT_BAD_INPUT;
use atomport_testbench::dut::UnitBuild;
use atomport_testbench::memory::{LatencyRange, MemConfig};
use atomport_wavecheck::xsim::{run, XsimConfig, XsimError};

/// Arguments of `atomport xsim`.
#[derive(clap::Args, Debug)]
pub struct XsimArgs {
    /// the unit build: l32_w128 (= full), l8_w32_int (= small), serial_l8_w32_int (= serial)
    #[arg(long, default_value = "full", value_parser = parse_unit)]
    pub unit: UnitBuild,
    /// random scripts
    #[arg(long, default_value_t = 20, value_parser = super::optval::at_least_one)]
    pub scripts: usize,
    /// seed of the run (script k is script k of `atomport regress` with this seed)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// messages per script
    #[arg(long, value_name = "M", default_value_t = 40, value_parser = super::optval::at_least_one)]
    pub per_script: usize,
    /// memory read latency in cycles: N, or MIN..MAX drawn per read
    #[arg(long, value_name = "N|MIN..MAX", default_value = "1..4")]
    pub latency: LatencyRange,
    /// probability (0 <= PROB < 1) that the memory stalls each channel in a cycle
    #[arg(long, value_name = "PROB", default_value_t = 0.2, value_parser = super::optval::stall)]
    pub stall: f64,
    /// threads (default: the number of cores)
    #[arg(long, value_name = "J", value_parser = super::optval::at_least_one)]
    pub jobs: Option<usize>,
    /// the bench, stimuli and VCDs (a disagreeing script's stay) [default: target/xsim]
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// seconds an Icarus run may take before it counts as hung (a
    /// zero-delay loop) and its script disagrees
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = super::optval::at_least_one)]
    pub icarus_timeout: usize,
    /// the emitted Verilog [default: the source tree's hdl/verilog]
    #[arg(long, value_name = "DIR")]
    pub verilog_dir: Option<PathBuf>,
    /// Write the run's figures as JSON to FILE (build, scripts, agreeing,
    /// messages, cycles, signals compared, wall time)
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

fn parse_unit(text: &str) -> Result<UnitBuild, String> {
    UnitBuild::by_name(text).map_err(|e| e.to_string())
}

pub fn main(a: XsimArgs) -> i32 {
    let work = a.work.clone().unwrap_or_else(|| PathBuf::from("target/xsim"));
    let plan = match &a.work {
        Some(dir) => atomport_core::output_file::OutputPlan::new().folder("--work", Some(dir)),
        None => atomport_core::output_file::OutputPlan::new().default_folder("--work", &work),
    }
    .file("--report", a.report.as_deref());
    if let Err(code) = super::check_outputs(plan) {
        return code;
    }
    let cfg = XsimConfig {
        unit: a.unit,
        seed: a.seed,
        scripts: a.scripts,
        per_script: a.per_script,
        mem: MemConfig { latency_min: a.latency.min, latency_max: a.latency.max, stall: a.stall, seed: a.seed },
        verilog_dir: a.verilog_dir.unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/hdl/verilog"))),
        work: work.join(a.unit.name()),
        jobs: a.jobs.unwrap_or_else(super::regress_cmd::cores),
        drop_input: None,
        icarus_timeout: std::time::Duration::from_secs(a.icarus_timeout as u64),
    };
    eprintln!("atomport xsim: {} scripts of {} messages on {} (seed {}), Verilator vs Icarus", cfg.scripts, cfg.per_script, a.unit.name(), cfg.seed);
    let report = match run(&cfg, &|_| {}) {
        Ok(r) => r,
        Err(e @ XsimError::Script { .. }) => {
            eprintln!("atomport xsim: error: {e}");
            return 1;
        }
        Err(e) => {
            eprintln!("atomport xsim: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let compared: Vec<usize> = report.scripts.iter().map(|s| s.compared).collect();
    let cycles: u64 = report.scripts.iter().map(|s| s.cycles).sum();
    let messages: usize = report.scripts.iter().map(|s| s.messages).sum();
    for s in report.scripts.iter().filter(|s| !s.agrees()) {
        println!("script {} (seed {:#x}) disagrees; VCDs in {}:", s.index, s.seed, cfg.work.display());
        for d in &s.differences {
            println!("  {d}");
        }
    }
    println!(
        "xsim {}: {} scripts, {} agreeing; {messages} messages, {cycles} cycles; {}..{} signals compared per script; Icarus compile {:.1} s, wall {:.1} s",
        report.module,
        report.scripts.len(),
        report.agreeing(),
        compared.iter().min().unwrap_or(&0),
        compared.iter().max().unwrap_or(&0),
        report.compile.as_secs_f64(),
        report.wall.as_secs_f64()
    );
    if let Some(path) = &a.report {
        let json = serde_json::json!({
            "unit": a.unit.name(),
            "module": report.module,
            "seed": cfg.seed,
            "per_script": cfg.per_script,
            "scripts": report.scripts.len(),
            "agreeing": report.agreeing(),
            "messages": messages,
            "cycles": cycles,
            "signals_compared": {"min": compared.iter().min().unwrap_or(&0), "max": compared.iter().max().unwrap_or(&0)},
            "icarus_compile_seconds": report.compile.as_secs_f64(),
            "wall_seconds": report.wall.as_secs_f64(),
        });
        let text = serde_json::to_string_pretty(&json).expect("a JSON value prints") + "\n";
        if let Err(e) = atomport_core::output_file::write_file(path, text.as_bytes()) {
            eprintln!("atomport xsim: error: {e}");
            return EXIT_BAD_INPUT;
        }
    }
    if report.agreeing() == report.scripts.len() {
        0
    } else {
        1
    }
}
