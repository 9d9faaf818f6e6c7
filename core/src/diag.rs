//! Diagnostics: `FILE:LINE:COL: error: <what and why>` (scripts.md), exit 2.

use std::fmt;

/// A user-facing error in an input file. Lines and columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl Diag {
    pub fn new(file: impl Into<String>, line: usize, col: usize, msg: impl Into<String>) -> Diag {
        Diag { file: file.into(), line, col, msg: msg.into() }
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.col, self.msg)
    }
}

impl std::error::Error for Diag {}

/// Exit status for rejected input.
pub const EXIT_BAD_INPUT: i32 = 2;

/// The byte range of the character at a diagnostic's line and column in
/// `source` (empty at the end of a line; None when the line does not exist).
fn char_range(source: &str, line: usize, col: usize) -> Option<std::ops::Range<usize>> {
    let mut start = 0;
    for (i, l) in source.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let body = l.strip_suffix('\n').unwrap_or(l);
            let body = body.strip_suffix('\r').unwrap_or(body);
            let mut chars = body.char_indices().skip(col.saturating_sub(1));
            return Some(match chars.next() {
                Some((off, c)) => start + off..start + off + c.len_utf8(),
                None => start + body.len()..start + body.len(),
            });
        }
        start += l.len();
    }
    None
}

/// The diagnostics as text: each `FILE:LINE:COL: error: ...` line, and with
/// `carets` the source line under it with a caret at the column
/// (codespan-reporting's snippet, without its own header line).
pub fn render(diags: &[Diag], source: Option<&str>, carets: bool) -> String {
    use codespan_reporting::diagnostic::{Diagnostic, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term;
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.to_string());
        out.push('\n');
        let Some(src) = source.filter(|_| carets) else { continue };
        let Some(range) = char_range(src, d.line, d.col) else { continue };
        let file = SimpleFile::new(d.file.as_str(), src);
        let snippet = Diagnostic::error().with_message(&d.msg).with_labels(vec![Label::primary((), range)]);
        let mut text = String::new();
        if term::emit_to_string(&mut text, &term::Config::default(), &file, &snippet).is_ok() {
            // drop codespan's `error: ...` header: our line above says it
            if let Some((_, rest)) = text.split_once('\n') {
                out.push_str(rest);
            }
        }
    }
    out
}

/// Prints diagnostics on stderr: with caret lines when stderr is a
/// terminal and the source is known, plain lines otherwise.
pub fn emit(diags: &[Diag], source: Option<&str>) {
    use std::io::IsTerminal;
    eprint!("{}", render(diags, source, std::io::stderr().is_terminal()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_without_carets() {
        let d = [Diag::new("t.atom", 2, 5, "bad"), Diag::new("t.atom", 3, 1, "worse")];
        assert_eq!(render(&d, Some("a\nmem.x 1\nq\n"), false), "t.atom:2:5: error: bad\nt.atom:3:1: error: worse\n");
    }

    #[test]
    fn carets_point_at_the_column() {
        let src = "mem.u32 0 = 1\nmem.u33 0 = 1\n";
        let text = render(&[Diag::new("t.atom", 2, 5, "unknown element type `u33`")], Some(src), true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "t.atom:2:5: error: unknown element type `u33`");
        assert!(!text.contains("\nerror"), "{text}");
        let src_line = lines.iter().position(|l| l.ends_with("mem.u33 0 = 1")).expect(&text);
        let caret = lines[src_line + 1];
        let code_at = lines[src_line].find("mem.u33").unwrap();
        assert_eq!(caret.find('^'), Some(code_at + 4), "{text}");
        // a column past the end of the line and a line past the end do not panic
        render(&[Diag::new("t", 1, 99, "x"), Diag::new("t", 9, 1, "y")], Some(src), true);
    }

    #[test]
    fn char_ranges_count_characters_not_bytes() {
        assert_eq!(char_range("é€x\n", 1, 3), Some(5..6));
        assert_eq!(char_range("ab\r\ncd", 1, 3), Some(2..2));
        assert_eq!(char_range("ab\ncd", 2, 2), Some(4..5));
        assert_eq!(char_range("ab", 3, 1), None);
    }
}
