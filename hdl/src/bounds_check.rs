//! `BoundsCheck`: whether a bounded access (SLM, a DWORD_ATOMIC buffer)
//! reaches past its bound: `offset + bytes > bound`, written so that
//! nothing overflows (scripts.md "Semantics that the seeds leave open"; the
//! golden model's `golden::surface`).
//!
//! In the unit it is the address stage's (T), in two halves: the issue
//! stage forms the element's last legal start `bound - bytes` and whether
//! the bound is below one element (`bound < bytes`) from the message's
//! bound and element size (per message), in parallel with the offset's
//! adder (`AddrGen`); T then compares the offset with that start, one
//! comparator on the path into the entry's kind instead of a subtract and
//! a compare in series (docs/microarchitecture.md "Front end"). For
//! `bytes >= 1`: `offset + bytes > bound` exactly when `bound < bytes` or
//! `offset > bound - bytes`.
//! Combinational.

use rust_hdl::prelude::*;

use crate::widths::ADDR_BITS;

/// `offset + bytes > bound`, from `last_start = bound - bytes` and `bound < bytes` (combinational).
#[derive(LogicBlock, Default)]
pub struct BoundsCheck {
    /// The access is bounded (else `out_of_bounds` is 0).
    pub checked: Signal<In, Bit>,
    /// The element's offset from the start of the bounded range.
    pub offset: Signal<In, Bits<ADDR_BITS>>,
    /// `bound - bytes`: the last offset an element of the message may start
    /// at (any value when `bound_small`).
    pub last_start: Signal<In, Bits<ADDR_BITS>>,
    /// `bound < bytes`: no element fits.
    pub bound_small: Signal<In, Bit>,
    pub out_of_bounds: Signal<Out, Bit>,
}

impl Logic for BoundsCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.out_of_bounds.next =
            self.checked.val() & (self.bound_small.val() | (self.offset.val() > self.last_start.val()));
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
