//! What CI picks up: `wavecheck --report/--junit`, and
//! every JUnit file atomport writes (`regress`, `run`, `wavecheck`, `merge`)
//! valid against the Ant / Jenkins JUnit schema
//! (testbench/schemas/junit-ant.xsd, checked with xmllint when installed).

use std::path::PathBuf;
use std::process::{Command, Output};

use atomport_testbench::results::xmllint_junit;

fn run(args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_atomport")).args(args).output().unwrap();
    eprintln!("atomport {}\n{}{}", args.join(" "), String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    o
}

fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("atomport-ci-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Valid against the schema, or a notice when xmllint is not installed.
fn assert_valid_junit(path: &str) {
    let xml = std::fs::read_to_string(path).unwrap();
    match xmllint_junit(&xml) {
        Ok(false) => eprintln!("NOTICE: xmllint not installed (Debian libxml2-utils): {path} not validated against the JUnit schema"),
        r => assert!(matches!(r, Ok(true)), "{r:?} {path}:\n{xml}"),
    }
}

fn json(path: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn wavecheck_writes_a_report_and_a_junit_case_with_the_reproduce_command() {
    let d = scratch("wavecheck");
    let p = |name: &str| d.join(name).display().to_string();
    let lock = example("lock.atom");
    let o = run(&["run", &lock, "--engine", "rtl", "--vcd", &p("lock.vcd"), "--latency", "1..4", "--stall", "0.2"]);
    assert_eq!(o.status.code(), Some(0));
    let ok = run(&["wavecheck", &p("lock.vcd"), &lock, "--report", &p("ok.json"), "--junit", &p("ok.xml")]);
    assert_eq!(ok.status.code(), Some(0));
    let r = json(&p("ok.json"));
    assert_eq!(r["format"], "atomport-wavecheck/1");
    assert_eq!((r["agrees"].as_bool(), r["failure"].is_null()), (Some(true), true), "{r}");
    assert_eq!(r["counts"]["dones"], 9, "lock.atom has 9 messages: {r}");
    assert!(r["cycles"].as_u64().unwrap() > 9 && r["scope"].is_string(), "{r}");
    let xml = std::fs::read_to_string(p("ok.xml")).unwrap();
    assert!(xml.contains("tests=\"1\" failures=\"0\"") && !xml.contains("<failure"), "{xml}");
    assert_valid_junit(&p("ok.xml"));

    // the same waveform against a script whose critical section adds 6, not 5
    let text = std::fs::read_to_string(&lock).unwrap().replace("cs [5 5 5 5 5 5 5 5]", "cs [6 6 6 6 6 6 6 6]");
    std::fs::write(p("lock6.atom"), text).unwrap();
    let bad = run(&["wavecheck", &p("lock.vcd"), &p("lock6.atom"), "--report", &p("bad.json"), "--junit", &p("bad.xml")]);
    assert_eq!(bad.status.code(), Some(1));
    let r = json(&p("bad.json"));
    let reproduce = format!("atomport wavecheck {} {} --clock clock", p("lock.vcd"), p("lock6.atom"));
    assert_eq!(r["agrees"], false);
    assert_eq!(r["reproduce"], reproduce.as_str());
    let f = &r["failure"];
    assert!(f["signal"].is_string() && f["what"].as_str().is_some_and(|w| w.contains("line ")), "{r}");
    assert!(String::from_utf8_lossy(&bad.stdout).contains(f["what"].as_str().unwrap().lines().next().unwrap()), "the report's failure is the one printed");
    let xml = std::fs::read_to_string(p("bad.xml")).unwrap();
    assert!(xml.contains("tests=\"1\" failures=\"1\""), "{xml}");
    let case = xml.split("<testcase").nth(1).unwrap();
    // in the failure's one-line message and on a line of its text
    let failure = case.split("<failure ").nth(1).expect("a failure element");
    let (message, text) = failure.split_once("\">").unwrap();
    assert!(message.contains(&format!("-- reproduce: {reproduce}")), "{message}");
    assert!(text.lines().any(|l| l == format!("reproduce: {reproduce}")), "{text}");
    assert_valid_junit(&p("bad.xml"));
    // the reproduce command fails the same way
    let words: Vec<&str> = reproduce.split(' ').skip(1).collect();
    assert_eq!(run(&words).status.code(), Some(1));

    // a report that cannot be written: exit 2
    let o = run(&["wavecheck", &p("lock.vcd"), &lock, "--report", "/dev/null/r.json"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `regress`, `run` (passing and failing), `merge`: every JUnit file valid.
#[test]
fn every_junit_file_atomport_writes_is_valid_against_the_schema() {
    let d = scratch("junit");
    let p = |name: &str| d.join(name).display().to_string();
    let base = ["regress", "--seed", "21", "--count", "400", "--per-script", "100", "--quiet"];
    assert_eq!(run(&[&base[..], &["--junit", &p("regress.xml")]].concat()).status.code(), Some(0));
    for k in 1..=2 {
        let shard = format!("{k}/2");
        assert_eq!(run(&[&base[..], &["--shard", &shard, "--report", &p(&format!("s{k}.json"))]].concat()).status.code(), Some(0));
    }
    assert_eq!(run(&["merge", &p("s1.json"), &p("s2.json"), "--junit", &p("merge.xml")]).status.code(), Some(0));
    assert_eq!(run(&["run", &example("lock.atom"), "--engine", "both", "--junit", &p("run.xml")]).status.code(), Some(0));
    let small = run(&["run", &example("histogram.atom"), "--engine", "both", "--unit", "small", "--junit", &p("run-small.xml")]);
    assert_eq!(small.status.code(), Some(3));
    assert!(std::fs::read_to_string(p("run-small.xml")).unwrap().contains("reproduce: atomport run "));
    for f in ["regress.xml", "merge.xml", "run.xml", "run-small.xml"] {
        assert_valid_junit(&p(f));
    }
}
