//! `wavecheck`: a recorded run of the unit replayed through the test
//! bench's own monitor and scoreboard ([`atomport_testbench::lockstep`]),
//! against the golden model of the same script.
//!
//! [`VcdPins`] is a [`PinSource`]: it samples the unit's ports at each
//! rising edge of the clock (the value in effect just before the edge, as
//! the unit's flip-flops see it; cycles with `reset` high are skipped) and
//! hands the monitor the same [`CycleSample`] the live Verilated unit does.
//! The script's messages are issued exactly as the lockstep bench issues
//! them ([`Lockstep::issue_message`]); the monitor raises each one when
//! `req_valid` rises (checking `req_desc`), so every check of the bench
//! applies: handshakes become transactions, the scoreboard compares each
//! read, write, `obs_*`, result and done with the golden model as it
//! happens, and at the end the final memory.
//!
//! What the bench's memory model does live, the replay does from the
//! recording: it keeps the memory the port's writes build (from the
//! script's `mem.*`/`slm.*` statements, applied when the next message is
//! raised, as the bench's barrier does), and checks that every
//! `mem_rdata` return is the line memory held when the read was accepted
//! (before or after a write accepted in the same cycle: the memory may
//! order them either way). The final memory the scoreboard compares is
//! that memory.
//!
//! Reports name the cycle (rising-edge index in the file, reset cycles
//! included), its time, and the signal.

use std::collections::VecDeque;
use std::fmt;

use atomport_core::descriptor::{EncodeError, Encoder};
use atomport_core::golden::sparse_memory::Memory;
use atomport_core::golden::Machine;
use atomport_core::program::{Program, Space, Stmt};
use atomport_core::ops::ports::{port_names, Channel};
use atomport_testbench::dut::UnitBuild;
use atomport_testbench::lockstep::{EventCounts, Lockstep, ReplayStop};
use atomport_testbench::pins::{CycleSample, PinSource, UnitOutputs};
use atomport_testbench::scoreboard::{hex_bytes, Scoreboard};

use atomport_wave::diff::relative_vars;
use atomport_wave::reader::{Logic, Timescale, Trace, Value, Var, Waveform};

/// Every channel wavecheck samples: the request handshake, the
/// required channels (`atomport_wave::gtkw::REQUIRED_CHANNELS`) and the
/// atomic observation ports (a golden-model
/// VCD has these; the payload port is read when present).
pub const SAMPLED_CHANNELS: [Channel; 6] =
    [Channel::Request, Channel::MemRead, Channel::MemReadData, Channel::MemWrite, Channel::Response, Channel::Observe];

/// Why a file cannot be wavechecked at all (bad input, exit 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    #[error("{file}: not a waveform of the unit: no scope has any of its ports ({ports})")]
    Foreign { file: String, ports: String },
    #[error("{file}: no scope has all of the unit's ports; the closest, {closest}, lacks {missing}")]
    NoPorts { file: String, closest: String, missing: String },
    #[error("{file}: clock `{clock}` is {width} bits wide")]
    WideClock { file: String, clock: String, width: u32 },
    #[error("{0}")]
    Encode(#[from] EncodeError),
}

/// A cycle's sampling problem: a control at x/z, a data bus with x/z bits
/// while its valid is high, or a read line memory did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinProblem {
    pub cycle: u64,
    pub signal: &'static str,
    pub what: String,
}

/// A moving read position in a trace for increasing sample times.
struct Cursor<'w> {
    trace: &'w Trace,
    next: usize,
}

impl<'w> Cursor<'w> {
    fn new(trace: &'w Trace) -> Self {
        Cursor { trace, next: 0 }
    }

    /// The value in effect just before `t` (times must not decrease).
    #[inline]
    fn before(&mut self, t: u64) -> Option<Value<'w>> {
        let times = self.trace.times();
        while self.next < times.len() && times[self.next] < t {
            self.next += 1;
        }
        self.next.checked_sub(1).map(|i| self.trace.value(i))
    }
}

/// A read the replayed memory served: the line before and after a write
/// accepted in the same cycle.
struct Served {
    cycle: u64,
    /// the oldest message not done when it was accepted: (index, line)
    msg: Option<(usize, usize)>,
    space: Space,
    line: u64,
    before: u128,
    after: u128,
}

/// The recorded ports of a unit as a [`PinSource`] (see the module doc).
pub struct VcdPins<'w> {
    edges: Vec<u64>,
    next: usize,
    reset: Option<Cursor<'w>>,
    /// the payload port's `pay_valid`, `pay_lane`, `pay_slot`, when recorded
    /// (a golden-model VCD has no payload port): the monitor then checks the reads
    payload: Option<(Cursor<'w>, Cursor<'w>, Cursor<'w>)>,
    /// the ports of the [`SAMPLED_CHANNELS`], and one cursor for each
    names: Vec<&'static str>,
    cursors: Vec<Cursor<'w>>,
    /// the memory the recorded writes build
    flat: Memory,
    slm: Memory,
    /// the script's memory statements, each with the number of messages
    /// before it: applied when that message is raised
    inits: VecDeque<(usize, Space, u64, Vec<u8>)>,
    raised: usize,
    on_pins: bool,
    /// `rsp_done`s seen, and the script line of every message
    dones: usize,
    lines: Vec<usize>,
    served: VecDeque<Served>,
}

fn space_of(slm: bool) -> Space {
    if slm {
        Space::Slm
    } else {
        Space::Flat
    }
}

fn load_line(m: &Memory, line: u64) -> u128 {
    let mut b = [0u8; 16];
    for (k, byte) in b.iter_mut().enumerate() {
        *byte = m.byte(line + k as u64);
    }
    u128::from_le_bytes(b)
}

fn store_line(m: &mut Memory, line: u64, be: u16, data: u128) {
    let bytes = data.to_le_bytes();
    for k in 0..16 {
        if be >> k & 1 != 0 {
            m.set_byte(line + k as u64, bytes[k as usize]);
        }
    }
}

impl<'w> VcdPins<'w> {

    /// The unit's ports in `w` (found with [`find_port_scope`]), sampled on
    /// `clock`, replaying `program`'s memory statements.
    pub fn new(w: &'w Waveform, clock: &str, program: &Program) -> Result<(VcdPins<'w>, String), CheckError> {
        let scope = find_port_scope(w, clock)?;
        let rel = relative_vars(w, &scope);
        let var = |n: &str| -> Option<&'w Var> { rel.iter().find(|(r, _)| r == n).map(|(_, v)| *v) };
        let clock_var = var(clock).unwrap();
        if clock_var.width != 1 {
            return Err(CheckError::WideClock { file: w.file.clone(), clock: clock_var.path(), width: clock_var.width });
        }
        let mut inits = VecDeque::new();
        let mut lines = Vec::new();
        for stmt in &program.stmts {
            match stmt {
                Stmt::Init { space, addr, bytes, .. } => inits.push_back((lines.len(), *space, *addr, bytes.clone())),
                Stmt::Message(m) => lines.push(m.line),
                Stmt::Dump { .. } => {}
            }
        }
        let pins = VcdPins {
            edges: w.rising_edges(clock_var),
            next: 0,
            reset: var("reset").filter(|v| v.width == 1).map(|v| Cursor::new(w.trace(v))),
            payload: var("pay_valid")
                .filter(|v| v.width == 1)
                .zip(var("pay_lane"))
                .zip(var("pay_slot").filter(|v| v.width == 1))
                .map(|((v, l), k)| (Cursor::new(w.trace(v)), Cursor::new(w.trace(l)), Cursor::new(w.trace(k)))),
            names: port_names(&SAMPLED_CHANNELS).collect(),
            cursors: port_names(&SAMPLED_CHANNELS).map(|n| Cursor::new(w.trace(var(n).unwrap()))).collect(),
            flat: Memory::new(),
            slm: Memory::new(),
            inits,
            raised: 0,
            on_pins: false,
            dones: 0,
            lines,
            served: VecDeque::new(),
        };
        Ok((pins, scope))
    }

    /// The rising edges of the clock (VCD time).
    pub fn edges(&self) -> &[u64] {
        &self.edges
    }

    /// The memory the recorded writes built (and the script's statements).
    pub fn memory(&self, space: Space) -> &Memory {
        match space {
            Space::Flat => &self.flat,
            Space::Slm => &self.slm,
        }
    }

    fn memory_mut(&mut self, space: Space) -> &mut Memory {
        match space {
            Space::Flat => &mut self.flat,
            Space::Slm => &mut self.slm,
        }
    }

    /// Applies the memory statements that come before message `n`.
    fn apply_inits(&mut self, n: usize) {
        while self.inits.front().is_some_and(|i| i.0 <= n) {
            let (_, space, addr, bytes) = self.inits.pop_front().unwrap();
            self.memory_mut(space).write(addr, &bytes);
        }
    }

    /// Applies every memory statement left (those after the last message).
    pub fn finish(&mut self) {
        self.apply_inits(usize::MAX);
    }

    fn at(&mut self, name: &'static str, t: u64) -> Option<Value<'w>> {
        // a name of the port table's sampled channels (a wrong one is a bug here, not bad input)
        let k = self.names.iter().position(|n| *n == name).expect("a sampled port");
        self.cursors[k].before(t)
    }

    /// A 1-bit control just before `t`: x/z (or no value yet) is a problem.
    fn flag(&mut self, cycle: u64, t: u64, name: &'static str) -> Result<bool, PinProblem> {
        match self.at(name, t).map(|v| v.bit(0)) {
            Some(Logic::One) => Ok(true),
            Some(Logic::Zero) => Ok(false),
            _ => Err(PinProblem { cycle, signal: name, what: format!("`{name}` is x or z") }),
        }
    }

    /// A bus just before `t` (low 128 bits): x/z bits are a problem.
    fn word(&mut self, cycle: u64, t: u64, name: &'static str) -> Result<u128, PinProblem> {
        self.at(name, t)
            .and_then(|v| v.to_u128())
            .ok_or_else(|| PinProblem { cycle, signal: name, what: format!("`{name}` has x or z bits while its valid is high") })
    }

    fn sample_at(&mut self, cycle: u64, t: u64) -> Result<CycleSample, PinProblem> {
        let mut s = CycleSample { cycle, ..Default::default() };
        let mut o = UnitOutputs::default();
        s.req_valid = self.flag(cycle, t, "req_valid")?;
        o.req_ready = self.flag(cycle, t, "req_ready")?;
        if s.req_valid {
            s.req_desc = Some(self.word(cycle, t, "req_desc")?);
        }
        o.rd_valid = self.flag(cycle, t, "mem_rd_valid")?;
        s.rd_ready = self.flag(cycle, t, "mem_rd_ready")?;
        if o.rd_valid {
            o.rd_addr = self.word(cycle, t, "mem_rd_addr")? as u64;
            o.rd_slm = self.word(cycle, t, "mem_rd_space")? & 1 == 1;
            o.rd_be = self.word(cycle, t, "mem_rd_be")? as u16;
        }
        if self.flag(cycle, t, "mem_rdata_valid")? {
            s.rdata = Some(self.word(cycle, t, "mem_rdata")?);
        }
        o.wr_valid = self.flag(cycle, t, "mem_wr_valid")?;
        s.wr_ready = self.flag(cycle, t, "mem_wr_ready")?;
        if o.wr_valid {
            o.wr_addr = self.word(cycle, t, "mem_wr_addr")? as u64;
            o.wr_slm = self.word(cycle, t, "mem_wr_space")? & 1 == 1;
            o.wr_be = self.word(cycle, t, "mem_wr_be")? as u16;
            o.wr_data = self.word(cycle, t, "mem_wr_data")?;
        }
        if let Some((valid, lane, slot)) = &mut self.payload {
            s.payload_shown = true;
            match valid.before(t).map(|v| v.bit(0)) {
                Some(Logic::One) => {
                    o.pay_valid = true;
                    o.pay_lane = lane.before(t).and_then(|v| v.to_u128()).ok_or_else(|| PinProblem {
                        cycle,
                        signal: "pay_lane",
                        what: "`pay_lane` has x or z bits while its valid is high".into(),
                    })? as u8;
                    o.pay_slot = match slot.before(t).map(|v| v.bit(0)) {
                        Some(Logic::One) => true,
                        Some(Logic::Zero) => false,
                        _ => {
                            return Err(PinProblem { cycle, signal: "pay_slot", what: "`pay_slot` is x or z while `pay_valid` is high".into() })
                        }
                    };
                }
                Some(Logic::Zero) => {}
                _ => return Err(PinProblem { cycle, signal: "pay_valid", what: "`pay_valid` is x or z".into() }),
            }
        }
        o.rsp_valid = self.flag(cycle, t, "rsp_valid")?;
        if o.rsp_valid {
            o.rsp_lane = self.word(cycle, t, "rsp_lane")? as u8;
            o.rsp_data = self.word(cycle, t, "rsp_data")?;
        }
        o.rsp_done = self.flag(cycle, t, "rsp_done")?;
        o.rsp_error = self.flag(cycle, t, "rsp_error")?;
        o.obs_valid = self.flag(cycle, t, "obs_valid")?;
        if o.obs_valid {
            o.obs_lane = self.word(cycle, t, "obs_lane")? as u8;
            o.obs_elem = self.word(cycle, t, "obs_elem")? as u8;
            o.obs_old = self.word(cycle, t, "obs_old")?;
            o.obs_new = self.word(cycle, t, "obs_new")?;
        }
        s.out = o;
        Ok(s)
    }

    /// The memory side of the cycle: inits before a newly raised message,
    /// the returned line against memory, the read's line captured, the
    /// write applied.
    fn serve(&mut self, s: &CycleSample) -> Result<(), PinProblem> {
        if s.req_valid && !self.on_pins {
            self.apply_inits(self.raised);
            self.raised += 1;
            self.on_pins = true;
        }
        if s.request_accepted() {
            self.on_pins = false;
        }
        if let Some(line) = s.rdata {
            if let Some(r) = self.served.pop_front() {
                if line != r.before && line != r.after {
                    let held = if r.before == r.after {
                        hex_bytes(r.before, 16)
                    } else {
                        format!("{} (or {} after the write of the same cycle)", hex_bytes(r.before, 16), hex_bytes(r.after, 16))
                    };
                    let during = r.msg.map_or(String::new(), |(k, l)| format!(" (during message {k}, line {l})"));
                    return Err(PinProblem {
                        cycle: s.cycle,
                        signal: "mem_rdata",
                        what: format!(
                            "the line returned for the read of {} {:#x} accepted at cycle {}{during} is {}, but memory held {held} \
                             (the script's memory statements and the writes accepted before)",
                            r.space.name(),
                            r.line,
                            r.cycle,
                            hex_bytes(line, 16)
                        ),
                    });
                }
            }
        }
        let o = &s.out;
        let read = s.read_accepted().then(|| (space_of(o.rd_slm), o.rd_addr));
        let before = read.map(|(space, addr)| load_line(self.memory(space), addr));
        if s.write_accepted() {
            store_line(self.memory_mut(space_of(o.wr_slm)), o.wr_addr, o.wr_be, o.wr_data);
        }
        if let (Some((space, line)), Some(before)) = (read, before) {
            let after = load_line(self.memory(space), line);
            let msg = (self.dones < self.raised).then(|| (self.dones, self.lines.get(self.dones).copied().unwrap_or(0)));
            self.served.push_back(Served { cycle: s.cycle, msg, space, line, before, after });
        }
        self.dones += s.out.rsp_done as usize;
        Ok(())
    }
}

impl PinSource for VcdPins<'_> {
    type Error = PinProblem;

    fn sample(&mut self) -> Result<Option<CycleSample>, PinProblem> {
        while let Some(&t) = self.edges.get(self.next) {
            let cycle = self.next as u64;
            if let Some(r) = self.reset.as_mut() {
                if r.before(t).is_some_and(|v| v.bit(0) == Logic::One) {
                    self.next += 1;
                    continue;
                }
            }
            let s = self.sample_at(cycle, t)?;
            self.serve(&s)?;
            return Ok(Some(s));
        }
        Ok(None)
    }

    fn advance(&mut self) -> Result<(), PinProblem> {
        self.next += 1;
        Ok(())
    }
}

/// The first scope (outermost first) that has every port wavecheck reads
/// and `clock`, or what is missing.
pub fn find_port_scope(w: &Waveform, clock: &str) -> Result<String, CheckError> {
    let mut best: Option<(usize, String, Vec<&str>)> = None;
    let mut wanted: Vec<&str> = vec![];
    for name in port_names(&SAMPLED_CHANNELS) {
        wanted.push(name);
    }
    wanted.push(clock);
    for scope in w.scopes() {
        let rel = relative_vars(w, &scope);
        let has = |n: &str| rel.iter().any(|(r, _)| r == n);
        let missing: Vec<&str> = wanted.iter().copied().filter(|n| !has(n)).collect();
        if missing.is_empty() {
            return Ok(scope);
        }
        if best.as_ref().is_none_or(|b| missing.len() < b.0) {
            best = Some((missing.len(), scope, missing));
        }
    }
    let list = |names: &[&str]| names.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
    match best {
        // a foreign waveform: no scope has any port (naming the root scope `` would say nothing)
        // (the clock alone does not make a waveform of the unit)
        Some((n, _, ref missing)) if wanted.len() - n - (!missing.contains(&clock)) as usize == 0 => {
            Err(CheckError::Foreign { file: w.file.clone(), ports: list(&wanted) })
        }
        None => Err(CheckError::Foreign { file: w.file.clone(), ports: list(&wanted) }),
        Some((_, scope, missing)) => Err(CheckError::NoPorts {
            file: w.file.clone(),
            closest: if scope.is_empty() { "the top level".to_string() } else { format!("scope `{scope}`") },
            missing: list(&missing),
        }),
    }
}

/// The first problem wavecheck found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// the cycle (rising-edge index) and its time; None: found at the end
    /// (something never happened, the final memory)
    pub cycle: Option<u64>,
    pub time: Option<u64>,
    /// the signal that shows it
    pub signal: &'static str,
    /// the scoreboard's mismatch, the monitor's violation, or the sampling
    /// problem, described
    pub what: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.signal, self.what)
    }
}

/// The outcome of [`check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    pub unit: Timescale,
    /// the scope the ports were found in
    pub scope: String,
    /// rising edges of the clock in the file
    pub cycles: usize,
    /// what the monitor saw (up to the first failure)
    pub counts: EventCounts,
    pub failure: Option<Failure>,
}

impl CheckReport {
    pub fn agrees(&self) -> bool {
        self.failure.is_none()
    }

    /// `16 reads, 20 writes, 16 results, 3 dones, 16 observed elements`
    pub fn counts(&self) -> String {
        self.counts.to_string()
    }
}

/// The unit build a waveform was recorded from, by the name of the scope
/// holding the unit's ports: Verilator names it after the top module
/// (`atomic_unit` the full build, `atomic_unit_l8_w32_int`,
/// `serial_unit_l8_w32_int`). `None`: another name (a test bench's `dut`,
/// the golden waveform), or no such scope.
pub fn build_of(w: &Waveform, clock: &str) -> Option<UnitBuild> {
    let scope = find_port_scope(w, clock).ok()?;
    let module = scope.rsplit('.').next()?;
    if module == "atomic_unit" {
        return Some(UnitBuild::Full);
    }
    let name = match (module.strip_prefix("atomic_unit_"), module.strip_prefix("serial_unit_")) {
        (Some(config), _) => config.to_string(),
        (None, Some(config)) => format!("serial_{config}"),
        (None, None) => return None,
    };
    UnitBuild::by_name(&name).ok()
}

/// Replays the unit's ports in `w` (sampled on `clock`) through the
/// bench's monitor and scoreboard against the golden model of `program`
/// on `build` (whose unit rejects the messages it does not admit). `Err`
/// when the file cannot be checked at all.
pub fn check(w: &Waveform, program: &Program, clock: &str, build: UnitBuild) -> Result<CheckReport, CheckError> {
    let (mut pins, scope) = VcdPins::new(w, clock, program)?;
    let mut lockstep = Lockstep::new(Some(Scoreboard::new(Machine::new(program))));
    let mut encoder = Encoder::new();
    let mut index = 0;
    for stmt in &program.stmts {
        match stmt {
            Stmt::Init { space, addr, bytes, .. } => lockstep.scoreboard.as_mut().unwrap().backdoor_write(*space, *addr, bytes),
            Stmt::Message(msg) => {
                lockstep.issue_message(index, program, &mut encoder, msg, &build.config(), &build.name())?;
                index += 1;
            }
            Stmt::Dump { .. } => {}
        }
    }
    let stop = lockstep.replay(&mut pins);
    let edges = pins.edges().to_vec();
    let at = |c: u64| edges.get(c as usize).copied();
    let failure = match stop {
        Err(ReplayStop::Source(p)) => Some(Failure { cycle: Some(p.cycle), time: at(p.cycle), signal: p.signal, what: p.what }),
        Err(ReplayStop::Violation(v)) => Some(Failure { cycle: Some(v.cycle), time: at(v.cycle), signal: v.signal, what: v.to_string() }),
        Ok(_) => {
            pins.finish();
            if lockstep.mismatch().is_none() {
                let sb = lockstep.scoreboard.as_mut().unwrap();
                sb.finish(pins.memory(Space::Flat), pins.memory(Space::Slm));
            }
            lockstep.mismatch().map(|m| Failure { cycle: m.cycle, time: m.cycle.and_then(at), signal: m.signal, what: m.to_string() })
        }
    };
    Ok(CheckReport { unit: w.timescale, scope, cycles: edges.len(), counts: lockstep.counts, failure })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written trace of one SVM_ATOMIC add on one lane; `wr_data`
    /// is the value written.
    fn trace(wr_data: u128) -> String {
        let desc = {
            let p = atomport_core::script::parse("t.atom", "mem.u32 0x100 = 5\nSVM_ATOMIC.add (1) [0x100] d [1] V0\n").unwrap();
            let req =
                atomport_testbench::driver::request(&p, &mut Encoder::new(), p.messages().next().unwrap()).unwrap();
            req.desc
        };
        let mut t = String::from("$timescale 1ns $end $scope module u $end\n");
        let names: Vec<(&str, u32)> = std::iter::once(("clock", 1))
            .chain(port_names(&SAMPLED_CHANNELS).map(|n| (n, 128)))
            .collect();
        for (k, (n, w)) in names.iter().enumerate() {
            let w = if ["clock"].contains(n) || n.ends_with("valid") || n.ends_with("ready") || *n == "rsp_done" || *n == "rsp_error" { 1 } else { *w };
            t += &format!("$var wire {w} {} {n} $end\n", (b'!' + k as u8) as char);
        }
        t += "$upscope $end $enddefinitions $end\n";
        let id = |n: &str| (b'!' + names.iter().position(|x| x.0 == n).unwrap() as u8) as char;
        // cycle c: inputs at 10c, edge at 10c+5
        let cycles: Vec<Vec<(&str, u128)>> = vec![
            vec![("req_valid", 1), ("req_ready", 1), ("req_desc", desc), ("mem_rd_ready", 1), ("mem_wr_ready", 1)],
            vec![("req_valid", 0), ("req_ready", 0), ("mem_rd_valid", 1), ("mem_rd_addr", 0x100), ("mem_rd_be", 0xf)],
            vec![("mem_rd_valid", 0), ("mem_rdata_valid", 1), ("mem_rdata", 5)],
            vec![
                ("mem_rdata_valid", 0),
                ("mem_wr_valid", 1),
                ("mem_wr_addr", 0x100),
                ("mem_wr_be", 0xf),
                ("mem_wr_data", wr_data),
                ("obs_valid", 1),
                ("obs_old", 5),
                ("obs_new", 6),
                ("rsp_valid", 1),
                ("rsp_data", 5),
                ("rsp_done", 1),
            ],
            vec![("mem_wr_valid", 0), ("obs_valid", 0), ("rsp_valid", 0), ("rsp_done", 0)],
        ];
        t += "#0\n";
        for (n, _) in &names {
            t += &format!("b0 {}\n", id(n));
        }
        for (c, changes) in cycles.iter().enumerate() {
            t += &format!("#{}\n", 10 * c);
            if c > 0 {
                t += &format!("b0 {}\n", id("clock"));
            }
            for (n, v) in changes {
                t += &format!("b{v:b} {}\n", id(n));
            }
            t += &format!("#{}\nb1 {}\n", 10 * c + 5, id("clock"));
        }
        t += &format!("#{}\nb0 {}\n", 10 * cycles.len(), id("clock"));
        t
    }

    fn run(text: &str) -> CheckReport {
        let p = atomport_core::script::parse("t.atom", "mem.u32 0x100 = 5\nSVM_ATOMIC.add (1) [0x100] d [1] V0\n").unwrap();
        let w = Waveform::parse("t.vcd", text.as_bytes()).unwrap();
        check(&w, &p, "clock", UnitBuild::Full).unwrap()
    }

    #[test]
    fn a_recorded_add_agrees_and_a_flipped_write_bit_is_named() {
        let r = run(&trace(6));
        assert!(r.agrees(), "{:?}", r.failure);
        assert_eq!(r.counts(), "1 reads, 1 writes, 1 results, 1 dones, 1 observed elements");
        let r = run(&trace(7));
        let f = r.failure.unwrap();
        assert_eq!((f.cycle, f.time, f.signal), (Some(3), Some(35), "mem_wr_data"), "{f}");
        assert!(f.what.contains("expected flat 0x100 4B = 0x00000006, the RTL wrote flat 0x100 4B = 0x00000007"), "{f}");
    }

    #[test]
    fn a_returned_line_memory_did_not_hold_is_named() {
        let r = run(&trace(6).replace("b101 ", "b100 "));
        let f = r.failure.unwrap();
        assert_eq!((f.cycle, f.signal), (Some(2), "mem_rdata"), "{f}");
    }

    #[test]
    fn a_file_without_the_ports_is_an_error() {
        let p = atomport_core::script::parse("t.atom", "SVM_ATOMIC.add (1) [0x100] d [1] V0\n").unwrap();
        let w = Waveform::parse("t.vcd", b"$timescale 1ns $end $var wire 1 ! clock $end $enddefinitions $end #5 1!").unwrap();
        let e = check(&w, &p, "clock", UnitBuild::Full).unwrap_err().to_string();
        assert!(e.contains("not a waveform of the unit: no scope has any of its ports (`req_valid`"), "{e}");
        let w = Waveform::parse("t.vcd", b"$timescale 1ns $end $scope module u $end $var wire 1 ! clock $end $var wire 1 # req_valid $end $upscope $end $enddefinitions $end #5 1!").unwrap();
        let e = check(&w, &p, "clock", UnitBuild::Full).unwrap_err().to_string();
        assert!(e.contains("no scope has all of the unit's ports; the closest, scope `u`, lacks `req_ready`"), "{e}");
    }
}
