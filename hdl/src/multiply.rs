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

    /// Runs one instance's Verilog in Icarus over operand corners (0, 1, the
    /// top bit, all ones) and seeded random operands, against `a * b + c`
    /// modulo 2^p written here; returns the patterns compared.
    fn check_instance(name: &str, vlog: &str, (a_bits, b_bits, p): (usize, usize, usize), seed: u64) -> usize {
        let mut random = crate::icarus::xorshift(seed);
        let mut next = move || u128::from(random());
        let ones = |bits: usize| (1u128 << bits) - 1;
        let corners = |bits: usize| [0, 1, 1u128 << (bits - 1), ones(bits)];
        let mut cases = vec![];
        for a in corners(a_bits) {
            for b in corners(b_bits) {
                for c in corners(p) {
                    cases.push((a, b, c));
                }
            }
        }
        for _ in 0..300 {
            cases.push((next() & ones(a_bits), next() & ones(b_bits), ((next() << 64) | next()) & ones(p)));
        }
        let mut bench = format!(
            "module bench;\nreg [{}:0] a; reg [{}:0] b; reg [{}:0] c;\nwire [{}:0] result;\n\
             top uut(.a(a), .b(b), .c(c), .result(result));\ninitial begin\n",
            a_bits - 1,
            b_bits - 1,
            p - 1,
            p - 1
        );
        for &(a, b, c) in &cases {
            bench.push_str(&format!("  a = {a_bits}'h{a:x}; b = {b_bits}'h{b:x}; c = {p}'h{c:x}; #1 $display(\"%h\", result);\n"));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run(name, vlog, &bench);
        assert_eq!(lines.len(), cases.len(), "{name}: vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, &(a, b, c)) in lines.iter().zip(&cases) {
            let want = (a * b + c) & ones(p); // a * b < 2^128 for every instance here
            assert_eq!(line, &format!("{want:0w$x}", w = p.div_ceil(4)), "{name}: a {a:x} b {b:x} c {c:x}");
        }
        cases.len()
    }

    /// The emitted Verilog of every instance the unit uses (`AddrMul`'s
    /// digit products: 16 x 16 into 16, 32 and 33 bits) and of wide ones
    /// (32 x 16 and 64 x 32 into 64 bits) in Icarus against the multiply-add
    /// modulo the result width.
    #[test]
    fn the_verilog_multiplies_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        fn vlog<const A: usize, const B: usize, const P: usize>() -> String {
            let mut uut = MulAdd::<A, B, P>::default();
            uut.connect_all();
            generate_verilog(&uut)
        }
        let mut total = 0;
        total += check_instance("mul-add-16-16-16", &vlog::<16, 16, 16>(), (16, 16, 16), 0x6a09_e667_bb67_ae85);
        total += check_instance("mul-add-16-16-32", &vlog::<16, 16, 32>(), (16, 16, 32), 0x3c6e_f372_a54f_f53a);
        total += check_instance("mul-add-16-16-33", &vlog::<16, 16, 33>(), (16, 16, 33), 0x510e_527f_9b05_688c);
        total += check_instance("mul-add-32-16-64", &vlog::<32, 16, 64>(), (32, 16, 64), 0x1f83_d9ab_5be0_cd19);
        total += check_instance("mul-add-64-32-64", &vlog::<64, 32, 64>(), (64, 32, 64), 0xcbbb_9d5d_629a_292a);
        assert_eq!(total, 5 * (64 + 300));
    }
}
