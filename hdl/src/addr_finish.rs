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

    /// The emitted Verilog in Icarus against the documented stage: `index`
    /// the digit products summed at their weights (2^0, 2^16, 2^32, 2^48)
    /// plus `second_c` modulo 2^64, the element's address `index` when typed
    /// else `addr`, split into line, bit offset and byte enables (bytes past
    /// the line dropped). Every size and byte lane for both sources, carry
    /// corners, then seeded random operands.
    #[test]
    fn the_verilog_finishes_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = AddrFinish::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x9b05_688c_2b3e_6c1fu64);
        let ones = |bits: usize| (1u64 << bits) - 1;
        // (typed, addr, size, p0, p16, p32, p48, second_c)
        type Case = (u8, u64, u8, u64, u64, u64, u64, u64);
        let mut cases: Vec<Case> = vec![];
        for typed in 0..2u8 {
            for size in 0..5u8 {
                for lane in 0..16u64 {
                    let high = next() & !15;
                    // the typed address: second_c puts the sum on this lane
                    let (p0, p16, p32, p48) = (next() & ones(P0_BITS), next() & ones(P16_BITS), next() & ones(P32_BITS), next() & ones(P48_BITS));
                    let partial = p0.wrapping_add(p16 << 16).wrapping_add(p32 << 32).wrapping_add(p48 << 48);
                    let second_c = (high | lane).wrapping_sub(partial);
                    cases.push((typed, next() & !15 | lane, size, p0, p16, p32, p48, second_c));
                }
            }
        }
        // every term at its largest, and each alone at its largest
        let max = (ones(P0_BITS), ones(P16_BITS), ones(P32_BITS), ones(P48_BITS), u64::MAX);
        cases.push((1, 0, 4, max.0, max.1, max.2, max.3, max.4));
        cases.push((1, 0, 4, max.0, 0, 0, 0, 0));
        cases.push((1, 0, 4, 0, max.1, 0, 0, 0));
        cases.push((1, 0, 4, 0, 0, max.2, 0, 0));
        cases.push((1, 0, 4, 0, 0, 0, max.3, 0));
        cases.push((1, 0, 4, 0, 0, 0, 0, max.4));
        for _ in 0..400 {
            let typed = (next() % 2) as u8;
            let size = (next() % 5) as u8;
            cases.push((typed, next(), size, next() & max.0, next() & max.1, next() & max.2, next() & max.3, next()));
        }
        let mut bench = String::from(
            "module bench;\nreg typed; reg [63:0] addr, second_c; reg [2:0] elem_size;\n\
             reg [31:0] p0; reg [32:0] p16; reg [31:0] p32; reg [15:0] p48;\n\
             wire [63:0] index, line; wire [6:0] bit_offset; wire [15:0] byte_enables;\n\
             top uut(.typed(typed), .addr(addr), .elem_size(elem_size), .p0(p0), .p16(p16), .p32(p32), .p48(p48),\n\
             .second_c(second_c), .index(index), .line(line), .bit_offset(bit_offset), .byte_enables(byte_enables));\n\
             initial begin\n",
        );
        for &(typed, addr, size, p0, p16, p32, p48, second_c) in &cases {
            bench.push_str(&format!(
                "  typed = {typed}; addr = 64'h{addr:x}; elem_size = {size}; p0 = 32'h{p0:x}; p16 = 33'h{p16:x}; \
                 p32 = 32'h{p32:x}; p48 = 16'h{p48:x}; second_c = 64'h{second_c:x}; \
                 #1 $display(\"%h %h %0d %h\", index, line, bit_offset, byte_enables);\n"
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("addr-finish", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, &(typed, addr, size, p0, p16, p32, p48, second_c)) in lines.iter().zip(&cases) {
            let index = p0
                .wrapping_add(p16 << 16)
                .wrapping_add(p32 << 32)
                .wrapping_add(p48 << 48)
                .wrapping_add(second_c);
            let element = if typed == 1 { index } else { addr };
            let lane = element % 16;
            let enables = (((1u32 << (1u32 << size)) - 1) << lane) & 0xffff;
            assert_eq!(
                line,
                &format!("{index:016x} {:016x} {} {enables:04x}", element & !15, lane * 8),
                "typed {typed} addr {addr:x} size {size} p0 {p0:x} p16 {p16:x} p32 {p32:x} p48 {p48:x} second_c {second_c:x}"
            );
        }
    }
}
