//! `IssueStage`: the issue stage I (docs/microarchitecture.md "Front end"):
//! the lane from the next-lane stage N with its message's decoded fields
//! (`ctx_*`), one element (or scatter block) per cycle, and the typed walk.
//!
//! N comes in as one bundle, `n` (`NextLaneIn`, unit/payloads.rs). N's
//! lane enters when the stage is empty or done with its lane (`n.enter`,
//! the bundle's one output: the select stage and N move with it). Each cycle
//! the stage's element goes out to the address stage T as one bundle, `i`
//! (`IssueElemOut`, unit/payloads.rs: `i.valid`, with its address from
//! `AddrGen`, its operands from `ElemSelect`, the typed address's first
//! multiply-add from `TypedAddr`) when T takes it (`t_accepts`); a
//! TYPED_ATOMIC lane first walks the levels down to its lod (`i.walk`, a
//! step through T and L, whose sum comes back as `l_index`).
//!
//! Outputs are the stage's registers, its sub-blocks' outputs on them, and
//! decisions on those and `t_accepts`: no input other than `t_accepts`
//! reaches an output, and nothing the parent computes from the outputs
//! comes back in (Verilator `UNOPTFLAT`). `pay_coord` goes into
//! `LaneCoordReg`'s registers only; `atomport emit` moves its wiring out of
//! the block.

use rust_hdl::prelude::*;

use super::payloads::{IssueElemOut, NextLaneIn};
use crate::addr_gen::AddrGen;
use crate::elem_select::ElemSelect;
use crate::elem_size::ElemSize;
use crate::head_select::{ENTRY_KIND_BITS, ENTRY_MARKER, ENTRY_NO_MEMORY, ENTRY_READ_MODIFY_WRITE, ENTRY_WRITE};
use crate::lane_coord_reg::LaneCoordReg;
use crate::lane_mux::LaneMux;
use crate::null_coord::NullCoord;
use crate::typed_addr::TypedAddr;
use crate::walk_product::WalkProduct;
use crate::widths::{ADDR_BITS, ELEM_BITS, LANE_BITS, LANE_DATA_BITS, LINE_BITS, SIZE_BITS, SURF_KIND_BITS, UVR_BITS};
use atomport_isa::{ALU_OP_BITS, ALU_TY_BITS};

/// The issue stage. See the module documentation.
#[derive(LogicBlock)]
pub struct IssueStage {
    pub clock: Signal<In, Clock>,
    /// the registered reset: empties the stage
    pub reset: Signal<In, Bit>,
    /// the address stage T takes an element (or a walk step) this cycle
    pub t_accepts: Signal<In, Bit>,
    /// a walk step is in T / in L; L's sum (the next level's base)
    pub t_walk: Signal<In, Bit>,
    pub l_walk: Signal<In, Bit>,
    pub l_index: Signal<In, Bits<64>>,

    /// the next-lane stage N (`FrontStages`): its lane, its message's
    /// fields, whether its payload is on `pay_*` now (else in
    /// `pbuf_*[n.buf]`); out goes `enter`: N's lane enters this stage
    pub n: NextLaneIn,
    pub pbuf_addr: [Signal<In, Bits<ADDR_BITS>>; 2],
    pub pbuf_src0: [Signal<In, Bits<LANE_DATA_BITS>>; 2],
    pub pbuf_src1: [Signal<In, Bits<LANE_DATA_BITS>>; 2],
    pub pbuf_coord: [Signal<In, Bits<LANE_DATA_BITS>>; 2],
    /// the unit's payload port's coordinates (into `LaneCoordReg` only)
    pub pay_coord: Signal<In, Bits<LANE_DATA_BITS>>,

    // ---- out: the element (or walk step) going into T ----
    /// the element (`IssueElemOut`, unit/payloads.rs)
    pub i: IssueElemOut,
    /// the element's operands (not masked to the data built: the parent masks)
    pub src0: Signal<Out, Bits<LINE_BITS>>,
    pub src1: Signal<Out, Bits<LINE_BITS>>,

    // ---- blocks ----
    lane_mux: LaneMux,
    typed_step: TypedAddr,
    addr_gen: AddrGen,
    elem_select: ElemSelect,
    /// the element size decoded (its step in the lane)
    elem_bytes_of: ElemSize<ADDR_BITS>,
    /// TYPED_ATOMIC's null V and R (the lane's lod is zeroed as it enters, `LaneCoordReg`)
    null_coord: NullCoord,

    // ---- the stage's lane ----
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
    /// (`n.walk_*`) as the lane enters, from the next level as a walk step
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
    /// `typed_level == lod`: the walk's done decision (`i.at_lod`) from
    /// registers only
    typed_walked: DFF<Bit>,
    typed_walk_at_lod: DFF<Bit>,

    // ---- constants ----
    kind_marker: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_no_memory: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_read_modify_write: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_write: Constant<Bits<ENTRY_KIND_BITS>>,
    one_elem: Constant<Bits<ELEM_BITS>>,
    zero_elem: Constant<Bits<ELEM_BITS>>,
    zero_shift: Constant<Bits<8>>,
    zero_addr: Constant<Bits<ADDR_BITS>>,
    zero_low: Constant<Bits<4>>,
    zero_coord: Constant<Bits<32>>,
    /// the lane's lod as `NullCoord` takes it: already zeroed when absent
    lod_as_registered: Constant<Bit>,

    // ---- locals (named for waveforms) ----
    /// the issuing lane's access is misaligned (no memory; the message ends in error)
    issue_misaligned: Signal<Local, Bit>,
    /// the issue stage is done with its lane (or marker) this cycle
    issue_done: Signal<Local, Bit>,
    /// this cycle's entry only ends the message (illegal, or no lane enabled)
    issue_marker: Signal<Local, Bit>,
    /// the current element is its lane's last
    lane_done: Signal<Local, Bit>,
    issue_addr_ready: Signal<Local, Bit>,
    /// `e * E`
    issue_scaled_c: Signal<Local, Bits<64>>,
    typed_pending: Signal<Local, Bit>,
    elem_bytes: Signal<Local, Bits<ADDR_BITS>>,
    elem_bits: Signal<Local, Bits<8>>,
}

fn constant<const N: usize>(value: u64) -> Constant<Bits<N>> {
    Constant::new(value.to_bits())
}

impl Default for IssueStage {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            t_accepts: Default::default(),
            t_walk: Default::default(),
            l_walk: Default::default(),
            l_index: Default::default(),
            n: Default::default(),
            pbuf_addr: Default::default(),
            pbuf_src0: Default::default(),
            pbuf_src1: Default::default(),
            pbuf_coord: Default::default(),
            pay_coord: Default::default(),
            i: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            lane_mux: Default::default(),
            typed_step: Default::default(),
            addr_gen: Default::default(),
            elem_select: Default::default(),
            elem_bytes_of: ElemSize::bytes(),
            null_coord: Default::default(),
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
            typed_lane_rows: Default::default(),
            typed_walked: Default::default(),
            typed_walk_at_lod: Default::default(),
            kind_marker: constant(ENTRY_MARKER as u64),
            kind_no_memory: constant(ENTRY_NO_MEMORY as u64),
            kind_read_modify_write: constant(ENTRY_READ_MODIFY_WRITE as u64),
            kind_write: constant(ENTRY_WRITE as u64),
            one_elem: constant(1),
            zero_elem: constant(0),
            zero_shift: constant(0),
            zero_addr: constant(0),
            zero_low: constant(0),
            zero_coord: constant(0),
            lod_as_registered: Constant::new(true),
            issue_misaligned: Default::default(),
            issue_done: Default::default(),
            issue_marker: Default::default(),
            lane_done: Default::default(),
            issue_addr_ready: Default::default(),
            issue_scaled_c: Default::default(),
            typed_pending: Default::default(),
            elem_bytes: Default::default(),
            elem_bits: Default::default(),
        }
    }
}

impl Logic for IssueStage {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
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
            typed_lane_rows
        );

        // ================= sub-block inputs: wiring only =================
        // the lane's payload from the port (the cycle after its read) or
        // from the held registers
        self.lane_mux.from_buf1.next = self.i_buf.q.val();
        self.lane_mux.buf0_addr.next = self.pbuf_addr[0].val();
        self.lane_mux.buf0_src0.next = self.pbuf_src0[0].val();
        self.lane_mux.buf0_src1.next = self.pbuf_src1[0].val();
        self.lane_mux.buf0_coord.next = self.pbuf_coord[0].val().get_bits::<UVR_BITS>(0);
        self.lane_mux.buf1_addr.next = self.pbuf_addr[1].val();
        self.lane_mux.buf1_src0.next = self.pbuf_src0[1].val();
        self.lane_mux.buf1_src1.next = self.pbuf_src1[1].val();
        self.lane_mux.buf1_coord.next = self.pbuf_coord[1].val().get_bits::<UVR_BITS>(0);
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
        // (`i.at_lod`, from the registers: no local feeds a sub-block)
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

        // ================= issue: one element per cycle =================
        // The stage holds the lane selected last cycle (or a marker): its
        // payload, its address (`AddrGen`), the typed step's first
        // multiply-add (`TypedAddr`), the element's operands (`ElemSelect`).
        self.elem_bytes.next = self.elem_bytes_of.value.val();
        self.elem_bits.next = self.elem_bytes_of.value.val().get_bits::<8>(0) << 3;
        self.issue_marker.next = self.i_marker.q.val();
        self.issue_misaligned.next = self.lane_mux.misaligned.val() & !self.i_marker.q.val();
        self.lane_done.next = self.elem_index.q.val() == self.ctx_last_elem.q.val();
        // a scatter lane has no result, not even one that makes no access
        self.i.result_last.next = self.lane_done.val() & !self.ctx_write_only.q.val();
        self.i.msg_last.next = self.issue_marker.val() | (self.lane_done.val() & self.i_last_lane.q.val());
        // a typed lane waits for its walk (and for a walk step's level_base,
        // in T and L) unless it touches no memory (a typed lane is misaligned
        // only by its base: `base_misaligned`, off the payload buffers)
        self.i.at_lod.next = self.typed_lane_coord.lod_is_zero.val();
        if self.typed_walked.q.val() {
            self.i.at_lod.next = self.typed_walk_at_lod.q.val();
        }
        self.issue_addr_ready.next = (self.issue_marker.val() | self.lane_mux.base_misaligned.val())
            | (!self.ctx_kind_typed.q.val()
                | ((self.typed_lane_coord.ready.val() & !self.t_walk.val()) & !self.l_walk.val()));
        self.i.valid.next = ((self.i_valid.q.val() & !self.reset.val()) & self.issue_addr_ready.val())
            & self.t_accepts.val();
        self.i.kind.next = self.kind_read_modify_write.val();
        if self.ctx_write_only.q.val() {
            self.i.kind.next = self.kind_write.val();
        }
        // (the SLM / buffer bounds are checked in T: `t_kind_checked`)
        if (self.ctx_kind_typed.q.val() & self.typed_step.out_of_bounds.val()) | self.issue_misaligned.val() {
            self.i.kind.next = self.kind_no_memory.val();
        }
        if self.issue_marker.val() {
            self.i.kind.next = self.kind_marker.val();
        }
        self.issue_done.next = self.i.valid.val() & (self.lane_done.val() | self.issue_marker.val());
        self.issue_scaled_c.next = self.typed_step.lod_c.val() << 2;
        if self.ctx_surf_u16.q.val() {
            self.issue_scaled_c.next = self.typed_step.lod_c.val() << 1;
        }
        self.i.lod_c.next = self.issue_scaled_c.val() + self.ctx_surf_base.q.val();
        // N's lane moves in when the stage is empty or done with its lane
        self.n.enter.next = (self.n.valid.val() & (!self.i_valid.q.val() | self.issue_done.val())) & !self.reset.val();

        // the element going into T
        self.i.typed.next = self.ctx_kind_typed.q.val();
        self.i.addr.next = self.addr_gen.addr.val();
        self.i.walk_first.next = self.typed_step.walk_first.val();
        self.i.lane_first.next = self.typed_step.lane_first.val();
        self.i.second_b.next = self.typed_step.second_b.val();
        self.i.walk_c.next = self.typed_step.second_c.val();
        self.i.surf_u16.next = self.ctx_surf_u16.q.val();
        self.i.checks_bounds.next = self.addr_gen.checks_bounds.val() & !self.issue_marker.val();
        self.i.bounded_offset.next = self.addr_gen.bounded_offset.val();
        self.i.last_start.next = self.addr_gen.bound.val() - self.elem_bytes.val();
        self.i.bound_small.next = self.addr_gen.bound.val() < self.elem_bytes.val();
        self.i.space.next = self.addr_gen.space.val();
        self.i.size.next = self.ctx_elem_size.q.val();
        self.i.op.next = self.ctx_alu_op.q.val();
        self.i.ty.next = self.ctx_alu_ty.q.val();
        self.i.ftz.next = self.ctx_alu_ftz.q.val();
        self.src0.next = self.elem_select.src0.val();
        self.src1.next = self.elem_select.src1.val();
        self.i.lane.next = self.i_lane.q.val();
        self.i.elem.next = self.elem_index.q.val();
        self.i.result_shift.next = self.elem_shift.q.val().get_bits::<7>(0);
        self.i.result_first.next = !self.elem_index.q.val().any();
        self.i.error.next = (self.issue_marker.val() & self.i_illegal.q.val())
            | (self.i.msg_last.val() & (self.msg_misaligned.q.val() | self.issue_misaligned.val()));

        // the stage's registers: N's lane moves in (its `r`, `lod` and lane
        // product: from the port when the payload is captured at this same
        // edge, `LaneCoordReg`)
        self.typed_lane_coord.clock.next = self.clock.val();
        self.typed_lane_coord.load.next = self.n.enter.val();
        self.typed_lane_coord.r_present.next = self.n.r_present.val();
        self.typed_lane_coord.lod_present.next = self.n.lod_present.val();
        self.typed_lane_coord.from_port.next = self.n.cap_valid.val();
        self.typed_lane_coord.from_buf1.next = self.n.buf.val();
        self.typed_lane_coord.port_coord.next = self.pay_coord.val();
        self.typed_lane_coord.buf0_coord.next = self.pbuf_coord[0].val();
        self.typed_lane_coord.buf1_coord.next = self.pbuf_coord[1].val();
        self.typed_lane_coord.levels.next = self.n.surf_levels.val();
        self.typed_lane_coord.entry_rows.next = self.n.lane_rows.val();
        self.typed_lane_coord.rows.next = self.typed_lane_rows.q.val();
        self.typed_lane_coord.walk_step.next = self.t_walk.val();
        if self.issue_done.val() {
            self.i_valid.d.next = false;
        }
        if self.n.enter.val() {
            self.i_valid.d.next = true;
            self.i_buf.d.next = self.n.buf.val();
            self.i_lane.d.next = self.n.lane.val();
            self.i_last_lane.d.next = self.n.last_lane.val();
            self.i_marker.d.next = self.n.marker.val();
            self.i_illegal.d.next = self.n.illegal.val();
            self.ctx_elem_size.d.next = self.n.elem_size.val();
            self.ctx_last_elem.d.next = self.n.last_elem.val();
            self.ctx_space_slm.d.next = self.n.space_slm.val();
            self.ctx_addr_offset32.d.next = self.n.addr_offset32.val();
            self.ctx_addr_buffer.d.next = self.n.addr_buffer.val();
            self.ctx_kind_typed.d.next = self.n.kind_typed.val();
            self.ctx_write_only.d.next = self.n.write_only.val();
            self.ctx_swap_src.d.next = self.n.swap_src.val();
            self.ctx_v_present.d.next = self.n.v_present.val();
            self.ctx_r_present.d.next = self.n.r_present.val();
            self.ctx_alu_op.d.next = self.n.alu_op.val();
            self.ctx_alu_ty.d.next = self.n.alu_ty.val();
            self.ctx_alu_ftz.d.next = self.n.alu_ftz.val();
            self.ctx_surf_kind.d.next = self.n.surf_kind.val();
            self.ctx_surf_base.d.next = self.n.surf_base.val();
            self.ctx_surf_size.d.next = self.n.surf_size.val();
            self.typed_width.d.next = self.n.width.val();
            self.typed_height.d.next = self.n.height.val();
            self.typed_lane_rows.d.next = self.n.walk_rows.val();
            self.typed_slices.d.next = self.n.walk_slices.val();
            self.typed_sizes_constant.d.next = self.n.walk_sizes_constant.val();
            self.typed_depth.d.next = self.n.depth.val();
            self.typed_width_one.d.next = self.n.width_one.val();
            self.typed_height_one.d.next = self.n.height_one.val();
            self.typed_depth_one.d.next = self.n.depth_one.val();
            self.typed_walk_a.d.next = self.n.walk_a.val();
            self.typed_walk_b.d.next = self.n.walk_b.val();
            self.ctx_surf_array.d.next = self.n.surf_array.val();
            self.ctx_surf_u16.d.next = self.n.surf_u16.val();
            self.ctx_slm_size.d.next = self.n.slm_size.val();
        }
        // a misaligned lane: the message's last entry carries the error
        if self.i.valid.val() & self.issue_misaligned.val() {
            self.msg_misaligned.d.next = true;
        }
        if self.i.valid.val() & self.i.msg_last.val() {
            self.msg_misaligned.d.next = false;
        }

        // element / block stepping inside a lane
        if self.i.valid.val() {
            if self.lane_done.val() | self.issue_marker.val() {
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
        self.i.walk.next = (((self.typed_pending.val() & !self.typed_lane_coord.ready.val()) & !self.t_walk.val())
            & (!self.l_walk.val() & !self.typed_walk_stale.q.val()))
            & self.t_accepts.val();
        // the walk state changes for a new lane, which enters when the issue
        // stage is empty (no typed lane pending) or its lane's last element
        // issues; a walk step's own change is covered by `t_walk`/`l_walk`
        self.typed_walk_stale.d.next = self.i.valid.val() | !self.typed_pending.val();
        // the walk's done decision for the next cycle (`LaneCoordReg`'s `ready`)
        self.typed_lane_coord.walk_push.next = self.i.walk.val();
        self.typed_lane_coord.walk_reaches_lod.next =
            self.typed_step.next_level.val() == self.typed_lane_coord.lod.val();
        if self.i.walk.val() {
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
        if self.l_walk.val() {
            self.typed_level_base.d.next = self.l_index.val();
        }
        // (a walk step leaves `typed_level` above 0: it runs only while `level < lod`)
        if self.i.walk.val() {
            self.typed_walked.d.next = true;
            self.typed_walk_at_lod.d.next = self.typed_step.next_level.val() == self.typed_lane_coord.lod.val();
        }
        if self.i.valid.val() | !self.typed_pending.val() {
            self.typed_walked.d.next = false;
            self.typed_level.d.next = self.zero_coord.val();
            self.typed_level_base.d.next = self.zero_addr.val();
        }

        if self.reset.val() {
            self.i_valid.d.next = false;
            self.msg_misaligned.d.next = false;
            self.elem_index.d.next = self.zero_elem.val();
            self.elem_offset.d.next = self.zero_addr.val();
            self.elem_shift.d.next = self.zero_shift.val();
        }
    }
}
