//! `atomport run FILE [--engine golden|rtl|both] [--json]`: run a message
//! script and print its results and dumps (scripts.md "JSON output").
//!
//! Exit status: 0 success, 1 the engines disagree (`both`), 2 bad input
//! (the parser's `FILE:LINE:COL: error: ...` on stderr, nothing runs) or an
//! engine that is not available.

use std::path::PathBuf;

use crate::diag::EXIT_BAD_INPUT;
use crate::engine::RunOutput;

/// Which engine runs the script.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// the golden behavioral model
    Golden,
    /// the Verilated RTL
    Rtl,
    /// both; prints the RTL's output and exits 1 on the first difference
    Both,
}

/// Arguments of `atomport run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// the script (`.atom`)
    pub file: String,
    /// the engine to run
    #[arg(long, value_enum, default_value_t = EngineChoice::Golden)]
    pub engine: EngineChoice,
    /// print the JSON of scripts.md instead of a table
    #[arg(long)]
    pub json: bool,
    /// RTL engines: write a VCD waveform to this path
    #[arg(long, value_name = "PATH")]
    pub vcd: Option<PathBuf>,
    /// RTL engines: memory-model read latency in cycles
    #[arg(long, value_name = "N")]
    pub latency: Option<u32>,
    /// RTL engines: probability (0..=1) that the memory model stalls a cycle
    #[arg(long, value_name = "PROB")]
    pub stall: Option<f64>,
    /// RTL engines: seed of the memory model's random stalls
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// Print a run's output in the chosen form.
fn print(out: &RunOutput, json: bool) {
    if json {
        print!("{}", crate::report::json(out));
    } else {
        print!("{}", crate::report::table(out));
    }
}

pub fn main(a: RunArgs) -> i32 {
    if let Some(p) = a.stall {
        if !(0.0..=1.0).contains(&p) {
            eprintln!("atomport run: error: --stall {p} is not a probability in 0..=1");
            return EXIT_BAD_INPUT;
        }
    }
    let program = match crate::script::parse_file(&a.file) {
        Ok(p) => p,
        Err(diag) => {
            eprintln!("{diag}");
            return EXIT_BAD_INPUT;
        }
    };
    match a.engine {
        EngineChoice::Golden => {
            print(&crate::golden::run(&program), a.json);
            0
        }
        EngineChoice::Rtl | EngineChoice::Both => {
            eprintln!(
                "atomport run: error: the RTL engine is not built yet; use --engine golden \
                 (--vcd, --latency, --stall and --seed apply to the RTL engine)"
            );
            EXIT_BAD_INPUT
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(file: &str, engine: EngineChoice) -> RunArgs {
        RunArgs { file: file.into(), engine, json: true, vcd: None, latency: None, stall: None, seed: None }
    }

    fn example(name: &str) -> String {
        format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn exit_status_golden_ok_bad_input_and_missing_rtl() {
        assert_eq!(main(args(&example("lock.atom"), EngineChoice::Golden)), 0);
        assert_eq!(main(args(&example("no-such-file.atom"), EngineChoice::Golden)), EXIT_BAD_INPUT);
        assert_eq!(main(args(&example("lock.atom"), EngineChoice::Rtl)), EXIT_BAD_INPUT);
        let mut a = args(&example("lock.atom"), EngineChoice::Golden);
        a.stall = Some(1.5);
        assert_eq!(main(a), EXIT_BAD_INPUT);
    }

    #[test]
    fn rtl_options_parse_and_are_kept() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            run: RunArgs,
        }
        let cli = Cli::try_parse_from([
            "run",
            "x.atom",
            "--engine",
            "both",
            "--json",
            "--vcd",
            "w.vcd",
            "--latency",
            "3",
            "--stall",
            "0.25",
            "--seed",
            "7",
        ])
        .unwrap();
        let a = cli.run;
        assert_eq!(
            (a.engine, a.json, a.latency, a.stall, a.seed),
            (EngineChoice::Both, true, Some(3), Some(0.25), Some(7))
        );
        assert_eq!(a.vcd.as_deref(), Some(std::path::Path::new("w.vcd")));
        assert!(Cli::try_parse_from(["run", "x.atom", "--engine", "verilog"]).is_err());
    }
}
