//! `TypedAddr`: the flat address and the bounds check of one TYPED_ATOMIC
//! lane (scripts.md "Typed surface layout"; the golden model's
//! `golden::surface::typed_address`).
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
//! Sequencing: one level per cycle. `level` walks from 0 up to the lane's
//! `lod`, adding each level's size to `level_base`; once width and the
//! halving extents have all reached 1, every further level has the same
//! size and the rest are added in one step (so at most 33 walk cycles for
//! any 32-bit extent). In the cycle `level == lod` the address is ready,
//! combinationally: a lane with lod 0 costs no extra cycle. Two `MulAdd`
//! arrays serve every step.

use rust_hdl::prelude::*;

use crate::extend::ZeroExtend;
use crate::mul::MulAdd;

/// Bits of a coordinate, an extent, a level count.
pub const COORD_BITS: usize = 32;
/// Bits of an address.
pub const TYPED_ADDR_BITS: usize = 64;
/// `req_surf_kind` codes of the typed kinds (`program::TypedKind` discriminants).
pub const KIND_1D: u8 = 0;
pub const KIND_1D_ARRAY: u8 = 1;
pub const KIND_2D: u8 = 2;
pub const KIND_2D_ARRAY: u8 = 3;
pub const KIND_3D: u8 = 4;

/// Walks the mip levels below a lane's LOD and forms its address.
#[derive(LogicBlock)]
pub struct TypedAddr {
    pub clock: Signal<In, Clock>,
    /// Synchronous: back to level 0.
    pub reset: Signal<In, Bit>,

    // ---- control ----
    /// A typed lane is waiting for its address (hold the lane's inputs stable).
    pub active: Signal<In, Bit>,
    /// The unit took the lane this cycle: start over for the next one.
    pub advance: Signal<In, Bit>,

    // ---- the lane ----
    pub u: Signal<In, Bits<COORD_BITS>>,
    pub v: Signal<In, Bits<COORD_BITS>>,
    pub r: Signal<In, Bits<COORD_BITS>>,
    pub lod: Signal<In, Bits<COORD_BITS>>,

    // ---- the surface ----
    /// 0..=4: 1d, 1d_array, 2d, 2d_array, 3d
    pub kind: Signal<In, Bits<3>>,
    pub base: Signal<In, Bits<TYPED_ADDR_BITS>>,
    pub width: Signal<In, Bits<COORD_BITS>>,
    pub height: Signal<In, Bits<COORD_BITS>>,
    pub depth: Signal<In, Bits<COORD_BITS>>,
    pub array: Signal<In, Bits<COORD_BITS>>,
    pub levels: Signal<In, Bits<COORD_BITS>>,
    /// `format=u16`: 2-byte elements (else 4)
    pub format_u16: Signal<In, Bit>,

    // ---- result ----
    /// `addr` and `out_of_bounds` are valid this cycle.
    pub ready: Signal<Out, Bit>,
    pub addr: Signal<Out, Bits<TYPED_ADDR_BITS>>,
    pub out_of_bounds: Signal<Out, Bit>,

    // ---- state ----
    /// the level whose size is added next (= lod when done)
    level: DFF<Bits<COORD_BITS>>,
    /// elements in the levels below `level`
    level_base: DFF<Bits<TYPED_ADDR_BITS>>,

    // ---- datapath ----
    mul_first: MulAdd,
    mul_second: MulAdd,
    widen_first: ZeroExtend<COORD_BITS, TYPED_ADDR_BITS>,
    widen_first_addend: ZeroExtend<COORD_BITS, TYPED_ADDR_BITS>,
    widen_u: ZeroExtend<COORD_BITS, TYPED_ADDR_BITS>,

    // ---- constants ----
    kind_1d: Constant<Bits<3>>,
    kind_1d_array: Constant<Bits<3>>,
    kind_2d_array: Constant<Bits<3>>,
    kind_3d: Constant<Bits<3>>,
    one: Constant<Bits<COORD_BITS>>,
    zero: Constant<Bits<COORD_BITS>>,
    zero_wide: Constant<Bits<TYPED_ADDR_BITS>>,

    // ---- locals (named for waveforms) ----
    /// max(1, W >> level), and the same for H and D
    width_at: Signal<Local, Bits<COORD_BITS>>,
    height_at: Signal<Local, Bits<COORD_BITS>>,
    depth_at: Signal<Local, Bits<COORD_BITS>>,
    rows_at: Signal<Local, Bits<COORD_BITS>>,
    slices_at: Signal<Local, Bits<COORD_BITS>>,
    /// every level from `level` on has the size of `level`
    sizes_constant: Signal<Local, Bit>,
    lod_out_of_range: Signal<Local, Bit>,
    at_lod: Signal<Local, Bit>,
    element_index: Signal<Local, Bits<TYPED_ADDR_BITS>>,
}

impl Default for TypedAddr {
    fn default() -> Self {
        let k = |v: u8| Constant::new(v.to_bits());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            active: Default::default(),
            advance: Default::default(),
            u: Default::default(),
            v: Default::default(),
            r: Default::default(),
            lod: Default::default(),
            kind: Default::default(),
            base: Default::default(),
            width: Default::default(),
            height: Default::default(),
            depth: Default::default(),
            array: Default::default(),
            levels: Default::default(),
            format_u16: Default::default(),
            ready: Default::default(),
            addr: Default::default(),
            out_of_bounds: Default::default(),
            level: Default::default(),
            level_base: Default::default(),
            mul_first: Default::default(),
            mul_second: Default::default(),
            widen_first: Default::default(),
            widen_first_addend: Default::default(),
            widen_u: Default::default(),
            kind_1d: k(KIND_1D),
            kind_1d_array: k(KIND_1D_ARRAY),
            kind_2d_array: k(KIND_2D_ARRAY),
            kind_3d: k(KIND_3D),
            one: Constant::new(1u64.to_bits()),
            zero: Constant::new(0u64.to_bits()),
            zero_wide: Constant::new(0u64.to_bits()),
            width_at: Default::default(),
            height_at: Default::default(),
            depth_at: Default::default(),
            rows_at: Default::default(),
            slices_at: Default::default(),
            sizes_constant: Default::default(),
            lod_out_of_range: Default::default(),
            at_lod: Default::default(),
            element_index: Default::default(),
        }
    }
}

impl Logic for TypedAddr {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, level, level_base);

        // ---- extents at the current level ----
        self.width_at.next = self.width.val() >> self.level.q.val();
        if !self.width_at.val().any() {
            self.width_at.next = self.one.val();
        }
        self.height_at.next = self.height.val() >> self.level.q.val();
        if !self.height_at.val().any() {
            self.height_at.next = self.one.val();
        }
        self.depth_at.next = self.depth.val() >> self.level.q.val();
        if !self.depth_at.val().any() {
            self.depth_at.next = self.one.val();
        }
        self.rows_at.next = self.height_at.val();
        self.slices_at.next = self.one.val();
        self.sizes_constant.next = (self.width_at.val() == self.one.val()) & (self.height_at.val() == self.one.val());
        if self.kind.val() == self.kind_1d.val() {
            self.rows_at.next = self.one.val();
            self.sizes_constant.next = self.width_at.val() == self.one.val();
        }
        if self.kind.val() == self.kind_1d_array.val() {
            self.rows_at.next = self.array.val();
            self.sizes_constant.next = self.width_at.val() == self.one.val();
        }
        if self.kind.val() == self.kind_2d_array.val() {
            self.slices_at.next = self.array.val();
        }
        if self.kind.val() == self.kind_3d.val() {
            self.slices_at.next = self.depth_at.val();
            self.sizes_constant.next = ((self.width_at.val() == self.one.val())
                & (self.height_at.val() == self.one.val()))
                & (self.depth_at.val() == self.one.val());
        }
        self.lod_out_of_range.next = self.lod.val() >= self.levels.val();
        self.at_lod.next = self.level.q.val() == self.lod.val();

        // ---- the two multipliers ----
        // walk step:  level_base += (width * rows) * slices
        // bulk step:  level_base += (rows * slices) * (lod - level)
        // at lod:     index = (r * rows + v) * width + u + level_base
        self.widen_first.narrow.next = self.width_at.val();
        self.widen_first_addend.narrow.next = self.zero.val();
        self.mul_first.multiplier.next = self.rows_at.val();
        self.mul_second.multiplier.next = self.slices_at.val();
        self.mul_second.addend.next = self.level_base.q.val();
        if self.sizes_constant.val() {
            self.widen_first.narrow.next = self.rows_at.val();
            self.mul_first.multiplier.next = self.slices_at.val();
            self.mul_second.multiplier.next = self.lod.val() - self.level.q.val();
        }
        if self.at_lod.val() {
            self.widen_first.narrow.next = self.r.val();
            self.widen_first_addend.narrow.next = self.v.val();
            self.mul_first.multiplier.next = self.rows_at.val();
            self.mul_second.multiplier.next = self.width_at.val();
            self.mul_second.addend.next = self.level_base.q.val() + self.widen_u.wide.val();
        }
        self.widen_u.narrow.next = self.u.val();
        self.mul_first.multiplicand.next = self.widen_first.wide.val();
        self.mul_first.addend.next = self.widen_first_addend.wide.val();
        self.mul_second.multiplicand.next = self.mul_first.product.val();
        self.element_index.next = self.mul_second.product.val();

        // ---- result ----
        self.addr.next = self.base.val() + (self.element_index.val() << 2);
        if self.format_u16.val() {
            self.addr.next = self.base.val() + (self.element_index.val() << 1);
        }
        self.out_of_bounds.next = self.lod_out_of_range.val()
            | (self.u.val() >= self.width_at.val())
            | (self.v.val() >= self.rows_at.val())
            | (self.r.val() >= self.slices_at.val());
        self.ready.next = self.active.val() & (self.at_lod.val() | self.lod_out_of_range.val());

        // ---- walk ----
        if self.active.val() & !self.at_lod.val() & !self.lod_out_of_range.val() {
            self.level_base.d.next = self.mul_second.product.val();
            self.level.d.next = self.level.q.val() + self.one.val();
            if self.sizes_constant.val() {
                self.level.d.next = self.lod.val();
            }
        }
        if self.reset.val() | self.advance.val() | !self.active.val() {
            self.level.d.next = self.zero.val();
            self.level_base.d.next = self.zero_wide.val();
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
