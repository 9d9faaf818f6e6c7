//! Every dependency a `Cargo.toml` lists is used: each
//! `[dependencies]`, `[dev-dependencies]` and `[build-dependencies]` entry of
//! every workspace member (and of `fuzz/`) is named somewhere in that
//! crate's code, and no dev-dependency repeats a dependency (tests see the
//! dependencies already).

use std::collections::BTreeSet;
use std::path::Path;

mod source_tree;
use source_tree::{code_of, rust_files};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The workspace's members, from the root manifest.
fn workspace_members() -> Vec<String> {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let line = manifest.lines().find(|l| l.starts_with("members")).expect("members = [...]");
    line.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

/// A manifest's dependencies: (section, name as Rust code spells it).
fn dependencies(manifest: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    let mut section = String::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').to_string();
        } else if section.ends_with("dependencies") && !section.starts_with("workspace") {
            let key = line.split(['=', '.']).next().unwrap_or("").trim();
            if !key.is_empty() && !key.starts_with('#') {
                out.push((section.clone(), key.replace('-', "_")));
            }
        }
    }
    out
}

/// Whether `name` occurs as a whole word in `code`.
fn names(code: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(name).any(|(at, _)| {
        !code[..at].chars().next_back().is_some_and(word) && !code[at + name.len()..].chars().next().is_some_and(word)
    })
}

/// What is wrong with the dependencies of the manifest in `dir`, whose code
/// is in `code_dirs` (folders or files, relative to `dir`).
fn unused_dependencies(dir: &Path, code_dirs: &[&str]) -> Vec<String> {
    let deps = dependencies(&std::fs::read_to_string(dir.join("Cargo.toml")).unwrap());
    let mut files = vec![];
    for d in code_dirs {
        let p = dir.join(d);
        if p.is_file() {
            files.push(p)
        } else {
            rust_files(&p, &mut files)
        }
    }
    // this file names dependencies in its own tests
    files.retain(|f| !f.ends_with("tests/manifests.rs"));
    let code: String = files.iter().map(|f| code_of(&std::fs::read_to_string(f).unwrap())).collect::<Vec<_>>().join("\n");
    let normal: BTreeSet<&str> = deps.iter().filter(|(s, _)| s == "dependencies").map(|(_, n)| n.as_str()).collect();
    let at = dir.strip_prefix(ROOT).unwrap_or(dir).join("Cargo.toml").display().to_string();
    let mut out = vec![];
    for (section, name) in &deps {
        if !names(&code, name) {
            out.push(format!("{at}: [{section}] {name} is not used"));
        } else if section == "dev-dependencies" && normal.contains(name.as_str()) {
            out.push(format!("{at}: [dev-dependencies] {name} is already a dependency"));
        }
    }
    out
}

#[test]
fn every_dependency_is_used() {
    let root = Path::new(ROOT);
    let mut found = 0;
    let mut unused = unused_dependencies(root, &["src", "tests"]);
    for m in workspace_members().iter().filter(|m| *m != ".") {
        found += dependencies(&std::fs::read_to_string(root.join(m).join("Cargo.toml")).unwrap()).len();
        unused.extend(unused_dependencies(&root.join(m), &["src", "tests", "benches", "examples", "build.rs"]));
    }
    unused.extend(unused_dependencies(&root.join("fuzz"), &["src", "fuzz_targets"]));
    assert!(found > 10, "found only {found} dependencies in the members' manifests: is the parser reading them?");
    assert!(unused.is_empty(), "unused dependencies (remove them): {unused:#?}");
}

#[test]
fn the_dependency_check_sees_an_unused_one() {
    let deps = dependencies(
        "[package]\nname = \"x\"\n[dependencies]\nrand = \"0.8\"\natomport-isa.workspace = true\n# a comment\n\
         [dev-dependencies]\nrand_chacha = \"0.3\"\n[profile.dev]\nopt-level = 1\n",
    );
    let want = [("dependencies", "rand"), ("dependencies", "atomport_isa"), ("dev-dependencies", "rand_chacha")];
    assert_eq!(deps, want.map(|(s, n)| (s.to_string(), n.to_string())));
    assert!(names("use rand::Rng;", "rand"));
    assert!(!names("use rand_chacha::X;", "rand") && !names("my_rand::x", "rand"));
    assert!(!names(&code_of("// rand::Rng in a comment"), "rand"));
}
