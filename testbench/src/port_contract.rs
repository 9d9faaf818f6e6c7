//! The port contract (docs/microarchitecture.md, "Port table"): what the
//! unit's pins must do whatever the messages mean. A memory request holds,
//! unchanged, until accepted; byte enables are contiguous and lines
//! aligned; write data stays inside its byte enables; at most
//! [`MAX_OUTSTANDING_READS`] reads are outstanding and read data returns
//! only for one; `rsp_error` comes only with `rsp_done`; the payload port
//! reads each taken message's enabled lanes once, in ascending order,
//! message after message, in the message's slot, and the unit takes a
//! third message only once the oldest's lanes are read.
//!
//! The monitor ([`crate::monitor`]) runs these checks on every cycle, in
//! the order the pins are read, and turns a [`Breach`] into a violation
//! with the message it concerns.

use std::collections::VecDeque;

use super::pins::CycleSample;

/// Most reads the unit may have outstanding (in-flight table entries).
pub const MAX_OUTSTANDING_READS: usize = 8;

/// A pin that broke the contract, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breach {
    pub signal: &'static str,
    pub what: String,
}

fn breach(signal: &'static str, what: String) -> Breach {
    Breach { signal, what }
}

/// A handshake whose valid must stay up, unchanged, until accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    addr: u64,
    slm: bool,
    be: u16,
    data: u128,
}

/// A message taken, as the payload port reads it.
#[derive(Clone, Copy, Debug)]
struct Taken {
    index: usize,
    /// its enabled lanes
    enables: u32,
    /// the lanes read so far
    read: u32,
    /// `pay_slot` of its reads
    slot: bool,
}

/// The contract's state across cycles.
#[derive(Default)]
pub struct PortContract {
    rd_held: Option<Held>,
    wr_held: Option<Held>,
    /// reads accepted whose data has not returned
    outstanding_reads: usize,
    /// messages taken (`req_valid & req_ready` in an earlier cycle) from the
    /// oldest whose enabled lanes the payload port has not all read on:
    /// the port reads the first of them
    taken: VecDeque<Taken>,
    /// messages taken so far: the k-th is in payload slot k mod 2
    taken_count: usize,
}

impl PortContract {
    /// The payload port in one cycle (before this cycle's request is taken).
    pub fn payload_reads(&mut self, s: &CycleSample) -> Result<(), Breach> {
        if s.out.pay_valid {
            let lane = s.out.pay_lane as u32;
            let Some(t) = self.taken.front() else {
                return Err(breach("pay_valid", format!("pay_valid reads lane {lane} with no taken message's lanes left to read")));
            };
            let (index, enables, read) = (t.index, t.enables, t.read);
            if s.out.pay_slot != t.slot {
                return Err(breach(
                    "pay_slot",
                    format!("pay_slot {} reads lane {lane}, but the message whose lanes are read now (index {index}) is in slot {}", s.out.pay_slot as u8, t.slot as u8),
                ));
            }
            let bit = 1u32.checked_shl(lane).unwrap_or(0);
            if enables & bit == 0 {
                return Err(breach("pay_lane", format!("pay_lane reads lane {lane}, which message {index} does not enable (enabled lanes {enables:#x})")));
            }
            if read & !(bit - 1) != 0 {
                return Err(breach("pay_lane", format!("pay_lane reads lane {lane} of message {index} again or out of order (lanes read so far {read:#x})")));
            }
            self.taken[0].read |= bit;
            self.drop_read_messages();
        }
        // a message is taken into the request stage while the decode stage
        // holds the one before: a third only once the oldest is read
        if s.request_accepted() && self.taken.len() >= 2 {
            let t = &self.taken[0];
            return Err(breach(
                "req_ready",
                format!(
                    "req_ready took a message while two taken ones wait on the payload port (message {}: lanes {:#x} of its enabled lanes {:#x} read)",
                    t.index, t.read, t.enables
                ),
            ));
        }
        Ok(())
    }

    /// Message `index`, enabling `enables`, was taken; `payload_shown`:
    /// the source shows the payload port, whose reads of it are then checked.
    pub fn taken(&mut self, index: usize, enables: u32, payload_shown: bool) {
        if payload_shown {
            self.taken.push_back(Taken { index, enables, read: 0, slot: self.taken_count % 2 == 1 });
            self.drop_read_messages();
        }
        self.taken_count += 1;
    }

    /// The lanes of message `index` the payload port has read, when it has
    /// not read them all.
    pub fn unread_lanes(&self, index: usize) -> Option<u32> {
        self.taken.iter().find(|k| k.index == index && k.read != k.enables).map(|k| k.read)
    }

    /// Drops the oldest taken messages whose enabled lanes are all read.
    fn drop_read_messages(&mut self) {
        while self.taken.front().is_some_and(|t| t.read == t.enables) {
            self.taken.pop_front();
        }
    }

    /// A raised memory request holds, unchanged, until accepted.
    pub fn holds(&mut self, s: &CycleSample) -> Result<(), Breach> {
        let out = &s.out;
        let rd_now = out.rd_valid.then_some(Held { addr: out.rd_addr, slm: out.rd_slm, be: out.rd_be, data: 0 });
        if let Some(prev) = self.rd_held {
            if rd_now != Some(prev) {
                return Err(breach(
                    held_signal(&prev, rd_now.as_ref(), ["mem_rd_valid", "mem_rd_addr", "mem_rd_space", "mem_rd_be", "mem_rd_be"]),
                    format!("mem_rd_valid request {prev:x?} changed or dropped to {rd_now:x?} before mem_rd_ready accepted it"),
                ));
            }
        }
        self.rd_held = if out.rd_valid && !s.read_accepted() { rd_now } else { None };
        let wr_now = out.wr_valid.then_some(Held { addr: out.wr_addr, slm: out.wr_slm, be: out.wr_be, data: out.wr_data });
        if let Some(prev) = self.wr_held {
            if wr_now != Some(prev) {
                return Err(breach(
                    held_signal(&prev, wr_now.as_ref(), ["mem_wr_valid", "mem_wr_addr", "mem_wr_space", "mem_wr_be", "mem_wr_data"]),
                    format!("mem_wr_valid request {prev:x?} changed or dropped to {wr_now:x?} before mem_wr_ready accepted it"),
                ));
            }
        }
        self.wr_held = if out.wr_valid && !s.write_accepted() { wr_now } else { None };
        Ok(())
    }

    /// Read data returns only for an outstanding read.
    pub fn read_data(&mut self, s: &CycleSample) -> Result<(), Breach> {
        if s.rdata.is_some() {
            if self.outstanding_reads == 0 {
                return Err(breach("mem_rdata_valid", "memory returned read data for no outstanding read (bench bug)".into()));
            }
            self.outstanding_reads -= 1;
        }
        Ok(())
    }

    /// An accepted read's shape: (first enabled byte, enabled bytes).
    pub fn read_shape(&self, s: &CycleSample) -> Result<(u32, u32), Breach> {
        let out = &s.out;
        let Some(span) = be_span(out.rd_be) else {
            return Err(breach("mem_rd_be", format!("mem_rd_be {:#06x} is empty or not contiguous", out.rd_be)));
        };
        if !out.rd_addr.is_multiple_of(16) {
            return Err(breach("mem_rd_addr", format!("mem_rd_addr {:#x} is not 16-byte aligned", out.rd_addr)));
        }
        Ok(span)
    }

    /// A read was accepted: at most [`MAX_OUTSTANDING_READS`] outstanding.
    pub fn read_issued(&mut self) -> Result<(), Breach> {
        self.outstanding_reads += 1;
        if self.outstanding_reads > MAX_OUTSTANDING_READS {
            return Err(breach(
                "mem_rd_valid",
                format!("{} reads outstanding; the port table allows {MAX_OUTSTANDING_READS}", self.outstanding_reads),
            ));
        }
        Ok(())
    }

    /// An accepted write's shape: (first enabled byte, enabled bytes); its
    /// data only in enabled bytes.
    pub fn write_shape(&self, s: &CycleSample) -> Result<(u32, u32), Breach> {
        let out = &s.out;
        let Some(span) = be_span(out.wr_be) else {
            return Err(breach("mem_wr_be", format!("mem_wr_be {:#06x} is empty or not contiguous", out.wr_be)));
        };
        if !out.wr_addr.is_multiple_of(16) {
            return Err(breach("mem_wr_addr", format!("mem_wr_addr {:#x} is not 16-byte aligned", out.wr_addr)));
        }
        let outside = out.wr_data & !be_bits(out.wr_be);
        if outside != 0 {
            return Err(breach("mem_wr_data", format!("mem_wr_data {:#034x} has nonzero bytes outside mem_wr_be {:#06x}", out.wr_data, out.wr_be)));
        }
        Ok(span)
    }

    /// `rsp_error` comes only with `rsp_done`.
    pub fn error_with_done(&self, s: &CycleSample) -> Result<(), Breach> {
        if s.out.rsp_error && !s.out.rsp_done {
            return Err(breach("rsp_error", "rsp_error without rsp_done".into()));
        }
        Ok(())
    }

    /// Reads accepted whose data has not returned.
    pub fn outstanding_reads(&self) -> usize {
        self.outstanding_reads
    }
}

/// Which pin of a held request changed: `names` = [valid, addr, space,
/// be, data].
fn held_signal(prev: &Held, now: Option<&Held>, names: [&'static str; 5]) -> &'static str {
    match now {
        None => names[0],
        Some(n) if n.addr != prev.addr => names[1],
        Some(n) if n.slm != prev.slm => names[2],
        Some(n) if n.be != prev.be => names[3],
        Some(_) => names[4],
    }
}

/// (first enabled byte, number of enabled bytes) of a byte-enable mask, or
/// None when it is empty or not contiguous.
pub fn be_span(be: u16) -> Option<(u32, u32)> {
    if be == 0 {
        return None;
    }
    let first = be.trailing_zeros();
    let count = be.count_ones();
    let run = if count >= 16 { 0xffff } else { ((1u32 << count) - 1) << first };
    (run as u16 == be).then_some((first, count))
}

/// The bits of a 16-byte line whose byte is enabled in `be`.
pub fn be_bits(be: u16) -> u128 {
    let mut m = 0u128;
    for k in 0..16 {
        if be >> k & 1 != 0 {
            m |= 0xffu128 << (8 * k);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pins::UnitOutputs;

    #[test]
    fn a_held_request_that_changes_names_the_pin() {
        let mut c = PortContract::default();
        let raised = UnitOutputs { rd_valid: true, rd_addr: 0x100, rd_be: 0xf, ..Default::default() };
        let s = |out: UnitOutputs, ready: bool| CycleSample { out, rd_ready: ready, ..Default::default() };
        c.holds(&s(raised, false)).unwrap();
        let moved = UnitOutputs { rd_addr: 0x110, ..raised };
        assert_eq!(c.holds(&s(moved, false)).unwrap_err().signal, "mem_rd_addr");
        let mut c = PortContract::default();
        c.holds(&s(raised, false)).unwrap();
        c.holds(&s(raised, true)).unwrap();
        c.holds(&s(UnitOutputs::default(), false)).unwrap();
    }

    #[test]
    fn outstanding_reads_are_bounded_and_data_needs_a_read() {
        let mut c = PortContract::default();
        let data = CycleSample { rdata: Some(1), ..Default::default() };
        assert_eq!(c.read_data(&data).unwrap_err().signal, "mem_rdata_valid");
        for _ in 0..MAX_OUTSTANDING_READS {
            c.read_issued().unwrap();
        }
        assert!(c.read_issued().unwrap_err().what.contains("9 reads outstanding"));
    }
}
