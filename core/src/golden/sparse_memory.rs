//! Sparse byte-addressed memory over a 64-bit address space: 4 KiB pages
//! created on first write, untouched bytes read as zero. The golden model
//! keeps one for flat memory and one for SLM.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// log2 of the page size.
pub const PAGE_BITS: u32 = 12;
/// Bytes per page.
pub const PAGE_BYTES: usize = 1 << PAGE_BITS;
const OFFSET_MASK: u64 = PAGE_BYTES as u64 - 1;

/// One page of bytes.
pub type Page = [u8; PAGE_BYTES];

/// A multiplicative (Fibonacci) hash for page numbers: page keys are small
/// and often consecutive, so SipHash's strength is wasted on the hot path.
#[derive(Default)]
pub struct PageHasher(u64);

impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, page: u64) {
        self.0 = (page ^ (page >> 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(26);
    }
}

/// Sparse memory: page number -> page.
#[derive(Clone, Default)]
pub struct Memory {
    pages: HashMap<u64, Box<Page>, BuildHasherDefault<PageHasher>>,
}

impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Memory({} pages)", self.pages.len())
    }
}

/// Does `[addr, addr + len)` stay inside one page (no wrap past 2^64)?
#[inline]
fn in_one_page(addr: u64, len: u64) -> bool {
    (addr & OFFSET_MASK) + len <= PAGE_BYTES as u64
}

/// The little-endian value of `len` bytes at `off` (fixed-size copies for
/// the access sizes, so the hot path makes no `memcpy` call).
#[inline(always)]
fn get_le(page: &Page, off: usize, len: u32) -> u128 {
    match len {
        1 => page[off] as u128,
        2 => u16::from_le_bytes(page[off..off + 2].try_into().unwrap()) as u128,
        4 => u32::from_le_bytes(page[off..off + 4].try_into().unwrap()) as u128,
        8 => u64::from_le_bytes(page[off..off + 8].try_into().unwrap()) as u128,
        16 => u128::from_le_bytes(page[off..off + 16].try_into().unwrap()),
        _ => {
            let mut buf = [0u8; 16];
            buf[..len as usize].copy_from_slice(&page[off..off + len as usize]);
            u128::from_le_bytes(buf)
        }
    }
}

/// Store the low `len` bytes of `value` at `off`, little-endian.
#[inline(always)]
fn put_le(page: &mut Page, off: usize, len: u32, value: u128) {
    match len {
        1 => page[off] = value as u8,
        2 => page[off..off + 2].copy_from_slice(&(value as u16).to_le_bytes()),
        4 => page[off..off + 4].copy_from_slice(&(value as u32).to_le_bytes()),
        8 => page[off..off + 8].copy_from_slice(&(value as u64).to_le_bytes()),
        16 => page[off..off + 16].copy_from_slice(&value.to_le_bytes()),
        _ => page[off..off + len as usize].copy_from_slice(&value.to_le_bytes()[..len as usize]),
    }
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// One byte; zero if never written.
    pub fn byte(&self, addr: u64) -> u8 {
        self.pages.get(&(addr >> PAGE_BITS)).map_or(0, |p| p[(addr & OFFSET_MASK) as usize])
    }

    fn page_mut(&mut self, page: u64) -> &mut Page {
        self.pages.entry(page).or_insert_with(|| Box::new([0; PAGE_BYTES]))
    }

    pub fn set_byte(&mut self, addr: u64, value: u8) {
        self.page_mut(addr >> PAGE_BITS)[(addr & OFFSET_MASK) as usize] = value;
    }

    /// `len` bytes from `addr` (wrapping past 2^64), untouched bytes zero.
    pub fn read(&self, addr: u64, len: u64) -> Vec<u8> {
        (0..len).map(|i| self.byte(addr.wrapping_add(i))).collect()
    }

    /// Store `bytes` from `addr` (wrapping past 2^64).
    pub fn write(&mut self, addr: u64, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            self.set_byte(addr.wrapping_add(i as u64), b);
        }
    }

    /// A little-endian value of `len` (1..=16) bytes.
    #[inline]
    pub fn load(&self, addr: u64, len: u32) -> u128 {
        if in_one_page(addr, len as u64) {
            return self.pages.get(&(addr >> PAGE_BITS)).map_or(0, |p| get_le(p, (addr & OFFSET_MASK) as usize, len));
        }
        let mut buf = [0u8; 16];
        for (i, b) in buf.iter_mut().take(len as usize).enumerate() {
            *b = self.byte(addr.wrapping_add(i as u64));
        }
        u128::from_le_bytes(buf)
    }

    /// Store the low `len` (1..=16) bytes of `value`, little-endian.
    #[inline]
    pub fn store(&mut self, addr: u64, len: u32, value: u128) {
        if in_one_page(addr, len as u64) {
            put_le(self.page_mut(addr >> PAGE_BITS), (addr & OFFSET_MASK) as usize, len, value);
        } else {
            self.write(addr, &value.to_le_bytes()[..len as usize]);
        }
    }

    /// Read-modify-write of one `len`-byte value with one page lookup:
    /// `f(old)` is stored; returns what `f` returned.
    #[inline]
    pub fn update<R>(&mut self, addr: u64, len: u32, f: impl FnOnce(u128) -> (u128, R)) -> R {
        if in_one_page(addr, len as u64) {
            let off = (addr & OFFSET_MASK) as usize;
            let page = self.page_mut(addr >> PAGE_BITS);
            let (new, r) = f(get_le(page, off, len));
            put_le(page, off, len, new);
            r
        } else {
            let (new, r) = f(self.load(addr, len));
            self.store(addr, len, new);
            r
        }
    }

    /// Every page ever written, in address order: (first address, bytes).
    /// Bytes never written read as zero within a page.
    pub fn pages(&self) -> Vec<(u64, &Page)> {
        let mut v: Vec<(u64, &Page)> = self.pages.iter().map(|(&n, p)| (n << PAGE_BITS, &**p)).collect();
        v.sort_unstable_by_key(|&(a, _)| a);
        v
    }

    /// Every nonzero byte, in address order: the content of this memory,
    /// independent of which pages happen to exist.
    pub fn nonzero_bytes(&self) -> Vec<(u64, u8)> {
        self.pages()
            .into_iter()
            .flat_map(|(base, p)| {
                p.iter().enumerate().filter(|(_, &b)| b != 0).map(move |(i, &b)| (base + i as u64, b))
            })
            .collect()
    }
}
