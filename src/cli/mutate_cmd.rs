//! `atomport mutate --block B [--count N] [--seed S] [--messages K]
//! [--jobs J] [--prove] [--json] [--report R.json] [--junit R.xml]`:
//! mutation testing of a block's emitted Verilog (`atomport_mutate`,
//! docs/testbench.md "Mutation testing"): Yosys mutants behind one select
//! input of one model verilated at run time, the block's kill suite on each,
//! survivors proven equivalent or waived (`tools/mutate/waivers.txt`).
//!
//! Exit status: 0 every mutant killed, proven equivalent or waived, and the
//! canary killed; 1 an unexplained survivor, a waiver that hides a killed
//! mutant, a surviving canary, or the unmutated design failing its own
//! suite; 2 bad options, or a tool missing or failing.

use std::path::PathBuf;
use std::time::Duration;

use atomport_core::diag::EXIT_BAD_INPUT;
use atomport_mutate::{run, BlockKind, MutateError, MutateOptions, Progress};

/// Where `--prove` proves a survivor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProofScope {
    /// the sub-block instance holding the mutation, alone
    Instance,
    /// the instance, then the whole design
    Design,
}

/// Arguments of `atomport mutate`.
#[derive(clap::Args, Debug)]
pub struct MutateArgs {
    /// The block: alu, alu_w32_int (a variant: needs --features hdl), unit,
    /// unit_l8_w32_int, serial_unit_l8_w32_int (or serial_l8_w32_int)
    #[arg(long)]
    pub block: String,
    /// Mutants to list (`mutate -list N`)
    #[arg(long, default_value_t = 500, value_parser = super::optval::at_least_one)]
    pub count: usize,
    /// Seed of the mutant list (`mutate -list N -seed S`)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random messages (unit) or ALU vectors of the kill suite, after its
    /// directed part [default: 2000 messages for a unit, 200000 vectors for an ALU]
    #[arg(long, value_name = "K", value_parser = super::optval::at_least_one)]
    pub messages: Option<usize>,
    /// Seed of the kill suite's random part (the suite is fixed per block;
    /// the mutation seed does not change it)
    #[arg(long, default_value_t = 1)]
    pub suite_seed: u64,
    /// Threads running mutants (default: the number of cores)
    #[arg(long, value_name = "J", value_parser = super::optval::at_least_one)]
    pub jobs: Option<usize>,
    /// Prove each survivor equivalent or not (a Yosys miter, ABC's dprove, then bmc3)
    #[arg(long)]
    pub prove: bool,
    /// With --prove: the BMC depth (cycles after power-up) when the unbounded proof does not decide
    #[arg(long, default_value_t = 40, requires = "prove")]
    pub proof_depth: u32,
    /// With --prove: seconds for each of ABC's two tries (unbounded, then
    /// BMC) on a survivor that constant propagation does not settle; 0: no
    /// ABC, constant propagation only
    #[arg(long, default_value_t = 120, requires = "prove")]
    pub proof_timeout: u64,
    /// List COUNT x F mutants, drop those no output can see once constants
    /// are propagated (a sound gate-level check, reported), run the first
    /// COUNT of the rest: a block whose netlist keeps logic its build never
    /// uses (the integer ALU's float paths) would otherwise spend most of
    /// its sample there
    #[arg(long, value_name = "F", default_value_t = 1, value_parser = super::optval::at_least_one)]
    pub oversample: usize,
    /// With --prove: where a survivor is proven. `instance`: on the
    /// sub-block instance holding it, cut out of the design (a unit's whole
    /// miter takes minutes to build per mutant); `design`: that first, then
    /// the whole design's miter [default: design for an ALU, instance for a unit]
    #[arg(long, value_enum, requires = "prove")]
    pub proof_scope: Option<ProofScope>,
    /// The waiver file [default: tools/mutate/waivers.txt of the source tree]
    #[arg(long, value_name = "FILE", conflicts_with = "no_waivers")]
    pub waivers: Option<PathBuf>,
    /// Read no waiver file
    #[arg(long)]
    pub no_waivers: bool,
    /// Print the report as JSON on stdout
    #[arg(long)]
    pub json: bool,
    /// Write the JSON report to FILE
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write a JUnit XML report to FILE (a test case per mutant)
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Run only these mutants of the list (selects, e.g. `5,28,33-40`): the
    /// survivors of a run again after the suite grew, with the same list and
    /// model. The report covers them alone and says so; it is no table row
    #[arg(long, value_name = "LIST", value_parser = super::optval::select_list)]
    pub select: Option<super::optval::SelectList>,
    /// Folder of the runs' files (design, mutant list, model) [default: target/mutate]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// No progress on stderr
    #[arg(long)]
    pub quiet: bool,
}

/// An output file's folder must exist before any work (exit 2 otherwise).
pub fn main(a: MutateArgs) -> i32 {
    // every output checked before minutes of work
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from("target/mutate"));
    let mut plan = atomport_core::output_file::OutputPlan::new().file("--report", a.report.as_deref()).file("--junit", a.junit.as_deref());
    plan = match &a.out {
        Some(dir) => plan.folder("--out", Some(dir)),
        None => plan.default_folder("--out", &out),
    };
    if let Some(w) = &a.waivers {
        plan = plan.input(w);
    }
    if let Err(code) = super::check_outputs(plan) {
        return code;
    }
    let kind = match atomport_mutate::run_mutants::block_identity(&a.block) {
        Ok((_, kind, _)) => kind,
        Err(e) => {
            eprintln!("atomport mutate: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let messages = a.messages.unwrap_or(match kind {
        BlockKind::Alu => 200_000,
        BlockKind::Unit | BlockKind::Serial => 2_000,
    });
    let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = MutateOptions {
        block: a.block.clone(),
        count: a.count,
        selects: a.select.clone().map(|l| l.0),
        oversample: a.oversample,
        seed: a.seed,
        messages,
        suite_seed: a.suite_seed,
        jobs,
        work_dir: out,
        waivers: if a.no_waivers { None } else { Some(a.waivers.clone().unwrap_or_else(atomport_mutate::waivers::default_file)) },
        prove: a.prove.then_some(atomport_mutate::equivalence::ProofLimits {
            depth: a.proof_depth,
            timeout: a.proof_timeout,
            whole_design: match a.proof_scope {
                Some(scope) => scope == ProofScope::Design,
                None => kind == BlockKind::Alu,
            },
        }),
        waves_dir: atomport_wavecheck::refs::default_dir(),
        hdl_dir: atomport_mutate::rtl_place::default_hdl_dir(),
    };
    let live = !a.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut bar: Option<indicatif::ProgressBar> = None;
    let quiet = a.quiet;
    let mut last_tenth = usize::MAX;
    let mut progress = |p: Progress| match p {
        Progress::Step(what) if !quiet => eprintln!("atomport mutate: {what}"),
        Progress::Step(_) => {}
        Progress::Mutants { done, total, killed } => {
            if live {
                let b = bar.get_or_insert_with(|| {
                    let b = indicatif::ProgressBar::new(total as u64);
                    b.set_style(
                        indicatif::ProgressStyle::with_template("  [{bar:30}] {pos}/{len} mutants, {msg}, ETA {eta} ")
                            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                            .progress_chars("#>-"),
                    );
                    b.enable_steady_tick(Duration::from_millis(250));
                    b
                });
                b.set_position(done as u64);
                b.set_message(format!("{killed} killed"));
                if done == total {
                    b.finish_and_clear();
                }
            } else if !quiet && done * 10 / total.max(1) != last_tenth {
                last_tenth = done * 10 / total.max(1);
                eprintln!("atomport mutate: {done}/{total} mutants, {killed} killed");
            }
        }
        Progress::Proofs { done, total } if !quiet && total > 0 && (done % 10 == 0 || done == total) => {
            eprintln!("atomport mutate: proving survivors: {done}/{total}")
        }
        Progress::Proofs { .. } => {}
    };
    let report = match run(&opts, &mut progress) {
        Ok(r) => r,
        Err(e @ MutateError::Select0(_)) => {
            eprintln!("atomport mutate: FAILED: {e}");
            return 1;
        }
        Err(e) => {
            eprintln!("atomport mutate: error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let json = report.to_json();
    let text = serde_json::to_string_pretty(&json).unwrap_or_default() + "\n";
    if let Some(path) = &a.report {
        if let Err(e) = atomport_mutate::write_whole(path, &text) {
            eprintln!("atomport mutate: error: {e}");
            return EXIT_BAD_INPUT;
        }
    }
    if let Some(path) = &a.junit {
        if let Err(e) = atomport_mutate::write_whole(path, &report.junit()) {
            eprintln!("atomport mutate: error: {e}");
            return EXIT_BAD_INPUT;
        }
    }
    if a.json {
        print!("{text}");
    } else {
        print!("{}", report.text());
    }
    if report.passed() {
        0
    } else {
        1
    }
}
