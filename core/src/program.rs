//! A parsed, validated script: the state statements and the messages in
//! script order. Produced by [`crate::script::parse`], consumed by the
//! engines.

use crate::message::Message;

/// Flat memory or shared local memory (surface T0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    Flat,
    Slm,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Flat => "flat",
            Space::Slm => "slm",
        }
    }
}

/// Typed surface kinds (scripts.md `surface <n> <kind>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypedKind {
    D1 = 0,
    D1Array = 1,
    D2 = 2,
    D2Array = 3,
    D3 = 4,
}

/// Element format of a typed surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypedFormat {
    U32,
    U16,
}

/// A typed surface over flat memory. Layout (scripts.md): element (u, v, r)
/// of level 0 is at `base + ((r*H + v)*W + u)*E`; level l follows level l-1
/// with W, H, D halved (never below 1), the array size unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedSurface {
    pub kind: TypedKind,
    pub base: u64,
    pub width: u32,
    /// 1 unless given
    pub height: u32,
    /// 1 unless given
    pub depth: u32,
    /// 1 unless given
    pub array: u32,
    /// 1 unless given
    pub levels: u32,
    pub format: TypedFormat,
}

impl TypedSurface {
    /// The bytes its levels cover together, saturating: the surface fits
    /// the 64-bit address space when `base + bytes() <= 2^64`.
    pub fn bytes(&self) -> u128 {
        let elem = if self.format == TypedFormat::U16 { 2u128 } else { 4 };
        let (mut w, mut h, mut d) = (self.width as u128, self.height as u128, self.depth as u128);
        let mut total = 0u128;
        for _ in 0..self.levels {
            // w*h*d*array < 2^128, but times the element size it can overflow
            total = total.saturating_add((w * h * d * self.array as u128).saturating_mul(elem));
            w = (w / 2).max(1);
            h = (h / 2).max(1);
            d = (d / 2).max(1);
        }
        total
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    Buffer { base: u64, size: u64 },
    Typed(TypedSurface),
}

/// One statement that acts when the script runs, in script order.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `mem.<t>` / `slm.<t>`: bytes stored little-endian from `addr`
    Init { line: usize, space: Space, addr: u64, bytes: Vec<u8> },
    Message(Message),
    /// `dump`: reported after all messages ran
    Dump { line: usize, space: Space, addr: u64, len: u64 },
}

/// A whole validated script.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// the path as given on the command line (for diagnostics)
    pub file: String,
    /// `slm size`, default 65536
    pub slm_size: u32,
    /// surfaces by index (1..=254); T0 and T255 are implicit
    pub surfaces: std::collections::BTreeMap<u8, Surface>,
    pub stmts: Vec<Stmt>,
}

impl Program {
    pub fn messages(&self) -> impl Iterator<Item = &Message> {
        self.stmts.iter().filter_map(|s| match s {
            Stmt::Message(m) => Some(m),
            _ => None,
        })
    }
}
