//! The waveform tools end to end (docs/waveforms.md): wavediff, wavecheck,
//! the golden waveform, GTKWave views, SVG timing diagrams, Icarus against
//! Verilator on the same stimulus, independent VCD readers, and the
//! reference waves under waves/.
//!
//! The RTL waves come from the test bench (`atomport_testbench`) running
//! the scenarios of waves/scenarios/ with tracing on.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use atomport_wavecheck::check::check;
use atomport_wave::diff::{diff, DiffOptions, Divergence};
use atomport_wavecheck::golden_wave::write_golden_vcd_file;
use atomport_wave::gtkw::{gtkw_path, write_unit_gtkw};
use atomport_wavecheck::refs::{check_refs, default_dir, generate, scenarios};
use atomport_wavecheck::replay::{module_ports, replay_testbench};
use atomport_wave::writer::{rewrite, Rewrite};
use atomport_wave::{Timescale, Waveform};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn dir() -> PathBuf {
    let d = Path::new(ROOT).join("target/wave-tests");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A full RTL wave of a scenario (run once per test binary).
fn rtl_wave(name: &str) -> PathBuf {
    static WAVES: OnceLock<std::sync::Mutex<BTreeMap<String, PathBuf>>> = OnceLock::new();
    let m = WAVES.get_or_init(Default::default);
    let mut m = m.lock().unwrap();
    if let Some(p) = m.get(name) {
        return p.clone();
    }
    let s = scenarios(&default_dir()).unwrap().into_iter().find(|s| s.name == name).unwrap();
    // one directory per test process: nextest runs each test in its own
    // process, and two of them writing the same VCD race (a reader saw a
    // half-written `$var`)
    let p = generate(&s, &dir().join(format!("rtl-{}", std::process::id()))).unwrap();
    m.insert(name.to_string(), p.clone());
    p
}

fn scenario_script(name: &str) -> String {
    format!("{ROOT}/waves/scenarios/{name}.atom")
}

/// Runs the CLI; (exit code, stdout, stderr).
fn atomport(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_atomport")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The id code of the first `$var` named `name` in VCD text (in a scope
/// named `scope` when given).
fn id_of(text: &str, scope: Option<&str>, name: &str) -> String {
    let mut scopes: Vec<String> = Vec::new();
    for line in text.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        match t.first() {
            Some(&"$scope") => scopes.push(t[2].to_string()),
            Some(&"$upscope") => {
                scopes.pop();
            }
            Some(&"$var") if t.get(4) == Some(&name) && scope.is_none_or(|s| scopes.last().map(String::as_str) == Some(s)) => {
                return t[3].to_string();
            }
            _ => {}
        }
    }
    panic!("no $var {name}");
}

/// The cycle whose rising edge first samples a change at time `t`: the
/// bench dumps inputs at 10c (clock low) and registered outputs at the edge
/// 10c + 5; an edge samples what was there strictly before it.
fn sampling_cycle(t: u64) -> u64 {
    if t % 10 == 5 {
        t / 10 + 1
    } else {
        t / 10
    }
}

/// Flips the lowest bit of the `nth` (0-based) nonzero vector change of
/// `name` at a time > 0, found by scanning the text (not with the reader
/// under test). Returns the mutated text and the change's time.
fn mutate(text: &str, name: &str, nth: usize) -> (String, u64) {
    mutate_in(text, None, name, nth)
}

/// The time of the first change of `name` after time `t` (text scan).
fn next_change(text: &str, name: &str, t: u64) -> Option<u64> {
    let id = id_of(text, None, name);
    let mut now = 0u64;
    for line in text.lines() {
        if let Some(x) = line.strip_prefix('#') {
            now = x.trim().parse().unwrap();
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        if now > t && parts.len() == 2 && parts[1] == id {
            return Some(now);
        }
    }
    None
}

/// [`mutate`] of the var `name` declared in scope `scope`.
fn mutate_in(text: &str, scope: Option<&str>, name: &str, nth: usize) -> (String, u64) {
    let id = id_of(text, scope, name);
    let mut now = 0u64;
    let mut seen = 0;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for line in lines.iter_mut() {
        if let Some(t) = line.strip_prefix('#') {
            now = t.trim().parse().unwrap();
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts.len() == 2 && parts[1] == id && parts[0].starts_with('b') && parts[0][1..].contains('1') && now > 0 {
            if seen == nth {
                let mut v: Vec<char> = parts[0].chars().collect();
                let last = v.len() - 1;
                v[last] = if v[last] == '0' { '1' } else { '0' };
                *line = format!("{} {}", v.into_iter().collect::<String>(), id);
                return (lines.join("\n") + "\n", now);
            }
            seen += 1;
        }
    }
    panic!("{name} has fewer than {} nonzero changes", nth + 1);
}

#[test]
fn wavediff_identical_files_are_equal() {
    let wave = rtl_wave("backpressure");
    let (code, out, _) = atomport(&["wavediff", s(&wave), s(&wave)]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("wavediff: equal:"), "{out}");
    let (code, out, _) = atomport(&["wavediff", s(&wave), s(&wave), "--clock", "clock", "--signals", "mem_*", "rsp_*"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("sampled on `clock`"), "{out}");
}

#[test]
fn wavediff_catches_one_changed_value_at_its_time_and_cycle() {
    let wave = rtl_wave("backpressure");
    let text = std::fs::read_to_string(&wave).unwrap();
    let (mutated, t) = mutate(&text, "mem_wr_data", 2);
    let path = dir().join("backpressure.mutated.vcd");
    std::fs::write(&path, mutated).unwrap();
    // in time: exactly the changed value's time
    let (code, out, _) = atomport(&["wavediff", s(&wave), s(&path)]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("mem_wr_data: first difference at {t} ns:")), "{out}");
    // on the clock: at the first edge after the change
    let c = sampling_cycle(t);
    let (code, out, _) = atomport(&["wavediff", s(&wave), s(&path), "--clock", "clock"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("mem_wr_data: first difference at {} ns (cycle {c}):", 10 * c + 5)), "{out}");
    assert!(out.contains("1 of "), "only that signal differs: {out}");
    // the same in a picosecond file with other identifier codes
    let w = Waveform::read(&path).unwrap();
    let how = Rewrite { timescale: Timescale::PS, first_id: 7777, ..Default::default() };
    let ps = dir().join("backpressure.mutated.ps.vcd");
    std::fs::write(&ps, rewrite(&w, Vec::new(), &how).unwrap()).unwrap();
    let (code, out, _) = atomport(&["wavediff", s(&wave), s(&ps), "--clock", "clock"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("mem_wr_data: first difference at {} ps (cycle {c}):", (10 * c + 5) * 1000)), "{out}");
}

#[test]
fn wavediff_ignores_identifier_codes_timescales_dumpall_and_top_scopes() {
    let wave = rtl_wave("svm_scatter");
    let w = Waveform::read(&wave).unwrap();
    let how = Rewrite {
        timescale: Timescale::PS,
        first_id: 123_456,
        add_scopes: vec!["atomic_unit_tb".into(), "dut".into()],
        drop_scopes: 1,
        dumpall_every: Some(50),
        ..Default::default()
    };
    let other = dir().join("svm_scatter.rewritten.vcd");
    std::fs::write(&other, rewrite(&w, Vec::new(), &how).unwrap()).unwrap();
    let text = std::fs::read_to_string(&other).unwrap();
    assert!(text.contains("$timescale 1 ps $end") && text.contains("$dumpall"));
    assert_ne!(id_of(&text, None, "mem_wr_data"), id_of(&std::fs::read_to_string(&wave).unwrap(), None, "mem_wr_data"));
    for clock in [&[][..], &["--clock", "clock"][..]] {
        let mut args = vec!["wavediff", s(&wave), s(&other)];
        args.extend_from_slice(clock);
        let (code, out, _) = atomport(&args);
        assert_eq!(code, 0, "{out}");
        // the Verilator top scope `atomic_unit` became `atomic_unit_tb.dut`
        assert!(out.contains("scope `atomic_unit` vs `atomic_unit_tb.dut`"), "{out}");
    }
    // the library view: every signal matched, none one-sided
    let r = diff(&w, &Waveform::read(&other).unwrap(), &DiffOptions { strict: true, ..Default::default() }).unwrap();
    assert!(r.equal() && r.compared > 300, "{:?}", r.diffs);
}

#[test]
fn wavecheck_accepts_the_rtl_and_names_a_mutated_transaction() {
    let wave = rtl_wave("backpressure");
    let script = scenario_script("backpressure");
    let (code, out, _) = atomport(&["wavecheck", s(&wave), &script]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("agrees with the golden model") && out.contains("16 reads, 20 writes, 16 results, 3 dones"), "{out}");
    // a changed value: named with its signal, message, time and cycle
    let text = std::fs::read_to_string(&wave).unwrap();
    for signal in ["mem_wr_data", "rsp_data", "mem_rdata"] {
        let mut caught = false;
        // the n-th change may fall in a cycle without a handshake (mem_rdata
        // changes in every cycle: junk while mem_rdata_valid is low): try more
        for nth in 0..64 {
            let (mutated, t) = mutate(&text, signal, nth);
            let path = dir().join(format!("backpressure.{signal}.vcd"));
            std::fs::write(&path, mutated).unwrap();
            let (code, out, _) = atomport(&["wavecheck", s(&path), &script]);
            if code == 0 {
                continue;
            }
            assert_eq!(code, 1, "{out}");
            let first = out.lines().nth(1).unwrap();
            assert!(first.starts_with(&format!("  {signal}: ")), "{signal}: {out}");
            assert!(first.contains("message ") && first.contains("line "), "{out}");
            // the report's time and cycle are those of a clock edge after the
            // change, while the changed value is on the pins: the edge that
            // samples it, or a later one where its valid is high (a write held
            // by backpressure, rsp_data registered before rsp_valid rises)
            let head = out.lines().next().unwrap();
            let cycle: u64 = head.rsplit("(cycle ").next().unwrap().trim_end_matches("):").parse().unwrap();
            let until = next_change(&text, signal, t).map_or(u64::MAX, sampling_cycle);
            assert!(cycle >= sampling_cycle(t) && cycle < until, "{head} (change at {t}, next change sampled in cycle {until})");
            assert!(head.contains(&format!("at {} ns (cycle {cycle})", 10 * cycle + 5)), "{head}");
            caught = true;
            break;
        }
        assert!(caught, "no mutation of {signal} was caught");
    }
}

#[test]
fn golden_waves_pass_wavecheck_and_a_mutation_fails() {
    let examples = ["lock", "histogram", "scatter_mixed", "ptx_warp_reduction", "typed_2d", "fp"];
    for name in examples {
        let script = format!("{ROOT}/examples/{name}.atom");
        let program = atomport_core::script::parse_file(&script).unwrap();
        let path = dir().join(format!("{name}.golden.vcd"));
        write_golden_vcd_file(&program, &path).unwrap();
        let w = Waveform::read(&path).unwrap();
        let report = check(&w, &program, "clock", atomport_testbench::dut::UnitBuild::Full).unwrap();
        assert!(report.agrees(), "{name}: {:?}", report.failure);
        let golden = atomport_core::golden::run(&program);
        let c = report.counts;
        assert_eq!((c.reads + c.writes) as usize, golden.txns.len(), "{name}");
        assert!(c.dones as usize == program.messages().count() && c.results > 0, "{name}: {c}");
    }
    let program = atomport_core::script::parse_file(&format!("{ROOT}/examples/lock.atom")).unwrap();
    let path = dir().join("lock.golden.vcd");
    write_golden_vcd_file(&program, &path).unwrap();
    let (mutated, _) = mutate(&std::fs::read_to_string(&path).unwrap(), "mem_wr_data", 3);
    let bad = dir().join("lock.golden.mutated.vcd");
    std::fs::write(&bad, mutated).unwrap();
    let (code, out, _) = atomport(&["wavecheck", s(&bad), &format!("{ROOT}/examples/lock.atom")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("  mem_wr_data: line 12 (message 0), lane 3, cycle "), "{out}");
    // the CLI writes the golden wave and its view
    let out_vcd = dir().join("cli.golden.vcd");
    let (code, _, err) = atomport(&["wave", "golden", &format!("{ROOT}/examples/lock.atom"), "--vcd", s(&out_vcd)]);
    assert_eq!(code, 0, "{err}");
    assert!(gtkw_path(&out_vcd).exists());
}

#[test]
fn gtkw_views_name_signals_that_exist() {
    // the checked-in reference, copied: the view is written beside its wave,
    // and the checkout's own view must be what the tool writes now
    let reference = dir().join(format!("reference-{}", std::process::id()));
    std::fs::create_dir_all(&reference).unwrap();
    std::fs::copy(default_dir().join("ptx_atom.vcd"), reference.join("ptx_atom.vcd")).unwrap();
    let written = write_unit_gtkw(&reference.join("ptx_atom.vcd")).unwrap();
    let checked_in = default_dir().join("ptx_atom.vcd.gtkw");
    assert_eq!(
        std::fs::read_to_string(&written).unwrap(),
        std::fs::read_to_string(&checked_in).unwrap(),
        "{} is not what `wave view` writes now: run `atomport wave update-refs`",
        checked_in.display()
    );
    for wave in [rtl_wave("ptx_atom"), reference.join("ptx_atom.vcd")] {
        let view = write_unit_gtkw(&wave).unwrap();
        assert_eq!(view, PathBuf::from(format!("{}.gtkw", wave.display())));
        let text = std::fs::read_to_string(&view).unwrap();
        let w = Waveform::read(&wave).unwrap();
        let names: std::collections::HashSet<String> = w.vars.iter().map(|v| v.gtkwave_name()).collect();
        let traces: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix('+')).map(|l| l.split_once("} ").unwrap().1).collect();
        assert!(traces.len() >= 44, "every port at least: {}", traces.len());
        for t in &traces {
            assert!(names.contains(*t), "{t} is not in {}", wave.display());
        }
        for group in ["Memory read channel", "Memory write channel", "Results (rsp_*)", "Internal: ALU (old/new)", "Internal: issue (lane index, FSM state)"] {
            assert!(text.contains(&format!("@800200\n-{group}\n")), "{group}");
        }
        assert!(text.contains(&format!("[dumpfile] \"{}\"", wave.file_name().unwrap().to_string_lossy())));
    }
}

#[test]
fn svg_timing_diagram_renders() {
    let wave = rtl_wave("same_address_burst");
    let svg = dir().join("same_address_burst.svg");
    let (code, _, err) = atomport(&["wave", "render", s(&wave), "--svg", s(&svg), "--from", "20ns", "--to", "300ns"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    for label in ["Memory read channel", ">mem_rd_addr[63:0]<", ">rsp_data[127:0]<", ">400<"] {
        assert!(text.contains(label), "{label}");
    }
    // a real SVG parser accepts it (when librsvg's converter is installed)
    match Command::new("rsvg-convert").arg(&svg).arg("-o").arg(dir().join("same_address_burst.png")).status() {
        Ok(st) => assert!(st.success(), "rsvg-convert rejected the SVG"),
        Err(_) => eprintln!("note: rsvg-convert not installed; SVG not rasterized"),
    }
    let (code, _, err) = atomport(&["wave", "render", s(&wave), "--svg", s(&svg), "--signals", "no_such_signal"]);
    assert_eq!((code, err.contains("matches no signal")), (2, true), "{err}");
    let (code, _, err) = atomport(&["wave", "render", s(&wave), "--svg", s(&svg), "--from", "3 furlongs"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn bad_vcd_input_is_exit_2_with_file_line_col() {
    let wave = rtl_wave("svm_atomic");
    let bad = dir().join("bad.vcd");
    std::fs::write(&bad, "$timescale 1ns $end\n$var wire 4 ! d [3:0] $end\n$enddefinitions $end\n#0\nb10q1 !\n").unwrap();
    let (code, _, err) = atomport(&["wavediff", s(&wave), s(&bad)]);
    assert_eq!(code, 2);
    assert_eq!(err.trim(), format!("{}:5:4: error: `q` is not a VCD bit value (0 1 x z)", bad.display()));
    let (code, _, err) = atomport(&["wavecheck", s(&bad), &scenario_script("svm_atomic")]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = atomport(&["wavediff", s(&wave), "/nonexistent/x.vcd"]);
    assert!(code == 2 && err.starts_with("/nonexistent/x.vcd:1:1: error: cannot read the waveform"), "{err}");
    // a VCD without the unit's ports cannot be wavechecked
    let (code, _, err) = atomport(&["wavecheck", s(&default_dir().join("../examples/lock.atom")), &scenario_script("svm_atomic")]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = atomport(&["wavediff", s(&wave), s(&wave), "--clock", "no_clock"]);
    assert!(code == 2 && err.contains("no clock signal `no_clock`"), "{err}");
}

#[test]
fn icarus_replay_of_the_same_stimulus_matches_verilator() {
    if Command::new("iverilog").arg("-V").output().is_err() {
        eprintln!("note: iverilog not installed (apt-get install -y iverilog): Icarus comparison skipped");
        return;
    }
    let wave = rtl_wave("same_address_burst");
    let w = Waveform::read(&wave).unwrap();
    let verilog = format!("{ROOT}/hdl/verilog/atomic_unit.v");
    let ports = module_ports(&std::fs::read_to_string(&verilog).unwrap(), "atomic_unit").unwrap();
    assert_eq!(ports.len(), 47);
    let work = dir().join("icarus");
    std::fs::create_dir_all(&work).unwrap();
    let tb = replay_testbench(&w, "atomic_unit", "atomic_unit", &ports, "icarus.vcd", 10).unwrap();
    std::fs::write(work.join("tb.v"), tb).unwrap();
    // the unit instantiates the ALU from its own file
    let alu = format!("{ROOT}/hdl/verilog/atomic_alu.v");
    let st = Command::new("iverilog").current_dir(&work).args(["-g2005", "-o", "tb.vvp", "tb.v", &verilog, &alu]).status().unwrap();
    assert!(st.success(), "iverilog failed");
    let out = Command::new("vvp").current_dir(&work).args(["-n", "tb.vvp"]).output().unwrap();
    assert!(out.status.success(), "vvp: {}", String::from_utf8_lossy(&out.stderr));
    let icarus_path = work.join("icarus.vcd");
    let icarus = Waveform::read(&icarus_path).unwrap();
    assert!(icarus.version.as_deref().unwrap_or("").contains("Icarus"));
    // every signal both simulators dump, in time and on the clock
    for clock in [None, Some("clock".to_string())] {
        let r = diff(&w, &icarus, &DiffOptions { clock: clock.clone(), ..Default::default() }).unwrap();
        assert_eq!((r.scope_a.as_str(), r.scope_b.as_str()), ("atomic_unit.atomic_unit", "atomic_unit_tb.dut"));
        assert!(r.equal(), "{clock:?}: {:?}", r.lines());
        assert!(r.compared > 300, "ports and internals compared: {}", r.compared);
    }
    let (code, out, _) = atomport(&["wavediff", s(&wave), s(&icarus_path), "--clock", "clock", "--signals", "mem_*", "rsp_*", "obs_*"]);
    assert_eq!(code, 0, "{out}");
    // and a difference in one of them is found at the right cycle
    let (mutated, t) = mutate_in(&std::fs::read_to_string(&icarus_path).unwrap(), Some("dut"), "rsp_data", 1);
    let bad = work.join("icarus.mutated.vcd");
    std::fs::write(&bad, mutated).unwrap();
    let r = diff(&w, &Waveform::read(&bad).unwrap(), &DiffOptions { clock: Some("clock".into()), ..Default::default() }).unwrap();
    let d = r.diffs.iter().find(|d| d.name == "rsp_data").expect("rsp_data differs");
    match &d.divergence {
        Divergence::Value { cycle: Some(c), .. } => assert_eq!(*c as u64, sampling_cycle(t), "change at {t}"),
        other => panic!("{other:?}"),
    }
}

/// The `vcd` crate (a second, independent Rust reader): the value of every
/// signal at every change time must agree with ours.
#[test]
fn the_vcd_crate_reads_the_same_values() {
    let wave = rtl_wave("backpressure");
    let text = std::fs::read(&wave).unwrap();
    let mut parser = vcd::Parser::new(&text[..]);
    let mut widths: BTreeMap<String, u32> = BTreeMap::new();
    let mut paths: Vec<(String, String)> = Vec::new();
    let mut scope: Vec<String> = Vec::new();
    // per code: (time, value) with the same-time-last-wins and no-repeat rules
    let mut changes: BTreeMap<String, Vec<(u64, String)>> = BTreeMap::new();
    let mut now = 0u64;
    let record = |code: String, v: String, now: u64, changes: &mut BTreeMap<String, Vec<(u64, String)>>| {
        let list = changes.entry(code).or_default();
        if list.last().is_some_and(|(t, _)| *t == now) {
            list.pop();
        }
        if list.last().map(|(_, x)| x) != Some(&v) {
            list.push((now, v));
        }
    };
    for cmd in parser.by_ref() {
        match cmd.unwrap() {
            vcd::Command::ScopeDef(_, name) => scope.push(name),
            vcd::Command::Upscope => {
                scope.pop();
            }
            vcd::Command::VarDef(_, size, code, reference, _) => {
                widths.insert(code.to_string(), size);
                paths.push((format!("{}.{reference}", scope.join(".")), code.to_string()));
            }
            vcd::Command::Timestamp(t) => now = t,
            vcd::Command::ChangeScalar(code, v) => record(code.to_string(), v.to_string(), now, &mut changes),
            vcd::Command::ChangeVector(code, v) => {
                let digits: String = v.iter().map(|b| b.to_string()).collect();
                let width = widths[&code.to_string()] as usize;
                let pad = match digits.chars().next() {
                    Some('x') => 'x',
                    Some('z') => 'z',
                    _ => '0',
                };
                let full: String = std::iter::repeat_n(pad, width.saturating_sub(digits.len())).chain(digits.chars()).collect();
                record(code.to_string(), full, now, &mut changes);
            }
            _ => {}
        }
    }
    let ours = Waveform::read(&wave).unwrap();
    assert_eq!(ours.vars.len(), paths.len());
    let mut checked = 0;
    for v in &ours.vars {
        let tr = ours.trace(v);
        let theirs = changes.get(&v.id).cloned().unwrap_or_default();
        let mine: Vec<(u64, String)> = (0..tr.len()).map(|i| (tr.time(i), tr.value(i).binary())).collect();
        assert_eq!(mine, theirs, "{}", v.path());
        checked += mine.len();
    }
    assert!(checked > 1000, "{checked} changes compared");
}

/// pyvcd (an independent Python reader), when installed: every var's width,
/// change count and final value agree with ours.
#[test]
fn pyvcd_reads_the_same_values() {
    let probe = Command::new("python3").args(["-c", "import vcd.reader"]).output();
    if !probe.as_ref().is_ok_and(|o| o.status.success()) {
        eprintln!("note: python3 with pyvcd not available (pip install pyvcd): independent Python reader check skipped");
        return;
    }
    let script = r#"
import sys
from vcd.reader import TokenKind, tokenize
scope, decl, last, count, now = [], {}, {}, {}, 0
def full(v, size):
    if isinstance(v, int):
        return format(v, 'b').zfill(size)
    s = str(v).lower()
    pad = s[0] if s[0] in 'xz' else '0'
    return s.rjust(size, pad)
pending = {}
def flush():
    for c, v in pending.items():
        if last.get(c) != v:
            last[c] = v
            count[c] = count.get(c, 0) + 1
    pending.clear()
with open(sys.argv[1], 'rb') as f:
    for tok in tokenize(f):
        k = tok.kind
        if k is TokenKind.SCOPE:
            scope.append(tok.scope.ident)
        elif k is TokenKind.UPSCOPE:
            scope.pop()
        elif k is TokenKind.VAR:
            d = tok.var
            decl.setdefault(d.id_code, []).append(('.'.join(scope + [d.reference]), d.size))
        elif k is TokenKind.CHANGE_TIME:
            flush()
        elif k is TokenKind.CHANGE_SCALAR:
            pending[tok.scalar_change.id_code] = str(tok.scalar_change.value).lower()
        elif k is TokenKind.CHANGE_VECTOR:
            c = tok.vector_change.id_code
            pending[c] = full(tok.vector_change.value, decl[c][0][1])
flush()
for c, vs in decl.items():
    for path, size in vs:
        print(path, size, count.get(c, 0), last.get(c, '-'))
"#;
    for wave in [rtl_wave("typed_atomic"), default_dir().join("typed_atomic.vcd")] {
        let out = Command::new("python3").arg("-c").arg(script).arg(&wave).output().unwrap();
        assert!(out.status.success(), "pyvcd: {}", String::from_utf8_lossy(&out.stderr));
        let theirs = String::from_utf8(out.stdout).unwrap();
        let ours = Waveform::read(&wave).unwrap();
        let mut lines = 0;
        for line in theirs.lines() {
            let f: Vec<&str> = line.split(' ').collect();
            let v = ours.vars.iter().find(|v| v.scope.join(".") + "." + &v.name == f[0]).unwrap_or_else(|| panic!("{}", f[0]));
            let tr = ours.trace(v);
            let last = tr.len().checked_sub(1).map_or("-".to_string(), |i| tr.value(i).binary());
            assert_eq!((v.width.to_string(), tr.len().to_string(), last), (f[1].to_string(), f[2].to_string(), f[3].to_string()), "{}", f[0]);
            lines += 1;
        }
        assert_eq!(lines, ours.vars.len());
    }
}

/// Every scenario regenerated equals its reference on the unit's ports,
/// cycle by cycle; the references cover every message kind.
#[test]
fn reference_waves_match_the_rtl() {
    let refs = default_dir();
    let all = scenarios(&refs).unwrap();
    assert!(all.len() >= 7, "{} scenarios", all.len());
    let kinds = ["SVM_ATOMIC", "DWORD_ATOMIC", "TYPED_ATOMIC", "SVM_SCATTER", "atom."];
    for k in kinds {
        assert!(
            all.iter().any(|s| std::fs::read_to_string(&s.script).unwrap().lines().any(|l| !l.starts_with('#') && l.contains(k))),
            "no scenario uses {k}"
        );
    }
    assert!(all.iter().any(|s| s.mem.stall > 0.0), "a backpressure scenario");
    for s in &all {
        assert!(gtkw_path(&refs.join(format!("{}.vcd", s.name))).exists(), "{}: no view", s.name);
    }
    let diffs = check_refs(&refs, &dir().join("refs")).unwrap();
    for d in &diffs {
        assert!(d.equal, "{d}\n(if the change is intended: atomport wave update-refs)");
    }
    assert_eq!(diffs.len(), all.len());
}

/// `atomport run --engine rtl --vcd PATH` writes the VCD and `PATH.gtkw`,
/// and the VCD passes wavecheck.
#[test]
fn run_with_vcd_writes_the_view_and_passes_wavecheck() {
    let vcd = dir().join("run-lock.vcd");
    let _ = std::fs::remove_file(gtkw_path(&vcd));
    let lock = format!("{ROOT}/examples/lock.atom");
    let (code, _, err) = atomport(&["run", &lock, "--engine", "rtl", "--vcd", s(&vcd), "--stall", "0.3", "--latency", "1..5", "--seed", "3"]);
    assert_eq!(code, 0, "{err}");
    let view = std::fs::read_to_string(gtkw_path(&vcd)).expect("the .gtkw beside the VCD");
    assert!(view.contains("-Memory write channel"));
    let (code, out, _) = atomport(&["wavecheck", s(&vcd), &lock]);
    assert_eq!(code, 0, "{out}");
}

/// The same run traced as VCD and as FST (Verilator's --trace-fst model,
/// read back with wellen) holds the same signals with the same histories,
/// and the tools (wavediff, wavecheck, render) take the FST like the VCD.
#[test]
fn fst_of_a_run_round_trips_through_wavediff_against_its_vcd() {
    let (vcd, fst) = (dir().join("rt-lock.vcd"), dir().join("rt-lock.fst"));
    let lock = format!("{ROOT}/examples/lock.atom");
    let run = ["run", &lock, "--engine", "both", "--stall", "0.3", "--latency", "1..5", "--seed", "3"];
    let (code, _, err) = atomport(&[&run[..], &["--vcd", s(&vcd)]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = atomport(&[&run[..], &["--fst", s(&fst)]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&fst).unwrap()[0], 0, "an FST starts with its header block");
    assert!(std::fs::metadata(&fst).unwrap().len() * 4 < std::fs::metadata(&vcd).unwrap().len(), "FST is compressed");

    // every var (the formats declare them in different orders), every change, both planes
    let (a, b) = (Waveform::read(&vcd).unwrap(), Waveform::read(&fst).unwrap());
    let by_name = |w: &Waveform| w.vars.iter().map(|v| (v.gtkwave_name(), v.clone())).collect::<BTreeMap<_, _>>();
    let (na, nb) = (by_name(&a), by_name(&b));
    let only = |x: &BTreeMap<String, _>, y: &BTreeMap<String, _>| x.keys().filter(|k| !y.contains_key(*k)).cloned().collect::<Vec<_>>();
    assert!(only(&na, &nb).is_empty() && only(&nb, &na).is_empty(), "VCD only: {:?}; FST only: {:?}", only(&na, &nb), only(&nb, &na));
    assert_eq!(a.vars.len(), b.vars.len());
    assert_eq!(a.timescale, b.timescale);
    assert_eq!(a.end_time, b.end_time);
    let mut changes = 0;
    for (name, va) in &na {
        let vb = &nb[name];
        let (ta, tb) = (a.trace(va), b.trace(vb));
        assert_eq!(ta.times(), tb.times(), "{}", va.path());
        for i in 0..ta.len() {
            assert!(ta.value(i).same(&tb.value(i)), "{} change {i}: {} vs {}", va.path(), ta.value(i).hex(), tb.value(i).hex());
        }
        changes += ta.len();
    }
    assert!(a.vars.len() > 100 && changes > 1000, "{} vars, {changes} changes", a.vars.len());

    let (code, out, err) = atomport(&["wavediff", "--signals", "*", "--strict", s(&vcd), s(&fst)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("equal"), "{out}");
    let (code, out, _) = atomport(&["wavecheck", s(&fst), &lock]);
    assert_eq!(code, 0, "{out}");
    let svg = dir().join("rt-lock.svg");
    let (code, _, err) = atomport(&["wave", "render", s(&fst), "--svg", s(&svg)]);
    assert_eq!(code, 0, "{err}");

    // one value of one port changed in the VCD (its low bit flipped): wavediff
    // against the FST names that signal at that time and nothing else
    let text = std::fs::read_to_string(&vcd).unwrap();
    let code = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() == 7 && f[0] == "$var" && f[4] == "rsp_data")
        .map(|f| f[3].to_string())
        .expect("rsp_data declared");
    let suffix = format!(" {code}");
    let changes: Vec<usize> = text.lines().enumerate().filter(|(_, l)| l.starts_with('b') && l.ends_with(&suffix)).map(|(i, _)| i).collect();
    assert!(changes.len() > 4, "{} rsp_data changes", changes.len());
    let target = changes[changes.len() / 2];
    let (mut time, mut flip_time) = (0u64, None);
    let mut flipped = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if let Some(t) = l.strip_prefix('#') {
            time = t.parse().unwrap();
        }
        if i == target {
            let (bits, id) = l.split_once(' ').unwrap();
            let last = if bits.ends_with('1') { '0' } else { '1' };
            flipped.push(format!("{}{last} {id}", &bits[..bits.len() - 1]));
            flip_time = Some(time);
        } else {
            flipped.push(l.to_string());
        }
    }
    let flip_time = flip_time.unwrap();
    let mutated = dir().join("rt-lock-flipped.vcd");
    std::fs::write(&mutated, flipped.join("\n") + "\n").unwrap();
    let (code, out, err) = atomport(&["wavediff", "--signals", "*", "--strict", s(&mutated), s(&fst)]);
    assert_eq!(code, 1, "{out}{err}");
    let reported: Vec<&str> = out.lines().filter(|l| l.contains("first difference at")).collect();
    assert!(!reported.is_empty(), "{out}");
    for l in &reported {
        let name = l.split(':').next().unwrap();
        assert!(name.ends_with("rsp_data"), "only rsp_data differs, not {l}");
        assert!(l.contains(&format!("first difference at {flip_time} ns")), "{l}");
    }

    // another memory seed: the FST differs, and wavediff says where
    let other = dir().join("rt-lock-seed4.fst");
    let (code, _, err) = atomport(&["run", &lock, "--engine", "rtl", "--stall", "0.3", "--latency", "1..5", "--seed", "4", "--fst", s(&other)]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = atomport(&["wavediff", s(&vcd), s(&other)]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("first difference at"), "{out}");
}

#[test]
fn fst_and_vcd_options_refuse_each_others_file_names() {
    let lock = format!("{ROOT}/examples/lock.atom");
    let (code, _, err) = atomport(&["run", &lock, "--engine", "rtl", "--vcd", "x.fst"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--fst x.fst"), "{err}");
    let (code, _, err) = atomport(&["run", &lock, "--engine", "rtl", "--fst", "x.vcd"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = atomport(&["run", &lock, "--engine", "rtl", "--fst", "a.fst", "--vcd", "a.vcd"]);
    assert_eq!(code, 2, "{err}");
}

/// A damaged FST is bad input (exit 2, the file named), not a panic.
#[test]
fn a_truncated_fst_is_exit_2() {
    let (fst, cut) = (dir().join("cut-src.fst"), dir().join("cut.fst"));
    let lock = format!("{ROOT}/examples/lock.atom");
    let (code, _, err) = atomport(&["run", &lock, "--engine", "rtl", "--fst", s(&fst)]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&fst).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let (code, _, err) = atomport(&["wavediff", s(&cut), s(&fst)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cut.fst:1:1: error: cannot read the FST"), "{err}");
}

/// `atomport xsim` on a few seeded random scripts of the serial build:
/// Verilator and the Icarus replay agree on every signal of the unit.
#[test]
fn xsim_smoke_verilator_and_icarus_agree() {
    if Command::new("iverilog").arg("-V").output().is_err() {
        eprintln!("note: iverilog not installed (apt-get install -y iverilog): xsim smoke skipped");
        return;
    }
    let work = dir().join("xsim");
    let (code, out, err) = atomport(&[
        "xsim", "--unit", "serial", "--scripts", "3", "--per-script", "20", "--seed", "7", "--jobs", "2", "--work", s(&work),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("xsim serial_unit_l8_w32_int: 3 scripts, 3 agreeing"), "{out}");
    let (code, _, err) = atomport(&["xsim", "--unit", "l9_w32", "--scripts", "1"]);
    assert_eq!(code, 2, "{err}");
}

/// The deliberate fault: a replay that loses one input's changes must make
/// the comparison fail (each input of a few, on the serial build).
#[test]
fn xsim_replay_that_drops_an_input_fails() {
    if Command::new("iverilog").arg("-V").output().is_err() {
        eprintln!("note: iverilog not installed (apt-get install -y iverilog): xsim fault test skipped");
        return;
    }
    use atomport_testbench::dut::UnitBuild;
    use atomport_testbench::MemConfig;
    use atomport_wavecheck::xsim::{run, XsimConfig};
    for port in ["req_valid", "mem_rdata", "mem_wr_ready"] {
        let cfg = XsimConfig {
            unit: UnitBuild::Serial,
            seed: 3,
            scripts: 1,
            per_script: 20,
            mem: MemConfig { latency_min: 1, latency_max: 4, stall: 0.2, seed: 3 },
            verilog_dir: Path::new(ROOT).join("hdl/verilog"),
            work: dir().join(format!("xsim-drop-{port}")),
            jobs: 1,
            drop_input: Some(port.to_string()),
            icarus_timeout: std::time::Duration::from_secs(60),
        };
        let r = run(&cfg, &|_| {}).unwrap();
        assert_eq!(r.agreeing(), 0, "{port} dropped, yet: {:?}", r.scripts);
        assert!(!r.scripts[0].differences.is_empty());
        // and the same script replayed whole agrees
        let r = run(&XsimConfig { drop_input: None, ..cfg }, &|_| {}).unwrap();
        assert_eq!(r.agreeing(), 1, "{:?}", r.scripts);
    }
}
