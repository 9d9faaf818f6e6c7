//! The stage payloads handed from one block of the unit to the next, each
//! declared once as a pair of `LogicInterface` bundles (the head entry's,
//! `HeadEntryOut`, is in head_select.rs with its block): the sending block
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
