//! The message kinds: opcode, descriptor length and byte layout, legal exec
//! sizes, the widths and ops each kind takes, SVM_SCATTER's block layouts and
//! the PTX form rules (op / type / vector / space / `.noftz` / cache hint).
//! The parser, the descriptor codec, the random generator and the RTL
//! decoder's constants read these rows; docs/descriptors.md's tables are
//! checked against them (core/src/descriptor/descriptor_tests.rs).

use crate::{Class, PtxOp, PtxOpInfo, PtxType, VisaOpInfo};
use crate::{OPCODE_DWORD_ATOMIC, OPCODE_PTX_ATOM, OPCODE_SVM, OPCODE_TYPED_ATOMIC, SUBOP_SVM_ATOMIC, SUBOP_SVM_SCATTER};

/// The five message kinds of the seeds.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MsgKind {
    SvmAtomic = 0,
    DwordAtomic = 1,
    TypedAtomic = 2,
    SvmScatter = 3,
    PtxAtom = 4,
}

impl MsgKind {
    pub const ALL: [MsgKind; 5] = [MsgKind::SvmAtomic, MsgKind::DwordAtomic, MsgKind::TypedAtomic, MsgKind::SvmScatter, MsgKind::PtxAtom];

    /// The kind's row of [`KINDS`].
    pub const fn info(self) -> &'static KindInfo {
        &KINDS[self as usize]
    }

    /// The mnemonic: `SVM_ATOMIC`, ..., `atom` for PTX.
    pub fn name(self) -> &'static str {
        self.info().name
    }
}

/// Which ops a kind takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindOps {
    /// every row of [`crate::VISA_OPS`]
    Visa,
    /// the rows of [`crate::VISA_OPS`] marked `typed` (seed: Message Type lists TYPED)
    VisaTyped,
    /// the rows of [`crate::PTX_OPS`], each with its types ([`ptx_form`])
    Ptx,
    /// no ALU (SVM_SCATTER writes blocks)
    NoAlu,
}

/// One byte field of a descriptor: its name as the seed's Format table
/// writes it, its byte offset and its length in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DescField {
    pub name: &'static str,
    pub offset: usize,
    pub len: usize,
}

/// One message kind's row.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    pub kind: MsgKind,
    /// the mnemonic (`SVM_ATOMIC`; PTX: `atom`)
    pub name: &'static str,
    /// descriptor byte 0
    pub opcode: u8,
    /// descriptor byte 1 when it selects the kind (SVM)
    pub subop: Option<u8>,
    /// descriptor bytes; the rest of the unit's 16-byte descriptor port must be zero
    pub desc_len: usize,
    /// the descriptor's fields in byte order (docs/descriptors.md)
    pub fields: &'static [DescField],
    /// the legal exec sizes (PTX: the project's warp form)
    pub exec_sizes: &'static [u8],
    /// where the exec sizes come from, for diagnostics
    pub exec_source: &'static str,
    /// the data widths in bits the kind's ops take (vISA atomics; `.16`, `.64`);
    /// SVM_SCATTER: its block sizes in bits; PTX: none (the type says it)
    pub widths: &'static [u32],
    pub ops: KindOps,
}

impl KindInfo {
    /// The Exec_size code of the largest exec size (exec size = 1 << code).
    pub const fn max_exec_code(&self) -> u8 {
        let mut max = 0;
        let mut i = 0;
        while i < self.exec_sizes.len() {
            if self.exec_sizes[i] > max {
                max = self.exec_sizes[i];
            }
            i += 1;
        }
        max.trailing_zeros() as u8
    }

    /// The byte offset of the field `name`; panics for a name the kind does not have.
    #[track_caller]
    pub fn offset(&self, name: &str) -> usize {
        match self.fields.iter().find(|f| f.name == name) {
            Some(f) => f.offset,
            None => panic!("{} has no descriptor field {name}", self.name),
        }
    }

    /// Whether the kind takes the vISA op at `width` bits: the kind's ops
    /// and widths, and the op's own widths ([`VisaOpInfo::widths`]).
    pub fn allows_visa_op(&self, op: &VisaOpInfo, width: u32) -> bool {
        let op_ok = match self.ops {
            KindOps::Visa => true,
            KindOps::VisaTyped => op.typed,
            KindOps::Ptx | KindOps::NoAlu => false,
        };
        op_ok && self.widths.contains(&width) && op.widths().contains(&width)
    }

    /// The mask of descriptor-port bits past the descriptor (they must be zero).
    pub const fn tail_mask(&self) -> u128 {
        !((1u128 << (8 * self.desc_len)) - 1)
    }
}

const fn field(name: &'static str, offset: usize, len: usize) -> DescField {
    DescField { name, offset, len }
}

/// Byte offsets of SVM_ATOMIC (seed SVM_ATOMIC.md Format):
/// `0x4e 0x05 Exec_size Pred(uw) Op Addresses Src0 Src1 Dst`.
pub mod svm_atomic_bytes {
    pub const EXEC_SIZE: usize = 2;
    pub const PRED: usize = 3;
    pub const OP: usize = 5;
    pub const ADDRESSES: usize = 6;
    pub const SRC0: usize = 7;
    pub const SRC1: usize = 8;
    pub const DST: usize = 9;
}

/// Byte offsets of DWORD_ATOMIC (seed DWORD_ATOMIC.md Format):
/// `0x7d Op Exec_size Pred(uw) Surface Element_offset Src0 Src1 Dst`.
pub mod dword_atomic_bytes {
    pub const OP: usize = 1;
    pub const EXEC_SIZE: usize = 2;
    pub const PRED: usize = 3;
    pub const SURFACE: usize = 5;
    pub const ELEMENT_OFFSET: usize = 6;
    pub const SRC0: usize = 7;
    pub const SRC1: usize = 8;
    pub const DST: usize = 9;
}

/// Byte offsets of TYPED_ATOMIC (seed TYPED_ATOMIC.md Format):
/// `0x73 Op Exec_size Pred(uw) Surface U V R LOD Src0 Src1 Dst`.
pub mod typed_atomic_bytes {
    pub const OP: usize = 1;
    pub const EXEC_SIZE: usize = 2;
    pub const PRED: usize = 3;
    pub const SURFACE: usize = 5;
    pub const U: usize = 6;
    pub const V: usize = 7;
    pub const R: usize = 8;
    pub const LOD: usize = 9;
    pub const SRC0: usize = 10;
    pub const SRC1: usize = 11;
    pub const DST: usize = 12;
}

/// Byte offsets of SVM_SCATTER (seed SVM_SCATTER.md Format):
/// `0x4e 0x04 Exec_size Pred(uw) Block_size Num_blocks Addresses Src`.
pub mod svm_scatter_bytes {
    pub const EXEC_SIZE: usize = 2;
    pub const PRED: usize = 3;
    pub const BLOCK_SIZE: usize = 5;
    pub const NUM_BLOCKS: usize = 6;
    pub const ADDRESSES: usize = 7;
    pub const SRC: usize = 8;
}

/// Byte offsets of PTX atom (atomport's own format, docs/descriptors.md):
/// `0xa7 Op Type Space Sem_scope Exec_size Pred(uw) D A B C Cache_policy`.
pub mod ptx_atom_bytes {
    pub const OP: usize = 1;
    pub const TYPE: usize = 2;
    pub const SPACE: usize = 3;
    pub const SEM_SCOPE: usize = 4;
    pub const EXEC_SIZE: usize = 5;
    pub const PRED: usize = 6;
    pub const D: usize = 8;
    pub const A: usize = 9;
    pub const B: usize = 10;
    pub const C: usize = 11;
    pub const CACHE_POLICY: usize = 12;
}

use dword_atomic_bytes as dw;
use ptx_atom_bytes as px;
use svm_atomic_bytes as sa;
use svm_scatter_bytes as sc;
use typed_atomic_bytes as ty;

/// Every exec size an Exec_size byte can code: size code c (bits 2..0) is
/// `EXEC_SIZES[c]` lanes; codes 6 and 7 are reserved. Each kind takes the
/// part of it in its row's `exec_sizes`.
pub const EXEC_SIZES: [u8; 6] = [1, 2, 4, 8, 16, 32];

/// The message kinds, indexed by `MsgKind as usize`.
pub const KINDS: [KindInfo; 5] = [
    KindInfo {
        kind: MsgKind::SvmAtomic,
        name: "SVM_ATOMIC",
        opcode: OPCODE_SVM,
        subop: Some(SUBOP_SVM_ATOMIC),
        desc_len: 10,
        fields: &[
            field("Opcode", 0, 1),
            field("Sub_opcode", 1, 1),
            field("Exec_size", sa::EXEC_SIZE, 1),
            field("Pred", sa::PRED, 2),
            field("Op", sa::OP, 1),
            field("Addresses", sa::ADDRESSES, 1),
            field("Src0", sa::SRC0, 1),
            field("Src1", sa::SRC1, 1),
            field("Dst", sa::DST, 1),
        ],
        exec_sizes: &[1, 2, 4, 8],
        exec_source: "seed SVM_ATOMIC.md Exec_size",
        widths: &[16, 32, 64],
        ops: KindOps::Visa,
    },
    KindInfo {
        kind: MsgKind::DwordAtomic,
        name: "DWORD_ATOMIC",
        opcode: OPCODE_DWORD_ATOMIC,
        subop: None,
        desc_len: 10,
        fields: &[
            field("Opcode", 0, 1),
            field("Op", dw::OP, 1),
            field("Exec_size", dw::EXEC_SIZE, 1),
            field("Pred", dw::PRED, 2),
            field("Surface", dw::SURFACE, 1),
            field("Element_offset", dw::ELEMENT_OFFSET, 1),
            field("Src0", dw::SRC0, 1),
            field("Src1", dw::SRC1, 1),
            field("Dst", dw::DST, 1),
        ],
        exec_sizes: &[1, 2, 4, 8, 16, 32],
        exec_source: "seed DWORD_ATOMIC.md Exec_size",
        widths: &[16, 32],
        ops: KindOps::Visa,
    },
    KindInfo {
        kind: MsgKind::TypedAtomic,
        name: "TYPED_ATOMIC",
        opcode: OPCODE_TYPED_ATOMIC,
        subop: None,
        desc_len: 13,
        fields: &[
            field("Opcode", 0, 1),
            field("Op", ty::OP, 1),
            field("Exec_size", ty::EXEC_SIZE, 1),
            field("Pred", ty::PRED, 2),
            field("Surface", ty::SURFACE, 1),
            field("U", ty::U, 1),
            field("V", ty::V, 1),
            field("R", ty::R, 1),
            field("LOD", ty::LOD, 1),
            field("Src0", ty::SRC0, 1),
            field("Src1", ty::SRC1, 1),
            field("Dst", ty::DST, 1),
        ],
        exec_sizes: &[8],
        exec_source: "seed TYPED_ATOMIC.md Exec_size: 8 elements only",
        widths: &[16, 32],
        ops: KindOps::VisaTyped,
    },
    KindInfo {
        kind: MsgKind::SvmScatter,
        name: "SVM_SCATTER",
        opcode: OPCODE_SVM,
        subop: Some(SUBOP_SVM_SCATTER),
        desc_len: 9,
        fields: &[
            field("Opcode", 0, 1),
            field("Sub_opcode", 1, 1),
            field("Exec_size", sc::EXEC_SIZE, 1),
            field("Pred", sc::PRED, 2),
            field("Block_size", sc::BLOCK_SIZE, 1),
            field("Num_blocks", sc::NUM_BLOCKS, 1),
            field("Addresses", sc::ADDRESSES, 1),
            field("Src", sc::SRC, 1),
        ],
        exec_sizes: &[1, 2, 4, 8, 16],
        exec_source: "seed SVM_SCATTER.md Exec_size",
        widths: &[8, 32, 64],
        ops: KindOps::NoAlu,
    },
    KindInfo {
        kind: MsgKind::PtxAtom,
        name: "atom",
        opcode: OPCODE_PTX_ATOM,
        subop: None,
        desc_len: 13,
        fields: &[
            field("Opcode", 0, 1),
            field("Op", px::OP, 1),
            field("Type", px::TYPE, 1),
            field("Space", px::SPACE, 1),
            field("Sem_scope", px::SEM_SCOPE, 1),
            field("Exec_size", px::EXEC_SIZE, 1),
            field("Pred", px::PRED, 2),
            field("D", px::D, 1),
            field("A", px::A, 1),
            field("B", px::B, 1),
            field("C", px::C, 1),
            field("Cache_policy", px::CACHE_POLICY, 1),
        ],
        exec_sizes: &[1, 2, 4, 8, 16, 32],
        exec_source: "docs/script-language.md",
        widths: &[],
        ops: KindOps::Ptx,
    },
];

/// The longest descriptor of any kind, in bytes.
pub const MAX_DESC_LEN: usize = {
    let mut max = 0;
    let mut i = 0;
    while i < KINDS.len() {
        if KINDS[i].desc_len > max {
            max = KINDS[i].desc_len;
        }
        i += 1;
    }
    max
};

/// SVM_SCATTER's Block_size codes: code c is a block of `SCATTER_BLOCK_BYTES[c]`
/// bytes (seed SVM_SCATTER.md; code 3 is reserved).
pub const SCATTER_BLOCK_BYTES: [u8; 3] = [1, 4, 8];
/// SVM_SCATTER's Num_blocks codes: code c is `1 << c` blocks.
pub const SCATTER_NUM_BLOCKS: [u8; 4] = [1, 2, 4, 8];

/// Seed SVM_SCATTER.md Num_blocks: "8 blocks ... only valid for 4 byte
/// blocks and execution size 8".
pub const SCATTER_8_BLOCKS_BYTES: u8 = 4;
pub const SCATTER_8_BLOCKS_EXEC: u8 = 8;

/// Whether a scatter of `num_blocks` blocks of `block_bytes` at `exec_size`
/// lanes is legal (the 8-block rule above).
pub fn scatter_layout_legal(block_bytes: u8, num_blocks: u8, exec_size: u8) -> bool {
    num_blocks != 8 || (block_bytes == SCATTER_8_BLOCKS_BYTES && exec_size == SCATTER_8_BLOCKS_EXEC)
}

impl VisaOpInfo {
    /// The data widths the op takes (seed `DWORD_ATOMIC_OP` table, Data
    /// Type): float ops are HF and F only, no 64-bit form.
    pub fn widths(&self) -> &'static [u32] {
        if self.class == Class::Float {
            &[16, 32]
        } else {
            &[16, 32, 64]
        }
    }
}

impl PtxType {
    /// f16, bf16, f16x2, bf16x2: the forms written `.op.noftz` (seed
    /// PTX_ATOM.md Syntax); `.noftz` is for these types only.
    pub fn needs_noftz(self) -> bool {
        matches!(self, PtxType::F16 | PtxType::BF16 | PtxType::F16x2 | PtxType::BF16x2)
    }

    /// The vector sizes of the type's vector forms: `.vec_16_bit` = .v2 .v4
    /// .v8 for f16/bf16, `.vec_32_bit` = .v2 .v4 for the rest.
    pub fn vector_sizes(self) -> &'static [u8] {
        if matches!(self, PtxType::F16 | PtxType::BF16) {
            &[2, 4, 8]
        } else {
            &[2, 4]
        }
    }
}

impl PtxOpInfo {
    /// Whether the op at `ty` takes `.L2::cache_hint`: the seed's cas.b16 /
    /// cas.b128 lines have none; cas.b32/b64 come under the generic
    /// `.op{.level::cache_hint}` line.
    pub fn takes_cache_hint(&self, ty: PtxType) -> bool {
        !(self.op == PtxOp::Cas && matches!(ty, PtxType::B16 | PtxType::B128))
    }
}

/// PTX `.space` as written (kept for the text round trip); the value is the
/// descriptor's Space byte (docs/descriptors.md).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PtxSpace {
    Generic = 0,
    Global = 1,
    /// `.shared` with no sub-qualifier (= ::cta)
    Shared = 2,
    SharedCta = 3,
    SharedCluster = 4,
}

impl PtxSpace {
    /// In code order: `ALL[c]` has Space byte c.
    pub const ALL: [PtxSpace; 5] = [PtxSpace::Generic, PtxSpace::Global, PtxSpace::Shared, PtxSpace::SharedCta, PtxSpace::SharedCluster];

    pub fn from_code(code: u8) -> Option<PtxSpace> {
        PtxSpace::ALL.get(code as usize).copied()
    }

    pub fn is_shared(self) -> bool {
        matches!(self, PtxSpace::Shared | PtxSpace::SharedCta | PtxSpace::SharedCluster)
    }

    /// `.global` or generic addressing: the spaces the vector forms and
    /// `.L2::cache_hint` are for (seed PTX_ATOM.md Description).
    pub fn is_global_or_generic(self) -> bool {
        !self.is_shared()
    }
}

/// PTX `.sem`; the value is its code in the Sem_scope byte (0: not written).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PtxSem {
    Relaxed = 1,
    Acquire = 2,
    Release = 3,
    AcqRel = 4,
}

impl PtxSem {
    pub const ALL: [PtxSem; 4] = [PtxSem::Relaxed, PtxSem::Acquire, PtxSem::Release, PtxSem::AcqRel];

    /// Sem_scope bits 2..0: 0 = not written.
    pub fn from_code(code: u8) -> Option<Option<PtxSem>> {
        if code == 0 {
            return Some(None);
        }
        PtxSem::ALL.iter().copied().find(|s| *s as u8 == code).map(Some)
    }
}

/// PTX `.scope`; the value is its code in the Sem_scope byte (0: not written).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PtxScope {
    Cta = 1,
    Cluster = 2,
    Gpu = 3,
    Sys = 4,
}

impl PtxScope {
    pub const ALL: [PtxScope; 4] = [PtxScope::Cta, PtxScope::Cluster, PtxScope::Gpu, PtxScope::Sys];

    /// Sem_scope bits 6..4: 0 = not written.
    pub fn from_code(code: u8) -> Option<Option<PtxScope>> {
        if code == 0 {
            return Some(None);
        }
        PtxScope::ALL.iter().copied().find(|s| *s as u8 == code).map(Some)
    }
}

/// The PTX form rule an `atom` breaks ([`ptx_form`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtxFormError {
    /// a scalar form on a type the op does not take
    ScalarType,
    /// a vector form on a type the op has no vector form for
    VectorType,
    /// a vector size the type does not have ([`PtxType::vector_sizes`])
    VectorSize,
    /// a vector form off `.global` / generic addressing
    VectorSpace,
    /// an f16/bf16 form without `.noftz`
    NoftzMissing,
    /// `.noftz` on a type that is not f16/bf16/f16x2/bf16x2
    NoftzNotHalf,
    /// `.L2::cache_hint` on `cas.b16` / `cas.b128`
    CacheHintType,
    /// `.L2::cache_hint` off `.global` / generic addressing
    CacheHintSpace,
}

/// The qualifier combinations the PTX seed's Syntax allows, as one check:
/// the first rule broken, in the order type, vector, `.noftz`, cache hint.
/// `vec` is 1 for the scalar form.
pub fn ptx_form(op: PtxOp, ty: PtxType, vec: u8, space: PtxSpace, noftz: bool, cache_hint: bool) -> Result<(), PtxFormError> {
    let row = PtxOpInfo::by_code(op as u8).expect("PtxOp is in the op table");
    let global_or_generic = space.is_global_or_generic();
    if vec == 1 {
        if !row.scalar_types.contains(&ty) {
            return Err(PtxFormError::ScalarType);
        }
    } else {
        if !row.vector_types.contains(&ty) {
            return Err(PtxFormError::VectorType);
        }
        if !ty.vector_sizes().contains(&vec) {
            return Err(PtxFormError::VectorSize);
        }
        if !global_or_generic {
            return Err(PtxFormError::VectorSpace);
        }
    }
    if noftz != ty.needs_noftz() {
        return Err(if noftz { PtxFormError::NoftzNotHalf } else { PtxFormError::NoftzMissing });
    }
    if cache_hint {
        if !row.takes_cache_hint(ty) {
            return Err(PtxFormError::CacheHintType);
        }
        if !global_or_generic {
            return Err(PtxFormError::CacheHintSpace);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_rows_are_consistent() {
        for (i, k) in KINDS.iter().enumerate() {
            assert_eq!(k.kind as usize, i, "{}", k.name);
            assert_eq!(k.kind.info().name, k.name);
            // fields tile the descriptor from byte 0 to desc_len, in order
            let mut at = 0;
            for f in k.fields {
                assert_eq!(f.offset, at, "{} {}", k.name, f.name);
                at += f.len;
            }
            assert_eq!(at, k.desc_len, "{}", k.name);
            assert!(k.desc_len <= 16, "the descriptor port is 16 bytes");
            assert_eq!(k.offset("Opcode"), 0);
            // exec sizes are powers of two, ascending, with codes in the 3-bit field
            assert!(k.exec_sizes.windows(2).all(|w| w[0] < w[1]));
            assert!(k.exec_sizes.iter().all(|n| EXEC_SIZES.contains(n)));
            assert_eq!(1u8 << k.max_exec_code(), *k.exec_sizes.last().unwrap());
            assert_eq!(k.tail_mask().count_zeros() as usize, 8 * k.desc_len);
        }
        for (c, n) in EXEC_SIZES.iter().enumerate() {
            assert_eq!(1u8 << c, *n);
        }
        // opcode (and sub-opcode) tell the kinds apart
        for a in &KINDS {
            for b in &KINDS {
                if a.kind != b.kind {
                    assert!((a.opcode, a.subop) != (b.opcode, b.subop));
                }
            }
        }
    }

    #[test]
    fn visa_widths_and_kinds() {
        let fmax = VisaOpInfo::by_name("fmax").unwrap();
        let add = VisaOpInfo::by_name("add").unwrap();
        let svm = MsgKind::SvmAtomic.info();
        assert!(svm.allows_visa_op(add, 64) && !svm.allows_visa_op(fmax, 64) && svm.allows_visa_op(fmax, 16));
        assert!(!MsgKind::DwordAtomic.info().allows_visa_op(add, 64));
        assert!(!MsgKind::TypedAtomic.info().allows_visa_op(fmax, 32));
        assert!(MsgKind::TypedAtomic.info().allows_visa_op(add, 16));
        assert!(!MsgKind::PtxAtom.info().allows_visa_op(add, 32));
    }

    #[test]
    fn ptx_form_rules() {
        use PtxType::*;
        let ptx_form = |op, ty, vec, global: bool, noftz, hint| {
            ptx_form(op, ty, vec, if global { PtxSpace::Global } else { PtxSpace::SharedCta }, noftz, hint)
        };
        assert_eq!(ptx_form(PtxOp::Add, F16, 1, true, true, false), Ok(()));
        assert_eq!(ptx_form(PtxOp::Add, F16, 1, true, false, false), Err(PtxFormError::NoftzMissing));
        assert_eq!(ptx_form(PtxOp::Add, F32, 1, true, true, false), Err(PtxFormError::NoftzNotHalf));
        assert_eq!(ptx_form(PtxOp::Add, F32, 8, true, false, false), Err(PtxFormError::VectorSize));
        assert_eq!(ptx_form(PtxOp::Add, BF16, 8, true, true, false), Ok(()));
        assert_eq!(ptx_form(PtxOp::Add, F32, 4, false, false, false), Err(PtxFormError::VectorSpace));
        assert_eq!(ptx_form(PtxOp::Min, F16, 1, true, true, false), Err(PtxFormError::ScalarType));
        assert_eq!(ptx_form(PtxOp::And, B32, 2, true, false, false), Err(PtxFormError::VectorType));
        assert_eq!(ptx_form(PtxOp::Cas, B128, 1, true, false, true), Err(PtxFormError::CacheHintType));
        assert_eq!(ptx_form(PtxOp::Cas, B64, 1, true, false, true), Ok(()));
        assert_eq!(ptx_form(PtxOp::Exch, B64, 1, false, false, true), Err(PtxFormError::CacheHintSpace));
    }

    #[test]
    fn scatter_layouts() {
        assert!(scatter_layout_legal(4, 8, 8));
        assert!(!scatter_layout_legal(8, 8, 8) && !scatter_layout_legal(4, 8, 16));
        assert!(scatter_layout_legal(1, 4, 16));
        assert_eq!(SCATTER_NUM_BLOCKS.map(|n| n.trailing_zeros()), [0, 1, 2, 3]);
    }
}
