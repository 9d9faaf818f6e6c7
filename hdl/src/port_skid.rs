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

    /// xorshift, the seed given
    use crate::icarus::xorshift;

    /// The emitted Verilog in Icarus, edge by edge, against a skid register
    /// that holds a request the memory did not take: seeded random `ready`,
    /// `issue` only while empty (the documented precondition), rare `clear`;
    /// every (full, clear, issue, ready) case the precondition allows is seen.
    #[test]
    fn the_read_skid_verilog_waits_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = ReadSkid::default();
        uut.connect_all();
        let mut next = xorshift(0x1f83_d9ab_fb41_bd6b);
        // the stimulus follows the model's state only to keep `issue` off while full
        let mut full = false;
        let mut steps = vec![]; // (clear, issue, ready, full after the edge)
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..600 {
            let (clear, issue, ready) = (next().is_multiple_of(10), !full && !next().is_multiple_of(3), next().is_multiple_of(2));
            seen.insert((full, clear, issue, ready));
            // a request on the port (new or waiting) stays unless taken
            full = !clear && (full || issue) && !ready;
            steps.push((clear, issue, ready, full));
        }
        assert_eq!(seen.len(), 12, "cases seen: {seen:?}");
        let mut bench = String::from(
            "module bench;\nreg clock = 0, clear = 0, issue = 0, ready = 0;\nwire full;\n\
             top uut(.clock(clock), .clear(clear), .ready(ready), .issue(issue), .full(full));\n\
             initial begin\n  #1 $display(\"%b\", full);\n",
        );
        for &(clear, issue, ready, _) in &steps {
            bench.push_str(&format!(
                "  clear = {}; issue = {}; ready = {}; #1 clock = 1; #1 $display(\"%b\", full); clock = 0;\n",
                u8::from(clear),
                u8::from(issue),
                u8::from(ready)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("read-skid", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), steps.len() + 1, "vvp printed {} lines", lines.len());
        assert_eq!(lines[0], "0", "power-up value");
        for (i, (line, &(clear, issue, ready, full))) in lines[1..].iter().zip(&steps).enumerate() {
            assert_eq!(line, if full { "1" } else { "0" }, "edge {i}: clear {clear} issue {issue} ready {ready}");
        }
    }

    /// The emitted Verilog in Icarus, edge by edge, against the write port as
    /// documented: an operation leaves only while the skid register is empty
    /// (the precondition); one without a write completes as it leaves, one
    /// with a write completes when the memory takes it (that edge, or later
    /// from the skid register); `done`/`error` (its last / error flags) and
    /// `obs_valid` (an accepted atomic write) show the cycle after completion.
    /// Seeded random inputs, rare `clear`; both completion paths are seen.
    #[test]
    fn the_write_skid_verilog_completes_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = WriteSkid::default();
        uut.connect_all();
        let mut next = xorshift(0x5be0_cd19_137e_2179);
        #[derive(Clone, Copy, Default)]
        struct Op {
            writes: bool,
            last: bool,
            error: bool,
            rmw: bool,
        }
        // the write waiting in the skid register, if any
        let mut waiting: Option<Op> = None;
        // (clear, ready, leave, op) and the outputs after the edge: full, done, error, obs_valid
        let mut steps = vec![];
        let (mut from_skid, mut at_leave, mut no_write) = (0, 0, 0);
        for _ in 0..800 {
            let clear = next().is_multiple_of(16);
            let ready = next().is_multiple_of(2);
            let leave = waiting.is_none() && !next().is_multiple_of(3);
            let op = Op {
                writes: !next().is_multiple_of(4),
                last: next().is_multiple_of(2),
                error: next().is_multiple_of(4),
                rmw: next().is_multiple_of(2),
            };
            let mut completed: Option<(Op, bool)> = None; // the op, and whether its write was accepted
            if let Some(w) = waiting {
                if ready {
                    completed = Some((w, true));
                    waiting = None;
                    from_skid += usize::from(!clear);
                }
            } else if leave {
                if !op.writes {
                    completed = Some((op, false));
                    no_write += usize::from(!clear);
                } else if ready {
                    completed = Some((op, true));
                    at_leave += usize::from(!clear);
                } else {
                    waiting = Some(op);
                }
            }
            if clear {
                waiting = None;
                completed = None;
            }
            let out = match completed {
                Some((op, accepted)) => (op.last, op.error, accepted && op.rmw),
                None => (false, false, false),
            };
            steps.push((clear, ready, leave, op, (waiting.is_some(), out.0, out.1, out.2)));
        }
        assert!(
            from_skid > 20 && at_leave > 20 && no_write > 20,
            "completions: {from_skid} from the skid register, {at_leave} at leave, {no_write} without a write"
        );
        let mut bench = String::from(
            "module bench;\nreg clock = 0, clear = 0, ready = 0, leave = 0, leave_writes = 0, leave_last = 0;\n\
             reg leave_error = 0, leave_rmw = 0;\nwire full, done, error, obs_valid;\n\
             top uut(.clock(clock), .clear(clear), .ready(ready), .leave(leave), .leave_writes(leave_writes),\n\
             .leave_last(leave_last), .leave_error(leave_error), .leave_rmw(leave_rmw), .full(full), .done(done),\n\
             .error(error), .obs_valid(obs_valid));\n\
             initial begin\n  #1 $display(\"%b%b%b%b\", full, done, error, obs_valid);\n",
        );
        let b = |x: bool| u8::from(x);
        for &(clear, ready, leave, op, _) in &steps {
            bench.push_str(&format!(
                "  clear = {}; ready = {}; leave = {}; leave_writes = {}; leave_last = {}; leave_error = {}; leave_rmw = {}; \
                 #1 clock = 1; #1 $display(\"%b%b%b%b\", full, done, error, obs_valid); clock = 0;\n",
                b(clear),
                b(ready),
                b(leave),
                b(op.writes),
                b(op.last),
                b(op.error),
                b(op.rmw)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("write-skid", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), steps.len() + 1, "vvp printed {} lines", lines.len());
        assert_eq!(lines[0], "0000", "power-up values");
        for (i, (line, &(clear, ready, leave, _, (full, done, error, obs)))) in lines[1..].iter().zip(&steps).enumerate() {
            let want = format!("{}{}{}{}", b(full), b(done), b(error), b(obs));
            assert_eq!(line, &want, "edge {i}: clear {clear} ready {ready} leave {leave}");
        }
    }
}
