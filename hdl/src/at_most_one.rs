//! `AtMostOne`: whether at most one lane of a 32-lane mask is set, as a tree
//! of LUT-sized steps (no carry chain): each group of four lanes gives
//! "any" and "two or more", and groups of four groups combine the same way.
//! The select stage asks it whether a lane is a message's last
//! (`d_lanes_few`, `left_few` in unit.rs); `x & (x - 1) == 0` put a 32-bit
//! carry chain and a 32-input OR behind the decoder on the integer unit's
//! critical path (15.39 ns on ECP5).

use rust_hdl::prelude::*;

use crate::lane_select::MAX_LANES;

/// Groups of four lanes, and groups of four groups.
const GROUPS: usize = MAX_LANES / 4;
const SUPERGROUPS: usize = GROUPS / 4;

/// `(mask & enabled)` has at most one bit set (combinational).
#[derive(LogicBlock)]
pub struct AtMostOne {
    pub mask: Signal<In, Bits<MAX_LANES>>,
    /// At most one lane is set.
    pub few: Signal<Out, Bit>,

    /// The lanes that count (the lanes built: `AtMostOne::new`).
    enabled: Constant<Bits<MAX_LANES>>,
    lanes: Signal<Local, Bits<MAX_LANES>>,
    /// per group of four lanes: one or more, two or more set
    group_any: [Signal<Local, Bit>; GROUPS],
    group_many: [Signal<Local, Bit>; GROUPS],
    /// per group of four groups
    super_any: [Signal<Local, Bit>; SUPERGROUPS],
    super_many: [Signal<Local, Bit>; SUPERGROUPS],
}

impl AtMostOne {
    /// Counts the lanes of `enabled` (bit i = lane i) only.
    pub fn new(enabled: u64) -> Self {
        assert_eq!(MAX_LANES, 32, "AtMostOne: the tree is built for 32 lanes (2 x 4 x 4)");
        assert!(enabled >> MAX_LANES == 0, "AtMostOne: lane mask {enabled:#x} wider than {MAX_LANES} lanes");
        Self {
            mask: Default::default(),
            enabled: Constant::new(enabled.to_bits()),
            few: Default::default(),
            lanes: Default::default(),
            group_any: Default::default(),
            group_many: Default::default(),
            super_any: Default::default(),
            super_many: Default::default(),
        }
    }
}

impl Logic for AtMostOne {
    #[hdl_gen]
    fn update(&mut self) {
        self.lanes.next = self.mask.val() & self.enabled.val();
        for g in 0..GROUPS {
            self.group_any[g].next = ((self.lanes.val().get_bit(4 * g) | self.lanes.val().get_bit(4 * g + 1))
                | self.lanes.val().get_bit(4 * g + 2))
                | self.lanes.val().get_bit(4 * g + 3);
            self.group_many[g].next = ((self.lanes.val().get_bit(4 * g) & self.lanes.val().get_bit(4 * g + 1))
                | (self.lanes.val().get_bit(4 * g + 2) & self.lanes.val().get_bit(4 * g + 3)))
                | ((self.lanes.val().get_bit(4 * g) | self.lanes.val().get_bit(4 * g + 1))
                    & (self.lanes.val().get_bit(4 * g + 2) | self.lanes.val().get_bit(4 * g + 3)));
        }
        for h in 0..SUPERGROUPS {
            self.super_any[h].next = ((self.group_any[4 * h].val() | self.group_any[4 * h + 1].val())
                | self.group_any[4 * h + 2].val())
                | self.group_any[4 * h + 3].val();
            self.super_many[h].next = (((self.group_many[4 * h].val() | self.group_many[4 * h + 1].val())
                | (self.group_many[4 * h + 2].val() | self.group_many[4 * h + 3].val()))
                | ((self.group_any[4 * h].val() & self.group_any[4 * h + 1].val())
                    | (self.group_any[4 * h + 2].val() & self.group_any[4 * h + 3].val())))
                | ((self.group_any[4 * h].val() | self.group_any[4 * h + 1].val())
                    & (self.group_any[4 * h + 2].val() | self.group_any[4 * h + 3].val()));
        }
        self.few.next = !((self.super_many[0].val() | self.super_many[1].val())
            | (self.super_any[0].val() & self.super_any[1].val()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_one_synthesizes() {
        let mut uut = AtMostOne::new(0xffff_ffff);
        uut.connect_all();
        yosys_validate("atomport_at_most_one", &generate_verilog(&uut)).unwrap();
    }
}
