//! Seeded random regression: random valid scripts ([`super::generator`])
//! run on the RTL with the scoreboard in lockstep, script after script,
//! until the message count is reached or the first failure.
//!
//! Seeds: the run's seed `S` and the script's number `k` give the script
//! seed (text) and the memory model's seed (latency and stalls), so
//! `fail-S-k.atom` and its header's `atomport run` line reproduce a failure
//! exactly.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::dut::{simulate_build, UnitBuild};
use super::session::{RtlError, RtlOptions};
use super::generator::{random_script, GenConfig};
use super::memory::MemConfig;

/// What `atomport regress` runs.
#[derive(Clone, Debug)]
pub struct RegressConfig {
    pub seed: u64,
    /// messages in all
    pub count: usize,
    /// messages per script
    pub per_script: usize,
    /// memory model (its seed is replaced per script)
    pub mem: MemConfig,
    /// where a failing script is written
    pub out_dir: PathBuf,
    /// the unit build to run (the generator writes every kind of message
    /// and every float family, whatever the RTL passes; a smaller build must
    /// reject those it does not admit)
    pub unit: UnitBuild,
}

/// A regression failure: where, what, and how to reproduce it.
#[derive(Clone, Debug)]
pub struct RegressFailure {
    pub script: usize,
    pub script_seed: u64,
    pub mem_seed: u64,
    /// the failing script as written to disk
    pub file: PathBuf,
    /// the first difference (or the watchdog / contract report)
    pub what: String,
    /// the command that reproduces it
    pub reproduce: String,
    /// a traced re-run of the failing script (`fail-S-k.vcd`; the CLI adds its
    /// GTKWave view beside it), or why none could be written
    pub vcd: Result<PathBuf, String>,
}

/// What a regression did.
#[derive(Clone, Debug, Default)]
pub struct RegressReport {
    pub messages: usize,
    pub scripts: usize,
    pub cycles: u64,
    /// messages the build does not admit, checked to be rejected
    pub rejected: usize,
    pub coverage: Coverage,
    pub failure: Option<RegressFailure>,
}

/// What the scripts that agreed exercised (counted on the golden model's
/// view of them).
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    /// messages per kind name
    pub kinds: BTreeMap<&'static str, usize>,
    /// op / width / type forms seen (`SVM_ATOMIC.CMPXCHG.64`, `atom.cas.b128`, `SVM_SCATTER.4.8`)
    pub forms: BTreeSet<String>,
    /// (kind, exec size) pairs seen
    pub exec_sizes: BTreeSet<(&'static str, u8)>,
    pub enabled_lanes: u64,
    pub disabled_lanes: u64,
    /// enabled atomic lanes (or PTX elements) out of bounds: no transaction
    pub out_of_bounds: u64,
    /// writes to an address an earlier lane of the same message wrote
    pub same_address: u64,
    pub reads: u64,
    pub writes: u64,
}

impl Coverage {
    /// Adds one script.
    pub fn add(&mut self, program: &atomport_core::program::Program) {
        use atomport_core::message::Body;
        let golden = atomport_core::golden::run(program);
        let mut by_msg: Vec<Vec<&atomport_core::outcome::Txn>> = vec![vec![]; program.messages().count()];
        for t in &golden.txns {
            by_msg[t.msg].push(t);
        }
        for (i, m) in program.messages().enumerate() {
            let kind = m.kind().name();
            *self.kinds.entry(kind).or_default() += 1;
            self.exec_sizes.insert((kind, m.exec_size));
            let w16 = |w: bool| if w { ".16" } else { "" };
            let form = match &m.body {
                Body::SvmAtomic { op, width, .. } => {
                    format!("SVM_ATOMIC.{}{}", op.name, match width.bits() { 16 => ".16", 64 => ".64", _ => "" })
                }
                Body::DwordAtomic { op, w16: w, surface, .. } => format!("DWORD_ATOMIC.{}{} {}", op.name, w16(*w), match surface {
                    atomport_core::message::DwordSurface::Slm => "T0",
                    atomport_core::message::DwordSurface::Stateless => "T255",
                    atomport_core::message::DwordSurface::Buffer(_) => "buffer",
                }),
                Body::TypedAtomic { op, w16: w, .. } => format!("TYPED_ATOMIC.{}{}", op.name, w16(*w)),
                Body::SvmScatter { block_size, num_blocks, .. } => format!("SVM_SCATTER.{block_size}.{num_blocks}"),
                Body::PtxAtom { space, op, vec, ty, .. } => format!(
                    "atom{}.{}{}.{}",
                    if space.is_shared() { ".shared" } else { "" },
                    atomport_core::text::ptx_op_name(*op),
                    if *vec > 1 { format!(".v{vec}") } else { String::new() },
                    ty.name()
                ),
            };
            self.forms.insert(form);
            let en = m.lane_enables();
            self.enabled_lanes += en.count_ones() as u64;
            self.disabled_lanes += (m.exec_size as u32 - en.count_ones()) as u64;
            let txns = &by_msg[i];
            let writes: Vec<u64> = txns.iter().filter(|t| t.kind == atomport_core::outcome::TxnKind::Write).map(|t| t.addr).collect();
            self.writes += writes.len() as u64;
            self.reads += (txns.len() - writes.len()) as u64;
            let mut seen = BTreeSet::new();
            for a in &writes {
                if !seen.insert(*a) {
                    self.same_address += 1;
                }
            }
            if m.alu().is_some() {
                let per_lane = match &m.body {
                    Body::PtxAtom { vec, .. } => *vec as u64,
                    _ => 1,
                };
                self.out_of_bounds += (en.count_ones() as u64 * per_lane).saturating_sub(writes.len() as u64);
            }
        }
    }

    /// One paragraph for people.
    pub fn summary(&self) -> String {
        let kinds: Vec<String> = self.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        format!(
            "messages by kind: {}; {} op/width/type forms; {} (kind, exec size) pairs; lanes: {} enabled, {} disabled, \
             {} out of bounds; {} same-address writes; {} reads, {} writes",
            kinds.join(", "),
            self.forms.len(),
            self.exec_sizes.len(),
            self.enabled_lanes,
            self.disabled_lanes,
            self.out_of_bounds,
            self.same_address,
            self.reads,
            self.writes
        )
    }
}

/// Progress after each script: (messages done, messages in all).
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize);

/// The seed of script `k` of a run with seed `seed` (splitmix64 of both).
pub fn script_seed(seed: u64, k: usize) -> u64 {
    let mut z = seed.wrapping_add((k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `--latency` text of a memory configuration (`N` or `MIN..MAX`).
pub fn latency_text(mem: &MemConfig) -> String {
    if mem.latency_min == mem.latency_max {
        mem.latency_min.to_string()
    } else {
        format!("{}..{}", mem.latency_min, mem.latency_max)
    }
}

/// Writes the failing script with the notes after it (so its line numbers
/// stay those of the report).
fn write_failure(dir: &Path, name: &str, notes: &str, text: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, format!("{text}{notes}")).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Re-runs a failing script with the same memory model and tracing on, so
/// the failure can be looked at in a waveform (the caller adds the GTKWave
/// view: that is the waveform tools' business).
/// The re-run is deterministic (same script, same memory seed), so it fails
/// the same way; its own verdict is not needed here.
fn trace_failure(unit: UnitBuild, program: &atomport_core::program::Program, mem: MemConfig, vcd: &Path) -> Result<PathBuf, String> {
    let opts = RtlOptions { mem, vcd: Some(vcd.to_path_buf()) };
    if let Err(e @ (RtlError::Sim(_) | RtlError::Unavailable(_) | RtlError::Encode(_))) =
        simulate_build(unit, program, &opts, true)
    {
        return Err(e.to_string());
    }
    Ok(vcd.to_path_buf())
}

/// Runs the regression. `Err` only for a bench problem (a script the
/// generator got wrong, a file that cannot be written, no RTL model).
pub fn run(cfg: &RegressConfig, progress: Progress) -> Result<RegressReport, String> {
    let mut report = RegressReport::default();
    let gen_cfg = GenConfig::every_family(cfg.per_script.max(1));
    let mut k = 0;
    while report.messages < cfg.count {
        let messages = (cfg.count - report.messages).min(gen_cfg.messages);
        let seed = script_seed(cfg.seed, k);
        let g = random_script(seed, &GenConfig { messages, ..gen_cfg.clone() }).map_err(|e| format!("script {k} (seed {seed:#x}): {e}"))?;
        let mem = MemConfig { seed, ..cfg.mem };
        let opts = RtlOptions { mem, vcd: None };
        let name = format!("fail-{}-{k}.atom", cfg.seed);
        let failure = match simulate_build(cfg.unit, &g.program, &opts, true) {
            Ok(sim) => {
                report.cycles += sim.cycles;
                report.rejected += sim.rejected.len();
                sim.mismatch.map(|m| m.to_string())
            }
            Err(e @ RtlError::Unavailable(_)) | Err(e @ RtlError::Sim(_)) => return Err(e.to_string()),
            Err(e) => Some(e.to_string()),
        };
        if let Some(what) = failure {
            let reproduce = if cfg.unit != UnitBuild::Full {
                // `atomport run` runs the full build: rerun the regression
                format!(
                    "atomport regress --unit {} --seed {} --count {} --per-script {} --latency {} --stall {}",
                    cfg.unit.name(),
                    cfg.seed,
                    report.messages + messages,
                    cfg.per_script,
                    latency_text(&cfg.mem),
                    cfg.mem.stall
                )
            } else {
                format!(
                "atomport run {} --engine both --latency {} --stall {} --seed {seed}",
                cfg.out_dir.join(&name).display(),
                latency_text(&cfg.mem),
                cfg.mem.stall
            )
            };
            let notes = format!(
                "# atomport regress --seed {} failed in script {k} (script seed {seed:#x}):\n# {}\n# reproduce: {reproduce}\n",
                cfg.seed,
                what.lines().next().unwrap_or("")
            );
            let file = write_failure(&cfg.out_dir, &name, &notes, &g.text)?;
            let vcd = trace_failure(cfg.unit, &g.program, mem, &file.with_extension("vcd"));
            report.failure = Some(RegressFailure { script: k, script_seed: seed, mem_seed: seed, file, what, reproduce, vcd });
            return Ok(report);
        }
        report.coverage.add(&g.program);
        report.messages += messages;
        report.scripts += 1;
        k += 1;
        progress(report.messages, cfg.count);
    }
    Ok(report)
}
