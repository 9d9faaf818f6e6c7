//! Reports of a [`RunOutput`]: the JSON of scripts.md "JSON output" (the
//! contract acceptance checks parse) and a table for people.

use crate::outcome::{DumpOut, LaneResults, RunOutput};
use std::fmt::Write;

/// A lane value as `0x` + exactly `width / 4` lower-case hex digits.
pub fn lane_hex(value: u128, width: u32) -> String {
    let digits = (width as usize).div_ceil(4);
    let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
    format!("0x{:0digits$x}", value & mask)
}

/// A JSON string literal (quotes and escapes).
fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a str always serializes")
}

/// Lower-case hex of bytes in address order, two digits per byte.
fn bytes_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        write!(s, "{b:02x}").unwrap();
    }
    s
}

fn result_json(r: &LaneResults) -> String {
    let lanes: Vec<String> =
        r.lanes.iter().map(|l| l.map_or_else(|| "null".to_string(), |v| json_string(&lane_hex(v, r.width)))).collect();
    format!(
        "{{\"line\": {}, \"name\": {}, \"width\": {}, \"lanes\": [{}]}}",
        r.line,
        json_string(&r.name),
        r.width,
        lanes.join(", ")
    )
}

fn dump_json(d: &DumpOut) -> String {
    format!(
        "{{\"space\": {}, \"addr\": {}, \"hex\": {}}}",
        json_string(d.space.name()),
        json_string(&format!("0x{:x}", d.addr)),
        json_string(&bytes_hex(&d.bytes))
    )
}

/// A JSON array of pre-rendered items, one per line.
fn json_array(items: Vec<String>) -> String {
    if items.is_empty() {
        "[]".to_string()
    } else {
        format!("[\n    {}\n  ]", items.join(",\n    "))
    }
}

/// The run as scripts.md "JSON output" defines it: `engine`, then one
/// `results` entry per message whose dst is not V0 (script order), then one
/// `dumps` entry per `dump` statement (script order). Ends with a newline.
pub fn json(out: &RunOutput) -> String {
    format!(
        "{{\n  \"engine\": {},\n  \"results\": {},\n  \"dumps\": {}\n}}\n",
        json_string(out.engine),
        json_array(out.results.iter().map(result_json).collect()),
        json_array(out.dumps.iter().map(dump_json).collect())
    )
}

/// Lanes per row in the table.
const LANES_PER_ROW: usize = 8;
/// Bytes per row of a dump.
const BYTES_PER_ROW: usize = 16;

/// A readable report: each result with its lanes numbered (`-` for a
/// disabled lane), each dump as a hex listing with addresses, and the
/// number of memory transactions.
pub fn table(out: &RunOutput) -> String {
    let mut s = String::new();
    writeln!(s, "engine: {}", out.engine).unwrap();
    for r in &out.results {
        let enabled = r.lanes.iter().filter(|l| l.is_some()).count();
        writeln!(s, "\nline {}: {} ({}-bit, {} of {} lanes enabled)", r.line, r.name, r.width, enabled, r.lanes.len())
            .unwrap();
        let cell = 2 + (r.width as usize).div_ceil(4);
        for (row, chunk) in r.lanes.chunks(LANES_PER_ROW).enumerate() {
            let mut line = format!("  {:>2}:", row * LANES_PER_ROW);
            for l in chunk {
                let text = l.map_or_else(|| "-".to_string(), |v| lane_hex(v, r.width));
                write!(line, " {text:>cell$}").unwrap();
            }
            writeln!(s, "{line}").unwrap();
        }
    }
    for d in &out.dumps {
        writeln!(s, "\ndump {} 0x{:x} {} (line {})", d.space.name(), d.addr, d.bytes.len(), d.line).unwrap();
        for (row, chunk) in d.bytes.chunks(BYTES_PER_ROW).enumerate() {
            let addr = d.addr.wrapping_add((row * BYTES_PER_ROW) as u64);
            let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(s, "  0x{addr:016x}: {}", hex.join(" ")).unwrap();
        }
    }
    writeln!(s, "\n{} memory transactions", out.txns.len()).unwrap();
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Space;

    fn sample() -> RunOutput {
        RunOutput {
            engine: "golden",
            results: vec![
                LaneResults { line: 7, name: "d0".into(), width: 32, lanes: vec![Some(5), None, Some(6), Some(0)] },
                LaneResults { line: 9, name: "h".into(), width: 16, lanes: vec![Some(0xabcd_0001)] },
                LaneResults { line: 11, name: "q".into(), width: 128, lanes: vec![Some(u128::MAX)] },
            ],
            dumps: vec![
                DumpOut { line: 12, space: Space::Flat, addr: 0x1000, bytes: vec![5, 0, 0, 0, 7, 0, 0, 0] },
                DumpOut { line: 13, space: Space::Slm, addr: 0xAB, bytes: vec![0xFE] },
            ],
            txns: vec![],
        }
    }

    #[test]
    fn json_matches_the_contract_shape_and_digits() {
        let text = json(&sample());
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(v["engine"], "golden");
        let r = &v["results"];
        assert_eq!(r[0]["line"], 7);
        assert_eq!(r[0]["name"], "d0");
        assert_eq!(r[0]["width"], 32);
        assert_eq!(r[0]["lanes"], serde_json::json!(["0x00000005", null, "0x00000006", "0x00000000"]));
        // exactly width/4 digits, masked to the width
        assert_eq!(r[1]["lanes"][0], "0x0001");
        assert_eq!(r[2]["lanes"][0], format!("0x{}", "f".repeat(32)));
        assert_eq!(v["dumps"][0], serde_json::json!({"space": "flat", "addr": "0x1000", "hex": "0500000007000000"}));
        assert_eq!(v["dumps"][1], serde_json::json!({"space": "slm", "addr": "0xab", "hex": "fe"}));
        // key order as in the contract's example
        let (e, r, d) =
            (text.find("\"engine\"").unwrap(), text.find("\"results\"").unwrap(), text.find("\"dumps\"").unwrap());
        assert!(e < r && r < d);
    }

    #[test]
    fn json_of_an_empty_run_has_empty_arrays() {
        let out = RunOutput { engine: "golden", results: vec![], dumps: vec![], txns: vec![] };
        let v: serde_json::Value = serde_json::from_str(&json(&out)).unwrap();
        assert_eq!(v, serde_json::json!({"engine": "golden", "results": [], "dumps": []}));
    }

    #[test]
    fn names_are_escaped() {
        let mut out = sample();
        out.results[0].name = "a\"b".into();
        let v: serde_json::Value = serde_json::from_str(&json(&out)).unwrap();
        assert_eq!(v["results"][0]["name"], "a\"b");
    }

    #[test]
    fn table_lists_lanes_and_dumps() {
        let t = table(&sample());
        assert!(t.contains("line 7: d0 (32-bit, 3 of 4 lanes enabled)"), "{t}");
        assert!(t.contains("   0: 0x00000005          - 0x00000006 0x00000000"), "{t}");
        assert!(t.contains("dump flat 0x1000 8 (line 12)"), "{t}");
        assert!(t.contains("  0x0000000000001000: 05 00 00 00 07 00 00 00"), "{t}");
        assert!(t.contains("  0x00000000000000ab: fe"), "{t}");
    }
}
