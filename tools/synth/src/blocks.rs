//! The blocks to synthesize: the checked-in emitted Verilog's tops, the
//! build variants, and any module of it, resolved by name.

use std::path::{Path, PathBuf};

use super::SynthError;

/// A block to synthesize: a Verilog file and its top module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// the name it was asked for (`alu`, `alu_int`, `atomic_unit$decoder`)
    pub name: String,
    /// the top module
    pub top: String,
    /// the file that defines `top`
    pub verilog: PathBuf,
    /// every file synthesis reads: `verilog`, then the files of the tops it
    /// instantiates (`atomic_unit.v` uses `atomic_alu.v`), and nothing else:
    /// every file Yosys reads shifts its internal names, hence the netlist
    /// and the figures, so an unrelated file must not be read
    pub sources: Vec<PathBuf>,
    /// where it comes from, for reports
    pub origin: String,
}

/// The checked-in emitted Verilog (`hdl/verilog`).
pub fn verilog_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../hdl/verilog"))
}

/// One checked-in top: a file of `hdl/verilog` (or its `variants/`), whose
/// top module is named like the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedInTop {
    pub name: String,
    /// path relative to the Verilog directory (`atomic_alu.v`, `variants/atomic_unit_l8_w32_int.v`)
    pub file: String,
    /// the tops it instantiates, from the emitter's header lines
    /// ``// Instantiates `atomic_alu` from atomic_alu.v: read it too.``
    pub uses: Vec<String>,
}

/// Every checked-in top, sorted by file. The emitted files describe
/// themselves (top named like the file, header naming the tops it
/// instantiates), so this needs neither rust-hdl nor a second list.
pub fn checked_in_tops(dir: &Path) -> Vec<CheckedInTop> {
    let mut tops = vec![];
    for sub in ["", "variants"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else { continue };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.extension().and_then(|e| e.to_str()) != Some("v") {
                continue;
            }
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let uses = text
                .lines()
                .take_while(|l| l.starts_with("//") || l.is_empty())
                .filter_map(|l| l.strip_prefix("// Instantiates `")?.split('`').next().map(String::from))
                .collect();
            let file = if sub.is_empty() { format!("{name}.v") } else { format!("{sub}/{name}.v") };
            tops.push(CheckedInTop { name, file, uses });
        }
    }
    tops.sort_by(|a, b| a.file.cmp(&b.file));
    tops
}

/// Resolves a block name, in this order:
/// 1. a checked-in top ([`checked_in_tops`]), by its module name or without
///    its `atomic_` prefix (`alu` = `atomic_alu`, `unit_l8_w32_int`);
/// 2. a variant of `atomport_hdl::variants` (a block built with other
///    constructor arguments): emitted into `variants_dir` first (only with
///    the `hdl` feature: it compiles the rust-hdl RTL);
/// 3. any module of the checked-in Verilog (`atomic_unit$decoder`, a
///    sub-block of the unit).
pub fn resolve_block(name: &str, variants_dir: &Path) -> Result<Block, SynthError> {
    resolve_block_in(name, &verilog_dir(), "hdl/verilog", variants_dir)
}

/// [`resolve_block`] on another directory laid out like `hdl/verilog` (its
/// tops, `variants/`, the emitter's header lines): an edited copy of the
/// emitted Verilog, for a what-if run (`atomport synth --verilog-dir`)
/// without touching the checked-in files. The build variants that are not
/// checked in are still emitted from the RTL; `label` names the directory
/// in reports.
pub fn resolve_block_in(name: &str, dir: &Path, label: &str, variants_dir: &Path) -> Result<Block, SynthError> {
    if !dir.is_dir() {
        return Err(SynthError::Input(format!("--verilog-dir {}: not a directory", dir.display())));
    }
    let tops = checked_in_tops(dir);
    if let Some(top) = tops.iter().find(|t| t.name == name || short_name(&t.name).as_deref() == Some(name)) {
        return Ok(Block {
            name: name.into(),
            top: top.name.clone(),
            sources: top_sources(top, &tops, dir),
            verilog: dir.join(&top.file),
            origin: format!("{label}/{}", top.file),
        });
    }
    #[cfg(feature = "hdl")]
    if let Some(variant) = atomport_hdl::variants::variant(name).map_err(SynthError::Input)? {
        let verilog = atomport_hdl::variants::emit_variant(&variant, variants_dir)
            .map_err(|e| SynthError::Emit(e.to_string()))?;
        return Ok(Block {
            name: name.into(),
            top: variant.top.into(),
            // a variant's file holds all its modules (`render_block` shares none)
            sources: vec![verilog.clone()],
            verilog,
            origin: format!("variant `{}`: {}", variant.name, variant.description),
        });
    }
    #[cfg(not(feature = "hdl"))]
    {
        let _ = variants_dir;
        if variant_like(name) {
            return Err(SynthError::Input(format!(
                "`{name}` is a build variant that is not checked in: emitting it needs the rust-hdl RTL; \
                 build atomport with `--features hdl` (e.g. `cargo run --release --features hdl -- synth --block {name}`)"
            )));
        }
    }
    for (module, verilog) in checked_in_modules(dir) {
        if module == name {
            let file = verilog.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let origin = format!("module of {label}/{file}");
            let sources = match tops.iter().find(|t| t.file == file) {
                Some(top) => top_sources(top, &tops, dir),
                None => vec![verilog.clone()],
            };
            return Ok(Block { name: name.into(), top: module, verilog, sources, origin });
        }
    }
    Err(SynthError::UnknownBlock { name: name.into(), known: block_names() })
}

/// `unit_*` / `alu_*` / `serial_*` / `fp_alu`: the names of build variants.
#[cfg(not(feature = "hdl"))]
fn variant_like(name: &str) -> bool {
    name == "fp_alu" || name.starts_with("unit_") || name.starts_with("alu_") || name.starts_with("serial_")
}

/// A checked-in top's block name, the name its variant has: without the
/// `atomic_` prefix (`alu`, `unit_l8_w32_int`), and a serial unit without
/// `unit_` (`serial_unit_l8_w32_int` is `serial_l8_w32_int`).
fn short_name(top: &str) -> Option<String> {
    if let Some(short) = top.strip_prefix("atomic_") {
        return Some(short.to_string());
    }
    top.strip_prefix("serial_unit_").map(|config| format!("serial_{config}"))
}

/// The files of `top` and of the tops it instantiates, depth first, each once.
fn top_sources(top: &CheckedInTop, tops: &[CheckedInTop], dir: &Path) -> Vec<PathBuf> {
    let mut order = vec![top];
    let mut i = 0;
    while i < order.len() {
        for used in &order[i].uses {
            if let Some(t) = tops.iter().find(|t| &t.name == used) {
                if !order.iter().any(|o| o.name == t.name) {
                    order.push(t);
                }
            }
        }
        i += 1;
    }
    order.iter().map(|t| dir.join(&t.file)).collect()
}

/// Every name [`resolve_block`] accepts besides sub-modules: the checked-in
/// tops (short and full names) and the variants.
pub fn block_names() -> Vec<String> {
    let mut names = vec![];
    for top in checked_in_tops(&verilog_dir()) {
        if let Some(short) = short_name(&top.name) {
            names.push(short);
        }
        names.push(top.name);
    }
    #[cfg(feature = "hdl")]
    for v in atomport_hdl::variants::FIXED {
        if !names.iter().any(|n| n == v) {
            names.push(v.to_string());
        }
    }
    names.push("alu_w<32|64>[_int]".into());
    names.push("unit_<l1..l32>[_w<32|64|128>][_int]".into());
    names
}

/// (module, file) for every `module NAME(` line of `dir/*.v`, sorted.
fn checked_in_modules(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = vec![];
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.extension().and_then(|e| e.to_str()) != Some("v") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for line in text.lines() {
            if let Some(rest) = line.trim_start().strip_prefix("module ") {
                let module = rest.split(|c: char| c == '(' || c == ';' || c.is_whitespace()).next().unwrap_or("");
                if !module.is_empty() {
                    out.push((module.to_string(), path.clone()));
                }
            }
        }
    }
    out.sort();
    out
}
