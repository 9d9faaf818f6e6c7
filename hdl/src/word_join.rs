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
}
