//! Diagnostics: `FILE:LINE:COL: error: <what and why>` (scripts.md), exit 2.

use std::fmt;

/// A user-facing error in an input file. Lines and columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl Diag {
    pub fn new(file: impl Into<String>, line: usize, col: usize, msg: impl Into<String>) -> Diag {
        Diag { file: file.into(), line, col, msg: msg.into() }
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.col, self.msg)
    }
}

impl std::error::Error for Diag {}

/// Exit status for rejected input.
pub const EXIT_BAD_INPUT: i32 = 2;
