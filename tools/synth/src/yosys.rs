//! Yosys scripts and runs: quoted paths and sources, the run itself and
//! its warnings, and the run directory's files, written whole.

use std::path::Path;

use super::blocks::Block;
use super::tools::{run_logged, Tool};
use super::SynthError;

/// Writes one of atomport's own outputs of a run (a script, the summary)
/// whole (`atomport_core::output_file`).
pub fn write_file(path: &Path, text: &str) -> Result<(), SynthError> {
    write_whole(path, text)
}

/// Writes `text` to `path` whole (`atomport_core::output_file`: a temporary
/// file beside it, renamed over it).
pub fn write_whole(path: &Path, text: &str) -> Result<(), SynthError> {
    atomport_core::output_file::write_file(path, text.as_bytes()).map_err(|e| SynthError::Output(e.to_string()))
}

pub fn read_file(path: &Path) -> Result<String, SynthError> {
    std::fs::read_to_string(path).map_err(|error| SynthError::Io { path: path.to_path_buf(), error })
}

/// A path quoted for a Yosys script.
pub fn ys_path(path: &Path) -> Result<String, SynthError> {
    let s = path.display().to_string();
    if s.contains('"') {
        return Err(SynthError::Input(format!("{s}: a path with a double quote cannot go into a Yosys script")));
    }
    Ok(format!("\"{s}\""))
}

/// A block's source files, quoted for a Yosys `read_verilog`.
pub fn ys_sources(block: &Block) -> Result<String, SynthError> {
    Ok(block.sources.iter().map(|p| ys_path(p)).collect::<Result<Vec<_>, _>>()?.join(" "))
}

/// Yosys warnings of a log (`Warning: ...` lines).
pub fn warnings(log: &str) -> Vec<String> {
    log.lines().filter(|l| l.starts_with("Warning:")).map(str::to_string).collect()
}

/// Writes `synth.ys` into `dir`, runs it, and returns the log text.
pub fn run_yosys(yosys: &Tool, dir: &Path, script: &str) -> Result<String, SynthError> {
    let ys = dir.join("synth.ys");
    write_file(&ys, script)?;
    let log = dir.join("yosys.log");
    let mut cmd = yosys.command(["-s", "synth.ys"]);
    cmd.current_dir(dir);
    run_logged("yosys", cmd, &log)?;
    read_file(&log)
}
