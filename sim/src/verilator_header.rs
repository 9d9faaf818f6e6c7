//! The ports of a Verilated model, read from the model header Verilator
//! writes (`VL_IN8(&op,4,0);`, `VL_OUTW(&x,127,0,4);`). Used for the
//! models verilated at run time ([`crate::dynamic`]).

/// One port of a Verilated model, as its header declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderPort {
    pub name: String,
    pub input: bool,
    pub width: u32,
    /// Verilator's storage: 8, 16, 32 or 64 bits, or 0 for a `VlWide` of u32 words
    pub storage: u32,
    /// u32 words of a `VlWide` port (1 otherwise)
    pub words: u32,
}

/// The port declarations of a model header, in declaration order. `Err`
/// for an `inout` port (no binding for it) or a declaration it cannot read.
pub fn parse_ports(header: &str) -> Result<Vec<HeaderPort>, String> {
    let mut ports = vec![];
    for line in header.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("VL_") else { continue };
        let Some(open) = rest.find("(&") else { continue };
        let (kind, args) = rest.split_at(open);
        let (input, storage_text) = if kind.starts_with("INOUT") {
            return Err(format!("inout port in `{line}`: not supported by the binding"));
        } else if let Some(s) = kind.strip_prefix("IN") {
            (true, s)
        } else if let Some(s) = kind.strip_prefix("OUT") {
            (false, s)
        } else {
            continue;
        };
        let storage = match storage_text {
            "8" => 8,
            "16" => 16,
            "" => 32,
            "64" => 64,
            "W" => 0,
            _ => continue,
        };
        let args = args.trim_start_matches("(&").trim_end_matches(';').trim_end_matches(')');
        let fields: Vec<&str> = args.split(',').map(str::trim).collect();
        let number = |k: usize| -> Result<u32, String> {
            fields.get(k).and_then(|f| f.parse().ok()).ok_or_else(|| format!("cannot read the port declaration `{line}`"))
        };
        let (msb, lsb) = (number(1)?, number(2)?);
        if lsb > msb {
            return Err(format!("cannot read the port declaration `{line}`"));
        }
        let words = if storage == 0 { number(3)? } else { 1 };
        ports.push(HeaderPort { name: fields[0].to_string(), input, width: msb - lsb + 1, storage, words });
    }
    Ok(ports)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_storage_class_and_direction() {
        let header = "class Vx {\n  public:\n    VL_IN8(&clock,0,0);\n    VL_IN8(&op,4,0);\n    VL_OUT16(&lane,9,0);\n    \
                      VL_IN(&mask,31,0);\n    VL_OUT64(&addr,63,0);\n    VL_INW(&src0,127,0,4);\n    VL_OUTW(&wide,69,0,3);\n    \
                      VL_SIG8(internal,0,0);\n};\n";
        let ports = parse_ports(header).unwrap();
        let got: Vec<(&str, bool, u32, u32, u32)> =
            ports.iter().map(|p| (p.name.as_str(), p.input, p.width, p.storage, p.words)).collect();
        assert_eq!(
            got,
            [
                ("clock", true, 1, 8, 1),
                ("op", true, 5, 8, 1),
                ("lane", false, 10, 16, 1),
                ("mask", true, 32, 32, 1),
                ("addr", false, 64, 64, 1),
                ("src0", true, 128, 0, 4),
                ("wide", false, 70, 0, 3),
            ]
        );
    }

    #[test]
    fn inout_and_unreadable_declarations_are_errors() {
        assert!(parse_ports("VL_INOUT8(&x,0,0);").unwrap_err().contains("inout"));
        assert!(parse_ports("VL_IN8(&x,zz,0);").unwrap_err().contains("cannot read"));
        assert!(parse_ports("VL_INW(&x,127,0);").unwrap_err().contains("cannot read"));
        assert_eq!(parse_ports("no ports here").unwrap(), []);
    }
}
