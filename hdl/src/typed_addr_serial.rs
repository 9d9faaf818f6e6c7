//! `TypedAddrSerial`: the TYPED_ATOMIC address of one lane, computed over
//! several cycles with one 64-bit adder: a shift-add multiplier (one bit of
//! the multiplier per cycle, ending when its remaining bits are zero)
//! serves every product of the walk. For parts without multipliers
//! (iCE40HX), where `TypedAddr`'s 32 x 32 and 64 x 32 products cost about
//! 4,000 LUTs (docs/synthesis.md); a lane costs cycles instead: a few per
//! level for small extents, at most about 70 per level walked.
//!
//! The layout is `TypedAddr`'s (scripts.md "Typed surface layout",
//! `golden::surface::typed_address`): element (u, v, r) of level l is at
//! `base + (level_base(l) + (r * rows_l + v) * width_l + u) * E`, with
//! width, height and depth halving per level (never below 1), rows/slices
//! per kind (1d: 1/1, 1d_array: array/1, 2d: H/1, 2d_array: H/array, 3d:
//! H/D) and E = 2 (u16) or 4 bytes. All arithmetic is modulo 2^64.
//!
//! The walk, one multiply-add `a * b + c` per state:
//!
//! | state       | a         | b        | c            | result            |
//! | ----------- | --------- | -------- | ------------ | ----------------- |
//! | WalkRows    | width_l   | rows_l   | 0            | width_l * rows_l  |
//! | WalkSlices  | that      | slices_l | level_base   | level_base(l + 1) |
//! | WalkRows (bulk) | rows_l | slices_l | 0           | the size of every level left |
//! | WalkSlices (bulk) | that  | lod - l  | level_base  | level_base(lod)   |
//! | IndexRows   | r         | rows     | v            | r * rows + v      |
//! | IndexWidth  | that      | width    | level_base   |                   |
//! | IndexU      | u         | 1        | that         | the element index |
//!
//! A bulk step adds every level from l to lod at once when the extents the
//! kind halves are all 1 (then every level has the same size, `rows_l *
//! slices_l`), so a lod of 2^32 - 2 costs no more than the levels before
//! the extents reach 1. The extents per kind and WalkRows' operands are
//! `WalkOperands`' (`walk_a`, `walk_b`), as in `TypedAddr`.
//! `lod >= levels` and a coordinate at or past its extent at lod end the
//! walk with `out_of_bounds`.
//!
//! The inputs must hold from `start` until `done`.

use rust_hdl::prelude::*;

use crate::extend::ZeroExtend;
use crate::state_reg::StateReg;
use crate::walk_operands::WalkOperands;
use crate::widths::{ADDR_BITS, COORD_BITS};

/// The walk's state.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum SerialWalk {
    Idle,
    /// at `level`: the address (level = lod), or a walk step: the level's
    /// size, or the size of every level left (bulk)
    Walk,
    WalkRows,
    WalkSlices,
    IndexRows,
    IndexWidth,
    IndexU,
}

/// One lane's TYPED_ATOMIC address, a multiply-add per state.
#[derive(LogicBlock)]
pub struct TypedAddrSerial {
    pub clock: Signal<In, Clock>,
    /// abandons the walk
    pub reset: Signal<In, Bit>,
    /// starts a lane's walk (only when not `busy`)
    pub start: Signal<In, Bit>,
    // ---- the surface ----
    /// 0..=4: 1d, 1d_array, 2d, 2d_array, 3d
    pub surf_kind: Signal<In, Bits<3>>,
    pub surf_base: Signal<In, Bits<ADDR_BITS>>,
    pub surf_width: Signal<In, Bits<COORD_BITS>>,
    pub surf_height: Signal<In, Bits<COORD_BITS>>,
    pub surf_depth: Signal<In, Bits<COORD_BITS>>,
    pub surf_array: Signal<In, Bits<COORD_BITS>>,
    pub surf_levels: Signal<In, Bits<COORD_BITS>>,
    /// 2-byte elements (else 4)
    pub surf_u16: Signal<In, Bit>,
    // ---- the lane ----
    pub coord_u: Signal<In, Bits<COORD_BITS>>,
    pub coord_v: Signal<In, Bits<COORD_BITS>>,
    pub coord_r: Signal<In, Bits<COORD_BITS>>,
    pub coord_lod: Signal<In, Bits<COORD_BITS>>,
    // ---- the result ----
    /// a walk is under way
    pub busy: Signal<Out, Bit>,
    /// for one cycle: `addr` and `out_of_bounds` are the lane's
    pub done: Signal<Out, Bit>,
    pub addr: Signal<Out, Bits<ADDR_BITS>>,
    pub out_of_bounds: Signal<Out, Bit>,

    state: StateReg<SerialWalk>,
    /// the level whose size is added next
    level: DFF<Bits<COORD_BITS>>,
    /// max(1, W >> level), max(1, H >> level), max(1, D >> level)
    width: DFF<Bits<COORD_BITS>>,
    height: DFF<Bits<COORD_BITS>>,
    depth: DFF<Bits<COORD_BITS>>,
    /// elements in the levels below `level`
    level_base: DFF<Bits<ADDR_BITS>>,
    /// the walk step adds every level left (lod - level of them)
    bulk: DFF<Bit>,
    /// the multiply-add: `product` accumulates `a * b + c` as `b` shifts out
    mul_a: DFF<Bits<ADDR_BITS>>,
    mul_b: DFF<Bits<COORD_BITS>>,
    product: DFF<Bits<ADDR_BITS>>,
    addr_q: DFF<Bits<ADDR_BITS>>,
    out_of_bounds_q: DFF<Bit>,
    done_q: DFF<Bit>,
    /// rows and slices at `level`, and whether every level from it on has its size
    extent: WalkOperands,
    /// the multiply-add's 32-bit operands, widened
    wide_r: ZeroExtend<COORD_BITS, ADDR_BITS>,
    wide_v: ZeroExtend<COORD_BITS, ADDR_BITS>,
    wide_u: ZeroExtend<COORD_BITS, ADDR_BITS>,
    wide_walk_a: ZeroExtend<COORD_BITS, ADDR_BITS>,
    /// the multiply-add's step: `product + a` when b's low bit is set
    step_sum: Signal<Local, Bits<ADDR_BITS>>,
    /// the element index times E (the address's offset from the base)
    index_bytes: Signal<Local, Bits<ADDR_BITS>>,
    mul_done: Signal<Local, Bit>,
    one: Constant<Bits<COORD_BITS>>,
    zero_wide: Constant<Bits<ADDR_BITS>>,
}

impl Default for TypedAddrSerial {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            surf_kind: Default::default(),
            surf_base: Default::default(),
            surf_width: Default::default(),
            surf_height: Default::default(),
            surf_depth: Default::default(),
            surf_array: Default::default(),
            surf_levels: Default::default(),
            surf_u16: Default::default(),
            coord_u: Default::default(),
            coord_v: Default::default(),
            coord_r: Default::default(),
            coord_lod: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            addr: Default::default(),
            out_of_bounds: Default::default(),
            state: Default::default(),
            level: Default::default(),
            width: Default::default(),
            height: Default::default(),
            depth: Default::default(),
            level_base: Default::default(),
            bulk: Default::default(),
            mul_a: Default::default(),
            mul_b: Default::default(),
            product: Default::default(),
            addr_q: Default::default(),
            out_of_bounds_q: Default::default(),
            done_q: Default::default(),
            extent: Default::default(),
            wide_r: Default::default(),
            wide_v: Default::default(),
            wide_u: Default::default(),
            wide_walk_a: Default::default(),
            step_sum: Default::default(),
            index_bytes: Default::default(),
            mul_done: Default::default(),
            one: Constant::new(1u32.to_bits()),
            zero_wide: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for TypedAddrSerial {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            level,
            width,
            height,
            depth,
            level_base,
            bulk,
            mul_a,
            mul_b,
            product,
            addr_q,
            out_of_bounds_q,
            done_q
        );
        self.state.clock.next = self.clock.val();
        self.state.d.next = self.state.q.val();
        self.done_q.d.next = false;
        self.busy.next = self.state.q.val() != SerialWalk::Idle;
        self.done.next = self.done_q.q.val();
        self.addr.next = self.addr_q.q.val();
        self.out_of_bounds.next = self.out_of_bounds_q.q.val();

        self.extent.surf_kind.next = self.surf_kind.val();
        self.extent.surf_array.next = self.surf_array.val();
        self.extent.width.next = self.width.q.val();
        self.extent.height.next = self.height.q.val();
        self.extent.depth.next = self.depth.q.val();
        self.extent.width_is_one.next = self.width.q.val() == self.one.val();
        self.extent.height_is_one.next = self.height.q.val() == self.one.val();
        self.extent.depth_is_one.next = self.depth.q.val() == self.one.val();
        self.wide_r.narrow.next = self.coord_r.val();
        self.wide_v.narrow.next = self.coord_v.val();
        self.wide_u.narrow.next = self.coord_u.val();
        self.wide_walk_a.narrow.next = self.extent.walk_a.val();

        self.step_sum.next = self.product.q.val() + self.mul_a.q.val();
        self.index_bytes.next = self.product.q.val() << 2;
        if self.surf_u16.val() {
            self.index_bytes.next = self.product.q.val() << 1;
        }
        self.mul_done.next = !self.mul_b.q.val().any();
        if !self.mul_done.val() {
            if self.mul_b.q.val().get_bit(0) {
                self.product.d.next = self.step_sum.val();
            }
            self.mul_a.d.next = self.mul_a.q.val() << 1;
            self.mul_b.d.next = self.mul_b.q.val() >> 1;
        }

        match self.state.q.val() {
            SerialWalk::Idle => {
                if self.start.val() {
                    self.level.d.next = 0.into();
                    self.level_base.d.next = self.zero_wide.val();
                    self.width.d.next = self.surf_width.val();
                    if !self.surf_width.val().any() {
                        self.width.d.next = self.one.val();
                    }
                    self.height.d.next = self.surf_height.val();
                    if !self.surf_height.val().any() {
                        self.height.d.next = self.one.val();
                    }
                    self.depth.d.next = self.surf_depth.val();
                    if !self.surf_depth.val().any() {
                        self.depth.d.next = self.one.val();
                    }
                    if self.coord_lod.val() < self.surf_levels.val() {
                        self.state.d.next = SerialWalk::Walk;
                    } else {
                        self.out_of_bounds_q.d.next = true;
                        self.done_q.d.next = true;
                    }
                }
            }
            SerialWalk::Walk => {
                if self.level.q.val() == self.coord_lod.val() {
                    self.mul_a.d.next = self.wide_r.wide.val();
                    self.mul_b.d.next = self.extent.rows.val();
                    self.product.d.next = self.wide_v.wide.val();
                    self.state.d.next = SerialWalk::IndexRows;
                    if ((self.coord_u.val() >= self.width.q.val()) | (self.coord_v.val() >= self.extent.rows.val()))
                        | (self.coord_r.val() >= self.extent.slices.val())
                    {
                        self.out_of_bounds_q.d.next = true;
                        self.done_q.d.next = true;
                        self.state.d.next = SerialWalk::Idle;
                    }
                } else {
                    self.mul_a.d.next = self.wide_walk_a.wide.val();
                    self.mul_b.d.next = self.extent.walk_b.val();
                    self.product.d.next = self.zero_wide.val();
                    self.bulk.d.next = self.extent.sizes_constant.val();
                    self.state.d.next = SerialWalk::WalkRows;
                }
            }
            SerialWalk::WalkRows => {
                if self.mul_done.val() {
                    self.mul_a.d.next = self.product.q.val();
                    self.mul_b.d.next = self.extent.slices.val();
                    if self.bulk.q.val() {
                        self.mul_b.d.next = self.coord_lod.val() - self.level.q.val();
                    }
                    self.product.d.next = self.level_base.q.val();
                    self.state.d.next = SerialWalk::WalkSlices;
                }
            }
            SerialWalk::WalkSlices => {
                if self.mul_done.val() {
                    self.level_base.d.next = self.product.q.val();
                    if self.bulk.q.val() {
                        self.level.d.next = self.coord_lod.val();
                    } else {
                        self.level.d.next = self.level.q.val() + self.one.val();
                        self.width.d.next = self.width.q.val() >> 1;
                        if self.width.q.val() == self.one.val() {
                            self.width.d.next = self.one.val();
                        }
                        self.height.d.next = self.height.q.val() >> 1;
                        if self.height.q.val() == self.one.val() {
                            self.height.d.next = self.one.val();
                        }
                        self.depth.d.next = self.depth.q.val() >> 1;
                        if self.depth.q.val() == self.one.val() {
                            self.depth.d.next = self.one.val();
                        }
                    }
                    self.state.d.next = SerialWalk::Walk;
                }
            }
            SerialWalk::IndexRows => {
                if self.mul_done.val() {
                    self.mul_a.d.next = self.product.q.val();
                    self.mul_b.d.next = self.width.q.val();
                    self.product.d.next = self.level_base.q.val();
                    self.state.d.next = SerialWalk::IndexWidth;
                }
            }
            SerialWalk::IndexWidth => {
                if self.mul_done.val() {
                    self.mul_a.d.next = self.wide_u.wide.val();
                    self.mul_b.d.next = self.one.val();
                    self.state.d.next = SerialWalk::IndexU;
                }
            }
            SerialWalk::IndexU => {
                if self.mul_done.val() {
                    self.addr_q.d.next = self.surf_base.val() + self.index_bytes.val();
                    self.out_of_bounds_q.d.next = false;
                    self.done_q.d.next = true;
                    self.state.d.next = SerialWalk::Idle;
                }
            }
        }
        if self.reset.val() {
            self.state.d.next = SerialWalk::Idle;
            self.done_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use atomport_core::golden::surface::typed_address;
    use atomport_core::program::{TypedFormat, TypedKind, TypedSurface};

    #[test]
    fn typed_addr_serial_synthesizes() {
        let mut uut = TypedAddrSerial::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("atomport_typed_addr_serial", &vlog).unwrap();
    }

    /// One lane: the surface and (u, v, r, lod).
    struct Lane {
        surface: TypedSurface,
        coords: [u32; 4],
    }

    fn lanes() -> Vec<Lane> {
        let kinds = [TypedKind::D1, TypedKind::D1Array, TypedKind::D2, TypedKind::D2Array, TypedKind::D3];
        let surface = |kind, base, [width, height, depth, array, levels]: [u32; 5], format| TypedSurface {
            kind,
            base,
            width,
            height,
            depth,
            array,
            levels,
            format,
        };
        let mut out = vec![];
        // every kind on a small surface: every level, coordinates at and past
        // each extent, lod at and past `levels`
        for (k, &kind) in kinds.iter().enumerate() {
            let s = surface(kind, 0x1000 * (k as u64 + 1), [8, 4, 3, 5, 5], TypedFormat::U32);
            for lod in 0..6 {
                for (u, v, r) in [(0, 0, 0), (1, 1, 1), (7 >> lod, 0, 0), (8 >> lod, 0, 0), (0, 3, 0), (0, 4, 0), (0, 0, 4), (0, 0, 5), (0, 2 >> lod, 2)] {
                    out.push(Lane { surface: s.clone(), coords: [u, v, r, lod] });
                }
            }
        }
        // large extents and addresses past 32 bits, u16, lods past where every
        // extent is 1 (the remaining levels at once), and huge lods
        let mut next = crate::icarus::xorshift(0x2545_f491_4f6c_dd1du64);
        for i in 0..400 {
            let kind = kinds[i % 5];
            let pick = |x: u64, i: usize| -> u32 {
                match (x >> 8) % 4 {
                    0 => (x % 9) as u32,
                    1 => 1 << (x % 32),
                    2 => (x >> 16) as u32,
                    _ => ((x >> 20) % 70_000) as u32 + i as u32 % 3,
                }
            };
            let dims = [pick(next(), i), pick(next(), i), pick(next(), i), pick(next(), i), pick(next(), i).max(1)];
            let format = if next() & 1 == 0 { TypedFormat::U32 } else { TypedFormat::U16 };
            let s = surface(kind, next(), dims, format);
            let c = |x: u64, ext: u32| -> u32 {
                match x % 4 {
                    0 => 0,
                    1 => ext.saturating_sub(1) >> (x % 3),
                    2 => ext,
                    _ => (x >> 32) as u32,
                }
            };
            let lod = match next() % 5 {
                0 => 0,
                1 => dims[4].saturating_sub(1),
                2 => (next() % 40) as u32,
                3 => dims[4],
                _ => next() as u32,
            };
            let coords = [c(next(), dims[0] >> (lod.min(31))), c(next(), dims[1]), c(next(), dims[2]), lod];
            out.push(Lane { surface: s, coords });
        }
        out
    }

    /// The emitted Verilog under Icarus, lane after lane, against the golden
    /// model's `typed_address`; the cycles per lane stay within the bound
    /// the module documentation states.
    #[test]
    fn typed_addr_serial_matches_the_golden_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = TypedAddrSerial::default();
        uut.connect_all();
        let lanes = lanes();
        let mut bench = String::from(
            "module bench;
reg clock = 0, reset = 1, start = 0;
reg [2:0] surf_kind; reg [63:0] surf_base;
reg [31:0] surf_width, surf_height, surf_depth, surf_array, surf_levels, coord_u, coord_v, coord_r, coord_lod;
reg surf_u16;
wire busy, done, out_of_bounds; wire [63:0] addr;
integer cycles;
top uut(.clock(clock), .reset(reset), .start(start), .surf_kind(surf_kind), .surf_base(surf_base),
  .surf_width(surf_width), .surf_height(surf_height), .surf_depth(surf_depth), .surf_array(surf_array),
  .surf_levels(surf_levels), .surf_u16(surf_u16), .coord_u(coord_u), .coord_v(coord_v), .coord_r(coord_r),
  .coord_lod(coord_lod), .busy(busy), .done(done), .addr(addr), .out_of_bounds(out_of_bounds));
always #5 clock = !clock;
task lane;
  begin
    @(negedge clock) start = 1; cycles = 0;
    @(negedge clock) start = 0;
    while (!done && cycles < 4000) begin @(negedge clock) cycles = cycles + 1; end
    $display(\"%h %b %0d %b\", addr, out_of_bounds, cycles, busy);
  end
endtask
initial begin
  @(negedge clock) reset = 0;
",
        );
        for l in &lanes {
            let s = &l.surface;
            let [u, v, r, lod] = l.coords;
            bench.push_str(&format!(
                "  surf_kind = {}; surf_base = 64'h{:x}; surf_width = {}; surf_height = {}; surf_depth = {}; \
                 surf_array = {}; surf_levels = {}; surf_u16 = {}; coord_u = {u}; coord_v = {v}; coord_r = {r}; \
                 coord_lod = {lod}; lane;\n",
                s.kind as u8,
                s.base,
                s.width,
                s.height,
                s.depth,
                s.array,
                s.levels,
                u8::from(s.format == TypedFormat::U16),
            ));
        }
        bench.push_str("  $finish;\nend\nendmodule\n");
        let lines = crate::icarus::run("typed-addr-serial", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), lanes.len(), "vvp output:\n{}", lines.join("\n"));
        let mut most_cycles = 0;
        for (line, l) in lines.iter().zip(&lanes) {
            let [u, v, r, lod] = l.coords;
            let f: Vec<&str> = line.split(' ').collect();
            let (addr, oob, cycles, busy) = (u64::from_str_radix(f[0], 16).unwrap(), f[1] == "1", f[2].parse::<u32>().unwrap(), f[3]);
            let want = typed_address(&l.surface, u, v, r, lod);
            let what = format!("{:?} u={u} v={v} r={r} lod={lod}", l.surface);
            assert_eq!(oob, want.is_none(), "out of bounds: {what}");
            if let Some(a) = want {
                assert_eq!(addr, a, "address: {what}: {addr:#x} against {a:#x}");
            }
            assert_eq!(busy, "0", "busy after done: {what}");
            most_cycles = most_cycles.max(cycles);
            // 32 levels walked at most, two multiplies of at most 33 cycles
            // each (the bench gives up at 4,000)
            assert!(cycles <= 32 * 68 + 3 * 34 + 4, "{cycles} cycles: {what}");
        }
        eprintln!("{} lanes, at most {most_cycles} cycles", lanes.len());
    }
}
