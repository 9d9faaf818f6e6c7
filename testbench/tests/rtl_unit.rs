//! Directed tests of the RTL unit (`atomic_unit` under Verilator) through
//! the whole bench: every script runs with random memory latency and
//! backpressure, checked in lockstep by the scoreboard (every read, write,
//! result and done against the golden model, then the final memory), and
//! its RTL report must equal the golden model's.
//!
//! `cargo test --test rtl_unit`

use std::collections::BTreeSet;

use atomport_core::descriptor::Encoder;
use atomport_core::golden::{self, Machine};
use atomport_core::program::Program;
use atomport_testbench::dut::{new_unit, simulate};
use atomport_testbench::memory::MemConfig;
use atomport_testbench::pins::PinRequest;
use atomport_testbench::scoreboard::Scoreboard;
use atomport_testbench::{driver, regress, RtlError, RtlOptions, Session, Simulation};

/// Random latency 1..=6 and 30% stalls on both channels.
fn random_mem(seed: u64) -> MemConfig {
    MemConfig { latency_min: 1, latency_max: 6, stall: 0.3, seed }
}

fn parse(name: &str, text: &str) -> Program {
    atomport_core::script::parse(name, text).unwrap_or_else(|d| panic!("{name}: test script does not parse: {d}\n{text}"))
}

/// Runs `text` on the RTL with the scoreboard (random memory from `seed`)
/// and checks that nothing differs and the RTL's report is the golden one.
fn run_checked(name: &str, text: &str, seed: u64) -> Simulation {
    let program = parse(name, text);
    let opts = RtlOptions { mem: random_mem(seed), vcd: None, fst: None };
    let sim = simulate(&program, &opts, true).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Some(m) = &sim.mismatch {
        panic!("{name}: RTL and golden model differ: {m}");
    }
    assert!(sim.illegal.is_empty(), "{name}: {:?}", sim.illegal);
    let golden = golden::run(&program);
    assert_eq!(sim.output.results, golden.results, "{name}: results");
    assert_eq!(sim.output.dumps, golden.dumps, "{name}: dumps");
    assert_eq!(sim.output.txns, golden.txns, "{name}: transactions");
    assert_eq!(sim.messages, program.messages().count());
    eprintln!("{name}: {} messages, {} transactions, {} cycles", sim.messages, sim.output.txns.len(), sim.cycles);
    sim
}

fn lanes(values: impl IntoIterator<Item = u128>) -> String {
    let v: Vec<String> = values.into_iter().map(|x| format!("{x:#x}")).collect();
    format!("[{}]", v.join(" "))
}

/// Edge-biased source values of `bits` bits, one per lane.
fn values(n: usize, bits: u32, salt: u128) -> Vec<u128> {
    let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let sign = 1u128 << (bits - 1);
    let edges = [0, 1, 2, mask, sign, sign - 1, 3, mask - 1];
    (0..n).map(|i| if i % 3 == 2 { (0x9e37_79b9_7f4a_7c15_f00d_cafe_u128.wrapping_mul(i as u128 + salt)) & mask } else { edges[(i + salt as usize) % edges.len()] }).collect()
}

const INT_OPS: [&str; 14] = ["add", "sub", "inc", "dec", "min", "max", "xchg", "cmpxchg", "and", "or", "xor", "imin", "imax", "predec"];

/// src0 / src1 text for a vISA op at `bits`, `n` lanes.
fn visa_sources(op: &str, n: usize, bits: u32, salt: u128) -> (String, String) {
    let src0 = if matches!(op, "inc" | "dec" | "predec") { "V0".to_string() } else { lanes(values(n, bits, salt)) };
    let src1 = if op == "cmpxchg" { lanes(values(n, bits, salt + 3)) } else { "V0".to_string() };
    (src0, src1)
}

/// Memory with edge values under every address the tests use.
const MEMORY_SETUP: &str = "mem.u32 0x100 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe 5 0 0x8000 0xffff 0x7fff 1 0 9\n\
                            mem.u32 0x8000 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe\n\
                            slm.u32 0 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe 5 0 0x8000 0xffff\n";

#[test]
fn every_integer_op_of_every_visa_kind_and_width() {
    let mut text = String::from(MEMORY_SETUP);
    text += "surface 1 buffer base=0x8000 size=64\n";
    text += "surface 2 2d base=0x8000 width=4 height=2 format=u32\n";
    text += "surface 3 2d base=0x8000 width=4 height=2 format=u16\n";
    for (k, op) in INT_OPS.iter().enumerate() {
        let salt = k as u128;
        for (suffix, bits) in [(".16", 16u32), ("", 32), (".64", 64)] {
            let step = bits as u128 / 8;
            // lanes 0, 2, 4 share an address: results chain through memory
            let addrs = lanes((0..8).map(|l| 0x100 + if l % 2 == 0 { 0 } else { step * l as u128 }));
            let (s0, s1) = visa_sources(op, 8, bits, salt);
            text += &format!("SVM_ATOMIC.{op}{suffix} (8) {addrs} d {s0} {s1}\n");
        }
        for (suffix, bits) in [(".16", 16u32), ("", 32)] {
            let step = bits as u128 / 8;
            let offs = lanes((0..16).map(|l| step * (l as u128 % 6)));
            let (s0, s1) = visa_sources(op, 16, 32, salt);
            for surface in ["T0", "T255", "1"] {
                text += &format!("DWORD_ATOMIC.{op}{suffix} (16) {surface} {offs} {s0} {s1} d\n");
            }
            let surface = if bits == 16 { 3 } else { 2 };
            let u = lanes((0..8).map(|l| l as u128 % 4));
            let v = lanes((0..8).map(|l| (l as u128 / 2) % 2));
            let (s0, s1) = visa_sources(op, 8, 32, salt + 1);
            text += &format!("TYPED_ATOMIC.{op}{suffix} (8) {surface} {u} {v} V0 V0 {s0} {s1} d\n");
        }
    }
    text += "dump 0x100 64\ndump 0x8000 64\ndump slm 0 48\n";
    let sim = run_checked("visa_ops.atom", &text, 11);
    assert_eq!(sim.messages, INT_OPS.len() * (3 + 2 * 4));
}

#[test]
fn every_integer_ptx_op_and_type_warp_and_single_thread() {
    let mut text = String::from(MEMORY_SETUP);
    let rows: [(&str, &[&str]); 10] = [
        ("and", &["b32", "b64"]),
        ("or", &["b32", "b64"]),
        ("xor", &["b32", "b64"]),
        ("cas", &["b16", "b32", "b64", "b128"]),
        ("exch", &["b32", "b64", "b128"]),
        ("add", &["u32", "u64", "s32", "s64"]),
        ("inc", &["u32"]),
        ("dec", &["u32"]),
        ("min", &["u32", "u64", "s32", "s64"]),
        ("max", &["u32", "u64", "s32", "s64"]),
    ];
    let mut count = 0;
    for (k, (op, types)) in rows.iter().enumerate() {
        for ty in types.iter() {
            let bits: u32 = ty[1..].parse().unwrap();
            let bytes = bits as u128 / 8;
            let salt = k as u128;
            // signed literals are written as raw hex of their width
            let b = values(8, bits, salt);
            let c = values(8, bits, salt + 5);
            let addrs = lanes((0..8).map(|l| 0x100 + bytes * (l as u128 % 3)));
            let c_text = if *op == "cas" { format!(", {}", lanes(c.clone())) } else { String::new() };
            for space in [".global", ".shared"] {
                let slm_addrs = lanes((0..8).map(|l| bytes * (l as u128 % 3)));
                let a = if space == ".shared" { &slm_addrs } else { &addrs };
                text += &format!("atom{space}.{op}.{ty} (8) d, {a}, {}{c_text};\n", lanes(b.clone()));
                count += 1;
            }
            let c1 = if *op == "cas" { format!(", {:#x}", c[1]) } else { String::new() };
            text += &format!("atom.{op}.{ty} d, [0x100], {:#x}{c1};\n", b[1]);
            count += 1;
        }
    }
    text += "dump 0x100 64\ndump slm 0 64\n";
    let sim = run_checked("ptx_ops.atom", &text, 12);
    assert_eq!(sim.messages, count);
}

#[test]
fn every_exec_size_and_mask_control_with_dmask_offsets() {
    let mut text = String::from(MEMORY_SETUP);
    text += "surface 4 1d base=0x8000 width=16 format=u32\n";
    let mut count = 0;
    for (d, dmask) in [0xffff_ffffu32, 0xa5c3_0f96, 0x0000_0001, 0x8000_0000, 0].iter().enumerate() {
        text += &format!("dmask {dmask:#x}\n");
        for group in 1..=8 {
            for nm in ["", "_NM"] {
                let mc = format!("M{group}{nm}");
                for n in [1usize, 2, 4, 8] {
                    let a = lanes((0..n).map(|l| 0x100 + 4 * l as u128));
                    text += &format!("SVM_ATOMIC.add ({mc}, {n}) {a} d {} V0\n", lanes(values(n, 32, d as u128)));
                    text += &format!("SVM_SCATTER.4.1 ({mc}, {n}) {a} {}\n", lanes(values(n, 32, 1)));
                    count += 2;
                }
                for n in [1usize, 2, 4, 8, 16, 32] {
                    let o = lanes((0..n).map(|l| 4 * l as u128));
                    text += &format!("DWORD_ATOMIC.inc ({mc}, {n}) T0 {o} V0 V0 d\n");
                    let a = lanes((0..n).map(|l| 0x100 + 4 * (l as u128 % 8)));
                    text += &format!("atom.global.add.u32 ({mc}, {n}) d, {a}, {};\n", lanes(values(n, 32, 2)));
                    count += 2;
                }
                let u = lanes((0..8).map(|l| 2 * l as u128));
                text += &format!("TYPED_ATOMIC.add ({mc}, 8) 4 {u} V0 V0 V0 {} V0 d\n", lanes(values(8, 32, 3)));
                text += &format!("SVM_SCATTER.1.4 ({mc}, 16) {} {}\n", lanes((0..16).map(|l| 0x200 + 4 * l as u128)), lanes((0..64).map(|i| i as u128)));
                count += 2;
            }
        }
    }
    text += "dump 0x100 64\ndump 0x200 64\ndump 0x8000 64\ndump slm 0 128\n";
    let sim = run_checked("exec_masks.atom", &text, 13);
    assert_eq!(sim.messages, count);
}

#[test]
fn predicates_and_their_complements() {
    let mut text = String::from(MEMORY_SETUP);
    text += "pred p = 0xb6\npred q = 0x80000001\npred one = 1\npred none = 0\n";
    for pred in ["(p) ", "(!p) ", "(q) ", "(!q) ", "(none) ", "(!none) "] {
        text += &format!("{pred}SVM_ATOMIC.add (8) {} d {} V0\n", lanes((0..8).map(|l| 0x100 + 4 * l)), lanes(values(8, 32, 1)));
        text += &format!("{pred}DWORD_ATOMIC.xchg (32) T255 {} {} V0 d\n", lanes((0..32).map(|l| 0x100 + 4 * (l % 16))), lanes(values(32, 32, 2)));
        text += &format!("{pred}SVM_SCATTER.8.2 (4) {} {}\n", lanes((0..4).map(|l| 0x200 + 16 * l)), lanes(values(8, 64, 3)));
    }
    for pred in ["@p ", "@!p ", "@one ", "@!one ", "@q ", "@!q "] {
        text += &format!("{pred}atom.global.or.b32 d, [0x104], 0xf0;\n");
        text += &format!("{pred}atom.shared.add.u64 (32) d, {}, {};\n", lanes((0..32).map(|l| 8 * (l % 4))), lanes(values(32, 64, 4)));
    }
    text += "dump 0x100 64\ndump 0x200 64\ndump slm 0 32\n";
    run_checked("predicates.atom", &text, 14);
}

#[test]
fn same_address_lanes_chain_through_memory() {
    let mut text = String::from(MEMORY_SETUP);
    let same = |n: usize, a: u128| lanes((0..n).map(|_| a));
    // 32 lanes on one dword: every lane sees all earlier adds
    text += &format!("DWORD_ATOMIC.add (32) T255 {} {} V0 sum\n", same(32, 0x100), lanes((1..=32).map(|i| i as u128)));
    text += &format!("DWORD_ATOMIC.add (32) T0 {} {} V0 slm_sum\n", same(32, 0), lanes((1..=32).map(|i| i as u128)));
    // a lock: only lane 0's cmpxchg succeeds, then a chain of swaps
    text += &format!("SVM_ATOMIC.cmpxchg (8) {} lock {} {}\n", same(8, 0x104), lanes(1..=8), same(8, 1));
    text += &format!("SVM_ATOMIC.xchg.64 (8) {} x {} V0\n", same(8, 0x108), lanes((0..8).map(|i| i << 40 | i)));
    // 16-bit halves of one dword and of one line: byte-exact forwarding
    text += &format!("DWORD_ATOMIC.add.16 (32) T255 {} {} V0 h\n", lanes((0..32).map(|l| 0x110 + 2 * (l % 8))), lanes((0..32).map(|i| 0xffff_0000 | (0x1111 * (i % 3)))));
    text += &format!("SVM_ATOMIC.dec.16 (8) {} h2 V0 V0\n", lanes((0..8).map(|l| 0x110 + 2 * (l % 2))));
    text += &format!("SVM_ATOMIC.inc.64 (8) {} q V0 V0\n", lanes((0..8).map(|l| 0x118 - 8 * (l % 2))));
    text += &format!("SVM_ATOMIC.predec (8) {} p V0 V0\n", same(8, 0x11c));
    // wide elements sharing a line, PTX b128 on one address, vector of mins
    text += &format!("atom.global.cas.b128 (8) c, {}, {}, {};\n", same(8, 0x120), lanes((0..8).map(|i| i as u128)), lanes((1..=8).map(|i| i as u128)));
    text += &format!("atom.global.exch.b128 (4) e, {}, {};\n", same(4, 0x120), lanes((0..4).map(|i| (i as u128) << 100 | 7)));
    text += &format!("atom.global.min.s32 (32) m, {}, {};\n", lanes((0..32).map(|l| 0x130 + 4 * (l % 2))), lanes((0..32).map(|i| (0x8000_0000u128 + 7 * i) & 0xffff_ffff)));
    text += &format!("atom.global.inc.u32 (32) i, {}, {};\n", same(32, 0x138), same(32, 5));
    text += &format!("atom.global.dec.u32 (32) j, {}, {};\n", same(32, 0x13c), same(32, 3));
    // scatter blocks landing on each other: the last lane wins
    text += &format!("SVM_SCATTER.8.4 (4) {} {}\n", same(4, 0x140), lanes((0..16).map(|i| i as u128 * 0x0101_0101)));
    text += &format!("SVM_SCATTER.1.2 (8) {} {}\n", lanes((0..8).map(|l| 0x160 + (l % 2))), lanes((0..32).map(|i| i as u128)));
    text += "dump 0x100 128\ndump slm 0 16\n";
    for seed in [15, 16] {
        run_checked("same_address.atom", &text, seed);
    }
    // the same under a one-cycle memory (the forwarding path at full speed)
    let program = parse("same_address.atom", &text);
    let sim = simulate(&program, &RtlOptions::default(), true).unwrap();
    assert!(sim.mismatch.is_none(), "{}", sim.mismatch.unwrap());
}

#[test]
fn out_of_bounds_lanes_read_zero_and_drop_writes() {
    let mut text = String::from("slm size 256\n");
    text += MEMORY_SETUP;
    text += "slm.u32 0xf8 = 0x11 0x22\n";
    text += "surface 1 buffer base=0x8000 size=20\n";
    text += "mem.u32 0x8000 = 1 2 3 4 5 6 7 8\n";
    // SLM: 252 in, 256 out, 254 .16 in, far out
    text += "DWORD_ATOMIC.add (4) T0 [0xfc 0x100 0xf8 0xfffffffc] [1 1 1 1] V0 s\n";
    text += "DWORD_ATOMIC.add.16 (4) T0 [0xfe 0x100 0xfc 0xfffffffe] [1 1 1 1] V0 s16\n";
    text += "atom.shared.add.u32 (4) ps, [0xfc 0x100 0xffffffff00000000 0xf8], [1 1 1 1];\n";
    text += "atom.shared::cta.cas.b128 (2) pc, [0xf0 0x100], [0 0], [5 5];\n";
    text += "atom.shared.exch.b64 (2) pe, [0xf8 0x100], [9 9];\n";
    // buffer of 20 bytes: 16 in, 20 out, 18 (.16) in, 19.. out
    text += "DWORD_ATOMIC.xchg (4) 1 [16 20 0 0x7ffffffc] [7 7 7 7] V0 b\n";
    text += "DWORD_ATOMIC.xchg.16 (4) 1 [18 20 16 0xfffffffe] [9 9 9 9] V0 b16\n";
    // typed surfaces of every kind: coordinates at/past each dimension, LOD past levels
    text += "surface 10 1d base=0x9000 width=4 levels=3 format=u32\n";
    text += "surface 11 1d_array base=0x9100 width=4 array=2 levels=2 format=u16\n";
    text += "surface 12 2d base=0x9200 width=4 height=3 levels=2 format=u32\n";
    text += "surface 13 2d_array base=0x9300 width=2 height=2 array=3 format=u32\n";
    text += "surface 14 3d base=0x9400 width=4 height=2 depth=4 levels=3 format=u16\n";
    let ones = lanes((0..8).map(|_| 1));
    text += &format!("TYPED_ATOMIC.add (8) 10 [0 3 4 5 0 1 2 0] V0 V0 [0 0 0 0 1 2 2 3] {ones} V0 t1\n");
    text += &format!("TYPED_ATOMIC.add.16 (8) 11 [0 3 4 0 1 2 1 0] [0 1 1 2 1 0 3 0] V0 [0 0 0 0 1 1 1 2] {ones} V0 t2\n");
    text += &format!("TYPED_ATOMIC.add (8) 12 [0 3 4 1 1 2 1 0] [0 2 0 3 1 1 0 1] V0 [0 0 0 0 1 1 1 2] {ones} V0 t3\n");
    text += &format!("TYPED_ATOMIC.add (8) 13 [0 1 2 1 1 0 1 0] [0 1 0 2 1 1 0 1] [0 2 2 1 3 0 2 4] V0 {ones} V0 t4\n");
    text += &format!("TYPED_ATOMIC.add.16 (8) 14 [0 3 4 1 1 2 1 0] [0 1 0 2 1 0 0 1] [0 3 1 1 4 1 0 0] [0 0 0 1 1 2 2 3] {ones} V0 t5\n");
    text += "dump slm 0xf0 16\ndump 0x8000 32\ndump 0x9000 0x500\n";
    let sim = run_checked("oob.atom", &text, 17);
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
    let mut text = String::new();
    text += "surface 20 3d base=0x1000 width=3 height=0xfedcba9 depth=0x9876543 levels=2 format=u32\n";
    text += "surface 21 2d_array base=0x40 width=0x12345 height=0xfedcb array=0x1a2b3 levels=2 format=u16\n";
    text += "surface 22 2d base=0x8000 width=0xabcdef0 height=0x89abcde levels=32 format=u32\n";
    let u = lanes([0, 1, 2, 2, 0, 0, 0, 0]);
    let v = lanes([0, 0xfedcba8, 0x7654321, 0xabcdef, 1, 0x7f6e5d3, 0x1000000, 0x777]);
    let r = lanes([0, 0x9876542, 0x1234567, 0x5555555, 0x4c3b2a0, 0, 0x2000000, 0x3]);
    let lod = lanes([0, 0, 0, 0, 1, 1, 1, 1]);
    text += &format!("TYPED_ATOMIC.add (8) 20 {u} {v} {r} {lod} {} V0 a\n", lanes(1..=8));
    let u = lanes([0x12344, 0x9000, 1, 0x12340, 0x91a1, 0x3, 0x8bcd, 0]);
    let v = lanes([0xfedca, 0x7ffff, 0x87654, 2, 0x7f6e4, 0x1, 0x76543, 0]);
    let r = lanes([0x1a2b2, 0x8000, 0x1, 0x1a2b0, 0x1a2b2, 0x1234, 0x9, 0]);
    let lod = lanes([0, 0, 0, 0, 1, 1, 1, 0]);
    text += &format!("TYPED_ATOMIC.xchg.16 (8) 21 {u} {v} {r} {lod} {} V0 b\n", lanes(1..=8));
    // a deep walk: up to 31 levels, the last ones 1 x 1 (added in one step)
    let u = lanes([0xabcdeef, 0, 0, 0, 0x5, 0x12, 0, 0]);
    let v = lanes([0x89abcdd, 0, 0, 0, 0x4, 0x43, 0, 0]);
    let lod = lanes([0, 31, 27, 20, 24, 16, 17, 9]);
    text += &format!("TYPED_ATOMIC.add (8) 22 {u} {v} V0 {lod} {} V0 c\n", lanes(11..=18));
    let sim = run_checked("typed64.atom", &text, 23);
    let writes = sim.output.txns.iter().filter(|t| t.kind == atomport_core::outcome::TxnKind::Write).count();
    assert_eq!(writes, 24, "every lane is in bounds and writes");
}

#[test]
fn every_scatter_layout_and_exec_size() {
    let mut text = String::new();
    let mut count = 0;
    for (bs, nbs) in [(1u8, &[1u8, 2, 4][..]), (4, &[1, 2, 4][..]), (8, &[1, 2, 4][..])] {
        for &nb in nbs {
            for n in [1usize, 2, 4, 8, 16] {
                let stride = (bs as u128 * nb as u128).max(4);
                let addrs = lanes((0..n).map(|l| 0x400 + stride * ((l * 5) % n) as u128));
                let len = atomport_core::descriptor::scatter_src_len(bs, nb, n as u8);
                let mask = if bs == 8 { u64::MAX as u128 } else { (1u128 << (8 * bs)) - 1 };
                let src = lanes((0..len).map(|i| (0x0123_4567_89ab_cdef_u128.wrapping_mul(i as u128 + 1)) & mask));
                text += &format!("SVM_SCATTER.{bs}.{nb} ({n}) {addrs} {src}\n");
                count += 1;
            }
        }
    }
    text += &format!("SVM_SCATTER.4.8 (8) {} {}\n", lanes((0..8).map(|l| 0x800 + 32 * l)), lanes((0..64).map(|i| i as u128 * 0x1001)));
    text += &format!("SVM_SCATTER.8.1 (16) {} {}\n", lanes((0..16).map(|l| 0xffff_ffff_0000_0000 + 8 * l)), lanes((0..16).map(|i| u64::MAX as u128 - i)));
    count += 2;
    text += "dump 0x400 0x200\ndump 0x800 256\ndump 0xffffffff00000000 128\n";
    let sim = run_checked("scatter.atom", &text, 18);
    assert_eq!(sim.messages, count);
}

/// A legal message's pin image, to break on purpose.
fn image(program: &Program, index: usize) -> PinRequest {
    let msg = program.messages().nth(index).unwrap();
    driver::request(program, &mut Encoder::new(), msg).unwrap()
}

fn with_byte(req: &PinRequest, byte: usize, value: u8) -> PinRequest {
    let mut r = req.clone();
    let mut b = r.desc.to_le_bytes();
    b[byte] = value;
    r.desc = u128::from_le_bytes(b);
    r
}

#[test]
fn illegal_descriptors_end_in_error_and_touch_nothing() {
    let text = "surface 1 buffer base=0x8000 size=64\n\
                surface 2 2d base=0x9000 width=4 height=4 format=u32\n\
                mem.u32 0x100 = 1 2 3 4\n\
                SVM_ATOMIC.add (4) [0x100 0x104 0x108 0x10c] d [1 1 1 1] V0\n\
                DWORD_ATOMIC.inc (8) 1 [0 4 8 12 16 20 24 28] V0 V0 d\n\
                TYPED_ATOMIC.add (8) 2 [0 1 2 3 0 1 2 3] [0 0 0 0 1 1 1 1] V0 V0 [1 1 1 1 1 1 1 1] V0 d\n\
                SVM_SCATTER.4.2 (4) [0x200 0x208 0x210 0x218] [1 2 3 4 5 6 7 8]\n\
                atom.global.add.u32 (4) d, [0x100 0x104 0x108 0x10c], [1 2 3 4];\n";
    let program = parse("illegal.atom", text);
    let (svm, dword, typed, scatter, ptx) = (image(&program, 0), image(&program, 1), image(&program, 2), image(&program, 3), image(&program, 4));
    let mut cases: Vec<(&str, PinRequest)> = vec![
        ("unknown opcode 0x55", with_byte(&svm, 0, 0x55)),
        ("0x4e followed by 0x06", with_byte(&svm, 1, 0x06)),
        ("reserved exec-size code 6", with_byte(&svm, 2, 0x06)),
        ("SVM_ATOMIC exec size 16", with_byte(&svm, 2, 0x04)),
        ("exec-size reserved bit 3", with_byte(&svm, 2, 0x0a)),
        ("predicate number 0 with the complement bit", with_byte(&svm, 4, 0x80)),
        ("predicate reserved bit 12", with_byte(&svm, 4, 0x10)),
        ("SVM reserved op code 0x0e", with_byte(&svm, 5, 0x0e)),
        ("SVM width bits 11", with_byte(&svm, 5, 0x60)),
        ("SVM op reserved bit 7", with_byte(&svm, 5, 0x80)),
        ("SVM fmax at 64 bits", with_byte(&svm, 5, 0x50)),
        ("Addresses null", with_byte(&svm, 6, 0)),
        ("operands misnumbered", with_byte(&svm, 6, 2)),
        ("src1 present for add", with_byte(&with_byte(&svm, 8, 3), 9, 4)),
        ("trailing byte after the descriptor", with_byte(&svm, 10, 1)),
        ("DWORD src0 present for inc", with_byte(&with_byte(&dword, 7, 2), 9, 3)),
        ("DWORD reserved op code 0x13", with_byte(&dword, 1, 0x13)),
        ("DWORD op bit 6", with_byte(&dword, 1, 0x42)),
        ("TYPED fmax", with_byte(&typed, 1, 0x10)),
        ("TYPED exec size 4", with_byte(&typed, 2, 0x02)),
        ("TYPED surface T0", with_byte(&typed, 5, 0)),
        ("SCATTER block size code 3", with_byte(&scatter, 5, 3)),
        ("SCATTER 8 blocks at exec size 4", with_byte(&scatter, 6, 3)),
        ("SCATTER exec size 32", with_byte(&scatter, 2, 0x05)),
        ("PTX reserved op 10", with_byte(&ptx, 1, 0x0a)),
        ("PTX and.u32", with_byte(&ptx, 1, 0x00)),
        ("PTX reserved type 14", with_byte(&ptx, 2, 0x0e)),
        ("PTX .v2.u32", with_byte(&ptx, 2, 0x14)),
        ("PTX reserved space 5", with_byte(&ptx, 3, 0x05)),
        ("PTX reserved sem 5", with_byte(&ptx, 4, 0x05)),
    ];
    let mut no_surface = dword.clone();
    no_surface.surf_kind = 7;
    cases.push(("DWORD surface with no surface state", no_surface));
    let mut typed_on_buffer = typed.clone();
    typed_on_buffer.surf_kind = 5;
    cases.push(("TYPED surface state is a buffer", typed_on_buffer));
    let mut dword_on_typed = dword.clone();
    dword_on_typed.surf_kind = 2;
    cases.push(("DWORD surface state is typed", dword_on_typed));

    let opts = RtlOptions { mem: random_mem(19), vcd: None, fst: None };
    let mut session = Session::new(new_unit().unwrap(), &opts, Some(Scoreboard::new(Machine::new(&program)))).unwrap();
    let mut encoder = Encoder::new();
    session.backdoor_write(atomport_core::program::Space::Flat, 0x100, &[1, 0, 0, 0, 2, 0, 0, 0]).unwrap();
    // each illegal request between legal ones: the unit recovers and
    // memory sees only the legal messages
    let legal: Vec<_> = program.messages().cloned().collect();
    for (k, (name, req)) in cases.iter().enumerate() {
        session.issue_illegal(req.clone(), 0, name);
        session.issue(&program, &mut encoder, &legal[k % legal.len()]).unwrap();
    }
    session.finish().unwrap_or_else(|e| panic!("{e}"));
    if let Some(m) = session.mismatch() {
        panic!("illegal descriptors: {m}");
    }
    let flagged: BTreeSet<String> = session.illegal_flags().into_iter().map(|f| f.text).collect();
    assert_eq!(flagged.len(), cases.len(), "every illegal request must end with rsp_error");
}

#[test]
fn back_to_back_mixed_messages_at_full_speed_and_under_stalls() {
    let g = atomport_testbench::generator::random_script(0xb2b, &atomport_testbench::generator::GenConfig::integer_only(150)).unwrap();
    let fast = simulate(&g.program, &RtlOptions::default(), true).unwrap();
    assert!(fast.mismatch.is_none(), "{}", fast.mismatch.unwrap());
    let slow = simulate(&g.program, &RtlOptions { mem: random_mem(20), vcd: None, fst: None }, true).unwrap();
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
/// and its shards' reports merged are the unsharded run (issue 13).
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
