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

    /// Operand pairs, in Icarus, one clock edge each, against the digit
    /// products of the documented split: the outputs hold the last edge's
    /// products until the next edge, and they sum to `walk_a * walk_b`.
    #[test]
    fn the_verilog_registers_the_products_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = WalkProduct::default();
        uut.connect_all();
        // digit corners, then a seeded xorshift set
        let corners = [0u32, 1, 0xffff, 0x1_0000, 0xffff_ffff, 0x8000_0000, 0x0001_ffff, 0xffff_0000];
        let mut pairs: Vec<(u32, u32)> = corners.iter().flat_map(|&a| corners.iter().map(move |&b| (a, b))).collect();
        let mut next = crate::icarus::xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..300 {
            let state = next();
            pairs.push((state as u32, (state >> 32) as u32));
        }
        let mut bench = String::from(
            "module bench;\nreg clock = 0; reg [31:0] walk_a = 0, walk_b = 0;\nwire [31:0] p0, p16_b, p32; wire [32:0] p16;\n\
             top uut(.clock(clock), .walk_a(walk_a), .walk_b(walk_b), .p0(p0), .p16(p16), .p16_b(p16_b), .p32(p32));\n\
             initial begin\n",
        );
        // before each edge (new operands, old products) and after it
        for (a, b) in &pairs {
            bench.push_str(&format!(
                "  walk_a = 32'h{a:08x}; walk_b = 32'h{b:08x}; #1 $write(\"%h %h %h %h \", p0, p16, p16_b, p32); clock = 1; #1 $display(\"%h %h %h %h\", p0, p16, p16_b, p32); clock = 0; #1;\n"
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("walk-product", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), pairs.len(), "vvp output:\n{}", lines.join("\n"));
        let products = |a: u32, b: u32| {
            let (a_lo, a_hi, b_lo, b_hi) = (u64::from(a & 0xffff), u64::from(a >> 16), u64::from(b & 0xffff), u64::from(b >> 16));
            let p = (a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi);
            assert_eq!(p.0 + ((p.1 + p.2) << 16) + (p.3 << 32), u64::from(a) * u64::from(b), "the model's split");
            format!("{:08x} {:09x} {:08x} {:08x}", p.0, p.1, p.2, p.3)
        };
        // the outputs start at 0 (the Verilog's initial values)
        let mut held = "00000000 000000000 00000000 00000000".to_string();
        for (line, &(a, b)) in lines.iter().zip(&pairs) {
            let now = products(a, b);
            assert_eq!(*line, format!("{held} {now}"), "walk_a {a:#x} walk_b {b:#x}");
            held = now;
        }
    }
}
