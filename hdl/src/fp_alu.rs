//! `FloatAlu`: the floating-point ops of the atomic ALU (four pipeline
//! stages, like its adder [`FpAdd`](crate::fp_add::FpAdd)), the
//! part of `AtomicAlu` (alu.rs) that computes `Fmax`, `Fmin`, `Fcmpwr`,
//! `FminPtx`, `FmaxPtx` at every type and `Add` at the float types, exactly
//! as `atomport::golden::atomic_ops::apply` defines them.
//!
//! Two lanes, each ONE shared adder and ONE shared comparator:
//!
//! | lane | adder | comparator | formats | element |
//! | --- | --- | --- | --- | --- |
//! | wide | [`FpAddWide`] (f64-sized) | `FpCmp<64>` | f16, bf16, f32, f64 | the low element: the whole value, or the low half of `f16x2`/`bf16x2` |
//! | half | [`FpAddHalf`] (f16/bf16-sized) | `FpCmp<16>` | f16, bf16 | the high half of `f16x2`/`bf16x2` |
//!
//! Which format each type reads as is [`FloatDecode`]'s table (B128 and
//! undefined codes: `float_op` = 0, and the ALU keeps `old`).
//!
//! The format mapping (decode, unpack, format constants) is the leaf block
//! [`FloatDecode`]; this block only wires the lanes and assembles the result
//! (Verilator `UNOPTFLAT` rule, unit.rs): min/max/cmpwr results are whole
//! operands (old, src0, src1) or the canonical NaN, so values move
//! bit-exactly; sums are packed back at the format's offsets. `new_value`
//! may carry bits above the type's width, which `AtomicAlu` masks off.
//!
//! Pipeline: decode is in stage 1, with the adders' stage 1; the
//! comparators' operands and controls are registered there (`c1_old`,
//! `c1_src0`, `c1_src1`, `c1_is_*`, the formats' sign bits, width masks and
//! infinities) and the comparators and the min/max/cmpwr choice work in
//! stage 2: in the unit, `old_value` comes through the bypass mux, and
//! stage 1 with the comparators behind it was the unit's critical path.
//! The choice and the decoded format flags ride along in
//! `c1_*`/`c2_*`/`c3_*` registers (loaded on `advance`) to stage 4, where
//! the sums are packed and the result is selected. `float_op` is stage 1's
//! (the op given this cycle), `new_value` stage 4's.
//!
//! Only the stages that hold a float op compute: the adders' stages 1-3
//! (`active`: an add at a float type, the half lane's only for two
//! halves), the comparators and the choice (`c1_compare`) and the pack
//! (`c3_is_fadd`) sit inside an `if` on a flag of their stage, with their
//! values 0 otherwise. Verilator keeps the `if`, so the model skips the
//! float datapath in the cycles without a float op (docs/synthesis.md,
//! "Simulation speed"); in hardware the zeros are the next stage
//! registers' synchronous reset (or, for the pack, the result mux the
//! value goes through anyway). The values are 64 bits wide (the widest float);
//! `AtomicAlu` widens the result.

use atomport_isa::{ALU_OP_BITS, ALU_TY_BITS};
use rust_hdl::prelude::*;

use crate::extend::ZeroExtend;
use crate::fp_add::{FpAddHalf, FpAddWide};
use crate::fp_cmp::FpCmp;
use crate::fp_decode::{FloatDecode, F16, F32, F64, HALF_BITS, HALF_EXP_BITS, HALF_SIG_BITS, WIDE_BITS, WIDE_EXP_BITS, WIDE_SIG_BITS};

/// The float ops of the atomic ALU. See the module documentation.
#[derive(LogicBlock)]
pub struct FloatAlu {
    pub clock: Signal<In, Clock>,
    /// The pipeline moves: every stage register loads.
    pub advance: Signal<In, Bit>,

    // ---- control ----
    /// The operation, an `AluOp` code.
    pub op: Signal<In, Bits<ALU_OP_BITS>>,
    /// The element type, an `ElemType` code.
    pub ty: Signal<In, Bits<ALU_TY_BITS>>,
    /// Flush subnormals to zero in an `F32` add.
    pub ftz: Signal<In, Bit>,

    // ---- operands: the low 64 bits (float types are at most 64 bits
    // wide; bits above the type's width are ignored) ----
    pub old_value: Signal<In, Bits<WIDE_BITS>>,
    pub src0: Signal<In, Bits<WIDE_BITS>>,
    pub src1: Signal<In, Bits<WIDE_BITS>>,

    // ---- result ----
    /// `op` at `ty` is a float operation this block computes (stage 1: the op on the inputs now).
    pub float_op: Signal<Out, Bit>,
    /// The value to write back, for the op given three `advance` edges ago
    /// (when it was a float op; bits above the type's width are not cleared).
    pub new_value: Signal<Out, Bits<WIDE_BITS>>,

    // ---- sub-blocks: decode, the shared datapaths, widening ----
    decode: FloatDecode,
    add_wide: FpAddWide,
    add_half: FpAddHalf,
    cmp_wide: FpCmp<WIDE_BITS>,
    cmp_half: FpCmp<HALF_BITS>,
    wide_sum_exp: ZeroExtend<WIDE_EXP_BITS, WIDE_BITS>,
    wide_sum_man: ZeroExtend<WIDE_SIG_BITS, WIDE_BITS>,
    half_sum_exp: ZeroExtend<HALF_EXP_BITS, WIDE_BITS>,
    half_sum_man: ZeroExtend<HALF_SIG_BITS, WIDE_BITS>,

    // ---- stage registers: the comparators' operands and controls (stage
    // 1 -> 2), the compare result (from stage 2) and the format flags, to stage 4 ----
    c1_old: DFF<Bits<WIDE_BITS>>,
    c1_src0: DFF<Bits<WIDE_BITS>>,
    c1_src1: DFF<Bits<WIDE_BITS>>,
    c1_is_max: DFF<Bit>,
    c1_is_min: DFF<Bit>,
    c1_is_ptx_min_max: DFF<Bit>,
    c1_is_fcmpwr: DFF<Bit>,
    c1_wide_sign_bit: DFF<Bits<WIDE_BITS>>,
    c1_wide_width_mask: DFF<Bits<WIDE_BITS>>,
    c1_wide_inf: DFF<Bits<WIDE_BITS>>,
    c1_half_sign_bit: DFF<Bits<HALF_BITS>>,
    c1_half_width_mask: DFF<Bits<HALF_BITS>>,
    c1_half_inf: DFF<Bits<HALF_BITS>>,
    c1_is_fadd: DFF<Bit>,
    c1_two_halves: DFF<Bit>,
    c1_wide_f32: DFF<Bit>,
    c1_wide_f16: DFF<Bit>,
    c1_wide_bf16: DFF<Bit>,
    c1_half_bf16: DFF<Bit>,
    /// stage 2 holds a float compare (min, max, cmpwr): the comparators
    /// and the choice compute only then, for `c2_compare`
    c1_compare: DFF<Bit>,
    /// ... of two halves (the half lane's comparator)
    c1_half_compare: DFF<Bit>,
    c2_compare: DFF<Bits<WIDE_BITS>>,
    c2_is_fadd: DFF<Bit>,
    c2_two_halves: DFF<Bit>,
    c2_wide_f32: DFF<Bit>,
    c2_wide_f16: DFF<Bit>,
    c2_wide_bf16: DFF<Bit>,
    c2_half_bf16: DFF<Bit>,
    c3_compare: DFF<Bits<WIDE_BITS>>,
    c3_is_fadd: DFF<Bit>,
    c3_two_halves: DFF<Bit>,
    c3_wide_f32: DFF<Bit>,
    c3_wide_f16: DFF<Bit>,
    c3_wide_bf16: DFF<Bit>,
    c3_half_bf16: DFF<Bit>,

    // ---- data constants ----
    /// canonical NaNs: f16 and bf16 share 0x7fff
    nan_16: Constant<Bits<WIDE_BITS>>,
    nan_32: Constant<Bits<WIDE_BITS>>,
    nan_64: Constant<Bits<WIDE_BITS>>,
    /// the canonical NaN of the high half (0x7fff << 16)
    nan_high_half: Constant<Bits<WIDE_BITS>>,
    sign_16: Constant<Bits<WIDE_BITS>>,
    sign_32: Constant<Bits<WIDE_BITS>>,
    sign_64: Constant<Bits<WIDE_BITS>>,
    /// bit 31: the high half's sign
    sign_high_half: Constant<Bits<WIDE_BITS>>,
    low_half: Constant<Bits<WIDE_BITS>>,
    high_half: Constant<Bits<WIDE_BITS>>,
    zero: Constant<Bits<WIDE_BITS>>,

    // ---- min / max / cmpwr ----
    wide_take_src0: Signal<Local, Bit>,
    half_take_src0: Signal<Local, Bit>,
    wide_nan: Signal<Local, Bits<WIDE_BITS>>,
    wide_choice: Signal<Local, Bits<WIDE_BITS>>,
    half_choice: Signal<Local, Bits<WIDE_BITS>>,
    compare_result: Signal<Local, Bits<WIDE_BITS>>,

    // ---- add: pack ----
    wide_sign: Signal<Local, Bits<WIDE_BITS>>,
    wide_sum: Signal<Local, Bits<WIDE_BITS>>,
    half_sign: Signal<Local, Bits<WIDE_BITS>>,
    half_sum: Signal<Local, Bits<WIDE_BITS>>,
    add_result: Signal<Local, Bits<WIDE_BITS>>,
}

fn data(value: u128) -> Constant<Bits<WIDE_BITS>> {
    Constant::new(value.to_bits())
}

impl Default for FloatAlu {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            advance: Default::default(),
            c1_old: Default::default(),
            c1_src0: Default::default(),
            c1_src1: Default::default(),
            c1_is_max: Default::default(),
            c1_is_min: Default::default(),
            c1_is_ptx_min_max: Default::default(),
            c1_is_fcmpwr: Default::default(),
            c1_wide_sign_bit: Default::default(),
            c1_wide_width_mask: Default::default(),
            c1_wide_inf: Default::default(),
            c1_half_sign_bit: Default::default(),
            c1_half_width_mask: Default::default(),
            c1_half_inf: Default::default(),
            c1_is_fadd: Default::default(),
            c1_two_halves: Default::default(),
            c1_wide_f32: Default::default(),
            c1_wide_f16: Default::default(),
            c1_wide_bf16: Default::default(),
            c1_half_bf16: Default::default(),
            c1_compare: Default::default(),
            c1_half_compare: Default::default(),
            c2_compare: Default::default(),
            c2_is_fadd: Default::default(),
            c2_two_halves: Default::default(),
            c2_wide_f32: Default::default(),
            c2_wide_f16: Default::default(),
            c2_wide_bf16: Default::default(),
            c2_half_bf16: Default::default(),
            c3_compare: Default::default(),
            c3_is_fadd: Default::default(),
            c3_two_halves: Default::default(),
            c3_wide_f32: Default::default(),
            c3_wide_f16: Default::default(),
            c3_wide_bf16: Default::default(),
            c3_half_bf16: Default::default(),
            op: Default::default(),
            ty: Default::default(),
            ftz: Default::default(),
            old_value: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            float_op: Default::default(),
            new_value: Default::default(),
            decode: Default::default(),
            add_wide: Default::default(),
            add_half: Default::default(),
            cmp_wide: Default::default(),
            cmp_half: Default::default(),
            wide_sum_exp: Default::default(),
            wide_sum_man: Default::default(),
            half_sum_exp: Default::default(),
            half_sum_man: Default::default(),
            nan_16: data(F16.canonical_nan() as u128),
            nan_32: data(F32.canonical_nan() as u128),
            nan_64: data(F64.canonical_nan() as u128),
            nan_high_half: data((F16.canonical_nan() as u128) << 16),
            sign_16: data(F16.sign_bit() as u128),
            sign_32: data(F32.sign_bit() as u128),
            sign_64: data(F64.sign_bit() as u128),
            sign_high_half: data((F16.sign_bit() as u128) << 16),
            low_half: data(0xffff),
            high_half: data(0xffff_0000),
            zero: data(0),
            wide_take_src0: Default::default(),
            half_take_src0: Default::default(),
            wide_nan: Default::default(),
            wide_choice: Default::default(),
            half_choice: Default::default(),
            compare_result: Default::default(),
            wide_sign: Default::default(),
            wide_sum: Default::default(),
            half_sign: Default::default(),
            half_sum: Default::default(),
            add_result: Default::default(),
        }
    }
}

impl Logic for FloatAlu {
    // rust-hdl emits operators without their Rust grouping: every mixed
    // expression is parenthesized on purpose (DEVELOPERS.md, Stack).
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            c1_old,
            c1_src0,
            c1_src1,
            c1_is_max,
            c1_is_min,
            c1_is_ptx_min_max,
            c1_is_fcmpwr,
            c1_wide_sign_bit,
            c1_wide_width_mask,
            c1_wide_inf,
            c1_half_sign_bit,
            c1_half_width_mask,
            c1_half_inf,
            c1_is_fadd,
            c1_two_halves,
            c1_wide_f32,
            c1_wide_f16,
            c1_wide_bf16,
            c1_half_bf16,
            c1_compare,
            c1_half_compare,
            c2_compare,
            c2_is_fadd,
            c2_two_halves,
            c2_wide_f32,
            c2_wide_f16,
            c2_wide_bf16,
            c2_half_bf16,
            c3_compare,
            c3_is_fadd,
            c3_two_halves,
            c3_wide_f32,
            c3_wide_f16,
            c3_wide_bf16,
            c3_half_bf16
        );
        // ================= sub-block inputs: wiring only =================
        self.add_wide.clock.next = self.clock.val();
        self.add_wide.advance.next = self.advance.val();
        self.add_half.clock.next = self.clock.val();
        self.add_half.advance.next = self.advance.val();
        self.add_wide.active.next = self.decode.is_fadd.val();
        self.add_half.active.next = self.decode.half_fadd.val();
        self.cmp_wide.active.next = self.c1_compare.q.val();
        self.cmp_half.active.next = self.c1_half_compare.q.val();
        self.decode.op.next = self.op.val();
        self.decode.ty.next = self.ty.val();
        self.decode.ftz.next = self.ftz.val();
        self.decode.old_low.next = self.old_value.val();
        self.decode.src0_low.next = self.src0.val();
        // wide lane (new = old + src0; the comparator's a = old, b = src0)
        self.add_wide.exp_max.next = self.decode.wide_exp_max.val();
        self.add_wide.lsb.next = self.decode.wide_lsb.val();
        self.add_wide.man_field.next = self.decode.wide_man_field.val();
        self.add_wide.ftz.next = self.decode.wide_ftz.val();
        self.add_wide.a_sign.next = self.decode.wide_a_sign.val();
        self.add_wide.a_exp.next = self.decode.wide_a_exp.val();
        self.add_wide.a_man.next = self.decode.wide_a_man.val();
        self.add_wide.b_sign.next = self.decode.wide_b_sign.val();
        self.add_wide.b_exp.next = self.decode.wide_b_exp.val();
        self.add_wide.b_man.next = self.decode.wide_b_man.val();
        // half lane: bits 31..16; subnormals are never flushed there
        self.add_half.exp_max.next = self.decode.half_exp_max.val();
        self.add_half.lsb.next = self.decode.half_lsb.val();
        self.add_half.man_field.next = self.decode.half_man_field.val();
        self.add_half.ftz.next = false;
        self.add_half.a_sign.next = self.decode.half_a_sign.val();
        self.add_half.a_exp.next = self.decode.half_a_exp.val();
        self.add_half.a_man.next = self.decode.half_a_man.val();
        self.add_half.b_sign.next = self.decode.half_b_sign.val();
        self.add_half.b_exp.next = self.decode.half_b_exp.val();
        self.add_half.b_man.next = self.decode.half_b_man.val();
        // the comparators: stage 2, on the operands and controls registered
        // in stage 1 (off the path from `old_value`, which the unit's
        // bypass mux drives)
        self.cmp_wide.sign_bit.next = self.c1_wide_sign_bit.q.val();
        self.cmp_wide.width_mask.next = self.c1_wide_width_mask.q.val();
        self.cmp_wide.inf.next = self.c1_wide_inf.q.val();
        self.cmp_wide.a.next = self.c1_old.q.val();
        self.cmp_wide.b.next = self.c1_src0.q.val();
        self.cmp_half.sign_bit.next = self.c1_half_sign_bit.q.val();
        self.cmp_half.width_mask.next = self.c1_half_width_mask.q.val();
        self.cmp_half.inf.next = self.c1_half_inf.q.val();
        self.cmp_half.a.next = self.c1_old.q.val().get_bits::<16>(16);
        self.cmp_half.b.next = self.c1_src0.q.val().get_bits::<16>(16);
        // the sums' fields, widened for packing
        self.wide_sum_exp.narrow.next = self.add_wide.sum_exp.val();
        self.wide_sum_man.narrow.next = self.add_wide.sum_man.val();
        self.half_sum_exp.narrow.next = self.add_half.sum_exp.val();
        self.half_sum_man.narrow.next = self.add_half.sum_man.val();

        // ================= min / max / cmpwr (stage 2) =================
        // golden `min_max_number` with a = old, b = src0: a NaN operand is
        // missing; max takes src0 when old < src0, min when !(old < src0)
        // (equal keys are equal bits); both NaN keeps old (vISA) or gives
        // the canonical NaN (PTX). FCMPWR: src1 when src0 == old (IEEE).
        self.wide_take_src0.next = false;
        self.half_take_src0.next = false;
        self.wide_nan.next = self.zero.val();
        self.wide_choice.next = self.zero.val();
        self.half_choice.next = self.zero.val();
        self.compare_result.next = self.zero.val();
        if self.c1_compare.q.val() {
            self.wide_take_src0.next = ((self.c1_is_max.q.val() | self.c1_is_min.q.val()) & !self.cmp_wide.b_nan.val())
                & (self.cmp_wide.a_nan.val()
                    | ((self.c1_is_max.q.val() & self.cmp_wide.less.val())
                        | (self.c1_is_min.q.val() & !self.cmp_wide.less.val())));
            self.half_take_src0.next = ((self.c1_is_max.q.val() | self.c1_is_min.q.val()) & !self.cmp_half.b_nan.val())
                & (self.cmp_half.a_nan.val()
                    | ((self.c1_is_max.q.val() & self.cmp_half.less.val())
                        | (self.c1_is_min.q.val() & !self.cmp_half.less.val())));
            self.wide_nan.next = self.nan_64.val();
            if self.c1_wide_f32.q.val() {
                self.wide_nan.next = self.nan_32.val();
            }
            if self.c1_wide_f16.q.val() | self.c1_wide_bf16.q.val() {
                self.wide_nan.next = self.nan_16.val();
            }
            self.wide_choice.next = self.c1_old.q.val();
            if self.wide_take_src0.val() {
                self.wide_choice.next = self.c1_src0.q.val();
            }
            if (self.c1_is_ptx_min_max.q.val() & self.cmp_wide.a_nan.val()) & self.cmp_wide.b_nan.val() {
                self.wide_choice.next = self.wide_nan.val();
            }
            if self.c1_is_fcmpwr.q.val() & self.cmp_wide.equal.val() {
                self.wide_choice.next = self.c1_src1.q.val();
            }
            self.half_choice.next = self.c1_old.q.val();
            if self.half_take_src0.val() {
                self.half_choice.next = self.c1_src0.q.val();
            }
            if (self.c1_is_ptx_min_max.q.val() & self.cmp_half.a_nan.val()) & self.cmp_half.b_nan.val() {
                self.half_choice.next = self.nan_high_half.val();
            }
            if self.c1_is_fcmpwr.q.val() & self.cmp_half.equal.val() {
                self.half_choice.next = self.c1_src1.q.val();
            }
            self.compare_result.next = self.wide_choice.val();
            if self.c1_two_halves.q.val() {
                self.compare_result.next =
                    (self.wide_choice.val() & self.low_half.val()) | (self.half_choice.val() & self.high_half.val());
            }
        }

        // ================= stage registers =================
        if self.advance.val() {
            self.c1_old.d.next = self.old_value.val();
            self.c1_src0.d.next = self.src0.val();
            self.c1_src1.d.next = self.src1.val();
            self.c1_is_max.d.next = self.decode.is_max.val();
            self.c1_is_min.d.next = self.decode.is_min.val();
            self.c1_is_ptx_min_max.d.next = self.decode.is_ptx_min_max.val();
            self.c1_is_fcmpwr.d.next = self.decode.is_fcmpwr.val();
            self.c1_wide_sign_bit.d.next = self.decode.wide_sign_bit.val();
            self.c1_wide_width_mask.d.next = self.decode.wide_width_mask.val();
            self.c1_wide_inf.d.next = self.decode.wide_inf.val();
            self.c1_half_sign_bit.d.next = self.decode.half_sign_bit.val();
            self.c1_half_width_mask.d.next = self.decode.half_width_mask.val();
            self.c1_half_inf.d.next = self.decode.half_inf.val();
            self.c1_is_fadd.d.next = self.decode.is_fadd.val();
            self.c1_two_halves.d.next = self.decode.two_halves.val();
            self.c1_wide_f32.d.next = self.decode.wide_f32.val();
            self.c1_wide_f16.d.next = self.decode.wide_f16.val();
            self.c1_wide_bf16.d.next = self.decode.wide_bf16.val();
            self.c1_half_bf16.d.next = self.decode.half_bf16.val();
            self.c1_compare.d.next = self.decode.is_compare.val();
            self.c1_half_compare.d.next = self.decode.half_compare.val();
            self.c2_compare.d.next = self.compare_result.val();
            self.c2_is_fadd.d.next = self.c1_is_fadd.q.val();
            self.c2_two_halves.d.next = self.c1_two_halves.q.val();
            self.c2_wide_f32.d.next = self.c1_wide_f32.q.val();
            self.c2_wide_f16.d.next = self.c1_wide_f16.q.val();
            self.c2_wide_bf16.d.next = self.c1_wide_bf16.q.val();
            self.c2_half_bf16.d.next = self.c1_half_bf16.q.val();
            self.c3_compare.d.next = self.c2_compare.q.val();
            self.c3_is_fadd.d.next = self.c2_is_fadd.q.val();
            self.c3_two_halves.d.next = self.c2_two_halves.q.val();
            self.c3_wide_f32.d.next = self.c2_wide_f32.q.val();
            self.c3_wide_f16.d.next = self.c2_wide_f16.q.val();
            self.c3_wide_bf16.d.next = self.c2_wide_bf16.q.val();
            self.c3_half_bf16.d.next = self.c2_half_bf16.q.val();
        }

        // ================= stage 4: pack the sums (for an add only) =================
        self.wide_sign.next = self.zero.val();
        self.wide_sum.next = self.zero.val();
        self.half_sign.next = self.zero.val();
        self.half_sum.next = self.zero.val();
        self.add_result.next = self.zero.val();
        self.new_value.next = self.c3_compare.q.val();
        if self.c3_is_fadd.q.val() {
            // (mantissa >> its LSB position) | (exponent << mantissa width) | sign
            if self.add_wide.sum_sign.val() {
                self.wide_sign.next = self.sign_64.val();
                if self.c3_wide_f32.q.val() {
                    self.wide_sign.next = self.sign_32.val();
                }
                if self.c3_wide_f16.q.val() | self.c3_wide_bf16.q.val() {
                    self.wide_sign.next = self.sign_16.val();
                }
            }
            self.wide_sum.next = (self.wide_sum_man.wide.val() >> 3) | (self.wide_sum_exp.wide.val() << 52);
            if self.c3_wide_f32.q.val() {
                self.wide_sum.next = (self.wide_sum_man.wide.val() >> 32) | (self.wide_sum_exp.wide.val() << 23);
            }
            if self.c3_wide_f16.q.val() {
                self.wide_sum.next = (self.wide_sum_man.wide.val() >> 45) | (self.wide_sum_exp.wide.val() << 10);
            }
            if self.c3_wide_bf16.q.val() {
                self.wide_sum.next = (self.wide_sum_man.wide.val() >> 48) | (self.wide_sum_exp.wide.val() << 7);
            }
            // the half lane lands in bits 31..16: ((man >> lsb) << 16)
            if self.add_half.sum_sign.val() {
                self.half_sign.next = self.sign_high_half.val();
            }
            self.half_sum.next = (self.half_sum_man.wide.val() << 13) | (self.half_sum_exp.wide.val() << 26);
            if self.c3_half_bf16.q.val() {
                self.half_sum.next = (self.half_sum_man.wide.val() << 10) | (self.half_sum_exp.wide.val() << 23);
            }
            self.add_result.next = self.wide_sum.val() | self.wide_sign.val();
            if self.c3_two_halves.q.val() {
                self.add_result.next = ((self.wide_sum.val() | self.wide_sign.val()) & self.low_half.val())
                    | (self.half_sum.val() | self.half_sign.val());
            }
            self.new_value.next = self.add_result.val();
        }

        // ================= result =================
        self.float_op.next = self.decode.float_op.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_alu_synthesizes() {
        let mut uut = FloatAlu::default();
        uut.connect_all();
        yosys_validate("atomport_float_alu", &generate_verilog(&uut)).unwrap();
    }
}
