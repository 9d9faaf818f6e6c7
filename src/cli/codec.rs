//! `atomport encode` and `atomport decode` (docs/descriptors.md, "CLI").
//!
//! - `atomport encode FILE|-`: one line per message,
//!   `<line>: <descriptor hex> <payload hex>` (`--desc-only`: no payload).
//! - `atomport decode HEX [PAYLOAD_HEX]`: the message in the seed's Text
//!   form; without a payload the operands are symbolic (`%1`, `%2`, ...).
//!
//! Bad input is `<where>:1:<col>: error: ...` on stderr and exit 2, where
//! `<where>` is `descriptor` or `payload` and `<col>` the column of the
//! offending byte in the argument as typed.

use atomport_core::descriptor::{self, Descriptor, Encoder, Part, Payload};
use atomport_core::diag::{Diag, EXIT_BAD_INPUT};

#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    /// The message script, or `-` for standard input.
    pub file: String,
    /// Print only the descriptors, not the payloads.
    #[arg(long)]
    pub desc_only: bool,
}

#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    /// The descriptor as hex (`4e05020000000102 0003`; blanks, `_` and a
    /// leading `0x` are allowed).
    pub hex: String,
    /// The payload as hex; with it the message is printed with its literal
    /// operands, without it the operands are symbolic (`%1`, `%2`, ...).
    pub payload: Option<String>,
}

/// Lower-case hex, no separators.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex text -> bytes, and the 1-based column of each byte's first digit
/// (plus one past the end, for "truncated" errors). Blanks and `_` may
/// separate bytes; a leading `0x` is skipped.
pub fn parse_hex(text: &str) -> Result<(Vec<u8>, Vec<usize>), (usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    if chars.len() >= 2 && chars[0] == '0' && (chars[1] == 'x' || chars[1] == 'X') {
        i = 2;
    }
    let mut bytes = Vec::new();
    let mut cols = Vec::new();
    let mut high: Option<(u8, usize)> = None;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() || c == '_' {
            if let Some((_, hcol)) = high {
                return Err((col, format!("separator inside the byte that starts at column {hcol} (bytes are two hex digits)")));
            }
        } else {
            let Some(d) = c.to_digit(16) else {
                return Err((col, format!("`{c}` is not a hex digit")));
            };
            match high.take() {
                None => high = Some((d as u8, col)),
                Some((h, hcol)) => {
                    bytes.push((h << 4) | d as u8);
                    cols.push(hcol);
                }
            }
        }
        i += 1;
    }
    if let Some((_, hcol)) = high {
        return Err((hcol, "odd number of hex digits: the last byte has one digit".to_string()));
    }
    if bytes.is_empty() {
        return Err((1, "no hex bytes".to_string()));
    }
    cols.push(chars.len() + 1);
    Ok((bytes, cols))
}

fn bad(diag: Diag) -> i32 {
    eprintln!("{diag}");
    EXIT_BAD_INPUT
}

pub fn encode_main(a: EncodeArgs) -> i32 {
    let program = match super::read_script(&a.file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let name = program.file.clone();
    let mut encoder = Encoder::new();
    let mut out = String::new();
    for msg in program.messages() {
        let enc = match encoder.encode(msg) {
            Ok(e) => e,
            Err(e) => return bad(Diag::new(&name, msg.line, 1, format!("cannot encode: {}", e.msg))),
        };
        if a.desc_only {
            out.push_str(&format!("{}: {}\n", msg.line, to_hex(&enc.desc)));
        } else {
            out.push_str(&format!("{}: {} {}\n", msg.line, to_hex(&enc.desc), to_hex(&enc.payload.to_bytes())));
        }
    }
    if out.is_empty() {
        eprintln!("atomport encode: note: {name} has no messages: nothing to encode");
    }
    out!("{out}");
    0
}

pub fn decode_main(a: DecodeArgs) -> i32 {
    match decode_text(&a.hex, a.payload.as_deref()) {
        Ok(text) => {
            outln!("{text}");
            0
        }
        Err(d) => bad(d),
    }
}

/// What `atomport decode` prints for its arguments, or the diagnostic.
pub fn decode_text(desc_hex: &str, payload_hex: Option<&str>) -> Result<String, Diag> {
    let (desc, desc_cols) = parse_hex(desc_hex).map_err(|(col, msg)| Diag::new("descriptor", 1, col, msg))?;
    let payload = match payload_hex {
        None => None,
        Some(h) => {
            let (bytes, cols) = parse_hex(h).map_err(|(col, msg)| Diag::new("payload", 1, col, msg))?;
            let p = Payload::from_bytes(&bytes).map_err(|e| {
                let col = e.byte.map(|b| cols[b.min(cols.len() - 1)]).unwrap_or(1);
                Diag::new("payload", 1, col, e.to_string())
            })?;
            Some(p)
        }
    };
    let where_ = |e: &descriptor::DecodeError| {
        let (file, col) = match e.part {
            Part::Descriptor => ("descriptor", e.byte.map(|b| desc_cols[b.min(desc_cols.len() - 1)]).unwrap_or(1)),
            Part::Payload => ("payload", 1),
        };
        Diag::new(file, 1, col, e.to_string())
    };
    match payload {
        None => Descriptor::new(&desc).map(|d| d.symbolic_text()).map_err(|e| where_(&e)),
        Some(p) => descriptor::decode_message(&desc, &p).map(|m| atomport_core::text::message_text(&m)).map_err(|e| where_(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codec_parse_hex_accepts_separators_and_reports_columns() {
        assert_eq!(parse_hex("0x4e05_02 00").unwrap().0, vec![0x4e, 0x05, 0x02, 0x00]);
        assert_eq!(parse_hex("4E05").unwrap(), (vec![0x4e, 0x05], vec![1, 3, 5]));
        assert_eq!(parse_hex("4e0g").unwrap_err().0, 4);
        assert_eq!(parse_hex("4e 0").unwrap_err().0, 4);
        assert_eq!(parse_hex("4 e").unwrap_err().0, 2);
        assert_eq!(parse_hex("").unwrap_err().0, 1);
    }

    #[test]
    fn codec_decode_errors_point_at_the_byte() {
        // byte 5 (the Op byte) starts at column 12 of "4e05020000 0e01020003"
        let d = decode_text("4e05020000 0e01020003", None).unwrap_err();
        assert_eq!((d.file.as_str(), d.line, d.col), ("descriptor", 1, 12));
        assert!(d.msg.contains("byte 5") && d.msg.contains("reserved op code 0x0e"), "{d}");
        let d = decode_text("c0ffee", None).unwrap_err();
        assert_eq!(d.col, 1);
        assert!(d.msg.contains("unknown opcode 0xc0"), "{d}");
        // truncated: the column just past the end
        let d = decode_text("7d000200", None).unwrap_err();
        assert_eq!(d.col, 9);
        assert!(d.msg.contains("truncated"), "{d}");
    }

    #[test]
    fn codec_encode_then_decode_prints_the_statement() {
        let script = "pred p = 1\n@!p atom.shared::cta.cas.b16 old, [0x40], 0x1234, 0xffff;\n";
        let prog = atomport_core::script::parse("t.s", script).unwrap();
        let enc = descriptor::encode(prog.messages().next().unwrap()).unwrap();
        let desc = to_hex(&enc.desc);
        let payload = to_hex(&enc.payload.to_bytes());
        assert_eq!(
            decode_text(&desc, Some(&payload)).unwrap(),
            "@!p atom.shared::cta.cas.b16 old, [0x40], 0x1234, 0xffff;"
        );
        assert_eq!(decode_text(&desc, None).unwrap(), "@!P1 atom.shared::cta.cas.b16 %1, [%2], %3, %4;");
        // a payload byte that is wrong is named in the payload
        let mut bad = enc.payload.to_bytes();
        bad[1] = 5;
        let d = decode_text(&desc, Some(&to_hex(&bad))).unwrap_err();
        assert_eq!((d.file.as_str(), d.col), ("payload", 3));
        assert!(d.msg.contains("element size 5"), "{d}");
    }
}
