//! `ExecutePipe`: the execute pipeline's stage registers, X, X2, X3, X4 and
//! the write stage W, and their advance (docs/microarchitecture.md
//! "Execute pipeline").
//!
//! The head entry enters X as it leaves the table (`enter`); the stages move
//! down together whenever the write stage is free (`advance`): X -> X2 ->
//! X3 -> X4 -> W, or X2 -> W in an integer build (X3 and X4 only delay float
//! results). The ALU sits between X and X2 in the parent: X's registers and
//! the bypassed values go out to it, its results come back in.
//!
//! Every output is a register's output: no combinational path from an
//! input to an output, so the parent may feed these inputs from logic that
//! reads the outputs without a loop (Verilator `UNOPTFLAT`).

use rust_hdl::prelude::*;

use super::payloads::{AheadStagesOut, WriteStageOut};
use crate::head_select::{HeadEntryIn, ENTRY_KIND_BITS, ENTRY_READ_MODIFY_WRITE, ENTRY_WRITE};
use crate::widths::{ADDR_BITS, ELEM_BITS, LANE_BITS, LINE_BITS, LINE_BYTES};

/// The execute pipeline's stage registers. See the module documentation.
#[derive(LogicBlock)]
pub struct ExecutePipe {
    pub clock: Signal<In, Clock>,
    /// the registered reset: empties every stage
    pub reset: Signal<In, Bit>,
    /// the write stage is free: every stage takes the one before it
    pub advance: Signal<In, Bit>,
    /// the table's head enters X this cycle (with `advance`)
    pub enter: Signal<In, Bit>,
    /// the head entry, as `HeadSelect` gives it (`HeadEntryIn`: its kind,
    /// line, bytes, old value (merged), result placement and flags), and
    /// whether it is a read-modify-write
    pub head: HeadEntryIn,
    pub head_rmw: Signal<In, Bit>,
    /// `HeadSelect`'s bypass: the old value is the new value of the older
    /// operation now in X (from X2 next cycle), X2, X3 or W
    pub bypass: [Signal<In, Bit>; 4],
    /// the head's src0 (a scatter block's data), masked to the data built
    pub head_src0: Signal<In, Bits<LINE_BITS>>,
    /// the ALU's results for X's operation: an integer result's two
    /// candidates and condition, the returned value, whether it is a float
    /// op; the float result of the operation in X4
    pub alu_float_op: Signal<In, Bit>,
    pub alu_new_true: Signal<In, Bits<LINE_BITS>>,
    pub alu_new_false: Signal<In, Bits<LINE_BITS>>,
    pub alu_new_cond: Signal<In, Bit>,
    pub alu_ret: Signal<In, Bits<LINE_BITS>>,
    pub alu_float_value: Signal<In, Bits<LINE_BITS>>,

    // ---- the stage registers the rest of the unit reads (their `q`) ----
    pub x_kind_q: Signal<Out, Bits<ENTRY_KIND_BITS>>,
    pub x_writes_q: Signal<Out, Bit>,
    pub x_old_q: Signal<Out, Bits<LINE_BITS>>,
    pub x_from_x2_q: Signal<Out, Bit>,
    pub x_from_w_q: Signal<Out, Bit>,
    pub x2_writes_q: Signal<Out, Bit>,
    pub x2_float_q: Signal<Out, Bit>,
    pub x2_new_true_q: Signal<Out, Bits<LINE_BITS>>,
    pub x2_new_false_q: Signal<Out, Bits<LINE_BITS>>,
    pub x2_new_cond_q: Signal<Out, Bit>,
    pub x3_writes_q: Signal<Out, Bit>,
    pub x3_float_q: Signal<Out, Bit>,
    pub x4_writes_q: Signal<Out, Bit>,
    /// X..X4's lines and bytes, handed to the table's hazard compares
    /// (`AheadStagesOut`, unit/payloads.rs)
    pub ahead: AheadStagesOut,
    /// the write stage W, handed to `MemoryPorts` as one bundle
    /// (`WriteStageOut`, unit/payloads.rs); its bit offset goes to
    /// `WriteAlign` only
    pub w: WriteStageOut,
    pub w_bit_offset_q: Signal<Out, Bits<7>>,

    // ---- execute stage (X): the head entry, merged and cut, in the ALU ----
    x_valid: DFF<Bit>,
    x_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    /// the operation writes memory (read-modify-write or scatter block)
    x_writes: DFF<Bit>,
    x_line: DFF<Bits<ADDR_BITS>>,
    x_space: DFF<Bit>,
    x_bit_offset: DFF<Bits<7>>,
    x_byte_enables: DFF<Bits<LINE_BYTES>>,
    // (the op, type, ftz and operands are the ALU's own operand-stage
    // registers, loaded from the head with these: alu.rs)
    /// the element as memory holds it for this operation (read data,
    /// forwarded bytes, the write stage's write of the cycle it left the
    /// table), or the new value of an older operation on the same element
    /// that was in X2 / X3 then (HeadSelect `bypass[1]`/`[2]`: x2_new / x3_new)
    x_old: DFF<Bits<LINE_BITS>>,
    /// the old value is instead the new value of the older operation on
    /// the same element now in X2 / in the write stage (`bypass[0]`/`[3]`)
    x_from_x2: DFF<Bit>,
    x_from_w: DFF<Bit>,
    /// a scatter block's data (what X2 writes when the entry is not a read-modify-write)
    x_src0: DFF<Bits<LINE_BITS>>,
    x_lane: DFF<Bits<LANE_BITS>>,
    x_elem: DFF<Bits<ELEM_BITS>>,
    x_result_shift: DFF<Bits<7>>,
    x_result_first: DFF<Bit>,
    x_result_last: DFF<Bit>,
    x_msg_last: DFF<Bit>,
    x_error: DFF<Bit>,

    // ---- execute stages X2, X3, X4 (the float pipeline's stages 2, 3, 4) ----
    x2_valid: DFF<Bit>,
    x2_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    x2_writes: DFF<Bit>,
    x2_line: DFF<Bits<ADDR_BITS>>,
    x2_space: DFF<Bit>,
    x2_bit_offset: DFF<Bits<7>>,
    x2_byte_enables: DFF<Bits<LINE_BYTES>>,
    /// a float op: its new value leaves the ALU in X4
    x2_float: DFF<Bit>,
    /// the element written (integer ops, scatter blocks): the ALU's two
    /// candidates and its condition, picked after these registers (X2's
    /// new value, "x2_new" below, is `x2_new_cond ? x2_new_true :
    /// x2_new_false`), so the same-element loop ends at one flip-flop,
    /// `x2_new_cond`, not at 128 behind the pick's mux; and the value returned
    x2_new_true: DFF<Bits<LINE_BITS>>,
    x2_new_false: DFF<Bits<LINE_BITS>>,
    x2_new_cond: DFF<Bit>,
    x2_ret: DFF<Bits<LINE_BITS>>,
    x2_old: DFF<Bits<LINE_BITS>>,
    x2_lane: DFF<Bits<LANE_BITS>>,
    x2_elem: DFF<Bits<ELEM_BITS>>,
    x2_result_shift: DFF<Bits<7>>,
    x2_result_first: DFF<Bit>,
    x2_result_last: DFF<Bit>,
    x2_msg_last: DFF<Bit>,
    x2_error: DFF<Bit>,
    x3_valid: DFF<Bit>,
    x3_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    x3_writes: DFF<Bit>,
    x3_line: DFF<Bits<ADDR_BITS>>,
    x3_space: DFF<Bit>,
    x3_bit_offset: DFF<Bits<7>>,
    x3_byte_enables: DFF<Bits<LINE_BYTES>>,
    /// a float op: its new value leaves the ALU in X4
    x3_float: DFF<Bit>,
    /// the element written (integer ops, scatter blocks) and returned
    x3_new: DFF<Bits<LINE_BITS>>,
    x3_ret: DFF<Bits<LINE_BITS>>,
    x3_old: DFF<Bits<LINE_BITS>>,
    x3_lane: DFF<Bits<LANE_BITS>>,
    x3_elem: DFF<Bits<ELEM_BITS>>,
    x3_result_shift: DFF<Bits<7>>,
    x3_result_first: DFF<Bit>,
    x3_result_last: DFF<Bit>,
    x3_msg_last: DFF<Bit>,
    x3_error: DFF<Bit>,

    x4_valid: DFF<Bit>,
    x4_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    x4_writes: DFF<Bit>,
    x4_line: DFF<Bits<ADDR_BITS>>,
    x4_space: DFF<Bit>,
    x4_bit_offset: DFF<Bits<7>>,
    x4_byte_enables: DFF<Bits<LINE_BYTES>>,
    /// a float op: its new value leaves the ALU in X4
    x4_float: DFF<Bit>,
    /// the element written (integer ops, scatter blocks) and returned
    x4_new: DFF<Bits<LINE_BITS>>,
    x4_ret: DFF<Bits<LINE_BITS>>,
    x4_old: DFF<Bits<LINE_BITS>>,
    x4_lane: DFF<Bits<LANE_BITS>>,
    x4_elem: DFF<Bits<ELEM_BITS>>,
    x4_result_shift: DFF<Bits<7>>,
    x4_result_first: DFF<Bit>,
    x4_result_last: DFF<Bit>,
    x4_msg_last: DFF<Bit>,
    x4_error: DFF<Bit>,

    // ---- write stage (W): the write on mem_wr_*, the result ----
    w_valid: DFF<Bit>,
    w_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    w_writes: DFF<Bit>,
    w_line: DFF<Bits<ADDR_BITS>>,
    w_space: DFF<Bit>,
    w_bit_offset: DFF<Bits<7>>,
    w_byte_enables: DFF<Bits<LINE_BYTES>>,
    /// the element written (the ALU's new value, or the scatter block)
    w_new: DFF<Bits<LINE_BITS>>,
    /// the element returned to the lane (the ALU's returned value)
    w_ret: DFF<Bits<LINE_BITS>>,
    /// the old value the ALU used (for `obs_old`)
    w_old: DFF<Bits<LINE_BITS>>,
    w_lane: DFF<Bits<LANE_BITS>>,
    w_elem: DFF<Bits<ELEM_BITS>>,
    w_result_shift: DFF<Bits<7>>,
    w_result_first: DFF<Bit>,
    w_result_last: DFF<Bit>,
    w_msg_last: DFF<Bit>,
    w_error: DFF<Bit>,

    kind_read_modify_write: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_write: Constant<Bits<ENTRY_KIND_BITS>>,
    /// the float ops are built: X3 and X4 (float stages 3 and 4) are in the
    /// pipeline; without them W takes X2's operation and X3/X4 are unread
    fp_built: Constant<Bit>,
    x_is_rmw: Signal<Local, Bit>,
    /// the head's old value is bypassed from X2 or X3, not the table's
    old_is_bypassed: Signal<Local, Bit>,
    /// that bypassed value: `x2_new` or `x3_new`
    old_bypassed: Signal<Local, Bits<LINE_BITS>>,
}

impl ExecutePipe {
    /// The stages of a build with (`fp_built`) or without the float ops.
    pub fn new(fp_built: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            advance: Default::default(),
            enter: Default::default(),
            head: Default::default(),
            head_rmw: Default::default(),
            bypass: Default::default(),
            head_src0: Default::default(),
            alu_float_op: Default::default(),
            alu_new_true: Default::default(),
            alu_new_false: Default::default(),
            alu_new_cond: Default::default(),
            alu_ret: Default::default(),
            alu_float_value: Default::default(),
            x_kind_q: Default::default(),
            ahead: Default::default(),
            x_writes_q: Default::default(),
            x_old_q: Default::default(),
            x_from_x2_q: Default::default(),
            x_from_w_q: Default::default(),
            x2_writes_q: Default::default(),
            x2_float_q: Default::default(),
            x2_new_true_q: Default::default(),
            x2_new_false_q: Default::default(),
            x2_new_cond_q: Default::default(),
            x3_writes_q: Default::default(),
            x3_float_q: Default::default(),
            x4_writes_q: Default::default(),
            w: Default::default(),
            w_bit_offset_q: Default::default(),
            x_valid: Default::default(),
            x_kind: Default::default(),
            x_writes: Default::default(),
            x_line: Default::default(),
            x_space: Default::default(),
            x_bit_offset: Default::default(),
            x_byte_enables: Default::default(),
            x_old: Default::default(),
            x_from_x2: Default::default(),
            x_from_w: Default::default(),
            x_src0: Default::default(),
            x_lane: Default::default(),
            x_elem: Default::default(),
            x_result_shift: Default::default(),
            x_result_first: Default::default(),
            x_result_last: Default::default(),
            x_msg_last: Default::default(),
            x_error: Default::default(),
            x2_valid: Default::default(),
            x2_kind: Default::default(),
            x2_writes: Default::default(),
            x2_line: Default::default(),
            x2_space: Default::default(),
            x2_bit_offset: Default::default(),
            x2_byte_enables: Default::default(),
            x2_float: Default::default(),
            x2_new_true: Default::default(),
            x2_new_false: Default::default(),
            x2_new_cond: Default::default(),
            x2_ret: Default::default(),
            x2_old: Default::default(),
            x2_lane: Default::default(),
            x2_elem: Default::default(),
            x2_result_shift: Default::default(),
            x2_result_first: Default::default(),
            x2_result_last: Default::default(),
            x2_msg_last: Default::default(),
            x2_error: Default::default(),
            x3_valid: Default::default(),
            x3_kind: Default::default(),
            x3_writes: Default::default(),
            x3_line: Default::default(),
            x3_space: Default::default(),
            x3_bit_offset: Default::default(),
            x3_byte_enables: Default::default(),
            x3_float: Default::default(),
            x3_new: Default::default(),
            x3_ret: Default::default(),
            x3_old: Default::default(),
            x3_lane: Default::default(),
            x3_elem: Default::default(),
            x3_result_shift: Default::default(),
            x3_result_first: Default::default(),
            x3_result_last: Default::default(),
            x3_msg_last: Default::default(),
            x3_error: Default::default(),
            x4_valid: Default::default(),
            x4_kind: Default::default(),
            x4_writes: Default::default(),
            x4_line: Default::default(),
            x4_space: Default::default(),
            x4_bit_offset: Default::default(),
            x4_byte_enables: Default::default(),
            x4_float: Default::default(),
            x4_new: Default::default(),
            x4_ret: Default::default(),
            x4_old: Default::default(),
            x4_lane: Default::default(),
            x4_elem: Default::default(),
            x4_result_shift: Default::default(),
            x4_result_first: Default::default(),
            x4_result_last: Default::default(),
            x4_msg_last: Default::default(),
            x4_error: Default::default(),
            w_valid: Default::default(),
            w_kind: Default::default(),
            w_writes: Default::default(),
            w_line: Default::default(),
            w_space: Default::default(),
            w_bit_offset: Default::default(),
            w_byte_enables: Default::default(),
            w_new: Default::default(),
            w_ret: Default::default(),
            w_old: Default::default(),
            w_lane: Default::default(),
            w_elem: Default::default(),
            w_result_shift: Default::default(),
            w_result_first: Default::default(),
            w_result_last: Default::default(),
            w_msg_last: Default::default(),
            w_error: Default::default(),
            kind_read_modify_write: Constant::new((ENTRY_READ_MODIFY_WRITE as u64).to_bits()),
            kind_write: Constant::new((ENTRY_WRITE as u64).to_bits()),
            fp_built: Constant::new(fp_built),
            x_is_rmw: Default::default(),
            old_is_bypassed: Default::default(),
            old_bypassed: Default::default(),
        }
    }
}

impl Logic for ExecutePipe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            x_valid,
            x_kind,
            x_writes,
            x_line,
            x_space,
            x_bit_offset,
            x_byte_enables,
            x_old,
            x_from_x2,
            x_from_w,
            x_src0,
            x_lane,
            x_elem,
            x_result_shift,
            x_result_first,
            x_result_last,
            x_msg_last,
            x_error,
            x2_valid,
            x2_kind,
            x2_writes,
            x2_line,
            x2_space,
            x2_bit_offset,
            x2_byte_enables,
            x2_float,
            x2_new_true,
            x2_new_false,
            x2_new_cond,
            x2_ret,
            x2_old,
            x2_lane,
            x2_elem,
            x2_result_shift,
            x2_result_first,
            x2_result_last,
            x2_msg_last,
            x2_error,
            x3_valid,
            x3_kind,
            x3_writes,
            x3_line,
            x3_space,
            x3_bit_offset,
            x3_byte_enables,
            x3_float,
            x3_new,
            x3_ret,
            x3_old,
            x3_lane,
            x3_elem,
            x3_result_shift,
            x3_result_first,
            x3_result_last,
            x3_msg_last,
            x3_error,
            x4_valid,
            x4_kind,
            x4_writes,
            x4_line,
            x4_space,
            x4_bit_offset,
            x4_byte_enables,
            x4_float,
            x4_new,
            x4_ret,
            x4_old,
            x4_lane,
            x4_elem,
            x4_result_shift,
            x4_result_first,
            x4_result_last,
            x4_msg_last,
            x4_error,
            w_valid,
            w_kind,
            w_writes,
            w_line,
            w_space,
            w_bit_offset,
            w_byte_enables,
            w_new,
            w_ret,
            w_old,
            w_lane,
            w_elem,
            w_result_shift,
            w_result_first,
            w_result_last,
            w_msg_last,
            w_error
        );
        self.x_kind_q.next = self.x_kind.q.val();
        self.x_writes_q.next = self.x_writes.q.val();
        self.ahead.x_line.next = self.x_line.q.val();
        self.ahead.x_space.next = self.x_space.q.val();
        self.ahead.x_byte_enables.next = self.x_byte_enables.q.val();
        self.x_old_q.next = self.x_old.q.val();
        self.x_from_x2_q.next = self.x_from_x2.q.val();
        self.x_from_w_q.next = self.x_from_w.q.val();
        self.x2_writes_q.next = self.x2_writes.q.val();
        self.ahead.x2_line.next = self.x2_line.q.val();
        self.ahead.x2_space.next = self.x2_space.q.val();
        self.ahead.x2_byte_enables.next = self.x2_byte_enables.q.val();
        self.x2_float_q.next = self.x2_float.q.val();
        self.x2_new_true_q.next = self.x2_new_true.q.val();
        self.x2_new_false_q.next = self.x2_new_false.q.val();
        self.x2_new_cond_q.next = self.x2_new_cond.q.val();
        self.x3_writes_q.next = self.x3_writes.q.val();
        self.ahead.x3_line.next = self.x3_line.q.val();
        self.ahead.x3_space.next = self.x3_space.q.val();
        self.ahead.x3_byte_enables.next = self.x3_byte_enables.q.val();
        self.x3_float_q.next = self.x3_float.q.val();
        self.x4_writes_q.next = self.x4_writes.q.val();
        self.ahead.x4_line.next = self.x4_line.q.val();
        self.ahead.x4_space.next = self.x4_space.q.val();
        self.ahead.x4_byte_enables.next = self.x4_byte_enables.q.val();
        self.w.valid.next = self.w_valid.q.val();
        self.w.kind.next = self.w_kind.q.val();
        self.w.writes.next = self.w_writes.q.val();
        self.w.line.next = self.w_line.q.val();
        self.w.space.next = self.w_space.q.val();
        self.w_bit_offset_q.next = self.w_bit_offset.q.val();
        self.w.byte_enables.next = self.w_byte_enables.q.val();
        self.w.new.next = self.w_new.q.val();
        self.w.ret.next = self.w_ret.q.val();
        self.w.old.next = self.w_old.q.val();
        self.w.lane.next = self.w_lane.q.val();
        self.w.elem.next = self.w_elem.q.val();
        self.w.result_shift.next = self.w_result_shift.q.val();
        self.w.result_first.next = self.w_result_first.q.val();
        self.w.result_last.next = self.w_result_last.q.val();
        self.w.msg_last.next = self.w_msg_last.q.val();
        self.w.error.next = self.w_error.q.val();

        // ================= execute stages -> write stage =================
        self.x_is_rmw.next = self.x_kind.q.val() == self.kind_read_modify_write.val();
        if self.advance.val() {
            // X4 -> W: a float op's value leaves the ALU's stage 4 now
            self.w_valid.d.next = self.x4_valid.q.val();
            self.w_writes.d.next = self.x4_valid.q.val() & self.x4_writes.q.val();
            self.w_kind.d.next = self.x4_kind.q.val();
            self.w_line.d.next = self.x4_line.q.val();
            self.w_space.d.next = self.x4_space.q.val();
            self.w_bit_offset.d.next = self.x4_bit_offset.q.val();
            self.w_byte_enables.d.next = self.x4_byte_enables.q.val();
            self.w_new.d.next = self.x4_new.q.val();
            if self.x4_float.q.val() {
                self.w_new.d.next = self.alu_float_value.val();
            }
            self.w_ret.d.next = self.x4_ret.q.val();
            self.w_old.d.next = self.x4_old.q.val();
            self.w_lane.d.next = self.x4_lane.q.val();
            self.w_elem.d.next = self.x4_elem.q.val();
            self.w_result_shift.d.next = self.x4_result_shift.q.val();
            self.w_result_first.d.next = self.x4_result_first.q.val();
            self.w_result_last.d.next = self.x4_result_last.q.val();
            self.w_msg_last.d.next = self.x4_msg_last.q.val();
            self.w_error.d.next = self.x4_error.q.val();
            if !self.fp_built.val() {
                // an integer build: X2 -> W (X3 and X4 only delay float results)
                self.w_valid.d.next = self.x2_valid.q.val();
                self.w_writes.d.next = self.x2_valid.q.val() & self.x2_writes.q.val();
                self.w_kind.d.next = self.x2_kind.q.val();
                self.w_line.d.next = self.x2_line.q.val();
                self.w_space.d.next = self.x2_space.q.val();
                self.w_bit_offset.d.next = self.x2_bit_offset.q.val();
                self.w_byte_enables.d.next = self.x2_byte_enables.q.val();
                self.w_new.d.next = self.x2_new_false.q.val();
                if self.x2_new_cond.q.val() {
                    self.w_new.d.next = self.x2_new_true.q.val();
                }
                self.w_ret.d.next = self.x2_ret.q.val();
                self.w_old.d.next = self.x2_old.q.val();
                self.w_lane.d.next = self.x2_lane.q.val();
                self.w_elem.d.next = self.x2_elem.q.val();
                self.w_result_shift.d.next = self.x2_result_shift.q.val();
                self.w_result_first.d.next = self.x2_result_first.q.val();
                self.w_result_last.d.next = self.x2_result_last.q.val();
                self.w_msg_last.d.next = self.x2_msg_last.q.val();
                self.w_error.d.next = self.x2_error.q.val();
            }
            self.x4_valid.d.next = self.x3_valid.q.val();
            self.x4_kind.d.next = self.x3_kind.q.val();
            self.x4_writes.d.next = self.x3_valid.q.val() & self.x3_writes.q.val();
            self.x4_line.d.next = self.x3_line.q.val();
            self.x4_space.d.next = self.x3_space.q.val();
            self.x4_bit_offset.d.next = self.x3_bit_offset.q.val();
            self.x4_byte_enables.d.next = self.x3_byte_enables.q.val();
            self.x4_float.d.next = self.x3_float.q.val();
            self.x4_new.d.next = self.x3_new.q.val();
            self.x4_ret.d.next = self.x3_ret.q.val();
            self.x4_old.d.next = self.x3_old.q.val();
            self.x4_lane.d.next = self.x3_lane.q.val();
            self.x4_elem.d.next = self.x3_elem.q.val();
            self.x4_result_shift.d.next = self.x3_result_shift.q.val();
            self.x4_result_first.d.next = self.x3_result_first.q.val();
            self.x4_result_last.d.next = self.x3_result_last.q.val();
            self.x4_msg_last.d.next = self.x3_msg_last.q.val();
            self.x4_error.d.next = self.x3_error.q.val();
            self.x3_valid.d.next = self.x2_valid.q.val();
            self.x3_kind.d.next = self.x2_kind.q.val();
            self.x3_writes.d.next = self.x2_valid.q.val() & self.x2_writes.q.val();
            self.x3_line.d.next = self.x2_line.q.val();
            self.x3_space.d.next = self.x2_space.q.val();
            self.x3_bit_offset.d.next = self.x2_bit_offset.q.val();
            self.x3_byte_enables.d.next = self.x2_byte_enables.q.val();
            self.x3_float.d.next = self.x2_float.q.val();
            self.x3_new.d.next = self.x2_new_false.q.val();
            if self.x2_new_cond.q.val() {
                self.x3_new.d.next = self.x2_new_true.q.val();
            }
            self.x3_ret.d.next = self.x2_ret.q.val();
            self.x3_old.d.next = self.x2_old.q.val();
            self.x3_lane.d.next = self.x2_lane.q.val();
            self.x3_elem.d.next = self.x2_elem.q.val();
            self.x3_result_shift.d.next = self.x2_result_shift.q.val();
            self.x3_result_first.d.next = self.x2_result_first.q.val();
            self.x3_result_last.d.next = self.x2_result_last.q.val();
            self.x3_msg_last.d.next = self.x2_msg_last.q.val();
            self.x3_error.d.next = self.x2_error.q.val();
            // X -> X2: the integer result (or the scatter block) and the returned value
            self.x2_valid.d.next = self.x_valid.q.val();
            self.x2_writes.d.next = self.x_valid.q.val() & self.x_writes.q.val();
            self.x2_kind.d.next = self.x_kind.q.val();
            self.x2_line.d.next = self.x_line.q.val();
            self.x2_space.d.next = self.x_space.q.val();
            self.x2_bit_offset.d.next = self.x_bit_offset.q.val();
            self.x2_byte_enables.d.next = self.x_byte_enables.q.val();
            self.x2_float.d.next = self.x_is_rmw.val() & self.alu_float_op.val();
            self.x2_new_true.d.next = self.x_src0.q.val();
            self.x2_new_false.d.next = self.x_src0.q.val();
            if self.x_is_rmw.val() {
                self.x2_new_true.d.next = self.alu_new_true.val();
                self.x2_new_false.d.next = self.alu_new_false.val();
            }
            self.x2_new_cond.d.next = self.alu_new_cond.val();
            self.x2_ret.d.next = self.alu_ret.val();
            self.x2_old.d.next = self.x_old.q.val();
            if self.x_from_x2.q.val() & !self.x2_new_cond.q.val() {
                self.x2_old.d.next = self.x2_new_false.q.val();
            }
            if self.x_from_x2.q.val() & self.x2_new_cond.q.val() {
                self.x2_old.d.next = self.x2_new_true.q.val();
            }
            if self.x_from_w.q.val() {
                self.x2_old.d.next = self.w_new.q.val();
            }
            self.x2_lane.d.next = self.x_lane.q.val();
            self.x2_elem.d.next = self.x_elem.q.val();
            self.x2_result_shift.d.next = self.x_result_shift.q.val();
            self.x2_result_first.d.next = self.x_result_first.q.val();
            self.x2_result_last.d.next = self.x_result_last.q.val();
            self.x2_msg_last.d.next = self.x_msg_last.q.val();
            self.x2_error.d.next = self.x_error.q.val();
        }
        // the head's old value: from the table, or bypassed from X2 / X3
        // (`HeadSelect` sets at most one bypass): the bypass pick between X2
        // and X3 is made beside the table's 8-way mux and meets it in one
        // 2:1 mux. (An AND-OR over three 128-bit masks had the same timing
        // and mapped to about 2,000 more ECP5 LUTs; docs/synthesis.md.)
        self.old_is_bypassed.next = self.head_rmw.val() & (self.bypass[1].val() | self.bypass[2].val());
        self.old_bypassed.next = self.x2_new_false.q.val();
        if self.x2_new_cond.q.val() {
            self.old_bypassed.next = self.x2_new_true.q.val();
        }
        if self.bypass[2].val() {
            self.old_bypassed.next = self.x3_new.q.val();
        }
        if self.advance.val() {
            self.x_valid.d.next = self.enter.val();
            self.x_writes.d.next = self.enter.val()
                & (self.head_rmw.val() | (self.head.kind.val() == self.kind_write.val()));
            self.x_kind.d.next = self.head.kind.val();
            self.x_line.d.next = self.head.line.val();
            self.x_space.d.next = self.head.space.val();
            self.x_bit_offset.d.next = self.head.bit_offset.val();
            self.x_byte_enables.d.next = self.head.byte_enables.val();
            // bypass from X2 / X3: their values are in x2_new / x3_new now
            self.x_old.d.next = self.head.old.val();
            if self.old_is_bypassed.val() {
                self.x_old.d.next = self.old_bypassed.val();
            }
            self.x_from_x2.d.next = self.head_rmw.val() & self.bypass[0].val();
            self.x_from_w.d.next = self.head_rmw.val() & self.bypass[3].val();
            self.x_src0.d.next = self.head_src0.val();
            self.x_lane.d.next = self.head.lane.val();
            self.x_elem.d.next = self.head.elem.val();
            self.x_result_shift.d.next = self.head.result_shift.val();
            self.x_result_first.d.next = self.head.result_first.val();
            self.x_result_last.d.next = self.head.result_last.val();
            self.x_msg_last.d.next = self.head.msg_last.val();
            self.x_error.d.next = self.head.error.val();
        }
        if self.reset.val() {
            self.x_valid.d.next = false;
            self.x_writes.d.next = false;
            self.x2_valid.d.next = false;
            self.x2_writes.d.next = false;
            self.x3_valid.d.next = false;
            self.x3_writes.d.next = false;
            self.x4_valid.d.next = false;
            self.x4_writes.d.next = false;
            self.w_valid.d.next = false;
            self.w_writes.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn execute_pipe_synthesizes() {
        for fp_built in [false, true] {
            let mut uut = ExecutePipe::new(fp_built);
            uut.connect_all();
            yosys_validate("atomport_execute_pipe", &generate_verilog(&uut)).unwrap();
        }
    }
}
