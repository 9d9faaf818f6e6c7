//! The emitted Verilog of every checked-in unit build declares exactly the
//! ports of the port table (`atomport_isa::ports`): names, order,
//! directions and widths.

use atomport_isa::ports::{PortDir, UNIT_PORTS};

/// The checked-in unit builds, as (file under hdl/verilog, top module).
const UNIT_FILES: [(&str, &str); 3] = [
    ("atomic_unit.v", "atomic_unit"),
    ("variants/atomic_unit_l8_w32_int.v", "atomic_unit_l8_w32_int"),
    ("variants/serial_unit_l8_w32_int.v", "serial_unit_l8_w32_int"),
];

/// The ports of module `top` in `verilog` (rust-hdl's emitted form: the
/// header's name list, then one `input wire [M:0] name;` /
/// `output reg name;` line per port), in header order.
fn module_ports(verilog: &str, top: &str) -> Result<Vec<(String, PortDir, u32)>, String> {
    let start = verilog.find(&format!("module {top}(")).ok_or(format!("no `module {top}(`"))?;
    let body = &verilog[start..];
    let body = &body[..body.find("endmodule").ok_or("no endmodule")?];
    let header_end = body.find(");").ok_or("no end of the port list")?;
    let names: Vec<&str> = body[format!("module {top}(").len()..header_end].split(',').map(str::trim).collect();
    let mut decls = std::collections::HashMap::new();
    for line in body[header_end..].lines().map(str::trim) {
        let (dir, rest) = if let Some(r) = line.strip_prefix("input ") {
            (PortDir::Input, r)
        } else if let Some(r) = line.strip_prefix("output ") {
            (PortDir::Output, r)
        } else {
            continue;
        };
        let rest = rest.trim_start_matches("wire").trim_start_matches("reg").trim().trim_end_matches(';');
        let (width, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let (range, name) = r.split_once(']').ok_or(format!("cannot read `{line}`"))?;
                let (msb, lsb) = range.split_once(':').ok_or(format!("cannot read `{line}`"))?;
                let n = |s: &str| s.trim().parse::<u32>().map_err(|_| format!("cannot read `{line}`"));
                (n(msb)? - n(lsb)? + 1, name.trim())
            }
            None => (1, rest),
        };
        decls.insert(name.to_string(), (dir, width));
    }
    names
        .iter()
        .map(|n| decls.get(*n).map(|&(d, w)| (n.to_string(), d, w)).ok_or(format!("`{n}` has no declaration")))
        .collect()
}

#[test]
fn the_emitted_verilog_declares_the_port_table() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../hdl/verilog");
    let table: Vec<(String, PortDir, u32)> = UNIT_PORTS.iter().map(|p| (p.name.to_string(), p.dir, p.width)).collect();
    for (file, top) in UNIT_FILES {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let ports = module_ports(&text, top).unwrap_or_else(|e| panic!("{file}: {e}"));
        let differences = atomport_isa::ports::unit_port_differences(ports.iter().map(|(n, d, w)| (n.as_str(), *d, *w)));
        assert!(differences.is_empty(), "{file} and the port table (isa/src/ports.rs) disagree:\n{}", differences.join("\n"));
        assert_eq!(ports, table, "{file}: the ports' order differs from the port table's");
    }
}

#[test]
fn the_reader_sees_directions_widths_and_missing_declarations() {
    let v = "module m(clock,a,b);\n  input wire  clock;\n  input wire  [4:0] a;\n  output reg  [127:0] b;\nendmodule\n";
    let got = module_ports(v, "m").unwrap();
    assert_eq!(got, [("clock".into(), PortDir::Input, 1), ("a".into(), PortDir::Input, 5), ("b".into(), PortDir::Output, 128)]);
    assert!(module_ports("module m(a);\nendmodule", "m").unwrap_err().contains("`a` has no declaration"));
    assert!(module_ports("module n(a);\nendmodule", "m").is_err());
}
