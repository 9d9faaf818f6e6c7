//! `atomport synth --table`: the figures of the default configurations on
//! every target, as the Markdown table of README.md's "Synthesis" section
//! (between [`BEGIN_MARKER`] and [`END_MARKER`]). The table is produced by
//! the runs, never typed in.

use super::asic;
use super::stats::{CellClass, Resource};
use super::{synth, Options, PnrOutcome, SynthError, SynthReport, Target};

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
                let result = synth(&opts);
                done.lock().unwrap().push((i, TableEntry { block, label, target, result }));
            });
        }
    });
    let mut entries = done.into_inner().unwrap();
    entries.sort_by_key(|(i, _)| *i);
    entries.into_iter().map(|(_, e)| e).collect()
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

/// The Markdown: a line on how it was made, the table, the notes.
pub fn markdown(entries: &[TableEntry], seed: u64) -> String {
    let mut tools: Vec<String> = vec![];
    for e in entries {
        if let Ok(r) = &e.result {
            for t in &r.tools {
                if !tools.contains(t) {
                    tools.push(t.clone());
                }
            }
        }
    }
    let freqs: Vec<String> = Target::ALL
        .iter()
        .filter(|t| t.is_fpga() && entries.iter().any(|e| e.target == **t))
        .filter_map(|t| t.default_freq_mhz().map(|f| format!("{} {f} MHz", t.name())))
        .collect();
    let mut s = format!(
        "Produced by `atomport synth --table` (seed {seed}; nextpnr clock constraint: {}). Tools: {}.\n\n",
        if freqs.is_empty() { "none".to_string() } else { freqs.join(", ") },
        tools.join("; ")
    );
    s += "| block | target (part) | cells | LUTs | flip-flops | carry | memories | DSPs | fmax / logic depth | device use after place & route |\n";
    s += "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n";
    for e in entries {
        let name = format!("`{}`", e.block);
        let r = match &e.result {
            Ok(r) => r,
            Err(err) => {
                let first = err.to_string().lines().next().unwrap_or("").replace('|', "\\|");
                s += &format!("| {name} | {} | error: {first} | | | | | | | |\n", e.target.name());
                continue;
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
                match a.min_period_ns() {
                    Some(p) => format!("**{:.2} MHz** ({p:.2} ns)", 1000.0 / p),
                    None => "no register-to-register path".into(),
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
        s += &format!(
            "| {name} | {target} | {} | {luts} | {} | {} | {} | {} | {speed} | {device} |\n",
            c.cells,
            r.flip_flops(),
            dash(c.count(CellClass::Carry)),
            memories,
            dash(c.count(CellClass::Dsp)),
        );
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
          (input bits a smaller build ignores are tied to 0).\n";
    s
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
