//! The equivalence proofs on a fixture with known answers: a masked bit
//! and a register stuck at its power-up value are unobservable (constant
//! propagation), a used bit is not; a register only an induction shows
//! held at power-up hides what it alone passes on; ABC's miter proof agrees
//! and gives a counterexample for the used bit.

use std::path::PathBuf;

use atomport_mutate::equivalence::{prove, unobservable, unobservable_held, ProofLimits, ProofResult};
use atomport_mutate::mutants::{prepare, Mutation, Prepared};

/// The fixture `file` (tests/fixtures) prepared with top `top`, and its
/// flattened design's RTLIL text.
fn prepared(file: &str, top: &str) -> (Prepared, String) {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(file);
    let p = prepare(&[fixture], top, &fixture_dir(&format!("equivalence-{top}"))).unwrap();
    let list = std::fs::read_to_string(p.dir.join("design.il")).unwrap();
    (p, list)
}

/// The first cell of the RTLIL text whose name starts with `prefix`.
fn cell(list: &str, prefix: &str) -> String {
    list.lines().find_map(|l| l.trim().strip_prefix("cell ")?.split_whitespace().nth(1).filter(|c| c.starts_with(prefix)).map(String::from)).unwrap()
}

fn fixture_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn unobservable_and_observable_mutations_are_told_apart() {
    let (p, list) = prepared("dead_bit.v", "dead_bit");
    // the and cell masking `wide` (line 6), and the xor using masked[0]
    let cell = |prefix: &str| cell(&list, prefix);
    let and = cell("$and$dead_bit.v:6$");
    let xor = cell("$xor$");
    let m = |args: String| Mutation::parse(&format!("mutate {args}")).unwrap();
    let masked_bit = m(format!("-mode inv -module dead_bit -cell {and} -port A -portbit 1"));
    let used_bit = m(format!("-mode inv -module dead_bit -cell {xor} -port A -portbit 0"));
    let dead = unobservable(&p, &[(1, &masked_bit), (2, &used_bit)]).unwrap();
    assert_eq!(dead, [1], "the masked bit only");

    let limits = ProofLimits { depth: 10, timeout: 60, whole_design: true };
    assert!(prove(&p, &masked_bit, 1, limits).unwrap().result.is_equivalent());
    match prove(&p, &used_bit, 2, limits).unwrap().result {
        ProofResult::Different { inputs, .. } => assert!(!inputs.is_empty(), "a counterexample's inputs"),
        other => panic!("the used bit must be found different, got {other:?}"),
    }
}

#[test]
fn a_ram_column_no_output_reads_is_unobservable() {
    let (p, list) = prepared("ram_column.v", "ram_column");
    // the register `staged` in front of the RAM's write port
    let staged = list
        .lines()
        .collect::<Vec<_>>()
        .windows(8)
        .find_map(|w| {
            let cell = w[0].trim().strip_prefix("cell $")?.split_whitespace().nth(1)?;
            w.iter().any(|l| l.trim() == "connect \\Q \\staged").then(|| cell.to_string())
        })
        .expect("the register `staged`");
    let m = |bit: u32| Mutation::parse(&format!("mutate -mode const1 -module ram_column -cell {staged} -port Q -portbit {bit}")).unwrap();
    let (unread, read) = (m(6), m(2));
    let dead = unobservable(&p, &[(1, &unread), (2, &read)]).unwrap();
    assert_eq!(dead, [1], "the column no output reads only");
}

#[test]
fn a_register_held_at_its_power_up_value_hides_what_only_it_passes_on() {
    let (p, list) = prepared("held_register.v", "held_register");
    let cell = |prefix: &str| cell(&list, prefix);
    let (and, xor) = (cell("$and$"), cell("$xor$"));
    let m = |args: String| Mutation::parse(&format!("mutate {args}")).unwrap();
    // `a` inverted on its way into `held`: held stays 0 (held & ~a with held = 0)
    let into_held = m(format!("-mode inv -module held_register -cell {and} -port B -portbit 0"));
    // `held` fed back inverted: ~held & a leaves 0 when a is 1
    let feedback = m(format!("-mode inv -module held_register -cell {and} -port A -portbit 0"));
    let used = m(format!("-mode inv -module held_register -cell {xor} -port B -portbit 0"));
    let two = [(1, &into_held), (3, &used)];
    assert_eq!(unobservable(&p, &two).unwrap(), Vec::<u64>::new(), "constant propagation alone sees no register held");
    assert_eq!(unobservable_held(&p, &two).unwrap(), [1], "only the path into the held register");
    // conservative: with the feedback's control free too, `held` can leave 0
    let all = [(1, &into_held), (2, &feedback), (3, &used)];
    assert_eq!(unobservable_held(&p, &all).unwrap(), Vec::<u64>::new(), "a mutation that frees the register hides it from the others");
    let limits = ProofLimits { depth: 10, timeout: 60, whole_design: true };
    assert_eq!(prove(&p, &into_held, 1, limits).unwrap().result, ProofResult::Equivalent, "ABC agrees");
    assert!(matches!(prove(&p, &feedback, 2, limits).unwrap().result, ProofResult::Different { .. }), "ABC agrees");
}

#[test]
fn a_mutation_inside_an_instance_is_proven_on_the_instance_first() {
    let (p, list) = prepared("absorb.v", "top_absorb");
    let cell = |prefix: &str| cell(&list, prefix);
    let and = cell("$flatten\\u.$and$");
    let or = cell("$flatten\\u.$or$");
    let m = |args: String| Mutation::parse(&format!("mutate {args}")).unwrap();
    // the redundant and: the instance's outputs never change
    let redundant = m(format!("-mode const0 -module top_absorb -cell {and} -port Y -portbit 0"));
    // q[1]: the instance's output changes, the design's never does
    let absorbed = m(format!("-mode inv -module top_absorb -cell {or} -port Y -portbit 1"));
    // q[0]: the design's output changes
    let used = m(format!("-mode inv -module top_absorb -cell {or} -port Y -portbit 0"));
    let instance_only = ProofLimits { depth: 10, timeout: 60, whole_design: false };
    let whole = ProofLimits { whole_design: true, ..instance_only };
    assert_eq!(prove(&p, &redundant, 1, instance_only).unwrap().result, ProofResult::InstanceEquivalent { instance: "u".into(), depth: None });
    match prove(&p, &absorbed, 2, instance_only).unwrap().result {
        ProofResult::InstanceDifferent { instance, inputs } => assert!(instance == "u" && !inputs.is_empty(), "{instance} {inputs:?}"),
        other => panic!("q[1] changes the instance's outputs, got {other:?}"),
    }
    assert_eq!(prove(&p, &absorbed, 3, whole).unwrap().result, ProofResult::Equivalent, "the design never shows q[1]");
    assert!(matches!(prove(&p, &used, 4, whole).unwrap().result, ProofResult::Different { .. }));
    assert!(matches!(prove(&p, &used, 5, instance_only).unwrap().result, ProofResult::InstanceDifferent { .. }));
    // a register output tied to its power-up value where no output sees it
    let ff = list.lines().find_map(|l| l.trim().strip_prefix("cell $dff ").map(String::from)).expect("the instance's register");
    let stuck = m(format!("-mode const0 -module top_absorb -cell {ff} -port Q -portbit 1"));
    assert_eq!(prove(&p, &stuck, 6, whole).unwrap().result, ProofResult::Equivalent, "q[1] stuck at its power-up value, never shown");
}
