//! Script-level tests: text through the parser into the golden model, and
//! every example in examples/ runs with the values worked out in its
//! comments.

use crate::outcome::RunOutput;
use crate::script::parse;

fn run(text: &str) -> RunOutput {
    let program = parse("t.atom", text).unwrap_or_else(|d| panic!("{d}"));
    crate::golden::run(&program)
}

fn run_example(name: &str) -> RunOutput {
    let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let program = crate::script::parse_file(&path).unwrap_or_else(|d| panic!("{d}"));
    crate::golden::run(&program)
}

/// Lanes of the result named `name`.
fn lanes(out: &RunOutput, name: &str) -> Vec<Option<u128>> {
    out.results.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no result {name}")).lanes.clone()
}

/// The bytes of the dump at `addr` as little-endian u32s.
fn dump_u32(out: &RunOutput, addr: u64) -> Vec<u32> {
    let d = out.dumps.iter().find(|d| d.addr == addr).unwrap_or_else(|| panic!("no dump at {addr:#x}"));
    d.bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn every_example_parses_and_runs() {
    let dir = format!("{}/../examples", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".atom"))
        .collect();
    names.sort();
    for want in
        ["histogram.atom", "lock.atom", "ptx_warp_reduction.atom", "typed_2d.atom", "scatter_mixed.atom", "fp.atom"]
    {
        assert!(names.iter().any(|n| n == want), "examples/{want} is missing");
    }
    for name in names {
        let out = run_example(&name);
        assert!(!out.dumps.is_empty(), "{name} dumps nothing");
        assert!(!out.txns.is_empty(), "{name} touches no memory");
    }
}

#[test]
fn histogram_example_counts_every_sample() {
    let out = run_example("histogram.atom");
    // 32 samples into bins, then the first 16 again weighted 0x100, then +1 on bin 7
    assert_eq!(dump_u32(&out, 0x1000), vec![0x103, 0x304, 0x204, 0x307, 0x103, 0x304, 0x103, 0x205]);
    let slot = lanes(&out, "slot");
    assert_eq!(&slot[..4], &[Some(0), Some(0), Some(0), Some(1)]); // samples 3 1 4 1
    assert!(lanes(&out, "weighted")[16..].iter().all(|l| l.is_none()));
    assert_eq!(lanes(&out, "edge"), vec![Some(0x204), Some(0)]);
    assert_eq!(dump_u32(&out, 0x2000), vec![6, 0]);
}

#[test]
fn lock_example_lets_one_owner_in_at_a_time() {
    let out = run_example("lock.atom");
    assert_eq!(lanes(&out, "acquire"), [vec![Some(0)], vec![Some(1); 7]].concat());
    assert_eq!(lanes(&out, "retry")[1], Some(0));
    assert_eq!(dump_u32(&out, 0x100), vec![0, 1012]);
    assert_eq!(lanes(&out, "got"), vec![Some(0)]);
    assert_eq!(lanes(&out, "rel"), vec![Some(9)]);
}

#[test]
fn ptx_warp_example_sums() {
    let out = run_example("ptx_warp_reduction.atom");
    let partial = lanes(&out, "partial");
    for (i, l) in partial.iter().enumerate() {
        assert_eq!(*l, Some((i * (i + 1) / 2) as u128));
    }
    assert_eq!(dump_u32(&out, 0x100), vec![528]);
    assert_eq!(dump_u32(&out, 0x200), vec![120, 128, 136, 144]);
    assert_eq!(dump_u32(&out, 0x300), vec![264.0f32.to_bits(), 256]);
    assert_eq!(lanes(&out, "h2"), vec![Some(0x4000_3c00)]);
    assert_eq!(dump_u32(&out, 0x420), vec![0xbc00_3e00]);
}

#[test]
fn fp_example_values() {
    let out = run_example("fp.atom");
    let f = |x: f32| x.to_bits();
    assert_eq!(dump_u32(&out, 0x100), vec![f(2.0), f(5.0), 0, 0x7fc0_0123, 0xff80_0000, f(3.5), 0, 0x7f80_0000]);
    assert_eq!(dump_u32(&out, 0x300), vec![f(100.0), f(200.0), 0x7fc0_0000, f(7.0)]);
    assert_eq!(dump_u32(&out, 0x500), vec![f(3.0), 0, 0, 0x7f80_0000]);
    assert_eq!(dump_u32(&out, 0x710), vec![0x4380_4000]);
    assert_eq!(dump_u32(&out, 0x800), vec![0x7fff_ffff]);
}

#[test]
fn typed_example_levels() {
    let out = run_example("typed_2d.atom");
    assert_eq!(dump_u32(&out, 0x10080), vec![1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80]);
    assert_eq!(dump_u32(&out, 0x100a0), vec![4, 1]);
    assert_eq!(lanes(&out, "lvl2"), [0, 0, 0, 0, 1, 2, 0, 3].map(Some).to_vec());
}

#[test]
fn scatter_example_layouts() {
    let out = run_example("scatter_mixed.atom");
    assert_eq!(dump_u32(&out, 0x100)[..8], [0xb0, 0xc0, 0, 0, 0xa1, 0xb1, 0, 0]);
    let row1 = dump_u32(&out, 0x400)[8..16].to_vec();
    assert_eq!(row1, (0..8).map(|j| 8 * j + 1).collect::<Vec<u32>>());
}

#[test]
fn dmask_and_predicate_state_is_positional() {
    let out = run("pred p = 0b0110\n\
         dmask 0b1110\n\
         (p) SVM_ATOMIC.inc (4) [0 4 8 12] a V0 V0\n\
         dmask 0xffffffff\n\
         (!p) SVM_ATOMIC.inc (4) [0 4 8 12] b V0 V0\n\
         dump 0 16");
    assert_eq!(lanes(&out, "a"), vec![None, Some(0), Some(0), None]);
    assert_eq!(lanes(&out, "b"), vec![Some(0), None, None, Some(0)]);
    assert_eq!(dump_u32(&out, 0), vec![1, 1, 1, 1]);
}

#[test]
fn sixteen_bit_results_are_16_bit_values_and_slm_is_separate() {
    let out = run("slm.u16 0 = 0xffff 7\n\
         mem.u16 0 = 1 1\n\
         DWORD_ATOMIC.add.16 (2) T0 [0 2] [0x10001 0x10002] V0 r\n\
         dump slm 0 4\n\
         dump 0 4");
    let r = &out.results[0];
    assert_eq!(r.width, 16);
    assert_eq!(r.lanes, vec![Some(0xffff), Some(7)]);
    assert_eq!(out.dumps[0].bytes, vec![0, 0, 9, 0]);
    assert_eq!(out.dumps[1].bytes, vec![1, 0, 1, 0]);
}

#[test]
fn slm_size_bounds_from_the_script() {
    let out = run("slm size 8\n\
         DWORD_ATOMIC.xchg (4) T0 [0 4 8 12] [1 2 3 4] V0 r\n\
         dump slm 0 8");
    assert_eq!(lanes(&out, "r"), vec![Some(0), Some(0), Some(0), Some(0)]);
    assert_eq!(out.dumps[0].bytes, vec![1, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(out.txns.len(), 4);
}
