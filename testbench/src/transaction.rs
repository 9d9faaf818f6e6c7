//! The transaction items the monitor produces and the scoreboard consumes
//! (pulp's AMO bench / ibex co-simulation style: items in their own
//! module, monitor -> scoreboard). Nothing here knows where the pins came
//! from: the live Verilated unit ([`crate::live`]) and a replayed waveform
//! (`atomport-wave`'s wavecheck) produce the same items.
//!
//! * [`Frame`]: what the bench knows of a message it put on `req_*`;
//! * [`Event`]: one handshake or beat seen on the pins, in its cycle
//!   (a read, a write with its `obs_*`, a lane result, a done);
//! * [`Finished`]: a message the unit completed, with its results;
//! * [`Violation`]: a break of the port contract seen on the pins alone.
//!
//! Memory transactions themselves are [`atomport_core::outcome::Txn`], the
//! golden model's own type, so both sides compare like with like.

use std::fmt;

use atomport_core::program::Space;

/// What the monitor knows of a message the driver puts on `req_*`.
#[derive(Clone, Debug)]
pub struct Frame {
    /// index of the message in issue order (script order for scripts)
    pub index: usize,
    /// the script line (0 for messages without one)
    pub line: usize,
    /// the message's text, for reports
    pub text: String,
    /// lanes expected to return a result (the enabled lanes of an atomic;
    /// none for SVM_SCATTER or a message the unit should reject)
    pub result_lanes: u32,
    /// the enabled lanes (channel enables)
    pub enables: u32,
    pub exec_size: u8,
    /// SVM_SCATTER: blocks per lane
    pub scatter_blocks: Option<u8>,
    /// the result entry (dst name, width) when the message has a dst
    pub result: Option<(String, u32)>,
    /// most memory elements the message can move (for the watchdog)
    pub max_elements: u32,
    /// cycles the unit may spend walking typed surface levels before the
    /// lanes' addresses are known (for the watchdog): three per level below
    /// each enabled lane's LOD (docs: `TypedAddr`'s walk)
    pub walk_cycles: u64,
    /// the descriptor bytes (as on `req_desc`), for reports
    pub desc: Vec<u8>,
}

impl Frame {
    /// `req_desc` as the pins carry it (byte k on bits 8k+7..8k).
    pub fn desc_word(&self) -> u128 {
        let mut b = [0u8; 16];
        let n = self.desc.len().min(16);
        b[..n].copy_from_slice(&self.desc[..n]);
        u128::from_le_bytes(b)
    }
}

/// One observation, in the cycle it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// a read handshake: (space, element address, bytes)
    Read { cycle: u64, space: Space, addr: u64, bytes: u8 },
    /// a write handshake; `atomic` = the element's `obs_*`
    Write { cycle: u64, msg: usize, space: Space, addr: u64, bytes: u8, data: u128, atomic: Option<AtomicObs> },
    /// one lane's result
    Result { cycle: u64, msg: usize, lane: u8, data: u128 },
    /// `rsp_done` (with `rsp_error`)
    Done { cycle: u64, msg: usize, error: bool },
}

/// `obs_*` of an atomic element's completing write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtomicObs {
    pub lane: u8,
    pub elem: u8,
    /// `obs_old` as the port gives it: zero-extended from the element
    pub old: u128,
    /// `obs_new`, zero-extended from the element
    pub new: u128,
}

/// A message the unit finished.
#[derive(Clone, Debug)]
pub struct Finished {
    pub frame: Frame,
    pub raised: u64,
    pub accepted: Option<u64>,
    pub done: u64,
    pub error: bool,
    pub results: Vec<Option<u128>>,
}

/// A break of the port contract, seen on the pins alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub cycle: u64,
    /// the message the monitor attributes it to, if any: (index, line, text)
    pub msg: Option<(usize, usize, String)>,
    /// the pin the break shows on (`mem_wr_data`, `rsp_lane`, ...)
    pub signal: &'static str,
    pub what: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.msg {
            Some((index, line, text)) => {
                write!(f, "cycle {}: port contract broken during message {index} (line {line}: {text}): {}", self.cycle, self.what)
            }
            None => write!(f, "cycle {}: port contract broken with no message in flight: {}", self.cycle, self.what),
        }
    }
}
