//! The directed stimulus of the unit's RTL tests, as data: message scripts
//! (with the memory timing each runs under) and the illegal descriptors
//! broken out of legal ones. testbench/tests/rtl_unit.rs and rtl_variant.rs
//! run them on the checked-in models and assert what each is about;
//! `atomport mutate` runs the same on every mutant of a unit build (the kill
//! suite). Every script runs on every build: a smaller build rejects what it
//! does not admit, and the scoreboard checks that too.

use atomport_core::descriptor::Encoder;
use atomport_core::golden::Machine;
use atomport_core::ops::ConfigLimit;
use atomport_core::program::{Program, Space};

use super::driver;
use super::memory::MemConfig;
use super::pins::{PinRequest, UnitPins};
use super::scoreboard::Scoreboard;
use super::session::{RtlError, RtlOptions, Session};

/// One directed script and the memory it runs against.
#[derive(Clone, Debug)]
pub struct DirectedScript {
    /// the script's file name in reports (`visa_ops.atom`)
    pub name: &'static str,
    pub text: String,
    pub mem: MemConfig,
}

impl DirectedScript {
    /// The script parsed; a directed script that does not parse is a bench bug.
    pub fn program(&self) -> Program {
        atomport_core::script::parse(self.name, &self.text)
            .unwrap_or_else(|d| panic!("{}: directed script does not parse: {d}\n{}", self.name, self.text))
    }
}

/// Random latency 1..=6 and 30% stalls on both channels, from `seed`.
pub fn random_mem(seed: u64) -> MemConfig {
    MemConfig { latency_min: 1, latency_max: 6, stall: 0.3, seed }
}

/// Every directed script, in the tests' order: the full unit's (every op,
/// kind, width, exec size, mask, predicate, same-address chain, bound,
/// typed address, scatter layout) and the small builds' (what they admit,
/// what they reject between admitted neighbours).
pub fn scripts() -> Vec<DirectedScript> {
    let s = |name: &'static str, text: String, mem: MemConfig| DirectedScript { name, text, mem };
    vec![
        s("visa_ops.atom", visa_ops(), random_mem(11)),
        s("ptx_ops.atom", ptx_ops(), random_mem(12)),
        s("exec_masks.atom", exec_masks(), random_mem(13)),
        s("predicates.atom", predicates(), random_mem(14)),
        s("same_address.atom", same_address(), random_mem(15)),
        s("same_address.atom", same_address(), random_mem(16)),
        // the forwarding path at full speed
        s("same_address.atom", same_address(), MemConfig::FAST),
        s("oob.atom", oob(), random_mem(17)),
        s("typed64.atom", typed64(), random_mem(23)),
        s("scatter.atom", scatter(), random_mem(18)),
        s("descriptor_values.atom", descriptor_values(), random_mem(31)),
        s("near_miss_lines.atom", near_miss_lines(), MemConfig::FAST),
        s("near_miss_lines.atom", near_miss_lines(), random_mem(29)),
        s("line_forwarding.atom", line_forwarding(), MemConfig::FAST),
        s("line_forwarding.atom", line_forwarding(), MemConfig { latency_min: 4, latency_max: 4, stall: 0.0, seed: 47 }),
        s("line_forwarding.atom", line_forwarding(), random_mem(47)),
        s("float_vectors.atom", float_vectors(), random_mem(37)),
        s("compare_bits.atom", compare_bits(), random_mem(41)),
        s("small_admitted.atom", small_admitted(), random_mem(3)),
        s("small_rejected.atom", small_rejected(), random_mem(5)),
    ]
}

/// The scalar message forms that send a float op to the ALU, 8 lanes
/// (`{addrs}`, `{s0}`, `{s1}` filled per message), with their element bytes.
const FLOAT_FORMS: [(&str, u32); 13] = [
    ("SVM_ATOMIC.fmax.16 (8) {addrs} d {s0} V0", 2),
    ("SVM_ATOMIC.fmin.16 (8) {addrs} d {s0} V0", 2),
    ("SVM_ATOMIC.fcmpwr.16 (8) {addrs} d {s0} {s1}", 2),
    ("SVM_ATOMIC.fmax (8) {addrs} d {s0} V0", 4),
    ("SVM_ATOMIC.fmin (8) {addrs} d {s0} V0", 4),
    ("SVM_ATOMIC.fcmpwr (8) {addrs} d {s0} {s1}", 4),
    ("atom.global.add.f32 (8) d, {addrs}, {s0};", 4),
    // f32 add does not flush subnormals on shared memory
    ("atom.shared.add.f32 (8) d, {addrs}, {s0};", 4),
    ("atom.global.add.f64 (8) d, {addrs}, {s0};", 8),
    ("atom.global.add.noftz.f16 (8) d, {addrs}, {s0};", 2),
    ("atom.global.add.noftz.bf16 (8) d, {addrs}, {s0};", 2),
    ("atom.global.add.noftz.f16x2 (8) d, {addrs}, {s0};", 4),
    ("atom.global.add.noftz.bf16x2 (8) d, {addrs}, {s0};", 4),
];

/// Every float vector of the ALU's directed tests (`alu_vectors`: every
/// corner pair of every op and format, and the addends where one bit decides
/// the rounding) that a message can carry, one vector per lane element, each
/// at its own address holding its old value: the unit's float datapath sees
/// the vectors its ALU's tests use, not only what random messages draw.
fn float_vectors() -> String {
    use std::collections::HashMap;
    let mut forms: Vec<(String, u32, usize)> = FLOAT_FORMS.iter().map(|&(text, bytes)| (text.to_string(), bytes, 1)).collect();
    // PTX min/max on floats are vector forms only
    for (ty, bytes) in [("f16", 2), ("bf16", 2), ("f16x2", 4), ("bf16x2", 4)] {
        for op in ["min", "max"] {
            forms.push((format!("atom.global.v2.{ty}.{op}.noftz (8) d, {{addrs}}, {{s0}};"), bytes, 2));
        }
    }
    // which ALU controls each form sends, from the parser itself
    let fill = |text: &str, addrs: &str, s0: &str, s1: &str| text.replace("{addrs}", addrs).replace("{s0}", s0).replace("{s1}", s1);
    let mut by_ctl: HashMap<atomport_core::ops::AluCtl, usize> = HashMap::new();
    for (k, (text, bytes, vec)) in forms.iter().enumerate() {
        let elem = |v: u128| if *vec == 1 { format!("{v:#x}") } else { format!("{{{v:#x}, {v:#x}}}") };
        let probe = fill(text, &lanes((0..8).map(|l| 0x1000 + 16 * l as u128)), &format!("[{}]", vec![elem(0); 8].join(" ")), &lanes([0; 8]));
        let program = atomport_core::script::parse("float_vectors.atom", &probe).unwrap_or_else(|d| panic!("{probe}: {d}"));
        let msg = program.messages().next().expect("one message");
        let ctl = msg.alu().expect("an atomic message");
        assert_eq!(ctl.ty.bytes(), *bytes, "{probe}");
        by_ctl.entry(ctl).or_insert(k);
    }
    let config = atomport_core::ops::UnitConfig::FULL;
    let vectors = super::alu_vectors::directed_float(&config).into_iter().chain(super::alu_vectors::directed_rounding(&config));
    let mut per_form: Vec<Vec<super::alu_stream::AluVector>> = vec![vec![]; forms.len()];
    for v in vectors {
        if let Some(&k) = v.ctl().and_then(|c| by_ctl.get(&c)) {
            per_form[k].push(v);
        }
    }
    for (k, (form, _, vec)) in forms.iter().enumerate() {
        assert!(!per_form[k].is_empty(), "no ALU directed vector for {form}");
        // whole lanes: a vector form's last lane repeats its last element
        while per_form[k].len() % vec != 0 {
            let last = per_form[k][per_form[k].len() - 1];
            per_form[k].push(last);
        }
    }
    let mut text = String::from("slm size 1048576\n");
    let (mut next_global, mut next_slm): (u128, u128) = (0x10_0000, 0);
    for (k, (form, bytes, vec)) in forms.iter().enumerate() {
        let bits = bytes * 8;
        let (next, space) = if form.starts_with("atom.shared") { (&mut next_slm, "slm") } else { (&mut next_global, "mem") };
        for group in per_form[k].chunks(8 * vec) {
            let mut lane_vs: Vec<&[super::alu_stream::AluVector]> = group.chunks(*vec).collect();
            // a short last group: its lanes repeat the first vector
            while lane_vs.len() < 8 {
                lane_vs.push(&group[..*vec]);
            }
            let mut addrs = vec![];
            for l in &lane_vs {
                let olds: Vec<String> = l.iter().map(|v| format!("{:#x}", v.old)).collect();
                text += &format!("{space}.u{bits} {:#x} = {}\n", *next, olds.join(" "));
                addrs.push(*next);
                *next += (bytes * *vec as u32) as u128;
            }
            let elem = |l: &[super::alu_stream::AluVector], f: fn(&super::alu_stream::AluVector) -> u128| -> String {
                let v: Vec<String> = l.iter().map(|v| format!("{:#x}", f(v))).collect();
                if *vec == 1 { v[0].clone() } else { format!("{{{}}}", v.join(", ")) }
            };
            let s0: Vec<String> = lane_vs.iter().map(|l| elem(l, |v| v.src0)).collect();
            let s1: Vec<String> = lane_vs.iter().map(|l| elem(l, |v| v.src1)).collect();
            text += &fill(form, &lanes(addrs), &format!("[{}]", s0.join(" ")), &format!("[{}]", s1.join(" ")));
            text += "\n";
        }
    }
    text
}

/// Every bit of the compare-and-swap's equality comparator decides a
/// compare, and every bit of a swap value reaches memory: for every cas form
/// and width (PTX global and shared b16..b128, vISA SVM_ATOMIC cmpxchg
/// 16..64), 8 lanes on one address, in lane order. An even lane compares
/// equal to the value in memory and swaps in the next full-width pattern; an
/// odd lane's compare differs from it in exactly one bit, so it must fail.
/// Four bits per message, every bit of the width. The small builds reject
/// the widths they do not have.
fn compare_bits() -> String {
    // PTX: `atom.cas d, [a], b, c`: memory == b -> c; vISA cmpxchg: memory == src1 -> src0
    // the forms and widths from the isa tables: PTX cas's types, SVM_ATOMIC's cmpxchg widths
    let mut forms: Vec<(String, u32, bool)> = vec![];
    let cas = atomport_isa::PtxOpInfo::by_name("cas").expect("the PTX op table has cas");
    for space in ["global", "shared"] {
        for ty in cas.scalar_types {
            forms.push((format!("atom.{space}.cas.{} (8) d, {{addrs}}, {{cmp}}, {{swap}};", ty.name()), ty.elem_type().bits(), space == "shared"));
        }
    }
    let cmpxchg = atomport_isa::VisaOpInfo::by_name("cmpxchg").expect("the vISA op table has cmpxchg");
    let svm = atomport_isa::MsgKind::SvmAtomic.info();
    for &bits in svm.widths.iter().filter(|&&w| svm.allows_visa_op(cmpxchg, w)) {
        let suffix = if bits == 32 { String::new() } else { format!(".{bits}") };
        forms.push((format!("SVM_ATOMIC.cmpxchg{suffix} (8) {{addrs}} d {{swap}} {{cmp}}"), bits, false));
    }
    let mut text = String::from("slm size 65536\n");
    for (f, (form, bits, shared)) in forms.iter().enumerate() {
        let bits = *bits;
        let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
        // full-width patterns: alternating, walking, and hashed bits
        let mut k = f as u128 * 1000;
        let mut pattern = move || {
            k += 1;
            let hashed = 0x9e37_79b9_7f4a_7c15_f00d_cafe_1234_5678_u128.wrapping_mul(k) ^ (k << 64);
            let v = match k % 4 {
                0 => 0x5555_5555_5555_5555_5555_5555_5555_5555,
                1 => !(1u128 << (k % bits as u128)),
                2 => 0xaaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa,
                _ => hashed,
            };
            v & mask
        };
        let addr = 0x1000 + 0x100 * f as u128;
        let mut memory = pattern();
        let space = if *shared { "slm" } else { "mem" };
        text += &format!("{space}.u64 {addr:#x} = {:#x} {:#x}\n", memory as u64, (memory >> 64) as u64);
        for group in (0..bits).collect::<Vec<_>>().chunks(4) {
            let (mut cmp, mut swap) = (vec![], vec![]);
            for &bit in group {
                let next = pattern();
                cmp.push(memory);
                swap.push(next);
                memory = next;
                cmp.push(memory ^ (1u128 << bit));
                swap.push(pattern());
            }
            let addrs = lanes(std::iter::repeat(addr).take(8));
            text += &form.replace("{addrs}", &addrs).replace("{cmp}", &lanes(cmp)).replace("{swap}", &lanes(swap));
            text += "\n";
        }
        text += &format!("dump {}{addr:#x} 16\n", if *shared { "slm " } else { "" });
    }
    text
}

/// A reset with messages in flight: `before` runs unchecked for `cycles`
/// cycles, the reset comes, then `after` runs checked from it
/// ([`crate::session::run_after_reset_in_flight`]).
#[derive(Clone, Debug)]
pub struct ResetInFlight {
    pub before: Program,
    pub cycles: u64,
    pub after: Program,
    pub mem: MemConfig,
}

/// Resets at several depths into a random script (the first cycles of
/// the first message; the pipeline full; the in-flight table full, reads
/// waiting), each followed by another random script of every kind and
/// family.
pub fn resets_in_flight() -> Vec<ResetInFlight> {
    use super::generator::{random_script, GenConfig};
    let script = |seed: u64| random_script(seed, &GenConfig::every_family(100)).unwrap_or_else(|e| panic!("the generator failed on seed {seed:#x}: {e}")).program;
    [3u64, 17, 60, 150, 400]
        .iter()
        .enumerate()
        .map(|(k, &cycles)| ResetInFlight {
            before: script(0x7e5e_7000 + k as u64),
            cycles,
            after: script(0x7e5e_7100 + k as u64),
            mem: random_mem(43 + k as u64),
        })
        .collect()
}

/// The directed script `name` with `mem` (the first of that name).
pub fn script(name: &str) -> DirectedScript {
    scripts().into_iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no directed script {name}"))
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

/// Memory with edge values under every address the full unit's scripts use.
const MEMORY_SETUP: &str = "mem.u32 0x100 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe 5 0 0x8000 0xffff 0x7fff 1 0 9\n\
                            mem.u32 0x8000 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe\n\
                            slm.u32 0 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe 5 0 0x8000 0xffff\n";

/// The small builds' scripts' memory and surfaces.
const SMALL_MEMORY_SETUP: &str = "mem.u32 0x100 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe 5 0 0x8000 0xffff\n\
                            mem.u32 0x8000 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe\n\
                            slm.u32 0 = 0 1 0xffffffff 0x80000000 0x7fffffff 2 3 0xfffffffe\n\
                            surface 1 buffer base=0x8000 size=64\n\
                            surface 2 2d base=0x8000 width=4 height=2 format=u32\n";

/// Every integer op of SVM_ATOMIC (16, 32, 64 bits), DWORD_ATOMIC (16, 32
/// bits on T0, T255 and a buffer) and TYPED_ATOMIC (u32 and u16 texels),
/// lanes sharing addresses.
fn visa_ops() -> String {
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
    text
}

/// Every integer PTX op x type, global and shared, warp and single thread.
fn ptx_ops() -> String {
    let mut text = String::from(MEMORY_SETUP);
    // every op of the PTX op table with each of its integer scalar types
    for (k, row) in atomport_isa::PTX_OPS.iter().enumerate() {
        let op = &row.name;
        for ty in row.scalar_types.iter().filter(|t| !t.elem_type().is_float()) {
            let (ty, bits) = (ty.name(), ty.elem_type().bits());
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
            }
            let c1 = if *op == "cas" { format!(", {:#x}", c[1]) } else { String::new() };
            text += &format!("atom.{op}.{ty} d, [0x100], {:#x}{c1};\n", b[1]);
        }
    }
    text += "dump 0x100 64\ndump slm 0 64\n";
    text
}

/// Every exec size and mask control (M1..M8, _NM) of every kind against
/// several dmasks.
fn exec_masks() -> String {
    let mut text = String::from(MEMORY_SETUP);
    text += "surface 4 1d base=0x8000 width=16 format=u32\n";
    for (d, dmask) in [0xffff_ffffu32, 0xa5c3_0f96, 0x0000_0001, 0x8000_0000, 0].iter().enumerate() {
        text += &format!("dmask {dmask:#x}\n");
        for group in 1..=8 {
            for nm in ["", "_NM"] {
                let mc = format!("M{group}{nm}");
                for n in [1usize, 2, 4, 8] {
                    let a = lanes((0..n).map(|l| 0x100 + 4 * l as u128));
                    text += &format!("SVM_ATOMIC.add ({mc}, {n}) {a} d {} V0\n", lanes(values(n, 32, d as u128)));
                    text += &format!("SVM_SCATTER.4.1 ({mc}, {n}) {a} {}\n", lanes(values(n, 32, 1)));
                }
                for n in [1usize, 2, 4, 8, 16, 32] {
                    let o = lanes((0..n).map(|l| 4 * l as u128));
                    text += &format!("DWORD_ATOMIC.inc ({mc}, {n}) T0 {o} V0 V0 d\n");
                    let a = lanes((0..n).map(|l| 0x100 + 4 * (l as u128 % 8)));
                    text += &format!("atom.global.add.u32 ({mc}, {n}) d, {a}, {};\n", lanes(values(n, 32, 2)));
                }
                let u = lanes((0..8).map(|l| 2 * l as u128));
                text += &format!("TYPED_ATOMIC.add ({mc}, 8) 4 {u} V0 V0 V0 {} V0 d\n", lanes(values(8, 32, 3)));
                text += &format!("SVM_SCATTER.1.4 ({mc}, 16) {} {}\n", lanes((0..16).map(|l| 0x200 + 4 * l as u128)), lanes((0..64).map(|i| i as u128)));
            }
        }
    }
    text += "dump 0x100 64\ndump 0x200 64\ndump 0x8000 64\ndump slm 0 128\n";
    text
}

/// Predicates and their complements on every kind.
fn predicates() -> String {
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
    text
}

/// Lanes on one address: chains through memory, a lock, byte-exact
/// forwarding of 16-bit halves, 128-bit CAS and exchange, scatter blocks
/// landing on each other.
fn same_address() -> String {
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
    text
}

/// Lines that differ in one address bit, in flight together: for every bit
/// of a 64-bit line address, the lanes of one message alternate between a
/// line and that line with the bit flipped (each lane's old value comes
/// from the lane two before it, through the in-flight table). A line
/// compare that ignores a bit, or a stage's line register with a stuck
/// bit, forwards the wrong line's value; random addresses almost never
/// differ in exactly one bit. Then the same in SLM (32-bit offsets), and
/// one address in both spaces.
fn near_miss_lines() -> String {
    let mut text = String::new();
    let base: u64 = 0x5a5a_a5a5_3c3c_c3c0;
    for b in 0..60u32 {
        let (a, near) = (base, base ^ (16u64 << b));
        text += &format!("mem.u32 {a:#x} = {}\nmem.u32 {near:#x} = {}\n", 0x1000 + b, 0x2000 + b);
        let addrs = lanes((0..8).map(|l| if l % 2 == 0 { a as u128 } else { near as u128 }));
        text += &format!("SVM_ATOMIC.add (8) {addrs} g{b} {} V0\n", lanes((1..=8).map(|i| i as u128)));
    }
    text += "slm size 65536\n";
    for b in 0..12u32 {
        let (a, near) = (0x7c0u64 & !(16u64 << b), (0x7c0u64 & !(16u64 << b)) | (16u64 << b));
        text += &format!("slm.u32 {a:#x} = {}\nslm.u32 {near:#x} = {}\n", 0x3000 + b, 0x4000 + b);
        let addrs = lanes((0..8).map(|l| if l % 2 == 0 { a as u128 } else { near as u128 }));
        text += &format!("DWORD_ATOMIC.add (8) T0 {addrs} {} V0 s{b}\n", lanes((1..=8).map(|i| i as u128)));
    }
    // one offset in both spaces
    text += "mem.u32 0x40 = 0x55\nslm.u32 0x40 = 0x66\n";
    text += &format!("SVM_ATOMIC.add (8) {} g {} V0\n", lanes((0..8).map(|_| 0x40)), lanes(1..=8));
    text += &format!("DWORD_ATOMIC.add (8) T0 {} {} V0 s\n", lanes((0..8).map(|_| 0x40)), lanes(1..=8));
    text += &format!("SVM_ATOMIC.add (8) {} g2 {} V0\n", lanes((0..8).map(|_| 0x40)), lanes(1..=8));
    text += "dump slm 0x40 4\n";
    text
}

/// Every 32-bit word and 16-bit half of one line, swapped to a pattern by
/// one message and read-modify-written by a message 0 to 5 messages later,
/// the messages between writing the line's other words or halves: the old
/// value comes through the in-flight table, a write pushed into it the
/// cycle before, or an execute stage, depending on the distance and the
/// memory's latency, and the writes between land on the other bytes of the
/// same line. The patterns (all ones, all zeros, alternating bits and
/// nibbles) differ from each other in every bit, so one byte or bit taken
/// from the wrong write, or lost, shows in a result. Then the same with
/// whole lines of four lanes, in opposite lane orders, flat and SLM.
fn line_forwarding() -> String {
    const PATTERNS: [u128; 6] = [0xffff_ffff, 0, 0x5555_5555, 0xaaaa_aaaa, 0x0f0f_0f0f, 0xf0f0_f0f0];
    let mut text = String::from("mem.u32 0x2000 = 0x11111111 0x22222222 0x33333333 0x44444444 0x55555555 0x66666666 0x77777777 0x88888888\n");
    text += "slm.u32 0x40 = 0x11111111 0x22222222 0x33333333 0x44444444\n";
    let mut n = 0;
    let mut name = || {
        n += 1;
        format!("r{n}")
    };
    for gap in 0..=5usize {
        for word in 0..4usize {
            let (a, first, second) = (0x2000 + 4 * word, PATTERNS[(word + gap) % 6], PATTERNS[(word + gap + 3) % 6]);
            text += &format!("SVM_ATOMIC.xchg (1) [{a:#x}] {} [{first:#x}] V0\n", name());
            for k in 0..gap {
                let other = 0x2000 + 4 * ((word + 1 + k % 3) % 4);
                text += &format!("SVM_ATOMIC.xchg (1) [{other:#x}] {} [{:#x}] V0\n", name(), PATTERNS[(k + word) % 6]);
            }
            text += &format!("SVM_ATOMIC.xor (1) [{a:#x}] {} [{second:#x}] V0\n", name());
        }
        for half in 0..8usize {
            let a = 0x2010 + 2 * half;
            let (first, second) = (PATTERNS[(half + gap) % 6] & 0xffff, PATTERNS[(half + gap + 3) % 6] & 0xffff);
            text += &format!("SVM_ATOMIC.xchg.16 (1) [{a:#x}] {} [{first:#x}] V0\n", name());
            for k in 0..gap {
                let other = 0x2010 + 2 * ((half + 1 + k % 7) % 8);
                text += &format!("SVM_ATOMIC.xchg.16 (1) [{other:#x}] {} [{:#x}] V0\n", name(), PATTERNS[(k + half) % 6] & 0xffff);
            }
            text += &format!("SVM_ATOMIC.add.16 (1) [{a:#x}] {} [{second:#x}] V0\n", name());
        }
    }
    for round in 0..6usize {
        let line = lanes((0..4).map(|w| 0x2000 + 4 * w as u128));
        let backwards = lanes((0..4).rev().map(|w| 0x2000 + 4 * w as u128));
        text += &format!("SVM_ATOMIC.xchg (4) {line} {} {} V0\n", name(), lanes((0..4).map(|w| PATTERNS[(w + round) % 6])));
        text += &format!("SVM_ATOMIC.xor (4) {backwards} {} {} V0\n", name(), lanes((0..4).map(|w| PATTERNS[(w + round + 1) % 6])));
        text += &format!("DWORD_ATOMIC.xchg (4) T0 {} {} V0 {}\n", lanes((0..4).map(|w| 0x40 + 4 * w as u128)), lanes((0..4).map(|w| PATTERNS[(w + round) % 6])), name());
        text += &format!("DWORD_ATOMIC.or (4) T0 {} {} V0 {}\n", lanes((0..4).rev().map(|w| 0x40 + 4 * w as u128)), lanes((0..4).map(|w| PATTERNS[(w + round + 2) % 6])), name());
    }
    text += "dump 0x2000 32\ndump slm 0x40 16\n";
    text
}

/// Out-of-bounds lanes of SLM, buffers and every typed kind: zero
/// results, no access.
fn oob() -> String {
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
    text
}

/// Typed surfaces whose element index needs more than 32 bits: every
/// digit product of the typed address, deep LOD walks.
fn typed64() -> String {
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
    text
}

/// Every SVM_SCATTER layout and exec size.
fn scatter() -> String {
    let mut text = String::new();
    for (bs, nbs) in [(1u8, &[1u8, 2, 4][..]), (4, &[1, 2, 4][..]), (8, &[1, 2, 4][..])] {
        for &nb in nbs {
            for n in [1usize, 2, 4, 8, 16] {
                let stride = (bs as u128 * nb as u128).max(4);
                let addrs = lanes((0..n).map(|l| 0x400 + stride * ((l * 5) % n) as u128));
                let len = atomport_core::descriptor::scatter_src_len(bs, nb, n as u8);
                let mask = if bs == 8 { u64::MAX as u128 } else { (1u128 << (8 * bs)) - 1 };
                let src = lanes((0..len).map(|i| (0x0123_4567_89ab_cdef_u128.wrapping_mul(i as u128 + 1)) & mask));
                text += &format!("SVM_SCATTER.{bs}.{nb} ({n}) {addrs} {src}\n");
            }
        }
    }
    text += &format!("SVM_SCATTER.4.8 (8) {} {}\n", lanes((0..8).map(|l| 0x800 + 32 * l)), lanes((0..64).map(|i| i as u128 * 0x1001)));
    text += &format!("SVM_SCATTER.8.1 (16) {} {}\n", lanes((0..16).map(|l| 0xffff_ffff_0000_0000 + 8 * l)), lanes((0..16).map(|i| u64::MAX as u128 - i)));
    text += "dump 0x400 0x200\ndump 0x800 256\ndump 0xffffffff00000000 128\n";
    text
}

/// Everything the small builds admit: every integer op at 16 and 32 bits
/// on 8 lanes of every vISA kind, PTX ops at 32 bits and below, scatter
/// blocks up to 4 bytes.
fn small_admitted() -> String {
    let mut text = String::from(SMALL_MEMORY_SETUP);
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
        }
        let u = lanes((0..8).map(|l| l as u128 % 4));
        let v = lanes((0..8).map(|l| (l as u128 / 2) % 2));
        let (s0, s1) = src(8, 32, salt + 2);
        text += &format!("TYPED_ATOMIC.{op} (8) 2 {u} {v} V0 V0 {s0} {s1} d\n");
    }
    for (op, ty) in [("and", "b32"), ("or", "b32"), ("xor", "b32"), ("cas", "b16"), ("cas", "b32"), ("exch", "b32"), ("add", "u32"), ("add", "s32"), ("inc", "u32"), ("dec", "u32"), ("min", "s32"), ("max", "u32")] {
        let bits: u32 = ty[1..].parse().unwrap();
        let b = values(4, bits, 7);
        let c = if op == "cas" { format!(", {}", lanes(values(4, bits, 9))) } else { String::new() };
        let addrs = lanes((0..4).map(|l| 0x100 + (bits as u128 / 8) * (l as u128 % 3)));
        text += &format!("atom.{op}.{ty} (4) d, {addrs}, {}{c};\n", lanes(b.clone()));
        let c1 = if op == "cas" { format!(", {:#x}", values(4, bits, 9)[1]) } else { String::new() };
        text += &format!("atom.shared.{op}.{ty} d, [0x8], {:#x}{c1};\n", b[1]);
    }
    for (bs, nb) in [(1u8, 4u8), (4, 2), (4, 8)] {
        let n = 8usize;
        let addrs = lanes((0..n).map(|l| 0x400 + 32 * l as u128));
        let len = atomport_core::descriptor::scatter_src_len(bs, nb, n as u8);
        let mask = (1u128 << (8 * bs)) - 1;
        let src = lanes((0..len).map(|i| 0x0123_4567_89ab_cdef_u128.wrapping_mul(i as u128 + 1) & mask));
        text += &format!("SVM_SCATTER.{bs}.{nb} ({n}) {addrs} {src}\n");
    }
    text += "dump 0x100 48\ndump 0x400 256\ndump 0x8000 32\ndump slm 0 32\n";
    text
}

/// Messages the small builds (8 lanes, 32-bit, integer) do not admit, one
/// per limit, with the limit each breaks.
pub fn small_build_rejects() -> Vec<(String, ConfigLimit)> {
    let warp32 = format!("atom.xor.b32 (32) d, {}, {};", lanes((0..32).map(|l| 0x100 + 4 * (l % 4))), lanes((0..32).map(|l| 1u128 << l)));
    vec![
        ("DWORD_ATOMIC.add (16) T255 [0 4 8 12 16 20 24 28 0 4 8 12 16 20 24 28] [1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1] V0 d".into(), ConfigLimit::Lanes { exec_size: 16, max_lanes: 8 }),
        ("SVM_ATOMIC.add.64 (1) [0x100] d [5] V0".into(), ConfigLimit::Width { elem_bits: 64, data_bits: 32 }),
        ("atom.add.u64 d, [0x100], 5;".into(), ConfigLimit::Width { elem_bits: 64, data_bits: 32 }),
        ("atom.exch.b128 d, [0x100], 5;".into(), ConfigLimit::Width { elem_bits: 128, data_bits: 32 }),
        ("SVM_SCATTER.8.1 (2) [0x100 0x108] [1 2]".into(), ConfigLimit::Width { elem_bits: 64, data_bits: 32 }),
        ("atom.add.f32 d, [0x100], 0x3f800000;".into(), ConfigLimit::Float),
        ("SVM_ATOMIC.fmax (1) [0x100] d [0x3f800000] V0".into(), ConfigLimit::Float),
        ("atom.add.noftz.f16 d, [0x100], 0x3c00;".into(), ConfigLimit::Float),
        (warp32, ConfigLimit::Lanes { exec_size: 32, max_lanes: 8 }),
    ]
}

/// Each of [`small_build_rejects`] between two admitted adds on the same
/// word, so a stray access or a lost message shows in the results.
fn small_rejected() -> String {
    let mut text = String::from(SMALL_MEMORY_SETUP);
    for (k, (line, _)) in small_build_rejects().iter().enumerate() {
        text += &format!("SVM_ATOMIC.add (1) [0x100] r{k} [1] V0\n{line}\nSVM_ATOMIC.add (1) [0x100] s{k} [1] V0\n");
    }
    text += "dump 0x100 32\n";
    text
}

/// The legal messages the illegal descriptors are broken out of.
const ILLEGAL_BASE: &str = "surface 1 buffer base=0x8000 size=64\n\
                surface 2 2d base=0x9000 width=4 height=4 format=u32\n\
                mem.u32 0x100 = 1 2 3 4\n\
                SVM_ATOMIC.add (4) [0x100 0x104 0x108 0x10c] d [1 1 1 1] V0\n\
                DWORD_ATOMIC.inc (8) 1 [0 4 8 12 16 20 24 28] V0 V0 d\n\
                TYPED_ATOMIC.add (8) 2 [0 1 2 3 0 1 2 3] [0 0 0 0 1 1 1 1] V0 V0 [1 1 1 1 1 1 1 1] V0 d\n\
                SVM_SCATTER.4.2 (4) [0x200 0x208 0x210 0x218] [1 2 3 4 5 6 7 8]\n\
                atom.global.add.u32 (4) d, [0x100 0x104 0x108 0x10c], [1 2 3 4];\n";

/// The legal program of [`illegal_requests`].
pub fn illegal_base() -> Program {
    atomport_core::script::parse("illegal.atom", ILLEGAL_BASE).expect("the illegal descriptors' base script parses")
}

/// Illegal requests, each a legal message of [`illegal_base`] with one
/// field broken (a reserved code, an impossible combination, surface state
/// of the wrong kind), named.
pub fn illegal_requests() -> Vec<(&'static str, PinRequest)> {
    let program = illegal_base();
    let image = |index: usize| {
        let msg = program.messages().nth(index).expect("a message of the base script");
        driver::request(&program, &mut Encoder::new(), msg).expect("the base script encodes")
    };
    let with_byte = |req: &PinRequest, byte: usize, value: u8| {
        let mut r = req.clone();
        let mut b = r.desc.to_le_bytes();
        b[byte] = value;
        r.desc = u128::from_le_bytes(b);
        r
    };
    let (svm, dword, typed, scatter, ptx) = (image(0), image(1), image(2), image(3), image(4));
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
    // whole PTX descriptors (byte strings as the seed spec writes them), two
    // fields apart from a legal one: a cache hint where the PTX rules forbid it
    let ptx_desc = |hex: &str| {
        let mut b = [0u8; 16];
        for (k, byte) in hex.split_whitespace().flat_map(|w| (0..w.len()).step_by(2).map(move |i| &w[i..i + 2])).enumerate() {
            b[k] = u8::from_str_radix(byte, 16).expect("hex");
        }
        PinRequest { desc: u128::from_le_bytes(b), ..ptx.clone() }
    };
    cases.push(("PTX cache hint on .shared", ptx_desc("a7 25 04 03 00 80 0000 01 02 03 00 04")));
    cases.push(("PTX cas.b128 with a cache hint", ptx_desc("a7 23 03 01 00 80 0000 01 02 03 04 05")));
    let mut no_surface = dword.clone();
    no_surface.surf_kind = 7;
    cases.push(("DWORD surface with no surface state", no_surface));
    let mut typed_on_buffer = typed.clone();
    typed_on_buffer.surf_kind = 5;
    cases.push(("TYPED surface state is a buffer", typed_on_buffer));
    let mut dword_on_typed = dword;
    dword_on_typed.surf_kind = 2;
    cases.push(("DWORD surface state is typed", dword_on_typed));
    cases
}

/// Whether the golden decoder takes the request's descriptor bytes: some
/// length of them decodes and every byte past it is zero (the pins carry
/// a descriptor zero-extended to 16 bytes).
fn golden_takes(desc: u128) -> bool {
    let bytes = desc.to_le_bytes();
    (1..=bytes.len()).any(|len| bytes[len..].iter().all(|&b| b == 0) && atomport_core::descriptor::Descriptor::new(&bytes[..len]).is_ok())
}

/// Every value of every descriptor byte of [`illegal_base`]'s messages,
/// one byte changed at a time, that the golden decoder takes with the
/// message's own payload: another legal message (another op, width, type,
/// exec size, mask or surface), in the script's text as the codec decodes
/// it, one line each (duplicates once). The refused values are
/// [`descriptor_byte_sweep`]'s; these are each field's every legal code
/// beside otherwise fixed fields, which random scripts reach only by chance.
fn descriptor_values() -> String {
    let program = illegal_base();
    let setup: String = ILLEGAL_BASE.lines().filter(|l| l.starts_with("surface") || l.starts_with("mem")).map(|l| format!("{}\n", l.trim())).collect();
    let mut lines = std::collections::BTreeSet::new();
    let mut text = setup.clone();
    for msg in program.messages() {
        let enc = atomport_core::descriptor::encode(msg).expect("the base script encodes");
        for byte in 0..enc.desc.len() {
            for value in (0..=255u8).filter(|&v| v != enc.desc[byte]) {
                let mut desc = enc.desc.clone();
                desc[byte] = value;
                let Ok(m) = atomport_core::descriptor::decode_message(&desc, &enc.payload) else { continue };
                let line = atomport_core::text::message_text(&m);
                // the text form parses back to a legal message beside the setup
                if atomport_core::script::parse("v.atom", &format!("{setup}{line}\n")).is_ok() && lines.insert(line.clone()) {
                    text += &line;
                    text.push('\n');
                }
            }
        }
    }
    text
}

/// Every single-bit flip of the descriptors of [`illegal_base`]'s messages
/// that the golden decoder refuses, named by message kind and bit. A flip
/// the decoder takes is another legal message (with a payload that may not
/// fit it) and is left to the random regressions.
pub fn descriptor_flips() -> Vec<(String, PinRequest)> {
    let program = illegal_base();
    let mut cases = vec![];
    for msg in program.messages() {
        let req = driver::request(&program, &mut Encoder::new(), msg).expect("the base script encodes");
        let kind = format!("{:?}", msg.kind());
        for bit in 0..128 {
            let mut flipped = req.clone();
            flipped.desc ^= 1u128 << bit;
            if !golden_takes(flipped.desc) {
                cases.push((format!("{kind} descriptor bit {bit} flipped"), flipped));
            }
        }
    }
    cases
}

/// Every value of every descriptor byte of [`illegal_base`]'s messages, one
/// byte changed at a time, that the golden decoder refuses, named by kind,
/// byte and value: each field's every code beside otherwise legal fields,
/// so each refusal is the one broken field's (a superset of
/// [`descriptor_flips`]); and for PTX every pair of Op, Type and Space
/// codes the decoder refuses (which types and spaces an op takes is a
/// table: a wrong row shows only with both changed). A value the decoder takes is another
/// legal message, left to the random regressions.
pub fn descriptor_byte_sweep() -> Vec<(String, PinRequest)> {
    let program = illegal_base();
    let mut cases = vec![];
    for msg in program.messages() {
        let req = driver::request(&program, &mut Encoder::new(), msg).expect("the base script encodes");
        let kind = format!("{:?}", msg.kind());
        for byte in 0..16 {
            let base = req.desc.to_le_bytes()[byte];
            for value in (0..=255u8).filter(|&v| v != base) {
                let mut changed = req.clone();
                let mut bytes = changed.desc.to_le_bytes();
                bytes[byte] = value;
                changed.desc = u128::from_le_bytes(bytes);
                if !golden_takes(changed.desc) {
                    cases.push((format!("{kind} descriptor byte {byte} = {value:#04x}"), changed));
                }
            }
        }
        // PTX's Op, Type and Space fields each sit in a byte of their own, and
        // which types and spaces an op takes is a table: every pair of codes
        // of two of those fields (both changed), that the golden decoder refuses
        if msg.kind() == atomport_isa::MsgKind::PtxAtom {
            // Op (bits 0..3, the cache-hint bit 5), Type (0..3, vector 4..5), Space (0..2)
            let fields: [(usize, Vec<u8>); 3] = [
                (1, (0..16u8).flat_map(|op| [op, op | 0x20]).collect()),
                (2, (0..64u8).collect()),
                (3, (0..8u8).collect()),
            ];
            let bytes = req.desc.to_le_bytes();
            for (i, (a, a_values)) in fields.iter().enumerate() {
                for (b, b_values) in &fields[i + 1..] {
                    for &va in a_values.iter().filter(|&&v| v != bytes[*a]) {
                        for &vb in b_values.iter().filter(|&&v| v != bytes[*b]) {
                            let mut changed = req.clone();
                            let mut d = bytes;
                            (d[*a], d[*b]) = (va, vb);
                            changed.desc = u128::from_le_bytes(d);
                            if !golden_takes(changed.desc) {
                                cases.push((format!("{kind} descriptor bytes {a} = {va:#04x}, {b} = {vb:#04x}"), changed));
                            }
                        }
                    }
                }
            }
        }
    }
    cases
}

/// What went wrong in [`run_illegal_requests`].
#[derive(Debug, thiserror::Error)]
pub enum IllegalRunError {
    #[error("{0}")]
    Rtl(#[from] RtlError),
    #[error("{0}")]
    Mismatch(String),
    #[error("{flagged} of {cases} illegal requests ended with rsp_error")]
    NotFlagged { flagged: usize, cases: usize },
}

/// The messages [`run_misaligned`] moves lanes of off their alignment:
/// every kind whose lanes carry an address, 16- to 64-bit elements, scatter
/// blocks of 4 and 8 bytes (several per lane), a PTX vector.
const MISALIGNED_BASE: &str = "surface 1 buffer base=0x8000 size=64\n\
                SVM_ATOMIC.add (4) [0x100 0x104 0x108 0x10c] d [1 1 1 1] V0\n\
                SVM_ATOMIC.xchg.16 (2) [0x140 0x142] e [7 8] V0\n\
                SVM_ATOMIC.add.64 (2) [0x180 0x188] f [1 2] V0\n\
                DWORD_ATOMIC.inc (8) 1 [0 4 8 12 16 20 24 28] V0 V0 g\n\
                DWORD_ATOMIC.cmpxchg.16 (4) 1 [32 34 36 38] [5 5 5 5] [0 0 0 0] h\n\
                SVM_SCATTER.4.2 (4) [0x200 0x208 0x210 0x218] [1 2 3 4 5 6 7 8]\n\
                SVM_SCATTER.4.4 (2) [0x300 0x310] [1 2 3 4 5 6 7 8]\n\
                SVM_SCATTER.8.2 (2) [0x340 0x350] [1 2 3 4]\n\
                atom.global.add.u32 (4) i, [0x100 0x104 0x108 0x10c], [1 2 3 4];\n\
                atom.global.cas.b16 j, [0x160], 0, 9;\n\
                atom.global.v2.f32.add k, [0x170], {1.0 2.0};\n";

/// The base script of [`run_misaligned`].
fn misaligned_base() -> Program {
    atomport_core::script::parse("misaligned.atom", MISALIGNED_BASE).expect("the misaligned lanes' base script parses")
}

/// How many misaligned requests [`run_misaligned`] issues: one per enabled
/// lane of each base message.
pub fn misaligned_requests() -> usize {
    misaligned_base().messages().map(|m| m.lane_enables().count_ones() as usize).sum()
}

/// Issues each message of a base script once per enabled lane with that
/// lane's address one byte off its alignment on the pins, each followed by
/// the message clean, in lockstep with the golden model (memory from
/// `seed`): the misaligned lane makes no access and returns 0, the others
/// execute, the message ends with `rsp_error`, and the unit recovers. A
/// build that does not admit a message rejects it whole. Returns the
/// misaligned requests issued.
pub fn run_misaligned<P: UnitPins>(dut: P, seed: u64) -> Result<usize, IllegalRunError> {
    let program = misaligned_base();
    let opts = RtlOptions { mem: random_mem(seed), vcd: None, fst: None };
    let mut session = Session::new(dut, &opts, Some(Scoreboard::new(Machine::new(&program))))?;
    let mut encoder = Encoder::new();
    let mut issued = 0;
    for msg in program.messages() {
        let enables = msg.lane_enables();
        for lane in (0..32).filter(|l| enables >> l & 1 == 1) {
            session.issue_misaligned(&program, &mut encoder, msg, lane)?;
            session.issue(&program, &mut encoder, msg)?;
            issued += 1;
        }
    }
    session.finish()?;
    if let Some(m) = session.mismatch() {
        return Err(IllegalRunError::Mismatch(m.to_string()));
    }
    Ok(issued)
}

/// Issues every illegal request between legal messages of [`illegal_base`]
/// (memory from `seed`), in lockstep with the golden model: each must end
/// with `rsp_error`, no access and no result, and the unit must recover.
pub fn run_illegal_requests<P: UnitPins>(dut: P, seed: u64) -> Result<(), IllegalRunError> {
    let cases: Vec<(String, PinRequest)> = illegal_requests().into_iter().map(|(n, r)| (n.to_string(), r)).collect();
    run_illegal(dut, seed, &cases)
}

/// [`run_illegal_requests`] for any named illegal requests (each must
/// end with `rsp_error`, no access, no result), between legal messages of
/// [`illegal_base`].
pub fn run_illegal<P: UnitPins>(dut: P, seed: u64, cases: &[(String, PinRequest)]) -> Result<(), IllegalRunError> {
    let program = illegal_base();
    let opts = RtlOptions { mem: random_mem(seed), vcd: None, fst: None };
    let mut session = Session::new(dut, &opts, Some(Scoreboard::new(Machine::new(&program))))?;
    let mut encoder = Encoder::new();
    session.backdoor_write(Space::Flat, 0x100, &[1, 0, 0, 0, 2, 0, 0, 0])?;
    let legal: Vec<_> = program.messages().cloned().collect();
    for (k, (name, req)) in cases.iter().enumerate() {
        session.issue_illegal(req.clone(), 0, name);
        session.issue(&program, &mut encoder, &legal[k % legal.len()])?;
    }
    session.finish()?;
    if let Some(m) = session.mismatch() {
        return Err(IllegalRunError::Mismatch(m.to_string()));
    }
    let flagged: std::collections::BTreeSet<String> = session.illegal_flags().into_iter().map(|f| f.text).collect();
    if flagged.len() != cases.len() {
        return Err(IllegalRunError::NotFlagged { flagged: flagged.len(), cases: cases.len() });
    }
    Ok(())
}
