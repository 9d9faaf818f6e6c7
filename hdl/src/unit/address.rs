//! `AddressPipe`: the address pipeline's stage registers, the address
//! stage T, the line stage L and the allocate stage A, and the blocks that
//! work on them (docs/microarchitecture.md "Front end", "Address
//! generation").
//!
//! T takes the issue stage's element (the bundle `i`, `IssueElemIn`, and
//! its operands `issue_src0`/`issue_src1`, when `t_accepts`): the
//! typed address's second multiply as partial products (`AddrMul`) and the
//! SLM / buffer bounds check (`BoundsCheck`); L sums the partial products
//! into the typed address and forms line and byte enables (`AddrFinish`);
//! A holds the entry the table allocates, handed to it as the bundle `a`
//! (`AllocStageOut`). The stall decisions (`*_accepts`)
//! are the unit's: they come in.
//!
//! Every output is a register's output, or `AddrFinish`'s on L's registers:
//! no combinational path from an input to an output, so the unit may feed
//! these inputs from logic that reads the outputs without a loop
//! (Verilator `UNOPTFLAT`).

use rust_hdl::prelude::*;

use super::payloads::{AllocStageOut, IssueElemIn};
use crate::addr_finish::AddrFinish;
use crate::addr_mul::{AddrMul, P0_BITS, P16_BITS, P32_BITS, P48_BITS};
use crate::bounds_check::BoundsCheck;
use crate::head_select::{ENTRY_KIND_BITS, ENTRY_NO_MEMORY};
use crate::widths::{ADDR_BITS, ELEM_BITS, LANE_BITS, LINE_BITS, LINE_BYTES, SIZE_BITS};
use atomport_isa::{ALU_OP_BITS, ALU_TY_BITS};

/// The address pipeline's stage registers. See the module documentation.
#[derive(LogicBlock)]
pub struct AddressPipe {
    pub clock: Signal<In, Clock>,
    /// the registered reset: empties every stage
    pub reset: Signal<In, Bit>,
    /// T / L / A takes the stage before it (or empties) this cycle
    pub t_accepts: Signal<In, Bit>,
    pub l_accepts: Signal<In, Bit>,
    pub a_accepts: Signal<In, Bit>,
    /// the issue stage's element (or walk step, or marker) as T takes it
    /// (`IssueElemIn`, unit/payloads.rs), and its operands
    pub i: IssueElemIn,
    pub issue_src0: Signal<In, Bits<LINE_BITS>>,
    pub issue_src1: Signal<In, Bits<LINE_BITS>>,

    // ---- the stage registers the rest of the unit reads (their `q`) ----
    pub t_valid_q: Signal<Out, Bit>,
    pub t_walk_q: Signal<Out, Bit>,
    pub l_valid_q: Signal<Out, Bit>,
    pub l_walk_q: Signal<Out, Bit>,
    pub a_valid_q: Signal<Out, Bit>,
    /// A's entry, handed to the table (`AllocStageOut`, unit/payloads.rs)
    pub a: AllocStageOut,
    /// a typed walk step's result in L: the walk's next `level_base`
    pub l_index: Signal<Out, Bits<64>>,

    addr_mul: AddrMul,
    addr_finish: AddrFinish,
    bounds_check: BoundsCheck,
    kind_no_memory: Constant<Bits<ENTRY_KIND_BITS>>,
    /// T's kind: `t_kind`, or no memory access when out of bounds
    t_kind_checked: Signal<Local, Bits<ENTRY_KIND_BITS>>,

    // ---- address stage (T): the typed address's second multiply (partial products), the bounds check ----
    /// an element is in the address stage
    t_valid: DFF<Bit>,
    /// a typed walk step is in the address stage: its `index` is the walk's next `level_base`
    t_walk: DFF<Bit>,
    /// TYPED_ATOMIC: the address is `AddrFinish`'s typed address
    t_typed: DFF<Bit>,
    /// the element's byte address (`AddrGen`; not TYPED_ATOMIC)
    t_addr: DFF<Bits<ADDR_BITS>>,
    /// the typed step's operands (`TypedAddr`)
    t_walk_first: DFF<Bits<64>>,
    t_lane_first: DFF<Bits<64>>,
    t_at_lod: DFF<Bit>,
    t_second_b: DFF<Bits<32>>,
    /// the typed step's addend: a walk or bulk step's (`t_walk_c`) and the
    /// lane's at lod (`t_lod_c`), both computed in I; L takes the one
    /// `t_at_lod` picks (the lod compare is not in series with I's adders)
    t_walk_c: DFF<Bits<64>>,
    t_lod_c: DFF<Bits<64>>,
    /// the message's typed element size (the issue stage's `ctx_*` move on to the next message)
    t_surf_u16: DFF<Bit>,
    /// the entry's kind and fields, as the table holds them (the kind
    /// before the bounds check, which is T's: `bounds_check`)
    t_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    /// the bounds check's operands (`AddrGen`)
    t_checks_bounds: DFF<Bit>,
    t_bounded_offset: DFF<Bits<ADDR_BITS>>,
    /// the bound less the element's bytes, and whether the bound is below
    /// them (`BoundsCheck`'s two operands from the issue stage)
    t_last_start: DFF<Bits<ADDR_BITS>>,
    t_bound_small: DFF<Bit>,
    t_space: DFF<Bit>,
    t_size: DFF<Bits<SIZE_BITS>>,
    t_op: DFF<Bits<ALU_OP_BITS>>,
    t_ty: DFF<Bits<ALU_TY_BITS>>,
    t_ftz: DFF<Bit>,
    t_src0: DFF<Bits<LINE_BITS>>,
    t_src1: DFF<Bits<LINE_BITS>>,
    t_lane: DFF<Bits<LANE_BITS>>,
    t_elem: DFF<Bits<ELEM_BITS>>,
    t_result_shift: DFF<Bits<7>>,
    t_result_first: DFF<Bit>,
    t_result_last: DFF<Bit>,
    t_msg_last: DFF<Bit>,
    t_error: DFF<Bit>,

    // ---- line stage (L): the typed address's partial products summed, the line ----
    /// an element is in the line stage
    l_valid: DFF<Bit>,
    /// a typed walk step is in the line stage: its `index` is the walk's next `level_base`
    l_walk: DFF<Bit>,
    /// TYPED_ATOMIC: the address is `AddrFinish`'s typed address
    l_typed: DFF<Bit>,
    /// the element's byte address (`AddrGen`; not TYPED_ATOMIC)
    l_addr: DFF<Bits<ADDR_BITS>>,
    /// the typed step's `first * d` as digit products summed by weight (`AddrMul`), and `e`
    l_p0: DFF<Bits<P0_BITS>>,
    l_p16: DFF<Bits<P16_BITS>>,
    l_p32: DFF<Bits<P32_BITS>>,
    l_p48: DFF<Bits<P48_BITS>>,
    l_second_c: DFF<Bits<64>>,
    /// the entry's kind (after T's bounds check) and fields, as the table holds them
    l_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    l_space: DFF<Bit>,
    l_size: DFF<Bits<SIZE_BITS>>,
    l_op: DFF<Bits<ALU_OP_BITS>>,
    l_ty: DFF<Bits<ALU_TY_BITS>>,
    l_ftz: DFF<Bit>,
    l_src0: DFF<Bits<LINE_BITS>>,
    l_src1: DFF<Bits<LINE_BITS>>,
    l_lane: DFF<Bits<LANE_BITS>>,
    l_elem: DFF<Bits<ELEM_BITS>>,
    l_result_shift: DFF<Bits<7>>,
    l_result_first: DFF<Bit>,
    l_result_last: DFF<Bit>,
    l_msg_last: DFF<Bit>,
    l_error: DFF<Bit>,

    // ---- allocate stage (A): the table entry and its read, from registers ----
    /// an element waits to enter the table (and send its read)
    a_valid: DFF<Bit>,
    a_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    /// its line, byte lane and byte enables (`AddrFinish`)
    a_line: DFF<Bits<ADDR_BITS>>,
    a_space: DFF<Bit>,
    a_bit_offset: DFF<Bits<7>>,
    a_byte_enables: DFF<Bits<LINE_BYTES>>,
    /// the entry's other fields, as the table holds them
    a_size: DFF<Bits<SIZE_BITS>>,
    a_op: DFF<Bits<ALU_OP_BITS>>,
    a_ty: DFF<Bits<ALU_TY_BITS>>,
    a_ftz: DFF<Bit>,
    a_src0: DFF<Bits<LINE_BITS>>,
    a_src1: DFF<Bits<LINE_BITS>>,
    a_lane: DFF<Bits<LANE_BITS>>,
    a_elem: DFF<Bits<ELEM_BITS>>,
    a_result_shift: DFF<Bits<7>>,
    a_result_first: DFF<Bit>,
    a_result_last: DFF<Bit>,
    a_msg_last: DFF<Bit>,
    a_error: DFF<Bit>,
}

impl Default for AddressPipe {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            t_accepts: Default::default(),
            l_accepts: Default::default(),
            a_accepts: Default::default(),
            i: Default::default(),
            issue_src0: Default::default(),
            issue_src1: Default::default(),
            t_valid_q: Default::default(),
            t_walk_q: Default::default(),
            l_valid_q: Default::default(),
            l_walk_q: Default::default(),
            a_valid_q: Default::default(),
            a: Default::default(),
            l_index: Default::default(),
            addr_mul: Default::default(),
            addr_finish: Default::default(),
            bounds_check: Default::default(),
            kind_no_memory: Constant::new((ENTRY_NO_MEMORY as u64).to_bits()),
            t_kind_checked: Default::default(),
            t_valid: Default::default(),
            t_walk: Default::default(),
            t_typed: Default::default(),
            t_addr: Default::default(),
            t_walk_first: Default::default(),
            t_lane_first: Default::default(),
            t_at_lod: Default::default(),
            t_second_b: Default::default(),
            t_walk_c: Default::default(),
            t_lod_c: Default::default(),
            t_surf_u16: Default::default(),
            t_kind: Default::default(),
            t_checks_bounds: Default::default(),
            t_bounded_offset: Default::default(),
            t_last_start: Default::default(),
            t_bound_small: Default::default(),
            t_space: Default::default(),
            t_size: Default::default(),
            t_op: Default::default(),
            t_ty: Default::default(),
            t_ftz: Default::default(),
            t_src0: Default::default(),
            t_src1: Default::default(),
            t_lane: Default::default(),
            t_elem: Default::default(),
            t_result_shift: Default::default(),
            t_result_first: Default::default(),
            t_result_last: Default::default(),
            t_msg_last: Default::default(),
            t_error: Default::default(),
            l_valid: Default::default(),
            l_walk: Default::default(),
            l_typed: Default::default(),
            l_addr: Default::default(),
            l_p0: Default::default(),
            l_p16: Default::default(),
            l_p32: Default::default(),
            l_p48: Default::default(),
            l_second_c: Default::default(),
            l_kind: Default::default(),
            l_space: Default::default(),
            l_size: Default::default(),
            l_op: Default::default(),
            l_ty: Default::default(),
            l_ftz: Default::default(),
            l_src0: Default::default(),
            l_src1: Default::default(),
            l_lane: Default::default(),
            l_elem: Default::default(),
            l_result_shift: Default::default(),
            l_result_first: Default::default(),
            l_result_last: Default::default(),
            l_msg_last: Default::default(),
            l_error: Default::default(),
            a_valid: Default::default(),
            a_kind: Default::default(),
            a_line: Default::default(),
            a_space: Default::default(),
            a_bit_offset: Default::default(),
            a_byte_enables: Default::default(),
            a_size: Default::default(),
            a_op: Default::default(),
            a_ty: Default::default(),
            a_ftz: Default::default(),
            a_src0: Default::default(),
            a_src1: Default::default(),
            a_lane: Default::default(),
            a_elem: Default::default(),
            a_result_shift: Default::default(),
            a_result_first: Default::default(),
            a_result_last: Default::default(),
            a_msg_last: Default::default(),
            a_error: Default::default(),
        }
    }
}

impl Logic for AddressPipe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            t_valid,
            t_walk,
            t_typed,
            t_addr,
            t_walk_first,
            t_lane_first,
            t_at_lod,
            t_second_b,
            t_walk_c,
            t_lod_c,
            t_surf_u16,
            t_kind,
            t_checks_bounds,
            t_bounded_offset,
            t_last_start,
            t_bound_small,
            t_space,
            t_size,
            t_op,
            t_ty,
            t_ftz,
            t_src0,
            t_src1,
            t_lane,
            t_elem,
            t_result_shift,
            t_result_first,
            t_result_last,
            t_msg_last,
            t_error,
            l_valid,
            l_walk,
            l_typed,
            l_addr,
            l_p0,
            l_p16,
            l_p32,
            l_p48,
            l_second_c,
            l_kind,
            l_space,
            l_size,
            l_op,
            l_ty,
            l_ftz,
            l_src0,
            l_src1,
            l_lane,
            l_elem,
            l_result_shift,
            l_result_first,
            l_result_last,
            l_msg_last,
            l_error,
            a_valid,
            a_kind,
            a_line,
            a_space,
            a_bit_offset,
            a_byte_enables,
            a_size,
            a_op,
            a_ty,
            a_ftz,
            a_src0,
            a_src1,
            a_lane,
            a_elem,
            a_result_shift,
            a_result_first,
            a_result_last,
            a_msg_last,
            a_error
        );
        self.t_valid_q.next = self.t_valid.q.val();
        self.t_walk_q.next = self.t_walk.q.val();
        self.l_valid_q.next = self.l_valid.q.val();
        self.l_walk_q.next = self.l_walk.q.val();
        self.a_valid_q.next = self.a_valid.q.val();
        self.a.kind.next = self.a_kind.q.val();
        self.a.line.next = self.a_line.q.val();
        self.a.space.next = self.a_space.q.val();
        self.a.bit_offset.next = self.a_bit_offset.q.val();
        self.a.byte_enables.next = self.a_byte_enables.q.val();
        self.a.size.next = self.a_size.q.val();
        self.a.op.next = self.a_op.q.val();
        self.a.ty.next = self.a_ty.q.val();
        self.a.ftz.next = self.a_ftz.q.val();
        self.a.src0.next = self.a_src0.q.val();
        self.a.src1.next = self.a_src1.q.val();
        self.a.lane.next = self.a_lane.q.val();
        self.a.elem.next = self.a_elem.q.val();
        self.a.result_shift.next = self.a_result_shift.q.val();
        self.a.result_first.next = self.a_result_first.q.val();
        self.a.result_last.next = self.a_result_last.q.val();
        self.a.msg_last.next = self.a_msg_last.q.val();
        self.a.error.next = self.a_error.q.val();
        self.l_index.next = self.addr_finish.index.val();

        // the address stage T, on its registers
        self.bounds_check.checked.next = self.t_checks_bounds.q.val();
        self.bounds_check.offset.next = self.t_bounded_offset.q.val();
        self.bounds_check.last_start.next = self.t_last_start.q.val();
        self.bounds_check.bound_small.next = self.t_bound_small.q.val();
        self.addr_mul.walk_first.next = self.t_walk_first.q.val();
        self.addr_mul.lane_first.next = self.t_lane_first.q.val();
        self.addr_mul.at_lod.next = self.t_at_lod.q.val();
        self.addr_mul.surf_u16.next = self.t_surf_u16.q.val();
        self.addr_mul.second_b.next = self.t_second_b.q.val();
        // the line stage L, on its registers
        self.addr_finish.typed.next = self.l_typed.q.val();
        self.addr_finish.addr.next = self.l_addr.q.val();
        self.addr_finish.elem_size.next = self.l_size.q.val();
        self.addr_finish.p0.next = self.l_p0.q.val();
        self.addr_finish.p16.next = self.l_p16.q.val();
        self.addr_finish.p32.next = self.l_p32.q.val();
        self.addr_finish.p48.next = self.l_p48.q.val();
        self.addr_finish.second_c.next = self.l_second_c.q.val();

        // ================= line (L) -> allocate =================
        if self.a_accepts.val() {
            self.a_valid.d.next = self.l_valid.q.val();
            self.a_kind.d.next = self.l_kind.q.val();
            self.a_line.d.next = self.addr_finish.line.val();
            self.a_space.d.next = self.l_space.q.val();
            self.a_bit_offset.d.next = self.addr_finish.bit_offset.val();
            self.a_byte_enables.d.next = self.addr_finish.byte_enables.val();
            self.a_size.d.next = self.l_size.q.val();
            self.a_op.d.next = self.l_op.q.val();
            self.a_ty.d.next = self.l_ty.q.val();
            self.a_ftz.d.next = self.l_ftz.q.val();
            self.a_src0.d.next = self.l_src0.q.val();
            self.a_src1.d.next = self.l_src1.q.val();
            self.a_lane.d.next = self.l_lane.q.val();
            self.a_elem.d.next = self.l_elem.q.val();
            self.a_result_shift.d.next = self.l_result_shift.q.val();
            self.a_result_first.d.next = self.l_result_first.q.val();
            self.a_result_last.d.next = self.l_result_last.q.val();
            self.a_msg_last.d.next = self.l_msg_last.q.val();
            self.a_error.d.next = self.l_error.q.val();
        }

        // ================= address (T) -> line (L) =================
        // T's bounds check (SLM, buffer): an access past the bound touches no memory
        self.t_kind_checked.next = self.t_kind.q.val();
        if self.bounds_check.out_of_bounds.val() {
            self.t_kind_checked.next = self.kind_no_memory.val();
        }

        if self.l_accepts.val() {
            self.l_valid.d.next = self.t_valid.q.val();
            self.l_walk.d.next = self.t_walk.q.val();
            self.l_typed.d.next = self.t_typed.q.val();
            self.l_addr.d.next = self.t_addr.q.val();
            self.l_p0.d.next = self.addr_mul.p0.val();
            self.l_p16.d.next = self.addr_mul.p16.val();
            self.l_p32.d.next = self.addr_mul.p32.val();
            self.l_p48.d.next = self.addr_mul.p48.val();
            self.l_second_c.d.next = self.t_walk_c.q.val();
            if self.t_at_lod.q.val() {
                self.l_second_c.d.next = self.t_lod_c.q.val();
            }
            self.l_kind.d.next = self.t_kind_checked.val();
            self.l_space.d.next = self.t_space.q.val();
            self.l_size.d.next = self.t_size.q.val();
            self.l_op.d.next = self.t_op.q.val();
            self.l_ty.d.next = self.t_ty.q.val();
            self.l_ftz.d.next = self.t_ftz.q.val();
            self.l_src0.d.next = self.t_src0.q.val();
            self.l_src1.d.next = self.t_src1.q.val();
            self.l_lane.d.next = self.t_lane.q.val();
            self.l_elem.d.next = self.t_elem.q.val();
            self.l_result_shift.d.next = self.t_result_shift.q.val();
            self.l_result_first.d.next = self.t_result_first.q.val();
            self.l_result_last.d.next = self.t_result_last.q.val();
            self.l_msg_last.d.next = self.t_msg_last.q.val();
            self.l_error.d.next = self.t_error.q.val();
        }
        // ================= issue -> address (T) =================
        if self.t_accepts.val() {
            self.t_valid.d.next = self.i.valid.val();
            self.t_walk.d.next = self.i.walk.val();
            self.t_typed.d.next = self.i.typed.val();
            self.t_addr.d.next = self.i.addr.val();
            self.t_walk_first.d.next = self.i.walk_first.val();
            self.t_lane_first.d.next = self.i.lane_first.val();
            self.t_at_lod.d.next = self.i.at_lod.val();
            self.t_second_b.d.next = self.i.second_b.val();
            self.t_walk_c.d.next = self.i.walk_c.val();
            self.t_lod_c.d.next = self.i.lod_c.val();
            self.t_surf_u16.d.next = self.i.surf_u16.val();
            self.t_kind.d.next = self.i.kind.val();
            self.t_checks_bounds.d.next = self.i.checks_bounds.val();
            self.t_bounded_offset.d.next = self.i.bounded_offset.val();
            self.t_last_start.d.next = self.i.last_start.val();
            self.t_bound_small.d.next = self.i.bound_small.val();
            self.t_space.d.next = self.i.space.val();
            self.t_size.d.next = self.i.size.val();
            self.t_op.d.next = self.i.op.val();
            self.t_ty.d.next = self.i.ty.val();
            self.t_ftz.d.next = self.i.ftz.val();
            self.t_src0.d.next = self.issue_src0.val();
            self.t_src1.d.next = self.issue_src1.val();
            self.t_lane.d.next = self.i.lane.val();
            self.t_elem.d.next = self.i.elem.val();
            self.t_result_shift.d.next = self.i.result_shift.val();
            self.t_result_first.d.next = self.i.result_first.val();
            self.t_result_last.d.next = self.i.result_last.val();
            self.t_msg_last.d.next = self.i.msg_last.val();
            self.t_error.d.next = self.i.error.val();
        }
        if self.reset.val() {
            self.t_valid.d.next = false;
            self.t_walk.d.next = false;
            self.l_valid.d.next = false;
            self.l_walk.d.next = false;
            self.a_valid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_pipe_synthesizes() {
        let mut uut = AddressPipe::default();
        uut.connect_all();
        yosys_validate("atomport_address_pipe", &generate_verilog(&uut)).unwrap();
    }
}
