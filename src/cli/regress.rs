//! `atomport regress --seed S --count N [--latency N|MIN..MAX] [--stall P]
//! [--per-script M] [--out DIR]`: seeded random valid scripts run on the
//! RTL and checked in lockstep against the golden model
//! (testbench/src/regress.rs), with a progress line on stderr.
//!
//! Exit status: 0 all messages agreed, 1 a mismatch (the failing script is
//! written to `<out>/fail-<seed>-<n>.atom` with the command that reproduces
//! it, and the first differing transaction is named), 2 bad arguments or
//! no RTL model.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use atomport_core::diag::EXIT_BAD_INPUT;
use atomport_testbench::generator::{admitted_fp_families, all_fp_families};
use atomport_testbench::memory::{LatencyRange, MemConfig};
use atomport_testbench::dut::UnitBuild;
use atomport_testbench::regress::{self, latency_text, RegressConfig};

/// Arguments of `atomport regress`.
#[derive(clap::Args, Debug)]
pub struct RegressArgs {
    /// seed of the whole run (printed; the same seed reruns the same scripts)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// random messages to run
    #[arg(long, default_value_t = 1000, value_parser = super::optval::at_least_one)]
    pub count: usize,
    /// memory read latency in cycles: N, or MIN..MAX drawn per read
    #[arg(long, value_name = "N|MIN..MAX", default_value = "1..4")]
    pub latency: LatencyRange,
    /// probability (0 <= PROB < 1) that the memory stalls each channel in a cycle
    #[arg(long, value_name = "PROB", default_value_t = 0.2, value_parser = super::optval::stall)]
    pub stall: f64,
    /// messages per generated script
    #[arg(long, value_name = "M", default_value_t = 200, value_parser = super::optval::at_least_one)]
    pub per_script: usize,
    /// directory for failing scripts
    #[arg(long, value_name = "DIR", default_value = "target/regress")]
    pub out: PathBuf,
    /// no progress line
    #[arg(long)]
    pub quiet: bool,
    /// the unit build to run: l32_w128 (= full, `atomic_unit`) or
    /// l8_w32_int (= small, `variants/atomic_unit_l8_w32_int`); the small
    /// build must reject every message it does not admit
    #[arg(long, default_value = "full", value_parser = parse_unit)]
    pub unit: UnitBuild,
}

fn parse_unit(text: &str) -> Result<UnitBuild, String> {
    UnitBuild::by_name(text)
}

pub fn main(a: RegressArgs) -> i32 {
    let mem = MemConfig { latency_min: a.latency.min, latency_max: a.latency.max, stall: a.stall, seed: a.seed };
    let cfg = RegressConfig {
        seed: a.seed,
        count: a.count,
        per_script: a.per_script,
        mem,
        out_dir: a.out.clone(),
        unit: a.unit,
    };
    eprintln!(
        "atomport regress: unit {}, seed {}, {} messages, {} per script, memory latency {}, stall {}; float families: all {} generated, {} admitted by the build",
        a.unit.name(),
        a.seed,
        a.count,
        cfg.per_script,
        latency_text(&mem),
        a.stall,
        all_fp_families().len(),
        admitted_fp_families(&a.unit.config()).len()
    );
    let start = Instant::now();
    let quiet = a.quiet;
    // a live bar on a terminal; in a log (CI, a pipe) one line per tenth
    let live = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut last_tenth = 0;
    let mut progress = |done: usize, total: usize| {
        if quiet {
            return;
        }
        if !live {
            let tenth = (done * 10).checked_div(total).unwrap_or(10);
            if tenth > last_tenth {
                last_tenth = tenth;
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                eprintln!("  {done}/{total} messages, {:.0} msg/s", done as f64 / secs);
            }
            return;
        }
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        let width = 30;
        let filled = (done * width).checked_div(total).unwrap_or(width);
        eprint!(
            "\r  [{}{}] {done}/{total} messages, {:.0} msg/s   ",
            "#".repeat(filled),
            "-".repeat(width - filled),
            done as f64 / secs
        );
        let _ = std::io::stderr().flush();
    };
    let report = match regress::run(&cfg, &mut progress) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("\natomport regress: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if !quiet && live {
        eprintln!();
    }
    let secs = start.elapsed().as_secs_f64();
    match report.failure {
        None => {
            println!(
                "regress seed {}: {} messages in {} scripts agree with the golden model ({} cycles, {:.1} s, {:.0} msg/s)",
                a.seed,
                report.messages,
                report.scripts,
                report.cycles,
                secs,
                report.messages as f64 / secs.max(1e-9)
            );
            if report.rejected > 0 {
                println!(
                    "  {} of them need more than the {} build has and were rejected (rsp_error, no access), as expected",
                    report.rejected,
                    a.unit.name()
                );
            }
            println!("  coverage: {}", report.coverage.summary());
            0
        }
        Some(f) => {
            println!(
                "regress seed {}: MISMATCH in script {} (script seed {:#x}) after {} agreeing messages",
                a.seed, f.script, f.script_seed, report.messages
            );
            println!("  first difference: {}", f.what.replace('\n', "\n  "));
            println!("  failing script: {}", f.file.display());
            match f.vcd.clone().and_then(|vcd| atomport_wave::gtkw::write_unit_gtkw(&vcd).map(|_| vcd)) {
                Ok(vcd) => println!("  waveform: {} (GTKWave view {})", vcd.display(), atomport_wave::gtkw::gtkw_path(&vcd).display()),
                Err(e) => println!("  waveform: none ({e})"),
            }
            println!("  reproduce: {}", f.reproduce);
            1
        }
    }
}
