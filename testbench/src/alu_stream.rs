//! The atomic ALU as a pipeline, checked against the golden model's op
//! function (`golden::atomic_ops::apply`): a stream of [`AluVector`]s
//! enters the operand stage one per `pipe_advance` edge, with random
//! cycles without an advance between them (the unit's stalls), and every
//! output is checked in the cycle it means something:
//! - in the execute stage, every cycle: the integer op's value written
//!   (`new_cond ? new_true : new_false`), the value returned (`ret_value`),
//!   whether the float datapath claims the op (`float_op`), and for a float
//!   op both candidates 0;
//! - a float op's value on `float_value` from its third `pipe_advance` edge
//!   after the execute stage until the next edge.
//!
//! While `pipe_advance` is low the operand inputs carry junk, which the
//! operand stage must not load. hdl/src/alu.rs describes the timing.

use atomport_core::golden::atomic_ops::{apply, AluOut};
use atomport_core::ops::{AluCtl, AluOp, ElemType, UnitConfig};
use atomport_sim::{SimError, VAtomicAlu};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Widths of the ALU's `op` and `ty` ports.
pub use atomport_core::ops::{ALU_OP_BITS as OP_BITS, ALU_TY_BITS as TY_BITS};

/// The ALU's inputs in one cycle, but `old_value` and the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AluInputs {
    pub advance: bool,
    pub op: u8,
    pub ty: u8,
    pub ftz: bool,
    pub src0: u128,
    pub src1: u128,
}

/// The ALU's outputs after an eval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AluOutputs {
    pub new_true: u128,
    pub new_false: u128,
    pub new_cond: bool,
    pub ret: u128,
    pub float_op: bool,
    pub float_value: u128,
}

impl AluOutputs {
    /// The integer op's value written back, picked as the unit picks it.
    pub fn new_value(&self) -> u128 {
        if self.new_cond {
            self.new_true
        } else {
            self.new_false
        }
    }
}

/// What the stream needs of an ALU model. One cycle is: `set_*` ->
/// [`AluPins::settle`] -> [`AluPins::outputs`] -> [`AluPins::edge`], as for
/// the unit (`UnitPins`): a cycle's inputs are applied while the clock is
/// low, and sampled at the rising edge.
pub trait AluPins {
    fn set_inputs(&mut self, inputs: &AluInputs);
    fn set_old_value(&mut self, old: u128);
    /// Clock low, evaluate with the cycle's inputs.
    fn settle(&mut self) -> Result<(), SimError>;
    fn outputs(&self) -> AluOutputs;
    /// The rising edge: clock high, evaluate.
    fn edge(&mut self) -> Result<(), SimError>;
}

impl AluPins for VAtomicAlu {
    #[inline]
    fn set_inputs(&mut self, x: &AluInputs) {
        self.set_pipe_advance(x.advance as u8);
        self.set_op(x.op);
        self.set_ty(x.ty);
        self.set_ftz(x.ftz as u8);
        self.set_src0(x.src0);
        self.set_src1(x.src1);
    }

    #[inline]
    fn set_old_value(&mut self, old: u128) {
        VAtomicAlu::set_old_value(self, old);
    }

    #[inline]
    fn settle(&mut self) -> Result<(), SimError> {
        self.set_clock(0);
        VAtomicAlu::eval(self)
    }

    #[inline]
    fn outputs(&self) -> AluOutputs {
        AluOutputs {
            new_true: self.new_true(),
            new_false: self.new_false(),
            new_cond: self.new_cond() != 0,
            ret: self.ret_value(),
            float_op: self.float_op() != 0,
            float_value: self.float_value(),
        }
    }

    #[inline]
    fn edge(&mut self) -> Result<(), SimError> {
        self.set_clock(1);
        VAtomicAlu::eval(self)
    }
}

/// One element through the ALU: the `op` and `ty` codes (any 5 and 4
/// bits: codes outside the op table test the ALU's documented answer to
/// them), ftz and the three operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AluVector {
    pub op: u8,
    pub ty: u8,
    pub ftz: bool,
    pub old: u128,
    pub src0: u128,
    pub src1: u128,
}

impl AluVector {
    /// An element of the op table.
    pub fn of(op: AluOp, ty: ElemType, ftz: bool, old: u128, src0: u128, src1: u128) -> AluVector {
        AluVector { op: op.code(), ty: ty.code(), ftz, old, src0, src1 }
    }

    /// The op and type, when both codes are in the op table.
    pub fn ctl(&self) -> Option<AluCtl> {
        Some(AluCtl { op: AluOp::from_code(self.op)?, ty: ElemType::from_code(self.ty)?, ftz: self.ftz })
    }

    /// A float op (of the op table).
    pub fn needs_fp(&self) -> bool {
        self.ctl().is_some_and(|c| c.needs_fp())
    }
}

impl std::fmt::Display for AluVector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match AluOp::from_code(self.op) {
            Some(op) => write!(f, "{op:?}")?,
            None => write!(f, "op {:#x}", self.op)?,
        }
        match ElemType::from_code(self.ty) {
            Some(ty) => write!(f, ".{ty:?}")?,
            None => write!(f, ".ty {:#x}", self.ty)?,
        }
        write!(f, "{} old={:#x} src0={:#x} src1={:#x}", if self.ftz { " ftz" } else { "" }, self.old, self.src0, self.src1)
    }
}

/// Whether the unit sends `v` to an ALU built as `config` (it rejects the
/// rest before the ALU): codes of the op table, elements up to its data
/// width, float ops only with FP.
pub fn admitted(config: &UnitConfig, v: &AluVector) -> bool {
    v.ctl().is_some_and(|c| c.ty.bits() <= config.data_bits && (config.fp || !c.needs_fp()))
}

/// What an ALU built as `config` answers to `v` (hdl/src/alu.rs): the
/// golden op function for what it executes; zero outputs for a type code
/// outside the table or wider than the build; memory unchanged (the old
/// value, as `ret_value` too) for an op code outside the table, and for a
/// float op in a build without FP. The flag: the float datapath claims it.
pub fn expected(config: &UnitConfig, v: &AluVector) -> (AluOut, bool) {
    let Some(ty) = ElemType::from_code(v.ty).filter(|t| t.bits() <= config.data_bits) else {
        return (AluOut { new: 0, ret: 0 }, false);
    };
    let unchanged = AluOut { new: v.old & ty.mask(), ret: v.old & ty.mask() };
    let Some(op) = AluOp::from_code(v.op) else { return (unchanged, false) };
    let ctl = AluCtl { op, ty, ftz: v.ftz };
    if ctl.needs_fp() && !config.fp {
        return (unchanged, false);
    }
    (apply(ctl, v.old, v.src0, v.src1), ctl.needs_fp())
}

/// The first output that differs from the golden model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AluMismatch {
    /// cycle of the stream
    pub cycle: u64,
    /// index of the vector in the stream
    pub index: usize,
    pub vector: AluVector,
    /// which output and how
    pub what: String,
}

impl std::fmt::Display for AluMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cycle {}, vector {} ({}): {}", self.cycle, self.index, self.vector, self.what)
    }
}

/// Why a stream stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AluStreamError {
    #[error("ALU differs from the golden model at {0}")]
    Mismatch(AluMismatch),
    #[error("Verilator model: {0}")]
    Sim(SimError),
}

/// Runs `vectors` through `alu`, an ALU built as `config`, in order,
/// `stall` the probability that a cycle has no `pipe_advance` (junk on the
/// operand inputs then), the stalls and the junk drawn from `seed`. Returns
/// the cycles it took. An ALU built without FP must keep `float_op` and
/// `float_value` at 0 (it has no float datapath to drive them).
pub fn run_stream<P: AluPins>(alu: &mut P, config: &UnitConfig, vectors: &[AluVector], stall: f64, seed: u64) -> Result<u64, AluStreamError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let sim = AluStreamError::Sim;
    // the element in the execute stage, and those that left it at each
    // advance edge, newest last (the float datapath's stages)
    let mut in_x: Option<usize> = None;
    let mut left_x: std::collections::VecDeque<Option<usize>> = std::collections::VecDeque::new();
    let mut next = 0;
    let mut cycle = 0u64;
    let expect = |index: usize| expected(config, &vectors[index]);
    loop {
        let done_feeding = next >= vectors.len();
        let advance = done_feeding || !rng.gen_bool(stall.clamp(0.0, 0.95));
        let inputs = if advance && !done_feeding {
            let v = &vectors[next];
            AluInputs { advance, op: v.op, ty: v.ty, ftz: v.ftz, src0: v.src0, src1: v.src1 }
        } else {
            AluInputs { advance, op: rng.gen(), ty: rng.gen(), ftz: rng.gen(), src0: rng.gen(), src1: rng.gen() }
        };
        alu.set_inputs(&inputs);
        alu.set_old_value(match in_x {
            Some(k) => vectors[k].old,
            None => rng.gen(),
        });
        alu.settle().map_err(sim)?;
        let out = alu.outputs();
        let fail = |index: usize, what: String| {
            AluStreamError::Mismatch(AluMismatch { cycle, index, vector: vectors[index], what })
        };
        if let Some(k) = in_x {
            let (golden, float) = expect(k);
            if out.float_op != float {
                return Err(fail(k, format!("float_op is {}, expected {}", out.float_op as u8, float as u8)));
            }
            if out.ret != golden.ret {
                return Err(fail(k, format!("ret_value {:#x}, expected {:#x}", out.ret, golden.ret)));
            }
            if float && (out.new_true, out.new_false) != (0, 0) {
                return Err(fail(k, format!("a float op's candidates are {:#x} / {:#x}, expected 0", out.new_true, out.new_false)));
            }
            if !float && out.new_value() != golden.new {
                return Err(fail(
                    k,
                    format!(
                        "new value {:#x} (new_cond {} new_true {:#x} new_false {:#x}), expected {:#x}",
                        out.new_value(),
                        out.new_cond as u8,
                        out.new_true,
                        out.new_false,
                        golden.new
                    ),
                ));
            }
        }
        if !config.fp && (out.float_op || out.float_value != 0) && !vectors.is_empty() {
            let k = in_x.unwrap_or(next.min(vectors.len() - 1));
            return Err(fail(k, format!("float_op {} float_value {:#x} in a build without FP", out.float_op as u8, out.float_value)));
        }
        if let (3, Some(&Some(k))) = (left_x.len(), left_x.front()) {
            let (golden, float) = expect(k);
            if float && out.float_value != golden.new {
                return Err(fail(k, format!("float_value {:#x}, expected {:#x}", out.float_value, golden.new)));
            }
        }
        if done_feeding && left_x.iter().rev().take(3).all(Option::is_none) && in_x.is_none() {
            return Ok(cycle);
        }
        alu.edge().map_err(sim)?;
        cycle += 1;
        if advance {
            left_x.push_back(in_x);
            if left_x.len() > 3 {
                left_x.pop_front();
            }
            in_x = if done_feeding { None } else { Some(next) };
            next += 1;
        }
    }
}
