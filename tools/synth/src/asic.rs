//! The ASIC target: the block mapped to a standard-cell library by Yosys
//! and timed by OpenSTA (docs/synthesis.md "ASIC: standard cells and static
//! timing").
//!
//! 1. Yosys: `synth -flatten`, `dfflibmap` and `abc -liberty` with the
//!    clock target (`-D`, ps) and an ABC script of our own that ends with
//!    `stime -p`, so ABC prints its delay estimate (Yosys 0.23's default
//!    script prints none); then the netlist cleaned for OpenSTA, which
//!    rejects Yosys's concatenation `assign`s: `splitnets -ports; opt_clean
//!    -purge; insbuf` (a buffer per port-to-port connection); flip-flops
//!    renamed after the register bit they hold (`rename -wire`), so the
//!    timing report names registers, not `_1234_`.
//! 2. OpenSTA: `read_liberty`, `read_verilog`, `link_design`, `create_clock`
//!    on the block's clock port; the worst register-to-register path (the
//!    minimum period: the clock is ideal, there is no wire load, so it is
//!    the cells' delay at the library's corner); then the inputs and
//!    outputs with a zero external delay (a flip-flop outside with no
//!    clock-to-Q and no setup), reported apart; `report_power` with one
//!    fixed activity on every net.
//!
//! Area and cells are counted on the netlist OpenSTA times.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::liberty::{self, CellKind};
use super::stats::{self, CellStats};
use super::tools::{self, run_logged, show, Tool};
use super::yosys::{self, read_file, write_whole, ys_path, ys_sources};
use super::{SynthError, SynthReport};

/// A library the flow knows by name: a Debian package ships its liberty.
#[derive(Debug, PartialEq, Eq)]
pub struct KnownLibrary {
    /// what `--lib` takes
    pub name: &'static str,
    /// the Debian package (`apt-get download` + `dpkg-deb -x`, never installed)
    pub package: &'static str,
    /// the liberty's path inside the package
    pub path: &'static str,
    pub description: &'static str,
}

/// Every library `--lib` accepts; the first is the default.
pub const LIBRARIES: &[KnownLibrary] = &[
    KnownLibrary {
        name: "osu018",
        package: "qflow-tech-osu018",
        path: "usr/share/qflow/tech/osu018/osu018_stdcells.lib",
        description: "Oklahoma State University standard cells for 0.18 µm (MOSIS SCN6M_SUBM rules), one corner",
    },
    KnownLibrary {
        name: "osu035",
        package: "qflow-tech-osu035",
        path: "usr/share/qflow/tech/osu035/osu035_stdcells.lib",
        description: "Oklahoma State University standard cells for 0.35 µm (MOSIS SCN4M_SUBM rules), one corner",
    },
];

/// The library `name` (`--lib`).
pub fn known_library(name: &str) -> Result<&'static KnownLibrary, SynthError> {
    LIBRARIES.iter().find(|l| l.name == name).ok_or_else(|| {
        SynthError::Input(format!(
            "--lib {name}: libraries are {} (or --liberty PATH for any other)",
            LIBRARIES.iter().map(|l| l.name).collect::<Vec<_>>().join(", ")
        ))
    })
}

/// Which standard-cell library the ASIC target maps to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibertyChoice {
    /// a [`KnownLibrary`] by name (`--lib`)
    Known(String),
    /// a liberty file (`--liberty PATH`)
    File(PathBuf),
}

impl Default for LibertyChoice {
    fn default() -> Self {
        LibertyChoice::Known(LIBRARIES[0].name.to_string())
    }
}

impl LibertyChoice {
    /// How reports and the table name it: the library's `--lib` name, or the file's name.
    pub fn label(&self) -> String {
        match self {
            LibertyChoice::Known(name) => name.clone(),
            LibertyChoice::File(path) => path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
        }
    }
}

/// Where `make synth-deps` (and `--install`) extract the known libraries'
/// packages: `target/liberty/<package>/` of this source tree.
pub fn default_liberty_root() -> PathBuf {
    let tools_synth = Path::new(env!("CARGO_MANIFEST_DIR"));
    tools_synth.parent().and_then(Path::parent).unwrap_or(tools_synth).join("target").join("liberty")
}

/// The liberty file of `choice`. A known library is looked for where `make
/// synth-deps` extracts it (`root/<package>/<path>`), then where its Debian
/// package installs it (`/<path>`); when it is in neither, it is extracted
/// into `root` if `install`, else it is missing (exit 2, how to get it).
pub fn find_liberty(choice: &LibertyChoice, root: &Path, install: bool) -> Result<PathBuf, SynthError> {
    let lib = match choice {
        LibertyChoice::File(path) => {
            return if path.is_file() {
                std::fs::canonicalize(path).map_err(|error| SynthError::Io { path: path.clone(), error })
            } else {
                Err(SynthError::Input(format!("--liberty {}: no such file", path.display())))
            };
        }
        LibertyChoice::Known(name) => known_library(name)?,
    };
    let extracted = root.join(lib.package).join(lib.path);
    let system = Path::new("/").join(lib.path);
    for candidate in [&extracted, &system] {
        if candidate.is_file() {
            return std::fs::canonicalize(candidate).map_err(|error| SynthError::Io { path: candidate.clone(), error });
        }
    }
    let how = format!(
        "make synth-deps (or: apt-get download {pkg} && dpkg-deb -x {pkg}_*.deb {dir})",
        pkg = lib.package,
        dir = show(&root.join(lib.package)).display()
    );
    if !install {
        return Err(SynthError::ToolMissing {
            tool: format!("the {} liberty ({})", lib.name, lib.package),
            detail: format!("not in {} nor {}; {}", show(&extracted).display(), system.display(), tools::NOT_INSTALLED),
            how,
        });
    }
    tools::apt_extract(lib.package, &root.join(lib.package)).map_err(|detail| SynthError::ToolMissing {
        tool: format!("the {} liberty ({})", lib.name, lib.package),
        detail,
        how: how.clone(),
    })?;
    if extracted.is_file() {
        std::fs::canonicalize(&extracted).map_err(|error| SynthError::Io { path: extracted.clone(), error })
    } else {
        Err(SynthError::ToolMissing {
            tool: format!("the {} liberty ({})", lib.name, lib.package),
            detail: format!("{} extracted, but it has no {}", lib.package, lib.path),
            how,
        })
    }
}

/// The clock target when `--freq` is not given (MHz): ABC's delay target
/// and the period OpenSTA's slack and power are computed at. The reported
/// minimum period does not depend on the period given to OpenSTA; ABC's
/// mapping does depend (a little) on its target, so every row of the table
/// uses this one.
pub const DEFAULT_CLOCK_MHZ: f64 = 100.0;

/// Switching activity of every net but the clock for `report_power`
/// (`set_power_activity -global`: transitions per clock cycle, duty 0.5): a
/// fixed, vectorless assumption, so powers compare between builds, not with
/// silicon. (OpenSTA 2.0.17's propagation from the inputs instead gives
/// NaN on some register feedback loops of the unit.)
pub const NET_ACTIVITY: f64 = 0.1;

/// Everything the ASIC target measured.
#[derive(Clone, Debug, PartialEq)]
pub struct AsicFigures {
    /// `--lib` name or the liberty's file name
    pub library: String,
    /// the liberty's own name (`library(NAME)`)
    pub liberty_name: String,
    pub liberty: PathBuf,
    /// the liberty's operating corner (`typical, 1.8 V, 25 °C`)
    pub corner: String,
    /// ABC's `-D` target and OpenSTA's clock (MHz)
    pub clock_target_mhz: f64,
    /// the block's clock port
    pub clock_port: String,
    /// Yosys's `stat -liberty` chip area (the liberty's unit: µm² for the known libraries)
    pub area: f64,
    /// area by cell type
    pub area_by_type: std::collections::BTreeMap<String, f64>,
    pub flip_flops: u64,
    pub latches: u64,
    /// ABC's `stime -p` delay of the combinational logic it mapped (ns): an estimate
    pub abc_delay_ns: Option<f64>,
    /// the worst path from a flip-flop to a flip-flop of the block
    pub register_path: Option<TimingPath>,
    /// the worst path from an input port (zero external delay: as if a
    /// flip-flop outside launched it, with no clock-to-Q)
    pub input_path: Option<TimingPath>,
    /// the worst path to an output port (zero external delay: as if a
    /// flip-flop outside captured it, with no setup)
    pub output_path: Option<TimingPath>,
    /// `report_power` at the clock target
    pub power: Option<Power>,
    /// why `report_power` gave no figures (OpenSTA's words)
    pub power_error: Option<String>,
}

impl AsicFigures {
    /// The path that sets the clock, and which of the three it is: the
    /// slowest of the register-to-register, input and output paths. With
    /// the inputs and outputs registered just outside the block (zero
    /// external delay), this is the clock of register -> block -> register,
    /// what the FPGA targets' harness measures.
    pub fn critical_path(&self) -> Option<(&'static str, &TimingPath)> {
        [("register to register", &self.register_path), ("from an input", &self.input_path), ("to an output", &self.output_path)]
            .into_iter()
            .filter_map(|(kind, p)| Some((kind, p.as_ref()?)))
            .max_by(|a, b| a.1.delay_ns.total_cmp(&b.1.delay_ns))
    }

    /// The minimum clock period (ns): the critical path's delay.
    pub fn min_period_ns(&self) -> Option<f64> {
        self.critical_path().map(|(_, p)| p.delay_ns)
    }

    pub fn fmax_mhz(&self) -> Option<f64> {
        self.min_period_ns().filter(|p| *p > 0.0).map(|p| 1000.0 / p)
    }
}

/// One path of OpenSTA's `report_checks`.
#[derive(Clone, Debug, PartialEq)]
pub struct TimingPath {
    /// the launching flip-flop or input port
    pub from: String,
    /// the capturing flip-flop or output port
    pub to: String,
    /// the period this path needs (ns): arrival plus setup (or plus the
    /// output's external delay), i.e. the clock period minus the slack
    pub delay_ns: f64,
    /// the launching flip-flop's clock-to-Q (ns; 0 from an input port)
    pub clock_to_q_ns: f64,
    /// the capturing flip-flop's setup time (ns; 0 to an output port)
    pub setup_ns: f64,
    /// cells between the start and the end
    pub stages: usize,
    /// those cells by type
    pub stage_cells: std::collections::BTreeMap<String, u64>,
}

impl TimingPath {
    /// The combinational part (ns).
    pub fn logic_ns(&self) -> f64 {
        (self.delay_ns - self.clock_to_q_ns - self.setup_ns).max(0.0)
    }
}

/// `report_power`'s total row (W).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Power {
    pub internal_w: f64,
    pub switching_w: f64,
    pub leakage_w: f64,
    pub total_w: f64,
}

/// Runs the ASIC flow on `report`'s block into `report.dir`: Yosys, then
/// OpenSTA; fills `report.cells`, `report.warnings` and `report.asic`.
pub(crate) fn synth_asic(
    yosys: &Tool,
    sta: &Tool,
    liberty_path: &Path,
    library: &str,
    clock_mhz: f64,
    report: &mut SynthReport,
) -> Result<(), SynthError> {
    let dir = report.dir.clone();
    let top = report.block.top.clone();
    let lib_text = read_file(liberty_path)?;
    let lib = liberty::parse(&lib_text).map_err(|e| SynthError::Input(format!("{}:{e}", liberty_path.display())))?;
    let flops = lib.cells_of(CellKind::FlipFlop);
    if flops.is_empty() {
        return Err(SynthError::Input(format!(
            "{}: library `{}` has no flip-flop (no cell with an `ff` group): dfflibmap has nothing to map registers to",
            liberty_path.display(),
            lib.name
        )));
    }
    let buffer = lib.buffer().ok_or_else(|| {
        SynthError::Input(format!(
            "{}: library `{}` has no buffer (a cell with one input and one output whose function is the input)",
            liberty_path.display(),
            lib.name
        ))
    })?;
    let period_ps = 1.0e6 / clock_mhz;

    // 1. Yosys
    write_whole(&dir.join(ABC_SCRIPT), &abc_script(period_ps))?;
    write_whole(&dir.join(ABC_CONSTR), &abc_constraints(&buffer))?;
    let lib_ys = ys_path(liberty_path)?;
    let registers: Vec<String> =
        lib.cells_of(CellKind::FlipFlop).into_iter().chain(lib.cells_of(CellKind::Latch)).map(|c| format!("t:{c}")).collect();
    let script = format!(
        "# atomport synth: asic flow for `{top}` on {library} (docs/synthesis.md)\n\
         read_verilog -sv {verilog}\n\
         hierarchy -check -top {top}\n\
         synth -flatten -top {top}\n\
         dfflibmap -liberty {lib_ys}\n\
         abc -liberty {lib_ys} -D {period_ps:.0} -script {ABC_SCRIPT} -constr {ABC_CONSTR}\n\
         # the library's cells as black boxes: their pins' directions, for the clean-up\n\
         read_liberty -lib {lib_ys}\n\
         opt_clean -purge\n\
         # registers named after the bit they hold, for the timing report\n\
         rename -wire -suffix _reg {registers}\n\
         # a netlist OpenSTA reads: no concatenation assigns\n\
         splitnets -ports\n\
         opt_clean -purge\n\
         insbuf -buf {buf} {buf_in} {buf_out}\n\
         tee -q -o stat.json stat -json\n\
         tee -q -o stat-area.txt stat -liberty {lib_ys}\n\
         write_verilog -noattr -noexpr {NETLIST_V}\n",
        verilog = ys_sources(&report.block)?,
        registers = registers.join(" "),
        buf = buffer.cell,
        buf_in = buffer.input,
        buf_out = buffer.output,
    );
    let log = yosys::run_yosys(yosys, &dir, &script)?;
    report.warnings = yosys::warnings(&log);
    let cells = stats::parse_stat(&read_file(&dir.join("stat.json"))?, &top)
        .map_err(|e| SynthError::Parse { path: dir.join("stat.json"), detail: e.to_string() })?;
    let area = parse_chip_area(&read_file(&dir.join("stat-area.txt"))?, &top).ok_or_else(|| SynthError::Parse {
        path: dir.join("stat-area.txt"),
        detail: format!("no `Chip area for module '\\{top}'` line"),
    })?;
    let netlist = read_file(&dir.join(NETLIST_V))?;
    let clock_port = ["clock", "clk"]
        .into_iter()
        .find(|p| netlist.lines().any(|l| l.trim() == format!("input {p};")))
        .ok_or_else(|| SynthError::Input(format!("`{top}` has no 1-bit input `clock` or `clk`: nothing to time against")))?;

    // 2. OpenSTA
    let sta_script = sta_script(liberty_path, &top, clock_port, 1000.0 / clock_mhz)?;
    write_whole(&dir.join("sta.tcl"), &sta_script)?;
    let sta_log = dir.join("sta.log");
    let mut cmd = sta.command(["-no_init", "-no_splash", "-exit", "sta.tcl"]);
    cmd.current_dir(&dir);
    run_logged("sta", cmd, &sta_log)?;
    let text = read_file(&sta_log)?;
    let sections = parse_sta_log(&text, 1000.0 / clock_mhz).map_err(|detail| SynthError::ToolFailed {
        tool: "sta".into(),
        log: sta_log.clone(),
        status: Some(0),
        tail: format!("{detail}\n{}", tools::log_tail(&sta_log)),
    })?;

    let count = |kind: CellKind| cells.by_type.iter().filter(|(t, _)| lib.cells.get(*t).is_some_and(|c| c.kind == kind)).map(|(_, n)| n).sum();
    let area_by_type = cells
        .by_type
        .iter()
        .map(|(t, n)| (t.clone(), lib.cells.get(t).map(|c| c.area * *n as f64).unwrap_or(0.0)))
        .collect();
    report.asic = Some(AsicFigures {
        library: library.to_string(),
        liberty_name: lib.name.clone(),
        liberty: liberty_path.to_path_buf(),
        corner: lib.corner(),
        clock_target_mhz: clock_mhz,
        clock_port: clock_port.to_string(),
        area,
        area_by_type,
        flip_flops: count(CellKind::FlipFlop),
        latches: count(CellKind::Latch),
        abc_delay_ns: parse_abc_delay_ps(&log).map(|ps| ps / 1000.0),
        register_path: sections.register_to_register,
        input_path: sections.input,
        output_path: sections.output,
        power: sections.power,
        power_error: sections.power_error,
    });
    report.cells = cells;
    Ok(())
}

/// The cleaned netlist OpenSTA reads.
pub const NETLIST_V: &str = "netlist.v";
/// The ABC script and its constraints, in the run directory.
const ABC_SCRIPT: &str = "abc.script";
const ABC_CONSTR: &str = "abc.constr";

/// Yosys 0.23's script for `abc -liberty` with a delay target and a
/// constraint file (`ABC_COMMAND_CTR`: mapping, then buffering and sizing),
/// ending with `stime -p`, which prints the mapped logic's delay. `buffer
/// -p` buffers the primary inputs too: to ABC, every flip-flop output is
/// one, and a register that fans out to thousands of gates (a pipeline
/// stall) would otherwise drive them all from one flip-flop (tens of ns).
fn abc_script(period_ps: f64) -> String {
    let d = format!("-D {period_ps:.0}");
    format!(
        "# atomport synth: ABC for the asic flow; ends with stime -p, the delay estimate\n\
         strash\n&get -n\n&fraig -x\n&put\nscorr\ndc2\ndretime\nstrash\n&get -n\n&dch -f\n&nf {d}\n&put\n\
         buffer -p\nupsize {d}\ndnsize {d}\nstime -p\n"
    )
}

/// ABC's constraints: every input of the logic (a port or a flip-flop's
/// output) driven by the library's smallest buffer, every output (a
/// flip-flop's input or a port) loaded by one buffer input, so that ABC's
/// buffering and sizing see the fanout a register drives.
fn abc_constraints(buffer: &liberty::Buffer) -> String {
    let mut s = format!("set_driving_cell {}\n", buffer.cell);
    if let Some(ff) = buffer.input_ff {
        s += &format!("set_load {ff:.3}\n");
    }
    s
}

/// The OpenSTA script: sections between `atomport-sta:` marker lines.
fn sta_script(liberty: &Path, top: &str, clock: &str, period_ns: f64) -> Result<String, SynthError> {
    let lib = liberty.display().to_string();
    if lib.contains(|c| "{}\\".contains(c)) {
        return Err(SynthError::Input(format!("{lib}: a path with braces or backslashes cannot go into the OpenSTA script")));
    }
    Ok(format!(
        "# atomport synth: static timing of `{top}` (docs/synthesis.md)\n\
         read_liberty {{{lib}}}\n\
         read_verilog {NETLIST_V}\n\
         link_design {top}\n\
         set_cmd_units -time ns -power W\n\
         create_clock -name clock -period {period_ns} [get_ports {clock}]\n\
         puts \"atomport-sta: register-to-register\"\n\
         report_checks -from [all_registers -clock_pins] -to [all_registers -data_pins] -path_delay max -fields {{nets}} -digits 3\n\
         # inputs and outputs: a flip-flop outside with no clock-to-Q and no setup\n\
         set data_inputs [delete_from_list [all_inputs] [get_ports {clock}]]\n\
         set_input_delay 0 -clock clock $data_inputs\n\
         set_output_delay 0 -clock clock [all_outputs]\n\
         puts \"atomport-sta: input\"\n\
         report_checks -from $data_inputs -path_delay max -digits 3\n\
         puts \"atomport-sta: output\"\n\
         report_checks -to [all_outputs] -path_delay max -digits 3\n\
         set_power_activity -global -activity {NET_ACTIVITY} -duty 0.5\n\
         puts \"atomport-sta: power\"\n\
         # a figure if OpenSTA gives one, else its reason\n\
         if {{[catch {{report_power -digits 3}} why]}} {{ puts \"{POWER_FAILED} $why\" }}\n\
         puts \"atomport-sta: end\"\n"
    ))
}

/// The line [`sta_script`] prints when `report_power` fails, before OpenSTA's reason.
const POWER_FAILED: &str = "atomport-sta-power-failed:";

/// What the OpenSTA log says, section by section.
#[derive(Debug, Default, PartialEq)]
pub struct StaSections {
    pub register_to_register: Option<TimingPath>,
    pub input: Option<TimingPath>,
    pub output: Option<TimingPath>,
    pub power: Option<Power>,
    /// why `report_power` gave no figures
    pub power_error: Option<String>,
}

/// Splits the log of [`sta_script`] at its markers and reads each section.
/// `period_ns` is the clock the script created. An `Error:` line or a
/// missing section is an error (OpenSTA goes on after most errors).
pub fn parse_sta_log(log: &str, period_ns: f64) -> Result<StaSections, String> {
    if let Some(err) = log.lines().find(|l| l.starts_with("Error:")) {
        return Err(format!("OpenSTA: {err}"));
    }
    let mut sections: Vec<(&str, String)> = vec![];
    for line in log.lines() {
        if let Some(name) = line.strip_prefix("atomport-sta: ") {
            sections.push((name.trim(), String::new()));
        } else if let Some((_, text)) = sections.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    let section = |name: &str| -> Result<&str, String> {
        sections
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_str())
            .ok_or_else(|| format!("OpenSTA's log has no `atomport-sta: {name}` section: the script stopped early"))
    };
    section("end")?;
    Ok(StaSections {
        register_to_register: parse_path(section("register-to-register")?, period_ns)?,
        input: parse_path(section("input")?, period_ns)?,
        output: parse_path(section("output")?, period_ns)?,
        power: parse_power(section("power")?),
        power_error: section("power")?
            .lines()
            .find_map(|l| l.strip_prefix(POWER_FAILED))
            .map(|why| why.trim().to_string()),
    })
}

/// One `report_checks` path (`-format full`); `None` for `No paths found.`
pub fn parse_path(text: &str, period_ns: f64) -> Result<Option<TimingPath>, String> {
    let name_after = |key: &str| {
        text.lines().find_map(|l| l.trim_start().strip_prefix(key).and_then(|r| r.split_whitespace().next()).map(str::to_string))
    };
    let (Some(from), Some(to)) = (name_after("Startpoint:"), name_after("Endpoint:")) else {
        return if text.contains("No paths found") || text.trim().is_empty() {
            Ok(None)
        } else {
            Err(format!("a path report without Startpoint/Endpoint:\n{}", tools::tail(text, 10)))
        };
    };
    let slack = text
        .lines()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            let value = words.next()?.parse::<f64>().ok()?;
            (words.next()? == "slack").then_some(value)
        })
        .ok_or_else(|| format!("the path {from} -> {to} has no slack line"))?;
    // the data path: `incr time edge pin (cell)` lines up to the arrival time
    let mut pins: Vec<(String, String, f64)> = vec![];
    let mut setup_ns = 0.0;
    let mut arrived = false;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if line.contains("data arrival time") {
            arrived = true;
            continue;
        }
        if arrived {
            if line.contains("library setup time") {
                setup_ns = -words.first().and_then(|w| w.parse::<f64>().ok()).unwrap_or(0.0);
            }
            continue;
        }
        // [fanout|cap|slew...] incr time (^|v) instance/pin (CELL) | port (in|out)
        let Some(edge) = words.iter().position(|w| *w == "^" || *w == "v") else { continue };
        let (Some(time), Some(pin), Some(cell)) = (
            edge.checked_sub(1).and_then(|i| words[i].parse::<f64>().ok()),
            words.get(edge + 1),
            words.get(edge + 2).and_then(|w| w.strip_prefix('(')?.strip_suffix(')')),
        ) else {
            continue; // `^ input external delay`
        };
        pins.push((pin.to_string(), cell.to_string(), time));
    }
    let instance = |pin: &str| pin.rsplit_once('/').map(|(i, _)| i.to_string()).unwrap_or_else(|| pin.to_string());
    // from a flip-flop: its clock pin, then its output; the output's time is the clock-to-Q
    let clock_to_q_ns = match pins.as_slice() {
        [(clk, _, _), (q, _, t), ..] if instance(clk) == from && instance(q) == from => *t,
        _ => 0.0,
    };
    let mut stage_cells = std::collections::BTreeMap::new();
    let mut seen = std::collections::BTreeSet::new();
    for (pin, cell, _) in &pins {
        let inst = instance(pin);
        if inst != from && inst != to && !matches!(cell.as_str(), "in" | "out") && seen.insert(inst) {
            *stage_cells.entry(cell.clone()).or_insert(0) += 1;
        }
    }
    Ok(Some(TimingPath {
        from,
        to,
        delay_ns: period_ns - slack,
        clock_to_q_ns,
        setup_ns,
        stages: seen.len(),
        stage_cells,
    }))
}

/// `report_power`'s `Total` row: internal, switching, leakage, total (W).
pub fn parse_power(text: &str) -> Option<Power> {
    let line = text.lines().find(|l| l.trim_start().starts_with("Total"))?;
    let v: Vec<f64> = line.split_whitespace().skip(1).filter_map(|w| w.parse().ok()).collect();
    match v.as_slice() {
        [internal_w, switching_w, leakage_w, total_w, ..] => {
            Some(Power { internal_w: *internal_w, switching_w: *switching_w, leakage_w: *leakage_w, total_w: *total_w })
        }
        _ => None,
    }
}

/// `Chip area for module '\TOP': N` of Yosys's `stat -liberty`.
pub fn parse_chip_area(text: &str, top: &str) -> Option<f64> {
    let key = format!("Chip area for module '\\{top}':");
    text.lines().find_map(|l| l.trim().strip_prefix(&key)?.trim().parse().ok())
}

/// ABC's `stime -p` delay (ps): the last `Delay = N ps` of a Yosys log.
pub fn parse_abc_delay_ps(log: &str) -> Option<f64> {
    log.lines()
        .filter(|l| l.starts_with("ABC: WireLoad"))
        .filter_map(|l| l.split("Delay =").nth(1)?.split_whitespace().next()?.parse().ok())
        .next_back()
}

/// The `asic` object of `--json`.
#[derive(Serialize)]
pub(crate) struct AsicJson<'a> {
    library: &'a str,
    liberty_name: &'a str,
    liberty: String,
    corner: &'a str,
    clock_target_mhz: f64,
    clock_port: &'a str,
    area_um2: f64,
    area_by_type: std::collections::BTreeMap<&'a str, f64>,
    flip_flops: u64,
    latches: u64,
    abc_delay_ns: Option<f64>,
    min_period_ns: Option<f64>,
    fmax_mhz: Option<f64>,
    critical_path: Option<PathJson<'a>>,
    /// which of the three paths below it is
    critical_path_kind: Option<&'static str>,
    register_path: Option<PathJson<'a>>,
    input_path: Option<PathJson<'a>>,
    output_path: Option<PathJson<'a>>,
    power_clock_mhz: f64,
    net_activity: f64,
    power_w: Option<PowerJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    power_error: Option<&'a str>,
}

#[derive(Serialize)]
struct PathJson<'a> {
    from: &'a str,
    to: &'a str,
    delay_ns: f64,
    clock_to_q_ns: f64,
    logic_ns: f64,
    setup_ns: f64,
    stages: usize,
    stage_cells: &'a std::collections::BTreeMap<String, u64>,
}

#[derive(Serialize)]
struct PowerJson {
    internal: f64,
    switching: f64,
    leakage: f64,
    total: f64,
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

impl<'a> AsicJson<'a> {
    pub(crate) fn new(a: &'a AsicFigures) -> Self {
        let path = |p: Option<&'a TimingPath>| {
            p.map(|p| PathJson {
                from: &p.from,
                to: &p.to,
                delay_ns: round3(p.delay_ns),
                clock_to_q_ns: round3(p.clock_to_q_ns),
                logic_ns: round3(p.logic_ns()),
                setup_ns: round3(p.setup_ns),
                stages: p.stages,
                stage_cells: &p.stage_cells,
            })
        };
        AsicJson {
            library: &a.library,
            liberty_name: &a.liberty_name,
            liberty: show(&a.liberty).display().to_string(),
            corner: &a.corner,
            clock_target_mhz: a.clock_target_mhz,
            clock_port: &a.clock_port,
            area_um2: a.area,
            area_by_type: a.area_by_type.iter().map(|(t, v)| (t.as_str(), *v)).collect(),
            flip_flops: a.flip_flops,
            latches: a.latches,
            abc_delay_ns: a.abc_delay_ns.map(round3),
            min_period_ns: a.min_period_ns().map(round3),
            fmax_mhz: a.fmax_mhz().map(|f| (f * 100.0).round() / 100.0),
            critical_path: path(a.critical_path().map(|(_, p)| p)),
            critical_path_kind: a.critical_path().map(|(kind, _)| kind),
            register_path: path(a.register_path.as_ref()),
            input_path: path(a.input_path.as_ref()),
            output_path: path(a.output_path.as_ref()),
            power_clock_mhz: a.clock_target_mhz,
            net_activity: NET_ACTIVITY,
            power_w: a.power.map(|p| PowerJson {
                internal: p.internal_w,
                switching: p.switching_w,
                leakage: p.leakage_w,
                total: p.total_w,
            }),
            power_error: a.power_error.as_deref(),
        }
    }
}

/// `1.44e-01` W -> `144 mW`, `9.53e-07` -> `0.953 µW`.
pub fn watts(w: f64) -> String {
    let (v, unit) = if w >= 1.0 {
        (w, "W")
    } else if w >= 1e-3 {
        (w * 1e3, "mW")
    } else if w >= 1e-6 {
        (w * 1e6, "µW")
    } else {
        (w * 1e9, "nW")
    };
    if v >= 100.0 {
        format!("{v:.0} {unit}")
    } else if v >= 10.0 {
        format!("{v:.1} {unit}")
    } else {
        format!("{v:.2} {unit}")
    }
}

/// The text report's ASIC lines.
pub(crate) fn text(a: &AsicFigures, cells: &CellStats) -> String {
    let mut s = format!(
        "  library: {} (`{}`, {}): {}\n",
        a.library,
        a.liberty_name,
        a.corner,
        show(&a.liberty).display()
    );
    s += &format!(
        "  cells {}: flip-flops {}{}; area {:.0} µm² (cells only: no placement, no wiring)\n",
        cells.cells,
        a.flip_flops,
        if a.latches > 0 { format!(", LATCHES {}", a.latches) } else { String::new() },
        a.area
    );
    let abc = a.abc_delay_ns.map(|d| format!("; ABC's own estimate of the logic: {d:.2} ns")).unwrap_or_default();
    s += &format!("  clock target {} MHz (ABC -D, OpenSTA's clock){abc}\n", a.clock_target_mhz);
    match a.critical_path() {
        Some((kind, p)) => {
            s += &format!(
                "  min period {:.2} ns, fmax {:.2} MHz (OpenSTA; ideal clock, no wire load; inputs and outputs at 0 ns external delay)\n",
                p.delay_ns,
                1000.0 / p.delay_ns
            );
            s += &format!("    critical path ({kind}): {}\n", describe_path(p));
        }
        None => s += "  no timed path\n",
    }
    for (kind, p) in [("register to register", &a.register_path), ("from an input", &a.input_path), ("to an output", &a.output_path)] {
        match p {
            Some(p) => s += &format!("    worst {kind}: {}\n", describe_path(p)),
            None => s += &format!("    worst {kind}: none\n"),
        }
    }
    if let Some(p) = a.power {
        s += &format!(
            "  power at {} MHz, activity {NET_ACTIVITY} on every net: {} (internal {}, switching {}, leakage {})\n",
            a.clock_target_mhz,
            watts(p.total_w),
            watts(p.internal_w),
            watts(p.switching_w),
            watts(p.leakage_w)
        );
    }
    if let Some(why) = &a.power_error {
        s += &format!("  power: OpenSTA's report_power gave no figures: {why}\n");
    }
    s
}

/// `from -> to, 10.93 ns (clock-to-Q 1.25, 67 cells 9.50, setup 0.18)`.
pub fn describe_path(p: &TimingPath) -> String {
    let mut parts = vec![];
    if p.clock_to_q_ns > 0.0 {
        parts.push(format!("clock-to-Q {:.2}", p.clock_to_q_ns));
    }
    parts.push(format!("{} cell{} {:.2}", p.stages, if p.stages == 1 { "" } else { "s" }, p.logic_ns()));
    if p.setup_ns > 0.0 {
        parts.push(format!("setup {:.2}", p.setup_ns));
    }
    format!("{} -> {}, {:.2} ns ({})", p.from, p.to, p.delay_ns, parts.join(", "))
}

/// Every file of an ASIC run directory, for docs and tests.
pub const RUN_FILES: &[&str] =
    &["synth.ys", ABC_SCRIPT, ABC_CONSTR, "yosys.log", "stat.json", "stat-area.txt", NETLIST_V, "sta.tcl", "sta.log"];

#[cfg(test)]
mod tests {
    use super::*;

    /// OpenSTA 2.0.17 on an adder chain like the fixture of tests/synth.rs,
    /// cut down: the register-to-register path, an input path, an output
    /// path and the power table.
    const STA_LOG: &str = "\
atomport-sta: register-to-register
Startpoint: ra[1]_reg (rising edge-triggered flip-flop clocked by clock)
Endpoint: q[15]_reg (rising edge-triggered flip-flop clocked by clock)
Path Group: clock
Path Type: max

Fanout    Delay     Time   Description
----------------------------------------------------------------
         0.000    0.000   clock clock (rise edge)
         0.000    0.000   clock network delay (ideal)
         0.000    0.000 ^ ra[1]_reg/CLK (DFFPOSX1)
         0.211    0.211 v ra[1]_reg/Q (DFFPOSX1)
    3                     ra[1] (net)
         0.121    0.332 ^ _273_/Y (NAND2X1)
    2                     _041_ (net)
         0.103    0.435 v _278_/Y (NAND2X1)
    1                     _046_ (net)
         0.169    0.605 ^ _279_/Y (XOR2X1)
    1                     _047_ (net)
         0.000    0.605 ^ q[15]_reg/D (DFFPOSX1)
                  0.605   data arrival time

        10.000   10.000   clock clock (rise edge)
         0.000   10.000   clock network delay (ideal)
         0.000   10.000   clock reconvergence pessimism
                 10.000 ^ q[15]_reg/CLK (DFFPOSX1)
        -0.184    9.816   library setup time
                  9.816   data required time
----------------------------------------------------------------
                  9.816   data required time
                 -0.605   data arrival time
----------------------------------------------------------------
                  9.211   slack (MET)


atomport-sta: input
Startpoint: a[0] (input port clocked by clock)
Endpoint: ra[0]_reg (rising edge-triggered flip-flop clocked by clock)
Path Group: clock
Path Type: max

   Delay     Time   Description
-----------------------------------------------------------
   0.000    0.000   clock clock (rise edge)
   0.000    0.000   clock network delay (ideal)
   0.000    0.000 ^ input external delay
   0.000    0.000 ^ a[0] (in)
   0.000    0.000 ^ ra[0]_reg/D (DFFPOSX1)
            0.000   data arrival time

  10.000   10.000   clock clock (rise edge)
   0.000   10.000   clock network delay (ideal)
   0.000   10.000   clock reconvergence pessimism
           10.000 ^ ra[0]_reg/CLK (DFFPOSX1)
  -0.199    9.801   library setup time
            9.801   data required time
-----------------------------------------------------------
            9.801   data required time
           -0.000   data arrival time
-----------------------------------------------------------
            9.801   slack (MET)


atomport-sta: output
Startpoint: q[0]_reg (rising edge-triggered flip-flop clocked by clock)
Endpoint: q[0] (output port clocked by clock)
Path Group: clock
Path Type: max

  Delay    Time   Description
---------------------------------------------------------
  0.000   0.000   clock clock (rise edge)
  0.000   0.000   clock network delay (ideal)
  0.000   0.000 ^ q[0]_reg/CLK (DFFPOSX1)
  0.150   0.150 v q[0]_reg/Q (DFFPOSX1)
  0.000   0.150 v q[0] (out)
          0.150   data arrival time

 10.000  10.000   clock clock (rise edge)
  0.000  10.000   clock network delay (ideal)
  0.000  10.000   clock reconvergence pessimism
  0.000  10.000   output external delay
         10.000   data required time
---------------------------------------------------------
         10.000   data required time
         -0.150   data arrival time
---------------------------------------------------------
          9.850   slack (MET)


atomport-sta: power
Group                  Internal  Switching    Leakage      Total
                          Power      Power      Power      Power
----------------------------------------------------------------
Sequential             1.13e-03   2.93e-05   7.71e-09   1.16e-03  77.1%
Combinational          2.40e-04   1.06e-04   1.27e-08   3.47e-04  22.9%
Macro                  0.00e+00   0.00e+00   0.00e+00   0.00e+00   0.0%
Pad                    0.00e+00   0.00e+00   0.00e+00   0.00e+00   0.0%
----------------------------------------------------------------
Total                  1.38e-03   1.36e-04   2.04e-08   1.51e-03 100.0%
                          91.0%       9.0%       0.0%
atomport-sta: end
";

    #[test]
    fn reads_the_paths_and_the_power() {
        let s = parse_sta_log(STA_LOG, 10.0).unwrap();
        let p = s.register_to_register.unwrap();
        assert_eq!((p.from.as_str(), p.to.as_str()), ("ra[1]_reg", "q[15]_reg"));
        assert!((p.delay_ns - 0.789).abs() < 1e-9, "period minus slack: {p:?}");
        assert!((p.clock_to_q_ns - 0.211).abs() < 1e-9 && (p.setup_ns - 0.184).abs() < 1e-9, "{p:?}");
        assert!((p.logic_ns() - (0.605 - 0.211)).abs() < 1e-9, "{p:?}");
        assert_eq!(p.stages, 3);
        assert_eq!(p.stage_cells.get("NAND2X1"), Some(&2));
        let input = s.input.unwrap();
        assert_eq!((input.from.as_str(), input.to.as_str(), input.stages, input.clock_to_q_ns), ("a[0]", "ra[0]_reg", 0, 0.0));
        assert!((input.delay_ns - 0.199).abs() < 1e-9 && input.logic_ns() == 0.0, "{input:?}");
        assert_eq!(parse_path("No paths found.\n", 10.0), Ok(None));
        let out = s.output.unwrap();
        assert_eq!((out.to.as_str(), out.stages, out.setup_ns), ("q[0]", 0, 0.0));
        assert!((out.delay_ns - 0.15).abs() < 1e-9 && (out.clock_to_q_ns - 0.15).abs() < 1e-9, "{out:?}");
        let power = s.power.unwrap();
        assert_eq!((power.internal_w, power.switching_w, power.leakage_w, power.total_w), (1.38e-3, 1.36e-4, 2.04e-8, 1.51e-3));
    }

    /// A `report_power` that fails is a reason, not a failed run.
    #[test]
    fn a_failed_power_report_is_its_reason() {
        let cut = &STA_LOG[..STA_LOG.find("atomport-sta: power").unwrap()];
        let log = format!(
            "{cut}atomport-sta: power\nGroup   Internal  Switching    Leakage      Total\n\
             {POWER_FAILED} can't use non-numeric floating-point value as operand of \"-\"\natomport-sta: end\n"
        );
        let s = parse_sta_log(&log, 10.0).unwrap();
        assert!(s.register_to_register.is_some());
        assert_eq!(s.power, None);
        assert!(s.power_error.unwrap().contains("non-numeric"));
        assert_eq!(parse_sta_log(STA_LOG, 10.0).unwrap().power_error, None);
    }

    #[test]
    fn an_error_or_a_missing_section_is_an_error() {
        let err = parse_sta_log("Error: netlist.v line 3, syntax error\natomport-sta: end\n", 10.0).unwrap_err();
        assert!(err.contains("syntax error"), "{err}");
        let cut = &STA_LOG[..STA_LOG.find("atomport-sta: power").unwrap()];
        let err = parse_sta_log(cut, 10.0).unwrap_err();
        assert!(err.contains("atomport-sta: end"), "{err}");
        assert!(parse_path("Startpoint: a\nEndpoint: b\n", 10.0).unwrap_err().contains("no slack line"));
    }

    #[test]
    fn yosys_and_abc_figures() {
        let stat = "   Number of cells:                209\n     XOR2X1                         12\n\n   Chip area for module '\\chain': 10253.000000\n";
        assert_eq!(parse_chip_area(stat, "chain"), Some(10253.0));
        assert_eq!(parse_chip_area(stat, "other"), None);
        let log = "ABC: Current delay (2064.38 ps) does not exceed the target delay (5000.00 ps).\n\
                   ABC: WireLoad = \"none\"  Gates =    161 (  4.3 %)   Cap = 35.6 ff (  0.0 %)   Area =     5645.00 (100.0 %)   Delay =  2064.38 ps  ( 16.1 %)\n";
        assert_eq!(parse_abc_delay_ps(log), Some(2064.38));
        assert_eq!(parse_abc_delay_ps("nothing"), None);
        assert!(abc_script(10_000.0).contains("&nf -D 10000\n") && abc_script(10_000.0).ends_with("stime -p\n"));
    }

    #[test]
    fn libraries_and_units() {
        assert_eq!(LibertyChoice::default(), LibertyChoice::Known("osu018".into()));
        assert_eq!(known_library("osu035").unwrap().package, "qflow-tech-osu035");
        let err = known_library("sky130").unwrap_err().to_string();
        assert!(err.contains("osu018, osu035") && err.contains("--liberty"), "{err}");
        assert_eq!(LibertyChoice::File("/x/y/my_tt.lib".into()).label(), "my_tt.lib");
        assert_eq!(watts(0.144), "144 mW");
        assert_eq!(watts(9.53e-7), "953 nW");
        assert_eq!(watts(2.5e-6), "2.50 µW");
        assert_eq!(watts(1.51e-3), "1.51 mW");
        assert_eq!(watts(0.0251), "25.1 mW");
    }

    /// A known library that is neither extracted nor installed is missing
    /// (exit 2, with how to get it) and nothing is fetched; a `--liberty`
    /// file that does not exist is an input error.
    #[test]
    fn a_missing_library_says_how_to_get_it() {
        let root = std::env::temp_dir().join(format!("atomport-liberty-missing-{}", std::process::id()));
        let choice = LibertyChoice::Known("osu035".into());
        if Path::new("/").join(known_library("osu035").unwrap().path).is_file() {
            println!("NOTICE: qflow-tech-osu035 is installed system-wide: the missing-library check is skipped");
        } else {
            let err = find_liberty(&choice, &root, false).unwrap_err();
            assert!(matches!(err, SynthError::ToolMissing { .. }), "{err:?}");
            let msg = err.to_string();
            assert!(msg.contains("qflow-tech-osu035") && msg.contains("make synth-deps"), "{msg}");
            assert!(!root.exists(), "nothing is extracted unasked");
        }
        let err = find_liberty(&LibertyChoice::File(root.join("none.lib")), &root, false).unwrap_err();
        assert!(err.to_string().contains("--liberty") && err.to_string().contains("no such file"), "{err}");
    }
}
