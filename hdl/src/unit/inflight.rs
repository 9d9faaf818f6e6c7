//! `InflightTable`: the in-flight table, its head registers and the
//! forwarding of writes into its entries (docs/microarchitecture.md
//! "In-flight table entry", "Same-address hazards: forwarding, not
//! stalling").
//!
//! The allocate stage's entry goes in at the tail when the unit allocates
//! (`alloc`, with its read when `a_reads`); the head leaves into the
//! execute pipeline when the unit says so (`head_enters`). Every write on
//! the memory port (`port_*`) is pushed a cycle later into the entries on
//! its line (`push_hit`, `push_data`, `push_bytes`); the read data returns
//! in order straight into its entry (`EntryData`) and into the head's copy
//! (`HeadLine`). The hazard compares of the head (and of the entry after
//! it) against the execute stages are registered here a cycle ahead
//! (`hz_*`). `HeadSelect`, the head's merge and the advance decision are
//! the unit's: the head goes out to it as the bundle `head`
//! (`TableHeadOut`), beside the arrays a bundle cannot hold (the entries'
//! one-bit fields, the head's line words, the hazard flags). The allocate
//! stage's entry comes in as `a` (`AllocStageIn`), the execute stages'
//! lines and bytes as `ahead` (`AheadStagesIn`).
//!
//! Every output is a register's output, or a read of an `EntryRam` or an
//! entry register at `head_ptr` (a register), or `occupancy == 8`: no
//! combinational path from an input to an output, so the unit may feed
//! these inputs from logic that reads the outputs without a loop
//! (Verilator `UNOPTFLAT`). `atomport emit` moves the wiring of the read
//! data port into the entries out of this block's combinational block, as
//! it does for the unit's (no input port feeds logic).

use rust_hdl::prelude::*;

use super::payloads::{AheadStagesIn, AllocStageIn};
use crate::capture_reg::CaptureReg;
use crate::entry_data::EntryData;
use crate::entry_ram::EntryRam;
use crate::hazard_compare::HazardCompare;
use crate::head_line::HeadLine;
use crate::head_select::{TableHeadOut, AHEAD_STAGES, ENTRY_KIND_BITS, ENTRY_MARKER, ENTRY_READ_MODIFY_WRITE, INFLIGHT_DEPTH, INFLIGHT_INDEX_BITS};
use crate::mux8::Mux8;
use crate::widths::{ADDR_BITS, ELEM_BITS, LANE_BITS, LINE_BITS, LINE_BYTES, SIZE_BITS, WORD_BITS};
use crate::word_join::WORDS;
use atomport_isa::{ALU_OP_BITS, ALU_TY_BITS};

/// Bits of a read sequence number (more values than the table has entries).
const READ_SEQ_BITS: usize = 4;
/// Bits of the in-flight table's occupancy (0..=8).
const OCCUPANCY_BITS: usize = 4;

fn constant<const N: usize>(value: u64) -> Constant<Bits<N>> {
    Constant::new(value.to_bits())
}

/// An array of default values.
fn arr<T: Default, const N: usize>() -> [T; N] {
    core::array::from_fn(|_| T::default())
}

/// The in-flight table. See the module documentation.
#[derive(LogicBlock)]
pub struct InflightTable {
    pub clock: Signal<In, Clock>,
    /// the registered reset: empties the table
    pub reset: Signal<In, Bit>,
    /// the allocate stage's entry is written at the tail (with its read when `a_reads`)
    pub alloc: Signal<In, Bit>,
    pub a_reads: Signal<In, Bit>,
    /// the head leaves into the execute stage X / the execute stages move down
    pub head_enters: Signal<In, Bit>,
    pub x_free: Signal<In, Bit>,
    /// the allocate stage's entry (`AllocStageIn`, unit/payloads.rs)
    pub a: AllocStageIn,
    /// the write on the memory port this cycle (the skid register's or W's)
    pub port_write: Signal<In, Bit>,
    pub port_line: Signal<In, Bits<ADDR_BITS>>,
    pub port_space: Signal<In, Bit>,
    pub port_data: Signal<In, Bits<LINE_BITS>>,
    pub port_byte_enables: Signal<In, Bits<LINE_BYTES>>,
    /// the unit's read data port
    pub mem_rdata_valid: Signal<In, Bit>,
    pub mem_rdata: Signal<In, Bits<LINE_BITS>>,
    /// the write stage's element (`ExecutePipe`'s registers; W's bundle
    /// goes to `MemoryPorts`, so these three are wired one by one)
    pub w_byte_enables: Signal<In, Bits<LINE_BYTES>>,
    pub w_line: Signal<In, Bits<ADDR_BITS>>,
    pub w_space: Signal<In, Bit>,
    /// X..X4's elements (`AheadStagesIn`, unit/payloads.rs)
    pub ahead: AheadStagesIn,

    // ---- what the unit reads ----
    /// the head, handed to `HeadSelect` (`TableHeadOut`, head_select.rs)
    pub head: TableHeadOut,
    /// the head entry's line (`HeadLine`)
    pub hq_word: [Signal<Out, Bits<WORD_BITS>>; WORDS],
    /// the head entry's operands, read at `head_ptr`
    pub head_src0: Signal<Out, Bits<LINE_BITS>>,
    pub head_src1: Signal<Out, Bits<LINE_BITS>>,
    /// every entry's one-bit fields (`HeadSelect` picks the head's)
    pub ent_ftz_q: [Signal<Out, Bit>; INFLIGHT_DEPTH],
    pub ent_result_first_q: [Signal<Out, Bit>; INFLIGHT_DEPTH],
    pub ent_result_last_q: [Signal<Out, Bit>; INFLIGHT_DEPTH],
    pub ent_msg_last_q: [Signal<Out, Bit>; INFLIGHT_DEPTH],
    pub ent_error_q: [Signal<Out, Bit>; INFLIGHT_DEPTH],
    /// the hazard flags of the head against X..X4 and W
    pub hz_overlaps_q: [Signal<Out, Bit>; AHEAD_STAGES],
    pub hz_same_bytes_q: [Signal<Out, Bit>; AHEAD_STAGES],
    /// every entry is in use
    pub full: Signal<Out, Bit>,

    head_ptr: DFF<Bits<INFLIGHT_INDEX_BITS>>,
    /// the head entry's line, space and byte enables (`hq_line`, `hq_space`,
    /// `hq_byte_enables`) in registers of their own, so that the hazard and
    /// bypass compares against X..X4 (and the bypass select into `x_old`
    /// behind them) start at flip-flops, not at `head_ptr`'s read muxes:
    /// loaded from the entry after the head as the head leaves, or from the
    /// allocation when it writes the head's entry (the only write of these
    /// fields)
    hq_line: DFF<Bits<ADDR_BITS>>,
    /// `head_ptr + 1`, kept in a register (it indexes RAM read ports whose
    /// data comes back into the unit's block)
    head_next_ptr: DFF<Bits<INFLIGHT_INDEX_BITS>>,
    hq_space: DFF<Bit>,
    hq_byte_enables: DFF<Bits<LINE_BYTES>>,
    /// the head entry is in use (with `hq_kind` below: the head's advance
    /// decision starts at these, not at `head_ptr`'s muxes; its returned
    /// flag is `HeadLine`'s)
    hq_valid: DFF<Bit>,
    /// execute stage k's element (X, X2, X3, X4) shares a byte with the
    /// head's / is exactly its bytes (`HazardCompare`, registered a cycle
    /// ahead: `hz_head[k]` compares the head with stage k, `hz_next[k]` the
    /// entry after the head with the head (k = 0) or stage k - 1)
    hz_overlaps: [DFF<Bit>; AHEAD_STAGES],
    hz_same_bytes: [DFF<Bit>; AHEAD_STAGES],
    hz_head: [HazardCompare; AHEAD_STAGES],
    hz_next: [HazardCompare; AHEAD_STAGES],
    /// the write stage's element shares a byte with the head's (its write
    /// is merged into the head's line, `HeadSelect`'s `late_*`), registered
    /// a cycle ahead as above (`hz_head_w`: the head with W; the head with
    /// the stage W takes is `hz_head[3]`, or `[1]` in an integer build, the
    /// entry after it `hz_next_x4`, or `hz_next[2]`)
    hz_late_overlaps: DFF<Bit>,
    hz_head_w: HazardCompare,
    hz_next_x4: HazardCompare,
    /// the head entry was on the line of last cycle's write on the port
    /// (`push_hit[head_ptr]`, in a register of its own)
    hq_pushed: DFF<Bit>,
    /// the head entry's kind
    hq_kind: DFF<Bits<ENTRY_KIND_BITS>>,
    /// the head entry's read sequence number, loaded as `hq_kind`: the
    /// head's read-return and push hits (into `HeadLine`) start at these
    /// registers, not at `head_ptr`'s muxes
    hq_read_seq: DFF<Bits<READ_SEQ_BITS>>,
    /// the head entry's bit offset and size, loaded as `hq_byte_enables`
    /// (the old value's shift and mask start at flip-flops)
    hq_bit_offset: DFF<Bits<7>>,
    hq_size: DFF<Bits<SIZE_BITS>>,
    /// the head entry's line, a copy of `ent_data[head_ptr]` in registers
    /// of its own (`HeadLine`), loaded from the entry after the head as the
    /// head leaves (`next_entry_word*`: read at `head_next_ptr`)
    hq_data: HeadLine,
    next_entry_word0: Mux8<WORD_BITS>,
    next_entry_word1: Mux8<WORD_BITS>,
    next_entry_word2: Mux8<WORD_BITS>,
    next_entry_word3: Mux8<WORD_BITS>,
    /// the bytes a forwarded write set in the head entry / the next one
    /// (the read return keeps out of them, `EntryData`'s `rd_keep`)
    head_entry_keep: Mux8<LINE_BYTES>,
    next_entry_keep: Mux8<LINE_BYTES>,
    tail_ptr: DFF<Bits<INFLIGHT_INDEX_BITS>>,
    occupancy: DFF<Bits<OCCUPANCY_BITS>>,
    /// sequence number of the next read request / of the next read return
    read_issue_seq: DFF<Bits<READ_SEQ_BITS>>,
    read_return_seq: CaptureReg<Bits<READ_SEQ_BITS>>,
    ent_valid: [DFF<Bit>; INFLIGHT_DEPTH],
    ent_kind: [DFF<Bits<ENTRY_KIND_BITS>>; INFLIGHT_DEPTH],
    ent_read_seq: [DFF<Bits<READ_SEQ_BITS>>; INFLIGHT_DEPTH],
    /// the entry's line: the read data memory returned, overwritten by
    /// the bytes of every write forwarded to it (before or after the
    /// return), as four 32-bit words (a byte update touches one word in
    /// the Verilated model, `WordJoin`), and whether its read data has
    /// returned (`EntryData`); `ent_fwd_bytes`: the bytes forwarded so
    /// far, which the read data does not overwrite when it returns
    ent_data: [EntryData; INFLIGHT_DEPTH],
    ent_fwd_bytes: [DFF<Bits<LINE_BYTES>>; INFLIGHT_DEPTH],
    ent_line: [DFF<Bits<ADDR_BITS>>; INFLIGHT_DEPTH],
    /// the write on the port last cycle, pushed into the entries on its
    /// line this cycle (`push_hit[k]`: entry k was on its line, or was
    /// allocated on it, while the write was on the port): the compares end
    /// at these flip-flops, the entries' byte enables start at them
    push_hit: [DFF<Bit>; INFLIGHT_DEPTH],
    push_data: DFF<Bits<LINE_BITS>>,
    push_bytes: DFF<Bits<LINE_BYTES>>,
    /// a second copy of the lines, read only at the head (the registers
    /// above serve the forwarding compares with every entry)
    ent_line_at_head: EntryRam<ADDR_BITS>,
    ent_space: [DFF<Bit>; INFLIGHT_DEPTH],
    ent_bit_offset: EntryRam<7>,
    /// the element's bytes in its line (the hazard checks at the head
    /// compare them without first decoding size and offset)
    ent_byte_enables: EntryRam<LINE_BYTES>,
    ent_size: EntryRam<SIZE_BITS>,
    ent_op: EntryRam<ALU_OP_BITS>,
    ent_ty: EntryRam<ALU_TY_BITS>,
    ent_ftz: [DFF<Bit>; INFLIGHT_DEPTH],
    /// the operands: written once at allocation, read only at the head, so
    /// held in RAMs (distributed RAM on ECP5) rather than registers, as are
    /// the other multi-bit fields here that only the head reads
    ent_src0: EntryRam<LINE_BITS>,
    ent_src1: EntryRam<LINE_BITS>,
    ent_lane: EntryRam<LANE_BITS>,
    ent_elem: EntryRam<ELEM_BITS>,
    ent_result_shift: EntryRam<7>,
    ent_result_first: [DFF<Bit>; INFLIGHT_DEPTH],
    ent_result_last: [DFF<Bit>; INFLIGHT_DEPTH],
    ent_msg_last: [DFF<Bit>; INFLIGHT_DEPTH],
    ent_error: [DFF<Bit>; INFLIGHT_DEPTH],


    // ---- locals (named for waveforms) ----
    /// the space of the entry after the head
    next_head_space: Signal<Local, Bit>,
    next_head_valid: Signal<Local, Bit>,
    next_head_kind: Signal<Local, Bits<ENTRY_KIND_BITS>>,
    next_head_returned: Signal<Local, Bit>,
    next_head_read_seq: Signal<Local, Bits<READ_SEQ_BITS>>,
    /// the head's entry / the entry after it is on the line of the write on
    /// the port (or is allocated on it): next cycle's `hq_pushed`
    head_on_port_line: Signal<Local, Bit>,
    next_on_port_line: Signal<Local, Bit>,
    /// this cycle's allocation writes the head's entry / the entry after it
    alloc_at_head: Signal<Local, Bit>,
    alloc_at_next_head: Signal<Local, Bit>,
    /// the entry allocated this cycle is on the line of the write on the port
    alloc_on_port_line: Signal<Local, Bit>,
    /// entry k is on the line of the write on the port (`push_hit[k]` next
    /// cycle) / entry k's read is the next to return (`EntryData` takes it
    /// when `mem_rdata_valid` is up)
    port_hit: [Signal<Local, Bit>; INFLIGHT_DEPTH],
    return_hit: [Signal<Local, Bit>; INFLIGHT_DEPTH],
    /// entry k allocated this cycle
    alloc_hit: [Signal<Local, Bit>; INFLIGHT_DEPTH],
    /// entry k takes last cycle's write's bytes (`push_*`) this cycle
    take_push: [Signal<Local, Bit>; INFLIGHT_DEPTH],
    /// `take_push` and `return_hit` of the head entry and of the entry after it
    head_take_push: Signal<Local, Bit>,
    head_return_hit: Signal<Local, Bit>,
    next_take_push: Signal<Local, Bit>,
    next_return_hit: Signal<Local, Bit>,

    // ---- constants ----
    kind_marker: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_read_modify_write: Constant<Bits<ENTRY_KIND_BITS>>,
    table_full: Constant<Bits<OCCUPANCY_BITS>>,
    one_occupancy: Constant<Bits<OCCUPANCY_BITS>>,
    one_index: Constant<Bits<INFLIGHT_INDEX_BITS>>,
    one_seq: Constant<Bits<READ_SEQ_BITS>>,
    zero_occupancy: Constant<Bits<OCCUPANCY_BITS>>,
    zero_index: Constant<Bits<INFLIGHT_INDEX_BITS>>,
    zero_seq: Constant<Bits<READ_SEQ_BITS>>,
    zero_enables: Constant<Bits<LINE_BYTES>>,
    /// the float ops are built: X3 and X4 (float stages 3 and 4) are in the
    /// pipeline; without them W takes X2's operation and X3/X4 are unread
    fp_built: Constant<Bit>,
}

impl InflightTable {
    /// The table of a build with or without the float stages X3 and X4
    /// (without them, W takes X2's operation: `hz_late_overlaps`).
    pub fn new(fp_built: bool) -> Self {
        assert_eq!(1 << INFLIGHT_INDEX_BITS, INFLIGHT_DEPTH);
        assert!((1 << READ_SEQ_BITS) > INFLIGHT_DEPTH, "read sequence numbers must outnumber entries");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            alloc: Default::default(),
            a_reads: Default::default(),
            a: Default::default(),
            head_enters: Default::default(),
            x_free: Default::default(),
            port_write: Default::default(),
            port_line: Default::default(),
            port_space: Default::default(),
            port_data: Default::default(),
            port_byte_enables: Default::default(),
            mem_rdata_valid: Default::default(),
            mem_rdata: Default::default(),
            w_byte_enables: Default::default(),
            w_line: Default::default(),
            w_space: Default::default(),
            ahead: Default::default(),
            head: Default::default(),
            hq_word: Default::default(),
            head_src0: Default::default(),
            head_src1: Default::default(),
            ent_ftz_q: Default::default(),
            ent_result_first_q: Default::default(),
            ent_result_last_q: Default::default(),
            ent_msg_last_q: Default::default(),
            ent_error_q: Default::default(),
            hz_overlaps_q: Default::default(),
            hz_same_bytes_q: Default::default(),
            full: Default::default(),
            head_ptr: Default::default(),
            hq_line: Default::default(),
            head_next_ptr: Default::default(),
            hq_space: Default::default(),
            hq_byte_enables: Default::default(),
            hq_valid: Default::default(),
            hz_overlaps: arr(),
            hz_same_bytes: arr(),
            hz_head: arr(),
            hz_next: arr(),
            hz_late_overlaps: Default::default(),
            hz_head_w: Default::default(),
            hz_next_x4: Default::default(),
            hq_pushed: Default::default(),
            hq_kind: Default::default(),
            hq_read_seq: Default::default(),
            hq_bit_offset: Default::default(),
            hq_size: Default::default(),
            hq_data: Default::default(),
            next_entry_word0: Default::default(),
            next_entry_word1: Default::default(),
            next_entry_word2: Default::default(),
            next_entry_word3: Default::default(),
            head_entry_keep: Default::default(),
            next_entry_keep: Default::default(),
            tail_ptr: Default::default(),
            occupancy: Default::default(),
            read_issue_seq: Default::default(),
            read_return_seq: Default::default(),
            ent_valid: arr(),
            ent_kind: arr(),
            ent_read_seq: arr(),
            ent_data: arr(),
            ent_fwd_bytes: arr(),
            ent_line: arr(),
            push_hit: arr(),
            push_data: Default::default(),
            push_bytes: Default::default(),
            ent_line_at_head: Default::default(),
            ent_space: arr(),
            ent_bit_offset: Default::default(),
            ent_byte_enables: Default::default(),
            ent_size: Default::default(),
            ent_op: Default::default(),
            ent_ty: Default::default(),
            ent_ftz: arr(),
            ent_src0: Default::default(),
            ent_src1: Default::default(),
            ent_lane: Default::default(),
            ent_elem: Default::default(),
            ent_result_shift: Default::default(),
            ent_result_first: arr(),
            ent_result_last: arr(),
            ent_msg_last: arr(),
            ent_error: arr(),
            alloc_on_port_line: Default::default(),
            next_head_space: Default::default(),
            next_head_valid: Default::default(),
            next_head_kind: Default::default(),
            next_head_returned: Default::default(),
            next_head_read_seq: Default::default(),
            head_on_port_line: Default::default(),
            next_on_port_line: Default::default(),
            alloc_at_head: Default::default(),
            alloc_at_next_head: Default::default(),
            port_hit: Default::default(),
            return_hit: Default::default(),
            alloc_hit: Default::default(),
            take_push: Default::default(),
            head_take_push: Default::default(),
            head_return_hit: Default::default(),
            next_take_push: Default::default(),
            next_return_hit: Default::default(),
            kind_marker: constant(ENTRY_MARKER as u64),
            kind_read_modify_write: constant(ENTRY_READ_MODIFY_WRITE as u64),
            table_full: constant(INFLIGHT_DEPTH as u64),
            one_occupancy: constant(1),
            one_index: constant(1),
            one_seq: constant(1),
            zero_occupancy: constant(0),
            zero_index: constant(0),
            zero_seq: constant(0),
            zero_enables: constant(0),
            fp_built: Constant::new(fp_built),
        }
    }
}

impl Default for InflightTable {
    fn default() -> Self {
        Self::new(true)
    }
}

impl Logic for InflightTable {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            head_ptr,
            hq_line,
            head_next_ptr,
            hq_space,
            hq_byte_enables,
            hq_bit_offset,
            hq_size,
            hq_valid,
            hz_late_overlaps,
            hq_pushed,
            hq_kind,
            hq_read_seq,
            tail_ptr,
            occupancy,
            read_issue_seq,
            push_data,
            push_bytes
        );
        for k in 0..INFLIGHT_DEPTH {
            self.ent_valid[k].clock.next = self.clock.val();
            self.ent_kind[k].clock.next = self.clock.val();
            self.ent_read_seq[k].clock.next = self.clock.val();
            self.ent_fwd_bytes[k].clock.next = self.clock.val();
            self.push_hit[k].clock.next = self.clock.val();
            self.ent_line[k].clock.next = self.clock.val();
            self.ent_space[k].clock.next = self.clock.val();
            self.ent_ftz[k].clock.next = self.clock.val();
            self.ent_result_first[k].clock.next = self.clock.val();
            self.ent_result_last[k].clock.next = self.clock.val();
            self.ent_msg_last[k].clock.next = self.clock.val();
            self.ent_error[k].clock.next = self.clock.val();
            self.ent_valid[k].d.next = self.ent_valid[k].q.val();
            self.ent_kind[k].d.next = self.ent_kind[k].q.val();
            self.ent_read_seq[k].d.next = self.ent_read_seq[k].q.val();
            self.ent_fwd_bytes[k].d.next = self.ent_fwd_bytes[k].q.val();
            self.push_hit[k].d.next = false;
            self.ent_line[k].d.next = self.ent_line[k].q.val();
            self.ent_space[k].d.next = self.ent_space[k].q.val();
            self.ent_ftz[k].d.next = self.ent_ftz[k].q.val();
            self.ent_result_first[k].d.next = self.ent_result_first[k].q.val();
            self.ent_result_last[k].d.next = self.ent_result_last[k].q.val();
            self.ent_msg_last[k].d.next = self.ent_msg_last[k].q.val();
            self.ent_error[k].d.next = self.ent_error[k].q.val();
        }
        for k in 0..AHEAD_STAGES {
            self.hz_overlaps[k].clock.next = self.clock.val();
            self.hz_overlaps[k].d.next = self.hz_overlaps[k].q.val();
            self.hz_same_bytes[k].clock.next = self.clock.val();
            self.hz_same_bytes[k].d.next = self.hz_same_bytes[k].q.val();
        }

        self.ent_src0.clock.next = self.clock.val();
        self.ent_src0.read_index.next = self.head_ptr.q.val();
        self.ent_src1.clock.next = self.clock.val();
        self.ent_src1.read_index.next = self.head_ptr.q.val();
        self.ent_bit_offset.clock.next = self.clock.val();
        self.ent_bit_offset.read_index.next = self.head_next_ptr.q.val();
        self.ent_byte_enables.clock.next = self.clock.val();
        // the head's line and byte enables come from `hq_*`; these two RAMs
        // are read at the entry after the head, to load `hq_*` from
        self.ent_byte_enables.read_index.next = self.head_next_ptr.q.val();
        self.ent_size.clock.next = self.clock.val();
        self.ent_size.read_index.next = self.head_next_ptr.q.val();
        self.ent_op.clock.next = self.clock.val();
        self.ent_op.read_index.next = self.head_ptr.q.val();
        self.ent_ty.clock.next = self.clock.val();
        self.ent_ty.read_index.next = self.head_ptr.q.val();
        self.ent_lane.clock.next = self.clock.val();
        self.ent_lane.read_index.next = self.head_ptr.q.val();
        self.ent_elem.clock.next = self.clock.val();
        self.ent_elem.read_index.next = self.head_ptr.q.val();
        self.ent_result_shift.clock.next = self.clock.val();
        self.ent_result_shift.read_index.next = self.head_ptr.q.val();
        self.ent_line_at_head.clock.next = self.clock.val();
        self.ent_line_at_head.read_index.next = self.head_next_ptr.q.val();
        for k in 0..INFLIGHT_DEPTH {
            self.ent_data[k].clock.next = self.clock.val();
            self.ent_data[k].rd_valid.next = self.mem_rdata_valid.val();
            self.ent_data[k].rd_data.next = self.mem_rdata.val();
            self.next_entry_word0.choice[k].next = self.ent_data[k].word0.val();
            self.next_entry_word1.choice[k].next = self.ent_data[k].word1.val();
            self.next_entry_word2.choice[k].next = self.ent_data[k].word2.val();
            self.next_entry_word3.choice[k].next = self.ent_data[k].word3.val();
            self.head_entry_keep.choice[k].next = self.ent_fwd_bytes[k].q.val();
            self.next_entry_keep.choice[k].next = self.ent_fwd_bytes[k].q.val();
        }
        self.head_entry_keep.index.next = self.head_ptr.q.val();
        self.next_entry_keep.index.next = self.head_next_ptr.q.val();
        self.hq_data.clock.next = self.clock.val();
        self.hq_data.rd_valid.next = self.mem_rdata_valid.val();
        self.hq_data.rd_data.next = self.mem_rdata.val();
        self.next_entry_word0.index.next = self.head_next_ptr.q.val();
        self.next_entry_word1.index.next = self.head_next_ptr.q.val();
        self.next_entry_word2.index.next = self.head_next_ptr.q.val();
        self.next_entry_word3.index.next = self.head_next_ptr.q.val();
        self.hq_data.next_word[0].next = self.next_entry_word0.chosen.val();
        self.hq_data.next_word[1].next = self.next_entry_word1.chosen.val();
        self.hq_data.next_word[2].next = self.next_entry_word2.chosen.val();
        self.hq_data.next_word[3].next = self.next_entry_word3.chosen.val();

        // the hazard compares for next cycle's head and stages (below,
        // "table head -> execute stage"): the head as it is against the
        // stages, and the entry after it against the head and the stages
        self.hz_head[0].head_line.next = self.hq_line.q.val();
        self.hz_head[0].head_byte_enables.next = self.hq_byte_enables.q.val();
        self.hz_head[0].stage_line.next = self.ahead.x_line.val();
        self.hz_head[0].stage_byte_enables.next = self.ahead.x_byte_enables.val();
        self.hz_head[1].head_line.next = self.hq_line.q.val();
        self.hz_head[1].head_byte_enables.next = self.hq_byte_enables.q.val();
        self.hz_head[1].stage_line.next = self.ahead.x2_line.val();
        self.hz_head[1].stage_byte_enables.next = self.ahead.x2_byte_enables.val();
        self.hz_head[2].head_line.next = self.hq_line.q.val();
        self.hz_head[2].head_byte_enables.next = self.hq_byte_enables.q.val();
        self.hz_head[2].stage_line.next = self.ahead.x3_line.val();
        self.hz_head[2].stage_byte_enables.next = self.ahead.x3_byte_enables.val();
        self.hz_head[3].head_line.next = self.hq_line.q.val();
        self.hz_head[3].head_byte_enables.next = self.hq_byte_enables.q.val();
        self.hz_head[3].stage_line.next = self.ahead.x4_line.val();
        self.hz_head[3].stage_byte_enables.next = self.ahead.x4_byte_enables.val();
        self.hz_next[0].head_line.next = self.ent_line_at_head.read_data.val();
        self.hz_next[0].head_byte_enables.next = self.ent_byte_enables.read_data.val();
        self.hz_next[0].stage_line.next = self.hq_line.q.val();
        self.hz_next[0].stage_byte_enables.next = self.hq_byte_enables.q.val();
        self.hz_next[1].head_line.next = self.ent_line_at_head.read_data.val();
        self.hz_next[1].head_byte_enables.next = self.ent_byte_enables.read_data.val();
        self.hz_next[1].stage_line.next = self.ahead.x_line.val();
        self.hz_next[1].stage_byte_enables.next = self.ahead.x_byte_enables.val();
        self.hz_next[2].head_line.next = self.ent_line_at_head.read_data.val();
        self.hz_next[2].head_byte_enables.next = self.ent_byte_enables.read_data.val();
        self.hz_next[2].stage_line.next = self.ahead.x2_line.val();
        self.hz_next[2].stage_byte_enables.next = self.ahead.x2_byte_enables.val();
        self.hz_next[3].head_line.next = self.ent_line_at_head.read_data.val();
        self.hz_next[3].head_byte_enables.next = self.ent_byte_enables.read_data.val();
        self.hz_next[3].stage_line.next = self.ahead.x3_line.val();
        self.hz_next[3].stage_byte_enables.next = self.ahead.x3_byte_enables.val();
        self.hz_head_w.head_line.next = self.hq_line.q.val();
        self.hz_head_w.head_byte_enables.next = self.hq_byte_enables.q.val();
        self.hz_head_w.stage_line.next = self.w_line.val();
        self.hz_head_w.stage_byte_enables.next = self.w_byte_enables.val();
        self.hz_next_x4.head_line.next = self.ent_line_at_head.read_data.val();
        self.hz_next_x4.head_byte_enables.next = self.ent_byte_enables.read_data.val();
        self.hz_next_x4.stage_line.next = self.ahead.x4_line.val();
        self.hz_next_x4.stage_byte_enables.next = self.ahead.x4_byte_enables.val();

        // The hazard compares' answers for next cycle, from this cycle's
        // compares: the head and the stages stay; or the stages move down
        // (X gets a bubble, or the head); or the head leaves and the entry
        // after it is compared against the stages as they will be. Where the
        // head's registers load an allocation instead (the table was empty,
        // or the entry after the head is being allocated as the head leaves),
        // the answers are stale for one cycle, in which that entry's read
        // cannot be back yet: only a returned read-modify-write head reads them.
        // the entry after the head: its flags (its line, byte enables,
        // bit offset and size are the `EntryRam`s' reads at `head_next_ptr`)
        self.next_head_space.next = false;
        self.next_head_valid.next = false;
        self.next_head_kind.next = self.kind_marker.val();
        self.next_head_returned.next = false;
        self.next_head_read_seq.next = self.zero_seq.val();
        for k in 0..INFLIGHT_DEPTH {
            if self.head_next_ptr.q.val().index() == k {
                self.next_head_read_seq.next = self.ent_read_seq[k].q.val();
                self.next_head_space.next = self.ent_space[k].q.val();
                self.next_head_valid.next = self.ent_valid[k].q.val();
                self.next_head_kind.next = self.ent_kind[k].q.val();
                self.next_head_returned.next = self.ent_data[k].returned.val();
            }
        }
        self.hz_overlaps[0].d.next = self.hz_head[0].overlaps.val() & (self.hq_space.q.val() == self.ahead.x_space.val());
        self.hz_same_bytes[0].d.next = self.hq_byte_enables.q.val() == self.ahead.x_byte_enables.val();
        self.hz_overlaps[1].d.next = self.hz_head[1].overlaps.val() & (self.hq_space.q.val() == self.ahead.x2_space.val());
        self.hz_same_bytes[1].d.next = self.hq_byte_enables.q.val() == self.ahead.x2_byte_enables.val();
        self.hz_overlaps[2].d.next = self.hz_head[2].overlaps.val() & (self.hq_space.q.val() == self.ahead.x3_space.val());
        self.hz_same_bytes[2].d.next = self.hq_byte_enables.q.val() == self.ahead.x3_byte_enables.val();
        self.hz_overlaps[3].d.next = self.hz_head[3].overlaps.val() & (self.hq_space.q.val() == self.ahead.x4_space.val());
        self.hz_same_bytes[3].d.next = self.hq_byte_enables.q.val() == self.ahead.x4_byte_enables.val();
        if self.x_free.val() {
            self.hz_overlaps[1].d.next =
                self.hz_head[0].overlaps.val() & (self.hq_space.q.val() == self.ahead.x_space.val());
            self.hz_same_bytes[1].d.next = self.hq_byte_enables.q.val() == self.ahead.x_byte_enables.val();
            self.hz_overlaps[2].d.next =
                self.hz_head[1].overlaps.val() & (self.hq_space.q.val() == self.ahead.x2_space.val());
            self.hz_same_bytes[2].d.next = self.hq_byte_enables.q.val() == self.ahead.x2_byte_enables.val();
            self.hz_overlaps[3].d.next =
                self.hz_head[2].overlaps.val() & (self.hq_space.q.val() == self.ahead.x3_space.val());
            self.hz_same_bytes[3].d.next = self.hq_byte_enables.q.val() == self.ahead.x3_byte_enables.val();
        }
        if self.head_enters.val() {
            self.hz_overlaps[0].d.next =
                self.hz_next[0].overlaps.val() & (self.next_head_space.val() == self.hq_space.q.val());
            self.hz_same_bytes[0].d.next = self.ent_byte_enables.read_data.val() == self.hq_byte_enables.q.val();
            self.hz_overlaps[1].d.next =
                self.hz_next[1].overlaps.val() & (self.next_head_space.val() == self.ahead.x_space.val());
            self.hz_same_bytes[1].d.next = self.ent_byte_enables.read_data.val() == self.ahead.x_byte_enables.val();
            self.hz_overlaps[2].d.next =
                self.hz_next[2].overlaps.val() & (self.next_head_space.val() == self.ahead.x2_space.val());
            self.hz_same_bytes[2].d.next = self.ent_byte_enables.read_data.val() == self.ahead.x2_byte_enables.val();
            self.hz_overlaps[3].d.next =
                self.hz_next[3].overlaps.val() & (self.next_head_space.val() == self.ahead.x3_space.val());
            self.hz_same_bytes[3].d.next = self.ent_byte_enables.read_data.val() == self.ahead.x3_byte_enables.val();
        }
        // the same for the write stage W (its write merged into the head's
        // line, `late_*`): W stays, or takes X4 (an integer build: X2)
        self.hz_late_overlaps.d.next = self.hz_head_w.overlaps.val() & (self.hq_space.q.val() == self.w_space.val());
        if self.x_free.val() {
            self.hz_late_overlaps.d.next =
                self.hz_head[3].overlaps.val() & (self.hq_space.q.val() == self.ahead.x4_space.val());
            if !self.fp_built.val() {
                self.hz_late_overlaps.d.next =
                    self.hz_head[1].overlaps.val() & (self.hq_space.q.val() == self.ahead.x2_space.val());
            }
        }
        if self.head_enters.val() {
            self.hz_late_overlaps.d.next =
                self.hz_next_x4.overlaps.val() & (self.next_head_space.val() == self.ahead.x4_space.val());
            if !self.fp_built.val() {
                self.hz_late_overlaps.d.next =
                    self.hz_next[2].overlaps.val() & (self.next_head_space.val() == self.ahead.x2_space.val());
            }
        }
        if self.head_enters.val() {
            self.head_ptr.d.next = self.head_ptr.q.val() + self.one_index.val();
            self.head_next_ptr.d.next = self.head_next_ptr.q.val() + self.one_index.val();
            for k in 0..INFLIGHT_DEPTH {
                if self.head_ptr.q.val().index() == k {
                    self.ent_valid[k].d.next = false;
                }
            }
        }

        // The entry allocated this cycle: its read goes out together with the
        // write on the port, so it takes the write's bytes if they share the line.
        self.alloc_on_port_line.next = (self.port_write.val() & (self.a.line.val() == self.port_line.val()))
            & (self.a.space.val() == self.port_space.val());
        // the operands' RAMs: written at allocation (their write port is
        // clocked, so wiring it from the `alloc` local makes no loop)
        self.ent_src0.write_enable.next = self.alloc.val();
        self.ent_src0.write_index.next = self.tail_ptr.q.val();
        self.ent_src0.write_data.next = self.a.src0.val();
        self.ent_src1.write_enable.next = self.alloc.val();
        self.ent_src1.write_index.next = self.tail_ptr.q.val();
        self.ent_src1.write_data.next = self.a.src1.val();
        self.ent_bit_offset.write_enable.next = self.alloc.val();
        self.ent_bit_offset.write_index.next = self.tail_ptr.q.val();
        self.ent_bit_offset.write_data.next = self.a.bit_offset.val();
        self.ent_byte_enables.write_enable.next = self.alloc.val();
        self.ent_byte_enables.write_index.next = self.tail_ptr.q.val();
        self.ent_byte_enables.write_data.next = self.a.byte_enables.val();
        self.ent_size.write_enable.next = self.alloc.val();
        self.ent_size.write_index.next = self.tail_ptr.q.val();
        self.ent_size.write_data.next = self.a.size.val();
        self.ent_op.write_enable.next = self.alloc.val();
        self.ent_op.write_index.next = self.tail_ptr.q.val();
        self.ent_op.write_data.next = self.a.op.val();
        self.ent_ty.write_enable.next = self.alloc.val();
        self.ent_ty.write_index.next = self.tail_ptr.q.val();
        self.ent_ty.write_data.next = self.a.ty.val();
        self.ent_lane.write_enable.next = self.alloc.val();
        self.ent_lane.write_index.next = self.tail_ptr.q.val();
        self.ent_lane.write_data.next = self.a.lane.val();
        self.ent_elem.write_enable.next = self.alloc.val();
        self.ent_elem.write_index.next = self.tail_ptr.q.val();
        self.ent_elem.write_data.next = self.a.elem.val();
        self.ent_result_shift.write_enable.next = self.alloc.val();
        self.ent_result_shift.write_index.next = self.tail_ptr.q.val();
        self.ent_result_shift.write_data.next = self.a.result_shift.val();
        self.ent_line_at_head.write_enable.next = self.alloc.val();
        self.ent_line_at_head.write_index.next = self.tail_ptr.q.val();
        self.ent_line_at_head.write_data.next = self.a.line.val();
        self.alloc_at_head.next = self.alloc.val() & (self.tail_ptr.q.val() == self.head_ptr.q.val());
        self.alloc_at_next_head.next = self.alloc.val() & (self.tail_ptr.q.val() == self.head_next_ptr.q.val());
        // The head's `push_hit` in a register of its own (`hq_pushed`), as
        // `push_hit` is computed for the head's entry, or for the entry after
        // it as the head leaves: its `HeadSelect` merge starts at a flip-flop.
        self.head_on_port_line.next = ((self.port_write.val()
            & (self.hq_valid.q.val() & (self.hq_kind.q.val() == self.kind_read_modify_write.val())))
            & ((self.hq_line.q.val() == self.port_line.val()) & (self.hq_space.q.val() == self.port_space.val())))
            | (self.alloc_at_head.val() & self.alloc_on_port_line.val());
        self.next_on_port_line.next = ((self.port_write.val()
            & (self.next_head_valid.val() & (self.next_head_kind.val() == self.kind_read_modify_write.val())))
            & ((self.ent_line_at_head.read_data.val() == self.port_line.val())
                & (self.next_head_space.val() == self.port_space.val())))
            | (self.alloc_at_next_head.val() & self.alloc_on_port_line.val());
        self.hq_pushed.d.next = self.head_on_port_line.val();
        if self.head_enters.val() {
            self.hq_pushed.d.next = self.next_on_port_line.val();
        }
        // (the head's valid flag: the entry after it is in use or is being
        // allocated as the head leaves; else an allocation of the head's own entry)
        self.hq_valid.d.next = self.hq_valid.q.val() | self.alloc_at_head.val();
        if self.head_enters.val() {
            self.hq_valid.d.next = self.next_head_valid.val() | self.alloc_at_next_head.val();
            self.hq_kind.d.next = self.next_head_kind.val();
            self.hq_read_seq.d.next = self.next_head_read_seq.val();
            self.hq_line.d.next = self.ent_line_at_head.read_data.val();
            self.hq_space.d.next = self.next_head_space.val();
            self.hq_byte_enables.d.next = self.ent_byte_enables.read_data.val();
            self.hq_bit_offset.d.next = self.ent_bit_offset.read_data.val();
            self.hq_size.d.next = self.ent_size.read_data.val();
        }
        // (an allocation into the entry that becomes the head, or into the head
        // itself: that finds the table empty, so the head is not leaving then)
        if (self.alloc_at_next_head.val() & self.head_enters.val()) | self.alloc_at_head.val() {
            self.hq_line.d.next = self.a.line.val();
            self.hq_space.d.next = self.a.space.val();
            self.hq_byte_enables.d.next = self.a.byte_enables.val();
            self.hq_bit_offset.d.next = self.a.bit_offset.val();
            self.hq_size.d.next = self.a.size.val();
            self.hq_kind.d.next = self.a.kind.val();
            self.hq_read_seq.d.next = self.read_issue_seq.q.val();
        }
        if self.alloc.val() {
            self.tail_ptr.d.next = self.tail_ptr.q.val() + self.one_index.val();
            for k in 0..INFLIGHT_DEPTH {
                if self.tail_ptr.q.val().index() == k {
                    self.ent_valid[k].d.next = true;
                    self.ent_kind[k].d.next = self.a.kind.val();
                    self.ent_read_seq[k].d.next = self.read_issue_seq.q.val();
                    self.ent_fwd_bytes[k].d.next = self.zero_enables.val();
                    self.ent_line[k].d.next = self.a.line.val();
                    self.ent_space[k].d.next = self.a.space.val();
                    self.ent_ftz[k].d.next = self.a.ftz.val();
                    self.ent_result_first[k].d.next = self.a.result_first.val();
                    self.ent_result_last[k].d.next = self.a.result_last.val();
                    self.ent_msg_last[k].d.next = self.a.msg_last.val();
                    self.ent_error[k].d.next = self.a.error.val();
                }
            }
        }
        if self.a_reads.val() {
            self.read_issue_seq.d.next = self.read_issue_seq.q.val() + self.one_seq.val();
        }
        if self.alloc.val() & !self.head_enters.val() {
            self.occupancy.d.next = self.occupancy.q.val() + self.one_occupancy.val();
        }
        if self.head_enters.val() & !self.alloc.val() {
            self.occupancy.d.next = self.occupancy.q.val() - self.one_occupancy.val();
        }

        // ================= read data returns, in order; forwarding =================
        // The write on the port goes to every entry on its line whose read
        // memory has already accepted (all valid read-modify-write entries
        // of the table: they are younger, and their read went out when they
        // issued) and to the entry allocated with it, one cycle later: the
        // line compares end at `push_hit`, and the entries take the bytes
        // from `push_data` / `push_bytes` in the next cycle. An entry that
        // leaves the table before then is no longer valid and takes nothing
        // (it may be allocated again in that cycle); the head leaving in
        // the push's cycle merges the push in `HeadSelect`, and the head
        // leaving in the write's own cycle merges it as the write stage's
        // (`late_*`). The read data, when it returns, fills only the bytes
        // not forwarded before; a push in the same cycle overwrites it.
        self.push_data.d.next = self.port_data.val();
        self.push_bytes.d.next = self.port_byte_enables.val();
        for k in 0..INFLIGHT_DEPTH {
            self.alloc_hit[k].next = self.alloc.val() & (self.tail_ptr.q.val().index() == k);
            self.port_hit[k].next = (self.port_write.val()
                & (self.ent_valid[k].q.val() & (self.ent_kind[k].q.val() == self.kind_read_modify_write.val())))
                & ((self.ent_line[k].q.val() == self.port_line.val()) & (self.ent_space[k].q.val() == self.port_space.val()));
            self.push_hit[k].d.next = self.port_hit[k].val() | (self.alloc_hit[k].val() & self.alloc_on_port_line.val());
            // the next read to return is this entry's (`EntryData` takes it
            // when `mem_rdata_valid` is up)
            self.return_hit[k].next = (self.ent_valid[k].q.val()
                & (self.ent_kind[k].q.val() == self.kind_read_modify_write.val()))
                & (!self.ent_data[k].returned.val() & (self.ent_read_seq[k].q.val() == self.read_return_seq.q.val()));
        }
        // the return's sequence number counts returns (loads on `mem_rdata_valid`)
        self.read_return_seq.clock.next = self.clock.val();
        self.read_return_seq.load.next = self.mem_rdata_valid.val();
        self.read_return_seq.d.next = self.read_return_seq.q.val() + self.one_seq.val();
        self.read_return_seq.clear.next = self.reset.val();
        // A byte of an entry's line changes when a push reaches the entry or
        // when its read data returns (the bytes not forwarded before); a
        // push beats the read data of the same cycle (`EntryData`). Bytes
        // neither forwarded nor returned yet hold stale data until the read
        // returns, which is before the entry can reach the head.
        for k in 0..INFLIGHT_DEPTH {
            self.take_push[k].next = self.push_hit[k].q.val() & self.ent_valid[k].q.val();
            self.ent_data[k].wr_bytes.next = self.zero_enables.val();
            if self.take_push[k].val() {
                self.ent_data[k].wr_bytes.next = self.push_bytes.q.val();
                self.ent_fwd_bytes[k].d.next = self.ent_fwd_bytes[k].q.val() | self.push_bytes.q.val();
            }
            self.ent_data[k].wr_data.next = self.push_data.q.val();
            self.ent_data[k].rd_this.next = self.return_hit[k].val();
            self.ent_data[k].rd_keep.next = self.ent_fwd_bytes[k].q.val();
            self.ent_data[k].clear_returned.next = self.alloc_hit[k].val();
        }
        // the same updates of the head entry's copy (`HeadLine`): the head's
        // `take_push` and `return_hit` from the head's registers (`hq_*`)
        self.head_take_push.next = self.hq_pushed.q.val() & self.hq_valid.q.val();
        self.head_return_hit.next = (self.hq_valid.q.val()
            & (self.hq_kind.q.val() == self.kind_read_modify_write.val()))
            & (!self.hq_data.returned.val() & (self.hq_read_seq.q.val() == self.read_return_seq.q.val()));
        self.next_take_push.next = false;
        self.next_return_hit.next = false;
        for k in 0..INFLIGHT_DEPTH {
            if self.head_next_ptr.q.val().index() == k {
                self.next_take_push.next = self.take_push[k].val();
                self.next_return_hit.next = self.return_hit[k].val();
            }
        }
        self.hq_data.advance.next = self.head_enters.val();
        self.hq_data.wr_data.next = self.push_data.q.val();
        self.hq_data.head_wr_bytes.next = self.zero_enables.val();
        if self.head_take_push.val() {
            self.hq_data.head_wr_bytes.next = self.push_bytes.q.val();
        }
        self.hq_data.next_wr_bytes.next = self.zero_enables.val();
        if self.next_take_push.val() {
            self.hq_data.next_wr_bytes.next = self.push_bytes.q.val();
        }
        self.hq_data.head_rd_this.next = self.head_return_hit.val();
        self.hq_data.next_rd_this.next = self.next_return_hit.val();
        self.hq_data.head_rd_keep.next = self.head_entry_keep.chosen.val();
        self.hq_data.next_rd_keep.next = self.next_entry_keep.chosen.val();
        self.hq_data.head_clear.next = self.alloc_at_head.val();
        self.hq_data.next_clear.next = self.alloc_at_next_head.val();
        self.hq_data.next_returned.next = self.next_head_returned.val();

        if self.reset.val() {
            self.head_ptr.d.next = self.zero_index.val();
            self.head_next_ptr.d.next = self.one_index.val();
            self.hq_valid.d.next = false;
            self.hq_pushed.d.next = false;
            self.tail_ptr.d.next = self.zero_index.val();
            self.occupancy.d.next = self.zero_occupancy.val();
            self.read_issue_seq.d.next = self.zero_seq.val();
            for k in 0..INFLIGHT_DEPTH {
                self.ent_valid[k].d.next = false;
                self.push_hit[k].d.next = false;
            }
        }

        // ================= outputs: registers and reads at the head =================
        self.head.ptr.next = self.head_ptr.q.val();
        self.head.line.next = self.hq_line.q.val();
        self.head.space.next = self.hq_space.q.val();
        self.head.byte_enables.next = self.hq_byte_enables.q.val();
        self.head.bit_offset.next = self.hq_bit_offset.q.val();
        self.head.size.next = self.hq_size.q.val();
        self.head.valid.next = self.hq_valid.q.val();
        self.head.kind.next = self.hq_kind.q.val();
        self.head.pushed.next = self.hq_pushed.q.val();
        self.head.returned.next = self.hq_data.returned.val();
        self.hq_word[0].next = self.hq_data.word0.val();
        self.hq_word[1].next = self.hq_data.word1.val();
        self.hq_word[2].next = self.hq_data.word2.val();
        self.hq_word[3].next = self.hq_data.word3.val();
        self.head.op.next = self.ent_op.read_data.val();
        self.head.ty.next = self.ent_ty.read_data.val();
        self.head.lane.next = self.ent_lane.read_data.val();
        self.head.elem.next = self.ent_elem.read_data.val();
        self.head.result_shift.next = self.ent_result_shift.read_data.val();
        self.head_src0.next = self.ent_src0.read_data.val();
        self.head_src1.next = self.ent_src1.read_data.val();
        for k in 0..INFLIGHT_DEPTH {
            self.ent_ftz_q[k].next = self.ent_ftz[k].q.val();
            self.ent_result_first_q[k].next = self.ent_result_first[k].q.val();
            self.ent_result_last_q[k].next = self.ent_result_last[k].q.val();
            self.ent_msg_last_q[k].next = self.ent_msg_last[k].q.val();
            self.ent_error_q[k].next = self.ent_error[k].q.val();
        }
        self.head.push_data.next = self.push_data.q.val();
        self.head.push_bytes.next = self.push_bytes.q.val();
        for k in 0..AHEAD_STAGES {
            self.hz_overlaps_q[k].next = self.hz_overlaps[k].q.val();
            self.hz_same_bytes_q[k].next = self.hz_same_bytes[k].q.val();
        }
        self.head.late_overlaps.next = self.hz_late_overlaps.q.val();
        self.full.next = self.occupancy.q.val() == self.table_full.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflight_table_synthesizes() {
        for fp_built in [false, true] {
            let mut uut = InflightTable::new(fp_built);
            uut.connect_all();
            yosys_validate("atomport_inflight_table", &generate_verilog(&uut)).unwrap();
        }
    }
}
