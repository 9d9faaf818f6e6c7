//! Models verilated at run time (`atomport_sim::dynamic`): built into a
//! folder, cached there, loaded beside the project's own models, ports by
//! name, a Verilator fatal an `Err`.

use std::path::PathBuf;
use std::sync::Arc;

use atomport_sim::dynamic::{DynBuild, DynError, DynLibrary};
use atomport_sim::{PortDir, SimError};

fn fixture(dir: &str) -> DynBuild {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    DynBuild {
        sources: vec![root.join("fixtures/sim_counter.v")],
        top: "sim_counter".into(),
        dir: std::env::temp_dir().join(format!("atomport-dyn-{dir}-{}", std::process::id())),
        jobs: 2,
        dfg: true,
    }
}

#[test]
fn a_runtime_model_counts_like_the_verilog_and_is_cached() {
    let build = fixture("counter");
    let _ = std::fs::remove_dir_all(&build.dir);
    assert!(build.cached().unwrap().is_none(), "nothing built yet");
    let lib = Arc::new(build.build().unwrap());
    let names: Vec<(&str, PortDir, u32)> = lib.ports().iter().map(|p| (p.name.as_str(), p.dir, p.width)).collect();
    assert_eq!(names, [("clock", PortDir::Input, 1), ("stop", PortDir::Input, 1), ("count", PortDir::Output, 8)]);

    let mut m = lib.model().unwrap();
    let clock = m.port("clock", PortDir::Input, Some(1)).unwrap();
    let count = m.port("count", PortDir::Output, Some(8)).unwrap();
    assert!(matches!(m.port("count", PortDir::Input, None), Err(DynError::Port(_))), "direction is checked");
    assert!(matches!(m.port("clock", PortDir::Input, Some(2)), Err(DynError::Port(_))), "width is checked");
    assert!(matches!(m.port("nonsense", PortDir::Input, None), Err(DynError::Port(_))));
    for k in 1..=300u128 {
        m.set(clock, 0);
        m.eval().unwrap();
        m.set(clock, 1);
        m.eval().unwrap();
        assert_eq!(m.get(count), k % 256, "the 8-bit counter after {k} edges");
    }
    // two models of one library are independent
    let other = lib.model().unwrap();
    assert_eq!(other.get(count), 0);
    drop(m);

    let again = build.cached().unwrap().expect("the same inputs load the cached build");
    assert_eq!(again.ports().len(), 3);
    let _ = std::fs::remove_dir_all(&build.dir);
}

#[test]
fn a_fatal_in_a_runtime_model_is_an_error() {
    let build = fixture("fatal");
    let lib: Arc<DynLibrary> = Arc::new(build.build().unwrap());
    let mut m = lib.model().unwrap();
    let clock = m.port("clock", PortDir::Input, None).unwrap();
    let stop = m.port("stop", PortDir::Input, None).unwrap();
    m.set(stop, 1);
    m.set(clock, 0);
    m.eval().unwrap();
    m.set(clock, 1);
    match m.eval() {
        Err(SimError::Fatal(msg)) => assert!(msg.contains("Verilator fatal"), "{msg}"),
        other => panic!("expected a fatal, got {other:?}"),
    }
    assert!(matches!(m.eval(), Err(SimError::Dead(_))), "not evaluated again");
    // the process and the project's own models live on
    let mut alu = atomport_sim::VAtomicAlu::new().unwrap();
    alu.eval().unwrap();
    let _ = std::fs::remove_dir_all(&build.dir);
}

#[test]
fn a_build_that_fails_names_its_log() {
    let mut build = fixture("broken");
    build.top = "no_such_module".into();
    let err = build.build().err().expect("verilator must fail");
    match &err {
        DynError::Tool { log, .. } => assert!(log.is_file(), "{err}"),
        other => panic!("expected a tool error, got {other}"),
    }
    let _ = std::fs::remove_dir_all(&build.dir);
}
