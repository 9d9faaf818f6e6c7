//! The RTL engine: a [`Session`] clocks one unit model (anything with
//! [`UnitPins`]; the Verilated `atomic_unit` in practice) driven by the
//! bench ([`LivePins`]: driver and memory model), watches it with the
//! monitor, optionally checks it in lockstep with the scoreboard
//! ([`Lockstep`], the same path `wavecheck` replays a waveform through),
//! and guards every message with a watchdog. [`run_program`] runs a whole
//! script and produces the same [`RunOutput`] the golden model does.
//!
//! One cycle (see [`Session::step`]):
//! 1. [`LivePins`] samples the cycle: the driver raises the next message on
//!    `req_*` when the pins are free, the memory model sets its readies and
//!    the read return due now, the model settles, and the handshakes
//!    happen where valid meets ready;
//! 2. the monitor turns the sample into events, the scoreboard checks them;
//! 3. the watchdog looks at the oldest unfinished message;
//! 4. the clock edge.
//!
//! Messages go out back to back; a `mem.*` / `slm.*` statement between
//! messages is a barrier: the bench waits until the unit is idle, then
//! writes memory through the backdoor (golden model and memory model alike).

use std::fmt;
use std::path::PathBuf;

use atomport_sim::SimError;

use atomport_core::descriptor::{EncodeError, Encoder};
use atomport_core::outcome::{DumpOut, RunOutput};
use atomport_core::golden::Machine;
use atomport_core::message::Message;
use atomport_core::program::{Program, Space, Stmt};

use super::live::LivePins;
use super::lockstep::Lockstep;
use super::memory::{MemConfig, MemoryModel};
use super::monitor::Monitor;
use super::pins::{PinRequest, PinSource, UnitPins};
use super::scoreboard::{Mismatch, Scoreboard};
use super::transaction::{Finished, Violation};

/// How an RTL run is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct RtlOptions {
    /// the memory model: latency range, stall probability, seed
    pub mem: MemConfig,
    /// write a VCD waveform of the whole run here
    pub vcd: Option<PathBuf>,
    /// write an FST waveform of the whole run here (Verilator's FST tracing:
    /// the unit's FST model, see [`crate::dut::simulate_build`]); not
    /// together with `vcd` (a model writes one format)
    pub fst: Option<PathBuf>,
}

impl Default for RtlOptions {
    /// One-cycle memory without stalls, seed 1, no waveform.
    fn default() -> RtlOptions {
        RtlOptions { mem: MemConfig::FAST, vcd: None, fst: None }
    }
}

/// Why an RTL run stopped before it finished.
#[derive(Clone, Debug, PartialEq)]
pub enum RtlError {
    /// the Verilator binding failed (a fatal, or the trace file)
    Sim(SimError),
    /// a message the descriptor format cannot carry
    Encode(EncodeError),
    /// a message did not finish within its bound (the report says which,
    /// where it stood, and the pins)
    Watchdog(String),
    /// the unit broke its port contract
    Protocol(Violation),
    /// the unit flagged messages of a valid script illegal (`rsp_error`)
    Illegal(Vec<IllegalFlag>),
    /// the unit model is not available (no `hdl/verilog/atomic_unit.v` in this build)
    Unavailable(String),
}

impl fmt::Display for RtlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RtlError::Sim(e) => write!(f, "Verilator model: {e}"),
            RtlError::Encode(e) => write!(f, "{e}"),
            RtlError::Watchdog(r) => write!(f, "watchdog: {r}"),
            RtlError::Protocol(v) => write!(f, "{v}"),
            RtlError::Illegal(flags) => {
                let list: Vec<String> = flags.iter().map(|x| x.to_string()).collect();
                write!(f, "{}", list.join("\n"))
            }
            RtlError::Unavailable(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for RtlError {}

impl From<SimError> for RtlError {
    fn from(e: SimError) -> RtlError {
        RtlError::Sim(e)
    }
}

impl From<EncodeError> for RtlError {
    fn from(e: EncodeError) -> RtlError {
        RtlError::Encode(e)
    }
}

/// A message the unit ended with `rsp_error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalFlag {
    pub index: usize,
    pub line: usize,
    pub text: String,
    pub desc: Vec<u8>,
    pub cycle: u64,
}

impl IllegalFlag {
    /// What happened, without the line: `the RTL flagged descriptor ... illegal ...`.
    pub fn what(&self) -> String {
        let hex: String = self.desc.iter().map(|b| format!("{b:02x}")).collect();
        format!(
            "the RTL flagged descriptor {hex} illegal (rsp_error at cycle {}); the message made no access and returned nothing\n  message: {}",
            self.cycle, self.text
        )
    }
}

impl fmt::Display for IllegalFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.what())
    }
}

/// The watchdog's bound for one message, in cycles from the later of its
/// raise and the previous message's done: a fixed allowance plus, per
/// memory element, a few round trips at the longest latency, stretched by
/// the backpressure (a handshake waits 1/(1-stall) cycles on average).
pub fn watchdog_bound(mem: &MemConfig, elements: u32) -> u64 {
    let stall = mem.stall.min(0.95);
    let stretch = (4.0 / (1.0 - stall)).ceil() as u64;
    let per_element = (mem.latency_max as u64 + 4) * stretch;
    64 + elements.max(1) as u64 * per_element
}

/// Clocks one unit model with the bench around it.
pub struct Session<P: UnitPins> {
    pins: LivePins<P>,
    check: Lockstep,
    cycle: u64,
    next_index: usize,
    /// total cycles the memory returned data / accepted a read / a write
    pub reads: u64,
    pub writes: u64,
    /// the cycle of every read the memory accepted, in order, once
    /// [`Session::record_read_cycles`] asked for it (a long run keeps none)
    read_cycles: Option<Vec<u64>>,
    /// what the model is built with (`UnitPins::config`)
    config: atomport_core::ops::UnitConfig,
    /// the build's name (`UnitPins::build_name`)
    build: String,
    /// indices of the messages issued that the build does not admit
    /// (expected rejected)
    pub rejected: Vec<usize>,
}

/// Cycles of reset before the first message.
const RESET_CYCLES: u64 = 2;

impl<P: UnitPins> Session<P> {
    /// Resets the model and starts the bench; `scoreboard` = Some to check
    /// in lockstep with the golden model.
    pub fn new(mut dut: P, opts: &RtlOptions, scoreboard: Option<Scoreboard>) -> Result<Session<P>, RtlError> {
        if let Some(path) = opts.vcd.as_ref().or(opts.fst.as_ref()) {
            dut.open_trace(path)?;
        }
        dut.set_req_valid(false);
        dut.set_request(&PinRequest::default());
        dut.set_mem(false, false, false, 0);
        dut.set_reset(true);
        for _ in 0..RESET_CYCLES {
            dut.settle()?;
            dut.edge()?;
        }
        dut.set_reset(false);
        let config = dut.config();
        let build = dut.build_name();
        Ok(Session {
            config,
            build,
            rejected: Vec::new(),
            pins: LivePins::new(dut, opts.mem),
            check: Lockstep::new(scoreboard),
            cycle: 0,
            next_index: 0,
            reads: 0,
            writes: 0,
            read_cycles: None,
        })
    }

    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    pub fn memory(&self) -> &MemoryModel {
        self.pins.memory()
    }

    /// The memory model, to disturb it behind the unit's back in tests of
    /// the bench itself (the scoreboard must notice).
    pub fn memory_mut(&mut self) -> &mut MemoryModel {
        self.pins.memory_mut()
    }

    pub fn monitor(&self) -> &Monitor {
        &self.check.monitor
    }

    pub fn scoreboard(&self) -> Option<&Scoreboard> {
        self.check.scoreboard.as_ref()
    }

    /// The model itself (for direct pin access in tests).
    pub fn dut_mut(&mut self) -> &mut P {
        self.pins.dut_mut()
    }

    /// The model, mid-run or not (see [`run_after_reset_in_flight`]).
    pub fn into_dut(self) -> P {
        self.pins.into_dut()
    }

    /// Queues a script message: its pin image, its frame for the monitor,
    /// and (with a scoreboard) its golden execution. Returns its index.
    pub fn issue(&mut self, program: &Program, encoder: &mut Encoder, msg: &Message) -> Result<usize, RtlError> {
        let index = self.next_index;
        let (req, rejected) = self.check.issue_message(index, program, encoder, msg, &self.config, &self.build)?;
        if rejected {
            // a build without the lanes, width or FP the message needs rejects it
            self.rejected.push(index);
        }
        self.next_index += 1;
        self.pins.push(Box::new(req));
        Ok(index)
    }

    /// Queues script message `msg` with lane `lane`'s address misaligned on
    /// the pins ([`Lockstep::issue_misaligned`]).
    pub fn issue_misaligned(&mut self, program: &Program, encoder: &mut Encoder, msg: &Message, lane: usize) -> Result<usize, RtlError> {
        let index = self.next_index;
        let (req, rejected) = self.check.issue_misaligned(index, program, encoder, msg, lane, &self.config, &self.build)?;
        if rejected {
            self.rejected.push(index);
        }
        self.next_index += 1;
        self.pins.push(Box::new(req));
        Ok(index)
    }

    /// Queues a raw request the unit must reject (illegal descriptor or
    /// surface state): expected to end with `rsp_error`, no access, no result.
    pub fn issue_illegal(&mut self, req: PinRequest, line: usize, text: &str) -> usize {
        let index = self.next_index;
        self.next_index += 1;
        self.check.issue_illegal(index, line, text, &req);
        self.pins.push(Box::new(req));
        index
    }

    /// From now on, keep the cycle of every read the memory accepts.
    pub fn record_read_cycles(&mut self) {
        self.read_cycles.get_or_insert_with(Vec::new);
    }

    /// The cycles of the reads accepted since [`Session::record_read_cycles`], in order.
    pub fn read_cycles(&self) -> &[u64] {
        self.read_cycles.as_deref().unwrap_or(&[])
    }

    /// Whether every queued message is done and the memory port is quiet.
    pub fn idle(&self) -> bool {
        !self.pins.busy() && self.check.monitor.idle()
    }

    /// One clock cycle.
    pub fn step(&mut self) -> Result<(), RtlError> {
        // 1. the pins: driver, memory, settle, handshakes
        let sample = self.pins.sample()?.expect("a live unit always has a next cycle");
        self.reads += sample.read_accepted() as u64;
        if let (true, Some(cycles)) = (sample.read_accepted(), &mut self.read_cycles) {
            cycles.push(self.cycle);
        }
        self.writes += sample.write_accepted() as u64;
        // 2. monitor and scoreboard
        self.check.observe(&sample).map_err(RtlError::Protocol)?;
        // 3. the watchdog
        self.watchdog()?;
        // 4. the edge
        self.pins.advance()?;
        self.cycle += 1;
        Ok(())
    }

    fn watchdog(&self) -> Result<(), RtlError> {
        let monitor = &self.check.monitor;
        let Some(t) = monitor.in_flight().front() else {
            return self.quiet_watchdog();
        };
        let start = t.raised.max(monitor.last_done);
        let mem = self.pins.memory();
        let bound = watchdog_bound(mem.config(), t.frame.max_elements)
            + u64::from(t.frame.max_elements.max(1)) * self.pins.dut().element_allowance()
            + t.frame.walk_cycles;
        if self.cycle <= start + bound {
            return Ok(());
        }
        let f = &t.frame;
        let got: Vec<u8> = (0..32u8).filter(|&l| t.results.get(l as usize).is_some_and(|r| r.is_some())).collect();
        let waiting = (0..32u8).find(|&l| f.result_lanes >> l & 1 != 0 && t.results[l as usize].is_none());
        let progress = match (f.scatter_blocks, waiting) {
            (Some(nb), _) => {
                let lane = super::monitor::nth_set_bit(f.enables, t.blocks_written / nb.max(1) as u32);
                format!(
                    "{} of {} scatter blocks written{}",
                    t.blocks_written,
                    f.max_elements,
                    lane.map_or(String::new(), |l| format!(", waiting for lane {l}"))
                )
            }
            (None, Some(l)) => format!("results from lanes {got:?}, waiting for lane {l}"),
            (None, None) if f.result_lanes != 0 => "all results returned, waiting for rsp_done".to_string(),
            (None, None) => "no result expected, waiting for rsp_done".to_string(),
        };
        let o = self.pins.last_outputs();
        Err(RtlError::Watchdog(format!(
            "message {} (line {}) not finished at cycle {}: {} cycles since cycle {start}, bound {bound} \
             (64 + {} elements x per-element allowance at latency <= {}, stall {}; + {} typed level-walk cycles)\n  \
             raised at cycle {}, {}; {progress}\n  \
             reads outstanding {}, reads without their write {}\n  \
             pins: req_ready={} mem_rd_valid={} mem_wr_valid={} rsp_valid={} rsp_done={}\n  message: {}",
            f.index,
            f.line,
            self.cycle,
            self.cycle - start,
            f.max_elements,
            mem.config().latency_max,
            mem.config().stall,
            f.walk_cycles,
            t.raised,
            t.accepted.map_or("never accepted (req_ready stayed low)".to_string(), |c| format!("accepted at cycle {c}")),
            mem.outstanding_reads(),
            monitor.unpaired_reads(),
            o.req_ready as u8,
            o.rd_valid as u8,
            o.wr_valid as u8,
            o.rsp_valid as u8,
            o.rsp_done as u8,
            f.text
        )))
    }

    /// With no message in flight the port must go quiet: a read without
    /// its write, a return or a write still due after the last done must
    /// settle within one element's bound, or the run stops (a unit that
    /// leaves the port busy would otherwise hold `drain` forever).
    fn quiet_watchdog(&self) -> Result<(), RtlError> {
        let monitor = &self.check.monitor;
        if self.idle() {
            return Ok(());
        }
        let start = monitor.last_done;
        let bound = watchdog_bound(self.pins.memory().config(), 1);
        if self.cycle <= start + bound {
            return Ok(());
        }
        let o = self.pins.last_outputs();
        Err(RtlError::Watchdog(format!(
            "no message in flight since cycle {start}, but the port is not quiet at cycle {} (bound {bound}): \
             reads outstanding {}, reads without their write {}, messages waiting for the pins {}\n  \
             pins: req_ready={} mem_rd_valid={} mem_wr_valid={} rsp_valid={} rsp_done={}",
            self.cycle,
            self.pins.memory().outstanding_reads(),
            monitor.unpaired_reads(),
            self.pins.queued(),
            o.req_ready as u8,
            o.rd_valid as u8,
            o.wr_valid as u8,
            o.rsp_valid as u8,
            o.rsp_done as u8,
        )))
    }

    /// Steps until every queued message is done and the port is quiet.
    pub fn drain(&mut self) -> Result<(), RtlError> {
        while !self.idle() {
            self.step()?;
        }
        Ok(())
    }

    /// Steps while more than `depth` messages wait for the pins (bounds
    /// the queue's memory on long runs without starving the unit).
    pub fn throttle(&mut self, depth: usize) -> Result<(), RtlError> {
        while self.pins.queued() > depth {
            self.step()?;
        }
        Ok(())
    }

    /// A `mem.*` / `slm.*` statement: waits until idle, then writes memory
    /// (and the golden model's) through the backdoor.
    pub fn backdoor_write(&mut self, space: Space, addr: u64, bytes: &[u8]) -> Result<(), RtlError> {
        self.drain()?;
        self.pins.memory_mut().backdoor_write(space, addr, bytes);
        if let Some(sb) = &mut self.check.scoreboard {
            sb.backdoor_write(space, addr, bytes);
        }
        Ok(())
    }

    /// Drains, runs a few quiet cycles (the unit must stay silent: any
    /// activity with no message in flight is a contract violation), closes
    /// the trace, and lets the scoreboard compare what is left and the final
    /// memories.
    pub fn finish(&mut self) -> Result<(), RtlError> {
        self.drain()?;
        for _ in 0..self.pins.memory().config().latency_max as u64 + 4 {
            self.step()?;
        }
        self.pins.dut_mut().close_trace()?;
        let mem = self.pins.memory();
        if let Some(sb) = &mut self.check.scoreboard {
            sb.finish(mem.memory(Space::Flat), mem.memory(Space::Slm));
        }
        Ok(())
    }

    /// The first difference the scoreboard found.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        self.check.mismatch()
    }

    /// The messages the unit finished, in completion order.
    pub fn finished(&self) -> &[Finished] {
        &self.check.monitor.finished
    }

    /// Messages the unit ended with `rsp_error`.
    pub fn illegal_flags(&self) -> Vec<IllegalFlag> {
        self.check
            .monitor
            .finished
            .iter()
            .filter(|f| f.error)
            .map(|f| IllegalFlag { index: f.frame.index, line: f.frame.line, text: f.frame.text.clone(), desc: f.frame.desc.clone(), cycle: f.done })
            .collect()
    }
}

/// What a whole-script RTL run reports.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// the RTL's results, dumps and transactions (engine "rtl")
    pub output: RunOutput,
    /// with checking: the first difference from the golden model
    pub mismatch: Option<Mismatch>,
    /// messages the unit flagged illegal
    pub illegal: Vec<IllegalFlag>,
    /// indices of the messages the build does not admit, so expected to be
    /// flagged illegal (and checked so with the scoreboard): none on the
    /// full build
    pub rejected: Vec<usize>,
    /// cycles from the end of reset to the end of the run
    pub cycles: u64,
    /// messages run
    pub messages: usize,
    /// what the memory port went through (functional coverage)
    pub port: super::memory::PortActivity,
}

/// The statements of `program` in order, then [`Session::finish`].
fn run_statements<P: UnitPins>(session: &mut Session<P>, program: &Program, messages: &mut usize) -> Result<(), RtlError> {
    let mut encoder = Encoder::new();
    for stmt in &program.stmts {
        match stmt {
            Stmt::Init { space, addr, bytes, .. } => session.backdoor_write(*space, *addr, bytes)?,
            Stmt::Message(msg) => {
                session.issue(program, &mut encoder, msg)?;
                *messages += 1;
                session.throttle(64)?;
            }
            Stmt::Dump { .. } => {}
        }
    }
    session.finish()
}

/// Runs a whole script on `dut`: statements in order (memory statements as
/// barriers), messages back to back, dumps from the memory model at the
/// end. `check` runs the scoreboard in lockstep.
pub fn run_program<P: UnitPins>(dut: P, program: &Program, opts: &RtlOptions, check: bool) -> Result<Simulation, RtlError> {
    let scoreboard = check.then(|| Scoreboard::new(Machine::new(program)));
    let mut session = Session::new(dut, opts, scoreboard)?;
    let mut messages = 0;
    if let Err(e) = run_statements(&mut session, program, &mut messages) {
        // the trace up to the stop is the evidence: closed here, where a
        // write that fails is seen (and is then the error: no waveform)
        session.pins.dut_mut().close_trace()?;
        return Err(e);
    }
    let dumps = program
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Dump { line, space, addr, len } => {
                Some(DumpOut { line: *line, space: *space, addr: *addr, bytes: session.memory().backdoor_read(*space, *addr, *len) })
            }
            _ => None,
        })
        .collect();
    let output = RunOutput { engine: "rtl", results: session.monitor().results(), dumps, txns: session.monitor().txns.clone() };
    Ok(Simulation {
        output,
        mismatch: session.mismatch().cloned(),
        illegal: session.illegal_flags(),
        rejected: session.rejected.clone(),
        cycles: session.cycle(),
        messages,
        port: session.memory().activity.clone(),
    })
}

/// Runs `program` on `dut` as [`run_program`] does, after a reset that
/// comes while `before`'s messages are in flight: `before`'s messages run
/// unchecked (its memory answering as `opts.mem`, the port contract still watched)
/// for `cycles` cycles, then the session is dropped mid-run and
/// `program`'s session resets the unit. A register the reset misses, that
/// holds a message's state, shows as a mismatch or a contract violation in
/// `program`: from reset on, the unit must behave as from power-up.
/// Returns the messages in flight at the reset (taken by the unit on
/// `req_valid & req_ready` and not finished; the driver's queue does not
/// count) and `program`'s run.
pub fn run_after_reset_in_flight<P: UnitPins>(
    dut: P,
    before: &Program,
    cycles: u64,
    program: &Program,
    opts: &RtlOptions,
) -> Result<(usize, Simulation), RtlError> {
    let mut session = Session::new(dut, &RtlOptions { mem: opts.mem, vcd: None, fst: None }, None)?;
    let mut encoder = Encoder::new();
    // messages back to back (memory statements would drain the unit: an
    // unchecked run needs no memory contents)
    for msg in before.messages() {
        if session.cycle() >= cycles {
            break;
        }
        session.issue(before, &mut encoder, msg)?;
        session.throttle(8)?;
    }
    while session.cycle() < cycles {
        session.step()?;
    }
    let in_flight = session.monitor().in_flight().iter().filter(|t| t.accepted.is_some()).count();
    Ok((in_flight, run_program(session.into_dut(), program, opts, true)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pins::{LanePayload, UnitOutputs};

    /// A unit that takes one request, makes one read and ends the message
    /// with `rsp_error` without the read's write: the port stays busy (a
    /// read without its write) with no message in flight.
    #[derive(Default)]
    struct ReadsAndQuits {
        req_valid: bool,
        rd_ready: bool,
        phase: u8,
    }

    impl UnitPins for ReadsAndQuits {
        fn set_reset(&mut self, _: bool) {}
        fn set_request(&mut self, _: &PinRequest) {}
        fn set_payload(&mut self, _: &LanePayload) {}
        fn set_req_valid(&mut self, valid: bool) {
            self.req_valid = valid;
        }
        fn set_mem(&mut self, rd_ready: bool, _: bool, _: bool, _: u128) {
            self.rd_ready = rd_ready;
        }
        fn settle(&mut self) -> Result<(), SimError> {
            Ok(())
        }
        fn outputs(&self) -> UnitOutputs {
            UnitOutputs {
                req_ready: self.phase == 0,
                rd_valid: self.phase == 1,
                rd_addr: 0x100,
                rd_be: 0xf,
                rsp_done: self.phase == 2,
                rsp_error: self.phase == 2,
                ..UnitOutputs::default()
            }
        }
        fn edge(&mut self) -> Result<(), SimError> {
            self.phase = match self.phase {
                0 if self.req_valid => 1,
                1 if self.rd_ready => 2,
                2 => 3,
                p => p,
            };
            Ok(())
        }
        fn open_trace(&mut self, _: &std::path::Path) -> Result<(), SimError> {
            Ok(())
        }
        fn close_trace(&mut self) -> Result<(), atomport_sim::SimError> {
            Ok(())
        }
    }

    #[test]
    fn a_port_left_busy_with_no_message_in_flight_stops_the_run() {
        let program = atomport_core::script::parse("t.atom", "SVM_ATOMIC.add (1) [0x100] d [1] V0\n").unwrap();
        let finished = std::thread::spawn(move || {
            let mut session = Session::new(ReadsAndQuits::default(), &RtlOptions::default(), Some(Scoreboard::new(Machine::new(&program)))).unwrap();
            session.issue_illegal(PinRequest::default(), 1, "an illegal request");
            session.finish()
        });
        let start = std::time::Instant::now();
        while !finished.is_finished() {
            assert!(start.elapsed() < std::time::Duration::from_secs(20), "the run hangs: nothing stops a port left busy");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        match finished.join().unwrap() {
            Err(RtlError::Watchdog(report)) => assert!(report.contains("no message in flight"), "{report}"),
            other => panic!("expected the watchdog, got {other:?}"),
        }
    }
}
