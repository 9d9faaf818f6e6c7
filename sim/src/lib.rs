//! atomport-sim: the Verilator binding, the only code that touches pins.
//!
//! `build.rs` verilates every checked-in `hdl/verilog/<top>.v` and generates
//! one wrapper per top module, named `V` + the top in CamelCase:
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

/// A port's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortDir {
    Input,
    Output,
}

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
pub mod verilator_header;

/// The binding's C++ runtime (vl_fatal that throws, the last error), also
/// compiled into the models built at run time ([`dynamic`]).
const CPP_HEADER: &str = include_str!("../cpp/atomport_sim.h");
const CPP_RUNTIME: &str = include_str!("../cpp/atomport_sim.cpp");

include!(concat!(env!("OUT_DIR"), "/models.rs"));

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
