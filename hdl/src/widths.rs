//! The widths shared by the unit's blocks (both units, their leaf blocks
//! and the ALU's lane): one table, so a port and the block reading it
//! cannot disagree. Values that belong to one block stay in its file.

/// Bits of the descriptor port (16 bytes).
pub const DESC_BITS: usize = 128;
/// Bits of an element-size code: log2 of the element (or scatter block) bytes, 0..=4.
pub const SIZE_BITS: usize = 3;
/// Bits of an element index inside a lane (PTX `.v8`, 8 scatter blocks).
pub const ELEM_BITS: usize = 3;
/// Bits of the unit's surface-kind port (`req_surf_kind`).
pub const SURF_KIND_BITS: usize = 3;
/// Bits of an address: a lane's (`pay_addr`), a memory line's (`mem_*_addr`),
/// the typed address math's.
pub const ADDR_BITS: usize = 64;
/// Bits of a 16-byte line (`mem_rdata`, `mem_wr_data`).
pub const LINE_BITS: usize = 128;
/// Bytes of a line (`mem_rd_be`, `mem_wr_be`).
pub const LINE_BYTES: usize = LINE_BITS / 8;
/// Bits of a bit offset inside a line (0..=120).
pub const LINE_BIT_OFFSET_BITS: usize = 7;
/// Bits of one lane's operand.
pub const DATA_BITS: usize = 128;
/// Bits of one lane's source operand (`pay_src0`, `pay_src1`) and of one coordinate set (`pay_coord`).
pub const LANE_DATA_BITS: usize = 128;
/// Bits of the element's bit offset in the lane's 256-bit {src1, src0}.
pub const ELEM_SHIFT_BITS: usize = 8;
/// Bits of a coordinate, an extent, a level count (the unit's ports).
pub const COORD_BITS: usize = 32;
/// Bits of the coordinates the issue stage reads: {r, v, u} (the
/// lane's `lod` is registered as it enters, `LaneCoordReg`).
pub const UVR_BITS: usize = 3 * COORD_BITS;
/// Bits of one word.
pub const WORD_BITS: usize = 32;
/// Lanes per message (DWORD_ATOMIC and PTX warps go up to 32).
pub const MAX_LANES: usize = 32;
/// Bits of a lane number.
pub const LANE_BITS: usize = 5;
