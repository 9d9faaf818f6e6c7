//! Where a lane's access lands: surface / space resolution and bounds
//! (scripts.md "Memory and state statements", "Typed surface layout" and
//! "Semantics that the seeds leave open").
//!
//! Every function returns `Some((space, address))` for an in-bounds access
//! and `None` for an out-of-bounds one (no memory transaction, result 0,
//! write dropped).

use crate::message::DwordSurface;
use crate::program::{Space, Surface, TypedKind, TypedSurface};

/// The surfaces a program declares, indexed by surface number for the hot
/// path (surface numbers are one byte).
#[derive(Clone, Debug)]
pub struct SurfaceTable {
    by_index: Vec<Option<Surface>>,
    /// SLM size in bytes (`slm size`)
    pub slm_size: u64,
}

impl SurfaceTable {
    pub fn new(surfaces: &std::collections::BTreeMap<u8, Surface>, slm_size: u32) -> SurfaceTable {
        let mut by_index = vec![None; 256];
        for (&n, s) in surfaces {
            by_index[n as usize] = Some(*s);
        }
        SurfaceTable { by_index, slm_size: slm_size as u64 }
    }

    pub fn get(&self, index: u8) -> Option<&Surface> {
        self.by_index[index as usize].as_ref()
    }

    /// An SLM access of `bytes` at `offset`: out of bounds when
    /// offset + bytes > slm size.
    #[inline]
    pub fn slm(&self, offset: u64, bytes: u32) -> Option<(Space, u64)> {
        let end = offset as u128 + bytes as u128;
        (end <= self.slm_size as u128).then_some((Space::Slm, offset))
    }

    /// A DWORD_ATOMIC access: T0 is SLM, T255 is flat memory at the offset
    /// (no bounds), buffer n is flat memory at base + offset, out of bounds
    /// when offset + bytes > size. A surface number with no `buffer`
    /// statement behind it (the parser rejects those) is all out of bounds.
    #[inline]
    pub fn dword(&self, surface: DwordSurface, offset: u32, bytes: u32) -> Option<(Space, u64)> {
        match surface {
            DwordSurface::Slm => self.slm(offset as u64, bytes),
            DwordSurface::Stateless => Some((Space::Flat, offset as u64)),
            DwordSurface::Buffer(n) => match self.get(n) {
                Some(Surface::Buffer { base, size }) => {
                    let end = offset as u64 + bytes as u64;
                    (end <= *size).then_some((Space::Flat, base.wrapping_add(offset as u64)))
                }
                _ => None,
            },
        }
    }

    /// A TYPED_ATOMIC access to element (u, v, r) of level `lod`; None
    /// when the surface is not typed or the element is out of bounds.
    #[inline]
    pub fn typed(&self, surface: u8, u: u32, v: u32, r: u32, lod: u32) -> Option<(Space, u64)> {
        match self.get(surface) {
            Some(Surface::Typed(t)) => typed_address(t, u, v, r, lod).map(|a| (Space::Flat, a)),
            _ => None,
        }
    }
}

/// The extent of a typed surface at one mip level: (width, rows, slices),
/// where rows is what V indexes and slices what R indexes.
///
/// | kind     | V indexes   | R indexes   |
/// | -------- | ----------- | ----------- |
/// | 1d       | - (1)       | - (1)       |
/// | 1d_array | array index | - (1)       |
/// | 2d       | y (height)  | - (1)       |
/// | 2d_array | y (height)  | array index |
/// | 3d       | y (height)  | z (depth)   |
///
/// Width, height and depth halve per level, never below 1; the array size
/// does not change.
pub fn level_extent(t: &TypedSurface, level: u32) -> (u64, u64, u64) {
    let halve = |x: u32| (x.checked_shr(level).unwrap_or(0)).max(1) as u64;
    let w = halve(t.width);
    let (rows, slices) = match t.kind {
        TypedKind::D1 => (1, 1),
        TypedKind::D1Array => (t.array as u64, 1),
        TypedKind::D2 => (halve(t.height), 1),
        TypedKind::D2Array => (halve(t.height), t.array as u64),
        TypedKind::D3 => (halve(t.height), halve(t.depth)),
    };
    (w, rows, slices)
}

/// Bytes per element: 4 for u32, 2 for u16.
pub fn element_bytes(t: &TypedSurface) -> u64 {
    match t.format {
        crate::program::TypedFormat::U32 => 4,
        crate::program::TypedFormat::U16 => 2,
    }
}

/// The flat address of element (u, v, r) of level `lod`, or None when a
/// coordinate is at or past its dimension or `lod` at or past `levels`.
/// Level l starts right after level l-1; within a level the element is at
/// ((r * rows + v) * width + u) * E (scripts.md "Typed surface layout").
pub fn typed_address(t: &TypedSurface, u: u32, v: u32, r: u32, lod: u32) -> Option<u64> {
    if lod >= t.levels {
        return None;
    }
    let (w, rows, slices) = level_extent(t, lod);
    if u as u64 >= w || v as u64 >= rows || r as u64 >= slices {
        return None;
    }
    let e = element_bytes(t) as u128;
    let level_base: u128 = (0..lod)
        .map(|l| {
            let (w, rows, slices) = level_extent(t, l);
            w as u128 * rows as u128 * slices as u128 * e
        })
        .sum();
    let index = (r as u128 * rows as u128 + v as u128) * w as u128 + u as u128;
    Some(t.base.wrapping_add((level_base + index * e) as u64))
}
