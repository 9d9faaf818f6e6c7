//! The flow of one `atomport synth` run: its options, Yosys, and for FPGA
//! targets the harness and place and route on each part in turn.

use std::path::{Path, PathBuf};

use super::blocks::{resolve_block, resolve_block_in};
use super::harness;
use super::parts::{part, Part, Target};
use super::stats::{self, CellClass, CellStats, Resource};
use super::tools::{self, run_logged, Tool};
use super::yosys::{read_file, run_yosys, warnings, write_file, ys_sources};
use super::{asic, PnrOutcome, SynthError, SynthReport};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub block: String,
    pub target: Target,
    /// parts to try in order until one fits; empty: [`Target::default_parts`]
    pub parts: Vec<String>,
    /// nextpnr's placer seed
    pub seed: u64,
    /// FPGA targets: more placer seeds to place and route the same netlist
    /// with, on the part that fit with `seed` (a seed sweep: how much of an
    /// fmax difference is placement, docs/synthesis.md)
    pub sweep_seeds: Vec<u64>,
    /// place-and-route runs of a seed sweep at a time (the figures do not depend on it)
    pub jobs: usize,
    /// nextpnr's clock constraint, or the ASIC target's clock target;
    /// `None`: [`Target::default_freq_mhz`]
    pub freq_mhz: Option<f64>,
    /// the root of the run directories, normally `target/synth`
    pub out_root: PathBuf,
    /// install missing tools (apt-get, pip); off unless asked for
    /// (`atomport synth --install`, the make targets)
    pub install: bool,
    /// synthesize the Verilog of this directory (laid out like
    /// `hdl/verilog`: an edited copy, for a what-if run) instead of the
    /// checked-in files; `None`: `hdl/verilog`
    pub verilog_dir: Option<PathBuf>,
    /// the ASIC target's standard-cell library (`--lib`, `--liberty`)
    pub liberty: asic::LibertyChoice,
}

impl Options {
    /// Default options for `block` on `target`.
    pub fn new(block: &str, target: Target) -> Options {
        Options {
            block: block.into(),
            target,
            parts: vec![],
            seed: 1,
            sweep_seeds: vec![],
            jobs: 1,
            freq_mhz: None,
            out_root: default_out_root(),
            install: false,
            verilog_dir: None,
            liberty: asic::LibertyChoice::default(),
        }
    }
}

/// `target/synth` of the working directory.
pub fn default_out_root() -> PathBuf {
    PathBuf::from("target/synth")
}

/// The synthesized netlist in a run directory (FPGA targets: what nextpnr reads).
const NETLIST: &str = "netlist.json";

/// A directory name for a block: `$` and other shell-unfriendly characters become `_`.
pub fn dir_name(block: &str, target: Target) -> String {
    let safe: String =
        block.chars().map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) { c } else { '_' }).collect();
    format!("{safe}-{}", target.name())
}

/// Runs the flow of `opts`. `Ok` carries the figures even when the block
/// fits no part (see [`SynthReport::fits`]); `Err` is a tool or input
/// failure.
pub fn synth(opts: &Options) -> Result<SynthReport, SynthError> {
    if let Some(f) = opts.freq_mhz {
        if !(f.is_finite() && f > 0.0) {
            return Err(SynthError::Input(format!("--freq {f}: must be a positive number of MHz")));
        }
    }
    let part_names: Vec<String> = if opts.parts.is_empty() {
        opts.target.default_parts().iter().map(|s| s.to_string()).collect()
    } else {
        opts.parts.clone()
    };
    if !opts.target.is_fpga() && !opts.parts.is_empty() {
        return Err(SynthError::Input(format!(
            "--part: the {} target has no parts (no place and route{})",
            opts.target.name(),
            if opts.target == Target::Asic { "; the library is --lib or --liberty" } else { "" }
        )));
    }
    if !opts.sweep_seeds.is_empty() {
        if !opts.target.is_fpga() {
            return Err(SynthError::Input(format!("--seeds: the {} target has no place and route", opts.target.name())));
        }
        let mut seen = vec![opts.seed];
        for &seed in &opts.sweep_seeds {
            if seen.contains(&seed) {
                return Err(SynthError::Input(format!("--seeds: seed {seed} given twice")));
            }
            seen.push(seed);
        }
    }
    if opts.jobs == 0 {
        return Err(SynthError::Input("--jobs 0: at least one run at a time".into()));
    }
    let parts = part_names.iter().map(|n| part(opts.target, n)).collect::<Result<Vec<_>, _>>()?;

    // absolute, since Yosys runs in the run directory
    std::fs::create_dir_all(&opts.out_root).map_err(|error| SynthError::Io { path: opts.out_root.clone(), error })?;
    let out_root =
        std::fs::canonicalize(&opts.out_root).map_err(|error| SynthError::Io { path: opts.out_root.clone(), error })?;
    let block = match &opts.verilog_dir {
        None => resolve_block(&opts.block, &out_root.join("variants"))?,
        Some(dir) => {
            // absolute too (Yosys runs in the run directory)
            let abs = std::fs::canonicalize(dir)
                .map_err(|e| SynthError::Input(format!("--verilog-dir {}: {e}", dir.display())))?;
            resolve_block_in(&opts.block, &abs, &abs.display().to_string(), &out_root.join("variants"))?
        }
    };
    let mut dir_label = dir_name(&opts.block, opts.target);
    if opts.target == Target::Asic && opts.liberty != asic::LibertyChoice::default() {
        // another library's run keeps its own directory
        dir_label = dir_name(&format!("{}-{}", opts.block, opts.liberty.label()), Target::Asic);
    }
    let dir = out_root.join(dir_label);
    // every tool first: a missing nextpnr should not cost a synthesis run
    let yosys = tools::yosys(opts.install)?;
    let nextpnr = match opts.target {
        Target::Generic | Target::Asic => None,
        Target::Ice40 => Some(tools::nextpnr_ice40(opts.install)?),
        Target::Ecp5 => Some(tools::nextpnr_ecp5(opts.install)?),
    };
    let asic_tools = match opts.target {
        Target::Asic => {
            let sta = tools::sta(opts.install)?;
            let liberty = asic::find_liberty(&opts.liberty, &asic::default_liberty_root(), opts.install)?;
            Some((sta, liberty))
        }
        _ => None,
    };
    std::fs::create_dir_all(&dir).map_err(|error| SynthError::Io { path: dir.clone(), error })?;
    let tools_used: Vec<String> = std::iter::once(&yosys)
        .chain(nextpnr.as_ref())
        .chain(asic_tools.as_ref().map(|(sta, _)| sta))
        .map(|t| match t.name {
            "sta" => format!("OpenSTA {}", t.version()),
            _ => t.version(),
        })
        .collect();

    let mut report = SynthReport {
        block,
        target: opts.target,
        seed: opts.seed,
        freq_mhz: None,
        dir: dir.clone(),
        tools: vec![],
        cells: CellStats::default(),
        inferred_memories: None,
        logic_depth: None,
        warnings: vec![],
        harness: None,
        pnr: vec![],
        sweep: vec![],
        asic: None,
    };
    match (&nextpnr, &asic_tools) {
        (None, Some((sta, liberty))) => {
            let clock = opts.freq_mhz.unwrap_or(asic::DEFAULT_CLOCK_MHZ);
            report.freq_mhz = Some(clock);
            asic::synth_asic(&yosys, sta, liberty, &opts.liberty.label(), clock, &mut report)?;
        }
        (None, None) => synth_generic(&yosys, &mut report)?,
        (Some(nextpnr), _) => {
            synth_fpga(&yosys, &mut report)?;
            let freq = opts.freq_mhz.or(opts.target.default_freq_mhz()).expect("FPGA targets have a default");
            report.freq_mhz = Some(freq);
            for part in parts {
                let outcome = place_and_route(nextpnr, part, &dir, part.name, opts.seed, freq)?;
                let fits = matches!(outcome, PnrOutcome::Routed { .. });
                report.pnr.push(outcome);
                if fits {
                    break;
                }
            }
            if let Some(part) = report.routed().map(PnrOutcome::part) {
                report.sweep = seed_sweep(nextpnr, part, &dir, &opts.sweep_seeds, freq, opts.jobs)?;
            }
        }
    }
    report.tools = tools_used;
    write_file(&dir.join("summary.json"), &format!("{:#}\n", report.to_json()))?;
    Ok(report)
}


/// Generic: `synth -flatten`, statistics before and after the fine stage
/// (memories are still memories before `memory_map`), and `ltp -noff`.
fn synth_generic(yosys: &Tool, report: &mut SynthReport) -> Result<(), SynthError> {
    let dir = report.dir.clone();
    let top = &report.block.top;
    // outputs are named relative to the run directory (Yosys's working
    // directory): `tee -o` takes its file name verbatim, quotes included
    let script = format!(
        "# atomport synth: generic flow for `{top}` (docs/synthesis.md)\n\
         read_verilog -sv {verilog}\n\
         hierarchy -check -top {top}\n\
         synth -flatten -top {top} -run :fine\n\
         tee -o stat-coarse.json stat -json\n\
         synth -flatten -top {top} -run fine:\n\
         tee -o stat.json stat -json\n\
         tee -o ltp.txt ltp -noff\n\
         write_json netlist.json\n",
        verilog = ys_sources(&report.block)?,
    );
    let log = run_yosys(yosys, &dir, &script)?;
    report.warnings = warnings(&log);
    let coarse = stats::parse_stat(&read_file(&dir.join("stat-coarse.json"))?, top)
        .map_err(|e| SynthError::Parse { path: dir.join("stat-coarse.json"), detail: e.to_string() })?;
    report.inferred_memories = Some(coarse.memories + coarse.count(CellClass::Memory));
    report.cells = stats::parse_stat(&read_file(&dir.join("stat.json"))?, top)
        .map_err(|e| SynthError::Parse { path: dir.join("stat.json"), detail: e.to_string() })?;
    report.logic_depth = stats::parse_ltp(&read_file(&dir.join("ltp.txt"))?);
    Ok(())
}


/// FPGA targets: the block's ports, the harness, `synth_<family>` with the
/// block kept as its own module, into [`NETLIST`].
fn synth_fpga(yosys: &Tool, report: &mut SynthReport) -> Result<(), SynthError> {
    let dir = report.dir.clone();
    let top = report.block.top.clone();
    let verilog = ys_sources(&report.block)?;

    // 1. the ports, and which input bits the block reads: elaborated,
    //    flattened and optimized, an unread input bit has no connection left
    let ports_json = dir.join("ports.json");
    let ports_script = format!(
        "read_verilog -sv {verilog}\nhierarchy -check -top {top}\nproc\nflatten\nopt -full\nopt_clean -purge\nwrite_json ports.json\n"
    );
    write_file(&dir.join("ports.ys"), &ports_script)?;
    let mut cmd = yosys.command(["-s", "ports.ys"]);
    cmd.current_dir(&dir);
    run_logged("yosys", cmd, &dir.join("yosys-ports.log"))?;
    let ports = harness::parse_ports(&read_file(&ports_json)?, &top)
        .map_err(|e| SynthError::Parse { path: ports_json.clone(), detail: e.to_string() })?;
    let _ = std::fs::remove_file(&ports_json); // a full elaborated netlist: large, and not needed again

    // 2. the harness
    let (harness_text, shape) = harness::harness_verilog(&top, &ports).map_err(|e| SynthError::Input(e.to_string()))?;
    let harness_v = dir.join("harness.v");
    write_file(&harness_v, &harness_text)?;
    report.harness = Some(shape);

    // 3. synthesis
    let script = format!(
        "# atomport synth: {target} flow for `{top}` in the place-and-route harness (docs/synthesis.md)\n\
         read_verilog -sv {verilog}\n\
         read_verilog -sv harness.v\n\
         hierarchy -check -top {harness_top}\n\
         setattr -mod -set keep_hierarchy 1 {top}\n\
         {synth} -top {harness_top} -json {NETLIST}\n\
         tee -o stat.json stat -json\n",
        target = report.target.name(),
        harness_top = harness::HARNESS_TOP,
        synth = report.target.yosys_synth(),
    );
    let log = run_yosys(yosys, &dir, &script)?;
    report.warnings = warnings(&log);
    report.cells = stats::parse_stat(&read_file(&dir.join("stat.json"))?, &top)
        .map_err(|e| SynthError::Parse { path: dir.join("stat.json"), detail: e.to_string() })?;
    Ok(())
}

/// The netlist of `dir`, placed and routed on `part` with each of `seeds`,
/// `jobs` runs at a time; each run's files are `nextpnr-<part>-seed<N>.*`.
fn seed_sweep(
    nextpnr: &Tool,
    part: &'static Part,
    dir: &Path,
    seeds: &[u64],
    freq_mhz: f64,
    jobs: usize,
) -> Result<Vec<(u64, PnrOutcome)>, SynthError> {
    let mut runs = Vec::with_capacity(seeds.len());
    for chunk in seeds.chunks(jobs) {
        let outcomes: Vec<Result<PnrOutcome, SynthError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|&seed| {
                    let label = format!("{}-seed{seed}", part.name);
                    scope.spawn(move || place_and_route(nextpnr, part, dir, &label, seed, freq_mhz))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a place-and-route thread panicked")).collect()
        });
        for (&seed, outcome) in chunk.iter().zip(outcomes) {
            runs.push((seed, outcome?));
        }
    }
    Ok(runs)
}

/// nextpnr on one part: routed with its figures, or "does not fit" with the
/// resources over capacity; any other failure is an error quoting its log.
/// Its log and report are `nextpnr-<label>.log` / `.json`.
fn place_and_route(
    nextpnr: &Tool,
    part: &'static Part,
    dir: &Path,
    label: &str,
    seed: u64,
    freq_mhz: f64,
) -> Result<PnrOutcome, SynthError> {
    let log = dir.join(format!("nextpnr-{label}.log"));
    let report_name = format!("nextpnr-{label}.json");
    let report_json = dir.join(&report_name);
    let _ = std::fs::remove_file(&report_json);
    // files relative to the run directory, nextpnr's working directory: the
    // WebAssembly nextpnr sees the host's files through WASI preopens, where
    // `/tmp` is a private directory of its own, but `.` is the real one
    let mut args: Vec<String> = part.nextpnr_args.iter().map(|s| s.to_string()).collect();
    args.extend([
        "--json".into(),
        NETLIST.into(),
        "--seed".into(),
        seed.to_string(),
        "--freq".into(),
        freq_mhz.to_string(),
        // a slow design is a figure to report, not an error
        "--timing-allow-fail".into(),
        "--report".into(),
        report_name,
    ]);
    let mut cmd = nextpnr.command(&args);
    cmd.current_dir(dir);
    match run_logged(nextpnr.name, cmd, &log) {
        Ok(()) => {
            let text = read_file(&report_json)?;
            let (fmax, resources) = stats::parse_pnr_report(&text)
                .map_err(|e| SynthError::Parse { path: report_json.clone(), detail: e.to_string() })?;
            let fmax_mhz = fmax.or_else(|| stats::parse_fmax_log(&read_file(&log).unwrap_or_default())).map(|(_, f)| f);
            let critical_path = stats::parse_critical_path(&text);
            Ok(PnrOutcome::Routed { part, fmax_mhz, resources, critical_path, log })
        }
        Err(err @ SynthError::ToolFailed { .. }) => {
            let text = String::from_utf8_lossy(&std::fs::read(&log).unwrap_or_default()).into_owned();
            let over: Vec<Resource> = stats::parse_utilisation(&text).into_iter().filter(Resource::over).collect();
            if over.is_empty() {
                return Err(err);
            }
            let message = text.lines().find(|l| l.starts_with("ERROR:")).unwrap_or("").to_string();
            Ok(PnrOutcome::DoesNotFit { part, over, message, log })
        }
        Err(other) => Err(other),
    }
}
