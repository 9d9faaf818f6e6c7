//! Files the tools write: every output is checked before any work starts,
//! and every file is written whole (README "Outputs").
//!
//! A command adopts it in two steps:
//!
//! 1. before any work, an [`OutputPlan`] names each output (its option, its
//!    path) and each input, and [`OutputPlan::check`] refuses, with a
//!    [`OutputError`] (`PATH: error: ...`, exit 2), an output that
//!    * is the same file as an input (by device and inode where the file
//!      exists, by canonical path where it does not) or as another output;
//!    * exists and is not a regular file (a FIFO, a device, a folder),
//!      unless it is standard output (`-` or `/dev/stdout`) and the output
//!      may go there ([`OutputPlan::file_or_stdout`]);
//!    * lies in a folder that does not exist or cannot be written (probed
//!      by creating and removing a file there);
//! 2. it writes each file with [`write_file`] (all bytes at once) or an
//!    [`OutputFile`] (piece by piece, or through another writer that opens
//!    [`OutputFile::temp_path`] itself, as Verilator's trace writer does):
//!    a temporary file in the same folder, flushed to disk (`fsync`), then
//!    renamed over the target. A failed write leaves no partial file and an
//!    old file of that name as it was.
//!
//! A symbolic link is followed: the file it names is replaced, the link
//! stays.

use std::fmt;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The names that mean standard output where an output may go there.
pub const STDOUT_NAMES: [&str; 2] = ["-", "/dev/stdout"];

/// Whether `path` names standard output (`-`, `/dev/stdout`).
pub fn is_stdout(path: &Path) -> bool {
    STDOUT_NAMES.iter().any(|n| path.as_os_str() == *n)
}

/// An output that cannot be written, or a write that failed:
/// `PATH: error: ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputError {
    pub path: String,
    pub msg: String,
}

impl OutputError {
    pub fn new(path: &Path, msg: impl Into<String>) -> OutputError {
        OutputError { path: path.display().to_string(), msg: msg.into() }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: error: {}", self.path, self.msg)
    }
}

impl std::error::Error for OutputError {}

#[derive(Clone, Debug)]
enum OutputKind {
    File { stdout_ok: bool },
    /// a folder the command writes files into; `parents`: created with its
    /// parents (a default such as `target/regress`), else only its parent
    /// must exist
    Folder { parents: bool },
}

#[derive(Clone, Debug)]
struct PlannedOutput {
    option: String,
    path: PathBuf,
    kind: OutputKind,
}

/// The outputs and inputs of one command, checked together before it runs.
#[derive(Clone, Debug, Default)]
pub struct OutputPlan {
    outputs: Vec<PlannedOutput>,
    inputs: Vec<PathBuf>,
}

impl OutputPlan {
    pub fn new() -> OutputPlan {
        OutputPlan::default()
    }

    /// A file the command writes (`option` names it in errors: `--report`);
    /// `None` adds nothing. Standard output is refused.
    pub fn file(mut self, option: &str, path: Option<&Path>) -> OutputPlan {
        if let Some(p) = path {
            self.outputs.push(PlannedOutput { option: option.into(), path: p.into(), kind: OutputKind::File { stdout_ok: false } });
        }
        self
    }

    /// A file the command writes that may also be standard output (`-` or
    /// `/dev/stdout`).
    pub fn file_or_stdout(mut self, option: &str, path: Option<&Path>) -> OutputPlan {
        if let Some(p) = path {
            self.outputs.push(PlannedOutput { option: option.into(), path: p.into(), kind: OutputKind::File { stdout_ok: true } });
        }
        self
    }

    /// A folder the command writes files into, created when missing: its
    /// parent must exist (as `mkdir` wants it).
    pub fn folder(mut self, option: &str, path: Option<&Path>) -> OutputPlan {
        if let Some(p) = path {
            self.outputs.push(PlannedOutput { option: option.into(), path: p.into(), kind: OutputKind::Folder { parents: false } });
        }
        self
    }

    /// A default folder (`target/regress`), created with its parents when
    /// missing: the nearest folder that exists must be writable.
    pub fn default_folder(mut self, option: &str, path: &Path) -> OutputPlan {
        self.outputs.push(PlannedOutput { option: option.into(), path: path.into(), kind: OutputKind::Folder { parents: true } });
        self
    }

    /// An input the command reads (`-`: standard input); no output may be it.
    pub fn input(mut self, path: &Path) -> OutputPlan {
        self.inputs.push(path.into());
        self
    }

    /// [`OutputPlan::input`] for a path given as text (a script's `-`).
    pub fn input_str(self, path: &str) -> OutputPlan {
        self.input(Path::new(path))
    }

    /// Refuses the first output that cannot be written (module docs).
    pub fn check(&self) -> Result<(), OutputError> {
        let mut seen: Vec<(&PlannedOutput, Identity)> = Vec::new();
        let inputs: Vec<(&Path, Identity)> = self.inputs.iter().map(|p| (p.as_path(), Identity::of_input(p))).collect();
        let mut stdout_taken: Option<&str> = None;
        for out in &self.outputs {
            let path = out.path.as_path();
            if is_stdout(path) {
                match out.kind {
                    OutputKind::File { stdout_ok: true } => {}
                    OutputKind::File { stdout_ok: false } => {
                        return Err(OutputError::new(path, format!("{} writes a file, not standard output: give a file name", out.option)));
                    }
                    OutputKind::Folder { .. } => {
                        return Err(OutputError::new(path, format!("{} is a folder to write files into, not standard output", out.option)));
                    }
                }
                if let Some(other) = stdout_taken {
                    return Err(OutputError::new(path, format!("{} and {other} both go to standard output: give one of them a file", out.option)));
                }
                stdout_taken = Some(&out.option);
                continue;
            }
            let id = match out.kind {
                OutputKind::File { .. } => check_file_output(out)?,
                OutputKind::Folder { parents } => check_folder_output(out, parents)?,
            };
            for (input, input_id) in &inputs {
                if id.same_as(input_id) {
                    let what = if is_stdin(input) { "standard input".to_string() } else { format!("the input {}", input.display()) };
                    return Err(OutputError::new(path, format!("{} is {what}: an output never replaces an input", out.option)));
                }
            }
            if let Some((other, _)) = seen.iter().find(|(_, s)| id.same_as(s)) {
                return Err(OutputError::new(path, format!("{} and {} name the same file", other.option, out.option)));
            }
            seen.push((out, id));
        }
        Ok(())
    }
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-" || path.as_os_str() == "/dev/stdin"
}

/// What makes two paths one file: device and inode (when it exists) and the
/// canonical path (its folder's canonical path and its name when it does not).
#[derive(Clone, Debug, Default)]
struct Identity {
    inode: Option<(u64, u64)>,
    canonical: Option<PathBuf>,
}

impl Identity {
    fn of_path(path: &Path) -> Identity {
        let inode = std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()));
        Identity { inode, canonical: canonical_target(path) }
    }

    /// An input: `-` is whatever standard input is (a file redirected in).
    fn of_input(path: &Path) -> Identity {
        if is_stdin(path) {
            let inode = std::fs::metadata("/dev/stdin").ok().filter(|m| m.is_file()).map(|m| (m.dev(), m.ino()));
            return Identity { inode, canonical: None };
        }
        Identity::of_path(path)
    }

    fn same_as(&self, other: &Identity) -> bool {
        matches!((self.inode, other.inode), (Some(a), Some(b)) if a == b)
            || matches!((&self.canonical, &other.canonical), (Some(a), Some(b)) if a == b)
    }
}

/// The path an output really writes: a symbolic link's target, else the
/// canonical folder joined with the file name (the file need not exist).
fn canonical_target(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = std::fs::canonicalize(path) {
        return Some(p);
    }
    let name = path.file_name()?;
    let dir = folder_of(path);
    std::fs::canonicalize(dir).ok().map(|d| d.join(name))
}

/// The folder a file path lies in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A file type in words, for "not a regular file".
fn kind_of(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

fn check_file_output(out: &PlannedOutput) -> Result<Identity, OutputError> {
    let path = out.path.as_path();
    if path.file_name().is_none() {
        return Err(OutputError::new(path, format!("{} names a folder, not a file", out.option)));
    }
    match std::fs::symlink_metadata(path) {
        Ok(link) if link.file_type().is_symlink() => match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(OutputError::new(path, format!("{} is a link to {}: an output replaces a regular file only", out.option, kind_of(m.file_type()))));
            }
            Ok(_) => {}
            Err(_) => return Err(OutputError::new(path, format!("{} is a symbolic link to nothing: give a file name", out.option))),
        },
        Ok(m) if !m.is_file() => {
            return Err(OutputError::new(path, format!("{} is {}: an output replaces a regular file only", out.option, kind_of(m.file_type()))));
        }
        _ => {}
    }
    let target = resolved(path);
    writable_folder(folder_of(&target), path, &out.option)?;
    Ok(Identity::of_path(path))
}

fn check_folder_output(out: &PlannedOutput, parents: bool) -> Result<Identity, OutputError> {
    let path = out.path.as_path();
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => writable_folder(path, path, &out.option)?,
        Ok(m) => return Err(OutputError::new(path, format!("{} is {}, not a folder", out.option, kind_of(m.file_type())))),
        Err(_) if parents => {
            let mut up = path;
            loop {
                up = folder_of(up);
                if std::fs::metadata(up).is_ok_and(|m| m.is_dir()) || up == Path::new(".") || up == Path::new("/") {
                    break;
                }
            }
            writable_folder(up, path, &out.option)?;
        }
        Err(_) => writable_folder(folder_of(path), path, &out.option)?,
    }
    Ok(Identity::of_path(path))
}

/// A symbolic link's target (the file an output replaces), else `path`.
fn resolved(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh name in `dir` for a temporary file of `target`: hidden, with the
/// process id and a counter (`.lock.vcd.atomport-1234-0.tmp`).
fn temp_name(dir: &Path, target: &Path) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // room for the suffix within a file name's 255 bytes
    let mut short: String = name.chars().take(180).collect();
    while short.len() > 180 {
        short.pop();
    }
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{short}.atomport-{}-{n}.tmp", std::process::id()))
}

/// Creates a fresh temporary file for `target` in `dir`.
fn create_temp(dir: &Path, target: &Path) -> std::io::Result<(PathBuf, File)> {
    loop {
        let temp = temp_name(dir, target);
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(f) => return Ok((temp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Checks that files can be created in `dir` (by creating one and removing
/// it); `path` and `option` name the output in errors.
fn writable_folder(dir: &Path, path: &Path, option: &str) -> Result<(), OutputError> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(OutputError::new(path, format!("{option}: {} is not a folder", dir.display()))),
        Err(_) => return Err(OutputError::new(path, format!("{option}: the folder {} does not exist", dir.display()))),
    }
    let (temp, _) = create_temp(dir, Path::new("probe"))
        .map_err(|e| OutputError::new(path, format!("{option}: cannot write in the folder {}: {e}", dir.display())))?;
    let _ = std::fs::remove_file(temp);
    Ok(())
}

/// Creates a folder output (and its parents) when it is missing.
pub fn create_folder(path: &Path) -> Result<(), OutputError> {
    std::fs::create_dir_all(path).map_err(|e| OutputError::new(path, format!("cannot create the folder: {e}")))
}

/// Writes `bytes` to `path` whole (module docs); `-` and `/dev/stdout`
/// write standard output.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    if is_stdout(path) {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(|e| OutputError::new(path, format!("cannot write to standard output: {e}")));
    }
    let mut f = OutputFile::create(path)?;
    f.write_all(bytes).map_err(|e| f.error(e))?;
    f.commit()
}

/// A file written whole: its bytes go to a temporary file in the target's
/// folder, which [`OutputFile::commit`] flushes to disk and renames over
/// the target. Dropped without a commit (a failed write, an error in the
/// work), it removes the temporary file: the target is untouched.
#[derive(Debug)]
pub struct OutputFile {
    target: PathBuf,
    /// the path as given (errors name it)
    given: PathBuf,
    temp: PathBuf,
    file: Option<std::io::BufWriter<File>>,
    committed: bool,
}

impl OutputFile {
    /// Starts writing `target`.
    pub fn create(target: &Path) -> Result<OutputFile, OutputError> {
        let resolved = resolved(target);
        let (temp, file) = create_temp(folder_of(&resolved), &resolved)
            .map_err(|e| OutputError::new(target, format!("cannot create a file in {}: {e}", folder_of(&resolved).display())))?;
        Ok(OutputFile { target: resolved, given: target.into(), temp, file: Some(std::io::BufWriter::new(file)), committed: false })
    }

    /// Reserves the temporary file of `target` for a writer that opens it
    /// itself by name ([`OutputFile::temp_path`]); [`OutputFile::commit`]
    /// flushes what that writer left there and renames it.
    pub fn reserve(target: &Path) -> Result<OutputFile, OutputError> {
        let mut f = OutputFile::create(target)?;
        f.file = None;
        Ok(f)
    }

    /// Where the bytes go until the commit.
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The file the commit replaces.
    pub fn target(&self) -> &Path {
        &self.given
    }

    /// An I/O error of this file as an [`OutputError`] naming the target.
    pub fn error(&self, e: std::io::Error) -> OutputError {
        OutputError::new(&self.given, format!("cannot write: {e}"))
    }

    /// Flushes the bytes to disk and renames the temporary file over the
    /// target; on error the temporary file is removed.
    pub fn commit(mut self) -> Result<(), OutputError> {
        let file = match self.file.take() {
            Some(w) => w.into_inner().map_err(|e| e.into_error()),
            None => std::fs::OpenOptions::new().write(true).open(&self.temp),
        };
        file.and_then(|f| f.sync_all()).map_err(|e| self.error(e))?;
        if let Ok(old) = std::fs::metadata(&self.target) {
            let _ = std::fs::set_permissions(&self.temp, old.permissions());
        }
        std::fs::rename(&self.temp, &self.target).map_err(|e| self.error(e))?;
        self.committed = true;
        // the rename itself on disk (some file systems cannot sync a folder)
        if let Ok(dir) = File::open(folder_of(&self.target)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(std::io::Error::other("the file is written by another writer")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if !self.committed {
            self.file = None;
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("atomport-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn a_written_file_replaces_the_old_one_whole_and_leaves_no_temporary() {
        let d = scratch("write");
        let f = d.join("r.json");
        std::fs::write(&f, "old").unwrap();
        write_file(&f, b"new").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
        assert_eq!(leftovers(&d), ["r.json"]);
        // dropped before the commit: the old file stays, the temporary goes
        let mut w = OutputFile::create(&f).unwrap();
        w.write_all(b"half").unwrap();
        assert!(w.temp_path().exists());
        drop(w);
        assert_eq!(std::fs::read(&f).unwrap(), b"new");
        assert_eq!(leftovers(&d), ["r.json"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_reserved_file_is_committed_from_what_another_writer_left() {
        let d = scratch("reserve");
        let f = d.join("w.vcd");
        let r = OutputFile::reserve(&f).unwrap();
        std::fs::write(r.temp_path(), "$end\n").unwrap();
        assert!(!f.exists());
        r.commit().unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"$end\n");
        assert_eq!(leftovers(&d), ["w.vcd"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_link_is_followed_and_stays_a_link() {
        let d = scratch("link");
        std::fs::write(d.join("real.json"), "old").unwrap();
        std::os::unix::fs::symlink("real.json", d.join("link.json")).unwrap();
        OutputPlan::new().file("--report", Some(&d.join("link.json"))).check().unwrap();
        write_file(&d.join("link.json"), b"new").unwrap();
        assert!(std::fs::symlink_metadata(d.join("link.json")).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(d.join("real.json")).unwrap(), b"new");
        // an input reached through the link is the same file
        let e = OutputPlan::new().input(&d.join("real.json")).file("--out", Some(&d.join("link.json"))).check().unwrap_err();
        assert!(e.msg.contains("is the input"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn outputs_that_are_inputs_special_files_or_in_no_folder_are_refused() {
        let d = scratch("plan");
        let input = d.join("in.atom");
        std::fs::write(&input, "x").unwrap();
        let plan = |out: &Path| OutputPlan::new().input(&input).file("--vcd", Some(out)).check();
        // the input itself, by another spelling
        let e = plan(&d.join(".").join("in.atom")).unwrap_err();
        assert_eq!(e.path, d.join(".").join("in.atom").display().to_string());
        assert!(e.msg.contains("--vcd is the input") && e.msg.contains("never replaces an input"), "{e}");
        // a hard link to it
        std::fs::hard_link(&input, d.join("hard.atom")).unwrap();
        assert!(plan(&d.join("hard.atom")).unwrap_err().msg.contains("is the input"));
        // special files
        assert!(plan(Path::new("/dev/full")).unwrap_err().msg.contains("is a character device"));
        assert!(plan(&d).unwrap_err().msg.contains("is a folder"));
        let fifo = d.join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        assert!(plan(&fifo).unwrap_err().msg.contains("is a FIFO"));
        // folders
        assert!(plan(&d.join("no/such/x.vcd")).unwrap_err().msg.contains("does not exist"));
        assert!(plan(&input.join("x.vcd")).unwrap_err().msg.contains("is not a folder"));
        // standard output only where the command takes it
        assert!(plan(Path::new("-")).unwrap_err().msg.contains("not standard output"));
        OutputPlan::new().file_or_stdout("--report", Some(Path::new("-"))).check().unwrap();
        let two = OutputPlan::new().file_or_stdout("--report", Some(Path::new("-"))).file_or_stdout("--junit", Some(Path::new("/dev/stdout")));
        assert!(two.check().unwrap_err().msg.contains("both go to standard output"));
        // two outputs, one file
        let same = OutputPlan::new().file("--report", Some(&d.join("r"))).file("--junit", Some(&d.join("./r")));
        assert!(same.check().unwrap_err().msg.contains("name the same file"));
        // a fine output, and nothing left behind by the checks
        plan(&d.join("out.vcd")).unwrap();
        assert_eq!(leftovers(&d), ["fifo", "hard.atom", "in.atom"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn folders_are_created_where_they_may_be() {
        let d = scratch("folders");
        OutputPlan::new().folder("--out", Some(&d.join("new"))).check().unwrap();
        assert!(OutputPlan::new().folder("--out", Some(&d.join("no/new"))).check().unwrap_err().msg.contains("does not exist"));
        OutputPlan::new().default_folder("--out", &d.join("a/b/c")).check().unwrap();
        assert!(OutputPlan::new().folder("--out", Some(Path::new("/dev/full"))).check().unwrap_err().msg.contains("not a folder"));
        assert!(OutputPlan::new().folder("--out", Some(Path::new("-"))).check().is_err());
        assert!(leftovers(&d).is_empty());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
