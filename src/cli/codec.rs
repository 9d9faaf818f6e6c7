//! `atomport encode` / `decode` (owned by the descriptor work).
#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    pub file: String,
}
#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    pub hex: String,
}
pub fn encode_main(_a: EncodeArgs) -> i32 {
    eprintln!("atomport encode: not built yet");
    2
}
pub fn decode_main(_a: DecodeArgs) -> i32 {
    eprintln!("atomport decode: not built yet");
    2
}
