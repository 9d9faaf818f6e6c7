//! `ElemSelect`: the ALU operands (or the scatter block) of the current
//! element, cut out of the current lane's `pay_src0`/`pay_src1` (held by the unit).
//!
//! | message            | element operand src0                 | src1                 |
//! | ------------------ | ------------------------------------ | -------------------- |
//! | vISA atomics       | lane src0 (masked to the width)      | lane src1            |
//! | PTX (not cas)      | element e of B: B >> (e * bits)      | 0 (unused)           |
//! | PTX cas            | C (the new value)                    | B (the compare value)|
//! | SVM_SCATTER        | block j of {src1, src0}: bytes j*size .. | 0                |
//!
//! PTX cas routes b to the ALU's src1 and c to src0, matching CMPXCHG's
//! `new = (old == src1) ? src0 : old` (isa `PtxOpInfo::alu_op`). 16-bit vISA
//! atomics use only the low 16 bits of each source dword (seed
//! DWORD_ATOMIC.md, Op bit 5): the mask does that.

use rust_hdl::prelude::*;

use crate::widths::{DATA_BITS, ELEM_SHIFT_BITS, SIZE_BITS};

/// The current element's operands (combinational).
#[derive(LogicBlock)]
pub struct ElemSelect {
    // ---- inputs ----
    /// The lane's `pay_src0` (PTX: B).
    pub lane_src0: Signal<In, Bits<DATA_BITS>>,
    /// The lane's `pay_src1` (PTX: C).
    pub lane_src1: Signal<In, Bits<DATA_BITS>>,
    /// Bit offset of the element: e * element bits (scatter: up to 248, into src1 past 127).
    pub elem_shift: Signal<In, Bits<ELEM_SHIFT_BITS>>,
    /// log2 bytes of the element.
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,
    /// PTX cas.
    pub swap_src: Signal<In, Bit>,
    /// SVM_SCATTER.
    pub write_only: Signal<In, Bit>,

    // ---- outputs ----
    pub src0: Signal<Out, Bits<DATA_BITS>>,
    pub src1: Signal<Out, Bits<DATA_BITS>>,

    // ---- constants ----
    /// `size_masks[s]`: the low 8 << s bits
    size_masks: [Constant<Bits<DATA_BITS>>; 5],
    zero: Constant<Bits<DATA_BITS>>,

    // ---- locals ----
    /// element offsets are byte multiples: masking the low 3 bits to
    /// constant zeros lets synthesis build a byte shifter (4 levels, not 7)
    byte_aligned: Constant<Bits<7>>,
    elem_mask: Signal<Local, Bits<DATA_BITS>>,
    shift_in_word: Signal<Local, Bits<7>>,
    /// the source the element is cut from: src0, or src1 for a scatter block past bit 127
    shift_source: Signal<Local, Bits<DATA_BITS>>,
    /// `shift_source` shifted by the offset with its bits below 16 / 32 / 64
    /// bits cleared, and (`shifted_8`) by the whole offset: valid for the
    /// bytes an element of 2 / 4 / 8 / 1 bytes or more keeps (see `update`)
    shifted_16: Signal<Local, Bits<DATA_BITS>>,
    shifted_32: Signal<Local, Bits<DATA_BITS>>,
    shifted_64: Signal<Local, Bits<DATA_BITS>>,
    shifted_8: Signal<Local, Bits<DATA_BITS>>,
    shifted: Signal<Local, Bits<DATA_BITS>>,
    /// the offset's bits that can be set for an element of 2 / 4 / 8 bytes
    align_16: Constant<Bits<7>>,
    align_32: Constant<Bits<7>>,
    align_64: Constant<Bits<7>>,
    /// the result bytes each of those shifters serves: byte 0, byte 1, bytes 2-3, 4-7, 8-15
    bytes_from_8: Constant<Bits<DATA_BITS>>,
    bytes_from_16: Constant<Bits<DATA_BITS>>,
    bytes_from_32: Constant<Bits<DATA_BITS>>,
    bytes_from_64: Constant<Bits<DATA_BITS>>,
    bytes_unshifted: Constant<Bits<DATA_BITS>>,
}

impl Default for ElemSelect {
    fn default() -> Self {
        Self {
            lane_src0: Default::default(),
            lane_src1: Default::default(),
            elem_shift: Default::default(),
            elem_size: Default::default(),
            swap_src: Default::default(),
            write_only: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            size_masks: core::array::from_fn(|s| {
                let bits = 8u32 << s;
                Constant::new(if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 }.to_bits())
            }),
            zero: Constant::new(0u64.to_bits()),
            byte_aligned: Constant::new(0x78u64.to_bits()),
            elem_mask: Default::default(),
            shift_in_word: Default::default(),
            shift_source: Default::default(),
            shifted_8: Default::default(),
            shifted_16: Default::default(),
            shifted_32: Default::default(),
            shifted_64: Default::default(),
            shifted: Default::default(),
            align_16: Constant::new(0x70u64.to_bits()),
            align_32: Constant::new(0x60u64.to_bits()),
            align_64: Constant::new(0x40u64.to_bits()),
            bytes_from_8: Constant::new(0xffu128.to_bits()),
            bytes_from_16: Constant::new(0xff00u128.to_bits()),
            bytes_from_32: Constant::new(0xffff_0000u128.to_bits()),
            bytes_from_64: Constant::new(0xffff_ffff_0000_0000u128.to_bits()),
            bytes_unshifted: Constant::new((u128::MAX << 64).to_bits()),
        }
    }
}

impl Logic for ElemSelect {
    #[hdl_gen]
    fn update(&mut self) {
        self.elem_mask.next = self.zero.val();
        for s in 0..5 {
            if self.elem_size.val().index() == s {
                self.elem_mask.next = self.size_masks[s].val();
            }
        }
        self.shift_in_word.next = self.elem_shift.val().get_bits::<7>(0) & self.byte_aligned.val();
        // one set of shifters for both sources
        self.shift_source.next = self.lane_src0.val();
        if self.write_only.val() & self.elem_shift.val().get_bit(7) {
            self.shift_source.next = self.lane_src1.val();
        }
        // An element's offset is a multiple of its size (`elem_shift` steps by
        // the element's bits from 0), and only its own bytes survive the
        // mask. So result byte 0 needs any byte offset, byte 1 only offsets
        // of whole 16-bit units, bytes 2-3 of 32-bit units, bytes 4-7 of
        // 64-bit units, and bytes 8-15 (a 128-bit element) none: four
        // shifters whose unused outputs synthesis drops, 256 2:1 muxes
        // instead of a full 128-bit byte shifter's 512.
        self.shifted_8.next = self.shift_source.val() >> self.shift_in_word.val();
        self.shifted_16.next = self.shift_source.val() >> (self.shift_in_word.val() & self.align_16.val());
        self.shifted_32.next = self.shift_source.val() >> (self.shift_in_word.val() & self.align_32.val());
        self.shifted_64.next = self.shift_source.val() >> (self.shift_in_word.val() & self.align_64.val());
        self.shifted.next = (((self.shifted_8.val() & self.bytes_from_8.val())
            | (self.shifted_16.val() & self.bytes_from_16.val()))
            | ((self.shifted_32.val() & self.bytes_from_32.val()) | (self.shifted_64.val() & self.bytes_from_64.val())))
            | (self.shift_source.val() & self.bytes_unshifted.val());
        self.src0.next = self.shifted.val() & self.elem_mask.val();
        self.src1.next = self.lane_src1.val() & self.elem_mask.val();
        if self.swap_src.val() {
            self.src0.next = self.lane_src1.val() & self.elem_mask.val();
            self.src1.next = self.lane_src0.val() & self.elem_mask.val();
        }
        if self.write_only.val() {
            self.src1.next = self.zero.val();
            self.src0.next = self.shifted.val() & self.elem_mask.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elem_select_synthesizes() {
        let mut uut = ElemSelect::default();
        uut.connect_all();
        yosys_validate("atomport_elem_select", &generate_verilog(&uut)).unwrap();
    }

    /// The module's table: `(src0, src1)` of one element. `size` is log2
    /// bytes, `shift` the element's bit offset (a multiple of its bits).
    fn model(src0: u128, src1: u128, shift: u32, size: u32, swap: bool, write_only: bool) -> (u128, u128) {
        let bits = 8u32 << size;
        let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
        if write_only {
            // block j of the 256-bit {src1, src0}
            let block = if shift >= 128 { src1 >> (shift - 128) } else if shift == 0 { src0 } else { (src0 >> shift) | (src1 << (128 - shift)) };
            (block & mask, 0)
        } else if swap {
            (src1 & mask, src0 & mask)
        } else {
            ((src0 >> shift) & mask, src1 & mask)
        }
    }

    /// Every element size with every offset the contract gives it (elements
    /// of a 128-bit lane; scatter blocks of the 256-bit {src1, src0}; cas
    /// at offset 0), over seeded random sources, in Icarus, against the table.
    #[test]
    fn the_verilog_selects_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = ElemSelect::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x5851_f42d_4c95_7f2du64);
        let mut sources = vec![(u128::MAX, 0u128), (0, u128::MAX)];
        for _ in 0..6 {
            sources.push(((u128::from(next()) << 64) | u128::from(next()), (u128::from(next()) << 64) | u128::from(next())));
        }
        // (shift, size, swap, write_only)
        let mut forms = Vec::new();
        for size in 0..5u32 {
            let bits = 8u32 << size;
            for e in 0..128 / bits {
                forms.push((e * bits, size, false, false));
            }
            for e in 0..256 / bits {
                forms.push((e * bits, size, false, true));
            }
            forms.push((0, size, true, false));
        }
        let mut cases = Vec::new();
        for &(s0, s1) in &sources {
            for &(shift, size, swap, write_only) in &forms {
                cases.push((s0, s1, shift, size, swap, write_only));
            }
        }
        let mut bench = String::from(
            "module bench;\nreg [127:0] lane_src0, lane_src1; reg [7:0] elem_shift; reg [2:0] elem_size; reg swap_src, write_only;\n\
             wire [127:0] src0, src1;\ntop uut(.lane_src0(lane_src0), .lane_src1(lane_src1), .elem_shift(elem_shift),\n\
             .elem_size(elem_size), .swap_src(swap_src), .write_only(write_only), .src0(src0), .src1(src1));\ninitial begin\n",
        );
        for (s0, s1, shift, size, swap, write_only) in &cases {
            bench.push_str(&format!(
                "  lane_src0 = 128'h{s0:032x}; lane_src1 = 128'h{s1:032x}; elem_shift = {shift}; elem_size = {size}; \
                 swap_src = {}; write_only = {}; #1 $display(\"%h %h\", src0, src1);\n",
                u8::from(*swap),
                u8::from(*write_only)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("elem-select", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp output:\n{}", lines.join("\n"));
        for (line, &(s0, s1, shift, size, swap, write_only)) in lines.iter().zip(&cases) {
            let (want0, want1) = model(s0, s1, shift, size, swap, write_only);
            assert_eq!(
                *line,
                format!("{want0:032x} {want1:032x}"),
                "src0 {s0:#x} src1 {s1:#x} shift {shift} size {size} swap {swap} write_only {write_only}"
            );
        }
    }
}
