//! A small generic soft-float in integer arithmetic: IEEE 754 binary formats
//! described by their exponent and mantissa widths (f16, bf16, f32, f64).
//!
//! Only what the atomic ALU needs: addition with round-to-nearest-even
//! (optionally flushing subnormals to zero), classification, IEEE equality,
//! and the total "numeric" order used by min/max. Host floats are not used:
//! bf16 through host f32 would round twice, and the RTL adder mirrors this
//! structure step for step (unpack, align with sticky, add, leading-zero
//! count, normalize, round, pack).
//!
//! NaN results of [`add`] are the format's canonical NaN, [`Format::canonical_nan`]:
//! sign 0, exponent all ones, mantissa all ones (f32 `0x7fffffff`, f16 and
//! bf16 `0x7fff`, f64 `0x7fffffffffffffff`) — the NaN that NVIDIA hardware
//! produces and that PTX min/max return (scripts.md "left open" lets an add
//! return any NaN; one fixed choice keeps the golden model and the RTL
//! comparable bit for bit).

/// An IEEE 754 binary interchange format by its field widths: the one
/// table's (`atomport_isa::FloatFormat`), with its classification helpers
/// (`is_nan`, `is_zero`, `flush`, `canonical_nan`, ...).
pub use crate::ops::FloatFormat as Format;

/// IEEE binary16.
pub const F16: Format = Format::F16;
/// bfloat16: f32's exponent with a 7-bit mantissa.
pub const BF16: Format = Format::BF16;
/// IEEE binary32.
pub const F32: Format = Format::F32;
/// IEEE binary64.
pub const F64: Format = Format::F64;

/// A value split into its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unpacked {
    sign: bool,
    /// the biased exponent field
    exp: u64,
    /// the stored mantissa field
    man: u64,
}

fn unpack(fmt: Format, bits: u64) -> Unpacked {
    Unpacked { sign: bits & fmt.sign_bit() != 0, exp: fmt.exp_field(bits), man: bits & fmt.man_mask() }
}

fn pack(fmt: Format, sign: bool, exp: u64, man: u64) -> u64 {
    (if sign { fmt.sign_bit() } else { 0 }) | (exp << fmt.man_bits) | man
}

/// IEEE equality: +0 == -0, a NaN equals nothing (not even itself).
pub fn eq(fmt: Format, a: u64, b: u64) -> bool {
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return false;
    }
    a == b || (fmt.is_zero(a) && fmt.is_zero(b))
}

/// The order of non-NaN values with -0 < +0 (IEEE 754-2019 minimumNumber /
/// maximumNumber, PTX min/max): true when `a < b`. Both must be non-NaN.
pub fn less_signed_zero(fmt: Format, a: u64, b: u64) -> bool {
    // Sign-magnitude to a monotonic key: negative values invert, positive
    // values get the top bit set. -0 maps just below +0.
    let key = |x: u64| -> u64 {
        if x & fmt.sign_bit() != 0 {
            !x & fmt.mask()
        } else {
            x | fmt.sign_bit()
        }
    };
    key(a) < key(b)
}

/// Shift right, OR-ing every bit shifted out into bit 0 (the sticky bit).
fn shift_right_sticky(x: u128, by: u64) -> u128 {
    if by == 0 {
        x
    } else if by >= 128 {
        (x != 0) as u128
    } else {
        (x >> by) | ((x & ((1u128 << by) - 1)) != 0) as u128
    }
}

/// Extra low bits carried below the mantissa while adding: guard, round, sticky.
const GRS: u32 = 3;

/// `a + b` in `fmt`, rounded to nearest, ties to even.
///
/// With `ftz`, subnormal inputs are read as the zero of their sign and a
/// subnormal result (tininess detected after rounding) is written as the
/// zero of its sign. A NaN operand or inf - inf gives [`Format::canonical_nan`].
/// Exact cancellation gives +0; -0 + -0 = -0.
pub fn add(fmt: Format, a: u64, b: u64, ftz: bool) -> u64 {
    let (a, b) = if ftz { (fmt.flush(a), fmt.flush(b)) } else { (a, b) };
    let (ua, ub) = (unpack(fmt, a), unpack(fmt, b));
    let emax = fmt.exp_max();
    let m = fmt.man_bits;

    // Specials: NaN, infinities.
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return fmt.canonical_nan();
    }
    match (ua.exp == emax, ub.exp == emax) {
        (true, true) if ua.sign != ub.sign => return fmt.canonical_nan(),
        (true, _) => return a,
        (_, true) => return b,
        _ => {}
    }
    if fmt.is_zero(a) && fmt.is_zero(b) {
        return pack(fmt, ua.sign && ub.sign, 0, 0);
    }

    // Significands with the hidden bit; a subnormal's exponent reads as 1.
    let sig = |u: Unpacked| -> (u64, u128) {
        if u.exp == 0 {
            (1, u.man as u128)
        } else {
            (u.exp, (u.man | (1u64 << m)) as u128)
        }
    };
    let (mut ea, mut sa) = sig(ua);
    let (mut eb, mut sb) = sig(ub);
    let (mut sign_a, mut sign_b) = (ua.sign, ub.sign);
    // Order by magnitude so the result takes a's sign and a - b >= 0.
    if (eb, sb) > (ea, sa) {
        std::mem::swap(&mut ea, &mut eb);
        std::mem::swap(&mut sa, &mut sb);
        std::mem::swap(&mut sign_a, &mut sign_b);
    }

    // Align b to a, keeping guard, round and sticky bits.
    let big = sa << GRS;
    let small = shift_right_sticky(sb << GRS, ea - eb);
    let mut sum = if sign_a == sign_b { big + small } else { big - small };
    let mut exp = ea;
    if sum == 0 {
        // exact cancellation: +0 when rounding to nearest
        return 0;
    }

    // Normalize: the leading one goes to bit m + GRS.
    let lead = 127 - sum.leading_zeros();
    let target = m + GRS;
    if lead > target {
        // carry out of the add: at most one position
        sum = shift_right_sticky(sum, (lead - target) as u64);
        exp += (lead - target) as u64;
    } else if lead < target {
        // cancellation: shift left, but not below the subnormal exponent 1
        let shift = ((target - lead) as u64).min(exp - 1);
        sum <<= shift;
        exp -= shift;
    }
    // A significand still below 2^target is subnormal: exponent field 0.
    let mut exp_field = if sum >> target != 0 { exp } else { 0 };

    // Round to nearest, ties to even.
    let round_bits = (sum & ((1 << GRS) - 1)) as u64;
    let half = 1u64 << (GRS - 1);
    let mut man = (sum >> GRS) as u64;
    if round_bits > half || (round_bits == half && man & 1 == 1) {
        man += 1;
        if man >> (m + 1) != 0 {
            // rounding carried into a new leading bit
            man >>= 1;
            exp_field += 1;
        } else if exp_field == 0 && man >> m != 0 {
            // a subnormal rounded up to the smallest normal
            exp_field = 1;
        }
    }
    if exp_field >= emax {
        return pack(fmt, sign_a, emax, 0);
    }
    let result = pack(fmt, sign_a, exp_field, man & fmt.man_mask());
    if ftz {
        fmt.flush(result)
    } else {
        result
    }
}
