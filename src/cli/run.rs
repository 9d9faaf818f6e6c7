//! `atomport run` (owned by the golden/report work).
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    pub file: String,
}
pub fn main(_a: RunArgs) -> i32 {
    eprintln!("atomport run: not built yet");
    2
}
