//! `AddrGen`: the byte address of one element (or scatter block) of the
//! issue stage's lane, and the offset and bound its bounds check
//! (`BoundsCheck`, a stage later) applies (scripts.md "Semantics that the
//! seeds leave open"; the golden model's `golden::surface`).
//!
//! | message                   | address                      | space | bound              |
//! | ------------------------- | ---------------------------- | ----- | ------------------ |
//! | SVM_ATOMIC, SVM_SCATTER   | lane address + element offset | flat | none               |
//! | PTX generic / `.global`   | lane address + element offset | flat | none               |
//! | PTX `.shared`             | lane address + element offset | SLM  | offset + bytes <= SLM size |
//! | DWORD_ATOMIC T0           | u32 offset                    | SLM  | offset + bytes <= SLM size |
//! | DWORD_ATOMIC T255         | u32 offset                    | flat | none               |
//! | DWORD_ATOMIC buffer n     | base + u32 offset             | flat | offset + bytes <= size |
//! | TYPED_ATOMIC              | `AddrMul` + `AddrFinish`, two stages later | flat | coordinates (`TypedAddr`) |
//!
//! The line stage (`AddrFinish`) splits the address into the 16-byte line
//! and the byte lane (elements never straddle a line: they are aligned to
//! their size, which the unit checks).

use rust_hdl::prelude::*;

use crate::extend::ZeroExtend;
use crate::widths::ADDR_BITS;

/// The current element's byte address, space, and what its bounds check needs (combinational).
#[derive(LogicBlock)]
pub struct AddrGen {
    // ---- the lane and element ----
    /// The lane's address, from the payload port `pay_addr` (DWORD_ATOMIC: u32 offset in the low half).
    pub lane_addr: Signal<In, Bits<ADDR_BITS>>,
    /// Byte offset of the element (PTX vector element, scatter block) in the lane's access.
    pub elem_offset: Signal<In, Bits<ADDR_BITS>>,

    // ---- address mode (from the decoder) ----
    pub space_slm: Signal<In, Bit>,
    pub addr_offset32: Signal<In, Bit>,
    pub addr_buffer: Signal<In, Bit>,
    pub kind_typed: Signal<In, Bit>,

    // ---- state ----
    pub surf_base: Signal<In, Bits<ADDR_BITS>>,
    pub surf_size: Signal<In, Bits<ADDR_BITS>>,
    pub slm_size: Signal<In, Bits<32>>,

    // ---- result ----
    /// The element's byte address (TYPED_ATOMIC: don't care).
    pub addr: Signal<Out, Bits<ADDR_BITS>>,
    /// 1 = SLM, 0 = flat.
    pub space: Signal<Out, Bit>,
    /// The access is bounded (SLM, buffer; not TYPED_ATOMIC, whose bounds
    /// are its coordinates'): `BoundsCheck` on `bounded_offset`, `bound`.
    pub checks_bounds: Signal<Out, Bit>,
    /// The offset the bound applies to (SLM offset, buffer offset).
    pub bounded_offset: Signal<Out, Bits<ADDR_BITS>>,
    /// The bound: the SLM size or the buffer's size.
    pub bound: Signal<Out, Bits<ADDR_BITS>>,

    // ---- datapath ----
    wide_slm_size: ZeroExtend<32, ADDR_BITS>,

    // ---- constants ----
    offset32_mask: Constant<Bits<ADDR_BITS>>,
}

impl Default for AddrGen {
    fn default() -> Self {
        Self {
            lane_addr: Default::default(),
            elem_offset: Default::default(),
            space_slm: Default::default(),
            addr_offset32: Default::default(),
            addr_buffer: Default::default(),
            kind_typed: Default::default(),
            surf_base: Default::default(),
            surf_size: Default::default(),
            slm_size: Default::default(),
            addr: Default::default(),
            space: Default::default(),
            checks_bounds: Default::default(),
            bounded_offset: Default::default(),
            bound: Default::default(),
            wide_slm_size: Default::default(),
            offset32_mask: Constant::new(0xffff_ffffu64.to_bits()),
        }
    }
}

impl Logic for AddrGen {
    #[hdl_gen]
    fn update(&mut self) {
        self.wide_slm_size.narrow.next = self.slm_size.val();

        self.bounded_offset.next = self.lane_addr.val() + self.elem_offset.val();
        if self.addr_offset32.val() {
            self.bounded_offset.next = (self.lane_addr.val() & self.offset32_mask.val()) + self.elem_offset.val();
        }
        self.addr.next = self.bounded_offset.val();
        if self.addr_buffer.val() {
            self.addr.next = self.surf_base.val() + self.bounded_offset.val();
        }
        self.space.next = self.space_slm.val();

        // the bound (SLM and buffer are exclusive address modes)
        self.checks_bounds.next = (self.space_slm.val() | self.addr_buffer.val()) & !self.kind_typed.val();
        self.bound.next = self.wide_slm_size.wide.val();
        if self.addr_buffer.val() {
            self.bound.next = self.surf_size.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addr_gen_synthesizes() {
        let mut uut = AddrGen::default();
        uut.connect_all();
        yosys_validate("atomport_addr_gen", &generate_verilog(&uut)).unwrap();
    }
}
