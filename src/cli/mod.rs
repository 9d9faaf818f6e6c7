//! The `atomport` subcommands, one file each. Every `main` returns the exit
//! status: 0 success, 1 a check failed (mismatch), 2 bad input.

pub mod run;
pub mod codec;
pub mod emit;
pub mod regress;
pub mod bench;
pub mod synth;
pub mod wave;
