//! atomport-mutate: mutation testing of the emitted Verilog (`atomport
//! mutate`). A block's mutants come from Yosys's `mutate` ([`mutants`]),
//! all behind one select input of one model verilated at run time; the
//! block's kill suite ([`kill_suite`]: its directed RTL stimulus and a
//! seeded regression, checked by the test bench against the golden model)
//! runs on every select; a survivor is explained by a formal equivalence
//! proof ([`equivalence`]) or a waiver ([`waivers`]), and placed in the
//! rust-hdl source ([`rtl_place`]). [`run`] does it all; [`mutation_report`]
//! writes what it found.

use std::path::{Path, PathBuf};

pub mod equivalence;
pub mod kill_suite;
pub mod mutants;
pub mod mutation_report;
pub mod rtl_place;
pub mod run_mutants;
pub mod waivers;

pub use run_mutants::{run, MutateOptions, Progress};

/// What a block is, for its kill suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// the atomic ALU (`AtomicAlu`)
    Alu,
    /// the pipelined unit (`AtomicUnit`)
    Unit,
    /// the serial unit (`SerialUnit`)
    Serial,
}

/// Everything that can go wrong, each an exit status of its own.
#[derive(Debug, thiserror::Error)]
pub enum MutateError {
    /// bad input: exit 2
    #[error("{0}")]
    Input(String),
    /// a file could not be read or written: exit 2
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: String },
    /// a tool is missing or failed: exit 2
    #[error("{what} (log: {})", log.display())]
    Tool { what: String, log: PathBuf },
    /// the unmutated design fails its own kill suite: exit 1
    #[error("the unmutated design (select 0) fails the kill suite: {0}")]
    Select0(String),
}

impl MutateError {
    pub fn io(path: &Path, error: impl std::fmt::Display) -> MutateError {
        MutateError::Io { path: path.to_path_buf(), error: error.to_string() }
    }
}

/// Writes `path` whole: a temporary file beside it, then a rename.
pub fn write_whole(path: &Path, text: &str) -> Result<(), MutateError> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.partial"));
    std::fs::write(&tmp, text).map_err(|e| MutateError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| MutateError::io(path, e))
}
