//! Golden-model throughput: enabled lanes per second on one core for 32-bit
//! atomics (target: >= 20 million lanes/s). Run with
//! `cargo bench --bench golden`; prints one line per workload.
//!
//! Each workload is a fixed set of pre-built messages executed repeatedly
//! through `Machine::exec_into` (the lockstep test bench's path: results
//! and transactions recorded, buffers reused), for about one second.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use atomport_core::golden::Machine;
use atomport_core::message::{Body, DwordSurface, MaskCtrl, Message};
use atomport_core::ops::{VisaOpInfo, VisaWidth};
use atomport_core::program::Program;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SEED: u64 = 0x601d;
/// Messages per workload (cycled).
const MESSAGES: usize = 1024;
/// Wall time per workload.
const RUN_FOR: Duration = Duration::from_secs(1);

fn message(exec_size: u8, body: Body) -> Message {
    Message { line: 1, exec_size, mask_ctrl: MaskCtrl::M1, pred: None, dmask: u32::MAX, dst: Some("d".into()), body }
}

/// DWORD_ATOMIC.<op> (32) on T255 (flat, no bounds) or T0 (SLM), offsets
/// drawn from `span` bytes (dword aligned).
fn dword_messages(rng: &mut ChaCha8Rng, op: &str, surface: DwordSurface, span: u32) -> Vec<Message> {
    let row = VisaOpInfo::by_name(op).unwrap();
    (0..MESSAGES)
        .map(|_| {
            let offsets: Vec<u32> = (0..32).map(|_| rng.gen_range(0..span / 4) * 4).collect();
            let src = |rng: &mut ChaCha8Rng| Some((0..32).map(|_| rng.gen::<u32>() as u128).collect());
            let src0 = if row.src0 == atomport_core::ops::Operand::Required { src(rng) } else { None };
            let src1 = if row.src1 == atomport_core::ops::Operand::Required { src(rng) } else { None };
            message(32, Body::DwordAtomic { op: row, w16: false, surface, offsets, src0, src1 })
        })
        .collect()
}

/// SVM_ATOMIC.<op> (8), 32-bit, addresses spread over `span` bytes of flat memory.
fn svm_messages(rng: &mut ChaCha8Rng, op: &str, span: u64) -> Vec<Message> {
    let row = VisaOpInfo::by_name(op).unwrap();
    (0..MESSAGES)
        .map(|_| {
            let addrs: Vec<u64> = (0..8).map(|_| 0x1_0000_0000 + rng.gen_range(0..span / 4) * 4).collect();
            let src0 = Some((0..8).map(|_| rng.gen::<u32>() as u128).collect());
            message(8, Body::SvmAtomic { op: row, width: VisaWidth::W32, addrs, src0, src1: None })
        })
        .collect()
}

/// Runs the messages round-robin for about RUN_FOR; returns enabled lanes/s.
fn measure(name: &str, msgs: &[Message]) -> f64 {
    let program = Program { file: "bench".into(), slm_size: 65536, surfaces: BTreeMap::new(), stmts: vec![] };
    let mut machine = Machine::new(&program);
    let lanes_per_round: u64 = msgs.iter().map(|m| m.lane_enables().count_ones() as u64).sum();
    let mut lanes = Vec::with_capacity(32);
    let mut txns = Vec::with_capacity(64);
    // warm up: touch every page once
    for (i, m) in msgs.iter().enumerate() {
        machine.exec_into(i, m, &mut lanes, &mut txns);
        lanes.clear();
        txns.clear();
    }
    let start = Instant::now();
    let mut rounds = 0u64;
    while start.elapsed() < RUN_FOR {
        for (i, m) in msgs.iter().enumerate() {
            machine.exec_into(i, m, &mut lanes, &mut txns);
            black_box((&lanes, &txns));
            lanes.clear();
            txns.clear();
        }
        rounds += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let rate = (rounds * lanes_per_round) as f64 / secs;
    println!("{name:<48} {:>8.1} M lanes/s  ({} lanes in {secs:.2} s)", rate / 1e6, rounds * lanes_per_round);
    rate
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters workloads by name
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    println!("golden model, one core, 32-bit atomics (seed {SEED:#x})");
    let workloads: Vec<(&str, Vec<Message>)> = vec![
        ("DWORD_ATOMIC.ADD (32) T255, 64 KiB span", dword_messages(&mut rng, "add", DwordSurface::Stateless, 1 << 16)),
        (
            "DWORD_ATOMIC.ADD (32) T255, one dword (histogram)",
            dword_messages(&mut rng, "add", DwordSurface::Stateless, 4),
        ),
        (
            "DWORD_ATOMIC.CMPXCHG (32) T255, 1 MiB span",
            dword_messages(&mut rng, "cmpxchg", DwordSurface::Stateless, 1 << 20),
        ),
        (
            "DWORD_ATOMIC.IMAX (32) T0 (SLM, bounds), 64 KiB",
            dword_messages(&mut rng, "imax", DwordSurface::Slm, 1 << 16),
        ),
        ("DWORD_ATOMIC.INC (32) T0 (SLM), 4 KiB", dword_messages(&mut rng, "inc", DwordSurface::Slm, 1 << 12)),
        ("SVM_ATOMIC.XOR (8), 16 MiB span", svm_messages(&mut rng, "xor", 1 << 24)),
    ];
    let mut worst = f64::INFINITY;
    for (name, msgs) in &workloads {
        if filter.as_ref().is_some_and(|f| !name.to_lowercase().contains(&f.to_lowercase())) {
            continue;
        }
        worst = worst.min(measure(name, msgs));
    }
    if worst.is_finite() {
        let verdict = if worst >= 20e6 { "meets" } else { "MISSES" };
        println!("slowest workload: {:.1} M lanes/s, {verdict} the 20 M lanes/s target", worst / 1e6);
    }
}
