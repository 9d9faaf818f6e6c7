//! `EntryData`: one in-flight table entry's data (`ent_data`): its line (16 bytes, as four 32-bit
//! words) and its "read data returned" flag, with their updates.
//!
//! At each rising clock edge, per byte: a forwarded write's byte
//! (`wr_bytes`) loads `wr_data`; else, when this entry's read data returns
//! (`rd_valid` and `rd_this`), a byte not forwarded before (`rd_keep` clear)
//! loads `rd_data`. A returning read sets `returned`; the entry's
//! allocation (`clear_returned`) clears it (docs/microarchitecture.md,
//! "Same-address hazards").
//!
//! `rd_valid` and `rd_data` are the unit's `mem_rdata_valid` / `mem_rdata`
//! input ports, wired straight in: the return is taken in the cycle it is on
//! the port (no added latency, so the table's depth still covers the same
//! memory latency), yet no input port feeds the unit's combinational logic
//! (`CaptureReg`, "RTL structure rule (Verilator)"). So the update is
//! Verilog of its own: sequential only, one byte select per bit. The byte
//! updates sit inside one test of "any byte loads this cycle", which
//! changes nothing in the function or the netlist's behavior but lets
//! Verilator skip them in most cycles: the sixteen per-byte tests of the
//! eight entries were about a quarter of the unit's simulation time
//! (docs/synthesis.md, "Simulation speed").

use rust_hdl::prelude::*;

use crate::widths::{LINE_BYTES, WORD_BITS};
use crate::word_join::WORDS;

/// One entry's line and returned flag.
#[derive(LogicBlock, Default)]
pub struct EntryData {
    pub clock: Signal<In, Clock>,
    // ---- a forwarded write ----
    /// bytes the write loads (zero: no write this cycle)
    pub wr_bytes: Signal<In, Bits<LINE_BYTES>>,
    pub wr_data: Signal<In, Bits<{ 8 * LINE_BYTES }>>,
    // ---- the memory's read return ----
    /// `mem_rdata_valid`
    pub rd_valid: Signal<In, Bit>,
    /// `mem_rdata`
    pub rd_data: Signal<In, Bits<{ 8 * LINE_BYTES }>>,
    /// the return, if any, is this entry's
    pub rd_this: Signal<In, Bit>,
    /// bytes a forwarded write already set: the return keeps out
    pub rd_keep: Signal<In, Bits<LINE_BYTES>>,
    // ---- allocation ----
    pub clear_returned: Signal<In, Bit>,
    // ---- state ----
    pub word0: Signal<Out, Bits<WORD_BITS>>,
    pub word1: Signal<Out, Bits<WORD_BITS>>,
    pub word2: Signal<Out, Bits<WORD_BITS>>,
    pub word3: Signal<Out, Bits<WORD_BITS>>,
    pub returned: Signal<Out, Bit>,
}

/// A line's bytes after one edge's updates (`EntryData`, `HeadLine`): a
/// forwarded write's byte (`wr_bytes`) loads `wr_data`, else, when the
/// read returns, a byte not in `rd_keep` loads `rd_data`.
pub(crate) fn updated_line(
    line: u128,
    wr_bytes: u64,
    wr_data: u128,
    returning: bool,
    rd_keep: u64,
    rd_data: u128,
) -> u128 {
    (0..LINE_BYTES).fold(line, |acc, j| {
        let mask = 0xffu128 << (8 * j);
        if wr_bytes >> j & 1 == 1 {
            (acc & !mask) | (wr_data & mask)
        } else if returning && rd_keep >> j & 1 == 0 {
            (acc & !mask) | (rd_data & mask)
        } else {
            acc
        }
    })
}

/// The same as Verilog, on `word0..3` with the update's ports named
/// `{prefix}wr_bytes`, `{prefix}rd_this`, `{prefix}rd_keep` (and `wr_data`,
/// `rd_valid`, `rd_data`), each statement indented by `indent`. The byte
/// updates sit inside one test of "any byte loads this cycle", which
/// changes nothing in the function but lets Verilator skip the sixteen byte
/// tests in the cycles that load no byte (most).
pub(crate) fn byte_updates_verilog(prefix: &str, indent: &str) -> String {
    let mut code = format!("{indent}if (({prefix}wr_bytes != {LINE_BYTES}'h0) | (rd_valid & {prefix}rd_this)) begin\n");
    for j in 0..LINE_BYTES {
        let (w, lo) = (j / (WORD_BITS / 8), 8 * (j % (WORD_BITS / 8)));
        let (hi, bits) = (lo + 7, format!("{}:{}", 8 * j + 7, 8 * j));
        code.push_str(&format!(
            "{indent}   if ({prefix}wr_bytes[{j}]) word{w}[{hi}:{lo}] <= wr_data[{bits}];\n{indent}   else if (rd_valid & {prefix}rd_this & !{prefix}rd_keep[{j}]) word{w}[{hi}:{lo}] <= rd_data[{bits}];\n"
        ));
    }
    code.push_str(&format!("{indent}end\n"));
    code
}

impl Logic for EntryData {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let returning = self.rd_valid.val() & self.rd_this.val();
            let words = [self.word0.val(), self.word1.val(), self.word2.val(), self.word3.val()];
            let line = (0..WORDS).fold(0u128, |acc, w| acc | (words[w].to_u128() << (WORD_BITS * w)));
            let line = updated_line(
                line,
                self.wr_bytes.val().to_u128() as u64,
                self.wr_data.val().to_u128(),
                returning,
                self.rd_keep.val().to_u128() as u64,
                self.rd_data.val().to_u128(),
            );
            let word = |w: usize| ((line >> (WORD_BITS * w)) & 0xffff_ffff).to_bits();
            self.word0.next = word(0);
            self.word1.next = word(1);
            self.word2.next = word(2);
            self.word3.next = word(3);
            if self.clear_returned.val() {
                self.returned.next = false;
            } else if returning {
                self.returned.next = true;
            }
        }
    }

    fn connect(&mut self) {
        self.word0.connect();
        self.word1.connect();
        self.word2.connect();
        self.word3.connect();
        self.returned.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut code = String::new();
        for w in 0..WORDS {
            code.push_str(&format!("initial begin\n   word{w} = {WORD_BITS}'h0;\nend\n\n"));
        }
        code.push_str("initial begin\n   returned = 1'h0;\nend\n\n");
        code.push_str("always @(posedge clock) begin\n");
        code.push_str(&byte_updates_verilog("", "   "));
        code.push_str("   if (clear_returned) returned <= 1'b0;\n   else if (rd_valid & rd_this) returned <= 1'b1;\nend\n");
        Verilog::Custom(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_data_synthesizes() {
        let mut uut = EntryData::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("if ((wr_bytes != 16'h0) | (rd_valid & rd_this)) begin"), "{vlog}");
        assert!(vlog.contains("if (wr_bytes[15]) word3[31:24] <= wr_data[127:120];"), "{vlog}");
        assert!(vlog.contains("else if (rd_valid & rd_this & !rd_keep[0]) word0[7:0] <= rd_data[7:0];"), "{vlog}");
        yosys_validate("atomport_entry_data", &vlog).unwrap();
    }

    /// The emitted Verilog in Icarus, edge by edge, against the documented
    /// per-byte update (a write's byte wins, else a returning read's byte not
    /// kept) and the returned flag (allocation clears it, a return sets it):
    /// seeded random steps, half of them loading no write and a quarter
    /// returning this entry's read; every flag case is seen.
    #[test]
    fn the_verilog_updates_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = EntryData::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0xa54f_f53a_5f1d_36f1u64);
        let mut wide = || (u128::from(next()) << 64) | u128::from(next());
        struct Step {
            wr_bytes: u16,
            wr_data: u128,
            rd_valid: bool,
            rd_data: u128,
            rd_this: bool,
            rd_keep: u16,
            clear: bool,
        }
        let mut steps = vec![];
        for _ in 0..1500 {
            let r = wide();
            steps.push(Step {
                wr_bytes: if r & 1 == 0 { 0 } else { (r >> 8) as u16 },
                wr_data: wide(),
                rd_valid: r >> 1 & 1 == 1,
                rd_data: wide(),
                rd_this: r >> 2 & 1 == 1,
                rd_keep: if r >> 3 & 1 == 1 { 0 } else { (r >> 24) as u16 },
                clear: (r >> 40) % 8 == 0,
            });
        }
        let mut bench = String::from(
            "module bench;\nreg clock = 0, rd_valid = 0, rd_this = 0, clear_returned = 0;\n\
             reg [15:0] wr_bytes = 0, rd_keep = 0; reg [127:0] wr_data = 0, rd_data = 0;\n\
             wire [31:0] word0, word1, word2, word3; wire returned;\n\
             top uut(.clock(clock), .wr_bytes(wr_bytes), .wr_data(wr_data), .rd_valid(rd_valid), .rd_data(rd_data),\n\
             .rd_this(rd_this), .rd_keep(rd_keep), .clear_returned(clear_returned), .word0(word0), .word1(word1),\n\
             .word2(word2), .word3(word3), .returned(returned));\n\
             initial begin\n  #1 $display(\"%h%h%h%h %b\", word3, word2, word1, word0, returned);\n",
        );
        for s in &steps {
            bench.push_str(&format!(
                "  wr_bytes = 16'h{:04x}; wr_data = 128'h{:032x}; rd_valid = {}; rd_data = 128'h{:032x}; rd_this = {}; \
                 rd_keep = 16'h{:04x}; clear_returned = {};\n  #1 clock = 1; #1 $display(\"%h%h%h%h %b\", word3, word2, word1, word0, returned); clock = 0;\n",
                s.wr_bytes,
                s.wr_data,
                u8::from(s.rd_valid),
                s.rd_data,
                u8::from(s.rd_this),
                s.rd_keep,
                u8::from(s.clear)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("entry-data", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), steps.len() + 1, "vvp printed {} lines for {} edges", lines.len(), steps.len());
        assert_eq!(lines[0], format!("{:032x} 0", 0), "power-up value");
        let (mut line, mut returned) = ([0u8; 16], false);
        let mut seen = std::collections::BTreeSet::new();
        for (i, (out, s)) in lines[1..].iter().zip(&steps).enumerate() {
            let returning = s.rd_valid && s.rd_this;
            seen.insert((s.wr_bytes != 0, s.rd_valid, s.rd_this, s.clear, returned));
            for (j, byte) in line.iter_mut().enumerate() {
                if s.wr_bytes >> j & 1 == 1 {
                    *byte = (s.wr_data >> (8 * j)) as u8;
                } else if returning && s.rd_keep >> j & 1 == 0 {
                    *byte = (s.rd_data >> (8 * j)) as u8;
                }
            }
            returned = !s.clear && (returned || returning);
            let hex: String = line.iter().rev().map(|b| format!("{b:02x}")).collect();
            assert_eq!(out, &format!("{hex} {}", u8::from(returned)), "edge {i}");
        }
        assert_eq!(seen.len(), 32, "flag cases seen: {seen:?}");
    }
}
