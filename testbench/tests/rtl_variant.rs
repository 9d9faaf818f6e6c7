//! The checked-in small builds (8 lanes, 32-bit data, integer ops:
//! `emit::SMALL_UNIT`), pipelined (`atomic_unit_l8_w32_int`,
//! `AtomicUnit::new`) and serial (`serial_unit_l8_w32_int`,
//! `SerialUnit::new`), each under Verilator in lockstep with the golden
//! model: every message it admits runs exactly
//! as on the full unit; every message it does not admit (more than 8 lanes,
//! 64- or 128-bit elements, 8-byte scatter blocks, float ops) ends with
//! `rsp_error`, no memory access and no result. The build parameters are
//! thereby checked in the RTL, not only in synthesis.

use atomport_core::golden;
use atomport_core::ops::UnitConfig;
use atomport_core::program::Program;
use atomport_testbench::dut::{golden_for_build, simulate_build, UnitBuild, SMALL_UNIT};
use atomport_testbench::memory::MemConfig;
use atomport_testbench::{directed, regress, RtlOptions, Simulation};

fn parse(name: &str, text: &str) -> Program {
    atomport_core::script::parse(name, text).unwrap_or_else(|d| panic!("{name}: test script does not parse: {d}\n{text}"))
}

/// Runs `text` on a small build with the scoreboard and random memory,
/// checks the report against the golden model's run of the admitted
/// messages, and that exactly `want_rejected` messages were rejected.
fn run_small(build: UnitBuild, name: &str, want_rejected: usize) -> Simulation {
    let d = directed::script(name);
    let program = d.program();
    let opts = RtlOptions { mem: d.mem, vcd: None, fst: None };
    let sim = simulate_build(build, &program, &opts, true).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Some(m) = &sim.mismatch {
        panic!("{name}: RTL and golden model differ: {m}");
    }
    assert_eq!(sim.rejected.len(), want_rejected, "{name}: messages the build must reject");
    assert_eq!(sim.illegal.len(), want_rejected, "{name}: rsp_error exactly for the rejected: {:?}", sim.illegal);
    let golden = golden_for_build(build, &program);
    if want_rejected == 0 {
        assert_eq!(golden, golden::run(&program), "{name}: every message admitted");
    }
    assert_eq!(sim.output.results, golden.results, "{name}: results");
    assert_eq!(sim.output.dumps, golden.dumps, "{name}: dumps");
    assert_eq!(sim.output.txns, golden.txns, "{name}: transactions");
    sim
}

/// One test per small build: `$name` runs `$body(build)` on each.
macro_rules! on_both_small_builds {
    ($pipelined:ident, $serial:ident, $body:ident) => {
        #[test]
        fn $pipelined() {
            $body(UnitBuild::Small);
        }
        #[test]
        fn $serial() {
            $body(UnitBuild::Serial);
        }
    };
}

on_both_small_builds!(every_admitted_message_runs_as_on_the_full_unit, every_admitted_message_runs_as_on_the_full_unit_serial, admitted);
on_both_small_builds!(messages_beyond_the_build_are_rejected_and_touch_nothing, messages_beyond_the_build_are_rejected_and_touch_nothing_serial, rejected);
on_both_small_builds!(seeded_random_regression, seeded_random_regression_serial, random_regression);
on_both_small_builds!(every_directed_script_agrees, every_directed_script_agrees_serial, every_directed_script);
on_both_small_builds!(
    a_reset_with_messages_in_flight_leaves_nothing_behind,
    a_reset_with_messages_in_flight_leaves_nothing_behind_serial,
    reset_in_flight
);

/// A reset with messages in flight: the next script runs as from power-up.
fn reset_in_flight(build: UnitBuild) {
    for line in atomport_testbench::dut::check_resets_in_flight(build).unwrap_or_else(|e| panic!("{e}")) {
        eprintln!("{line}");
    }
}

/// Every directed script (the full unit's too: the build rejects what it
/// does not admit, and the scoreboard checks that) in lockstep.
fn every_directed_script(build: UnitBuild) {
    for d in directed::scripts() {
        let sim = simulate_build(build, &d.program(), &RtlOptions { mem: d.mem, vcd: None, fst: None }, true)
            .unwrap_or_else(|e| panic!("{}: {e}", d.name));
        if let Some(m) = &sim.mismatch {
            panic!("{} on the {} build: {m}", d.name, build.name());
        }
        assert_eq!(sim.illegal.len(), sim.rejected.len(), "{}: rsp_error exactly for the rejected", d.name);
        eprintln!("{} on the {} build: {} messages ({} rejected), {} cycles", d.name, build.name(), sim.messages, sim.rejected.len(), sim.cycles);
    }
}

fn admitted(build: UnitBuild) {
    let sim = run_small(build, "small_admitted.atom", 0);
    assert_eq!(sim.messages, 14 * (2 * 4 + 1) + 2 * 12 + 3);
}

fn rejected(build: UnitBuild) {
    let cases = directed::small_build_rejects();
    for (line, want) in &cases {
        let program = parse("case.atom", &format!("surface 1 buffer base=0x8000 size=64\n{line}\n"));
        let msg = program.messages().next().expect("one message");
        assert_eq!(msg.admitted_by(&SMALL_UNIT), Err(*want), "{line}");
        assert_eq!(msg.admitted_by(&UnitConfig::FULL), Ok(()), "{line}");
    }
    let sim = run_small(build, "small_rejected.atom", cases.len());
    assert_eq!(sim.messages, 3 * cases.len());
    // the admitted adds saw each other's results back to back: nothing in between wrote
    let results = &sim.output.results;
    assert!(results.iter().all(|r| !r.name.starts_with('d')), "a rejected message returned a result: {results:?}");
}

fn random_regression(build: UnitBuild) {
    let seed = 23;
    eprintln!("seed {seed}");
    let cfg = regress::RegressConfig {
        seed,
        count: 1500,
        per_script: 100,
        mem: MemConfig { latency_min: 1, latency_max: 5, stall: 0.2, seed: 0 },
        out_dir: std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("regress-{}", build.name())),
        unit: build,
        ..regress::RegressConfig::default()
    };
    let report = regress::run(&cfg, &mut |_, _| {}).unwrap();
    if let Some(f) = report.failure() {
        panic!("regress: {}\n  script: {}\n  reproduce: {}", f.what, f.file.display(), f.reproduce);
    }
    assert_eq!(report.messages, 1500);
    // the generator writes every kind, width and exec size: both outcomes occur
    assert!(report.rejected > 100 && report.rejected < 1400, "rejected {} of 1500", report.rejected);
    eprintln!("seed {seed}: 1500 messages, {} rejected by the {} build, {} cycles", report.rejected, build.name(), report.cycles);
}
