//! `wavediff`: two VCDs compared signal by signal.
//!
//! * **Matching.** Signals match by their name relative to a scope chosen
//!   in each file: `TOP.atomic_unit.mem_rd_addr` (Verilator) and
//!   `atomic_unit_tb.dut.mem_rd_addr` (an Icarus test bench) are both
//!   `mem_rd_addr` relative to `TOP.atomic_unit` / `atomic_unit_tb.dut`.
//!   The scopes are given (`scope_a`, `scope_b`) or found: the pair of
//!   scopes, one per file, under which the most relative names coincide
//!   (ties: the deeper pair, which gives the shorter names). Identifier codes play no part.
//! * **Time.** Both files' times are converted to their common unit (the
//!   finer timescale), so a 1 ns file and a 1 ps file of the same run are
//!   equal.
//! * **Without a clock**, every change time of either file is a comparison
//!   point: the first time at which the values in effect differ is the
//!   divergence. A signal with no value yet reads as all x.
//! * **With a clock**, each file is sampled at its own rising edges of the
//!   clock (cycle n = the n-th rising edge, from 0), the value being the one
//!   in effect just before the edge (what a flip-flop samples); cycle n of
//!   one file is compared with cycle n of the other, so a constant time
//!   offset between two simulators does not matter. Differing edge counts
//!   are a difference too.
//! * **Aliases.** Names that share one trace in both files (Verilator's
//!   `TOP.x` and `TOP.unit.x`) are compared and reported once, under the
//!   first name.
//! * **Selection.** `signals` globs (`*` any run of characters, `?` one)
//!   match a relative name or a full path. A selected signal present in one
//!   file only is a difference; unselected one-sided signals are listed as
//!   notes, and are differences only with `strict`.

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::reader::{Timescale, Trace, TraceKind, Value, Var, Waveform};

/// What to compare.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffOptions {
    /// globs over relative names or paths; empty: every signal
    pub signals: Vec<String>,
    /// sample on this 1-bit signal's rising edges (name relative to the
    /// scope, a full path, or a bare name found anywhere under the scope)
    pub clock: Option<String>,
    /// the scope to compare in file A (dotted path; `""` the root)
    pub scope_a: Option<String>,
    pub scope_b: Option<String>,
    /// signals found in one file only are differences, selected or not
    pub strict: bool,
}

/// How one signal differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Divergence {
    /// values differ first at `time_a` / `time_b` (common unit; equal
    /// without a clock), at `cycle` when sampled on a clock
    Value { time_a: u128, time_b: u128, cycle: Option<usize>, a: String, b: String },
    /// declared widths (or value kinds) differ
    Shape { a: String, b: String },
    /// present in one file only (`in_a`: the file that has it)
    Missing { in_a: bool },
    /// the clock has a different number of rising edges
    Edges { a: usize, b: usize },
}

/// One signal's first difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignalDiff {
    /// the relative name
    pub name: String,
    pub divergence: Divergence,
}

/// The outcome of [`diff`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffReport {
    pub file_a: String,
    pub file_b: String,
    pub scope_a: String,
    pub scope_b: String,
    /// the unit all reported times are in
    pub unit: Timescale,
    /// the clock's relative name and each file's rising-edge count
    pub clock: Option<(String, usize, usize)>,
    /// signals compared (present in both)
    pub compared: usize,
    pub diffs: Vec<SignalDiff>,
    /// unselected signals present in one file only (notes unless strict)
    pub only_a: Vec<String>,
    pub only_b: Vec<String>,
}

impl DiffReport {
    /// No difference.
    pub fn equal(&self) -> bool {
        self.diffs.is_empty()
    }
}

use atomport_core::glob::glob_match;

/// `scope` split into components (`""` is the root).
fn components(scope: &str) -> Vec<&str> {
    if scope.is_empty() {
        vec![]
    } else {
        scope.split('.').collect()
    }
}

/// The vars under `scope`, by name relative to it, in declaration order
/// (the first of several vars with one relative name). A Verilog escaped
/// identifier's backslash is dropped: `\a$b` is named `a$b`.
pub fn relative_vars<'w>(w: &'w Waveform, scope: &str) -> Vec<(String, &'w Var)> {
    let comps = components(scope);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for v in &w.vars {
        if v.scope.len() < comps.len() || v.scope.iter().zip(&comps).any(|(a, b)| a != b) {
            continue;
        }
        // escaped identifiers (`\typed_step$ready`, Icarus) match their plain
        // spelling (`typed_step$ready`, Verilator)
        let plain = |s: &str| s.strip_prefix('\\').unwrap_or(s).to_string();
        let mut rel = v.scope[comps.len()..].iter().map(|s| plain(s)).collect::<Vec<_>>().join(".");
        if !rel.is_empty() {
            rel.push('.');
        }
        rel.push_str(&plain(&v.name));
        if seen.insert(rel.clone()) {
            out.push((rel, v));
        }
    }
    out
}

/// The pair of scopes (one per file) under which the most relative names
/// coincide; ties go to the deeper pair (shorter names), then to
/// declaration order.
pub fn match_scopes(a: &Waveform, b: &Waveform) -> (String, String) {
    let names = |w: &Waveform| -> Vec<(String, HashSet<String>)> {
        w.scopes()
            .into_iter()
            .map(|s| {
                let set = relative_vars(w, &s).into_iter().map(|(n, _)| n).collect();
                (s, set)
            })
            .collect()
    };
    let (na, nb) = (names(a), names(b));
    let depth = |s: &str| components(s).len();
    let mut best: Option<(usize, usize, &str, &str)> = None;
    for (sa, seta) in &na {
        for (sb, setb) in &nb {
            let (small, big) = if seta.len() <= setb.len() { (seta, setb) } else { (setb, seta) };
            if small.len() < best.map_or(1, |b| b.0) {
                continue;
            }
            let score = small.iter().filter(|n| big.contains(*n)).count();
            let d = depth(sa) + depth(sb);
            let better = match best {
                None => score > 0,
                Some((bs, bd, _, _)) => score > bs || (score == bs && d > bd),
            };
            if better {
                best = Some((score, d, sa, sb));
            }
        }
    }
    match best {
        Some((_, _, sa, sb)) => (sa.to_string(), sb.to_string()),
        None => (String::new(), String::new()),
    }
}

/// Why two waveforms cannot be compared (or sampled).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    #[error("{file}: no clock signal `{name}`")]
    NoClock { file: String, name: String },
    #[error("{file}: clock `{path}` is {width} bits wide, not 1")]
    WideClock { file: String, path: String, width: u32 },
    #[error("{file}: no scope `{scope}`")]
    NoScope { file: String, scope: String },
    #[error("--signals `{glob}` matches no signal in {file_a} or {file_b}")]
    NoSignalMatches { glob: String, file_a: String, file_b: String },
    #[error("no signal to compare: nothing under scope `{scope_a}` of {file_a} has a namesake under scope `{scope_b}` of {file_b}")]
    NothingInCommon { scope_a: String, file_a: String, scope_b: String, file_b: String },
}

/// Finds the clock under `scope`: relative name, full path, or a bare name
/// (the shallowest var with that name).
fn find_clock<'w>(w: &'w Waveform, scope: &str, name: &str) -> Result<&'w Var, DiffError> {
    let rel = relative_vars(w, scope);
    let found = rel
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
        .or_else(|| w.var(name))
        .or_else(|| rel.iter().filter(|(_, v)| v.name == name).min_by_key(|(_, v)| v.scope.len()).map(|(_, v)| *v));
    let var = found.ok_or_else(|| DiffError::NoClock { file: w.file.clone(), name: name.to_string() })?;
    if var.width != 1 {
        return Err(DiffError::WideClock { file: w.file.clone(), path: var.path(), width: var.width });
    }
    Ok(var)
}

/// A value as Verilog-style text: `1'b0`, `8'h3x`, a real, a string, or
/// `(none)` before the first change.
pub fn value_text(v: Option<Value>) -> String {
    match v {
        None => "(none)".into(),
        Some(v) => match v.kind {
            TraceKind::Logic if v.width == 1 => format!("1'b{}", v.bit(0).as_char()),
            TraceKind::Logic => format!("{}'h{}", v.width, v.hex()),
            _ => v.display(),
        },
    }
}

/// Equal values; no value yet reads as all x.
fn same(a: Option<Value>, b: Option<Value>) -> bool {
    let all_x = |v: &Value| {
        v.kind == TraceKind::Logic
            && v.bits.iter().all(|&w| w == 0)
            && (0..v.width).all(|i| v.unknown[(i / 64) as usize] >> (i % 64) & 1 == 1)
    };
    match (a, b) {
        (Some(a), Some(b)) => a.same(&b),
        (None, None) => true,
        (Some(v), None) | (None, Some(v)) => all_x(&v),
    }
}

/// First time (common unit) where two traces differ, comparing at every
/// change time of either.
fn first_difference_in_time(ta: &Trace, sa: u128, tb: &Trace, sb: u128) -> Option<(u128, Option<usize>, Option<usize>)> {
    let (mut i, mut j) = (0usize, 0usize);
    let (mut ca, mut cb): (Option<usize>, Option<usize>) = (None, None);
    loop {
        let na = (i < ta.len()).then(|| ta.time(i) as u128 * sa);
        let nb = (j < tb.len()).then(|| tb.time(j) as u128 * sb);
        let t = match (na, nb) {
            (None, None) => return None,
            (Some(x), None) | (None, Some(x)) => x,
            (Some(x), Some(y)) => x.min(y),
        };
        while i < ta.len() && ta.time(i) as u128 * sa == t {
            ca = Some(i);
            i += 1;
        }
        while j < tb.len() && tb.time(j) as u128 * sb == t {
            cb = Some(j);
            j += 1;
        }
        if !same(ca.map(|k| ta.value(k)), cb.map(|k| tb.value(k))) {
            return Some((t, ca, cb));
        }
    }
}

/// For each edge time, the index of the change in effect just before it.
pub fn samples_before(tr: &Trace, edges: &[u64]) -> Vec<Option<usize>> {
    let mut out = Vec::with_capacity(edges.len());
    let mut k = 0usize;
    for &e in edges {
        while k < tr.len() && tr.time(k) < e {
            k += 1;
        }
        out.push(k.checked_sub(1));
    }
    out
}

/// Compares `a` and `b` (see the module doc). `Err` is bad input: a scope
/// or clock that is not there, nothing to compare.
pub fn diff(a: &Waveform, b: &Waveform, opts: &DiffOptions) -> Result<DiffReport, DiffError> {
    let (scope_a, scope_b) = match (&opts.scope_a, &opts.scope_b) {
        (Some(x), Some(y)) => (x.clone(), y.clone()),
        _ => {
            let (x, y) = match_scopes(a, b);
            (opts.scope_a.clone().unwrap_or(x), opts.scope_b.clone().unwrap_or(y))
        }
    };
    for (w, s) in [(a, &scope_a), (b, &scope_b)] {
        if !w.scopes().contains(s) {
            return Err(DiffError::NoScope { file: w.file.clone(), scope: s.clone() });
        }
    }
    let rel_a = relative_vars(a, &scope_a);
    let rel_b = relative_vars(b, &scope_b);
    let selected = |name: &str, v: &Var| {
        opts.signals.is_empty() || opts.signals.iter().any(|g| glob_match(g, name) || glob_match(g, &v.path()))
    };
    for g in &opts.signals {
        let hit = |rel: &[(String, &Var)]| rel.iter().any(|(n, v)| glob_match(g, n) || glob_match(g, &v.path()));
        if !hit(&rel_a) && !hit(&rel_b) {
            return Err(DiffError::NoSignalMatches { glob: g.clone(), file_a: a.file.clone(), file_b: b.file.clone() });
        }
    }
    let index_b: HashMap<&str, &Var> = rel_b.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let names_a: HashSet<&str> = rel_a.iter().map(|(n, _)| n.as_str()).collect();
    let unit = Timescale::common(a.timescale, b.timescale);
    let (sa, sb) = (a.timescale.femtoseconds() / unit.femtoseconds(), b.timescale.femtoseconds() / unit.femtoseconds());

    let clock = match &opts.clock {
        None => None,
        Some(name) => {
            let (ca, cb) = (find_clock(a, &scope_a, name)?, find_clock(b, &scope_b, name)?);
            Some((name.clone(), a.rising_edges(ca), b.rising_edges(cb)))
        }
    };

    let mut diffs = Vec::new();
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    let mut compared = 0;
    let mut pairs = HashSet::new();
    if let Some((name, ea, eb)) = &clock {
        if ea.len() != eb.len() {
            diffs.push(SignalDiff { name: name.clone(), divergence: Divergence::Edges { a: ea.len(), b: eb.len() } });
        }
    }
    // the clock samples the others; its own edges are compared as edge counts
    let clock_traces: Option<(usize, usize)> = match &opts.clock {
        Some(name) => Some((find_clock(a, &scope_a, name)?.trace, find_clock(b, &scope_b, name)?.trace)),
        None => None,
    };
    for (name, va) in &rel_a {
        let sel = selected(name, va);
        if clock_traces.is_some_and(|(ca, _)| ca == va.trace) {
            continue;
        }
        let Some(vb) = index_b.get(name.as_str()) else {
            if sel && (!opts.signals.is_empty() || opts.strict) {
                diffs.push(SignalDiff { name: name.clone(), divergence: Divergence::Missing { in_a: true } });
            } else if sel {
                only_a.push(name.clone());
            }
            continue;
        };
        if !sel && !selected(name, vb) {
            continue;
        }
        // aliases (one trace under several names in both files, like
        // Verilator's `TOP.x` and `TOP.unit.x`) are compared once
        if !pairs.insert((va.trace, vb.trace)) {
            continue;
        }
        compared += 1;
        let (ta, tb) = (a.trace(va), b.trace(vb));
        if ta.width != tb.width || ta.kind != tb.kind {
            let shape = |t: &Trace| match t.kind {
                TraceKind::Logic => format!("{} bits", t.width),
                TraceKind::Real => "real".into(),
                TraceKind::Text => "string".into(),
            };
            diffs.push(SignalDiff { name: name.clone(), divergence: Divergence::Shape { a: shape(ta), b: shape(tb) } });
            continue;
        }
        let divergence = match &clock {
            None => first_difference_in_time(ta, sa, tb, sb).map(|(t, ia, ib)| Divergence::Value {
                time_a: t,
                time_b: t,
                cycle: None,
                a: value_text(ia.map(|k| ta.value(k))),
                b: value_text(ib.map(|k| tb.value(k))),
            }),
            Some((_, ea, eb)) => {
                let n = ea.len().min(eb.len());
                let (xa, xb) = (samples_before(ta, &ea[..n]), samples_before(tb, &eb[..n]));
                (0..n)
                    .find(|&c| !same(xa[c].map(|k| ta.value(k)), xb[c].map(|k| tb.value(k))))
                    .map(|c| Divergence::Value {
                        time_a: ea[c] as u128 * sa,
                        time_b: eb[c] as u128 * sb,
                        cycle: Some(c),
                        a: value_text(xa[c].map(|k| ta.value(k))),
                        b: value_text(xb[c].map(|k| tb.value(k))),
                    })
            }
        };
        if let Some(divergence) = divergence {
            diffs.push(SignalDiff { name: name.clone(), divergence });
        }
    }
    for (name, vb) in &rel_b {
        if names_a.contains(name.as_str()) || !selected(name, vb) || clock_traces.is_some_and(|(_, cb)| cb == vb.trace) {
            continue;
        }
        if !opts.signals.is_empty() || opts.strict {
            diffs.push(SignalDiff { name: name.clone(), divergence: Divergence::Missing { in_a: false } });
        } else {
            only_b.push(name.clone());
        }
    }
    if compared == 0 && diffs.is_empty() {
        return Err(DiffError::NothingInCommon { scope_a, file_a: a.file.clone(), scope_b, file_b: b.file.clone() });
    }
    Ok(DiffReport {
        file_a: a.file.clone(),
        file_b: b.file.clone(),
        scope_a,
        scope_b,
        unit,
        clock: clock.map(|(n, ea, eb)| (n, ea.len(), eb.len())),
        compared,
        diffs,
        only_a,
        only_b,
    })
}

impl fmt::Display for SignalDiff {
    /// One line; times need the report's unit, so this shows raw counts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {:?}", self.name, self.divergence)
    }
}

/// Hex digits of a value shown in full; wider values are shown around
/// their first differing digit.
pub const FULL_HEX_DIGITS: usize = 32;
/// Digits kept before the first differing digit of a wide value.
const CONTEXT_DIGITS: usize = 4;

/// Two `W'hDIGITS` values of one width as a report shows them: in full up
/// to [`FULL_HEX_DIGITS`] digits; wider (a 4,096-bit bus is 1,024 digits),
/// only the digits from a few before the first differing one to
/// [`FULL_HEX_DIGITS`] on, `…` standing for the equal digits left out,
/// plus a note naming the first differing bit range.
pub fn compact_pair(a: &str, b: &str) -> (String, String, String) {
    let split = |v: &str| v.split_once("'h").map(|(w, d)| (w.to_string(), d.chars().collect::<Vec<char>>()));
    let (Some((wa, da)), Some((wb, db))) = (split(a), split(b)) else {
        return (a.to_string(), b.to_string(), String::new());
    };
    if wa != wb || da.len() != db.len() || da.len() <= FULL_HEX_DIGITS {
        return (a.to_string(), b.to_string(), String::new());
    }
    let n = da.len();
    let first = (0..n).find(|&i| da[i] != db[i]).unwrap_or(0);
    let start = first.saturating_sub(CONTEXT_DIGITS);
    let end = (start + FULL_HEX_DIGITS).min(n);
    let show = |d: &[char]| {
        let mut s = format!("{wa}'h");
        if start > 0 {
            s.push('…');
        }
        s.extend(&d[start..end]);
        if end < n {
            s.push('…');
        }
        s
    };
    // digit i (from the most significant) holds bits 4*(n-1-i)+3 .. 4*(n-1-i)
    let low = 4 * (n - 1 - first);
    let high = (low + 3).min(wa.parse::<usize>().unwrap_or(usize::MAX).saturating_sub(1));
    (show(&da), show(&db), format!(" (first differing digit: bits {high}..{low}; {} of {n} hex digits shown)", end - start))
}

impl DiffReport {
    /// One line per difference, e.g.
    /// `mem_rd_addr: first difference at 125 ns (cycle 12): a.vcd 64'h...40, b.vcd 64'h...50`.
    pub fn lines(&self) -> Vec<String> {
        let (fa, fb) = (&self.file_a, &self.file_b);
        self.diffs
            .iter()
            .map(|d| match &d.divergence {
                Divergence::Value { time_a, time_b, cycle, a, b } => {
                    let when = if time_a == time_b {
                        format!("at {}", self.unit.format(*time_a))
                    } else {
                        format!("at {} in {fa}, {} in {fb}", self.unit.format(*time_a), self.unit.format(*time_b))
                    };
                    let cycle = cycle.map_or(String::new(), |c| format!(" (cycle {c})"));
                    let (a, b, note) = compact_pair(a, b);
                    format!("{}: first difference {when}{cycle}: {fa} {a}, {fb} {b}{note}", d.name)
                }
                Divergence::Shape { a, b } => format!("{}: {fa} has {a}, {fb} has {b}", d.name),
                Divergence::Missing { in_a } => {
                    let (has, lacks) = if *in_a { (fa, fb) } else { (fb, fa) };
                    format!("{}: only in {has} (not in {lacks})", d.name)
                }
                Divergence::Edges { a, b } => {
                    format!("{}: {a} rising edges in {fa}, {b} in {fb} (compared the first {})", d.name, a.min(b))
                }
            })
            .collect()
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        let clock = match &self.clock {
            Some((c, a, _)) => format!(", sampled on `{c}` ({a} cycles)"),
            None => String::new(),
        };
        let scopes = format!("scope `{}` vs `{}`", self.scope_a, self.scope_b);
        if self.equal() {
            format!("wavediff: equal: {} signals compared{clock}, {scopes}", self.compared)
        } else {
            format!("wavediff: {} of {} signals differ{clock}, {scopes}", self.diffs.len(), self.compared.max(self.diffs.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wave(text: &str) -> Waveform {
        Waveform::parse("x.vcd", text.as_bytes()).unwrap()
    }

    #[test]
    fn scopes_are_matched_by_most_common_names() {
        let a = wave(
            "$scope module TOP $end $var wire 1 ! clock $end
             $scope module atomic_unit $end $var wire 1 ! clock $end $var wire 4 \" st [3:0] $end
             $scope module alu $end $var wire 4 # old [3:0] $end $upscope $end
             $upscope $end $upscope $end $enddefinitions $end",
        );
        let b = wave(
            "$scope module tb $end $var reg 1 a clock $end
             $scope module dut $end $var wire 1 a clock $end $var wire 4 b st [3:0] $end
             $scope module alu $end $var wire 4 c old [3:0] $end $upscope $end
             $upscope $end $upscope $end $enddefinitions $end",
        );
        assert_eq!(match_scopes(&a, &b), ("TOP.atomic_unit".to_string(), "tb.dut".to_string()));
        assert_eq!(match_scopes(&a, &a), ("TOP".to_string(), "TOP".to_string()));
    }

    #[test]
    fn difference_in_time_and_on_clock() {
        let head = "$timescale 1ns $end $scope module t $end $var wire 1 ! clk $end $var wire 8 \" d [7:0] $end $upscope $end $enddefinitions $end\n";
        let a = wave(&format!("{head}#0 0! b0 \" #5 1! #10 0! b1 \" #15 1! #20 0! b10 \" #25 1!"));
        // b: ps, the change of d at 20 ns comes at 22 ns (between edges: invisible to the clock)
        let headp = head.replace("1ns", "1ps");
        let b = wave(&format!("{headp}#0 0! b0 \" #5000 1! #10000 0! b1 \" #15000 1! #20000 0! #22000 b10 \" #25000 1!"));
        let r = diff(&a, &b, &DiffOptions::default()).unwrap();
        assert_eq!(r.unit, Timescale::PS);
        assert_eq!(r.diffs.len(), 1);
        assert_eq!(
            r.diffs[0].divergence,
            Divergence::Value { time_a: 20_000, time_b: 20_000, cycle: None, a: "8'h02".into(), b: "8'h01".into() }
        );
        assert_eq!(r.lines()[0], "d: first difference at 20000 ps: x.vcd 8'h02, x.vcd 8'h01");
        let on_clock = DiffOptions { clock: Some("clk".into()), ..Default::default() };
        let r = diff(&a, &b, &on_clock).unwrap();
        assert!(r.equal(), "{:?}", r.diffs);
        assert_eq!(r.clock, Some(("clk".to_string(), 3, 3)));
        // a real difference at cycle 1 (the value sampled at the edge at 15 ns)
        let c = wave(&format!("{head}#0 0! b0 \" #5 1! #10 0! b11 \" #15 1! #20 0! b10 \" #25 1!"));
        let r = diff(&a, &c, &on_clock).unwrap();
        assert_eq!(
            r.diffs[0].divergence,
            Divergence::Value { time_a: 15, time_b: 15, cycle: Some(1), a: "8'h01".into(), b: "8'h03".into() }
        );
    }

    #[test]
    fn wide_values_are_shown_around_their_first_difference_and_the_clock_is_not_a_signal() {
        let zeros = "0".repeat(1024);
        let mut other = zeros.clone().into_bytes();
        other[1000] = b'5';
        let other = String::from_utf8(other).unwrap();
        let (a, b, note) = compact_pair(&format!("4096'h{zeros}"), &format!("4096'h{other}"));
        // from 4 digits before the first difference to the end (28 digits)
        assert_eq!(a, format!("4096'h…{}", "0".repeat(28)));
        assert_eq!(b, format!("4096'h…00005{}", "0".repeat(23)));
        assert_eq!(note, " (first differing digit: bits 95..92; 28 of 1024 hex digits shown)");
        assert_eq!(compact_pair("8'h02", "8'h01"), ("8'h02".into(), "8'h01".into(), String::new()));
        let head = "$timescale 1ns $end $scope module t $end $var wire 1 ! clk $end $var wire 8 \" d [7:0] $end $upscope $end $enddefinitions $end\n";
        let a = wave(&format!("{head}#0 0! b0 \" #5 1! #10 0! #15 1!"));
        let r = diff(&a, &a, &DiffOptions { clock: Some("clk".into()), ..Default::default() }).unwrap();
        assert_eq!(r.compared, 1, "only d: the clock samples, it is not compared");
    }

    #[test]
    fn selection_missing_and_bad_input() {
        let a = wave("$scope module t $end $var wire 1 ! x $end $var wire 1 \" y $end $upscope $end $enddefinitions $end #0 0! 0\"");
        let b = wave("$scope module t $end $var wire 1 ! x $end $upscope $end $enddefinitions $end #0 0!");
        let r = diff(&a, &b, &DiffOptions::default()).unwrap();
        assert!(r.equal());
        assert_eq!(r.only_a, ["y"]);
        let strict = DiffOptions { strict: true, ..Default::default() };
        assert_eq!(diff(&a, &b, &strict).unwrap().diffs[0].divergence, Divergence::Missing { in_a: true });
        let sel = DiffOptions { signals: vec!["y".into()], ..Default::default() };
        let r = diff(&a, &b, &sel).unwrap();
        assert_eq!(r.lines(), ["y: only in x.vcd (not in x.vcd)"]);
        let sel = DiffOptions { signals: vec!["nope*".into()], ..Default::default() };
        assert!(diff(&a, &b, &sel).unwrap_err().to_string().contains("matches no signal"));
        let none = wave("$scope module u $end $var wire 1 ! z $end $upscope $end $enddefinitions $end");
        assert!(diff(&a, &none, &DiffOptions::default()).unwrap_err().to_string().contains("no signal to compare"));
        let clk = DiffOptions { clock: Some("clk".into()), ..Default::default() };
        assert!(diff(&a, &b, &clk).unwrap_err().to_string().contains("no clock signal `clk`"));
    }
}
