//! Where a mutation sits, in the emitted Verilog and in the rust-hdl
//! source: the flattened cell's instance path (`float.add_wide`, rust-hdl's
//! field path from the top block), the block type of each step (read from
//! the `#[derive(LogicBlock)]` structs of `hdl/src`), the signal (the wire
//! the mutated bit drives or reads, else the Verilog statement of the
//! cell), and the Verilog line.

use std::collections::BTreeMap;
use std::path::Path;

use super::mutants::Mutation;

/// A mutation's place, as a report shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// the rust-hdl field path from the top block (`float.add_wide`; "" for the top)
    pub path: String,
    /// the block type at that path and its file (`FpAdd`, `hdl/src/fp_add.rs`)
    pub block: Option<(String, String)>,
    /// the signal, relative to that block (`big_sig`, `r3_b_sign.q`)
    pub signal: Option<String>,
    /// `file:line` of the cell in the emitted Verilog, and the line's text
    pub verilog: Option<(String, String)>,
}

impl Place {
    /// One line: `FpAdd (hdl/src/fp_add.rs) at float.add_wide, signal big_sig; atomic_alu.v:3941 `...``.
    pub fn text(&self) -> String {
        let mut s = match &self.block {
            Some((ty, file)) => format!("{ty} ({file})"),
            None => "block ?".to_string(),
        };
        s.push_str(&format!(" at {}", if self.path.is_empty() { "the top" } else { &self.path }));
        if let Some(sig) = &self.signal {
            s.push_str(&format!(", signal {sig}"));
        }
        if let Some((at, code)) = &self.verilog {
            s.push_str(&format!("; {at} `{code}`"));
        }
        s
    }
}

/// The `#[derive(LogicBlock)]` structs of the rust-hdl source: their fields'
/// types and their files.
#[derive(Clone, Debug, Default)]
pub struct HdlSource {
    /// struct -> (file, field -> type name without generics)
    structs: BTreeMap<String, (String, BTreeMap<String, String>)>,
    /// `type Alias = Type<..>;` -> Type
    aliases: BTreeMap<String, String>,
}

impl HdlSource {
    /// Reads every `*.rs` of `dir` (hdl/src); an unreadable folder gives an
    /// empty source (places then name Verilog only).
    pub fn read(dir: &Path) -> HdlSource {
        let mut out = HdlSource::default();
        let Ok(entries) = std::fs::read_dir(dir) else { return out };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for path in files.into_iter().filter(|p| p.extension().is_some_and(|x| x == "rs")) {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let file = format!("hdl/src/{}", path.file_name().unwrap_or_default().to_string_lossy());
            out.add(&file, &text);
        }
        out
    }

    /// Adds the structs of one file.
    pub fn add(&mut self, file: &str, text: &str) {
        let mut lines = text.lines().peekable();
        let mut derive_block = false;
        while let Some(line) = lines.next() {
            let t = line.trim();
            if let Some(rest) = t.strip_prefix("pub type ").or_else(|| t.strip_prefix("type ")) {
                if let Some((alias, ty)) = rest.split_once('=') {
                    let ty: String = ty.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    self.aliases.insert(alias.trim().to_string(), ty);
                }
                continue;
            }
            if t.starts_with("#[derive(") && t.contains("LogicBlock") {
                derive_block = true;
                continue;
            }
            let Some(rest) = t.strip_prefix("pub struct ").filter(|_| derive_block) else {
                if !t.starts_with("#[") && !t.starts_with("///") && !t.is_empty() {
                    derive_block = false;
                }
                continue;
            };
            derive_block = false;
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let mut fields = BTreeMap::new();
            for field in lines.by_ref() {
                let f = field.trim();
                if f.starts_with('}') {
                    break;
                }
                let f = f.strip_prefix("pub ").unwrap_or(f);
                let Some((fname, ty)) = f.split_once(':') else { continue };
                if fname.contains(char::is_whitespace) || fname.starts_with("//") {
                    continue;
                }
                let ty: String = ty.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                fields.insert(fname.to_string(), ty);
            }
            self.structs.insert(name, (file.to_string(), fields));
        }
    }

    /// The block type and file at `path` (fields) from `top`.
    fn block_at(&self, top: &str, path: &[String]) -> Option<(String, String)> {
        let mut ty = top.to_string();
        for field in path {
            let (_, fields) = self.structs.get(&ty)?;
            ty = fields.get(field)?.clone();
            if let Some(real) = self.aliases.get(&ty) {
                ty = real.clone();
            }
        }
        let (file, _) = self.structs.get(&ty)?;
        Some((ty, file.clone()))
    }
}

/// The rust-hdl source of this tree (`hdl/src`).
pub fn default_hdl_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../hdl/src"))
}

/// The instance path and local name of a flattened cell
/// (`$flatten\float.\add_wide.$procmux$2079` -> (["float", "add_wide"], "$procmux$2079")).
pub fn cell_path(cell: &str) -> (Vec<String>, String) {
    let Some(mut rest) = cell.strip_prefix("$flatten\\") else { return (vec![], cell.to_string()) };
    let mut path = vec![];
    loop {
        let next_public = rest.find(".\\");
        let next_internal = rest.find(".$");
        match (next_public, next_internal) {
            (Some(p), i) if i.is_none_or(|i| p < i) => {
                path.push(rest[..p].to_string());
                rest = &rest[p + 2..];
            }
            (_, Some(i)) => {
                path.push(rest[..i].to_string());
                return (path, rest[i + 1..].to_string());
            }
            (None, None) => return (path, rest.to_string()),
            _ => unreachable!(),
        }
    }
}

/// Where `m` sits: `top` is the top block's struct (`AtomicAlu`), `verilog`
/// the folder of the Verilog copies its `-src` tags name.
pub fn place(m: &Mutation, top: &str, hdl: &HdlSource, verilog: &Path) -> Place {
    let (mut path, _) = cell_path(&m.cell);
    // a register's own module (rust-hdl's DFF) is a step of the path too;
    // the block is the innermost one that is a LogicBlock of hdl/src
    let mut block = hdl.block_at(top, &path);
    while block.as_ref().is_none_or(|(ty, _)| ty == "DFF") && !path.is_empty() {
        path.pop();
        block = hdl.block_at(top, &path);
    }
    let prefix = if path.is_empty() { String::new() } else { format!("{}.", path.join(".")) };
    // rust-hdl names a sub-block's port `field$port` in its parent
    let signal = m.wire.as_ref().map(|w| {
        let local = w.strip_prefix(&prefix).unwrap_or(w).replace('$', ".");
        match m.wirebit {
            Some(b) => format!("{local}[{b}]"),
            None => local,
        }
    });
    let modules = module_ranges(verilog, m);
    let deepest = m
        .src
        .iter()
        .filter_map(|src| {
            let (file, line) = src_position(src)?;
            let depth = modules.iter().find(|(f, _, a, b)| *f == file && (*a..=*b).contains(&line)).map_or(0, |(_, name, _, _)| name.matches('$').count());
            Some((depth, src))
        })
        .max_by_key(|(depth, _)| *depth);
    let verilog_line = deepest.and_then(|(_, src)| source_line(src, verilog));
    Place { path: path.join("."), block, signal, verilog: verilog_line }
}

/// (file, line) of a `-src` tag.
fn src_position(src: &str) -> Option<(String, usize)> {
    let (file, pos) = src.rsplit_once(':')?;
    Some((file.to_string(), pos.split('.').next()?.parse().ok()?))
}

/// (file, module, first line, last line) of every module of the files the
/// mutation's `-src` tags name.
fn module_ranges(dir: &Path, m: &Mutation) -> Vec<(String, String, usize, usize)> {
    let mut files: Vec<String> = m.src.iter().filter_map(|s| src_position(s).map(|p| p.0)).collect();
    files.sort();
    files.dedup();
    let mut out = vec![];
    for file in files {
        let Ok(text) = std::fs::read_to_string(dir.join(&file)) else { continue };
        let mut open: Option<(String, usize)> = None;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("module ") {
                let name: String = rest.chars().take_while(|c| *c != '(' && *c != ';' && !c.is_whitespace()).collect();
                open = Some((name, i + 1));
            } else if t.starts_with("endmodule") {
                if let Some((name, start)) = open.take() {
                    out.push((file.clone(), name, start, i + 1));
                }
            }
        }
    }
    out
}

/// `file:line` and the line's text of a `-src` tag (`atomic_alu.v:3941.13-3941.19`).
fn source_line(src: &str, dir: &Path) -> Option<(String, String)> {
    let (file, line) = src_position(src)?;
    let text = std::fs::read_to_string(dir.join(&file)).ok()?;
    let code = text.lines().nth(line.checked_sub(1)?)?.trim().to_string();
    Some((format!("{file}:{line}"), code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_split_into_path_and_local_name() {
        assert_eq!(cell_path("$flatten\\float.\\add_wide.$procmux$2079"), (vec!["float".into(), "add_wide".into()], "$procmux$2079".into()));
        assert_eq!(
            cell_path("$flatten\\float.\\cmp_wide.$not$atomic_alu.v:5986$1475"),
            (vec!["float".into(), "cmp_wide".into()], "$not$atomic_alu.v:5986$1475".into())
        );
        assert_eq!(cell_path("$procmux$3290"), (vec![], "$procmux$3290".into()));
        assert_eq!(cell_path("$flatten\\x_width_mask.$procdff$3430"), (vec!["x_width_mask".into()], "$procdff$3430".into()));
    }

    #[test]
    fn places_walk_the_rust_hdl_fields() {
        let mut hdl = HdlSource::default();
        hdl.add(
            "hdl/src/alu.rs",
            "#[derive(LogicBlock)]\npub struct AtomicAlu {\n    pub clock: Signal<In, Clock>,\n    float: FloatAlu,\n    x_width_mask: DFF<Bits<128>>,\n}\n",
        );
        hdl.add("hdl/src/fp_alu.rs", "/// doc\n#[derive(LogicBlock, Default)]\npub struct FloatAlu {\n    pub add_wide: FpAdd,\n}\n");
        hdl.add("hdl/src/fp_add.rs", "#[derive(LogicBlock)]\npub struct FpAdd {\n    big_sig: Signal<Local, Bits<64>>,\n}\n");
        let m = Mutation::parse(
            "mutate -mode inv -module atomic_alu -cell $flatten\\float.\\add_wide.$procmux$2402 -port Y -portbit 55 -wire float.add_wide.big_sig -wirebit 55",
        )
        .unwrap();
        let p = place(&m, "AtomicAlu", &hdl, Path::new("/nonexistent"));
        assert_eq!(p.path, "float.add_wide");
        assert_eq!(p.block, Some(("FpAdd".into(), "hdl/src/fp_add.rs".into())));
        assert_eq!(p.signal.as_deref(), Some("big_sig[55]"));
        // a register's module folds into the signal of the block that has it
        let m = Mutation::parse("mutate -mode const0 -module atomic_alu -cell $flatten\\x_width_mask.$procdff$3430 -port D -portbit 3 -wire x_width_mask.d -wirebit 3").unwrap();
        let p = place(&m, "AtomicAlu", &hdl, Path::new("/nonexistent"));
        assert_eq!((p.path.as_str(), p.signal.as_deref()), ("", Some("x_width_mask.d[3]")));
        assert_eq!(p.block, Some(("AtomicAlu".into(), "hdl/src/alu.rs".into())));
        // type aliases, and rust-hdl's `field$port` wires
        hdl.add("hdl/src/fp_alu.rs", "pub type FpAddWide = FpAdd<12, 57, 6>;\n#[derive(LogicBlock)]\npub struct FloatAlu {\n    add_wide: FpAddWide,\n}\n");
        let m = Mutation::parse(
            "mutate -mode cnot1 -module atomic_alu -cell $flatten\\float.\\add_wide.\\r3_lsb.$procdff$3495 -port Q -portbit 14 -ctrlbit 18 -wire float.add_wide.r3_lsb$q -wirebit 14",
        )
        .unwrap();
        let p = place(&m, "AtomicAlu", &hdl, Path::new("/nonexistent"));
        assert_eq!((p.path.as_str(), p.signal.as_deref()), ("float.add_wide", Some("r3_lsb.q[14]")));
        assert_eq!(p.block, Some(("FpAdd".into(), "hdl/src/fp_add.rs".into())));
    }
}
