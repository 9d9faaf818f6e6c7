//! The `atomport` subcommands, one file each. Every `main` returns the exit
//! status: 0 success, 1 a check failed (mismatch), 2 bad input (a bad
//! option value, a script or VCD error: nothing runs), 3 the unit build
//! cannot run the script (`run --unit`: a message it rejects).

pub mod input;
pub mod optval;
pub mod run;
pub mod codec;
pub mod emit_cmd;
pub mod regress_cmd;
pub mod merge;
pub mod mutate_cmd;
pub mod bench_cmd;
pub mod synth_cmd;
pub mod wave;
pub mod wavecheck_report;
pub mod xsim_cmd;

use atomport_core::diag::{self, EXIT_BAD_INPUT};
use atomport_core::program::Program;
use atomport_wave::reader::Waveform;

/// Reads (`-`: standard input, bounded by the input limit) and parses a
/// script; on error prints every diagnostic (with caret lines on a
/// terminal) and gives exit status 2.
pub fn read_script(path: &str) -> Result<Program, i32> {
    let input = input::read_input(path, "script").map_err(|d| {
        diag::emit(&[d], None);
        EXIT_BAD_INPUT
    })?;
    atomport_core::script::parse_bytes(&input.name, &input.bytes).map_err(|diags| {
        diag::emit(&diags, Some(&String::from_utf8_lossy(&input.bytes)));
        EXIT_BAD_INPUT
    })
}

/// Reads (`-`: standard input, bounded by the input limit) and parses a
/// waveform, VCD or FST; on error prints the diagnostic and gives exit
/// status 2.
pub fn read_vcd(path: &std::path::Path) -> Result<Waveform, i32> {
    let input = input::read_input(&path.to_string_lossy(), "VCD").map_err(|d| {
        diag::emit(&[d], None);
        EXIT_BAD_INPUT
    })?;
    Waveform::from_bytes(&input.name, input.bytes).map_err(|d| {
        diag::emit(&[d], None);
        EXIT_BAD_INPUT
    })
}
