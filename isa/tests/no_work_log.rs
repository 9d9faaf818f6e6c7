//! Code and docs describe what is, not how it came to be: no issue numbers,
//! dates, session counts or narrated changes under the source and doc
//! folders (the equivalent of `git grep -niE` for an issue number, plus the
//! work-log patterns below). History lives in git. Fails with every
//! `file:line`. This file spells its samples in pieces and skips itself, so
//! that it holds no such entry either.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository (this test sits in the `isa` crate, the lightest to build).
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The folders checked.
const FOLDERS: [&str; 8] = ["hdl", "sim", "testbench", "tools", "core", "isa", "src", "docs"];

/// Words that make "<word> session" a session count or a session narrative.
const SESSION_WORDS: [&str; 30] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
    "eighteenth", "nineteenth", "twentieth", "thirtieth", "this", "previous", "next", "last", "same",
    "earlier", "later", "filing", "morning",
];

/// Phrases that narrate a change instead of describing the result.
const PHRASES: [&str; 3] = [concat!("as they ", "always have"), concat!("its first ", "form"), concat!("as ", "before")];

fn digit_at(b: &[u8], i: usize) -> bool {
    b.get(i).is_some_and(u8::is_ascii_digit)
}

fn word_boundary(b: &[u8], i: usize) -> bool {
    i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// Why `line` reads as a work-log entry, if it does.
fn work_log(line: &str) -> Option<&'static str> {
    let l = line.to_ascii_lowercase();
    let b = l.as_bytes();
    for (i, _) in l.match_indices("issue") {
        // the word, then a space, a dash, a `#` or nothing, then a digit
        let mut j = i + 5;
        if matches!(b.get(j), Some(b' ' | b'-')) {
            j += 1;
        }
        if b.get(j) == Some(&b'#') {
            j += 1;
        }
        if word_boundary(b, i) && digit_at(b, j) {
            return Some("an issue number");
        }
    }
    for i in 0..b.len() {
        // a date: 19xx-MM or 20xx-MM (with or without the day)
        if word_boundary(b, i)
            && (b[i..].starts_with(b"19") || b[i..].starts_with(b"20"))
            && digit_at(b, i + 2)
            && digit_at(b, i + 3)
            && b.get(i + 4) == Some(&b'-')
            && matches!(b.get(i + 5), Some(b'0' | b'1'))
            && digit_at(b, i + 6)
            && !digit_at(b, i + 7)
        {
            return Some("a date");
        }
        // a time of day in UTC: HH:MM, or a range of two, then UTC
        if digit_at(b, i) && digit_at(b, i + 1) && b.get(i + 2) == Some(&b':') && digit_at(b, i + 3) && digit_at(b, i + 4) {
            let rest = b[i + 5..].iter().position(|c| !matches!(c, b'-' | b' ' | b':' | b'0'..=b'9')).map_or(&b""[..], |k| &b[i + 5 + k..]);
            if rest.starts_with(b"utc") {
                return Some("a time of day");
            }
        }
    }
    for (i, _) in l.match_indices(" session") {
        let before = l[..i].trim_end();
        let word = before.rsplit(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
        let ordinal = word.len() > 2
            && word[..word.len() - 2].bytes().all(|c| c.is_ascii_digit())
            && ["st", "nd", "rd", "th"].contains(&&word[word.len() - 2..]);
        if SESSION_WORDS.contains(&word) || ordinal {
            return Some("a session count");
        }
        if l[i + 8..].trim_start().starts_with(|c: char| c.is_ascii_digit()) {
            return Some("a session count");
        }
    }
    PHRASES.iter().find(|p| l.contains(*p)).map(|_| "a change narrated")
}

/// The checked folders' files as git tracks them (what `git grep` reads);
/// without git (a source tarball), every file under them but `target/`.
fn files() -> Vec<PathBuf> {
    let git = Command::new("git").arg("-C").arg(ROOT).args(["ls-files", "-z", "--"]).args(FOLDERS).output();
    if let Ok(out) = git {
        if out.status.success() && !out.stdout.is_empty() {
            return out.stdout.split(|&c| c == 0).filter(|p| !p.is_empty()).map(|p| Path::new(ROOT).join(String::from_utf8_lossy(p).as_ref())).collect();
        }
    }
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "target") {
                    walk(&p, out);
                }
            } else {
                out.push(p);
            }
        }
    }
    let mut out = vec![];
    for f in FOLDERS {
        walk(&Path::new(ROOT).join(f), &mut out);
    }
    out
}

/// Every `file:line: why: text` of the work-log entries in `files`.
fn findings(files: &[PathBuf]) -> Vec<String> {
    let mut found = vec![];
    for f in files {
        // binary files (waveforms, images) and unreadable ones are not prose
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        if f.ends_with(file!()) {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            if let Some(why) = work_log(line) {
                let rel = f.strip_prefix(ROOT).unwrap_or(f).display().to_string();
                found.push(format!("{rel}:{}: {why}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn code_and_docs_carry_no_work_log() {
    let files = files();
    assert!(files.len() > 100, "found only {} files under {FOLDERS:?}", files.len());
    let found = findings(&files);
    assert!(
        found.is_empty(),
        "work-log entries in code or docs (describe what is; history lives in git):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_patterns_see_a_work_log_and_pass_a_reference() {
    let dated = ["measured ", "20", "26-11-27 on main"].concat();
    let timed = ["the table run, 09:59-10:24 ", "UTC"].concat();
    let issue = ["// is", "sue 12: the decoder"].concat();
    let issue_hash = ["See Is", "sue #48."].concat();
    let issue_dash = ["(is", "sue-9)"].concat();
    let until = ["(Until 20", "26-11 the push was made in the write's cycle)"].concat();
    for line in [
        issue.as_str(),
        issue_hash.as_str(),
        issue_dash.as_str(),
        dated.as_str(),
        timed.as_str(),
        until.as_str(),
        concat!("The eleventh ", "session rebuilt it"),
        concat!("(12th ", "session)"),
        concat!("in this ", "session's RTL"),
        concat!("the keys print sorted, as they ", "always have"),
        concat!("two OR prefixes, its first ", "form"),
        concat!("same cycle counts as ", "before"),
    ] {
        assert!(work_log(line).is_some(), "not flagged: {line}");
    }
    for line in [
        "the issue stage reads two payload buffers",
        "issue cycles per message: 1 per lane",
        "Session::new(unit, &opts, None)",
        "lockstep sessions, random generator",
        "the harness adds 2,033 flip-flops (1,097 scan)",
        "edition = \"2021\"",
        "a 2048-entry table; 1920-bit bus",
        "x2_new_cond",
        "wait until 20 cycles have passed",
        "0x2026_1127 is a 32-bit constant",
    ] {
        assert_eq!(work_log(line), None, "flagged: {line}");
    }
}
