//! The device under test: [`UnitPins`] for the Verilated `atomic_unit`
//! (`atomport_sim::VAtomicUnit`, from `hdl/verilog/atomic_unit.v`) and for
//! the checked-in small builds, pipelined (`VAtomicUnitL8W32Int`, from
//! `hdl/verilog/variants/atomic_unit_l8_w32_int.v`) and serial
//! (`VSerialUnitL8W32Int`, from `hdl/verilog/variants/serial_unit_l8_w32_int.v`),
//! and the whole-script entry points on them.

use atomport_sim::{
    SimError, VAtomicUnit, VAtomicUnitFst, VAtomicUnitL8W32Int, VAtomicUnitL8W32IntFst, VSerialUnitL8W32Int,
    VSerialUnitL8W32IntFst,
};

use atomport_core::ops::UnitConfig;

use atomport_core::outcome::RunOutput;
use atomport_core::output_file::OutputFile;
use atomport_core::program::Program;

use super::session::{run_program, RtlError, RtlOptions, Simulation};
use super::pins::{LanePayload, PinRequest, UnitOutputs, UnitPins};

/// [`UnitPins`] for a Verilated unit model: every build of the unit has the
/// same ports (the build parameters change what is inside, not the shape).
macro_rules! unit_pins {
    ($model:ident, $config:expr) => {
        unit_pins!($model, $config, 0, $config.name());
    };
    ($model:ident, $config:expr, $element_allowance:expr, $build_name:expr) => {
        impl UnitPins for $model {
            #[inline]
            fn set_reset(&mut self, reset: bool) {
                $model::set_reset(self, reset as u8);
            }

            fn set_request(&mut self, r: &PinRequest) {
                self.set_req_desc(r.desc);
                self.set_req_dmask(r.dmask);
                self.set_req_pred_mask(r.pred_mask);
                self.set_req_surf_kind(r.surf_kind);
                self.set_req_surf_base(r.surf_base);
                self.set_req_surf_size(r.surf_size);
                self.set_req_surf_width(r.surf_width);
                self.set_req_surf_height(r.surf_height);
                self.set_req_surf_depth(r.surf_depth);
                self.set_req_surf_array(r.surf_array);
                self.set_req_surf_levels(r.surf_levels);
                self.set_req_surf_u16(r.surf_u16 as u8);
                self.set_req_slm_size(r.slm_size);
            }

            #[inline]
            fn set_payload(&mut self, p: &LanePayload) {
                self.set_pay_addr(p.addr);
                self.set_pay_src0(p.src0);
                self.set_pay_src1(p.src1);
                self.set_pay_coord(p.coord);
            }

            #[inline]
            fn set_req_valid(&mut self, valid: bool) {
                $model::set_req_valid(self, valid as u8);
            }

            #[inline]
            fn set_mem(&mut self, rd_ready: bool, wr_ready: bool, rdata_valid: bool, rdata: u128) {
                self.set_mem_rd_ready(rd_ready as u8);
                self.set_mem_wr_ready(wr_ready as u8);
                self.set_mem_rdata_valid(rdata_valid as u8);
                self.set_mem_rdata(rdata);
            }

            #[inline]
            fn settle(&mut self) -> Result<(), SimError> {
                self.set_clock(0);
                self.eval()?;
                self.dump()
            }

            #[inline]
            fn outputs(&self) -> UnitOutputs {
                let rd_valid = self.mem_rd_valid() != 0;
                let wr_valid = self.mem_wr_valid() != 0;
                let rsp_valid = self.rsp_valid() != 0;
                let obs_valid = self.obs_valid() != 0;
                let pay_valid = self.pay_valid() != 0;
                UnitOutputs {
                    req_ready: self.req_ready() != 0,
                    pay_valid,
                    pay_lane: if pay_valid { self.pay_lane() } else { 0 },
                    pay_slot: pay_valid && self.pay_slot() != 0,
                    rd_valid,
                    rd_addr: if rd_valid { self.mem_rd_addr() } else { 0 },
                    rd_slm: rd_valid && self.mem_rd_space() != 0,
                    rd_be: if rd_valid { self.mem_rd_be() } else { 0 },
                    wr_valid,
                    wr_addr: if wr_valid { self.mem_wr_addr() } else { 0 },
                    wr_slm: wr_valid && self.mem_wr_space() != 0,
                    wr_data: if wr_valid { self.mem_wr_data() } else { 0 },
                    wr_be: if wr_valid { self.mem_wr_be() } else { 0 },
                    rsp_valid,
                    rsp_lane: if rsp_valid { self.rsp_lane() } else { 0 },
                    rsp_data: if rsp_valid { self.rsp_data() } else { 0 },
                    rsp_done: self.rsp_done() != 0,
                    rsp_error: self.rsp_error() != 0,
                    obs_valid,
                    obs_lane: if obs_valid { self.obs_lane() } else { 0 },
                    obs_elem: if obs_valid { self.obs_elem() } else { 0 },
                    obs_old: if obs_valid { self.obs_old() } else { 0 },
                    obs_new: if obs_valid { self.obs_new() } else { 0 },
                }
            }

            #[inline]
            fn edge(&mut self) -> Result<(), SimError> {
                self.set_clock(1);
                self.eval()?;
                self.advance(atomport_sim::CLOCK_PERIOD / 2);
                self.dump()?;
                self.advance(atomport_sim::CLOCK_PERIOD - atomport_sim::CLOCK_PERIOD / 2);
                Ok(())
            }

            fn open_trace(&mut self, path: &std::path::Path) -> Result<(), SimError> {
                $model::open_trace(self, path)
            }

            fn close_trace(&mut self) -> Result<(), SimError> {
                self.flush_trace()?;
                $model::close_trace(self)
            }

            fn config(&self) -> UnitConfig {
                $config
            }

            fn element_allowance(&self) -> u64 {
                $element_allowance
            }

            fn build_name(&self) -> String {
                $build_name
            }
        }
    };
}

unit_pins!(VAtomicUnit, UnitConfig::FULL);
unit_pins!(VAtomicUnitL8W32Int, SMALL_UNIT);
// the same builds verilated with --trace-fst (`RtlOptions::fst`)
unit_pins!(VAtomicUnitFst, UnitConfig::FULL);
unit_pins!(VAtomicUnitL8W32IntFst, SMALL_UNIT);
unit_pins!(VSerialUnitL8W32Int, SMALL_UNIT, SERIAL_ELEMENT_ALLOWANCE, UnitBuild::Serial.name());
unit_pins!(VSerialUnitL8W32IntFst, SMALL_UNIT, SERIAL_ELEMENT_ALLOWANCE, UnitBuild::Serial.name());

/// Cycles the watchdog allows the serial build per memory element beyond
/// the pipelined unit's: its typed walk (`TypedAddrSerial`) takes at most 32
/// levels of two 34-cycle multiply-adds, the index's three, and 16 for the
/// element's other states.
pub const SERIAL_ELEMENT_ALLOWANCE: u64 = 32 * 68 + 3 * 34 + 16;

/// The checked-in small build (`UnitConfig::SMALL`): 8 lanes, 32-bit data,
/// integer ops.
pub const SMALL_UNIT: atomport_isa::UnitConfig = atomport_isa::UnitConfig::SMALL;

/// A unit build the bench can run, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitBuild {
    /// `atomic_unit`: [`UnitConfig::FULL`]
    Full,
    /// `atomic_unit_l8_w32_int`: [`SMALL_UNIT`]
    Small,
    /// `serial_unit_l8_w32_int`: [`SMALL_UNIT`], one element at a time
    Serial,
}

impl UnitBuild {
    pub const ALL: [UnitBuild; 3] = [UnitBuild::Full, UnitBuild::Small, UnitBuild::Serial];

    /// The name the CLI takes: the config's name (`l32_w128`, `l8_w32_int`),
    /// prefixed `serial_` for the serial build (`serial_l8_w32_int`).
    pub fn name(self) -> String {
        match self {
            UnitBuild::Serial => format!("serial_{}", self.config().name()),
            _ => self.config().name(),
        }
    }

    pub fn config(self) -> UnitConfig {
        match self {
            UnitBuild::Full => UnitConfig::FULL,
            UnitBuild::Small | UnitBuild::Serial => SMALL_UNIT,
        }
    }

    /// The build named `name` (a [`UnitConfig`] name, `full` or `small`).
    pub fn by_name(name: &str) -> Result<UnitBuild, UnitBuildError> {
        match name {
            "full" => return Ok(UnitBuild::Full),
            "small" => return Ok(UnitBuild::Small),
            "serial" => return Ok(UnitBuild::Serial),
            _ => {}
        }
        let (serial, config_name) = match name.strip_prefix("serial_") {
            Some(rest) => (true, rest),
            None => (false, name),
        };
        let config = UnitConfig::parse(config_name).map_err(UnitBuildError::Name)?;
        UnitBuild::ALL
            .into_iter()
            .find(|b| b.config() == config && (*b == UnitBuild::Serial) == serial)
            .ok_or_else(|| UnitBuildError::NoModel { build: name.to_string(), simulated: UnitBuild::ALL.map(|b| b.name()).join(", ") })
    }
}

/// A `--unit` name that names no simulated build.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnitBuildError {
    /// not a build name at all (the isa table's message)
    #[error("{0}")]
    Name(String),
    #[error("no simulation model of the {build} build: the bench runs {simulated} (other builds are for `atomport synth --block unit_<config>` or `serial_<config>`)")]
    NoModel { build: String, simulated: String },
}

/// A fresh Verilated unit.
pub fn new_unit() -> Result<VAtomicUnit, RtlError> {
    Ok(VAtomicUnit::new()?)
}

/// Runs a script on the RTL; `check` compares it in lockstep with the
/// golden model (the scoreboard).
pub fn simulate(program: &Program, opts: &RtlOptions, check: bool) -> Result<Simulation, RtlError> {
    simulate_build(UnitBuild::Full, program, opts, check)
}

/// [`simulate`] on a given build of the unit. Messages the build does not
/// admit are expected to end with `rsp_error` and no access.
///
/// A waveform (`opts.vcd`, `opts.fst`) is written whole
/// (`atomport_core::output_file`): the trace goes to a temporary file in the
/// target's folder, renamed over the target when the run ends (passed or
/// failed: a failed run's waveform is its evidence), and removed when the
/// trace itself could not be written ([`SimError::Trace`]).
pub fn simulate_build(build: UnitBuild, program: &Program, opts: &RtlOptions, check: bool) -> Result<Simulation, RtlError> {
    if opts.vcd.is_some() && opts.fst.is_some() {
        return Err(RtlError::Sim(SimError::Trace("a run writes one waveform: VCD or FST, not both".into())));
    }
    let Some(target) = opts.vcd.as_ref().or(opts.fst.as_ref()) else {
        return simulate_model(build, program, opts, check);
    };
    let trace_error = |m: String| RtlError::Sim(SimError::Trace(format!("{}: {m}", target.display())));
    let out = OutputFile::reserve(target).map_err(|e| trace_error(e.msg))?;
    let temp = out.temp_path().to_path_buf();
    let temp_opts = RtlOptions {
        vcd: opts.vcd.as_ref().map(|_| temp.clone()),
        fst: opts.fst.as_ref().map(|_| temp.clone()),
        ..opts.clone()
    };
    let result = simulate_model(build, program, &temp_opts, check);
    // fstapi's hierarchy file beside the trace: it removes it when it
    // closes, not when a write failed
    let mut hier = temp.into_os_string();
    hier.push(".hier");
    let _ = std::fs::remove_file(hier);
    match result {
        Err(RtlError::Sim(SimError::Trace(m))) => Err(trace_error(m)),
        other => {
            out.commit().map_err(|e| trace_error(e.msg))?;
            other
        }
    }
}

/// [`simulate_build`] with the waveform written where `opts` says.
fn simulate_model(build: UnitBuild, program: &Program, opts: &RtlOptions, check: bool) -> Result<Simulation, RtlError> {
    // an FST waveform: the same build verilated with --trace-fst
    match (build, opts.fst.is_some()) {
        (UnitBuild::Full, false) => run_program(new_unit()?, program, opts, check),
        (UnitBuild::Small, false) => run_program(VAtomicUnitL8W32Int::new()?, program, opts, check),
        (UnitBuild::Full, true) => run_program(VAtomicUnitFst::new()?, program, opts, check),
        (UnitBuild::Small, true) => run_program(VAtomicUnitL8W32IntFst::new()?, program, opts, check),
        (UnitBuild::Serial, false) => run_program(VSerialUnitL8W32Int::new()?, program, opts, check),
        (UnitBuild::Serial, true) => run_program(VSerialUnitL8W32IntFst::new()?, program, opts, check),
    }
}

/// [`crate::session::run_after_reset_in_flight`] on `build`'s model.
pub fn reset_in_flight_on(
    build: UnitBuild,
    before: &Program,
    cycles: u64,
    program: &Program,
    opts: &RtlOptions,
) -> Result<(usize, Simulation), RtlError> {
    use crate::session::run_after_reset_in_flight as run;
    match build {
        UnitBuild::Full => run(new_unit()?, before, cycles, program, opts),
        UnitBuild::Small => run(VAtomicUnitL8W32Int::new()?, before, cycles, program, opts),
        UnitBuild::Serial => run(VSerialUnitL8W32Int::new()?, before, cycles, program, opts),
    }
}

/// Every case of [`crate::directed::resets_in_flight`] on `build`'s model,
/// checked: at least one message inside the unit when the reset comes, and
/// the script after it agreeing with the golden model as from power-up
/// (`rsp_error` exactly for the messages the build rejects). Returns a line
/// per case, or the first case that fails.
pub fn check_resets_in_flight(build: UnitBuild) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for (k, case) in crate::directed::resets_in_flight().iter().enumerate() {
        let at = format!("{}: reset {k} at cycle {}", build.name(), case.cycles);
        let opts = RtlOptions { mem: case.mem, vcd: None, fst: None };
        let (in_flight, sim) = reset_in_flight_on(build, &case.before, case.cycles, &case.after, &opts).map_err(|e| format!("{at}: {e}"))?;
        if in_flight == 0 {
            return Err(format!("{at}: no message inside the unit"));
        }
        if let Some(m) = &sim.mismatch {
            return Err(format!("{at}: {m}"));
        }
        if sim.illegal.len() != sim.rejected.len() {
            return Err(format!("{at}: rsp_error for {} messages, the build rejects {}", sim.illegal.len(), sim.rejected.len()));
        }
        if sim.output.results != golden_for_build(build, &case.after).results {
            return Err(format!("{at}: the results differ from the golden model's"));
        }
        lines.push(format!("{at} with {in_flight} messages inside the unit, then {} messages", sim.messages));
    }
    Ok(lines)
}

/// [`crate::directed::run_illegal`] on `build`'s model.
pub fn run_illegal_on(build: UnitBuild, seed: u64, cases: &[(String, crate::pins::PinRequest)]) -> Result<(), crate::directed::IllegalRunError> {
    match build {
        UnitBuild::Full => crate::directed::run_illegal(new_unit()?, seed, cases),
        UnitBuild::Small => crate::directed::run_illegal(VAtomicUnitL8W32Int::new().map_err(RtlError::from)?, seed, cases),
        UnitBuild::Serial => crate::directed::run_illegal(VSerialUnitL8W32Int::new().map_err(RtlError::from)?, seed, cases),
    }
}

/// [`crate::directed::run_misaligned`] on `build`'s model.
pub fn run_misaligned_on(build: UnitBuild, seed: u64) -> Result<usize, crate::directed::IllegalRunError> {
    match build {
        UnitBuild::Full => crate::directed::run_misaligned(new_unit()?, seed),
        UnitBuild::Small => crate::directed::run_misaligned(VAtomicUnitL8W32Int::new().map_err(RtlError::from)?, seed),
        UnitBuild::Serial => crate::directed::run_misaligned(VSerialUnitL8W32Int::new().map_err(RtlError::from)?, seed),
    }
}

/// [`crate::timing::lane_rate`] on `build`'s model (a pipelined build).
pub fn lane_rate_on(build: UnitBuild) -> Result<usize, String> {
    let checked = match build {
        UnitBuild::Full => crate::timing::lane_rate(new_unit().map_err(|e| e.to_string())?),
        UnitBuild::Small => crate::timing::lane_rate(VAtomicUnitL8W32Int::new().map_err(|e| e.to_string())?),
        UnitBuild::Serial => return Err("the serial build reads one element every 8 cycles plus the latency".into()),
    };
    checked.map_err(|e| e.to_string())
}

/// What the directed suite of [`run_directed_suite`] ran.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DirectedSummary {
    pub scripts: usize,
    pub messages: usize,
    /// of them, rejected by the build (rsp_error, no access), as expected
    pub rejected: usize,
    pub illegal_requests: usize,
    /// messages issued with one lane misaligned on the pins
    pub misaligned: usize,
}

/// The directed part of the unit's RTL tests on `build`'s model, in
/// lockstep with the golden model: every directed script (with the memory
/// timing each names; a smaller build rejects what it does not admit), the
/// illegal descriptors, the misaligned lanes and the descriptor byte sweep
/// (every value of every byte the golden decoder refuses). `atomport regress --directed` runs it
/// before the random scripts (`make rtl-coverage`: the decoder's refusals
/// and the directed corners count for the code coverage). The error names
/// the first part that failed.
pub fn run_directed_suite(build: UnitBuild) -> Result<DirectedSummary, String> {
    let mut summary = DirectedSummary::default();
    for d in crate::directed::scripts() {
        let program = d.program();
        let sim = simulate_build(build, &program, &RtlOptions { mem: d.mem, vcd: None, fst: None }, true)
            .map_err(|e| format!("directed {} (memory seed {}): {e}", d.name, d.mem.seed))?;
        if let Some(m) = &sim.mismatch {
            return Err(format!("directed {} (memory seed {}): RTL and golden model differ: {m}", d.name, d.mem.seed));
        }
        if sim.illegal.len() != sim.rejected.len() {
            return Err(format!(
                "directed {} (memory seed {}): {} messages ended with rsp_error, {} expected (the ones the build rejects)",
                d.name,
                d.mem.seed,
                sim.illegal.len(),
                sim.rejected.len()
            ));
        }
        summary.scripts += 1;
        summary.messages += sim.messages;
        summary.rejected += sim.rejected.len();
    }
    let illegal: Vec<(String, PinRequest)> =
        crate::directed::illegal_requests().into_iter().map(|(n, r)| (n.to_string(), r)).collect();
    run_illegal_on(build, 19, &illegal).map_err(|e| format!("illegal descriptors: {e}"))?;
    summary.misaligned = run_misaligned_on(build, 29).map_err(|e| format!("misaligned lanes: {e}"))?;
    let sweep = crate::directed::descriptor_byte_sweep();
    run_illegal_on(build, 23, &sweep).map_err(|e| format!("descriptor byte sweep: {e}"))?;
    summary.illegal_requests = illegal.len() + sweep.len();
    Ok(summary)
}

/// The messages (index in the script, message) `build` does not admit, with
/// why (docs/microarchitecture.md "Build parameters").
pub fn rejected_by_build(build: UnitBuild, program: &Program) -> Vec<(usize, &atomport_core::message::Message, String)> {
    let config = build.config();
    program.messages().enumerate().filter_map(|(i, m)| m.admitted_by(&config).err().map(|e| (i, m, e.to_string()))).collect()
}

/// How many bytes of the golden model's final memory (flat and SLM) are not
/// zero after the messages `build` admits: what the final-memory comparison
/// of the scoreboard covers besides zeros.
pub fn golden_final_memory_bytes(build: UnitBuild, program: &Program) -> usize {
    let config = build.config();
    let mut machine = atomport_core::golden::Machine::new(program);
    let mut index = 0;
    for stmt in &program.stmts {
        match stmt {
            atomport_core::program::Stmt::Init { .. } => machine.apply_init(stmt),
            atomport_core::program::Stmt::Message(m) => {
                if m.admitted_by(&config).is_ok() {
                    machine.exec(index, m);
                }
                index += 1;
            }
            atomport_core::program::Stmt::Dump { .. } => {}
        }
    }
    [atomport_core::program::Space::Flat, atomport_core::program::Space::Slm]
        .iter()
        .map(|&s| machine.memory(s).nonzero_bytes().len())
        .sum()
}

/// What the golden model says a `build` of the unit reports for `program`:
/// the golden run of the messages the build admits (the others it rejects:
/// no access, no result), with each transaction's message index that of
/// the whole script, as the RTL run numbers them.
pub fn golden_for_build(build: UnitBuild, program: &Program) -> RunOutput {
    let config = build.config();
    let mut admitted = program.clone();
    admitted.stmts.retain(|s| !matches!(s, atomport_core::program::Stmt::Message(m) if m.admitted_by(&config).is_err()));
    let mut out = atomport_core::golden::run(&admitted);
    let original: Vec<usize> =
        program.messages().enumerate().filter(|(_, m)| m.admitted_by(&config).is_ok()).map(|(i, _)| i).collect();
    for t in &mut out.txns {
        t.msg = original[t.msg];
    }
    out
}

/// Runs a script on the RTL alone and returns what it reports, in the
/// golden model's shape. A message the unit flags illegal is an error
/// ([`RtlError::Illegal`]): every message of a parsed script is legal.
pub fn run_rtl(program: &Program, opts: &RtlOptions) -> Result<RunOutput, RtlError> {
    let sim = simulate(program, opts, false)?;
    if !sim.illegal.is_empty() {
        return Err(RtlError::Illegal(sim.illegal));
    }
    Ok(sim.output)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench drives every input of the port table (`atomport_isa::ports`):
    /// with every field of a request, a payload and the memory's answer at
    /// all ones, each input reads back nonzero from the model.
    #[test]
    fn the_bench_drives_every_input_of_the_port_table() {
        use atomport_isa::ports::{Channel, PortDir, UNIT_PORTS};
        let ones = PinRequest {
            desc: u128::MAX,
            dmask: u32::MAX,
            pred_mask: u32::MAX,
            addr: [u32::MAX; 2 * crate::pins::MAX_LANES],
            src0: [u32::MAX; 4 * crate::pins::MAX_LANES],
            src1: [u32::MAX; 4 * crate::pins::MAX_LANES],
            coord: [u32::MAX; 4 * crate::pins::COORD_LANES],
            surf_kind: u8::MAX,
            surf_base: u64::MAX,
            surf_size: u64::MAX,
            surf_width: u32::MAX,
            surf_height: u32::MAX,
            surf_depth: u32::MAX,
            surf_array: u32::MAX,
            surf_levels: u32::MAX,
            surf_u16: true,
            slm_size: u32::MAX,
        };
        let mut unit = VAtomicUnitL8W32Int::new().unwrap();
        UnitPins::set_reset(&mut unit, true);
        unit.set_request(&ones);
        unit.set_payload(&ones.lane_payload(0));
        UnitPins::set_req_valid(&mut unit, true);
        unit.set_mem(true, true, true, u128::MAX);
        unit.edge().unwrap();
        let mut undriven = vec![];
        for p in UNIT_PORTS.iter().filter(|p| p.dir == PortDir::Input) {
            // `settle` drives the clock low, `edge` high: it reads 1 here
            if unit.get_port(p.name) == Some(0) || unit.get_port(p.name).is_none() {
                undriven.push(p.name);
            }
            assert!(p.channel != Channel::Clock || unit.get_port(p.name) == Some(1));
        }
        assert!(undriven.is_empty(), "inputs of the port table the bench does not drive (testbench/src/dut.rs): {undriven:?}");
    }

    /// Every simulated build is found by the name it prints (the regress
    /// "reproduce" line's `--unit`), and by its short name.
    #[test]
    fn unit_builds_are_found_by_the_names_they_print() {
        for build in UnitBuild::ALL {
            assert_eq!(UnitBuild::by_name(&build.name()), Ok(build), "{}", build.name());
        }
        let names: Vec<String> = UnitBuild::ALL.iter().map(|b| b.name()).collect();
        assert_eq!(names, ["l32_w128", "l8_w32_int", "serial_l8_w32_int"]);
        assert_eq!(UnitBuild::by_name("small"), Ok(UnitBuild::Small));
        assert_eq!(UnitBuild::by_name("serial"), Ok(UnitBuild::Serial));
        for unbuilt in ["serial_l32_w128", "serial_l4_w32_int", "l4"] {
            assert!(matches!(UnitBuild::by_name(unbuilt), Err(UnitBuildError::NoModel { .. })), "{unbuilt}");
        }
        assert!(matches!(UnitBuild::by_name("serial_x"), Err(UnitBuildError::Name(_))));
    }
}
