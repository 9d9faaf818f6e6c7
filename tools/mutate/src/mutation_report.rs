//! What a mutation run found: per mutant its verdict (killed and by what,
//! proven equivalent, waived, or an unexplained survivor) and place; the
//! totals by verdict, mode and kill reason; the canary; as text, JSON and
//! JUnit XML.

use std::collections::BTreeMap;
use std::path::PathBuf;

use atomport_testbench::results::{junit_xml, JunitCase};
use serde_json::{json, Value};

use super::equivalence::{Proof, ProofLimits, ProofResult};
use super::kill_suite::{Kill, SuiteSize};
use super::mutants::Mutation;
use super::rtl_place::Place;
use super::waivers::Waiver;
use super::BlockKind;

/// A mutant's verdict.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Killed(Kill),
    /// survived, and proven to change no output
    Equivalent(Proof),
    /// survived, with a waiver's reason
    Waived(Waiver),
    /// survived, unexplained (with its proof when one ran and did not show equivalence)
    Survived(Option<Proof>),
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Killed(_) => "killed",
            Verdict::Equivalent(_) => "equivalent",
            Verdict::Waived(_) => "waived",
            Verdict::Survived(_) => "unexplained",
        }
    }
}

/// One mutant of a run.
#[derive(Clone, Debug)]
pub struct MutantRecord {
    /// its select value
    pub select: u64,
    pub mutation: Mutation,
    pub place: Place,
    pub verdict: Verdict,
    /// the waiver naming it, if any (on a killed mutant: a stale waiver)
    pub waiver: Option<Waiver>,
    /// the kill suite's time on it
    pub seconds: f64,
}

/// How the mutants run were chosen from Yosys's list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// mutants Yosys listed
    pub listed: usize,
    /// of the list up to the last mutant run, those dropped as unobservable
    pub dropped_unobservable: usize,
    /// listed but dropped: Yosys cannot write them as Verilog
    /// (`Mutation::writable`); the list was asked longer by as many
    pub dropped_unwritable: usize,
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct MutateReport {
    pub block: String,
    pub top: String,
    pub kind: BlockKind,
    pub count: usize,
    /// `--select`: only these mutants of the list ran (a partial run)
    pub selected: Option<Vec<u64>>,
    /// how the mutants were picked from Yosys's list
    pub sample: Sample,
    pub seed: u64,
    pub messages: usize,
    pub suite_seed: u64,
    pub suite: SuiteSize,
    pub select0_seconds: f64,
    /// the canary mutation and what killed it (None: it survived)
    pub canary: (Mutation, Option<Kill>),
    pub mutants: Vec<MutantRecord>,
    pub waiver_file: Option<PathBuf>,
    /// verilating and compiling the mutant model (0 when it was cached)
    pub build_seconds: f64,
    pub wall_seconds: f64,
    pub proof: Option<ProofLimits>,
    pub run_dir: PathBuf,
    pub prepared_dir: PathBuf,
}

/// Counts by verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub total: usize,
    pub killed: usize,
    pub equivalent: usize,
    pub waived: usize,
    pub unexplained: usize,
}

impl Tally {
    fn add(&mut self, v: &Verdict) {
        self.total += 1;
        match v {
            Verdict::Killed(_) => self.killed += 1,
            Verdict::Equivalent(_) => self.equivalent += 1,
            Verdict::Waived(_) => self.waived += 1,
            Verdict::Survived(_) => self.unexplained += 1,
        }
    }

    /// Killed of the mutants not proven equivalent, in percent.
    pub fn kill_rate(&self) -> f64 {
        let live = self.total - self.equivalent;
        if live == 0 {
            100.0
        } else {
            100.0 * self.killed as f64 / live as f64
        }
    }

    fn json(&self) -> Value {
        json!({"total": self.total, "killed": self.killed, "equivalent": self.equivalent, "waived": self.waived,
               "unexplained": self.unexplained, "kill_rate_percent": (self.kill_rate() * 100.0).round() / 100.0})
    }
}

impl MutateReport {
    pub fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for m in &self.mutants {
            t.add(&m.verdict);
        }
        t
    }

    pub fn by_mode(&self) -> BTreeMap<String, Tally> {
        let mut out: BTreeMap<String, Tally> = BTreeMap::new();
        for m in &self.mutants {
            out.entry(m.mutation.mode.clone()).or_default().add(&m.verdict);
        }
        out
    }

    pub fn by_reason(&self) -> BTreeMap<&'static str, usize> {
        let mut out = BTreeMap::new();
        for m in &self.mutants {
            if let Verdict::Killed(k) = &m.verdict {
                *out.entry(k.reason.name()).or_default() += 1;
            }
        }
        out
    }

    /// Waivers of mutants the suite kills: each would hide a killable mutant.
    pub fn stale_waivers(&self) -> Vec<&MutantRecord> {
        self.mutants.iter().filter(|m| matches!(m.verdict, Verdict::Killed(_)) && m.waiver.is_some()).collect()
    }

    /// Whether the run passes: the canary killed, no stale waiver, no
    /// unexplained survivor.
    pub fn passed(&self) -> bool {
        self.canary.1.is_some() && self.stale_waivers().is_empty() && self.tally().unexplained == 0
    }

    /// Why the run fails, one line each (empty when it passes).
    pub fn problems(&self) -> Vec<String> {
        let mut out = vec![];
        if self.canary.1.is_none() {
            out.push(format!(
                "the canary ({}) survived: the select input reaches nothing, or the kill suite checks nothing",
                self.canary.0.describe()
            ));
        }
        for m in self.stale_waivers() {
            let w = m.waiver.as_ref().expect("a stale waiver");
            out.push(format!("{}: the waiver of mutant {} hides a mutant the suite kills ({})", w.at, m.select, m.mutation.key()));
        }
        let t = self.tally();
        if t.unexplained > 0 {
            out.push(format!("{} surviving mutants are not explained (no equivalence proof, no waiver)", t.unexplained));
        }
        out
    }

    pub fn to_json(&self) -> Value {
        let mutants: Vec<Value> = self
            .mutants
            .iter()
            .map(|m| {
                let mut v = json!({
                    "select": m.select,
                    "mode": m.mutation.mode,
                    "key": m.mutation.key(),
                    "mutation": m.mutation.apply_args(),
                    "described": m.mutation.describe(),
                    "place": place_json(&m.place),
                    "verdict": m.verdict.name(),
                    "seconds": round3(m.seconds),
                });
                match &m.verdict {
                    Verdict::Killed(k) => v["killed_by"] = json!({"reason": k.reason.name(), "item": k.item, "detail": k.detail}),
                    Verdict::Equivalent(p) => v["proof"] = proof_json(p),
                    Verdict::Waived(w) => v["waiver"] = json!({"reason": w.reason, "at": w.at}),
                    Verdict::Survived(Some(p)) => v["proof"] = proof_json(p),
                    Verdict::Survived(None) => {}
                }
                if let (Verdict::Killed(_), Some(w)) = (&m.verdict, &m.waiver) {
                    v["stale_waiver"] = json!({"reason": w.reason, "at": w.at});
                }
                v
            })
            .collect();
        let by_mode: BTreeMap<String, Value> = self.by_mode().into_iter().map(|(k, t)| (k, t.json())).collect();
        json!({
            "block": self.block,
            "top": self.top,
            "count": self.count,
            "selected": self.selected,
            "listed": self.sample.listed,
            "dropped_unobservable": self.sample.dropped_unobservable,
            "dropped_unwritable": self.sample.dropped_unwritable,
            "seed": self.seed,
            "messages": self.messages,
            "suite_seed": self.suite_seed,
            "suite": {"items": self.suite.items, "scripts": self.suite.scripts, "messages": self.suite.messages,
                      "illegal_requests": self.suite.illegal_requests, "vectors": self.suite.vectors,
                      "select0_seconds": round3(self.select0_seconds)},
            "canary": {"mutation": self.canary.0.apply_args(), "killed_by": self.canary.1.as_ref().map(|k| json!({"reason": k.reason.name(), "item": k.item}))},
            "totals": self.tally().json(),
            "by_mode": by_mode,
            "killed_by": self.by_reason(),
            "waiver_file": self.waiver_file.as_ref().map(|p| p.display().to_string()),
            "proof_limits": self.proof.map(|l| json!({"depth": l.depth, "timeout_seconds": l.timeout, "whole_design": l.whole_design})),
            "build_seconds": round3(self.build_seconds),
            "wall_seconds": round3(self.wall_seconds),
            "passed": self.passed(),
            "problems": self.problems(),
            "mutants": mutants,
        })
    }

    /// The human report: totals, modes, reasons, then every survivor.
    pub fn text(&self) -> String {
        let t = self.tally();
        let mut s = format!(
            "atomport mutate --block {} --count {} --seed {}: {} mutants of `{}`\n",
            self.block, self.count, self.seed, t.total, self.top
        );
        if self.sample.dropped_unwritable > 0 {
            s += &format!(
                "sample: {} listed mutations dropped as not writable as Verilog by Yosys (a memory read port's reset), the list asked longer by as many\n",
                self.sample.dropped_unwritable
            );
        }
        if let Some(selected) = &self.selected {
            s += &format!("a partial run: only the {} mutants given by --select of the {} listed\n", selected.len(), self.count);
        }
        if self.sample.dropped_unobservable > 0 {
            s += &format!(
                "sample: {} listed; the first {} that some output can see once constants are propagated, {} before them dropped as unobservable (equivalent)\n",
                self.sample.listed, t.total, self.sample.dropped_unobservable
            );
        }
        s += &format!(
            "kill suite: {} items ({} scripts, {} messages, {} illegal requests, {} ALU vectors; random part from seed {}), select 0 passes ({:.1} s)\n",
            self.suite.items,
            self.suite.scripts,
            self.suite.messages,
            self.suite.illegal_requests,
            self.suite.vectors,
            self.suite_seed,
            self.select0_seconds
        );
        s += &format!(
            "killed {} / equivalent {} / waived {} / unexplained {}: {:.2}% of the non-equivalent mutants killed\n",
            t.killed,
            t.equivalent,
            t.waived,
            t.unexplained,
            t.kill_rate()
        );
        s += "by mode:\n";
        for (mode, m) in self.by_mode() {
            s += &format!(
                "  {mode:7} {:4} mutants: killed {:4}, equivalent {:3}, waived {:3}, unexplained {:3}\n",
                m.total, m.killed, m.equivalent, m.waived, m.unexplained
            );
        }
        let reasons: Vec<String> = self.by_reason().into_iter().map(|(r, n)| format!("{r} {n}")).collect();
        s += &format!("killed by: {}\n", reasons.join(", "));
        s += &format!(
            "canary ({}): {}\n",
            self.canary.0.describe(),
            match &self.canary.1 {
                Some(k) => format!("killed ({}, {})", k.reason.name(), k.item),
                None => "SURVIVED".into(),
            }
        );
        for m in &self.mutants {
            let what = match &m.verdict {
                Verdict::Killed(_) => continue,
                Verdict::Equivalent(p) => format!("equivalent: {} ({:.1} s)", p.result.name(), p.seconds),
                Verdict::Waived(w) => format!("waived ({}): {}", w.at, w.reason),
                Verdict::Survived(Some(p)) => {
                    let mut w = format!("UNEXPLAINED; proof: {}", p.result.name());
                    if let ProofResult::Different { inputs, .. } | ProofResult::InstanceDifferent { inputs, .. } = &p.result {
                        for line in inputs.iter().take(12) {
                            w.push_str(&format!("\n      {line}"));
                        }
                    }
                    w
                }
                Verdict::Survived(None) => "UNEXPLAINED".into(),
            };
            s += &format!("mutant {} {}\n    {}\n    at {}\n    key: {}\n", m.select, what, m.mutation.describe(), m.place.text(), m.mutation.key());
        }
        for p in self.problems() {
            s += &format!("FAILED: {p}\n");
        }
        s += &format!("wall time {:.1} s (model build {:.1} s); files in {}\n", self.wall_seconds, self.build_seconds, self.run_dir.display());
        s
    }

    /// JUnit XML: one test case per mutant; an unexplained survivor, a stale
    /// waiver or a surviving canary is a failure.
    pub fn junit(&self) -> String {
        let class = format!("atomport.mutate.{}", self.block);
        let mut cases: Vec<JunitCase> = self
            .mutants
            .iter()
            .map(|m| {
                let failure = match (&m.verdict, &m.waiver) {
                    (Verdict::Survived(_), _) => Some((
                        format!("mutant {} survived the kill suite: {}", m.select, m.mutation.key()),
                        format!("{}\nat {}\n", m.mutation.describe(), m.place.text()),
                    )),
                    (Verdict::Killed(_), Some(w)) => {
                        Some((format!("{}: a waiver hides a mutant the suite kills", w.at), m.mutation.key()))
                    }
                    _ => None,
                };
                JunitCase { classname: class.clone(), name: format!("mutant {} ({}): {}", m.select, m.verdict.name(), m.mutation.key()), seconds: m.seconds, failure, failure_type: JunitCase::MISMATCH }
            })
            .collect();
        cases.push(JunitCase {
            classname: class.clone(),
            name: "canary".into(),
            seconds: 0.0,
            failure: self.canary.1.is_none().then(|| ("the canary survived".to_string(), self.canary.0.describe())),
            failure_type: JunitCase::MISMATCH,
        });
        let props = [
            ("block", self.block.clone()),
            ("count", self.count.to_string()),
            ("seed", self.seed.to_string()),
            ("messages", self.messages.to_string()),
        ];
        junit_xml(&format!("atomport mutate {}", self.block), &props, &cases, &self.text())
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn place_json(p: &Place) -> Value {
    json!({
        "path": p.path,
        "block": p.block.as_ref().map(|b| &b.0),
        "file": p.block.as_ref().map(|b| &b.1),
        "signal": p.signal,
        "verilog": p.verilog.as_ref().map(|v| &v.0),
        "code": p.verilog.as_ref().map(|v| &v.1),
    })
}

fn proof_json(p: &Proof) -> Value {
    let mut v = json!({"result": p.result.name(), "equivalent": p.result.is_equivalent(), "seconds": round3(p.seconds)});
    if let ProofResult::Different { frame, inputs } = &p.result {
        v["counterexample"] = json!({"frame": frame, "inputs": inputs});
    }
    if let ProofResult::InstanceDifferent { instance, inputs } = &p.result {
        v["instance_counterexample"] = json!({"instance": instance, "inputs": inputs});
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kill_suite::KillReason;

    fn mutation(key: &str) -> Mutation {
        Mutation::parse(&format!("mutate -mode inv -module m -cell {key} -port Y -portbit 0")).unwrap()
    }

    fn report(canary_killed: bool, verdicts: Vec<(Verdict, Option<Waiver>)>) -> MutateReport {
        let kill = Kill { reason: KillReason::Mismatch, item: "x".into(), detail: "y".into() };
        MutateReport {
            block: "alu".into(),
            top: "atomic_alu".into(),
            kind: BlockKind::Alu,
            count: verdicts.len(),
            selected: None,
            sample: Default::default(),
            seed: 1,
            messages: 10,
            suite_seed: 1,
            suite: SuiteSize::default(),
            select0_seconds: 0.0,
            canary: (mutation("$canary"), canary_killed.then_some(kill)),
            mutants: verdicts
                .into_iter()
                .enumerate()
                .map(|(k, (verdict, waiver))| MutantRecord {
                    select: k as u64 + 1,
                    mutation: mutation(&format!("$c{k}")),
                    place: Place::default(),
                    verdict,
                    waiver,
                    seconds: 0.0,
                })
                .collect(),
            waiver_file: None,
            build_seconds: 0.0,
            wall_seconds: 0.0,
            proof: None,
            run_dir: PathBuf::new(),
            prepared_dir: PathBuf::new(),
        }
    }

    #[test]
    fn a_run_passes_only_with_the_canary_killed_no_stale_waiver_and_nothing_unexplained() {
        let kill = || Verdict::Killed(Kill { reason: KillReason::Watchdog, item: "i".into(), detail: "d".into() });
        let waiver = Waiver { block: "alu".into(), key: "k".into(), reason: "why".into(), at: "w.txt:3".into() };
        let proof = Proof { result: ProofResult::Equivalent, seconds: 1.0 };
        let good = report(true, vec![(kill(), None), (Verdict::Equivalent(proof.clone()), None), (Verdict::Waived(waiver.clone()), Some(waiver.clone()))]);
        assert!(good.passed(), "{:?}", good.problems());
        let t = good.tally();
        assert_eq!((t.killed, t.equivalent, t.waived, t.unexplained), (1, 1, 1, 0));
        assert_eq!(t.kill_rate(), 50.0, "killed of the non-equivalent: 1 of 2");
        assert!(good.junit().contains("failures=\"0\""));

        let canary = report(false, vec![(kill(), None)]);
        assert!(!canary.passed() && canary.problems()[0].contains("canary"));
        assert!(canary.junit().contains("failures=\"1\""));
        let stale = report(true, vec![(kill(), Some(waiver))]);
        assert!(!stale.passed() && stale.problems()[0].contains("w.txt:3"), "{:?}", stale.problems());
        let survivor = report(true, vec![(Verdict::Survived(None), None)]);
        assert!(!survivor.passed() && survivor.problems()[0].contains("not explained"));
        let json = survivor.to_json();
        assert_eq!(json["totals"]["unexplained"], 1);
        assert_eq!(json["passed"], false);
    }
}
