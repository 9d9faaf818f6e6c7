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
use atomport_core::ops::{ConfigLimit, UnitConfig};
use atomport_core::program::Program;
use atomport_testbench::dut::{golden_for_build, simulate_build, UnitBuild, SMALL_UNIT};
use atomport_testbench::memory::MemConfig;
use atomport_testbench::{regress, RtlOptions, Simulation};

fn parse(name: &str, text: &str) -> Program {
    atomport_core::script::parse(name, text).unwrap_or_else(|d| panic!("{name}: test script does not parse: {d}\n{text}"))
}

/// Runs `text` on a small build with the scoreboard and random memory,
/// checks the report against the golden model's run of the admitted
/// messages, and that exactly `want_rejected` messages were rejected.
fn run_small(build: UnitBuild, name: &str, text: &str, seed: u64, want_rejected: usize) -> Simulation {
    let program = parse(name, text);
    let opts = RtlOptions { mem: MemConfig { latency_min: 1, latency_max: 6, stall: 0.3, seed }, vcd: None, fst: None };
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

fn lanes(values: impl IntoIterator<Item = u128>) -> String {
    let v: Vec<String> = values.into_iter().map(|x| format!("{x:#x}")).collect();
    format!("[{}]", v.join(" "))
}

/// Edge-biased values of `bits` bits, one per lane.
fn values(n: usize, bits: u32, salt: u128) -> Vec<u128> {
    let mask = (1u128 << bits) - 1;
    let sign = 1u128 << (bits - 1);
    let edges = [0, 1, 2, mask, sign, sign - 1, 3, mask - 1];
    (0..n)
        .map(|i| if i % 3 == 2 { 0x9e37_79b9_7f4a_7c15_u128.wrapping_mul(i as u128 + salt) & mask } else { edges[(i + salt as usize) % 8] })
        .collect()
}

const INT_OPS: [&str; 14] = ["add", "sub", "inc", "dec", "min", "max", "xchg", "cmpxchg", "and", "or", "xor", "imin", "imax", "predec"];

const MEMORY_SETUP: &str = "mem.u32 0x100 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe 5 0 0x8000 0xffff\n\
                            mem.u32 0x8000 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe\n\
                            slm.u32 0 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe\n\
                            surface 1 buffer base=0x8000 size=64\n\
                            surface 2 2d base=0x8000 width=4 height=2 format=u32\n";

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

fn admitted(build: UnitBuild) {
    let mut text = String::from(MEMORY_SETUP);
    let mut count = 0;
    for (k, op) in INT_OPS.iter().enumerate() {
        let salt = k as u128;
        let src = |n: usize, bits: u32, salt: u128| -> (String, String) {
            let s0 = if matches!(*op, "inc" | "dec" | "predec") { "V0".to_string() } else { lanes(values(n, bits, salt)) };
            let s1 = if *op == "cmpxchg" { lanes(values(n, bits, salt + 3)) } else { "V0".to_string() };
            (s0, s1)
        };
        for (suffix, bits) in [(".16", 16u32), ("", 32)] {
            let step = bits as u128 / 8;
            let addrs = lanes((0..8).map(|l| 0x100 + if l % 2 == 0 { 0 } else { step * l as u128 }));
            let (s0, s1) = src(8, bits, salt);
            text += &format!("SVM_ATOMIC.{op}{suffix} (8) {addrs} d {s0} {s1}\n");
            let offs = lanes((0..8).map(|l| step * (l as u128 % 6)));
            let (s0, s1) = src(8, 32, salt + 1);
            for surface in ["T0", "T255", "1"] {
                text += &format!("DWORD_ATOMIC.{op}{suffix} (8) {surface} {offs} {s0} {s1} d\n");
            }
            count += 4;
        }
        let u = lanes((0..8).map(|l| l as u128 % 4));
        let v = lanes((0..8).map(|l| (l as u128 / 2) % 2));
        let (s0, s1) = src(8, 32, salt + 2);
        text += &format!("TYPED_ATOMIC.{op} (8) 2 {u} {v} V0 V0 {s0} {s1} d\n");
        count += 1;
    }
    for (op, ty) in [("and", "b32"), ("or", "b32"), ("xor", "b32"), ("cas", "b16"), ("cas", "b32"), ("exch", "b32"), ("add", "u32"), ("add", "s32"), ("inc", "u32"), ("dec", "u32"), ("min", "s32"), ("max", "u32")] {
        let bits: u32 = ty[1..].parse().unwrap();
        let b = values(4, bits, 7);
        let c = if op == "cas" { format!(", {}", lanes(values(4, bits, 9))) } else { String::new() };
        let addrs = lanes((0..4).map(|l| 0x100 + (bits as u128 / 8) * (l as u128 % 3)));
        text += &format!("atom.{op}.{ty} (4) d, {addrs}, {}{c};\n", lanes(b.clone()));
        let c1 = if op == "cas" { format!(", {:#x}", values(4, bits, 9)[1]) } else { String::new() };
        text += &format!("atom.shared.{op}.{ty} d, [0x8], {:#x}{c1};\n", b[1]);
        count += 2;
    }
    for (bs, nb) in [(1u8, 4u8), (4, 2), (4, 8)] {
        let n = 8usize;
        let addrs = lanes((0..n).map(|l| 0x400 + 32 * l as u128));
        let len = atomport_core::descriptor::scatter_src_len(bs, nb, n as u8);
        let mask = (1u128 << (8 * bs)) - 1;
        let src = lanes((0..len).map(|i| 0x0123_4567_89ab_cdef_u128.wrapping_mul(i as u128 + 1) & mask));
        text += &format!("SVM_SCATTER.{bs}.{nb} ({n}) {addrs} {src}\n");
        count += 1;
    }
    text += "dump 0x100 48\ndump 0x400 256\ndump 0x8000 32\ndump slm 0 32\n";
    let sim = run_small(build, "small_admitted.atom", &text, 3, 0);
    assert_eq!(sim.messages, count);
}

fn rejected(build: UnitBuild) {
    // each rejected message sits between admitted ones that touch the same
    // memory, so a stray access or a lost message shows in the dumps
    let warp32 = format!("atom.xor.b32 (32) d, {}, {};", lanes((0..32).map(|l| 0x100 + 4 * (l % 4))), lanes((0..32).map(|l| 1u128 << l)));
    let cases: [(&str, ConfigLimit); 9] = [
        ("DWORD_ATOMIC.add (16) T255 [0 4 8 12 16 20 24 28 0 4 8 12 16 20 24 28] [1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1] V0 d", ConfigLimit::Lanes { exec_size: 16, max_lanes: 8 }),
        ("SVM_ATOMIC.add.64 (1) [0x100] d [5] V0", ConfigLimit::Width { elem_bits: 64, data_bits: 32 }),
        ("atom.add.u64 d, [0x100], 5;", ConfigLimit::Width { elem_bits: 64, data_bits: 32 }),
        ("atom.exch.b128 d, [0x100], 5;", ConfigLimit::Width { elem_bits: 128, data_bits: 32 }),
        ("SVM_SCATTER.8.1 (2) [0x100 0x108] [1 2]", ConfigLimit::Width { elem_bits: 64, data_bits: 32 }),
        ("atom.add.f32 d, [0x100], 0x3f800000;", ConfigLimit::Float),
        ("SVM_ATOMIC.fmax (1) [0x100] d [0x3f800000] V0", ConfigLimit::Float),
        ("atom.add.noftz.f16 d, [0x100], 0x3c00;", ConfigLimit::Float),
        (&warp32, ConfigLimit::Lanes { exec_size: 32, max_lanes: 8 }),
    ];
    let mut text = String::from(MEMORY_SETUP);
    for (k, (line, want)) in cases.iter().enumerate() {
        let program = parse("case.atom", &format!("{MEMORY_SETUP}{line}\n"));
        let msg = program.messages().next().expect("one message");
        assert_eq!(msg.admitted_by(&SMALL_UNIT), Err(*want), "{line}");
        assert_eq!(msg.admitted_by(&UnitConfig::FULL), Ok(()), "{line}");
        text += &format!("SVM_ATOMIC.add (1) [0x100] r{k} [1] V0\n{line}\nSVM_ATOMIC.add (1) [0x100] s{k} [1] V0\n");
    }
    text += "dump 0x100 32\n";
    let sim = run_small(build, "small_rejected.atom", &text, 5, cases.len());
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
