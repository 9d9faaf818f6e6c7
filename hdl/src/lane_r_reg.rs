//! `LaneRReg`: the issue stage's lane's `r` coordinate, the typed-surface
//! lane multiplier's operand (`TypedAddr`'s `lane_r_held`), registered as
//! the lane enters the issue stage, so that the multiply starts at
//! flip-flops instead of behind the payload buffers' 2-way mux.
//!
//! The lane's payload goes into a payload buffer at the same edge it enters
//! the issue stage when it moves on at once (its first cycle in N), so the
//! value comes from `pay_coord` then, else from the buffer it went into
//! earlier. A sequential block of its own (like `CaptureReg`): the mux on
//! `pay_coord` is inside its clocked update, so no input port feeds the
//! unit's combinational logic (docs/microarchitecture.md, "RTL structure
//! rule (Verilator)").

use rust_hdl::prelude::*;

use crate::lane_mux::LANE_DATA_BITS;
use crate::typed_extent::COORD_BITS;

/// Bit position of `r` in a lane's coordinates `{lod, r, v, u}`.
const R_OFFSET: usize = 2 * COORD_BITS;

/// At a rising edge with `load`: `q <= !present ? 0 : from_port ?
/// port_coord.r : (from_buf1 ? buf1_coord.r : buf0_coord.r)`.
#[derive(LogicBlock, Default)]
pub struct LaneRReg {
    pub clock: Signal<In, Clock>,
    /// The lane enters the issue stage.
    pub load: Signal<In, Bit>,
    /// Its message has an `r` coordinate (else `q` loads 0).
    pub present: Signal<In, Bit>,
    /// Its payload is on the port in this cycle.
    pub from_port: Signal<In, Bit>,
    /// Else it is in payload buffer 1 (or 0).
    pub from_buf1: Signal<In, Bit>,
    /// `pay_coord`, wired from the port.
    pub port_coord: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf0_coord: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf1_coord: Signal<In, Bits<LANE_DATA_BITS>>,
    pub q: Signal<Out, Bits<COORD_BITS>>,
}

impl Logic for LaneRReg {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.load.val() {
            let pick = |c: Bits<LANE_DATA_BITS>| c.get_bits::<COORD_BITS>(R_OFFSET);
            self.q.next = if !self.present.val() {
                Bits::default()
            } else if self.from_port.val() {
                pick(self.port_coord.val())
            } else if self.from_buf1.val() {
                pick(self.buf1_coord.val())
            } else {
                pick(self.buf0_coord.val())
            };
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        let (hi, lo, w) = (R_OFFSET + COORD_BITS - 1, R_OFFSET, COORD_BITS);
        let (top, above, below) = (LANE_DATA_BITS - 1, hi + 1, lo - 1);
        Verilog::Custom(format!(
            "\
initial begin
   q = {w}'h0;
end

// (the other coordinates are the issue stage's, from the buffers)
wire unused_coords = ^{{port_coord[{top}:{above}], port_coord[{below}:0], buf0_coord[{top}:{above}], buf0_coord[{below}:0], buf1_coord[{top}:{above}], buf1_coord[{below}:0]}};

always @(posedge clock) begin
   if (load) begin
      if (!present) q <= {w}'h0;
      else if (from_port) q <= port_coord[{hi}:{lo}];
      else if (from_buf1) q <= buf1_coord[{hi}:{lo}];
      else q <= buf0_coord[{hi}:{lo}];
   end
end
"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_r_reg_synthesizes() {
        let mut uut = LaneRReg::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("else if (from_port) q <= port_coord[95:64];"), "{vlog}");
        yosys_validate("atomport_lane_r_reg", &vlog).unwrap();
    }
}
