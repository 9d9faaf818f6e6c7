//! Parser tests: every statement, every message kind with every op x width
//! (from the op tables), hand-built expected Messages, malformed input with
//! exact line:col, float literal rounding, and random garbage.

use super::*;
use crate::message::{Body, DwordSurface, MaskCtrl, Message, PredRef, PtxScope, PtxSem, PtxSpace};
use crate::ops::{Class, Operand, PtxOp, PtxType, VisaOpInfo, VisaWidth, PTX_OPS, VISA_OPS};
use crate::program::{Space, Stmt, Surface, TypedFormat, TypedKind, TypedSurface};

fn ok(text: &str) -> Program {
    parse("t.s", text).unwrap_or_else(|d| panic!("{d}\n--- script ---\n{text}"))
}

/// The last message of a script.
fn last_msg(text: &str) -> Message {
    ok(text).messages().last().cloned().expect("a message")
}

fn body(text: &str) -> Body {
    last_msg(text).body
}

#[track_caller]
fn bad(text: &str, line: usize, col: usize, phrase: &str) {
    match parse("t.s", text) {
        Ok(_) => panic!("accepted, expected an error at {line}:{col} ({phrase}):\n{text}"),
        Err(d) => {
            assert_eq!(d.file, "t.s");
            assert_eq!((d.line, d.col), (line, col), "wrong position for `{}`: {d}", text.lines().nth(line - 1).unwrap_or(""));
            assert!(d.msg.contains(phrase), "message lacks `{phrase}`: {d}");
        }
    }
}

fn op(name: &str) -> &'static VisaOpInfo {
    VisaOpInfo::by_name(name).unwrap()
}

// ---------------------------------------------------------------- statements

#[test]
fn init_statements_store_little_endian_bytes() {
    let p = ok("mem.u8 0x10 = 1 255 -1 -128\n\
                mem.u16 0x20 = 0x1234, -1\n\
                mem.u32 0x30 = 0xdeadbeef -2147483648\n\
                mem.u64 0x40 = -1\n\
                mem.s8 0 = -128 127 0xff\n\
                mem.s16 0 = -2 0x8000\n\
                mem.s32 0 = -1\n\
                mem.s64 0 = -9223372036854775808\n\
                MEM.F16 0 = 1.0 -2 inf\n\
                mem.bf16 0 = 1.0 0x7fc1\n\
                mem.f32 0 = 1.5\n\
                mem.f64 0 = 1.0\n\
                slm.u32 0x100 = 7 8");
    let inits: Vec<(Space, u64, Vec<u8>)> = p
        .stmts
        .iter()
        .map(|s| match s {
            Stmt::Init { space, addr, bytes, .. } => (*space, *addr, bytes.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    let f = Space::Flat;
    assert_eq!(inits[0], (f, 0x10, vec![1, 255, 255, 0x80]));
    assert_eq!(inits[1], (f, 0x20, vec![0x34, 0x12, 0xff, 0xff]));
    assert_eq!(inits[2], (f, 0x30, vec![0xef, 0xbe, 0xad, 0xde, 0, 0, 0, 0x80]));
    assert_eq!(inits[3], (f, 0x40, vec![0xff; 8]));
    assert_eq!(inits[4].2, vec![0x80, 0x7f, 0xff]);
    assert_eq!(inits[5].2, vec![0xfe, 0xff, 0x00, 0x80]);
    assert_eq!(inits[6].2, vec![0xff; 4]);
    assert_eq!(inits[7].2, vec![0, 0, 0, 0, 0, 0, 0, 0x80]);
    assert_eq!(inits[8].2, vec![0x00, 0x3c, 0x00, 0xc0, 0x00, 0x7c]);
    assert_eq!(inits[9].2, vec![0x80, 0x3f, 0xc1, 0x7f]);
    assert_eq!(inits[10].2, 0x3fc0_0000u32.to_le_bytes().to_vec());
    assert_eq!(inits[11].2, 0x3ff0_0000_0000_0000u64.to_le_bytes().to_vec());
    assert_eq!(inits[12], (Space::Slm, 0x100, vec![7, 0, 0, 0, 8, 0, 0, 0]));
    assert!(matches!(p.stmts[12], Stmt::Init { line: 13, .. }));
    assert_eq!(p.slm_size, DEFAULT_SLM_SIZE);
}

#[test]
fn global_and_state_statements() {
    let p = ok("# a comment line\n\
                \n\
                slm size 4096   // trailing comment\n\
                surface 1 buffer base=0x10000 size=0x100\n\
                surface 2 1d base=0 width=64 format=u32\n\
                surface 3 1d_array base=0x1000 width=8 array=4 levels=2 format=u16\n\
                surface 4 2d base=0x2000 width=8 height=4 format=u32\n\
                surface 5 2d_array base=0x3000 width=8 array=3 format=u32\n\
                surface 6 3D BASE=0x4000 Width=4 height=4 depth=4 levels=3 format=U16\n\
                pred p = 0b1010\n\
                dmask 0xf0f0\n\
                dump 0x10000 16\n\
                dump slm 0x20 8");
    assert_eq!(p.slm_size, 4096);
    assert_eq!(p.surfaces[&1], Surface::Buffer { base: 0x10000, size: 0x100 });
    let t = |kind, base, width, height, depth, array, levels, format| {
        Surface::Typed(TypedSurface { kind, base, width, height, depth, array, levels, format })
    };
    assert_eq!(p.surfaces[&2], t(TypedKind::D1, 0, 64, 1, 1, 1, 1, TypedFormat::U32));
    assert_eq!(p.surfaces[&3], t(TypedKind::D1Array, 0x1000, 8, 1, 1, 4, 2, TypedFormat::U16));
    assert_eq!(p.surfaces[&4], t(TypedKind::D2, 0x2000, 8, 4, 1, 1, 1, TypedFormat::U32));
    assert_eq!(p.surfaces[&5], t(TypedKind::D2Array, 0x3000, 8, 1, 1, 3, 1, TypedFormat::U32));
    assert_eq!(p.surfaces[&6], t(TypedKind::D3, 0x4000, 4, 4, 4, 1, 3, TypedFormat::U16));
    assert_eq!(
        p.stmts,
        vec![
            Stmt::Dump { line: 12, space: Space::Flat, addr: 0x10000, len: 16 },
            Stmt::Dump { line: 13, space: Space::Slm, addr: 0x20, len: 8 },
        ]
    );
}

#[test]
fn predicates_and_dmask_are_taken_at_the_message_line() {
    let p = ok("pred p = 0b0011\n\
                SVM_ATOMIC.inc (2) [0 4] V0 V0 V0\n\
                dmask 0x5\n\
                (p) SVM_ATOMIC.inc (2) [0 4] V0 V0 V0\n\
                pred p = 0xffff0000\n\
                (!p) SVM_ATOMIC.inc (2) [0 4] V0 V0 V0");
    let m: Vec<&Message> = p.messages().collect();
    assert_eq!((m[0].dmask, m[0].pred.clone()), (u32::MAX, None));
    assert_eq!((m[1].dmask, m[1].pred.clone()), (5, Some(PredRef { name: "p".into(), negate: false, mask: 3 })));
    assert_eq!(m[2].pred, Some(PredRef { name: "p".into(), negate: true, mask: 0xffff_0000 }));
    assert_eq!(m[1].lane_enables(), 0b01);
    assert_eq!(m[2].lane_enables(), 0b01);
    assert_eq!(m.iter().map(|m| m.line).collect::<Vec<_>>(), [2, 4, 6]);
}

#[test]
fn surfaces_may_be_defined_after_their_use() {
    let b = body("DWORD_ATOMIC.add (1) 9 [4] [1] V0 V0\nsurface 9 buffer base=0x100 size=64");
    assert!(matches!(b, Body::DwordAtomic { surface: DwordSurface::Buffer(9), .. }));
}

// ---------------------------------------------------------- vISA messages

#[test]
fn svm_atomic_expected_messages() {
    let m = last_msg(
        "pred p = 0b0101\n\
         dmask 0xff\n\
         (p) SVM_ATOMIC.add (4) [0x1000 0x1004 0x1008 0x100c] d0 [1 2 3 -1] V0",
    );
    assert_eq!(
        m,
        Message {
            line: 3,
            exec_size: 4,
            mask_ctrl: MaskCtrl::M1,
            pred: Some(PredRef { name: "p".into(), negate: false, mask: 5 }),
            dmask: 0xff,
            dst: Some("d0".into()),
            body: Body::SvmAtomic {
                op: op("add"),
                width: VisaWidth::W32,
                addrs: vec![0x1000, 0x1004, 0x1008, 0x100c],
                src0: Some(vec![1, 2, 3, 0xffff_ffff]),
                src1: None,
            },
        }
    );
    let m = last_msg("pred p = 1\n(!p) svm_atomic.CMPXCHG.64 (M2_NM, 2) [0x2000, 0x2008] old [-1 0xffffffffffffffff] [5,6]");
    assert_eq!(m.mask_ctrl, MaskCtrl { group: 1, no_mask: true });
    assert_eq!(m.pred, Some(PredRef { name: "p".into(), negate: true, mask: 1 }));
    assert_eq!(
        m.body,
        Body::SvmAtomic {
            op: op("cmpxchg"),
            width: VisaWidth::W64,
            addrs: vec![0x2000, 0x2008],
            src0: Some(vec![u64::MAX as u128; 2]),
            src1: Some(vec![5, 6]),
        }
    );
    let m = last_msg("SVM_ATOMIC.imin.16 (M8, 1) [0x2] V0 [-32768] V0");
    assert_eq!(m.mask_ctrl, MaskCtrl { group: 7, no_mask: false });
    assert_eq!(m.dst, None);
    // .16 sources are dwords: the value is kept as written (32-bit two's complement)
    assert!(matches!(m.body, Body::SvmAtomic { width: VisaWidth::W16, src0: Some(ref s), .. } if s == &vec![0xffff_8000]));
}

#[test]
fn dword_atomic_expected_messages() {
    let m = last_msg("DWORD_ATOMIC.inc.16 (M1, 8) T0 [0 2 4 6 8 10 12 14] V0 V0 V0");
    assert_eq!(
        m,
        Message {
            line: 1,
            exec_size: 8,
            mask_ctrl: MaskCtrl::M1,
            pred: None,
            dmask: u32::MAX,
            dst: None,
            body: Body::DwordAtomic {
                op: op("inc"),
                w16: true,
                surface: DwordSurface::Slm,
                offsets: vec![0, 2, 4, 6, 8, 10, 12, 14],
                src0: None,
                src1: None,
            },
        }
    );
    let b = body("DWORD_ATOMIC.fmax (2) t255 [0 4] [1.5 -inf] V0 r");
    assert_eq!(
        b,
        Body::DwordAtomic {
            op: op("fmax"),
            w16: false,
            surface: DwordSurface::Stateless,
            offsets: vec![0, 4],
            src0: Some(vec![0x3fc0_0000, 0xff80_0000]),
            src1: None,
        }
    );
    // .16 float: decimal is a half value, hex is raw dword bits kept as written
    let b = body("DWORD_ATOMIC.fcmpwr.16 (2) 7 [0 2] [1.0 0x12343c00] [nan -0.0] r\nsurface 7 buffer base=0 size=16");
    assert_eq!(
        b,
        Body::DwordAtomic {
            op: op("fcmpwr"),
            w16: true,
            surface: DwordSurface::Buffer(7),
            offsets: vec![0, 2],
            src0: Some(vec![0x3c00, 0x1234_3c00]),
            src1: Some(vec![0x7e00, 0x8000]),
        }
    );
    let m = last_msg("DWORD_ATOMIC.add (32) T255 [0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124] [1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1] V0 sums");
    assert_eq!(m.exec_size, 32);
}

#[test]
fn typed_atomic_expected_messages() {
    let p = ok("surface 3 2d base=0x10000 width=16 height=8 format=u32\n\
                TYPED_ATOMIC.cmpxchg (M2, 8) 3 [0 1 2 3 4 5 6 7] [0 0 0 0 1 1 1 1] V0 V0 [1 1 1 1 1 1 1 1] [0 0 0 0 0 0 0 0] old");
    let m = p.messages().next().unwrap();
    assert_eq!(m.mask_ctrl, MaskCtrl { group: 1, no_mask: false });
    assert_eq!(
        m.body,
        Body::TypedAtomic {
            op: op("cmpxchg"),
            w16: false,
            surface: 3,
            u: vec![0, 1, 2, 3, 4, 5, 6, 7],
            v: Some(vec![0, 0, 0, 0, 1, 1, 1, 1]),
            r: None,
            lod: None,
            src0: Some(vec![1; 8]),
            src1: Some(vec![0; 8]),
        }
    );
    let b = body("surface 8 3d base=0 width=4 height=4 depth=4 levels=2 format=u16\n\
                  TYPED_ATOMIC.imax.16 (8) T8 [0 1 2 3 0 1 2 3] [0 0 0 0 1 1 1 1] [3 3 3 3 3 3 3 3] [0 0 0 0 1 1 1 1] [-1 -2 -3 -4 5 6 7 0x8000] V0 V0");
    assert_eq!(
        b,
        Body::TypedAtomic {
            op: op("imax"),
            w16: true,
            surface: 8,
            u: vec![0, 1, 2, 3, 0, 1, 2, 3],
            v: Some(vec![0, 0, 0, 0, 1, 1, 1, 1]),
            r: Some(vec![3; 8]),
            lod: Some(vec![0, 0, 0, 0, 1, 1, 1, 1]),
            src0: Some(vec![0xffff_ffff, 0xffff_fffe, 0xffff_fffd, 0xffff_fffc, 5, 6, 7, 0x8000]),
            src1: None,
        }
    );
}

#[test]
fn typed_coordinates_follow_the_seed_table() {
    // (kind, extra keys, V given?, R given?)
    let rows = [
        ("1d", "", false, false),
        ("1d_array", "array=4", true, false),
        ("2d", "height=4", true, false),
        ("2d_array", "height=4 array=2", true, true),
        ("3d", "height=4 depth=2", true, true),
    ];
    let lanes = "[0 0 0 0 0 0 0 0]";
    for (kind, keys, v, r) in rows {
        let script = |v: bool, r: bool| {
            format!(
                "surface 1 {kind} base=0 width=4 {keys} format=u32\nTYPED_ATOMIC.add (8) 1 {lanes} {} {} V0 {lanes} V0 V0",
                if v { lanes } else { "V0" },
                if r { lanes } else { "V0" }
            )
        };
        let b = body(&script(v, r));
        assert!(matches!(b, Body::TypedAtomic { v: ref bv, r: ref br, .. } if bv.is_some() == v && br.is_some() == r), "{kind}");
        // flipping V or R is an error at that operand
        let v_col = "TYPED_ATOMIC.add (8) 1 ".len() + lanes.len() + 2;
        bad(&script(!v, r), 2, v_col, if v { "give a lane vector" } else { "must be V0" });
        let r_col = v_col + if v { lanes.len() } else { 2 } + 1;
        bad(&script(v, !r), 2, r_col, if r { "give a lane vector" } else { "must be V0" });
    }
}

#[test]
fn svm_scatter_expected_messages() {
    let m = last_msg("SVM_SCATTER.4.2 (4) [0x100 0x200 0x300 0x400] [1 2 3 4 5 6 7 8]");
    assert_eq!(m.dst, None);
    assert_eq!(
        m.body,
        Body::SvmScatter { block_size: 4, num_blocks: 2, addrs: vec![0x100, 0x200, 0x300, 0x400], src: (1..=8).collect() }
    );
    let b = body("SVM_SCATTER.1.2 (2) [0x11 0x23] [1 2 0 0 -1 255 9 9]");
    assert_eq!(b, Body::SvmScatter { block_size: 1, num_blocks: 2, addrs: vec![0x11, 0x23], src: vec![1, 2, 0, 0, 255, 255, 9, 9] });
    let b = body("SVM_SCATTER.8.1 (1) [0x8] [-1]");
    assert_eq!(b, Body::SvmScatter { block_size: 8, num_blocks: 1, addrs: vec![8], src: vec![u64::MAX] });
    let b = body(&format!("SVM_SCATTER.4.8 (M1_NM, 8) [0 32 64 96 128 160 192 224] [{}]", (0..64).map(|i| i.to_string()).collect::<Vec<_>>().join(" ")));
    assert!(matches!(b, Body::SvmScatter { num_blocks: 8, ref src, .. } if src.len() == 64 && src[63] == 63));
}

#[test]
fn scatter_src_length_follows_the_seed_layout() {
    for bs in [1u32, 4, 8] {
        for nb in [1u32, 2, 4, 8] {
            for exec in [1u32, 2, 4, 8, 16, 32] {
                let legal_exec = exec <= 16;
                let legal = legal_exec && (nb != 8 || (bs == 4 && exec == 8));
                let want = if bs == 1 { exec * 4 } else { exec * nb };
                let addrs = (0..exec).map(|i| (i * 64).to_string()).collect::<Vec<_>>().join(" ");
                let src = vec!["1"; want as usize].join(" ");
                let text = format!("SVM_SCATTER.{bs}.{nb} ({exec}) [{addrs}] [{src}]");
                assert_eq!(parse("t", &text).is_ok(), legal, "{text}");
                if legal {
                    let short = format!("SVM_SCATTER.{bs}.{nb} ({exec}) [{addrs}] [{}]", vec!["1"; want as usize - 1].join(" "));
                    assert!(parse("t", &short).is_err(), "{short}");
                }
            }
        }
    }
}

/// A source operand of `n` lanes for a vISA op row (None for V0), as text
/// and as the expected bits.
fn visa_src(need: Operand, class: Class, width: u32, n: usize) -> (String, Option<Vec<u128>>) {
    if need == Operand::Null {
        return ("V0".into(), None);
    }
    let (lit, bits): (&str, u128) = match (class, width) {
        (Class::Float, 16) => ("-2.5", 0xc100),
        (Class::Float, _) => ("-2.5", 0xc020_0000),
        (Class::Signed, 64) => ("-3", (-3i64) as u64 as u128),
        (Class::Signed, _) => ("-3", 0xffff_fffd),
        (Class::Unsigned, 64) => ("0xfedcba9876543210", 0xfedc_ba98_7654_3210),
        (Class::Unsigned, _) => ("0xfedcba98", 0xfedc_ba98),
    };
    (format!("[{}]", vec![lit; n].join(" ")), Some(vec![bits; n]))
}

#[test]
fn every_visa_op_and_width_through_the_op_table() {
    let mut accepted = 0;
    for row in VISA_OPS.iter() {
        for (suffix, width) in [("", 32u32), (".16", 16), (".64", 64)] {
            let float64 = row.class == Class::Float && width == 64;
            // SVM_ATOMIC, 2 lanes
            let (s0, e0) = visa_src(row.src0, row.class, width, 2);
            let (s1, e1) = visa_src(row.src1, row.class, width, 2);
            let text = format!("SVM_ATOMIC.{}{suffix} (2) [0x100 0x108] d {s0} {s1}", row.name);
            match parse("t", &text) {
                Ok(p) => {
                    assert!(!float64, "{text}");
                    let w = match width { 16 => VisaWidth::W16, 64 => VisaWidth::W64, _ => VisaWidth::W32 };
                    assert_eq!(
                        p.messages().next().unwrap().body,
                        Body::SvmAtomic { op: row, width: w, addrs: vec![0x100, 0x108], src0: e0.clone(), src1: e1.clone() },
                        "{text}"
                    );
                    accepted += 1;
                }
                Err(d) => assert!(float64 && d.msg.contains("no 64-bit form"), "{text}: {d}"),
            }
            // DWORD_ATOMIC, 2 lanes (no .64)
            let text = format!("DWORD_ATOMIC.{}{suffix} (2) T255 [0x100 0x108] {s0} {s1} d", row.name);
            match parse("t", &text) {
                Ok(p) => {
                    assert!(width != 64, "{text}");
                    assert_eq!(
                        p.messages().next().unwrap().body,
                        Body::DwordAtomic { op: row, w16: width == 16, surface: DwordSurface::Stateless, offsets: vec![0x100, 0x108], src0: e0, src1: e1 },
                        "{text}"
                    );
                    accepted += 1;
                }
                Err(d) => assert!(width == 64 && d.msg.contains("no .64 form"), "{text}: {d}"),
            }
            // TYPED_ATOMIC, 8 lanes on a 1d surface of the matching format
            let (s0, e0) = visa_src(row.src0, row.class, width, 8);
            let (s1, e1) = visa_src(row.src1, row.class, width, 8);
            let fmt = if width == 16 { "u16" } else { "u32" };
            let text = format!(
                "surface 1 1d base=0 width=64 format={fmt}\nTYPED_ATOMIC.{}{suffix} (8) 1 [0 1 2 3 4 5 6 7] V0 V0 V0 {s0} {s1} d",
                row.name
            );
            match parse("t", &text) {
                Ok(p) => {
                    assert!(width != 64 && row.typed, "{text}");
                    assert_eq!(
                        p.messages().next().unwrap().body,
                        Body::TypedAtomic { op: row, w16: width == 16, surface: 1, u: (0..8).collect(), v: None, r: None, lod: None, src0: e0, src1: e1 },
                        "{text}"
                    );
                    accepted += 1;
                }
                Err(d) => assert!(width == 64 || !row.typed, "{text}: {d}"),
            }
        }
    }
    // 17 ops x (SVM: 3 widths minus 3 float .64) + 17 x 2 DWORD + 14 x 2 TYPED
    assert_eq!(accepted, 17 * 3 - 3 + 17 * 2 + 14 * 2);
}

#[test]
fn exec_sizes_per_message() {
    for n in [0u32, 1, 2, 3, 4, 8, 16, 32, 64] {
        let lanes = |v: &str| format!("[{}]", vec![v; n as usize].join(" "));
        let legal = |k: crate::ops::MsgKind| k.info().exec_sizes.contains(&(n as u8));
        let svm = format!("SVM_ATOMIC.add ({n}) {} d {} V0", lanes("0"), lanes("1"));
        assert_eq!(parse("t", &svm).is_ok(), legal(crate::ops::MsgKind::SvmAtomic), "{svm}");
        let dword = format!("DWORD_ATOMIC.add ({n}) T0 {} {} V0 d", lanes("0"), lanes("1"));
        assert_eq!(parse("t", &dword).is_ok(), legal(crate::ops::MsgKind::DwordAtomic), "{dword}");
        let ptx = format!("atom.add.u32 ({n}) d, {}, {};", lanes("0"), lanes("1"));
        assert_eq!(parse("t", &ptx).is_ok(), legal(crate::ops::MsgKind::PtxAtom), "{ptx}");
    }
    for (text, mc) in [("M1", MaskCtrl::M1), ("m3", MaskCtrl { group: 2, no_mask: false }), ("M8_NM", MaskCtrl { group: 7, no_mask: true }), ("m1_nm", MaskCtrl::M1_NM)] {
        assert_eq!(last_msg(&format!("SVM_ATOMIC.inc ({text}, 1) [0] d V0 V0")).mask_ctrl, mc);
    }
}

// ---------------------------------------------------------- PTX

#[test]
fn ptx_single_thread_expected_messages() {
    let m = last_msg("pred q = 1\n@!q atom.global.acquire.sys.inc.u32 ans, [0x1000+4], 17;");
    assert_eq!(
        m,
        Message {
            line: 2,
            exec_size: 1,
            mask_ctrl: MaskCtrl::M1_NM,
            pred: Some(PredRef { name: "q".into(), negate: true, mask: 1 }),
            dmask: u32::MAX,
            dst: Some("ans".into()),
            body: Body::PtxAtom {
                sem: Some(PtxSem::Acquire),
                scope: Some(PtxScope::Sys),
                space: PtxSpace::Global,
                op: PtxOp::Inc,
                noftz: false,
                cache_hint: None,
                vec: 1,
                ty: PtxType::U32,
                addrs: vec![0x1004],
                b: vec![17],
                c: None,
            },
        }
    );
    // qualifiers in the seed examples' orders
    let b = body("atom.global.cluster.relaxed.add.u32 d, [8], 1;");
    assert!(matches!(b, Body::PtxAtom { sem: Some(PtxSem::Relaxed), scope: Some(PtxScope::Cluster), space: PtxSpace::Global, op: PtxOp::Add, .. }));
    let b = body("atom.add.shared::cluster.noftz.f16 hd, [2], 1.5");
    assert!(matches!(b, Body::PtxAtom { space: PtxSpace::SharedCluster, noftz: true, ty: PtxType::F16, ref b, .. } if b == &vec![0x3e00]));
    let b = body("atom.shared::cta.max.u32 d,[0x10+4],0;");
    assert!(matches!(b, Body::PtxAtom { space: PtxSpace::SharedCta, op: PtxOp::Max, ref addrs, .. } if addrs == &vec![0x14]));
    let b = body("atom.shared.b128.cas d, 0x10, {1, 2}, 0xffffffffffffffffffffffffffffffff; // 128-bit atom");
    assert_eq!(
        b,
        Body::PtxAtom {
            sem: None,
            scope: None,
            space: PtxSpace::Shared,
            op: PtxOp::Cas,
            noftz: false,
            cache_hint: None,
            vec: 1,
            ty: PtxType::B128,
            addrs: vec![0x10],
            b: vec![1 | (2 << 64)],
            c: Some(vec![u128::MAX]),
        }
    );
    let b = body("atom.global.add.L2::cache_hint.s32  d, [0x40], -1, 0x1234;");
    assert!(matches!(b, Body::PtxAtom { cache_hint: Some(0x1234), ty: PtxType::S32, ref b, .. } if b == &vec![0xffff_ffff]));
    let b = body("atom.add.noftz.f16x2 d, [4], {1.0, -2.0};");
    assert!(matches!(b, Body::PtxAtom { ty: PtxType::F16x2, ref b, .. } if b == &vec![0xc000_3c00]));
    let b = body("atom.add.noftz.bf16x2 d, [4], 0x3f80bf80");
    assert!(matches!(b, Body::PtxAtom { ty: PtxType::BF16x2, ref b, .. } if b == &vec![0x3f80_bf80]));
    let b = body("atom.global.cas.b16 hd, [6], 0xffff, -1;");
    assert!(matches!(b, Body::PtxAtom { ty: PtxType::B16, ref b, c: Some(ref c), .. } if b == &vec![0xffff] && c == &vec![0xffff]));
    let b = body("atom.global.cas.L2::cache_hint.b32 d, [0], 1, 2, 0x55;");
    assert!(matches!(b, Body::PtxAtom { cache_hint: Some(0x55), c: Some(ref c), .. } if c == &vec![2]));
    // V0 and _ discard
    assert_eq!(last_msg("atom.exch.b64 V0, [8], 5").dst, None);
    assert_eq!(last_msg("atom.exch.b64 _, [8], 5").dst, None);
}

#[test]
fn ptx_vector_forms() {
    let m = last_msg("atom.global.v8.f16.max.noftz {a0, a1, a2, a3, a4, a5, a6, a7}, [0x100], {1.0, 2.0, 0, -0.0, inf, -inf, nan, 0x1234};");
    assert_eq!(m.dst.as_deref(), Some("{a0, a1, a2, a3, a4, a5, a6, a7}"));
    let halves: [u128; 8] = [0x3c00, 0x4000, 0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x1234];
    let joined = halves.iter().enumerate().fold(0u128, |acc, (i, h)| acc | (h << (16 * i)));
    assert!(matches!(m.body, Body::PtxAtom { vec: 8, ty: PtxType::F16, op: PtxOp::Max, noftz: true, ref b, .. } if b == &vec![joined]));
    assert_eq!(m.result_width(), 128);
    let b = body("atom.global.v4.f32.add d, [0x10], {1.0, 2.0, 3.0, 4.0}");
    let f = [0x3f80_0000u128, 0x4000_0000, 0x4040_0000, 0x4080_0000];
    assert!(matches!(b, Body::PtxAtom { vec: 4, ref b, .. } if b[0] == f[0] | f[1] << 32 | f[2] << 64 | f[3] << 96));
    let b = body("atom.global.v2.bf16x2.max.noftz d, [8], {{1.0, 2.0}, 0x00010002}");
    assert!(matches!(b, Body::PtxAtom { vec: 2, ref b, .. } if b[0] == 0x4000_3f80 | (0x0001_0002 << 32)));
    // warp form with vector lanes
    let m = last_msg("atom.global.v2.f32.add (2) d, [0x0 0x8], [{1.0, 2.0} {3.0, 4.0}];");
    assert_eq!((m.exec_size, m.mask_ctrl), (2, MaskCtrl::M1));
    assert!(matches!(m.body, Body::PtxAtom { ref b, .. } if b == &vec![f[0] | f[1] << 32, f[2] | f[3] << 32]));
}

#[test]
fn ptx_warp_form() {
    let m = last_msg("pred p = 0b1011\ndmask 0x70\n@p atom.shared::cta.cas.b32 (M2, 4) old, [0 4, 8 12], [1 2 3 4], [5 6 7 8];");
    assert_eq!(
        m,
        Message {
            line: 3,
            exec_size: 4,
            mask_ctrl: MaskCtrl { group: 1, no_mask: false },
            pred: Some(PredRef { name: "p".into(), negate: false, mask: 0b1011 }),
            dmask: 0x70,
            dst: Some("old".into()),
            body: Body::PtxAtom {
                sem: None,
                scope: None,
                space: PtxSpace::SharedCta,
                op: PtxOp::Cas,
                noftz: false,
                cache_hint: None,
                vec: 1,
                ty: PtxType::B32,
                addrs: vec![0, 4, 8, 12],
                b: vec![1, 2, 3, 4],
                c: Some(vec![5, 6, 7, 8]),
            },
        }
    );
    assert_eq!(m.lane_enables(), 0b0011);
    let b = body("atom.global.add.L2::cache_hint.u64 (M1_NM, 2) V0, [0x100, 0x200+8], [1, -1], 77");
    assert!(matches!(b, Body::PtxAtom { cache_hint: Some(77), ref addrs, ref b, .. } if addrs == &vec![0x100, 0x208] && b == &vec![1, u64::MAX as u128]));
}

/// One literal of a PTX type and its bits.
fn ptx_literal(ty: PtxType, k: u128) -> (String, u128) {
    match ty {
        PtxType::F16 => ("1.5".into(), 0x3e00),
        PtxType::BF16 => ("1.5".into(), 0x3fc0),
        PtxType::F32 => ("1.5".into(), 0x3fc0_0000),
        PtxType::F64 => ("1.5".into(), 0x3ff8_0000_0000_0000),
        PtxType::F16x2 => ("{1.5, -1.5}".into(), 0xbe00_3e00),
        PtxType::BF16x2 => ("{1.5, -1.5}".into(), 0xbfc0_3fc0),
        PtxType::B128 => (format!("{{{k}, 1}}"), k | 1 << 64),
        PtxType::S32 | PtxType::S64 => (format!("-{k}"), (k as i128).wrapping_neg() as u128 & ty.elem_type().mask()),
        _ => (k.to_string(), k),
    }
}

#[test]
fn every_ptx_op_and_type_through_the_op_table() {
    let spaces = [("", PtxSpace::Generic), (".global", PtxSpace::Global), (".shared", PtxSpace::Shared), (".shared::cta", PtxSpace::SharedCta), (".shared::cluster", PtxSpace::SharedCluster)];
    let mut accepted = 0;
    for row in PTX_OPS.iter() {
        for ty in PtxType::ALL {
            let half = matches!(ty, PtxType::F16 | PtxType::BF16 | PtxType::F16x2 | PtxType::BF16x2);
            let noftz = if half { ".noftz" } else { "" };
            for (space_text, space) in spaces {
                let (b_text, b_bits) = ptx_literal(ty, 3);
                let (c_text, c_bits) = ptx_literal(ty, 5);
                let c = if row.has_c { format!(", {c_text}") } else { String::new() };
                let text = format!("atom{space_text}.{}{noftz}.{} d, [0x100], {b_text}{c};", row.name, ty.name());
                let legal = row.scalar_types.contains(&ty);
                match parse("t", &text) {
                    Ok(p) => {
                        assert!(legal, "{text}");
                        assert_eq!(
                            p.messages().next().unwrap().body,
                            Body::PtxAtom {
                                sem: None, scope: None, space, op: row.op, noftz: half, cache_hint: None, vec: 1, ty,
                                addrs: vec![0x100], b: vec![b_bits], c: row.has_c.then(|| vec![c_bits]),
                            },
                            "{text}"
                        );
                        accepted += 1;
                    }
                    Err(d) => assert!(!legal, "{text}: {d}"),
                }
            }
            for vec in [2u8, 4, 8] {
                for (space_text, space) in spaces {
                    let (e_text, e_bits) = ptx_literal(ty, 3);
                    let b_text = format!("{{{}}}", vec![e_text.as_str(); vec as usize].join(", "));
                    let bits = ty.elem_type().bits();
                    let b_bits = (0..vec as u32).fold(0u128, |acc, i| acc | e_bits.checked_shl(i * bits).unwrap_or(0));
                    let text = format!("atom{space_text}.{}{noftz}.v{vec}.{} d, [0x100], {b_text};", row.name, ty.name());
                    let vec_ok = if matches!(ty, PtxType::F16 | PtxType::BF16) { true } else { vec != 8 };
                    let legal = row.vector_types.contains(&ty) && vec_ok && !space.is_shared();
                    match parse("t", &text) {
                        Ok(p) => {
                            assert!(legal, "{text}");
                            assert!(matches!(p.messages().next().unwrap().body, Body::PtxAtom { vec: v, ref b, .. } if v == vec && b == &vec![b_bits]), "{text}");
                            accepted += 1;
                        }
                        Err(d) => assert!(!legal, "{text}: {d}"),
                    }
                }
            }
        }
    }
    // scalar rows: and/or/xor 2 types each, cas 4, exch 3, add 10, inc 1, dec 1, min/max 4: 33 x 5 spaces;
    // vectors: add f32 (2 sizes) + f16/bf16 (3) x2 + f16x2/bf16x2 (2) x2 = 12, min/max 10 each: 32 x 2 spaces
    assert_eq!(accepted, 33 * 5 + 32 * 2);
}

#[test]
fn ptx_noftz_is_required_exactly_on_the_half_types() {
    assert!(parse("t", "atom.add.f16 d, [0], 1.0").is_err());
    assert!(parse("t", "atom.add.noftz.f32 d, [0], 1.0").is_err());
    assert!(parse("t", "atom.global.v2.f32.add.noftz d, [0], {1.0, 2.0}").is_err());
    assert!(parse("t", "atom.global.v2.f16x2.min d, [0], {0x0, 0x0}").is_err());
    assert!(parse("t", "atom.global.v2.f16x2.min.noftz d, [0], {0x0, 0x0}").is_ok());
}

// ---------------------------------------------------------- errors

#[test]
fn malformed_input_is_reported_at_the_offending_token() {
    let cases: &[(&str, usize, usize, &str)] = &[
        // lexical / statement level
        ("frobnicate 1 2", 1, 1, "unknown statement"),
        ("surface 1 buffer base=0x100e size=64", 1, 23, "not aligned to 4 bytes"),
        ("surface 2 2d base=0x2002 width=4 height=2 format=u32", 1, 19, "not aligned to 4 bytes"),
        ("mem.u32 0x10 = 1\nmem.u24 0 = 1", 2, 5, "unknown element type `u24`"),
        ("mem.u8 0 = 256", 1, 12, "does not fit 8 bits"),
        ("mem.s8 0 = -129", 1, 12, "signed 8-bit range"),
        ("mem.u32 0 =", 1, 12, "at least one value"),
        ("mem.f32 0 = 1.2.3", 1, 13, "not a float literal"),
        ("mem.f16 0 = -0x3c00", 1, 13, "cannot be negative"),
        ("mem.f16 0 = 0x13c00", 1, 13, "do not fit f16"),
        ("mem.u8 0xffffffffffffffff = 1 2", 1, 8, "64-bit address space"),
        ("slm size 16\nslm.u32 12 = 1 2", 2, 9, "past the SLM size"),
        ("slm size 16\nslm size 32", 2, 1, "already set on line 1"),
        ("slm size 0x2000000", 1, 10, "larger than"),
        ("slm 4", 1, 5, "slm size <bytes>"),
        ("dump 0 0", 1, 8, "dump length"),
        ("dump slm 0x10000 1", 1, 10, "past the SLM size"),
        ("dump 0 8 9", 1, 10, "unexpected `9`"),
        ("pred 9p = 1", 1, 6, "not a predicate name"),
        ("pred p 1", 1, 8, "expected `=`"),
        ("pred p = 0x100000000", 1, 10, "does not fit 32 bits"),
        ("dmask 0b2", 1, 7, "bad digit"),
        // surfaces
        ("surface 0 buffer base=0 size=4", 1, 9, "built in"),
        ("surface 300 buffer base=0 size=4", 1, 9, "out of range"),
        ("surface 2 buffer base=0 size=4\nsurface 2 1d base=0 width=1 format=u32", 2, 9, "already defined on line 1"),
        ("surface 2 1d base=0 width=4 height=2 format=u32", 1, 29, "takes no `height=`"),
        ("surface 2 1d_array base=0 width=4 format=u32", 1, 45, "needs `array=`"),
        ("surface 2 2d base=0 width=4 format=u32 width=5", 1, 40, "given twice"),
        ("surface 2 2d base=0 width=0 format=u32", 1, 27, "at least 1"),
        ("surface 2 2d base=0 width=4 format=u8", 1, 36, "unknown format"),
        ("surface 2 cube base=0", 1, 11, "unknown surface kind"),
        ("surface 2 buffer base=0xffffffffffffff00 size=0x200", 1, 23, "64-bit address space"),
        // vISA header
        ("SVM_ATOMIC.foo (1) [0] d [1] V0", 1, 12, "unknown atomic op `foo`"),
        ("SVM_ATOMIC (1) [0] d [1] V0", 1, 11, "expected `.<op>`"),
        ("DWORD_ATOMIC.add.64 (1) T0 [0] [1] V0 d", 1, 18, "no .64 form"),
        ("SVM_ATOMIC.fmax.64 (1) [0] d [1.0] V0", 1, 17, "no 64-bit form"),
        ("SVM_ATOMIC.add.32 (1) [0] d [1] V0", 1, 16, "no `.32` suffix"),
        ("SVM_ATOMIC.add.16.16 (1) [0] d [1] V0", 1, 19, "second width suffix"),
        ("SVM_ATOMIC.add (16) [0] d [1] V0", 1, 17, "exec size 16 is not legal for SVM_ATOMIC"),
        ("SVM_ATOMIC.add (M9, 1) [0] d [1] V0", 1, 17, "not a mask control"),
        ("SVM_ATOMIC.add (M1 1) [0] d [1] V0", 1, 20, "expected `,`"),
        ("SVM_ATOMIC.add 1 [0] d [1] V0", 1, 16, "execution size"),
        // vISA operands
        ("SVM_ATOMIC.inc (2) [0 4] d [1 1] V0", 1, 28, "src0 of INC must be V0 (seed SVM_ATOMIC.md, Src0)"),
        ("DWORD_ATOMIC.dec (1) T0 [0] [1] V0 d", 1, 29, "src0 of DEC must be V0 (seed DWORD_ATOMIC.md, Src0)"),
        ("DWORD_ATOMIC.predec (1) T0 [0] [1] V0 d", 1, 32, "src0 of PREDEC must be V0"),
        ("DWORD_ATOMIC.add (1) T0 [0] [1] [2] d", 1, 33, "src1 of ADD must be V0"),
        ("DWORD_ATOMIC.cmpxchg (1) T0 [0] [1] V0 d", 1, 37, "src1 of CMPXCHG must be a lane vector"),
        ("SVM_ATOMIC.add (1) [0] d V0 V0", 1, 26, "src0 of ADD must be a lane vector"),
        ("SVM_ATOMIC.add (4) [0 4 8] d [1 1 1 1] V0", 1, 20, "has 3 element(s); exec size 4 needs exactly 4"),
        ("SVM_ATOMIC.add (2) [0 4] d [1 1 1] V0", 1, 28, "has 3 element(s)"),
        ("SVM_ATOMIC.add (2) [0 6] d [1 1] V0", 1, 23, "not aligned to 4 bytes"),
        ("SVM_ATOMIC.add.64 (1) [4] d [1] V0", 1, 24, "not aligned to 8 bytes"),
        ("DWORD_ATOMIC.add.16 (1) T0 [1] [1] V0 d", 1, 29, "not aligned to 2 bytes"),
        ("SVM_ATOMIC.add (1) [-8] d [1] V0", 1, 21, "must not be negative"),
        ("SVM_ATOMIC.add (2) [0 4] d [1 4294967296] V0", 1, 31, "does not fit 32 bits"),
        ("SVM_ATOMIC.add (1) [0] d [-2147483649] V0", 1, 27, "does not fit 32 bits"),
        // past 128 bits too, the slot's width is what the value misses
        ("SVM_ATOMIC.add (1) [0] d [12345678901234567890123456789012345678901234] V0", 1, 27, "does not fit 32 bits"),
        ("SVM_ATOMIC.imax (1) [0] d [-12345678901234567890123456789012345678901234] V0", 1, 28, "does not fit 32 bits"),
        ("SVM_ATOMIC.add (1) [123456789012345678901234567890123456789012345] d [1] V0", 1, 21, "does not fit 64 bits"),
        ("SVM_ATOMIC.imax (1) [0] d [2147483648] V0", 1, 28, "signed 32-bit range"),
        ("SVM_ATOMIC.fmin (1) [0] d [1.0x] V0", 1, 28, "not a float literal"),
        ("SVM_ATOMIC.add (1) [0] d [1.5] V0", 1, 27, "not an integer literal"),
        ("SVM_ATOMIC.add (1) [0 d [1] V0", 1, 25, "unexpected `[`"),
        ("SVM_ATOMIC.add (1) [0] 5d [1] V0", 1, 24, "not a result name"),
        ("SVM_ATOMIC.add (1) [0] d [1] V0 extra", 1, 33, "unexpected `extra`"),
        ("SVM_ATOMIC.add (1) [0] d [1]", 1, 29, "expected src1"),
        ("SVM_ATOMIC.add (1) [0,,4] d [1] V0", 1, 23, "unexpected `,`"),
        ("pred p = 1\n(q) SVM_ATOMIC.add (1) [0] d [1] V0", 2, 2, "predicate `q` is not defined"),
        ("(p) atom.add.u32 d, [0], 1\npred p = 1", 1, 2, "not defined"),
        ("pred p = 1\n(p) atom.add.u32 d, [0], 1", 2, 5, "predicated with `@p`"),
        ("pred p = 1\n@p SVM_ATOMIC.add (1) [0] d [1] V0", 2, 4, "vISA messages take `(p)`"),
        // DWORD / TYPED surfaces
        ("DWORD_ATOMIC.add (1) 4 [0] [1] V0 d", 1, 22, "surface 4 is not defined"),
        ("surface 4 2d base=0 width=4 format=u32\nDWORD_ATOMIC.add (1) 4 [0] [1] V0 d", 2, 22, "typed surface; DWORD_ATOMIC needs a buffer"),
        ("DWORD_ATOMIC.add (1) T256 [0] [1] V0 d", 1, 22, "is not a surface"),
        ("surface 4 2d base=0 width=4 format=u32\nTYPED_ATOMIC.add (4) 4 [0 0 0 0] [0 0 0 0] V0 V0 [1 1 1 1] V0 d", 2, 19, "TYPED_ATOMIC (legal: 8"),
        ("TYPED_ATOMIC.fmax (8) 4 [0 0 0 0 0 0 0 0] V0 V0 V0 V0 V0 d", 1, 14, "FMAX is not a TYPED_ATOMIC op"),
        ("surface 4 1d base=0 width=4 format=u32\nTYPED_ATOMIC.add.16 (8) 4 [0 0 0 0 0 0 0 0] V0 V0 V0 [1 1 1 1 1 1 1 1] V0 d", 2, 25, "needs a format=u16 surface"),
        ("surface 4 1d base=0 width=4 format=u16\nTYPED_ATOMIC.add (8) 4 [0 0 0 0 0 0 0 0] V0 V0 V0 [1 1 1 1 1 1 1 1] V0 d", 2, 22, "needs format=u32"),
        ("surface 4 buffer base=0 size=4\nTYPED_ATOMIC.add (8) 4 [0 0 0 0 0 0 0 0] V0 V0 V0 [1 1 1 1 1 1 1 1] V0 d", 2, 22, "is a buffer"),
        ("TYPED_ATOMIC.add (8) T0 [0 0 0 0 0 0 0 0] V0 V0 V0 [1 1 1 1 1 1 1 1] V0 d", 1, 22, "built-in T0"),
        ("surface 4 1d base=0 width=4 format=u32\nTYPED_ATOMIC.add (8) 4 V0 V0 V0 V0 [1 1 1 1 1 1 1 1] V0 d", 2, 24, "X pixel address"),
        // scatter
        ("SVM_SCATTER.1.8 (8) [0 1 2 3 4 5 6 7] [0]", 1, 15, "8 blocks of 1 byte are rejected"),
        ("SVM_SCATTER.4.8 (4) [0 4 8 12] [0]", 1, 15, "only valid for 4-byte blocks at exec size 8"),
        ("SVM_SCATTER.2.1 (1) [0] [0]", 1, 13, "block size `2`"),
        ("SVM_SCATTER.4.3 (1) [0] [0]", 1, 15, "block count `3`"),
        ("SVM_SCATTER.4 (1) [0] [0]", 1, 14, "expected `.<num_blocks>`"),
        ("SVM_SCATTER.4.1 (32) [0] [0]", 1, 18, "exec size 32 is not legal for SVM_SCATTER"),
        ("SVM_SCATTER.4.2 (2) [0 4] [1 2 3]", 1, 27, "has 3 element(s); exec size 2 x 2 block(s) needs exactly 4"),
        ("SVM_SCATTER.1.1 (1) [0] [1 2 3 256]", 1, 32, "does not fit 8 bits"),
        ("SVM_SCATTER.8.1 (1) [4] [1]", 1, 22, "not aligned to 8 bytes"),
        ("SVM_SCATTER.4.1 (1) [0] [1] d", 1, 29, "unexpected `d`"),
        // PTX
        ("atom.add.f16 d, [0], 1.0;", 1, 10, "requires .noftz"),
        ("atom.add.noftz.u32 d, [0], 1;", 1, 10, ".noftz is only for"),
        ("atom.shared.v2.f32.add d, [0], {1.0, 2.0};", 1, 6, "only for .global or generic"),
        ("atom.global.v4.b16x2.min.noftz d, [0], {0, 0, 0, 0};", 1, 16, "`.b16x2` is not a PTX atom type"),
        ("atom.shared.add.L2::cache_hint.u32 d, [0], 1, 5;", 1, 17, ".L2::cache_hint is only for .global"),
        ("atom.global.inc.u64 d, [0], 1;", 1, 17, "atom.inc takes .u32"),
        ("atom.global.min.f16.noftz d, [0], 1.0;", 1, 17, "exists only in the vector forms"),
        ("atom.global.v8.f32.add d, [0], {1.0};", 1, 13, ".v8 is not a vector size for .f32"),
        ("atom.global.v2.u32.add d, [0], {1, 2};", 1, 13, "no vector form of atom.add.u32"),
        ("atom.global.shared.add.u32 d, [0], 1;", 1, 13, "a second .space qualifier"),
        ("atom.add.add.u32 d, [0], 1;", 1, 10, "a second .op qualifier"),
        ("atom.global.add.u32.foo d, [0], 1;", 1, 21, "unknown atom qualifier `.foo`"),
        ("atom.global.u32 d, [0], 1;", 1, 16, "needs an operation"),
        ("atom.global.add d, [0], 1;", 1, 16, "needs a type"),
        ("atom.global.cas.b32 d, [0], 1;", 1, 30, "atom.cas takes d, [a], b, c"),
        ("atom.global.add.u32 d, [0], 1, 2;", 1, 30, "needs .L2::cache_hint"),
        ("atom.global.add.L2::cache_hint.u32 d, [0], 1;", 1, 45, "needs the cache-policy operand"),
        ("atom.global.cas.L2::cache_hint.b16 d, [0], 1, 2, 3;", 1, 17, "takes no .L2::cache_hint"),
        ("atom.global.add.u32 d, [2], 1;", 1, 25, "not aligned to 4 bytes"),
        ("atom.global.v4.f32.add d, [8], {1.0, 2.0, 3.0, 4.0};", 1, 28, "not aligned to 16 bytes (the whole .v4.f32 access)"),
        ("atom.global.v4.f32.add d, [0], {1.0, 2.0, 3.0};", 1, 32, "has 3 element(s); .v4 needs exactly 4"),
        ("atom.global.v2.f32.add {a, b, c}, [0], {1.0, 2.0};", 1, 24, "d has 3 name(s)"),
        ("atom.global.add.u32 {a, b}, [0], 1;", 1, 21, "only for vector forms"),
        ("atom.add.noftz.f16x2 d, [0], 1.0;", 1, 30, "`{lo, hi}` or 32-bit raw hex"),
        ("atom.add.noftz.f16x2 d, [0], {1.0};", 1, 30, "two elements, not 1"),
        ("atom.global.add.s32 d, [0], 2147483648;", 1, 29, "signed 32-bit range"),
        ("atom.global.add.u32 (3) d, [0 4 8], [1 1 1];", 1, 22, "exec size 3 is not legal for the PTX warp form"),
        ("atom.global.add.u32 (4) d, [0 4 8], [1 1 1 1];", 1, 28, "the addresses has 3 element(s)"),
        ("atom.global.add.u32 (2) d, [0 4], [1 1 1];", 1, 35, "b has 3 element(s)"),
        ("atom.global.add.u32 (2) d, [0 4], 1;", 1, 35, "b as a lane vector"),
        ("atom.global.add.u32 d, [0xffffffffffffffff+4], 1;", 1, 25, "does not fit 64 bits"),
        ("atom.global.add.u32 d, [0], 1; x", 1, 32, "unexpected `x`"),
        ("atom.global.add.u32 d [0], 1;", 1, 23, "expected `,` after d"),
        ("atom.global.add.f32 d, [0], 1e;", 1, 29, "not a float literal"),
        ("atom.global.exch.b128 d, [0], {1, 2, 3};", 1, 31, "two elements, not 3"),
        ("@ atom.add.u32 d, [0], 1", 1, 3, "expected a predicate name, found `atom.add.u32`"),
        ("] x", 1, 1, "a statement starts with"),
    ];
    let mut failures = Vec::new();
    for (text, line, col, phrase) in cases {
        match parse("t.s", text) {
            Ok(_) => failures.push(format!("accepted: {text}")),
            Err(d) if (d.line, d.col) != (*line, *col) || !d.msg.contains(phrase) => {
                failures.push(format!("want {line}:{col} `{phrase}`\n  got  {d}\n  for  {text:?}"))
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    assert!(cases.len() >= 100);
}

#[test]
fn the_first_error_wins() {
    let text = "mem.u32 0 = 1\nSVM_ATOMIC.inc (1) [0] d [1] V0\nmem.u8 0 = 999\nsurface 1 bogus";
    bad(text, 2, 26, "src0 of INC");
    // a broken global statement further down does not hide an earlier error,
    // and an earlier valid use of a surface defined later stays valid
    let text = "DWORD_ATOMIC.add (1) 5 [0] [1] V0 d\nsurface 6 buffer base=0\nsurface 5 buffer base=0 size=4";
    bad(text, 2, 24, "needs `size=`");
}

#[test]
fn unreadable_file_is_a_diag_at_1_1() {
    let d = parse_file("/nonexistent/dir/x.s").unwrap_err();
    assert_eq!((d.file.as_str(), d.line, d.col), ("/nonexistent/dir/x.s", 1, 1));
    assert!(d.msg.contains("cannot read"));
    assert_eq!(d.to_string().split(": error: ").next(), Some("/nonexistent/dir/x.s:1:1"));
}

// ---------------------------------------------------------- floats

#[test]
fn float_literals_f16() {
    let h = |s: &str| float_bits(s, ElemType::F16).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(h("1.0"), 0x3c00);
    assert_eq!(h("-2"), 0xc000);
    assert_eq!(h("-0.0"), 0x8000);
    assert_eq!(h("0.1"), 0x2e66);
    assert_eq!(h("6.1e-5"), 0x03ff); // just below the smallest normal: subnormal
    assert_eq!(h("6.103515625e-05"), 0x0400); // smallest normal
    assert_eq!(h("65504"), 0x7bff);
    assert_eq!(h("65519.99"), 0x7bff);
    assert_eq!(h("65520"), 0x7c00); // halfway to 2^16 rounds to even = inf
    assert_eq!(h("1e10"), 0x7c00);
    // 1 + 2^-11 is halfway between 0x3c00 and 0x3c01: ties to even
    assert_eq!(h("1.00048828125"), 0x3c00);
    assert_eq!(h("1.00146484375"), 0x3c02); // 1 + 3*2^-11: ties up to even
    // just above a tie by less than f64 can hold: rounding through f64 would give the tie
    assert_eq!(h("1.00048828125000000001"), 0x3c01);
    assert_eq!(h("1.00048828124999999999"), 0x3c00);
    // subnormals: 2^-24 is the smallest, 2^-25 is halfway to zero (ties to even = 0)
    assert_eq!(h("5.9604644775390625e-8"), 0x0001);
    assert_eq!(h("2.98023223876953125e-8"), 0x0000);
    assert_eq!(h("2.98023223876953125000001e-8"), 0x0001);
    assert_eq!(h("-8.940696716308594e-8"), 0x8002); // 1.5 * 2^-24 ties up to even 2
    assert_eq!(h("inf"), 0x7c00);
    assert_eq!(h("-INF"), 0xfc00);
    assert_eq!(h("nan"), 0x7e00);
    assert_eq!(h("-nan"), 0xfe00);
    assert_eq!(h("0x7c01"), 0x7c01); // raw bits: a signaling NaN stays as written
}

#[test]
fn float_literals_bf16() {
    let b = |s: &str| float_bits(s, ElemType::BF16).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(b("1.0"), 0x3f80);
    assert_eq!(b("0.1"), 0x3dcd);
    // 1 + 2^-8 is halfway between 0x3f80 and 0x3f81: ties to even (down)
    assert_eq!(b("1.00390625"), 0x3f80);
    // 1 + 3*2^-8 is halfway between 0x3f81 and 0x3f82: ties to even (up)
    assert_eq!(b("1.01171875"), 0x3f82);
    // double-rounding traps
    assert_eq!(b("1.00390625000000000001"), 0x3f81);
    assert_eq!(b("1.01171874999999999999"), 0x3f81);
    assert_eq!(b("-1.00390625"), 0xbf80);
    // largest finite, and the halfway point above it rounds to inf
    assert_eq!(b("3.3895313892515355e38"), 0x7f7f);
    assert_eq!(b("3.3961e38"), 0x7f7f); // below the halfway point (2 - 2^-8) * 2^127 = 3.39617...e38
    assert_eq!(b("3.3962e38"), 0x7f80);
    // subnormals: 2^-133 is the smallest
    assert_eq!(b("9.183549615799121e-41"), 0x0001);
    // 2^-134 exactly is halfway to zero: ties to even = 0; the 17-digit decimal is just above it
    assert_eq!(b("4.591774807899560578002877098524397178979162331140966880893561352650067419745028018951416015625e-41"), 0x0000);
    assert_eq!(b("4.5917748078995606e-41"), 0x0001);
    // 1.5 * 2^-133 exactly: ties to even = 2
    assert_eq!(b("1.3775324423698681734008631295573191536937486993422900642680684057950202259235084056854248046875E-40"), 0x0002);
    assert_eq!(b("1.1754943508222875e-38"), 0x0080); // smallest normal 2^-126
    assert_eq!(b("inf"), 0x7f80);
    assert_eq!(b("-inf"), 0xff80);
    assert_eq!(b("nan"), 0x7fc0);
    assert_eq!(b("0xffff"), 0xffff);
}

#[test]
fn float_literals_f32_f64_and_errors() {
    assert_eq!(float_bits("0.1", ElemType::F32), Ok(0x3dcc_cccd));
    assert_eq!(float_bits("1.4e-45", ElemType::F32), Ok(1));
    assert_eq!(float_bits("3.4028235e38", ElemType::F32), Ok(0x7f7f_ffff));
    assert_eq!(float_bits("1e39", ElemType::F32), Ok(0x7f80_0000));
    assert_eq!(float_bits("nan", ElemType::F32), Ok(0x7fc0_0000));
    assert_eq!(float_bits("0x7fc00000", ElemType::F32), Ok(0x7fc0_0000));
    assert_eq!(float_bits("0.1", ElemType::F64), Ok(0x3fb9_9999_9999_999a));
    assert_eq!(float_bits("-nan", ElemType::F64), Ok(0xfff8_0000_0000_0000));
    assert_eq!(float_bits("5e-324", ElemType::F64), Ok(1));
    assert_eq!(float_bits(".5", ElemType::F64), Ok(0x3fe0_0000_0000_0000));
    assert_eq!(float_bits("2.", ElemType::F64), Ok(0x4000_0000_0000_0000));
    assert_eq!(float_bits("1E+2", ElemType::F32), Ok(0x42c8_0000));
    for bad in ["", "-", "1e", "1e+", "e5", "1.2.3", "--1", "+1", "abc", "1_0", "0x", "infinity", "0b1", "1,0", ".", "-.e1"] {
        assert!(float_bits(bad, ElemType::F32).is_err(), "`{bad}` accepted");
    }
    assert!(float_bits("0x100000000", ElemType::F32).unwrap_err().contains("do not fit f32"));
    assert!(float_bits("-0x1", ElemType::F32).unwrap_err().contains("cannot be negative"));
    assert!(float_bits("1.0", ElemType::B32).is_err());
}

// ---------------------------------------------------------- robustness

#[test]
fn random_garbage_never_panics() {
    use rand::{Rng, SeedableRng};
    let seed = std::env::var("ATOMPORT_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5c41_7a11u64);
    eprintln!("random_garbage_never_panics: seed {seed}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let vocab = [
        "mem.u32", "mem.f16", "slm.u8", "slm", "size", "surface", "buffer", "2d", "1d_array", "3d", "base=0", "width=4",
        "format=u32", "array=", "pred", "p", "dmask", "dump", "SVM_ATOMIC.add", "SVM_ATOMIC.cmpxchg.64", "DWORD_ATOMIC.inc.16",
        "TYPED_ATOMIC.and", "SVM_SCATTER.4.2", "SVM_SCATTER.1", "atom", "atom.global.add.u32", "atom.shared.b128.cas",
        "atom.global.v8.f16.max.noftz", "atom.add.noftz.f16x2", "@p", "@!p", "(p)", "(!p)", "(", ")", "[", "]", "{", "}",
        ",", ";", "=", "+", "!", "@", "V0", "_", "T0", "T255", "M1_NM", "M9", "0", "1", "-1", "4", "8", "0x1000", "0x",
        "0b101", "1.5", "-inf", "nan", "1e", "99999999999999999999999999999999999999999999", "-0x8000", "d", "%r0", "#", "//",
        "\u{e9}", "\u{1F600}", "\t",
    ];
    let valid = [
        "pred p = 0b1111",
        "surface 2 2d base=0x1000 width=4 height=4 format=u32",
        "mem.u32 0x100 = 1 2 3 4",
        "SVM_ATOMIC.add (4) [0x100 0x104 0x108 0x10c] d [1 2 3 4] V0",
        "(p) DWORD_ATOMIC.cmpxchg (M1_NM, 2) T0 [0 4] [1 2] [3 4] d",
        "TYPED_ATOMIC.add (8) 2 [0 1 2 3 0 1 2 3] [0 0 0 0 1 1 1 1] V0 V0 [1 1 1 1 1 1 1 1] V0 d",
        "SVM_SCATTER.1.2 (2) [0x10 0x20] [1 2 3 4 5 6 7 8]",
        "@p atom.global.v2.f16x2.min.noftz (2) d, [0x0 0x8], [{{1.0, 2.0} 0x0} {0x1 0x2}];",
        "atom.shared.b128.cas d, 0x10, {1, 2}, 3;",
        "dump slm 0 16",
    ];
    let (mut accepted, mut rejected) = (0, 0);
    let mut count = |r: Result<Program, Diag>, text: &str| match r {
        Ok(_) => accepted += 1,
        Err(d) => {
            assert!(d.line >= 1 && d.line <= text.lines().count().max(1), "{d}");
            assert!(d.col >= 1, "{d}");
            rejected += 1;
        }
    };
    // ATOMPORT_FUZZ_ITERS=100000 for a longer run
    let iters: usize = std::env::var("ATOMPORT_FUZZ_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    for _ in 0..iters {
        // token soup
        let n = rng.gen_range(0..14);
        let line: Vec<&str> = (0..n).map(|_| vocab[rng.gen_range(0..vocab.len())]).collect();
        let sep = if rng.gen_bool(0.5) { " " } else { "" };
        let text = line.join(sep);
        count(parse("f", &text), &text);
        // random bytes
        let bytes: Vec<u8> = (0..rng.gen_range(0..60)).map(|_| rng.gen()).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        count(parse("f", &text), &text);
        // a valid script with one line mutated at the character level
        let mut lines: Vec<String> = valid.iter().map(|s| s.to_string()).collect();
        let i = rng.gen_range(0..lines.len());
        let mut chars: Vec<char> = lines[i].chars().collect();
        for _ in 0..rng.gen_range(0..4) {
            let at = rng.gen_range(0..=chars.len());
            match rng.gen_range(0..3) {
                0 if at < chars.len() => {
                    chars.remove(at);
                }
                1 => chars.insert(at, "[]{}(),;=+!@.x0-_ 9"[..].chars().nth(rng.gen_range(0..19)).unwrap()),
                _ if at < chars.len() => chars[at] = char::from(rng.gen_range(32u8..127)),
                _ => {}
            }
        }
        lines[i] = chars.into_iter().collect();
        let text = lines.join("\n");
        count(parse("f", &text), &text);
    }
    // the generator reaches both outcomes (the test would catch a parser that rejects everything)
    assert!(accepted > 100 && rejected > 1000, "accepted {accepted}, rejected {rejected}");
    assert!(parse("f", &valid.join("\n")).is_ok());
}

// ---------------------------------------------------------- round trip, files

/// Scripts that cover every message kind and form, for the round trip.
fn corpus() -> Vec<String> {
    let mut scripts: Vec<String> = vec![
        "pred p = 0b0101\ndmask 0xff\n(p) SVM_ATOMIC.add (4) [0x1000 0x1004 0x1008 0x100c] d0 [1 2 3 -1] V0".into(),
        "pred p = 1\n(!p) svm_atomic.CMPXCHG.64 (M2_NM, 2) [0x2000, 0x2008] old [-1 0xffffffffffffffff] [5,6]".into(),
        "DWORD_ATOMIC.fcmpwr.16 (2) 7 [0 2] [1.0 0x12343c00] [nan -0.0] r\nsurface 7 buffer base=0 size=16".into(),
        "surface 8 3d base=0 width=4 height=4 depth=4 levels=2 format=u16\nTYPED_ATOMIC.imax.16 (M3_NM, 8) T8 [0 1 2 3 0 1 2 3] [0 0 0 0 1 1 1 1] [3 3 3 3 3 3 3 3] [0 0 0 0 1 1 1 1] [-1 -2 -3 -4 5 6 7 0x8000] V0 V0".into(),
        "SVM_SCATTER.1.2 (2) [0x11 0x23] [1 2 0 0 -1 255 9 9]".into(),
        "pred q = 1\n@!q atom.global.acquire.sys.inc.u32 ans, [0x1000+4], 17;".into(),
        "atom.shared.b128.cas d, 0x10, {1, 2}, 0xffffffffffffffffffffffffffffffff;".into(),
        "atom.global.v8.f16.max.noftz {a0, a1, a2, a3, a4, a5, a6, a7}, [0x100], {1.0, 2.0, 0, -0.0, inf, -inf, nan, 0x1234};".into(),
        "atom.global.v2.bf16x2.max.noftz d, [8], {{1.0, 2.0}, 0x00010002}".into(),
        "atom.add.L2::cache_hint.noftz.f16x2 d, [4], {1.0, -2.0}, 99;".into(),
        "pred p = 0b1011\ndmask 0x70\n@p atom.shared::cta.cas.b32 (M2, 4) old, [0 4, 8 12], [1 2 3 4], [5 6 7 8];".into(),
        "atom.global.v2.f32.add (M1_NM, 1) d, [0x8], [{1.0, 2.0}];".into(),
        "atom.global.add.u32 (1) d, [0x8], [3];".into(),
    ];
    for row in VISA_OPS.iter() {
        for (suffix, width) in [("", 32u32), (".16", 16), (".64", 64)] {
            let (s0, _) = visa_src(row.src0, row.class, width, 4);
            let (s1, _) = visa_src(row.src1, row.class, width, 4);
            if !(row.class == Class::Float && width == 64) {
                scripts.push(format!("SVM_ATOMIC.{}{suffix} (M4, 4) [0x100 0x108 0x110 0x118] d {s0} {s1}", row.name));
            }
            if width == 64 {
                continue;
            }
            scripts.push(format!("DWORD_ATOMIC.{}{suffix} (16) T0 [0 8 16 24 0 8 16 24 0 8 16 24 0 8 16 24] {} {} V0", row.name,
                visa_src(row.src0, row.class, width, 16).0, visa_src(row.src1, row.class, width, 16).0));
        }
    }
    for row in PTX_OPS.iter() {
        for &ty in row.scalar_types.iter().chain(row.vector_types) {
            let noftz = if matches!(ty, PtxType::F16 | PtxType::BF16 | PtxType::F16x2 | PtxType::BF16x2) { ".noftz" } else { "" };
            let vec = if row.scalar_types.contains(&ty) { "" } else { ".v2" };
            let (b, _) = ptx_literal(ty, 7);
            let b = if vec.is_empty() { b } else { format!("{{{b}, {b}}}") };
            let c = if row.has_c { format!(", {b}") } else { String::new() };
            scripts.push(format!("atom.global.{}{noftz}{vec}.{} d, [0x100], {b}{c};", row.name, ty.name()));
            scripts.push(format!("atom.{}{noftz}{vec}.{} (2) d, [0x100 0x200], [{b} {b}]{};", row.name, ty.name(), if row.has_c { format!(", [{b} {b}]") } else { String::new() }));
        }
    }
    scripts
}

/// Every message printed by `crate::text::message_text` (the descriptor
/// work's canonical spelling) reads back to an equal Message.
#[test]
fn canonical_text_round_trips() {
    for script in corpus() {
        let p = ok(&script);
        let mut lines: Vec<String> = script.lines().map(String::from).collect();
        for m in p.messages() {
            lines[m.line - 1] = crate::text::message_text(m);
        }
        let again = parse("t.s", &lines.join("\n")).unwrap_or_else(|d| panic!("{d}\nprinted:\n{}\nfrom:\n{script}", lines.join("\n")));
        assert_eq!(again, p, "printed:\n{}\nfrom:\n{script}", lines.join("\n"));
    }
}

/// `core/tests/vectors/bad/*.atom`: each file's first line is
/// `# expect: LINE:COL <phrase>`.
#[test]
fn bad_vector_files_fail_where_they_say() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/bad");
    let mut files: Vec<_> = std::fs::read_dir(dir).expect("core/tests/vectors/bad").map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    for path in files {
        let path = path.to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let expect = text.lines().next().and_then(|l| l.strip_prefix("# expect: ")).unwrap_or_else(|| panic!("{path}: no `# expect:` line"));
        let (pos, phrase) = expect.split_once(' ').unwrap();
        let (line, col) = pos.split_once(':').unwrap();
        let d = parse_file(&path).expect_err(&path);
        assert_eq!((d.file.as_str(), d.line, d.col), (path.as_str(), line.parse().unwrap(), col.parse().unwrap()), "{d}");
        assert!(d.msg.contains(phrase), "{d}\nwant: {phrase}");
    }
}

/// The shipped example scripts parse.
#[test]
fn examples_parse() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "atom") {
            parse_file(path.to_str().unwrap()).unwrap_or_else(|d| panic!("{d}"));
        }
    }
}

/// diagnostics that say where and what, for every error.
#[test]
fn a_byte_order_mark_is_skipped_and_a_later_one_is_named() {
    let p = ok("\u{feff}mem.u32 0x100 = 1\ndump 0x100 4\n");
    assert_eq!(p.stmts.len(), 2);
    bad("mem.u32 0x100 = 1\nmem.u32 0x104 =\u{feff} 2\n", 2, 16, "invisible character U+FEFF (byte-order mark)");
}

#[test]
fn a_bad_byte_is_reported_at_its_own_line_and_column() {
    let d = parse_bytes("t.atom", b"mem.u32 0x100 = 1\nmem.u32 0x1\xff04 = 2\n").unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].line, d[0].col), (2, 12), "{}", d[0]);
    assert!(d[0].msg.contains("byte 0xff is not UTF-8"), "{}", d[0]);
    // a BOM before the bad byte on line 1 does not count as a column
    let d = parse_bytes("t.atom", b"\xef\xbb\xbfab\xc0").unwrap_err();
    assert_eq!((d[0].line, d[0].col), (1, 3), "{}", d[0]);
}

#[test]
fn a_nul_is_shown_by_name() {
    bad("mem.u32 0x100 = 1\0\n", 1, 18, "invisible character U+0000 (NUL)");
    bad("dmask 0x1\u{200b}\n", 1, 10, "U+200B (zero-width space)");
}

#[test]
fn symbolic_operands_ask_for_a_literal() {
    bad("atom.global.add.u32 d, [a], 1;", 1, 25, "`a`: symbolic operands are not supported: give a literal");
    bad("atom.global.add.u32 d, [0], %r0;", 1, 29, "`%r0`: symbolic operands are not supported: give a literal");
    bad("SVM_ATOMIC.add (1) [addr] d [1] V0", 1, 21, "`addr`: symbolic operands are not supported");
    bad("SVM_ATOMIC.fmin (1) [0] d [%f1] V0", 1, 28, "`%f1`: symbolic operands are not supported");
    // a literal with a bad digit keeps its own message
    bad("SVM_ATOMIC.add (1) [0x1g] d [1] V0", 1, 21, "bad digit `g`");
}

#[test]
fn every_independent_error_is_reported_in_line_order() {
    let text = "mem.u33 0 = 1\ndmask 0b12\nmem.u32 0x100 = 1\nSVM_ATOMIC.add (1) [0] d [x] V0\n";
    let d = parse_all("t.atom", text).unwrap_err();
    let at: Vec<(usize, usize)> = d.iter().map(|d| (d.line, d.col)).collect();
    assert_eq!(at, [(1, 5), (2, 7), (4, 27)], "{d:?}");
    assert!(d.iter().all(|d| d.to_string().starts_with(&format!("t.atom:{}:{}: error: ", d.line, d.col))));
    // parse() still gives the first
    assert_eq!(parse("t.atom", text).unwrap_err(), d[0]);
}

#[test]
fn errors_that_follow_from_a_broken_definition_are_not_repeated() {
    let text = "pred p = 0x1g\n(p) SVM_ATOMIC.add (1) [0] d [1] V0\nsurface 4 buffer base=3 size=16\nDWORD_ATOMIC.add (1) 4 [0] [1] V0 d\n(q) SVM_ATOMIC.add (1) [0] d [1] V0\n";
    let d = parse_all("t.atom", text).unwrap_err();
    let lines: Vec<usize> = d.iter().map(|d| d.line).collect();
    assert_eq!(lines, [1, 3, 5], "{d:?}");
    assert!(d[2].msg.contains("predicate `q` is not defined"), "{}", d[2]);
}

#[test]
fn the_error_count_is_capped() {
    let text = "bogus\n".repeat(MAX_ERRORS + 5);
    let d = parse_all("t.atom", &text).unwrap_err();
    assert_eq!(d.len(), MAX_ERRORS + 1);
    assert_eq!(d[MAX_ERRORS].line, MAX_ERRORS + 1);
    assert!(d[MAX_ERRORS].msg.contains("too many errors"), "{}", d[MAX_ERRORS]);
    // exactly the cap: no "too many" line
    let d = parse_all("t.atom", &"bogus\n".repeat(MAX_ERRORS)).unwrap_err();
    assert_eq!(d.len(), MAX_ERRORS);
}
