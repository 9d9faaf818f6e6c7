//! atomport: an RTL model of a GPU atomic message unit.
//!
//! Data flows one way: script text -> [`program::Program`] of
//! [`message::Message`]s -> binary descriptor -> (RTL under Verilator |
//! golden model) -> compare.

pub mod diag;
pub mod ops;
pub mod message;
pub mod program;
pub mod engine;
pub mod script;
pub mod text;
pub mod descriptor;
pub mod golden;
pub mod report;
pub mod cli;

/// The rust-hdl RTL (one LogicBlock per file) and the Verilog emitter.
#[path = "../hdl/mod.rs"]
pub mod hdl;

/// Drivers, monitors, scoreboard and memory model around the Verilated RTL.
#[path = "../testbench/mod.rs"]
pub mod testbench;
