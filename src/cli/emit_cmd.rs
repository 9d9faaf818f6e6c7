//! `atomport emit [--out DIR] [--check]`: regenerate the Verilog of every
//! top-level RTL block (`atomport_hdl::emit::TOPS`) into `hdl/verilog/`;
//! `atomport emit --variant NAME [--out DIR]`: the Verilog of one build
//! variant (`unit_l8_w64`, `alu_w32_int`, ...: `atomport_hdl::variants`)
//! into `target/variants/` (never into the checked-in tree).
//!
//! Emission compiles the rust-hdl RTL, so it is behind the `hdl` feature
//! (`make emit`, `cargo run --features hdl -- emit`); without it the command
//! says how to get it.

#[cfg(feature = "hdl")]
use std::path::PathBuf;

#[cfg(feature = "hdl")]
use atomport_hdl::emit;

#[derive(clap::Args, Debug)]
pub struct EmitArgs {
    /// Directory to write `<top>.v` files into [default: the source tree's hdl/verilog]
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
    /// Write nothing; exit 1 if any file differs from what would be emitted
    #[arg(long)]
    pub check: bool,
    /// Emit one build variant instead: unit_<l1..l32>[_w<32|64|128>][_int]
    /// (lanes, data width, integer ops only), alu_w<32|64>[_int], alu_int,
    /// fp_alu; into --out [default: target/variants]
    #[arg(long, value_name = "NAME", conflicts_with = "check")]
    pub variant: Option<String>,
}

/// Exit status: 0 written (or fresh with `--check`), 1 stale with
/// `--check`, 2 the generator or the file system failed.
#[cfg(not(feature = "hdl"))]
pub fn main(_: EmitArgs) -> i32 {
    eprintln!(
        "atomport emit: error: this atomport was built without the RTL generator (rust-hdl); \
         run `make emit`, or `cargo run --release --features hdl -- emit ...`"
    );
    2
}

/// Exit status: 0 written (or fresh with `--check`), 1 stale with
/// `--check`, 2 the generator or the file system failed.
#[cfg(feature = "hdl")]
pub fn main(a: EmitArgs) -> i32 {
    use atomport_core::output_file::OutputPlan;
    let default = if a.variant.is_some() { PathBuf::from("target/variants") } else { emit::default_dir() };
    let plan = match &a.out {
        Some(dir) => OutputPlan::new().folder("--out", Some(std::path::Path::new(dir))),
        None => OutputPlan::new().default_folder("--out", &default),
    };
    if !a.check {
        if let Err(code) = super::check_outputs(plan) {
            return code;
        }
    }
    if let Some(name) = &a.variant {
        let dir = a.out.map(PathBuf::from).unwrap_or(default);
        let variant = match atomport_hdl::variants::variant(name) {
            Ok(Some(v)) => v,
            Ok(None) => {
                eprintln!(
                    "atomport emit: error: no variant `{name}`: unit_<l1..l32>[_w<32|64|128>][_int], alu_w<32|64>[_int], alu_int, fp_alu"
                );
                return 2;
            }
            Err(e) => {
                eprintln!("atomport emit: error: {e}");
                return 2;
            }
        };
        return match atomport_hdl::variants::emit_variant(&variant, &dir) {
            Ok(path) => {
                outln!("wrote     {} (top module `{}`: {})", path.display(), variant.top, variant.description);
                0
            }
            Err(e) => {
                eprintln!("atomport emit: error: {e}");
                2
            }
        };
    }
    let dir = a.out.map(PathBuf::from).unwrap_or_else(emit::default_dir);
    if a.check {
        return match emit::stale_in(&dir) {
            Ok(stale) if stale.is_empty() => 0,
            Ok(stale) => {
                for path in stale {
                    eprintln!("{}: differs from the generator (stale or missing): run `atomport emit`", path.display());
                }
                1
            }
            Err(e) => {
                eprintln!("atomport emit: error: {e}");
                2
            }
        };
    }
    match emit::emit_all(&dir) {
        Ok(files) => {
            for f in files {
                outln!("{} {}", if f.changed { "wrote    " } else { "unchanged" }, f.path.display());
            }
            0
        }
        Err(e) => {
            eprintln!("atomport emit: error: {e}");
            2
        }
    }
}
