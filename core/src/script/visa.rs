//! The Intel vISA messages: SVM_ATOMIC, DWORD_ATOMIC, TYPED_ATOMIC and
//! SVM_SCATTER, with the operand rules of their seed documents.

use super::lexer::{Tok, Token};
use super::literal::{float_bits, parse_int, plain_uint, signed_bits, unsigned_bits};
use super::{at, check_len, dst_name, err, is_null, lane_words, Ctx, Cur, R};
use crate::message::{Body, DwordSurface, MaskCtrl, Message, PredRef};
use crate::ops::{Class, ElemType, MsgKind, Operand, VisaOpInfo, VisaWidth, SCATTER_BLOCK_BYTES, SCATTER_NUM_BLOCKS, VISA_OPS};
use crate::program::{Surface, TypedFormat, TypedKind, TypedSurface};

/// `(N)`, `(Mk, N)` or `(Mk_NM, N)`: the exec size, its column, and the
/// mask control (plain `N` is M1). The caller checks N against its message.
pub(crate) fn exec_group(cur: &mut Cur<'_>) -> R<(u32, usize, MaskCtrl)> {
    cur.expect(Tok::LParen, "the execution size `(N)`, `(Mk, N)` or `(Mk_NM, N)`")?;
    let first = cur.word("the execution size")?;
    let (mask_ctrl, n_tok) = if first.text.starts_with(['m', 'M']) {
        let mc = mask_ctrl(first)?;
        cur.expect(Tok::Comma, "`,` between the mask control and the execution size")?;
        (mc, cur.word("the execution size after the mask control")?)
    } else {
        (MaskCtrl::M1, first)
    };
    let n = at(n_tok.col, plain_uint(&n_tok.text, 32, "execution size"))?;
    cur.expect(Tok::RParen, "`)` after the execution size")?;
    Ok((n as u32, n_tok.col, mask_ctrl))
}

/// `Mk` / `Mk_NM`, k = 1..8 (seed Exec_size bits 7..4).
fn mask_ctrl(t: &Token) -> R<MaskCtrl> {
    let lower = t.text.to_ascii_lowercase();
    let rest = &lower[1..];
    let (digit, no_mask) = match rest.strip_suffix("_nm") {
        Some(d) => (d, true),
        None => (rest, false),
    };
    match digit.parse::<u8>() {
        Ok(k @ 1..=8) if digit.len() == 1 => Ok(MaskCtrl { group: k - 1, no_mask }),
        _ => err(t.col, format!("`{}` is not a mask control (M1..M8 or M1_NM..M8_NM)", t.text)),
    }
}

/// Checks the exec size against the message's legal list (its row of `atomport_isa::KINDS`).
pub(crate) fn check_exec(n: u32, col: usize, legal: &[u8], msg: &str, seed: &str) -> R<u8> {
    if legal.iter().any(|&x| x as u32 == n) {
        Ok(n as u8)
    } else {
        let list = legal.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
        err(col, format!("exec size {n} is not legal for {msg} (legal: {list}; {seed})"))
    }
}

pub(crate) fn check_aligned(col: usize, what: &str, lane: usize, value: u128, align: u32, why: &str) -> R<()> {
    if !value.is_multiple_of(align as u128) {
        return err(col, format!("{what} {value:#x} of lane {lane} is not aligned to {align} bytes ({why})"));
    }
    Ok(())
}

/// The op and the width suffix of `NAME.<op>[.16|.64]`.
fn op_and_width(parts: &[(String, usize)], kind: MsgKind) -> R<(&'static VisaOpInfo, u32, usize)> {
    let msg = kind.name();
    let allow64 = kind.info().widths.contains(&64);
    let Some((op_text, op_col)) = parts.get(1) else {
        let end = parts[0].1 + parts[0].0.chars().count();
        return err(end, format!("expected `.<op>` after {msg}"));
    };
    let Some(op) = VisaOpInfo::by_name(op_text) else {
        let names = VISA_OPS.iter().map(|r| r.name).collect::<Vec<_>>().join(" ");
        return err(*op_col, format!("unknown atomic op `{op_text}` (ops: {names})"));
    };
    let mut width = 32;
    let mut width_col = None;
    for (suffix, col) in &parts[2..] {
        let w = match suffix.as_str() {
            "16" => 16,
            "64" if allow64 => 64,
            "64" => return err(*col, format!("{msg} has no .64 form (seed {msg}.md Text: `[.16]` only; SVM_ATOMIC has .64)")),
            "32" => return err(*col, "no `.32` suffix: 32-bit is the default (write .16 or .64, or nothing)"),
            _ => {
                return err(
                    *col,
                    format!("unknown suffix `.{suffix}` (the width is `.16`{}, or nothing for 32-bit)", if allow64 { " or `.64`" } else { "" }),
                )
            }
        };
        if let Some(prev) = width_col {
            return err(*col, format!("a second width suffix (the first is at column {prev})"));
        }
        width = w;
        width_col = Some(*col);
    }
    if !op.widths().contains(&width) {
        return err(
            width_col.unwrap_or(*op_col),
            format!("{} has no 64-bit form: float ops take HF or F (seed DWORD_ATOMIC_OP table, Data Type)", op.name.to_uppercase()),
        );
    }
    Ok((op, width, *op_col))
}

/// One source element of a vISA atomic at `width` (16, 32, 64), as raw
/// bits. `.16` sources are dwords of which the hardware uses the low 16
/// bits: integers are range-checked as dwords and stored as written; a float
/// decimal is a half value, a float hex literal raw dword bits.
fn visa_value(text: &str, op: &VisaOpInfo, width: u32) -> Result<u128, String> {
    let dword_bits = if width == 64 { 64 } else { 32 };
    match op.class {
        Class::Float if width == 16 => {
            let body = text.strip_prefix('-').unwrap_or(text).to_ascii_lowercase();
            if body.starts_with("0x") {
                if text.starts_with('-') {
                    return Err(format!("raw-bits literal `{text}` cannot be negative"));
                }
                plain_uint(text, 32, "raw bits")
            } else {
                float_bits(text, ElemType::F16)
            }
        }
        Class::Float => float_bits(text, ElemType::F32),
        Class::Unsigned => unsigned_bits(text, dword_bits, "unsigned"),
        Class::Signed => signed_bits(text, dword_bits, "signed"),
    }
}

/// What the seed says about a source slot, for the error message.
fn source_rule(slot: &str, op: &VisaOpInfo, need: Operand, seed: &str) -> String {
    let name = op.name.to_uppercase();
    match (slot, need) {
        ("src0", Operand::Null) if op.name == "predec" => {
            "src0 of PREDEC must be V0 (PREDEC takes no source: seed DWORD_ATOMIC_OP table, new = old - 1)".to_string()
        }
        ("src0", Operand::Null) => format!("src0 of {name} must be V0 (seed {seed}, Src0)"),
        ("src1", Operand::Null) => {
            format!("src1 of {name} must be V0: only CMPXCHG and FCMPWR take src1 (seed {seed}, Src1)")
        }
        _ => format!("{slot} of {name} must be a lane vector, not V0 (seed {seed}, {})", if slot == "src0" { "Src0" } else { "Src1" }),
    }
}

/// One source slot (`src0`/`src1`): V0 or a lane vector of exec elements,
/// as the op's row of the DWORD_ATOMIC_OP table requires.
fn source(cur: &mut Cur<'_>, slot: &str, need: Operand, op: &VisaOpInfo, width: u32, exec: u8, seed: &str) -> R<Option<Vec<u128>>> {
    let col = cur.col();
    match cur.peek() {
        Some(t) if t.kind == Tok::Word && is_null(&t.text) => {
            cur.bump();
            if need == Operand::Required {
                return err(col, source_rule(slot, op, need, seed));
            }
            Ok(None)
        }
        Some(t) if t.kind == Tok::LBrack => {
            if need == Operand::Null {
                return err(col, source_rule(slot, op, need, seed));
            }
            let (lcol, elems) = lane_words(cur, slot)?;
            check_len(lcol, slot, elems.len(), exec as usize, &format!("exec size {exec}"))?;
            let name = op.name.to_uppercase();
            elems
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    at(t.col, visa_value(&t.text, op, width).map_err(|e| format!("{slot}[{i}] of {name}.{width}: {e}")))
                })
                .collect::<R<Vec<u128>>>()
                .map(Some)
        }
        _ => err(col, format!("expected {slot} (a lane vector `[...]` or V0), {}", found(cur))),
    }
}

fn found(cur: &Cur<'_>) -> String {
    match cur.peek() {
        Some(t) => format!("found `{}`", t.text),
        None => "found the end of the line".into(),
    }
}

/// A lane vector of non-negative integers of at most `bits` bits, each
/// aligned to `align` bytes.
fn uint_lanes(cur: &mut Cur<'_>, what: &str, bits: u32, exec: u8, align: u32, why: &str) -> R<Vec<u128>> {
    let (col, elems) = lane_words(cur, what)?;
    check_len(col, what, elems.len(), exec as usize, &format!("exec size {exec}"))?;
    let mut out = Vec::with_capacity(elems.len());
    for (i, t) in elems.iter().enumerate() {
        let v = at(t.col, plain_uint(&t.text, bits, what))?;
        check_aligned(t.col, what, i, v, align, why)?;
        out.push(v);
    }
    Ok(out)
}

fn message(ctx: &Ctx<'_>, exec: u8, mask_ctrl: MaskCtrl, pred: Option<PredRef>, dst: Option<String>, body: Body) -> Message {
    Message { line: ctx.line, exec_size: exec, mask_ctrl, pred, dmask: ctx.dmask, dst, body }
}

/// `[(p)] SVM_ATOMIC.<op>[.16|.64] (<exec>) <addresses> <dst> <src0> <src1>`
pub(crate) fn svm_atomic(cur: &mut Cur<'_>, parts: &[(String, usize)], pred: Option<PredRef>, ctx: &Ctx<'_>) -> R<Message> {
    const SEED: &str = "SVM_ATOMIC.md";
    let (op, width, _) = op_and_width(parts, MsgKind::SvmAtomic)?;
    let (n, n_col, mask_ctrl) = exec_group(cur)?;
    let k = MsgKind::SvmAtomic.info();
    let exec = check_exec(n, n_col, k.exec_sizes, k.name, k.exec_source)?;
    let why = format!("a {width}-bit atomic; seed SVM_ATOMIC.md Addresses / Notes");
    let addrs = uint_lanes(cur, "address", 64, exec, width / 8, &why)?;
    let dst = dst_name(cur, "dst")?;
    let src0 = source(cur, "src0", op.src0, op, width, exec, SEED)?;
    let src1 = source(cur, "src1", op.src1, op, width, exec, SEED)?;
    cur.end()?;
    let width = match width {
        16 => VisaWidth::W16,
        64 => VisaWidth::W64,
        _ => VisaWidth::W32,
    };
    let addrs = addrs.into_iter().map(|a| a as u64).collect();
    Ok(message(ctx, exec, mask_ctrl, pred, dst, Body::SvmAtomic { op, width, addrs, src0, src1 }))
}

/// DWORD_ATOMIC's surface: T0 (SLM), T255 (stateless) or a buffer surface.
fn dword_surface(t: &Token, ctx: &Ctx<'_>) -> R<DwordSurface> {
    let n = surface_number(t)?;
    match n {
        0 => Ok(DwordSurface::Slm),
        255 => Ok(DwordSurface::Stateless),
        _ => match ctx.globals.surfaces.get(&n) {
            Some(Surface::Buffer { .. }) => Ok(DwordSurface::Buffer(n)),
            Some(Surface::Typed(_)) => err(
                t.col,
                format!("surface {n} is a typed surface; DWORD_ATOMIC needs a buffer, T0 or T255 (seed DWORD_ATOMIC.md Surface: it must be a buffer)"),
            ),
            None if ctx.globals.broken_surfaces.contains(&n) => Err(broken_surface(t.col, n)),
            None => err(t.col, format!("surface {n} is not defined (add `surface {n} buffer base=<addr> size=<bytes>`)")),
        },
    }
}

/// A use of a surface whose definition is broken: that line is reported.
fn broken_surface(col: usize, n: u8) -> super::PErr {
    super::PErr { col, msg: format!("surface {n}'s definition is broken"), follows: true }
}

/// `T<n>` or `<n>`, 0..=255.
fn surface_number(t: &Token) -> R<u8> {
    let text = t.text.strip_prefix(['t', 'T']).unwrap_or(&t.text);
    let ok = parse_int(text).ok().filter(|l| !l.neg && l.mag <= 255);
    match ok {
        Some(l) => Ok(l.mag as u8),
        None => err(t.col, format!("`{}` is not a surface (T0, T255 or a surface number 1..=254)", t.text)),
    }
}

/// `[(p)] DWORD_ATOMIC.<op>[.16] (<exec>) <surface> <offsets> <src0> <src1> <dst>`
pub(crate) fn dword_atomic(cur: &mut Cur<'_>, parts: &[(String, usize)], pred: Option<PredRef>, ctx: &Ctx<'_>) -> R<Message> {
    const SEED: &str = "DWORD_ATOMIC.md";
    let (op, width, _) = op_and_width(parts, MsgKind::DwordAtomic)?;
    let (n, n_col, mask_ctrl) = exec_group(cur)?;
    let k = MsgKind::DwordAtomic.info();
    let exec = check_exec(n, n_col, k.exec_sizes, k.name, k.exec_source)?;
    let s_tok = cur.word("the surface (T0, T255 or a buffer surface number)")?;
    let surface = dword_surface(s_tok, ctx)?;
    let why = format!("a {width}-bit atomic; seed DWORD_ATOMIC.md Notes");
    let offsets = uint_lanes(cur, "offset", 32, exec, width / 8, &why)?;
    let src0 = source(cur, "src0", op.src0, op, width, exec, SEED)?;
    let src1 = source(cur, "src1", op.src1, op, width, exec, SEED)?;
    let dst = dst_name(cur, "dst")?;
    cur.end()?;
    let offsets = offsets.into_iter().map(|a| a as u32).collect();
    Ok(message(ctx, exec, mask_ctrl, pred, dst, Body::DwordAtomic { op, w16: width == 16, surface, offsets, src0, src1 }))
}

/// A typed coordinate operand: V0 where the seed's table says N/A, a lane
/// vector where it gives a meaning.
fn coord(cur: &mut Cur<'_>, name: &str, meaning: Option<&str>, kind: &str, exec: u8) -> R<Option<Vec<u32>>> {
    let col = cur.col();
    let is_v0 = cur.peek().is_some_and(|t| t.kind == Tok::Word && is_null(&t.text));
    match (meaning, is_v0) {
        (None, true) => {
            cur.bump();
            Ok(None)
        }
        (None, false) => err(col, format!("{name} must be V0 for a {kind} surface (seed TYPED_ATOMIC.md Notes: N/A (must be V0))")),
        (Some(m), true) => err(
            col,
            format!("{name} of a {kind} surface is the {m}: give a lane vector of {exec}, not V0 (seed TYPED_ATOMIC.md Notes)"),
        ),
        (Some(_), false) => Ok(Some(uint_lanes(cur, name, 32, exec, 1, "")?.into_iter().map(|x| x as u32).collect())),
    }
}

/// `[(p)] TYPED_ATOMIC.<op>[.16] (<exec>) <surface> <u> <v> <r> <lod> <src0> <src1> <dst>`
pub(crate) fn typed_atomic(cur: &mut Cur<'_>, parts: &[(String, usize)], pred: Option<PredRef>, ctx: &Ctx<'_>) -> R<Message> {
    const SEED: &str = "TYPED_ATOMIC.md";
    let (op, width, op_col) = op_and_width(parts, MsgKind::TypedAtomic)?;
    if !MsgKind::TypedAtomic.info().allows_visa_op(op, width) {
        return err(
            op_col,
            format!("{} is not a TYPED_ATOMIC op (the DWORD_ATOMIC_OP table's Message Type column lists DWORD, SVM only)", op.name.to_uppercase()),
        );
    }
    let (n, n_col, mask_ctrl) = exec_group(cur)?;
    let k = MsgKind::TypedAtomic.info();
    let exec = check_exec(n, n_col, k.exec_sizes, k.name, k.exec_source)?;
    let s_tok = cur.word("the typed surface number")?;
    let n = surface_number(s_tok)?;
    let surf: TypedSurface = match ctx.globals.surfaces.get(&n) {
        Some(Surface::Typed(t)) => *t,
        Some(Surface::Buffer { .. }) => {
            return err(s_tok.col, format!("surface {n} is a buffer; TYPED_ATOMIC needs a typed surface (1d, 1d_array, 2d, 2d_array, 3d)"))
        }
        None if n == 0 || n == 255 => {
            return err(s_tok.col, format!("TYPED_ATOMIC needs a typed surface, not the built-in T{n}"))
        }
        None if ctx.globals.broken_surfaces.contains(&n) => return Err(broken_surface(s_tok.col, n)),
        None => {
            return err(s_tok.col, format!("surface {n} is not defined (add `surface {n} 2d base=<addr> width=<w> height=<h> format=u32`)"))
        }
    };
    match (width == 16, surf.format) {
        (true, TypedFormat::U32) => {
            return err(s_tok.col, format!("TYPED_ATOMIC.16 needs a format=u16 surface; surface {n} is format=u32 (scripts.md)"))
        }
        (false, TypedFormat::U16) => {
            return err(s_tok.col, format!("surface {n} is format=u16: a 32-bit TYPED_ATOMIC needs format=u32 (use TYPED_ATOMIC.<op>.16)"))
        }
        _ => {}
    }
    let (kind, v_meaning, r_meaning) = match surf.kind {
        TypedKind::D1 => ("1d", None, None),
        TypedKind::D1Array => ("1d_array", Some("array index"), None),
        TypedKind::D2 => ("2d", Some("Y pixel address"), None),
        TypedKind::D2Array => ("2d_array", Some("Y pixel address"), Some("array index")),
        TypedKind::D3 => ("3d", Some("Y pixel address"), Some("Z pixel address")),
    };
    let u = coord(cur, "U", Some("X pixel address"), kind, exec)?.unwrap_or_default();
    let v = coord(cur, "V", v_meaning, kind, exec)?;
    let r = coord(cur, "R", r_meaning, kind, exec)?;
    // LOD: V0 reads as level 0 (docs/script-language.md)
    let lod = if cur.peek().is_some_and(|t| t.kind == Tok::Word && is_null(&t.text)) {
        cur.bump();
        None
    } else {
        Some(uint_lanes(cur, "LOD", 32, exec, 1, "")?.into_iter().map(|x| x as u32).collect())
    };
    let src0 = source(cur, "src0", op.src0, op, width, exec, SEED)?;
    let src1 = source(cur, "src1", op.src1, op, width, exec, SEED)?;
    let dst = dst_name(cur, "dst")?;
    cur.end()?;
    Ok(message(ctx, exec, mask_ctrl, pred, dst, Body::TypedAtomic { op, w16: width == 16, surface: n, u, v, r, lod, src0, src1 }))
}

/// `[(p)] SVM_SCATTER.<block_size>.<num_blocks> (<exec>) <addresses> <src>`
pub(crate) fn svm_scatter(cur: &mut Cur<'_>, parts: &[(String, usize)], pred: Option<PredRef>, ctx: &Ctx<'_>) -> R<Message> {
    let (bs_text, bs_col) = match parts.get(1) {
        Some(p) => p,
        None => return err(parts[0].1 + parts[0].0.chars().count(), "expected `.<block_size>.<num_blocks>` after SVM_SCATTER"),
    };
    let block_size: u8 = match SCATTER_BLOCK_BYTES.iter().find(|b| b.to_string() == *bs_text) {
        Some(&b) => b,
        None => return err(*bs_col, format!("block size `{bs_text}` is not 1, 4 or 8 bytes (seed SVM_SCATTER.md Block_size)")),
    };
    let (nb_text, nb_col) = match parts.get(2) {
        Some(p) => p,
        None => return err(bs_col + bs_text.chars().count(), "expected `.<num_blocks>` after the block size"),
    };
    let num_blocks: u8 = match SCATTER_NUM_BLOCKS.iter().find(|n| n.to_string() == *nb_text) {
        Some(&n) => n,
        None => return err(*nb_col, format!("block count `{nb_text}` is not 1, 2, 4 or 8 (seed SVM_SCATTER.md Num_blocks)")),
    };
    if let Some((extra, col)) = parts.get(3) {
        return err(*col, format!("unexpected `.{extra}` after the block count"));
    }
    let (n, n_col, mask_ctrl) = exec_group(cur)?;
    let k = MsgKind::SvmScatter.info();
    let exec = check_exec(n, n_col, k.exec_sizes, k.name, k.exec_source)?;
    if num_blocks == 8 && block_size == 1 {
        return err(
            *nb_col,
            "8 blocks of 1 byte are rejected: 8 blocks are only valid for 4-byte blocks at exec size 8 (seed SVM_SCATTER.md Num_blocks; scripts.md)",
        );
    }
    if !crate::ops::scatter_layout_legal(block_size, num_blocks, exec) {
        return err(*nb_col, format!("8 blocks are only valid for 4-byte blocks at exec size 8, not {block_size}-byte blocks at exec size {exec} (seed SVM_SCATTER.md Num_blocks)"));
    }
    let why = "seed SVM_SCATTER.md Addresses: aligned to the block";
    let addrs = uint_lanes(cur, "address", 64, exec, block_size as u32, why)?;
    // seed layout: src[j*exec + i] for 4/8-byte blocks; for 1-byte blocks
    // src[i*4 + j] with 4 bytes per lane (bytes past num_blocks ignored)
    let want = if block_size == 1 { exec as usize * 4 } else { exec as usize * num_blocks as usize };
    let (col, elems) = lane_words(cur, "src")?;
    let why = if block_size == 1 {
        format!("the seed's 1-byte layout (4 bytes per lane) at exec size {exec}")
    } else {
        format!("exec size {exec} x {num_blocks} block(s)")
    };
    check_len(col, "src", elems.len(), want, &why)?;
    let src = elems
        .iter()
        .enumerate()
        .map(|(i, t)| at(t.col, unsigned_bits(&t.text, block_size as u32 * 8, &format!("src[{i}] ({block_size}-byte block)"))).map(|v| v as u64))
        .collect::<R<Vec<u64>>>()?;
    cur.end()?;
    let addrs = addrs.into_iter().map(|a| a as u64).collect();
    Ok(message(ctx, exec, mask_ctrl, pred, None, Body::SvmScatter { block_size, num_blocks, addrs, src }))
}
