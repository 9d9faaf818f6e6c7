//! `TypedAddr`: one step of the TYPED_ATOMIC address walk, and the address
//! and bounds check of the lane (scripts.md "Typed surface layout"; the
//! golden model's `golden::surface::typed_address`). Combinational; the walk
//! state (`level`, `level_base`, the extents at `level`) lives in the
//! unit's registers.
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
//! The walk: while `level < lod` the unit takes a walk step: it loads
//! `next_level` and the next extents, and two cycles later, from the line
//! stage, the next `level_base` (three cycles per level); once width and the
//! halving extents are all 1, every further level has the same size and the
//! rest are added in one step, so a lane costs at most 3 x 33 walk cycles
//! for any 32-bit extent (`lod` <= 32 levels in practice: scripts allow
//! `levels` <= 32). When `level == lod` (the unit's `LaneCoordReg` keeps
//! that decision in a register), the step's operands are the lane's
//! address: a lane with lod 0 costs no extra cycle.
//!
//! Every step is `index = (a * b + c) * d + e`: [`TypedExtent`] picks the
//! operands (32-bit extents and coordinates); `first = a * b + c` is a
//! [`PartialSum`] here of digit products the unit registered, both for walk
//! steps (32 x 32 -> 64, `WalkProduct`, from the operands at the walk
//! state of a cycle earlier) and for the lane's `r * rows + v`
//! (`LaneCoordReg`): both multiplies end at flip-flops before the issue
//! stage; the lod decision, a stage later, selects between the two
//! results instead of a multiplier's operands. `AddrMul` a stage later multiplies `first * d` into
//! partial products, which `AddrFinish` another stage later sums with `e`
//! (64 x 32 -> 64 modulo 2^64, which is what the golden model's wrapping
//! address is), all mapped to the part's multipliers. As shift-add
//! arrays they would be 64 chained adders per product (609 levels of
//! logic); the two multiply-adds chained in one cycle measured 30 of a
//! 55.6 ns critical path on ECP5.

use rust_hdl::prelude::*;

use crate::addr_mul::{P0_BITS, P16_BITS, P32_BITS, P48_BITS};
use crate::partial_sum::PartialSum;
use crate::typed_extent::TypedExtent;
pub use crate::typed_extent::{KIND_1D, KIND_1D_ARRAY, KIND_2D, KIND_2D_ARRAY, KIND_3D};
use crate::widths::{ADDR_BITS, COORD_BITS};

/// The issue stage's half of one typed-surface address step (combinational).
#[derive(LogicBlock)]
pub struct TypedAddr {
    // ---- walk state (the unit's registers) ----
    /// The level whose size is added next (= lod when done).
    pub level: Signal<In, Bits<COORD_BITS>>,
    /// Elements in the levels below `level`.
    pub level_base: Signal<In, Bits<ADDR_BITS>>,
    /// The extents at `level`, each at least 1 (see [`TypedExtent`]).
    pub level_width: Signal<In, Bits<COORD_BITS>>,
    pub level_height: Signal<In, Bits<COORD_BITS>>,
    pub level_depth: Signal<In, Bits<COORD_BITS>>,
    /// Each extent at `level` is 1.
    pub width_is_one: Signal<In, Bit>,
    pub height_is_one: Signal<In, Bit>,
    pub depth_is_one: Signal<In, Bit>,

    // ---- the lane ----
    pub coord_u: Signal<In, Bits<COORD_BITS>>,
    pub coord_v: Signal<In, Bits<COORD_BITS>>,
    pub coord_r: Signal<In, Bits<COORD_BITS>>,
    pub coord_lod: Signal<In, Bits<COORD_BITS>>,
    /// `level == lod` and `lod >= levels`, registered by the unit (`TypedExtent`)
    pub at_lod: Signal<In, Bit>,
    pub lod_out_of_range: Signal<In, Bit>,

    // ---- the surface ----
    /// 0..=4: 1d, 1d_array, 2d, 2d_array, 3d
    pub surf_kind: Signal<In, Bits<3>>,
    pub surf_array: Signal<In, Bits<COORD_BITS>>,
    /// rows, slices and whether the sizes are constant at `level` (the
    /// unit's registers, `TypedExtent`)
    pub rows: Signal<In, Bits<COORD_BITS>>,
    pub slices: Signal<In, Bits<COORD_BITS>>,
    pub sizes_constant: Signal<In, Bit>,
    /// A walk step's product `walk_a * walk_b` of a cycle earlier, as the
    /// digit products the unit registered (`WalkProduct`: they depend on
    /// the walk state only, and the walk's multiply ends at flip-flops).
    pub walk_p0: Signal<In, Bits<P0_BITS>>,
    pub walk_p16: Signal<In, Bits<P16_BITS>>,
    pub walk_p16_b: Signal<In, Bits<P0_BITS>>,
    pub walk_p32: Signal<In, Bits<P32_BITS>>,
    /// The lane's `r * rows` (`rows` at `level`: 1d: 1, 1d_array: the array
    /// size, else the height) as its four digit products (the two of weight
    /// 2^16 apart), registered by the unit (`LaneCoordReg`): no multiplier
    /// in this stage.
    pub lane_p0: Signal<In, Bits<P0_BITS>>,
    pub lane_p16: Signal<In, Bits<P16_BITS>>,
    pub lane_p16_b: Signal<In, Bits<P0_BITS>>,
    pub lane_p32: Signal<In, Bits<P32_BITS>>,

    // ---- result ----
    /// At lod, whether the lane's address is out of bounds.
    pub out_of_bounds: Signal<Out, Bit>,
    /// The step for `AddrMul` / `AddrFinish`: `index = first * second_b + second_c`,
    /// `first` = `lane_first` at lod, else `walk_first`. Both products leave
    /// the block and are registered: selected here, Yosys's `share` pass
    /// would merge the two multipliers back into one behind an operand mux.
    pub walk_first: Signal<Out, Bits<ADDR_BITS>>,
    pub lane_first: Signal<Out, Bits<ADDR_BITS>>,
    pub second_b: Signal<Out, Bits<COORD_BITS>>,
    /// At the walk state after this step, for the unit's registers
    /// (`WalkOperands`): rows, slices, whether the sizes are constant, the
    /// next walk step's `first = walk_a * walk_b` operands (the unit
    /// multiplies them into registers, `WalkProduct`).
    pub next_rows: Signal<Out, Bits<COORD_BITS>>,
    pub next_slices: Signal<Out, Bits<COORD_BITS>>,
    pub next_sizes_constant: Signal<Out, Bit>,
    pub next_walk_a: Signal<Out, Bits<COORD_BITS>>,
    pub next_walk_b: Signal<Out, Bits<COORD_BITS>>,
    /// `second_c` of a walk or bulk step, and at lod (`lod_c`): the unit
    /// picks by `at_lod` a stage later (`TypedExtent`)
    pub second_c: Signal<Out, Bits<ADDR_BITS>>,
    pub lod_c: Signal<Out, Bits<ADDR_BITS>>,
    /// The walk state after a walk step (`level_base` then comes from `AddrFinish`).
    pub next_level: Signal<Out, Bits<COORD_BITS>>,
    pub next_width: Signal<Out, Bits<COORD_BITS>>,
    pub next_height: Signal<Out, Bits<COORD_BITS>>,
    pub next_depth: Signal<Out, Bits<COORD_BITS>>,
    pub next_width_is_one: Signal<Out, Bit>,
    pub next_height_is_one: Signal<Out, Bit>,
    pub next_depth_is_one: Signal<Out, Bit>,

    // ---- the step ----
    extent: TypedExtent,
    /// A walk step's `a * b` (32 x 32 -> 64): its digit products summed.
    walk_sum: PartialSum,
    /// At lod, `r * rows + v` from the registered digit products.
    lane_sum: PartialSum,
    zero_wide: Constant<Bits<ADDR_BITS>>,
    zero_p48: Constant<Bits<P48_BITS>>,
}

impl Default for TypedAddr {
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
            surf_kind: Default::default(),
            surf_array: Default::default(),
            rows: Default::default(),
            slices: Default::default(),
            sizes_constant: Default::default(),
            walk_p0: Default::default(),
            walk_p16: Default::default(),
            walk_p16_b: Default::default(),
            walk_p32: Default::default(),
            lane_p0: Default::default(),
            lane_p16: Default::default(),
            lane_p16_b: Default::default(),
            lane_p32: Default::default(),
            out_of_bounds: Default::default(),
            walk_first: Default::default(),
            lane_first: Default::default(),
            at_lod: Default::default(),
            lod_out_of_range: Default::default(),
            second_b: Default::default(),
            next_rows: Default::default(),
            next_slices: Default::default(),
            next_sizes_constant: Default::default(),
            next_walk_a: Default::default(),
            next_walk_b: Default::default(),
            second_c: Default::default(),
            lod_c: Default::default(),
            next_level: Default::default(),
            next_width: Default::default(),
            next_height: Default::default(),
            next_depth: Default::default(),
            next_width_is_one: Default::default(),
            next_height_is_one: Default::default(),
            next_depth_is_one: Default::default(),
            extent: Default::default(),
            walk_sum: Default::default(),
            lane_sum: Default::default(),
            zero_wide: Constant::new(0u64.to_bits()),
            zero_p48: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for TypedAddr {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- sub-block inputs: wiring only (see unit.rs "Verilator") ----
        self.extent.level.next = self.level.val();
        self.extent.level_base.next = self.level_base.val();
        self.extent.level_width.next = self.level_width.val();
        self.extent.level_height.next = self.level_height.val();
        self.extent.level_depth.next = self.level_depth.val();
        self.extent.width_is_one.next = self.width_is_one.val();
        self.extent.height_is_one.next = self.height_is_one.val();
        self.extent.depth_is_one.next = self.depth_is_one.val();
        self.extent.coord_u.next = self.coord_u.val();
        self.extent.coord_v.next = self.coord_v.val();
        self.extent.coord_r.next = self.coord_r.val();
        self.extent.coord_lod.next = self.coord_lod.val();
        self.extent.at_lod.next = self.at_lod.val();
        self.extent.lod_out_of_range.next = self.lod_out_of_range.val();
        self.extent.surf_kind.next = self.surf_kind.val();
        self.extent.surf_array.next = self.surf_array.val();
        self.extent.rows.next = self.rows.val();
        self.extent.slices.next = self.slices.val();
        self.extent.level_sizes_constant.next = self.sizes_constant.val();
        self.walk_sum.p0.next = self.walk_p0.val();
        self.walk_sum.p16.next = self.walk_p16.val();
        self.walk_sum.p16_b.next = self.walk_p16_b.val();
        self.walk_sum.p32.next = self.walk_p32.val();
        self.walk_sum.p48.next = self.zero_p48.val();
        self.walk_sum.addend.next = self.zero_wide.val();
        self.lane_sum.p0.next = self.lane_p0.val();
        self.lane_sum.p16.next = self.lane_p16.val();
        self.lane_sum.p16_b.next = self.lane_p16_b.val();
        self.lane_sum.p32.next = self.lane_p32.val();
        self.lane_sum.p48.next = self.zero_p48.val();
        self.lane_sum.addend.next = self.extent.wide_v_out.val();

        // ---- result ----
        self.walk_first.next = self.walk_sum.result.val();
        self.lane_first.next = self.lane_sum.result.val();
        self.second_b.next = self.extent.second_b.val();
        self.next_rows.next = self.extent.next_rows.val();
        self.next_slices.next = self.extent.next_slices.val();
        self.next_sizes_constant.next = self.extent.next_sizes_constant.val();
        self.next_walk_a.next = self.extent.next_walk_a.val();
        self.next_walk_b.next = self.extent.next_walk_b.val();
        self.second_c.next = self.extent.second_c.val();
        self.lod_c.next = self.extent.lod_c.val();
        self.out_of_bounds.next = self.extent.out_of_bounds.val();
        self.next_level.next = self.extent.next_level.val();
        self.next_width.next = self.extent.next_width.val();
        self.next_height.next = self.extent.next_height.val();
        self.next_depth.next = self.extent.next_depth.val();
        self.next_width_is_one.next = self.extent.next_width_is_one.val();
        self.next_height_is_one.next = self.extent.next_height_is_one.val();
        self.next_depth_is_one.next = self.extent.next_depth_is_one.val();
    }
}

#[cfg(test)]
mod typed_addr_tests {
    use super::*;

    #[test]
    fn typed_addr_synthesizes() {
        let mut uut = TypedAddr::default();
        uut.connect_all();
        yosys_validate("atomport_typed_addr", &generate_verilog(&uut)).unwrap();
    }

    use crate::typed_extent::typed_extent_tests::layout;

    /// `x * y` (32 x 32) as the four 16 x 16 digit products the unit
    /// registers (`WalkProduct`, `LaneCoordReg`): `p0`, `p16` = x_lo * y_hi,
    /// `p16_b` = x_hi * y_lo, `p32`.
    fn digits(x: u32, y: u32) -> [u64; 4] {
        let (xl, xh, yl, yh) = (u64::from(x & 0xffff), u64::from(x >> 16), u64::from(y & 0xffff), u64::from(y >> 16));
        [xl * yl, xl * yh, xh * yl, xh * yh]
    }

    /// The emitted Verilog in Icarus against the step as documented above and
    /// in `TypedExtent`: the walk's extents halving, the next level's
    /// operands, the multiply-add operands of a walk, bulk or lod step, the
    /// bounds check, and this block's own sums: `walk_first = walk_a *
    /// walk_b` and `lane_first = r * rows + v` from their digit products.
    /// Inputs true to the contract (the unit's registers are the surface's
    /// at `level`): every kind, level and lod around a small surface, then
    /// seeded random large surfaces.
    #[test]
    fn the_verilog_steps_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = TypedAddr::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x3c6e_f372_fe94_f82bu64);
        // (kind, array, [W, H, D], levels, level, level_base, [u, v, r, lod], walk a and b)
        type Case = (u8, u32, [u32; 3], u32, u32, u64, [u32; 4], [u32; 2]);
        let mut cases: Vec<Case> = vec![];
        for kind in KIND_1D..=KIND_3D {
            for level in 0..6u32 {
                for lod in [0, level, level + 1, 5, 6] {
                    for [u, v, r] in [[0, 0, 0], [7 >> level, 3 >> level, 2 >> level], [8 >> level, 0, 0], [0, 4, 0], [0, 0, 3], [0, 0, 5]] {
                        let walk = [next() as u32, next() as u32];
                        cases.push((kind, 5, [8, 4, 3], 5, level, 0x40 * u64::from(level), [u, v, r, lod], walk));
                    }
                }
            }
        }
        let pick = |x: u64| -> u32 {
            match x % 4 {
                0 => (x >> 8) as u32 % 9 + 1,
                1 => 1 << ((x >> 8) % 32),
                2 => ((x >> 32) as u32).max(1),
                _ => u32::MAX,
            }
        };
        for i in 0..400 {
            let dims = [pick(next()), pick(next()), pick(next())];
            let (levels, level) = ((next() % 34) as u32, (next() % 36) as u32);
            let lod = match next() % 3 {
                0 => level,
                1 => level + (next() % 4) as u32,
                _ => next() as u32,
            };
            let coord = |x: u64| if x.is_multiple_of(3) { (x >> 40) as u32 % 4 } else { (x >> 32) as u32 };
            let walk = [if i % 7 == 0 { u32::MAX } else { next() as u32 }, if i % 5 == 0 { u32::MAX } else { next() as u32 }];
            cases.push(((i % 5) as u8, pick(next()), dims, levels, level, next(), [coord(next()), coord(next()), coord(next()), lod], walk));
        }
        let mut bench = String::from(
            "module bench;
reg [31:0] level, level_width, level_height, level_depth, coord_u, coord_v, coord_r, coord_lod, surf_array, rows, slices;
reg [63:0] level_base; reg width_is_one, height_is_one, depth_is_one, at_lod, lod_out_of_range, sizes_constant; reg [2:0] surf_kind;
reg [31:0] walk_p0, walk_p16_b, walk_p32, lane_p0, lane_p16_b, lane_p32; reg [32:0] walk_p16, lane_p16;
wire [63:0] walk_first, lane_first, second_c, lod_c; wire out_of_bounds, next_sizes_constant, next_width_is_one, next_height_is_one, next_depth_is_one;
wire [31:0] second_b, next_rows, next_slices, next_walk_a, next_walk_b, next_level, next_width, next_height, next_depth;
top uut(.level(level), .level_base(level_base), .level_width(level_width), .level_height(level_height), .level_depth(level_depth),
  .width_is_one(width_is_one), .height_is_one(height_is_one), .depth_is_one(depth_is_one), .coord_u(coord_u), .coord_v(coord_v),
  .coord_r(coord_r), .coord_lod(coord_lod), .at_lod(at_lod), .lod_out_of_range(lod_out_of_range), .surf_kind(surf_kind),
  .surf_array(surf_array), .rows(rows), .slices(slices), .sizes_constant(sizes_constant), .walk_p0(walk_p0), .walk_p16(walk_p16),
  .walk_p16_b(walk_p16_b), .walk_p32(walk_p32), .lane_p0(lane_p0), .lane_p16(lane_p16), .lane_p16_b(lane_p16_b), .lane_p32(lane_p32),
  .out_of_bounds(out_of_bounds), .walk_first(walk_first), .lane_first(lane_first), .second_b(second_b), .next_rows(next_rows),
  .next_slices(next_slices), .next_sizes_constant(next_sizes_constant), .next_walk_a(next_walk_a), .next_walk_b(next_walk_b),
  .second_c(second_c), .lod_c(lod_c), .next_level(next_level), .next_width(next_width), .next_height(next_height),
  .next_depth(next_depth), .next_width_is_one(next_width_is_one), .next_height_is_one(next_height_is_one),
  .next_depth_is_one(next_depth_is_one));
initial begin
",
        );
        let mut expected = vec![];
        for &(kind, array, dims, levels, level, level_base, [u, v, r, lod], [walk_a, walk_b]) in &cases {
            // the unit's registers at `level`: max(1, X >> level)
            let [w, h, d] = dims.map(|x| if level >= 32 { 1 } else { (x >> level).max(1) });
            let (rows, slices, constant) = layout(kind, array, [w, h, d]);
            let walk = digits(walk_a, walk_b);
            let lane = digits(r, rows);
            bench.push_str(&format!(
                "  level = {level}; level_base = 64'h{level_base:x}; level_width = {w}; level_height = {h}; level_depth = {d}; \
                 width_is_one = {}; height_is_one = {}; depth_is_one = {}; coord_u = {u}; coord_v = {v}; coord_r = {r}; \
                 coord_lod = {lod}; at_lod = {}; lod_out_of_range = {}; surf_kind = {kind}; surf_array = {array}; rows = {rows}; \
                 slices = {slices}; sizes_constant = {}; walk_p0 = 32'h{:x}; walk_p16 = 33'h{:x}; walk_p16_b = 32'h{:x}; \
                 walk_p32 = 32'h{:x}; lane_p0 = 32'h{:x}; lane_p16 = 33'h{:x}; lane_p16_b = 32'h{:x}; lane_p32 = 32'h{:x};\n  \
                 #1 $display(\"%h %h %b %h %h %h %h %h %b %h %h %h %h %b %b %b %h %h\", next_rows, next_slices, \
                 next_sizes_constant, next_walk_a, next_walk_b, second_b, second_c, lod_c, out_of_bounds, next_level, next_width, \
                 next_height, next_depth, next_width_is_one, next_height_is_one, next_depth_is_one, walk_first, lane_first);\n",
                u8::from(w == 1),
                u8::from(h == 1),
                u8::from(d == 1),
                u8::from(level == lod),
                u8::from(lod >= levels),
                u8::from(constant),
                walk[0],
                walk[1],
                walk[2],
                walk[3],
                lane[0],
                lane[1],
                lane[2],
                lane[3],
            ));
            // the level after a walk step, and the next step's first = a * b:
            // width * rows while sizes still halve, rows * slices for the bulk
            // step once they are constant
            let next = [w, h, d].map(|x| (x >> 1).max(1));
            let (next_rows, next_slices, next_constant) = layout(kind, array, next);
            let (next_a, next_b) = if next_constant { (next_rows, next_slices) } else { (next[0], next_rows) };
            // index = first * second_b + second_c: at lod (r * rows + v) * W + (base + u);
            // a bulk step adds the remaining (lod - level) constant-sized levels
            let second_b = if level == lod { w } else if constant { lod.wrapping_sub(level) } else { slices };
            let out_of_bounds = lod >= levels || u >= w || v >= rows || r >= slices;
            let next_level = if constant { lod } else { level.wrapping_add(1) };
            expected.push(format!(
                "{next_rows:08x} {next_slices:08x} {} {next_a:08x} {next_b:08x} {second_b:08x} {level_base:016x} {:016x} {} \
                 {next_level:08x} {:08x} {:08x} {:08x} {} {} {} {:016x} {:016x}",
                u8::from(next_constant),
                level_base.wrapping_add(u64::from(u)),
                u8::from(out_of_bounds),
                next[0],
                next[1],
                next[2],
                u8::from(next[0] == 1),
                u8::from(next[1] == 1),
                u8::from(next[2] == 1),
                u64::from(walk_a) * u64::from(walk_b),
                u64::from(r) * u64::from(rows) + u64::from(v),
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("typed-addr", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for ((line, want), case) in lines.iter().zip(&expected).zip(&cases) {
            assert_eq!(line, want, "{case:?}");
        }
    }
}
