//! Waveform tools: read VCDs, compare them, check the RTL's port traffic
//! against the golden model, write GTKWave views and draw timing diagrams.
//! docs/waveforms.md is the user's guide.
//!
//! * [`reader`]: the VCD reader ([`Waveform`]); FST goes through [`fst`] (wellen).
//! * [`diff`]: `wavediff`, signal-by-signal comparison of two VCDs.
//! * [`check`]: `wavecheck`, the RTL's port traffic against the golden model.
//! * [`golden_wave`]: the golden model as a transaction-level VCD.
//! * [`gtkw`]: GTKWave save files grouping the unit's signals by interface.
//! * [`svg`]: timing diagrams as standalone SVG.
//! * [`refs`]: the reference waves of `waves/scenarios/*.atom`.
//! * [`replay`]: a Verilog test bench replaying a VCD's stimulus (Icarus vs Verilator).
//! * [`xsim`]: seeded random scripts on Verilator and Icarus, every signal compared (`atomport xsim`).
//! * [`cost`]: what tracing costs on a random regression (`atomport wave trace-cost`).
//! * [`writer`]: a VCD writer and [`writer::rewrite`] (same waves, other codes/timescale/scopes).
pub mod reader;
pub mod fst;
pub mod writer;
pub mod diff;
pub mod check;
pub mod golden_wave;
pub mod gtkw;
pub mod svg;
pub mod refs;
pub mod replay;
pub mod cost;
pub mod xsim;

pub use reader::{Logic, Timescale, Trace, TraceKind, Value, Var, Waveform};
