//! Reading the files the commands take: `-` is standard input, and every
//! read is bounded by the input limit (README "Input limits").
//!
//! The limit is `--max-input BYTES` (a global option: `64M`, `1G`, `4096`),
//! else the `ATOMPORT_MAX_INPUT` environment variable, else
//! [`DEFAULT_MAX_INPUT`]. A script or VCD larger than that is refused with
//! `FILE:1:1: error: ...` (exit 2) before it is parsed. The read itself
//! stops one byte past the limit, so `/dev/zero`, a FIFO whose writer never
//! stops, or a device, cost at most the limit in memory. (A FIFO without a
//! writer waits for one, as `cat` does.)

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use atomport_core::diag::Diag;

/// The default input limit: 256 MiB. The bundled scripts are a few KiB; the
/// largest VCD a 100,000-message regression script traces is about 100 MB.
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;

/// The environment variable that sets the limit when `--max-input` is absent.
pub const MAX_INPUT_ENV: &str = "ATOMPORT_MAX_INPUT";

/// The name diagnostics give standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// 0: not set by `--max-input`.
static MAX_INPUT: AtomicU64 = AtomicU64::new(0);
static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

/// Sets the limit (`--max-input`).
pub fn set_max_input(bytes: u64) {
    MAX_INPUT.store(bytes, Ordering::Relaxed);
}

/// The limit in force: `--max-input`, else `ATOMPORT_MAX_INPUT`, else the
/// default. A malformed environment value is an error, not ignored.
pub fn max_input() -> Result<u64, String> {
    let set = MAX_INPUT.load(Ordering::Relaxed);
    if set != 0 {
        return Ok(set);
    }
    match std::env::var(MAX_INPUT_ENV) {
        Ok(v) => parse_size(&v).map_err(|e| format!("{MAX_INPUT_ENV}: {e}")),
        Err(_) => Ok(DEFAULT_MAX_INPUT),
    }
}

/// A byte count: `N`, or `N` with `K`, `M`, `G` (powers of 1024; `KiB`,
/// `MiB`, `GiB` and `k`/`m`/`g` are the same). Must be at least 1.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, suffix) = t.split_at(split);
    let bad = || format!("`{text}` is not a size in bytes (N, or N with K, M or G: `64M`)");
    let n: u64 = num.parse().map_err(|_| bad())?;
    let shift = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(bad()),
    };
    let bytes = n.checked_mul(1 << shift).ok_or_else(bad)?;
    if bytes == 0 {
        return Err(format!("`{text}`: the input limit must be at least 1 byte"));
    }
    Ok(bytes)
}

/// One input read whole: the name diagnostics use and its bytes.
#[derive(Debug)]
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Reads `path` (`-`: standard input) up to the input limit; `what` names
/// the input in errors ("script", "VCD"). Errors are `NAME:1:1: error: ...`.
pub fn read_input(path: &str, what: &str) -> Result<Input, Diag> {
    let limit = max_input().map_err(|e| Diag::new(path, 1, 1, e))?;
    read_limited(path, what, limit)
}

/// [`read_input`] with an explicit limit.
pub fn read_limited(path: &str, what: &str, limit: u64) -> Result<Input, Diag> {
    let (name, reader): (String, Box<dyn Read>) = if path == "-" {
        if STDIN_TAKEN.swap(true, Ordering::Relaxed) {
            return Err(Diag::new(STDIN_NAME, 1, 1, format!("standard input is already read for another argument; give the {what} as a file")));
        }
        (STDIN_NAME.to_string(), Box::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path).map_err(|e| Diag::new(path, 1, 1, format!("cannot read the {what}: {e}")))?;
        if let Ok(meta) = file.metadata() {
            if meta.is_dir() {
                return Err(Diag::new(path, 1, 1, format!("cannot read the {what}: it is a directory")));
            }
            // a regular file says its size: refuse it without reading
            if meta.is_file() && meta.len() > limit {
                return Err(too_large(path, what, limit));
            }
        }
        (path.to_string(), Box::new(file))
    };
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Diag::new(&name, 1, 1, format!("cannot read the {what}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(&name, what, limit));
    }
    Ok(Input { name, bytes })
}

fn too_large(name: &str, what: &str, limit: u64) -> Diag {
    Diag::new(
        name,
        1,
        1,
        format!("the {what} is larger than the input limit of {limit} bytes (raise it with --max-input BYTES or {MAX_INPUT_ENV})"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert_eq!(parse_size("2KiB"), Ok(2048));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("99999999999G").is_err());
    }

    #[test]
    fn a_device_that_never_ends_is_cut_at_the_limit() {
        let d = read_limited("/dev/zero", "script", 1000).unwrap_err();
        assert_eq!((d.file.as_str(), d.line, d.col), ("/dev/zero", 1, 1));
        assert!(d.msg.contains("larger than the input limit of 1000 bytes"), "{d}");
    }

    #[test]
    fn a_regular_file_over_the_limit_is_refused_and_one_at_it_is_read() {
        let dir = std::env::temp_dir().join(format!("atomport-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("x.atom");
        std::fs::write(&f, vec![b'#'; 100]).unwrap();
        let p = f.to_str().unwrap();
        assert_eq!(read_limited(p, "script", 100).unwrap().bytes.len(), 100);
        assert!(read_limited(p, "script", 99).unwrap_err().msg.contains("larger than the input limit of 99"));
        assert!(read_limited(dir.to_str().unwrap(), "script", 99).unwrap_err().msg.contains("directory"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
