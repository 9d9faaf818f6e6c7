//! The emitted Verilog (every `hdl/verilog/<top>.v`) through the open-source
//! tools a verification engineer will point at it:
//! * `verilator --lint-only -Wall` (waiving only DECLFILENAME and
//!   UNUSEDPARAM): zero warnings;
//! * `yosys` `synth` of the design's root (which contains every other top):
//!   no warnings, no latches, `check` clean;
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

#[test]
fn yosys_synth_has_no_warnings_and_no_latches() {
    if !have("yosys", "-V") {
        return;
    }
    let files = verilog_files();
    let read: String = files.iter().map(|(_, p)| format!("read_verilog -sv {}; ", p.display())).collect();
    for top in root_tops(&files) {
        let script = format!("{read}hierarchy -check -top {top}; synth -top {top}; check -assert; stat");
        let (ok, log) = run(Command::new("yosys").arg("-p").arg(&script));
        assert!(ok, "yosys failed on {top}:\n{log}");
        let warnings: Vec<&str> = log.lines().filter(|l| l.contains("Warning")).collect();
        assert!(warnings.is_empty(), "yosys warnings on {top}:\n{}", warnings.join("\n"));
        let latches: Vec<&str> = log
            .lines()
            // proc_dlatch's report ("No latch inferred ..." is the good case),
            // and latch cells in the statistics
            .filter(|l| l.contains("Latch inferred for") || l.contains("$_DLATCH") || l.contains("$dlatch"))
            .collect();
        assert!(latches.is_empty(), "latches in {top}:\n{}", latches.join("\n"));
        assert!(log.contains(&format!("=== {top} ===")), "no statistics for {top}:\n{log}");
        // every other top is inside this one, so it was synthesized too
        for (other, _) in files.iter().filter(|(o, _)| *o != top) {
            assert!(log.contains(&format!("=== {other} ===")), "{other} not synthesized under {top}");
        }
    }    // each build variant on its own (it carries its own copy of every block)
    for (top, path) in variant_files() {
        let script = format!("read_verilog -sv {}; hierarchy -check -top {top}; synth -top {top}; check -assert; stat", path.display());
        let (ok, log) = run(Command::new("yosys").arg("-p").arg(&script));
        assert!(ok, "yosys failed on {top}:\n{log}");
        let bad: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("Warning") || l.contains("Latch inferred for") || l.contains("$_DLATCH"))
            .collect();
        assert!(bad.is_empty(), "yosys warnings or latches in {top}:\n{}", bad.join("\n"));
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
