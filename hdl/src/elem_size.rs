//! `ElemSize`: one quantity of an element-size code (log2 bytes, 0..=4):
//! its bytes, its byte enables or bit mask at byte 0 of a line, or the
//! address bits an aligned element has clear. The constructors are the one
//! definition of these sizes; both units take the ones they use (one
//! output each, so no block leaves an output unread). Codes past 4 never
//! leave the decoder and give 0. Combinational.

use rust_hdl::prelude::*;

use crate::widths::{ADDR_BITS, LINE_BITS, LINE_BYTES, SIZE_BITS};

/// Codes 0..=4: 1 to 16 bytes.
const SIZES: usize = 5;

/// One quantity of an element size (combinational).
#[derive(LogicBlock)]
pub struct ElemSize<const N: usize> {
    /// log2 bytes of the element.
    pub size: Signal<In, Bits<SIZE_BITS>>,
    /// The quantity for `size`.
    pub value: Signal<Out, Bits<N>>,

    table: [Constant<Bits<N>>; SIZES],
    zero: Constant<Bits<N>>,
}

impl<const N: usize> ElemSize<N> {
    /// The block giving `of(bytes)` for an element of `bytes` bytes.
    fn of(of: impl Fn(u32) -> u128) -> Self {
        Self {
            size: Default::default(),
            value: Default::default(),
            table: core::array::from_fn(|s| Constant::new(of(1 << s).to_bits())),
            zero: Constant::new(0u128.to_bits()),
        }
    }
}

impl ElemSize<ADDR_BITS> {
    /// `1 << size`: the element's bytes.
    pub fn bytes() -> Self {
        Self::of(u128::from)
    }
}

impl ElemSize<LINE_BYTES> {
    /// The element's byte enables at byte 0 of a line: the low `1 << size`.
    pub fn enables() -> Self {
        Self::of(|bytes| (1u128 << bytes) - 1)
    }
}

impl ElemSize<LINE_BITS> {
    /// The element's bits at bit 0 of a line: the low `8 << size`.
    pub fn mask() -> Self {
        Self::of(|bytes| if bytes == 16 { u128::MAX } else { (1u128 << (8 * bytes)) - 1 })
    }
}

impl ElemSize<4> {
    /// The address bits an aligned element has clear: `(1 << size) - 1`.
    pub fn align() -> Self {
        Self::of(|bytes| u128::from(bytes) - 1)
    }
}

impl<const N: usize> Logic for ElemSize<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.value.next = self.zero.val();
        for s in 0..SIZES {
            if self.size.val().index() == s {
                self.value.next = self.table[s].val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `uut`'s Verilog for every code (0..=7), in Icarus: the values printed in hex.
    fn run<const N: usize>(name: &str, mut uut: ElemSize<N>) -> Vec<String> {
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate(&format!("atomport_elem_size_{name}"), &vlog).unwrap();
        if !crate::icarus::available() {
            return Vec::new();
        }
        let mut bench = format!(
            "module bench;\nreg [2:0] size;\nwire [{}:0] value;\ntop uut(.size(size), .value(value));\ninitial begin\n",
            N - 1
        );
        for s in 0..8 {
            bench.push_str(&format!("  size = 3'd{s}; #1 $display(\"%h\", value);\n"));
        }
        bench.push_str("end\nendmodule\n");
        crate::icarus::run(&format!("elem-size-{name}"), &vlog, &bench)
    }

    /// The sizes written out by hand, codes 0..=4, then 5..=7 giving 0.
    fn expect(name: &str, got: Vec<String>, want: [&str; 5], zero: &str) {
        if got.is_empty() {
            return; // no iverilog here (icarus::available said so)
        }
        let mut all: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        all.extend(std::iter::repeat(zero.to_string()).take(3));
        assert_eq!(got, all, "{name}");
    }

    #[test]
    fn the_verilog_decodes_bytes() {
        let z = "0000000000000000";
        let b = |v: u64| format!("{v:016x}");
        expect("bytes", run("bytes", ElemSize::bytes()), [&b(1), &b(2), &b(4), &b(8), &b(16)], z);
    }

    #[test]
    fn the_verilog_decodes_enables() {
        expect("enables", run("enables", ElemSize::enables()), ["0001", "0003", "000f", "00ff", "ffff"], "0000");
    }

    #[test]
    fn the_verilog_decodes_masks() {
        let m = |bytes: usize| format!("{:0>32}", "ff".repeat(bytes));
        expect("mask", run("mask", ElemSize::mask()), [&m(1), &m(2), &m(4), &m(8), &m(16)], &"0".repeat(32));
    }

    #[test]
    fn the_verilog_decodes_alignment() {
        expect("align", run("align", ElemSize::align()), ["0", "1", "3", "7", "f"], "0");
    }
}
