//! atomport-isa: the one op table. The script parser, the descriptor codec, the golden
//! model and the RTL decoder all read their op knowledge from here.
//!
//! Two layers:
//! * [`AluOp`] + [`ElemType`]: what the atomic ALU computes. The RTL ALU takes
//!   exactly these codes on its `op` / `ty` ports, and the golden model's
//!   `atomport::golden::atomic_ops::apply` takes the same values, so the two can be
//!   compared op by op.
//! * [`VISA_OPS`] and [`PTX_OPS`]: the message-level op names of the seeds
//!   (`DWORD_ATOMIC_OP` table; PTX `.op`), their encodings, and the operand
//!   rules, with the mapping to [`AluOp`].

mod float_formats;
mod message_kinds;
pub mod ports;
pub use float_formats::FloatFormat;
pub use message_kinds::*;

/// Descriptor opcode bytes (docs/descriptors.md "Opcodes"), shared by the
/// software codec and the RTL decoder.
/// Byte 0 of SVM_ATOMIC and SVM_SCATTER (seeds: `SVM = 0x4e`).
pub const OPCODE_SVM: u8 = 0x4e;
/// Byte 1 of SVM_ATOMIC (seed: `ATOMIC = 0x05`).
pub const SUBOP_SVM_ATOMIC: u8 = 0x05;
/// Byte 1 of SVM_SCATTER (seed: `SCATTER = 0x04`).
pub const SUBOP_SVM_SCATTER: u8 = 0x04;
/// Byte 0 of DWORD_ATOMIC (seed: `DWORD_ATOMIC = 0x7d`).
pub const OPCODE_DWORD_ATOMIC: u8 = 0x7d;
/// Byte 0 of TYPED_ATOMIC (seed: `TYPED_ATOMIC = 0x73`).
pub const OPCODE_TYPED_ATOMIC: u8 = 0x73;
/// Byte 0 of PTX atom: atomport's own format, above vISA's last opcode
/// (`ISA_RSQTM = 0x9c`).
pub const OPCODE_PTX_ATOM: u8 = 0xa7;

/// The ALU's operation. Codes 0x00..=0x12 are the vISA `DWORD_ATOMIC_OP`
/// codes (seed DWORD_ATOMIC.md, Op bits 4..0), so a vISA descriptor's op
/// field feeds the ALU unchanged. PTX-only semantics take the codes the vISA
/// table leaves free.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AluOp {
    /// new = old + src0 (integer), or IEEE add when the type is a float (PTX `.add.f*`).
    Add = 0x00,
    /// new = old - src0
    Sub = 0x01,
    /// new = old + 1, wrapping modulo 2^width (vISA INC)
    Inc = 0x02,
    /// new = old - 1, wrapping (vISA DEC)
    Dec = 0x03,
    /// new = min(old, src0), unsigned
    Min = 0x04,
    /// new = max(old, src0), unsigned
    Max = 0x05,
    /// new = src0
    Xchg = 0x06,
    /// new = (old == src1) ? src0 : old
    Cmpxchg = 0x07,
    And = 0x08,
    Or = 0x09,
    Xor = 0x0a,
    /// new = min(old, src0), signed
    Imin = 0x0b,
    /// new = max(old, src0), signed
    Imax = 0x0c,
    /// new = old - 1; returns the new value
    Predec = 0x0d,
    /// IEEE 754-2019 maximumNumber (scripts.md "left open")
    Fmax = 0x10,
    /// IEEE 754-2019 minimumNumber
    Fmin = 0x11,
    /// new = (src0 == old) ? src1 : old, IEEE equality
    Fcmpwr = 0x12,
    /// PTX inc: new = (old >= src0) ? 0 : old + 1 (unsigned)
    IncBound = 0x13,
    /// PTX dec: new = (old == 0 || old > src0) ? src0 : old - 1 (unsigned)
    DecBound = 0x14,
    /// PTX `.min` on f16/bf16 (vector forms): NaN ignored, both NaN -> canonical NaN 0x7fff
    FminPtx = 0x16,
    /// PTX `.max` on f16/bf16 (vector forms)
    FmaxPtx = 0x17,
}

/// Width of the ALU's `op` port in bits.
pub const ALU_OP_BITS: usize = 5;

/// Width of the RTL ALU's data ports: the widest element (PTX `.b128`).
pub const ALU_DATA_BITS: usize = 128;

/// The widest element the ops that add or order take (all but the bitwise
/// ones, [`AluOp::is_bitwise`]): 64 bits. At a wider type (`B128`) they
/// leave memory unchanged (`new = old`), as the float ops do at `B128`. No
/// message leads there: PTX `atom` takes `.b128` for `cas` and `exch` only
/// (seed PTX_ATOM.md, Syntax), the vISA atomics at most 64-bit elements; so
/// the RTL ALU's adder and magnitude comparator are 64 bits wide.
pub const ALU_ARITH_BITS: usize = 64;

impl AluOp {
    pub const ALL: [AluOp; 21] = [
        AluOp::Add,
        AluOp::Sub,
        AluOp::Inc,
        AluOp::Dec,
        AluOp::Min,
        AluOp::Max,
        AluOp::Xchg,
        AluOp::Cmpxchg,
        AluOp::And,
        AluOp::Or,
        AluOp::Xor,
        AluOp::Imin,
        AluOp::Imax,
        AluOp::Predec,
        AluOp::Fmax,
        AluOp::Fmin,
        AluOp::Fcmpwr,
        AluOp::IncBound,
        AluOp::DecBound,
        AluOp::FminPtx,
        AluOp::FmaxPtx,
    ];

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<AluOp> {
        AluOp::ALL.iter().copied().find(|op| op.code() == code)
    }

    /// True for the ops whose result is the value written (PREDEC).
    pub fn returns_new(self) -> bool {
        matches!(self, AluOp::Predec)
    }

    /// The ops that move or combine bits without adding or ordering them:
    /// they take every width up to `B128`; the others at most
    /// [`ALU_ARITH_BITS`].
    pub fn is_bitwise(self) -> bool {
        matches!(self, AluOp::Xchg | AluOp::Cmpxchg | AluOp::And | AluOp::Or | AluOp::Xor)
    }

    /// The ops that are floating point at every type they take (min/max/
    /// compare-and-write of floats); `Add` is float only at a float type
    /// ([`AluCtl::needs_fp`]).
    pub fn is_float_only(self) -> bool {
        matches!(self, AluOp::Fmax | AluOp::Fmin | AluOp::Fcmpwr | AluOp::FminPtx | AluOp::FmaxPtx)
    }
}

/// The element type an ALU operation works on. Integer ops use B16..B128
/// (signedness comes from the op); float ops use the float codes. The RTL
/// ALU's `ty` port carries this code.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElemType {
    B16 = 0,
    B32 = 1,
    B64 = 2,
    B128 = 3,
    F16 = 4,
    BF16 = 5,
    F32 = 6,
    F64 = 7,
    /// two f16 halves in one 32-bit word, each updated independently
    F16x2 = 8,
    /// two bf16 halves in one 32-bit word
    BF16x2 = 9,
}

/// Width of the ALU's `ty` port in bits.
pub const ALU_TY_BITS: usize = 4;

impl ElemType {
    pub const ALL: [ElemType; 10] = [
        ElemType::B16,
        ElemType::B32,
        ElemType::B64,
        ElemType::B128,
        ElemType::F16,
        ElemType::BF16,
        ElemType::F32,
        ElemType::F64,
        ElemType::F16x2,
        ElemType::BF16x2,
    ];

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<ElemType> {
        ElemType::ALL.get(code as usize).copied()
    }

    /// Bits one memory access of this type covers.
    pub fn bits(self) -> u32 {
        match self {
            ElemType::B16 | ElemType::F16 | ElemType::BF16 => 16,
            ElemType::B32 | ElemType::F32 | ElemType::F16x2 | ElemType::BF16x2 => 32,
            ElemType::B64 | ElemType::F64 => 64,
            ElemType::B128 => 128,
        }
    }

    pub fn bytes(self) -> u32 {
        self.bits() / 8
    }

    pub fn is_float(self) -> bool {
        !matches!(self, ElemType::B16 | ElemType::B32 | ElemType::B64 | ElemType::B128)
    }

    /// All-ones mask of this type's width.
    pub fn mask(self) -> u128 {
        if self.bits() == 128 {
            u128::MAX
        } else {
            (1u128 << self.bits()) - 1
        }
    }
}

/// Everything the ALU's control ports carry for one operation: `op`, `ty`,
/// and `ftz` (flush subnormal f32 inputs and results to sign-preserving zero:
/// PTX `atom.add.f32` on `.global`/generic, scripts.md "left open").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AluCtl {
    pub op: AluOp,
    pub ty: ElemType,
    pub ftz: bool,
}

impl AluCtl {
    /// The operation runs on the ALU's floating-point datapath (the RTL's
    /// `FloatAlu` claims it): a float-only op at any type but B128, or `Add`
    /// at a float type. A unit built without FP ([`UnitConfig::fp`] false)
    /// rejects these messages.
    pub fn needs_fp(&self) -> bool {
        (self.op.is_float_only() && self.ty != ElemType::B128) || (self.op == AluOp::Add && self.ty.is_float())
    }
}

/// Cycles from a payload read on the unit's payload port (`pay_valid`,
/// `pay_lane` at a rising edge) to that lane's operands on `pay_addr`,
/// `pay_src0`, `pay_src1`, `pay_coord` (the cycle after: a register file
/// with a registered read). The RTL (`AtomicUnit`) is built for it and the
/// test bench's driver answers with it (docs/microarchitecture.md "Payload
/// port").
pub const PAYLOAD_LATENCY: u64 = 1;

/// Cycles from one float op on an element to the next one on the same
/// element in the unit's execute pipeline: the float datapath has four
/// stages (X, X2, X3, X4) and the next op's old value is bypassed from the
/// write stage (docs/microarchitecture.md "Execute pipeline"). Integer ops
/// and scatter blocks on one element go one per cycle.
pub const FLOAT_LOOP_CYCLES: u64 = 4;

/// What a unit variant is built with (the RTL's `AtomicUnit::new`), and
/// hence which messages it executes. The ports never change shape (32-lane
/// masks, a 128-bit payload port); a smaller variant ignores the lanes and bits
/// it does not build, and **rejects** every message that needs them, like
/// an illegal descriptor: `rsp_error`, no memory access, no result
/// (docs/microarchitecture.md "Build parameters").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitConfig {
    /// Lanes built: 1, 2, 4, 8, 16 or 32. A message whose exec size is
    /// larger is rejected.
    pub max_lanes: u32,
    /// Widest element (or scatter block) in bits: 32, 64 or 128. A message
    /// with a wider element is rejected (PTX vectors: the element counts,
    /// not the vector).
    pub data_bits: u32,
    /// The floating-point ops are built. Without them a message whose op
    /// [`AluCtl::needs_fp`] is rejected.
    pub fp: bool,
}

/// Why a [`UnitConfig`] rejects a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigLimit {
    /// exec size above `max_lanes`
    Lanes { exec_size: u32, max_lanes: u32 },
    /// element wider than `data_bits`
    Width { elem_bits: u32, data_bits: u32 },
    /// a floating-point op on a unit built without FP
    Float,
}

impl std::fmt::Display for ConfigLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigLimit::Lanes { exec_size, max_lanes } => {
                write!(f, "exec size {exec_size} needs more lanes than the {max_lanes} built")
            }
            ConfigLimit::Width { elem_bits, data_bits } => {
                write!(f, "{elem_bits}-bit elements are wider than the {data_bits}-bit datapath built")
            }
            ConfigLimit::Float => write!(f, "a floating-point op, and the unit is built without FP"),
        }
    }
}

impl Default for UnitConfig {
    fn default() -> UnitConfig {
        UnitConfig::FULL
    }
}

impl UnitConfig {
    /// Everything built: the checked-in `atomic_unit`.
    pub const FULL: UnitConfig = UnitConfig { max_lanes: 32, data_bits: 128, fp: true };
    /// The smaller build that is checked in and simulated
    /// (`hdl/verilog/variants/atomic_unit_l8_w32_int.v`): 8 lanes, 32-bit
    /// data, integer ops only.
    pub const SMALL: UnitConfig = UnitConfig { max_lanes: 8, data_bits: 32, fp: false };
    /// The values each parameter takes.
    pub const LANES: [u32; 6] = [1, 2, 4, 8, 16, 32];
    pub const DATA_BITS: [u32; 3] = [32, 64, 128];

    /// A configuration, checked.
    pub fn new(max_lanes: u32, data_bits: u32, fp: bool) -> Result<UnitConfig, String> {
        if !Self::LANES.contains(&max_lanes) {
            return Err(format!("lanes must be one of 1, 2, 4, 8, 16, 32, not {max_lanes}"));
        }
        if !Self::DATA_BITS.contains(&data_bits) {
            return Err(format!("data width must be 32, 64 or 128 bits, not {data_bits}"));
        }
        Ok(UnitConfig { max_lanes, data_bits, fp })
    }

    /// log2 of `max_lanes` (the exec-size code of the widest message taken).
    pub fn max_exec_code(&self) -> u32 {
        self.max_lanes.trailing_zeros()
    }

    /// log2 of the widest element in bytes (the element-size code).
    pub fn max_size_code(&self) -> u32 {
        (self.data_bits / 8).trailing_zeros()
    }

    /// The lane mask of the lanes built.
    pub fn lane_mask(&self) -> u32 {
        if self.max_lanes >= 32 {
            u32::MAX
        } else {
            (1u32 << self.max_lanes) - 1
        }
    }

    /// The mask of the data bits built.
    pub fn data_mask(&self) -> u128 {
        if self.data_bits >= 128 {
            u128::MAX
        } else {
            (1u128 << self.data_bits) - 1
        }
    }

    /// A lane's result joins several elements only in a PTX vector form
    /// ([`PtxOpInfo::vector_types`]); a build without such a form it takes
    /// (all are floating point: none without FP) returns one element per lane.
    pub fn joins_elements(&self) -> bool {
        PTX_OPS.iter().flat_map(|o| o.vector_types).any(|t| self.fp || !t.elem_type().is_float())
    }

    /// Whether the unit executes a message of `exec_size` lanes whose
    /// elements (or scatter blocks) are `elem_bytes` wide and that
    /// `needs_fp` (None for SVM_SCATTER: no ALU).
    pub fn admits(&self, exec_size: u32, elem_bytes: u32, needs_fp: bool) -> Result<(), ConfigLimit> {
        if exec_size > self.max_lanes {
            return Err(ConfigLimit::Lanes { exec_size, max_lanes: self.max_lanes });
        }
        if elem_bytes * 8 > self.data_bits {
            return Err(ConfigLimit::Width { elem_bits: elem_bytes * 8, data_bits: self.data_bits });
        }
        if needs_fp && !self.fp {
            return Err(ConfigLimit::Float);
        }
        Ok(())
    }

    /// The configuration's name: `l<lanes>_w<bits>` plus `_int` without FP
    /// (`l8_w32_int`); [`UnitConfig::parse`] reads it back.
    pub fn name(&self) -> String {
        format!("l{}_w{}{}", self.max_lanes, self.data_bits, if self.fp { "" } else { "_int" })
    }

    /// Reads `l<lanes>`, `w<bits>` and `int` parts joined by `_`, in any
    /// order, each at most once; missing parts take the full value
    /// (`l8` = 8 lanes, 128 bits, FP).
    pub fn parse(text: &str) -> Result<UnitConfig, String> {
        let (mut lanes, mut bits, mut fp) = (None, None, None);
        for part in text.split('_') {
            let (slot, value) = if part == "int" {
                (&mut fp, Some(0))
            } else if let Some(n) = part.strip_prefix('l') {
                (&mut lanes, n.parse().ok())
            } else if let Some(n) = part.strip_prefix('w') {
                (&mut bits, n.parse().ok())
            } else {
                return Err(format!("`{part}` in `{text}`: expected l<lanes>, w<bits> or int"));
            };
            let Some(value) = value else {
                return Err(format!("`{part}` in `{text}`: not a number"));
            };
            if slot.replace(value).is_some() {
                return Err(format!("`{part}` in `{text}`: given twice"));
            }
        }
        UnitConfig::new(lanes.unwrap_or(32), bits.unwrap_or(128), fp.is_none())
    }
}

/// What an operand slot must hold for an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// must be V0
    Null,
    /// must be a lane vector
    Required,
}

/// How an op interprets its data (the seed's Data Type column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// UW, UD, UQ
    Unsigned,
    /// W, D, Q
    Signed,
    /// HF, F
    Float,
}

/// One row of the seed's `DWORD_ATOMIC_OP` table (DWORD_ATOMIC.md), shared
/// by SVM_ATOMIC, DWORD_ATOMIC and TYPED_ATOMIC.
#[derive(Clone, Copy, Debug)]
pub struct VisaOpInfo {
    /// text name, lower case (`cmpxchg`)
    pub name: &'static str,
    /// the ALU op; its code is the descriptor's Op bits 4..0
    pub op: AluOp,
    /// legal in TYPED_ATOMIC (Message Type column lists TYPED)
    pub typed: bool,
    pub src0: Operand,
    pub src1: Operand,
    pub class: Class,
    /// the semantics row as the seed writes it
    pub semantics: &'static str,
}

macro_rules! visa_row {
    ($name:literal, $op:ident, $typed:literal, $s0:ident, $s1:ident, $class:ident, $sem:literal) => {
        VisaOpInfo {
            name: $name,
            op: AluOp::$op,
            typed: $typed,
            src0: Operand::$s0,
            src1: Operand::$s1,
            class: Class::$class,
            semantics: $sem,
        }
    };
}

/// The seed's `DWORD_ATOMIC_OP` table, one row per op.
pub const VISA_OPS: [VisaOpInfo; 17] = [
    visa_row!("add", Add, true, Required, Null, Unsigned, "new = old + src0"),
    visa_row!("sub", Sub, true, Required, Null, Unsigned, "new = old - src0"),
    visa_row!("inc", Inc, true, Null, Null, Unsigned, "new = old + 1"),
    visa_row!("dec", Dec, true, Null, Null, Unsigned, "new = old - 1"),
    visa_row!("min", Min, true, Required, Null, Unsigned, "new = min(old, src0)"),
    visa_row!("max", Max, true, Required, Null, Unsigned, "new = max(old, src0)"),
    visa_row!("xchg", Xchg, true, Required, Null, Unsigned, "new = src0"),
    visa_row!("cmpxchg", Cmpxchg, true, Required, Required, Unsigned, "new = (old == src1) ? src0 : old"),
    visa_row!("and", And, true, Required, Null, Unsigned, "new = old & src0"),
    visa_row!("or", Or, true, Required, Null, Unsigned, "new = old | src0"),
    visa_row!("xor", Xor, true, Required, Null, Unsigned, "new = old ^ src0"),
    visa_row!("imin", Imin, true, Required, Null, Signed, "new = min(old, src0), signed"),
    visa_row!("imax", Imax, true, Required, Null, Signed, "new = max(old, src0), signed"),
    visa_row!("predec", Predec, true, Null, Null, Signed, "new = old - 1, returns new"),
    visa_row!("fmax", Fmax, false, Required, Null, Float, "new = maxNumber(old, src0)"),
    visa_row!("fmin", Fmin, false, Required, Null, Float, "new = minNumber(old, src0)"),
    visa_row!("fcmpwr", Fcmpwr, false, Required, Required, Float, "new = (src0 == old) ? src1 : old"),
];

/// Rows are identified by their op code.
impl PartialEq for VisaOpInfo {
    fn eq(&self, other: &Self) -> bool {
        self.op == other.op
    }
}
impl Eq for VisaOpInfo {}

impl VisaOpInfo {
    /// Case-insensitive lookup by text name.
    pub fn by_name(name: &str) -> Option<&'static VisaOpInfo> {
        VISA_OPS.iter().find(|r| r.name.eq_ignore_ascii_case(name))
    }

    /// Lookup by the descriptor's Op bits 4..0.
    pub fn by_code(code: u8) -> Option<&'static VisaOpInfo> {
        VISA_OPS.iter().find(|r| r.op.code() == code)
    }

    /// The ALU element type for this op at a vISA width (16, 32 or 64).
    pub fn elem_type(&self, width: u32) -> ElemType {
        match (self.class, width) {
            (Class::Float, 16) => ElemType::F16,
            (Class::Float, _) => ElemType::F32,
            (_, 16) => ElemType::B16,
            (_, 64) => ElemType::B64,
            _ => ElemType::B32,
        }
    }
}

/// vISA data width, the SVM Op byte's bits 6..5 (DWORD/TYPED use bit 5 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VisaWidth {
    W32 = 0,
    W16 = 1,
    W64 = 2,
}

impl VisaWidth {
    pub fn from_bits(bits: u32) -> Option<VisaWidth> {
        [VisaWidth::W16, VisaWidth::W32, VisaWidth::W64].into_iter().find(|w| w.bits() == bits)
    }

    pub fn bits(self) -> u32 {
        match self {
            VisaWidth::W16 => 16,
            VisaWidth::W32 => 32,
            VisaWidth::W64 => 64,
        }
    }
}

/// PTX `.type` (scalar and packed), as written after the op.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PtxType {
    B16 = 0,
    B32 = 1,
    B64 = 2,
    B128 = 3,
    U32 = 4,
    U64 = 5,
    S32 = 6,
    S64 = 7,
    F32 = 8,
    F64 = 9,
    F16 = 10,
    F16x2 = 11,
    BF16 = 12,
    BF16x2 = 13,
}

impl PtxType {
    pub const ALL: [PtxType; 14] = [
        PtxType::B16,
        PtxType::B32,
        PtxType::B64,
        PtxType::B128,
        PtxType::U32,
        PtxType::U64,
        PtxType::S32,
        PtxType::S64,
        PtxType::F32,
        PtxType::F64,
        PtxType::F16,
        PtxType::F16x2,
        PtxType::BF16,
        PtxType::BF16x2,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PtxType::B16 => "b16",
            PtxType::B32 => "b32",
            PtxType::B64 => "b64",
            PtxType::B128 => "b128",
            PtxType::U32 => "u32",
            PtxType::U64 => "u64",
            PtxType::S32 => "s32",
            PtxType::S64 => "s64",
            PtxType::F32 => "f32",
            PtxType::F64 => "f64",
            PtxType::F16 => "f16",
            PtxType::F16x2 => "f16x2",
            PtxType::BF16 => "bf16",
            PtxType::BF16x2 => "bf16x2",
        }
    }

    pub fn by_name(name: &str) -> Option<PtxType> {
        PtxType::ALL.iter().copied().find(|t| t.name().eq_ignore_ascii_case(name))
    }

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<PtxType> {
        PtxType::ALL.get(code as usize).copied()
    }

    /// The ALU element type of one scalar element of this type.
    pub fn elem_type(self) -> ElemType {
        match self {
            PtxType::B16 => ElemType::B16,
            PtxType::B32 | PtxType::U32 | PtxType::S32 => ElemType::B32,
            PtxType::B64 | PtxType::U64 | PtxType::S64 => ElemType::B64,
            PtxType::B128 => ElemType::B128,
            PtxType::F32 => ElemType::F32,
            PtxType::F64 => ElemType::F64,
            PtxType::F16 => ElemType::F16,
            PtxType::F16x2 => ElemType::F16x2,
            PtxType::BF16 => ElemType::BF16,
            PtxType::BF16x2 => ElemType::BF16x2,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, PtxType::S32 | PtxType::S64)
    }
}

/// PTX `.op`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PtxOp {
    And = 0,
    Or = 1,
    Xor = 2,
    Cas = 3,
    Exch = 4,
    Add = 5,
    Inc = 6,
    Dec = 7,
    Min = 8,
    Max = 9,
}

/// One row of the PTX op table (seed PTX_ATOM.md, Syntax): which scalar
/// types an op takes, and what the ALU does for it.
#[derive(Clone, Copy, Debug)]
pub struct PtxOpInfo {
    pub name: &'static str,
    pub op: PtxOp,
    /// scalar (non-vector) types this op takes; `.add` on f16/f16x2/bf16/bf16x2 needs `.noftz`
    pub scalar_types: &'static [PtxType],
    /// types this op takes in the vector forms `.v2/.v4/.v8` (global only)
    pub vector_types: &'static [PtxType],
    /// takes the third operand `c` (cas)
    pub has_c: bool,
    /// the semantics as the seed writes it
    pub semantics: &'static str,
}

use PtxType as T;

/// The PTX op table.
pub const PTX_OPS: [PtxOpInfo; 10] = [
    PtxOpInfo { name: "and", op: PtxOp::And, scalar_types: &[T::B32, T::B64], vector_types: &[], has_c: false, semantics: "d = *a; *a = *a & b" },
    PtxOpInfo { name: "or", op: PtxOp::Or, scalar_types: &[T::B32, T::B64], vector_types: &[], has_c: false, semantics: "d = *a; *a = *a | b" },
    PtxOpInfo { name: "xor", op: PtxOp::Xor, scalar_types: &[T::B32, T::B64], vector_types: &[], has_c: false, semantics: "d = *a; *a = *a ^ b" },
    PtxOpInfo { name: "cas", op: PtxOp::Cas, scalar_types: &[T::B16, T::B32, T::B64, T::B128], vector_types: &[], has_c: true, semantics: "d = *a; *a = (*a == b) ? c : *a" },
    PtxOpInfo { name: "exch", op: PtxOp::Exch, scalar_types: &[T::B32, T::B64, T::B128], vector_types: &[], has_c: false, semantics: "d = *a; *a = b" },
    PtxOpInfo { name: "add", op: PtxOp::Add, scalar_types: &[T::U32, T::U64, T::S32, T::S64, T::F32, T::F64, T::F16, T::F16x2, T::BF16, T::BF16x2], vector_types: &[T::F32, T::F16, T::BF16, T::F16x2, T::BF16x2], has_c: false, semantics: "d = *a; *a = *a + b" },
    PtxOpInfo { name: "inc", op: PtxOp::Inc, scalar_types: &[T::U32], vector_types: &[], has_c: false, semantics: "d = *a; *a = (*a >= b) ? 0 : *a + 1" },
    PtxOpInfo { name: "dec", op: PtxOp::Dec, scalar_types: &[T::U32], vector_types: &[], has_c: false, semantics: "d = *a; *a = (*a == 0 || *a > b) ? b : *a - 1" },
    PtxOpInfo { name: "min", op: PtxOp::Min, scalar_types: &[T::U32, T::U64, T::S32, T::S64], vector_types: &[T::F16, T::BF16, T::F16x2, T::BF16x2], has_c: false, semantics: "d = *a; *a = min(*a, b)" },
    PtxOpInfo { name: "max", op: PtxOp::Max, scalar_types: &[T::U32, T::U64, T::S32, T::S64], vector_types: &[T::F16, T::BF16, T::F16x2, T::BF16x2], has_c: false, semantics: "d = *a; *a = max(*a, b)" },
];

impl PtxOpInfo {
    pub fn by_name(name: &str) -> Option<&'static PtxOpInfo> {
        PTX_OPS.iter().find(|r| r.name.eq_ignore_ascii_case(name))
    }

    pub fn by_code(code: u8) -> Option<&'static PtxOpInfo> {
        PTX_OPS.iter().find(|r| r.op as u8 == code)
    }

    /// The ALU op for this PTX op on element type `ty`. For `cas` the unit
    /// routes b (compare) to src1 and c (new) to src0, matching CMPXCHG.
    pub fn alu_op(&self, ty: PtxType) -> AluOp {
        let float = ty.elem_type().is_float();
        match self.op {
            PtxOp::And => AluOp::And,
            PtxOp::Or => AluOp::Or,
            PtxOp::Xor => AluOp::Xor,
            PtxOp::Cas => AluOp::Cmpxchg,
            PtxOp::Exch => AluOp::Xchg,
            PtxOp::Add => AluOp::Add,
            PtxOp::Inc => AluOp::IncBound,
            PtxOp::Dec => AluOp::DecBound,
            PtxOp::Min if float => AluOp::FminPtx,
            PtxOp::Max if float => AluOp::FmaxPtx,
            PtxOp::Min if ty.is_signed() => AluOp::Imin,
            PtxOp::Max if ty.is_signed() => AluOp::Imax,
            PtxOp::Min => AluOp::Min,
            PtxOp::Max => AluOp::Max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visa_codes_are_the_seed_table() {
        let expect = [
            ("add", 0b00000), ("sub", 0b00001), ("inc", 0b00010), ("dec", 0b00011),
            ("min", 0b00100), ("max", 0b00101), ("xchg", 0b00110), ("cmpxchg", 0b00111),
            ("and", 0b01000), ("or", 0b01001), ("xor", 0b01010), ("imin", 0b01011),
            ("imax", 0b01100), ("predec", 0b01101), ("fmax", 0b10000), ("fmin", 0b10001),
            ("fcmpwr", 0b10010),
        ];
        for (name, code) in expect {
            let row = VisaOpInfo::by_name(name).unwrap();
            assert_eq!(row.op.code(), code, "{name}");
            assert_eq!(VisaOpInfo::by_code(code).unwrap().name, name);
        }
        assert_eq!(VISA_OPS.iter().filter(|r| !r.typed).count(), 3);
    }

    #[test]
    fn alu_codes_round_trip() {
        for op in AluOp::ALL {
            assert_eq!(AluOp::from_code(op.code()), Some(op));
            assert!(op.code() < (1 << ALU_OP_BITS));
        }
        for ty in ElemType::ALL {
            assert_eq!(ElemType::from_code(ty.code()), Some(ty));
        }
        for ty in PtxType::ALL {
            assert_eq!(PtxType::from_code(ty.code()), Some(ty));
            assert_eq!(PtxType::by_name(ty.name()), Some(ty));
        }
    }

    #[test]
    fn ptx_min_max_pick_signedness_and_float() {
        let min = PtxOpInfo::by_name("MIN").unwrap();
        assert_eq!(min.alu_op(PtxType::U32), AluOp::Min);
        assert_eq!(min.alu_op(PtxType::S64), AluOp::Imin);
        assert_eq!(min.alu_op(PtxType::BF16), AluOp::FminPtx);
        assert_eq!(PtxOpInfo::by_name("cas").unwrap().alu_op(PtxType::B128), AluOp::Cmpxchg);
    }

    #[test]
    fn unit_config_names_round_trip_and_limits_hold() {
        for lanes in UnitConfig::LANES {
            for bits in UnitConfig::DATA_BITS {
                for fp in [false, true] {
                    let c = UnitConfig::new(lanes, bits, fp).unwrap();
                    assert_eq!(UnitConfig::parse(&c.name()), Ok(c));
                    assert_eq!(1 << c.max_exec_code(), lanes);
                    assert_eq!(8 << c.max_size_code(), bits);
                    assert_eq!(c.lane_mask().count_ones(), lanes);
                    assert_eq!(c.data_mask().count_ones(), bits);
                }
            }
        }
        assert_eq!(UnitConfig::parse("l32_w128"), Ok(UnitConfig::FULL));
        assert_eq!(UnitConfig::parse("int_l4"), Ok(UnitConfig { max_lanes: 4, data_bits: 128, fp: false }));
        for bad in ["", "l3", "w16", "l8_l8", "x", "l", "int_int", "w64_q"] {
            assert!(UnitConfig::parse(bad).is_err(), "{bad}");
        }
        let small = UnitConfig::parse("l8_w32_int").unwrap();
        assert_eq!(small.admits(8, 4, false), Ok(()));
        assert_eq!(small.admits(16, 4, false), Err(ConfigLimit::Lanes { exec_size: 16, max_lanes: 8 }));
        assert_eq!(small.admits(1, 8, false), Err(ConfigLimit::Width { elem_bits: 64, data_bits: 32 }));
        assert_eq!(small.admits(1, 2, true), Err(ConfigLimit::Float));
        assert_eq!(UnitConfig::FULL.admits(32, 16, true), Ok(()));
    }

    #[test]
    fn only_a_build_with_fp_joins_elements() {
        assert!(UnitConfig::FULL.joins_elements());
        assert!(UnitConfig::new(8, 32, true).unwrap().joins_elements());
        assert!(!UnitConfig::SMALL.joins_elements());
        assert!(!UnitConfig::new(32, 128, false).unwrap().joins_elements());
    }

    #[test]
    fn needs_fp_is_the_float_datapath() {
        use ElemType::*;
        let ctl = |op, ty| AluCtl { op, ty, ftz: false };
        assert!(ctl(AluOp::Add, F32).needs_fp() && ctl(AluOp::Add, BF16x2).needs_fp());
        assert!(!ctl(AluOp::Add, B32).needs_fp() && !ctl(AluOp::Xchg, F32).needs_fp());
        assert!(ctl(AluOp::Fmax, B32).needs_fp() && !ctl(AluOp::Fmax, B128).needs_fp());
        assert!(!ctl(AluOp::IncBound, B32).needs_fp());
    }
}
