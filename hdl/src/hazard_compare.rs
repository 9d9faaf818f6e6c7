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

    /// The emitted Verilog in Icarus against "same line, and a byte in
    /// common": lines equal or one bit apart (every bit), enables sharing
    /// exactly one byte (every byte) or none, and seeded random pairs.
    #[test]
    fn the_verilog_compares_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = HazardCompare::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0xbb67_ae85_84ca_a73bu64);
        // (head line, head enables, stage line, stage enables)
        let mut cases: Vec<(u64, u32, u64, u32)> = vec![];
        for bit in 0..64 {
            let line = next();
            cases.push((line, 0xffff, line ^ (1 << bit), 0xffff));
            cases.push((line, 1 << (bit % 16), line, 1 << (bit % 16)));
        }
        for byte in 0..LINE_BYTES {
            let line = next();
            let head = (next() as u32 & 0xffff) | (1 << byte);
            let stage = (!head & 0xffff) | (1 << byte);
            cases.push((line, head, line, stage));
            cases.push((line, head & !(1 << byte), line, stage));
            cases.push((line, head, line, !head & 0xffff));
        }
        cases.push((0, 0, 0, 0));
        cases.push((u64::MAX, 0xffff, u64::MAX, 0xffff));
        for _ in 0..400 {
            let line = next();
            let stage_line = if next().is_multiple_of(2) { line } else { next() };
            cases.push((line, (next() & 0xffff) as u32, stage_line, (next() & 0xffff) as u32));
        }
        let mut bench = String::from(
            "module bench;\nreg [63:0] head_line, stage_line; reg [15:0] head_byte_enables, stage_byte_enables;\nwire overlaps;\n\
             top uut(.head_line(head_line), .head_byte_enables(head_byte_enables), .stage_line(stage_line),\n\
             .stage_byte_enables(stage_byte_enables), .overlaps(overlaps));\ninitial begin\n",
        );
        for &(hl, he, sl, se) in &cases {
            bench.push_str(&format!(
                "  head_line = 64'h{hl:016x}; head_byte_enables = 16'h{he:04x}; stage_line = 64'h{sl:016x}; \
                 stage_byte_enables = 16'h{se:04x}; #1 $display(\"%b\", overlaps);\n"
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("hazard-compare", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        let mut both = [0usize; 2];
        for (line, &(hl, he, sl, se)) in lines.iter().zip(&cases) {
            let overlaps = hl == sl && (0..LINE_BYTES).any(|b| he >> b & 1 == 1 && se >> b & 1 == 1);
            both[usize::from(overlaps)] += 1;
            assert_eq!(line, if overlaps { "1" } else { "0" }, "head {hl:016x}/{he:04x} stage {sl:016x}/{se:04x}");
        }
        assert!(both[0] > 100 && both[1] > 100, "both answers exercised: {both:?}");
    }
}
