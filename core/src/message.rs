//! The validated message model: what the script parser produces, what the
//! descriptor codec encodes, what the golden model executes and what the RTL
//! driver puts on pins. Every operand rule of the seeds has been checked
//! before a value of these types exists.
//!
//! Lane values are raw bits (`u128`), already converted from the literal's
//! element type; a PTX vector / packed operand is the brace vector joined
//! element 0 first, low bits first (scripts.md, JSON output).

use crate::ops::{AluCtl, PtxOp, PtxType, VisaOpInfo, VisaWidth};
/// The five message kinds of the seeds (the one table: `atomport_isa::KINDS`).
pub use crate::ops::MsgKind;

/// Exec_size bits 7..4: M1..M8, optionally _NM (seed Exec_size field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaskCtrl {
    /// 0 for M1 .. 7 for M8
    pub group: u8,
    /// the `_NM` forms: the dispatch mask is ignored
    pub no_mask: bool,
}

impl MaskCtrl {
    pub const M1: MaskCtrl = MaskCtrl { group: 0, no_mask: false };
    pub const M1_NM: MaskCtrl = MaskCtrl { group: 0, no_mask: true };

    /// Exec_size bits 7..4.
    pub fn code(self) -> u8 {
        self.group | if self.no_mask { 8 } else { 0 }
    }

    pub fn from_code(code: u8) -> MaskCtrl {
        MaskCtrl { group: code & 7, no_mask: code & 8 != 0 }
    }
}

/// A predicate as applied to one message: its name, `!` complement, and the
/// mask value the name had when the message was issued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredRef {
    pub name: String,
    pub negate: bool,
    pub mask: u32,
}

/// SVM_SCATTER / PTX address spaces and surfaces that a lane can address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DwordSurface {
    /// T0: shared local memory
    Slm,
    /// T255: stateless, flat memory, no bounds
    Stateless,
    /// a `surface <n> buffer` statement's n (1..=254)
    Buffer(u8),
}

/// PTX `.space`, `.sem`, `.scope` and their descriptor codes (the one table).
pub use crate::ops::{PtxScope, PtxSem, PtxSpace};

/// The operation-specific part of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// SVM_ATOMIC: 64-bit flat addresses.
    SvmAtomic {
        op: &'static VisaOpInfo,
        width: VisaWidth,
        addrs: Vec<u64>,
        src0: Option<Vec<u128>>,
        src1: Option<Vec<u128>>,
    },
    /// DWORD_ATOMIC: byte offsets into a buffer surface, SLM or T255.
    DwordAtomic {
        op: &'static VisaOpInfo,
        /// `.16`
        w16: bool,
        surface: DwordSurface,
        offsets: Vec<u32>,
        src0: Option<Vec<u128>>,
        src1: Option<Vec<u128>>,
    },
    /// TYPED_ATOMIC: 8 lanes of (u, v, r, lod) into a typed surface.
    /// `v`, `r`, `lod` are None when written V0 (read as 0).
    TypedAtomic {
        op: &'static VisaOpInfo,
        w16: bool,
        surface: u8,
        u: Vec<u32>,
        v: Option<Vec<u32>>,
        r: Option<Vec<u32>>,
        lod: Option<Vec<u32>>,
        src0: Option<Vec<u128>>,
        src1: Option<Vec<u128>>,
    },
    /// SVM_SCATTER: `src` holds exactly the elements the seed's layout needs
    /// (block values, zero-extended to u64).
    SvmScatter {
        /// 1, 4 or 8 bytes
        block_size: u8,
        /// 1, 2, 4 or 8
        num_blocks: u8,
        addrs: Vec<u64>,
        src: Vec<u64>,
    },
    /// PTX atom, one thread (exec_size 1, M1_NM) or the warp form.
    PtxAtom {
        sem: Option<PtxSem>,
        scope: Option<PtxScope>,
        space: PtxSpace,
        op: PtxOp,
        noftz: bool,
        /// `.L2::cache_hint` with its cache-policy operand: recorded, no effect
        cache_hint: Option<u64>,
        /// 1 (scalar), 2, 4 or 8
        vec: u8,
        ty: PtxType,
        addrs: Vec<u64>,
        /// per lane, vector elements joined element 0 first
        b: Vec<u128>,
        /// cas only
        c: Option<Vec<u128>>,
    },
}

/// One validated message statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// 1-based line of the statement in its script
    pub line: usize,
    /// 1 ..= 32 lanes
    pub exec_size: u8,
    pub mask_ctrl: MaskCtrl,
    pub pred: Option<PredRef>,
    /// the `dmask` in force when the message was issued
    pub dmask: u32,
    /// result name; None for V0
    pub dst: Option<String>,
    pub body: Body,
}

impl Message {
    pub fn kind(&self) -> MsgKind {
        match self.body {
            Body::SvmAtomic { .. } => MsgKind::SvmAtomic,
            Body::DwordAtomic { .. } => MsgKind::DwordAtomic,
            Body::TypedAtomic { .. } => MsgKind::TypedAtomic,
            Body::SvmScatter { .. } => MsgKind::SvmScatter,
            Body::PtxAtom { .. } => MsgKind::PtxAtom,
        }
    }

    /// Channel enables (scripts.md "Channel enable"): lane i is enabled when
    /// (`_NM`, or bit 4*group + i of dmask; bits past 31 count as off) and the
    /// predicate, if any, holds for lane i.
    pub fn lane_enables(&self) -> u32 {
        let lanes = if self.exec_size >= 32 { u32::MAX } else { (1u32 << self.exec_size) - 1 };
        let dispatch = if self.mask_ctrl.no_mask {
            u32::MAX
        } else {
            let shift = 4 * self.mask_ctrl.group as u32;
            self.dmask.checked_shr(shift).unwrap_or(0)
        };
        let pred = match &self.pred {
            None => u32::MAX,
            Some(p) if p.negate => !p.mask,
            Some(p) => p.mask,
        };
        lanes & dispatch & pred
    }

    /// The ALU controls of an atomic message (for PTX vector forms: of each
    /// element); None for SVM_SCATTER.
    pub fn alu(&self) -> Option<AluCtl> {
        let (op, ty, ftz) = match &self.body {
            Body::SvmAtomic { op, width, .. } => (op.op, op.elem_type(width.bits()), false),
            Body::DwordAtomic { op, w16, .. } | Body::TypedAtomic { op, w16, .. } => {
                (op.op, op.elem_type(if *w16 { 16 } else { 32 }), false)
            }
            Body::SvmScatter { .. } => return None,
            Body::PtxAtom { op, ty, space, .. } => {
                let row = crate::ops::PtxOpInfo::by_code(*op as u8).expect("PTX op in table");
                // f32 add flushes on .global and generic, not on .shared
                let ftz = *ty == PtxType::F32 && !space.is_shared();
                (row.alu_op(*ty), ty.elem_type(), ftz)
            }
        };
        Some(AluCtl { op, ty, ftz })
    }

    /// Bytes one element access covers (atomics); the block size for scatter.
    pub fn access_bytes(&self) -> u32 {
        match &self.body {
            Body::SvmScatter { block_size, .. } => *block_size as u32,
            _ => self.alu().map(|c| c.ty.bytes()).unwrap_or(0),
        }
    }

    /// Whether a unit built with `config` executes this message
    /// (`UnitConfig::admits`: its exec size, element or block width, and
    /// whether its op needs the float datapath).
    pub fn admitted_by(&self, config: &crate::ops::UnitConfig) -> Result<(), crate::ops::ConfigLimit> {
        let needs_fp = self.alu().is_some_and(|c| c.needs_fp());
        config.admits(self.exec_size as u32, self.access_bytes(), needs_fp)
    }

    /// Width in bits of one lane's result (JSON `width`): 16, 32, 64 or 128.
    pub fn result_width(&self) -> u32 {
        match &self.body {
            Body::SvmAtomic { width, .. } => width.bits(),
            Body::DwordAtomic { w16, .. } | Body::TypedAtomic { w16, .. } => {
                if *w16 { 16 } else { 32 }
            }
            Body::SvmScatter { .. } => 0,
            Body::PtxAtom { vec, ty, .. } => ty.elem_type().bits() * *vec as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(exec: u8, mc: MaskCtrl, dmask: u32, pred: Option<PredRef>) -> Message {
        Message {
            line: 1,
            exec_size: exec,
            mask_ctrl: mc,
            pred,
            dmask,
            dst: None,
            body: Body::SvmScatter { block_size: 4, num_blocks: 1, addrs: vec![0; exec as usize], src: vec![0; exec as usize] },
        }
    }

    #[test]
    fn enables_follow_dmask_group_and_predicate() {
        assert_eq!(msg(8, MaskCtrl::M1, 0xffff_ffff, None).lane_enables(), 0xff);
        assert_eq!(msg(4, MaskCtrl { group: 1, no_mask: false }, 0x0000_00a0, None).lane_enables(), 0xa);
        assert_eq!(msg(4, MaskCtrl { group: 1, no_mask: true }, 0, None).lane_enables(), 0xf);
        // M8 with 8 lanes reaches bits 28..35: bits past 31 are off
        assert_eq!(msg(8, MaskCtrl { group: 7, no_mask: false }, 0xffff_ffff, None).lane_enables(), 0x0f);
        let p = PredRef { name: "p".into(), negate: true, mask: 0b0101 };
        assert_eq!(msg(4, MaskCtrl::M1, u32::MAX, Some(p)).lane_enables(), 0b1010);
        assert_eq!(msg(32, MaskCtrl::M1, 0x8000_0001, None).lane_enables(), 0x8000_0001);
    }
}
