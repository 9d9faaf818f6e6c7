//! `MemoryPorts`: the unit's memory ports and results
//! (docs/microarchitecture.md "Memory ports"): the read and write skids
//! (`ReadSkid`, `WriteSkid`, the only logic reading the readies) with the
//! refused request's registers (`r_*`, `s_*`), the write on the port, and
//! the lane's result (`result_acc`, `rsp_*`) and observation (`obs_*`).
//!
//! The allocate stage's read goes out with `a_reads`; the write stage's
//! operation leaves W whenever the write skid is empty (`write_full` low:
//! the parent moves the execute stages with it). Inputs reach outputs only
//! through the ports' muxes (`mem_rd_*` from `a_*`, `port_*` from `w_*`);
//! `read_full` and `write_full` are registers, so the parent's `alloc` and
//! `x_free` built on them come back in without a loop (Verilator
//! `UNOPTFLAT`). `mem_rd_ready` and `mem_wr_ready` go into the skids'
//! registers only; `atomport emit` moves their wiring out of the block.

use atomport_isa::UnitConfig;
use rust_hdl::prelude::*;

use super::payloads::WriteStageIn;
use crate::head_select::{ENTRY_KIND_BITS, ENTRY_NO_MEMORY, ENTRY_READ_MODIFY_WRITE};
use crate::port_skid::{ReadSkid, WriteSkid};
use crate::widths::{ADDR_BITS, ELEM_BITS, LANE_BITS, LINE_BITS, LINE_BYTES};

/// The memory ports and results. See the module documentation.
#[derive(LogicBlock)]
pub struct MemoryPorts {
    pub clock: Signal<In, Clock>,
    /// the registered reset: empties the skids, no result
    pub reset: Signal<In, Bit>,
    /// the unit's port readies (into the skids only)
    pub mem_rd_ready: Signal<In, Bit>,
    pub mem_wr_ready: Signal<In, Bit>,
    /// the allocate stage sends its read this cycle, and its line
    pub a_reads: Signal<In, Bit>,
    pub a_line: Signal<In, Bits<ADDR_BITS>>,
    pub a_space: Signal<In, Bit>,
    pub a_byte_enables: Signal<In, Bits<LINE_BYTES>>,
    /// the write stage's operation (`ExecutePipe`'s W registers, one
    /// bundle: `WriteStageIn`, unit/payloads.rs) and its write data in its
    /// line (`WriteAlign`)
    pub w: WriteStageIn,
    pub w_data: Signal<In, Bits<LINE_BITS>>,

    /// a refused read / write waits in its skid (registers)
    pub read_full: Signal<Out, Bit>,
    pub write_full: Signal<Out, Bit>,
    pub mem_rd_valid: Signal<Out, Bit>,
    pub mem_rd_addr: Signal<Out, Bits<ADDR_BITS>>,
    pub mem_rd_space: Signal<Out, Bit>,
    pub mem_rd_be: Signal<Out, Bits<LINE_BYTES>>,
    /// the write on the port: the skid register's, or the write stage's
    pub port_write: Signal<Out, Bit>,
    pub port_line: Signal<Out, Bits<ADDR_BITS>>,
    pub port_space: Signal<Out, Bit>,
    pub port_data: Signal<Out, Bits<LINE_BITS>>,
    pub port_byte_enables: Signal<Out, Bits<LINE_BYTES>>,
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_lane: Signal<Out, Bits<LANE_BITS>>,
    pub rsp_data: Signal<Out, Bits<LINE_BITS>>,
    pub rsp_done: Signal<Out, Bit>,
    pub rsp_error: Signal<Out, Bit>,
    pub obs_valid: Signal<Out, Bit>,
    pub obs_lane: Signal<Out, Bits<LANE_BITS>>,
    pub obs_elem: Signal<Out, Bits<ELEM_BITS>>,
    pub obs_old: Signal<Out, Bits<LINE_BITS>>,
    pub obs_new: Signal<Out, Bits<LINE_BITS>>,

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
    /// the lane's result so far (PTX vectors: elements joined; unused in a
    /// build that does not join elements)
    result_acc: DFF<Bits<LINE_BITS>>,
    rsp_valid_r: DFF<Bit>,
    rsp_lane_r: DFF<Bits<LANE_BITS>>,
    rsp_data_r: DFF<Bits<LINE_BITS>>,

    kind_no_memory: Constant<Bits<ENTRY_KIND_BITS>>,
    kind_read_modify_write: Constant<Bits<ENTRY_KIND_BITS>>,
    zero_line: Constant<Bits<LINE_BITS>>,
    /// result shifts are byte multiples: masking the low 3 bits to constant
    /// zeros lets synthesis build byte shifters
    byte_aligned: Constant<Bits<7>>,
    /// the build joins a lane's elements into its result
    /// (`UnitConfig::joins_elements`); without, a result is one element and
    /// the element stages' result place and index feed nothing
    joins_elements: Constant<Bit>,
    /// the data bits built: results and observed values are zero above them
    data_built: Constant<Bits<LINE_BITS>>,

    // ---- locals (named for waveforms) ----
    w_is_rmw: Signal<Local, Bit>,
    w_has_result: Signal<Local, Bit>,
    /// the write stage's operation leaves W this cycle (the write skid
    /// register is empty; its write, if any, is on the port)
    retire: Signal<Local, Bit>,
    result_value: Signal<Local, Bits<LINE_BITS>>,
    result_joined: Signal<Local, Bits<LINE_BITS>>,
}

impl MemoryPorts {
    pub fn new(config: UnitConfig) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            mem_rd_ready: Default::default(),
            mem_wr_ready: Default::default(),
            a_reads: Default::default(),
            a_line: Default::default(),
            a_space: Default::default(),
            a_byte_enables: Default::default(),
            w: Default::default(),
            w_data: Default::default(),
            read_full: Default::default(),
            write_full: Default::default(),
            mem_rd_valid: Default::default(),
            mem_rd_addr: Default::default(),
            mem_rd_space: Default::default(),
            mem_rd_be: Default::default(),
            port_write: Default::default(),
            port_line: Default::default(),
            port_space: Default::default(),
            port_data: Default::default(),
            port_byte_enables: Default::default(),
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
            result_acc: Default::default(),
            rsp_valid_r: Default::default(),
            rsp_lane_r: Default::default(),
            rsp_data_r: Default::default(),
            kind_no_memory: Constant::new((ENTRY_NO_MEMORY as u64).to_bits()),
            kind_read_modify_write: Constant::new((ENTRY_READ_MODIFY_WRITE as u64).to_bits()),
            zero_line: Constant::new(0u64.to_bits()),
            byte_aligned: Constant::new(0x78u64.to_bits()),
            joins_elements: Constant::new(config.joins_elements()),
            data_built: Constant::new(config.data_mask().to_bits()),
            w_is_rmw: Default::default(),
            w_has_result: Default::default(),
            retire: Default::default(),
            result_value: Default::default(),
            result_joined: Default::default(),
        }
    }
}

impl Logic for MemoryPorts {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
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
            s_new,
            result_acc,
            rsp_valid_r,
            rsp_lane_r,
            rsp_data_r
        );

        // ================= read port: the allocate stage's read =================
        // (a read the memory has not accepted waits in the read skid
        // register, `r_*`, and stays on the port from there; the parent
        // allocates nothing until it is accepted)
        self.read_skid.clock.next = self.clock.val();
        self.read_skid.clear.next = self.reset.val();
        self.read_skid.ready.next = self.mem_rd_ready.val();
        self.read_skid.issue.next = self.a_reads.val();
        self.read_full.next = self.read_skid.full.val();
        if self.a_reads.val() {
            self.r_line.d.next = self.a_line.val();
            self.r_space.d.next = self.a_space.val();
            self.r_byte_enables.d.next = self.a_byte_enables.val();
        }
        self.mem_rd_valid.next = self.read_skid.full.val() | self.a_reads.val();
        self.mem_rd_addr.next = self.a_line.val();
        self.mem_rd_space.next = self.a_space.val();
        self.mem_rd_be.next = self.a_byte_enables.val();
        if self.read_skid.full.val() {
            self.mem_rd_addr.next = self.r_line.q.val();
            self.mem_rd_space.next = self.r_space.q.val();
            self.mem_rd_be.next = self.r_byte_enables.q.val();
        }

        // ================= write port: the write stage retires =================
        // The write stage's operation leaves whenever the write skid
        // register is empty; its write, if any, is on the port in that
        // cycle, and waits in the skid register (`s_*`) if the memory does
        // not accept it, holding the pipeline until it is accepted.
        self.w_is_rmw.next = self.w.kind.val() == self.kind_read_modify_write.val();
        self.retire.next = (self.w.valid.val() & !self.write_skid.full.val()) & !self.reset.val();
        self.write_skid.clock.next = self.clock.val();
        self.write_skid.clear.next = self.reset.val();
        self.write_skid.ready.next = self.mem_wr_ready.val();
        self.write_skid.leave.next = self.retire.val();
        self.write_skid.leave_writes.next = self.w.writes.val();
        self.write_skid.leave_last.next = self.w.msg_last.val();
        self.write_skid.leave_error.next = self.w.error.val();
        self.write_skid.leave_rmw.next = self.w_is_rmw.val();
        self.write_full.next = self.write_skid.full.val();
        if self.retire.val() & self.w.writes.val() {
            self.s_line.d.next = self.w.line.val();
            self.s_space.d.next = self.w.space.val();
            self.s_data.d.next = self.w_data.val();
            self.s_byte_enables.d.next = self.w.byte_enables.val();
            self.s_lane.d.next = self.w.lane.val();
            self.s_old.d.next = self.w.old.val() & self.data_built.val();
            self.s_new.d.next = self.w.new.val() & self.data_built.val();
            if self.joins_elements.val() {
                self.s_elem.d.next = self.w.elem.val();
            }
        }
        self.port_write.next = self.write_skid.full.val() | (self.w.writes.val() & !self.reset.val());
        self.port_line.next = self.w.line.val();
        self.port_space.next = self.w.space.val();
        self.port_data.next = self.w_data.val();
        self.port_byte_enables.next = self.w.byte_enables.val();
        if self.write_skid.full.val() {
            self.port_line.next = self.s_line.q.val();
            self.port_space.next = self.s_space.q.val();
            self.port_data.next = self.s_data.q.val();
            self.port_byte_enables.next = self.s_byte_enables.q.val();
        }

        // The lane's result: old value (new for PREDEC), 0 when out of
        // bounds; PTX vector elements are joined into one result.
        self.w_has_result.next = self.w_is_rmw.val() | (self.w.kind.val() == self.kind_no_memory.val());
        self.result_value.next = self.zero_line.val();
        if self.w_is_rmw.val() {
            self.result_value.next = self.w.ret.val() & self.data_built.val();
        }
        self.result_joined.next = self.result_value.val();
        if self.joins_elements.val() {
            self.result_joined.next = self.result_value.val() << (self.w.result_shift.val() & self.byte_aligned.val());
            if !self.w.result_first.val() {
                self.result_joined.next = self.result_acc.q.val() | (self.result_value.val() << (self.w.result_shift.val() & self.byte_aligned.val()));
            }
            if self.retire.val() & self.w_has_result.val() {
                self.result_acc.d.next = self.result_joined.val();
            }
        }
        self.rsp_valid_r.d.next = (self.retire.val() & self.w_has_result.val()) & self.w.result_last.val();
        self.rsp_lane_r.d.next = self.w.lane.val();
        self.rsp_data_r.d.next = self.result_joined.val();
        // `rsp_done`/`rsp_error`/`obs_valid` follow the write's acceptance
        // (`WriteSkid`, registered). The observed operation is in the skid
        // registers `s_*` in the cycle after: they load every write leaving
        // W, and hold a refused one until it is accepted (no W write leaves
        // meanwhile), so `obs_*` are those registers, with no mux.
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

        if self.reset.val() {
            self.rsp_valid_r.d.next = false;
        }
    }
}
