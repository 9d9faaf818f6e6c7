//! `FpCmp`: the one floating-point comparator of the atomic ALU
//! (combinational). It serves every float op that compares: vISA FMAX, FMIN
//! (IEEE 754-2019 maximumNumber / minimumNumber), FCMPWR (IEEE equality) and
//! PTX f16/bf16 min/max (scripts.md "Semantics that the seeds leave open").
//!
//! The format is a run-time input (its sign bit, width mask and +infinity),
//! so one instance compares f16, bf16, f32 and f64 held in the low bits of
//! `BITS`. Bits above the format's width are ignored.
//!
//! * NaN: the magnitude (value without its sign) is above +infinity's bits.
//! * `equal`: IEEE equality — neither is NaN, and the bits are equal or both
//!   are zeros (+0 == -0).
//! * `less`: `a < b` in the total order of numbers with -0 < +0, the golden
//!   model's `fp::less_signed_zero`: sign-magnitude is mapped to a monotonic
//!   unsigned key (negative values inverted, positive values with the sign
//!   bit set, so -0 lands just below +0) and the keys are compared. Only
//!   meaningful when neither operand is NaN.

use rust_hdl::prelude::*;

/// Compares two floats `a` and `b` of the format given at run time.
#[derive(LogicBlock)]
pub struct FpCmp<const BITS: usize> {
    /// A compare is wanted: otherwise every result is 0 and nothing is
    /// computed (a simulator skips the block).
    pub active: Signal<In, Bit>,

    // ---- format ----
    /// One-hot: the format's sign bit (bit 15, 31 or 63).
    pub sign_bit: Signal<In, Bits<BITS>>,
    /// All ones over the format's width.
    pub width_mask: Signal<In, Bits<BITS>>,
    /// +infinity: exponent all ones, mantissa zero.
    pub inf: Signal<In, Bits<BITS>>,

    // ---- operands ----
    pub a: Signal<In, Bits<BITS>>,
    pub b: Signal<In, Bits<BITS>>,

    // ---- results ----
    pub a_nan: Signal<Out, Bit>,
    pub b_nan: Signal<Out, Bit>,
    /// IEEE `a == b`.
    pub equal: Signal<Out, Bit>,
    /// `a < b` with -0 < +0 (neither NaN).
    pub less: Signal<Out, Bit>,

    // ---- locals ----
    magnitude_mask: Signal<Local, Bits<BITS>>,
    a_bits: Signal<Local, Bits<BITS>>,
    b_bits: Signal<Local, Bits<BITS>>,
    a_magnitude: Signal<Local, Bits<BITS>>,
    b_magnitude: Signal<Local, Bits<BITS>>,
    a_key: Signal<Local, Bits<BITS>>,
    b_key: Signal<Local, Bits<BITS>>,
    zero: Constant<Bits<BITS>>,
}

impl<const BITS: usize> Default for FpCmp<BITS> {
    fn default() -> Self {
        assert!((16..=128).contains(&BITS), "FpCmp compares 16- to 128-bit values, not {BITS}");
        Self {
            active: Default::default(),
            sign_bit: Default::default(),
            width_mask: Default::default(),
            inf: Default::default(),
            a: Default::default(),
            b: Default::default(),
            a_nan: Default::default(),
            b_nan: Default::default(),
            equal: Default::default(),
            less: Default::default(),
            magnitude_mask: Default::default(),
            a_bits: Default::default(),
            b_bits: Default::default(),
            a_magnitude: Default::default(),
            b_magnitude: Default::default(),
            a_key: Default::default(),
            b_key: Default::default(),
            zero: Constant::new(0u64.to_bits()),
        }
    }
}

impl<const BITS: usize> Logic for FpCmp<BITS> {
    // Every mixed expression is parenthesized on purpose (DEVELOPERS.md, Stack).
    #[hdl_gen]
    fn update(&mut self) {
        self.magnitude_mask.next = self.zero.val();
        self.a_bits.next = self.zero.val();
        self.b_bits.next = self.zero.val();
        self.a_magnitude.next = self.zero.val();
        self.b_magnitude.next = self.zero.val();
        self.a_key.next = self.zero.val();
        self.b_key.next = self.zero.val();
        self.a_nan.next = false;
        self.b_nan.next = false;
        self.equal.next = false;
        self.less.next = false;
        if self.active.val() {
            self.magnitude_mask.next = self.width_mask.val() & !self.sign_bit.val();
            self.a_bits.next = self.a.val() & self.width_mask.val();
            self.b_bits.next = self.b.val() & self.width_mask.val();
            self.a_magnitude.next = self.a.val() & self.magnitude_mask.val();
            self.b_magnitude.next = self.b.val() & self.magnitude_mask.val();
            self.a_nan.next = self.a_magnitude.val() > self.inf.val();
            self.b_nan.next = self.b_magnitude.val() > self.inf.val();
            self.equal.next = (!(self.a_nan.val() | self.b_nan.val()))
                & ((self.a_bits.val() == self.b_bits.val())
                    | !((self.a_magnitude.val() | self.b_magnitude.val()).any()));
            // monotonic keys: negative -> inverted bits, positive -> sign bit set
            self.a_key.next = self.a_bits.val() | self.sign_bit.val();
            if (self.a_bits.val() & self.sign_bit.val()).any() {
                self.a_key.next = (!self.a_bits.val()) & self.width_mask.val();
            }
            self.b_key.next = self.b_bits.val() | self.sign_bit.val();
            if (self.b_bits.val() & self.sign_bit.val()).any() {
                self.b_key.next = (!self.b_bits.val()) & self.width_mask.val();
            }
            self.less.next = self.a_key.val() < self.b_key.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp_cmp_synthesizes() {
        let mut uut = FpCmp::<64>::default();
        uut.connect_all();
        yosys_validate("atomport_fp_cmp", &generate_verilog(&uut)).unwrap();
    }
}
