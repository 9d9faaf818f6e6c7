//! `WalkProduct`: a typed walk step's multiply `walk_a * walk_b` as four
//! 16 x 16 digit products at flip-flops, loaded every cycle from the walk
//! operands `TypedAddr` gives at the current walk state. The issue stage
//! sums them (`TypedAddr`'s `PartialSum`) in the cycle after, the cycle the
//! walk step issues: the walk state is stable for a cycle before any step
//! (`typed_walk_stale`, `t_walk`, `l_walk` in unit.rs), so the step's
//! product is the same as the one-cycle 32 x 32 multiply of operands held
//! a cycle (`MulAdd` on `typed_walk_a`/`typed_walk_b`), with the
//! multipliers' outputs at flip-flops instead of in front of two carry
//! chains (that path measured 14.46 ns on ECP5, docs/synthesis.md).
//! Sequential; the products are `LaneCoordReg`'s digit products.

use rust_hdl::prelude::*;

use crate::addr_mul::{DIGIT_BITS, P0_BITS, P16_BITS, P32_BITS};
use crate::lane_coord_reg::{digit_products_verilog, LaneCoordReg};
use crate::widths::COORD_BITS;

/// At every rising edge: `walk_a * walk_b = p0 + (p16 + p16_b) * 2^16 + p32 * 2^32`.
#[derive(LogicBlock, Default)]
pub struct WalkProduct {
    pub clock: Signal<In, Clock>,
    pub walk_a: Signal<In, Bits<COORD_BITS>>,
    pub walk_b: Signal<In, Bits<COORD_BITS>>,
    /// `a_lo * b_lo`, `a_lo * b_hi` (its top bit 0, the width `PartialSum`
    /// takes), `a_hi * b_lo`, `a_hi * b_hi`
    pub p0: Signal<Out, Bits<P0_BITS>>,
    pub p16: Signal<Out, Bits<P16_BITS>>,
    pub p16_b: Signal<Out, Bits<P0_BITS>>,
    pub p32: Signal<Out, Bits<P32_BITS>>,
}

impl Logic for WalkProduct {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let (p0, p16, p16_b, p32) =
                LaneCoordReg::product(self.walk_a.val().to_u128() as u32, self.walk_b.val().to_u128() as u32);
            self.p0.next = (p0 as u128).to_bits();
            self.p16.next = (p16 as u128).to_bits();
            self.p16_b.next = (p16_b as u128).to_bits();
            self.p32.next = (p32 as u128).to_bits();
        }
    }

    fn connect(&mut self) {
        self.p0.connect();
        self.p16.connect();
        self.p16_b.connect();
        self.p32.connect();
    }

    fn hdl(&self) -> Verilog {
        let (w_1, dw, dw_1) = (COORD_BITS - 1, DIGIT_BITS, DIGIT_BITS - 1);
        let products = digit_products_verilog("   ", ("a_lo", "a_hi"), ("b_lo", "b_hi"));
        Verilog::Custom(format!(
            "\
initial begin
   p0 = {P0_BITS}'h0;
end
initial begin
   p16 = {P16_BITS}'h0;
end
initial begin
   p16_b = {P0_BITS}'h0;
end
initial begin
   p32 = {P32_BITS}'h0;
end

wire [{dw_1}:0] a_lo = walk_a[{dw_1}:0];
wire [{dw_1}:0] a_hi = walk_a[{w_1}:{dw}];
wire [{dw_1}:0] b_lo = walk_b[{dw_1}:0];
wire [{dw_1}:0] b_hi = walk_b[{w_1}:{dw}];

always @(posedge clock) begin
{products}end
"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_product_synthesizes() {
        let mut uut = WalkProduct::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("p16 <= {17'b0, a_lo} * {17'b0, b_hi};"), "{vlog}");
        assert!(vlog.contains("p16_b <= {16'b0, a_hi} * {16'b0, b_lo};"), "{vlog}");
        yosys_validate("atomport_walk_product", &vlog).unwrap();
    }
}
