//! `CaptureReg`: a register that loads `d` in a cycle where `load` is 1 and
//! clears to zero where `clear` is 1 (clear wins).
//!
//! The unit's inputs go into these (and plain DFFs) first: a register whose
//! `d` is an input port is wired straight to the port (`atomport emit`
//! moves the wire out of the parent's block), and its load and clear come
//! from the unit's own registers. So no input port feeds the unit's
//! combinational logic, which keeps every input-to-logic path one register
//! long and keeps the unit's logic out of Verilator's per-`eval()`
//! input-combinational region (docs/microarchitecture.md, "RTL structure
//! rule (Verilator)"). The update is written as Verilog of its own because
//! a rust-hdl `update()` of `if load { d }` around a DFF would be a
//! combinational block reading the port.

use rust_hdl::prelude::*;

/// `q <= clear ? 0 : load ? d : q` at each rising clock edge.
#[derive(LogicBlock, Default)]
pub struct CaptureReg<T: Synth> {
    pub clock: Signal<In, Clock>,
    /// Clear to zero (wins over `load`).
    pub clear: Signal<In, Bit>,
    /// Load `d`.
    pub load: Signal<In, Bit>,
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
}

impl<T: Synth> Logic for CaptureReg<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.clear.val() {
                self.q.next = T::default();
            } else if self.load.val() {
                self.q.next = self.d.val();
            }
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        let zero = format!("{:x}", T::default().verilog());
        Verilog::Custom(format!(
            "\
initial begin
   q = {zero};
end

always @(posedge clock) begin
   if (clear) q <= {zero};
   else if (load) q <= d;
end
"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_reg_synthesizes() {
        let mut uut = CaptureReg::<Bits<8>>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("if (clear) q <= 8'h0;"), "{vlog}");
        assert!(vlog.contains("else if (load) q <= d;"), "{vlog}");
        yosys_validate("atomport_capture_reg", &vlog).unwrap();
    }

    /// The emitted Verilog in Icarus, edge by edge, against a register with
    /// the documented rule (power-up 0; clear wins over load): seeded random
    /// clear/load/d, every (clear, load) pair at least 50 times.
    #[test]
    fn the_verilog_loads_and_clears_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = CaptureReg::<Bits<8>>::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0xa54f_f53a_5f1d_36f1u64);
        // (clear, load, d); clear rarer than load so that q holds values for a while
        let steps: Vec<(bool, bool, u8)> = (0..600).map(|_| (next().is_multiple_of(5), next().is_multiple_of(2), next() as u8)).collect();
        let mut bench = String::from(
            "module bench;\nreg clock = 0, clear = 0, load = 0; reg [7:0] d = 0;\nwire [7:0] q;\n\
             top uut(.clock(clock), .clear(clear), .load(load), .d(d), .q(q));\n\
             task step; begin #1 clock = 1; #1 $display(\"%h\", q); clock = 0; end endtask\n\
             initial begin\n  #1 $display(\"%h\", q);\n",
        );
        for &(clear, load, d) in &steps {
            bench.push_str(&format!("  clear = {}; load = {}; d = 8'h{d:02x}; step;\n", u8::from(clear), u8::from(load)));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("capture-reg", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), steps.len() + 1, "vvp printed {} lines", lines.len());
        let mut q = 0u8;
        let mut seen = [0usize; 4];
        assert_eq!(lines[0], "00", "power-up value");
        for (line, &(clear, load, d)) in lines[1..].iter().zip(&steps) {
            seen[usize::from(clear) * 2 + usize::from(load)] += 1;
            if clear {
                q = 0;
            } else if load {
                q = d;
            }
            assert_eq!(line, &format!("{q:02x}"), "clear {clear} load {load} d {d:02x}");
        }
        assert!(seen.iter().all(|&n| n >= 50), "(clear, load) pairs: {seen:?}");
    }
}
