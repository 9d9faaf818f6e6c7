//! The scoreboard: the golden model in lockstep with the RTL. Every message
//! the driver issues is executed by [`Machine::exec`] at the same moment;
//! its transactions and lane results become expectations, and every event
//! the monitor reports is compared with the next expectation as it
//! happens, so the first difference is named with its cycle:
//!
//! * the read stream and the write stream, each in order (the unit may
//!   accept the next element's read before the previous element's write;
//!   docs/microarchitecture.md "Memory ordering contract"): space, address
//!   and size of every read; space, address, size and data of every write;
//!   for an atomic write also `obs_lane`, `obs_elem` (its place among its
//!   lane's atomic writes), `obs_old` (= the golden Read's data, the value
//!   after forwarding) and `obs_new`, all 128 bits (zero-extended);
//! * every lane result, in lane order per message;
//! * every message's done, with `rsp_error` as expected, only after all its
//!   writes were accepted and all its reads made;
//! * at the end: nothing left expected, then the final flat memory and SLM
//!   byte for byte.

use std::collections::VecDeque;
use std::fmt;

use atomport_core::outcome::{RunOutput, Txn, TxnKind};
use atomport_core::golden::sparse_memory::Memory;
use atomport_core::golden::Machine;
use atomport_core::message::Message;
use atomport_core::program::Space;

use super::transaction::{AtomicObs, Event};

/// The first difference between the RTL and the golden model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// the cycle it was seen (None: found in the final memory)
    pub cycle: Option<u64>,
    /// the message: (index, script line, text)
    pub msg: Option<(usize, usize, String)>,
    pub lane: Option<u8>,
    /// the pin that shows it (`mem_wr_data`, `rsp_data`, `obs_old`, ...;
    /// `final memory` for the end-of-run comparison)
    pub signal: &'static str,
    /// what differs, with expected and observed values
    pub what: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = vec![];
        if let Some((index, line, _)) = &self.msg {
            parts.push(format!("line {line} (message {index})"));
        }
        if let Some(lane) = self.lane {
            parts.push(format!("lane {lane}"));
        }
        if let Some(c) = self.cycle {
            parts.push(format!("cycle {c}"));
        }
        write!(f, "{}: {}", parts.join(", "), self.what)?;
        if let Some((_, _, text)) = &self.msg {
            write!(f, "\n  message: {text}")?;
        }
        Ok(())
    }
}

/// What the golden model says one message does.
#[derive(Clone, Debug)]
struct Expect {
    index: usize,
    line: usize,
    text: String,
    /// (lane, value) of each enabled lane that returns a result, in lane order
    results: VecDeque<(u8, u128)>,
    error: bool,
    /// end positions of the message's reads / writes in the whole streams
    reads_end: u64,
    writes_end: u64,
}

/// One expected write and, for an atomic element, the read it pairs with.
#[derive(Clone, Debug)]
struct ExpWrite {
    write: Txn,
    read: Option<Txn>,
    /// `obs_elem` of an atomic write: its place among its lane's atomic
    /// writes (a lane writes its elements in order, one each)
    elem: u8,
}

/// The golden model plus the expectation queues.
pub struct Scoreboard {
    machine: Machine,
    reads: VecDeque<Txn>,
    writes: VecDeque<ExpWrite>,
    messages: VecDeque<Expect>,
    /// (index, line, text) of every message, to name a message in a report
    names: Vec<(usize, usize, String)>,
    reads_total: u64,
    writes_total: u64,
    reads_seen: u64,
    writes_seen: u64,
    first: Option<Mismatch>,
}

fn kind_name(t: &Txn) -> &'static str {
    match t.kind {
        TxnKind::Read => "read",
        TxnKind::Write => "write",
    }
}

/// `flat 0x1004 4B` — a transaction's place and size.
fn place(space: Space, addr: u64, bytes: u8) -> String {
    format!("{} {addr:#x} {bytes}B", space.name())
}

/// The pin of the first true condition, else `otherwise`.
fn differing(conditions: &[(bool, &'static str)], otherwise: &'static str) -> &'static str {
    conditions.iter().find(|c| c.0).map_or(otherwise, |c| c.1)
}

/// `0x...` with two digits per byte.
pub fn hex_bytes(value: u128, bytes: u8) -> String {
    format!("{:#0w$x}", value, w = 2 + 2 * bytes as usize)
}

impl Scoreboard {
    pub fn new(machine: Machine) -> Scoreboard {
        Scoreboard {
            machine,
            reads: VecDeque::new(),
            writes: VecDeque::new(),
            messages: VecDeque::new(),
            names: Vec::new(),
            reads_total: 0,
            writes_total: 0,
            reads_seen: 0,
            writes_seen: 0,
            first: None,
        }
    }

    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// A `mem.*` / `slm.*` statement (applied between messages, at a
    /// barrier where the unit is idle).
    pub fn backdoor_write(&mut self, space: Space, addr: u64, bytes: &[u8]) {
        self.machine.write(space, addr, bytes);
    }

    /// The first difference found so far.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        self.first.as_ref()
    }

    fn name(&self, index: usize) -> Option<(usize, usize, String)> {
        self.names.get(index).cloned()
    }

    fn fail(&mut self, cycle: Option<u64>, msg: Option<usize>, lane: Option<u8>, signal: &'static str, what: String) {
        if self.first.is_none() {
            let msg = msg.and_then(|m| self.name(m));
            self.first = Some(Mismatch { cycle, msg, lane, signal, what });
        }
    }

    /// Messages issued so far.
    pub fn issued(&self) -> usize {
        self.names.len()
    }

    /// The driver issued `msg` (message `index` in issue order): run it on
    /// the golden model and queue what it must do.
    pub fn issue(&mut self, index: usize, msg: &Message, text: String) {
        let (lanes, txns) = self.machine.exec(index, msg);
        let results = if msg.alu().is_some() {
            lanes.iter().enumerate().filter_map(|(i, l)| l.map(|v| (i as u8, v))).collect()
        } else {
            VecDeque::new()
        };
        self.queue_txns(&txns);
        self.register(index, msg.line, text, results, false);
    }

    /// The driver issued `msg` with lane `lane`'s address misaligned on the
    /// pins: the golden model's [`Machine::exec_misaligned`], and the
    /// message ends with `rsp_error`.
    pub fn issue_misaligned(&mut self, index: usize, msg: &Message, lane: u8, text: String) {
        let (lanes, txns) = self.machine.exec_misaligned(index, msg, usize::from(lane));
        let results: VecDeque<(u8, u128)> =
            if msg.alu().is_some() { lanes.iter().enumerate().filter_map(|(i, l)| l.map(|v| (i as u8, v))).collect() } else { VecDeque::new() };
        self.queue_txns(&txns);
        self.register(index, msg.line, text, results, true);
    }

    /// The driver issued a request the unit must reject (an illegal
    /// descriptor or surface state): no access, no result, done with error.
    pub fn issue_illegal(&mut self, index: usize, line: usize, text: String) {
        self.register(index, line, text, VecDeque::new(), true);
    }

    fn register(&mut self, index: usize, line: usize, text: String, results: VecDeque<(u8, u128)>, error: bool) {
        if self.names.len() <= index {
            self.names.resize(index + 1, (0, 0, String::new()));
        }
        self.names[index] = (index, line, text.clone());
        self.messages.push_back(Expect {
            index,
            line,
            text,
            results,
            error,
            reads_end: self.reads_total,
            writes_end: self.writes_total,
        });
    }

    /// Queues one message's transactions.
    fn queue_txns(&mut self, txns: &[Txn]) {
        let mut pending_read: Option<Txn> = None;
        let mut atomic_writes = [0u8; 32];
        for t in txns {
            match t.kind {
                TxnKind::Read => {
                    self.reads.push_back(*t);
                    self.reads_total += 1;
                    pending_read = Some(*t);
                }
                TxnKind::Write => {
                    let read = pending_read.take();
                    let lane_writes = &mut atomic_writes[usize::from(t.lane)];
                    let elem = *lane_writes;
                    if read.is_some() {
                        *lane_writes += 1;
                    }
                    self.writes.push_back(ExpWrite { write: *t, read, elem });
                    self.writes_total += 1;
                }
            }
        }
    }

    /// Compares one monitor event with the next expectation.
    pub fn check(&mut self, event: &Event) {
        if self.first.is_some() {
            return;
        }
        match *event {
            Event::Read { cycle, space, addr, bytes } => {
                let n = self.reads_seen;
                self.reads_seen += 1;
                match self.reads.pop_front() {
                    None => self.fail(Some(cycle), None, None, "mem_rd_valid", format!("read {n}: the RTL read {} but the golden model makes no further read", place(space, addr, bytes))),
                    Some(e) if (e.space, e.addr, e.bytes) != (space, addr, bytes) => self.fail(
                        Some(cycle),
                        Some(e.msg),
                        Some(e.lane),
                        differing(&[(e.space != space, "mem_rd_space"), (e.bytes != bytes, "mem_rd_be")], "mem_rd_addr"),
                        format!("read {n}: expected a read of {}, the RTL read {}", place(e.space, e.addr, e.bytes), place(space, addr, bytes)),
                    ),
                    Some(_) => {}
                }
            }
            Event::Write { cycle, space, addr, bytes, data, atomic, .. } => {
                let n = self.writes_seen;
                self.writes_seen += 1;
                let Some(ExpWrite { write: e, read, elem }) = self.writes.pop_front() else {
                    let what = format!(
                        "write {n}: the RTL wrote {} = {} but the golden model makes no further write",
                        place(space, addr, bytes),
                        hex_bytes(data, bytes)
                    );
                    return self.fail(Some(cycle), None, atomic.map(|a| a.lane), "mem_wr_valid", what);
                };
                if (e.space, e.addr, e.bytes, e.data) != (space, addr, bytes, data) {
                    let what = format!(
                        "write {n}: expected {} = {}, the RTL wrote {} = {}",
                        place(e.space, e.addr, e.bytes),
                        hex_bytes(e.data, e.bytes),
                        place(space, addr, bytes),
                        hex_bytes(data, bytes)
                    );
                    let signal = differing(
                        &[(e.space != space, "mem_wr_space"), (e.addr != addr, "mem_wr_addr"), (e.bytes != bytes, "mem_wr_be")],
                        "mem_wr_data",
                    );
                    return self.fail(Some(cycle), Some(e.msg), Some(e.lane), signal, what);
                }
                self.check_obs(cycle, n, &e, read.as_ref(), elem, atomic);
            }
            Event::Result { cycle, msg, lane, data } => {
                let Some(exp) = self.messages.iter_mut().find(|m| m.index == msg) else {
                    return self.fail(Some(cycle), Some(msg), Some(lane), "rsp_valid", "a result for a message the golden model has finished".into());
                };
                match exp.results.pop_front() {
                    None => self.fail(
                        Some(cycle),
                        Some(msg),
                        Some(lane),
                        "rsp_valid",
                        format!("result {data:#x} for lane {lane}: the golden model expects no further result for this message"),
                    ),
                    Some((el, ev)) if (el, ev) != (lane, data) => self.fail(
                        Some(cycle),
                        Some(msg),
                        Some(el),
                        if el != lane { "rsp_lane" } else { "rsp_data" },
                        format!("result: expected lane {el} = {ev:#x}, the RTL returned lane {lane} = {data:#x}"),
                    ),
                    Some(_) => {}
                }
            }
            Event::Done { cycle, msg, error } => {
                let Some(exp) = self.messages.pop_front() else {
                    return self.fail(Some(cycle), Some(msg), None, "rsp_done", "rsp_done for a message the golden model never issued".into());
                };
                if exp.index != msg {
                    return self.fail(Some(cycle), Some(exp.index), None, "rsp_done", format!("rsp_done for message {msg} while message {} is the oldest", exp.index));
                }
                if error != exp.error {
                    let what = if error {
                        "the RTL flagged the descriptor illegal (rsp_error); the golden model runs it".to_string()
                    } else {
                        "the RTL ran the message; an illegal descriptor must end with rsp_error and no access".to_string()
                    };
                    return self.fail(Some(cycle), Some(msg), None, "rsp_error", what);
                }
                if let Some(&(lane, value)) = exp.results.front() {
                    return self.fail(Some(cycle), Some(msg), Some(lane), "rsp_done", format!("rsp_done before the result of lane {lane} (expected {value:#x})"));
                }
                if self.writes_seen < exp.writes_end {
                    let e = self.writes.front().map(|w| w.write);
                    return self.fail(
                        Some(cycle),
                        Some(msg),
                        e.map(|t| t.lane),
                        "rsp_done",
                        format!(
                            "rsp_done before all the message's writes were accepted ({} of its writes missing; next expected {})",
                            exp.writes_end - self.writes_seen,
                            e.map_or(String::new(), |t| place(t.space, t.addr, t.bytes))
                        ),
                    );
                }
                if self.reads_seen < exp.reads_end {
                    return self.fail(Some(cycle), Some(msg), None, "rsp_done", format!("rsp_done with {} of the message's reads not made", exp.reads_end - self.reads_seen));
                }
                let _ = (exp.line, exp.text);
            }
        }
    }

    fn check_obs(&mut self, cycle: u64, n: u64, e: &Txn, read: Option<&Txn>, elem: u8, atomic: Option<AtomicObs>) {
        match (read, atomic) {
            (None, None) => {}
            (Some(_), None) => self.fail(
                Some(cycle),
                Some(e.msg),
                Some(e.lane),
                "obs_valid",
                format!("write {n} ({}) is an atomic element's write but obs_valid is low", place(e.space, e.addr, e.bytes)),
            ),
            (None, Some(o)) => self.fail(
                Some(cycle),
                Some(e.msg),
                Some(e.lane),
                "obs_valid",
                format!("write {n} ({}) is a scatter block but obs_valid is high (lane {})", place(e.space, e.addr, e.bytes), o.lane),
            ),
            (Some(r), Some(o)) => {
                if o.lane != e.lane {
                    self.fail(Some(cycle), Some(e.msg), Some(e.lane), "obs_lane", format!("write {n}: obs_lane {} but the golden model's lane is {}", o.lane, e.lane));
                } else if o.elem != elem {
                    self.fail(Some(cycle), Some(e.msg), Some(e.lane), "obs_elem", format!("write {n}: obs_elem {} but it is element {elem} of its lane", o.elem));
                } else if o.old != r.data {
                    self.fail(
                        Some(cycle),
                        Some(e.msg),
                        Some(e.lane),
                        "obs_old",
                        format!(
                            "read of {} (paired with write {n}): expected old value {}, the RTL used {} (obs_old)",
                            place(r.space, r.addr, r.bytes),
                            hex_bytes(r.data, r.bytes),
                            hex_bytes(o.old, r.bytes)
                        ),
                    );
                } else if o.new != e.data {
                    self.fail(
                        Some(cycle),
                        Some(e.msg),
                        Some(e.lane),
                        "obs_new",
                        format!("write {n}: obs_new {} differs from the data written {}", hex_bytes(o.new, e.bytes), hex_bytes(e.data, e.bytes)),
                    );
                }
            }
        }
    }

    /// After the run: nothing may be left expected; then the final memory
    /// of both spaces must be equal byte for byte.
    pub fn finish(&mut self, rtl_flat: &Memory, rtl_slm: &Memory) {
        if self.first.is_some() {
            return;
        }
        if let Some(e) = self.reads.front().copied() {
            return self.fail(None, Some(e.msg), Some(e.lane), "mem_rd_valid", format!("the RTL never made the read of {}", place(e.space, e.addr, e.bytes)));
        }
        if let Some(e) = self.writes.front().map(|w| w.write) {
            let what = format!("the RTL never made the {} of {} = {}", kind_name(&e), place(e.space, e.addr, e.bytes), hex_bytes(e.data, e.bytes));
            return self.fail(None, Some(e.msg), Some(e.lane), "mem_wr_valid", what);
        }
        if let Some(m) = self.messages.front() {
            let index = m.index;
            return self.fail(None, Some(index), None, "rsp_done", "the RTL never signalled rsp_done for this message".into());
        }
        for (space, rtl) in [(Space::Flat, rtl_flat), (Space::Slm, rtl_slm)] {
            if let Some(what) = first_byte_difference(self.machine.memory(space), rtl, space) {
                return self.fail(None, None, None, "final memory", what);
            }
        }
    }
}

/// The first difference between two runs' reports (results in script
/// order, lane by lane, then dumps byte by byte), described; None when the
/// results and dumps agree. The scoreboard's check is finer (every
/// transaction, as it happens); this one compares what the JSON shows.
pub fn first_output_difference(golden: &RunOutput, rtl: &RunOutput) -> Option<String> {
    for (g, r) in golden.results.iter().zip(&rtl.results) {
        if (g.line, &g.name, g.width) != (r.line, &r.name, r.width) {
            return Some(format!("result entry of line {} ({}): the RTL reports line {} ({})", g.line, g.name, r.line, r.name));
        }
        for (lane, (gl, rl)) in g.lanes.iter().zip(&r.lanes).enumerate() {
            if gl != rl {
                let show = |v: &Option<u128>| v.map_or("null".to_string(), |v| atomport_core::report::lane_hex(v, g.width));
                return Some(format!("line {}, result {}, lane {lane}: golden {}, RTL {}", g.line, g.name, show(gl), show(rl)));
            }
        }
        if g.lanes.len() != r.lanes.len() {
            return Some(format!("line {}: golden has {} lanes, RTL {}", g.line, g.lanes.len(), r.lanes.len()));
        }
    }
    if golden.results.len() != rtl.results.len() {
        return Some(format!("golden has {} result entries, RTL {}", golden.results.len(), rtl.results.len()));
    }
    for (g, r) in golden.dumps.iter().zip(&rtl.dumps) {
        if let Some(k) = (0..g.bytes.len()).find(|&k| g.bytes.get(k) != r.bytes.get(k)) {
            return Some(format!(
                "dump of line {}: {} byte {:#x}: golden {:#04x}, RTL {}",
                g.line,
                g.space.name(),
                g.addr.wrapping_add(k as u64),
                g.bytes[k],
                r.bytes.get(k).map_or("missing".to_string(), |b| format!("{b:#04x}"))
            ));
        }
    }
    None
}

/// The first byte (in address order) where two memories differ, described.
pub fn first_byte_difference(golden: &Memory, rtl: &Memory, space: Space) -> Option<String> {
    let g = golden.nonzero_bytes();
    let r = rtl.nonzero_bytes();
    let (mut i, mut j) = (0, 0);
    loop {
        let (ga, ra) = (g.get(i).map(|x| x.0), r.get(j).map(|x| x.0));
        let addr = match (ga, ra) {
            (None, None) => return None,
            (Some(a), None) | (None, Some(a)) => a,
            (Some(a), Some(b)) if a == b => {
                if g[i].1 != r[j].1 {
                    a
                } else {
                    i += 1;
                    j += 1;
                    continue;
                }
            }
            (Some(a), Some(b)) => a.min(b),
        };
        return Some(format!(
            "final memory: {} byte {addr:#x}: golden {:#04x}, RTL {:#04x}",
            space.name(),
            golden.byte(addr),
            rtl.byte(addr)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_byte_difference_finds_the_lowest_address() {
        let mut a = Memory::new();
        let mut b = Memory::new();
        a.write(0x10, &[1, 2, 3]);
        b.write(0x10, &[1, 2, 3]);
        assert_eq!(first_byte_difference(&a, &b, Space::Flat), None);
        b.set_byte(0x11, 9);
        a.set_byte(0x5000, 1);
        let d = first_byte_difference(&a, &b, Space::Slm).unwrap();
        assert!(d.contains("slm byte 0x11: golden 0x02, RTL 0x09"), "{d}");
        b.set_byte(0x11, 2);
        assert!(first_byte_difference(&a, &b, Space::Flat).unwrap().contains("0x5000"));
    }

    fn program(text: &str) -> atomport_core::program::Program {
        atomport_core::script::parse("t.atom", text).unwrap()
    }

    #[test]
    fn a_wrong_write_and_a_missing_result_are_named() {
        let p = program("SVM_ATOMIC.add (2) [0x100 0x104] d [1 2] V0\n");
        let msg = p.messages().next().unwrap().clone();
        let mut sb = Scoreboard::new(Machine::new(&p));
        sb.issue(0, &msg, "m".into());
        sb.check(&Event::Read { cycle: 3, space: Space::Flat, addr: 0x100, bytes: 4 });
        let obs = AtomicObs { lane: 0, elem: 0, old: 0, new: 1 };
        sb.check(&Event::Write { cycle: 4, msg: 0, space: Space::Flat, addr: 0x100, bytes: 4, data: 1, atomic: Some(obs) });
        assert!(sb.mismatch().is_none());
        sb.check(&Event::Read { cycle: 5, space: Space::Flat, addr: 0x104, bytes: 4 });
        let obs = AtomicObs { lane: 1, elem: 0, old: 0, new: 3 };
        sb.check(&Event::Write { cycle: 6, msg: 0, space: Space::Flat, addr: 0x104, bytes: 4, data: 3, atomic: Some(obs) });
        let m = sb.mismatch().unwrap();
        assert_eq!((m.cycle, m.lane), (Some(6), Some(1)));
        assert!(m.what.contains("write 1: expected flat 0x104 4B = 0x00000002, the RTL wrote flat 0x104 4B = 0x00000003"), "{m}");

        let mut sb = Scoreboard::new(Machine::new(&p));
        sb.issue(0, &msg, "m".into());
        sb.check(&Event::Done { cycle: 9, msg: 0, error: false });
        assert!(sb.mismatch().unwrap().what.contains("rsp_done before the result of lane 0"));
    }
}
