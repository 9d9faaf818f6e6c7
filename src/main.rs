use clap::{Parser, Subcommand};

use atomport::cli;

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
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.cmd {
        Cmd::Run(a) => cli::run::main(a),
        Cmd::Encode(a) => cli::codec::encode_main(a),
        Cmd::Decode(a) => cli::codec::decode_main(a),
        Cmd::Emit(a) => cli::emit::main(a),
    };
    std::process::exit(code);
}
