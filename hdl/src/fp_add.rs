//! `FpAdd`: the one floating-point adder of the atomic ALU — a multi-format
//! IEEE 754 adder, round to nearest even, optional flush-to-zero, in four
//! pipeline stages.
//!
//! Every format the ALU adds (f64, f32, f16, bf16) is mapped into ONE
//! datapath whose widths are const generics; the ALU builds two instances of
//! this block: [`FpAddWide`] (sized for f64, serves every format in the low
//! element) and [`FpAddHalf`] (sized for f16/bf16, the high half of the
//! packed `f16x2`/`bf16x2` forms). The format is a run-time input: its
//! all-ones exponent (`exp_max`) and the datapath position of its mantissa's
//! least significant bit (`lsb`). The steps mirror the golden model's
//! soft-float (`core/src/golden/soft_float.rs`, `fp::add`) one for one: unpack, align with
//! sticky, add, leading-zero normalization, round, pack.
//!
//! # Pipeline
//! Four stages; the registers between them load when `advance` is 1 (the
//! unit's execute pipeline moves; docs/microarchitecture.md "Execute
//! pipeline"): the sum of the operands given in cycle t is on `sum_*` in
//! the cycle after the third `advance` edge.
//!
//! | stage | does | registers after it |
//! | --- | --- | --- |
//! | 1 | unpack, classify, order by exponent, alignment distance | `r1_*`: larger-exponent sign/exponent/significand, the other significand, shift, equal exponents, specials, format |
//! | 2 | align with sticky, add or subtract (equal exponents: the larger significand minus the smaller) | `r2_*`: raw sum, its sign, exponent, zero sum, specials, format |
//! | 3 | carry shift, normalization (leading-zero count and shift fused) | `r3_*`: normalized significand, exponent field, specials, format |
//! | 4 | round to nearest even, overflow, specials, pack | (the ALU's write stage) |
//!
//! Stages 1-3 compute only while they hold an add (`active`, then
//! `r1_active`, `r2_active`): otherwise their locals are 0 and so are the
//! registers after them (a synchronous reset in hardware), and a simulator
//! skips them. Stage 4 always computes: a flag there would sit on the
//! unit's critical path (docs/synthesis.md).
//!
//! # Datapath layout
//! A significand is `SIG_BITS` wide (`S`), fixed for every format:
//!
//! | bits | holds |
//! | --- | --- |
//! | `S-1` | carry out of the add |
//! | `S-2` | the hidden bit |
//! | `S-3 .. 3` | the mantissa field of the widest format, left-aligned: a narrower format's `M` mantissa bits are `S-3 .. S-2-M`, so its LSB is bit `S-2-M` (the `lsb` input) |
//! | `2 .. 0` | guard, round, sticky of the widest format |
//!
//! A narrower format simply has more bits below its LSB; rounding looks at
//! the bit just below `lsb` (round) and everything under it (sticky). Those
//! extra bits only make the pre-rounding sum more exact, and the rounding
//! boundaries of every format stay even multiples of bit 0, where the
//! alignment sticky can never land, so the result is the correctly rounded
//! sum in every format — the same bits as the golden model.
//!
//! Exponents stay in the operand format's own bias (`EXP_BITS` wide, one
//! more bit than the widest exponent field: a sum can reach `exp_max + 1`
//! before the overflow check). A subnormal reads as exponent 1 without the
//! hidden bit, exactly as in the golden model.
//!
//! # Normalization
//! A carry out shifts right by one (the dropped bit ORs into the sticky).
//! Otherwise `NORM_STAGES` stages shift left by 2^k (largest first) when the
//! top 2^k bits below the carry are all zero in a *probe*: the significand
//! with one extra bit ORed in at position `S-1-exp` (computed in stage 2
//! from the exponent), the bit that reaches the hidden position after
//! `exp - 1` shifts. The probe's leading zeros are therefore
//! `min(leading zeros, exp - 1)`, and the stages shift by exactly that
//! (greedy binary decomposition): leading-zero count and normalization in
//! one log-depth shifter, stopping at the subnormal exponent as IEEE
//! requires, with no exponent compare between the stages (an earlier
//! version compared `exp > 2^k` in every stage: 6 carry chains in series,
//! 35 ns on ECP5).
//!
//! # Specials (the golden model's order)
//! A NaN operand or inf - inf gives the format's canonical NaN (sign 0,
//! exponent and mantissa all ones); an infinity gives itself; +-0 + +-0 is
//! -0 only when both are -0; an exact cancellation is +0; overflow (after
//! rounding) is the infinity of the result's sign. With `ftz`, subnormal
//! inputs read as the zero of their sign and a subnormal result is written
//! as the zero of its sign.

use rust_hdl::prelude::*;

/// Extra bits below the widest format's mantissa: guard, round, sticky.
pub const GRS_BITS: usize = 3;

/// The f64-sized instance: 52-bit mantissa + hidden + carry + GRS = 57-bit
/// significands, 12-bit exponents (f64's 11 + 1), 6 shift stages (32..1).
pub type FpAddWide = FpAdd<12, 57, 6>;

/// The f16/bf16-sized instance: 10-bit mantissa (f16) -> 15-bit significands,
/// 9-bit exponents (bf16's 8 + 1), 4 shift stages (8..1).
pub type FpAddHalf = FpAdd<9, 15, 4>;

/// The datapath `lsb` input of a format with `man_bits` stored mantissa
/// bits in an adder with `sig_bits`-bit significands (see the layout table).
pub fn lsb_position(sig_bits: usize, man_bits: usize) -> usize {
    assert!(man_bits + 2 + GRS_BITS <= sig_bits, "a {man_bits}-bit mantissa does not fit a {sig_bits}-bit datapath");
    sig_bits - 2 - man_bits
}

/// `sum = a + b` in the format given by `exp_max` and `lsb` (four stages).
/// Operands and result are unpacked: sign, biased exponent field, and the
/// mantissa field at its datapath position (bits outside the format's
/// mantissa field are ignored on input and zero on output).
#[derive(LogicBlock)]
pub struct FpAdd<const EXP_BITS: usize, const SIG_BITS: usize, const NORM_STAGES: usize> {
    pub clock: Signal<In, Clock>,
    /// The pipeline moves: every stage register loads.
    pub advance: Signal<In, Bit>,
    /// The operands given now are an add for this adder. Stages 1-3 compute
    /// only for such an add (an idle stage's registers load zeros), so a
    /// simulator skips the adder while no float add is in flight; in
    /// hardware the zeros are the stage registers' synchronous reset.
    pub active: Signal<In, Bit>,

    // ---- format ----
    /// The format's all-ones exponent field: 31 (f16), 255 (bf16, f32), 2047 (f64).
    pub exp_max: Signal<In, Bits<EXP_BITS>>,
    /// One-hot: the datapath bit of the format's mantissa LSB ([`lsb_position`]).
    pub lsb: Signal<In, Bits<SIG_BITS>>,
    /// The format's mantissa field: bits `lsb .. S-3` (a constant per format
    /// from the decoder, so no subtractor derives it from `lsb`).
    pub man_field: Signal<In, Bits<SIG_BITS>>,
    /// Flush subnormal inputs and results to the zero of their sign.
    pub ftz: Signal<In, Bit>,

    // ---- operands ----
    pub a_sign: Signal<In, Bit>,
    /// Biased exponent field, zero-extended.
    pub a_exp: Signal<In, Bits<EXP_BITS>>,
    /// Mantissa field at its datapath position (no hidden bit).
    pub a_man: Signal<In, Bits<SIG_BITS>>,
    pub b_sign: Signal<In, Bit>,
    pub b_exp: Signal<In, Bits<EXP_BITS>>,
    pub b_man: Signal<In, Bits<SIG_BITS>>,

    // ---- result ----
    pub sum_sign: Signal<Out, Bit>,
    pub sum_exp: Signal<Out, Bits<EXP_BITS>>,
    pub sum_man: Signal<Out, Bits<SIG_BITS>>,

    // ---- stage 1 -> 2 registers ----
    r1_big_exp: DFF<Bits<EXP_BITS>>,
    r1_big_sig: DFF<Bits<SIG_BITS>>,
    /// the smaller significand, not yet aligned
    r1_small_sig: DFF<Bits<SIG_BITS>>,
    r1_align_shift: DFF<Bits<NORM_STAGES>>,
    r1_subtract: DFF<Bit>,
    r1_big_sign: DFF<Bit>,
    /// the exponents are equal (the significands decide the order in stage 2)
    r1_exp_equal: DFF<Bit>,
    r1_a_sign: DFF<Bit>,
    r1_b_sign: DFF<Bit>,
    r1_a_zero: DFF<Bit>,
    r1_b_zero: DFF<Bit>,
    r1_a_inf: DFF<Bit>,
    r1_b_inf: DFF<Bit>,
    r1_nan: DFF<Bit>,
    r1_lsb: DFF<Bits<SIG_BITS>>,
    r1_man_field: DFF<Bits<SIG_BITS>>,
    r1_exp_max: DFF<Bits<EXP_BITS>>,
    r1_ftz: DFF<Bit>,
    /// stage 2 holds an add (`active` one stage on)
    r1_active: DFF<Bit>,

    // ---- stage 2 -> 3 registers ----
    /// the raw sum (carry bit included)
    r2_sum: DFF<Bits<SIG_BITS>>,
    /// the larger exponent
    r2_exp: DFF<Bits<EXP_BITS>>,
    r2_sum_is_zero: DFF<Bit>,
    /// one-hot at bit `S-1-exp` (0 when exp >= S): the lowest position the
    /// normalization may bring to the hidden bit without the exponent going
    /// below 1 (see stage 3)
    r2_limit: DFF<Bits<SIG_BITS>>,
    r2_big_sign: DFF<Bit>,
    r2_a_sign: DFF<Bit>,
    r2_b_sign: DFF<Bit>,
    r2_a_zero: DFF<Bit>,
    r2_b_zero: DFF<Bit>,
    r2_a_inf: DFF<Bit>,
    r2_b_inf: DFF<Bit>,
    r2_nan: DFF<Bit>,
    r2_lsb: DFF<Bits<SIG_BITS>>,
    r2_man_field: DFF<Bits<SIG_BITS>>,
    r2_exp_max: DFF<Bits<EXP_BITS>>,
    r2_ftz: DFF<Bit>,
    /// stage 3 holds an add
    r2_active: DFF<Bit>,

    // ---- stage 3 -> 4 registers ----
    /// the normalized significand
    r3_sig: DFF<Bits<SIG_BITS>>,
    /// its exponent field (0: subnormal)
    r3_exp_field: DFF<Bits<EXP_BITS>>,
    r3_sum_is_zero: DFF<Bit>,
    r3_big_sign: DFF<Bit>,
    r3_a_sign: DFF<Bit>,
    r3_b_sign: DFF<Bit>,
    r3_a_zero: DFF<Bit>,
    r3_b_zero: DFF<Bit>,
    r3_a_inf: DFF<Bit>,
    r3_b_inf: DFF<Bit>,
    r3_nan: DFF<Bit>,
    r3_lsb: DFF<Bits<SIG_BITS>>,
    r3_man_field: DFF<Bits<SIG_BITS>>,
    r3_exp_max: DFF<Bits<EXP_BITS>>,
    r3_ftz: DFF<Bit>,

    // ---- constants ----
    exp_zero: Constant<Bits<EXP_BITS>>,
    exp_one: Constant<Bits<EXP_BITS>>,
    sig_zero: Constant<Bits<SIG_BITS>>,
    sig_one: Constant<Bits<SIG_BITS>>,
    sig_ones: Constant<Bits<SIG_BITS>>,
    hidden_bit: Constant<Bits<SIG_BITS>>,
    carry_bit: Constant<Bits<SIG_BITS>>,
    /// exponent bits at and above 2^NORM_STAGES (an alignment that saturates)
    exp_above_shift: Constant<Bits<EXP_BITS>>,
    /// the largest alignment shift, 2^NORM_STAGES - 1
    shift_ones: Constant<Bits<NORM_STAGES>>,
    /// per stage (largest shift first): the bits that must be zero to shift
    stage_top_mask: [Constant<Bits<SIG_BITS>>; NORM_STAGES],
    /// per stage: the shift distance 2^k as a shift amount and an exponent step
    stage_shift: [Constant<Bits<EXP_BITS>>; NORM_STAGES],

    // ---- format masks ----
    /// stage 3's masks (from the registered `lsb`): the mantissa field,
    /// the bit below `lsb` and every bit below that one
    out_man_field: Signal<Local, Bits<SIG_BITS>>,
    out_round_bit: Signal<Local, Bits<SIG_BITS>>,
    out_sticky_bits: Signal<Local, Bits<SIG_BITS>>,

    // ---- unpack and classify ----
    a_man_in: Signal<Local, Bits<SIG_BITS>>,
    b_man_in: Signal<Local, Bits<SIG_BITS>>,
    a_exp_zero: Signal<Local, Bit>,
    b_exp_zero: Signal<Local, Bit>,
    a_exp_all_ones: Signal<Local, Bit>,
    b_exp_all_ones: Signal<Local, Bit>,
    /// mantissa after the input flush (ftz and subnormal -> 0)
    a_man_flushed: Signal<Local, Bits<SIG_BITS>>,
    b_man_flushed: Signal<Local, Bits<SIG_BITS>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    a_zero: Signal<Local, Bit>,
    b_zero: Signal<Local, Bit>,
    /// significand with the hidden bit (none for a subnormal or zero)
    a_sig: Signal<Local, Bits<SIG_BITS>>,
    b_sig: Signal<Local, Bits<SIG_BITS>>,
    /// exponent with a subnormal read as 1
    a_exp_eff: Signal<Local, Bits<EXP_BITS>>,
    b_exp_eff: Signal<Local, Bits<EXP_BITS>>,

    // ---- order by exponent, align ----
    big_sign: Signal<Local, Bit>,
    big_exp: Signal<Local, Bits<EXP_BITS>>,
    big_sig: Signal<Local, Bits<SIG_BITS>>,
    small_sig: Signal<Local, Bits<SIG_BITS>>,
    subtract: Signal<Local, Bit>,
    /// the exponents are equal (for `r1_exp_equal`)
    exp_equal: Signal<Local, Bit>,
    /// a NaN operand or inf - inf (for `r1_nan`)
    nan: Signal<Local, Bit>,
    exp_diff: Signal<Local, Bits<EXP_BITS>>,
    a_minus_b_exp: Signal<Local, Bits<EXP_BITS>>,
    /// b's exponent is the larger (picks the alignment distance)
    b_exp_larger: Signal<Local, Bit>,
    b_minus_a_exp: Signal<Local, Bits<EXP_BITS>>,
    /// stage 2: equal exponents, a subtraction, and the smaller-exponent
    /// operand's significand is the larger: the difference is taken the
    /// other way round and the result takes that operand's sign
    reversed: Signal<Local, Bit>,
    /// the alignment shift: `exp_diff`, saturated at 2^NORM_STAGES - 1 (>= S-1:
    /// everything shifts out), so the shifter has NORM_STAGES stages, not EXP_BITS
    align_shift: Signal<Local, Bits<NORM_STAGES>>,
    /// the bits of the smaller significand that the alignment shifts out
    shifted_out: Signal<Local, Bits<SIG_BITS>>,
    small_aligned: Signal<Local, Bits<SIG_BITS>>,

    // ---- add ----
    raw_sum: Signal<Local, Bits<SIG_BITS>>,
    sum_is_zero: Signal<Local, Bit>,
    /// the sum's sign before the specials (for `r2_big_sign`)
    raw_sign: Signal<Local, Bit>,
    /// the normalization limit (for `r2_limit`)
    limit: Signal<Local, Bits<SIG_BITS>>,

    // ---- normalize ----
    /// after the carry shift: the input of stage 0
    carried: Signal<Local, Bits<SIG_BITS>>,
    carried_exp: Signal<Local, Bits<EXP_BITS>>,
    /// stage i's output (stage i shifts by 2^(NORM_STAGES-1-i))
    stage_out: [Signal<Local, Bits<SIG_BITS>>; NORM_STAGES],
    /// the shift so far (the stages' 2^k ORed in: the bits are disjoint)
    stage_amount: [Signal<Local, Bits<EXP_BITS>>; NORM_STAGES],
    /// the significand with the limit bit ORed in, as each stage sees it
    /// (shifted like `stage_out`; its leading zeros decide each shift)
    limit_bit: Signal<Local, Bits<SIG_BITS>>,
    probe: Signal<Local, Bits<SIG_BITS>>,
    stage_probe: [Signal<Local, Bits<SIG_BITS>>; NORM_STAGES],
    normalized: Signal<Local, Bits<SIG_BITS>>,
    normalized_exp: Signal<Local, Bits<EXP_BITS>>,
    /// the exponent field before rounding: 0 when the hidden bit is clear (subnormal)
    exp_field: Signal<Local, Bits<EXP_BITS>>,

    // ---- round ----
    round_up: Signal<Local, Bit>,
    truncated: Signal<Local, Bits<SIG_BITS>>,
    rounded: Signal<Local, Bits<SIG_BITS>>,
    rounded_sig: Signal<Local, Bits<SIG_BITS>>,
    rounded_exp: Signal<Local, Bits<EXP_BITS>>,
    overflow: Signal<Local, Bit>,
}

impl<const EXP_BITS: usize, const SIG_BITS: usize, const NORM_STAGES: usize> Default
    for FpAdd<EXP_BITS, SIG_BITS, NORM_STAGES>
{
    fn default() -> Self {
        // The shift stages must cover every left shift (at most S-2 places)
        // and no more; the exponent must hold the largest stage step.
        assert!(SIG_BITS > GRS_BITS + 2 && SIG_BITS <= 128, "SIG_BITS = {SIG_BITS}");
        assert!((1usize << NORM_STAGES) > SIG_BITS - 2, "{NORM_STAGES} stages cannot shift {} places", SIG_BITS - 2);
        assert!((1usize << (NORM_STAGES - 1)) <= SIG_BITS - 2, "stage 2^{} is never used", NORM_STAGES - 1);
        assert!(NORM_STAGES < EXP_BITS && EXP_BITS <= 64, "EXP_BITS = {EXP_BITS}");
        // the saturated alignment shift must move every significand bit out
        assert!((1usize << NORM_STAGES) > SIG_BITS - 1, "{NORM_STAGES} shift bits cannot align {SIG_BITS} bits");
        let sig = |v: u128| Constant::new(v.to_bits());
        let ones = if SIG_BITS == 128 { u128::MAX } else { (1u128 << SIG_BITS) - 1 };
        // stage i shifts by 2^(NORM_STAGES-1-i) when bits S-2 .. S-1-2^k are zero
        let stage_top_mask = core::array::from_fn(|i| {
            let amount = 1usize << (NORM_STAGES - 1 - i);
            sig(((1u128 << amount) - 1) << (SIG_BITS - 1 - amount))
        });
        let stage_shift = core::array::from_fn(|i| Constant::new(((1u64) << (NORM_STAGES - 1 - i)).to_bits()));
        Self {
            clock: Default::default(),
            advance: Default::default(),
            active: Default::default(),
            r1_active: Default::default(),
            r2_active: Default::default(),
            r1_big_exp: Default::default(),
            r1_big_sig: Default::default(),
            r1_small_sig: Default::default(),
            r1_align_shift: Default::default(),
            r1_subtract: Default::default(),
            r1_big_sign: Default::default(),
            r1_exp_equal: Default::default(),
            r1_a_sign: Default::default(),
            r1_b_sign: Default::default(),
            r1_a_zero: Default::default(),
            r1_b_zero: Default::default(),
            r1_a_inf: Default::default(),
            r1_b_inf: Default::default(),
            r1_nan: Default::default(),
            r1_lsb: Default::default(),
            r1_man_field: Default::default(),
            r1_exp_max: Default::default(),
            r1_ftz: Default::default(),
            r2_sum: Default::default(),
            r2_exp: Default::default(),
            r2_sum_is_zero: Default::default(),
            r2_limit: Default::default(),
            r2_big_sign: Default::default(),
            r2_a_sign: Default::default(),
            r2_b_sign: Default::default(),
            r2_a_zero: Default::default(),
            r2_b_zero: Default::default(),
            r2_a_inf: Default::default(),
            r2_b_inf: Default::default(),
            r2_nan: Default::default(),
            r2_lsb: Default::default(),
            r2_man_field: Default::default(),
            r2_exp_max: Default::default(),
            r2_ftz: Default::default(),
            r3_sig: Default::default(),
            r3_exp_field: Default::default(),
            r3_sum_is_zero: Default::default(),
            r3_big_sign: Default::default(),
            r3_a_sign: Default::default(),
            r3_b_sign: Default::default(),
            r3_a_zero: Default::default(),
            r3_b_zero: Default::default(),
            r3_a_inf: Default::default(),
            r3_b_inf: Default::default(),
            r3_nan: Default::default(),
            r3_lsb: Default::default(),
            r3_man_field: Default::default(),
            r3_exp_max: Default::default(),
            r3_ftz: Default::default(),
            out_man_field: Default::default(),
            out_round_bit: Default::default(),
            out_sticky_bits: Default::default(),
            exp_max: Default::default(),
            lsb: Default::default(),
            man_field: Default::default(),
            ftz: Default::default(),
            a_sign: Default::default(),
            a_exp: Default::default(),
            a_man: Default::default(),
            b_sign: Default::default(),
            b_exp: Default::default(),
            b_man: Default::default(),
            sum_sign: Default::default(),
            sum_exp: Default::default(),
            sum_man: Default::default(),
            exp_zero: Constant::new(0u64.to_bits()),
            exp_one: Constant::new(1u64.to_bits()),
            sig_zero: sig(0),
            sig_one: sig(1),
            sig_ones: sig(ones),
            hidden_bit: sig(1u128 << (SIG_BITS - 2)),
            carry_bit: sig(1u128 << (SIG_BITS - 1)),
            exp_above_shift: Constant::new(((u64::MAX >> (64 - EXP_BITS)) & (u64::MAX << NORM_STAGES)).to_bits()),
            shift_ones: Constant::new(((1u64 << NORM_STAGES) - 1).to_bits()),
            stage_top_mask,
            stage_shift,
            a_man_in: Default::default(),
            b_man_in: Default::default(),
            a_exp_zero: Default::default(),
            b_exp_zero: Default::default(),
            a_exp_all_ones: Default::default(),
            b_exp_all_ones: Default::default(),
            a_man_flushed: Default::default(),
            b_man_flushed: Default::default(),
            a_nan: Default::default(),
            b_nan: Default::default(),
            a_inf: Default::default(),
            b_inf: Default::default(),
            a_zero: Default::default(),
            b_zero: Default::default(),
            a_sig: Default::default(),
            b_sig: Default::default(),
            a_exp_eff: Default::default(),
            b_exp_eff: Default::default(),
            big_sign: Default::default(),
            big_exp: Default::default(),
            big_sig: Default::default(),
            small_sig: Default::default(),
            subtract: Default::default(),
            exp_equal: Default::default(),
            nan: Default::default(),
            raw_sign: Default::default(),
            limit: Default::default(),
            exp_diff: Default::default(),
            a_minus_b_exp: Default::default(),
            b_exp_larger: Default::default(),
            b_minus_a_exp: Default::default(),
            reversed: Default::default(),
            align_shift: Default::default(),
            shifted_out: Default::default(),
            small_aligned: Default::default(),
            raw_sum: Default::default(),
            sum_is_zero: Default::default(),
            carried: Default::default(),
            carried_exp: Default::default(),
            stage_out: core::array::from_fn(|_| Default::default()),
            stage_amount: core::array::from_fn(|_| Default::default()),
            limit_bit: Default::default(),
            probe: Default::default(),
            stage_probe: core::array::from_fn(|_| Default::default()),
            normalized: Default::default(),
            normalized_exp: Default::default(),
            exp_field: Default::default(),
            round_up: Default::default(),
            truncated: Default::default(),
            rounded: Default::default(),
            rounded_sig: Default::default(),
            rounded_exp: Default::default(),
            overflow: Default::default(),
        }
    }
}

impl<const EXP_BITS: usize, const SIG_BITS: usize, const NORM_STAGES: usize> Logic
    for FpAdd<EXP_BITS, SIG_BITS, NORM_STAGES>
{
    // Every mixed expression is parenthesized on purpose (DEVELOPERS.md,
    // Stack); array indexes are literals or loop indexes.
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r1_big_exp,
            r1_big_sig,
            r1_small_sig,
            r1_align_shift,
            r1_subtract,
            r1_big_sign,
            r1_exp_equal,
            r1_a_sign,
            r1_b_sign,
            r1_a_zero,
            r1_b_zero,
            r1_a_inf,
            r1_b_inf,
            r1_nan,
            r1_lsb,
            r1_man_field,
            r1_exp_max,
            r1_ftz,
            r1_active,
            r2_active,
            r2_sum,
            r2_exp,
            r2_sum_is_zero,
            r2_limit,
            r2_big_sign,
            r2_a_sign,
            r2_b_sign,
            r2_a_zero,
            r2_b_zero,
            r2_a_inf,
            r2_b_inf,
            r2_nan,
            r2_lsb,
            r2_man_field,
            r2_exp_max,
            r2_ftz,
            r3_sig,
            r3_exp_field,
            r3_sum_is_zero,
            r3_big_sign,
            r3_a_sign,
            r3_b_sign,
            r3_a_zero,
            r3_b_zero,
            r3_a_inf,
            r3_b_inf,
            r3_nan,
            r3_lsb,
            r3_man_field,
            r3_exp_max,
            r3_ftz
        );

        // ================= stage 1: unpack, classify, order, align =================
        // 1. the format's masks are inputs (`lsb`, `man_field`)

        // (each of stages 1-3 computes only while it holds an add: its
        // locals are 0 otherwise, and so are the registers after it)
        self.a_man_in.next = self.sig_zero.val();
        self.b_man_in.next = self.sig_zero.val();
        self.a_exp_zero.next = false;
        self.b_exp_zero.next = false;
        self.a_exp_all_ones.next = false;
        self.b_exp_all_ones.next = false;
        self.a_man_flushed.next = self.sig_zero.val();
        self.b_man_flushed.next = self.sig_zero.val();
        self.a_nan.next = false;
        self.b_nan.next = false;
        self.a_inf.next = false;
        self.b_inf.next = false;
        self.a_zero.next = false;
        self.b_zero.next = false;
        self.a_sig.next = self.sig_zero.val();
        self.b_sig.next = self.sig_zero.val();
        self.a_exp_eff.next = self.exp_zero.val();
        self.b_exp_eff.next = self.exp_zero.val();
        self.b_exp_larger.next = false;
        self.big_sign.next = false;
        self.big_exp.next = self.exp_zero.val();
        self.big_sig.next = self.sig_zero.val();
        self.small_sig.next = self.sig_zero.val();
        self.subtract.next = false;
        self.exp_equal.next = false;
        self.nan.next = false;
        self.a_minus_b_exp.next = self.exp_zero.val();
        self.b_minus_a_exp.next = self.exp_zero.val();
        self.exp_diff.next = self.exp_zero.val();
        self.align_shift.next = self.exp_zero.val().get_bits::<NORM_STAGES>(0);
        if self.active.val() {
            // 2. unpack, flush (ftz), classify
            self.a_man_in.next = self.a_man.val() & self.man_field.val();
            self.b_man_in.next = self.b_man.val() & self.man_field.val();
            self.a_exp_zero.next = !(self.a_exp.val().any());
            self.b_exp_zero.next = !(self.b_exp.val().any());
            self.a_exp_all_ones.next = self.a_exp.val() == self.exp_max.val();
            self.b_exp_all_ones.next = self.b_exp.val() == self.exp_max.val();
            self.a_man_flushed.next = self.a_man_in.val();
            if self.ftz.val() & self.a_exp_zero.val() {
                self.a_man_flushed.next = self.sig_zero.val();
            }
            self.b_man_flushed.next = self.b_man_in.val();
            if self.ftz.val() & self.b_exp_zero.val() {
                self.b_man_flushed.next = self.sig_zero.val();
            }
            self.a_nan.next = self.a_exp_all_ones.val() & self.a_man_in.val().any();
            self.b_nan.next = self.b_exp_all_ones.val() & self.b_man_in.val().any();
            self.a_inf.next = self.a_exp_all_ones.val() & !(self.a_man_in.val().any());
            self.b_inf.next = self.b_exp_all_ones.val() & !(self.b_man_in.val().any());
            self.a_zero.next = self.a_exp_zero.val() & !(self.a_man_flushed.val().any());
            self.b_zero.next = self.b_exp_zero.val() & !(self.b_man_flushed.val().any());
            self.a_sig.next = self.a_man_flushed.val() | self.hidden_bit.val();
            self.a_exp_eff.next = self.a_exp.val();
            if self.a_exp_zero.val() {
                self.a_sig.next = self.a_man_flushed.val();
                self.a_exp_eff.next = self.exp_one.val();
            }
            self.b_sig.next = self.b_man_flushed.val() | self.hidden_bit.val();
            self.b_exp_eff.next = self.b_exp.val();
            if self.b_exp_zero.val() {
                self.b_sig.next = self.b_man_flushed.val();
                self.b_exp_eff.next = self.exp_one.val();
            }

            // 3. order by exponent (the larger-exponent operand is `big`; with
            //    equal exponents `a`), then align small to big with a sticky bit.
            //    With unequal exponents big is also the larger magnitude; with
            //    equal ones stage 2 compares the significands (no alignment
            //    then), which keeps a significand compare out of this stage
            self.b_exp_larger.next = self.b_exp_eff.val() > self.a_exp_eff.val();
            self.big_sign.next = self.a_sign.val();
            self.big_exp.next = self.a_exp_eff.val();
            self.big_sig.next = self.a_sig.val();
            self.small_sig.next = self.b_sig.val();
            if self.b_exp_larger.val() {
                self.big_sign.next = self.b_sign.val();
                self.big_exp.next = self.b_exp_eff.val();
                self.big_sig.next = self.b_sig.val();
                self.small_sig.next = self.a_sig.val();
            }
            self.subtract.next = self.a_sign.val() != self.b_sign.val();
            // both differences in parallel with the compare, then one mux on
            // the exponents alone (when they are equal both differences are 0)
            self.a_minus_b_exp.next = self.a_exp_eff.val() - self.b_exp_eff.val();
            self.b_minus_a_exp.next = self.b_exp_eff.val() - self.a_exp_eff.val();
            self.exp_diff.next = self.a_minus_b_exp.val();
            if self.b_exp_larger.val() {
                self.exp_diff.next = self.b_minus_a_exp.val();
            }
            self.align_shift.next = self.exp_diff.val().get_bits::<NORM_STAGES>(0);
            if (self.exp_diff.val() & self.exp_above_shift.val()).any() {
                self.align_shift.next = self.shift_ones.val();
            }
            self.exp_equal.next = self.a_exp_eff.val() == self.b_exp_eff.val();
            self.nan.next =
                (self.a_nan.val() | self.b_nan.val()) | ((self.a_inf.val() & self.b_inf.val()) & self.subtract.val());
        }
        if self.advance.val() {
            self.r1_active.d.next = self.active.val();
            self.r1_big_exp.d.next = self.big_exp.val();
            self.r1_big_sig.d.next = self.big_sig.val();
            self.r1_small_sig.d.next = self.small_sig.val();
            self.r1_align_shift.d.next = self.align_shift.val();
            self.r1_subtract.d.next = self.subtract.val();
            self.r1_big_sign.d.next = self.big_sign.val();
            self.r1_exp_equal.d.next = self.exp_equal.val();
            self.r1_a_sign.d.next = self.a_sign.val();
            self.r1_b_sign.d.next = self.b_sign.val();
            self.r1_a_zero.d.next = self.a_zero.val();
            self.r1_b_zero.d.next = self.b_zero.val();
            self.r1_a_inf.d.next = self.a_inf.val();
            self.r1_b_inf.d.next = self.b_inf.val();
            self.r1_nan.d.next = self.nan.val();
            self.r1_lsb.d.next = self.lsb.val();
            self.r1_man_field.d.next = self.man_field.val();
            self.r1_exp_max.d.next = self.exp_max.val();
            self.r1_ftz.d.next = self.ftz.val();
        }

        // ================= stage 2: align with sticky, add =================
        self.shifted_out.next = self.sig_zero.val();
        self.small_aligned.next = self.sig_zero.val();
        self.reversed.next = false;
        self.raw_sum.next = self.sig_zero.val();
        self.sum_is_zero.next = false;
        self.raw_sign.next = false;
        self.limit.next = self.sig_zero.val();
        if self.r1_active.q.val() {
            self.shifted_out.next = self.r1_small_sig.q.val() & !(self.sig_ones.val() << self.r1_align_shift.q.val());
            self.small_aligned.next = self.r1_small_sig.q.val() >> self.r1_align_shift.q.val();
            if self.shifted_out.val().any() {
                self.small_aligned.next =
                    (self.r1_small_sig.q.val() >> self.r1_align_shift.q.val()) | self.sig_one.val();
            }
            // 4. the add (both operands are below the carry bit); with equal
            //    exponents nothing was shifted, so the reversed difference
            //    works on the registered significands, beside the shifter
            self.reversed.next = (self.r1_subtract.q.val() & self.r1_exp_equal.q.val())
                & (self.r1_small_sig.q.val() > self.r1_big_sig.q.val());
            self.raw_sum.next = self.r1_big_sig.q.val() + self.small_aligned.val();
            if self.r1_subtract.q.val() {
                self.raw_sum.next = self.r1_big_sig.q.val() - self.small_aligned.val();
            }
            if self.reversed.val() {
                self.raw_sum.next = self.r1_small_sig.q.val() - self.r1_big_sig.q.val();
            }
            self.sum_is_zero.next = !(self.raw_sum.val().any());
            self.raw_sign.next = self.r1_big_sign.q.val() ^ self.reversed.val();
            self.limit.next = self.carry_bit.val() >> self.r1_big_exp.q.val();
        }
        if self.advance.val() {
            self.r2_active.d.next = self.r1_active.q.val();
            self.r2_sum.d.next = self.raw_sum.val();
            self.r2_exp.d.next = self.r1_big_exp.q.val();
            self.r2_sum_is_zero.d.next = self.sum_is_zero.val();
            self.r2_limit.d.next = self.limit.val();
            self.r2_big_sign.d.next = self.raw_sign.val();
            self.r2_a_sign.d.next = self.r1_a_sign.q.val();
            self.r2_b_sign.d.next = self.r1_b_sign.q.val();
            self.r2_a_zero.d.next = self.r1_a_zero.q.val();
            self.r2_b_zero.d.next = self.r1_b_zero.q.val();
            self.r2_a_inf.d.next = self.r1_a_inf.q.val();
            self.r2_b_inf.d.next = self.r1_b_inf.q.val();
            self.r2_nan.d.next = self.r1_nan.q.val();
            self.r2_lsb.d.next = self.r1_lsb.q.val();
            self.r2_man_field.d.next = self.r1_man_field.q.val();
            self.r2_exp_max.d.next = self.r1_exp_max.q.val();
            self.r2_ftz.d.next = self.r1_ftz.q.val();
        }

        // ================= stage 3: normalize =================
        self.carried.next = self.sig_zero.val();
        self.carried_exp.next = self.exp_zero.val();
        self.limit_bit.next = self.sig_zero.val();
        self.probe.next = self.sig_zero.val();
        for i in 0..NORM_STAGES {
            self.stage_probe[i].next = self.sig_zero.val();
            self.stage_out[i].next = self.sig_zero.val();
            self.stage_amount[i].next = self.exp_zero.val();
        }
        self.normalized.next = self.sig_zero.val();
        self.normalized_exp.next = self.exp_zero.val();
        self.exp_field.next = self.exp_zero.val();
        if self.r2_active.q.val() {
            // 5. normalize: a carry shifts right once (sticky kept), then the
            //    left-shift stages, largest first, never below exponent 1
            self.carried.next = self.r2_sum.q.val();
            self.carried_exp.next = self.r2_exp.q.val();
            if (self.r2_sum.q.val() & self.carry_bit.val()).any() {
                self.carried.next = (self.r2_sum.q.val() >> 1) | (self.r2_sum.q.val() & self.sig_one.val());
                self.carried_exp.next = self.r2_exp.q.val() + self.exp_one.val();
            }
            // The left shift is min(leading zeros, exp - 1): never below exponent
            // 1 (IEEE subnormals). A limit bit ORed in at position S-1-exp (the
            // bit that reaches the hidden position after exp - 1 shifts) caps the
            // leading-zero count at exp - 1, so every stage decides on the
            // shifted probe's top bits alone (no exponent compare in the chain);
            // the data shifts the same way without the limit bit. Stages shift by
            // 2^(N-1) .. 1, largest first: the binary digits of the shift.
            self.limit_bit.next = self.r2_limit.q.val();
            if (self.r2_sum.q.val() & self.carry_bit.val()).any() {
                self.limit_bit.next = self.r2_limit.q.val() >> 1;
            }
            self.probe.next = self.carried.val() | self.limit_bit.val();
            // stage_probe[i]: the probe as stage i sees it
            self.stage_probe[0].next = self.probe.val();
            self.stage_out[0].next = self.carried.val();
            self.stage_amount[0].next = self.exp_zero.val();
            if !((self.stage_probe[0].val() & self.stage_top_mask[0].val()).any()) {
                self.stage_out[0].next = self.carried.val() << self.stage_shift[0].val();
                self.stage_amount[0].next = self.stage_shift[0].val();
            }
            for i in 1..NORM_STAGES {
                self.stage_probe[i].next = self.stage_probe[i - 1].val();
                if !((self.stage_probe[i - 1].val() & self.stage_top_mask[i - 1].val()).any()) {
                    self.stage_probe[i].next = self.stage_probe[i - 1].val() << self.stage_shift[i - 1].val();
                }
                self.stage_out[i].next = self.stage_out[i - 1].val();
                self.stage_amount[i].next = self.stage_amount[i - 1].val();
                if !((self.stage_probe[i].val() & self.stage_top_mask[i].val()).any()) {
                    self.stage_out[i].next = self.stage_out[i - 1].val() << self.stage_shift[i].val();
                    self.stage_amount[i].next = self.stage_amount[i - 1].val() | self.stage_shift[i].val();
                }
            }
            // the last stage's output (a one-pass loop: an index must be a literal or a loop index)
            for i in (NORM_STAGES - 1)..NORM_STAGES {
                self.normalized.next = self.stage_out[i].val();
                // one subtract after the last stage, not one per stage
                self.normalized_exp.next = self.carried_exp.val() - self.stage_amount[i].val();
            }
            self.exp_field.next = self.exp_zero.val();
            if (self.normalized.val() & self.hidden_bit.val()).any() {
                self.exp_field.next = self.normalized_exp.val();
            }
        }
        if self.advance.val() {
            self.r3_sig.d.next = self.normalized.val();
            self.r3_exp_field.d.next = self.exp_field.val();
            self.r3_sum_is_zero.d.next = self.r2_sum_is_zero.q.val();
            self.r3_big_sign.d.next = self.r2_big_sign.q.val();
            self.r3_a_sign.d.next = self.r2_a_sign.q.val();
            self.r3_b_sign.d.next = self.r2_b_sign.q.val();
            self.r3_a_zero.d.next = self.r2_a_zero.q.val();
            self.r3_b_zero.d.next = self.r2_b_zero.q.val();
            self.r3_a_inf.d.next = self.r2_a_inf.q.val();
            self.r3_b_inf.d.next = self.r2_b_inf.q.val();
            self.r3_nan.d.next = self.r2_nan.q.val();
            self.r3_lsb.d.next = self.r2_lsb.q.val();
            self.r3_man_field.d.next = self.r2_man_field.q.val();
            self.r3_exp_max.d.next = self.r2_exp_max.q.val();
            self.r3_ftz.d.next = self.r2_ftz.q.val();
        }

        // ================= stage 4: round, specials, pack =================
        // (bits at and above lsb: the field, the hidden bit, the carry; the
        // round bit just below lsb; the sticky bits below that: no subtractor)
        self.out_man_field.next = self.r3_man_field.q.val();
        self.out_round_bit.next = self.r3_lsb.q.val() >> 1;
        self.out_sticky_bits.next =
            !(((self.r3_man_field.q.val() | self.hidden_bit.val()) | self.carry_bit.val()) | self.out_round_bit.val());

        // 6. round to nearest, ties to even, at the format's LSB
        self.round_up.next = (self.r3_sig.q.val() & self.out_round_bit.val()).any()
            & ((self.r3_sig.q.val() & self.out_sticky_bits.val()).any()
                | (self.r3_sig.q.val() & self.r3_lsb.q.val()).any());
        self.truncated.next =
            self.r3_sig.q.val() & ((self.r3_man_field.q.val() | self.hidden_bit.val()) | self.carry_bit.val());
        self.rounded.next = self.truncated.val();
        if self.round_up.val() {
            self.rounded.next = self.truncated.val() + self.r3_lsb.q.val();
        }
        self.rounded_sig.next = self.rounded.val();
        self.rounded_exp.next = self.r3_exp_field.q.val();
        if (self.rounded.val() & self.carry_bit.val()).any() {
            // rounding carried into a new leading bit (the value is a power of two: exact)
            self.rounded_sig.next = self.rounded.val() >> 1;
            self.rounded_exp.next = self.r3_exp_field.q.val() + self.exp_one.val();
        }
        if (!(self.r3_exp_field.q.val().any())) & (self.rounded.val() & self.hidden_bit.val()).any() {
            // a subnormal rounded up to the smallest normal
            self.rounded_exp.next = self.exp_one.val();
        }
        self.overflow.next = self.rounded_exp.val() >= self.r3_exp_max.q.val();

        // 7. result: specials first, in the golden model's order
        self.sum_sign.next = self.r3_big_sign.q.val();
        self.sum_exp.next = self.rounded_exp.val();
        self.sum_man.next = self.rounded_sig.val() & self.out_man_field.val();
        if self.r3_ftz.q.val() & !(self.rounded_exp.val().any()) {
            self.sum_man.next = self.sig_zero.val();
        }
        if self.overflow.val() {
            self.sum_exp.next = self.r3_exp_max.q.val();
            self.sum_man.next = self.sig_zero.val();
        }
        if self.r3_sum_is_zero.q.val() {
            // exact cancellation: +0 when rounding to nearest
            self.sum_sign.next = false;
            self.sum_exp.next = self.exp_zero.val();
            self.sum_man.next = self.sig_zero.val();
        }
        if self.r3_a_zero.q.val() & self.r3_b_zero.q.val() {
            self.sum_sign.next = self.r3_a_sign.q.val() & self.r3_b_sign.q.val();
        }
        if self.r3_b_inf.q.val() {
            self.sum_sign.next = self.r3_b_sign.q.val();
            self.sum_exp.next = self.r3_exp_max.q.val();
            self.sum_man.next = self.sig_zero.val();
        }
        if self.r3_a_inf.q.val() {
            self.sum_sign.next = self.r3_a_sign.q.val();
            self.sum_exp.next = self.r3_exp_max.q.val();
            self.sum_man.next = self.sig_zero.val();
        }
        if self.r3_nan.q.val() {
            // a NaN operand or inf - inf: the canonical NaN (sign 0, exponent and mantissa all ones)
            self.sum_sign.next = false;
            self.sum_exp.next = self.r3_exp_max.q.val();
            self.sum_man.next = self.out_man_field.val();
        }
    }
}

#[cfg(test)]
mod fp_add_tests;
