//! Message -> the seed's Text form, spelled canonically, so that
//! `atomport decode` can print a message and the script parser
//! ([`crate::script::parse`]) reads the text back to an equal [`Message`].
//!
//! Canonical spelling:
//! - vISA message and op names upper case (`SVM_ATOMIC.CMPXCHG.64`),
//!   PTX lower case with the qualifiers in the seed's Syntax order:
//!   `atom{.sem}{.scope}{.space}.op{.noftz}{.L2::cache_hint}{.vN}.type`;
//! - `(N)` for M1, `(Mk, N)` / `(Mk_NM, N)` otherwise (scripts.md);
//! - every lane value in lower-case hex with `0x` and no leading zeros,
//!   including floats, which print as their raw bits (scripts.md: a hex
//!   float literal is the bit pattern);
//! - lane vectors `[v0 v1 ...]`; PTX vector and packed values as brace
//!   vectors `{e0, e1}` (element 0 = the low bits);
//! - PTX single-thread form when the message is one lane with M1_NM, the
//!   warp form `atom... .type (<exec>) d, [a-lanes], [b-lanes]...` otherwise.

use crate::message::{Body, DwordSurface, MaskCtrl, Message, PtxScope, PtxSem, PtxSpace};
use crate::ops::{PtxOp, PtxOpInfo, PtxType, VisaOpInfo};

/// The canonical text of one message statement (no trailing newline).
pub fn message_text(msg: &Message) -> String {
    let exec = exec_text(msg.exec_size, msg.mask_ctrl);
    let dst = msg.dst.as_deref().unwrap_or("V0").to_string();
    let pred = msg.pred.as_ref().map(|p| (p.name.as_str(), p.negate));
    match &msg.body {
        Body::SvmAtomic { op, width, addrs, src0, src1 } => format!(
            "{}{} {} {} {} {} {}",
            visa_pred_text(pred),
            visa_mnemonic("SVM_ATOMIC", op, width.bits()),
            exec,
            lanes(addrs),
            dst,
            opt_lanes(src0.as_deref()),
            opt_lanes(src1.as_deref()),
        ),
        Body::DwordAtomic { op, w16, surface, offsets, src0, src1 } => format!(
            "{}{} {} {} {} {} {} {}",
            visa_pred_text(pred),
            visa_mnemonic("DWORD_ATOMIC", op, if *w16 { 16 } else { 32 }),
            exec,
            dword_surface_text(*surface),
            lanes(offsets),
            opt_lanes(src0.as_deref()),
            opt_lanes(src1.as_deref()),
            dst,
        ),
        Body::TypedAtomic { op, w16, surface, u, v, r, lod, src0, src1 } => format!(
            "{}{} {} {} {} {} {} {} {} {} {}",
            visa_pred_text(pred),
            visa_mnemonic("TYPED_ATOMIC", op, if *w16 { 16 } else { 32 }),
            exec,
            surface,
            lanes(u),
            opt_lanes(v.as_deref()),
            opt_lanes(r.as_deref()),
            opt_lanes(lod.as_deref()),
            opt_lanes(src0.as_deref()),
            opt_lanes(src1.as_deref()),
            dst,
        ),
        Body::SvmScatter { block_size, num_blocks, addrs, src } => format!(
            "{}{} {} {} {}",
            visa_pred_text(pred),
            scatter_mnemonic(*block_size, *num_blocks),
            exec,
            lanes(addrs),
            lanes(src),
        ),
        Body::PtxAtom { sem, scope, space, op, noftz, cache_hint, vec, ty, addrs, b, c } => {
            let quals = PtxQuals {
                sem: *sem,
                scope: *scope,
                space: *space,
                op: *op,
                noftz: *noftz,
                cache_hint: cache_hint.is_some(),
                vec: *vec,
                ty: *ty,
            };
            let single = is_ptx_single_thread(msg.exec_size, msg.mask_ctrl);
            let value = |v: u128| ptx_value_text(v, *vec, *ty);
            let (a_text, b_text, c_text) = if single {
                (hex(addrs[0] as u128), value(b[0]), c.as_ref().map(|c| value(c[0])))
            } else {
                (
                    lanes(addrs),
                    vector_text(b.iter().map(|&v| value(v))),
                    c.as_ref().map(|c| vector_text(c.iter().map(|&v| value(v)))),
                )
            };
            ptx_text(
                pred,
                &quals,
                if single { None } else { Some(exec) },
                &dst,
                &a_text,
                &b_text,
                c_text.as_deref(),
                cache_hint.map(|p| hex(p as u128)).as_deref(),
            )
        }
    }
}

/// True when a PTX message is the single-thread form (one lane, M1_NM;
/// scripts.md: a single-thread statement is a one-lane message that dmask
/// does not touch).
pub fn is_ptx_single_thread(exec_size: u8, mask_ctrl: MaskCtrl) -> bool {
    exec_size == 1 && mask_ctrl == MaskCtrl::M1_NM
}

/// `0x` + lower-case hex digits, no leading zeros.
pub fn hex(value: u128) -> String {
    format!("0x{value:x}")
}

/// `[0x1 0x2 ...]`
pub fn lanes<T: Copy + Into<u128>>(values: &[T]) -> String {
    vector_text(values.iter().map(|&v| hex(v.into())))
}

/// A lane vector, or `V0` for a null operand.
pub fn opt_lanes<T: Copy + Into<u128>>(values: Option<&[T]>) -> String {
    values.map(lanes).unwrap_or_else(|| "V0".to_string())
}

/// `[e0 e1 ...]` from already printed elements.
pub fn vector_text(elements: impl Iterator<Item = String>) -> String {
    format!("[{}]", elements.collect::<Vec<_>>().join(" "))
}

/// `M1` .. `M8`, `M1_NM` .. `M8_NM`.
pub fn mask_ctrl_name(mc: MaskCtrl) -> String {
    format!("M{}{}", mc.group + 1, if mc.no_mask { "_NM" } else { "" })
}

/// `(N)` for M1, else `(Mk, N)` / `(Mk_NM, N)` (scripts.md, `<exec>`).
pub fn exec_text(lanes: u8, mc: MaskCtrl) -> String {
    if mc == MaskCtrl::M1 {
        format!("({lanes})")
    } else {
        format!("({}, {lanes})", mask_ctrl_name(mc))
    }
}

/// The vISA predicate prefix with its trailing blank: `(p) `, `(!p) `, or
/// nothing.
pub fn visa_pred_text(pred: Option<(&str, bool)>) -> String {
    match pred {
        None => String::new(),
        Some((name, negate)) => format!("({}{name}) ", if negate { "!" } else { "" }),
    }
}

/// The PTX predicate prefix with its trailing blank: `@p `, `@!p `, or
/// nothing.
pub fn ptx_pred_text(pred: Option<(&str, bool)>) -> String {
    match pred {
        None => String::new(),
        Some((name, negate)) => format!("@{}{name} ", if negate { "!" } else { "" }),
    }
}

/// `SVM_ATOMIC.ADD`, `SVM_ATOMIC.ADD.64`, `DWORD_ATOMIC.FMAX.16`: the 32-bit
/// width is implied (seed Text forms).
pub fn visa_mnemonic(message: &str, op: &VisaOpInfo, width_bits: u32) -> String {
    let width = match width_bits {
        16 => ".16",
        64 => ".64",
        _ => "",
    };
    format!("{message}.{}{width}", op.name.to_ascii_uppercase())
}

/// `SVM_SCATTER.<block_size>.<num_blocks>`
pub fn scatter_mnemonic(block_size: u8, num_blocks: u8) -> String {
    format!("SVM_SCATTER.{block_size}.{num_blocks}")
}

/// `T0`, `T255` or the buffer surface number.
pub fn dword_surface_text(surface: DwordSurface) -> String {
    match surface {
        DwordSurface::Slm => "T0".to_string(),
        DwordSurface::Stateless => "T255".to_string(),
        DwordSurface::Buffer(n) => n.to_string(),
    }
}

pub fn ptx_space_name(space: PtxSpace) -> &'static str {
    match space {
        PtxSpace::Generic => "",
        PtxSpace::Global => ".global",
        PtxSpace::Shared => ".shared",
        PtxSpace::SharedCta => ".shared::cta",
        PtxSpace::SharedCluster => ".shared::cluster",
    }
}

pub fn ptx_sem_name(sem: PtxSem) -> &'static str {
    match sem {
        PtxSem::Relaxed => ".relaxed",
        PtxSem::Acquire => ".acquire",
        PtxSem::Release => ".release",
        PtxSem::AcqRel => ".acq_rel",
    }
}

pub fn ptx_scope_name(scope: PtxScope) -> &'static str {
    match scope {
        PtxScope::Cta => ".cta",
        PtxScope::Cluster => ".cluster",
        PtxScope::Gpu => ".gpu",
        PtxScope::Sys => ".sys",
    }
}

/// The `.op` name (`cas`).
pub fn ptx_op_name(op: PtxOp) -> &'static str {
    PtxOpInfo::by_code(op as u8).map(|r| r.name).unwrap_or("?")
}

/// Everything between `atom` and the operands of a PTX statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtxQuals {
    pub sem: Option<PtxSem>,
    pub scope: Option<PtxScope>,
    pub space: PtxSpace,
    pub op: PtxOp,
    pub noftz: bool,
    pub cache_hint: bool,
    /// 1 (scalar), 2, 4 or 8
    pub vec: u8,
    pub ty: PtxType,
}

/// `atom{.sem}{.scope}{.space}.op{.noftz}{.L2::cache_hint}{.vN}.type`, the
/// seed's Syntax order.
pub fn ptx_mnemonic(q: &PtxQuals) -> String {
    let mut s = String::from("atom");
    if let Some(sem) = q.sem {
        s.push_str(ptx_sem_name(sem));
    }
    if let Some(scope) = q.scope {
        s.push_str(ptx_scope_name(scope));
    }
    s.push_str(ptx_space_name(q.space));
    s.push('.');
    s.push_str(ptx_op_name(q.op));
    if q.noftz {
        s.push_str(".noftz");
    }
    if q.cache_hint {
        s.push_str(".L2::cache_hint");
    }
    if q.vec > 1 {
        s.push_str(&format!(".v{}", q.vec));
    }
    s.push('.');
    s.push_str(q.ty.name());
    s
}

/// A whole PTX statement from already printed operands. `exec` is `Some`
/// for the warp form; `a` is printed inside `[...]` for the single-thread
/// form and as the lane vector it already is for the warp form.
#[allow(clippy::too_many_arguments)]
pub fn ptx_text(
    pred: Option<(&str, bool)>,
    quals: &PtxQuals,
    exec: Option<String>,
    d: &str,
    a: &str,
    b: &str,
    c: Option<&str>,
    policy: Option<&str>,
) -> String {
    let mut s = ptx_pred_text(pred);
    s.push_str(&ptx_mnemonic(quals));
    if let Some(exec) = exec {
        s.push(' ');
        s.push_str(&exec);
        s.push_str(&format!(" {d}, {a}, {b}"));
    } else {
        s.push_str(&format!(" {d}, [{a}], {b}"));
    }
    if let Some(c) = c {
        s.push_str(", ");
        s.push_str(c);
    }
    if let Some(p) = policy {
        s.push_str(", ");
        s.push_str(p);
    }
    s.push(';');
    s
}

/// One lane's PTX b/c value: plain hex for a scalar, `{e0, e1, ...}` for a
/// `.vN` vector (elements of the type's width; a packed f16x2 element is
/// one 32-bit value) and `{lo, hi}` for a scalar packed f16x2/bf16x2
/// (scripts.md: "f16x2 takes {lo, hi}").
pub fn ptx_value_text(value: u128, vec: u8, ty: PtxType) -> String {
    let packed = matches!(ty, PtxType::F16x2 | PtxType::BF16x2);
    let (count, bits) = if vec > 1 {
        (vec as u32, ty.elem_type().bits())
    } else if packed {
        (2, 16)
    } else {
        return hex(value);
    };
    let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let elements: Vec<String> = (0..count).map(|i| hex((value >> (i * bits)) & mask)).collect();
    format!("{{{}}}", elements.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::PredRef;
    use crate::ops::VisaWidth;

    fn visa(name: &str) -> &'static VisaOpInfo {
        VisaOpInfo::by_name(name).unwrap()
    }

    fn msg(exec_size: u8, mask_ctrl: MaskCtrl, pred: Option<PredRef>, dst: Option<&str>, body: Body) -> Message {
        Message { line: 1, exec_size, mask_ctrl, pred, dmask: u32::MAX, dst: dst.map(String::from), body }
    }

    #[test]
    fn text_svm_atomic_orders_dst_before_sources() {
        let m = msg(
            4,
            MaskCtrl { group: 1, no_mask: true },
            Some(PredRef { name: "p".into(), negate: true, mask: 5 }),
            Some("d"),
            Body::SvmAtomic {
                op: visa("cmpxchg"),
                width: VisaWidth::W64,
                addrs: vec![0x1000, 0x1008, 0x1010, 0x1018],
                src0: Some(vec![1, 2, 3, 4]),
                src1: Some(vec![0, 0, 0, 0xffff_ffff_ffff_ffff]),
            },
        );
        assert_eq!(
            message_text(&m),
            "(!p) SVM_ATOMIC.CMPXCHG.64 (M2_NM, 4) [0x1000 0x1008 0x1010 0x1018] d [0x1 0x2 0x3 0x4] [0x0 0x0 0x0 0xffffffffffffffff]"
        );
    }

    #[test]
    fn text_dword_and_typed_put_dst_last() {
        let m = msg(
            2,
            MaskCtrl::M1,
            None,
            None,
            Body::DwordAtomic { op: visa("inc"), w16: true, surface: DwordSurface::Stateless, offsets: vec![0, 2], src0: None, src1: None },
        );
        assert_eq!(message_text(&m), "DWORD_ATOMIC.INC.16 (2) T255 [0x0 0x2] V0 V0 V0");
        let m = msg(
            8,
            MaskCtrl { group: 7, no_mask: false },
            Some(PredRef { name: "q".into(), negate: false, mask: 1 }),
            Some("old"),
            Body::TypedAtomic {
                op: visa("imax"),
                w16: false,
                surface: 3,
                u: (0..8).collect(),
                v: None,
                r: Some(vec![1; 8]),
                lod: None,
                src0: Some(vec![0xffff_fffe; 8]),
                src1: None,
            },
        );
        assert_eq!(
            message_text(&m),
            "(q) TYPED_ATOMIC.IMAX (M8, 8) 3 [0x0 0x1 0x2 0x3 0x4 0x5 0x6 0x7] V0 [0x1 0x1 0x1 0x1 0x1 0x1 0x1 0x1] V0 \
             [0xfffffffe 0xfffffffe 0xfffffffe 0xfffffffe 0xfffffffe 0xfffffffe 0xfffffffe 0xfffffffe] V0 old"
        );
    }

    #[test]
    fn text_scatter() {
        let m = msg(
            2,
            MaskCtrl::M1,
            None,
            None,
            Body::SvmScatter { block_size: 8, num_blocks: 2, addrs: vec![0x100, 0x200], src: vec![1, 2, 3, 4] },
        );
        assert_eq!(message_text(&m), "SVM_SCATTER.8.2 (2) [0x100 0x200] [0x1 0x2 0x3 0x4]");
    }

    fn ptx(vec: u8, ty: PtxType, op: PtxOp, b: Vec<u128>, c: Option<Vec<u128>>, cache_hint: Option<u64>) -> Body {
        let n = b.len();
        Body::PtxAtom {
            sem: Some(PtxSem::Acquire),
            scope: Some(PtxScope::Sys),
            space: PtxSpace::Global,
            op,
            noftz: matches!(ty, PtxType::F16 | PtxType::F16x2 | PtxType::BF16 | PtxType::BF16x2),
            cache_hint,
            vec,
            ty,
            addrs: (0..n as u64).map(|i| 0x2000 + 16 * i).collect(),
            b,
            c,
        }
    }

    #[test]
    fn text_ptx_single_thread_form() {
        let m = msg(1, MaskCtrl::M1_NM, None, Some("d"), ptx(1, PtxType::B32, PtxOp::Cas, vec![7], Some(vec![9]), None));
        assert_eq!(message_text(&m), "atom.acquire.sys.global.cas.b32 d, [0x2000], 0x7, 0x9;");
        let m = msg(
            1,
            MaskCtrl::M1_NM,
            Some(PredRef { name: "p".into(), negate: true, mask: 0 }),
            None,
            ptx(1, PtxType::F16x2, PtxOp::Add, vec![0x3c00_4000], None, Some(0x1234)),
        );
        assert_eq!(
            message_text(&m),
            "@!p atom.acquire.sys.global.add.noftz.L2::cache_hint.f16x2 V0, [0x2000], {0x4000, 0x3c00}, 0x1234;"
        );
    }

    #[test]
    fn text_ptx_warp_form_with_vectors() {
        let m = msg(
            2,
            MaskCtrl { group: 0, no_mask: false },
            None,
            Some("r"),
            ptx(4, PtxType::F16, PtxOp::Max, vec![0x0004_0003_0002_0001, 0x8000_7c00_0000_0001], None, None),
        );
        assert_eq!(
            message_text(&m),
            "atom.acquire.sys.global.max.noftz.v4.f16 (2) r, [0x2000 0x2010], [{0x1, 0x2, 0x3, 0x4} {0x1, 0x0, 0x7c00, 0x8000}];"
        );
        // one lane under M1 is the warp form, not the single-thread form
        let m = msg(1, MaskCtrl::M1, None, Some("r"), ptx(1, PtxType::U32, PtxOp::Inc, vec![5], None, None));
        assert_eq!(message_text(&m), "atom.acquire.sys.global.inc.u32 (1) r, [0x2000], [0x5];");
    }
}
