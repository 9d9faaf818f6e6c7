//! The ALU, op x width, with hand-worked values: one row per case,
//! `(op, type, ftz, old, src0, src1) -> (new, returned)`.

use crate::golden::atomic_ops::{apply, AluOut};
use crate::ops::{AluCtl, AluOp, AluOp::*, ElemType, ElemType::*};

struct Row {
    op: AluOp,
    ty: ElemType,
    ftz: bool,
    old: u128,
    src0: u128,
    src1: u128,
    new: u128,
    ret: u128,
}

/// A row whose result returns old (every op but PREDEC).
const fn r(op: AluOp, ty: ElemType, old: u128, src0: u128, src1: u128, new: u128) -> Row {
    Row { op, ty, ftz: false, old, src0, src1, new, ret: old }
}

/// The same with ftz set.
const fn rf(op: AluOp, ty: ElemType, old: u128, src0: u128, new: u128) -> Row {
    Row { op, ty, ftz: true, old, src0, src1: 0, new, ret: old }
}

const M128: u128 = u128::MAX;

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // ---- ADD / SUB wrap modulo 2^width
    r(Add, B16, 0xfffe, 3, 0, 0x0001),
    r(Add, B32, 0xffff_fffe, 3, 0, 0x0000_0001),
    r(Add, B32, 5, 7, 0, 12),
    r(Add, B64, u64::MAX as u128, 1, 0, 0),
    // (the ops that add or order leave a B128 value unchanged: ALU_ARITH_BITS)
    r(Add, B128, M128, 2, 0, M128),
    r(Add, B128, 1 << 64, 1 << 64, 0, 1 << 64),
    r(Sub, B16, 1, 2, 0, 0xffff),
    r(Sub, B32, 10, 3, 0, 7),
    r(Sub, B32, 0, 1, 0, 0xffff_ffff),
    r(Sub, B64, 0, 1, 0, u64::MAX as u128),
    r(Sub, B128, 0, 1, 0, 0),
    // ---- INC / DEC (vISA) wrap; src0 ignored
    r(Inc, B16, 0xffff, 0, 0, 0),
    r(Inc, B32, 0xffff_ffff, 0, 0, 0),
    r(Inc, B32, 41, 0x1234, 0, 42),
    r(Inc, B64, u64::MAX as u128, 0, 0, 0),
    r(Inc, B128, M128, 0, 0, M128),
    r(Dec, B16, 0, 0, 0, 0xffff),
    r(Dec, B32, 0, 0, 0, 0xffff_ffff),
    r(Dec, B32, 42, 0, 0, 41),
    r(Dec, B64, 0, 0, 0, u64::MAX as u128),
    r(Dec, B128, 0, 0, 0, 0),
    // ---- PREDEC returns the new value
    Row { op: Predec, ty: B32, ftz: false, old: 5, src0: 0, src1: 0, new: 4, ret: 4 },
    Row { op: Predec, ty: B32, ftz: false, old: 0, src0: 0, src1: 0, new: 0xffff_ffff, ret: 0xffff_ffff },
    Row { op: Predec, ty: B16, ftz: false, old: 0, src0: 0, src1: 0, new: 0xffff, ret: 0xffff },
    Row { op: Predec, ty: B64, ftz: false, old: 1 << 40, src0: 0, src1: 0, new: (1 << 40) - 1, ret: (1 << 40) - 1 },
    Row { op: Predec, ty: B128, ftz: false, old: 7, src0: 0, src1: 0, new: 7, ret: 7 },
    // ---- MIN / MAX unsigned
    r(Min, B16, 0x8000, 0x7fff, 0, 0x7fff),
    r(Max, B16, 0x8000, 0x7fff, 0, 0x8000),
    r(Min, B32, 0x8000_0000, 1, 0, 1),
    r(Max, B32, 0x8000_0000, 1, 0, 0x8000_0000),
    r(Min, B64, 1 << 63, 5, 0, 5),
    r(Max, B64, 5, 1 << 63, 0, 1 << 63),
    r(Max, B128, 1, 1 << 127, 0, 1),
    r(Min, B128, 1 << 127, 1, 0, 1 << 127),
    // ---- IMIN / IMAX signed at the width
    r(Imin, B16, 0x8000, 0x7fff, 0, 0x8000),
    r(Imax, B16, 0x8000, 0x7fff, 0, 0x7fff),
    r(Imin, B32, 0xffff_ffff, 1, 0, 0xffff_ffff),
    r(Imax, B32, 0xffff_ffff, 1, 0, 1),
    r(Imax, B32, 0x7fff_ffff, 0x8000_0000, 0, 0x7fff_ffff),
    r(Imin, B64, 1, (-3i64 as u64) as u128, 0, (-3i64 as u64) as u128),
    r(Imax, B64, 1, (-3i64 as u64) as u128, 0, 1),
    r(Imin, B128, 1, M128, 0, 1),
    r(Imax, B128, 1 << 127, 0, 0, 1 << 127),
    // ---- XCHG / CMPXCHG: new = (old == src1) ? src0 : old
    r(Xchg, B16, 0x1111, 0x2222, 0, 0x2222),
    r(Xchg, B32, 1, 0xdead_beef, 0, 0xdead_beef),
    r(Xchg, B64, 1, 1 << 50, 0, 1 << 50),
    r(Xchg, B128, 1, M128 - 7, 0, M128 - 7),
    r(Cmpxchg, B32, 7, 9, 7, 9),
    r(Cmpxchg, B32, 7, 9, 8, 7),
    r(Cmpxchg, B16, 0xabcd, 0x1234, 0xabcd, 0x1234),
    r(Cmpxchg, B64, 1 << 60, 3, 1 << 60, 3),
    r(Cmpxchg, B128, (1 << 100) | 5, 1, (1 << 100) | 5, 1),
    r(Cmpxchg, B128, (1 << 100) | 5, 1, 5, (1 << 100) | 5),
    // ---- AND / OR / XOR
    r(And, B32, 0xff00_ff00, 0x0ff0_0ff0, 0, 0x0f00_0f00),
    r(Or, B32, 0xff00_ff00, 0x0ff0_0ff0, 0, 0xfff0_fff0),
    r(Xor, B32, 0xff00_ff00, 0x0ff0_0ff0, 0, 0xf0f0_f0f0),
    r(And, B16, 0xf0f0, 0xff00, 0, 0xf000),
    r(Or, B64, 1 << 63, 1, 0, (1 << 63) | 1),
    r(Xor, B128, M128, 1 << 127, 0, M128 >> 1),
    r(And, B64, u64::MAX as u128, 0xf0, 0, 0xf0),
    r(And, B128, M128, 1 << 100, 0, 1 << 100),
    r(Or, B16, 0x0f00, 0x00f0, 0, 0x0ff0),
    r(Or, B128, 1 << 127, 1, 0, (1 << 127) | 1),
    r(Xor, B16, 0xffff, 0x0f0f, 0, 0xf0f0),
    r(Xor, B64, 1 << 63, 1 << 63, 0, 0),
    // ---- PTX inc: (old >= src0) ? 0 : old + 1
    r(IncBound, B32, 3, 5, 0, 4),
    r(IncBound, B32, 5, 5, 0, 0),
    r(IncBound, B32, 9, 5, 0, 0),
    r(IncBound, B32, 0, 0, 0, 0),                         // bound 0: always 0
    r(IncBound, B32, 0xffff_fffe, 0xffff_ffff, 0, 0xffff_ffff), // bound max: plain increment
    r(IncBound, B32, 0xffff_ffff, 0xffff_ffff, 0, 0),
    // ---- PTX dec: (old == 0 || old > src0) ? src0 : old - 1
    r(DecBound, B32, 3, 5, 0, 2),
    r(DecBound, B32, 0, 5, 0, 5),
    r(DecBound, B32, 9, 5, 0, 5),
    r(DecBound, B32, 0, 0, 0, 0),                         // bound 0: always 0
    r(DecBound, B32, 7, 0, 0, 0),
    r(DecBound, B32, 0, 0xffff_ffff, 0, 0xffff_ffff),    // bound max: wraps to max
    r(DecBound, B32, 0xffff_ffff, 0xffff_ffff, 0, 0xffff_fffe),
    // ---- operands wider than the type: only the low bits count (.16 unpacked layout)
    r(Add, B16, 0xdead_0001, 0xbeef_0002, 0, 0x0003),
    r(Cmpxchg, B16, 0x1_0005, 0x2_0009, 0x3_0005, 0x0009),
    r(Imin, B16, 0x0001, 0x1_ffff, 0, 0xffff),
    r(Add, B32, 0x1_0000_0001, 0x2_0000_0001, 0, 2),
    // ---- FMAX / FMIN: maximumNumber / minimumNumber (f32)
    r(Fmax, F32, 0x3f80_0000, 0x4000_0000, 0, 0x4000_0000),     // max(1, 2) = 2
    r(Fmin, F32, 0x3f80_0000, 0x4000_0000, 0, 0x3f80_0000),
    r(Fmax, F32, 0xc000_0000, 0x3f80_0000, 0, 0x3f80_0000),     // max(-2, 1) = 1 (not an unsigned compare)
    r(Fmin, F32, 0xc000_0000, 0xc040_0000, 0, 0xc040_0000),     // min(-2, -3) = -3
    r(Fmax, F32, 0x8000_0000, 0x0000_0000, 0, 0x0000_0000),     // -0 < +0
    r(Fmax, F32, 0x0000_0000, 0x8000_0000, 0, 0x0000_0000),
    r(Fmin, F32, 0x0000_0000, 0x8000_0000, 0, 0x8000_0000),
    r(Fmin, F32, 0x8000_0000, 0x0000_0000, 0, 0x8000_0000),
    r(Fmax, F32, 0x7fc0_0001, 0x3f80_0000, 0, 0x3f80_0000),     // NaN old is missing
    r(Fmin, F32, 0x3f80_0000, 0x7f80_0001, 0, 0x3f80_0000),     // sNaN src is missing
    r(Fmax, F32, 0x7fc0_0123, 0xffc0_0456, 0, 0x7fc0_0123),     // both NaN: old's bits
    r(Fmin, F32, 0x7f80_0001, 0x7fc0_0000, 0, 0x7f80_0001),     // ... not quietened
    r(Fmax, F32, 0xff80_0000, 0x7fc0_0000, 0, 0xff80_0000),     // -inf vs NaN: -inf
    r(Fmax, F16, 0x3c00, 0xc000, 0, 0x3c00),                     // f16 max(1, -2)
    r(Fmin, F16, 0x3c00, 0xc000, 0, 0xc000),
    r(Fmin, F16, 0x7e00, 0x8000, 0, 0x8000),
    r(Fmax, F16, 0x7d00, 0x7e01, 0, 0x7d00),
    r(Fmax, F16, 0x0000, 0x8000, 0, 0x0000),
    r(Fmax, F16, 0xdead_3c00, 0x4000, 0, 0x4000),               // .16: low half only
    // ---- FCMPWR: new = (src0 == old) ? src1 : old, IEEE equality
    r(Fcmpwr, F32, 0x3f80_0000, 0x3f80_0000, 0x4000_0000, 0x4000_0000),
    r(Fcmpwr, F32, 0x3f80_0000, 0x4000_0000, 0x3f80_0000, 0x3f80_0000), // operand order: src0 compares
    r(Fcmpwr, F32, 0x8000_0000, 0x0000_0000, 0x4040_0000, 0x4040_0000), // +0 == -0
    r(Fcmpwr, F32, 0x7fc0_0000, 0x7fc0_0000, 0x4040_0000, 0x7fc0_0000), // NaN != NaN
    r(Fcmpwr, F16, 0x3c00, 0x3c00, 0x4200, 0x4200),
    r(Fcmpwr, F16, 0x0000, 0x8000, 0x4200, 0x4200),
    r(Fcmpwr, F16, 0x7c01, 0x7c01, 0x4200, 0x7c01),
    // ---- float ADD, round to nearest even
    r(Add, F32, 0x3f80_0000, 0x4000_0000, 0, 0x4040_0000),       // 1 + 2 = 3
    r(Add, F32, 0x3f80_0000, 0x3380_0000, 0, 0x3f80_0000),       // 1 + 2^-24 (tie) = 1
    r(Add, F32, 0x3f80_0001, 0x3380_0000, 0, 0x3f80_0002),       // tie to even, upwards
    r(Add, F32, 0x7f7f_ffff, 0x7f7f_ffff, 0, 0x7f80_0000),       // overflow to inf
    r(Add, F32, 0x7f80_0000, 0xff80_0000, 0, 0x7fff_ffff),       // inf - inf: canonical NaN
    r(Add, F32, 0x0000_0001, 0x0000_0001, 0, 0x0000_0002),       // subnormals kept without ftz
    rf(Add, F32, 0x0000_0001, 0x0000_0001, 0x0000_0000),         // ...flushed with ftz
    rf(Add, F32, 0x0000_0001, 0x3f80_0000, 0x3f80_0000),         // subnormal input flushed
    rf(Add, F32, 0x8000_0001, 0x8000_0000, 0x8000_0000),         // sign-preserving zero
    rf(Add, F32, 0x0080_0001, 0x8080_0000, 0x0000_0000),         // subnormal result flushed
    rf(Add, F16, 0x0001, 0x0001, 0x0002),                        // ftz ignored on f16
    rf(Add, BF16, 0x0001, 0x0001, 0x0002),                       // ... and bf16
    rf(Add, F64, 1, 1, 2),                                       // ... and f64
    r(Add, F16, 0x3c00, 0x3c00, 0, 0x4000),                      // f16 1 + 1 = 2
    r(Add, F16, 0x0001, 0x8002, 0, 0x8001),                      // subnormal difference
    r(Add, F16, 0x3c00, 0x1000, 0, 0x3c00),                      // 1 + 2^-11 (tie) = 1
    r(Add, F16, 0x3c01, 0x1000, 0, 0x3c02),
    r(Add, BF16, 0x3f80, 0x3f80, 0, 0x4000),                     // bf16 1 + 1 = 2
    r(Add, BF16, 0x3f80, 0x3b80, 0, 0x3f80),                     // 1 + 2^-8 (tie) = 1
    r(Add, BF16, 0x3f81, 0x3b80, 0, 0x3f82),
    r(Add, BF16, 0x0001, 0x0001, 0, 0x0002),                     // bf16 subnormals kept
    r(Add, F64, 0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000, 0, 0x4000_0000_0000_0000),
    r(Add, F64, 0x3ff0_0000_0000_0000, 0xbff0_0000_0000_0000, 0, 0),
    r(Add, F16x2, 0x4000_3c00, 0x3c00_3c00, 0, 0x4200_4000),     // {1, 2} + {1, 1} = {2, 3}
    r(Add, F16x2, 0x7c00_3c00, 0xfc00_0001, 0, 0x7fff_3c00),     // hi inf - inf; lo 1 + tiny = 1
    r(Add, BF16x2, 0x4000_3f80, 0x3f80_3f80, 0, 0x4040_4000),    // {1, 2} + {1, 1} = {2, 3}
    // ---- PTX min/max on f16/bf16: NaN ignored, both NaN canonical 0x7fff, -0 < +0
    r(FmaxPtx, F16, 0x3c00, 0x4000, 0, 0x4000),
    r(FminPtx, F16, 0x3c00, 0x4000, 0, 0x3c00),
    r(FmaxPtx, F16, 0x7e00, 0xc000, 0, 0xc000),
    r(FminPtx, F16, 0x3c00, 0xfe01, 0, 0x3c00),
    r(FmaxPtx, F16, 0x7e00, 0x7d01, 0, 0x7fff),
    r(FminPtx, BF16, 0x7fc1, 0xffc0, 0, 0x7fff),
    r(FminPtx, BF16, 0x0000, 0x8000, 0, 0x8000),
    r(FmaxPtx, BF16, 0x8000, 0x0000, 0, 0x0000),
    r(FmaxPtx, BF16, 0xbf80, 0xc000, 0, 0xbf80),                 // max(-1, -2) = -1
    r(FmaxPtx, F16x2, 0x7e00_3c00, 0x7e00_c000, 0, 0x7fff_3c00), // hi both NaN; lo max(1, -2)
    r(FminPtx, BF16x2, 0x3f80_8000, 0xbf80_0000, 0, 0xbf80_8000),// hi min(1, -1); lo min(-0, +0)
];

#[test]
fn every_row_of_the_hand_worked_table() {
    for (i, row) in ROWS.iter().enumerate() {
        let ctl = AluCtl { op: row.op, ty: row.ty, ftz: row.ftz };
        let got = apply(ctl, row.old, row.src0, row.src1);
        assert_eq!(
            got,
            // the returned old value is old's low ty.bits() bits
            AluOut { new: row.new, ret: row.ret & row.ty.mask() },
            "row {i}: {:?}.{:?} ftz={} old={:#x} src0={:#x} src1={:#x}",
            row.op,
            row.ty,
            row.ftz,
            row.old,
            row.src0,
            row.src1
        );
    }
}

#[test]
fn table_covers_every_integer_op_at_every_width_and_every_float_op() {
    let int_ops = [Add, Sub, Inc, Dec, Min, Max, Xchg, Cmpxchg, And, Or, Xor, Imin, Imax, Predec];
    for op in int_ops {
        for ty in [B16, B32, B64, B128] {
            assert!(ROWS.iter().any(|r| r.op == op && r.ty == ty), "no row for {op:?} at {ty:?}");
        }
    }
    for (op, ty) in [
        (Fmax, F32),
        (Fmax, F16),
        (Fmin, F32),
        (Fmin, F16),
        (Fcmpwr, F32),
        (Fcmpwr, F16),
        (Add, F16),
        (Add, BF16),
        (Add, F32),
        (Add, F64),
        (Add, F16x2),
        (Add, BF16x2),
        (FminPtx, F16),
        (FminPtx, BF16),
        (FmaxPtx, F16x2),
        (FminPtx, BF16x2),
        (IncBound, B32),
        (DecBound, B32),
    ] {
        assert!(ROWS.iter().any(|r| r.op == op && r.ty == ty), "no row for {op:?} at {ty:?}");
    }
}

#[test]
fn outputs_are_masked_to_the_type_width_for_every_op_and_type() {
    // all-ones inputs exercise carries out of the width
    for op in AluOp::ALL {
        for ty in ElemType::ALL {
            for ftz in [false, true] {
                let out = apply(AluCtl { op, ty, ftz }, M128, M128, M128);
                assert_eq!(out.new & !ty.mask(), 0, "{op:?} {ty:?}");
                assert_eq!(out.ret & !ty.mask(), 0, "{op:?} {ty:?}");
                let out = apply(AluCtl { op, ty, ftz }, 0, 1, 0);
                assert_eq!(out.new & !ty.mask(), 0, "{op:?} {ty:?}");
            }
        }
    }
}

#[test]
fn float_ops_on_integer_types_read_those_bits_as_floats() {
    // documented: B16 reads as f16, B32 as f32, B64 as f64, B128 keeps old
    let f = |op, ty, old, s0| apply(AluCtl { op, ty, ftz: false }, old, s0, 0).new;
    assert_eq!(f(Fmax, B32, 0xc000_0000, 0x3f80_0000), 0x3f80_0000);
    assert_eq!(f(Fmin, B16, 0x3c00, 0xc000), 0xc000);
    assert_eq!(f(Fmax, B64, 0xbff0_0000_0000_0000, 0), 0);
    assert_eq!(f(Fmax, B128, 5, 7), 5);
}
