//! Line lexer (scripts.md "Lexical rules"): one statement per line, `#` and
//! `//` comments, punctuation tokens and "words" (everything else up to a
//! blank or punctuation). Columns are 1-based character positions.

/// What a token is. Words carry their text; the parser decides what a word
/// means where it stands (keyword, number, name, dotted op).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Word,
    LParen,
    RParen,
    LBrack,
    RBrack,
    LBrace,
    RBrace,
    Comma,
    Eq,
    Semi,
    At,
    Bang,
    Plus,
}

impl Tok {
    /// How the token is written, for messages.
    pub fn spelling(self) -> &'static str {
        match self {
            Tok::Word => "a word",
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::LBrack => "`[`",
            Tok::RBrack => "`]`",
            Tok::LBrace => "`{`",
            Tok::RBrace => "`}`",
            Tok::Comma => "`,`",
            Tok::Eq => "`=`",
            Tok::Semi => "`;`",
            Tok::At => "`@`",
            Tok::Bang => "`!`",
            Tok::Plus => "`+`",
        }
    }
}

/// One token of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub text: String,
    /// 1-based column of the first character
    pub col: usize,
}

fn punct(c: char) -> Option<Tok> {
    Some(match c {
        '(' => Tok::LParen,
        ')' => Tok::RParen,
        '[' => Tok::LBrack,
        ']' => Tok::RBrack,
        '{' => Tok::LBrace,
        '}' => Tok::RBrace,
        ',' => Tok::Comma,
        '=' => Tok::Eq,
        ';' => Tok::Semi,
        '@' => Tok::At,
        '!' => Tok::Bang,
        '+' => Tok::Plus,
        _ => return None,
    })
}

/// True when a `+` right after `word` continues a decimal exponent
/// (`6.1e+5`), not an address sum (`0x1000+4`).
fn plus_continues_exponent(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    let body = lower.strip_prefix('-').unwrap_or(&lower);
    lower.ends_with('e')
        && !body.starts_with("0x")
        && !body.starts_with("0b")
        && body.chars().next().is_some_and(|c| c.is_ascii_digit() || c == '.')
        && body[..body.len() - 1].chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// Splits one line into tokens, dropping the comment. Returns the tokens and
/// the column just past the last non-blank character before the comment (where
/// "missing operand" errors point).
pub fn lex_line(line: &str) -> (Vec<Token>, usize) {
    let chars: Vec<char> = line.chars().collect();
    // cut the comment: `#` or `//` anywhere (the language has no strings)
    let mut end = chars.len();
    for i in 0..chars.len() {
        if chars[i] == '#' || (chars[i] == '/' && chars.get(i + 1) == Some(&'/')) {
            end = i;
            break;
        }
    }
    let chars = &chars[..end];
    let mut toks = Vec::new();
    let mut i = 0;
    let mut last_end = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if let Some(kind) = punct(c) {
            toks.push(Token { kind, text: c.to_string(), col: i + 1 });
            i += 1;
            last_end = i;
            continue;
        }
        let start = i;
        let mut word = String::new();
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                break;
            }
            if c == '+' && plus_continues_exponent(&word) {
                word.push(c);
                i += 1;
                continue;
            }
            if punct(c).is_some() {
                break;
            }
            word.push(c);
            i += 1;
        }
        toks.push(Token { kind: Tok::Word, text: word, col: start + 1 });
        last_end = i;
    }
    (toks, last_end + 1)
}

/// The dot-separated parts of a word with their columns: `DWORD_ATOMIC.add.16`
/// at column 5 gives `DWORD_ATOMIC`@5, `add`@18, `16`@22. A `::` inside a part
/// stays in it (`shared::cta`, `L2::cache_hint`).
pub fn dotted_parts(word: &str, col: usize) -> Vec<(String, usize)> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut cur_col = col;
    for (i, c) in word.chars().enumerate() {
        if c == '.' {
            parts.push((std::mem::take(&mut cur), cur_col));
            cur_col = col + i + 1;
        } else {
            cur.push(c);
        }
    }
    parts.push((cur, cur_col));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(Tok, String, usize)> {
        lex_line(line).0.into_iter().map(|t| (t.kind, t.text, t.col)).collect()
    }

    #[test]
    fn words_punctuation_and_columns() {
        let t = kinds("(!p) SVM_ATOMIC.add (M2_NM, 8) [1,2] # comment");
        let texts: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(texts, ["(", "!", "p", ")", "SVM_ATOMIC.add", "(", "M2_NM", ",", "8", ")", "[", "1", ",", "2", "]"]);
        assert_eq!(t[4].2, 6);
        assert_eq!(t[6].2, 22);
        assert_eq!(lex_line("dmask 0b11   // x").1, 11);
    }

    #[test]
    fn plus_splits_sums_but_not_exponents() {
        let t = kinds("[0x1e+4] 6.1e+5 -2E+3 abe+1");
        let texts: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(texts, ["[", "0x1e", "+", "4", "]", "6.1e+5", "-2E+3", "abe", "+", "1"]);
    }

    #[test]
    fn dotted_parts_carry_columns() {
        let p = dotted_parts("atom.shared::cta.L2::cache_hint.u32", 3);
        assert_eq!(p, [("atom".into(), 3), ("shared::cta".into(), 8), ("L2::cache_hint".into(), 20), ("u32".into(), 35)]);
    }
}
