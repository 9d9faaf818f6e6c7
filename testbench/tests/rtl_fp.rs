//! The RTL atomic ALU's floating-point ops (`hdl/verilog/atomic_alu.v`
//! under Verilator; the datapath is `FloatAlu`, hdl/src/fp_alu.rs) against
//! TWO references, bit for bit:
//! * the golden model's op function `atomport_core::golden::atomic_ops::apply`;
//! * an independent reference written here from scripts.md ("Semantics that
//!   the seeds leave open") on top of LLVM's APFloat (`rustc_apfloat`:
//!   Half, BFloat, Single, Double), sharing no code with the golden model.
//!
//! Tests:
//! * directed: per format (f16, bf16, f32, f64, and the packed f16x2/bf16x2
//!   with a different case in each half) named cases with their expected
//!   bits written out: zeros of both signs, subnormals, the smallest normal,
//!   the largest finite, overflow to infinity, inf - inf, quiet and
//!   signaling NaNs with payloads, ties to even, cancellation to zero, f32
//!   flush-to-zero, minimumNumber/maximumNumber with signed zeros and NaNs,
//!   the PTX both-NaN rule, FCMPWR's IEEE equality and bit-exact moves;
//! * random + corner vectors per format, op drawn at random, operands drawn
//!   to hit rounding, alignment, cancellation and specials often, with junk
//!   above the width. `ATOMPORT_FP_VECTORS` sets the count per format
//!   (default 100,000), `ATOMPORT_FP_SEED` the seed (default: the clock; it
//!   is printed). The long run, 1,000,000 per format unless
//!   ATOMPORT_FP_VECTORS says otherwise, is an ignored test, with a second
//!   one that runs every f16 and every bf16 value against every corner
//!   value in every position:
//!   `cargo test --release --test rtl_fp -- --ignored --nocapture`.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use atomport_core::golden::atomic_ops::{apply, AluOut};
use atomport_core::ops::{AluCtl, AluOp, ElemType};
use atomport_sim::VAtomicAlu;
use atomport_testbench::alu_vectors::{float_groups, with_garbage, FloatFormat as Fmt, FLOAT_OPS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_apfloat::ieee::{BFloat, Double, Half, Single};
use rustc_apfloat::Float;

// ---------------------------------------------------------------------------
// Formats and the independent reference
// ---------------------------------------------------------------------------

/// APFloat's `a + b`, round to nearest even.
fn apfloat_add(fmt: Fmt, a: u64, b: u64) -> u64 {
    fn go<T: Float>(a: u64, b: u64) -> u64 {
        (T::from_bits(a as u128) + T::from_bits(b as u128)).value.to_bits() as u64
    }
    match fmt {
        Fmt::F16 => go::<Half>(a, b),
        Fmt::BF16 => go::<BFloat>(a, b),
        Fmt::F32 => go::<Single>(a, b),
        Fmt::F64 => go::<Double>(a, b),
    }
}

/// APFloat's IEEE comparison (None when either is NaN; +0 and -0 equal).
fn apfloat_cmp(fmt: Fmt, a: u64, b: u64) -> Option<Ordering> {
    fn go<T: Float>(a: u64, b: u64) -> Option<Ordering> {
        T::from_bits(a as u128).partial_cmp(&T::from_bits(b as u128))
    }
    match fmt {
        Fmt::F16 => go::<Half>(a, b),
        Fmt::BF16 => go::<BFloat>(a, b),
        Fmt::F32 => go::<Single>(a, b),
        Fmt::F64 => go::<Double>(a, b),
    }
}

/// maximumNumber / minimumNumber (scripts.md): a NaN is missing, -0 < +0;
/// `both_nan` when neither is a number. `a` is old, `b` is src0.
fn reference_min_max(fmt: Fmt, a: u64, b: u64, max: bool, both_nan: u64) -> u64 {
    match (fmt.is_nan(a), fmt.is_nan(b)) {
        (true, true) => both_nan,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            let order = match apfloat_cmp(fmt, a, b).expect("numbers compare") {
                // +0 vs -0: IEEE says equal; minimumNumber orders -0 first
                Ordering::Equal => (a & fmt.sign() == 0).cmp(&(b & fmt.sign() == 0)),
                o => o,
            };
            let b_wins = if max { order == Ordering::Less } else { order == Ordering::Greater };
            if b_wins {
                b
            } else {
                a
            }
        }
    }
}

/// One element's new value by scripts.md, with APFloat for the arithmetic.
fn reference_scalar(op: AluOp, fmt: Fmt, ftz: bool, old: u64, src0: u64, src1: u64) -> u64 {
    match op {
        AluOp::Add => {
            // ftz (f32 only, decided by the caller): inputs and result flushed
            let (a, b) = if ftz { (fmt.flush(old), fmt.flush(src0)) } else { (old, src0) };
            let sum = apfloat_add(fmt, a, b);
            if fmt.is_nan(sum) {
                fmt.canonical_nan()
            } else if ftz {
                fmt.flush(sum)
            } else {
                sum
            }
        }
        AluOp::Fmax => reference_min_max(fmt, old, src0, true, old),
        AluOp::Fmin => reference_min_max(fmt, old, src0, false, old),
        AluOp::FmaxPtx => reference_min_max(fmt, old, src0, true, fmt.canonical_nan()),
        AluOp::FminPtx => reference_min_max(fmt, old, src0, false, fmt.canonical_nan()),
        AluOp::Fcmpwr => {
            if apfloat_cmp(fmt, src0, old) == Some(Ordering::Equal) {
                src1
            } else {
                old
            }
        }
        _ => unreachable!("not a float op: {op:?}"),
    }
}

/// The whole ALU by the independent reference (float ops only).
fn reference(op: AluOp, ty: ElemType, ftz: bool, old: u128, src0: u128, src1: u128) -> AluOut {
    let mask = ty.mask();
    let (old, src0, src1) = (old & mask, src0 & mask, src1 & mask);
    let new = match Fmt::of(ty) {
        None => old,
        Some((fmt, halves)) => {
            let ftz = ftz && ty == ElemType::F32;
            if halves {
                let h = |x: u128, i: u32| ((x >> (16 * i)) & 0xffff) as u64;
                let lo = reference_scalar(op, fmt, ftz, h(old, 0), h(src0, 0), h(src1, 0));
                let hi = reference_scalar(op, fmt, ftz, h(old, 1), h(src0, 1), h(src1, 1));
                (lo as u128) | ((hi as u128) << 16)
            } else {
                reference_scalar(op, fmt, ftz, old as u64, src0 as u64, src1 as u64) as u128
            }
        }
    };
    AluOut { new: new & mask, ret: old }
}

// ---------------------------------------------------------------------------
// The checker
// ---------------------------------------------------------------------------


/// Drives the Verilated ALU and compares with both references (and, for
/// directed cases, the written-out expectation).
struct Checker {
    model: VAtomicAlu,
    vectors: u64,
    mismatches: u64,
    first: Vec<String>,
    per_group: BTreeMap<String, u64>,
}

impl Checker {
    fn new() -> Self {
        Checker {
            model: VAtomicAlu::new().expect("Verilated atomic_alu"),
            vectors: 0,
            mismatches: 0,
            first: vec![],
            per_group: BTreeMap::new(),
        }
    }

    /// Runs one vector; `want` is the expected new value when known.
    #[inline]
    fn check(&mut self, group: &str, op: AluOp, ty: ElemType, ftz: bool, v: (u128, u128, u128), want: Option<u128>) {
        let (old, src0, src1) = v;
        let m = &mut self.model;
        // the operand stage loads op, type, ftz and sources at a
        // `pipe_advance` edge; the old value comes in the cycle after
        // (hdl/src/alu.rs)
        m.set_op(op.code());
        m.set_ty(ty.code());
        m.set_ftz(ftz as u8);
        m.set_src0(src0);
        m.set_src1(src1);
        m.set_pipe_advance(1);
        m.tick().expect("tick");
        m.set_old_value(old);
        m.eval().expect("eval");
        // a float op's value comes out of the ALU's four-stage float
        // pipeline three `pipe_advance` edges later (hdl/src/fp_alu.rs)
        let ret = m.ret_value();
        let new = if m.float_op() != 0 {
            m.ticks(3).expect("tick");
            m.float_value()
        } else {
            m.new_value()
        };
        let rtl = AluOut { new, ret };
        let golden = apply(AluCtl { op, ty, ftz }, old, src0, src1);
        let independent = reference(op, ty, ftz, old, src0, src1);
        self.vectors += 1;
        if !self.per_group.contains_key(group) {
            self.per_group.insert(group.to_string(), 0);
        }
        *self.per_group.get_mut(group).unwrap() += 1;
        let wrong = rtl != golden || rtl != independent || want.is_some_and(|w| rtl.new != w);
        if wrong {
            self.mismatches += 1;
            if self.first.len() < 16 {
                self.first.push(format!(
                    "[{group}] {op:?}.{ty:?} ftz={ftz} old={old:#x} src0={src0:#x} src1={src1:#x}: RTL new={:#x} ret={:#x}; golden new={:#x} ret={:#x}; apfloat reference new={:#x}{}",
                    rtl.new,
                    rtl.ret,
                    golden.new,
                    golden.ret,
                    independent.new,
                    want.map(|w| format!("; expected {w:#x}")).unwrap_or_default()
                ));
            }
        }
    }

    fn finish(self, what: &str) {
        println!("{what}: {} vectors, {} mismatches", self.vectors, self.mismatches);
        for (group, n) in &self.per_group {
            println!("  {group}: {n}");
        }
        assert!(
            self.mismatches == 0,
            "{what}: {} of {} vectors differ (RTL vs golden::atomic_ops::apply vs APFloat reference vs expected); first ones:\n  {}",
            self.mismatches,
            self.vectors,
            self.first.join("\n  ")
        );
        assert!(self.vectors > 0);
    }
}

// ---------------------------------------------------------------------------
// Directed cases
// ---------------------------------------------------------------------------

/// One directed case on one element: `new = op(old, src0, src1)` must be
/// `want`, and `want_ftz` with ftz = 1 (which only f32 honours).
struct Case {
    name: String,
    op: AluOp,
    old: u64,
    src0: u64,
    src1: u64,
    want: u64,
    want_ftz: u64,
}

/// Every directed case of a format, expectations written from the IEEE
/// definitions and scripts.md (not computed by any model).
fn directed_cases(f: Fmt) -> Vec<Case> {
    let m = f.man_bits();
    let s = f.sign();
    let bias = f.bias();
    let one = f.make(bias, 0);
    let one_plus_ulp = one | 1;
    let one_and_half = one | (1 << (m - 1));
    let two = f.make(bias + 1, 0);
    let half = f.make(bias - 1, 0);
    // 2^-(m+1): half an ulp of 1.0 (a normal number in every format here)
    let half_ulp_of_one = f.make(bias - u64::from(m) - 1, 0);
    // 1.5 * 2^-(m+1): above half an ulp of 1.0
    let above_half_ulp_of_one = half_ulp_of_one | (1 << (m - 1));
    let ulp_of_one = f.make(bias - u64::from(m), 0);
    let min_sub = 1;
    let max_sub = f.man_mask();
    let min_norm = f.make(1, 0);
    let max_fin = f.make(f.exp_max() - 1, f.man_mask());
    let half_ulp_of_max = f.make(f.exp_max() - 1 - u64::from(m) - 1, 0);
    let quarter_ulp_of_max = f.make(f.exp_max() - 1 - u64::from(m) - 2, 0);
    let inf = f.inf();
    let nan = f.canonical_nan();
    let qnan = inf | (1 << (m - 1)) | 0x5; // quiet, payload 0b101
    let snan = inf | 0x3; // signaling (quiet bit clear), payload 0b11
    let neg_qnan = s | inf | (1 << (m - 1)) | 0x1;

    let mut cases = vec![];
    let mut add = |name: &str, old: u64, src0: u64, want: u64, want_ftz: u64| {
        cases.push(Case { name: format!("add: {name}"), op: AluOp::Add, old, src0, src1: 0, want, want_ftz });
    };
    // zeros
    add("+0 + -0 = +0", 0, s, 0, 0);
    add("-0 + -0 = -0", s, s, s, s);
    add("-0 + +0 = +0", s, 0, 0, 0);
    // subnormals and the smallest normal (ftz: f32 reads them as zeros)
    add("min_sub + min_sub = 2 min_sub", min_sub, min_sub, 2, 0);
    add("max_sub + min_sub = min_norm", max_sub, min_sub, min_norm, 0);
    add("min_norm - min_sub = max_sub", min_norm, s | min_sub, max_sub, min_norm);
    add("-min_sub + min_sub = +0", s | min_sub, min_sub, 0, 0);
    add("max_sub + max_sub = a normal", max_sub, max_sub, min_norm | (f.man_mask() - 1), 0);
    add("min_sub + +0 = min_sub (ftz: +0)", min_sub, 0, min_sub, 0);
    add("-min_sub + -0 = -min_sub (ftz: -0)", s | min_sub, s, s | min_sub, s);
    add("min_norm + min_sub (ftz: min_norm)", min_norm, min_sub, min_norm | 1, min_norm);
    add("(min_norm+ulp) - min_norm = min_sub (ftz: +0)", min_norm | 1, s | min_norm, min_sub, 0);
    add("min_norm - (min_norm+ulp) = -min_sub (ftz: -0)", min_norm, s | min_norm | 1, s | min_sub, s);
    // largest finite, overflow
    add("max + max = +inf", max_fin, max_fin, inf, inf);
    add("-max + -max = -inf", s | max_fin, s | max_fin, s | inf, s | inf);
    add("max + half ulp (tie, odd) = +inf", max_fin, half_ulp_of_max, inf, inf);
    add("max + quarter ulp = max", max_fin, quarter_ulp_of_max, max_fin, max_fin);
    add("max - max = +0", max_fin, s | max_fin, 0, 0);
    // infinities
    add("inf - inf = NaN", inf, s | inf, nan, nan);
    add("-inf + inf = NaN", s | inf, inf, nan, nan);
    add("inf + inf = inf", inf, inf, inf, inf);
    add("-inf + max = -inf", s | inf, max_fin, s | inf, s | inf);
    add("min_sub + -inf = -inf", min_sub, s | inf, s | inf, s | inf);
    // NaNs with payloads: the canonical NaN
    add("qNaN + 1 = NaN", qnan, one, nan, nan);
    add("1 + sNaN = NaN", one, snan, nan, nan);
    add("-qNaN + inf = NaN", neg_qnan, inf, nan, nan);
    add("sNaN + qNaN = NaN", snan, qnan, nan, nan);
    // rounding: ties to even
    add("1 + half ulp (tie, even) = 1", one, half_ulp_of_one, one, one);
    add("(1+ulp) + half ulp (tie, odd) = 1+2ulp", one_plus_ulp, half_ulp_of_one, one | 2, one | 2);
    add("1 + 0.75 ulp = 1+ulp", one, above_half_ulp_of_one, one_plus_ulp, one_plus_ulp);
    add("-1 - half ulp (tie, even) = -1", s | one, s | half_ulp_of_one, s | one, s | one);
    // cancellation
    add("1.5 - 1.5 = +0", one_and_half, s | one_and_half, 0, 0);
    add("-1.5 + 1.5 = +0", s | one_and_half, one_and_half, 0, 0);
    add("(1+ulp) - 1 = ulp (exact)", one_plus_ulp, s | one, ulp_of_one, ulp_of_one);
    // plain
    add("1 + 1 = 2", one, one, two, two);
    add("-1 + 0.5 = -0.5", s | one, half, s | half, s | half);

    let mut min_max = |name: &str, op: AluOp, old: u64, src0: u64, want: u64| {
        cases.push(Case { name: format!("{op:?}: {name}"), op, old, src0, src1: 0, want, want_ftz: want });
    };
    for (op, ptx) in [(AluOp::Fmax, false), (AluOp::FmaxPtx, true)] {
        min_max("max(-0, +0) = +0", op, s, 0, 0);
        min_max("max(+0, -0) = +0", op, 0, s, 0);
        min_max("max(qNaN, 1) = 1", op, qnan, one, one);
        min_max("max(1, sNaN) = 1", op, one, snan, one);
        min_max("max(-inf, -qNaN) = -inf", op, s | inf, neg_qnan, s | inf);
        min_max("max(-max_sub, -min_sub) = -min_sub", op, s | max_sub, s | min_sub, s | min_sub);
        min_max("max(1, 1+ulp) = 1+ulp", op, one, one_plus_ulp, one_plus_ulp);
        min_max("max(inf, max) = inf", op, inf, max_fin, inf);
        let both = if ptx { nan } else { qnan };
        min_max("max(qNaN, sNaN): vISA keeps old, PTX canonical", op, qnan, snan, both);
    }
    for (op, ptx) in [(AluOp::Fmin, false), (AluOp::FminPtx, true)] {
        min_max("min(+0, -0) = -0", op, 0, s, s);
        min_max("min(-0, +0) = -0", op, s, 0, s);
        min_max("min(min_sub, -0) = -0", op, min_sub, s, s);
        min_max("min(sNaN, -1) = -1", op, snan, s | one, s | one);
        min_max("min(max, qNaN) = max", op, max_fin, qnan, max_fin);
        min_max("min(-inf, -max) = -inf", op, s | inf, s | max_fin, s | inf);
        min_max("min(1, 1+ulp) = 1", op, one, one_plus_ulp, one);
        let both = if ptx { nan } else { snan };
        min_max("min(sNaN, -qNaN): vISA keeps old, PTX canonical", op, snan, neg_qnan, both);
    }

    let mut cmpwr = |name: &str, old: u64, src0: u64, src1: u64, want: u64| {
        cases.push(Case { name: format!("fcmpwr: {name}"), op: AluOp::Fcmpwr, old, src0, src1, want, want_ftz: want });
    };
    cmpwr("+0 == -0: writes src1", 0, s, one, one);
    cmpwr("-0 == +0: writes src1", s, 0, two, two);
    cmpwr("qNaN != qNaN (same bits): keeps old", qnan, qnan, one, qnan);
    cmpwr("1 == 1: writes src1 bit-exactly (an sNaN)", one, one, snan, snan);
    cmpwr("1 != 1+ulp: keeps old", one, one_plus_ulp, 0, one);
    cmpwr("inf == inf: writes src1", inf, inf, neg_qnan, neg_qnan);
    cmpwr("-min_sub == -min_sub (no flush): writes src1", s | min_sub, s | min_sub, max_fin, max_fin);
    cmpwr("min_sub != +0: keeps old", min_sub, 0, one, min_sub);
    cases
}

/// The scalar element type of each format, and the integer type read as it.
fn scalar_types(f: Fmt) -> (ElemType, Option<ElemType>) {
    match f {
        Fmt::F16 => (ElemType::F16, Some(ElemType::B16)),
        Fmt::BF16 => (ElemType::BF16, None),
        Fmt::F32 => (ElemType::F32, Some(ElemType::B32)),
        Fmt::F64 => (ElemType::F64, Some(ElemType::B64)),
    }
}

#[test]
fn directed_cases_every_format() {
    let mut checker = Checker::new();
    for f in [Fmt::F16, Fmt::BF16, Fmt::F32, Fmt::F64] {
        let cases = directed_cases(f);
        let (float_ty, int_ty) = scalar_types(f);
        let bits = f.bits();
        for c in &cases {
            let v = (c.old as u128, c.src0 as u128, c.src1 as u128);
            let group = format!("directed {}", f.name());
            checker.check(&group, c.op, float_ty, false, v, Some(c.want as u128));
            // ftz: flushes in the f32 add only
            let want_ftz = if f == Fmt::F32 { c.want_ftz } else { c.want };
            checker.check(&group, c.op, float_ty, true, v, Some(want_ftz as u128));
            // junk above the width changes nothing
            let junk = (with_garbage(v.0, bits), with_garbage(v.1, bits), with_garbage(v.2, bits));
            checker.check(&group, c.op, float_ty, false, junk, Some(c.want as u128));
            // the integer type of the same width reads as this format (not Add: an integer add)
            if let Some(int_ty) = int_ty.filter(|_| c.op != AluOp::Add) {
                checker.check(&format!("directed {} as {int_ty:?}", f.name()), c.op, int_ty, false, junk, Some(c.want as u128));
            }
        }
        // packed halves: case i in the low half, case n-1-i in the high half
        let packed = match f {
            Fmt::F16 => ElemType::F16x2,
            Fmt::BF16 => ElemType::BF16x2,
            _ => continue,
        };
        let group = format!("directed {packed:?}");
        let n = cases.len();
        for (i, lo) in cases.iter().enumerate() {
            // pair with a case of the same op (the halves share the op)
            let hi = (0..n).map(|k| &cases[(n - 1 - i + k) % n]).find(|c| c.op == lo.op).unwrap();
            let join = |l: u64, h: u64| (l as u128) | ((h as u128) << 16);
            let v = (join(lo.old, hi.old), join(lo.src0, hi.src0), join(lo.src1, hi.src1));
            let want = join(lo.want, hi.want);
            checker.check(&group, lo.op, packed, false, v, Some(want));
            // no ftz on the 16-bit formats
            checker.check(&group, lo.op, packed, true, (with_garbage(v.0, 32), v.1, with_garbage(v.2, 32)), Some(want));
        }
    }
    // B128 is no float: every float op leaves memory unchanged
    for op in FLOAT_OPS.into_iter().filter(|&op| op != AluOp::Add) {
        let old = 0x7fc0_0000_3f80_0000_ffff_0000_8000_0001u128;
        checker.check("B128", op, ElemType::B128, false, (old, 0x3f80_0000, old), Some(old));
    }
    checker.finish("directed FP cases");
}

/// The directed expectations mean what their names say: a few spot values
/// in f32, checked against host arithmetic (so a wrong formula above would
/// show here, not only as an RTL mismatch).
#[test]
fn directed_expectations_agree_with_host_f32() {
    for c in directed_cases(Fmt::F32) {
        if c.op != AluOp::Add {
            continue;
        }
        let host = f32::from_bits(c.old as u32) + f32::from_bits(c.src0 as u32);
        if host.is_nan() {
            assert_eq!(c.want, Fmt::F32.canonical_nan(), "{}", c.name);
        } else {
            assert_eq!(c.want, host.to_bits() as u64, "{}: host says {host:e}", c.name);
        }
    }
}

// ---------------------------------------------------------------------------
// Random + corner vectors
// ---------------------------------------------------------------------------

fn vectors_from_env(default: u64) -> u64 {
    std::env::var("ATOMPORT_FP_VECTORS")
        .ok()
        .map(|s| s.replace('_', "").parse().expect("ATOMPORT_FP_VECTORS must be a count"))
        .unwrap_or(default)
}

fn seed_from_env() -> u64 {
    std::env::var("ATOMPORT_FP_SEED")
        .ok()
        .map(|s| {
            let s = s.trim();
            match s.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => s.parse(),
            }
            .expect("ATOMPORT_FP_SEED must be a number")
        })
        .unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64)
}

fn random_vectors(per_format: u64, what: &str) {
    let seed = seed_from_env();
    println!("{what}: seed {seed:#x} (rerun with ATOMPORT_FP_SEED={seed:#x}), {per_format} vectors per format");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checker = Checker::new();
    for (ty, ftz, ops) in float_groups() {
        let (fmt, halves) = Fmt::of(ty).unwrap();
        let corners = fmt.corners();
        let bits = ty.bits();
        let name = format!("{ty:?}{}", if ftz { " ftz" } else { "" });
        for _ in 0..per_format {
            let op = ops[rng.gen_range(0..ops.len())];
            let element = |rng: &mut ChaCha8Rng| {
                let a = fmt.random_element(rng, &corners, 0);
                let a = fmt.random_element(rng, &corners, a);
                let b = fmt.random_element(rng, &corners, a);
                // fcmpwr: src0 equal to old half the time
                let b = if op == AluOp::Fcmpwr && rng.gen_bool(0.5) { a } else { b };
                let c = fmt.random_element(rng, &corners, a);
                (a as u128, b as u128, c as u128)
            };
            let (mut old, mut src0, mut src1) = element(&mut rng);
            if halves {
                let (h0, h1, h2) = element(&mut rng);
                (old, src0, src1) = (old | h0 << 16, src0 | h1 << 16, src1 | h2 << 16);
            }
            if bits < 128 && rng.gen_bool(0.25) {
                let junk = |rng: &mut ChaCha8Rng, x: u128| x | (rng.gen::<u128>() << bits);
                (old, src0, src1) = (junk(&mut rng, old), junk(&mut rng, src0), junk(&mut rng, src1));
            }
            checker.check(&name, op, ty, ftz, (old, src0, src1), None);
        }
    }
    checker.finish(&format!("{what} (seed {seed:#x})"));
}

#[test]
fn random_vectors_match_both_references() {
    random_vectors(vectors_from_env(100_000), "random FP vectors");
}

/// The long regression: at least 1,000,000 vectors per format.
/// `cargo test --release --test rtl_fp -- --ignored --nocapture`
#[test]
#[ignore = "long: 1,000,000 random FP vectors per format; run with --ignored"]
fn random_vectors_long() {
    random_vectors(vectors_from_env(1_000_000), "long random FP vectors");
}

/// Every 16-bit value of f16 and bf16 (as old, and as src0) against every
/// corner value of its format, every op, in the scalar and the packed
/// types (the value in one half, the corner in the other): about 85
/// million vectors. Part of the long run (`--ignored`).
#[test]
#[ignore = "long: every f16/bf16 value against every corner; run with --ignored"]
fn every_16_bit_value_against_the_corners() {
    let mut checker = Checker::new();
    for (fmt, scalar, packed) in [(Fmt::F16, ElemType::F16, ElemType::F16x2), (Fmt::BF16, ElemType::BF16, ElemType::BF16x2)] {
        let corners = fmt.corners();
        for x in 0..=0xffffu128 {
            for &c in &corners {
                let c = c as u128;
                for op in FLOAT_OPS {
                    // fcmpwr writes src1 = the bitwise complement, a visible change
                    checker.check(&format!("{scalar:?}"), op, scalar, false, (x, c, !x & 0xffff), None);
                    checker.check(&format!("{scalar:?}"), op, scalar, false, (c, x, !c & 0xffff), None);
                    // the value in the high half, the corner in the low half and vice versa
                    let (old, src0) = ((x << 16) | c, (c << 16) | x);
                    checker.check(&format!("{packed:?}"), op, packed, false, (old, src0, !old & 0xffff_ffff), None);
                }
            }
        }
    }
    checker.finish("every 16-bit value against the corners");
}
