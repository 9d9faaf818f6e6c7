//! Timing diagrams as standalone SVG (`atomport wave render`), for docs and
//! bug reports: open in any browser, no viewer needed.
//!
//! * the clock as a square wave, a light grid line at each rising edge and
//!   the cycle number above it;
//! * 1-bit signals as lines (high / low), x as a red band, z as an orange
//!   middle line;
//! * buses as hexagon boxes, one per stable value, with the value in hex
//!   (leading zeros dropped; when the box is too narrow, the low digits
//!   after `…`; hovering shows the full value), x red, z orange;
//! * with the unit's signals, the rows are grouped by interface like the
//!   GTKWave view ([`super::gtkw::UNIT_GROUPS`]), one label row per group.

use std::fmt::Write as _;

use super::diff::relative_vars;
use atomport_core::glob::glob_match;
use super::gtkw::{required_ports, unit_groups, unit_scope};
use super::reader::{Logic, TraceKind, Value, Var, Waveform};

/// What to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// first time shown (VCD units); default 0
    pub from: Option<u64>,
    /// last time shown (VCD units); default the end of the trace, but at
    /// most [`DEFAULT_CYCLES`] clock periods after `from`
    pub to: Option<u64>,
    /// signals to show (globs over names relative to the unit's scope, or
    /// full paths), in this order; default the unit's ports by group
    pub signals: Vec<String>,
    /// the clock (relative name or path); default `clock` or `clk` if there
    pub clock: Option<String>,
    /// width of the wave area in pixels
    pub width: u32,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions { from: None, to: None, signals: Vec::new(), clock: None, width: 1200 }
    }
}

/// Clock periods drawn when no `to` is given.
pub const DEFAULT_CYCLES: usize = 64;

const ROW_H: f64 = 26.0;
const WAVE_H: f64 = 16.0;
const LABEL_H: f64 = 20.0;
const AXIS_H: f64 = 30.0;
const CHAR_W: f64 = 6.6;
const PAD: f64 = 10.0;

/// One row to draw.
enum Row<'w> {
    Group(String),
    Signal { label: String, var: &'w Var },
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A bus value as shown in a box: hex without leading zeros when fully
/// known; with x/z bits every digit (`0X` is not `X`).
fn box_text(v: &Value) -> String {
    match v.kind {
        TraceKind::Logic if !v.is_known() => v.hex(),
        TraceKind::Logic => {
            let h = v.hex();
            let t = h.trim_start_matches('0');
            if t.is_empty() {
                "0".into()
            } else {
                t.into()
            }
        }
        _ => v.display(),
    }
}

/// What a bus segment looks like: known, all x, partly x, z.
fn bus_class(v: &Value) -> &'static str {
    if v.kind != TraceKind::Logic || v.is_known() {
        return "bus";
    }
    let all = |want: Logic| (0..v.width).all(|i| v.bit(i) == want);
    if all(Logic::Z) {
        "busz"
    } else {
        "busx"
    }
}

/// Why no timing diagram was drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("{file}: --signals `{glob}` matches no signal")]
    NoSignalMatches { file: String, glob: String },
    #[error("{file}: no clock signal `{name}`")]
    NoClock { file: String, name: String },
    #[error("the window is empty: --from {from} is not before --to {to}")]
    EmptyWindow { from: u64, to: u64 },
}

/// The rows for the options: the given globs in order, or the unit's groups.
fn rows<'w>(w: &'w Waveform, scope: &str, signals: &[String]) -> Result<Vec<Row<'w>>, RenderError> {
    let rel = relative_vars(w, scope);
    let mut out = Vec::new();
    if signals.is_empty() {
        let required = required_ports();
        let has_ports = rel.iter().any(|(n, _)| required.contains(&n.as_str()));
        let groups = if has_ports { unit_groups(w) } else { Vec::new() };
        if !groups.is_empty() {
            for g in groups {
                // the wide payload buses say little in a picture
                let shown: Vec<_> = g
                    .signals
                    .iter()
                    .filter(|s| !["pay_src0", "pay_src1", "pay_coord"].iter().any(|p| s.alias.starts_with(&format!("{p}["))))
                    .collect();
                if shown.is_empty() {
                    continue;
                }
                out.push(Row::Group(g.name.clone()));
                for s in shown {
                    if let Some(v) = w.vars.iter().find(|v| v.gtkwave_name() == s.name) {
                        out.push(Row::Signal { label: s.alias.clone(), var: v });
                    }
                }
            }
            return Ok(out);
        }
        for (n, v) in rel.iter().take(40) {
            out.push(Row::Signal { label: label(n, v), var: v });
        }
        return Ok(out);
    }
    let mut seen = std::collections::HashSet::new();
    for g in signals {
        let mut hit = false;
        for (n, v) in &rel {
            if glob_match(g, n) || glob_match(g, &v.path()) {
                hit = true;
                if seen.insert(v.trace) {
                    out.push(Row::Signal { label: label(n, v), var: v });
                }
            }
        }
        if !hit {
            return Err(RenderError::NoSignalMatches { file: w.file.clone(), glob: g.clone() });
        }
    }
    Ok(out)
}

fn label(n: &str, v: &Var) -> String {
    match v.range {
        Some((m, l)) => format!("{n}[{m}:{l}]"),
        None => n.to_string(),
    }
}

/// Draws the timing diagram. `Ok((svg, notes))`; notes say what defaults
/// were applied (a window cut to [`DEFAULT_CYCLES`] periods).
pub fn render_svg(w: &Waveform, opts: &RenderOptions) -> Result<(String, Vec<String>), RenderError> {
    let scope = unit_scope(w);
    let rel = relative_vars(w, &scope);
    let mut notes = Vec::new();
    let clock: Option<&Var> = match &opts.clock {
        Some(c) => Some(
            rel.iter()
                .find(|(n, _)| n == c)
                .map(|(_, v)| *v)
                .or_else(|| w.var(c))
                .ok_or_else(|| RenderError::NoClock { file: w.file.clone(), name: c.clone() })?,
        ),
        None => rel.iter().find(|(n, v)| (n == "clock" || n == "clk") && v.width == 1).map(|(_, v)| *v),
    };
    let edges = clock.map(|c| w.rising_edges(c)).unwrap_or_default();
    let from = opts.from.unwrap_or(0);
    let to = match opts.to {
        Some(t) => t,
        None => {
            let after: Vec<u64> = edges.iter().copied().filter(|&e| e >= from).collect();
            if after.len() > DEFAULT_CYCLES {
                let period = after[1] - after[0];
                let t = after[DEFAULT_CYCLES] - period / 2;
                notes.push(format!(
                    "showing {DEFAULT_CYCLES} clock periods ({} to {}); --to sets the end",
                    w.timescale.format(from as u128),
                    w.timescale.format(t as u128)
                ));
                t
            } else {
                w.end_time.max(from + 1)
            }
        }
    };
    if to <= from {
        return Err(RenderError::EmptyWindow { from, to });
    }
    let mut rows = rows(w, &scope, &opts.signals)?;
    if let Some(c) = clock {
        // the clock on top when the user did not place it
        if !rows.iter().any(|r| matches!(r, Row::Signal { var, .. } if var.trace == c.trace)) {
            rows.insert(0, Row::Signal { label: c.name.clone(), var: c });
        }
    }
    let name_w = rows
        .iter()
        .map(|r| match r {
            Row::Group(g) => g.chars().count() as f64 * CHAR_W * 0.9,
            Row::Signal { label, .. } => label.chars().count() as f64 * CHAR_W + 8.0,
        })
        .fold(80.0, f64::max)
        + 2.0 * PAD;
    let wave_w = opts.width.max(200) as f64;
    let scale = wave_w / (to - from) as f64;
    let x_of = |t: u64| name_w + (t.clamp(from, to) - from) as f64 * scale;
    let height = AXIS_H
        + rows.iter().map(|r| if matches!(r, Row::Group(_)) { LABEL_H } else { ROW_H }).sum::<f64>()
        + PAD;
    let total_w = name_w + wave_w + PAD;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0}" height="{height:.0}" viewBox="0 0 {total_w:.0} {height:.0}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="11">"#
    );
    let _ = writeln!(
        s,
        "<title>{} from {} to {}</title>",
        esc(&w.file),
        w.timescale.format(from as u128),
        w.timescale.format(to as u128)
    );
    let _ = writeln!(
        s,
        "<style>.bit{{fill:none;stroke:#1b7a1b;stroke-width:1.4}} .clk{{fill:none;stroke:#1c4fa0;stroke-width:1.4}} \
         .bus{{fill:#eef7ee;stroke:#1b7a1b;stroke-width:1.2}} .busx{{fill:#f9d0d0;stroke:#c02020;stroke-width:1.2}} \
         .busz{{fill:#fff3d6;stroke:#d08000;stroke-width:1.2}} .x{{fill:#f9d0d0;stroke:#c02020;stroke-width:1}} \
         .z{{fill:none;stroke:#d08000;stroke-width:1.4}} .grid{{stroke:#d8d8d8;stroke-width:1}} \
         .group{{font-weight:bold;fill:#444}} .name{{fill:#111}} .val{{fill:#111}} .axis{{fill:#555}}</style>"
    );
    let _ = writeln!(s, r#"<rect x="0" y="0" width="{total_w:.0}" height="{height:.0}" fill="white"/>"#);

    // grid and cycle numbers at rising edges (labels thinned to stay apart)
    let in_window: Vec<(usize, u64)> = edges.iter().copied().enumerate().filter(|&(_, e)| e >= from && e <= to).collect();
    let mut last_label = f64::NEG_INFINITY;
    for &(c, e) in &in_window {
        let x = x_of(e);
        let _ = writeln!(s, r#"<line class="grid" x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}"/>"#, AXIS_H - 6.0, height - PAD);
        let text = c.to_string();
        if x - last_label >= text.len() as f64 * CHAR_W + 6.0 {
            let _ = writeln!(s, r#"<text class="axis" x="{x:.1}" y="{:.1}" text-anchor="middle">{text}</text>"#, AXIS_H - 10.0);
            last_label = x;
        }
    }
    if in_window.is_empty() {
        // no clock: ten time ticks
        for k in 0..=10u64 {
            let t = from + (to - from) * k / 10;
            let x = x_of(t);
            let _ = writeln!(s, r#"<line class="grid" x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}"/>"#, AXIS_H - 6.0, height - PAD);
            let _ = writeln!(
                s,
                r#"<text class="axis" x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                AXIS_H - 10.0,
                w.timescale.format(t as u128)
            );
        }
    } else {
        let _ = writeln!(
            s,
            r#"<text class="axis" x="{PAD}" y="{:.1}">cycle<title>clock period {}</title></text>"#,
            AXIS_H - 10.0,
            w.timescale.format(in_window.get(1).map_or(0, |p| p.1 - in_window[0].1) as u128)
        );
    }

    let mut y = AXIS_H;
    for row in &rows {
        match row {
            Row::Group(g) => {
                let _ = writeln!(s, r#"<text class="group" x="{PAD}" y="{:.1}">{}</text>"#, y + LABEL_H - 6.0, esc(g));
                y += LABEL_H;
            }
            Row::Signal { label, var } => {
                let top = y + (ROW_H - WAVE_H) / 2.0;
                let (hi, lo, mid) = (top, top + WAVE_H, top + WAVE_H / 2.0);
                let _ = writeln!(
                    s,
                    r#"<text class="name" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                    name_w - PAD,
                    mid + 4.0,
                    esc(label)
                );
                let tr = w.trace(var);
                // segments [t0, t1) inside the window, with the value index
                let mut segs: Vec<(u64, u64, Option<usize>)> = Vec::new();
                let first = tr.index_at(from);
                let start = first.map_or(0, |i| i + 1);
                let mut cur = (from, first);
                for i in start..tr.len() {
                    let t = tr.time(i);
                    if t >= to {
                        break;
                    }
                    if t > cur.0 {
                        segs.push((cur.0, t, cur.1));
                    }
                    cur = (t, Some(i));
                }
                segs.push((cur.0, to, cur.1));
                let is_clock = clock.is_some_and(|c| c.trace == var.trace);
                if var.width == 1 && tr.kind == TraceKind::Logic {
                    draw_bit(&mut s, &segs, tr, &x_of, (hi, lo, mid), is_clock);
                } else {
                    draw_bus(&mut s, &segs, tr, &x_of, (hi, lo, mid));
                }
                y += ROW_H;
            }
        }
    }
    s.push_str("</svg>\n");
    Ok((s, notes))
}

fn draw_bit(
    s: &mut String,
    segs: &[(u64, u64, Option<usize>)],
    tr: &super::reader::Trace,
    x_of: &dyn Fn(u64) -> f64,
    (hi, lo, mid): (f64, f64, f64),
    is_clock: bool,
) {
    let class = if is_clock { "clk" } else { "bit" };
    let mut path = String::new();
    let mut prev_y: Option<f64> = None;
    for &(t0, t1, v) in segs {
        let (x0, x1) = (x_of(t0), x_of(t1));
        let bit = v.map(|i| tr.value(i).bit(0));
        let level = match bit {
            Some(Logic::One) => Some(hi),
            Some(Logic::Zero) => Some(lo),
            _ => None,
        };
        match (level, bit) {
            (Some(yv), _) => {
                match prev_y {
                    Some(py) => {
                        let _ = write!(path, "L{x0:.1},{py:.1} L{x0:.1},{yv:.1} ");
                    }
                    None => {
                        let _ = write!(path, "M{x0:.1},{yv:.1} ");
                    }
                }
                let _ = write!(path, "L{x1:.1},{yv:.1} ");
                prev_y = Some(yv);
            }
            (None, Some(Logic::Z)) => {
                let _ = writeln!(s, r#"<line class="z" x1="{x0:.1}" y1="{mid:.1}" x2="{x1:.1}" y2="{mid:.1}"/>"#);
                prev_y = None;
            }
            _ => {
                // x, or no value yet
                let _ = writeln!(
                    s,
                    r#"<rect class="x" x="{x0:.1}" y="{hi:.1}" width="{:.1}" height="{:.1}"><title>x</title></rect>"#,
                    (x1 - x0).max(0.5),
                    lo - hi
                );
                prev_y = None;
            }
        }
    }
    if !path.is_empty() {
        let _ = writeln!(s, r#"<path class="{class}" d="{}"/>"#, path.trim_end());
    }
}

fn draw_bus(
    s: &mut String,
    segs: &[(u64, u64, Option<usize>)],
    tr: &super::reader::Trace,
    x_of: &dyn Fn(u64) -> f64,
    (hi, lo, mid): (f64, f64, f64),
) {
    for &(t0, t1, v) in segs {
        let (x0, x1) = (x_of(t0), x_of(t1));
        let wdt = x1 - x0;
        if wdt <= 0.0 {
            continue;
        }
        let slant = (wdt / 2.0).min(4.0);
        let (class, text, full) = match v {
            None => ("busx", "x".to_string(), "no value".to_string()),
            Some(i) => {
                let val = tr.value(i);
                let class = bus_class(&val);
                let full = match val.kind {
                    TraceKind::Logic => format!("{}'h{}", val.width, val.hex()),
                    _ => val.display(),
                };
                (class, box_text(&val), full)
            }
        };
        if class == "busz" {
            let _ = writeln!(s, r#"<line class="z" x1="{x0:.1}" y1="{mid:.1}" x2="{x1:.1}" y2="{mid:.1}"><title>{}</title></line>"#, esc(&full));
            continue;
        }
        let _ = writeln!(
            s,
            r#"<polygon class="{class}" points="{x0:.1},{mid:.1} {:.1},{hi:.1} {:.1},{hi:.1} {x1:.1},{mid:.1} {:.1},{lo:.1} {:.1},{lo:.1}"><title>{}</title></polygon>"#,
            x0 + slant,
            x1 - slant,
            x1 - slant,
            x0 + slant,
            esc(&full)
        );
        let room = ((wdt - 2.0 * slant - 2.0) / CHAR_W).floor() as usize;
        let n = text.chars().count();
        let shown = if n <= room {
            text
        } else if room >= 3 {
            let tail: String = text.chars().skip(n - (room - 1)).collect();
            format!("…{tail}")
        } else {
            String::new()
        };
        if !shown.is_empty() {
            let _ = writeln!(
                s,
                r#"<text class="val" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                (x0 + x1) / 2.0,
                mid + 4.0,
                esc(&shown)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_clock_bits_buses_x_and_z() {
        let text = "$timescale 1ns $end $scope module t $end
$var wire 1 ! clock $end $var wire 1 \" v $end $var wire 16 # d [15:0] $end $var wire 4 $ zz [3:0] $end
$upscope $end $enddefinitions $end
#0 0! x\" bx # bz $
#5 1!
#10 0! 1\" b1010101111001101 #
#15 1!
#20 0! 0\" b1 # b11 $
#25 1!
#30 0!";
        let w = Waveform::parse("t.vcd", text.as_bytes()).unwrap();
        let (svg, notes) = render_svg(&w, &RenderOptions::default()).unwrap();
        assert!(notes.is_empty());
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains(">abcd</text>"), "the bus value in hex");
        assert!(svg.contains("<title>16'habcd</title>"));
        assert!(svg.contains(r#"class="busx""#), "x bus segment");
        assert!(svg.contains(r#"class="z""#), "z bus segment");
        assert!(svg.contains(r#"<rect class="x""#), "x bit");
        assert!(svg.contains(r#"class="clk""#));
        // cycle labels 0, 1, 2 at the rising edges
        for c in 0..3 {
            assert!(svg.contains(&format!(r#"text-anchor="middle">{c}</text>"#)), "cycle {c}");
        }
        let only = RenderOptions { signals: vec!["d".into()], from: Some(10), to: Some(20), ..Default::default() };
        let (svg, _) = render_svg(&w, &only).unwrap();
        assert!(svg.contains(">abcd</text>") && !svg.contains(">zz"), "only d (and the clock)");
        assert!(render_svg(&w, &RenderOptions { signals: vec!["nope".into()], ..Default::default() }).is_err());
        assert!(render_svg(&w, &RenderOptions { from: Some(20), to: Some(10), ..Default::default() }).is_err());
    }
}
