//! `AddrFinish`: the address stage (T) of the unit's front end: the
//! TYPED_ATOMIC address's second multiply-add, and the element's line, byte
//! lane and byte enables (docs/microarchitecture.md "Front end").
//!
//! The issue stage computes everything that depends on the payload in one
//! multiply at most: the non-typed element address (`AddrGen`) and, for
//! TYPED_ATOMIC, the first multiply-add of the address step (`TypedAddr`,
//! `first = a * b + c`). This stage, on registers, finishes the typed step,
//! `index = first * d + e` (64 x 32 -> 64, modulo 2^64 like the golden
//! model's wrapping address), then splits the element's byte address into
//! the 16-byte line and the byte lane. The same `index` is the walk's next
//! `level_base` when the step is a walk step.
//!
//! At lod the step's result is the element's byte address itself,
//! `surf_base + index * E` (scripts.md "Typed surface layout"): the issue
//! stage folds the scaling and the base into `e` (`second_c = e * E +
//! surf_base`) and this stage scales `first` (`first * E`, a shift by one
//! or two bits in the operand mux), so `first * E * d + e * E + surf_base`
//! leaves the multiply-add as the address and no adder follows it (the
//! multiply-add is this stage's, and the front end's, longest path).
//! Combinational.

use rust_hdl::prelude::*;

use crate::decoder::SIZE_BITS;
use crate::multiply::MulAdd;
use crate::typed_extent::{COORD_BITS, WIDE_BITS};

/// Bytes per memory line (bus width).
pub const LINE_BYTES: usize = 16;
/// Bits of a bit offset inside a line (0..=120).
pub const LINE_BIT_OFFSET_BITS: usize = 7;

/// The element's final address, split into line, byte lane and byte enables (combinational).
#[derive(LogicBlock)]
pub struct AddrFinish {
    // ---- the element ----
    /// TYPED_ATOMIC: the address is `surf_base + index * E`; else `addr`.
    pub typed: Signal<In, Bit>,
    /// The element's byte address (not TYPED_ATOMIC), from `AddrGen`.
    pub addr: Signal<In, Bits<WIDE_BITS>>,
    /// log2 bytes of the element.
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,

    // ---- the typed step: index = first * second_b + second_c ----
    /// `first`: `lane_first` when `at_lod` (the lane's address), else
    /// `walk_first` (a walk step).
    pub walk_first: Signal<In, Bits<WIDE_BITS>>,
    pub lane_first: Signal<In, Bits<WIDE_BITS>>,
    pub at_lod: Signal<In, Bit>,
    pub second_b: Signal<In, Bits<COORD_BITS>>,
    /// `e`; at lod `e * E + surf_base` (the issue stage's)
    pub second_c: Signal<In, Bits<WIDE_BITS>>,
    /// `format=u16`: 2-byte elements (else 4): `E`
    pub surf_u16: Signal<In, Bit>,

    // ---- result ----
    /// The typed step's result: the walk's next `level_base` (at lod: the element's byte address).
    pub index: Signal<Out, Bits<WIDE_BITS>>,
    /// The element's byte address aligned down to the 16-byte line.
    pub line: Signal<Out, Bits<WIDE_BITS>>,
    /// Bit offset of the element in the line: `(addr % 16) * 8`.
    pub bit_offset: Signal<Out, Bits<LINE_BIT_OFFSET_BITS>>,
    /// Byte enables of the element in the line.
    pub byte_enables: Signal<Out, Bits<LINE_BYTES>>,

    // ---- datapath ----
    second: MulAdd<WIDE_BITS, COORD_BITS, WIDE_BITS>,

    // ---- constants ----
    line_mask: Constant<Bits<WIDE_BITS>>,
    byte_in_line: Constant<Bits<LINE_BIT_OFFSET_BITS>>,
    /// `size_enables[s]` = (1 << (1 << s)) - 1
    size_enables: [Constant<Bits<LINE_BYTES>>; 5],
    zero_enables: Constant<Bits<LINE_BYTES>>,

    // ---- locals ----
    /// The element's byte address.
    elem_addr: Signal<Local, Bits<WIDE_BITS>>,
    enables_at_zero: Signal<Local, Bits<LINE_BYTES>>,
}

impl Default for AddrFinish {
    fn default() -> Self {
        Self {
            typed: Default::default(),
            addr: Default::default(),
            elem_size: Default::default(),
            walk_first: Default::default(),
            lane_first: Default::default(),
            at_lod: Default::default(),
            second_b: Default::default(),
            second_c: Default::default(),
            surf_u16: Default::default(),
            index: Default::default(),
            line: Default::default(),
            bit_offset: Default::default(),
            byte_enables: Default::default(),
            second: Default::default(),
            line_mask: Constant::new((!(LINE_BYTES as u64 - 1)).to_bits()),
            byte_in_line: Constant::new((LINE_BYTES as u64 - 1).to_bits()),
            size_enables: core::array::from_fn(|s| Constant::new(((1u64 << (1 << s)) - 1).to_bits())),
            zero_enables: Constant::new(0u64.to_bits()),
            elem_addr: Default::default(),
            enables_at_zero: Default::default(),
        }
    }
}

impl Logic for AddrFinish {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- sub-block inputs: wiring only (see unit.rs "Verilator") ----
        self.second.a.next = self.walk_first.val();
        if self.at_lod.val() {
            self.second.a.next = self.lane_first.val() << 2;
            if self.surf_u16.val() {
                self.second.a.next = self.lane_first.val() << 1;
            }
        }
        self.second.b.next = self.second_b.val();
        self.second.c.next = self.second_c.val();

        self.index.next = self.second.result.val();
        self.elem_addr.next = self.addr.val();
        if self.typed.val() {
            self.elem_addr.next = self.second.result.val();
        }

        self.enables_at_zero.next = self.zero_enables.val();
        for s in 0..5 {
            if self.elem_size.val().index() == s {
                self.enables_at_zero.next = self.size_enables[s].val();
            }
        }
        self.line.next = self.elem_addr.val() & self.line_mask.val();
        self.bit_offset.next =
            (self.elem_addr.val().get_bits::<LINE_BIT_OFFSET_BITS>(0) & self.byte_in_line.val()) << 3;
        self.byte_enables.next = self.enables_at_zero.val() << self.elem_addr.val().get_bits::<4>(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addr_finish_synthesizes() {
        let mut uut = AddrFinish::default();
        uut.connect_all();
        yosys_validate("atomport_addr_finish", &generate_verilog(&uut)).unwrap();
    }
}
