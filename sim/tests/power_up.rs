//! Power-up state of the Verilated models ("reset is real").
//!
//! In the normal build every register starts at its emitted power-up value
//! (rust-hdl's `initial` blocks: zero). In the `x-unique` build
//! (`--x-initial unique --x-assign unique`, power-up values left out,
//! sim/build.rs) every register starts at a value drawn from
//! `$ATOMPORT_VERILATOR_SEED`: different per seed, the same for the same seed.
//! One test in this file: it sets the environment variable.

use atomport_sim::VAtomicUnit;

/// `obs_old` and `rsp_data` straight after construction, before any clock
/// or reset: both are register outputs (128 bits each).
fn power_up_registers(seed: &str) -> (u128, u128) {
    std::env::set_var("ATOMPORT_VERILATOR_SEED", seed);
    let mut unit = VAtomicUnit::new().unwrap();
    unit.eval().unwrap();
    (unit.obs_old(), unit.rsp_data())
}

#[test]
fn power_up_state_follows_the_build_and_the_seed() {
    let first = power_up_registers("1");
    let other = power_up_registers("2");
    let again = power_up_registers("1");
    if atomport_sim::x_unique() {
        assert_ne!(first, (0, 0), "x-unique build: registers must not start at zero");
        assert_ne!(first, other, "x-unique build: seeds 1 and 2 must give different power-up state");
        assert_eq!(first, again, "x-unique build: the same seed must give the same power-up state");
    } else {
        for state in [first, other, again] {
            assert_eq!(state, (0, 0), "normal build: registers start at their emitted power-up value 0");
        }
    }
    std::env::set_var("ATOMPORT_VERILATOR_SEED", "0");
    let err = VAtomicUnit::new().map(|_| ()).unwrap_err();
    assert!(err.to_string().contains("ATOMPORT_VERILATOR_SEED=0"), "{err}");
    std::env::remove_var("ATOMPORT_VERILATOR_SEED");
}
