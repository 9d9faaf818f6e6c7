//! Fault injection on every output of every command that writes one
//! (README "Outputs", core/src/output_file.rs): each output in turn is
//! pointed at /dev/full, into a folder that does not exist, at one of the
//! command's inputs, and at a non-regular file (a FIFO); standard output at
//! /dev/full. Then real write errors: a file size limit of one byte
//! (RLIMIT_FSIZE: every write fails, as on a full disk) and, where the
//! machine lets a test mount one (root, `unshare`), a full tmpfs.
//!
//! Every case must give exit status 2, a message naming what went wrong, no
//! panic and no abort, no file left behind (not even a temporary one), and
//! inputs byte for byte as they were.

use std::collections::BTreeMap;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_atomport"));
    c.env_remove("ATOMPORT_MAX_INPUT");
    c
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn must(o: Output, what: &str) -> Output {
    assert!(o.status.success(), "{what}: {:?}\n{}", o.status, text(&o.stderr));
    o
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Every file under `dir` (hidden ones too) with its bytes; FIFOs by name.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let t = std::fs::symlink_metadata(&p).unwrap().file_type();
            if t.is_dir() {
                todo.push(p);
            } else if t.is_file() {
                let bytes = std::fs::read(&p).unwrap();
                out.insert(p, bytes);
            } else {
                out.insert(p, b"(not a regular file)".to_vec());
            }
        }
    }
    out
}

/// What the commands read and where their outputs may go.
struct Fixture {
    dir: PathBuf,
    /// the inputs (inside `dir/in`)
    script: String,
    vcd: String,
    shard1: String,
    shard2: String,
    refs: String,
    /// a script named like the GTKWave view of `dir/in/view.vcd`
    view_script: String,
    /// a FIFO (`dir/fifo`) and a folder for good outputs (`dir/out`)
    fifo: String,
    out: PathBuf,
}

impl Fixture {
    /// A fresh fixture in a folder of its own (`test` names it).
    fn new(test: &str) -> Fixture {
        let dir = std::env::temp_dir().join(format!("atomport-output-faults-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let input = dir.join("in");
        std::fs::create_dir_all(input.join("refs/scenarios")).unwrap();
        std::fs::create_dir_all(dir.join("out")).unwrap();
        let lock = std::fs::read(format!("{ROOT}/examples/lock.atom")).unwrap();
        std::fs::write(input.join("lock.atom"), &lock).unwrap();
        std::fs::write(input.join("view.vcd.gtkw"), &lock).unwrap();
        let p = |name: &str| input.join(name).display().to_string();
        must(bin().args(["run", &p("lock.atom"), "--engine", "rtl", "--vcd", &p("lock.vcd")]).output().unwrap(), "the fixture VCD");
        std::fs::remove_file(input.join("lock.vcd.gtkw")).unwrap();
        for k in [1, 2] {
            let shard = format!("{k}/2");
            let report = p(&format!("s{k}.json"));
            let regress = ["regress", "--count", "2", "--per-script", "1", "--jobs", "1", "--quiet", "--shard", &shard, "--report", &report];
            must(bin().args(regress).arg("--out").arg(dir.join("regress")).output().unwrap(), "a shard report");
        }
        let _ = std::fs::remove_dir_all(dir.join("regress"));
        for f in ["scenarios/svm_atomic.atom", "svm_atomic.vcd"] {
            std::fs::copy(format!("{ROOT}/waves/{f}"), input.join("refs").join(f)).unwrap();
        }
        mkfifo(&dir.join("fifo"));
        Fixture {
            script: p("lock.atom"),
            vcd: p("lock.vcd"),
            shard1: p("s1.json"),
            shard2: p("s2.json"),
            refs: p("refs"),
            view_script: p("view.vcd.gtkw"),
            fifo: dir.join("fifo").display().to_string(),
            out: dir.join("out"),
            dir,
        }
    }

    fn out(&self, name: &str) -> String {
        self.out.join(name).display().to_string()
    }

    fn missing(&self, name: &str) -> String {
        self.dir.join("no-such-folder").join(name).display().to_string()
    }
}

/// One output of a command: the argument index it is at in `args`, and
/// whether it names a folder.
struct Target {
    what: &'static str,
    at: usize,
    folder: bool,
    /// an input of the command this output may be pointed at (`None`: the
    /// command reads nothing it could be)
    input: Option<String>,
}

struct Spec {
    name: &'static str,
    args: Vec<String>,
    outputs: Vec<Target>,
}

fn spec(name: &'static str, args: &[&str], outputs: Vec<Target>) -> Spec {
    Spec { name, args: args.iter().map(|s| s.to_string()).collect(), outputs }
}

fn file(what: &'static str, at: usize, input: Option<&str>) -> Target {
    Target { what, at, folder: false, input: input.map(str::to_string) }
}

fn folder(what: &'static str, at: usize, input: Option<&str>) -> Target {
    Target { what, at, folder: true, input: input.map(str::to_string) }
}

/// Every command that writes files, with good paths for each output.
fn specs(f: &Fixture) -> Vec<Spec> {
    let (s, v) = (f.script.as_str(), f.vcd.as_str());
    let o = |n: &str| f.out(n);
    let unit_v = format!("{ROOT}/hdl/verilog/atomic_unit.v");
    let mut specs = vec![
        spec(
            "run --vcd --report --junit",
            &["run", s, "--engine", "rtl", "--vcd", &o("r.vcd"), "--report", &o("r.json"), "--junit", &o("r.xml")],
            vec![file("--vcd", 5, Some(s)), file("--report", 7, Some(s)), file("--junit", 9, Some(s))],
        ),
        spec("run --fst", &["run", s, "--engine", "rtl", "--fst", &o("r.fst")], vec![file("--fst", 5, Some(s))]),
        spec(
            "regress",
            &["regress", "--count", "2", "--per-script", "1", "--jobs", "1", "--quiet", "--out", &o("fails"), "--report", &o("g.json"), "--junit", &o("g.xml")],
            vec![folder("--out", 9, None), file("--report", 11, None), file("--junit", 13, None)],
        ),
        spec(
            "merge",
            &["merge", &f.shard1, &f.shard2, "--out", &o("m.json"), "--junit", &o("m.xml")],
            vec![file("--out", 4, Some(&f.shard1)), file("--junit", 6, Some(&f.shard2))],
        ),
        spec(
            "wavecheck",
            &["wavecheck", v, s, "--report", &o("c.json"), "--junit", &o("c.xml")],
            vec![file("--report", 4, Some(v)), file("--junit", 6, Some(s))],
        ),
        spec("wave render", &["wave", "render", v, "--svg", &o("w.svg")], vec![file("--svg", 4, Some(v))]),
        spec("wave golden", &["wave", "golden", s, "--vcd", &o("g.vcd")], vec![file("--vcd", 4, Some(s))]),
        spec(
            "wave replay-tb",
            &["wave", "replay-tb", v, "--verilog", &unit_v, "-o", &o("tb.v")],
            vec![file("-o", 6, Some(v))],
        ),
        spec("wave trace-cost", &["wave", "trace-cost", "--count", "1", "--per-script", "1", "--dir", &o("tc")], vec![folder("--dir", 7, None)]),
        spec(
            "wave check-refs",
            &["wave", "check-refs", "--dir", &f.refs, "--out", &o("fresh")],
            vec![folder("--out", 5, Some(&f.refs))],
        ),
        spec(
            "wave update-refs",
            &["wave", "update-refs", "--dir", &f.refs, "--out", &o("fresh")],
            vec![folder("--out", 5, Some(&f.refs))],
        ),
        spec(
            "synth",
            &["synth", "--block", "atomic_alu$float$add_half$r1_a_inf", "--target", "generic", "--out", &o("synth")],
            vec![folder("--out", 6, None)],
        ),
    ];
    specs.push(spec(
        "mutate",
        &["mutate", "--block", "alu", "--report", &o("m.json"), "--junit", &o("m.xml"), "--out", &o("mut")],
        vec![file("--report", 4, None), file("--junit", 6, None), folder("--out", 8, None)],
    ));
    specs.push(spec("xsim", &["xsim", "--unit", "serial_l8_w32_int", "--scripts", "1", "--work", &o("xs")], vec![folder("--work", 6, None)]));
    if cfg!(feature = "hdl") {
        specs.push(spec("emit --variant", &["emit", "--variant", "alu_int", "--out", &o("v")], vec![folder("--out", 4, None)]));
    }
    specs
}

/// Runs one fault case and checks everything the module doc promises.
#[track_caller]
fn expect_refusal(f: &Fixture, case: &str, mut cmd: Command, message: &str) {
    let before = snapshot(&f.dir);
    let o = cmd.stdin(Stdio::null()).output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{case}: {:?}\nstderr: {err}", o.status);
    assert!(!err.contains("panicked") && !err.contains("terminate called"), "{case}: {err}");
    assert!(err.contains(message), "{case}: stderr does not say `{message}`:\n{err}");
    let after = snapshot(&f.dir);
    assert_eq!(before.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>(), "{case}: files appeared or went: {err}");
    for (path, bytes) in &before {
        assert!(after[path] == *bytes, "{case}: {} changed", path.display());
    }
    assert!(std::fs::metadata("/dev/full").unwrap().file_type().is_char_device(), "{case}: /dev/full replaced");
    assert!(std::fs::metadata(&f.fifo).unwrap().file_type().is_fifo(), "{case}: the FIFO replaced");
}

fn with_arg(args: &[String], at: usize, value: &str) -> Vec<String> {
    assert!(args[at - 1].starts_with('-'), "{args:?}: {at} is not an option's value");
    let mut a = args.to_vec();
    a[at] = value.to_string();
    a
}

#[test]
fn every_output_refuses_dev_full_a_missing_folder_an_input_and_a_fifo() {
    let f = Fixture::new("refusals");
    let mut cases = 0;
    for s in specs(&f) {
        for t in &s.outputs {
            let mut faults = vec![
                ("/dev/full", "/dev/full".to_string(), if t.folder { "is a character device, not a folder" } else { "is a character device" }),
                ("a missing folder", f.missing("x"), "does not exist"),
                ("a FIFO", f.fifo.clone(), if t.folder { "is a FIFO, not a folder" } else { "is a FIFO" }),
            ];
            if let Some(input) = &t.input {
                faults.push(("an input", input.clone(), if s.name == "wave update-refs" { "name the same file" } else { "never replaces an input" }));
            }
            for (fault, path, message) in faults {
                let args = with_arg(&s.args, t.at, &path);
                let mut cmd = bin();
                cmd.args(&args);
                expect_refusal(&f, &format!("{} {} at {fault}", s.name, t.what), cmd, message);
                cases += 1;
            }
        }
    }
    // the GTKWave view beside a waveform is an output too
    let view_fifo = f.out("fifo-view.vcd");
    mkfifo(Path::new(&format!("{view_fifo}.gtkw")));
    for (name, args) in [
        ("run --vcd", vec!["run", &f.script, "--engine", "rtl", "--vcd", &view_fifo]),
        ("wave golden", vec!["wave", "golden", &f.script, "--vcd", &view_fifo]),
    ] {
        let mut cmd = bin();
        cmd.args(&args);
        expect_refusal(&f, &format!("{name}'s view at a FIFO"), cmd, "the GTKWave view is a FIFO");
    }
    let view_of_input = f.dir.join("in/view.vcd").display().to_string();
    let mut cmd = bin();
    cmd.args(["run", &f.view_script, "--engine", "rtl", "--vcd", &view_of_input]);
    expect_refusal(&f, "run --vcd whose view is the script", cmd, "the GTKWave view is the input");
    let mut cmd = bin();
    cmd.args(["wave", "gtkw", &f.out("fifo-view.vcd")]);
    expect_refusal(&f, "wave gtkw at a FIFO", cmd, "is a FIFO");
    std::fs::remove_file(format!("{view_fifo}.gtkw")).unwrap();
    assert!(cases >= 50, "{cases} cases");
    std::fs::remove_dir_all(&f.dir).unwrap();
}

/// Standard output at /dev/full, with every command.
#[test]
fn every_command_reports_a_standard_output_it_cannot_write() {
    let f = Fixture::new("stdout");
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let (s, v) = (f.script.as_str(), f.vcd.as_str());
    let unit_v = format!("{ROOT}/hdl/verilog/atomic_unit.v");
    let fresh = f.out("fresh");
    let tc = f.out("tc");
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["--version"],
        vec!["run", "--help"],
        vec!["run", s],
        vec!["run", s, "--engine", "both", "--json"],
        vec!["encode", s],
        vec!["decode", "7d000500000101020003"],
        vec!["regress", "--count", "2", "--per-script", "1", "--jobs", "1", "--quiet"],
        vec!["merge", &f.shard1, &f.shard2],
        vec!["bench", "--rounds", "1"],
        vec!["wavediff", v, v],
        vec!["wavecheck", v, s],
        vec!["wave", "render", v, "--svg", "-"],
        vec!["wave", "replay-tb", v, "--verilog", &unit_v, "-o", "/dev/stdout"],
        vec!["wave", "trace-cost", "--count", "1", "--per-script", "1", "--dir", &tc],
        vec!["wave", "check-refs", "--dir", &f.refs, "--out", &fresh],
    ];
    if Command::new("yosys").arg("-V").output().is_ok_and(|o| o.status.success()) {
        commands.push(vec!["synth", "--block", "atomic_alu$float$add_half$r1_a_inf", "--target", "generic", "--out", &tc]);
    } else {
        eprintln!("NOTICE: yosys not installed: synth's standard output not checked");
    }
    if cfg!(feature = "hdl") {
        commands.push(vec!["emit", "--variant", "alu_int", "--out", &tc]);
    }
    for args in &commands {
        let o = bin().args(args).stdout(full()).stderr(Stdio::piped()).output().unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {:?} {err}", o.status);
        assert!(err.contains(": error: cannot write to standard output: No space left on device"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&f.dir).unwrap();
}

/// Runs `args` with every write failing: a file size limit of one byte
/// (writes past it fail with EFBIG, as they do with ENOSPC on a full disk).
fn with_one_byte_file_limit(args: &[String]) -> Output {
    let mut cmd = bin();
    cmd.args(args).stdin(Stdio::null());
    // SAFETY: setrlimit only, between fork and exec
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: 1, rlim_max: 1 };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.output().unwrap()
}

/// The outputs that hold more than a byte, each alone, into `dir`.
fn writing_cases(f: &Fixture, dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    let o = |n: &str| dir.join(n).display().to_string();
    let (s, v) = (f.script.clone(), f.vcd.clone());
    let strs = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        ("run --vcd", strs(&["run", &s, "--engine", "rtl", "--vcd", &o("r.vcd")])),
        ("run --fst", strs(&["run", &s, "--engine", "both", "--fst", &o("r.fst")])),
        ("run --report", strs(&["run", &s, "--report", &o("r.json")])),
        ("run --junit", strs(&["run", &s, "--junit", &o("r.xml")])),
        ("regress --report", strs(&["regress", "--count", "2", "--per-script", "1", "--jobs", "1", "--quiet", "--report", &o("g.json")])),
        ("merge --out", strs(&["merge", &f.shard1, &f.shard2, "--out", &o("m.json")])),
        ("wavecheck --report", strs(&["wavecheck", &v, &s, "--report", &o("c.json")])),
        ("wave render", strs(&["wave", "render", &v, "--svg", &o("w.svg")])),
        ("wave golden", strs(&["wave", "golden", &s, "--vcd", &o("g.vcd")])),
        ("wave replay-tb", strs(&["wave", "replay-tb", &v, "--verilog", &format!("{ROOT}/hdl/verilog/atomic_unit.v"), "-o", &o("tb.v")])),
        ("wave update-refs", strs(&["wave", "update-refs", "--dir", &o("refs"), "--out", &o("fresh")])),
    ]
}

#[track_caller]
fn expect_write_error(case: &str, o: &Output, dir_listing: &[String]) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{case}: {:?}\n{err}", o.status);
    assert!(!err.contains("panicked") && !err.contains("terminate called"), "{case}: {err}");
    let said = ["File too large", "No space left on device", "bus error", "incomplete file"];
    assert!(said.iter().any(|m| err.contains(m)), "{case}: no write error named:\n{err}");
    assert!(dir_listing.is_empty(), "{case}: left {dir_listing:?}\n{err}");
}

/// Files in `dir`, hidden ones too (no folders).
fn listing(dir: &Path) -> Vec<String> {
    snapshot(dir).keys().map(|p| p.strip_prefix(dir).unwrap().display().to_string()).collect()
}

#[test]
fn a_write_that_fails_midway_leaves_no_file_and_is_exit_2() {
    let f = Fixture::new("midway");
    let inputs = snapshot(&f.dir.join("in"));
    for (case, args) in writing_cases(&f, &f.out) {
        if case == "wave update-refs" {
            // the references' folder, a copy of the fixture's
            let refs = f.out.join("refs");
            std::fs::create_dir_all(refs.join("scenarios")).unwrap();
            std::fs::copy(f.dir.join("in/refs/scenarios/svm_atomic.atom"), refs.join("scenarios/svm_atomic.atom")).unwrap();
        }
        let o = with_one_byte_file_limit(&args);
        let mut left = listing(&f.out);
        left.retain(|p| p != "refs/scenarios/svm_atomic.atom");
        expect_write_error(case, &o, &left);
        let _ = std::fs::remove_dir_all(f.out.join("refs"));
        let _ = std::fs::remove_dir_all(f.out.join("fresh"));
    }
    assert!(snapshot(&f.dir.join("in")) == inputs, "an input changed");
    std::fs::remove_dir_all(&f.dir).unwrap();
}

/// Whether this machine lets a test mount a tmpfs in a mount namespace of
/// its own (root, util-linux `unshare`).
fn can_mount_tmpfs(at: &Path) -> bool {
    Command::new("unshare")
        .args(["-m", "sh", "-c", "mount -t tmpfs -o size=16k tmpfs \"$0\""])
        .arg(at)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_full_file_system_leaves_no_file_and_is_exit_2() {
    let f = Fixture::new("full");
    let full = f.dir.join("full");
    std::fs::create_dir_all(&full).unwrap();
    if !can_mount_tmpfs(&full) {
        eprintln!("NOTICE: cannot mount a tmpfs here (needs root and unshare): the full-disk cases are covered by the file size limit only");
        std::fs::remove_dir_all(&f.dir).unwrap();
        return;
    }
    let inputs = snapshot(&f.dir.join("in"));
    for (case, args) in writing_cases(&f, &full) {
        // a 64 KiB tmpfs of this process's own, filled to the last byte
        // (the update-refs case gets its scenario first), then the command;
        // the listing of what is left is printed after a marker line
        let script = "mount -t tmpfs -o size=64k tmpfs \"$0\" || exit 99; \
             if [ -n \"$REFS\" ]; then mkdir -p \"$0/refs/scenarios\" && cp \"$REFS\" \"$0/refs/scenarios/\"; fi; \
             cat /dev/zero > \"$0/filler\" 2>/dev/null; \
             \"$@\" >/dev/null; rc=$?; echo '--- left:' >&2; cd \"$0\" && find . -type f ! -name filler ! -path './refs/scenarios/*' >&2; exit $rc";
        let refs = if case == "wave update-refs" { f.dir.join("in/refs/scenarios/svm_atomic.atom").display().to_string() } else { String::new() };
        let o = Command::new("unshare")
            .args(["-m", "sh", "-c", script])
            .arg(&full)
            .arg(env!("CARGO_BIN_EXE_atomport"))
            .args(&args)
            .env("REFS", refs)
            .env_remove("ATOMPORT_MAX_INPUT")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = text(&o.stderr);
        let (msg, left) = err.split_once("--- left:\n").unwrap_or((&err, ""));
        let left: Vec<String> = left.lines().map(str::to_string).collect();
        let o = Output { status: o.status, stdout: o.stdout, stderr: msg.as_bytes().to_vec() };
        expect_write_error(&format!("{case} on a full tmpfs"), &o, &left);
    }
    assert!(snapshot(&f.dir.join("in")) == inputs, "an input changed");
    std::fs::remove_dir_all(&f.dir).unwrap();
}

/// Output paths are checked before the work: a regression whose report
/// cannot be written runs nothing.
#[test]
fn an_unwritable_report_stops_a_regression_before_it_runs() {
    let start = std::time::Instant::now();
    let o = bin().args(["regress", "--count", "3000", "--report", "/proc/x.json"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty(), "it ran: {}", text(&o.stdout));
    assert!(text(&o.stderr).starts_with("/proc/x.json: error: --report: cannot write in the folder /proc"), "{}", text(&o.stderr));
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}
