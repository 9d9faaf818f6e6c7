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

    /// The emitted Verilog in Icarus against the module doc's table: every
    /// address mode of the table (SLM and buffer exclusive) with wrapping
    /// corners and seeded random operands. `addr` is compared where the table
    /// defines it (not TYPED_ATOMIC), `bounded_offset` and `bound` where a
    /// bound applies.
    #[test]
    fn the_verilog_addresses_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = AddrGen::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x510e_527f_ade6_82d1u64);
        // (space_slm, addr_offset32, addr_buffer, kind_typed): the table's rows,
        // then every flag combination with SLM and buffer apart
        let mut modes = vec![(0, 0, 0, 0), (1, 0, 0, 0), (1, 1, 0, 0), (0, 1, 0, 0), (0, 1, 1, 0), (0, 0, 0, 1)];
        for m in 0..16u8 {
            let mode = (m & 1, m >> 1 & 1, m >> 2 & 1, m >> 3 & 1);
            if (mode.0 == 0 || mode.2 == 0) && !modes.contains(&mode) {
                modes.push(mode);
            }
        }
        // (lane_addr, elem_offset, surf_base, surf_size, slm_size)
        let corners = [
            (0u64, 0u64, 0u64, 0u64, 0u32),
            (u64::MAX, 1, u64::MAX, u64::MAX, u32::MAX),
            (0xffff_ffff_0000_0010, 0x30, 0x1000, 0x40, 0x100),
            (0x8000_0000_ffff_fff0, 0x10, 0xffff_ffff_ffff_fff0, 0x2_0000_0000, 0x8000_0000),
        ];
        let mut cases = vec![];
        for &mode in &modes {
            for &c in &corners {
                cases.push((mode, c));
            }
            for _ in 0..60 {
                // offsets small or full-width, so both carries out of bit 31 and 63 happen
                let offset = if next().is_multiple_of(2) { next() % 256 } else { next() };
                cases.push((mode, (next(), offset, next(), next(), next() as u32)));
            }
        }
        let mut bench = String::from(
            "module bench;\nreg space_slm, addr_offset32, addr_buffer, kind_typed;\n\
             reg [63:0] lane_addr, elem_offset, surf_base, surf_size; reg [31:0] slm_size;\n\
             wire [63:0] addr, bounded_offset, bound; wire space, checks_bounds;\n\
             top uut(.lane_addr(lane_addr), .elem_offset(elem_offset), .space_slm(space_slm), .addr_offset32(addr_offset32),\n\
             .addr_buffer(addr_buffer), .kind_typed(kind_typed), .surf_base(surf_base), .surf_size(surf_size), .slm_size(slm_size),\n\
             .addr(addr), .space(space), .checks_bounds(checks_bounds), .bounded_offset(bounded_offset), .bound(bound));\n\
             initial begin\n",
        );
        for &((slm, off32, buf, typed), (lane, elem, base, size, slm_size)) in &cases {
            bench.push_str(&format!(
                "  space_slm = {slm}; addr_offset32 = {off32}; addr_buffer = {buf}; kind_typed = {typed}; \
                 lane_addr = 64'h{lane:x}; elem_offset = 64'h{elem:x}; surf_base = 64'h{base:x}; surf_size = 64'h{size:x}; \
                 slm_size = 32'h{slm_size:x}; #1 $display(\"%h %b %b %h %h\", addr, space, checks_bounds, bounded_offset, bound);\n"
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("addr-gen", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        for (line, &((slm, off32, buf, typed), (lane, elem, base, size, slm_size))) in lines.iter().zip(&cases) {
            let got: Vec<&str> = line.split(' ').collect();
            assert_eq!(got.len(), 5, "{line}");
            let context = format!("mode slm {slm} off32 {off32} buf {buf} typed {typed}, lane {lane:x} elem {elem:x}: {line}");
            // DWORD_ATOMIC's address is a u32 offset in the lane address's low half
            let offset = if off32 == 1 { lane & 0xffff_ffff } else { lane }.wrapping_add(elem);
            let addr = if buf == 1 { base.wrapping_add(offset) } else { offset };
            let bounded = (slm == 1 || buf == 1) && typed == 0;
            let bound = if buf == 1 { size } else { u64::from(slm_size) };
            if typed == 0 {
                assert_eq!(got[0], format!("{addr:016x}"), "addr, {context}");
            }
            assert_eq!(got[1], slm.to_string(), "space, {context}");
            assert_eq!(got[2], u8::from(bounded).to_string(), "checks_bounds, {context}");
            if bounded {
                assert_eq!(got[3], format!("{offset:016x}"), "bounded_offset, {context}");
                assert_eq!(got[4], format!("{bound:016x}"), "bound, {context}");
            }
        }
    }
}
