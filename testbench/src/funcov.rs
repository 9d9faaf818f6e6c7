//! Functional coverage of a regression: named bins in groups, sampled from
//! what the RTL did (the monitor's transactions and results, the messages
//! the unit flagged illegal, the memory port's handshakes as the pins showed
//! them), never from what the generator meant to send. A form counts when
//! the RTL performed a transaction for it; an exec size when the RTL touched
//! a lane in its upper half; an out-of-bounds lane when an enabled lane made
//! no write; a same-address run from the addresses the RTL wrote; an FP
//! special from the old value the RTL read and the source of a lane the RTL
//! executed.
//!
//! The bin space ([`CoverSpace::new`]) is derived from the op tables (`isa`)
//! and the run's build ([`UnitConfig`]) and memory options: a bin the build
//! cannot reach (a 64-bit form on a 32-bit build, backpressure with
//! `--stall 0`) is listed as unreachable with the reason, not as a hole.
//!
//! Groups: `form` (kind x op x width/type; DWORD x surface; PTX x space and
//! vector), `exec_size` (kind x exec size), `mask` (kind x M1..M8 x _NM),
//! `lanes` (kind x all/some/no lanes enabled), `predicate` (kind x none /
//! p / !p), `same_address` (kind x none / 2-3 / 4+ / all lanes on one
//! address), `out_of_bounds` (surface x some / all enabled lanes out of
//! bounds; SLM, buffer and PTX shared lanes with an offset, typed lanes
//! with a coordinate or lod, far past any bound), `typed_address` (the
//! typed address's digit products a written lane used: `r x rows` low /
//! middle / high, element index past 32 bits),
//! `scatter` (block size x blocks), `ptx_vector` (vector and packed
//! forms x single-thread / warp), `fp_special` (format x zero / subnormal /
//! inf / NaN x old / source operand), `fp_op_special` (float op x special
//! operand), `memory` (read latency, read / write / both backpressured,
//! reads in flight), `rejected` (the build's limits: lanes, width, float),
//! `illegal_descriptor` (misaligned / illegal descriptors).

use std::collections::{BTreeMap, BTreeSet};

use atomport_core::message::{Body, DwordSurface, Message, MsgKind};
use atomport_core::ops::{AluCtl, ElemType, PtxType, VisaWidth, PTX_OPS, VISA_OPS};
use atomport_core::outcome::TxnKind;
use atomport_core::program::Program;
use atomport_isa::{ConfigLimit, UnitConfig};

use super::memory::{MemConfig, PortActivity};
use super::session::Simulation;

/// Exec sizes each kind takes (seed Exec_size rows; the generator draws from the same).
pub fn exec_sizes(kind: MsgKind) -> &'static [u8] {
    match kind {
        MsgKind::SvmAtomic => &[1, 2, 4, 8],
        MsgKind::DwordAtomic | MsgKind::PtxAtom => &[1, 2, 4, 8, 16, 32],
        MsgKind::TypedAtomic => &[8],
        MsgKind::SvmScatter => &[1, 2, 4, 8, 16],
    }
}

const KINDS: [MsgKind; 5] = [MsgKind::SvmAtomic, MsgKind::DwordAtomic, MsgKind::TypedAtomic, MsgKind::SvmScatter, MsgKind::PtxAtom];
const ATOMIC_KINDS: [MsgKind; 4] = [MsgKind::SvmAtomic, MsgKind::DwordAtomic, MsgKind::TypedAtomic, MsgKind::PtxAtom];
const SCATTER_LAYOUTS: [(u8, u8); 10] = [(1, 1), (1, 2), (1, 4), (4, 1), (4, 2), (4, 4), (4, 8), (8, 1), (8, 2), (8, 4)];
const SPECIALS: [&str; 4] = ["zero", "subnormal", "inf", "nan"];
const FP_FORMATS: [ElemType; 6] = [ElemType::F16, ElemType::BF16, ElemType::F32, ElemType::F64, ElemType::F16x2, ElemType::BF16x2];
/// Latencies get a bin each up to this; longer ones share `latency >N`.
const LATENCY_BINS: u32 = 16;

fn ty_name(ty: ElemType) -> String {
    format!("{ty:?}").to_lowercase()
}

/// One bin: its name and, when the build cannot reach it, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bin {
    pub name: String,
    pub unreachable: Option<String>,
}

/// Every bin of every group for one build and memory configuration.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CoverSpace {
    pub groups: Vec<(String, Vec<Bin>)>,
}

/// The op form of a message as a bin name (`SVM_ATOMIC.add.64`,
/// `DWORD_ATOMIC.fmax.16 T0`, `TYPED_ATOMIC.inc.32`, `SVM_SCATTER.4x8`,
/// `atom.shared.cas.b128`, `atom.add.v4.f16`), with its ALU controls and
/// access bytes.
pub fn form_of(m: &Message) -> String {
    match &m.body {
        Body::SvmAtomic { op, width, .. } => format!("SVM_ATOMIC.{}.{}", op.name, width.bits()),
        Body::DwordAtomic { op, w16, surface, .. } => format!(
            "DWORD_ATOMIC.{}.{} {}",
            op.name,
            if *w16 { 16 } else { 32 },
            match surface {
                DwordSurface::Slm => "T0",
                DwordSurface::Stateless => "T255",
                DwordSurface::Buffer(_) => "buffer",
            }
        ),
        Body::TypedAtomic { op, w16, .. } => format!("TYPED_ATOMIC.{}.{}", op.name, if *w16 { 16 } else { 32 }),
        Body::SvmScatter { block_size, num_blocks, .. } => format!("SVM_SCATTER.{block_size}x{num_blocks}"),
        Body::PtxAtom { space, op, vec, ty, .. } => ptx_form(space.is_shared(), atomport_core::text::ptx_op_name(*op), *vec, *ty),
    }
}

fn ptx_form(shared: bool, op: &str, vec: u8, ty: PtxType) -> String {
    format!("atom{}.{op}{}.{}", if shared { ".shared" } else { "" }, if vec > 1 { format!(".v{vec}") } else { String::new() }, ty.name())
}

/// The PTX vector / packed form of a message (`v4.f16`, `f16x2`), if any.
fn ptx_vector_form(m: &Message) -> Option<String> {
    match &m.body {
        Body::PtxAtom { vec, ty, .. } if *vec > 1 => Some(format!("v{vec}.{}", ty.name())),
        Body::PtxAtom { ty: ty @ (PtxType::F16x2 | PtxType::BF16x2), .. } => Some(ty.name().to_string()),
        _ => None,
    }
}

/// Every form with (exec size 1, element bytes, needs FP) for the build check.
fn all_forms() -> Vec<(String, u32, bool)> {
    let mut v = vec![];
    let ctl_of = |op: &atomport_core::ops::VisaOpInfo, bits: u32| AluCtl { op: op.op, ty: op.elem_type(bits), ftz: false };
    for op in VISA_OPS.iter() {
        let float = op.class == atomport_core::ops::Class::Float;
        for w in [VisaWidth::W16, VisaWidth::W32, VisaWidth::W64] {
            // float ops take HF or F only (seed DWORD_ATOMIC_OP table, Data Type)
            if float && w == VisaWidth::W64 {
                continue;
            }
            let c = ctl_of(op, w.bits());
            v.push((format!("SVM_ATOMIC.{}.{}", op.name, w.bits()), c.ty.bytes(), c.needs_fp()));
        }
        for bits in [16, 32] {
            let c = ctl_of(op, bits);
            for s in ["T0", "T255", "buffer"] {
                v.push((format!("DWORD_ATOMIC.{}.{bits} {s}", op.name), c.ty.bytes(), c.needs_fp()));
            }
            // TYPED_ATOMIC takes the rows the table marks TYPED (no float ops)
            if op.typed {
                v.push((format!("TYPED_ATOMIC.{}.{bits}", op.name), c.ty.bytes(), c.needs_fp()));
            }
        }
    }
    for (bs, nb) in SCATTER_LAYOUTS {
        v.push((format!("SVM_SCATTER.{bs}x{nb}"), bs as u32, false));
    }
    for row in PTX_OPS.iter() {
        for &ty in row.scalar_types {
            let c = AluCtl { op: row.alu_op(ty), ty: ty.elem_type(), ftz: false };
            for shared in [false, true] {
                v.push((ptx_form(shared, row.name, 1, ty), c.ty.bytes(), c.needs_fp()));
            }
        }
        for &ty in row.vector_types {
            let c = AluCtl { op: row.alu_op(ty), ty: ty.elem_type(), ftz: false };
            let counts: &[u8] = if matches!(ty, PtxType::F16 | PtxType::BF16) { &[2, 4, 8] } else { &[2, 4] };
            for &n in counts {
                // vector forms are global only (PTX ISA: .v2/.v4/.v8 on .global)
                v.push((ptx_form(false, row.name, n, ty), c.ty.bytes() * n as u32, c.needs_fp()));
            }
        }
    }
    v
}

fn limit_reason(build: &str, e: ConfigLimit) -> String {
    format!("the {build} build does not admit it: {e}")
}

impl CoverSpace {
    /// The bins of a run on a unit built with `config` (the build named
    /// `build` in the reasons: `serial_l8_w32_int`) and memory `mem`.
    pub fn new(config: &UnitConfig, build: &str, mem: &MemConfig) -> CoverSpace {
        let mut groups: Vec<(String, Vec<Bin>)> = vec![];
        let bin = |name: String, unreachable: Option<String>| Bin { name, unreachable };
        let admits = |lanes: u32, bytes: u32, fp: bool| config.admits(lanes, bytes, fp).err().map(|e| limit_reason(build, e));

        // a vector form moves vec x element bytes in one access: the data
        // path must hold the whole access
        groups.push(("form".into(), all_forms().into_iter().map(|(n, bytes, fp)| bin(n, admits(1, bytes, fp))).collect()));

        let mut v = vec![];
        for k in KINDS {
            for &n in exec_sizes(k) {
                v.push(bin(format!("{} x{n}", k.name()), admits(n as u32, 1, false)));
            }
        }
        groups.push(("exec_size".into(), v));

        let mut v = vec![];
        for k in KINDS {
            for g in 1..=8 {
                for nm in ["", "_NM"] {
                    v.push(bin(format!("{} M{g}{nm}", k.name()), None));
                }
            }
        }
        groups.push(("mask".into(), v));

        let mut v = vec![];
        for k in KINDS {
            for what in ["all lanes on", "some lanes off", "no lane on"] {
                // a one-lane message is either on or off
                let single = exec_sizes(k) == [1];
                v.push(bin(format!("{} {what}", k.name()), (single && what == "some lanes off").then(|| "one lane".to_string())));
            }
        }
        groups.push(("lanes".into(), v));

        let mut v = vec![];
        for k in KINDS {
            for p in ["no predicate", "p", "!p"] {
                v.push(bin(format!("{} {p}", k.name()), None));
            }
        }
        groups.push(("predicate".into(), v));

        let mut v = vec![];
        for k in ATOMIC_KINDS {
            let max = exec_sizes(k).iter().copied().max().unwrap_or(1).min(config.max_lanes as u8);
            for what in ["none", "2-3 lanes", "4+ lanes", "all lanes"] {
                let why = match what {
                    "4+ lanes" if max < 5 => Some(format!("at most {max} lanes: 4 on one address is `all lanes` or none")),
                    _ => None,
                };
                v.push(bin(format!("{} {what}", k.name()), why));
            }
        }
        groups.push(("same_address".into(), v));

        // crosses where they matter: forwarding between lanes on one address
        // for every atomic form, and the longest runs at every exec size
        groups.push((
            "form x same_address".into(),
            all_forms()
                .into_iter()
                .filter(|(n, _, _)| !n.starts_with("SVM_SCATTER"))
                .map(|(n, bytes, fp)| {
                    let why = admits(1, bytes, fp);
                    bin(format!("{n} run of 2+"), why)
                })
                .collect(),
        ));
        let mut v = vec![];
        for k in ATOMIC_KINDS {
            for &n in exec_sizes(k).iter().filter(|&&n| n > 1) {
                v.push(bin(format!("{} x{n} all lanes on one address", k.name()), admits(n as u32, 1, false)));
            }
        }
        groups.push(("exec_size x same_address".into(), v));

        let mut v = vec![];
        for s in ["DWORD_ATOMIC T0", "DWORD_ATOMIC buffer", "TYPED_ATOMIC", "atom.shared"] {
            for what in ["some lanes", "all lanes"] {
                v.push(bin(format!("{s} {what}"), None));
            }
        }
        for (s, bits) in FAR_OFFSET_BINS {
            v.push(bin(format!("{s} lane with an offset past {bits} bits"), None));
        }
        v.push(bin(TYPED_FAR_BIN.into(), None));
        groups.push(("out_of_bounds".into(), v));

        // which digit products of the typed address's multipliers a written
        // lane used (hdl lane_coord_reg.rs, addr_mul.rs: 16 x 16 digits)
        groups.push((
            "typed_address".into(),
            TYPED_ADDRESS_BINS.iter().map(|b| bin(b.to_string(), admits(8, 2, false))).collect(),
        ));

        groups.push((
            "scatter".into(),
            SCATTER_LAYOUTS.iter().map(|&(bs, nb)| bin(format!("{bs}x{nb}"), admits(1, bs as u32, false))).collect(),
        ));

        let mut v = vec![];
        for row in PTX_OPS.iter() {
            let mut forms: Vec<(String, u32)> = vec![];
            for &ty in row.vector_types {
                let counts: &[u8] = if matches!(ty, PtxType::F16 | PtxType::BF16) { &[2, 4, 8] } else { &[2, 4] };
                for &n in counts {
                    forms.push((format!("{}.v{n}.{}", row.name, ty.name()), ty.elem_type().bytes() * n as u32));
                }
            }
            for &ty in row.scalar_types {
                if matches!(ty, PtxType::F16x2 | PtxType::BF16x2) {
                    forms.push((format!("{}.{}", row.name, ty.name()), 4));
                }
            }
            for (f, bytes) in forms {
                for t in ["single-thread", "warp"] {
                    v.push(bin(format!("{f} {t}"), admits(1, bytes, true)));
                }
            }
        }
        groups.push(("ptx_vector".into(), v));

        let mut v = vec![];
        for ty in FP_FORMATS {
            for s in SPECIALS {
                for operand in ["old", "src"] {
                    v.push(bin(format!("{} {s} {operand}", ty_name(ty)), admits(1, ty.bytes(), true)));
                }
            }
        }
        groups.push(("fp_special".into(), v));

        let mut v = vec![];
        for op in fp_ops() {
            for s in SPECIALS {
                v.push(bin(format!("{op} {s}"), admits(1, 2, true)));
            }
        }
        groups.push(("fp_op_special".into(), v));

        let mut v = vec![];
        let top = mem.latency_max.min(LATENCY_BINS);
        for n in mem.latency_min..=top {
            v.push(bin(format!("latency {n}"), None));
        }
        if mem.latency_max > LATENCY_BINS {
            v.push(bin(format!("latency >{LATENCY_BINS}"), None));
        }
        v.push(bin(
            "return queued behind an earlier one".into(),
            (mem.latency_min == mem.latency_max).then(|| "constant latency: returns never queue".to_string()),
        ));
        let stall_reason = (mem.stall <= 0.0).then(|| "--stall 0: the memory never stalls".to_string());
        for what in ["read backpressured", "write backpressured", "read and write backpressured"] {
            v.push(bin(what.into(), stall_reason.clone()));
        }
        // counted at the end of a cycle: one read is accepted and one
        // returned per cycle, so at most latency_max reads are in flight
        v.push(bin("reads in flight 1".into(), None));
        let short = |n: u32| (mem.latency_max < n).then(|| format!("latency at most {}: a read returns within {} cycle(s), so fewer than {n} are ever in flight", mem.latency_max, mem.latency_max));
        v.push(bin("reads in flight 2".into(), short(2)));
        v.push(bin("reads in flight 3+".into(), short(3)));
        groups.push(("memory".into(), v));

        let full = |what: &str| Some(format!("the {build} build admits every {what}"));
        groups.push((
            "rejected".into(),
            vec![
                bin(format!("lanes > {}", config.max_lanes), (config.max_lanes >= 32).then(|| full("exec size")).flatten()),
                bin(format!("elements > {} bits", config.data_bits), (config.data_bits >= 128).then(|| full("element width")).flatten()),
                bin("float op".into(), config.fp.then(|| full("float op")).flatten()),
            ],
        ));

        let valid = Some(
            "regress writes valid scripts only: the script parser refuses a misaligned or illegal message before it is encoded; \
             the directed test rtl_unit::illegal_descriptors_end_in_error_and_touch_nothing drives such descriptors"
                .to_string(),
        );
        groups.push((
            "illegal_descriptor".into(),
            ["misaligned address", "illegal op or type"].iter().map(|n| bin(n.to_string(), valid.clone())).collect(),
        ));
        CoverSpace { groups }
    }

    pub fn reachable(&self) -> usize {
        self.groups.iter().flat_map(|(_, b)| b).filter(|b| b.unreachable.is_none()).count()
    }

    pub fn total(&self) -> usize {
        self.groups.iter().map(|(_, b)| b.len()).sum()
    }
}

fn fp_ops() -> Vec<String> {
    let mut v: BTreeSet<String> = BTreeSet::new();
    for (op, _, _) in super::generator::all_fp_families() {
        v.insert(format!("{op:?}").to_lowercase());
    }
    v.into_iter().collect()
}

/// `Some("zero" | "subnormal" | "inf" | "nan")` for a special value of the
/// scalar float type `ty` (F16, BF16, F32, F64), `None` for a normal one.
pub fn fp_class(ty: ElemType, bits: u128) -> Option<&'static str> {
    let (exp_bits, man_bits) = match ty {
        ElemType::F16 => (5, 10),
        ElemType::BF16 => (8, 7),
        ElemType::F32 => (8, 23),
        ElemType::F64 => (11, 52),
        _ => return None,
    };
    let man = bits & ((1u128 << man_bits) - 1);
    let exp = (bits >> man_bits) & ((1u128 << exp_bits) - 1);
    let exp_all = (1u128 << exp_bits) - 1;
    match (exp, man) {
        (0, 0) => Some("zero"),
        (0, _) => Some("subnormal"),
        (e, 0) if e == exp_all => Some("inf"),
        (e, _) if e == exp_all => Some("nan"),
        _ => None,
    }
}

/// The special classes in `value`, holding `count` elements of `ty` (packed
/// x2 types: both halves).
fn specials(ty: ElemType, value: u128, count: u32) -> Vec<&'static str> {
    let (scalar, per, bits) = match ty {
        ElemType::F16x2 => (ElemType::F16, 2, 16),
        ElemType::BF16x2 => (ElemType::BF16, 2, 16),
        t => (t, 1, t.bits()),
    };
    let mut v = vec![];
    for i in 0..count * per {
        let shift = i * bits;
        if shift >= 128 {
            break;
        }
        let e = (value >> shift) & ((1u128 << bits) - 1);
        v.extend(fp_class(scalar, e));
    }
    v
}

/// Bounded surfaces whose out-of-bounds lanes get a bin of their own when
/// their offset has a bit set past the largest bound (SLM 64 KB, the
/// generator's buffers, 32-bit DWORD offsets; PTX shared addresses are 64
/// bits): a bound compare that drops upper bits would take such a lane for
/// one in bounds.
const FAR_OFFSET_BINS: [(&str, u32); 3] = [("DWORD_ATOMIC T0", 17), ("DWORD_ATOMIC buffer", 17), ("atom.shared", 32)];

/// The `typed_address` bins: the lane product `r x rows` as digit
/// products (`LaneCoordReg`), and the element index `(r x rows + v) x
/// width + u` past 32 bits (`AddrMul`'s upper partial products).
const TYPED_ADDRESS_BINS: [&str; 4] = [
    "r x rows: low digits only",
    "r x rows: a middle digit product",
    "r x rows: the high digit product",
    "element index >= 2^32",
];

/// The `out_of_bounds` bin of a typed lane aliased far past its surface.
const TYPED_FAR_BIN: &str = "TYPED_ATOMIC lane with a coordinate or lod past 16 bits";

/// A TYPED_ATOMIC lane's `v`, `r` or `lod` (0 when written V0).
fn coord_of(c: &Option<Vec<u32>>, lane: usize) -> u32 {
    c.as_ref().map_or(0, |c| c[lane])
}

/// The `typed_address` bins lane (u, v, r, lod) of surface `t` hits (an
/// in-bounds lane: the RTL wrote it).
fn typed_address_bins(t: &atomport_core::program::TypedSurface, u: u32, v: u32, r: u32, lod: u32) -> Vec<&'static str> {
    let (width, rows, _) = atomport_core::golden::surface::level_extent(t, lod);
    let digit = |x: u64, k: u32| (x >> (16 * k)) & 0xffff;
    let r = u64::from(r);
    let mut bins = vec![];
    if digit(r, 0) * digit(rows, 1) + digit(r, 1) * digit(rows, 0) != 0 {
        bins.push(TYPED_ADDRESS_BINS[1]);
    }
    if digit(r, 1) * digit(rows, 1) != 0 {
        bins.push(TYPED_ADDRESS_BINS[2]);
    }
    if bins.is_empty() {
        bins.push(TYPED_ADDRESS_BINS[0]);
    }
    let index = (u128::from(r) * u128::from(rows) + u128::from(v)) * u128::from(width) + u128::from(u);
    if index >> 32 != 0 {
        bins.push(TYPED_ADDRESS_BINS[3]);
    }
    bins
}

/// Bin hit counts: group -> bin -> hits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionalCoverage {
    pub hits: BTreeMap<String, BTreeMap<String, u64>>,
}

/// A report's coverage that does not read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoverageJsonError {
    #[error("coverage hits: not an object")]
    Hits,
    #[error("coverage group: not an object")]
    Group,
    #[error("coverage count: not a number")]
    Count,
    #[error("coverage space: not [[group, [[bin, reason], ...]], ...]")]
    Space,
}

impl FunctionalCoverage {
    fn hit(&mut self, group: &str, bin: String) {
        *self.hits.entry(group.to_string()).or_default().entry(bin).or_default() += 1;
    }

    pub fn merge(&mut self, other: &FunctionalCoverage) {
        for (g, bins) in &other.hits {
            let mine = self.hits.entry(g.clone()).or_default();
            for (b, n) in bins {
                *mine.entry(b.clone()).or_default() += n;
            }
        }
    }

    pub fn count(&self, group: &str, bin: &str) -> u64 {
        self.hits.get(group).and_then(|g| g.get(bin)).copied().unwrap_or(0)
    }

    /// Samples one script's RTL run. `config` is the build's.
    pub fn sample(&mut self, program: &Program, sim: &Simulation, config: &UnitConfig) {
        let messages: Vec<&Message> = program.messages().collect();
        let mut txns: Vec<Vec<&atomport_core::outcome::Txn>> = vec![vec![]; messages.len()];
        for t in &sim.output.txns {
            if let Some(v) = txns.get_mut(t.msg) {
                v.push(t);
            }
        }
        let illegal: BTreeSet<usize> = sim.illegal.iter().map(|f| f.index).collect();
        for (i, m) in messages.iter().enumerate() {
            let kind = m.kind().name();
            if illegal.contains(&i) {
                // what the unit refused: a limit of the build (checked by the scoreboard)
                match m.admitted_by(config) {
                    Err(ConfigLimit::Lanes { .. }) => self.hit("rejected", format!("lanes > {}", config.max_lanes)),
                    Err(ConfigLimit::Width { .. }) => self.hit("rejected", format!("elements > {} bits", config.data_bits)),
                    Err(ConfigLimit::Float) => self.hit("rejected", "float op".into()),
                    Ok(()) => self.hit("illegal_descriptor", "illegal op or type".into()),
                }
                continue;
            }
            let t = &txns[i];
            let writes: Vec<_> = t.iter().filter(|x| x.kind == TxnKind::Write).collect();
            let reads: Vec<_> = t.iter().filter(|x| x.kind == TxnKind::Read).collect();
            let enables = m.lane_enables();
            let enabled = enables.count_ones();
            // lanes / predicate / mask: the message completed (the run agreed)
            let lanes = if enabled == 0 {
                "no lane on"
            } else if enabled == m.exec_size as u32 {
                "all lanes on"
            } else {
                "some lanes off"
            };
            self.hit("lanes", format!("{kind} {lanes}"));
            let pred = match &m.pred {
                None => "no predicate",
                Some(p) if p.negate => "!p",
                Some(_) => "p",
            };
            self.hit("predicate", format!("{kind} {pred}"));
            // out of bounds: enabled lanes of a bounded surface for which the
            // RTL made no access at all (an atomic lane in bounds reads)
            let touched: BTreeSet<u8> = t.iter().map(|x| x.lane).collect();
            let untouched: Vec<usize> =
                (0..m.exec_size as usize).filter(|&l| enables >> l & 1 == 1 && !touched.contains(&(l as u8))).collect();
            let oob = untouched.len() as u32;
            let surface = match &m.body {
                Body::DwordAtomic { surface: DwordSurface::Slm, .. } => Some("DWORD_ATOMIC T0"),
                Body::DwordAtomic { surface: DwordSurface::Buffer(_), .. } => Some("DWORD_ATOMIC buffer"),
                Body::TypedAtomic { .. } => Some("TYPED_ATOMIC"),
                Body::PtxAtom { space, .. } if space.is_shared() => Some("atom.shared"),
                _ => None,
            };
            if let (Some(s), true) = (surface, oob > 0) {
                self.hit("out_of_bounds", format!("{s} {}", if oob == enabled { "all lanes" } else { "some lanes" }));
            }
            let offsets: Vec<u64> = match &m.body {
                Body::DwordAtomic { offsets, .. } => offsets.iter().map(|&o| o.into()).collect(),
                Body::PtxAtom { addrs, .. } => addrs.clone(),
                _ => vec![],
            };
            if let Some(&(s, bits)) = FAR_OFFSET_BINS.iter().find(|(s, _)| surface == Some(*s)) {
                if untouched.iter().any(|&l| offsets.get(l).is_some_and(|&o| o >> bits != 0)) {
                    self.hit("out_of_bounds", format!("{s} lane with an offset past {bits} bits"));
                }
            }
            if let Body::TypedAtomic { u, v, r, lod, .. } = &m.body {
                for &l in &untouched {
                    if [u[l], coord_of(v, l), coord_of(r, l), coord_of(lod, l)].iter().any(|&c| c >> 16 != 0) {
                        self.hit("out_of_bounds", TYPED_FAR_BIN.into());
                    }
                }
            }
            if t.is_empty() {
                continue;
            }
            // from here on the RTL performed at least one transaction for it
            self.hit("form", form_of(m));
            self.hit("mask", format!("{kind} M{}{}", m.mask_ctrl.group + 1, if m.mask_ctrl.no_mask { "_NM" } else { "" }));
            let top_lane = t.iter().map(|x| x.lane as u32).max().unwrap_or(0);
            if m.exec_size == 1 || top_lane >= m.exec_size as u32 / 2 {
                self.hit("exec_size", format!("{kind} x{}", m.exec_size));
            }
            if let Body::SvmScatter { block_size, num_blocks, .. } = &m.body {
                self.hit("scatter", format!("{block_size}x{num_blocks}"));
            }
            if let Some(f) = ptx_vector_form(m) {
                let op = atomport_core::text::ptx_op_name(match &m.body {
                    Body::PtxAtom { op, .. } => *op,
                    _ => unreachable!(),
                });
                self.hit("ptx_vector", format!("{op}.{f} {}", if m.exec_size == 1 { "single-thread" } else { "warp" }));
            }
            let Some(ctl) = m.alu() else { continue };
            // same-address runs among the lanes the RTL wrote
            let mut per_addr: BTreeMap<(bool, u64), u32> = BTreeMap::new();
            for w in &writes {
                *per_addr.entry((w.space == atomport_core::program::Space::Slm, w.addr)).or_default() += 1;
            }
            let run = per_addr.values().copied().max().unwrap_or(0);
            let lanes_written: BTreeSet<u8> = writes.iter().map(|w| w.lane).collect();
            let same = if run <= 1 {
                "none"
            } else if per_addr.len() == 1 && lanes_written.len() as u32 == enabled {
                "all lanes"
            } else if run <= 3 {
                "2-3 lanes"
            } else {
                "4+ lanes"
            };
            if !writes.is_empty() {
                self.hit("same_address", format!("{kind} {same}"));
            }
            if let Body::TypedAtomic { surface, u, v, r, lod, .. } = &m.body {
                if let Some(atomport_core::program::Surface::Typed(s)) = program.surfaces.get(surface) {
                    for l in lanes_written.iter().map(|&l| l as usize) {
                        for b in typed_address_bins(s, u[l], coord_of(v, l), coord_of(r, l), coord_of(lod, l)) {
                            self.hit("typed_address", b.to_string());
                        }
                    }
                }
            }
            if run >= 2 {
                self.hit("form x same_address", format!("{} run of 2+", form_of(m)));
            }
            if same == "all lanes" && enabled == m.exec_size as u32 && m.exec_size > 1 {
                self.hit("exec_size x same_address", format!("{kind} x{} all lanes on one address", m.exec_size));
            }
            // FP specials: the old values the RTL read, the sources of the lanes it executed
            if ctl.needs_fp() {
                let fmt = ty_name(ctl.ty);
                let op = format!("{:?}", ctl.op).to_lowercase();
                let mut seen: BTreeSet<(&str, &str)> = BTreeSet::new();
                for r in &reads {
                    let count = (r.bytes as u32 * 8 / ctl.ty.bits()).max(1);
                    for s in specials(ctl.ty, r.data, count) {
                        seen.insert((s, "old"));
                    }
                }
                let (vec, srcs): (u32, Vec<&Vec<u128>>) = match &m.body {
                    Body::SvmAtomic { src0, src1, .. } | Body::DwordAtomic { src0, src1, .. } | Body::TypedAtomic { src0, src1, .. } => {
                        (1, src0.iter().chain(src1.iter()).collect())
                    }
                    Body::PtxAtom { vec, b, c, .. } => (*vec as u32, std::iter::once(b).chain(c.iter()).collect()),
                    Body::SvmScatter { .. } => (1, vec![]),
                };
                for lane in &lanes_written {
                    for src in &srcs {
                        if let Some(&v) = src.get(*lane as usize) {
                            for s in specials(ctl.ty, v, vec) {
                                seen.insert((s, "src"));
                            }
                        }
                    }
                }
                for (s, operand) in &seen {
                    self.hit("fp_special", format!("{fmt} {s} {operand}"));
                }
                for s in seen.iter().map(|(s, _)| *s).collect::<BTreeSet<_>>() {
                    self.hit("fp_op_special", format!("{op} {s}"));
                }
            }
        }
        self.sample_port(&sim.port);
    }

    fn sample_port(&mut self, p: &PortActivity) {
        for (&lat, &n) in &p.read_latency {
            let name = if lat > LATENCY_BINS { format!("latency >{LATENCY_BINS}") } else { format!("latency {lat}") };
            *self.hits.entry("memory".into()).or_default().entry(name).or_default() += n;
        }
        for (name, n) in [
            ("return queued behind an earlier one", p.read_queued),
            ("read backpressured", p.read_stalled),
            ("write backpressured", p.write_stalled),
            ("read and write backpressured", p.both_stalled),
        ] {
            if n > 0 {
                *self.hits.entry("memory".into()).or_default().entry(name.into()).or_default() += n;
            }
        }
        for (k, &n) in p.reads_in_flight.iter().enumerate() {
            if n > 0 {
                let name = match k {
                    0 => continue,
                    1 => "reads in flight 1",
                    2 => "reads in flight 2",
                    _ => "reads in flight 3+",
                };
                *self.hits.entry("memory".into()).or_default().entry(name.into()).or_default() += n;
            }
        }
    }

    /// Reachable bins never hit.
    pub fn holes<'s>(&self, space: &'s CoverSpace) -> Vec<(&'s str, &'s str)> {
        let mut v = vec![];
        for (g, bins) in &space.groups {
            for b in bins.iter().filter(|b| b.unreachable.is_none()) {
                if self.count(g, &b.name) == 0 {
                    v.push((g.as_str(), b.name.as_str()));
                }
            }
        }
        v
    }

    /// Bins hit that the space does not have (a sampling or space bug).
    pub fn strays(&self, space: &CoverSpace) -> Vec<(String, String)> {
        let known: BTreeSet<(&str, &str)> = space.groups.iter().flat_map(|(g, b)| b.iter().map(move |b| (g.as_str(), b.name.as_str()))).collect();
        let mut v = vec![];
        for (g, bins) in &self.hits {
            for b in bins.keys() {
                if !known.contains(&(g.as_str(), b.as_str())) {
                    v.push((g.clone(), b.clone()));
                }
            }
        }
        v
    }

    /// Reachable bins hit.
    pub fn covered(&self, space: &CoverSpace) -> usize {
        space.reachable() - self.holes(space).len()
    }

    /// One line for a summary.
    pub fn summary(&self, space: &CoverSpace) -> String {
        let reachable = space.reachable();
        let covered = self.covered(space);
        format!(
            "functional coverage {covered}/{reachable} reachable bins hit ({:.1}%), {} unreachable on this build",
            100.0 * covered as f64 / reachable.max(1) as f64,
            space.total() - reachable
        )
    }

    /// The report of `regress --coverage`: hits / reachable per group, every
    /// hole, every unreachable bin with its reason.
    pub fn report(&self, space: &CoverSpace) -> String {
        let mut s = format!("{}\n", self.summary(space));
        s += &format!("  {:<26} {:>6} {:>9} {:>11}\n", "group", "hit", "reachable", "unreachable");
        for (g, bins) in &space.groups {
            let reachable = bins.iter().filter(|b| b.unreachable.is_none()).count();
            let hit = bins.iter().filter(|b| b.unreachable.is_none() && self.count(g, &b.name) > 0).count();
            s += &format!("  {:<26} {:>6} {:>9} {:>11}\n", g, hit, reachable, bins.len() - reachable);
        }
        let holes = self.holes(space);
        if holes.is_empty() {
            s += "holes: none (every reachable bin hit)\n";
        } else {
            s += &format!("holes ({}, reachable but never hit):\n", holes.len());
            for (g, b) in holes {
                s += &format!("  {g}: {b}\n");
            }
        }
        let unreachable: Vec<(&str, &Bin)> = space.groups.iter().flat_map(|(g, b)| b.iter().map(move |b| (g.as_str(), b))).filter(|(_, b)| b.unreachable.is_some()).collect();
        if !unreachable.is_empty() {
            s += &format!("unreachable on this build ({}):\n", unreachable.len());
            // one line per reason with the bins it covers
            let mut by_reason: BTreeMap<&str, Vec<String>> = BTreeMap::new();
            for (g, b) in unreachable {
                by_reason.entry(b.unreachable.as_deref().unwrap_or("")).or_default().push(format!("{g}: {}", b.name));
            }
            for (reason, bins) in by_reason {
                s += &format!("  {} bins: {reason}\n    {}\n", bins.len(), bins.join(", "));
            }
        }
        let strays = self.strays(space);
        if !strays.is_empty() {
            s += &format!("bins hit outside the space (a coverage bug): {strays:?}\n");
        }
        s
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.hits).expect("JSON")
    }

    pub fn from_json(v: &serde_json::Value) -> Result<FunctionalCoverage, CoverageJsonError> {
        if v.is_null() {
            return Ok(FunctionalCoverage::default());
        }
        let mut hits: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
        for (g, bins) in v.as_object().ok_or(CoverageJsonError::Hits)? {
            let m = hits.entry(g.clone()).or_default();
            for (b, n) in bins.as_object().ok_or(CoverageJsonError::Group)? {
                m.insert(b.clone(), n.as_u64().ok_or(CoverageJsonError::Count)?);
            }
        }
        Ok(FunctionalCoverage { hits })
    }
}

impl CoverSpace {
    /// `[[group, [[bin, null | reason], ...]], ...]`: arrays, so the order survives.
    pub fn to_json(&self) -> serde_json::Value {
        let groups: Vec<(&str, Vec<(&str, Option<&str>)>)> =
            self.groups.iter().map(|(g, bins)| (g.as_str(), bins.iter().map(|b| (b.name.as_str(), b.unreachable.as_deref())).collect())).collect();
        serde_json::to_value(groups).expect("JSON")
    }

    /// Reads [`CoverSpace::to_json`] back.
    pub fn from_json(v: &serde_json::Value) -> Result<CoverSpace, CoverageJsonError> {
        if v.is_null() {
            return Ok(CoverSpace::default());
        }
        let bad = || CoverageJsonError::Space;
        let mut groups = vec![];
        for g in v.as_array().ok_or_else(bad)? {
            let name = g[0].as_str().ok_or_else(bad)?;
            let mut bins = vec![];
            for b in g[1].as_array().ok_or_else(bad)? {
                bins.push(Bin { name: b[0].as_str().ok_or_else(bad)?.to_string(), unreachable: b[1].as_str().map(str::to_string) });
            }
            groups.push((name.to_string(), bins));
        }
        Ok(CoverSpace { groups })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_address_bins_name_the_digit_products_a_lane_uses() {
        use atomport_core::program::{TypedFormat, TypedKind, TypedSurface};
        let surface = |width, height, array| TypedSurface {
            kind: TypedKind::D2Array,
            base: 0,
            width,
            height,
            depth: 1,
            array,
            levels: 2,
            format: TypedFormat::U32,
        };
        let [low, middle, high, index] = TYPED_ADDRESS_BINS;
        let big = surface(3, 0x2_0000, 0x2_0000);
        // (u, v, r, lod): r x rows = 0xfffe x 0xffff stays in the low digits
        assert_eq!(typed_address_bins(&surface(1, 0xffff, 0xffff), 0, 0xfffe, 0xfffe, 0), vec![low]);
        assert_eq!(typed_address_bins(&big, 0, 0, 1, 0), vec![middle]);
        // r_hi x rows_lo and r_lo x rows_hi both 0: the high digit alone
        assert_eq!(typed_address_bins(&big, 0, 0, 0x1_0000, 0), vec![high, index]);
        assert_eq!(typed_address_bins(&big, 0, 0, 0x1_0001, 0), vec![middle, high, index]);
        // the rows at the lane's level: 0x30000 at level 0, 0x18000 at level 1
        let tall = surface(3, 0x3_0000, 0x2_0000);
        assert_eq!(typed_address_bins(&tall, 0, 0, 0x1_0000, 0), vec![high, index]);
        assert_eq!(typed_address_bins(&tall, 0, 0, 0x1_0000, 1), vec![middle, high, index]);
        assert_eq!(typed_address_bins(&big, 2, 0x1_ffff, 0, 0), vec![low]);
        assert_eq!(typed_address_bins(&surface(0x4_0000, 0x2_0000, 1), 0, 0x1_0000, 0, 0), vec![low, index]);
    }

    #[test]
    fn fp_classes_per_format() {
        assert_eq!(fp_class(ElemType::F32, 0x8000_0000), Some("zero"));
        assert_eq!(fp_class(ElemType::F32, 0x0000_0001), Some("subnormal"));
        assert_eq!(fp_class(ElemType::F32, 0x7f80_0000), Some("inf"));
        assert_eq!(fp_class(ElemType::F32, 0x7fc0_0000), Some("nan"));
        assert_eq!(fp_class(ElemType::F32, 0x3f80_0000), None);
        assert_eq!(fp_class(ElemType::BF16, 0x7f81), Some("nan"));
        assert_eq!(fp_class(ElemType::F16, 0x7c00), Some("inf"));
        assert_eq!(fp_class(ElemType::F64, 0x7ff0_0000_0000_0000), Some("inf"));
        assert_eq!(specials(ElemType::F16x2, 0x7c00_0001, 1), vec!["subnormal", "inf"]);
    }

    #[test]
    fn the_small_build_makes_wide_float_and_many_lane_bins_unreachable() {
        let mem = MemConfig { latency_min: 1, latency_max: 4, stall: 0.2, seed: 1 };
        let full = CoverSpace::new(&UnitConfig::FULL, "l32_w128", &mem);
        let small = CoverSpace::new(&UnitConfig::parse("l8_w32_int").unwrap(), "l8_w32_int", &mem);
        assert_eq!(full.total(), small.total());
        assert!(small.reachable() < full.reachable());
        let reason = |s: &CoverSpace, g: &str, b: &str| {
            s.groups.iter().find(|(n, _)| n == g).and_then(|(_, bins)| bins.iter().find(|x| x.name == b)).map(|x| x.unreachable.clone())
        };
        assert_eq!(reason(&full, "form", "SVM_ATOMIC.add.64"), Some(None));
        assert!(reason(&small, "form", "SVM_ATOMIC.add.64").unwrap().unwrap().contains("l8_w32_int"));
        assert!(reason(&small, "exec_size", "DWORD_ATOMIC x16").unwrap().is_some());
        assert!(reason(&full, "rejected", "float op").unwrap().is_some());
        assert_eq!(reason(&small, "rejected", "float op"), Some(None));
        let none = CoverSpace::new(&UnitConfig::FULL, "l32_w128", &MemConfig { stall: 0.0, ..mem });
        assert!(reason(&none, "memory", "read backpressured").unwrap().unwrap().contains("--stall 0"));
        assert_eq!(CoverSpace::from_json(&small.to_json()).unwrap(), small);
        // nothing hit: every reachable bin is a hole, in every group
        assert_eq!(FunctionalCoverage::default().holes(&full).len(), full.reachable());
        assert_eq!(FunctionalCoverage::default().covered(&small), 0);
        // names are unique within a group
        for (g, bins) in &full.groups {
            let names: BTreeSet<&str> = bins.iter().map(|b| b.name.as_str()).collect();
            assert_eq!(names.len(), bins.len(), "{g}");
        }
    }
}
