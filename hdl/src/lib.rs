//! atomport-hdl: the rust-hdl RTL, one `LogicBlock` per file, and the
//! Verilog emitter.
//!
//! * [`alu`]: [`AtomicAlu`], the combinational atomic ALU (`atomic_alu.v`).
//! * [`emit`]: turns each top-level block into the checked-in Verilog under
//!   `hdl/verilog/` (`atomport emit`), with a generated-file header and the
//!   top's own module name.
//!
//! The DUT is the emitted Verilog under Verilator (crate `atomport-sim`),
//! never rust-hdl's own simulator.

pub mod alu;
pub mod emit;
// the memory-port unit (`AtomicUnit`, unit.rs) and its sub-blocks
pub mod decoder;
pub mod extend;
pub mod lane_mux;
pub mod lane_select;
pub mod mul;
pub mod typed_addr;

pub use alu::AtomicAlu;
