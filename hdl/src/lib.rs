//! atomport-hdl: the rust-hdl RTL, one LogicBlock per file, and the Verilog emitter.
