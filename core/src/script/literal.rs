//! Literals (scripts.md "Lexical rules"): integers in decimal, hex and
//! (for masks and raw bits) binary, with range checks per element width, and
//! float literals converted to the exact bit pattern of F16/BF16/F32/F64.

use rustc_apfloat::ieee::{BFloat, Double, Half, Single};
use rustc_apfloat::{Float, Round};

use crate::ops::ElemType;

/// A parsed integer literal: sign, magnitude and how it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLit {
    pub neg: bool,
    pub mag: u128,
    /// 10, 16 or 2
    pub radix: u32,
}

/// All-ones in the low `bits` bits (1..=128).
pub fn ones(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// True for a word that reads as a register or variable name (`%r0`, `a`,
/// `$x`, `rd_1`): the language takes literal operands only.
pub fn is_symbolic(text: &str) -> bool {
    let body = text.strip_prefix('-').unwrap_or(text);
    let mut chars = body.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '%' || c == '$' || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '%' || c == '$' || c == '_' || c == '.')
}

/// The error for a symbolic operand.
pub fn symbolic_error(text: &str) -> String {
    format!("`{text}`: symbolic operands are not supported: give a literal")
}

/// Parses `-?(0x[0-9a-f_]+ | 0b[01_]+ | [0-9_]+)`; `_` may separate digits.
pub fn parse_int(text: &str) -> Result<IntLit, String> {
    parse_int_or_too_large(text)?.ok_or_else(|| format!("integer literal `{text}` does not fit in 128 bits"))
}

/// [`parse_int`] for a slot of `bits` bits: a literal past 128 bits is
/// reported against the slot (`... does not fit 32 bits`), as one that
/// fits 128 bits but not the slot is.
fn parse_int_for(text: &str, bits: u32, what: &str) -> Result<IntLit, String> {
    parse_int_or_too_large(text)?.ok_or_else(|| format!("{what} value `{text}` does not fit {bits} bits (max {:#x})", ones(bits)))
}

/// [`parse_int`], with `Ok(None)` for a literal too large for 128 bits.
fn parse_int_or_too_large(text: &str) -> Result<Option<IntLit>, String> {
    if is_symbolic(text) {
        return Err(symbolic_error(text));
    }
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') {
        return Err(format!("`{text}` is not an integer literal"));
    }
    let mut mag: u128 = 0;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let d = c
            .to_digit(radix)
            .ok_or_else(|| format!("`{text}` is not an integer literal (bad digit `{c}`)"))?;
        match mag.checked_mul(radix as u128).and_then(|m| m.checked_add(d as u128)) {
            Some(m) => mag = m,
            None => return Ok(None),
        }
    }
    Ok(Some(IntLit { neg, mag, radix }))
}

/// An element of an unsigned (or untyped bits) type of `bits` width:
/// 0 ..= 2^bits-1, or a negative value down to -2^(bits-1) stored as two's
/// complement (so `-1` is all ones).
pub fn unsigned_bits(text: &str, bits: u32, what: &str) -> Result<u128, String> {
    let lit = parse_int_for(text, bits, what)?;
    if !lit.neg {
        if lit.mag > ones(bits) {
            return Err(format!("{what} value `{text}` does not fit {bits} bits (max {:#x})", ones(bits)));
        }
        return Ok(lit.mag);
    }
    if lit.mag > 1u128 << (bits - 1) {
        return Err(format!(
            "{what} value `{text}` does not fit {bits} bits (negative values go down to -2^{})",
            bits - 1
        ));
    }
    Ok(lit.mag.wrapping_neg() & ones(bits))
}

/// An element of a signed type of `bits` width: a decimal (or negative)
/// literal in -2^(bits-1) ..= 2^(bits-1)-1; a non-negative hex or binary
/// literal is raw bits, 0 ..= 2^bits-1. Stored as two's complement.
pub fn signed_bits(text: &str, bits: u32, what: &str) -> Result<u128, String> {
    let lit = parse_int_for(text, bits, what)?;
    let half = 1u128 << (bits - 1);
    if !lit.neg {
        if lit.radix != 10 {
            if lit.mag > ones(bits) {
                return Err(format!("{what} raw bits `{text}` do not fit {bits} bits"));
            }
            return Ok(lit.mag);
        }
        if lit.mag >= half {
            return Err(format!(
                "{what} value `{text}` is out of the signed {bits}-bit range (max {}; write raw bits in hex)",
                half - 1
            ));
        }
        return Ok(lit.mag);
    }
    if lit.mag > half {
        return Err(format!("{what} value `{text}` is out of the signed {bits}-bit range (min -{half})"));
    }
    Ok(lit.mag.wrapping_neg() & ones(bits))
}

/// A non-negative quantity (address, offset, size, coordinate) of at most
/// `bits` bits.
pub fn plain_uint(text: &str, bits: u32, what: &str) -> Result<u128, String> {
    let lit = parse_int_or_too_large(text)?.ok_or_else(|| format!("{what} `{text}` does not fit {bits} bits"))?;
    if lit.neg && lit.mag != 0 {
        return Err(format!("{what} `{text}` must not be negative"));
    }
    if lit.mag > ones(bits) {
        return Err(format!("{what} `{text}` does not fit {bits} bits"));
    }
    Ok(lit.mag)
}

/// Strict decimal float syntax: `-?(d+(.d*)?|.d+)([eE][+-]?d+)?`.
fn is_decimal_float(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int_part, frac_part) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    let digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    if !digits(int_part) || !digits(frac_part) || int_part.len() + frac_part.len() == 0 {
        return false;
    }
    match exp {
        None => true,
        Some(e) => {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && digits(e)
        }
    }
}

fn decimal_to<F: Float>(s: &str) -> Result<u128, String> {
    F::from_str_r(s, Round::NearestTiesToEven)
        .map(|r| r.value.to_bits())
        .map_err(|e| format!("`{s}` is not a float literal ({})", e.0))
}

/// The bit pattern of a float literal in F16, BF16, F32 or F64:
/// * a decimal (`1.5`, `-0.0`, `6.1e-5`, `3`) correctly rounded to nearest
///   even straight from the decimal string to the target format (LLVM
///   APFloat; no double rounding through f64); overflow rounds to infinity;
/// * `inf`, `-inf`, `nan` (the canonical quiet NaN: 0x7e00, 0x7fc0,
///   0x7fc00000, 0x7ff8000000000000), `-nan` (the same with the sign bit);
/// * raw bits as hex (`0x7fc00000`), which must fit the format's width.
pub fn float_bits(text: &str, ty: ElemType) -> Result<u128, String> {
    let (bits, name) = match ty {
        ElemType::F16 => (16, "f16"),
        ElemType::BF16 => (16, "bf16"),
        ElemType::F32 => (32, "f32"),
        ElemType::F64 => (64, "f64"),
        other => return Err(format!("{other:?} is not a scalar float type")),
    };
    let (mant_bits, exp_bits) = match ty {
        ElemType::F16 => (10u32, 5u32),
        ElemType::BF16 => (7, 8),
        ElemType::F32 => (23, 8),
        _ => (52, 11),
    };
    let sign = 1u128 << (bits - 1);
    let inf = ones(exp_bits) << mant_bits;
    let qnan = inf | (1u128 << (mant_bits - 1));
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "inf" => return Ok(inf),
        "-inf" => return Ok(sign | inf),
        "nan" => return Ok(qnan),
        "-nan" => return Ok(sign | qnan),
        _ => {}
    }
    let body = lower.strip_prefix('-').unwrap_or(&lower);
    if body.starts_with("0x") {
        if lower.starts_with('-') {
            return Err(format!("raw-bits literal `{text}` cannot be negative (set the sign bit instead)"));
        }
        let lit = parse_int_or_too_large(text)?.ok_or_else(|| format!("raw bits `{text}` do not fit {name} ({bits} bits)"))?;
        if lit.mag > ones(bits) {
            return Err(format!("raw bits `{text}` do not fit {name} ({bits} bits)"));
        }
        return Ok(lit.mag);
    }
    if body.starts_with("0b") {
        return Err(format!("`{text}`: binary literals are for masks; write float raw bits in hex"));
    }
    if is_symbolic(text) {
        return Err(symbolic_error(text));
    }
    if !is_decimal_float(text) {
        return Err(format!("`{text}` is not a float literal (decimal, inf, -inf, nan or hex raw bits)"));
    }
    match ty {
        ElemType::F16 => decimal_to::<Half>(text),
        ElemType::BF16 => decimal_to::<BFloat>(text),
        ElemType::F32 => decimal_to::<Single>(text),
        _ => decimal_to::<Double>(text),
    }
}
