//! `AtMostOne`: whether at most one lane of a 32-lane mask is set, as a
//! balanced tree of saturating counts (`count_tree_verilog`: no carry
//! chain). The select stage asks it whether a message's first lane is its
//! last (`d_lanes_few` in unit.rs). `x & (x - 1) == 0` put a 32-bit carry
//! chain and a 32-input OR behind the decoder on the integer unit's
//! critical path (15.39 ns on ECP5); "no lane set below a set lane" (an OR
//! prefix, then a 32-input OR) took 8.5 ns alone on ECP5, the tree 4.7 ns
//! (medians of three placements, docs/synthesis.md). Written as word
//! operations, not as a tree of single bits (90e4e8d's form): Verilator
//! evaluates the tree bit by bit, about 4% of the unit model's speed.

use rust_hdl::prelude::*;

use crate::widths::MAX_LANES;

/// `(mask & enabled)` has at most one bit set (combinational).
#[derive(LogicBlock)]
pub struct AtMostOne {
    pub mask: Signal<In, Bits<MAX_LANES>>,
    /// At most one lane is set.
    pub few: Signal<Out, Bit>,

    /// The lanes that count (the lanes built: `AtMostOne::new`).
    enabled: Constant<Bits<MAX_LANES>>,
}

impl AtMostOne {
    /// Counts the lanes of `enabled` (bit i = lane i) only.
    pub fn new(enabled: u64) -> Self {
        assert_eq!(MAX_LANES, 32, "AtMostOne: the count tree's strides are written for 32 lanes");
        assert!(enabled >> MAX_LANES == 0, "AtMostOne: lane mask {enabled:#x} wider than {MAX_LANES} lanes");
        Self {
            mask: Default::default(),
            enabled: Constant::new(enabled.to_bits()),
            few: Default::default(),
        }
    }
}

impl Logic for AtMostOne {
    fn update(&mut self) {
        let lanes = (self.mask.val() & self.enabled.val()).to_u64();
        self.few.next = lanes.count_ones() <= 1;
    }

    fn connect(&mut self) {
        self.few.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(count_tree_verilog(1, self.enabled.val().to_u64()))
    }
}

/// The body of a lane-count block (`AtMostOne`, `AtMostTwo`: `mask` in,
/// `few` out): whether the set lanes of `mask & enabled` are at most
/// `limit`, as a balanced tree of saturating counts. Each level adds the
/// counts of neighbouring groups (stride 1, 2, 4, 8, 16: the group of
/// lanes `p..p + 2 * stride` is counted at bit `p`), each count a
/// thermometer code `at_least_k` for k = 1 ..= limit + 1, so that a
/// level is a few ANDs and ORs: five levels, no carry chain and no OR
/// prefix in series with a 32-input OR. Written as word operations (32
/// bits a step, the bits between the groups' positions computed and
/// unused).
pub(crate) fn count_tree_verilog(limit: u32, enabled: u64) -> String {
    let top = limit as usize + 1;
    let mut v = format!(
        "\
wire [31:0] set = mask & 32'h{enabled:08x};
// at_least<k>_<stride>[p]: k or more of the lanes p .. p + stride - 1 are
// set (meaningful at the multiples of stride; the bits between are unused)
/* verilator lint_off UNUSEDSIGNAL */
"
    );
    let name = |k: usize, stride: usize| format!("at_least{k}_{stride}");
    for k in 1..=top {
        let init = if k == 1 { "set" } else { "32'h0" };
        v.push_str(&format!("wire [31:0] {} = {init};\n", name(k, 1)));
    }
    let mut stride = 1;
    while stride < 32 {
        // the last level needs only the count past the limit
        let ks = if stride == 16 { top..=top } else { 1..=top };
        for k in ks {
            // a group reaches k when either half does, or the halves' counts i and k - i do
            let low = |i: usize| name(i, stride);
            let high = |i: usize| format!("({} >> {stride})", name(i, stride));
            let mut terms = vec![low(k), high(k)];
            for i in 1..k {
                terms.push(format!("({} & {})", low(i), high(k - i)));
            }
            v.push_str(&format!("wire [31:0] {} = {};\n", name(k, 2 * stride), terms.join(" | ")));
        }
        stride *= 2;
    }
    v.push_str("/* verilator lint_on UNUSEDSIGNAL */\n");
    v.push_str(&format!("always @(*) few = ~{}[0];\n", name(top, 32)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_one_synthesizes() {
        let mut uut = AtMostOne::new(0xffff_ffff);
        uut.connect_all();
        yosys_validate("atomport_at_most_one", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn the_verilog_counts_like_the_model() {
        check_lane_count_verilog("at-most-one", 1, |enabled| {
            let mut uut = AtMostOne::new(enabled);
            uut.connect_all();
            generate_verilog(&uut)
        });
    }
}

/// The emitted Verilog of a lane-count block (`AtMostOne`, `AtMostTwo`:
/// ports `mask` in, `few` out), simulated by Icarus (`iverilog`, which
/// `make test` installs): `few` against `count_ones() <= limit` of the
/// enabled lanes for no lane, every lane, every pair and triple of lanes
/// and seeded random masks, in the full build's lane set and the 8-lane one.
#[cfg(test)]
pub(crate) fn check_lane_count_verilog(name: &str, limit: u32, verilog: impl Fn(u64) -> String) {
    if !crate::icarus::available() {
        return;
    }
    let mut masks: Vec<u32> = vec![0];
    for i in 0..32 {
        masks.push(1 << i);
        for j in i + 1..32 {
            masks.push((1 << i) | (1 << j));
            // triples around lane j (all of them would be 4,960 masks)
            for k in [j + 1, j + 7, 31].into_iter().filter(|&k| k > j && k < 32) {
                masks.push((1 << i) | (1 << j) | (1 << k));
            }
        }
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64; // xorshift, fixed seed
    for _ in 0..500 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        masks.push(state as u32 & (state >> 32) as u32);
    }
    masks.dedup();
    for enabled in [0xffff_ffffu64, 0xff] {
        let mut bench = String::from(
            "module bench;\nreg [31:0] mask;\nwire few;\ntop uut(.mask(mask), .few(few));\ninitial begin\n",
        );
        for m in &masks {
            bench.push_str(&format!("  mask = 32'h{m:08x}; #1 $display(\"%h %b\", mask, few);\n"));
        }
        bench.push_str("end\nendmodule\n");
        let lines = crate::icarus::run(name, &verilog(enabled), &bench);
        assert_eq!(lines.len(), masks.len(), "vvp output:\n{}", lines.join("\n"));
        for (line, m) in lines.iter().zip(&masks) {
            let expected = (u64::from(*m) & enabled).count_ones() <= limit;
            let want = format!("{m:08x} {}", u8::from(expected));
            assert_eq!(*line, want, "{name}: mask {m:#010x}, lanes {enabled:#x}");
        }
    }
}
