//! `AddrFinish`: the line stage (L) of the unit's front end: the TYPED_ATOMIC
//! address's second multiply-add finished, and the element's line, byte
//! lane and byte enables (docs/microarchitecture.md "Front end").
//!
//! The issue stage computes everything that depends on the payload in one
//! multiply at most: the non-typed element address (`AddrGen`) and, for
//! TYPED_ATOMIC, the first multiply-add of the address step (`TypedAddr`,
//! `first = a * b + c`). The address stage T multiplies `first * d` into
//! digit products summed by weight (`AddrMul`); this stage, on registers,
//! sums them with `e` (`PartialSum`: `index = first * d + e`, 64 x 32 -> 64, modulo 2^64
//! like the golden model's wrapping address), then splits the element's
//! byte address into the 16-byte line and the byte lane. The same `index`
//! is the walk's next `level_base` when the step is a walk step.
//!
//! At lod the step's result is the element's byte address itself,
//! `surf_base + index * E` (scripts.md "Typed surface layout"): the issue
//! stage folds the scaling and the base into `e` (`second_c = e * E +
//! surf_base`) and T scales `first` (`first * E`, a shift by one or two bits
//! in `AddrMul`'s operand mux), so `first * E * d + e * E + surf_base`
//! leaves the multiply-add as the address and no adder follows it.
//! Combinational.

use rust_hdl::prelude::*;

use crate::addr_mul::{P0_BITS, P16_BITS, P32_BITS, P48_BITS};
use crate::line_place::LinePlace;
use crate::partial_sum::PartialSum;
use crate::widths::{ADDR_BITS, LINE_BIT_OFFSET_BITS, LINE_BYTES, SIZE_BITS};

/// The element's final address, split into line, byte lane and byte enables (combinational).
#[derive(LogicBlock)]
pub struct AddrFinish {
    // ---- the element ----
    /// TYPED_ATOMIC: the address is `surf_base + index * E`; else `addr`.
    pub typed: Signal<In, Bit>,
    /// The element's byte address (not TYPED_ATOMIC), from `AddrGen`.
    pub addr: Signal<In, Bits<ADDR_BITS>>,
    /// log2 bytes of the element.
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,

    // ---- the typed step: index = first * d + e ----
    /// `first * d` as `AddrMul`'s digit products summed by weight (registered in T).
    pub p0: Signal<In, Bits<P0_BITS>>,
    pub p16: Signal<In, Bits<P16_BITS>>,
    pub p32: Signal<In, Bits<P32_BITS>>,
    pub p48: Signal<In, Bits<P48_BITS>>,
    /// `e`; at lod `e * E + surf_base` (the issue stage's)
    pub second_c: Signal<In, Bits<ADDR_BITS>>,

    // ---- result ----
    /// The typed step's result: the walk's next `level_base` (at lod: the element's byte address).
    pub index: Signal<Out, Bits<ADDR_BITS>>,
    /// The element's byte address aligned down to the 16-byte line.
    pub line: Signal<Out, Bits<ADDR_BITS>>,
    /// Bit offset of the element in the line: `(addr % 16) * 8`.
    pub bit_offset: Signal<Out, Bits<LINE_BIT_OFFSET_BITS>>,
    /// Byte enables of the element in the line.
    pub byte_enables: Signal<Out, Bits<LINE_BYTES>>,

    // ---- datapath ----
    second: PartialSum,
    place: LinePlace,

    // ---- constants ----
    /// `PartialSum`'s second term of weight 2^16: `AddrMul` sums its own.
    zero_p16_b: Constant<Bits<P0_BITS>>,
}

impl Default for AddrFinish {
    fn default() -> Self {
        Self {
            typed: Default::default(),
            addr: Default::default(),
            elem_size: Default::default(),
            p0: Default::default(),
            p16: Default::default(),
            p32: Default::default(),
            p48: Default::default(),
            second_c: Default::default(),
            index: Default::default(),
            line: Default::default(),
            bit_offset: Default::default(),
            byte_enables: Default::default(),
            second: Default::default(),
            place: Default::default(),
            zero_p16_b: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for AddrFinish {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- sub-block inputs: wiring only (see unit.rs "Verilator") ----
        self.second.p0.next = self.p0.val();
        self.second.p16.next = self.p16.val();
        self.second.p16_b.next = self.zero_p16_b.val();
        self.second.p32.next = self.p32.val();
        self.second.p48.next = self.p48.val();
        self.second.addend.next = self.second_c.val();

        // the element's byte address
        self.place.addr.next = self.addr.val();
        if self.typed.val() {
            self.place.addr.next = self.second.result.val();
        }
        self.place.size.next = self.elem_size.val();

        self.index.next = self.second.result.val();
        self.line.next = self.place.line.val();
        self.bit_offset.next = self.place.bit_offset.val();
        self.byte_enables.next = self.place.byte_enables.val();
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
