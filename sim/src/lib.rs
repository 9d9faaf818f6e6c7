//! atomport-sim: the Verilator binding, the only code that touches pins.
//!
//! `build.rs` verilates every checked-in `hdl/verilog/<top>.v` and declares
//! one wrapper per top module ([`verilated_model!`], src/model.rs), named
//! `V` + the top in CamelCase:
//! [`VAtomicAlu`] for `atomic_alu`. Each wrapper owns its model and its own
//! `VerilatedContext`, and offers
//! * typed port access by name through raw pointers: `set_op(u8)` / `op()`,
//!   ports over 64 bits as little-endian `u32` words (`set_src0_words`,
//!   `src0_words`) with `u128` helpers (`set_src0(u128)`, `src0()`) up to
//!   128 bits, and by string (`set_port`, `get_port`) for generic tools;
//! * `eval()`, `step()` (one period of a combinational model), and for tops
//!   with a 1-bit `clock`/`clk` input `tick()` / `ticks(n)`;
//! * VCD tracing: compiled in, active after `open_trace(path)`; one
//!   [`CLOCK_PERIOD`] per cycle, time unit 1 ns;
//! * `Drop` that finalizes the model;
//! * for the ALU, [`VAtomicAlu::new_value`]: its two result candidates
//!   picked by its condition, as the unit picks them.
//!
//! A Verilator fatal (`vl_fatal`) throws in C++, is caught by the shim and
//! comes back as [`SimError::Fatal`]; it never aborts the process.
//!
//! Hot loops stay fast: setters and getters are inlined raw-pointer loads
//! and stores, `eval` is one FFI call, nothing allocates or locks.

use std::ffi::CStr;
use std::fmt;

/// One clock period (and one `step` of a combinational model) in trace time
/// units: 10 ns.
pub const CLOCK_PERIOD: u64 = 10;

/// A port's direction (the port table's, `atomport_isa::ports`).
pub use atomport_isa::ports::PortDir;

/// One port of a Verilated top module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: &'static str,
    pub dir: PortDir,
    /// width in bits
    pub width: u32,
}

/// What can go wrong in the binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// A Verilator fatal (or a C++ exception) in the model; the message is Verilator's.
    Fatal(String),
    /// The model had a fatal earlier and is not evaluated again.
    Dead(String),
    /// The trace file could not be opened.
    Trace(String),
    /// A port name that the model does not have (or of the wrong kind).
    Port(String),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Fatal(m) => write!(f, "{m}"),
            SimError::Dead(m) => write!(f, "model stopped after an earlier Verilator fatal: {m}"),
            SimError::Trace(m) => write!(f, "trace: {m}"),
            SimError::Port(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for SimError {}

mod ffi {
    use std::os::raw::{c_char, c_int};
    extern "C" {
        pub fn atomport_sim_last_error() -> *const c_char;
        pub fn atomport_sim_raise_fatal(msg: *const c_char) -> c_int;
        pub fn atomport_sim_x_unique() -> c_int;
    }
}

/// Whether this build's models were verilated with `--x-initial unique
/// --x-assign unique` and without the registers' power-up values (cargo
/// feature `x-unique`, sim/build.rs): each register then starts at a value
/// drawn from [`verilator_seed`].
pub fn x_unique() -> bool {
    unsafe { ffi::atomport_sim_x_unique() != 0 }
}

/// The `+verilator+seed` every model built from now on gets:
/// `$ATOMPORT_VERILATOR_SEED`, or "1" in the [`x_unique`] build when it is
/// unset (the shim passes it with `+verilator+rand+reset+2` when it builds a
/// model); `None`: Verilator's defaults.
pub fn verilator_seed() -> Option<String> {
    std::env::var("ATOMPORT_VERILATOR_SEED").ok().or_else(|| x_unique().then(|| "1".to_string()))
}

/// This thread's last C++-side error message.
fn last_error() -> String {
    unsafe { CStr::from_ptr(ffi::atomport_sim_last_error()) }.to_string_lossy().into_owned()
}

/// Calls Verilator's `vl_fatal` with `msg` inside the shim's guard and
/// returns what the binding makes of it. For tests of the fatal path: a
/// correct binding returns `Err(SimError::Fatal(..))` and the process lives on.
#[doc(hidden)]
pub fn raise_verilator_fatal(msg: &str) -> Result<(), SimError> {
    let c = std::ffi::CString::new(msg).map_err(|_| SimError::Port("NUL in message".into()))?;
    if unsafe { ffi::atomport_sim_raise_fatal(c.as_ptr()) } != 0 {
        return Err(SimError::Fatal(last_error()));
    }
    Ok(())
}

pub mod dynamic;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod power_up_values;
pub mod verilator_header;

/// The binding's C++ runtime (vl_fatal that throws, the last error), also
/// compiled into the models built at run time ([`dynamic`]).
const CPP_HEADER: &str = include_str!("../cpp/atomport_sim.h");
const CPP_RUNTIME: &str = include_str!("../cpp/atomport_sim.cpp");

/// Checks that an FST file Verilator's writer closed is whole: its blocks
/// (a tag byte, then a big-endian length that counts itself and what
/// follows) run from the header exactly to the end of the file, with as
/// many value-change blocks as the header counts, a geometry block when
/// there are signals, and a hierarchy block. fstapi does not check its own
/// writes, so a full disk gives a closed file with blocks missing or cut
/// short; this is where that shows.
pub fn check_fst_file(path: &std::path::Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read back the FST: {e}"))?;
    check_fst_blocks(&bytes).map_err(|e| format!("the FST writer left an incomplete file ({e}): was its file system full?"))
}

/// [`check_fst_file`] on the bytes of a file.
pub fn check_fst_blocks(bytes: &[u8]) -> Result<(), String> {
    const HEADER: u8 = 0;
    const HEADER_LEN: u64 = 329;
    const GEOMETRY: u8 = 3;
    const VALUE_CHANGES: [u8; 3] = [1, 5, 8];
    const HIERARCHY: [u8; 3] = [4, 6, 7];
    const BLACKOUT: u8 = 2;
    let u64_at = |at: usize| -> Option<u64> { bytes.get(at..at + 8).map(|b| u64::from_be_bytes(b.try_into().expect("8 bytes"))) };
    if bytes.first() != Some(&HEADER) || u64_at(1) != Some(HEADER_LEN) {
        return Err("no FST header".into());
    }
    let max_handle = u64_at(1 + 56).ok_or("header cut short")?;
    let sections = u64_at(1 + 64).ok_or("header cut short")?;
    let (mut at, mut value_changes, mut geometry, mut hierarchy) = (0usize, 0u64, 0, 0);
    while at < bytes.len() {
        let tag = bytes[at];
        let len = u64_at(at + 1).ok_or_else(|| format!("block at byte {at} cut short"))?;
        if len < 8 || len > (bytes.len() - at - 1) as u64 {
            return Err(format!("block at byte {at} runs past the end of the file"));
        }
        match tag {
            HEADER if at == 0 => {}
            GEOMETRY => geometry += 1,
            BLACKOUT => {}
            t if VALUE_CHANGES.contains(&t) => value_changes += 1,
            t if HIERARCHY.contains(&t) => hierarchy += 1,
            t => return Err(format!("block type {t} at byte {at}")),
        }
        at += 1 + len as usize;
    }
    if value_changes != sections {
        return Err(format!("{value_changes} value-change blocks of the {sections} the header counts"));
    }
    if hierarchy != 1 || (max_handle > 0 && geometry != 1) {
        return Err(format!("{hierarchy} hierarchy and {geometry} geometry blocks, not one of each"));
    }
    Ok(())
}

// One `verilated_model!` invocation per model, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/models.rs"));

#[cfg(atomport_unit_bench)]
extern "C" {
    fn atomport_cpp_bench_atomic_unit(images: *const u32, count: u32, rounds: u64, max_cycles: u64, cycles: *mut u64, messages: *mut u64) -> u64;
}

/// Runs the C++ harness of the unit's speed loop (`cpp/bench_atomic_unit.cpp`)
/// over `images` (pin images of `image_words` u32 each, see atomport's
/// `testbench::bench::image_words`) `rounds` times, at most `max_cycles`
/// cycles. Returns (checksum, cycles, messages finished).
#[cfg(atomport_unit_bench)]
pub fn cpp_bench_atomic_unit(images: &[u32], image_words: usize, rounds: u64, max_cycles: u64) -> (u64, u64, u64) {
    let count = (images.len() / image_words) as u32;
    let (mut cycles, mut messages) = (0u64, 0u64);
    let sum = unsafe { atomport_cpp_bench_atomic_unit(images.as_ptr(), count, rounds, max_cycles, &mut cycles, &mut messages) };
    (sum, cycles, messages)
}

impl VAtomicAlu {
    /// The integer op's value written back, picked from the ALU's two
    /// candidates as its caller picks them (`new_cond ? new_true :
    /// new_false`; the unit does it after X2's registers, hdl/src/alu.rs).
    #[inline]
    pub fn new_value(&self) -> u128 {
        if self.new_cond() != 0 {
            self.new_true()
        } else {
            self.new_false()
        }
    }
}
