//! `make rtl-coverage`'s report (scripts/rtl_coverage.py) on a small fixture
//! (tests/rtl_coverage/): figures by build and kind after waivers, the
//! thresholds, a stale waiver (one that names a point that was hit) failing
//! the run, bad waivers as `FILE:LINE:COL: error:` with exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rtl_coverage")
}

fn have_python() -> bool {
    let ok = Command::new("python3").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if !ok {
        eprintln!("note: python3 not found: the rtl-coverage report check is skipped");
    }
    ok
}

/// The report on the fixture's data with the waiver file `waivers`, its JSON into `dir`.
fn report(dir: &Path, waivers: &Path, extra: &[&str]) -> (Output, Option<Value>) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/rtl_coverage.py");
    let json = dir.join("summary.json");
    let _ = std::fs::remove_file(&json);
    let out = Command::new("python3")
        .arg(&script)
        .arg("coverage.dat")
        .arg("--waivers")
        .arg(waivers)
        .arg("--json")
        .arg(&json)
        .args(extra)
        .current_dir(fixture())
        .output()
        .expect("python3 runs");
    let value = std::fs::read_to_string(&json).ok().map(|t| serde_json::from_str(&t).expect("summary.json is JSON"));
    (out, value)
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rtl-coverage-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MIN: [&str; 4] = ["--min", "branch=95", "--min", "toggle=90"];

#[test]
fn figures_by_build_and_kind_after_waivers() {
    if !have_python() {
        return;
    }
    let (out, json) = report(&scratch("fixture"), &fixture().join("waivers.txt"), &MIN);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json = json.unwrap();
    let toggle = &json["builds"]["unit"]["toggle"];
    assert_eq!((toggle["hit"].as_u64(), toggle["total"].as_u64(), toggle["waived"].as_u64()), (Some(1), Some(3), Some(2)));
    assert_eq!(toggle["percent"].as_f64(), Some(100.0));
    let branch = &json["builds"]["unit"]["branch"];
    assert_eq!((branch["hit"].as_u64(), branch["total"].as_u64(), branch["waived"].as_u64()), (Some(1), Some(2), Some(1)));
    assert_eq!(json["builds"]["serial_unit_l8_w32_int"]["toggle"]["waived"].as_u64(), Some(1));
    assert_eq!(json["waivers"][0]["points"].as_u64(), Some(2));
}

#[test]
fn below_threshold_without_waivers_fails() {
    if !have_python() {
        return;
    }
    let dir = scratch("none");
    std::fs::write(dir.join("none.txt"), "# no waivers\n").unwrap();
    let (out, json) = report(&dir, &dir.join("none.txt"), &MIN);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unit: toggle 33.33% after waivers < 90%"), "{err}");
    assert_eq!(json.unwrap()["builds"]["unit"]["branch"]["percent"].as_f64(), Some(50.0));
}

#[test]
fn a_waiver_of_a_hit_point_is_stale() {
    if !have_python() {
        return;
    }
    let dir = scratch("stale");
    // wide[0] toggled in the full unit: a rule that names it hides a covered point.
    let rules = std::fs::read_to_string(fixture().join("waivers.txt")).unwrap()
        + "unit toggle /wide\\[0\\] | claims a bit that did toggle\n";
    std::fs::write(dir.join("stale.txt"), rules).unwrap();
    let (out, _) = report(&dir, &dir.join("stale.txt"), &MIN);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stale.txt:5: stale waiver: it names 1 point(s) that were hit"), "{err}");

    // A rule that names nothing at all is stale too.
    let rules = std::fs::read_to_string(fixture().join("waivers.txt")).unwrap() + "unit toggle /no_such_signal | nothing\n";
    std::fs::write(dir.join("empty.txt"), rules).unwrap();
    let (out, _) = report(&dir, &dir.join("empty.txt"), &MIN);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("empty.txt:5: stale waiver: it names no point"));
}

#[test]
fn bad_waivers_are_located_errors() {
    if !have_python() {
        return;
    }
    let dir = scratch("bad");
    for (text, want) in [
        ("unit toggle wide\n", "bad.txt:1:1: error: a waiver needs `BUILD KIND REGEX | REASON`"),
        ("unit wires wide | x\n", "bad.txt:1:6: error: unknown kind `wires`"),
        ("unit toggle wide[ | x\n", "bad.txt:1:17: error: bad regular expression: unterminated character set"),
        ("unit toggle wide |  \n", "bad.txt:1:18: error: a waiver needs a reason"),
    ] {
        std::fs::write(dir.join("bad.txt"), text).unwrap();
        let (out, _) = report(&dir, &dir.join("bad.txt"), &[]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{text}: {err}");
    }
}

#[test]
fn bits_listed_constant_are_waived_and_one_that_toggled_fails() {
    if !have_python() {
        return;
    }
    let dir = scratch("constants");
    std::fs::write(dir.join("none.txt"), "# no waivers\n").unwrap();
    // wide[40..41] never toggled: waived as constant by construction
    std::fs::write(dir.join("constants.txt"), "# BUILD SIGNAL BITS VALUES\nunit atomic_unit/wide 40-41 00\n").unwrap();
    let constants = dir.join("constants.txt");
    let (out, json) = report(&dir, &dir.join("none.txt"), &["--constants", constants.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let toggle = &json.unwrap()["builds"]["unit"]["toggle"];
    assert_eq!((toggle["waived"].as_u64(), toggle["constant"].as_u64(), toggle["percent"].as_f64()), (Some(2), Some(2), Some(100.0)));

    // wide[0] toggled: a list that calls it constant is wrong, and the report fails
    std::fs::write(dir.join("constants.txt"), "unit atomic_unit/wide 0,40-41 000\n").unwrap();
    let (out, _) = report(&dir, &dir.join("none.txt"), &["--constants", constants.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1 bit(s) listed as constant by construction toggled, e.g. unit atomic_unit/wide[0]"), "{err}");

    std::fs::write(dir.join("constants.txt"), "unit atomic_unit/wide 4x 0\n").unwrap();
    let (out, _) = report(&dir, &dir.join("none.txt"), &["--constants", constants.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("constants.txt:1:"), "{}", String::from_utf8_lossy(&out.stderr));
}
