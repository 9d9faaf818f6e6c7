//! Directed smoke tests of `atomic_unit` under Verilator, driven by hand
//! through the binding (no test bench, no golden model): a few messages of
//! every kind with a memory that answers every read in one cycle (or later,
//! where a test says so) and never stalls unless a test says so. The
//! expected values are worked out in each test; the cycle counts check the
//! throughput targets of docs/microarchitecture.md ("Cycle costs").
//!
//! `cargo test --test rtl_unit_smoke`

use std::collections::{HashMap, VecDeque};

use atomport_core::descriptor::Descriptor;
use atomport_sim::VAtomicUnit;

/// One message on `req_*`.
#[derive(Clone, Debug, Default)]
struct Msg {
    desc: Vec<u8>,
    dmask: u32,
    pred_mask: u32,
    addr: Vec<u64>,
    src0: Vec<u128>,
    src1: Vec<u128>,
    /// TYPED_ATOMIC (u, v, r, lod) per lane
    coord: Vec<[u32; 4]>,
    surf_kind: u8,
    surf_base: u64,
    surf_size: u64,
    /// width, height, depth, array, levels
    surf_dims: [u32; 5],
    surf_u16: bool,
    slm_size: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Read { cycle: u64, addr: u64, slm: bool, be: u16 },
    Write { cycle: u64, addr: u64, slm: bool, data: u128, be: u16 },
    Result { cycle: u64, lane: u8, data: u128 },
    Done { cycle: u64, error: bool },
    Taken { cycle: u64 },
    /// the message's first lane (its payload read) or its marker is selected
    Started { cycle: u64 },
}

/// The unit, a sparse byte memory (flat and SLM) and an event log.
struct Bench {
    dut: VAtomicUnit,
    memory: HashMap<(bool, u64), u8>,
    /// read returns: (cycle due, line)
    returns: VecDeque<(u64, u128)>,
    latency: u64,
    /// `mem_wr_ready` is low in cycles where `cycle % write_stall_period == 1`
    write_stall_period: u64,
    cycle: u64,
    log: Vec<Event>,
}

impl Bench {
    fn new(latency: u64) -> Bench {
        let mut dut = VAtomicUnit::new().expect("model");
        dut.set_reset(1);
        dut.ticks(2).unwrap();
        dut.set_reset(0);
        Bench { dut, memory: HashMap::new(), returns: VecDeque::new(), latency, write_stall_period: 0, cycle: 0, log: vec![] }
    }

    fn poke(&mut self, slm: bool, addr: u64, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.memory.insert((slm, addr + i as u64), *b);
        }
    }

    fn peek(&self, slm: bool, addr: u64, len: usize) -> Vec<u8> {
        (0..len).map(|i| *self.memory.get(&(slm, addr + i as u64)).unwrap_or(&0)).collect()
    }

    fn peek_u32(&self, slm: bool, addr: u64) -> u32 {
        u32::from_le_bytes(self.peek(slm, addr, 4).try_into().unwrap())
    }

    fn line(&self, slm: bool, addr: u64) -> u128 {
        u128::from_le_bytes(self.peek(slm, addr, 16).try_into().unwrap())
    }

    fn put_request(&mut self, m: &Msg) {
        let mut desc = [0u8; 16];
        desc[..m.desc.len()].copy_from_slice(&m.desc);
        self.dut.set_req_desc(u128::from_le_bytes(desc));
        self.dut.set_req_dmask(m.dmask);
        self.dut.set_req_pred_mask(m.pred_mask);
        self.dut.set_req_surf_kind(m.surf_kind);
        self.dut.set_req_surf_base(m.surf_base);
        self.dut.set_req_surf_size(m.surf_size);
        self.dut.set_req_surf_width(m.surf_dims[0]);
        self.dut.set_req_surf_height(m.surf_dims[1]);
        self.dut.set_req_surf_depth(m.surf_dims[2]);
        self.dut.set_req_surf_array(m.surf_dims[3]);
        self.dut.set_req_surf_levels(m.surf_dims[4]);
        self.dut.set_req_surf_u16(m.surf_u16 as u8);
        self.dut.set_req_slm_size(m.slm_size);
    }

    /// Drives `msgs` back to back and runs until every message is done (or
    /// `limit` cycles pass: a failure).
    fn run(&mut self, msgs: &[Msg], limit: u64) {
        let mut next = 0;
        let mut done = 0;
        let start = self.cycle;
        // the payload read last cycle: (message, lane), answered this cycle
        let mut payload_due: Option<(usize, usize)> = None;
        let mut started = None;
        // the message in each payload slot: the k-th taken is in slot k mod 2
        let mut slot_msg = [0usize; 2];
        while done < msgs.len() {
            assert!(self.cycle - start < limit, "watchdog: {done} of {} messages done after {limit} cycles", msgs.len());
            // inputs of this cycle
            if next < msgs.len() {
                self.put_request(&msgs[next]);
                self.dut.set_req_valid(1);
            } else {
                self.dut.set_req_valid(0);
            }
            self.put_payload(payload_due.map(|(m, lane)| (&msgs[m], lane)));
            self.dut.set_mem_rd_ready(1);
            let write_ready = self.write_stall_period == 0 || self.cycle % self.write_stall_period != 1;
            self.dut.set_mem_wr_ready(write_ready as u8);
            match self.returns.front() {
                Some(&(due, line)) if due == self.cycle => {
                    self.returns.pop_front();
                    self.dut.set_mem_rdata_valid(1);
                    self.dut.set_mem_rdata(line);
                }
                Some(&(due, _)) => {
                    assert!(due > self.cycle);
                    self.dut.set_mem_rdata_valid(0);
                }
                None => self.dut.set_mem_rdata_valid(0),
            }
            self.dut.set_clock(0);
            self.dut.eval().unwrap();
            // outputs; memory applies a write when it accepts it, before a read of the same cycle
            let cycle = self.cycle;
            if self.dut.mem_wr_valid() == 1 && write_ready {
                let (addr, data, be, slm) =
                    (self.dut.mem_wr_addr(), self.dut.mem_wr_data(), self.dut.mem_wr_be(), self.dut.mem_wr_space() == 1);
                assert_eq!(addr % 16, 0);
                for k in 0..16 {
                    if be >> k & 1 == 1 {
                        self.memory.insert((slm, addr + k), (data >> (8 * k)) as u8);
                    }
                }
                self.log.push(Event::Write { cycle, addr, slm, data, be });
            }
            if self.dut.mem_rd_valid() == 1 {
                let (addr, slm, be) = (self.dut.mem_rd_addr(), self.dut.mem_rd_space() == 1, self.dut.mem_rd_be());
                assert_eq!(addr % 16, 0);
                self.returns.push_back((cycle + self.latency, self.line(slm, addr)));
                self.log.push(Event::Read { cycle, addr, slm, be });
            }
            if self.dut.rsp_valid() == 1 {
                self.log.push(Event::Result { cycle, lane: self.dut.rsp_lane(), data: self.dut.rsp_data() });
            }
            if self.dut.rsp_done() == 1 {
                self.log.push(Event::Done { cycle, error: self.dut.rsp_error() == 1 });
                done += 1;
            }
            // the payload port reads a message taken before this cycle, in slot `pay_slot`
            payload_due = None;
            if self.dut.pay_valid() == 1 {
                assert!(next > 0, "cycle {cycle}: pay_valid with no message taken");
                let m = slot_msg[self.dut.pay_slot() as usize];
                payload_due = Some((m, self.dut.pay_lane() as usize));
                if started != Some(m) {
                    self.log.push(Event::Started { cycle });
                    started = Some(m);
                }
            }
            if next < msgs.len() && self.dut.req_ready() == 1 {
                slot_msg[next % 2] = next;
                self.log.push(Event::Taken { cycle });
                next += 1;
            }
            self.dut.tick().unwrap();
            self.cycle += 1;
        }
    }

    /// The payload port's inputs: lane `lane` of `m` (the unit read it last
    /// cycle), or with `None` a filler that a correct unit never uses.
    fn put_payload(&mut self, read: Option<(&Msg, usize)>) {
        match read {
            Some((m, lane)) => {
                self.dut.set_pay_addr(m.addr.get(lane).copied().unwrap_or(0));
                self.dut.set_pay_src0(m.src0.get(lane).copied().unwrap_or(0));
                self.dut.set_pay_src1(m.src1.get(lane).copied().unwrap_or(0));
                let c = m.coord.get(lane).copied().unwrap_or([0; 4]);
                let coord = (0..4).fold(0u128, |v, k| v | (c[k] as u128) << (32 * k));
                self.dut.set_pay_coord(coord);
            }
            None => {
                let junk = 0xdead_beef_0bad_f00d_u128.wrapping_mul(self.cycle as u128 + 1);
                self.dut.set_pay_addr(junk as u64 | 1);
                self.dut.set_pay_src0(junk);
                self.dut.set_pay_src1(!junk);
                self.dut.set_pay_coord(junk.rotate_left(17));
            }
        }
    }

    fn results(&self) -> Vec<(u8, u128)> {
        self.log.iter().filter_map(|e| if let Event::Result { lane, data, .. } = e { Some((*lane, *data)) } else { None }).collect()
    }

    fn reads(&self) -> Vec<(u64, bool, u16)> {
        self.log.iter().filter_map(|e| if let Event::Read { addr, slm, be, .. } = e { Some((*addr, *slm, *be)) } else { None }).collect()
    }

    fn read_cycles(&self) -> Vec<u64> {
        self.log.iter().filter_map(|e| if let Event::Read { cycle, .. } = e { Some(*cycle) } else { None }).collect()
    }

    fn writes(&self) -> Vec<(u64, bool, u128, u16)> {
        self.log
            .iter()
            .filter_map(|e| if let Event::Write { addr, slm, data, be, .. } = e { Some((*addr, *slm, *data, *be)) } else { None })
            .collect()
    }

    fn dones(&self) -> Vec<bool> {
        self.log.iter().filter_map(|e| if let Event::Done { error, .. } = e { Some(*error) } else { None }).collect()
    }

    fn started_cycles(&self) -> Vec<u64> {
        self.log.iter().filter_map(|e| if let Event::Started { cycle } = e { Some(*cycle) } else { None }).collect()
    }

    fn taken_cycles(&self) -> Vec<u64> {
        self.log.iter().filter_map(|e| if let Event::Taken { cycle } = e { Some(*cycle) } else { None }).collect()
    }
}

/// A descriptor the software decoder accepts (so the test really drives a legal encoding).
fn legal(desc: &[u8]) -> Vec<u8> {
    Descriptor::new(desc).unwrap_or_else(|e| panic!("test descriptor {desc:02x?} is illegal: {e}"));
    desc.to_vec()
}

/// DWORD_ATOMIC.<op> on `surface` with `lanes` lanes, M1_NM, no predicate,
/// src0 present (op takes src0), no src1, dst.
fn dword(op: u8, surface: u8, size_code: u8) -> Vec<u8> {
    legal(&[0x7d, op, 0x80 | size_code, 0, 0, surface, 1, 2, 0, 3])
}

#[test]
fn svm_add_four_lanes_returns_old_values_and_writes_sums() {
    let mut b = Bench::new(1);
    for i in 0..4u64 {
        b.poke(false, 0x1000 + 4 * i, &(100 + i as u32).to_le_bytes());
    }
    // SVM_ATOMIC.ADD (4) [0x1000 0x1004 0x1008 0x100c] d [1 2 3 4] V0 (docs/descriptors.md example)
    let m = Msg {
        desc: legal(&[0x4e, 0x05, 0x02, 0, 0, 0x00, 1, 2, 0, 3]),
        dmask: u32::MAX,
        addr: vec![0x1000, 0x1004, 0x1008, 0x100c],
        src0: vec![1, 2, 3, 4],
        ..Default::default()
    };
    b.run(&[m], 100);
    assert_eq!(b.results(), vec![(0, 100), (1, 101), (2, 102), (3, 103)]);
    for i in 0..4u64 {
        assert_eq!(b.peek_u32(false, 0x1000 + 4 * i), 101 + 2 * i as u32);
    }
    // one line, byte lanes 0..3, 4..7, ...
    let reads = b.reads();
    assert_eq!(reads, (0..4).map(|i| (0x1000, false, 0xf << (4 * i))).collect::<Vec<_>>());
    // the message taken in cycle 1 (the reset is registered: the unit is
    // still in reset in cycle 0, the first after the pin falls; from cycle 1
    // req_ready: the request stage is empty) into the request stage, in the
    // decode stage in cycle 2, its 4 lanes' payloads read in
    // cycles 3..6, each lane issuing its memory read five cycles after its
    // payload read (next-lane stage, where the payload arrives, issue stage,
    // address stage, line stage, allocate stage);
    // with 1-cycle memory each lane's write follows its read by 7 cycles
    // (data back, the head leaves the table, execute stages X, X2, X3, X4,
    // write stage), its result by 8, and the message is done with its last
    // result (docs/microarchitecture.md "Timing of one message")
    assert_eq!(b.taken_cycles(), vec![1]);
    assert_eq!(b.started_cycles(), vec![3]);
    let c = b.read_cycles();
    assert_eq!(c, vec![8, 9, 10, 11]);
    let writes: Vec<u64> = b.log.iter().filter_map(|e| if let Event::Write { cycle, .. } = e { Some(*cycle) } else { None }).collect();
    assert_eq!(writes, vec![15, 16, 17, 18]);
    let results: Vec<u64> = b.log.iter().filter_map(|e| if let Event::Result { cycle, .. } = e { Some(*cycle) } else { None }).collect();
    assert_eq!(results, vec![16, 17, 18, 19]);
    assert!(b.log.contains(&Event::Done { cycle: 19, error: false }));
    assert_eq!(b.dones(), vec![false]);
}

#[test]
fn same_address_run_forwards_one_lane_per_cycle() {
    for latency in [1, 3, 6] {
        let mut b = Bench::new(latency);
        b.poke(false, 0x2000, &7u32.to_le_bytes());
        // DWORD_ATOMIC.ADD (32) T255 [0x2000 x 32] [1 ..] d: every lane on one address
        let m = Msg { desc: dword(0x00, 255, 5), addr: vec![0x2000; 32], src0: vec![1; 32], ..Default::default() };
        b.run(&[m], 200);
        let expect: Vec<(u8, u128)> = (0..32).map(|i| (i as u8, 7 + i as u128)).collect();
        assert_eq!(b.results(), expect, "latency {latency}");
        assert_eq!(b.peek_u32(false, 0x2000), 7 + 32);
        let c = b.read_cycles();
        assert_eq!(c.len(), 32);
        // one lane per cycle while the table has room: 8 entries cover latency + 2
        if latency + 2 <= 8 {
            assert_eq!(c[31] - c[0], 31, "latency {latency}: reads at {c:?}");
        }
        // every write carries the running sum
        let w = b.writes();
        assert_eq!(w.len(), 32);
        for (i, (addr, slm, data, be)) in w.iter().enumerate() {
            assert_eq!((*addr, *slm, *be), (0x2000, false, 0xf));
            assert_eq!(*data as u32, 8 + i as u32, "write {i} at latency {latency}");
        }
    }
}

#[test]
fn back_to_back_messages_leave_no_idle_cycle() {
    let mut b = Bench::new(1);
    let m1 = Msg { desc: dword(0x00, 255, 3), addr: (0..8).map(|i| 0x3000 + 4 * i).collect(), src0: vec![5; 8], ..Default::default() };
    let m2 = Msg { desc: dword(0x06, 255, 2), addr: (0..4).map(|i| 0x3000 + 4 * i).collect(), src0: vec![9; 4], ..Default::default() };
    b.run(&[m1, m2], 100);
    let c = b.read_cycles();
    assert_eq!(c.len(), 12);
    assert_eq!(c[11] - c[0], 11, "12 lanes of 2 messages in 12 cycles: {c:?}");
    // the second message is taken as the first moves from the request stage
    // into the decode stage, and its first lane read right after the first
    // one's last (8th)
    let t = b.taken_cycles();
    assert_eq!(t[1] - t[0], 1, "second message taken the cycle after the first: {t:?}");
    let s = b.started_cycles();
    assert_eq!(s[1] - s[0], 8, "second message's first lane read right after the first one's 8 lanes: {s:?}");
    // message 2 (XCHG) sees message 1's writes
    let r = b.results();
    assert_eq!(&r[8..], &[(0, 5), (1, 5), (2, 5), (3, 5)]);
    assert_eq!(b.peek_u32(false, 0x3000), 9);
    assert_eq!(b.peek_u32(false, 0x3010), 5);
    assert_eq!(b.dones(), vec![false, false]);
}

#[test]
fn disabled_lanes_cost_nothing_and_return_nothing() {
    let mut b = Bench::new(1);
    // DWORD_ATOMIC.INC (M2, 8) with predicate !p: dmask bits 4.. = 0xa5 -> lanes 0,2,5,7; !p = !0x04 drops lane 2
    let m = Msg {
        desc: legal(&[0x7d, 0x02, 0x13, 0x01, 0x80, 255, 1, 0, 0, 2]),
        dmask: 0xa50,
        pred_mask: 0x04,
        addr: (0..8).map(|i| 0x4000 + 4 * i).collect(),
        ..Default::default()
    };
    b.run(&[m], 100);
    assert_eq!(b.results(), vec![(0, 0), (5, 0), (7, 0)]);
    let c = b.read_cycles();
    assert_eq!(c[2] - c[0], 2, "3 enabled lanes in 3 cycles: {c:?}");
    assert_eq!(b.peek(false, 0x4000, 32), {
        let mut m = vec![0u8; 32];
        for lane in [0, 5, 7] {
            m[4 * lane] = 1;
        }
        m
    });
}

#[test]
fn illegal_descriptor_raises_error_and_touches_nothing() {
    let mut b = Bench::new(1);
    // reserved op code 0x0e; then a message with no enabled lane; then a legal one
    let bad = Msg { desc: vec![0x7d, 0x0e, 0x82, 0, 0, 255, 1, 2, 0, 3], addr: vec![0x5000; 4], src0: vec![1; 4], ..Default::default() };
    assert!(Descriptor::new(&bad.desc).is_err());
    let empty = Msg { desc: dword(0x00, 255, 2), dmask: 0, addr: vec![0x5000; 4], ..Default::default() };
    let empty = Msg { desc: legal(&[0x7d, 0x00, 0x02, 0, 0, 255, 1, 2, 0, 3]), ..empty };
    let good = Msg { desc: dword(0x00, 255, 0), addr: vec![0x5000], src0: vec![3], ..Default::default() };
    b.run(&[bad, empty, good], 100);
    assert_eq!(b.dones(), vec![true, false, false]);
    assert_eq!(b.reads().len(), 1);
    assert_eq!(b.results(), vec![(0, 0)]);
    assert_eq!(b.peek_u32(false, 0x5000), 3);
}

#[test]
fn out_of_bounds_lanes_return_zero_without_memory() {
    let mut b = Bench::new(1);
    b.poke(false, 0x6000, &[0x11; 16]);
    b.poke(true, 0x10, &[0x22; 8]);
    // buffer surface 3 at 0x6000, 8 bytes: offsets 0 and 4 in bounds, 8 and 12 out
    let m1 = Msg {
        desc: dword(0x06, 3, 2),
        addr: vec![0, 4, 8, 12],
        src0: vec![0xaa; 4],
        surf_kind: 5,
        surf_base: 0x6000,
        surf_size: 8,
        ..Default::default()
    };
    // T0 (SLM) of 0x18 bytes, 16-bit XCHG: offset 0x16 in bounds, 0x18 out
    let m2 = Msg {
        desc: legal(&[0x7d, 0x26, 0x81, 0, 0, 0, 1, 2, 0, 3]),
        addr: vec![0x16, 0x18],
        src0: vec![0x1_beef, 0x1_beef],
        slm_size: 0x18,
        ..Default::default()
    };
    b.run(&[m1, m2], 100);
    assert_eq!(b.results(), vec![(0, 0x11111111), (1, 0x11111111), (2, 0), (3, 0), (0, 0x2222), (1, 0)]);
    assert_eq!(b.peek(false, 0x6000, 12), [0xaa, 0, 0, 0, 0xaa, 0, 0, 0, 0x11, 0x11, 0x11, 0x11]);
    assert_eq!(b.peek(true, 0x16, 2), [0xef, 0xbe]);
    assert_eq!(b.writes().len(), 3);
    assert_eq!(b.reads()[2], (0x10, true, 0xc0));
}

#[test]
fn scatter_writes_every_block_one_per_cycle() {
    let mut b = Bench::new(1);
    // SVM_SCATTER.4.2 (2) [0x7000 0x7010]: lane i's blocks in {src1, src0} at 4-byte steps
    let m = Msg {
        desc: legal(&[0x4e, 0x04, 0x81, 0, 0, 1, 1, 1, 2]),
        addr: vec![0x7000, 0x7010],
        src0: vec![0x2222_2222_1111_1111, 0x4444_4444_3333_3333],
        ..Default::default()
    };
    // SVM_SCATTER.8.4 (1) [0x7020]: 4 blocks of 8 bytes, blocks 2 and 3 in src1
    let m2 = Msg {
        desc: legal(&[0x4e, 0x04, 0x80, 0, 0, 2, 2, 1, 2]),
        addr: vec![0x7020],
        src0: vec![(0xbbu128 << 64) | 0xaa],
        src1: vec![(0xddu128 << 64) | 0xcc],
        ..Default::default()
    };
    b.run(&[m, m2], 100);
    assert_eq!(b.peek_u32(false, 0x7000), 0x1111_1111);
    assert_eq!(b.peek_u32(false, 0x7004), 0x2222_2222);
    assert_eq!(b.peek_u32(false, 0x7010), 0x3333_3333);
    assert_eq!(b.peek_u32(false, 0x7014), 0x4444_4444);
    let w = b.writes();
    assert_eq!(w.len(), 8);
    assert_eq!(w[1], (0x7000, false, 0x2222_2222u128 << 32, 0xf0));
    assert_eq!((0..4).map(|j| b.peek(false, 0x7020 + 8 * j, 1)[0]).collect::<Vec<_>>(), [0xaa, 0xbb, 0xcc, 0xdd]);
    assert!(b.results().is_empty());
    assert_eq!(b.dones(), vec![false, false]);
}

#[test]
fn ptx_cas_and_b128_exchange() {
    let mut b = Bench::new(2);
    b.poke(false, 0x8000, &5u32.to_le_bytes());
    b.poke(true, 0x20, &[0x33; 16]);
    // atom.global.cas.b32 d, [0x8000], 5, 9 (single thread): matches, swaps in 9
    let cas = Msg {
        desc: legal(&[0xa7, 0x03, 0x01, 0x01, 0x00, 0x80, 0, 0, 1, 2, 3, 4, 0]),
        addr: vec![0x8000],
        src0: vec![5],
        src1: vec![9],
        ..Default::default()
    };
    // atom.shared.exch.b128 d, [0x20], X (single thread)
    let x = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
    let exch = Msg {
        desc: legal(&[0xa7, 0x04, 0x03, 0x02, 0x00, 0x80, 0, 0, 1, 2, 3, 0, 0]),
        addr: vec![0x20],
        src0: vec![x],
        slm_size: 0x100,
        ..Default::default()
    };
    b.run(&[cas, exch], 100);
    assert_eq!(b.results(), vec![(0, 5), (0, u128::from_le_bytes([0x33; 16]))]);
    assert_eq!(b.peek_u32(false, 0x8000), 9);
    assert_eq!(b.line(true, 0x20), x);
    assert_eq!(b.writes()[1].3, 0xffff);
}

#[test]
fn typed_2d_lod1_walks_levels() {
    let mut b = Bench::new(1);
    // 2d u32 surface at 0x9000, 8x4, 2 levels: level 0 is 32 elements, level 1 is 4x2.
    // TYPED_ATOMIC.ADD (8) 1 u v V0 lod [1..]: lane 0 (1,1) lod 1 -> 0x9000 + (32 + 1*4 + 1)*4;
    // lane 1 (7,3) lod 0 -> 0x9000 + (3*8+7)*4; lane 2 (4,0) lod 1 -> out of bounds (u >= 4); lane 3 lod 2 -> out
    let m = Msg {
        desc: legal(&[0x73, 0x00, 0x03, 0, 0, 1, 1, 2, 0, 3, 4, 0, 5]),
        dmask: 0x0f,
        coord: vec![[1, 1, 0, 1], [7, 3, 0, 0], [4, 0, 0, 1], [0, 0, 0, 2]],
        src0: vec![1, 2, 3, 4],
        surf_kind: 2,
        surf_base: 0x9000,
        surf_dims: [8, 4, 1, 1, 2],
        ..Default::default()
    };
    b.run(&[m], 100);
    assert_eq!(b.results(), vec![(0, 0), (1, 0), (2, 0), (3, 0)]);
    assert_eq!(b.peek_u32(false, 0x9000 + (32 + 4 + 1) * 4), 1);
    assert_eq!(b.peek_u32(false, 0x9000 + (3 * 8 + 7) * 4), 2);
    assert_eq!(b.writes().len(), 2);
}

#[test]
fn write_backpressure_keeps_order_and_values() {
    let mut b = Bench::new(4);
    b.write_stall_period = 3;
    b.poke(false, 0xa000, &1u32.to_le_bytes());
    // 16 lanes alternating between two addresses in one line
    let m = Msg {
        desc: dword(0x00, 255, 4),
        addr: (0..16).map(|i| 0xa000 + 4 * (i % 2)).collect(),
        src0: (0..16).map(|i| i as u128).collect(),
        ..Default::default()
    };
    b.run(&[m], 300);
    let r = b.results();
    let (mut a0, mut a1) = (1u128, 0u128);
    for (i, (lane, old)) in r.iter().enumerate() {
        assert_eq!(*lane as usize, i);
        let acc = if i % 2 == 0 { &mut a0 } else { &mut a1 };
        assert_eq!(*old, *acc, "lane {i}");
        *acc += i as u128;
    }
    assert_eq!(b.peek_u32(false, 0xa000) as u128, a0);
    assert_eq!(b.peek_u32(false, 0xa004) as u128, a1);
}

/// Length of a descriptor kind from its opcode bytes (the one table,
/// `atomport_isa::KINDS`), None if unknown.
fn kind_len(desc: &[u8; 16]) -> Option<usize> {
    atomport_isa::KINDS
        .iter()
        .find(|k| k.opcode == desc[0] && k.subop.is_none_or(|s| s == desc[1]))
        .map(|k| k.desc_len)
}

/// The RTL's decoder flags exactly the descriptors the software decoder
/// rejects: legal templates of every kind with random bit flips and byte
/// replacements, driven as messages (with surface state that matches the
/// descriptor, so only the encoding decides).
#[test]
fn hardware_decoder_agrees_with_software_decoder() {
    use rand::{Rng, SeedableRng};
    let seed = 0x5eed_0004;
    eprintln!("seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let templates: [&[u8]; 9] = [
        &[0x4e, 0x05, 0x02, 0, 0, 0x00, 1, 2, 0, 3],
        &[0x4e, 0x05, 0x03, 0, 0, 0x47, 1, 2, 3, 4],
        &[0x7d, 0x02, 0x05, 0, 0, 0, 1, 0, 0, 2],
        &[0x7d, 0x32, 0x02, 0, 0, 3, 1, 2, 3, 4],
        &[0x73, 0x00, 0x03, 0, 0, 1, 1, 2, 0, 3, 4, 0, 5],
        &[0x4e, 0x04, 0x03, 0, 0, 1, 3, 1, 2],
        &[0xa7, 0x03, 0x01, 0x01, 0, 0x80, 0, 0, 1, 2, 3, 4, 0],
        &[0xa7, 0x15, 0x3a, 0, 0, 0x80, 0, 0, 1, 2, 3, 0, 0],
        &[0xa7, 0x08, 0x07, 0x03, 0x13, 0x05, 0x01, 0x80, 1, 2, 3, 0, 0],
    ];
    let mut msgs = vec![];
    let mut expect_error = vec![];
    for n in 0..3000 {
        let t = templates[n % templates.len()];
        legal(t);
        let mut desc = [0u8; 16];
        desc[..t.len()].copy_from_slice(t);
        match rng.gen_range(0..10) {
            0 => {} // unchanged
            1 => desc[rng.gen_range(0..16)] = rng.gen(),
            2 => rng.fill(&mut desc[..]),
            _ => {
                for _ in 0..rng.gen_range(1..=2) {
                    let bit = rng.gen_range(0..8 * t.len().min(14) + 8);
                    desc[bit / 8] ^= 1 << (bit % 8);
                }
            }
        }
        let illegal = match kind_len(&desc) {
            None => true,
            Some(len) => desc[len..].iter().any(|&b| b != 0) || Descriptor::new(&desc[..len]).is_err(),
        };
        expect_error.push(illegal);
        msgs.push(Msg {
            desc: desc.to_vec(),
            dmask: u32::MAX,
            pred_mask: rng.gen(),
            addr: vec![0x100; 32],
            src0: vec![1; 32],
            src1: vec![2; 32],
            coord: vec![[0, 0, 0, 0]; 8],
            // DWORD buffers and typed surfaces exist and match the message width
            surf_kind: if desc[0] == 0x73 { 2 } else { 5 },
            surf_base: 0x1_0000,
            surf_size: 0x1000,
            surf_dims: [8, 8, 1, 1, 4],
            surf_u16: desc[0] == 0x73 && desc[1] & 0x20 != 0,
            slm_size: 0x1000,
        });
    }
    let legal_count = expect_error.iter().filter(|e| !**e).count();
    eprintln!("{legal_count} of {} mutated descriptors are legal", msgs.len());
    assert!(legal_count > 300 && legal_count < 2700, "the mutations should give both kinds: {legal_count} legal");
    let mut b = Bench::new(1);
    b.run(&msgs, 3000 * 300);
    let got = b.dones();
    assert_eq!(got.len(), msgs.len());
    for (i, (g, e)) in got.iter().zip(&expect_error).enumerate() {
        assert_eq!(g, e, "message {i}: descriptor {:02x?}: RTL error {g}, software decoder error {e}", msgs[i].desc);
    }
}

/// Issue cycles per message (docs/microarchitecture.md "Cycle costs"),
/// measured back to back at 1-cycle memory: one cycle per enabled atomic
/// lane, per PTX vector element, per scatter block; 1 + 3 x (levels walked)
/// per typed lane (a walk step's second multiply-add is the address and line
/// stages'), and 1 more if it walks at all (its first step waits a cycle for
/// the registered walk operands);
/// 1 for an illegal or empty message.
#[test]
fn issue_cycles_per_message_kind() {
    let typed = |lod: u32| Msg {
        desc: legal(&[0x73, 0x00, 0x83, 0, 0, 1, 1, 2, 0, 3, 4, 0, 5]),
        coord: vec![[1, 1, 0, lod]; 8],
        src0: vec![1; 8],
        surf_kind: 2,
        surf_base: 0x9000,
        surf_dims: [8, 4, 1, 1, 3],
        ..Default::default()
    };
    let cases: Vec<(&str, Msg, u64)> = vec![
        ("DWORD_ATOMIC 16 lanes", Msg { desc: dword(0x00, 255, 4), addr: vec![0x100; 16], src0: vec![1; 16], ..Default::default() }, 16),
        (
            "DWORD_ATOMIC 32 lanes, 5 enabled",
            Msg {
                desc: legal(&[0x7d, 0x00, 0x05, 0, 0, 255, 1, 2, 0, 3]),
                dmask: 0x8001_0111,
                addr: vec![0x100; 32],
                src0: vec![1; 32],
                ..Default::default()
            },
            5,
        ),
        (
            "PTX atom.global.v4.f32.add, 1 lane",
            Msg { desc: legal(&[0xa7, 0x05, 0x28, 0x01, 0, 0x80, 0, 0, 1, 2, 3, 0, 0]), addr: vec![0x200], ..Default::default() },
            4,
        ),
        (
            "SVM_SCATTER.4.8 (8)",
            Msg { desc: legal(&[0x4e, 0x04, 0x83, 0, 0, 1, 3, 1, 2]), addr: (0..8).map(|i| 0x400 + 32 * i).collect(), ..Default::default() },
            64,
        ),
        ("TYPED_ATOMIC lod 0", typed(0), 8),
        ("TYPED_ATOMIC lod 2", typed(2), 8 * (2 + 3 * 2)),
        ("illegal", Msg { desc: vec![0x7d, 0x0e, 0x82, 0, 0, 255, 1, 2, 0, 3], ..Default::default() }, 1),
        ("no lane enabled", Msg { desc: legal(&[0x7d, 0x00, 0x02, 0, 0, 255, 1, 2, 0, 3]), ..Default::default() }, 1),
    ];
    // a message's issue cycles: three copies back to back; the spacing of
    // the last two `rsp_done`s. In steady state every stage after issue
    // moves one element per cycle at 1-cycle memory, so that spacing is the
    // message's cycles in the issue stage. (Not the payload reads: the
    // select stage reads one lane ahead of the issue stage. Not the spacing
    // of two different messages: a marker retires a cycle sooner after
    // issue than a memory access, a typed lane issues its element after its
    // walk.)
    for (name, m, cycles) in &cases {
        let mut b = Bench::new(1);
        b.run(&[m.clone(), m.clone(), m.clone()], 1000);
        let done: Vec<u64> = b.log.iter().filter_map(|e| if let Event::Done { cycle, .. } = e { Some(*cycle) } else { None }).collect();
        assert_eq!(done.len(), 3, "{name}");
        assert_eq!(done[2] - done[1], *cycles, "{name}: three copies done at cycles {done:?}");
    }
}

/// A misaligned lane (checked as its payload arrives, docs/microarchitecture.md
/// "Payload port"): that lane touches no memory and returns 0, the other
/// lanes execute, and the message ends with `rsp_error`. A misaligned typed
/// surface base fails every lane: the message touches no memory at all.
#[test]
fn misaligned_lane_touches_no_memory_and_ends_the_message_in_error() {
    let mut b = Bench::new(1);
    for i in 0..4u64 {
        b.poke(false, 0x5000 + 4 * i, &(10 + i as u32).to_le_bytes());
    }
    // DWORD_ATOMIC.ADD (4) T255, lane 2's offset 0x5009 is not 4-byte aligned
    let m = Msg { desc: dword(0x00, 255, 2), addr: vec![0x5000, 0x5004, 0x5009, 0x500c], src0: vec![1; 4], ..Default::default() };
    b.run(&[m.clone(), m.clone()], 100);
    assert_eq!(b.results(), vec![(0, 10), (1, 11), (2, 0), (3, 13), (0, 11), (1, 12), (2, 0), (3, 14)]);
    assert_eq!(b.reads().len(), 6, "{:?}", b.reads());
    assert_eq!(b.peek(false, 0x5000, 16), [12u32, 13, 12, 15].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
    assert_eq!(b.dones(), vec![true, true]);
    // the next message after an error is clean
    let ok = Msg { desc: dword(0x00, 255, 2), addr: vec![0x5000, 0x5004, 0x5008, 0x500c], src0: vec![1; 4], ..Default::default() };
    b.run(&[ok], 100);
    assert_eq!(b.dones(), vec![true, true, false]);

    // TYPED_ATOMIC on a surface whose base is not element-aligned
    let mut b = Bench::new(1);
    let typed = Msg {
        desc: legal(&[0x73, 0x00, 0x83, 0, 0, 1, 1, 2, 0, 3, 4, 0, 5]),
        coord: vec![[1, 1, 0, 0]; 8],
        src0: vec![1; 8],
        surf_kind: 2,
        surf_base: 0x9002,
        surf_dims: [8, 4, 1, 1, 3],
        ..Default::default()
    };
    b.run(&[typed], 100);
    assert!(b.reads().is_empty() && b.writes().is_empty(), "no memory access: {:?}", b.log);
    assert_eq!(b.dones(), vec![true]);
}
