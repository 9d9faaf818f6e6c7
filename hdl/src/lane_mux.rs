//! `LaneMux`: one lane's payload out of the all-lanes request buses, and the
//! all-lanes alignment check.
//!
//! The unit does not latch the payload: the driver holds `req_*` until the
//! message is taken, and the unit reads the selected lane straight from the
//! request ports through this one-hot AND-OR multiplexer (unrolled: rust-hdl
//! allows no variable array index).
//!
//! Alignment: every enabled lane's access must be aligned to its size, so
//! that it lies inside one 16-byte bus line. The script parser already
//! rejects misaligned addresses and offsets (scripts.md: "addresses aligned
//! to the access size"); in the RTL a misaligned message is an illegal one
//! (error response, no memory touched). Checked: each enabled lane's address
//! plus `base_low` (the buffer base's low bits for DWORD_ATOMIC on a buffer),
//! or for TYPED_ATOMIC the surface base alone (elements sit at base + i*E).

use rust_hdl::prelude::*;

use crate::decoder::SIZE_BITS;
use crate::lane_select::MAX_LANES;

/// Lanes whose typed coordinates travel on `req_coord` (TYPED_ATOMIC is 8 lanes).
pub const COORD_LANES: usize = 8;
/// Bits of one lane's address (`req_addr`).
pub const ADDR_BITS: usize = 64;
/// Bits of one lane's source operand (`req_src0`, `req_src1`) and of one coordinate set.
pub const LANE_DATA_BITS: usize = 128;

/// The payload of the lane whose bit is set in `onehot` (combinational).
#[derive(LogicBlock)]
pub struct LaneMux {
    // ---- select ----
    /// One bit set: the lane to read (all zero: every output is zero).
    pub onehot: Signal<In, Bits<MAX_LANES>>,

    // ---- all lanes (the unit's request ports) ----
    /// Lane i at bits `64i+63..64i`.
    pub all_addr: Signal<In, Bits<{ MAX_LANES * ADDR_BITS }>>,
    /// Lane i at bits `128i+127..128i`.
    pub all_src0: Signal<In, Bits<{ MAX_LANES * LANE_DATA_BITS }>>,
    /// Lane i at bits `128i+127..128i`.
    pub all_src1: Signal<In, Bits<{ MAX_LANES * LANE_DATA_BITS }>>,
    /// Lane i (0..7) at bits `128i+127..128i` = {lod, r, v, u}.
    pub all_coord: Signal<In, Bits<{ COORD_LANES * LANE_DATA_BITS }>>,

    // ---- alignment check ----
    /// Enabled lanes (the check ignores the others).
    pub lane_enables: Signal<In, Bits<MAX_LANES>>,
    /// log2 bytes of one access.
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,
    /// Low bits added to every lane address (buffer base), else 0.
    pub base_low: Signal<In, Bits<4>>,
    /// Check the lane addresses (all kinds but TYPED_ATOMIC).
    pub check_lanes: Signal<In, Bit>,
    /// Check `base_low` alone (TYPED_ATOMIC).
    pub check_base: Signal<In, Bit>,
    /// Some checked access is not aligned to its size.
    pub misaligned: Signal<Out, Bit>,

    // ---- the selected lane ----
    pub addr: Signal<Out, Bits<ADDR_BITS>>,
    pub src0: Signal<Out, Bits<LANE_DATA_BITS>>,
    pub src1: Signal<Out, Bits<LANE_DATA_BITS>>,
    /// {lod, r, v, u}; zero for lanes 8..31.
    pub coord: Signal<Out, Bits<LANE_DATA_BITS>>,

    // ---- constants ----
    zero_addr: Constant<Bits<ADDR_BITS>>,
    zero_data: Constant<Bits<LANE_DATA_BITS>>,
    /// `align_masks[s]` = (1 << s) - 1
    align_masks: [Constant<Bits<4>>; 5],
    zero_mask: Constant<Bits<4>>,

    // ---- locals ----
    align_mask: Signal<Local, Bits<4>>,
    lane_misaligned: [Signal<Local, Bit>; MAX_LANES],
    any_lane_misaligned: Signal<Local, Bit>,
}

impl Default for LaneMux {
    fn default() -> Self {
        Self {
            onehot: Default::default(),
            all_addr: Default::default(),
            all_src0: Default::default(),
            all_src1: Default::default(),
            all_coord: Default::default(),
            addr: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            coord: Default::default(),
            zero_addr: Constant::new(0u64.to_bits()),
            zero_data: Constant::new(0u64.to_bits()),
            lane_enables: Default::default(),
            elem_size: Default::default(),
            base_low: Default::default(),
            check_lanes: Default::default(),
            check_base: Default::default(),
            misaligned: Default::default(),
            align_masks: core::array::from_fn(|s| Constant::new(((1u64 << s) - 1).to_bits())),
            zero_mask: Constant::new(0u64.to_bits()),
            align_mask: Default::default(),
            lane_misaligned: core::array::from_fn(|_| Default::default()),
            any_lane_misaligned: Default::default(),
        }
    }
}

impl Logic for LaneMux {
    #[hdl_gen]
    fn update(&mut self) {
        self.addr.next = self.zero_addr.val();
        self.src0.next = self.zero_data.val();
        self.src1.next = self.zero_data.val();
        self.coord.next = self.zero_data.val();
        // (offsets are literals: a named constant would become a Verilog identifier)
        for i in 0..MAX_LANES {
            if self.onehot.val().get_bit(i) {
                self.addr.next = self.all_addr.val().get_bits::<ADDR_BITS>(i * 64);
                self.src0.next = self.all_src0.val().get_bits::<LANE_DATA_BITS>(i * 128);
                self.src1.next = self.all_src1.val().get_bits::<LANE_DATA_BITS>(i * 128);
            }
        }
        for i in 0..COORD_LANES {
            if self.onehot.val().get_bit(i) {
                self.coord.next = self.all_coord.val().get_bits::<LANE_DATA_BITS>(i * 128);
            }
        }

        self.align_mask.next = self.zero_mask.val();
        for s in 0..5 {
            if self.elem_size.val().index() == s {
                self.align_mask.next = self.align_masks[s].val();
            }
        }
        self.any_lane_misaligned.next = false;
        for i in 0..MAX_LANES {
            self.lane_misaligned[i].next = self.lane_enables.val().get_bit(i)
                & ((self.all_addr.val().get_bits::<4>(i * 64) + self.base_low.val()) & self.align_mask.val()).any();
            if self.lane_misaligned[i].val() {
                self.any_lane_misaligned.next = true;
            }
        }
        self.misaligned.next = (self.check_lanes.val() & self.any_lane_misaligned.val())
            | (self.check_base.val() & (self.base_low.val() & self.align_mask.val()).any());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_mux_synthesizes() {
        let mut uut = LaneMux::default();
        uut.connect_all();
        yosys_validate("atomport_lane_mux", &generate_verilog(&uut)).unwrap();
    }
}
