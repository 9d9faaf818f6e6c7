//! The live pin source: a unit model (the Verilated `atomic_unit`, through
//! [`UnitPins`]) with the bench's driver on `req_*` and the memory model on
//! the memory port. [`LivePins`] implements [`PinSource`], so the monitor
//! and scoreboard that check it are the ones that check a recorded
//! waveform.
//!
//! One cycle: the driver raises the next queued request when the pins are
//! free, and puts on the payload port the lane the unit read in the last
//! cycle (`PAYLOAD_LATENCY` = 1; a changing filler when it read none); the
//! memory model sets its readies and the read return due now; the model
//! settles; the handshakes happen where valid meets ready (the memory
//! captures a read's line, applies a write; a payload read is noted for the
//! next cycle, from the message the unit took last, before this cycle:
//! `req_ready` takes a message into the unit's decode stage before any of
//! its lanes is read). [`PinSource::advance`] is the clock edge.

use std::collections::VecDeque;

use atomport_core::program::Space;
use atomport_sim::SimError;

use super::memory::{MemConfig, MemoryModel};
use super::pins::{idle_rdata, CycleSample, LanePayload, PinRequest, PinSource, UnitOutputs, UnitPins};

/// A unit model driven by the bench (see the module doc).
pub struct LivePins<P: UnitPins> {
    dut: P,
    mem: MemoryModel,
    /// requests waiting for the pins
    queue: VecDeque<Box<PinRequest>>,
    /// the request on the pins (req_valid high)
    on_pins: Option<Box<PinRequest>>,
    /// the last two requests the unit took (`req_valid & req_ready`), the
    /// k-th taken in slot k mod 2: the payload port reads a lane of the one
    /// in slot `pay_slot`
    taken: [Option<Box<PinRequest>>; 2],
    /// requests taken since the unit's reset
    taken_count: usize,
    /// the payload the unit read in the last cycle, for the port now
    payload_due: Option<LanePayload>,
    cycle: u64,
    last: CycleSample,
    /// total cycles the memory accepted a read / a write
    pub reads: u64,
    pub writes: u64,
}

impl<P: UnitPins> LivePins<P> {
    /// Starts driving `dut` (already reset) with the memory model `mem`.
    pub fn new(dut: P, mem: MemConfig) -> LivePins<P> {
        LivePins {
            dut,
            mem: MemoryModel::new(mem),
            queue: VecDeque::new(),
            on_pins: None,
            taken: [None, None],
            taken_count: 0,
            payload_due: None,
            cycle: 0,
            last: CycleSample::default(),
            reads: 0,
            writes: 0,
        }
    }

    /// Queues a request for the pins (raised when the pins are free).
    pub fn push(&mut self, req: Box<PinRequest>) {
        self.queue.push_back(req);
    }

    /// Requests not yet raised.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Whether a request waits on the pins or in the queue.
    pub fn busy(&self) -> bool {
        !self.queue.is_empty() || self.on_pins.is_some()
    }

    pub fn memory(&self) -> &MemoryModel {
        &self.mem
    }

    pub fn memory_mut(&mut self) -> &mut MemoryModel {
        &mut self.mem
    }

    pub fn dut(&self) -> &P {
        &self.dut
    }

    pub fn dut_mut(&mut self) -> &mut P {
        &mut self.dut
    }

    /// The model, for a session after this one (whatever is in flight
    /// stays in it: the reset of the run that takes it over must clear it).
    pub fn into_dut(self) -> P {
        self.dut
    }

    /// The outputs of the last cycle sampled.
    pub fn last_outputs(&self) -> &UnitOutputs {
        &self.last.out
    }
}

impl<P: UnitPins> PinSource for LivePins<P> {
    type Error = SimError;

    fn sample(&mut self) -> Result<Option<CycleSample>, SimError> {
        // the driver
        if self.on_pins.is_none() {
            if let Some(req) = self.queue.pop_front() {
                self.dut.set_request(&req);
                self.dut.set_req_valid(true);
                self.on_pins = Some(req);
            } else {
                self.dut.set_req_valid(false);
            }
        }
        let payload = self.payload_due.take().unwrap_or_else(|| LanePayload::filler(self.cycle));
        self.dut.set_payload(&payload);
        // the memory
        let drive = self.mem.drive(self.cycle);
        self.dut.set_mem(drive.rd_ready, drive.wr_ready, drive.rdata.is_some(), drive.rdata.unwrap_or_else(|| idle_rdata(self.cycle)));
        self.dut.settle()?;
        let s = CycleSample {
            cycle: self.cycle,
            out: self.dut.outputs(),
            req_valid: self.on_pins.is_some(),
            req_desc: self.on_pins.as_ref().map(|r| r.desc),
            rd_ready: drive.rd_ready,
            wr_ready: drive.wr_ready,
            rdata: drive.rdata,
            payload_shown: true,
        };
        // the handshakes
        if s.out.pay_valid {
            // a read of a lane of the message in slot `pay_slot` (the monitor checks
            // that there is one); answered in the next cycle
            self.payload_due = self.taken[s.out.pay_slot as usize].as_ref().map(|r| r.lane_payload(s.out.pay_lane as usize));
        }
        if s.request_accepted() {
            self.taken[self.taken_count % 2] = self.on_pins.take();
            self.taken_count += 1;
        }
        self.mem.note_port(s.out.rd_valid, s.rd_ready, s.out.wr_valid, s.wr_ready);
        let (read, write) = (s.read_accepted(), s.write_accepted());
        let space = |slm: bool| if slm { Space::Slm } else { Space::Flat };
        let out = &s.out;
        self.mem.accept(
            self.cycle,
            read.then(|| (space(out.rd_slm), out.rd_addr)),
            write.then(|| (space(out.wr_slm), out.wr_addr, out.wr_be, out.wr_data)),
        );
        self.reads += read as u64;
        self.writes += write as u64;
        self.last = s;
        Ok(Some(s))
    }

    fn advance(&mut self) -> Result<(), SimError> {
        self.dut.edge()?;
        self.cycle += 1;
        Ok(())
    }
}
