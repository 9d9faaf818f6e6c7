//! The atomic ALU: computes, for one element, the value an atomic writes
//! back to memory and the value it returns to the lane (`ret_value`), in
//! two parts:
//! - the *operand stage* decodes `op`/`ty`, masks `src0`/`src1` to the
//!   width and prepares the adder's and the comparators' operands; its
//!   registers (`x_*`) load at a `pipe_advance` edge: the ports `op`, `ty`,
//!   `ftz`, `src0`, `src1` are the element that *enters* the execute stage;
//! - the *execute stage* takes the element's `old_value` in the cycle after
//!   and computes the integer result combinationally (`new_true`/`new_false`/`new_cond`,
//!   `ret_value`), so a run of atomics on one element, each old value the
//!   previous result, goes one per cycle and only this part is in that loop;
//!   the float ops go through the four-stage [`FloatAlu`] from there
//!   (`float_value`, three `pipe_advance` edges later; `float_op` says
//!   which).
//!
//! In the unit, the operand stage is the cycle the table's head leaves
//! for X, the execute stage is X (docs/microarchitecture.md "Execute
//! pipeline").
//!
//! Its semantics are exactly `atomport::golden::atomic_ops::apply` (the golden
//! model's op function, which takes the same `op`/`ty` codes); the test bench
//! `testbench/tests/rtl_alu.rs` checks the two against each other under
//! Verilator. The codes come from the one op table, `atomport-isa`.
//!
//! Structure (after rocket-chip's `AMOALU` and pulp's `axi_riscv_amos_alu`):
//! 1. (operand stage) decode `op` into one-hot op flags, then into a few
//!    control booleans; decode `ty` into a width (mask and sign bit); mask
//!    the sources to the width;
//! 2. ONE adder serves add, sub, inc, dec, predec and PTX inc/dec:
//!    `old + b` with `b` either `src0` or 1; subtraction is `old + ~b + 1`,
//!    `~b` prepared in the operand stage and the `+ 1` a carry-in below the
//!    operands (`{old, 1} + {~b, 1}`), so the execute stage has no inverter
//!    before or after the adder and no second adder;
//! 3. ONE magnitude comparator `old < src0` serves min, max, imin, imax and
//!    the PTX inc/dec bound tests. Signed compares flip the width's sign bit
//!    of both operands first (the offset-binary trick: signed order at width
//!    W equals unsigned order of `x ^ 2^(W-1)`), so one unsigned compare
//!    handles every width and signedness. The adder and the comparator are
//!    sized by the build's data width (`data_bits`) and by
//!    [`ALU_ARITH_BITS`] (64): every operand bit above either, the subtract
//!    invert and the sign flip included, is the constant 0 (`arith_mask`),
//!    so synthesis trims them (a 32-bit build has a 32-bit adder and
//!    comparator, the 128-bit build 64-bit ones). The ops that add or order
//!    do not take 128-bit elements (the one op table,
//!    `AluOp::is_bitwise`): at B128 they leave memory unchanged;
//! 4. ONE equality comparator `old == (cmpxchg ? src1 : src0)` serves
//!    cmpxchg/cas and the `old > src0` half of PTX dec;
//! 5. the result: every op's value is one of two candidates, each a
//!    one-hot AND-OR of old, src0, the adder and the logic ops (selected by
//!    operand-stage flags), masked to the width, and the op's condition
//!    on the comparators, which picks one (the table at step 8 of
//!    `update`). The ALU outputs the three (`new_true`, `new_false`,
//!    `new_cond`) and the caller picks after its register: the pick's
//!    128-bit 2:1 mux is then off the same-element loop, whose end is the
//!    condition's one flip-flop; `ret_value` is the old value (the adder's
//!    for PREDEC).
//!
//! Widths: B16 (also F16, BF16) 16 bits, B32 (also F32, F16x2, BF16x2) 32,
//! B64 (also F64) 64, B128 128. Integer ops work on the low bits of the
//! type's width whatever `ty` is, float types included (as the golden model
//! defines them); at B128 only the bitwise ones (xchg, cmpxchg, and, or,
//! xor) compute, the others leave memory unchanged. `ty` codes outside `ElemType` give zero outputs; `op`
//! codes outside `AluOp` leave memory unchanged (the new value is old).
//!
//! Floating point: `Fmax`, `Fmin`, `Fcmpwr`, `FminPtx`, `FmaxPtx` (at every
//! type but B128) and `Add` at a float type are the sub-block [`FloatAlu`]
//! (fp_alu.rs: one shared multi-format adder and one comparator per lane;
//! docs/microarchitecture.md "Floating-point datapath"), fed from the
//! operand-stage registers and `old_value`; when it claims the op
//! (`float_op`, and both candidates are then 0) its value comes three
//! `pipe_advance` edges later on `float_value`. The
//! `ftz` port is read by the f32 add only. `AtomicAlu::new(false)` builds
//! the ALU without it (float ops then leave memory unchanged) for area
//! comparisons, and `data_bits` below 128 one without the wider types; the
//! emitted top is `AtomicAlu::default()` = `new(128, true)`.

use atomport_isa::{AluOp, ElemType, ALU_ARITH_BITS, ALU_OP_BITS, ALU_TY_BITS};
use rust_hdl::prelude::*;

use crate::extend::ZeroExtend;
use crate::fp_alu::FloatAlu;
use crate::fp_decode::WIDE_BITS;

/// Width of the ALU's data ports (the widest element, PTX `.b128`).
pub use atomport_isa::ALU_DATA_BITS;

/// The atomic ALU (operand stage | execute stage). See the module documentation.
#[derive(LogicBlock)]
pub struct AtomicAlu {
    pub clock: Signal<In, Clock>,
    /// The pipeline moves: the operand stage and the float stages load.
    pub pipe_advance: Signal<In, Bit>,

    // ---- operand stage: the element entering the execute stage (loaded at a `pipe_advance` edge) ----
    /// The operation, an [`AluOp`] code.
    pub op: Signal<In, Bits<ALU_OP_BITS>>,
    /// The element type, an [`ElemType`] code; sets the width.
    pub ty: Signal<In, Bits<ALU_TY_BITS>>,
    /// Flush subnormal inputs and results of an `F32` add to zero (PTX
    /// `atom.add.f32` on `.global`/generic, scripts.md "left open").
    pub ftz: Signal<In, Bit>,

    /// The first source operand (`src0`, PTX `b`; the swap value of cmpxchg/cas).
    pub src0: Signal<In, Bits<ALU_DATA_BITS>>,
    /// The second source operand (`src1`: the compare value of cmpxchg/cas).
    pub src1: Signal<In, Bits<ALU_DATA_BITS>>,

    // ---- execute stage: the element whose operands were loaded at the last edge ----
    /// The value in memory before the atomic (only the low width bits are read).
    pub old_value: Signal<In, Bits<ALU_DATA_BITS>>,

    // ---- results (execute stage; combinational from `old_value`) ----
    /// The value written back to memory, for an integer op, is
    /// `new_cond ? new_true : new_false` (0 for a float op: see
    /// `float_value`): two candidates masked to the width and the op's
    /// condition on the comparators. The pick is left to the caller, after
    /// its register, so a run on one element (the unit's X -> X2 -> X loop)
    /// ends at one flip-flop, the condition's, and not at 128 behind a
    /// mux that waits for it.
    pub new_true: Signal<Out, Bits<ALU_DATA_BITS>>,
    pub new_false: Signal<Out, Bits<ALU_DATA_BITS>>,
    pub new_cond: Signal<Out, Bit>,
    /// The value returned to the lane: old, or new for PREDEC; masked to the width.
    pub ret_value: Signal<Out, Bits<ALU_DATA_BITS>>,
    /// The op in the execute stage is a float op (built with them): its
    /// value written back is `float_value` after three `pipe_advance` edges.
    pub float_op: Signal<Out, Bit>,
    /// The float op's value written back, masked to its width, for the op
    /// in the execute stage three `pipe_advance` edges ago.
    pub float_value: Signal<Out, Bits<ALU_DATA_BITS>>,

    // ---- the floating-point ops ----
    float: FloatAlu,
    /// its 64-bit value widened to the data width
    float_wide: ZeroExtend<WIDE_BITS, ALU_DATA_BITS>,
    /// the float op's width mask, to stage 3
    float_mask_1: DFF<Bits<ALU_DATA_BITS>>,
    float_mask_2: DFF<Bits<ALU_DATA_BITS>>,
    float_mask_3: DFF<Bits<ALU_DATA_BITS>>,
    /// built with the float ops (`AtomicAlu::new`)
    fp_enabled: Constant<Bit>,
    /// all ones when built with the float ops, else zero
    fp_result_mask: Constant<Bits<ALU_DATA_BITS>>,
    /// built with 64-bit and with 128-bit elements (`AtomicAlu::new`): types
    /// wider than the datapath decode to no width, and synthesis removes
    /// the bits above it
    has_64: Constant<Bit>,
    has_128: Constant<Bit>,

    // ---- op codes (from atomport-isa) ----
    op_add: Constant<Bits<ALU_OP_BITS>>,
    op_sub: Constant<Bits<ALU_OP_BITS>>,
    op_inc: Constant<Bits<ALU_OP_BITS>>,
    op_dec: Constant<Bits<ALU_OP_BITS>>,
    op_min: Constant<Bits<ALU_OP_BITS>>,
    op_max: Constant<Bits<ALU_OP_BITS>>,
    op_xchg: Constant<Bits<ALU_OP_BITS>>,
    op_cmpxchg: Constant<Bits<ALU_OP_BITS>>,
    op_and: Constant<Bits<ALU_OP_BITS>>,
    op_or: Constant<Bits<ALU_OP_BITS>>,
    op_xor: Constant<Bits<ALU_OP_BITS>>,
    op_imin: Constant<Bits<ALU_OP_BITS>>,
    op_imax: Constant<Bits<ALU_OP_BITS>>,
    op_predec: Constant<Bits<ALU_OP_BITS>>,
    op_inc_bound: Constant<Bits<ALU_OP_BITS>>,
    op_dec_bound: Constant<Bits<ALU_OP_BITS>>,

    // ---- type codes (from atomport-isa) ----
    ty_b16: Constant<Bits<ALU_TY_BITS>>,
    ty_b32: Constant<Bits<ALU_TY_BITS>>,
    ty_b64: Constant<Bits<ALU_TY_BITS>>,
    ty_b128: Constant<Bits<ALU_TY_BITS>>,
    ty_f16: Constant<Bits<ALU_TY_BITS>>,
    ty_bf16: Constant<Bits<ALU_TY_BITS>>,
    ty_f32: Constant<Bits<ALU_TY_BITS>>,
    ty_f64: Constant<Bits<ALU_TY_BITS>>,
    ty_f16x2: Constant<Bits<ALU_TY_BITS>>,
    ty_bf16x2: Constant<Bits<ALU_TY_BITS>>,

    // ---- data constants ----
    mask_16: Constant<Bits<ALU_DATA_BITS>>,
    mask_32: Constant<Bits<ALU_DATA_BITS>>,
    mask_64: Constant<Bits<ALU_DATA_BITS>>,
    mask_128: Constant<Bits<ALU_DATA_BITS>>,
    /// (no B128: the ops that order take at most 64 bits)
    sign_16: Constant<Bits<ALU_ARITH_BITS>>,
    sign_32: Constant<Bits<ALU_ARITH_BITS>>,
    sign_64: Constant<Bits<ALU_ARITH_BITS>>,
    zero: Constant<Bits<ALU_DATA_BITS>>,
    zero_arith: Constant<Bits<ALU_ARITH_BITS>>,
    one: Constant<Bits<ALU_DATA_BITS>>,
    /// all ones over the bits the adder and the magnitude comparator
    /// compute: the build's data width (`data_bits`), at most
    /// `ALU_ARITH_BITS`. Their operands, the subtract invert and the sign
    /// flip included, are masked by it, so every operand bit above it is
    /// the constant 0 and synthesis (`wreduce`) sizes the adder and the
    /// comparator to it
    arith_mask: Constant<Bits<ALU_DATA_BITS>>,
    /// the same, at the comparator's width
    arith_mask_low: Constant<Bits<ALU_ARITH_BITS>>,

    // ======== operand stage: from op/ty/ftz/src0/src1, loaded on pipe_advance ========
    // ---- type decode ----
    width_16: Signal<Local, Bit>,
    width_32: Signal<Local, Bit>,
    width_64: Signal<Local, Bit>,
    width_128: Signal<Local, Bit>,
    /// `ty` is one of the float codes (Add then means the float add).
    float_type: Signal<Local, Bit>,
    /// all ones over the type's width; zero for an undefined `ty` code
    width_mask: Signal<Local, Bits<ALU_DATA_BITS>>,
    /// the type's sign bit (none at B128)
    sign_bit: Signal<Local, Bits<ALU_ARITH_BITS>>,

    // ---- op decode: one flag per op ----
    is_add: Signal<Local, Bit>,
    is_sub: Signal<Local, Bit>,
    is_inc: Signal<Local, Bit>,
    is_dec: Signal<Local, Bit>,
    is_min: Signal<Local, Bit>,
    is_max: Signal<Local, Bit>,
    is_xchg: Signal<Local, Bit>,
    is_cmpxchg: Signal<Local, Bit>,
    is_and: Signal<Local, Bit>,
    is_or: Signal<Local, Bit>,
    is_xor: Signal<Local, Bit>,
    is_imin: Signal<Local, Bit>,
    is_imax: Signal<Local, Bit>,
    is_predec: Signal<Local, Bit>,
    is_inc_bound: Signal<Local, Bit>,
    is_dec_bound: Signal<Local, Bit>,
    /// the type's width takes the ops that add or order (not B128)
    arith_width: Signal<Local, Bit>,

    // ---- control booleans ----
    /// the result is the adder's (add, sub, inc, dec, predec)
    select_adder: Signal<Local, Bit>,
    /// the adder adds src0 (add, sub); otherwise it adds 1
    adder_takes_src0: Signal<Local, Bit>,
    /// the adder subtracts: sub, dec, predec, PTX dec
    adder_subtracts: Signal<Local, Bit>,
    /// the comparator orders signed values (imin, imax)
    compare_signed: Signal<Local, Bit>,
    /// the result is the smaller of old and src0 (min, imin)
    select_smaller: Signal<Local, Bit>,
    /// the result is the larger of old and src0 (max, imax)
    select_larger: Signal<Local, Bit>,
    /// the op's value depends on a condition on `old` (see step 8): old <
    /// src0 (min, max, imin, imax, PTX inc)
    cond_less: Signal<Local, Bit>,
    /// the integer ops this ALU computes; anything else (a float op, an
    /// undefined code) leaves memory unchanged unless FloatAlu claims it
    known_integer_op: Signal<Local, Bit>,

    // ---- the operands, prepared ----
    src0_masked: Signal<Local, Bits<ALU_DATA_BITS>>,
    src1_masked: Signal<Local, Bits<ALU_DATA_BITS>>,
    /// the sign bit when comparing signed, else zero
    compare_flip: Signal<Local, Bits<ALU_ARITH_BITS>>,
    /// the adder's second operand: src0 or 1, inverted when subtracting,
    /// one bit up, the carry-in (1 when subtracting) below it
    adder_operand: Signal<Local, Bits<ALU_DATA_BITS>>,
    /// all ones (over `arith_mask`) when subtracting: `old - b = old + ~b + 1`
    adder_invert: Signal<Local, Bits<ALU_DATA_BITS>>,
    adder_carry_in: Signal<Local, Bits<ALU_DATA_BITS>>,

    // ---- operand-stage registers: the element in the execute stage ----
    x_op: DFF<Bits<ALU_OP_BITS>>,
    x_ty: DFF<Bits<ALU_TY_BITS>>,
    x_ftz: DFF<Bit>,
    x_width_mask: DFF<Bits<ALU_DATA_BITS>>,
    /// src0 / src1 masked to the width
    x_src0: DFF<Bits<ALU_DATA_BITS>>,
    x_src1: DFF<Bits<ALU_DATA_BITS>>,
    /// the adder's second operand (`adder_operand`)
    x_adder_operand: DFF<Bits<ALU_DATA_BITS>>,
    /// the comparator's sign flip, and src0 flipped
    x_compare_flip: DFF<Bits<ALU_ARITH_BITS>>,
    x_compare_src0: DFF<Bits<ALU_ARITH_BITS>>,
    /// what the equality comparator compares old with: src1 (cmpxchg) or src0
    x_equal_operand: DFF<Bits<ALU_DATA_BITS>>,
    /// which condition decides between the two candidates (none: `false`)
    x_cond_less: DFF<Bit>,
    x_cond_equal: DFF<Bit>,
    x_cond_dec_bound: DFF<Bit>,
    /// the candidate when the condition holds: at most one source (none: 0)
    x_true_old: DFF<Bit>,
    x_true_src0: DFF<Bit>,
    x_true_adder: DFF<Bit>,
    /// the candidate otherwise, and of every op without a condition; old
    /// also for an op not decoded (unless FloatAlu claims it)
    x_false_old: DFF<Bit>,
    x_false_src0: DFF<Bit>,
    x_false_adder: DFF<Bit>,
    x_false_logic: DFF<Bit>,
    x_is_and: DFF<Bit>,
    x_is_or: DFF<Bit>,
    x_is_predec: DFF<Bit>,

    // ======== execute stage: old_value against the registered operands ========
    old_masked: Signal<Local, Bits<ALU_DATA_BITS>>,
    /// `{old, 1} + {b, carry-in}`: the sum one bit up
    adder_sum: Signal<Local, Bits<ALU_DATA_BITS>>,
    adder_result: Signal<Local, Bits<ALU_DATA_BITS>>,
    compare_old: Signal<Local, Bits<ALU_ARITH_BITS>>,
    /// the magnitude comparator: one carry chain over `arith_mask` (its
    /// operands' bits above it are 0, so synthesis trims it to the build's
    /// width); the equality comparator in segments [31:0], [63:32] (64/128-bit
    /// builds), [127:64] (128-bit builds): a segment above the build's
    /// width is never read (`has_64`/`has_128` are constants)
    old_less_than_src0: Signal<Local, Bit>,
    eq_lo: Signal<Local, Bit>,
    eq_mid: Signal<Local, Bit>,
    eq_hi: Signal<Local, Bit>,
    old_equals_operand: Signal<Local, Bit>,
    old_is_zero: Signal<Local, Bit>,
    /// FloatAlu claims the op in the execute stage
    take_float: Signal<Local, Bit>,
    false_old: Signal<Local, Bit>,
    /// the op's condition, from the comparators (late: it selects last)
    condition: Signal<Local, Bit>,
    /// and/or/xor of old and src0 (one-hot, so one candidate)
    logic_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    /// each candidate AND its select (zero when not selected)
    true_old_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    true_src0_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    true_adder_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    false_old_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    false_src0_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    false_logic_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    false_adder_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    /// `ret_value`'s two candidates, each 0 unless it is the one: the
    /// output is then written once per pass (an event-driven simulator's
    /// rule, docs/microarchitecture.md)
    ret_old_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    ret_adder_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    true_value: Signal<Local, Bits<ALU_DATA_BITS>>,
    false_value: Signal<Local, Bits<ALU_DATA_BITS>>,
}

fn op_code(op: AluOp) -> Constant<Bits<ALU_OP_BITS>> {
    Constant::new(op.code().to_bits())
}

fn ty_code(ty: ElemType) -> Constant<Bits<ALU_TY_BITS>> {
    Constant::new(ty.code().to_bits())
}

fn data(value: u128) -> Constant<Bits<ALU_DATA_BITS>> {
    Constant::new(value.to_bits())
}

fn sign_of(ty: ElemType) -> Constant<Bits<ALU_ARITH_BITS>> {
    Constant::new((1u128 << (ty.bits() - 1)).to_bits())
}

impl Default for AtomicAlu {
    /// The ALU with its floating-point ops (the emitted `atomic_alu`).
    fn default() -> Self {
        Self::new(ALU_DATA_BITS as u32, true)
    }
}

impl AtomicAlu {
    /// The ALU for elements of up to `data_bits` (32, 64 or 128) bits;
    /// `with_fp = false` leaves out the floating-point ops (they then leave
    /// memory unchanged, the new value is old). Types wider than `data_bits`
    /// give zero outputs (a unit built that narrow rejects them before they
    /// get here). The ports keep their 128 bits; what is not built is
    /// constant logic that synthesis (`synth -flatten`) removes: the
    /// `FloatAlu` is still instantiated but never selected, the bits above
    /// `data_bits` are masked to zero.
    pub fn new(data_bits: u32, with_fp: bool) -> Self {
        assert!([32, 64, 128].contains(&data_bits), "AtomicAlu: data_bits must be 32, 64 or 128, not {data_bits}");
        // The ports' widths are the op table's; the table must fit them.
        assert!(AluOp::ALL.iter().all(|op| (op.code() as usize) < (1 << ALU_OP_BITS)));
        assert!(ElemType::ALL.iter().all(|ty| (ty.code() as usize) < (1 << ALU_TY_BITS)));
        assert!(ElemType::ALL.iter().all(|ty| ty.bits() as usize <= ALU_DATA_BITS));
        // The sign constants go up to B64 (the ops that add or order stop there).
        assert_eq!(ALU_ARITH_BITS, 64, "AtomicAlu: the ops that add or order are built for B16..B64");
        Self {
            clock: Default::default(),
            pipe_advance: Default::default(),
            op: Default::default(),
            ty: Default::default(),
            ftz: Default::default(),
            old_value: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            new_true: Default::default(),
            new_false: Default::default(),
            new_cond: Default::default(),
            ret_value: Default::default(),
            float_op: Default::default(),
            float_value: Default::default(),
            float: Default::default(),
            float_wide: Default::default(),
            float_mask_1: Default::default(),
            float_mask_2: Default::default(),
            float_mask_3: Default::default(),
            fp_enabled: Constant::new(with_fp),
            fp_result_mask: Constant::new((if with_fp { u128::MAX } else { 0 }).to_bits()),
            has_64: Constant::new(data_bits >= 64),
            has_128: Constant::new(data_bits >= 128),
            op_add: op_code(AluOp::Add),
            op_sub: op_code(AluOp::Sub),
            op_inc: op_code(AluOp::Inc),
            op_dec: op_code(AluOp::Dec),
            op_min: op_code(AluOp::Min),
            op_max: op_code(AluOp::Max),
            op_xchg: op_code(AluOp::Xchg),
            op_cmpxchg: op_code(AluOp::Cmpxchg),
            op_and: op_code(AluOp::And),
            op_or: op_code(AluOp::Or),
            op_xor: op_code(AluOp::Xor),
            op_imin: op_code(AluOp::Imin),
            op_imax: op_code(AluOp::Imax),
            op_predec: op_code(AluOp::Predec),
            op_inc_bound: op_code(AluOp::IncBound),
            op_dec_bound: op_code(AluOp::DecBound),
            ty_b16: ty_code(ElemType::B16),
            ty_b32: ty_code(ElemType::B32),
            ty_b64: ty_code(ElemType::B64),
            ty_b128: ty_code(ElemType::B128),
            ty_f16: ty_code(ElemType::F16),
            ty_bf16: ty_code(ElemType::BF16),
            ty_f32: ty_code(ElemType::F32),
            ty_f64: ty_code(ElemType::F64),
            ty_f16x2: ty_code(ElemType::F16x2),
            ty_bf16x2: ty_code(ElemType::BF16x2),
            mask_16: data(ElemType::B16.mask()),
            mask_32: data(ElemType::B32.mask()),
            mask_64: data(ElemType::B64.mask()),
            mask_128: data(ElemType::B128.mask()),
            sign_16: sign_of(ElemType::B16),
            sign_32: sign_of(ElemType::B32),
            sign_64: sign_of(ElemType::B64),
            zero: data(0),
            zero_arith: Constant::new(0u64.to_bits()),
            one: data(1),
            arith_mask: data((1u128 << data_bits.min(ALU_ARITH_BITS as u32)) - 1),
            arith_mask_low: Constant::new(((1u128 << data_bits.min(ALU_ARITH_BITS as u32)) - 1).to_bits()),
            width_16: Default::default(),
            width_32: Default::default(),
            width_64: Default::default(),
            width_128: Default::default(),
            float_type: Default::default(),
            width_mask: Default::default(),
            sign_bit: Default::default(),
            is_add: Default::default(),
            is_sub: Default::default(),
            is_inc: Default::default(),
            is_dec: Default::default(),
            is_min: Default::default(),
            is_max: Default::default(),
            is_xchg: Default::default(),
            is_cmpxchg: Default::default(),
            is_and: Default::default(),
            is_or: Default::default(),
            is_xor: Default::default(),
            is_imin: Default::default(),
            is_imax: Default::default(),
            is_predec: Default::default(),
            is_inc_bound: Default::default(),
            is_dec_bound: Default::default(),
            arith_width: Default::default(),
            select_adder: Default::default(),
            adder_takes_src0: Default::default(),
            adder_subtracts: Default::default(),
            compare_signed: Default::default(),
            select_smaller: Default::default(),
            select_larger: Default::default(),
            cond_less: Default::default(),
            known_integer_op: Default::default(),
            src0_masked: Default::default(),
            src1_masked: Default::default(),
            compare_flip: Default::default(),
            adder_operand: Default::default(),
            adder_invert: Default::default(),
            adder_carry_in: Default::default(),
            x_op: Default::default(),
            x_ty: Default::default(),
            x_ftz: Default::default(),
            x_width_mask: Default::default(),
            x_src0: Default::default(),
            x_src1: Default::default(),
            x_adder_operand: Default::default(),
            x_compare_flip: Default::default(),
            x_compare_src0: Default::default(),
            x_equal_operand: Default::default(),
            x_cond_less: Default::default(),
            x_cond_equal: Default::default(),
            x_cond_dec_bound: Default::default(),
            x_true_old: Default::default(),
            x_true_src0: Default::default(),
            x_true_adder: Default::default(),
            x_false_old: Default::default(),
            x_false_src0: Default::default(),
            x_false_adder: Default::default(),
            x_false_logic: Default::default(),
            x_is_and: Default::default(),
            x_is_or: Default::default(),
            x_is_predec: Default::default(),
            old_masked: Default::default(),
            adder_sum: Default::default(),
            adder_result: Default::default(),
            compare_old: Default::default(),
            old_less_than_src0: Default::default(),
            eq_lo: Default::default(),
            eq_mid: Default::default(),
            eq_hi: Default::default(),
            old_equals_operand: Default::default(),
            old_is_zero: Default::default(),
            take_float: Default::default(),
            false_old: Default::default(),
            condition: Default::default(),
            logic_value: Default::default(),
            true_old_value: Default::default(),
            true_src0_value: Default::default(),
            true_adder_value: Default::default(),
            false_old_value: Default::default(),
            false_src0_value: Default::default(),
            false_logic_value: Default::default(),
            false_adder_value: Default::default(),
            ret_old_value: Default::default(),
            ret_adder_value: Default::default(),
            true_value: Default::default(),
            false_value: Default::default(),
        }
    }
}

impl Logic for AtomicAlu {
    // rust-hdl emits operators without their Rust grouping: every mixed
    // expression below is parenthesized on purpose (DEVELOPERS.md, Stack).
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            float_mask_1,
            float_mask_2,
            float_mask_3,
            x_op,
            x_ty,
            x_ftz,
            x_width_mask,
            x_src0,
            x_src1,
            x_adder_operand,
            x_compare_flip,
            x_compare_src0,
            x_equal_operand,
            x_cond_less,
            x_cond_equal,
            x_cond_dec_bound,
            x_true_old,
            x_true_src0,
            x_true_adder,
            x_false_old,
            x_false_src0,
            x_false_adder,
            x_false_logic,
            x_is_and,
            x_is_or,
            x_is_predec
        );
        // ================= operand stage =================
        // 1. type decode: width, mask, sign bit
        self.width_16.next = ((self.ty.val() == self.ty_b16.val()) | (self.ty.val() == self.ty_f16.val()))
            | (self.ty.val() == self.ty_bf16.val());
        self.width_32.next = ((self.ty.val() == self.ty_b32.val()) | (self.ty.val() == self.ty_f32.val()))
            | ((self.ty.val() == self.ty_f16x2.val()) | (self.ty.val() == self.ty_bf16x2.val()));
        self.width_64.next =
            ((self.ty.val() == self.ty_b64.val()) | (self.ty.val() == self.ty_f64.val())) & self.has_64.val();
        self.width_128.next = (self.ty.val() == self.ty_b128.val()) & self.has_128.val();
        self.float_type.next = ((self.ty.val() == self.ty_f16.val()) | (self.ty.val() == self.ty_bf16.val()))
            | ((self.ty.val() == self.ty_f32.val()) | (self.ty.val() == self.ty_f64.val()))
            | ((self.ty.val() == self.ty_f16x2.val()) | (self.ty.val() == self.ty_bf16x2.val()));
        // (no width: mask and sign bit 0; the widths are one-hot, so these
        // ifs are independent 2-way muxes, not a priority chain)
        self.width_mask.next = self.zero.val();
        self.sign_bit.next = self.zero_arith.val();
        if self.width_16.val() {
            self.width_mask.next = self.mask_16.val();
            self.sign_bit.next = self.sign_16.val();
        }
        if self.width_32.val() {
            self.width_mask.next = self.mask_32.val();
            self.sign_bit.next = self.sign_32.val();
        }
        if self.width_64.val() {
            self.width_mask.next = self.mask_64.val();
            self.sign_bit.next = self.sign_64.val();
        }
        if self.width_128.val() {
            self.width_mask.next = self.mask_128.val();
        }

        // 2. op decode: one flag per integer op (Add on a float type is the
        //    float add, FloatAlu's); the ops that add or order only at the
        //    widths up to ALU_ARITH_BITS (at B128 they are not decoded:
        //    memory unchanged)
        self.arith_width.next = !self.width_128.val();
        self.is_add.next = ((self.op.val() == self.op_add.val()) & !self.float_type.val()) & self.arith_width.val();
        self.is_sub.next = (self.op.val() == self.op_sub.val()) & self.arith_width.val();
        self.is_inc.next = (self.op.val() == self.op_inc.val()) & self.arith_width.val();
        self.is_dec.next = (self.op.val() == self.op_dec.val()) & self.arith_width.val();
        self.is_min.next = (self.op.val() == self.op_min.val()) & self.arith_width.val();
        self.is_max.next = (self.op.val() == self.op_max.val()) & self.arith_width.val();
        self.is_xchg.next = self.op.val() == self.op_xchg.val();
        self.is_cmpxchg.next = self.op.val() == self.op_cmpxchg.val();
        self.is_and.next = self.op.val() == self.op_and.val();
        self.is_or.next = self.op.val() == self.op_or.val();
        self.is_xor.next = self.op.val() == self.op_xor.val();
        self.is_imin.next = (self.op.val() == self.op_imin.val()) & self.arith_width.val();
        self.is_imax.next = (self.op.val() == self.op_imax.val()) & self.arith_width.val();
        self.is_predec.next = (self.op.val() == self.op_predec.val()) & self.arith_width.val();
        self.is_inc_bound.next = (self.op.val() == self.op_inc_bound.val()) & self.arith_width.val();
        self.is_dec_bound.next = (self.op.val() == self.op_dec_bound.val()) & self.arith_width.val();

        // 3. control booleans
        self.select_adder.next = ((self.is_add.val() | self.is_sub.val()) | (self.is_inc.val() | self.is_dec.val()))
            | self.is_predec.val();
        self.adder_takes_src0.next = self.is_add.val() | self.is_sub.val();
        self.adder_subtracts.next = ((self.is_sub.val() | self.is_dec.val()) | self.is_predec.val())
            | self.is_dec_bound.val();
        self.compare_signed.next = self.is_imin.val() | self.is_imax.val();
        self.select_smaller.next = self.is_min.val() | self.is_imin.val();
        self.select_larger.next = self.is_max.val() | self.is_imax.val();
        self.cond_less.next = (self.select_smaller.val() | self.select_larger.val()) | self.is_inc_bound.val();
        self.known_integer_op.next = ((self.select_adder.val() | self.cond_less.val())
            | (self.is_xchg.val() | self.is_cmpxchg.val()))
            | (((self.is_and.val() | self.is_or.val()) | self.is_xor.val()) | self.is_dec_bound.val());

        // 4. the operands, masked to the width; the comparator's operand
        //    with the sign flip (signed order at width W = unsigned order of
        //    x ^ 2^(W-1)); the adder's operand src0 or 1, inverted when
        //    subtracting (old - b = old + ~b + 1), one bit up with the
        //    carry-in below it; everything above `arith_mask` is 0
        self.src0_masked.next = self.src0.val() & self.width_mask.val();
        self.src1_masked.next = self.src1.val() & self.width_mask.val();
        self.compare_flip.next = self.zero_arith.val();
        if self.compare_signed.val() {
            self.compare_flip.next = self.sign_bit.val() & self.arith_mask_low.val();
        }
        self.adder_invert.next = self.zero.val();
        self.adder_carry_in.next = self.zero.val();
        if self.adder_subtracts.val() {
            self.adder_invert.next = self.arith_mask.val();
            self.adder_carry_in.next = self.one.val();
        }
        self.adder_operand.next = (((self.one.val() ^ self.adder_invert.val()) & self.arith_mask.val()) << 1)
            | self.adder_carry_in.val();
        if self.adder_takes_src0.val() {
            self.adder_operand.next = (((self.src0_masked.val() ^ self.adder_invert.val()) & self.arith_mask.val())
                << 1)
                | self.adder_carry_in.val();
        }

        // 5. the operand-stage registers: load with the pipeline
        if self.pipe_advance.val() {
            self.x_op.d.next = self.op.val();
            self.x_ty.d.next = self.ty.val();
            self.x_ftz.d.next = self.ftz.val();
            self.x_width_mask.d.next = self.width_mask.val();
            self.x_src0.d.next = self.src0_masked.val();
            self.x_src1.d.next = self.src1_masked.val();
            self.x_adder_operand.d.next = self.adder_operand.val();
            self.x_compare_flip.d.next = self.compare_flip.val();
            self.x_compare_src0.d.next =
                (self.src0_masked.val().get_bits::<ALU_ARITH_BITS>(0) & self.arith_mask_low.val()) ^ self.compare_flip.val();
            self.x_equal_operand.d.next = self.src0_masked.val();
            if self.is_cmpxchg.val() {
                self.x_equal_operand.d.next = self.src1_masked.val();
            }
            // the two candidates and the condition between them (step 8)
            self.x_cond_less.d.next = self.cond_less.val();
            self.x_cond_equal.d.next = self.is_cmpxchg.val();
            self.x_cond_dec_bound.d.next = self.is_dec_bound.val();
            self.x_true_old.d.next = self.select_smaller.val();
            self.x_true_src0.d.next = (self.select_larger.val() | self.is_cmpxchg.val()) | self.is_dec_bound.val();
            self.x_true_adder.d.next = self.is_inc_bound.val();
            self.x_false_old.d.next =
                (self.select_larger.val() | self.is_cmpxchg.val()) | !self.known_integer_op.val();
            self.x_false_src0.d.next = self.select_smaller.val() | self.is_xchg.val();
            self.x_false_adder.d.next = self.select_adder.val() | self.is_dec_bound.val();
            self.x_false_logic.d.next = (self.is_and.val() | self.is_or.val()) | self.is_xor.val();
            self.x_is_and.d.next = self.is_and.val();
            self.x_is_or.d.next = self.is_or.val();
            self.x_is_predec.d.next = self.is_predec.val();
        }

        // ================= execute stage =================
        // 6. the float ops: wiring from registers and ports only (Verilator
        //    UNOPTFLAT rule, unit.rs); FloatAlu ignores bits above the width
        self.float.clock.next = self.clock.val();
        self.float.advance.next = self.pipe_advance.val();
        self.float.op.next = self.x_op.q.val();
        self.float.ty.next = self.x_ty.q.val();
        self.float.ftz.next = self.x_ftz.q.val();
        self.float.old_value.next = self.old_value.val().get_bits::<64>(0);
        self.float.src0.next = self.x_src0.q.val().get_bits::<64>(0);
        self.float.src1.next = self.x_src1.q.val().get_bits::<64>(0);
        self.float_wide.narrow.next = self.float.new_value.val();

        // 7. old masked; the one adder: {old, 1} + {b, carry-in}, the sum
        //    one bit up (bit 0 carries the carry-in into bit 1); right
        //    modulo 2^width: the final mask drops what is above it
        self.old_masked.next = self.old_value.val() & self.x_width_mask.q.val();
        self.adder_sum.next =
            (((self.old_masked.val() & self.arith_mask.val()) << 1) | self.one.val()) + self.x_adder_operand.q.val();
        self.adder_result.next = self.adder_sum.val() >> 1;

        //    the one magnitude comparator, old < src0: one carry chain (a
        //    compare in two 32-bit segments put three LUT levels after the
        //    lower chain, on the same-element loop's path)
        self.compare_old.next =
            (self.old_masked.val().get_bits::<ALU_ARITH_BITS>(0) & self.arith_mask_low.val()) ^ self.x_compare_flip.q.val();
        self.old_less_than_src0.next = self.compare_old.val() < self.x_compare_src0.q.val();

        //    the one equality comparator: old == src1 (cmpxchg), else old == src0
        self.eq_lo.next = self.old_masked.val().get_bits::<32>(0) == self.x_equal_operand.q.val().get_bits::<32>(0);
        self.eq_mid.next = (self.old_masked.val().get_bits::<32>(32) == self.x_equal_operand.q.val().get_bits::<32>(32))
            | !self.has_64.val();
        self.eq_hi.next = (self.old_masked.val().get_bits::<64>(64) == self.x_equal_operand.q.val().get_bits::<64>(64))
            | !self.has_128.val();
        self.old_equals_operand.next = (self.eq_lo.val() & self.eq_mid.val()) & self.eq_hi.val();
        self.old_is_zero.next = !((self.old_masked.val() & self.arith_mask.val()).any());

        // 8. result select. Every op's value is one of two candidates, each
        //    a one-hot AND-OR of old, src0, the adder and the logic ops that
        //    does not wait for a comparator; the op's condition picks one of
        //    the two, after the caller's register (the comparators are the
        //    slowest path: nothing after them here). An op not decoded leaves
        //    memory unchanged (old); a float op's value here is 0 (FloatAlu
        //    claims it: `float_op`).
        //    | op                     | condition              | true  | false |
        //    | add sub inc dec predec | -                      |       | adder |
        //    | min imin               | old < src0             | old   | src0  |
        //    | max imax               | old < src0             | src0  | old   |
        //    | xchg                   | -                      |       | src0  |
        //    | cmpxchg                | old == src1            | src0  | old   |
        //    | and or xor             | -                      |       | logic |
        //    | PTX inc (inc_bound)    | old < src0             | old+1 | 0     |
        //    | PTX dec (dec_bound)    | old == 0 or old > src0 | src0  | old-1 |
        //    (PTX inc/dec: seed PTX_ATOM.md, Semantics; old > src0 is
        //    !(old < src0) && !(old == src0))
        self.take_float.next = self.fp_enabled.val() & self.float.float_op.val();
        self.false_old.next = self.x_false_old.q.val() & !self.take_float.val();
        self.logic_value.next = self.old_masked.val() ^ self.x_src0.q.val();
        if self.x_is_and.q.val() {
            self.logic_value.next = self.old_masked.val() & self.x_src0.q.val();
        }
        if self.x_is_or.q.val() {
            self.logic_value.next = self.old_masked.val() | self.x_src0.q.val();
        }
        //    (one-hot selects: each candidate gated by its flag, then ORed)
        self.true_old_value.next = self.zero.val();
        if self.x_true_old.q.val() {
            self.true_old_value.next = self.old_masked.val();
        }
        self.true_src0_value.next = self.zero.val();
        if self.x_true_src0.q.val() {
            self.true_src0_value.next = self.x_src0.q.val();
        }
        self.true_adder_value.next = self.zero.val();
        if self.x_true_adder.q.val() {
            self.true_adder_value.next = self.adder_result.val();
        }
        self.false_old_value.next = self.zero.val();
        if self.false_old.val() {
            self.false_old_value.next = self.old_masked.val();
        }
        self.false_src0_value.next = self.zero.val();
        if self.x_false_src0.q.val() {
            self.false_src0_value.next = self.x_src0.q.val();
        }
        self.false_logic_value.next = self.zero.val();
        if self.x_false_logic.q.val() {
            self.false_logic_value.next = self.logic_value.val();
        }
        self.false_adder_value.next = self.zero.val();
        if self.x_false_adder.q.val() {
            self.false_adder_value.next = self.adder_result.val();
        }
        self.true_value.next = (self.true_old_value.val() | self.true_src0_value.val()) | self.true_adder_value.val();
        self.false_value.next = (self.false_old_value.val() | self.false_src0_value.val())
            | (self.false_logic_value.val() | self.false_adder_value.val());
        self.condition.next = ((self.x_cond_less.q.val() & self.old_less_than_src0.val())
            | (self.x_cond_equal.q.val() & self.old_equals_operand.val()))
            | (self.x_cond_dec_bound.q.val()
                & (self.old_is_zero.val() | !(self.old_less_than_src0.val() | self.old_equals_operand.val())));

        // 9. outputs; PREDEC returns the new value (the adder's: not
        //    through the select)
        self.new_true.next = self.true_value.val() & self.x_width_mask.q.val();
        self.new_false.next = self.false_value.val() & self.x_width_mask.q.val();
        self.new_cond.next = self.condition.val();
        self.ret_old_value.next = self.old_masked.val();
        self.ret_adder_value.next = self.zero.val();
        if self.x_is_predec.q.val() {
            self.ret_old_value.next = self.zero.val();
            self.ret_adder_value.next = self.adder_result.val() & self.x_width_mask.q.val();
        }
        self.ret_value.next = self.ret_old_value.val() | self.ret_adder_value.val();
        // the float ops: their width mask rides along to stage 4
        self.float_op.next = self.take_float.val();
        if self.pipe_advance.val() {
            self.float_mask_1.d.next = self.x_width_mask.q.val();
            self.float_mask_2.d.next = self.float_mask_1.q.val();
            self.float_mask_3.d.next = self.float_mask_2.q.val();
        }
        // One assignment, no default-then-override: an output that the unit
        // reads back must not glitch within a pass, or an event-driven
        // simulator (Icarus) ping-pongs between the unit's always block
        // (whose bypass mux glitches the ALU's old_value) and this one.
        self.float_value.next = (self.float_wide.wide.val() & self.float_mask_3.q.val()) & self.fp_result_mask.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_alu_synthesizes() {
        let mut uut = AtomicAlu::default();
        uut.connect_all();
        yosys_validate("atomport_atomic_alu", &generate_verilog(&uut)).unwrap();
    }
}
