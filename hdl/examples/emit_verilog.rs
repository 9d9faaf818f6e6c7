//! `cargo run -p atomport-hdl --example emit_verilog [DIR]`: the same as
//! `atomport emit [--out DIR]`, without building the main crate.

fn main() {
    let dir = std::env::args().nth(1).map(std::path::PathBuf::from).unwrap_or_else(atomport_hdl::emit::default_dir);
    match atomport_hdl::emit::emit_all(&dir) {
        Ok(files) => {
            for f in files {
                println!("{} {}", if f.changed { "wrote    " } else { "unchanged" }, f.path.display());
            }
        }
        Err(e) => {
            eprintln!("emit: error: {e}");
            std::process::exit(2);
        }
    }
}
