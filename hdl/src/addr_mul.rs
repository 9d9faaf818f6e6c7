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

    /// Operands in Icarus against the module's table: `first` picked and
    /// scaled by `E` at lod, the digit products summed by weight, and the
    /// four outputs adding up to `first * d` modulo 2^64.
    #[test]
    fn the_verilog_multiplies_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = AddrMul::default();
        uut.connect_all();
        // (walk_first, lane_first, at_lod, surf_u16, second_b): digit
        // corners with each select, then a seeded xorshift set
        let corners64 = [0u64, 1, 0xffff, 0xffff_ffff_ffff_ffff, 0x8000_0000_0000_0000, 0x0000_ffff_0000_ffff, 0xffff_0000_ffff_0000, 0x4000_0000_0000_0001];
        let corners32 = [0u32, 1, 0xffff, 0x1_0000, 0xffff_ffff, 0x8000_0000];
        let mut cases = Vec::new();
        for (i, &x) in corners64.iter().enumerate() {
            let other = corners64[(i + 3) % corners64.len()];
            for &d in &corners32 {
                for sel in 0..4u8 {
                    cases.push((x, other, sel & 1 != 0, sel & 2 != 0, d));
                    cases.push((other, x, sel & 1 != 0, sel & 2 != 0, d));
                }
            }
        }
        let mut next = crate::icarus::xorshift(0x2545_f491_4f6c_dd1du64);
        for _ in 0..400 {
            let (w, l, sel, d) = (next(), next(), next(), next());
            cases.push((w, l, sel & 1 != 0, sel & 2 != 0, d as u32));
        }
        let mut bench = String::from(
            "module bench;\nreg [63:0] walk_first, lane_first; reg at_lod, surf_u16; reg [31:0] second_b;\n\
             wire [31:0] p0, p32; wire [32:0] p16; wire [15:0] p48;\n\
             top uut(.walk_first(walk_first), .lane_first(lane_first), .at_lod(at_lod), .surf_u16(surf_u16),\n\
             .second_b(second_b), .p0(p0), .p16(p16), .p32(p32), .p48(p48));\ninitial begin\n",
        );
        for (w, l, at_lod, u16, d) in &cases {
            bench.push_str(&format!(
                "  walk_first = 64'h{w:016x}; lane_first = 64'h{l:016x}; at_lod = {}; surf_u16 = {}; second_b = 32'h{d:08x};\n\
                 \x20 #1 $display(\"%h %h %h %h\", p0, p16, p32, p48);\n",
                u8::from(*at_lod),
                u8::from(*u16)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("addr-mul", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp output:\n{}", lines.join("\n"));
        for (line, &(w, l, at_lod, u16, d)) in lines.iter().zip(&cases) {
            // at lod the lane's index times E (2 for u16, else 4), modulo 2^64
            let first = if at_lod { l.wrapping_mul(if u16 { 2 } else { 4 }) } else { w };
            let a = |i: u32| u128::from((first >> (16 * i)) & 0xffff);
            let b = |j: u32| u128::from((d >> (16 * j)) & 0xffff);
            let p0 = a(0) * b(0);
            let p16 = a(0) * b(1) + a(1) * b(0);
            let p32 = (a(1) * b(1) + a(2) * b(0)) & 0xffff_ffff;
            let p48 = (a(2) * b(1) + a(3) * b(0)) & 0xffff;
            let sum = p0 + (p16 << 16) + (p32 << 32) + (p48 << 48);
            assert_eq!(sum as u64, first.wrapping_mul(u64::from(d)), "the model's table");
            let want = format!("{p0:08x} {p16:09x} {p32:08x} {p48:04x}");
            assert_eq!(*line, want, "walk_first {w:#x} lane_first {l:#x} at_lod {at_lod} u16 {u16} d {d:#x}");
        }
    }
}
