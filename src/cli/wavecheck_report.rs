//! `atomport wavecheck ... --report FILE.json --junit FILE.xml`: the check's
//! outcome for CI, beside `regress` and `run`'s reports.
//!
//! The JSON (`"format": "atomport-wavecheck/1"`): the waveform, the script,
//! the clock, the scope the ports were found in, the timescale, the cycles,
//! the monitor's counts (up to the first failure), `agrees`, the first
//! failure (cycle, time, signal, what) or null, and the reproduce command.
//! The JUnit XML: one test case (the waveform against the script), failing
//! with the first difference and the reproduce command.

use std::path::Path;

use serde::Serialize;

use atomport_core::output_file::{write_file, OutputError};

use atomport_testbench::dut::UnitBuild;
use atomport_testbench::results::{junit_xml, JunitCase};
use atomport_wavecheck::check::CheckReport;
use atomport_wave::reader::Waveform;

/// The `--report` JSON (through a `Value`: its keys print sorted).
#[derive(Serialize)]
struct WavecheckJson<'a> {
    format: &'static str,
    waveform: String,
    script: &'a str,
    clock: &'a str,
    scope: &'a str,
    timescale: String,
    cycles: usize,
    counts: CountsJson,
    agrees: bool,
    failure: Option<FailureJson<'a>>,
    seconds: f64,
    reproduce: String,
}

/// The monitor's counts up to the first failure.
#[derive(Serialize)]
struct CountsJson {
    reads: u64,
    writes: u64,
    observed: u64,
    results: u64,
    dones: u64,
}

/// The first failure.
#[derive(Serialize)]
struct FailureJson<'a> {
    cycle: Option<u64>,
    time: Option<u64>,
    at: String,
    signal: &'a str,
    what: &'a str,
}

/// What the report files describe: the check and how it was called.
pub struct WavecheckOutcome<'a> {
    pub wave: &'a Waveform,
    pub wave_path: &'a Path,
    pub script: &'a str,
    pub clock: &'a str,
    /// the build checked against (named in the reproduce command unless full)
    pub build: UnitBuild,
    pub report: &'a CheckReport,
    pub seconds: f64,
}

impl WavecheckOutcome<'_> {
    /// The one-line command that repeats this check.
    pub fn reproduce(&self) -> String {
        let unit = if self.build == UnitBuild::Full { String::new() } else { format!(" --unit {}", self.build.name()) };
        format!("atomport wavecheck {} {} --clock {}{unit}", self.wave_path.display(), self.script, self.clock)
    }

    /// Where the failure is, as wavecheck prints it.
    fn at(&self) -> String {
        match self.report.failure.as_ref().map(|f| (f.cycle, f.time)) {
            Some((Some(c), Some(t))) => format!("at {} (cycle {c})", self.wave.timescale.format(t as u128)),
            _ => format!("at the end of the trace ({} cycles)", self.report.cycles),
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        let c = &self.report.counts;
        let json = WavecheckJson {
            format: "atomport-wavecheck/1",
            waveform: self.wave_path.display().to_string(),
            script: self.script,
            clock: self.clock,
            scope: &self.report.scope,
            timescale: self.wave.timescale.to_string(),
            cycles: self.report.cycles,
            counts: CountsJson { reads: c.reads, writes: c.writes, observed: c.observed, results: c.results, dones: c.dones },
            agrees: self.report.agrees(),
            failure: self.report.failure.as_ref().map(|f| FailureJson {
                cycle: f.cycle,
                time: f.time,
                at: self.at(),
                signal: &f.signal,
                what: &f.what,
            }),
            seconds: self.seconds,
            reproduce: self.reproduce(),
        };
        serde_json::to_value(json).expect("JSON")
    }

    pub fn to_junit(&self) -> String {
        let failure = self.report.failure.as_ref().map(|f| {
            let first = f.to_string().lines().next().unwrap_or("").to_string();
            (
                format!("{first} {} -- reproduce: {}", self.at(), self.reproduce()),
                format!("{} differs from the golden model of {} {}:\n{f}\nagreed before that: {}\nreproduce: {}\n", self.wave.file, self.script, self.at(), self.report.counts(), self.reproduce()),
            )
        });
        let case = JunitCase {
            classname: "atomport.wavecheck".into(),
            name: format!("{} against {}", self.wave_path.display(), self.script),
            seconds: self.seconds,
            failure,
            failure_type: JunitCase::MISMATCH,
        };
        let props = [("clock", self.clock.to_string()), ("scope", self.report.scope.clone())];
        junit_xml(&format!("atomport wavecheck {}", self.wave_path.display()), &props, &[case], &format!("{} ({} cycles)\n", self.report.counts(), self.report.cycles))
    }

    /// Writes `--report` / `--junit`, each whole; an error names the file.
    pub fn write(&self, report: Option<&Path>, junit: Option<&Path>) -> Result<(), OutputError> {
        if let Some(path) = report {
            write_file(path, (serde_json::to_string_pretty(&self.to_json()).expect("JSON") + "\n").as_bytes())?;
        }
        if let Some(path) = junit {
            write_file(path, self.to_junit().as_bytes())?;
        }
        Ok(())
    }
}
