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
}
