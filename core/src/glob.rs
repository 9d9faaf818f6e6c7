//! The `*`/`?` patterns of the command line (`regress --kinds/--ops`,
//! `wavediff --signals`, GTKWave view groups, SVG signal lists).
//!
//! Only `*` (any run, empty included) and `?` (one character) are special:
//! `[`, `]`, `{` and `}` match themselves, because signal names carry bit
//! ranges (`data[3]`) and saved views and scripts use them as written. That is
//! why this is not `globset`, whose classes and alternations would change
//! what an existing pattern matches. Linear-time backtracking on the last
//! `*`, so no pattern is exponential.

/// Whether `pattern` matches the whole of `text`, character by character.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    matches_with(pattern, text, |p, t| p == t)
}

/// [`glob_match`] with ASCII letters compared without case (message kinds
/// and op names: `svm_*` matches `SVM_ATOMIC`).
pub fn glob_match_ignore_case(pattern: &str, text: &str) -> bool {
    matches_with(pattern, text, |p, t| p.eq_ignore_ascii_case(&t))
}

fn matches_with(pattern: &str, text: &str, same: impl Fn(char, char) -> bool) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    // the last `*` seen and the text position it is tried at
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && (p[pi] == '?' || same(p[pi], t[ti])) {
            pi += 1;
            ti += 1;
        } else if let Some((s, mark)) = star {
            // let that `*` take one more character
            star = Some((s, mark + 1));
            pi = s + 1;
            ti = mark + 1;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod glob_tests {
    use super::*;

    #[test]
    fn star_and_question_mark() {
        assert!(glob_match("mem_*", "mem_rd_valid"));
        assert!(glob_match("*valid", "mem_rd_valid"));
        assert!(glob_match("m?m_*_valid", "mem_rd_valid"));
        assert!(!glob_match("mem_*", "rsp_valid"));
        assert!(glob_match("*", "a.b"));
        assert!(glob_match("*", ""));
        assert!(!glob_match("?", ""));
        assert!(!glob_match("a", "ab"));
        assert!(!glob_match("ab", "a"));
        assert!(glob_match("a*b*c", "axxbyyc"));
        assert!(!glob_match("a*b*c", "axxbyy"));
        assert!(glob_match("*a*a", "baaa"));
    }

    #[test]
    fn brackets_and_braces_are_literal() {
        assert!(glob_match("data[3]", "data[3]"));
        assert!(!glob_match("data[3]", "data3"));
        assert!(glob_match("x{a,b}", "x{a,b}"));
        assert!(!glob_match("x{a,b}", "xa"));
    }

    #[test]
    fn case_is_compared_only_when_asked() {
        assert!(!glob_match("svm_*", "SVM_ATOMIC"));
        assert!(glob_match_ignore_case("svm_*", "SVM_ATOMIC"));
        assert!(glob_match_ignore_case("c?pXCHG", "CMPXCHG"));
    }

    #[test]
    fn many_stars_stay_fast() {
        let text = "a".repeat(2000);
        let pattern = format!("{}b", "*a".repeat(40));
        let t = std::time::Instant::now();
        assert!(!glob_match(&pattern, &text));
        assert!(t.elapsed().as_secs() < 2, "took {:?}", t.elapsed());
    }
}
