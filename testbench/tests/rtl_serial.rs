//! Directed pin-level tests of the serial small build
//! (`serial_unit_l8_w32_int`, `SerialUnit::new(emit::SMALL_UNIT)`, and
//! where they apply the pipelined one beside it): what
//! the script-level lockstep tests (rtl_variant.rs) cannot reach, because
//! the script parser refuses it (a misaligned lane, a misaligned typed
//! base), and the build's cycle cost per element, which
//! docs/microarchitecture.md ("The serial build") states.
//!
//! Messages come from scripts through the driver (`driver::request`), then
//! a test changes a pin where it needs to; a memory of bytes answers every
//! read after `latency` cycles and never stalls.

use std::collections::{HashMap, VecDeque};

use atomport_core::descriptor::Encoder;
use atomport_sim::{VAtomicUnitL8W32Int, VSerialUnitL8W32Int};
use atomport_testbench::driver;
use atomport_testbench::pins::{idle_rdata, LanePayload, PinRequest, UnitPins};

/// What one run saw on the memory and response ports.
#[derive(Default, Debug)]
struct Log {
    /// (cycle, line address) of every read issued
    reads: Vec<(u64, u64)>,
    /// (cycle, line address, byte enables) of every write accepted
    writes: Vec<(u64, u64, u16)>,
    /// (lane, data) of every `rsp_valid`
    results: Vec<(u8, u128)>,
    /// (cycle, rsp_error) of every `rsp_done`
    dones: Vec<(u64, bool)>,
    /// cycles the unit took each message
    taken: Vec<u64>,
}

/// A unit model after reset, with a flat byte memory.
struct PinBench<M: UnitPins> {
    dut: M,
    memory: HashMap<u64, u8>,
    cycle: u64,
}

impl<M: UnitPins> PinBench<M> {
    fn new(mut dut: M) -> PinBench<M> {
        dut.set_reset(true);
        for _ in 0..2 {
            dut.settle().unwrap();
            dut.edge().unwrap();
        }
        dut.set_reset(false);
        PinBench { dut, memory: HashMap::new(), cycle: 0 }
    }

    fn line(&self, addr: u64) -> u128 {
        (0..16).fold(0u128, |v, k| v | (*self.memory.get(&(addr + k)).unwrap_or(&0) as u128) << (8 * k))
    }

    fn poke_u32(&mut self, addr: u64, value: u32) {
        for (k, b) in value.to_le_bytes().iter().enumerate() {
            self.memory.insert(addr + k as u64, *b);
        }
    }

    fn peek_u32(&self, addr: u64) -> u32 {
        u32::from_le_bytes(core::array::from_fn(|k| *self.memory.get(&(addr + k as u64)).unwrap_or(&0)))
    }

    /// Drives `reqs` back to back until each is done; fails after `limit` cycles.
    fn run(&mut self, reqs: &[PinRequest], latency: u64, limit: u64) -> Log {
        let mut log = Log::default();
        let (mut next, start) = (0, self.cycle);
        let mut returns: VecDeque<(u64, u128)> = VecDeque::new();
        let mut payload_due: Option<(usize, usize)> = None;
        let mut slot_msg = [0usize; 2];
        while log.dones.len() < reqs.len() {
            assert!(self.cycle - start < limit, "watchdog: {} of {} messages done after {limit} cycles", log.dones.len(), reqs.len());
            self.dut.set_req_valid(next < reqs.len());
            if next < reqs.len() {
                self.dut.set_request(&reqs[next]);
            }
            let payload = payload_due.map_or(LanePayload::filler(self.cycle), |(m, lane)| reqs[m].lane_payload(lane));
            self.dut.set_payload(&payload);
            let rdata = match returns.front() {
                Some(&(due, line)) if due == self.cycle => {
                    returns.pop_front();
                    Some(line)
                }
                _ => None,
            };
            self.dut.set_mem(true, true, rdata.is_some(), rdata.unwrap_or_else(|| idle_rdata(self.cycle)));
            self.dut.settle().unwrap();
            let out = self.dut.outputs();
            let cycle = self.cycle;
            if out.wr_valid {
                assert!(!out.wr_slm && out.wr_addr % 16 == 0);
                for k in 0..16 {
                    if out.wr_be >> k & 1 == 1 {
                        self.memory.insert(out.wr_addr + k, (out.wr_data >> (8 * k)) as u8);
                    }
                }
                log.writes.push((cycle, out.wr_addr, out.wr_be));
            }
            if out.rd_valid {
                assert!(!out.rd_slm && out.rd_addr % 16 == 0);
                returns.push_back((cycle + latency, self.line(out.rd_addr)));
                log.reads.push((cycle, out.rd_addr));
            }
            if out.rsp_valid {
                log.results.push((out.rsp_lane, out.rsp_data));
            }
            if out.rsp_done {
                log.dones.push((cycle, out.rsp_error));
            }
            payload_due = out.pay_valid.then(|| (slot_msg[out.pay_slot as usize], out.pay_lane as usize));
            if next < reqs.len() && out.req_ready {
                slot_msg[next % 2] = next;
                log.taken.push(cycle);
                next += 1;
            }
            self.dut.edge().unwrap();
            self.cycle += 1;
        }
        log
    }
}

/// The pin images of a script's messages (its memory lines are the test's to poke).
fn requests(text: &str) -> Vec<PinRequest> {
    let program = atomport_core::script::parse("serial.atom", text).unwrap_or_else(|d| panic!("{d}\n{text}"));
    let mut encoder = Encoder::new();
    program.messages().map(|m| driver::request(&program, &mut encoder, m).unwrap()).collect()
}

/// A misaligned lane (the parser refuses one, so it is set on the pins):
/// that lane touches no memory and returns 0, the other lanes execute, the
/// message ends with `rsp_error`, and the next message is clean. A typed
/// surface whose base is not element-aligned fails every lane.
#[test]
fn misaligned_lane_touches_no_memory_and_ends_the_message_in_error() {
    misaligned_lanes(|| VSerialUnitL8W32Int::new().expect("model"));
}

/// The same on the pipelined small build: the two builds answer alike.
#[test]
fn misaligned_lane_touches_no_memory_and_ends_the_message_in_error_pipelined() {
    misaligned_lanes(|| VAtomicUnitL8W32Int::new().expect("model"));
}

fn misaligned_lanes<M: UnitPins>(model: impl Fn() -> M) {
    let mut b = PinBench::new(model());
    for i in 0..4u64 {
        b.poke_u32(0x5000 + 4 * i, 10 + i as u32);
    }
    let mut reqs = requests("DWORD_ATOMIC.add (4) T255 [0x5000 0x5004 0x5008 0x500c] [1 1 1 1] V0 d\n");
    let clean = reqs[0].clone();
    reqs[0].set_addr(2, 0x5009);
    let log = b.run(&[reqs[0].clone(), reqs[0].clone(), clean], 1, 500);
    let results: Vec<(u8, u128)> = log.results.clone();
    assert_eq!(results, vec![(0, 10), (1, 11), (2, 0), (3, 13), (0, 11), (1, 12), (2, 0), (3, 14), (0, 12), (1, 13), (2, 12), (3, 15)]);
    assert_eq!(log.reads.len(), 3 + 3 + 4, "{:?}", log.reads);
    assert_eq!(log.writes.len(), 3 + 3 + 4, "{:?}", log.writes);
    assert_eq!((0..4).map(|i| b.peek_u32(0x5000 + 4 * i)).collect::<Vec<_>>(), vec![13, 14, 13, 16]);
    assert_eq!(log.dones.iter().map(|d| d.1).collect::<Vec<_>>(), vec![true, true, false]);

    let mut b = PinBench::new(model());
    let text = "surface 2 2d base=0x9000 width=8 height=4 format=u32\n\
                TYPED_ATOMIC.add (8) 2 [1 1 1 1 1 1 1 1] [1 1 1 1 1 1 1 1] V0 V0 [1 1 1 1 1 1 1 1] V0 d\n";
    let mut reqs = requests(text);
    reqs[0].surf_base = 0x9002;
    let log = b.run(&reqs, 1, 2000);
    assert!(log.reads.is_empty() && log.writes.is_empty(), "no memory access: {log:?}");
    assert_eq!(log.dones.iter().map(|d| d.1).collect::<Vec<_>>(), vec![true]);
}

/// Cycles from one element's read to the next one's, with 1-cycle memory:
/// the serial build's cost per element (docs/microarchitecture.md, "The
/// serial build"): Select, Payload, Address, Check, Read, Return, Execute,
/// Write, Next: 8 cycles plus the memory's latency. Disabled lanes cost
/// nothing; a message costs 6 cycles before its first read (Idle, Decode,
/// Select, Payload, Address, Check) and 3 after its last element (Decode
/// finding no lane, Done, and Idle taking the next).
#[test]
fn one_element_costs_nine_cycles_at_one_cycle_memory() {
    for latency in [1u64, 4] {
        let mut b = PinBench::new(VSerialUnitL8W32Int::new().expect("model"));
        let reqs = requests(
            "dmask 0x6d\n\
             SVM_ATOMIC.add (8) [0x100 0x104 0x108 0x10c 0x110 0x114 0x118 0x11c] d [1 2 3 4 5 6 7 8] V0\n\
             SVM_ATOMIC.add (1) [0x200] e [1] V0\n",
        );
        let log = b.run(&reqs, latency, 500);
        // dmask 0x6d: lanes 0 2 3 5 6
        let lanes: Vec<u8> = log.results.iter().map(|r| r.0).collect();
        assert_eq!(lanes, vec![0, 2, 3, 5, 6, 0]);
        let gaps: Vec<u64> = log.reads.windows(2).map(|w| w[1].0 - w[0].0).collect();
        let per_element = 8 + latency;
        // the second message's element follows after Decode (no lane left), Done and Idle
        let want = vec![per_element, per_element, per_element, per_element, per_element + 3];
        assert_eq!(gaps, want, "latency {latency}: reads at {:?}", log.reads);
        // a message is taken in Idle; its first read follows Decode, Select, Payload, Address, Check
        assert_eq!(log.taken.len(), 2);
        assert_eq!(log.reads[0].0 - log.taken[0], 6, "latency {latency}: taken at {:?}", log.taken);
        assert_eq!(log.reads[5].0 - log.taken[1], 6, "latency {latency}: taken at {:?}", log.taken);
        assert_eq!(log.writes.len(), 6);
        for (k, w) in log.writes.iter().enumerate() {
            assert_eq!(w.0 - log.reads[k].0, latency + 2, "latency {latency}: element {k} read to write");
        }
        eprintln!("latency {latency}: reads {:?} writes {:?} dones {:?} taken {:?}", log.reads, log.writes, log.dones, log.taken);
    }
}
