//! Verilates every checked-in `hdl/verilog/<top>.v` (one model per file, the
//! top module named like the file; and every build variant in
//! `hdl/verilog/variants/`, each on its own), compiles the models and Verilator's
//! runtime with the `cc` crate at opt-level 3 (always, also in debug and test
//! builds; a model's run-once `*__Slow.cpp` at opt-level 0, [`is_run_once`]), and writes `$OUT_DIR/models.rs` (included by `src/lib.rs`): one
//! `verilated_model!` invocation per model (src/model.rs holds the code).
//!
//! Per top `<t>` it writes `$OUT_DIR/<t>/shim.cpp`: the macros that
//! `cpp/atomport_sim_model.inc` takes (names, the ports in the header's
//! order), then that file, which defines the `extern "C"` entry points
//! `atomport_sim_<t>_*` (new, port pointers, eval, trace, final, delete).
//! The ports come from Verilator's generated header; a unit model's must be
//! the port table's (`atomport_isa::ports`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `verilator` options shared by every model (DEVELOPERS.md, Stack). Tracing
/// is compiled in (`--trace` or `--trace-fst`, see [`TraceFormat`]); it
/// costs nothing until a trace file is opened. The `--x-assign`/`--x-initial`
/// pair comes from [`x_options`].
const VERILATOR_ARGS: &[&str] = &[
    "--cc",
    "--no-timing",
    "-O3",
    // Trace the top scope only: it carries every port plus rust-hdl's copies
    // of each sub-block's ports (`alu$old_value`, `issue_state$q`, ...), which
    // is the state worth seeing; the sub-blocks' insides would more than
    // double the VCD volume and the cost of a traced run (docs/waveforms.md).
    "--trace-depth",
    "1",
    // one VCD time unit = 1 ns; the wrappers' clock period is 10 ns
    "--timescale",
    "1ns/1ns",
];

/// The waveform format a model writes. Verilator compiles one format into a
/// model, so the unit's models (the tops `run` and `regress` trace) are
/// verilated twice: `V<Top>` writes VCD, `V<Top>Fst` writes FST (`--fst`,
/// docs/waveforms.md). Every other model writes VCD only.
#[derive(Clone, Copy, PartialEq)]
enum TraceFormat {
    Vcd,
    Fst,
}

/// Whether `top` also gets an FST-tracing model: the unit and its builds
/// (pipelined `atomic_unit*`, serial `serial_unit*`).
fn has_fst_model(top: &str) -> bool {
    top.starts_with("atomic_unit") || top.starts_with("serial_unit")
}

/// The `rtl-coverage` feature: Verilator's `--coverage` (line, toggle,
/// user points) in every model, summed over the process and written at exit
/// (cpp/atomport_sim_cov.cpp; `make rtl-coverage`, docs/testbench.md). Off
/// in every other build: the counters cost simulation speed.
fn rtl_coverage() -> bool {
    std::env::var_os("CARGO_FEATURE_RTL_COVERAGE").is_some()
}

/// Whether the coverage build compiles model `top` (with `trace`): only the
/// unit's VCD models (`make rtl-coverage` runs `regress` on them). Every other
/// model (the FST twins, the ALU alone) keeps its Rust type, but its shim is a
/// stub whose `new` fails: `--coverage` multiplies each model's C++ about
/// thirtyfold, and those models measure nothing a coverage run reports.
fn compiled_in_coverage(top: &str, trace: TraceFormat) -> bool {
    trace == TraceFormat::Vcd && has_fst_model(top)
}

/// The coverage build's C++ of the models, apart from the runtime (`-O3`):
/// each `*__Slow.cpp` (construction, the coverage points' registration, the
/// initial settle; run once per model) at `-O0` and the rest at `-O1`. At
/// `-O3` the instrumented unit alone is days of compiler time on two cores;
/// at these levels the three unit models build in minutes.
struct CoverageObjects {
    fast: cc::Build,
    slow: cc::Build,
}

/// Whether `source` is one of Verilator's `*__Slow.cpp`: the construction,
/// the initial settle and the trace declarations, run once per model. They
/// are compiled at `-O0` (the rest of the model at `-O3`): a third of the
/// models' compile time at `-O3`, and none of the per-cycle code.
fn is_run_once(source: &Path) -> bool {
    source.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s.ends_with("__Slow"))
}

/// The `x-unique` feature ("reset is real"): every model
/// verilated with `--x-initial unique --x-assign unique`, and the registers'
/// power-up values (rust-hdl's `initial begin q = ...; end` in every DFF) left
/// out of the Verilog it verilates, so each register starts at a value drawn
/// from `+verilator+seed` (the shim applies `$ATOMPORT_VERILATOR_SEED`,
/// cpp/atomport_sim.cpp). A design that passes only from all-zero registers
/// fails there. `make long` runs it (`make x-unique`).
fn x_unique() -> bool {
    std::env::var_os("CARGO_FEATURE_X_UNIQUE").is_some()
}

/// `--x-assign` and `--x-initial`: `fast` normally, `unique` with `x-unique`.
fn x_options() -> [&'static str; 4] {
    let mode = if x_unique() { "unique" } else { "fast" };
    ["--x-assign", mode, "--x-initial", mode]
}

/// The Verilog to verilate for `path`: the file itself, or with `x-unique`
/// a copy under `$OUT_DIR/x-unique/` without the registers' power-up
/// `initial` blocks. Fails if any other `initial` block is left (the run
/// would then not test what it claims) or if none was found in a file that
/// has registers.
fn verilog_for_build(path: &Path, out: &Path) -> PathBuf {
    if !x_unique() {
        return path.to_path_buf();
    }
    let text = std::fs::read_to_string(path).unwrap();
    let (stripped, removed) = strip_power_up_values(&text);
    if stripped.contains("initial") {
        fail(&format!("{}: an `initial` block the x-unique build cannot remove", path.display()));
    }
    if removed == 0 && text.contains("always @(posedge") {
        fail(&format!("{}: registers without power-up values? the x-unique build expected some", path.display()));
    }
    let dir = out.join("x-unique");
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join(path.file_name().unwrap());
    std::fs::write(&copy, stripped).unwrap();
    copy
}

/// The power-up values the x-unique build strips, shared with the crate
/// (its unit tests run with the crate's).
#[path = "src/power_up_values.rs"]
mod power_up_values;
use power_up_values::strip_power_up_values;

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(1);
}

/// The header parser, shared with the models verilated at run time (its
/// unit tests run with the crate's).
#[path = "src/verilator_header.rs"]
mod verilator_header;
use verilator_header::HeaderPort as Port;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cpp");
    println!("cargo:rerun-if-env-changed=VERILATOR_ROOT");
    println!("cargo::rustc-check-cfg=cfg(atomport_unit_bench)");
    if x_unique() {
        println!("cargo:warning=x-unique: models verilated with --x-initial unique --x-assign unique, registers without power-up values");
    }

    let root = verilator_root();
    let include = root.join("include");

    let tops = verilog_files(&manifest.join("../hdl/verilog"));
    // Build variants (`hdl/verilog/variants/`): self-contained, each its own root.
    let variants = verilog_files(&manifest.join("../hdl/verilog/variants"));
    // Hand-written test fixtures of the binding's own tests (a clocked
    // model, a Verilog `$stop`); never part of the RTL.
    let fixtures = verilog_files(&manifest.join("fixtures"));

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        // Verilated code is slow unoptimized: opt-level 3 even in debug/test
        // builds (about 5% faster than 2 on the unit, docs/synthesis.md
        // "Simulation speed"; no `-march`: the binary stays portable)
        .opt_level(3)
        .debug(false)
        .warnings(false)
        .cargo_warnings(false)
        .include(&include)
        .include(include.join("vltstd"))
        .include(manifest.join("cpp"))
        .define("VM_COVERAGE", if rtl_coverage() { "1" } else { "0" })
        .define("ATOMPORT_SIM_X_UNIQUE", if x_unique() { "1" } else { "0" })
        .define("VM_SC", "0")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_VCD", "1")
        .define("VM_TRACE_FST", "1")
        .define("VM_TRACE_FST", "0")
        .define("VL_USER_FATAL", None)
        .flag("-faligned-new")
        .flag("-pthread");
    let mut coverage_objects = rtl_coverage().then(|| {
        let mut fast = build.clone();
        fast.opt_level(1);
        let mut slow = build.clone();
        slow.opt_level(0);
        CoverageObjects { fast, slow }
    });
    // the models' run-once code ([`is_run_once`])
    let mut run_once = build.clone();
    run_once.opt_level(0);
    for f in ["verilated.cpp", "verilated_vcd_c.cpp", "verilated_fst_c.cpp", "verilated_threads.cpp"] {
        build.file(include.join(f));
    }
    build.file(manifest.join("cpp/atomport_sim.cpp"));
    if rtl_coverage() {
        build.file(include.join("verilated_cov.cpp"));
        build.file(manifest.join("cpp/atomport_sim_cov.cpp"));
    }

    let mut rust = String::new();
    rust.push_str("// Generated by atomport-sim's build.rs from Verilator's model headers. Do not edit.\n");
    let mut top_names = vec![];
    let tops: Vec<(String, PathBuf)> = tops.into_iter().map(|(t, p)| (t, verilog_for_build(&p, &out))).collect();
    let variants: Vec<(String, PathBuf)> =
        variants.into_iter().map(|(t, p)| (t, verilog_for_build(&p, &out))).collect();
    let all_files: Vec<PathBuf> = tops.iter().map(|(_, p)| p.clone()).collect();
    for (top, path) in &tops {
        // the other tops' files are libraries: a top may instantiate another
        // (the unit instantiates `atomic_alu` from atomic_alu.v)
        let libs: Vec<PathBuf> = all_files.iter().filter(|p| *p != path).cloned().collect();
        rust.push_str(&verilate(top, TraceFormat::Vcd, path, &libs, &out, &mut build, &mut run_once, &mut coverage_objects));
        if has_fst_model(top) {
            rust.push_str(&verilate(top, TraceFormat::Fst, path, &libs, &out, &mut build, &mut run_once, &mut coverage_objects));
        }
        top_names.push(top.clone());
    }
    for (top, path) in &variants {
        rust.push_str(&verilate(top, TraceFormat::Vcd, path, &[], &out, &mut build, &mut run_once, &mut coverage_objects));
        if has_fst_model(top) {
            rust.push_str(&verilate(top, TraceFormat::Fst, path, &[], &out, &mut build, &mut run_once, &mut coverage_objects));
        }
        top_names.push(top.clone());
    }
    let _ = writeln!(rust, "\n/// The top modules this build verilated.\npub const TOPS: &[&str] = &{top_names:?};");
    rust.push_str("\n/// Test fixtures of the binding itself (`sim/fixtures/`), not RTL.\n#[doc(hidden)]\npub mod fixtures {\n");
    for (top, path) in &fixtures {
        rust.push_str(&verilate(top, TraceFormat::Vcd, path, &[], &out, &mut build, &mut run_once, &mut None));
    }
    rust.push_str("}\n");

    // The C++ speed baseline for the ALU (benches/alu_speed.rs; its model is
    // a stub in the coverage build).
    if top_names.iter().any(|t| t == "atomic_alu") && !rtl_coverage() {
        build.file(manifest.join("cpp/bench_atomic_alu.cpp"));
    }
    // The C++ speed baseline for the unit (`atomport bench`, testbench/src/bench.rs).
    if top_names.iter().any(|t| t == "atomic_unit") {
        build.file(manifest.join("cpp/bench_atomic_unit.cpp"));
        println!("cargo:rustc-cfg=atomport_unit_bench");
    }

    std::fs::write(out.join("models.rs"), rust).unwrap();
    build.objects(run_once.compile_intermediates());
    if let Some(c) = &coverage_objects {
        build.objects(c.slow.compile_intermediates());
        build.objects(c.fast.compile_intermediates());
    }
    build.compile("atomport_sim_models");
    println!("cargo:rustc-link-lib=pthread");
    // FST's block compression (verilated_fst_c.cpp -> gtkwave/fstapi.c)
    println!("cargo:rustc-link-lib=z");
}

/// The `<top>.v` files of `dir`, sorted, each registered for rebuilds.
fn verilog_files(dir: &Path) -> Vec<(String, PathBuf)> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())));
    let mut files = vec![];
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) == Some("v") {
            println!("cargo:rerun-if-changed={}", path.display());
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            files.push((stem, path));
        }
    }
    files.sort();
    files
}

/// Verilates `path` (top module `top`, with `libs` as Verilog libraries for
/// the modules it instantiates) into `$OUT_DIR/<top>/`, adds its C++ and its
/// shim to `build` (its run-once code to `run_once`), and returns its Rust wrapper.
///
/// In the coverage build (`coverage` is `Some`) a model the coverage run
/// measures ([`compiled_in_coverage`]) gets `--coverage` and its C++ goes to
/// `coverage`'s builds; any other model is verilated for its ports only and
/// gets a stub shim ([`stub_shim`]).
fn verilate(
    top: &str,
    trace: TraceFormat,
    path: &Path,
    libs: &[PathBuf],
    out: &Path,
    build: &mut cc::Build,
    run_once: &mut cc::Build,
    coverage: &mut Option<CoverageObjects>,
) -> String {
    let stub = coverage.is_some() && !compiled_in_coverage(top, trace);
    let text = std::fs::read_to_string(path).unwrap();
    if !text.contains(&format!("module {top}(")) {
        fail(&format!("{}: no `module {top}(`: the top module must be named like its file", path.display()));
    }
    let label = match trace {
        TraceFormat::Vcd => top.to_string(),
        TraceFormat::Fst => format!("{top}_fst"),
    };
    let mdir = out.join(&label);
    let _ = std::fs::remove_dir_all(&mdir);
    std::fs::create_dir_all(&mdir).unwrap();
    let prefix = format!("V{label}");
    let trace_flag = match trace {
        TraceFormat::Vcd => "--trace",
        TraceFormat::Fst => "--trace-fst",
    };
    let status = Command::new("verilator")
        .arg(trace_flag)
        .args(VERILATOR_ARGS)
        .args(x_options())
        .args(if rtl_coverage() && !stub { &["--coverage"][..] } else { &[] })
        .arg("--prefix")
        .arg(&prefix)
        .arg("--top-module")
        .arg(top)
        .arg("-Mdir")
        .arg(&mdir)
        .args(libs.iter().flat_map(|l| [std::ffi::OsStr::new("-v"), l.as_os_str()]))
        .arg(path)
        .status()
        .unwrap_or_else(|e| fail(&format!("cannot run verilator: {e}")));
    if !status.success() {
        fail(&format!("verilator failed on {}", path.display()));
    }
    let header = std::fs::read_to_string(mdir.join(format!("{prefix}.h"))).unwrap();
    let ports = parse_ports(&header);
    if ports.is_empty() {
        fail(&format!("{}: no ports found in Verilator's header", path.display()));
    }
    if has_fst_model(top) {
        check_unit_ports(path, &ports);
    }
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&mdir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("cpp"))
        .collect();
    sources.sort();
    let shim = mdir.join("shim.cpp");
    match coverage {
        _ if stub => {
            std::fs::write(&shim, stub_shim(top, &label)).unwrap();
            build.file(shim);
        }
        Some(c) => {
            for p in sources {
                if is_run_once(&p) { c.slow.file(p) } else { c.fast.file(p) };
            }
            std::fs::write(&shim, cpp_shim(top, &label, &prefix, &ports, trace)).unwrap();
            c.fast.file(shim);
            c.fast.include(&mdir);
            c.slow.include(&mdir);
            // the C++ speed harness of the unit (compiled with the runtime) includes its header
            build.include(&mdir);
        }
        None => {
            for p in sources {
                if is_run_once(&p) { run_once.file(p) } else { build.file(p) };
            }
            std::fs::write(&shim, cpp_shim(top, &label, &prefix, &ports, trace)).unwrap();
            build.file(shim);
            build.include(&mdir);
            run_once.include(&mdir);
        }
    }
    rust_wrapper(top, &label, path, &ports, trace)
}

/// Fails the build when a unit model's ports (from Verilator's header)
/// differ from the port table (`atomport_isa::ports::UNIT_PORTS`): the
/// bench, the waveform tools and the C++ harness are written against it.
fn check_unit_ports(path: &Path, ports: &[Port]) {
    use atomport_isa::ports::{unit_port_differences, PortDir};
    let dir = |p: &Port| if p.input { PortDir::Input } else { PortDir::Output };
    let differences = unit_port_differences(ports.iter().map(|p| (p.name.as_str(), dir(p), p.width)));
    if !differences.is_empty() {
        fail(&format!(
            "{}: the model's ports and the port table (isa/src/ports.rs) disagree:\n  {}",
            path.display(),
            differences.join("\n  ")
        ));
    }
}

/// `VERILATOR_ROOT`, from the environment or from `verilator --getenv`;
/// fails with one line on how to install Verilator when it is missing.
fn verilator_root() -> PathBuf {
    let found = Command::new("verilator").arg("--getenv").arg("VERILATOR_ROOT").output();
    let output = match found {
        Ok(o) if o.status.success() => o,
        _ => fail(
            "verilator not found on PATH: atomport-sim needs Verilator 5 (install: `apt-get install -y verilator`, or `make deps`)",
        ),
    };
    let root = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    if !root.join("include/verilated.cpp").exists() {
        fail(&format!(
            "Verilator's runtime sources are missing under {} (reinstall: `apt-get install -y verilator`)",
            root.display()
        ));
    }
    root
}

/// The ports of Verilator's model header, in declaration order; fails the
/// build on one the binding cannot take.
fn parse_ports(header: &str) -> Vec<Port> {
    verilator_header::parse_ports(header).unwrap_or_else(|e| fail(&e))
}

/// The shim of a model the coverage build leaves out: the same entry points,
/// `new` failing with a message that says so (nothing else is reachable
/// without a model).
fn stub_shim(top: &str, label: &str) -> String {
    let msg = format!(
        "model {label} (top {top}) is not compiled in the rtl-coverage build: it holds only the unit models `make rtl-coverage` measures"
    );
    format!(
        r#"// Generated by atomport-sim's build.rs: model {label} is left out of the rtl-coverage build.
#include "atomport_sim.h"

#include <cstdint>

extern "C" {{
int atomport_sim_{label}_new(void** out) {{
    *out = nullptr;
    return atomport_sim::set_error("{msg}");
}}
void atomport_sim_{label}_ports(void*, void**) {{}}
int atomport_sim_{label}_eval(void*) {{ return atomport_sim::set_error("{msg}"); }}
int atomport_sim_{label}_trace_open(void*, const char*) {{ return atomport_sim::set_error("{msg}"); }}
int atomport_sim_{label}_trace_dump(void*, uint64_t) {{ return 0; }}
int atomport_sim_{label}_trace_flush(void*) {{ return 0; }}
int atomport_sim_{label}_trace_close(void*) {{ return 0; }}
int atomport_sim_{label}_final(void*) {{ return 0; }}
void atomport_sim_{label}_delete(void*) {{}}
}}
"#
    )
}

/// The shim of one model: the macros `cpp/atomport_sim_model.inc` takes,
/// then that file (the entry points themselves).
fn cpp_shim(top: &str, label: &str, prefix: &str, ports: &[Port], trace: TraceFormat) -> String {
    let (trace_header, trace_class, mapped) = match trace {
        TraceFormat::Vcd => ("verilated_vcd_c.h", "VerilatedVcdC", 0),
        TraceFormat::Fst => ("verilated_fst_c.h", "VerilatedFstC", 1),
    };
    let port_list: String = ports.iter().map(|p| format!(" X({})", p.name)).collect();
    format!(
        "// Generated by atomport-sim's build.rs: the entry points of model {top}.\n\
         #include \"{prefix}.h\"\n\
         #include \"{trace_header}\"\n\
         #define ATOMPORT_SIM_LABEL {label}\n\
         #define ATOMPORT_SIM_MODEL {prefix}\n\
         #define ATOMPORT_SIM_TOP \"{top}\"\n\
         #define ATOMPORT_SIM_TRACE {trace_class}\n\
         #define ATOMPORT_SIM_TRACE_MAPPED {mapped}\n\
         #define ATOMPORT_SIM_PORTS(X){port_list}\n\
         #include \"atomport_sim_model.inc\"\n"
    )
}

fn camel(top: &str) -> String {
    top.split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

fn ident(name: &str) -> String {
    if RUST_KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

/// The `verilated_model!` invocation (src/model.rs) of one model: its
/// names, and per port its index, direction, name, width, storage and the
/// accessors' names.
fn rust_wrapper(top: &str, label: &str, path: &Path, ports: &[Port], trace: TraceFormat) -> String {
    let ty = format!("V{}", camel(label));
    let file = path.file_name().unwrap().to_str().unwrap();
    let fst = trace == TraceFormat::Fst;
    let clock = ports.iter().find(|p| p.input && p.width == 1 && (p.name == "clock" || p.name == "clk"));
    let mut s = format!("\ncrate::verilated_model! {{\n    {ty}, label \"{label}\", top \"{top}\", file \"{file}\", fst {fst},\n");
    if let Some(c) = clock {
        let _ = writeln!(s, "    clock set_{},", c.name);
    }
    s.push_str("    ports {\n");
    for (i, p) in ports.iter().enumerate() {
        let dir = if p.input { "Input" } else { "Output" };
        let name = &p.name;
        let (kind, store, accessors) = match (p.storage, p.width <= 128) {
            (0, true) if p.input => ("wide", p.words, format!("set_{name} {name}_words set_{name}_words")),
            (0, true) => ("wide", p.words, format!("{name}_words")),
            (0, false) if p.input => ("words", p.words, format!("{name}_words set_{name}_words")),
            (0, false) => ("words", p.words, format!("{name}_words")),
            (bits, _) if p.input => ("scalar", bits, format!("set_{name}")),
            (bits, _) => ("scalar", bits, String::new()),
        };
        let _ = writeln!(s, "        {i} {dir} \"{name}\" {} [{}] {kind} {store} {{ {accessors} }},", ident(name), p.width);
    }
    s.push_str("    }\n}\n");
    s
}
