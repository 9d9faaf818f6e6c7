//! `StateReg`: a D flip-flop for a `LogicState` enum.
//!
//! rust-hdl's `DFF<T>` initializes `q` with `T::default().verilog()`, which
//! for an enum is a 64-bit literal: `q = 64'h0` on a 1-bit state register is
//! a Verilator WIDTH warning. This is the same flip-flop with the initial
//! value sized to the enum (`T::BITS`). The initial value is the enum's
//! default (its first variant), which is also the reset state.

use rust_hdl::prelude::*;

/// A D flip-flop whose power-up value is `T::default()`, sized to `T::BITS`.
#[derive(Clone, Debug, LogicBlock)]
pub struct StateReg<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub clock: Signal<In, Clock>,
}

impl<T: Synth> Default for StateReg<T> {
    fn default() -> Self {
        Self { d: Default::default(), q: Default::default(), clock: Default::default() }
    }
}

impl<T: Synth> Logic for StateReg<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = self.d.val()
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        // `{:x}` of a literal is `<its width>'h<value>`: keep the value, size it to T
        let literal = format!("{:x}", T::default().verilog());
        let value = literal.rsplit('h').next().unwrap_or("0").to_string();
        Verilog::Custom(format!(
            "initial begin\n   q = {}'h{};\nend\n\nalways @(posedge clock) begin\n   q <= d;\nend\n",
            T::BITS,
            value
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "state_reg".into(),
            clock: "clock".into(),
            inputs: vec!["d".into()],
            outputs: vec!["q".into()],
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Copy, Clone, Debug, PartialEq, LogicState)]
    enum Phase {
        Idle,
        Busy,
        Done,
    }

    #[test]
    fn state_reg_sizes_its_initial_value() {
        let mut uut = StateReg::<Phase>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("q = 2'h0;"), "{vlog}");
        yosys_validate("atomport_state_reg", &vlog).unwrap();
        assert_eq!(Phase::default(), Phase::Idle);
        let _ = (Phase::Busy, Phase::Done);
    }

    /// The emitted Verilog in Icarus, edge by edge, against a flip-flop that
    /// powers up in the first variant (0) and takes `d` at every edge: a
    /// seeded random sequence of the three states, each transition seen.
    #[test]
    fn the_verilog_holds_state_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = StateReg::<Phase>::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x510e_527f_ade6_82d1u64);
        // a variant's encoding is its position in the enum
        let ds: Vec<u8> = (0..300).map(|_| (next() % 3) as u8).collect();
        let mut bench = String::from(
            "module bench;\nreg clock = 0; reg [1:0] d = 0;\nwire [1:0] q;\ntop uut(.clock(clock), .d(d), .q(q));\n\
             initial begin\n  #1 $display(\"%0d\", q);\n",
        );
        for d in &ds {
            bench.push_str(&format!("  d = {d}; #1 $display(\"%0d\", q); clock = 1; #1 $display(\"%0d\", q); clock = 0;\n"));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("state-reg", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), 1 + 2 * ds.len(), "vvp printed {} lines", lines.len());
        let mut q = 0u8; // Phase::default(), Idle
        let mut want = vec![q.to_string()];
        let mut transitions = [[0usize; 3]; 3];
        for &d in &ds {
            want.push(q.to_string()); // d changed, no edge yet: q holds
            transitions[usize::from(q)][usize::from(d)] += 1;
            q = d;
            want.push(q.to_string());
        }
        assert_eq!(lines, want);
        assert!(transitions.iter().flatten().all(|&n| n > 0), "transitions: {transitions:?}");
    }
}
