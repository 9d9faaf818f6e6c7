//! `ZeroExtend`: widen an unsigned value with zero bits.
//!
//! rust-hdl has no width-changing expression that Verilator accepts without
//! a WIDTH warning (`bit_cast` becomes `x & N'hff..`, an AND of unequal
//! widths). This block is the one place that widens: its Verilog is the
//! concatenation `{{(N-M){1'b0}}, narrow}`.

use rust_hdl::prelude::*;

/// `wide = narrow` zero-extended from `M` to `N` bits (combinational).
#[derive(LogicBlock)]
pub struct ZeroExtend<const M: usize, const N: usize> {
    /// The value to widen.
    pub narrow: Signal<In, Bits<M>>,
    /// `narrow` with `N - M` zero bits on top.
    pub wide: Signal<Out, Bits<N>>,
}

impl<const M: usize, const N: usize> Default for ZeroExtend<M, N> {
    fn default() -> Self {
        assert!(M < N, "ZeroExtend widens: M = {M} must be below N = {N}");
        Self { narrow: Default::default(), wide: Default::default() }
    }
}

impl<const M: usize, const N: usize> Logic for ZeroExtend<M, N> {
    fn update(&mut self) {
        self.wide.next = bit_cast::<N, M>(self.narrow.val());
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("always @(*) wide = {{{{{}{{1'b0}}}}, narrow}};", N - M))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_extend_synthesizes() {
        let mut uut = ZeroExtend::<5, 64>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("wide = {{59{1'b0}}, narrow};"), "{vlog}");
        yosys_validate("atomport_zero_extend", &vlog).unwrap();
    }
}
