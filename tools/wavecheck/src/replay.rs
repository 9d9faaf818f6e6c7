//! Replay a VCD's stimulus in another simulator: a Verilog test bench that
//! drives a module's inputs exactly as a VCD shows them (every change of
//! every input, at its time) and dumps the DUT's scope with `$dumpvars`. Run it
//! under Icarus (`iverilog` + `vvp`) and `wavediff` the two VCDs: the same
//! design under two simulators on the same stimulus
//! (`atomport wave replay-tb`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use atomport_wave::diff::relative_vars;
use atomport_wave::reader::{Logic, Value, Waveform};

/// A port of a Verilog module, from its declarations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerilogPort {
    pub name: String,
    pub input: bool,
    pub width: u32,
}

/// The ports of `module` in `verilog`, from its `input` / `output` lines
/// Why no replay bench could be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("bad port declaration `{decl}`")]
    BadDeclaration { decl: String },
    #[error("bad port range in `{decl}`")]
    BadPortRange { decl: String },
    #[error("bad range `{range}`")]
    BadRange { range: String },
    #[error("unsupported port declaration `{decl}` (one port per line)")]
    Unsupported { decl: String },
    #[error("no `module {module}`")]
    NoModule { module: String },
    #[error("module `{module}` declares no ports")]
    NoPorts { module: String },
    #[error("{file}: no input `{port}` under scope `{scope}`")]
    NoInput { file: String, port: String, scope: String },
    #[error("{file}: `{port}` is {vcd} bits in the VCD, {module} in the module")]
    WidthMismatch { file: String, port: String, vcd: u32, module: u32 },
    #[error("{file}: input `{port}` is x or z at time {time}: a stimulus file carries 0s and 1s")]
    Unknown { file: String, port: String, time: u64 },
}

/// (`input wire [127:0] req_desc;`, rust-hdl's style), in order.
pub fn module_ports(verilog: &str, module: &str) -> Result<Vec<VerilogPort>, ReplayError> {
    let mut inside = false;
    let mut ports = Vec::new();
    for line in verilog.lines() {
        let t = line.trim();
        if !inside {
            let rest = t.strip_prefix("module ").map(str::trim_start);
            if rest.is_some_and(|r| r.starts_with(module) && r[module.len()..].trim_start().starts_with(['(', ';', '#'])) {
                inside = true;
            }
            continue;
        }
        if t.starts_with("endmodule") {
            break;
        }
        let (input, rest) = match t.split_once(char::is_whitespace) {
            Some(("input", r)) => (true, r),
            Some(("output", r)) => (false, r),
            _ => continue,
        };
        let rest = rest.trim().trim_end_matches(';').trim();
        let rest = rest.strip_prefix("wire").or_else(|| rest.strip_prefix("reg")).unwrap_or(rest).trim();
        let (width, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let (range, name) = r.split_once(']').ok_or_else(|| ReplayError::BadDeclaration { decl: t.to_string() })?;
                let (m, l) = range.split_once(':').ok_or_else(|| ReplayError::BadPortRange { decl: t.to_string() })?;
                let bad_range = || ReplayError::BadRange { range: range.to_string() };
                let (m, l): (i64, i64) = (m.trim().parse().map_err(|_| bad_range())?, l.trim().parse().map_err(|_| bad_range())?);
                ((m - l).unsigned_abs() as u32 + 1, name.trim())
            }
            None => (1, rest),
        };
        if name.is_empty() || name.contains([',', ' ']) {
            return Err(ReplayError::Unsupported { decl: t.to_string() });
        }
        ports.push(VerilogPort { name: name.to_string(), input, width });
    }
    if !inside {
        return Err(ReplayError::NoModule { module: module.to_string() });
    }
    if ports.is_empty() {
        return Err(ReplayError::NoPorts { module: module.to_string() });
    }
    Ok(ports)
}

/// A Verilog literal of a VCD value: `W'h...` when known, `W'b...` with x/z.
fn literal(v: &Value) -> String {
    if v.is_known() {
        format!("{}'h{}", v.width, v.hex())
    } else {
        let bits: String = (0..v.width).rev().map(|i| v.bit(i)).map(Logic::as_char).collect();
        format!("{}'b{bits}", v.width)
    }
}

/// A test bench `NAME_tb` that instantiates `module` as `dut`, drives its
/// inputs from the vars of the same names under `scope` of `w`, at the same
/// times (timescale of `w`), dumps `NAME_tb` into `dump_path` and finishes
/// one `tail` after the last change. Inputs the VCD lacks are an error.
pub fn replay_testbench(w: &Waveform, scope: &str, module: &str, ports: &[VerilogPort], dump_path: &str, tail: u64) -> Result<String, ReplayError> {
    let rel = relative_vars(w, scope);
    let tb = format!("{module}_tb");
    // input changes by time: (port, value literal)
    let mut by_time: BTreeMap<u64, Vec<(String, String)>> = BTreeMap::new();
    for p in ports.iter().filter(|p| p.input) {
        let var = rel
            .iter()
            .find(|(n, _)| *n == p.name)
            .map(|(_, v)| *v)
            .ok_or_else(|| ReplayError::NoInput { file: w.file.clone(), port: p.name.clone(), scope: scope.to_string() })?;
        if var.width != p.width {
            return Err(ReplayError::WidthMismatch { file: w.file.clone(), port: p.name.clone(), vcd: var.width, module: p.width });
        }
        let tr = w.trace(var);
        for i in 0..tr.len() {
            by_time.entry(tr.time(i)).or_default().push((p.name.clone(), literal(&tr.value(i))));
        }
    }
    let mut s = String::new();
    let ts = w.timescale;
    let _ = writeln!(s, "// Generated by atomport (tools/wave/src/replay.rs) from {}: replays its stimulus on `{module}`.", w.file);
    bench_top(&mut s, ts, &tb, module, ports);
    let _ = writeln!(s, "    initial begin");
    let _ = writeln!(s, "        $dumpfile(\"{dump_path}\");");
    // the DUT's own scope, as deep as the Verilator models trace
    // (`--trace-depth 1` in sim/build.rs): its ports, registers and rust-hdl's
    // copies of its sub-blocks' ports
    let _ = writeln!(s, "        $dumpvars(1, dut);");
    let mut now = 0u64;
    for (t, changes) in &by_time {
        if *t > now {
            let _ = writeln!(s, "        #{};", t - now);
            now = *t;
        }
        for (name, lit) in changes {
            let _ = writeln!(s, "        {name} = {lit};");
        }
    }
    let end = w.end_time.max(now) + tail;
    let _ = writeln!(s, "        #{};", end - now);
    let _ = writeln!(s, "        $finish;");
    let _ = writeln!(s, "    end");
    let _ = writeln!(s, "endmodule");
    Ok(s)
}

/// A bench's opening: the timescale, the module, a reg per input and a
/// wire per output of the DUT, and the DUT on them.
fn bench_top(s: &mut String, timescale: atomport_wave::Timescale, tb: &str, module: &str, ports: &[VerilogPort]) {
    let _ = writeln!(s, "`timescale {timescale}/{timescale}");
    let _ = writeln!(s, "module {tb};");
    for p in ports {
        let range = if p.width > 1 { format!(" [{}:0]", p.width - 1) } else { String::new() };
        let _ = writeln!(s, "    {}{range} {};", if p.input { "reg" } else { "wire" }, p.name);
    }
    let conns: Vec<String> = ports.iter().map(|p| format!(".{0}({0})", p.name)).collect();
    let _ = writeln!(s, "    {module} dut({});", conns.join(", "));
}

/// A replay bench compiled once and run on many stimuli: `{module}_xtb`
/// drives the module's inputs from a stimulus file (`+stim=FILE`, written
/// by [`stimulus_file`]) and dumps the DUT's scope into `+dump=FILE`. One
/// line per time at which an input changes: the time (hex) and every input's
/// value concatenated in port order (hex, first port leftmost); the last
/// line holds the inputs and the time to finish at.
pub fn stimulus_bench(module: &str, ports: &[VerilogPort], timescale: atomport_wave::Timescale) -> String {
    let tb = format!("{module}_xtb");
    let inputs: Vec<&VerilogPort> = ports.iter().filter(|p| p.input).collect();
    let width: u32 = inputs.iter().map(|p| p.width).sum();
    let mut s = String::new();
    let _ = writeln!(s, "// Generated by atomport (tools/wave/src/replay.rs): replays a stimulus file on `{module}`.");
    bench_top(&mut s, timescale, &tb, module, ports);
    let _ = writeln!(s, "    reg [{}:0] stim;", width.max(1) - 1);
    let _ = writeln!(s, "    reg [63:0] at, now;");
    let _ = writeln!(s, "    reg [8*4096-1:0] stim_path, dump_path;");
    let _ = writeln!(s, "    integer fd, got;");
    let _ = writeln!(s, "    initial begin");
    let _ = writeln!(s, "        if (!$value$plusargs(\"stim=%s\", stim_path) || !$value$plusargs(\"dump=%s\", dump_path)) begin");
    let _ = writeln!(s, "            $display(\"{tb}: error: give +stim=FILE +dump=FILE\");");
    let _ = writeln!(s, "            $finish;");
    let _ = writeln!(s, "        end");
    let _ = writeln!(s, "        fd = $fopen(stim_path, \"r\");");
    let _ = writeln!(s, "        if (fd == 0) begin");
    let _ = writeln!(s, "            $display(\"{tb}: error: cannot open %0s\", stim_path);");
    let _ = writeln!(s, "            $finish;");
    let _ = writeln!(s, "        end");
    let _ = writeln!(s, "        $dumpfile(dump_path);");
    // the DUT's own scope, as deep as the Verilator models trace
    // (`--trace-depth 1` in sim/build.rs)
    let _ = writeln!(s, "        $dumpvars(1, dut);");
    let _ = writeln!(s, "        now = 0;");
    let _ = writeln!(s, "        got = $fscanf(fd, \"%h %h\\n\", at, stim);");
    let _ = writeln!(s, "        while (got == 2) begin");
    let _ = writeln!(s, "            if (at > now) begin");
    let _ = writeln!(s, "                #(at - now);");
    let _ = writeln!(s, "                now = at;");
    let _ = writeln!(s, "            end");
    let names: Vec<&str> = inputs.iter().map(|p| p.name.as_str()).collect();
    let _ = writeln!(s, "            {{{}}} = stim;", names.join(", "));
    let _ = writeln!(s, "            got = $fscanf(fd, \"%h %h\\n\", at, stim);");
    let _ = writeln!(s, "        end");
    let _ = writeln!(s, "        if (!$feof(fd)) $display(\"{tb}: error: bad stimulus line after time %0d\", now);");
    let _ = writeln!(s, "        $fclose(fd);");
    let _ = writeln!(s, "        $finish;");
    let _ = writeln!(s, "    end");
    let _ = writeln!(s, "endmodule");
    s
}

/// The stimulus file of [`stimulus_bench`] for the inputs of `ports`, taken
/// from the vars of the same names under `scope` of `w`; it finishes one
/// `tail` after the VCD's end. `drop`: an input whose changes after time 0
/// are left out (it keeps its first value) — the deliberate fault that
/// shows a comparison catches a replay that loses an input.
pub fn stimulus_file(w: &Waveform, scope: &str, ports: &[VerilogPort], tail: u64, drop: Option<&str>) -> Result<String, ReplayError> {
    let rel = relative_vars(w, scope);
    let inputs: Vec<&VerilogPort> = ports.iter().filter(|p| p.input).collect();
    let width: u32 = inputs.iter().map(|p| p.width).sum();
    // per input: its trace and its offset (bit 0 of the input) in the vector
    let mut traces = Vec::new();
    let mut offset = width;
    for p in &inputs {
        let var = rel
            .iter()
            .find(|(n, _)| *n == p.name)
            .map(|(_, v)| *v)
            .ok_or_else(|| ReplayError::NoInput { file: w.file.clone(), port: p.name.clone(), scope: scope.to_string() })?;
        if var.width != p.width {
            return Err(ReplayError::WidthMismatch { file: w.file.clone(), port: p.name.clone(), vcd: var.width, module: p.width });
        }
        offset -= p.width;
        traces.push((w.trace(var), offset, drop == Some(p.name.as_str())));
    }
    let mut times: Vec<u64> = traces.iter().flat_map(|(t, _, _)| t.times().iter().copied()).collect();
    times.sort_unstable();
    times.dedup();
    let digits = width.div_ceil(4) as usize;
    let mut vector = vec![false; width as usize];
    let mut cursor = vec![0usize; traces.len()];
    let mut s = String::new();
    let line = |s: &mut String, t: u64, vector: &[bool]| {
        let _ = write!(s, "{t:x} ");
        for d in (0..digits).rev() {
            let nibble = (0..4).filter(|b| vector.get(d * 4 + b).copied().unwrap_or(false)).fold(0u32, |n, b| n | 1 << b);
            s.push(char::from_digit(nibble, 16).unwrap());
        }
        s.push('\n');
    };
    for &t in &times {
        for (i, (tr, off, dropped)) in traces.iter().enumerate() {
            while cursor[i] < tr.len() && tr.time(cursor[i]) == t {
                if !(*dropped && t > 0) {
                    let v = tr.value(cursor[i]);
                    if !v.is_known() {
                        return Err(ReplayError::Unknown { file: w.file.clone(), port: inputs[i].name.clone(), time: t });
                    }
                    for b in 0..v.width {
                        vector[(*off + b) as usize] = v.bits[(b / 64) as usize] >> (b % 64) & 1 == 1;
                    }
                }
                cursor[i] += 1;
            }
        }
        line(&mut s, t, &vector);
    }
    let end = w.end_time.max(times.last().copied().unwrap_or(0)) + tail;
    line(&mut s, end, &vector);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_and_bench() {
        let v = "// x\nmodule m$sub(a);\n input wire a;\nendmodule\nmodule m(clock,d,q);\n    input wire  clock;\n    input wire  [7:0] d;\n    output reg  [7:0] q;\nendmodule\n";
        let ports = module_ports(v, "m").unwrap();
        assert_eq!(
            ports,
            [
                VerilogPort { name: "clock".into(), input: true, width: 1 },
                VerilogPort { name: "d".into(), input: true, width: 8 },
                VerilogPort { name: "q".into(), input: false, width: 8 }
            ]
        );
        assert!(module_ports(v, "nope").is_err());
        let w = Waveform::parse(
            "t.vcd",
            b"$timescale 1ns $end $scope module TOP $end $var wire 1 ! clock $end $var wire 8 \" d [7:0] $end $var wire 8 # q [7:0] $end $upscope $end $enddefinitions $end #0 0! bx1 \" #5 1! #10 0! b11 \" #15 1!",
        )
        .unwrap();
        let tb = replay_testbench(&w, "TOP", "m", &ports, "out.vcd", 5).unwrap();
        assert!(tb.contains("`timescale 1ns/1ns"), "{tb}");
        assert!(tb.contains("m dut(.clock(clock), .d(d), .q(q));"), "{tb}");
        assert!(tb.contains("        clock = 1'h0;\n        d = 8'bxxxxxxx1;\n        #5;\n        clock = 1'h1;\n        #5;\n"), "{tb}");
        assert!(tb.contains("d = 8'h03;"), "{tb}");
        assert!(tb.ends_with("        #5;\n        $finish;\n    end\nendmodule\n"), "{tb}");
    }
}
