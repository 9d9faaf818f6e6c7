//! `OperandNumbering`: whether a descriptor's raw operand fields are
//! numbered 1, 2, 3, ... in field order (docs/descriptors.md "Raw operand
//! fields"), for the vISA layout (bytes 6..=12: TYPED_ATOMIC's seven fields;
//! SVM_ATOMIC's and DWORD_ATOMIC's four are its first, their later bytes are
//! the tail and zero) and for PTX's (bytes 8..=12) side by side, on the raw
//! bytes: the decoder picks by the message kind after it (no kind decode in
//! front of the numbering).
//!
//! A set field (not V0) must hold 1 + the number of set fields before it.
//! That is one function of the field's number bits and of which fields
//! before it are set (at most 6 + 3 inputs), written as a `case` that lists
//! its legal inputs, so synthesis maps each field's check in a few LUT
//! levels. The decoder's one-hot chain it replaces (`opnd_expect`: the
//! number each field must hold, shifted field by field) mapped as a chain
//! of muxes behind the kind decode: 23 cell levels behind `r_desc`, the
//! integer unit's critical path (docs/synthesis.md).
//! Combinational.

use rust_hdl::prelude::*;

/// Raw operand fields of the vISA layout: descriptor bytes 6..=12.
pub const FIELDS: usize = 7;
/// Bits of `fields`.
pub const FIELD_BITS: usize = 8 * FIELDS;
/// PTX's first field (D, byte 8) among them.
const PTX_FIRST: usize = 2;

/// Whether the set fields (non-zero bytes) of `fields` are misnumbered: one
/// holds other than 1 + the number of set fields before it.
pub fn misnumbered(fields: &[u8]) -> bool {
    let mut set_before = 0;
    for &f in fields {
        if f != 0 {
            if u32::from(f) != set_before + 1 {
                return true;
            }
            set_before += 1;
        }
    }
    false
}

/// The raw operand fields' numbering, for the two layouts (combinational).
#[derive(LogicBlock, Default)]
pub struct OperandNumbering {
    /// Descriptor bytes 6..=12, byte 6 in bits 7..0.
    pub fields: Signal<In, Bits<FIELD_BITS>>,
    /// A set field of bytes 6..=12 holds other than 1 + the set fields before it.
    pub visa_misnumbered: Signal<Out, Bit>,
    /// The same over bytes 8..=12 (PTX's D, A, B, C, Cache_policy).
    pub ptx_misnumbered: Signal<Out, Bit>,
}

impl Logic for OperandNumbering {
    fn update(&mut self) {
        let fields = self.fields.val().to_u128();
        let bytes: Vec<u8> = (0..FIELDS).map(|i| (fields >> (8 * i)) as u8).collect();
        self.visa_misnumbered.next = misnumbered(&bytes);
        self.ptx_misnumbered.next = misnumbered(&bytes[PTX_FIRST..]);
    }

    fn connect(&mut self) {
        self.visa_misnumbered.connect();
        self.ptx_misnumbered.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        v.push_str(&format!(
            "\
// field i is set (not V0), its bits 7..3 are set, its number (bits 2..0)
wire [{last}:0] set;
wire [{last}:0] wide;
",
            last = FIELDS - 1
        ));
        for i in 0..FIELDS {
            let (lo, hi) = (8 * i, 8 * i + 7);
            v.push_str(&format!(
                "assign set[{i}] = |fields[{hi}:{lo}];\nassign wide[{i}] = |fields[{hi}:{w}];\nwire [2:0] number{i} = fields[{n}:{lo}];\n",
                w = lo + 3,
                n = lo + 2
            ));
        }
        // field i's number is legal: the case lists each pattern of set
        // fields from `first` up to i with the number 1 + its count
        for (layout, first) in [("visa", 0), ("ptx", PTX_FIRST)] {
            v.push_str(&format!("reg [{last}:{first}] {layout}_ok;\n", last = FIELDS - 1));
            for i in first..FIELDS {
                let before = i - first;
                let key =
                    if before == 0 { format!("number{i}") } else { format!("{{set[{}:{first}], number{i}}}", i - 1) };
                let width = before + 3;
                let labels: Vec<String> =
                    (0u32..1 << before).map(|p| format!("{width}'h{:x}", (p << 3) | (p.count_ones() + 1))).collect();
                v.push_str(&format!(
                    "always @(*) begin\n   case ({key})\n      {}: {layout}_ok[{i}] = 1'b1;\n      default: {layout}_ok[{i}] = 1'b0;\n   endcase\nend\n",
                    labels.join(", ")
                ));
            }
        }
        v.push_str(&format!(
            "\
always @(*) visa_misnumbered = |(set & (wide | ~visa_ok));
always @(*) ptx_misnumbered = |(set[{last}:{PTX_FIRST}] & (wide[{last}:{PTX_FIRST}] | ~ptx_ok));
",
            last = FIELDS - 1
        ));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operand_numbering_synthesizes() {
        let mut uut = OperandNumbering::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        // field 2 after fields 0 and 1 set: number 3
        assert!(vlog.contains("case ({set[1:0], number2})"), "{vlog}");
        assert!(vlog.contains("5'h1b:"), "{vlog}");
        yosys_validate("atomport_operand_numbering", &vlog).unwrap();
    }

    #[test]
    fn the_model_numbers_fields_one_two_three_in_order() {
        assert!(!misnumbered(&[1, 0, 2, 3, 0, 0, 4]));
        assert!(!misnumbered(&[0, 0, 0, 0, 0, 0, 0]));
        assert!(misnumbered(&[2, 0, 0, 0, 0, 0, 0]), "the first set field is 1");
        assert!(misnumbered(&[1, 3, 0, 0, 0, 0, 0]), "no gap");
        assert!(misnumbered(&[1, 1, 0, 0, 0, 0, 0]), "no repeat");
        assert!(misnumbered(&[0x09, 0, 0, 0, 0, 0, 0]), "bits 7..3 clear");
    }

    /// The emitted Verilog under Icarus against `misnumbered` for every
    /// pattern of set fields numbered right, each with one field's number
    /// off by one, too wide or cleared, and seeded random fields.
    #[test]
    fn the_verilog_numbers_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut cases: Vec<[u8; FIELDS]> = Vec::new();
        for layout_first in [0, PTX_FIRST] {
            for pattern in 0u32..1 << FIELDS {
                let mut right = [0u8; FIELDS];
                let mut n = 0;
                for (i, f) in right.iter_mut().enumerate() {
                    if i >= layout_first && pattern >> i & 1 == 1 {
                        n += 1;
                        *f = n;
                    }
                }
                cases.push(right);
                for i in 0..FIELDS {
                    for wrong in [right[i].wrapping_add(1), right[i].wrapping_sub(1), right[i] | 0x08, 0] {
                        let mut c = right;
                        c[i] = wrong;
                        cases.push(c);
                    }
                }
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1du64; // xorshift, fixed seed
        for _ in 0..1000 {
            let mut c = [0u8; FIELDS];
            for f in c.iter_mut() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *f = if state & 3 == 0 { 0 } else { (state >> 8) as u8 & 0x7 };
            }
            cases.push(c);
        }
        cases.sort();
        cases.dedup();
        let word = |c: &[u8; FIELDS]| c.iter().rev().map(|b| format!("{b:02x}")).collect::<String>();
        let mut bench = format!(
            "module bench;\nreg [{}:0] fields;\nwire visa, ptx;\ntop uut(.fields(fields), .visa_misnumbered(visa), .ptx_misnumbered(ptx));\ninitial begin\n",
            FIELD_BITS - 1
        );
        for c in &cases {
            bench.push_str(&format!(
                "  fields = {FIELD_BITS}'h{}; #1 $display(\"%h %b%b\", fields, visa, ptx);\n",
                word(c)
            ));
        }
        bench.push_str("end\nendmodule\n");
        let mut uut = OperandNumbering::default();
        uut.connect_all();
        let lines = crate::icarus::run("operand-numbering", &generate_verilog(&uut), &bench);
        assert_eq!(lines.len(), cases.len(), "vvp output:\n{}", lines.join("\n"));
        let (mut visa_bad, mut ptx_bad) = (0, 0);
        for (line, c) in lines.iter().zip(&cases) {
            let (visa, ptx) = (misnumbered(c), misnumbered(&c[PTX_FIRST..]));
            visa_bad += usize::from(visa);
            ptx_bad += usize::from(ptx);
            assert_eq!(*line, format!("{} {}{}", word(c), u8::from(visa), u8::from(ptx)), "fields {c:?}");
        }
        // both outcomes of both outputs are driven
        assert!(visa_bad > 100 && cases.len() - visa_bad > 100, "{visa_bad} of {}", cases.len());
        assert!(ptx_bad > 100 && cases.len() - ptx_bad > 100, "{ptx_bad} of {}", cases.len());
    }
}
