//! Every `atomport` command line of the README's "Using it" block, run in
//! order in a scratch working directory (with the checkout's `examples/`),
//! as a reader would paste them. A command that fails as written fails here.
//!
//! What is cut so that this stays a quick test, and why it still checks the
//! line: random-message counts over 100 run 48 messages (the options are
//! the README's); the shard line runs for every shard of its run, so that
//! the merge line after it finds them all (`s*.json`); `bench` runs one
//! round; the synthesis lines (minutes of place and route) are parsed by the
//! binary with their output folder at /dev/full, which it refuses after the
//! options are read and before any work, and their block must resolve;
//! `emit` runs with `--check` (it would write into the checkout); `a.vcd`
//! and `b.vcd` are copies of the lock script's waveform.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The `atomport` lines of the first `sh` block after "## Using it",
/// continuation lines joined, comments dropped.
fn readme_commands() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let using = readme.split("## Using it").nth(1).expect("a \"## Using it\" section");
    let block = using.split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("a sh block");
    let joined = block.replace("\\\n", " ");
    joined
        .lines()
        .map(|l| l.split(" # ").next().unwrap().trim())
        .filter(|l| l.starts_with("atomport "))
        .map(|l| l.split_whitespace().skip(1).map(str::to_string).collect())
        .collect()
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("atomport-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("target")).unwrap();
    std::os::unix::fs::symlink(Path::new(ROOT).join("examples"), d.join("examples")).unwrap();
    d
}

fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str)
}

fn set_option(args: &mut [String], name: &str, value: &str) {
    let i = args.iter().position(|a| a == name).unwrap();
    args[i + 1] = value.to_string();
}

/// The runs one README line stands for (module docs), and the exit status
/// each must give.
fn runs_of(line: &[String], dir: &Path) -> Vec<(Vec<String>, i32)> {
    let mut args = line.to_vec();
    if option(&args, "--count").and_then(|n| n.parse::<u64>().ok()).is_some_and(|n| n > 100) {
        set_option(&mut args, "--count", "48");
    }
    match args[0].as_str() {
        "regress" if option(&args, "--shard").is_some() => {
            let of = option(&args, "--shard").unwrap().split('/').nth(1).unwrap().to_string();
            let report = option(&args, "--report").unwrap().to_string();
            let k_in_name = report.chars().find(|c| c.is_ascii_digit()).expect("a shard number in the report's name");
            let n: usize = of.parse().unwrap();
            (1..=n)
                .map(|k| {
                    let mut a = args.clone();
                    set_option(&mut a, "--shard", &format!("{k}/{of}"));
                    set_option(&mut a, "--report", &report.replacen(k_in_name, &k.to_string(), 1));
                    (a, 0)
                })
                .collect()
        }
        "merge" => {
            // the shell's glob
            let mut a = vec!["merge".to_string()];
            for arg in &args[1..] {
                if arg.contains('*') {
                    let (pre, post) = arg.split_once('*').unwrap();
                    let mut hits: Vec<String> = std::fs::read_dir(dir)
                        .unwrap()
                        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                        .filter(|n| n.starts_with(pre) && n.ends_with(post))
                        .collect();
                    hits.sort();
                    assert!(!hits.is_empty(), "{arg} matches nothing");
                    a.extend(hits);
                } else {
                    a.push(arg.clone());
                }
            }
            vec![(a, 0)]
        }
        "bench" => {
            args.extend(["--rounds".into(), "1".into()]);
            vec![(args, 0)]
        }
        "synth" => {
            let block = option(&args, "--block").expect("synth --block");
            if let Err(e) = atomport_synth::resolve_block(block, &dir.join("variants")) {
                panic!("synth --block {block}: {e}");
            }
            args.extend(["--out".into(), "/dev/full".into()]);
            vec![(args, 2)]
        }
        "emit" => {
            if !cfg!(feature = "hdl") {
                return vec![];
            }
            if args.len() == 1 {
                args.push("--check".into());
            }
            vec![(args, 0)]
        }
        // the README's "what it cannot run is rejected": exit 3
        "run" if option(&args, "--unit").is_some() => vec![(args, 3)],
        "wavediff" if args.iter().any(|a| a == "a.vcd") => {
            for copy in ["a.vcd", "b.vcd"] {
                std::fs::copy(dir.join("target/lock.vcd"), dir.join(copy)).unwrap();
            }
            vec![(args, 0)]
        }
        _ => vec![(args, 0)],
    }
}

#[test]
fn every_readme_command_runs_as_written() {
    let lines = readme_commands();
    // a README whose block moved would make this test pass on nothing
    assert!(lines.len() >= 20, "{} command lines", lines.len());
    let dir = scratch();
    for line in &lines {
        for (args, expected) in runs_of(line, &dir) {
            let o = Command::new(env!("CARGO_BIN_EXE_atomport")).args(&args).current_dir(&dir).output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(expected), "atomport {}\n{}{err}", args.join(" "), String::from_utf8_lossy(&o.stdout));
            if expected == 2 {
                // the synthesis lines: refused at the output, so the options were taken
                assert!(err.contains("/dev/full: error: --out is a character device"), "atomport {}: {err}", args.join(" "));
            }
            assert!(!err.contains("panicked"), "atomport {}: {err}", args.join(" "));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
