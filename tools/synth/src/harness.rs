//! The place-and-route harness: a wrapper that lets a wide block go through
//! an FPGA flow with three pins, and gives a combinational block a clock so
//! nextpnr can report its register-to-register frequency.
//!
//! ```text
//!  scan_in -> [ scan chain: one flip-flop per input bit ] -> block -> [ output register ]
//!                                                                        |
//!  parity_out <- [ XOR tree, 4 inputs per level, registered per level ] <-
//! ```
//!
//! * Every data input bit the block reads is driven by a flip-flop of one
//!   shift register (`scan_in` is its first bit), so no input is a constant
//!   and nothing is optimized away. Input bits the block never reads (a
//!   smaller build of the unit ignores the lanes and data bits it does not
//!   build) are tied to 0 instead: they cost no flip-flop, and since the
//!   block keeps its hierarchy, the constant does not reach into it. Which
//!   bits are read comes from Yosys: the ports pass elaborates, flattens and
//!   optimizes the block and lists the input bits still connected
//!   ([`parse_ports`]).
//! * Every output is captured in a flip-flop, then XOR-reduced to the one
//!   `parity_out` pin: every output bit changes the parity, so every bit
//!   stays live. Each XOR level is at most 4 inputs (one LUT4) and is
//!   registered, so the harness never sets the critical path: the measured
//!   path is scan register -> block -> output register.
//! * 1-bit inputs named `clock`/`clk` are the block's clocks and take the
//!   harness clock.
//!
//! The block keeps its own hierarchy (`keep_hierarchy`), so Yosys reports
//! its cells apart from the harness's; nextpnr's device figures include the
//! harness (one flip-flop per output bit and per input bit read, plus the
//! XOR tree).

use std::fmt::Write as _;

use serde_json::Value;

use crate::stats::ReportError;

/// Module name of the generated harness.
pub const HARNESS_TOP: &str = "atomport_synth_harness";

/// Direction of a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
    Inout,
}

/// One port of the block's top module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub direction: Direction,
    pub bits: usize,
    /// per bit, LSB first: the block reads it (inputs; outputs are all true)
    pub used: Vec<bool>,
}

impl Port {
    /// Whether this input is a clock (takes the harness clock).
    pub fn is_clock(&self) -> bool {
        self.direction == Direction::Input && self.bits == 1 && matches!(self.name.as_str(), "clock" | "clk")
    }
}

/// The ports of `module` from Yosys `write_json` output, sorted by name,
/// with the input bits the module reads: those whose net reaches a cell or
/// an output port (after `flatten; opt -full`, an input bit nothing reads
/// has no connection left).
pub fn parse_ports(json: &str, module: &str) -> Result<Vec<Port>, ReportError> {
    let root: Value =
        serde_json::from_str(json).map_err(|source| ReportError::NotJson { what: "write_json output", source })?;
    let modules = root
        .get("modules")
        .and_then(Value::as_object)
        .ok_or_else(|| ReportError::MissingKey { what: "write_json output".into(), key: "modules" })?;
    let m = modules
        .iter()
        .find(|(k, _)| k.trim_start_matches('\\') == module)
        .map(|(_, m)| m)
        .ok_or_else(|| ReportError::NoNetlistModule { module: module.to_string() })?;
    let ports =
        m.get("ports").and_then(Value::as_object).ok_or_else(|| ReportError::NoPorts { module: module.to_string() })?;
    // nets read by a cell or driving an output
    let mut read = std::collections::HashSet::new();
    if let Some(cells) = m.get("cells").and_then(Value::as_object) {
        for cell in cells.values() {
            if let Some(conns) = cell.get("connections").and_then(Value::as_object) {
                for bits in conns.values().filter_map(Value::as_array) {
                    read.extend(bits.iter().filter_map(Value::as_u64));
                }
            }
        }
    }
    for p in ports.values() {
        if p.get("direction").and_then(Value::as_str) == Some("output") {
            if let Some(bits) = p.get("bits").and_then(Value::as_array) {
                read.extend(bits.iter().filter_map(Value::as_u64));
            }
        }
    }
    let mut out = vec![];
    for (name, p) in ports {
        let direction = match p.get("direction").and_then(Value::as_str) {
            Some("input") => Direction::Input,
            Some("output") => Direction::Output,
            Some("inout") => Direction::Inout,
            other => return Err(ReportError::UnknownDirection { port: name.clone(), direction: format!("{other:?}") }),
        };
        let bit_nets =
            p.get("bits").and_then(Value::as_array).ok_or_else(|| ReportError::NoBits { port: name.clone() })?;
        let used = bit_nets
            .iter()
            .map(|b| direction != Direction::Input || b.as_u64().is_some_and(|n| read.contains(&n)))
            .collect();
        out.push(Port { name: name.trim_start_matches('\\').to_string(), direction, bits: bit_nets.len(), used });
    }
    // by name, whatever order serde_json's map keeps (its `preserve_order`
    // feature may be on in the workspace): the harness, hence the netlist
    // and the figures, must not depend on it
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Figures of a harness, to tell its share of the device counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HarnessShape {
    /// flip-flops of the scan chain (the block's data input bits)
    pub scan_bits: usize,
    /// flip-flops capturing the block's outputs
    pub output_bits: usize,
    /// flip-flops of the XOR tree, over all levels
    pub parity_flops: usize,
    /// input bits the block never reads, tied to 0 (no flip-flop)
    pub unread_bits: usize,
}

/// Why a block cannot go into the harness.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    #[error("`{top}` has an inout port `{port}`: the synthesis harness drives inputs and reads outputs only")]
    Inout { top: String, port: String },
    #[error("`{top}` has no outputs: there is no logic to synthesize")]
    NoOutputs { top: String },
}

/// The Verilog of the harness around `top` with these ports, and its shape.
pub fn harness_verilog(top: &str, ports: &[Port]) -> Result<(String, HarnessShape), HarnessError> {
    if let Some(p) = ports.iter().find(|p| p.direction == Direction::Inout) {
        return Err(HarnessError::Inout { top: top.to_string(), port: p.name.clone() });
    }
    let inputs: Vec<&Port> = ports.iter().filter(|p| p.direction == Direction::Input && !p.is_clock()).collect();
    let outputs: Vec<&Port> = ports.iter().filter(|p| p.direction == Direction::Output).collect();
    let scan_bits: usize = inputs.iter().map(|p| p.used.iter().filter(|u| **u).count()).sum();
    let unread_bits: usize = inputs.iter().map(|p| p.used.iter().filter(|u| !**u).count()).sum();
    let output_bits: usize = outputs.iter().map(|p| p.bits).sum();
    if output_bits == 0 {
        return Err(HarnessError::NoOutputs { top: top.to_string() });
    }

    let mut v = String::new();
    let w = &mut v;
    let _ = writeln!(w, "// Generated by atomport synth: place-and-route harness around `{top}` (docs/synthesis.md).");
    let _ = writeln!(w, "module {HARNESS_TOP}(clk, scan_in, parity_out);");
    let _ = writeln!(w, "    input wire clk;\n    input wire scan_in;\n    output wire parity_out;");
    if scan_bits > 0 {
        let _ = writeln!(w, "    reg [{}:0] scan_q;", scan_bits - 1);
        if scan_bits == 1 {
            let _ = writeln!(w, "    always @(posedge clk) scan_q <= scan_in;");
        } else {
            let _ = writeln!(w, "    always @(posedge clk) scan_q <= {{scan_q[{}:0], scan_in}};", scan_bits - 2);
        }
    }
    let _ = writeln!(w, "    wire [{}:0] block_out;", output_bits - 1);
    let mut connections = vec![];
    let mut scan_at = 0;
    let mut out_at = 0;
    for p in ports {
        let source = if p.is_clock() {
            "clk".to_string()
        } else if p.direction == Direction::Input {
            input_source(&p.used, &mut scan_at)
        } else {
            out_at += p.bits;
            format!("block_out[{}:{}]", out_at - 1, out_at - p.bits)
        };
        // escaped identifiers: rust-hdl sub-module names contain `$`
        connections.push(format!("        .{}({source})", p.name));
    }
    let _ = writeln!(w, "    \\{top} block (\n{}\n    );", connections.join(",\n"));
    let _ = writeln!(w, "    reg [{}:0] out_q;", output_bits - 1);
    let _ = writeln!(w, "    always @(posedge clk) out_q <= block_out;");

    // XOR tree: level k reduces groups of 4 bits of level k-1, registered.
    let mut parity_flops = 0;
    let mut prev = ("out_q".to_string(), output_bits);
    let mut level = 1;
    while prev.1 > 1 {
        let n = prev.1.div_ceil(4);
        let name = format!("parity_{level}");
        let _ = writeln!(w, "    reg [{}:0] {name};", n - 1);
        let _ = writeln!(w, "    always @(posedge clk) begin");
        for i in 0..n {
            let lo = 4 * i;
            let hi = (lo + 3).min(prev.1 - 1);
            let _ = writeln!(w, "        {name}[{i}] <= ^{}[{hi}:{lo}];", prev.0);
        }
        let _ = writeln!(w, "    end");
        parity_flops += n;
        prev = (name, n);
        level += 1;
    }
    let _ = writeln!(w, "    assign parity_out = {}[0];", prev.0);
    let _ = writeln!(w, "endmodule");
    Ok((v, HarnessShape { scan_bits, output_bits, parity_flops, unread_bits }))
}

/// The source expression of one input port: its read bits (LSB first) take
/// the next scan flip-flops from `scan_at`, its unread bits are 0; runs are
/// merged, MSB first as Verilog concatenation wants (`scan_q[4:0]`,
/// `{12'b0, scan_q[19:0]}`).
fn input_source(used: &[bool], scan_at: &mut usize) -> String {
    // runs, LSB first: (read?, length, first scan index)
    let mut runs: Vec<(bool, usize, usize)> = vec![];
    for &u in used {
        match runs.last_mut() {
            Some((r, n, _)) if *r == u => *n += 1,
            _ => runs.push((u, 1, *scan_at)),
        }
        if u {
            *scan_at += 1;
        }
    }
    let parts: Vec<String> = runs
        .iter()
        .rev()
        .map(|&(read, n, first)| if read { format!("scan_q[{}:{}]", first + n - 1, first) } else { format!("{n}'b0") })
        .collect();
    if parts.len() == 1 {
        parts.into_iter().next().unwrap_or_default()
    } else {
        format!("{{{}}}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(name: &str, direction: Direction, bits: usize) -> Port {
        Port { name: name.into(), direction, bits, used: vec![true; bits] }
    }

    #[test]
    fn ports_from_write_json() {
        let json = r#"{"creator": "Yosys", "modules": {"atomic_alu": {"attributes": {}, "ports": {
            "op": {"direction": "input", "bits": [2, 3, 4]},
            "new_value": {"direction": "output", "bits": [5, 6]}},
            "cells": {"x": {"connections": {"A": [2, 4], "B": ["0"], "Y": [5]}}},
            "netnames": {}}}}"#;
        let ports = parse_ports(json, "atomic_alu").unwrap();
        let op = Port { used: vec![true, false, true], ..port("op", Direction::Input, 3) };
        assert_eq!(ports, vec![port("new_value", Direction::Output, 2), op]);
        assert!(parse_ports(json, "atomic_unit").is_err());
    }

    #[test]
    fn harness_wires_every_bit_once() {
        let ports = vec![
            port("clock", Direction::Input, 1),
            port("op", Direction::Input, 5),
            port("value", Direction::Input, 128),
            port("result", Direction::Output, 128),
            port("flag", Direction::Output, 1),
        ];
        let (v, shape) = harness_verilog("atomic_unit$decoder", &ports).unwrap();
        assert_eq!(shape.scan_bits, 133);
        assert_eq!(shape.output_bits, 129);
        // 129 -> 33 -> 9 -> 3 -> 1
        assert_eq!(shape.parity_flops, 33 + 9 + 3 + 1);
        assert!(v.contains("\\atomic_unit$decoder block ("), "{v}");
        assert!(v.contains(".clock(clk)"));
        assert!(v.contains(".op(scan_q[4:0])"));
        assert!(v.contains(".value(scan_q[132:5])"));
        assert!(v.contains(".result(block_out[127:0])"));
        assert!(v.contains(".flag(block_out[128:128])"));
        assert!(v.contains("scan_q <= {scan_q[131:0], scan_in};"));
        assert!(v.contains("parity_1[32] <= ^out_q[128:128];"));
        assert!(v.contains("assign parity_out = parity_4[0];"));
    }

    #[test]
    fn unread_input_bits_are_tied_to_zero() {
        let mut lanes = port("lanes", Direction::Input, 32);
        lanes.used = (0..32).map(|i| i < 8 || i == 20).collect();
        let ports = vec![port("a", Direction::Input, 2), lanes, port("y", Direction::Output, 1)];
        let (v, shape) = harness_verilog("t", &ports).unwrap();
        assert_eq!((shape.scan_bits, shape.unread_bits), (2 + 9, 23));
        assert!(v.contains(".a(scan_q[1:0])"), "{v}");
        assert!(v.contains(".lanes({11'b0, scan_q[10:10], 12'b0, scan_q[9:2]})"), "{v}");
        let mut none = port("n", Direction::Input, 4);
        none.used = vec![false; 4];
        let (v, shape) = harness_verilog("t", &[none, port("y", Direction::Output, 1)]).unwrap();
        assert_eq!((shape.scan_bits, shape.unread_bits), (0, 4));
        assert!(v.contains(".n(4'b0)") && !v.contains("scan_q"), "{v}");
    }

    #[test]
    fn harness_rejects_what_it_cannot_drive() {
        assert!(harness_verilog("t", &[port("x", Direction::Input, 4)]).unwrap_err().to_string().contains("no outputs"));
        assert!(harness_verilog("t", &[port("bus", Direction::Inout, 4), port("y", Direction::Output, 1)])
            .unwrap_err()
            .to_string()
            .contains("inout"));
        // one output bit: no XOR level, the output register is the pin
        let (v, shape) =
            harness_verilog("t", &[port("x", Direction::Input, 1), port("y", Direction::Output, 1)]).unwrap();
        assert_eq!(shape.parity_flops, 0);
        assert!(v.contains("scan_q <= scan_in;") && v.contains("assign parity_out = out_q[0];"), "{v}");
    }
}
