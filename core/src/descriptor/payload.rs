//! The payload that travels beside a descriptor: the per-lane operand
//! values, the predicate and dispatch masks, the cache policy, and a symbol
//! section (line, dst name, predicate name) so that the text round-trips.
//! Byte layout: docs/descriptors.md, "Payload".

use super::DecodeError;

/// One input operand's values, a lane's values as the `Message` holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneVector {
    /// Element_offset, U, V, R, LOD
    U32(Vec<u32>),
    /// Addresses, PTX A, SVM_SCATTER Src (block values zero-extended)
    U64(Vec<u64>),
    /// Src0, Src1, PTX B and C (raw bits)
    U128(Vec<u128>),
}

impl LaneVector {
    /// Element size in bytes: 4, 8 or 16.
    pub fn elem_bytes(&self) -> usize {
        match self {
            LaneVector::U32(_) => 4,
            LaneVector::U64(_) => 8,
            LaneVector::U128(_) => 16,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            LaneVector::U32(v) => v.len(),
            LaneVector::U64(v) => v.len(),
            LaneVector::U128(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `u32`, `u64` or `u128`, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            LaneVector::U32(_) => "u32",
            LaneVector::U64(_) => "u64",
            LaneVector::U128(_) => "u128",
        }
    }
}

/// The most lane vectors a descriptor references (TYPED_ATOMIC: U V R LOD
/// Src0 Src1).
pub const MAX_VECTORS: usize = 6;

/// A message's payload (docs/descriptors.md, "Payload").
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Payload {
    /// the input lane vectors, one per non-null input lane-vector field, in
    /// field order
    pub operands: Vec<LaneVector>,
    /// the predicate's mask value when the message was issued (0 without)
    pub pred_mask: u32,
    /// the dmask in force when the message was issued
    pub dmask: u32,
    /// PTX `.L2::cache_hint` cache-policy operand
    pub cache_policy: Option<u64>,
    /// symbol section: the statement's 1-based line
    pub line: u32,
    /// symbol section: the dst / d name (None = V0)
    pub dst_name: Option<String>,
    /// symbol section: the predicate's name
    pub pred_name: Option<String>,
}

impl Payload {
    /// Little-endian bytes. Counts and name lengths must fit a byte
    /// ([`super::encode`] checks this for every payload it makes).
    pub fn to_bytes(&self) -> Vec<u8> {
        assert!(self.operands.len() <= MAX_VECTORS, "payload holds at most {MAX_VECTORS} lane vectors");
        let mut out = vec![self.operands.len() as u8];
        for v in &self.operands {
            assert!((1..=255).contains(&v.len()), "a payload lane vector holds 1..=255 elements");
            out.push(v.elem_bytes() as u8);
            out.push(v.len() as u8);
            match v {
                LaneVector::U32(xs) => xs.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
                LaneVector::U64(xs) => xs.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
                LaneVector::U128(xs) => xs.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            }
        }
        out.extend_from_slice(&self.pred_mask.to_le_bytes());
        out.extend_from_slice(&self.dmask.to_le_bytes());
        match self.cache_policy {
            None => out.push(0),
            Some(p) => {
                out.push(1);
                out.extend_from_slice(&p.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.line.to_le_bytes());
        for name in [&self.dst_name, &self.pred_name] {
            let name = name.as_deref().unwrap_or("");
            assert!(name.len() <= 255, "payload names are at most 255 bytes");
            out.push(name.len() as u8);
            out.extend_from_slice(name.as_bytes());
        }
        out
    }

    /// Parses [`Payload::to_bytes`]'s layout; errors name the payload byte.
    pub fn from_bytes(bytes: &[u8]) -> Result<Payload, DecodeError> {
        let mut r = Reader { bytes, at: 0 };
        let count = r.u8("vector count")? as usize;
        if count > MAX_VECTORS {
            return Err(DecodeError::payload(0, format!("vector count {count}: a payload holds at most {MAX_VECTORS}")));
        }
        let mut operands = Vec::with_capacity(count);
        for i in 0..count {
            let at = r.at;
            let elem = r.u8("element size")?;
            let len_at = r.at;
            let len = r.u8("element count")? as usize;
            if len == 0 {
                return Err(DecodeError::payload(len_at, format!("vector {}: element count 0 (a lane vector has 1..255)", i + 1)));
            }
            let data = r.take(len * elem as usize, "vector elements");
            let v = match elem {
                4 => LaneVector::U32(data?.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()),
                8 => LaneVector::U64(data?.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()),
                16 => LaneVector::U128(data?.chunks(16).map(|c| u128::from_le_bytes(c.try_into().unwrap())).collect()),
                e => {
                    return Err(DecodeError::payload(at, format!("vector {}: element size {e} (4, 8 or 16 bytes are defined)", i + 1)))
                }
            };
            operands.push(v);
        }
        let pred_mask = r.u32("pred mask")?;
        let dmask = r.u32("dmask")?;
        let flag_at = r.at;
        let cache_policy = match r.u8("cache-policy flag")? {
            0 => None,
            1 => Some(u64::from_le_bytes(r.take(8, "cache policy")?.try_into().unwrap())),
            f => return Err(DecodeError::payload(flag_at, format!("cache-policy flag {f} (0 or 1)"))),
        };
        let line = r.u32("line")?;
        let dst_name = r.name("dst name")?;
        let pred_name = r.name("predicate name")?;
        if r.at != bytes.len() {
            return Err(DecodeError::payload(r.at, format!("{} trailing bytes after the symbol section", bytes.len() - r.at)));
        }
        Ok(Payload { operands, pred_mask, dmask, cache_policy, line, dst_name, pred_name })
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        if self.at + n > self.bytes.len() {
            return Err(DecodeError::payload(
                self.bytes.len(),
                format!("payload truncated in the {what}: needs {} bytes from byte {}, has {}", n, self.at, self.bytes.len() - self.at),
            ));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u8(&mut self, what: &str) -> Result<u8, DecodeError> {
        Ok(self.take(1, what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }

    fn name(&mut self, what: &str) -> Result<Option<String>, DecodeError> {
        let len = self.u8(what)? as usize;
        let at = self.at;
        let raw = self.take(len, what)?;
        if len == 0 {
            return Ok(None);
        }
        String::from_utf8(raw.to_vec())
            .map(Some)
            .map_err(|_| DecodeError::payload(at, format!("{what} is not UTF-8")))
    }
}
