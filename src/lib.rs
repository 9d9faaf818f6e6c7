//! atomport: an RTL model of a GPU atomic message unit.
//!
//! Data flows one way: script text -> [`program::Program`] of
//! [`message::Message`]s -> binary descriptor -> (RTL under Verilator |
//! golden model) -> compare.

pub mod diag;
/// The one op table (crate `atomport-isa`).
pub use atomport_isa as ops;
pub mod message;
pub mod program;
pub mod engine;
pub mod script;
pub mod text;
pub mod descriptor;
pub mod golden;
pub mod report;
/// `atomport synth`: Yosys and nextpnr figures of the emitted Verilog.
pub mod synth;
pub mod wave;
pub mod cli;

/// The rust-hdl RTL and the Verilog emitter (crate `atomport-hdl`).
pub use atomport_hdl as hdl;

/// Drivers, monitors, scoreboard and memory model around the Verilated RTL.
#[path = "../testbench/mod.rs"]
pub mod testbench;
