//! The waveform commands (docs/waveforms.md):
//!
//! * `atomport wavediff A.vcd B.vcd [--signals GLOB...] [--clock NAME]
//!   [--scope-a S] [--scope-b S] [--strict]`: exit 0 equal, 1 different;
//!   without `--signals`, two waves of the unit are compared on its ports;
//! * `atomport wavecheck RUN.vcd SCRIPT [--clock NAME] [--report FILE.json]
//!   [--junit FILE.xml]`: the RTL's port traffic against the golden model;
//!   exit 0 agree, 1 differ;
//! * `atomport wave render RUN.vcd --svg OUT.svg [--from T] [--to T]
//!   [--signals GLOB...] [--clock NAME] [--width PX]`;
//! * `atomport wave golden SCRIPT --vcd OUT.vcd`: the golden waveform
//!   (and `OUT.vcd.gtkw`);
//! * `atomport wave gtkw RUN.vcd`: writes `RUN.vcd.gtkw`;
//! * `atomport wave replay-tb RUN.vcd --verilog FILE.v -o TB.v`: a Verilog
//!   test bench replaying the VCD's inputs (for Icarus);
//! * `atomport wave update-refs [--dir waves] [--out DIR]` / `check-refs`:
//!   the reference waves of `waves/scenarios/*.atom` (the fresh runs are
//!   written under `--out`, default `target/waves` in the working directory).
//!
//! Bad input (an unreadable or malformed VCD, a script error, a missing
//! signal) is `FILE:LINE:COL: error: ...` or `atomport ...: error: ...`,
//! exit 2.

use std::path::{Path, PathBuf};

use atomport_core::diag::EXIT_BAD_INPUT;
use atomport_core::output_file::{write_file, OutputPlan};
use atomport_testbench::dut::UnitBuild;
use atomport_wavecheck::check::{build_of, check, find_port_scope};
use atomport_wavecheck::refs::{is_port, port_globs};
use atomport_wave::diff::{diff, DiffOptions};
use atomport_wave::gtkw::{gtkw_path, write_unit_gtkw};
use atomport_wave::reader::{Timescale, Waveform};
use atomport_wave::svg::{render_svg, RenderOptions};

/// Arguments of `atomport wavediff`.
#[derive(clap::Args, Debug)]
pub struct WavediffArgs {
    /// the first VCD
    pub a: PathBuf,
    /// the second VCD
    pub b: PathBuf,
    /// compare only these signals (globs over names relative to the matched
    /// scopes, or full paths; `*` and `?`); default: the unit's ports
    /// (clock reset req_* pay_* mem_* rsp_* obs_*) when both files have them,
    /// else every signal; `'*'` is every signal
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub signals: Vec<String>,
    /// sample on this clock's rising edges and report cycle numbers
    #[arg(long, value_name = "NAME")]
    pub clock: Option<String>,
    /// the scope of A to compare (dotted path); default: found by matching names
    #[arg(long, value_name = "SCOPE")]
    pub scope_a: Option<String>,
    /// the scope of B to compare
    #[arg(long, value_name = "SCOPE")]
    pub scope_b: Option<String>,
    /// a signal present in one file only is a difference even when not selected
    #[arg(long)]
    pub strict: bool,
}

/// Reads a VCD (`-`: standard input) or prints its diagnostic.
fn read(path: &Path) -> Result<Waveform, i32> {
    super::read_vcd(path)
}

/// `atomport wavediff`.
pub fn wavediff_main(a: WavediffArgs) -> i32 {
    let wa = match read(&a.a) {
        Ok(w) => w,
        Err(c) => return c,
    };
    let wb = match read(&a.b) {
        Ok(w) => w,
        Err(c) => return c,
    };
    let mut signals = a.signals;
    if signals.is_empty() && [&wa, &wb].iter().all(|w| find_port_scope(w, "clock").is_ok()) {
        // two waves of the unit: its ports by name (globs would also take
        // internals such as `rsp_data_r$d`), not its thousands of internals
        let names: std::collections::BTreeSet<&str> =
            wa.vars.iter().chain(&wb.vars).map(|v| v.name.as_str()).filter(|n| is_port(n)).collect();
        signals = names.into_iter().map(str::to_string).collect();
        eprintln!(
            "atomport wavediff: note: comparing the unit's ports ({}); --signals '*' compares every signal",
            port_globs().join(" ")
        );
    }
    let opts = DiffOptions { signals, clock: a.clock, scope_a: a.scope_a, scope_b: a.scope_b, strict: a.strict };
    match diff(&wa, &wb, &opts) {
        Err(e) => {
            eprintln!("atomport wavediff: error: {e}");
            EXIT_BAD_INPUT
        }
        Ok(r) => {
            for line in r.lines() {
                outln!("{line}");
            }
            if !r.only_a.is_empty() || !r.only_b.is_empty() {
                let few = |v: &[String]| {
                    let mut s = v.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
                    if v.len() > 5 {
                        s.push_str(", ...");
                    }
                    s
                };
                eprintln!(
                    "atomport wavediff: note: not compared: {} signals only in {} ({}), {} only in {} ({})",
                    r.only_a.len(),
                    r.file_a,
                    few(&r.only_a),
                    r.only_b.len(),
                    r.file_b,
                    few(&r.only_b)
                );
            }
            outln!("{}", r.summary());
            if r.equal() {
                0
            } else {
                1
            }
        }
    }
}

/// Arguments of `atomport wavecheck`.
#[derive(clap::Args, Debug)]
pub struct WavecheckArgs {
    /// the RTL's VCD (`atomport run SCRIPT --engine rtl --vcd RUN.vcd`)
    pub vcd: PathBuf,
    /// the script that run executed
    pub script: String,
    /// the clock port
    #[arg(long, value_name = "NAME", default_value = "clock")]
    pub clock: String,
    /// write the check's report (format atomport-wavecheck/1) to FILE.json
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// write a JUnit XML file: one test case, failing with the first
    /// difference and the reproduce command
    #[arg(long, value_name = "FILE.xml")]
    pub junit: Option<PathBuf>,
    /// the unit build that ran (as `run --unit` takes it); default: read
    /// from the waveform (the unit's scope is named after its top module),
    /// else the full build. Given and read, the two must agree
    #[arg(long, value_name = "BUILD", value_parser = UnitBuild::by_name)]
    pub unit: Option<UnitBuild>,
}

/// The build a wavecheck checks against: `--unit` and the one the waveform
/// names must agree; either alone decides; neither: the full build.
fn wavecheck_build(w: &Waveform, clock: &str, given: Option<UnitBuild>) -> Result<UnitBuild, String> {
    match (given, build_of(w, clock)) {
        (Some(g), Some(r)) if g != r => Err(format!(
            "--unit {} but {} is a waveform of the {} build (its unit's scope is named after that build's top module)",
            g.name(),
            w.file,
            r.name()
        )),
        (Some(b), _) | (None, Some(b)) => Ok(b),
        (None, None) => Ok(UnitBuild::Full),
    }
}

/// `atomport wavecheck`.
pub fn wavecheck_main(a: WavecheckArgs) -> i32 {
    if a.vcd.as_os_str() == "-" && a.script == "-" {
        eprintln!("atomport wavecheck: error: the waveform and the script cannot both be standard input (`-`): give one of them as a file");
        return EXIT_BAD_INPUT;
    }
    let plan = OutputPlan::new().input(&a.vcd).input_str(&a.script).file("--report", a.report.as_deref()).file("--junit", a.junit.as_deref());
    if let Err(code) = super::check_outputs(plan) {
        return code;
    }
    let program = match super::read_script(&a.script) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let w = match read(&a.vcd) {
        Ok(w) => w,
        Err(c) => return c,
    };
    let build = match wavecheck_build(&w, &a.clock, a.unit) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("atomport wavecheck: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if build != UnitBuild::Full {
        eprintln!("atomport wavecheck: note: checking against the {} build (it rejects what it does not admit)", build.name());
    }
    let start = std::time::Instant::now();
    let report = match check(&w, &program, &a.clock, build) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("atomport wavecheck: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let code = match &report.failure {
        None => {
            outln!(
                "wavecheck: {} agrees with the golden model of {}: {} ({} cycles)",
                w.file,
                a.script,
                report.counts(),
                report.cycles
            );
            0
        }
        Some(f) => {
            let at = match (f.cycle, f.time) {
                (Some(c), Some(t)) => format!("at {} (cycle {c})", w.timescale.format(t as u128)),
                _ => format!("at the end of the trace ({} cycles)", report.cycles),
            };
            outln!("wavecheck: {} differs from the golden model of {} {at}:", w.file, a.script);
            for line in f.to_string().lines() {
                outln!("  {line}");
            }
            outln!("wavecheck: agreed before that: {}", report.counts());
            1
        }
    };
    let outcome = super::wavecheck_report::WavecheckOutcome { wave: &w, wave_path: &a.vcd, script: &a.script, clock: &a.clock, build, report: &report, seconds: start.elapsed().as_secs_f64() };
    if let Err(e) = outcome.write(a.report.as_deref(), a.junit.as_deref()) {
        return super::report_output_error(&e);
    }
    code
}

/// Arguments of `atomport wave`.
#[derive(clap::Args, Debug)]
pub struct WaveArgs {
    #[command(subcommand)]
    pub cmd: WaveCmd,
}

/// The `atomport wave` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum WaveCmd {
    /// Draw a timing diagram of a VCD as standalone SVG.
    Render(RenderArgs),
    /// Write the golden model's transaction-level waveform of a script.
    Golden(GoldenArgs),
    /// Write a GTKWave save file (PATH.gtkw) grouping the unit's signals.
    Gtkw(GtkwArgs),
    /// Write a Verilog test bench that replays a VCD's inputs (for Icarus).
    ReplayTb(ReplayArgs),
    /// Time a random regression untraced and traced (VCD per script); print the ratio.
    TraceCost(TraceCostArgs),
    /// Regenerate the reference waves under waves/ from waves/scenarios/*.atom.
    UpdateRefs(RefsArgs),
    /// Regenerate the reference waves into target/ and wavediff them against waves/.
    CheckRefs(RefsArgs),
}

/// Arguments of `atomport wave render`.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// the VCD
    pub vcd: PathBuf,
    /// the SVG to write (`-`: standard output)
    #[arg(long, value_name = "OUT.svg")]
    pub svg: PathBuf,
    /// first time shown: N (VCD units) or N with a unit (`120ns`, `1.5us`)
    #[arg(long, value_name = "T")]
    pub from: Option<String>,
    /// last time shown (default: the end, at most 64 clock periods)
    #[arg(long, value_name = "T")]
    pub to: Option<String>,
    /// signals to draw, in order (globs); default: the unit's ports by group
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub signals: Vec<String>,
    /// the clock (default `clock` or `clk` when present)
    #[arg(long, value_name = "NAME")]
    pub clock: Option<String>,
    /// width of the wave area in pixels
    #[arg(allow_negative_numbers = true, long, value_name = "PX", default_value_t = 1200, value_parser = super::optval::render_width)]
    pub width: u32,
}

/// A time option in `w`'s units: `N` is already in units; `N<unit>` is
/// converted (rounded down to a whole unit).
pub fn parse_time(text: &str, unit: Timescale) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, suffix) = t.split_at(split);
    let bad = || format!("`{text}` is not a time: write N (VCD units) or N with one of s ms us ns ps fs (`120ns`)");
    if suffix.is_empty() {
        return num.parse::<u64>().map_err(|_| bad());
    }
    let exp = Timescale::exponent_of(suffix).ok_or_else(bad)?;
    let value: f64 = num.parse().map_err(|_| bad())?;
    if value.is_nan() || value < 0.0 || !value.is_finite() {
        return Err(bad());
    }
    let fs = value * 10f64.powi(exp + 15);
    Ok((fs / unit.femtoseconds() as f64 + 1e-9).floor() as u64)
}

fn render_main(a: RenderArgs) -> i32 {
    if let Err(code) = super::check_outputs(OutputPlan::new().input(&a.vcd).file_or_stdout("--svg", Some(&a.svg))) {
        return code;
    }
    let w = match read(&a.vcd) {
        Ok(w) => w,
        Err(c) => return c,
    };
    let time = |t: &Option<String>| t.as_deref().map(|s| parse_time(s, w.timescale)).transpose();
    let (from, to) = match (time(&a.from), time(&a.to)) {
        (Ok(f), Ok(t)) => (f, t),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("atomport wave render: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if let Some(f) = from.filter(|&f| f >= w.end_time) {
        eprintln!(
            "atomport wave render: error: --from {} is at or past the end of {} ({}): nothing to draw",
            w.timescale.format(f as u128),
            w.file,
            w.timescale.format(w.end_time as u128)
        );
        return EXIT_BAD_INPUT;
    }
    let opts = RenderOptions { from, to, signals: a.signals, clock: a.clock, width: a.width };
    match render_svg(&w, &opts) {
        Err(e) => {
            eprintln!("atomport wave render: error: {e}");
            EXIT_BAD_INPUT
        }
        Ok((svg, notes)) => {
            for n in notes {
                eprintln!("atomport wave render: note: {n}");
            }
            if let Err(e) = write_file(&a.svg, svg.as_bytes()) {
                return super::report_output_error(&e);
            }
            0
        }
    }
}

/// Arguments of `atomport wave golden`.
#[derive(clap::Args, Debug)]
pub struct GoldenArgs {
    /// the script
    pub script: String,
    /// the VCD to write (a `.gtkw` view is written beside it)
    #[arg(long, value_name = "OUT.vcd", value_parser = super::optval::vcd_out)]
    pub vcd: PathBuf,
}

fn golden_main(a: GoldenArgs) -> i32 {
    let plan = OutputPlan::new().input_str(&a.script).file("--vcd", Some(&a.vcd)).file("the GTKWave view", Some(&gtkw_path(&a.vcd)));
    if let Err(code) = super::check_outputs(plan) {
        return code;
    }
    let program = match super::read_script(&a.script) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Err(e) = atomport_wavecheck::golden_wave::write_golden_vcd_file(&program, &a.vcd) {
        return super::report_output_error(&e);
    }
    match write_unit_gtkw(&a.vcd) {
        Ok(p) => {
            eprintln!("atomport wave golden: wrote {} and {}", a.vcd.display(), p.display());
            0
        }
        Err(e) => {
            eprintln!("atomport wave golden: error: {e}");
            EXIT_BAD_INPUT
        }
    }
}

/// Arguments of `atomport wave gtkw`.
#[derive(clap::Args, Debug)]
pub struct GtkwArgs {
    /// the VCD; the view is written to VCD.gtkw
    pub vcd: PathBuf,
}

fn gtkw_main(a: GtkwArgs) -> i32 {
    if a.vcd.as_os_str() == "-" {
        eprintln!("atomport wave gtkw: error: give the VCD as a file: the view names the file GTKWave opens and is written beside it");
        return EXIT_BAD_INPUT;
    }
    if let Err(code) = super::check_outputs(OutputPlan::new().input(&a.vcd).file("the GTKWave view", Some(&gtkw_path(&a.vcd)))) {
        return code;
    }
    match write_unit_gtkw(&a.vcd) {
        Ok(p) => {
            outln!("{}", p.display());
            0
        }
        Err(e) => {
            eprintln!("{e}");
            EXIT_BAD_INPUT
        }
    }
}

/// Arguments of `atomport wave replay-tb`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// the VCD whose inputs to replay
    pub vcd: PathBuf,
    /// the Verilog file of the module
    #[arg(long, value_name = "FILE.v")]
    pub verilog: PathBuf,
    /// the module (default: the Verilog file's stem)
    #[arg(long)]
    pub module: Option<String>,
    /// the scope of the VCD holding the module's ports (default: found)
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    /// the test bench to write (`-`: standard output)
    #[arg(short, long, value_name = "TB.v")]
    pub out: PathBuf,
    /// the VCD the test bench dumps to
    #[arg(long, value_name = "OUT.vcd", default_value = "replay.vcd")]
    pub dump: String,
}

fn replay_main(a: ReplayArgs) -> i32 {
    if let Err(code) = super::check_outputs(OutputPlan::new().input(&a.vcd).input(&a.verilog).file_or_stdout("--out", Some(&a.out))) {
        return code;
    }
    let w = match read(&a.vcd) {
        Ok(w) => w,
        Err(c) => return c,
    };
    if a.verilog.as_os_str() == "-" && a.module.is_none() {
        eprintln!("atomport wave replay-tb: error: --verilog - (standard input) has no file name to take the module from: give --module NAME");
        return EXIT_BAD_INPUT;
    }
    let module = a.module.unwrap_or_else(|| a.verilog.file_stem().unwrap_or_default().to_string_lossy().into_owned());
    let result = super::input::read_input(&a.verilog.to_string_lossy(), "Verilog")
        .map_err(|d| d.to_string())
        .and_then(|i| String::from_utf8(i.bytes).map_err(|_| format!("{}: the Verilog is not UTF-8 text", a.verilog.display())))
        .and_then(|v| atomport_wavecheck::replay::module_ports(&v, &module).map_err(|e| format!("{}: {e}", a.verilog.display())))
        .and_then(|ports| {
            let scope = a.scope.clone().unwrap_or_else(|| atomport_wave::gtkw::unit_scope(&w));
            atomport_wavecheck::replay::replay_testbench(&w, &scope, &module, &ports, &a.dump, 10).map_err(|e| e.to_string())
        })
        .and_then(|tb| write_file(&a.out, tb.as_bytes()).map_err(|e| e.to_string()));
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("atomport wave replay-tb: error: {e}");
            EXIT_BAD_INPUT
        }
    }
}

/// Arguments of `atomport wave trace-cost`.
#[derive(clap::Args, Debug)]
pub struct TraceCostArgs {
    /// random messages
    #[arg(allow_negative_numbers = true, long, default_value_t = 10_000, value_parser = super::optval::at_least_one)]
    pub count: usize,
    /// seed of the scripts and the memory model
    #[arg(allow_negative_numbers = true, long, default_value_t = 1)]
    pub seed: u64,
    /// messages per script (one VCD per script)
    #[arg(allow_negative_numbers = true, long, default_value_t = 200, value_parser = super::optval::at_least_one)]
    pub per_script: usize,
    /// memory read latency: N or MIN..MAX
    #[arg(allow_negative_numbers = true, long, value_name = "N|MIN..MAX", default_value = "1..4")]
    pub latency: atomport_testbench::memory::LatencyRange,
    /// memory stall probability per channel and cycle (0 <= PROB < 1)
    #[arg(allow_negative_numbers = true, long, default_value_t = 0.2, value_parser = super::optval::stall)]
    pub stall: f64,
    /// where the VCDs go (each is deleted once measured) [default: target/trace-cost]
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Where `trace-cost` writes its VCDs without `--dir`.
pub const DEFAULT_TRACE_COST_DIR: &str = "target/trace-cost";

fn trace_cost_main(a: TraceCostArgs) -> i32 {
    let mem = atomport_testbench::MemConfig { latency_min: a.latency.min, latency_max: a.latency.max, stall: a.stall, seed: a.seed };
    let plan = match &a.dir {
        Some(d) => OutputPlan::new().folder("--dir", Some(d)),
        None => OutputPlan::new().default_folder("--dir", Path::new(DEFAULT_TRACE_COST_DIR)),
    };
    if let Err(code) = super::check_outputs(plan) {
        return code;
    }
    let dir = a.dir.unwrap_or_else(|| PathBuf::from(DEFAULT_TRACE_COST_DIR));
    match atomport_wavecheck::cost::measure(a.seed, a.count, a.per_script, mem, &dir) {
        Ok(c) => {
            outln!(
                "trace-cost: {} messages in {} scripts, {} cycles, seed {}, latency {}..{}, stall {}",
                c.messages, c.scripts, c.cycles, a.seed, a.latency.min, a.latency.max, a.stall
            );
            let cpu = |d: Option<std::time::Duration>| d.map_or(String::new(), |d| format!(", CPU {:.2} s", d.as_secs_f64()));
            outln!("  untraced: wall {:.2} s{}", c.untraced.as_secs_f64(), cpu(c.untraced_cpu));
            outln!(
                "  traced:   wall {:.2} s{} ({} VCDs, {:.1} MB)",
                c.traced.as_secs_f64(),
                cpu(c.traced_cpu),
                c.scripts,
                c.vcd_bytes as f64 / 1e6
            );
            let cpu_ratio = c.cpu_ratio().map_or(String::new(), |r| format!(", CPU {r:.2}x"));
            outln!("  ratio:    wall {:.2}x{cpu_ratio} (target < 4x)", c.ratio());
            0
        }
        Err(e) => {
            eprintln!("atomport wave trace-cost: error: {e}");
            1
        }
    }
}

/// Arguments of `atomport wave update-refs` / `check-refs`.
#[derive(clap::Args, Debug)]
pub struct RefsArgs {
    /// the reference directory (holding scenarios/*.atom); default: the checkout's waves/
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// where the fresh runs' VCDs are written (relative to the working directory)
    #[arg(long, value_name = "DIR", default_value = DEFAULT_REFS_OUT)]
    pub out: PathBuf,
}

/// Where the fresh runs of `update-refs` / `check-refs` go without `--out`.
pub const DEFAULT_REFS_OUT: &str = "target/waves";

fn refs_main(a: RefsArgs, update: bool) -> i32 {
    let dir = a.dir.unwrap_or_else(atomport_wavecheck::refs::default_dir);
    // update-refs writes the references into DIR; both write the fresh runs into --out
    let plan = if update { OutputPlan::new().folder("--dir", Some(&dir)) } else { OutputPlan::new().input(&dir) };
    let plan = if a.out.as_os_str() == DEFAULT_REFS_OUT { plan.default_folder("--out", &a.out) } else { plan.folder("--out", Some(&a.out)) };
    if let Err(code) = super::check_outputs(plan) {
        return code;
    }
    let result = if update {
        atomport_wavecheck::refs::update_refs(&dir, &a.out).map(|changed| {
            for (name, what) in &changed {
                outln!("{name}: {what}");
            }
            0
        })
    } else {
        atomport_wavecheck::refs::check_refs(&dir, &a.out).map(|diffs| {
            for d in &diffs {
                outln!("{d}");
            }
            if diffs.iter().any(|d| !d.equal) {
                outln!("wave check-refs: the RTL's waves differ from the references; if intended, run `atomport wave update-refs`");
                1
            } else {
                0
            }
        })
    };
    result.unwrap_or_else(|e| {
        eprintln!("atomport wave: error: {e}");
        EXIT_BAD_INPUT
    })
}

/// `atomport wave ...`.
pub fn wave_main(a: WaveArgs) -> i32 {
    match a.cmd {
        WaveCmd::Render(r) => render_main(r),
        WaveCmd::Golden(g) => golden_main(g),
        WaveCmd::Gtkw(g) => gtkw_main(g),
        WaveCmd::ReplayTb(r) => replay_main(r),
        WaveCmd::TraceCost(t) => trace_cost_main(t),
        WaveCmd::UpdateRefs(r) => refs_main(r, true),
        WaveCmd::CheckRefs(r) => refs_main(r, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_options() {
        assert_eq!(parse_time("120", Timescale::NS), Ok(120));
        assert_eq!(parse_time("120ns", Timescale::PS), Ok(120_000));
        assert_eq!(parse_time("1.5us", Timescale::NS), Ok(1500));
        assert_eq!(parse_time("2500ps", Timescale::NS), Ok(2));
        assert!(parse_time("12 parsecs", Timescale::NS).is_err());
        assert!(parse_time("-3ns", Timescale::NS).is_err());
    }
}
