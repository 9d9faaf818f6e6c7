//! Monitor -> scoreboard, one cycle at a time, on any [`PinSource`]: the
//! one checking path behind the lockstep bench ([`crate::session`], pins
//! of the live Verilated unit) and `wavecheck` (pins replayed from a VCD
//! or FST). Both issue the script's messages through
//! [`Lockstep::issue_message`] (the same frames for the monitor, the same
//! golden execution for the scoreboard) and feed each cycle to
//! [`Lockstep::observe`].

use atomport_core::descriptor::{EncodeError, Encoder};
use atomport_core::message::{Body, Message};
use atomport_core::ops::UnitConfig;
use atomport_core::program::Program;

use super::driver;
use super::monitor::Monitor;
use super::pins::{CycleSample, PinRequest, PinSource};
use super::scoreboard::{Mismatch, Scoreboard};
use super::transaction::{Event, Frame, Violation};

/// How many events of each kind the monitor reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventCounts {
    pub reads: u64,
    pub writes: u64,
    /// writes of atomic elements (with `obs_*`)
    pub observed: u64,
    pub results: u64,
    pub dones: u64,
}

impl EventCounts {
    fn count(&mut self, e: &Event) {
        match e {
            Event::Read { .. } => self.reads += 1,
            Event::Write { atomic, .. } => {
                self.writes += 1;
                self.observed += atomic.is_some() as u64;
            }
            Event::Result { .. } => self.results += 1,
            Event::Done { .. } => self.dones += 1,
        }
    }
}

impl std::fmt::Display for EventCounts {
    /// `24 reads, 30 writes, 24 results, 8 dones, 24 observed elements`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} reads, {} writes, {} results, {} dones, {} observed elements",
            self.reads, self.writes, self.results, self.dones, self.observed
        )
    }
}

/// The monitor and (when checking) the scoreboard.
pub struct Lockstep {
    pub monitor: Monitor,
    pub scoreboard: Option<Scoreboard>,
    events: Vec<Event>,
    pub counts: EventCounts,
}

/// What a message is on the pins: its frame for the monitor.
pub fn frame(index: usize, msg: &Message, req: &PinRequest) -> Frame {
    let enables = msg.lane_enables();
    Frame {
        index,
        line: msg.line,
        text: atomport_core::text::message_text(msg),
        result_lanes: if msg.alu().is_some() { enables } else { 0 },
        enables,
        exec_size: msg.exec_size,
        scatter_blocks: match &msg.body {
            Body::SvmScatter { num_blocks, .. } => Some(*num_blocks),
            _ => None,
        },
        result: msg.dst.clone().map(|n| (n, msg.result_width())),
        max_elements: enables.count_ones() * driver::elements_per_lane(msg),
        walk_cycles: walk_cycles(msg),
        desc: req.desc_bytes(),
    }
}

/// Cycles a typed message's lanes may spend walking levels: three per level
/// below each enabled lane's LOD (`hdl/src/typed_addr.rs`), at most 32 levels.
fn walk_cycles(msg: &Message) -> u64 {
    match &msg.body {
        Body::TypedAtomic { lod: Some(lod), .. } => {
            let enables = msg.lane_enables();
            lod.iter().enumerate().filter(|(l, _)| enables >> l & 1 != 0).map(|(_, &n)| 3 * u64::from(n.min(32))).sum()
        }
        _ => 0,
    }
}

/// The frame of a request the unit must reject: no access, no result.
pub fn illegal_frame(index: usize, line: usize, text: &str, req: &PinRequest) -> Frame {
    Frame {
        index,
        line,
        text: text.to_string(),
        result_lanes: 0,
        enables: 0,
        exec_size: 32,
        scatter_blocks: None,
        result: None,
        max_elements: 1,
        walk_cycles: 0,
        desc: req.desc_bytes(),
    }
}

impl Lockstep {
    pub fn new(scoreboard: Option<Scoreboard>) -> Lockstep {
        Lockstep { monitor: Monitor::new(), scoreboard, events: Vec::new(), counts: EventCounts::default() }
    }

    /// Issues script message `msg` as message `index` on a build `config`:
    /// its pin image (descriptor from `encoder`), its frame to the monitor,
    /// its golden execution to the scoreboard. A message the build does not
    /// admit is issued as one it must reject (returned `true`).
    pub fn issue_message(
        &mut self,
        index: usize,
        program: &Program,
        encoder: &mut Encoder,
        msg: &Message,
        config: &UnitConfig,
        build: &str,
    ) -> Result<(PinRequest, bool), EncodeError> {
        let req = driver::request(program, encoder, msg)?;
        if let Err(limit) = msg.admitted_by(config) {
            let text = format!("{} (the {build} build rejects it: {limit})", atomport_core::text::message_text(msg));
            self.issue_illegal(index, msg.line, &text, &req);
            return Ok((req, true));
        }
        let f = frame(index, msg, &req);
        if let Some(sb) = &mut self.scoreboard {
            sb.issue(index, msg, f.text.clone());
        }
        self.monitor.expect(f);
        Ok((req, false))
    }

    /// Issues script message `msg` with lane `lane`'s address moved one byte
    /// off its element's alignment on the pins: that lane makes no access
    /// and returns 0 (an ALU message), the other lanes execute, and the
    /// message ends with `rsp_error` (docs/microarchitecture.md "Payload
    /// port"; the golden model's `Machine::exec_misaligned`). A
    /// message the build does not admit is issued as one it must reject
    /// (returned `true`). The lane must be enabled, its elements wider than
    /// a byte, and the message not TYPED_ATOMIC (whose lanes address by
    /// coordinates).
    #[allow(clippy::too_many_arguments)]
    pub fn issue_misaligned(
        &mut self,
        index: usize,
        program: &Program,
        encoder: &mut Encoder,
        msg: &Message,
        lane: usize,
        config: &UnitConfig,
        build: &str,
    ) -> Result<(PinRequest, bool), EncodeError> {
        let enables = msg.lane_enables();
        assert!(enables >> lane & 1 == 1 && msg.access_bytes() > 1 && !matches!(msg.body, Body::TypedAtomic { .. }), "lane {lane} of `{}` cannot be misaligned", atomport_core::text::message_text(msg));
        let (mut req, rejected) = match msg.admitted_by(config) {
            Ok(()) => (driver::request(program, encoder, msg)?, false),
            Err(_) => return self.issue_message(index, program, encoder, msg, config, build),
        };
        req.set_addr(lane, req.lane_addr(lane) + 1);
        let mut f = frame(index, msg, &req);
        f.text = format!("{} (lane {lane} misaligned on the pins)", f.text);
        if let Some(sb) = &mut self.scoreboard {
            sb.issue_misaligned(index, msg, lane as u8, f.text.clone());
        }
        self.monitor.expect(f);
        Ok((req, rejected))
    }

    /// Issues a raw request the unit must reject (illegal descriptor or
    /// surface state): expected to end with `rsp_error`, no access, no result.
    pub fn issue_illegal(&mut self, index: usize, line: usize, text: &str, req: &PinRequest) {
        if let Some(sb) = &mut self.scoreboard {
            sb.issue_illegal(index, line, text.to_string());
        }
        self.monitor.expect(illegal_frame(index, line, text, req));
    }

    /// One cycle: the monitor's events, each checked by the scoreboard.
    pub fn observe(&mut self, s: &CycleSample) -> Result<(), Violation> {
        self.events.clear();
        let seen = self.monitor.observe(s, &mut self.events);
        for e in &self.events {
            self.counts.count(e);
            if let Some(sb) = &mut self.scoreboard {
                sb.check(e);
            }
        }
        seen
    }

    /// The first difference the scoreboard found.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        self.scoreboard.as_ref().and_then(|s| s.mismatch())
    }

    /// Runs a whole recording: every cycle of `source` through
    /// [`Lockstep::observe`] until the source ends, a violation, or the
    /// scoreboard's first mismatch. Returns the cycles observed.
    pub fn replay<S: PinSource>(&mut self, source: &mut S) -> Result<u64, ReplayStop<S::Error>> {
        let mut cycles = 0;
        while let Some(s) = source.sample().map_err(ReplayStop::Source)? {
            self.observe(&s).map_err(ReplayStop::Violation)?;
            cycles += 1;
            if self.mismatch().is_some() {
                break;
            }
            source.advance().map_err(ReplayStop::Source)?;
        }
        Ok(cycles)
    }
}

/// Why [`Lockstep::replay`] stopped early.
#[derive(Debug)]
pub enum ReplayStop<E> {
    /// the source failed (a recording without a pin, x on a valid, ...)
    Source(E),
    /// the pins broke the port contract
    Violation(Violation),
}
