//! atomport-hdl: the rust-hdl RTL, one `LogicBlock` per file, and the
//! Verilog emitter.
//!
//! * [`alu`]: [`AtomicAlu`], the atomic ALU (`atomic_alu.v`): an operand stage and an execute stage.
//! * [`emit`]: turns each top-level block into the checked-in Verilog under
//!   `hdl/verilog/` (`atomport emit`), with a generated-file header and the
//!   top's own module name.
//!
//! The DUT is the emitted Verilog under Verilator (crate `atomport-sim`),
//! never rust-hdl's own simulator.

pub mod alu;
pub mod emit;
// blocks built with other constructor arguments, for `atomport synth`
pub mod variants;
// the widths the blocks share (ports, lines, lanes, addresses)
pub mod widths;
// the floating-point ops of the ALU (`FloatAlu`, fp_alu.rs): one shared adder, one comparator
pub mod fp_add;
pub mod fp_alu;
pub mod fp_cmp;
pub mod fp_decode;
// the memory-port unit (`AtomicUnit`, unit.rs) and its sub-blocks
pub mod addr_finish;
pub mod at_most_one;
pub mod at_most_two;
pub mod addr_mul;
pub mod addr_gen;
pub mod bounds_check;
pub mod capture_reg;
pub mod decoder;
pub mod elem_select;
// the element size decoded, its place in a line, the null-coordinate rule: leaf blocks both units use
pub mod elem_size;
pub mod line_place;
pub mod null_coord;
pub mod entry_data;
pub mod entry_ram;
pub mod extend;
pub mod hazard_compare;
pub mod head_line;
pub mod head_select;
pub mod lane_coord_reg;
pub mod lane_mux;
pub mod lane_select;
pub mod state_reg;
pub mod multiply;
pub mod partial_sum;
pub mod port_skid;
pub mod ptx_alu_rom;
pub mod mux8;
pub mod operand_numbering;
pub mod typed_addr;
// the small build's serial typed address (one adder, no multiplier)
pub mod typed_addr_serial;
// the unit built for small parts: one element at a time
pub mod serial_unit;
pub mod typed_extent;
pub mod walk_operands;
pub mod walk_product;
#[cfg(test)]
mod icarus;
pub mod unit;
pub mod word_join;
pub mod write_align;

pub use alu::AtomicAlu;
