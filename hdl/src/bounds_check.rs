//! `BoundsCheck`: whether a bounded access (SLM, a DWORD_ATOMIC buffer)
//! reaches past its bound: `offset + bytes > bound`, written so that
//! nothing overflows (scripts.md "Semantics that the seeds leave open"; the
//! golden model's `golden::surface`).
//!
//! In the unit it is the address stage's (T): `AddrGen` forms the offset
//! and picks the bound in the issue stage, so the issue stage's path ends
//! at the offset's adder instead of running on through two comparators
//! into the entry's kind (docs/microarchitecture.md "Front end").
//! Combinational.

use rust_hdl::prelude::*;

use crate::addr_gen::ADDR_BITS;
use crate::decoder::SIZE_BITS;

/// `offset + bytes > bound` for an element of `1 << elem_size` bytes (combinational).
#[derive(LogicBlock)]
pub struct BoundsCheck {
    /// The access is bounded (else `out_of_bounds` is 0).
    pub checked: Signal<In, Bit>,
    /// The element's offset from the start of the bounded range.
    pub offset: Signal<In, Bits<ADDR_BITS>>,
    /// The range's size in bytes.
    pub bound: Signal<In, Bits<ADDR_BITS>>,
    /// log2 bytes of the element.
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,
    pub out_of_bounds: Signal<Out, Bit>,

    /// `size_bytes[s]` = 1 << s
    size_bytes: [Constant<Bits<ADDR_BITS>>; 5],
    zero_addr: Constant<Bits<ADDR_BITS>>,
    bytes: Signal<Local, Bits<ADDR_BITS>>,
}

impl Default for BoundsCheck {
    fn default() -> Self {
        Self {
            checked: Default::default(),
            offset: Default::default(),
            bound: Default::default(),
            elem_size: Default::default(),
            out_of_bounds: Default::default(),
            size_bytes: core::array::from_fn(|s| Constant::new((1u64 << s).to_bits())),
            zero_addr: Constant::new(0u64.to_bits()),
            bytes: Default::default(),
        }
    }
}

impl Logic for BoundsCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.bytes.next = self.zero_addr.val();
        for s in 0..5 {
            if self.elem_size.val().index() == s {
                self.bytes.next = self.size_bytes[s].val();
            }
        }
        self.out_of_bounds.next = self.checked.val()
            & ((self.offset.val() >= self.bound.val()) | ((self.bound.val() - self.offset.val()) < self.bytes.val()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_check_synthesizes() {
        let mut uut = BoundsCheck::default();
        uut.connect_all();
        yosys_validate("atomport_bounds_check", &generate_verilog(&uut)).unwrap();
    }
}
