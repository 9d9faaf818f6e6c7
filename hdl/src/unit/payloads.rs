//! The stage payloads handed from one block of the unit to the next, each
//! declared once as a pair of `LogicInterface` bundles (the table head's,
//! `TableHeadOut`, and the head entry's, `HeadEntryOut`, are in
//! head_select.rs with `HeadSelect`: this module takes `ENTRY_KIND_BITS`
//! from there, so `HeadSelect` taking them from here would be a module
//! cycle): the sending block
//! has the `...Out` side (the payload `Out`, the answer `In`), the receiving
//! block its mirror `...In`, and the unit joins them in one line
//! (`NextLaneOut::join(&mut self.front.n, &mut self.issue.n)`). rust-hdl
//! declares every field as a port of its own (`n$lane`) and writes the join
//! as one `always @(*) issue$n$lane = front$n$lane;` per field, so the
//! Verilog, the traces and Verilator's schedule keep one named net per
//! field (a `LogicStruct` would pack them into one vector).

use rust_hdl::prelude::*;

use crate::head_select::ENTRY_KIND_BITS;
use crate::widths::{ADDR_BITS, ELEM_BITS, LANE_BITS, LINE_BITS, LINE_BYTES, SIZE_BITS, SURF_KIND_BITS};
use atomport_isa::{ALU_OP_BITS, ALU_TY_BITS};

/// The next-lane stage N as `FrontStages` hands it to `IssueStage`: the
/// lane selected last cycle with its message's decoded fields and surface
/// state (N's registers), the typed walk's first operands (`WalkOperands`
/// on them), and whether its payload is on `pay_*` now; back comes `enter`.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "NextLaneIn"]
pub struct NextLaneOut {
    /// a lane (or a marker) is in N
    pub valid: Signal<Out, Bit>,
    /// its payload buffer
    pub buf: Signal<Out, Bit>,
    pub lane: Signal<Out, Bits<LANE_BITS>>,
    pub last_lane: Signal<Out, Bit>,
    pub marker: Signal<Out, Bit>,
    pub illegal: Signal<Out, Bit>,
    pub elem_size: Signal<Out, Bits<SIZE_BITS>>,
    pub last_elem: Signal<Out, Bits<ELEM_BITS>>,
    pub space_slm: Signal<Out, Bit>,
    pub addr_offset32: Signal<Out, Bit>,
    pub addr_buffer: Signal<Out, Bit>,
    pub kind_typed: Signal<Out, Bit>,
    pub write_only: Signal<Out, Bit>,
    pub swap_src: Signal<Out, Bit>,
    pub v_present: Signal<Out, Bit>,
    pub r_present: Signal<Out, Bit>,
    pub lod_present: Signal<Out, Bit>,
    pub alu_op: Signal<Out, Bits<ALU_OP_BITS>>,
    pub alu_ty: Signal<Out, Bits<ALU_TY_BITS>>,
    pub alu_ftz: Signal<Out, Bit>,
    pub surf_kind: Signal<Out, Bits<SURF_KIND_BITS>>,
    pub surf_base: Signal<Out, Bits<64>>,
    pub surf_size: Signal<Out, Bits<64>>,
    /// the typed walk's extents at level 0, max(1, W/H/D), and whether each is 1
    pub width: Signal<Out, Bits<32>>,
    pub height: Signal<Out, Bits<32>>,
    pub depth: Signal<Out, Bits<32>>,
    pub width_one: Signal<Out, Bit>,
    pub height_one: Signal<Out, Bit>,
    pub depth_one: Signal<Out, Bit>,
    pub surf_array: Signal<Out, Bits<32>>,
    /// the typed lane's `rows` at level 0
    pub lane_rows: Signal<Out, Bits<32>>,
    pub surf_levels: Signal<Out, Bits<32>>,
    pub surf_u16: Signal<Out, Bit>,
    pub slm_size: Signal<Out, Bits<32>>,
    /// `WalkOperands` on N's extents (combinational, from N's registers)
    pub walk_rows: Signal<Out, Bits<32>>,
    pub walk_slices: Signal<Out, Bits<32>>,
    pub walk_sizes_constant: Signal<Out, Bit>,
    pub walk_a: Signal<Out, Bits<32>>,
    pub walk_b: Signal<Out, Bits<32>>,
    /// N's payload is on `pay_*` this cycle (else in `pbuf_*[buf]`)
    pub cap_valid: Signal<Out, Bit>,
    /// N's lane moves into the issue stage
    pub enter: Signal<In, Bit>,
}

/// [`NextLaneOut`] as `IssueStage` takes it.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "NextLaneOut"]
pub struct NextLaneIn {
    pub valid: Signal<In, Bit>,
    pub buf: Signal<In, Bit>,
    pub lane: Signal<In, Bits<LANE_BITS>>,
    pub last_lane: Signal<In, Bit>,
    pub marker: Signal<In, Bit>,
    pub illegal: Signal<In, Bit>,
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,
    pub last_elem: Signal<In, Bits<ELEM_BITS>>,
    pub space_slm: Signal<In, Bit>,
    pub addr_offset32: Signal<In, Bit>,
    pub addr_buffer: Signal<In, Bit>,
    pub kind_typed: Signal<In, Bit>,
    pub write_only: Signal<In, Bit>,
    pub swap_src: Signal<In, Bit>,
    pub v_present: Signal<In, Bit>,
    pub r_present: Signal<In, Bit>,
    pub lod_present: Signal<In, Bit>,
    pub alu_op: Signal<In, Bits<ALU_OP_BITS>>,
    pub alu_ty: Signal<In, Bits<ALU_TY_BITS>>,
    pub alu_ftz: Signal<In, Bit>,
    pub surf_kind: Signal<In, Bits<SURF_KIND_BITS>>,
    pub surf_base: Signal<In, Bits<64>>,
    pub surf_size: Signal<In, Bits<64>>,
    pub width: Signal<In, Bits<32>>,
    pub height: Signal<In, Bits<32>>,
    pub depth: Signal<In, Bits<32>>,
    pub width_one: Signal<In, Bit>,
    pub height_one: Signal<In, Bit>,
    pub depth_one: Signal<In, Bit>,
    pub surf_array: Signal<In, Bits<32>>,
    pub lane_rows: Signal<In, Bits<32>>,
    pub surf_levels: Signal<In, Bits<32>>,
    pub surf_u16: Signal<In, Bit>,
    pub slm_size: Signal<In, Bits<32>>,
    pub walk_rows: Signal<In, Bits<32>>,
    pub walk_slices: Signal<In, Bits<32>>,
    pub walk_sizes_constant: Signal<In, Bit>,
    pub walk_a: Signal<In, Bits<32>>,
    pub walk_b: Signal<In, Bits<32>>,
    pub cap_valid: Signal<In, Bit>,
    pub enter: Signal<Out, Bit>,
}

/// The write stage W as `ExecutePipe` hands it to `MemoryPorts`: the
/// operation leaving the execute pipeline, its write and its result (W's
/// registers). The write's data, aligned in its line, comes from
/// `WriteAlign` beside it (`w_data`).
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "WriteStageIn"]
pub struct WriteStageOut {
    /// an operation is in W
    pub valid: Signal<Out, Bit>,
    pub kind: Signal<Out, Bits<ENTRY_KIND_BITS>>,
    /// it writes memory (read-modify-write or scatter block)
    pub writes: Signal<Out, Bit>,
    pub line: Signal<Out, Bits<ADDR_BITS>>,
    pub space: Signal<Out, Bit>,
    pub byte_enables: Signal<Out, Bits<LINE_BYTES>>,
    /// its new value, returned value, old value (in the element's low bits)
    pub new: Signal<Out, Bits<LINE_BITS>>,
    pub ret: Signal<Out, Bits<LINE_BITS>>,
    pub old: Signal<Out, Bits<LINE_BITS>>,
    pub lane: Signal<Out, Bits<LANE_BITS>>,
    pub elem: Signal<Out, Bits<ELEM_BITS>>,
    pub result_shift: Signal<Out, Bits<7>>,
    pub result_first: Signal<Out, Bit>,
    pub result_last: Signal<Out, Bit>,
    pub msg_last: Signal<Out, Bit>,
    pub error: Signal<Out, Bit>,
}

/// [`WriteStageOut`] as `MemoryPorts` takes it.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "WriteStageOut"]
pub struct WriteStageIn {
    pub valid: Signal<In, Bit>,
    pub kind: Signal<In, Bits<ENTRY_KIND_BITS>>,
    pub writes: Signal<In, Bit>,
    pub line: Signal<In, Bits<ADDR_BITS>>,
    pub space: Signal<In, Bit>,
    pub byte_enables: Signal<In, Bits<LINE_BYTES>>,
    pub new: Signal<In, Bits<LINE_BITS>>,
    pub ret: Signal<In, Bits<LINE_BITS>>,
    pub old: Signal<In, Bits<LINE_BITS>>,
    pub lane: Signal<In, Bits<LANE_BITS>>,
    pub elem: Signal<In, Bits<ELEM_BITS>>,
    pub result_shift: Signal<In, Bits<7>>,
    pub result_first: Signal<In, Bit>,
    pub result_last: Signal<In, Bit>,
    pub msg_last: Signal<In, Bit>,
    pub error: Signal<In, Bit>,
}

/// The issue stage I's element (or walk step, or marker) as `IssueStage`
/// hands it to the address stage T (`AddressPipe`), one field per T
/// register. Its operands go beside it (`src0`, `src1`): the unit masks
/// them to the data built.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "IssueElemIn"]
pub struct IssueElemOut {
    /// an element (or marker) goes into T this cycle
    pub valid: Signal<Out, Bit>,
    /// a typed walk step goes into T this cycle
    pub walk: Signal<Out, Bit>,
    /// TYPED_ATOMIC: the address is `AddrFinish`'s typed address
    pub typed: Signal<Out, Bit>,
    /// the element's byte address (`AddrGen`; not TYPED_ATOMIC)
    pub addr: Signal<Out, Bits<ADDR_BITS>>,
    /// the typed step's operands (`TypedAddr`)
    pub walk_first: Signal<Out, Bits<64>>,
    pub lane_first: Signal<Out, Bits<64>>,
    /// `typed_level == lod`
    pub at_lod: Signal<Out, Bit>,
    pub second_b: Signal<Out, Bits<32>>,
    pub walk_c: Signal<Out, Bits<64>>,
    /// the typed step's addend at lod: `e * E + surf_base`
    pub lod_c: Signal<Out, Bits<64>>,
    pub surf_u16: Signal<Out, Bit>,
    pub kind: Signal<Out, Bits<ENTRY_KIND_BITS>>,
    /// the bounds check's operands (`AddrGen`)
    pub checks_bounds: Signal<Out, Bit>,
    pub bounded_offset: Signal<Out, Bits<ADDR_BITS>>,
    pub last_start: Signal<Out, Bits<ADDR_BITS>>,
    pub bound_small: Signal<Out, Bit>,
    pub space: Signal<Out, Bit>,
    pub size: Signal<Out, Bits<SIZE_BITS>>,
    pub op: Signal<Out, Bits<ALU_OP_BITS>>,
    pub ty: Signal<Out, Bits<ALU_TY_BITS>>,
    pub ftz: Signal<Out, Bit>,
    pub lane: Signal<Out, Bits<LANE_BITS>>,
    pub elem: Signal<Out, Bits<ELEM_BITS>>,
    pub result_shift: Signal<Out, Bits<7>>,
    pub result_first: Signal<Out, Bit>,
    /// the element is the lane's last
    pub result_last: Signal<Out, Bit>,
    /// the entry is the message's last
    pub msg_last: Signal<Out, Bit>,
    pub error: Signal<Out, Bit>,
}

/// [`IssueElemOut`] as `AddressPipe` takes it.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "IssueElemOut"]
pub struct IssueElemIn {
    pub valid: Signal<In, Bit>,
    pub walk: Signal<In, Bit>,
    pub typed: Signal<In, Bit>,
    pub addr: Signal<In, Bits<ADDR_BITS>>,
    pub walk_first: Signal<In, Bits<64>>,
    pub lane_first: Signal<In, Bits<64>>,
    pub at_lod: Signal<In, Bit>,
    pub second_b: Signal<In, Bits<32>>,
    pub walk_c: Signal<In, Bits<64>>,
    pub lod_c: Signal<In, Bits<64>>,
    pub surf_u16: Signal<In, Bit>,
    pub kind: Signal<In, Bits<ENTRY_KIND_BITS>>,
    pub checks_bounds: Signal<In, Bit>,
    pub bounded_offset: Signal<In, Bits<ADDR_BITS>>,
    pub last_start: Signal<In, Bits<ADDR_BITS>>,
    pub bound_small: Signal<In, Bit>,
    pub space: Signal<In, Bit>,
    pub size: Signal<In, Bits<SIZE_BITS>>,
    pub op: Signal<In, Bits<ALU_OP_BITS>>,
    pub ty: Signal<In, Bits<ALU_TY_BITS>>,
    pub ftz: Signal<In, Bit>,
    pub lane: Signal<In, Bits<LANE_BITS>>,
    pub elem: Signal<In, Bits<ELEM_BITS>>,
    pub result_shift: Signal<In, Bits<7>>,
    pub result_first: Signal<In, Bit>,
    pub result_last: Signal<In, Bit>,
    pub msg_last: Signal<In, Bit>,
    pub error: Signal<In, Bit>,
}

/// The allocate stage A's entry as `AddressPipe` hands it to the in-flight
/// table (`InflightTable`), which writes it at the tail on `alloc` (A's
/// registers; `valid` stays apart: the unit decides `alloc`).
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "AllocStageIn"]
pub struct AllocStageOut {
    pub kind: Signal<Out, Bits<ENTRY_KIND_BITS>>,
    /// its line, byte lane and byte enables (`AddrFinish`)
    pub line: Signal<Out, Bits<ADDR_BITS>>,
    pub space: Signal<Out, Bit>,
    pub bit_offset: Signal<Out, Bits<7>>,
    pub byte_enables: Signal<Out, Bits<LINE_BYTES>>,
    pub size: Signal<Out, Bits<SIZE_BITS>>,
    pub op: Signal<Out, Bits<ALU_OP_BITS>>,
    pub ty: Signal<Out, Bits<ALU_TY_BITS>>,
    pub ftz: Signal<Out, Bit>,
    pub src0: Signal<Out, Bits<LINE_BITS>>,
    pub src1: Signal<Out, Bits<LINE_BITS>>,
    pub lane: Signal<Out, Bits<LANE_BITS>>,
    pub elem: Signal<Out, Bits<ELEM_BITS>>,
    pub result_shift: Signal<Out, Bits<7>>,
    pub result_first: Signal<Out, Bit>,
    pub result_last: Signal<Out, Bit>,
    pub msg_last: Signal<Out, Bit>,
    pub error: Signal<Out, Bit>,
}

/// [`AllocStageOut`] as `InflightTable` takes it.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "AllocStageOut"]
pub struct AllocStageIn {
    pub kind: Signal<In, Bits<ENTRY_KIND_BITS>>,
    pub line: Signal<In, Bits<ADDR_BITS>>,
    pub space: Signal<In, Bit>,
    pub bit_offset: Signal<In, Bits<7>>,
    pub byte_enables: Signal<In, Bits<LINE_BYTES>>,
    pub size: Signal<In, Bits<SIZE_BITS>>,
    pub op: Signal<In, Bits<ALU_OP_BITS>>,
    pub ty: Signal<In, Bits<ALU_TY_BITS>>,
    pub ftz: Signal<In, Bit>,
    pub src0: Signal<In, Bits<LINE_BITS>>,
    pub src1: Signal<In, Bits<LINE_BITS>>,
    pub lane: Signal<In, Bits<LANE_BITS>>,
    pub elem: Signal<In, Bits<ELEM_BITS>>,
    pub result_shift: Signal<In, Bits<7>>,
    pub result_first: Signal<In, Bit>,
    pub result_last: Signal<In, Bit>,
    pub msg_last: Signal<In, Bit>,
    pub error: Signal<In, Bit>,
}

/// The elements in the execute stages X, X2, X3, X4 as `ExecutePipe`
/// hands them to the in-flight table's hazard compares (their registers).
/// W's come from the write stage's bundle (`WriteStageOut`).
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "AheadStagesIn"]
pub struct AheadStagesOut {
    pub x_line: Signal<Out, Bits<ADDR_BITS>>,
    pub x_space: Signal<Out, Bit>,
    pub x_byte_enables: Signal<Out, Bits<LINE_BYTES>>,
    pub x2_line: Signal<Out, Bits<ADDR_BITS>>,
    pub x2_space: Signal<Out, Bit>,
    pub x2_byte_enables: Signal<Out, Bits<LINE_BYTES>>,
    pub x3_line: Signal<Out, Bits<ADDR_BITS>>,
    pub x3_space: Signal<Out, Bit>,
    pub x3_byte_enables: Signal<Out, Bits<LINE_BYTES>>,
    pub x4_line: Signal<Out, Bits<ADDR_BITS>>,
    pub x4_space: Signal<Out, Bit>,
    pub x4_byte_enables: Signal<Out, Bits<LINE_BYTES>>,
}

/// [`AheadStagesOut`] as `InflightTable` takes it.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "AheadStagesOut"]
pub struct AheadStagesIn {
    pub x_line: Signal<In, Bits<ADDR_BITS>>,
    pub x_space: Signal<In, Bit>,
    pub x_byte_enables: Signal<In, Bits<LINE_BYTES>>,
    pub x2_line: Signal<In, Bits<ADDR_BITS>>,
    pub x2_space: Signal<In, Bit>,
    pub x2_byte_enables: Signal<In, Bits<LINE_BYTES>>,
    pub x3_line: Signal<In, Bits<ADDR_BITS>>,
    pub x3_space: Signal<In, Bit>,
    pub x3_byte_enables: Signal<In, Bits<LINE_BYTES>>,
    pub x4_line: Signal<In, Bits<ADDR_BITS>>,
    pub x4_space: Signal<In, Bit>,
    pub x4_byte_enables: Signal<In, Bits<LINE_BYTES>>,
}
