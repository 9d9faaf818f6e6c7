//! `LaneCoordReg`: the issue stage's lane's `r` and `lod` coordinates,
//! registered as the lane enters the issue stage, with the two decisions
//! the typed walk takes on `lod` (`lod == 0`, `lod >= levels`) computed on
//! the way in, and the lane multiplier's product `r * rows` as digit
//! products ending at flip-flops.
//!
//! `lod` and its flags are the walk's done decision, so no payload bit
//! reaches the issue stage's stall decision. That decision is itself a
//! register here (`ready`): it changes only as a lane enters and as a walk
//! step issues, both known a cycle ahead, so the issue stage's stall chain
//! starts at a flip-flop (docs/synthesis.md). A typed lane has one element
//! (the decoder's `last_elem` is 0 for `TYPED_ATOMIC`), so its walk never
//! starts over within the lane.
//!
//! The product (`p0`, `p16`, `p16_b`, `p32`: the four 16 x 16 digit
//! products, the two of weight 2^16 kept apart so that no adder follows the
//! multipliers in this cycle; the issue stage's sum takes them as two
//! terms, `PartialSum`) is loaded with the lane from the
//! entering `r` and `entry_rows`, and in the cycle after each walk step
//! (`walk_step`: the step is in T) from the held `r` and `rows` (the rows
//! at the walk's new level; the issue stage waits for the step's
//! `level_base` a cycle longer). The operands are picked by `walk_step`, a
//! register, and `load` only enables the flip-flops, so the issue stage's
//! stall decision is not in front of the multipliers. The issue stage only
//! sums the terms with `v` (`TypedAddr`, `PartialSum`): no multiplier in I
//! (docs/synthesis.md).
//!
//! The lane's payload goes into a payload buffer at the same edge it enters
//! the issue stage when it moves on at once (its first cycle in N), so the
//! values come from `pay_coord` then, else from the buffer it went into
//! earlier. A sequential block of its own (like `CaptureReg`): the mux on
//! `pay_coord` is inside this block, so no input port feeds the unit's
//! combinational logic (docs/microarchitecture.md, "RTL structure rule
//! (Verilator)").

use rust_hdl::prelude::*;

use crate::addr_mul::{DIGIT_BITS, P0_BITS, P16_BITS, P32_BITS};
use crate::widths::{COORD_BITS, LANE_DATA_BITS};

/// Bit positions of `r` and `lod` in a lane's coordinates `{lod, r, v, u}`.
const R_OFFSET: usize = 2 * COORD_BITS;
const LOD_OFFSET: usize = 3 * COORD_BITS;

/// At a rising edge with `load`, with `c` the lane's coordinates
/// (`from_port ? port_coord : from_buf1 ? buf1_coord : buf0_coord`):
/// `r <= r_present ? c.r : 0`, `lod <= lod_present ? c.lod : 0`,
/// `lod_is_zero <= lod == 0`, `lod_out_of_range <= lod >= levels`; and at
/// a rising edge with `load` or `walk_step`, the digit products of
/// `walk_step ? r * rows : r' * entry_rows`, with `r'` the value `r` loads
/// (`load` and `walk_step` are never both up); and
/// `ready <= load ? (lod' == 0 | lod' >= levels) : walk_push ?
/// walk_reaches_lod : ready`.
#[derive(LogicBlock, Default)]
pub struct LaneCoordReg {
    pub clock: Signal<In, Clock>,
    /// The lane enters the issue stage.
    pub load: Signal<In, Bit>,
    /// Its message has an `r` / a `lod` coordinate (else it loads 0).
    pub r_present: Signal<In, Bit>,
    pub lod_present: Signal<In, Bit>,
    /// Its payload is on the port in this cycle.
    pub from_port: Signal<In, Bit>,
    /// Else it is in payload buffer 1 (or 0).
    pub from_buf1: Signal<In, Bit>,
    /// `pay_coord`, wired from the port.
    pub port_coord: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf0_coord: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf1_coord: Signal<In, Bits<LANE_DATA_BITS>>,
    /// The entering lane's surface's number of levels.
    pub levels: Signal<In, Bits<COORD_BITS>>,
    /// A walk step is in T: the held lane's `rows` changed at the last edge.
    pub walk_step: Signal<In, Bit>,
    /// The entering lane's `rows` at level 0, and the held lane's at its
    /// walk's level (`typed_lane_rows`).
    pub entry_rows: Signal<In, Bits<COORD_BITS>>,
    pub rows: Signal<In, Bits<COORD_BITS>>,
    /// A walk step issues, and the level it reaches is the lane's `lod`.
    pub walk_push: Signal<In, Bit>,
    pub walk_reaches_lod: Signal<In, Bit>,
    pub lod: Signal<Out, Bits<COORD_BITS>>,
    pub lod_is_zero: Signal<Out, Bit>,
    pub lod_out_of_range: Signal<Out, Bit>,
    /// The walk is done: at the lane's `lod`, or `lod` is out of range (the
    /// step's operands are the lane's address).
    pub ready: Signal<Out, Bit>,
    /// `r * rows = p0 + (p16 + p16_b) * 2^16 + p32 * 2^32`: `p16` is
    /// `r_lo * rows_hi` (its top bit 0, the width `PartialSum` takes), `p16_b`
    /// `r_hi * rows_lo`.
    pub p0: Signal<Out, Bits<P0_BITS>>,
    pub p16: Signal<Out, Bits<P16_BITS>>,
    pub p16_b: Signal<Out, Bits<P0_BITS>>,
    pub p32: Signal<Out, Bits<P32_BITS>>,
    /// the held lane's `r` (only the product reads it)
    r: Signal<Local, Bits<COORD_BITS>>,
}

impl LaneCoordReg {
    /// The registers' next values for one lane, as the Verilog computes them.
    pub fn model(r_present: bool, lod_present: bool, coord: u128, levels: u32) -> (u32, u32, bool, bool) {
        let r = if r_present { (coord >> R_OFFSET) as u32 } else { 0 };
        let lod = if lod_present { (coord >> LOD_OFFSET) as u32 } else { 0 };
        (r, lod, lod == 0, lod >= levels)
    }

    /// The digit products of `r * rows`: `(p0, p16, p16_b, p32)`.
    pub fn product(r: u32, rows: u32) -> (u64, u64, u64, u64) {
        let digit = |x: u32, k: usize| u64::from((x >> (DIGIT_BITS * k)) & 0xffff);
        let m = |i: usize, j: usize| digit(r, i) * digit(rows, j);
        (m(0, 0), m(0, 1), m(1, 0), m(1, 1))
    }
}

/// The four registered digit products of `a * b` as Verilog
/// (`LaneCoordReg`, `WalkProduct`): `p0 <= a_lo * b_lo`, `p16 <= a_lo *
/// b_hi` (`P16_BITS` wide, its top bit 0), `p16_b <= a_hi * b_lo`, `p32 <=
/// a_hi * b_hi`, each operand zero-extended to its product's width, each
/// statement indented by `indent`.
pub(crate) fn digit_products_verilog(indent: &str, (a_lo, a_hi): (&str, &str), (b_lo, b_hi): (&str, &str)) -> String {
    let (p0pad, p16pad, p32pad) = (P0_BITS - DIGIT_BITS, P16_BITS - DIGIT_BITS, P32_BITS - DIGIT_BITS);
    format!(
        "\
{indent}p0 <= {{{p0pad}'b0, {a_lo}}} * {{{p0pad}'b0, {b_lo}}};
{indent}p16 <= {{{p16pad}'b0, {a_lo}}} * {{{p16pad}'b0, {b_hi}}};
{indent}p16_b <= {{{p0pad}'b0, {a_hi}}} * {{{p0pad}'b0, {b_lo}}};
{indent}p32 <= {{{p32pad}'b0, {a_hi}}} * {{{p32pad}'b0, {b_hi}}};
"
    )
}

impl Logic for LaneCoordReg {
    fn update(&mut self) {
        if !self.clock.pos_edge() {
            return;
        }
        let coord = if self.from_port.val() {
            self.port_coord.val()
        } else if self.from_buf1.val() {
            self.buf1_coord.val()
        } else {
            self.buf0_coord.val()
        };
        let (r_in, lod, lod_is_zero, lod_out_of_range) = Self::model(
            self.r_present.val(),
            self.lod_present.val(),
            coord.to_u128(),
            self.levels.val().to_u128() as u32,
        );
        if self.load.val() || self.walk_step.val() {
            let (r, rows) = if self.walk_step.val() {
                (self.r.val().to_u128() as u32, self.rows.val().to_u128() as u32)
            } else {
                (r_in, self.entry_rows.val().to_u128() as u32)
            };
            let (p0, p16, p16_b, p32) = Self::product(r, rows);
            self.p0.next = (p0 as u128).to_bits();
            self.p16.next = (p16 as u128).to_bits();
            self.p16_b.next = (p16_b as u128).to_bits();
            self.p32.next = (p32 as u128).to_bits();
        }
        if self.load.val() {
            self.r.next = (r_in as u128).to_bits();
            self.lod.next = (lod as u128).to_bits();
            self.lod_is_zero.next = lod_is_zero;
            self.lod_out_of_range.next = lod_out_of_range;
            self.ready.next = lod_is_zero || lod_out_of_range;
        } else if self.walk_push.val() {
            self.ready.next = self.walk_reaches_lod.val();
        }
    }

    fn connect(&mut self) {
        self.r.connect();
        self.lod.connect();
        self.lod_is_zero.connect();
        self.lod_out_of_range.connect();
        self.ready.connect();
        self.p0.connect();
        self.p16.connect();
        self.p16_b.connect();
        self.p32.connect();
    }

    fn hdl(&self) -> Verilog {
        let (r_hi, r_lo) = (R_OFFSET + COORD_BITS - 1, R_OFFSET);
        let (lod_hi, lod_lo) = (LOD_OFFSET + COORD_BITS - 1, LOD_OFFSET);
        let (w, top, below) = (COORD_BITS, LANE_DATA_BITS - 1, R_OFFSET - 1);
        Verilog::Custom(format!(
            "\
initial begin
   r = {w}'h0;
end
initial begin
   lod = {w}'h0;
end
initial begin
   lod_is_zero = 1'b1;
end
initial begin
   lod_out_of_range = 1'b0;
end
initial begin
   ready = 1'b1;
end
initial begin
   p0 = {p0w}'h0;
end
initial begin
   p16 = {p16w}'h0;
end
initial begin
   p16_b = {p0w}'h0;
end
initial begin
   p32 = {p32w}'h0;
end

wire [{top}:0] coord = from_port ? port_coord : (from_buf1 ? buf1_coord : buf0_coord);
wire [{w_1}:0] r_in = r_present ? coord[{r_hi}:{r_lo}] : {w}'h0;
wire [{w_1}:0] lod_in = lod_present ? coord[{lod_hi}:{lod_lo}] : {w}'h0;
// (u and v are the issue stage's, from the buffers)
wire unused_coords = ^coord[{below}:0];
// the product's operands: the held lane's after a walk step, else the entering lane's
wire [{w_1}:0] mul_r = walk_step ? r : r_in;
wire [{w_1}:0] mul_rows = walk_step ? rows : entry_rows;
wire [{dw_1}:0] r_lo = mul_r[{dw_1}:0];
wire [{dw_1}:0] r_hi = mul_r[{w_1}:{dw}];
wire [{dw_1}:0] rows_lo = mul_rows[{dw_1}:0];
wire [{dw_1}:0] rows_hi = mul_rows[{w_1}:{dw}];

always @(posedge clock) begin
   if (load | walk_step) begin
{products}   end
   if (load) begin
      r <= r_in;
      lod <= lod_in;
      lod_is_zero <= lod_in == {w}'h0;
      lod_out_of_range <= lod_in >= levels;
   end
   if (load) begin
      ready <= (lod_in == {w}'h0) | (lod_in >= levels);
   end else if (walk_push) begin
      ready <= walk_reaches_lod;
   end
end
",
            w_1 = w - 1,
            dw = DIGIT_BITS,
            dw_1 = DIGIT_BITS - 1,
            p0w = P0_BITS,
            p16w = P16_BITS,
            p32w = P32_BITS,
            products = digit_products_verilog("      ", ("r_lo", "r_hi"), ("rows_lo", "rows_hi")),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_coord_reg_synthesizes() {
        let mut uut = LaneCoordReg::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("lod_out_of_range <= lod_in >= levels;"), "{vlog}");
        assert!(vlog.contains("p16 <= {17'b0, r_lo} * {17'b0, rows_hi};"), "{vlog}");
        assert!(vlog.contains("p16_b <= {16'b0, r_hi} * {16'b0, rows_lo};"), "{vlog}");
        yosys_validate("atomport_lane_coord_reg", &vlog).unwrap();
    }

    #[test]
    fn digit_products_summed_by_weight_are_r_times_rows() {
        for (r, rows) in [(0xffff_ffffu32, 0xffff_ffffu32), (0x1234_5678, 0x9abc_def0), (7, 1), (0, 0xffff_ffff)] {
            let (p0, p16, p16_b, p32) = LaneCoordReg::product(r, rows);
            assert!(p0 < 1 << P0_BITS && p16 < 1 << P0_BITS && p16_b < 1 << P0_BITS && p32 < 1 << P32_BITS);
            let sum = u128::from(p0)
                + ((u128::from(p16) + u128::from(p16_b)) << DIGIT_BITS)
                + (u128::from(p32) << (2 * DIGIT_BITS));
            assert_eq!(sum, u128::from(r) * u128::from(rows), "{r:#x} * {rows:#x}");
        }
    }

    /// The emitted Verilog in Icarus, edge by edge, against the documented
    /// registers: seeded random steps that keep `load` and `walk_step` apart
    /// (the contract), with small `lod`/`levels` so that both flags and
    /// their boundary (`lod == levels`) occur; the digit products modelled
    /// as documented (`p16 = r_lo * rows_hi`, `p16_b = r_hi * rows_lo`).
    #[test]
    fn the_verilog_registers_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = LaneCoordReg::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x510e_527f_ade6_82d1u64);
        #[derive(Clone, Copy)]
        struct Step {
            load: bool,
            walk_step: bool,
            r_present: bool,
            lod_present: bool,
            from_port: bool,
            from_buf1: bool,
            coords: [u128; 3], // port, buf0, buf1
            levels: u32,
            entry_rows: u32,
            rows: u32,
            walk_push: bool,
            walk_reaches_lod: bool,
        }
        let coord = |next: &mut dyn FnMut() -> u64| {
            // {lod, r, v, u}: lod small or anything, r corner or random
            let lod = if next().is_multiple_of(4) { next() as u32 } else { (next() % 6) as u32 };
            let r = match next() % 4 {
                0 => 0xffff_ffff,
                1 => (next() % 3) as u32,
                _ => next() as u32,
            };
            (u128::from(lod) << 96) | (u128::from(r) << 64) | u128::from(next())
        };
        let mut steps = vec![];
        for _ in 0..1500 {
            let kind = next() % 3; // load, walk step, neither
            let bits = next();
            let coords = [coord(&mut next), coord(&mut next), coord(&mut next)];
            let rows_of = |x: u64| match x % 4 {
                0 => 0xffff_ffffu32,
                1 => (x >> 8) as u32 & 0xffff,
                _ => (x >> 16) as u32,
            };
            steps.push(Step {
                load: kind == 0,
                walk_step: kind == 1,
                r_present: bits & 1 == 1 || bits & 2 == 2,
                lod_present: bits & 4 == 4 || bits & 8 == 8,
                from_port: bits & 16 == 16,
                from_buf1: bits & 32 == 32,
                coords,
                levels: ((bits >> 8) % 6) as u32,
                entry_rows: rows_of(next()),
                rows: rows_of(next()),
                walk_push: bits & 64 == 64,
                walk_reaches_lod: bits & 128 == 128,
            });
        }
        let show = "$display(\"%0d %b %b %b %0d %0d %0d %0d\", lod, lod_is_zero, lod_out_of_range, ready, p0, p16, p16_b, p32);";
        let mut bench = format!(
            "module bench;\nreg clock = 0, load = 0, r_present = 0, lod_present = 0, from_port = 0, from_buf1 = 0;\n\
             reg walk_step = 0, walk_push = 0, walk_reaches_lod = 0;\n\
             reg [127:0] port_coord = 0, buf0_coord = 0, buf1_coord = 0; reg [31:0] levels = 0, entry_rows = 0, rows = 0;\n\
             wire [31:0] lod, p0, p16_b, p32; wire [32:0] p16; wire lod_is_zero, lod_out_of_range, ready;\n\
             top uut(.clock(clock), .load(load), .r_present(r_present), .lod_present(lod_present), .from_port(from_port),\n\
             .from_buf1(from_buf1), .port_coord(port_coord), .buf0_coord(buf0_coord), .buf1_coord(buf1_coord),\n\
             .levels(levels), .walk_step(walk_step), .entry_rows(entry_rows), .rows(rows), .walk_push(walk_push),\n\
             .walk_reaches_lod(walk_reaches_lod), .lod(lod), .lod_is_zero(lod_is_zero), .lod_out_of_range(lod_out_of_range),\n\
             .ready(ready), .p0(p0), .p16(p16), .p16_b(p16_b), .p32(p32));\n\
             initial begin\n  #1 {show}\n"
        );
        for s in &steps {
            bench.push_str(&format!(
                "  load = {}; walk_step = {}; r_present = {}; lod_present = {}; from_port = {}; from_buf1 = {};\n  \
                 port_coord = 128'h{:032x}; buf0_coord = 128'h{:032x}; buf1_coord = 128'h{:032x};\n  \
                 levels = {}; entry_rows = {}; rows = {}; walk_push = {}; walk_reaches_lod = {};\n  \
                 #1 clock = 1; #1 {show} clock = 0;\n",
                u8::from(s.load),
                u8::from(s.walk_step),
                u8::from(s.r_present),
                u8::from(s.lod_present),
                u8::from(s.from_port),
                u8::from(s.from_buf1),
                s.coords[0],
                s.coords[1],
                s.coords[2],
                s.levels,
                s.entry_rows,
                s.rows,
                u8::from(s.walk_push),
                u8::from(s.walk_reaches_lod)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("lane-coord-reg", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), steps.len() + 1, "vvp printed {} lines for {} edges", lines.len(), steps.len());
        // power-up: nothing loaded, lod 0, so the walk is done
        let (mut r, mut lod, mut lod_is_zero, mut lod_out_of_range, mut ready) = (0u32, 0u32, true, false, true);
        let mut products = (0u64, 0u64, 0u64, 0u64);
        let shown = |lod: u32, z: bool, o: bool, ready: bool, p: (u64, u64, u64, u64)| {
            format!("{lod} {} {} {} {} {} {} {}", u8::from(z), u8::from(o), u8::from(ready), p.0, p.1, p.2, p.3)
        };
        assert_eq!(lines[0], shown(lod, lod_is_zero, lod_out_of_range, ready, products), "power-up");
        let mut seen = std::collections::BTreeSet::new();
        for (i, (line, s)) in lines[1..].iter().zip(&steps).enumerate() {
            let c = if s.from_port { s.coords[0] } else if s.from_buf1 { s.coords[2] } else { s.coords[1] };
            let r_in = if s.r_present { (c >> 64) as u32 } else { 0 };
            let lod_in = if s.lod_present { (c >> 96) as u32 } else { 0 };
            if s.load || s.walk_step {
                let (a, b) = if s.walk_step { (r, s.rows) } else { (r_in, s.entry_rows) };
                let (lo, hi) = (|x: u32| u64::from(x & 0xffff), |x: u32| u64::from(x >> 16));
                products = (lo(a) * lo(b), lo(a) * hi(b), hi(a) * lo(b), hi(a) * hi(b));
            }
            if s.load {
                (r, lod) = (r_in, lod_in);
                (lod_is_zero, lod_out_of_range) = (lod_in == 0, lod_in >= s.levels);
                ready = lod_is_zero || lod_out_of_range;
                seen.insert((lod_is_zero, lod_out_of_range, lod_in == s.levels));
            } else if s.walk_push {
                ready = s.walk_reaches_lod;
            }
            assert_eq!(line, &shown(lod, lod_is_zero, lod_out_of_range, ready, products), "edge {i}");
        }
        assert!(seen.len() >= 4, "flag cases seen: {seen:?}");
    }
}
