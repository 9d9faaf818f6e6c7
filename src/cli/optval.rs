//! Option values checked when the command line is parsed: a bad
//! value is `error: invalid value ...` from clap and exit status 2 before
//! anything runs, the same for every command that takes the option.

use std::path::PathBuf;

/// A memory stall probability: `0 <= PROB < 1` (1 would stall every
/// channel every cycle, so nothing would ever finish).
pub fn stall(text: &str) -> Result<f64, String> {
    let p: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a probability (a number in 0..1, such as 0.2)"))?;
    if !(0.0..1.0).contains(&p) {
        return Err(format!("{text} is not a stall probability: need 0 <= PROB < 1 (1 would stall the memory forever)"));
    }
    Ok(p)
}

/// A count that must be at least 1 (`--count`, `--per-script`, `--rounds`).
pub fn at_least_one(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let n: usize = t.parse().map_err(|_| {
        if !t.is_empty() && t.trim_start_matches('+').bytes().all(|b| b.is_ascii_digit()) {
            format!("`{text}` is too large (at most {})", usize::MAX)
        } else {
            format!("`{text}` is not a whole number")
        }
    })?;
    if n == 0 {
        return Err("must be at least 1 (0 would run nothing)".to_string());
    }
    Ok(n)
}

/// [`at_least_one`] as a `u64`.
pub fn at_least_one_u64(text: &str) -> Result<u64, String> {
    at_least_one(text).map(|n| n as u64)
}

/// `mutate --select LIST`: mutant selects (1-based places in the list),
/// comma-separated, each a number or a range `A-B`, in increasing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectList(pub Vec<u64>);

pub fn select_list(text: &str) -> Result<SelectList, String> {
    let mut out: Vec<u64> = vec![];
    for part in text.split(',').map(str::trim) {
        let number = |t: &str| t.trim().parse::<u64>().ok().filter(|&n| n >= 1).ok_or_else(|| format!("`{t}` is not a mutant select (1, 2, ...)"));
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(part)?, number(part)?),
        };
        if b < a || out.last().is_some_and(|&last| a <= last) {
            return Err(format!("`{part}`: selects go in increasing order, each once"));
        }
        out.extend(a..=b);
    }
    Ok(SelectList(out))
}

/// The narrowest wave area `wave render --width` draws (pixels).
pub const MIN_RENDER_WIDTH: u32 = 200;
/// The widest.
pub const MAX_RENDER_WIDTH: u32 = 100_000;

/// `wave render --width PX`: `MIN_RENDER_WIDTH..=MAX_RENDER_WIDTH`.
pub fn render_width(text: &str) -> Result<u32, String> {
    let n: u32 = text.trim().parse().map_err(|_| format!("`{text}` is not a width in pixels"))?;
    if !(MIN_RENDER_WIDTH..=MAX_RENDER_WIDTH).contains(&n) {
        return Err(format!("the wave area is {MIN_RENDER_WIDTH}..={MAX_RENDER_WIDTH} pixels wide"));
    }
    Ok(n)
}

/// A VCD waveform file to write (`--vcd PATH`). A name ending in `.fst`
/// would hold VCD text that FST readers reject, so it is refused: FST is
/// its own option (`--fst PATH`).
pub fn vcd_out(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    if extension(&path).as_deref() == Some("fst") {
        return Err(format!("`{text}`: --vcd writes VCD text, not FST (`atomport run --fst {text}` writes FST)"));
    }
    Ok(path)
}

/// An FST waveform file to write (`--fst PATH`); a `.vcd` name is refused
/// the same way (`--vcd PATH` writes VCD).
pub fn fst_out(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    if extension(&path).as_deref() == Some("vcd") {
        return Err(format!("`{text}`: --fst writes FST; for a VCD waveform give --vcd {text}"));
    }
    Ok(path)
}

fn extension(path: &std::path::Path) -> Option<String> {
    path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optval_ranges() {
        assert_eq!(stall("0"), Ok(0.0));
        assert_eq!(stall("0.999"), Ok(0.999));
        assert!(stall("1").is_err() && stall("1.0").is_err() && stall("-0.1").is_err() && stall("NaN").is_err());
        assert!(stall("often").is_err());
        assert_eq!(select_list("5,28, 33-35"), Ok(SelectList(vec![5, 28, 33, 34, 35])));
        assert!(select_list("0").unwrap_err().contains("not a mutant select"));
        assert!(select_list("7,3").unwrap_err().contains("increasing order"));
        assert!(select_list("4-2").unwrap_err().contains("increasing order"));
        assert!(select_list("1,x").unwrap_err().contains("`x` is not a mutant select"));
        assert_eq!(at_least_one("1"), Ok(1));
        assert!(at_least_one("0").unwrap_err().contains("at least 1"));
        assert!(at_least_one("-1").unwrap_err().contains("not a whole number"));
        assert!(at_least_one("99999999999999999999").unwrap_err().contains("too large (at most 18446744073709551615)"));
        assert_eq!(render_width("200"), Ok(200));
        assert!(render_width("0").is_err() && render_width("199").is_err());
        assert!(vcd_out("x.fst").is_err() && vcd_out("x.FST").is_err());
        assert_eq!(vcd_out("x.vcd"), Ok(PathBuf::from("x.vcd")));
        assert_eq!(vcd_out("fst"), Ok(PathBuf::from("fst")));
        assert!(vcd_out("x.fst").unwrap_err().contains("run --fst x.fst"));
        assert!(fst_out("x.vcd").is_err() && fst_out("x.VCD").is_err());
        assert_eq!(fst_out("x.fst"), Ok(PathBuf::from("x.fst")));
    }
}
