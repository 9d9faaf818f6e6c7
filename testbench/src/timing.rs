//! The pipelined unit's lane rate as a check over any pipelined model
//! (docs/microarchitecture.md "Cycle costs"): with a memory that answers
//! every read in one cycle and never stalls, one message's lanes read one
//! per cycle, whatever lanes share an address and at whatever distance:
//! a lane whose old value an earlier lane is still writing takes it from
//! the execute stage or the in-flight table (forwarding), it never waits.
//! A change that turns a forward into a stall keeps every value right and
//! shows only here. Every run is in lockstep with the golden model too.

use atomport_core::descriptor::Encoder;
use atomport_core::golden::Machine;

use super::memory::MemConfig;
use super::pins::UnitPins;
use super::scoreboard::Scoreboard;
use super::session::{RtlError, RtlOptions, Session};

/// Why [`lane_rate`] failed.
#[derive(Debug, thiserror::Error)]
pub enum LaneRateError {
    #[error("{0}")]
    Rtl(#[from] RtlError),
    #[error("RTL and golden model differ: {0}")]
    Mismatch(String),
    /// a message's reads did not follow one per cycle
    #[error("{0}")]
    Rate(String),
}

/// Distances between lanes on one address: lane `l` addresses word `l % d`.
pub const DISTANCES: [usize; 6] = [1, 2, 3, 4, 5, 8];

/// Runs, for each distance `d` of [`DISTANCES`], one message with all the
/// build's lanes over `d` words of one line and one over `d` lines (adds,
/// then a swap chain), each alone; checks that each message's reads follow
/// each other one per cycle. The error names the message and the gaps.
pub fn lane_rate<P: UnitPins>(dut: P) -> Result<usize, LaneRateError> {
    let lanes = dut.config().max_lanes as usize;
    let list = |f: &dyn Fn(usize) -> u128| format!("[{}]", (0..lanes).map(|l| format!("{:#x}", f(l))).collect::<Vec<_>>().join(" "));
    let mut text = String::from("mem.u32 0x3000 = 1 2 3 4 5 6 7 8\n");
    for d in DISTANCES {
        text += &format!("DWORD_ATOMIC.add ({lanes}) T255 {} {} V0 w{d}\n", list(&|l| 0x3000 + 4 * (l % d) as u128), list(&|l| l as u128 + 1));
        text += &format!("DWORD_ATOMIC.xchg ({lanes}) T255 {} {} V0 x{d}\n", list(&|l| 0x3100 + 16 * (l % d) as u128), list(&|l| 0x100 * l as u128 + 7));
    }
    let program = atomport_core::script::parse("lane_rate.atom", &text).expect("the lane-rate script parses");
    let opts = RtlOptions { mem: MemConfig::FAST, vcd: None, fst: None };
    let mut session = Session::new(dut, &opts, Some(Scoreboard::new(Machine::new(&program))))?;
    session.record_read_cycles();
    let mut encoder = Encoder::new();
    let mut checked = 0;
    for msg in program.messages() {
        let first = session.read_cycles().len();
        session.issue(&program, &mut encoder, msg)?;
        session.drain()?;
        if let Some(m) = session.mismatch() {
            return Err(LaneRateError::Mismatch(m.to_string()));
        }
        let reads = &session.read_cycles()[first..];
        let gaps: Vec<u64> = reads.windows(2).map(|w| w[1] - w[0]).collect();
        if reads.len() != lanes || gaps.iter().any(|&g| g != 1) {
            return Err(LaneRateError::Rate(format!(
                "line {} ({}): {} reads, gaps {gaps:?} cycles; one read per cycle expected",
                msg.line,
                atomport_core::text::message_text(msg),
                reads.len()
            )));
        }
        checked += 1;
    }
    session.finish()?;
    if let Some(m) = session.mismatch() {
        return Err(LaneRateError::Mismatch(m.to_string()));
    }
    Ok(checked)
}
