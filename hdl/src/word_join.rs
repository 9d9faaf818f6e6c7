//! `WordJoin`: four 32-bit words as one 128-bit value, word 0 lowest
//! (combinational).
//!
//! The in-flight table holds each entry's line as four 32-bit registers so
//! that a byte update (forwarded write, returned read) touches one word: in
//! the Verilated model a byte load of a 128-bit register costs a four-word
//! temporary, and sixteen of them per entry were most of the simulation
//! speed the per-byte loads lost (docs/synthesis.md). Synthesis
//! sees the same flip-flops and clock enables. rust-hdl has no
//! concatenation Verilator accepts without a WIDTH warning, so the join is
//! custom Verilog (as in `ZeroExtend`).

use rust_hdl::prelude::*;

use crate::widths::WORD_BITS;

/// Words of a joined value.
pub const WORDS: usize = 4;

/// `whole = {word[3], word[2], word[1], word[0]}` (combinational).
#[derive(LogicBlock, Default)]
pub struct WordJoin {
    pub word: [Signal<In, Bits<WORD_BITS>>; WORDS],
    pub whole: Signal<Out, Bits<{ WORD_BITS * WORDS }>>,
}

impl Logic for WordJoin {
    fn update(&mut self) {
        let whole = (0..WORDS).fold(0u128, |acc, w| acc | (self.word[w].val().to_u128() << (WORD_BITS * w)));
        self.whole.next = whole.to_bits();
    }

    fn connect(&mut self) {
        self.whole.connect();
    }

    fn hdl(&self) -> Verilog {
        let words: Vec<String> = (0..WORDS).rev().map(|w| format!("word${w}")).collect();
        Verilog::Custom(format!("always @(*) whole = {{{}}};", words.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_join_synthesizes() {
        let mut uut = WordJoin::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("whole = {word$3, word$2, word$1, word$0};"), "{vlog}");
        yosys_validate("atomport_word_join", &vlog).unwrap();
    }

    /// The emitted Verilog in Icarus against word w at bits 32w..32w+31: a
    /// one walking through every bit of every word (so a swapped or shifted
    /// word shows), then seeded random words.
    #[test]
    fn the_verilog_joins_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = WordJoin::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x9b05_688c_1f83_d9abu64);
        let mut cases: Vec<[u32; WORDS]> = vec![];
        for w in 0..WORDS {
            for bit in 0..WORD_BITS {
                let mut words = [0; WORDS];
                words[w] = 1 << bit;
                cases.push(words);
            }
        }
        for _ in 0..200 {
            cases.push(core::array::from_fn(|_| next() as u32));
        }
        let mut bench = String::from(
            "module bench;\nreg [31:0] w0, w1, w2, w3;\nwire [127:0] whole;\n\
             top uut(.word$0(w0), .word$1(w1), .word$2(w2), .word$3(w3), .whole(whole));\ninitial begin\n",
        );
        for words in &cases {
            bench.push_str(&format!(
                "  w0 = 32'h{:x}; w1 = 32'h{:x}; w2 = 32'h{:x}; w3 = 32'h{:x}; #1 $display(\"%h\", whole);\n",
                words[0], words[1], words[2], words[3]
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("word-join", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, words) in lines.iter().zip(&cases) {
            let whole = words.iter().enumerate().fold(0u128, |acc, (w, &x)| acc | u128::from(x) << (32 * w));
            assert_eq!(line, &format!("{whole:032x}"), "words {words:x?}");
        }
    }
}
