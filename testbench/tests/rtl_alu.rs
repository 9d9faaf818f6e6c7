//! The RTL atomic ALU (`hdl/verilog/atomic_alu.v` under Verilator) against
//! the golden model's op function `atomport_core::golden::atomic_ops::apply`, op by op,
//! width by width.
//!
//! * directed: every integer op x every type code with corner operands (0, 1,
//!   2, max, max-1, the signed min/max and their neighbours, alternating
//!   bit patterns; each also with garbage above the width, which the ALU
//!   must ignore), all pairs of them as old/src0 (so equal operands and
//!   bound = 0 / bound = max for PTX inc/dec), src1 equal to old or not;
//! * random: seeded vectors per width (B16, B32, B64, B128), the seed printed.
//!   `ATOMPORT_ALU_VECTORS` sets the count per width (default 100,000) and
//!   `ATOMPORT_ALU_SEED` the seed (default: from the clock).
//!   The long run (1,000,000 per width unless ATOMPORT_ALU_VECTORS says
//!   otherwise) is an ignored test:
//!   `cargo test --release --test rtl_alu -- --ignored --nocapture`.
//!
//! Integer ops only: the float ops (and Add on a float type) are checked
//! the same way in testbench/tests/rtl_fp.rs.

use atomport_core::golden::atomic_ops::{apply, AluOut};
use atomport_core::ops::{AluCtl, AluOp, ElemType};
use atomport_sim::VAtomicAlu;
use atomport_testbench::alu_stream::{run_stream, AluStreamError};
use atomport_testbench::alu_vectors::{directed_float, directed_integer, directed_rounding, integer_corners, integer_ops, random_operand, random_vectors as alu_random_vectors, with_garbage};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Whether (op, ty) is an integer operation (Add on a float type is the float add).
fn is_integer(op: AluOp, ty: ElemType) -> bool {
    !AluCtl { op, ty, ftz: false }.needs_fp()
}

/// The widths the seeds allow for integer atomics.
const INTEGER_TYPES: [ElemType; 4] = [ElemType::B16, ElemType::B32, ElemType::B64, ElemType::B128];

/// Compares the RTL with the golden model, keeping the first mismatches.
struct Checker {
    model: VAtomicAlu,
    vectors: u64,
    mismatches: u64,
    first: Vec<String>,
}

impl Checker {
    fn new() -> Self {
        Checker { model: VAtomicAlu::new().expect("Verilated atomic_alu"), vectors: 0, mismatches: 0, first: vec![] }
    }

    #[inline]
    fn check(&mut self, op: AluOp, ty: ElemType, old: u128, src0: u128, src1: u128) {
        let m = &mut self.model;
        // the operand stage loads op, type and sources at a `pipe_advance`
        // edge; the old value comes in the cycle after (hdl/src/alu.rs)
        m.set_op(op.code());
        m.set_ty(ty.code());
        m.set_src0(src0);
        m.set_src1(src1);
        m.set_pipe_advance(1);
        m.tick().expect("tick");
        m.set_old_value(old);
        m.eval().expect("eval");
        let rtl = AluOut { new: m.new_value(), ret: m.ret_value() };
        let golden = apply(AluCtl { op, ty, ftz: false }, old, src0, src1);
        self.vectors += 1;
        if rtl != golden {
            self.mismatches += 1;
            if self.first.len() < 12 {
                self.first.push(format!(
                    "{op:?}.{ty:?} old={old:#x} src0={src0:#x} src1={src1:#x}: RTL new={:#x} ret={:#x}, golden new={:#x} ret={:#x}",
                    rtl.new, rtl.ret, golden.new, golden.ret
                ));
            }
        }
    }

    fn finish(self, what: &str) {
        println!("{what}: {} vectors, {} mismatches", self.vectors, self.mismatches);
        assert!(
            self.mismatches == 0,
            "{what}: {} of {} vectors differ from golden::atomic_ops::apply; first ones:\n  {}",
            self.mismatches,
            self.vectors,
            self.first.join("\n  ")
        );
        assert!(self.vectors > 0);
    }
}

#[test]
fn directed_corners_every_integer_op_and_type() {
    let mut checker = Checker::new();
    let mut cases_per_op = std::collections::BTreeMap::new();
    for op in integer_ops() {
        for ty in ElemType::ALL {
            if !is_integer(op, ty) {
                continue;
            }
            let bits = ty.bits();
            let values: Vec<u128> = integer_corners(bits).into_iter().flat_map(|v| [v, with_garbage(v, bits)]).collect();
            for &old in &values {
                for &src0 in &values {
                    // src1: equal to old (cmpxchg swaps), equal to src0, or a corner
                    for src1 in [old, with_garbage(old, bits), src0, values[(old as usize) % values.len()]] {
                        checker.check(op, ty, old, src0, src1);
                        *cases_per_op.entry(format!("{op:?}")).or_insert(0u64) += 1;
                    }
                }
            }
        }
    }
    // every integer op of the table was exercised, at the four integer widths at least
    assert_eq!(cases_per_op.len(), integer_ops().len());
    checker.finish("directed corners");
}

/// PTX inc/dec at their boundaries, written out: bound 0 and bound max,
/// old at 0, at the bound, and just past it.
#[test]
fn directed_ptx_inc_dec_bounds() {
    let mut checker = Checker::new();
    for ty in INTEGER_TYPES {
        let max = ty.mask();
        for bound in [0, 1, max - 1, max] {
            for old in [0, 1, bound.wrapping_sub(1) & max, bound, bound.wrapping_add(1) & max, max - 1, max] {
                checker.check(AluOp::IncBound, ty, old, bound, 0);
                checker.check(AluOp::DecBound, ty, old, bound, 0);
            }
        }
    }
    checker.finish("PTX inc/dec bounds");
}

fn vectors_from_env(default: u64) -> u64 {
    std::env::var("ATOMPORT_ALU_VECTORS")
        .ok()
        .map(|s| s.replace('_', "").parse().expect("ATOMPORT_ALU_VECTORS must be a count"))
        .unwrap_or(default)
}

fn seed_from_env() -> u64 {
    std::env::var("ATOMPORT_ALU_SEED")
        .ok()
        .map(|s| {
            let s = s.trim();
            match s.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => s.parse(),
            }
            .expect("ATOMPORT_ALU_SEED must be a number")
        })
        .unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
        })
}

fn random_vectors(per_width: u64, what: &str) {
    let seed = seed_from_env();
    println!("{what}: seed {seed:#x} (rerun with ATOMPORT_ALU_SEED={seed:#x}), {per_width} vectors per width");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ops = integer_ops();
    let mut checker = Checker::new();
    for ty in INTEGER_TYPES {
        let bits = ty.bits();
        let corner_values = integer_corners(bits);
        for _ in 0..per_width {
            let op = ops[rng.gen_range(0..ops.len())];
            let old = random_operand(&mut rng, bits, &corner_values, 0);
            let src0 = random_operand(&mut rng, bits, &corner_values, old);
            // cmpxchg: half the time the compare value equals old
            let src1 = if rng.gen_bool(0.5) { old } else { random_operand(&mut rng, bits, &corner_values, old) };
            checker.check(op, ty, old, src0, src1);
        }
    }
    checker.finish(&format!("{what} (seed {seed:#x})"));
}

#[test]
fn random_vectors_match_golden() {
    random_vectors(vectors_from_env(100_000), "random vectors");
}

/// The long regression: `cargo test --release --test rtl_alu -- --ignored --nocapture`.
#[test]
#[ignore = "long: at least 1,000,000 random vectors per width; run with --ignored"]
fn random_vectors_long() {
    random_vectors(vectors_from_env(1_000_000), "long random vectors");
}

/// The ALU as the unit drives it, a pipeline with stalls (the kill suite of
/// `atomport mutate`): every directed integer and float vector and seeded
/// random ones, one per `pipe_advance`, 30% of the cycles stalled with junk
/// on the operand inputs; every output checked when it is due.
#[test]
fn the_pipelined_stream_with_stalls_matches_golden() {
    let config = atomport_core::ops::UnitConfig::FULL;
    let seed = seed_from_env();
    println!("stream: seed {seed:#x} (rerun with ATOMPORT_ALU_SEED={seed:#x})");
    let mut vectors = directed_integer(&config);
    vectors.extend(directed_float(&config));
    vectors.extend(directed_rounding(&config));
    vectors.extend(atomport_testbench::alu_vectors::directed_outside(&config));
    vectors.extend(alu_random_vectors(&config, 20_000, seed));
    let mut alu = VAtomicAlu::new().unwrap();
    let cycles = run_stream(&mut alu, &config, &vectors, 0.3, seed).unwrap_or_else(|e| panic!("seed {seed:#x}: {e}"));
    println!("stream: {} vectors in {cycles} cycles", vectors.len());
    assert!(cycles as usize > vectors.len(), "stalls cost cycles");
}

/// The stream's checks fail on a wrong output, and its stalls on an ALU that
/// loads its operands without `pipe_advance`.
#[test]
fn the_stream_catches_wrong_outputs_and_ignored_stalls() {
    use atomport_testbench::alu_stream::{AluInputs, AluOutputs, AluPins};
    struct Faulty {
        alu: VAtomicAlu,
        fault: u8,
    }
    impl AluPins for Faulty {
        fn set_inputs(&mut self, x: &AluInputs) {
            let mut x = *x;
            if self.fault == 2 {
                x.advance = true;
            }
            self.alu.set_inputs(&x);
        }
        fn set_old_value(&mut self, old: u128) {
            AluPins::set_old_value(&mut self.alu, old);
        }
        fn settle(&mut self) -> Result<(), atomport_sim::SimError> {
            AluPins::settle(&mut self.alu)
        }
        fn outputs(&self) -> AluOutputs {
            let mut o = AluPins::outputs(&self.alu);
            match self.fault {
                0 => o.ret ^= 1 << 70,
                1 if o.float_value != 0 => o.float_value ^= 1,
                _ => {}
            }
            o
        }
        fn edge(&mut self) -> Result<(), atomport_sim::SimError> {
            AluPins::edge(&mut self.alu)
        }
    }
    let config = atomport_core::ops::UnitConfig::FULL;
    let vectors = alu_random_vectors(&config, 2_000, 5);
    for fault in 0..3 {
        let mut alu = Faulty { alu: VAtomicAlu::new().unwrap(), fault };
        let err = run_stream(&mut alu, &config, &vectors, 0.3, 5).expect_err("a faulty ALU must fail the stream");
        assert!(matches!(err, AluStreamError::Mismatch(_)), "fault {fault}: {err}");
    }
}
