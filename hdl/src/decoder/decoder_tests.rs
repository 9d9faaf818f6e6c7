//! Tests of the decoder block.

use super::*;

use atomport_core::descriptor::fields::OperandNumbers;
use atomport_core::descriptor::{
    Descriptor, DwordAtomicDesc, ExecSize, PredField, PtxAtomDesc, SvmAtomicDesc, SvmScatterDesc, TypedAtomicDesc,
};
use atomport_core::message::{Body, DwordSurface, MaskCtrl, Message, PredRef};
use std::collections::BTreeSet;

#[test]
fn message_decoder_synthesizes() {
    let mut uut = MessageDecoder::default();
    uut.connect_all();
    yosys_validate("atomport_message_decoder", &generate_verilog(&uut)).unwrap();
}

/// One pattern on the decoder's inputs.
#[derive(Clone, Debug)]
struct Case {
    desc: [u8; 16],
    dmask: u32,
    pred_mask: u32,
    surf_kind: u8,
    surf_u16: bool,
}

/// The decoder's outputs for a legal message, from the software decoder
/// (`Descriptor::new`) and the core's message rules (`Message`).
#[derive(Debug)]
struct Decoded {
    kind: MsgKind,
    /// the op row's name, for the coverage check
    row: &'static str,
    kind_typed: bool,
    lane_enables: u32,
    /// alu_op, alu_ty, alu_ftz (None for SVM_SCATTER: no ALU)
    alu: Option<(u8, u8, bool)>,
    elem_size: u32,
    last_elem: u8,
    space_slm: bool,
    addr_offset32: bool,
    addr_buffer: bool,
    write_only: bool,
    swap_src: bool,
    /// V, R, LOD non-null (TYPED_ATOMIC only)
    present: Option<[bool; 3]>,
}

/// The kind the opcode byte(s) name, if any.
fn kind_of(desc: &[u8; 16]) -> Option<MsgKind> {
    match (desc[0], desc[1]) {
        (OPCODE_SVM, SUBOP_SVM_ATOMIC) => Some(MsgKind::SvmAtomic),
        (OPCODE_SVM, SUBOP_SVM_SCATTER) => Some(MsgKind::SvmScatter),
        (OPCODE_DWORD_ATOMIC, _) => Some(MsgKind::DwordAtomic),
        (OPCODE_TYPED_ATOMIC, _) => Some(MsgKind::TypedAtomic),
        (OPCODE_PTX_ATOM, _) => Some(MsgKind::PtxAtom),
        _ => None,
    }
}

/// None when the unit must refuse the message: the software decoder
/// rejects the descriptor (the port's bytes past the kind's length must
/// be zero), or the surface it names is not what it needs (module doc),
/// or the full build does not admit it.
fn model(c: &Case) -> Option<Decoded> {
    let kind = kind_of(&c.desc)?;
    let len = kind.info().desc_len;
    if c.desc[len..].iter().any(|&b| b != 0) {
        return None;
    }
    let d = Descriptor::new(&c.desc[..len]).ok()?;
    let exec = d.exec();
    let (body, row) = match &d {
        Descriptor::SvmAtomic(s) => {
            (Body::SvmAtomic { op: s.op, width: s.width, addrs: Vec::new(), src0: None, src1: None }, s.op.name)
        }
        Descriptor::DwordAtomic(s) => {
            if matches!(s.surface, DwordSurface::Buffer(_)) && c.surf_kind != SURF_KIND_BUFFER {
                return None;
            }
            let body = Body::DwordAtomic { op: s.op, w16: s.w16, surface: s.surface, offsets: Vec::new(), src0: None, src1: None };
            (body, s.op.name)
        }
        Descriptor::TypedAtomic(s) => {
            // a typed kind (0..=4) whose format is the message's width
            if c.surf_kind > 4 || c.surf_u16 != s.w16 || s.surface == 0 || s.surface == 255 {
                return None;
            }
            let body = Body::TypedAtomic {
                op: s.op,
                w16: s.w16,
                surface: s.surface,
                u: Vec::new(),
                v: None,
                r: None,
                lod: None,
                src0: None,
                src1: None,
            };
            (body, s.op.name)
        }
        Descriptor::SvmScatter(s) => {
            (Body::SvmScatter { block_size: s.block_size, num_blocks: s.num_blocks, addrs: Vec::new(), src: Vec::new() }, "scatter")
        }
        Descriptor::PtxAtom(s) => {
            let body = Body::PtxAtom {
                sem: s.sem,
                scope: s.scope,
                space: s.space,
                op: s.op,
                noftz: s.noftz,
                cache_hint: None,
                vec: s.vec,
                ty: s.ty,
                addrs: Vec::new(),
                b: Vec::new(),
                c: None,
            };
            (body, PtxOpInfo::by_code(s.op as u8).unwrap().name)
        }
    };
    let msg = Message {
        line: 1,
        exec_size: exec.lanes,
        mask_ctrl: exec.mask_ctrl,
        pred: d.pred().map(|p| PredRef { name: "p".into(), negate: p.negate, mask: c.pred_mask }),
        dmask: c.dmask,
        dst: None,
        body,
    };
    msg.admitted_by(&UnitConfig::FULL).ok()?;
    let alu = msg.alu().map(|a| (a.op.code(), a.ty.code(), a.ftz));
    let mut out = Decoded {
        kind,
        row,
        kind_typed: kind == MsgKind::TypedAtomic,
        lane_enables: msg.lane_enables(),
        alu,
        elem_size: msg.access_bytes().trailing_zeros(),
        last_elem: 0,
        space_slm: false,
        addr_offset32: false,
        addr_buffer: false,
        write_only: false,
        swap_src: false,
        present: None,
    };
    match &d {
        Descriptor::DwordAtomic(s) => {
            out.addr_offset32 = true;
            out.space_slm = s.surface == DwordSurface::Slm;
            out.addr_buffer = matches!(s.surface, DwordSurface::Buffer(_));
        }
        Descriptor::TypedAtomic(s) => out.present = Some([s.v != 0, s.r != 0, s.lod != 0]),
        Descriptor::SvmScatter(s) => {
            out.write_only = true;
            out.last_elem = s.num_blocks - 1;
        }
        Descriptor::PtxAtom(s) => {
            out.space_slm = s.space.is_shared();
            out.swap_src = s.op == PtxOp::Cas;
            out.last_elem = s.vec - 1;
        }
        Descriptor::SvmAtomic(_) => {}
    }
    Some(out)
}

/// A descriptor on the 16-byte port, the bytes past it zero.
fn port(bytes: Vec<u8>) -> [u8; 16] {
    let mut desc = [0u8; 16];
    desc[..bytes.len()].copy_from_slice(&bytes);
    desc
}

/// Descriptors built from the tables: every op row of every kind (every
/// width, surface, operand presence, PTX type, vector form and space,
/// scatter layout), the encodings the tables forbid among them; then
/// illegal ones made from them: every value of the op and type bytes,
/// every single-bit flip, bad surface states, and seeded random bytes.
fn cases() -> Vec<Case> {
    let mut next = crate::icarus::xorshift(0x7a3c_19e5_0b4d_62f1u64);
    let preds = [None, Some(PredField { number: 1, negate: false }), Some(PredField { number: 0x0abc, negate: true })];
    // exec size code i (wrapping at the kind's largest) and mask control i
    let exec = |kind: MsgKind, i: usize| ExecSize {
        lanes: 1 << (i % (kind.info().max_exec_code() as usize + 1)),
        mask_ctrl: MaskCtrl::from_code((i % 16) as u8),
    };
    let sources = |op: &VisaOpInfo| (op.src0 == Operand::Required, op.src1 == Operand::Required);
    // (descriptor, surf_kind, surf_u16) with the surface state the message needs
    let mut bases: Vec<([u8; 16], u8, bool)> = Vec::new();
    let mut i = 0usize;
    for op in VISA_OPS.iter() {
        for width in [VisaWidth::W16, VisaWidth::W32, VisaWidth::W64] {
            i += 1;
            let (s0, s1) = sources(op);
            let mut n = OperandNumbers::new();
            let d = SvmAtomicDesc {
                exec: exec(MsgKind::SvmAtomic, i),
                pred: preds[i % 3],
                op,
                width,
                addresses: n.next(true),
                src0: n.next(s0),
                src1: n.next(s1),
                dst: n.next(i.is_multiple_of(2)),
            };
            bases.push((port(d.encode()), 7, false));
        }
        for w16 in [false, true] {
            for surface in [DwordSurface::Slm, DwordSurface::Stateless, DwordSurface::Buffer(1 + (i % 253) as u8)] {
                i += 1;
                let (s0, s1) = sources(op);
                let mut n = OperandNumbers::new();
                let d = DwordAtomicDesc {
                    op,
                    w16,
                    exec: exec(MsgKind::DwordAtomic, i),
                    pred: preds[i % 3],
                    surface,
                    element_offset: n.next(true),
                    src0: n.next(s0),
                    src1: n.next(s1),
                    dst: n.next(i % 2 == 1),
                };
                bases.push((port(d.encode()), SURF_KIND_BUFFER, false));
            }
            for vrl in 0..8 {
                i += 1;
                let (s0, s1) = sources(op);
                let mut n = OperandNumbers::new();
                let d = TypedAtomicDesc {
                    op,
                    w16,
                    exec: exec(MsgKind::TypedAtomic, i),
                    pred: preds[i % 3],
                    surface: 1 + (i % 254) as u8,
                    u: n.next(true),
                    v: n.next(vrl & 1 != 0),
                    r: n.next(vrl & 2 != 0),
                    lod: n.next(vrl & 4 != 0),
                    src0: n.next(s0),
                    src1: n.next(s1),
                    dst: n.next(i.is_multiple_of(2)),
                };
                bases.push((port(d.encode()), (i % 5) as u8, w16));
            }
        }
    }
    for block_size in [1u8, 4, 8] {
        for num_blocks in [1u8, 2, 4, 8] {
            for code in 0..=MsgKind::SvmScatter.info().max_exec_code() as usize {
                i += 1;
                let d = SvmScatterDesc {
                    exec: ExecSize { lanes: 1 << code, mask_ctrl: MaskCtrl::from_code((i % 16) as u8) },
                    pred: preds[i % 3],
                    block_size,
                    num_blocks,
                    addresses: 1,
                    src: 2,
                };
                bases.push((port(d.encode()), 7, false));
            }
        }
    }
    let sems = [None, Some(PtxSem::Relaxed), Some(PtxSem::AcqRel)];
    let scopes = [None, Some(PtxScope::Gpu), Some(PtxScope::Sys)];
    for row in PTX_OPS.iter() {
        for ty in PtxType::ALL {
            for vec in [1u8, 2, 4, 8] {
                for space in PtxSpace::ALL {
                    if vec > 1 && space.is_shared() && space != PtxSpace::Shared {
                        continue;
                    }
                    for cache_hint in [false, true] {
                        for noftz in [ty.needs_noftz(), !ty.needs_noftz()] {
                            if noftz != ty.needs_noftz() && (vec > 1 || cache_hint || space != PtxSpace::Global) {
                                continue;
                            }
                            i += 1;
                            let mut n = OperandNumbers::new();
                            let d = PtxAtomDesc {
                                op: row.op,
                                noftz,
                                cache_hint,
                                ty,
                                vec,
                                space,
                                sem: sems[i % 3],
                                scope: scopes[(i / 3) % 3],
                                exec: exec(MsgKind::PtxAtom, i),
                                pred: preds[i % 3],
                                d: n.next(i.is_multiple_of(2)),
                                a: n.next(true),
                                b: n.next(true),
                                c: n.next(row.op == PtxOp::Cas),
                                cache_policy: n.next(cache_hint),
                            };
                            bases.push((port(d.encode()), 7, false));
                        }
                    }
                }
            }
        }
    }
    let mut cases = Vec::new();
    let mut push = |desc: [u8; 16], surf_kind: u8, surf_u16: bool, rnd: u64| {
        cases.push(Case { desc, dmask: rnd as u32, pred_mask: (rnd >> 32) as u32, surf_kind, surf_u16 });
    };
    for &(desc, sk, u16) in &bases {
        push(desc, sk, u16, next());
        // the surface state the message does not need
        match kind_of(&desc) {
            Some(MsgKind::DwordAtomic) if desc[5] != 0 && desc[5] != 255 => push(desc, [0, 4, 6, 7][desc[5] as usize % 4], false, next()),
            Some(MsgKind::TypedAtomic) => match next() % 3 {
                0 => push(desc, SURF_KIND_BUFFER, u16, next()),
                1 => push(desc, SURF_KIND_NONE, u16, next()),
                _ => push(desc, sk, !u16, next()),
            },
            _ => {}
        }
    }
    // one legal base of each kind, mutated
    let first_legal = |k: MsgKind| {
        *bases
            .iter()
            .find(|(d, sk, u16)| kind_of(d) == Some(k) && model(&Case { desc: *d, dmask: 0, pred_mask: 0, surf_kind: *sk, surf_u16: *u16 }).is_some())
            .expect("a legal base of every kind")
    };
    for k in MsgKind::ALL {
        let (desc, sk, u16) = first_legal(k);
        for byte in 0..16 {
            for bit in 0..8 {
                let mut d = desc;
                d[byte] ^= 1 << bit;
                push(d, sk, u16, next());
            }
        }
        let value_bytes: &[usize] = if k == MsgKind::PtxAtom { &[1, 2, 3, 4] } else { &[1, 5] };
        for &byte in value_bytes {
            for v in 0..=255u8 {
                let mut d = desc;
                d[byte] = v;
                push(d, sk, u16, next());
            }
        }
    }
    for _ in 0..600 {
        let (mut d, sk, u16) = bases[next() as usize % bases.len()];
        for _ in 0..1 + next() % 2 {
            let r = next();
            d[(r % 16) as usize] = (r >> 8) as u8;
        }
        push(d, sk, u16, next());
    }
    cases
}

/// The decoder's Verilog in Icarus against the software decoder and the
/// core's message rules: every field of every legal message, and
/// `illegal` for every pattern.
#[test]
fn the_verilog_decodes_like_the_software_decoder() {
    if !crate::icarus::available() {
        return;
    }
    let mut uut = MessageDecoder::default();
    uut.connect_all();
    let cases = cases();
    let mut bench = String::from(
        "module bench;\nreg [127:0] desc; reg [31:0] dmask, pred_mask; reg [2:0] surf_kind; reg surf_u16;\n\
         wire kind_typed, illegal, alu_ftz, space_slm, addr_offset32, addr_buffer, write_only, swap_src, v_present, r_present, lod_present;\n\
         wire [31:0] lane_enables; wire [7:0] alu_op, alu_ty; wire [2:0] elem_size, last_elem;\n\
         top uut(.desc(desc), .dmask(dmask), .pred_mask(pred_mask), .surf_kind(surf_kind), .surf_u16(surf_u16),\n\
         .kind_typed(kind_typed), .illegal(illegal), .lane_enables(lane_enables), .alu_op(alu_op), .alu_ty(alu_ty),\n\
         .alu_ftz(alu_ftz), .elem_size(elem_size), .last_elem(last_elem), .space_slm(space_slm),\n\
         .addr_offset32(addr_offset32), .addr_buffer(addr_buffer), .write_only(write_only), .swap_src(swap_src),\n\
         .v_present(v_present), .r_present(r_present), .lod_present(lod_present));\ninitial begin\n",
    );
    for c in &cases {
        bench.push_str(&format!(
            "  desc = 128'h{:032x}; dmask = 32'h{:08x}; pred_mask = 32'h{:08x}; surf_kind = {}; surf_u16 = {};\n  \
             #1 $display(\"%b %b %h %0d %0d %b %0d %0d %b %b %b %b %b %b %b %b\", illegal, kind_typed, lane_enables, \
             alu_op, alu_ty, alu_ftz, elem_size, last_elem, space_slm, addr_offset32, addr_buffer, write_only, swap_src, \
             v_present, r_present, lod_present);\n",
            u128::from_le_bytes(c.desc),
            c.dmask,
            c.pred_mask,
            c.surf_kind,
            u8::from(c.surf_u16)
        ));
    }
    bench.push_str("end\nendmodule\n");
    let lines = crate::icarus::run("message-decoder", &generate_verilog(&uut), &bench);
    assert_eq!(lines.len(), cases.len(), "vvp output:\n{}", lines.join("\n"));
    let b = |x: bool| if x { "1" } else { "0" };
    let mut legal_rows = BTreeSet::new();
    let mut refused = [0usize; 6];
    for (line, c) in lines.iter().zip(&cases) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 16, "{line}");
        let what = format!("{c:x?}: {line}");
        let Some(m) = model(c) else {
            assert_eq!(f[0], "1", "illegal: {what}");
            refused[kind_of(&c.desc).map_or(5, |k| MsgKind::ALL.iter().position(|&x| x == k).unwrap())] += 1;
            continue;
        };
        legal_rows.insert((m.kind.info().name, m.row));
        assert_eq!(f[0], "0", "illegal: {what} ({m:?})");
        assert_eq!(f[1], b(m.kind_typed), "kind_typed: {what}");
        assert_eq!(f[2], format!("{:08x}", m.lane_enables), "lane_enables: {what}");
        if let Some((op, ty, ftz)) = m.alu {
            assert_eq!((f[3], f[4], f[5]), (op.to_string().as_str(), ty.to_string().as_str(), b(ftz)), "alu: {what}");
        }
        assert_eq!(f[6], m.elem_size.to_string(), "elem_size: {what}");
        assert_eq!(f[7], m.last_elem.to_string(), "last_elem: {what}");
        let flags = [m.space_slm, m.addr_offset32, m.addr_buffer, m.write_only, m.swap_src].map(b);
        assert_eq!(f[8..13], flags, "space_slm, addr_offset32, addr_buffer, write_only, swap_src: {what}");
        if let Some(p) = m.present {
            assert_eq!(f[13..16], p.map(b), "v, r, lod present: {what}");
        }
    }
    // every op row of every kind decoded legal at least once, and refusals of every kind
    let rows: usize = VISA_OPS.len() * 2 + VISA_OPS.iter().filter(|r| r.typed).count() + 1 + PTX_OPS.len();
    assert_eq!(legal_rows.len(), rows, "{legal_rows:?}");
    assert!(refused.iter().all(|&n| n > 100), "refused per kind (and unknown opcode): {refused:?}");
    eprintln!("{} patterns, refused per kind (and unknown opcode): {refused:?}", cases.len());
}
