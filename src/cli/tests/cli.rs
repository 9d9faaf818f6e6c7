//! The `atomport` binary as a shell user drives it (issue 14): closed
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
