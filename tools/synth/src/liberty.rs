//! Reading a Liberty (`.lib`) standard-cell library: what the ASIC flow
//! needs to know that Yosys's and OpenSTA's reports do not say: each cell's
//! area and whether it is a flip-flop or a latch (to count them), a buffer
//! cell (for `insbuf`), and the library's operating corner (for reports).
//! A generic group/attribute parser, so any library `--liberty` names reads
//! the same way; timing tables are skipped over, not interpreted.

use std::collections::BTreeMap;

/// What the flow reads of a library.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Liberty {
    /// `library(NAME)`
    pub name: String,
    /// `time_unit` (`"1ns"`)
    pub time_unit: Option<String>,
    /// `capacitive_load_unit (1,pf)` in femtofarads (1000)
    pub capacitance_unit_ff: Option<f64>,
    /// `nom_process`, `nom_voltage`, `nom_temperature`
    pub nom_process: Option<f64>,
    pub nom_voltage: Option<f64>,
    pub nom_temperature: Option<f64>,
    /// `default_operating_conditions`
    pub default_operating_conditions: Option<String>,
    /// the `operating_conditions(NAME)` groups
    pub operating_conditions: Vec<OperatingConditions>,
    /// cell name -> cell
    pub cells: BTreeMap<String, LibCell>,
}

/// One `operating_conditions(NAME)` group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OperatingConditions {
    pub name: String,
    pub process: Option<f64>,
    pub voltage: Option<f64>,
    pub temperature: Option<f64>,
}

/// What a cell stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// an `ff` group: an edge-triggered flip-flop
    FlipFlop,
    /// a `latch` group
    Latch,
    /// anything else (`statetable` cells included: the flow never maps to them)
    Combinational,
}

/// One `cell(NAME)` group.
#[derive(Clone, Debug, PartialEq)]
pub struct LibCell {
    /// `area` (the library's unit, µm² in the libraries the flow knows)
    pub area: f64,
    pub kind: CellKind,
    /// `dont_use : true`
    pub dont_use: bool,
    /// input pin names, in file order
    pub inputs: Vec<String>,
    /// input pin -> `capacitance` (the library's unit)
    pub input_capacitance: BTreeMap<String, f64>,
    /// output pins and their `function`, in file order
    pub outputs: Vec<(String, Option<String>)>,
}

/// A buffer cell: `insbuf -buf CELL IN OUT`.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    pub cell: String,
    pub input: String,
    pub output: String,
    /// its input's capacitance in femtofarads, when the library gives it and its unit
    pub input_ff: Option<f64>,
}

impl Liberty {
    /// The corner the library characterizes: its default operating
    /// conditions (`typical, 1.8 V, 25 °C`), else its nominal values.
    pub fn corner(&self) -> String {
        let oc = self
            .default_operating_conditions
            .as_ref()
            .and_then(|name| self.operating_conditions.iter().find(|o| &o.name == name))
            .or_else(|| (self.operating_conditions.len() == 1).then(|| &self.operating_conditions[0]));
        let (name, voltage, temperature) = match oc {
            Some(o) => (o.name.clone(), o.voltage.or(self.nom_voltage), o.temperature.or(self.nom_temperature)),
            None => ("nominal".to_string(), self.nom_voltage, self.nom_temperature),
        };
        let mut parts = vec![name];
        if let Some(v) = voltage {
            parts.push(format!("{v} V"));
        }
        if let Some(t) = temperature {
            parts.push(format!("{t} °C"));
        }
        parts.join(", ")
    }

    /// Cells of one kind, by name.
    pub fn cells_of(&self, kind: CellKind) -> Vec<&str> {
        self.cells.iter().filter(|(_, c)| c.kind == kind).map(|(n, _)| n.as_str()).collect()
    }

    /// The smallest usable buffer: one input, one output whose function is
    /// that input (ties: the first name).
    pub fn buffer(&self) -> Option<Buffer> {
        self.cells
            .iter()
            .filter(|(_, c)| !c.dont_use && c.kind == CellKind::Combinational && c.inputs.len() == 1 && c.outputs.len() == 1)
            .filter(|(_, c)| {
                c.outputs[0].1.as_deref().map(|f| f.trim().trim_matches(|ch| ch == '(' || ch == ')').trim()) == Some(c.inputs[0].as_str())
            })
            .min_by(|a, b| a.1.area.total_cmp(&b.1.area).then_with(|| a.0.cmp(b.0)))
            .map(|(name, c)| Buffer {
                cell: name.clone(),
                input: c.inputs[0].clone(),
                output: c.outputs[0].0.clone(),
                input_ff: c.input_capacitance.get(&c.inputs[0]).zip(self.capacitance_unit_ff).map(|(c, unit)| c * unit),
            })
    }
}

/// A Liberty text that could not be read: where, and what.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: error: {message}")]
pub struct LibertyError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Reads the text of a Liberty file.
pub fn parse(text: &str) -> Result<Liberty, LibertyError> {
    let tokens = tokenize(text)?;
    let mut parser = Parser { tokens: &tokens, at: 0 };
    let root = parser.statement()?.ok_or_else(|| parser.error("no `library(NAME) { ... }` group"))?;
    let Statement::Group(library) = root else {
        return Err(LibertyError { line: 1, column: 1, message: "the file does not start with a `library` group".into() });
    };
    if library.kind != "library" {
        return Err(LibertyError {
            line: library.line,
            column: library.column,
            message: format!("the top group is `{}`, not `library`", library.kind),
        });
    }
    Ok(read_library(&library))
}

fn read_library(g: &Group) -> Liberty {
    let mut lib = Liberty {
        name: g.args.first().cloned().unwrap_or_default(),
        time_unit: g.attr("time_unit").map(str::to_string),
        capacitance_unit_ff: g.complex("capacitive_load_unit").and_then(|args| match args {
            [value, unit] => {
                let scale = match unit.to_ascii_lowercase().as_str() {
                    "pf" => 1e3,
                    "ff" => 1.0,
                    _ => return None,
                };
                value.parse::<f64>().ok().map(|v| v * scale)
            }
            _ => None,
        }),
        nom_process: g.number("nom_process"),
        nom_voltage: g.number("nom_voltage"),
        nom_temperature: g.number("nom_temperature"),
        default_operating_conditions: g.attr("default_operating_conditions").map(str::to_string),
        ..Liberty::default()
    };
    for sub in &g.groups {
        match sub.kind.as_str() {
            "operating_conditions" => lib.operating_conditions.push(OperatingConditions {
                name: sub.args.first().cloned().unwrap_or_default(),
                process: sub.number("process"),
                voltage: sub.number("voltage"),
                temperature: sub.number("temperature"),
            }),
            "cell" => {
                let Some(name) = sub.args.first() else { continue };
                let kind = if sub.groups.iter().any(|s| s.kind == "ff" || s.kind == "ff_bank") {
                    CellKind::FlipFlop
                } else if sub.groups.iter().any(|s| s.kind == "latch" || s.kind == "latch_bank") {
                    CellKind::Latch
                } else {
                    CellKind::Combinational
                };
                let (mut inputs, mut outputs, mut input_capacitance) = (vec![], vec![], BTreeMap::new());
                for pin in sub.groups.iter().filter(|s| s.kind == "pin") {
                    for pin_name in &pin.args {
                        match pin.attr("direction") {
                            Some("input") => {
                                inputs.push(pin_name.clone());
                                if let Some(c) = pin.number("capacitance") {
                                    input_capacitance.insert(pin_name.clone(), c);
                                }
                            }
                            Some("output") => outputs.push((pin_name.clone(), pin.attr("function").map(str::to_string))),
                            _ => {}
                        }
                    }
                }
                lib.cells.insert(
                    name.clone(),
                    LibCell {
                        area: sub.number("area").unwrap_or(0.0),
                        kind,
                        dont_use: sub.attr("dont_use") == Some("true"),
                        inputs,
                        input_capacitance,
                        outputs,
                    },
                );
            }
            _ => {}
        }
    }
    lib
}

/// `kind(args) { attributes; groups }`
#[derive(Debug)]
struct Group {
    kind: String,
    args: Vec<String>,
    attrs: Vec<(String, String)>,
    /// `name(args);`
    complex: Vec<(String, Vec<String>)>,
    groups: Vec<Group>,
    line: usize,
    column: usize,
}

impl Group {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn number(&self, name: &str) -> Option<f64> {
        self.attr(name)?.parse().ok()
    }

    fn complex(&self, name: &str) -> Option<&[String]> {
        self.complex.iter().find(|(n, _)| n == name).map(|(_, a)| a.as_slice())
    }
}

enum Statement {
    Group(Group),
    /// `name : value;` (the value's tokens joined by spaces)
    Simple(String, String),
    /// `name(args);`
    Complex(String, Vec<String>),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// a name, number or any other unquoted word
    Word(String),
    /// a double-quoted string, without its quotes
    Str(String),
    Punct(char),
}

struct Token {
    tok: Tok,
    line: usize,
    column: usize,
}

/// The tokenizer's place in the text.
struct Cursor {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) {
        if self.peek(0) == Some('\n') {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        self.at += 1;
    }
}

fn tokenize(text: &str) -> Result<Vec<Token>, LibertyError> {
    let mut out = vec![];
    let mut cur = Cursor { chars: text.chars().collect(), at: 0, line: 1, column: 1 };
    while let Some(c) = cur.peek(0) {
        let (line, column) = (cur.line, cur.column);
        let err = |message: &str| LibertyError { line, column, message: message.into() };
        if c.is_whitespace() || c == '\\' {
            // `\` continues a line
            cur.bump();
        } else if c == '/' && cur.peek(1) == Some('*') {
            cur.bump();
            cur.bump();
            loop {
                match (cur.peek(0), cur.peek(1)) {
                    (None, _) => return Err(err("unterminated comment")),
                    (Some('*'), Some('/')) => {
                        cur.bump();
                        cur.bump();
                        break;
                    }
                    _ => cur.bump(),
                }
            }
        } else if c == '/' && cur.peek(1) == Some('/') {
            while cur.peek(0).is_some_and(|ch| ch != '\n') {
                cur.bump();
            }
        } else if c == '"' {
            cur.bump();
            let mut s = String::new();
            loop {
                match cur.peek(0) {
                    None => return Err(err("unterminated string")),
                    Some('"') => {
                        cur.bump();
                        break;
                    }
                    Some('\\') if matches!(cur.peek(1), Some('\n' | '\r')) => cur.bump(),
                    Some(ch) => {
                        s.push(ch);
                        cur.bump();
                    }
                }
            }
            out.push(Token { tok: Tok::Str(s), line, column });
        } else if "(){}:;,".contains(c) {
            cur.bump();
            out.push(Token { tok: Tok::Punct(c), line, column });
        } else {
            let mut s = String::new();
            while let Some(ch) = cur.peek(0).filter(|ch| !ch.is_whitespace() && !"(){}:;,\"\\".contains(*ch)) {
                s.push(ch);
                cur.bump();
            }
            out.push(Token { tok: Tok::Word(s), line, column });
        }
    }
    Ok(out)
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn error(&self, message: &str) -> LibertyError {
        let (line, column) = match self.tokens.get(self.at).or(self.tokens.last()) {
            Some(t) => (t.line, t.column),
            None => (1, 1),
        };
        LibertyError { line, column, message: message.to_string() }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// One statement, or `None` at `}` or the end.
    fn statement(&mut self) -> Result<Option<Statement>, LibertyError> {
        let (line, column) = match self.tokens.get(self.at) {
            Some(t) => (t.line, t.column),
            None => return Ok(None),
        };
        let name = match self.peek() {
            Some(Tok::Word(w)) => w.clone(),
            Some(Tok::Punct('}')) => return Ok(None),
            _ => return Err(self.error("expected an attribute or group name")),
        };
        self.at += 1;
        if self.eat(':') {
            let mut value = vec![];
            while let Some(tok) = self.peek() {
                match tok {
                    Tok::Punct(';') => {
                        self.at += 1;
                        break;
                    }
                    Tok::Punct('}') => break,
                    Tok::Word(w) | Tok::Str(w) => value.push(w.clone()),
                    Tok::Punct(_) => return Err(self.error(&format!("unexpected punctuation in the value of `{name}`"))),
                }
                self.at += 1;
            }
            return Ok(Some(Statement::Simple(name, value.join(" "))));
        }
        if !self.eat('(') {
            return Err(self.error(&format!("expected `:` or `(` after `{name}`")));
        }
        let mut args = vec![];
        loop {
            match self.peek() {
                Some(Tok::Punct(')')) => {
                    self.at += 1;
                    break;
                }
                Some(Tok::Punct(',')) => self.at += 1,
                Some(Tok::Word(w) | Tok::Str(w)) => {
                    args.push(w.clone());
                    self.at += 1;
                }
                _ => return Err(self.error(&format!("unterminated argument list of `{name}`"))),
            }
        }
        if self.eat('{') {
            let mut group = Group { kind: name, args, attrs: vec![], complex: vec![], groups: vec![], line, column };
            while let Some(st) = self.statement()? {
                match st {
                    Statement::Group(g) => group.groups.push(g),
                    Statement::Simple(n, v) => group.attrs.push((n, v)),
                    Statement::Complex(n, a) => group.complex.push((n, a)),
                }
            }
            if !self.eat('}') {
                return Err(LibertyError {
                    line,
                    column,
                    message: format!("group `{}` is not closed", group.kind),
                });
            }
            return Ok(Some(Statement::Group(group)));
        }
        self.eat(';');
        Ok(Some(Statement::Complex(name, args)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of the OSU libraries (qflow-tech-osu018), cut down: header,
    /// one operating corner, a buffer, a clock buffer, an inverter, a
    /// flip-flop, a latch, continued value tables.
    const OSU: &str = r#"/*
 delay model :       typ
*/
library(osu018_stdcells) {
  delay_model : table_lookup;
  time_unit : "1ns";
  capacitive_load_unit (1,pf);
  nom_process : 1;
  nom_voltage : 1.8;
  nom_temperature : 25;
  operating_conditions ( typical ) {
     process : 1;
     voltage : 1.8;
     temperature : 25;
  }
  default_operating_conditions : typical;
  lu_table_template(delay_template_5x1) {
    variable_1 : input_net_transition;
    index_1 ("1000.0, 1001.0, 1002.0, 1003.0, 1004.0");
  }
cell (BUFX4) {
  area : 32;
  pin(A)  { direction : input; capacitance : 0.0177; }
  pin(Y)  { direction : output; function : "A";
    timing() {
      related_pin : "A";
      cell_rise(delay_template_5x5) {
        values ( \
          "0.1, 0.2", \
          "0.3, 0.4");
      }
    }
  }
}
cell (BUFX2) {
  cell_footprint : buf;
area : 24;
  pin(A)  { direction : input; capacitance : 0.0093; }
  pin(Y)  { direction : output; function : "A"; }
}
cell (CLKBUF1) { area : 72; pin(A) { direction : input; } pin(Y) { direction : output; function : "A"; } }
cell (INVX1) { area : 16; pin(A) { direction : input; } pin(Y) { direction : output; function : "(!A)"; } }
cell (DFFPOSX1) {
area : 96;
  ff (DS0000,P0002) {
    next_state : "D";
    clocked_on : "CLK";
  }
  pin(CLK) { direction : input; clock : true; }
  pin(D) { direction : input; }
  pin(Q) { direction : output; function : "DS0000"; }
}
cell (LATCH) { area : 64; latch (DS0000,P0000) { enable : "CLK"; data_in : "D"; }
  pin(Q) { direction : output; function : "DS0000"; } }
}
"#;

    #[test]
    fn reads_cells_areas_kinds_and_the_corner() {
        let lib = parse(OSU).unwrap();
        assert_eq!(lib.name, "osu018_stdcells");
        assert_eq!(lib.time_unit.as_deref(), Some("1ns"));
        assert_eq!(lib.capacitance_unit_ff, Some(1000.0));
        assert_eq!(lib.corner(), "typical, 1.8 V, 25 °C");
        assert_eq!(lib.cells.len(), 6);
        assert_eq!(lib.cells["BUFX2"].area, 24.0);
        assert_eq!(lib.cells["DFFPOSX1"].kind, CellKind::FlipFlop);
        assert_eq!(lib.cells["DFFPOSX1"].inputs, ["CLK", "D"]);
        assert_eq!(lib.cells["LATCH"].kind, CellKind::Latch);
        assert_eq!(lib.cells_of(CellKind::FlipFlop), ["DFFPOSX1"]);
        assert_eq!(lib.cells["INVX1"].outputs, [("Y".to_string(), Some("(!A)".to_string()))]);
    }

    #[test]
    fn the_buffer_is_the_smallest_cell_that_copies_its_input() {
        let lib = parse(OSU).unwrap();
        let buf = lib.buffer().unwrap();
        assert_eq!((buf.cell.as_str(), buf.input.as_str(), buf.output.as_str()), ("BUFX2", "A", "Y"));
        assert!((buf.input_ff.unwrap() - 9.3).abs() < 1e-9, "0.0093 pF: {buf:?}");
        let mut no_small = lib.clone();
        no_small.cells.get_mut("BUFX2").unwrap().dont_use = true;
        assert_eq!(no_small.buffer().unwrap().cell, "BUFX4", "dont_use cells are not used");
        let mut none = lib;
        none.cells.retain(|n, _| !n.contains("BUF"));
        assert_eq!(none.buffer(), None, "an inverter is not a buffer");
    }

    #[test]
    fn a_corner_without_operating_conditions_is_nominal() {
        let lib = parse("library(x) { nom_voltage : 0.9; nom_temperature : -40; }").unwrap();
        assert_eq!(lib.corner(), "nominal, 0.9 V, -40 °C");
    }

    #[test]
    fn bad_text_is_an_error_with_its_place() {
        let err = parse("library(x) {\n  cell (A) {\n    area : 3;\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 3), "{err}");
        assert!(err.message.contains("`cell` is not closed"), "{err}");
        let err = parse("library(x) {\n  area 3;\n}").unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        assert!(err.to_string().starts_with("2:"), "{err}");
        assert!(parse("cell(x) { }").unwrap_err().message.contains("not `library`"));
        assert!(parse("/* open").unwrap_err().message.contains("unterminated comment"));
        assert!(parse("").is_err());
    }
}
