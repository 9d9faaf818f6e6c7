//! Test bench around the Verilated RTL.
