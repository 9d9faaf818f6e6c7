//! `HazardCompare`: whether an execute stage's element shares bytes with a
//! table head's: the same line, and a byte in common (combinational; the
//! unit compares the address spaces and whether the bytes are the same). The unit compares, one cycle ahead, the head it will
//! have against the stages as they will be, and registers the answers
//! (`hz_overlaps`, with `hz_same_bytes`), so that the head's leave decision
//! (`HeadSelect`'s `hazard`, then `head_enters`) starts at flip-flops
//! instead of behind 64-bit line compares (docs/microarchitecture.md
//! "Head registers").

use rust_hdl::prelude::*;

use crate::widths::LINE_BYTES;

/// One head-versus-stage compare (combinational).
#[derive(LogicBlock, Default)]
pub struct HazardCompare {
    /// The head's line and byte enables (the unit compares the address
    /// spaces: the head's may come from logic, and this block's inputs are
    /// wiring only, unit.rs "Verilator").
    pub head_line: Signal<In, Bits<64>>,
    pub head_byte_enables: Signal<In, Bits<LINE_BYTES>>,
    /// The stage's.
    pub stage_line: Signal<In, Bits<64>>,
    pub stage_byte_enables: Signal<In, Bits<LINE_BYTES>>,
    /// Same line, and a byte in common.
    pub overlaps: Signal<Out, Bit>,
}

impl Logic for HazardCompare {
    #[hdl_gen]
    fn update(&mut self) {
        self.overlaps.next = (self.head_line.val() == self.stage_line.val())
            & (self.head_byte_enables.val() & self.stage_byte_enables.val()).any();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hazard_compare_synthesizes() {
        let mut uut = HazardCompare::default();
        uut.connect_all();
        yosys_validate("atomport_hazard_compare", &generate_verilog(&uut)).unwrap();
    }
}
