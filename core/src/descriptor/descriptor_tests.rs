//! Descriptor tests: hex <-> text pairs for every kind (rrs-lib style), the
//! payload byte layout, illegal encodings, and a seeded property test that
//! round-trips random messages of every kind through bytes and through text.

use super::*;
use crate::message::{DwordSurface, MaskCtrl, MsgKind, PtxScope, PtxSem, PtxSpace};
use crate::ops::{PtxOpInfo, PtxType, VisaOpInfo, VisaWidth, PTX_OPS, VISA_OPS};
use crate::text::message_text;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn hexs(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hand-encoded descriptors and their symbolic text (docs/descriptors.md).
const PAIRS: &[(&str, &str)] = &[
    ("4e05 02 0000 00 01 02 00 03", "SVM_ATOMIC.ADD (4) %1 %3 %2 V0"),
    // M2_NM = 9 in bits 7..4, 8 lanes = code 3; Pred = P2 complemented
    // (0x8002 LE); Op = cmpxchg 0x07 | 64-bit 0b10 << 5
    ("4e05 93 0280 47 01 02 03 04", "(!P2) SVM_ATOMIC.CMPXCHG.64 (M2_NM, 8) %1 %4 %2 %3"),
    ("4e05 00 0000 31 01 02 00 00", "SVM_ATOMIC.FMIN.16 (1) %1 V0 %2 V0"),
    ("4e05 71 0100 0d 01 00 00 02", "(P1) SVM_ATOMIC.PREDEC (M8, 2) %1 %2 V0 V0"),
    // .16 is Op bit 5; M3 = 2 in bits 7..4, 32 lanes = code 5; T255 = 0xff
    ("7d 22 25 0000 ff 01 00 00 02", "DWORD_ATOMIC.INC.16 (M3, 32) T255 %1 V0 V0 %2"),
    ("7d 12 04 0100 07 01 02 03 00", "(P1) DWORD_ATOMIC.FCMPWR (16) 7 %1 %2 %3 V0"),
    ("7d 0b 82 0000 00 01 02 00 03", "DWORD_ATOMIC.IMIN (M1_NM, 4) T0 %1 %2 V0 %3"),
    ("73 0d f3 0000 03 01 02 00 03 00 00 04", "TYPED_ATOMIC.PREDEC (M8_NM, 8) 3 %1 %2 V0 %3 V0 V0 %4"),
    ("73 2c 03 0000 fe 01 00 00 00 02 00 00", "TYPED_ATOMIC.IMAX.16 (8) 254 %1 V0 V0 V0 %2 V0 V0"),
    ("73 07 03 ff0f 01 01 02 03 04 05 06 07", "(P4095) TYPED_ATOMIC.CMPXCHG (8) 1 %1 %2 %3 %4 %5 %6 %7"),
    // Block_size 1 = 4 bytes, Num_blocks 3 = 8 blocks
    ("4e04 03 0000 01 03 01 02", "SVM_SCATTER.4.8 (8) %1 %2"),
    ("4e04 84 0180 00 02 01 02", "(!P1) SVM_SCATTER.1.4 (M1_NM, 16) %1 %2"),
    ("4e04 00 0000 02 00 01 02", "SVM_SCATTER.8.1 (1) %1 %2"),
    // PTX: Op add 5; Type u32 4; Space global 1; single thread Exec 0x80
    ("a7 05 04 01 00 80 0000 01 02 03 00 00", "atom.global.add.u32 %1, [%2], %3;"),
    // sem acq_rel 4, scope cluster 2 -> 0x24; Pred P3 complemented
    ("a7 03 03 04 24 80 0380 00 01 02 03 00", "@!P3 atom.acq_rel.cluster.shared::cluster.cas.b128 V0, [%1], %2, %3;"),
    // Op max 9 | .noftz 0x10 | .L2::cache_hint 0x20; Type bf16 12 | .v8 3<<4; M4 = 3, 32 lanes
    ("a7 39 3c 01 00 35 0000 01 02 03 00 04", "atom.global.max.noftz.L2::cache_hint.v8.bf16 (M4, 32) %1, [%2], %3, %4;"),
    ("a7 15 0b 00 11 00 0000 00 01 02 00 00", "atom.relaxed.cta.add.noftz.f16x2 (1) V0, [%1], %2;"),
    ("a7 06 04 02 03 80 0100 01 02 03 00 00", "@P1 atom.release.shared.inc.u32 %1, [%2], %3;"),
    ("a7 07 04 03 40 80 0000 01 02 03 00 00", "atom.sys.shared::cta.dec.u32 %1, [%2], %3;"),
];

#[test]
fn descriptor_hex_text_pairs() {
    for (hex, text) in PAIRS {
        let bytes = unhex(hex);
        let d = Descriptor::new(&bytes).unwrap_or_else(|e| panic!("{hex}: {e}"));
        assert_eq!(d.symbolic_text(), *text, "{hex}");
        assert_eq!(d.encode(), bytes, "re-encode {hex}");
        assert!(bytes.len() <= MAX_DESC_BYTES);
        assert_eq!(decode(&bytes, None), Ok(Decoded::Descriptor(d)));
    }
}

/// Parses a script and returns its last message.
fn parse_last(script: &str) -> Message {
    let prog = crate::script::parse("t.s", script).unwrap_or_else(|d| panic!("{d}\n{script}"));
    prog.messages().last().expect("a message").clone()
}

/// Script text -> descriptor and payload bytes worked out by hand, and back.
#[test]
fn descriptor_script_to_hex_pairs() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "pred p = 0b0101\n(p) SVM_ATOMIC.ADD (4) [0x1000 0x1004 0x1008 0x100c] d [1 1 1 1] V0",
            "4e05 02 0100 00 01 02 00 03",
            // 2 vectors: 8-byte x 4 (addresses), 16-byte x 4 (src0)
            "02 \
             08 04 0010000000000000 0410000000000000 0810000000000000 0c10000000000000 \
             10 04 01000000000000000000000000000000 01000000000000000000000000000000 \
                   01000000000000000000000000000000 01000000000000000000000000000000 \
             05000000 ffffffff 00 02000000 01 64 01 70",
        ),
        (
            "dmask 0x0000ff00\nsurface 3 buffer base=0x4000 size=0x100\nDWORD_ATOMIC.XCHG.16 (M3, 2) 3 [0 2] [0xbeef 7] V0 V0",
            "7d 26 21 0000 03 01 02 00 00",
            "02 04 02 00000000 02000000 \
             10 02 efbe0000000000000000000000000000 07000000000000000000000000000000 \
             00000000 00ff0000 00 03000000 00 00",
        ),
        (
            "atom.global.exch.L2::cache_hint.b64 r, [0x2008], 0x1122334455667788, 0x5;",
            "a7 24 02 01 00 80 0000 01 02 03 00 04",
            "02 08 01 0820000000000000 \
             10 01 88776655443322110000000000000000 \
             00000000 ffffffff 01 0500000000000000 01000000 01 72 00",
        ),
    ];
    for (script, desc_hex, payload_hex) in cases {
        let msg = parse_last(script);
        let enc = encode(&msg).unwrap();
        assert_eq!(hexs(&enc.desc), hexs(&unhex(desc_hex)), "{script}");
        let bytes = enc.payload.to_bytes();
        assert_eq!(hexs(&bytes), hexs(&unhex(payload_hex)), "{script}");
        let back = Payload::from_bytes(&bytes).unwrap();
        assert_eq!(decode(&enc.desc, Some(&back)), Ok(Decoded::Message(msg.clone())));
        // the printed text is the script's statement, canonically spelled
        let last_line = script.lines().last().unwrap();
        let reparsed = parse_last(&script.replace(last_line, &message_text(&msg)));
        assert_eq!(reparsed, msg, "{}", message_text(&msg));
    }
}

/// Illegal descriptors: (hex, the byte the error names, words it says).
const ILLEGAL: &[(&str, usize, &str)] = &[
    ("", 0, "empty"),
    ("ff", 0, "unknown opcode 0xff"),
    ("4e", 1, "truncated"),
    ("4e06 00 0000 00 01 00 00 00", 1, "unknown SVM sub-opcode 0x06"),
    ("4e05 02 0000", 5, "truncated"),
    ("4e05 02 0000 00 01 02 00 03 00", 10, "trailing"),
    ("4e05 0a 0000 00 01 02 00 03", 2, "reserved bit 3"),
    ("4e05 06 0000 00 01 02 00 03", 2, "reserved size code 6"),
    ("4e05 04 0000 00 01 02 00 03", 2, "16 lanes is not a legal exec size for SVM_ATOMIC"),
    ("4e05 02 0080 00 01 02 00 03", 3, "predicate number 0"),
    ("4e05 02 0110 00 01 02 00 03", 3, "reserved bits 14..12"),
    ("4e05 02 0000 0e 01 02 00 03", 5, "reserved op code 0x0e"),
    ("4e05 02 0000 13 01 02 00 03", 5, "reserved op code 0x13"),
    ("4e05 02 0000 60 01 02 00 03", 5, "reserved width"),
    ("4e05 02 0000 80 01 02 00 03", 5, "reserved bit 7"),
    ("4e05 02 0000 50 01 02 00 03", 5, "FMAX is not allowed at 64 bits"),
    ("4e05 02 0000 00 00 01 00 02", 6, "Addresses is V0"),
    ("4e05 02 0000 02 01 02 00 03", 7, "INC takes no src0"),
    ("4e05 02 0000 07 01 02 00 03", 8, "CMPXCHG takes src1"),
    ("4e05 02 0000 00 01 02 03 04", 8, "src1 is V0 except for CMPXCHG and FCMPWR"),
    ("4e05 02 0000 00 01 03 00 04", 7, "expected 2"),
    ("4e05 02 0000 00 02 03 00 04", 6, "expected 1"),
    ("4e05 02 0000 00 01 02 00 02", 9, "expected 3"),
    ("7d 40 02 0000 00 01 02 00 03", 1, "reserved bits 7..6"),
    ("7d 1f 02 0000 00 01 02 00 03", 1, "reserved op code 0x1f"),
    ("7d 00 0e 0000 00 01 02 00 03", 2, "reserved bit 3"),
    ("7d 00 02 0000 00 01 02 00", 9, "truncated"),
    ("73 10 03 0000 01 01 00 00 00 02 00 00", 1, "FMAX is not a TYPED_ATOMIC op"),
    ("73 00 02 0000 01 01 00 00 00 02 00 00", 2, "TYPED_ATOMIC is 8 lanes"),
    ("73 00 03 0000 00 01 00 00 00 02 00 00", 5, "not a typed surface"),
    ("73 00 03 0000 ff 01 00 00 00 02 00 00", 5, "not a typed surface"),
    ("73 00 03 0000 01 00 01 00 00 02 00 00", 6, "U is V0"),
    ("73 00 03 0000 01 01 00 03 00 02 00 00", 8, "expected 2"),
    ("4e04 05 0000 01 00 01 02", 2, "32 lanes is not a legal exec size for SVM_SCATTER"),
    ("4e04 03 0000 03 00 01 02", 5, "reserved block size"),
    ("4e04 03 0000 05 00 01 02", 5, "reserved bits 7..2"),
    ("4e04 03 0000 01 04 01 02", 6, "reserved bits 7..2"),
    ("4e04 03 0000 00 03 01 02", 6, "8 blocks are only valid with 4-byte blocks"),
    ("4e04 02 0000 01 03 01 02", 6, "8 blocks are only valid with 4-byte blocks at exec size 8"),
    ("4e04 03 0000 01 00 01 00", 8, "Src is V0"),
    ("a7 0a 04 01 00 80 0000 01 02 03 00 00", 1, "reserved PTX op code 10"),
    ("a7 45 04 01 00 80 0000 01 02 03 00 00", 1, "reserved bits 7..6"),
    ("a7 05 0e 01 00 80 0000 01 02 03 00 00", 2, "reserved type code 14"),
    ("a7 05 84 01 00 80 0000 01 02 03 00 00", 2, "reserved bits 7..6"),
    ("a7 05 04 05 00 80 0000 01 02 03 00 00", 3, "reserved space code"),
    ("a7 05 04 01 05 80 0000 01 02 03 00 00", 4, "reserved sem code 5"),
    ("a7 05 04 01 50 80 0000 01 02 03 00 00", 4, "reserved scope code 5"),
    ("a7 05 04 01 08 80 0000 01 02 03 00 00", 4, "reserved bit 3 or 7"),
    ("a7 05 04 01 00 86 0000 01 02 03 00 00", 5, "reserved size code 6"),
    ("a7 06 05 01 00 80 0000 01 02 03 00 00", 2, ".inc does not take .u64"),
    ("a7 00 1b 01 00 80 0000 01 02 03 00 00", 2, ".and has no vector form"),
    ("a7 15 38 01 00 80 0000 01 02 03 00 00", 2, ".v8 is only for the 16-bit types"),
    ("a7 05 14 01 00 80 0000 01 02 03 00 00", 2, ".add has no vector form on .u32"),
    ("a7 15 1a 02 00 80 0000 01 02 03 00 00", 3, "vector atom is only for .global"),
    ("a7 05 0a 01 00 80 0000 01 02 03 00 00", 1, "requires .noftz"),
    ("a7 15 04 01 00 80 0000 01 02 03 00 00", 1, ".noftz is only for"),
    ("a7 25 04 03 00 80 0000 01 02 03 00 04", 3, ".L2::cache_hint is only for .global"),
    ("a7 23 03 01 00 80 0000 01 02 03 04 05", 1, ".cas.b128 takes no .L2::cache_hint"),
    ("a7 03 01 01 00 80 0000 01 02 03 00 00", 11, ".cas takes c"),
    ("a7 05 04 01 00 80 0000 01 02 03 04 00", 11, "only .cas takes c"),
    ("a7 05 04 01 00 80 0000 01 02 03 00 04", 12, "Op bit 5 (.L2::cache_hint) is clear"),
    ("a7 25 04 01 00 80 0000 01 02 03 00 00", 12, "needs the cache-policy operand"),
    ("a7 05 04 01 00 80 0000 01 00 02 00 00", 9, "A is V0"),
    ("a7 05 04 01 00 80 0000 01 02 03 00", 12, "truncated"),
];

#[test]
fn descriptor_illegal_encodings_name_the_byte() {
    for (hex, byte, words) in ILLEGAL {
        let e = Descriptor::new(&unhex(hex)).expect_err(hex);
        assert_eq!(e.part, Part::Descriptor, "{hex}");
        assert_eq!(e.byte, Some(*byte), "{hex}: {e}");
        assert!(e.msg.contains(words), "{hex}: `{e}` should say `{words}`");
    }
}

/// Every single-bit flip of a legal descriptor either fails to decode or
/// decodes to a descriptor that re-encodes to the flipped bytes: no
/// encoding is accepted and silently changed.
#[test]
fn descriptor_bit_flips_are_rejected_or_exact() {
    for (hex, _) in PAIRS {
        let bytes = unhex(hex);
        for i in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[i / 8] ^= 1 << (i % 8);
            if let Ok(d) = Descriptor::new(&b) {
                assert_eq!(d.encode(), b, "{hex} flipped bit {i}");
            }
        }
    }
}

fn svm_add_message() -> Message {
    parse_last("pred p = 3\n(!p) SVM_ATOMIC.CMPXCHG (2) [0x100 0x104] old [1 2] [3 4]")
}

#[test]
fn descriptor_payload_bytes_rejects_malformed() {
    let good = encode(&svm_add_message()).unwrap().payload.to_bytes();
    assert!(Payload::from_bytes(&good).is_ok());
    let bad: Vec<(Vec<u8>, usize, &str)> = vec![
        (vec![], 0, "truncated"),
        (vec![7], 0, "at most 6"),
        (vec![1, 3, 1, 0, 0, 0], 1, "element size 3"),
        (vec![1, 4, 0], 2, "element count 0"),
        (good[..good.len() - 1].to_vec(), good.len() - 1, "truncated"),
        ([good.clone(), vec![0]].concat(), good.len(), "trailing"),
    ];
    for (bytes, at, words) in bad {
        let e = Payload::from_bytes(&bytes).expect_err(words);
        assert_eq!((e.part, e.byte), (Part::Payload, Some(at)), "{e}");
        assert!(e.msg.contains(words), "`{e}` should say `{words}`");
    }
    // the cache-policy flag is 0 or 1
    let mut p = encode(&svm_add_message()).unwrap().payload;
    p.operands.clear();
    let mut bytes = p.to_bytes();
    bytes[9] = 2;
    assert!(Payload::from_bytes(&bytes).unwrap_err().msg.contains("cache-policy flag 2"));
    // names must be UTF-8
    let mut bytes = p.to_bytes();
    let n = bytes.len();
    bytes[n - 1] = 0xff; // the predicate name `p`
    assert!(Payload::from_bytes(&bytes).unwrap_err().msg.contains("not UTF-8"));
}

#[test]
fn descriptor_payload_must_agree_with_descriptor() {
    let msg = svm_add_message();
    let enc = encode(&msg).unwrap();
    assert_eq!(decode_message(&enc.desc, &enc.payload), Ok(msg.clone()));
    type Mutation = Box<dyn Fn(&mut Payload)>;
    let cases: Vec<(Mutation, &str)> = vec![
        (Box::new(|p| { p.operands.pop(); }), "needs lane vector 3"),
        (Box::new(|p| p.operands.push(LaneVector::U32(vec![0, 0]))), "the payload has 4 lane vectors, the descriptor uses 3"),
        (Box::new(|p| p.operands[0] = LaneVector::U32(vec![0, 4])), "4-byte elements, Addresses takes 8-byte"),
        (Box::new(|p| p.operands[1] = LaneVector::U128(vec![1])), "has 1 elements, the descriptor needs 2"),
        (Box::new(|p| p.dst_name = None), "no dst name"),
        (Box::new(|p| p.pred_name = None), "no predicate name"),
        (Box::new(|p| p.cache_policy = Some(1)), "no .L2::cache_hint"),
    ];
    for (mutate, words) in cases {
        let mut p = enc.payload.clone();
        mutate(&mut p);
        let e = decode_message(&enc.desc, &p).expect_err(words);
        assert!(e.msg.contains(words), "`{e}` should say `{words}`");
    }
    // a descriptor without predicate and dst with a payload that names them
    let plain = parse_last("SVM_ATOMIC.INC (1) [0x100] V0 V0 V0");
    let enc = encode(&plain).unwrap();
    let mut p = enc.payload.clone();
    p.dst_name = Some("x".into());
    assert!(decode_message(&enc.desc, &p).unwrap_err().msg.contains("Dst is V0"));
    let mut p = enc.payload.clone();
    p.pred_name = Some("x".into());
    assert!(decode_message(&enc.desc, &p).unwrap_err().msg.contains("has none"));
    let mut p = enc.payload.clone();
    p.pred_mask = 1;
    assert!(decode_message(&enc.desc, &p).unwrap_err().msg.contains("predicate mask"));
}

#[test]
fn descriptor_encoder_numbers_predicates_by_first_use() {
    let prog = crate::script::parse(
        "t.s",
        "pred a = 1\npred b = 2\n(b) SVM_ATOMIC.INC (1) [0x0] V0 V0 V0\n(!a) SVM_ATOMIC.INC (1) [0x0] V0 V0 V0\n(b) SVM_ATOMIC.INC (1) [0x0] V0 V0 V0",
    )
    .unwrap();
    let mut enc = Encoder::new();
    let preds: Vec<Option<PredField>> =
        prog.messages().map(|m| Descriptor::new(&enc.encode(m).unwrap().desc).unwrap().pred()).collect();
    assert_eq!(
        preds,
        vec![
            Some(PredField { number: 1, negate: false }),
            Some(PredField { number: 2, negate: true }),
            Some(PredField { number: 1, negate: false }),
        ]
    );
}

#[test]
fn descriptor_encode_rejects_unencodable_messages() {
    let mut m = parse_last("SVM_ATOMIC.INC (1) [0x0] V0 V0 V0");
    m.exec_size = 3;
    assert!(encode(&m).unwrap_err().msg.contains("exec size 3"));
    let mut m = parse_last("SVM_ATOMIC.INC (1) [0x0] x V0 V0");
    m.dst = Some("x".repeat(256));
    assert!(encode(&m).unwrap_err().msg.contains("1..=255 bytes"));
}

// ---------------------------------------------------------------------------
// Seeded property test: random valid messages of every kind.

/// A random message plus the script lines that must precede it for the
/// parser to accept it (dmask, pred, surface definitions).
struct Case {
    msg: Message,
    preamble: Vec<String>,
}

struct Gen {
    rng: ChaCha8Rng,
}

impl Gen {
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.rng.gen_range(0..xs.len())]
    }

    fn bits(&mut self, bits: u32) -> u128 {
        let v: u128 = self.rng.gen();
        // favour the interesting edges now and then
        let v = match self.rng.gen_range(0..8) {
            0 => 0,
            1 => u128::MAX,
            _ => v,
        };
        if bits >= 128 {
            v
        } else {
            v & ((1u128 << bits) - 1)
        }
    }

    fn aligned(&mut self, bits: u32, align: u64) -> u64 {
        (self.bits(bits) as u64) & !(align - 1)
    }

    fn name(&mut self, prefix: &str) -> String {
        format!("{prefix}{}", self.rng.gen_range(0..100))
    }

    fn mask_ctrl(&mut self) -> MaskCtrl {
        MaskCtrl { group: self.rng.gen_range(0..8), no_mask: self.rng.gen() }
    }

    fn dst(&mut self) -> Option<String> {
        self.rng.gen_bool(0.7).then(|| self.name("d"))
    }

    fn pred(&mut self) -> Option<PredRef> {
        self.rng.gen_bool(0.5).then(|| PredRef { name: self.name("p"), negate: self.rng.gen(), mask: self.bits(32) as u32 })
    }

    fn lanes_u64(&mut self, n: usize, bits: u32, align: u64) -> Vec<u64> {
        (0..n).map(|_| self.aligned(bits, align)).collect()
    }

    fn lanes_u32(&mut self, n: usize) -> Vec<u32> {
        (0..n).map(|_| self.bits(32) as u32).collect()
    }

    fn lanes_u128(&mut self, n: usize, bits: u32) -> Vec<u128> {
        (0..n).map(|_| self.bits(bits)).collect()
    }

    fn visa_src(&mut self, rule: crate::ops::Operand, n: usize, bits: u32) -> Option<Vec<u128>> {
        (rule == crate::ops::Operand::Required).then(|| self.lanes_u128(n, bits))
    }

    fn case(&mut self, kind: MsgKind) -> Case {
        let mut preamble = vec![];
        let exec_size: u8;
        let mut mask_ctrl = self.mask_ctrl();
        let mut dst = self.dst();
        let body = match kind {
            MsgKind::SvmAtomic => {
                let op = &VISA_OPS[self.rng.gen_range(0..VISA_OPS.len())];
                let widths: Vec<VisaWidth> = op.widths().iter().filter_map(|&b| VisaWidth::from_bits(b)).collect();
                let width = self.pick(&widths);
                exec_size = self.pick(MsgKind::SvmAtomic.info().exec_sizes);
                let n = exec_size as usize;
                let data_bits = if width == VisaWidth::W64 { 64 } else { 32 };
                Body::SvmAtomic {
                    op,
                    width,
                    addrs: self.lanes_u64(n, 64, width.bits() as u64 / 8),
                    src0: self.visa_src(op.src0, n, data_bits),
                    src1: self.visa_src(op.src1, n, data_bits),
                }
            }
            MsgKind::DwordAtomic => {
                let op = &VISA_OPS[self.rng.gen_range(0..VISA_OPS.len())];
                let w16: bool = self.rng.gen();
                exec_size = self.pick(MsgKind::DwordAtomic.info().exec_sizes);
                let n = exec_size as usize;
                let surface = match self.rng.gen_range(0..3) {
                    0 => DwordSurface::Slm,
                    1 => DwordSurface::Stateless,
                    _ => {
                        let s = self.rng.gen_range(1..=254);
                        preamble.push(format!("surface {s} buffer base=0x10000 size=0x1000"));
                        DwordSurface::Buffer(s)
                    }
                };
                let align = if w16 { 2 } else { 4 };
                Body::DwordAtomic {
                    op,
                    w16,
                    surface,
                    offsets: self.lanes_u64(n, 32, align).into_iter().map(|x| x as u32).collect(),
                    src0: self.visa_src(op.src0, n, 32),
                    src1: self.visa_src(op.src1, n, 32),
                }
            }
            MsgKind::TypedAtomic => {
                let typed: Vec<&'static VisaOpInfo> = VISA_OPS.iter().filter(|r| r.typed).collect();
                let op = typed[self.rng.gen_range(0..typed.len())];
                let w16: bool = self.rng.gen();
                exec_size = 8;
                let surface = self.rng.gen_range(1..=254);
                let (kind, has_v, has_r, keys) = self.pick(&[
                    ("1d", false, false, ""),
                    ("1d_array", true, false, "array=4"),
                    ("2d", true, false, "height=8"),
                    ("2d_array", true, true, "height=8 array=4"),
                    ("3d", true, true, "height=8 depth=4"),
                ]);
                preamble.push(format!(
                    "surface {surface} {kind} base=0x20000 width=16 {keys} levels=3 format={}",
                    if w16 { "u16" } else { "u32" }
                ));
                let has_lod: bool = self.rng.gen();
                Body::TypedAtomic {
                    op,
                    w16,
                    surface,
                    u: self.lanes_u32(8),
                    v: has_v.then(|| self.lanes_u32(8)),
                    r: has_r.then(|| self.lanes_u32(8)),
                    lod: has_lod.then(|| self.lanes_u32(8)),
                    src0: self.visa_src(op.src0, 8, 32),
                    src1: self.visa_src(op.src1, 8, 32),
                }
            }
            MsgKind::SvmScatter => {
                dst = None;
                let (block_size, num_blocks) = self.pick(&[
                    (1, 1), (1, 2), (1, 4), (4, 1), (4, 2), (4, 4), (4, 8), (8, 1), (8, 2), (8, 4),
                ]);
                exec_size = if num_blocks == 8 { crate::ops::SCATTER_8_BLOCKS_EXEC } else { self.pick(MsgKind::SvmScatter.info().exec_sizes) };
                let n = exec_size as usize;
                let len = scatter_src_len(block_size, num_blocks, exec_size);
                Body::SvmScatter {
                    block_size,
                    num_blocks,
                    addrs: self.lanes_u64(n, 64, block_size as u64),
                    src: (0..len).map(|_| self.bits(8 * block_size as u32) as u64).collect(),
                }
            }
            MsgKind::PtxAtom => {
                let row = &PTX_OPS[self.rng.gen_range(0..PTX_OPS.len())];
                let vector = !row.vector_types.is_empty() && self.rng.gen_bool(0.4);
                let (ty, vec) = if vector {
                    let ty = self.pick(row.vector_types);
                    let vec = self.pick(ty.vector_sizes());
                    (ty, vec)
                } else {
                    (self.pick(row.scalar_types), 1)
                };
                let space = if vector {
                    self.pick(&[PtxSpace::Generic, PtxSpace::Global])
                } else {
                    self.pick(&[PtxSpace::Generic, PtxSpace::Global, PtxSpace::Shared, PtxSpace::SharedCta, PtxSpace::SharedCluster])
                };
                let half = ty.needs_noftz();
                let hint_ok = space.is_global_or_generic() && row.takes_cache_hint(ty);
                let cache_hint = (hint_ok && self.rng.gen()).then(|| self.bits(64) as u64);
                if self.rng.gen() {
                    // single-thread form
                    exec_size = 1;
                    mask_ctrl = MaskCtrl::M1_NM;
                } else {
                    exec_size = self.pick(MsgKind::PtxAtom.info().exec_sizes);
                }
                if vec > 1 && self.rng.gen() {
                    // a brace list of result names
                    let names: Vec<String> = (0..vec).map(|i| format!("h{i}")).collect();
                    dst = Some(format!("{{{}}}", names.join(", ")));
                }
                let n = exec_size as usize;
                let elem_bits = ty.elem_type().bits();
                let lane_value = |g: &mut Gen| -> u128 {
                    (0..vec as u32).fold(0u128, |acc, i| acc | (g.bits(elem_bits) << (i * elem_bits)))
                };
                let b = (0..n).map(|_| lane_value(self)).collect();
                let c = row.has_c.then(|| (0..n).map(|_| lane_value(self)).collect());
                let sems = [None, Some(PtxSem::Relaxed), Some(PtxSem::Acquire), Some(PtxSem::Release), Some(PtxSem::AcqRel)];
                let scopes = [None, Some(PtxScope::Cta), Some(PtxScope::Cluster), Some(PtxScope::Gpu), Some(PtxScope::Sys)];
                Body::PtxAtom {
                    sem: self.pick(&sems),
                    scope: self.pick(&scopes),
                    space,
                    op: row.op,
                    noftz: half,
                    cache_hint,
                    vec,
                    ty,
                    addrs: self.lanes_u64(n, 64, (elem_bits / 8 * vec as u32) as u64),
                    b,
                    c,
                }
            }
        };
        let pred = self.pred();
        let dmask = self.bits(32) as u32;
        preamble.insert(0, format!("dmask {dmask:#x}"));
        if let Some(p) = &pred {
            preamble.push(format!("pred {} = {:#x}", p.name, p.mask));
        }
        let msg = Message { line: preamble.len() + 1, exec_size, mask_ctrl, pred, dmask, dst, body };
        Case { msg, preamble }
    }
}

const KINDS: [MsgKind; 5] = [MsgKind::SvmAtomic, MsgKind::DwordAtomic, MsgKind::TypedAtomic, MsgKind::SvmScatter, MsgKind::PtxAtom];

/// What the property test must have covered (so a generator bug that stops
/// producing some form is caught, not silently skipped).
#[derive(Default)]
struct Coverage {
    visa: std::collections::HashSet<(MsgKind, u8, u32)>,
    ptx: std::collections::HashSet<(u8, u8, u8)>,
    exec: std::collections::HashSet<(MsgKind, u8)>,
    mask_ctrl: std::collections::HashSet<u8>,
    negated_preds: usize,
    single_thread: usize,
}

fn seed() -> u64 {
    std::env::var("ATOMPORT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| rand::thread_rng().gen())
}

#[test]
fn descriptor_property_round_trip_bytes_and_text() {
    let seed = seed();
    println!("descriptor property test seed: {seed} (rerun with ATOMPORT_SEED={seed})");
    let mut g = Gen { rng: ChaCha8Rng::seed_from_u64(seed) };
    let mut cov = Coverage::default();
    for kind in KINDS {
        // PTX has the most forms (65 op x type x vector combinations)
        let count = if kind == MsgKind::PtxAtom { 5000 } else { 2000 };
        for _ in 0..count {
            let Case { msg, preamble } = g.case(kind);
            let ctx = || format!("seed {seed}: {}", message_text(&msg));
            // Message -> descriptor + payload bytes -> Message
            let enc = encode(&msg).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
            assert!(enc.desc.len() <= MAX_DESC_BYTES);
            let d = Descriptor::new(&enc.desc).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
            assert_eq!(d.encode(), enc.desc, "{}", ctx());
            assert_eq!(d.kind(), kind);
            let payload = Payload::from_bytes(&enc.payload.to_bytes()).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
            assert_eq!(payload, enc.payload, "{}", ctx());
            let back = decode_message(&enc.desc, &payload).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
            assert_eq!(back, msg, "{}", ctx());
            // Message -> text -> parse -> Message
            let script = format!("{}\n{}\n", preamble.join("\n"), message_text(&msg));
            let prog = crate::script::parse("prop.s", &script).unwrap_or_else(|e| panic!("{}:\n{script}{e}", ctx()));
            let parsed: Vec<&Message> = prog.messages().collect();
            assert_eq!(parsed, vec![&msg], "seed {seed}:\n{script}");
            // coverage
            cov.exec.insert((kind, msg.exec_size));
            cov.mask_ctrl.insert(msg.mask_ctrl.code());
            cov.negated_preds += msg.pred.as_ref().is_some_and(|p| p.negate) as usize;
            match &msg.body {
                Body::SvmAtomic { op, width, .. } => {
                    cov.visa.insert((kind, op.op.code(), width.bits()));
                }
                Body::DwordAtomic { op, w16, .. } | Body::TypedAtomic { op, w16, .. } => {
                    cov.visa.insert((kind, op.op.code(), if *w16 { 16 } else { 32 }));
                }
                Body::SvmScatter { block_size, num_blocks, .. } => {
                    cov.visa.insert((kind, *block_size, *num_blocks as u32));
                }
                Body::PtxAtom { op, ty, vec, .. } => {
                    cov.ptx.insert((*op as u8, ty.code(), *vec));
                    cov.single_thread += crate::text::is_ptx_single_thread(msg.exec_size, msg.mask_ctrl) as usize;
                }
            }
        }
    }
    // every op x width of every vISA kind, every scatter layout
    let svm = VISA_OPS.iter().map(|r| if r.class == crate::ops::Class::Float { 2 } else { 3 }).sum::<usize>();
    let dword = VISA_OPS.len() * 2;
    let typed = VISA_OPS.iter().filter(|r| r.typed).count() * 2;
    assert_eq!(cov.visa.len(), svm + dword + typed + 10, "seed {seed}: vISA op x width coverage");
    // every PTX op x type x vector form the seed allows
    let ptx: usize = PTX_OPS
        .iter()
        .map(|r: &PtxOpInfo| {
            r.scalar_types.len()
                + r.vector_types.iter().map(|t| if matches!(t, PtxType::F16 | PtxType::BF16) { 3 } else { 2 }).sum::<usize>()
        })
        .sum();
    assert_eq!(cov.ptx.len(), ptx, "seed {seed}: PTX op x type x vector coverage");
    assert_eq!(cov.exec.len(), 4 + 6 + 1 + 5 + 6, "seed {seed}: exec sizes");
    assert_eq!(cov.mask_ctrl.len(), 16, "seed {seed}: mask controls");
    assert!(cov.negated_preds > 0 && cov.single_thread > 0);
}
