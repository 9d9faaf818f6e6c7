//! One `atomport mutate` run: the block resolved, its mutants listed and
//! verilated behind the select input, select 0 through the kill suite, then
//! every mutant and the canary on `jobs` threads, survivors proven or
//! waived, the report.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use atomport_core::ops::UnitConfig;
use atomport_sim::dynamic::{DynBuild, DynLibrary};

use super::equivalence::{prove, unobservable, unobservable_held, Proof, ProofLimits, ProofResult};
use super::kill_suite::{Kill, KillSuite};
use super::mutants::{list, prepare, write_mutated, Mutation};
use super::mutation_report::{MutantRecord, MutateReport, Sample, Verdict};
use super::rtl_place::{place, HdlSource};
use super::waivers::Waivers;
use super::{BlockKind, MutateError};

/// What to run.
#[derive(Clone, Debug)]
pub struct MutateOptions {
    /// the block (`alu`, `alu_w32_int`, `unit`, `unit_l8_w32_int`, `serial_unit_l8_w32_int`)
    pub block: String,
    /// mutants to list
    pub count: usize,
    /// run only these selects of the list (1-based); None: all of them
    pub selects: Option<Vec<u64>>,
    /// list `count * oversample` mutants, drop those no output can see once
    /// constants are propagated (proven equivalent before any simulation),
    /// run the first `count` of the rest; 1: run the list as it comes
    pub oversample: usize,
    /// the seed `mutate -list` picks them with
    pub seed: u64,
    /// random messages (unit) or vectors (ALU) of the kill suite
    pub messages: usize,
    /// the kill suite's own seed (fixed: the same suite for every mutation seed)
    pub suite_seed: u64,
    pub jobs: usize,
    /// where the runs' files go (`target/mutate`)
    pub work_dir: PathBuf,
    /// the waiver file (None: no waivers)
    pub waivers: Option<PathBuf>,
    /// prove survivors equivalent (a miter per survivor)
    pub prove: Option<ProofLimits>,
    /// the reference waves' folder (their scenarios join a unit's suite)
    pub waves_dir: PathBuf,
    /// the rust-hdl source (`hdl/src`), to place mutations in
    pub hdl_dir: PathBuf,
}

/// What a run reports while it runs.
pub enum Progress<'a> {
    /// a step starts (`listing mutants`, `verilating 500 mutants`, ...)
    Step(&'a str),
    /// mutants done of the total (with the canary), killed so far
    Mutants { done: usize, total: usize, killed: usize },
    /// survivors proven of those to prove
    Proofs { done: usize, total: usize },
}

/// A block's name as reports give it, its kind and build.
pub fn block_identity(name: &str) -> Result<(String, BlockKind, UnitConfig), MutateError> {
    let name = name.strip_prefix("atomic_").unwrap_or(name);
    let bad = |e: String| MutateError::Input(format!("--block {name}: {e}"));
    if name == "alu" {
        return Ok(("alu".into(), BlockKind::Alu, UnitConfig::FULL));
    }
    if let Some(rest) = name.strip_prefix("alu_") {
        let config = UnitConfig::parse(rest).map_err(bad)?;
        return Ok((name.into(), BlockKind::Alu, config));
    }
    if name == "unit" {
        return Ok(("unit".into(), BlockKind::Unit, UnitConfig::FULL));
    }
    if let Some(rest) = name.strip_prefix("unit_") {
        return Ok((name.into(), BlockKind::Unit, UnitConfig::parse(rest).map_err(bad)?));
    }
    if let Some(rest) = name.strip_prefix("serial_unit_").or_else(|| name.strip_prefix("serial_")) {
        let config = UnitConfig::parse(rest).map_err(bad)?;
        return Ok((format!("serial_unit_{rest}"), BlockKind::Serial, config));
    }
    Err(MutateError::Input(format!(
        "--block {name}: not a block to mutate (alu, alu_w<bits>[_int], alu_int, unit, unit_<config>, serial_unit_<config>)"
    )))
}

/// The Verilog of the block named `name` (its canonical name) and its top.
fn resolve(name: &str, kind: BlockKind, work_dir: &Path) -> Result<(Vec<PathBuf>, String), MutateError> {
    let variants = work_dir.join("variants");
    let tried = match kind {
        // the checked-in serial build is `serial_unit_<config>`, its variant `serial_<config>`
        BlockKind::Serial => atomport_synth::resolve_block(name, &variants)
            .or_else(|_| atomport_synth::resolve_block(&name.replacen("serial_unit_", "serial_", 1), &variants)),
        _ => atomport_synth::resolve_block(name, &variants),
    };
    let block = tried.map_err(|e| MutateError::Input(e.to_string()))?;
    Ok((block.sources, block.top))
}

/// The top block's rust-hdl struct.
fn top_struct(kind: BlockKind) -> &'static str {
    match kind {
        BlockKind::Alu => "AtomicAlu",
        BlockKind::Unit => "AtomicUnit",
        BlockKind::Serial => "SerialUnit",
    }
}

/// Runs mutation testing as `opts` says.
pub fn run(opts: &MutateOptions, progress: &mut dyn FnMut(Progress)) -> Result<MutateReport, MutateError> {
    let start = Instant::now();
    if opts.count == 0 {
        return Err(MutateError::Input("--count must be at least 1".into()));
    }
    let (block, kind, config) = block_identity(&opts.block)?;
    progress(Progress::Step("resolving the block"));
    let (sources, top) = resolve(&block, kind, &opts.work_dir)?;
    let oversampled = if opts.oversample > 1 { format!("-x{}", opts.oversample) } else { String::new() };
    let run_dir = opts.work_dir.join(format!("{block}-n{}{oversampled}-s{}", opts.count, opts.seed));

    progress(Progress::Step("reading and flattening the design (yosys)"));
    let prepared = prepare(&sources, &top, &run_dir)?;
    progress(Progress::Step("listing the mutants (yosys mutate -list)"));
    let listed_count = opts.count * opts.oversample.max(1);
    let (listed, canary, unwritable) = list(&prepared, kind, listed_count, opts.seed)?;
    let (mutations, sample) = if opts.oversample > 1 {
        progress(Progress::Step(&format!("{} mutants: dropping those no output sees once constants are propagated (yosys)", listed.len())));
        let numbered: Vec<(u64, &Mutation)> = listed.iter().enumerate().map(|(i, m)| (i as u64 + 1, m)).collect();
        let dead: std::collections::BTreeSet<u64> = unobservable(&prepared, &numbered)?.into_iter().collect();
        live_prefix(&listed, &dead, opts.count)
    } else {
        (listed.clone(), Sample { listed: listed.len(), dropped_unobservable: 0, dropped_unwritable: 0 })
    };
    let sample = Sample { dropped_unwritable: unwritable, ..sample };
    let mutated = write_mutated(&prepared, &mutations, &canary)?;
    // the mutants to run (indices into `mutations`)
    let chosen: Vec<usize> = match &opts.selects {
        None => (0..mutations.len()).collect(),
        Some(selects) => {
            if let Some(bad) = selects.iter().find(|&&k| k == 0 || k as usize > mutations.len()) {
                return Err(MutateError::Input(format!("--select {bad}: the list has mutants 1..={}", mutations.len())));
            }
            selects.iter().map(|&k| k as usize - 1).collect()
        }
    };

    let build = DynBuild { sources: vec![mutated], top: top.clone(), dir: run_dir.join("model"), jobs: opts.jobs.max(1), dfg: kind == BlockKind::Alu };
    let build_start = Instant::now();
    let lib = match build.cached().map_err(|e| MutateError::Input(e.to_string()))? {
        Some(lib) => lib,
        None => {
            progress(Progress::Step(&format!("verilating and compiling {} mutants (once per block, count and seed)", mutations.len())));
            build.build().map_err(|e| MutateError::Input(format!("the mutant model: {e}")))?
        }
    };
    let build_seconds = build_start.elapsed().as_secs_f64();
    let lib = Arc::new(lib);

    let mut suite = KillSuite::new(kind, config, opts.messages, opts.suite_seed, &opts.waves_dir)?;
    progress(Progress::Step("select 0 (the unmutated design) through the kill suite"));
    let select0_start = Instant::now();
    suite.check_select0(&lib)?;
    let select0_seconds = select0_start.elapsed().as_secs_f64();

    // the chosen of mutants 1..=N, then the canary at N + 1
    let order: Vec<usize> = chosen.iter().copied().chain([mutations.len()]).collect();
    let outcomes = run_all(&suite, &lib, &order, mutations.len() + 1, opts.jobs.max(1), progress)?;
    let canary_kill = outcomes[mutations.len()].clone().expect("the canary ran").0;

    let waivers = match &opts.waivers {
        Some(path) => Waivers::read(path)?,
        None => Waivers::default(),
    };
    let hdl = HdlSource::read(&opts.hdl_dir);
    let mut records = vec![];
    let survivors: Vec<usize> = chosen.iter().copied().filter(|&k| outcomes[k].as_ref().is_some_and(|o| o.0.is_none())).collect();
    let mut proofs: Vec<Option<Proof>> = vec![None; mutations.len()];
    if let Some(limits) = opts.prove {
        progress(Progress::Step(&format!("{} survivors: which no output sees once constants are propagated (yosys)", survivors.len())));
        let start = Instant::now();
        let listed: Vec<(u64, &Mutation)> = survivors.iter().map(|&k| (k as u64 + 1, &mutations[k])).collect();
        let dead = unobservable(&prepared, &listed)?;
        let each = start.elapsed().as_secs_f64() / listed.len().max(1) as f64;
        for &select in &dead {
            proofs[select as usize - 1] = Some(Proof { result: ProofResult::Unobservable, seconds: each });
        }
        let rest: Vec<(u64, &Mutation)> = listed.iter().copied().filter(|(k, _)| proofs[*k as usize - 1].is_none()).collect();
        if !rest.is_empty() {
            progress(Progress::Step(&format!("{} survivors: which no output sees once the registers held at power-up are constants too (yosys opt_dff -sat)", rest.len())));
            let start = Instant::now();
            let held = unobservable_held(&prepared, &rest)?;
            let each = start.elapsed().as_secs_f64() / rest.len() as f64;
            for &select in &held {
                proofs[select as usize - 1] = Some(Proof { result: ProofResult::UnobservableHeld, seconds: each });
            }
        }
        // a time limit of 0: constant propagation only
        let rest: Vec<usize> =
            survivors.iter().copied().filter(|&k| proofs[k].is_none() && limits.timeout > 0).collect();
        for (k, proof) in prove_all(&prepared, &mutations, &rest, limits, opts.jobs.max(1), progress)? {
            proofs[k] = Some(proof);
        }
    }
    for &k in &chosen {
        let m = &mutations[k];
        let (kill, seconds) = outcomes[k].clone().expect("every chosen mutant ran");
        let waiver = waivers.find(&block, &m.key()).cloned();
        let verdict = match (kill, &proofs[k]) {
            (Some(kill), _) => Verdict::Killed(kill),
            (None, Some(p)) if p.result.is_equivalent() => Verdict::Equivalent(p.clone()),
            (None, _) => match &waiver {
                Some(w) => Verdict::Waived(w.clone()),
                None => Verdict::Survived(proofs[k].clone()),
            },
        };
        records.push(MutantRecord {
            select: k as u64 + 1,
            mutation: m.clone(),
            place: place(m, top_struct(kind), &hdl, &prepared.dir),
            verdict,
            waiver,
            seconds,
        });
    }
    Ok(MutateReport {
        block,
        top,
        kind,
        count: opts.count,
        selected: opts.selects.clone(),
        sample,
        seed: opts.seed,
        messages: opts.messages,
        suite_seed: opts.suite_seed,
        suite: suite.size(),
        select0_seconds,
        canary: (canary, canary_kill),
        mutants: records,
        waiver_file: waivers.file.clone(),
        build_seconds,
        wall_seconds: start.elapsed().as_secs_f64(),
        proof: opts.prove,
        run_dir,
        prepared_dir: prepared.dir.clone(),
    })
}

/// The first `count` mutations of `listed` whose select (index + 1) is not
/// in `dead`, and how many dead ones came before the last of them.
pub fn live_prefix(listed: &[Mutation], dead: &std::collections::BTreeSet<u64>, count: usize) -> (Vec<Mutation>, Sample) {
    let mut live = vec![];
    let mut dropped = 0;
    for (i, m) in listed.iter().enumerate() {
        if live.len() == count {
            break;
        }
        if dead.contains(&(i as u64 + 1)) {
            dropped += 1;
        } else {
            live.push(m.clone());
        }
    }
    (live, Sample { listed: listed.len(), dropped_unobservable: dropped, dropped_unwritable: 0 })
}

/// Proves the survivors (indices into `mutations`) on `jobs` threads.
fn prove_all(
    prepared: &super::mutants::Prepared,
    mutations: &[Mutation],
    survivors: &[usize],
    limits: ProofLimits,
    jobs: usize,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<(usize, Proof)>, MutateError> {
    let next = AtomicUsize::new(0);
    let mut out = vec![];
    let mut error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..jobs.min(survivors.len()) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&k) = survivors.get(i) else { break };
                if tx.send((k, prove(prepared, &mutations[k], k + 1, limits))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        progress(Progress::Proofs { done: 0, total: survivors.len() });
        for (k, proof) in rx {
            match proof {
                Ok(p) => {
                    out.push((k, p));
                    progress(Progress::Proofs { done: out.len(), total: survivors.len() });
                }
                Err(e) => {
                    error.get_or_insert(e);
                    next.store(survivors.len(), Ordering::SeqCst);
                }
            }
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// The mutants at `order` (indices: select - 1) through the suite on
/// `jobs` threads; results by index (of `slots`), each with its time, None
/// where a mutant was not in `order`.
fn run_all(
    suite: &KillSuite,
    lib: &Arc<DynLibrary>,
    order: &[usize],
    slots: usize,
    jobs: usize,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<Option<(Option<Kill>, f64)>>, MutateError> {
    let next = AtomicUsize::new(0);
    let total = order.len();
    let mut results: Vec<Option<(Option<Kill>, f64)>> = vec![None; slots];
    let mut error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..jobs.min(total) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&k) = order.get(i) else { break };
                let t = Instant::now();
                let outcome = suite.run(lib, k as u64 + 1).map(|kill| (kill, t.elapsed().as_secs_f64()));
                let failed = outcome.is_err();
                if tx.send((k, outcome)).is_err() || failed {
                    next.store(total, Ordering::SeqCst);
                    break;
                }
            });
        }
        drop(tx);
        let (mut done, mut killed) = (0, 0);
        progress(Progress::Mutants { done, total, killed });
        for (k, outcome) in rx {
            match outcome {
                Ok(r) => {
                    done += 1;
                    killed += r.0.is_some() as usize;
                    results[k] = Some(r);
                    progress(Progress::Mutants { done, total, killed });
                }
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_prefix_skips_the_dead_and_counts_them_up_to_the_last_kept() {
        let listed: Vec<Mutation> =
            (0..8).map(|k| Mutation::parse(&format!("mutate -mode inv -module m -cell $c{k} -port Y -portbit 0")).unwrap()).collect();
        // selects 2, 3 and 7 are dead: the first four live ones are 1, 4, 5, 6
        let dead = [2u64, 3, 7].into_iter().collect();
        let (live, sample) = live_prefix(&listed, &dead, 4);
        let cells: Vec<&str> = live.iter().map(|m| m.cell.as_str()).collect();
        assert_eq!(cells, ["$c0", "$c3", "$c4", "$c5"]);
        assert_eq!(sample, Sample { listed: 8, dropped_unobservable: 2, dropped_unwritable: 0 });
        // fewer live than asked: all of them, every dead one counted
        let (live, sample) = live_prefix(&listed, &dead, 10);
        assert_eq!((live.len(), sample.dropped_unobservable), (5, 3));
    }
}
