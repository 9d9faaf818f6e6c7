//! `EntryRam`: a field of the in-flight table that is written once, when
//! its entry is allocated, and read only at the head, as a small RAM with
//! one synchronous write port and one asynchronous read port.
//!
//! Held in flip-flops, such a field costs eight registers per bit plus an
//! 8:1 multiplexer tree at the head (four LUT4s per bit on ECP5). As a RAM
//! it maps to ECP5 distributed RAM (`TRELLIS_DPR16X4`, four bits of eight
//! entries each), whose read port is that multiplexer. Parts without
//! distributed RAM (iCE40) get flip-flops and the same multiplexer.
//!
//! Every row has a power-up value (0), one `initial` block per row; the
//! `x-unique` build removes them with the registers' (sim/build.rs), and
//! the unit never reads a row it has not written: the head only leaves the
//! table when its entry is valid.

use rust_hdl::prelude::*;

use crate::head_select::{INFLIGHT_DEPTH, INFLIGHT_INDEX_BITS};

/// One write-once field of the in-flight table's entries.
#[derive(LogicBlock)]
pub struct EntryRam<const W: usize> {
    pub clock: Signal<In, Clock>,
    // ---- write port (the allocated entry) ----
    pub write_enable: Signal<In, Bit>,
    pub write_index: Signal<In, Bits<INFLIGHT_INDEX_BITS>>,
    pub write_data: Signal<In, Bits<W>>,
    // ---- read port (the head; combinational) ----
    pub read_index: Signal<In, Bits<INFLIGHT_INDEX_BITS>>,
    pub read_data: Signal<Out, Bits<W>>,
    /// the rows, for rust-hdl's own simulator (the DUT is the Verilog)
    _rows: Box<[Bits<W>; INFLIGHT_DEPTH]>,
}

impl<const W: usize> Default for EntryRam<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            write_enable: Default::default(),
            write_index: Default::default(),
            write_data: Default::default(),
            read_index: Default::default(),
            read_data: Default::default(),
            _rows: Box::new([Bits::<W>::default(); INFLIGHT_DEPTH]),
        }
    }
}

impl<const W: usize> Logic for EntryRam<W> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.write_enable.val() {
            self._rows[self.write_index.val().index()] = self.write_data.val();
        }
        self.read_data.next = self._rows[self.read_index.val().index()];
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let rows: String = (0..INFLIGHT_DEPTH)
            .map(|r| format!("initial begin\n    rows[{r}] = {W}'h0;\nend\n"))
            .collect();
        Verilog::Custom(format!(
            "\
reg [{msb}:0] rows [0:{last}];

{rows}
always @(posedge clock) begin
    if (write_enable) begin
        rows[write_index] <= write_data;
    end
end

always @(*) begin
    read_data = rows[read_index];
end
",
            msb = W - 1,
            last = INFLIGHT_DEPTH - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_ram_synthesizes() {
        let mut uut = EntryRam::<128>::default();
        uut.connect_all();
        yosys_validate("atomport_entry_ram", &generate_verilog(&uut)).unwrap();
    }
}
