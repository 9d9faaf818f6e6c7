//! `TypedAddr`: one step of the TYPED_ATOMIC address walk, and the address
//! and bounds check of the lane (scripts.md "Typed surface layout"; the
//! golden model's `golden::surface::typed_address`). Combinational; the walk
//! state (`level`, `level_base`) lives in the unit's registers.
//!
//! Element (u, v, r) of level l is at
//! `base + (level_base(l) + (r * rows_l + v) * width_l + u) * E`, where
//! `level_base(l)` sums `width_k * rows_k * slices_k` over the levels k < l,
//! and per kind:
//!
//! | kind (`req_surf_kind`) | rows_l (V)   | slices_l (R) |
//! | ---------------------- | ------------ | ------------ |
//! | 0 1d                   | 1            | 1            |
//! | 1 1d_array             | array        | 1            |
//! | 2 2d                   | max(1, H>>l) | 1            |
//! | 3 2d_array             | max(1, H>>l) | array        |
//! | 4 3d                   | max(1, H>>l) | max(1, D>>l) |
//!
//! with `width_l = max(1, W >> l)` and E = 2 (u16) or 4 (u32). A coordinate
//! at or past its extent, or `lod >= levels`, is out of bounds.
//!
//! The walk: while `level < lod` the unit loads `next_level`/`next_level_base`
//! each cycle (one level per cycle); once width and the halving extents are
//! all 1, every further level has the same size and the rest are added in
//! one step, so a lane costs at most 33 walk cycles for any 32-bit extent
//! (`lod` <= 32 levels in practice: scripts allow `levels` <= 32). When
//! `level == lod` (`ready`), `addr` is valid: a lane with lod 0 costs no
//! extra cycle. Two 64-bit shift-add multipliers serve every step.

use rust_hdl::prelude::*;

use crate::extend::ZeroExtend;

/// Bits of a coordinate, an extent, a level count (the unit's ports).
pub const COORD_BITS: usize = 32;
/// Bits of the address math.
pub const WIDE_BITS: usize = 64;
/// `req_surf_kind` codes of the typed kinds (`program::TypedKind` discriminants).
pub const KIND_1D: u8 = 0;
pub const KIND_1D_ARRAY: u8 = 1;
pub const KIND_2D: u8 = 2;
pub const KIND_2D_ARRAY: u8 = 3;
pub const KIND_3D: u8 = 4;

/// One step of the typed-surface address walk (combinational).
#[derive(LogicBlock)]
pub struct TypedAddr {
    // ---- walk state (the unit's registers) ----
    /// The level whose size is added next (= lod when done).
    pub level: Signal<In, Bits<WIDE_BITS>>,
    /// Elements in the levels below `level`.
    pub level_base: Signal<In, Bits<WIDE_BITS>>,

    // ---- the lane ----
    pub coord_u: Signal<In, Bits<COORD_BITS>>,
    pub coord_v: Signal<In, Bits<COORD_BITS>>,
    pub coord_r: Signal<In, Bits<COORD_BITS>>,
    pub coord_lod: Signal<In, Bits<COORD_BITS>>,

    // ---- the surface ----
    /// 0..=4: 1d, 1d_array, 2d, 2d_array, 3d
    pub surf_kind: Signal<In, Bits<3>>,
    pub surf_base: Signal<In, Bits<WIDE_BITS>>,
    pub surf_width: Signal<In, Bits<COORD_BITS>>,
    pub surf_height: Signal<In, Bits<COORD_BITS>>,
    pub surf_depth: Signal<In, Bits<COORD_BITS>>,
    pub surf_array: Signal<In, Bits<COORD_BITS>>,
    pub surf_levels: Signal<In, Bits<COORD_BITS>>,
    /// `format=u16`: 2-byte elements (else 4)
    pub surf_u16: Signal<In, Bit>,

    // ---- result ----
    /// The walk is done (`level == lod`) or `lod` is out of range: `addr`
    /// and `out_of_bounds` hold for the lane.
    pub ready: Signal<Out, Bit>,
    pub addr: Signal<Out, Bits<WIDE_BITS>>,
    pub out_of_bounds: Signal<Out, Bit>,
    /// The walk state after this cycle's step (unchanged when `ready`).
    pub next_level: Signal<Out, Bits<WIDE_BITS>>,
    pub next_level_base: Signal<Out, Bits<WIDE_BITS>>,

    // ---- widened inputs ----
    wide_u: ZeroExtend<COORD_BITS, WIDE_BITS>,
    wide_v: ZeroExtend<COORD_BITS, WIDE_BITS>,
    wide_r: ZeroExtend<COORD_BITS, WIDE_BITS>,
    wide_lod: ZeroExtend<COORD_BITS, WIDE_BITS>,
    wide_width: ZeroExtend<COORD_BITS, WIDE_BITS>,
    wide_height: ZeroExtend<COORD_BITS, WIDE_BITS>,
    wide_depth: ZeroExtend<COORD_BITS, WIDE_BITS>,
    wide_array: ZeroExtend<COORD_BITS, WIDE_BITS>,
    wide_levels: ZeroExtend<COORD_BITS, WIDE_BITS>,

    // ---- constants ----
    kind_1d: Constant<Bits<3>>,
    kind_1d_array: Constant<Bits<3>>,
    kind_2d_array: Constant<Bits<3>>,
    kind_3d: Constant<Bits<3>>,
    one: Constant<Bits<WIDE_BITS>>,
    zero: Constant<Bits<WIDE_BITS>>,

    // ---- locals (named for waveforms) ----
    /// max(1, W >> level), and the same for H and D
    width_at: Signal<Local, Bits<WIDE_BITS>>,
    height_at: Signal<Local, Bits<WIDE_BITS>>,
    depth_at: Signal<Local, Bits<WIDE_BITS>>,
    rows_at: Signal<Local, Bits<WIDE_BITS>>,
    slices_at: Signal<Local, Bits<WIDE_BITS>>,
    /// every level from `level` on has the size of `level`
    sizes_constant: Signal<Local, Bit>,
    lod_out_of_range: Signal<Local, Bit>,
    at_lod: Signal<Local, Bit>,
    /// first multiplier: `first_a * first_b + first_c`
    first_a: Signal<Local, Bits<WIDE_BITS>>,
    first_b: Signal<Local, Bits<WIDE_BITS>>,
    first_c: Signal<Local, Bits<WIDE_BITS>>,
    /// second multiplier: `first product * second_b + second_c`
    second_b: Signal<Local, Bits<WIDE_BITS>>,
    second_c: Signal<Local, Bits<WIDE_BITS>>,
    /// shift-add arrays: `*_sum[k]` = c + a * (b mod 2^k), `*_shifted[k]` = a << k
    first_sum: [Signal<Local, Bits<WIDE_BITS>>; WIDE_BITS + 1],
    first_shifted: [Signal<Local, Bits<WIDE_BITS>>; WIDE_BITS],
    second_sum: [Signal<Local, Bits<WIDE_BITS>>; WIDE_BITS + 1],
    second_shifted: [Signal<Local, Bits<WIDE_BITS>>; WIDE_BITS],
    /// the element's index from the surface base (at lod)
    element_index: Signal<Local, Bits<WIDE_BITS>>,
}

impl Default for TypedAddr {
    fn default() -> Self {
        let k = |v: u8| Constant::new(v.to_bits());
        Self {
            level: Default::default(),
            level_base: Default::default(),
            coord_u: Default::default(),
            coord_v: Default::default(),
            coord_r: Default::default(),
            coord_lod: Default::default(),
            surf_kind: Default::default(),
            surf_base: Default::default(),
            surf_width: Default::default(),
            surf_height: Default::default(),
            surf_depth: Default::default(),
            surf_array: Default::default(),
            surf_levels: Default::default(),
            surf_u16: Default::default(),
            ready: Default::default(),
            addr: Default::default(),
            out_of_bounds: Default::default(),
            next_level: Default::default(),
            next_level_base: Default::default(),
            wide_u: Default::default(),
            wide_v: Default::default(),
            wide_r: Default::default(),
            wide_lod: Default::default(),
            wide_width: Default::default(),
            wide_height: Default::default(),
            wide_depth: Default::default(),
            wide_array: Default::default(),
            wide_levels: Default::default(),
            kind_1d: k(KIND_1D),
            kind_1d_array: k(KIND_1D_ARRAY),
            kind_2d_array: k(KIND_2D_ARRAY),
            kind_3d: k(KIND_3D),
            one: Constant::new(1u64.to_bits()),
            zero: Constant::new(0u64.to_bits()),
            width_at: Default::default(),
            height_at: Default::default(),
            depth_at: Default::default(),
            rows_at: Default::default(),
            slices_at: Default::default(),
            sizes_constant: Default::default(),
            lod_out_of_range: Default::default(),
            at_lod: Default::default(),
            first_a: Default::default(),
            first_b: Default::default(),
            first_c: Default::default(),
            second_b: Default::default(),
            second_c: Default::default(),
            first_sum: core::array::from_fn(|_| Default::default()),
            first_shifted: core::array::from_fn(|_| Default::default()),
            second_sum: core::array::from_fn(|_| Default::default()),
            second_shifted: core::array::from_fn(|_| Default::default()),
            element_index: Default::default(),
        }
    }
}

impl Logic for TypedAddr {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- widen the 32-bit inputs (wiring only: see unit.rs "Verilator") ----
        self.wide_u.narrow.next = self.coord_u.val();
        self.wide_v.narrow.next = self.coord_v.val();
        self.wide_r.narrow.next = self.coord_r.val();
        self.wide_lod.narrow.next = self.coord_lod.val();
        self.wide_width.narrow.next = self.surf_width.val();
        self.wide_height.narrow.next = self.surf_height.val();
        self.wide_depth.narrow.next = self.surf_depth.val();
        self.wide_array.narrow.next = self.surf_array.val();
        self.wide_levels.narrow.next = self.surf_levels.val();

        // ---- extents at the current level ----
        self.width_at.next = self.wide_width.wide.val() >> self.level.val();
        if !self.width_at.val().any() {
            self.width_at.next = self.one.val();
        }
        self.height_at.next = self.wide_height.wide.val() >> self.level.val();
        if !self.height_at.val().any() {
            self.height_at.next = self.one.val();
        }
        self.depth_at.next = self.wide_depth.wide.val() >> self.level.val();
        if !self.depth_at.val().any() {
            self.depth_at.next = self.one.val();
        }
        self.rows_at.next = self.height_at.val();
        self.slices_at.next = self.one.val();
        self.sizes_constant.next = (self.width_at.val() == self.one.val()) & (self.height_at.val() == self.one.val());
        if self.surf_kind.val() == self.kind_1d.val() {
            self.rows_at.next = self.one.val();
            self.sizes_constant.next = self.width_at.val() == self.one.val();
        }
        if self.surf_kind.val() == self.kind_1d_array.val() {
            self.rows_at.next = self.wide_array.wide.val();
            self.sizes_constant.next = self.width_at.val() == self.one.val();
        }
        if self.surf_kind.val() == self.kind_2d_array.val() {
            self.slices_at.next = self.wide_array.wide.val();
        }
        if self.surf_kind.val() == self.kind_3d.val() {
            self.slices_at.next = self.depth_at.val();
            self.sizes_constant.next = ((self.width_at.val() == self.one.val())
                & (self.height_at.val() == self.one.val()))
                & (self.depth_at.val() == self.one.val());
        }
        self.lod_out_of_range.next = self.wide_lod.wide.val() >= self.wide_levels.wide.val();
        self.at_lod.next = self.level.val() == self.wide_lod.wide.val();

        // ---- multiplier operands ----
        // walk step:  level_base + (width * rows) * slices
        // bulk step:  level_base + (rows * slices) * (lod - level)
        // at lod:     level_base + u + (r * rows + v) * width
        self.first_a.next = self.width_at.val();
        self.first_b.next = self.rows_at.val();
        self.first_c.next = self.zero.val();
        self.second_b.next = self.slices_at.val();
        self.second_c.next = self.level_base.val();
        if self.sizes_constant.val() {
            self.first_a.next = self.rows_at.val();
            self.first_b.next = self.slices_at.val();
            self.second_b.next = self.wide_lod.wide.val() - self.level.val();
        }
        if self.at_lod.val() {
            self.first_a.next = self.wide_r.wide.val();
            self.first_b.next = self.rows_at.val();
            self.first_c.next = self.wide_v.wide.val();
            self.second_b.next = self.width_at.val();
            self.second_c.next = self.level_base.val() + self.wide_u.wide.val();
        }

        // ---- the two shift-add multipliers (mod 2^64) ----
        self.first_sum[0].next = self.first_c.val();
        self.first_shifted[0].next = self.first_a.val();
        for k in 1..WIDE_BITS {
            self.first_shifted[k].next = self.first_shifted[k - 1].val() << 1;
        }
        for k in 0..WIDE_BITS {
            self.first_sum[k + 1].next = self.first_sum[k].val();
            if self.first_b.val().get_bit(k) {
                self.first_sum[k + 1].next = self.first_sum[k].val() + self.first_shifted[k].val();
            }
        }
        // index 64 = WIDE_BITS (array indexes in hdl code are literals or loop indexes)
        self.second_sum[0].next = self.second_c.val();
        self.second_shifted[0].next = self.first_sum[64].val();
        for k in 1..WIDE_BITS {
            self.second_shifted[k].next = self.second_shifted[k - 1].val() << 1;
        }
        for k in 0..WIDE_BITS {
            self.second_sum[k + 1].next = self.second_sum[k].val();
            if self.second_b.val().get_bit(k) {
                self.second_sum[k + 1].next = self.second_sum[k].val() + self.second_shifted[k].val();
            }
        }
        self.element_index.next = self.second_sum[64].val();

        // ---- result ----
        self.addr.next = self.surf_base.val() + (self.element_index.val() << 2);
        if self.surf_u16.val() {
            self.addr.next = self.surf_base.val() + (self.element_index.val() << 1);
        }
        self.out_of_bounds.next = self.lod_out_of_range.val()
            | (self.wide_u.wide.val() >= self.width_at.val())
            | (self.wide_v.wide.val() >= self.rows_at.val())
            | (self.wide_r.wide.val() >= self.slices_at.val());
        self.ready.next = self.at_lod.val() | self.lod_out_of_range.val();
        self.next_level.next = self.level.val();
        self.next_level_base.next = self.level_base.val();
        if !self.ready.val() {
            self.next_level_base.next = self.element_index.val();
            self.next_level.next = self.level.val() + self.one.val();
            if self.sizes_constant.val() {
                self.next_level.next = self.wide_lod.wide.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_addr_synthesizes() {
        let mut uut = TypedAddr::default();
        uut.connect_all();
        yosys_validate("atomport_typed_addr", &generate_verilog(&uut)).unwrap();
    }
}
