//! `atomport emit [--out DIR] [--check]`: regenerate the Verilog of every
//! top-level RTL block (`atomport_hdl::emit::TOPS`) into `hdl/verilog/`.

use std::path::PathBuf;

use atomport_hdl::emit;

#[derive(clap::Args, Debug)]
pub struct EmitArgs {
    /// Directory to write `<top>.v` files into [default: the source tree's hdl/verilog]
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
    /// Write nothing; exit 1 if any file differs from what would be emitted
    #[arg(long)]
    pub check: bool,
}

/// Exit status: 0 written (or fresh with `--check`), 1 stale with
/// `--check`, 2 the generator or the file system failed.
pub fn main(a: EmitArgs) -> i32 {
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
                println!("{} {}", if f.changed { "wrote    " } else { "unchanged" }, f.path.display());
            }
            0
        }
        Err(e) => {
            eprintln!("atomport emit: error: {e}");
            2
        }
    }
}
