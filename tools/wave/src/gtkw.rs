//! GTKWave save files (`.gtkw`): open a VCD with the unit's signals
//! grouped by interface.
//!
//! The one call for a traced run: [`write_unit_gtkw`] reads the VCD just
//! written, groups its signals ([`unit_groups`]) and writes
//! [`gtkw_path`]`(vcd)` = `PATH.gtkw` beside it (`run.vcd` ->
//! `run.vcd.gtkw`). `gtkwave run.vcd.gtkw` (or `gtkwave run.vcd
//! run.vcd.gtkw`) then opens with these groups:
//!
//! | group | signals (names relative to the unit's scope) |
//! | --- | --- |
//! | Clock and reset | `clock`, `reset` |
//! | Request (req_*) | `req_valid`, `req_ready`, `req_desc`, `req_dmask`, `req_pred_mask`, the surface state, then the wide lane buses `req_addr`, `req_src0`, `req_src1`, `req_coord` |
//! | Memory read channel | `mem_rd_valid`, `mem_rd_ready`, `mem_rd_space`, `mem_rd_addr`, `mem_rd_be`, `mem_rdata_valid`, `mem_rdata` |
//! | Memory write channel | `mem_wr_valid`, `mem_wr_ready`, `mem_wr_space`, `mem_wr_addr`, `mem_wr_be`, `mem_wr_data` |
//! | Results (rsp_*) | `rsp_valid`, `rsp_lane`, `rsp_data`, `rsp_done`, `rsp_error` |
//! | Internal: issue (lane index, FSM state) | state registers (`*state*`, `*fsm*`), the selected lane, the issue flags, the in-flight table head |
//! | Internal: ALU (old/new) | the atomic ALU's `op`, `ty`, `old_value`, `src0`, `src1`, `new_value`, `ret_value` (op/ty/src: the element entering X, one cycle ahead of old/new) |
//! | Observation (obs_*) | `obs_valid`, `obs_lane`, `obs_elem`, `obs_old`, `obs_new` |
//! | Golden transaction | the golden waveform's `msg_*`, `txn_*` |
//!
//! Groups whose patterns match nothing are left out, so the same view
//! works for the RTL's trace, an Icarus trace and the golden waveform.
//! 1-bit signals show in binary, buses in hex; each trace is aliased to
//! its name relative to the unit (the full path is in GTKWave's tooltip).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use atomport_core::output_file::OutputError;

use atomport_core::ops::ports::{port_names, Channel};
use super::diff::relative_vars;
use atomport_core::glob::glob_match;
use super::reader::{Var, Waveform};

/// One signal of a view: GTKWave's name for it (the path with its range,
/// `atomic_unit.mem_rd_addr[63:0]`), a short alias and its width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewSignal {
    pub name: String,
    pub alias: String,
    pub width: u32,
}

impl ViewSignal {
    /// A view signal for `var` with an alias.
    pub fn of(var: &Var, alias: &str) -> ViewSignal {
        let alias = match var.range {
            Some((m, l)) => format!("{alias}[{m}:{l}]"),
            None => alias.to_string(),
        };
        ViewSignal { name: var.gtkwave_name(), alias, width: var.width }
    }
}

/// A named group of signals, shown as a GTKWave group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignalGroup {
    pub name: String,
    pub signals: Vec<ViewSignal>,
}

/// The unit's groups: name and patterns (relative names, `*`/`?` globs),
/// in display order. A signal goes to the first group that matches it;
/// a signal that shares its trace with one already shown (Verilator's
/// `alu$old_value` and `alu.old_value`) is left out. Port groups list the
/// port table's names exactly: internal registers like `rsp_data_r` stay
/// out of them.
pub const UNIT_GROUPS: &[(&str, &[&str])] = &[
    ("Clock and reset", &["clock", "reset"]),
    (
        "Request (req_*)",
        &[
            "req_valid", "req_ready", "req_desc", "req_dmask", "req_pred_mask", "req_surf_kind", "req_surf_base", "req_surf_size", "req_surf_width",
            "req_surf_height", "req_surf_depth", "req_surf_array", "req_surf_levels", "req_surf_u16", "req_slm_size",
        ],
    ),
    ("Payload port (pay_*)", &["pay_valid", "pay_lane", "pay_slot", "pay_addr", "pay_src0", "pay_src1", "pay_coord"]),
    ("Memory read channel", &["mem_rd_valid", "mem_rd_ready", "mem_rd_space", "mem_rd_addr", "mem_rd_be", "mem_rdata_valid", "mem_rdata"]),
    ("Memory write channel", &["mem_wr_valid", "mem_wr_ready", "mem_wr_space", "mem_wr_addr", "mem_wr_be", "mem_wr_data"]),
    ("Results (rsp_*)", &["rsp_valid", "rsp_lane", "rsp_data", "rsp_done", "rsp_error"]),
    (
        "Internal: issue (lane index, FSM state)",
        &[
            "state", "*_state", "*state$q", "*state.q", "state_*", "*fsm*", "front$r_valid_q", "front.r_valid_q", "front$d_valid_q", "front.d_valid_q", "front$d_lanes_q", "front.d_lanes_q", "lane_select$lane", "lane_select.lane", "front$d_lanes_few_q", "front.d_lanes_few_q", "left_few$q", "left_few.q", "issue$i$valid", "issue.i.valid", "issue$i$kind", "issue.i.kind",
            "sel_take", "sel_marker", "sel_last", "front$n$valid", "front.n.valid", "front$n$lane", "front.n.lane", "issue$n$enter", "issue.n.enter", "issue$i$lane", "issue.i.lane",
            "issue$i$msg_last", "issue.i.msg_last", "issue$i$result_last", "issue.i.result_last", "issue$i$walk", "issue.i.walk", "issue$i$error", "issue.i.error", "issue$i$elem", "issue.i.elem", "elem_offset$q", "elem_offset.q",
            "address$t_valid_q", "address.t_valid_q", "address$t_walk_q", "address.t_walk_q", "address$l_valid_q", "address.l_valid_q",
            "address$l_walk_q", "address.l_walk_q", "address$a_valid_q", "address.a_valid_q", "a_reads", "alloc", "table_is_full", "head_select$head$ptr", "head_select$entry$lane", "head_select.head.ptr", "head_select.entry.lane", "ports$read_full", "ports.read_full", "ports$write_full", "ports.write_full",
        ],
    ),
    (
        "Internal: ALU (old/new)",
        &[
            "alu$op", "alu$ty", "alu$old_value", "alu$src0", "alu$src1", "alu$new_true", "alu$new_false", "alu$new_cond", "alu$ret_value",
            "alu.op", "alu.ty", "alu.old_value", "alu.src0", "alu.src1", "alu.new_true", "alu.new_false", "alu.new_cond",
            "alu.ret_value",
        ],
    ),
    ("Observation (obs_*)", &["obs_valid", "obs_lane", "obs_elem", "obs_old", "obs_new"]),
    ("Golden transaction", &["msg_index", "msg_line", "txn_index", "txn_write", "txn_lane", "txn_addr", "txn_bytes", "txn_data"]),
];

/// The channels a waveform of the unit has besides the request's: the
/// memory port and the results (the port table, `atomport_isa::ports`; a
/// golden-model VCD has them too).
pub const REQUIRED_CHANNELS: [Channel; 4] = [Channel::MemRead, Channel::MemReadData, Channel::MemWrite, Channel::Response];

/// The ports of the [`REQUIRED_CHANNELS`], in the port table's order.
pub fn required_ports() -> Vec<&'static str> {
    port_names(&REQUIRED_CHANNELS).collect()
}

/// At most this many signals per internal group (patterns like `*state*`
/// could pull in a whole sub-tree).
const MAX_PER_GROUP: usize = 40;

/// `PATH.gtkw` for a VCD at `PATH` (`run.vcd` -> `run.vcd.gtkw`).
pub fn gtkw_path(vcd: &Path) -> PathBuf {
    let mut s = vcd.as_os_str().to_owned();
    s.push(".gtkw");
    PathBuf::from(s)
}

/// The scope that holds the unit's ports: the deepest scope with every
/// port wavecheck needs (Verilator: the instance, which also holds the
/// internals), else the scope with the most of them, else (no port at all)
/// the innermost scope that holds every var.
pub fn unit_scope(w: &Waveform) -> String {
    let required = required_ports();
    let mut best = (0usize, 0usize, String::new());
    for scope in w.scopes() {
        let rel = relative_vars(w, &scope);
        let direct: Vec<&str> =
            rel.iter().filter(|(n, _)| !n.contains('.')).map(|(n, _)| n.as_str()).collect();
        let score = required.iter().filter(|p| direct.contains(p)).count();
        let depth = if scope.is_empty() { 0 } else { scope.split('.').count() };
        if score > best.0 || (score == best.0 && score > 0 && depth > best.1) {
            best = (score, depth, scope);
        }
    }
    if best.0 > 0 {
        return best.2;
    }
    // no unit ports: the innermost scope that holds every var
    let mut common: Option<&[String]> = None;
    for v in &w.vars {
        let c = common.get_or_insert(&v.scope[..]);
        let n = c.iter().zip(&v.scope).take_while(|(a, b)| a == b).count();
        *c = &c[..n];
    }
    common.map(|c| c.join(".")).unwrap_or_default()
}

/// The unit's signals of `w` grouped by interface ([`UNIT_GROUPS`]).
pub fn unit_groups(w: &Waveform) -> Vec<SignalGroup> {
    let scope = unit_scope(w);
    let rel = relative_vars(w, &scope);
    let mut taken = vec![false; rel.len()];
    let mut traces = std::collections::HashSet::new();
    let required = required_ports();
    let mut out = Vec::new();
    for (name, patterns) in UNIT_GROUPS {
        let mut signals = Vec::new();
        for pat in *patterns {
            for (k, (n, v)) in rel.iter().enumerate() {
                if !taken[k] && signals.len() < MAX_PER_GROUP && glob_match(pat, n) {
                    taken[k] = true;
                    // a port is listed even when it equals another signal
                    // (Verilator gives equal signals one trace: the serial
                    // build's `mem_wr_addr` is its `mem_rd_addr`)
                    if traces.insert(v.trace) || required.contains(&n.as_str()) {
                        signals.push(ViewSignal::of(v, n));
                    }
                }
            }
        }
        if !signals.is_empty() {
            out.push(SignalGroup { name: name.to_string(), signals });
        }
    }
    out
}

/// `to` relative to directory `from` when `to` is inside it, else `to` as given.
fn relative_to(to: &Path, from: &Path) -> PathBuf {
    match (to.canonicalize(), from.canonicalize()) {
        (Ok(t), Ok(f)) => t.strip_prefix(&f).map(Path::to_path_buf).unwrap_or(t),
        _ => to.to_path_buf(),
    }
}

/// Writes a GTKWave save file at `out_path` that opens `vcd_path` with
/// `groups` (GTKWave groups, expanded; 1-bit signals binary, buses hex).
/// The dump file is recorded relative to the save file's directory when
/// it is inside it, with the save file's own name, so a VCD and its
/// `.gtkw` can move together and open from any working directory
/// (GTKWave 3.3 resolves `[dumpfile]` against `[savefile]`).
/// The file is written whole (`atomport_core::output_file`).
pub fn write_gtkw(vcd_path: &Path, out_path: &Path, groups: &[SignalGroup]) -> Result<(), OutputError> {
    let text = gtkw_text(vcd_path, out_path, groups).map_err(|e| OutputError::new(out_path, e.to_string()))?;
    atomport_core::output_file::write_file(out_path, &text)
}

/// The save file's bytes ([`write_gtkw`]).
fn gtkw_text(vcd_path: &Path, out_path: &Path, groups: &[SignalGroup]) -> io::Result<Vec<u8>> {
    let dir = out_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let dump = relative_to(vcd_path, dir);
    let mut s = Vec::new();
    writeln!(s, "[*]")?;
    writeln!(s, "[*] GTKWave save file written by atomport (tools/wave/src/gtkw.rs)")?;
    writeln!(s, "[*] open with: gtkwave {}", out_path.file_name().unwrap_or_default().to_string_lossy())?;
    writeln!(s, "[*]")?;
    // with both entries GTKWave finds the dump relative to the save file's
    // own location, whatever the working directory
    let save = if dump.is_relative() {
        PathBuf::from(out_path.file_name().unwrap_or_default())
    } else {
        out_path.canonicalize().unwrap_or_else(|_| out_path.to_path_buf())
    };
    writeln!(s, "[dumpfile] \"{}\"", dump.display())?;
    writeln!(s, "[savefile] \"{}\"", save.display())?;
    writeln!(s, "[timestart] 0")?;
    writeln!(s, "[size] 1600 900")?;
    writeln!(s, "[pos] -1 -1")?;
    writeln!(s, "[sst_width] 220")?;
    writeln!(s, "[signals_width] 280")?;
    writeln!(s, "[sst_expanded] 1")?;
    writeln!(s, "[sst_vpaned_height] 250")?;
    for g in groups {
        // flags: TR_GRP_BEGIN | TR_BLANK, then TR_GRP_END | TR_BLANK
        writeln!(s, "@800200")?;
        writeln!(s, "-{}", g.name)?;
        for sig in &g.signals {
            // TR_RJUSTIFY | TR_BIN (1 bit) or TR_HEX
            writeln!(s, "{}", if sig.width == 1 { "@28" } else { "@22" })?;
            writeln!(s, "+{{{}}} {}", sig.alias, sig.name)?;
        }
        writeln!(s, "@1000200")?;
        writeln!(s, "-{}", g.name)?;
    }
    Ok(s)
}

/// Why no GTKWave view was written.
#[derive(Debug, thiserror::Error)]
pub enum GtkwError {
    #[error("{0}")]
    Read(atomport_core::diag::Diag),
    #[error("{file}: none of the unit's signals (clock, req_*, mem_*, rsp_*) is in this VCD; no GTKWave view written")]
    NotTheUnit { file: String },
    #[error("{0}")]
    Write(OutputError),
}

/// Reads the VCD at `vcd_path`, groups the unit's signals and writes
/// `PATH.gtkw` beside it; returns the save file's path. This is what
/// `atomport run --vcd PATH` calls after the run.
pub fn write_unit_gtkw(vcd_path: &Path) -> Result<PathBuf, GtkwError> {
    let w = Waveform::read(vcd_path).map_err(GtkwError::Read)?;
    let groups = unit_groups(&w);
    // a clock alone (any design has one) is not the unit
    if groups.iter().all(|g| g.signals.is_empty() || g.name == UNIT_GROUPS[0].0) {
        return Err(GtkwError::NotTheUnit { file: w.file.clone() });
    }
    let out = gtkw_path(vcd_path);
    write_gtkw(vcd_path, &out, &groups).map_err(GtkwError::Write)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_follow_the_port_table_and_skip_empty_ones() {
        let text = "$timescale 1ns $end
$scope module TOP $end $var wire 1 ! clock $end $var wire 64 \" mem_rd_addr [63:0] $end
$scope module atomic_unit $end
$var wire 1 ! clock $end $var wire 64 \" mem_rd_addr [63:0] $end $var wire 1 # mem_rd_valid $end
$var wire 3 $ issue_state [2:0] $end $var wire 128 % alu$old_value [127:0] $end $var wire 5 & rsp_lane [4:0] $end
$upscope $end $upscope $end $enddefinitions $end";
        let w = Waveform::parse("t.vcd", text.as_bytes()).unwrap();
        assert_eq!(unit_scope(&w), "TOP.atomic_unit");
        let groups = unit_groups(&w);
        let names: Vec<(&str, Vec<&str>)> =
            groups.iter().map(|g| (g.name.as_str(), g.signals.iter().map(|s| s.alias.as_str()).collect())).collect();
        assert_eq!(
            names,
            [
                ("Clock and reset", vec!["clock"]),
                ("Memory read channel", vec!["mem_rd_valid", "mem_rd_addr[63:0]"]),
                ("Results (rsp_*)", vec!["rsp_lane[4:0]"]),
                ("Internal: issue (lane index, FSM state)", vec!["issue_state[2:0]"]),
                ("Internal: ALU (old/new)", vec!["alu$old_value[127:0]"]),
            ]
        );
        assert_eq!(groups[1].signals[1].name, "TOP.atomic_unit.mem_rd_addr[63:0]");
        let dir = std::env::temp_dir().join(format!("atomport-gtkw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let vcd = dir.join("t.vcd");
        std::fs::write(&vcd, text).unwrap();
        let out = write_unit_gtkw(&vcd).unwrap();
        assert_eq!(out, dir.join("t.vcd.gtkw"));
        let g = std::fs::read_to_string(&out).unwrap();
        assert!(g.contains("[dumpfile] \"t.vcd\""), "{g}");
        assert!(g.contains("@800200\n-Memory read channel\n@28\n+{mem_rd_valid} TOP.atomic_unit.mem_rd_valid\n@22\n+{mem_rd_addr[63:0]} TOP.atomic_unit.mem_rd_addr[63:0]\n@1000200\n-Memory read channel\n"), "{g}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
