//! `atomport regress --jobs/--shard --report/--junit` and `atomport merge`
//! as a CI job or a Slurm array drives them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_atomport")).args(args).output().unwrap();
    eprintln!("atomport {}\n{}{}", args.join(" "), String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    o
}

fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("atomport-shards-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn four_shards_merged_equal_the_unsharded_run_and_a_missing_shard_is_named() {
    let d = scratch("merge");
    let p = |name: &str| d.join(name).display().to_string();
    let base = ["regress", "--seed", "3", "--count", "1300", "--per-script", "100", "--quiet"];
    let whole = run(&[&base[..], &["--jobs", "2", "--report", &p("whole.json"), "--junit", &p("whole.xml")]].concat());
    assert_eq!(whole.status.code(), Some(0));
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let o = run(&[&base[..], &["--jobs", "1", "--shard", &shard, "--report", &p(&format!("s{k}.json"))]].concat());
        assert_eq!(o.status.code(), Some(0));
    }
    let shards: Vec<String> = (1..=4).map(|k| p(&format!("s{k}.json"))).collect();
    let merged = run(&[&["merge"], &shards.iter().map(String::as_str).collect::<Vec<_>>()[..], &["--expect", &p("whole.json"), "--out", &p("m.json"), "--junit", &p("m.xml")]].concat());
    let out = String::from_utf8_lossy(&merged.stdout);
    assert_eq!(merged.status.code(), Some(0), "{out}");
    assert!(out.contains("13 scripts of 13, 1300 messages") && out.contains("equals"), "{out}");
    let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p("m.json")).unwrap()).unwrap();
    let w: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p("whole.json")).unwrap()).unwrap();
    assert_eq!(m["totals"], w["totals"]);
    assert_eq!(m["coverage"], w["coverage"]);
    let junit = std::fs::read_to_string(p("m.xml")).unwrap();
    assert_eq!(junit.matches("<testcase ").count(), 13);
    assert!(junit.contains("tests=\"13\" failures=\"0\""));
    // three shards of four: the merge names the scripts no shard ran and fails
    let partial = run(&["merge", &shards[0], &shards[1], &shards[3], "--expect", &p("whole.json")]);
    let out = String::from_utf8_lossy(&partial.stdout);
    assert_eq!(partial.status.code(), Some(1), "{out}");
    assert!(out.contains("MISSING 3 scripts no report holds: 2 6 10") && out.contains("DIFFERS"), "{out}");
    // a shard twice: overlapping reports are refused
    let twice = run(&["merge", &shards[0], &shards[0]]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("overlap"));
    // a report of another run is refused
    let other = run(&["regress", "--seed", "4", "--count", "100", "--quiet", "--report", &p("other.json")]);
    assert_eq!(other.status.code(), Some(0));
    let mixed = run(&["merge", &shards[0], &p("other.json")]);
    assert_eq!(mixed.status.code(), Some(2));
}

#[test]
fn bad_shard_script_and_filter_values_are_refused() {
    for (args, needle) in [
        (vec!["regress", "--shard", "5/4"], "not a shard"),
        (vec!["regress", "--shard", "0/4"], "not a shard"),
        (vec!["regress", "--jobs", "0"], "at least 1"),
        (vec!["regress", "--count", "100", "--script", "7"], "not in the run"),
        (vec!["regress", "--count", "10", "--kinds", "SVM_SCATTER", "--ops", "add"], "no message matches"),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(needle), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn run_writes_its_json_and_a_junit_case_that_fails_with_the_reproduce_command() {
    let d = scratch("run");
    let p = |name: &str| d.join(name).display().to_string();
    let example = |name: &str| format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let ok = run(&["run", &example("lock.atom"), "--engine", "both", "--report", &p("lock.json"), "--junit", &p("lock.xml")]);
    assert_eq!(ok.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p("lock.json")).unwrap()).unwrap();
    assert_eq!(json["comparison"]["agree"], true);
    let xml = std::fs::read_to_string(p("lock.xml")).unwrap();
    assert!(xml.contains("tests=\"1\" failures=\"0\"") && !xml.contains("<failure"), "{xml}");
    // the small build cannot run the histogram: a failing case, with the command
    let small = run(&["run", &example("histogram.atom"), "--engine", "both", "--unit", "small", "--junit", &p("h.xml")]);
    assert_eq!(small.status.code(), Some(3));
    let xml = std::fs::read_to_string(p("h.xml")).unwrap();
    assert!(xml.contains("failures=\"1\"") && xml.contains("reproduce: atomport run ") && xml.contains("--unit l8_w32_int"), "{xml}");
}

/// scripts/slurm/regress-array.sh under a stand-in `sbatch`
/// (tests/fake-slurm/sbatch runs the array's tasks and the merge at once):
/// the tasks run `--shard K/N` of the options given, the merge equals the
/// unsharded run; a task that never ran leaves its scripts missing and the
/// merge fails. The real Slurm run is in docs/testbench.md.
#[test]
fn the_slurm_array_script_shards_and_merges() {
    let d = scratch("slurm");
    let p = |name: &str| d.join(name).display().to_string();
    let root = env!("CARGO_MANIFEST_DIR");
    let base = ["--seed", "9", "--count", "700", "--per-script", "100", "--quiet"];
    let whole = run(&[&["regress"][..], &base, &["--jobs", "2", "--report", &p("whole.json")]].concat());
    assert_eq!(whole.status.code(), Some(0));
    let array = |out: &str, kill: &str, extra: &[&str]| {
        let o = Command::new("bash")
            .arg(format!("{root}/scripts/slurm/regress-array.sh"))
            .args(["-n", "3", "-w", "-b", env!("CARGO_BIN_EXE_atomport"), "-o", &p(out), "-e", &p("whole.json"), "--"])
            .args(base)
            .args(extra)
            .env("PATH", format!("{root}/tests/fake-slurm:{}", std::env::var("PATH").unwrap_or_default()))
            .env("FAKE_SLURM_DIR", &d)
            .env("FAKE_SLURM_KILL_TASK", kill)
            .output()
            .unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        eprintln!("regress-array.sh ({out}):\n{text}");
        (o.status.code(), text)
    };
    let (code, text) = array("all", "", &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("7 scripts of 7, 700 messages") && text.contains("equals"), "{text}");
    let submissions = std::fs::read_to_string(d.join("submissions")).unwrap();
    assert!(submissions.contains("--array=1-3") && submissions.contains("--dependency=afterany:100"), "{submissions}");
    for k in 1..=3 {
        let log = std::fs::read_to_string(d.join(format!("all/shard-{k}.log"))).unwrap();
        assert!(log.contains(&format!("--seed 9 --count 700 --per-script 100 --quiet --shard {k}/3 --jobs 1")), "{log}");
        let shard: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(d.join(format!("all/shard-{k}.json"))).unwrap()).unwrap();
        assert_eq!(shard["shards"][0], format!("{k}/3"), "{shard}");
    }
    let merged: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(d.join("all/merged.json")).unwrap()).unwrap();
    let w: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p("whole.json")).unwrap()).unwrap();
    assert_eq!(merged["totals"], w["totals"]);
    assert!(std::fs::read_to_string(d.join("all/merged.xml")).unwrap().contains("tests=\"7\" failures=\"0\""));
    // task 2 of 3 never ran: scripts 1 and 4 are missing, the merge fails
    let (code, text) = array("killed", "2", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("shard 2/3 wrote no report") && text.contains("MISSING 2 scripts no report holds: 1 4"), "{text}");
    // the array sets --shard, --report and --jobs itself
    let (code, text) = array("refused", "", &["--shard", "1/2"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("--shard is set by the array"), "{text}");
}
