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
    use atomport_core::golden::soft_float::{self, Format};

    #[test]
    fn fp_cmp_synthesizes() {
        let mut uut = FpCmp::<64>::default();
        uut.connect_all();
        yosys_validate("atomport_fp_cmp", &generate_verilog(&uut)).unwrap();
    }

    /// xorshift, the seed given
    use crate::icarus::xorshift;

    use crate::icarus::float_corners as corners;

    /// Drives `FpCmp<BITS>`'s Verilog in Icarus with every pair of corner
    /// values of each format, then seeded random pairs (random bits, and
    /// neighbours: one ulp apart, sign flipped) with random bits above the
    /// format's width, then inactive compares; checks every line against
    /// the golden soft-float (`is_nan`, `eq`, `less_signed_zero`, the last
    /// only where neither is NaN, as documented). Returns the lines checked.
    fn compare_like_the_model<const BITS: usize>(name: &str, formats: &[Format], seed: u64) -> usize {
        let mut uut = FpCmp::<BITS>::default();
        uut.connect_all();
        let mut next = xorshift(seed);
        let top_mask = if BITS == 64 { u64::MAX } else { (1u64 << BITS) - 1 };
        let mut cases: Vec<(bool, Format, u64, u64)> = vec![]; // (active, format, a, b)
        for &f in formats {
            let c = corners(f);
            for &a in &c {
                for &b in &c {
                    cases.push((true, f, a, b));
                }
            }
            for _ in 0..300 {
                let junk = |x: u64| x & top_mask & !f.mask();
                let a = next() & f.mask();
                let b = match next() % 3 {
                    0 => next() & f.mask(),
                    1 => a.wrapping_add(1) & f.mask(),
                    _ => a ^ f.sign_bit(),
                };
                cases.push((true, f, a | junk(next()), b | junk(next())));
            }
        }
        for _ in 0..10 {
            cases.push((false, formats[0], next() & top_mask, next() & top_mask));
        }
        let digits = BITS / 4;
        let mut bench = format!(
            "module bench;\nreg active; reg [{t}:0] sign_bit, width_mask, inf, a, b; wire a_nan, b_nan, equal, less;\n\
             top uut(.active(active), .sign_bit(sign_bit), .width_mask(width_mask), .inf(inf), .a(a), .b(b),\n\
             .a_nan(a_nan), .b_nan(b_nan), .equal(equal), .less(less));\ninitial begin\n",
            t = BITS - 1
        );
        for &(active, f, a, b) in &cases {
            bench.push_str(&format!(
                "  active = {}; sign_bit = {BITS}'h{:0digits$x}; width_mask = {BITS}'h{:0digits$x}; inf = {BITS}'h{:0digits$x};\n  \
                 a = {BITS}'h{a:0digits$x}; b = {BITS}'h{b:0digits$x}; #1 $display(\"%b%b%b%b\", a_nan, b_nan, equal, less);\n",
                u8::from(active),
                f.sign_bit(),
                f.mask(),
                f.inf()
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run(name, &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, &(active, f, a, b)) in lines.iter().zip(&cases) {
            let what = format!("{f:?} a {a:#x} b {b:#x} active {active}");
            if !active {
                assert_eq!(line, "0000", "{what}");
                continue;
            }
            let (a, b) = (a & f.mask(), b & f.mask());
            let (a_nan, b_nan) = (f.is_nan(a), f.is_nan(b));
            let bit = |x: bool| if x { '1' } else { '0' };
            let head: String = [bit(a_nan), bit(b_nan), bit(soft_float::eq(f, a, b))].iter().collect();
            assert_eq!(&line[..3], head, "{what}");
            if !a_nan && !b_nan {
                assert_eq!(&line[3..], bit(soft_float::less_signed_zero(f, a, b)).to_string(), "{what}");
            }
        }
        lines.len()
    }

    /// The wide instance (every format in the low bits of 64) in Icarus
    /// against the golden soft-float.
    #[test]
    fn the_wide_verilog_compares_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let checked = compare_like_the_model::<64>("fp-cmp-64", &Format::ALL, 0x9b05_688c_2b3e_6c1f);
        assert_eq!(checked, 4 * (400 + 300) + 10);
    }

    /// The half instance (f16, bf16) in Icarus against the golden soft-float.
    #[test]
    fn the_half_verilog_compares_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let checked = compare_like_the_model::<16>("fp-cmp-16", &[soft_float::F16, soft_float::BF16], 0x1f83_d9ab_fb41_bd6b);
        assert_eq!(checked, 2 * (400 + 300) + 10);
    }
}
