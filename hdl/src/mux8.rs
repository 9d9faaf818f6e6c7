//! `Mux8`: one of eight `N`-bit inputs, picked by a 3-bit index, as a tree
//! of 2:1 multiplexers on the index's bits (three levels; on ECP5 one LUT4
//! pair, a PFUMX and an L6MUX21 per bit). The same selection written as
//! `if index == k` for k = 0..7 is a priority chain of eight multiplexers
//! that synthesis does not flatten: in `HeadSelect`, replacing it (together
//! with byte-multiple shifts) saved 2,464 ECP5 LUTs and 5.8 ns.
//! Combinational.

use rust_hdl::prelude::*;

/// `chosen = choice[index]` (combinational).
#[derive(LogicBlock)]
pub struct Mux8<const N: usize> {
    pub index: Signal<In, Bits<3>>,
    pub choice: [Signal<In, Bits<N>>; 8],
    pub chosen: Signal<Out, Bits<N>>,
    /// `choice[2j + index[0]]`
    pick1: [Signal<Local, Bits<N>>; 4],
    /// `pick1[2j + index[1]]`
    pick2: [Signal<Local, Bits<N>>; 2],
    /// `pick2[index[2]]` (`chosen` is written once per evaluation: an
    /// event-driven simulator sees no glitch on it, docs/microarchitecture.md
    /// "RTL structure rule")
    picked: Signal<Local, Bits<N>>,
}

impl<const N: usize> Default for Mux8<N> {
    fn default() -> Self {
        Self {
            index: Default::default(),
            choice: Default::default(),
            chosen: Default::default(),
            pick1: Default::default(),
            pick2: Default::default(),
            picked: Default::default(),
        }
    }
}

impl<const N: usize> Logic for Mux8<N> {
    #[hdl_gen]
    fn update(&mut self) {
        for j in 0..4 {
            self.pick1[j].next = self.choice[2 * j].val();
            if self.index.val().get_bit(0) {
                self.pick1[j].next = self.choice[2 * j + 1].val();
            }
        }
        for j in 0..2 {
            self.pick2[j].next = self.pick1[2 * j].val();
            if self.index.val().get_bit(1) {
                self.pick2[j].next = self.pick1[2 * j + 1].val();
            }
        }
        self.picked.next = self.pick2[0].val();
        if self.index.val().get_bit(2) {
            self.picked.next = self.pick2[1].val();
        }
        self.chosen.next = self.picked.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mux8_synthesizes() {
        let mut uut = Mux8::<16>::default();
        uut.connect_all();
        yosys_validate("atomport_mux8", &generate_verilog(&uut)).unwrap();
    }

    /// The emitted Verilog in Icarus against `chosen = choice[index]`: every
    /// index over seeded random sets of eight distinct inputs, and a one-hot
    /// set (one input all ones, the rest zero) for every index pair.
    #[test]
    fn the_verilog_picks_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = Mux8::<16>::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x3c6e_f372_fe94_f82bu64);
        let mut sets: Vec<[u16; 8]> = (0..8).map(|hot| core::array::from_fn(|k| if k == hot { 0xffff } else { 0 })).collect();
        while sets.len() < 72 {
            let set: [u16; 8] = core::array::from_fn(|_| next() as u16);
            if (0..8).all(|a| (0..a).all(|b| set[a] != set[b])) {
                sets.push(set);
            }
        }
        let mut bench = String::from(
            "module bench;\nreg [2:0] index; reg [15:0] c0, c1, c2, c3, c4, c5, c6, c7;\nwire [15:0] chosen;\ntop uut(.index(index)",
        );
        for k in 0..8 {
            bench.push_str(&format!(", .choice${k}(c{k})"));
        }
        bench.push_str(", .chosen(chosen));\ninitial begin\n");
        let mut want = vec![];
        for set in &sets {
            for (k, c) in set.iter().enumerate() {
                bench.push_str(&format!("  c{k} = 16'h{c:04x};"));
            }
            bench.push('\n');
            for (index, chosen) in set.iter().enumerate() {
                bench.push_str(&format!("  index = {index}; #1 $display(\"%h\", chosen);\n"));
                want.push(format!("{chosen:04x}"));
            }
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("mux8", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), sets.len() * 8, "vvp printed {} lines", lines.len());
        assert_eq!(lines, want);
    }
}
