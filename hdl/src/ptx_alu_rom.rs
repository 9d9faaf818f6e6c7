//! `PtxAluRom`: the ALU op of a PTX `atom` op on a type, as a ROM read by
//! `{op, type}` (`PtxOpInfo::alu_op`, one row per known op and known type;
//! a pair with an unknown code reads `add`. Whether the op takes the type
//! is the decoder's check, `ptx_scalar_types`/`ptx_vector_types`: it flags
//! the message illegal).
//!
//! A custom block so that the lookup is one `case` on the 8-bit index:
//! written in `hdl_gen` as a loop over the 256 pairs it becomes 256 `if`s
//! in series, which synthesis flattens into the same LUTs but which
//! Verilator evaluates one after the other in every cycle. That chain alone
//! was a third of the unit's simulation time (docs/synthesis.md,
//! "Simulation speed"). Combinational.

use atomport_isa::{AluOp, PtxOpInfo, PtxType, ALU_OP_BITS};
use rust_hdl::prelude::*;

/// Bits of each half of the index: the PTX op code, the PTX type code.
pub const PTX_CODE_BITS: usize = 4;
/// Rows of the ROM: every `{op, type}` pair.
const ROWS: usize = 1 << (2 * PTX_CODE_BITS);

/// `alu_op = PtxOpInfo::alu_op(ty)` of PTX op `op`, `add` for an unknown op or type code (combinational).
#[derive(LogicBlock)]
pub struct PtxAluRom {
    /// The PTX op code (`PtxOp as u8`).
    pub op: Signal<In, Bits<PTX_CODE_BITS>>,
    /// The PTX type code (`PtxType::code`).
    pub ty: Signal<In, Bits<PTX_CODE_BITS>>,
    /// The ALU op ([`AluOp`] code).
    pub alu_op: Signal<Out, Bits<ALU_OP_BITS>>,
    /// `rows[16 * op + ty]`: the ROM's contents
    rows: [Constant<Bits<ALU_OP_BITS>>; ROWS],
}

impl PtxAluRom {
    /// The ALU op of PTX op code `op` on type code `ty`, if both codes are known.
    pub fn row(op: u8, ty: u8) -> Option<AluOp> {
        let row = PtxOpInfo::by_code(op)?;
        let ty = PtxType::from_code(ty)?;
        Some(row.alu_op(ty))
    }

    fn value(index: usize) -> AluOp {
        Self::row((index >> PTX_CODE_BITS) as u8, (index % (1 << PTX_CODE_BITS)) as u8).unwrap_or(AluOp::Add)
    }
}

impl Default for PtxAluRom {
    fn default() -> Self {
        assert!(AluOp::ALL.iter().all(|op| (op.code() as usize) < (1 << ALU_OP_BITS)), "PtxAluRom: an ALU op code does not fit");
        Self {
            op: Default::default(),
            ty: Default::default(),
            alu_op: Default::default(),
            rows: core::array::from_fn(|i| Constant::new(Self::value(i).code().to_bits())),
        }
    }
}

impl Logic for PtxAluRom {
    fn update(&mut self) {
        let index = (self.op.val().index() << PTX_CODE_BITS) | self.ty.val().index();
        self.alu_op.next = self.rows[index].val();
    }

    fn connect(&mut self) {
        self.alu_op.connect();
    }

    fn hdl(&self) -> Verilog {
        let bits = 2 * PTX_CODE_BITS;
        let mut rows = String::new();
        for index in 0..ROWS {
            if Self::row((index >> PTX_CODE_BITS) as u8, (index % (1 << PTX_CODE_BITS)) as u8).is_some() {
                rows.push_str(&format!("      {bits}'h{index:02x}: alu_op = {ALU_OP_BITS}'h{:x};\n", Self::value(index).code()));
            }
        }
        Verilog::Custom(format!(
            "always @(*) begin\n   case ({{op, ty}})\n{rows}      default: alu_op = {ALU_OP_BITS}'h{:x};\n   endcase\nend",
            AluOp::Add.code()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use atomport_isa::{PtxOp, PTX_OPS};

    #[test]
    fn ptx_alu_rom_is_one_case_over_the_op_tables_pairs() {
        let mut uut = PtxAluRom::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        assert!(vlog.contains("case ({op, ty})"), "{vlog}");
        let pairs = PTX_OPS.len() * PtxType::ALL.len();
        assert_eq!((0..ROWS).filter(|i| PtxAluRom::row((i >> 4) as u8, (i % 16) as u8).is_some()).count(), pairs);
        assert_eq!(vlog.matches(": alu_op = ").count(), pairs + 1, "one row per known op and type and the default: {vlog}");
        // min.s32: the op table's signed min
        let (op, ty) = (PtxOp::Min as u8, PtxType::S32.code());
        let row = format!("8'h{:02x}: alu_op = 5'h{:x};", (op << 4) | ty, PtxAluRom::row(op, ty).unwrap().code());
        assert!(vlog.contains(&row), "{row} in {vlog}");
        yosys_validate("atomport_ptx_alu_rom", &vlog).unwrap();
    }

    /// The emitted Verilog in Icarus against the op table: every one of the
    /// 256 `{op, type}` codes, known pairs reading `PtxOpInfo::alu_op` and
    /// the rest `add`.
    #[test]
    fn the_verilog_reads_like_the_model() {
        if !crate::icarus::available() {
            return;
        }
        let mut uut = PtxAluRom::default();
        uut.connect_all();
        let bench = "module bench;\nreg [3:0] op, ty; wire [4:0] alu_op; integer i;\n\
                     top uut(.op(op), .ty(ty), .alu_op(alu_op));\n\
                     initial for (i = 0; i < 256; i = i + 1) begin\n  op = i / 16; ty = i % 16; #1 $display(\"%0d\", alu_op);\nend\nendmodule\n";
        let lines = crate::icarus::run("ptx-alu-rom", &generate_verilog(&uut), bench);
        assert_eq!(lines.len(), 256, "vvp printed {} lines for 256 patterns", lines.len());
        let mut known = 0;
        for (i, line) in lines.iter().enumerate() {
            let (op, ty) = ((i / 16) as u8, (i % 16) as u8);
            // looked up in the tables directly, not through `PtxAluRom::row`
            let row = PTX_OPS.iter().find(|r| r.op as u8 == op);
            let ty_known = PtxType::ALL.iter().copied().find(|t| t.code() == ty);
            let expect = match (row, ty_known) {
                (Some(row), Some(t)) => {
                    known += 1;
                    row.alu_op(t)
                }
                _ => AluOp::Add,
            };
            assert_eq!(line, &expect.code().to_string(), "op {op} ty {ty}");
        }
        assert_eq!(known, PTX_OPS.len() * PtxType::ALL.len());
    }
}
