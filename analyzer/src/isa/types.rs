//! PTX fundamental types, state spaces, and the register-class rules of inline asm constraints.

use std::fmt;

/// The class of a PTX type. `.f16x2` and `.f32x2` are packed IEEE floats and stay `Float`;
/// the "alternate" formats (`.bf16`, `.tf32`, `.e4m3`, `.e2m1`, `.ue8m0`, ... and their
/// packed `x2`/`x4` forms) get their own class, since PTX never treats them as `.fX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypeClass {
    /// `.b8` .. `.b128`, and `.b1` (single-bit matrix elements).
    Bits,
    /// `.u8` .. `.u64`, `.u16x2`, sub-byte `.u4`/`.u2`.
    Unsigned,
    /// `.s8` .. `.s64`, `.s16x2`, sub-byte `.s4`/`.s2`.
    Signed,
    /// IEEE `.f16`, `.f32`, `.f64`, and packed `.f16x2`, `.f32x2`.
    Float,
    /// Alternate floating-point formats: `.bf16`, `.bf16x2`, `.tf32`, `.e4m3`, `.e5m2`,
    /// `.e2m1`, `.e2m3`, `.e3m2`, `.ue8m0`, `.ue4m3` and their packed forms.
    AltFloat,
    /// `.pred`.
    Pred,
}

/// A PTX type as its class and size in bits: `.u32` -> (Unsigned, 32), `.pred` -> (Pred, 1),
/// `.f16x2` -> (Float, 32), `.bf16` -> (AltFloat, 16), `.e4m3x2` -> (AltFloat, 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PtxType {
    pub class: TypeClass,
    pub bits: u16,
    /// `.f16x2`: two halves packed in a `.b32` operand. It shares `(Float, 32)` with `.f32`,
    /// but ptxas 13.0 rejects an `.f32` register for it (measured), so it is its own type.
    pub packed: bool,
}

/// Every type name PTX 9.0 uses as an instruction type modifier.
const TYPE_NAMES: &[(&str, TypeClass, u16)] = &[
    ("b8", TypeClass::Bits, 8),
    ("b16", TypeClass::Bits, 16),
    ("b32", TypeClass::Bits, 32),
    ("b64", TypeClass::Bits, 64),
    ("b128", TypeClass::Bits, 128),
    ("b1", TypeClass::Bits, 1),
    ("u8", TypeClass::Unsigned, 8),
    ("u16", TypeClass::Unsigned, 16),
    ("u32", TypeClass::Unsigned, 32),
    ("u64", TypeClass::Unsigned, 64),
    ("u16x2", TypeClass::Unsigned, 32),
    ("u4", TypeClass::Unsigned, 4),
    ("u2", TypeClass::Unsigned, 2),
    ("s8", TypeClass::Signed, 8),
    ("s16", TypeClass::Signed, 16),
    ("s32", TypeClass::Signed, 32),
    ("s64", TypeClass::Signed, 64),
    ("s16x2", TypeClass::Signed, 32),
    ("s4", TypeClass::Signed, 4),
    ("s2", TypeClass::Signed, 2),
    ("f16", TypeClass::Float, 16),
    ("f32", TypeClass::Float, 32),
    ("f64", TypeClass::Float, 64),
    ("f16x2", TypeClass::Float, 32),
    ("f32x2", TypeClass::Float, 64),
    ("bf16", TypeClass::AltFloat, 16),
    ("bf16x2", TypeClass::AltFloat, 32),
    ("tf32", TypeClass::AltFloat, 32),
    ("e4m3", TypeClass::AltFloat, 8),
    ("e5m2", TypeClass::AltFloat, 8),
    ("e4m3x2", TypeClass::AltFloat, 16),
    ("e5m2x2", TypeClass::AltFloat, 16),
    ("e4m3x4", TypeClass::AltFloat, 32),
    ("e5m2x4", TypeClass::AltFloat, 32),
    ("e2m1", TypeClass::AltFloat, 4),
    ("e2m3", TypeClass::AltFloat, 6),
    ("e3m2", TypeClass::AltFloat, 6),
    ("e2m1x2", TypeClass::AltFloat, 8),
    ("e2m3x2", TypeClass::AltFloat, 16),
    ("e3m2x2", TypeClass::AltFloat, 16),
    ("e2m1x4", TypeClass::AltFloat, 16),
    ("e2m3x4", TypeClass::AltFloat, 32),
    ("e3m2x4", TypeClass::AltFloat, 32),
    ("ue8m0", TypeClass::AltFloat, 8),
    ("ue8m0x2", TypeClass::AltFloat, 16),
    ("ue4m3", TypeClass::AltFloat, 8),
    ("pred", TypeClass::Pred, 1),
];

impl PtxType {
    pub const PRED: PtxType = PtxType::new(TypeClass::Pred, 1);
    pub const B16: PtxType = PtxType::new(TypeClass::Bits, 16);
    pub const B32: PtxType = PtxType::new(TypeClass::Bits, 32);
    pub const B64: PtxType = PtxType::new(TypeClass::Bits, 64);
    pub const B128: PtxType = PtxType::new(TypeClass::Bits, 128);
    pub const U16: PtxType = PtxType::new(TypeClass::Unsigned, 16);
    pub const U32: PtxType = PtxType::new(TypeClass::Unsigned, 32);
    pub const U64: PtxType = PtxType::new(TypeClass::Unsigned, 64);
    pub const S32: PtxType = PtxType::new(TypeClass::Signed, 32);
    pub const F32: PtxType = PtxType::new(TypeClass::Float, 32);
    pub const F64: PtxType = PtxType::new(TypeClass::Float, 64);

    pub const fn new(class: TypeClass, bits: u16) -> PtxType {
        PtxType {
            class,
            bits,
            packed: false,
        }
    }

    /// Parses a type modifier, with or without its dot: `.u32`, `b64`, `.f16x2`, `.pred`.
    /// Returns `None` for anything that is not a PTX type (`.global`, `.v4`, `.b8x16`...).
    pub fn parse(modifier: &str) -> Option<PtxType> {
        let name = modifier.strip_prefix('.').unwrap_or(modifier);
        // Fast reject: every type name starts with one of these letters.
        match name.as_bytes().first() {
            Some(b'b' | b'u' | b's' | b'f' | b't' | b'e' | b'p') => {}
            _ => return None,
        }
        TYPE_NAMES
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|&(n, class, bits)| PtxType {
                class,
                bits,
                packed: n == "f16x2",
            })
    }

    /// The canonical spelling when the type has one (`(Unsigned, 32)` -> `.u32`). Other types
    /// that share a class and size (`.bf16x2` and `.tf32`) print as the first one.
    pub fn name(&self) -> &'static str {
        if self.packed {
            return "f16x2";
        }
        TYPE_NAMES
            .iter()
            .find(|(n, c, b)| *c == self.class && *b == self.bits && *n != "f16x2")
            .map(|(n, _, _)| *n)
            .unwrap_or("?")
    }

    pub fn is_pred(&self) -> bool {
        self.class == TypeClass::Pred
    }

    /// `.fX` or an alternate float format.
    pub fn is_float(&self) -> bool {
        matches!(self.class, TypeClass::Float | TypeClass::AltFloat)
    }

    pub fn is_integer(&self) -> bool {
        matches!(self.class, TypeClass::Unsigned | TypeClass::Signed)
    }
}

impl fmt::Display for PtxType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.name())
    }
}

/// Size in bits of the register an inline-asm constraint letter asks for:
/// `h` 16, `r` 32, `l` 64, `f` 32, `d` 64, `q` 128. Other letters (`n`, `C`, ...) have none.
pub fn register_bits(letter: char) -> Option<u16> {
    register_type(letter).map(|t| t.bits)
}

/// The PTX register type nvcc declares for a constraint letter: `h`/`r`/`l`/`q` are bit types
/// (`.b16`/`.b32`/`.b64`/`.b128`), `f` is `.f32` and `d` is `.f64`.
pub fn register_type(letter: char) -> Option<PtxType> {
    match letter {
        'h' => Some(PtxType::B16),
        'r' => Some(PtxType::B32),
        'l' => Some(PtxType::B64),
        'q' => Some(PtxType::B128),
        'f' => Some(PtxType::F32),
        'd' => Some(PtxType::F64),
        _ => None,
    }
}

/// Register-class compatibility of an asm operand with the PTX type an instruction expects, as
/// measured with nvcc 13 / ptxas (see `nvcc-13-behaviour.md`) and per the PTX ISA's
/// type-checking rules (ISA 9.4 and 9.4.1):
/// - `h`/`r`/`l`/`q` are `.b16`/`.b32`/`.b64`/`.b128` registers: bit types agree with any type
///   of the same size (`"r"` on `add.f32` is fine).
/// - `f` is an `.f32` register: it fits `.f32` and `.b32` only, not packed `.f16x2` (measured
///   with ptxas 13.0: `Arguments mismatch` for `add.rn.f16x2`, `cvt.rn.f16x2.f32`,
///   `multimem.ld_reduce`/`multimem.red`/`multimem.st` `.f16x2` with `.f32` registers).
///   `d` likewise fits `.f64`/`.b64` (and `.f32x2`, not measured).
/// - With `wide_registers` (`ld`, `st`, `cvt` and the others the ISA allows) a register wider
///   than the type is accepted: a bit register for any type, a float register only for a
///   bit type (ISA table 27: `fX` sources chop only for `.bX` instruction types).
/// - Alternate float formats (`.bf16`, `.bf16x2`, `.tf32`, `.e4m3x2`...) are held in bit
///   registers: the ISA gives their operands `.b16`/`.b32` type (e.g. "for `.bf16x2`
///   instruction type, operands d, a, b have .b32 type"), so they check as bit types and
///   accept `f` (ptxas 13.0 accepts `.f32` registers for `multimem.ld_reduce ... .bf16x2`,
///   but rejects them for `add.rn.bf16x2` and `cvt.rn.bf16x2.f32`: not judged here).
/// - `.pred` operands never take an asm operand register (nor an immediate) directly.
/// - Letters that are not registers (`n`, `C`, unknown ones) are not judged here: `true`,
///   except on `.pred`.
pub fn constraint_fits(letter: char, ty: PtxType, wide_registers: bool) -> bool {
    if ty.is_pred() {
        return false;
    }
    let ty = if ty.class == TypeClass::AltFloat {
        PtxType::new(TypeClass::Bits, ty.bits)
    } else {
        ty
    };
    let Some(reg) = register_type(letter) else {
        return true;
    };
    let class_ok = match reg.class {
        TypeClass::Bits => true,
        // A float register agrees with floats of its size and with bit types.
        _ => match ty.class {
            TypeClass::Bits => true,
            TypeClass::Float => reg.bits == ty.bits && !ty.packed,
            _ => false,
        },
    };
    if reg.bits == ty.bits {
        return class_ok;
    }
    if reg.bits > ty.bits && wide_registers {
        return match reg.class {
            TypeClass::Bits => true,
            _ => ty.class == TypeClass::Bits,
        };
    }
    false
}

/// A state space an address operand refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StateSpace {
    /// No state-space modifier: a generic (64-bit) address.
    Generic,
    Global,
    /// `.shared` or `.shared::cta`.
    Shared,
    /// `.shared::cluster`.
    SharedCluster,
    Const,
    Local,
    /// `.param`, `.param::entry`, `.param::func`.
    Param,
    /// A texture or sampler reference (`tex`, `tld4`, `txq`): a 64-bit handle.
    Tex,
    /// A surface reference (`suld`, `sust`, `sured`, `suq`): a 64-bit handle.
    Surf,
    /// Tensor Memory (`tcgen05`): 32-bit addresses.
    Tmem,
}

impl StateSpace {
    /// Parses a state-space modifier: `.global`, `.shared`, `.shared::cta`,
    /// `.shared::cluster`, `.const`, `.local`, `.param`, `.param::entry`, `.param::func`.
    pub fn parse(modifier: &str) -> Option<StateSpace> {
        let name = modifier.strip_prefix('.').unwrap_or(modifier);
        Some(match name {
            "global" => StateSpace::Global,
            "shared" | "shared::cta" => StateSpace::Shared,
            "shared::cluster" => StateSpace::SharedCluster,
            "const" => StateSpace::Const,
            "local" => StateSpace::Local,
            "param" | "param::entry" | "param::func" => StateSpace::Param,
            _ => return None,
        })
    }

    /// Shared memory of this CTA or of the cluster.
    pub fn is_shared(&self) -> bool {
        matches!(self, StateSpace::Shared | StateSpace::SharedCluster)
    }

    /// Whether ptxas accepts an address of this space in a 32-bit register under the 64-bit
    /// ABI (the only one nvcc 13 has). Measured with nvcc 13.0 (the address-width probe,
    /// `rules/data/address-width-probe.tsv`): generic and `.global` addresses need 64 bits
    /// (`Program uses 32-bit address ... conflicting with .address_size 64`, then a fatal
    /// error); `.shared`, `.shared::cluster`, `.local`, `.const`, `.param` and tensor memory
    /// take 32 (a 64-bit register works too, except for tensor memory). `None` for texture
    /// and surface handles (not measured): callers neither warn nor change a letter there.
    pub fn allows_32bit_address(&self) -> Option<bool> {
        match self {
            StateSpace::Shared
            | StateSpace::SharedCluster
            | StateSpace::Const
            | StateSpace::Local
            | StateSpace::Param
            | StateSpace::Tmem => Some(true),
            StateSpace::Generic | StateSpace::Global => Some(false),
            StateSpace::Tex | StateSpace::Surf => None,
        }
    }

    /// The space's name without a dot, as the measured address-width table writes it
    /// (`generic`, `global`, `shared::cta`, `tmem`).
    pub fn key(&self) -> &'static str {
        match self {
            StateSpace::Generic => "generic",
            StateSpace::Global => "global",
            StateSpace::Shared => "shared::cta",
            StateSpace::SharedCluster => "shared::cluster",
            StateSpace::Const => "const",
            StateSpace::Local => "local",
            StateSpace::Param => "param",
            StateSpace::Tex => "texture",
            StateSpace::Surf => "surface",
            StateSpace::Tmem => "tmem",
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            StateSpace::Generic => "generic",
            StateSpace::Global => ".global",
            StateSpace::Shared => ".shared::cta",
            StateSpace::SharedCluster => ".shared::cluster",
            StateSpace::Const => ".const",
            StateSpace::Local => ".local",
            StateSpace::Param => ".param",
            StateSpace::Tex => "texture",
            StateSpace::Surf => "surface",
            StateSpace::Tmem => "tensor memory",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_types() {
        assert_eq!(PtxType::parse(".u32"), Some(PtxType::U32));
        assert_eq!(PtxType::parse("b64"), Some(PtxType::B64));
        assert_eq!(
            PtxType::parse(".f16x2"),
            Some(PtxType {
                class: TypeClass::Float,
                bits: 32,
                packed: true
            })
        );
        assert_eq!(
            PtxType::parse(".bf16"),
            Some(PtxType::new(TypeClass::AltFloat, 16))
        );
        assert_eq!(PtxType::parse(".pred"), Some(PtxType::PRED));
        assert_eq!(PtxType::parse(".b128"), Some(PtxType::B128));
        assert_eq!(
            PtxType::parse(".e4m3x2"),
            Some(PtxType::new(TypeClass::AltFloat, 16))
        );
        assert_eq!(
            PtxType::parse(".s16x2"),
            Some(PtxType::new(TypeClass::Signed, 32))
        );
        assert_eq!(PtxType::parse(".global"), None);
        assert_eq!(PtxType::parse(".v4"), None);
        assert_eq!(PtxType::parse(".b8x16"), None);
        assert_eq!(PtxType::parse(".b1024"), None);
        assert_eq!(PtxType::parse(""), None);
        assert_eq!(PtxType::U32.to_string(), ".u32");
    }

    #[test]
    fn constraint_rules_as_measured() {
        let u32_ = PtxType::U32;
        let f32_ = PtxType::F32;
        let b32 = PtxType::B32;
        assert!(constraint_fits('r', f32_, false)); // r on .f32 ok
        assert!(!constraint_fits('f', u32_, false)); // f on .u32 not ok
        assert!(constraint_fits('f', b32, false)); // f on .b32 ok
        assert!(!constraint_fits('r', PtxType::U64, false)); // r on .u64 not ok
        assert!(!constraint_fits('l', u32_, false)); // l on .u32 only when wide
        assert!(constraint_fits('l', u32_, true));
        assert!(!constraint_fits('h', u32_, false)); // h on .u32 not (smaller)
        assert!(!constraint_fits('h', u32_, true));
        assert!(constraint_fits('r', PtxType::U16, true)); // ld.u16 into r
        assert!(!constraint_fits('r', PtxType::U16, false)); // add.u16 with r
        assert!(!constraint_fits('r', PtxType::F64, false)); // add.f64 with r
        assert!(!constraint_fits('d', PtxType::U64, false));
        assert!(constraint_fits('d', PtxType::B64, false));
        assert!(constraint_fits('l', PtxType::F64, false));
        assert!(constraint_fits('q', PtxType::B128, false));
        assert!(!constraint_fits('l', PtxType::B32, false)); // mov.b32 with l
        assert!(constraint_fits(
            'r',
            PtxType::new(TypeClass::Float, 16),
            true
        )); // cvt.f32.f16 from r
        assert!(!constraint_fits(
            'f',
            PtxType::new(TypeClass::Float, 16),
            true
        ));
        assert!(constraint_fits('f', PtxType::B16, true));
        for l in ['h', 'r', 'l', 'f', 'd', 'q', 'n'] {
            assert!(!constraint_fits(l, PtxType::PRED, true));
        }
        assert!(constraint_fits('n', u32_, false));
        // Packed halves: a `.b32` register, never an `.f32` one (measured with ptxas 13.0).
        let f16x2 = PtxType::parse(".f16x2").unwrap();
        assert!(!constraint_fits('f', f16x2, false));
        assert!(!constraint_fits('f', f16x2, true));
        assert!(constraint_fits('r', f16x2, false));
        // Alternate floats are bit-typed operands.
        let bf16x2 = PtxType::parse(".bf16x2").unwrap();
        assert!(constraint_fits('f', bf16x2, false));
        assert!(constraint_fits('r', bf16x2, false));
        assert!(constraint_fits(
            'f',
            PtxType::parse(".tf32").unwrap(),
            false
        ));
        assert!(constraint_fits(
            'h',
            PtxType::parse(".bf16").unwrap(),
            false
        ));
        assert!(!constraint_fits(
            'r',
            PtxType::parse(".bf16").unwrap(),
            false
        ));
        assert!(constraint_fits(
            'r',
            PtxType::parse(".e4m3x2").unwrap(),
            true
        ));
    }

    #[test]
    fn each_type_name_is_listed_once() {
        let mut names: Vec<&str> = TYPE_NAMES.iter().map(|(n, _, _)| *n).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "a type name is listed twice");
    }

    #[test]
    fn register_sizes() {
        assert_eq!(register_bits('h'), Some(16));
        assert_eq!(register_bits('r'), Some(32));
        assert_eq!(register_bits('l'), Some(64));
        assert_eq!(register_bits('f'), Some(32));
        assert_eq!(register_bits('d'), Some(64));
        assert_eq!(register_bits('q'), Some(128));
        assert_eq!(register_bits('n'), None);
    }

    #[test]
    fn state_spaces() {
        assert_eq!(StateSpace::parse(".shared::cta"), Some(StateSpace::Shared));
        assert_eq!(StateSpace::parse(".shared"), Some(StateSpace::Shared));
        assert_eq!(
            StateSpace::parse(".shared::cluster"),
            Some(StateSpace::SharedCluster)
        );
        assert_eq!(StateSpace::parse(".param::entry"), Some(StateSpace::Param));
        assert_eq!(StateSpace::parse(".v4"), None);
        assert_eq!(StateSpace::Shared.allows_32bit_address(), Some(true));
        assert_eq!(StateSpace::Local.allows_32bit_address(), Some(true));
        assert_eq!(StateSpace::Generic.allows_32bit_address(), Some(false));
        assert_eq!(StateSpace::Global.allows_32bit_address(), Some(false));
        assert_eq!(StateSpace::Tex.allows_32bit_address(), None);
    }
}
