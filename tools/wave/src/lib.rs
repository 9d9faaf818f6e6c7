//! Waveform tools: read and write VCDs (and read FST), compare them, write
//! GTKWave views and draw timing diagrams. Nothing here runs the bench:
//! the checks that replay a waveform through it are `atomport-wavecheck`.
//! docs/waveforms.md is the user's guide.
//!
//! * [`reader`]: the VCD reader ([`Waveform`]); FST goes through [`fst`] (wellen).
//! * [`diff`]: `wavediff`, signal-by-signal comparison of two VCDs.
//! * [`gtkw`]: GTKWave save files grouping the unit's signals by interface.
//! * [`svg`]: timing diagrams as standalone SVG.
//! * [`writer`]: a VCD writer and [`writer::rewrite`] (same waves, other codes/timescale/scopes).
pub mod reader;
pub mod fst;
pub mod writer;
pub mod diff;
pub mod gtkw;
pub mod svg;

pub use reader::{Logic, Timescale, Trace, TraceKind, Value, Var, Waveform};
