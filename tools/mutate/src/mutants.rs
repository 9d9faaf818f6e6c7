//! The mutants of a block, by Yosys's `mutate` (the method of YosysHQ mcy):
//! the emitted Verilog read and flattened (unflattened, rust-hdl's one
//! module per register would put mutants on clock ports), its unused logic
//! removed, `mutate -list` picks N mutations by an even sampling over the
//! design's cells, and the
//! design is written once more with every mutation behind a select input,
//! `mutsel`: select k (1..=N) turns mutation k on, 0 none.
//!
//! One more mutation is always added after the list, the *canary*: an
//! inverted bit of an output the kill suite cannot miss. A run whose canary
//! survives has a select input that does nothing (or a suite that checks
//! nothing), and fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::MutateError;

/// The name of the select input the mutated design gets.
pub const SELECT: &str = "mutsel";

/// One mutation as Yosys lists it (`mutate -list`), the fields that
/// identify it and those that say where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    /// const0, const1, cnot0, cnot1 or inv
    pub mode: String,
    pub module: String,
    pub cell: String,
    pub port: String,
    pub portbit: u32,
    /// cnot0/cnot1: the bit of the same port the mutated bit is tied to
    pub ctrlbit: Option<u32>,
    /// the wire the mutated bit drives or reads, when it has a name
    pub wire: Option<String>,
    pub wirebit: Option<u32>,
    /// `file:line.col-line.col` of the cell, innermost module first or last
    pub src: Vec<String>,
}

impl Mutation {
    /// Whether Yosys 0.23 can write the design with this mutation behind a
    /// select as Verilog: a memory's read-port reset (`RD_ARST`, `RD_SRST`)
    /// behind a mux fails its Verilog backend (`port.arst == State::S0`
    /// asserted in kernel/mem.cc); the unit's memories have no read reset.
    pub fn writable(&self) -> bool {
        !matches!(self.port.as_str(), "RD_ARST" | "RD_SRST")
    }

    /// Parses one line of `mutate -list` (`mutate -mode inv -module m -cell c
    /// -port Y -portbit 0 ...`); a `-ctrl` on it is ignored.
    pub fn parse(line: &str) -> Result<Mutation, String> {
        let words = split_words(line);
        let mut it = words.iter().map(String::as_str);
        if it.next() != Some("mutate") {
            return Err(format!("not a mutate line: {line}"));
        }
        let mut m = Mutation {
            mode: String::new(),
            module: String::new(),
            cell: String::new(),
            port: String::new(),
            portbit: 0,
            ctrlbit: None,
            wire: None,
            wirebit: None,
            src: vec![],
        };
        let number = |v: Option<&str>, what: &str| -> Result<u32, String> {
            v.and_then(|v| v.parse().ok()).ok_or_else(|| format!("`{what}` without a number in: {line}"))
        };
        while let Some(word) = it.next() {
            match word {
                "-ctrl" => {
                    it.next();
                    it.next();
                    it.next();
                }
                "-mode" => m.mode = it.next().unwrap_or_default().to_string(),
                "-module" => m.module = it.next().unwrap_or_default().to_string(),
                "-cell" => m.cell = it.next().unwrap_or_default().to_string(),
                "-port" => m.port = it.next().unwrap_or_default().to_string(),
                "-portbit" => m.portbit = number(it.next(), word)?,
                "-ctrlbit" => m.ctrlbit = Some(number(it.next(), word)?),
                "-wire" => m.wire = it.next().map(String::from),
                "-wirebit" => m.wirebit = Some(number(it.next(), word)?),
                "-src" => m.src.extend(it.next().map(String::from)),
                other => return Err(format!("unknown word `{other}` in: {line}")),
            }
        }
        if m.mode.is_empty() || m.module.is_empty() || m.cell.is_empty() || m.port.is_empty() {
            return Err(format!("incomplete mutation: {line}"));
        }
        Ok(m)
    }

    /// The arguments that apply it (`-mode .. -module .. -cell .. -port ..
    /// -portbit .. [-ctrlbit ..]`), names quoted for Yosys.
    pub fn apply_args(&self) -> String {
        let mut s = format!(
            "-mode {} -module {} -cell {} -port {} -portbit {}",
            self.mode,
            quote(&self.module),
            quote(&self.cell),
            quote(&self.port),
            self.portbit
        );
        if let Some(c) = self.ctrlbit {
            s.push_str(&format!(" -ctrlbit {c}"));
        }
        s
    }

    /// What identifies the mutation whatever the seed that picked it: mode,
    /// cell, port, bit and control bit (a waiver names a mutation by this).
    pub fn key(&self) -> String {
        let ctrl = self.ctrlbit.map_or(String::new(), |c| format!(" ctrlbit {c}"));
        format!("{} {} {}[{}]{ctrl}", self.mode, self.cell, self.port, self.portbit)
    }

    /// In words: `inverts`, `ties to 0` ...
    pub fn describe(&self) -> String {
        let bit = format!("bit {} of port {} of cell {}", self.portbit, self.port, self.cell);
        match (self.mode.as_str(), self.ctrlbit) {
            ("inv", _) => format!("inverts {bit}"),
            ("const0", _) => format!("ties {bit} to 0"),
            ("const1", _) => format!("ties {bit} to 1"),
            ("cnot0", Some(c)) => format!("drives {bit} with the inverse of bit {c}"),
            ("cnot1", Some(c)) => format!("drives {bit} with bit {c}"),
            (mode, _) => format!("{mode} on {bit}"),
        }
    }
}

/// Splits a Yosys command line into words; `"..."` quotes keep spaces.
fn split_words(line: &str) -> Vec<String> {
    let mut words = vec![];
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(cur);
    }
    words
}

/// A name as a Yosys command word (quoted when it has a space).
fn quote(name: &str) -> String {
    if name.contains(char::is_whitespace) {
        format!("\"{name}\"")
    } else {
        name.to_string()
    }
}

/// What `prepare` keeps of a flattened design: the logic some output reads
/// once the build's constants are propagated (Yosys `opt` and `wreduce`;
/// `-keepdc`: an undefined value is not a don't-care, Verilator gives it
/// a value). A build leaves whole datapaths
/// unused (an integer ALU's float datapath, a 32-bit build's upper bits); a
/// mutant there is equivalent by construction and would only dilute the
/// sample. Not `opt -fine`: in Yosys 0.23 it changes the small build's
/// behaviour (select 0 then breaks the payload port's contract). And
/// `-keepdc` on every `opt`: without it, Yosys 0.23's opt_merge stops on
/// "conflicting init values" once mutation cells are in.
pub const LIVE_LOGIC: &str = "opt -keepdc\nwreduce -keepdc\nopt -keepdc\nopt_clean -purge\n";

/// The design of a block prepared for mutation: its Verilog read,
/// flattened and written as RTLIL in `dir`.
pub struct Prepared {
    pub dir: PathBuf,
    pub top: String,
    /// `dir/design.il`
    pub rtlil: PathBuf,
    /// the Verilog files, as copied into `dir` (names the `-src` tags use)
    pub sources: Vec<PathBuf>,
}

/// Runs `yosys -q -s script` in `dir`, its log in `dir/<log>`.
pub fn yosys(dir: &Path, script: &str, name: &str) -> Result<(), MutateError> {
    let script_path = dir.join(format!("{name}.ys"));
    crate::write_whole(&script_path, script)?;
    let log = dir.join(format!("{name}.log"));
    // the script's paths are the folder's own: yosys runs in it
    let out = Command::new("yosys").current_dir(dir).args(["-q", "-l", &format!("{name}.log"), "-s", &format!("{name}.ys")]).output();
    match out {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(MutateError::Tool {
            what: format!("yosys ({name}) failed: {}", String::from_utf8_lossy(&o.stderr).lines().last().unwrap_or("")),
            log,
        }),
        Err(e) => Err(MutateError::Tool { what: format!("cannot run yosys: {e} (install: `apt-get install -y yosys`, or `make deps`)"), log }),
    }
}

/// Copies `sources` into `dir` (so the mutations' `-src` tags name files by
/// their own names, the same in every checkout) and flattens the design.
pub fn prepare(sources: &[PathBuf], top: &str, dir: &Path) -> Result<Prepared, MutateError> {
    std::fs::create_dir_all(dir).map_err(|e| MutateError::io(dir, e))?;
    let mut copies = vec![];
    for s in sources {
        let name = s.file_name().ok_or_else(|| MutateError::Input(format!("{}: not a file", s.display())))?;
        let text = std::fs::read_to_string(s).map_err(|e| MutateError::io(s, e))?;
        let copy = dir.join(name);
        crate::write_whole(&copy, &text)?;
        copies.push(copy);
    }
    let names: Vec<String> = copies.iter().map(|c| c.file_name().unwrap().to_string_lossy().into_owned()).collect();
    let script = format!(
        "read_verilog {}\nprep -top {top}\nflatten\n{LIVE_LOGIC}write_rtlil design.il\n",
        names.join(" ")
    );
    yosys(dir, &script, "prepare")?;
    Ok(Prepared { dir: dir.to_path_buf(), top: top.to_string(), rtlil: dir.join("design.il"), sources: copies })
}

/// The output port the canary inverts: one the kill suite checks in every
/// cycle of every item.
fn canary_wire(top_kind: crate::BlockKind) -> &'static str {
    match top_kind {
        crate::BlockKind::Alu => "ret_value",
        crate::BlockKind::Unit | crate::BlockKind::Serial => "req_ready",
    }
}

/// `count` mutations picked with `seed`, and the canary.
///
/// A mutation Yosys cannot write back as Verilog ([`Mutation::writable`])
/// is dropped, and the list is asked again, longer by as many, until
/// `count` remain (a list with none is Yosys's list as it comes). Returns
/// the mutations, the canary and how many were dropped.
pub fn list(p: &Prepared, kind: crate::BlockKind, count: usize, seed: u64) -> Result<(Vec<Mutation>, Mutation, usize), MutateError> {
    let read = |name: &str| -> Result<Vec<Mutation>, MutateError> {
        let path = p.dir.join(name);
        let text = std::fs::read_to_string(&path).map_err(|e| MutateError::io(&path, e))?;
        text.lines().filter(|l| !l.trim().is_empty()).map(|l| Mutation::parse(l).map_err(MutateError::Input)).collect()
    };
    let mut asked = count;
    loop {
        let script = format!(
            "read_rtlil design.il\nmutate -list {asked} -seed {seed} -o mutations.txt\nmutate -list 1 -seed {seed} -mode inv -wire {} -o canary.txt\n",
            canary_wire(kind)
        );
        yosys(&p.dir, &script, "list")?;
        let listed = read("mutations.txt")?;
        let canary = read("canary.txt")?.into_iter().next().ok_or_else(|| {
            MutateError::Input(format!("Yosys found no cell driving `{}` to invert for the canary", canary_wire(kind)))
        })?;
        let got = listed.len();
        let writable: Vec<Mutation> = listed.into_iter().filter(Mutation::writable).collect();
        let dropped = got - writable.len();
        // fewer listed than asked: the design has no more
        if writable.len() >= count || got < asked {
            return Ok((writable.into_iter().take(count).collect(), canary, dropped));
        }
        asked = count + dropped;
    }
}

/// Width of the select input for `n` mutations and the canary (values 0..=n+1).
pub fn select_width(n: usize) -> u32 {
    usize::BITS - (n + 1).leading_zeros()
}

/// Writes the design with `mutations` behind the select input (mutation k
/// at select k + 1) and the canary at the select after them, as Verilog,
/// into `dir/mutated.v`.
///
/// A mutation of a register's output (`Q`) moves the register onto a new
/// wire of Yosys's, without the power-up value the old wire carried: its
/// bit would start undefined (Verilator then picks a value, and select 0
/// is no longer the design: a register the design never resets, such as a
/// toggling buffer select, starts wrong). The new wire gets the old bit's
/// power-up value.
pub fn write_mutated(p: &Prepared, mutations: &[Mutation], canary: &Mutation) -> Result<PathBuf, MutateError> {
    let width = select_width(mutations.len());
    let il = std::fs::read_to_string(&p.rtlil).map_err(|e| MutateError::io(&p.rtlil, e))?;
    let inits = PowerUp::read(&il);
    let mut script = String::from("read_rtlil design.il\n");
    for (k, m) in mutations.iter().chain(std::iter::once(canary)).enumerate() {
        script.push_str(&format!("mutate -ctrl {SELECT} {width} {} {}\n", k + 1, m.apply_args()));
        if m.port == "Q" {
            let bit = inits.q_bit(&m.cell, m.portbit).unwrap_or('0');
            let module = quote(&m.module);
            script.push_str(&format!(
                "setattr -set init 1'{bit} {module}/c:{} %x:+[Q] {module}/w:$auto$mutate* %i {module}/a:init %d\n",
                quote(&m.cell)
            ));
        }
    }
    // one wire per bit inside the design: a cnot mutation drives a bit of a
    // word from another bit of it, a loop through the word that Verilator
    // otherwise evaluates as circular logic
    script.push_str("splitnets\nwrite_verilog -noattr mutated.v\n");
    yosys(&p.dir, &script, "apply")?;
    Ok(p.dir.join("mutated.v"))
}

/// The registers' power-up values in a design's RTLIL: each register
/// cell's `Q` connection and each wire's `init`.
pub(crate) struct PowerUp {
    /// cell -> its Q connection (`\\w`, `\\w [3]`, `\\w [7:4]`)
    q: std::collections::HashMap<String, String>,
    /// wire -> its init bits, most significant first
    init: std::collections::HashMap<String, String>,
}

impl PowerUp {
    pub(crate) fn read(il: &str) -> PowerUp {
        let (mut q, mut init) = (std::collections::HashMap::new(), std::collections::HashMap::new());
        let (mut cell, mut pending) = (None::<String>, None::<String>);
        for line in il.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("cell ") {
                cell = rest.split_whitespace().nth(1).map(String::from);
            } else if line == "end" {
                cell = None;
            } else if let (Some(c), Some(conn)) = (&cell, line.strip_prefix("connect \\Q ")) {
                q.insert(c.clone(), conn.to_string());
            }
            if let Some(value) = line.strip_prefix("attribute \\init ") {
                pending = value.split_once('\'').map(|(_, bits)| bits.to_string());
            } else if let Some(rest) = line.strip_prefix("wire ") {
                if let (Some(bits), Some(name)) = (pending.take(), rest.split_whitespace().last()) {
                    init.insert(name.to_string(), bits);
                }
            } else if !line.starts_with("attribute ") {
                pending = None;
            }
        }
        PowerUp { q, init }
    }

    /// The wire `cell`'s Q drives and the bit of it where Q starts (a whole
    /// wire, or one slice of one; None for a concatenation).
    pub(crate) fn q_wire(&self, cell: &str) -> Option<(&str, u32)> {
        let conn = self.q.get(cell)?;
        match conn.split_once(" [") {
            None => Some((conn.as_str(), 0)).filter(|(w, _)| !w.contains(|c: char| c.is_whitespace() || c == '{')),
            Some((w, range)) => {
                let range = range.strip_suffix(']')?;
                let low = range.split_once(':').map_or(range, |(_, lo)| lo);
                Some((w, low.parse::<u32>().ok()?))
            }
        }
    }

    /// A wire's power-up bits, most significant first.
    pub(crate) fn init_bits(&self, wire: &str) -> Option<&str> {
        self.init.get(wire).map(String::as_str)
    }

    /// The power-up value of bit `bit` of `cell`'s Q: its wire's init bit,
    /// or None when not read here.
    fn q_bit(&self, cell: &str, bit: u32) -> Option<char> {
        let (wire, offset) = self.q_wire(cell)?;
        let bits = self.init_bits(wire)?;
        let at = (offset + bit) as usize;
        bits.len().checked_sub(at + 1).and_then(|i| bits.chars().nth(i)).filter(|c| matches!(c, '0' | '1'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_register_outputs_power_up_bit_is_read_from_its_wire() {
        let il = "attribute \\init 4'1010\nwire width 4 \\r.q\nwire width 8 \\s\nattribute \\init 8'00010000\nwire width 8 \\t\n\
                  cell $dff $a\n  connect \\Q \\r.q\nend\ncell $dff $b\n  connect \\Q \\t [7:4]\nend\ncell $dff $c\n  connect \\Q \\s\nend\n";
        let p = PowerUp::read(il);
        assert_eq!((p.q_bit("$a", 0), p.q_bit("$a", 1), p.q_bit("$a", 3)), (Some('0'), Some('1'), Some('1')));
        assert_eq!((p.q_bit("$b", 0), p.q_bit("$b", 1)), (Some('1'), Some('0')), "bit 4 and 5 of t");
        assert_eq!(p.q_bit("$c", 0), None, "no init");
        assert_eq!(p.q_bit("$a", 9), None, "past the wire");
    }

    #[test]
    fn a_listed_mutation_parses_and_applies_by_its_key_fields() {
        let line = "mutate -ctrl mutsel 8 2 -mode cnot1 -module atomic_alu -cell $procmux$3290 -port Y -portbit 24 -ctrlbit 12 \
                    -wire float_mask_1.d -wirebit 24 -src atomic_alu.v:238.29-242.6 -src atomic_alu.v:6251.25-6251.26";
        let m = Mutation::parse(line).unwrap();
        assert_eq!((m.mode.as_str(), m.cell.as_str(), m.port.as_str(), m.portbit, m.ctrlbit), ("cnot1", "$procmux$3290", "Y", 24, Some(12)));
        assert_eq!(m.wire.as_deref(), Some("float_mask_1.d"));
        assert_eq!(m.src.len(), 2);
        assert_eq!(m.apply_args(), "-mode cnot1 -module atomic_alu -cell $procmux$3290 -port Y -portbit 24 -ctrlbit 12");
        assert_eq!(m.key(), "cnot1 $procmux$3290 Y[24] ctrlbit 12");
        assert!(Mutation::parse("mutate -mode inv -module m").is_err());
        assert!(Mutation::parse("mutate -mode inv -module m -cell c -port A -portbit x").is_err());
        assert!(Mutation::parse("read_verilog x.v").is_err());
    }

    #[test]
    fn a_memory_read_port_reset_is_not_writable() {
        let at = |port: &str| Mutation::parse(&format!("mutate -mode const0 -module u -cell inflight.rows -port {port} -portbit 0")).unwrap();
        assert!(!at("RD_ARST").writable() && !at("RD_SRST").writable());
        assert!(at("WR_EN").writable() && at("RD_DATA").writable() && at("Q").writable());
    }

    #[test]
    fn the_select_holds_every_mutation_and_the_canary() {
        assert_eq!(select_width(1), 2); // 0, 1, canary 2
        assert_eq!(select_width(2), 2); // 0..=3
        assert_eq!(select_width(3), 3);
        assert_eq!(select_width(500), 9);
        assert_eq!(select_width(510), 9); // 511 = the canary
        assert_eq!(select_width(511), 10);
    }
}
