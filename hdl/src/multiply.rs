//! `MulAdd`: an unsigned multiply-add, `result = a * b + c` modulo 2^P.
//!
//! rust-hdl has `*` only for 16 x 16 bits, and its width rules for mixed
//! widths give Verilator WIDTH warnings; this block is the one place that
//! multiplies. Its Verilog is one `*` at the result's width, which Yosys
//! maps to the part's multipliers (ECP5 MULT18X18D, iCE40 UltraPlus
//! SB_MAC16) and Verilator evaluates as one machine multiply, where a
//! shift-add array is 64 chained adders per product (609 levels of logic
//! in the typed address step).

use rust_hdl::prelude::*;

/// `result = a * b + c` modulo 2^P, with `a` (`A` bits) and `b` (`B` bits)
/// zero-extended to `P` bits (combinational).
#[derive(LogicBlock)]
pub struct MulAdd<const A: usize, const B: usize, const P: usize> {
    pub a: Signal<In, Bits<A>>,
    pub b: Signal<In, Bits<B>>,
    pub c: Signal<In, Bits<P>>,
    pub result: Signal<Out, Bits<P>>,
}

impl<const A: usize, const B: usize, const P: usize> Default for MulAdd<A, B, P> {
    fn default() -> Self {
        assert!(A <= P && B <= P, "MulAdd: operands of {A} and {B} bits exceed the {P}-bit result");
        assert!(P <= 64, "MulAdd: a {P}-bit result does not fit the 128-bit software model");
        Self { a: Default::default(), b: Default::default(), c: Default::default(), result: Default::default() }
    }
}

impl<const A: usize, const B: usize, const P: usize> MulAdd<A, B, P> {
    /// `a * b + c` modulo 2^P (the block's function, for rust-hdl's simulator).
    pub fn model(a: u128, b: u128, c: u128) -> u128 {
        let mask = if P == 128 { u128::MAX } else { (1u128 << P) - 1 };
        a.wrapping_mul(b).wrapping_add(c) & mask
    }
}

impl<const A: usize, const B: usize, const P: usize> Logic for MulAdd<A, B, P> {
    fn update(&mut self) {
        self.result.next = Self::model(self.a.val().to_u128(), self.b.val().to_u128(), self.c.val().to_u128()).to_bits();
    }

    fn connect(&mut self) {
        self.result.connect();
    }

    fn hdl(&self) -> Verilog {
        let widen = |name: &str, bits: usize| {
            if bits == P {
                name.to_string()
            } else {
                format!("{{{{{}{{1'b0}}}}, {name}}}", P - bits)
            }
        };
        Verilog::Custom(format!("always @(*) result = ({} * {}) + c;", widen("a", A), widen("b", B)))
    }
}

#[cfg(test)]
mod multiply_tests {
    use super::*;

    #[test]
    fn mul_add_widens_both_operands_to_the_result() {
        let mut uut = MulAdd::<32, 16, 64>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("result = ({{32{1'b0}}, a} * {{48{1'b0}}, b}) + c;"), "{vlog}");
        yosys_validate("atomport_mul_add", &vlog).unwrap();
    }

    #[test]
    fn mul_add_software_model_wraps_at_the_result_width() {
        let got = MulAdd::<64, 32, 64>::model(u64::MAX as u128, 3, 5);
        assert_eq!(got, u64::MAX.wrapping_mul(3).wrapping_add(5) as u128);
        assert_eq!(MulAdd::<32, 32, 64>::model(u32::MAX as u128, u32::MAX as u128, u32::MAX as u128), u64::MAX as u128 - u32::MAX as u128);
    }
}
