//! The op and format tables in docs/ (docs/descriptors.md, docs/script-language.md)
//! are written for people; this test reads them back and checks every
//! number and name in them against the one table (`atomport_isa`), so the
//! docs cannot drift from the code.

use std::collections::BTreeSet;

use atomport_isa::{MsgKind, PtxOp, PtxOpInfo, PtxType, VisaOpInfo, KINDS, PTX_OPS, SCATTER_BLOCK_BYTES, SCATTER_NUM_BLOCKS, VISA_OPS};

fn doc(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cells of a Markdown table row, trimmed.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

/// The text from `start` (a unique heading or phrase) to the next `end`.
fn section<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let at = text.find(start).unwrap_or_else(|| panic!("`{start}` is not in the doc"));
    let rest = &text[at + start.len()..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// `0x4e` -> 0x4e.
fn hex_byte(cell: &str) -> u8 {
    let h = cell.split('`').nth(1).unwrap_or_else(|| panic!("no `0x..` in `{cell}`"));
    u8::from_str_radix(h.trim_start_matches("0x"), 16).unwrap_or_else(|_| panic!("`{cell}`"))
}

/// `1, 2, 4, 8; ...` at the start of `text` -> [1, 2, 4, 8].
fn number_list(text: &str) -> Vec<u8> {
    let head: String = text.chars().take_while(|c| c.is_ascii_digit() || *c == ',' || *c == ' ').collect();
    head.split(',').map(str::trim).filter(|p| !p.is_empty()).map(|p| p.parse().unwrap_or_else(|_| panic!("`{p}` in `{text}`"))).collect()
}

fn kind_by_doc_name(cell: &str) -> MsgKind {
    if cell.starts_with("PTX atom") {
        return MsgKind::PtxAtom;
    }
    MsgKind::ALL.into_iter().find(|k| k.name() == cell).unwrap_or_else(|| panic!("unknown kind `{cell}`"))
}

#[test]
fn descriptors_md_opcode_table_is_the_kind_table() {
    let text = doc("descriptors.md");
    let table = section(&text, "## Opcodes", "## ");
    let mut seen = BTreeSet::new();
    for line in table.lines().filter(|l| l.starts_with("| `0x")) {
        let c = cells(line);
        let k = kind_by_doc_name(&c[2]).info();
        assert_eq!(hex_byte(&c[0]), k.opcode, "{line}");
        match k.subop {
            Some(sub) => assert_eq!(hex_byte(&c[1]), sub, "{line}"),
            None => assert_eq!(c[1], "Op", "{line}"),
        }
        assert_eq!(c[3].parse::<usize>().unwrap(), k.desc_len, "{line}");
        seen.insert(k.kind);
    }
    assert_eq!(seen.len(), KINDS.len(), "every kind has a row");
}

#[test]
fn descriptors_md_format_tables_are_the_field_layouts() {
    let text = doc("descriptors.md");
    for k in &KINDS {
        let title = match k.kind {
            MsgKind::PtxAtom => "## PTX atom (".to_string(),
            _ => format!("## {} (", k.name),
        };
        let body = section(&text, &title, "\n## ");
        let heading = body.lines().next().unwrap();
        assert!(heading.contains(&format!("{} bytes)", k.desc_len)), "{}: heading `{heading}`", k.name);
        let rows: Vec<Vec<String>> = body
            .lines()
            .skip_while(|l| !l.starts_with("| offset | field |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(cells)
            .collect();
        assert_eq!(rows.len(), k.fields.len(), "{}: one row per field", k.name);
        for (row, field) in rows.iter().zip(k.fields) {
            let offset: usize = row[0].split("..").next().unwrap().parse().unwrap();
            assert_eq!(offset, field.offset, "{}: {row:?}", k.name);
            if field.len > 1 {
                assert_eq!(row[0], format!("{}..{}", field.offset, field.offset + field.len - 1), "{}", k.name);
            }
            match field.name {
                // the opcode bytes' rows name the byte's meaning and give its value
                "Opcode" => assert_eq!(hex_byte(&row[2]), k.opcode, "{}: {row:?}", k.name),
                "Sub_opcode" => assert_eq!(Some(hex_byte(&row[2])), k.subop, "{}: {row:?}", k.name),
                name => assert_eq!(row[1], name, "{}", k.name),
            }
            if field.name == "Exec_size" {
                let codes: Vec<u8> = k.exec_sizes.iter().map(|n| n.trailing_zeros() as u8).collect();
                let enc = &row[2];
                if let Some(r) = enc.split("size codes ").nth(1) {
                    let (lo, hi) = r.split(|c: char| !c.is_ascii_digit() && c != '.').next().unwrap().split_once("..").unwrap();
                    assert_eq!((lo.parse::<u8>().unwrap(), hi.parse::<u8>().unwrap()), (codes[0], *codes.last().unwrap()), "{}: {enc}", k.name);
                    assert_eq!(codes.len(), (codes.last().unwrap() - codes[0] + 1) as usize);
                } else {
                    let only = enc.split("size code ").nth(1).unwrap_or_else(|| panic!("{}: `{enc}`", k.name));
                    assert!(only.starts_with(&format!("{} only ({} lanes)", codes[0], k.exec_sizes[0])), "{}: {enc}", k.name);
                    assert_eq!(codes.len(), 1);
                }
            }
        }
    }
}

#[test]
fn descriptors_md_op_and_type_codes_are_the_op_tables() {
    let text = doc("descriptors.md");
    let pairs = |s: &str| -> Vec<(String, u8)> {
        s.split(',')
            .map(|p| {
                let mut w = p.split_whitespace();
                let name = w.next().unwrap().to_string();
                let code = w.next().unwrap().trim_end_matches('.');
                let code = match code.strip_prefix("0x") {
                    Some(h) => u8::from_str_radix(h, 16).unwrap(),
                    None => code.parse().unwrap(),
                };
                (name, code)
            })
            .collect()
    };
    let visa = section(&text, "Op codes (`atomport_core::ops::VISA_OPS`):", ".\n");
    let visa = pairs(&visa.replace('\n', " "));
    assert_eq!(visa.len(), VISA_OPS.len());
    for (name, code) in visa {
        assert_eq!(VisaOpInfo::by_name(&name).map(|r| r.op.code()), Some(code), "{name}");
    }
    let ptx = section(&text, "Op codes (`atomport_core::ops::PtxOp`):", ";");
    let ptx = pairs(&ptx.replace('\n', " "));
    assert_eq!(ptx.len(), PTX_OPS.len());
    for (name, code) in ptx {
        assert_eq!(PtxOpInfo::by_name(&name).map(|r| r.op as u8), Some(code), "{name}");
    }
    let types = section(&text, "Type codes (`atomport_core::ops::PtxType`):", ";");
    let types = pairs(&types.replace('\n', " "));
    assert_eq!(types.len(), PtxType::ALL.len());
    for (name, code) in types {
        assert_eq!(PtxType::by_name(&name).map(|t| t.code()), Some(code), "{name}");
    }
    // the illegal vISA combinations: the float ops have no 64-bit form and no TYPED form
    let floats: Vec<&str> = VISA_OPS.iter().filter(|r| !r.widths().contains(&64)).map(|r| r.name).collect();
    let untyped: Vec<&str> = VISA_OPS.iter().filter(|r| !MsgKind::TypedAtomic.info().allows_visa_op(r, 32)).map(|r| r.name).collect();
    assert!(text.contains(&format!("- {} in TYPED_ATOMIC", untyped.join(", "))), "{untyped:?}");
    assert!(text.contains(&format!("- {} at 64 bits in SVM_ATOMIC", floats.join(", "))), "{floats:?}");
}

/// `and/or/xor b32 b64; cas b16 ...` -> every (op, type) pair it lists.
fn op_type_pairs(list: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for group in list.split(';') {
        let mut words = group.split_whitespace().map(|w| w.trim_matches(|c| c == ':' || c == '.' || c == ')'));
        let ops = words.next().unwrap();
        for ty in words.filter(|w| *w != "only") {
            for op in ops.split('/') {
                out.insert((op.to_string(), ty.to_string()));
            }
        }
    }
    out
}

fn scalar_pairs() -> BTreeSet<(String, String)> {
    PTX_OPS.iter().flat_map(|r| r.scalar_types.iter().map(|t| (r.name.to_string(), t.name().to_string()))).collect()
}

fn vector_pairs() -> BTreeSet<(String, String)> {
    PTX_OPS.iter().flat_map(|r| r.vector_types.iter().map(|t| (r.name.to_string(), t.name().to_string()))).collect()
}

#[test]
fn descriptors_md_ptx_rules_are_the_ptx_table() {
    let text = doc("descriptors.md");
    let scalar = section(&text, "(`PTX_OPS[op].scalar_types`:", ");").replace('\n', " ");
    assert_eq!(op_type_pairs(&scalar), scalar_pairs());
    let vector = section(&text, "`PTX_OPS[op].vector_types`\n  (", ");").replace('\n', " ");
    assert_eq!(op_type_pairs(&vector), vector_pairs());
    let noftz: Vec<&str> = [PtxType::F16, PtxType::F16x2, PtxType::BF16, PtxType::BF16x2].iter().map(|t| t.name()).collect();
    assert!(PtxType::ALL.iter().all(|t| t.needs_noftz() == noftz.contains(&t.name())));
    assert!(text.contains(&format!("exactly for the types {}", noftz.join(", "))));
    let cas = PtxOpInfo::by_code(PtxOp::Cas as u8).unwrap();
    let no_hint: Vec<String> = PtxType::ALL.iter().filter(|t| !cas.takes_cache_hint(**t)).map(|t| format!("`cas.{}`", t.name())).collect();
    assert!(text.replace("\n  ", " ").contains(&format!("not with {}", no_hint.join(" or "))), "{no_hint:?}");
}

#[test]
fn script_language_md_rules_are_the_kind_table() {
    let text = doc("script-language.md");
    for k in KINDS.iter().filter(|k| k.kind != MsgKind::PtxAtom) {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("| {} exec ", k.name)) || l.starts_with(&format!("| {}: only ops", k.name)))
            .unwrap_or_else(|| panic!("no rule row for {}", k.name));
        let exec = number_list(row.split(" exec ").nth(1).unwrap());
        assert_eq!(exec, k.exec_sizes, "{}: {row}", k.name);
    }
    let scatter = text.lines().find(|l| l.starts_with("| SVM_SCATTER exec ")).unwrap();
    assert_eq!(number_list(scatter.split("block size ").nth(1).unwrap()), SCATTER_BLOCK_BYTES);
    assert_eq!(number_list(scatter.split("; blocks ").nth(1).unwrap()), SCATTER_NUM_BLOCKS);
    let warp = section(&text, "`(N)`, `(Mk, N)` or `(Mk_NM, N)` with N in ", ";");
    assert_eq!(number_list(warp), MsgKind::PtxAtom.info().exec_sizes);
    // the PTX rules
    let rules = section(&text, "Rules (seed PTX_ATOM.md Syntax, op table `PTX_OPS`):\n\n", "\n\n");
    let scalar = section(rules, "- scalar types per op:", ".\n").replace('\n', " ");
    assert_eq!(op_type_pairs(&scalar), scalar_pairs());
    // vector forms: `.add` on f32 (`.v2/.v4`), f16/bf16 (`.v2/.v4/.v8`), ...
    let vector = section(rules, "- vector forms:", "; only with").replace('\n', " ");
    let mut listed = BTreeSet::new();
    for group in vector.split(';') {
        // `.min/.max` on f16/bf16 (`.v2/.v4/.v8`) and f16x2/bf16x2 (`.v2/.v4`)
        let (ops, rest) = group.trim().trim_start_matches('`').split_once("` on ").unwrap_or_else(|| panic!("`{group}`"));
        for item in rest.split("`)").filter(|i| i.contains("(`")) {
            let (types, sizes) = item.split_once("(`").unwrap();
            let sizes: Vec<u8> = sizes.split('/').map(|v| v.trim_start_matches(".v").parse().unwrap_or_else(|_| panic!("`{v}`"))).collect();
            let types = types.trim().trim_start_matches(',').trim().trim_start_matches("and ").trim();
            for ty in types.split('/') {
                let t = PtxType::by_name(ty).unwrap_or_else(|| panic!("`{ty}` in `{item}`"));
                assert_eq!(sizes, t.vector_sizes(), "{ty}");
                for op in ops.split('/') {
                    listed.insert((op.trim_start_matches('.').to_string(), t.name().to_string()));
                }
            }
        }
    }
    assert_eq!(listed, vector_pairs());
}
