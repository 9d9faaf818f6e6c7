//! Builders for messages and programs in tests (no parser involved).

use crate::golden::Machine;
use crate::message::{Body, DwordSurface, MaskCtrl, Message};
use crate::ops::{Operand, PtxOp, PtxType, VisaOpInfo, VisaWidth};
use crate::program::{Program, Space, Surface};

pub fn program(slm_size: u32, surfaces: &[(u8, Surface)]) -> Program {
    Program { file: "test.atom".into(), slm_size, surfaces: surfaces.iter().copied().collect(), stmts: vec![] }
}

/// A machine with the default SLM size (65536) and these surfaces.
pub fn machine(surfaces: &[(u8, Surface)]) -> Machine {
    machine_with(65536, surfaces)
}

pub fn machine_with(slm_size: u32, surfaces: &[(u8, Surface)]) -> Machine {
    Machine::new(&program(slm_size, surfaces))
}

pub fn op(name: &str) -> &'static VisaOpInfo {
    VisaOpInfo::by_name(name).unwrap()
}

/// An all-enabled M1 message with dst `d`.
pub fn message(exec_size: usize, body: Body) -> Message {
    Message {
        line: 1,
        exec_size: exec_size as u8,
        mask_ctrl: MaskCtrl::M1,
        pred: None,
        dmask: u32::MAX,
        dst: Some("d".into()),
        body,
    }
}

pub fn svm(name: &str, width: VisaWidth, addrs: Vec<u64>, src0: Option<Vec<u128>>, src1: Option<Vec<u128>>) -> Message {
    message(addrs.len(), Body::SvmAtomic { op: op(name), width, addrs, src0, src1 })
}

pub fn dword(
    name: &str,
    w16: bool,
    surface: DwordSurface,
    offsets: Vec<u32>,
    src0: Option<Vec<u128>>,
    src1: Option<Vec<u128>>,
) -> Message {
    message(offsets.len(), Body::DwordAtomic { op: op(name), w16, surface, offsets, src0, src1 })
}

/// An 8-lane typed atomic; src0 is lane i + 1 when the op takes src0.
pub fn typed(
    name: &str,
    w16: bool,
    surface: u8,
    u: [u32; 8],
    v: [u32; 8],
    r: Option<[u32; 8]>,
    lod: [u32; 8],
) -> Message {
    let row = op(name);
    let src0 = (row.src0 == Operand::Required).then(|| (1..=8).collect());
    message(
        8,
        Body::TypedAtomic {
            op: row,
            w16,
            surface,
            u: u.to_vec(),
            v: Some(v.to_vec()),
            r: r.map(|r| r.to_vec()),
            lod: Some(lod.to_vec()),
            src0,
            src1: None,
        },
    )
}

pub fn scatter(block_size: u8, num_blocks: u8, addrs: Vec<u64>, src: Vec<u64>) -> Message {
    let mut m = message(addrs.len(), Body::SvmScatter { block_size, num_blocks, addrs, src });
    m.dst = None;
    m
}

/// A PTX atom over `lanes` threads (1: the single-thread form), M1_NM.
pub fn ptx(
    space: crate::message::PtxSpace,
    op: PtxOp,
    ty: PtxType,
    lanes: usize,
    addrs: Vec<u64>,
    b: Vec<u128>,
    c: Option<Vec<u128>>,
) -> Message {
    assert_eq!(addrs.len(), lanes);
    let mut m = message(
        lanes,
        Body::PtxAtom { sem: None, scope: None, space, op, noftz: false, cache_hint: None, vec: 1, ty, addrs, b, c },
    );
    m.mask_ctrl = MaskCtrl::M1_NM;
    m
}

/// The same PTX message as a `.vN` vector form.
pub fn with_vec(mut m: Message, n: u8) -> Message {
    if let Body::PtxAtom { vec, .. } = &mut m.body {
        *vec = n;
    }
    m
}

pub fn u32_at(m: &Machine, space: Space, addr: u64) -> u32 {
    u32::from_le_bytes(m.read(space, addr, 4).try_into().unwrap())
}
