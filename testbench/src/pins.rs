//! The unit's pins as the test bench sees them (docs/microarchitecture.md,
//! "Port table"): one request image ([`PinRequest`]), one snapshot of the
//! outputs per cycle ([`UnitOutputs`]), and the [`UnitPins`] trait the
//! bench drives. `dut.rs` implements the trait for the Verilated model
//! (`atomport_sim::VAtomicUnit`); nothing else in the bench touches the
//! binding.

use atomport_sim::SimError;

/// Lanes of a message.
pub const MAX_LANES: usize = 32;
/// Lanes with typed coordinates (TYPED_ATOMIC is 8 lanes).
pub const COORD_LANES: usize = 8;

/// `req_surf_kind` codes (docs/microarchitecture.md): 0..4 the typed kinds
/// (`program::TypedKind`), 5 a buffer, 7 no such surface.
pub const SURF_KIND_BUFFER: u8 = 5;
pub const SURF_KIND_NONE: u8 = 7;

/// One message as the driver holds it: what it puts on `req_*` (all but
/// `req_valid`), and every lane's payload, which it answers the unit's
/// payload reads from ([`PinRequest::lane_payload`]; docs/microarchitecture.md
/// "Payload port"). Lane values as little-endian u32 words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinRequest {
    /// `req_desc`: descriptor byte k on bits 8k+7..8k
    pub desc: u128,
    pub dmask: u32,
    pub pred_mask: u32,
    /// lane i's address / offset at words 2i, 2i+1 (`pay_addr`)
    pub addr: [u32; 2 * MAX_LANES],
    /// lane i's src0 at words 4i..4i+3 (`pay_src0`)
    pub src0: [u32; 4 * MAX_LANES],
    /// lane i's src1 (`pay_src1`)
    pub src1: [u32; 4 * MAX_LANES],
    /// lane i's typed coordinates {lod, r, v, u} (`pay_coord`)
    pub coord: [u32; 4 * COORD_LANES],
    pub surf_kind: u8,
    pub surf_base: u64,
    pub surf_size: u64,
    pub surf_width: u32,
    pub surf_height: u32,
    pub surf_depth: u32,
    pub surf_array: u32,
    pub surf_levels: u32,
    pub surf_u16: bool,
    pub slm_size: u32,
}

impl Default for PinRequest {
    fn default() -> PinRequest {
        PinRequest {
            desc: 0,
            dmask: 0,
            pred_mask: 0,
            addr: [0; 2 * MAX_LANES],
            src0: [0; 4 * MAX_LANES],
            src1: [0; 4 * MAX_LANES],
            coord: [0; 4 * COORD_LANES],
            surf_kind: SURF_KIND_NONE,
            surf_base: 0,
            surf_size: 0,
            surf_width: 0,
            surf_height: 0,
            surf_depth: 0,
            surf_array: 0,
            surf_levels: 0,
            surf_u16: false,
            slm_size: 0,
        }
    }
}

impl PinRequest {
    /// The descriptor bytes (up to 16) as `req_desc`.
    pub fn set_desc_bytes(&mut self, bytes: &[u8]) {
        let mut b = [0u8; 16];
        let n = bytes.len().min(16);
        b[..n].copy_from_slice(&bytes[..n]);
        self.desc = u128::from_le_bytes(b);
    }

    /// The descriptor bytes up to the last nonzero one (at least 1).
    pub fn desc_bytes(&self) -> Vec<u8> {
        let b = self.desc.to_le_bytes();
        let len = b.iter().rposition(|&x| x != 0).map_or(1, |p| p + 1);
        b[..len].to_vec()
    }

    /// Lane `lane`'s address (or DWORD_ATOMIC offset).
    pub fn lane_addr(&self, lane: usize) -> u64 {
        u64::from(self.addr[2 * lane]) | u64::from(self.addr[2 * lane + 1]) << 32
    }

    pub fn set_addr(&mut self, lane: usize, value: u64) {
        self.addr[2 * lane] = value as u32;
        self.addr[2 * lane + 1] = (value >> 32) as u32;
    }

    pub fn set_src0(&mut self, lane: usize, value: u128) {
        put128(&mut self.src0, lane, value);
    }

    pub fn set_src1(&mut self, lane: usize, value: u128) {
        put128(&mut self.src1, lane, value);
    }

    /// Lane `lane`'s TYPED_ATOMIC coordinates.
    pub fn set_coord(&mut self, lane: usize, u: u32, v: u32, r: u32, lod: u32) {
        self.coord[4 * lane..4 * lane + 4].copy_from_slice(&[u, v, r, lod]);
    }
}

impl PinRequest {
    /// What the payload port carries for `lane` (coordinates 0 past lane 7).
    pub fn lane_payload(&self, lane: usize) -> LanePayload {
        let lane = lane % MAX_LANES;
        LanePayload {
            addr: self.addr[2 * lane] as u64 | (self.addr[2 * lane + 1] as u64) << 32,
            src0: get128(&self.src0, lane),
            src1: get128(&self.src1, lane),
            coord: if lane < COORD_LANES { get128(&self.coord, lane) } else { 0 },
        }
    }
}

/// One lane's operands on the payload port (`pay_addr`, `pay_src0`,
/// `pay_src1`, `pay_coord`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LanePayload {
    pub addr: u64,
    pub src0: u128,
    pub src1: u128,
    /// {lod, r, v, u}
    pub coord: u128,
}

impl LanePayload {
    /// What the driver puts on the payload port in a cycle that answers no
    /// read: a pattern that changes every cycle, so that a unit using
    /// operands it did not read (or reading them a cycle late) fails.
    pub fn filler(cycle: u64) -> LanePayload {
        let w = filler_words::<7>(cycle);
        let wide = |k: usize| (w[k] as u128) << 64 | w[k + 1] as u128;
        LanePayload { addr: w[0], src0: wide(1), src1: wide(3), coord: wide(5) }
    }
}

/// What the memory puts on `mem_rdata` in a cycle without a read return:
/// a line that changes every cycle (not the last one returned), so that a
/// unit taking read data outside `mem_rdata_valid` fails.
pub fn idle_rdata(cycle: u64) -> u128 {
    let w = filler_words::<2>(cycle ^ 0x6d65_6d5f_7264_6174);
    (w[0] as u128) << 64 | w[1] as u128
}

/// `N` words of a pattern seeded by the cycle (splitmix64).
fn filler_words<const N: usize>(cycle: u64) -> [u64; N] {
    let mut x = cycle.wrapping_add(0x9e37_79b9_7f4a_7c15);
    core::array::from_fn(|_| {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

fn get128(words: &[u32], lane: usize) -> u128 {
    (0..4).fold(0u128, |v, k| v | (words[4 * lane + k] as u128) << (32 * k))
}

fn put128(words: &mut [u32], lane: usize, value: u128) {
    for k in 0..4 {
        words[4 * lane + k] = (value >> (32 * k)) as u32;
    }
}

/// The unit's outputs in one cycle, after its inputs for that cycle
/// settled. Data fields are read only when their valid is high (else 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitOutputs {
    pub req_ready: bool,
    /// a payload read of lane `pay_lane` (answered the next cycle)
    pub pay_valid: bool,
    pub pay_lane: u8,
    /// the message the read belongs to: the count of messages taken before
    /// it, mod 2 (`pay_slot`)
    pub pay_slot: bool,
    pub rd_valid: bool,
    pub rd_addr: u64,
    /// `mem_rd_space`: false = flat, true = SLM
    pub rd_slm: bool,
    pub rd_be: u16,
    pub wr_valid: bool,
    pub wr_addr: u64,
    pub wr_slm: bool,
    pub wr_data: u128,
    pub wr_be: u16,
    pub rsp_valid: bool,
    pub rsp_lane: u8,
    pub rsp_data: u128,
    pub rsp_done: bool,
    pub rsp_error: bool,
    pub obs_valid: bool,
    pub obs_lane: u8,
    pub obs_elem: u8,
    pub obs_old: u128,
    pub obs_new: u128,
}

/// What the bench needs from a unit model: set the inputs of a cycle, let
/// the combinational outputs settle, read them, take the clock edge.
///
/// One cycle is: `set_*` -> [`UnitPins::settle`] -> [`UnitPins::outputs`]
/// -> [`UnitPins::edge`]. Inputs set before `settle` are sampled at the
/// edge.
pub trait UnitPins {
    fn set_reset(&mut self, reset: bool);
    /// All `req_*` inputs but `req_valid`.
    fn set_request(&mut self, req: &PinRequest);
    /// The payload port's inputs (`pay_addr`, `pay_src0`, `pay_src1`, `pay_coord`).
    fn set_payload(&mut self, payload: &LanePayload);
    fn set_req_valid(&mut self, valid: bool);
    /// The memory port's inputs: `mem_rdata` is driven in every cycle,
    /// with junk ([`idle_rdata`]) while `mem_rdata_valid` is low.
    fn set_mem(&mut self, rd_ready: bool, wr_ready: bool, rdata_valid: bool, rdata: u128);
    /// Clock low, evaluate with the current inputs, dump the trace.
    fn settle(&mut self) -> Result<(), SimError>;
    fn outputs(&self) -> UnitOutputs;
    /// The rising edge: clock high, evaluate, dump, advance one period.
    fn edge(&mut self) -> Result<(), SimError>;
    fn open_trace(&mut self, path: &std::path::Path) -> Result<(), SimError>;
    /// Closes the trace; `Err` when it could not be written whole.
    fn close_trace(&mut self) -> Result<(), SimError>;
    /// What the model is built with (`AtomicUnit::new`): the bench expects
    /// it to reject every message this does not admit.
    fn config(&self) -> atomport_core::ops::UnitConfig {
        atomport_core::ops::UnitConfig::FULL
    }
    /// The build's name as the CLI takes it (`l8_w32_int`, `serial_l8_w32_int`).
    fn build_name(&self) -> String {
        self.config().name()
    }
    /// Cycles the watchdog allows a memory element beyond the pipelined
    /// unit's (the serial build's typed walk: `SERIAL_ELEMENT_ALLOWANCE`, dut.rs).
    fn element_allowance(&self) -> u64 {
        0
    }
}

/// What the monitor sees of one clock cycle: the unit's outputs and the
/// inputs that complete a handshake with them, sampled just before the
/// rising edge (the values the unit's flip-flops take).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleSample {
    /// the cycle number reports use
    pub cycle: u64,
    pub out: UnitOutputs,
    /// `req_valid`
    pub req_valid: bool,
    /// `req_desc` while `req_valid` is high (None: the source does not
    /// show it)
    pub req_desc: Option<u128>,
    /// `mem_rd_ready`, `mem_wr_ready`
    pub rd_ready: bool,
    pub wr_ready: bool,
    /// `mem_rdata` when `mem_rdata_valid` is high
    pub rdata: Option<u128>,
    /// the source shows the payload port (`out.pay_valid`, `out.pay_lane`, `out.pay_slot`):
    /// the live unit does, a golden-model VCD does not
    pub payload_shown: bool,
}

impl CycleSample {
    /// `mem_rd_valid & mem_rd_ready`
    pub fn read_accepted(&self) -> bool {
        self.out.rd_valid && self.rd_ready
    }

    /// `mem_wr_valid & mem_wr_ready`
    pub fn write_accepted(&self) -> bool {
        self.out.wr_valid && self.wr_ready
    }

    /// `req_valid & req_ready`
    pub fn request_accepted(&self) -> bool {
        self.req_valid && self.out.req_ready
    }
}

/// Where the monitor's pins come from, one cycle at a time: the live
/// Verilated unit driven by the bench ([`crate::live::LivePins`]) or a
/// recorded waveform replayed (`atomport_wavecheck::check::VcdPins`). The
/// monitor and the scoreboard ([`crate::lockstep::Lockstep`]) are the same
/// for both.
pub trait PinSource {
    type Error;
    /// This cycle's sample; None when the source has no more cycles (the
    /// end of a recording; a live unit never ends).
    fn sample(&mut self) -> Result<Option<CycleSample>, Self::Error>;
    /// The clock edge: move on to the next cycle.
    fn advance(&mut self) -> Result<(), Self::Error>;
}
