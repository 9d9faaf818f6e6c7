//! `WalkOperands`: a typed surface's rows and slices at one level of the
//! TYPED_ATOMIC address walk, whether every level from it on has its size,
//! and the walk step's multiply operands at that level (the layout is
//! `TypedAddr`'s module documentation; scripts.md "Typed surface layout").
//!
//! One formula, two instances: `TypedExtent` reads it at the walk's next
//! level, the unit on the next-lane stage's extents. The unit keeps all
//! five outputs in registers (`typed_lane_rows`, `typed_slices`,
//! `typed_sizes_constant`, `typed_walk_a`, `typed_walk_b`), loaded from the
//! next-lane stage as a lane enters the issue stage and from the next
//! level as a walk step issues, so the walk step's multiplier
//! (`WalkProduct`) and the level's compares start at flip-flops instead of
//! behind the surface kind's muxes (the multiplier's path was the integer
//! unit's critical path, docs/synthesis.md).
//! Combinational.

use rust_hdl::prelude::*;

use crate::widths::COORD_BITS;

/// `req_surf_kind` codes of the typed kinds (`program::TypedKind` discriminants).
pub const KIND_1D: u8 = 0;
pub const KIND_1D_ARRAY: u8 = 1;
pub const KIND_2D: u8 = 2;
pub const KIND_2D_ARRAY: u8 = 3;
pub const KIND_3D: u8 = 4;

/// A typed surface's extents at one walk level, and the walk step's operands (combinational).
#[derive(LogicBlock)]
pub struct WalkOperands {
    /// 0..=4: 1d, 1d_array, 2d, 2d_array, 3d
    pub surf_kind: Signal<In, Bits<3>>,
    pub surf_array: Signal<In, Bits<COORD_BITS>>,
    /// max(1, W >> level), max(1, H >> level), max(1, D >> level), and
    /// whether each is 1
    pub width: Signal<In, Bits<COORD_BITS>>,
    pub height: Signal<In, Bits<COORD_BITS>>,
    pub depth: Signal<In, Bits<COORD_BITS>>,
    pub width_is_one: Signal<In, Bit>,
    pub height_is_one: Signal<In, Bit>,
    pub depth_is_one: Signal<In, Bit>,

    /// V's extent and R's at the level
    pub rows: Signal<Out, Bits<COORD_BITS>>,
    pub slices: Signal<Out, Bits<COORD_BITS>>,
    /// every level from this one on has this level's size
    pub sizes_constant: Signal<Out, Bit>,
    /// the walk step's `first = walk_a * walk_b`: `width * rows`, or
    /// `rows * slices` when the sizes are constant (a bulk step)
    pub walk_a: Signal<Out, Bits<COORD_BITS>>,
    pub walk_b: Signal<Out, Bits<COORD_BITS>>,

    kind_1d: Constant<Bits<3>>,
    kind_1d_array: Constant<Bits<3>>,
    kind_2d_array: Constant<Bits<3>>,
    kind_3d: Constant<Bits<3>>,
    one: Constant<Bits<COORD_BITS>>,
}

impl Default for WalkOperands {
    fn default() -> Self {
        let k = |v: u8| Constant::new(v.to_bits());
        Self {
            surf_kind: Default::default(),
            surf_array: Default::default(),
            width: Default::default(),
            height: Default::default(),
            depth: Default::default(),
            width_is_one: Default::default(),
            height_is_one: Default::default(),
            depth_is_one: Default::default(),
            rows: Default::default(),
            slices: Default::default(),
            sizes_constant: Default::default(),
            walk_a: Default::default(),
            walk_b: Default::default(),
            kind_1d: k(KIND_1D),
            kind_1d_array: k(KIND_1D_ARRAY),
            kind_2d_array: k(KIND_2D_ARRAY),
            kind_3d: k(KIND_3D),
            one: Constant::new(1u32.to_bits()),
        }
    }
}

impl Logic for WalkOperands {
    #[hdl_gen]
    fn update(&mut self) {
        self.rows.next = self.height.val();
        self.slices.next = self.one.val();
        self.sizes_constant.next = self.width_is_one.val() & self.height_is_one.val();
        if self.surf_kind.val() == self.kind_1d.val() {
            self.rows.next = self.one.val();
            self.sizes_constant.next = self.width_is_one.val();
        }
        if self.surf_kind.val() == self.kind_1d_array.val() {
            self.rows.next = self.surf_array.val();
            self.sizes_constant.next = self.width_is_one.val();
        }
        if self.surf_kind.val() == self.kind_2d_array.val() {
            self.slices.next = self.surf_array.val();
        }
        if self.surf_kind.val() == self.kind_3d.val() {
            self.slices.next = self.depth.val();
            self.sizes_constant.next = (self.width_is_one.val() & self.height_is_one.val()) & self.depth_is_one.val();
        }
        self.walk_a.next = self.width.val();
        self.walk_b.next = self.rows.val();
        if self.sizes_constant.val() {
            self.walk_a.next = self.rows.val();
            self.walk_b.next = self.slices.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_operands_synthesize() {
        let mut uut = WalkOperands::default();
        uut.connect_all();
        yosys_validate("atomport_walk_operands", &generate_verilog(&uut)).unwrap();
    }

    /// The layout of `TypedAddr`'s table at one level: `(rows, slices,
    /// sizes_constant, walk_a, walk_b)` for a kind and the extents there.
    fn model(kind: u8, array: u32, [w, h, d]: [u32; 3]) -> (u32, u32, bool, u32, u32) {
        let (rows, slices) = match kind {
            KIND_1D => (1, 1),
            KIND_1D_ARRAY => (array, 1),
            KIND_2D => (h, 1),
            KIND_2D_ARRAY => (h, array),
            KIND_3D => (h, d),
            _ => unreachable!("kinds 0..=4 only"),
        };
        // the sizes stop changing once every extent that halves is 1
        let constant = match kind {
            KIND_1D | KIND_1D_ARRAY => w == 1,
            KIND_2D | KIND_2D_ARRAY => w == 1 && h == 1,
            _ => w == 1 && h == 1 && d == 1,
        };
        let (a, b) = if constant { (rows, slices) } else { (w, rows) };
        (rows, slices, constant, a, b)
    }

    /// Every typed kind over extents with each of them 1 or not (the
    /// contract's inputs: extents at least 1, the `*_is_one` flags true to
    /// them), in Icarus, against the layout table.
    #[test]
    fn the_verilog_picks_operands_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = WalkOperands::default();
        uut.connect_all();
        let extents = [1u32, 2, 3, 0x1234, 0xffff_ffff];
        let arrays = [1u32, 7, 0x8000_0000];
        let mut cases = Vec::new();
        for kind in KIND_1D..=KIND_3D {
            for &array in &arrays {
                for &w in &extents {
                    for &h in &extents {
                        for &d in &extents {
                            // distinct values where the extents are not 1, so a swapped port shows
                            let (h, d) = (if h == w && h != 1 { h ^ 0x10 } else { h }, if d != 1 { d ^ 0x300 } else { d });
                            cases.push((kind, array, [w, h, d]));
                        }
                    }
                }
            }
        }
        let mut bench = String::from(
            "module bench;\nreg [2:0] surf_kind; reg [31:0] surf_array, width, height, depth;\n\
             reg width_is_one, height_is_one, depth_is_one;\nwire [31:0] rows, slices, walk_a, walk_b; wire sizes_constant;\n\
             top uut(.surf_kind(surf_kind), .surf_array(surf_array), .width(width), .height(height), .depth(depth),\n\
             .width_is_one(width_is_one), .height_is_one(height_is_one), .depth_is_one(depth_is_one), .rows(rows),\n\
             .slices(slices), .sizes_constant(sizes_constant), .walk_a(walk_a), .walk_b(walk_b));\ninitial begin\n",
        );
        for (kind, array, [w, h, d]) in &cases {
            bench.push_str(&format!(
                "  surf_kind = {kind}; surf_array = {array}; width = {w}; height = {h}; depth = {d}; \
                 width_is_one = {}; height_is_one = {}; depth_is_one = {};\n  #1 $display(\"%0d %0d %b %0d %0d\", \
                 rows, slices, sizes_constant, walk_a, walk_b);\n",
                u8::from(*w == 1),
                u8::from(*h == 1),
                u8::from(*d == 1)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("walk-operands", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp output:\n{}", lines.join("\n"));
        for (line, &(kind, array, ext)) in lines.iter().zip(&cases) {
            let (rows, slices, constant, a, b) = model(kind, array, ext);
            let want = format!("{rows} {slices} {} {a} {b}", u8::from(constant));
            assert_eq!(*line, want, "kind {kind} array {array} extents {ext:?}");
        }
    }
}
