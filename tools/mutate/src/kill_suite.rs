//! A block's kill suite: fixed and seeded, the same for every mutant.
//!
//! - A unit build (pipelined or serial): the illegal descriptors between
//!   legal messages (testbench `directed`), every addressed kind with one
//!   lane misaligned on the pins, a pipelined build's lanes on one address
//!   at every distance read one per cycle (`timing`), the reference-wave scenarios
//!   (`waves/scenarios/*.atom`, whose port traces `wave check-refs` pins
//!   cycle for cycle), a seeded random regression of K messages (the
//!   regress generator, every kind and float family, latency 1..8, 30%
//!   stalls) and K/2 more at latency 1..24, every directed script of the
//!   RTL tests, resets with messages
//!   in flight each followed by a checked script, then every value of
//!   every descriptor byte of the illegal descriptors' base messages that
//!   the golden decoder refuses (last: the longest item). Each runs in
//!   lockstep with the golden model: a mismatch, a port-contract violation
//!   or the watchdog kills; so does, on a scenario, a port trace that is
//!   not the unmutated design's (what the reference waves would show).
//! - An ALU build: the ALU as a pipeline with 30% stalls (testbench
//!   `alu_stream`): the directed integer and float vectors of the RTL tests,
//!   the codes the unit never sends it (whose answer the ALU documents),
//!   then K seeded random vectors; the first output that differs from the
//!   expected (the golden op function, or the documented answer) kills.

use std::path::Path;
use std::sync::Arc;

use atomport_core::ops::UnitConfig;
use atomport_core::program::Program;
use atomport_sim::dynamic::DynLibrary;
use atomport_sim::SimError;
use atomport_testbench::alu_stream::{admitted, run_stream, AluStreamError, AluVector};
use atomport_testbench::directed::{self, IllegalRunError, ResetInFlight};
use atomport_testbench::generator::{random_script, GenConfig};
use atomport_testbench::memory::MemConfig;
use atomport_testbench::pins::{LanePayload, PinRequest, UnitOutputs, UnitPins};
use atomport_testbench::regress::script_seed;
use atomport_testbench::runtime_dut::{RuntimeAlu, RuntimeUnit};
use atomport_testbench::timing::LaneRateError;
use atomport_testbench::{alu_vectors, run_after_reset_in_flight, run_program, RtlError, RtlOptions};

use super::mutants::SELECT;
use super::{BlockKind, MutateError};

/// Messages per generated script of the regression part.
pub const PER_SCRIPT: usize = 100;

/// What killed a mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum KillReason {
    /// the scoreboard: a read, write, result or done not the golden model's
    Mismatch,
    /// the monitor: a port-contract violation
    Protocol,
    /// a message that did not finish within its bound (a hang)
    Watchdog,
    /// a scenario's port trace differs from the unmutated design's
    Waveform,
    /// the pipelined unit's lanes do not read one per cycle (`timing`)
    Timing,
    /// the model stopped with a Verilator fatal (a loop that does not converge)
    Fatal,
}

impl KillReason {
    pub fn name(self) -> &'static str {
        match self {
            KillReason::Mismatch => "mismatch",
            KillReason::Protocol => "port contract",
            KillReason::Watchdog => "watchdog",
            KillReason::Waveform => "waveform",
            KillReason::Timing => "timing",
            KillReason::Fatal => "fatal",
        }
    }
}

/// A kill: why, by which suite item, and the bench's first words about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kill {
    pub reason: KillReason,
    pub item: String,
    pub detail: String,
}

/// One item of a suite.
enum Item {
    Script { name: String, program: Program, mem: MemConfig, scenario: bool, messages: usize },
    Illegal { name: String, seed: u64, cases: Vec<(String, PinRequest)> },
    Stream { name: String, vectors: Vec<AluVector> },
    /// a reset with messages in flight, then a script checked from it
    Reset { name: String, case: ResetInFlight },
    /// every addressed kind with one lane misaligned on the pins
    Misaligned { name: String, seed: u64 },
    /// lanes on one address at every distance, one read per cycle
    LaneRate { name: String },
}

impl Item {
    fn name(&self) -> String {
        match self {
            Item::Script { name, .. } | Item::Stream { name, .. } => name.clone(),
            Item::Illegal { name, .. } | Item::Reset { name, .. } | Item::Misaligned { name, .. } => name.clone(),
            Item::LaneRate { name } => name.clone(),
        }
    }
}

/// How big a suite is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteSize {
    pub items: usize,
    pub scripts: usize,
    pub messages: usize,
    /// requests that must end with `rsp_error`: illegal descriptors and
    /// messages with a misaligned lane
    pub illegal_requests: usize,
    pub vectors: usize,
}

/// A block's kill suite, with the unmutated design's scenario traces once
/// [`KillSuite::check_select0`] recorded them.
pub struct KillSuite {
    kind: BlockKind,
    config: UnitConfig,
    element_allowance: u64,
    items: Vec<Item>,
    /// per item: the unmutated design's port-trace digest (scenarios only)
    reference: Vec<Option<u64>>,
}

/// Stall probability of the ALU stream and of the regression's memory.
const STALL: f64 = 0.3;

/// The longest read latency of the regression's long-latency half, and the
/// seed stream of its scripts (apart from the first half's).
const LONG_LATENCY_MAX: u32 = 24;
const LONG_LATENCY_STREAM: u64 = 0x10_4a7e << 32;

impl KillSuite {
    /// The suite of a block of `kind` built as `config`: `messages` random
    /// messages (unit) or vectors (ALU) from `seed`, after the directed part.
    /// `waves`: the reference waves' folder (`waves/`, its `scenarios/`).
    pub fn new(kind: BlockKind, config: UnitConfig, messages: usize, seed: u64, waves: &Path) -> Result<KillSuite, MutateError> {
        let mut items = vec![];
        match kind {
            BlockKind::Alu => {
                let keep = |v: Vec<AluVector>| -> Vec<AluVector> { v.into_iter().filter(|v| admitted(&config, v)).collect() };
                items.push(Item::Stream { name: "directed integer vectors".into(), vectors: keep(alu_vectors::directed_integer(&config)) });
                if config.fp {
                    items.push(Item::Stream { name: "directed float vectors".into(), vectors: keep(alu_vectors::directed_float(&config)) });
                    items.push(Item::Stream { name: "directed float rounding vectors".into(), vectors: keep(alu_vectors::directed_rounding(&config)) });
                }
                items.push(Item::Stream { name: "vectors outside the op table and the build".into(), vectors: alu_vectors::directed_outside(&config) });
                let random = alu_vectors::random_vectors(&config, messages, seed);
                for (k, chunk) in random.chunks(10_000).enumerate() {
                    items.push(Item::Stream { name: format!("random vectors {k}"), vectors: chunk.to_vec() });
                }
            }
            BlockKind::Unit | BlockKind::Serial => {
                let named = directed::illegal_requests().into_iter().map(|(n, r)| (n.to_string(), r)).collect();
                items.push(Item::Illegal { name: "illegal descriptors".into(), seed: 19, cases: named });
                items.push(Item::Misaligned { name: "misaligned lanes".into(), seed: 29 });
                if kind == BlockKind::Unit {
                    items.push(Item::LaneRate { name: "lane rate".into() });
                }
                let found = atomport_wavecheck::refs::scenarios(waves).map_err(|e| MutateError::Input(e.to_string()))?;
                for sc in found {
                    let text = std::fs::read_to_string(&sc.script).map_err(|e| MutateError::io(&sc.script, e))?;
                    let program = atomport_core::script::parse(&sc.script.display().to_string(), &text)
                        .map_err(|d| MutateError::Input(format!("{}: {d}", sc.script.display())))?;
                    let messages = program.messages().count();
                    items.push(Item::Script { name: format!("scenario {}", sc.name), program, mem: sc.mem, scenario: true, messages });
                }
                // the regression at latency 1..8, then half as many other
                // scripts at a long, uneven read latency (a slow read holds
                // back the returns behind it, which then come one per cycle)
                let long_label = format!(" at latency 1..{LONG_LATENCY_MAX}");
                let parts = [(messages, seed, 8, String::new()), (messages / 2, seed ^ LONG_LATENCY_STREAM, LONG_LATENCY_MAX, long_label)];
                for (count, stream, latency_max, label) in parts {
                    for k in 0..count.div_ceil(PER_SCRIPT) {
                        let n = PER_SCRIPT.min(count - k * PER_SCRIPT);
                        let s = script_seed(stream, k);
                        let g = random_script(s, &GenConfig::every_family(n))
                            .map_err(|e| MutateError::Input(format!("the generator failed on script {k}{label} (seed {s:#x}): {e}")))?;
                        let mem = MemConfig { latency_min: 1, latency_max, stall: STALL, seed: s };
                        items.push(Item::Script { name: format!("regress script {k}{label} (seed {s:#x})"), program: g.program, mem, scenario: false, messages: n });
                    }
                }
                for d in directed::scripts() {
                    let program = d.program();
                    let messages = program.messages().count();
                    items.push(Item::Script { name: format!("directed {} (memory seed {})", d.name, d.mem.seed), program, mem: d.mem, scenario: false, messages });
                }
                for (k, case) in directed::resets_in_flight().into_iter().enumerate() {
                    items.push(Item::Reset { name: format!("reset {k} in flight at cycle {}", case.cycles), case });
                }
                // last: some 20,000 requests, run only by the mutants nothing before kills
                items.push(Item::Illegal { name: "descriptor byte sweep".into(), seed: 23, cases: directed::descriptor_byte_sweep() });
            }
        }
        let element_allowance = if kind == BlockKind::Serial { atomport_testbench::dut::SERIAL_ELEMENT_ALLOWANCE } else { 0 };
        let reference = vec![None; items.len()];
        Ok(KillSuite { kind, config, element_allowance, items, reference })
    }

    pub fn size(&self) -> SuiteSize {
        let mut s = SuiteSize { items: self.items.len(), ..SuiteSize::default() };
        for item in &self.items {
            match item {
                Item::Script { messages, .. } => {
                    s.scripts += 1;
                    s.messages += messages;
                }
                Item::Illegal { cases, .. } => s.illegal_requests += cases.len(),
                Item::Misaligned { .. } => s.illegal_requests += directed::misaligned_requests(),
                Item::LaneRate { .. } => {
                    s.scripts += 1;
                    s.messages += 2 * atomport_testbench::timing::DISTANCES.len();
                }
                Item::Stream { vectors, .. } => s.vectors += vectors.len(),
                Item::Reset { case, .. } => {
                    s.scripts += 1;
                    s.messages += case.after.messages().count();
                }
            }
        }
        s
    }

    /// Runs the whole suite on the unmutated design (select 0): it must
    /// pass, and the scenarios' port traces become the reference the
    /// mutants are held to.
    pub fn check_select0(&mut self, lib: &Arc<DynLibrary>) -> Result<(), MutateError> {
        for k in 0..self.items.len() {
            let (kill, digest) = self.run_item(lib, 0, k)?;
            if let Some(kill) = kill {
                return Err(MutateError::Select0(format!("{} ({}): {}", kill.item, kill.reason.name(), kill.detail)));
            }
            self.reference[k] = digest;
        }
        Ok(())
    }

    /// Runs the suite on mutant `select` until the first kill.
    pub fn run(&self, lib: &Arc<DynLibrary>, select: u64) -> Result<Option<Kill>, MutateError> {
        for k in 0..self.items.len() {
            let (kill, digest) = self.run_item(lib, select, k)?;
            if kill.is_some() {
                return Ok(kill);
            }
            if let (Some(want), Some(got)) = (self.reference[k], digest) {
                if want != got {
                    return Ok(Some(Kill {
                        reason: KillReason::Waveform,
                        item: self.items[k].name(),
                        detail: "the ports' trace differs from the unmutated design's (wave check-refs would fail)".into(),
                    }));
                }
            }
        }
        Ok(None)
    }

    /// Item `k` on mutant `select`: its kill, and for a scenario the port
    /// trace's digest.
    fn run_item(&self, lib: &Arc<DynLibrary>, select: u64, k: usize) -> Result<(Option<Kill>, Option<u64>), MutateError> {
        let item = &self.items[k];
        let kill = |reason: KillReason, detail: String| Some(Kill { reason, item: item.name(), detail: first_line(&detail) });
        let model_error = |e: atomport_testbench::runtime_dut::RuntimeError| MutateError::Input(format!("the mutant model: {e}"));
        match item {
            Item::Stream { vectors, .. } => {
                let mut alu = RuntimeAlu::new(lib, Some((SELECT, select))).map_err(model_error)?;
                match run_stream(&mut alu, &self.config, vectors, STALL, k as u64) {
                    Ok(_) => Ok((None, None)),
                    Err(AluStreamError::Mismatch(m)) => Ok((kill(KillReason::Mismatch, m.to_string()), None)),
                    Err(AluStreamError::Sim(e)) => Ok((kill(KillReason::Fatal, e.to_string()), None)),
                }
            }
            Item::Illegal { seed, cases, .. } => {
                let unit = RuntimeUnit::new(lib, self.config, self.element_allowance, Some((SELECT, select))).map_err(model_error)?;
                match directed::run_illegal(unit, *seed, cases) {
                    Ok(()) => Ok((None, None)),
                    Err(IllegalRunError::Rtl(e)) => Ok((rtl_kill(e, &kill)?, None)),
                    Err(e @ (IllegalRunError::Mismatch(_) | IllegalRunError::NotFlagged { .. })) => {
                        Ok((kill(KillReason::Mismatch, e.to_string()), None))
                    }
                }
            }
            Item::LaneRate { .. } => {
                let unit = RuntimeUnit::new(lib, self.config, self.element_allowance, Some((SELECT, select))).map_err(model_error)?;
                match atomport_testbench::timing::lane_rate(unit) {
                    Ok(_) => Ok((None, None)),
                    Err(LaneRateError::Rtl(e)) => Ok((rtl_kill(e, &kill)?, None)),
                    Err(e @ LaneRateError::Mismatch(_)) => Ok((kill(KillReason::Mismatch, e.to_string()), None)),
                    Err(e @ LaneRateError::Rate(_)) => Ok((kill(KillReason::Timing, e.to_string()), None)),
                }
            }
            Item::Misaligned { seed, .. } => {
                let unit = RuntimeUnit::new(lib, self.config, self.element_allowance, Some((SELECT, select))).map_err(model_error)?;
                match directed::run_misaligned(unit, *seed) {
                    Ok(_) => Ok((None, None)),
                    Err(IllegalRunError::Rtl(e)) => Ok((rtl_kill(e, &kill)?, None)),
                    Err(e @ (IllegalRunError::Mismatch(_) | IllegalRunError::NotFlagged { .. })) => {
                        Ok((kill(KillReason::Mismatch, e.to_string()), None))
                    }
                }
            }
            Item::Reset { case, .. } => {
                let unit = RuntimeUnit::new(lib, self.config, self.element_allowance, Some((SELECT, select))).map_err(model_error)?;
                let opts = RtlOptions { mem: case.mem, vcd: None, fst: None };
                match run_after_reset_in_flight(unit, &case.before, case.cycles, &case.after, &opts) {
                    Ok((_, sim)) => match sim.mismatch {
                        Some(m) => Ok((kill(KillReason::Mismatch, m.to_string()), None)),
                        None => Ok((None, None)),
                    },
                    Err(e) => Ok((rtl_kill(e, &kill)?, None)),
                }
            }
            Item::Script { program, mem, scenario, .. } => {
                let unit = RuntimeUnit::new(lib, self.config, self.element_allowance, Some((SELECT, select))).map_err(model_error)?;
                let traced = TracedPins { inner: unit, digest: 0xcbf2_9ce4_8422_2325 };
                let opts = RtlOptions { mem: *mem, vcd: None, fst: None };
                let digest = std::cell::Cell::new(None);
                let outcome = run_program(DigestOnDrop { pins: traced, out: &digest }, program, &opts, true);
                match outcome {
                    Ok(sim) => match sim.mismatch {
                        Some(m) => Ok((kill(KillReason::Mismatch, m.to_string()), None)),
                        None => Ok((None, if *scenario { digest.get() } else { None })),
                    },
                    Err(e) => Ok((rtl_kill(e, &kill)?, None)),
                }
            }
        }
    }

    pub fn kind(&self) -> BlockKind {
        self.kind
    }
}

/// A bench error as a kill, or `Err` when it is the bench's own problem.
fn rtl_kill(e: RtlError, kill: &dyn Fn(KillReason, String) -> Option<Kill>) -> Result<Option<Kill>, MutateError> {
    match e {
        RtlError::Watchdog(r) => Ok(kill(KillReason::Watchdog, r)),
        RtlError::Protocol(v) => Ok(kill(KillReason::Protocol, v.to_string())),
        RtlError::Sim(SimError::Fatal(m) | SimError::Dead(m)) => Ok(kill(KillReason::Fatal, m)),
        RtlError::Illegal(flags) => Ok(kill(KillReason::Mismatch, format!("{} messages flagged illegal", flags.len()))),
        e @ (RtlError::Sim(_) | RtlError::Encode(_) | RtlError::Unavailable(_)) => Err(MutateError::Input(format!("the bench failed: {e}"))),
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

/// Unit pins that fold every cycle's outputs into a digest (FNV-1a over
/// the outputs sampled at each rising edge).
struct TracedPins {
    inner: RuntimeUnit,
    digest: u64,
}

/// Hands the digest out when the session is done with the pins.
struct DigestOnDrop<'a> {
    pins: TracedPins,
    out: &'a std::cell::Cell<Option<u64>>,
}

impl Drop for DigestOnDrop<'_> {
    fn drop(&mut self) {
        self.out.set(Some(self.pins.digest));
    }
}

impl TracedPins {
    fn fold(&mut self, out: &UnitOutputs) {
        let words = [
            out.req_ready as u128 | (out.pay_valid as u128) << 1 | (out.pay_slot as u128) << 2 | (out.pay_lane as u128) << 8,
            out.rd_valid as u128 | (out.rd_slm as u128) << 1 | (out.rd_be as u128) << 8 | (out.rd_addr as u128) << 32,
            out.wr_valid as u128 | (out.wr_slm as u128) << 1 | (out.wr_be as u128) << 8 | (out.wr_addr as u128) << 32,
            out.wr_data,
            out.rsp_valid as u128 | (out.rsp_done as u128) << 1 | (out.rsp_error as u128) << 2 | (out.rsp_lane as u128) << 8,
            out.rsp_data,
            out.obs_valid as u128 | (out.obs_lane as u128) << 8 | (out.obs_elem as u128) << 16,
            out.obs_old,
            out.obs_new,
        ];
        for w in words {
            for b in w.to_le_bytes() {
                self.digest ^= b as u64;
                self.digest = self.digest.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
}

impl UnitPins for DigestOnDrop<'_> {
    fn set_reset(&mut self, reset: bool) {
        self.pins.inner.set_reset(reset);
    }
    fn set_request(&mut self, req: &PinRequest) {
        self.pins.inner.set_request(req);
    }
    fn set_payload(&mut self, payload: &LanePayload) {
        self.pins.inner.set_payload(payload);
    }
    fn set_req_valid(&mut self, valid: bool) {
        self.pins.inner.set_req_valid(valid);
    }
    fn set_mem(&mut self, rd_ready: bool, wr_ready: bool, rdata_valid: bool, rdata: u128) {
        self.pins.inner.set_mem(rd_ready, wr_ready, rdata_valid, rdata);
    }
    fn settle(&mut self) -> Result<(), SimError> {
        self.pins.inner.settle()
    }
    fn outputs(&self) -> UnitOutputs {
        self.pins.inner.outputs()
    }
    fn edge(&mut self) -> Result<(), SimError> {
        let out = self.pins.inner.outputs();
        self.pins.fold(&out);
        self.pins.inner.edge()
    }
    fn open_trace(&mut self, path: &std::path::Path) -> Result<(), SimError> {
        self.pins.inner.open_trace(path)
    }
    fn close_trace(&mut self) -> Result<(), SimError> {
        self.pins.inner.close_trace()
    }
    fn config(&self) -> UnitConfig {
        self.pins.inner.config()
    }
    fn element_allowance(&self) -> u64 {
        self.pins.inner.element_allowance()
    }
}
