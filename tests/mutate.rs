//! `atomport mutate` as a user runs it, on a small sample of the ALU's
//! mutants (the full runs are `make mutate`): the report's figures agree
//! with themselves and with the exit status, the JUnit file validates, a
//! waiver explains a survivor, and a waiver of a mutant the suite kills
//! fails the run.
//!
//! A missing `yosys` or `verilator` prints a notice and passes; `make test`
//! installs both.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn have_tools() -> bool {
    let ok = ["yosys", "verilator"].iter().all(|t| Command::new(t).arg("-V").output().map(|o| o.status.success()).unwrap_or(false));
    if !ok {
        println!("NOTICE: yosys or verilator is not installed: check skipped (`make deps`)");
    }
    ok
}

fn atomport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_atomport")).args(args).output().expect("run atomport")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_sample_of_the_alu_mutants_reports_consistently_and_waivers_are_checked() {
    if !have_tools() {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mutate-cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (report, junit, waivers) = (dir.join("r.json"), dir.join("r.xml"), dir.join("waivers.txt"));
    let out = dir.join("runs");
    let base = ["mutate", "--block", "alu", "--count", "12", "--seed", "3", "--messages", "2000", "--jobs", "2", "--quiet"];
    let run = |extra: &[&str]| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(["--out", out.to_str().unwrap(), "--report", report.to_str().unwrap(), "--junit", junit.to_str().unwrap()]);
        args.extend(extra);
        atomport(&args)
    };

    let o = run(&["--no-waivers"]);
    let r = read_json(&report);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(if r["passed"] == true { 0 } else { 1 }), "{stdout}");
    let mutants = r["mutants"].as_array().unwrap();
    assert_eq!(mutants.len(), 12);
    let count = |verdict: &str| mutants.iter().filter(|m| m["verdict"] == verdict).count();
    let totals = &r["totals"];
    assert_eq!(totals["killed"].as_u64().unwrap() as usize, count("killed"));
    assert_eq!(totals["unexplained"].as_u64().unwrap() as usize, count("unexplained"));
    assert_eq!(count("killed") + count("unexplained"), 12, "no proofs, no waivers: killed or unexplained");
    assert!(count("killed") >= 6, "the suite kills most mutants: {stdout}");
    assert!(r["canary"]["killed_by"].is_object(), "the canary is killed");
    for m in mutants.iter().filter(|m| m["verdict"] == "killed") {
        assert!(m["killed_by"]["reason"].is_string() && m["killed_by"]["item"].is_string(), "{m}");
    }
    assert!(mutants.iter().all(|m| m["place"]["file"].as_str().is_some_and(|f| f.starts_with("hdl/src/"))), "every place in the rust-hdl source");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"13\""), "a case per mutant and the canary");
    match atomport_testbench::results::xmllint_junit(&xml) {
        Ok(true) => {}
        Ok(false) => println!("NOTICE: xmllint is not installed: the JUnit schema check is skipped (`make deps`)"),
        Err(e) => panic!("the JUnit file does not validate: {e}"),
    }

    // a waiver explains a survivor; a waiver of a killed mutant fails the run
    let key = |verdict: &str| mutants.iter().find(|m| m["verdict"] == verdict).map(|m| m["key"].as_str().unwrap().to_string());
    let killed = key("killed").expect("a killed mutant");
    let mut text = format!("alu | {killed} | a deliberately wrong waiver\n");
    let survivor = key("unexplained");
    if let Some(s) = &survivor {
        text += &format!("alu | {s} | a waiver that explains it\n");
    }
    std::fs::write(&waivers, &text).unwrap();
    let o = run(&["--waivers", waivers.to_str().unwrap()]);
    let r = read_json(&report);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stdout));
    let problems = r["problems"].to_string();
    assert!(problems.contains("waivers.txt:1") && problems.contains("hides a mutant the suite kills"), "{problems}");
    if survivor.is_some() {
        assert_eq!(r["totals"]["waived"], 1);
    }
    // --select: only the mutants given, with the same list and model; the
    // verdicts as in the whole run, the report a partial one
    let verdict_of = |select: u64| mutants.iter().find(|m| m["select"] == select).unwrap()["verdict"].clone();
    let o = run(&["--no-waivers", "--select", "2,5-6"]);
    let r = read_json(&report);
    let picked = r["mutants"].as_array().unwrap();
    assert_eq!(picked.iter().map(|m| m["select"].as_u64().unwrap()).collect::<Vec<_>>(), [2, 5, 6]);
    assert_eq!(r["selected"], serde_json::json!([2, 5, 6]));
    for m in picked {
        assert_eq!(m["verdict"], verdict_of(m["select"].as_u64().unwrap()), "{m}");
    }
    assert!(String::from_utf8_lossy(&o.stdout).contains("a partial run: only the 3 mutants given by --select of the 12 listed"));
    let o = run(&["--no-waivers", "--select", "13"]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--select 13: the list has mutants 1..=12"));

    // bad input: exit 2 before any work
    let o = atomport(&["mutate", "--block", "nonsense"]);
    assert_eq!(o.status.code(), Some(2));
    let o = atomport(&["mutate", "--block", "alu", "--report", "/nonexistent-dir/r.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not exist"));
}
