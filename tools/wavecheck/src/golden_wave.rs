//! The golden waveform: the golden model's transactions and results for a
//! script, drawn as a transaction-level VCD of the unit's memory port and
//! result port, under the unit's port names (docs/microarchitecture.md), so
//! the same viewers, `.gtkw` views and `wavecheck` apply.
//!
//! It is a schedule, not a timing model: one clock period (10 ns, 1 ns
//! units, like the RTL's traces) per transaction, in golden order:
//!
//! | event | cycle |
//! | --- | --- |
//! | a `Read` | `mem_rd_valid & mem_rd_ready` in cycle c; its line (memory as the golden model held it then) on `mem_rdata` with `mem_rdata_valid` in c+1 |
//! | a `Write` | `mem_wr_valid & mem_wr_ready` in the next cycle; an atomic element's write also shows `obs_*` (old = the Read's data, new = the Write's) |
//! | a message | `req_valid & req_ready` with its descriptor on `req_desc` in its first cycle |
//! | results | after the message's transactions, one enabled lane per cycle on `rsp_*` (not for SVM_SCATTER); `rsp_done` with the last one (alone if none) |
//!
//! Extra signals say where each cycle comes from: `msg_index`, `msg_line`
//! (script line), and per transaction `txn_index`, `txn_write`, `txn_lane`,
//! `txn_addr` (byte address), `txn_bytes`, `txn_data` (the element value).
//! Buses are 0 in cycles their valid is low.

use std::io::{self, Write};
use std::path::Path;

use atomport_core::outcome::TxnKind;
use atomport_core::golden::Machine;
use atomport_core::message::Body;
use atomport_core::program::{Program, Space, Stmt};

use atomport_wave::reader::Timescale;
use atomport_wave::writer::{SignalId, VcdWriter};

/// Clock period of the golden waveform, in its 1 ns units (the RTL's).
pub const PERIOD: u64 = 10;

/// Scope of the golden waveform's signals.
pub const SCOPE: &str = "golden";

/// What one cycle of the golden waveform carries.
#[derive(Clone, Copy, Debug, Default)]
struct Cycle {
    msg: Option<(u32, u32)>,
    /// the descriptor raised on `req_desc` (and taken) this cycle
    req: Option<u128>,
    rd: Option<(u8, u64, u16)>,
    rdata: Option<u128>,
    wr: Option<(u8, u64, u16, u128)>,
    rsp: Option<(u8, u128)>,
    done: bool,
    obs: Option<(u8, u8, u128, u128)>,
    /// (index, write, lane, addr, bytes, data)
    txn: Option<(u32, bool, u8, u64, u8, u128)>,
}

fn space_code(s: Space) -> u8 {
    (s == Space::Slm) as u8
}

/// The golden model's cycles for `program`.
fn schedule(program: &Program) -> Vec<Cycle> {
    let mut encoder = atomport_core::descriptor::Encoder::new();
    let mut machine = Machine::new(program);
    // a second machine replays inits and writes: memory as it was at each read
    let mut shadow = Machine::new(program);
    let mut cycles: Vec<Cycle> = Vec::new();
    let at = |cycles: &mut Vec<Cycle>, c: usize| -> usize {
        if cycles.len() <= c {
            cycles.resize(c + 1, Cycle::default());
        }
        c
    };
    let mut c = 0usize;
    let mut msg_index = 0usize;
    let mut txn_index = 0u32;
    for stmt in &program.stmts {
        match stmt {
            Stmt::Init { .. } => {
                machine.apply_init(stmt);
                shadow.apply_init(stmt);
            }
            Stmt::Message(msg) => {
                let (lanes, txns) = machine.exec(msg_index, msg);
                // a script the golden model runs encodes (parse validated it)
                let desc = atomport_testbench::driver::request(program, &mut encoder, msg).map_or(0, |r| r.desc);
                let first = at(&mut cycles, c);
                cycles[first].req = Some(desc);
                let info = Some((msg_index as u32, msg.line as u32));
                let mut elem = 0u8;
                for (k, t) in txns.iter().enumerate() {
                    let line = t.addr & !15;
                    let off = (t.addr & 15) as u32;
                    let be = (((1u32 << t.bytes) - 1) << off) as u16;
                    let i = at(&mut cycles, c);
                    cycles[i].msg = info;
                    cycles[i].txn = Some((txn_index, t.kind == TxnKind::Write, t.lane, t.addr, t.bytes, t.data));
                    txn_index += 1;
                    match t.kind {
                        TxnKind::Read => {
                            let bytes = shadow.read(t.space, line, 16);
                            let data = u128::from_le_bytes(bytes.try_into().unwrap());
                            cycles[i].rd = Some((space_code(t.space), line, be));
                            let j = at(&mut cycles, c + 1);
                            cycles[j].rdata = Some(data);
                        }
                        TxnKind::Write => {
                            shadow.write(t.space, t.addr, &t.data.to_le_bytes()[..t.bytes as usize]);
                            cycles[i].wr = Some((space_code(t.space), line, be, t.data << (8 * off)));
                            if let Some(rd) = k.checked_sub(1).map(|p| &txns[p]).filter(|p| p.kind == TxnKind::Read) {
                                // element index inside the lane (PTX vectors)
                                let same_lane_before = k >= 3
                                    && txns[k - 3].kind == TxnKind::Read
                                    && txns[k - 3].lane == t.lane
                                    && txns[k - 2].kind == TxnKind::Write;
                                elem = if same_lane_before { elem + 1 } else { 0 };
                                cycles[i].obs = Some((t.lane, elem, rd.data, t.data));
                            }
                        }
                    }
                    c += 1;
                }
                if !matches!(msg.body, Body::SvmScatter { .. }) {
                    let width = msg.result_width();
                    let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
                    for (lane, v) in lanes.iter().enumerate() {
                        if let Some(v) = v {
                            let i = at(&mut cycles, c);
                            cycles[i].msg = info;
                            cycles[i].rsp = Some((lane as u8, v & mask));
                            c += 1;
                        }
                    }
                }
                if cycles.get(c.wrapping_sub(1)).is_some_and(|p| p.rsp.is_some() && p.msg == info) {
                    cycles[c - 1].done = true;
                } else {
                    let i = at(&mut cycles, c);
                    cycles[i].msg = info;
                    cycles[i].done = true;
                    c += 1;
                }
                msg_index += 1;
            }
            Stmt::Dump { .. } => {}
        }
    }
    // one idle cycle at the end
    at(&mut cycles, c);
    cycles
}

/// Writes the golden waveform of `program` (see the module doc).
pub fn write_golden_vcd<W: Write>(program: &Program, out: W) -> io::Result<W> {
    let cycles = schedule(program);
    let mut w = VcdWriter::new(out, Timescale::NS, "atomport golden model (transaction level)")?;
    w.comment(&format!("golden model transactions of {}; one transaction per clock period", program.file))?;
    w.scope(SCOPE)?;
    let names: [(&str, u32); 34] = [
        ("clock", 1),
        ("req_valid", 1),
        ("req_ready", 1),
        ("req_desc", 128),
        ("mem_rd_valid", 1),
        ("mem_rd_ready", 1),
        ("mem_rd_addr", 64),
        ("mem_rd_space", 1),
        ("mem_rd_be", 16),
        ("mem_rdata_valid", 1),
        ("mem_rdata", 128),
        ("mem_wr_valid", 1),
        ("mem_wr_ready", 1),
        ("mem_wr_addr", 64),
        ("mem_wr_space", 1),
        ("mem_wr_data", 128),
        ("mem_wr_be", 16),
        ("rsp_valid", 1),
        ("rsp_lane", 5),
        ("rsp_data", 128),
        ("rsp_done", 1),
        ("rsp_error", 1),
        ("obs_valid", 1),
        ("obs_lane", 5),
        ("obs_elem", 3),
        ("obs_old", 128),
        ("obs_new", 128),
        ("msg_index", 32),
        ("msg_line", 32),
        ("txn_index", 32),
        ("txn_write", 1),
        ("txn_lane", 5),
        ("txn_addr", 64),
        ("txn_bytes", 8),
    ];
    let mut ids: Vec<SignalId> = Vec::new();
    for (n, width) in names {
        ids.push(w.wire(n, width)?);
    }
    let txn_data = w.wire("txn_data", 128)?;
    w.upscope()?;
    w.enddefinitions()?;
    let id = |n: &str| &ids[names.iter().position(|(x, _)| *x == n).unwrap()];
    let mut last: Vec<Option<u128>> = vec![None; ids.len() + 1];
    for (c, cy) in cycles.iter().enumerate() {
        let t = c as u64 * PERIOD;
        w.time(t)?;
        let rd = cy.rd.unwrap_or_default();
        let wr = cy.wr.unwrap_or_default();
        let rsp = cy.rsp.unwrap_or_default();
        let obs = cy.obs.unwrap_or_default();
        let msg = cy.msg.unwrap_or_default();
        let txn = cy.txn.unwrap_or_default();
        let values: [(&str, u128); 34] = [
            ("clock", 0),
            ("req_valid", cy.req.is_some() as u128),
            ("req_ready", 1),
            ("req_desc", cy.req.unwrap_or(0)),
            ("mem_rd_valid", cy.rd.is_some() as u128),
            ("mem_rd_ready", 1),
            ("mem_rd_addr", rd.1 as u128),
            ("mem_rd_space", rd.0 as u128),
            ("mem_rd_be", rd.2 as u128),
            ("mem_rdata_valid", cy.rdata.is_some() as u128),
            ("mem_rdata", cy.rdata.unwrap_or(0)),
            ("mem_wr_valid", cy.wr.is_some() as u128),
            ("mem_wr_ready", 1),
            ("mem_wr_addr", wr.1 as u128),
            ("mem_wr_space", wr.0 as u128),
            ("mem_wr_data", wr.3),
            ("mem_wr_be", wr.2 as u128),
            ("rsp_valid", cy.rsp.is_some() as u128),
            ("rsp_lane", rsp.0 as u128),
            ("rsp_data", rsp.1),
            ("rsp_done", cy.done as u128),
            ("rsp_error", 0),
            ("obs_valid", cy.obs.is_some() as u128),
            ("obs_lane", obs.0 as u128),
            ("obs_elem", obs.1 as u128),
            ("obs_old", obs.2),
            ("obs_new", obs.3),
            ("msg_index", msg.0 as u128),
            ("msg_line", msg.1 as u128),
            ("txn_index", txn.0 as u128),
            ("txn_write", txn.1 as u128),
            ("txn_lane", txn.2 as u128),
            ("txn_addr", txn.3 as u128),
            ("txn_bytes", txn.4 as u128),
        ];
        for (k, (n, v)) in values.iter().enumerate() {
            if last[k] != Some(*v) || (*n == "clock") {
                w.change(id(n), *v)?;
                last[k] = Some(*v);
            }
        }
        if last[ids.len()] != Some(txn.5) {
            w.change(&txn_data, txn.5)?;
            last[ids.len()] = Some(txn.5);
        }
        w.time(t + PERIOD / 2)?;
        w.change(id("clock"), 1)?;
    }
    w.time(cycles.len() as u64 * PERIOD)?;
    w.change(id("clock"), 0)?;
    w.finish()
}

/// Writes the golden waveform of `program` to `path`, whole
/// (`atomport_core::output_file`).
pub fn write_golden_vcd_file(program: &Program, path: &Path) -> Result<(), atomport_core::output_file::OutputError> {
    let out = atomport_core::output_file::OutputFile::create(path)?;
    let out = write_golden_vcd(program, out).map_err(|e| atomport_core::output_file::OutputError::new(path, format!("cannot write: {e}")))?;
    out.commit()
}
