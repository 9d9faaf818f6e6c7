//! `FrontStages`: the front end's stage registers: the request stage R
//! with the decoder behind it, the decode stage D, the next-lane stage N
//! and the two payload buffers (docs/microarchitecture.md "Front end").
//!
//! R loads the message on `req_*` whenever `req_ready` is up (`CaptureReg`s
//! wired straight to the ports); D loads the decoder's outputs, the channel
//! enables and R's surface state whenever `d_free` is up; N loads the lane
//! the select stage picks (`sel_take`, with D's fields), and empties as its
//! lane enters the issue stage (`n.enter`). A payload read (a lane taken
//! that is not a marker) goes into the buffer N's lane names the cycle
//! after, from `pay_*`. The select stage's decisions and the stall logic
//! are the unit's: they come in.
//!
//! Every output is a register's output, or `WalkOperands`' on N's
//! registers: no combinational path from an input to an output, so the
//! unit may feed these inputs from logic that reads the outputs without a
//! loop (Verilator `UNOPTFLAT`). `atomport emit` moves the wiring of the
//! ports into R and the payload buffers out of this block's combinational
//! block, as it does for the unit's (no input port feeds logic).
//!
//! Stage payloads are named registers, one per field, for the reasons in
//! unit.rs; N goes to the issue stage as one bundle, `n` (`NextLaneOut`,
//! unit/payloads.rs), whose `enter` comes back.

use rust_hdl::prelude::*;

use super::payloads::NextLaneOut;
use crate::at_most_one::AtMostOne;
use crate::capture_reg::CaptureReg;
use crate::decoder::MessageDecoder;
use crate::typed_addr::{KIND_1D, KIND_1D_ARRAY};
use crate::walk_operands::WalkOperands;
use crate::widths::{ADDR_BITS, DESC_BITS, ELEM_BITS, LANE_BITS, LANE_DATA_BITS, MAX_LANES, SIZE_BITS, SURF_KIND_BITS};
use atomport_isa::{UnitConfig, ALU_OP_BITS, ALU_TY_BITS};

fn constant<const N: usize>(value: u64) -> Constant<Bits<N>> {
    Constant::new(value.to_bits())
}

/// The front end's stage registers. See the module documentation.
#[derive(LogicBlock)]
pub struct FrontStages {
    pub clock: Signal<In, Clock>,
    /// the registered reset: empties R, D, N and the payload capture
    pub reset: Signal<In, Bit>,
    /// the unit's request port, into R
    pub req_valid: Signal<In, Bit>,
    pub req_desc: Signal<In, Bits<DESC_BITS>>,
    pub req_dmask: Signal<In, Bits<MAX_LANES>>,
    pub req_pred_mask: Signal<In, Bits<MAX_LANES>>,
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
    /// R takes the message on `req_*` (the unit's `req_ready`)
    pub req_ready: Signal<In, Bit>,
    /// D takes R's message: it is empty, or its last lane is selected now
    pub d_free: Signal<In, Bit>,
    /// the select stage takes a lane of D's message into N (`sel_lane`), or
    /// a marker (`sel_marker`); it is the message's last (`sel_last`)
    pub sel_take: Signal<In, Bit>,
    pub sel_lane: Signal<In, Bits<LANE_BITS>>,
    pub sel_last: Signal<In, Bit>,
    pub sel_marker: Signal<In, Bit>,
    /// the unit's payload port: the answer to last cycle's read
    pub pay_addr: Signal<In, Bits<ADDR_BITS>>,
    pub pay_src0: Signal<In, Bits<LANE_DATA_BITS>>,
    pub pay_src1: Signal<In, Bits<LANE_DATA_BITS>>,
    pub pay_coord: Signal<In, Bits<LANE_DATA_BITS>>,

    // ---- the stage registers the rest of the unit reads (their `q`) ----
    pub r_valid_q: Signal<Out, Bit>,
    pub d_valid_q: Signal<Out, Bit>,
    pub d_lanes_q: Signal<Out, Bits<MAX_LANES>>,
    pub d_illegal_q: Signal<Out, Bit>,
    pub d_no_lanes_q: Signal<Out, Bit>,
    pub d_lanes_few_q: Signal<Out, Bit>,
    pub d_slot_q: Signal<Out, Bit>,
    /// the next-lane stage N, handed to the issue stage (its `enter` comes back)
    pub n: NextLaneOut,
    /// the payload buffers
    pub pbuf_addr_q: [Signal<Out, Bits<ADDR_BITS>>; 2],
    pub pbuf_src0_q: [Signal<Out, Bits<LANE_DATA_BITS>>; 2],
    pub pbuf_src1_q: [Signal<Out, Bits<LANE_DATA_BITS>>; 2],
    pub pbuf_coord_q: [Signal<Out, Bits<LANE_DATA_BITS>>; 2],

    decoder: MessageDecoder,
    /// whether the decoder's channel enables (of the lanes built) are at
    /// most one, for `d_lanes_few`
    dec_lanes_count: AtMostOne,

    // ---- request stage (R): the message taken on req_*, as it came ----
    /// a message is in the request stage; the decoder reads it
    r_valid: CaptureReg<Bit>,
    /// its descriptor, masks and surface state
    r_desc: CaptureReg<Bits<DESC_BITS>>,
    r_dmask: CaptureReg<Bits<MAX_LANES>>,
    r_pred_mask: CaptureReg<Bits<MAX_LANES>>,
    r_surf_kind: CaptureReg<Bits<SURF_KIND_BITS>>,
    r_surf_base: CaptureReg<Bits<64>>,
    r_surf_size: CaptureReg<Bits<64>>,
    r_surf_array: CaptureReg<Bits<32>>,
    r_surf_levels: CaptureReg<Bits<32>>,
    r_surf_u16: CaptureReg<Bit>,
    r_slm_size: CaptureReg<Bits<32>>,
    r_width: CaptureReg<Bits<32>>,
    r_height: CaptureReg<Bits<32>>,
    r_depth: CaptureReg<Bits<32>>,

    // ---- decode stage (D): the request stage's message, decoded ----
    /// a message is in the decode stage; the select stage reads its lanes
    d_valid: CaptureReg<Bit>,
    /// its channel enables (the select stage masks off the lanes not built)
    d_lanes: CaptureReg<Bits<MAX_LANES>>,
    /// its built lanes: none enabled (the select stage sends a marker), at
    /// most one (its first selected lane is its last), counted as it moves
    /// here so that `sel_last` and `req_ready` do not wait for the select
    /// stage's find-first-set
    d_no_lanes: CaptureReg<Bit>,
    d_lanes_few: CaptureReg<Bit>,
    /// its decoded fields and surface state, as the decoder and the request
    /// stage gave them when it moved here
    d_illegal: CaptureReg<Bit>,
    d_elem_size: CaptureReg<Bits<SIZE_BITS>>,
    d_last_elem: CaptureReg<Bits<ELEM_BITS>>,
    d_space_slm: CaptureReg<Bit>,
    d_addr_offset32: CaptureReg<Bit>,
    d_addr_buffer: CaptureReg<Bit>,
    d_kind_typed: CaptureReg<Bit>,
    d_write_only: CaptureReg<Bit>,
    d_swap_src: CaptureReg<Bit>,
    d_v_present: CaptureReg<Bit>,
    d_r_present: CaptureReg<Bit>,
    d_lod_present: CaptureReg<Bit>,
    d_alu_op: CaptureReg<Bits<ALU_OP_BITS>>,
    d_alu_ty: CaptureReg<Bits<ALU_TY_BITS>>,
    d_alu_ftz: CaptureReg<Bit>,
    d_surf_kind: CaptureReg<Bits<SURF_KIND_BITS>>,
    d_surf_base: CaptureReg<Bits<64>>,
    d_surf_size: CaptureReg<Bits<64>>,
    d_surf_array: CaptureReg<Bits<32>>,
    d_surf_levels: CaptureReg<Bits<32>>,
    d_surf_u16: CaptureReg<Bit>,
    d_slm_size: CaptureReg<Bits<32>>,
    d_width: CaptureReg<Bits<32>>,
    d_height: CaptureReg<Bits<32>>,
    d_depth: CaptureReg<Bits<32>>,
    /// its slot: the count of messages taken before it since reset, mod 2 (`pay_slot`)
    d_slot: DFF<Bit>,

    // ---- next-lane stage (N): the lane selected last cycle; its payload
    // is on `pay_*` in its first cycle here and goes into a payload buffer ----
    /// a lane (or a marker) is in the next-lane stage
    n_valid: DFF<Bit>,
    /// its payload buffer
    n_buf: DFF<Bit>,
    n_lane: DFF<Bits<LANE_BITS>>,
    n_last_lane: DFF<Bit>,
    n_marker: DFF<Bit>,
    n_illegal: DFF<Bit>,
    n_elem_size: DFF<Bits<SIZE_BITS>>,
    n_last_elem: DFF<Bits<ELEM_BITS>>,
    n_space_slm: DFF<Bit>,
    n_addr_offset32: DFF<Bit>,
    n_addr_buffer: DFF<Bit>,
    n_kind_typed: DFF<Bit>,
    n_write_only: DFF<Bit>,
    n_swap_src: DFF<Bit>,
    n_v_present: DFF<Bit>,
    n_r_present: DFF<Bit>,
    n_lod_present: DFF<Bit>,
    n_alu_op: DFF<Bits<ALU_OP_BITS>>,
    n_alu_ty: DFF<Bits<ALU_TY_BITS>>,
    n_alu_ftz: DFF<Bit>,
    n_surf_kind: DFF<Bits<SURF_KIND_BITS>>,
    n_surf_base: DFF<Bits<64>>,
    n_surf_size: DFF<Bits<64>>,
    n_width: DFF<Bits<32>>,
    n_height: DFF<Bits<32>>,
    n_depth: DFF<Bits<32>>,
    n_width_one: DFF<Bit>,
    n_height_one: DFF<Bit>,
    n_depth_one: DFF<Bit>,
    n_surf_array: DFF<Bits<32>>,
    /// the typed lane's `rows` at level 0 (1d: 1, 1d_array: the array
    /// size, else max(1, H)): the lane product's operand as it enters I
    n_lane_rows: DFF<Bits<32>>,
    n_surf_levels: DFF<Bits<32>>,
    n_surf_u16: DFF<Bit>,
    n_slm_size: DFF<Bits<32>>,
    n_walk_ops: WalkOperands,
    /// the buffer the next selected lane's payload goes to (alternates; 0 after reset)
    sel_buf: DFF<Bit>,
    /// a payload read went out last cycle: its answer, on `pay_*` now, goes into `pbuf_*[cap_buf]`
    cap_valid: DFF<Bit>,
    cap_buf: DFF<Bit>,
    /// payload buffer b loads the port's answer at this cycle's end
    cap_load: [Signal<Local, Bit>; 2],
    /// the payload buffers: two lanes' operands, the issuing lane's and the next one's
    pbuf_addr: [CaptureReg<Bits<ADDR_BITS>>; 2],
    pbuf_src0: [CaptureReg<Bits<LANE_DATA_BITS>>; 2],
    pbuf_src1: [CaptureReg<Bits<LANE_DATA_BITS>>; 2],
    pbuf_coord: [CaptureReg<Bits<LANE_DATA_BITS>>; 2],

    /// the lanes built (`FrontStages::new`)
    lanes_built: Constant<Bits<MAX_LANES>>,
    one_coord: Constant<Bits<32>>,
    kind_1d: Constant<Bits<SURF_KIND_BITS>>,
    kind_1d_array: Constant<Bits<SURF_KIND_BITS>>,
}

impl FrontStages {
    /// The front end of the unit built with `config`: its decoder, and the lanes built.
    pub fn new(config: UnitConfig) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
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
            req_ready: Default::default(),
            d_free: Default::default(),
            sel_take: Default::default(),
            sel_lane: Default::default(),
            sel_last: Default::default(),
            sel_marker: Default::default(),
            pay_addr: Default::default(),
            pay_src0: Default::default(),
            pay_src1: Default::default(),
            pay_coord: Default::default(),
            r_valid_q: Default::default(),
            d_valid_q: Default::default(),
            d_lanes_q: Default::default(),
            d_illegal_q: Default::default(),
            d_no_lanes_q: Default::default(),
            d_lanes_few_q: Default::default(),
            d_slot_q: Default::default(),
            n: Default::default(),
            pbuf_addr_q: Default::default(),
            pbuf_src0_q: Default::default(),
            pbuf_src1_q: Default::default(),
            pbuf_coord_q: Default::default(),
            decoder: MessageDecoder::new(config),
            dec_lanes_count: AtMostOne::new(config.lane_mask() as u64),
            r_valid: Default::default(),
            r_desc: Default::default(),
            r_dmask: Default::default(),
            r_pred_mask: Default::default(),
            r_surf_kind: Default::default(),
            r_surf_base: Default::default(),
            r_surf_size: Default::default(),
            r_surf_array: Default::default(),
            r_surf_levels: Default::default(),
            r_surf_u16: Default::default(),
            r_slm_size: Default::default(),
            r_width: Default::default(),
            r_height: Default::default(),
            r_depth: Default::default(),
            d_valid: Default::default(),
            d_lanes: Default::default(),
            d_no_lanes: Default::default(),
            d_lanes_few: Default::default(),
            d_illegal: Default::default(),
            d_elem_size: Default::default(),
            d_last_elem: Default::default(),
            d_space_slm: Default::default(),
            d_addr_offset32: Default::default(),
            d_addr_buffer: Default::default(),
            d_kind_typed: Default::default(),
            d_write_only: Default::default(),
            d_swap_src: Default::default(),
            d_v_present: Default::default(),
            d_r_present: Default::default(),
            d_lod_present: Default::default(),
            d_alu_op: Default::default(),
            d_alu_ty: Default::default(),
            d_alu_ftz: Default::default(),
            d_surf_kind: Default::default(),
            d_surf_base: Default::default(),
            d_surf_size: Default::default(),
            d_surf_array: Default::default(),
            d_surf_levels: Default::default(),
            d_surf_u16: Default::default(),
            d_slm_size: Default::default(),
            d_width: Default::default(),
            d_height: Default::default(),
            d_depth: Default::default(),
            d_slot: Default::default(),
            n_valid: Default::default(),
            n_buf: Default::default(),
            n_lane: Default::default(),
            n_last_lane: Default::default(),
            n_marker: Default::default(),
            n_illegal: Default::default(),
            n_elem_size: Default::default(),
            n_last_elem: Default::default(),
            n_space_slm: Default::default(),
            n_addr_offset32: Default::default(),
            n_addr_buffer: Default::default(),
            n_kind_typed: Default::default(),
            n_write_only: Default::default(),
            n_swap_src: Default::default(),
            n_v_present: Default::default(),
            n_r_present: Default::default(),
            n_lod_present: Default::default(),
            n_alu_op: Default::default(),
            n_alu_ty: Default::default(),
            n_alu_ftz: Default::default(),
            n_surf_kind: Default::default(),
            n_surf_base: Default::default(),
            n_surf_size: Default::default(),
            n_width: Default::default(),
            n_height: Default::default(),
            n_depth: Default::default(),
            n_width_one: Default::default(),
            n_height_one: Default::default(),
            n_depth_one: Default::default(),
            n_surf_array: Default::default(),
            n_lane_rows: Default::default(),
            n_surf_levels: Default::default(),
            n_surf_u16: Default::default(),
            n_slm_size: Default::default(),
            n_walk_ops: Default::default(),
            sel_buf: Default::default(),
            cap_valid: Default::default(),
            cap_buf: Default::default(),
            cap_load: Default::default(),
            pbuf_addr: Default::default(),
            pbuf_src0: Default::default(),
            pbuf_src1: Default::default(),
            pbuf_coord: Default::default(),
            lanes_built: constant(config.lane_mask() as u64),
            one_coord: constant(1),
            kind_1d: constant(KIND_1D as u64),
            kind_1d_array: constant(KIND_1D_ARRAY as u64),
        }
    }
}

impl Default for FrontStages {
    fn default() -> Self {
        Self::new(UnitConfig::FULL)
    }
}

impl Logic for FrontStages {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            d_slot,
            n_valid,
            n_buf,
            n_lane,
            n_last_lane,
            n_marker,
            n_illegal,
            n_elem_size,
            n_last_elem,
            n_space_slm,
            n_addr_offset32,
            n_addr_buffer,
            n_kind_typed,
            n_write_only,
            n_swap_src,
            n_v_present,
            n_r_present,
            n_lod_present,
            n_alu_op,
            n_alu_ty,
            n_alu_ftz,
            n_surf_kind,
            n_surf_base,
            n_surf_size,
            n_width,
            n_height,
            n_depth,
            n_width_one,
            n_height_one,
            n_depth_one,
            n_surf_array,
            n_lane_rows,
            n_surf_levels,
            n_surf_u16,
            n_slm_size,
            sel_buf,
            cap_valid,
            cap_buf
        );

        // the payload buffers load straight from the port (wiring only)
        for b in 0..2 {
            self.pbuf_addr[b].clock.next = self.clock.val();
            self.pbuf_src0[b].clock.next = self.clock.val();
            self.pbuf_src1[b].clock.next = self.clock.val();
            self.pbuf_coord[b].clock.next = self.clock.val();
            self.pbuf_addr[b].clear.next = false;
            self.pbuf_src0[b].clear.next = false;
            self.pbuf_src1[b].clear.next = false;
            self.pbuf_coord[b].clear.next = false;
            self.pbuf_addr[b].d.next = self.pay_addr.val();
            self.pbuf_src0[b].d.next = self.pay_src0.val();
            self.pbuf_src1[b].d.next = self.pay_src1.val();
            self.pbuf_coord[b].d.next = self.pay_coord.val();
        }

        // ================= sub-block inputs: wiring only =================
        self.decoder.desc.next = self.r_desc.q.val();
        self.decoder.dmask.next = self.r_dmask.q.val();
        self.decoder.pred_mask.next = self.r_pred_mask.q.val();
        self.decoder.surf_kind.next = self.r_surf_kind.q.val();
        self.decoder.surf_u16.next = self.r_surf_u16.q.val();
        self.dec_lanes_count.mask.next = self.decoder.lane_enables.val();
        self.n_walk_ops.surf_kind.next = self.n_surf_kind.q.val();
        self.n_walk_ops.surf_array.next = self.n_surf_array.q.val();
        self.n_walk_ops.width.next = self.n_width.q.val();
        self.n_walk_ops.height.next = self.n_height.q.val();
        self.n_walk_ops.depth.next = self.n_depth.q.val();
        self.n_walk_ops.width_is_one.next = self.n_width_one.q.val();
        self.n_walk_ops.height_is_one.next = self.n_height_one.q.val();
        self.n_walk_ops.depth_is_one.next = self.n_depth_one.q.val();

        // ================= request stage (R) =================
        // R loads whenever `req_ready` is up, `r_valid` from `req_valid`, the
        // fields straight from the ports (wiring only: the decoder reads
        // registers); a message is taken at `req_valid & req_ready`
        self.r_valid.clock.next = self.clock.val();
        self.r_valid.load.next = self.req_ready.val();
        self.r_valid.clear.next = self.reset.val();
        self.r_valid.d.next = self.req_valid.val();
        self.r_desc.clock.next = self.clock.val();
        self.r_desc.load.next = self.req_ready.val();
        self.r_desc.clear.next = false;
        self.r_desc.d.next = self.req_desc.val();
        self.r_dmask.clock.next = self.clock.val();
        self.r_dmask.load.next = self.req_ready.val();
        self.r_dmask.clear.next = false;
        self.r_dmask.d.next = self.req_dmask.val();
        self.r_pred_mask.clock.next = self.clock.val();
        self.r_pred_mask.load.next = self.req_ready.val();
        self.r_pred_mask.clear.next = false;
        self.r_pred_mask.d.next = self.req_pred_mask.val();
        self.r_surf_kind.clock.next = self.clock.val();
        self.r_surf_kind.load.next = self.req_ready.val();
        self.r_surf_kind.clear.next = false;
        self.r_surf_kind.d.next = self.req_surf_kind.val();
        self.r_surf_base.clock.next = self.clock.val();
        self.r_surf_base.load.next = self.req_ready.val();
        self.r_surf_base.clear.next = false;
        self.r_surf_base.d.next = self.req_surf_base.val();
        self.r_surf_size.clock.next = self.clock.val();
        self.r_surf_size.load.next = self.req_ready.val();
        self.r_surf_size.clear.next = false;
        self.r_surf_size.d.next = self.req_surf_size.val();
        self.r_surf_array.clock.next = self.clock.val();
        self.r_surf_array.load.next = self.req_ready.val();
        self.r_surf_array.clear.next = false;
        self.r_surf_array.d.next = self.req_surf_array.val();
        self.r_surf_levels.clock.next = self.clock.val();
        self.r_surf_levels.load.next = self.req_ready.val();
        self.r_surf_levels.clear.next = false;
        self.r_surf_levels.d.next = self.req_surf_levels.val();
        self.r_surf_u16.clock.next = self.clock.val();
        self.r_surf_u16.load.next = self.req_ready.val();
        self.r_surf_u16.clear.next = false;
        self.r_surf_u16.d.next = self.req_surf_u16.val();
        self.r_slm_size.clock.next = self.clock.val();
        self.r_slm_size.load.next = self.req_ready.val();
        self.r_slm_size.clear.next = false;
        self.r_slm_size.d.next = self.req_slm_size.val();
        self.r_width.clock.next = self.clock.val();
        self.r_width.load.next = self.req_ready.val();
        self.r_width.clear.next = false;
        self.r_width.d.next = self.req_surf_width.val();
        self.r_height.clock.next = self.clock.val();
        self.r_height.load.next = self.req_ready.val();
        self.r_height.clear.next = false;
        self.r_height.d.next = self.req_surf_height.val();
        self.r_depth.clock.next = self.clock.val();
        self.r_depth.load.next = self.req_ready.val();
        self.r_depth.clear.next = false;
        self.r_depth.d.next = self.req_surf_depth.val();

        // ================= decode stage (D) =================
        // D loads whenever `d_free` is up: `d_valid` from `r_valid`, the
        // fields from the decoder and the request stage
        if self.d_free.val() & self.r_valid.q.val() {
            self.d_slot.d.next = !self.d_slot.q.val();
        }
        // (flipped as each message moves in: from 1 at reset, so that the
        // first message taken after reset is in slot 0)
        if self.reset.val() {
            self.d_slot.d.next = true;
        }
        self.d_valid.clock.next = self.clock.val();
        self.d_valid.load.next = self.d_free.val();
        self.d_valid.clear.next = self.reset.val();
        self.d_valid.d.next = self.r_valid.q.val();
        self.d_lanes.clock.next = self.clock.val();
        self.d_lanes.load.next = self.d_free.val();
        self.d_lanes.clear.next = false;
        self.d_lanes.d.next = self.decoder.lane_enables.val();
        self.d_no_lanes.clock.next = self.clock.val();
        self.d_no_lanes.load.next = self.d_free.val();
        self.d_no_lanes.clear.next = false;
        self.d_no_lanes.d.next = !(self.decoder.lane_enables.val() & self.lanes_built.val()).any();
        self.d_lanes_few.clock.next = self.clock.val();
        self.d_lanes_few.load.next = self.d_free.val();
        self.d_lanes_few.clear.next = false;
        self.d_lanes_few.d.next = self.dec_lanes_count.few.val();
        self.d_illegal.clock.next = self.clock.val();
        self.d_illegal.load.next = self.d_free.val();
        self.d_illegal.clear.next = false;
        self.d_illegal.d.next = self.decoder.illegal.val();
        self.d_elem_size.clock.next = self.clock.val();
        self.d_elem_size.load.next = self.d_free.val();
        self.d_elem_size.clear.next = false;
        self.d_elem_size.d.next = self.decoder.elem_size.val();
        self.d_last_elem.clock.next = self.clock.val();
        self.d_last_elem.load.next = self.d_free.val();
        self.d_last_elem.clear.next = false;
        self.d_last_elem.d.next = self.decoder.last_elem.val();
        self.d_space_slm.clock.next = self.clock.val();
        self.d_space_slm.load.next = self.d_free.val();
        self.d_space_slm.clear.next = false;
        self.d_space_slm.d.next = self.decoder.space_slm.val();
        self.d_addr_offset32.clock.next = self.clock.val();
        self.d_addr_offset32.load.next = self.d_free.val();
        self.d_addr_offset32.clear.next = false;
        self.d_addr_offset32.d.next = self.decoder.addr_offset32.val();
        self.d_addr_buffer.clock.next = self.clock.val();
        self.d_addr_buffer.load.next = self.d_free.val();
        self.d_addr_buffer.clear.next = false;
        self.d_addr_buffer.d.next = self.decoder.addr_buffer.val();
        self.d_kind_typed.clock.next = self.clock.val();
        self.d_kind_typed.load.next = self.d_free.val();
        self.d_kind_typed.clear.next = false;
        self.d_kind_typed.d.next = self.decoder.kind_typed.val();
        self.d_write_only.clock.next = self.clock.val();
        self.d_write_only.load.next = self.d_free.val();
        self.d_write_only.clear.next = false;
        self.d_write_only.d.next = self.decoder.write_only.val();
        self.d_swap_src.clock.next = self.clock.val();
        self.d_swap_src.load.next = self.d_free.val();
        self.d_swap_src.clear.next = false;
        self.d_swap_src.d.next = self.decoder.swap_src.val();
        self.d_v_present.clock.next = self.clock.val();
        self.d_v_present.load.next = self.d_free.val();
        self.d_v_present.clear.next = false;
        self.d_v_present.d.next = self.decoder.v_present.val();
        self.d_r_present.clock.next = self.clock.val();
        self.d_r_present.load.next = self.d_free.val();
        self.d_r_present.clear.next = false;
        self.d_r_present.d.next = self.decoder.r_present.val();
        self.d_lod_present.clock.next = self.clock.val();
        self.d_lod_present.load.next = self.d_free.val();
        self.d_lod_present.clear.next = false;
        self.d_lod_present.d.next = self.decoder.lod_present.val();
        self.d_alu_op.clock.next = self.clock.val();
        self.d_alu_op.load.next = self.d_free.val();
        self.d_alu_op.clear.next = false;
        self.d_alu_op.d.next = self.decoder.alu_op.val();
        self.d_alu_ty.clock.next = self.clock.val();
        self.d_alu_ty.load.next = self.d_free.val();
        self.d_alu_ty.clear.next = false;
        self.d_alu_ty.d.next = self.decoder.alu_ty.val();
        self.d_alu_ftz.clock.next = self.clock.val();
        self.d_alu_ftz.load.next = self.d_free.val();
        self.d_alu_ftz.clear.next = false;
        self.d_alu_ftz.d.next = self.decoder.alu_ftz.val();
        self.d_surf_kind.clock.next = self.clock.val();
        self.d_surf_kind.load.next = self.d_free.val();
        self.d_surf_kind.clear.next = false;
        self.d_surf_kind.d.next = self.r_surf_kind.q.val();
        self.d_surf_base.clock.next = self.clock.val();
        self.d_surf_base.load.next = self.d_free.val();
        self.d_surf_base.clear.next = false;
        self.d_surf_base.d.next = self.r_surf_base.q.val();
        self.d_surf_size.clock.next = self.clock.val();
        self.d_surf_size.load.next = self.d_free.val();
        self.d_surf_size.clear.next = false;
        self.d_surf_size.d.next = self.r_surf_size.q.val();
        self.d_surf_array.clock.next = self.clock.val();
        self.d_surf_array.load.next = self.d_free.val();
        self.d_surf_array.clear.next = false;
        self.d_surf_array.d.next = self.r_surf_array.q.val();
        self.d_surf_levels.clock.next = self.clock.val();
        self.d_surf_levels.load.next = self.d_free.val();
        self.d_surf_levels.clear.next = false;
        self.d_surf_levels.d.next = self.r_surf_levels.q.val();
        self.d_surf_u16.clock.next = self.clock.val();
        self.d_surf_u16.load.next = self.d_free.val();
        self.d_surf_u16.clear.next = false;
        self.d_surf_u16.d.next = self.r_surf_u16.q.val();
        self.d_slm_size.clock.next = self.clock.val();
        self.d_slm_size.load.next = self.d_free.val();
        self.d_slm_size.clear.next = false;
        self.d_slm_size.d.next = self.r_slm_size.q.val();
        self.d_width.clock.next = self.clock.val();
        self.d_width.load.next = self.d_free.val();
        self.d_width.clear.next = false;
        self.d_width.d.next = self.r_width.q.val();
        self.d_height.clock.next = self.clock.val();
        self.d_height.load.next = self.d_free.val();
        self.d_height.clear.next = false;
        self.d_height.d.next = self.r_height.q.val();
        self.d_depth.clock.next = self.clock.val();
        self.d_depth.load.next = self.d_free.val();
        self.d_depth.clear.next = false;
        self.d_depth.d.next = self.r_depth.q.val();

        // ================= next-lane stage (N) =================
        // the lane selected now, with its message's decoded fields and surface state
        if self.n.enter.val() {
            self.n_valid.d.next = false;
        }
        if self.sel_take.val() {
            self.n_valid.d.next = true;
            self.n_buf.d.next = self.sel_buf.q.val();
            self.sel_buf.d.next = !self.sel_buf.q.val();
            self.n_lane.d.next = self.sel_lane.val();
            self.n_last_lane.d.next = self.sel_last.val();
            self.n_marker.d.next = self.sel_marker.val();
            self.n_illegal.d.next = self.d_illegal.q.val();
            self.n_elem_size.d.next = self.d_elem_size.q.val();
            self.n_last_elem.d.next = self.d_last_elem.q.val();
            self.n_space_slm.d.next = self.d_space_slm.q.val();
            self.n_addr_offset32.d.next = self.d_addr_offset32.q.val();
            self.n_addr_buffer.d.next = self.d_addr_buffer.q.val();
            self.n_kind_typed.d.next = self.d_kind_typed.q.val();
            self.n_write_only.d.next = self.d_write_only.q.val();
            self.n_swap_src.d.next = self.d_swap_src.q.val();
            self.n_v_present.d.next = self.d_v_present.q.val();
            self.n_r_present.d.next = self.d_r_present.q.val();
            self.n_lod_present.d.next = self.d_lod_present.q.val();
            self.n_alu_op.d.next = self.d_alu_op.q.val();
            self.n_alu_ty.d.next = self.d_alu_ty.q.val();
            self.n_alu_ftz.d.next = self.d_alu_ftz.q.val();
            self.n_surf_kind.d.next = self.d_surf_kind.q.val();
            self.n_surf_base.d.next = self.d_surf_base.q.val();
            self.n_surf_size.d.next = self.d_surf_size.q.val();
            // the typed walk's extents at level 0: max(1, W), max(1, H),
            // max(1, D), and whether each is 1
            self.n_width.d.next = self.d_width.q.val();
            if !self.d_width.q.val().any() {
                self.n_width.d.next = self.one_coord.val();
            }
            self.n_height.d.next = self.d_height.q.val();
            if !self.d_height.q.val().any() {
                self.n_height.d.next = self.one_coord.val();
            }
            self.n_depth.d.next = self.d_depth.q.val();
            if !self.d_depth.q.val().any() {
                self.n_depth.d.next = self.one_coord.val();
            }
            self.n_width_one.d.next = !self.d_width.q.val().get_bits::<31>(1).any();
            self.n_height_one.d.next = !self.d_height.q.val().get_bits::<31>(1).any();
            self.n_depth_one.d.next = !self.d_depth.q.val().get_bits::<31>(1).any();
            self.n_surf_array.d.next = self.d_surf_array.q.val();
            self.n_lane_rows.d.next = self.d_height.q.val();
            if !self.d_height.q.val().any() {
                self.n_lane_rows.d.next = self.one_coord.val();
            }
            if self.d_surf_kind.q.val() == self.kind_1d.val() {
                self.n_lane_rows.d.next = self.one_coord.val();
            }
            if self.d_surf_kind.q.val() == self.kind_1d_array.val() {
                self.n_lane_rows.d.next = self.d_surf_array.q.val();
            }
            self.n_surf_levels.d.next = self.d_surf_levels.q.val();
            self.n_surf_u16.d.next = self.d_surf_u16.q.val();
            self.n_slm_size.d.next = self.d_slm_size.q.val();
        }
        // the payload read now (a lane, not a marker: the unit's
        // `pay_valid`) is on `pay_*` next cycle: into its buffer
        self.cap_valid.d.next = self.sel_take.val() & !self.sel_marker.val();
        self.cap_buf.d.next = self.sel_buf.q.val();
        self.cap_load[0].next = self.cap_valid.q.val() & !self.cap_buf.q.val();
        self.cap_load[1].next = self.cap_valid.q.val() & self.cap_buf.q.val();
        for b in 0..2 {
            self.pbuf_addr[b].load.next = self.cap_load[b].val();
            self.pbuf_src0[b].load.next = self.cap_load[b].val();
            self.pbuf_src1[b].load.next = self.cap_load[b].val();
            self.pbuf_coord[b].load.next = self.cap_load[b].val();
        }
        // (the buffer select too: an ASIC flop has no power-up value)
        if self.reset.val() {
            self.n_valid.d.next = false;
            self.cap_valid.d.next = false;
            self.sel_buf.d.next = false;
        }

        // ================= outputs: registers only =================
        self.r_valid_q.next = self.r_valid.q.val();
        self.d_valid_q.next = self.d_valid.q.val();
        self.d_lanes_q.next = self.d_lanes.q.val();
        self.d_illegal_q.next = self.d_illegal.q.val();
        self.d_no_lanes_q.next = self.d_no_lanes.q.val();
        self.d_lanes_few_q.next = self.d_lanes_few.q.val();
        self.d_slot_q.next = self.d_slot.q.val();
        self.n.valid.next = self.n_valid.q.val();
        self.n.buf.next = self.n_buf.q.val();
        self.n.lane.next = self.n_lane.q.val();
        self.n.last_lane.next = self.n_last_lane.q.val();
        self.n.marker.next = self.n_marker.q.val();
        self.n.illegal.next = self.n_illegal.q.val();
        self.n.elem_size.next = self.n_elem_size.q.val();
        self.n.last_elem.next = self.n_last_elem.q.val();
        self.n.space_slm.next = self.n_space_slm.q.val();
        self.n.addr_offset32.next = self.n_addr_offset32.q.val();
        self.n.addr_buffer.next = self.n_addr_buffer.q.val();
        self.n.kind_typed.next = self.n_kind_typed.q.val();
        self.n.write_only.next = self.n_write_only.q.val();
        self.n.swap_src.next = self.n_swap_src.q.val();
        self.n.v_present.next = self.n_v_present.q.val();
        self.n.r_present.next = self.n_r_present.q.val();
        self.n.lod_present.next = self.n_lod_present.q.val();
        self.n.alu_op.next = self.n_alu_op.q.val();
        self.n.alu_ty.next = self.n_alu_ty.q.val();
        self.n.alu_ftz.next = self.n_alu_ftz.q.val();
        self.n.surf_kind.next = self.n_surf_kind.q.val();
        self.n.surf_base.next = self.n_surf_base.q.val();
        self.n.surf_size.next = self.n_surf_size.q.val();
        self.n.width.next = self.n_width.q.val();
        self.n.height.next = self.n_height.q.val();
        self.n.depth.next = self.n_depth.q.val();
        self.n.width_one.next = self.n_width_one.q.val();
        self.n.height_one.next = self.n_height_one.q.val();
        self.n.depth_one.next = self.n_depth_one.q.val();
        self.n.surf_array.next = self.n_surf_array.q.val();
        self.n.lane_rows.next = self.n_lane_rows.q.val();
        self.n.surf_levels.next = self.n_surf_levels.q.val();
        self.n.surf_u16.next = self.n_surf_u16.q.val();
        self.n.slm_size.next = self.n_slm_size.q.val();
        self.n.walk_rows.next = self.n_walk_ops.rows.val();
        self.n.walk_slices.next = self.n_walk_ops.slices.val();
        self.n.walk_sizes_constant.next = self.n_walk_ops.sizes_constant.val();
        self.n.walk_a.next = self.n_walk_ops.walk_a.val();
        self.n.walk_b.next = self.n_walk_ops.walk_b.val();
        self.n.cap_valid.next = self.cap_valid.q.val();
        for b in 0..2 {
            self.pbuf_addr_q[b].next = self.pbuf_addr[b].q.val();
            self.pbuf_src0_q[b].next = self.pbuf_src0[b].q.val();
            self.pbuf_src1_q[b].next = self.pbuf_src1[b].q.val();
            self.pbuf_coord_q[b].next = self.pbuf_coord[b].q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_stages_synthesize() {
        let mut uut = FrontStages::default();
        uut.connect_all();
        yosys_validate("atomport_front_stages", &generate_verilog(&uut)).unwrap();
    }
}
