//! FST waveforms (GTKWave's compressed format, what `atomport run --fst`
//! and `regress --fst` write through Verilator's FST tracing), read with
//! `wellen` (the reader behind the Surfer viewer) into the same
//! [`Waveform`] the VCD reader builds, so `wavediff`, `wavecheck` and
//! `wave render` take either format. [`Waveform::read`] and
//! [`Waveform::from_bytes`], which tell the two apart, are here, above
//! both readers.
//!
//! VCD stays with the project's own reader ([`crate::reader`]): it reports
//! malformed input as `FILE:LINE:COL: error: ...` (wellen reports no
//! position), and it is the reader the fuzz corpus exercises. FST is a
//! binary format a simulator writes, so the only errors are "not an FST" or
//! a damaged file, and wellen's messages serve.

use std::collections::HashMap;
use std::path::Path;

use atomport_core::diag::Diag;
use wellen::{SignalValueRef, TimescaleUnit};

use crate::reader::{Timescale, Trace, TraceKind, Var, Waveform};

impl Waveform {
    /// Reads the waveform at `path`: FST (told by its first byte; wellen) or
    /// VCD ([`Waveform::parse`]).
    pub fn read(path: impl AsRef<Path>) -> Result<Waveform, Diag> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let text = std::fs::read(path).map_err(|e| Diag::new(&name, 1, 1, format!("cannot read the waveform: {e}")))?;
        if is_fst(&text) {
            return parse_fst(&name, text);
        }
        Waveform::parse(&name, &text)
    }

    /// A waveform file's bytes: FST (told by its first byte; wellen) or VCD
    /// text ([`Waveform::parse`]); `file` names it in diagnostics.
    pub fn from_bytes(file: &str, bytes: Vec<u8>) -> Result<Waveform, Diag> {
        if is_fst(&bytes) {
            return parse_fst(file, bytes);
        }
        Waveform::parse(file, &bytes)
    }
}

/// Whether `bytes` (the start of a file) is an FST: its first block is a
/// header block (type 0). VCD is text and never starts with a NUL byte.
pub fn is_fst(bytes: &[u8]) -> bool {
    bytes.first() == Some(&0)
}

/// wellen's options: one thread, so that a panic stays on the calling
/// thread, where [`contain_reader_panic`] catches it.
const LOAD_OPTIONS: wellen::LoadOptions = wellen::LoadOptions { multi_thread: false, remove_scopes_with_empty_name: false };

/// Reads the FST at `path`; `name` names it in diagnostics.
pub fn read_fst(path: &Path, name: &str) -> Result<Waveform, Diag> {
    let bytes = std::fs::read(path).map_err(|e| Diag::new(name, 1, 1, format!("cannot read the waveform: {e}")))?;
    check_sizes(&bytes).map_err(|e| damaged(name, &e))?;
    contain_reader_panic(name, || convert(wellen::simple::read_with_options(path, &LOAD_OPTIONS), name))
}

/// Reads an FST held in memory (standard input); `name` names it in diagnostics.
pub fn parse_fst(name: &str, bytes: Vec<u8>) -> Result<Waveform, Diag> {
    check_sizes(&bytes).map_err(|e| damaged(name, &e))?;
    // (wellen's FST reader runs on the calling thread whatever the options)
    contain_reader_panic(name, || convert(wellen::simple::read_from_reader(std::io::Cursor::new(bytes)), name))
}

fn damaged(name: &str, why: &str) -> Diag {
    Diag::new(name, 1, 1, format!("cannot read the FST: the file is damaged ({why})"))
}

/// The most a zlib stream inflates (deflate's limit is 1032:1); LZ4's is
/// 255:1. A size field past these cannot be the file's.
const ZLIB_RATIO: u64 = 1032;
const LZ4_RATIO: u64 = 255;

/// The size fields of an FST that its reader (fst-reader, under wellen)
/// allocates by before it has read the data behind them, checked against
/// the file's own size: a damaged or hostile file could otherwise ask for
/// gigabytes, which ends the process (an allocation failure is an abort,
/// not a panic to contain). Blocks must lie inside the file; counts must
/// fit in the bytes that hold them; compressed lengths must fit their
/// block and uncompressed ones the compression's ratio.
pub fn check_sizes(bytes: &[u8]) -> Result<(), String> {
    let file = bytes.len() as u64;
    let u64_at = |at: u64| -> Result<u64, String> {
        let at = usize::try_from(at).map_err(|_| "an offset past the end".to_string())?;
        bytes
            .get(at..at.saturating_add(8))
            .map(|b| u64::from_be_bytes(b.try_into().unwrap()))
            .ok_or_else(|| format!("a field at byte {at} past the end of the file"))
    };
    let varint_at = |at: u64| -> Result<(u64, u64), String> {
        let mut v = 0u64;
        for i in 0..10u64 {
            let b = *bytes.get(usize::try_from(at + i).unwrap_or(usize::MAX)).ok_or_else(|| format!("a number at byte {at} past the end of the file"))?;
            v |= ((b & 0x7f) as u64).checked_shl(7 * i as u32).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok((v, i + 1));
            }
        }
        Err(format!("a number at byte {at} longer than 64 bits"))
    };
    let inflated = |what: &str, uncompressed: u64, compressed: u64, ratio: u64| -> Result<(), String> {
        if uncompressed != compressed && uncompressed > compressed.saturating_mul(ratio).saturating_add(64) {
            return Err(format!("{what}: {uncompressed} bytes cannot come from {compressed} compressed ones"));
        }
        Ok(())
    };
    // signals: each has at least one byte in the geometry block
    let mut signals: Option<u64> = None;
    let mut at = 0u64;
    while at < file {
        let kind = bytes[at as usize];
        if at + 9 > file {
            break;
        }
        let len = u64_at(at + 1)?;
        let start = at + 1;
        if kind == 255 && len == 0 {
            break;
        }
        if len < 8 || len > file - start {
            return Err(format!("block {kind} at byte {at}: length {len} runs past the end of the file ({file} bytes)"));
        }
        let end = start + len;
        match kind {
            0 => {
                for (field, what) in [(start + 40, "scopes"), (start + 48, "variables"), (start + 56, "variable ids")] {
                    let n = u64_at(field)?;
                    // a scope or variable takes at least a few bytes of (compressed) hierarchy
                    if n > file.saturating_mul(ZLIB_RATIO) {
                        return Err(format!("the header counts {n} {what} in a file of {file} bytes"));
                    }
                }
            }
            1 | 5 | 8 => {
                // the time table: its three sizes end the block
                if len < 8 + 24 + 24 {
                    return Err(format!("value-change block at byte {at}: {len} bytes is too short"));
                }
                let uncompressed = u64_at(end - 24)?;
                let compressed = u64_at(end - 16)?;
                let items = u64_at(end - 8)?;
                if compressed > len - 24 - 32 {
                    return Err(format!("time table at byte {at}: {compressed} compressed bytes in a {len}-byte block"));
                }
                inflated("time table", uncompressed, compressed, ZLIB_RATIO)?;
                if items > uncompressed {
                    return Err(format!("time table at byte {at}: {items} times in {uncompressed} bytes"));
                }
                // the frame (every signal's value at the block's start)
                let frame = start + 32;
                let (f_uncompressed, n1) = varint_at(frame)?;
                let (f_compressed, n2) = varint_at(frame + n1)?;
                let (f_handles, n3) = varint_at(frame + n1 + n2)?;
                if f_compressed > end.saturating_sub(frame + n1 + n2 + n3) {
                    return Err(format!("frame at byte {frame}: {f_compressed} compressed bytes past its block"));
                }
                inflated("frame", f_uncompressed, f_compressed, ZLIB_RATIO)?;
                let vc = frame + n1 + n2 + n3 + f_compressed;
                let (vc_handles, _) = varint_at(vc)?;
                for n in [f_handles, vc_handles] {
                    if signals.is_some_and(|s| n > s) || n > file.saturating_mul(ZLIB_RATIO) {
                        return Err(format!("value-change block at byte {at}: {n} signals, more than the file declares"));
                    }
                }
                // the chain of signal offsets, just before the time table
                let chain_len_at = (end - 24).checked_sub(compressed + 8).ok_or_else(|| format!("value-change block at byte {at}: no room for its chain"))?;
                let chain = u64_at(chain_len_at)?;
                if chain > chain_len_at.saturating_sub(vc) {
                    return Err(format!("value-change block at byte {at}: a chain of {chain} bytes past its block"));
                }
            }
            2 => {
                let (count, _) = varint_at(start + 8)?;
                if count > len {
                    return Err(format!("blackout block at byte {at}: {count} entries in {len} bytes"));
                }
            }
            3 => {
                if len < 24 {
                    return Err(format!("geometry block at byte {at}: {len} bytes is too short"));
                }
                let uncompressed = u64_at(start + 8)?;
                let handles = u64_at(start + 16)?;
                inflated("geometry", uncompressed, len - 24, ZLIB_RATIO)?;
                if handles > uncompressed {
                    return Err(format!("geometry block at byte {at}: {handles} signals in {uncompressed} bytes"));
                }
                signals = Some(handles);
            }
            4 | 6 | 7 => {
                if len < 16 {
                    return Err(format!("hierarchy block at byte {at}: {len} bytes is too short"));
                }
                let uncompressed = u64_at(start + 8)?;
                let compressed = len - 16;
                if kind == 4 {
                    inflated("hierarchy", uncompressed, compressed, ZLIB_RATIO)?;
                } else if kind == 6 {
                    inflated("hierarchy", uncompressed, compressed, LZ4_RATIO)?;
                } else {
                    let (first, _) = varint_at(start + 16)?;
                    inflated("hierarchy", first, compressed, LZ4_RATIO)?;
                    inflated("hierarchy", uncompressed, first, LZ4_RATIO)?;
                }
            }
            254 => return Err("a gzip-wrapped FST (read it after `fst2vcd` or unwrapped)".into()),
            _ => {}
        }
        at = end;
    }
    Ok(())
}

thread_local! {
    /// Set while [`contain_reader_panic`] runs wellen on this thread.
    static IN_FST_READER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs the FST reader on a file that may be damaged. wellen panics on
/// some corrupt blocks (an `unwrap` of an LZ4 decompression, an index out
/// of range); the panic is caught here, at the reader's boundary, and
/// becomes `NAME:1:1: error: ...`, and its message is not printed (a panic
/// hook, installed once, stays quiet for this thread while it reads and
/// hands every other panic to the hook that was there).
fn contain_reader_panic(name: &str, read: impl FnOnce() -> Result<Waveform, Diag>) -> Result<Waveform, Diag> {
    static QUIET_HOOK: std::sync::Once = std::sync::Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_FST_READER.with(|q| q.get()) {
                previous(info);
            }
        }));
    });
    IN_FST_READER.with(|q| q.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(read));
    IN_FST_READER.with(|q| q.set(false));
    result.unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".into());
        Err(Diag::new(name, 1, 1, format!("cannot read the FST: the file is damaged (the reader stopped: {})", why.replace('\n', " "))))
    })
}

fn convert(wave: wellen::Result<wellen::simple::Waveform>, name: &str) -> Result<Waveform, Diag> {
    let fail = |msg: String| Diag::new(name, 1, 1, msg);
    let mut wave = wave.map_err(|e| fail(format!("cannot read the FST: {}", e.to_string().replace('\n', " "))))?;
    let h = wave.hierarchy();
    let timescale = match h.timescale() {
        Some(ts) => to_timescale(ts).ok_or_else(|| fail(format!("unsupported FST timescale {ts:?}")))?,
        None => Timescale::NS,
    };
    let date = Some(h.date().to_string()).filter(|d| !d.is_empty());
    let version = Some(h.version().to_string()).filter(|v| !v.is_empty());

    // every var, in hierarchy order; vars sharing a signal share its trace
    let mut vars = Vec::new();
    let mut signals = Vec::new();
    let mut trace_of: HashMap<wellen::SignalRef, usize> = HashMap::new();
    let mut kinds = Vec::new();
    for var_ref in h.all_vars() {
        let v = &h[var_ref];
        let signal = v.signal_ref();
        let (width, kind) = if v.is_real(h) {
            (64, TraceKind::Real)
        } else {
            match v.length(h) {
                Some(w) => (w, TraceKind::Logic),
                None => return Err(fail(format!("{}: string signals are not supported in FST", v.full_name(h)))),
            }
        };
        let trace = *trace_of.entry(signal).or_insert_with(|| {
            signals.push(signal);
            kinds.push((width, kind));
            signals.len() - 1
        });
        let full = v.full_name(h);
        let mut scope: Vec<String> = full.split('.').map(str::to_string).collect();
        if scope.len() > crate::reader::MAX_SCOPE_DEPTH + 1 {
            return Err(fail(format!("{full}: scopes nested deeper than {} levels (the wave tools' limit)", crate::reader::MAX_SCOPE_DEPTH)));
        }
        let mut var_name = scope.pop().unwrap_or_default();
        // a name with its range glued on (`data[7:0]`): the range is the index
        if let Some(at) = var_name.find('[').filter(|_| v.index().is_some() && var_name.ends_with(']')) {
            var_name.truncate(at);
        }
        // a one-bit vector keeps its declared `[0:0]`, as the VCD of the same
        // model does (Verilator's one-bit localparams); a scalar has no index
        let range = v.index().map(|i| (i.msb(), i.lsb()));
        vars.push(Var {
            scope,
            name: var_name,
            range,
            var_type: format!("{:?}", v.var_type()).to_ascii_lowercase(),
            width,
            id: signal.index().to_string(),
            trace,
            line: 0,
        });
    }

    wave.load_signals(&signals);
    let time_table: Vec<u64> = wave.time_table().to_vec();
    let mut traces = Vec::with_capacity(signals.len());
    for (k, signal) in signals.iter().enumerate() {
        let (width, kind) = kinds[k];
        let mut trace = Trace::new(width, kind);
        let words = (width.max(1) as usize).div_ceil(64);
        let mut bits = vec![0u64; words];
        let mut unknown = vec![0u64; words];
        if let Some(sig) = wave.get_signal(*signal) {
            for (time_idx, value) in sig.iter_changes() {
                let t = time_table[time_idx as usize];
                bits.fill(0);
                unknown.fill(0);
                match value {
                    SignalValueRef::BitVec(_) => {
                        let text = value.to_bit_string().unwrap_or_default();
                        fill_planes(&text, &mut bits, &mut unknown);
                    }
                    SignalValueRef::Real(r) => bits[0] = r.to_bits(),
                    SignalValueRef::Event | SignalValueRef::String(_) => continue,
                }
                trace.push(t, &bits, &unknown);
            }
        }
        traces.push(trace);
    }
    let end_time = time_table.last().copied().unwrap_or(0);
    Ok(Waveform { file: name.to_string(), timescale, date, version, vars, traces, end_time })
}

/// Four-state bits, MSB first (`0 1 x z`, and the nine-state letters the
/// VCD reader also takes: `u w -` as x, `l h` as 0 1), into the reader's
/// two planes: 0 = (0,0), 1 = (1,0), x = (0,1), z = (1,1).
fn fill_planes(text: &str, bits: &mut [u64], unknown: &mut [u64]) {
    for (i, c) in text.bytes().rev().enumerate() {
        let (b, u) = match c {
            b'0' | b'l' | b'L' => (false, false),
            b'1' | b'h' | b'H' => (true, false),
            b'z' | b'Z' => (true, true),
            _ => (false, true),
        };
        if i / 64 < bits.len() {
            bits[i / 64] |= (b as u64) << (i % 64);
            unknown[i / 64] |= (u as u64) << (i % 64);
        }
    }
}

fn to_timescale(ts: wellen::Timescale) -> Option<Timescale> {
    let exponent = match ts.unit {
        TimescaleUnit::Seconds => 0,
        TimescaleUnit::MilliSeconds => -3,
        TimescaleUnit::MicroSeconds => -6,
        TimescaleUnit::NanoSeconds => -9,
        TimescaleUnit::PicoSeconds => -12,
        TimescaleUnit::FemtoSeconds => -15,
        _ => return None,
    };
    Some(Timescale { magnitude: ts.factor, exponent })
}

#[cfg(test)]
mod fst_tests {
    use super::*;

    #[test]
    fn four_state_text_fills_both_planes_lsb_first() {
        let mut bits = [0u64; 2];
        let mut unknown = [0u64; 2];
        // 66 bits: MSB '1', then x, z, and 63 more ending in "01"
        let text = format!("1xz{}01", "0".repeat(61));
        fill_planes(&text, &mut bits, &mut unknown);
        assert_eq!(bits[0], 0b1 | (1 << 63));
        assert_eq!(unknown[0], 1 << 63);
        assert_eq!(bits[1], 0b10);
        assert_eq!(unknown[1], 0b01);
    }

    #[test]
    fn fst_is_told_from_vcd_by_its_first_byte() {
        assert!(is_fst(&[0, 1, 2]));
        assert!(!is_fst(b"$date"));
        assert!(!is_fst(b""));
    }
}
