//! Tests of the golden model.

mod alu;
mod fp;
mod helpers;
mod machine;
mod scripts;
