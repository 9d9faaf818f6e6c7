//! `LaneMux`: the issuing lane's payload (one of the two payload buffers),
//! and that lane's alignment check.
//!
//! The unit reads one lane's operands at a time through its payload port
//! (docs/microarchitecture.md "Payload port"): the read goes out in the
//! cycle the lane is selected, the operands are on `pay_*` in the next cycle
//! (`atomport_isa::PAYLOAD_LATENCY` = 1), while the lane waits in the
//! next-lane stage N, and go into a register at that cycle's end: one of
//! two payload buffers (`pbuf_*`), used in turn, one for the issuing lane
//! and one for the next. So the issue stage reads registers only (no path
//! from `pay_*` into the issue logic or back to `pay_valid`), keeps them for
//! the lane's later cycles (PTX vector elements, scatter blocks, the typed
//! walk, a stall), and each enabled lane is read exactly once. `from_buf1`
//! picks the buffer: a 2-way mux, not a 32-way one.
//!
//! Alignment: an access must be aligned to its size so that it lies inside
//! one 16-byte bus line. The script parser already rejects misaligned
//! addresses and offsets (scripts.md: "addresses aligned to the access
//! size"), so the golden model never sees one. In the RTL the check is per
//! lane, as its payload arrives (a lane's address is not known before):
//! a misaligned lane touches no memory (its entries make no request, like an
//! out-of-bounds element), and its message ends with `rsp_error`. Checked:
//! the lane's address plus `base_low` (the buffer base's low bits for
//! DWORD_ATOMIC on a buffer), or for TYPED_ATOMIC the surface base alone
//! (elements sit at base + i*E; then every lane fails, and the message
//! touches no memory at all).

use rust_hdl::prelude::*;

use crate::widths::{ADDR_BITS, LANE_DATA_BITS, SIZE_BITS, UVR_BITS};

/// The issuing lane's payload and its alignment (combinational).
#[derive(LogicBlock)]
pub struct LaneMux {
    // ---- select ----
    /// The lane's operands are in payload buffer 1; else in buffer 0.
    pub from_buf1: Signal<In, Bit>,

    // ---- payload buffer 0 ----
    pub buf0_addr: Signal<In, Bits<ADDR_BITS>>,
    pub buf0_src0: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf0_src1: Signal<In, Bits<LANE_DATA_BITS>>,
    /// {r, v, u}
    pub buf0_coord: Signal<In, Bits<UVR_BITS>>,

    // ---- payload buffer 1 ----
    pub buf1_addr: Signal<In, Bits<ADDR_BITS>>,
    pub buf1_src0: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf1_src1: Signal<In, Bits<LANE_DATA_BITS>>,
    pub buf1_coord: Signal<In, Bits<UVR_BITS>>,

    // ---- alignment check ----
    /// log2 bytes of one access.
    pub elem_size: Signal<In, Bits<SIZE_BITS>>,
    /// Low bits added to the lane address (buffer base), else 0.
    pub base_low: Signal<In, Bits<4>>,
    /// Check the lane address (all kinds but TYPED_ATOMIC).
    pub check_lane: Signal<In, Bit>,
    /// Check `base_low` alone (TYPED_ATOMIC).
    pub check_base: Signal<In, Bit>,
    /// The lane's access is not aligned to its size.
    pub misaligned: Signal<Out, Bit>,
    /// The same, from `check_base` alone (a TYPED_ATOMIC lane): it does
    /// not read the payload buffers, so the issue stage's walk wait can
    /// use it without a path from the buffer select.
    pub base_misaligned: Signal<Out, Bit>,

    // ---- the lane's payload ----
    pub addr: Signal<Out, Bits<ADDR_BITS>>,
    pub src0: Signal<Out, Bits<LANE_DATA_BITS>>,
    pub src1: Signal<Out, Bits<LANE_DATA_BITS>>,
    /// {r, v, u}
    pub coord: Signal<Out, Bits<UVR_BITS>>,

    // ---- constants ----
    /// `align_masks[s]` = (1 << s) - 1
    align_masks: [Constant<Bits<4>>; 5],
    zero_mask: Constant<Bits<4>>,

    // ---- locals ----
    align_mask: Signal<Local, Bits<4>>,
}

impl Default for LaneMux {
    fn default() -> Self {
        Self {
            from_buf1: Default::default(),
            buf1_addr: Default::default(),
            buf1_src0: Default::default(),
            buf1_src1: Default::default(),
            buf1_coord: Default::default(),
            buf0_addr: Default::default(),
            buf0_src0: Default::default(),
            buf0_src1: Default::default(),
            buf0_coord: Default::default(),
            elem_size: Default::default(),
            base_low: Default::default(),
            check_lane: Default::default(),
            check_base: Default::default(),
            misaligned: Default::default(),
            base_misaligned: Default::default(),
            addr: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            coord: Default::default(),
            align_masks: core::array::from_fn(|s| Constant::new(((1u64 << s) - 1).to_bits())),
            zero_mask: Constant::new(0u64.to_bits()),
            align_mask: Default::default(),
        }
    }
}

impl Logic for LaneMux {
    #[hdl_gen]
    fn update(&mut self) {
        self.addr.next = self.buf0_addr.val();
        self.src0.next = self.buf0_src0.val();
        self.src1.next = self.buf0_src1.val();
        self.coord.next = self.buf0_coord.val();
        if self.from_buf1.val() {
            self.addr.next = self.buf1_addr.val();
            self.src0.next = self.buf1_src0.val();
            self.src1.next = self.buf1_src1.val();
            self.coord.next = self.buf1_coord.val();
        }

        self.align_mask.next = self.zero_mask.val();
        for s in 0..5 {
            if self.elem_size.val().index() == s {
                self.align_mask.next = self.align_masks[s].val();
            }
        }
        self.base_misaligned.next = self.check_base.val() & (self.base_low.val() & self.align_mask.val()).any();
        self.misaligned.next = (self.check_lane.val()
            & ((self.addr.val().get_bits::<4>(0) + self.base_low.val()) & self.align_mask.val()).any())
            | self.base_misaligned.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_mux_synthesizes() {
        let mut uut = LaneMux::default();
        uut.connect_all();
        yosys_validate("atomport_lane_mux", &generate_verilog(&uut)).unwrap();
    }

    /// One pattern: (from_buf1, check_lane, check_base, elem_size, base_low,
    /// both buffers' (addr, src0, src1, coord)).
    type Pattern = (u8, u8, u8, u8, u8, [(u64, u128, u128, u128); 2]);

    /// The documented outputs: the selected buffer's payload, and whether
    /// the checked address (lane address + `base_low`, or `base_low` alone)
    /// is not a multiple of the access size.
    fn expected(&(from_buf1, check_lane, check_base, size, base_low, bufs): &Pattern) -> String {
        let (addr, src0, src1, coord) = bufs[usize::from(from_buf1)];
        let misaligned_at = |x: u64| !x.is_multiple_of(1 << size);
        let base_misaligned = check_base == 1 && misaligned_at(u64::from(base_low));
        let misaligned = (check_lane == 1 && misaligned_at(addr.wrapping_add(u64::from(base_low)))) || base_misaligned;
        format!("{addr:016x} {src0:032x} {src1:032x} {coord:024x} {} {}", u8::from(misaligned), u8::from(base_misaligned))
    }

    /// The emitted Verilog in Icarus against the documented mux and alignment
    /// check: every combination of buffer, check flags, size (1..16 bytes),
    /// `base_low` and the selected address's low four bits (a loop in the
    /// bench, the buffers' payloads differing in every field), then seeded
    /// random payloads.
    #[test]
    fn the_verilog_selects_and_checks_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = LaneMux::default();
        uut.connect_all();
        let mut next = crate::icarus::xorshift(0x629a_292a_367c_d507u64);
        let high = [0x0123_4567_89ab_cde0u64, 0xfedc_ba98_7654_3210];
        let payload = [
            (0x5555_5555_5555_5555_aaaa_aaaa_aaaa_aaaau128, 0x0f0f_0f0f_0f0f_0f0f_f0f0_f0f0_f0f0_f0f0u128, 0x1111_2222_3333_4444_5555_6666u128),
            (0xaaaa_aaaa_aaaa_aaaa_5555_5555_5555_5555, 0xf0f0_f0f0_f0f0_f0f0_0f0f_0f0f_0f0f_0f0f, 0x6666_5555_4444_3333_2222_1111),
        ];
        // the loop's patterns: i = low | base_low << 4 | size << 8 (size < 5), ...
        let mut cases: Vec<Pattern> = vec![];
        for i in 0..16 * 16 * 5 * 8u32 {
            let (low, base_low, size, flags) = (u64::from(i % 16), (i / 16 % 16) as u8, (i / 256 % 5) as u8, i / 1280);
            let (check_lane, check_base, from_buf1) = ((flags & 1) as u8, (flags >> 1 & 1) as u8, (flags >> 2) as u8);
            // the other buffer's low bits differ, so a check on the wrong buffer shows
            let bufs = [0, 1].map(|b| {
                let low = if b == usize::from(from_buf1) { low } else { low ^ 0x9 };
                (high[b] | low, payload[b].0, payload[b].1, payload[b].2)
            });
            cases.push((from_buf1, check_lane, check_base, size, base_low, bufs));
        }
        let looped = cases.len();
        for _ in 0..300 {
            let mut wide = || (u128::from(next()) << 64) | u128::from(next());
            let bufs = [0, 1].map(|_| (wide() as u64, wide(), wide(), wide() >> 32));
            let pattern = ((next() % 2) as u8, (next() % 2) as u8, (next() % 2) as u8, (next() % 5) as u8, (next() % 16) as u8, bufs);
            cases.push(pattern);
        }
        let mut bench = format!(
            "module bench;\nreg from_buf1, check_lane, check_base; reg [2:0] elem_size; reg [3:0] base_low; integer i;\n\
             reg [63:0] buf0_addr, buf1_addr; reg [127:0] buf0_src0, buf0_src1, buf1_src0, buf1_src1; reg [95:0] buf0_coord, buf1_coord;\n\
             wire [63:0] addr; wire [127:0] src0, src1; wire [95:0] coord; wire misaligned, base_misaligned;\n\
             top uut(.from_buf1(from_buf1), .buf0_addr(buf0_addr), .buf0_src0(buf0_src0), .buf0_src1(buf0_src1), .buf0_coord(buf0_coord),\n\
             .buf1_addr(buf1_addr), .buf1_src0(buf1_src0), .buf1_src1(buf1_src1), .buf1_coord(buf1_coord), .elem_size(elem_size),\n\
             .base_low(base_low), .check_lane(check_lane), .check_base(check_base), .misaligned(misaligned),\n\
             .base_misaligned(base_misaligned), .addr(addr), .src0(src0), .src1(src1), .coord(coord));\n\
             initial begin\n  buf0_src0 = 128'h{:x}; buf0_src1 = 128'h{:x}; buf0_coord = 96'h{:x};\n  \
             buf1_src0 = 128'h{:x}; buf1_src1 = 128'h{:x}; buf1_coord = 96'h{:x};\n  \
             for (i = 0; i < {looped}; i = i + 1) begin\n    \
             base_low = i[7:4]; elem_size = (i / 256) % 5; check_lane = (i / 1280) % 2; check_base = (i / 2560) % 2; from_buf1 = i / 5120;\n    \
             buf0_addr = {{60'h{:x}, from_buf1 ? i[3:0] ^ 4'h9 : i[3:0]}};\n    \
             buf1_addr = {{60'h{:x}, from_buf1 ? i[3:0] : i[3:0] ^ 4'h9}};\n    \
             #1 $display(\"%h %h %h %h %b %b\", addr, src0, src1, coord, misaligned, base_misaligned);\n  end\n",
            payload[0].0, payload[0].1, payload[0].2, payload[1].0, payload[1].1, payload[1].2, high[0] >> 4, high[1] >> 4
        );
        for (from_buf1, check_lane, check_base, size, base_low, bufs) in &cases[looped..] {
            bench.push_str(&format!(
                "  from_buf1 = {from_buf1}; check_lane = {check_lane}; check_base = {check_base}; elem_size = {size}; base_low = {base_low};\n  "
            ));
            for (b, (addr, src0, src1, coord)) in bufs.iter().enumerate() {
                bench.push_str(&format!("buf{b}_addr = 64'h{addr:x}; buf{b}_src0 = 128'h{src0:x}; buf{b}_src1 = 128'h{src1:x}; buf{b}_coord = 96'h{coord:x}; "));
            }
            bench.push_str("\n  #1 $display(\"%h %h %h %h %b %b\", addr, src0, src1, coord, misaligned, base_misaligned);\n");
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("lane-mux", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp printed {} lines for {} patterns", lines.len(), cases.len());
        let mut flagged = 0;
        for (line, case) in lines.iter().zip(&cases) {
            let want = expected(case);
            flagged += usize::from(want.ends_with("1 1") || want.ends_with("1 0"));
            assert_eq!(line, &want, "{case:x?}");
        }
        assert!(flagged > 1000 && flagged < cases.len() - 1000, "misaligned {flagged} of {}", cases.len());
    }
}
