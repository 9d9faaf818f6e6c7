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
}
