//! The emitted Verilog (every `hdl/verilog/<top>.v`) through the open-source
//! tools a verification engineer will point at it:
//! * `verilator --lint-only -Wall` (waiving only DECLFILENAME and
//!   UNUSEDPARAM): zero warnings;
//! * `yosys` on the design's root (which contains every other top) and on
//!   each build variant: no warnings, no latches, `check` clean after `proc`
//!   (`make test`) and after the whole of `synth` (`make long`);
//! * `iverilog -g2012`: compiles, silently.
//!
//! A test whose tool is not installed prints a notice and passes; `make
//! test` installs all three (`apt-get install -y verilator yosys iverilog`).

use std::path::PathBuf;
use std::process::Command;

/// The `<top>.v` files of `dir` and their top modules (the file stems), sorted.
fn v_files_in(dir: &std::path::Path) -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("v"))
        .map(|p| (p.file_stem().unwrap().to_str().unwrap().to_string(), p))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no Verilog under {}: run `atomport emit`", dir.display());
    files
}

/// Every checked-in Verilog file of the design and its top module.
fn verilog_files() -> Vec<(String, PathBuf)> {
    v_files_in(&atomport_hdl::emit::default_dir())
}

/// Every checked-in build variant (`hdl/verilog/variants/<top>.v`): each
/// a self-contained design of its own.
fn variant_files() -> Vec<(String, PathBuf)> {
    v_files_in(&atomport_hdl::emit::default_dir().join(atomport_hdl::emit::VARIANTS_DIR))
}

/// Whether `tool` runs; prints the skip notice when it does not.
fn have(tool: &str, version_arg: &str) -> bool {
    let ok = Command::new(tool).arg(version_arg).output().map(|o| o.status.success()).unwrap_or(false);
    if !ok {
        println!("NOTICE: `{tool}` is not installed: check skipped (apt-get install -y {tool}, or `make deps`)");
    }
    ok
}

fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

/// The tops no other top instantiates (the design's roots): synthesizing
/// them covers every module once.
fn root_tops(files: &[(String, PathBuf)]) -> Vec<String> {
    let texts: Vec<String> = files.iter().map(|(_, p)| std::fs::read_to_string(p).unwrap()).collect();
    files
        .iter()
        .map(|(top, _)| top.clone())
        .filter(|top| !texts.iter().any(|t| t.lines().any(|l| l.trim_start().starts_with(&format!("{top} ")))))
        .collect()
}

#[test]
fn verilator_lint_wall_has_no_warnings() {
    if !have("verilator", "--version") {
        return;
    }
    let files = verilog_files();
    let paths: Vec<&PathBuf> = files.iter().map(|(_, p)| p).collect();
    // all files together, as a user (and the before-stop check) lints them:
    // one design, one top-level module
    let (ok, text) = run(Command::new("verilator").args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-UNUSEDPARAM"]).args(&paths));
    assert!(ok && text.trim().is_empty(), "verilator -Wall on hdl/verilog/*.v:\n{text}");
    assert_eq!(root_tops(&files), ["atomic_unit"], "the design has one root");
    // and each top on its own
    for (top, _) in &files {
        let (ok, text) = run(Command::new("verilator")
            .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-UNUSEDPARAM", "--top-module", top])
            .args(&paths));
        assert!(ok && text.trim().is_empty(), "verilator -Wall --top-module {top}:\n{text}");
    }
    // each build variant on its own
    for (top, path) in &variant_files() {
        let (ok, text) = run(Command::new("verilator")
            .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-UNUSEDPARAM", "--top-module", top])
            .arg(path));
        assert!(ok && text.trim().is_empty(), "verilator -Wall {}:\n{text}", path.display());
    }
}

/// Yosys on the design's root and on each build variant, one thread per
/// design: `script` runs after the design is read with `-top TOP` in it.
/// Every run succeeds with no warning, no latch (proc_dlatch's report or a
/// latch cell in the statistics) and the statistics of every module of the
/// design.
fn yosys_on_every_design(script: &str) {
    let files = verilog_files();
    let read: String = files.iter().map(|(_, p)| format!("read_verilog -sv {}; ", p.display())).collect();
    let mut designs: Vec<(String, String, Vec<String>)> = root_tops(&files)
        .into_iter()
        .map(|top| {
            // every other top is inside the root, so it is checked too
            let inner = files.iter().map(|(o, _)| o.clone()).filter(|o| *o != top).collect();
            (top.clone(), read.clone(), inner)
        })
        .collect();
    // each build variant on its own (it carries its own copy of every block)
    designs.extend(variant_files().into_iter().map(|(top, path)| (top, format!("read_verilog -sv {}; ", path.display()), vec![])));
    std::thread::scope(|scope| {
        let runs: Vec<_> = designs
            .iter()
            .map(|(top, read, inner)| {
                let script = format!("{read}hierarchy -check -top {top}; {}; stat", script.replace("TOP", top));
                scope.spawn(move || {
                    let (ok, log) = run(Command::new("yosys").arg("-p").arg(&script));
                    assert!(ok, "yosys failed on {top}:\n{log}");
                    let bad: Vec<&str> = log
                        .lines()
                        .filter(|l| l.contains("Warning") || l.contains("Latch inferred for") || l.contains("$_DLATCH") || l.contains("$dlatch"))
                        .collect();
                    assert!(bad.is_empty(), "yosys warnings or latches in {top}:\n{}", bad.join("\n"));
                    assert!(log.contains(&format!("=== {top} ===")), "no statistics for {top}:\n{log}");
                    for other in inner {
                        assert!(log.contains(&format!("=== {other} ===")), "{other} not read under {top}");
                    }
                })
            })
            .collect();
        for r in runs {
            if let Err(e) = r.join() {
                std::panic::resume_unwind(e);
            }
        }
    });
}

/// Processes to cells (where a latch would be inferred), then Yosys's
/// netlist checks (drivers, loops, undriven wires) as errors.
#[test]
fn yosys_proc_has_no_warnings_and_no_latches() {
    if have("yosys", "-V") {
        yosys_on_every_design("proc; opt_clean; check -assert");
    }
}

/// The whole of `synth` (techmap and ABC too): minutes per design, so in
/// `make long`; `atomport synth`'s tests synthesize the ALU in `make test`.
#[test]
#[ignore]
fn yosys_synth_has_no_warnings_and_no_latches() {
    if have("yosys", "-V") {
        yosys_on_every_design("synth -top TOP; check -assert");
    }
}

#[test]
fn iverilog_compiles_it() {
    if !have("iverilog", "-V") {
        return;
    }
    let files = verilog_files();
    let paths: Vec<&PathBuf> = files.iter().map(|(_, p)| p).collect();
    for (top, _) in &files {
        let (ok, text) = run(Command::new("iverilog").args(["-g2012", "-o", "/dev/null", "-s", top]).args(&paths));
        assert!(ok && text.trim().is_empty(), "iverilog -g2012 -s {top}:\n{text}");
    }
    for (top, path) in variant_files() {
        let (ok, text) = run(Command::new("iverilog").args(["-g2012", "-o", "/dev/null", "-s", &top]).arg(&path));
        assert!(ok && text.trim().is_empty(), "iverilog -g2012 {}:\n{text}", path.display());
    }
}
