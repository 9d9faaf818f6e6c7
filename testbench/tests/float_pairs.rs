//! Every operand pair of the 16-bit float ops (`fadd`, `fmin`, `fmax`,
//! `fcmpxchg` at f16 and bf16) through the Verilated ALU against the golden
//! model's soft float (testbench/src/fp_sweep.rs):
//! * `sampled_pairs_agree`: a fixed-seed sample of the 2^32 pairs of each op
//!   and format (`ATOMPORT_SWEEP_SAMPLE` pairs each, default 262,144), in
//!   `make test`;
//! * `every_pair` (ignored): the whole sweep, `make exhaustive`, on
//!   `ATOMPORT_SWEEP_JOBS` threads (default: every core). Narrow it with
//!   `ATOMPORT_SWEEP_OPS` (fadd,fmin,fmax,fcmpxchg), `ATOMPORT_SWEEP_TYPES`
//!   (f16,bf16) and `ATOMPORT_SWEEP_RANGE` (`A..B`, pair indices, decimal or
//!   0x hex; default the whole 0..2^32). It prints, per op and format, the
//!   pairs checked, the range, the wall time and pairs/s, and fails at the
//!   first mismatch with the pair.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use atomport_sim::VAtomicAlu;
use atomport_testbench::fp_sweep::{sweep_pairs, sweep_parallel, PAIRS, SWEEP_OPS, SWEEP_TYPES};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn env_list(name: &str) -> Option<Vec<String>> {
    std::env::var(name).ok().map(|s| s.split(',').map(|x| x.trim().to_ascii_lowercase()).filter(|x| !x.is_empty()).collect())
}

fn parse_index(s: &str) -> u64 {
    let s = s.trim().replace('_', "");
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|_| panic!("ATOMPORT_SWEEP_RANGE: `{s}` is not a pair index"))
}

#[test]
fn sampled_pairs_agree() {
    const SEED: u64 = 0x16f1_0a75;
    let per: usize = std::env::var("ATOMPORT_SWEEP_SAMPLE").map_or(262_144, |s| s.replace('_', "").parse().expect("ATOMPORT_SWEEP_SAMPLE must be a count"));
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut alu = VAtomicAlu::new().expect("Verilated atomic_alu");
    let start = Instant::now();
    let mut total = 0;
    for (ty, tn) in SWEEP_TYPES {
        for (op, on) in SWEEP_OPS {
            let pairs: Vec<u64> = (0..per).map(|_| rng.gen_range(0..PAIRS)).collect();
            match sweep_pairs(&mut alu, op, ty, &pairs) {
                Ok(n) => assert_eq!(n, per as u64, "{on}.{tn}"),
                Err(e) => panic!("seed {SEED:#x}: {e}"),
            }
            total += per;
        }
    }
    println!("float pairs: {total} sampled pairs (seed {SEED:#x}) agree in {:.2} s", start.elapsed().as_secs_f64());
}

#[test]
#[ignore = "the whole sweep, 2^35 pairs: make exhaustive"]
fn every_pair() {
    let ops = env_list("ATOMPORT_SWEEP_OPS");
    let types = env_list("ATOMPORT_SWEEP_TYPES");
    let range = match std::env::var("ATOMPORT_SWEEP_RANGE") {
        Ok(r) => {
            let (a, b) = r.split_once("..").expect("ATOMPORT_SWEEP_RANGE is A..B");
            parse_index(a)..parse_index(b).min(PAIRS)
        }
        Err(_) => 0..PAIRS,
    };
    let jobs = std::env::var("ATOMPORT_SWEEP_JOBS")
        .map(|s| s.parse().expect("ATOMPORT_SWEEP_JOBS must be a count"))
        .unwrap_or_else(|_| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let all = Instant::now();
    let mut total = 0u64;
    let mut failed = vec![];
    for (ty, tn) in SWEEP_TYPES {
        if types.as_ref().is_some_and(|t| !t.iter().any(|x| x == tn)) {
            continue;
        }
        for (op, on) in SWEEP_OPS {
            if ops.as_ref().is_some_and(|o| !o.iter().any(|x| x == on)) {
                continue;
            }
            let size = range.end.saturating_sub(range.start);
            let step = (size / 64).max(1);
            let reported = AtomicU64::new(0);
            let start = Instant::now();
            let progress = |done: u64| {
                let mark = done / step;
                if reported.fetch_max(mark, Ordering::Relaxed) < mark {
                    let s = start.elapsed().as_secs_f64();
                    eprintln!("  {tn} {on}: {done} of {size} pairs, {s:.0} s, {:.0} pairs/s", done as f64 / s.max(1e-9));
                }
            };
            let r = sweep_parallel(op, ty, range.clone(), jobs, &progress).unwrap_or_else(|e| panic!("{tn} {on}: {e}"));
            let whole = if r.pairs == PAIRS { "complete" } else { "partial" };
            println!(
                "{tn} {on} {whole}: pairs {:#x}..{:#x}: {} pairs, {} mismatches, {:.1} s, {:.0} pairs/s on {jobs} threads",
                r.range.start,
                r.range.end,
                r.pairs,
                r.mismatch.is_some() as u8,
                r.wall.as_secs_f64(),
                r.pairs_per_second()
            );
            total += r.pairs;
            if let Ok(dir) = std::env::var("ATOMPORT_SWEEP_REPORT_DIR") {
                // one file per type, op and range: `atomport verification` joins the ranges
                let path = std::path::Path::new(&dir).join(format!("{tn}-{on}-{:x}-{:x}.json", r.range.start, r.range.end));
                let json = serde_json::json!({
                    "type": tn, "op": on, "start": r.range.start, "end": r.range.end, "pairs": r.pairs,
                    "of": PAIRS, "mismatches": r.mismatch.is_some() as u8,
                    "first_mismatch": r.mismatch.as_ref().map(|m| m.to_string()),
                    "wall_seconds": r.wall.as_secs_f64(), "pairs_per_second": r.pairs_per_second(), "threads": jobs,
                });
                atomport_core::output_file::create_folder(std::path::Path::new(&dir)).unwrap_or_else(|e| panic!("{e}"));
                let text = serde_json::to_string_pretty(&json).expect("a JSON value prints") + "\n";
                atomport_core::output_file::write_file(&path, text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            }
            if let Some(m) = r.mismatch {
                println!("  first mismatch: {m}");
                failed.push(m.to_string());
            }
        }
    }
    println!("float pairs: {total} pairs in {:.1} s ({:.0} pairs/s)", all.elapsed().as_secs_f64(), total as f64 / all.elapsed().as_secs_f64().max(1e-9));
    assert!(failed.is_empty(), "mismatches:\n{}", failed.join("\n"));
}
