//! The float formats the ALU computes in: IEEE 754 binary16, binary32,
//! binary64 and bfloat16, by their field widths. The golden model's
//! soft-float (core/src/golden/soft_float.rs), the RTL's float decode
//! (hdl/src/fp_decode.rs) and the random generator read them here.

use crate::ElemType;

/// An IEEE 754 binary interchange format: 1 sign bit, `exp_bits` exponent
/// bits, `man_bits` stored mantissa bits (no hidden bit). Values are raw
/// bits in the low `1 + exp_bits + man_bits` bits of a `u64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatFormat {
    pub exp_bits: u32,
    pub man_bits: u32,
}

impl FloatFormat {
    /// IEEE binary16.
    pub const F16: FloatFormat = FloatFormat { exp_bits: 5, man_bits: 10 };
    /// bfloat16: f32's exponent with a 7-bit mantissa.
    pub const BF16: FloatFormat = FloatFormat { exp_bits: 8, man_bits: 7 };
    /// IEEE binary32.
    pub const F32: FloatFormat = FloatFormat { exp_bits: 8, man_bits: 23 };
    /// IEEE binary64.
    pub const F64: FloatFormat = FloatFormat { exp_bits: 11, man_bits: 52 };
    pub const ALL: [FloatFormat; 4] = [FloatFormat::F16, FloatFormat::BF16, FloatFormat::F32, FloatFormat::F64];

    /// Total width in bits.
    pub const fn bits(self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    /// All-ones mask of the format's width.
    pub const fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }

    pub const fn sign_bit(self) -> u64 {
        1u64 << (self.exp_bits + self.man_bits)
    }

    /// The all-ones exponent field (infinities and NaNs).
    pub const fn exp_max(self) -> u64 {
        (1u64 << self.exp_bits) - 1
    }

    pub const fn man_mask(self) -> u64 {
        (1u64 << self.man_bits) - 1
    }

    /// The NaN every NaN-producing operation returns: sign 0, exponent and
    /// mantissa all ones (f32 `0x7fffffff`, f16/bf16 `0x7fff`).
    pub const fn canonical_nan(self) -> u64 {
        self.mask() >> 1
    }

    /// Positive infinity: exponent all ones, mantissa zero.
    pub const fn inf(self) -> u64 {
        self.exp_max() << self.man_bits
    }

    /// 1.0: the exponent bias, mantissa zero.
    pub const fn one(self) -> u64 {
        ((1u64 << (self.exp_bits - 1)) - 1) << self.man_bits
    }

    /// The biased exponent field of `bits`.
    pub const fn exp_field(self, bits: u64) -> u64 {
        (bits >> self.man_bits) & self.exp_max()
    }

    pub const fn is_nan(self, bits: u64) -> bool {
        self.exp_field(bits) == self.exp_max() && bits & self.man_mask() != 0
    }

    pub const fn is_inf(self, bits: u64) -> bool {
        self.exp_field(bits) == self.exp_max() && bits & self.man_mask() == 0
    }

    /// +0 or -0.
    pub const fn is_zero(self, bits: u64) -> bool {
        bits & (self.mask() >> 1) == 0
    }

    /// Nonzero with a zero exponent field.
    pub const fn is_subnormal(self, bits: u64) -> bool {
        self.exp_field(bits) == 0 && bits & self.man_mask() != 0
    }

    /// Flush a subnormal to the zero of its sign; other values unchanged.
    pub const fn flush(self, bits: u64) -> u64 {
        if self.is_subnormal(bits) {
            bits & self.sign_bit()
        } else {
            bits
        }
    }
}

impl ElemType {
    /// The float format of the type's elements (of each half of F16x2 /
    /// BF16x2); None for the bit types.
    pub fn float_format(self) -> Option<FloatFormat> {
        match self {
            ElemType::F16 | ElemType::F16x2 => Some(FloatFormat::F16),
            ElemType::BF16 | ElemType::BF16x2 => Some(FloatFormat::BF16),
            ElemType::F32 => Some(FloatFormat::F32),
            ElemType::F64 => Some(FloatFormat::F64),
            ElemType::B16 | ElemType::B32 | ElemType::B64 | ElemType::B128 => None,
        }
    }

    /// The format the float ops read the type as, and whether it is two
    /// 16-bit halves: a float type's own format; B16/B32/B64 as f16/f32/f64
    /// (vISA FMAX/FMIN/FCMPWR take the bits as floats, `AluCtl::needs_fp`);
    /// B128 as none.
    pub fn float_read(self) -> Option<(FloatFormat, bool)> {
        match self {
            ElemType::F16 | ElemType::B16 => Some((FloatFormat::F16, false)),
            ElemType::BF16 => Some((FloatFormat::BF16, false)),
            ElemType::F32 | ElemType::B32 => Some((FloatFormat::F32, false)),
            ElemType::F64 | ElemType::B64 => Some((FloatFormat::F64, false)),
            ElemType::F16x2 => Some((FloatFormat::F16, true)),
            ElemType::BF16x2 => Some((FloatFormat::BF16, true)),
            ElemType::B128 => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_ieee() {
        let f = FloatFormat::F32;
        assert_eq!((f.bits(), f.inf(), f.canonical_nan(), f.one()), (32, 0x7f80_0000, 0x7fff_ffff, 0x3f80_0000));
        assert_eq!(FloatFormat::F16.one(), 0x3c00);
        assert_eq!(FloatFormat::BF16.one(), 0x3f80);
        assert_eq!(FloatFormat::F64.one(), 0x3ff0_0000_0000_0000);
        assert_eq!(FloatFormat::F64.mask(), u64::MAX);
        assert!(f.is_nan(0xffc0_0000) && !f.is_nan(0xff80_0000) && f.is_inf(0xff80_0000));
        assert!(f.is_subnormal(1) && f.flush(0x8000_0001) == 0x8000_0000 && f.is_zero(0x8000_0000));
        for ty in ElemType::ALL {
            if let Some(fmt) = ty.float_format() {
                assert_eq!(ty.float_read(), Some((fmt, fmt.bits() < ty.bits())), "{ty:?}");
            }
            match ty.float_format() {
                Some(fmt) if ty.bits() == 32 && fmt.bits() == 16 => assert!(matches!(ty, ElemType::F16x2 | ElemType::BF16x2)),
                Some(fmt) => assert_eq!(fmt.bits(), ty.bits(), "{ty:?}"),
                None => assert!(!ty.is_float(), "{ty:?}"),
            }
        }
    }
}
