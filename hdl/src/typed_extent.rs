//! `TypedExtent`: the operands of one step of the TYPED_ATOMIC address walk
//! (the arithmetic of `TypedAddr`, whose module documentation gives the
//! layout): the extents at the walk's level, which multiply-adds to do,
//! and the bounds check (scripts.md "Typed surface layout").
//! Combinational, 32-bit wherever the value is an extent or a coordinate.

use rust_hdl::prelude::*;

use crate::extend::ZeroExtend;
use crate::walk_operands::WalkOperands;
pub use crate::walk_operands::{KIND_1D, KIND_1D_ARRAY, KIND_2D, KIND_2D_ARRAY, KIND_3D};
use crate::widths::ADDR_BITS;
use crate::widths::COORD_BITS;

/// Extents at one level of a typed surface, and the step's multiply-add operands.
#[derive(LogicBlock)]
pub struct TypedExtent {
    // ---- walk state ----
    /// The level whose size is added next (= lod when done).
    pub level: Signal<In, Bits<COORD_BITS>>,
    /// Elements in the levels below `level`.
    pub level_base: Signal<In, Bits<ADDR_BITS>>,
    /// max(1, W >> level), max(1, H >> level), max(1, D >> level), kept
    /// by the unit from step to step (`next_*`; max(1, W) etc. loaded with
    /// the lane): halving a register each step instead of a barrel shift
    /// by `level`, and no mux or compare before the multiplier's operands.
    pub level_width: Signal<In, Bits<COORD_BITS>>,
    pub level_height: Signal<In, Bits<COORD_BITS>>,
    pub level_depth: Signal<In, Bits<COORD_BITS>>,
    /// Each extent at `level` is 1 (kept by the unit with the extents, from
    /// `next_*_is_one`): no 32-bit compare before the multiplier's operands.
    pub width_is_one: Signal<In, Bit>,
    pub height_is_one: Signal<In, Bit>,
    pub depth_is_one: Signal<In, Bit>,

    // ---- the lane ----
    pub coord_u: Signal<In, Bits<COORD_BITS>>,
    pub coord_v: Signal<In, Bits<COORD_BITS>>,
    pub coord_r: Signal<In, Bits<COORD_BITS>>,
    pub coord_lod: Signal<In, Bits<COORD_BITS>>,
    /// `level == lod`: the step is the lane's address (`first` from the
    /// lane's multiplier). Both decisions on `lod` come from the unit's
    /// registers (`LaneCoordReg`), not from compares here, so that no
    /// payload bit and no 32-bit compare reaches the issue stage's stall
    /// decision (`LaneCoordReg`'s `ready`).
    pub at_lod: Signal<In, Bit>,
    /// `lod >= levels`
    pub lod_out_of_range: Signal<In, Bit>,

    // ---- the surface ----
    /// 0..=4: 1d, 1d_array, 2d, 2d_array, 3d
    pub surf_kind: Signal<In, Bits<3>>,
    pub surf_array: Signal<In, Bits<COORD_BITS>>,
    /// V's extent and R's at `level`, and whether every level from `level`
    /// on has its size: registers of the unit, loaded with the extents
    /// (`WalkOperands` on the next level's, `next_*` below)
    pub rows: Signal<In, Bits<COORD_BITS>>,
    pub slices: Signal<In, Bits<COORD_BITS>>,
    pub level_sizes_constant: Signal<In, Bit>,

    // ---- the step: index = first * second_b + second_c ----
    /// At the next level (`next_*` below), for the unit's registers
    /// (`WalkOperands`): rows, slices, whether the sizes are constant from
    /// it on, and the walk step's `first = walk_a * walk_b` operands.
    pub next_rows: Signal<Out, Bits<COORD_BITS>>,
    pub next_slices: Signal<Out, Bits<COORD_BITS>>,
    pub next_sizes_constant: Signal<Out, Bit>,
    pub next_walk_a: Signal<Out, Bits<COORD_BITS>>,
    pub next_walk_b: Signal<Out, Bits<COORD_BITS>>,
    /// At lod, `first = r * rows + v`: `v` (the unit registers `r * rows`
    /// as digit products, `LaneCoordReg`).
    pub wide_v_out: Signal<Out, Bits<ADDR_BITS>>,
    pub second_b: Signal<Out, Bits<COORD_BITS>>,
    /// `second_c` of a walk or bulk step; at lod it is `lod_c`
    /// (`level_base + u`), computed at every step so that the lod compare
    /// is not in series with its adder: the unit picks by `at_lod` a stage later.
    pub second_c: Signal<Out, Bits<ADDR_BITS>>,
    pub lod_c: Signal<Out, Bits<ADDR_BITS>>,
    pub out_of_bounds: Signal<Out, Bit>,
    /// The level after this step: level + 1, or lod once every further
    /// level has the same size (the step then adds all of them).
    pub next_level: Signal<Out, Bits<COORD_BITS>>,
    /// The extents at the next level (halved, never below 1).
    pub next_width: Signal<Out, Bits<COORD_BITS>>,
    pub next_height: Signal<Out, Bits<COORD_BITS>>,
    pub next_depth: Signal<Out, Bits<COORD_BITS>>,
    /// The next level's extent is 1: max(1, x >> 1) = 1 for x <= 3.
    pub next_width_is_one: Signal<Out, Bit>,
    pub next_height_is_one: Signal<Out, Bit>,
    pub next_depth_is_one: Signal<Out, Bit>,

    // ---- widened inputs ----
    wide_u: ZeroExtend<COORD_BITS, ADDR_BITS>,
    wide_v: ZeroExtend<COORD_BITS, ADDR_BITS>,

    // ---- the surface's extents at the next level ----
    next_ops: WalkOperands,

    // ---- constants ----
    one: Constant<Bits<COORD_BITS>>,

    // ---- locals (named for waveforms) ----
    /// max(1, W >> level), and the same for H and D
    width_at: Signal<Local, Bits<COORD_BITS>>,
    height_at: Signal<Local, Bits<COORD_BITS>>,
    depth_at: Signal<Local, Bits<COORD_BITS>>,
    rows_at: Signal<Local, Bits<COORD_BITS>>,
    slices_at: Signal<Local, Bits<COORD_BITS>>,
    /// every level from `level` on has the size of `level`
    sizes_constant: Signal<Local, Bit>,
}

impl Default for TypedExtent {
    fn default() -> Self {
        Self {
            level: Default::default(),
            level_base: Default::default(),
            level_width: Default::default(),
            level_height: Default::default(),
            level_depth: Default::default(),
            width_is_one: Default::default(),
            height_is_one: Default::default(),
            depth_is_one: Default::default(),
            coord_u: Default::default(),
            coord_v: Default::default(),
            coord_r: Default::default(),
            coord_lod: Default::default(),
            at_lod: Default::default(),
            lod_out_of_range: Default::default(),
            surf_kind: Default::default(),
            surf_array: Default::default(),
            rows: Default::default(),
            slices: Default::default(),
            level_sizes_constant: Default::default(),
            next_rows: Default::default(),
            next_slices: Default::default(),
            next_sizes_constant: Default::default(),
            next_walk_a: Default::default(),
            next_walk_b: Default::default(),
            wide_v_out: Default::default(),
            second_b: Default::default(),
            second_c: Default::default(),
            lod_c: Default::default(),
            out_of_bounds: Default::default(),
            next_level: Default::default(),
            next_width: Default::default(),
            next_height: Default::default(),
            next_depth: Default::default(),
            next_width_is_one: Default::default(),
            next_height_is_one: Default::default(),
            next_depth_is_one: Default::default(),
            wide_u: Default::default(),
            wide_v: Default::default(),
            next_ops: Default::default(),
            one: Constant::new(1u32.to_bits()),
            width_at: Default::default(),
            height_at: Default::default(),
            depth_at: Default::default(),
            rows_at: Default::default(),
            slices_at: Default::default(),
            sizes_constant: Default::default(),
        }
    }
}

impl Logic for TypedExtent {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- widen the 32-bit inputs (wiring only: see unit.rs "Verilator") ----
        self.wide_u.narrow.next = self.coord_u.val();
        self.wide_v.narrow.next = self.coord_v.val();

        // ---- extents at the current level ----
        self.width_at.next = self.level_width.val();
        self.height_at.next = self.level_height.val();
        self.depth_at.next = self.level_depth.val();
        // (max(1, x >> 1): x >= 1 here)
        self.next_width.next = self.width_at.val() >> 1;
        if self.width_is_one.val() {
            self.next_width.next = self.one.val();
        }
        self.next_height.next = self.height_at.val() >> 1;
        if self.height_is_one.val() {
            self.next_height.next = self.one.val();
        }
        self.next_depth.next = self.depth_at.val() >> 1;
        if self.depth_is_one.val() {
            self.next_depth.next = self.one.val();
        }
        self.next_width_is_one.next = !self.width_at.val().get_bits::<30>(2).any();
        self.next_height_is_one.next = !self.height_at.val().get_bits::<30>(2).any();
        self.next_depth_is_one.next = !self.depth_at.val().get_bits::<30>(2).any();
        self.rows_at.next = self.rows.val();
        self.slices_at.next = self.slices.val();
        self.sizes_constant.next = self.level_sizes_constant.val();
        self.next_ops.surf_kind.next = self.surf_kind.val();
        self.next_ops.surf_array.next = self.surf_array.val();
        self.next_ops.width.next = self.next_width.val();
        self.next_ops.height.next = self.next_height.val();
        self.next_ops.depth.next = self.next_depth.val();
        self.next_ops.width_is_one.next = self.next_width_is_one.val();
        self.next_ops.height_is_one.next = self.next_height_is_one.val();
        self.next_ops.depth_is_one.next = self.next_depth_is_one.val();
        self.next_rows.next = self.next_ops.rows.val();
        self.next_slices.next = self.next_ops.slices.val();
        self.next_sizes_constant.next = self.next_ops.sizes_constant.val();
        self.next_walk_a.next = self.next_ops.walk_a.val();
        self.next_walk_b.next = self.next_ops.walk_b.val();

        // ---- multiply-add operands ----
        // walk step:  level_base + (width * rows + 0) * slices
        //             (`walk_a * walk_b`: the unit's registers, `WalkOperands`)
        // bulk step:  level_base + (rows * slices + 0) * (lod - level)
        // at lod:     (level_base + u) + (r * rows + v) * width
        self.wide_v_out.next = self.wide_v.wide.val();
        self.second_b.next = self.slices_at.val();
        self.second_c.next = self.level_base.val();
        if self.sizes_constant.val() {
            self.second_b.next = self.coord_lod.val() - self.level.val();
        }
        self.lod_c.next = self.level_base.val() + self.wide_u.wide.val();
        if self.at_lod.val() {
            self.second_b.next = self.width_at.val();
        }

        self.out_of_bounds.next = self.lod_out_of_range.val()
            | (self.coord_u.val() >= self.width_at.val())
            | (self.coord_v.val() >= self.rows_at.val())
            | (self.coord_r.val() >= self.slices_at.val());
        self.next_level.next = self.level.val() + self.one.val();
        if self.sizes_constant.val() {
            self.next_level.next = self.coord_lod.val();
        }
    }
}

#[cfg(test)]
mod typed_extent_tests {
    use super::*;

    #[test]
    fn typed_extent_synthesizes() {
        let mut uut = TypedExtent::default();
        uut.connect_all();
        yosys_validate("atomport_typed_extent", &generate_verilog(&uut)).unwrap();
    }
}
