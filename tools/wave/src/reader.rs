//! A VCD reader (IEEE 1364-2005 section 18 four-state VCD) that keeps every
//! signal's whole history in a compact form.
//!
//! Robust to what real simulators write:
//! * nested scopes of any type (`module`, `begin`, `task`, SystemVerilog
//!   `interface`, `struct`, ...), vars of any type (`wire`, `reg`,
//!   `integer`, `parameter`, `real`, `logic`, ...);
//! * the bit range as its own token (`data [7:0]`, Verilator and Icarus) or
//!   glued to the name (`data[7:0]`); a single bit select (`data [3]`)
//!   stays part of the name, as GTKWave shows it;
//! * several vars sharing one identifier code (Verilator's `TOP.clock` and
//!   `TOP.atomic_unit.clock`): they share one [`Trace`];
//! * identifier codes of any length and characters;
//! * `$timescale 1ns`, `$timescale 1 ns`, `10ps`, `100 fs`, ...;
//! * `$dumpvars`, `$dumpall`, `$dumpon`, `$dumpoff` blocks (their values
//!   are ordinary changes), `$comment` anywhere, unknown `$keyword ...
//!   $end` commands skipped;
//! * scalar `0 1 x z` (and upper case), vectors `b...` padded per the
//!   standard (a leading 0/1 pads with 0, x with x, z with z), VHDL
//!   std_logic letters (`u w -` read as x, `l h` as 0 1), reals `r...`,
//!   strings `s...`.
//!
//! Errors are [`Diag`]s: `FILE:LINE:COL: error: ...`.
//!
//! # Storage
//! A trace stores, per change, the time and two bit planes of
//! `ceil(width/64)` words each: `value` then `unknown`. A bit is 0 = (0,0),
//! 1 = (1,0), x = (0,1), z = (1,1). A change equal to the trace's last value
//! is dropped, and two changes at one time keep the last, so equal
//! waveforms store equal histories whatever `$dumpall`s they contain.

use std::collections::HashMap;
use std::fmt;

use atomport_core::diag::Diag;

/// A VCD `$timescale`: `magnitude` (1, 10 or 100) times 10^`exponent`
/// seconds, exponent one of 0, -3, -6, -9, -12, -15.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timescale {
    pub magnitude: u32,
    pub exponent: i32,
}

impl Timescale {
    /// 1 ns, Verilator's and the golden waveform's unit.
    pub const NS: Timescale = Timescale { magnitude: 1, exponent: -9 };
    /// 1 ps.
    pub const PS: Timescale = Timescale { magnitude: 1, exponent: -12 };

    /// One time unit in femtoseconds.
    pub fn femtoseconds(self) -> u128 {
        self.magnitude as u128 * 10u128.pow((self.exponent + 15) as u32)
    }

    /// The unit's name: `s`, `ms`, `us`, `ns`, `ps` or `fs`.
    pub fn unit_name(self) -> &'static str {
        match self.exponent {
            0 => "s",
            -3 => "ms",
            -6 => "us",
            -9 => "ns",
            -12 => "ps",
            _ => "fs",
        }
    }

    /// The exponent of a unit name, or None.
    pub fn exponent_of(unit: &str) -> Option<i32> {
        Some(match unit {
            "s" => 0,
            "ms" => -3,
            "us" => -6,
            "ns" => -9,
            "ps" => -12,
            "fs" => -15,
            _ => return None,
        })
    }

    /// The finest timescale that divides both (the common unit of two files).
    pub fn common(a: Timescale, b: Timescale) -> Timescale {
        let g = gcd(a.femtoseconds(), b.femtoseconds());
        Timescale::from_femtoseconds(g)
    }

    /// The timescale of `fs` femtoseconds, a power of ten times 1, 10 or 100
    /// (other values round down to the nearest such).
    pub fn from_femtoseconds(fs: u128) -> Timescale {
        let mut e = 0u32;
        while 10u128.pow(e + 1) <= fs && e < 17 {
            e += 1;
        }
        // express as magnitude (1, 10, 100) x 10^(unit exponent)
        let unit_e = (e / 3) * 3;
        Timescale { magnitude: 10u32.pow(e - unit_e), exponent: unit_e as i32 - 15 }
    }

    /// Formats `t` (a count of this unit) as `"<n> <unit>"`, e.g. `125 ns`.
    pub fn format(self, t: u128) -> String {
        format!("{} {}", t * self.magnitude as u128, self.unit_name())
    }
}

impl fmt::Display for Timescale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.magnitude, self.unit_name())
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// What kind of values a trace holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    /// four-state bits
    Logic,
    /// `real` (the value plane holds the f64 bits)
    Real,
    /// strings (`s` changes; the value plane holds an index into the trace's texts)
    Text,
}

/// One signal's history (shared by every var with its identifier code).
#[derive(Clone, Debug)]
pub struct Trace {
    pub width: u32,
    pub kind: TraceKind,
    /// u64 words per plane
    words: usize,
    times: Vec<u64>,
    /// per change: `words` value words then `words` unknown words
    planes: Vec<u64>,
    texts: Vec<String>,
}

/// A borrowed value of a trace at some time.
#[derive(Clone, Copy, Debug)]
pub struct Value<'a> {
    pub width: u32,
    pub kind: TraceKind,
    /// value plane, `ceil(width/64)` words, bit 0 of word 0 = bit 0
    pub bits: &'a [u64],
    /// unknown plane (x or z where set)
    pub unknown: &'a [u64],
    texts: &'a [String],
}

/// One four-state bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logic {
    Zero,
    One,
    X,
    Z,
}

impl Logic {
    pub fn as_char(self) -> char {
        match self {
            Logic::Zero => '0',
            Logic::One => '1',
            Logic::X => 'x',
            Logic::Z => 'z',
        }
    }
}

impl<'a> Value<'a> {
    /// Bit `i` (bits at or past the width read as 0).
    pub fn bit(&self, i: u32) -> Logic {
        if i >= self.width {
            return Logic::Zero;
        }
        let (w, b) = ((i / 64) as usize, i % 64);
        match (self.bits[w] >> b & 1, self.unknown[w] >> b & 1) {
            (0, 0) => Logic::Zero,
            (1, 0) => Logic::One,
            (0, _) => Logic::X,
            _ => Logic::Z,
        }
    }

    /// Whether every bit is 0 or 1.
    pub fn is_known(&self) -> bool {
        self.kind != TraceKind::Logic || self.unknown.iter().all(|&w| w == 0)
    }

    /// The value as an integer (low 128 bits), None if any bit is x or z.
    pub fn to_u128(&self) -> Option<u128> {
        if !self.is_known() {
            return None;
        }
        let lo = self.bits.first().copied().unwrap_or(0) as u128;
        let hi = self.bits.get(1).copied().unwrap_or(0) as u128;
        Some(lo | hi << 64)
    }

    /// Whether the value is exactly 1-bit-style true: bit 0 is 1.
    pub fn is_one(&self) -> bool {
        self.bit(0) == Logic::One
    }

    /// The words `[lo, lo+n)` of the value plane as u32 words (for wide
    /// buses), None if any bit is unknown.
    pub fn words_u64(&self) -> Option<&'a [u64]> {
        self.is_known().then_some(self.bits)
    }

    /// The value as text: hex for vectors (`x`/`z` for a nibble all x/z,
    /// `X`/`Z` for a nibble partly unknown), `0`/`1`/`x`/`z` for one bit, the
    /// number for reals, the string for texts.
    pub fn display(&self) -> String {
        match self.kind {
            TraceKind::Real => format!("{}", f64::from_bits(self.bits[0])),
            TraceKind::Text => self.texts.get(self.bits[0] as usize).cloned().unwrap_or_default(),
            TraceKind::Logic if self.width == 1 => self.bit(0).as_char().to_string(),
            TraceKind::Logic => self.hex(),
        }
    }

    /// Hex digits, most significant first, exactly `ceil(width/4)` of them.
    pub fn hex(&self) -> String {
        let digits = self.width.div_ceil(4);
        let mut s = String::with_capacity(digits as usize);
        for d in (0..digits).rev() {
            let n = (4 * d + 4).min(self.width) - 4 * d;
            let mut v = 0u32;
            let (mut xs, mut zs) = (0, 0);
            for k in 0..n {
                match self.bit(4 * d + k) {
                    Logic::Zero => {}
                    Logic::One => v |= 1 << k,
                    Logic::X => xs += 1,
                    Logic::Z => zs += 1,
                }
            }
            s.push(match (xs, zs) {
                (0, 0) => char::from_digit(v, 16).unwrap(),
                (x, 0) if x == n => 'x',
                (0, z) if z == n => 'z',
                (_, 0) => 'X',
                _ => 'Z',
            });
        }
        s
    }

    /// Binary digits, most significant first.
    pub fn binary(&self) -> String {
        (0..self.width).rev().map(|i| self.bit(i).as_char()).collect()
    }

    /// The same value (bits, unknown bits and, for texts, the text)?
    pub fn same(&self, other: &Value) -> bool {
        if self.width != other.width || self.kind != other.kind {
            return false;
        }
        if self.kind == TraceKind::Text {
            return self.display() == other.display();
        }
        self.bits == other.bits && self.unknown == other.unknown
    }
}

impl Trace {
    pub(crate) fn new(width: u32, kind: TraceKind) -> Trace {
        let words = (width.max(1) as usize).div_ceil(64);
        Trace { width, kind, words, times: Vec::new(), planes: Vec::new(), texts: Vec::new() }
    }

    /// Number of stored changes.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether the trace never got a value.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The time of change `i`.
    pub fn time(&self, i: usize) -> u64 {
        self.times[i]
    }

    /// All change times.
    pub fn times(&self) -> &[u64] {
        &self.times
    }

    /// The value of change `i`.
    pub fn value(&self, i: usize) -> Value<'_> {
        let n = self.words;
        let p = &self.planes[2 * n * i..2 * n * (i + 1)];
        Value { width: self.width, kind: self.kind, bits: &p[..n], unknown: &p[n..], texts: &self.texts }
    }

    /// Index of the change in effect at time `t` (the last change at or
    /// before `t`), None before the first change.
    pub fn index_at(&self, t: u64) -> Option<usize> {
        self.times.partition_point(|&x| x <= t).checked_sub(1)
    }

    /// Index of the change in effect just before time `t` (the last change
    /// strictly before `t`): what a flip-flop clocked at `t` samples.
    pub fn index_before(&self, t: u64) -> Option<usize> {
        self.times.partition_point(|&x| x < t).checked_sub(1)
    }

    /// The value in effect at `t`, None before the first change.
    pub fn value_at(&self, t: u64) -> Option<Value<'_>> {
        self.index_at(t).map(|i| self.value(i))
    }

    /// Append a change given as two planes (`words` words each); drops it
    /// when equal to the last value, replaces the last one at the same time.
    pub(crate) fn push(&mut self, t: u64, bits: &[u64], unknown: &[u64]) {
        let n = self.words;
        debug_assert!(bits.len() == n && unknown.len() == n);
        let same_as = |tr: &Trace, i: usize| {
            let p = &tr.planes[2 * n * i..2 * n * (i + 1)];
            &p[..n] == bits && &p[n..] == unknown
        };
        let len = self.times.len();
        if len > 0 && self.times[len - 1] == t {
            // a second change at one time: the last one wins
            self.times.pop();
            self.planes.truncate(2 * n * (len - 1));
            if len >= 2 && same_as(self, len - 2) {
                return;
            }
        } else if len > 0 && same_as(self, len - 1) {
            return;
        }
        self.times.push(t);
        self.planes.extend_from_slice(bits);
        self.planes.extend_from_slice(unknown);
    }
}

/// One `$var` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    /// the enclosing scopes' names, outermost first
    pub scope: Vec<String>,
    /// the reference, with a single-bit select kept (`data[3]`)
    pub name: String,
    /// the declared `[msb:lsb]`, if any
    pub range: Option<(i64, i64)>,
    /// the var type keyword (`wire`, `reg`, `integer`, `real`, ...)
    pub var_type: String,
    pub width: u32,
    /// the identifier code
    pub id: String,
    /// index into [`Waveform::traces`]
    pub trace: usize,
    /// line of the declaration
    pub line: usize,
}

impl Var {
    /// The hierarchical name `scope.scope.name` (no range).
    pub fn path(&self) -> String {
        let mut s = String::new();
        for sc in &self.scope {
            s.push_str(sc);
            s.push('.');
        }
        s.push_str(&self.name);
        s
    }

    /// The name as GTKWave shows it: the path with the range, e.g.
    /// `TOP.atomic_unit.mem_rd_addr[63:0]`.
    pub fn gtkwave_name(&self) -> String {
        match self.range {
            Some((m, l)) => format!("{}[{m}:{l}]", self.path()),
            None => self.path(),
        }
    }
}

/// A whole VCD file.
#[derive(Clone, Debug)]
pub struct Waveform {
    /// the file name as given (for messages)
    pub file: String,
    pub timescale: Timescale,
    pub date: Option<String>,
    pub version: Option<String>,
    /// every `$var`, in declaration order
    pub vars: Vec<Var>,
    pub traces: Vec<Trace>,
    /// the last timestamp in the file
    pub end_time: u64,
}

impl Waveform {
    /// Parses VCD text; `file` names it in diagnostics.
    pub fn parse(file: &str, text: &[u8]) -> Result<Waveform, Diag> {
        Parser::new(file, text).parse()
    }

    /// The trace of a var.
    pub fn trace(&self, var: &Var) -> &Trace {
        &self.traces[var.trace]
    }

    /// The var whose path is `path` (`TOP.atomic_unit.clock`), the first
    /// declared one if several.
    pub fn var(&self, path: &str) -> Option<&Var> {
        self.vars.iter().find(|v| v.path() == path)
    }

    /// Every scope (as dotted paths, outermost first) that declares vars
    /// directly or below it, including the root `""`, in first-seen order.
    pub fn scopes(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let mut out = vec![String::new()];
        seen.insert(String::new());
        for v in &self.vars {
            for k in 1..=v.scope.len() {
                let s = v.scope[..k].join(".");
                if seen.insert(s.clone()) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Times at which `var` (a 1-bit signal) rises: a change to 1 from a
    /// value that was not 1 (0, x or z); the first value is not an edge.
    pub fn rising_edges(&self, var: &Var) -> Vec<u64> {
        let tr = self.trace(var);
        let mut out = Vec::new();
        for i in 1..tr.len() {
            if tr.value(i).bit(0) == Logic::One && tr.value(i - 1).bit(0) != Logic::One {
                out.push(tr.time(i));
            }
        }
        out
    }
}

/// The tokenizer and parser state.
struct Parser<'a> {
    file: &'a str,
    text: &'a [u8],
    pos: usize,
    vars: Vec<Var>,
    traces: Vec<Trace>,
    /// identifier code -> trace, for short printable codes (see [`dense_code`])
    dense: Vec<u32>,
    sparse: HashMap<Vec<u8>, u32>,
    scratch_bits: Vec<u64>,
    scratch_unknown: Vec<u64>,
    /// words stored in every trace's planes so far, and the most allowed
    /// ([`memory_budget_words`])
    stored_words: usize,
    budget_words: usize,
    /// (trace, string) -> index in the trace's `texts`
    text_index: HashMap<(usize, String), usize>,
}

/// The deepest scope nesting a waveform may have. The wave tools compare
/// every scope of one file with every scope of the other and name signals
/// by their scope path, which grows with the depth: the bound keeps a
/// hostile file's cost in check (real designs nest a few dozen levels).
pub const MAX_SCOPE_DEPTH: usize = 256;

/// The most memory (bytes) the values of one VCD may take, whatever its
/// size: a few bytes of text (`b1 !`) can set a 16M-bit variable, so
/// storage is bounded by the input's size, not by the declared widths.

pub const MIN_VALUE_BUDGET: usize = 256 << 20;

/// Words (u64) the stored values of a `len`-byte VCD may take: at least
/// [`MIN_VALUE_BUDGET`] bytes, else 16 bytes per input byte (a simulator's
/// VCD, which writes every bit, needs about a quarter byte per byte).
fn memory_budget_words(len: usize) -> usize {
    MIN_VALUE_BUDGET.max(len.saturating_mul(16)) / 8
}

/// The identifier code as a number, for codes of at most 9 characters in
/// `!`..`~` (bijective base 95, so `!` and `!!` differ); None otherwise.
#[inline]
fn dense_code(id: &[u8]) -> Option<u64> {
    if id.len() > 9 {
        return None;
    }
    let mut n = 0u64;
    for &c in id {
        if !(b'!'..=b'~').contains(&c) {
            return None;
        }
        n = n * 95 + (c - b' ') as u64;
    }
    Some(n)
}

/// Codes below this map through a vector, the rest through a hash map.
const DENSE_LIMIT: u64 = 1 << 20;

const NO_TRACE: u32 = u32::MAX;

impl<'a> Parser<'a> {
    fn new(file: &'a str, text: &'a [u8]) -> Self {
        Parser {
            file,
            text,
            pos: 0,
            vars: Vec::new(),
            traces: Vec::new(),
            dense: Vec::new(),
            sparse: HashMap::new(),
            scratch_bits: Vec::new(),
            scratch_unknown: Vec::new(),
            stored_words: 0,
            budget_words: memory_budget_words(text.len()),
            text_index: HashMap::new(),
        }
    }

    /// A diagnostic at byte offset `at`.
    fn error(&self, at: usize, msg: impl Into<String>) -> Diag {
        let at = at.min(self.text.len());
        let before = &self.text[..at];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        let col = String::from_utf8_lossy(&self.text[line_start..at]).chars().count() + 1;
        Diag::new(self.file, line, col, msg)
    }

    fn line_of(&self, at: usize) -> usize {
        self.text[..at].iter().filter(|&&c| c == b'\n').count() + 1
    }

    #[inline]
    fn skip_ws(&mut self) {
        while self.pos < self.text.len() && self.text[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// The next whitespace-delimited token and its offset; None at the end.
    #[inline]
    fn token(&mut self) -> Option<(usize, &'a [u8])> {
        self.skip_ws();
        if self.pos >= self.text.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < self.text.len() && !self.text[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        Some((start, &self.text[start..self.pos]))
    }

    /// Tokens up to `$end` (not included); error at `open` if none.
    fn until_end(&mut self, open: usize, what: &str) -> Result<Vec<(usize, &'a [u8])>, Diag> {
        let mut out = Vec::new();
        loop {
            match self.token() {
                None => return Err(self.error(open, format!("`{what}` has no `$end`"))),
                Some((_, b"$end")) => return Ok(out),
                Some(t) => out.push(t),
            }
        }
    }

    fn text_of(tokens: &[(usize, &[u8])]) -> String {
        tokens.iter().map(|(_, t)| String::from_utf8_lossy(t).into_owned()).collect::<Vec<_>>().join(" ")
    }

    fn parse(mut self) -> Result<Waveform, Diag> {
        let mut timescale = None;
        let (mut date, mut version) = (None, None);
        let mut scope: Vec<String> = Vec::new();
        let mut scope_opened_at: Vec<usize> = Vec::new();
        // header
        loop {
            let Some((at, tok)) = self.token() else {
                return Err(self.error(self.text.len(), "the VCD ends before `$enddefinitions`"));
            };
            match tok {
                b"$enddefinitions" => {
                    self.until_end(at, "$enddefinitions")?;
                    if let Some(&open) = scope_opened_at.last() {
                        return Err(self.error(open, "`$scope` has no matching `$upscope`"));
                    }
                    break;
                }
                b"$date" => date = Some(Self::text_of(&self.until_end(at, "$date")?)),
                b"$version" => version = Some(Self::text_of(&self.until_end(at, "$version")?)),
                b"$comment" => {
                    self.until_end(at, "$comment")?;
                }
                b"$timescale" => {
                    let toks = self.until_end(at, "$timescale")?;
                    timescale = Some(self.timescale(at, &toks)?);
                }
                b"$scope" => {
                    let toks = self.until_end(at, "$scope")?;
                    // `$scope <type> <name> $end`; tolerate a missing type
                    let name = match toks.as_slice() {
                        [_, (_, n)] | [(_, n)] => String::from_utf8_lossy(n).into_owned(),
                        _ => return Err(self.error(at, "`$scope` needs a type and a name")),
                    };
                    if scope.len() >= MAX_SCOPE_DEPTH {
                        return Err(self.error(
                            at,
                            &format!("`$scope` nested deeper than {MAX_SCOPE_DEPTH} levels (the wave tools' limit: a design's hierarchy is far shallower)"),
                        ));
                    }
                    scope.push(name);
                    scope_opened_at.push(at);
                }
                b"$upscope" => {
                    self.until_end(at, "$upscope")?;
                    if scope.pop().is_none() {
                        return Err(self.error(at, "`$upscope` without an open `$scope`"));
                    }
                    scope_opened_at.pop();
                }
                b"$var" => {
                    let toks = self.until_end(at, "$var")?;
                    self.var(at, &toks, &scope)?;
                }
                t if t.starts_with(b"$") => {
                    // an unknown header command (`$attrbegin`, ...): skip it
                    let name = String::from_utf8_lossy(t).into_owned();
                    self.until_end(at, &name)?;
                }
                t => {
                    return Err(self.error(
                        at,
                        format!("expected a `$` command in the VCD header, found `{}`", String::from_utf8_lossy(t)),
                    ))
                }
            }
        }
        // body
        let mut now: Option<u64> = None;
        let mut end_time = 0u64;
        loop {
            self.skip_ws();
            if self.pos >= self.text.len() {
                break;
            }
            let at = self.pos;
            let c = self.text[at];
            match c {
                b'#' => {
                    let (_, tok) = self.token().unwrap();
                    let t = parse_u64(&tok[1..]).ok_or_else(|| {
                        self.error(at, format!("bad timestamp `{}`", String::from_utf8_lossy(tok)))
                    })?;
                    if let Some(prev) = now {
                        if t < prev {
                            return Err(self.error(at, format!("time goes backwards: #{t} after #{prev}")));
                        }
                    }
                    now = Some(t);
                    end_time = end_time.max(t);
                }
                b'0' | b'1' | b'x' | b'X' | b'z' | b'Z' | b'u' | b'U' | b'w' | b'W' | b'-' | b'l' | b'L' | b'h'
                | b'H' => {
                    let (_, tok) = self.token().unwrap();
                    if tok.len() < 2 {
                        return Err(self.error(at, "a scalar change needs an identifier code after the value"));
                    }
                    let t = self.need_time(now, at)?;
                    let tr = self.lookup(&tok[1..], at + 1)?;
                    self.scalar_change(tr, t, tok[0], at)?;
                }
                b'b' | b'B' => {
                    let (_, tok) = self.token().unwrap();
                    let (id_at, id) = self
                        .token()
                        .ok_or_else(|| self.error(at, "a vector change needs an identifier code"))?;
                    let t = self.need_time(now, at)?;
                    let tr = self.lookup(id, id_at)?;
                    self.vector_change(tr, t, &tok[1..], at)?;
                }
                b'r' | b'R' => {
                    let (_, tok) = self.token().unwrap();
                    let (id_at, id) =
                        self.token().ok_or_else(|| self.error(at, "a real change needs an identifier code"))?;
                    let t = self.need_time(now, at)?;
                    let tr = self.lookup(id, id_at)?;
                    let s = String::from_utf8_lossy(&tok[1..]);
                    let v: f64 = s.parse().map_err(|_| self.error(at, format!("bad real value `{s}`")))?;
                    self.real_change(tr, t, v, at)?;
                }
                b's' | b'S' => {
                    let (_, tok) = self.token().unwrap();
                    let (id_at, id) =
                        self.token().ok_or_else(|| self.error(at, "a string change needs an identifier code"))?;
                    let t = self.need_time(now, at)?;
                    let tr = self.lookup(id, id_at)?;
                    let s = String::from_utf8_lossy(&tok[1..]).into_owned();
                    self.text_change(tr, t, s, at)?;
                }
                b'$' => {
                    let (_, tok) = self.token().unwrap();
                    match tok {
                        // value blocks: their contents are ordinary changes
                        b"$dumpvars" | b"$dumpall" | b"$dumpon" | b"$dumpoff" | b"$end" => {}
                        _ => {
                            let name = String::from_utf8_lossy(tok).into_owned();
                            self.until_end(at, &name)?;
                        }
                    }
                }
                _ => {
                    let (_, tok) = self.token().unwrap();
                    return Err(self.error(
                        at,
                        format!(
                            "expected a timestamp `#N`, a value change or a `$` command, found `{}`",
                            String::from_utf8_lossy(tok)
                        ),
                    ));
                }
            }
        }
        let timescale = timescale.unwrap_or(Timescale { magnitude: 1, exponent: -9 });
        Ok(Waveform {
            file: self.file.to_string(),
            timescale,
            date,
            version,
            vars: self.vars,
            traces: self.traces,
            end_time,
        })
    }

    /// Changes before the first `#N` happen at time 0.
    fn need_time(&self, now: Option<u64>, _at: usize) -> Result<u64, Diag> {
        Ok(now.unwrap_or(0))
    }

    fn timescale(&self, at: usize, toks: &[(usize, &[u8])]) -> Result<Timescale, Diag> {
        let joined: String = toks.iter().map(|(_, t)| String::from_utf8_lossy(t).into_owned()).collect();
        let split = joined.find(|c: char| !c.is_ascii_digit()).unwrap_or(joined.len());
        let (num, unit) = joined.split_at(split);
        let magnitude = match num {
            "1" => 1,
            "10" => 10,
            "100" => 100,
            _ => 0,
        };
        match (magnitude, Timescale::exponent_of(unit.trim())) {
            (m, Some(e)) if m > 0 => Ok(Timescale { magnitude: m, exponent: e }),
            _ => Err(self.error(
                at,
                format!("bad `$timescale` `{joined}`: expected 1, 10 or 100 and one of s ms us ns ps fs"),
            )),
        }
    }

    fn var(&mut self, at: usize, toks: &[(usize, &[u8])], scope: &[String]) -> Result<(), Diag> {
        if toks.len() < 4 {
            return Err(self.error(at, "`$var` needs a type, a width, an identifier code and a name"));
        }
        let var_type = String::from_utf8_lossy(toks[0].1).into_owned();
        let width = parse_u64(toks[1].1)
            .filter(|w| (1..=1 << 24).contains(w))
            .ok_or_else(|| self.error(toks[1].0, format!("bad `$var` width `{}`", String::from_utf8_lossy(toks[1].1))))?
            as u32;
        let id = toks[2].1;
        let mut name = String::from_utf8_lossy(toks[3].1).into_owned();
        // the rest: a range/select token, possibly split (`[7:0]` or `[7` `:` `0]`)
        let rest: String = toks[4..].iter().map(|(_, t)| String::from_utf8_lossy(t).into_owned()).collect();
        let mut range = None;
        let select = if !rest.is_empty() {
            Some(rest)
        } else if let Some(open) = name.rfind('[').filter(|_| name.ends_with(']') && !name.starts_with('\\')) {
            let sel = name[open..].to_string();
            name.truncate(open);
            Some(sel)
        } else {
            None
        };
        if let Some(sel) = select {
            match parse_select(&sel) {
                Some((m, Some(l))) => range = Some((m, l)),
                Some((i, None)) => name = format!("{name}[{i}]"),
                None => return Err(self.error(toks[3].0, format!("bad bit range `{sel}` in `$var`"))),
            }
        }
        let kind = match var_type.as_str() {
            "real" | "realtime" | "shortreal" => TraceKind::Real,
            "string" => TraceKind::Text,
            _ => TraceKind::Logic,
        };
        let width = if kind == TraceKind::Logic { width } else { 64 };
        let trace = match self.find(id) {
            Some(t) => {
                if self.traces[t as usize].width != width {
                    return Err(self.error(
                        toks[2].0,
                        format!(
                            "identifier code `{}` was declared {} bits wide, now {width}",
                            String::from_utf8_lossy(id),
                            self.traces[t as usize].width
                        ),
                    ));
                }
                t as usize
            }
            None => {
                let t = self.traces.len();
                self.traces.push(Trace::new(width, kind));
                self.bind(id, t as u32);
                t
            }
        };
        let line = self.line_of(at);
        self.vars.push(Var {
            scope: scope.to_vec(),
            name,
            range,
            var_type,
            width,
            id: String::from_utf8_lossy(id).into_owned(),
            trace,
            line,
        });
        Ok(())
    }

    fn find(&self, id: &[u8]) -> Option<u32> {
        let t = match dense_code(id) {
            Some(n) if n < DENSE_LIMIT => self.dense.get(n as usize).copied().unwrap_or(NO_TRACE),
            _ => self.sparse.get(id).copied().unwrap_or(NO_TRACE),
        };
        (t != NO_TRACE).then_some(t)
    }

    fn bind(&mut self, id: &[u8], t: u32) {
        match dense_code(id) {
            Some(n) if n < DENSE_LIMIT => {
                if self.dense.len() <= n as usize {
                    self.dense.resize(n as usize + 1, NO_TRACE);
                }
                self.dense[n as usize] = t;
            }
            _ => {
                self.sparse.insert(id.to_vec(), t);
            }
        }
    }

    #[inline]
    fn lookup(&self, id: &[u8], at: usize) -> Result<usize, Diag> {
        self.find(id).map(|t| t as usize).ok_or_else(|| {
            self.error(at, format!("identifier code `{}` is not declared by any `$var`", String::from_utf8_lossy(id)))
        })
    }

    fn scalar_change(&mut self, tr: usize, t: u64, c: u8, at: usize) -> Result<(), Diag> {
        let n = self.traces[tr].words;
        if self.traces[tr].kind != TraceKind::Logic {
            return Err(self.error(at, "a scalar value for a real or string variable"));
        }
        self.scratch_bits.clear();
        self.scratch_bits.resize(n, 0);
        self.scratch_unknown.clear();
        self.scratch_unknown.resize(n, 0);
        // a scalar assigned to a vector pads like a one-digit vector value
        let pad = logic_of(c).unwrap();
        let width = self.traces[tr].width;
        set_bit(&mut self.scratch_bits, &mut self.scratch_unknown, 0, pad);
        fill_bits(&mut self.scratch_bits, &mut self.scratch_unknown, 1, width, pad_of(pad));
        self.push_scratch(tr, t, at)
    }

    /// Stores the scratch planes as a change of trace `tr`, within the
    /// memory budget.
    fn push_scratch(&mut self, tr: usize, t: u64, at: usize) -> Result<(), Diag> {
        let (bits, unknown) = (std::mem::take(&mut self.scratch_bits), std::mem::take(&mut self.scratch_unknown));
        let result = self.push_change(tr, t, &bits, &unknown, at);
        self.scratch_bits = bits;
        self.scratch_unknown = unknown;
        result
    }

    /// Stores a change of trace `tr`; an error once the values stored would
    /// exceed the memory budget.
    fn push_change(&mut self, tr: usize, t: u64, bits: &[u64], unknown: &[u64], at: usize) -> Result<(), Diag> {
        let trace = &mut self.traces[tr];
        let before = trace.planes.len();
        if self.stored_words + 2 * trace.words > self.budget_words {
            let (width, budget) = (trace.width, self.budget_words * 8 >> 20);
            return Err(self.error(
                at,
                format!("the VCD's values need more than {budget} MiB of memory (a {width}-bit variable changes often, written with few digits)"),
            ));
        }
        trace.push(t, bits, unknown);
        // push may also drop or replace a change: count what is stored now
        self.stored_words = self.stored_words - before + trace.planes.len();
        Ok(())
    }

    fn vector_change(&mut self, tr: usize, t: u64, digits: &[u8], at: usize) -> Result<(), Diag> {
        let trace = &self.traces[tr];
        if trace.kind != TraceKind::Logic {
            return Err(self.error(at, "a vector value for a real or string variable"));
        }
        let (width, n) = (trace.width, trace.words);
        if digits.is_empty() {
            return Err(self.error(at, "empty vector value"));
        }
        let mut digits = digits;
        if digits.len() > width as usize {
            // extra leading zeros are harmless; anything else does not fit
            let extra = digits.len() - width as usize;
            if digits[..extra].iter().all(|&c| c == b'0') {
                digits = &digits[extra..];
            } else {
                return Err(self.error(
                    at,
                    format!("vector value has {} bits but the variable is {width} bits wide", digits.len()),
                ));
            }
        }
        self.scratch_bits.clear();
        self.scratch_bits.resize(n, 0);
        self.scratch_unknown.clear();
        self.scratch_unknown.resize(n, 0);
        let len = digits.len();
        for (k, &c) in digits.iter().enumerate() {
            let i = (len - 1 - k) as u32;
            match c {
                b'0' => {}
                b'1' => self.scratch_bits[(i / 64) as usize] |= 1 << (i % 64),
                _ => {
                    let Some(b) = logic_of(c) else {
                        return Err(self.error(
                            at + 1 + k,
                            format!("`{}` is not a VCD bit value (0 1 x z)", c as char),
                        ));
                    };
                    set_bit(&mut self.scratch_bits, &mut self.scratch_unknown, i, b);
                }
            }
        }
        if len < width as usize {
            let pad = pad_of(logic_of(digits[0]).unwrap());
            if pad != Logic::Zero {
                fill_bits(&mut self.scratch_bits, &mut self.scratch_unknown, len as u32, width, pad);
            }
        }
        self.push_scratch(tr, t, at)
    }

    fn real_change(&mut self, tr: usize, t: u64, v: f64, at: usize) -> Result<(), Diag> {
        let n = self.traces[tr].words;
        let mut bits = vec![0u64; n];
        bits[0] = v.to_bits();
        let unknown = vec![0u64; n];
        self.push_change(tr, t, &bits, &unknown, at)
    }

    fn text_change(&mut self, tr: usize, t: u64, s: String, at: usize) -> Result<(), Diag> {
        let trace = &mut self.traces[tr];
        let idx = match self.text_index.get(&(tr, s.clone())) {
            Some(&i) => i,
            None => {
                trace.texts.push(s.clone());
                self.text_index.insert((tr, s), trace.texts.len() - 1);
                trace.texts.len() - 1
            }
        };
        let n = trace.words;
        let mut bits = vec![0u64; n];
        bits[0] = idx as u64;
        let unknown = vec![0u64; n];
        self.push_change(tr, t, &bits, &unknown, at)
    }
}

/// A VCD value character as a bit (std_logic letters folded to 0 1 x z).
fn logic_of(c: u8) -> Option<Logic> {
    Some(match c {
        b'0' | b'l' | b'L' => Logic::Zero,
        b'1' | b'h' | b'H' => Logic::One,
        b'x' | b'X' | b'u' | b'U' | b'w' | b'W' | b'-' => Logic::X,
        b'z' | b'Z' => Logic::Z,
        _ => return None,
    })
}

/// What a vector value shorter than its variable is padded with (IEEE
/// 1364 18.2.1): 0 after a leading 0 or 1, else the leading x or z.
fn pad_of(leading: Logic) -> Logic {
    match leading {
        Logic::Zero | Logic::One => Logic::Zero,
        other => other,
    }
}

/// Sets bits `from..to` to `b`, a word at a time where it can.
fn fill_bits(bits: &mut [u64], unknown: &mut [u64], from: u32, to: u32, b: Logic) {
    let (v, u) = match b {
        Logic::Zero => (0, 0),
        Logic::One => (u64::MAX, 0),
        Logic::X => (0, u64::MAX),
        Logic::Z => (u64::MAX, u64::MAX),
    };
    let mut i = from;
    while i < to {
        if i % 64 == 0 && to - i >= 64 {
            let w = (i / 64) as usize;
            bits[w] = v;
            unknown[w] = u;
            i += 64;
        } else {
            set_bit(bits, unknown, i, b);
            i += 1;
        }
    }
}

fn set_bit(bits: &mut [u64], unknown: &mut [u64], i: u32, b: Logic) {
    let (w, m) = ((i / 64) as usize, 1u64 << (i % 64));
    let (v, u) = match b {
        Logic::Zero => (false, false),
        Logic::One => (true, false),
        Logic::X => (false, true),
        Logic::Z => (true, true),
    };
    if v {
        bits[w] |= m;
    } else {
        bits[w] &= !m;
    }
    if u {
        unknown[w] |= m;
    } else {
        unknown[w] &= !m;
    }
}

fn parse_u64(s: &[u8]) -> Option<u64> {
    if s.is_empty() || !s.iter().all(|c| c.is_ascii_digit()) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// `[m:l]` -> (m, Some(l)); `[i]` -> (i, None).
fn parse_select(s: &str) -> Option<(i64, Option<i64>)> {
    let inner = s.trim().strip_prefix('[')?.strip_suffix(']')?;
    match inner.split_once(':') {
        Some((m, l)) => Some((m.trim().parse().ok()?, Some(l.trim().parse().ok()?))),
        None => Some((inner.trim().parse().ok()?, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzzing found: a 3 KB VCD setting a 16M-bit variable with
    /// one-digit values held gigabytes and took minutes (every change
    /// stored, every padded bit set one at a time).
    #[test]
    fn a_few_bytes_cannot_make_the_reader_hold_gigabytes() {
        let mut text = String::from("$scope module t $end $var wire 16777216 ! x $end $upscope $end $enddefinitions $end\n");
        for i in 0..1000 {
            text.push_str(&format!("#{i}\n{}\n", ["x!", "z!", "b1 !", "b0 !"][i % 4]));
        }
        let t = std::time::Instant::now();
        let e = Waveform::parse("wide.vcd", text.as_bytes()).unwrap_err();
        assert!(e.msg.contains("need more than 256 MiB of memory"), "{e}");
        assert!(t.elapsed().as_secs_f64() < 20.0, "{:?}", t.elapsed());
        // a few such changes are fine, and pad word by word as the standard says
        let few = "$scope module t $end $var wire 130 ! x $end $upscope $end $enddefinitions $end\n#0\nz!\n#1\nbx1 !\n#2\nb1 !\n#3\n1!\n";
        let w = Waveform::parse("few.vcd", few.as_bytes()).unwrap();
        let tr = w.trace(&w.vars[0]);
        let hex: Vec<String> = (0..tr.len()).map(|i| tr.value(i).hex()).collect();
        assert_eq!(hex[0], "z".repeat(33));
        assert_eq!(hex[1], format!("{}X", "x".repeat(32)));
        assert_eq!(hex[2], format!("{}1", "0".repeat(32)));
        assert_eq!(tr.len(), 3, "the scalar 1 equals b1: dropped");
    }

    const SMALL: &str = "$date today $end
$version hand $end
$timescale 1 ps $end
$scope module top $end
$var wire 1 ! clk $end
$var reg 8 \" data [7:0] $end
$scope begin inner $end
$var wire 4 # nib[3:0] $end
$var wire 1 $ bit [3] $end
$var real 64 % r $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
bx \"
b1 #
z$
r1.5 %
$end
#5
1!
b1010 \"
#10
0!
b1x \"
$dumpall
0!
b000000001x \"
b1 #
z$
r1.5 %
$end
#15
1!
";

    fn small() -> Waveform {
        Waveform::parse("small.vcd", SMALL.as_bytes()).unwrap()
    }

    #[test]
    fn header_scopes_ranges_and_selects() {
        let w = small();
        assert_eq!(w.timescale, Timescale::PS);
        assert_eq!(w.date.as_deref(), Some("today"));
        let paths: Vec<String> = w.vars.iter().map(|v| v.gtkwave_name()).collect();
        assert_eq!(paths, ["top.clk", "top.data[7:0]", "top.inner.nib[3:0]", "top.inner.bit[3]", "top.inner.r"]);
        assert_eq!(w.scopes(), ["", "top", "top.inner"]);
        assert_eq!(w.end_time, 15);
    }

    #[test]
    fn values_padding_x_z_and_dumpall_dedupe() {
        let w = small();
        let data = w.trace(w.var("top.data").unwrap());
        // bx pads with x; the $dumpall repeat of b1x is dropped
        assert_eq!(data.len(), 3);
        assert_eq!(data.value(0).hex(), "xx");
        assert_eq!(data.value(1).hex(), "0a");
        assert_eq!(data.value(1).to_u128(), Some(10));
        assert_eq!(data.value(2).binary(), "0000001x");
        assert_eq!(data.value(2).hex(), "0X");
        assert_eq!(data.value(2).to_u128(), None);
        let nib = w.trace(w.var("top.inner.nib").unwrap());
        assert_eq!((nib.len(), nib.value(0).hex()), (1, "1".to_string()));
        let bit = w.trace(w.var("top.inner.bit[3]").unwrap());
        assert_eq!(bit.value(0).display(), "z");
        let r = w.trace(w.var("top.inner.r").unwrap());
        assert_eq!(r.value(0).display(), "1.5");
        let clk = w.var("top.clk").unwrap();
        assert_eq!(w.rising_edges(clk), [5, 15]);
        assert_eq!(data.index_before(10), Some(1));
        assert_eq!(data.index_at(10), Some(2));
        assert_eq!(data.index_at(0), Some(0));
    }

    #[test]
    fn two_changes_at_one_time_keep_the_last() {
        let text = "$timescale 1ns $end $var wire 1 a s $end $enddefinitions $end #0 0a #5 1a 0a #7 1a";
        let w = Waveform::parse("t.vcd", text.as_bytes()).unwrap();
        let tr = w.trace(&w.vars[0]);
        assert_eq!(tr.times(), [0, 7]);
    }

    #[test]
    fn shared_codes_and_long_codes() {
        let text = "$timescale 10us $end
$scope module TOP $end $var wire 1 !! clock $end
$scope module u $end $var wire 1 !! clock $end $var wire 3 verylongcode1 st [2:0] $end $upscope $end
$upscope $end $enddefinitions $end
#0 1!! b101 verylongcode1 #1 0!!";
        let w = Waveform::parse("t.vcd", text.as_bytes()).unwrap();
        assert_eq!(w.timescale, Timescale { magnitude: 10, exponent: -6 });
        assert_eq!(w.vars[0].trace, w.vars[1].trace);
        assert_eq!(w.traces.len(), 2);
        assert_eq!(w.trace(&w.vars[2]).value(0).to_u128(), Some(5));
    }

    fn err(text: &str) -> String {
        Waveform::parse("bad.vcd", text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn errors_carry_line_and_column() {
        let head = "$timescale 1ns $end\n$var wire 2 ! a $end\n$enddefinitions $end\n";
        assert_eq!(err(&format!("{head}#0\nb1q !\n")), "bad.vcd:5:3: error: `q` is not a VCD bit value (0 1 x z)");
        assert_eq!(
            err(&format!("{head}#0\n  b11 %\n")),
            "bad.vcd:5:7: error: identifier code `%` is not declared by any `$var`"
        );
        assert_eq!(err(&format!("{head}#5\n#3\n")), "bad.vcd:5:1: error: time goes backwards: #3 after #5");
        assert_eq!(
            err(&format!("{head}#0 b111 !")),
            "bad.vcd:4:4: error: vector value has 3 bits but the variable is 2 bits wide"
        );
        assert_eq!(err("$timescale 3ns $end"), "bad.vcd:1:1: error: bad `$timescale` `3ns`: expected 1, 10 or 100 and one of s ms us ns ps fs");
        assert_eq!(err("$scope module a $end\n$enddefinitions $end"), "bad.vcd:1:1: error: `$scope` has no matching `$upscope`");
        assert_eq!(err("$var wire 1 ! a $end"), "bad.vcd:1:21: error: the VCD ends before `$enddefinitions`");
        assert_eq!(err("$var wire 1 ! a\n"), "bad.vcd:1:1: error: `$var` has no `$end`");
        assert_eq!(err("hello"), "bad.vcd:1:1: error: expected a `$` command in the VCD header, found `hello`");
        assert_eq!(err(&format!("{head}#0 q!")), "bad.vcd:4:4: error: expected a timestamp `#N`, a value change or a `$` command, found `q!`");
    }

    #[test]
    fn timescale_arithmetic() {
        assert_eq!(Timescale::NS.femtoseconds(), 1_000_000);
        assert_eq!(Timescale::common(Timescale::NS, Timescale::PS), Timescale::PS);
        let ten_ns = Timescale { magnitude: 10, exponent: -9 };
        assert_eq!(Timescale::common(ten_ns, Timescale { magnitude: 100, exponent: -12 }), Timescale { magnitude: 100, exponent: -12 });
        assert_eq!(Timescale::from_femtoseconds(10_000_000), ten_ns);
        assert_eq!(Timescale::PS.format(1250), "1250 ps");
        assert_eq!(ten_ns.format(3), "30 ns");
    }
}
