//! Tests of the golden model.

mod atomic_ops_cases;
mod soft_float_refs;
mod helpers;
mod machine;
mod scripts;
