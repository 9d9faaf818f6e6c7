//! `atomport verification`: the README's "Verification" table, from the
//! reports the long runs leave (`make verification` runs them all, then
//! this): mutation score per block (`make mutate`), functional bins per
//! build (`regress --report`), and the sections of the other long runs.
//! A section whose report is missing says which make target writes it; it
//! is never filled in from anything else.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::Value;

use atomport_core::diag::EXIT_BAD_INPUT;

/// README marker opening the generated table.
pub const BEGIN_MARKER: &str = "<!-- verification-table:begin -->";
/// README marker closing it.
pub const END_MARKER: &str = "<!-- verification-table:end -->";

/// Arguments of `atomport verification`.
#[derive(Args, Debug)]
pub struct VerificationArgs {
    /// Folder of the reports (`make verification` writes them there)
    #[arg(long, value_name = "DIR", default_value = "target/verification")]
    pub reports: PathBuf,
    /// Write the table into README.md (between its markers) instead of printing it
    #[arg(long)]
    pub readme: bool,
}

/// A report that could not be read or is not what its section expects.
#[derive(Debug)]
pub struct ReportError {
    path: String,
    msg: String,
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: error: {}", self.path, self.msg)
    }
}

fn report_error(path: &Path, msg: impl Into<String>) -> ReportError {
    ReportError { path: path.display().to_string(), msg: msg.into() }
}

fn read_json(path: &Path) -> Result<Value, ReportError> {
    let text = std::fs::read_to_string(path).map_err(|e| report_error(path, e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| report_error(path, format!("not JSON: {e}")))
}

fn field<'a>(v: &'a Value, path: &Path, key: &str) -> Result<&'a Value, ReportError> {
    v.get(key).ok_or_else(|| report_error(path, format!("no `{key}`")))
}

fn count(v: &Value, path: &Path, key: &str) -> Result<u64, ReportError> {
    field(v, path, key)?.as_u64().ok_or_else(|| report_error(path, format!("`{key}` is not a count")))
}

/// The JSON files of `dir` whose names start with `prefix`, sorted.
fn reports_in(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    found.retain(|p| {
        p.extension().and_then(|e| e.to_str()) == Some("json")
            && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix))
    });
    found.sort();
    found
}

/// Thousands separators, as the README's other tables.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One mutation report's row: block, seed, mutants, killed, proven
/// equivalent, waived, unexplained, the kill rate of the non-equivalent
/// mutants, wall time.
fn mutation_row(path: &Path) -> Result<String, ReportError> {
    let r = read_json(path)?;
    let block = field(&r, path, "block")?.as_str().ok_or_else(|| report_error(path, "`block` is not a name"))?.to_string();
    if r.get("selected").is_some_and(|v| !v.is_null()) {
        return Err(report_error(path, "a partial run (`mutate --select`) is not a table row"));
    }
    let t = field(&r, path, "totals")?;
    let (total, killed, equivalent, waived, unexplained) =
        (count(t, path, "total")?, count(t, path, "killed")?, count(t, path, "equivalent")?, count(t, path, "waived")?, count(t, path, "unexplained")?);
    if killed + equivalent + waived + unexplained != total {
        return Err(report_error(path, "its totals do not add up"));
    }
    let rate = if total > equivalent { 100.0 * killed as f64 / (total - equivalent) as f64 } else { 100.0 };
    let wall = field(&r, path, "wall_seconds")?.as_f64().unwrap_or(0.0);
    // an oversampled run: the mutants run are the first live ones of a longer list
    let dropped = r.get("dropped_unobservable").and_then(Value::as_u64).unwrap_or(0);
    let mutants = match r.get("listed").and_then(Value::as_u64) {
        Some(listed) if dropped > 0 => format!("{} (of {} listed; {} before them dropped as unobservable)", grouped(total), grouped(listed), grouped(dropped)),
        _ => grouped(total),
    };
    Ok(format!(
        "| `{block}` | {} | {} | {} | {} | {} | {} | {rate:.2}% | {:.0} s |",
        count(&r, path, "seed")?,
        mutants,
        grouped(killed),
        grouped(equivalent),
        grouped(waived),
        grouped(unexplained),
        wall
    ))
}

/// One regression report's functional coverage row: build, scripts,
/// messages, its summary line (`functional coverage H/R reachable bins hit`).
fn functional_row(path: &Path) -> Result<String, ReportError> {
    let r = read_json(path)?;
    let unit = field(&r, path, "unit")?.as_str().unwrap_or("?").to_string();
    let cov = field(&r, path, "coverage")?;
    let summary = field(cov, path, "summary")?.as_str().ok_or_else(|| report_error(path, "`coverage.summary` is not text"))?;
    let totals = field(&r, path, "totals")?;
    let messages = totals.get("messages").and_then(Value::as_u64).map(grouped).unwrap_or_else(|| "?".into());
    Ok(format!("| `{unit}` | {} | {messages} | {} |", grouped(count(&r, path, "total_scripts")?), summary.trim_start_matches("functional coverage ")))
}

/// One cross-simulator report's row: build, scripts, agreeing, messages,
/// cycles, signals compared per script, wall time.
fn xsim_row(path: &Path) -> Result<String, ReportError> {
    let r = read_json(path)?;
    let unit = field(&r, path, "unit")?.as_str().unwrap_or("?").to_string();
    let signals = field(&r, path, "signals_compared")?;
    Ok(format!(
        "| `{unit}` | {} | {} | {} | {} | {}..{} | {:.0} s |",
        grouped(count(&r, path, "scripts")?),
        grouped(count(&r, path, "agreeing")?),
        grouped(count(&r, path, "messages")?),
        grouped(count(&r, path, "cycles")?),
        count(signals, path, "min")?,
        count(signals, path, "max")?,
        field(&r, path, "wall_seconds")?.as_f64().unwrap_or(0.0)
    ))
}

/// The exhaustive float sweep's rows: per format and op, the pairs run (the
/// union of the reports' ranges) of all, mismatches, the rate.
fn exhaustive_rows(paths: &[PathBuf]) -> Result<Vec<String>, ReportError> {
    // (format, op) -> (ranges, of, mismatches, pairs, seconds)
    type Sweep = (Vec<(u64, u64)>, u64, u64, u64, f64);
    let mut by: std::collections::BTreeMap<(String, String), Sweep> = Default::default();
    for path in paths {
        let r = read_json(path)?;
        let name = |k: &str| field(&r, path, k).map(|v| v.as_str().unwrap_or("?").to_string());
        let e = by.entry((name("type")?, name("op")?)).or_default();
        e.0.push((count(&r, path, "start")?, count(&r, path, "end")?));
        e.1 = count(&r, path, "of")?;
        e.2 += count(&r, path, "mismatches")?;
        e.3 += count(&r, path, "pairs")?;
        e.4 += field(&r, path, "wall_seconds")?.as_f64().unwrap_or(0.0);
    }
    let mut rows = vec![];
    for ((ty, op), (mut ranges, of, mismatches, pairs, seconds)) in by {
        ranges.sort();
        let (mut covered, mut end) = (0u64, 0u64);
        for (a, b) in ranges {
            let a = a.max(end);
            if b > a {
                covered += b - a;
                end = b;
            }
        }
        let rate = if seconds > 0.0 { pairs as f64 / seconds } else { 0.0 };
        rows.push(format!("| {ty} | {op} | {} of {} | {mismatches} | {} pairs/s |", grouped(covered), grouped(of), grouped(rate as u64)));
    }
    Ok(rows)
}

/// The code coverage section, from `make rtl-coverage`'s summary
/// (`<dir>/rtl-coverage.json`, scripts/rtl_coverage.py): per build, each
/// kind's hit / (total - waived) and percentage after waivers, the points
/// waived, and whether the run met its thresholds.
fn code_coverage_section(dir: &Path) -> Result<String, ReportError> {
    let mut out = String::from(
        "**Code coverage** (`make rtl-coverage`: Verilator line / branch / toggle points after the reasoned waivers of `testbench/rtl-coverage-waivers.txt`; docs/testbench.md \"Code coverage of the RTL\")\n\n",
    );
    let path = dir.join("rtl-coverage.json");
    if !path.exists() {
        out.push_str("not run: `make rtl-coverage`\n\n");
        return Ok(out);
    }
    let r = read_json(&path)?;
    let builds = field(&r, &path, "builds")?.as_object().ok_or_else(|| report_error(&path, "`builds` is not an object"))?;
    let thresholds = field(&r, &path, "thresholds")?.as_object().ok_or_else(|| report_error(&path, "`thresholds` is not an object"))?;
    let failures = field(&r, &path, "failures")?.as_array().ok_or_else(|| report_error(&path, "`failures` is not a list"))?;
    out.push_str("| build | lines | branches | toggles | waived points |\n| --- | --- | --- | --- | --- |\n");
    for (build, kinds) in builds {
        let mut row = format!("| `{build}` |");
        let mut waived_all = 0;
        for kind in ["line", "branch", "toggle"] {
            let Some(k) = kinds.get(kind) else {
                row.push_str(" - |");
                continue;
            };
            let (hit, total, waived) = (count(k, &path, "hit")?, count(k, &path, "total")?, count(k, &path, "waived")?);
            if hit + waived > total {
                return Err(report_error(&path, format!("{build} {kind}: hit + waived exceeds the total")));
            }
            let percent = if total > waived { 100.0 * hit as f64 / (total - waived) as f64 } else { 100.0 };
            waived_all += waived;
            row.push_str(&format!(" {:.2}% ({}/{}) |", percent, grouped(hit), grouped(total - waived)));
        }
        row.push_str(&format!(" {} |\n", grouped(waived_all)));
        out.push_str(&row);
    }
    let mins: Vec<String> =
        thresholds.iter().map(|(k, v)| format!("{k} >= {}%", v.as_f64().map(|f| f.to_string()).unwrap_or_else(|| "?".into()))).collect();
    out.push_str(&format!(
        "\nThresholds {}: {}.\n\n",
        if mins.is_empty() { "none".to_string() } else { mins.join(", ") },
        if failures.is_empty() { "met, every waiver live".to_string() } else { format!("{} failure(s)", failures.len()) }
    ));
    Ok(out)
}

/// The whole table (the text between the README's markers).
pub fn table(dir: &Path) -> Result<String, ReportError> {
    let mut out = String::new();
    out.push_str(&format!("Figures from the reports in `{}` (`make verification`).\n\n", dir.display()));

    out.push_str("**Mutation** (`make mutate`: Yosys mutants of the emitted Verilog through each block's kill suite; docs/testbench.md \"Mutation testing\")\n\n");
    let mutation = reports_in(&dir.join("mutate"), "");
    if mutation.is_empty() {
        out.push_str("not run: `make mutate`\n\n");
    } else {
        out.push_str("| block | seed | mutants | killed | proven equivalent | waived | unexplained | killed of the non-equivalent | wall time |\n");
        out.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for p in &mutation {
            out.push_str(&mutation_row(p)?);
            out.push('\n');
        }
        out.push('\n');
    }

    out.push_str(&code_coverage_section(dir)?);

    out.push_str("**Functional bins** (`regress --coverage` on each build; docs/testbench.md \"Functional coverage\")\n\n");
    let functional = reports_in(dir, "regress-");
    if functional.is_empty() {
        out.push_str("not run: `make verification`\n");
    } else {
        out.push_str("| build | scripts | messages | bins |\n| --- | --- | --- | --- |\n");
        for p in &functional {
            out.push_str(&functional_row(p)?);
            out.push('\n');
        }
    }

    out.push_str("\n**Second simulator** (`make xsim`: seeded random scripts under Verilator, their inputs replayed on the emitted Verilog under Icarus, every signal of the unit compared; docs/waveforms.md \"At scale: `atomport xsim`\")\n\n");
    let xsim = reports_in(dir, "xsim-");
    if xsim.is_empty() {
        out.push_str("not run: `make xsim`\n");
    } else {
        out.push_str("| build | scripts | agreeing | messages | cycles | signals compared | wall time |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        for p in &xsim {
            out.push_str(&xsim_row(p)?);
            out.push('\n');
        }
    }

    out.push_str("\n**Every 16-bit float pair** (`make exhaustive`: each (old, src0) pair through the Verilated float ALU against the golden model's soft float)\n\n");
    let sweeps = reports_in(&dir.join("exhaustive"), "");
    if sweeps.is_empty() {
        out.push_str("not run: `make exhaustive`\n");
    } else {
        out.push_str("| format | op | pairs run | mismatches | rate |\n| --- | --- | --- | --- | --- |\n");
        for row in exhaustive_rows(&sweeps)? {
            out.push_str(&row);
            out.push('\n');
        }
    }
    Ok(out)
}

/// `readme` with the text between the markers replaced by `table`.
pub fn splice(readme: &str, table: &str) -> Option<String> {
    let begin = readme.find(BEGIN_MARKER)? + BEGIN_MARKER.len();
    let end = begin + readme[begin..].find(END_MARKER)?;
    Some(format!("{}\n{}{}", &readme[..begin], table, &readme[end..]))
}

pub fn verification_main(a: VerificationArgs) -> i32 {
    let text = match table(&a.reports) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("atomport verification: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if !a.readme {
        print!("{text}");
        return 0;
    }
    let readme = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let old = match std::fs::read_to_string(&readme) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("atomport verification: {}: error: {e}", readme.display());
            return EXIT_BAD_INPUT;
        }
    };
    let Some(new) = splice(&old, &text) else {
        eprintln!("atomport verification: {}: error: no `{BEGIN_MARKER}` ... `{END_MARKER}` markers", readme.display());
        return EXIT_BAD_INPUT;
    };
    if let Err(e) = atomport_core::output_file::write_file(&readme, new.as_bytes()) {
        eprintln!("atomport verification: {}; README.md left unchanged", e.msg);
        return EXIT_BAD_INPUT;
    }
    eprintln!("atomport verification: README.md's table rewritten from {}", a.reports.display());
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, v: Value) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(name), v.to_string()).unwrap();
    }

    #[test]
    fn the_table_has_a_row_per_report_and_says_what_did_not_run() {
        let dir = std::env::temp_dir().join(format!("atomport-verification-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let empty = table(&dir).unwrap();
        assert!(empty.contains("not run: `make mutate`"), "{empty}");
        write(
            &dir.join("mutate"),
            "alu-s1.json",
            serde_json::json!({"block": "alu", "seed": 1, "wall_seconds": 12.0,
                "totals": {"total": 200, "killed": 187, "equivalent": 11, "waived": 2, "unexplained": 0}}),
        );
        let t = table(&dir).unwrap();
        assert!(t.contains("| `alu` | 1 | 200 | 187 | 11 | 2 | 0 | 98.94% | 12 s |"), "{t}");
        // totals that do not add up are refused, not printed
        write(
            &dir.join("mutate"),
            "unit-s1.json",
            serde_json::json!({"block": "unit", "seed": 1, "wall_seconds": 1.0,
                "totals": {"total": 200, "killed": 100, "equivalent": 0, "waived": 0, "unexplained": 0}}),
        );
        assert!(table(&dir).unwrap_err().to_string().contains("do not add up"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn cross_simulator_and_float_sweep_rows_come_from_their_reports() {
        let dir = std::env::temp_dir().join(format!("atomport-verification-x-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let t = table(&dir).unwrap();
        assert!(t.contains("not run: `make xsim`") && t.contains("not run: `make exhaustive`"), "{t}");
        write(
            &dir,
            "xsim-l8_w32_int.json",
            serde_json::json!({"unit": "l8_w32_int", "scripts": 200, "agreeing": 200, "messages": 8000, "cycles": 123456,
                "signals_compared": {"min": 900, "max": 950}, "wall_seconds": 301.2}),
        );
        // two overlapping ranges of one op count their union once
        let sweep = |start: u64, end: u64, mismatches: u64| {
            serde_json::json!({"type": "f16", "op": "fadd", "start": start, "end": end, "pairs": end - start,
                "of": 1u64 << 32, "mismatches": mismatches, "wall_seconds": 10.0})
        };
        write(&dir.join("exhaustive"), "f16-fadd-0-100.json", sweep(0, 100, 0));
        write(&dir.join("exhaustive"), "f16-fadd-50-300.json", sweep(50, 300, 1));
        let t = table(&dir).unwrap();
        assert!(t.contains("| `l8_w32_int` | 200 | 200 | 8,000 | 123,456 | 900..950 | 301 s |"), "{t}");
        assert!(t.contains("| f16 | fadd | 300 of 4,294,967,296 | 1 | 17 pairs/s |"), "{t}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_code_coverage_section_reads_the_rtl_coverage_summary() {
        let dir = std::env::temp_dir().join(format!("atomport-verification-cov-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(code_coverage_section(&dir).unwrap().contains("not run: `make rtl-coverage`"));
        let kind = |hit: u64, total: u64, waived: u64| serde_json::json!({"hit": hit, "total": total, "waived": waived});
        write(
            &dir,
            "rtl-coverage.json",
            serde_json::json!({"thresholds": {"branch": 95.0, "toggle": 90.0}, "failures": [],
                "builds": {"unit": {"line": kind(10, 10, 0), "branch": kind(19, 21, 1), "toggle": kind(900, 1000, 50)}}}),
        );
        let t = code_coverage_section(&dir).unwrap();
        assert!(t.contains("| `unit` | 100.00% (10/10) | 95.00% (19/20) | 94.74% (900/950) | 51 |"), "{t}");
        assert!(t.contains("branch >= 95%, toggle >= 90%: met"), "{t}");
        // counts that do not add up are refused, not printed
        write(&dir, "rtl-coverage.json", serde_json::json!({"thresholds": {}, "failures": [], "builds": {"unit": {"line": kind(10, 5, 0)}}}));
        assert!(code_coverage_section(&dir).unwrap_err().to_string().contains("exceeds the total"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn splice_replaces_only_between_the_markers() {
        let readme = format!("a\n{BEGIN_MARKER}\nold\n{END_MARKER}\nb\n");
        assert_eq!(splice(&readme, "new\n").unwrap(), format!("a\n{BEGIN_MARKER}\nnew\n{END_MARKER}\nb\n"));
        assert!(splice("no markers", "t").is_none());
    }
}
