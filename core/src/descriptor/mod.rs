//! Binary descriptors and payloads (docs/descriptors.md is the format's
//! reference; keep the two in step).
//!
//! A [`Message`] encodes to a descriptor — at most 16 bytes that follow its
//! seed's Format table field by field — and a [`Payload`] with the per-lane
//! operand values. [`decode`] reads a descriptor alone (its fields, printed
//! with symbolic operands) or a descriptor with its payload (an equal
//! `Message`). Every illegal encoding is rejected with the offending byte.

pub mod fields;
pub mod formats;
pub mod payload;
#[cfg(test)]
mod descriptor_tests;

use std::collections::HashMap;
use std::fmt;

pub use fields::{ExecSize, PredField, MAX_DESC_BYTES};
pub use formats::{Descriptor, DwordAtomicDesc, PtxAtomDesc, SvmAtomicDesc, SvmScatterDesc, TypedAtomicDesc};
pub use payload::{LaneVector, Payload};

use crate::message::{Body, Message, PredRef};
use fields::OperandNumbers;

/// Which byte string an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Descriptor,
    Payload,
}

/// A rejected descriptor or payload: which byte (0-based) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub part: Part,
    /// the offending byte; None when the payload disagrees with the
    /// descriptor as a whole
    pub byte: Option<usize>,
    pub msg: String,
}

impl DecodeError {
    pub fn desc(byte: usize, msg: String) -> DecodeError {
        DecodeError { part: Part::Descriptor, byte: Some(byte), msg }
    }

    pub fn payload(byte: usize, msg: String) -> DecodeError {
        DecodeError { part: Part::Payload, byte: Some(byte), msg }
    }

    /// The payload does not fit the descriptor.
    pub fn mismatch(msg: String) -> DecodeError {
        DecodeError { part: Part::Payload, byte: None, msg }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = match self.part {
            Part::Descriptor => "descriptor",
            Part::Payload => "payload",
        };
        match self.byte {
            Some(b) => write!(f, "{part} byte {b}: {}", self.msg),
            None => write!(f, "{part}: {}", self.msg),
        }
    }
}

impl std::error::Error for DecodeError {}

/// A message the binary format cannot carry (the script parser never
/// produces one; hand-built messages can).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: cannot encode: {}", self.line, self.msg)
    }
}

impl std::error::Error for EncodeError {}

/// A message's descriptor and payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// 9 ..= 13 bytes (docs/descriptors.md)
    pub desc: Vec<u8>,
    pub payload: Payload,
}

/// What [`decode`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// a descriptor alone: its fields, operands symbolic
    Descriptor(Descriptor),
    /// a descriptor with its payload: the whole message
    Message(Message),
}

/// Encodes one message; its predicate (if any) is predicate number 1.
pub fn encode(msg: &Message) -> Result<Encoded, EncodeError> {
    encode_with_pred_number(msg, 1)
}

/// Encodes a script's messages, numbering predicates 1, 2, ... by the first
/// use of each name (what `atomport encode` prints).
#[derive(Debug, Default)]
pub struct Encoder {
    pred_numbers: HashMap<String, u16>,
}

impl Encoder {
    pub fn new() -> Encoder {
        Encoder::default()
    }

    pub fn encode(&mut self, msg: &Message) -> Result<Encoded, EncodeError> {
        let number = match &msg.pred {
            None => 1,
            Some(p) => {
                let next = self.pred_numbers.len() + 1;
                if next > fields::MAX_PRED_NUMBER as usize && !self.pred_numbers.contains_key(&p.name) {
                    return Err(EncodeError {
                        line: msg.line,
                        msg: format!("more than {} predicate names", fields::MAX_PRED_NUMBER),
                    });
                }
                *self.pred_numbers.entry(p.name.clone()).or_insert(next as u16)
            }
        };
        encode_with_pred_number(msg, number)
    }
}

/// The number of SVM_SCATTER src elements the seed's layout uses: 4- and
/// 8-byte blocks take `num_blocks` rows of exec_size elements; 1-byte blocks
/// take `max(4, num_blocks)` bytes per lane (`src[i*min_block_size+j]`).
pub fn scatter_src_len(block_size: u8, num_blocks: u8, exec_size: u8) -> usize {
    if block_size == 1 {
        exec_size as usize * (num_blocks.max(4) as usize)
    } else {
        exec_size as usize * num_blocks as usize
    }
}

/// Encodes one message with an explicit predicate number (1..=4095).
pub fn encode_with_pred_number(msg: &Message, pred_number: u16) -> Result<Encoded, EncodeError> {
    let err = |m: String| EncodeError { line: msg.line, msg: m };
    if !(1..=fields::MAX_PRED_NUMBER).contains(&pred_number) {
        return Err(err(format!("predicate number {pred_number} is outside 1..=4095")));
    }
    if ExecSize::size_code(msg.exec_size).is_none() {
        let codes = crate::ops::EXEC_SIZES.map(|n| n.to_string()).join(", ");
        return Err(err(format!("exec size {} has no Exec_size code ({codes})", msg.exec_size)));
    }
    for (what, name) in [("dst", &msg.dst), ("predicate", &msg.pred.as_ref().map(|p| p.name.clone()))] {
        if let Some(n) = name {
            if n.is_empty() || n.len() > 255 {
                return Err(err(format!("{what} name must be 1..=255 bytes, `{n}` is {}", n.len())));
            }
        }
    }
    let line = u32::try_from(msg.line).map_err(|_| err(format!("line {} does not fit 32 bits", msg.line)))?;
    let exec = ExecSize { lanes: msg.exec_size, mask_ctrl: msg.mask_ctrl };
    let pred = msg.pred.as_ref().map(|p| PredField { number: pred_number, negate: p.negate });
    let mut num = OperandNumbers::new();
    let mut operands = Vec::new();
    let has_dst = msg.dst.is_some();
    let mut cache_policy = None;
    let desc = match &msg.body {
        Body::SvmAtomic { op, width, addrs, src0, src1 } => {
            operands.push(LaneVector::U64(addrs.clone()));
            operands.extend(src0.iter().chain(src1.iter()).map(|v| LaneVector::U128(v.clone())));
            Descriptor::SvmAtomic(SvmAtomicDesc {
                exec,
                pred,
                op,
                width: *width,
                addresses: num.next(true),
                src0: num.next(src0.is_some()),
                src1: num.next(src1.is_some()),
                dst: num.next(has_dst),
            })
        }
        Body::DwordAtomic { op, w16, surface, offsets, src0, src1 } => {
            operands.push(LaneVector::U32(offsets.clone()));
            operands.extend(src0.iter().chain(src1.iter()).map(|v| LaneVector::U128(v.clone())));
            Descriptor::DwordAtomic(DwordAtomicDesc {
                op,
                w16: *w16,
                exec,
                pred,
                surface: *surface,
                element_offset: num.next(true),
                src0: num.next(src0.is_some()),
                src1: num.next(src1.is_some()),
                dst: num.next(has_dst),
            })
        }
        Body::TypedAtomic { op, w16, surface, u, v, r, lod, src0, src1 } => {
            operands.push(LaneVector::U32(u.clone()));
            operands.extend(v.iter().chain(r.iter()).chain(lod.iter()).map(|x| LaneVector::U32(x.clone())));
            operands.extend(src0.iter().chain(src1.iter()).map(|x| LaneVector::U128(x.clone())));
            Descriptor::TypedAtomic(TypedAtomicDesc {
                op,
                w16: *w16,
                exec,
                pred,
                surface: *surface,
                u: num.next(true),
                v: num.next(v.is_some()),
                r: num.next(r.is_some()),
                lod: num.next(lod.is_some()),
                src0: num.next(src0.is_some()),
                src1: num.next(src1.is_some()),
                dst: num.next(has_dst),
            })
        }
        Body::SvmScatter { block_size, num_blocks, addrs, src } => {
            operands.push(LaneVector::U64(addrs.clone()));
            operands.push(LaneVector::U64(src.clone()));
            Descriptor::SvmScatter(SvmScatterDesc {
                exec,
                pred,
                block_size: *block_size,
                num_blocks: *num_blocks,
                addresses: num.next(true),
                src: num.next(true),
            })
        }
        Body::PtxAtom { sem, scope, space, op, noftz, cache_hint, vec, ty, addrs, b, c } => {
            operands.push(LaneVector::U64(addrs.clone()));
            operands.push(LaneVector::U128(b.clone()));
            operands.extend(c.iter().map(|x| LaneVector::U128(x.clone())));
            cache_policy = *cache_hint;
            Descriptor::PtxAtom(PtxAtomDesc {
                op: *op,
                noftz: *noftz,
                cache_hint: cache_hint.is_some(),
                ty: *ty,
                vec: *vec,
                space: *space,
                sem: *sem,
                scope: *scope,
                exec,
                pred,
                d: num.next(has_dst),
                a: num.next(true),
                b: num.next(true),
                c: num.next(c.is_some()),
                cache_policy: num.next(cache_hint.is_some()),
            })
        }
    };
    if let Some(v) = operands.iter().find(|v| v.is_empty() || v.len() > 255) {
        return Err(err(format!("a lane vector of {} elements (1..=255 fit the payload)", v.len())));
    }
    let payload = Payload {
        operands,
        pred_mask: msg.pred.as_ref().map(|p| p.mask).unwrap_or(0),
        dmask: msg.dmask,
        cache_policy,
        line,
        dst_name: msg.dst.clone(),
        pred_name: msg.pred.as_ref().map(|p| p.name.clone()),
    };
    Ok(Encoded { desc: desc.encode(), payload })
}

/// Decodes a descriptor, and with its payload the whole message.
pub fn decode(desc: &[u8], payload: Option<&Payload>) -> Result<Decoded, DecodeError> {
    match payload {
        None => Ok(Decoded::Descriptor(Descriptor::new(desc)?)),
        Some(p) => Ok(Decoded::Message(decode_message(desc, p)?)),
    }
}

/// Takes the payload's vectors in field order, checking each against the
/// field it belongs to.
struct Vectors<'a> {
    list: &'a [LaneVector],
    next: usize,
}

impl<'a> Vectors<'a> {
    fn take(&mut self, field: &str, want_elem: usize, want_len: usize) -> Result<&'a LaneVector, DecodeError> {
        let n = self.next + 1;
        let v = self.list.get(self.next).ok_or_else(|| {
            DecodeError::mismatch(format!("the descriptor's {field} needs lane vector {n}, the payload has {}", self.list.len()))
        })?;
        if v.elem_bytes() != want_elem {
            return Err(DecodeError::mismatch(format!(
                "lane vector {n} ({field}) has {}-byte elements, {field} takes {want_elem}-byte elements",
                v.elem_bytes()
            )));
        }
        if v.len() != want_len {
            return Err(DecodeError::mismatch(format!(
                "lane vector {n} ({field}) has {} elements, the descriptor needs {want_len}",
                v.len()
            )));
        }
        self.next += 1;
        Ok(v)
    }

    fn u32s(&mut self, field: &str, len: usize) -> Result<Vec<u32>, DecodeError> {
        match self.take(field, 4, len)? {
            LaneVector::U32(v) => Ok(v.clone()),
            _ => unreachable!("element size checked"),
        }
    }

    fn u64s(&mut self, field: &str, len: usize) -> Result<Vec<u64>, DecodeError> {
        match self.take(field, 8, len)? {
            LaneVector::U64(v) => Ok(v.clone()),
            _ => unreachable!("element size checked"),
        }
    }

    fn u128s(&mut self, field: &str, len: usize) -> Result<Vec<u128>, DecodeError> {
        match self.take(field, 16, len)? {
            LaneVector::U128(v) => Ok(v.clone()),
            _ => unreachable!("element size checked"),
        }
    }

    /// An optional field: a vector only when the descriptor's byte is non-null.
    fn opt_u32s(&mut self, field: &str, byte: u8, len: usize) -> Result<Option<Vec<u32>>, DecodeError> {
        if byte == 0 {
            Ok(None)
        } else {
            self.u32s(field, len).map(Some)
        }
    }

    fn opt_u128s(&mut self, field: &str, byte: u8, len: usize) -> Result<Option<Vec<u128>>, DecodeError> {
        if byte == 0 {
            Ok(None)
        } else {
            self.u128s(field, len).map(Some)
        }
    }

    fn finish(&self) -> Result<(), DecodeError> {
        if self.next != self.list.len() {
            return Err(DecodeError::mismatch(format!(
                "the payload has {} lane vectors, the descriptor uses {}",
                self.list.len(),
                self.next
            )));
        }
        Ok(())
    }
}

/// A descriptor and its payload -> the message (docs/descriptors.md: the
/// payload must agree with the descriptor in every respect).
pub fn decode_message(desc: &[u8], payload: &Payload) -> Result<Message, DecodeError> {
    let d = Descriptor::new(desc)?;
    let exec = d.exec();
    let lanes = exec.lanes as usize;
    let mut vs = Vectors { list: &payload.operands, next: 0 };
    let mut cache_hint_in_desc = false;
    let body = match &d {
        Descriptor::SvmAtomic(s) => Body::SvmAtomic {
            op: s.op,
            width: s.width,
            addrs: vs.u64s("Addresses", lanes)?,
            src0: vs.opt_u128s("Src0", s.src0, lanes)?,
            src1: vs.opt_u128s("Src1", s.src1, lanes)?,
        },
        Descriptor::DwordAtomic(s) => Body::DwordAtomic {
            op: s.op,
            w16: s.w16,
            surface: s.surface,
            offsets: vs.u32s("Element_offset", lanes)?,
            src0: vs.opt_u128s("Src0", s.src0, lanes)?,
            src1: vs.opt_u128s("Src1", s.src1, lanes)?,
        },
        Descriptor::TypedAtomic(s) => Body::TypedAtomic {
            op: s.op,
            w16: s.w16,
            surface: s.surface,
            u: vs.u32s("U", lanes)?,
            v: vs.opt_u32s("V", s.v, lanes)?,
            r: vs.opt_u32s("R", s.r, lanes)?,
            lod: vs.opt_u32s("LOD", s.lod, lanes)?,
            src0: vs.opt_u128s("Src0", s.src0, lanes)?,
            src1: vs.opt_u128s("Src1", s.src1, lanes)?,
        },
        Descriptor::SvmScatter(s) => Body::SvmScatter {
            block_size: s.block_size,
            num_blocks: s.num_blocks,
            addrs: vs.u64s("Addresses", lanes)?,
            src: vs.u64s("Src", scatter_src_len(s.block_size, s.num_blocks, exec.lanes))?,
        },
        Descriptor::PtxAtom(s) => {
            cache_hint_in_desc = s.cache_hint;
            Body::PtxAtom {
                sem: s.sem,
                scope: s.scope,
                space: s.space,
                op: s.op,
                noftz: s.noftz,
                cache_hint: payload.cache_policy.filter(|_| s.cache_hint),
                vec: s.vec,
                ty: s.ty,
                addrs: vs.u64s("A", lanes)?,
                b: vs.u128s("B", lanes)?,
                c: vs.opt_u128s("C", s.c, lanes)?,
            }
        }
    };
    vs.finish()?;
    match (cache_hint_in_desc, payload.cache_policy) {
        (true, None) => {
            return Err(DecodeError::mismatch("the descriptor has .L2::cache_hint, the payload no cache policy".to_string()))
        }
        (false, Some(p)) => {
            return Err(DecodeError::mismatch(format!(
                "the payload has cache policy 0x{p:x}, the descriptor no .L2::cache_hint"
            )))
        }
        _ => {}
    }
    let pred = match (d.pred(), &payload.pred_name) {
        (None, None) => {
            if payload.pred_mask != 0 {
                return Err(DecodeError::mismatch(format!(
                    "the descriptor has no predicate, the payload a predicate mask 0x{:x}",
                    payload.pred_mask
                )));
            }
            None
        }
        (Some(p), Some(name)) => Some(PredRef { name: name.clone(), negate: p.negate, mask: payload.pred_mask }),
        (Some(p), None) => {
            return Err(DecodeError::mismatch(format!("the descriptor has predicate P{}, the payload no predicate name", p.number)))
        }
        (None, Some(name)) => {
            return Err(DecodeError::mismatch(format!("the payload names predicate `{name}`, the descriptor has none")))
        }
    };
    let dst = match (d.dst(), &payload.dst_name) {
        (0, None) => None,
        (0, Some(name)) => {
            return Err(DecodeError::mismatch(format!("the payload names dst `{name}`, the descriptor's Dst is V0")))
        }
        (n, None) => return Err(DecodeError::mismatch(format!("the descriptor's Dst is %{n}, the payload has no dst name"))),
        (_, Some(name)) => Some(name.clone()),
    };
    Ok(Message {
        line: payload.line as usize,
        exec_size: exec.lanes,
        mask_ctrl: exec.mask_ctrl,
        pred,
        dmask: payload.dmask,
        dst,
        body,
    })
}
