//! Seeded random scripts for `atomport regress`: valid message scripts in
//! the text of scripts.md, built as [`Message`]s, printed with
//! [`atomport_core::text::message_text`] (plus the `surface`, `slm size`, `mem`,
//! `dmask` and `pred` statements they need) and read back through the real
//! parser, so a failing script written to a file reproduces with
//! `atomport run FILE --engine both`.
//!
//! What the scripts exercise ("regress"): every message kind;
//! every op each kind takes (integer and float: every [`FpFamily`] a valid
//! message reaches, unless the caller asks for integer ops only; what a
//! build does not admit is its to reject, never the generator's to leave
//! out); all widths and exec
//! sizes; M1..M8 and `_NM` mask controls against random `dmask`s; predicates
//! and their complements; lanes on the same address (drawn from small
//! pools, so atomics chain through memory); out-of-bounds lanes on SLM,
//! buffers and typed surfaces (coordinates and LOD), some of them aliased
//! far past the bound (only a bit above the bound's length set); all SVM_SCATTER
//! layouts; 64-bit and high SVM addresses; typed surfaces with dimensions
//! past 16 bits (every digit product of the typed address's multipliers);
//! PTX single-thread and warp
//! forms, spaces, vectors, b128, cache hints; memory statements between
//! messages (barriers).

use std::collections::BTreeSet;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use atomport_core::message::{Body, DwordSurface, MaskCtrl, Message, PredRef, PtxScope, PtxSem, PtxSpace};
use atomport_core::ops::{AluCtl, AluOp, ElemType, PtxOpInfo, PtxType, VisaOpInfo, VisaWidth, PTX_OPS, VISA_OPS};
use atomport_core::program::{Program, TypedFormat, TypedKind, TypedSurface};
use atomport_core::script::MAX_LEVELS;
use atomport_isa::{scatter_layout_legal, FloatFormat, MsgKind, UnitConfig, SCATTER_BLOCK_BYTES, SCATTER_NUM_BLOCKS};

/// One float datapath of the ALU: (op, element type, ftz). A message whose
/// ALU controls are a float family is generated only when the family is in
/// [`GenConfig::fp`], which is decided by the caller's build configuration
/// ([`GenConfig::for_build`]), never by what the RTL passes.
pub type FpFamily = (AluOp, ElemType, bool);

/// Every float family a valid message can reach.
pub fn all_fp_families() -> Vec<FpFamily> {
    use AluOp::*;
    use ElemType::*;
    let mut v = vec![];
    for ty in [F32, F16] {
        for op in [Fmax, Fmin, Fcmpwr] {
            v.push((op, ty, false));
        }
    }
    v.push((Add, F32, true));
    v.push((Add, F32, false));
    for ty in [F64, F16, BF16, F16x2, BF16x2] {
        v.push((Add, ty, false));
    }
    for ty in [F16, BF16, F16x2, BF16x2] {
        v.push((FminPtx, ty, false));
        v.push((FmaxPtx, ty, false));
    }
    v
}

/// The float families a unit built with `config` executes: every one when
/// it is built with FP, none without (its element width bounds them too).
pub fn admitted_fp_families(config: &UnitConfig) -> BTreeSet<FpFamily> {
    all_fp_families()
        .into_iter()
        .filter(|(_, ty, _)| config.admits(1, ty.bytes(), true).is_ok())
        .collect()
}

/// `fmax.f32 add.f16 ...`: a family list for people.
pub fn fp_family_names(families: &BTreeSet<FpFamily>) -> String {
    if families.is_empty() {
        return "none".to_string();
    }
    families
        .iter()
        .map(|(op, ty, ftz)| format!("{op:?}.{ty:?}{}", if *ftz { ".ftz" } else { "" }).to_lowercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// messages per script
    pub messages: usize,
    /// float families to generate (others are never generated)
    pub fp: BTreeSet<FpFamily>,
    /// only messages whose kind and op match (`regress --kinds/--ops`)
    pub filter: MessageFilter,
}

/// `regress --kinds GLOB,.. --ops GLOB,..`: narrows the generated messages
/// to some kinds (`SVM_ATOMIC`, `DWORD_ATOMIC`, `TYPED_ATOMIC`,
/// `SVM_SCATTER`, `atom`) and ops (`ADD`, `CMPXCHG`, PTX `cas`, `SCATTER`
/// for SVM_SCATTER), as test filters do. Globs take `*` and `?` and ignore
/// case; an empty list matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessageFilter {
    pub kinds: Vec<String>,
    pub ops: Vec<String>,
}

impl MessageFilter {
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty() && self.ops.is_empty()
    }

    pub fn matches(&self, msg: &Message) -> bool {
        let any = |globs: &[String], name: &str| globs.is_empty() || globs.iter().any(|g| atomport_core::glob::glob_match_ignore_case(g, name));
        any(&self.kinds, msg.kind().name()) && any(&self.ops, &message_op_name(msg))
    }
}

/// The op of a message as `--ops` matches it: the vISA op name (`ADD`,
/// `CMPXCHG`, `FADD`), the PTX op (`add`, `cas`, `exch`), `SCATTER`.
pub fn message_op_name(msg: &Message) -> String {
    match &msg.body {
        Body::SvmAtomic { op, .. } | Body::DwordAtomic { op, .. } | Body::TypedAtomic { op, .. } => op.name.to_string(),
        Body::SvmScatter { .. } => "SCATTER".to_string(),
        Body::PtxAtom { op, .. } => atomport_core::text::ptx_op_name(*op).to_string(),
    }
}

impl GenConfig {
    pub fn integer_only(messages: usize) -> GenConfig {
        GenConfig { messages, fp: BTreeSet::new(), filter: MessageFilter::default() }
    }

    /// Every message kind, op, width and float family: what a regression
    /// of any build runs. A build that does not admit a message rejects it
    /// (the scoreboard checks that), so the stimulus is the same whatever
    /// the device under test passes.
    pub fn every_family(messages: usize) -> GenConfig {
        GenConfig { messages, fp: all_fp_families().into_iter().collect(), filter: MessageFilter::default() }
    }

    /// Only the messages the build `config` admits float-wise: every float
    /// family when it is built with FP.
    pub fn for_build(messages: usize, config: &UnitConfig) -> GenConfig {
        GenConfig { messages, fp: admitted_fp_families(config), filter: MessageFilter::default() }
    }

    fn allows(&self, msg: &Message) -> bool {
        let fp_ok = match msg.alu() {
            Some(ctl) if ctl.needs_fp() => self.fp.contains(&(ctl.op, ctl.ty, ctl.ftz)),
            _ => true,
        };
        fp_ok && self.filter.matches(msg)
    }
}

/// A generated script: its text and the program the parser made of it.
#[derive(Clone, Debug)]
pub struct Generated {
    pub text: String,
    pub program: Program,
}

/// Flat regions the addresses come from: a small low window (atomics
/// collide), a window near the top of the 64-bit space (SVM's 64-bit
/// addresses), and the buffer / typed surfaces' home.
const LOW_BASE: u64 = 0x1000;
const LOW_SIZE: u64 = 0x100;
const HIGH_BASE: u64 = 0xffff_fff0_0000_1000;
const BUFFER_BASE: u64 = 0x8000;
const TYPED_BASE: u64 = 0x10000;

/// A large typed surface dimension: past one 16-bit digit, and halving
/// through the levels without dropping below it at level 1.
const LARGE_DIM: std::ops::RangeInclusive<u32> = 0x2_0000..=0x5_ffff;

/// Seeds the surfaces' own random stream (with the script's seed).
const SURFACE_STREAM: u64 = 0x5eed_5u64 << 40;

/// Seeds the SLM size's own random stream (with the script's seed).
const SLM_STREAM: u64 = 0x5eed_51u64 << 36;

/// Seeds the surface bases' own random stream (with the script's seed).
const BASE_STREAM: u64 = 0x5eed_ba5eu64 << 28;

/// Buffer surfaces are 1..=3, typed surfaces 10.. (one per kind and format).
const BUFFERS: [u8; 3] = [1, 2, 3];

struct Gen<'c> {
    rng: ChaCha8Rng,
    /// the surfaces' far placements, sizes and level counts: a stream of its
    /// own, so the messages of a seed stay those of the main stream
    surface_rng: ChaCha8Rng,
    /// the SLM size's wide draws: a stream of its own for the same reason
    slm_rng: ChaCha8Rng,
    /// the surface bases' offsets: a stream of its own for the same reason
    base_rng: ChaCha8Rng,
    cfg: &'c GenConfig,
    lines: Vec<String>,
    slm_size: u32,
    buffers: Vec<(u8, u64, u64)>,
    typed: Vec<(u8, TypedSurface)>,
    dmask: u32,
    /// current value of each predicate name p0..p3
    preds: [u32; 4],
    dsts: usize,
    /// candidates the config refused in a row (a filter nothing matches)
    refused: usize,
}

/// Candidates refused in a row before a filter is declared unsatisfiable.
const MAX_REFUSED: usize = 200_000;

fn mask_of(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

impl Gen<'_> {
    fn line(&mut self, s: String) {
        self.lines.push(s);
    }

    /// A value of `bits` bits, biased to the edges that matter for
    /// min/max/cmpxchg/inc/dec (0, 1, small, sign bit, all ones).
    fn int_value(&mut self, bits: u32) -> u128 {
        let m = mask_of(bits);
        let sign = 1u128 << (bits - 1);
        match self.rng.gen_range(0..10) {
            0 => 0,
            1 => 1,
            2 | 3 => self.rng.gen_range(0..4),
            4 => m,
            5 => sign,
            6 => sign - 1,
            7 => m - self.rng.gen_range(0..3),
            _ => self.rng.gen::<u128>() & m,
        }
    }

    /// Raw bits of a float of `ty` (one element), biased to specials.
    fn float_bits(&mut self, ty: ElemType) -> u128 {
        let f = ty.float_format().unwrap_or(FloatFormat::F32);
        let (bits, exp_bits, man_bits) = (f.bits(), f.exp_bits, f.man_bits);
        let sign = (self.rng.gen::<bool>() as u128) << (bits - 1);
        let exp_all = mask_of(exp_bits) << man_bits;
        let man = self.rng.gen::<u128>() & mask_of(man_bits);
        let one = (mask_of(exp_bits - 1)) << man_bits;
        sign | match self.rng.gen_range(0..10) {
            0 => 0,                                 // +-0
            1 => exp_all,                           // +-inf
            2 => exp_all | man | 1,                 // NaN (quiet or signalling)
            3 => man,                               // subnormal (or 0)
            4 => one,                               // 1.0
            5 => one + self.rng.gen_range(0..4u128), // just above 1.0
            _ => self.rng.gen::<u128>() & mask_of(bits - 1),
        }
    }

    /// One lane's source value for ALU controls `ctl` (PTX vectors: `vec` elements).
    fn value(&mut self, ctl: AluCtl, vec: u8) -> u128 {
        let ty = ctl.ty;
        let mut v = 0u128;
        for k in 0..vec as u32 {
            let e = if ctl.needs_fp() {
                match ty {
                    ElemType::F16x2 => self.float_bits(ElemType::F16) | self.float_bits(ElemType::F16) << 16,
                    ElemType::BF16x2 => self.float_bits(ElemType::BF16) | self.float_bits(ElemType::BF16) << 16,
                    ElemType::B16 | ElemType::B32 | ElemType::B64 | ElemType::B128 => self.int_value(ty.bits()),
                    _ => self.float_bits(ty),
                }
            } else {
                self.int_value(ty.bits())
            };
            v |= e << ((k * ty.bits()) % 128);
        }
        v
    }

    /// vISA sources: `.16` takes dwords of which the unit must use the low 16 bits.
    fn visa_value(&mut self, ctl: AluCtl) -> u128 {
        let v = self.value(ctl, 1);
        if ty_is_16(ctl.ty) && self.rng.gen_bool(0.3) {
            v | (self.rng.gen::<u16>() as u128) << 16
        } else {
            v
        }
    }

    fn mask_ctrl(&mut self) -> MaskCtrl {
        match self.rng.gen_range(0..10) {
            0..=5 => MaskCtrl::M1,
            6..=7 => MaskCtrl { group: self.rng.gen_range(0..8), no_mask: false },
            _ => MaskCtrl { group: self.rng.gen_range(0..8), no_mask: true },
        }
    }

    /// Maybe a new dmask; maybe a predicate (redefined now and then).
    fn pre_message(&mut self) -> Option<PredRef> {
        if self.rng.gen_bool(0.25) {
            // mostly all on (the common case), sometimes sparse or empty
            self.dmask = match self.rng.gen_range(0..20) {
                0..=9 => u32::MAX,
                10..=12 => self.rng.gen::<u32>() & self.rng.gen::<u32>(),
                13 => 0,
                14..=16 => self.rng.gen::<u32>() | self.rng.gen::<u32>(),
                _ => self.rng.gen(),
            };
            let d = self.dmask;
            self.line(format!("dmask {d:#x}"));
        }
        if !self.rng.gen_bool(0.3) {
            return None;
        }
        let k = self.rng.gen_range(0..4);
        if self.rng.gen_bool(0.5) {
            self.preds[k] = match self.rng.gen_range(0..3) {
                0 => self.rng.gen(),
                1 => self.rng.gen::<u32>() | self.rng.gen::<u32>(),
                _ => 1 << self.rng.gen_range(0..32),
            };
            let v = self.preds[k];
            self.line(format!("pred p{k} = {v:#x}"));
        }
        Some(PredRef { name: format!("p{k}"), negate: self.rng.gen_bool(0.4), mask: self.preds[k] })
    }

    fn dst(&mut self) -> Option<String> {
        if self.rng.gen_bool(0.85) {
            self.dsts += 1;
            Some(format!("d{}", self.dsts))
        } else {
            None
        }
    }

    /// `n` addresses aligned to `align` from the window [base, base+size),
    /// a third of the lanes reusing an earlier lane's address, and now and
    /// then every lane on one address (the longest same-address run).
    fn addresses(&mut self, n: usize, base: u64, size: u64, align: u64) -> Vec<u64> {
        if n > 1 && self.rng.gen_bool(0.05) {
            let a = base.wrapping_add(self.rng.gen_range(0..size.max(align) / align) * align);
            return vec![a; n];
        }
        let mut v: Vec<u64> = Vec::with_capacity(n);
        for _ in 0..n {
            let a = if !v.is_empty() && self.rng.gen_bool(0.35) {
                v[self.rng.gen_range(0..v.len())]
            } else {
                base.wrapping_add(self.rng.gen_range(0..size.max(align) / align) * align)
            };
            v.push(a);
        }
        v
    }

    /// SLM offsets: mostly a small window, some near and past the end, and
    /// now and then one far past it ([`Self::alias_past`]; offsets of
    /// `addr_bits` bits).
    fn slm_offsets(&mut self, n: usize, align: u64, addr_bits: u32) -> Vec<u64> {
        let end = self.slm_size as u64;
        let v = if self.rng.gen_bool(0.2) {
            let lo = end.saturating_sub(4 * align);
            self.addresses(n, lo, 8 * align, align)
        } else {
            self.addresses(n, 0, 0x80, align)
        };
        self.some_aliased_past(v, end, addr_bits)
    }

    /// Each offset, with probability 1/20, aliased past `bound` (none when
    /// no offset of `addr_bits` bits can pass it: every one is in bounds).
    fn some_aliased_past(&mut self, offsets: Vec<u64>, bound: u64, addr_bits: u32) -> Vec<u64> {
        let room = 64 - bound.leading_zeros() < addr_bits;
        offsets
            .into_iter()
            .map(|o| if self.rng.gen_bool(0.05) && room { self.alias_past(o, bound, addr_bits) } else { o })
            .collect()
    }

    /// `x` with one bit set at or above the bit length of `bound` (and
    /// below `addr_bits`): past the bound, yet equal to `x` in every bit a
    /// compare too narrow to see that bit would look at, so a bound check
    /// that drops upper bits takes it for `x`.
    fn alias_past(&mut self, x: u64, bound: u64, addr_bits: u32) -> u64 {
        let past = 64 - bound.leading_zeros();
        assert!(past < addr_bits, "a bound of {bound:#x} leaves no bit above it in {addr_bits} bits");
        x | 1 << self.rng.gen_range(past..addr_bits)
    }

    /// An op the message kind takes at `width` bits (the one table's rule).
    fn visa_op(&mut self, kind: MsgKind, width: u32) -> &'static VisaOpInfo {
        loop {
            let row = &VISA_OPS[self.rng.gen_range(0..VISA_OPS.len())];
            let op = VisaOpInfo::by_code(row.op.code()).expect("row");
            if kind.info().allows_visa_op(op, width) {
                return op;
            }
        }
    }

    fn sources(&mut self, op: &VisaOpInfo, ctl: AluCtl, n: usize) -> (Option<Vec<u128>>, Option<Vec<u128>>) {
        use atomport_core::ops::Operand::Required;
        let src0 = (op.src0 == Required).then(|| (0..n).map(|_| self.visa_value(ctl)).collect());
        let src1 = (op.src1 == Required).then(|| (0..n).map(|_| self.visa_value(ctl)).collect());
        (src0, src1)
    }

    fn exec(&mut self, legal: &[u8]) -> u8 {
        *legal.choose(&mut self.rng).unwrap()
    }

    fn svm_atomic(&mut self) -> (u8, MaskCtrl, Option<String>, Body) {
        let k = MsgKind::SvmAtomic.info();
        let width = VisaWidth::from_bits(*k.widths.choose(&mut self.rng).unwrap()).expect("a vISA width");
        let op = self.visa_op(k.kind, width.bits());
        let n = self.exec(k.exec_sizes);
        let ctl = AluCtl { op: op.op, ty: op.elem_type(width.bits()), ftz: false };
        let align = width.bits() as u64 / 8;
        let addrs = if self.rng.gen_bool(0.8) {
            self.addresses(n as usize, LOW_BASE, LOW_SIZE, align)
        } else {
            self.addresses(n as usize, HIGH_BASE, 0x40, align)
        };
        let (src0, src1) = self.sources(op, ctl, n as usize);
        (n, self.mask_ctrl(), self.dst(), Body::SvmAtomic { op, width, addrs, src0, src1 })
    }

    fn dword_atomic(&mut self) -> (u8, MaskCtrl, Option<String>, Body) {
        let w16 = self.rng.gen_bool(0.3);
        let k = MsgKind::DwordAtomic.info();
        let op = self.visa_op(k.kind, if w16 { 16 } else { 32 });
        let n = self.exec(k.exec_sizes);
        let ctl = AluCtl { op: op.op, ty: op.elem_type(if w16 { 16 } else { 32 }), ftz: false };
        let align = if w16 { 2 } else { 4 };
        let (surface, offsets) = match self.rng.gen_range(0..3) {
            0 => (DwordSurface::Slm, self.slm_offsets(n as usize, align, 32)),
            1 => (DwordSurface::Stateless, self.addresses(n as usize, LOW_BASE, LOW_SIZE, align)),
            _ => {
                let (s, _, size) = *self.buffers.choose(&mut self.rng).unwrap();
                // offsets up to a little past the end, a few far past it: some lanes out of bounds
                let offsets = self.addresses(n as usize, 0, size + 16, align);
                (DwordSurface::Buffer(s), self.some_aliased_past(offsets, size, 32))
            }
        };
        let offsets = offsets.into_iter().map(|o| o as u32).collect();
        let (src0, src1) = self.sources(op, ctl, n as usize);
        (n, self.mask_ctrl(), self.dst(), Body::DwordAtomic { op, w16, surface, offsets, src0, src1 })
    }

    fn typed_atomic(&mut self) -> (u8, MaskCtrl, Option<String>, Body) {
        let (surface, t) = *self.typed.choose(&mut self.rng).unwrap();
        let w16 = t.format == TypedFormat::U16;
        let k = MsgKind::TypedAtomic.info();
        let op = self.visa_op(k.kind, if w16 { 16 } else { 32 });
        let ctl = AluCtl { op: op.op, ty: op.elem_type(if w16 { 16 } else { 32 }), ftz: false };
        // one legal exec size (8): nothing to draw
        let exec = if let [only] = k.exec_sizes { *only } else { self.exec(k.exec_sizes) };
        let n = exec as usize;
        let lod: Option<Vec<u32>> =
            if self.rng.gen_bool(0.4) { None } else { Some((0..n).map(|_| self.coord(t.levels, 0.1)).collect()) };
        let level = |i: usize| lod.as_ref().map_or(0, |l| l[i]);
        let halve = |x: u32, l: u32| (x.checked_shr(l).unwrap_or(0)).max(1);
        let mut u = vec![];
        let mut v = vec![];
        let mut r = vec![];
        for i in 0..n {
            let l = level(i).min(t.levels.saturating_sub(1));
            u.push(self.coord(halve(t.width, l), 0.1));
            let (rows, slices) = match t.kind {
                TypedKind::D1 => (1, 1),
                TypedKind::D1Array => (t.array, 1),
                TypedKind::D2 => (halve(t.height, l), 1),
                TypedKind::D2Array => (halve(t.height, l), t.array),
                TypedKind::D3 => (halve(t.height, l), halve(t.depth, l)),
            };
            v.push(self.coord(rows, 0.1));
            r.push(self.coord(slices, 0.1));
        }
        // now and then every lane on one texel: the longest same-address run
        let mut lod = lod;
        if self.rng.gen_bool(0.05) {
            u = vec![u[0]; n];
            v = vec![v[0]; n];
            r = vec![r[0]; n];
            lod = lod.map(|l| vec![l[0]; n]);
        }
        let (v, r) = match t.kind {
            TypedKind::D1 => (None, None),
            TypedKind::D1Array | TypedKind::D2 => (Some(v), None),
            TypedKind::D2Array | TypedKind::D3 => (Some(v), Some(r)),
        };
        let (src0, src1) = self.sources(op, ctl, n);
        (exec, self.mask_ctrl(), self.dst(), Body::TypedAtomic { op, w16, surface, u, v, r, lod, src0, src1 })
    }

    /// A coordinate below `dim`, or (with probability `oob`) at or past it:
    /// just past it, or (one in four) far past it, aliased to a coordinate
    /// below it ([`Self::alias_past`]), so the bound compares see every
    /// bit. Below a large dimension, half of them are near 0, so lanes
    /// still meet on one texel.
    fn coord(&mut self, dim: u32, oob: f64) -> u32 {
        if self.rng.gen_bool(oob) {
            // (a dimension with bit 31 set leaves no bit to alias with)
            if self.rng.gen_bool(0.25) && dim < 1 << 31 {
                let c = self.rng.gen_range(0..dim.max(1));
                self.alias_past(c.into(), dim.into(), 32) as u32
            } else {
                dim.saturating_add(self.rng.gen_range(0..3))
            }
        } else if dim > LARGE_DIM.start() / 2 && self.rng.gen_bool(0.5) {
            self.rng.gen_range(0..4)
        } else {
            self.rng.gen_range(0..dim.max(1))
        }
    }

    /// A typed surface's dimension: 1..=`small`, or now and then one of
    /// [`LARGE_DIM`], so that lanes reach every digit product of the typed
    /// address's multipliers (`r x rows` past 2^16 and 2^32, the element
    /// index past 2^32; coverage group `typed_address`); half of those a
    /// power of two (a texture's usual size: its low bits all zero).
    fn dim(&mut self, small: u32) -> u32 {
        if self.rng.gen_bool(0.25) {
            if self.rng.gen_bool(0.5) {
                1 << self.rng.gen_range(LARGE_DIM.start().ilog2()..=LARGE_DIM.end().ilog2())
            } else {
                self.rng.gen_range(LARGE_DIM)
            }
        } else {
            self.rng.gen_range(1..=small)
        }
    }

    /// Now and then one dimension of `t` from the whole 32-bit field (a
    /// power of two or any value past 2^19, so the registers' upper bits and
    /// the walk's products see them), when the surface still fits the 64-bit
    /// address space with room for its levels; else `t` as it is.
    fn huge_dim(&mut self, t: TypedSurface) -> TypedSurface {
        if !self.surface_rng.gen_bool(0.15) {
            return t;
        }
        let value = if self.surface_rng.gen_bool(0.5) {
            1u32 << self.surface_rng.gen_range(19..=31)
        } else {
            self.surface_rng.gen_range(1u32 << 19..=u32::MAX)
        };
        let mut huge = t;
        match (t.kind, self.surface_rng.gen_range(0..3)) {
            (TypedKind::D3, 1) => huge.height = value,
            (TypedKind::D3, 2) => huge.depth = value,
            (TypedKind::D2 | TypedKind::D2Array, 1) => huge.height = value,
            (TypedKind::D1Array | TypedKind::D2Array, 2) => huge.array = value,
            _ => huge.width = value,
        }
        // the parser's rule (`TypedSurface::bytes`), with a byte to spare
        if t.base as u128 + huge.bytes() < 1u128 << 64 {
            huge
        } else {
            t
        }
    }

    fn svm_scatter(&mut self) -> (u8, MaskCtrl, Option<String>, Body) {
        let block_size = *SCATTER_BLOCK_BYTES.choose(&mut self.rng).unwrap();
        let mut n = self.exec(MsgKind::SvmScatter.info().exec_sizes);
        // the most blocks: only at the one layout the seed allows them (4-byte blocks, exec size 8)
        let (most, fewer) = SCATTER_NUM_BLOCKS.split_last().unwrap();
        let num_blocks = if block_size == 4 && self.rng.gen_bool(0.2) {
            n = 8;
            *most
        } else {
            *fewer.choose(&mut self.rng).unwrap()
        };
        debug_assert!(scatter_layout_legal(block_size, num_blocks, n));
        let span = block_size as u64 * num_blocks as u64;
        let addrs = if self.rng.gen_bool(0.85) {
            self.addresses(n as usize, LOW_BASE, LOW_SIZE, block_size as u64)
        } else {
            self.addresses(n as usize, HIGH_BASE, 0x40 + span, block_size as u64)
        };
        let len = atomport_core::descriptor::scatter_src_len(block_size, num_blocks, n);
        let src = (0..len).map(|_| self.rng.gen::<u64>() & mask_of(8 * block_size as u32) as u64).collect();
        (n, self.mask_ctrl(), None, Body::SvmScatter { block_size, num_blocks, addrs, src })
    }

    fn ptx_atom(&mut self) -> Option<(u8, MaskCtrl, Option<String>, Body)> {
        let row = &PTX_OPS[self.rng.gen_range(0..PTX_OPS.len())];
        let row = PtxOpInfo::by_code(row.op as u8).expect("row");
        let vector = !row.vector_types.is_empty() && self.rng.gen_bool(0.3);
        let ty = if vector { *row.vector_types.choose(&mut self.rng)? } else { *row.scalar_types.choose(&mut self.rng)? };
        let vec = if vector { *ty.vector_sizes().choose(&mut self.rng).unwrap() } else { 1 };
        let spaces: Vec<PtxSpace> = PtxSpace::ALL.into_iter().filter(|s| !vector || s.is_global_or_generic()).collect();
        let space = *spaces.choose(&mut self.rng).unwrap();
        let single = self.rng.gen_bool(0.35);
        let (n, mc) =
            if single { (1, MaskCtrl::M1_NM) } else { (self.exec(MsgKind::PtxAtom.info().exec_sizes), self.mask_ctrl()) };
        let ctl = AluCtl { op: row.alu_op(ty), ty: ty.elem_type(), ftz: ty == PtxType::F32 && !space.is_shared() };
        let access = ty.elem_type().bytes() as u64 * vec as u64;
        let addrs = if space.is_shared() {
            self.slm_offsets(n as usize, access, 64)
        } else if self.rng.gen_bool(0.85) {
            self.addresses(n as usize, LOW_BASE, LOW_SIZE, access)
        } else {
            self.addresses(n as usize, HIGH_BASE, 0x40, access)
        };
        let b = (0..n).map(|_| self.value(ctl, vec)).collect();
        let c = row.has_c.then(|| (0..n).map(|_| self.value(ctl, vec)).collect());
        let hint_ok = space.is_global_or_generic() && row.takes_cache_hint(ty);
        let cache_hint = (hint_ok && self.rng.gen_bool(0.15)).then(|| self.rng.gen::<u64>());
        // not written, or one of each
        let sems: Vec<Option<PtxSem>> = std::iter::once(None).chain(PtxSem::ALL.map(Some)).collect();
        let sem = *sems.choose(&mut self.rng).unwrap();
        let scopes: Vec<Option<PtxScope>> = std::iter::once(None).chain(PtxScope::ALL.map(Some)).collect();
        let scope = *scopes.choose(&mut self.rng).unwrap();
        let noftz = ty.needs_noftz();
        Some((n, mc, self.dst(), Body::PtxAtom { sem, scope, space, op: row.op, noftz, cache_hint, vec, ty, addrs, b, c }))
    }

    /// One message statement (and the dmask / pred lines before it).
    fn message(&mut self) -> Result<(), GenerateError> {
        loop {
            let pick = self.rng.gen_range(0..100);
            let parts = match pick {
                0..=19 => Some(self.svm_atomic()),
                20..=44 => Some(self.dword_atomic()),
                45..=57 => Some(self.typed_atomic()),
                58..=71 => Some(self.svm_scatter()),
                _ => self.ptx_atom(),
            };
            let Some((exec_size, mask_ctrl, dst, body)) = parts else { continue };
            let mut msg = Message { line: 0, exec_size, mask_ctrl, pred: None, dmask: self.dmask, dst, body };
            if !self.cfg.allows(&msg) {
                self.refused += 1;
                if self.refused > MAX_REFUSED {
                    return Err(GenerateError::NothingMatches {
                        kinds: self.cfg.filter.kinds.clone(),
                        ops: self.cfg.filter.ops.clone(),
                    });
                }
                continue;
            }
            self.refused = 0;
            msg.pred = self.pre_message();
            msg.dmask = self.dmask;
            let text = atomport_core::text::message_text(&msg);
            self.line(text);
            return Ok(());
        }
    }

    /// Where the buffers and typed surfaces lie: their usual home, or (a
    /// third of the scripts) anywhere below 2^56, so every bit a base can
    /// carry reaches the address adders.
    fn surface_home(&mut self) -> u64 {
        if self.surface_rng.gen_bool(1.0 / 3.0) {
            // below 2^56: a typed surface's largest offset (2^58) added stays in 64 bits
            (self.surface_rng.gen::<u64>() >> self.surface_rng.gen_range(8..48)) & !0xffff
        } else {
            0
        }
    }

    /// A buffer's size: `usual`, or now and then any size up to 2^64 - 1 (a
    /// bound the offsets never reach: every bit of the size in the compare).
    fn buffer_size(&mut self, usual: u64) -> u64 {
        if self.surface_rng.gen_bool(0.2) {
            let bits = self.surface_rng.gen_range(9..=64);
            self.surface_rng.gen::<u64>() >> (64 - bits) | 1 << (bits - 1)
        } else {
            usual
        }
    }

    /// The script's declared SLM size: `usual`, or (one script in five) any size
    /// from 128 bytes (the `slm.u32` statement below fills them) up to the
    /// script rules' largest, `MAX_SLM_SIZE` itself one time in eight, so
    /// every bit of the SLM size port and its bound compare moves.
    fn slm_size_draw(&mut self, usual: u32) -> u32 {
        use atomport_core::script::MAX_SLM_SIZE;
        if !self.slm_rng.gen_bool(0.2) {
            usual
        } else if self.slm_rng.gen_bool(1.0 / 8.0) {
            MAX_SLM_SIZE
        } else {
            let bits = self.slm_rng.gen_range(8..=24);
            self.slm_rng.gen::<u32>() & ((1 << bits) - 1) | 1 << (bits - 1)
        }
    }

    /// A surface's base: `base`, or (one surface in three) moved by any
    /// multiple of `align` (the script rule's base alignment) below 2^14, or
    /// (one buffer of `size` bytes in twelve) placed just below the top of the
    /// 64-bit space, so every base bit the rules leave free moves. Messages
    /// address a surface relative to its base: they stay the same.
    fn base_draw(&mut self, base: u64, buffer_size: Option<u64>, align: u64) -> u64 {
        if !self.base_rng.gen_bool(1.0 / 3.0) {
            return base;
        }
        if let Some(size) = buffer_size.filter(|_| self.base_rng.gen_bool(0.25)) {
            // base + size <= 2^64 - 1 (script rule: the buffer inside the 64-bit space)
            let top = (u64::MAX - size) / align * align;
            return top - self.base_rng.gen_range(0..=(top / align).min(0xffff)) * align;
        }
        base + self.base_rng.gen_range(0..(1u64 << 14) / align) * align
    }

    fn header(&mut self) {
        self.slm_size = *[65536u32, 4096, 1024, 512].choose(&mut self.rng).unwrap();
        // the offsets keep following the usual size (the messages of a seed
        // stay the same); against a drawn size they fall in or out of bounds
        let s = self.slm_size_draw(self.slm_size);
        self.line(format!("slm size {s}"));
        let home = self.surface_home();
        for (k, &n) in BUFFERS.iter().enumerate() {
            let size = *[16u64, 64, 100, 256].choose(&mut self.rng).unwrap();
            let size = self.buffer_size(size);
            let base = self.base_draw(home + BUFFER_BASE + 0x400 * k as u64, Some(size), 4);
            self.buffers.push((n, base, size));
            self.line(format!("surface {n} buffer base={base:#x} size={size}"));
        }
        let kinds = [TypedKind::D1, TypedKind::D1Array, TypedKind::D2, TypedKind::D2Array, TypedKind::D3];
        let mut base = home + TYPED_BASE;
        let mut number = 10u8;
        for kind in kinds {
            for format in [TypedFormat::U32, TypedFormat::U16] {
                let surface_base = self.base_draw(base, None, if format == TypedFormat::U16 { 2 } else { 4 });
                let t = TypedSurface {
                    kind,
                    base: surface_base,
                    width: self.dim(6),
                    height: if matches!(kind, TypedKind::D2 | TypedKind::D2Array | TypedKind::D3) { self.dim(4) } else { 1 },
                    depth: if kind == TypedKind::D3 { self.dim(3) } else { 1 },
                    array: if matches!(kind, TypedKind::D1Array | TypedKind::D2Array) { self.dim(3) } else { 1 },
                    levels: self.rng.gen_range(1..=3),
                    format,
                };
                // now and then up to the script language's most levels
                let t = TypedSurface {
                    levels: if self.surface_rng.gen_bool(0.1) { self.surface_rng.gen_range(4..=MAX_LEVELS) } else { t.levels },
                    ..t
                };
                let t = self.huge_dim(t);
                let name = ["1d", "1d_array", "2d", "2d_array", "3d"][kind as usize];
                let mut line = format!("surface {number} {name} base={:#x} width={}", t.base, t.width);
                if matches!(kind, TypedKind::D2 | TypedKind::D2Array | TypedKind::D3) {
                    line += &format!(" height={}", t.height);
                }
                if kind == TypedKind::D3 {
                    line += &format!(" depth={}", t.depth);
                }
                if matches!(kind, TypedKind::D1Array | TypedKind::D2Array) {
                    line += &format!(" array={}", t.array);
                }
                line += &format!(" levels={} format={}", t.levels, if format == TypedFormat::U16 { "u16" } else { "u32" });
                self.line(line);
                self.typed.push((number, t));
                number += 1;
                base += 0x400;
            }
        }
        // initial memory: small values so cmpxchg and min/max see equal and near values
        self.memory_statement(LOW_BASE, LOW_SIZE / 4);
        self.memory_statement(HIGH_BASE, 8);
        self.memory_statement(home + BUFFER_BASE, 32);
        self.memory_statement(home + TYPED_BASE, 64);
        let words: Vec<String> = (0..32).map(|_| format!("{:#x}", self.int_value(32))).collect();
        self.line(format!("slm.u32 0 = {}", words.join(" ")));
        for k in 0..4 {
            self.preds[k] = self.rng.gen();
            let v = self.preds[k];
            self.line(format!("pred p{k} = {v:#x}"));
        }
    }

    fn memory_statement(&mut self, base: u64, words: u64) {
        let values: Vec<String> = (0..words).map(|_| format!("{:#x}", self.int_value(32))).collect();
        self.line(format!("mem.u32 {base:#x} = {}", values.join(" ")));
    }
}

fn ty_is_16(ty: ElemType) -> bool {
    ty.bits() == 16
}

/// Why the generator could not produce a script: a `--kinds`/`--ops`
/// filter nothing passes, or a generator bug (the text does not parse back
/// to what was generated).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error("no message matches kinds {kinds:?} ops {ops:?} among the {} the generator drew", MAX_REFUSED)]
    NothingMatches { kinds: Vec<String>, ops: Vec<String> },
    #[error("generated script does not parse: {0}")]
    DoesNotParse(String),
    #[error("generated {generated} messages, the parser read {parsed}")]
    Count { generated: usize, parsed: usize },
    #[error("line {line}: generated `{generated}`, parsed back as `{parsed}`")]
    RoundTrip { line: usize, generated: String, parsed: String },
}

/// Generates one script of `cfg.messages` messages from `seed`, parses it,
/// and checks that the parser read back exactly the messages generated.
/// Errors name the generator's mistake (a bug here, not in the RTL).
pub fn random_script(seed: u64, cfg: &GenConfig) -> Result<Generated, GenerateError> {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        surface_rng: ChaCha8Rng::seed_from_u64(seed ^ SURFACE_STREAM),
        slm_rng: ChaCha8Rng::seed_from_u64(seed ^ SLM_STREAM),
        base_rng: ChaCha8Rng::seed_from_u64(seed ^ BASE_STREAM),
        cfg,
        lines: vec![format!("# atomport regress: random script, seed {seed}")],
        slm_size: 65536,
        buffers: vec![],
        typed: vec![],
        dmask: u32::MAX,
        preds: [0; 4],
        dsts: 0,
        refused: 0,
    };
    g.header();
    for i in 0..cfg.messages {
        // now and then a memory statement between messages (a barrier)
        if i > 0 && g.rng.gen_bool(0.03) {
            let base = LOW_BASE + 4 * g.rng.gen_range(0..LOW_SIZE / 4 - 4);
            g.memory_statement(base, 4);
        }
        g.message()?;
    }
    g.line(format!("dump {LOW_BASE:#x} {LOW_SIZE}"));
    g.line(format!("dump slm 0 {}", 0x80));
    let mut text = g.lines.join("\n");
    text.push('\n');
    let program = atomport_core::script::parse(&format!("regress-{seed}.atom"), &text).map_err(|d| GenerateError::DoesNotParse(d.to_string()))?;
    let parsed = program.messages().count();
    if parsed != cfg.messages {
        return Err(GenerateError::Count { generated: cfg.messages, parsed });
    }
    // the text must carry every message exactly: print each parsed message
    // again and compare with its line
    for msg in program.messages() {
        let line = text.lines().nth(msg.line - 1).unwrap_or("");
        let again = atomport_core::text::message_text(msg);
        if again != line {
            return Err(GenerateError::RoundTrip { line: msg.line, generated: line.to_string(), parsed: again });
        }
    }
    Ok(Generated { text, program })
}

/// Every message kind's surfaces in `program` (for reports): count by kind.
pub fn kind_counts(program: &Program) -> [(atomport_core::message::MsgKind, usize); 5] {
    use atomport_core::message::MsgKind::*;
    let mut c = [(SvmAtomic, 0), (DwordAtomic, 0), (TypedAtomic, 0), (SvmScatter, 0), (PtxAtom, 0)];
    for m in program.messages() {
        let k = m.kind();
        for e in c.iter_mut() {
            if e.0 == k {
                e.1 += 1;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Typed surfaces' dimensions reach the 32-bit field's top bits (the
    /// unit's dimension registers and the typed walk's products see them),
    /// and scripts with them parse (the surface fits the address space).
    #[test]
    fn typed_dimensions_reach_the_top_of_their_field() {
        let mut any = 0u32;
        let mut huge = 0;
        for seed in 0..40 {
            let g = random_script(seed, &GenConfig::every_family(20)).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            for s in g.program.surfaces.values() {
                if let atomport_core::program::Surface::Typed(t) = s {
                    for d in [t.width, t.height, t.depth, t.array] {
                        any |= d;
                        huge += (d >= 1 << 19) as usize;
                    }
                }
            }
        }
        assert!(any >> 28 == 0xf, "dimension bits seen: {any:#x}");
        assert!(huge >= 20, "{huge} dimensions past 2^19");
    }

    #[test]
    fn scripts_parse_back_to_the_generated_messages_and_cover_every_kind() {
        let cfg = GenConfig::every_family(400);
        for seed in 0..4 {
            let g = random_script(seed, &cfg).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(kind_counts(&g.program).iter().all(|&(_, n)| n > 20), "{:?}", kind_counts(&g.program));
            // the golden model runs it
            let out = atomport_core::golden::run(&g.program);
            assert!(!out.txns.is_empty());
        }
    }

    #[test]
    fn a_share_of_slm_sizes_spans_the_script_rules_range() {
        use atomport_core::script::MAX_SLM_SIZE;
        let cfg = GenConfig::integer_only(1);
        let sizes: Vec<u32> = (0..200).map(|seed| random_script(seed, &cfg).unwrap().program.slm_size).collect();
        let usual = [512, 1024, 4096, 65536];
        let wide = sizes.iter().filter(|s| !usual.contains(s)).count();
        assert!((20..=70).contains(&wide), "{wide} of 200 scripts drew a wide SLM size");
        assert!(sizes.iter().all(|&s| (128..=MAX_SLM_SIZE).contains(&s)), "{sizes:?}");
        assert!(sizes.contains(&MAX_SLM_SIZE) && sizes.iter().any(|s| s % 2 == 1), "{sizes:?}");
        assert!(sizes.iter().any(|&s| s > 1 << 23) && sizes.iter().any(|&s| s < 512), "{sizes:?}");
    }

    #[test]
    fn a_share_of_surface_bases_moves_every_free_bit() {
        use atomport_core::program::Surface;
        let cfg = GenConfig::integer_only(1);
        let mut bases = vec![];
        for seed in 0..100 {
            for surface in random_script(seed, &cfg).unwrap().program.surfaces.values() {
                bases.push(match surface {
                    Surface::Buffer { base, .. } => *base,
                    Surface::Typed(t) => t.base,
                });
            }
        }
        let ored = bases.iter().fold(0u64, |a, b| a | b);
        assert_eq!(ored & 1, 0, "bases are aligned");
        assert_eq!(ored | 1, u64::MAX, "every base bit but 0 set somewhere: {ored:#x}");
    }

    #[test]
    fn integer_only_scripts_have_no_float_ops_and_seeds_reproduce() {
        let cfg = GenConfig::integer_only(300);
        let a = random_script(9, &cfg).unwrap();
        assert!(a.program.messages().all(|m| m.alu().is_none_or(|c| !c.needs_fp())));
        assert_eq!(a.text, random_script(9, &cfg).unwrap().text);
        assert_ne!(a.text, random_script(10, &cfg).unwrap().text);
    }

    #[test]
    fn scripts_reach_out_of_bounds_lanes_same_addresses_and_disabled_lanes() {
        let g = random_script(3, &GenConfig::integer_only(600)).unwrap();
        let golden = atomport_core::golden::run(&g.program);
        // some enabled atomic lanes make no transaction (out of bounds)
        let mut oob = 0;
        let mut same = 0;
        let mut disabled = 0;
        for (i, m) in g.program.messages().enumerate() {
            let lanes = golden.txns.iter().filter(|t| t.msg == i).map(|t| t.lane).collect::<BTreeSet<_>>();
            let en = m.lane_enables();
            disabled += (m.exec_size as u32 - en.count_ones()) as usize;
            if m.alu().is_some() {
                oob += (0..32).filter(|&l| en >> l & 1 != 0 && !lanes.contains(&(l as u8))).count();
            }
            let addrs: Vec<u64> = golden.txns.iter().filter(|t| t.msg == i && t.kind == atomport_core::outcome::TxnKind::Write).map(|t| t.addr).collect();
            same += addrs.len() - addrs.iter().collect::<BTreeSet<_>>().len();
        }
        assert!(oob > 50 && same > 100 && disabled > 100, "oob {oob} same {same} disabled {disabled}");
    }
}
