//! `LinePlace`: an element's place in its 16-byte line: the line's address,
//! the element's bit offset and its byte enables. Both units use it (the
//! pipelined unit in its line stage, `AddrFinish`; the serial unit in its
//! Check state). Combinational.

use rust_hdl::prelude::*;

use crate::elem_size::ElemSize;
use crate::widths::{ADDR_BITS, LINE_BIT_OFFSET_BITS, LINE_BYTES, SIZE_BITS};

/// An element's line, bit offset and byte enables (combinational).
#[derive(LogicBlock)]
pub struct LinePlace {
    /// The element's byte address.
    pub addr: Signal<In, Bits<ADDR_BITS>>,
    /// log2 bytes of the element.
    pub size: Signal<In, Bits<SIZE_BITS>>,
    /// The address aligned down to the line.
    pub line: Signal<Out, Bits<ADDR_BITS>>,
    /// Bit offset of the element in the line: `(addr % 16) * 8`.
    pub bit_offset: Signal<Out, Bits<LINE_BIT_OFFSET_BITS>>,
    /// Byte enables of the element in the line (bytes past the line's end dropped).
    pub byte_enables: Signal<Out, Bits<LINE_BYTES>>,

    /// the element's byte enables at byte 0
    enables: ElemSize<LINE_BYTES>,
    line_mask: Constant<Bits<ADDR_BITS>>,
    byte_in_line: Constant<Bits<LINE_BIT_OFFSET_BITS>>,
}

impl Default for LinePlace {
    fn default() -> Self {
        Self {
            addr: Default::default(),
            size: Default::default(),
            line: Default::default(),
            bit_offset: Default::default(),
            byte_enables: Default::default(),
            enables: ElemSize::enables(),
            line_mask: Constant::new((!(LINE_BYTES as u64 - 1)).to_bits()),
            byte_in_line: Constant::new((LINE_BYTES as u64 - 1).to_bits()),
        }
    }
}

impl Logic for LinePlace {
    #[hdl_gen]
    fn update(&mut self) {
        self.enables.size.next = self.size.val();
        self.line.next = self.addr.val() & self.line_mask.val();
        self.bit_offset.next = (self.addr.val().get_bits::<LINE_BIT_OFFSET_BITS>(0) & self.byte_in_line.val()) << 3;
        self.byte_enables.next = self.enables.value.val() << self.addr.val().get_bits::<4>(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_place_synthesizes() {
        let mut uut = LinePlace::default();
        uut.connect_all();
        yosys_validate("atomport_line_place", &generate_verilog(&uut)).unwrap();
    }

    /// Every byte lane with every size, and addresses with high bits set,
    /// in Icarus, against the placement computed here.
    #[test]
    fn the_verilog_places_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = LinePlace::default();
        uut.connect_all();
        let mut cases = Vec::new();
        for high in [0u64, 0x1230, 0xffff_ffff_ffff_fff0, 0x8000_0000_0000_0040] {
            for lane in 0..16u64 {
                for size in 0..5u32 {
                    cases.push((high | lane, size));
                }
            }
        }
        let mut bench = String::from(
            "module bench;\nreg [63:0] addr;\nreg [2:0] size;\nwire [63:0] line;\nwire [6:0] bit_offset;\nwire [15:0] byte_enables;\n\
             top uut(.addr(addr), .size(size), .line(line), .bit_offset(bit_offset), .byte_enables(byte_enables));\ninitial begin\n",
        );
        for (addr, size) in &cases {
            bench.push_str(&format!(
                "  addr = 64'h{addr:016x}; size = 3'd{size}; #1 $display(\"%h %0d %h\", line, bit_offset, byte_enables);\n"
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("line-place", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp output:\n{}", lines.join("\n"));
        for (line, (addr, size)) in lines.iter().zip(&cases) {
            let lane = addr % 16;
            let enables = (((1u32 << (1u32 << size)) - 1) << lane) & 0xffff;
            let want = format!("{:016x} {} {enables:04x}", addr & !15, lane * 8);
            assert_eq!(*line, want, "addr {addr:#x} size {size}");
        }
    }
}
