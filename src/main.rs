use clap::{Parser, Subcommand};

mod cli;

/// atomport: drive GPU atomic message encodings through RTL under Verilator
/// and check them against a golden model.
#[derive(Parser)]
#[command(name = "atomport", version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
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
    Emit(cli::emit::EmitArgs),
    /// Run seeded random scripts on the RTL and the golden model in lockstep.
    Regress(cli::regress::RegressArgs),
    /// Cycles per message on the RTL per kind and exec size, and simulation speed.
    Bench(cli::bench::BenchArgs),
    /// Synthesize a block with Yosys (and place and route it with nextpnr) and report its figures.
    Synth(cli::synth::SynthArgs),
    /// Compare two VCDs signal by signal (first divergence per signal).
    Wavediff(cli::wave::WavediffArgs),
    /// Check an RTL VCD's port traffic against the golden model of a script.
    Wavecheck(cli::wave::WavecheckArgs),
    /// Waveform tools: render SVG, golden waveform, GTKWave views, reference waves.
    Wave(cli::wave::WaveArgs),
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.cmd {
        Cmd::Run(a) => cli::run::main(a),
        Cmd::Encode(a) => cli::codec::encode_main(a),
        Cmd::Decode(a) => cli::codec::decode_main(a),
        Cmd::Emit(a) => cli::emit::main(a),
        Cmd::Synth(a) => cli::synth::main(a),
        Cmd::Regress(a) => cli::regress::main(a),
        Cmd::Bench(a) => cli::bench::main(a),
        Cmd::Wavediff(a) => cli::wave::wavediff_main(a),
        Cmd::Wavecheck(a) => cli::wave::wavecheck_main(a),
        Cmd::Wave(a) => cli::wave::wave_main(a),
    };
    std::process::exit(code);
}
