//! Test helper for the leaf blocks' model tests: a block's emitted Verilog
//! simulated by Icarus (`iverilog`, which `make test` installs), and the
//! inputs the tests share (a seeded random stream, float corner values).

/// Whether `iverilog` is here. On CI it must be (the test fails there
/// without it); elsewhere a test without it says so and returns early.
pub(crate) fn available() -> bool {
    let here = std::process::Command::new("iverilog").arg("-V").output().map(|o| o.status.success()).unwrap_or(false);
    assert!(here || std::env::var_os("CI").is_none(), "iverilog missing on CI (make test installs it)");
    if !here {
        eprintln!("skipped: no iverilog");
    }
    here
}

/// Compiles `dut` (the block's Verilog, top module `top`) with `bench`
/// (module `bench`), runs it, and returns the non-empty lines it printed.
/// `name` keeps concurrent tests' files apart.
pub(crate) fn run(name: &str, dut: &str, bench: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("atomport-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (dut_file, bench_file, sim) = (dir.join("dut.v"), dir.join("bench.v"), dir.join("sim"));
    std::fs::write(&dut_file, dut).unwrap();
    std::fs::write(&bench_file, bench).unwrap();
    let built = std::process::Command::new("iverilog")
        .args(["-g2012", "-s", "bench", "-o"])
        .args([&sim, &dut_file, &bench_file])
        .output()
        .unwrap();
    assert!(built.status.success(), "iverilog: {}", String::from_utf8_lossy(&built.stderr));
    let ran = std::process::Command::new("vvp").arg("-n").arg(&sim).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&ran.stdout).lines().filter(|l| !l.trim().is_empty()).map(str::to_owned).collect()
}

/// A seeded xorshift64 stream: the benches' random inputs, the same on
/// every run (the seed is in each test).
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// A float format's corner values, both signs: zero, smallest and largest
/// subnormal, smallest normal, one and one ulp above, largest normal,
/// infinity, a signaling and the canonical NaN.
pub(crate) fn float_corners(f: atomport_core::golden::soft_float::Format) -> Vec<u64> {
    let max_normal = ((f.exp_max() - 1) << f.man_bits) | f.man_mask();
    let positive = [0, 1, f.man_mask(), f.man_mask() + 1, f.one(), f.one() + 1, max_normal, f.inf(), f.inf() | 1, f.canonical_nan()];
    positive.iter().flat_map(|&x| [x, x | f.sign_bit()]).collect()
}
