//! The monitor: the unit's pins, cycle by cycle, turned into what the
//! golden model also reports — memory transactions, lane results, message
//! completions — running the port contract's checks
//! ([`crate::port_contract`]) on every cycle, and the checks that need the
//! messages (docs/microarchitecture.md, "Port table" and "Memory ordering
//! contract").
//!
//! It knows of each message only what the driver put on the pins (its
//! index, line, channel enables and kind), never the golden model's answer,
//! so an RTL-only run reports on its own. How pins become transactions:
//!
//! * a read handshake (`mem_rd_valid & mem_rd_ready`) is an element read at
//!   `mem_rd_addr + (first enabled byte of mem_rd_be)`, `popcount(be)`
//!   bytes. Its data is the value the read-modify-write used *after
//!   forwarding*, which the unit reports on `obs_old` when the element's
//!   write is accepted (the line memory returned may be older);
//! * a write handshake is a write at `mem_wr_addr + first enabled byte`,
//!   `popcount(mem_wr_be)` bytes, data = `mem_wr_data` shifted down. It
//!   belongs to the oldest message not done (after that cycle's
//!   `rsp_done`). A write of an atomic message pairs with `obs_valid`
//!   (lane, old, new) and with the oldest read not yet paired (both streams
//!   are in order). The port table puts `obs_*` in the write's own cycle;
//!   the monitor also accepts it later (in order, before the message's
//!   done), as the unit registers it one cycle after the write;
//! * a write of an SVM_SCATTER message is a block; its lane is the lane
//!   the block belongs to in issue order (the pins carry no lane for it);
//! * results (`rsp_valid`) belong, in order, to the oldest message that
//!   has not received all its results (one per enabled lane, none for
//!   SVM_SCATTER); `rsp_done` to the oldest message not yet done; memory
//!   transactions to the oldest message not yet done.

use std::collections::VecDeque;

use atomport_core::outcome::{LaneResults, Txn, TxnKind};
use atomport_core::program::Space;

use super::pins::CycleSample;
pub use super::port_contract::{be_bits, be_span, MAX_OUTSTANDING_READS};
use super::port_contract::{Breach, PortContract};
pub use super::transaction::{AtomicObs, Event, Finished, Frame, Violation};

/// A message on the pins or in flight.
#[derive(Clone, Debug)]
pub struct Tracked {
    pub frame: Frame,
    pub raised: u64,
    pub accepted: Option<u64>,
    /// results received so far, per lane
    pub results: Vec<Option<u128>>,
    pub results_seen: u32,
    /// last lane that returned a result
    pub last_lane: Option<u8>,
    /// scatter blocks written so far
    pub blocks_written: u32,
}

/// A write accepted and not yet reported.
#[derive(Clone, Copy, Debug)]
struct PendingWrite {
    cycle: u64,
    msg: usize,
    space: Space,
    addr: u64,
    bytes: u8,
    data: u128,
    /// an atomic element's write (expects `obs_*`), else a scatter block
    atomic: bool,
    /// a scatter block's lane
    lane: Option<u8>,
    obs: Option<AtomicObs>,
    /// the paired read: (space, addr, bytes)
    read: Option<(Space, u64, u8)>,
}

/// The monitor's state.
#[derive(Default)]
pub struct Monitor {
    /// messages issued and not yet raised on `req_*`, in issue order
    pending: VecDeque<Frame>,
    /// the message on `req_*` (raised, not yet taken)
    on_pins: Option<usize>,
    /// the port contract's checks and their state
    contract: PortContract,
    /// raised (on the pins or accepted) and not done, oldest first
    in_flight: VecDeque<Tracked>,
    /// reads accepted, not yet paired with their write: (space, addr, bytes)
    unpaired_reads: VecDeque<(Space, u64, u8)>,
    /// writes accepted and not yet reported (an atomic write waits for its
    /// `obs_*`, which the unit may show in a later cycle)
    writes: VecDeque<PendingWrite>,
    /// transactions in golden-model order (each read right before its write)
    pub txns: Vec<Txn>,
    pub finished: Vec<Finished>,
    /// the cycle of the last done (the watchdog's clock for the next message)
    pub last_done: u64,
}

fn space_of(slm: bool) -> Space {
    if slm {
        Space::Slm
    } else {
        Space::Flat
    }
}

impl Monitor {
    pub fn new() -> Monitor {
        Monitor::default()
    }

    /// Messages raised and not yet done, oldest first.
    pub fn in_flight(&self) -> &VecDeque<Tracked> {
        &self.in_flight
    }

    /// The next message the driver will put on `req_*` (messages are
    /// raised in the order they are expected).
    pub fn expect(&mut self, frame: Frame) {
        self.pending.push_back(frame);
    }

    /// Messages expected and not yet raised.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// `req_valid` rose with this message.
    fn raised(&mut self, frame: Frame, cycle: u64) {
        let lanes = frame.exec_size.max(1) as usize;
        self.in_flight.push_back(Tracked {
            frame,
            raised: cycle,
            accepted: None,
            results: vec![None; lanes],
            results_seen: 0,
            last_lane: None,
            blocks_written: 0,
        });
    }

    /// The message on the pins was taken (`req_valid & req_ready`).
    fn accepted(&mut self, index: usize, cycle: u64) {
        if let Some(t) = self.in_flight.iter_mut().find(|t| t.frame.index == index) {
            t.accepted = Some(cycle);
        }
    }

    fn violation(&self, cycle: u64, signal: &'static str, what: String) -> Violation {
        let msg = self.in_flight.front().map(|t| (t.frame.index, t.frame.line, t.frame.text.clone()));
        Violation { cycle, msg, signal, what }
    }

    /// A breach of the port contract in `cycle`, as a violation.
    fn breached(&self, cycle: u64) -> impl Fn(Breach) -> Violation + '_ {
        move |b| self.violation(cycle, b.signal, b.what)
    }

    /// One cycle of pins ([`CycleSample`]): the request handshake raises
    /// and takes the expected messages in order; the memory handshakes,
    /// `obs_*`, `rsp_*` become events, appended to `events`.
    pub fn observe(&mut self, s: &CycleSample, events: &mut Vec<Event>) -> Result<(), Violation> {
        let cycle = s.cycle;
        let out = &s.out;
        let (read_accepted, write_accepted) = (s.read_accepted(), s.write_accepted());
        // --- the request: req_valid with nothing on the pins raises the
        // next expected message; req_ready takes it
        if s.req_valid && self.on_pins.is_none() {
            let Some(frame) = self.pending.pop_front() else {
                return Err(self.violation(cycle, "req_valid", "req_valid rose with no further message expected".into()));
            };
            if let Some(desc) = s.req_desc {
                if desc != frame.desc_word() {
                    let what = format!(
                        "req_desc {desc:#x} rose, but the next message (index {}, line {}: {}) encodes {:#x}",
                        frame.index,
                        frame.line,
                        frame.text,
                        frame.desc_word()
                    );
                    return Err(Violation { cycle, msg: Some((frame.index, frame.line, frame.text)), signal: "req_desc", what });
                }
            }
            self.on_pins = Some(frame.index);
            self.raised(frame, cycle);
        } else if !s.req_valid && self.on_pins.is_some() {
            return Err(self.violation(cycle, "req_valid", "req_valid dropped before req_ready took the message".into()));
        }
        // --- the payload port: each enabled lane of each taken message read
        // exactly once, in ascending lane order, message after message, with
        // the message's slot; a third message taken only once the oldest's
        // lanes are read
        if s.payload_shown {
            self.contract.payload_reads(s).map_err(self.breached(cycle))?;
        }
        if let (Some(index), true) = (self.on_pins, s.request_accepted()) {
            self.accepted(index, cycle);
            self.on_pins = None;
            let enables = self.in_flight.iter().find(|t| t.frame.index == index).map_or(0, |t| t.frame.enables);
            self.contract.taken(index, enables, s.payload_shown);
        }
        // --- valid/ready stability: a raised valid holds until accepted
        self.contract.holds(s).map_err(self.breached(cycle))?;

        // --- read data returns, read handshakes
        self.contract.read_data(s).map_err(self.breached(cycle))?;
        if read_accepted {
            let (first, bytes) = self.contract.read_shape(s).map_err(self.breached(cycle))?;
            if self.in_flight.is_empty() {
                return Err(self.violation(cycle, "mem_rd_valid", format!("read of line {:#x} with no message in flight", out.rd_addr)));
            }
            self.contract.read_issued().map_err(self.breached(cycle))?;
            let space = space_of(out.rd_slm);
            let addr = out.rd_addr + first as u64;
            self.unpaired_reads.push_back((space, addr, bytes as u8));
            events.push(Event::Read { cycle, space, addr, bytes: bytes as u8 });
        }

        // --- write handshakes: checked and parsed now, attributed after
        // this cycle's done (a write accepted in the cycle the previous
        // message's registered done shows belongs to the next message)
        let this_write = if write_accepted {
            let (first, bytes) = self.contract.write_shape(s).map_err(self.breached(cycle))?;
            Some((space_of(out.wr_slm), out.wr_addr + first as u64, bytes as u8, out.wr_data >> (8 * first)))
        } else {
            None
        };
        let mut this_write = this_write;

        // --- obs: completes the oldest atomic write still waiting for it
        // (the one accepted this cycle if none is waiting)
        if out.obs_valid {
            if !self.writes.iter().any(|w| w.atomic && w.obs.is_none()) {
                match this_write.take() {
                    Some(w) => self.queue_write(cycle, w)?,
                    None => {
                        return Err(self.violation(cycle, "obs_valid", format!("obs_valid (lane {}) with no atomic write accepted before it", out.obs_lane)))
                    }
                }
            }
            let Some(pos) = self.writes.iter().position(|w| w.atomic && w.obs.is_none()) else {
                return Err(self.violation(cycle, "obs_valid", format!("obs_valid (lane {}) but the write accepted is a scatter block's", out.obs_lane)));
            };
            let Some((rspace, raddr, rbytes)) = self.unpaired_reads.pop_front() else {
                return Err(self.violation(cycle, "obs_valid", format!("atomic write (obs_valid, lane {}) with no read before it", out.obs_lane)));
            };
            let w = &mut self.writes[pos];
            w.read = Some((rspace, raddr, rbytes));
            w.obs = Some(AtomicObs {
                lane: out.obs_lane,
                elem: out.obs_elem,
                old: out.obs_old,
                new: out.obs_new,
            });
        }
        self.flush_writes(events);

        // --- results
        if out.rsp_valid {
            let Some(t) = self.in_flight.iter_mut().find(|t| t.results_seen < t.frame.result_lanes.count_ones()) else {
                return Err(self.violation(
                    cycle,
                    "rsp_valid",
                    format!("rsp_valid (lane {}, data {:#x}) while no message expects a result", out.rsp_lane, out.rsp_data),
                ));
            };
            let lane = out.rsp_lane;
            let (index, line, text) = (t.frame.index, t.frame.line, t.frame.text.clone());
            let bad = if lane as usize >= t.results.len() || t.frame.result_lanes >> lane & 1 == 0 {
                Some(format!("rsp_lane {lane} is not an enabled lane (enables {:#x})", t.frame.result_lanes))
            } else if t.last_lane.is_some_and(|l| l >= lane) {
                Some(format!("rsp_lane {lane} after lane {}: results must come once per lane in lane order", t.last_lane.unwrap()))
            } else {
                None
            };
            if let Some(what) = bad {
                return Err(Violation { cycle, msg: Some((index, line, text)), signal: "rsp_lane", what });
            }
            t.results[lane as usize] = Some(out.rsp_data);
            t.results_seen += 1;
            t.last_lane = Some(lane);
            events.push(Event::Result { cycle, msg: index, lane, data: out.rsp_data });
        }

        // --- message done
        self.contract.error_with_done(s).map_err(self.breached(cycle))?;
        if out.rsp_done {
            let Some(t) = self.in_flight.front() else {
                return Err(self.violation(cycle, "rsp_done", "rsp_done with no message in flight".into()));
            };
            if t.accepted.is_none() {
                return Err(self.violation(cycle, "rsp_done", "rsp_done for a message the unit has not taken (req_ready never rose)".into()));
            }
            if let (true, Some(read)) = (s.payload_shown, self.contract.unread_lanes(t.frame.index)) {
                return Err(self.violation(
                    cycle,
                    "rsp_done",
                    format!("rsp_done while lanes {read:#x} of the message's enabled lanes {:#x} were read on the payload port", t.frame.enables),
                ));
            }
            if !out.rsp_error && t.results_seen < t.frame.result_lanes.count_ones() {
                let missing: Vec<u32> =
                    (0..32).filter(|&l| t.frame.result_lanes >> l & 1 != 0 && t.results[l as usize].is_none()).collect();
                return Err(self.violation(cycle, "rsp_done", format!("rsp_done before the results of lanes {missing:?}")));
            }
            if let Some(w) = self.writes.iter().find(|w| w.msg == t.frame.index && w.obs.is_none() && w.atomic) {
                return Err(self.violation(
                    cycle,
                    "obs_valid",
                    format!("rsp_done while the atomic write of {} {:#x} (accepted at cycle {}) has not shown obs_valid", w.space.name(), w.addr, w.cycle),
                ));
            }
            let t = self.in_flight.pop_front().unwrap();
            events.push(Event::Done { cycle, msg: t.frame.index, error: out.rsp_error });
            self.last_done = cycle;
            self.finished.push(Finished {
                raised: t.raised,
                accepted: t.accepted,
                done: cycle,
                error: out.rsp_error,
                results: t.results,
                frame: t.frame,
            });
        }
        if let Some(w) = this_write {
            self.queue_write(cycle, w)?;
            self.flush_writes(events);
        }
        Ok(())
    }

    /// Attributes a write accepted in `cycle` to the oldest message not
    /// done and queues it: a scatter block is complete at once, an atomic
    /// element's write waits for its `obs_*`.
    fn queue_write(&mut self, cycle: u64, (space, addr, bytes, data): (Space, u64, u8, u128)) -> Result<(), Violation> {
        let Some(owner) = self.in_flight.front_mut() else {
            return Err(self.violation(cycle, "mem_wr_valid", format!("write of {} {addr:#x} with no message in flight", space.name())));
        };
        let msg = owner.frame.index;
        let atomic = owner.frame.scatter_blocks.is_none();
        let lane = if atomic {
            None
        } else {
            // a scatter block: its lane is the (k / num_blocks)-th enabled lane
            let blocks = owner.frame.scatter_blocks.unwrap_or(1).max(1) as u32;
            let nth = owner.blocks_written / blocks;
            owner.blocks_written += 1;
            Some(nth_set_bit(owner.frame.enables, nth).unwrap_or(0xff))
        };
        self.writes.push_back(PendingWrite { cycle, msg, space, addr, bytes, data, atomic, lane, obs: None, read: None });
        Ok(())
    }

    /// Emits the writes at the queue's front that are complete, in order.
    fn flush_writes(&mut self, events: &mut Vec<Event>) {
        while self.writes.front().is_some_and(|w| !w.atomic || w.obs.is_some()) {
            let w = self.writes.pop_front().unwrap();
            let lane = w.obs.map_or(w.lane.unwrap_or(0xff), |o| o.lane);
            if let (Some((rspace, raddr, rbytes)), Some(o)) = (w.read, w.obs) {
                self.txns.push(Txn { msg: w.msg, lane, kind: TxnKind::Read, space: rspace, addr: raddr, bytes: rbytes, data: o.old });
            }
            self.txns.push(Txn { msg: w.msg, lane, kind: TxnKind::Write, space: w.space, addr: w.addr, bytes: w.bytes, data: w.data });
            events.push(Event::Write { cycle: w.cycle, msg: w.msg, space: w.space, addr: w.addr, bytes: w.bytes, data: w.data, atomic: w.obs });
        }
    }

    /// Whether nothing is in flight, no read is outstanding or unpaired, and
    /// no request is held on a memory channel.
    pub fn idle(&self) -> bool {
        self.pending.is_empty() && self.on_pins.is_none() && self.in_flight.is_empty() && self.contract.outstanding_reads() == 0 && self.unpaired_reads.is_empty() && self.writes.is_empty()
    }

    /// Reads accepted whose write has not been seen (an atomic's element
    /// read waiting for its write).
    pub fn unpaired_reads(&self) -> usize {
        self.unpaired_reads.len()
    }

    /// The finished messages' result entries (scripts.md JSON `results`),
    /// in issue order: lanes masked to the result width, disabled lanes null.
    pub fn results(&self) -> Vec<LaneResults> {
        let mut done: Vec<&Finished> = self.finished.iter().collect();
        done.sort_by_key(|f| f.frame.index);
        done.iter()
            .filter_map(|f| {
                let (name, width) = f.frame.result.clone()?;
                let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
                let lanes = f.results.iter().map(|l| l.map(|v| v & mask)).collect();
                Some(LaneResults { line: f.frame.line, name, width, lanes })
            })
            .collect()
    }
}

/// The index of the `n`-th (0-based) set bit of `mask`.
pub fn nth_set_bit(mask: u32, n: u32) -> Option<u8> {
    (0..32u8).filter(|&b| mask >> b & 1 != 0).nth(n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pins::UnitOutputs;

    #[test]
    fn byte_enable_spans() {
        assert_eq!(be_span(0x00f0), Some((4, 4)));
        assert_eq!(be_span(0xffff), Some((0, 16)));
        assert_eq!(be_span(0x8000), Some((15, 1)));
        assert_eq!(be_span(0x0000), None);
        assert_eq!(be_span(0x0101), None);
        assert_eq!(be_bits(0x0003), 0xffff);
        assert_eq!(nth_set_bit(0b1010_0100, 1), Some(5));
        assert_eq!(nth_set_bit(0b100, 1), None);
    }

    fn frame(index: usize, enables: u32) -> Frame {
        Frame {
            index,
            line: index + 1,
            text: format!("m{index}"),
            result_lanes: enables,
            enables,
            exec_size: 4,
            scatter_blocks: None,
            result: Some(("d".into(), 32)),
            max_elements: 4,
            walk_cycles: 0,
            desc: vec![0x7d],
        }
    }

    /// A cycle's sample: `outputs`, readies high, no request raised.
    fn at(cycle: u64, out: UnitOutputs, rdata: Option<u128>) -> CycleSample {
        CycleSample { cycle, out, rd_ready: true, wr_ready: true, rdata, ..Default::default() }
    }

    /// Message 0 raised and taken in cycle 0.
    fn started(enables: u32) -> (Monitor, Vec<Event>) {
        let mut m = Monitor::new();
        let mut ev = vec![];
        m.expect(frame(0, enables));
        let req = UnitOutputs { req_ready: true, ..Default::default() };
        m.observe(&CycleSample { req_valid: true, req_desc: Some(0x7d), payload_shown: true, ..at(0, req, None) }, &mut ev).unwrap();
        (m, ev)
    }

    #[test]
    fn pairs_atomic_writes_with_reads_and_attributes_results() {
        let (mut m, mut ev) = started(0b0101);
        let rd = UnitOutputs { rd_valid: true, rd_addr: 0x100, rd_be: 0x00f0, ..Default::default() };
        m.observe(&at(1, rd, None), &mut ev).unwrap();
        let wr = UnitOutputs {
            wr_valid: true,
            wr_addr: 0x100,
            wr_be: 0x00f0,
            wr_data: 0x7_0000_0000,
            obs_valid: true,
            obs_lane: 0,
            obs_old: 6,
            obs_new: 7,
            rsp_valid: true,
            rsp_lane: 0,
            rsp_data: 6,
            ..Default::default()
        };
        m.observe(&CycleSample { rd_ready: false, ..at(2, wr, Some(0)) }, &mut ev).unwrap();
        assert_eq!(m.txns[0], Txn { msg: 0, lane: 0, kind: TxnKind::Read, space: Space::Flat, addr: 0x104, bytes: 4, data: 6 });
        assert_eq!(m.txns[1].data, 7);
        // a result for a lane that is not enabled breaks the contract
        let bad = UnitOutputs { rsp_valid: true, rsp_lane: 1, ..Default::default() };
        let v = m.observe(&at(3, bad, None), &mut ev).unwrap_err();
        assert_eq!((v.cycle, v.signal), (3, "rsp_lane"));
    }

    #[test]
    fn done_before_all_results_and_dropped_valids_are_violations() {
        let (mut m, mut ev) = started(0b11);
        let done = UnitOutputs { rsp_done: true, ..Default::default() };
        assert!(m.observe(&at(1, done, None), &mut ev).unwrap_err().what.contains("lanes [0, 1]"));

        let (mut m, mut ev) = started(0b11);
        let rd = UnitOutputs { rd_valid: true, rd_addr: 0x100, rd_be: 0x000f, ..Default::default() };
        m.observe(&CycleSample { rd_ready: false, ..at(1, rd, None) }, &mut ev).unwrap();
        let moved = UnitOutputs { rd_valid: true, rd_addr: 0x110, rd_be: 0x000f, ..Default::default() };
        let v = m.observe(&CycleSample { rd_ready: false, ..at(2, moved, None) }, &mut ev).unwrap_err();
        assert!(v.what.contains("changed or dropped"), "{v}");
        assert_eq!(v.signal, "mem_rd_addr");
    }

    #[test]
    fn the_payload_port_reads_taken_messages_in_order() {
        let read = |cycle: u64, lane: u8, slot: bool, req_ready: bool| CycleSample {
            payload_shown: true,
            ..at(cycle, UnitOutputs { pay_valid: true, pay_lane: lane, pay_slot: slot, req_ready, ..Default::default() }, None)
        };
        let raised = |s: CycleSample| CycleSample { req_valid: true, req_desc: Some(0x7d), ..s };
        let take = |cycle: u64| CycleSample {
            payload_shown: true,
            ..raised(at(cycle, UnitOutputs { req_ready: true, ..Default::default() }, None))
        };
        // nothing taken yet: a read is a violation
        let mut m = Monitor::new();
        let v = m.observe(&read(0, 0, false, false), &mut vec![]).unwrap_err();
        assert_eq!(v.signal, "pay_valid");
        // message 0 (lanes 0, 2) taken in cycle 0, message 1 (lane 0) in
        // cycle 1 while none of message 0's lanes is read; message 0's lanes
        // read in 2 and 3 (slot 0), then message 1's (slot 1), while message
        // 2 is taken
        let (mut m, mut ev) = started(0b101);
        m.expect(frame(1, 0b1));
        m.expect(frame(2, 0b1));
        m.observe(&take(1), &mut ev).unwrap();
        m.observe(&read(2, 0, false, false), &mut ev).unwrap();
        m.observe(&raised(read(3, 2, false, false)), &mut ev).unwrap();
        m.observe(&raised(read(4, 0, true, true)), &mut ev).unwrap();
        m.observe(&read(5, 0, false, false), &mut ev).unwrap();
        // a read with the other message's slot
        let (mut m, mut ev) = started(0b101);
        assert_eq!(m.observe(&read(1, 0, true, false), &mut ev).unwrap_err().signal, "pay_slot");
        // a lane the taken message does not enable, or out of order
        let (mut m, mut ev) = started(0b101);
        assert_eq!(m.observe(&read(1, 1, false, false), &mut ev).unwrap_err().signal, "pay_lane");
        let (mut m, mut ev) = started(0b101);
        m.observe(&read(1, 2, false, false), &mut ev).unwrap();
        assert_eq!(m.observe(&read(2, 0, false, false), &mut ev).unwrap_err().signal, "pay_lane");
        // a third message taken before the oldest's last lane was read
        let (mut m, mut ev) = started(0b101);
        m.expect(frame(1, 0b1));
        m.expect(frame(2, 0b1));
        m.observe(&take(1), &mut ev).unwrap();
        m.observe(&raised(read(2, 0, false, false)), &mut ev).unwrap();
        let v = m.observe(&take(3), &mut ev).unwrap_err();
        assert_eq!(v.signal, "req_ready");
        assert!(v.what.contains("message 0: lanes 0x1"), "{v}");
        // done before every lane was read
        let (mut m, mut ev) = started(0b1);
        let done = CycleSample { payload_shown: true, ..at(1, UnitOutputs { rsp_done: true, ..Default::default() }, None) };
        let v = m.observe(&done, &mut ev).unwrap_err();
        assert_eq!(v.signal, "rsp_done");
        assert!(v.what.contains("read on the payload port"), "{v}");
    }

    #[test]
    fn requests_raise_the_expected_messages_in_order() {
        let mut m = Monitor::new();
        let mut ev = vec![];
        // nothing expected: a raised req_valid is a violation
        let v = m.observe(&CycleSample { req_valid: true, ..Default::default() }, &mut ev).unwrap_err();
        assert_eq!(v.signal, "req_valid");
        // a descriptor other than the expected one
        let mut m = Monitor::new();
        m.expect(frame(0, 1));
        let v = m.observe(&CycleSample { req_valid: true, req_desc: Some(0x7e), ..Default::default() }, &mut ev).unwrap_err();
        assert_eq!(v.signal, "req_desc");
        // held until taken, then the next one
        let mut m = Monitor::new();
        m.expect(frame(0, 1));
        m.expect(frame(1, 1));
        let wait = CycleSample { req_valid: true, req_desc: Some(0x7d), ..Default::default() };
        m.observe(&wait, &mut ev).unwrap();
        m.observe(&CycleSample { cycle: 1, ..wait }, &mut ev).unwrap();
        assert_eq!(m.in_flight().len(), 1);
        let take = CycleSample { cycle: 2, out: UnitOutputs { req_ready: true, ..Default::default() }, ..wait };
        m.observe(&take, &mut ev).unwrap();
        assert_eq!(m.in_flight()[0].accepted, Some(2));
        m.observe(&CycleSample { cycle: 3, ..wait }, &mut ev).unwrap();
        assert_eq!((m.in_flight().len(), m.pending()), (2, 0));
        let v = m.observe(&CycleSample { cycle: 4, req_valid: false, ..wait }, &mut ev).unwrap_err();
        assert_eq!((v.cycle, v.signal), (4, "req_valid"));
    }
}
