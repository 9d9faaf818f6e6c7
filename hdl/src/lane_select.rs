//! `LaneSelect`: find-first-set over the lanes still to be issued.
//!
//! The unit skips disabled lanes without spending a cycle on them
//! (issue "lane-serializing memory-port unit"): every cycle it takes the
//! lowest set bit of the remaining-lanes mask. `onehot = mask & -mask`
//! isolates that bit with one adder; the binary lane number is then a
//! one-hot to binary encode: bit b of the number is the OR of the one-hot
//! bits whose index has bit b set (five 16-input ORs, no priority chain).

use rust_hdl::prelude::*;

use crate::widths::{LANE_BITS, MAX_LANES};

/// Lowest set lane of `mask` (combinational).
#[derive(LogicBlock)]
pub struct LaneSelect {
    // ---- input ----
    /// Lanes still to issue (bit i = lane i).
    pub mask: Signal<In, Bits<MAX_LANES>>,

    // ---- outputs ----
    /// The lowest set lane's number (0 when `mask` is zero).
    pub lane: Signal<Out, Bits<LANE_BITS>>,
    /// `mask` without that lane: what remains after issuing it.
    pub rest: Signal<Out, Bits<MAX_LANES>>,

    // ---- constants ----
    one: Constant<Bits<MAX_LANES>>,
    zero_lane: Constant<Bits<LANE_BITS>>,
    /// `index_bit_lanes[b]`: the lanes whose index has bit b set
    index_bit_lanes: [Constant<Bits<MAX_LANES>>; LANE_BITS],
    /// `index_bits[b]` = 1 << b, sized
    index_bits: [Constant<Bits<LANE_BITS>>; LANE_BITS],

    // ---- locals ----
    /// `-mask` (two's complement)
    negated: Signal<Local, Bits<MAX_LANES>>,
    /// Only the lowest set bit of `mask` (zero when `mask` is zero).
    onehot: Signal<Local, Bits<MAX_LANES>>,
}

impl Default for LaneSelect {
    fn default() -> Self {
        Self {
            mask: Default::default(),
            onehot: Default::default(),
            lane: Default::default(),
            rest: Default::default(),
            one: Constant::new(1u64.to_bits()),
            zero_lane: Constant::new(0u64.to_bits()),
            index_bit_lanes: core::array::from_fn(|b| {
                Constant::new((0..MAX_LANES as u64).filter(|i| i >> b & 1 == 1).fold(0u64, |m, i| m | 1 << i).to_bits())
            }),
            index_bits: core::array::from_fn(|b| Constant::new((1u64 << b).to_bits())),
            negated: Default::default(),
        }
    }
}

impl Logic for LaneSelect {
    #[hdl_gen]
    fn update(&mut self) {
        self.negated.next = (!self.mask.val()) + self.one.val();
        self.onehot.next = self.mask.val() & self.negated.val();
        self.rest.next = self.mask.val() & (!self.onehot.val());
        self.lane.next = self.zero_lane.val();
        for b in 0..LANE_BITS {
            if (self.onehot.val() & self.index_bit_lanes[b].val()).any() {
                self.lane.next = self.lane.val() | self.index_bits[b].val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_select_synthesizes() {
        let mut uut = LaneSelect::default();
        uut.connect_all();
        yosys_validate("atomport_lane_select", &generate_verilog(&uut)).unwrap();
    }

    /// The emitted Verilog in Icarus against find-first-set: zero, every
    /// single lane, every mask of lanes k and up, every mask with one lane
    /// cleared, then seeded random masks (sparse and dense).
    #[test]
    fn the_verilog_selects_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = LaneSelect::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x3c6e_f372_fe94_f82bu64);
        let all = u32::MAX;
        let mut masks: Vec<u32> = vec![0, all];
        for k in 0..MAX_LANES as u32 {
            masks.extend([1 << k, all << k, all & !(1 << k), (1 << k) | (1 << 31)]);
        }
        for _ in 0..1000 {
            let (a, b) = (next() as u32, next() as u32);
            masks.extend([a, a & b & (next() as u32)]);
        }
        let mut bench = String::from(
            "module bench;\nreg [31:0] mask; wire [4:0] lane; wire [31:0] rest;\n\
             top uut(.mask(mask), .lane(lane), .rest(rest));\ninitial begin\n",
        );
        for m in &masks {
            bench.push_str(&format!("  mask = 32'h{m:08x}; #1 $display(\"%0d %h\", lane, rest);\n"));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("lane-select", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), masks.len(), "vvp printed {} lines for {} patterns", lines.len(), masks.len());
        for (line, &mask) in lines.iter().zip(&masks) {
            // the lowest set lane (0 for an empty mask), and the mask without it
            let lane = (0..32).find(|i| mask >> i & 1 == 1);
            let rest = lane.map_or(0, |i| mask & !(1u32 << i));
            assert_eq!(line, &format!("{} {rest:08x}", lane.unwrap_or(0)), "mask {mask:08x}");
        }
    }
}
