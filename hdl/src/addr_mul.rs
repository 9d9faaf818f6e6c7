//! `AddrMul`: the address stage (T) of the unit's front end: the
//! TYPED_ATOMIC step's second multiply, `first * d` (64 x 32 -> 64), as
//! products of 16-bit digits, one multiplier each and one add behind them;
//! the line stage (L, `AddrFinish`) sums them with `e` a cycle later
//! (docs/microarchitecture.md "Front end").
//!
//! Why the products in one stage and their sum in the next: the whole
//! multiply-add in T was every unit build's critical path (operand mux ->
//! MULT18X18D -> three carry chains of the partial sums -> `a_line`: 19.9
//! ns on ECP5, 18.0 ns in the integer builds). Cut after the multipliers
//! and one carry chain, neither half is.
//!
//! `first` is `lane_first` at lod (the lane's `r * rows + v`, scaled by the
//! element size `E`: a 1- or 2-bit shift in the operand mux) and otherwise
//! `walk_first` (a walk step). With `first` = a3:a2:a1:a0 and `d` = b1:b0
//! in 16-bit digits, the product modulo 2^64 needs the seven digit
//! products whose weight is below 2^64; each is one multiplier, and the two
//! of each weight are added here (one carry chain after the multipliers),
//! so that the line stage adds three terms instead of eight:
//!
//! | output | digit products    | weight | bits kept                  |
//! | ------ | ----------------- | ------ | -------------------------- |
//! | `p0`   | a0 * b0           | 2^0    | 32                         |
//! | `p16`  | a0 * b1 + a1 * b0 | 2^16   | 33 (the sum's carry)       |
//! | `p32`  | a1 * b1 + a2 * b0 | 2^32   | 32 (the bits below 2^64)   |
//! | `p48`  | a2 * b1 + a3 * b0 | 2^48   | 16 (the bits below 2^64)   |
//!
//! Combinational.

use rust_hdl::prelude::*;

use crate::multiply::MulAdd;
use crate::widths::{ADDR_BITS, COORD_BITS};

/// Bits of one digit of the operands.
pub const DIGIT_BITS: usize = 16;
/// Bits of `p0` (a digit times a digit).
pub const P0_BITS: usize = 2 * DIGIT_BITS;
/// Bits of `p16`: two digit products and the carry of their sum.
pub const P16_BITS: usize = 2 * DIGIT_BITS + 1;
/// Bits of `p32` and `p48`: those below 2^64.
pub const P32_BITS: usize = ADDR_BITS - 2 * DIGIT_BITS;
pub const P48_BITS: usize = ADDR_BITS - 3 * DIGIT_BITS;

/// The typed step's `first * d` as seven 16 x 16 digit products, summed by weight (combinational).
#[derive(LogicBlock)]
pub struct AddrMul {
    // ---- the typed step: first * second_b ----
    /// `first`: `lane_first` when `at_lod` (the lane's address), else
    /// `walk_first` (a walk step).
    pub walk_first: Signal<In, Bits<ADDR_BITS>>,
    pub lane_first: Signal<In, Bits<ADDR_BITS>>,
    pub at_lod: Signal<In, Bit>,
    /// `format=u16`: 2-byte elements (else 4): `E`
    pub surf_u16: Signal<In, Bit>,
    /// `d`
    pub second_b: Signal<In, Bits<COORD_BITS>>,

    // ---- result: the digit products summed by weight (see the module's table) ----
    pub p0: Signal<Out, Bits<P0_BITS>>,
    pub p16: Signal<Out, Bits<P16_BITS>>,
    pub p32: Signal<Out, Bits<P32_BITS>>,
    pub p48: Signal<Out, Bits<P48_BITS>>,

    // ---- datapath: one multiplier per digit product, the second of a weight adding the first ----
    mul_00: MulAdd<DIGIT_BITS, DIGIT_BITS, P0_BITS>,
    mul_10: MulAdd<DIGIT_BITS, DIGIT_BITS, P16_BITS>,
    mul_01: MulAdd<DIGIT_BITS, DIGIT_BITS, P16_BITS>,
    mul_20: MulAdd<DIGIT_BITS, DIGIT_BITS, P32_BITS>,
    mul_11: MulAdd<DIGIT_BITS, DIGIT_BITS, P32_BITS>,
    mul_30: MulAdd<DIGIT_BITS, DIGIT_BITS, P48_BITS>,
    mul_21: MulAdd<DIGIT_BITS, DIGIT_BITS, P48_BITS>,
    zero_p0: Constant<Bits<P0_BITS>>,
    zero_p16: Constant<Bits<P16_BITS>>,
    zero_p32: Constant<Bits<P32_BITS>>,
    zero_p48: Constant<Bits<P48_BITS>>,

    // ---- locals ----
    /// `first`, scaled by `E` at lod.
    first: Signal<Local, Bits<ADDR_BITS>>,
}

impl Default for AddrMul {
    fn default() -> Self {
        assert_eq!(4 * DIGIT_BITS, ADDR_BITS, "AddrMul: `first` is four digits");
        assert_eq!(2 * DIGIT_BITS, COORD_BITS, "AddrMul: `d` is two digits");
        Self {
            walk_first: Default::default(),
            lane_first: Default::default(),
            at_lod: Default::default(),
            surf_u16: Default::default(),
            second_b: Default::default(),
            p0: Default::default(),
            p16: Default::default(),
            p32: Default::default(),
            p48: Default::default(),
            mul_00: Default::default(),
            mul_10: Default::default(),
            mul_01: Default::default(),
            mul_20: Default::default(),
            mul_11: Default::default(),
            mul_30: Default::default(),
            mul_21: Default::default(),
            zero_p0: Constant::new(0u64.to_bits()),
            zero_p16: Constant::new(0u64.to_bits()),
            zero_p32: Constant::new(0u64.to_bits()),
            zero_p48: Constant::new(0u64.to_bits()),
            first: Default::default(),
        }
    }
}

impl Logic for AddrMul {
    #[hdl_gen]
    fn update(&mut self) {
        self.first.next = self.walk_first.val();
        if self.at_lod.val() {
            self.first.next = self.lane_first.val() << 2;
            if self.surf_u16.val() {
                self.first.next = self.lane_first.val() << 1;
            }
        }
        // ---- sub-block inputs: wiring only (see unit.rs "Verilator") ----
        // mul_ij: digit i of `first` times digit j of `d`
        self.mul_00.a.next = self.first.val().get_bits::<DIGIT_BITS>(0);
        self.mul_00.b.next = self.second_b.val().get_bits::<DIGIT_BITS>(0);
        self.mul_00.c.next = self.zero_p0.val();
        self.mul_10.a.next = self.first.val().get_bits::<DIGIT_BITS>(16);
        self.mul_10.b.next = self.second_b.val().get_bits::<DIGIT_BITS>(0);
        self.mul_10.c.next = self.zero_p16.val();
        self.mul_01.a.next = self.first.val().get_bits::<DIGIT_BITS>(0);
        self.mul_01.b.next = self.second_b.val().get_bits::<DIGIT_BITS>(16);
        self.mul_01.c.next = self.mul_10.result.val();
        self.mul_20.a.next = self.first.val().get_bits::<DIGIT_BITS>(32);
        self.mul_20.b.next = self.second_b.val().get_bits::<DIGIT_BITS>(0);
        self.mul_20.c.next = self.zero_p32.val();
        self.mul_11.a.next = self.first.val().get_bits::<DIGIT_BITS>(16);
        self.mul_11.b.next = self.second_b.val().get_bits::<DIGIT_BITS>(16);
        self.mul_11.c.next = self.mul_20.result.val();
        self.mul_30.a.next = self.first.val().get_bits::<DIGIT_BITS>(48);
        self.mul_30.b.next = self.second_b.val().get_bits::<DIGIT_BITS>(0);
        self.mul_30.c.next = self.zero_p48.val();
        self.mul_21.a.next = self.first.val().get_bits::<DIGIT_BITS>(32);
        self.mul_21.b.next = self.second_b.val().get_bits::<DIGIT_BITS>(16);
        self.mul_21.c.next = self.mul_30.result.val();

        self.p0.next = self.mul_00.result.val();
        self.p16.next = self.mul_01.result.val();
        self.p32.next = self.mul_11.result.val();
        self.p48.next = self.mul_21.result.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addr_mul_synthesizes() {
        let mut uut = AddrMul::default();
        uut.connect_all();
        yosys_validate("atomport_addr_mul", &generate_verilog(&uut)).unwrap();
    }
}
