//! The script parser (scripts.md): text -> Program.
