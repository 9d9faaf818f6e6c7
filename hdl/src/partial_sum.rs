//! `PartialSum`: the line stage's (L) half of the typed step's second
//! multiply-add: `index = first * d + e` modulo 2^64 from the digit
//! products of `first * d` that `AddrMul` summed by weight and T
//! registered (`p0`, `p16`, `p32`, `p48`: addr_mul.rs's table), and `e`.
//!
//! `p0` (bits 0..31) and `p32 + p48 * 2^16` (bits 32..63) do not overlap, so
//! they are one 64-bit term by concatenation, and the sum has three terms:
//! one 32-bit add, one layer of full adders and one 64-bit carry chain.
//! The issue stage's lane product (`LaneCoordReg`) gives its two digit
//! products of weight 2^16 apart (`p16`, `p16_b`: no adder behind its
//! multipliers), a fourth term; `AddrFinish` gives `p16_b` = 0.
//! (Written as the sum of the seven digit products, Yosys builds a
//! carry-save tree of eight terms: about 1,000 more ECP5 LUTs in the unit,
//! docs/synthesis.md.) Like `MulAdd`, a custom block: rust-hdl's width
//! rules give no shift of a narrow value into a wide one without a
//! Verilator WIDTH warning. Combinational.

use rust_hdl::prelude::*;

use crate::addr_mul::{DIGIT_BITS, P0_BITS, P16_BITS, P32_BITS, P48_BITS};
use crate::widths::ADDR_BITS;

/// `index = p0 + (p16 + p16_b) * 2^16 + p32 * 2^32 + p48 * 2^48 + e` modulo 2^64 (combinational).
#[derive(LogicBlock)]
pub struct PartialSum {
    /// The digit products summed by weight (`AddrMul`).
    pub p0: Signal<In, Bits<P0_BITS>>,
    pub p16: Signal<In, Bits<P16_BITS>>,
    /// a second term of weight 2^16
    pub p16_b: Signal<In, Bits<P0_BITS>>,
    pub p32: Signal<In, Bits<P32_BITS>>,
    pub p48: Signal<In, Bits<P48_BITS>>,
    /// `e`
    pub addend: Signal<In, Bits<ADDR_BITS>>,
    pub result: Signal<Out, Bits<ADDR_BITS>>,
}

impl Default for PartialSum {
    fn default() -> Self {
        assert_eq!(P0_BITS + P32_BITS, ADDR_BITS, "PartialSum: p0 and p32 are one term");
        assert_eq!(P48_BITS + DIGIT_BITS, P32_BITS, "PartialSum: p48 sits at bit 16 of p32");
        Self {
            p0: Default::default(),
            p16: Default::default(),
            p16_b: Default::default(),
            p32: Default::default(),
            p48: Default::default(),
            addend: Default::default(),
            result: Default::default(),
        }
    }
}

impl PartialSum {
    /// The block's function, for rust-hdl's simulator.
    pub fn model(p0: u64, p16: u64, p16_b: u64, p32: u64, p48: u64, addend: u64) -> u64 {
        p0.wrapping_add(p16 << DIGIT_BITS)
            .wrapping_add(p16_b << DIGIT_BITS)
            .wrapping_add(p32 << (2 * DIGIT_BITS))
            .wrapping_add(p48 << (3 * DIGIT_BITS))
            .wrapping_add(addend)
    }
}

impl Logic for PartialSum {
    fn update(&mut self) {
        let v = |x: u128| x as u64;
        self.result.next = (Self::model(
            v(self.p0.val().to_u128()),
            v(self.p16.val().to_u128()),
            v(self.p16_b.val().to_u128()),
            v(self.p32.val().to_u128()),
            v(self.p48.val().to_u128()),
            v(self.addend.val().to_u128()),
        ) as u128)
            .to_bits();
    }

    fn connect(&mut self) {
        self.result.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "always @(*) result = {{p32 + {{p48, {DIGIT_BITS}'b0}}, p0}} + {{{}'b0, p16, {DIGIT_BITS}'b0}} + {{{}'b0, p16_b, {DIGIT_BITS}'b0}} + addend;",
            ADDR_BITS - P16_BITS - DIGIT_BITS,
            ADDR_BITS - P0_BITS - DIGIT_BITS
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_sum_places_each_term_at_its_weight() {
        let mut uut = PartialSum::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(
            vlog.contains("result = {p32 + {p48, 16'b0}, p0} + {15'b0, p16, 16'b0} + {16'b0, p16_b, 16'b0} + addend;"),
            "{vlog}"
        );
        yosys_validate("atomport_partial_sum", &vlog).unwrap();
    }

    #[test]
    fn digit_products_summed_by_weight_are_the_product_modulo_2_64() {
        let first: u64 = 0x7654_3210_fedc_ba98;
        let d: u64 = 0xfedc_ba98;
        let e: u64 = 0x0123_4567_89ab_cdef;
        let digit = |x: u64, k: usize| (x >> (DIGIT_BITS * k)) & 0xffff;
        let m = |i: usize, j: usize| digit(first, i) * digit(d, j);
        // as AddrMul keeps them: p16 with its carry, p32 and p48 below 2^64
        let p16 = m(0, 1) + m(1, 0);
        let p32 = (m(1, 1) + m(2, 0)) & 0xffff_ffff;
        let p48 = (m(2, 1) + m(3, 0)) & 0xffff;
        assert!(p16 >> 32 == 1, "the test's p16 carries");
        assert_eq!(PartialSum::model(m(0, 0), p16, 0, p32, p48, e), first.wrapping_mul(d).wrapping_add(e));
        // the lane product's form: the two middle digit products apart
        let (a, b) = (first & 0xffff_ffff, d);
        let n = |x: u64, k: usize| (x >> (DIGIT_BITS * k)) & 0xffff;
        let q = |i: usize, j: usize| n(a, i) * n(b, j);
        assert_eq!(PartialSum::model(q(0, 0), q(0, 1), q(1, 0), q(1, 1), 0, e), (a * b).wrapping_add(e));
    }

    /// The emitted Verilog in Icarus against the documented sum (written
    /// here, not `PartialSum::model`): every term alone at its largest and
    /// at its top bit, all at their largest, then seeded random terms, and
    /// the digit products of random `first * d + e` (`AddrMul`'s form) and
    /// `a * b + e` (the lane product's).
    #[test]
    fn the_verilog_sums_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = PartialSum::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0xa54f_f53a_5f1d_36f1u64);
        let widths = [P0_BITS, P16_BITS, P0_BITS, P32_BITS, P48_BITS, ADDR_BITS];
        let ones = |bits: usize| if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        // (p0, p16, p16_b, p32, p48, addend) and the expected result
        let mut cases: Vec<([u64; 6], u64)> = vec![];
        let sum = |t: [u64; 6]| {
            t[0].wrapping_add((t[1] + t[2]) << 16).wrapping_add(t[3] << 32).wrapping_add(t[4] << 48).wrapping_add(t[5])
        };
        for (k, &bits) in widths.iter().enumerate() {
            for value in [ones(bits), 1 << (bits - 1)] {
                let mut t = [0; 6];
                t[k] = value;
                cases.push((t, sum(t)));
            }
        }
        let all = widths.map(ones);
        cases.push((all, sum(all)));
        for _ in 0..300 {
            let t = widths.map(|bits| next() & ones(bits));
            cases.push((t, sum(t)));
        }
        let digit = |x: u64, k: usize| (x >> (16 * k)) & 0xffff;
        for _ in 0..200 {
            // AddrMul: p16, p32, p48 summed by weight, p32 and p48 cut to their widths
            let (first, d, e) = (next(), next() & 0xffff_ffff, next());
            let m = |i: usize, j: usize| digit(first, i) * digit(d, j);
            let t = [m(0, 0), m(0, 1) + m(1, 0), 0, (m(1, 1) + m(2, 0)) & ones(P32_BITS), (m(2, 1) + m(3, 0)) & ones(P48_BITS), e];
            cases.push((t, first.wrapping_mul(d).wrapping_add(e)));
            // the lane product: the two digit products of weight 2^16 apart
            let (a, b) = (next() & 0xffff_ffff, next() & 0xffff_ffff);
            let n = |i: usize, j: usize| digit(a, i) * digit(b, j);
            cases.push(([n(0, 0), n(0, 1), n(1, 0), n(1, 1), 0, e], (a * b).wrapping_add(e)));
        }
        let mut bench = String::from(
            "module bench;\nreg [31:0] p0, p16_b, p32; reg [32:0] p16; reg [15:0] p48; reg [63:0] addend;\nwire [63:0] result;\n\
             top uut(.p0(p0), .p16(p16), .p16_b(p16_b), .p32(p32), .p48(p48), .addend(addend), .result(result));\n\
             initial begin\n",
        );
        for (t, _) in &cases {
            bench.push_str(&format!(
                "  p0 = 32'h{:x}; p16 = 33'h{:x}; p16_b = 32'h{:x}; p32 = 32'h{:x}; p48 = 16'h{:x}; addend = 64'h{:x}; \
                 #1 $display(\"%h\", result);\n",
                t[0], t[1], t[2], t[3], t[4], t[5]
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("partial-sum", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, (t, want)) in lines.iter().zip(&cases) {
            assert_eq!(line, &format!("{want:016x}"), "terms {t:x?}");
        }
    }
}
