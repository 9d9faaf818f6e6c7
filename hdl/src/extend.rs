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

    /// Runs one instance's Verilog in Icarus over a one walking through
    /// every narrow bit, all ones, and seeded random values, against the
    /// value with zeros on top (an undriven bit prints as x and fails);
    /// returns the patterns compared.
    fn check_instance(vlog: &str, (m, n): (usize, usize), seed: u64) -> usize {
        let mut random = crate::icarus::xorshift(seed);
        let mut next = move || u128::from(random());
        let ones = |bits: usize| if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
        let mut cases: Vec<u128> = (0..m).map(|b| 1u128 << b).collect();
        cases.push(ones(m));
        for _ in 0..100 {
            cases.push(((next() << 64) | next()) & ones(m));
        }
        let mut bench = format!(
            "module bench;\nreg [{}:0] narrow;\nwire [{}:0] wide;\ntop uut(.narrow(narrow), .wide(wide));\ninitial begin\n",
            m - 1,
            n - 1
        );
        for &x in &cases {
            bench.push_str(&format!("  narrow = {m}'h{x:x}; #1 $display(\"%h\", wide);\n"));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run(&format!("zero-extend-{m}-{n}"), vlog, &bench);
        assert_eq!(lines.len(), cases.len(), "{m} -> {n}: vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, &x) in lines.iter().zip(&cases) {
            assert_eq!(line, &format!("{x:0w$x}", w = n.div_ceil(4)), "{m} -> {n}: narrow {x:x}");
        }
        cases.len()
    }

    /// The emitted Verilog of every width pair the crate instantiates (32
    /// and 9, 12, 15, 57 bits to 64; 64 to 128) in Icarus against the value
    /// with zeros on top.
    #[test]
    fn the_verilog_widens_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        fn vlog<const M: usize, const N: usize>() -> String {
            let mut uut = ZeroExtend::<M, N>::default();
            uut.connect_all();
            generate_verilog(&uut)
        }
        let total = check_instance(&vlog::<32, 64>(), (32, 64), 0x6a09_e667_f3bc_c908)
            + check_instance(&vlog::<9, 64>(), (9, 64), 0xbb67_ae85_84ca_a73b)
            + check_instance(&vlog::<12, 64>(), (12, 64), 0x3c6e_f372_fe94_f82b)
            + check_instance(&vlog::<15, 64>(), (15, 64), 0xa54f_f53a_5f1d_36f1)
            + check_instance(&vlog::<57, 64>(), (57, 64), 0x510e_527f_ade6_82d1)
            + check_instance(&vlog::<64, 128>(), (64, 128), 0x9b05_688c_2b3e_6c1f);
        assert_eq!(total, 6 * 101 + 32 + 9 + 12 + 15 + 57 + 64);
    }
}
