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
pub(crate) mod typed_extent_tests {
    use super::*;

    #[test]
    fn typed_extent_synthesizes() {
        let mut uut = TypedExtent::default();
        uut.connect_all();
        yosys_validate("atomport_typed_extent", &generate_verilog(&uut)).unwrap();
    }

    /// `TypedAddr`'s layout table at one level: `(rows, slices, sizes_constant)`.
    pub(crate) fn layout(kind: u8, array: u32, [w, h, d]: [u32; 3]) -> (u32, u32, bool) {
        match kind {
            KIND_1D => (1, 1, w == 1),
            KIND_1D_ARRAY => (array, 1, w == 1),
            KIND_2D => (h, 1, w == 1 && h == 1),
            KIND_2D_ARRAY => (h, array, w == 1 && h == 1),
            _ => (h, d, w == 1 && h == 1 && d == 1),
        }
    }

    /// One step's inputs, the unit's registers true to the surface (the
    /// contract: extents at `level` are `max(1, X >> level)`, rows, slices and
    /// the flags those of the layout there, `at_lod` and `lod_out_of_range`
    /// the lane's).
    #[derive(Debug, Clone, Copy)]
    struct Step {
        kind: u8,
        array: u32,
        dims: [u32; 3],
        levels: u32,
        level: u32,
        level_base: u64,
        coords: [u32; 4],
    }

    impl Step {
        fn at(&self) -> [u32; 3] {
            self.dims.map(|x| if self.level >= 32 { 1 } else { (x >> self.level).max(1) })
        }

        /// The Verilog's printed line, from the module's documentation.
        fn expected(&self) -> String {
            let [w, h, d] = self.at();
            let [u, v, r, lod] = self.coords;
            let (rows, slices, constant) = layout(self.kind, self.array, [w, h, d]);
            let next = [w, h, d].map(|x| (x >> 1).max(1));
            let (next_rows, next_slices, next_constant) = layout(self.kind, self.array, next);
            let (walk_a, walk_b) = if next_constant { (next_rows, next_slices) } else { (next[0], next_rows) };
            let at_lod = self.level == lod;
            let second_b = if at_lod { w } else if constant { lod.wrapping_sub(self.level) } else { slices };
            let oob = lod >= self.levels || u >= w || v >= rows || r >= slices;
            let next_level = if constant { lod } else { self.level.wrapping_add(1) };
            format!(
                "{next_rows:08x} {next_slices:08x} {} {walk_a:08x} {walk_b:08x} {:016x} {second_b:08x} {:016x} {:016x} {} \
                 {next_level:08x} {:08x} {:08x} {:08x} {} {} {}",
                u8::from(next_constant),
                u64::from(v),
                self.level_base,
                self.level_base.wrapping_add(u64::from(u)),
                u8::from(oob),
                next[0],
                next[1],
                next[2],
                u8::from(next[0] == 1),
                u8::from(next[1] == 1),
                u8::from(next[2] == 1),
            )
        }
    }

    fn steps() -> Vec<Step> {
        let mut out = Vec::new();
        // every kind on a small surface: every level, lod at, past and before
        // it, coordinates at and past each extent
        for kind in KIND_1D..=KIND_3D {
            for level in 0..6 {
                for lod in [0, level, level + 1, 5, 6] {
                    for coords in [[0, 0, 0], [7 >> level, 3 >> level, 2 >> level], [8 >> level, 0, 0], [0, 4, 0], [0, 0, 3], [0, 0, 5]] {
                        let [u, v, r] = coords;
                        out.push(Step { kind, array: 5, dims: [8, 4, 3], levels: 5, level, level_base: 0x10 * u64::from(level), coords: [u, v, r, lod] });
                    }
                }
            }
        }
        // large extents, bases near 2^64 and levels past 31 (seeded xorshift)
        let mut next = crate::icarus::xorshift(0xd1b5_4a32_d192_ed03u64);
        for i in 0..500 {
            let pick = |x: u64| -> u32 {
                match x % 4 {
                    0 => (x >> 8) as u32 % 9 + 1,
                    1 => 1 << ((x >> 8) % 32),
                    2 => ((x >> 32) as u32).max(1),
                    _ => u32::MAX,
                }
            };
            let dims = [pick(next()), pick(next()), pick(next())];
            let levels = (next() % 34) as u32;
            let level = (next() % 36) as u32;
            let lod = match next() % 4 {
                0 => level,
                1 => level + (next() % 4) as u32,
                2 => (next() % 40) as u32,
                _ => next() as u32,
            };
            let coord = |x: u64, ext: u32| match x % 3 {
                0 => ext.saturating_sub(1),
                1 => ext,
                _ => (x >> 32) as u32,
            };
            let ext = Step { kind: (i % 5) as u8, array: pick(next()), dims, levels, level, level_base: next(), coords: [0; 4] };
            let [w, h, d] = ext.at();
            let (rows, slices, _) = layout(ext.kind, ext.array, [w, h, d]);
            out.push(Step { coords: [coord(next(), w), coord(next(), rows), coord(next(), slices), lod], ..ext });
        }
        out
    }

    /// Steps in Icarus against the walk as documented here and in
    /// `TypedAddr` (the extents' halving, the next level's operands, the
    /// multiply-add operands of a walk, bulk or lod step, the bounds check).
    #[test]
    fn the_verilog_steps_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = TypedExtent::default();
        uut.connect_all();
        let steps = steps();
        let mut bench = String::from(
            "module bench;
reg [31:0] level, level_width, level_height, level_depth, coord_u, coord_v, coord_r, coord_lod, surf_array, rows, slices;
reg [63:0] level_base; reg width_is_one, height_is_one, depth_is_one, at_lod, lod_out_of_range, level_sizes_constant;
reg [2:0] surf_kind;
wire [31:0] next_rows, next_slices, next_walk_a, next_walk_b, second_b, next_level, next_width, next_height, next_depth;
wire [63:0] wide_v_out, second_c, lod_c; wire next_sizes_constant, out_of_bounds, next_width_is_one, next_height_is_one, next_depth_is_one;
top uut(.level(level), .level_base(level_base), .level_width(level_width), .level_height(level_height),
  .level_depth(level_depth), .width_is_one(width_is_one), .height_is_one(height_is_one), .depth_is_one(depth_is_one),
  .coord_u(coord_u), .coord_v(coord_v), .coord_r(coord_r), .coord_lod(coord_lod), .at_lod(at_lod),
  .lod_out_of_range(lod_out_of_range), .surf_kind(surf_kind), .surf_array(surf_array), .rows(rows), .slices(slices),
  .level_sizes_constant(level_sizes_constant), .next_rows(next_rows), .next_slices(next_slices),
  .next_sizes_constant(next_sizes_constant), .next_walk_a(next_walk_a), .next_walk_b(next_walk_b),
  .wide_v_out(wide_v_out), .second_b(second_b), .second_c(second_c), .lod_c(lod_c), .out_of_bounds(out_of_bounds),
  .next_level(next_level), .next_width(next_width), .next_height(next_height), .next_depth(next_depth),
  .next_width_is_one(next_width_is_one), .next_height_is_one(next_height_is_one), .next_depth_is_one(next_depth_is_one));
initial begin
",
        );
        for st in &steps {
            let [w, h, d] = st.at();
            let (rows, slices, constant) = layout(st.kind, st.array, [w, h, d]);
            let [u, v, r, lod] = st.coords;
            bench.push_str(&format!(
                "  level = {}; level_base = 64'h{:x}; level_width = {w}; level_height = {h}; level_depth = {d}; \
                 width_is_one = {}; height_is_one = {}; depth_is_one = {}; coord_u = {u}; coord_v = {v}; coord_r = {r}; \
                 coord_lod = {lod}; at_lod = {}; lod_out_of_range = {}; surf_kind = {}; surf_array = {}; rows = {rows}; \
                 slices = {slices}; level_sizes_constant = {};\n  #1 $display(\"%h %h %b %h %h %h %h %h %h %b %h %h %h %h %b %b %b\", \
                 next_rows, next_slices, next_sizes_constant, next_walk_a, next_walk_b, wide_v_out, second_b, second_c, lod_c, \
                 out_of_bounds, next_level, next_width, next_height, next_depth, next_width_is_one, next_height_is_one, \
                 next_depth_is_one);\n",
                st.level,
                st.level_base,
                u8::from(w == 1),
                u8::from(h == 1),
                u8::from(d == 1),
                u8::from(st.level == lod),
                u8::from(lod >= st.levels),
                st.kind,
                st.array,
                u8::from(constant),
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("typed-extent", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), steps.len(), "vvp output:\n{}", lines.join("\n"));
        for (line, st) in lines.iter().zip(&steps) {
            assert_eq!(*line, st.expected(), "{st:?}");
        }
    }
}
