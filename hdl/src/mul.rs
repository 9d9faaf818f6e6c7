//! `MulAdd`: `product = multiplicand * multiplier + addend`, modulo 2^64
//! (combinational).
//!
//! rust-hdl's `Bits` has no `*` above 16 bits, so this is the schoolbook
//! shift-add array: 32 conditional adds of the shifted multiplicand. The
//! typed-surface address math (`typed_addr.rs`) uses two of these.

use rust_hdl::prelude::*;

/// Bits of the multiplicand, the addend and the product.
pub const WIDE_BITS: usize = 64;
/// Bits of the multiplier.
pub const NARROW_BITS: usize = 32;

/// `product = multiplicand * multiplier + addend` (mod 2^64).
#[derive(LogicBlock)]
pub struct MulAdd {
    // ---- operands ----
    pub multiplicand: Signal<In, Bits<WIDE_BITS>>,
    pub multiplier: Signal<In, Bits<NARROW_BITS>>,
    pub addend: Signal<In, Bits<WIDE_BITS>>,

    // ---- result ----
    pub product: Signal<Out, Bits<WIDE_BITS>>,

    // ---- locals ----
    /// `partial[k]` = addend + multiplicand * (multiplier mod 2^k)
    partial: [Signal<Local, Bits<WIDE_BITS>>; NARROW_BITS + 1],
    /// `shifted[k]` = multiplicand << k
    shifted: [Signal<Local, Bits<WIDE_BITS>>; NARROW_BITS],
}

impl Default for MulAdd {
    fn default() -> Self {
        Self {
            multiplicand: Default::default(),
            multiplier: Default::default(),
            addend: Default::default(),
            product: Default::default(),
            partial: core::array::from_fn(|_| Default::default()),
            shifted: core::array::from_fn(|_| Default::default()),
        }
    }
}

impl Logic for MulAdd {
    #[hdl_gen]
    fn update(&mut self) {
        self.partial[0].next = self.addend.val();
        self.shifted[0].next = self.multiplicand.val();
        for k in 1..NARROW_BITS {
            self.shifted[k].next = self.shifted[k - 1].val() << 1;
        }
        for k in 0..NARROW_BITS {
            self.partial[k + 1].next = self.partial[k].val();
            if self.multiplier.val().get_bit(k) {
                self.partial[k + 1].next = self.partial[k].val() + self.shifted[k].val();
            }
        }
        // index 32 = NARROW_BITS (array indexes in hdl code must be literals or loop indexes)
        self.product.next = self.partial[32].val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_add_synthesizes() {
        let mut uut = MulAdd::default();
        uut.connect_all();
        yosys_validate("atomport_mul_add", &generate_verilog(&uut)).unwrap();
    }
}
