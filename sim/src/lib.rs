//! Verilator binding.
