//! `HeadSelect`: the oldest entry of the unit's in-flight table (its head),
//! from the unit's head registers (`hq_*`: line, space, bytes, bit offset,
//! size, valid, kind, and `HeadLine`'s copy of its line and returned flag;
//! the one-bit fields through 8:1 muxes at `head`), with the
//! write stage's write merged into its line and cut down to the element: the ALU's
//! old value and op and everything the retire stage needs (the operands
//! `src0`/`src1` are read at the same index from the unit's `EntryRam`s).
//!
//! Forwarding (docs/microarchitecture.md "Same-address hazards"): each
//! entry's `data` already holds the bytes of every older write that memory
//! accepted after this entry's read, merged with the read data by the unit
//! (the read data fills only the bytes not forwarded) one cycle after the
//! write was on the port, so the head's line is its `data` with that
//! cycle's push merged (below).
//!
//! The head leaves the table into the unit's execute stage (`x_*`
//! registers) before the older operations ahead of it have written memory,
//! so three more sources of bytes are checked here (docs/microarchitecture.md
//! "Execute pipeline", "Forwarding paths"):
//! * last cycle's write on the memory port (`push_*`), which the unit
//!   pushes into the entries on its line one cycle after it was on the
//!   port (its line compares end at flip-flops, `head.pushed`): a head
//!   leaving in that cycle merges its bytes here;
//! * the *write stage*'s operation (`late_*`), whose write memory accepts
//!   in the cycle the head leaves (its push into the table comes one edge
//!   too late for the head): its bytes are merged into the head's line;
//! * the operations in the execute stages X, X2, X3, X4 (`ahead_*[0..3]`,
//!   youngest first; an integer build has no X3 and X4 and holds their
//!   `ahead_writes` at zero), whose writes have not left yet; whether each
//!   touches the head's bytes comes in compared a cycle ahead
//!   (`ahead_overlaps`, `ahead_same_bytes`: the unit's `hz_*` registers,
//!   `HazardCompare`), so the head's leave decision starts at flip-flops. The youngest of them
//!   that writes any of the head's bytes decides: when it writes exactly
//!   the head's bytes and its value will be in a register when the head is
//!   in X (`ahead_ready`: an integer result, or any result one stage before
//!   the write stage), the head takes that value (`bypass[k]`: from the
//!   stage after k, next cycle); otherwise the head waits (`hazard`).

use rust_hdl::prelude::*;

use atomport_isa::{ALU_OP_BITS, ALU_TY_BITS};

use crate::widths::{ADDR_BITS, ELEM_BITS, LANE_BITS, LINE_BITS, LINE_BYTES, SIZE_BITS, WORD_BITS};
use crate::word_join::{WordJoin, WORDS};

/// Entries of the in-flight table.
pub const INFLIGHT_DEPTH: usize = 8;
/// Bits of a table index.
pub const INFLIGHT_INDEX_BITS: usize = 3;
/// Bits of an entry kind.
pub const ENTRY_KIND_BITS: usize = 2;
/// Entry kinds.
pub const ENTRY_MARKER: u8 = 0;
pub const ENTRY_NO_MEMORY: u8 = 1;
pub const ENTRY_READ_MODIFY_WRITE: u8 = 2;
pub const ENTRY_WRITE: u8 = 3;
/// Execute stages between the table and the write stage (X, X2, X3, X4).
pub const AHEAD_STAGES: usize = 4;

/// The head entry as `HeadSelect` hands it to the execute stage X
/// (`ExecutePipe`'s `head`), declared once as a `LogicInterface` pair
/// joined by the unit in one line (like unit/payloads.rs): its kind, line,
/// bytes, old value (merged), result placement and flags.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "HeadEntryIn"]
pub struct HeadEntryOut {
    pub kind: Signal<Out, Bits<ENTRY_KIND_BITS>>,
    pub line: Signal<Out, Bits<ADDR_BITS>>,
    pub space: Signal<Out, Bit>,
    pub bit_offset: Signal<Out, Bits<7>>,
    /// the element's bytes in the line
    pub byte_enables: Signal<Out, Bits<LINE_BYTES>>,
    /// the element as memory holds it for this entry: read data with the forwarded bytes
    pub old: Signal<Out, Bits<LINE_BITS>>,
    pub lane: Signal<Out, Bits<LANE_BITS>>,
    pub elem: Signal<Out, Bits<ELEM_BITS>>,
    pub result_shift: Signal<Out, Bits<7>>,
    pub result_first: Signal<Out, Bit>,
    pub result_last: Signal<Out, Bit>,
    pub msg_last: Signal<Out, Bit>,
    pub error: Signal<Out, Bit>,
}

/// [`HeadEntryOut`] as `ExecutePipe` takes it.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "HeadEntryOut"]
pub struct HeadEntryIn {
    pub kind: Signal<In, Bits<ENTRY_KIND_BITS>>,
    pub line: Signal<In, Bits<ADDR_BITS>>,
    pub space: Signal<In, Bit>,
    pub bit_offset: Signal<In, Bits<7>>,
    pub byte_enables: Signal<In, Bits<LINE_BYTES>>,
    pub old: Signal<In, Bits<LINE_BITS>>,
    pub lane: Signal<In, Bits<LANE_BITS>>,
    pub elem: Signal<In, Bits<ELEM_BITS>>,
    pub result_shift: Signal<In, Bits<7>>,
    pub result_first: Signal<In, Bit>,
    pub result_last: Signal<In, Bit>,
    pub msg_last: Signal<In, Bit>,
    pub error: Signal<In, Bit>,
}

/// The in-flight table's head as `InflightTable` hands it to `HeadSelect`:
/// its index, its head registers (`hq_*`), its fields read out of the
/// `EntryRam`s at the head, and last cycle's write on the port (`push_*`,
/// `late_overlaps`). The entries' one-bit fields and the head's line words
/// are arrays and go beside it.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "TableHeadIn"]
pub struct TableHeadOut {
    /// the head entry's index
    pub ptr: Signal<Out, Bits<INFLIGHT_INDEX_BITS>>,
    /// the head entry is in use, its kind, its read data is back (`HeadLine`)
    pub valid: Signal<Out, Bit>,
    pub kind: Signal<Out, Bits<ENTRY_KIND_BITS>>,
    pub returned: Signal<Out, Bit>,
    /// its line, space, bytes, size (the head registers)
    pub line: Signal<Out, Bits<ADDR_BITS>>,
    pub space: Signal<Out, Bit>,
    pub byte_enables: Signal<Out, Bits<LINE_BYTES>>,
    pub bit_offset: Signal<Out, Bits<7>>,
    pub size: Signal<Out, Bits<SIZE_BITS>>,
    /// its fields in `EntryRam`s, read at the head
    pub op: Signal<Out, Bits<ALU_OP_BITS>>,
    pub ty: Signal<Out, Bits<ALU_TY_BITS>>,
    pub lane: Signal<Out, Bits<LANE_BITS>>,
    pub elem: Signal<Out, Bits<ELEM_BITS>>,
    pub result_shift: Signal<Out, Bits<7>>,
    /// last cycle's write on the port hit the head's line; its data and bytes
    pub pushed: Signal<Out, Bit>,
    pub push_data: Signal<Out, Bits<LINE_BITS>>,
    pub push_bytes: Signal<Out, Bits<LINE_BYTES>>,
    /// the write stage's element shares a byte with the head's
    pub late_overlaps: Signal<Out, Bit>,
}

/// [`TableHeadOut`] as `HeadSelect` takes it.
#[derive(Clone, Debug, Default, LogicInterface)]
#[join = "TableHeadOut"]
pub struct TableHeadIn {
    pub ptr: Signal<In, Bits<INFLIGHT_INDEX_BITS>>,
    pub valid: Signal<In, Bit>,
    pub kind: Signal<In, Bits<ENTRY_KIND_BITS>>,
    pub returned: Signal<In, Bit>,
    pub line: Signal<In, Bits<ADDR_BITS>>,
    pub space: Signal<In, Bit>,
    pub byte_enables: Signal<In, Bits<LINE_BYTES>>,
    pub bit_offset: Signal<In, Bits<7>>,
    pub size: Signal<In, Bits<SIZE_BITS>>,
    pub op: Signal<In, Bits<ALU_OP_BITS>>,
    pub ty: Signal<In, Bits<ALU_TY_BITS>>,
    pub lane: Signal<In, Bits<LANE_BITS>>,
    pub elem: Signal<In, Bits<ELEM_BITS>>,
    pub result_shift: Signal<In, Bits<7>>,
    pub pushed: Signal<In, Bit>,
    pub push_data: Signal<In, Bits<LINE_BITS>>,
    pub push_bytes: Signal<In, Bits<LINE_BYTES>>,
    pub late_overlaps: Signal<In, Bit>,
}

/// The head entry of the in-flight table, merged and cut down (combinational).
#[derive(LogicBlock)]
pub struct HeadSelect {
    /// The table's head: its index, head registers, fields read at it, and
    /// the write on the port last cycle, pushed into the entries on its
    /// line this cycle (`TableHeadIn`; its data is zero outside its bytes,
    /// as `late_data`).
    pub head: TableHeadIn,

    // ---- the entries' registers (the unit's) ----
    /// The head entry's line (read data and forwarded bytes), as four
    /// 32-bit words: the unit's copy of it in registers (`HeadLine`).
    pub head_word: [Signal<In, Bits<WORD_BITS>>; WORDS],
    pub ent_ftz: [Signal<In, Bit>; INFLIGHT_DEPTH],
    pub ent_result_first: [Signal<In, Bit>; INFLIGHT_DEPTH],
    pub ent_result_last: [Signal<In, Bit>; INFLIGHT_DEPTH],
    pub ent_msg_last: [Signal<In, Bit>; INFLIGHT_DEPTH],
    pub ent_error: [Signal<In, Bit>; INFLIGHT_DEPTH],

    // ---- the write stage's operation (its write leaves this cycle) ----
    /// The write stage holds an operation that writes memory.
    pub late_writes: Signal<In, Bit>,
    /// The element it writes, in its line, and the bit mask of its bytes (`WriteAlign`).
    pub late_data: Signal<In, Bits<LINE_BITS>>,
    pub late_mask: Signal<In, Bits<LINE_BITS>>,

    // ---- the execute stages' operations X, X2, X3 (youngest first) ----
    /// The stage holds an operation that writes memory.
    pub ahead_writes: [Signal<In, Bit>; AHEAD_STAGES],
    /// Its element shares a byte with the head's (same line and space) /
    /// is exactly the head's bytes: the unit's registers `hz_overlaps`,
    /// `hz_same_bytes`, compared a cycle ahead (`HazardCompare`).
    pub ahead_overlaps: [Signal<In, Bit>; AHEAD_STAGES],
    pub ahead_same_bytes: [Signal<In, Bit>; AHEAD_STAGES],
    /// Its new value will be in the next stage's register next cycle.
    pub ahead_ready: [Signal<In, Bit>; AHEAD_STAGES],

    // ---- the head ----
    pub valid: Signal<Out, Bit>,
    pub returned: Signal<Out, Bit>,
    /// what the execute stage takes of it (`HeadEntryOut`)
    pub entry: HeadEntryOut,
    /// The head's old value is the new value of the operation in stage k
    /// (X, X2, X3), found in stage k+1's register next cycle.
    pub bypass: [Signal<Out, Bit>; AHEAD_STAGES],
    /// The youngest operation ahead that writes the head's bytes writes only
    /// some of them, or its value is not ready: the head must wait.
    pub hazard: Signal<Out, Bit>,

    // ---- the ALU's old value and op ----
    pub alu_op: Signal<Out, Bits<ALU_OP_BITS>>,
    pub alu_ty: Signal<Out, Bits<ALU_TY_BITS>>,
    pub alu_ftz: Signal<Out, Bit>,

    /// the head's line, its words joined
    join_line: WordJoin,

    // ---- constants ----
    /// all ones over an element of size 2^s bytes, up to the bits built
    size_masks: [Constant<Bits<LINE_BITS>>; 5],
    zero_line: Constant<Bits<LINE_BITS>>,

    // ---- locals ----
    size: Signal<Local, Bits<SIZE_BITS>>,
    /// the entry's line
    data: Signal<Local, Bits<LINE_BITS>>,
    /// all ones over the element's width (at bit 0)
    elem_mask: Signal<Local, Bits<LINE_BITS>>,
    /// the push's bytes as a bit mask
    push_mask: Signal<Local, Bits<LINE_BITS>>,
    with_push: Signal<Local, Bits<LINE_BITS>>,
    late_hit: Signal<Local, Bit>,
    with_late: Signal<Local, Bits<LINE_BITS>>,
    /// `byte_ones[b]`: ones over byte b
    byte_ones: [Constant<Bits<LINE_BITS>>; 16],
    /// bit offsets are byte multiples: masking the low 3 bits to constant
    /// zeros lets synthesis build byte shifters (4 levels, not 7)
    byte_aligned: Constant<Bits<7>>,
    /// stage k's write touches the head's bytes / writes exactly them with a ready value
    ahead_hit: [Signal<Local, Bit>; AHEAD_STAGES],
    ahead_takes: [Signal<Local, Bit>; AHEAD_STAGES],
    /// a younger stage than k already hit
    younger_hit: [Signal<Local, Bit>; AHEAD_STAGES],
}

/// An array of default values.
fn arr<T: Default, const N: usize>() -> [T; N] {
    core::array::from_fn(|_| T::default())
}

impl Default for HeadSelect {
    /// The full build's: elements of up to 128 bits.
    fn default() -> Self {
        Self::new(LINE_BITS as u32)
    }
}

impl HeadSelect {
    /// The head for a unit built for elements of up to `data_bits` (32, 64
    /// or 128): the old value's mask stops there, so the bits above are
    /// constant zeros in every register the old value goes through, and
    /// synthesis removes them (the unit's decoder rejects wider elements).
    pub fn new(data_bits: u32) -> Self {
        assert!([32, 64, 128].contains(&data_bits), "HeadSelect: data_bits must be 32, 64 or 128, not {data_bits}");
        Self {
            head: Default::default(),
            head_word: arr(),
            ent_ftz: arr(),
            ent_result_first: arr(),
            ent_result_last: arr(),
            ent_msg_last: arr(),
            ent_error: arr(),
            push_mask: Default::default(),
            with_push: Default::default(),
            byte_ones: core::array::from_fn(|b| Constant::new((0xffu128 << (8 * b)).to_bits())),
            late_writes: Default::default(),
            late_data: Default::default(),
            late_mask: Default::default(),
            ahead_writes: arr(),
            ahead_overlaps: arr(),
            ahead_same_bytes: arr(),
            ahead_ready: arr(),
            valid: Default::default(),
            returned: Default::default(),
            entry: Default::default(),
            elem_mask: Default::default(),
            bypass: arr(),
            hazard: Default::default(),
            alu_op: Default::default(),
            alu_ty: Default::default(),
            alu_ftz: Default::default(),
            size_masks: core::array::from_fn(|s| {
                let bits = (8u32 << s).min(data_bits);
                Constant::new(if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 }.to_bits())
            }),
            byte_aligned: Constant::new(0x78u64.to_bits()),
            join_line: Default::default(),
            zero_line: Constant::new(0u64.to_bits()),
            size: Default::default(),
            data: Default::default(),
            late_hit: Default::default(),
            with_late: Default::default(),
            ahead_hit: arr(),
            ahead_takes: arr(),
            younger_hit: arr(),
        }
    }
}

impl Logic for HeadSelect {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- sub-block inputs: wiring only (see unit.rs "Verilator") ----
        for w in 0..WORDS {
            self.join_line.word[w].next = self.head_word[w].val();
        }

        self.valid.next = self.head.valid.val();
        self.entry.kind.next = self.head.kind.val();
        self.returned.next = self.head.returned.val();
        self.entry.bit_offset.next = self.head.bit_offset.val();
        self.entry.byte_enables.next = self.head.byte_enables.val();
        self.size.next = self.head.size.val();
        self.alu_op.next = self.head.op.val();
        self.alu_ty.next = self.head.ty.val();
        self.alu_ftz.next = false;
        self.entry.lane.next = self.head.lane.val();
        self.entry.elem.next = self.head.elem.val();
        self.entry.result_shift.next = self.head.result_shift.val();
        self.entry.result_first.next = false;
        self.entry.result_last.next = false;
        self.entry.msg_last.next = false;
        self.entry.error.next = false;
        for k in 0..INFLIGHT_DEPTH {
            if self.head.ptr.val().index() == k {
                self.alu_ftz.next = self.ent_ftz[k].val();
                self.entry.result_first.next = self.ent_result_first[k].val();
                self.entry.result_last.next = self.ent_result_last[k].val();
                self.entry.msg_last.next = self.ent_msg_last[k].val();
                self.entry.error.next = self.ent_error[k].val();
            }
        }
        self.data.next = self.join_line.whole.val();
        self.entry.line.next = self.head.line.val();
        self.entry.space.next = self.head.space.val();
        self.elem_mask.next = self.zero_line.val();
        for s in 0..5 {
            if self.size.val().index() == s {
                self.elem_mask.next = self.size_masks[s].val();
            }
        }

        // last cycle's write, which reaches the entries at the end of this
        // cycle (the unit's `push_*`), then the write leaving the write
        // stage this cycle (younger)
        self.push_mask.next = self.zero_line.val();
        for b in 0..16 {
            if self.head.push_bytes.val().get_bit(b) {
                self.push_mask.next = self.push_mask.val() | self.byte_ones[b].val();
            }
        }
        self.with_push.next = self.data.val();
        if self.head.pushed.val() {
            self.with_push.next = (self.data.val() & !self.push_mask.val()) | self.head.push_data.val();
        }
        // (a write of W on none of the head's bytes changes nothing of its element)
        self.late_hit.next = self.late_writes.val() & self.head.late_overlaps.val();
        self.with_late.next = self.with_push.val();
        if self.late_hit.val() {
            self.with_late.next = (self.with_push.val() & !self.late_mask.val()) | self.late_data.val();
        }
        self.entry.old.next = (self.with_late.val() >> (self.entry.bit_offset.val() & self.byte_aligned.val())) & self.elem_mask.val();

        // the operations in the execute stages: the youngest that writes
        // any of the head's bytes decides
        self.hazard.next = false;
        for k in 0..AHEAD_STAGES {
            self.ahead_hit[k].next = self.ahead_writes[k].val() & self.ahead_overlaps[k].val();
            self.ahead_takes[k].next = self.ahead_same_bytes[k].val() & self.ahead_ready[k].val();
        }
        self.younger_hit[0].next = false;
        for k in 1..AHEAD_STAGES {
            self.younger_hit[k].next = self.younger_hit[k - 1].val() | self.ahead_hit[k - 1].val();
        }
        for k in 0..AHEAD_STAGES {
            self.bypass[k].next = (self.ahead_hit[k].val() & !self.younger_hit[k].val()) & self.ahead_takes[k].val();
            if (self.ahead_hit[k].val() & !self.younger_hit[k].val()) & !self.ahead_takes[k].val() {
                self.hazard.next = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_select_synthesizes() {
        let mut uut = HeadSelect::default();
        uut.connect_all();
        yosys_validate("atomport_head_select", &generate_verilog(&uut)).unwrap();
    }
}
