//! Verilates every checked-in `hdl/verilog/<top>.v` (one model per file, the
//! top module named like the file; and every build variant in
//! `hdl/verilog/variants/`, each on its own), compiles the models and Verilator's
//! runtime with the `cc` crate at opt-level 3 (always, also in debug and test
//! builds), and generates a typed Rust wrapper per model into
//! `$OUT_DIR/models.rs` (included by `core/src/lib.rs`).
//!
//! Per top `<t>` it generates `$OUT_DIR/<t>/shim.cpp` (the `extern "C"` entry
//! points `atomport_sim_<t>_*`: new, port pointers, eval, trace, final,
//! delete) and the Rust struct `V<CamelCase t>` with one getter/setter per
//! port, taken from Verilator's generated header.

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

/// Removes every `initial begin` / `<reg> = <constant>;` / `end` block (what
/// rust-hdl emits for a DFF's power-up value); returns the text and how many
/// blocks it removed.
fn strip_power_up_values(text: &str) -> (String, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut removed = 0;
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() == "initial begin"
            && i + 2 < lines.len()
            && lines[i + 2].trim() == "end"
            && is_constant_assignment(lines[i + 1].trim())
        {
            removed += 1;
            i += 3;
            continue;
        }
        out.push_str(lines[i]);
        out.push('\n');
        i += 1;
    }
    (out, removed)
}

/// `q = 3'h0;` and the like, and a RAM row's `rows[3] = 128'h0;`
/// (`EntryRam`, hdl/src/entry_ram.rs).
fn is_constant_assignment(line: &str) -> bool {
    let Some((lhs, rhs)) = line.strip_suffix(';').and_then(|l| l.split_once(" = ")) else { return false };
    let name = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    let ident = |s: &str| match s.strip_suffix(']').and_then(|s| s.split_once('[')) {
        Some((array, row)) => name(array) && !row.is_empty() && row.chars().all(|c| c.is_ascii_digit()),
        None => name(s),
    };
    let Some((width, value)) = rhs.split_once('\'') else { return false };
    ident(lhs)
        && width.chars().all(|c| c.is_ascii_digit())
        && value.len() > 1
        && matches!(&value[..1], "h" | "b" | "d")
        && value[1..].chars().all(|c| c.is_ascii_hexdigit() || c == '_')
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(1);
}

/// One port of a Verilated model, from a `VL_IN8(&op,4,0);` line.
struct Port {
    name: String,
    input: bool,
    width: u32,
    /// Verilator storage: 8, 16, 32 or 64 bits, or 0 for a `VlWide` of u32 words
    storage: u32,
    words: u32,
}

impl Port {
    fn rust_type(&self) -> &'static str {
        match self.storage {
            8 => "u8",
            16 => "u16",
            32 => "u32",
            64 => "u64",
            _ => "u32",
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cpp");
    println!("cargo:rerun-if-env-changed=VERILATOR_ROOT");
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
        rust.push_str(&verilate(top, TraceFormat::Vcd, path, &libs, &out, &mut build, &mut coverage_objects));
        if has_fst_model(top) {
            rust.push_str(&verilate(top, TraceFormat::Fst, path, &libs, &out, &mut build, &mut coverage_objects));
        }
        top_names.push(top.clone());
    }
    for (top, path) in &variants {
        rust.push_str(&verilate(top, TraceFormat::Vcd, path, &[], &out, &mut build, &mut coverage_objects));
        if has_fst_model(top) {
            rust.push_str(&verilate(top, TraceFormat::Fst, path, &[], &out, &mut build, &mut coverage_objects));
        }
        top_names.push(top.clone());
    }
    let _ = writeln!(rust, "\n/// The top modules this build verilated.\npub const TOPS: &[&str] = &{top_names:?};");
    rust.push_str("\n/// Test fixtures of the binding itself (`sim/fixtures/`), not RTL.\n#[doc(hidden)]\npub mod fixtures {\n");
    for (top, path) in &fixtures {
        rust.push_str(&verilate(top, TraceFormat::Vcd, path, &[], &out, &mut build, &mut None));
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
        rust.push_str(UNIT_BENCH_RS);
    }

    std::fs::write(out.join("models.rs"), rust).unwrap();
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
/// shim to `build`, and returns its Rust wrapper.
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
                let slow = p.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s.ends_with("__Slow"));
                if slow { c.slow.file(p) } else { c.fast.file(p) };
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
                build.file(p);
            }
            std::fs::write(&shim, cpp_shim(top, &label, &prefix, &ports, trace)).unwrap();
            build.file(shim);
            build.include(&mdir);
        }
    }
    rust_wrapper(top, &label, path, &ports, trace)
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

/// Reads the port declarations (`VL_IN8(&op,4,0);`, `VL_OUTW(&x,127,0,4);`)
/// from Verilator's model header, in declaration order.
fn parse_ports(header: &str) -> Vec<Port> {
    let mut ports = vec![];
    for line in header.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("VL_") else { continue };
        let Some(open) = rest.find("(&") else { continue };
        let (kind, args) = rest.split_at(open);
        let (input, storage_text) = if let Some(s) = kind.strip_prefix("INOUT") {
            fail(&format!("inout port in `{line}`: not supported by the binding ({s})"))
        } else if let Some(s) = kind.strip_prefix("IN") {
            (true, s)
        } else if let Some(s) = kind.strip_prefix("OUT") {
            (false, s)
        } else {
            continue;
        };
        let storage = match storage_text {
            "8" => 8,
            "16" => 16,
            "" => 32,
            "64" => 64,
            "W" => 0,
            _ => continue,
        };
        let args = args.trim_start_matches("(&").trim_end_matches(';').trim_end_matches(')');
        let fields: Vec<&str> = args.split(',').map(str::trim).collect();
        let name = fields[0].to_string();
        let msb: u32 = fields[1].parse().unwrap();
        let lsb: u32 = fields[2].parse().unwrap();
        let words = if storage == 0 { fields[3].parse().unwrap() } else { 1 };
        ports.push(Port { name, input, width: msb - lsb + 1, storage, words });
    }
    ports
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

fn cpp_shim(top: &str, label: &str, prefix: &str, ports: &[Port], trace: TraceFormat) -> String {
    let (trace_header, trace_class) = match trace {
        TraceFormat::Vcd => ("verilated_vcd_c.h", "VerilatedVcdC"),
        TraceFormat::Fst => ("verilated_fst_c.h", "VerilatedFstC"),
    };
    // the FST writer (fstapi) maps its files: its calls also catch SIGBUS
    let (guard, install) = match trace {
        TraceFormat::Vcd => ("guard_trace", ""),
        TraceFormat::Fst => ("guard_mapped_trace", "atomport_sim::install_bus_handler();\n    "),
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"// Generated by atomport-sim's build.rs: extern "C" entry points of model {top}.
#include "atomport_sim.h"
#include "{prefix}.h"
#include "verilated.h"
#include "{trace_header}"

#include <cstdint>
#include <memory>

namespace {{
struct Handle {{
    std::unique_ptr<VerilatedContext> context;
    std::unique_ptr<{prefix}> model;
    std::unique_ptr<{trace_class}> trace;
}};
}}  // namespace

#if VM_COVERAGE
namespace atomport_sim {{
void add_coverage(VerilatedContext* context);  // cpp/atomport_sim_cov.cpp
}}
#endif

extern "C" {{

int atomport_sim_{label}_new(void** out) {{
    ATOMPORT_SIM_GUARD({{
        auto h = std::make_unique<Handle>();
        h->context = std::make_unique<VerilatedContext>();
        h->context->traceEverOn(true);  // before the model is built
        h->context->fatalOnError(true);
        // $ATOMPORT_VERILATOR_SEED: +verilator+rand+reset+2 +verilator+seed+N,
        // before the model is built (its constructor draws the initial values
        // through Verilated::threadContextp()).
        Verilated::threadContextp(h->context.get());
        atomport_sim::apply_seed_from_env(h->context.get());
        h->model = std::make_unique<{prefix}>(h->context.get(), "{top}");
        *out = h.release();
    }})
}}

/// Fills `out` with one pointer per port, in the header's order.
void atomport_sim_{label}_ports(void* handle, void** out) {{
    {prefix}* m = static_cast<Handle*>(handle)->model.get();"#
    );
    for (i, p) in ports.iter().enumerate() {
        if p.storage == 0 {
            let _ = writeln!(s, "    out[{i}] = static_cast<void*>(m->{}.data());", p.name);
        } else {
            let _ = writeln!(s, "    out[{i}] = static_cast<void*>(&m->{});", p.name);
        }
    }
    let _ = writeln!(
        s,
        r#"}}

// Verilator's runtime ($stop, $finish, $display...) reaches the context
// through Verilated::threadContextp(): the last context built on this
// thread, which may be another model's (or a deleted one). Point it at this
// model's context before running it.
int atomport_sim_{label}_eval(void* handle) {{
    Handle* h = static_cast<Handle*>(handle);
    Verilated::threadContextp(h->context.get());
    ATOMPORT_SIM_GUARD(h->model->eval())
}}

// A trace writer whose write failed (a Verilator fatal thrown mid-write, a
// bus error inside fstapi) is in no state to flush or close again, and its
// destructor would try: it is dropped without being destroyed (its memory
// and file descriptor stay until the process ends). The caller removes the
// file it was writing.
static void abandon_trace(Handle* h) {{
    (void)h->trace.release();
}}

int atomport_sim_{label}_trace_open(void* handle, const char* path) {{
    Handle* h = static_cast<Handle*>(handle);
    Verilated::threadContextp(h->context.get());
    if (h->trace) {{
        const int rc = atomport_sim::{guard}([&] {{ h->trace->close(); }});
        if (rc) {{
            abandon_trace(h);
            return rc;
        }}
        h->trace.reset();
    }}
    {install}auto trace = std::make_unique<{trace_class}>();
    // open() writes the header: a write that fails there leaves a writer
    // whose destructor would fail again (inside the unwinding: terminate)
    const int rc = atomport_sim::{guard}([&] {{
        h->model->trace(trace.get(), 99);
        trace->open(path);
        if (!trace->isOpen()) throw std::runtime_error(std::string("cannot open trace file ") + path);
    }});
    if (rc) {{
        (void)trace.release();
        return rc;
    }}
    h->trace = std::move(trace);
    return 0;
}}

int atomport_sim_{label}_trace_dump(void* handle, uint64_t time) {{
    Handle* h = static_cast<Handle*>(handle);
    if (!h->trace) return 0;
    const int rc = atomport_sim::{guard}([&] {{ h->trace->dump(time); }});
    if (rc) abandon_trace(h);
    return rc;
}}

int atomport_sim_{label}_trace_flush(void* handle) {{
    Handle* h = static_cast<Handle*>(handle);
    if (!h->trace) return 0;
    const int rc = atomport_sim::{guard}([&] {{ h->trace->flush(); }});
    if (rc) abandon_trace(h);
    return rc;
}}

int atomport_sim_{label}_trace_close(void* handle) {{
    Handle* h = static_cast<Handle*>(handle);
    if (!h->trace) return 0;
    const int rc = atomport_sim::{guard}([&] {{ h->trace->close(); }});
    if (rc) {{
        abandon_trace(h);
        return rc;
    }}
    h->trace.reset();
    return 0;
}}

int atomport_sim_{label}_final(void* handle) {{
    Handle* h = static_cast<Handle*>(handle);
    Verilated::threadContextp(h->context.get());
    ATOMPORT_SIM_GUARD(h->model->final())
}}

void atomport_sim_{label}_delete(void* handle) {{
    Handle* h = static_cast<Handle*>(handle);
    Verilated::threadContextp(h->context.get());
    // a trace still open (a run that stopped early) is closed; its errors
    // reach no one here (the bench closes its trace itself to see them)
    (void)atomport_sim_{label}_trace_close(handle);
#if VM_COVERAGE
    atomport_sim::add_coverage(h->context.get());
#endif
    delete h;
}}

}}  // extern "C""#
    );
    s
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

fn rust_wrapper(top: &str, label: &str, path: &Path, ports: &[Port], trace: TraceFormat) -> String {
    let fst = trace == TraceFormat::Fst;
    let ty = format!("V{}", camel(label));
    let n = ports.len();
    let file = path.file_name().unwrap().to_str().unwrap();
    let clock = ports.iter().find(|p| p.input && p.width == 1 && (p.name == "clock" || p.name == "clk"));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"
mod ffi_{label} {{
    use std::os::raw::{{c_char, c_int, c_void}};
    extern "C" {{
        pub fn atomport_sim_{label}_new(out: *mut *mut c_void) -> c_int;
        pub fn atomport_sim_{label}_ports(handle: *mut c_void, out: *mut *mut c_void);
        pub fn atomport_sim_{label}_eval(handle: *mut c_void) -> c_int;
        pub fn atomport_sim_{label}_trace_open(handle: *mut c_void, path: *const c_char) -> c_int;
        pub fn atomport_sim_{label}_trace_dump(handle: *mut c_void, time: u64) -> c_int;
        pub fn atomport_sim_{label}_trace_flush(handle: *mut c_void) -> c_int;
        pub fn atomport_sim_{label}_trace_close(handle: *mut c_void) -> c_int;
        pub fn atomport_sim_{label}_final(handle: *mut c_void) -> c_int;
        pub fn atomport_sim_{label}_delete(handle: *mut c_void);
    }}
}}

/// The Verilated model of top module `{top}` (`hdl/verilog/{file}`), with
/// its own `VerilatedContext`.
///
/// Port access is through raw pointers into the model: setters write the
/// input, getters read the port as last evaluated; call [`{ty}::eval`] (or
/// a step/tick helper) after changing inputs. Ports over 64 bits are
/// little-endian `u32` words (`*_words`), with `u128` helpers up to 128 bits.
/// Setters mask the value to the port's width.
pub struct {ty} {{
    handle: *mut std::os::raw::c_void,
    ports: [*mut std::os::raw::c_void; {n}],
    time: u64,
    tracing: bool,
    /// the open trace file (the FST one is checked when closed)
    trace_path: Option<std::path::PathBuf>,
    /// why the trace stopped (a write that failed); every later trace call reports it
    trace_error: Option<String>,
    dead: Option<String>,
}}

impl {ty} {{
    /// The top module's name.
    pub const NAME: &'static str = "{top}";
    /// The ports, in declaration order.
    pub const PORTS: &'static [crate::Port] = &["#
    );
    for p in ports {
        let _ = writeln!(
            s,
            "        crate::Port {{ name: \"{}\", dir: crate::PortDir::{}, width: {} }},",
            p.name,
            if p.input { "Input" } else { "Output" },
            p.width
        );
    }
    let _ = writeln!(
        s,
        r#"    ];

    /// Builds the model (a new `VerilatedContext`, tracing enabled but no
    /// file open) and evaluates it once.
    pub fn new() -> Result<Self, crate::SimError> {{
        let mut handle = std::ptr::null_mut();
        if unsafe {{ ffi_{label}::atomport_sim_{label}_new(&mut handle) }} != 0 {{
            return Err(crate::SimError::Fatal(crate::last_error()));
        }}
        let mut ports = [std::ptr::null_mut(); {n}];
        unsafe {{ ffi_{label}::atomport_sim_{label}_ports(handle, ports.as_mut_ptr()) }};
        let mut model = Self {{ handle, ports, time: 0, tracing: false, trace_path: None, trace_error: None, dead: None }};
        model.eval()?;
        Ok(model)
    }}

    /// Evaluates the model with the current inputs. A Verilator fatal is an
    /// `Err`, and the model refuses to run after one.
    #[inline]
    pub fn eval(&mut self) -> Result<(), crate::SimError> {{
        if self.dead.is_none() && unsafe {{ ffi_{label}::atomport_sim_{label}_eval(self.handle) }} == 0 {{
            return Ok(());
        }}
        Err(self.fatal())
    }}

    /// The error for a failed eval: the fatal itself the first time, then
    /// `Dead` (a model is never evaluated again after a fatal).
    #[cold]
    fn fatal(&mut self) -> crate::SimError {{
        if let Some(msg) = &self.dead {{
            return crate::SimError::Dead(msg.clone());
        }}
        let msg = crate::last_error();
        self.dead = Some(msg.clone());
        crate::SimError::Fatal(msg)
    }}

    /// Current simulation time, in trace time units (1 ns).
    #[inline]
    pub fn time(&self) -> u64 {{
        self.time
    }}

    /// Moves simulation time forward by `dt` time units.
    #[inline]
    pub fn advance(&mut self, dt: u64) {{
        self.time += dt;
    }}

    /// Writes every signal's current value into the trace at the current
    /// time (no-op when no trace is open). A write that fails (a full disk)
    /// is [`crate::SimError::Trace`] and stops the trace: the file is not
    /// whole and is for the caller to remove.
    #[inline]
    pub fn dump(&mut self) -> Result<(), crate::SimError> {{
        if self.tracing && unsafe {{ ffi_{label}::atomport_sim_{label}_trace_dump(self.handle, self.time) }} != 0 {{
            return Err(self.trace_failed());
        }}
        Ok(())
    }}

    /// The trace's first failure, as an error; the trace is closed.
    #[cold]
    fn trace_failed(&mut self) -> crate::SimError {{
        let msg = self.trace_error.get_or_insert_with(crate::last_error).clone();
        self.tracing = false;
        crate::SimError::Trace(msg)
    }}

    /// One cycle of a combinational model: eval, dump at the current time,
    /// advance one clock period ([`crate::CLOCK_PERIOD`]).
    #[inline]
    pub fn step(&mut self) -> Result<(), crate::SimError> {{
        self.eval()?;
        self.dump()?;
        self.time += crate::CLOCK_PERIOD;
        Ok(())
    }}

    /// Opens a VCD trace at `path` (replacing any open one); every later
    /// [`{ty}::dump`] / step / tick writes into it.
    pub fn open_trace(&mut self, path: impl AsRef<std::path::Path>) -> Result<(), crate::SimError> {{
        let path = path.as_ref();
        let c_path = std::ffi::CString::new(path.to_string_lossy().as_bytes())
            .map_err(|_| crate::SimError::Trace(format!("{{}}: path contains NUL", path.display())))?;
        self.trace_error = None;
        if unsafe {{ ffi_{label}::atomport_sim_{label}_trace_open(self.handle, c_path.as_ptr()) }} != 0 {{
            self.tracing = false;
            return Err(crate::SimError::Trace(crate::last_error()));
        }}
        self.tracing = true;
        self.trace_path = Some(path.to_path_buf());
        Ok(())
    }}

    /// Whether a trace file is open.
    pub fn tracing(&self) -> bool {{
        self.tracing
    }}

    /// Flushes the open trace file to disk.
    pub fn flush_trace(&mut self) -> Result<(), crate::SimError> {{
        if self.tracing && unsafe {{ ffi_{label}::atomport_sim_{label}_trace_flush(self.handle) }} != 0 {{
            return Err(self.trace_failed());
        }}
        Ok(())
    }}

    /// Closes the trace file, if one is open; `Err` when it could not be
    /// written whole (now or at an earlier dump): then it is not a
    /// waveform to keep.
    pub fn close_trace(&mut self) -> Result<(), crate::SimError> {{
        if let Some(e) = &self.trace_error {{
            return Err(crate::SimError::Trace(e.clone()));
        }}
        if !self.tracing {{
            return Ok(());
        }}
        if unsafe {{ ffi_{label}::atomport_sim_{label}_trace_close(self.handle) }} != 0 {{
            return Err(self.trace_failed());
        }}
        self.tracing = false;
        match self.trace_path.take() {{
            Some(path) if {fst} => crate::check_fst_file(&path).map_err(|e| {{
                self.trace_error = Some(e.clone());
                crate::SimError::Trace(e)
            }}),
            _ => Ok(()),
        }}
    }}

    /// Sets input `name` from a `u128` (masked to the port's width).
    /// `Err` for an unknown name, an output, or a port over 128 bits.
    pub fn set_port(&mut self, name: &str, value: u128) -> Result<(), crate::SimError> {{
        match name {{"#
    );
    for p in ports.iter().filter(|p| p.input && p.width <= 128) {
        let set = format!("set_{}", p.name);
        if p.storage == 0 {
            let _ = writeln!(s, "            \"{}\" => self.{set}(value),", p.name);
        } else {
            let _ = writeln!(s, "            \"{}\" => self.{set}(value as {}),", p.name, p.rust_type());
        }
    }
    let _ = writeln!(
        s,
        r#"            _ => return Err(crate::SimError::Port(format!("{top} has no input port `{{name}}` of at most 128 bits"))),
        }}
        Ok(())
    }}

    /// Reads port `name` as a `u128`; `None` for an unknown name or a port
    /// over 128 bits.
    pub fn get_port(&self, name: &str) -> Option<u128> {{
        Some(match name {{"#
    );
    for p in ports.iter().filter(|p| p.width <= 128) {
        let id = ident(&p.name);
        let cast = if p.storage == 0 { "" } else { " as u128" };
        let _ = writeln!(s, "            \"{}\" => self.{id}(){cast},", p.name);
    }
    let _ = writeln!(
        s,
        r#"            _ => return None,
        }})
    }}"#
    );

    for (i, p) in ports.iter().enumerate() {
        let id = ident(&p.name);
        let dir = if p.input { "Input" } else { "Output" };
        if p.storage != 0 {
            let t = p.rust_type();
            let mask = if p.width == p.storage { format!("{t}::MAX") } else { format!("{:#x}_{t}", (1u64 << p.width) - 1) };
            let _ = writeln!(
                s,
                r#"
    /// {dir} `{name}` ({w} bits).
    #[inline]
    pub fn {id}(&self) -> {t} {{
        unsafe {{ *(self.ports[{i}] as *const {t}) }}
    }}"#,
                name = p.name,
                w = p.width
            );
            if p.input {
                let _ = writeln!(
                    s,
                    r#"
    /// Sets input `{name}` ({w} bits; higher bits are dropped).
    #[inline]
    pub fn set_{name}(&mut self, value: {t}) {{
        unsafe {{ *(self.ports[{i}] as *mut {t}) = value & ({mask}) }}
    }}"#,
                    name = p.name,
                    w = p.width
                );
            }
        } else {
            let words = p.words;
            let top_bits = p.width - 32 * (words - 1);
            let top_mask = if top_bits == 32 { "u32::MAX".to_string() } else { format!("(1u32 << {top_bits}) - 1") };
            let _ = writeln!(
                s,
                r#"
    /// {dir} `{name}` ({w} bits) as {words} little-endian `u32` words.
    #[inline]
    pub fn {name}_words(&self) -> [u32; {words}] {{
        unsafe {{ *(self.ports[{i}] as *const [u32; {words}]) }}
    }}"#,
                name = p.name,
                w = p.width
            );
            if p.input {
                let _ = writeln!(
                    s,
                    r#"
    /// Sets input `{name}` ({w} bits) from {words} little-endian `u32` words (bits past the width are dropped).
    #[inline]
    pub fn set_{name}_words(&mut self, words: &[u32; {words}]) {{
        let mut w = *words;
        w[{last}] &= {top_mask};
        unsafe {{ *(self.ports[{i}] as *mut [u32; {words}]) = w }}
    }}"#,
                    name = p.name,
                    w = p.width,
                    last = words - 1
                );
            }
            if p.width <= 128 {
                let _ = writeln!(
                    s,
                    r#"
    /// {dir} `{name}` ({w} bits) as a `u128`.
    #[inline]
    pub fn {id}(&self) -> u128 {{
        let w = self.{name}_words();
        let mut v = 0u128;
        for (k, word) in w.iter().enumerate() {{
            v |= (*word as u128) << (32 * k);
        }}
        v
    }}"#,
                    name = p.name,
                    w = p.width
                );
                if p.input {
                    let _ = writeln!(
                        s,
                        r#"
    /// Sets input `{name}` ({w} bits) from a `u128` (higher bits are dropped).
    #[inline]
    pub fn set_{name}(&mut self, value: u128) {{
        let mut w = [0u32; {words}];
        for (k, word) in w.iter_mut().enumerate() {{
            *word = (value >> (32 * k)) as u32;
        }}
        self.set_{name}_words(&w);
    }}"#,
                        name = p.name,
                        w = p.width
                    );
                }
            }
        }
    }

    if let Some(clk) = clock {
        let _ = writeln!(
            s,
            r#"
    /// One clock cycle of [`crate::CLOCK_PERIOD`]: `{c}` low, eval, dump at
    /// the cycle's start; `{c}` high (the rising edge), eval, dump half a
    /// period later; time advances one period. Inputs set before `tick`
    /// are sampled at its rising edge; outputs read after it are the
    /// post-edge values.
    #[inline]
    pub fn tick(&mut self) -> Result<(), crate::SimError> {{
        self.set_{c}(0);
        self.eval()?;
        self.dump()?;
        self.set_{c}(1);
        self.eval()?;
        self.time += crate::CLOCK_PERIOD / 2;
        self.dump()?;
        self.time += crate::CLOCK_PERIOD - crate::CLOCK_PERIOD / 2;
        Ok(())
    }}

    /// `n` clock cycles.
    pub fn ticks(&mut self, n: u64) -> Result<(), crate::SimError> {{
        for _ in 0..n {{
            self.tick()?;
        }}
        Ok(())
    }}"#,
            c = clk.name
        );
    }

    let _ = writeln!(
        s,
        r#"}}

impl Drop for {ty} {{
    /// Finalizes the model (`final()`), closes the trace, frees the model
    /// and its context.
    fn drop(&mut self) {{
        unsafe {{
            if self.dead.is_none() {{
                let _ = ffi_{label}::atomport_sim_{label}_final(self.handle);
            }}
            ffi_{label}::atomport_sim_{label}_delete(self.handle);
        }}
    }}
}}

impl std::fmt::Debug for {ty} {{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {{
        let mut d = f.debug_struct("{ty}");
        d.field("time", &self.time);
        for p in Self::PORTS {{
            if let Some(v) = self.get_port(p.name) {{
                d.field(p.name, &format_args!("{{:#x}}", v));
            }}
        }}
        d.finish()
    }}
}}"#
    );
    s
}

/// Appended to `models.rs` when `atomic_unit` exists: the safe entry to the
/// C++ speed harness `cpp/bench_atomic_unit.cpp`.
const UNIT_BENCH_RS: &str = r#"
extern "C" {
    fn atomport_cpp_bench_atomic_unit(images: *const u32, count: u32, rounds: u64, max_cycles: u64, cycles: *mut u64, messages: *mut u64) -> u64;
}

/// Runs the C++ harness of the unit's speed loop (`cpp/bench_atomic_unit.cpp`)
/// over `images` (pin images of `image_words` u32 each, see atomport's
/// `testbench::bench::image_words`) `rounds` times, at most `max_cycles`
/// cycles. Returns (checksum, cycles, messages finished).
pub fn cpp_bench_atomic_unit(images: &[u32], image_words: usize, rounds: u64, max_cycles: u64) -> (u64, u64, u64) {
    let count = (images.len() / image_words) as u32;
    let (mut cycles, mut messages) = (0u64, 0u64);
    let sum = unsafe { atomport_cpp_bench_atomic_unit(images.as_ptr(), count, rounds, max_cycles, &mut cycles, &mut messages) };
    (sum, cycles, messages)
}
"#;
