//! The registers' power-up values in rust-hdl's emitted Verilog: each DFF's
//! `initial begin` / `q = <constant>;` / `end` block. build.rs removes them
//! for the `x-unique` build (registers then start at Verilator's random
//! values); the crate compiles this file too, for its tests.

/// Removes every `initial begin` / `<reg> = <constant>;` / `end` block (what
/// rust-hdl emits for a DFF's power-up value); returns the text and how many
/// blocks it removed.
pub fn strip_power_up_values(text: &str) -> (String, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut removed = 0;
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() == "initial begin"
            && i + 2 < lines.len()
            && lines[i + 2].trim() == "end"
            && is_constant_assignment(lines[i + 1].trim())
        {
            removed += 1;
            i += 3;
            continue;
        }
        out.push_str(lines[i]);
        out.push('\n');
        i += 1;
    }
    (out, removed)
}

/// `q = 3'h0;` and the like, and a RAM row's `rows[3] = 128'h0;`
/// (`EntryRam`, hdl/src/entry_ram.rs).
fn is_constant_assignment(line: &str) -> bool {
    let Some((lhs, rhs)) = line.strip_suffix(';').and_then(|l| l.split_once(" = ")) else { return false };
    let name = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    let ident = |s: &str| match s.strip_suffix(']').and_then(|s| s.split_once('[')) {
        Some((array, row)) => name(array) && !row.is_empty() && row.chars().all(|c| c.is_ascii_digit()),
        None => name(s),
    };
    let Some((width, value)) = rhs.split_once('\'') else { return false };
    ident(lhs)
        && width.chars().all(|c| c.is_ascii_digit())
        && value.len() > 1
        && matches!(&value[..1], "h" | "b" | "d")
        && value[1..].chars().all(|c| c.is_ascii_hexdigit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_up_blocks_go_and_other_code_stays() {
        let text = "module m(clock);\n    initial begin\n        q = 3'h0;\n    end\n    initial begin\n        rows[3] = 128'h0;\n    end\n    \
                    initial begin\n        $display(\"x\");\n    end\n    always @(posedge clock) q <= d;\nendmodule\n";
        let (stripped, removed) = strip_power_up_values(text);
        assert_eq!(removed, 2);
        assert_eq!(
            stripped,
            "module m(clock);\n    initial begin\n        $display(\"x\");\n    end\n    always @(posedge clock) q <= d;\nendmodule\n"
        );
    }

    #[test]
    fn constant_assignments() {
        for yes in ["q = 3'h0;", "rows[3] = 128'h0;", "a$b = 1'b1;", "x = 8'd12;", "w = 64'h0000_ffff;"] {
            assert!(is_constant_assignment(yes), "{yes}");
        }
        for no in ["q = d;", "q <= 3'h0;", "rows[i] = 128'h0;", "q = 3'hg;", "q = 'h0;x", "q = 3'h;", "= 3'h0;"] {
            assert!(!is_constant_assignment(no), "{no}");
        }
    }
}
