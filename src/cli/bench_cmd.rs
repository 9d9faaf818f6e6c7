//! `atomport bench [--json] [--rounds N]`: the unit's cycles per message and
//! per enabled lane for each message kind and exec size (one-cycle memory,
//! no stalls, every run checked against the golden model), against the
//! throughput targets; then the simulation speed of the Rust-driven
//! Verilator loop and of a C++ harness of the same model on the same
//! message stream (testbench/src/bench.rs, sim/cpp/bench_atomic_unit.cpp).
//!
//! Exit status: 0 printed (targets missed are reported, not an error),
//! 1 the RTL disagreed with the golden model or the two speed loops
//! disagreed, 2 no RTL model.

use std::time::Instant;

use serde::Serialize;

use atomport_testbench::bench::{self, LoopResult, ThroughputRow, IMAGE_WORDS};

/// Arguments of `atomport bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// print JSON instead of tables
    #[arg(long)]
    pub json: bool,
    /// passes over the 64-message speed stream per timed run
    #[arg(allow_negative_numbers = true, long, value_name = "N", default_value_t = 400, value_parser = super::optval::at_least_one_u64)]
    pub rounds: u64,
}

/// `atomport bench --json`.
#[derive(Serialize)]
struct BenchJson<'a> {
    throughput: Vec<RowJson<'a>>,
    targets_missed: usize,
    speed: SpeedJson,
}

/// One throughput row.
#[derive(Serialize)]
struct RowJson<'a> {
    kind: &'a str,
    exec_size: u8,
    addressing: &'a str,
    enabled_lanes: u32,
    elements: u32,
    cycles_per_message: f64,
    cycles_per_lane: f64,
    first_message_latency: u64,
    target_cycles_per_message: f64,
    met: bool,
}

impl<'a> RowJson<'a> {
    fn new(r: &'a ThroughputRow) -> Self {
        RowJson {
            kind: &r.kind,
            exec_size: r.exec_size,
            addressing: r.addressing,
            enabled_lanes: r.enabled_lanes,
            elements: r.elements,
            cycles_per_message: r.cycles_per_message,
            cycles_per_lane: r.cycles_per_lane,
            first_message_latency: r.first_latency,
            target_cycles_per_message: r.target,
            met: r.met(),
        }
    }
}

/// The speed loops on the same stream.
#[derive(Serialize)]
struct SpeedJson {
    stream_messages: usize,
    rounds: u64,
    cycles: u64,
    messages: u64,
    checksum: String,
    rust: RateJson,
    cpp: RateJson,
    ratio_rust_over_cpp: f64,
    checked_bench: CheckedJson,
}

/// One loop's best timed run.
#[derive(Serialize)]
struct RateJson {
    cycles_per_s: f64,
    messages_per_s: f64,
    seconds: f64,
}

/// The checked bench (driver, monitor, scoreboard) on the same stream.
#[derive(Serialize)]
struct CheckedJson {
    cycles_per_s: f64,
    messages_per_s: f64,
    cycles: u64,
    messages: u64,
}

/// Timed runs of each speed loop; each rate is the best run (the machine is shared).
const SPEED_RUNS: usize = 3;

/// Best wall time of `runs` calls of `f`, and its (last) result.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> Result<T, String>) -> Result<(f64, T), String> {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = f()?;
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(r);
    }
    Ok((best, last.expect("runs > 0")))
}

/// How a row stands against its target, in words.
fn verdict(r: &ThroughputRow) -> String {
    if r.met() {
        "met".to_string()
    } else {
        let over = r.cycles_per_message - r.target;
        format!("missed by {over:.2} cycles/msg ({:.0}% slower)", 100.0 * over / r.target)
    }
}

pub fn main(a: BenchArgs) -> i32 {
    let rows = match bench::throughput() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("atomport bench: error: {e}");
            return 1;
        }
    };
    let images = match bench::speed_stream() {
        Ok(i) => i,
        Err(e) => {
            eprintln!("atomport bench: error: {e}");
            return 2;
        }
    };
    let rounds = a.rounds;
    let cap = bench::speed_cycle_cap(&images, rounds);
    // warm up both loops once, then the timed runs, interleaved
    let _ = bench::rust_speed_loop(&images, 1, cap);
    let _ = atomport_sim::cpp_bench_atomic_unit(&images, IMAGE_WORDS, 1, cap);
    let mut rust_best = f64::MAX;
    let mut cpp_best = f64::MAX;
    let mut rust_result = None;
    let mut cpp_result = None;
    for _ in 0..SPEED_RUNS {
        match best_of(1, || bench::rust_speed_loop(&images, rounds, cap).map_err(|e| e.to_string())) {
            Ok((t, r)) => {
                rust_best = rust_best.min(t);
                rust_result = Some(r);
            }
            Err(e) => {
                eprintln!("atomport bench: error: {e}");
                return 1;
            }
        }
        let (t, (checksum, cycles, messages)) =
            best_of(1, || Ok(atomport_sim::cpp_bench_atomic_unit(&images, IMAGE_WORDS, rounds, cap))).expect("C++ loop");
        cpp_best = cpp_best.min(t);
        cpp_result = Some(LoopResult { cycles, messages, checksum });
    }
    let (rust, cpp) = (rust_result.unwrap(), cpp_result.unwrap());
    let checked = match bench::checked_speed((rounds / 4).max(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("atomport bench: error: {e}");
            return 1;
        }
    };
    let (checked_cps, checked_mps) = (checked.0 as f64 / checked.2, checked.1 as f64 / checked.2);
    if rust != cpp {
        eprintln!("atomport bench: error: the Rust and C++ loops disagree: Rust {rust:?}, C++ {cpp:?}");
        return 1;
    }
    if rust.messages != (images.len() / IMAGE_WORDS) as u64 * rounds {
        eprintln!("atomport bench: error: the speed stream did not finish within {cap} cycles ({} messages done)", rust.messages);
        return 1;
    }
    let rate = |t: f64| (rust.cycles as f64 / t, rust.messages as f64 / t);
    let (rust_cps, rust_mps) = rate(rust_best);
    let (cpp_cps, cpp_mps) = rate(cpp_best);
    let missed = rows.iter().filter(|r| !r.met()).count();

    if a.json {
        let rate_json = |cycles_per_s, messages_per_s, seconds| RateJson { cycles_per_s, messages_per_s, seconds };
        let report = BenchJson {
            throughput: rows.iter().map(RowJson::new).collect(),
            targets_missed: missed,
            speed: SpeedJson {
                stream_messages: images.len() / IMAGE_WORDS,
                rounds,
                cycles: rust.cycles,
                messages: rust.messages,
                checksum: format!("{:#018x}", rust.checksum),
                rust: rate_json(rust_cps, rust_mps, rust_best),
                cpp: rate_json(cpp_cps, cpp_mps, cpp_best),
                ratio_rust_over_cpp: rust_cps / cpp_cps,
                checked_bench: CheckedJson { cycles_per_s: checked_cps, messages_per_s: checked_mps, cycles: checked.0, messages: checked.1 },
            },
        };
        // through a `Value`: the keys print sorted (the format's stable order)
        let v = serde_json::to_value(report).expect("json");
        outln!("{}", serde_json::to_string_pretty(&v).expect("json"));
        return 0;
    }

    outln!("atomic_unit throughput: 1-cycle memory, no stalls, all lanes enabled, {} back-to-back messages per row", bench::STREAM);
    outln!("(steady state after {} messages; target = one memory element per cycle, no idle cycle between messages)\n", bench::WARMUP);
    outln!(
        "{:<38} {:>4} {:>8} {:>8} {:>10} {:>10} {:>8} {:>8}  verdict",
        "message", "exec", "address", "elements", "cyc/msg", "cyc/lane", "target", "latency"
    );
    for r in &rows {
        outln!(
            "{:<38} {:>4} {:>8} {:>8} {:>10.2} {:>10.2} {:>8.0} {:>8}  {}",
            r.kind,
            r.exec_size,
            r.addressing,
            r.elements,
            r.cycles_per_message,
            r.cycles_per_lane,
            r.target,
            r.first_latency,
            verdict(r)
        );
    }
    outln!("\n{} of {} rows meet the target", rows.len() - missed, rows.len());
    outln!(
        "\nsimulation speed: {} messages ({} cycles) per run, {} runs, best run (checksum {:#018x} on both)",
        rust.messages,
        rust.cycles,
        SPEED_RUNS,
        rust.checksum
    );
    outln!("  Rust-driven loop : {:>12.0} cycles/s {:>12.0} messages/s", rust_cps, rust_mps);
    outln!("  C++ harness      : {:>12.0} cycles/s {:>12.0} messages/s", cpp_cps, cpp_mps);
    outln!("  ratio Rust / C++ : {:.3}  (target >= 0.9)", rust_cps / cpp_cps);
    outln!(
        "  whole test bench : {:>12.0} cycles/s {:>12.0} messages/s  (driver, memory model, monitor, scoreboard and golden model in lockstep; {} messages)",
        checked_cps, checked_mps, checked.1
    );
    0
}
