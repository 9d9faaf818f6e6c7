//! The waveform checks that run the test bench or the golden model: a
//! recorded run replayed through the bench's monitor and scoreboard, the
//! golden model drawn as a waveform, the reference waves, Verilog benches
//! replaying a waveform's stimulus, Verilator against Icarus, and what
//! tracing costs. The waveforms themselves are read and written by
//! `atomport-wave`. docs/waveforms.md is the user's guide.
//!
//! * [`check`]: `wavecheck`, the RTL's port traffic against the golden model.
//! * [`golden_wave`]: the golden model as a transaction-level VCD.
//! * [`refs`]: the reference waves of `waves/scenarios/*.atom`.
//! * [`replay`]: a Verilog test bench replaying a VCD's stimulus (Icarus vs Verilator).
//! * [`xsim`]: seeded random scripts on Verilator and Icarus, every signal compared (`atomport xsim`).
//! * [`cost`]: what tracing costs on a random regression (`atomport wave trace-cost`).
pub mod check;
pub mod golden_wave;
pub mod refs;
pub mod replay;
pub mod xsim;
pub mod cost;
