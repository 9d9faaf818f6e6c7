//! Tests of the fp_add block.

use super::*;
use atomport_core::golden::soft_float::{self, Format};

#[test]
fn fp_add_wide_synthesizes() {
    let mut uut = FpAddWide::default();
    uut.connect_all();
    yosys_validate("atomport_fp_add_wide", &generate_verilog(&uut)).unwrap();
}

#[test]
fn fp_add_half_synthesizes() {
    let mut uut = FpAddHalf::default();
    uut.connect_all();
    yosys_validate("atomport_fp_add_half", &generate_verilog(&uut)).unwrap();
}

#[test]
fn lsb_positions_of_the_formats() {
    // f64, f32, f16, bf16 in the wide datapath; f16, bf16 in the half one
    assert_eq!([52, 23, 10, 7].map(|m| lsb_position(57, m)), [3, 32, 45, 48]);
    assert_eq!([10, 7].map(|m| lsb_position(15, m)), [3, 6]);
}

/// xorshift, the seed given
use crate::icarus::xorshift;

use crate::icarus::float_corners as corners;

/// Sums that land exactly halfway between two values (and one ulp of
/// the small operand either side): at 1.0 and its neighbours (ties to
/// even both ways), at the largest normal (the tie rounds up into
/// infinity), and at the subnormal/normal boundary; with both signs.
fn ties(f: Format) -> Vec<(u64, u64)> {
    let m = u64::from(f.man_bits);
    let max_exp = f.exp_max() - 1;
    // half an ulp of a value with exponent field e: exponent e - m - 1, mantissa 0
    let half_ulp = |e: u64| (e - m - 1) << m;
    let mut pairs = vec![];
    for a in [f.one(), f.one() + 1, f.one() + 2, f.one() + 3] {
        let h = half_ulp(f.exp_field(a));
        pairs.extend([(a, h), (a, h + 1), (a, h - 1), (a, h | f.sign_bit()), (h, a)]);
    }
    let max_normal = (max_exp << m) | f.man_mask();
    let h = half_ulp(max_exp);
    pairs.extend([(max_normal, h), (max_normal, h - 1), (max_normal | f.sign_bit(), h | f.sign_bit())]);
    // the smallest normal minus the smallest subnormal, and subnormals summing past the boundary
    pairs.extend([(f.man_mask() + 1, 1 | f.sign_bit()), (f.man_mask(), 1), (f.man_mask(), f.man_mask())]);
    pairs.iter().flat_map(|&(a, b)| [(a, b), (a ^ f.sign_bit(), b ^ f.sign_bit())]).collect()
}

/// Drives `FpAdd`'s Verilog in Icarus edge by edge and compares the sum
/// with the golden soft-float's `add`, three `advance` edges later (the
/// documented latency; a 3-deep pipeline model that moves only on
/// `advance`). Per format: every pair of corner values, the rounding
/// ties, and seeded random pairs (random bits, and close exponents for
/// cancellation), `ftz` random; some operands carry bits outside their
/// mantissa field, which the adder must ignore. Between adds: stalls
/// (`advance` 0, operands on the port not taken) and bubbles (`active`
/// 0). Returns the number of adds compared.
fn add_like_the_model<const E: usize, const S: usize, const N: usize>(name: &str, formats: &[Format], seed: u64) -> usize {
    let mut uut = FpAdd::<E, S, N>::default();
    uut.connect_all();
    let mut next = xorshift(seed);
    let mut adds: Vec<(Format, bool, u64, u64)> = vec![]; // (format, ftz, a, b)
    for &f in formats {
        let c = corners(f);
        for &a in &c {
            for &b in &c {
                adds.push((f, next().is_multiple_of(2), a, b));
            }
        }
        for (a, b) in ties(f) {
            adds.push((f, false, a, b));
        }
        for _ in 0..400 {
            let a = next() & f.mask();
            let b = if next().is_multiple_of(2) {
                next() & f.mask()
            } else {
                // close to -a or a: a random mantissa, the exponent moved by at most 2
                let e = (f.exp_field(a) + next() % 5).saturating_sub(2).min(f.exp_max());
                ((a & f.sign_bit()) ^ (next() & f.sign_bit())) | (e << f.man_bits) | (next() & f.man_mask())
            };
            adds.push((f, next().is_multiple_of(4), a, b));
        }
    }
    let field_of = |f: Format| {
        let lsb = S - 2 - f.man_bits as usize;
        (lsb, ((1u128 << (S - 2)) - 1) & !((1u128 << lsb) - 1))
    };
    let all = (1u128 << S) - 1;
    // one step: advance, active, format, ftz, a, b, and junk outside the mantissa fields
    struct Step {
        advance: bool,
        active: bool,
        f: Format,
        ftz: bool,
        a: u64,
        b: u64,
        junk: (u128, u128),
    }
    let mut steps = vec![];
    let rand_step = |next: &mut dyn FnMut() -> u64, advance: bool, active: bool| {
        let f = formats[(next() % formats.len() as u64) as usize];
        Step { advance, active, f, ftz: next().is_multiple_of(2), a: next() & f.mask(), b: next() & f.mask(), junk: (0, 0) }
    };
    for &(f, ftz, a, b) in &adds {
        match next() % 8 {
            0 => steps.push(rand_step(&mut next, false, true)),
            1 => steps.push(rand_step(&mut next, true, false)),
            _ => {}
        }
        let outside = all & !field_of(f).1;
        let junk = if next().is_multiple_of(4) { (u128::from(next()) & outside, u128::from(next()) & outside) } else { (0, 0) };
        steps.push(Step { advance: true, active: true, f, ftz, a, b, junk });
    }
    for _ in 0..3 {
        steps.push(rand_step(&mut next, true, false));
    }
    let digits = S.div_ceil(4);
    let mut bench = format!(
        "module bench;\nreg clock = 0, advance = 0, active = 0, ftz = 0, a_sign = 0, b_sign = 0;\n\
         reg [{e}:0] exp_max = 0, a_exp = 0, b_exp = 0; reg [{s}:0] lsb = 0, man_field = 0, a_man = 0, b_man = 0;\n\
         wire sum_sign; wire [{e}:0] sum_exp; wire [{s}:0] sum_man;\n\
         top uut(.clock(clock), .advance(advance), .active(active), .exp_max(exp_max), .lsb(lsb), .man_field(man_field),\n\
         .ftz(ftz), .a_sign(a_sign), .a_exp(a_exp), .a_man(a_man), .b_sign(b_sign), .b_exp(b_exp), .b_man(b_man),\n\
         .sum_sign(sum_sign), .sum_exp(sum_exp), .sum_man(sum_man));\ninitial begin\n",
        e = E - 1,
        s = S - 1
    );
    for st in &steps {
        let f = st.f;
        let (lsb, field) = field_of(f);
        let man = |x: u64, junk: u128| (u128::from(x & f.man_mask()) << lsb) | junk;
        bench.push_str(&format!(
            "  advance = {}; active = {}; ftz = {}; exp_max = {}; lsb = {S}'h{:0digits$x}; man_field = {S}'h{field:0digits$x};\n  \
             a_sign = {}; a_exp = {}; a_man = {S}'h{:0digits$x}; b_sign = {}; b_exp = {}; b_man = {S}'h{:0digits$x};\n  \
             #1 clock = 1; #1 $display(\"%b %0d %h\", sum_sign, sum_exp, sum_man); clock = 0;\n",
            u8::from(st.advance),
            u8::from(st.active),
            u8::from(st.ftz),
            f.exp_max(),
            1u128 << lsb,
            u8::from(st.a & f.sign_bit() != 0),
            f.exp_field(st.a),
            man(st.a, st.junk.0),
            u8::from(st.b & f.sign_bit() != 0),
            f.exp_field(st.b),
            man(st.b, st.junk.1),
        ));
    }
    bench.push_str("end\nendmodule\n");
    let lines = crate::icarus::run(name, &generate_verilog(&uut), &bench);
    assert_eq!(lines.len(), steps.len(), "vvp printed {} lines for {} edges", lines.len(), steps.len());
    // the adds in the three stage registers, newest first
    let mut pipe: [Option<usize>; 3] = [None; 3];
    let (mut taken, mut compared) = (0, std::collections::BTreeSet::new());
    for (i, (line, st)) in lines.iter().zip(&steps).enumerate() {
        if st.advance {
            pipe = [(st.active).then(|| {
                taken += 1;
                taken - 1
            }), pipe[0], pipe[1]];
        }
        let Some(k) = pipe[2] else { continue };
        let (f, ftz, a, b) = adds[k];
        let r = soft_float::add(f, a, b, ftz);
        let (lsb, _) = field_of(f);
        let expect = format!("{} {} {:0digits$x}", u8::from(r & f.sign_bit() != 0), f.exp_field(r), u128::from(r & f.man_mask()) << lsb);
        assert_eq!(line, &expect, "edge {i}: {f:?} ftz {ftz} {a:#x} + {b:#x} = {r:#x}");
        compared.insert(k);
    }
    assert_eq!(taken, adds.len());
    assert_eq!(compared.len(), adds.len(), "every add reached the output");
    adds.len()
}

/// The f64-sized instance, every format, against the golden soft-float.
#[test]
fn the_wide_verilog_adds_like_the_model() {
    if !crate::icarus::available() {
        return;
    }
    let checked = add_like_the_model::<12, 57, 6>("fp-add-wide", &Format::ALL, 0x6a09_e667_f3bc_c908);
    assert_eq!(checked, 4 * (400 + 52 + 400));
}

/// The f16/bf16-sized instance against the golden soft-float.
#[test]
fn the_half_verilog_adds_like_the_model() {
    if !crate::icarus::available() {
        return;
    }
    let checked = add_like_the_model::<9, 15, 4>("fp-add-half", &[soft_float::F16, soft_float::BF16], 0x3c6e_f372_fe94_f82b);
    assert_eq!(checked, 2 * (400 + 52 + 400));
}
