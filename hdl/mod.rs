//! The rust-hdl RTL.
