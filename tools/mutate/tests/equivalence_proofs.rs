//! The equivalence proofs on a fixture with known answers: a masked bit
//! and a register stuck at its power-up value are unobservable (constant
//! propagation), a used bit is not; ABC's miter proof agrees and gives a
//! counterexample for the used bit.

use std::path::PathBuf;

use atomport_mutate::equivalence::{prove, unobservable, ProofLimits, ProofResult};
use atomport_mutate::mutants::{prepare, Mutation};

fn fixture_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn unobservable_and_observable_mutations_are_told_apart() {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dead_bit.v");
    let p = prepare(&[fixture], "dead_bit", &fixture_dir("equivalence-dead-bit")).unwrap();
    let list = std::fs::read_to_string(p.dir.join("design.il")).unwrap();
    // the and cell masking `wide` (line 6), and the xor using masked[0]
    let cell = |prefix: &str| list.lines().find_map(|l| l.trim().strip_prefix("cell ")?.split_whitespace().nth(1).filter(|c| c.starts_with(prefix)).map(String::from)).unwrap();
    let and = cell("$and$dead_bit.v:6$");
    let xor = cell("$xor$");
    let m = |args: String| Mutation::parse(&format!("mutate {args}")).unwrap();
    let masked_bit = m(format!("-mode inv -module dead_bit -cell {and} -port A -portbit 1"));
    let used_bit = m(format!("-mode inv -module dead_bit -cell {xor} -port A -portbit 0"));
    let dead = unobservable(&p, &[(1, &masked_bit), (2, &used_bit)]).unwrap();
    assert_eq!(dead, [1], "the masked bit only");

    let limits = ProofLimits { depth: 10, timeout: 60 };
    assert!(prove(&p, &masked_bit, 1, limits).unwrap().result.is_equivalent());
    match prove(&p, &used_bit, 2, limits).unwrap().result {
        ProofResult::Different { inputs, .. } => assert!(!inputs.is_empty(), "a counterexample's inputs"),
        other => panic!("the used bit must be found different, got {other:?}"),
    }
}
