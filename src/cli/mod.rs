//! The `atomport` subcommands, one file each. Every `main` returns the exit
//! status: 0 success, 1 a check failed (mismatch), 2 bad input (a bad
//! option value, a script or VCD error, an output that cannot be written:
//! nothing runs), 3 the unit build cannot run the script (`run --unit`: a
//! message it rejects). A write to standard output that fails (`>
//! /dev/full`) ends any command with exit 2 and a message.

/// `print!` that ends the process with exit 2 and a message when standard
/// output cannot be written ([`stdout_write`]).
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::stdout_write(format_args!($($arg)*)) };
}

/// `println!` that ends the process with exit 2 and a message when
/// standard output cannot be written ([`stdout_write`]).
macro_rules! outln {
    () => { $crate::cli::stdout_write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::stdout_write(format_args!("{}\n", format_args!($($arg)*))) };
}

pub mod input;
pub mod optval;
pub mod run;
pub mod codec;
pub mod emit_cmd;
pub mod regress_cmd;
pub mod merge;
pub mod mutate_cmd;
pub mod verification_cmd;
pub mod bench_cmd;
pub mod synth_cmd;
pub mod wave;
pub mod wavecheck_report;
pub mod xsim_cmd;

use atomport_core::diag::{self, EXIT_BAD_INPUT};
use atomport_core::output_file::{OutputError, OutputPlan};

/// Writes to standard output; a write that fails (a full disk, `>
/// /dev/full`) ends the process: `atomport: error: cannot write to
/// standard output: ...`, exit 2. (A closed pipe ends it earlier, by
/// SIGPIPE.) No temporary file is open while a command prints.
pub fn stdout_write(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        stdout_failed(e);
    }
}

/// Flushes standard output at the end of a command ([`stdout_write`]).
pub fn stdout_flush() {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().flush() {
        stdout_failed(e);
    }
}

fn stdout_failed(e: std::io::Error) -> ! {
    eprintln!("atomport: error: cannot write to standard output: {e}");
    std::process::exit(EXIT_BAD_INPUT);
}

/// Checks a command's outputs before it does any work
/// (`atomport_core::output_file`); on error prints it, exit status 2.
pub fn check_outputs(plan: OutputPlan) -> Result<(), i32> {
    plan.check().map_err(|e| report_output_error(&e))
}

/// Prints an output error; returns exit status 2.
pub fn report_output_error(e: &OutputError) -> i32 {
    eprintln!("{e}");
    EXIT_BAD_INPUT
}
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
    let input = input::read_input(&path.to_string_lossy(), "waveform").map_err(|d| {
        diag::emit(&[d], None);
        EXIT_BAD_INPUT
    })?;
    Waveform::from_bytes(&input.name, input.bytes).map_err(|d| {
        diag::emit(&[d], None);
        EXIT_BAD_INPUT
    })
}
