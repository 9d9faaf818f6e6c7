//! `WriteAlign`: the write stage's element placed in its 16-byte line: the
//! line's data (`value` shifted up to the element's byte) and the bit mask
//! of its bytes (each byte enable spread over its eight bits).
//!
//! The element's bit offset is a byte multiple, so the shift masks its low
//! three bits to constant zeros and synthesis builds a byte shifter (4
//! levels, not 7); the bit mask is the byte enables' wiring, no shifter at
//! all. The unit writes `data` to memory and forwards `data`/`mask` into the
//! table's entries; `HeadSelect` merges them into the head's line.
//! Combinational.

use rust_hdl::prelude::*;

use crate::widths::{LINE_BITS, LINE_BYTES};

/// The element in its line (combinational).
#[derive(LogicBlock)]
pub struct WriteAlign {
    /// The element's value, at bit 0.
    pub value: Signal<In, Bits<LINE_BITS>>,
    /// Its bit offset in the line (a byte multiple).
    pub bit_offset: Signal<In, Bits<7>>,
    /// Its bytes in the line.
    pub byte_enables: Signal<In, Bits<LINE_BYTES>>,
    /// `value << bit_offset`
    pub data: Signal<Out, Bits<LINE_BITS>>,
    /// Ones over the enabled bytes.
    pub mask: Signal<Out, Bits<LINE_BITS>>,

    /// `byte_ones[b]`: ones over byte b
    byte_ones: [Constant<Bits<LINE_BITS>>; LINE_BYTES],
    byte_aligned: Constant<Bits<7>>,
    zero_line: Constant<Bits<LINE_BITS>>,
    spread: Signal<Local, Bits<LINE_BITS>>,
}

impl Default for WriteAlign {
    fn default() -> Self {
        Self {
            value: Default::default(),
            bit_offset: Default::default(),
            byte_enables: Default::default(),
            data: Default::default(),
            mask: Default::default(),
            byte_ones: core::array::from_fn(|b| Constant::new((0xffu128 << (8 * b)).to_bits())),
            byte_aligned: Constant::new(0x78u64.to_bits()),
            zero_line: Constant::new(0u64.to_bits()),
            spread: Default::default(),
        }
    }
}

impl Logic for WriteAlign {
    #[hdl_gen]
    fn update(&mut self) {
        self.data.next = self.value.val() << (self.bit_offset.val() & self.byte_aligned.val());
        self.spread.next = self.zero_line.val();
        for b in 0..LINE_BYTES {
            if self.byte_enables.val().get_bit(b) {
                self.spread.next = self.spread.val() | self.byte_ones[b].val();
            }
        }
        self.mask.next = self.spread.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_align_synthesizes() {
        let mut uut = WriteAlign::default();
        uut.connect_all();
        yosys_validate("atomport_write_align", &generate_verilog(&uut)).unwrap();
    }

    /// The emitted Verilog in Icarus against the documented placement: every
    /// byte-multiple offset (the only offsets the unit gives it) with seeded
    /// random values and enables, then every byte-enable pattern.
    #[test]
    fn the_verilog_places_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = WriteAlign::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x6a09_e667_f3bc_c908u64);
        // (value, bit offset, byte enables): all-ones and one-bit values at
        // every offset, then random ones
        let mut cases: Vec<(u128, u32, u32)> = vec![];
        for byte in 0..LINE_BYTES as u32 {
            cases.push((u128::MAX, 8 * byte, 1 << byte));
            cases.push((1, 8 * byte, 0xffff));
            cases.push((1 << 127, 8 * byte, 0));
        }
        for _ in 0..600 {
            let value = (u128::from(next()) << 64) | u128::from(next());
            cases.push((value, 8 * (next() % 16) as u32, (next() & 0xffff) as u32));
        }
        let value_all = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
        let mut bench = String::from(
            "module bench;\nreg [127:0] value; reg [6:0] bit_offset; reg [15:0] byte_enables;\nwire [127:0] data, mask;\n\
             integer i;\ntop uut(.value(value), .bit_offset(bit_offset), .byte_enables(byte_enables), .data(data), .mask(mask));\n\
             initial begin\n",
        );
        for &(value, offset, enables) in &cases {
            bench.push_str(&format!(
                "  value = 128'h{value:032x}; bit_offset = {offset}; byte_enables = 16'h{enables:04x}; \
                 #1 $display(\"%h %h\", data, mask);\n"
            ));
        }
        // every enable pattern, the offset moving with it
        bench.push_str(&format!(
            "  value = 128'h{value_all:032x};\n  for (i = 0; i < 65536; i = i + 1) begin\n    \
             byte_enables = i; bit_offset = 8 * (i % 16); #1 $display(\"%h %h\", data, mask);\n  end\nend\nendmodule\n"
        ));
        for i in 0..65536u32 {
            cases.push((value_all, 8 * (i % 16), i));
        }
        let lines = crate::icarus::run("write-align", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, &(value, offset, enables)) in lines.iter().zip(&cases) {
            let data = value << offset;
            let mask = (0..LINE_BYTES).filter(|b| enables >> b & 1 == 1).fold(0u128, |m, b| m | (0xffu128 << (8 * b)));
            assert_eq!(line, &format!("{data:032x} {mask:032x}"), "value {value:032x} offset {offset} enables {enables:04x}");
        }
    }
}
