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
}
