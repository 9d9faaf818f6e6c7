//! Synthesis variants: blocks built with other constructor arguments than
//! the checked-in tops of [`crate::emit::TOPS`], emitted on demand (into
//! `target/synth/variants/` by `atomport synth --block NAME`), never checked
//! in.
//!
//! A variant is one row of [`VARIANTS`]: its name (what `--block` takes),
//! its Verilog top-module name, a one-line description, and the function
//! that builds the block and renders it. The experiment parameters the
//! issue asks for (integer-only ALU, fewer lanes, narrower data) become rows
//! here as the blocks expose them in their constructors:
//!
//! | name      | block                 | status |
//! | --------- | --------------------- | ------ |
//! | `alu_int` | `AtomicAlu::new(false)` | the ALU with integer ops only (the FP datapath is never selected, and synthesis removes it) |
//! | `fp_alu`  | `FloatAlu::default()` | the ALU's floating-point datapath on its own |
//! | `unit_l8` | `AtomicUnit` with 8 lanes | waits for a lane-count parameter (a const generic: the ports' widths depend on it) |

use std::path::{Path, PathBuf};

use rust_hdl::prelude::*;

use crate::alu::AtomicAlu;
use crate::emit::{EmitError, HEADER};
use crate::fp_alu::FloatAlu;

/// One synthesis variant. See the module documentation.
pub struct Variant {
    /// The name `atomport synth --block` takes.
    pub name: &'static str,
    /// Verilog module name of its top (also the file stem).
    pub top: &'static str,
    /// What it is, one line.
    pub description: &'static str,
    /// Builds the block and renders its Verilog with `top` as the top module's name.
    pub render: fn(&'static str) -> Result<String, EmitError>,
}

/// Every variant.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "alu_int",
        top: "atomport_alu_int",
        description: "the atomic ALU with integer ops only (AtomicAlu::new(false))",
        render: |top| render_block(AtomicAlu::new(false), top),
    },
    Variant {
        name: "fp_alu",
        top: "atomport_fp_alu",
        description: "the ALU's floating-point datapath alone (FloatAlu, hdl/src/fp_alu.rs)",
        render: |top| render_block(FloatAlu::default(), top),
    },
];

/// The variant named `name`.
pub fn variant(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

/// Renders an already-built block as Verilog whose top module is `top`,
/// after rust-hdl's design checks (what `emit` does for a default-built top).
pub fn render_block<B: Block>(mut block: B, top: &'static str) -> Result<String, EmitError> {
    block.connect_all();
    check_all(&block).map_err(|e| EmitError::Check { top, detail: format!("{e:?}") })?;
    let mut defines = ModuleDefines::default();
    block.accept(top, &mut defines);
    Ok(defines.defines())
}

/// Writes `dir/<top>.v` for `variant` (creating `dir`), with the generated
/// header; a file already holding exactly that text is left untouched.
/// Returns the path.
pub fn emit_variant(variant: &Variant, dir: &Path) -> Result<PathBuf, EmitError> {
    std::fs::create_dir_all(dir).map_err(|error| EmitError::Io { path: dir.to_path_buf(), error })?;
    let body = (variant.render)(variant.top)?;
    let text = format!(
        "{HEADER}\n// Synthesis variant `{}`: {}. Emitted by `atomport synth`, not checked in.\n\n{}\n",
        variant.name,
        variant.description,
        body.trim_matches('\n')
    );
    let path = dir.join(format!("{}.v", variant.top));
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&path, &text).map_err(|error| EmitError::Io { path: path.clone(), error })?;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_render_with_their_top_name() {
        for v in VARIANTS {
            let text = (v.render)(v.top).unwrap();
            assert!(text.contains(&format!("module {}(", v.top)), "{}", v.name);
            assert!(!text.contains("module top("), "{}", v.name);
            // a variant must not shadow a checked-in top
            assert!(crate::emit::top(v.top).is_err() && crate::emit::top(v.name).is_err(), "{}", v.name);
        }
        let names: std::collections::BTreeSet<_> = VARIANTS.iter().map(|v| v.name).collect();
        assert_eq!(names.len(), VARIANTS.len(), "duplicate variant names");
    }

    #[test]
    fn emit_variant_writes_once() {
        let dir = std::env::temp_dir().join(format!("atomport-variants-{}", std::process::id()));
        let v = &VARIANTS[0];
        let path = emit_variant(v, &dir).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(HEADER));
        assert!(text.contains(&format!("Synthesis variant `{}`", v.name)));
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        assert_eq!(emit_variant(v, &dir).unwrap(), path);
        assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), modified, "unchanged file rewritten");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
