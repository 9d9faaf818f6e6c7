//! What each fuzz target checks. Each function takes arbitrary
//! bytes and must return without panicking, hanging or allocating without
//! bound; where the input is accepted, the round trips the project promises
//! must hold (a failed round trip panics, which the fuzzer reports).
//!
//! The same functions run over the checked-in corpus under `cargo test`
//! (tests/fuzz_corpus.rs), on the stable compiler.

use atomport_core::descriptor::{self, Descriptor, Payload};
use atomport_core::text::message_text;

/// The script parser on any bytes. An accepted script's messages must
/// encode to a descriptor and payload that decode back to the same message
/// (docs/descriptors.md), and print in the seed's Text form.
pub fn script(data: &[u8]) {
    let Ok(program) = atomport_core::script::parse_bytes("fuzz.atom", data) else {
        return;
    };
    for msg in program.messages() {
        let _ = message_text(msg);
        let Ok(enc) = descriptor::encode(msg) else {
            continue;
        };
        let payload = Payload::from_bytes(&enc.payload.to_bytes()).expect("an encoded payload reads back");
        assert_eq!(payload, enc.payload, "payload bytes round trip");
        let back = descriptor::decode_message(&enc.desc, &payload).expect("an encoded message decodes");
        assert_eq!(&back, msg, "descriptor round trip");
    }
}

/// The descriptor decoder on any bytes: the first byte says how many of the
/// rest are the descriptor (mod 33), the remainder is the payload. A
/// descriptor that decodes re-encodes to one that decodes to the same
/// descriptor; a whole message that decodes re-encodes to itself.
pub fn descriptor(data: &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let n = (n as usize % 33).min(rest.len());
    let (desc, payload) = rest.split_at(n);
    if let Ok(d) = Descriptor::new(desc) {
        let _ = d.symbolic_text();
        assert_eq!(Descriptor::new(&d.encode()), Ok(d), "descriptor re-encodes");
    }
    let Ok(p) = Payload::from_bytes(payload) else {
        return;
    };
    if let Ok(msg) = descriptor::decode_message(desc, &p) {
        let _ = message_text(&msg);
        let enc = descriptor::encode(&msg).expect("a decoded message encodes");
        let back = descriptor::decode_message(&enc.desc, &enc.payload).expect("a re-encoded message decodes");
        assert_eq!(back, msg, "message round trip");
    }
}

/// The VCD reader on any bytes; an accepted waveform answers the queries
/// the wave tools make of it.
pub fn vcd(data: &[u8]) {
    let Ok(w) = atomport_wave::reader::Waveform::parse("fuzz.vcd", data) else {
        return;
    };
    let _ = w.scopes();
    for v in &w.vars {
        let _ = v.gtkwave_name();
        let _ = w.trace(v);
    }
}

/// The FST reader (wellen, behind `atomport_wave::fst`) on any bytes: a
/// damaged file is an error, never a panic, an abort or a hang; an
/// accepted waveform answers the same queries as a VCD.
pub fn fst(data: &[u8]) {
    let Ok(w) = atomport_wave::fst::parse_fst("fuzz.fst", data.to_vec()) else {
        return;
    };
    let _ = w.scopes();
    for v in &w.vars {
        let _ = v.gtkwave_name();
        let _ = w.trace(v);
    }
}
