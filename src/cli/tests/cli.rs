//! The `atomport` binary as a shell user drives it: closed
//! pipes, `-` for standard input, the input limit, exit statuses, bad
//! option values, diagnostics on stderr.

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_atomport"));
    c.env_remove("ATOMPORT_MAX_INPUT");
    c
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("atomport-cli-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A script of `n` one-lane messages with results (large output).
fn big_script(dir: &Path, n: usize) -> PathBuf {
    let mut s = String::from("mem.u32 0x100 = 0\n");
    for i in 0..n {
        s.push_str(&format!("atom.global.add.u32 r{i}, [0x100], 1;\n"));
    }
    let p = dir.join("big.atom");
    std::fs::write(&p, s).unwrap();
    p
}

/// Runs the command with stdout a pipe whose reader is gone, as in
/// `atomport ... | head -0`.
fn into_closed_pipe(args: &[&str]) -> Output {
    let mut child = bin().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[track_caller]
fn assert_quiet_sigpipe(o: &Output, what: &str) {
    assert_eq!(o.status.signal(), Some(libc::SIGPIPE), "{what}: {:?}, stderr: {}", o.status, stderr(o));
    assert!(o.stderr.is_empty(), "{what}: stderr: {}", stderr(o));
}

#[test]
fn a_closed_pipe_ends_the_process_quietly() {
    let dir = scratch("pipe");
    let big = big_script(&dir, 5000);
    let big = big.to_str().unwrap();
    assert_quiet_sigpipe(&into_closed_pipe(&["run", big]), "run");
    assert_quiet_sigpipe(&into_closed_pipe(&["run", big, "--json"]), "run --json");
    assert_quiet_sigpipe(&into_closed_pipe(&["encode", big]), "encode");
    // two golden waves of different scripts, every signal compared
    let (a, b) = (dir.join("a.vcd"), dir.join("b.vcd"));
    let small = dir.join("small.atom");
    std::fs::write(&small, "mem.u32 0x100 = 5\natom.global.add.u32 r, [0x100], 1;\n").unwrap();
    assert!(run(&["wave", "golden", big, "--vcd", a.to_str().unwrap()]).status.success());
    assert!(run(&["wave", "golden", small.to_str().unwrap(), "--vcd", b.to_str().unwrap()]).status.success());
    let o = into_closed_pipe(&["wavediff", a.to_str().unwrap(), b.to_str().unwrap(), "--signals", "*"]);
    // wavediff's report of these two is short: it may fit the pipe buffer and exit 1
    assert!(o.status.signal() == Some(libc::SIGPIPE) || o.status.code() == Some(1), "{:?} {}", o.status, stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dash_reads_standard_input_for_every_command_that_reads_a_file() {
    let script = std::fs::read(example("lock.atom")).unwrap();
    let from_file = run(&["run", &example("lock.atom"), "--json"]);
    let from_stdin = run_stdin(&["run", "-", "--json"], &script);
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    assert_eq!(from_stdin.stdout, from_file.stdout);
    let enc = run_stdin(&["encode", "-"], &script);
    assert!(enc.status.success() && !enc.stdout.is_empty(), "{}", stderr(&enc));
    // a script error on stdin is named <stdin>
    let o = run_stdin(&["run", "-"], b"mem.u32 0 = 1\nbogus\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("<stdin>:2:1: error: unknown statement `bogus`"), "{}", stderr(&o));
    // VCD readers: wavecheck and wavediff take `-` for the VCD
    let dir = scratch("stdin");
    let vcd = dir.join("lock.vcd");
    let o = run(&["run", &example("lock.atom"), "--engine", "rtl", "--vcd", vcd.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let vcd_bytes = std::fs::read(&vcd).unwrap();
    let o = run_stdin(&["wavecheck", "-", &example("lock.atom")], &vcd_bytes);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_stdin(&["wavediff", "-", vcd.to_str().unwrap()], &vcd_bytes);
    assert!(o.status.success(), "{} {}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    // standard input is read once
    let o = run_stdin(&["wavediff", "-", "-"], &vcd_bytes);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("standard input is already read"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn input_over_the_limit_is_refused_and_endless_input_is_bounded() {
    let lock = example("lock.atom");
    let size = std::fs::metadata(&lock).unwrap().len();
    let o = run(&["run", &lock, "--max-input", &(size - 1).to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(&format!("{lock}:1:1: error: the script is larger than the input limit of {} bytes", size - 1)), "{}", stderr(&o));
    assert!(run(&["run", &lock, "--max-input", &size.to_string()]).status.success());
    // the environment variable sets it too; the option wins
    let o = bin().args(["run", &lock]).env("ATOMPORT_MAX_INPUT", "10").output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = bin().args(["run", &lock, "--max-input", "1M"]).env("ATOMPORT_MAX_INPUT", "10").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = bin().args(["run", &lock]).env("ATOMPORT_MAX_INPUT", "lots").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ATOMPORT_MAX_INPUT"), "{}", stderr(&o));
    assert_eq!(run(&["run", &lock, "--max-input", "0"]).status.code(), Some(2));
    // a device that never ends, on every reader
    for args in [&["run", "/dev/zero"][..], &["encode", "/dev/zero"], &["wavediff", "/dev/zero", "/dev/zero"]] {
        let mut args = args.to_vec();
        args.extend(["--max-input", "1M"]);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("/dev/zero:1:1: error:") && stderr(&o).contains("input limit of 1048576 bytes"), "{}", stderr(&o));
    }
    // standard input that never ends
    let mut child = bin().args(["run", "-", "--max-input", "64K"]).stdin(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || while stdin.write_all(&[b'#'; 4096]).is_ok() {});
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(2));
    writer.join().unwrap();
    assert!(err.contains("<stdin>:1:1: error: the script is larger than the input limit of 65536 bytes"), "{err}");
}

#[test]
fn every_error_of_a_script_is_reported_without_carets_when_not_a_terminal() {
    let o = run_stdin(&["run", "-"], b"\xef\xbb\xbfmem.u32 0x100 = 1\nmem.u33 0 = 1\ndmask 0b2\natom.global.add.u32 d, [%r1], 1;\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "<stdin>:2:5: error: unknown element type `u33` (types: u8 u16 u32 u64 s8 s16 s32 s64 f16 bf16 f32 f64)\n\
         <stdin>:3:7: error: `0b2` is not an integer literal (bad digit `2`)\n\
         <stdin>:4:25: error: `%r1`: symbolic operands are not supported: give a literal\n"
    );
    let o = run_stdin(&["run", "-"], b"mem.u32 0x100 = 1\nmem.u32 0x1\xff04 = 2\n");
    assert_eq!(stderr(&o), "<stdin>:2:12: error: byte 0xff is not UTF-8 text (a script is UTF-8 text)\n");
}

fn json_of(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

#[test]
fn engine_both_prints_a_verdict_and_the_comparison_in_the_json() {
    let lock = example("lock.atom");
    let golden = json_of(&run(&["run", &lock, "--json"]));
    let rtl = run(&["run", &lock, "--engine", "rtl", "--json"]);
    assert!(rtl.status.success(), "{}", stderr(&rtl));
    let rtl = json_of(&rtl);
    assert!(rtl.get("comparison").is_none(), "only `both` compares");
    let o = run(&["run", &lock, "--engine", "both", "--json", "--latency", "1..4", "--stall", "0.3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let both = json_of(&o);
    // the contract's keys are the RTL's, unchanged
    for key in ["engine", "results", "dumps"] {
        assert_eq!(both[key], rtl[key], "{key}");
    }
    assert_eq!(both["results"], golden["results"]);
    let c = &both["comparison"];
    let results = golden["results"].as_array().unwrap().len();
    assert_eq!(c["agree"], true);
    assert_eq!(c["engines"], serde_json::json!(["rtl", "golden"]));
    assert_eq!(c["results"], serde_json::json!({"rtl": results, "golden": results}));
    let txns = c["transactions"]["rtl"].as_u64().unwrap();
    assert!(txns > 0 && c["transactions"]["golden"] == txns, "{c}");
    assert!(c["final_memory_bytes"].as_u64().unwrap() > 0, "{c}");
    assert_eq!(c["first_difference"], serde_json::Value::Null);
    assert_eq!(c["rejected"], 0);
    // one verdict line on stderr with the same counts
    let verdict = format!(
        "atomport run: {lock}: RTL and golden agree: {txns} transactions, {results} results, final memory ({} non-zero bytes) equal\n",
        c["final_memory_bytes"]
    );
    assert!(stderr(&o).ends_with(&verdict), "{}", stderr(&o));
    // the table form prints the verdict too
    let o = run(&["run", &lock, "--engine", "both"]);
    assert!(stderr(&o).ends_with(&verdict), "{}", stderr(&o));
}

#[test]
fn a_small_build_lists_the_messages_it_rejects_and_says_it_could_not_run_the_script() {
    let fp = example("fp.atom");
    let golden = json_of(&run(&["run", &fp, "--json"]));
    let golden_lines: Vec<&serde_json::Value> = golden["results"].as_array().unwrap().iter().map(|r| &r["line"]).collect();
    for engine in ["rtl", "both"] {
        let o = run(&["run", &fp, "--engine", engine, "--unit", "small", "--json"]);
        assert_eq!(o.status.code(), Some(3), "{engine}: {}", stderr(&o));
        assert!(stderr(&o).contains("the l8_w32_int build cannot run this script: it rejected"), "{}", stderr(&o));
        let v = json_of(&o);
        let results = v["results"].as_array().unwrap();
        // one entry per message whose dst is not V0, as scripts.md says
        let lines: Vec<&serde_json::Value> = results.iter().map(|r| &r["line"]).collect();
        assert_eq!(lines, golden_lines, "{engine}");
        let rejected: Vec<&serde_json::Value> = results.iter().filter(|r| r.get("rejected").is_some()).collect();
        assert!(!rejected.is_empty());
        for r in &rejected {
            assert!(r["lanes"].as_array().unwrap().iter().all(|l| l.is_null()), "{r}");
            assert!(r["rejected"].as_str().unwrap().contains("l8_w32_int build does not admit"), "{r}");
        }
        // every fp.atom message is a float op: the small build runs none of them
        assert_eq!(rejected.len(), results.len());
        if engine == "both" {
            assert_eq!(v["comparison"]["rejected"].as_u64().unwrap() as usize, 16);
        }
    }
    // a script the small build admits whole runs with status 0, no `rejected`
    let o = run(&["run", &example("typed_2d.atom"), "--engine", "both", "--unit", "small", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(json_of(&o)["results"].as_array().unwrap().iter().all(|r| r.get("rejected").is_none()));
}

#[test]
fn bad_option_values_are_exit_2_before_anything_runs() {
    let dir = scratch("options");
    let lock = example("lock.atom");
    let fst = dir.join("x.fst");
    let fst = fst.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["run", &lock, "--engine", "both", "--stall", "1.0"], "need 0 <= PROB < 1"),
        (vec!["run", &lock, "--engine", "rtl", "--stall", "1"], "need 0 <= PROB < 1"),
        (vec!["run", &lock, "--stall=-0.5"], "need 0 <= PROB < 1"),
        (vec!["regress", "--stall", "1"], "need 0 <= PROB < 1"),
        (vec!["regress", "--per-script", "0"], "must be at least 1"),
        (vec!["regress", "--count", "0"], "must be at least 1"),
        (vec!["bench", "--rounds", "0"], "must be at least 1"),
        (vec!["wave", "trace-cost", "--count", "0"], "must be at least 1"),
        (vec!["wave", "render", &lock, "--svg", "x.svg", "--width", "0"], "200..=100000 pixels"),
        (vec!["run", &lock, "--engine", "rtl", "--vcd", fst], "--vcd writes VCD text, not FST"),
        (vec!["wave", "golden", &lock, "--vcd", fst], "--vcd writes VCD text, not FST"),
    ];
    for (args, want) in cases {
        let t = std::time::Instant::now();
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want) && stderr(&o).contains("error: invalid value"), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
        // refused when the command line is parsed: no simulation started
        assert!(t.elapsed().as_secs_f64() < 5.0, "{args:?}");
    }
    assert!(!Path::new(fst).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A VCD of some other design: a counter, no port of the unit.
const FOREIGN_VCD: &str = "$timescale 1ns $end\n$scope module top $end\n$var wire 1 ! clk $end\n$var wire 4 \" count [3:0] $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\nb0 \"\n#5\n1!\n#10\n0!\nb1 \"\n#15\n1!\n";

#[test]
fn wave_commands_refuse_what_would_give_an_empty_result() {
    let dir = scratch("empty");
    let foreign = dir.join("counter.vcd");
    std::fs::write(&foreign, FOREIGN_VCD).unwrap();
    let f = foreign.to_str().unwrap();
    // a view of a VCD without the unit's signals
    let o = run(&["wave", "gtkw", f]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("none of the unit's signals"), "{}", stderr(&o));
    assert!(!dir.join("counter.vcd.gtkw").exists());
    // a window that starts at or past the end (15 ns)
    let svg = dir.join("x.svg");
    for from in ["15", "16ns", "1us"] {
        let o = run(&["wave", "render", f, "--svg", svg.to_str().unwrap(), "--from", from]);
        assert_eq!(o.status.code(), Some(2), "{from}: {}", stderr(&o));
        assert!(stderr(&o).contains("past the end of") && stderr(&o).contains("(15 ns)"), "{}", stderr(&o));
        assert!(!svg.exists());
    }
    assert!(run(&["wave", "render", f, "--svg", svg.to_str().unwrap(), "--from", "14"]).status.success());
    assert!(svg.exists());
    // wavecheck names what is missing, not an empty scope
    let o = run(&["wavecheck", f, &example("lock.atom")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a waveform of the unit: no scope has any of its ports"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("``"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A PATH holding only fake installers (`apt-get`, `sudo`, `python3`,
/// `pip`) that log their calls to `calls.log` and succeed.
fn fake_installers(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.join("calls.log");
    for name in ["apt-get", "sudo", "python3", "pip", "pip3"] {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\necho \"{name} $*\" >> '{}'\nexit 0\n", log.display())).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

#[test]
fn synth_installs_nothing_unless_asked_and_says_how_to_get_a_missing_tool() {
    let dir = scratch("synth-install");
    let path = fake_installers(&dir);
    let log = dir.join("calls.log");
    let synth = |extra: &[&str]| {
        bin()
            .args(["synth", "--block", "alu", "--target", "generic", "--out", dir.join("out").to_str().unwrap()])
            .args(extra)
            .env("PATH", &path)
            .output()
            .unwrap()
    };
    // yosys is not on this PATH: an error naming it and how to get it, no installer run
    let o = synth(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("yosys is missing") && err.contains("make synth-deps") && err.contains("--install"), "{err}");
    assert!(err.contains("apt-get install -y yosys"), "{err}");
    assert!(!log.exists(), "an installer ran: {}", std::fs::read_to_string(&log).unwrap_or_default());
    // --install opts in: the installer runs (here a fake, so yosys is still missing)
    let o = synth(&["--install"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let calls = std::fs::read_to_string(&log).unwrap();
    assert!(calls.contains("apt-get") && calls.contains("install -y -qq yosys"), "{calls}");
    assert!(stderr(&o).contains("still does not run after installing yosys"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_nobody_writes_to_is_refused_after_the_wait_instead_of_hanging() {
    let dir = scratch("fifo");
    let fifo = dir.join("in.atom");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid path
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let f = fifo.to_str().unwrap();
    for args in [&["run", f][..], &["encode", f], &["wavediff", f, f]] {
        let mut child = bin().args(args).env("ATOMPORT_FIFO_WAIT", "1").stderr(Stdio::piped()).spawn().unwrap();
        let t = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if t.elapsed().as_secs() > 20 {
                child.kill().unwrap();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert_eq!(status.and_then(|s| s.code()), Some(2), "{args:?} hung or failed: {err}");
        assert!(err.contains(&format!("{f}:1:1: error: the")) && err.contains("is a FIFO that no program wrote to within 1 s"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A VCD of `n` 8-bit signals `s0..` under `top`, each set to `value`.
fn many_signals_vcd(n: usize, value: u8) -> String {
    let mut s = String::from("$timescale 1ns $end\n$scope module top $end\n");
    for i in 0..n {
        s.push_str(&format!("$var wire 8 v{i} s{i} [7:0] $end\n"));
    }
    s.push_str("$upscope $end\n$enddefinitions $end\n#0\n");
    for i in 0..n {
        s.push_str(&format!("b{value:b} v{i}\n"));
    }
    s
}

#[test]
fn wavediff_with_a_long_report_into_a_closed_pipe_ends_quietly() {
    let dir = scratch("wavediff-pipe");
    let (a, b) = (dir.join("a.vcd"), dir.join("b.vcd"));
    // 5,000 differing signals: a report far larger than a pipe's buffer
    std::fs::write(&a, many_signals_vcd(5000, 1)).unwrap();
    std::fs::write(&b, many_signals_vcd(5000, 2)).unwrap();
    let o = run(&["wavediff", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.len() > 256 << 10, "{}", o.stdout.len());
    assert_quiet_sigpipe(&into_closed_pipe(&["wavediff", a.to_str().unwrap(), b.to_str().unwrap()]), "wavediff");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wavediff_of_two_runs_of_the_unit_compares_its_ports_only() {
    let dir = scratch("wavediff-ports");
    let (a, b) = (dir.join("a.vcd"), dir.join("b.vcd"));
    let lock = example("lock.atom");
    for (vcd, stall) in [(&a, "0"), (&b, "0.3")] {
        let o = run(&["run", &lock, "--engine", "rtl", "--stall", stall, "--vcd", vcd.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o = run(&["wavediff", a, b]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("comparing the unit's ports (clock reset req_* pay_* mem_* rsp_* obs_*)"), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let port = |name: &str| ["clock", "reset"].contains(&name) || ["req_", "pay_", "mem_", "rsp_", "obs_"].iter().any(|p| name.starts_with(p));
    let lines: Vec<&str> = out.lines().collect();
    for l in &lines[..lines.len() - 1] {
        let name = l.split(':').next().unwrap();
        assert!(port(name), "not a port: {l}");
        // wide buses (pay_src0, mem_rdata: 128 bits) are shown around their first difference
        assert!(l.len() < 300, "{} chars: {l}", l.len());
    }
    let every = run(&["wavediff", a, b, "--signals", "*"]);
    let every_lines = String::from_utf8_lossy(&every.stdout).lines().count();
    assert!(every_lines > lines.len(), "every signal: {every_lines} lines, ports: {}", lines.len());
    // the clock samples the others; it is not one of the signals compared
    let o = run(&["wavediff", a, a, "--signals", "mem_rd_addr", "--clock", "clock"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("wavediff: equal: 1 signals compared, sampled on `clock`"), "{}", String::from_utf8_lossy(&o.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wave_commands_read_standard_input_and_refs_write_where_asked() {
    let dir = scratch("wave-stdin");
    let lock = std::fs::read(example("lock.atom")).unwrap();
    let g = dir.join("g.vcd");
    let o = run_stdin(&["wave", "golden", "-", "--vcd", g.to_str().unwrap()], &lock);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = dir.join("g.svg");
    let o = run_stdin(&["wave", "render", "-", "--svg", svg.to_str().unwrap()], &std::fs::read(&g).unwrap());
    assert!(o.status.success() && svg.exists(), "{}", stderr(&o));
    // replay-tb: the VCD, or the Verilog (then --module names the module), from standard input
    let rtl = dir.join("r.vcd");
    assert!(run(&["run", &example("lock.atom"), "--engine", "rtl", "--vcd", rtl.to_str().unwrap()]).status.success());
    let verilog = format!("{}/hdl/verilog/atomic_unit.v", env!("CARGO_MANIFEST_DIR"));
    let (tb1, tb2) = (dir.join("tb1.v"), dir.join("tb2.v"));
    let o = run_stdin(&["wave", "replay-tb", "-", "--verilog", &verilog, "-o", tb1.to_str().unwrap()], &std::fs::read(&rtl).unwrap());
    assert!(o.status.success(), "{}", stderr(&o));
    let v = std::fs::read(&verilog).unwrap();
    let o = run_stdin(&["wave", "replay-tb", rtl.to_str().unwrap(), "--verilog", "-", "-o", tb2.to_str().unwrap()], &v);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("give --module NAME"), "{}", stderr(&o));
    let o = run_stdin(&["wave", "replay-tb", rtl.to_str().unwrap(), "--verilog", "-", "--module", "atomic_unit", "-o", tb2.to_str().unwrap()], &v);
    assert!(o.status.success(), "{}", stderr(&o));
    // the same bench, but for the header comment naming the VCD (`<stdin>` or the file)
    let body = |p: &Path| std::fs::read_to_string(p).unwrap().lines().skip(1).collect::<Vec<_>>().join("\n");
    assert!(std::fs::read_to_string(&tb1).unwrap().starts_with("// Generated by atomport (tools/wave/src/replay.rs) from <stdin>:"));
    assert!(body(&tb1) == body(&tb2), "the benches differ");
    // update-refs / check-refs: the fresh runs go under --out (default target/waves in the
    // working directory), never into the checkout's target/ when run elsewhere
    let refs = dir.join("refs");
    std::fs::create_dir_all(refs.join("scenarios")).unwrap();
    std::fs::copy(
        format!("{}/waves/scenarios/svm_atomic.atom", env!("CARGO_MANIFEST_DIR")),
        refs.join("scenarios/cli_probe.atom"),
    )
    .unwrap();
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let o = bin().args(["wave", "update-refs", "--dir", refs.to_str().unwrap()]).current_dir(&work).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(refs.join("cli_probe.vcd").exists() && work.join("target/waves/cli_probe.vcd").exists());
    let out = dir.join("fresh");
    let o = bin()
        .args(["wave", "check-refs", "--dir", refs.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(o.status.success(), "{} {}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(out.join("cli_probe.vcd").exists());
    let checkout = format!("{}/target/waves/cli_probe.vcd", env!("CARGO_MANIFEST_DIR"));
    assert!(!Path::new(&checkout).exists(), "wrote into the checkout: {checkout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// wavecheck checks a small build's waveform against that build: read from
/// the waveform (Verilator names the unit's scope after its top module), or
/// given with `--unit`; the two must agree.
#[test]
fn wavecheck_checks_a_small_builds_waveform_against_that_build() {
    let dir = scratch("wavecheck-build");
    let histogram = example("histogram.atom");
    for (unit, name) in [("small", "l8_w32_int"), ("serial", "serial_l8_w32_int")] {
        let vcd = dir.join(format!("{unit}.vcd"));
        let vcd = vcd.to_str().unwrap();
        // the build rejects some of the script's messages: exit 3
        let o = run(&["run", &histogram, "--engine", "rtl", "--unit", unit, "--vcd", vcd]);
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        let o = run(&["wavecheck", vcd, &histogram]);
        assert_eq!(o.status.code(), Some(0), "{unit}: {}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
        assert!(String::from_utf8_lossy(&o.stdout).contains("agrees with the golden model"), "{}", String::from_utf8_lossy(&o.stdout));
        assert!(stderr(&o).contains(&format!("checking against the {name} build")), "{}", stderr(&o));
        assert_eq!(run(&["wavecheck", vcd, &histogram, "--unit", name]).status.code(), Some(0));
        let o = run(&["wavecheck", vcd, &histogram, "--unit", "full"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(&format!("--unit l32_w128 but {vcd} is a waveform of the {name} build")), "{}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wavecheck_refuses_standard_input_for_both_the_waveform_and_the_script() {
    let o = run_stdin(&["wavecheck", "-", "-"], b"$timescale 1ns $end\n$var wire 1 ! clock $end\n$enddefinitions $end\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "atomport wavecheck: error: the waveform and the script cannot both be standard input (`-`): give one of them as a file\n"
    );
}

/// A small build's waveform against its serial build's: the default
/// selection is the unit's ports by name, so internal registers whose names
/// start like a port (`rsp_data_r$d`) are neither compared nor listed.
#[test]
fn wavediff_of_two_builds_compares_ports_and_lists_no_internal_register() {
    let dir = scratch("wavediff-builds");
    let lock = example("lock.atom");
    let (small, serial) = (dir.join("small.vcd"), dir.join("serial.vcd"));
    for (unit, vcd) in [("small", &small), ("serial", &serial)] {
        let o = run(&["run", &lock, "--engine", "rtl", "--unit", unit, "--vcd", vcd.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = run(&["wavediff", small.to_str().unwrap(), serial.to_str().unwrap()]);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(o.status.code() == Some(0) || o.status.code() == Some(1), "{err}");
    assert!(err.contains("comparing the unit's ports"), "{err}");
    assert!(!out.contains('$') && !err.contains('$'), "an internal signal:\n{out}\n{err}");
    assert!(!err.contains("only in"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn synth_table_refuses_a_block_instead_of_ignoring_it() {
    let t = std::time::Instant::now();
    let o = run(&["synth", "--table", "--block", "alu", "--print-only"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--table runs every default block") && stderr(&o).contains("--block"), "{}", stderr(&o));
    assert!(t.elapsed().as_secs() < 10, "it ran: {:?}", t.elapsed());
}

/// The serial build says its own name in the rejection notes, the coverage
/// report and the JUnit file; a build's rejection is not a mismatch.
#[test]
fn the_serial_build_names_itself_and_a_rejection_is_not_a_mismatch() {
    let dir = scratch("serial-names");
    let junit = dir.join("r.xml");
    let o = run(&["run", &example("fp.atom"), "--engine", "both", "--unit", "serial", "--junit", junit.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("(the serial_l8_w32_int build rejects it:"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("the l8_w32_int build"), "{}", stderr(&o));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("type=\"rejected\"") && !xml.contains("type=\"mismatch\""), "{xml}");
    let o = run(&["regress", "--unit", "serial", "--count", "2", "--per-script", "1", "--jobs", "1", "--quiet", "--coverage"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("the serial_l8_w32_int build") && !out.contains("the l8_w32_int build"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_of_one_shard_alone_lists_the_rest_as_missing() {
    let dir = scratch("merge-one");
    let s1 = dir.join("s1.json");
    let o = run(&["regress", "--count", "6", "--per-script", "2", "--jobs", "1", "--quiet", "--shard", "1/3", "--report", s1.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = dir.join("all.json");
    let o = run(&["merge", s1.to_str().unwrap(), "--out", all.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("1 scripts of 3") && out.contains("MISSING 2 scripts no report holds: 1 2"), "{out}");
    let merged: serde_json::Value = serde_json::from_slice(&std::fs::read(&all).unwrap()).unwrap();
    assert_eq!(merged["totals"]["missing"], serde_json::json!([1, 2]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A corrupted FST is bad input (exit 2, `FILE:1:1: error: ...`), never a
/// panic inside the reader, for every command that reads a waveform.
#[test]
fn a_corrupted_fst_is_an_error_not_a_panic() {
    let dir = scratch("bad-fst");
    let fst = dir.join("lock.fst");
    let lock = example("lock.atom");
    let o = run(&["run", &lock, "--engine", "rtl", "--fst", fst.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let good = std::fs::read(&fst).unwrap();
    // the first value-change block follows the 329-byte header block: its
    // time table (the lengths and count in its last 24 bytes) is read by
    // every reader, where a corruption inside one signal's data is seen only
    // by a reader of that signal
    assert_eq!(good[330], 8, "the first block after the header is a value-change block");
    let block_end = 331 + u64::from_be_bytes(good[331..339].try_into().unwrap()) as usize;
    let mut time_table = good.clone();
    time_table[block_end - 20..block_end - 16].copy_from_slice(b"\xde\xad\xbe\xef");
    // the block's own length (where every reader finds the next block)
    let mut zeroed = good.clone();
    zeroed[331..339].fill(0);
    for (what, bytes) in [("4 bytes in the time table's lengths", time_table), ("the first block's length zeroed", zeroed)] {
        let bad = dir.join("bad.fst");
        std::fs::write(&bad, bytes).unwrap();
        let b = bad.to_str().unwrap();
        let svg = dir.join("x.svg");
        for args in [vec!["wavediff", b, b], vec!["wavecheck", b, &lock], vec!["wave", "render", b, "--svg", svg.to_str().unwrap()]] {
            let o = run(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{what}: {args:?}: {err}");
            assert!(err.starts_with(&format!("{b}:1:1: error: cannot read the FST")), "{what}: {args:?}: {err}");
            assert!(!err.contains("panicked"), "{what}: {args:?}: {err}");
        }
        assert!(!svg.exists());
    }
    // a time table claiming 2^33 entries (the fuzzer's first finding: the
    // reader asked for 64 GiB, an allocation abort) is refused up front
    let hostile = format!("{}/fuzz/corpus/fst/0a09f6f13a7e861f841f6867515d9a705a92cfc3", env!("CARGO_MANIFEST_DIR"));
    let o = run(&["wavediff", &hostile, &hostile]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).ends_with("cannot read the FST: the file is damaged (time table at byte 330: 8589934592 times in 0 bytes)\n"), "{}", stderr(&o));
    // an FST over the input limit is called a waveform, not a VCD
    let o = run(&["wavediff", fst.to_str().unwrap(), fst.to_str().unwrap(), "--max-input", "100"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the waveform is larger than the input limit of 100 bytes"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 1,000 nested scopes are refused at once, not compared for seconds.
#[test]
fn deeply_nested_scopes_are_refused_quickly() {
    let dir = scratch("deep");
    let mut vcd = String::from("$timescale 1ns $end\n");
    for i in 0..1000 {
        vcd += &format!("$scope module s{i} $end\n$var wire 1 !{i} v $end\n");
    }
    vcd += &"$upscope $end\n".repeat(1000);
    vcd += "$enddefinitions $end\n#0\n";
    let f = dir.join("deep.vcd");
    std::fs::write(&f, vcd).unwrap();
    let t = std::time::Instant::now();
    let o = run(&["wavediff", f.to_str().unwrap(), f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(":514:1: error: `$scope` nested deeper than 256 levels"), "{}", stderr(&o));
    assert!(t.elapsed().as_secs_f64() < 5.0, "{:?}", t.elapsed());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Messages that said something else than what was wrong.
#[test]
fn messages_say_what_is_wrong() {
    let dir = scratch("messages");
    let o = run(&["regress", "--count", "99999999999999999999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is too large (at most 18446744073709551615)"), "{}", stderr(&o));
    let o = run(&["run", &example("lock.atom"), "--engine", "rtl", "--stall", "-0.1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("-0.1 is not a stall probability"), "{}", stderr(&o));
    let o = run_stdin(&["run", "-"], b"mem.u32 0 = 12345678901234567890123456789012345678901234\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not fit 32 bits"), "{}", stderr(&o));
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "").unwrap();
    let o = run(&["merge", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), format!("{}:1:1: error: not JSON: the file is empty\n", empty.display()));
    let o = run_stdin(&["encode", "-"], b"mem.u32 0x100 = 1\ndump 0x100 4\n");
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("<stdin> has no messages: nothing to encode"), "{}", stderr(&o));
    let help = String::from_utf8_lossy(&run(&["run", "--help"]).stdout).into_owned();
    assert!(help.contains("or `-` for standard input"), "{help}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// synth's run directories go under the working directory's target/, not
/// the checkout's, wherever it runs.
#[test]
fn synth_writes_its_logs_under_the_working_directory() {
    if !Command::new("yosys").arg("-V").output().is_ok_and(|o| o.status.success()) {
        eprintln!("NOTICE: yosys not installed: skipped");
        return;
    }
    let dir = scratch("synth-cwd");
    let block = "atomic_alu$float$add_half$r1_a_inf";
    let o = bin().args(["synth", "--block", block, "--target", "generic"]).current_dir(&dir).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("target/synth/atomic_alu_float_add_half_r1_a_inf-generic").is_dir());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--until-covered --budget N` runs at most N messages after the first
/// `--count`: the last extra script takes what is left of the budget.
#[test]
fn until_covered_keeps_to_its_budget() {
    for budget in [5usize, 70] {
        let b = budget.to_string();
        let o = run(&["regress", "--count", "2", "--per-script", "30", "--jobs", "1", "--quiet", "--until-covered", "--budget", &b]);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{out}{}", stderr(&o));
        let line = out.lines().find(|l| l.contains("--until-covered:")).unwrap_or_else(|| panic!("{out}"));
        // "--until-covered: S more scripts (M messages) after the first 2; ..."
        let messages: usize = line.split('(').nth(1).and_then(|s| s.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(messages, budget, "budget {budget}: {line}");
        assert!(line.contains(&format!("budget of {budget} messages spent")), "{line}");
        // what ran: the first 2 and the budget
        assert!(out.starts_with(&format!("regress seed 1: {} messages in ", 2 + budget)), "{out}");
    }
}
