//! Whether a surviving mutant is equivalent to the unmutated design: a
//! miter of the two (Yosys `miter -equiv`: every output compared in every
//! cycle, both copies from the design's power-up values), simplified by
//! Yosys (constant propagation, `opt_dff -sat` for registers that never
//! leave their power-up value, width reduction), written as an AIGER model
//! and given to ABC (Yosys's `yosys-abc`): `dprove` (sequential equivalence
//! by SAT sweeping, induction and interpolation), and when it does not
//! decide, `bmc3` to a stated depth. A counterexample means the mutant is
//! not equivalent: the kill suite has a hole, and the counterexample's input
//! sequence says where.
//!
//! A mutation inside a sub-block's instance is first proven on that
//! instance alone (Yosys `submod` cuts the flattened design at the
//! instance's boundary; its inputs become free in every cycle): equal
//! outputs there for every input sequence mean equal outputs of the whole
//! design, so the small proof settles it. Only when the instance's outputs
//! can differ does the whole design's miter decide (when the limits allow
//! it: a unit's miter holds some 18,000 flip-flops).
//!
//! Between the two: an instance whose parent guarantees more than free
//! inputs, or reads less than all of its outputs, can have a *context*
//! (`tools/mutate/contexts/<top>/<instance>.sv`: what the parent drives,
//! assumed; where it reads, asserted equal, each with its reason). A
//! combinational instance whose own proof finds a difference is proven
//! again in its context by Yosys's SAT solver over every input it allows.
//!
//! The AIGER model has one implicit clock, so a mutation of a register's
//! clock pin is never proven here: the kill suite must kill it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::mutants::{yosys, Mutation, Prepared};
use super::MutateError;

/// How far a survivor's equivalence proof may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofLimits {
    /// BMC depth (cycles after power-up) when the unbounded proof does not decide
    pub depth: u32,
    /// seconds for each of ABC's two tries
    pub timeout: u64,
    /// after an instance's proof does not settle it: the whole design's miter
    pub whole_design: bool,
}

/// What the proof found.
#[derive(Clone, Debug, PartialEq)]
pub enum ProofResult {
    /// no output depends on the mutated point once Yosys has propagated
    /// the design's constants (every cycle, every input)
    Unobservable,
    /// no output depends on the mutated point once Yosys has also replaced
    /// by their power-up value the registers a one-step induction proves
    /// never leave it (`opt_dff -sat`, with every mutation's control input
    /// free in every cycle)
    UnobservableHeld,
    /// equal outputs in every reachable state
    Equivalent,
    /// equal outputs for the first `depth` cycles after power-up; no
    /// unbounded answer within the time allowed
    BoundedEquivalent { depth: u32 },
    /// the outputs differ `frame` cycles after power-up for the input
    /// sequence given (one line per cycle: the inputs that differ from the
    /// cycle before)
    Different { frame: u32, inputs: Vec<String> },
    /// the outputs of the sub-block instance holding the mutation are equal
    /// for every input sequence (unbounded), or for `depth` cycles after
    /// power-up: so are the design's
    InstanceEquivalent { instance: String, depth: Option<u32> },
    /// the outputs of the sub-block instance holding the mutation are equal
    /// wherever its parent reads them, for every input its parent can give
    /// it (`context`: the file stating both, `tools/mutate/contexts/`)
    ContextEquivalent { instance: String, context: String },
    /// the instance's outputs differ for the input sequence given (its own
    /// inputs); whether the design's outputs can is not decided
    InstanceDifferent { instance: String, inputs: Vec<String> },
    /// no answer, with why
    Unknown(String),
}

impl ProofResult {
    pub fn name(&self) -> String {
        match self {
            ProofResult::Unobservable => "equivalent (no output depends on it once Yosys propagates constants)".into(),
            ProofResult::UnobservableHeld => {
                "equivalent (no output depends on it once Yosys propagates constants and the registers it proves held at their power-up value, opt_dff -sat)".into()
            }
            ProofResult::Equivalent => "equivalent (ABC dprove: every reachable state)".into(),
            ProofResult::BoundedEquivalent { depth } => format!("equivalent for {depth} cycles after power-up (ABC bmc3)"),
            ProofResult::Different { frame, .. } => format!("not equivalent: outputs differ {frame} cycles after power-up"),
            ProofResult::InstanceEquivalent { instance, depth: None } => {
                format!("equivalent (ABC dprove on instance `{instance}` alone: every input sequence)")
            }
            ProofResult::InstanceEquivalent { instance, depth: Some(d) } => {
                format!("equivalent for {d} cycles after power-up (ABC bmc3 on instance `{instance}` alone)")
            }
            ProofResult::ContextEquivalent { instance, context } => {
                format!("equivalent (SAT on instance `{instance}` under its parent's guarantees, {context}: every input it can get)")
            }
            ProofResult::InstanceDifferent { instance, .. } => {
                format!("unknown (the outputs of instance `{instance}` differ for some inputs; the design's not proven)")
            }
            ProofResult::Unknown(why) => format!("unknown ({why})"),
        }
    }

    /// Proven equivalent, unbounded or to the depth asked.
    pub fn is_equivalent(&self) -> bool {
        matches!(
            self,
            ProofResult::Unobservable
                | ProofResult::UnobservableHeld
                | ProofResult::Equivalent
                | ProofResult::BoundedEquivalent { .. }
                | ProofResult::InstanceEquivalent { .. }
                | ProofResult::ContextEquivalent { .. }
        )
    }
}

/// A proof's result and cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof {
    pub result: ProofResult,
    pub seconds: f64,
}

/// Which of `mutations` (by select value) no output can see once constants
/// are propagated: each applied behind a one-bit control input of its own
/// (`mk<select>`), the memories mapped to registers (a RAM column no read
/// of which any output sees is then unused logic like any other), the
/// design optimized once, gate by gate (Yosys `opt`,
/// `wreduce`, `techmap`, `opt`: constant folding, registers whose input is
/// their constant power-up value, unused logic removed), and every control
/// input left without a load is a mutation no output depends on. Sound:
/// the optimizations keep every output's function; a mutation that still
/// reaches an output through another one's logic counts as reaching it.
pub fn unobservable(p: &Prepared, mutations: &[(u64, &Mutation)]) -> Result<Vec<u64>, MutateError> {
    dead_controls(p, mutations, "unobservable", "")
}

/// Yosys's rounds that replace a register by its power-up value when its
/// next value equals it whenever it holds it, whatever the inputs and the
/// other registers (`opt_dff -sat`: a one-step induction on that register),
/// each followed by the constant propagation that lets the next round see
/// the registers it fed; three rounds.
const HELD_REGISTERS: &str = "opt_dff -sat -keepdc\nopt -keepdc\nwreduce -keepdc\nopt -keepdc\n";

/// Which of `mutations` no output can see once, beyond `unobservable`'s
/// constants, the registers proven held at their power-up value are
/// replaced by it (a mutation that only such registers pass on to an
/// output is then dead logic; on the 32-bit small build, bit 48 of the
/// in-flight table's head line is one). Sound for each
/// mutation: its control input is free in every cycle, so a register
/// proven held is held in the design with any one mutation switched on.
pub fn unobservable_held(p: &Prepared, mutations: &[(u64, &Mutation)]) -> Result<Vec<u64>, MutateError> {
    dead_controls(p, mutations, "unobservable-held", &HELD_REGISTERS.repeat(3))
}

/// The control inputs left without a load after `extra` (Yosys commands
/// run after the constant propagation), written to `proofs/<name>.v`.
fn dead_controls(p: &Prepared, mutations: &[(u64, &Mutation)], name: &str, extra: &str) -> Result<Vec<u64>, MutateError> {
    let dir = p.dir.join("proofs");
    std::fs::create_dir_all(&dir).map_err(|e| MutateError::io(&dir, e))?;
    let mut script = String::from("read_rtlil ../design.il\n");
    for (select, m) in mutations {
        script.push_str(&format!("mutate -ctrl mk{select} 1 1 {}\n", m.apply_args()));
    }
    script.push_str("memory_map\n");
    script.push_str(super::mutants::LIVE_LOGIC);
    script.push_str(extra);
    script.push_str(&format!("techmap\nopt -keepdc\nopt_clean -purge\nwrite_verilog -noattr {name}.v\n"));
    yosys(&dir, &script, name)?;
    let live_path = dir.join(format!("{name}.v"));
    let text = std::fs::read_to_string(&live_path).map_err(|e| MutateError::io(&live_path, e))?;
    let mut live = std::collections::BTreeSet::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("input ") || t.starts_with("wire ") || t.starts_with("module ") || t.starts_with(',') {
            continue;
        }
        for word in t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if let Some(v) = word.strip_prefix("mk").and_then(|n| n.parse::<u64>().ok()) {
                live.insert(v);
            }
        }
    }
    Ok(mutations.iter().map(|(k, _)| *k).filter(|k| !live.contains(k)).collect())
}

/// Proves mutation `m` (number `index` of the list, for the folder's name)
/// equivalent or not.
pub fn prove(p: &Prepared, m: &Mutation, index: usize, limits: ProofLimits) -> Result<Proof, MutateError> {
    let start = Instant::now();
    if m.port == "CLK" {
        let result = ProofResult::Unknown("a register's clock pin: the AIGER model has one implicit clock".into());
        return Ok(Proof { result, seconds: 0.0 });
    }
    let dir = p.dir.join("proofs").join(format!("m{index}"));
    std::fs::create_dir_all(&dir).map_err(|e| MutateError::io(&dir, e))?;
    let mut instance_result = None;
    if let Some(instance) = instance_of(&m.cell) {
        let mut result = prove_instance(p, m, &dir.join("instance"), instance, limits)?;
        if let ProofResult::InstanceDifferent { .. } = result {
            if let Some(r) = prove_in_context(p, m, &dir.join("context"), instance)? {
                result = r;
            }
        }
        if result.is_equivalent() || !limits.whole_design {
            return Ok(Proof { result, seconds: start.elapsed().as_secs_f64() });
        }
        instance_result = Some(result);
    }
    if !limits.whole_design {
        let result = ProofResult::Unknown("a mutation of the top module; the whole design's miter is not asked for".into());
        return Ok(Proof { result, seconds: start.elapsed().as_secs_f64() });
    }
    let top = &p.top;
    let script = format!(
        "read_rtlil ../../design.il\nmutate {}\n{}rename {top} gate\nread_rtlil ../../design.il\nrename {top} gold\n\
         miter -equiv -flatten gold gate miter\nhierarchy -top miter\nflatten\nmemory_map\n\
         opt -full\nopt_dff -sat\nopt -full\nwreduce\nopt -full\n\
         async2sync\ntechmap\ndffunmap\nabc -g AND\nopt_clean\nwrite_aiger -zinit -map miter.aim miter.aig\n",
        m.apply_args(),
        init_fix(p, m, top)
    );
    if let Err(e) = yosys(&dir, &script, "miter") {
        return Ok(Proof { result: ProofResult::Unknown(e.to_string()), seconds: start.elapsed().as_secs_f64() });
    }
    let timeout = Duration::from_secs(limits.timeout);
    let unbounded = abc(&dir, "read_aiger miter.aig; dprove; write_cex -n cex.txt", timeout)?;
    let mut result = read_dprove(&unbounded);
    if result.is_none() {
        let bmc = abc(&dir, &format!("read_aiger miter.aig; bmc3 -F {} -T {}; write_cex -n cex.txt", limits.depth, limits.timeout), timeout)?;
        result = Some(read_bmc(&bmc));
    }
    let mut result = result.unwrap_or_else(|| ProofResult::Unknown("no answer".into()));
    if let ProofResult::Different { inputs, .. } = &mut result {
        *inputs = counterexample(&dir);
    }
    if let (ProofResult::Unknown(_), Some(r)) = (&result, instance_result) {
        result = r;
    }
    Ok(Proof { result, seconds: start.elapsed().as_secs_f64() })
}

/// A register output tied to a constant (`const0`/`const1` on port `Q`)
/// leaves the power-up value (`init`) on the wire the constant now drives,
/// and Yosys stops on "Conflicting init values": the Yosys line that makes
/// that bit's power-up value undefined in `module` (the register no longer
/// drives it), or nothing. Read from the design's RTLIL: the cell's `Q`
/// connection (a whole wire) and that wire's `init`.
fn init_fix(p: &Prepared, m: &Mutation, module: &str) -> String {
    if m.port != "Q" || !m.mode.starts_with("const") {
        return String::new();
    }
    let Ok(il) = std::fs::read_to_string(&p.rtlil) else { return String::new() };
    let power_up = super::mutants::PowerUp::read(&il);
    // a whole wire (its full init rewritten with one bit undefined)
    let Some((wire, 0)) = power_up.q_wire(&m.cell) else { return String::new() };
    let Some(bits) = power_up.init_bits(wire) else { return String::new() };
    let (width, bit) = (bits.len(), m.portbit as usize);
    if bit >= width {
        return String::new();
    }
    let mut value: Vec<char> = bits.chars().collect();
    value[width - 1 - bit] = 'x';
    format!("setattr -set init {width}'b{} {module}/w:{}\n", value.into_iter().collect::<String>(), wire.trim_start_matches('\\'))
}

/// The sub-block instance a flattened cell belongs to (`$flatten\decoder.$eq$...`
/// -> `decoder`); None for a cell of the top module.
pub fn instance_of(cell: &str) -> Option<&str> {
    let rest = cell.strip_prefix("$flatten\\")?;
    let end = rest.find('.')?;
    Some(&rest[..end]).filter(|i| !i.is_empty())
}

/// Mutation `m` proven on `instance` alone: its cells cut out of the
/// flattened design (`submod`), a miter of that module against its mutated
/// copy, ABC's dprove, then bmc3.
fn prove_instance(p: &Prepared, m: &Mutation, dir: &Path, instance: &str, limits: ProofLimits) -> Result<ProofResult, MutateError> {
    std::fs::create_dir_all(dir).map_err(|e| MutateError::io(dir, e))?;
    let mut gate = m.clone();
    gate.module = "gate".into();
    let design = p.rtlil.canonicalize().unwrap_or_else(|_| p.rtlil.clone());
    let script = format!(
        "read_rtlil {}\nsubmod -name instance c:$flatten\\\\{instance}.*\nrename instance gold\ncopy gold gate\nmutate {}\n{}\
         miter -equiv -flatten gold gate miter\nhierarchy -top miter\nflatten\nmemory_map\n\
         opt -full\nopt_dff -sat\nopt -full\nwreduce\nopt -full\n\
         async2sync\ntechmap\ndffunmap\nabc -g AND\nopt_clean\nwrite_aiger -zinit -map miter.aim miter.aig\n",
        design.display(),
        gate.apply_args(),
        init_fix(p, m, "gate")
    );
    if let Err(e) = yosys(dir, &script, "miter") {
        return Ok(ProofResult::Unknown(format!("instance `{instance}`: {e}")));
    }
    let timeout = Duration::from_secs(limits.timeout);
    let unbounded = abc(dir, "read_aiger miter.aig; dprove; write_cex -n cex.txt", timeout)?;
    let mut result = read_dprove(&unbounded);
    if result.is_none() {
        let bmc = abc(dir, &format!("read_aiger miter.aig; bmc3 -F {} -T {}; write_cex -n cex.txt", limits.depth, limits.timeout), timeout)?;
        result = Some(read_bmc(&bmc));
    }
    let instance = instance.to_string();
    Ok(match result {
        Some(ProofResult::Equivalent) => ProofResult::InstanceEquivalent { instance, depth: None },
        Some(ProofResult::BoundedEquivalent { depth }) => ProofResult::InstanceEquivalent { instance, depth: Some(depth) },
        Some(ProofResult::Different { .. }) => ProofResult::InstanceDifferent { instance, inputs: counterexample(dir) },
        Some(other) => other,
        None => ProofResult::Unknown("no answer".into()),
    })
}

/// The folder of the instances' contexts: `<top>/<instance>.sv`, a module
/// `context` that instantiates the instance's cut-out module twice (`gold`,
/// `gate`: the mutated copy), assumes what its parent guarantees about the
/// instance's inputs and asserts equal outputs wherever the parent reads
/// them. Each states its argument; a reviewer checks it against the RTL.
pub fn contexts_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/contexts"))
}

/// Mutation `m` on a combinational `instance` proven under its parent's
/// guarantees (`contexts_dir()/<top>/<instance>.sv`), by Yosys's SAT solver
/// over every input the context allows; None without a context file, or
/// when the proof finds a difference (the instance's own proof stands).
fn prove_in_context(p: &Prepared, m: &Mutation, dir: &Path, instance: &str) -> Result<Option<ProofResult>, MutateError> {
    let file = contexts_dir().join(&p.top).join(format!("{instance}.sv"));
    if !file.is_file() {
        return Ok(None);
    }
    std::fs::create_dir_all(dir).map_err(|e| MutateError::io(dir, e))?;
    let mut gate = m.clone();
    gate.module = "gate".into();
    let design = p.rtlil.canonicalize().unwrap_or_else(|_| p.rtlil.clone());
    let script = format!(
        "read_rtlil {}\nsubmod -name instance c:$flatten\\\\{instance}.*\nrename instance gold\ncopy gold gate\nmutate {}\n\
         read_verilog -formal {}\nhierarchy -top context\nflatten\nproc\nopt -fast\n\
         sat -prove-asserts -set-assumes -show-inputs\n",
        design.display(),
        gate.apply_args(),
        file.display()
    );
    let log = match yosys(dir, &script, "context") {
        Ok(()) => std::fs::read_to_string(dir.join("context.log")).unwrap_or_default(),
        Err(e) => return Ok(Some(ProofResult::Unknown(format!("instance `{instance}` in its context: {e}")))),
    };
    if !log.contains("SAT proof finished - no model found: SUCCESS!") {
        return Ok(None);
    }
    let context = format!("tools/mutate/contexts/{}/{instance}.sv", p.top);
    Ok(Some(ProofResult::ContextEquivalent { instance: instance.to_string(), context }))
}

/// Runs `yosys-abc -c commands` in `dir`, killed after `timeout`; its output
/// (also kept in `dir/abc.log`).
fn abc(dir: &Path, commands: &str, timeout: Duration) -> Result<String, MutateError> {
    let log = dir.join("abc.log");
    let file = std::fs::File::create(&log).map_err(|e| MutateError::io(&log, e))?;
    let err = file.try_clone().map_err(|e| MutateError::io(&log, e))?;
    let mut child = Command::new("yosys-abc")
        .current_dir(dir)
        .args(["-c", commands])
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err)
        .spawn()
        .map_err(|e| MutateError::Tool { what: format!("cannot run yosys-abc: {e} (it comes with Debian's yosys)"), log: log.clone() })?;
    let start = Instant::now();
    let mut timed_out = false;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > timeout + Duration::from_secs(5) => {
                let _ = child.kill();
                let _ = child.wait();
                timed_out = true;
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(MutateError::io(&log, e)),
        }
    }
    let mut out = std::fs::read_to_string(&log).unwrap_or_default();
    if timed_out {
        out.push_str("\n(killed at the time limit)\n");
    }
    Ok(out)
}

/// `dprove`'s (or, without latches, CEC's) answer; None when undecided.
fn read_dprove(out: &str) -> Option<ProofResult> {
    if out.contains("Networks are equivalent") || out.contains("UNSATISFIABLE") {
        return Some(ProofResult::Equivalent);
    }
    if let Some(frame) = asserted_frame(out) {
        return Some(ProofResult::Different { frame, inputs: vec![] });
    }
    // CEC on a model without latches: a satisfiable miter is a difference
    if out.lines().any(|l| l.trim_start().starts_with("SATISFIABLE")) {
        return Some(ProofResult::Different { frame: 0, inputs: vec![] });
    }
    if out.to_lowercase().contains("networks are not equivalent") {
        return Some(ProofResult::Different { frame: 0, inputs: vec![] });
    }
    None
}

/// `bmc3`'s answer.
fn read_bmc(out: &str) -> ProofResult {
    if let Some(frame) = asserted_frame(out) {
        return ProofResult::Different { frame, inputs: vec![] };
    }
    if out.contains("Explored all reachable states") {
        return ProofResult::Equivalent;
    }
    let depth = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("No output asserted in ")?.split_whitespace().next()?.parse().ok())
        .max();
    match depth {
        Some(d) => ProofResult::BoundedEquivalent { depth: d },
        None => ProofResult::Unknown("neither ABC dprove nor bmc3 answered in time".into()),
    }
}

/// `Output 0 of miter "..." was asserted in frame N`.
fn asserted_frame(out: &str) -> Option<u32> {
    out.lines().find_map(|l| l.split("was asserted in frame ").nth(1)?.trim_end_matches(|c: char| !c.is_ascii_digit()).split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
}

/// The counterexample's inputs per cycle (`in_op=0x4 in_src0=0x...`, only
/// the inputs that changed since the cycle before), from ABC's `cex.txt`
/// and the AIGER symbol map Yosys wrote.
fn counterexample(dir: &Path) -> Vec<String> {
    let (Ok(map), Ok(cex)) = (std::fs::read_to_string(dir.join("miter.aim")), std::fs::read_to_string(dir.join("cex.txt"))) else {
        return vec![];
    };
    // AIGER input index -> (port, bit)
    let mut inputs: BTreeMap<usize, (String, usize)> = BTreeMap::new();
    for line in map.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if let ["input", index, bit, name] = w[..] {
            if let (Ok(i), Ok(b)) = (index.parse(), bit.parse()) {
                inputs.insert(i, (name.trim_start_matches("in_").to_string(), b));
            }
        }
    }
    // frame -> port -> value
    let mut frames: BTreeMap<u32, BTreeMap<String, Vec<(usize, bool)>>> = BTreeMap::new();
    for line in cex.lines() {
        let Some(rest) = line.strip_prefix("pi") else { continue };
        let Some((index, rest)) = rest.split_once('@') else { continue };
        let Some((frame, value)) = rest.split_once('=') else { continue };
        let (Ok(index), Ok(frame)) = (index.parse::<usize>(), frame.parse::<u32>()) else { continue };
        if let Some((port, bit)) = inputs.get(&index) {
            frames.entry(frame).or_default().entry(port.clone()).or_default().push((*bit, value.trim() == "1"));
        }
    }
    let mut out = vec![];
    let mut before: BTreeMap<String, String> = BTreeMap::new();
    for (frame, ports) in frames {
        let mut changed = vec![];
        for (port, bits) in ports {
            let width = bits.iter().map(|(b, _)| b + 1).max().unwrap_or(1);
            let mut words = vec![0u32; width.div_ceil(32)];
            for (b, v) in bits {
                if v {
                    words[b / 32] |= 1 << (b % 32);
                }
            }
            let all: String = words.iter().rev().map(|w| format!("{w:08x}")).collect();
            let digits = all.trim_start_matches('0');
            let hex = format!("0x{}", if digits.is_empty() { "0" } else { digits });
            if before.get(&port) != Some(&hex) {
                changed.push(format!("{port}={hex}"));
                before.insert(port, hex);
            }
        }
        out.push(format!("cycle {frame}: {}", if changed.is_empty() { "(no change)".into() } else { changed.join(" ") }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abc_answers_read_as_results() {
        assert_eq!(read_dprove("Reached limit on the number of timeframes (20).\nNetworks are equivalent.  Time =     0.00 sec\n"), Some(ProofResult::Equivalent));
        assert_eq!(read_dprove("The network has no latches. Running CEC.\nUNSATISFIABLE  Time =     0.01 sec\n"), Some(ProofResult::Equivalent));
        assert_eq!(
            read_dprove("Output 0 of miter \"miter\" was asserted in frame 4. Time =     0.02 sec\nNetworks are not equivalent.\n"),
            Some(ProofResult::Different { frame: 4, inputs: vec![] })
        );
        assert_eq!(read_dprove("Networks are UNDECIDED.\n"), None);
        assert_eq!(read_dprove("The network has no latches. Running CEC.\nSATISFIABLE    Time =     0.01 sec\n"), Some(ProofResult::Different { frame: 0, inputs: vec![] }));
        assert_eq!(instance_of("$flatten\\decoder.$eq$u.v:8370$2084"), Some("decoder"));
        assert_eq!(instance_of("$flatten\\ent_data$6.$procdff$1"), Some("ent_data$6"));
        assert_eq!(instance_of("$auto$ff.cc:266:slice$17176"), None);
        assert_eq!(read_bmc("No output asserted in 4 frames. Resource limit reached (timeout 100 sec).\n"), ProofResult::BoundedEquivalent { depth: 4 });
        assert_eq!(read_bmc("Explored all reachable states after completing 8 frames.\n"), ProofResult::Equivalent);
        assert!(matches!(read_bmc("(killed at the time limit)\n"), ProofResult::Unknown(_)));
        assert!(ProofResult::BoundedEquivalent { depth: 4 }.is_equivalent());
        assert!(!ProofResult::Different { frame: 1, inputs: vec![] }.is_equivalent());
    }
}
