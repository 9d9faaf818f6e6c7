//! The atomic ALU of the golden model: one function of the same control
//! values the RTL ALU's ports carry ([`AluCtl`]: `op`, `ty`, `ftz`), so the
//! two can be compared op by op, width by width.
//!
//! Inputs are raw bits; only the low `ty.bits()` bits of `old`, `src0` and
//! `src1` are used (this is how `.16` atomics use the low 16 bits of each
//! dword, seed DWORD_ATOMIC.md "16bit Atomics"). Outputs are masked to
//! `ty.bits()`.
//!
//! Every op is defined at every type, so the RTL can be compared over the
//! whole port space, also where no validated message leads:
//! * integer ops (all but the five float ops below) work on the low
//!   `ty.bits()` bits whatever `ty` is, float types included (bitwise);
//!   `Add` on a float type is the IEEE add; at `B128` only the bitwise ones
//!   (`AluOp::is_bitwise`: xchg, cmpxchg, and, or, xor) compute, the ops
//!   that add or order leave the value unchanged (`new = old`;
//!   `ALU_ARITH_BITS`: no message leads there);
//! * the float ops (`Fmax`, `Fmin`, `Fcmpwr`, `FminPtx`, `FmaxPtx`, and
//!   `Add` on a float type) on a packed type (`F16x2`, `BF16x2`) work on
//!   each 16-bit half independently; on an integer type they read the bits
//!   as the float of that width (B16 = f16, B32 = f32, B64 = f64) and leave
//!   a B128 value unchanged (`new = old`);
//! * `ftz` affects only `Add` on `F32` (PTX `atom.add.f32` on global,
//!   scripts.md "left open"); it is ignored everywhere else.

use super::soft_float::{self as fp, Format};
use crate::ops::{AluCtl, AluOp, ElemType, ALU_ARITH_BITS};

/// One ALU result: the value written back to memory and the value returned
/// to the lane (old, except PREDEC which returns new).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AluOut {
    pub new: u128,
    pub ret: u128,
}

/// The whole ALU: `new = op(old, src0, src1)` at `ctl.ty`, `ret` per
/// [`AluOp::returns_new`].
#[inline]
pub fn apply(ctl: AluCtl, old: u128, src0: u128, src1: u128) -> AluOut {
    let mask = ctl.ty.mask();
    let (old, src0, src1) = (old & mask, src0 & mask, src1 & mask);
    let new = if is_float_op(ctl.op) || (ctl.op == AluOp::Add && ctl.ty.is_float()) {
        float_op(ctl, old, src0, src1)
    } else {
        int_op(ctl.op, ctl.ty.bits(), old, src0, src1)
    } & mask;
    let ret = if ctl.op.returns_new() { new } else { old };
    AluOut { new, ret }
}

/// The ops that read their operands as floats at every type.
fn is_float_op(op: AluOp) -> bool {
    matches!(op, AluOp::Fmax | AluOp::Fmin | AluOp::Fcmpwr | AluOp::FminPtx | AluOp::FmaxPtx)
}

/// Sign-extend the low `bits` bits of `x`.
#[inline]
fn signed(x: u128, bits: u32) -> i128 {
    ((x << (128 - bits)) as i128) >> (128 - bits)
}

/// The integer ops at `bits` (16, 32, 64 or 128) on masked operands; the
/// caller masks the result. One row per op, as the seed's table writes it.
#[inline]
#[rustfmt::skip]
fn int_op(op: AluOp, bits: u32, old: u128, src0: u128, src1: u128) -> u128 {
    if bits as usize > ALU_ARITH_BITS && !op.is_bitwise() {
        return old;
    }
    let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let new = match op {
        AluOp::Add => old.wrapping_add(src0),
        AluOp::Sub => old.wrapping_sub(src0),
        AluOp::Inc => old.wrapping_add(1),
        AluOp::Dec => old.wrapping_sub(1),
        AluOp::Min => old.min(src0),
        AluOp::Max => old.max(src0),
        AluOp::Xchg => src0,
        AluOp::Cmpxchg => if old == src1 { src0 } else { old },
        AluOp::And => old & src0,
        AluOp::Or => old | src0,
        AluOp::Xor => old ^ src0,
        AluOp::Imin => if signed(src0, bits) < signed(old, bits) { src0 } else { old },
        AluOp::Imax => if signed(src0, bits) > signed(old, bits) { src0 } else { old },
        AluOp::Predec => old.wrapping_sub(1),
        // PTX inc: (old >= src0) ? 0 : old + 1, unsigned
        AluOp::IncBound => if old >= src0 { 0 } else { old + 1 },
        // PTX dec: (old == 0 || old > src0) ? src0 : old - 1, unsigned
        AluOp::DecBound => if old == 0 || old > src0 { src0 } else { old - 1 },
        // float ops never reach here (see `apply`)
        AluOp::Fmax | AluOp::Fmin | AluOp::Fcmpwr | AluOp::FminPtx | AluOp::FmaxPtx => old,
    };
    new & mask
}

/// The soft-float format of a float (or float-read integer) type, and
/// whether it is two 16-bit halves (the one table's `ElemType::float_read`).
fn float_format(ty: ElemType) -> Option<(Format, bool)> {
    ty.float_read()
}

fn float_op(ctl: AluCtl, old: u128, src0: u128, src1: u128) -> u128 {
    let Some((fmt, packed)) = float_format(ctl.ty) else {
        return old;
    };
    let ftz = ctl.ftz && ctl.ty == ElemType::F32;
    let scalar = |o: u64, s0: u64, s1: u64| float_scalar(ctl.op, fmt, ftz, o, s0, s1);
    if packed {
        let half = |x: u128, i: u32| ((x >> (16 * i)) & 0xffff) as u64;
        let lo = scalar(half(old, 0), half(src0, 0), half(src1, 0));
        let hi = scalar(half(old, 1), half(src0, 1), half(src1, 1));
        (lo as u128) | ((hi as u128) << 16)
    } else {
        scalar(old as u64, src0 as u64, src1 as u64) as u128
    }
}

/// The float ops on one element. One row per op.
#[rustfmt::skip]
fn float_scalar(op: AluOp, fmt: Format, ftz: bool, old: u64, src0: u64, src1: u64) -> u64 {
    match op {
        AluOp::Add => fp::add(fmt, old, src0, ftz),
        // IEEE 754-2019 maximumNumber / minimumNumber; both NaN keeps old's bits
        AluOp::Fmax => min_max_number(fmt, old, src0, old, true),
        AluOp::Fmin => min_max_number(fmt, old, src0, old, false),
        AluOp::Fcmpwr => if fp::eq(fmt, src0, old) { src1 } else { old },
        // PTX max/min: NaN ignored, both NaN -> canonical NaN
        AluOp::FmaxPtx => min_max_number(fmt, old, src0, fmt.canonical_nan(), true),
        AluOp::FminPtx => min_max_number(fmt, old, src0, fmt.canonical_nan(), false),
        _ => old,
    }
}

/// max (or min) of `a` and `b` with a NaN operand treated as missing and
/// -0 < +0; `both_nan` when neither is a number. Values move bit-exactly.
fn min_max_number(fmt: Format, a: u64, b: u64, both_nan: u64, max: bool) -> u64 {
    match (fmt.is_nan(a), fmt.is_nan(b)) {
        (true, true) => both_nan,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            let b_wins = if max { fp::less_signed_zero(fmt, a, b) } else { fp::less_signed_zero(fmt, b, a) };
            if b_wins {
                b
            } else {
                a
            }
        }
    }
}
