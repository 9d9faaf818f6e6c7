//! `atomport emit` (owned by the RTL work).
#[derive(clap::Args, Debug)]
pub struct EmitArgs {
    #[arg(long)]
    pub out: Option<String>,
}
pub fn main(_a: EmitArgs) -> i32 {
    eprintln!("atomport emit: not built yet");
    2
}
