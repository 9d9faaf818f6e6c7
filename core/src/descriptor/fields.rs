//! Fields shared by every descriptor kind: the opcode bytes, Exec_size, Pred
//! and the raw-operand numbering (docs/descriptors.md, "Common fields").

use super::DecodeError;
use crate::message::MaskCtrl;

use crate::ops::EXEC_SIZES;
pub use crate::ops::{
    OPCODE_DWORD_ATOMIC, OPCODE_PTX_ATOM, OPCODE_SVM, OPCODE_TYPED_ATOMIC, SUBOP_SVM_ATOMIC, SUBOP_SVM_SCATTER,
};

/// The longest descriptor any kind has; the RTL takes descriptors on one
/// 128-bit port.
pub const MAX_DESC_BYTES: usize = 16;

/// The Exec_size byte: bits 2..0 the size code (lanes = 1 << code), bit 3
/// reserved, bits 7..4 the mask control (seed "Exec_size").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExecSize {
    /// one of [`EXEC_SIZES`]
    pub lanes: u8,
    pub mask_ctrl: MaskCtrl,
}

impl ExecSize {
    /// The single-thread PTX form: one lane, M1_NM (byte 0x80).
    pub const SINGLE_THREAD: ExecSize = ExecSize { lanes: 1, mask_ctrl: MaskCtrl::M1_NM };

    /// Decodes an Exec_size byte at descriptor offset `at`, accepting size
    /// codes `0..=max_code` (the kind's legal exec sizes).
    pub fn new(byte: u8, at: usize, max_code: u8, kind: &str) -> Result<ExecSize, DecodeError> {
        let code = byte & 0x7;
        if byte & 0x8 != 0 {
            return Err(DecodeError::desc(at, format!("Exec_size 0x{byte:02x}: reserved bit 3 is set")));
        }
        if code as usize >= EXEC_SIZES.len() {
            return Err(DecodeError::desc(at, format!("Exec_size 0x{byte:02x}: reserved size code {code}")));
        }
        if code > max_code {
            let lanes = 1u32 << code;
            let most = 1u32 << max_code;
            return Err(DecodeError::desc(
                at,
                format!("Exec_size 0x{byte:02x}: {lanes} lanes is not a legal exec size for {kind} (at most {most})"),
            ));
        }
        Ok(ExecSize { lanes: 1 << code, mask_ctrl: MaskCtrl::from_code(byte >> 4) })
    }

    /// The size code (bits 2..0) for a lane count, if it has one.
    pub fn size_code(lanes: u8) -> Option<u8> {
        EXEC_SIZES.iter().position(|&n| n == lanes).map(|c| c as u8)
    }

    /// The Exec_size byte. The lane count must have a size code.
    pub fn encode(&self) -> u8 {
        let code = Self::size_code(self.lanes).expect("ExecSize holds a power-of-two lane count");
        (self.mask_ctrl.code() << 4) | code
    }
}

/// The highest predicate number the 12-bit Pred field holds.
pub const MAX_PRED_NUMBER: u16 = 0x0fff;

/// A non-zero Pred field: bits 11..0 the predicate number (>= 1), bits
/// 14..12 reserved, bit 15 the complement (docs/descriptors.md, "Pred").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PredField {
    /// 1 ..= 4095
    pub number: u16,
    /// `!p`
    pub negate: bool,
}

impl PredField {
    /// Decodes the little-endian Pred word at descriptor offset `at`; 0 is
    /// "no predicate".
    pub fn new(word: u16, at: usize) -> Result<Option<PredField>, DecodeError> {
        if word == 0 {
            return Ok(None);
        }
        if word & 0x7000 != 0 {
            return Err(DecodeError::desc(at, format!("Pred 0x{word:04x}: reserved bits 14..12 are set")));
        }
        let number = word & MAX_PRED_NUMBER;
        if number == 0 {
            return Err(DecodeError::desc(at, format!("Pred 0x{word:04x}: predicate number 0 with the complement bit set")));
        }
        Ok(Some(PredField { number, negate: word & 0x8000 != 0 }))
    }

    /// The Pred word for an optional predicate.
    pub fn encode(pred: Option<PredField>) -> u16 {
        match pred {
            None => 0,
            Some(p) => (p.number & MAX_PRED_NUMBER) | if p.negate { 0x8000 } else { 0 },
        }
    }
}

/// Hands out raw-operand numbers while encoding: the non-null fields are
/// numbered 1, 2, 3, ... in field order; a null field is 0 (V0).
#[derive(Debug, Default)]
pub struct OperandNumbers {
    last: u8,
}

impl OperandNumbers {
    pub fn new() -> OperandNumbers {
        OperandNumbers { last: 0 }
    }

    /// The byte for the next field in field order.
    pub fn next(&mut self, present: bool) -> u8 {
        if present {
            self.last += 1;
            self.last
        } else {
            0
        }
    }
}

/// Whether a field must be null, non-null, or may be either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    Null,
    Required,
    Optional,
}

impl Presence {
    /// From an op-table operand rule.
    pub fn from_rule(rule: crate::ops::Operand) -> Presence {
        match rule {
            crate::ops::Operand::Null => Presence::Null,
            crate::ops::Operand::Required => Presence::Required,
        }
    }
}

/// Checks raw-operand fields while decoding: each non-null field must hold
/// the next number in field order.
#[derive(Debug, Default)]
pub struct OperandCheck {
    last: u8,
}

impl OperandCheck {
    pub fn new() -> OperandCheck {
        OperandCheck { last: 0 }
    }

    /// Checks the field `name` at descriptor offset `at`, which must obey
    /// `presence` (`why` says which rule demands it). Returns the byte.
    pub fn field(&mut self, bytes: &[u8], at: usize, name: &str, presence: Presence, why: &str) -> Result<u8, DecodeError> {
        let byte = bytes[at];
        match (presence, byte) {
            (Presence::Null, b) if b != 0 => {
                return Err(DecodeError::desc(at, format!("{name} is %{b} but must be V0 (0): {why}")));
            }
            (Presence::Required, 0) => {
                return Err(DecodeError::desc(at, format!("{name} is V0 (0) but must be an operand: {why}")));
            }
            _ => {}
        }
        if byte != 0 {
            let expect = self.last + 1;
            if byte != expect {
                return Err(DecodeError::desc(
                    at,
                    format!("{name} is operand number {byte}, expected {expect} (non-null operands are numbered 1, 2, ... in field order)"),
                ));
            }
            self.last = byte;
        }
        Ok(byte)
    }
}

/// Rejects a descriptor whose length is not exactly `len` bytes.
pub fn check_len(bytes: &[u8], len: usize, kind: &str) -> Result<(), DecodeError> {
    if bytes.len() < len {
        return Err(DecodeError::desc(
            bytes.len(),
            format!("{kind} descriptor truncated: {} bytes, a {kind} descriptor has {len}", bytes.len()),
        ));
    }
    if bytes.len() > len {
        return Err(DecodeError::desc(len, format!("trailing bytes: a {kind} descriptor has {len} bytes, got {}", bytes.len())));
    }
    Ok(())
}
