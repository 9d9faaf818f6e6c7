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

    /// The emitted Verilog in Icarus, edge by edge, against eight rows that
    /// power up 0, take `write_data` at `write_index` on an enabled edge and
    /// read at `read_index` without a clock: the read before and after each
    /// edge, seeded random writes and reads (same row as the write a quarter
    /// of the time), then every row read back.
    #[test]
    fn the_verilog_stores_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        const W: usize = 40;
        let mut uut = EntryRam::<W>::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x9b05_688c_2b3e_6c1fu64);
        let width_mask = (1u64 << W) - 1;
        // (write_enable, write_index, write_data, read_index)
        let steps: Vec<(bool, usize, u64, usize)> = (0..500)
            .map(|_| {
                let write_index = (next() % 8) as usize;
                let read_index = if next().is_multiple_of(4) { write_index } else { (next() % 8) as usize };
                (!next().is_multiple_of(3), write_index, next() & width_mask, read_index)
            })
            .collect();
        let mut bench = String::from(
            "module bench;\nreg clock = 0, write_enable = 0; reg [2:0] write_index = 0, read_index = 0; reg [39:0] write_data = 0;\n\
             wire [39:0] read_data;\n\
             top uut(.clock(clock), .write_enable(write_enable), .write_index(write_index), .write_data(write_data),\n\
             .read_index(read_index), .read_data(read_data));\ninitial begin\n",
        );
        for &(we, wi, wd, ri) in &steps {
            bench.push_str(&format!(
                "  write_enable = {}; write_index = {wi}; write_data = 40'h{wd:010x}; read_index = {ri}; \
                 #1 $display(\"%h\", read_data); clock = 1; #1 $display(\"%h\", read_data); clock = 0;\n",
                u8::from(we)
            ));
        }
        bench.push_str("  write_enable = 0;\n");
        for r in 0..8 {
            bench.push_str(&format!("  read_index = {r}; #1 $display(\"%h\", read_data);\n"));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("entry-ram", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), 2 * steps.len() + 8, "vvp printed {} lines", lines.len());
        let mut rows = [0u64; 8];
        let mut want = vec![];
        let mut read_own_write = 0;
        for &(we, wi, wd, ri) in &steps {
            want.push(format!("{:010x}", rows[ri]));
            if we {
                rows[wi] = wd;
                read_own_write += usize::from(wi == ri);
            }
            want.push(format!("{:010x}", rows[ri]));
        }
        want.extend(rows.iter().map(|r| format!("{r:010x}")));
        assert!(read_own_write > 50, "a write read back at its own edge {read_own_write} times");
        for (i, (line, want)) in lines.iter().zip(&want).enumerate() {
            assert_eq!(line, want, "line {i}");
        }
    }
}
