//! Operand values and vector sets for the atomic ALU: integer and float
//! corner values, operands drawn to hit them, and the ALU's kill suite
//! (`atomport mutate`): the directed sets of testbench/tests/rtl_alu.rs and
//! rtl_fp.rs (every op x type x corner pair) and seeded random vectors,
//! for the ops and types an ALU build executes.

use atomport_core::ops::{AluOp, ElemType, UnitConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::alu_stream::{admitted, AluVector};

/// Integer corner values at `bits`: 0, 1, 2, max-1, max, the signed min and
/// max and their neighbours, alternating patterns.
pub fn integer_corners(bits: u32) -> Vec<u128> {
    let max = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let smin = 1u128 << (bits - 1);
    let mut v = vec![
        0,
        1,
        2,
        max - 1,
        max,
        smin,
        smin + 1,
        smin - 1,
        smin - 2,
        0x5555_5555_5555_5555_5555_5555_5555_5555 & max,
        0xaaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa & max,
    ];
    v.sort_unstable();
    v.dedup();
    v
}

/// `v` with junk above `bits` (which the ALU must ignore); `v` itself at 128.
pub fn with_garbage(v: u128, bits: u32) -> u128 {
    if bits == 128 {
        v
    } else {
        v | (0xdead_beef_0bad_f00d_c0ff_ee00_1234_5678u128 << bits)
    }
}

/// One random integer operand at `bits`, drawn to hit the interesting cases
/// often: uniform, a corner, a small distance from `near`, or one bit set
/// (or clear) at any position, so every bit of a zero test or a compare
/// decides alone now and then; with random junk above the width a quarter
/// of the time.
pub fn random_operand(rng: &mut ChaCha8Rng, bits: u32, corner_values: &[u128], near: u128) -> u128 {
    let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let v = match rng.gen_range(0..10) {
        0..=3 => rng.gen::<u128>(),
        4 | 5 => corner_values[rng.gen_range(0..corner_values.len())],
        6 => near.wrapping_add(rng.gen_range(0..4)),
        7 => near.wrapping_sub(rng.gen_range(0..4)),
        8 => 1u128 << rng.gen_range(0..bits),
        _ => !(1u128 << rng.gen_range(0..bits)),
    } & mask;
    if rng.gen_bool(0.25) {
        v | (rng.gen::<u128>() & !mask)
    } else {
        v
    }
}

/// The ops that are floating point at every type.
pub const FLOAT_ONLY_OPS: [AluOp; 5] = [AluOp::Fmax, AluOp::Fmin, AluOp::Fcmpwr, AluOp::FminPtx, AluOp::FmaxPtx];

/// The ops the float datapath serves at a float type: the float-only ones and `Add`.
pub const FLOAT_OPS: [AluOp; 6] = [AluOp::Add, AluOp::Fmax, AluOp::Fmin, AluOp::Fcmpwr, AluOp::FminPtx, AluOp::FmaxPtx];

/// The integer ops, in op-table order.
pub fn integer_ops() -> Vec<AluOp> {
    AluOp::ALL.iter().copied().filter(|op| !op.is_float_only()).collect()
}

/// An IEEE binary format the ALU computes in, with its field arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FloatFormat {
    F16,
    BF16,
    F32,
    F64,
}

impl FloatFormat {
    pub const ALL: [FloatFormat; 4] = [FloatFormat::F16, FloatFormat::BF16, FloatFormat::F32, FloatFormat::F64];

    pub fn exp_bits(self) -> u32 {
        match self {
            FloatFormat::F16 => 5,
            FloatFormat::BF16 | FloatFormat::F32 => 8,
            FloatFormat::F64 => 11,
        }
    }
    pub fn man_bits(self) -> u32 {
        match self {
            FloatFormat::F16 => 10,
            FloatFormat::BF16 => 7,
            FloatFormat::F32 => 23,
            FloatFormat::F64 => 52,
        }
    }
    pub fn bits(self) -> u32 {
        1 + self.exp_bits() + self.man_bits()
    }
    pub fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1 << self.bits()) - 1
        }
    }
    pub fn sign(self) -> u64 {
        1 << (self.bits() - 1)
    }
    pub fn exp_max(self) -> u64 {
        (1 << self.exp_bits()) - 1
    }
    pub fn bias(self) -> u64 {
        (1 << (self.exp_bits() - 1)) - 1
    }
    pub fn man_mask(self) -> u64 {
        (1 << self.man_bits()) - 1
    }
    /// A value from its biased exponent field and mantissa field.
    pub fn make(self, exp: u64, man: u64) -> u64 {
        (exp << self.man_bits()) | man
    }
    pub fn inf(self) -> u64 {
        self.make(self.exp_max(), 0)
    }
    /// scripts.md: the canonical NaN, sign 0, exponent and mantissa all ones
    pub fn canonical_nan(self) -> u64 {
        self.mask() >> 1
    }
    pub fn is_nan(self, x: u64) -> bool {
        (x & (self.mask() >> 1)) > self.inf()
    }
    pub fn is_subnormal(self, x: u64) -> bool {
        x & self.make(self.exp_max(), 0) == 0 && x & self.man_mask() != 0
    }
    /// A subnormal becomes the zero of its sign.
    pub fn flush(self, x: u64) -> u64 {
        if self.is_subnormal(x) {
            x & self.sign()
        } else {
            x
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            FloatFormat::F16 => "f16",
            FloatFormat::BF16 => "bf16",
            FloatFormat::F32 => "f32",
            FloatFormat::F64 => "f64",
        }
    }

    /// The format a type is read as by the float ops, and whether it is
    /// two halves; None for B128 (no float).
    pub fn of(ty: ElemType) -> Option<(FloatFormat, bool)> {
        Some(match ty {
            ElemType::F16 | ElemType::B16 => (FloatFormat::F16, false),
            ElemType::BF16 => (FloatFormat::BF16, false),
            ElemType::F32 | ElemType::B32 => (FloatFormat::F32, false),
            ElemType::F64 | ElemType::B64 => (FloatFormat::F64, false),
            ElemType::F16x2 => (FloatFormat::F16, true),
            ElemType::BF16x2 => (FloatFormat::BF16, true),
            ElemType::B128 => return None,
        })
    }

    /// Corner values of the format (both signs): zeros, subnormals, the
    /// smallest normals, one and its neighbours, the largest finite,
    /// infinity, signaling and quiet NaNs, the canonical NaN.
    pub fn corners(self) -> Vec<u64> {
        let m = self.man_bits();
        let one = self.make(self.bias(), 0);
        let inf = self.inf();
        let base = [
            0,
            1,
            2,
            self.man_mask(),
            self.man_mask() - 1,
            self.make(1, 0),
            self.make(1, 1),
            self.make(2, 0),
            one,
            one | 1,
            one | self.man_mask(),
            self.make(self.exp_max() - 1, self.man_mask()),
            self.make(self.exp_max() - 1, self.man_mask() - 1),
            self.make(self.exp_max() - 1, 0),
            inf,
            inf | 1,
            inf | (1 << (m - 1)),
            inf | self.man_mask(),
            self.canonical_nan(),
        ];
        let mut v: Vec<u64> = base.iter().flat_map(|&x| [x, x | self.sign()]).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// A random element, drawn to hit the interesting cases: uniform bits,
    /// a corner, or a value related to `other` (same exponent, a small
    /// exponent difference around the mantissa width, its negation or a few
    /// ulps away, or of the other sign 2^k ulps away, so that adding the two
    /// cancels all but about k bits: every normalization shift of the sum),
    /// a single mantissa bit, or a tiny value.
    pub fn random_element(self, rng: &mut ChaCha8Rng, corners: &[u64], other: u64) -> u64 {
        let m = self.man_bits();
        let exp_field = |x: u64| (x >> m) & self.exp_max();
        let sign = if rng.gen_bool(0.5) { self.sign() } else { 0 };
        let v = match rng.gen_range(0..12) {
            // one mantissa bit (a NaN's payload, a sparse significand: each
            // bit of a NaN test or a sticky bit decides alone), exponent
            // from `other` or uniform
            10 => {
                let exp = if rng.gen_bool(0.5) { exp_field(other) } else { rng.gen_range(0..=self.exp_max()) };
                sign | self.make(exp, 1u64 << rng.gen_range(0..m))
            }
            9 => {
                let step = 1u64 << rng.gen_range(0..=m + 1);
                let magnitude = other & !self.sign();
                let near = if rng.gen_bool(0.5) { magnitude.wrapping_add(step) } else { magnitude.wrapping_sub(step) };
                (near & !self.sign()) | (!other & self.sign())
            }
            0..=2 => rng.gen::<u64>(),
            3 | 4 => corners[rng.gen_range(0..corners.len())],
            5 => sign | self.make(exp_field(other), rng.gen::<u64>() & self.man_mask()),
            6 => {
                // an exponent difference of 0 ..= m + 3 (alignment and sticky)
                let d = rng.gen_range(0..=u64::from(m) + 3);
                sign | self.make(exp_field(other).saturating_sub(d), rng.gen::<u64>() & self.man_mask())
            }
            7 => other ^ self.sign(),
            8 => (other & !self.sign()).wrapping_add(rng.gen_range(0..4)).wrapping_sub(2) | sign,
            _ => sign | self.make(rng.gen_range(0..3), rng.gen::<u64>() & self.man_mask()),
        };
        v & self.mask()
    }
}

/// The (type, ftz, ops) groups of float vectors: every float format, f32
/// with and without ftz, the packed halves, and the integer types the
/// float-only ops read as floats.
pub fn float_groups() -> Vec<(ElemType, bool, &'static [AluOp])> {
    vec![
        (ElemType::F16, false, &FLOAT_OPS),
        (ElemType::BF16, false, &FLOAT_OPS),
        (ElemType::F32, false, &FLOAT_OPS),
        (ElemType::F32, true, &FLOAT_OPS),
        (ElemType::F64, false, &FLOAT_OPS),
        (ElemType::F16x2, false, &FLOAT_OPS),
        (ElemType::BF16x2, false, &FLOAT_OPS),
        (ElemType::B16, false, &FLOAT_ONLY_OPS),
        (ElemType::B32, true, &FLOAT_ONLY_OPS),
        (ElemType::B64, false, &FLOAT_ONLY_OPS),
    ]
}

/// Every integer op at every type it is an integer op at, with every pair of
/// corner values (each also with junk above the width) as old and src0, and
/// src1 equal to old, old with junk, src0, or another corner; then PTX
/// inc/dec at their bounds. Only what `config` executes.
pub fn directed_integer(config: &UnitConfig) -> Vec<AluVector> {
    let mut out = vec![];
    for op in integer_ops() {
        for ty in ElemType::ALL {
            let probe = AluVector::of(op, ty, false, 0, 0, 0);
            if probe.needs_fp() || !admitted(config, &probe) {
                continue;
            }
            let bits = ty.bits();
            let values: Vec<u128> = integer_corners(bits).into_iter().flat_map(|v| [v, with_garbage(v, bits)]).collect();
            for &old in &values {
                for &src0 in &values {
                    for src1 in [old, with_garbage(old, bits), src0, values[(old as usize) % values.len()]] {
                        out.push(AluVector::of(op, ty, false, old, src0, src1));
                    }
                }
            }
        }
    }
    for ty in [ElemType::B16, ElemType::B32, ElemType::B64, ElemType::B128] {
        let max = ty.mask();
        for bound in [0, 1, max - 1, max] {
            for old in [0, 1, bound.wrapping_sub(1) & max, bound, bound.wrapping_add(1) & max, max - 1, max] {
                for op in [AluOp::IncBound, AluOp::DecBound] {
                    let v = AluVector::of(op, ty, false, old, bound, 0);
                    if admitted(config, &v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// Every float op of every float group with every pair of the format's
/// corner values as old and src0 (src1: the complement of old, so a
/// compare-and-write is seen; or old itself); packed types with every pair
/// in each half too, the high half's pair a different one than the low
/// half's. Only what `config` executes.
pub fn directed_float(config: &UnitConfig) -> Vec<AluVector> {
    let mut out = vec![];
    for (ty, ftz, ops) in float_groups() {
        let Some((fmt, halves)) = FloatFormat::of(ty) else { continue };
        let corners = fmt.corners();
        let n = corners.len();
        for &op in ops {
            for (i, &a) in corners.iter().enumerate() {
                for (j, &b) in corners.iter().enumerate() {
                    let (mut old, mut src0) = (a as u128, b as u128);
                    if halves {
                        // (i, j) -> (i + 1, j + 3) is a bijection on the
                        // pairs: the high half meets every pair as well
                        old |= (corners[(i + 1) % n] as u128) << 16;
                        src0 |= (corners[(j + 3) % n] as u128) << 16;
                    }
                    let mask = ty.mask();
                    let src1 = if (i + j) % 2 == 0 { !old & mask } else { old };
                    let v = AluVector::of(op, ty, ftz, old, src0, src1);
                    if admitted(config, &v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// The (old, src0) addends of a format where one bit of the smaller addend
/// decides the rounding alone: for every exponent difference d in 0 ..= m + 3
/// and every mantissa bit k of the smaller addend (or none), that bit beside
/// the bit that lands on the round position (a tie without it); the larger
/// addend's mantissa even, odd or all ones (a carry out); same and opposite
/// signs; both operand orders. Random draws meet one (d, k) pair about once
/// in m^2 float vectors, and a lone sticky bit matters only at a tie.
pub fn rounding_addends(fmt: FloatFormat) -> Vec<(u64, u64)> {
    let m = u64::from(fmt.man_bits());
    let big_exp = fmt.bias() + 1;
    let mut out = vec![];
    for d in 0..=m + 3 {
        let round_bit = if (1..=m).contains(&d) { 1u64 << (d - 1) } else { 0 };
        for k in (0..m).map(Some).chain([None]) {
            let small_man = round_bit | k.map_or(0, |k| 1u64 << k);
            let small = fmt.make(big_exp - d, small_man & fmt.man_mask());
            for big_man in [0, 1, fmt.man_mask()] {
                let big = fmt.make(big_exp, big_man);
                for small_sign in [0, fmt.sign()] {
                    out.push((big, small | small_sign));
                    out.push((small | small_sign, big));
                }
            }
        }
    }
    out
}

/// `Add` at every float type with the addends of `rounding_addends`; packed
/// types with a different case in each half. Only what `config` executes.
pub fn directed_rounding(config: &UnitConfig) -> Vec<AluVector> {
    let mut out = vec![];
    for (ty, ftz, ops) in float_groups() {
        let Some((fmt, halves)) = FloatFormat::of(ty) else { continue };
        if !ops.contains(&AluOp::Add) {
            continue;
        }
        let cases = rounding_addends(fmt);
        for (i, &(old, src0)) in cases.iter().enumerate() {
            let (mut old, mut src0) = (old as u128, src0 as u128);
            if halves {
                let (h_old, h_src0) = cases[(i + cases.len() / 2) % cases.len()];
                old |= (h_old as u128) << 16;
                src0 |= (h_src0 as u128) << 16;
            }
            let v = AluVector::of(AluOp::Add, ty, ftz, old, src0, 0);
            if admitted(config, &v) {
                out.push(v);
            }
        }
    }
    out
}

/// What the unit never sends an ALU built as `config`, whose answer
/// hdl/src/alu.rs documents (`alu_stream::expected`): every op code outside
/// the op table, every type code outside it or wider than the build, and
/// without FP every float op; each with corner operands (and junk above
/// 32 bits).
pub fn directed_outside(config: &UnitConfig) -> Vec<AluVector> {
    let corners = integer_corners(32);
    let mut out = vec![];
    for op in 0..1u8 << crate::alu_stream::OP_BITS {
        for ty in 0..1u8 << crate::alu_stream::TY_BITS {
            let probe = AluVector { op, ty, ftz: false, old: 0, src0: 0, src1: 0 };
            if admitted(config, &probe) {
                continue;
            }
            for (k, &old) in corners.iter().enumerate() {
                let src0 = corners[(k * 5 + 3) % corners.len()];
                let old = if k % 2 == 0 { old } else { with_garbage(old, 32) };
                out.push(AluVector { op, ty, ftz: k % 3 == 0, old, src0, src1: old });
            }
        }
    }
    out
}

/// `count` seeded random vectors of what `config` executes: integer ops at
/// the integer widths with operands near each other and near the corners,
/// float ops of every group with operands drawn to hit rounding, alignment,
/// cancellation and specials (hdl/src/fp_add.rs), a quarter of them with
/// junk above the width.
pub fn random_vectors(config: &UnitConfig, count: usize, seed: u64) -> Vec<AluVector> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let int_ops = integer_ops();
    let int_types: Vec<ElemType> = [ElemType::B16, ElemType::B32, ElemType::B64, ElemType::B128]
        .into_iter()
        .filter(|t| t.bits() <= config.data_bits)
        .collect();
    let groups: Vec<_> = if config.fp {
        float_groups().into_iter().filter(|(ty, _, _)| ty.bits() <= config.data_bits).collect()
    } else {
        vec![]
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        if groups.is_empty() || rng.gen_bool(0.5) {
            let ty = int_types[rng.gen_range(0..int_types.len())];
            let op = int_ops[rng.gen_range(0..int_ops.len())];
            let bits = ty.bits();
            let corners = integer_corners(bits);
            let old = random_operand(&mut rng, bits, &corners, 0);
            let src0 = random_operand(&mut rng, bits, &corners, old);
            let src1 = if rng.gen_bool(0.5) { old } else { random_operand(&mut rng, bits, &corners, old) };
            out.push(AluVector::of(op, ty, false, old, src0, src1));
        } else {
            let (ty, ftz, ops) = groups[rng.gen_range(0..groups.len())];
            let (fmt, halves) = FloatFormat::of(ty).expect("a float group has a format");
            let corners = fmt.corners();
            let op = ops[rng.gen_range(0..ops.len())];
            let element = |rng: &mut ChaCha8Rng| {
                let a = fmt.random_element(rng, &corners, 0);
                let a = fmt.random_element(rng, &corners, a);
                let b = fmt.random_element(rng, &corners, a);
                let b = if op == AluOp::Fcmpwr && rng.gen_bool(0.5) { a } else { b };
                let c = fmt.random_element(rng, &corners, a);
                (a as u128, b as u128, c as u128)
            };
            let (mut old, mut src0, mut src1) = element(&mut rng);
            if halves {
                let (h0, h1, h2) = element(&mut rng);
                (old, src0, src1) = (old | h0 << 16, src0 | h1 << 16, src1 | h2 << 16);
            }
            let bits = ty.bits();
            if bits < 128 && rng.gen_bool(0.25) {
                let mut junk = |x: u128| x | (rng.gen::<u128>() << bits);
                (old, src0, src1) = (junk(old), junk(src0), junk(src1));
            }
            out.push(AluVector::of(op, ty, ftz, old, src0, src1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_sets_keep_to_what_the_build_executes() {
        let small = UnitConfig::SMALL;
        for v in directed_integer(&small).iter().chain(&directed_float(&small)).chain(&random_vectors(&small, 2000, 7)) {
            assert!(v.ctl().unwrap().ty.bits() <= 32 && !v.needs_fp(), "{v}");
        }
        assert!(directed_float(&small).is_empty(), "no float ops without FP");
        let full = UnitConfig::FULL;
        let float = directed_float(&full);
        for op in FLOAT_OPS {
            assert!(float.iter().any(|v| v.op == op.code() && v.ty == ElemType::F16x2.code()), "{op:?} on packed halves");
        }
        assert!(directed_rounding(&small).is_empty(), "no float adds without FP");
        let rounding = directed_rounding(&full);
        assert!(rounding.iter().any(|v| v.ty == ElemType::F64.code()) && rounding.iter().any(|v| v.ty == ElemType::BF16x2.code()));
        // every pair of corners in the high half of a packed type
        let corners = FloatFormat::F16.corners();
        let high: std::collections::BTreeSet<(u128, u128)> =
            float.iter().filter(|v| v.ty == ElemType::F16x2.code() && v.op == AluOp::Add.code()).map(|v| ((v.old >> 16) & 0xffff, (v.src0 >> 16) & 0xffff)).collect();
        assert_eq!(high.len(), corners.len() * corners.len(), "every corner pair in the high half");
        let ops: std::collections::BTreeSet<u8> = directed_integer(&full).iter().map(|v| v.op).collect();
        assert_eq!(ops.len(), integer_ops().len(), "every integer op");
        for config in [small, full] {
            let outside = directed_outside(&config);
            assert!(outside.iter().all(|v| !admitted(&config, v)) && !outside.is_empty());
            assert!(outside.iter().any(|v| v.ctl().is_none()), "codes outside the table");
        }
        assert!(directed_outside(&small).iter().any(|v| v.needs_fp()), "float ops on the integer build");
        let random = random_vectors(&full, 4000, 7);
        assert!(random.iter().any(|v| v.needs_fp()) && random.iter().any(|v| !v.needs_fp()));
        assert_eq!(random, random_vectors(&full, 4000, 7), "the same seed, the same vectors");
    }
}
