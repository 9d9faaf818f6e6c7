//! `FloatDecode`: the front of the float ops (`FloatAlu`, fp_alu.rs),
//! combinational: decodes `op`/`ty` into the float controls, and maps the
//! operands and the format constants into the two lanes' adder and
//! comparator (a leaf block, so `FloatAlu` only wires: see unit.rs on
//! Verilator's `UNOPTFLAT`).
//!
//! Which format each lane reads (the golden model's `float_format`):
//!
//! | `ty` | wide lane | half lane |
//! | --- | --- | --- |
//! | F16, B16 | f16 | — |
//! | BF16 | bf16 | — |
//! | F32, B32 | f32 | — |
//! | F64, B64 | f64 | — |
//! | F16x2 | f16 (bits 15..0) | f16 (bits 31..16) |
//! | BF16x2 | bf16 (bits 15..0) | bf16 (bits 31..16) |
//! | B128, undefined codes | none: `float_op` = 0 | — |
//!
//! Unpacking is wiring at literal offsets, one row per format: the exponent
//! field is sliced wide and masked with the all-ones exponent, the mantissa
//! is shifted up to its datapath position (the adder drops whatever lands
//! outside the format's mantissa field). Bits above the type's width are
//! therefore never read as part of a value. `ftz` reaches the adder only
//! for `F32` (PTX `atom.add.f32`, scripts.md "left open").

use atomport_isa::{AluOp, ElemType, ALU_OP_BITS, ALU_TY_BITS};
use rust_hdl::prelude::*;

use crate::fp_add::lsb_position;

/// Significand width of the wide adder (`FpAddWide`).
pub const WIDE_SIG_BITS: usize = 57;
/// Exponent width of the wide adder.
pub const WIDE_EXP_BITS: usize = 12;
/// Significand width of the half adder (`FpAddHalf`).
pub const HALF_SIG_BITS: usize = 15;
/// Exponent width of the half adder.
pub const HALF_EXP_BITS: usize = 9;
/// Width of the wide comparator and of the wide lane's operand (f64).
pub const WIDE_BITS: usize = 64;
/// Width of the half comparator and of the half lane's operand.
pub const HALF_BITS: usize = 16;

/// The float formats by their field widths: the one table's (`atomport_isa::FloatFormat`).
pub use atomport_isa::FloatFormat;

pub const F16: FloatFormat = FloatFormat::F16;
pub const BF16: FloatFormat = FloatFormat::BF16;
pub const F32: FloatFormat = FloatFormat::F32;
pub const F64: FloatFormat = FloatFormat::F64;

/// One format's constants for a lane's adder (`EXP`/`SIG`) and comparator (`CMP`).
struct LaneFormat<const EXP: usize, const SIG: usize, const CMP: usize> {
    exp_max: Constant<Bits<EXP>>,
    lsb: Constant<Bits<SIG>>,
    /// the mantissa field: bits `lsb .. SIG-3`
    man_field: Constant<Bits<SIG>>,
    sign_bit: Constant<Bits<CMP>>,
    width_mask: Constant<Bits<CMP>>,
    inf: Constant<Bits<CMP>>,
}

impl<const EXP: usize, const SIG: usize, const CMP: usize> LaneFormat<EXP, SIG, CMP> {
    fn new(f: FloatFormat) -> Self {
        LaneFormat {
            exp_max: Constant::new(f.exp_max().to_bits()),
            lsb: Constant::new((1u128 << lsb_position(SIG, f.man_bits as usize)).to_bits()),
            man_field: Constant::new(
                (((1u128 << (SIG - 2)) - 1) & !((1u128 << lsb_position(SIG, f.man_bits as usize)) - 1)).to_bits(),
            ),
            sign_bit: Constant::new((f.sign_bit() as u128).to_bits()),
            width_mask: Constant::new((f.mask() as u128).to_bits()),
            inf: Constant::new((f.inf() as u128).to_bits()),
        }
    }
}

type WideFormat = LaneFormat<WIDE_EXP_BITS, WIDE_SIG_BITS, WIDE_BITS>;
type HalfFormat = LaneFormat<HALF_EXP_BITS, HALF_SIG_BITS, HALF_BITS>;

/// Float op decode and operand unpacking. See the module documentation.
#[derive(LogicBlock)]
pub struct FloatDecode {
    // ---- inputs ----
    /// The operation, an [`AluOp`] code.
    pub op: Signal<In, Bits<ALU_OP_BITS>>,
    /// The element type, an [`ElemType`] code.
    pub ty: Signal<In, Bits<ALU_TY_BITS>>,
    /// Flush subnormals to zero (read for an `F32` add only).
    pub ftz: Signal<In, Bit>,
    /// The low 64 bits of the old value (the add's `a`).
    pub old_low: Signal<In, Bits<WIDE_BITS>>,
    /// The low 64 bits of src0 (the add's `b`).
    pub src0_low: Signal<In, Bits<WIDE_BITS>>,

    // ---- controls ----
    /// `op` at `ty` is a float operation (`FloatAlu` computes it).
    pub float_op: Signal<Out, Bit>,
    /// Add at a float type.
    pub is_fadd: Signal<Out, Bit>,
    /// Add at `f16x2`/`bf16x2`: the half lane's adder is used.
    pub half_fadd: Signal<Out, Bit>,
    /// A float operation other than add (min, max, cmpwr): the comparators are used.
    pub is_compare: Signal<Out, Bit>,
    /// The same at `f16x2`/`bf16x2`: the half lane's comparator is used.
    pub half_compare: Signal<Out, Bit>,
    /// Fmax or FmaxPtx.
    pub is_max: Signal<Out, Bit>,
    /// Fmin or FminPtx.
    pub is_min: Signal<Out, Bit>,
    /// FminPtx or FmaxPtx: both NaN gives the canonical NaN.
    pub is_ptx_min_max: Signal<Out, Bit>,
    pub is_fcmpwr: Signal<Out, Bit>,
    /// The wide lane's format, one-hot (none for B128 and undefined codes).
    pub wide_f16: Signal<Out, Bit>,
    pub wide_bf16: Signal<Out, Bit>,
    pub wide_f32: Signal<Out, Bit>,
    /// (f64 is the default of every per-format row)
    wide_f64: Signal<Local, Bit>,
    /// Two 16-bit halves: F16x2, BF16x2.
    pub two_halves: Signal<Out, Bit>,
    /// The half lane reads bf16 (else f16).
    pub half_bf16: Signal<Out, Bit>,

    // ---- wide lane: adder ----
    pub wide_exp_max: Signal<Out, Bits<WIDE_EXP_BITS>>,
    pub wide_lsb: Signal<Out, Bits<WIDE_SIG_BITS>>,
    pub wide_man_field: Signal<Out, Bits<WIDE_SIG_BITS>>,
    pub wide_ftz: Signal<Out, Bit>,
    pub wide_a_sign: Signal<Out, Bit>,
    pub wide_a_exp: Signal<Out, Bits<WIDE_EXP_BITS>>,
    pub wide_a_man: Signal<Out, Bits<WIDE_SIG_BITS>>,
    pub wide_b_sign: Signal<Out, Bit>,
    pub wide_b_exp: Signal<Out, Bits<WIDE_EXP_BITS>>,
    pub wide_b_man: Signal<Out, Bits<WIDE_SIG_BITS>>,
    // ---- wide lane: comparator ----
    pub wide_sign_bit: Signal<Out, Bits<WIDE_BITS>>,
    pub wide_width_mask: Signal<Out, Bits<WIDE_BITS>>,
    pub wide_inf: Signal<Out, Bits<WIDE_BITS>>,

    // ---- half lane: adder ----
    pub half_exp_max: Signal<Out, Bits<HALF_EXP_BITS>>,
    pub half_lsb: Signal<Out, Bits<HALF_SIG_BITS>>,
    pub half_man_field: Signal<Out, Bits<HALF_SIG_BITS>>,
    pub half_a_sign: Signal<Out, Bit>,
    pub half_a_exp: Signal<Out, Bits<HALF_EXP_BITS>>,
    pub half_a_man: Signal<Out, Bits<HALF_SIG_BITS>>,
    pub half_b_sign: Signal<Out, Bit>,
    pub half_b_exp: Signal<Out, Bits<HALF_EXP_BITS>>,
    pub half_b_man: Signal<Out, Bits<HALF_SIG_BITS>>,
    // ---- half lane: comparator ----
    pub half_sign_bit: Signal<Out, Bits<HALF_BITS>>,
    pub half_width_mask: Signal<Out, Bits<HALF_BITS>>,
    pub half_inf: Signal<Out, Bits<HALF_BITS>>,

    // ---- op and type codes (from atomport-isa) ----
    op_add: Constant<Bits<ALU_OP_BITS>>,
    op_fmax: Constant<Bits<ALU_OP_BITS>>,
    op_fmin: Constant<Bits<ALU_OP_BITS>>,
    op_fcmpwr: Constant<Bits<ALU_OP_BITS>>,
    op_fmin_ptx: Constant<Bits<ALU_OP_BITS>>,
    op_fmax_ptx: Constant<Bits<ALU_OP_BITS>>,
    ty_b16: Constant<Bits<ALU_TY_BITS>>,
    ty_b32: Constant<Bits<ALU_TY_BITS>>,
    ty_b64: Constant<Bits<ALU_TY_BITS>>,
    ty_f16: Constant<Bits<ALU_TY_BITS>>,
    ty_bf16: Constant<Bits<ALU_TY_BITS>>,
    ty_f32: Constant<Bits<ALU_TY_BITS>>,
    ty_f64: Constant<Bits<ALU_TY_BITS>>,
    ty_f16x2: Constant<Bits<ALU_TY_BITS>>,
    ty_bf16x2: Constant<Bits<ALU_TY_BITS>>,

    // ---- format constants: wide lane ----
    wide_f16_exp_max: Constant<Bits<WIDE_EXP_BITS>>,
    wide_f16_lsb: Constant<Bits<WIDE_SIG_BITS>>,
    wide_f16_man_field: Constant<Bits<WIDE_SIG_BITS>>,
    wide_f16_sign: Constant<Bits<WIDE_BITS>>,
    wide_f16_mask: Constant<Bits<WIDE_BITS>>,
    wide_f16_inf: Constant<Bits<WIDE_BITS>>,
    wide_bf16_exp_max: Constant<Bits<WIDE_EXP_BITS>>,
    wide_bf16_lsb: Constant<Bits<WIDE_SIG_BITS>>,
    wide_bf16_man_field: Constant<Bits<WIDE_SIG_BITS>>,
    wide_bf16_sign: Constant<Bits<WIDE_BITS>>,
    wide_bf16_mask: Constant<Bits<WIDE_BITS>>,
    wide_bf16_inf: Constant<Bits<WIDE_BITS>>,
    wide_f32_exp_max: Constant<Bits<WIDE_EXP_BITS>>,
    wide_f32_lsb: Constant<Bits<WIDE_SIG_BITS>>,
    wide_f32_man_field: Constant<Bits<WIDE_SIG_BITS>>,
    wide_f32_sign: Constant<Bits<WIDE_BITS>>,
    wide_f32_mask: Constant<Bits<WIDE_BITS>>,
    wide_f32_inf: Constant<Bits<WIDE_BITS>>,
    wide_f64_exp_max: Constant<Bits<WIDE_EXP_BITS>>,
    wide_f64_lsb: Constant<Bits<WIDE_SIG_BITS>>,
    wide_f64_man_field: Constant<Bits<WIDE_SIG_BITS>>,
    wide_f64_sign: Constant<Bits<WIDE_BITS>>,
    wide_f64_mask: Constant<Bits<WIDE_BITS>>,
    wide_f64_inf: Constant<Bits<WIDE_BITS>>,

    // ---- format constants: half lane ----
    half_f16_exp_max: Constant<Bits<HALF_EXP_BITS>>,
    half_f16_lsb: Constant<Bits<HALF_SIG_BITS>>,
    half_f16_man_field: Constant<Bits<HALF_SIG_BITS>>,
    half_f16_sign: Constant<Bits<HALF_BITS>>,
    half_f16_mask: Constant<Bits<HALF_BITS>>,
    half_f16_inf: Constant<Bits<HALF_BITS>>,
    half_bf16_exp_max: Constant<Bits<HALF_EXP_BITS>>,
    half_bf16_lsb: Constant<Bits<HALF_SIG_BITS>>,
    half_bf16_man_field: Constant<Bits<HALF_SIG_BITS>>,
    half_bf16_sign: Constant<Bits<HALF_BITS>>,
    half_bf16_mask: Constant<Bits<HALF_BITS>>,
    half_bf16_inf: Constant<Bits<HALF_BITS>>,
}

fn op_code(op: AluOp) -> Constant<Bits<ALU_OP_BITS>> {
    Constant::new(op.code().to_bits())
}

fn ty_code(ty: ElemType) -> Constant<Bits<ALU_TY_BITS>> {
    Constant::new(ty.code().to_bits())
}

impl Default for FloatDecode {
    fn default() -> Self {
        // the literal offsets and shifts in `update` are these formats' fields
        assert_eq!([10, 7, 23, 52].map(|m| lsb_position(WIDE_SIG_BITS, m)), [45, 48, 32, 3]);
        assert_eq!([10, 7].map(|m| lsb_position(HALF_SIG_BITS, m)), [3, 6]);
        let (w16, wb16, w32, w64) = (WideFormat::new(F16), WideFormat::new(BF16), WideFormat::new(F32), WideFormat::new(F64));
        let (h16, hb16) = (HalfFormat::new(F16), HalfFormat::new(BF16));
        Self {
            op: Default::default(),
            ty: Default::default(),
            ftz: Default::default(),
            old_low: Default::default(),
            src0_low: Default::default(),
            float_op: Default::default(),
            is_fadd: Default::default(),
            half_fadd: Default::default(),
            is_compare: Default::default(),
            half_compare: Default::default(),
            is_max: Default::default(),
            is_min: Default::default(),
            is_ptx_min_max: Default::default(),
            is_fcmpwr: Default::default(),
            wide_f16: Default::default(),
            wide_bf16: Default::default(),
            wide_f32: Default::default(),
            wide_f64: Default::default(),
            two_halves: Default::default(),
            half_bf16: Default::default(),
            wide_exp_max: Default::default(),
            wide_lsb: Default::default(),
            wide_man_field: Default::default(),
            wide_ftz: Default::default(),
            wide_a_sign: Default::default(),
            wide_a_exp: Default::default(),
            wide_a_man: Default::default(),
            wide_b_sign: Default::default(),
            wide_b_exp: Default::default(),
            wide_b_man: Default::default(),
            wide_sign_bit: Default::default(),
            wide_width_mask: Default::default(),
            wide_inf: Default::default(),
            half_exp_max: Default::default(),
            half_lsb: Default::default(),
            half_man_field: Default::default(),
            half_a_sign: Default::default(),
            half_a_exp: Default::default(),
            half_a_man: Default::default(),
            half_b_sign: Default::default(),
            half_b_exp: Default::default(),
            half_b_man: Default::default(),
            half_sign_bit: Default::default(),
            half_width_mask: Default::default(),
            half_inf: Default::default(),
            op_add: op_code(AluOp::Add),
            op_fmax: op_code(AluOp::Fmax),
            op_fmin: op_code(AluOp::Fmin),
            op_fcmpwr: op_code(AluOp::Fcmpwr),
            op_fmin_ptx: op_code(AluOp::FminPtx),
            op_fmax_ptx: op_code(AluOp::FmaxPtx),
            ty_b16: ty_code(ElemType::B16),
            ty_b32: ty_code(ElemType::B32),
            ty_b64: ty_code(ElemType::B64),
            ty_f16: ty_code(ElemType::F16),
            ty_bf16: ty_code(ElemType::BF16),
            ty_f32: ty_code(ElemType::F32),
            ty_f64: ty_code(ElemType::F64),
            ty_f16x2: ty_code(ElemType::F16x2),
            ty_bf16x2: ty_code(ElemType::BF16x2),
            wide_f16_exp_max: w16.exp_max,
            wide_f16_lsb: w16.lsb,
            wide_f16_man_field: w16.man_field,
            wide_f16_sign: w16.sign_bit,
            wide_f16_mask: w16.width_mask,
            wide_f16_inf: w16.inf,
            wide_bf16_exp_max: wb16.exp_max,
            wide_bf16_lsb: wb16.lsb,
            wide_bf16_man_field: wb16.man_field,
            wide_bf16_sign: wb16.sign_bit,
            wide_bf16_mask: wb16.width_mask,
            wide_bf16_inf: wb16.inf,
            wide_f32_exp_max: w32.exp_max,
            wide_f32_lsb: w32.lsb,
            wide_f32_man_field: w32.man_field,
            wide_f32_sign: w32.sign_bit,
            wide_f32_mask: w32.width_mask,
            wide_f32_inf: w32.inf,
            wide_f64_exp_max: w64.exp_max,
            wide_f64_lsb: w64.lsb,
            wide_f64_man_field: w64.man_field,
            wide_f64_sign: w64.sign_bit,
            wide_f64_mask: w64.width_mask,
            wide_f64_inf: w64.inf,
            half_f16_exp_max: h16.exp_max,
            half_f16_lsb: h16.lsb,
            half_f16_man_field: h16.man_field,
            half_f16_sign: h16.sign_bit,
            half_f16_mask: h16.width_mask,
            half_f16_inf: h16.inf,
            half_bf16_exp_max: hb16.exp_max,
            half_bf16_lsb: hb16.lsb,
            half_bf16_man_field: hb16.man_field,
            half_bf16_sign: hb16.sign_bit,
            half_bf16_mask: hb16.width_mask,
            half_bf16_inf: hb16.inf,
        }
    }
}

impl Logic for FloatDecode {
    // rust-hdl emits operators without their Rust grouping: every mixed
    // expression is parenthesized on purpose (DEVELOPERS.md, Stack).
    #[hdl_gen]
    fn update(&mut self) {
        // 1. formats (golden `float_format`), then ops
        self.wide_f16.next = ((self.ty.val() == self.ty_f16.val()) | (self.ty.val() == self.ty_b16.val()))
            | (self.ty.val() == self.ty_f16x2.val());
        self.wide_bf16.next = (self.ty.val() == self.ty_bf16.val()) | (self.ty.val() == self.ty_bf16x2.val());
        self.wide_f32.next = (self.ty.val() == self.ty_f32.val()) | (self.ty.val() == self.ty_b32.val());
        self.wide_f64.next = (self.ty.val() == self.ty_f64.val()) | (self.ty.val() == self.ty_b64.val());
        self.two_halves.next = (self.ty.val() == self.ty_f16x2.val()) | (self.ty.val() == self.ty_bf16x2.val());
        self.half_bf16.next = self.ty.val() == self.ty_bf16x2.val();
        // Add is the float add at the float types only (B16..B64 add integers)
        self.is_fadd.next = (self.op.val() == self.op_add.val())
            & (((self.ty.val() == self.ty_f16.val()) | (self.ty.val() == self.ty_bf16.val()))
                | ((self.ty.val() == self.ty_f32.val()) | (self.ty.val() == self.ty_f64.val()))
                | ((self.ty.val() == self.ty_f16x2.val()) | (self.ty.val() == self.ty_bf16x2.val())));
        self.half_fadd.next = self.is_fadd.val() & self.two_halves.val();
        self.is_max.next = (self.op.val() == self.op_fmax.val()) | (self.op.val() == self.op_fmax_ptx.val());
        self.is_min.next = (self.op.val() == self.op_fmin.val()) | (self.op.val() == self.op_fmin_ptx.val());
        self.is_ptx_min_max.next =
            (self.op.val() == self.op_fmin_ptx.val()) | (self.op.val() == self.op_fmax_ptx.val());
        self.is_fcmpwr.next = self.op.val() == self.op_fcmpwr.val();
        self.float_op.next = self.is_fadd.val()
            | ((((self.op.val() == self.op_fmax.val()) | (self.op.val() == self.op_fmin.val()))
                | ((self.op.val() == self.op_fmin_ptx.val()) | (self.op.val() == self.op_fmax_ptx.val()))
                | (self.op.val() == self.op_fcmpwr.val()))
                & ((self.wide_f16.val() | self.wide_bf16.val()) | (self.wide_f32.val() | self.wide_f64.val())));
        self.is_compare.next = self.float_op.val() & !self.is_fadd.val();
        self.half_compare.next = self.is_compare.val() & self.two_halves.val();

        // 2. wide lane, one row per format (f64 is the default):
        //    sign bit, exponent field (sliced 12 wide, masked), mantissa
        //    shifted up to its datapath position
        self.wide_exp_max.next = self.wide_f64_exp_max.val();
        self.wide_lsb.next = self.wide_f64_lsb.val();
        self.wide_man_field.next = self.wide_f64_man_field.val();
        self.wide_sign_bit.next = self.wide_f64_sign.val();
        self.wide_width_mask.next = self.wide_f64_mask.val();
        self.wide_inf.next = self.wide_f64_inf.val();
        self.wide_a_sign.next = self.old_low.val().get_bit(63);
        self.wide_a_exp.next = self.old_low.val().get_bits::<12>(52) & self.wide_f64_exp_max.val();
        self.wide_a_man.next = self.old_low.val().get_bits::<57>(0) << 3;
        self.wide_b_sign.next = self.src0_low.val().get_bit(63);
        self.wide_b_exp.next = self.src0_low.val().get_bits::<12>(52) & self.wide_f64_exp_max.val();
        self.wide_b_man.next = self.src0_low.val().get_bits::<57>(0) << 3;
        if self.wide_f32.val() {
            self.wide_exp_max.next = self.wide_f32_exp_max.val();
            self.wide_lsb.next = self.wide_f32_lsb.val();
            self.wide_man_field.next = self.wide_f32_man_field.val();
            self.wide_sign_bit.next = self.wide_f32_sign.val();
            self.wide_width_mask.next = self.wide_f32_mask.val();
            self.wide_inf.next = self.wide_f32_inf.val();
            self.wide_a_sign.next = self.old_low.val().get_bit(31);
            self.wide_a_exp.next = self.old_low.val().get_bits::<12>(23) & self.wide_f32_exp_max.val();
            self.wide_a_man.next = self.old_low.val().get_bits::<57>(0) << 32;
            self.wide_b_sign.next = self.src0_low.val().get_bit(31);
            self.wide_b_exp.next = self.src0_low.val().get_bits::<12>(23) & self.wide_f32_exp_max.val();
            self.wide_b_man.next = self.src0_low.val().get_bits::<57>(0) << 32;
        }
        if self.wide_f16.val() {
            self.wide_exp_max.next = self.wide_f16_exp_max.val();
            self.wide_lsb.next = self.wide_f16_lsb.val();
            self.wide_man_field.next = self.wide_f16_man_field.val();
            self.wide_sign_bit.next = self.wide_f16_sign.val();
            self.wide_width_mask.next = self.wide_f16_mask.val();
            self.wide_inf.next = self.wide_f16_inf.val();
            self.wide_a_sign.next = self.old_low.val().get_bit(15);
            self.wide_a_exp.next = self.old_low.val().get_bits::<12>(10) & self.wide_f16_exp_max.val();
            self.wide_a_man.next = self.old_low.val().get_bits::<57>(0) << 45;
            self.wide_b_sign.next = self.src0_low.val().get_bit(15);
            self.wide_b_exp.next = self.src0_low.val().get_bits::<12>(10) & self.wide_f16_exp_max.val();
            self.wide_b_man.next = self.src0_low.val().get_bits::<57>(0) << 45;
        }
        if self.wide_bf16.val() {
            self.wide_exp_max.next = self.wide_bf16_exp_max.val();
            self.wide_lsb.next = self.wide_bf16_lsb.val();
            self.wide_man_field.next = self.wide_bf16_man_field.val();
            self.wide_sign_bit.next = self.wide_bf16_sign.val();
            self.wide_width_mask.next = self.wide_bf16_mask.val();
            self.wide_inf.next = self.wide_bf16_inf.val();
            self.wide_a_sign.next = self.old_low.val().get_bit(15);
            self.wide_a_exp.next = self.old_low.val().get_bits::<12>(7) & self.wide_bf16_exp_max.val();
            self.wide_a_man.next = self.old_low.val().get_bits::<57>(0) << 48;
            self.wide_b_sign.next = self.src0_low.val().get_bit(15);
            self.wide_b_exp.next = self.src0_low.val().get_bits::<12>(7) & self.wide_bf16_exp_max.val();
            self.wide_b_man.next = self.src0_low.val().get_bits::<57>(0) << 48;
        }
        self.wide_ftz.next = self.ftz.val() & (self.ty.val() == self.ty_f32.val());

        // 3. half lane: bits 31..16 as f16 (default) or bf16
        self.half_exp_max.next = self.half_f16_exp_max.val();
        self.half_lsb.next = self.half_f16_lsb.val();
        self.half_man_field.next = self.half_f16_man_field.val();
        self.half_sign_bit.next = self.half_f16_sign.val();
        self.half_width_mask.next = self.half_f16_mask.val();
        self.half_inf.next = self.half_f16_inf.val();
        self.half_a_exp.next = self.old_low.val().get_bits::<9>(26) & self.half_f16_exp_max.val();
        self.half_a_man.next = self.old_low.val().get_bits::<15>(16) << 3;
        self.half_b_exp.next = self.src0_low.val().get_bits::<9>(26) & self.half_f16_exp_max.val();
        self.half_b_man.next = self.src0_low.val().get_bits::<15>(16) << 3;
        if self.half_bf16.val() {
            self.half_exp_max.next = self.half_bf16_exp_max.val();
            self.half_lsb.next = self.half_bf16_lsb.val();
            self.half_man_field.next = self.half_bf16_man_field.val();
            self.half_sign_bit.next = self.half_bf16_sign.val();
            self.half_width_mask.next = self.half_bf16_mask.val();
            self.half_inf.next = self.half_bf16_inf.val();
            self.half_a_exp.next = self.old_low.val().get_bits::<9>(23) & self.half_bf16_exp_max.val();
            self.half_a_man.next = self.old_low.val().get_bits::<15>(16) << 6;
            self.half_b_exp.next = self.src0_low.val().get_bits::<9>(23) & self.half_bf16_exp_max.val();
            self.half_b_man.next = self.src0_low.val().get_bits::<15>(16) << 6;
        }
        self.half_a_sign.next = self.old_low.val().get_bit(31);
        self.half_b_sign.next = self.src0_low.val().get_bit(31);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_decode_synthesizes() {
        let mut uut = FloatDecode::default();
        uut.connect_all();
        yosys_validate("atomport_float_decode", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn format_constants() {
        assert_eq!(F32.canonical_nan(), 0x7fff_ffff);
        assert_eq!(F16.inf(), 0x7c00);
        assert_eq!(BF16.inf(), 0x7f80);
        assert_eq!(F64.sign_bit(), 1 << 63);
        assert_eq!(BF16.mask(), 0xffff);
    }

    /// The emitted Verilog in Icarus against the module's table (the wide
    /// lane's format and halves from `ElemType::float_read`, the half lane's
    /// from bits 31..16, f64's constants where the type has no format) and
    /// the documented controls: every `{op, ty, ftz}` code with seeded random
    /// operands, then each format's corner values (zeros, subnormals, max
    /// normal, infinities, NaNs) under random bits above its width. The
    /// mantissa is compared as documented: the operand shifted up to its
    /// datapath position, cut at the significand's width.
    #[test]
    fn the_verilog_decodes_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = FloatDecode::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0xbb67_ae85_84ca_a73bu64);
        let mut cases: Vec<(u8, u8, bool, u64, u64)> = vec![]; // (op, ty, ftz, old_low, src0_low)
        for op in 0..32u8 {
            for ty in 0..16u8 {
                for ftz in [false, true] {
                    cases.push((op, ty, ftz, next(), next()));
                }
            }
        }
        for ty in ElemType::ALL {
            let Some((f, halves)) = ty.float_read() else { continue };
            let max_normal = ((f.exp_max() - 1) << f.man_bits) | f.man_mask();
            let positive = [0, 1, f.man_mask(), f.man_mask() + 1, f.one(), max_normal, f.inf(), f.inf() | 1, f.canonical_nan()];
            let c: Vec<u64> = positive.iter().flat_map(|&x| [x, x | f.sign_bit()]).collect();
            for i in 0..c.len() {
                let place = |lo: u64, hi: u64, junk: u64| {
                    if halves {
                        lo | (hi << 16) | (junk << 32)
                    } else {
                        lo | (junk & !f.mask())
                    }
                };
                let (a, b) = (c[i], c[(i + 7) % c.len()]);
                cases.push((AluOp::Add.code(), ty.code(), true, place(a, b, next()), place(b, a, next())));
            }
        }
        assert_eq!(cases.len(), 1024 + 9 * 18, "every code, and 18 corners for each type with a format");
        let outs = "float_op, is_fadd, half_fadd, is_compare, half_compare, is_max, is_min, is_ptx_min_max, is_fcmpwr, \
                    wide_f16, wide_bf16, wide_f32, two_halves, half_bf16, wide_ftz, wide_a_sign, wide_b_sign, half_a_sign, half_b_sign, \
                    wide_exp_max, wide_lsb, wide_man_field, wide_a_exp, wide_a_man, wide_b_exp, wide_b_man, \
                    wide_sign_bit, wide_width_mask, wide_inf, \
                    half_exp_max, half_lsb, half_man_field, half_a_exp, half_a_man, half_b_exp, half_b_man, \
                    half_sign_bit, half_width_mask, half_inf";
        let names: Vec<&str> = outs.split(',').map(str::trim).collect();
        let (bits, words) = (19, names.len() - 19);
        let ports: String = names.iter().map(|n| format!(", .{n}({n})")).collect();
        let mut bench = format!(
            "module bench;\nreg [4:0] op; reg [3:0] ty; reg ftz; reg [63:0] old_low, src0_low;\n\
             wire {bitw};\nwire [11:0] wide_exp_max, wide_a_exp, wide_b_exp; wire [56:0] wide_lsb, wide_man_field, wide_a_man, wide_b_man;\n\
             wire [63:0] wide_sign_bit, wide_width_mask, wide_inf; wire [8:0] half_exp_max, half_a_exp, half_b_exp;\n\
             wire [14:0] half_lsb, half_man_field, half_a_man, half_b_man; wire [15:0] half_sign_bit, half_width_mask, half_inf;\n\
             top uut(.op(op), .ty(ty), .ftz(ftz), .old_low(old_low), .src0_low(src0_low){ports});\ninitial begin\n",
            bitw = names[..bits].join(", ")
        );
        let show = format!("$display(\"{}{}\", {outs});", "%b".repeat(bits), " %0d".repeat(words));
        for &(op, ty, ftz, a, b) in &cases {
            bench.push_str(&format!(
                "  op = {op}; ty = {ty}; ftz = {}; old_low = 64'h{a:016x}; src0_low = 64'h{b:016x}; #1 {show}\n",
                u8::from(ftz)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("fp-decode", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        // a lane's adder constants and unpacked operand, for a format at a datapath position
        let adder = |f: FloatFormat, sig: u32, lsb: u32, x: u64| -> Vec<u128> {
            let x = u128::from(x);
            let exp = (x >> f.man_bits) & u128::from(f.exp_max());
            let man = (x << lsb) & ((1u128 << sig) - 1);
            vec![exp, man]
        };
        let wide_lsb = |f: FloatFormat| [(F16, 45), (BF16, 48), (F32, 32), (F64, 3)].iter().find(|r| r.0 == f).unwrap().1;
        for (line, &(op, ty, ftz, a, b)) in lines.iter().zip(&cases) {
            let alu = AluOp::from_code(op);
            let elem = ElemType::from_code(ty);
            let read = elem.and_then(ElemType::float_read);
            let is_fadd = alu == Some(AluOp::Add) && elem.and_then(ElemType::float_format).is_some();
            let is_max = matches!(alu, Some(AluOp::Fmax | AluOp::FmaxPtx));
            let is_min = matches!(alu, Some(AluOp::Fmin | AluOp::FminPtx));
            let is_ptx = matches!(alu, Some(AluOp::FminPtx | AluOp::FmaxPtx));
            let is_fcmpwr = alu == Some(AluOp::Fcmpwr);
            let float_op = is_fadd || ((is_max || is_min || is_fcmpwr) && read.is_some());
            let two_halves = read.is_some_and(|r| r.1);
            let half_bf16 = elem == Some(ElemType::BF16x2);
            let wide = read.map_or(F64, |r| r.0);
            let half = if half_bf16 { BF16 } else { F16 };
            let flags = [
                float_op,
                is_fadd,
                is_fadd && two_halves,
                float_op && !is_fadd,
                float_op && !is_fadd && two_halves,
                is_max,
                is_min,
                is_ptx,
                is_fcmpwr,
                read.is_some_and(|r| r.0 == F16),
                read.is_some_and(|r| r.0 == BF16),
                read.is_some_and(|r| r.0 == F32),
                two_halves,
                half_bf16,
                ftz && elem == Some(ElemType::F32),
                a & wide.sign_bit() != 0,
                b & wide.sign_bit() != 0,
                a >> 31 & 1 == 1,
                b >> 31 & 1 == 1,
            ];
            let (wl, hl) = (wide_lsb(wide), if half_bf16 { 6 } else { 3 });
            let field = |sig: u32, lsb: u32| ((1u128 << (sig - 2)) - 1) & !((1u128 << lsb) - 1);
            let mut words: Vec<u128> = vec![u128::from(wide.exp_max()), 1 << wl, field(57, wl)];
            words.extend(adder(wide, 57, wl, a));
            words.extend(adder(wide, 57, wl, b));
            words.extend([wide.sign_bit(), wide.mask(), wide.inf()].map(u128::from));
            words.extend([u128::from(half.exp_max()), 1 << hl, field(15, hl)]);
            words.extend(adder(half, 15, hl, (a >> 16) & 0xffff));
            words.extend(adder(half, 15, hl, (b >> 16) & 0xffff));
            words.extend([half.sign_bit(), half.mask(), half.inf()].map(u128::from));
            let expect: String = flags.iter().map(|&x| if x { '1' } else { '0' }).collect::<String>()
                + &words.iter().map(|w| format!(" {w}")).collect::<String>();
            assert_eq!(line, &expect, "op {op} ty {ty} ftz {ftz} old {a:#x} src0 {b:#x}");
        }
    }
}
