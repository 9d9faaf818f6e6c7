//! The VCD writer: the golden waveform and re-encoded copies of a
//! [`Waveform`] (another timescale, other identifier codes, `$dumpall`
//! checkpoints) go through it. Every line is written by the `vcd` crate's
//! [`vcd::Writer`]; this module adds what the waveform tools need on top:
//! identifier codes chosen by the caller (a re-encoded copy numbers them
//! from another start), leading-zero compression of vectors (as
//! simulators write them), and four-state values from the reader's bit
//! planes.

use std::io::{self, Write};

use vcd::{IdCode, ReferenceIndex, ScopeType, SimulationCommand, TimescaleUnit, VarType};

use super::reader::{Logic, Timescale, Trace, TraceKind, Value, Waveform};

/// A declared signal: its identifier code and width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignalId {
    pub code: String,
    pub width: u32,
}

/// The identifier code of the `n`-th signal: bijective base 94 over
/// `!`..`~` (`!`, `"`, ..., `~`, `!!`, `!"`, ...), the codes simulators use.
pub fn id_code(mut n: u64) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'!' + (n % 94) as u8);
        n /= 94;
        if n == 0 {
            break;
        }
        n -= 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap()
}

fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, e.to_string())
}

/// Writes a VCD: header (scopes, vars), then timestamps and changes. The
/// `vcd` crate formats each command into a line buffer that goes to `out`
/// (the crate's writer cannot hand its output back, and [`VcdWriter::finish`]
/// does).
pub struct VcdWriter<W: Write> {
    out: W,
    vcd: vcd::Writer<Vec<u8>>,
    next_id: u64,
    time: Option<u64>,
}

impl<W: Write> VcdWriter<W> {
    /// Starts a VCD with `$version` and `$timescale` (no `$date`: equal
    /// inputs give byte-identical files).
    pub fn new(out: W, timescale: Timescale, version: &str) -> io::Result<Self> {
        let unit = match timescale.exponent {
            0 => TimescaleUnit::S,
            -3 => TimescaleUnit::MS,
            -6 => TimescaleUnit::US,
            -9 => TimescaleUnit::NS,
            -12 => TimescaleUnit::PS,
            -15 => TimescaleUnit::FS,
            e => return Err(invalid(format!("timescale exponent {e} has no VCD unit"))),
        };
        let mut w = VcdWriter { out, vcd: vcd::Writer::new(Vec::new()), next_id: 0, time: None };
        w.vcd.version(version)?;
        w.vcd.timescale(timescale.magnitude, unit)?;
        w.drain()?;
        Ok(w)
    }

    /// Moves what the `vcd` writer formatted to the output.
    fn drain(&mut self) -> io::Result<()> {
        let buf = self.vcd.writer();
        self.out.write_all(buf)?;
        buf.clear();
        Ok(())
    }

    /// Numbers identifier codes from `n` on (another file's codes for the
    /// same signals; see [`id_code`]).
    pub fn first_id(mut self, n: u64) -> Self {
        self.next_id = n;
        self
    }

    /// `$comment`.
    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        self.vcd.comment(text)?;
        self.drain()
    }

    /// Opens `$scope module NAME`.
    pub fn scope(&mut self, name: &str) -> io::Result<()> {
        self.vcd.scope_def(ScopeType::Module, name)?;
        self.drain()
    }

    /// Closes the innermost scope.
    pub fn upscope(&mut self) -> io::Result<()> {
        self.vcd.upscope()?;
        self.drain()
    }

    /// Declares a `wire` of `width` bits (`name [w-1:0]` when wider than 1).
    pub fn wire(&mut self, name: &str, width: u32) -> io::Result<SignalId> {
        let range = (width > 1).then(|| (width as i64 - 1, 0));
        self.var("wire", name, width, range)
    }

    /// Declares a var with an explicit type and range.
    pub fn var(&mut self, var_type: &str, name: &str, width: u32, range: Option<(i64, i64)>) -> io::Result<SignalId> {
        let code = id_code(self.next_id);
        self.next_id += 1;
        self.alias(var_type, name, width, range, &code)?;
        Ok(SignalId { code, width })
    }

    /// Declares a var that shares an existing identifier code.
    pub fn alias(&mut self, var_type: &str, name: &str, width: u32, range: Option<(i64, i64)>, code: &str) -> io::Result<()> {
        // the `vcd` crate knows the IEEE 1364 var types; SystemVerilog's
        // (`logic`, `bit`, ...) that a reader may bring are written as `wire`
        let var_type: VarType = var_type.parse().unwrap_or(VarType::Wire);
        let id: IdCode = code.parse().map_err(invalid)?;
        let index = match range {
            Some((m, l)) => {
                let bound = |b: i64| i32::try_from(b).map_err(|_| invalid(format!("range bound {b} of `{name}`")));
                Some(ReferenceIndex::Range(bound(m)?, bound(l)?))
            }
            None => None,
        };
        self.vcd.var_def(var_type, width, id, name, index)?;
        self.drain()
    }

    /// Ends the header.
    pub fn enddefinitions(&mut self) -> io::Result<()> {
        self.vcd.enddefinitions()?;
        self.drain()
    }

    /// Writes `#t` (once per distinct time).
    pub fn time(&mut self, t: u64) -> io::Result<()> {
        if self.time != Some(t) {
            self.vcd.timestamp(t)?;
            self.time = Some(t);
            self.drain()?;
        }
        Ok(())
    }

    /// `$dumpall` ... [`VcdWriter::end`]: a checkpoint of every value.
    pub fn dumpall(&mut self) -> io::Result<()> {
        self.vcd.begin(SimulationCommand::Dumpall)?;
        self.drain()
    }

    /// `$end` of a simulation command.
    pub fn end(&mut self) -> io::Result<()> {
        self.vcd.end()?;
        self.drain()
    }

    /// A known value (the low `width` bits of `v`).
    pub fn change(&mut self, sig: &SignalId, v: u128) -> io::Result<()> {
        let v = if sig.width >= 128 { v } else { v & ((1u128 << sig.width) - 1) };
        let words = [v as u64, (v >> 64) as u64];
        let n = (sig.width as usize).div_ceil(64);
        let mut bits = vec![0u64; n];
        for (i, b) in bits.iter_mut().enumerate() {
            *b = words.get(i).copied().unwrap_or(0);
        }
        self.change_planes(&sig.code, sig.width, &bits, &vec![0u64; n])
    }

    /// A four-state value given as value and unknown planes.
    pub fn change_planes(&mut self, code: &str, width: u32, bits: &[u64], unknown: &[u64]) -> io::Result<()> {
        let id: IdCode = code.parse().map_err(invalid)?;
        let bit = |i: u32| {
            let (w, b) = ((i / 64) as usize, i % 64);
            match (bits[w] >> b & 1, unknown[w] >> b & 1) {
                (0, 0) => vcd::Value::V0,
                (1, 0) => vcd::Value::V1,
                (0, _) => vcd::Value::X,
                _ => vcd::Value::Z,
            }
        };
        if width == 1 {
            self.vcd.change_scalar(id, bit(0))?;
        } else {
            // leading zeros dropped (the reader pads with 0), but one kept
            // before an x or z, which would otherwise pad with x or z
            let mut top = width;
            while top > 1 && bit(top - 1) == vcd::Value::V0 {
                top -= 1;
            }
            let keep_zero = top < width && matches!(bit(top - 1), vcd::Value::X | vcd::Value::Z);
            let values = keep_zero.then_some(vcd::Value::V0).into_iter().chain((0..top).rev().map(bit));
            self.vcd.change_vector(id, values)?;
        }
        self.drain()
    }

    /// A value read from another trace.
    pub fn change_value(&mut self, code: &str, v: &Value) -> io::Result<()> {
        match v.kind {
            TraceKind::Logic => return self.change_planes(code, v.width, v.bits, v.unknown),
            TraceKind::Real => self.vcd.change_real(code.parse().map_err(invalid)?, f64::from_bits(v.bits[0]))?,
            TraceKind::Text => self.vcd.change_string(code.parse().map_err(invalid)?, &v.display())?,
        }
        self.drain()
    }

    /// Flushes and returns the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.drain()?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// How [`rewrite`] re-encodes a waveform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    /// the new timescale; it must divide the old one (times are scaled exactly)
    pub timescale: Timescale,
    /// the first identifier code number (see [`id_code`])
    pub first_id: u64,
    /// prefix every var's scope with these scopes (e.g. a test bench and
    /// an instance name) after dropping `drop_scopes` leading scopes
    pub add_scopes: Vec<String>,
    pub drop_scopes: usize,
    /// write a `$dumpall` of every signal at each multiple of this many
    /// (old) time units
    pub dumpall_every: Option<u64>,
    /// keep only the vars of these traces (None: all)
    pub keep: Option<std::collections::BTreeSet<usize>>,
    /// a `$comment` for the header
    pub comment: Option<String>,
}

impl Default for Rewrite {
    /// The same timescale (1 ns), codes from `!`, scopes as they are.
    fn default() -> Self {
        Rewrite {
            timescale: Timescale::NS,
            first_id: 0,
            add_scopes: Vec::new(),
            drop_scopes: 0,
            dumpall_every: None,
            keep: None,
            comment: None,
        }
    }
}

/// Writes `w` again as VCD text under other identifier codes, another
/// timescale and other top scopes: a file that [`super::diff`] must find
/// equal to the original.
pub fn rewrite<W: Write>(w: &Waveform, out: W, how: &Rewrite) -> io::Result<W> {
    let (old, new) = (w.timescale.femtoseconds(), how.timescale.femtoseconds());
    if new == 0 || old % new != 0 {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "the new timescale must divide the old one"));
    }
    let scale = (old / new) as u64;
    let mut vw = VcdWriter::new(out, how.timescale, "atomport wave rewrite")?.first_id(how.first_id);
    if let Some(c) = &how.comment {
        vw.comment(c)?;
    }
    // one code per trace, in trace order
    let mut codes: Vec<Option<String>> = vec![None; w.traces.len()];
    let mut open: Vec<String> = Vec::new();
    for v in w.vars.iter().filter(|v| how.keep.as_ref().is_none_or(|k| k.contains(&v.trace))) {
        let mut scope: Vec<String> = how.add_scopes.clone();
        scope.extend(v.scope.iter().skip(how.drop_scopes).cloned());
        let common = open.iter().zip(&scope).take_while(|(a, b)| a == b).count();
        while open.len() > common {
            vw.upscope()?;
            open.pop();
        }
        for s in &scope[common..] {
            vw.scope(s)?;
            open.push(s.clone());
        }
        match &codes[v.trace] {
            Some(code) => vw.alias(&v.var_type, &v.name, v.width, v.range, code)?,
            None => {
                let id = vw.var(&v.var_type, &v.name, v.width, v.range)?;
                codes[v.trace] = Some(id.code);
            }
        }
    }
    while open.pop().is_some() {
        vw.upscope()?;
    }
    vw.enddefinitions()?;
    // merge all traces' changes in time order
    let mut events: Vec<(u64, usize, usize)> = Vec::new();
    for (t, tr) in w.traces.iter().enumerate() {
        if codes[t].is_some() {
            events.extend((0..tr.len()).map(|i| (tr.time(i), t, i)));
        }
    }
    events.sort_unstable();
    let mut next_dumpall = how.dumpall_every;
    let dumpall = |vw: &mut VcdWriter<W>, at: u64| -> io::Result<()> {
        vw.dumpall()?;
        for (t, tr) in w.traces.iter().enumerate() {
            if let (Some(code), Some(i)) = (&codes[t], tr.index_before(at)) {
                vw.change_value(code, &tr.value(i))?;
            }
        }
        vw.end()
    };
    for (time, t, i) in events {
        while let Some(d) = next_dumpall.filter(|&d| d <= time && d > 0) {
            vw.time(d * scale)?;
            dumpall(&mut vw, d)?;
            next_dumpall = Some(d + how.dumpall_every.unwrap());
        }
        vw.time(time * scale)?;
        vw.change_value(codes[t].as_ref().unwrap(), &w.traces[t].value(i))?;
    }
    if w.end_time > 0 {
        vw.time(w.end_time * scale)?;
    }
    vw.finish()
}

/// Every bit of a trace's value at change `i` as characters (for tests).
pub fn bits_of(tr: &Trace, i: usize) -> String {
    let v = tr.value(i);
    (0..v.width).rev().map(|k| v.bit(k)).map(Logic::as_char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_codes_are_distinct_and_printable() {
        assert_eq!(id_code(0), "!");
        assert_eq!(id_code(93), "~");
        assert_eq!(id_code(94), "!!");
        let codes: std::collections::HashSet<String> = (0..20_000).map(id_code).collect();
        assert_eq!(codes.len(), 20_000);
        assert!(codes.iter().all(|c| c.bytes().all(|b| (b'!'..=b'~').contains(&b))));
    }

    #[test]
    fn written_values_read_back() {
        let mut w = VcdWriter::new(Vec::new(), Timescale::NS, "test").unwrap();
        w.scope("t").unwrap();
        let a = w.wire("a", 1).unwrap();
        let b = w.wire("b", 70).unwrap();
        w.upscope().unwrap();
        w.enddefinitions().unwrap();
        w.time(0).unwrap();
        w.change(&a, 1).unwrap();
        w.change(&b, 5 | 1 << 69).unwrap();
        w.time(10).unwrap();
        // x in bit 1, zeros above: must not pad with x
        w.change_planes(&b.code, 70, &[0, 0], &[2, 0]).unwrap();
        let text = w.finish().unwrap();
        let wf = Waveform::parse("w.vcd", &text).unwrap();
        let tb = wf.trace(wf.var("t.b").unwrap());
        assert_eq!(tb.value(0).to_u128(), Some(5 | 1 << 69));
        assert_eq!(bits_of(tb, 1), format!("{}x0", "0".repeat(68)));
    }
}
