//! `NullCoord`: TYPED_ATOMIC's null-coordinate rule: a V, R or LOD operand
//! the descriptor leaves out reads as 0 (docs/descriptors.md). Both units
//! feed their typed address from it. Combinational.

use rust_hdl::prelude::*;

use crate::widths::COORD_BITS;

/// The lane's coordinates with the absent ones zeroed (combinational).
#[derive(LogicBlock)]
pub struct NullCoord {
    /// The lane's coordinates as they came.
    pub u_in: Signal<In, Bits<COORD_BITS>>,
    pub v_in: Signal<In, Bits<COORD_BITS>>,
    pub r_in: Signal<In, Bits<COORD_BITS>>,
    pub lod_in: Signal<In, Bits<COORD_BITS>>,
    /// Which operands the descriptor has (U always has one).
    pub v_present: Signal<In, Bit>,
    pub r_present: Signal<In, Bit>,
    pub lod_present: Signal<In, Bit>,
    /// The coordinates the address uses.
    pub u: Signal<Out, Bits<COORD_BITS>>,
    pub v: Signal<Out, Bits<COORD_BITS>>,
    pub r: Signal<Out, Bits<COORD_BITS>>,
    pub lod: Signal<Out, Bits<COORD_BITS>>,

    zero: Constant<Bits<COORD_BITS>>,
}

impl Default for NullCoord {
    fn default() -> Self {
        Self {
            u_in: Default::default(),
            v_in: Default::default(),
            r_in: Default::default(),
            lod_in: Default::default(),
            v_present: Default::default(),
            r_present: Default::default(),
            lod_present: Default::default(),
            u: Default::default(),
            v: Default::default(),
            r: Default::default(),
            lod: Default::default(),
            zero: Constant::new(0u64.to_bits()),
        }
    }
}

impl Logic for NullCoord {
    #[hdl_gen]
    fn update(&mut self) {
        self.u.next = self.u_in.val();
        self.v.next = self.zero.val();
        if self.v_present.val() {
            self.v.next = self.v_in.val();
        }
        self.r.next = self.zero.val();
        if self.r_present.val() {
            self.r.next = self.r_in.val();
        }
        self.lod.next = self.zero.val();
        if self.lod_present.val() {
            self.lod.next = self.lod_in.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_coord_synthesizes() {
        let mut uut = NullCoord::default();
        uut.connect_all();
        yosys_validate("atomport_null_coord", &generate_verilog(&uut)).unwrap();
    }

    /// Every combination of present operands, in Icarus, against the rule.
    #[test]
    fn the_verilog_zeroes_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = NullCoord::default();
        uut.connect_all();
        let coords = [0x0000_0011u32, 0x2200_0000, 0xffff_ffff, 0x8000_0001];
        let mut bench = String::from(
            "module bench;\nreg [31:0] u_in, v_in, r_in, lod_in;\nreg v_present, r_present, lod_present;\nwire [31:0] u, v, r, lod;\n\
             top uut(.u_in(u_in), .v_in(v_in), .r_in(r_in), .lod_in(lod_in), .v_present(v_present), .r_present(r_present),\n\
             .lod_present(lod_present), .u(u), .v(v), .r(r), .lod(lod));\ninitial begin\n",
        );
        bench.push_str(&format!(
            "  u_in = 32'h{:08x}; v_in = 32'h{:08x}; r_in = 32'h{:08x}; lod_in = 32'h{:08x};\n",
            coords[0], coords[1], coords[2], coords[3]
        ));
        for present in 0..8u32 {
            bench.push_str(&format!(
                "  {{lod_present, r_present, v_present}} = 3'd{present}; #1 $display(\"%h %h %h %h\", u, v, r, lod);\n"
            ));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run("null-coord", &generate_verilog(&uut), &bench);
        let want: Vec<String> = (0..8u32)
            .map(|p| {
                let keep = |bit: u32, c: u32| if p & bit != 0 { c } else { 0 };
                format!("{:08x} {:08x} {:08x} {:08x}", coords[0], keep(1, coords[1]), keep(2, coords[2]), keep(4, coords[3]))
            })
            .collect();
        assert_eq!(lines, want);
    }
}
