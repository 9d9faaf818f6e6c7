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

fn result_json(r: &LaneResults, rejected: Option<&str>) -> String {
    let lanes: Vec<String> =
        r.lanes.iter().map(|l| l.map_or_else(|| "null".to_string(), |v| json_string(&lane_hex(v, r.width)))).collect();
    format!(
        "{{\"line\": {}, \"name\": {}, \"width\": {}, \"lanes\": [{}]{}}}",
        r.line,
        json_string(&r.name),
        r.width,
        lanes.join(", "),
        rejected.map_or(String::new(), |why| format!(", \"rejected\": {}", json_string(why)))
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
    json_extended(out, &Extensions::default())
}

/// A message whose dst is not V0 that the unit build rejected (it made no
/// access and has no result): its `results` entry, every lane `null`, and
/// why (scripts.md extension `rejected`, docs/script-language.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectedResult {
    pub result: LaneResults,
    pub why: String,
}

/// `--engine both`: how the RTL's run compared with the golden model's
/// (scripts.md extension `comparison`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// no difference in any transaction, result, dump or the final memory
    pub agree: bool,
    /// memory transactions each engine made
    pub rtl_transactions: usize,
    pub golden_transactions: usize,
    /// `results` entries each engine reported
    pub rtl_results: usize,
    pub golden_results: usize,
    /// bytes of the golden model's final memory (flat and SLM) that are not
    /// zero: the RTL memory must hold the same bytes (and zero elsewhere)
    pub final_memory_bytes: usize,
    /// messages the unit build rejected (not compared: neither engine runs them)
    pub rejected: usize,
    /// the first difference, described; None when they agree
    pub first_difference: Option<String>,
}

impl Comparison {
    /// The one-line verdict `run --engine both` prints on stderr.
    pub fn verdict(&self) -> String {
        let rejected = if self.rejected > 0 {
            format!(" ({} rejected messages not run by either)", self.rejected)
        } else {
            String::new()
        };
        match &self.first_difference {
            None if self.agree => format!(
                "RTL and golden agree: {} transactions, {} results, final memory ({} non-zero bytes) equal{rejected}",
                self.rtl_transactions, self.rtl_results, self.final_memory_bytes
            ),
            None => format!("RTL and golden differ{rejected}"),
            Some(d) => format!("RTL and golden differ{rejected}: {}", d.replace('\n', "; ")),
        }
    }

    fn json(&self) -> String {
        format!(
            "{{\"engines\": [\"rtl\", \"golden\"], \"agree\": {}, \"transactions\": {{\"rtl\": {}, \"golden\": {}}}, \
             \"results\": {{\"rtl\": {}, \"golden\": {}}}, \"final_memory_bytes\": {}, \"rejected\": {}, \"first_difference\": {}}}",
            self.agree,
            self.rtl_transactions,
            self.golden_transactions,
            self.rtl_results,
            self.golden_results,
            self.final_memory_bytes,
            self.rejected,
            self.first_difference.as_deref().map_or("null".to_string(), json_string)
        )
    }
}

/// What the JSON carries beyond scripts.md's three keys (extensions the
/// contract allows: extra keys, never a change to the contract's own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extensions {
    /// entries for rejected messages, merged into `results` in script order
    pub rejected: Vec<RejectedResult>,
    /// `--engine both`: the top-level `comparison` object
    pub comparison: Option<Comparison>,
}

/// [`json`] with extensions: rejected messages keep their `results` entry
/// (script order, every lane `null`, `"rejected": why`), and a
/// `comparison` object follows `dumps`.
pub fn json_extended(out: &RunOutput, ext: &Extensions) -> String {
    let mut entries: Vec<(usize, String)> = out.results.iter().map(|r| (r.line, result_json(r, None))).collect();
    entries.extend(ext.rejected.iter().map(|r| (r.result.line, result_json(&r.result, Some(&r.why)))));
    // one statement per line: lines order the entries as the script does
    entries.sort_by_key(|(line, _)| *line);
    let comparison = ext.comparison.as_ref().map_or(String::new(), |c| format!(",\n  \"comparison\": {}", c.json()));
    format!(
        "{{\n  \"engine\": {},\n  \"results\": {},\n  \"dumps\": {}{comparison}\n}}\n",
        json_string(out.engine),
        json_array(entries.into_iter().map(|(_, e)| e).collect()),
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
    fn extensions_keep_rejected_entries_in_order_and_add_the_comparison() {
        let rejected = RejectedResult {
            result: LaneResults { line: 8, name: "f".into(), width: 64, lanes: vec![None, None] },
            why: "needs 64-bit access".into(),
        };
        let comparison = Comparison {
            agree: true,
            rtl_transactions: 4,
            golden_transactions: 4,
            rtl_results: 3,
            golden_results: 3,
            final_memory_bytes: 9,
            rejected: 1,
            first_difference: None,
        };
        let ext = Extensions { rejected: vec![rejected], comparison: Some(comparison.clone()) };
        let v: serde_json::Value = serde_json::from_str(&json_extended(&sample(), &ext)).unwrap();
        let lines: Vec<u64> = v["results"].as_array().unwrap().iter().map(|r| r["line"].as_u64().unwrap()).collect();
        assert_eq!(lines, [7, 8, 9, 11]);
        assert_eq!(v["results"][1], serde_json::json!({"line": 8, "name": "f", "width": 64, "lanes": [null, null], "rejected": "needs 64-bit access"}));
        assert!(v["results"][0].get("rejected").is_none());
        assert_eq!(v["comparison"]["agree"], true);
        assert_eq!(v["comparison"]["transactions"], serde_json::json!({"rtl": 4, "golden": 4}));
        assert_eq!(v["comparison"]["final_memory_bytes"], 9);
        assert_eq!(v["comparison"]["first_difference"], serde_json::Value::Null);
        assert_eq!(
            comparison.verdict(),
            "RTL and golden agree: 4 transactions, 3 results, final memory (9 non-zero bytes) equal (1 rejected messages not run by either)"
        );
        let differ = Comparison { agree: false, first_difference: Some("line 7, lane 0:\n golden 1, RTL 2".into()), ..comparison };
        assert_eq!(differ.verdict(), "RTL and golden differ (1 rejected messages not run by either): line 7, lane 0:;  golden 1, RTL 2");
        // without extensions: exactly the contract's JSON
        assert_eq!(json_extended(&sample(), &Extensions::default()), json(&sample()));
        assert!(!json(&sample()).contains("comparison"));
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
