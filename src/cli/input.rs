//! Reading the files the commands take: `-` is standard input, and every
//! read is bounded by the input limit (README.md, below the command list).
//!
//! The limit is `--max-input BYTES` (a global option: `64M`, `1G`, `4096`),
//! else the `ATOMPORT_MAX_INPUT` environment variable, else
//! [`DEFAULT_MAX_INPUT`]. A script or VCD larger than that is refused with
//! `FILE:1:1: error: ...` (exit 2) before it is parsed. The read itself
//! stops one byte past the limit, so `/dev/zero`, a FIFO whose writer never
//! stops, or a device, cost at most the limit in memory. A named FIFO that
//! no program opens for writing is waited for at most [`FIFO_WAIT_ENV`]
//! seconds (default [`DEFAULT_FIFO_WAIT_SECS`]), then refused, where `cat`
//! would wait forever.

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use atomport_core::diag::Diag;

/// The default input limit: 256 MiB. The bundled scripts are a few KiB; the
/// largest VCD a 100,000-message regression script traces is about 100 MB.
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;

/// The environment variable that sets the limit when `--max-input` is absent.
pub const MAX_INPUT_ENV: &str = "ATOMPORT_MAX_INPUT";

/// The environment variable that sets how long (seconds) a FIFO given as
/// input waits for a writer.
pub const FIFO_WAIT_ENV: &str = "ATOMPORT_FIFO_WAIT";

/// The default wait for a FIFO's writer, in seconds.
pub const DEFAULT_FIFO_WAIT_SECS: u64 = 30;

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
/// the input in errors ("script", "waveform"). Errors are `NAME:1:1: error: ...`.
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
        let file = open_input(path, what)?;
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

/// Opens `path` for reading. A FIFO is opened without blocking, then
/// waited on for data (or its writer closing) at most the FIFO wait.
fn open_input(path: &str, what: &str) -> Result<std::fs::File, Diag> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    use std::os::unix::io::AsRawFd;
    let cannot = |e: std::io::Error| Diag::new(path, 1, 1, format!("cannot read the {what}: {e}"));
    let is_fifo = std::fs::metadata(path).map(|m| m.file_type().is_fifo()).unwrap_or(false);
    if !is_fifo {
        return std::fs::File::open(path).map_err(cannot);
    }
    let secs = match std::env::var(FIFO_WAIT_ENV) {
        Ok(v) => v.trim().parse::<u64>().map_err(|_| {
            Diag::new(path, 1, 1, format!("{FIFO_WAIT_ENV}: `{v}` is not a number of seconds"))
        })?,
        Err(_) => DEFAULT_FIFO_WAIT_SECS,
    };
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(cannot)?;
    let fd = file.as_raw_fd();
    let mut pfd = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        // SAFETY: one valid pollfd for an open descriptor
        let n = unsafe { libc::poll(&mut pfd, 1, left.as_millis().min(i32::MAX as u128) as i32) };
        if n > 0 {
            break;
        }
        if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        if n < 0 {
            return Err(cannot(std::io::Error::last_os_error()));
        }
        return Err(Diag::new(
            path,
            1,
            1,
            format!("the {what} is a FIFO that no program wrote to within {secs} s (start the writer first, or set {FIFO_WAIT_ENV})"),
        ));
    }
    // data (or the writer's end) is there: read the rest blocking
    // SAFETY: fcntl on an open descriptor
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
    }
    Ok(file)
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
    fn a_fifo_without_a_writer_is_refused_after_the_wait_and_one_with_a_writer_is_read() {
        let dir = std::env::temp_dir().join(format!("atomport-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("in.atom");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid path
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let p = fifo.to_str().unwrap().to_string();
        std::env::set_var(FIFO_WAIT_ENV, "1");
        let t = std::time::Instant::now();
        let d = read_limited(&p, "script", 1000).unwrap_err();
        assert!(t.elapsed().as_secs_f64() < 10.0);
        assert!(d.msg.contains("a FIFO that no program wrote to within 1 s"), "{d}");
        // a writer that comes within the wait, writes in two parts and closes
        let writer_path = p.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(200));
            let mut f = std::fs::OpenOptions::new().write(true).open(&writer_path).unwrap();
            std::io::Write::write_all(&mut f, b"mem.u32 0 = 1\n").unwrap();
            std::thread::sleep(std::time::Duration::from_millis(200));
            std::io::Write::write_all(&mut f, b"dump 0 4\n").unwrap();
        });
        let got = read_limited(&p, "script", 1000).unwrap();
        writer.join().unwrap();
        assert_eq!(got.bytes, b"mem.u32 0 = 1\ndump 0 4\n");
        std::env::remove_var(FIFO_WAIT_ENV);
        std::fs::remove_dir_all(&dir).unwrap();
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
