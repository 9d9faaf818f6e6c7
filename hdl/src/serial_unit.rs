//! `SerialUnit`: the memory-port unit built for small parts
//! (`variants/serial_unit_l8_w32_int.v`): one element at a time, with the ports of
//! `AtomicUnit` (docs/microarchitecture.md "Port table"), so the same
//! driver, monitor, scoreboard and synthesis harness serve it.
//!
//! One element at a time means no in-flight table, no hazard and nothing
//! to forward: an element's write is accepted before the next element's
//! read is issued. The rules are the pipelined unit's blocks
//! (`MessageDecoder`, `LaneSelect`, `AddrGen`, `BoundsCheck`,
//! `ElemSelect`, `AtomicAlu`, `WriteAlign`, `ElemSize`, `LinePlace`,
//! `NullCoord`), and the typed address is
//! `TypedAddrSerial` (one adder, no multiplier: a part without DSPs).
//!
//! | state    | does                                                         | leaves when |
//! | -------- | ------------------------------------------------------------ | ----------- |
//! | Idle     | `req_ready`; the message into `r_*`                          | `req_valid` |
//! | Decode   | the decoder on `r_*`: the lanes, or the message's end        | at once     |
//! | Select   | `pay_valid` for the lowest lane left                         | at once     |
//! | Payload  | the lane's operands into `p_*` at the cycle's end            | at once     |
//! | Address  | the element's address (typed: starts `TypedAddrSerial`)      | at once / walk done |
//! | Check    | bounds, alignment; line, byte enables, bit offset            | at once     |
//! | Read     | `mem_rd_*` up                                                | accepted    |
//! | Return   | waits for the line; the old value into `old`                 | `mem_rdata_valid` |
//! | Execute  | the ALU on `old` (its operand stage loaded in Return)        | at once     |
//! | Write    | `mem_wr_*` up                                                | accepted    |
//! | Next     | the next element, else the lane's result, the next lane      | at once     |
//! | Done     | `rsp_done` (with `rsp_error`)                                | at once     |

use rust_hdl::prelude::*;

use crate::addr_gen::AddrGen;
use crate::alu::AtomicAlu;
use crate::bounds_check::BoundsCheck;
use crate::decoder::MessageDecoder;
use crate::elem_select::ElemSelect;
use crate::elem_size::ElemSize;
use crate::lane_select::LaneSelect;
use crate::line_place::LinePlace;
use crate::null_coord::NullCoord;
use crate::state_reg::StateReg;
use crate::typed_addr_serial::TypedAddrSerial;
use crate::widths::{ADDR_BITS, DESC_BITS, ELEM_BITS, ELEM_SHIFT_BITS, LANE_BITS, LINE_BITS, LINE_BYTES, MAX_LANES, SURF_KIND_BITS};
use crate::write_align::WriteAlign;
use atomport_isa::UnitConfig;

/// The serial unit's state.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum SerialState {
    Idle,
    Decode,
    Select,
    Payload,
    Address,
    Walk,
    Check,
    Read,
    Return,
    Execute,
    Write,
    Next,
    Done,
}

/// The memory-port unit, one element at a time. See the module documentation.
#[derive(LogicBlock)]
pub struct SerialUnit {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // ---- request ----
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
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
    // ---- payload port ----
    pub pay_valid: Signal<Out, Bit>,
    pub pay_lane: Signal<Out, Bits<LANE_BITS>>,
    pub pay_slot: Signal<Out, Bit>,
    pub pay_addr: Signal<In, Bits<64>>,
    pub pay_src0: Signal<In, Bits<128>>,
    pub pay_src1: Signal<In, Bits<128>>,
    pub pay_coord: Signal<In, Bits<128>>,
    // ---- memory read channel ----
    pub mem_rd_valid: Signal<Out, Bit>,
    pub mem_rd_ready: Signal<In, Bit>,
    pub mem_rd_addr: Signal<Out, Bits<64>>,
    pub mem_rd_space: Signal<Out, Bit>,
    pub mem_rd_be: Signal<Out, Bits<LINE_BYTES>>,
    pub mem_rdata_valid: Signal<In, Bit>,
    pub mem_rdata: Signal<In, Bits<LINE_BITS>>,
    // ---- memory write channel ----
    pub mem_wr_valid: Signal<Out, Bit>,
    pub mem_wr_ready: Signal<In, Bit>,
    pub mem_wr_addr: Signal<Out, Bits<64>>,
    pub mem_wr_space: Signal<Out, Bit>,
    pub mem_wr_data: Signal<Out, Bits<LINE_BITS>>,
    pub mem_wr_be: Signal<Out, Bits<LINE_BYTES>>,
    // ---- results ----
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_lane: Signal<Out, Bits<LANE_BITS>>,
    pub rsp_data: Signal<Out, Bits<128>>,
    pub rsp_done: Signal<Out, Bit>,
    pub rsp_error: Signal<Out, Bit>,
    // ---- observation ----
    pub obs_valid: Signal<Out, Bit>,
    pub obs_lane: Signal<Out, Bits<LANE_BITS>>,
    pub obs_elem: Signal<Out, Bits<ELEM_BITS>>,
    pub obs_old: Signal<Out, Bits<128>>,
    pub obs_new: Signal<Out, Bits<128>>,

    // ---- blocks ----
    decoder: MessageDecoder,
    lane_select: LaneSelect,
    addr_gen: AddrGen,
    bounds_check: BoundsCheck,
    elem_select: ElemSelect,
    typed: TypedAddrSerial,
    alu: AtomicAlu,
    write_align: WriteAlign,
    /// the element's size decoded: its bytes, bit mask, alignment
    elem_bytes_of: ElemSize<ADDR_BITS>,
    elem_mask_of: ElemSize<LINE_BITS>,
    elem_align_of: ElemSize<4>,
    line_place: LinePlace,
    null_coord: NullCoord,

    // ---- state ----
    state: StateReg<SerialState>,
    reset_q: DFF<Bit>,
    /// the message (request registers), held until it is done
    r_desc: DFF<Bits<DESC_BITS>>,
    r_dmask: DFF<Bits<MAX_LANES>>,
    r_pred_mask: DFF<Bits<MAX_LANES>>,
    r_surf_kind: DFF<Bits<SURF_KIND_BITS>>,
    r_surf_base: DFF<Bits<64>>,
    r_surf_size: DFF<Bits<64>>,
    r_surf_width: DFF<Bits<32>>,
    r_surf_height: DFF<Bits<32>>,
    r_surf_depth: DFF<Bits<32>>,
    r_surf_array: DFF<Bits<32>>,
    r_surf_levels: DFF<Bits<32>>,
    r_surf_u16: DFF<Bit>,
    r_slm_size: DFF<Bits<32>>,
    /// messages taken since reset, mod 2 (`pay_slot`); toggles as one is taken
    slot: DFF<Bit>,
    /// the message had a misaligned lane (ends in `rsp_error`)
    msg_error: DFF<Bit>,
    lanes_left: DFF<Bits<MAX_LANES>>,
    lane: DFF<Bits<LANE_BITS>>,
    /// the lane's payload
    p_addr: DFF<Bits<64>>,
    p_src0: DFF<Bits<128>>,
    p_src1: DFF<Bits<128>>,
    p_coord: DFF<Bits<128>>,
    /// the element within the lane, its byte offset and bit offset in {src1, src0}
    elem: DFF<Bits<ELEM_BITS>>,
    elem_offset: DFF<Bits<ADDR_BITS>>,
    elem_shift: DFF<Bits<ELEM_SHIFT_BITS>>,
    /// the element's address and space; it makes no access (out of bounds or misaligned)
    e_addr: DFF<Bits<ADDR_BITS>>,
    e_space: DFF<Bit>,
    e_checks_bounds: DFF<Bit>,
    e_bounded_offset: DFF<Bits<ADDR_BITS>>,
    e_last_start: DFF<Bits<ADDR_BITS>>,
    e_bound_small: DFF<Bit>,
    e_typed_oob: DFF<Bit>,
    /// the element's bit offset in its line and its byte enables
    e_bit_offset: DFF<Bits<7>>,
    e_byte_enables: DFF<Bits<LINE_BYTES>>,
    /// the old value (the line shifted down to the element), the new value, the value returned
    old: DFF<Bits<LINE_BITS>>,
    new_value: DFF<Bits<LINE_BITS>>,
    ret: DFF<Bits<LINE_BITS>>,
    // ---- registered outputs ----
    /// the memory ports: valid, and the element's line (both ports; the
    /// space and byte enables are `e_space`, `e_byte_enables`)
    rd_valid: DFF<Bit>,
    wr_valid: DFF<Bit>,
    line_addr: DFF<Bits<64>>,
    rsp_valid_q: DFF<Bit>,
    rsp_lane_q: DFF<Bits<LANE_BITS>>,
    rsp_data_q: DFF<Bits<128>>,
    rsp_done_q: DFF<Bit>,
    rsp_error_q: DFF<Bit>,
    obs_valid_q: DFF<Bit>,
    obs_lane_q: DFF<Bits<LANE_BITS>>,
    obs_elem_q: DFF<Bits<ELEM_BITS>>,
    obs_old_q: DFF<Bits<128>>,
    obs_new_q: DFF<Bits<128>>,

    // ---- constants ----
    lanes_built: Constant<Bits<MAX_LANES>>,
    data_built: Constant<Bits<LINE_BITS>>,
    one_elem: Constant<Bits<ELEM_BITS>>,
    zero_elem: Constant<Bits<ELEM_BITS>>,
    zero_addr: Constant<Bits<ADDR_BITS>>,
    zero_shift: Constant<Bits<ELEM_SHIFT_BITS>>,
    zero_line: Constant<Bits<LINE_BITS>>,
    /// the element's size, decoded from `elem_size` (`ElemSize`)
    elem_bytes: Signal<Local, Bits<ADDR_BITS>>,
    elem_mask: Signal<Local, Bits<LINE_BITS>>,
    elem_align: Signal<Local, Bits<4>>,
    /// the element is out of bounds / misaligned (Check)
    e_out_of_bounds: Signal<Local, Bit>,
    e_misaligned: Signal<Local, Bit>,
    /// the element makes a read-modify-write (not a scatter block)
    e_atomic: Signal<Local, Bit>,
}

impl SerialUnit {
    /// The unit for `config` (its lanes, data width, FP or not). A build
    /// with FP is accepted, but its float ops take the ALU's float stages,
    /// which this unit does not wait for: build it `int`.
    pub fn new(config: UnitConfig) -> Self {
        UnitConfig::new(config.max_lanes, config.data_bits, config.fp).expect("SerialUnit: bad UnitConfig");
        assert!(!config.fp, "SerialUnit: integer builds only (it does not wait for multi-cycle float results)");
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
            decoder: MessageDecoder::new(config),
            lane_select: Default::default(),
            addr_gen: Default::default(),
            bounds_check: Default::default(),
            elem_select: Default::default(),
            typed: Default::default(),
            alu: AtomicAlu::new(config.data_bits, config.fp),
            write_align: Default::default(),
            elem_bytes_of: ElemSize::bytes(),
            elem_mask_of: ElemSize::mask(),
            elem_align_of: ElemSize::align(),
            line_place: Default::default(),
            null_coord: Default::default(),
            state: Default::default(),
            reset_q: Default::default(),
            r_desc: Default::default(),
            r_dmask: Default::default(),
            r_pred_mask: Default::default(),
            r_surf_kind: Default::default(),
            r_surf_base: Default::default(),
            r_surf_size: Default::default(),
            r_surf_width: Default::default(),
            r_surf_height: Default::default(),
            r_surf_depth: Default::default(),
            r_surf_array: Default::default(),
            r_surf_levels: Default::default(),
            r_surf_u16: Default::default(),
            r_slm_size: Default::default(),
            slot: Default::default(),
            msg_error: Default::default(),
            lanes_left: Default::default(),
            lane: Default::default(),
            p_addr: Default::default(),
            p_src0: Default::default(),
            p_src1: Default::default(),
            p_coord: Default::default(),
            elem: Default::default(),
            elem_offset: Default::default(),
            elem_shift: Default::default(),
            e_addr: Default::default(),
            e_space: Default::default(),
            e_checks_bounds: Default::default(),
            e_bounded_offset: Default::default(),
            e_last_start: Default::default(),
            e_bound_small: Default::default(),
            e_typed_oob: Default::default(),
            e_bit_offset: Default::default(),
            e_byte_enables: Default::default(),
            old: Default::default(),
            new_value: Default::default(),
            ret: Default::default(),
            rd_valid: Default::default(),
            wr_valid: Default::default(),
            line_addr: Default::default(),
            rsp_valid_q: Default::default(),
            rsp_lane_q: Default::default(),
            rsp_data_q: Default::default(),
            rsp_done_q: Default::default(),
            rsp_error_q: Default::default(),
            obs_valid_q: Default::default(),
            obs_lane_q: Default::default(),
            obs_elem_q: Default::default(),
            obs_old_q: Default::default(),
            obs_new_q: Default::default(),
            lanes_built: Constant::new((config.lane_mask() as u64).to_bits()),
            data_built: Constant::new(config.data_mask().to_bits()),
            one_elem: Constant::new(1u64.to_bits()),
            zero_elem: Constant::new(0u64.to_bits()),
            zero_addr: Constant::new(0u64.to_bits()),
            zero_shift: Constant::new(0u64.to_bits()),
            zero_line: Constant::new(0u128.to_bits()),
            elem_bytes: Default::default(),
            elem_mask: Default::default(),
            elem_align: Default::default(),
            e_out_of_bounds: Default::default(),
            e_misaligned: Default::default(),
            e_atomic: Default::default(),
        }
    }
}

impl Logic for SerialUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            reset_q,
            r_desc,
            r_dmask,
            r_pred_mask,
            r_surf_kind,
            r_surf_base,
            r_surf_size,
            r_surf_width,
            r_surf_height,
            r_surf_depth,
            r_surf_array,
            r_surf_levels,
            r_surf_u16,
            r_slm_size,
            slot,
            msg_error,
            lanes_left,
            lane,
            p_addr,
            p_src0,
            p_src1,
            p_coord,
            elem,
            elem_offset,
            elem_shift,
            e_addr,
            e_space,
            e_checks_bounds,
            e_bounded_offset,
            e_last_start,
            e_bound_small,
            e_typed_oob,
            e_bit_offset,
            e_byte_enables,
            old,
            new_value,
            ret,
            rd_valid,
            wr_valid,
            line_addr,
            rsp_valid_q,
            rsp_lane_q,
            rsp_data_q,
            rsp_done_q,
            rsp_error_q,
            obs_valid_q,
            obs_lane_q,
            obs_elem_q,
            obs_old_q,
            obs_new_q
        );
        self.state.clock.next = self.clock.val();
        self.state.d.next = self.state.q.val();
        self.reset_q.d.next = self.reset.val();

        // ---- blocks: wiring only (registers in, "RTL structure rule (Verilator)") ----
        self.decoder.desc.next = self.r_desc.q.val();
        self.decoder.dmask.next = self.r_dmask.q.val();
        self.decoder.pred_mask.next = self.r_pred_mask.q.val();
        self.decoder.surf_kind.next = self.r_surf_kind.q.val();
        self.decoder.surf_u16.next = self.r_surf_u16.q.val();
        self.lane_select.mask.next = self.lanes_left.q.val();
        self.addr_gen.lane_addr.next = self.p_addr.q.val();
        self.addr_gen.elem_offset.next = self.elem_offset.q.val();
        self.addr_gen.space_slm.next = self.decoder.space_slm.val();
        self.addr_gen.addr_offset32.next = self.decoder.addr_offset32.val();
        self.addr_gen.addr_buffer.next = self.decoder.addr_buffer.val();
        self.addr_gen.kind_typed.next = self.decoder.kind_typed.val();
        self.addr_gen.surf_base.next = self.r_surf_base.q.val();
        self.addr_gen.surf_size.next = self.r_surf_size.q.val();
        self.addr_gen.slm_size.next = self.r_slm_size.q.val();
        self.bounds_check.checked.next = self.e_checks_bounds.q.val();
        self.bounds_check.offset.next = self.e_bounded_offset.q.val();
        self.bounds_check.last_start.next = self.e_last_start.q.val();
        self.bounds_check.bound_small.next = self.e_bound_small.q.val();
        self.elem_select.lane_src0.next = self.p_src0.q.val();
        self.elem_select.lane_src1.next = self.p_src1.q.val();
        self.elem_select.elem_shift.next = self.elem_shift.q.val();
        self.elem_select.elem_size.next = self.decoder.elem_size.val();
        self.elem_select.swap_src.next = self.decoder.swap_src.val();
        self.elem_select.write_only.next = self.decoder.write_only.val();
        self.typed.clock.next = self.clock.val();
        self.typed.reset.next = self.reset_q.q.val();
        self.typed.start.next =
            ((self.state.q.val() == SerialState::Address) & self.decoder.kind_typed.val()) & !self.typed.busy.val();
        self.typed.surf_kind.next = self.r_surf_kind.q.val();
        self.typed.surf_base.next = self.r_surf_base.q.val();
        self.typed.surf_width.next = self.r_surf_width.q.val();
        self.typed.surf_height.next = self.r_surf_height.q.val();
        self.typed.surf_depth.next = self.r_surf_depth.q.val();
        self.typed.surf_array.next = self.r_surf_array.q.val();
        self.typed.surf_levels.next = self.r_surf_levels.q.val();
        self.typed.surf_u16.next = self.r_surf_u16.q.val();
        // a null V, R or LOD operand reads as 0 (docs/microarchitecture.md "Payload port")
        self.null_coord.u_in.next = self.p_coord.q.val().get_bits::<32>(0);
        self.null_coord.v_in.next = self.p_coord.q.val().get_bits::<32>(32);
        self.null_coord.r_in.next = self.p_coord.q.val().get_bits::<32>(64);
        self.null_coord.lod_in.next = self.p_coord.q.val().get_bits::<32>(96);
        self.null_coord.v_present.next = self.decoder.v_present.val();
        self.null_coord.r_present.next = self.decoder.r_present.val();
        self.null_coord.lod_present.next = self.decoder.lod_present.val();
        self.typed.coord_u.next = self.null_coord.u.val();
        self.typed.coord_v.next = self.null_coord.v.val();
        self.typed.coord_r.next = self.null_coord.r.val();
        self.typed.coord_lod.next = self.null_coord.lod.val();
        self.elem_bytes_of.size.next = self.decoder.elem_size.val();
        self.elem_mask_of.size.next = self.decoder.elem_size.val();
        self.elem_align_of.size.next = self.decoder.elem_size.val();
        self.line_place.addr.next = self.e_addr.q.val();
        self.line_place.size.next = self.decoder.elem_size.val();
        self.alu.clock.next = self.clock.val();
        self.alu.pipe_advance.next = true;
        self.alu.op.next = self.decoder.alu_op.val();
        self.alu.ty.next = self.decoder.alu_ty.val();
        self.alu.ftz.next = self.decoder.alu_ftz.val();
        self.alu.src0.next = self.elem_select.src0.val() & self.data_built.val();
        self.alu.src1.next = self.elem_select.src1.val() & self.data_built.val();
        self.alu.old_value.next = self.old.q.val();
        self.write_align.value.next = self.new_value.q.val();
        self.write_align.bit_offset.next = self.e_bit_offset.q.val();
        self.write_align.byte_enables.next = self.e_byte_enables.q.val();

        // ---- outputs ----
        self.req_ready.next = (self.state.q.val() == SerialState::Idle) & !self.reset_q.q.val();
        self.pay_valid.next = self.state.q.val() == SerialState::Select;
        self.pay_lane.next = self.lane_select.lane.val();
        self.pay_slot.next = self.slot.q.val();
        self.mem_rd_valid.next = self.rd_valid.q.val();
        self.mem_rd_addr.next = self.line_addr.q.val();
        self.mem_rd_space.next = self.e_space.q.val();
        self.mem_rd_be.next = self.e_byte_enables.q.val();
        self.mem_wr_valid.next = self.wr_valid.q.val();
        self.mem_wr_addr.next = self.line_addr.q.val();
        self.mem_wr_space.next = self.e_space.q.val();
        self.mem_wr_data.next = self.write_align.data.val() & self.write_align.mask.val();
        self.mem_wr_be.next = self.e_byte_enables.q.val();
        self.rsp_valid.next = self.rsp_valid_q.q.val();
        self.rsp_lane.next = self.rsp_lane_q.q.val();
        self.rsp_data.next = self.rsp_data_q.q.val();
        self.rsp_done.next = self.rsp_done_q.q.val();
        self.rsp_error.next = self.rsp_error_q.q.val();
        self.obs_valid.next = self.obs_valid_q.q.val();
        self.obs_lane.next = self.obs_lane_q.q.val();
        self.obs_elem.next = self.obs_elem_q.q.val();
        self.obs_old.next = self.obs_old_q.q.val();
        self.obs_new.next = self.obs_new_q.q.val();

        // ---- the element's size ----
        self.elem_bytes.next = self.elem_bytes_of.value.val();
        self.elem_mask.next = self.elem_mask_of.value.val();
        self.elem_align.next = self.elem_align_of.value.val();
        self.e_atomic.next = !self.decoder.write_only.val();
        self.e_out_of_bounds.next = self.bounds_check.out_of_bounds.val() | self.e_typed_oob.q.val();
        // a typed lane's address is aligned when its surface's base is (its
        // offset is a multiple of the element): the base alone, as in `LaneMux`
        self.e_misaligned.next = (self.e_addr.q.val().get_bits::<4>(0) & self.elem_align.val()).any();
        if self.decoder.kind_typed.val() {
            self.e_misaligned.next = (self.r_surf_base.q.val().get_bits::<4>(0) & self.elem_align.val()).any();
        }

        // ---- one-cycle outputs ----
        self.rsp_valid_q.d.next = false;
        self.rsp_done_q.d.next = false;
        self.rsp_error_q.d.next = false;
        self.obs_valid_q.d.next = false;

        match self.state.q.val() {
            SerialState::Idle => {
                if self.req_valid.val() & !self.reset_q.q.val() {
                    self.r_desc.d.next = self.req_desc.val();
                    self.r_dmask.d.next = self.req_dmask.val();
                    self.r_pred_mask.d.next = self.req_pred_mask.val();
                    self.r_surf_kind.d.next = self.req_surf_kind.val();
                    self.r_surf_base.d.next = self.req_surf_base.val();
                    self.r_surf_size.d.next = self.req_surf_size.val();
                    self.r_surf_width.d.next = self.req_surf_width.val();
                    self.r_surf_height.d.next = self.req_surf_height.val();
                    self.r_surf_depth.d.next = self.req_surf_depth.val();
                    self.r_surf_array.d.next = self.req_surf_array.val();
                    self.r_surf_levels.d.next = self.req_surf_levels.val();
                    self.r_surf_u16.d.next = self.req_surf_u16.val();
                    self.r_slm_size.d.next = self.req_slm_size.val();
                    self.state.d.next = SerialState::Decode;
                }
            }
            SerialState::Decode => {
                self.lanes_left.d.next = self.decoder.lane_enables.val() & self.lanes_built.val();
                self.msg_error.d.next = self.decoder.illegal.val();
                self.state.d.next = SerialState::Select;
                if self.decoder.illegal.val() | !(self.decoder.lane_enables.val() & self.lanes_built.val()).any() {
                    self.state.d.next = SerialState::Done;
                }
            }
            SerialState::Select => {
                self.lane.d.next = self.lane_select.lane.val();
                self.lanes_left.d.next = self.lane_select.rest.val();
                self.state.d.next = SerialState::Payload;
            }
            SerialState::Payload => {
                self.p_addr.d.next = self.pay_addr.val();
                self.p_src0.d.next = self.pay_src0.val();
                self.p_src1.d.next = self.pay_src1.val();
                self.p_coord.d.next = self.pay_coord.val();
                self.elem.d.next = self.zero_elem.val();
                self.elem_offset.d.next = self.zero_addr.val();
                self.elem_shift.d.next = self.zero_shift.val();
                self.state.d.next = SerialState::Address;
            }
            SerialState::Address => {
                self.e_addr.d.next = self.addr_gen.addr.val();
                self.e_space.d.next = self.addr_gen.space.val();
                self.e_checks_bounds.d.next = self.addr_gen.checks_bounds.val();
                self.e_bounded_offset.d.next = self.addr_gen.bounded_offset.val();
                self.e_last_start.d.next = self.addr_gen.bound.val() - self.elem_bytes.val();
                self.e_bound_small.d.next = self.addr_gen.bound.val() < self.elem_bytes.val();
                self.e_typed_oob.d.next = false;
                self.state.d.next = SerialState::Check;
                if self.decoder.kind_typed.val() {
                    self.state.d.next = SerialState::Walk;
                }
            }
            SerialState::Walk => {
                if self.typed.done.val() {
                    self.e_addr.d.next = self.typed.addr.val();
                    self.e_space.d.next = false;
                    self.e_checks_bounds.d.next = false;
                    self.e_typed_oob.d.next = self.typed.out_of_bounds.val();
                    self.state.d.next = SerialState::Check;
                }
            }
            SerialState::Check => {
                self.e_bit_offset.d.next = self.line_place.bit_offset.val();
                self.e_byte_enables.d.next = self.line_place.byte_enables.val();
                self.line_addr.d.next = self.line_place.line.val();
                self.old.d.next = self.zero_line.val();
                self.ret.d.next = self.zero_line.val();
                if self.e_misaligned.val() {
                    self.msg_error.d.next = true;
                    self.state.d.next = SerialState::Next;
                } else if self.e_out_of_bounds.val() {
                    self.state.d.next = SerialState::Next;
                } else if self.e_atomic.val() {
                    self.rd_valid.d.next = true;
                    self.state.d.next = SerialState::Read;
                } else {
                    self.state.d.next = SerialState::Execute;
                }
            }
            SerialState::Read => {
                if self.mem_rd_ready.val() {
                    self.rd_valid.d.next = false;
                    self.state.d.next = SerialState::Return;
                }
            }
            SerialState::Return => {
                if self.mem_rdata_valid.val() {
                    self.old.d.next = ((self.mem_rdata.val() >> self.e_bit_offset.q.val()) & self.elem_mask.val()) & self.data_built.val();
                    self.state.d.next = SerialState::Execute;
                }
            }
            SerialState::Execute => {
                // the ALU's operand stage loaded from the element's registers in
                // the cycles before; `old` is at its execute stage now
                self.new_value.d.next = self.alu.new_false.val() & self.data_built.val();
                if self.alu.new_cond.val() {
                    self.new_value.d.next = self.alu.new_true.val() & self.data_built.val();
                }
                self.ret.d.next = self.alu.ret_value.val() & self.data_built.val();
                if self.alu.float_op.val() {
                    // (never in the integer builds it takes: `new` asserts it)
                    self.new_value.d.next = self.alu.float_value.val() & self.data_built.val();
                }
                if !self.e_atomic.val() {
                    // a scatter block: its bytes as they are
                    self.new_value.d.next = (self.elem_select.src0.val() & self.elem_mask.val()) & self.data_built.val();
                }
                self.wr_valid.d.next = true;
                self.state.d.next = SerialState::Write;
            }
            SerialState::Write => {
                if self.mem_wr_ready.val() & self.wr_valid.q.val() {
                    self.wr_valid.d.next = false;
                    self.obs_valid_q.d.next = self.e_atomic.val();
                    self.obs_lane_q.d.next = self.lane.q.val();
                    self.obs_elem_q.d.next = self.elem.q.val();
                    self.obs_old_q.d.next = self.old.q.val();
                    self.obs_new_q.d.next = self.new_value.q.val();
                    self.state.d.next = SerialState::Next;
                }
            }
            SerialState::Next => {
                if self.elem.q.val() != self.decoder.last_elem.val() {
                    self.elem.d.next = self.elem.q.val() + self.one_elem.val();
                    self.elem_offset.d.next = self.elem_offset.q.val() + self.elem_bytes.val();
                    self.elem_shift.d.next = self.elem_shift.q.val() + (self.elem_bytes.val().get_bits::<8>(0) << 3);
                    self.state.d.next = SerialState::Address;
                } else {
                    self.rsp_valid_q.d.next = self.e_atomic.val();
                    self.rsp_lane_q.d.next = self.lane.q.val();
                    self.rsp_data_q.d.next = self.ret.q.val();
                    self.state.d.next = SerialState::Select;
                    if !self.lanes_left.q.val().any() {
                        self.state.d.next = SerialState::Done;
                    }
                }
            }
            SerialState::Done => {
                self.rsp_done_q.d.next = true;
                self.rsp_error_q.d.next = self.msg_error.q.val();
                self.slot.d.next = !self.slot.q.val();
                self.state.d.next = SerialState::Idle;
            }
        }
        if self.reset_q.q.val() {
            self.state.d.next = SerialState::Idle;
            self.slot.d.next = false;
            self.rd_valid.d.next = false;
            self.wr_valid.d.next = false;
            self.rsp_valid_q.d.next = false;
            self.rsp_done_q.d.next = false;
            self.obs_valid_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_unit_synthesizes() {
        let mut uut = SerialUnit::new(UnitConfig::SMALL);
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("atomport_serial_unit", &vlog).unwrap();
    }
}
