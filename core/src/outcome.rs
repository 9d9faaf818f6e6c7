//! What an engine (golden model or RTL under Verilator) reports for a run,
//! in one shape so the two can be compared and printed alike.

use crate::program::Space;

/// One lane's memory transaction. Atomic lanes read then write; scatter
/// lanes write one transaction per block. Out-of-bounds lanes make none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TxnKind {
    Read,
    Write,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Txn {
    /// index of the message in script order (0-based, messages only)
    pub msg: usize,
    pub lane: u8,
    pub kind: TxnKind,
    pub space: Space,
    pub addr: u64,
    /// access size in bytes: 1, 2, 4, 8 or 16
    pub bytes: u8,
    /// data read or written, little-endian in the low `bytes*8` bits
    pub data: u128,
}

/// One message's results (scripts.md JSON `results` entry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneResults {
    pub line: usize,
    pub name: String,
    /// 16, 32, 64 or 128
    pub width: u32,
    /// None for a disabled lane
    pub lanes: Vec<Option<u128>>,
}

/// One `dump` statement's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpOut {
    pub line: usize,
    pub space: Space,
    pub addr: u64,
    pub bytes: Vec<u8>,
}

/// Everything a run reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutput {
    /// "golden" or "rtl"
    pub engine: &'static str,
    pub results: Vec<LaneResults>,
    pub dumps: Vec<DumpOut>,
    /// every memory transaction, in the order performed
    pub txns: Vec<Txn>,
}
