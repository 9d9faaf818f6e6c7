//! `HeadLine`: a copy of the in-flight table's head entry's line and
//! "read data returned" flag (`hq_data` in the unit), kept in registers of
//! its own so that the head's old value (`HeadSelect`: push and
//! write-stage merges, byte shift, element mask) and its leave decision
//! start at flip-flops rather than at `head_ptr`'s eight-way multiplexers
//! over the entries' 128-bit lines and flags (that mux tree and
//! `head_ptr`'s fan-out into it measured as the integer unit's critical
//! path, docs/synthesis.md "Design decisions, measured").
//!
//! Invariant: after every edge the copy equals `ent_data[head_ptr]`'s line
//! for the bytes that a forwarded write or the entry's read return wrote
//! since its allocation, which are all the bytes of a read-modify-write
//! entry by the time it can leave the table, and `returned` equals the
//! entry's flag from its allocation on (both are cleared then). At each
//! rising edge:
//! * the head stays (`advance` low): the copy takes the head entry's own
//!   updates (`head_*`), byte for byte as `EntryData` does: a forwarded
//!   write's byte loads `wr_data`, else a byte the returning read does not
//!   keep out loads `rd_data`;
//! * the head leaves (`advance`): the copy loads the next entry's line
//!   (`next_word*`, read at `head_next_ptr`, a register) with that entry's
//!   updates of the same edge (`next_*`).
//!
//! `rd_valid`/`rd_data` are the unit's memory read-return ports wired in
//! (sequential only, as `EntryData`: no input port feeds the unit's
//! combinational logic, docs/microarchitecture.md "RTL structure rule
//! (Verilator)").

use rust_hdl::prelude::*;

use crate::entry_data::{byte_updates_verilog, updated_line};
use crate::widths::{LINE_BYTES, WORD_BITS};
use crate::word_join::WORDS;

/// The head entry's line, as four 32-bit words.
#[derive(LogicBlock, Default)]
pub struct HeadLine {
    pub clock: Signal<In, Clock>,
    /// The head leaves the table at this edge.
    pub advance: Signal<In, Bit>,
    /// The entry after the head: its line now (four words).
    pub next_word: [Signal<In, Bits<WORD_BITS>>; WORDS],
    // ---- the forwarded write and the read return of this edge ----
    pub wr_data: Signal<In, Bits<{ 8 * LINE_BYTES }>>,
    /// `mem_rdata_valid`, `mem_rdata`
    pub rd_valid: Signal<In, Bit>,
    pub rd_data: Signal<In, Bits<{ 8 * LINE_BYTES }>>,
    // ---- the head entry's and the next entry's updates (`EntryData`'s inputs) ----
    pub head_wr_bytes: Signal<In, Bits<LINE_BYTES>>,
    pub head_rd_this: Signal<In, Bit>,
    pub head_rd_keep: Signal<In, Bits<LINE_BYTES>>,
    pub next_wr_bytes: Signal<In, Bits<LINE_BYTES>>,
    pub next_rd_this: Signal<In, Bit>,
    pub next_rd_keep: Signal<In, Bits<LINE_BYTES>>,
    /// The head entry / the next entry is being allocated (`EntryData`'s
    /// `clear_returned`), and the next entry's returned flag now.
    pub head_clear: Signal<In, Bit>,
    pub next_clear: Signal<In, Bit>,
    pub next_returned: Signal<In, Bit>,
    /// The head entry's line (four words).
    pub word0: Signal<Out, Bits<WORD_BITS>>,
    pub word1: Signal<Out, Bits<WORD_BITS>>,
    pub word2: Signal<Out, Bits<WORD_BITS>>,
    pub word3: Signal<Out, Bits<WORD_BITS>>,
    /// The head entry's read data has returned (`EntryData`'s `returned`).
    pub returned: Signal<Out, Bit>,
}

impl Logic for HeadLine {
    fn update(&mut self) {
        if !self.clock.pos_edge() {
            return;
        }
        let join = |w: [u128; WORDS]| (0..WORDS).fold(0u128, |acc, i| acc | (w[i] << (WORD_BITS * i)));
        let line = if self.advance.val() {
            updated_line(
                join(core::array::from_fn(|i| self.next_word[i].val().to_u128())),
                self.next_wr_bytes.val().to_u128() as u64,
                self.wr_data.val().to_u128(),
                self.rd_valid.val() & self.next_rd_this.val(),
                self.next_rd_keep.val().to_u128() as u64,
                self.rd_data.val().to_u128(),
            )
        } else {
            updated_line(
                join([self.word0.val(), self.word1.val(), self.word2.val(), self.word3.val()].map(|w| w.to_u128())),
                self.head_wr_bytes.val().to_u128() as u64,
                self.wr_data.val().to_u128(),
                self.rd_valid.val() & self.head_rd_this.val(),
                self.head_rd_keep.val().to_u128() as u64,
                self.rd_data.val().to_u128(),
            )
        };
        self.returned.next = if self.advance.val() {
            !self.next_clear.val() & (self.next_returned.val() | (self.rd_valid.val() & self.next_rd_this.val()))
        } else {
            !self.head_clear.val() & (self.returned.val() | (self.rd_valid.val() & self.head_rd_this.val()))
        };
        let word = |i: usize| ((line >> (WORD_BITS * i)) & 0xffff_ffff).to_bits();
        self.word0.next = word(0);
        self.word1.next = word(1);
        self.word2.next = word(2);
        self.word3.next = word(3);
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
        code.push_str("always @(posedge clock) begin\n   if (advance) begin\n");
        code.push_str("      returned <= !next_clear & (next_returned | (rd_valid & next_rd_this));\n");
        for w in 0..WORDS {
            code.push_str(&format!("      word{w} <= next_word${w};\n"));
        }
        code.push_str(&byte_updates_verilog("next_", "      "));
        code.push_str("   end else begin\n");
        code.push_str("      returned <= !head_clear & (returned | (rd_valid & head_rd_this));\n");
        code.push_str(&byte_updates_verilog("head_", "      "));
        code.push_str("   end\nend\n");
        Verilog::Custom(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_line_synthesizes() {
        let mut uut = HeadLine::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("word3 <= next_word$3;"), "{vlog}");
        assert!(vlog.contains("if (next_wr_bytes[15]) word3[31:24] <= wr_data[127:120];"), "{vlog}");
        assert!(
            vlog.contains("else if (rd_valid & head_rd_this & !head_rd_keep[0]) word0[7:0] <= rd_data[7:0];"),
            "{vlog}"
        );
        yosys_validate("atomport_head_line", &vlog).unwrap();
    }

    #[test]
    fn a_pushed_byte_beats_the_returning_read_and_a_kept_byte_holds() {
        let line = updated_line(0x11, 0b10, 0x2200, true, 0b100, 0x33_3333);
        assert_eq!(line, 0x00_2233, "byte 0 from the read, byte 1 from the write, byte 2 kept");
    }

    /// The emitted Verilog in Icarus, edge by edge, against a copy kept by
    /// the documented rules (power-up 0): staying, it takes the head's byte
    /// updates; leaving, the next entry's line with that entry's updates; a
    /// written byte beats a returned one, a kept byte ignores the return.
    /// Seeded random inputs. An allocation and a return to the same entry
    /// never share an edge (the unit's table cannot do both; the contract
    /// does not order them), so the stimulus leaves that case out.
    #[test]
    fn the_verilog_keeps_the_head_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = HeadLine::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0xcbbb_9d5d_c105_9ed8u64);
        let mut wide = || (u128::from(next()) << 64) | u128::from(next());
        struct Step {
            advance: bool,
            next_line: u128,
            wr_data: u128,
            rd_valid: bool,
            rd_data: u128,
            /// (wr_bytes, rd_this, rd_keep, clear) for the head, then the next entry
            head: (u16, bool, u16, bool),
            next: (u16, bool, u16, bool),
            next_returned: bool,
        }
        let mut steps = vec![];
        for _ in 0..800 {
            let bits = wide();
            let rd_valid = bits & 1 == 1;
            // sparse write bytes (a forwarded element is 1..8 bytes), half the time none
            let wr_bytes = |x: u128| if x & 1 == 0 { 0 } else { ((x >> 1) as u16) & ((x >> 17) as u16) };
            let entry = |x: u128| {
                let rd_this = (x >> 40) & 1 == 1;
                let clear = (x >> 41).is_multiple_of(8) && !(rd_valid && rd_this);
                (wr_bytes(x), rd_this, (x >> 48) as u16, clear)
            };
            steps.push(Step {
                advance: (bits >> 1).is_multiple_of(4),
                next_line: wide(),
                wr_data: wide(),
                rd_valid,
                rd_data: wide(),
                head: entry(wide()),
                next: entry(wide()),
                next_returned: (bits >> 4) & 1 == 1,
            });
        }
        let mut bench = String::from(
            "module bench;\nreg clock = 0, advance, rd_valid, head_rd_this, next_rd_this, head_clear, next_clear, next_returned;\n\
             reg [127:0] next_line, wr_data, rd_data; reg [15:0] head_wr_bytes, head_rd_keep, next_wr_bytes, next_rd_keep;\n\
             wire [31:0] word0, word1, word2, word3; wire returned;\n\
             top uut(.clock(clock), .advance(advance), .next_word$0(next_line[31:0]), .next_word$1(next_line[63:32]),\n\
             .next_word$2(next_line[95:64]), .next_word$3(next_line[127:96]), .wr_data(wr_data), .rd_valid(rd_valid),\n\
             .rd_data(rd_data), .head_wr_bytes(head_wr_bytes), .head_rd_this(head_rd_this), .head_rd_keep(head_rd_keep),\n\
             .next_wr_bytes(next_wr_bytes), .next_rd_this(next_rd_this), .next_rd_keep(next_rd_keep),\n\
             .head_clear(head_clear), .next_clear(next_clear), .next_returned(next_returned), .word0(word0), .word1(word1),\n\
             .word2(word2), .word3(word3), .returned(returned));\n\
             initial begin\n  #1 $display(\"%h%h%h%h %b\", word3, word2, word1, word0, returned);\n",
        );
        let b = |x: bool| u8::from(x);
        for s in &steps {
            bench.push_str(&format!(
                "  advance = {}; next_line = 128'h{:032x}; wr_data = 128'h{:032x}; rd_valid = {}; rd_data = 128'h{:032x};\n  \
                 head_wr_bytes = 16'h{:04x}; head_rd_this = {}; head_rd_keep = 16'h{:04x}; head_clear = {};\n  \
                 next_wr_bytes = 16'h{:04x}; next_rd_this = {}; next_rd_keep = 16'h{:04x}; next_clear = {}; next_returned = {};\n  \
                 #1 clock = 1; #1 $display(\"%h%h%h%h %b\", word3, word2, word1, word0, returned); clock = 0;\n",
                b(s.advance),
                s.next_line,
                s.wr_data,
                b(s.rd_valid),
                s.rd_data,
                s.head.0,
                b(s.head.1),
                s.head.2,
                b(s.head.3),
                s.next.0,
                b(s.next.1),
                s.next.2,
                b(s.next.3),
                b(s.next_returned)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("head-line", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), steps.len() + 1, "vvp printed {} lines", lines.len());
        let (mut line, mut returned) = (0u128, false);
        let mut want = vec![format!("{line:032x} 0")];
        let (mut written, mut from_read, mut kept_out) = (0, 0, 0);
        for s in &steps {
            let (base, (wr_bytes, rd_this, rd_keep, clear), flag) =
                if s.advance { (s.next_line, s.next, s.next_returned) } else { (line, s.head, returned) };
            let returning = s.rd_valid && rd_this;
            line = base;
            for byte in 0..LINE_BYTES {
                let ones = 0xffu128 << (8 * byte);
                if wr_bytes >> byte & 1 == 1 {
                    line = (line & !ones) | (s.wr_data & ones);
                    written += 1;
                } else if returning && rd_keep >> byte & 1 == 0 {
                    line = (line & !ones) | (s.rd_data & ones);
                    from_read += 1;
                } else if returning {
                    kept_out += 1;
                }
            }
            returned = !clear && (flag || returning);
            want.push(format!("{line:032x} {}", b(returned)));
        }
        assert!(written > 500 && from_read > 500 && kept_out > 500, "bytes written {written}, read {from_read}, kept out {kept_out}");
        for (i, (line, want)) in lines.iter().zip(&want).enumerate() {
            assert_eq!(line, want, "after edge {i}");
        }
    }
}
