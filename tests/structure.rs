//! The tree's structure rules (issue 11, README "Layout"): no two Rust
//! files share a stem (besides `main`, `lib`, `mod`, `build`), and inside
//! every crate the top-level modules depend on each other without cycles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The crates' source directories (the workspace's members).
const CRATE_SOURCES: &[&str] =
    &["src", "isa/src", "core/src", "hdl/src", "sim/src", "testbench/src", "tools/wave/src", "tools/synth/src"];

/// Every `.rs` file under `dir`, skipping build output and VCS data.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(name.as_str(), "target" | ".git" | "corpus" | "artifacts") {
                rust_files(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

/// Stems used by more than one file, with the files.
fn duplicate_stems(files: &[PathBuf]) -> BTreeMap<String, Vec<String>> {
    let mut by_stem: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        if !matches!(stem.as_str(), "main" | "lib" | "mod" | "build") {
            by_stem.entry(stem).or_default().push(f.strip_prefix(ROOT).unwrap_or(f).display().to_string());
        }
    }
    by_stem.retain(|_, v| v.len() > 1);
    by_stem
}

#[test]
fn no_two_rust_files_share_a_name() {
    let mut files = vec![];
    rust_files(Path::new(ROOT), &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    let dups = duplicate_stems(&files);
    assert!(dups.is_empty(), "files sharing a name (rename one: names say what a thing is): {dups:#?}");
}

#[test]
fn the_duplicate_check_sees_a_duplicate() {
    let files = [PathBuf::from("a/src/memory.rs"), PathBuf::from("b/src/memory.rs"), PathBuf::from("b/src/lib.rs"), PathBuf::from("a/src/lib.rs")];
    let dups = duplicate_stems(&files);
    assert_eq!(dups.keys().collect::<Vec<_>>(), ["memory"]);
}

/// The crate's top-level modules: `src/x.rs` and `src/x/` (without the
/// crate root files).
fn top_modules(src: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in std::fs::read_dir(src).unwrap().flatten() {
        let p = e.path();
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        if p.is_dir() || (p.extension().is_some_and(|x| x == "rs") && !matches!(stem.as_str(), "main" | "lib")) {
            out.insert(stem);
        }
    }
    out
}

/// Code without comments (line comments and doc comments; links in docs
/// are not dependencies).
fn code_of(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The top-level modules `code` (a file of module `own`, `depth` levels
/// below the crate root: 1 for `src/x.rs`) names through `crate::` or
/// `super::`, including `use crate::{a, b::c}` groups.
fn referenced(code: &str, depth: usize, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut prefixes = vec!["crate::".to_string()];
    // `super::` from a file `depth` levels down reaches the root after depth-1 hops past its own module
    if depth >= 1 {
        prefixes.push(format!("{}", "super::".repeat(depth)));
    }
    for prefix in &prefixes {
        let mut rest = code;
        while let Some(at) = rest.find(prefix.as_str()) {
            // not part of a longer path (`a::super::` never occurs; `crate::` may follow `$`)
            rest = &rest[at + prefix.len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                let end = matching_brace(group);
                top_names(&group[..end])
            } else {
                vec![ident(rest)]
            };
            out.extend(names.into_iter().filter(|n| modules.contains(*n)).map(str::to_string));
        }
    }
    out
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The index of the `}` closing a group that starts just after a `{`.
fn matching_brace(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

/// The first segment of every path in a `use` group (`a, b::{c, d}, e::f`).
fn top_names(group: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut depth = 0;
    let mut start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && depth == 0 && (c.is_ascii_alphanumeric() || c == '_') => {
                out.push(ident(&group[i..]));
                start = false;
            }
            _ => {}
        }
    }
    out
}

/// module -> the modules it uses, for one crate.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = top_modules(src);
    let mut graph: BTreeMap<String, BTreeSet<String>> = modules.iter().map(|m| (m.clone(), BTreeSet::new())).collect();
    let mut files = vec![];
    rust_files(src, &mut files);
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let own = parts[0].trim_end_matches(".rs").to_string();
        if !modules.contains(&own) {
            continue; // the crate root
        }
        // src/x.rs and src/x/mod.rs are depth 1; src/x/y.rs depth 2 ...
        let depth = if parts.last().is_some_and(|l| l == "mod.rs") { parts.len() - 1 } else { parts.len() };
        let code = code_of(&std::fs::read_to_string(&f).unwrap());
        for m in referenced(&code, depth, &modules) {
            if m != own {
                graph.get_mut(&own).unwrap().insert(m);
            }
        }
    }
    graph
}

/// A cycle in `graph`, as the modules along it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(n: &str, g: &BTreeMap<String, BTreeSet<String>>, state: &mut BTreeMap<String, u8>, path: &mut Vec<String>) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in &g[n] {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = path.iter().position(|p| p == m).unwrap();
                    let mut cycle = path[at..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, g, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut state, &mut vec![]) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_module_cycles_inside_a_crate() {
    let mut edges = 0;
    for src in CRATE_SOURCES {
        let graph = module_graph(&Path::new(ROOT).join(src));
        edges += graph.values().map(BTreeSet::len).sum::<usize>();
        if let Some(cycle) = find_cycle(&graph) {
            panic!("{src}: module cycle {}", cycle.join(" -> "));
        }
    }
    assert!(edges > 50, "found only {edges} module dependencies: is the scan reading the code?");
}

#[test]
fn the_cycle_check_sees_a_cycle_and_use_groups() {
    let modules: BTreeSet<String> = ["monitor", "scoreboard", "engine", "pins"].map(String::from).into();
    let code = "use crate::{monitor::Monitor, pins::{A, B}};\nfn f() { super::engine::run(); }\n// crate::scoreboard in a comment";
    assert_eq!(referenced(&code_of(code), 1, &modules), ["engine", "monitor", "pins"].map(String::from).into());
    let mut g: BTreeMap<String, BTreeSet<String>> = modules.iter().map(|m| (m.clone(), BTreeSet::new())).collect();
    g.get_mut("monitor").unwrap().insert("scoreboard".into());
    g.get_mut("scoreboard").unwrap().insert("engine".into());
    assert_eq!(find_cycle(&g), None);
    g.get_mut("engine").unwrap().insert("monitor".into());
    assert_eq!(find_cycle(&g).unwrap(), ["engine", "monitor", "scoreboard", "engine"].map(String::from));
}
