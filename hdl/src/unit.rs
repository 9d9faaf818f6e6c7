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
//! rust-hdl packs a struct into one vector (one `x3_pay$q [493:0]` in the
//! VCD instead of 16 named fields) and emits its slices with 64-bit indices
//! (`x3_pay$q[(64'h2)+:(64)]`) that fail Verilator `-Wall` (WIDTH). A
//! payload one block hands to another is a pair of `LogicInterface` bundles
//! declared once and joined here in one line: the next-lane stage N,
//! `front.n` into `issue.n` (`NextLaneOut`); the issue stage's element,
//! `issue.i` into `address.i` (`IssueElemOut`); the allocate stage A,
//! `address.a` into `inflight.a` (`AllocStageOut`); the execute stages'
//! lines and bytes, `execute.ahead` into `inflight.ahead` (`AheadStagesOut`);
//! the write stage W, `execute.w` into `ports.w` (`WriteStageOut`), all in
//! unit/payloads.rs; the table's head, `inflight.head` into
//! `head_select.head` (`TableHeadOut`), and the head entry,
//! `head_select.entry` into `execute.head` (`HeadEntryOut`), in
//! head_select.rs. Every field stays a net of its own (`front$n$lane`,
//! `issue$n$lane`). Arrays cannot be in a bundle: they, and values the
//! unit masks or combines, are wired field by field.
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
//! | IssueStage     | unit/issue.rs   | the issue stage I: its lane, the message's `ctx_*` fields, element stepping, the typed walk |
//! | MemoryPorts    | unit/memory_ports.rs | the read and write skids, the write on the port, the lane's result and observation |
//! | InflightTable  | unit/inflight.rs | the in-flight table: entries, head registers, hazard flags, forwarding pushes, read return |
//! | ExecutePipe    | unit/execute.rs | the execute pipeline's stage registers, X..W, and their advance |

use rust_hdl::prelude::*;

use crate::alu::AtomicAlu;
use crate::at_most_two::AtMostTwo;
use crate::head_select::{HeadEntryOut, HeadSelect, TableHeadOut, ENTRY_KIND_BITS, ENTRY_READ_MODIFY_WRITE, INFLIGHT_DEPTH, INFLIGHT_INDEX_BITS};
use crate::lane_select::LaneSelect;
use crate::state_reg::StateReg;
use crate::widths::{ADDR_BITS, DESC_BITS, ELEM_BITS, LANE_BITS, LANE_DATA_BITS, LINE_BITS, LINE_BYTES, MAX_LANES, SURF_KIND_BITS, WORD_BITS};
use crate::word_join::WORDS;
use crate::write_align::WriteAlign;
mod address;
mod execute;
mod front;
mod inflight;
mod issue;
mod memory_ports;
mod payloads;

use address::AddressPipe;
use front::FrontStages;
use execute::ExecutePipe;
use inflight::InflightTable;
use issue::IssueStage;
use memory_ports::MemoryPorts;
use payloads::{AheadStagesOut, AllocStageOut, IssueElemOut, NextLaneOut, WriteStageOut};
use atomport_isa::UnitConfig;


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
    // ---- issue stage: the lane, its message's fields, the typed walk (unit/issue.rs) ----
    issue: IssueStage,
    // ---- address pipeline: T, L, A (unit/address.rs) ----
    address: AddressPipe,
    head_select: HeadSelect,
    write_align: WriteAlign,
    alu: AtomicAlu,

    // ---- memory ports: skids, the write on the port, results (unit/memory_ports.rs) ----
    ports: MemoryPorts,

    // ---- input registers ----
    /// `reset`, registered: the unit's logic resets from it
    reset_q: DFF<Bit>,

    // ---- select stage ----
    issue_state: StateReg<IssueState>,
    /// lanes of the decode stage's message still to select (valid in `NextLane`)
    lanes_left: DFF<Bits<MAX_LANES>>,
    /// `lanes_left` holds at most one lane (its next selected lane is the last)
    left_few: DFF<Bit>,

    // ---- in-flight table (unit/inflight.rs) ----
    inflight: InflightTable,

    // ---- execute pipeline: X, X2, X3, X4, W (unit/execute.rs) ----
    execute: ExecutePipe,

    // ---- constants ----
    kind_read_modify_write: Constant<Bits<ENTRY_KIND_BITS>>,
    /// what this build has (`AtomicUnit::new`): the lanes and the data bits
    /// built; masking with them makes the rest constant, and synthesis
    /// removes it
    lanes_built: Constant<Bits<MAX_LANES>>,
    data_built: Constant<Bits<LINE_BITS>>,
    /// the float ops are built: X3 and X4 (float stages 3 and 4) are in the
    /// pipeline; without them W takes X2's operation and X3/X4 are unread
    fp_built: Constant<Bit>,

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

    // ---- allocate locals (named for waveforms) ----
    table_is_full: Signal<Local, Bit>,
    /// the address stage / the line stage / the allocate stage takes a new element (or empties) this cycle
    t_accepts: Signal<Local, Bit>,
    l_accepts: Signal<Local, Bit>,
    a_accepts: Signal<Local, Bit>,
    a_reads: Signal<Local, Bit>,
    /// an entry is written into the table this cycle
    alloc: Signal<Local, Bit>,

    // ---- head and pipeline locals ----
    head_is_rmw: Signal<Local, Bit>,
    /// the head can leave the table: its data is back (or it needs none) and no hazard holds it
    head_ready: Signal<Local, Bit>,
    /// the head leaves the table into the execute stage this cycle
    head_enters: Signal<Local, Bit>,
    /// the execute / write stage takes a new operation this cycle
    x_free: Signal<Local, Bit>,
    w_free: Signal<Local, Bit>,
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
            head_select: HeadSelect::new(config.data_bits),
            write_align: Default::default(),
            issue: Default::default(),
            alu: AtomicAlu::new(config.data_bits, config.fp),
            execute: ExecutePipe::new(config.fp),
            inflight: InflightTable::new(config.fp),
            address: Default::default(),
            ports: MemoryPorts::new(config),
            reset_q: Default::default(),
            issue_state: Default::default(),
            lanes_left: Default::default(),
            left_few: Default::default(),
            kind_read_modify_write: constant(ENTRY_READ_MODIFY_WRITE as u64),
            lanes_built: constant(config.lane_mask() as u64),
            data_built: Constant::new(config.data_mask().to_bits()),
            fp_built: Constant::new(config.fp),
            sel_valid: Default::default(),
            d_free: Default::default(),
            sel_marker: Default::default(),
            sel_last: Default::default(),
            sel_take: Default::default(),
            table_is_full: Default::default(),
            t_accepts: Default::default(),
            l_accepts: Default::default(),
            a_accepts: Default::default(),
            a_reads: Default::default(),
            alloc: Default::default(),
            head_is_rmw: Default::default(),
            head_ready: Default::default(),
            head_enters: Default::default(),
            x_free: Default::default(),
            w_free: Default::default(),
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
            left_few
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

        self.write_align.value.next = self.execute.w.new.val();
        self.write_align.bit_offset.next = self.execute.w_bit_offset_q.val();
        self.write_align.byte_enables.next = self.execute.w.byte_enables.val();

        TableHeadOut::join(&mut self.inflight.head, &mut self.head_select.head);
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

        self.head_select.late_writes.next = self.execute.w.writes.val();
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
        self.alu.pipe_advance.next = !self.ports.write_full.val();
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
            self.alu.old_value.next = self.execute.w.new.val();
        }
        if self.execute.x_from_x2_q.val() & !self.execute.x2_new_cond_q.val() {
            self.alu.old_value.next = self.execute.x2_new_false_q.val();
        }
        if self.execute.x_from_x2_q.val() & self.execute.x2_new_cond_q.val() {
            self.alu.old_value.next = self.execute.x2_new_true_q.val();
        }
        self.alu.src0.next = self.inflight.head_src0.val() & self.data_built.val();
        self.alu.src1.next = self.inflight.head_src1.val() & self.data_built.val();

        // ================= write stage: write, retire, result (`MemoryPorts`) =================
        // The write stage's operation leaves whenever the write skid register
        // is empty (`w_free`: the execute stages move with it); a refused
        // write waits in the skid and holds the pipeline until accepted.
        self.w_free.next = !self.ports.write_full.val();
        self.x_free.next = self.w_free.val();
        self.ports.clock.next = self.clock.val();
        self.ports.reset.next = self.reset_q.q.val();
        self.ports.mem_rd_ready.next = self.mem_rd_ready.val();
        self.ports.mem_wr_ready.next = self.mem_wr_ready.val();
        self.ports.a_line.next = self.address.a.line.val();
        self.ports.a_space.next = self.address.a.space.val();
        self.ports.a_byte_enables.next = self.address.a.byte_enables.val();
        WriteStageOut::join(&mut self.execute.w, &mut self.ports.w);
        self.ports.w_data.next = self.write_align.data.val();
        self.mem_rd_valid.next = self.ports.mem_rd_valid.val();
        self.mem_rd_addr.next = self.ports.mem_rd_addr.val();
        self.mem_rd_space.next = self.ports.mem_rd_space.val();
        self.mem_rd_be.next = self.ports.mem_rd_be.val();
        self.mem_wr_valid.next = self.ports.port_write.val();
        self.mem_wr_addr.next = self.ports.port_line.val();
        self.mem_wr_space.next = self.ports.port_space.val();
        self.mem_wr_data.next = self.ports.port_data.val();
        self.mem_wr_be.next = self.ports.port_byte_enables.val();
        self.rsp_valid.next = self.ports.rsp_valid.val();
        self.rsp_lane.next = self.ports.rsp_lane.val();
        self.rsp_data.next = self.ports.rsp_data.val();
        self.rsp_done.next = self.ports.rsp_done.val();
        self.rsp_error.next = self.ports.rsp_error.val();
        self.obs_valid.next = self.ports.obs_valid.val();
        self.obs_lane.next = self.ports.obs_lane.val();
        self.obs_elem.next = self.ports.obs_elem.val();
        self.obs_old.next = self.ports.obs_old.val();
        self.obs_new.next = self.ports.obs_new.val();

        // ================= table head -> execute stage =================
        // The head leaves the table when its read data is back (or it has no
        // read) and the execute stage is free; it waits only when the
        // operation ahead of it writes part of its bytes (HeadSelect `hazard`).
        self.head_is_rmw.next = self.head_select.entry.kind.val() == self.kind_read_modify_write.val();
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
        HeadEntryOut::join(&mut self.head_select.entry, &mut self.execute.head);
        self.execute.bypass[0].next = self.head_select.bypass[0].val();
        self.execute.bypass[1].next = self.head_select.bypass[1].val();
        self.execute.bypass[2].next = self.head_select.bypass[2].val();
        self.execute.bypass[3].next = self.head_select.bypass[3].val();
        self.execute.head_src0.next = self.inflight.head_src0.val() & self.data_built.val();
        self.execute.alu_float_op.next = self.alu.float_op.val();
        self.execute.alu_new_true.next = self.alu.new_true.val();
        self.execute.alu_new_false.next = self.alu.new_false.val();
        self.execute.alu_new_cond.next = self.alu.new_cond.val();
        self.execute.alu_ret.next = self.alu.ret_value.val();
        self.execute.alu_float_value.next = self.alu.float_value.val();

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
            & !self.ports.read_full.val();
        self.a_reads.next = self.alloc.val() & (self.address.a.kind.val() == self.kind_read_modify_write.val());
        // (the read goes out on the port from `MemoryPorts`)
        self.ports.a_reads.next = self.a_reads.val();
        self.a_accepts.next = !self.address.a_valid_q.val() | self.alloc.val();
        self.l_accepts.next = !self.address.l_valid_q.val() | self.a_accepts.val();
        // a walk step in T waits for L like an element (it ends in L)
        self.t_accepts.next = !(self.address.t_valid_q.val() | self.address.t_walk_q.val()) | self.l_accepts.val();

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
        self.sel_take.next = self.sel_valid.val() & (!self.front.n.valid.val() | self.issue.n.enter.val());
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

        // the issue stage (`IssueStage`): N's lane and its message's fields
        // go in as it enters; T's walk steps and acceptance decide its pushes
        self.issue.clock.next = self.clock.val();
        self.issue.reset.next = self.reset_q.q.val();
        self.issue.t_accepts.next = self.t_accepts.val();
        self.issue.t_walk.next = self.address.t_walk_q.val();
        self.issue.l_walk.next = self.address.l_walk_q.val();
        self.issue.l_index.next = self.address.l_index.val();
        NextLaneOut::join(&mut self.front.n, &mut self.issue.n);
        for k in 0..2 {
            self.issue.pbuf_addr[k].next = self.front.pbuf_addr_q[k].val();
            self.issue.pbuf_src0[k].next = self.front.pbuf_src0_q[k].val();
            self.issue.pbuf_src1[k].next = self.front.pbuf_src1_q[k].val();
            self.issue.pbuf_coord[k].next = self.front.pbuf_coord_q[k].val();
        }
        self.issue.pay_coord.next = self.pay_coord.val();

        // the address pipeline, T, L, A (`AddressPipe`): the issue stage's
        // element goes in as T takes it
        self.address.clock.next = self.clock.val();
        self.address.reset.next = self.reset_q.q.val();
        self.address.t_accepts.next = self.t_accepts.val();
        self.address.l_accepts.next = self.l_accepts.val();
        self.address.a_accepts.next = self.a_accepts.val();
        IssueElemOut::join(&mut self.issue.i, &mut self.address.i);
        self.address.issue_src0.next = self.issue.src0.val() & self.data_built.val();
        self.address.issue_src1.next = self.issue.src1.val() & self.data_built.val();

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
        self.inflight.port_write.next = self.ports.port_write.val();
        self.inflight.port_line.next = self.ports.port_line.val();
        self.inflight.port_space.next = self.ports.port_space.val();
        self.inflight.port_data.next = self.ports.port_data.val();
        self.inflight.port_byte_enables.next = self.ports.port_byte_enables.val();
        self.inflight.mem_rdata_valid.next = self.mem_rdata_valid.val();
        self.inflight.mem_rdata.next = self.mem_rdata.val();
        AllocStageOut::join(&mut self.address.a, &mut self.inflight.a);
        self.inflight.w_byte_enables.next = self.execute.w.byte_enables.val();
        self.inflight.w_line.next = self.execute.w.line.val();
        self.inflight.w_space.next = self.execute.w.space.val();
        AheadStagesOut::join(&mut self.execute.ahead, &mut self.inflight.ahead);

        // ================= reset =================
        if self.reset_q.q.val() {
            self.issue_state.d.next = IssueState::FirstLane;
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
