//! The golden behavioral model: what every message does to memory, lane by
//! lane, in plain Rust. The RTL under Verilator is checked against it,
//! transaction by transaction and then on the final memory.
//!
//! * [`alu`]: the atomic ALU, a function of the RTL ALU's control values.
//! * [`fp`]: the soft-float (IEEE add with round-to-nearest-even and FTZ,
//!   min/max orders, equality) the float ops use.
//! * [`memory`]: sparse 64-bit byte memory (flat memory and SLM).
//! * [`surface`]: surface / space resolution and bounds.
//! * [`Machine`]: the state (flat memory, SLM, surfaces) and the message
//!   engine; [`run`] runs a whole script.
//!
//! The rules the seeds leave open are those of scripts.md; the choices this
//! model adds are in docs/golden-model.md.
//!
//! # Transactions
//! Every memory access is recorded as a [`Txn`], in the order performed:
//! * an atomic lane (or PTX vector element) in bounds makes one `Read` of
//!   the old value then one `Write` of the new value, always, even when the
//!   value does not change (a failed CMPXCHG writes old back);
//! * an SVM_SCATTER lane makes one `Write` per block, block 0 first;
//! * an out-of-bounds access or a disabled lane makes none.

pub mod atomic_ops;
pub mod soft_float;
pub mod sparse_memory;
pub mod surface;

#[cfg(test)]
mod tests;

use crate::outcome::{DumpOut, LaneResults, RunOutput, Txn, TxnKind};
use crate::message::{Body, Message, PredRef};
use crate::ops::{AluCtl, PtxOp};
use crate::program::{Program, Space, Stmt};
use sparse_memory::Memory;
use surface::SurfaceTable;

/// The machine state a script acts on: flat memory, SLM and the surfaces.
#[derive(Clone, Debug)]
pub struct Machine {
    flat: Memory,
    slm: Memory,
    surfaces: SurfaceTable,
}

/// Where one lane's results and transactions go.
struct Sink<'a> {
    msg: usize,
    txns: &'a mut Vec<Txn>,
}

impl Machine {
    /// The state before any statement of `program` ran: empty memories, the
    /// program's surfaces and SLM size.
    pub fn new(program: &Program) -> Machine {
        Machine {
            flat: Memory::new(),
            slm: Memory::new(),
            surfaces: SurfaceTable::new(&program.surfaces, program.slm_size),
        }
    }

    /// Apply a `mem.<t>` / `slm.<t>` statement. Other statements are not
    /// state changes and are ignored (messages go through [`Machine::exec`]).
    /// Init stores bypass SLM bounds: they are the test's setup, not accesses.
    pub fn apply_init(&mut self, stmt: &Stmt) {
        if let Stmt::Init { space, addr, bytes, .. } = stmt {
            self.write(*space, *addr, bytes);
        }
    }

    fn mem(&self, space: Space) -> &Memory {
        match space {
            Space::Flat => &self.flat,
            Space::Slm => &self.slm,
        }
    }

    fn mem_mut(&mut self, space: Space) -> &mut Memory {
        match space {
            Space::Flat => &mut self.flat,
            Space::Slm => &mut self.slm,
        }
    }

    /// `len` bytes of `space` from `addr`; untouched bytes are zero.
    pub fn read(&self, space: Space, addr: u64, len: u64) -> Vec<u8> {
        self.mem(space).read(addr, len)
    }

    /// Store bytes into `space` from `addr` (no bounds: setup and test use).
    pub fn write(&mut self, space: Space, addr: u64, bytes: &[u8]) {
        self.mem_mut(space).write(addr, bytes)
    }

    /// The memory of one space, to enumerate what was touched
    /// ([`Memory::pages`], [`Memory::nonzero_bytes`]) for final-memory
    /// comparison.
    pub fn memory(&self, space: Space) -> &Memory {
        self.mem(space)
    }

    /// Execute one message (`msg_index`: its 0-based index among the
    /// script's messages, recorded in its transactions). Returns one entry
    /// per lane (None for a disabled lane, and for every SVM_SCATTER lane,
    /// which returns nothing) and the transactions in order.
    pub fn exec(&mut self, msg_index: usize, msg: &Message) -> (Vec<Option<u128>>, Vec<Txn>) {
        let mut lanes = Vec::with_capacity(msg.exec_size as usize);
        let mut txns = Vec::with_capacity(2 * msg.exec_size as usize);
        self.exec_into(msg_index, msg, &mut lanes, &mut txns);
        (lanes, txns)
    }

    /// [`Machine::exec`] of `msg` as the unit executes it when lane `lane`'s
    /// address reaches the pins one byte off its element's alignment (the
    /// script language refuses such a message; a descriptor can carry it):
    /// that lane makes no access and returns 0 (a message with an ALU op),
    /// the other lanes execute in order, and the message ends with an error
    /// (docs/microarchitecture.md "Payload port"). `lane` must be enabled.
    pub fn exec_misaligned(&mut self, msg_index: usize, msg: &Message, lane: usize) -> (Vec<Option<u128>>, Vec<Txn>) {
        let enables = msg.lane_enables();
        assert!(enables >> lane & 1 == 1, "lane {lane} is not enabled");
        let mut without = msg.clone();
        without.pred = Some(PredRef { name: "misaligned".into(), negate: false, mask: enables & !(1 << lane) });
        let (mut lanes, txns) = self.exec(msg_index, &without);
        if msg.alu().is_some() {
            lanes[lane] = Some(0);
        }
        (lanes, txns)
    }

    /// [`Machine::exec`] appending to caller-owned buffers (no allocation
    /// once they have grown): `lanes` gets exactly `exec_size` entries.
    pub fn exec_into(&mut self, msg_index: usize, msg: &Message, lanes: &mut Vec<Option<u128>>, txns: &mut Vec<Txn>) {
        let enables = msg.lane_enables();
        let mut sink = Sink { msg: msg_index, txns };
        let n = msg.exec_size as usize;
        let first_lane = lanes.len();
        lanes.resize(first_lane + n, None);
        let lanes = &mut lanes[first_lane..];
        let enabled = |i: usize| enables >> i & 1 != 0;
        let ctl = msg.alu();
        // src operands of lane i; V0 reads as 0
        let at = |v: &Option<Vec<u128>>, i: usize| v.as_ref().map_or(0, |v| v[i]);

        match &msg.body {
            Body::SvmAtomic { addrs, src0, src1, .. } => {
                let ctl = ctl.expect("atomic");
                for i in (0..n).filter(|&i| enabled(i)) {
                    let target = Some((Space::Flat, addrs[i]));
                    lanes[i] = Some(self.atomic(&mut sink, i, target, ctl, at(src0, i), at(src1, i)));
                }
            }
            Body::DwordAtomic { surface, offsets, src0, src1, .. } => {
                let ctl = ctl.expect("atomic");
                for i in (0..n).filter(|&i| enabled(i)) {
                    let target = self.surfaces.dword(*surface, offsets[i], ctl.ty.bytes());
                    lanes[i] = Some(self.atomic(&mut sink, i, target, ctl, at(src0, i), at(src1, i)));
                }
            }
            Body::TypedAtomic { surface, u, v, r, lod, src0, src1, .. } => {
                let ctl = ctl.expect("atomic");
                let coord = |c: &Option<Vec<u32>>, i: usize| c.as_ref().map_or(0, |c| c[i]);
                for i in (0..n).filter(|&i| enabled(i)) {
                    let target = self.surfaces.typed(*surface, u[i], coord(v, i), coord(r, i), coord(lod, i));
                    lanes[i] = Some(self.atomic(&mut sink, i, target, ctl, at(src0, i), at(src1, i)));
                }
            }
            Body::SvmScatter { block_size, num_blocks, addrs, src } => {
                let (bs, nb) = (*block_size as u64, *num_blocks as usize);
                for i in (0..n).filter(|&i| enabled(i)) {
                    // seed SVM_SCATTER Semantics: the src layout differs for 1-byte blocks
                    for j in 0..nb {
                        let value = if bs == 1 { src[i * nb.max(4) + j] } else { src[j * n + i] };
                        let addr = addrs[i].wrapping_add(j as u64 * bs);
                        self.flat.store(addr, bs as u32, value as u128);
                        sink.record(i, TxnKind::Write, Space::Flat, addr, bs as u32, value as u128);
                    }
                }
            }
            Body::PtxAtom { space, op, vec, addrs, b, c, .. } => {
                let ctl = ctl.expect("atomic");
                let eb = ctl.ty.bits();
                let elem = |x: u128, k: u32| if eb == 128 { x } else { (x >> (k * eb)) & ctl.ty.mask() };
                for i in (0..n).filter(|&i| enabled(i)) {
                    // vector forms: element k at a + k * elem_bytes, each its own
                    // read and write, element 0 first; the result joins the
                    // old elements element 0 low
                    let mut result = 0u128;
                    for k in 0..*vec as u32 {
                        let addr = addrs[i].wrapping_add(k as u64 * ctl.ty.bytes() as u64);
                        let target = if space.is_shared() {
                            self.surfaces.slm(addr, ctl.ty.bytes())
                        } else {
                            Some((Space::Flat, addr))
                        };
                        let b_k = elem(b[i], k);
                        // cas: b is the compare value, c the new one (CMPXCHG's src1, src0)
                        let (src0, src1) = if *op == PtxOp::Cas { (elem(at(c, i), k), b_k) } else { (b_k, 0) };
                        let old = self.atomic(&mut sink, i, target, ctl, src0, src1);
                        result |= old << (k * eb);
                    }
                    lanes[i] = Some(result);
                }
            }
        }
    }

    /// One atomic access: read old, write ALU(old, src0, src1), return the
    /// ALU's returned value; out of bounds (`target` None): no access, 0.
    #[inline]
    fn atomic(
        &mut self,
        sink: &mut Sink,
        lane: usize,
        target: Option<(Space, u64)>,
        ctl: AluCtl,
        src0: u128,
        src1: u128,
    ) -> u128 {
        let Some((space, addr)) = target else {
            return 0;
        };
        let bytes = ctl.ty.bytes();
        let (old, out) = self.mem_mut(space).update(addr, bytes, |old| {
            let out = atomic_ops::apply(ctl, old, src0, src1);
            (out.new, (old, out))
        });
        sink.record(lane, TxnKind::Read, space, addr, bytes, old);
        sink.record(lane, TxnKind::Write, space, addr, bytes, out.new);
        out.ret
    }
}

impl Sink<'_> {
    #[inline]
    fn record(&mut self, lane: usize, kind: TxnKind, space: Space, addr: u64, bytes: u32, data: u128) {
        self.txns.push(Txn { msg: self.msg, lane: lane as u8, kind, space, addr, bytes: bytes as u8, data });
    }
}

/// Run a whole script on the golden model: statements in order, a result
/// entry for every message whose dst is not V0, dumps after all messages.
pub fn run(program: &Program) -> RunOutput {
    let mut machine = Machine::new(program);
    let mut results = Vec::new();
    let mut txns = Vec::new();
    let mut msg_index = 0;
    for stmt in &program.stmts {
        match stmt {
            Stmt::Init { .. } => machine.apply_init(stmt),
            Stmt::Message(msg) => {
                let mut lanes = Vec::with_capacity(msg.exec_size as usize);
                machine.exec_into(msg_index, msg, &mut lanes, &mut txns);
                msg_index += 1;
                if let Some(name) = &msg.dst {
                    let width = msg.result_width();
                    let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
                    let lanes = lanes.into_iter().map(|l| l.map(|v| v & mask)).collect();
                    results.push(LaneResults { line: msg.line, name: name.clone(), width, lanes });
                }
            }
            Stmt::Dump { .. } => {}
        }
    }
    // dumps report memory after all messages ran (scripts.md)
    let dumps = program
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Dump { line, space, addr, len } => {
                Some(DumpOut { line: *line, space: *space, addr: *addr, bytes: machine.read(*space, *addr, *len) })
            }
            _ => None,
        })
        .collect();
    RunOutput { engine: "golden", results, dumps, txns }
}
