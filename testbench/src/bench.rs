//! `atomport bench`: the unit's throughput per message kind and exec size
//! on the RTL (one-cycle memory, no stalls), and the simulation speed of
//! the Rust-driven Verilator loop against a C++ harness of the same model.
//!
//! Throughput: a stream of identical-shape messages, all lanes enabled, back
//! to back, checked in lockstep by the scoreboard (a fast wrong answer does
//! not count). Cycles per message are measured in steady state, between the
//! done of message [`WARMUP`] and the done of the last one. The targets:
//! one atomic element per cycle, also when every lane hits one
//! address; one scatter block per cycle; no idle cycle between messages; so
//! a message of E elements should cost E cycles. Except one case the
//! hardware cannot do in one cycle: when every lane adds floats to one
//! address, each add needs the previous one's rounded sum, which takes the
//! four-stage float pipeline [`atomport_isa::FLOAT_LOOP_CYCLES`] cycles,
//! so those streams' target is `1 + (E - 1) * FLOAT_LOOP_CYCLES` cycles
//! per message (the next message's lanes use another address and overlap)
//! (docs/microarchitecture.md "Execute pipeline").
//!
//! Speed: both loops drive the same fixed stream of pre-encoded messages
//! (pin images) through `atomic_unit` with the same minimal memory (64 KiB,
//! one-cycle reads, always ready) and fold every result into a checksum;
//! the two checksums and cycle counts must agree.

use atomport_sim::VAtomicUnit;

use atomport_core::descriptor::Encoder;
use atomport_core::program::Program;

use super::driver;
use super::session::{RtlError, RtlOptions, Session};
use super::memory::MemConfig;
use super::pins::PinRequest;
use super::scoreboard::Scoreboard;

/// Messages per throughput stream.
pub const STREAM: usize = 24;
/// Messages left out of the steady-state measurement.
pub const WARMUP: usize = 4;

/// One throughput measurement.
#[derive(Clone, Debug)]
pub struct ThroughputRow {
    /// message kind and shape, e.g. `DWORD_ATOMIC.add T255`
    pub kind: String,
    pub exec_size: u8,
    /// what the lanes address: `distinct` or `same`
    pub addressing: &'static str,
    pub enabled_lanes: u32,
    /// memory elements per message (lanes x vector elements or blocks)
    pub elements: u32,
    /// steady-state cycles per message
    pub cycles_per_message: f64,
    pub cycles_per_lane: f64,
    /// cycles from raising the first message to its done
    pub first_latency: u64,
    /// target cycles per message (= elements; 1 + (elements - 1) x FLOAT_LOOP_CYCLES for float ops on one address)
    pub target: f64,
}

impl ThroughputRow {
    pub fn met(&self) -> bool {
        self.cycles_per_message <= self.target + 1e-9
    }
}

/// One stream: label, exec size, addressing, and the script text.
struct Stream {
    kind: String,
    exec: u8,
    addressing: &'static str,
    elements_per_lane: u32,
    text: String,
}

fn lanes_hex(values: impl Iterator<Item = u128>) -> String {
    let v: Vec<String> = values.map(|x| format!("{x:#x}")).collect();
    format!("[{}]", v.join(" "))
}

/// The streams measured: every kind at every exec size it takes.
fn streams(fp: &std::collections::BTreeSet<super::generator::FpFamily>) -> Vec<Stream> {
    let mut out = vec![];
    let addr = |m: usize, lane: usize, stride: u64, same: bool| -> u128 {
        if same {
            0x1000 + 0x10 * (m as u128 % 4)
        } else {
            0x1000 + (m as u128 % 4) * 0x400 + lane as u128 * stride as u128
        }
    };
    let ones = |n: u8| lanes_hex((0..n).map(|i| i as u128 + 1));
    let mut add = |kind: &str, exec: u8, same: bool, per_lane: u32, line: &dyn Fn(usize) -> String, header: &str| {
        let mut text = String::from(header);
        for m in 0..STREAM {
            text.push_str(&line(m));
            text.push('\n');
        }
        out.push(Stream { kind: kind.into(), exec, addressing: if same { "same" } else { "distinct" }, elements_per_lane: per_lane, text });
    };
    use atomport_isa::MsgKind;
    for &exec in MsgKind::SvmAtomic.info().exec_sizes {
        add("SVM_ATOMIC.add", exec, false, 1, &|m| {
            format!("SVM_ATOMIC.add ({exec}) {} d{m} {} V0", lanes_hex((0..exec as usize).map(|l| addr(m, l, 4, false))), ones(exec))
        }, "");
    }
    add("SVM_ATOMIC.add.64", 8, false, 1, &|m| {
        format!("SVM_ATOMIC.add.64 (8) {} d{m} {} V0", lanes_hex((0..8).map(|l| addr(m, l, 8, false))), ones(8))
    }, "");
    add("SVM_ATOMIC.add", 8, true, 1, &|m| {
        format!("SVM_ATOMIC.add (8) {} d{m} {} V0", lanes_hex((0..8).map(|l| addr(m, l, 4, true))), ones(8))
    }, "");
    for &exec in MsgKind::DwordAtomic.info().exec_sizes {
        add("DWORD_ATOMIC.add T255", exec, false, 1, &|m| {
            format!("DWORD_ATOMIC.add ({exec}) T255 {} {} V0 d{m}", lanes_hex((0..exec as usize).map(|l| addr(m, l, 4, false))), ones(exec))
        }, "");
    }
    add("DWORD_ATOMIC.add T255", 32, true, 1, &|m| {
        format!("DWORD_ATOMIC.add (32) T255 {} {} V0 d{m}", lanes_hex((0..32).map(|l| addr(m, l, 4, true))), ones(32))
    }, "");
    add("DWORD_ATOMIC.cmpxchg T255", 32, true, 1, &|m| {
        format!(
            "DWORD_ATOMIC.cmpxchg (32) T255 {} {} {} d{m}",
            lanes_hex((0..32).map(|l| addr(m, l, 4, true))),
            lanes_hex((0..32).map(|l| l as u128 + 1)),
            lanes_hex((0..32).map(|l| l as u128))
        )
    }, "");
    add("DWORD_ATOMIC.add T0 (SLM)", 32, false, 1, &|m| {
        format!("DWORD_ATOMIC.add (32) T0 {} {} V0 d{m}", lanes_hex((0..32).map(|l| addr(m, l, 4, false) - 0x1000)), ones(32))
    }, "");
    add("DWORD_ATOMIC.add buffer", 32, false, 1, &|m| {
        format!("DWORD_ATOMIC.add (32) 1 {} {} V0 d{m}", lanes_hex((0..32).map(|l| addr(m, l, 4, false) - 0x1000)), ones(32))
    }, "surface 1 buffer base=0x8000 size=0x1000\n");
    add("DWORD_ATOMIC.add.16 T255", 32, false, 1, &|m| {
        format!("DWORD_ATOMIC.add.16 (32) T255 {} {} V0 d{m}", lanes_hex((0..32).map(|l| addr(m, l, 2, false))), ones(32))
    }, "");
    add("TYPED_ATOMIC.add 2d", 8, false, 1, &|m| {
        format!(
            "TYPED_ATOMIC.add (8) 1 {} {} V0 V0 {} V0 d{m}",
            lanes_hex((0..8).map(|l| l as u128)),
            lanes_hex((0..8).map(|_| m as u128 % 4)),
            ones(8)
        )
    }, "surface 1 2d base=0x8000 width=8 height=4 format=u32\n");
    for (bs, nb, execs) in [(4u8, 1u8, MsgKind::SvmScatter.info().exec_sizes), (8, 4, &[16][..]), (1, 4, &[16][..]), (4, 8, &[8][..]), (8, 2, &[16][..])] {
        for &exec in execs {
            let len = atomport_core::descriptor::scatter_src_len(bs, nb, exec);
            let stride = (bs as u64 * nb as u64).max(4);
            add(&format!("SVM_SCATTER.{bs}.{nb}"), exec, false, nb as u32, &|m| {
                format!(
                    "SVM_SCATTER.{bs}.{nb} ({exec}) {} {}",
                    lanes_hex((0..exec as usize).map(|l| addr(m, l, stride, false))),
                    lanes_hex((0..len).map(|i| (i as u128 + 1) & 0xff))
                )
            }, "");
        }
    }
    for &exec in MsgKind::PtxAtom.info().exec_sizes {
        add("atom.global.add.u32 (warp)", exec, false, 1, &|m| {
            format!(
                "atom.global.add.u32 ({exec}) d{m}, {}, {};",
                lanes_hex((0..exec as usize).map(|l| addr(m, l, 4, false))),
                ones(exec)
            )
        }, "");
    }
    add("atom.global.add.u32 (warp)", 32, true, 1, &|m| {
        format!("atom.global.add.u32 (32) d{m}, {}, {};", lanes_hex((0..32).map(|l| addr(m, l, 4, true))), ones(32))
    }, "");
    add("atom.global.cas.b128 (warp)", 8, false, 1, &|m| {
        format!(
            "atom.global.cas.b128 (8) d{m}, {}, {}, {};",
            lanes_hex((0..8).map(|l| addr(m, l, 16, false))),
            lanes_hex((0..8).map(|_| 0)),
            lanes_hex((0..8).map(|l| (l as u128) << 64 | 5))
        )
    }, "");
    add("atom.shared.add.u32 (1 thread)", 1, false, 1, &|m| format!("atom.shared.add.u32 d{m}, [{:#x}], 1;", 4 * (m % 8)), "");
    // float datapaths (each measured when the build admits it)
    use atomport_core::ops::{AluOp, ElemType};
    let has = |op: AluOp, ty: ElemType, ftz: bool| fp.contains(&(op, ty, ftz));
    let halves = |n: usize| lanes_hex((0..n).map(|l| 0x3c00 + l as u128));
    if has(AluOp::Fmax, ElemType::F32, false) {
        add("SVM_ATOMIC.fmax", 8, false, 1, &|m| {
            format!("SVM_ATOMIC.fmax (8) {} d{m} {} V0", lanes_hex((0..8).map(|l| addr(m, l, 4, false))), lanes_hex((0..8).map(|l| 0x3f80_0000 + l as u128)))
        }, "");
    }
    if has(AluOp::Add, ElemType::F32, true) {
        add("atom.global.add.f32 (warp)", 32, true, 1, &|m| {
            format!("atom.global.add.f32 (32) d{m}, {}, {};", lanes_hex((0..32).map(|l| addr(m, l, 4, true))), lanes_hex((0..32).map(|l| 0x3f80_0000 + l as u128)))
        }, "");
        add("atom.global.add.v4.f32 (warp)", 8, false, 4, &|m| {
            let v: Vec<String> = (0..8).map(|l| format!("{{{:#x}, {:#x}, {:#x}, {:#x}}}", 0x3f80_0000 + l, 0x4000_0000 + l, 0x4040_0000 + l, 0x4080_0000 + l)).collect();
            format!("atom.global.add.v4.f32 (8) d{m}, {}, [{}];", lanes_hex((0..8).map(|l| addr(m, l, 16, false))), v.join(" "))
        }, "");
    }
    if has(AluOp::Add, ElemType::F64, false) {
        add("atom.global.add.f64 (warp)", 32, true, 1, &|m| {
            format!("atom.global.add.f64 (32) d{m}, {}, {};", lanes_hex((0..32).map(|l| addr(m, l, 8, true))), lanes_hex((0..32).map(|l| 0x3ff0_0000_0000_0000 + l as u128)))
        }, "");
    }
    if has(AluOp::FmaxPtx, ElemType::BF16, false) {
        add("atom.global.max.noftz.v8.bf16 (warp)", 4, false, 8, &|m| {
            let v: Vec<String> = (0..4).map(|_| {
                let e: Vec<String> = (0..8).map(|k| format!("{:#x}", 0x3f80 + k)).collect();
                format!("{{{}}}", e.join(", "))
            }).collect();
            format!("atom.global.max.noftz.v8.bf16 (4) d{m}, {}, [{}];", lanes_hex((0..4).map(|l| addr(m, l, 16, false))), v.join(" "))
        }, "");
    }
    if has(AluOp::Fcmpwr, ElemType::F16, false) {
        add("DWORD_ATOMIC.fcmpwr.16 T0", 16, true, 1, &|m| {
            format!("DWORD_ATOMIC.fcmpwr.16 (16) T0 {} {} {} d{m}", lanes_hex((0..16).map(|l| addr(m, l, 2, true) - 0x1000)), halves(16), halves(16))
        }, "");
    }
    out
}

/// Why a bench measurement could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("bench stream {kind}: {source}")]
    Stream { kind: String, source: atomport_core::diag::Diag },
    #[error("{0}")]
    Script(atomport_core::diag::Diag),
    #[error("{0}")]
    Sim(#[from] atomport_sim::SimError),
    #[error("{0}")]
    Rtl(#[from] RtlError),
    #[error("{0}")]
    Encode(#[from] atomport_core::descriptor::EncodeError),
    #[error("{kind}: {source}")]
    Finish { kind: String, source: RtlError },
    #[error("{stream}: the RTL disagrees with the golden model: {first}")]
    Mismatch { stream: String, first: String },
}

/// Measures every stream on the RTL. Each run is also checked against the
/// golden model; a mismatch is an error (a wrong fast answer is no answer).
pub fn throughput() -> Result<Vec<ThroughputRow>, BenchError> {
    let mut rows = vec![];
    // the full unit (`VAtomicUnit` below): its configuration decides the float streams
    let fp = super::generator::admitted_fp_families(&atomport_isa::UnitConfig::FULL);
    for s in streams(&fp) {
        let program = atomport_core::script::parse("bench.atom", &s.text).map_err(|source| BenchError::Stream { kind: s.kind.to_string(), source })?;
        let opts = RtlOptions { mem: MemConfig::FAST, vcd: None, fst: None };
        let unit = VAtomicUnit::new()?;
        let mut session = Session::new(unit, &opts, Some(Scoreboard::new(atomport_core::golden::Machine::new(&program))))
            ?;
        let mut encoder = Encoder::new();
        for msg in program.messages() {
            session.issue(&program, &mut encoder, msg)?;
        }
        session.finish().map_err(|source: RtlError| BenchError::Finish { kind: s.kind.to_string(), source })?;
        if let Some(m) = session.mismatch() {
            return Err(BenchError::Mismatch { stream: format!("{} ({} lanes)", s.kind, s.exec), first: m.to_string() });
        }
        let mut done: Vec<(usize, u64, u64)> = session.finished().iter().map(|f| (f.frame.index, f.raised, f.done)).collect();
        done.sort();
        let first_latency = done[0].2 - done[0].1;
        let (a, b) = (done[WARMUP].2, done[STREAM - 1].2);
        let per_message = (b - a) as f64 / (STREAM - 1 - WARMUP) as f64;
        let enabled = s.exec as u32;
        let elements = enabled * s.elements_per_lane;
        let float = program.messages().next().and_then(|m| m.alu()).is_some_and(|c| c.needs_fp());
        // a chain of float ops on one element: one per FLOAT_LOOP_CYCLES after the first
        let target = if float && s.addressing == "same" {
            1 + (elements as u64 - 1) * atomport_isa::FLOAT_LOOP_CYCLES
        } else {
            elements as u64
        };
        rows.push(ThroughputRow {
            kind: s.kind,
            exec_size: s.exec,
            addressing: s.addressing,
            enabled_lanes: enabled,
            elements,
            cycles_per_message: per_message,
            cycles_per_lane: per_message / enabled as f64,
            first_latency,
            target: target as f64,
        });
    }
    Ok(rows)
}

/// Words of one pin image in the speed streams (see [`image_words`]).
pub const IMAGE_WORDS: usize = 4 + 1 + 1 + 64 + 128 + 128;

/// A request's pin image as the C++ harness reads it: desc (4 words),
/// dmask, pred_mask, addr (64), src0 (128), src1 (128). The speed streams
/// use no surface state (SVM, T255 and PTX global only).
pub fn image_words(req: &PinRequest) -> Vec<u32> {
    let mut w = Vec::with_capacity(IMAGE_WORDS);
    for k in 0..4 {
        w.push((req.desc >> (32 * k)) as u32);
    }
    w.push(req.dmask);
    w.push(req.pred_mask);
    w.extend_from_slice(&req.addr);
    w.extend_from_slice(&req.src0);
    w.extend_from_slice(&req.src1);
    w
}

/// The fixed message stream of the speed comparison: a mix of SVM_ATOMIC,
/// DWORD_ATOMIC (T255), SVM_SCATTER and PTX warp messages in the low
/// 64 KiB of flat memory, as pin images.
pub fn speed_stream() -> Result<Vec<u32>, BenchError> {
    let program = speed_program()?;
    let mut encoder = Encoder::new();
    let mut words = vec![];
    for msg in program.messages() {
        let req = driver::request(&program, &mut encoder, msg)?;
        words.extend(image_words(&req));
    }
    Ok(words)
}

/// The speed stream as a script (64 messages).
pub fn speed_program() -> Result<Program, BenchError> {
    let mut text = String::new();
    for m in 0..64usize {
        let base = 0x100 * (m as u128 % 32);
        let addrs = |n: usize, stride: u128| lanes_hex((0..n).map(|l| base + l as u128 * stride));
        let vals = |n: usize| lanes_hex((0..n).map(|l| (l * 7 + m) as u128));
        let line = match m % 4 {
            0 => format!("DWORD_ATOMIC.add (32) T255 {} {} V0 d{m}", addrs(32, 4), vals(32)),
            1 => format!("SVM_ATOMIC.xor.64 (8) {} d{m} {} V0", addrs(8, 8), vals(8)),
            2 => format!("SVM_SCATTER.4.2 (16) {} {}", addrs(16, 8), vals(32)),
            _ => format!("atom.global.max.u32 (16) d{m}, {}, {};", addrs(16, 4), vals(16)),
        };
        text.push_str(&line);
        text.push('\n');
    }
    atomport_core::script::parse("speed.atom", &text).map_err(BenchError::Script)
}

/// The whole bench (driver, memory model, monitor, scoreboard with the
/// golden model in lockstep) over `rounds` passes of the speed stream at
/// one-cycle memory: (cycles, messages, seconds).
pub fn checked_speed(rounds: u64) -> Result<(u64, u64, f64), BenchError> {
    let program = speed_program()?;
    let start = std::time::Instant::now();
    let unit = VAtomicUnit::new()?;
    let opts = RtlOptions { mem: MemConfig::FAST, vcd: None, fst: None };
    let mut session =
        Session::new(unit, &opts, Some(Scoreboard::new(atomport_core::golden::Machine::new(&program))))?;
    let mut encoder = Encoder::new();
    let mut messages = 0;
    for _ in 0..rounds {
        for msg in program.messages() {
            session.issue(&program, &mut encoder, msg)?;
            session.throttle(16)?;
            messages += 1;
        }
    }
    session.finish()?;
    if let Some(m) = session.mismatch() {
        return Err(BenchError::Mismatch { stream: "speed stream".into(), first: m.to_string() });
    }
    Ok((session.cycle(), messages, start.elapsed().as_secs_f64()))
}

/// Bytes of the speed loops' memory.
pub const SPEED_MEMORY: usize = 1 << 16;

/// What one speed loop did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopResult {
    pub cycles: u64,
    pub messages: u64,
    pub checksum: u64,
}

/// A cycle cap for the speed loops: far more than any message needs.
pub fn speed_cycle_cap(images: &[u32], rounds: u64) -> u64 {
    (images.len() / IMAGE_WORDS) as u64 * rounds * 1024 + 10_000
}

/// The Rust-driven loop: `rounds` passes over the stream of pin images, at
/// most `max_cycles` cycles. Must stay step for step the same as
/// `sim/cpp/bench_atomic_unit.cpp`.
pub fn rust_speed_loop(images: &[u32], rounds: u64, max_cycles: u64) -> Result<LoopResult, BenchError> {
    let mut unit = VAtomicUnit::new()?;
    let count = images.len() / IMAGE_WORDS;
    let mut memory = vec![0u8; SPEED_MEMORY];
    let total = count as u64 * rounds;
    // reset
    unit.set_reset(1);
    for _ in 0..2 {
        unit.set_clock(0);
        unit.eval()?;
        unit.set_clock(1);
        unit.eval()?;
    }
    unit.set_reset(0);
    unit.set_mem_rd_ready(1);
    unit.set_mem_wr_ready(1);
    unit.set_req_slm_size(65536);
    unit.set_req_surf_kind(7);
    let (mut issued, mut done, mut cycles, mut checksum) = (0u64, 0u64, 0u64, 0u64);
    let mut valid = false;
    let mut ret: Option<u128> = None;
    // the payload read last cycle: (image, lane)
    let mut pay: Option<(usize, usize)> = None;
    // the image of each payload slot: the k-th message taken is in slot k mod 2
    let mut slot_image = [0usize; 2];
    while done < total && cycles < max_cycles {
        if !valid && issued < total {
            let img = &images[(issued as usize % count) * IMAGE_WORDS..][..IMAGE_WORDS];
            unit.set_req_desc_words(&img[0..4].try_into().unwrap());
            unit.set_req_dmask(img[4]);
            unit.set_req_pred_mask(img[5]);
            valid = true;
        }
        unit.set_req_valid(valid as u8);
        if let Some((image, lane)) = pay {
            let img = &images[image * IMAGE_WORDS..][..IMAGE_WORDS];
            unit.set_pay_addr(img[6 + 2 * lane] as u64 | (img[7 + 2 * lane] as u64) << 32);
            unit.set_pay_src0_words(&img[70 + 4 * lane..74 + 4 * lane].try_into().unwrap());
            unit.set_pay_src1_words(&img[198 + 4 * lane..202 + 4 * lane].try_into().unwrap());
        }
        unit.set_mem_rdata_valid(ret.is_some() as u8);
        if let Some(line) = ret {
            unit.set_mem_rdata(line);
        }
        unit.set_clock(0);
        unit.eval()?;
        // the payload port reads a message taken before this cycle, named by its slot
        pay = (unit.pay_valid() != 0).then(|| (slot_image[unit.pay_slot() as usize], unit.pay_lane() as usize));
        if valid && unit.req_ready() != 0 {
            slot_image[issued as usize % 2] = issued as usize % count;
            valid = false;
            issued += 1;
        }
        if unit.mem_wr_valid() != 0 {
            let base = (unit.mem_wr_addr() as usize) & (SPEED_MEMORY - 16);
            let be = unit.mem_wr_be();
            let data = unit.mem_wr_data().to_le_bytes();
            for k in 0..16 {
                if be >> k & 1 != 0 {
                    memory[base + k] = data[k];
                }
            }
        }
        ret = if unit.mem_rd_valid() != 0 {
            let base = (unit.mem_rd_addr() as usize) & (SPEED_MEMORY - 16);
            Some(u128::from_le_bytes(memory[base..base + 16].try_into().unwrap()))
        } else {
            None
        };
        if unit.rsp_valid() != 0 {
            let w = unit.rsp_data_words();
            checksum = checksum.wrapping_mul(31).wrapping_add((w[0] ^ w[1].wrapping_mul(3) ^ w[2] ^ w[3]) as u64 ^ unit.rsp_lane() as u64);
        }
        if unit.rsp_done() != 0 {
            done += 1;
        }
        unit.set_clock(1);
        unit.eval()?;
        cycles += 1;
    }
    Ok(LoopResult { cycles, messages: done, checksum })
}
