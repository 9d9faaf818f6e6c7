//! The canary is the run's guard against a select input that reaches
//! nothing: built without its mutations (the select input present but
//! unused), the ALU passes its kill suite at every select, the canary
//! included, so a run of it cannot pass.

use std::path::PathBuf;
use std::sync::Arc;

use atomport_core::ops::UnitConfig;
use atomport_mutate::kill_suite::KillSuite;
use atomport_mutate::mutants::{list, prepare, select_width, yosys, SELECT};
use atomport_mutate::BlockKind;
use atomport_sim::dynamic::DynBuild;

#[test]
fn a_select_input_that_reaches_nothing_lets_the_canary_survive() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ignored-select");
    let _ = std::fs::remove_dir_all(&dir);
    let alu = atomport_synth::verilog_dir().join("atomic_alu.v");
    let prepared = prepare(&[alu], "atomic_alu", &dir).unwrap();
    let (mutations, _canary, _) = list(&prepared, BlockKind::Alu, 4, 1).unwrap();
    let width = select_width(mutations.len());
    yosys(&prepared.dir, &format!("read_rtlil design.il\nadd -input {SELECT} {width}\nwrite_verilog -noattr ignored.v\n"), "ignored").unwrap();
    let build = DynBuild { sources: vec![dir.join("ignored.v")], top: "atomic_alu".into(), dir: dir.join("model"), jobs: 2, dfg: true };
    let lib = Arc::new(build.build().unwrap());
    let mut suite = KillSuite::new(BlockKind::Alu, UnitConfig::FULL, 2000, 1, &atomport_wavecheck::refs::default_dir()).unwrap();
    suite.check_select0(&lib).unwrap();
    let canary_select = mutations.len() as u64 + 1;
    assert_eq!(suite.run(&lib, canary_select).unwrap(), None, "nothing to kill behind an unused select");
    assert_eq!(suite.run(&lib, 1).unwrap(), None);
}
