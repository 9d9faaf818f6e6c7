//! Synthesis variants: blocks built with other constructor arguments than
//! the checked-in tops of [`crate::emit::TOPS`], emitted on demand (into
//! `target/synth/variants/` by `atomport synth --block NAME`, into
//! `target/variants/` by `atomport emit --variant NAME`), never checked in.
//! (The smaller builds that are checked in and simulated,
//! `variants/atomic_unit_l8_w32_int.v` and `variants/serial_unit_l8_w32_int.v`,
//! are rows of `emit::TOPS`.)
//!
//! A variant is a name `atomport synth --block` takes, its Verilog
//! top-module name, a one-line description, and the function that builds
//! the block and renders it:
//!
//! | name | block | what |
//! | --- | --- | --- |
//! | `alu_int` | `AtomicAlu::new(128, false)` | the ALU with integer ops only (the FP datapath is never selected, and synthesis removes it) |
//! | `alu_w<bits>[_int]` | `AtomicAlu::new(bits, fp)` | the ALU for elements of up to 32 or 64 bits |
//! | `fp_alu` | `FloatAlu::default()` | the ALU's floating-point datapath on its own |
//! | `typed_addr_serial` | `TypedAddrSerial::default()` | the small build's serial TYPED_ATOMIC address (one adder, no multiplier) on its own |
//! | `serial_<config>` | `SerialUnit::new(config)` | the unit one element at a time (no in-flight table, `TypedAddrSerial`), integer configs only (`serial_l8_w32_int`) |
//! | `unit_<config>` | `AtomicUnit::new(config)` | the unit built with `UnitConfig::parse(config)`: `l<lanes>`, `w<bits>`, `int` joined by `_` (`unit_l8_w32_int`, `unit_l4`, `unit_int`) |
//!
//! [`FIXED`] lists the variants with fixed names; [`variant`] also builds
//! the parametric ones.

use std::path::{Path, PathBuf};

use atomport_isa::UnitConfig;
use rust_hdl::prelude::*;

use crate::alu::AtomicAlu;
use crate::emit::{EmitError, HEADER};
use crate::fp_alu::FloatAlu;
use crate::serial_unit::SerialUnit;
use crate::typed_addr_serial::TypedAddrSerial;
use crate::unit::AtomicUnit;

/// One synthesis variant. See the module documentation.
pub struct Variant {
    /// The name `atomport synth --block` takes.
    pub name: String,
    /// Verilog module name of its top (also the file stem).
    pub top: &'static str,
    /// What it is, one line.
    pub description: String,
    /// Builds the block and renders its Verilog with `top` as the top module's name.
    pub render: Box<dyn Fn(&'static str) -> Result<String, EmitError>>,
}

/// The variants with a fixed name (the parametric `alu_w*` and `unit_*`
/// names are built by [`variant`]).
pub const FIXED: &[&str] = &["alu_int", "fp_alu", "typed_addr_serial", "alu_w32", "alu_w64", "unit_l8_w32_int", "unit_int", "serial_l8_w32_int"];

/// The variant named `name`: a fixed one or a parametric `alu_w*` /
/// `unit_*` name. `Err` for a parametric name with bad parameters (why),
/// `Ok(None)` for a name that is no variant.
pub fn variant(name: &str) -> Result<Option<Variant>, String> {
    // a top name lives as long as the process: one leak per variant built
    let top = |name: &str| -> &'static str { Box::leak(format!("atomport_{name}").into_boxed_str()) };
    if name == "fp_alu" {
        return Ok(Some(Variant {
            name: name.into(),
            top: top(name),
            description: "the ALU's floating-point datapath alone (FloatAlu, hdl/src/fp_alu.rs)".into(),
            render: Box::new(|top| render_block(FloatAlu::default(), top)),
        }));
    }
    if name == "typed_addr_serial" {
        return Ok(Some(Variant {
            name: name.into(),
            top: top(name),
            description: "the serial TYPED_ATOMIC address alone (TypedAddrSerial, hdl/src/typed_addr_serial.rs)".into(),
            render: Box::new(|top| render_block(TypedAddrSerial::default(), top)),
        }));
    }
    if let Some(rest) = name.strip_prefix("alu_") {
        // the unit's parameter names without lanes: w<bits>, int
        let bad = || format!("`{name}`: an ALU variant is alu_w<32|64|128>, alu_int or alu_w<bits>_int");
        if rest.split('_').any(|part| part.starts_with('l')) {
            return Err(bad());
        }
        let config = UnitConfig::parse(rest).map_err(|_| bad())?;
        let (bits, fp) = (config.data_bits, config.fp);
        return Ok(Some(Variant {
            name: name.into(),
            top: top(name),
            description: format!(
                "the atomic ALU for elements of up to {bits} bits, {} (AtomicAlu::new({bits}, {fp}))",
                if fp { "with FP" } else { "integer ops only" }
            ),
            render: Box::new(move |top| render_block(AtomicAlu::new(bits, fp), top)),
        }));
    }
    if let Some(rest) = name.strip_prefix("serial_") {
        let config = UnitConfig::parse(rest).map_err(|e| format!("`{name}`: {e}"))?;
        if config.fp {
            return Err(format!("`{name}`: the serial unit is built for integer ops only (`_int`)"));
        }
        return Ok(Some(Variant {
            name: name.into(),
            top: top(name),
            description: format!(
                "the serial unit with {} lanes, {}-bit data, integer ops (SerialUnit::new(UnitConfig::parse(\"{}\")))",
                config.max_lanes,
                config.data_bits,
                config.name()
            ),
            render: Box::new(move |top| render_block(SerialUnit::new(config), top)),
        }));
    }
    if let Some(rest) = name.strip_prefix("unit_") {
        let config = UnitConfig::parse(rest).map_err(|e| format!("`{name}`: {e}"))?;
        return Ok(Some(Variant {
            name: name.into(),
            top: top(name),
            description: format!(
                "the unit with {} lanes, {}-bit data, {} (AtomicUnit::new(UnitConfig::parse(\"{}\")))",
                config.max_lanes,
                config.data_bits,
                if config.fp { "with FP" } else { "integer ops only" },
                config.name()
            ),
            render: Box::new(move |top| render_block(AtomicUnit::new(config), top)),
        }));
    }
    Ok(None)
}

/// Renders an already-built block as Verilog whose top module is `top`,
/// after rust-hdl's design checks (what `emit` does for a default-built top).
pub fn render_block<B: Block>(block: B, top: &'static str) -> Result<String, EmitError> {
    crate::emit::render_built(block, top)
}

/// Writes `dir/<top>.v` for `variant` (creating `dir`), whole, with the
/// generated header; a file already holding exactly that text is left
/// untouched. Returns the path.
pub fn emit_variant(variant: &Variant, dir: &Path) -> Result<PathBuf, EmitError> {
    atomport_core::output_file::create_folder(dir).map_err(EmitError::Output)?;
    let body = (variant.render)(variant.top)?;
    let text = format!(
        "{HEADER}\n// Synthesis variant `{}`: {}. Emitted by `atomport emit --variant` or `atomport synth`, not checked in.\n\n{}\n",
        variant.name,
        variant.description,
        body.trim_matches('\n')
    );
    let path = dir.join(format!("{}.v", variant.top));
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        atomport_core::output_file::write_file(&path, text.as_bytes()).map_err(EmitError::Output)?;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_render_with_their_top_name() {
        for name in FIXED {
            let v = variant(name).unwrap().unwrap();
            let text = (v.render)(v.top).unwrap();
            assert!(text.contains(&format!("module {}(", v.top)), "{name}");
            assert!(!text.contains("module top("), "{name}");
            // a variant must not shadow a checked-in top
            assert!(crate::emit::top(v.top).is_err() && crate::emit::top(name).is_err(), "{name}");
        }
        let names: std::collections::BTreeSet<_> = FIXED.iter().collect();
        assert_eq!(names.len(), FIXED.len(), "duplicate variant names");
    }

    #[test]
    fn parametric_names_are_checked() {
        assert!(variant("unit_l4_w64").unwrap().is_some());
        assert!(variant("alu_w64_int").unwrap().is_some());
        for bad in ["unit_l3", "unit_w16", "unit_", "alu_w16", "alu_int_int", "alu_q", "alu_l8"] {
            assert!(variant(bad).is_err(), "{bad}");
        }
        assert!(variant("alu").unwrap().is_none() && variant("nothing").unwrap().is_none());
    }

    #[test]
    fn emit_variant_writes_once() {
        let dir = std::env::temp_dir().join(format!("atomport-variants-{}", std::process::id()));
        let v = variant("alu_int").unwrap().unwrap();
        let path = emit_variant(&v, &dir).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(HEADER));
        assert!(text.contains(&format!("Synthesis variant `{}`", v.name)));
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        assert_eq!(emit_variant(&v, &dir).unwrap(), path);
        assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), modified, "unchanged file rewritten");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
