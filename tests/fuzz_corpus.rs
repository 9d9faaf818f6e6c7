//! The fuzz targets' checks (fuzz/src/fuzz_checks.rs) over the checked-in
//! corpus (fuzz/corpus/<target>/), on the stable compiler: every input
//! libFuzzer kept (minimized with `cargo fuzz cmin`) still parses or fails
//! cleanly, and the round trips hold. `make fuzz` grows the corpus.

#[path = "../fuzz/src/fuzz_checks.rs"]
mod fuzz_checks;

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn replay(target: &str, check: fn(&[u8])) {
    let files = corpus(target);
    // a corpus that lost its files would make this test pass on nothing
    assert!(files.len() >= 20, "{target}: only {} corpus files", files.len());
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let r = std::panic::catch_unwind(|| check(&data));
        assert!(r.is_ok(), "{target}: {} panicked", f.display());
    }
}

#[test]
fn fuzz_corpus_script() {
    replay("script", fuzz_checks::script);
}

#[test]
fn fuzz_corpus_descriptor() {
    replay("descriptor", fuzz_checks::descriptor);
}

#[test]
fn fuzz_corpus_vcd() {
    replay("vcd", fuzz_checks::vcd);
}

#[test]
fn fuzz_corpus_fst() {
    replay("fst", fuzz_checks::fst);
}
