//! The script parser (scripts.md; the full grammar and every decision is in
//! docs/script-language.md): text -> [`Program`] of validated [`Message`]s.
//!
//! Every operand rule of the seeds is checked here, before anything runs; a
//! broken statement is a [`Diag`] at the offending token ([`parse`] returns
//! the first, [`parse_all`] up to [`MAX_ERRORS`] in file order).
//!
//! Two passes: the first collects the statements that are global to the
//! script (`surface`, `slm size`) wherever they stand, so a message may name
//! a surface defined further down; the second parses every line in order
//! (predicates and `dmask` are positional: a message sees the values in force
//! at its line).

mod lexer;
mod literal;
mod ptx;
#[cfg(test)]
mod script_tests;
mod visa;

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::diag::Diag;
use crate::message::{Message, PredRef};
use crate::program::{Program, Space, Stmt, Surface, TypedFormat, TypedKind, TypedSurface};
use crate::ops::ElemType;

use lexer::{dotted_parts, lex_line, Tok, Token};
pub use literal::float_bits;
use literal::{plain_uint, signed_bits, unsigned_bits};

/// Default SLM size in bytes (scripts.md `slm size`).
pub const DEFAULT_SLM_SIZE: u32 = 65536;
/// Largest `slm size` (16 MiB): engines may hold SLM as one array.
pub const MAX_SLM_SIZE: u32 = 1 << 24;
/// Largest `dump` length (16 MiB).
pub const MAX_DUMP_LEN: u64 = 1 << 24;
/// Largest `levels=` of a typed surface.
pub const MAX_LEVELS: u32 = 32;

/// At most this many errors are reported for one script (then one more
/// diagnostic says the parser stopped).
pub const MAX_ERRORS: usize = 20;

/// Parses a script. `file` names it in diagnostics only. The error is the
/// first one of the script ([`parse_all`] reports every one).
pub fn parse(file: &str, text: &str) -> Result<Program, Diag> {
    parse_all(file, text).map_err(|mut d| d.swap_remove(0))
}

/// Parses a script and reports every independent error, one per broken
/// line, in line order, up to [`MAX_ERRORS`] (a last diagnostic then says
/// the parser stopped). An error that only follows from an earlier one (a
/// use of a predicate or surface whose own definition is broken) is not
/// repeated. A leading UTF-8 byte-order mark is skipped.
pub fn parse_all(file: &str, text: &str) -> Result<Program, Vec<Diag>> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let globals = collect_globals(&lines);
    let mut p = Parser {
        globals: &globals,
        preds: HashMap::new(),
        broken_preds: HashSet::new(),
        dmask: u32::MAX,
        stmts: Vec::new(),
        surface_lines: BTreeMap::new(),
        slm_size_line: None,
    };
    let mut diags = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let result = match invisible_char(line) {
            Some(e) => Err(e),
            None => {
                let (toks, end_col) = lex_line(line);
                p.statement(i + 1, &toks, end_col)
            }
        };
        match result {
            Err(e) if e.follows => {}
            Err(_) if diags.len() == MAX_ERRORS => {
                diags.push(Diag::new(file, i + 1, 1, format!("too many errors; stopped here (the first {MAX_ERRORS} are reported)")));
                break;
            }
            Err(e) => diags.push(Diag::new(file, i + 1, e.col, e.msg)),
            Ok(()) => {}
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let stmts = p.stmts;
    Ok(Program { file: file.to_string(), slm_size: globals.slm_size, surfaces: globals.surfaces, stmts })
}

/// Parses a script given as bytes: they must be UTF-8; the first byte that
/// is not is reported at its own line and column.
pub fn parse_bytes(file: &str, bytes: &[u8]) -> Result<Program, Vec<Diag>> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_all(file, text),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let good = std::str::from_utf8(good).expect("valid up to here");
            let line = good.matches('\n').count() + 1;
            let line_start = good.rfind('\n').map_or(0, |i| i + 1);
            let before = &good[line_start..];
            let before = if line_start == 0 { before.strip_prefix(BOM).unwrap_or(before) } else { before };
            let col = before.chars().count() + 1;
            let byte = bytes[e.valid_up_to()];
            Err(vec![Diag::new(file, line, col, format!("byte 0x{byte:02x} is not UTF-8 text (a script is UTF-8 text)"))])
        }
    }
}

/// Reads and parses a script file; an unreadable file is a Diag at 1:1.
pub fn parse_file(path: &str) -> Result<Program, Diag> {
    match std::fs::read(path) {
        Ok(bytes) => parse_bytes(path, &bytes).map_err(|mut d| d.swap_remove(0)),
        Err(e) => Err(Diag::new(path, 1, 1, format!("cannot read the script: {e}"))),
    }
}

/// The UTF-8 byte-order mark.
const BOM: char = '\u{feff}';

/// A character that cannot be seen where it stands: a control character
/// other than tab (NUL, ESC, ...), a byte-order mark past the start of the
/// file, a zero-width or bidirectional-format character. The error names
/// it by code point, at its column.
fn invisible_char(line: &str) -> Option<PErr> {
    let (i, c) = line.chars().enumerate().find(|&(_, c)| {
        (c.is_control() && c != '\t')
            || matches!(c, '\u{feff}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{00ad}')
    })?;
    let name = match c {
        '\0' => " (NUL)",
        '\u{1b}' => " (ESC)",
        '\r' => " (carriage return)",
        BOM => " (byte-order mark)",
        '\u{200b}' => " (zero-width space)",
        _ => "",
    };
    Some(PErr { col: i + 1, msg: format!("invisible character {}{name} is not allowed in a script", visible(c)), follows: false })
}

/// `U+XXXX` for a character.
fn visible(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// An error inside one line: column and message (the line is added later).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PErr {
    pub col: usize,
    pub msg: String,
    /// the error only follows from an earlier, reported one (not repeated)
    pub follows: bool,
}

pub(crate) type R<T> = Result<T, PErr>;

pub(crate) fn err<T>(col: usize, msg: impl Into<String>) -> R<T> {
    Err(PErr { col, msg: msg.into(), follows: false })
}

/// Attaches a column to a literal-conversion error.
pub(crate) fn at<T>(col: usize, r: Result<T, String>) -> R<T> {
    r.map_err(|msg| PErr { col, msg, follows: false })
}

/// A cursor over one line's tokens.
pub(crate) struct Cur<'t> {
    toks: &'t [Token],
    pos: usize,
    /// column just past the last token (for "missing ..." errors)
    end_col: usize,
}

impl<'t> Cur<'t> {
    pub fn new(toks: &'t [Token], end_col: usize) -> Cur<'t> {
        Cur { toks, pos: 0, end_col }
    }

    pub fn peek(&self) -> Option<&'t Token> {
        self.toks.get(self.pos)
    }

    pub fn peek_kind(&self) -> Option<Tok> {
        self.peek().map(|t| t.kind)
    }

    pub fn peek_is(&self, kind: Tok) -> bool {
        self.peek_kind() == Some(kind)
    }

    /// The column of the next token, or the end of the line.
    pub fn col(&self) -> usize {
        self.peek().map(|t| t.col).unwrap_or(self.end_col)
    }

    pub fn end_col(&self) -> usize {
        self.end_col
    }

    pub fn bump(&mut self) -> Option<&'t Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    pub fn eat(&mut self, kind: Tok) -> bool {
        if self.peek_is(kind) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(t) => format!("found `{}`", t.text),
            None => "found the end of the line".to_string(),
        }
    }

    /// The next token, which must be `kind`; `what` names it for the error.
    pub fn expect(&mut self, kind: Tok, what: &str) -> R<&'t Token> {
        match self.peek() {
            Some(t) if t.kind == kind => {
                self.pos += 1;
                Ok(t)
            }
            _ => err(self.col(), format!("expected {what}, {}", self.found())),
        }
    }

    /// The next token, which must be a word; `what` names it for the error.
    pub fn word(&mut self, what: &str) -> R<&'t Token> {
        self.expect(Tok::Word, what)
    }

    /// The line must end here.
    pub fn end(&self) -> R<()> {
        match self.peek() {
            None => Ok(()),
            Some(t) => err(t.col, format!("unexpected `{}` after the end of the statement", t.text)),
        }
    }
}

/// `V0` (the null operand) or `_`.
pub(crate) fn is_null(text: &str) -> bool {
    text.eq_ignore_ascii_case("v0") || text == "_"
}

/// Result and predicate names: a letter, `_`, `%` or `$`, then letters,
/// digits, `_`, `%`, `$`.
pub(crate) fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '%' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '%' || c == '$')
}

/// A lane vector `[e0 e1 ...]` of words (blanks or commas between
/// elements): the `[` column and the element tokens.
pub(crate) fn lane_words<'t>(cur: &mut Cur<'t>, what: &str) -> R<(usize, Vec<&'t Token>)> {
    let open = cur.expect(Tok::LBrack, &format!("{what} as a lane vector `[...]`"))?;
    let mut elems = Vec::new();
    let mut after_elem = false;
    loop {
        match cur.peek() {
            Some(t) if t.kind == Tok::RBrack => {
                cur.bump();
                return Ok((open.col, elems));
            }
            Some(t) if t.kind == Tok::Word => {
                elems.push(t);
                cur.bump();
                after_elem = true;
            }
            Some(t) if t.kind == Tok::Comma && after_elem => {
                cur.bump();
                after_elem = false;
            }
            Some(t) => return err(t.col, format!("unexpected `{}` in the lane vector {what}", t.text)),
            None => return err(cur.end_col(), format!("lane vector {what} is missing its closing `]`")),
        }
    }
}

/// Checks a lane vector's length against the exec size.
pub(crate) fn check_len(col: usize, what: &str, got: usize, want: usize, why: &str) -> R<()> {
    if got != want {
        return err(col, format!("{what} has {got} element(s); {why} needs exactly {want}"));
    }
    Ok(())
}

/// `V0`/`_` (None) or a result name.
pub(crate) fn dst_name(cur: &mut Cur<'_>, what: &str) -> R<Option<String>> {
    let t = cur.word(&format!("{what} (a result name or V0)"))?;
    if is_null(&t.text) {
        Ok(None)
    } else if is_name(&t.text) {
        Ok(Some(t.text.clone()))
    } else {
        err(t.col, format!("`{}` is not a result name (letters, digits, `_`, `%`, `$`; or V0)", t.text))
    }
}

/// The statements that hold for the whole script wherever they stand.
pub(crate) struct Globals {
    pub slm_size: u32,
    pub surfaces: BTreeMap<u8, Surface>,
    /// surface numbers whose every definition is broken (reported there)
    pub broken_surfaces: HashSet<u8>,
}

/// Pass 1: the first valid `slm size` and the first valid definition of each
/// surface. Broken lines are skipped here and reported by pass 2 in order.
fn collect_globals(lines: &[&str]) -> Globals {
    let mut g = Globals { slm_size: DEFAULT_SLM_SIZE, surfaces: BTreeMap::new(), broken_surfaces: HashSet::new() };
    let mut slm_set = false;
    for line in lines {
        let (toks, end_col) = lex_line(line);
        let Some(first) = toks.first() else { continue };
        if first.kind != Tok::Word {
            continue;
        }
        let mut cur = Cur::new(&toks, end_col);
        cur.bump();
        if first.text.eq_ignore_ascii_case("surface") {
            let n = cur.peek().and_then(|t| plain_uint(&t.text, 8, "").ok());
            match surface_def(&mut cur) {
                Ok((n, s)) => {
                    g.surfaces.entry(n).or_insert(s);
                }
                Err(_) => {
                    if let Some(n) = n {
                        g.broken_surfaces.insert(n as u8);
                    }
                }
            }
        } else if first.text.eq_ignore_ascii_case("slm")
            && cur.peek().is_some_and(|t| t.text.eq_ignore_ascii_case("size"))
        {
            cur.bump();
            if let Ok(size) = slm_size_def(&mut cur) {
                if !slm_set {
                    g.slm_size = size;
                    slm_set = true;
                }
            }
        }
    }
    g.broken_surfaces.retain(|n| !g.surfaces.contains_key(n));
    g
}

/// What a message needs to know about the script at its line.
pub(crate) struct Ctx<'g> {
    pub line: usize,
    pub dmask: u32,
    pub globals: &'g Globals,
}

/// Pass 2 state.
struct Parser<'g> {
    globals: &'g Globals,
    preds: HashMap<String, u32>,
    /// predicates whose `pred` line is broken (their uses are not errors again)
    broken_preds: HashSet<String>,
    dmask: u32,
    stmts: Vec<Stmt>,
    /// where each surface index was first defined
    surface_lines: BTreeMap<u8, usize>,
    slm_size_line: Option<usize>,
}

/// The statement keywords, for the "unknown statement" message.
const STATEMENTS: &str =
    "mem.<t>, slm.<t>, slm size, surface, pred, dmask, dump, SVM_ATOMIC, DWORD_ATOMIC, TYPED_ATOMIC, SVM_SCATTER or atom";

impl<'g> Parser<'g> {
    fn ctx(&self, line: usize) -> Ctx<'g> {
        Ctx { line, dmask: self.dmask, globals: self.globals }
    }

    fn statement(&mut self, line: usize, toks: &[Token], end_col: usize) -> R<()> {
        let Some(first) = toks.first() else { return Ok(()) };
        let mut cur = Cur::new(toks, end_col);
        match first.kind {
            Tok::LParen => {
                let pred = self.visa_pred(&mut cur)?;
                let word = cur.word("a message name after the predicate")?;
                let msg = self.visa_message(line, &mut cur, word, Some(pred))?;
                self.stmts.push(Stmt::Message(msg));
                return Ok(());
            }
            Tok::At => {
                cur.bump();
                let negate = cur.eat(Tok::Bang);
                let name = cur.word("a predicate name after `@`")?;
                let pred = self.pred_ref(name, negate)?;
                let word = cur.word("`atom` after the predicate")?;
                if !dotted_parts(&word.text, word.col)[0].0.eq_ignore_ascii_case("atom") {
                    return err(word.col, format!("`@{}` predicates a PTX `atom`; vISA messages take `({})`", name.text, name.text));
                }
                let msg = ptx::parse_atom(&mut cur, word, Some(pred), &self.ctx(line))?;
                self.stmts.push(Stmt::Message(msg));
                return Ok(());
            }
            Tok::Word => {}
            _ => return err(first.col, format!("unexpected `{}`: a statement starts with {STATEMENTS}", first.text)),
        }
        cur.bump();
        let parts = dotted_parts(&first.text, first.col);
        let head = parts[0].0.to_ascii_lowercase();
        match head.as_str() {
            "mem" | "slm" if parts.len() == 1 => {
                if head == "slm" && cur.peek().is_some_and(|t| t.text.eq_ignore_ascii_case("size")) {
                    cur.bump();
                    slm_size_def(&mut cur)?;
                    if let Some(prev) = self.slm_size_line {
                        return err(first.col, format!("slm size is already set on line {prev} (it is global to the script)"));
                    }
                    self.slm_size_line = Some(line);
                    Ok(())
                } else {
                    err(cur.col(), format!("expected `{head}.<type> <addr> = v...` (types: {INIT_TYPES}){}", if head == "slm" { " or `slm size <bytes>`" } else { "" }))
                }
            }
            "mem" | "slm" => {
                let space = if head == "mem" { Space::Flat } else { Space::Slm };
                let stmt = self.init(line, &mut cur, space, &parts)?;
                self.stmts.push(stmt);
                Ok(())
            }
            "surface" => {
                let n_col = cur.col();
                let (n, _) = surface_def(&mut cur)?;
                if let Some(prev) = self.surface_lines.get(&n) {
                    return err(n_col, format!("surface {n} is already defined on line {prev}"));
                }
                self.surface_lines.insert(n, line);
                Ok(())
            }
            "pred" => {
                let name = cur.word("a predicate name")?;
                if is_null(&name.text) || !is_name(&name.text) {
                    return err(name.col, format!("`{}` is not a predicate name", name.text));
                }
                let value = (|| {
                    cur.expect(Tok::Eq, "`=` after the predicate name")?;
                    let mask = cur.word("the predicate mask")?;
                    let value = at(mask.col, plain_uint(&mask.text, 32, "predicate mask"))? as u32;
                    cur.end()?;
                    Ok(value)
                })();
                match value {
                    Ok(v) => {
                        self.preds.insert(name.text.clone(), v);
                        self.broken_preds.remove(&name.text);
                        Ok(())
                    }
                    Err(e) => {
                        if !self.preds.contains_key(&name.text) {
                            self.broken_preds.insert(name.text.clone());
                        }
                        Err(e)
                    }
                }
            }
            "dmask" => {
                let mask = cur.word("the dispatch mask")?;
                self.dmask = at(mask.col, plain_uint(&mask.text, 32, "dmask"))? as u32;
                cur.end()
            }
            "dump" => {
                let stmt = self.dump(line, &mut cur)?;
                self.stmts.push(stmt);
                Ok(())
            }
            "atom" => {
                let msg = ptx::parse_atom(&mut cur, first, None, &self.ctx(line))?;
                self.stmts.push(Stmt::Message(msg));
                Ok(())
            }
            "svm_atomic" | "dword_atomic" | "typed_atomic" | "svm_scatter" => {
                let msg = self.visa_message(line, &mut cur, first, None)?;
                self.stmts.push(Stmt::Message(msg));
                Ok(())
            }
            _ if parts.len() > 1 && (head == "svm" || head == "dword" || head == "typed") => err(
                first.col,
                format!("unknown statement `{}` (did you mean SVM_ATOMIC, DWORD_ATOMIC, TYPED_ATOMIC or SVM_SCATTER?)", first.text),
            ),
            _ => err(first.col, format!("unknown statement `{}`: expected {STATEMENTS}", first.text)),
        }
    }

    /// `(p)` or `(!p)` before a vISA message.
    fn visa_pred(&self, cur: &mut Cur<'_>) -> R<PredRef> {
        cur.expect(Tok::LParen, "`(`")?;
        let negate = cur.eat(Tok::Bang);
        let name = cur.word("a predicate name")?;
        let pred = self.pred_ref(name, negate)?;
        cur.expect(Tok::RParen, "`)` after the predicate")?;
        Ok(pred)
    }

    fn pred_ref(&self, name: &Token, negate: bool) -> R<PredRef> {
        if !is_name(&name.text) || is_null(&name.text) {
            return err(name.col, format!("expected a predicate name, found `{}`", name.text));
        }
        match self.preds.get(&name.text) {
            Some(&mask) => Ok(PredRef { name: name.text.clone(), negate, mask }),
            None if self.broken_preds.contains(&name.text) => {
                Err(PErr { col: name.col, msg: format!("predicate `{}`'s definition is broken", name.text), follows: true })
            }
            None => err(
                name.col,
                format!("predicate `{}` is not defined (define it above with `pred {} = <mask>`)", name.text, name.text),
            ),
        }
    }

    fn visa_message(&self, line: usize, cur: &mut Cur<'_>, word: &Token, pred: Option<PredRef>) -> R<Message> {
        let parts = dotted_parts(&word.text, word.col);
        let ctx = self.ctx(line);
        match parts[0].0.to_ascii_lowercase().as_str() {
            "svm_atomic" => visa::svm_atomic(cur, &parts, pred, &ctx),
            "dword_atomic" => visa::dword_atomic(cur, &parts, pred, &ctx),
            "typed_atomic" => visa::typed_atomic(cur, &parts, pred, &ctx),
            "svm_scatter" => visa::svm_scatter(cur, &parts, pred, &ctx),
            "atom" => err(word.col, "a PTX atom is predicated with `@p`, not `(p)`"),
            _ => err(word.col, format!("expected a message name (SVM_ATOMIC, DWORD_ATOMIC, TYPED_ATOMIC, SVM_SCATTER), found `{}`", word.text)),
        }
    }

    /// `mem.<t> <addr> = v...` / `slm.<t> <off> = v...`
    fn init(&self, line: usize, cur: &mut Cur<'_>, space: Space, parts: &[(String, usize)]) -> R<Stmt> {
        let (ty_text, ty_col) = &parts[1];
        if parts.len() > 2 {
            return err(parts[2].1, format!("unexpected `.{}` after the element type", parts[2].0));
        }
        let Some(&(_, ty)) = INIT_TYPE_TABLE.iter().find(|(n, _)| n.eq_ignore_ascii_case(ty_text)) else {
            return err(*ty_col, format!("unknown element type `{ty_text}` (types: {INIT_TYPES})"));
        };
        let addr_tok = cur.word("the start address")?;
        let addr_bits = if space == Space::Flat { 64 } else { 32 };
        let addr = at(addr_tok.col, plain_uint(&addr_tok.text, addr_bits, "address"))?;
        cur.expect(Tok::Eq, "`=` after the address")?;
        let mut bytes = Vec::new();
        let mut after_value = false;
        while let Some(t) = cur.peek() {
            match t.kind {
                Tok::Word => {
                    let v = at(t.col, ty.convert(&t.text))?;
                    bytes.extend_from_slice(&v.to_le_bytes()[..ty.bytes()]);
                    after_value = true;
                }
                Tok::Comma if after_value => after_value = false,
                _ => return err(t.col, format!("unexpected `{}` in the values", t.text)),
            }
            cur.bump();
        }
        if bytes.is_empty() {
            return err(cur.end_col(), "expected at least one value after `=`");
        }
        let end = addr + bytes.len() as u128;
        match space {
            Space::Flat if end > 1u128 << 64 => {
                return err(addr_tok.col, format!("values from {addr:#x} run past the end of the 64-bit address space"))
            }
            Space::Slm if end > self.globals.slm_size as u128 => {
                return err(
                    addr_tok.col,
                    format!("SLM values {addr:#x}..{end:#x} run past the SLM size ({:#x} bytes; see `slm size`)", self.globals.slm_size),
                )
            }
            _ => {}
        }
        Ok(Stmt::Init { line, space, addr: addr as u64, bytes })
    }

    /// `dump <addr> <len>` / `dump slm <off> <len>`
    fn dump(&self, line: usize, cur: &mut Cur<'_>) -> R<Stmt> {
        let space = if cur.peek().is_some_and(|t| t.text.eq_ignore_ascii_case("slm")) {
            cur.bump();
            Space::Slm
        } else {
            Space::Flat
        };
        let addr_tok = cur.word("the dump address")?;
        let addr = at(addr_tok.col, plain_uint(&addr_tok.text, if space == Space::Flat { 64 } else { 32 }, "dump address"))?;
        let len_tok = cur.word("the dump length in bytes")?;
        let len = at(len_tok.col, plain_uint(&len_tok.text, 64, "dump length"))?;
        if len == 0 || len > MAX_DUMP_LEN as u128 {
            return err(len_tok.col, format!("dump length must be 1..={MAX_DUMP_LEN} bytes"));
        }
        cur.end()?;
        match space {
            Space::Flat if addr + len > 1u128 << 64 => {
                err(addr_tok.col, "the dump runs past the end of the 64-bit address space")
            }
            Space::Slm if addr + len > self.globals.slm_size as u128 => err(
                addr_tok.col,
                format!("SLM dump {addr:#x}..{:#x} runs past the SLM size ({:#x} bytes)", addr + len, self.globals.slm_size),
            ),
            _ => Ok(Stmt::Dump { line, space, addr: addr as u64, len: len as u64 }),
        }
    }
}

/// The element types of `mem.<t>` / `slm.<t>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InitType {
    U(u32),
    S(u32),
    F(ElemType),
}

impl InitType {
    fn bytes(self) -> usize {
        match self {
            InitType::U(b) | InitType::S(b) => b as usize / 8,
            InitType::F(t) => t.bytes() as usize,
        }
    }

    fn convert(self, text: &str) -> Result<u128, String> {
        match self {
            InitType::U(bits) => unsigned_bits(text, bits, "element"),
            InitType::S(bits) => signed_bits(text, bits, "element"),
            InitType::F(ty) => float_bits(text, ty),
        }
    }
}

const INIT_TYPE_TABLE: [(&str, InitType); 12] = [
    ("u8", InitType::U(8)),
    ("u16", InitType::U(16)),
    ("u32", InitType::U(32)),
    ("u64", InitType::U(64)),
    ("s8", InitType::S(8)),
    ("s16", InitType::S(16)),
    ("s32", InitType::S(32)),
    ("s64", InitType::S(64)),
    ("f16", InitType::F(ElemType::F16)),
    ("bf16", InitType::F(ElemType::BF16)),
    ("f32", InitType::F(ElemType::F32)),
    ("f64", InitType::F(ElemType::F64)),
];
const INIT_TYPES: &str = "u8 u16 u32 u64 s8 s16 s32 s64 f16 bf16 f32 f64";

/// `slm size <bytes>` after the two keywords.
fn slm_size_def(cur: &mut Cur<'_>) -> R<u32> {
    let t = cur.word("the SLM size in bytes")?;
    let size = at(t.col, plain_uint(&t.text, 32, "slm size"))?;
    if size > MAX_SLM_SIZE as u128 {
        return err(t.col, format!("slm size {size} is larger than the supported {MAX_SLM_SIZE} bytes"));
    }
    cur.end()?;
    Ok(size as u32)
}

/// The keys a surface kind takes: (key, required).
fn surface_keys(kind: Option<TypedKind>) -> &'static [(&'static str, bool)] {
    match kind {
        None => &[("base", true), ("size", true)],
        Some(TypedKind::D1) => &[("base", true), ("width", true), ("levels", false), ("format", true)],
        Some(TypedKind::D1Array) => {
            &[("base", true), ("width", true), ("array", true), ("levels", false), ("format", true)]
        }
        Some(TypedKind::D2) => {
            &[("base", true), ("width", true), ("height", false), ("levels", false), ("format", true)]
        }
        Some(TypedKind::D2Array) => &[
            ("base", true),
            ("width", true),
            ("height", false),
            ("array", true),
            ("levels", false),
            ("format", true),
        ],
        Some(TypedKind::D3) => &[
            ("base", true),
            ("width", true),
            ("height", false),
            ("depth", false),
            ("levels", false),
            ("format", true),
        ],
    }
}

/// `surface <n> buffer base= size=` or `surface <n> <kind> base= width= ...`
/// after the keyword.
fn surface_def(cur: &mut Cur<'_>) -> R<(u8, Surface)> {
    let n_tok = cur.word("the surface number")?;
    let n = at(n_tok.col, plain_uint(&n_tok.text, 32, "surface number"))?;
    if n == 0 || n == 255 {
        return err(n_tok.col, format!("surface {n} is built in (T0 is SLM, T255 is stateless); define 1..=254"));
    }
    if n > 254 {
        return err(n_tok.col, format!("surface number {n} is out of range (1..=254)"));
    }
    let n = n as u8;
    let kind_tok = cur.word("the surface kind (buffer, 1d, 1d_array, 2d, 2d_array, 3d)")?;
    let kind = match kind_tok.text.to_ascii_lowercase().as_str() {
        "buffer" => None,
        "1d" => Some(TypedKind::D1),
        "1d_array" => Some(TypedKind::D1Array),
        "2d" => Some(TypedKind::D2),
        "2d_array" => Some(TypedKind::D2Array),
        "3d" => Some(TypedKind::D3),
        _ => {
            return err(
                kind_tok.col,
                format!("unknown surface kind `{}` (buffer, 1d, 1d_array, 2d, 2d_array, 3d)", kind_tok.text),
            )
        }
    };
    let keys = surface_keys(kind);
    let key_list = keys.iter().map(|k| k.0).collect::<Vec<_>>().join(" ");
    let mut values: HashMap<&'static str, (u128, usize)> = HashMap::new();
    let mut format = None;
    while cur.peek().is_some() {
        let key_tok = cur.word("`key=value`")?;
        let lower = key_tok.text.to_ascii_lowercase();
        let Some(&(key, _)) = keys.iter().find(|k| k.0 == lower) else {
            return err(
                key_tok.col,
                format!("a {} surface takes no `{}=` (keys: {key_list})", kind_tok.text.to_ascii_lowercase(), key_tok.text),
            );
        };
        if values.contains_key(key) || (key == "format" && format.is_some()) {
            return err(key_tok.col, format!("`{key}=` is given twice"));
        }
        cur.expect(Tok::Eq, &format!("`=` after `{key}`"))?;
        let v = cur.word(&format!("the value of `{key}=`"))?;
        match key {
            "format" => {
                format = Some(match v.text.to_ascii_lowercase().as_str() {
                    "u32" => TypedFormat::U32,
                    "u16" => TypedFormat::U16,
                    _ => return err(v.col, format!("unknown format `{}` (u32 or u16)", v.text)),
                });
                values.insert(key, (0, v.col));
            }
            "base" | "size" => {
                values.insert(key, (at(v.col, plain_uint(&v.text, 64, key))?, v.col));
            }
            _ => {
                let x = at(v.col, plain_uint(&v.text, 32, key))?;
                if x == 0 {
                    return err(v.col, format!("`{key}=` must be at least 1"));
                }
                if key == "levels" && x > MAX_LEVELS as u128 {
                    return err(v.col, format!("`levels=` must be 1..={MAX_LEVELS}"));
                }
                values.insert(key, (x, v.col));
            }
        }
    }
    for &(key, required) in keys {
        if required && !values.contains_key(key) {
            return err(
                cur.end_col(),
                format!("surface {n} ({}) needs `{key}=` (keys: {key_list})", kind_tok.text.to_ascii_lowercase()),
            );
        }
    }
    let get = |k: &str| values.get(k).map(|v| v.0);
    let (base, base_col) = values["base"];
    // The unit adds offsets to the base, so the base must keep every access
    // aligned: a buffer serves DWORD_ATOMIC (at most 4-byte accesses), a
    // typed surface its element size.
    let base_align = match (kind, format) {
        (None, _) => 4,
        (Some(_), Some(TypedFormat::U16)) => 2,
        (Some(_), _) => 4,
    };
    if base % base_align != 0 {
        return err(
            base_col,
            format!("base {base:#x} of surface {n} is not aligned to {base_align} bytes (every access through it must stay aligned)"),
        );
    }
    let surface = match kind {
        None => {
            let size = get("size").unwrap_or(0);
            if base + size > 1u128 << 64 {
                return err(base_col, format!("buffer surface {n} runs past the end of the 64-bit address space"));
            }
            Surface::Buffer { base: base as u64, size: size as u64 }
        }
        Some(kind) => {
            let t = TypedSurface {
                kind,
                base: base as u64,
                width: get("width").unwrap_or(1) as u32,
                height: get("height").unwrap_or(1) as u32,
                depth: get("depth").unwrap_or(1) as u32,
                array: get("array").unwrap_or(1) as u32,
                levels: get("levels").unwrap_or(1) as u32,
                format: format.unwrap_or(TypedFormat::U32),
            };
            // every level must lie inside the 64-bit address space
            let total = t.bytes();
            if base + total > 1u128 << 64 {
                return err(base_col, format!("typed surface {n} ({total} bytes) runs past the end of the 64-bit address space"));
            }
            Surface::Typed(t)
        }
    };
    Ok((n, surface))
}
