//! Directed tests of the RTL unit (`atomic_unit` under Verilator) through
//! the whole bench: every script runs with random memory latency and
//! backpressure, checked in lockstep by the scoreboard (every read, write,
//! result and done against the golden model, then the final memory), and
//! its RTL report must equal the golden model's.
//!
//! `cargo test --test rtl_unit`

use atomport_core::descriptor::Encoder;
use atomport_core::golden::{self, Machine};
use atomport_core::program::Program;
use atomport_testbench::dut::{lane_rate_on, new_unit, run_illegal_on, run_misaligned_on, simulate, UnitBuild};
use atomport_testbench::memory::MemConfig;
use atomport_testbench::scoreboard::Scoreboard;
use atomport_testbench::{directed, regress, RtlError, RtlOptions, Session, Simulation};

fn parse(name: &str, text: &str) -> Program {
    atomport_core::script::parse(name, text).unwrap_or_else(|d| panic!("{name}: test script does not parse: {d}\n{text}"))
}

/// Runs every directed script named `name` (directed.rs) on the RTL with
/// the scoreboard and its memory, and checks that nothing differs and the
/// RTL's report is the golden one.
fn run_checked(name: &str) -> Simulation {
    let mut last = None;
    for d in directed::scripts().into_iter().filter(|d| d.name == name) {
        let program = d.program();
        let opts = RtlOptions { mem: d.mem, vcd: None, fst: None };
        let sim = simulate(&program, &opts, true).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(m) = &sim.mismatch {
            panic!("{name} (memory seed {}): RTL and golden model differ: {m}", d.mem.seed);
        }
        assert!(sim.illegal.is_empty(), "{name}: {:?}", sim.illegal);
        let golden = golden::run(&program);
        assert_eq!(sim.output.results, golden.results, "{name}: results");
        assert_eq!(sim.output.dumps, golden.dumps, "{name}: dumps");
        assert_eq!(sim.output.txns, golden.txns, "{name}: transactions");
        assert_eq!(sim.messages, program.messages().count());
        eprintln!("{name}: {} messages, {} transactions, {} cycles", sim.messages, sim.output.txns.len(), sim.cycles);
        last = Some(sim);
    }
    last.unwrap_or_else(|| panic!("no directed script {name}"))
}

#[test]
fn every_integer_op_of_every_visa_kind_and_width() {
    let sim = run_checked("visa_ops.atom");
    assert_eq!(sim.messages, 14 * (3 + 2 * 4));
}

#[test]
fn every_integer_ptx_op_and_type_warp_and_single_thread() {
    let sim = run_checked("ptx_ops.atom");
    assert_eq!(sim.messages, 3 * 27);
}

#[test]
fn every_exec_size_and_mask_control_with_dmask_offsets() {
    let sim = run_checked("exec_masks.atom");
    assert_eq!(sim.messages, 5 * 16 * (2 * 4 + 2 * 6 + 2));
}

#[test]
fn predicates_and_their_complements() {
    run_checked("predicates.atom");
}

/// Under random memory (two seeds) and a one-cycle memory (the forwarding
/// path at full speed).
#[test]
fn same_address_lanes_chain_through_memory() {
    run_checked("same_address.atom");
}

/// Every value of every descriptor byte the golden decoder takes with the
/// base messages' payloads, as messages.
#[test]
fn every_legal_descriptor_byte_value_runs_as_on_the_golden_model() {
    let sim = run_checked("descriptor_values.atom");
    assert!(sim.messages > 100, "{} messages", sim.messages);
}

/// Lines one address bit apart in flight together (every bit of a 64-bit
/// line address, and of SLM's), one offset in both spaces.
#[test]
fn lines_one_address_bit_apart_never_share_a_value() {
    let sim = run_checked("near_miss_lines.atom");
    assert_eq!(sim.messages, 60 + 12 + 3);
}

/// Every word and half of a line read-modify-written 0 to 5 messages after
/// a swap, the other bytes of the line written between (one-cycle memory, a
/// fixed four-cycle one, random).
#[test]
fn every_word_and_half_of_a_line_forwarded_at_every_distance() {
    let sim = run_checked("line_forwarding.atom");
    assert_eq!(sim.messages, 12 * (6 * 2 + 15) + 6 * 4);
}

#[test]
fn out_of_bounds_lanes_read_zero_and_drop_writes() {
    let sim = run_checked("oob.atom");
    // the out-of-bounds lanes returned zero and made no transaction
    let s = &sim.output.results[0];
    assert_eq!(s.lanes, vec![Some(0x22), Some(0), Some(0x11), Some(0)]);
    let buffer_writes = sim.output.txns.iter().filter(|t| t.msg == 5 && t.kind == atomport_core::outcome::TxnKind::Write).count();
    assert_eq!(buffer_writes, 2, "lanes 0 and 2 of the 20-byte buffer's xchg are in bounds");
}

/// Typed surfaces whose element index needs more than 32 bits (scripts.md
/// "Typed surface layout"): the lane's `r * H + v` reaches past 2^48 on
/// surface 20 and `W` past 2^16 on surface 21, so every 16-bit digit of
/// the address stage's `first * W` (`AddrMul`'s seven digit products,
/// summed in the line stage) carries bits, at lod 0 and through walk steps.
#[test]
fn typed_addresses_past_32_bits_use_every_partial_product() {
    let sim = run_checked("typed64.atom");
    let writes = sim.output.txns.iter().filter(|t| t.kind == atomport_core::outcome::TxnKind::Write).count();
    assert_eq!(writes, 24, "every lane is in bounds and writes");
}

#[test]
fn every_scatter_layout_and_exec_size() {
    let sim = run_checked("scatter.atom");
    assert_eq!(sim.messages, 3 * 3 * 5 + 2);
}

#[test]
fn illegal_descriptors_end_in_error_and_touch_nothing() {
    // each illegal request between legal ones: the unit recovers and
    // memory sees only the legal messages
    directed::run_illegal_requests(new_unit().unwrap(), 19).unwrap_or_else(|e| panic!("illegal descriptors: {e}"));
    assert!(directed::illegal_requests().len() >= 33);
}

#[test]
fn lanes_on_one_address_at_any_distance_read_one_per_cycle() {
    // forwarded, never stalled: both pipelined builds, one-cycle memory
    for build in [UnitBuild::Full, UnitBuild::Small] {
        let checked = lane_rate_on(build).unwrap_or_else(|e| panic!("{build:?}: {e}"));
        assert_eq!(checked, 2 * atomport_testbench::timing::DISTANCES.len());
    }
}

#[test]
fn a_misaligned_lane_of_every_addressed_kind_is_skipped_and_ends_the_message_in_error() {
    // on every build, in lockstep with the golden model run without the
    // lane: no access and result 0 for it (none for a scatter lane), the
    // other lanes execute, rsp_error, and the next message is clean
    for build in [UnitBuild::Full, UnitBuild::Small, UnitBuild::Serial] {
        let issued = run_misaligned_on(build, 29).unwrap_or_else(|e| panic!("{build:?}: misaligned lanes: {e}"));
        assert_eq!(issued, directed::misaligned_requests());
        assert!(issued >= 30, "{issued}");
    }
}

#[test]
fn every_descriptor_bit_flip_the_golden_decoder_refuses_ends_in_error() {
    // on every build: the RTL decoder refuses what the codec refuses, bit
    // for bit, and the unit recovers after each
    let cases = directed::descriptor_flips();
    assert!(cases.len() > 300, "{} flips", cases.len());
    for build in [UnitBuild::Full, UnitBuild::Small, UnitBuild::Serial] {
        run_illegal_on(build, 23, &cases).unwrap_or_else(|e| panic!("{build:?}: descriptor flips: {e}"));
    }
}

#[test]
fn every_descriptor_byte_value_the_golden_decoder_refuses_ends_in_error() {
    // on every build: each field's every code beside legal fields, one byte
    // at a time (the mutation kill suite's sweep)
    let cases = directed::descriptor_byte_sweep();
    assert!(cases.len() > 10_000, "{} byte values", cases.len());
    let pairs = cases.iter().filter(|(name, _)| name.contains("bytes 1 = ")).count();
    assert!(pairs > 1_000, "{pairs} PTX Op x Type / Space pairs");
    eprintln!("{} requests, {pairs} of them PTX Op x Type / Space pairs", cases.len());
    for build in [UnitBuild::Full, UnitBuild::Small, UnitBuild::Serial] {
        run_illegal_on(build, 23, &cases).unwrap_or_else(|e| panic!("{build:?}: descriptor byte sweep: {e}"));
    }
}

#[test]
fn back_to_back_mixed_messages_at_full_speed_and_under_stalls() {
    let g = atomport_testbench::generator::random_script(0xb2b, &atomport_testbench::generator::GenConfig::integer_only(150)).unwrap();
    let fast = simulate(&g.program, &RtlOptions::default(), true).unwrap();
    assert!(fast.mismatch.is_none(), "{}", fast.mismatch.unwrap());
    let slow = simulate(&g.program, &RtlOptions { mem: directed::random_mem(20), vcd: None, fst: None }, true).unwrap();
    assert!(slow.mismatch.is_none(), "{}", slow.mismatch.unwrap());
    assert_eq!(fast.output, slow.output, "the answer does not depend on memory timing");
    assert!(slow.cycles > fast.cycles);
}

#[test]
fn small_random_regression() {
    let cfg = regress::RegressConfig {
        seed: 4,
        count: 300,
        per_script: 100,
        mem: MemConfig { latency_min: 1, latency_max: 4, stall: 0.2, seed: 0 },
        out_dir: std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("regress"),
        unit: atomport_testbench::dut::UnitBuild::Full,
        ..regress::RegressConfig::default()
    };
    let report = regress::run(&cfg, &mut |_, _| {}).unwrap();
    if let Some(f) = report.failure() {
        panic!("regress: {}\n  script: {}\n  reproduce: {}", f.what, f.file.display(), f.reproduce);
    }
    assert_eq!(report.messages, 300);
}

#[test]
fn the_watchdog_names_a_stuck_message_instead_of_hanging() {
    let program = parse("stuck.atom", "mem.u32 0x100 = 1\nSVM_ATOMIC.add (2) [0x100 0x104] d [1 1] V0\n");
    // a memory that never accepts anything
    let opts = RtlOptions { mem: MemConfig { latency_min: 1, latency_max: 1, stall: 1.0, seed: 1 }, vcd: None, fst: None };
    match simulate(&program, &opts, true) {
        Err(RtlError::Watchdog(report)) => {
            assert!(report.contains("message 0 (line 2)"), "{report}");
            assert!(report.contains("waiting for lane 0"), "{report}");
            assert!(report.contains("SVM_ATOMIC.ADD"), "{report}");
        }
        other => panic!("expected the watchdog, got {other:?}"),
    }
}

#[test]
fn the_scoreboard_catches_memory_changed_behind_the_units_back() {
    let program = parse("tamper.atom", "SVM_ATOMIC.add (1) [0x100] d [1] V0\n");
    let mut session = Session::new(new_unit().unwrap(), &RtlOptions::default(), Some(Scoreboard::new(Machine::new(&program)))).unwrap();
    session.issue(&program, &mut Encoder::new(), program.messages().next().unwrap()).unwrap();
    // the golden model believes 0x100 holds 0
    session.memory_mut().backdoor_write(atomport_core::program::Space::Flat, 0x100, &[5, 0, 0, 0]);
    session.finish().unwrap();
    let m = session.mismatch().expect("the scoreboard must see the old value 5");
    assert!(m.what.contains("expected 0x00000001, the RTL wrote") || m.what.contains("obs_old") || m.what.contains("write 0"), "{m}");
    assert_eq!(m.lane, Some(0));
}

#[test]
fn a_vcd_waveform_is_written() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("rtl_unit_wave.vcd");
    let _ = std::fs::remove_file(&path);
    let program = parse("wave.atom", "DWORD_ATOMIC.add (4) T0 [0 4 0 4] [1 2 3 4] V0 d\n");
    let sim = simulate(&program, &RtlOptions { mem: MemConfig::FAST, vcd: Some(path.clone()), fst: None }, true).unwrap();
    assert!(sim.mismatch.is_none());
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(vcd.contains("$enddefinitions"));
    for signal in ["req_valid", "mem_rd_valid", "mem_wr_data", "rsp_done"] {
        assert!(vcd.contains(signal), "{signal} missing from the VCD");
    }
}


#[test]
fn bench_measurements_are_checked_and_the_two_speed_loops_agree() {
    use atomport_testbench::bench;
    let rows = bench::throughput().unwrap();
    assert!(rows.len() > 30);
    for r in &rows {
        // a message of E elements needs at least E cycles on one port
        assert!(r.cycles_per_message >= r.target - 1e-9, "{r:?}");
        assert!(r.first_latency >= 1);
    }
    let images = bench::speed_stream().unwrap();
    let cap = bench::speed_cycle_cap(&images, 2);
    let rust = bench::rust_speed_loop(&images, 2, cap).unwrap();
    let (checksum, cycles, messages) = atomport_sim::cpp_bench_atomic_unit(&images, bench::IMAGE_WORDS, 2, cap);
    assert_eq!((rust.checksum, rust.cycles, rust.messages), (checksum, cycles, messages));
    assert_eq!(messages, 128);
    let (checked_cycles, checked_messages, _) = bench::checked_speed(2).unwrap();
    assert_eq!((checked_cycles > 0, checked_messages), (true, 128));
}

#[test]
fn a_failing_regression_writes_a_script_that_reproduces_the_failure() {
    let out_dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("regress-fail");
    let _ = std::fs::remove_dir_all(&out_dir);
    // a memory that never accepts: the first script with a memory access fails
    let mem = MemConfig { latency_min: 1, latency_max: 1, stall: 1.0, seed: 0 };
    let cfg = regress::RegressConfig { seed: 77, count: 40, per_script: 20, mem, out_dir: out_dir.clone(), ..regress::RegressConfig::default() };
    let report = regress::run(&cfg, &mut |_, _| {}).unwrap();
    let f = report.failure().expect("a memory that never answers must fail the regression").clone();
    assert!(f.what.contains("watchdog"), "{}", f.what);
    assert_eq!(f.file, out_dir.join(format!("fail-77-{}.atom", f.script)));
    assert!(f.run_command.contains("--engine both") && f.run_command.contains(&format!("--seed {}", f.mem_seed)), "{}", f.run_command);
    assert_eq!(f.reproduce, format!("atomport regress --seed 77 --count 40 --per-script 20 --latency 1 --stall 1 --script {}", f.script));
    let text = std::fs::read_to_string(&f.file).unwrap();
    assert!(text.contains("# reproduce: atomport run"));
    // a traced re-run sits beside it and shows the stuck read (its GTKWave
    // view is written by the CLI: tests/waves.rs)
    let vcd = f.vcd.as_ref().expect("a waveform of the failing script");
    assert_eq!(*vcd, out_dir.join(format!("fail-77-{}.vcd", f.script)));
    let wave = std::fs::read_to_string(vcd).unwrap();
    assert!(wave.contains("$enddefinitions") && wave.contains("mem_rd_valid"), "not a VCD of the unit");
    // the file is a valid script and fails the same way again
    let program = atomport_core::script::parse_file(f.file.to_str().unwrap()).unwrap();
    let again = simulate(&program, &RtlOptions { mem: MemConfig { seed: f.mem_seed, ..mem }, vcd: None, fst: None }, true);
    assert!(matches!(again, Err(RtlError::Watchdog(_))), "{again:?}");
}

/// The outcome of a regression does not depend on the number of threads,
/// and its shards' reports merged are the unsharded run.
#[test]
fn jobs_and_merged_shards_give_the_outcome_of_one_thread() {
    use atomport_testbench::results::{merge, RunRecord};
    let cfg = regress::RegressConfig {
        seed: 13,
        count: 1150,
        per_script: 100,
        out_dir: std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("regress-jobs"),
        ..regress::RegressConfig::default()
    };
    let record = |cfg: &regress::RegressConfig| {
        let report = regress::run(cfg, &mut |_, _| {}).unwrap();
        assert!(report.failures.is_empty(), "{:?}", report.failure());
        RunRecord::new(cfg, &report, 0.0)
    };
    let one = record(&cfg);
    assert_eq!((one.scripts.len(), one.messages()), (12, 1150));
    let three = record(&regress::RegressConfig { jobs: 3, ..cfg.clone() });
    assert_eq!(three.differs_from(&one), None);
    let shards: Vec<(String, RunRecord)> = (1..=4)
        .map(|k| {
            let shard = format!("{k}/4").parse().unwrap();
            (format!("shard {k}"), record(&regress::RegressConfig { jobs: 2, shard: Some(shard), ..cfg.clone() }))
        })
        .collect();
    assert!(shards.iter().all(|(_, r)| r.scripts.len() == 3), "12 scripts over 4 shards");
    let merged = merge(&shards).unwrap();
    assert!(merged.missing().is_empty());
    assert_eq!(merged.differs_from(&one), None);
    assert_eq!(merged.to_json()["totals"], one.to_json()["totals"]);
}

/// Every failing script of a run without a failure limit is the same for
/// 1 and 3 threads, its JUnit test case fails with the reproduce command,
/// and that command's `--script k` run fails the same way.
#[test]
fn failures_are_the_same_for_every_jobs_and_reproduce_by_script_number() {
    use atomport_testbench::results::{junit_of_run, RunRecord};
    let out_dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("regress-fail-jobs");
    // a memory that never accepts: every script with a memory access fails
    let mem = MemConfig { latency_min: 1, latency_max: 1, stall: 1.0, seed: 0 };
    let cfg = regress::RegressConfig { seed: 5, count: 40, per_script: 10, mem, out_dir, max_failures: 0, traced_failures: 0, ..regress::RegressConfig::default() };
    let one = regress::run(&cfg, &mut |_, _| {}).unwrap();
    let three = regress::run(&regress::RegressConfig { jobs: 3, ..cfg.clone() }, &mut |_, _| {}).unwrap();
    assert!(one.failures.len() >= 2, "{} failures", one.failures.len());
    let key = |r: &regress::RegressReport| r.failures.iter().map(|f| (f.script, f.what.clone(), f.file.clone())).collect::<Vec<_>>();
    assert_eq!(key(&one), key(&three));
    let record = RunRecord::new(&cfg, &one, 0.0);
    let xml = junit_of_run(&record);
    // kept for validation against the JUnit schema (xmllint, docs/testbench.md)
    std::fs::write(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("failing-regress-junit.xml"), &xml).unwrap();
    match atomport_testbench::results::xmllint_junit(&xml) {
        Ok(false) => eprintln!("NOTICE: xmllint not installed (Debian libxml2-utils): JUnit schema validation skipped"),
        r => assert!(matches!(r, Ok(true)), "{r:?}: {xml}"),
    }
    let f = &one.failures[0];
    let case = xml.split("<testcase").find(|c| c.contains(&format!("name=\"script {} ", f.script))).unwrap();
    assert!(case.contains("<failure") && case.contains(&format!("reproduce: {}", f.reproduce)), "{case}");
    assert!(f.reproduce.ends_with(&format!("--script {}", f.script)));
    // the reproduce command: the same script alone
    let again = regress::run(&regress::RegressConfig { script: Some(f.script), ..cfg.clone() }, &mut |_, _| {}).unwrap();
    assert_eq!(again.outcomes.len(), 1);
    assert_eq!(again.failure().map(|g| (g.script, g.what.clone())), Some((f.script, f.what.clone())));
    // with a limit of 1 the run ends at the first failure, for every jobs
    let first = regress::run(&regress::RegressConfig { jobs: 3, max_failures: 1, ..cfg.clone() }, &mut |_, _| {}).unwrap();
    assert_eq!(key(&first), key(&one)[..1]);
    assert!(first.stopped_early && first.outcomes.last().unwrap().index == f.script);
}

/// `--kinds` / `--ops` narrow what the generator writes.
#[test]
fn kind_and_op_globs_narrow_the_run() {
    use atomport_testbench::generator::{message_op_name, random_script, GenConfig, MessageFilter};
    let filter = MessageFilter { kinds: vec!["*atomic".into()], ops: vec!["cmp*".into()] };
    let g = random_script(3, &GenConfig { filter: filter.clone(), ..GenConfig::every_family(60) }).unwrap();
    for m in g.program.messages() {
        assert!(m.kind().name().ends_with("_ATOMIC") && message_op_name(m).to_lowercase().starts_with("cmp"), "{:?}", m.kind());
    }
    let none = MessageFilter { kinds: vec!["SVM_SCATTER".into()], ops: vec!["add".into()] };
    let e = random_script(3, &GenConfig { filter: none, ..GenConfig::every_family(5) }).unwrap_err();
    assert!(e.to_string().contains("no message matches"), "{e}");
}

/// Coverage is what the RTL did: a lane the unit left alone (out of bounds)
/// is out of bounds, a message without lanes exercises no form, and on the
/// small build a float message is a rejection, not a float form.
#[test]
fn functional_coverage_is_sampled_from_what_the_rtl_did() {
    use atomport_testbench::dut::{simulate_build, UnitBuild};
    use atomport_testbench::funcov::{CoverSpace, FunctionalCoverage};
    let text = "slm size 64\n\
                DWORD_ATOMIC.add (2) T0 [0 0x40] [1 1] V0 d1\n\
                dmask 0\n\
                SVM_ATOMIC.xor (4) [0x100 0x104 0x108 0x10c] d2 [1 1 1 1] V0\n\
                dmask 0xffffffff\n\
                SVM_ATOMIC.fmax (2) [0x200 0x200] d3 [0x7fc00000 0] V0\n";
    let program = parse("cov.atom", text);
    let opts = RtlOptions { mem: MemConfig::FAST, vcd: None, fst: None };
    let mut full = FunctionalCoverage::default();
    let sim = simulate_build(UnitBuild::Full, &program, &opts, true).unwrap();
    assert!(sim.mismatch.is_none());
    full.sample(&program, &sim, &UnitBuild::Full.config());
    assert_eq!(full.count("out_of_bounds", "DWORD_ATOMIC T0 some lanes"), 1, "{:?}", full.hits);
    assert_eq!(full.count("form", "DWORD_ATOMIC.add.32 T0"), 1);
    assert_eq!(full.count("lanes", "SVM_ATOMIC no lane on"), 1);
    assert_eq!(full.count("form", "SVM_ATOMIC.xor.32"), 0, "no lane ran: no form");
    assert_eq!(full.count("form", "SVM_ATOMIC.fmax.32"), 1);
    assert_eq!(full.count("same_address", "SVM_ATOMIC all lanes"), 1);
    assert_eq!(full.count("fp_special", "f32 nan src"), 1);
    assert_eq!(full.count("fp_special", "f32 zero src"), 1);
    assert_eq!(full.count("fp_special", "f32 zero old"), 1, "memory at 0x200 starts at 0");
    assert!(full.strays(&CoverSpace::new(&UnitBuild::Full.config(), &UnitBuild::Full.name(), &MemConfig::FAST)).is_empty());
    let mut small = FunctionalCoverage::default();
    let sim = simulate_build(UnitBuild::Small, &program, &opts, true).unwrap();
    assert!(sim.mismatch.is_none());
    small.sample(&program, &sim, &UnitBuild::Small.config());
    assert_eq!(small.count("form", "SVM_ATOMIC.fmax.32"), 0, "the small build refused it");
    assert_eq!(small.count("rejected", "float op"), 1);
    assert_eq!(small.count("fp_special", "f32 nan src"), 0);
}

/// `--until-covered` runs scripts past the count until no reachable bin is
/// a hole, or stops at its budget with the holes left.
#[test]
fn until_covered_closes_every_reachable_bin_or_stops_at_its_budget() {
    let cfg = regress::RegressConfig {
        seed: 2,
        count: 400,
        per_script: 200,
        jobs: 2,
        until_covered: true,
        out_dir: std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("regress-cover"),
        ..regress::RegressConfig::default()
    };
    // the budget bounds the messages run after the count, whole scripts or
    // the last one cut to what is left
    for (budget, scripts) in [(100, 1), (200, 1), (500, 3)] {
        let short = regress::run(&regress::RegressConfig { budget, ..cfg.clone() }, &mut |_, _| {}).unwrap();
        assert_eq!((short.extra_scripts, short.extra_messages), (scripts, budget), "budget {budget}");
        assert_eq!(short.outcomes.iter().map(|o| o.messages).sum::<usize>(), 400 + budget, "budget {budget}");
        assert!(!short.coverage.holes(&short.space).is_empty());
    }
    let report = regress::run(&cfg, &mut |_, _| {}).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failure());
    assert_eq!(report.coverage.holes(&report.space), Vec::<(&str, &str)>::new());
    assert!(report.extra_scripts > 0 && report.extra_scripts % regress::UNTIL_COVERED_BATCH == 0);
    assert!(report.extra_messages <= cfg.budget);
    assert!(report.coverage.strays(&report.space).is_empty(), "{:?}", report.coverage.strays(&report.space));
    eprintln!("until-covered: {} scripts after the first 2; {}", report.extra_scripts, report.coverage.summary(&report.space));
}

/// The memory bins a memory configuration can reach are reached, and the
/// ones it marks unreachable never are: reads in flight are counted at the
/// end of a cycle, so latency L allows at most L in flight (latency 1:
/// exactly one, 1..2: never 3).
#[test]
fn memory_bins_match_what_each_latency_and_stall_can_reach() {
    use atomport_testbench::memory::MemConfig;
    for (latency_min, latency_max, stall) in [(1, 1, 0.0), (2, 2, 0.0), (1, 2, 0.3), (1, 4, 0.2)] {
        let mem = MemConfig { latency_min, latency_max, stall, seed: 7 };
        let cfg = regress::RegressConfig {
            seed: 7,
            count: 600,
            per_script: 200,
            mem,
            jobs: 2,
            out_dir: std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("regress-memory-bins"),
            ..regress::RegressConfig::default()
        };
        let r = regress::run(&cfg, &mut |_, _| {}).unwrap();
        assert!(r.failures.is_empty(), "{:?}", r.failure());
        let (_, bins) = r.space.groups.iter().find(|(g, _)| g == "memory").unwrap();
        for b in bins {
            let n = r.coverage.count("memory", &b.name);
            match &b.unreachable {
                None => assert!(n > 0, "latency {latency_min}..{latency_max} stall {stall}: reachable `{}` never hit", b.name),
                Some(why) => assert_eq!(n, 0, "latency {latency_min}..{latency_max} stall {stall}: `{}` hit {n} times, but unreachable: {why}", b.name),
            }
        }
    }
}

/// The float vectors of the ALU's directed tests (every corner pair of
/// every float op and format a message can send, and the rounding addends),
/// one per lane element, through the whole unit.
#[test]
fn the_alus_directed_float_vectors_run_through_the_unit() {
    let sim = run_checked("float_vectors.atom");
    assert!(sim.messages > 1000, "{} messages", sim.messages);
}

/// Every bit of the compare-and-swap's equality comparator decides a compare
/// (a compare one bit off memory fails), every width and cas form.
#[test]
fn every_compare_bit_decides_a_cas() {
    let sim = run_checked("compare_bits.atom");
    // PTX global and shared b16..b128, vISA cmpxchg 16..64: 4 bits per message
    assert_eq!(sim.messages, 2 * (16 + 32 + 64 + 128) / 4 + (16 + 32 + 64) / 4);
}

/// A reset that comes with messages in flight leaves nothing behind: the
/// next script runs as from power-up (no register that holds a message's
/// state lacks the reset).
#[test]
fn a_reset_with_messages_in_flight_leaves_nothing_behind() {
    for line in atomport_testbench::dut::check_resets_in_flight(UnitBuild::Full).unwrap_or_else(|e| panic!("{e}")) {
        eprintln!("{line}");
    }
}
