//! Reports of a [`RunOutput`]: the JSON of scripts.md "JSON output" (the
//! contract acceptance checks parse) and a table for people.

use crate::outcome::{DumpOut, LaneResults, RunOutput};
use serde::Serialize;
use std::fmt::Write;

/// A lane value as `0x` + exactly `width / 4` lower-case hex digits.
pub fn lane_hex(value: u128, width: u32) -> String {
    let digits = (width as usize).div_ceil(4);
    let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
    format!("0x{:0digits$x}", value & mask)
}

/// Lower-case hex of bytes in address order, two digits per byte.
fn bytes_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        write!(s, "{b:02x}").unwrap();
    }
    s
}

/// One `results` entry (scripts.md "JSON output").
#[derive(Serialize)]
struct ResultJson<'a> {
    line: usize,
    name: &'a str,
    width: u32,
    /// `0x` + width/4 hex digits, `null` for a disabled lane
    lanes: Vec<Option<String>>,
    /// extension: the unit build rejected the message (every lane null)
    #[serde(skip_serializing_if = "Option::is_none")]
    rejected: Option<&'a str>,
}

impl<'a> ResultJson<'a> {
    fn new(r: &'a LaneResults, rejected: Option<&'a str>) -> Self {
        ResultJson {
            line: r.line,
            name: &r.name,
            width: r.width,
            lanes: r.lanes.iter().map(|l| l.map(|v| lane_hex(v, r.width))).collect(),
            rejected,
        }
    }
}

/// One `dumps` entry.
#[derive(Serialize)]
struct DumpJson {
    space: &'static str,
    addr: String,
    hex: String,
}

impl DumpJson {
    fn new(d: &DumpOut) -> Self {
        DumpJson { space: d.space.name(), addr: format!("0x{:x}", d.addr), hex: bytes_hex(&d.bytes) }
    }
}

/// The whole run: scripts.md's three keys, then the extensions.
#[derive(Serialize)]
struct RunJson<'a> {
    engine: &'a str,
    results: Vec<ResultJson<'a>>,
    dumps: Vec<DumpJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<ComparisonJson<'a>>,
}

/// The `comparison` extension of `--engine both`.
#[derive(Serialize)]
struct ComparisonJson<'a> {
    engines: [&'static str; 2],
    agree: bool,
    transactions: EnginePair,
    results: EnginePair,
    final_memory_bytes: usize,
    rejected: usize,
    first_difference: Option<&'a str>,
}

/// A count per engine.
#[derive(Serialize)]
struct EnginePair {
    rtl: usize,
    golden: usize,
}

/// The JSON layout of scripts.md's examples, as a serde_json formatter: the
/// top-level object one key per line (two spaces), its arrays one item per
/// line (four spaces; `[]` when empty), everything deeper on one line with
/// `", "` and `": "` between items.
#[derive(Default)]
struct ScriptsLayout {
    /// per open container, outermost first: (is an object, has items)
    open: Vec<(bool, bool)>,
}

impl serde_json::ser::Formatter for ScriptsLayout {
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open.push((true, false));
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let top = self.open.len() == 1;
        let (_, items) = self.open.pop().unwrap_or((true, false));
        w.write_all(if top && items { b"\n}" } else { b"}" })
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if let Some(last) = self.open.last_mut() {
            last.1 = true;
        }
        match (self.open.len() == 1, first) {
            (true, true) => w.write_all(b"\n  "),
            (true, false) => w.write_all(b",\n  "),
            (false, true) => Ok(()),
            (false, false) => w.write_all(b", "),
        }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open.push((false, false));
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let spread = self.open.len() == 2;
        let (_, items) = self.open.pop().unwrap_or((false, false));
        w.write_all(if spread && items { b"\n  ]" } else { b"]" })
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if let Some(last) = self.open.last_mut() {
            last.1 = true;
        }
        match (self.open.len() == 2, first) {
            (true, true) => w.write_all(b"\n    "),
            (true, false) => w.write_all(b",\n    "),
            (false, true) => Ok(()),
            (false, false) => w.write_all(b", "),
        }
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

    fn json(&self) -> ComparisonJson<'_> {
        ComparisonJson {
            engines: ["rtl", "golden"],
            agree: self.agree,
            transactions: EnginePair { rtl: self.rtl_transactions, golden: self.golden_transactions },
            results: EnginePair { rtl: self.rtl_results, golden: self.golden_results },
            final_memory_bytes: self.final_memory_bytes,
            rejected: self.rejected,
            first_difference: self.first_difference.as_deref(),
        }
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
    let mut results: Vec<ResultJson> = out.results.iter().map(|r| ResultJson::new(r, None)).collect();
    results.extend(ext.rejected.iter().map(|r| ResultJson::new(&r.result, Some(&r.why))));
    // one statement per line: lines order the entries as the script does
    results.sort_by_key(|r| r.line);
    let run = RunJson {
        engine: out.engine,
        results,
        dumps: out.dumps.iter().map(DumpJson::new).collect(),
        comparison: ext.comparison.as_ref().map(Comparison::json),
    };
    let mut bytes = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut bytes, ScriptsLayout::default());
    run.serialize(&mut ser).expect("the run serializes");
    let mut text = String::from_utf8(bytes).expect("serde_json writes UTF-8");
    text.push('\n');
    text
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
