//! `AddrGen`: the byte address of one element (or scatter block) of the
//! issue stage's lane, and whether it is out of bounds (scripts.md "Semantics that the seeds
//! leave open"; the golden model's `golden::surface`).
//!
//! | message                   | address                      | space | bound              |
//! | ------------------------- | ---------------------------- | ----- | ------------------ |
//! | SVM_ATOMIC, SVM_SCATTER   | lane address + element offset | flat | none               |
//! | PTX generic / `.global`   | lane address + element offset | flat | none               |
//! | PTX `.shared`             | lane address + element offset | SLM  | offset + bytes <= SLM size |
//! | DWORD_ATOMIC T0           | u32 offset                    | SLM  | offset + bytes <= SLM size |
//! | DWORD_ATOMIC T255         | u32 offset                    | flat | none               |
//! | DWORD_ATOMIC buffer n     | base + u32 offset             | flat | offset + bytes <= size |
//! | TYPED_ATOMIC              | `AddrFinish`, a stage later   | flat | coordinates (`TypedAddr`) |
//!
//! The address stage (`AddrFinish`) splits the address into the 16-byte line
//! and the byte lane (elements never straddle a line: they are aligned to
//! their size, which the unit checks).

use rust_hdl::prelude::*;

use crate::decoder::SIZE_BITS;
use crate::extend::ZeroExtend;

/// Bits of an address.
pub const ADDR_BITS: usize = 64;

/// The current element's byte address, space and bounds (combinational).
#[derive(LogicBlock)]
pub struct AddrGen {
    // ---- the lane and element ----
    /// The lane's address, from the payload port `pay_addr` (DWORD_ATOMIC: u32 offset in the low half).
    pub lane_addr: Signal<In, Bits<ADDR_BITS>>,
    /// Byte offset of the element (PTX vector element, scatter block) in the lane's access.
    pub elem_offset: Signal<In, Bits<ADDR_BITS>>,
    /// log2 bytes of the element.
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,

    // ---- address mode (from the decoder) ----
    pub space_slm: Signal<In, Bit>,
    pub addr_offset32: Signal<In, Bit>,
    pub addr_buffer: Signal<In, Bit>,
    pub kind_typed: Signal<In, Bit>,

    // ---- state ----
    pub surf_base: Signal<In, Bits<ADDR_BITS>>,
    pub surf_size: Signal<In, Bits<ADDR_BITS>>,
    pub slm_size: Signal<In, Bits<32>>,
    pub typed_out_of_bounds: Signal<In, Bit>,

    // ---- result ----
    /// The element's byte address (TYPED_ATOMIC: don't care).
    pub addr: Signal<Out, Bits<ADDR_BITS>>,
    /// 1 = SLM, 0 = flat.
    pub space: Signal<Out, Bit>,
    pub out_of_bounds: Signal<Out, Bit>,

    // ---- datapath ----
    wide_slm_size: ZeroExtend<32, ADDR_BITS>,

    // ---- constants ----
    offset32_mask: Constant<Bits<ADDR_BITS>>,
    /// `size_bytes[s]` = 1 << s
    size_bytes: [Constant<Bits<ADDR_BITS>>; 5],
    zero_addr: Constant<Bits<ADDR_BITS>>,

    // ---- locals ----
    /// The offset the bounds apply to (SLM offset, buffer offset).
    bounded_offset: Signal<Local, Bits<ADDR_BITS>>,
    bytes: Signal<Local, Bits<ADDR_BITS>>,
}

impl Default for AddrGen {
    fn default() -> Self {
        Self {
            lane_addr: Default::default(),
            elem_offset: Default::default(),
            elem_size: Default::default(),
            space_slm: Default::default(),
            addr_offset32: Default::default(),
            addr_buffer: Default::default(),
            kind_typed: Default::default(),
            surf_base: Default::default(),
            surf_size: Default::default(),
            slm_size: Default::default(),
            typed_out_of_bounds: Default::default(),
            addr: Default::default(),
            space: Default::default(),
            out_of_bounds: Default::default(),
            wide_slm_size: Default::default(),
            offset32_mask: Constant::new(0xffff_ffffu64.to_bits()),
            size_bytes: core::array::from_fn(|s| Constant::new((1u64 << s).to_bits())),
            zero_addr: Constant::new(0u64.to_bits()),
            bounded_offset: Default::default(),
            bytes: Default::default(),
        }
    }
}

impl Logic for AddrGen {
    #[hdl_gen]
    fn update(&mut self) {
        self.wide_slm_size.narrow.next = self.slm_size.val();

        self.bytes.next = self.zero_addr.val();
        for s in 0..5 {
            if self.elem_size.val().index() == s {
                self.bytes.next = self.size_bytes[s].val();
            }
        }

        self.bounded_offset.next = self.lane_addr.val() + self.elem_offset.val();
        if self.addr_offset32.val() {
            self.bounded_offset.next = (self.lane_addr.val() & self.offset32_mask.val()) + self.elem_offset.val();
        }
        self.addr.next = self.bounded_offset.val();
        if self.addr_buffer.val() {
            self.addr.next = self.surf_base.val() + self.bounded_offset.val();
        }
        self.space.next = self.space_slm.val();

        // out of bounds: offset + bytes > bound, written so that nothing overflows
        self.out_of_bounds.next = false;
        if self.space_slm.val() {
            self.out_of_bounds.next = (self.bounded_offset.val() >= self.wide_slm_size.wide.val())
                | ((self.wide_slm_size.wide.val() - self.bounded_offset.val()) < self.bytes.val());
        }
        if self.addr_buffer.val() {
            self.out_of_bounds.next = (self.bounded_offset.val() >= self.surf_size.val())
                | ((self.surf_size.val() - self.bounded_offset.val()) < self.bytes.val());
        }
        if self.kind_typed.val() {
            self.out_of_bounds.next = self.typed_out_of_bounds.val();
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
