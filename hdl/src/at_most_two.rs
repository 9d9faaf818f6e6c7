//! `AtMostTwo`: whether at most two lanes of a 32-lane mask are set, with no
//! carry chain: `AtMostOne`'s tree of saturating counts, counting to three
//! (`count_tree_verilog`; alone on ECP5 the tree is 5.8 ns, two OR
//! prefixes in series 10.1 ns). The select stage loads `left_few` (the
//! lanes left after the selected one are at most one) from it on the mask
//! it selects from, so the find-first-set's 32-bit carry chain
//! (`LaneSelect`'s `rest`) is not in front of it (`issue_state`
//! -> the lane mask -> `rest` -> `AtMostOne` -> `left_few` was 14.81 ns on
//! ECP5, docs/synthesis.md).

use rust_hdl::prelude::*;

use crate::at_most_one::count_tree_verilog;
use crate::widths::MAX_LANES;

/// `(mask & enabled)` has at most two bits set (combinational).
#[derive(LogicBlock)]
pub struct AtMostTwo {
    pub mask: Signal<In, Bits<MAX_LANES>>,
    /// At most two lanes are set.
    pub few: Signal<Out, Bit>,

    /// The lanes that count (the lanes built: `AtMostTwo::new`).
    enabled: Constant<Bits<MAX_LANES>>,
}

impl AtMostTwo {
    /// Counts the lanes of `enabled` (bit i = lane i) only.
    pub fn new(enabled: u64) -> Self {
        assert_eq!(MAX_LANES, 32, "AtMostTwo: the count tree's strides are written for 32 lanes");
        assert!(enabled >> MAX_LANES == 0, "AtMostTwo: lane mask {enabled:#x} wider than {MAX_LANES} lanes");
        Self { mask: Default::default(), enabled: Constant::new(enabled.to_bits()), few: Default::default() }
    }
}

impl Logic for AtMostTwo {
    fn update(&mut self) {
        let lanes = (self.mask.val() & self.enabled.val()).to_u64();
        self.few.next = lanes.count_ones() <= 2;
    }

    fn connect(&mut self) {
        self.few.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(count_tree_verilog(2, self.enabled.val().to_u64()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_two_synthesizes() {
        let mut uut = AtMostTwo::new(0xffff_ffff);
        uut.connect_all();
        yosys_validate("atomport_at_most_two", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn the_verilog_counts_like_the_model() {
        crate::at_most_one::check_lane_count_verilog("at-most-two", 2, |enabled| {
            let mut uut = AtMostTwo::new(enabled);
            uut.connect_all();
            generate_verilog(&uut)
        });
    }
}
