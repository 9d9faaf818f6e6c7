//! The tree's structure rules (README "Layout"): no two Rust
//! files share a stem (besides `main`, `lib`, `mod`, `build`), and inside
//! every crate the top-level modules (and the CLI's commands) depend on each
//! other without cycles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod source_tree;
use source_tree::{code_of, rust_files};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

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

/// Files of `dir` (recursively) longer than `max` lines, with their lengths.
fn files_longer_than(dir: &Path, max: usize) -> Vec<(String, usize)> {
    let mut files = vec![];
    rust_files(dir, &mut files);
    let mut long: Vec<(String, usize)> = files
        .iter()
        .map(|f| (f.strip_prefix(ROOT).unwrap_or(f).display().to_string(), std::fs::read_to_string(f).unwrap().lines().count()))
        .filter(|(_, n)| *n > max)
        .collect();
    long.sort();
    long
}

/// The RTL is read block by block and stage by stage: no file of it is a
/// wall of code (tests of a block go in a file of their own beside it).
#[test]
fn no_rtl_source_file_is_over_1000_lines() {
    let long = files_longer_than(&Path::new(ROOT).join("hdl/src"), 1000);
    assert!(long.is_empty(), "hdl/src files over 1,000 lines (split them by stage or block): {long:?}");
}

#[test]
fn the_length_check_sees_a_long_file() {
    // this crate's test folder holds files of a few hundred lines
    assert!(!files_longer_than(&Path::new(ROOT).join("tests"), 100).is_empty());
    assert!(files_longer_than(&Path::new(ROOT).join("tests"), 1_000_000).is_empty());
}

/// One module scope whose child modules must not form a cycle: a crate
/// root (`lib.rs`/`main.rs`; its children are the crate's top-level
/// modules), or `src/cli/mod.rs`, the binary's only top-level module, whose
/// children are the commands.
struct Scope {
    /// The file declaring the child modules (`mod x;`).
    root_file: &'static str,
    /// How code names a child from anywhere in the crate.
    path_prefix: &'static str,
}

/// Every crate of the workspace, and the CLI's commands.
const SCOPES: &[Scope] = &[
    Scope { root_file: "src/main.rs", path_prefix: "crate::" },
    Scope { root_file: "src/cli/mod.rs", path_prefix: "crate::cli::" },
    Scope { root_file: "isa/src/lib.rs", path_prefix: "crate::" },
    Scope { root_file: "core/src/lib.rs", path_prefix: "crate::" },
    Scope { root_file: "hdl/src/lib.rs", path_prefix: "crate::" },
    Scope { root_file: "sim/src/lib.rs", path_prefix: "crate::" },
    Scope { root_file: "testbench/src/lib.rs", path_prefix: "crate::" },
    Scope { root_file: "tools/wave/src/lib.rs", path_prefix: "crate::" },
    Scope { root_file: "tools/wavecheck/src/lib.rs", path_prefix: "crate::" },
    Scope { root_file: "tools/synth/src/lib.rs", path_prefix: "crate::" },
    Scope { root_file: "tools/mutate/src/lib.rs", path_prefix: "crate::" },
];

/// The child modules `root` declares with a file of their own (`mod x;`,
/// any visibility or attribute before it; inline `mod x { .. }` blocks live
/// in the root file, which is not scanned).
fn declared_modules(root: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in code_of(root).lines() {
        let mut l = line.trim();
        while l.starts_with("#[") {
            l = l[l.find(']').map_or(l.len(), |i| i + 1)..].trim_start();
        }
        for vis in ["pub(crate)", "pub(super)", "pub"] {
            l = l.strip_prefix(vis).filter(|r| r.starts_with(char::is_whitespace)).map_or(l, str::trim_start);
        }
        if let Some(rest) = l.strip_prefix("mod ") {
            let name = ident(rest.trim_start());
            if !name.is_empty() && rest.trim_start()[name.len()..].trim_start().starts_with(';') {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// The first segments of the path(s) at the start of `rest`: one name, or
/// every name of a `{a, b::c}` group.
fn heads(rest: &str) -> Vec<&str> {
    if let Some(group) = rest.strip_prefix('{') {
        let end = matching_brace(group);
        top_names(&group[..end])
    } else {
        vec![ident(rest)]
    }
}

/// The child modules of a scope that `code` (a file `depth` module levels
/// below the scope's root: 1 for `src/x.rs` and `src/x/mod.rs`, 2 for
/// `src/x/y.rs`) names through `path_prefix` (`crate::`) or through a run
/// of `super::` climbing at least `depth` levels (more when the use sits in
/// an inline `mod tests` block), including `use crate::{a, b::c}` groups.
fn referenced(code: &str, depth: usize, path_prefix: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let keep = |names: Vec<&str>, out: &mut BTreeSet<String>| {
        out.extend(names.into_iter().filter(|n| modules.contains(*n)).map(str::to_string));
    };
    let mut rest = code;
    while let Some(at) = rest.find(path_prefix) {
        rest = &rest[at + path_prefix.len()..];
        keep(heads(rest), &mut out);
    }
    let mut rest = code;
    while let Some(at) = rest.find("super::") {
        rest = &rest[at..];
        let mut hops = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            hops += 1;
        }
        if hops >= depth {
            keep(heads(rest), &mut out);
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

/// module -> the modules it uses, for one scope.
fn module_graph(scope: &Scope) -> BTreeMap<String, BTreeSet<String>> {
    let root_file = Path::new(ROOT).join(scope.root_file);
    let dir = root_file.parent().unwrap();
    let modules = declared_modules(&std::fs::read_to_string(&root_file).unwrap());
    let mut graph: BTreeMap<String, BTreeSet<String>> = modules.iter().map(|m| (m.clone(), BTreeSet::new())).collect();
    for own in &modules {
        let mut files = vec![];
        let single = dir.join(format!("{own}.rs"));
        if single.is_file() {
            files.push(single);
        }
        rust_files(&dir.join(own), &mut files);
        assert!(!files.is_empty(), "{}: no file for `mod {own};`", scope.root_file);
        for f in files {
            let rel = f.strip_prefix(dir).unwrap();
            let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            // x.rs and x/mod.rs are depth 1; x/y.rs depth 2 ...
            let depth = if parts.last().is_some_and(|l| l == "mod.rs") { parts.len() - 1 } else { parts.len() };
            let code = code_of(&std::fs::read_to_string(&f).unwrap());
            for m in referenced(&code, depth, scope.path_prefix, &modules) {
                if &m != own {
                    graph.get_mut(own).unwrap().insert(m);
                }
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

/// Fails naming the cycle when the scope's child modules form one.
fn assert_no_cycle(root_file: &str) {
    let scope = SCOPES.iter().find(|s| s.root_file == root_file).expect("a scope of SCOPES");
    let graph = module_graph(scope);
    // every `x.rs` beside the root is a module the scan found (a misread `mod` line fails here)
    let dir = Path::new(ROOT).join(root_file);
    for e in std::fs::read_dir(dir.parent().unwrap()).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".rs").filter(|s| !matches!(*s, "lib" | "main" | "mod")) {
            assert!(graph.contains_key(stem), "{root_file}: {name} is not among the modules found: {:?}", graph.keys());
        }
    }
    if let Some(cycle) = find_cycle(&graph) {
        panic!("{root_file}: module cycle {}", cycle.join(" -> "));
    }
}

/// One test per crate (and one for the CLI's commands), so a cycle in one
/// crate does not hide another's.
macro_rules! no_cycles {
    ($($test:ident: $root:literal,)*) => {
        $(
            #[test]
            fn $test() {
                assert_no_cycle($root);
            }
        )*
        #[test]
        fn every_scope_has_its_cycle_test() {
            let tested = [$($root),*];
            assert_eq!(tested.len(), SCOPES.len());
            for s in SCOPES {
                assert!(tested.contains(&s.root_file), "{}: no cycle test", s.root_file);
            }
        }
    };
}

no_cycles! {
    no_module_cycles_in_atomport: "src/main.rs",
    no_module_cycles_in_atomport_cli: "src/cli/mod.rs",
    no_module_cycles_in_isa: "isa/src/lib.rs",
    no_module_cycles_in_core: "core/src/lib.rs",
    no_module_cycles_in_hdl: "hdl/src/lib.rs",
    no_module_cycles_in_sim: "sim/src/lib.rs",
    no_module_cycles_in_testbench: "testbench/src/lib.rs",
    no_module_cycles_in_wave: "tools/wave/src/lib.rs",
    no_module_cycles_in_wavecheck: "tools/wavecheck/src/lib.rs",
    no_module_cycles_in_synth: "tools/synth/src/lib.rs",
    no_module_cycles_in_mutate: "tools/mutate/src/lib.rs",
}

/// Every workspace member's crate root is a scope: a new crate cannot
/// escape the check.
#[test]
fn every_workspace_crate_is_checked() {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let members = manifest.split("members = [").nth(1).and_then(|r| r.split(']').next()).expect("workspace members");
    let members: Vec<&str> = members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()).collect();
    assert!(members.len() >= 8, "members: {members:?}");
    for m in members {
        let src = if m == "." { "src".to_string() } else { format!("{m}/src") };
        assert!(
            SCOPES.iter().any(|s| s.root_file == format!("{src}/lib.rs") || s.root_file == format!("{src}/main.rs")),
            "workspace member {m} has no entry in SCOPES"
        );
    }
}

/// The scan reads the code: the workspace has many module dependencies.
#[test]
fn the_cycle_scan_sees_the_dependencies() {
    let edges: usize = SCOPES.iter().map(|s| module_graph(s).values().map(BTreeSet::len).sum::<usize>()).sum();
    assert!(edges > 50, "found only {edges} module dependencies: is the scan reading the code?");
}

#[test]
fn the_cycle_check_sees_a_cycle_and_use_groups() {
    let modules: BTreeSet<String> = ["monitor", "scoreboard", "engine", "pins", "driver"].map(String::from).into();
    let code = "use crate::{monitor::Monitor, pins::{A, B}};\nfn f() { super::engine::run(); }\n// crate::scoreboard in a comment";
    assert_eq!(referenced(&code_of(code), 1, "crate::", &modules), ["engine", "monitor", "pins"].map(String::from).into());
    // two levels down: `super::` is a sibling inside the own module, `super::super::` a top-level module,
    // also from an inline test module (three hops)
    let nested = "use super::driver::D;\nuse super::super::pins::P;\nmod tests { use super::super::super::engine::E; }";
    assert_eq!(referenced(&code_of(nested), 2, "crate::", &modules), ["engine", "pins"].map(String::from).into());
    // the CLI's commands are named through `crate::cli::`
    assert_eq!(referenced("crate::cli::monitor::f(); crate::driver::g();", 1, "crate::cli::", &modules), ["monitor"].map(String::from).into());
    assert_eq!(declared_modules("pub mod monitor;\n#[cfg(test)]\nmod engine;\nmod tests {\n}\npub(crate)  mod pins ; // x\npub mod_x;\n"), ["engine", "monitor", "pins"].map(String::from).into());
    let mut g: BTreeMap<String, BTreeSet<String>> = modules.iter().map(|m| (m.clone(), BTreeSet::new())).collect();
    g.get_mut("monitor").unwrap().insert("scoreboard".into());
    g.get_mut("scoreboard").unwrap().insert("engine".into());
    assert_eq!(find_cycle(&g), None);
    g.get_mut("engine").unwrap().insert("monitor".into());
    assert_eq!(find_cycle(&g).unwrap(), ["engine", "monitor", "scoreboard", "engine"].map(String::from));
}
