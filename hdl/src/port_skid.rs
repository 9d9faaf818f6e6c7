//! The memory ports' handshake state: `ReadSkid` and `WriteSkid`, the
//! only logic that reads `mem_rd_ready` / `mem_wr_ready`.
//!
//! A request the memory does not accept in the cycle it is first on the
//! port waits in a skid register (`r_*` / `s_*` in unit.rs) and stays on the
//! port from there until accepted; the stage behind it moves on whenever
//! the skid register is empty. So every stage's advance depends on a
//! register, not on a ready input: no path from `mem_*_ready` through the
//! pipeline's enables (a fan-out of thousands of flip-flops from an input
//! pin), and none into the unit's combinational logic, which keeps it out
//! of Verilator's per-`eval()` input-combinational region
//! (docs/microarchitecture.md, "RTL structure rule (Verilator)"). The
//! blocks are sequential only, in Verilog of their own (as `CaptureReg`),
//! because their next state is a function of the ready input.

use rust_hdl::prelude::*;

/// A read request waiting for `mem_rd_ready`: `full <= (full | issue) & !ready`.
#[derive(LogicBlock, Default)]
pub struct ReadSkid {
    pub clock: Signal<In, Clock>,
    pub clear: Signal<In, Bit>,
    /// `mem_rd_ready`
    pub ready: Signal<In, Bit>,
    /// a new request is on the port this cycle (never while `full`)
    pub issue: Signal<In, Bit>,
    /// the request on the port was not accepted: it waits in the skid register
    pub full: Signal<Out, Bit>,
}

impl Logic for ReadSkid {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.full.next = !self.clear.val() & ((self.full.val() | self.issue.val()) & !self.ready.val());
        }
    }

    fn connect(&mut self) {
        self.full.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "\
initial begin
   full = 1'h0;
end

always @(posedge clock) begin
   if (clear) full <= 1'b0;
   else full <= (full | issue) & !ready;
end
"
            .into(),
        )
    }
}

/// The write port's handshake: the skid register's `full`, and what
/// completes when a write is accepted. The write stage's operation leaves
/// (`leave`) whenever the skid register is empty; its write, if any, is on
/// the port in that cycle and waits in the skid register if not accepted.
/// `rsp_done` / `rsp_error` (the message's last operation, once its write
/// is accepted) and `obs_valid` (an atomic element whose write is accepted)
/// are registered outputs, one cycle after the acceptance.
#[derive(LogicBlock, Default)]
pub struct WriteSkid {
    pub clock: Signal<In, Clock>,
    pub clear: Signal<In, Bit>,
    /// `mem_wr_ready`
    pub ready: Signal<In, Bit>,
    // ---- the operation leaving the write stage this cycle ----
    pub leave: Signal<In, Bit>,
    /// it writes memory (its write is on the port)
    pub leave_writes: Signal<In, Bit>,
    /// it is its message's last operation
    pub leave_last: Signal<In, Bit>,
    /// the message ends in error
    pub leave_error: Signal<In, Bit>,
    /// it is an atomic element (observed on `obs_*`)
    pub leave_rmw: Signal<In, Bit>,
    // ---- state ----
    /// a write waits in the skid register (it is the one on the port)
    pub full: Signal<Out, Bit>,
    pub done: Signal<Out, Bit>,
    pub error: Signal<Out, Bit>,
    pub obs_valid: Signal<Out, Bit>,
    /// the waiting write's operation: last, error, atomic
    wait_last: Signal<Local, Bit>,
    wait_error: Signal<Local, Bit>,
    wait_rmw: Signal<Local, Bit>,
}

impl Logic for WriteSkid {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let (ready, full) = (self.ready.val(), self.full.val());
            let waiting_done = full & ready;
            let leaving_done = self.leave.val() & (!self.leave_writes.val() | ready);
            if self.clear.val() {
                self.full.next = false;
                self.done.next = false;
                self.error.next = false;
                self.obs_valid.next = false;
            } else {
                self.done.next = (waiting_done & self.wait_last.val()) | (leaving_done & self.leave_last.val());
                self.error.next = (waiting_done & self.wait_error.val()) | (leaving_done & self.leave_error.val());
                self.obs_valid.next = (waiting_done & self.wait_rmw.val())
                    | ((self.leave.val() & self.leave_writes.val() & ready) & self.leave_rmw.val());
                self.full.next = (full | (self.leave.val() & self.leave_writes.val())) & !ready;
            }
            if self.leave.val() {
                self.wait_last.next = self.leave_last.val();
                self.wait_error.next = self.leave_error.val();
                self.wait_rmw.next = self.leave_rmw.val();
            }
        }
    }

    fn connect(&mut self) {
        self.full.connect();
        self.done.connect();
        self.error.connect();
        self.obs_valid.connect();
        self.wait_last.connect();
        self.wait_error.connect();
        self.wait_rmw.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut code = String::new();
        for r in ["full", "done", "error", "obs_valid", "wait_last", "wait_error", "wait_rmw"] {
            code.push_str(&format!("initial begin\n   {r} = 1'h0;\nend\n\n"));
        }
        code.push_str(
            "\
always @(posedge clock) begin
   if (clear) begin
      full <= 1'b0;
      done <= 1'b0;
      error <= 1'b0;
      obs_valid <= 1'b0;
   end else begin
      done <= ((full & ready) & wait_last) | ((leave & (!leave_writes | ready)) & leave_last);
      error <= ((full & ready) & wait_error) | ((leave & (!leave_writes | ready)) & leave_error);
      obs_valid <= ((full & ready) & wait_rmw) | (((leave & leave_writes) & ready) & leave_rmw);
      full <= (full | (leave & leave_writes)) & !ready;
   end
   if (leave) begin
      wait_last <= leave_last;
      wait_error <= leave_error;
      wait_rmw <= leave_rmw;
   end
end
",
        );
        Verilog::Custom(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_skid_synthesizes() {
        let mut uut = ReadSkid::default();
        uut.connect_all();
        yosys_validate("atomport_read_skid", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn write_skid_synthesizes() {
        let mut uut = WriteSkid::default();
        uut.connect_all();
        yosys_validate("atomport_write_skid", &generate_verilog(&uut)).unwrap();
    }
}
