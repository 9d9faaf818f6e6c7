//! PTX `atom` (seed PTX_ATOM.md), single-thread and the project's warp form:
//!
//! ```text
//! [@p|@!p] atom{.sem}{.scope}{.space}.op{.noftz}{.L2::cache_hint}{.vN}.type [(<exec>)] d, [a], b{, c}{, cache-policy}[;]
//! ```
//! Qualifiers may come in any order after `atom` (the seed's own examples
//! mix them), each category at most once.

use super::lexer::{Tok, Token};
use super::literal::{float_bits, plain_uint, signed_bits, unsigned_bits};
use super::visa::{check_aligned, check_exec, exec_group};
use super::{at, dotted_parts, err, is_name, is_null, Ctx, Cur, PErr, R};
use crate::message::{Body, MaskCtrl, Message, PredRef, PtxScope, PtxSem, PtxSpace};
use crate::ops::{ElemType, MsgKind, PtxOpInfo, PtxType, PTX_OPS};

const SEED: &str = "seed PTX_ATOM.md Syntax";

/// The qualifiers of one `atom`, each with the column it was written at.
#[derive(Default)]
struct Quals {
    sem: Option<(PtxSem, usize)>,
    scope: Option<(PtxScope, usize)>,
    space: Option<(PtxSpace, usize)>,
    op: Option<(&'static PtxOpInfo, usize)>,
    noftz: Option<usize>,
    hint: Option<usize>,
    vec: Option<(u8, usize)>,
    ty: Option<(PtxType, usize)>,
}

fn set<T: Copy>(slot: &mut Option<(T, usize)>, v: T, col: usize, text: &str, category: &str) -> R<()> {
    if let Some((_, prev)) = slot {
        return err(col, format!("a second {category} qualifier `.{text}` (the first is at column {prev}); each category at most once"));
    }
    *slot = Some((v, col));
    Ok(())
}

fn type_list(types: &[PtxType]) -> String {
    types.iter().map(|t| format!(".{}", t.name())).collect::<Vec<_>>().join(" ")
}

fn qualifiers(word: &Token) -> R<Quals> {
    let parts = dotted_parts(&word.text, word.col);
    let mut q = Quals::default();
    for (text, col) in &parts[1..] {
        let col = *col;
        let lower = text.to_ascii_lowercase();
        match lower.as_str() {
            "" => return err(col, "empty qualifier (two dots in a row, or a trailing dot)"),
            "relaxed" => set(&mut q.sem, PtxSem::Relaxed, col, text, ".sem")?,
            "acquire" => set(&mut q.sem, PtxSem::Acquire, col, text, ".sem")?,
            "release" => set(&mut q.sem, PtxSem::Release, col, text, ".sem")?,
            "acq_rel" => set(&mut q.sem, PtxSem::AcqRel, col, text, ".sem")?,
            "cta" => set(&mut q.scope, PtxScope::Cta, col, text, ".scope")?,
            "cluster" => set(&mut q.scope, PtxScope::Cluster, col, text, ".scope")?,
            "gpu" => set(&mut q.scope, PtxScope::Gpu, col, text, ".scope")?,
            "sys" => set(&mut q.scope, PtxScope::Sys, col, text, ".scope")?,
            "global" => set(&mut q.space, PtxSpace::Global, col, text, ".space")?,
            "shared" => set(&mut q.space, PtxSpace::Shared, col, text, ".space")?,
            "shared::cta" => set(&mut q.space, PtxSpace::SharedCta, col, text, ".space")?,
            "shared::cluster" => set(&mut q.space, PtxSpace::SharedCluster, col, text, ".space")?,
            "noftz" => {
                let mut slot = q.noftz.map(|c| ((), c));
                set(&mut slot, (), col, text, ".noftz")?;
                q.noftz = Some(col);
            }
            "l2::cache_hint" => {
                let mut slot = q.hint.map(|c| ((), c));
                set(&mut slot, (), col, text, ".level::cache_hint")?;
                q.hint = Some(col);
            }
            "v2" => set(&mut q.vec, 2, col, text, "vector")?,
            "v4" => set(&mut q.vec, 4, col, text, "vector")?,
            "v8" => set(&mut q.vec, 8, col, text, "vector")?,
            "b16x2" => {
                return err(
                    col,
                    "`.b16x2` is not a PTX atom type: the seed's example `atom.global.v4.b16x2.min.noftz` uses it, but its type lists give only .f16x2 and .bf16x2 as packed types",
                )
            }
            _ => {
                if let Some(row) = PtxOpInfo::by_name(&lower) {
                    set(&mut q.op, row, col, text, ".op")?;
                } else if let Some(ty) = PtxType::by_name(&lower) {
                    set(&mut q.ty, ty, col, text, ".type")?;
                } else if lower.starts_with("shared::") || lower.starts_with("global::") {
                    return err(col, format!("unknown state space `.{text}` (.global, .shared, .shared::cta, .shared::cluster)"));
                } else {
                    return err(
                        col,
                        format!("unknown atom qualifier `.{text}` (sem: relaxed acquire release acq_rel; scope: cta cluster gpu sys; space: global shared shared::cta shared::cluster; op: and or xor cas exch add inc dec min max; noftz; L2::cache_hint; v2 v4 v8; types: {})", PtxType::ALL.iter().map(|t| t.name()).collect::<Vec<_>>().join(" ")),
                    );
                }
            }
        }
    }
    Ok(q)
}

/// One validated `atom` header (everything before the operands).
struct Header {
    sem: Option<PtxSem>,
    scope: Option<PtxScope>,
    space: PtxSpace,
    row: &'static PtxOpInfo,
    noftz: bool,
    hint: bool,
    vec: u8,
    ty: PtxType,
}

fn header(word: &Token) -> R<Header> {
    let q = qualifiers(word)?;
    let word_end = word.col + word.text.chars().count();
    let Some((row, _)) = q.op else {
        let ops = PTX_OPS.iter().map(|r| format!(".{}", r.name)).collect::<Vec<_>>().join(" ");
        return err(word_end, format!("atom needs an operation ({ops})"));
    };
    let Some((ty, ty_col)) = q.ty else {
        return err(word_end, format!("atom.{} needs a type ({})", row.name, type_list(row.scalar_types)));
    };
    let space = q.space.map(|s| s.0).unwrap_or(PtxSpace::Generic);
    let (vec, vec_col) = q.vec.unwrap_or((1, ty_col));
    if vec == 1 {
        if !row.scalar_types.contains(&ty) {
            if row.vector_types.contains(&ty) {
                return err(ty_col, format!("atom.{}.{} exists only in the vector forms ({SEED}: vector type); add .v2/.v4{}", row.name, ty.name(), if ty.vector_sizes().contains(&8) { "/.v8" } else { "" }));
            }
            return err(ty_col, format!("atom.{} takes {}, not .{} ({SEED})", row.name, type_list(row.scalar_types), ty.name()));
        }
    } else {
        if !row.vector_types.contains(&ty) {
            return err(
                vec_col,
                format!("no vector form of atom.{}.{}: vectors are .add on .f32 .f16 .bf16 .f16x2 .bf16x2 and .min/.max on .f16 .bf16 .f16x2 .bf16x2 ({SEED}: vector type)", row.name, ty.name()),
            );
        }
        if !ty.vector_sizes().contains(&vec) {
            return err(vec_col, format!(".v{vec} is not a vector size for .{} (.vec_32_bit is .v2 .v4; .vec_16_bit is .v2 .v4 .v8; {SEED})", ty.name()));
        }
        if !space.is_global_or_generic() {
            let col = q.space.map(|s| s.1).unwrap_or(vec_col);
            return err(col, format!("atom with vector type is only for .global or generic addressing, not .shared ({SEED}; Description)"));
        }
    }
    match (ty.needs_noftz(), q.noftz) {
        (true, None) => {
            return err(ty_col, format!("atom.{}{}.{} requires .noftz ({SEED}: the f16/bf16/f16x2/bf16x2 forms are .op.noftz)", row.name, if vec > 1 { format!(".v{vec}") } else { String::new() }, ty.name()))
        }
        (false, Some(col)) => {
            return err(col, format!(".noftz is only for .f16 .bf16 .f16x2 .bf16x2 (add and the vector forms), not .{} ({SEED})", ty.name()))
        }
        _ => {}
    }
    if let Some(col) = q.hint {
        if !space.is_global_or_generic() {
            return err(col, ".L2::cache_hint is only for .global or generic addressing, not .shared (seed PTX_ATOM.md Description)");
        }
        if !row.takes_cache_hint(ty) {
            return err(col, format!("atom.cas.{} takes no .L2::cache_hint ({SEED}: `atom.cas.{} d, [a], b, c`)", ty.name(), ty.name()));
        }
    }
    Ok(Header { sem: q.sem.map(|s| s.0), scope: q.scope.map(|s| s.0), space, row, noftz: q.noftz.is_some(), hint: q.hint.is_some(), vec, ty })
}

/// Parses an `atom` statement; `word` is the `atom...` token, already consumed.
pub(crate) fn parse_atom(cur: &mut Cur<'_>, word: &Token, pred: Option<PredRef>, ctx: &Ctx<'_>) -> R<Message> {
    let h = header(word)?;
    let warp = if cur.peek_is(Tok::LParen) {
        let (n, n_col, mask_ctrl) = exec_group(cur)?;
        let k = MsgKind::PtxAtom.info();
        Some((check_exec(n, n_col, k.exec_sizes, "the PTX warp form", k.exec_source)?, mask_ctrl))
    } else {
        None
    };
    let lanes = warp.map(|w| w.0).unwrap_or(1);
    let access = h.ty.elem_type().bytes() * h.vec as u32;

    let dst = dst_operand(cur, &h)?;
    cur.expect(Tok::Comma, "`,` after d")?;

    let addrs: Vec<(u64, usize)> = if warp.is_some() {
        let open = cur.expect(Tok::LBrack, "a lane vector of addresses `[a0 a1 ...]` (warp form)")?;
        let elems = list(cur, Tok::RBrack, "addresses", addr_expr)?;
        check_lanes(open.col, "the addresses", elems.len(), lanes)?;
        elems
    } else if cur.eat(Tok::LBrack) {
        let a = addr_expr(cur)?;
        cur.expect(Tok::RBrack, "`]` after the address")?;
        vec![a]
    } else {
        vec![addr_expr(cur)?]
    };
    let why = if h.vec > 1 { format!("the whole .v{}.{} access", h.vec, h.ty.name()) } else { format!("a .{} access", h.ty.name()) };
    for (i, &(a, col)) in addrs.iter().enumerate() {
        check_aligned(col, "address", i, a as u128, access, &why)?;
    }
    let addrs = addrs.into_iter().map(|a| a.0).collect();

    cur.expect(Tok::Comma, "`, b` after the address")?;
    let b = operand(cur, &h, warp.is_some(), lanes, "b")?;
    let c = if h.row.has_c {
        cur.expect(Tok::Comma, "`, c`: atom.cas takes d, [a], b, c")?;
        Some(operand(cur, &h, warp.is_some(), lanes, "c")?)
    } else {
        None
    };
    let cache_hint = if h.hint {
        cur.expect(Tok::Comma, "`, cache-policy`: .L2::cache_hint needs the cache-policy operand")?;
        let t = cur.word("the cache-policy operand (a 64-bit integer)")?;
        Some(at(t.col, plain_uint(&t.text, 64, "cache-policy"))? as u64)
    } else {
        None
    };
    if let Some(t) = cur.peek() {
        if t.kind == Tok::Comma {
            let msg = if h.hint || h.row.has_c {
                format!("too many operands for atom.{}", h.row.name)
            } else {
                format!("atom.{} takes d, [a], b; a cache-policy operand needs .L2::cache_hint ({SEED})", h.row.name)
            };
            return err(t.col, msg);
        }
    }
    cur.eat(Tok::Semi);
    cur.end()?;
    let (exec_size, mask_ctrl) = warp.unwrap_or((1, MaskCtrl::M1_NM));
    Ok(Message {
        line: ctx.line,
        exec_size,
        mask_ctrl,
        pred,
        dmask: ctx.dmask,
        dst,
        body: Body::PtxAtom {
            sem: h.sem,
            scope: h.scope,
            space: h.space,
            op: h.row.op,
            noftz: h.noftz,
            cache_hint,
            vec: h.vec,
            ty: h.ty,
            addrs,
            b,
            c,
        },
    })
}

fn check_lanes(col: usize, what: &str, got: usize, want: u8) -> R<()> {
    if got != want as usize {
        return err(col, format!("{what} has {got} element(s); exec size {want} needs exactly {want}"));
    }
    Ok(())
}

/// `d`: a result name, `V0`/`_` (discard), or for vector forms a brace
/// list of exactly N names (kept as written, `{a, b}`).
fn dst_operand(cur: &mut Cur<'_>, h: &Header) -> R<Option<String>> {
    if let Some(open) = cur.peek().filter(|t| t.kind == Tok::LBrace) {
        cur.bump();
        let names = list(cur, Tok::RBrace, "d", |cur| {
            let t = cur.word("a result name")?;
            if !is_name(&t.text) || is_null(&t.text) {
                return err(t.col, format!("`{}` is not a result name", t.text));
            }
            Ok(t.text.clone())
        })?;
        if h.vec == 1 {
            return err(open.col, format!("a brace list for d is only for vector forms (.v2/.v4/.v8); .{} gives one value: write one name", h.ty.name()));
        }
        if names.len() != h.vec as usize {
            return err(open.col, format!("d has {} name(s); .v{} needs exactly {}", names.len(), h.vec, h.vec));
        }
        return Ok(Some(format!("{{{}}}", names.join(", "))));
    }
    super::dst_name(cur, "d")
}

/// Items up to `close`, separated by blanks or commas (the opening token is
/// already consumed).
fn list<T>(cur: &mut Cur<'_>, close: Tok, what: &str, mut item: impl FnMut(&mut Cur<'_>) -> R<T>) -> R<Vec<T>> {
    let mut out = Vec::new();
    let mut after_item = false;
    loop {
        match cur.peek_kind() {
            Some(k) if k == close => {
                cur.bump();
                return Ok(out);
            }
            Some(Tok::Comma) if after_item => {
                cur.bump();
                after_item = false;
            }
            Some(Tok::Comma) => return err(cur.col(), format!("unexpected `,` in {what}")),
            None => return err(cur.end_col(), format!("{what} is missing its closing {}", close.spelling())),
            Some(_) => {
                out.push(item(cur)?);
                after_item = true;
            }
        }
    }
}

/// `imm` or `imm+imm`: a 64-bit address, and its column.
fn addr_expr(cur: &mut Cur<'_>) -> R<(u64, usize)> {
    let t = cur.word("an address (an integer, or `base+offset`)")?;
    let mut a = at(t.col, plain_uint(&t.text, 64, "address"))?;
    if cur.eat(Tok::Plus) {
        let o = cur.word("the offset after `+`")?;
        a += at(o.col, plain_uint(&o.text, 64, "address offset"))?;
        if a > u64::MAX as u128 {
            return err(t.col, "the address sum does not fit 64 bits");
        }
    }
    Ok((a as u64, t.col))
}

/// `b` or `c`: one value (single thread) or a lane vector of values (warp).
fn operand(cur: &mut Cur<'_>, h: &Header, warp: bool, lanes: u8, what: &str) -> R<Vec<u128>> {
    if !warp {
        return Ok(vec![value(cur, h, what)?]);
    }
    let open = cur.expect(Tok::LBrack, &format!("{what} as a lane vector `[...]` (warp form)"))?;
    let vals = list(cur, Tok::RBrack, what, |cur| value(cur, h, what))?;
    check_lanes(open.col, what, vals.len(), lanes)?;
    Ok(vals)
}

/// One lane's value of the header's type: for `.vN` a brace vector of N
/// elements joined element 0 in the low bits.
fn value(cur: &mut Cur<'_>, h: &Header, what: &str) -> R<u128> {
    if h.vec == 1 {
        return scalar(cur, h.ty, what);
    }
    let open = cur.expect(Tok::LBrace, &format!("{what} as a brace vector of {} elements `{{x, y, ...}}`", h.vec))?;
    let elems = list(cur, Tok::RBrace, what, |cur| scalar(cur, h.ty, what))?;
    if elems.len() != h.vec as usize {
        return err(open.col, format!("{what} has {} element(s); .v{} needs exactly {}", elems.len(), h.vec, h.vec));
    }
    let bits = h.ty.elem_type().bits();
    Ok(elems.iter().enumerate().fold(0u128, |acc, (i, v)| acc | v.checked_shl(i as u32 * bits).unwrap_or(0)))
}

/// One element of type `ty`: a literal, or `{lo, hi}` for the packed types
/// (f16x2, bf16x2: two halves; b128: two 64-bit halves).
fn scalar(cur: &mut Cur<'_>, ty: PtxType, what: &str) -> R<u128> {
    let pair_of = match ty {
        PtxType::F16x2 => Some((ElemType::F16, 16)),
        PtxType::BF16x2 => Some((ElemType::BF16, 16)),
        PtxType::B128 => Some((ElemType::B64, 64)),
        _ => None,
    };
    if let Some((half_ty, half_bits)) = pair_of {
        if let Some(open) = cur.peek().filter(|t| t.kind == Tok::LBrace) {
            cur.bump();
            let halves = list(cur, Tok::RBrace, what, |cur| {
                let t = cur.word("a value")?;
                let r = if half_ty == ElemType::B64 { unsigned_bits(&t.text, 64, "half") } else { float_bits(&t.text, half_ty) };
                at(t.col, r.map_err(|e| format!("{what} (.{}): {e}", ty.name())))
            })?;
            if halves.len() != 2 {
                return err(open.col, format!("{what} of .{} is `{{lo, hi}}`: two elements, not {}", ty.name(), halves.len()));
            }
            return Ok(halves[0] | (halves[1] << half_bits));
        }
    }
    let t = cur.word(&format!("{what} (a .{} value)", ty.name()))?;
    let r = match ty {
        PtxType::B16 => unsigned_bits(&t.text, 16, "b16"),
        PtxType::B32 | PtxType::U32 => unsigned_bits(&t.text, 32, ty.name()),
        PtxType::B64 | PtxType::U64 => unsigned_bits(&t.text, 64, ty.name()),
        PtxType::B128 => unsigned_bits(&t.text, 128, "b128"),
        PtxType::S32 => signed_bits(&t.text, 32, "s32"),
        PtxType::S64 => signed_bits(&t.text, 64, "s64"),
        PtxType::F16 | PtxType::BF16 | PtxType::F32 | PtxType::F64 => float_bits(&t.text, ty.elem_type()),
        PtxType::F16x2 | PtxType::BF16x2 => {
            if t.text.to_ascii_lowercase().starts_with("0x") {
                plain_uint(&t.text, 32, "raw bits")
            } else {
                Err(format!("a .{} value is `{{lo, hi}}` or 32-bit raw hex, not `{}`", ty.name(), t.text))
            }
        }
    };
    r.map_err(|e| PErr { col: t.col, msg: format!("{what}: {e}"), follows: false })
}
