//! The soft-float adder against two independent references: LLVM's APFloat
//! (`rustc_apfloat`: Half, BFloat, Single, Double) and the host's f32/f64
//! arithmetic. Bit-exact, except that a NaN result only has to be the
//! canonical NaN (the model's documented choice) where the references
//! propagate payloads.

use crate::golden::soft_float::{self as fp, Format, BF16, F16, F32, F64};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_apfloat::ieee::{BFloat, Double, Half, Single};
use rustc_apfloat::Float;

/// The seed of the random samples (printed on failure through the message).
const SEED: u64 = 0xa70_0917;

/// APFloat's sum of two raw values of `fmt`, rounded to nearest even.
fn apfloat_add(fmt: Format, a: u64, b: u64) -> u64 {
    fn go<T: Float>(a: u64, b: u64) -> u64 {
        (T::from_bits(a as u128) + T::from_bits(b as u128)).value.to_bits() as u64
    }
    match fmt {
        F16 => go::<Half>(a, b),
        BF16 => go::<BFloat>(a, b),
        F32 => go::<Single>(a, b),
        F64 => go::<Double>(a, b),
        _ => unreachable!(),
    }
}

/// The reference sum with the model's NaN rule: any NaN becomes canonical.
/// With `ftz`, inputs and result are flushed around the reference add.
fn reference(fmt: Format, a: u64, b: u64, ftz: bool) -> u64 {
    let (a, b) = if ftz { (fmt.flush(a), fmt.flush(b)) } else { (a, b) };
    let sum = apfloat_add(fmt, a, b);
    if fmt.is_nan(sum) {
        fmt.canonical_nan()
    } else if ftz {
        fmt.flush(sum)
    } else {
        sum
    }
}

fn check(fmt: Format, a: u64, b: u64, ftz: bool) {
    let got = fp::add(fmt, a, b, ftz);
    let want = reference(fmt, a, b, ftz);
    assert_eq!(got, want, "{fmt:?} ftz={ftz}: {a:#x} + {b:#x} = {got:#x}, reference {want:#x}");
    // addition commutes, bit for bit (the NaN is canonical either way)
    assert_eq!(fp::add(fmt, b, a, ftz), got, "{fmt:?}: {b:#x} + {a:#x} is not commutative");
}

/// Directed corner values of a format: zeros, subnormals, smallest normal,
/// largest finite, infinities, quiet and signaling NaNs with payloads, ones.
fn corners(fmt: Format) -> Vec<u64> {
    let s = fmt.sign_bit();
    let m = fmt.man_bits;
    let one = (fmt.exp_max() >> 1) << m;
    let mut v = vec![
        0,
        1, // smallest subnormal
        2,
        3,
        fmt.man_mask(), // largest subnormal
        fmt.man_mask() - 1,
        1 << m, // smallest normal
        (1 << m) | 1,
        (1 << (m - 1)),       // half the smallest normal
        one,                  // 1.0
        one | 1,              // 1 + ulp
        one - 1,              // 1 - ulp/2
        one | fmt.man_mask(), // 2 - ulp
        one + (1 << m),       // 2.0
        one | (1 << (m - 1)), // 1.5
        fmt.inf() - 1,        // largest finite
        fmt.inf() - 2,
        fmt.inf() - (1 << m),           // largest finite's binade start
        fmt.inf(),                      // inf
        fmt.inf() | (1 << (m - 1)),     // quiet NaN
        fmt.inf() | (1 << (m - 1)) | 5, // quiet NaN with payload
        fmt.inf() | 1,                  // signaling NaN
        fmt.inf() | 3,
        fmt.canonical_nan(),
    ];
    let negatives: Vec<u64> = v.iter().map(|x| x | s).collect();
    v.extend(negatives);
    v
}

#[test]
fn directed_corners_match_apfloat_in_every_format() {
    for fmt in [F16, BF16, F32, F64] {
        let c = corners(fmt);
        for &a in &c {
            for &b in &c {
                check(fmt, a, b, false);
                if fmt == F32 {
                    check(fmt, a, b, true);
                }
            }
        }
    }
}

#[test]
fn hand_worked_values() {
    // f32: 1 + 2 = 3; 1.5 + 1.5 = 3
    assert_eq!(fp::add(F32, 0x3f80_0000, 0x4000_0000, false), 0x4040_0000);
    assert_eq!(fp::add(F32, 0x3fc0_0000, 0x3fc0_0000, false), 0x4040_0000);
    // exact cancellation gives +0, -0 + -0 = -0, +0 + -0 = +0
    assert_eq!(fp::add(F32, 0x3f80_0000, 0xbf80_0000, false), 0);
    assert_eq!(fp::add(F32, 0x8000_0000, 0x8000_0000, false), 0x8000_0000);
    assert_eq!(fp::add(F32, 0x0000_0000, 0x8000_0000, false), 0);
    // inf - inf is the canonical NaN; a signaling NaN operand likewise
    assert_eq!(fp::add(F32, 0x7f80_0000, 0xff80_0000, false), 0x7fff_ffff);
    assert_eq!(fp::add(F16, 0x7c01, 0x3c00, false), 0x7fff);
    // f16: largest finite 65504 (ulp 32) + 8 rounds back down; + 16 is a tie
    // whose even neighbour is 65536, so it overflows to inf
    assert_eq!(fp::add(F16, 0x7bff, 0x4800, false), 0x7bff);
    assert_eq!(fp::add(F16, 0x7bff, 0x4c00, false), 0x7c00);
    assert_eq!(fp::add(F16, 0xfbff, 0xcc00, false), 0xfc00);
    // bf16 1.0 + 2^-8 is a tie: to even (1.0); 1+2^-7 + 2^-8 ties up to 1+2^-6
    assert_eq!(fp::add(BF16, 0x3f80, 0x3b80, false), 0x3f80);
    assert_eq!(fp::add(BF16, 0x3f81, 0x3b80, false), 0x3f82);
    // f32 FTZ: smallest subnormal + smallest subnormal = 2 * tiny, flushed to +0;
    // -subnormal reads as -0, so -sub + -0 = -0
    assert_eq!(fp::add(F32, 1, 1, false), 2);
    assert_eq!(fp::add(F32, 1, 1, true), 0);
    assert_eq!(fp::add(F32, 0x8000_0001, 0x8000_0000, true), 0x8000_0000);
    // smallest normal - smallest subnormal is subnormal; with ftz the
    // subnormal input reads as -0 and the normal survives
    assert_eq!(fp::add(F32, 0x0080_0000, 0x8000_0001, false), 0x007f_ffff);
    assert_eq!(fp::add(F32, 0x0080_0000, 0x8000_0001, true), 0x0080_0000);
    // two normals whose difference is subnormal: the result flushes with ftz,
    // to the zero of the result's sign
    assert_eq!(fp::add(F32, 0x0080_0001, 0x8080_0000, false), 0x0000_0001);
    assert_eq!(fp::add(F32, 0x0080_0001, 0x8080_0000, true), 0);
    assert_eq!(fp::add(F32, 0x8080_0001, 0x0080_0000, true), 0x8000_0000);
}

/// Random bit patterns of `fmt`; half of them with exponents near each other
/// so cancellation and rounding are exercised, not only alignment-out.
fn random_pairs(fmt: Format, rng: &mut ChaCha8Rng, n: usize) -> Vec<(u64, u64)> {
    (0..n)
        .map(|i| {
            let a = rng.gen::<u64>() & fmt.mask();
            let b = if i % 2 == 0 {
                rng.gen::<u64>() & fmt.mask()
            } else {
                // b's exponent within +-3 of a's, random sign and mantissa
                let exp = (a >> fmt.man_bits) & fmt.exp_max();
                let delta = rng.gen_range(0..=6) as i64 - 3;
                let e = (exp as i64 + delta).clamp(0, fmt.exp_max() as i64) as u64;
                let sign = if rng.gen() { fmt.sign_bit() } else { 0 };
                sign | (e << fmt.man_bits) | (rng.gen::<u64>() & fmt.man_mask())
            };
            (a, b)
        })
        .collect()
}

#[test]
fn random_sample_matches_apfloat() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    for fmt in [F16, BF16, F32, F64] {
        for (a, b) in random_pairs(fmt, &mut rng, 40_000) {
            check(fmt, a, b, false);
            if fmt == F32 {
                check(fmt, a, b, true);
            }
        }
    }
}

#[test]
fn f16_exhaustive_against_one_operand_sweep() {
    // every f16 value added to a few fixed values (covers all exponents)
    for b in [0x0001u64, 0x3c00, 0x8400, 0x7bff, 0x03ff, 0xfc00] {
        for a in 0..=0xffffu64 {
            check(F16, a, b, false);
        }
    }
}

#[test]
fn random_sample_matches_host_f32_and_f64() {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 1);
    for (a, b) in random_pairs(F32, &mut rng, 40_000) {
        let host = (f32::from_bits(a as u32) + f32::from_bits(b as u32)).to_bits() as u64;
        let want = if F32.is_nan(host) { F32.canonical_nan() } else { host };
        assert_eq!(fp::add(F32, a, b, false), want, "f32 {a:#x} + {b:#x} (seed {SEED:#x})");
    }
    for (a, b) in random_pairs(F64, &mut rng, 40_000) {
        let host = (f64::from_bits(a) + f64::from_bits(b)).to_bits();
        let want = if F64.is_nan(host) { F64.canonical_nan() } else { host };
        assert_eq!(fp::add(F64, a, b, false), want, "f64 {a:#x} + {b:#x} (seed {SEED:#x})");
    }
}

#[test]
fn equality_and_order_helpers() {
    assert!(fp::eq(F32, 0, 0x8000_0000));
    assert!(!fp::eq(F32, 0x7fc0_0000, 0x7fc0_0000));
    assert!(fp::eq(F16, 0x3c00, 0x3c00));
    assert!(fp::less_signed_zero(F32, 0x8000_0000, 0));
    assert!(fp::less_signed_zero(F32, 0xbf80_0000, 0x8000_0000));
    assert!(fp::less_signed_zero(F32, 0x3f80_0000, 0x7f80_0000));
    assert!(!fp::less_signed_zero(F32, 0, 0));
    assert!(fp::less_signed_zero(F32, 0xff80_0000, 0xbf80_0000));
}
