//! Speed of the Rust-driven Verilator loop on the atomic ALU against a C++
//! harness driving the same model with the same stimulus loop
//! (`cpp/bench_atomic_alu.cpp`, compiled by build.rs with the model's flags).
//!
//! `cargo bench -p atomport-sim --bench alu_speed` (vectors: first argument
//! after `--`, or ATOMPORT_BENCH_VECTORS, default 2,000,000). Prints both
//! rates in vectors per second (one clock cycle, two evaluations, each) and
//! the ratio Rust / C++ (target >= 0.9).
//! Both loops fold every result into a checksum, which must agree.

use std::time::Instant;

use atomport_isa::AluOp;
use atomport_sim::VAtomicAlu;

/// Timed runs of each loop; each rate is the best run.
const ROUNDS: usize = 7;

extern "C" {
    fn atomport_cpp_bench_atomic_alu(vectors: u64, seed: u64, ops: *const u8, op_count: u32) -> u64;
}

/// splitmix64, as in the C++ harness.
#[inline(always)]
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[inline(always)]
fn wide(lo: u64, hi: u64) -> [u32; 4] {
    [lo as u32, (lo >> 32) as u32, hi as u32, (hi >> 32) as u32]
}

/// The Rust side of the loop: the same stimulus and checksum as the C++ one.
fn rust_loop(vectors: u64, seed: u64, ops: &[u8]) -> u64 {
    let mut model = VAtomicAlu::new().expect("model");
    model.set_pipe_advance(1);
    let mut state = seed;
    let mut checksum: u64 = 0;
    let op_count = ops.len() as u64;
    for _ in 0..vectors {
        let r = next_random(&mut state);
        model.set_op(ops[(r % op_count) as usize]);
        model.set_ty(((r >> 32) & 3) as u8);
        let (a, b) = (next_random(&mut state), next_random(&mut state));
        let (c, d) = (next_random(&mut state), next_random(&mut state));
        let (e, f) = (next_random(&mut state), next_random(&mut state));
        model.set_old_value_words(&wide(a, b));
        model.set_src0_words(&wide(c, d));
        model.set_src1_words(&wide(e, f));
        // one clock cycle per vector: with the clock low, the result of the
        // operands loaded at the last edge on this old value; the rising
        // edge loads this vector's operands (the ALU's operand stage)
        model.set_clock(0);
        model.eval().expect("eval");
        let (new_true, new_false) = (model.new_true_words(), model.new_false_words());
        let cond = model.new_cond() as u32;
        let ret = model.ret_value_words();
        model.set_clock(1);
        model.eval().expect("eval");
        let mut fold = 0u32;
        for w in 0..4 {
            fold ^= (new_true[w] ^ new_false[w].wrapping_mul(5)) ^ (ret[w].wrapping_mul(3) ^ cond);
        }
        checksum = checksum.wrapping_mul(31).wrapping_add(fold as u64);
    }
    checksum
}

fn main() {
    let vectors: u64 = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .or_else(|| std::env::var("ATOMPORT_BENCH_VECTORS").ok())
        .map(|s| s.replace('_', "").parse().expect("vector count"))
        .unwrap_or(2_000_000);
    let seed = 0x5eed_a70b_u64;
    // the integer ops, codes from the one op table
    let ops: Vec<u8> = [
        AluOp::Add, AluOp::Sub, AluOp::Inc, AluOp::Dec, AluOp::Min, AluOp::Max, AluOp::Xchg, AluOp::Cmpxchg,
        AluOp::And, AluOp::Or, AluOp::Xor, AluOp::Imin, AluOp::Imax, AluOp::Predec, AluOp::IncBound,
        AluOp::DecBound,
    ]
    .iter()
    .map(|op| op.code())
    .collect();

    // warm up both (page in code, settle clocks)
    let warm = (vectors / 10).max(1);
    rust_loop(warm, seed, &ops);
    unsafe { atomport_cpp_bench_atomic_alu(warm, seed, ops.as_ptr(), ops.len() as u32) };

    // best of ROUNDS runs each, interleaved (the machine is shared: the best run is the one least disturbed)
    let mut best_rust = f64::MAX;
    let mut best_cpp = f64::MAX;
    let mut sums = (0, 0);
    for _ in 0..ROUNDS {
        let t = Instant::now();
        sums.0 = rust_loop(vectors, seed, &ops);
        best_rust = best_rust.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        sums.1 = unsafe { atomport_cpp_bench_atomic_alu(vectors, seed, ops.as_ptr(), ops.len() as u32) };
        best_cpp = best_cpp.min(t.elapsed().as_secs_f64());
    }
    assert_eq!(sums.0, sums.1, "the Rust and C++ loops must see the same results");
    let rust_rate = vectors as f64 / best_rust;
    let cpp_rate = vectors as f64 / best_cpp;
    println!("atomic_alu, {vectors} random integer-op vectors per run, best of {ROUNDS} (checksum {:#018x} on both)", sums.0);
    println!("  Rust-driven loop : {:>12.0} vectors/s  ({:.1} ns/vector)", rust_rate, 1e9 / rust_rate);
    println!("  C++ harness      : {:>12.0} vectors/s  ({:.1} ns/vector)", cpp_rate, 1e9 / cpp_rate);
    println!("  ratio Rust / C++ : {:.3}  (target >= 0.9)", rust_rate / cpp_rate);
}
