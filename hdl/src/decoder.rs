//! `MessageDecoder`: the descriptor decoded in hardware, and the channel
//! enables.
//!
//! Input: the descriptor on one 128-bit word (docs/descriptors.md, byte k on
//! bits 8k+7..8k), the dispatch mask, the predicate's mask and the state of
//! the surface the descriptor names. Output: what the unit's datapath needs
//! (message kind, lane enables, ALU controls, element size, address mode) and
//! `illegal`, raised for every descriptor the software decoder
//! (`atomport::descriptor::Descriptor::new`) rejects, plus surface-state
//! mismatches (a DWORD_ATOMIC buffer index that is not a buffer, a
//! TYPED_ATOMIC index that is not typed, a `.16` typed atomic on a u32
//! surface or a 32-bit one on a u16 surface).
//!
//! Every op code, operand rule and type mapping comes from the one op table
//! (`atomport-isa`): `new()` fills small constant lookups from `VISA_OPS`,
//! `PTX_OPS` and `PtxType::elem_type`, and `PtxAluRom` (ptx_alu_rom.rs)
//! holds `PtxOpInfo::alu_op` for every PTX op and type; no code here is
//! typed in by hand a second time.

use atomport_isa::{
    AluOp, ElemType, MsgKind, Operand, PtxOp, PtxOpInfo, PtxScope, PtxSem, PtxSpace, PtxType, UnitConfig, VisaOpInfo,
    VisaWidth, ALU_OP_BITS, ALU_TY_BITS, PTX_OPS, SCATTER_8_BLOCKS_BYTES, SCATTER_8_BLOCKS_EXEC, SCATTER_BLOCK_BYTES,
    MAX_DESC_LEN, SCATTER_NUM_BLOCKS, VISA_OPS,
};
use rust_hdl::prelude::*;

use crate::operand_numbering::{OperandNumbering, FIELDS as NUMBERED_FIELDS, FIELD_BITS as NUMBERED_BITS};
use crate::ptx_alu_rom::{PtxAluRom, PTX_CODE_BITS};
use crate::widths::{DESC_BITS, ELEM_BITS, MAX_LANES, SIZE_BITS, SURF_KIND_BITS};

/// `req_surf_kind` of a buffer surface (0..=4 are the typed kinds, `program::TypedKind`).
pub const SURF_KIND_BUFFER: u8 = 5;
/// `req_surf_kind` of a surface index with no surface behind it.
pub const SURF_KIND_NONE: u8 = 7;
/// Raw-operand fields: descriptor bytes 6..=12, the vISA layout's
/// (TYPED_ATOMIC has 7; SVM_ATOMIC's and DWORD_ATOMIC's 4 are its first,
/// their bytes past byte 9 are the tail and zero). PTX's are bytes 8..=12
/// (fields 2..=6), SVM_SCATTER's bytes 7 and 8 (`svm_scatter_bytes`).
const OPERAND_SLOTS: usize = NUMBERED_FIELDS;

/// Byte 0 (and byte 1) values of the five kinds (docs/descriptors.md "Opcodes").
pub use atomport_isa::{
    OPCODE_DWORD_ATOMIC, OPCODE_PTX_ATOM, OPCODE_SVM, OPCODE_TYPED_ATOMIC, SUBOP_SVM_ATOMIC, SUBOP_SVM_SCATTER,
};

/// Descriptor decode and channel enables (combinational).
#[derive(LogicBlock)]
pub struct MessageDecoder {
    // ---- inputs ----
    /// The descriptor, byte k on bits 8k+7..8k.
    pub desc: Signal<In, Bits<DESC_BITS>>,
    /// The dispatch mask (scripts.md `dmask`).
    pub dmask: Signal<In, Bits<MAX_LANES>>,
    /// The predicate's mask value.
    pub pred_mask: Signal<In, Bits<MAX_LANES>>,
    /// State of the named surface: 0..=4 typed kinds, 5 buffer, 7 none.
    pub surf_kind: Signal<In, Bits<SURF_KIND_BITS>>,
    /// The named typed surface has `format=u16`.
    pub surf_u16: Signal<In, Bit>,

    // ---- message kind ----
    /// TYPED_ATOMIC (addresses come from the typed-surface walk).
    pub kind_typed: Signal<Out, Bit>,

    // ---- what to do ----
    /// The descriptor (or the surface it names) is illegal: no memory access.
    pub illegal: Signal<Out, Bit>,
    /// Channel enables (scripts.md "Channel enable"): exec size, Mk/_NM, predicate.
    pub lane_enables: Signal<Out, Bits<MAX_LANES>>,
    /// ALU op ([`AluOp`] code) of every element.
    pub alu_op: Signal<Out, Bits<ALU_OP_BITS>>,
    /// ALU element type ([`ElemType`] code).
    pub alu_ty: Signal<Out, Bits<ALU_TY_BITS>>,
    /// Flush f32 subnormals: PTX add.f32 on `.global` / generic (scripts.md).
    pub alu_ftz: Signal<Out, Bit>,
    /// log2 bytes of one element access (atomics) or one block (scatter).
    pub elem_size: Signal<Out, Bits<SIZE_BITS>>,
    /// Elements (PTX vector) or blocks (scatter) per lane, minus one.
    pub last_elem: Signal<Out, Bits<ELEM_BITS>>,
    /// The accesses go to SLM (DWORD T0, PTX `.shared`), bounded by the SLM size.
    pub space_slm: Signal<Out, Bit>,
    /// The lane address is a u32 offset (DWORD_ATOMIC).
    pub addr_offset32: Signal<Out, Bit>,
    /// DWORD_ATOMIC on a buffer surface: address = base + offset, bounded by the size.
    pub addr_buffer: Signal<Out, Bit>,
    /// SVM_SCATTER: write-only blocks, no ALU.
    pub write_only: Signal<Out, Bit>,
    /// PTX `cas`: b (compare) goes to the ALU's src1, c (new) to src0.
    pub swap_src: Signal<Out, Bit>,
    /// TYPED_ATOMIC V, R, LOD operands are non-null (null reads as 0).
    pub v_present: Signal<Out, Bit>,
    pub r_present: Signal<Out, Bit>,
    pub lod_present: Signal<Out, Bit>,

    // ---- constants: encodings ----
    opcode_svm: Constant<Bits<8>>,
    subop_svm_atomic: Constant<Bits<8>>,
    subop_svm_scatter: Constant<Bits<8>>,
    opcode_dword: Constant<Bits<8>>,
    opcode_typed: Constant<Bits<8>>,
    opcode_ptx: Constant<Bits<8>>,
    byte_255: Constant<Bits<8>>,
    one_byte: Constant<Bits<8>>,
    two_byte: Constant<Bits<8>>,
    /// `exec_lanes[c]`: the lanes of size code c (1 << c lanes)
    exec_lanes: [Constant<Bits<MAX_LANES>>; 6],
    all_lanes: Constant<Bits<MAX_LANES>>,
    /// the size code of exec size 8: TYPED_ATOMIC's only one, and the one of 8 scatter blocks
    exec_code_8: Constant<Bits<3>>,
    /// the largest size code of each kind (`KindInfo::max_exec_code`)
    max_exec_svm_atomic: Constant<Bits<3>>,
    max_exec_dword: Constant<Bits<3>>,
    max_exec_scatter: Constant<Bits<3>>,
    max_exec_ptx: Constant<Bits<3>>,
    surf_kind_buffer: Constant<Bits<SURF_KIND_BITS>>,
    size_1b: Constant<Bits<SIZE_BITS>>,
    size_2b: Constant<Bits<SIZE_BITS>>,
    size_4b: Constant<Bits<SIZE_BITS>>,
    size_8b: Constant<Bits<SIZE_BITS>>,
    size_16b: Constant<Bits<SIZE_BITS>>,
    /// `count_minus_one[c]`: 2^c - 1 (PTX vector and scatter block counts)
    count_minus_one: [Constant<Bits<ELEM_BITS>>; 4],
    /// `log2_3[c]` = c on 3 bits
    log2_3: [Constant<Bits<SIZE_BITS>>; 4],
    zero_op: Constant<Bits<ALU_OP_BITS>>,
    zero_ty: Constant<Bits<ALU_TY_BITS>>,
    zero_elem: Constant<Bits<ELEM_BITS>>,
    width_code_16: Constant<Bits<2>>,
    width_code_64: Constant<Bits<2>>,
    width_code_reserved: Constant<Bits<2>>,
    block_code_1b: Constant<Bits<2>>,
    block_code_4b: Constant<Bits<2>>,
    block_code_8b: Constant<Bits<2>>,
    block_code_reserved: Constant<Bits<2>>,
    blocks_code_8: Constant<Bits<2>>,
    /// descriptor-port bits past each kind's descriptor (`KindInfo::tail_mask`), which must be zero
    tail_svm_atomic: Constant<Bits<DESC_BITS>>,
    tail_dword: Constant<Bits<DESC_BITS>>,
    tail_typed: Constant<Bits<DESC_BITS>>,
    tail_scatter: Constant<Bits<DESC_BITS>>,
    tail_ptx: Constant<Bits<DESC_BITS>>,

    // ---- constants: the vISA op table (bit c = op code c) ----
    visa_known: Constant<Bits<32>>,
    visa_typed: Constant<Bits<32>>,
    /// the ops with no 64-bit form (`VisaOpInfo::widths`: the float ops)
    visa_float: Constant<Bits<32>>,
    visa_src0_null: Constant<Bits<32>>,
    visa_src1_required: Constant<Bits<32>>,
    /// ALU type of op code c at 16, 32, 64 bits (`VisaOpInfo::elem_type`)
    visa_ty_16: [Constant<Bits<ALU_TY_BITS>>; 32],
    visa_ty_32: [Constant<Bits<ALU_TY_BITS>>; 32],
    visa_ty_64: [Constant<Bits<ALU_TY_BITS>>; 32],

    // ---- constants: the PTX op table ----
    /// bit o: PTX op code o exists
    ptx_op_known: Constant<Bits<16>>,
    /// bit t: PTX type code t exists
    ptx_type_known: Constant<Bits<16>>,
    /// `ptx_scalar_types[o]` bit t: op o takes scalar type t
    ptx_scalar_types: [Constant<Bits<16>>; 16],
    /// `ptx_vector_types[o]` bit t: op o has vector forms on type t
    ptx_vector_types: [Constant<Bits<16>>; 16],
    /// ALU type of each PTX type (`PtxType::elem_type`)
    ptx_elem_ty: [Constant<Bits<ALU_TY_BITS>>; 16],
    /// log2 bytes of one element of each PTX type
    ptx_elem_size: [Constant<Bits<SIZE_BITS>>; 16],
    /// bit t: type t needs `.noftz` (f16, f16x2, bf16, bf16x2)
    ptx_half_types: Constant<Bits<16>>,
    /// bit t: type t takes no `.L2::cache_hint` with `.cas` (b16, b128)
    ptx_cas_no_hint_types: Constant<Bits<16>>,
    ptx_op_cas: Constant<Bits<4>>,
    ptx_type_f32: Constant<Bits<4>>,
    ptx_space_max: Constant<Bits<3>>,
    ptx_space_global: Constant<Bits<3>>,
    ptx_space_shared: Constant<Bits<3>>,
    ptx_qual_max: Constant<Bits<3>>,

    // ---- locals: message kind (one set, or none for an unknown opcode) ----
    kind_svm_atomic: Signal<Local, Bit>,
    kind_dword: Signal<Local, Bit>,
    kind_scatter: Signal<Local, Bit>,
    kind_ptx: Signal<Local, Bit>,

    // ---- locals: fields ----
    /// the bytes of the longest descriptor (`MAX_DESC_LEN`); the rest are only checked to be zero
    byte: [Signal<Local, Bits<8>>; MAX_DESC_LEN],
    exec_byte: Signal<Local, Bits<8>>,
    exec_code: Signal<Local, Bits<3>>,
    exec_max: Signal<Local, Bits<3>>,
    pred_lo: Signal<Local, Bits<8>>,
    pred_hi: Signal<Local, Bits<8>>,
    pred_present: Signal<Local, Bit>,
    visa_op_byte: Signal<Local, Bits<8>>,
    visa_code: Signal<Local, Bits<5>>,
    visa_w16: Signal<Local, Bit>,
    visa_w64: Signal<Local, Bit>,
    visa_ty_at_16: Signal<Local, Bits<ALU_TY_BITS>>,
    visa_ty_at_32: Signal<Local, Bits<ALU_TY_BITS>>,
    visa_ty_at_64: Signal<Local, Bits<ALU_TY_BITS>>,
    ptx_op: Signal<Local, Bits<4>>,
    ptx_ty: Signal<Local, Bits<4>>,
    ptx_vec: Signal<Local, Bits<2>>,
    ptx_space: Signal<Local, Bits<3>>,
    ptx_is_cas: Signal<Local, Bit>,
    ptx_hint: Signal<Local, Bit>,
    ptx_global_or_generic: Signal<Local, Bit>,
    ptx_scalar_ok: Signal<Local, Bit>,
    ptx_vector_ok: Signal<Local, Bit>,
    ptx_alu_op: Signal<Local, Bits<ALU_OP_BITS>>,
    /// the ALU op of each PTX `{op, type}` pair (a ROM: `PtxOpInfo::alu_op`)
    ptx_alu_rom: PtxAluRom,
    /// the raw operand fields' numbering, for the vISA and the PTX layout
    numbering: OperandNumbering,
    ptx_size: Signal<Local, Bits<SIZE_BITS>>,
    ptx_vector_log2: Signal<Local, Bits<SIZE_BITS>>,
    ptx_total_log2: Signal<Local, Bits<SIZE_BITS>>,
    dispatch_1: Signal<Local, Bits<MAX_LANES>>,
    dispatch_2: Signal<Local, Bits<MAX_LANES>>,
    dispatch: Signal<Local, Bits<MAX_LANES>>,
    predicate: Signal<Local, Bits<MAX_LANES>>,
    exec_mask: Signal<Local, Bits<MAX_LANES>>,
    surface_byte: Signal<Local, Bits<8>>,

    // ---- locals: raw operands (docs/descriptors.md "Raw operand fields") ----
    // Checked on the raw bytes for each layout side by side, the kind picking
    // the result last: no kind decode in front of the checks (the numbering:
    // `OperandNumbering`).
    /// field i (byte 6 + i) holds a number (is not V0 / null)
    field_set: [Signal<Local, Bit>; OPERAND_SLOTS],
    /// the op table's operand rule for the op code in byte 5 (SVM_ATOMIC's
    /// Op) and in byte 1 (DWORD_ATOMIC's, TYPED_ATOMIC's): src0 is V0, src1
    /// is required
    src0_null_b5: Signal<Local, Bit>,
    src1_required_b5: Signal<Local, Bit>,
    src0_null_b1: Signal<Local, Bit>,
    src1_required_b1: Signal<Local, Bit>,
    /// a field the kind requires is V0, or one it forbids is set
    svm_presence_bad: Signal<Local, Bit>,
    dword_presence_bad: Signal<Local, Bit>,
    typed_presence_bad: Signal<Local, Bit>,
    ptx_presence_bad: Signal<Local, Bit>,
    /// SVM_SCATTER requires both its fields, so they hold 1 and 2
    scatter_operands_bad: Signal<Local, Bit>,

    // ---- locals: why it is illegal (named for waveforms) ----
    bad_opcode: Signal<Local, Bit>,
    bad_exec: Signal<Local, Bit>,
    bad_pred: Signal<Local, Bit>,
    bad_op: Signal<Local, Bit>,
    bad_operands: Signal<Local, Bit>,
    bad_tail: Signal<Local, Bit>,
    bad_surface: Signal<Local, Bit>,
    /// the message needs what this build leaves out (`UnitConfig`)
    bad_config: Signal<Local, Bit>,
    /// the op runs on the float datapath (`AluCtl::needs_fp`)
    needs_fp: Signal<Local, Bit>,

    // ---- constants: what this build has (`MessageDecoder::new`) ----
    lanes_built: Constant<Bits<MAX_LANES>>,
    max_exec_built: Constant<Bits<3>>,
    max_size_built: Constant<Bits<SIZE_BITS>>,
    fp_built: Constant<Bit>,
    /// bit `op.code()` set for the float-only ops (`AluOp::is_float_only`)
    float_only_ops: Constant<Bits<32>>,
    /// bit `ty.code()` set for the float types (`ElemType::is_float`)
    float_types: Constant<Bits<16>>,
    op_add: Constant<Bits<ALU_OP_BITS>>,
    ty_b128: Constant<Bits<ALU_TY_BITS>>,
}

fn c8(value: u8) -> Constant<Bits<8>> {
    Constant::new(value.to_bits())
}

fn c3(value: u8) -> Constant<Bits<3>> {
    Constant::new(value.to_bits())
}

fn alu_ty(ty: ElemType) -> Constant<Bits<ALU_TY_BITS>> {
    Constant::new(ty.code().to_bits())
}

/// log2 of an element type's bytes.
fn size_log2(ty: ElemType) -> u8 {
    ty.bytes().trailing_zeros() as u8
}

/// A 16-bit mask with bit `code` set for every `code` in `codes`.
fn mask16(codes: impl Iterator<Item = u8>) -> Constant<Bits<16>> {
    Constant::new(codes.fold(0u64, |m, c| m | (1 << c)).to_bits())
}

/// A 32-bit mask with bit `op.code()` set for every vISA row that `keep` selects.
fn visa_mask(keep: impl Fn(&VisaOpInfo) -> bool) -> Constant<Bits<32>> {
    Constant::new(VISA_OPS.iter().filter(|r| keep(r)).fold(0u64, |m, r| m | (1 << r.op.code())).to_bits())
}

impl Default for MessageDecoder {
    /// The decoder of the full unit ([`UnitConfig::FULL`]).
    fn default() -> Self {
        Self::new(UnitConfig::FULL)
    }
}

impl MessageDecoder {
    /// The decoder of a unit built with `config`: it also flags illegal
    /// every message `config` does not admit (`UnitConfig::admits`: exec
    /// size over the lanes built, an element wider than the datapath, a
    /// float op without FP), and never enables a lane that is not built.
    pub fn new(config: UnitConfig) -> Self {
        UnitConfig::new(config.max_lanes, config.data_bits, config.fp).expect("MessageDecoder: bad UnitConfig");
        // A vISA descriptor's op field feeds the ALU unchanged (isa: AluOp codes 0x00..=0x12).
        assert!(VISA_OPS.iter().all(|r| (r.op.code() as usize) < 32));
        assert!(PTX_OPS.iter().all(|r| (r.op as usize) < 16));
        assert!(PtxType::ALL.iter().all(|t| (t.code() as usize) < 16));
        let visa_ty = |width: u32| -> [Constant<Bits<ALU_TY_BITS>>; 32] {
            core::array::from_fn(|c| match VisaOpInfo::by_code(c as u8) {
                Some(row) => alu_ty(row.elem_type(width)),
                None => Constant::new(0u64.to_bits()),
            })
        };
        let ptx_row = |o: usize| PtxOpInfo::by_code(o as u8);
        let ptx_types = |o: usize, vector: bool| -> Constant<Bits<16>> {
            match ptx_row(o) {
                Some(row) => mask16(if vector { row.vector_types } else { row.scalar_types }.iter().map(|t| t.code())),
                None => Constant::new(0u64.to_bits()),
            }
        };
        let max_exec = |k: MsgKind| c3(k.info().max_exec_code());
        let tail = |k: MsgKind| Constant::new(k.info().tail_mask().to_bits());
        let cas = PtxOpInfo::by_code(PtxOp::Cas as u8).expect("cas is in the op table");
        // the decoder's own logic reads these orders: spaces up to .global are
        // global or generic, from .shared on SLM; 8 scatter blocks and TYPED share exec size 8
        assert!(PtxSpace::ALL.iter().all(|s| s.is_shared() == (*s as u8 >= PtxSpace::Shared as u8)));
        assert!(PtxSpace::ALL.iter().all(|s| s.is_global_or_generic() == (*s as u8 <= PtxSpace::Global as u8)));
        assert_eq!(MsgKind::TypedAtomic.info().exec_sizes, [SCATTER_8_BLOCKS_EXEC]);
        let code_of = |list: &[u8], value: u8| list.iter().position(|&v| v == value).expect("in the table") as u64;
        let qual_max = PtxSem::ALL.iter().map(|s| *s as u8).chain(PtxScope::ALL.iter().map(|s| *s as u8)).max().unwrap();
        Self {
            desc: Default::default(),
            dmask: Default::default(),
            pred_mask: Default::default(),
            surf_kind: Default::default(),
            surf_u16: Default::default(),
            kind_svm_atomic: Default::default(),
            kind_dword: Default::default(),
            kind_typed: Default::default(),
            kind_scatter: Default::default(),
            kind_ptx: Default::default(),
            illegal: Default::default(),
            lane_enables: Default::default(),
            alu_op: Default::default(),
            alu_ty: Default::default(),
            alu_ftz: Default::default(),
            elem_size: Default::default(),
            last_elem: Default::default(),
            space_slm: Default::default(),
            addr_offset32: Default::default(),
            addr_buffer: Default::default(),
            write_only: Default::default(),
            swap_src: Default::default(),
            v_present: Default::default(),
            r_present: Default::default(),
            lod_present: Default::default(),
            opcode_svm: c8(OPCODE_SVM),
            subop_svm_atomic: c8(SUBOP_SVM_ATOMIC),
            subop_svm_scatter: c8(SUBOP_SVM_SCATTER),
            opcode_dword: c8(OPCODE_DWORD_ATOMIC),
            opcode_typed: c8(OPCODE_TYPED_ATOMIC),
            opcode_ptx: c8(OPCODE_PTX_ATOM),
            byte_255: c8(255),
            one_byte: c8(1),
            two_byte: c8(2),
            exec_lanes: core::array::from_fn(|c| Constant::new(((1u64 << (1 << c)) - 1).to_bits())),
            all_lanes: Constant::new(u32::MAX.to_bits()),
            exec_code_8: c3(SCATTER_8_BLOCKS_EXEC.trailing_zeros() as u8),
            max_exec_svm_atomic: max_exec(MsgKind::SvmAtomic),
            max_exec_dword: max_exec(MsgKind::DwordAtomic),
            max_exec_scatter: max_exec(MsgKind::SvmScatter),
            max_exec_ptx: max_exec(MsgKind::PtxAtom),
            surf_kind_buffer: Constant::new(SURF_KIND_BUFFER.to_bits()),
            size_1b: c3(0),
            size_2b: c3(1),
            size_4b: c3(2),
            size_8b: c3(3),
            size_16b: c3(4),
            count_minus_one: core::array::from_fn(|c| Constant::new(((1u64 << c) - 1).to_bits())),
            log2_3: core::array::from_fn(|c| Constant::new((c as u64).to_bits())),
            zero_op: Constant::new(0u64.to_bits()),
            zero_ty: Constant::new(0u64.to_bits()),
            zero_elem: Constant::new(0u64.to_bits()),
            width_code_16: Constant::new((VisaWidth::W16 as u64).to_bits()),
            width_code_64: Constant::new((VisaWidth::W64 as u64).to_bits()),
            width_code_reserved: Constant::new(3u64.to_bits()),
            block_code_1b: Constant::new(code_of(&SCATTER_BLOCK_BYTES, 1).to_bits()),
            block_code_4b: Constant::new(code_of(&SCATTER_BLOCK_BYTES, SCATTER_8_BLOCKS_BYTES).to_bits()),
            block_code_8b: Constant::new(code_of(&SCATTER_BLOCK_BYTES, 8).to_bits()),
            block_code_reserved: Constant::new((SCATTER_BLOCK_BYTES.len() as u64).to_bits()),
            blocks_code_8: Constant::new(code_of(&SCATTER_NUM_BLOCKS, 8).to_bits()),
            tail_svm_atomic: tail(MsgKind::SvmAtomic),
            tail_dword: tail(MsgKind::DwordAtomic),
            tail_typed: tail(MsgKind::TypedAtomic),
            tail_scatter: tail(MsgKind::SvmScatter),
            tail_ptx: tail(MsgKind::PtxAtom),
            visa_known: visa_mask(|_| true),
            visa_typed: visa_mask(|r| r.typed),
            visa_float: visa_mask(|r| !r.widths().contains(&64)),
            visa_src0_null: visa_mask(|r| r.src0 == Operand::Null),
            visa_src1_required: visa_mask(|r| r.src1 == Operand::Required),
            visa_ty_16: visa_ty(16),
            visa_ty_32: visa_ty(32),
            visa_ty_64: visa_ty(64),
            ptx_op_known: mask16(PTX_OPS.iter().map(|r| r.op as u8)),
            ptx_type_known: mask16(PtxType::ALL.iter().map(|t| t.code())),
            ptx_scalar_types: core::array::from_fn(|o| ptx_types(o, false)),
            ptx_vector_types: core::array::from_fn(|o| ptx_types(o, true)),
            ptx_elem_ty: core::array::from_fn(|t| match PtxType::from_code(t as u8) {
                Some(ty) => alu_ty(ty.elem_type()),
                None => Constant::new(0u64.to_bits()),
            }),
            ptx_elem_size: core::array::from_fn(|t| match PtxType::from_code(t as u8) {
                Some(ty) => c3(size_log2(ty.elem_type())),
                None => c3(0),
            }),
            ptx_half_types: mask16(PtxType::ALL.iter().filter(|t| t.needs_noftz()).map(|t| t.code())),
            ptx_cas_no_hint_types: mask16(PtxType::ALL.iter().filter(|t| !cas.takes_cache_hint(**t)).map(|t| t.code())),
            ptx_op_cas: Constant::new((PtxOp::Cas as u8).to_bits()),
            ptx_type_f32: Constant::new(PtxType::F32.code().to_bits()),
            // Space byte codes (docs/descriptors.md): 0 generic, 1 global, 2..4 shared forms
            ptx_space_max: c3(PtxSpace::ALL.len() as u8 - 1),
            ptx_space_global: c3(PtxSpace::Global as u8),
            ptx_space_shared: c3(PtxSpace::Shared as u8),
            ptx_qual_max: c3(qual_max),
            byte: core::array::from_fn(|_| Default::default()),
            exec_byte: Default::default(),
            exec_code: Default::default(),
            exec_max: Default::default(),
            pred_lo: Default::default(),
            pred_hi: Default::default(),
            pred_present: Default::default(),
            visa_op_byte: Default::default(),
            visa_code: Default::default(),
            visa_w16: Default::default(),
            visa_w64: Default::default(),
            visa_ty_at_16: Default::default(),
            visa_ty_at_32: Default::default(),
            visa_ty_at_64: Default::default(),
            ptx_op: Default::default(),
            ptx_ty: Default::default(),
            ptx_vec: Default::default(),
            ptx_space: Default::default(),
            ptx_is_cas: Default::default(),
            ptx_hint: Default::default(),
            ptx_global_or_generic: Default::default(),
            ptx_scalar_ok: Default::default(),
            ptx_vector_ok: Default::default(),
            ptx_alu_op: Default::default(),
            ptx_alu_rom: Default::default(),
            numbering: Default::default(),
            ptx_size: Default::default(),
            ptx_vector_log2: Default::default(),
            ptx_total_log2: Default::default(),
            dispatch_1: Default::default(),
            dispatch_2: Default::default(),
            dispatch: Default::default(),
            predicate: Default::default(),
            exec_mask: Default::default(),
            surface_byte: Default::default(),
            field_set: core::array::from_fn(|_| Default::default()),
            src0_null_b5: Default::default(),
            src1_required_b5: Default::default(),
            src0_null_b1: Default::default(),
            src1_required_b1: Default::default(),
            svm_presence_bad: Default::default(),
            dword_presence_bad: Default::default(),
            typed_presence_bad: Default::default(),
            ptx_presence_bad: Default::default(),
            scatter_operands_bad: Default::default(),
            bad_opcode: Default::default(),
            bad_exec: Default::default(),
            bad_pred: Default::default(),
            bad_op: Default::default(),
            bad_operands: Default::default(),
            bad_tail: Default::default(),
            bad_surface: Default::default(),
            bad_config: Default::default(),
            needs_fp: Default::default(),
            lanes_built: Constant::new(config.lane_mask().to_bits()),
            max_exec_built: c3(config.max_exec_code() as u8),
            max_size_built: c3(config.max_size_code() as u8),
            fp_built: Constant::new(config.fp),
            float_only_ops: Constant::new(
                AluOp::ALL.iter().filter(|op| op.is_float_only()).fold(0u64, |m, op| m | (1 << op.code())).to_bits(),
            ),
            float_types: mask16(ElemType::ALL.iter().filter(|t| t.is_float()).map(|t| t.code())),
            op_add: Constant::new(AluOp::Add.code().to_bits()),
            ty_b128: alu_ty(ElemType::B128),
        }
    }
}

impl Logic for MessageDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        // the ROM reads the PTX op and type fields (bytes 1 and 2) straight
        // from the port (wiring only, "Structure" in unit.rs)
        self.ptx_alu_rom.op.next = self.desc.val().get_bits::<PTX_CODE_BITS>(8);
        self.numbering.fields.next = self.desc.val().get_bits::<NUMBERED_BITS>(48);
        self.ptx_alu_rom.ty.next = self.desc.val().get_bits::<PTX_CODE_BITS>(16);
        // ---- bytes and kind (docs/descriptors.md "Opcodes") ----
        for i in 0..MAX_DESC_LEN {
            self.byte[i].next = self.desc.val().get_bits::<8>(i * 8);
        }
        self.kind_svm_atomic.next =
            (self.byte[0].val() == self.opcode_svm.val()) & (self.byte[1].val() == self.subop_svm_atomic.val());
        self.kind_scatter.next =
            (self.byte[0].val() == self.opcode_svm.val()) & (self.byte[1].val() == self.subop_svm_scatter.val());
        self.kind_dword.next = self.byte[0].val() == self.opcode_dword.val();
        self.kind_typed.next = self.byte[0].val() == self.opcode_typed.val();
        self.kind_ptx.next = self.byte[0].val() == self.opcode_ptx.val();
        self.bad_opcode.next = !(self.kind_svm_atomic.val()
            | self.kind_scatter.val()
            | self.kind_dword.val()
            | self.kind_typed.val()
            | self.kind_ptx.val());

        // ---- where the common fields sit ----
        self.exec_byte.next = self.byte[2].val();
        self.pred_lo.next = self.byte[3].val();
        self.pred_hi.next = self.byte[4].val();
        self.visa_op_byte.next = self.byte[1].val();
        self.exec_max.next = self.max_exec_dword.val();
        if self.kind_svm_atomic.val() {
            self.visa_op_byte.next = self.byte[5].val();
            self.exec_max.next = self.max_exec_svm_atomic.val();
        }
        if self.kind_scatter.val() {
            self.exec_max.next = self.max_exec_scatter.val();
        }
        if self.kind_typed.val() {
            self.exec_max.next = self.exec_code_8.val();
        }
        if self.kind_ptx.val() {
            self.exec_byte.next = self.byte[5].val();
            self.pred_lo.next = self.byte[6].val();
            self.pred_hi.next = self.byte[7].val();
            self.exec_max.next = self.max_exec_ptx.val();
        }

        // ---- Exec_size: size code, reserved bit 3, mask control ----
        self.exec_code.next = self.exec_byte.val().get_bits::<3>(0);
        self.bad_exec.next = self.exec_byte.val().get_bit(3) | (self.exec_code.val() > self.exec_max.val());
        if self.kind_typed.val() & (self.exec_code.val() != self.exec_code_8.val()) {
            self.bad_exec.next = true;
        }
        self.exec_mask.next = self.all_lanes.val();
        for c in 0..6 {
            if self.exec_code.val().index() == c {
                self.exec_mask.next = self.exec_lanes[c].val();
            }
        }
        // Mk: dmask bits 4*(k-1).. (bits past 31 are off); _NM: all
        self.dispatch_1.next = self.dmask.val();
        if self.exec_byte.val().get_bit(4) {
            self.dispatch_1.next = self.dmask.val() >> 4;
        }
        self.dispatch_2.next = self.dispatch_1.val();
        if self.exec_byte.val().get_bit(5) {
            self.dispatch_2.next = self.dispatch_1.val() >> 8;
        }
        self.dispatch.next = self.dispatch_2.val();
        if self.exec_byte.val().get_bit(6) {
            self.dispatch.next = self.dispatch_2.val() >> 16;
        }
        if self.exec_byte.val().get_bit(7) {
            self.dispatch.next = self.all_lanes.val();
        }

        // ---- Pred: number in bits 11..0, reserved 14..12, complement 15 ----
        self.pred_present.next = (self.pred_lo.val() | self.pred_hi.val()).any();
        self.bad_pred.next = self.pred_present.val()
            & (self.pred_hi.val().get_bits::<3>(4).any()
                | !(self.pred_lo.val().any() | self.pred_hi.val().get_bits::<4>(0).any()));
        self.predicate.next = self.all_lanes.val();
        if self.pred_present.val() {
            self.predicate.next = self.pred_mask.val();
            if self.pred_hi.val().get_bit(7) {
                self.predicate.next = !self.pred_mask.val();
            }
        }
        self.lane_enables.next =
            ((self.exec_mask.val() & self.dispatch.val()) & self.predicate.val()) & self.lanes_built.val();

        // ---- vISA Op byte: code 4..0; SVM width 6..5; DWORD/TYPED .16 in 5 ----
        self.visa_code.next = self.visa_op_byte.val().get_bits::<5>(0);
        self.visa_w16.next = self.visa_op_byte.val().get_bit(5);
        self.visa_w64.next = false;
        if self.kind_svm_atomic.val() {
            self.visa_w16.next = self.visa_op_byte.val().get_bits::<2>(5) == self.width_code_16.val();
            self.visa_w64.next = self.visa_op_byte.val().get_bits::<2>(5) == self.width_code_64.val();
        }
        self.visa_ty_at_16.next = self.zero_ty.val();
        self.visa_ty_at_32.next = self.zero_ty.val();
        self.visa_ty_at_64.next = self.zero_ty.val();
        for c in 0..32 {
            if self.visa_code.val().index() == c {
                self.visa_ty_at_16.next = self.visa_ty_16[c].val();
                self.visa_ty_at_32.next = self.visa_ty_32[c].val();
                self.visa_ty_at_64.next = self.visa_ty_64[c].val();
            }
        }

        // ---- PTX Op / Type / Space / Sem_scope bytes ----
        self.ptx_op.next = self.byte[1].val().get_bits::<4>(0);
        self.ptx_hint.next = self.byte[1].val().get_bit(5);
        self.ptx_ty.next = self.byte[2].val().get_bits::<4>(0);
        self.ptx_vec.next = self.byte[2].val().get_bits::<2>(4);
        self.ptx_space.next = self.byte[3].val().get_bits::<3>(0);
        self.ptx_is_cas.next = self.ptx_op.val() == self.ptx_op_cas.val();
        self.ptx_global_or_generic.next = self.ptx_space.val() <= self.ptx_space_global.val();
        self.ptx_scalar_ok.next = false;
        self.ptx_vector_ok.next = false;
        for o in 0..16 {
            if self.ptx_op.val().index() == o {
                self.ptx_scalar_ok.next = self.ptx_scalar_types[o].val().get_bit(self.ptx_ty.val().index());
                self.ptx_vector_ok.next = self.ptx_vector_types[o].val().get_bit(self.ptx_ty.val().index());
            }
        }
        self.ptx_alu_op.next = self.ptx_alu_rom.alu_op.val();
        self.ptx_size.next = self.size_1b.val();
        for t in 0..16 {
            if self.ptx_ty.val().index() == t {
                self.ptx_size.next = self.ptx_elem_size[t].val();
            }
        }
        self.ptx_vector_log2.next = self.size_1b.val();
        for v in 0..4 {
            if self.ptx_vec.val().index() == v {
                self.ptx_vector_log2.next = self.log2_3[v].val();
            }
        }
        // at most 128 bits per lane: .v8 only for 16-bit types, .v4 for 32-bit
        self.ptx_total_log2.next = self.ptx_size.val() + self.ptx_vector_log2.val();

        // ---- op legality, ALU controls, element size, per kind ----
        self.bad_op.next = false;
        self.alu_op.next = self.zero_op.val();
        self.alu_ty.next = self.zero_ty.val();
        self.alu_ftz.next = false;
        self.elem_size.next = self.size_4b.val();
        self.last_elem.next = self.zero_elem.val();
        if self.kind_svm_atomic.val() | self.kind_dword.val() | self.kind_typed.val() {
            self.alu_op.next = self.visa_code.val();
            self.alu_ty.next = self.visa_ty_at_32.val();
            if self.visa_w16.val() {
                self.alu_ty.next = self.visa_ty_at_16.val();
                self.elem_size.next = self.size_2b.val();
            }
            if self.visa_w64.val() {
                self.alu_ty.next = self.visa_ty_at_64.val();
                self.elem_size.next = self.size_8b.val();
            }
            self.bad_op.next = !self.visa_known.val().get_bit(self.visa_code.val().index());
        }
        if self.kind_svm_atomic.val() {
            // bit 7 reserved; width 0b11 reserved; float ops are HF/F only
            if self.visa_op_byte.val().get_bit(7)
                | (self.visa_op_byte.val().get_bits::<2>(5) == self.width_code_reserved.val())
                | (self.visa_w64.val() & self.visa_float.val().get_bit(self.visa_code.val().index()))
            {
                self.bad_op.next = true;
            }
        }
        if self.kind_dword.val() | self.kind_typed.val() {
            if self.visa_op_byte.val().get_bits::<2>(6).any() {
                self.bad_op.next = true;
            }
        }
        if self.kind_typed.val() & !self.visa_typed.val().get_bit(self.visa_code.val().index()) {
            self.bad_op.next = true;
        }
        if self.kind_scatter.val() {
            // Block_size: 0 = 1 byte, 1 = 4, 2 = 8; Num_blocks: 1 << code; 8 only for 4-byte blocks at exec 8
            self.elem_size.next = self.size_1b.val();
            if self.byte[5].val().get_bits::<2>(0) == self.block_code_4b.val() {
                self.elem_size.next = self.size_4b.val();
            }
            if self.byte[5].val().get_bits::<2>(0) == self.block_code_8b.val() {
                self.elem_size.next = self.size_8b.val();
            }
            for c in 0..4 {
                if self.byte[6].val().get_bits::<2>(0).index() == c {
                    self.last_elem.next = self.count_minus_one[c].val();
                }
            }
            if self.byte[5].val().get_bits::<6>(2).any()
                | (self.byte[5].val().get_bits::<2>(0) == self.block_code_reserved.val())
                | self.byte[6].val().get_bits::<6>(2).any()
            {
                self.bad_op.next = true;
            }
            if (self.byte[6].val().get_bits::<2>(0) == self.blocks_code_8.val())
                & ((self.byte[5].val().get_bits::<2>(0) != self.block_code_4b.val())
                    | (self.exec_code.val() != self.exec_code_8.val()))
            {
                self.bad_op.next = true;
            }
        }
        if self.kind_ptx.val() {
            self.alu_op.next = self.ptx_alu_op.val();
            for t in 0..16 {
                if self.ptx_ty.val().index() == t {
                    self.alu_ty.next = self.ptx_elem_ty[t].val();
                }
            }
            // f32 add flushes on .global and generic, not on .shared (scripts.md; Message::alu)
            self.alu_ftz.next = (self.ptx_ty.val() == self.ptx_type_f32.val()) & self.ptx_global_or_generic.val();
            self.elem_size.next = self.ptx_size.val();
            for v in 0..4 {
                if self.ptx_vec.val().index() == v {
                    self.last_elem.next = self.count_minus_one[v].val();
                }
            }
            // reserved bits and codes of Op, Type, Space, Sem_scope
            if self.byte[1].val().get_bits::<2>(6).any()
                | self.byte[2].val().get_bits::<2>(6).any()
                | self.byte[3].val().get_bits::<5>(3).any()
                | self.byte[4].val().get_bit(3)
                | self.byte[4].val().get_bit(7)
                | (self.ptx_space.val() > self.ptx_space_max.val())
                | (self.byte[4].val().get_bits::<3>(0) > self.ptx_qual_max.val())
                | (self.byte[4].val().get_bits::<3>(4) > self.ptx_qual_max.val())
                | !self.ptx_op_known.val().get_bit(self.ptx_op.val().index())
                | !self.ptx_type_known.val().get_bit(self.ptx_ty.val().index())
            {
                self.bad_op.next = true;
            }
            // the seed's Syntax: types per op, vector forms, .noftz, cache hint
            if self.ptx_vec.val().any() {
                if !self.ptx_vector_ok.val()
                    | (self.ptx_total_log2.val() > self.size_16b.val())
                    | !self.ptx_global_or_generic.val()
                {
                    self.bad_op.next = true;
                }
            } else {
                if !self.ptx_scalar_ok.val() {
                    self.bad_op.next = true;
                }
            }
            if self.byte[1].val().get_bit(4) != self.ptx_half_types.val().get_bit(self.ptx_ty.val().index()) {
                self.bad_op.next = true;
            }
            if self.ptx_hint.val()
                & ((self.ptx_is_cas.val() & self.ptx_cas_no_hint_types.val().get_bit(self.ptx_ty.val().index()))
                    | !self.ptx_global_or_generic.val())
            {
                self.bad_op.next = true;
            }
        }

        // ---- raw operands: presence rules and numbering 1, 2, 3, ... ----
        for i in 0..OPERAND_SLOTS {
            self.field_set[i].next = self.byte[i + 6].val().any();
        }
        // op table: src0 is V0 for INC, DEC, PREDEC; src1 is non-null for CMPXCHG, FCMPWR
        self.src0_null_b5.next = self.visa_src0_null.val().get_bit(self.byte[5].val().get_bits::<5>(0).index());
        self.src1_required_b5.next = self.visa_src1_required.val().get_bit(self.byte[5].val().get_bits::<5>(0).index());
        self.src0_null_b1.next = self.visa_src0_null.val().get_bit(self.byte[1].val().get_bits::<5>(0).index());
        self.src1_required_b1.next = self.visa_src1_required.val().get_bit(self.byte[1].val().get_bits::<5>(0).index());
        // SVM_ATOMIC, DWORD_ATOMIC: Addresses / Element_offset, Src0, Src1, Dst (fields 0..=3)
        self.svm_presence_bad.next = (!self.field_set[0].val() | (self.src0_null_b5.val() == self.field_set[1].val()))
            | (self.src1_required_b5.val() != self.field_set[2].val());
        self.dword_presence_bad.next = (!self.field_set[0].val()
            | (self.src0_null_b1.val() == self.field_set[1].val()))
            | (self.src1_required_b1.val() != self.field_set[2].val());
        // TYPED_ATOMIC: U, V, R, LOD, Src0, Src1, Dst (fields 0..=6)
        self.typed_presence_bad.next = (!self.field_set[0].val()
            | (self.src0_null_b1.val() == self.field_set[4].val()))
            | (self.src1_required_b1.val() != self.field_set[5].val());
        // PTX: D, A, B, C (cas only), Cache_policy (with .L2::cache_hint only) (fields 2..=6)
        self.ptx_presence_bad.next = ((!self.field_set[3].val() | !self.field_set[4].val())
            | (self.ptx_is_cas.val() != self.field_set[5].val()))
            | (self.ptx_hint.val() != self.field_set[6].val());
        // SVM_SCATTER: Addresses, Src (bytes 7, 8)
        self.scatter_operands_bad.next =
            (self.byte[7].val() != self.one_byte.val()) | (self.byte[8].val() != self.two_byte.val());
        self.bad_operands.next = (((self.kind_svm_atomic.val()
            & (self.numbering.visa_misnumbered.val() | self.svm_presence_bad.val()))
            | (self.kind_dword.val() & (self.numbering.visa_misnumbered.val() | self.dword_presence_bad.val())))
            | ((self.kind_typed.val() & (self.numbering.visa_misnumbered.val() | self.typed_presence_bad.val()))
                | (self.kind_scatter.val() & self.scatter_operands_bad.val())))
            | (self.kind_ptx.val() & (self.numbering.ptx_misnumbered.val() | self.ptx_presence_bad.val()));

        // ---- bytes past the descriptor's length must be zero ----
        self.bad_tail.next = false;
        if self.kind_svm_atomic.val() & (self.desc.val() & self.tail_svm_atomic.val()).any() {
            self.bad_tail.next = true;
        }
        if self.kind_dword.val() & (self.desc.val() & self.tail_dword.val()).any() {
            self.bad_tail.next = true;
        }
        if self.kind_typed.val() & (self.desc.val() & self.tail_typed.val()).any() {
            self.bad_tail.next = true;
        }
        if self.kind_scatter.val() & (self.desc.val() & self.tail_scatter.val()).any() {
            self.bad_tail.next = true;
        }
        if self.kind_ptx.val() & (self.desc.val() & self.tail_ptx.val()).any() {
            self.bad_tail.next = true;
        }

        // ---- surfaces and address modes ----
        self.surface_byte.next = self.byte[5].val();
        self.space_slm.next = false;
        self.addr_offset32.next = false;
        self.addr_buffer.next = false;
        self.bad_surface.next = false;
        if self.kind_dword.val() {
            // 0 = T0 (SLM), 255 = T255 (stateless), else buffer n
            self.addr_offset32.next = true;
            if !self.surface_byte.val().any() {
                self.space_slm.next = true;
            } else {
                if self.surface_byte.val() != self.byte_255.val() {
                    self.addr_buffer.next = true;
                    self.bad_surface.next = self.surf_kind.val() != self.surf_kind_buffer.val();
                }
            }
        }
        if self.kind_typed.val() {
            // typed surfaces are 1..254, of a typed kind, element size = message width
            self.bad_surface.next = (!self.surface_byte.val().any())
                | (self.surface_byte.val() == self.byte_255.val())
                | (self.surf_kind.val() >= self.surf_kind_buffer.val())
                | (self.surf_u16.val() != self.visa_w16.val());
        }
        if self.kind_ptx.val() {
            self.space_slm.next = self.ptx_space.val() >= self.ptx_space_shared.val();
        }
        self.write_only.next = self.kind_scatter.val();
        self.swap_src.next = self.kind_ptx.val() & self.ptx_is_cas.val();
        self.v_present.next = self.byte[7].val().any();
        self.r_present.next = self.byte[8].val().any();
        self.lod_present.next = self.byte[9].val().any();

        // ---- what this build leaves out (UnitConfig::admits) ----
        self.needs_fp.next = (self.float_only_ops.val().get_bit(self.alu_op.val().index())
            & (self.alu_ty.val() != self.ty_b128.val()))
            | ((self.alu_op.val() == self.op_add.val()) & self.float_types.val().get_bit(self.alu_ty.val().index()));
        self.bad_config.next = (self.exec_code.val() > self.max_exec_built.val())
            | (self.elem_size.val() > self.max_size_built.val())
            | (self.needs_fp.val() & !self.fp_built.val());

        self.illegal.next = self.bad_opcode.val()
            | self.bad_config.val()
            | self.bad_exec.val()
            | self.bad_pred.val()
            | self.bad_op.val()
            | self.bad_operands.val()
            | self.bad_tail.val()
            | self.bad_surface.val();
    }
}

#[cfg(test)]
mod decoder_tests;
