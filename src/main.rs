use clap::{Parser, Subcommand};

#[macro_use]
mod cli;

/// atomport: drive GPU atomic message encodings through RTL under Verilator
/// and check them against a golden model.
#[derive(Parser)]
#[command(name = "atomport", version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
    /// Refuse a script or VCD larger than this (N, or N with K, M, G; default
    /// 256M, or the ATOMPORT_MAX_INPUT environment variable). Bounds reads of
    /// standard input, FIFOs and devices too.
    #[arg(long, global = true, value_name = "BYTES", value_parser = cli::input::parse_size)]
    max_input: Option<u64>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a message script on the golden model, the RTL, or both.
    Run(cli::run::RunArgs),
    /// Print each message's binary descriptor and payload as hex.
    Encode(cli::codec::EncodeArgs),
    /// Print a descriptor (and payload) back in the seed's Text form.
    Decode(cli::codec::DecodeArgs),
    /// Regenerate the Verilog under hdl/verilog from the rust-hdl blocks.
    Emit(cli::emit_cmd::EmitArgs),
    /// Run seeded random scripts on the RTL and the golden model in lockstep.
    Regress(cli::regress_cmd::RegressArgs),
    /// Join the reports of the shards of one regression (regress --shard K/N --report) into the run's report.
    Merge(cli::merge::MergeArgs),
    /// Cycles per message on the RTL per kind and exec size, and simulation speed.
    Bench(cli::bench_cmd::BenchArgs),
    /// Synthesize a block with Yosys (and place and route it with nextpnr) and report its figures.
    Synth(cli::synth_cmd::SynthArgs),
    /// Mutation testing: Yosys mutants of a block's Verilog through its kill suite; survivors proven or waived.
    Mutate(cli::mutate_cmd::MutateArgs),
    /// The README's Verification table from the long runs' reports (mutation, functional bins, code coverage, second simulator, exhaustive floats)
    Verification(cli::verification_cmd::VerificationArgs),
    /// Seeded random scripts on Verilator and replayed under Icarus: every signal of the unit compared.
    Xsim(cli::xsim_cmd::XsimArgs),
    /// Compare two VCDs signal by signal (first divergence per signal).
    Wavediff(cli::wave::WavediffArgs),
    /// Check an RTL VCD's port traffic against the golden model of a script.
    Wavecheck(cli::wave::WavecheckArgs),
    /// Waveform tools: render SVG, golden waveform, GTKWave views, reference waves.
    Wave(cli::wave::WaveArgs),
}

/// A closed pipe on stdout or stderr ends the process quietly, killed by
/// SIGPIPE, as `cat` and `grep` are (the shell reports status 141). Rust
/// ignores SIGPIPE by default, which turns `atomport run x | head -1` into
/// a "failed printing to stdout" panic.
fn default_sigpipe() {
    // SAFETY: setting a signal's disposition to SIG_DFL before any thread
    // is started; no handler runs Rust code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A file size limit (`ulimit -f`) makes a write past it fail with EFBIG,
/// reported like any write error (exit 2), instead of SIGXFSZ killing the
/// process with a core dump and a partial file.
fn ignore_file_size_signal() {
    // SAFETY: as default_sigpipe
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Parses the command line; `--help` and `--version` are printed here, so
/// that a standard output that cannot be written is exit 2 with a message,
/// as for every command.
fn parse_command_line() -> Cli {
    match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion) => {
            let text = if std::io::IsTerminal::is_terminal(&std::io::stdout()) { e.render().ansi().to_string() } else { e.render().to_string() };
            cli::stdout_write(format_args!("{text}"));
            cli::stdout_flush();
            std::process::exit(0);
        }
        // usage errors go to standard error, exit 2
        Err(e) => e.exit(),
    }
}

fn main() {
    default_sigpipe();
    ignore_file_size_signal();
    let cli = parse_command_line();
    if let Some(n) = cli.max_input {
        cli::input::set_max_input(n);
    }
    if let Err(e) = cli::input::max_input() {
        eprintln!("atomport: error: {e}");
        std::process::exit(atomport_core::diag::EXIT_BAD_INPUT);
    }
    let code = match cli.cmd {
        Cmd::Run(a) => cli::run::main(a),
        Cmd::Encode(a) => cli::codec::encode_main(a),
        Cmd::Decode(a) => cli::codec::decode_main(a),
        Cmd::Emit(a) => cli::emit_cmd::main(a),
        Cmd::Synth(a) => cli::synth_cmd::main(a),
        Cmd::Regress(a) => cli::regress_cmd::main(a),
        Cmd::Merge(a) => cli::merge::main(a),
        Cmd::Bench(a) => cli::bench_cmd::main(a),
        Cmd::Mutate(a) => cli::mutate_cmd::main(a),
        Cmd::Verification(a) => cli::verification_cmd::verification_main(a),
        Cmd::Xsim(a) => cli::xsim_cmd::main(a),
        Cmd::Wavediff(a) => cli::wave::wavediff_main(a),
        Cmd::Wavecheck(a) => cli::wave::wavecheck_main(a),
        Cmd::Wave(a) => cli::wave::wave_main(a),
    };
    cli::stdout_flush();
    std::process::exit(code);
}
