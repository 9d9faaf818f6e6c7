//! One encoding struct per descriptor kind, in the style of rrs-lib's
//! instruction formats: `new(bytes)` decodes and checks every field,
//! `encode()` packs the fields back. The byte layouts are the tables of
//! docs/descriptors.md; each follows its seed's Format table in order.

use super::fields::*;
use super::DecodeError;
use crate::message::{DwordSurface, MsgKind, PtxScope, PtxSem, PtxSpace};
use crate::ops::KindInfo;
use crate::ops::{
    dword_atomic_bytes as dw, ptx_atom_bytes as px, ptx_form, svm_atomic_bytes as sa, svm_scatter_bytes as sc,
    typed_atomic_bytes as ty, PtxFormError, PtxOp, PtxOpInfo, PtxType, VisaOpInfo, VisaWidth, SCATTER_BLOCK_BYTES,
    SCATTER_NUM_BLOCKS,
};
use crate::text;

/// `%n` for operand number n, `V0` for 0.
pub fn operand_symbol(number: u8) -> String {
    if number == 0 {
        "V0".to_string()
    } else {
        format!("%{number}")
    }
}

/// The symbolic predicate of a descriptor alone: `P<n>`.
fn pred_symbol(pred: &Option<PredField>) -> Option<(String, bool)> {
    pred.map(|p| (format!("P{}", p.number), p.negate))
}

fn pred_ref(p: &Option<(String, bool)>) -> Option<(&str, bool)> {
    p.as_ref().map(|(n, neg)| (n.as_str(), *neg))
}

fn read_pred(bytes: &[u8], at: usize) -> Result<Option<PredField>, DecodeError> {
    PredField::new(u16::from_le_bytes([bytes[at], bytes[at + 1]]), at)
}

fn push_pred(out: &mut Vec<u8>, pred: Option<PredField>) {
    out.extend_from_slice(&PredField::encode(pred).to_le_bytes());
}

/// Bits 4..0 of a vISA Op byte: a row of the `DWORD_ATOMIC_OP` table.
fn visa_op(byte: u8, at: usize) -> Result<&'static VisaOpInfo, DecodeError> {
    let code = byte & 0x1f;
    VisaOpInfo::by_code(code)
        .ok_or_else(|| DecodeError::desc(at, format!("Op 0x{byte:02x}: reserved op code 0x{code:02x} in bits 4..0")))
}

/// The `DWORD_ATOMIC_OP` table's Data Type column: float ops are HF/F only
/// ([`VisaOpInfo::widths`]).
fn check_visa_width(op: &VisaOpInfo, width_bits: u32, byte: u8, at: usize) -> Result<(), DecodeError> {
    if !op.widths().contains(&width_bits) {
        return Err(DecodeError::desc(
            at,
            format!("Op 0x{byte:02x}: {} is not allowed at 64 bits (op table: data types HF, F)", op.name.to_ascii_uppercase()),
        ));
    }
    Ok(())
}

/// Src0/Src1 presence for a vISA op (op table: src0 is V0 for INC, DEC,
/// PREDEC; src1 is non-null for CMPXCHG and FCMPWR only).
fn src_rules(op: &VisaOpInfo) -> (Presence, String, Presence, String) {
    let name = op.name.to_ascii_uppercase();
    let s0 = Presence::from_rule(op.src0);
    let s1 = Presence::from_rule(op.src1);
    let why0 = if s0 == Presence::Null { format!("{name} takes no src0") } else { format!("{name} takes src0") };
    let why1 = if s1 == Presence::Null {
        format!("src1 is V0 except for CMPXCHG and FCMPWR, and this is {name}")
    } else {
        format!("{name} takes src1")
    };
    (s0, why0, s1, why1)
}

/// SVM_ATOMIC: `0x4e 0x05 Exec_size Pred(uw) Op Addresses Src0 Src1 Dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvmAtomicDesc {
    pub exec: ExecSize,
    pub pred: Option<PredField>,
    pub op: &'static VisaOpInfo,
    pub width: VisaWidth,
    pub addresses: u8,
    pub src0: u8,
    pub src1: u8,
    pub dst: u8,
}

impl SvmAtomicDesc {
    pub const KIND: &'static KindInfo = MsgKind::SvmAtomic.info();
    pub const LEN: usize = Self::KIND.desc_len;

    pub fn new(bytes: &[u8]) -> Result<SvmAtomicDesc, DecodeError> {
        let k = Self::KIND;
        check_len(bytes, Self::LEN, k.name)?;
        let exec = ExecSize::new(bytes[sa::EXEC_SIZE], sa::EXEC_SIZE, k.max_exec_code(), k.name)?;
        let pred = read_pred(bytes, sa::PRED)?;
        let opb = bytes[sa::OP];
        if opb & 0x80 != 0 {
            return Err(DecodeError::desc(sa::OP, format!("Op 0x{opb:02x}: reserved bit 7 is set")));
        }
        let op = visa_op(opb, sa::OP)?;
        let width = match (opb >> 5) & 3 {
            0 => VisaWidth::W32,
            1 => VisaWidth::W16,
            2 => VisaWidth::W64,
            _ => return Err(DecodeError::desc(sa::OP, format!("Op 0x{opb:02x}: reserved width code 0b11 in bits 6..5"))),
        };
        check_visa_width(op, width.bits(), opb, sa::OP)?;
        let (s0, why0, s1, why1) = src_rules(op);
        let mut ck = OperandCheck::new();
        let addresses = ck.field(bytes, sa::ADDRESSES, "Addresses", Presence::Required, "SVM_ATOMIC needs addresses")?;
        let src0 = ck.field(bytes, sa::SRC0, "Src0", s0, &why0)?;
        let src1 = ck.field(bytes, sa::SRC1, "Src1", s1, &why1)?;
        let dst = ck.field(bytes, sa::DST, "Dst", Presence::Optional, "")?;
        Ok(SvmAtomicDesc { exec, pred, op, width, addresses, src0, src1, dst })
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![OPCODE_SVM, SUBOP_SVM_ATOMIC, self.exec.encode()];
        push_pred(&mut out, self.pred);
        out.push(self.op.op.code() | ((self.width as u8) << 5));
        out.extend_from_slice(&[self.addresses, self.src0, self.src1, self.dst]);
        out
    }

    pub fn symbolic_text(&self) -> String {
        format!(
            "{}{} {} {} {} {} {}",
            text::visa_pred_text(pred_ref(&pred_symbol(&self.pred))),
            text::visa_mnemonic("SVM_ATOMIC", self.op, self.width.bits()),
            text::exec_text(self.exec.lanes, self.exec.mask_ctrl),
            operand_symbol(self.addresses),
            operand_symbol(self.dst),
            operand_symbol(self.src0),
            operand_symbol(self.src1),
        )
    }
}

/// Op byte of DWORD_ATOMIC / TYPED_ATOMIC: bits 4..0 op, bit 5 `.16`, bits
/// 7..6 reserved.
fn dword_op(byte: u8, at: usize) -> Result<(&'static VisaOpInfo, bool), DecodeError> {
    if byte & 0xc0 != 0 {
        return Err(DecodeError::desc(at, format!("Op 0x{byte:02x}: reserved bits 7..6 are set")));
    }
    Ok((visa_op(byte, at)?, byte & 0x20 != 0))
}

fn encode_dword_op(op: &VisaOpInfo, w16: bool) -> u8 {
    op.op.code() | if w16 { 0x20 } else { 0 }
}

/// The DWORD_ATOMIC Surface byte: 0 = T0, 255 = T255, else buffer n.
pub fn dword_surface_from_byte(byte: u8) -> DwordSurface {
    match byte {
        0 => DwordSurface::Slm,
        255 => DwordSurface::Stateless,
        n => DwordSurface::Buffer(n),
    }
}

pub fn dword_surface_byte(surface: DwordSurface) -> u8 {
    match surface {
        DwordSurface::Slm => 0,
        DwordSurface::Stateless => 255,
        DwordSurface::Buffer(n) => n,
    }
}

/// DWORD_ATOMIC: `0x7d Op Exec_size Pred(uw) Surface Element_offset Src0 Src1 Dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DwordAtomicDesc {
    pub op: &'static VisaOpInfo,
    pub w16: bool,
    pub exec: ExecSize,
    pub pred: Option<PredField>,
    pub surface: DwordSurface,
    pub element_offset: u8,
    pub src0: u8,
    pub src1: u8,
    pub dst: u8,
}

impl DwordAtomicDesc {
    pub const KIND: &'static KindInfo = MsgKind::DwordAtomic.info();
    pub const LEN: usize = Self::KIND.desc_len;

    pub fn new(bytes: &[u8]) -> Result<DwordAtomicDesc, DecodeError> {
        let k = Self::KIND;
        check_len(bytes, Self::LEN, k.name)?;
        let (op, w16) = dword_op(bytes[dw::OP], dw::OP)?;
        let exec = ExecSize::new(bytes[dw::EXEC_SIZE], dw::EXEC_SIZE, k.max_exec_code(), k.name)?;
        let pred = read_pred(bytes, dw::PRED)?;
        let surface = dword_surface_from_byte(bytes[dw::SURFACE]);
        let (s0, why0, s1, why1) = src_rules(op);
        let mut ck = OperandCheck::new();
        let element_offset = ck.field(bytes, dw::ELEMENT_OFFSET, "Element_offset", Presence::Required, "DWORD_ATOMIC needs offsets")?;
        let src0 = ck.field(bytes, dw::SRC0, "Src0", s0, &why0)?;
        let src1 = ck.field(bytes, dw::SRC1, "Src1", s1, &why1)?;
        let dst = ck.field(bytes, dw::DST, "Dst", Presence::Optional, "")?;
        Ok(DwordAtomicDesc { op, w16, exec, pred, surface, element_offset, src0, src1, dst })
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![OPCODE_DWORD_ATOMIC, encode_dword_op(self.op, self.w16), self.exec.encode()];
        push_pred(&mut out, self.pred);
        out.extend_from_slice(&[dword_surface_byte(self.surface), self.element_offset, self.src0, self.src1, self.dst]);
        out
    }

    pub fn symbolic_text(&self) -> String {
        format!(
            "{}{} {} {} {} {} {} {}",
            text::visa_pred_text(pred_ref(&pred_symbol(&self.pred))),
            text::visa_mnemonic("DWORD_ATOMIC", self.op, if self.w16 { 16 } else { 32 }),
            text::exec_text(self.exec.lanes, self.exec.mask_ctrl),
            text::dword_surface_text(self.surface),
            operand_symbol(self.element_offset),
            operand_symbol(self.src0),
            operand_symbol(self.src1),
            operand_symbol(self.dst),
        )
    }
}

/// TYPED_ATOMIC: `0x73 Op Exec_size Pred(uw) Surface U V R LOD Src0 Src1 Dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedAtomicDesc {
    pub op: &'static VisaOpInfo,
    pub w16: bool,
    pub exec: ExecSize,
    pub pred: Option<PredField>,
    /// 1 ..= 254
    pub surface: u8,
    pub u: u8,
    pub v: u8,
    pub r: u8,
    pub lod: u8,
    pub src0: u8,
    pub src1: u8,
    pub dst: u8,
}

impl TypedAtomicDesc {
    pub const KIND: &'static KindInfo = MsgKind::TypedAtomic.info();
    pub const LEN: usize = Self::KIND.desc_len;

    pub fn new(bytes: &[u8]) -> Result<TypedAtomicDesc, DecodeError> {
        let k = Self::KIND;
        check_len(bytes, Self::LEN, k.name)?;
        let opb = bytes[ty::OP];
        let (op, w16) = dword_op(opb, ty::OP)?;
        if !k.allows_visa_op(op, if w16 { 16 } else { 32 }) {
            return Err(DecodeError::desc(
                ty::OP,
                format!(
                    "Op 0x{opb:02x}: {} is not a TYPED_ATOMIC op (op table: Message Type is DWORD, SVM)",
                    op.name.to_ascii_uppercase()
                ),
            ));
        }
        let exec = ExecSize::new(bytes[ty::EXEC_SIZE], ty::EXEC_SIZE, k.max_exec_code(), k.name)?;
        if !k.exec_sizes.contains(&exec.lanes) {
            let n = k.exec_sizes[0];
            return Err(DecodeError::desc(
                ty::EXEC_SIZE,
                format!(
                    "Exec_size 0x{:02x}: TYPED_ATOMIC is {n} lanes (size code {}), not {}",
                    bytes[ty::EXEC_SIZE],
                    n.trailing_zeros(),
                    exec.lanes
                ),
            ));
        }
        let pred = read_pred(bytes, ty::PRED)?;
        let surface = bytes[ty::SURFACE];
        if surface == 0 || surface == 255 {
            return Err(DecodeError::desc(
                ty::SURFACE,
                format!("Surface {surface} is not a typed surface (T0 and T255 are untyped; typed surfaces are 1..254)"),
            ));
        }
        let (s0, why0, s1, why1) = src_rules(op);
        let mut ck = OperandCheck::new();
        let u = ck.field(bytes, ty::U, "U", Presence::Required, "TYPED_ATOMIC needs U")?;
        let v = ck.field(bytes, ty::V, "V", Presence::Optional, "")?;
        let r = ck.field(bytes, ty::R, "R", Presence::Optional, "")?;
        let lod = ck.field(bytes, ty::LOD, "LOD", Presence::Optional, "")?;
        let src0 = ck.field(bytes, ty::SRC0, "Src0", s0, &why0)?;
        let src1 = ck.field(bytes, ty::SRC1, "Src1", s1, &why1)?;
        let dst = ck.field(bytes, ty::DST, "Dst", Presence::Optional, "")?;
        Ok(TypedAtomicDesc { op, w16, exec, pred, surface, u, v, r, lod, src0, src1, dst })
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![OPCODE_TYPED_ATOMIC, encode_dword_op(self.op, self.w16), self.exec.encode()];
        push_pred(&mut out, self.pred);
        out.extend_from_slice(&[self.surface, self.u, self.v, self.r, self.lod, self.src0, self.src1, self.dst]);
        out
    }

    pub fn symbolic_text(&self) -> String {
        format!(
            "{}{} {} {} {} {} {} {} {} {} {}",
            text::visa_pred_text(pred_ref(&pred_symbol(&self.pred))),
            text::visa_mnemonic("TYPED_ATOMIC", self.op, if self.w16 { 16 } else { 32 }),
            text::exec_text(self.exec.lanes, self.exec.mask_ctrl),
            self.surface,
            operand_symbol(self.u),
            operand_symbol(self.v),
            operand_symbol(self.r),
            operand_symbol(self.lod),
            operand_symbol(self.src0),
            operand_symbol(self.src1),
            operand_symbol(self.dst),
        )
    }
}

/// SVM_SCATTER: `0x4e 0x04 Exec_size Pred(uw) Block_size Num_blocks Addresses Src`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvmScatterDesc {
    pub exec: ExecSize,
    pub pred: Option<PredField>,
    /// 1, 4 or 8 bytes
    pub block_size: u8,
    /// 1, 2, 4 or 8
    pub num_blocks: u8,
    pub addresses: u8,
    pub src: u8,
}

impl SvmScatterDesc {
    pub const KIND: &'static KindInfo = MsgKind::SvmScatter.info();
    pub const LEN: usize = Self::KIND.desc_len;

    pub fn new(bytes: &[u8]) -> Result<SvmScatterDesc, DecodeError> {
        let k = Self::KIND;
        check_len(bytes, Self::LEN, k.name)?;
        let exec = ExecSize::new(bytes[sc::EXEC_SIZE], sc::EXEC_SIZE, k.max_exec_code(), k.name)?;
        let pred = read_pred(bytes, sc::PRED)?;
        let bs = bytes[sc::BLOCK_SIZE];
        let block_size = match SCATTER_BLOCK_BYTES.get(bs as usize) {
            Some(&b) => b,
            None if bs == 3 => {
                return Err(DecodeError::desc(sc::BLOCK_SIZE, "Block_size 0x03: reserved block size code 0b11".to_string()))
            }
            None => return Err(DecodeError::desc(sc::BLOCK_SIZE, format!("Block_size 0x{bs:02x}: reserved bits 7..2 are set"))),
        };
        let nb = bytes[sc::NUM_BLOCKS];
        let Some(&num_blocks) = SCATTER_NUM_BLOCKS.get(nb as usize) else {
            return Err(DecodeError::desc(sc::NUM_BLOCKS, format!("Num_blocks 0x{nb:02x}: reserved bits 7..2 are set")));
        };
        if !crate::ops::scatter_layout_legal(block_size, num_blocks, exec.lanes) {
            return Err(DecodeError::desc(
                sc::NUM_BLOCKS,
                format!(
                    "Num_blocks 0x03: 8 blocks are only valid with 4-byte blocks at exec size 8 (this is {block_size}-byte blocks, {} lanes)",
                    exec.lanes
                ),
            ));
        }
        let mut ck = OperandCheck::new();
        let addresses = ck.field(bytes, sc::ADDRESSES, "Addresses", Presence::Required, "SVM_SCATTER needs addresses")?;
        let src = ck.field(bytes, sc::SRC, "Src", Presence::Required, "SVM_SCATTER needs src")?;
        Ok(SvmScatterDesc { exec, pred, block_size, num_blocks, addresses, src })
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![OPCODE_SVM, SUBOP_SVM_SCATTER, self.exec.encode()];
        push_pred(&mut out, self.pred);
        let bs = SCATTER_BLOCK_BYTES.iter().position(|&b| b == self.block_size).unwrap_or(SCATTER_BLOCK_BYTES.len() - 1) as u8;
        out.extend_from_slice(&[bs, self.num_blocks.trailing_zeros() as u8, self.addresses, self.src]);
        out
    }

    pub fn symbolic_text(&self) -> String {
        format!(
            "{}{} {} {} {}",
            text::visa_pred_text(pred_ref(&pred_symbol(&self.pred))),
            text::scatter_mnemonic(self.block_size, self.num_blocks),
            text::exec_text(self.exec.lanes, self.exec.mask_ctrl),
            operand_symbol(self.addresses),
            operand_symbol(self.src),
        )
    }
}

/// PTX `.space` code (docs/descriptors.md, PTX Space byte).
pub fn ptx_space_from_code(code: u8) -> Option<PtxSpace> {
    PtxSpace::from_code(code)
}

/// PTX `.sem` code: 0 = not written.
pub fn ptx_sem_from_code(code: u8) -> Option<Option<PtxSem>> {
    PtxSem::from_code(code)
}

/// PTX `.scope` code: 0 = not written.
pub fn ptx_scope_from_code(code: u8) -> Option<Option<PtxScope>> {
    PtxScope::from_code(code)
}

/// The qualifier combinations the PTX seed's Syntax allows, as one check
/// (the rules are `atomport_isa::ptx_form`'s). `Err((offset, why))` names
/// the PTX descriptor byte most to blame (1 Op, 2 Type, 3 Space) and the
/// rule broken; docs/descriptors.md lists the same rules.
pub fn check_ptx_form(op: PtxOp, ty: PtxType, vec: u8, space: PtxSpace, noftz: bool, cache_hint: bool) -> Result<(), (usize, String)> {
    let row = PtxOpInfo::by_code(op as u8).expect("PtxOp is in the op table");
    let Err(rule) = ptx_form(op, ty, vec, space, noftz, cache_hint) else {
        return Ok(());
    };
    Err(match rule {
        PtxFormError::ScalarType => (px::TYPE, format!(".{} does not take .{}", row.name, ty.name())),
        PtxFormError::VectorType => (px::TYPE, format!(".{} has no vector form on .{}", row.name, ty.name())),
        // .vec_16_bit = { .v2, .v4, .v8 } for f16/bf16; .vec_32_bit = { .v2, .v4 }
        PtxFormError::VectorSize => (px::TYPE, format!(".v{vec} is only for the 16-bit types f16 and bf16, not .{}", ty.name())),
        PtxFormError::VectorSpace => (px::SPACE, "vector atom is only for .global (or generic) space".to_string()),
        PtxFormError::NoftzMissing => (px::OP, format!(".{} on .{} requires .noftz", row.name, ty.name())),
        PtxFormError::NoftzNotHalf => (px::OP, format!(".noftz is only for f16, f16x2, bf16, bf16x2, not .{}", ty.name())),
        PtxFormError::CacheHintType => (px::OP, format!(".cas.{} takes no .L2::cache_hint", ty.name())),
        PtxFormError::CacheHintSpace => (px::SPACE, ".L2::cache_hint is only for .global (or generic) space".to_string()),
    })
}

/// PTX atom (atomport's format): `0xa7 Op Type Space Sem_scope Exec_size
/// Pred(uw) D A B C Cache_policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtxAtomDesc {
    pub op: PtxOp,
    pub noftz: bool,
    pub cache_hint: bool,
    pub ty: PtxType,
    /// 1 (scalar), 2, 4 or 8
    pub vec: u8,
    pub space: PtxSpace,
    pub sem: Option<PtxSem>,
    pub scope: Option<PtxScope>,
    pub exec: ExecSize,
    pub pred: Option<PredField>,
    pub d: u8,
    pub a: u8,
    pub b: u8,
    pub c: u8,
    pub cache_policy: u8,
}

impl PtxAtomDesc {
    pub const KIND: &'static KindInfo = MsgKind::PtxAtom.info();
    pub const LEN: usize = Self::KIND.desc_len;

    pub fn new(bytes: &[u8]) -> Result<PtxAtomDesc, DecodeError> {
        let k = Self::KIND;
        check_len(bytes, Self::LEN, "PTX atom")?;
        let opb = bytes[px::OP];
        if opb & 0xc0 != 0 {
            return Err(DecodeError::desc(px::OP, format!("Op 0x{opb:02x}: reserved bits 7..6 are set")));
        }
        let op = PtxOpInfo::by_code(opb & 0xf)
            .ok_or_else(|| DecodeError::desc(px::OP, format!("Op 0x{opb:02x}: reserved PTX op code {} in bits 3..0", opb & 0xf)))?
            .op;
        let noftz = opb & 0x10 != 0;
        let cache_hint = opb & 0x20 != 0;
        let tyb = bytes[px::TYPE];
        if tyb & 0xc0 != 0 {
            return Err(DecodeError::desc(px::TYPE, format!("Type 0x{tyb:02x}: reserved bits 7..6 are set")));
        }
        let ty = PtxType::from_code(tyb & 0xf)
            .ok_or_else(|| DecodeError::desc(px::TYPE, format!("Type 0x{tyb:02x}: reserved type code {} in bits 3..0", tyb & 0xf)))?;
        let vec = 1u8 << ((tyb >> 4) & 3);
        let spb = bytes[px::SPACE];
        let space = ptx_space_from_code(spb)
            .ok_or_else(|| DecodeError::desc(px::SPACE, format!("Space 0x{spb:02x}: reserved space code (0..4 are defined)")))?;
        let ssb = bytes[px::SEM_SCOPE];
        if ssb & 0x88 != 0 {
            return Err(DecodeError::desc(px::SEM_SCOPE, format!("Sem_scope 0x{ssb:02x}: reserved bit 3 or 7 is set")));
        }
        let sem = ptx_sem_from_code(ssb & 7)
            .ok_or_else(|| DecodeError::desc(px::SEM_SCOPE, format!("Sem_scope 0x{ssb:02x}: reserved sem code {} in bits 2..0", ssb & 7)))?;
        let scope = ptx_scope_from_code(ssb >> 4)
            .ok_or_else(|| DecodeError::desc(px::SEM_SCOPE, format!("Sem_scope 0x{ssb:02x}: reserved scope code {} in bits 6..4", ssb >> 4)))?;
        check_ptx_form(op, ty, vec, space, noftz, cache_hint)
            .map_err(|(at, why)| DecodeError::desc(at, format!("illegal PTX atom form: {why}")))?;
        let exec = ExecSize::new(bytes[px::EXEC_SIZE], px::EXEC_SIZE, k.max_exec_code(), "PTX atom")?;
        let pred = read_pred(bytes, px::PRED)?;
        let is_cas = op == PtxOp::Cas;
        let mut ck = OperandCheck::new();
        let d = ck.field(bytes, px::D, "D", Presence::Optional, "")?;
        let a = ck.field(bytes, px::A, "A", Presence::Required, "atom needs an address")?;
        let b = ck.field(bytes, px::B, "B", Presence::Required, "atom needs b")?;
        let c = ck.field(
            bytes,
            px::C,
            "C",
            if is_cas { Presence::Required } else { Presence::Null },
            if is_cas { ".cas takes c" } else { "only .cas takes c" },
        )?;
        let cache_policy = ck.field(
            bytes,
            px::CACHE_POLICY,
            "Cache_policy",
            if cache_hint { Presence::Required } else { Presence::Null },
            if cache_hint { ".L2::cache_hint (Op bit 5) needs the cache-policy operand" } else { "Op bit 5 (.L2::cache_hint) is clear" },
        )?;
        Ok(PtxAtomDesc { op, noftz, cache_hint, ty, vec, space, sem, scope, exec, pred, d, a, b, c, cache_policy })
    }

    pub fn encode(&self) -> Vec<u8> {
        let opb = (self.op as u8) | if self.noftz { 0x10 } else { 0 } | if self.cache_hint { 0x20 } else { 0 };
        let tyb = self.ty.code() | ((self.vec.trailing_zeros() as u8) << 4);
        let ssb = self.sem.map(|s| s as u8).unwrap_or(0) | (self.scope.map(|s| s as u8).unwrap_or(0) << 4);
        let mut out = vec![OPCODE_PTX_ATOM, opb, tyb, self.space as u8, ssb, self.exec.encode()];
        push_pred(&mut out, self.pred);
        out.extend_from_slice(&[self.d, self.a, self.b, self.c, self.cache_policy]);
        out
    }

    pub fn quals(&self) -> text::PtxQuals {
        text::PtxQuals {
            sem: self.sem,
            scope: self.scope,
            space: self.space,
            op: self.op,
            noftz: self.noftz,
            cache_hint: self.cache_hint,
            vec: self.vec,
            ty: self.ty,
        }
    }

    pub fn symbolic_text(&self) -> String {
        let single = text::is_ptx_single_thread(self.exec.lanes, self.exec.mask_ctrl);
        let pred = pred_symbol(&self.pred);
        let exec = if single { None } else { Some(text::exec_text(self.exec.lanes, self.exec.mask_ctrl)) };
        let a = if single { operand_symbol(self.a) } else { format!("[{}]", operand_symbol(self.a)) };
        text::ptx_text(
            pred_ref(&pred),
            &self.quals(),
            exec,
            &operand_symbol(self.d),
            &a,
            &operand_symbol(self.b),
            (self.c != 0).then(|| operand_symbol(self.c)).as_deref(),
            (self.cache_policy != 0).then(|| operand_symbol(self.cache_policy)).as_deref(),
        )
    }
}

/// A decoded, checked descriptor of any kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Descriptor {
    SvmAtomic(SvmAtomicDesc),
    DwordAtomic(DwordAtomicDesc),
    TypedAtomic(TypedAtomicDesc),
    SvmScatter(SvmScatterDesc),
    PtxAtom(PtxAtomDesc),
}

impl Descriptor {
    /// Decodes and checks a whole descriptor: the opcode byte(s) pick the
    /// kind, then every field is checked (docs/descriptors.md).
    pub fn new(bytes: &[u8]) -> Result<Descriptor, DecodeError> {
        let Some(&opcode) = bytes.first() else {
            return Err(DecodeError::desc(0, "empty descriptor".to_string()));
        };
        match opcode {
            OPCODE_SVM => match bytes.get(1) {
                None => Err(DecodeError::desc(1, "SVM descriptor truncated: byte 1 (SCATTER 0x04 or ATOMIC 0x05) is missing".to_string())),
                Some(&SUBOP_SVM_ATOMIC) => Ok(Descriptor::SvmAtomic(SvmAtomicDesc::new(bytes)?)),
                Some(&SUBOP_SVM_SCATTER) => Ok(Descriptor::SvmScatter(SvmScatterDesc::new(bytes)?)),
                Some(&b) => Err(DecodeError::desc(1, format!("unknown SVM sub-opcode 0x{b:02x} (0x04 SCATTER and 0x05 ATOMIC are defined)"))),
            },
            OPCODE_DWORD_ATOMIC => {
                Self::need_op_byte(bytes, "DWORD_ATOMIC")?;
                Ok(Descriptor::DwordAtomic(DwordAtomicDesc::new(bytes)?))
            }
            OPCODE_TYPED_ATOMIC => {
                Self::need_op_byte(bytes, "TYPED_ATOMIC")?;
                Ok(Descriptor::TypedAtomic(TypedAtomicDesc::new(bytes)?))
            }
            OPCODE_PTX_ATOM => {
                Self::need_op_byte(bytes, "PTX atom")?;
                Ok(Descriptor::PtxAtom(PtxAtomDesc::new(bytes)?))
            }
            b => Err(DecodeError::desc(
                0,
                format!("unknown opcode 0x{b:02x} (0x4e SVM, 0x7d DWORD_ATOMIC, 0x73 TYPED_ATOMIC, 0xa7 PTX atom are defined)"),
            )),
        }
    }

    /// A truncated descriptor is reported before its fields are read.
    fn need_op_byte(bytes: &[u8], kind: &str) -> Result<(), DecodeError> {
        if bytes.len() < 2 {
            return Err(DecodeError::desc(1, format!("{kind} descriptor truncated after the opcode")));
        }
        Ok(())
    }

    pub fn encode(&self) -> Vec<u8> {
        match self {
            Descriptor::SvmAtomic(d) => d.encode(),
            Descriptor::DwordAtomic(d) => d.encode(),
            Descriptor::TypedAtomic(d) => d.encode(),
            Descriptor::SvmScatter(d) => d.encode(),
            Descriptor::PtxAtom(d) => d.encode(),
        }
    }

    pub fn kind(&self) -> MsgKind {
        match self {
            Descriptor::SvmAtomic(_) => MsgKind::SvmAtomic,
            Descriptor::DwordAtomic(_) => MsgKind::DwordAtomic,
            Descriptor::TypedAtomic(_) => MsgKind::TypedAtomic,
            Descriptor::SvmScatter(_) => MsgKind::SvmScatter,
            Descriptor::PtxAtom(_) => MsgKind::PtxAtom,
        }
    }

    pub fn exec(&self) -> ExecSize {
        match self {
            Descriptor::SvmAtomic(d) => d.exec,
            Descriptor::DwordAtomic(d) => d.exec,
            Descriptor::TypedAtomic(d) => d.exec,
            Descriptor::SvmScatter(d) => d.exec,
            Descriptor::PtxAtom(d) => d.exec,
        }
    }

    pub fn pred(&self) -> Option<PredField> {
        match self {
            Descriptor::SvmAtomic(d) => d.pred,
            Descriptor::DwordAtomic(d) => d.pred,
            Descriptor::TypedAtomic(d) => d.pred,
            Descriptor::SvmScatter(d) => d.pred,
            Descriptor::PtxAtom(d) => d.pred,
        }
    }

    /// The Dst / D field (0 = V0; SVM_SCATTER has none).
    pub fn dst(&self) -> u8 {
        match self {
            Descriptor::SvmAtomic(d) => d.dst,
            Descriptor::DwordAtomic(d) => d.dst,
            Descriptor::TypedAtomic(d) => d.dst,
            Descriptor::SvmScatter(_) => 0,
            Descriptor::PtxAtom(d) => d.d,
        }
    }

    /// The seed's Text form with operands as `%n` and the predicate as `P<n>`.
    pub fn symbolic_text(&self) -> String {
        match self {
            Descriptor::SvmAtomic(d) => d.symbolic_text(),
            Descriptor::DwordAtomic(d) => d.symbolic_text(),
            Descriptor::TypedAtomic(d) => d.symbolic_text(),
            Descriptor::SvmScatter(d) => d.symbolic_text(),
            Descriptor::PtxAtom(d) => d.symbolic_text(),
        }
    }
}
