//! `AtomicUnit`: the lane-serializing memory-port unit (`atomic_unit.v`).
//!
//! One message at a time comes in on `req_*` (descriptor, masks, surface
//! state; the driver holds it until `req_ready`). The unit decodes the
//! descriptor, computes the channel enables, and reads each enabled lane's
//! operands through its payload port (`pay_lane` out, the lane's
//! address/src0/src1/coordinates in on `pay_*` one cycle later), lowest
//! enabled lane first, skipping disabled lanes at no cost. The front end:
//! the *request* stage (R) takes the message into registers as it comes
//! (`r_*`); the *decode* stage (D) registers the decoder's outputs for it,
//! the channel enables and the surface state (`d_*`); the *select*
//! stage picks a lane of D's message and reads its payload (`LaneSelect`);
//! the *next-lane* stage (N) holds it while its payload arrives on `pay_*`
//! and goes into one of two payload buffers (`pbuf_*`); the *issue* stage
//! (I) has the payload buffer and the message's decoded fields (`ctx_*`
//! registers) and issues
//! one element per cycle (element by element for PTX vectors, block by block
//! for SVM_SCATTER): its address, bounds, operands, and the typed address's
//! first multiply-add; the *address* stage (T) multiplies the typed
//! address's second product into partial products and checks the SLM /
//! buffer bounds; the *line* stage (L) sums them into the typed address and
//! forms line and byte enables; the *allocate* stage (A) writes the
//! entry into an 8-entry in-flight table and sends its read, from registers.
//! D takes R's message when the last lane of its own is selected, and R
//! the next one (`req_ready`) in the same cycle, so the next message's first
//! lane is selected while the last one is in N: no idle cycle between
//! messages. The read data returns in order into
//! the entry; once back, the table's head leaves the table into the execute
//! pipeline: X (the integer ALU, float stage 1), X2, X3, X4 (float stages
//! 2..4; an integer build goes from X2 straight to W) and the write stage
//! W, whose write goes out on `mem_wr_*` (a
//! refused one waits in the write skid register `s_*`, a refused read in
//! `r_*`); the operation retires when it leaves W, and the lane's result
//! leaves on `rsp_*` (registered). Same-address hazards are resolved by
//! forwarding, not stalling: every write on the port pushes its bytes into
//! the table's entries on its line a cycle later (`push_*`), the head
//! merges that push and the write leaving W, and takes an older operation's new value from X2, X3,
//! X4 or W (bypass) when that operation writes exactly its element; it waits
//! only for a partial overlap or a float result not computed yet
//! (docs/microarchitecture.md "Execute pipeline").
//!
//! Full description, port table, timing and cycle costs:
//! docs/microarchitecture.md.
//!
//! No input port feeds this block's logic: every input goes into a
//! register first (`reset_q`, the request stage's and payload buffers'
//! `CaptureReg`s, `EntryData`, the skids), wired by `atomport emit` outside
//! the block, so that Verilator keeps the unit out of its per-`eval()`
//! input-combinational region (docs/microarchitecture.md, "RTL structure
//! rule (Verilator)"; checked by `emit::tests::the_unit_block_reads_no_input_port`).
//!
//! Stage payloads are named registers, one per field, not a `LogicStruct`:
//! rust-hdl packs a struct into one vector, and on X3/X4 (494 bits) that
//! left the speed as it was but showed one `x3_pay$q [493:0]` in the VCD
//! instead of 16 named fields, and emitted its slices with 64-bit indices
//! (`x3_pay$q[(64'h2)+:(64)]`) that fail Verilator `-Wall` (WIDTH).
//!
//! Structure, and one rule for Verilator: rust-hdl emits one `always @(*)`
//! per block, and Verilator splits it only along the block-written variables
//! its statements share. So in every block, the statements that drive a
//! combinational sub-block's inputs read only ports, register outputs and
//! sub-block outputs ("wiring only"), and nothing they write is read by the
//! logic after the sub-block. Otherwise Verilator sees a combinational loop
//! (`UNOPTFLAT`). The logic of each step lives in its own leaf block:
//!
//! | block          | file            | does                                                  |
//! | -------------- | --------------- | ----------------------------------------------------- |
//! | MessageDecoder | decoder.rs      | descriptor fields, legality, channel enables          |
//! | LaneSelect     | lane_select.rs  | find-first-set over the lanes left                    |
//! | LaneMux        | lane_mux.rs     | the lane's payload (one of two buffers); its alignment |
//! | TypedAddr      | typed_addr.rs   | TYPED_ATOMIC walk, first multiply-add, bounds         |
//! | AddrGen        | addr_gen.rs     | element address (not typed), the bound it has         |
//! | BoundsCheck    | bounds_check.rs | SLM / buffer bounds, in T                             |
//! | AddrMul        | addr_mul.rs     | typed address: second multiply, as partial products (T) |
//! | AddrFinish     | addr_finish.rs  | typed address: partial products summed (L); line, byte lane |
//! | LinePlace      | line_place.rs   | an element's line, bit offset, byte enables (in `AddrFinish`; serial too) |
//! | ElemSize       | elem_size.rs    | an element-size code decoded: bytes (serial too: mask, alignment) |
//! | NullCoord      | null_coord.rs   | TYPED_ATOMIC's absent V, R, LOD read as 0 (serial too) |
//! | ElemSelect     | elem_select.rs  | the element's operands / scatter block                |
//! | HeadSelect     | head_select.rs  | the table's head entry, forwarding merge, ALU operands |
//! | HeadLine       | head_line.rs    | the head entry's line and returned flag, in registers of their own |
//! | HazardCompare  | hazard_compare.rs | a head against a stage (same line, a byte in common), a cycle ahead |
//! | WalkProduct    | walk_product.rs | a typed walk step's product as digit products at flip-flops |
//! | AtMostTwo      | at_most_two.rs  | whether a lane mask holds at most two lanes (`left_few`) |
//! | EntryRam       | entry_ram.rs    | the table's head-only fields (operands, line copy, ...) |
//! | EntryData      | entry_data.rs   | an entry's line and returned flag (writes, read return) |
//! | CaptureReg     | capture_reg.rs  | a register loaded straight from an input              |
//! | ReadSkid, WriteSkid | port_skid.rs | the memory ports' handshake state                   |
//! | WriteAlign     | write_align.rs  | the write stage's element in its line: data, bit mask |
//! | AtomicAlu      | alu.rs          | new value and returned value                          |
//! | AddressPipe    | unit/address.rs | the address pipeline's stage registers, T, L, A, with BoundsCheck, AddrMul, AddrFinish |
//! | FrontStages    | unit/front.rs   | the front end's stage registers, R, D (with MessageDecoder), N, and the payload buffers |
//! | InflightTable  | unit/inflight.rs | the in-flight table: entries, head registers, hazard flags, forwarding pushes, read return |
//! | ExecutePipe    | unit/execute.rs | the execute pipeline's stage registers, X..W, and their advance |

use rust_hdl::prelude::*;

use crate::addr_gen::AddrGen;
use crate::alu::AtomicAlu;
use crate::at_most_two::AtMostTwo;
use crate::elem_select::ElemSelect;
use crate::elem_size::ElemSize;
use crate::head_select::{HeadSelect, ENTRY_KIND_BITS, ENTRY_MARKER, ENTRY_NO_MEMORY, ENTRY_READ_MODIFY_WRITE, ENTRY_WRITE, INFLIGHT_DEPTH, INFLIGHT_INDEX_BITS};
use crate::lane_coord_reg::LaneCoordReg;
use crate::lane_mux::LaneMux;
use crate::lane_select::LaneSelect;
use crate::null_coord::NullCoord;
use crate::port_skid::{ReadSkid, WriteSkid};
use crate::state_reg::StateReg;
use crate::typed_addr::TypedAddr;
use crate::walk_product::WalkProduct;
use crate::widths::{ADDR_BITS, DESC_BITS, ELEM_BITS, LANE_BITS, LANE_DATA_BITS, LINE_BITS, LINE_BYTES, MAX_LANES, SIZE_BITS, SURF_KIND_BITS, UVR_BITS, WORD_BITS};
use crate::word_join::WORDS;
use crate::write_align::WriteAlign;
mod address;
mod execute;
mod front;
mod inflight;

use address::AddressPipe;
use front::FrontStages;
use execute::ExecutePipe;
use inflight::InflightTable;
use atomport_isa::{UnitConfig, ALU_OP_BITS, ALU_TY_BITS};


/// The select stage's state.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum IssueState {
    /// The decode stage's message (if any) has had no lane selected yet: its
    /// lanes are its channel enables (`d_lanes`).
    FirstLane,
    /// Part of the decode stage's message has been selected: its lanes left are `lanes_left`.
    NextLane,
}

/// The lane-serializing memory-port unit. See the module documentation.
#[derive(LogicBlock)]
pub struct AtomicUnit {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the in-flight table and the request and decode stages, back to `FirstLane`.
    pub reset: Signal<In, Bit>,

    // ---- request: one message's descriptor, masks and surface state ----
    pub req_valid: Signal<In, Bit>,
    /// The request stage takes the message on `req_*` (combinational, from
    /// registers and the stages' advance): it is empty, or its message
    /// moves into the decode stage this cycle.
    pub req_ready: Signal<Out, Bit>,
    /// The descriptor, byte k on bits 8k+7..8k (docs/descriptors.md).
    pub req_desc: Signal<In, Bits<DESC_BITS>>,
    pub req_dmask: Signal<In, Bits<MAX_LANES>>,
    pub req_pred_mask: Signal<In, Bits<MAX_LANES>>,
    /// The named surface: 0..=4 typed kinds, 5 buffer, 7 none.
    pub req_surf_kind: Signal<In, Bits<SURF_KIND_BITS>>,
    pub req_surf_base: Signal<In, Bits<64>>,
    pub req_surf_size: Signal<In, Bits<64>>,
    pub req_surf_width: Signal<In, Bits<32>>,
    pub req_surf_height: Signal<In, Bits<32>>,
    pub req_surf_depth: Signal<In, Bits<32>>,
    pub req_surf_array: Signal<In, Bits<32>>,
    pub req_surf_levels: Signal<In, Bits<32>>,
    pub req_surf_u16: Signal<In, Bit>,
    pub req_slm_size: Signal<In, Bits<32>>,

    // ---- payload port: a register-file read of one lane of a message taken ----
    /// Read lane `pay_lane` this cycle (combinational, like `req_ready`);
    /// its operands are on `pay_*` `PAYLOAD_LATENCY` (1) cycle later.
    pub pay_valid: Signal<Out, Bit>,
    pub pay_lane: Signal<Out, Bits<LANE_BITS>>,
    /// The message the lane belongs to: the count of messages taken
    /// (`req_valid & req_ready`) before it since reset, mod 2. Up to two
    /// taken messages wait for their lanes to be read (the request and the
    /// decode stage's).
    pub pay_slot: Signal<Out, Bit>,
    /// The lane's address / u32 offset.
    pub pay_addr: Signal<In, Bits<ADDR_BITS>>,
    /// The lane's src0 / PTX b / scatter blocks 0.. (bytes 0..15).
    pub pay_src0: Signal<In, Bits<LANE_DATA_BITS>>,
    /// The lane's src1 / PTX c / scatter blocks continued (bytes 16..31).
    pub pay_src1: Signal<In, Bits<LANE_DATA_BITS>>,
    /// TYPED_ATOMIC: {lod, r, v, u}.
    pub pay_coord: Signal<In, Bits<LANE_DATA_BITS>>,

    // ---- memory read channel ----
    pub mem_rd_valid: Signal<Out, Bit>,
    pub mem_rd_ready: Signal<In, Bit>,
    /// The 16-byte line (bits 3..0 zero).
    pub mem_rd_addr: Signal<Out, Bits<ADDR_BITS>>,
    /// 0 flat, 1 SLM.
    pub mem_rd_space: Signal<Out, Bit>,
    pub mem_rd_be: Signal<Out, Bits<LINE_BYTES>>,
    /// Read data, in acceptance order, one cycle or more after acceptance.
    pub mem_rdata_valid: Signal<In, Bit>,
    pub mem_rdata: Signal<In, Bits<LINE_BITS>>,

    // ---- memory write channel ----
    pub mem_wr_valid: Signal<Out, Bit>,
    pub mem_wr_ready: Signal<In, Bit>,
    pub mem_wr_addr: Signal<Out, Bits<ADDR_BITS>>,
    pub mem_wr_space: Signal<Out, Bit>,
    pub mem_wr_data: Signal<Out, Bits<LINE_BITS>>,
    pub mem_wr_be: Signal<Out, Bits<LINE_BYTES>>,

    // ---- results (registered, no backpressure) ----
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_lane: Signal<Out, Bits<LANE_BITS>>,
    pub rsp_data: Signal<Out, Bits<LINE_BITS>>,
    pub rsp_done: Signal<Out, Bit>,
    pub rsp_error: Signal<Out, Bit>,

    // ---- observation (registered): each completed read-modify-write ----
    pub obs_valid: Signal<Out, Bit>,
    pub obs_lane: Signal<Out, Bits<LANE_BITS>>,
    pub obs_elem: Signal<Out, Bits<ELEM_BITS>>,
    pub obs_old: Signal<Out, Bits<LINE_BITS>>,
    pub obs_new: Signal<Out, Bits<LINE_BITS>>,

    // ---- blocks ----
    /// the front end's stage registers: R, D, N and the payload buffers (unit/front.rs)
    front: FrontStages,
    lane_select: LaneSelect,
    /// whether the decode stage's lanes / the lanes left are at most two
    /// (the lanes left after the one selected from them at most one), for
    /// `left_few`
    first_lanes_two: AtMostTwo,
    left_lanes_two: AtMostTwo,
    lane_mux: LaneMux,
    typed_step: TypedAddr,
    addr_gen: AddrGen,
    // ---- address pipeline: T, L, A (unit/address.rs) ----
    address: AddressPipe,
    elem_select: ElemSelect,
    head_select: HeadSelect,
    write_align: WriteAlign,
    /// the issue stage's element size decoded (its step in the lane)
    elem_bytes_of: ElemSize<ADDR_BITS>,
    /// TYPED_ATOMIC's null V and R (the lane's lod is zeroed as it enters, `LaneCoordReg`)
    null_coord: NullCoord,
    alu: AtomicAlu,

    // ---- the memory ports' skid registers ----
    /// the read/write ports' handshake state (the only logic reading the readies)
    read_skid: ReadSkid,
    write_skid: WriteSkid,
    /// a read the memory has not accepted yet (`read_skid.full`): on the port from here
    r_line: DFF<Bits<ADDR_BITS>>,
    r_space: DFF<Bit>,
    r_byte_enables: DFF<Bits<LINE_BYTES>>,
    /// the last write to leave W, with its operation's observation: loaded
    /// with every such write, held while the memory refuses it
    /// (`write_skid.full`: on the port from here); `obs_*` are these registers
    s_line: DFF<Bits<ADDR_BITS>>,
    s_space: DFF<Bit>,
    s_data: DFF<Bits<LINE_BITS>>,
    s_byte_enables: DFF<Bits<LINE_BYTES>>,
    s_lane: DFF<Bits<LANE_BITS>>,
    s_elem: DFF<Bits<ELEM_BITS>>,
    s_old: DFF<Bits<LINE_BITS>>,
    s_new: DFF<Bits<LINE_BITS>>,

    // ---- input registers ----
    /// `reset`, registered: the unit's logic resets from it
    reset_q: DFF<Bit>,

    // ---- select stage ----
    issue_state: StateReg<IssueState>,
    /// lanes of the decode stage's message still to select (valid in `NextLane`)
    lanes_left: DFF<Bits<MAX_LANES>>,
    /// `lanes_left` holds at most one lane (its next selected lane is the last)
    left_few: DFF<Bit>,

    // ---- issue stage: the lane from the next-lane stage ----
    /// a lane (or a marker) is in the issue stage
    i_valid: DFF<Bit>,
    /// the payload buffer the issue stage reads (`pbuf_*[i_buf]`)
    i_buf: DFF<Bit>,
    i_lane: DFF<Bits<LANE_BITS>>,
    /// it is its message's last lane
    i_last_lane: DFF<Bit>,
    /// no lane: the message only issues a marker (illegal, or no lane enabled)
    i_marker: DFF<Bit>,
    /// the marker is for an illegal message
    i_illegal: DFF<Bit>,
    /// a misaligned lane of the message in the issue stage has issued
    msg_misaligned: DFF<Bit>,
    /// the message's decoded fields and surface state, taken with each lane
    ctx_elem_size: DFF<Bits<SIZE_BITS>>,
    ctx_last_elem: DFF<Bits<ELEM_BITS>>,
    ctx_space_slm: DFF<Bit>,
    ctx_addr_offset32: DFF<Bit>,
    ctx_addr_buffer: DFF<Bit>,
    ctx_kind_typed: DFF<Bit>,
    ctx_write_only: DFF<Bit>,
    ctx_swap_src: DFF<Bit>,
    ctx_v_present: DFF<Bit>,
    ctx_r_present: DFF<Bit>,
    ctx_alu_op: DFF<Bits<ALU_OP_BITS>>,
    ctx_alu_ty: DFF<Bits<ALU_TY_BITS>>,
    ctx_alu_ftz: DFF<Bit>,
    ctx_surf_kind: DFF<Bits<SURF_KIND_BITS>>,
    ctx_surf_base: DFF<Bits<64>>,
    ctx_surf_size: DFF<Bits<64>>,
    ctx_surf_array: DFF<Bits<32>>,
    ctx_surf_u16: DFF<Bit>,
    ctx_slm_size: DFF<Bits<32>>,

    /// element / block of the current lane
    elem_index: DFF<Bits<ELEM_BITS>>,
    /// its byte offset from the lane's address
    elem_offset: DFF<Bits<ADDR_BITS>>,
    /// its bit offset in the lane's operand (result position for PTX vectors)
    elem_shift: DFF<Bits<8>>,
    /// TYPED_ATOMIC address walk
    typed_level: DFF<Bits<32>>,
    typed_level_base: DFF<Bits<64>>,
    /// the extents W, H, D at `typed_level`, each at least 1 (max(1, W) etc.
    /// loaded with the lane: no mux or compare before the multiplier)
    typed_width: DFF<Bits<32>>,
    typed_height: DFF<Bits<32>>,
    typed_depth: DFF<Bits<32>>,
    /// each of them is 1 (TypedExtent: no compare before the walk's multiplier)
    typed_width_one: DFF<Bit>,
    typed_height_one: DFF<Bit>,
    typed_depth_one: DFF<Bit>,
    /// a walk step's multiply operands at the walk state (`WalkOperands`),
    /// loaded with the extents above: from the next-lane stage's extents
    /// (`n_walk_ops`) as the lane enters, from the next level as a walk step
    /// issues; the multiplier starts at these flip-flops
    typed_walk_a: DFF<Bits<32>>,
    typed_walk_b: DFF<Bits<32>>,
    /// R's extent at the level and whether the sizes are constant from it
    /// on, loaded the same way (`rows` is `typed_lane_rows`)
    typed_slices: DFF<Bits<32>>,
    typed_sizes_constant: DFF<Bit>,
    /// a walk step's product at the walk state of last cycle
    /// (`typed_walk_a * typed_walk_b` as digit products, `WalkProduct`), and
    /// whether a new lane may have changed that state since: its first walk
    /// step waits a cycle for them
    typed_walk_product: WalkProduct,
    typed_walk_stale: DFF<Bit>,
    /// the lane's `r` and `lod` coordinates (0 when the message has none),
    /// loaded as the lane enters the issue stage (`LaneCoordReg`: from
    /// `pay_coord` when its payload arrives in that cycle, else from its
    /// payload buffer), with `lod == 0` and `lod >= levels`, and the lane
    /// product `r * rows` as digit products (`TypedAddr`'s `lane_p*`), with
    /// `rows` at `typed_level` (`typed_lane_rows`, loaded with `typed_height`);
    /// and the walk's done decision for the issue stage's stall (`ready`)
    typed_lane_coord: LaneCoordReg,
    typed_lane_rows: DFF<Bits<32>>,
    /// a walk step has run for the lane (`typed_level > 0`), and then
    /// `typed_level == lod`: the walk's done decision (`typed_at_lod`) from
    /// registers only
    typed_walked: DFF<Bit>,
    typed_walk_at_lod: DFF<Bit>,

    // ---- in-flight table (unit/inflight.rs) ----
    inflight: InflightTable,

    // ---- execute pipeline: X, X2, X3, X4, W (unit/execute.rs) ----
    execute: ExecutePipe,

    // ---- result registers ----
    /// the lane's result so far (PTX vectors: elements joined)
    result_acc: DFF<Bits<LINE_BITS>>,
    rsp_valid_r: DFF<Bit>,
    rsp_lane_r: DFF<Bits<LANE_BITS>>,
    rsp_data_r: DFF<Bits<LINE_BITS>>,

    // ---- constants ----
    kind_marker: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_no_memory: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_read_modify_write: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_write: Constant<Bits<ENTRY_KIND_BITS>>,
    one_elem: Constant<Bits<ELEM_BITS>>,
    zero_elem: Constant<Bits<ELEM_BITS>>,
    /// what this build has (`AtomicUnit::new`): the lanes and the data bits
    /// built; masking with them makes the rest constant, and synthesis
    /// removes it
    lanes_built: Constant<Bits<MAX_LANES>>,
    data_built: Constant<Bits<LINE_BITS>>,
    /// the float ops are built: X3 and X4 (float stages 3 and 4) are in the
    /// pipeline; without them W takes X2's operation and X3/X4 are unread
    fp_built: Constant<Bit>,
    zero_shift: Constant<Bits<8>>,
    zero_addr: Constant<Bits<ADDR_BITS>>,
    zero_line: Constant<Bits<LINE_BITS>>,
    zero_low: Constant<Bits<4>>,
    zero_coord: Constant<Bits<32>>,
    /// the lane's lod as `NullCoord` takes it: already zeroed when absent
    lod_as_registered: Constant<Bit>,
    /// bit offsets and result shifts are byte multiples: masking the low
    /// 3 bits to constant zeros lets synthesis build byte shifters
    byte_aligned: Constant<Bits<7>>,

    // ---- select locals (named for waveforms) ----
    sel_valid: Signal<Local, Bit>,
    /// the decode stage takes the request stage's message: it is empty, or
    /// its message's last lane is selected now
    d_free: Signal<Local, Bit>,
    /// the decode stage's message gets a marker instead of lanes (illegal, or no lane enabled)
    sel_marker: Signal<Local, Bit>,
    /// the selected lane is the message's last
    sel_last: Signal<Local, Bit>,
    /// the next-lane stage is empty or its lane moves on: a lane is selected (its payload read)
    sel_take: Signal<Local, Bit>,
    /// the next-lane stage's lane moves into the issue stage (empty or done with its lane)
    n_enter: Signal<Local, Bit>,

    // ---- issue locals (named for waveforms) ----
    table_is_full: Signal<Local, Bit>,
    /// the issuing lane's access is misaligned (no memory; the message ends in error)
    issue_misaligned: Signal<Local, Bit>,
    /// the issue stage is done with its lane (or marker) this cycle
    issue_done: Signal<Local, Bit>,
    /// this cycle's entry only ends the message (illegal, or no lane enabled)
    issue_marker: Signal<Local, Bit>,
    /// the current element is the lane's last
    issue_lane_done: Signal<Local, Bit>,
    /// this cycle's entry is the message's last
    issue_last: Signal<Local, Bit>,
    issue_addr_ready: Signal<Local, Bit>,
    /// `typed_level == lod` (`typed_walked`, `typed_walk_at_lod`, `LaneCoordReg`)
    typed_at_lod: Signal<Local, Bit>,
    /// the issue stage's element (or marker) moves into the address stage
    issue_push: Signal<Local, Bit>,
    issue_kind: Signal<Local, Bits<ENTRY_KIND_BITS>>,
    /// the typed step's addend at lod: `e * E + surf_base` (AddrFinish: the
    /// multiply-add's result is then the element's byte address)
    issue_lod_c: Signal<Local, Bits<64>>,
    /// `e * E`
    issue_scaled_c: Signal<Local, Bits<64>>,
    /// the issue stage's typed lane takes a walk step (into the address stage, then the line stage)
    walk_push: Signal<Local, Bit>,
    typed_pending: Signal<Local, Bit>,
    /// the address stage / the line stage / the allocate stage takes a new element (or empties) this cycle
    t_accepts: Signal<Local, Bit>,
    l_accepts: Signal<Local, Bit>,
    a_accepts: Signal<Local, Bit>,
    a_reads: Signal<Local, Bit>,
    /// an entry is written into the table this cycle
    alloc: Signal<Local, Bit>,
    elem_bytes: Signal<Local, Bits<ADDR_BITS>>,
    elem_bits: Signal<Local, Bits<8>>,

    // ---- head and pipeline locals ----
    head_is_rmw: Signal<Local, Bit>,
    /// the head can leave the table: its data is back (or it needs none) and no hazard holds it
    head_ready: Signal<Local, Bit>,
    /// the head leaves the table into the execute stage this cycle
    head_enters: Signal<Local, Bit>,
    /// the execute / write stage takes a new operation this cycle
    x_free: Signal<Local, Bit>,
    w_free: Signal<Local, Bit>,
    w_is_rmw: Signal<Local, Bit>,
    w_has_result: Signal<Local, Bit>,
    write_data: Signal<Local, Bits<LINE_BITS>>,
    /// the write stage's operation leaves W this cycle (the write skid
    /// register is empty; its write, if any, is on the port)
    retire: Signal<Local, Bit>,
    /// a write is on the memory port: the skid register's, or the write stage's
    port_write: Signal<Local, Bit>,
    /// that write
    port_line: Signal<Local, Bits<ADDR_BITS>>,
    port_space: Signal<Local, Bit>,
    port_data: Signal<Local, Bits<LINE_BITS>>,
    port_byte_enables: Signal<Local, Bits<LINE_BYTES>>,
    result_value: Signal<Local, Bits<LINE_BITS>>,
    result_joined: Signal<Local, Bits<LINE_BITS>>,
}

fn constant<const N: usize>(value: u64) -> Constant<Bits<N>> {
    Constant::new(value.to_bits())
}

impl Default for AtomicUnit {
    /// The full unit ([`UnitConfig::FULL`]): the emitted `atomic_unit`.
    fn default() -> Self {
        Self::new(UnitConfig::FULL)
    }
}

impl AtomicUnit {
    /// The unit built with `config` (docs/microarchitecture.md "Build
    /// parameters"): `max_lanes` lanes, elements of up to `data_bits`, with
    /// or without the float ops. The ports keep their shape; the decoder
    /// rejects every message the build cannot execute (`rsp_error`, no
    /// access), and the lanes and bits not built are masked to constants
    /// that synthesis removes.
    pub fn new(config: UnitConfig) -> Self {
        UnitConfig::new(config.max_lanes, config.data_bits, config.fp).expect("AtomicUnit: bad UnitConfig");
        assert_eq!(1 << INFLIGHT_INDEX_BITS, INFLIGHT_DEPTH);
        // the line-word indexing below writes `4 * k + w` and `32 * w` as literals (rust-hdl)
        assert_eq!((WORDS, WORD_BITS * WORDS), (4, LINE_BITS));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_desc: Default::default(),
            req_dmask: Default::default(),
            req_pred_mask: Default::default(),
            req_surf_kind: Default::default(),
            req_surf_base: Default::default(),
            req_surf_size: Default::default(),
            req_surf_width: Default::default(),
            req_surf_height: Default::default(),
            req_surf_depth: Default::default(),
            req_surf_array: Default::default(),
            req_surf_levels: Default::default(),
            req_surf_u16: Default::default(),
            req_slm_size: Default::default(),
            pay_valid: Default::default(),
            pay_lane: Default::default(),
            pay_slot: Default::default(),
            pay_addr: Default::default(),
            pay_src0: Default::default(),
            pay_src1: Default::default(),
            pay_coord: Default::default(),
            mem_rd_valid: Default::default(),
            mem_rd_ready: Default::default(),
            mem_rd_addr: Default::default(),
            mem_rd_space: Default::default(),
            mem_rd_be: Default::default(),
            mem_rdata_valid: Default::default(),
            mem_rdata: Default::default(),
            mem_wr_valid: Default::default(),
            mem_wr_ready: Default::default(),
            mem_wr_addr: Default::default(),
            mem_wr_space: Default::default(),
            mem_wr_data: Default::default(),
            mem_wr_be: Default::default(),
            rsp_valid: Default::default(),
            rsp_lane: Default::default(),
            rsp_data: Default::default(),
            rsp_done: Default::default(),
            rsp_error: Default::default(),
            obs_valid: Default::default(),
            obs_lane: Default::default(),
            obs_elem: Default::default(),
            obs_old: Default::default(),
            obs_new: Default::default(),
            front: FrontStages::new(config),
            lane_select: Default::default(),
            first_lanes_two: AtMostTwo::new(config.lane_mask() as u64),
            left_lanes_two: AtMostTwo::new(config.lane_mask() as u64),
            lane_mux: Default::default(),
            typed_step: Default::default(),
            addr_gen: Default::default(),
            elem_select: Default::default(),
            head_select: HeadSelect::new(config.data_bits),
            write_align: Default::default(),
            elem_bytes_of: ElemSize::bytes(),
            null_coord: Default::default(),
            alu: AtomicAlu::new(config.data_bits, config.fp),
            execute: ExecutePipe::new(config.fp),
            inflight: InflightTable::new(config.fp),
            address: Default::default(),
            read_skid: Default::default(),
            write_skid: Default::default(),
            r_line: Default::default(),
            r_space: Default::default(),
            r_byte_enables: Default::default(),
            s_line: Default::default(),
            s_space: Default::default(),
            s_data: Default::default(),
            s_byte_enables: Default::default(),
            s_lane: Default::default(),
            s_elem: Default::default(),
            s_old: Default::default(),
            s_new: Default::default(),
            reset_q: Default::default(),
            issue_state: Default::default(),
            lanes_left: Default::default(),
            left_few: Default::default(),
            i_valid: Default::default(),
            i_buf: Default::default(),
            i_lane: Default::default(),
            i_last_lane: Default::default(),
            i_marker: Default::default(),
            i_illegal: Default::default(),
            msg_misaligned: Default::default(),
            ctx_elem_size: Default::default(),
            ctx_last_elem: Default::default(),
            ctx_space_slm: Default::default(),
            ctx_addr_offset32: Default::default(),
            ctx_addr_buffer: Default::default(),
            ctx_kind_typed: Default::default(),
            ctx_write_only: Default::default(),
            ctx_swap_src: Default::default(),
            ctx_v_present: Default::default(),
            ctx_r_present: Default::default(),
            ctx_alu_op: Default::default(),
            ctx_alu_ty: Default::default(),
            ctx_alu_ftz: Default::default(),
            ctx_surf_kind: Default::default(),
            ctx_surf_base: Default::default(),
            ctx_surf_size: Default::default(),
            ctx_surf_array: Default::default(),
            ctx_surf_u16: Default::default(),
            ctx_slm_size: Default::default(),
            elem_index: Default::default(),
            elem_offset: Default::default(),
            elem_shift: Default::default(),
            typed_level: Default::default(),
            typed_level_base: Default::default(),
            typed_width: Default::default(),
            typed_height: Default::default(),
            typed_depth: Default::default(),
            typed_width_one: Default::default(),
            typed_height_one: Default::default(),
            typed_depth_one: Default::default(),
            typed_walk_a: Default::default(),
            typed_walk_b: Default::default(),
            typed_slices: Default::default(),
            typed_sizes_constant: Default::default(),
            typed_walk_product: Default::default(),
            typed_walk_stale: Default::default(),
            typed_lane_coord: Default::default(),
            typed_walked: Default::default(),
            typed_walk_at_lod: Default::default(),
            typed_lane_rows: Default::default(),
            result_acc: Default::default(),
            rsp_valid_r: Default::default(),
            rsp_lane_r: Default::default(),
            rsp_data_r: Default::default(),
            kind_marker: constant(ENTRY_MARKER as u64),
            kind_no_memory: constant(ENTRY_NO_MEMORY as u64),
            kind_read_modify_write: constant(ENTRY_READ_MODIFY_WRITE as u64),
            kind_write: constant(ENTRY_WRITE as u64),
            one_elem: constant(1),
            zero_elem: constant(0),
            lanes_built: constant(config.lane_mask() as u64),
            data_built: Constant::new(config.data_mask().to_bits()),
            fp_built: Constant::new(config.fp),
            zero_shift: constant(0),
            zero_addr: constant(0),
            zero_line: constant(0),
            zero_low: constant(0),
            zero_coord: constant(0),
            lod_as_registered: Constant::new(true),
            byte_aligned: constant(0x78),
            sel_valid: Default::default(),
            d_free: Default::default(),
            sel_marker: Default::default(),
            sel_last: Default::default(),
            sel_take: Default::default(),
            n_enter: Default::default(),
            table_is_full: Default::default(),
            issue_misaligned: Default::default(),
            issue_done: Default::default(),
            issue_marker: Default::default(),
            issue_lane_done: Default::default(),
            issue_last: Default::default(),
            issue_addr_ready: Default::default(),
            typed_at_lod: Default::default(),
            issue_push: Default::default(),
            issue_kind: Default::default(),
            issue_lod_c: Default::default(),
            issue_scaled_c: Default::default(),
            walk_push: Default::default(),
            typed_pending: Default::default(),
            t_accepts: Default::default(),
            l_accepts: Default::default(),
            a_accepts: Default::default(),
            a_reads: Default::default(),
            alloc: Default::default(),
            elem_bytes: Default::default(),
            elem_bits: Default::default(),
            head_is_rmw: Default::default(),
            head_ready: Default::default(),
            head_enters: Default::default(),
            x_free: Default::default(),
            w_free: Default::default(),
            w_is_rmw: Default::default(),
            w_has_result: Default::default(),
            write_data: Default::default(),
            retire: Default::default(),
            port_write: Default::default(),
            port_line: Default::default(),
            port_space: Default::default(),
            port_data: Default::default(),
            port_byte_enables: Default::default(),
            result_value: Default::default(),
            result_joined: Default::default(),
        }
    }
}

impl Logic for AtomicUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            issue_state,
            lanes_left,
            left_few,
            i_valid,
            i_buf,
            i_lane,
            i_last_lane,
            i_marker,
            i_illegal,
            msg_misaligned,
            ctx_elem_size,
            ctx_last_elem,
            ctx_space_slm,
            ctx_addr_offset32,
            ctx_addr_buffer,
            ctx_kind_typed,
            ctx_write_only,
            ctx_swap_src,
            ctx_v_present,
            ctx_r_present,
            ctx_alu_op,
            ctx_alu_ty,
            ctx_alu_ftz,
            ctx_surf_kind,
            ctx_surf_base,
            ctx_surf_size,
            ctx_surf_array,
            ctx_surf_u16,
            ctx_slm_size,
            elem_index,
            elem_offset,
            elem_shift,
            typed_level,
            typed_level_base,
            typed_width,
            typed_height,
            typed_depth,
            typed_width_one,
            typed_height_one,
            typed_depth_one,
            typed_walk_a,
            typed_walk_b,
            typed_slices,
            typed_sizes_constant,
            typed_walk_stale,
            typed_walked,
            typed_walk_at_lod,
            typed_lane_rows,
            result_acc,
            rsp_valid_r,
            rsp_lane_r,
            rsp_data_r,
            r_line,
            r_space,
            r_byte_enables,
            s_line,
            s_space,
            s_data,
            s_byte_enables,
            s_lane,
            s_elem,
            s_old,
            s_new
        );

        // the reset goes into a register first (wiring only: no path from
        // an input port into this block's logic)
        self.reset_q.clock.next = self.clock.val();
        self.reset_q.d.next = self.reset.val();

        // ================= sub-block inputs: wiring only =================
        self.first_lanes_two.mask.next = self.front.d_lanes_q.val();
        self.left_lanes_two.mask.next = self.lanes_left.q.val();

        match self.issue_state.q.val() {
            IssueState::FirstLane => {
                self.lane_select.mask.next = self.front.d_lanes_q.val() & self.lanes_built.val();
            }
            IssueState::NextLane => {
                self.lane_select.mask.next = self.lanes_left.q.val() & self.lanes_built.val();
            }
        }

        // the issue stage's lane: its payload from the port (the cycle after
        // its read) or from the held registers
        self.lane_mux.from_buf1.next = self.i_buf.q.val();
        self.lane_mux.buf0_addr.next = self.front.pbuf_addr_q[0].val();
        self.lane_mux.buf0_src0.next = self.front.pbuf_src0_q[0].val();
        self.lane_mux.buf0_src1.next = self.front.pbuf_src1_q[0].val();
        self.lane_mux.buf0_coord.next = self.front.pbuf_coord_q[0].val().get_bits::<UVR_BITS>(0);
        self.lane_mux.buf1_addr.next = self.front.pbuf_addr_q[1].val();
        self.lane_mux.buf1_src0.next = self.front.pbuf_src0_q[1].val();
        self.lane_mux.buf1_src1.next = self.front.pbuf_src1_q[1].val();
        self.lane_mux.buf1_coord.next = self.front.pbuf_coord_q[1].val().get_bits::<UVR_BITS>(0);
        self.lane_mux.elem_size.next = self.ctx_elem_size.q.val();
        self.lane_mux.check_lane.next = !self.ctx_kind_typed.q.val() & !self.i_marker.q.val();
        self.lane_mux.check_base.next = self.ctx_kind_typed.q.val() & !self.i_marker.q.val();
        self.lane_mux.base_low.next = self.zero_low.val();
        if self.ctx_addr_buffer.q.val() | self.ctx_kind_typed.q.val() {
            self.lane_mux.base_low.next = self.ctx_surf_base.q.val().get_bits::<4>(0);
        }

        // TYPED_ATOMIC: a null V, R or LOD operand reads as 0 (docs/descriptors.md)
        self.typed_step.level.next = self.typed_level.q.val();
        self.typed_step.level_base.next = self.typed_level_base.q.val();
        self.typed_step.level_width.next = self.typed_width.q.val();
        self.typed_step.level_height.next = self.typed_height.q.val();
        self.typed_step.level_depth.next = self.typed_depth.q.val();
        self.typed_step.width_is_one.next = self.typed_width_one.q.val();
        self.typed_step.height_is_one.next = self.typed_height_one.q.val();
        self.typed_step.depth_is_one.next = self.typed_depth_one.q.val();
        self.null_coord.u_in.next = self.lane_mux.coord.val().get_bits::<32>(0);
        self.null_coord.v_in.next = self.lane_mux.coord.val().get_bits::<32>(32);
        self.null_coord.r_in.next = self.lane_mux.coord.val().get_bits::<32>(64);
        self.null_coord.lod_in.next = self.typed_lane_coord.lod.val();
        self.null_coord.v_present.next = self.ctx_v_present.q.val();
        self.null_coord.r_present.next = self.ctx_r_present.q.val();
        self.null_coord.lod_present.next = self.lod_as_registered.val();
        self.typed_step.coord_u.next = self.null_coord.u.val();
        self.typed_step.coord_v.next = self.null_coord.v.val();
        self.typed_step.coord_r.next = self.null_coord.r.val();
        self.typed_step.coord_lod.next = self.null_coord.lod.val();
        self.elem_bytes_of.size.next = self.ctx_elem_size.q.val();
        // (`typed_at_lod`, from the registers: no local feeds a sub-block)
        self.typed_step.at_lod.next = self.typed_lane_coord.lod_is_zero.val();
        if self.typed_walked.q.val() {
            self.typed_step.at_lod.next = self.typed_walk_at_lod.q.val();
        }
        self.typed_step.lod_out_of_range.next = self.typed_lane_coord.lod_out_of_range.val();
        self.typed_step.surf_kind.next = self.ctx_surf_kind.q.val();
        self.typed_step.surf_array.next = self.ctx_surf_array.q.val();
        self.typed_step.rows.next = self.typed_lane_rows.q.val();
        self.typed_step.slices.next = self.typed_slices.q.val();
        self.typed_step.sizes_constant.next = self.typed_sizes_constant.q.val();
        self.typed_walk_product.clock.next = self.clock.val();
        self.typed_walk_product.walk_a.next = self.typed_walk_a.q.val();
        self.typed_walk_product.walk_b.next = self.typed_walk_b.q.val();
        self.typed_step.walk_p0.next = self.typed_walk_product.p0.val();
        self.typed_step.walk_p16.next = self.typed_walk_product.p16.val();
        self.typed_step.walk_p16_b.next = self.typed_walk_product.p16_b.val();
        self.typed_step.walk_p32.next = self.typed_walk_product.p32.val();
        self.typed_step.lane_p0.next = self.typed_lane_coord.p0.val();
        self.typed_step.lane_p16.next = self.typed_lane_coord.p16.val();
        self.typed_step.lane_p16_b.next = self.typed_lane_coord.p16_b.val();
        self.typed_step.lane_p32.next = self.typed_lane_coord.p32.val();

        self.addr_gen.lane_addr.next = self.lane_mux.addr.val();
        self.addr_gen.elem_offset.next = self.elem_offset.q.val();
        self.addr_gen.space_slm.next = self.ctx_space_slm.q.val();
        self.addr_gen.addr_offset32.next = self.ctx_addr_offset32.q.val();
        self.addr_gen.addr_buffer.next = self.ctx_addr_buffer.q.val();
        self.addr_gen.kind_typed.next = self.ctx_kind_typed.q.val();
        self.addr_gen.surf_base.next = self.ctx_surf_base.q.val();
        self.addr_gen.surf_size.next = self.ctx_surf_size.q.val();
        self.addr_gen.slm_size.next = self.ctx_slm_size.q.val();


        self.elem_select.lane_src0.next = self.lane_mux.src0.val();
        self.elem_select.lane_src1.next = self.lane_mux.src1.val();
        self.elem_select.elem_shift.next = self.elem_shift.q.val();
        self.elem_select.elem_size.next = self.ctx_elem_size.q.val();
        self.elem_select.swap_src.next = self.ctx_swap_src.q.val();
        self.elem_select.write_only.next = self.ctx_write_only.q.val();

        self.write_align.value.next = self.execute.w_new_q.val();
        self.write_align.bit_offset.next = self.execute.w_bit_offset_q.val();
        self.write_align.byte_enables.next = self.execute.w_byte_enables_q.val();

        self.head_select.head.next = self.inflight.head_ptr_q.val();
        self.head_select.head_bit_offset.next = self.inflight.hq_bit_offset_q.val();
        self.head_select.head_byte_enables.next = self.inflight.hq_byte_enables_q.val();
        self.head_select.head_size.next = self.inflight.hq_size_q.val();
        self.head_select.head_op.next = self.inflight.head_op.val();
        self.head_select.head_ty.next = self.inflight.head_ty.val();
        self.head_select.head_lane.next = self.inflight.head_lane.val();
        self.head_select.head_elem.next = self.inflight.head_elem.val();
        self.head_select.head_result_shift.next = self.inflight.head_result_shift.val();
        self.head_select.head_line.next = self.inflight.hq_line_q.val();
        self.head_select.head_space.next = self.inflight.hq_space_q.val();
        self.head_select.head_valid.next = self.inflight.hq_valid_q.val();
        self.head_select.head_kind.next = self.inflight.hq_kind_q.val();
        self.head_select.head_returned.next = self.inflight.hq_returned.val();
        self.head_select.head_word[0].next = self.inflight.hq_word[0].val();
        self.head_select.head_word[1].next = self.inflight.hq_word[1].val();
        self.head_select.head_word[2].next = self.inflight.hq_word[2].val();
        self.head_select.head_word[3].next = self.inflight.hq_word[3].val();
        for k in 0..INFLIGHT_DEPTH {
            self.head_select.ent_ftz[k].next = self.inflight.ent_ftz_q[k].val();
            self.head_select.ent_result_first[k].next = self.inflight.ent_result_first_q[k].val();
            self.head_select.ent_result_last[k].next = self.inflight.ent_result_last_q[k].val();
            self.head_select.ent_msg_last[k].next = self.inflight.ent_msg_last_q[k].val();
            self.head_select.ent_error[k].next = self.inflight.ent_error_q[k].val();
        }

        self.head_select.head_pushed.next = self.inflight.hq_pushed_q.val();
        self.head_select.push_data.next = self.inflight.push_data_q.val();
        self.head_select.push_bytes.next = self.inflight.push_bytes_q.val();
        self.head_select.late_writes.next = self.execute.w_writes_q.val();
        self.head_select.late_overlaps.next = self.inflight.hz_late_overlaps_q.val();
        self.head_select.late_data.next = self.write_align.data.val();
        self.head_select.late_mask.next = self.write_align.mask.val();
        self.head_select.ahead_writes[0].next = self.execute.x_writes_q.val();
        self.head_select.ahead_overlaps[0].next = self.inflight.hz_overlaps_q[0].val();
        self.head_select.ahead_same_bytes[0].next = self.inflight.hz_same_bytes_q[0].val();
        self.head_select.ahead_ready[0].next =
            !(self.alu.float_op.val() & (self.execute.x_kind_q.val() == self.kind_read_modify_write.val()));
        self.head_select.ahead_writes[1].next = self.execute.x2_writes_q.val();
        self.head_select.ahead_overlaps[1].next = self.inflight.hz_overlaps_q[1].val();
        self.head_select.ahead_same_bytes[1].next = self.inflight.hz_same_bytes_q[1].val();
        self.head_select.ahead_ready[1].next = !self.execute.x2_float_q.val();
        self.head_select.ahead_writes[2].next = self.execute.x3_writes_q.val() & self.fp_built.val();
        self.head_select.ahead_overlaps[2].next = self.inflight.hz_overlaps_q[2].val();
        self.head_select.ahead_same_bytes[2].next = self.inflight.hz_same_bytes_q[2].val();
        self.head_select.ahead_ready[2].next = !self.execute.x3_float_q.val();
        self.head_select.ahead_writes[3].next = self.execute.x4_writes_q.val() & self.fp_built.val();
        self.head_select.ahead_overlaps[3].next = self.inflight.hz_overlaps_q[3].val();
        self.head_select.ahead_same_bytes[3].next = self.inflight.hz_same_bytes_q[3].val();
        self.head_select.ahead_ready[3].next = true;

        // the execute stage X: the ALU on registered operands; the old value
        // bypassed from a later stage for a run on one element. The float
        // pipeline moves with the execute stages (all move when the write
        // stage is free).
        self.alu.clock.next = self.clock.val();
        self.alu.pipe_advance.next = !self.write_skid.full.val();
        // (op, type, ftz and operands of the head entering X: the ALU's
        // operand stage registers them with X, on the same `pipe_advance`)
        self.alu.op.next = self.head_select.alu_op.val();
        self.alu.ty.next = self.head_select.alu_ty.val();
        self.alu.ftz.next = self.head_select.alu_ftz.val();
        // (at most one x_from_* is set; x2_new last: it is the one-cycle
        // loop x2_new_cond -> ALU -> x2_new_cond of an integer run on one
        // element, X2's pick made in this mux. A value bypassed from X2 or
        // X3 is already in a register when the head enters X (x2_new,
        // x3_new) and went into x_old then, so this mux has four inputs
        // and the pick, on the loop and on the float pipeline's first stage)
        self.alu.old_value.next = self.execute.x_old_q.val();
        if self.execute.x_from_w_q.val() {
            self.alu.old_value.next = self.execute.w_new_q.val();
        }
        if self.execute.x_from_x2_q.val() & !self.execute.x2_new_cond_q.val() {
            self.alu.old_value.next = self.execute.x2_new_false_q.val();
        }
        if self.execute.x_from_x2_q.val() & self.execute.x2_new_cond_q.val() {
            self.alu.old_value.next = self.execute.x2_new_true_q.val();
        }
        self.alu.src0.next = self.inflight.head_src0.val() & self.data_built.val();
        self.alu.src1.next = self.inflight.head_src1.val() & self.data_built.val();

        // ================= write stage: write, retire, forward, result =================
        self.w_is_rmw.next = self.execute.w_kind_q.val() == self.kind_read_modify_write.val();
        self.write_data.next = self.write_align.data.val();
        // The write stage's operation leaves whenever the write skid
        // register is empty (`w_free`: the execute stages move with it); its
        // write, if any, is on the port in that cycle, and waits in the skid
        // register (`s_*`) if the memory does not accept it, holding the
        // pipeline until it is accepted (`WriteSkid`, the only logic that
        // reads `mem_wr_ready`).
        self.w_free.next = !self.write_skid.full.val();
        self.x_free.next = self.w_free.val();
        self.retire.next = (self.execute.w_valid_q.val() & self.w_free.val()) & !self.reset_q.q.val();
        self.write_skid.clock.next = self.clock.val();
        self.write_skid.clear.next = self.reset_q.q.val();
        self.write_skid.ready.next = self.mem_wr_ready.val();
        self.write_skid.leave.next = self.retire.val();
        self.write_skid.leave_writes.next = self.execute.w_writes_q.val();
        self.write_skid.leave_last.next = self.execute.w_msg_last_q.val();
        self.write_skid.leave_error.next = self.execute.w_error_q.val();
        self.write_skid.leave_rmw.next = self.w_is_rmw.val();
        if self.retire.val() & self.execute.w_writes_q.val() {
            self.s_line.d.next = self.execute.w_line_q.val();
            self.s_space.d.next = self.execute.w_space_q.val();
            self.s_data.d.next = self.write_data.val();
            self.s_byte_enables.d.next = self.execute.w_byte_enables_q.val();
            self.s_lane.d.next = self.execute.w_lane_q.val();
            self.s_elem.d.next = self.execute.w_elem_q.val();
            self.s_old.d.next = self.execute.w_old_q.val();
            self.s_new.d.next = self.execute.w_new_q.val();
        }
        self.port_write.next = self.write_skid.full.val() | (self.execute.w_writes_q.val() & !self.reset_q.q.val());
        self.port_line.next = self.execute.w_line_q.val();
        self.port_space.next = self.execute.w_space_q.val();
        self.port_data.next = self.write_data.val();
        self.port_byte_enables.next = self.execute.w_byte_enables_q.val();
        if self.write_skid.full.val() {
            self.port_line.next = self.s_line.q.val();
            self.port_space.next = self.s_space.q.val();
            self.port_data.next = self.s_data.q.val();
            self.port_byte_enables.next = self.s_byte_enables.q.val();
        }
        self.mem_wr_valid.next = self.port_write.val();
        self.mem_wr_addr.next = self.port_line.val();
        self.mem_wr_space.next = self.port_space.val();
        self.mem_wr_data.next = self.port_data.val();
        self.mem_wr_be.next = self.port_byte_enables.val();

        // The lane's result: old value (new for PREDEC), 0 when out of
        // bounds; PTX vector elements are joined into one result.
        self.w_has_result.next = self.w_is_rmw.val() | (self.execute.w_kind_q.val() == self.kind_no_memory.val());
        self.result_value.next = self.zero_line.val();
        if self.w_is_rmw.val() {
            self.result_value.next = self.execute.w_ret_q.val();
        }
        self.result_joined.next = self.result_value.val() << (self.execute.w_result_shift_q.val() & self.byte_aligned.val());
        if !self.execute.w_result_first_q.val() {
            self.result_joined.next = self.result_acc.q.val() | (self.result_value.val() << (self.execute.w_result_shift_q.val() & self.byte_aligned.val()));
        }
        if self.retire.val() & self.w_has_result.val() {
            self.result_acc.d.next = self.result_joined.val();
        }
        self.rsp_valid_r.d.next = (self.retire.val() & self.w_has_result.val()) & self.execute.w_result_last_q.val();
        self.rsp_lane_r.d.next = self.execute.w_lane_q.val();
        self.rsp_data_r.d.next = self.result_joined.val();
        // `rsp_done`/`rsp_error`/`obs_valid` follow the write's acceptance
        // (`WriteSkid`, registered). The observed operation is in the skid
        // registers `s_*` in the cycle after: they load every write leaving
        // W, and hold a refused one until it is accepted (no W write leaves
        // meanwhile), so `obs_*` are those registers, with no mux.

        // ================= table head -> execute stage =================
        // The head leaves the table when its read data is back (or it has no
        // read) and the execute stage is free; it waits only when the
        // operation ahead of it writes part of its bytes (HeadSelect `hazard`).
        self.head_is_rmw.next = self.head_select.kind.val() == self.kind_read_modify_write.val();
        self.head_ready.next = (self.head_select.valid.val() & (!self.head_is_rmw.val() | self.head_select.returned.val()))
            & !(self.head_is_rmw.val() & self.head_select.hazard.val());
        self.head_enters.next = (self.head_ready.val() & self.x_free.val()) & !self.reset_q.q.val();
        // the execute pipeline's stage registers: the head enters X, the
        // stages move down with the write stage (`ExecutePipe`)
        self.execute.clock.next = self.clock.val();
        self.execute.reset.next = self.reset_q.q.val();
        self.execute.advance.next = self.x_free.val();
        self.execute.enter.next = self.head_enters.val();
        self.execute.head_rmw.next = self.head_is_rmw.val();
        self.execute.head_kind.next = self.head_select.kind.val();
        self.execute.head_line.next = self.head_select.line.val();
        self.execute.head_space.next = self.head_select.space.val();
        self.execute.head_bit_offset.next = self.head_select.bit_offset.val();
        self.execute.head_byte_enables.next = self.head_select.byte_enables.val();
        self.execute.head_old.next = self.head_select.old_value.val();
        self.execute.bypass[0].next = self.head_select.bypass[0].val();
        self.execute.bypass[1].next = self.head_select.bypass[1].val();
        self.execute.bypass[2].next = self.head_select.bypass[2].val();
        self.execute.bypass[3].next = self.head_select.bypass[3].val();
        self.execute.head_src0.next = self.inflight.head_src0.val() & self.data_built.val();
        self.execute.head_lane.next = self.head_select.lane.val();
        self.execute.head_elem.next = self.head_select.elem.val();
        self.execute.head_result_shift.next = self.head_select.result_shift.val();
        self.execute.head_result_first.next = self.head_select.result_first.val();
        self.execute.head_result_last.next = self.head_select.result_last.val();
        self.execute.head_msg_last.next = self.head_select.msg_last.val();
        self.execute.head_error.next = self.head_select.error.val();
        self.execute.alu_float_op.next = self.alu.float_op.val();
        self.execute.alu_new_true.next = self.alu.new_true.val();
        self.execute.alu_new_false.next = self.alu.new_false.val();
        self.execute.alu_new_cond.next = self.alu.new_cond.val();
        self.execute.alu_ret.next = self.alu.ret_value.val();
        self.execute.alu_float_value.next = self.alu.float_value.val();
        self.rsp_valid.next = self.rsp_valid_r.q.val();
        self.rsp_lane.next = self.rsp_lane_r.q.val();
        self.rsp_data.next = self.rsp_data_r.q.val();
        self.rsp_done.next = self.write_skid.done.val();
        self.rsp_error.next = self.write_skid.error.val();
        self.obs_valid.next = self.write_skid.obs_valid.val();
        self.obs_lane.next = self.s_lane.q.val();
        self.obs_elem.next = self.s_elem.q.val();
        self.obs_old.next = self.s_old.q.val();
        self.obs_new.next = self.s_new.q.val();

        // ================= allocate (A): one table entry per cycle =================
        // The allocate stage's element enters the table when there is room,
        // sending its read (read-modify-write) at the same time. Everything
        // it needs is in its registers.
        self.table_is_full.next = self.inflight.full.val();
        // (a read the memory has not accepted waits in the read skid
        // register, `r_*`, and stays on the port from there; nothing
        // allocates until it is accepted: `ReadSkid`, the only logic that
        // reads `mem_rd_ready`)
        self.alloc.next = ((self.address.a_valid_q.val() & !self.reset_q.q.val()) & !self.table_is_full.val())
            & !self.read_skid.full.val();
        self.a_reads.next = self.alloc.val() & (self.address.a_kind_q.val() == self.kind_read_modify_write.val());
        self.a_accepts.next = !self.address.a_valid_q.val() | self.alloc.val();
        self.l_accepts.next = !self.address.l_valid_q.val() | self.a_accepts.val();
        // a walk step in T waits for L like an element (it ends in L)
        self.t_accepts.next = !(self.address.t_valid_q.val() | self.address.t_walk_q.val()) | self.l_accepts.val();
        self.read_skid.clock.next = self.clock.val();
        self.read_skid.clear.next = self.reset_q.q.val();
        self.read_skid.ready.next = self.mem_rd_ready.val();
        self.read_skid.issue.next = self.a_reads.val();
        if self.a_reads.val() {
            self.r_line.d.next = self.address.a_line_q.val();
            self.r_space.d.next = self.address.a_space_q.val();
            self.r_byte_enables.d.next = self.address.a_byte_enables_q.val();
        }
        self.mem_rd_valid.next = self.read_skid.full.val() | self.a_reads.val();
        self.mem_rd_addr.next = self.address.a_line_q.val();
        self.mem_rd_space.next = self.address.a_space_q.val();
        self.mem_rd_be.next = self.address.a_byte_enables_q.val();
        if self.read_skid.full.val() {
            self.mem_rd_addr.next = self.r_line.q.val();
            self.mem_rd_space.next = self.r_space.q.val();
            self.mem_rd_be.next = self.r_byte_enables.q.val();
        }


        // ================= issue (I): one element per cycle =================
        // The issue stage holds the lane selected last cycle (or a marker):
        // its payload, its address (`AddrGen`), the typed step's first
        // multiply-add (`TypedAddr`), the element's operands (`ElemSelect`).
        self.issue_marker.next = self.i_marker.q.val();
        self.issue_misaligned.next = self.lane_mux.misaligned.val() & !self.i_marker.q.val();
        self.issue_lane_done.next = self.elem_index.q.val() == self.ctx_last_elem.q.val();
        self.issue_last.next = self.issue_marker.val() | (self.issue_lane_done.val() & self.i_last_lane.q.val());
        // a typed lane waits for its walk (and for a walk step's level_base,
        // in T and L) unless it touches no memory (a typed lane is misaligned
        // only by its base: `base_misaligned`, off the payload buffers)
        self.typed_at_lod.next = self.typed_lane_coord.lod_is_zero.val();
        if self.typed_walked.q.val() {
            self.typed_at_lod.next = self.typed_walk_at_lod.q.val();
        }
        self.issue_addr_ready.next = (self.issue_marker.val() | self.lane_mux.base_misaligned.val())
            | (!self.ctx_kind_typed.q.val()
                | ((self.typed_lane_coord.ready.val() & !self.address.t_walk_q.val()) & !self.address.l_walk_q.val()));
        self.issue_push.next = ((self.i_valid.q.val() & !self.reset_q.q.val()) & self.issue_addr_ready.val())
            & self.t_accepts.val();
        self.issue_kind.next = self.kind_read_modify_write.val();
        if self.ctx_write_only.q.val() {
            self.issue_kind.next = self.kind_write.val();
        }
        // (the SLM / buffer bounds are checked in T: `t_kind_checked`)
        if (self.ctx_kind_typed.q.val() & self.typed_step.out_of_bounds.val()) | self.issue_misaligned.val() {
            self.issue_kind.next = self.kind_no_memory.val();
        }
        if self.issue_marker.val() {
            self.issue_kind.next = self.kind_marker.val();
        }
        self.issue_done.next = self.issue_push.val() & (self.issue_lane_done.val() | self.issue_marker.val());
        self.issue_scaled_c.next = self.typed_step.lod_c.val() << 2;
        if self.ctx_surf_u16.q.val() {
            self.issue_scaled_c.next = self.typed_step.lod_c.val() << 1;
        }
        self.issue_lod_c.next = self.issue_scaled_c.val() + self.ctx_surf_base.q.val();

        // ================= select: one lane per cycle, payload read =================
        // The lowest lane left of the decode stage's message moves into the issue
        // stage when that stage is empty or done with its lane; its payload
        // is read now and arrives with it. An illegal or laneless message
        // sends a marker instead (no payload read).
        self.sel_valid.next = self.front.d_valid_q.val() & !self.reset_q.q.val();
        self.sel_marker.next = (self.issue_state.q.val() == IssueState::FirstLane)
            & (self.front.d_illegal_q.val() | self.front.d_no_lanes_q.val());
        self.sel_last.next = self.sel_marker.val() | self.left_few.q.val();
        if self.issue_state.q.val() == IssueState::FirstLane {
            self.sel_last.next = self.sel_marker.val() | self.front.d_lanes_few_q.val();
        }
        self.n_enter.next = (self.front.n_valid_q.val() & (!self.i_valid.q.val() | self.issue_done.val())) & !self.reset_q.q.val();
        self.sel_take.next = self.sel_valid.val() & (!self.front.n_valid_q.val() | self.n_enter.val());
        // the decode stage takes the next message when it is empty or its
        // message's last lane is selected now: no idle cycle between messages
        self.d_free.next = (!self.front.d_valid_q.val() | (self.sel_take.val() & self.sel_last.val())) & !self.reset_q.q.val();
        // the request stage takes the next message when it is empty or its
        // message moves into the decode stage now; a message is taken at
        // `req_valid & req_ready`
        self.req_ready.next = (!self.front.r_valid_q.val() | self.d_free.val()) & !self.reset_q.q.val();
        // the front end's stage registers, R, D, N and the payload buffers
        // (`FrontStages`): the ports go straight into R and the payload
        // buffers (wiring only: no path from `req_*` or `pay_*` into this
        // block's logic), the select stage's decisions load D and N
        self.front.clock.next = self.clock.val();
        self.front.reset.next = self.reset_q.q.val();
        self.front.req_valid.next = self.req_valid.val();
        self.front.req_desc.next = self.req_desc.val();
        self.front.req_dmask.next = self.req_dmask.val();
        self.front.req_pred_mask.next = self.req_pred_mask.val();
        self.front.req_surf_kind.next = self.req_surf_kind.val();
        self.front.req_surf_base.next = self.req_surf_base.val();
        self.front.req_surf_size.next = self.req_surf_size.val();
        self.front.req_surf_width.next = self.req_surf_width.val();
        self.front.req_surf_height.next = self.req_surf_height.val();
        self.front.req_surf_depth.next = self.req_surf_depth.val();
        self.front.req_surf_array.next = self.req_surf_array.val();
        self.front.req_surf_levels.next = self.req_surf_levels.val();
        self.front.req_surf_u16.next = self.req_surf_u16.val();
        self.front.req_slm_size.next = self.req_slm_size.val();
        self.front.pay_addr.next = self.pay_addr.val();
        self.front.pay_src0.next = self.pay_src0.val();
        self.front.pay_src1.next = self.pay_src1.val();
        self.front.pay_coord.next = self.pay_coord.val();
        self.front.req_ready.next = self.req_ready.val();
        self.front.d_free.next = self.d_free.val();
        self.front.sel_take.next = self.sel_take.val();
        self.front.sel_lane.next = self.lane_select.lane.val();
        self.front.sel_last.next = self.sel_last.val();
        self.front.sel_marker.next = self.sel_marker.val();
        self.front.n_enter.next = self.n_enter.val();
        self.pay_valid.next = self.sel_take.val() & !self.sel_marker.val();
        self.pay_lane.next = self.lane_select.lane.val();
        self.pay_slot.next = self.front.d_slot_q.val();

        if self.sel_take.val() {
            self.lanes_left.d.next = self.lane_select.rest.val();
            self.left_few.d.next = self.left_lanes_two.few.val();
            if self.issue_state.q.val() == IssueState::FirstLane {
                self.left_few.d.next = self.first_lanes_two.few.val();
            }
        }
        match self.issue_state.q.val() {
            IssueState::FirstLane => {
                if self.sel_take.val() & !self.sel_last.val() {
                    self.issue_state.d.next = IssueState::NextLane;
                }
            }
            IssueState::NextLane => {
                if self.sel_take.val() & self.sel_last.val() {
                    self.issue_state.d.next = IssueState::FirstLane;
                }
            }
        }

        // the issue stage's registers: the next-lane stage's lane moves in
        // (its `r`, `lod` and lane product: from the port when the payload
        // is captured at this same edge, `LaneCoordReg`)
        self.typed_lane_coord.clock.next = self.clock.val();
        self.typed_lane_coord.load.next = self.n_enter.val();
        self.typed_lane_coord.r_present.next = self.front.n_r_present_q.val();
        self.typed_lane_coord.lod_present.next = self.front.n_lod_present_q.val();
        self.typed_lane_coord.from_port.next = self.front.cap_valid_q.val();
        self.typed_lane_coord.from_buf1.next = self.front.n_buf_q.val();
        self.typed_lane_coord.port_coord.next = self.pay_coord.val();
        self.typed_lane_coord.buf0_coord.next = self.front.pbuf_coord_q[0].val();
        self.typed_lane_coord.buf1_coord.next = self.front.pbuf_coord_q[1].val();
        self.typed_lane_coord.levels.next = self.front.n_surf_levels_q.val();
        self.typed_lane_coord.entry_rows.next = self.front.n_lane_rows_q.val();
        self.typed_lane_coord.rows.next = self.typed_lane_rows.q.val();
        self.typed_lane_coord.walk_step.next = self.address.t_walk_q.val();
        if self.issue_done.val() {
            self.i_valid.d.next = false;
        }
        if self.n_enter.val() {
            self.i_valid.d.next = true;
            self.i_buf.d.next = self.front.n_buf_q.val();
            self.i_lane.d.next = self.front.n_lane_q.val();
            self.i_last_lane.d.next = self.front.n_last_lane_q.val();
            self.i_marker.d.next = self.front.n_marker_q.val();
            self.i_illegal.d.next = self.front.n_illegal_q.val();
            self.ctx_elem_size.d.next = self.front.n_elem_size_q.val();
            self.ctx_last_elem.d.next = self.front.n_last_elem_q.val();
            self.ctx_space_slm.d.next = self.front.n_space_slm_q.val();
            self.ctx_addr_offset32.d.next = self.front.n_addr_offset32_q.val();
            self.ctx_addr_buffer.d.next = self.front.n_addr_buffer_q.val();
            self.ctx_kind_typed.d.next = self.front.n_kind_typed_q.val();
            self.ctx_write_only.d.next = self.front.n_write_only_q.val();
            self.ctx_swap_src.d.next = self.front.n_swap_src_q.val();
            self.ctx_v_present.d.next = self.front.n_v_present_q.val();
            self.ctx_r_present.d.next = self.front.n_r_present_q.val();
            self.ctx_alu_op.d.next = self.front.n_alu_op_q.val();
            self.ctx_alu_ty.d.next = self.front.n_alu_ty_q.val();
            self.ctx_alu_ftz.d.next = self.front.n_alu_ftz_q.val();
            self.ctx_surf_kind.d.next = self.front.n_surf_kind_q.val();
            self.ctx_surf_base.d.next = self.front.n_surf_base_q.val();
            self.ctx_surf_size.d.next = self.front.n_surf_size_q.val();
            self.typed_width.d.next = self.front.n_width_q.val();
            self.typed_height.d.next = self.front.n_height_q.val();
            self.typed_lane_rows.d.next = self.front.n_walk_rows.val();
            self.typed_slices.d.next = self.front.n_walk_slices.val();
            self.typed_sizes_constant.d.next = self.front.n_walk_sizes_constant.val();
            self.typed_depth.d.next = self.front.n_depth_q.val();
            self.typed_width_one.d.next = self.front.n_width_one_q.val();
            self.typed_height_one.d.next = self.front.n_height_one_q.val();
            self.typed_depth_one.d.next = self.front.n_depth_one_q.val();
            self.typed_walk_a.d.next = self.front.n_walk_a.val();
            self.typed_walk_b.d.next = self.front.n_walk_b.val();
            self.ctx_surf_array.d.next = self.front.n_surf_array_q.val();
            self.ctx_surf_u16.d.next = self.front.n_surf_u16_q.val();
            self.ctx_slm_size.d.next = self.front.n_slm_size_q.val();
        }
        // a misaligned lane: the message's last entry carries the error
        if self.issue_push.val() & self.issue_misaligned.val() {
            self.msg_misaligned.d.next = true;
        }
        if self.issue_push.val() & self.issue_last.val() {
            self.msg_misaligned.d.next = false;
        }

        // element / block stepping inside a lane
        self.elem_bytes.next = self.elem_bytes_of.value.val();
        self.elem_bits.next = self.elem_bytes_of.value.val().get_bits::<8>(0) << 3;
        if self.issue_push.val() {
            if self.issue_lane_done.val() | self.issue_marker.val() {
                self.elem_index.d.next = self.zero_elem.val();
                self.elem_offset.d.next = self.zero_addr.val();
                self.elem_shift.d.next = self.zero_shift.val();
            } else {
                self.elem_index.d.next = self.elem_index.q.val() + self.one_elem.val();
                self.elem_offset.d.next = self.elem_offset.q.val() + self.elem_bytes.val();
                self.elem_shift.d.next = self.elem_shift.q.val() + self.elem_bits.val();
            }
        }

        // TYPED_ATOMIC address walk until the lane's lod: a walk step's first
        // multiply-add here, its second in T (the multiply) and L (the sum:
        // the next level_base); three cycles per level
        self.typed_pending.next = ((self.i_valid.q.val() & self.ctx_kind_typed.q.val()) & !self.issue_marker.val())
            & !self.issue_misaligned.val();
        self.walk_push.next = (((self.typed_pending.val() & !self.typed_lane_coord.ready.val()) & !self.address.t_walk_q.val())
            & (!self.address.l_walk_q.val() & !self.typed_walk_stale.q.val()))
            & self.t_accepts.val();
        // the walk state changes for a new lane, which enters when the issue
        // stage is empty (no typed lane pending) or its lane's last element
        // issues; a walk step's own change is covered by `t_walk`/`l_walk`
        self.typed_walk_stale.d.next = self.issue_push.val() | !self.typed_pending.val();
        // the walk's done decision for the next cycle (`LaneCoordReg`'s `ready`)
        self.typed_lane_coord.walk_push.next = self.walk_push.val();
        self.typed_lane_coord.walk_reaches_lod.next =
            self.typed_step.next_level.val() == self.typed_lane_coord.lod.val();
        if self.walk_push.val() {
            self.typed_level.d.next = self.typed_step.next_level.val();
            self.typed_width.d.next = self.typed_step.next_width.val();
            self.typed_height.d.next = self.typed_step.next_height.val();
            self.typed_lane_rows.d.next = self.typed_step.next_rows.val();
            self.typed_slices.d.next = self.typed_step.next_slices.val();
            self.typed_sizes_constant.d.next = self.typed_step.next_sizes_constant.val();
            self.typed_depth.d.next = self.typed_step.next_depth.val();
            self.typed_width_one.d.next = self.typed_step.next_width_is_one.val();
            self.typed_height_one.d.next = self.typed_step.next_height_is_one.val();
            self.typed_depth_one.d.next = self.typed_step.next_depth_is_one.val();
            self.typed_walk_a.d.next = self.typed_step.next_walk_a.val();
            self.typed_walk_b.d.next = self.typed_step.next_walk_b.val();
        }
        if self.address.l_walk_q.val() {
            self.typed_level_base.d.next = self.address.l_index.val();
        }
        // (a walk step leaves `typed_level` above 0: it runs only while `level < lod`)
        if self.walk_push.val() {
            self.typed_walked.d.next = true;
            self.typed_walk_at_lod.d.next = self.typed_step.next_level.val() == self.typed_lane_coord.lod.val();
        }
        if self.issue_push.val() | !self.typed_pending.val() {
            self.typed_walked.d.next = false;
            self.typed_level.d.next = self.zero_coord.val();
            self.typed_level_base.d.next = self.zero_addr.val();
        }

        // the address pipeline, T, L, A (`AddressPipe`): the issue stage's
        // element goes in as T takes it
        self.address.clock.next = self.clock.val();
        self.address.reset.next = self.reset_q.q.val();
        self.address.t_accepts.next = self.t_accepts.val();
        self.address.l_accepts.next = self.l_accepts.val();
        self.address.a_accepts.next = self.a_accepts.val();
        self.address.issue_valid.next = self.issue_push.val();
        self.address.issue_walk.next = self.walk_push.val();
        self.address.issue_typed.next = self.ctx_kind_typed.q.val();
        self.address.issue_addr.next = self.addr_gen.addr.val();
        self.address.issue_walk_first.next = self.typed_step.walk_first.val();
        self.address.issue_lane_first.next = self.typed_step.lane_first.val();
        self.address.issue_at_lod.next = self.typed_at_lod.val();
        self.address.issue_second_b.next = self.typed_step.second_b.val();
        self.address.issue_walk_c.next = self.typed_step.second_c.val();
        self.address.issue_lod_c.next = self.issue_lod_c.val();
        self.address.issue_surf_u16.next = self.ctx_surf_u16.q.val();
        self.address.issue_kind.next = self.issue_kind.val();
        self.address.issue_checks_bounds.next = self.addr_gen.checks_bounds.val() & !self.issue_marker.val();
        self.address.issue_bounded_offset.next = self.addr_gen.bounded_offset.val();
        self.address.issue_last_start.next = self.addr_gen.bound.val() - self.elem_bytes.val();
        self.address.issue_bound_small.next = self.addr_gen.bound.val() < self.elem_bytes.val();
        self.address.issue_space.next = self.addr_gen.space.val();
        self.address.issue_size.next = self.ctx_elem_size.q.val();
        self.address.issue_op.next = self.ctx_alu_op.q.val();
        self.address.issue_ty.next = self.ctx_alu_ty.q.val();
        self.address.issue_ftz.next = self.ctx_alu_ftz.q.val();
        self.address.issue_src0.next = self.elem_select.src0.val() & self.data_built.val();
        self.address.issue_src1.next = self.elem_select.src1.val() & self.data_built.val();
        self.address.issue_lane.next = self.i_lane.q.val();
        self.address.issue_elem.next = self.elem_index.q.val();
        self.address.issue_result_shift.next = self.elem_shift.q.val().get_bits::<7>(0);
        self.address.issue_result_first.next = !self.elem_index.q.val().any();
        self.address.issue_result_last.next = self.issue_lane_done.val();
        self.address.issue_msg_last.next = self.issue_last.val();
        self.address.issue_error.next = (self.issue_marker.val() & self.i_illegal.q.val()) | (self.issue_last.val() & (self.msg_misaligned.q.val() | self.issue_misaligned.val()));



        // the in-flight table (`InflightTable`): the allocate stage's entry
        // goes in with `alloc`, the head leaves with `head_enters`; the write
        // on the port is pushed into the entries on its line; the read data
        // returns straight into them (wiring only)
        self.inflight.clock.next = self.clock.val();
        self.inflight.reset.next = self.reset_q.q.val();
        self.inflight.alloc.next = self.alloc.val();
        self.inflight.a_reads.next = self.a_reads.val();
        self.inflight.head_enters.next = self.head_enters.val();
        self.inflight.x_free.next = self.x_free.val();
        self.inflight.port_write.next = self.port_write.val();
        self.inflight.port_line.next = self.port_line.val();
        self.inflight.port_space.next = self.port_space.val();
        self.inflight.port_data.next = self.port_data.val();
        self.inflight.port_byte_enables.next = self.port_byte_enables.val();
        self.inflight.mem_rdata_valid.next = self.mem_rdata_valid.val();
        self.inflight.mem_rdata.next = self.mem_rdata.val();
        self.inflight.a_bit_offset.next = self.address.a_bit_offset_q.val();
        self.inflight.a_byte_enables.next = self.address.a_byte_enables_q.val();
        self.inflight.a_elem.next = self.address.a_elem_q.val();
        self.inflight.a_error.next = self.address.a_error_q.val();
        self.inflight.a_ftz.next = self.address.a_ftz_q.val();
        self.inflight.a_kind.next = self.address.a_kind_q.val();
        self.inflight.a_lane.next = self.address.a_lane_q.val();
        self.inflight.a_line.next = self.address.a_line_q.val();
        self.inflight.a_msg_last.next = self.address.a_msg_last_q.val();
        self.inflight.a_op.next = self.address.a_op_q.val();
        self.inflight.a_result_first.next = self.address.a_result_first_q.val();
        self.inflight.a_result_last.next = self.address.a_result_last_q.val();
        self.inflight.a_result_shift.next = self.address.a_result_shift_q.val();
        self.inflight.a_size.next = self.address.a_size_q.val();
        self.inflight.a_space.next = self.address.a_space_q.val();
        self.inflight.a_src0.next = self.address.a_src0_q.val();
        self.inflight.a_src1.next = self.address.a_src1_q.val();
        self.inflight.a_ty.next = self.address.a_ty_q.val();
        self.inflight.w_byte_enables.next = self.execute.w_byte_enables_q.val();
        self.inflight.w_line.next = self.execute.w_line_q.val();
        self.inflight.w_space.next = self.execute.w_space_q.val();
        self.inflight.x2_byte_enables.next = self.execute.x2_byte_enables_q.val();
        self.inflight.x2_line.next = self.execute.x2_line_q.val();
        self.inflight.x2_space.next = self.execute.x2_space_q.val();
        self.inflight.x3_byte_enables.next = self.execute.x3_byte_enables_q.val();
        self.inflight.x3_line.next = self.execute.x3_line_q.val();
        self.inflight.x3_space.next = self.execute.x3_space_q.val();
        self.inflight.x4_byte_enables.next = self.execute.x4_byte_enables_q.val();
        self.inflight.x4_line.next = self.execute.x4_line_q.val();
        self.inflight.x4_space.next = self.execute.x4_space_q.val();
        self.inflight.x_byte_enables.next = self.execute.x_byte_enables_q.val();
        self.inflight.x_line.next = self.execute.x_line_q.val();
        self.inflight.x_space.next = self.execute.x_space_q.val();

        // ================= reset =================
        if self.reset_q.q.val() {
            self.issue_state.d.next = IssueState::FirstLane;
            self.i_valid.d.next = false;
            self.msg_misaligned.d.next = false;
            self.elem_index.d.next = self.zero_elem.val();
            self.elem_offset.d.next = self.zero_addr.val();
            self.elem_shift.d.next = self.zero_shift.val();
            self.rsp_valid_r.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_unit_synthesizes() {
        let mut uut = AtomicUnit::default();
        uut.connect_all();
        yosys_validate("atomport_atomic_unit", &generate_verilog(&uut)).unwrap();
    }
}
