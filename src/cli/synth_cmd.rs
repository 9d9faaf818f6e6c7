//! `atomport synth [--block NAME] [--target generic|ice40|ecp5|asic] [--part P[,P..]]
//! [--seed S | --seeds S,S,.. [--jobs N]] [--freq MHZ] [--lib L | --liberty PATH] [--json]`:
//! the emitted Verilog through Yosys and, for FPGA targets, nextpnr, for the
//! ASIC target OpenSTA; and `atomport synth --table`, the README's table of
//! figures. The flow is `atomport_synth`; the user's guide is
//! docs/synthesis.md.
//!
//! Nothing is installed unless `--install` is given: a missing tool is exit
//! 2 with what is missing and how to get it (`make synth-deps`,
//! `--install`, or the package command).
//!
//! Exit status: 0 figures produced (and, on an FPGA target, the block fits a
//! part); 1 the block fits none of the parts tried (the figures and
//! nextpnr's numbers are still printed); 2 bad options, or a tool missing
//! or failing (its own message and the end of its log on stderr).

use std::path::PathBuf;

use atomport_core::diag::EXIT_BAD_INPUT;
use atomport_synth::asic::LibertyChoice;
use atomport_core::output_file::{write_file, OutputPlan};
use atomport_synth::{self as synth, table, Options, Target};

/// `--target`'s values: the synth crate's targets by name (clap stays in
/// the CLI).
fn target_parser() -> impl clap::builder::TypedValueParser<Value = Target> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Target::all().into_iter().map(Target::name))
        .map(|name| name.parse::<Target>().expect("every possible value names a target"))
}

/// Arguments of `atomport synth`.
#[derive(clap::Args, Debug)]
pub struct SynthArgs {
    /// Block: alu, unit, a variant (alu_int, fp_alu) or any module of hdl/verilog/*.v [default: alu]
    #[arg(long)]
    pub block: Option<String>,
    /// Target: generic (Yosys only), ice40 or ecp5 (Yosys + nextpnr), asic
    /// (Yosys + a standard-cell library + OpenSTA); with --table, a
    /// comma-separated list [default: generic; with --table: all]
    #[arg(long, value_delimiter = ',', value_parser = target_parser())]
    pub target: Vec<Target>,
    /// FPGA parts to try in order until one fits: hx8k, up5k, hx1k (ice40),
    /// 25k, 45k, 85k (ecp5) [default: hx8k; 85k]
    #[arg(long, value_delimiter = ',')]
    pub part: Vec<String>,
    /// nextpnr's placer seed (same seed, same numbers)
    #[arg(allow_negative_numbers = true, long, default_value_t = 1)]
    pub seed: u64,
    /// A seed sweep: the same netlist placed and routed with each seed (the
    /// report's figures are the first seed's), and fmax by seed with its
    /// min, median and max: how much of an fmax difference is placement
    #[arg(allow_negative_numbers = true, long, value_delimiter = ',', value_name = "S,S,...", conflicts_with_all = ["seed", "table"])]
    pub seeds: Vec<u64>,
    /// nextpnr's clock constraint in MHz; asic: ABC's delay target and
    /// OpenSTA's clock [default: ice40 50, ecp5 100, asic 100]
    #[arg(allow_negative_numbers = true, long, value_name = "MHZ")]
    pub freq: Option<f64>,
    /// asic: the standard-cell library, osu018 (0.18 µm) or osu035 (0.35 µm),
    /// from Debian's qflow-tech packages (`make synth-deps`) [default: osu018]
    #[arg(long, value_name = "LIB", conflicts_with = "liberty")]
    pub lib: Option<String>,
    /// asic: any other Liberty file (a PDK's standard cells at one corner)
    #[arg(long, value_name = "PATH")]
    pub liberty: Option<PathBuf>,
    /// Print the figures as JSON (also written to target/synth/<block>-<target>/summary.json)
    #[arg(long)]
    pub json: bool,
    /// Run every default configuration and write the Markdown table into README.md
    #[arg(long)]
    pub table: bool,
    /// With --table: print the table, leave README.md alone
    #[arg(long, requires = "table")]
    pub print_only: bool,
    /// With --table or --seeds: runs at a time (the figures do not depend on it)
    #[arg(allow_negative_numbers = true, long, default_value_t = 1)]
    pub jobs: usize,
    /// Directory of the run directories [default: target/synth of the working directory]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Synthesize the Verilog of DIR, laid out like hdl/verilog (an edited
    /// copy: a what-if run that leaves the checked-in files alone), instead
    /// of hdl/verilog; its run directories go under target/synth-whatif
    /// unless --out says otherwise. Not with --table (the README's table is
    /// of the checked-in Verilog)
    #[arg(long, value_name = "DIR", conflicts_with = "table")]
    pub verilog_dir: Option<PathBuf>,
    /// Install a missing tool (apt-get, or pip for nextpnr-ecp5). Without it
    /// a missing tool is an error that says how to get it (`make synth-deps`)
    #[arg(long)]
    pub install: bool,
    /// The default (nothing is installed unless --install); kept for old scripts
    #[arg(long, hide = true, conflicts_with = "install")]
    pub no_install: bool,
}

/// The block synthesized without `--block`.
pub const DEFAULT_BLOCK: &str = "alu";

pub fn main(a: SynthArgs) -> i32 {
    let base = Options {
        block: a.block.clone().unwrap_or_else(|| DEFAULT_BLOCK.to_string()),
        target: Target::Generic,
        parts: a.part.clone(),
        seed: a.seeds.first().copied().unwrap_or(a.seed),
        sweep_seeds: a.seeds.iter().skip(1).copied().collect(),
        jobs: a.jobs,
        freq_mhz: a.freq,
        // a what-if run keeps its run directories apart from the checked-in Verilog's
        out_root: a.out.clone().unwrap_or_else(|| match a.verilog_dir {
            Some(_) => synth::default_out_root().with_file_name("synth-whatif"),
            None => synth::default_out_root(),
        }),
        install: a.install,
        verilog_dir: a.verilog_dir.clone(),
        liberty: match (&a.lib, &a.liberty) {
            (_, Some(path)) => LibertyChoice::File(path.clone()),
            (Some(name), None) => LibertyChoice::Known(name.clone()),
            (None, None) => LibertyChoice::default(),
        },
    };
    if (a.lib.is_some() || a.liberty.is_some()) && !a.target.contains(&Target::Asic) {
        eprintln!("atomport synth: error: --lib and --liberty choose the asic target's library: add --target asic");
        return EXIT_BAD_INPUT;
    }
    let mut plan = OutputPlan::new();
    if let Some(dir) = &a.verilog_dir {
        plan = plan.input(dir);
    }
    plan = match &a.out {
        Some(dir) => plan.folder("--out", Some(dir)),
        None => plan.default_folder("--out", &base.out_root),
    };
    if a.table && !a.print_only {
        plan = plan.file("the README", Some(&readme_path()));
    }
    if let Err(code) = super::check_outputs(plan) {
        return code;
    }
    if a.table {
        return table_main(&a, &base);
    }
    let target = match a.target.as_slice() {
        [] => Target::Generic,
        [t] => *t,
        _ => {
            eprintln!("atomport synth: error: --target takes one target (several only with --table)");
            return EXIT_BAD_INPUT;
        }
    };
    let opts = Options { target, ..base };
    match synth::synth(&opts) {
        Ok(report) => {
            if a.json {
                outln!("{:#}", report.to_json());
            } else {
                out!("{}", report.text());
            }
            if report.fits() {
                0
            } else {
                1
            }
        }
        Err(e) => {
            eprintln!("atomport synth: error: {e}");
            EXIT_BAD_INPUT
        }
    }
}

/// The checkout's README.md, where `--table` writes the table.
fn readme_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md")
}

fn table_main(a: &SynthArgs, base: &Options) -> i32 {
    if !a.part.is_empty() || a.freq.is_some() || a.json || a.block.is_some() || a.lib.is_some() || a.liberty.is_some() {
        eprintln!(
            "atomport synth: error: --table runs every default block on the default parts, constraints and library; --block, --part, --freq, --json, --lib and --liberty do not apply"
        );
        return EXIT_BAD_INPUT;
    }
    let targets: Vec<Target> = if a.target.is_empty() { Target::all() } else { a.target.clone() };
    let readme = readme_path();
    let old_readme = match std::fs::read_to_string(&readme) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("atomport synth: error: {}: {e}", readme.display());
            return EXIT_BAD_INPUT;
        }
    };
    // the targets not run keep their rows, if they are of the Verilog now
    let old = table::current(&old_readme).map(table::parse).unwrap_or_default();
    let fingerprint = match table::verilog_fingerprint(&base.out_root.join("variants")) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("atomport synth: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    match table::check_kept(&old, &targets, &fingerprint) {
        Ok(notices) => notices.iter().for_each(|n| eprintln!("atomport synth --table: {n}")),
        Err(e) => {
            eprintln!("atomport synth: error: {e}; README.md left unchanged");
            return EXIT_BAD_INPUT;
        }
    }
    let entries = table::run(&targets, base, a.jobs, |block, target| {
        eprintln!("atomport synth --table: {block} on {} ...", target.name());
    });
    for e in &entries {
        let secs = e.elapsed.as_secs();
        eprintln!("atomport synth --table: {} on {}: {}m{:02}s", e.block, e.target.name(), secs / 60, secs % 60);
    }
    let new: Vec<table::TargetRows> =
        targets.iter().map(|&t| table::target_rows(&entries, t, base.seed, &fingerprint)).collect();
    let text = table::markdown(&table::merge(old, new));
    out!("{text}");
    let mut failed = false;
    for e in &entries {
        if let Err(err) = &e.result {
            eprintln!("atomport synth: error: {} on {}: {err}", e.block, e.target.name());
            failed = true;
        }
    }
    if failed {
        eprintln!("atomport synth --table: README.md left unchanged (a run failed)");
        return EXIT_BAD_INPUT;
    }
    if a.print_only {
        return 0;
    }
    // README.md as it is now (edited during the run, perhaps), if its table is the one the kept rows came from
    let result = std::fs::read_to_string(&readme)
        .map_err(|e| e.to_string())
        .and_then(|now| {
            if table::current(&now) == table::current(&old_readme) {
                Ok(now)
            } else {
                Err("its table changed during the run: run --table again".to_string())
            }
        })
        .and_then(|now| table::splice(&now, &text).map(|new| (now, new)).map_err(|e| e.to_string()))
        .and_then(|(now, new)| {
            if new == now {
                Ok(false)
            } else {
                write_file(&readme, new.as_bytes()).map(|_| true).map_err(|e| e.msg)
            }
        });
    match result {
        Ok(changed) => {
            eprintln!(
                "atomport synth --table: {} {}",
                if changed { "wrote the table into" } else { "table unchanged in" },
                readme.display()
            );
            0
        }
        Err(e) => {
            eprintln!("atomport synth: error: {}: {e}", readme.display());
            EXIT_BAD_INPUT
        }
    }
}
