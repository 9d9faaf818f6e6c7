//! Machine-readable regression results: the report JSON of
//! `atomport regress --report FILE.json` (format `atomport-regress/1`), its
//! merge over shards (`atomport merge`), and JUnit XML (`--junit FILE`), the
//! format Jenkins, GitLab, GitHub Actions and cocotb's results.xml speak.
//!
//! A report carries the options that define the run's scripts (seed, count,
//! per-script, latency, stall, unit, kinds, ops), one entry per script run
//! (its seed, messages, cycles, rejections, verdict and, for a failure, the
//! first difference, the failing script file and the one-line reproduce
//! command), and the coverage. Shards of one run share the options; their
//! merge is the run's report: scripts in order, coverage summed.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::funcov::{CoverSpace, FunctionalCoverage};
use super::regress::{RegressConfig, RegressReport, Shard};

/// The format tag of a report.
pub const FORMAT: &str = "atomport-regress/1";

/// A failing script as a report keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct FailureRecord {
    /// the first difference (or the watchdog / contract report)
    pub what: String,
    pub file: String,
    /// `atomport regress ... --script k`
    pub reproduce: String,
    /// `atomport run FILE --engine both ...`
    pub run_command: String,
    /// the traced re-run, or why there is none
    pub vcd: TraceFile,
}

/// A failure's waveform as a report records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceFile {
    /// the traced re-run's file (`"vcd"` in the JSON)
    Written(String),
    /// why there is none (`"vcd_error"`)
    NotWritten(String),
}

impl TraceFile {
    pub fn path(&self) -> Option<&str> {
        match self {
            TraceFile::Written(p) => Some(p),
            TraceFile::NotWritten(_) => None,
        }
    }

    pub fn why_not(&self) -> Option<&str> {
        match self {
            TraceFile::Written(_) => None,
            TraceFile::NotWritten(why) => Some(why),
        }
    }
}

/// Why a report cannot be read or merged.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{name}:{line}:{column}: error: not JSON: {}", json_error_text(source))]
    NotJson { name: String, line: usize, column: usize, source: serde_json::Error },
    #[error("{name}:1:1: error: not JSON: the file is empty")]
    Empty { name: String },
    #[error("{name}: error: not an {} report: {what}", FORMAT)]
    NotAReport { name: String, what: String },
    #[error("nothing to merge")]
    NothingToMerge,
    #[error("{name}: error: a report of another run: `{options}` (`{first_name}` has `{first_options}`)")]
    OtherRun { name: String, options: String, first_name: String, first_options: String },
    #[error("{name}: error: a --script run cannot be merged with other reports")]
    ScriptRun { name: String },
    #[error("{name}: error: script {script} is also in {other}: the shards overlap")]
    Overlap { name: String, script: usize, other: String },
}

/// Why xmllint could not say a JUnit file is valid.
#[derive(Debug, thiserror::Error)]
pub enum XmllintError {
    #[error("{}: {source}", dir.display())]
    Io { dir: std::path::PathBuf, source: std::io::Error },
    #[error("xmllint: {0}")]
    Spawn(std::io::Error),
    /// xmllint's complaints
    #[error("{0}")]
    Invalid(String),
}

/// One script of a report.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptRecord {
    pub index: usize,
    pub seed: u64,
    pub messages: usize,
    pub cycles: u64,
    pub rejected: usize,
    pub seconds: f64,
    /// the shard that ran it (`None`: an unsharded run)
    pub shard: Option<Shard>,
    pub failure: Option<FailureRecord>,
}

/// A regression report: one run, one shard of it, or a merge.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    /// the options that define the scripts (`RegressConfig::run_options`)
    pub options: String,
    pub seed: u64,
    pub count: usize,
    pub per_script: usize,
    /// scripts in the whole (unsharded) run
    pub total_scripts: usize,
    pub unit: String,
    /// the shards this report holds (empty: unsharded or every shard)
    pub shards: Vec<Shard>,
    /// `atomport merge`'s report: it stands for the whole run, so a shard
    /// no report held is missing (JSON `"merged"`)
    pub merged: bool,
    /// `--script k`
    pub script: Option<usize>,
    pub jobs: usize,
    pub seconds: f64,
    /// max-failures ended a run (of a shard) early
    pub stopped_early: bool,
    pub scripts: Vec<ScriptRecord>,
    /// functional coverage hits of the scripts that agreed
    pub coverage: FunctionalCoverage,
    /// the coverage bins of the run's build and memory options
    pub space: CoverSpace,
}

/// [`RunRecord::to_json`]'s layout.
#[derive(Serialize)]
struct ReportJson<'a> {
    format: &'static str,
    options: &'a str,
    seed: u64,
    count: usize,
    per_script: usize,
    total_scripts: usize,
    unit: &'a str,
    shards: Vec<String>,
    merged: bool,
    script: Option<usize>,
    jobs: usize,
    seconds: f64,
    stopped_early: bool,
    totals: TotalsJson,
    scripts: Vec<ScriptJson<'a>>,
    coverage: CoverageJson<'a>,
}

/// The report's sums.
#[derive(Serialize)]
struct TotalsJson {
    scripts: usize,
    messages: usize,
    cycles: u64,
    rejected: usize,
    failures: usize,
    missing: Vec<usize>,
}

/// One script of the report.
#[derive(Serialize)]
struct ScriptJson<'a> {
    index: usize,
    /// `0x...`
    seed: String,
    messages: usize,
    cycles: u64,
    rejected: usize,
    seconds: f64,
    shard: Option<String>,
    /// `pass` or `fail`
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<FailureJson<'a>>,
}

impl<'a> ScriptJson<'a> {
    fn new(s: &'a ScriptRecord) -> Self {
        ScriptJson {
            index: s.index,
            seed: format!("{:#x}", s.seed),
            messages: s.messages,
            cycles: s.cycles,
            rejected: s.rejected,
            seconds: s.seconds,
            shard: s.shard.map(|x| x.to_string()),
            status: if s.failure.is_some() { "fail" } else { "pass" },
            failure: s.failure.as_ref().map(|f| FailureJson {
                what: &f.what,
                file: &f.file,
                reproduce: &f.reproduce,
                run: &f.run_command,
                vcd: f.vcd.path(),
                vcd_error: f.vcd.why_not(),
            }),
        }
    }
}

/// A failing script: its first difference, files and commands.
#[derive(Serialize)]
struct FailureJson<'a> {
    what: &'a str,
    file: &'a str,
    reproduce: &'a str,
    run: &'a str,
    vcd: Option<&'a str>,
    vcd_error: Option<&'a str>,
}

/// The run's functional coverage.
#[derive(Serialize)]
struct CoverageJson<'a> {
    summary: String,
    holes: Vec<String>,
    hits: &'a BTreeMap<String, BTreeMap<String, u64>>,
    space: Value,
}

/// What [`RunRecord::outcome`] compares.
#[derive(Serialize)]
struct OutcomeJson<'a> {
    options: &'a str,
    /// index, seed, messages, cycles, rejected, first difference
    scripts: Vec<(usize, u64, usize, u64, usize, Option<&'a str>)>,
    coverage: &'a BTreeMap<String, BTreeMap<String, u64>>,
}

impl RunRecord {
    /// The record of a finished run.
    pub fn new(cfg: &RegressConfig, report: &RegressReport, seconds: f64) -> RunRecord {
        let scripts = report
            .outcomes
            .iter()
            .map(|o| ScriptRecord {
                index: o.index,
                seed: o.seed,
                messages: o.messages,
                cycles: o.cycles,
                rejected: o.rejected,
                seconds: o.seconds,
                shard: cfg.shard_of(o.index),
                failure: o.failure.as_ref().map(|f| FailureRecord {
                    what: f.what.clone(),
                    file: f.file.display().to_string(),
                    reproduce: f.reproduce.clone(),
                    run_command: f.run_command.clone(),
                    vcd: match &f.vcd {
                        Ok(p) => TraceFile::Written(p.display().to_string()),
                        Err(why) => TraceFile::NotWritten(why.to_string()),
                    },
                }),
            })
            .collect();
        RunRecord {
            options: cfg.run_options(),
            seed: cfg.seed,
            count: cfg.count,
            per_script: cfg.per_script,
            total_scripts: cfg.total_scripts(),
            unit: cfg.unit.name(),
            shards: cfg.shard.into_iter().collect(),
            merged: false,
            script: cfg.script,
            jobs: cfg.jobs,
            seconds,
            stopped_early: report.stopped_early,
            scripts,
            coverage: report.coverage.clone(),
            space: report.space.clone(),
        }
    }

    pub fn messages(&self) -> usize {
        self.scripts.iter().map(|s| s.messages).sum()
    }

    pub fn cycles(&self) -> u64 {
        self.scripts.iter().map(|s| s.cycles).sum()
    }

    pub fn rejected(&self) -> usize {
        self.scripts.iter().map(|s| s.rejected).sum()
    }

    pub fn failures(&self) -> impl Iterator<Item = (&ScriptRecord, &FailureRecord)> {
        self.scripts.iter().filter_map(|s| s.failure.as_ref().map(|f| (s, f)))
    }

    /// Scripts that no report holds: of the whole run for a merge or an
    /// unsharded run (shards missing, or stopped early), of its shard for a
    /// shard's own report (stopped early); empty for a `--script` run.
    pub fn missing(&self) -> Vec<usize> {
        if self.script.is_some() {
            return vec![];
        }
        let have: std::collections::BTreeSet<usize> = self.scripts.iter().map(|s| s.index).collect();
        let in_run = |k: usize| self.merged || self.shards.is_empty() || self.shards.iter().any(|s| s.has(k));
        (0..self.total_scripts).filter(|k| in_run(*k) && !have.contains(k)).collect()
    }

    /// What must be equal between two runs of the same scripts (a merge and
    /// the unsharded run, `--jobs 1` and `--jobs N`): every script's number,
    /// seed, messages, cycles, rejections, verdict and first difference, and
    /// the coverage. Not compared: wall times, jobs, shards.
    pub fn outcome(&self) -> Value {
        let outcome = OutcomeJson {
            options: &self.options,
            scripts: self.scripts.iter().map(|s| (s.index, s.seed, s.messages, s.cycles, s.rejected, s.failure.as_ref().map(|f| f.what.as_str()))).collect(),
            coverage: &self.coverage.hits,
        };
        serde_json::to_value(outcome).expect("JSON")
    }

    /// The first difference between the outcomes of two reports, if any.
    pub fn differs_from(&self, other: &RunRecord) -> Option<String> {
        if self.options != other.options {
            return Some(format!("options differ: `{}` vs `{}`", self.options, other.options));
        }
        let (a, b) = (&self.scripts, &other.scripts);
        for (x, y) in a.iter().zip(b.iter()) {
            let key = |s: &ScriptRecord| (s.index, s.seed, s.messages, s.cycles, s.rejected, s.failure.as_ref().map(|f| f.what.clone()));
            if key(x) != key(y) {
                return Some(format!("script {}: {:?} vs script {}: {:?}", x.index, key(x), y.index, key(y)));
            }
        }
        if a.len() != b.len() {
            let (longer, n) = if a.len() > b.len() { (a, b.len()) } else { (b, a.len()) };
            return Some(format!(
                "{} scripts vs {}: script {} is only in the {} report",
                a.len(),
                b.len(),
                longer[n].index,
                if a.len() > b.len() { "first" } else { "second" }
            ));
        }
        let (ca, cb) = (self.coverage.to_json(), other.coverage.to_json());
        if ca != cb {
            return Some(format!("coverage differs:\n  {ca}\n  {cb}"));
        }
        None
    }

    /// The report (format [`FORMAT`]), through a `Value`: its keys print
    /// sorted.
    pub fn to_json(&self) -> Value {
        let report = ReportJson {
            format: FORMAT,
            options: &self.options,
            seed: self.seed,
            count: self.count,
            per_script: self.per_script,
            total_scripts: self.total_scripts,
            unit: &self.unit,
            shards: self.shards.iter().map(|s| s.to_string()).collect(),
            merged: self.merged,
            script: self.script,
            jobs: self.jobs,
            seconds: self.seconds,
            stopped_early: self.stopped_early,
            totals: TotalsJson {
                scripts: self.scripts.len(),
                messages: self.messages(),
                cycles: self.cycles(),
                rejected: self.rejected(),
                failures: self.failures().count(),
                missing: self.missing(),
            },
            scripts: self.scripts.iter().map(ScriptJson::new).collect(),
            coverage: CoverageJson {
                summary: self.coverage.summary(&self.space),
                holes: self.coverage.holes(&self.space).iter().map(|(g, b)| format!("{g}: {b}")).collect(),
                hits: &self.coverage.hits,
                space: self.space.to_json(),
            },
        };
        serde_json::to_value(report).expect("JSON")
    }

    /// Reads a report written by [`RunRecord::to_json`]; `name` for errors.
    pub fn from_json(name: &str, text: &str) -> Result<RunRecord, ReportError> {
        if text.trim().is_empty() {
            return Err(ReportError::Empty { name: name.to_string() });
        }
        // serde_json counts columns from 0 at the start of a line (an error
        // before the first character); diagnostics count from 1
        let v: Value = serde_json::from_str(text).map_err(|source| ReportError::NotJson {
            name: name.to_string(),
            line: source.line().max(1),
            column: source.column().max(1),
            source,
        })?;
        let err = |what: &str| ReportError::NotAReport { name: name.to_string(), what: what.to_string() };
        if v["format"] != FORMAT {
            return Err(err("no \"format\": \"atomport-regress/1\""));
        }
        let u = |k: &str| v[k].as_u64().ok_or_else(|| err(&format!("\"{k}\" missing")));
        let s = |k: &str| v[k].as_str().map(str::to_string).ok_or_else(|| err(&format!("\"{k}\" missing")));
        let shard = |x: &Value| -> Result<Option<Shard>, ReportError> {
            match x.as_str() {
                None => Ok(None),
                Some(t) => t.parse().map(Some).map_err(|e: super::regress::ShardError| err(&e.to_string())),
            }
        };
        let mut scripts = vec![];
        for (i, x) in v["scripts"].as_array().ok_or_else(|| err("\"scripts\" missing"))?.iter().enumerate() {
            let n = |k: &str| x[k].as_u64().ok_or_else(|| err(&format!("scripts[{i}].{k} missing")));
            let seed = x["seed"].as_str().and_then(|t| u64::from_str_radix(t.trim_start_matches("0x"), 16).ok()).ok_or_else(|| err(&format!("scripts[{i}].seed")))?;
            let failure = match x.get("failure") {
                None | Some(Value::Null) => None,
                Some(f) => {
                    let t = |k: &str| f[k].as_str().unwrap_or("").to_string();
                    Some(FailureRecord {
                        what: t("what"),
                        file: t("file"),
                        reproduce: t("reproduce"),
                        run_command: t("run"),
                        vcd: match f["vcd"].as_str() {
                            Some(p) => TraceFile::Written(p.to_string()),
                            None => TraceFile::NotWritten(t("vcd_error")),
                        },
                    })
                }
            };
            scripts.push(ScriptRecord {
                index: n("index")? as usize,
                seed,
                messages: n("messages")? as usize,
                cycles: n("cycles")?,
                rejected: n("rejected")? as usize,
                seconds: x["seconds"].as_f64().unwrap_or(0.0),
                shard: shard(&x["shard"])?,
                failure,
            });
        }
        let mut shards = vec![];
        for x in v["shards"].as_array().ok_or_else(|| err("\"shards\" missing"))? {
            shards.extend(shard(x)?);
        }
        Ok(RunRecord {
            options: s("options")?,
            seed: u("seed")?,
            count: u("count")? as usize,
            per_script: u("per_script")? as usize,
            total_scripts: u("total_scripts")? as usize,
            unit: s("unit")?,
            shards,
            merged: v["merged"].as_bool().unwrap_or(false),
            script: v["script"].as_u64().map(|k| k as usize),
            jobs: u("jobs")? as usize,
            seconds: v["seconds"].as_f64().unwrap_or(0.0),
            stopped_early: v["stopped_early"].as_bool().unwrap_or(false),
            scripts,
            coverage: FunctionalCoverage::from_json(&v["coverage"]["hits"]).map_err(|e| err(&e.to_string()))?,
            space: CoverSpace::from_json(&v["coverage"]["space"]).map_err(|e| err(&e.to_string()))?,
        })
    }
}

/// serde_json's message without its own " at line L column C" (the
/// diagnostic's `FILE:LINE:COL` says where).
fn json_error_text(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Merges shard reports of one run: same options, no script twice; scripts
/// in order, coverage summed. Scripts no report holds are listed by
/// [`RunRecord::missing`].
pub fn merge(records: &[(String, RunRecord)]) -> Result<RunRecord, ReportError> {
    let Some((first_name, first)) = records.first() else {
        return Err(ReportError::NothingToMerge);
    };
    let mut out = RunRecord {
        shards: vec![],
        merged: true,
        scripts: vec![],
        coverage: FunctionalCoverage::default(),
        seconds: 0.0,
        jobs: 0,
        stopped_early: false,
        ..first.clone()
    };
    let mut seen = std::collections::BTreeMap::new();
    for (name, r) in records {
        if r.options != first.options {
            return Err(ReportError::OtherRun {
                name: name.clone(),
                options: r.options.clone(),
                first_name: first_name.clone(),
                first_options: first.options.clone(),
            });
        }
        if r.script != first.script {
            return Err(ReportError::ScriptRun { name: name.clone() });
        }
        for s in &r.shards {
            if !out.shards.contains(s) {
                out.shards.push(*s);
            }
        }
        for s in &r.scripts {
            if let Some(other) = seen.insert(s.index, name.clone()) {
                return Err(ReportError::Overlap { name: name.clone(), script: s.index, other });
            }
            out.scripts.push(s.clone());
        }
        out.coverage.merge(&r.coverage);
        out.seconds = out.seconds.max(r.seconds);
        out.jobs += r.jobs;
        out.stopped_early |= r.stopped_early;
    }
    out.scripts.sort_by_key(|s| s.index);
    out.shards.sort_by_key(|s| (s.count, s.index));
    // a full set of shards is the whole run
    if let Some(n) = out.shards.first().map(|s| s.count) {
        if out.shards.iter().all(|s| s.count == n) && out.shards.len() == n {
            out.shards.clear();
        }
    }
    Ok(out)
}

/// One JUnit test case.
#[derive(Clone, Debug)]
pub struct JunitCase {
    pub classname: String,
    pub name: String,
    pub seconds: f64,
    /// (message: one line, text: the whole report incl. the reproduce command)
    pub failure: Option<(String, String)>,
    /// the failure's `type`: [`JunitCase::MISMATCH`] or [`JunitCase::REJECTED`]
    pub failure_type: &'static str,
}

impl JunitCase {
    /// A check failed: the RTL differs from the golden model, or the run broke.
    pub const MISMATCH: &'static str = "mismatch";
    /// The unit build rejected messages it does not admit, so the script
    /// did not run whole (`run --unit`, exit 3).
    pub const REJECTED: &'static str = "rejected";
}

/// Text as XML character data / attribute value: escaped, and characters
/// XML 1.0 cannot carry replaced by `?`.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// A JUnit XML document with one test suite, valid against the Apache
/// Ant / Jenkins JUnit schema (windyroad `JUnit.xsd`): `testsuites` without
/// attributes > `testsuite` (name, timestamp, hostname, tests, failures,
/// errors, skipped, time, package, id) > `properties`, `testcase`s (at most
/// one `failure` each), `system-out`, `system-err`. Written here rather
/// than with `quick-junit`: its `<testsuites>` always carries counts, its
/// `<testsuite>` has no `hostname`, `id` or `package`, and its timestamps
/// carry a zone, all of which that schema rejects.
pub fn junit_xml(suite: &str, properties: &[(&str, String)], cases: &[JunitCase], system_out: &str) -> String {
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let time: f64 = cases.iter().map(|c| c.seconds).sum();
    let host = std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()).unwrap_or_else(|| "localhost".into());
    let stamp = timestamp();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x += "<testsuites>\n";
    x += &format!(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\" time=\"{time:.3}\" timestamp=\"{stamp}\" hostname=\"{}\" id=\"0\" package=\"atomport\">\n",
        xml_escape(suite),
        cases.len(),
        xml_escape(&host)
    );
    x += "    <properties>\n";
    for (k, v) in properties {
        x += &format!("      <property name=\"{}\" value=\"{}\"/>\n", xml_escape(k), xml_escape(v));
    }
    x += "    </properties>\n";
    for c in cases {
        x += &format!(
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
            xml_escape(&c.classname),
            xml_escape(&c.name),
            c.seconds
        );
        match &c.failure {
            None => x += "/>\n",
            Some((message, text)) => {
                x += &format!(
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    xml_escape(message),
                    xml_escape(c.failure_type),
                    xml_escape(text)
                )
            }
        }
    }
    x += &format!("    <system-out>{}</system-out>\n    <system-err></system-err>\n  </testsuite>\n</testsuites>\n", xml_escape(system_out));
    x
}

/// Now as `YYYY-MM-DDTHH:MM:SS` (UTC; the schema's xs:dateTime without a zone).
fn timestamp() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%S").to_string()
}

/// The JUnit test cases of a regression report: one per script, a failure
/// carrying the first difference, the failing script and the reproduce command.
pub fn junit_cases(r: &RunRecord) -> Vec<JunitCase> {
    r.scripts
        .iter()
        .map(|s| {
            let shard = s.shard.map_or(String::new(), |x| format!(", shard {x}"));
            JunitCase {
                classname: format!("atomport.regress.seed{}", r.seed),
                name: format!("script {} (seed {:#x}{shard})", s.index, s.seed),
                seconds: s.seconds,
                failure: s.failure.as_ref().map(|f| {
                    let first = f.what.lines().next().unwrap_or("").to_string();
                    let text = format!(
                        "{}\nfailing script: {}\nreproduce: {}\nor: {}\n",
                        f.what, f.file, f.reproduce, f.run_command
                    );
                    (format!("{first} -- reproduce: {}", f.reproduce), text)
                }),
                failure_type: JunitCase::MISMATCH,
            }
        })
        .collect()
}

/// The JUnit XML of a regression report.
pub fn junit_of_run(r: &RunRecord) -> String {
    let mut props = vec![("options", r.options.clone()), ("unit", r.unit.clone())];
    if !r.shards.is_empty() {
        props.push(("shards", r.shards.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")));
    }
    let missing = r.missing();
    if !missing.is_empty() {
        props.push(("missing_scripts", format!("{missing:?}")));
    }
    let out: String = r
        .scripts
        .iter()
        .map(|s| format!("script {}: {} messages, {} cycles, {} rejected by the build, {}\n", s.index, s.messages, s.cycles, s.rejected, if s.failure.is_some() { "FAILED" } else { "agreed" }))
        .collect();
    junit_xml(&format!("atomport regress {}", r.options), &props, &junit_cases(r), &out)
}

/// The JUnit schema every JUnit file of atomport follows
/// (`testbench/schemas/junit-ant.xsd`: the Apache Ant / Jenkins dialect).
pub const JUNIT_XSD: &str = include_str!("../schemas/junit-ant.xsd");

/// Validates a JUnit document against [`JUNIT_XSD`] with `xmllint`
/// (Debian `libxml2-utils`): `Ok(true)` valid, `Ok(false)` xmllint is not
/// installed (nothing checked), `Err` xmllint's complaints.
pub fn xmllint_junit(xml: &str) -> Result<bool, XmllintError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("atomport-xmllint-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).map_err(|source| XmllintError::Io { dir: dir.clone(), source })?;
    let (xsd, doc) = (dir.join("junit-ant.xsd"), dir.join("junit.xml"));
    std::fs::write(&xsd, JUNIT_XSD).and_then(|_| std::fs::write(&doc, xml)).map_err(|source| XmllintError::Io { dir: dir.clone(), source })?;
    let out = std::process::Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(&doc).output();
    let _ = std::fs::remove_dir_all(&dir);
    match out {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(XmllintError::Spawn(e)),
        Ok(o) if o.status.success() => Ok(true),
        Ok(o) => Err(XmllintError::Invalid(format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(scripts: &[(usize, bool)]) -> RunRecord {
        RunRecord {
            options: "--seed 1 --count 400 --per-script 100".into(),
            seed: 1,
            count: 400,
            per_script: 100,
            total_scripts: 4,
            unit: "l32_w128".into(),
            shards: vec![],
            merged: false,
            script: None,
            jobs: 1,
            seconds: 1.0,
            stopped_early: false,
            scripts: scripts
                .iter()
                .map(|&(index, fail)| ScriptRecord {
                    index,
                    seed: index as u64 + 10,
                    messages: 100,
                    cycles: 1000 + index as u64,
                    rejected: 0,
                    seconds: 0.1,
                    shard: None,
                    failure: fail.then(|| FailureRecord {
                        what: "line 3 (message 1): write <0x10> & \"x\"".into(),
                        file: "target/regress/fail-1-2.atom".into(),
                        reproduce: format!("atomport regress --seed 1 --count 400 --per-script 100 --script {index}"),
                        run_command: "atomport run target/regress/fail-1-2.atom --engine both".into(),
                        vcd: TraceFile::NotWritten("not traced".into()),
                    }),
                })
                .collect(),
            coverage: FunctionalCoverage::default(),
            space: CoverSpace::default(),
        }
    }

    #[test]
    fn a_report_reads_back_as_written() {
        let r = record(&[(0, false), (1, false), (2, true), (3, false)]);
        let text = serde_json::to_string_pretty(&r.to_json()).unwrap();
        let back = RunRecord::from_json("r.json", &text).unwrap();
        assert_eq!(back, r);
        assert!(RunRecord::from_json("x.json", "{}").unwrap_err().to_string().contains("not an atomport-regress/1 report"));
        assert_eq!(RunRecord::from_json("e.json", "").unwrap_err().to_string(), "e.json:1:1: error: not JSON: the file is empty");
        assert_eq!(RunRecord::from_json("e.json", "\n{\n").unwrap_err().to_string(), "e.json:3:1: error: not JSON: EOF while parsing an object");
    }

    #[test]
    fn merged_shards_equal_the_whole_and_overlaps_or_gaps_are_seen() {
        let whole = record(&[(0, false), (1, false), (2, true), (3, false)]);
        let part = |ks: &[usize]| {
            let mut r = record(&ks.iter().map(|&k| (k, k == 2)).collect::<Vec<_>>());
            r.shards = vec![Shard { index: ks[0] % 2 + 1, count: 2 }];
            r
        };
        let m = merge(&[("b".into(), part(&[1, 3])), ("a".into(), part(&[0, 2]))]).unwrap();
        assert_eq!(m.differs_from(&whole), None);
        assert!(m.missing().is_empty() && m.shards.is_empty());
        // a shard that lost a script: the merge differs and names it
        let m = merge(&[("b".into(), part(&[1])), ("a".into(), part(&[0, 2]))]).unwrap();
        assert_eq!(m.missing(), vec![3]);
        assert!(m.differs_from(&whole).unwrap().contains("script 3"), "{:?}", m.differs_from(&whole));
        assert!(merge(&[("a".into(), part(&[0, 2])), ("c".into(), part(&[2]))]).unwrap_err().to_string().contains("overlap"));
        // one shard alone is not the run: the other shard's scripts are missing
        let one = merge(&[("a".into(), part(&[0, 2]))]).unwrap();
        assert_eq!(one.missing(), vec![1, 3]);
        assert_eq!(one.to_json()["totals"]["missing"], serde_json::json!([1, 3]));
        // a shard's own report misses nothing of the other shards
        assert!(part(&[0, 2]).missing().is_empty());
    }

    #[test]
    fn junit_failures_carry_the_reproduce_command_and_text_is_escaped() {
        let x = junit_of_run(&record(&[(0, false), (2, true)]));
        assert!(x.contains("tests=\"2\" failures=\"1\" errors=\"0\""), "{x}");
        assert!(x.contains("<testsuites>\n  <testsuite name="), "{x}");
        let fail = x.split("<failure").nth(1).unwrap();
        assert!(fail.contains("reproduce: atomport regress --seed 1 --count 400 --per-script 100 --script 2"), "{fail}");
        assert!(fail.contains("&lt;0x10&gt; &amp; &quot;x&quot;"), "{fail}");
        assert_eq!(xml_escape("a\u{1}b"), "a?b");
    }

    /// The JUnit XML of a run with a failure (and text that needs escaping)
    /// is valid against the Ant / Jenkins schema; the same document without
    /// a required attribute or with its elements out of order is not.
    #[test]
    fn junit_xml_validates_against_the_ant_jenkins_schema() {
        let x = junit_of_run(&record(&[(0, false), (2, true), (3, false)]));
        match xmllint_junit(&x) {
            Ok(false) => {
                eprintln!("NOTICE: xmllint not installed (Debian libxml2-utils): JUnit schema validation skipped");
                return;
            }
            r => assert!(matches!(r, Ok(true)), "{r:?}: {x}"),
        }
        let no_host = x.replacen(" hostname=\"", " host=\"", 1);
        assert!(xmllint_junit(&no_host).unwrap_err().to_string().contains("hostname"));
        let out_of_order = x.replacen("    <system-err></system-err>\n", "", 1).replacen("    <properties>", "    <system-err></system-err>\n    <properties>", 1);
        assert!(xmllint_junit(&out_of_order).is_err());
    }
}
