//! Waivers: surviving mutants the kill suite is not expected to kill, each
//! with its reason (a value the design never produces, a difference no
//! port can show under the ISA's rules), in a file of the tree
//! (`tools/mutate/waivers.txt`). One per line:
//!
//! ```text
//! BLOCK | MUTATION KEY | REASON
//! ```
//!
//! `BLOCK` is the block's name as `atomport mutate --block` reports it, the
//! key is [`crate::mutants::Mutation::key`] (`inv $procmux$12 Y[3]`), the
//! reason says why in words. `#` starts a comment line. A waiver for a
//! mutant the suite kills is an error: it would hide a killable mutant.

use std::path::{Path, PathBuf};

use super::MutateError;

/// One waiver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiver {
    pub block: String,
    pub key: String,
    pub reason: String,
    /// where it is written (`FILE:LINE`)
    pub at: String,
}

/// The waivers of a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Waivers {
    pub file: Option<PathBuf>,
    pub list: Vec<Waiver>,
}

/// The project's waiver file.
pub fn default_file() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/waivers.txt"))
}

impl Waivers {
    /// Reads `path`; a malformed line is an input error at its line.
    pub fn read(path: &Path) -> Result<Waivers, MutateError> {
        let text = std::fs::read_to_string(path).map_err(|e| MutateError::io(path, e))?;
        Waivers::parse(&text, &path.display().to_string()).map(|mut w| {
            w.file = Some(path.to_path_buf());
            w
        })
    }

    /// Parses waiver text; `name` is the file's name in errors.
    pub fn parse(text: &str, name: &str) -> Result<Waivers, MutateError> {
        let mut list = vec![];
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = t.splitn(3, '|').map(str::trim).collect();
            match parts[..] {
                [block, key, reason] if !block.is_empty() && !key.is_empty() && !reason.is_empty() => list.push(Waiver {
                    block: block.to_string(),
                    key: key.to_string(),
                    reason: reason.to_string(),
                    at: format!("{name}:{}", i + 1),
                }),
                _ => {
                    return Err(MutateError::Input(format!(
                        "{name}:{}:1: error: a waiver is `BLOCK | MUTATION KEY | REASON`, all three given",
                        i + 1
                    )))
                }
            }
        }
        Ok(Waivers { file: None, list })
    }

    /// The waiver of mutation `key` on `block`, if any.
    pub fn find(&self, block: &str, key: &str) -> Option<&Waiver> {
        self.list.iter().find(|w| w.block == block && w.key == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waivers_parse_and_match_by_block_and_key() {
        let w = Waivers::parse("# comment\n\nalu_w32_int | inv $procmux$12 Y[3] | bit 3 of a one-hot select no op reaches\n", "w.txt").unwrap();
        assert_eq!(w.list.len(), 1);
        assert_eq!(w.list[0].at, "w.txt:3");
        assert!(w.find("alu_w32_int", "inv $procmux$12 Y[3]").is_some());
        assert!(w.find("alu", "inv $procmux$12 Y[3]").is_none());
        let err = Waivers::parse("alu | inv $x Y[0]\n", "w.txt").unwrap_err().to_string();
        assert!(err.starts_with("w.txt:1:1: error:"), "{err}");
        assert!(Waivers::parse("alu | inv $x Y[0] |  \n", "w.txt").is_err(), "a reason must be given");
    }
}
