//! `LaneMux`: the issuing lane's payload (one of the two payload buffers),
//! and that lane's alignment check.
//!
//! The unit reads one lane's operands at a time through its payload port
//! (docs/microarchitecture.md "Payload port"): the read goes out in the
//! cycle the lane is selected, the operands are on `pay_*` in the next cycle
//! (`atomport_isa::PAYLOAD_LATENCY` = 1), while the lane waits in the
//! next-lane stage N, and go into a register at that cycle's end: one of
//! two payload buffers (`pbuf_*`), used in turn, one for the issuing lane
//! and one for the next. So the issue stage reads registers only (no path
//! from `pay_*` into the issue logic or back to `pay_valid`), keeps them for
//! the lane's later cycles (PTX vector elements, scatter blocks, the typed
//! walk, a stall), and each enabled lane is read exactly once. `from_buf1`
//! picks the buffer: a 2-way mux, not a 32-way one.
//!
//! Alignment: an access must be aligned to its size so that it lies inside
//! one 16-byte bus line. The script parser already rejects misaligned
//! addresses and offsets (scripts.md: "addresses aligned to the access
//! size"), so the golden model never sees one. In the RTL the check is per
//! lane, as its payload arrives (a lane's address is not known before):
//! a misaligned lane touches no memory (its entries make no request, like an
//! out-of-bounds element), and its message ends with `rsp_error`. Checked:
//! the lane's address plus `base_low` (the buffer base's low bits for
//! DWORD_ATOMIC on a buffer), or for TYPED_ATOMIC the surface base alone
//! (elements sit at base + i*E; then every lane fails, and the message
//! touches no memory at all).

use rust_hdl::prelude::*;

use crate::widths::{ADDR_BITS, LANE_DATA_BITS, SIZE_BITS, UVR_BITS};

/// The issuing lane's payload and its alignment (combinational).
#[derive(LogicBlock)]
pub struct LaneMux {
    // ---- select ----
    /// The lane's operands are in payload buffer 1; else in buffer 0.
    pub from_buf1: Signal<In, Bit>,

    // ---- payload buffer 0 ----
    pub buf0_addr: Signal<In, Bits<ADDR_BITS>>,
    pub buf0_src0: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf0_src1: Signal<In, Bits<LANE_DATA_BITS>>,
    /// {r, v, u}
    pub buf0_coord: Signal<In, Bits<UVR_BITS>>,

    // ---- payload buffer 1 ----
    pub buf1_addr: Signal<In, Bits<ADDR_BITS>>,
    pub buf1_src0: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf1_src1: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf1_coord: Signal<In, Bits<UVR_BITS>>,

    // ---- alignment check ----
    /// log2 bytes of one access.
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,
    /// Low bits added to the lane address (buffer base), else 0.
    pub base_low: Signal<In, Bits<4>>,
    /// Check the lane address (all kinds but TYPED_ATOMIC).
    pub check_lane: Signal<In, Bit>,
    /// Check `base_low` alone (TYPED_ATOMIC).
    pub check_base: Signal<In, Bit>,
    /// The lane's access is not aligned to its size.
    pub misaligned: Signal<Out, Bit>,
    /// The same, from `check_base` alone (a TYPED_ATOMIC lane): it does
    /// not read the payload buffers, so the issue stage's walk wait can
    /// use it without a path from the buffer select.
    pub base_misaligned: Signal<Out, Bit>,

    // ---- the lane's payload ----
    pub addr: Signal<Out, Bits<ADDR_BITS>>,
    pub src0: Signal<Out, Bits<LANE_DATA_BITS>>,
    pub src1: Signal<Out, Bits<LANE_DATA_BITS>>,
    /// {r, v, u}
    pub coord: Signal<Out, Bits<UVR_BITS>>,

    // ---- constants ----
    /// `align_masks[s]` = (1 << s) - 1
    align_masks: [Constant<Bits<4>>; 5],
    zero_mask: Constant<Bits<4>>,

    // ---- locals ----
    align_mask: Signal<Local, Bits<4>>,
}

impl Default for LaneMux {
    fn default() -> Self {
        Self {
            from_buf1: Default::default(),
            buf1_addr: Default::default(),
            buf1_src0: Default::default(),
            buf1_src1: Default::default(),
            buf1_coord: Default::default(),
            buf0_addr: Default::default(),
            buf0_src0: Default::default(),
            buf0_src1: Default::default(),
            buf0_coord: Default::default(),
            elem_size: Default::default(),
            base_low: Default::default(),
            check_lane: Default::default(),
            check_base: Default::default(),
            misaligned: Default::default(),
            base_misaligned: Default::default(),
            addr: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            coord: Default::default(),
            align_masks: core::array::from_fn(|s| Constant::new(((1u64 << s) - 1).to_bits())),
            zero_mask: Constant::new(0u64.to_bits()),
            align_mask: Default::default(),
        }
    }
}

impl Logic for LaneMux {
    #[hdl_gen]
    fn update(&mut self) {
        self.addr.next = self.buf0_addr.val();
        self.src0.next = self.buf0_src0.val();
        self.src1.next = self.buf0_src1.val();
        self.coord.next = self.buf0_coord.val();
        if self.from_buf1.val() {
            self.addr.next = self.buf1_addr.val();
            self.src0.next = self.buf1_src0.val();
            self.src1.next = self.buf1_src1.val();
            self.coord.next = self.buf1_coord.val();
        }

        self.align_mask.next = self.zero_mask.val();
        for s in 0..5 {
            if self.elem_size.val().index() == s {
                self.align_mask.next = self.align_masks[s].val();
            }
        }
        self.base_misaligned.next = self.check_base.val() & (self.base_low.val() & self.align_mask.val()).any();
        self.misaligned.next = (self.check_lane.val()
            & ((self.addr.val().get_bits::<4>(0) + self.base_low.val()) & self.align_mask.val()).any())
            | self.base_misaligned.val();
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
