//! `wavecheck`: the RTL's port traffic, read back from its VCD, against the
//! golden model's transactions and results for the same script.
//!
//! From the VCD, sampled at each rising edge of the clock (the value in
//! effect just before the edge, as the unit's flip-flops see it; cycles
//! with `reset` high are skipped), per docs/microarchitecture.md:
//! * **memory reads**: `mem_rd_valid & mem_rd_ready` -> (space, line
//!   address, byte enables); the k-th `mem_rdata_valid` carries the k-th
//!   accepted read's line;
//! * **memory writes**: `mem_wr_valid & mem_wr_ready` -> (space, line
//!   address, byte enables, data);
//! * **results**: `rsp_valid` -> (lane, data); `rsp_done` / `rsp_error`;
//! * **observed elements** (when the VCD has `obs_*`): `obs_valid` ->
//!   (lane, element, old, new).
//!
//! A handshake becomes a transaction (space, addr, bytes, data) as the port
//! table defines: addr = line + the lowest enabled byte, bytes = the number
//! of enabled bytes (contiguous), data = the enabled bytes shifted down.
//!
//! Read data: memory returns the line as it held it when the read was
//! accepted, and the unit forwards writes it has not yet seen land
//! ("Memory ordering contract"). So the value the golden model's `Read`
//! records is the returned line patched with every earlier (golden-order)
//! write to the same line accepted in or after the read's acceptance cycle.
//!
//! The four streams are compared in order with the golden model's; the
//! first difference of each stream is reported with its simulation time and
//! cycle, earliest first.

use std::collections::VecDeque;
use std::fmt;

use atomport_core::outcome::{Txn, TxnKind};
use atomport_core::golden::Machine;
use atomport_core::message::Body;
use atomport_core::program::{Program, Space, Stmt};

use super::diff::relative_vars;
use super::reader::{Logic, Timescale, Trace, Value, Var, Waveform};

/// One message's identity, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageInfo {
    /// script line
    pub line: usize,
    /// `SVM_ATOMIC`, ..., `atom`
    pub kind: &'static str,
}

/// One expected result beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpectedResult {
    pub msg: usize,
    pub lane: u8,
    pub data: u128,
}

/// What the golden model says the unit's ports carry for a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub messages: Vec<MessageInfo>,
    /// every memory transaction in order
    pub txns: Vec<Txn>,
    /// one per enabled lane of every message but SVM_SCATTER, in order,
    /// masked to the message's result width
    pub results: Vec<ExpectedResult>,
}

/// Runs `program` on the golden model, keeping every message's lanes
/// (whatever its dst) and transactions.
pub fn expected(program: &Program) -> Expected {
    let mut machine = Machine::new(program);
    let mut out = Expected { messages: Vec::new(), txns: Vec::new(), results: Vec::new() };
    let mut lanes = Vec::new();
    for stmt in &program.stmts {
        match stmt {
            Stmt::Init { .. } => machine.apply_init(stmt),
            Stmt::Message(msg) => {
                let idx = out.messages.len();
                out.messages.push(MessageInfo { line: msg.line, kind: msg.kind().name() });
                lanes.clear();
                machine.exec_into(idx, msg, &mut lanes, &mut out.txns);
                if !matches!(msg.body, Body::SvmScatter { .. }) {
                    let width = msg.result_width();
                    let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
                    for (lane, v) in lanes.iter().enumerate() {
                        if let Some(v) = v {
                            out.results.push(ExpectedResult { msg: idx, lane: lane as u8, data: v & mask });
                        }
                    }
                }
            }
            Stmt::Dump { .. } => {}
        }
    }
    out
}

/// A handshake on the read or write channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handshake {
    /// the cycle (rising-edge index) and VCD time of the acceptance
    pub cycle: usize,
    pub time: u64,
    /// 0 flat, 1 SLM
    pub space: u8,
    pub line: u64,
    pub be: u16,
    /// writes: `mem_wr_data`; reads: the returned `mem_rdata`
    pub data: u128,
    /// reads: the cycle and VCD time the data returned
    pub returned: Option<(usize, u64)>,
}

impl Handshake {
    /// (addr, bytes, data) of the enabled bytes; None if they are not one
    /// contiguous run.
    pub fn element(&self) -> Option<(u64, u8, u128)> {
        if self.be == 0 {
            return None;
        }
        let off = self.be.trailing_zeros();
        let n = self.be.count_ones();
        if (self.be >> off).count_ones() != n || (self.be >> off) as u32 != (1u32 << n) - 1 {
            return None;
        }
        let shifted = self.data >> (8 * off);
        let mask = if n == 16 { u128::MAX } else { (1u128 << (8 * n)) - 1 };
        Some((self.line + off as u64, n as u8, shifted & mask))
    }
}

/// A result beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultBeat {
    pub cycle: usize,
    pub time: u64,
    pub lane: u8,
    pub data: u128,
}

/// An `rsp_done` beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoneBeat {
    pub cycle: usize,
    pub time: u64,
    pub error: bool,
}

/// An `obs_valid` beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObsBeat {
    pub cycle: usize,
    pub time: u64,
    pub lane: u8,
    pub elem: u8,
    pub old: u128,
    pub new: u128,
}

/// Everything the unit's ports did, as read from a VCD.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortTraffic {
    /// the scope the ports were found in
    pub scope: String,
    /// rising edges of the clock (VCD time)
    pub edges: Vec<u64>,
    pub reads: Vec<Handshake>,
    pub writes: Vec<Handshake>,
    pub results: Vec<ResultBeat>,
    pub dones: Vec<DoneBeat>,
    /// None when the VCD has no `obs_*` ports
    pub obs: Option<Vec<ObsBeat>>,
    /// protocol violations seen while extracting (x on a valid, data with
    /// no outstanding read): (cycle, time, what)
    pub problems: Vec<(usize, u64, String)>,
}

/// The port names wavecheck needs (docs/microarchitecture.md).
pub const REQUIRED_PORTS: [&str; 18] = [
    "mem_rd_valid",
    "mem_rd_ready",
    "mem_rd_addr",
    "mem_rd_space",
    "mem_rd_be",
    "mem_rdata_valid",
    "mem_rdata",
    "mem_wr_valid",
    "mem_wr_ready",
    "mem_wr_addr",
    "mem_wr_space",
    "mem_wr_be",
    "mem_wr_data",
    "rsp_valid",
    "rsp_lane",
    "rsp_data",
    "rsp_done",
    "rsp_error",
];

/// The optional observation ports.
pub const OBS_PORTS: [&str; 5] = ["obs_valid", "obs_lane", "obs_elem", "obs_old", "obs_new"];

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

/// A 1-bit control sampled just before `t`; x/z is recorded as a problem
/// and reads as 0.
fn flag(problems: &mut Vec<String>, t: u64, c: &mut Cursor, name: &str) -> bool {
    match c.before(t).map(|v| v.bit(0)) {
        Some(Logic::One) => true,
        Some(Logic::Zero) => false,
        _ => {
            problems.push(format!("`{name}` is x or z"));
            false
        }
    }
}

/// A bus sampled just before `t` (low 128 bits); x/z bits are recorded as
/// a problem and read as 0.
fn word(problems: &mut Vec<String>, t: u64, c: &mut Cursor, name: &str) -> u128 {
    match c.before(t).and_then(|v| v.to_u128()) {
        Some(v) => v,
        None => {
            problems.push(format!("`{name}` has x or z bits"));
            0
        }
    }
}

/// The first scope (outermost first) that has every port of
/// [`REQUIRED_PORTS`] and `clock`, or a description of what is missing.
pub fn find_port_scope(w: &Waveform, clock: &str) -> Result<String, String> {
    let mut best: Option<(usize, String, Vec<&str>)> = None;
    for scope in w.scopes() {
        let rel = relative_vars(w, &scope);
        let has = |n: &str| rel.iter().any(|(r, _)| r == n);
        let missing: Vec<&str> =
            REQUIRED_PORTS.iter().copied().chain(std::iter::once(clock)).filter(|n| !has(n)).collect();
        if missing.is_empty() {
            return Ok(scope);
        }
        if best.as_ref().is_none_or(|b| missing.len() < b.0) {
            best = Some((missing.len(), scope, missing));
        }
    }
    let (_, scope, missing) = best.unwrap_or_default();
    let list = |names: &[&str]| names.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
    if missing.len() == REQUIRED_PORTS.len() + 1 {
        // a foreign VCD: no scope has any port (naming the root scope `` would say nothing)
        let all: Vec<&str> = std::iter::once(clock).chain(REQUIRED_PORTS.iter().copied()).collect();
        return Err(format!("{}: not a waveform of the unit: no scope has any of its ports ({})", w.file, list(&all)));
    }
    let place = if scope.is_empty() { "the top level".to_string() } else { format!("scope `{scope}`") };
    Err(format!("{}: no scope has all of the unit's ports; the closest, {place}, lacks {}", w.file, list(&missing)))
}

/// Reads the unit's port traffic from a VCD (see the module doc). `clock`
/// names the clock port (normally `clock`). `Err` when the ports are not
/// there.
pub fn extract(w: &Waveform, clock: &str) -> Result<PortTraffic, String> {
    let scope = find_port_scope(w, clock)?;
    let rel = relative_vars(w, &scope);
    let var = |n: &str| -> Option<&Var> { rel.iter().find(|(r, _)| r == n).map(|(_, v)| *v) };
    let cursor = |n: &str| Cursor::new(w.trace(var(n).unwrap()));
    let clock_var = var(clock).unwrap();
    if clock_var.width != 1 {
        return Err(format!("{}: clock `{}` is {} bits wide", w.file, clock_var.path(), clock_var.width));
    }
    let edges = w.rising_edges(clock_var);
    let mut reset = var("reset").filter(|v| v.width == 1).map(|v| Cursor::new(w.trace(v)));
    let [mut rd_valid, mut rd_ready, mut rd_addr, mut rd_space, mut rd_be, mut rdata_valid, mut rdata, mut wr_valid, mut wr_ready, mut wr_addr, mut wr_space, mut wr_be, mut wr_data, mut rsp_valid, mut rsp_lane, mut rsp_data, mut rsp_done, mut rsp_error] =
        REQUIRED_PORTS.map(cursor);
    let has_obs = OBS_PORTS.iter().all(|n| var(n).is_some());
    let mut obs_cursors = has_obs.then(|| OBS_PORTS.map(cursor));

    let mut out = PortTraffic { scope, obs: has_obs.then(Vec::new), ..Default::default() };
    out.edges = edges.clone();
    let mut outstanding: VecDeque<usize> = VecDeque::new();
    for (cycle, &t) in edges.iter().enumerate() {
        if let Some(r) = reset.as_mut() {
            if r.before(t).is_some_and(|v| v.bit(0) == Logic::One) {
                continue;
            }
        }
        let mut problems = Vec::new();
        let p = &mut problems;
        let rd = flag(p, t, &mut rd_valid, "mem_rd_valid") & flag(p, t, &mut rd_ready, "mem_rd_ready");
        let ret = flag(p, t, &mut rdata_valid, "mem_rdata_valid");
        let wr = flag(p, t, &mut wr_valid, "mem_wr_valid") & flag(p, t, &mut wr_ready, "mem_wr_ready");
        let rsp = flag(p, t, &mut rsp_valid, "rsp_valid");
        let done = flag(p, t, &mut rsp_done, "rsp_done");
        let obs_v = obs_cursors.as_mut().map(|o| flag(p, t, &mut o[0], "obs_valid")).unwrap_or(false);
        // a return never belongs to a read accepted in the same cycle (latency >= 1)
        if ret {
            let line = word(p, t, &mut rdata, "mem_rdata");
            match outstanding.pop_front() {
                Some(k) => {
                    out.reads[k].data = line;
                    out.reads[k].returned = Some((cycle, t));
                }
                None => p.push("`mem_rdata_valid` with no outstanding read".into()),
            }
        }
        if rd {
            let h = Handshake {
                cycle,
                time: t,
                space: word(p, t, &mut rd_space, "mem_rd_space") as u8,
                line: word(p, t, &mut rd_addr, "mem_rd_addr") as u64,
                be: word(p, t, &mut rd_be, "mem_rd_be") as u16,
                data: 0,
                returned: None,
            };
            outstanding.push_back(out.reads.len());
            out.reads.push(h);
        }
        if wr {
            out.writes.push(Handshake {
                cycle,
                time: t,
                space: word(p, t, &mut wr_space, "mem_wr_space") as u8,
                line: word(p, t, &mut wr_addr, "mem_wr_addr") as u64,
                be: word(p, t, &mut wr_be, "mem_wr_be") as u16,
                data: word(p, t, &mut wr_data, "mem_wr_data"),
                returned: None,
            });
        }
        if rsp {
            let lane = word(p, t, &mut rsp_lane, "rsp_lane") as u8;
            let data = word(p, t, &mut rsp_data, "rsp_data");
            out.results.push(ResultBeat { cycle, time: t, lane, data });
        }
        if done {
            let error = word(p, t, &mut rsp_error, "rsp_error") & 1 == 1;
            out.dones.push(DoneBeat { cycle, time: t, error });
        }
        if obs_v {
            let o = obs_cursors.as_mut().unwrap();
            let beat = ObsBeat {
                cycle,
                time: t,
                lane: word(p, t, &mut o[1], "obs_lane") as u8,
                elem: word(p, t, &mut o[2], "obs_elem") as u8,
                old: word(p, t, &mut o[3], "obs_old"),
                new: word(p, t, &mut o[4], "obs_new"),
            };
            out.obs.as_mut().unwrap().push(beat);
        }
        out.problems.extend(problems.into_iter().map(|p| (cycle, t, p)));
    }
    Ok(out)
}

/// One difference between the RTL's traffic and the golden model's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// `memory read`, `memory write`, `result`, `done`, `observed element`, `protocol`
    pub stream: &'static str,
    /// what differs, naming the golden transaction / result
    pub what: String,
    /// the RTL event's VCD time and cycle (the trace's end when the RTL has
    /// no event there)
    pub time: u64,
    pub cycle: usize,
}

/// The outcome of [`check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    pub unit: Timescale,
    /// events that agreed, per stream
    pub reads: usize,
    pub writes: usize,
    pub results: usize,
    pub dones: usize,
    pub obs: Option<usize>,
    /// the first mismatch of each stream, earliest first
    pub mismatches: Vec<Mismatch>,
}

impl CheckReport {
    pub fn agrees(&self) -> bool {
        self.mismatches.is_empty()
    }
}

fn space_name(s: u8) -> &'static str {
    if s == 0 {
        "flat"
    } else {
        "slm"
    }
}

fn space_code(s: Space) -> u8 {
    match s {
        Space::Flat => 0,
        Space::Slm => 1,
    }
}

/// The bits of the bytes enabled in `be`.
fn byte_mask(be: u16) -> u128 {
    (0..16).filter(|b| be >> b & 1 == 1).fold(0, |m, b| m | 0xffu128 << (8 * b))
}

/// `0x...` with 2 digits per byte.
fn hex_bytes(v: u128, bytes: u8) -> String {
    format!("0x{:0w$x}", v, w = 2 * bytes as usize)
}

fn describe_txn(n: usize, t: &Txn, exp: &Expected) -> String {
    let m = &exp.messages[t.msg];
    let kind = if t.kind == TxnKind::Read { "read" } else { "write" };
    format!(
        "transaction #{n} (message {} `{}` at line {}, lane {}): {kind} {} {:#x} {} bytes {}",
        t.msg,
        m.kind,
        m.line,
        t.lane,
        t.space.name(),
        t.addr,
        t.bytes,
        hex_bytes(t.data, t.bytes)
    )
}

/// The RTL's handshake as a transaction; `data` replaces the handshake's
/// line (a read's line patched with forwarded writes).
fn describe_hs(h: &Handshake, unit: Timescale, data: Option<u128>) -> String {
    let h = &Handshake { data: data.unwrap_or(h.data), ..*h };
    match h.element() {
        Some((addr, bytes, d)) => format!(
            "the RTL's at {} (cycle {}) is {} {addr:#x} {bytes} bytes {}",
            unit.format(h.time as u128),
            h.cycle,
            space_name(h.space),
            hex_bytes(d, bytes)
        ),
        None => format!(
            "the RTL's at {} (cycle {}) has byte enables {:#06x} that are not one contiguous run",
            unit.format(h.time as u128),
            h.cycle,
            h.be
        ),
    }
}

/// Compares port traffic with the golden model's expectation.
pub fn check(traffic: &PortTraffic, exp: &Expected, w: &Waveform) -> CheckReport {
    let unit = w.timescale;
    let end_cycle = traffic.edges.len();
    let end_time = w.end_time;
    let at = |t: u64| unit.format(t as u128);
    let mut mismatches = Vec::new();
    let mut report = CheckReport { unit, reads: 0, writes: 0, results: 0, dones: 0, obs: None, mismatches: vec![] };

    // memory transactions, golden order; reads and writes each in order
    let (mut r, mut wi) = (0usize, 0usize);
    let mut txn_mismatch: Option<Mismatch> = None;
    for (n, g) in exp.txns.iter().enumerate() {
        let (stream, list, k) = match g.kind {
            TxnKind::Read => ("memory read", &traffic.reads, r),
            TxnKind::Write => ("memory write", &traffic.writes, wi),
        };
        let Some(h) = list.get(k) else {
            txn_mismatch = Some(Mismatch {
                stream,
                what: format!(
                    "{}: the RTL made no such {} (only {} in the trace)",
                    describe_txn(n, g, exp),
                    if g.kind == TxnKind::Read { "read" } else { "write" },
                    list.len()
                ),
                time: end_time,
                cycle: end_cycle,
            });
            break;
        };
        let data = match g.kind {
            TxnKind::Read => {
                // patch the returned line with earlier writes accepted in or
                // after this read's cycle (the unit forwards them)
                let mut line = h.data;
                for wr in traffic.writes.iter().take(wi) {
                    if wr.cycle >= h.cycle && wr.space == h.space && wr.line == h.line {
                        for b in 0..16 {
                            if wr.be >> b & 1 == 1 {
                                let m = 0xffu128 << (8 * b);
                                line = (line & !m) | (wr.data & m);
                            }
                        }
                    }
                }
                line
            }
            TxnKind::Write => h.data,
        };
        let elem = Handshake { data, ..*h }.element();
        let wrong = format!("{}, but {}", describe_txn(n, g, exp), describe_hs(h, unit, Some(data)));
        let problem = match elem {
            None => Some(wrong),
            Some((addr, bytes, _)) if (h.space, addr, bytes) != (space_code(g.space), g.addr, g.bytes) => Some(wrong),
            Some(_) if g.kind == TxnKind::Read && h.returned.is_none() => Some(format!(
                "{}: the RTL's read at {} (cycle {}) never got its data back",
                describe_txn(n, g, exp),
                at(h.time),
                h.cycle
            )),
            Some((_, _, d)) if d != g.data => {
                if let (TxnKind::Read, Some((rc, rt))) = (g.kind, h.returned) {
                    // wrong read data: the return is where to look
                    let what = format!("{wrong}; its data returned at {} (cycle {rc})", at(rt));
                    txn_mismatch = Some(Mismatch { stream, what, time: rt, cycle: rc });
                    break;
                }
                Some(wrong)
            }
            Some(_) if g.kind == TxnKind::Write && h.data & !byte_mask(h.be) != 0 => Some(format!(
                "{}: the RTL's write at {} (cycle {}) has nonzero bytes outside mem_wr_be ({:#034x})",
                describe_txn(n, g, exp),
                at(h.time),
                h.cycle,
                h.data
            )),
            Some(_) => None,
        };
        if let Some(what) = problem {
            txn_mismatch = Some(Mismatch { stream, what, time: h.time, cycle: h.cycle });
            break;
        }
        match g.kind {
            TxnKind::Read => r += 1,
            TxnKind::Write => wi += 1,
        }
    }
    report.reads = r;
    report.writes = wi;
    if txn_mismatch.is_none() {
        for (stream, list, k) in [("memory read", &traffic.reads, r), ("memory write", &traffic.writes, wi)] {
            if let Some(h) = list.get(k) {
                txn_mismatch = Some(Mismatch {
                    stream,
                    what: format!(
                        "{} has no golden transaction (the golden model makes {k} {}s)",
                        describe_hs(h, unit, None).replacen("the RTL's", "the RTL's extra one", 1),
                        stream.trim_start_matches("memory ")
                    ),
                    time: h.time,
                    cycle: h.cycle,
                });
                break;
            }
        }
    }
    mismatches.extend(txn_mismatch);

    // results
    let mut k = 0;
    while k < exp.results.len().max(traffic.results.len()) {
        let (g, b) = (exp.results.get(k), traffic.results.get(k));
        let describe = |g: &ExpectedResult| {
            let m = &exp.messages[g.msg];
            format!("result #{k} (message {} `{}` at line {}): lane {} = {:#x}", g.msg, m.kind, m.line, g.lane, g.data)
        };
        let mm = match (g, b) {
            (Some(g), Some(b)) if (g.lane, g.data) == (b.lane, b.data) => None,
            (Some(g), Some(b)) => Some(Mismatch {
                stream: "result",
                what: format!("{}, but the RTL's at {} (cycle {}) is lane {} = {:#x}", describe(g), at(b.time), b.cycle, b.lane, b.data),
                time: b.time,
                cycle: b.cycle,
            }),
            (Some(g), None) => Some(Mismatch {
                stream: "result",
                what: format!("{}: the RTL gave no such result (only {} in the trace)", describe(g), traffic.results.len()),
                time: end_time,
                cycle: end_cycle,
            }),
            (None, Some(b)) => Some(Mismatch {
                stream: "result",
                what: format!(
                    "the RTL's extra result at {} (cycle {}), lane {} = {:#x}, has no golden result (the golden model gives {})",
                    at(b.time),
                    b.cycle,
                    b.lane,
                    b.data,
                    exp.results.len()
                ),
                time: b.time,
                cycle: b.cycle,
            }),
            (None, None) => None,
        };
        if let Some(mm) = mm {
            mismatches.push(mm);
            break;
        }
        k += 1;
    }
    report.results = k;

    // one done per message, none an error (the script was validated)
    let mut d = 0;
    while d < exp.messages.len().max(traffic.dones.len()) {
        let mm = match (exp.messages.get(d), traffic.dones.get(d)) {
            (Some(_), Some(b)) if !b.error => None,
            (Some(m), Some(b)) => Some(Mismatch {
                stream: "done",
                what: format!(
                    "message {d} `{}` at line {}: the RTL reports rsp_error at {} (cycle {}); the golden model accepts it",
                    m.kind,
                    m.line,
                    at(b.time),
                    b.cycle
                ),
                time: b.time,
                cycle: b.cycle,
            }),
            (Some(m), None) => Some(Mismatch {
                stream: "done",
                what: format!(
                    "message {d} `{}` at line {}: the RTL never signalled rsp_done for it ({} dones in the trace)",
                    m.kind,
                    m.line,
                    traffic.dones.len()
                ),
                time: end_time,
                cycle: end_cycle,
            }),
            (None, Some(b)) => Some(Mismatch {
                stream: "done",
                what: format!(
                    "the RTL's extra rsp_done at {} (cycle {}): the script has only {} messages",
                    at(b.time),
                    b.cycle,
                    exp.messages.len()
                ),
                time: b.time,
                cycle: b.cycle,
            }),
            (None, None) => None,
        };
        if let Some(mm) = mm {
            mismatches.push(mm);
            break;
        }
        d += 1;
    }
    report.dones = d;

    // observed elements: (lane, element, old, new) of every atomic element
    if let Some(obs) = &traffic.obs {
        // (msg, lane, element, old, new) per atomic element: each Read is
        // directly followed by its Write; PTX vector elements of one lane
        // follow each other
        let mut golden: Vec<(usize, u8, u8, u128, u128)> = Vec::new();
        for pair in exp.txns.windows(2) {
            let (rd, wr) = (&pair[0], &pair[1]);
            if rd.kind == TxnKind::Read && wr.kind == TxnKind::Write {
                let elem = match golden.last() {
                    Some(&(m, l, e, _, _)) if m == rd.msg && l == rd.lane => e + 1,
                    _ => 0,
                };
                golden.push((rd.msg, rd.lane, elem, rd.data, wr.data));
            }
        }
        let mut k = 0;
        while k < golden.len().max(obs.len()) {
            let mm = match (golden.get(k), obs.get(k)) {
                (Some(g), Some(b)) if (g.1, g.2, g.3, g.4) == (b.lane, b.elem, b.old, b.new) => None,
                (Some(g), b) => {
                    let m = &exp.messages[g.0];
                    let head = format!(
                        "element #{k} (message {} `{}` at line {}, lane {}, element {}): old {:#x} new {:#x}",
                        g.0, m.kind, m.line, g.1, g.2, g.3, g.4
                    );
                    Some(match b {
                        Some(b) => Mismatch {
                            stream: "observed element",
                            what: format!(
                                "{head}, but the RTL's obs_* at {} (cycle {}) show lane {}, element {}: old {:#x} new {:#x}",
                                at(b.time),
                                b.cycle,
                                b.lane,
                                b.elem,
                                b.old,
                                b.new
                            ),
                            time: b.time,
                            cycle: b.cycle,
                        },
                        None => Mismatch {
                            stream: "observed element",
                            what: format!("{head}: obs_valid never showed it ({} in the trace)", obs.len()),
                            time: end_time,
                            cycle: end_cycle,
                        },
                    })
                }
                (None, Some(b)) => Some(Mismatch {
                    stream: "observed element",
                    what: format!(
                        "the RTL's extra obs_valid at {} (cycle {}), lane {}: the golden model has {} atomic elements",
                        at(b.time),
                        b.cycle,
                        b.lane,
                        golden.len()
                    ),
                    time: b.time,
                    cycle: b.cycle,
                }),
                (None, None) => None,
            };
            if let Some(mm) = mm {
                mismatches.push(mm);
                break;
            }
            k += 1;
        }
        report.obs = Some(k);
    }

    if let Some((cycle, time, what)) = traffic.problems.first() {
        mismatches.push(Mismatch {
            stream: "protocol",
            what: format!("at {} (cycle {cycle}): {what}", at(*time)),
            time: *time,
            cycle: *cycle,
        });
    }
    mismatches.sort_by_key(|m| (m.time, m.cycle));
    report.mismatches = mismatches;
    report
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.stream, self.what)
    }
}

impl CheckReport {
    /// The counts line: `24 reads, 30 writes, 24 results, 8 dones, 24 observed elements`.
    pub fn counts(&self) -> String {
        let obs = self.obs.map_or(String::new(), |o| format!(", {o} observed elements"));
        format!("{} reads, {} writes, {} results, {} dones{obs}", self.reads, self.writes, self.results, self.dones)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn txn(kind: TxnKind, lane: u8, addr: u64, data: u128) -> Txn {
        Txn { msg: 0, lane, kind, space: Space::Flat, addr, bytes: 4, data }
    }

    fn hs(cycle: usize, line: u64, be: u16, data: u128, returned: Option<usize>) -> Handshake {
        Handshake { cycle, time: 10 * cycle as u64 + 5, space: 0, line, be, data, returned: returned.map(|c| (c, 10 * c as u64 + 5)) }
    }

    /// Two lanes add 1 to the word at 0x104 (old 5): the second read is
    /// accepted in the cycle of the first write and returns the stale line.
    fn two_lane_add(second_read_cycle: usize) -> (PortTraffic, Expected) {
        let exp = Expected {
            messages: vec![MessageInfo { line: 3, kind: "SVM_ATOMIC" }],
            txns: vec![
                txn(TxnKind::Read, 0, 0x104, 5),
                txn(TxnKind::Write, 0, 0x104, 6),
                txn(TxnKind::Read, 1, 0x104, 6),
                txn(TxnKind::Write, 1, 0x104, 7),
            ],
            results: vec![ExpectedResult { msg: 0, lane: 0, data: 5 }, ExpectedResult { msg: 0, lane: 1, data: 6 }],
        };
        let stale = 5u128 << 32;
        let traffic = PortTraffic {
            edges: (0..12).map(|c| 10 * c + 5).collect(),
            reads: vec![hs(1, 0x100, 0xf0, stale, Some(2)), hs(second_read_cycle, 0x100, 0xf0, stale, Some(second_read_cycle + 1))],
            writes: vec![hs(3, 0x100, 0xf0, 6u128 << 32, None), hs(6, 0x100, 0xf0, 7u128 << 32, None)],
            results: vec![ResultBeat { cycle: 4, time: 45, lane: 0, data: 5 }, ResultBeat { cycle: 7, time: 75, lane: 1, data: 6 }],
            dones: vec![DoneBeat { cycle: 7, time: 75, error: false }],
            ..Default::default()
        };
        (traffic, exp)
    }

    fn wave() -> Waveform {
        Waveform::parse("t.vcd", b"$timescale 1ns $end $var wire 1 ! clock $end $enddefinitions $end #125 0!").unwrap()
    }

    #[test]
    fn a_stale_read_is_patched_with_a_write_accepted_in_or_after_its_cycle() {
        // read of lane 1 accepted in cycle 3, with lane 0's write: forwarded
        let (traffic, exp) = two_lane_add(3);
        let r = check(&traffic, &exp, &wave());
        assert!(r.agrees(), "{:?}", r.mismatches);
        assert_eq!((r.reads, r.writes, r.results, r.dones), (2, 2, 2, 1));
        // accepted in cycle 4, after the write landed: memory should have had 6
        let (traffic, exp) = two_lane_add(4);
        let r = check(&traffic, &exp, &wave());
        assert_eq!(r.mismatches.len(), 1);
        let m = &r.mismatches[0];
        assert_eq!((m.stream, m.cycle, m.time), ("memory read", 5, 55), "reported where the data returned");
        assert!(m.what.starts_with("transaction #2 (message 0 `SVM_ATOMIC` at line 3, lane 1): read flat 0x104 4 bytes 0x00000006, but the RTL's at 45 ns (cycle 4) is flat 0x104 4 bytes 0x00000005"), "{}", m.what);
    }

    #[test]
    fn missing_extra_and_protocol_problems_are_named() {
        let (mut traffic, exp) = two_lane_add(3);
        traffic.writes.pop();
        traffic.results.push(ResultBeat { cycle: 9, time: 95, lane: 2, data: 0 });
        traffic.writes[0].data |= 1; // a byte outside mem_wr_be
        let r = check(&traffic, &exp, &wave());
        let streams: Vec<&str> = r.mismatches.iter().map(|m| m.stream).collect();
        assert_eq!(streams, ["memory write", "result"]);
        assert!(r.mismatches[0].what.contains("nonzero bytes outside mem_wr_be"), "{}", r.mismatches[0].what);
        assert!(r.mismatches[1].what.contains("extra result at 95 ns (cycle 9)"), "{}", r.mismatches[1].what);
        let (mut traffic, exp) = two_lane_add(3);
        traffic.writes.pop();
        traffic.problems.push((8, 85, "`mem_wr_valid` is x or z".into()));
        let r = check(&traffic, &exp, &wave());
        assert!(r.mismatches.iter().any(|m| m.stream == "memory write" && m.what.contains("the RTL made no such write")));
        assert!(r.mismatches.iter().any(|m| m.stream == "protocol" && m.cycle == 8));
    }

    #[test]
    fn handshake_elements() {
        let h = hs(0, 0x100, 0x0f00, 0xaabbccdd_u128 << 64, None);
        assert_eq!(h.element(), Some((0x108, 4, 0xaabbccdd)));
        assert_eq!(hs(0, 0x100, 0x0101, 0, None).element(), None, "not contiguous");
        assert_eq!(hs(0, 0x100, 0, 0, None).element(), None);
        assert_eq!(hs(0, 0x100, 0xffff, u128::MAX, None).element(), Some((0x100, 16, u128::MAX)));
    }
}
