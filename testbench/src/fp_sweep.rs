//! Every operand pair of a 16-bit float op through the Verilated ALU: for
//! f16 and bf16, `fadd` (`Add` at a float type) and the float compares
//! `fmin`, `fmax`, `fcmpxchg` (`Fmin`, `Fmax`, `Fcmpwr`), each pair
//! (old, src0) of the 2^32 streamed through [`run_stream`] without stalls
//! (one vector per cycle, every output checked in its cycle) against the
//! golden model's soft float ([`expected`]). `make exhaustive` runs the
//! whole sweep on every core; `testbench/tests/fp_sweep.rs` a seeded sample.
//!
//! Pair `p` (0..2^32) is old = p >> 16, src0 = p & 0xffff. `fcmpxchg` writes
//! src1 when src0 equals old: src1 = !old (16 bits), never old itself, so a
//! write is always visible in the value and every pair checks the compare.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use atomport_core::ops::{AluOp, ElemType, UnitConfig};
use atomport_sim::VAtomicAlu;

use super::alu_stream::{run_stream, AluStreamError, AluVector};

/// The ops of the sweep, with the names the report gives them.
pub const SWEEP_OPS: [(AluOp, &str); 4] = [(AluOp::Add, "fadd"), (AluOp::Fmin, "fmin"), (AluOp::Fmax, "fmax"), (AluOp::Fcmpwr, "fcmpxchg")];

/// The formats of the sweep.
pub const SWEEP_TYPES: [(ElemType, &str); 2] = [(ElemType::F16, "f16"), (ElemType::BF16, "bf16")];

/// Pairs of one op and format.
pub const PAIRS: u64 = 1 << 32;

/// Pairs per stream (one pipeline fill and drain each).
pub const CHUNK: u64 = 1 << 16;

/// The vector of pair `p` (see the module comment).
pub fn pair_vector(op: AluOp, ty: ElemType, p: u64) -> AluVector {
    let old = ((p >> 16) & 0xffff) as u128;
    let src0 = (p & 0xffff) as u128;
    AluVector::of(op, ty, false, old, src0, !old & 0xffff)
}

/// The first pair that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepMismatch {
    pub op: &'static str,
    pub ty: &'static str,
    pub pair: u64,
    pub what: String,
}

impl std::fmt::Display for SweepMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{} pair {:#010x} (old={:#06x} src0={:#06x}): {}", self.op, self.ty, self.pair, self.pair >> 16, self.pair & 0xffff, self.what)
    }
}

/// Why a sweep stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SweepError {
    #[error("ALU differs from the golden model: {0}")]
    Mismatch(SweepMismatch),
    #[error("Verilator model: {0}")]
    Sim(String),
}

/// Runs the pairs of `pairs` (the vectors `vector(p)`) through `alu` in
/// chunks of [`CHUNK`], stopping at the first mismatch.
fn stream_pairs(alu: &mut VAtomicAlu, pairs: impl Iterator<Item = u64>, vector: impl Fn(u64) -> AluVector, names: (&'static str, &'static str)) -> Result<u64, SweepError> {
    let config = UnitConfig::FULL;
    let mut done = 0;
    let mut ids = Vec::with_capacity(CHUNK as usize);
    let mut vectors = Vec::with_capacity(CHUNK as usize);
    let mut pairs = pairs.peekable();
    while pairs.peek().is_some() {
        ids.clear();
        vectors.clear();
        for p in pairs.by_ref().take(CHUNK as usize) {
            ids.push(p);
            vectors.push(vector(p));
        }
        match run_stream(alu, &config, &vectors, 0.0, 0) {
            Ok(_) => done += vectors.len() as u64,
            Err(AluStreamError::Mismatch(m)) => {
                return Err(SweepError::Mismatch(SweepMismatch { op: names.0, ty: names.1, pair: ids[m.index], what: m.what }))
            }
            Err(AluStreamError::Sim(e)) => return Err(SweepError::Sim(e.to_string())),
        }
    }
    Ok(done)
}

/// The pairs `range` of `op` at `ty` on one model (the calling thread).
pub fn sweep_range(alu: &mut VAtomicAlu, op: AluOp, ty: ElemType, range: Range<u64>) -> Result<u64, SweepError> {
    let names = names(op, ty);
    stream_pairs(alu, range, |p| pair_vector(op, ty, p), names)
}

/// The given pairs (in any order, e.g. a random sample) of `op` at `ty`.
pub fn sweep_pairs(alu: &mut VAtomicAlu, op: AluOp, ty: ElemType, pairs: &[u64]) -> Result<u64, SweepError> {
    let names = names(op, ty);
    stream_pairs(alu, pairs.iter().copied(), |p| pair_vector(op, ty, p), names)
}

fn names(op: AluOp, ty: ElemType) -> (&'static str, &'static str) {
    let o = SWEEP_OPS.iter().find(|(x, _)| *x == op).map_or("op", |(_, n)| *n);
    let t = SWEEP_TYPES.iter().find(|(x, _)| *x == ty).map_or("ty", |(_, n)| *n);
    (o, t)
}

/// What a parallel sweep of one op and format did.
#[derive(Clone, Debug)]
pub struct SweepReport {
    pub op: &'static str,
    pub ty: &'static str,
    pub range: Range<u64>,
    /// pairs checked (all of `range` unless a mismatch stopped it)
    pub pairs: u64,
    pub wall: Duration,
    pub mismatch: Option<SweepMismatch>,
}

impl SweepReport {
    pub fn pairs_per_second(&self) -> f64 {
        self.pairs as f64 / self.wall.as_secs_f64().max(1e-9)
    }
}

/// The pairs `range` of `op` at `ty` on `jobs` threads, each with its own
/// model, taking chunks in order; `progress(pairs done)` is called after
/// each chunk. Stops every thread at the first mismatch.
pub fn sweep_parallel(op: AluOp, ty: ElemType, range: Range<u64>, jobs: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<SweepReport, SweepError> {
    let (on, tn) = names(op, ty);
    let start = Instant::now();
    let next = AtomicU64::new(range.start);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let first: Mutex<Option<SweepError>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                let mut alu = match VAtomicAlu::new() {
                    Ok(a) => a,
                    Err(e) => {
                        *first.lock().unwrap() = Some(SweepError::Sim(e.to_string()));
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                while !stop.load(Ordering::Relaxed) {
                    let a = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if a >= range.end {
                        break;
                    }
                    let b = (a + CHUNK).min(range.end);
                    match sweep_range(&mut alu, op, ty, a..b) {
                        Ok(n) => progress(done.fetch_add(n, Ordering::Relaxed) + n),
                        Err(e) => {
                            let mut f = first.lock().unwrap();
                            // the lowest failing pair wins, whichever thread saw it first
                            let lower = match (&*f, &e) {
                                (Some(SweepError::Mismatch(x)), SweepError::Mismatch(y)) => y.pair < x.pair,
                                (None, _) => true,
                                _ => false,
                            };
                            if lower {
                                *f = Some(e);
                            }
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    let pairs = done.load(Ordering::Relaxed);
    match first.into_inner().unwrap() {
        Some(SweepError::Mismatch(m)) => Ok(SweepReport { op: on, ty: tn, range, pairs, wall: start.elapsed(), mismatch: Some(m) }),
        Some(e) => Err(e),
        None => Ok(SweepReport { op: on, ty: tn, range, pairs, wall: start.elapsed(), mismatch: None }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_cover_every_operand_and_cmpxchg_always_writes_a_new_value() {
        let v = pair_vector(AluOp::Fcmpwr, ElemType::BF16, 0x1234_abcd);
        assert_eq!((v.old, v.src0, v.src1), (0x1234, 0xabcd, 0xedcb));
        let v = pair_vector(AluOp::Add, ElemType::F16, PAIRS - 1);
        assert_eq!((v.old, v.src0), (0xffff, 0xffff));
        for p in [0u64, 0x0000_ffff, 0xffff_0000, 0x8000_8000] {
            let v = pair_vector(AluOp::Fcmpwr, ElemType::F16, p);
            assert_ne!(v.src1, v.old);
        }
    }
}
