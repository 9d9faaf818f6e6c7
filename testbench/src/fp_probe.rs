//! Which float datapaths the RTL ALU implements, found by trying: each
//! [`FpFamily`] (op, element type, ftz) is driven through the Verilated
//! `atomic_alu` with a battery of special and random operands and compared
//! with the golden ALU. A family is "implemented" when every vector agrees.
//! `atomport regress` generates float messages only for implemented
//! families, so it tracks the RTL as the float datapath lands without
//! anyone editing a list.

use std::collections::BTreeSet;

use atomport_sim::{SimError, VAtomicAlu};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use atomport_core::golden::alu;
use atomport_core::ops::{AluCtl, ElemType};

use super::generator::{all_fp_families, FpFamily};

/// Special bit patterns of one element of `bits` bits with `exp_bits`
/// exponent bits: zeros, ones, infinities, NaNs, subnormals, extremes.
fn specials(bits: u32, exp_bits: u32) -> Vec<u128> {
    let man_bits = bits - 1 - exp_bits;
    let sign = 1u128 << (bits - 1);
    let exp_all = ((1u128 << exp_bits) - 1) << man_bits;
    let one = ((1u128 << (exp_bits - 1)) - 1) << man_bits;
    let base = vec![
        0,
        one,
        one | 1,
        one + (1 << man_bits), // 2.0
        exp_all,               // inf
        exp_all | 1,           // signalling NaN
        exp_all | (1 << (man_bits - 1)), // quiet NaN
        1,                     // smallest subnormal
        (1 << man_bits) - 1,   // largest subnormal
        1 << man_bits,         // smallest normal
        exp_all - 1,           // largest finite
    ];
    base.iter().flat_map(|&x| [x, x | sign]).collect()
}

fn format_of(ty: ElemType) -> (u32, u32) {
    match ty {
        ElemType::F16 | ElemType::F16x2 => (16, 5),
        ElemType::BF16 | ElemType::BF16x2 => (16, 8),
        ElemType::F64 => (64, 11),
        _ => (32, 8),
    }
}

/// Operand triples for one family: all pairs of specials, then random bits.
fn vectors(ty: ElemType, rng: &mut ChaCha8Rng, random: usize) -> Vec<(u128, u128, u128)> {
    let (bits, exp_bits) = format_of(ty);
    let packed = matches!(ty, ElemType::F16x2 | ElemType::BF16x2);
    let s = specials(bits, exp_bits);
    let mut v = vec![];
    for &a in &s {
        for &b in &s {
            let (a, b) = if packed { (a | b << 16, b | a << 16) } else { (a, b) };
            // src1 (fcmpwr's new value) differs from both
            let c = s[rng.gen_range(0..s.len())] ^ 0x3;
            v.push((a, b, if packed { c | c << 16 } else { c }));
        }
    }
    let mask = ty.mask();
    for _ in 0..random {
        let (a, b): (u128, u128) = (rng.gen::<u128>() & mask, rng.gen::<u128>() & mask);
        // near values: same exponent most of the time, so adds round
        let b = if rng.gen_bool(0.5) { (a & !0xffff) | (b & 0xffff) } else { b };
        v.push((a, b, rng.gen::<u128>() & mask));
    }
    v
}

/// The families (of [`all_fp_families`]) on which the RTL ALU agrees with
/// the golden ALU on every probe vector.
pub fn implemented_fp_families() -> Result<BTreeSet<FpFamily>, SimError> {
    let mut model = VAtomicAlu::new()?;
    let mut rng = ChaCha8Rng::seed_from_u64(0xf10a7);
    let mut ok = BTreeSet::new();
    for family in all_fp_families() {
        let (op, ty, ftz) = family;
        let ctl = AluCtl { op, ty, ftz };
        model.set_op(op.code());
        model.set_ty(ty.code());
        // the ftz port exists once the f32 add reads it; without it only
        // families with ftz = false can be right
        let has_ftz = model.set_port("ftz", ftz as u128).is_ok();
        if ftz && !has_ftz {
            continue;
        }
        let all = agrees(&mut model, ctl, &vectors(ty, &mut rng, 300))?;
        if all {
            ok.insert(family);
        }
    }
    Ok(ok)
}

/// Whether the model's outputs equal the golden ALU's on every vector
/// (op, ty and ftz already on the model's ports).
fn agrees(model: &mut VAtomicAlu, ctl: AluCtl, vectors: &[(u128, u128, u128)]) -> Result<bool, SimError> {
    for &(old, src0, src1) in vectors {
        model.set_old_value(old);
        model.set_src0(src0);
        model.set_src1(src1);
        model.eval()?;
        let want = alu::apply(ctl, old, src0, src1);
        if model.new_value() != want.new || model.ret_value() != want.ret {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `fmax.f32, add.f16 ...`: a family list for people.
pub fn family_names(families: &BTreeSet<FpFamily>) -> String {
    if families.is_empty() {
        return "none".to_string();
    }
    families
        .iter()
        .map(|(op, ty, ftz)| format!("{op:?}.{ty:?}{}", if *ftz { ".ftz" } else { "" }).to_lowercase())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use atomport_core::ops::AluOp;

    #[test]
    fn the_probe_accepts_what_the_rtl_computes_and_rejects_what_it_does_not() {
        let mut model = VAtomicAlu::new().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let v = vectors(ElemType::F32, &mut rng, 50);
        // an integer op on float-typed bits: the RTL implements it
        let xchg = AluCtl { op: AluOp::Xchg, ty: ElemType::F32, ftz: false };
        model.set_op(xchg.op.code());
        model.set_ty(xchg.ty.code());
        assert!(agrees(&mut model, xchg, &v).unwrap());
        // the same pins judged against a different op must disagree
        let add = AluCtl { op: AluOp::Add, ty: ElemType::B32, ftz: false };
        assert!(!agrees(&mut model, add, &v).unwrap());
        let found = implemented_fp_families().unwrap();
        assert!(found.iter().all(|f| all_fp_families().contains(f)));
        println!("float families the RTL ALU implements: {}", family_names(&found));
    }
}
