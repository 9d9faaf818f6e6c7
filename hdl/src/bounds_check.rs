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

    /// The emitted Verilog in Icarus against `checked && offset + bytes >
    /// bound` computed without overflow, over the inputs the contract covers:
    /// `last_start = bound - bytes` and `bound_small = bound < bytes` made
    /// from a bound and an element size (`last_start` random when small).
    /// Every size with bounds and offsets around the limit and at the
    /// 64-bit ends, then seeded random ones.
    #[test]
    fn the_verilog_bounds_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = BoundsCheck::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x1f83_d9ab_5be0_cd19u64);
        // (checked, offset, bytes, bound)
        let mut cases: Vec<(u8, u64, u64, u64)> = vec![];
        for checked in 0..2u8 {
            for bytes in [1u64, 2, 4, 8, 16] {
                let bounds = [0, bytes - 1, bytes, bytes + 1, 0x1_0000, u64::MAX - bytes, u64::MAX, next()];
                for bound in bounds {
                    let edge = bound.wrapping_sub(bytes);
                    for offset in [0, 1, edge.wrapping_sub(1), edge, edge.wrapping_add(1), bound, u64::MAX, next()] {
                        cases.push((checked, offset, bytes, bound));
                    }
                }
            }
        }
        for _ in 0..300 {
            let bytes = 1u64 << (next() % 5);
            let bound = if next().is_multiple_of(2) { next() % 64 } else { next() };
            let offset = if next().is_multiple_of(2) { bound.wrapping_sub(bytes).wrapping_add(next() % 5).wrapping_sub(2) } else { next() };
            cases.push(((next() % 2) as u8, offset, bytes, bound));
        }
        let mut bench = String::from(
            "module bench;\nreg checked, bound_small; reg [63:0] offset, last_start;\nwire out_of_bounds;\n\
             top uut(.checked(checked), .offset(offset), .last_start(last_start), .bound_small(bound_small), .out_of_bounds(out_of_bounds));\n\
             initial begin\n",
        );
        let (mut inside, mut outside) = (0, 0);
        for &(checked, offset, bytes, bound) in &cases {
            let small = bound < bytes;
            let last_start = if small { next() } else { bound - bytes };
            bench.push_str(&format!(
                "  checked = {checked}; offset = 64'h{offset:x}; last_start = 64'h{last_start:x}; bound_small = {}; \
                 #1 $display(\"%b\", out_of_bounds);\n",
                u8::from(small)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("bounds-check", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, &(checked, offset, bytes, bound)) in lines.iter().zip(&cases) {
            let past = u128::from(offset) + u128::from(bytes) > u128::from(bound);
            if checked == 1 {
                if past { outside += 1 } else { inside += 1 }
            }
            let out = checked == 1 && past;
            assert_eq!(line, if out { "1" } else { "0" }, "checked {checked} offset {offset:x} bytes {bytes} bound {bound:x}");
        }
        assert!(inside > 100 && outside > 100, "checked accesses inside {inside}, outside {outside}");
    }
}
