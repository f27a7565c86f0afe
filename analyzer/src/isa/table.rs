//! The PTX ISA 9.0 instruction table, as data.
//!
//! Sources: the PTX ISA 9.0 documentation (syntax, "PTX ISA Notes" and "Target ISA Notes" of
//! each instruction section), the CCCL `cuda::ptx` per-form PTX/SM table
//! (`shared/reference/cuda-ptx-wrappers.tsv`), and measured nvcc 13 behaviour. Entries whose
//! `uncertain` field is set were completed from knowledge of the ISA where the documentation
//! did not settle a detail.
//!
//! Versions are x10 (`78` = PTX ISA 7.8); `min_sm` 0 means "all targets".

use super::schema::Cond::{self, *};
use super::schema::Role::*;
use super::schema::*;
use super::types::{PtxType, StateSpace};

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

macro_rules! v {
    ($when:expr => [$($s:expr),* $(,)?]) => {
        Variant { when: $when, operands: &[$($s),*], variadic: false }
    };
    ([$($s:expr),* $(,)?]) => {
        Variant { when: Always, operands: &[$($s),*], variadic: false }
    };
}

macro_rules! r {
    ($when:expr, $ptx:expr, $sm:expr) => {
        Req {
            when: $when,
            ptx: $ptx,
            sm: $sm,
            arch: &[],
        }
    };
    ($when:expr, $ptx:expr, $sm:expr, $arch:expr) => {
        Req {
            when: $when,
            ptx: $ptx,
            sm: $sm,
            arch: $arch,
        }
    };
}

macro_rules! e {
    ($when:expr, $add:expr) => {
        EffRule {
            when: $when,
            add: $add,
        }
    };
}

const N0: Ty = Ty::Nth(0);
const N1: Ty = Ty::Nth(1);
const N2: Ty = Ty::Nth(2);
const B32: Ty = Ty::Fixed(PtxType::B32);
const B64: Ty = Ty::Fixed(PtxType::B64);
const B128: Ty = Ty::Fixed(PtxType::B128);
const U16: Ty = Ty::Fixed(PtxType::U16);
const U32: Ty = Ty::Fixed(PtxType::U32);
const U64: Ty = Ty::Fixed(PtxType::U64);
const S32: Ty = Ty::Fixed(PtxType::S32);
const F32: Ty = Ty::Fixed(PtxType::F32);
const PRED: Ty = Ty::Fixed(PtxType::PRED);

const fn dst(name: &'static str, ty: Ty) -> Slot {
    Slot::new(name, Dst, ty)
}
const fn src(name: &'static str, ty: Ty) -> Slot {
    Slot::new(name, Src, ty)
}
const fn addr(name: &'static str, space: Sp) -> Slot {
    Slot::new(name, Addr, Ty::None).space(space)
}
const fn imm(name: &'static str, ty: Ty) -> Slot {
    Slot::new(name, Imm, ty)
}
const fn pdst(name: &'static str) -> Slot {
    Slot::new(name, PredDst, PRED)
}
const fn psrc(name: &'static str) -> Slot {
    Slot::new(name, PredSrc, PRED)
}

const SP0: Sp = Sp::Nth(0);
const SP1: Sp = Sp::Nth(1);
const GENERIC: Sp = Sp::Fixed(StateSpace::Generic);
const TMEM: Sp = Sp::Fixed(StateSpace::Tmem);
const TEX: Sp = Sp::Fixed(StateSpace::Tex);
const SURF: Sp = Sp::Fixed(StateSpace::Surf);

/// The 64-bit `cache-policy` operand, present with `.L2::cache_hint`.
const CACHE_POLICY: Slot = src("cache-policy", B64).when(Has(".L2::cache_hint"));
const MEMBERMASK: Slot = src("membermask", B32);

const E_NONE: Effects = Effects::NONE;
const LOAD: Effects = Effects::LOAD;
const STORE: Effects = Effects::STORE;
const ATOMIC: Effects = Effects::ATOMIC;
const FENCE: Effects = Effects::FENCE;
const BARRIER: Effects = Effects::BARRIER;
const ASYNC: Effects = Effects::ASYNC;
const SIDE: Effects = Effects::SIDE_EFFECT;
const VREAD: Effects = Effects::VOLATILE_READ;
const CONTROL: Effects = Effects::CONTROL;
const WARP: Effects = Effects::WARP_SYNC;
const HINT: Effects = Effects::HINT;

const fn fx(a: Effects, b: Effects) -> Effects {
    a.union(b)
}
const fn fx3(a: Effects, b: Effects, c: Effects) -> Effects {
    a.union(b).union(c)
}
const fn fx4(a: Effects, b: Effects, c: Effects, d: Effects) -> Effects {
    a.union(b).union(c).union(d)
}

// Arch-/family-specific target lists (see the "Target ISA Notes" of each instruction).
/// `sm_90a` only (wgmma).
const SM90A: &[ArchTarget] = &[ArchTarget::a(90)];
/// tcgen05 and other Blackwell datacenter features: sm_100a, sm_101a (renamed sm_110a),
/// sm_100f/sm_110f or higher in the family (sm_103a is covered by sm_100f).
const SM100_FAM: &[ArchTarget] = &[
    ArchTarget::a(100),
    ArchTarget::a(101),
    ArchTarget::a(110),
    ArchTarget::f(100),
    ArchTarget::f(110),
];
/// The same plus sm_120a / sm_120f.
const SM100_120_FAM: &[ArchTarget] = &[
    ArchTarget::a(100),
    ArchTarget::a(101),
    ArchTarget::a(110),
    ArchTarget::a(120),
    ArchTarget::f(100),
    ArchTarget::f(110),
    ArchTarget::f(120),
];
/// setmaxnreg and tensormap.replace: sm_90a and the Blackwell arch/family targets.
const SM90A_UP: &[ArchTarget] = &[
    ArchTarget::a(90),
    ArchTarget::a(100),
    ArchTarget::a(101),
    ArchTarget::a(110),
    ArchTarget::a(120),
    ArchTarget::f(100),
    ArchTarget::f(110),
    ArchTarget::f(120),
];
/// Only the `a` targets sm_100a, sm_101a (sm_110a): `.kind::i8` of tcgen05.mma.
const SM100A_I8: &[ArchTarget] = &[ArchTarget::a(100), ArchTarget::a(101), ArchTarget::a(110)];
const SM100A_103A: &[ArchTarget] = &[ArchTarget::a(100), ArchTarget::a(103)];
const SM100F: &[ArchTarget] = &[ArchTarget::a(100), ArchTarget::f(100)];
const SM120_FAM: &[ArchTarget] = &[ArchTarget::a(120), ArchTarget::f(120)];
/// multimem with 8-bit float types or `.acc::f16`.
const MULTIMEM_F8: &[ArchTarget] = &[
    ArchTarget::a(100),
    ArchTarget::a(101),
    ArchTarget::a(110),
    ArchTarget::a(120),
    ArchTarget::a(121),
    ArchTarget::f(100),
    ArchTarget::f(110),
];

// Modifier groups for the validity lists.
const INT16_64: &[&str] = &[".u16", ".u32", ".u64", ".s16", ".s32", ".s64"];
const INT32_64: &[&str] = &[".u32", ".u64", ".s32", ".s64"];
const BITS16_64: &[&str] = &[".b16", ".b32", ".b64"];
const ALL_SCALAR: &[&str] = &[
    ".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f32", ".f64",
];
const LDST_TYPES: &[&str] = &[
    ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32",
    ".s64", ".f32", ".f64", ".f16", ".f16x2", ".bf16", ".bf16x2",
];
const RND: &[&str] = &[".rn", ".rz", ".rm", ".rp"];
const HALF: &[&str] = &[".f16", ".f16x2", ".bf16", ".bf16x2"];
const SPACES: &[&str] = &[
    ".global",
    ".shared",
    ".shared::cta",
    ".shared::cluster",
    ".local",
    ".const",
    ".param",
    ".param::entry",
    ".param::func",
];
const SHARED_CTA: &[&str] = &[".shared", ".shared::cta"];
const SCOPES: &[&str] = &[".cta", ".cluster", ".gpu", ".sys"];
const VEC: &[&str] = &[".v2", ".v4", ".v8"];
const CACHE_HINTS: &[&str] = &[
    ".L1::evict_normal",
    ".L1::evict_unchanged",
    ".L1::evict_first",
    ".L1::evict_last",
    ".L1::no_allocate",
    ".L2::evict_normal",
    ".L2::evict_first",
    ".L2::evict_last",
    ".L2::cache_hint",
    ".L2::64B",
    ".L2::128B",
    ".L2::256B",
];
const CTA_GROUP: &[&str] = &[".cta_group::1", ".cta_group::2"];
const DIMS: &[&str] = &[".1d", ".2d", ".3d", ".4d", ".5d"];
const SYNC_ALIGNED: &[&str] = &[".sync", ".aligned"];
const MBAR_TYPE: &[&str] = &[".b64"];

/// The base every entry starts from.
const BASE: Family = Family {
    name: "",
    sections: &[],
    category: Category::IntegerArithmetic,
    min_ptx: 10,
    min_sm: 0,
    arch: &[],
    effects: E_NONE,
    wide_registers: false,
    variants: &[],
    reqs: &[],
    effect_rules: &[],
    modifiers: &[],
    deprecated: None,
    removed_on: None,
    uncertain: None,
};

// Shared operand lists.
const UNARY: &[Variant] = &[v!([dst("d", N0), src("a", N0)])];
const BINARY: &[Variant] = &[v!([dst("d", N0), src("a", N0), src("b", N0)])];
const TERNARY: &[Variant] = &[v!([dst("d", N0), src("a", N0), src("b", N0), src("c", N0)])];
const NO_OPERANDS: &[Variant] = &[v!([])];

/// `add`/`sub` with an optional mixed-precision form (`add.f32.f16 d, a, c`).
const ADD_SUB: &[Variant] = &[
    v!(All(&[TypeIn(0, &[".f32"]), TypeIn(1, &[".f16", ".bf16"])]) => [
        dst("d", N0),
        src("a", N1),
        src("c", N0),
    ]),
    v!([dst("d", N0), src("a", N0), src("b", N0)]),
];

const HALF_REQS_ARITH: [Req; 2] = [
    r!(Any(&[".f16", ".f16x2"]), 42, 53),
    r!(Any(&[".bf16", ".bf16x2"]), 78, 90),
];

const MIXED: Cond = All(&[TypeIn(0, &[".f32"]), TypeIn(1, &[".f16", ".bf16"])]);

/// Scalar video instructions (`vadd`, `vsub`, `vabsdiff`, `vmin`, `vmax`, `vshl`, `vshr`).
const VIDEO_SCALAR: &[Variant] = &[v!([
    dst("d", N0),
    src("a", N1),
    src("b", N2),
    src("c", N0).opt()
])];
const VIDEO_SIMD: &[Variant] = &[v!([dst("d", N0), src("a", N1), src("b", N2), src("c", N0)])];
const VIDEO_MODS: &[&str] = &[
    ".u32", ".s32", ".sat", ".add", ".min", ".max", ".clamp", ".wrap",
];

const fn video(name: &'static str, simd: bool) -> Family {
    Family {
        name,
        sections: if simd { &["9.7.18.2"] } else { &["9.7.18.1"] },
        category: Category::Video,
        min_ptx: if simd { 30 } else { 20 },
        min_sm: if simd { 30 } else { 20 },
        variants: if simd { VIDEO_SIMD } else { VIDEO_SCALAR },
        modifiers: &[VIDEO_MODS],
        uncertain: Some("operand types of video instructions: c taken as the destination type"),
        ..BASE
    }
}

// mma fragments.
const FRAG_D: Slot = dst("d", Ty::Frag(0)).vec(Vecn::Frag);
const FRAG_A: Slot = src("a", Ty::Frag(1)).vec(Vecn::Frag);
const FRAG_B: Slot = src("b", Ty::Frag(2)).vec(Vecn::Frag);
const FRAG_C: Slot = src("c", Ty::Frag(3)).vec(Vecn::Frag);
/// `mma` block-scale operands: `scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {...}`.
const SCALE_A: Slot = src("scale-a-data", B32);
const SCALE_A_ID: Slot = src("{byte-id-a, thread-id-a}", U16).vec(Vecn::Fixed(2));
const SCALE_B: Slot = src("scale-b-data", B32);
const SCALE_B_ID: Slot = src("{byte-id-b, thread-id-b}", U16).vec(Vecn::Fixed(2));

// wgmma operands: A is a 64-bit matrix descriptor or a fragment of .b32 registers.
const WG_A_FRAG: Slot = src("a", B32).vec(Vecn::Frag);
const WG_D: Slot = Slot::new("d", DstSrc, Ty::Frag(0)).vec(Vecn::Frag);
const WG_A: Slot = src("a-desc", B64).alt(&WG_A_FRAG);
const WG_B: Slot = src("b-desc", B64);
const WG_SCALE_D: Slot = psrc("scale-d");
const WG_IMM_SCALE_A: Slot = imm("imm-scale-a", S32);
const WG_IMM_SCALE_B: Slot = imm("imm-scale-b", S32);
const WG_IMM_TRANS_A: Slot = imm("imm-trans-a", S32);
const WG_IMM_TRANS_B: Slot = imm("imm-trans-b", S32);
const WG_SP_META: Slot = src("sp-meta", B32);
const WG_SP_SEL: Slot = imm("sp-sel", U32);
const WG_HALF: Cond = TypeIn(1, &[".f16", ".bf16"]);
const WG_INT: Cond = TypeIn(0, &[".s32"]);

// tcgen05.mma operands.
const TC_A_TMEM: Slot = addr("[a-tmem]", TMEM);
const TC_D: Slot = addr("[d-tmem]", TMEM);
const TC_A: Slot = src("a-desc", B64).alt(&TC_A_TMEM);
const TC_B: Slot = src("b-desc", B64);
const TC_IDESC: Slot = src("idesc", B32);
const TC_SP_META: Slot = addr("[sp-meta-tmem]", TMEM);
const TC_SCALE_A: Slot = addr("[scale-A-tmem]", TMEM);
const TC_SCALE_B: Slot = addr("[scale-B-tmem]", TMEM);
const TC_DISABLE: Slot = src("disable-output-lane", B32).vec(Vecn::Frag).opt();
const TC_ENABLE: Slot = psrc("enable-input-d");
const TC_SCALE_D: Slot = imm("scale-input-d", U32).opt();
const TC_ZERO_COL: Slot = src("zero-column-mask-desc", B64).opt();
const TC_MMA_MODS: &[&str] = &[
    ".cta_group::1",
    ".cta_group::2",
    ".kind::f16",
    ".kind::tf32",
    ".kind::f8f6f4",
    ".kind::i8",
    ".kind::mxf8f6f4",
    ".kind::mxf4",
    ".kind::mxf4nvf4",
    ".block_scale",
    ".scale_vec::1X",
    ".scale_vec::2X",
    ".scale_vec::4X",
    ".block16",
    ".block32",
    ".ashift",
    ".collector::a::fill",
    ".collector::a::use",
    ".collector::a::lastuse",
    ".collector::a::discard",
    ".collector::b*::fill",
    ".collector::b*::use",
    ".collector::b*::lastuse",
    ".collector::b*::discard",
];
const TC_MMA_REQS: &[Req] = &[
    r!(Has(".kind::mxf4nvf4"), 87, 100),
    r!(Any(&[".block16", ".block32"]), 88, 100),
    r!(Has(".kind::i8"), 86, 100, SM100A_I8),
    r!(
        Any(&[".scale_vec::1X", ".scale_vec::2X", ".scale_vec::4X"]),
        86,
        100,
        &[ArchTarget::a(100), ArchTarget::a(103), ArchTarget::a(110)]
    ),
];
const TC_EFFECTS: Effects = fx3(SIDE, ASYNC, WARP);

// Memory-model qualifiers shared by ld/st/atom/red.
const SEM_ACQ: Cond = Any(&[".acquire", ".acq_rel", ".sc"]);
const SEM_REL: Cond = Any(&[".release", ".acq_rel", ".sc"]);

/// Requirements common to `ld` and `st` (and `ld.global.nc` where they apply).
const LDST_REQS: &[Req] = &[
    r!(Any(&[".relaxed", ".acquire", ".release", ".weak"]), 60, 70),
    r!(Any(&[".cta", ".gpu", ".sys"]), 60, 70),
    r!(Has(".cluster"), 78, 90),
    r!(Has(".shared::cta"), 78, 30),
    r!(Has(".shared::cluster"), 78, 90),
    r!(
        Any(&[
            ".L1::evict_normal",
            ".L1::evict_unchanged",
            ".L1::evict_first",
            ".L1::evict_last",
            ".L1::no_allocate"
        ]),
        74,
        70
    ),
    r!(Any(&[".L2::64B", ".L2::128B"]), 74, 75),
    r!(Any(&[".L2::256B", ".L2::cache_hint"]), 74, 80),
    r!(Has(".mmio"), 82, 70),
    r!(Any(&[".param::entry", ".param::func"]), 83, 0),
    r!(Has(".b128"), 83, 70),
    r!(All(&[Has(".b128"), Has(".sys")]), 84, 70),
    r!(
        Any(&[".L2::evict_normal", ".L2::evict_first", ".L2::evict_last"]),
        88,
        100
    ),
    r!(Has(".v8"), 88, 100),
    r!(All(&[Has(".v4"), TypeBits(64)]), 88, 100),
];

const ATOM_REQS: &[Req] = &[
    r!(Has(".shared"), 12, 12),
    r!(
        All(&[TypeBits(64), Any(&[".add", ".cas", ".exch"])]),
        12,
        12
    ),
    r!(All(&[Has(".add"), Has(".f32")]), 20, 20),
    r!(
        All(&[TypeBits(64), Any(&[".and", ".or", ".xor", ".min", ".max"])]),
        31,
        32
    ),
    r!(All(&[Has(".add"), Has(".f64")]), 50, 60),
    r!(Any(&[".cta", ".gpu", ".sys"]), 50, 60),
    r!(
        Any(&[".relaxed", ".acquire", ".release", ".acq_rel"]),
        60,
        70
    ),
    r!(Has(".f16x2"), 62, 60),
    r!(
        AnyOf(&[Has(".f16"), All(&[Has(".cas"), Has(".b16")])]),
        63,
        70
    ),
    r!(Has(".L2::cache_hint"), 74, 80),
    r!(Any(&[".bf16", ".bf16x2"]), 78, 90),
    r!(Has(".cluster"), 78, 90),
    r!(Has(".shared::cta"), 78, 30),
    r!(Has(".shared::cluster"), 78, 90),
    r!(Any(&[".v2", ".v4", ".v8"]), 81, 90),
    r!(Has(".b128"), 83, 90),
    r!(All(&[Has(".b128"), Has(".sys")]), 84, 90),
];
const ATOM_MODS: &[&str] = &[
    ".and",
    ".or",
    ".xor",
    ".cas",
    ".exch",
    ".add",
    ".inc",
    ".dec",
    ".min",
    ".max",
    ".noftz",
    ".relaxed",
    ".acquire",
    ".release",
    ".acq_rel",
    ".b16",
    ".b32",
    ".b64",
    ".b128",
    ".u32",
    ".u64",
    ".s32",
    ".s64",
    ".f16",
    ".f16x2",
    ".bf16",
    ".bf16x2",
    ".f32",
    ".f64",
    ".L2::cache_hint",
];

/// tcgen05.ld / tcgen05.st shapes and counts.
const TC_LDST_MODS: &[&str] = &[
    ".16x64b",
    ".16x128b",
    ".16x256b",
    ".32x32b",
    ".16x32bx2",
    ".x1",
    ".x2",
    ".x4",
    ".x8",
    ".x16",
    ".x32",
    ".x64",
    ".x128",
    ".pack::16b",
    ".unpack::16b",
    ".b32",
];

const MBAR_ARRIVE_VARIANTS: &[Variant] = &[
    v!(Has(".expect_tx") => [
        dst("state", B64),
        addr("[addr]", SP0),
        src("txCount", U32),
    ]),
    v!(Has(".noComplete") => [
        dst("state", B64),
        addr("[addr]", SP0),
        src("count", U32),
    ]),
    v!([
        dst("state", B64),
        addr("[addr]", SP0),
        src("count", U32).opt()
    ]),
];
const MBAR_ARRIVE_REQS: &[Req] = &[
    r!(Has(".shared::cta"), 78, 80),
    r!(
        All(&[
            Operands(3),
            Not(&Has(".noComplete")),
            Not(&Has(".expect_tx"))
        ]),
        78,
        90
    ),
    r!(Has(".expect_tx"), 80, 90),
    r!(Has(".shared::cluster"), 80, 90),
    r!(Any(&[".release", ".cta"]), 80, 80),
    r!(Has(".cluster"), 80, 90),
    r!(Has(".relaxed"), 86, 90),
];
const MBAR_ARRIVE_MODS: &[&str] = &[
    ".expect_tx",
    ".noComplete",
    ".release",
    ".relaxed",
    ".cta",
    ".cluster",
    ".shared",
    ".shared::cta",
    ".shared::cluster",
    ".b64",
];

const MBAR_WAIT_MODS: &[&str] = &[
    ".parity",
    ".acquire",
    ".relaxed",
    ".cta",
    ".cluster",
    ".shared",
    ".shared::cta",
    ".b64",
];

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

pub(crate) static FAMILIES: &[Family] = &[
    // ----- 9.7.1 Integer arithmetic, 9.7.3 floating point, 9.7.4 half, 9.7.5 mixed -------------
    Family {
        name: "add",
        sections: &["9.7.1.1", "9.7.3.3", "9.7.4.1", "9.7.5.1"],
        variants: ADD_SUB,
        reqs: &[
            r!(Any(&[".u16x2", ".s16x2"]), 80, 90),
            r!(Has(".f64"), 10, 13),
            r!(Has(".f32x2"), 86, 100),
            HALF_REQS_ARITH[0],
            HALF_REQS_ARITH[1],
            r!(MIXED, 86, 100),
        ],
        modifiers: &[
            INT16_64,
            &[".u16x2", ".s16x2", ".sat", ".ftz", ".f32", ".f64", ".f32x2"],
            RND,
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "sub",
        sections: &["9.7.1.2", "9.7.3.4", "9.7.4.2", "9.7.5.2"],
        variants: ADD_SUB,
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(Has(".f32x2"), 86, 100),
            HALF_REQS_ARITH[0],
            HALF_REQS_ARITH[1],
            r!(MIXED, 86, 100),
        ],
        modifiers: &[
            INT16_64,
            &[".sat", ".ftz", ".f32", ".f64", ".f32x2"],
            RND,
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "mul",
        sections: &["9.7.1.3", "9.7.3.5", "9.7.4.3"],
        variants: &[v!([
            dst("d", Ty::WideIf(0, ".wide")),
            src("a", N0),
            src("b", N0)
        ])],
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(Has(".f32x2"), 86, 100),
            HALF_REQS_ARITH[0],
            HALF_REQS_ARITH[1],
        ],
        modifiers: &[
            INT16_64,
            &[
                ".hi", ".lo", ".wide", ".sat", ".ftz", ".f32", ".f64", ".f32x2",
            ],
            RND,
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "mad",
        sections: &["9.7.1.4", "9.7.3.7"],
        variants: &[v!([
            dst("d", Ty::WideIf(0, ".wide")),
            src("a", N0),
            src("b", N0),
            src("c", Ty::WideIf(0, ".wide"))
        ])],
        reqs: &[r!(Has(".f64"), 14, 13)],
        modifiers: &[
            INT16_64,
            &[".hi", ".lo", ".wide", ".sat", ".ftz", ".f32", ".f64"],
            RND,
        ],
        ..BASE
    },
    Family {
        name: "mul24",
        sections: &["9.7.1.5"],
        variants: BINARY,
        modifiers: &[&[".hi", ".lo", ".u32", ".s32"]],
        ..BASE
    },
    Family {
        name: "mad24",
        sections: &["9.7.1.6"],
        variants: TERNARY,
        modifiers: &[&[".hi", ".lo", ".sat", ".u32", ".s32"]],
        ..BASE
    },
    Family {
        name: "sad",
        sections: &["9.7.1.7"],
        variants: TERNARY,
        modifiers: &[INT16_64],
        ..BASE
    },
    Family {
        name: "div",
        sections: &["9.7.1.8", "9.7.3.8"],
        variants: BINARY,
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(All(&[Has(".f32"), Any(RND)]), 14, 20),
        ],
        modifiers: &[INT16_64, &[".approx", ".full", ".ftz", ".f32", ".f64"], RND],
        ..BASE
    },
    Family {
        name: "rem",
        sections: &["9.7.1.9"],
        variants: BINARY,
        modifiers: &[INT16_64],
        ..BASE
    },
    Family {
        name: "abs",
        sections: &["9.7.1.10", "9.7.3.9", "9.7.4.6"],
        variants: UNARY,
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(Any(&[".f16", ".f16x2"]), 65, 53),
            r!(Any(&[".bf16", ".bf16x2"]), 70, 80),
        ],
        modifiers: &[&[".s16", ".s32", ".s64", ".ftz", ".f32", ".f64"], HALF],
        ..BASE
    },
    Family {
        name: "neg",
        sections: &["9.7.1.11", "9.7.3.10", "9.7.4.5"],
        variants: UNARY,
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(Any(&[".f16", ".f16x2"]), 60, 53),
            r!(Any(&[".bf16", ".bf16x2"]), 70, 80),
        ],
        modifiers: &[&[".s16", ".s32", ".s64", ".ftz", ".f32", ".f64"], HALF],
        ..BASE
    },
    Family {
        name: "min",
        sections: &["9.7.1.12", "9.7.3.11", "9.7.4.7"],
        variants: &[v!([
            dst("d", N0),
            src("a", N0),
            src("b", N0),
            src("c", N0).opt()
        ])],
        reqs: &[
            r!(Any(&[".u16x2", ".s16x2", ".relu"]), 80, 90),
            r!(Has(".f64"), 10, 13),
            r!(Has(".NaN"), 70, 80),
            r!(Any(HALF), 70, 80),
            r!(Has(".xorsign"), 72, 86),
            r!(Operands(4), 88, 100),
        ],
        modifiers: &[
            INT16_64,
            &[
                ".u16x2", ".s16x2", ".relu", ".ftz", ".NaN", ".xorsign", ".abs", ".f32", ".f64",
            ],
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "max",
        sections: &["9.7.1.13", "9.7.3.12", "9.7.4.8"],
        variants: &[v!([
            dst("d", N0),
            src("a", N0),
            src("b", N0),
            src("c", N0).opt()
        ])],
        reqs: &[
            r!(Any(&[".u16x2", ".s16x2", ".relu"]), 80, 90),
            r!(Has(".f64"), 10, 13),
            r!(Has(".NaN"), 70, 80),
            r!(Any(HALF), 70, 80),
            r!(Has(".xorsign"), 72, 86),
            r!(Operands(4), 88, 100),
        ],
        modifiers: &[
            INT16_64,
            &[
                ".u16x2", ".s16x2", ".relu", ".ftz", ".NaN", ".xorsign", ".abs", ".f32", ".f64",
            ],
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "popc",
        sections: &["9.7.1.14"],
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([dst("d", U32), src("a", N0)])],
        modifiers: &[&[".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "clz",
        sections: &["9.7.1.15"],
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([dst("d", U32), src("a", N0)])],
        modifiers: &[&[".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "bfind",
        sections: &["9.7.1.16"],
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([dst("d", U32), src("a", N0)])],
        modifiers: &[INT32_64, &[".shiftamt"]],
        ..BASE
    },
    Family {
        name: "fns",
        sections: &["9.7.1.17"],
        min_ptx: 60,
        min_sm: 30,
        variants: &[v!([
            dst("d", B32),
            src("mask", B32),
            src("base", U32),
            src("offset", S32)
        ])],
        modifiers: &[&[".b32"]],
        ..BASE
    },
    Family {
        name: "brev",
        sections: &["9.7.1.18"],
        min_ptx: 20,
        min_sm: 20,
        variants: UNARY,
        modifiers: &[&[".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "bfe",
        sections: &["9.7.1.19"],
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([
            dst("d", N0),
            src("a", N0),
            src("b", U32),
            src("c", U32)
        ])],
        modifiers: &[INT32_64],
        ..BASE
    },
    Family {
        name: "bfi",
        sections: &["9.7.1.20"],
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([
            dst("f", N0),
            src("a", N0),
            src("b", N0),
            src("c", U32),
            src("d", U32)
        ])],
        modifiers: &[&[".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "szext",
        sections: &["9.7.1.21"],
        min_ptx: 76,
        min_sm: 70,
        variants: &[v!([dst("d", N0), src("a", N0), src("b", U32)])],
        modifiers: &[&[".clamp", ".wrap", ".u32", ".s32"]],
        ..BASE
    },
    Family {
        name: "bmsk",
        sections: &["9.7.1.22"],
        min_ptx: 76,
        min_sm: 70,
        variants: &[v!([dst("d", B32), src("a", U32), src("b", U32)])],
        modifiers: &[&[".clamp", ".wrap", ".b32"]],
        ..BASE
    },
    Family {
        name: "dp4a",
        sections: &["9.7.1.23"],
        min_ptx: 50,
        min_sm: 61,
        variants: &[v!([
            dst("d", U32),
            src("a", N0),
            src("b", N1),
            src("c", U32)
        ])],
        modifiers: &[&[".u32", ".s32"]],
        ..BASE
    },
    Family {
        name: "dp2a",
        sections: &["9.7.1.24"],
        min_ptx: 50,
        min_sm: 61,
        variants: &[v!([
            dst("d", U32),
            src("a", N0),
            src("b", N1),
            src("c", U32)
        ])],
        modifiers: &[&[".lo", ".hi", ".u32", ".s32"]],
        ..BASE
    },
    // ----- 9.7.2 Extended precision -----------------------------------------------------------
    Family {
        name: "add.cc",
        sections: &["9.7.2.1"],
        category: Category::ExtendedPrecision,
        min_ptx: 12,
        variants: BINARY,
        reqs: &[r!(TypeBits(64), 43, 20)],
        modifiers: &[INT32_64],
        ..BASE
    },
    Family {
        name: "addc",
        sections: &["9.7.2.2"],
        category: Category::ExtendedPrecision,
        min_ptx: 12,
        variants: BINARY,
        reqs: &[r!(TypeBits(64), 43, 20)],
        modifiers: &[INT32_64, &[".cc"]],
        ..BASE
    },
    Family {
        name: "sub.cc",
        sections: &["9.7.2.3"],
        category: Category::ExtendedPrecision,
        min_ptx: 12,
        variants: BINARY,
        reqs: &[r!(TypeBits(64), 43, 20)],
        modifiers: &[INT32_64],
        ..BASE
    },
    Family {
        name: "subc",
        sections: &["9.7.2.4"],
        category: Category::ExtendedPrecision,
        min_ptx: 12,
        variants: BINARY,
        reqs: &[r!(TypeBits(64), 43, 20)],
        modifiers: &[INT32_64, &[".cc"]],
        ..BASE
    },
    Family {
        name: "mad.cc",
        sections: &["9.7.2.5"],
        category: Category::ExtendedPrecision,
        min_ptx: 30,
        min_sm: 20,
        variants: TERNARY,
        reqs: &[r!(TypeBits(64), 43, 20)],
        modifiers: &[INT32_64, &[".hi", ".lo"]],
        ..BASE
    },
    Family {
        name: "madc",
        sections: &["9.7.2.6"],
        category: Category::ExtendedPrecision,
        min_ptx: 30,
        min_sm: 20,
        variants: TERNARY,
        reqs: &[r!(TypeBits(64), 43, 20)],
        modifiers: &[INT32_64, &[".hi", ".lo", ".cc"]],
        ..BASE
    },
    // ----- 9.7.3 Floating point -------------------------------------------------------------
    Family {
        name: "testp",
        sections: &["9.7.3.1"],
        category: Category::FloatingPoint,
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([pdst("p"), src("a", N0)])],
        modifiers: &[&[
            ".finite",
            ".infinite",
            ".number",
            ".notanumber",
            ".normal",
            ".subnormal",
            ".f32",
            ".f64",
        ]],
        ..BASE
    },
    Family {
        name: "copysign",
        sections: &["9.7.3.2"],
        category: Category::FloatingPoint,
        min_ptx: 20,
        min_sm: 20,
        variants: BINARY,
        modifiers: &[&[".f32", ".f64"]],
        ..BASE
    },
    Family {
        name: "fma",
        sections: &["9.7.3.6", "9.7.4.4", "9.7.5.3"],
        category: Category::FloatingPoint,
        min_ptx: 20,
        min_sm: 20,
        variants: &[
            v!(MIXED => [dst("d", N0), src("a", N1), src("b", N1), src("c", N0)]),
            v!([dst("d", N0), src("a", N0), src("b", N0), src("c", N0)]),
        ],
        reqs: &[
            r!(Has(".f64"), 14, 13),
            r!(Has(".f32x2"), 86, 100),
            r!(Any(&[".f16", ".f16x2"]), 42, 53),
            r!(All(&[Has(".relu"), Any(&[".f16", ".f16x2"])]), 70, 80),
            r!(Any(&[".bf16", ".bf16x2"]), 70, 80),
            r!(Has(".oob"), 81, 90),
            r!(MIXED, 86, 100),
        ],
        modifiers: &[
            &[".ftz", ".sat", ".relu", ".oob", ".f32", ".f64", ".f32x2"],
            RND,
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "rcp",
        sections: &["9.7.3.13"],
        category: Category::FloatingPoint,
        variants: UNARY,
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(All(&[Has(".f32"), Any(RND)]), 20, 20),
        ],
        modifiers: &[&[".approx", ".ftz", ".f32", ".f64"], RND],
        ..BASE
    },
    Family {
        name: "rcp.approx.ftz.f64",
        sections: &["9.7.3.14"],
        category: Category::FloatingPoint,
        min_ptx: 21,
        min_sm: 20,
        variants: UNARY,
        ..BASE
    },
    Family {
        name: "sqrt",
        sections: &["9.7.3.15"],
        category: Category::FloatingPoint,
        variants: UNARY,
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(All(&[Has(".f32"), Any(RND)]), 20, 20),
        ],
        modifiers: &[&[".approx", ".ftz", ".f32", ".f64"], RND],
        ..BASE
    },
    Family {
        name: "rsqrt",
        sections: &["9.7.3.16"],
        category: Category::FloatingPoint,
        variants: UNARY,
        reqs: &[r!(Has(".f64"), 10, 13)],
        modifiers: &[&[".approx", ".ftz", ".f32", ".f64"]],
        ..BASE
    },
    Family {
        name: "rsqrt.approx.ftz.f64",
        sections: &["9.7.3.17"],
        category: Category::FloatingPoint,
        min_ptx: 40,
        min_sm: 20,
        variants: UNARY,
        ..BASE
    },
    Family {
        name: "sin",
        sections: &["9.7.3.18"],
        category: Category::FloatingPoint,
        variants: UNARY,
        modifiers: &[&[".approx", ".ftz", ".f32"]],
        ..BASE
    },
    Family {
        name: "cos",
        sections: &["9.7.3.19"],
        category: Category::FloatingPoint,
        variants: UNARY,
        modifiers: &[&[".approx", ".ftz", ".f32"]],
        ..BASE
    },
    Family {
        name: "lg2",
        sections: &["9.7.3.20"],
        category: Category::FloatingPoint,
        variants: UNARY,
        modifiers: &[&[".approx", ".ftz", ".f32"]],
        ..BASE
    },
    Family {
        name: "ex2",
        sections: &["9.7.3.21", "9.7.4.10"],
        category: Category::FloatingPoint,
        variants: UNARY,
        reqs: &[
            r!(Any(&[".f16", ".f16x2"]), 70, 75),
            r!(Any(&[".bf16", ".bf16x2"]), 78, 90),
        ],
        modifiers: &[&[".approx", ".ftz", ".f32"], HALF],
        ..BASE
    },
    Family {
        name: "tanh",
        sections: &["9.7.3.22", "9.7.4.9"],
        category: Category::FloatingPoint,
        min_ptx: 70,
        min_sm: 75,
        variants: UNARY,
        reqs: &[r!(Any(&[".bf16", ".bf16x2"]), 78, 90)],
        modifiers: &[&[".approx", ".f32"], HALF],
        ..BASE
    },
    // ----- 9.7.6 / 9.7.7 Comparison and selection --------------------------------------------
    Family {
        name: "set",
        sections: &["9.7.6.1", "9.7.7.1"],
        category: Category::Comparison,
        variants: &[
            v!(Any(&[".and", ".or", ".xor"]) => [
                dst("d", N0),
                src("a", N1),
                src("b", N1),
                psrc("c"),
            ]),
            v!([dst("d", N0), src("a", N1), src("b", N1)]),
        ],
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(Any(&[".f16", ".f16x2"]), 42, 53),
            r!(
                All(&[
                    TypeIn(1, &[".f16"]),
                    TypeIn(0, &[".u16", ".s16", ".u32", ".s32"])
                ]),
                65,
                53
            ),
            r!(Any(&[".bf16", ".bf16x2"]), 78, 90),
        ],
        modifiers: &[
            ALL_SCALAR,
            &[
                ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ",
                ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan", ".and", ".or", ".xor",
                ".ftz",
            ],
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "setp",
        sections: &["9.7.6.2", "9.7.7.2"],
        category: Category::Comparison,
        variants: &[
            v!(Any(&[".and", ".or", ".xor"]) => [
                pdst("p").pair(PredDst),
                src("a", N0),
                src("b", N0),
                psrc("c"),
            ]),
            v!([pdst("p").pair(PredDst), src("a", N0), src("b", N0)]),
        ],
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(Any(&[".f16", ".f16x2"]), 42, 53),
            r!(Any(&[".bf16", ".bf16x2"]), 78, 90),
        ],
        modifiers: &[
            ALL_SCALAR,
            &[
                ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ",
                ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan", ".and", ".or", ".xor",
                ".ftz",
            ],
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "selp",
        sections: &["9.7.6.3"],
        category: Category::Comparison,
        variants: &[v!([dst("d", N0), src("a", N0), src("b", N0), psrc("c")])],
        reqs: &[r!(Has(".f64"), 10, 13)],
        modifiers: &[ALL_SCALAR],
        ..BASE
    },
    Family {
        name: "slct",
        sections: &["9.7.6.4"],
        category: Category::Comparison,
        variants: &[v!([dst("d", N0), src("a", N0), src("b", N0), src("c", N1)])],
        reqs: &[r!(Has(".f64"), 10, 13)],
        modifiers: &[ALL_SCALAR, &[".ftz"]],
        ..BASE
    },
    // ----- 9.7.8 Logic and shift -------------------------------------------------------------
    Family {
        name: "and",
        sections: &["9.7.8.1"],
        category: Category::LogicShift,
        variants: BINARY,
        modifiers: &[&[".pred", ".b16", ".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "or",
        sections: &["9.7.8.2"],
        category: Category::LogicShift,
        variants: BINARY,
        modifiers: &[&[".pred", ".b16", ".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "xor",
        sections: &["9.7.8.3"],
        category: Category::LogicShift,
        variants: BINARY,
        modifiers: &[&[".pred", ".b16", ".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "not",
        sections: &["9.7.8.4"],
        category: Category::LogicShift,
        variants: UNARY,
        modifiers: &[&[".pred", ".b16", ".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "cnot",
        sections: &["9.7.8.5"],
        category: Category::LogicShift,
        variants: UNARY,
        modifiers: &[BITS16_64],
        ..BASE
    },
    Family {
        name: "lop3",
        sections: &["9.7.8.6"],
        category: Category::LogicShift,
        min_ptx: 43,
        min_sm: 50,
        variants: &[
            v!(Any(&[".or", ".and"]) => [
                dst("d", B32).pair(PredDst),
                src("a", B32),
                src("b", B32),
                src("c", B32),
                imm("immLut", B32),
                psrc("q"),
            ]),
            v!([
                dst("d", B32),
                src("a", B32),
                src("b", B32),
                src("c", B32),
                imm("immLut", B32),
            ]),
        ],
        reqs: &[r!(Any(&[".or", ".and"]), 82, 70)],
        modifiers: &[&[".b32", ".or", ".and"]],
        ..BASE
    },
    Family {
        name: "shf",
        sections: &["9.7.8.7"],
        category: Category::LogicShift,
        min_ptx: 31,
        min_sm: 32,
        variants: &[v!([
            dst("d", B32),
            src("a", B32),
            src("b", B32),
            src("c", U32)
        ])],
        modifiers: &[&[".l", ".r", ".clamp", ".wrap", ".b32"]],
        ..BASE
    },
    Family {
        name: "shl",
        sections: &["9.7.8.8"],
        category: Category::LogicShift,
        variants: &[v!([dst("d", N0), src("a", N0), src("b", U32)])],
        modifiers: &[BITS16_64],
        ..BASE
    },
    Family {
        name: "shr",
        sections: &["9.7.8.9"],
        category: Category::LogicShift,
        variants: &[v!([dst("d", N0), src("a", N0), src("b", U32)])],
        modifiers: &[BITS16_64, INT16_64],
        ..BASE
    },
    // ----- 9.7.9 Data movement and conversion ------------------------------------------------
    Family {
        name: "mov",
        sections: &["9.7.9.3", "9.7.9.4"],
        category: Category::DataMovement,
        variants: &[
            // `mov.v4.u32 {x, y, z, _}, %clusterid`: accepted by ptxas, not in the ISA syntax.
            v!(Any(&[".v2", ".v4"]) => [dst("d", N0).vec(Vecn::FromV), src("a", N0)]),
            v!([
                dst("d", N0).vec(Vecn::Packable),
                src("a", N0).vec(Vecn::Packable)
            ]),
        ],
        reqs: &[r!(Has(".f64"), 10, 13), r!(Has(".b128"), 83, 70)],
        modifiers: &[
            ALL_SCALAR,
            &[
                ".pred", ".b128", ".f16", ".f16x2", ".bf16", ".bf16x2", ".v2", ".v4",
            ],
        ],
        uncertain: Some(
            ".v2/.v4 vector moves (mov.v4.u32 {x, y, z, _}, %clusterid) are accepted by ptxas and used in real code, though the ISA syntax does not list them",
        ),
        ..BASE
    },
    Family {
        name: "shfl",
        sections: &["9.7.9.5"],
        category: Category::DataMovement,
        min_ptx: 30,
        min_sm: 30,
        effects: WARP,
        variants: &[v!([
            dst("d", B32).pair(PredDst),
            src("a", B32),
            src("b", U32),
            src("c", U32)
        ])],
        modifiers: &[&[".up", ".down", ".bfly", ".idx", ".b32"]],
        removed_on: Some((64, 70)),
        deprecated: Some(
            "shfl without .sync is deprecated since PTX ISA 6.0 and not supported on sm_70 or \
             higher from PTX ISA 6.4: use shfl.sync",
        ),
        ..BASE
    },
    Family {
        name: "shfl.sync",
        sections: &["9.7.9.6"],
        category: Category::DataMovement,
        min_ptx: 60,
        min_sm: 30,
        effects: WARP,
        variants: &[v!([
            dst("d", B32).pair(PredDst),
            src("a", B32),
            src("b", U32),
            src("c", U32),
            MEMBERMASK
        ])],
        modifiers: &[&[".up", ".down", ".bfly", ".idx", ".b32"]],
        ..BASE
    },
    Family {
        name: "prmt",
        sections: &["9.7.9.7"],
        category: Category::DataMovement,
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([
            dst("d", B32),
            src("a", B32),
            src("b", B32),
            src("c", B32)
        ])],
        modifiers: &[&[".b32", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"]],
        ..BASE
    },
    Family {
        name: "ld",
        sections: &["9.7.9.8"],
        category: Category::DataMovement,
        effects: LOAD,
        wide_registers: true,
        variants: &[v!([
            dst("d", N0).vec(Vecn::FromV),
            addr("[a]", SP0),
            CACHE_POLICY
        ])],
        reqs: LDST_REQS,
        effect_rules: &[
            // `.cv` fetches again on every execution (the polling cache operator).
            e!(Any(&[".volatile", ".relaxed", ".acquire", ".mmio", ".cv"]), VREAD),
            e!(Has(".acquire"), FENCE),
        ],
        modifiers: &[
            LDST_TYPES,
            SPACES,
            VEC,
            CACHE_HINTS,
            SCOPES,
            &[
                ".weak",
                ".volatile",
                ".relaxed",
                ".acquire",
                ".mmio",
                ".ca",
                ".cg",
                ".cs",
                ".lu",
                ".cv",
                ".nc",
            ],
        ],
        ..BASE
    },
    Family {
        name: "ld.global.nc",
        sections: &["9.7.9.9"],
        category: Category::DataMovement,
        min_ptx: 31,
        min_sm: 32,
        effects: LOAD,
        wide_registers: true,
        variants: &[v!([
            dst("d", N0).vec(Vecn::FromV),
            addr("[a]", SP0),
            CACHE_POLICY
        ])],
        reqs: LDST_REQS,
        modifiers: &[LDST_TYPES, VEC, CACHE_HINTS, &[".ca", ".cg", ".cs"]],
        ..BASE
    },
    Family {
        name: "ldu",
        sections: &["9.7.9.10"],
        category: Category::DataMovement,
        min_ptx: 20,
        min_sm: 20,
        effects: LOAD,
        wide_registers: true,
        variants: &[v!([dst("d", N0).vec(Vecn::FromV), addr("[a]", SP0)])],
        reqs: &[r!(Has(".b128"), 83, 70)],
        modifiers: &[LDST_TYPES, &[".global", ".v2", ".v4"]],
        uncertain: Some("wider registers: the ISA names only ld, st and cvt; ldu is a load"),
        ..BASE
    },
    Family {
        name: "st",
        sections: &["9.7.9.11"],
        category: Category::DataMovement,
        effects: STORE,
        wide_registers: true,
        variants: &[v!([
            addr("[a]", SP0),
            src("b", N0).vec(Vecn::FromV),
            CACHE_POLICY
        ])],
        reqs: LDST_REQS,
        effect_rules: &[
            e!(Has(".release"), FENCE),
            e!(Any(&[".volatile", ".mmio"]), SIDE),
        ],
        modifiers: &[
            LDST_TYPES,
            SPACES,
            VEC,
            CACHE_HINTS,
            SCOPES,
            &[
                ".weak",
                ".volatile",
                ".relaxed",
                ".release",
                ".mmio",
                ".wb",
                ".cg",
                ".cs",
                ".wt",
            ],
        ],
        ..BASE
    },
    Family {
        name: "st.async",
        sections: &["9.7.9.12"],
        category: Category::DataMovement,
        min_ptx: 81,
        min_sm: 90,
        effects: fx(STORE, ASYNC),
        wide_registers: true,
        variants: &[
            v!(Any(&[".global", ".mmio", ".release"]) => [
                addr("[a]", SP0),
                src("b", N0).vec(Vecn::FromV),
            ]),
            v!([
                addr("[a]", SP0),
                src("b", N0).vec(Vecn::FromV),
                addr("[mbar]", SP0),
            ]),
        ],
        reqs: &[r!(
            Any(&[".global", ".mmio", ".release", ".gpu", ".sys"]),
            87,
            100
        )],
        effect_rules: &[e!(Has(".release"), FENCE)],
        modifiers: &[
            LDST_TYPES,
            &[
                ".weak",
                ".release",
                ".mmio",
                ".cluster",
                ".gpu",
                ".sys",
                ".shared::cluster",
                ".global",
                ".mbarrier::complete_tx::bytes",
                ".v2",
                ".v4",
            ],
        ],
        uncertain: Some(
            "wider registers assumed accepted, as for st",
        ),
        ..BASE
    },
    Family {
        name: "st.bulk",
        sections: &["9.7.9.13"],
        category: Category::DataMovement,
        min_ptx: 86,
        min_sm: 100,
        effects: STORE,
        variants: &[v!([
            addr("[a]", SP0),
            src("size", Ty::None),
            imm("initval", B64)
        ])],
        modifiers: &[&[".weak", ".shared::cta"]],
        ..BASE
    },
    Family {
        name: "multimem.ld_reduce",
        sections: &["9.7.9.14"],
        category: Category::DataMovement,
        min_ptx: 81,
        min_sm: 90,
        effects: LOAD,
        variants: &[v!([dst("d", N0).vec(Vecn::FromV), addr("[a]", SP0)])],
        reqs: &[
            r!(Has(".acc::f32"), 82, 90),
            r!(
                Any(&[
                    ".e5m2",
                    ".e5m2x2",
                    ".e5m2x4",
                    ".e4m3",
                    ".e4m3x2",
                    ".e4m3x4",
                    ".acc::f16"
                ]),
                86,
                100,
                MULTIMEM_F8
            ),
        ],
        effect_rules: &[
            e!(Any(&[".relaxed", ".acquire"]), VREAD),
            e!(Has(".acquire"), FENCE),
        ],
        modifiers: &[
            SCOPES,
            VEC,
            &[
                ".weak",
                ".relaxed",
                ".acquire",
                ".global",
                ".min",
                ".max",
                ".add",
                ".and",
                ".or",
                ".xor",
                ".acc::f32",
                ".acc::f16",
                ".b32",
                ".b64",
                ".u32",
                ".u64",
                ".s32",
                ".s64",
                ".f32",
                ".f64",
                ".e5m2",
                ".e5m2x2",
                ".e5m2x4",
                ".e4m3",
                ".e4m3x2",
                ".e4m3x4",
            ],
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "multimem.st",
        sections: &["9.7.9.14"],
        category: Category::DataMovement,
        min_ptx: 81,
        min_sm: 90,
        effects: STORE,
        variants: &[v!([addr("[a]", SP0), src("b", N0).vec(Vecn::FromV)])],
        reqs: &[r!(
            Any(&[".e5m2", ".e5m2x2", ".e5m2x4", ".e4m3", ".e4m3x2", ".e4m3x4"]),
            86,
            100,
            MULTIMEM_F8
        )],
        effect_rules: &[e!(Has(".release"), FENCE)],
        modifiers: &[
            SCOPES,
            VEC,
            &[
                ".weak", ".relaxed", ".release", ".global", ".b32", ".b64", ".u32", ".u64", ".s32",
                ".s64", ".f32", ".f64", ".e5m2", ".e5m2x2", ".e5m2x4", ".e4m3", ".e4m3x2",
                ".e4m3x4",
            ],
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "multimem.red",
        sections: &["9.7.9.14"],
        category: Category::DataMovement,
        min_ptx: 81,
        min_sm: 90,
        effects: fx(ATOMIC, STORE),
        variants: &[v!([addr("[a]", SP0), src("b", N0).vec(Vecn::FromV)])],
        effect_rules: &[e!(Has(".release"), FENCE)],
        modifiers: &[
            SCOPES,
            VEC,
            &[
                ".relaxed", ".release", ".global", ".min", ".max", ".add", ".and", ".or", ".xor",
                ".b32", ".b64", ".u32", ".u64", ".s32", ".s64", ".f32", ".f64",
            ],
            HALF,
        ],
        ..BASE
    },
    Family {
        name: "prefetch",
        sections: &["9.7.9.15"],
        category: Category::DataMovement,
        min_ptx: 20,
        min_sm: 20,
        effects: HINT,
        variants: &[v!([addr("[a]", SP0)])],
        reqs: &[
            r!(Any(&[".L2::evict_last", ".L2::evict_normal"]), 74, 80),
            r!(Has(".tensormap"), 80, 90),
        ],
        modifiers: &[&[
            ".global",
            ".local",
            ".const",
            ".param",
            ".L1",
            ".L2",
            ".L2::evict_last",
            ".L2::evict_normal",
            ".tensormap",
        ]],
        ..BASE
    },
    Family {
        name: "prefetchu",
        sections: &["9.7.9.15"],
        category: Category::DataMovement,
        min_ptx: 20,
        min_sm: 20,
        effects: HINT,
        variants: &[v!([addr("[a]", GENERIC)])],
        modifiers: &[&[".L1"]],
        ..BASE
    },
    Family {
        name: "applypriority",
        sections: &["9.7.9.16"],
        category: Category::DataMovement,
        min_ptx: 74,
        min_sm: 80,
        effects: HINT,
        variants: &[v!([addr("[a]", SP0), imm("size", U64)])],
        modifiers: &[&[".global", ".L2::evict_normal"]],
        ..BASE
    },
    Family {
        name: "discard",
        sections: &["9.7.9.17"],
        category: Category::DataMovement,
        min_ptx: 74,
        min_sm: 80,
        // The discarded lines hold undefined values afterwards: as good as a store.
        effects: STORE,
        variants: &[v!([addr("[a]", SP0), imm("size", U64)])],
        modifiers: &[&[".global", ".L2"]],
        ..BASE
    },
    Family {
        name: "createpolicy",
        sections: &["9.7.9.18"],
        category: Category::DataMovement,
        min_ptx: 74,
        min_sm: 80,
        variants: &[
            v!(Has(".range") => [
                dst("cache-policy", B64),
                addr("[a]", SP0),
                src("primary-size", U32),
                src("total-size", U32),
            ]),
            v!(Has(".fractional") => [
                dst("cache-policy", B64),
                src("fraction", F32).opt(),
            ]),
            v!([dst("cache-policy", B64), src("access-property", B64)]),
        ],
        modifiers: &[&[
            ".range",
            ".fractional",
            ".cvt",
            ".global",
            ".L2",
            ".L2::evict_last",
            ".L2::evict_normal",
            ".L2::evict_first",
            ".L2::evict_unchanged",
            ".b64",
        ]],
        ..BASE
    },
    Family {
        name: "isspacep",
        sections: &["9.7.9.19"],
        category: Category::DataMovement,
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([pdst("p"), src("a", B64)])],
        reqs: &[
            r!(Has(".const"), 31, 20),
            r!(Any(&[".param", ".param::entry"]), 77, 70),
            r!(Has(".shared::cta"), 78, 30),
            r!(Has(".shared::cluster"), 78, 90),
            r!(Has(".param::entry"), 83, 70),
        ],
        modifiers: &[SPACES],
        ..BASE
    },
    Family {
        name: "cvta",
        sections: &["9.7.9.20"],
        category: Category::DataMovement,
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([dst("p", N0), src("a", N0)])],
        reqs: &[
            r!(Has(".const"), 31, 20),
            r!(Any(&[".param", ".param::entry"]), 77, 70),
            r!(Has(".shared::cta"), 78, 30),
            r!(Has(".shared::cluster"), 78, 90),
            r!(Has(".param::entry"), 83, 70),
        ],
        modifiers: &[SPACES, &[".to", ".u32", ".u64"]],
        ..BASE
    },
    Family {
        name: "cvt",
        sections: &["9.7.9.21"],
        category: Category::DataMovement,
        wide_registers: true,
        variants: &[
            v!(All(&[Has(".rs"), TypeIn(0, &[".e4m3x4", ".e5m2x4", ".e2m1x4", ".e2m3x4", ".e3m2x4"])]) => [
                dst("d", N0),
                src("{a, b, e, f}", N1).vec(Vecn::Fixed(4)),
                src("rbits", U32),
            ]),
            v!(Has(".rs") => [dst("d", N0), src("a", N1), src("b", N1), src("rbits", U32)]),
            v!(All(&[
                TypeIn(0, &[".f16x2", ".bf16x2", ".e4m3x2", ".e5m2x2", ".e2m1x2", ".e2m3x2", ".e3m2x2", ".ue8m0x2"]),
                TypeIn(1, &[".f32"]),
            ]) => [dst("d", N0), src("a", N1), src("b", N1)]),
            // PTX ISA 9.2 (after 9.0): FP8x2 -> BF16x2 with two packed E8M0 scale factors.
            v!(Has(".scaled::n2::ue8m0") => [dst("d", N0), src("a", N1), src("scale", Ty::None)]),
            v!([dst("d", N0), src("a", N1)]),
        ],
        reqs: &[
            r!(Has(".f64"), 10, 13),
            r!(
                AnyOf(&[
                    Has(".relu"),
                    TypeIn(0, &[".f16x2", ".bf16", ".bf16x2", ".tf32"])
                ]),
                70,
                80
            ),
            r!(All(&[TypeIn(0, &[".f32"]), TypeIn(1, &[".bf16"])]), 71, 80),
            r!(
                AnyOf(&[
                    All(&[TypeIn(0, &[".bf16"]), Not(&TypeIn(1, &[".f32"]))]),
                    All(&[TypeIn(1, &[".bf16"]), Not(&TypeIn(0, &[".f32"]))]),
                ]),
                78,
                90
            ),
            r!(
                All(&[TypeIn(0, &[".f32"]), TypeIn(1, &[".bf16"]), Has(".ftz")]),
                78,
                90
            ),
            r!(Any(&[".e4m3x2", ".e5m2x2"]), 78, 89),
            r!(
                All(&[
                    Has(".satfinite"),
                    TypeIn(0, &[".f16", ".bf16", ".f16x2", ".bf16x2", ".tf32"])
                ]),
                81,
                80
            ),
            r!(
                All(&[Has(".satfinite"), Any(&[".rn", ".rz"]), Has(".tf32")]),
                86,
                100
            ),
            r!(
                Any(&[".e2m1x2", ".e2m3x2", ".e3m2x2", ".ue8m0x2"]),
                86,
                100,
                SM100_120_FAM
            ),
            r!(Has(".rs"), 87, 100, SM100A_103A),
            r!(Has(".scaled::n2::ue8m0"), 92, 100, SM100_FAM),
        ],
        modifiers: &[
            &[
                ".u8",
                ".u16",
                ".u32",
                ".u64",
                ".s8",
                ".s16",
                ".s32",
                ".s64",
                ".bf16",
                ".f16",
                ".f32",
                ".f64",
                ".f16x2",
                ".bf16x2",
                ".tf32",
                ".e4m3x2",
                ".e5m2x2",
                ".e2m1x2",
                ".e2m3x2",
                ".e3m2x2",
                ".ue8m0x2",
                ".e4m3x4",
                ".e5m2x4",
                ".e2m1x4",
                ".e2m3x4",
                ".e3m2x4",
                ".rni",
                ".rzi",
                ".rmi",
                ".rpi",
                ".rna",
                ".rs",
                ".ftz",
                ".sat",
                ".satfinite",
                ".relu",
                ".scaled::n2::ue8m0",
            ],
            RND,
        ],
        uncertain: Some(
            "`.scaled::n2::ue8m0` is a PTX ISA 9.2 form (seen in TransformerEngine): its \
             requirements (PTX 9.2, Blackwell family) and scale operand type are not from the \
             9.0 documentation",
        ),
        ..BASE
    },
    Family {
        name: "cvt.pack",
        sections: &["9.7.9.22"],
        category: Category::DataMovement,
        min_ptx: 65,
        min_sm: 72,
        wide_registers: true,
        variants: &[v!([
            dst("d", B32),
            src("a", N1),
            src("b", N1),
            src("c", N2).when(Types(3))
        ])],
        reqs: &[r!(Any(&[".u4", ".s4", ".u2", ".s2"]), 65, 75)],
        modifiers: &[&[
            ".sat", ".u16", ".s16", ".u2", ".s2", ".u4", ".s4", ".u8", ".s8", ".s32", ".b32",
        ]],
        uncertain: Some(
            "wider registers assumed accepted, as for cvt",
        ),
        ..BASE
    },
    Family {
        name: "mapa",
        sections: &["9.7.9.23"],
        category: Category::DataMovement,
        min_ptx: 78,
        min_sm: 90,
        variants: &[v!([dst("d", N0), src("a", N0), src("b", U32)])],
        modifiers: &[&[".shared::cluster", ".u32", ".u64"]],
        ..BASE
    },
    Family {
        name: "getctarank",
        sections: &["9.7.9.24"],
        category: Category::DataMovement,
        min_ptx: 78,
        min_sm: 90,
        variants: &[v!([dst("d", U32), src("a", N0)])],
        modifiers: &[&[".shared::cluster", ".u32", ".u64"]],
        ..BASE
    },
    // ----- 9.7.9.25 Asynchronous copy ----------------------------------------------------------
    Family {
        name: "cp.async",
        sections: &["9.7.9.25.3.1"],
        category: Category::AsyncCopy,
        min_ptx: 70,
        min_sm: 80,
        effects: fx3(ASYNC, LOAD, STORE),
        variants: &[v!([
            addr("[dst]", SP0),
            addr("[src]", SP1),
            imm("cp-size", U32),
            src("src-size", U32).opt().alt(&psrc("ignore-src")),
            CACHE_POLICY,
        ])],
        reqs: &[
            r!(
                Any(&[".L2::cache_hint", ".L2::64B", ".L2::128B", ".L2::256B"]),
                74,
                80
            ),
            r!(Has(".shared::cta"), 78, 80),
        ],
        modifiers: &[&[
            ".ca",
            ".cg",
            ".shared",
            ".shared::cta",
            ".global",
            ".L2::cache_hint",
            ".L2::64B",
            ".L2::128B",
            ".L2::256B",
        ]],
        ..BASE
    },
    Family {
        name: "cp.async.commit_group",
        sections: &["9.7.9.25.3.2"],
        category: Category::AsyncCopy,
        min_ptx: 70,
        min_sm: 80,
        effects: fx(ASYNC, SIDE),
        variants: NO_OPERANDS,
        ..BASE
    },
    Family {
        name: "cp.async.wait_group",
        sections: &["9.7.9.25.3.3"],
        category: Category::AsyncCopy,
        min_ptx: 70,
        min_sm: 80,
        effects: fx3(ASYNC, FENCE, SIDE),
        variants: &[v!([imm("N", U32)])],
        ..BASE
    },
    Family {
        name: "cp.async.wait_all",
        sections: &["9.7.9.25.3.3"],
        category: Category::AsyncCopy,
        min_ptx: 70,
        min_sm: 80,
        effects: fx3(ASYNC, FENCE, SIDE),
        variants: NO_OPERANDS,
        ..BASE
    },
    Family {
        name: "cp.async.bulk",
        sections: &["9.7.9.25.4.1"],
        category: Category::AsyncCopy,
        min_ptx: 80,
        min_sm: 90,
        effects: fx3(ASYNC, LOAD, STORE),
        variants: &[
            v!(SpaceAt(0, StateSpace::Global) => [
                addr("[dstMem]", SP0),
                addr("[srcMem]", SP1),
                src("size", U32),
                CACHE_POLICY,
                src("byteMask", U16).when(Has(".cp_mask")),
            ]),
            v!([
                addr("[dstMem]", SP0),
                addr("[srcMem]", SP1),
                src("size", U32),
                addr("[mbar]", SP0),
                src("ctaMask", U16).when(Has(".multicast::cluster")),
                CACHE_POLICY,
            ]),
        ],
        reqs: &[
            r!(SpaceAt(0, StateSpace::Shared), 86, 90),
            r!(Has(".cp_mask"), 86, 100),
            // PTX ISA 9.2 (after 9.0), per the CCCL wrapper table.
            r!(Has(".ignore_oob"), 92, 90),
        ],
        modifiers: &[&[
            ".shared::cta",
            ".shared::cluster",
            ".global",
            ".mbarrier::complete_tx::bytes",
            ".bulk_group",
            ".multicast::cluster",
            ".L2::cache_hint",
            ".cp_mask",
            ".ignore_oob",
        ]],
        uncertain: Some(
            ".multicast::cluster is only 'advised' for sm_90a/sm_100a/...: not treated as \
             arch-specific",
        ),
        ..BASE
    },
    Family {
        name: "cp.reduce.async.bulk",
        sections: &["9.7.9.25.4.2"],
        category: Category::AsyncCopy,
        min_ptx: 80,
        min_sm: 90,
        effects: fx3(ASYNC, ATOMIC, LOAD),
        variants: &[
            v!(SpaceAt(0, StateSpace::Global) => [
                addr("[dstMem]", SP0),
                addr("[srcMem]", SP1),
                src("size", U32),
                CACHE_POLICY,
            ]),
            v!([
                addr("[dstMem]", SP0),
                addr("[srcMem]", SP1),
                src("size", U32),
                addr("[mbar]", SP0),
            ]),
        ],
        modifiers: &[&[
            ".shared::cta",
            ".shared::cluster",
            ".global",
            ".mbarrier::complete_tx::bytes",
            ".bulk_group",
            ".L2::cache_hint",
            ".and",
            ".or",
            ".xor",
            ".add",
            ".inc",
            ".dec",
            ".min",
            ".max",
            ".noftz",
            ".f16",
            ".bf16",
            ".b32",
            ".u32",
            ".s32",
            ".b64",
            ".u64",
            ".s64",
            ".f32",
            ".f64",
        ]],
        ..BASE
    },
    Family {
        name: "cp.async.bulk.prefetch",
        sections: &["9.7.9.25.4.3"],
        category: Category::AsyncCopy,
        min_ptx: 80,
        min_sm: 90,
        effects: fx(ASYNC, HINT),
        variants: &[v!([addr("[srcMem]", SP0), src("size", U32), CACHE_POLICY])],
        modifiers: &[&[".L2", ".global", ".L2::cache_hint"]],
        ..BASE
    },
    Family {
        name: "cp.async.bulk.tensor",
        sections: &["9.7.9.25.5.2"],
        category: Category::AsyncCopy,
        min_ptx: 80,
        min_sm: 90,
        effects: fx3(ASYNC, LOAD, STORE),
        variants: &[
            v!(SpaceAt(0, StateSpace::Global) => [
                addr("[tensorMap, tensorCoords]", GENERIC),
                addr("[srcMem]", SP1),
                CACHE_POLICY,
            ]),
            v!([
                addr("[dstMem]", SP0),
                addr("[tensorMap, tensorCoords]", GENERIC),
                addr("[mbar]", SP0),
                src("im2colInfo", U16).vec(Vecn::Frag).when(Any(&[
                    ".im2col",
                    ".im2col::w",
                    ".im2col::w::128"
                ])),
                src("ctaMask", U16).when(Has(".multicast::cluster")),
                CACHE_POLICY,
            ]),
        ],
        reqs: &[
            r!(SpaceAt(0, StateSpace::Shared), 86, 90),
            r!(Any(&[".tile::gather4", ".im2col::w"]), 86, 100),
            // The Blackwell datacenter family, sm_110a included: ptxas 13.0 assembles both on
            // sm_100a/100f/103a/110a (the SM probe), as CCCL lists gather4's.
            r!(
                All(&[
                    Any(&[".tile::gather4", ".im2col::w"]),
                    Has(".shared::cluster")
                ]),
                86,
                100,
                SM100_FAM
            ),
            r!(
                AnyOf(&[
                    Any(&[".tile::scatter4", ".im2col::w::128"]),
                    HasPrefix(".cta_group::")
                ]),
                86,
                100,
                SM100_FAM
            ),
        ],
        modifiers: &[
            DIMS,
            CTA_GROUP,
            &[
                ".shared::cta",
                ".shared::cluster",
                ".global",
                ".tile",
                ".tile::gather4",
                ".tile::scatter4",
                ".im2col",
                ".im2col::w",
                ".im2col::w::128",
                ".im2col_no_offs",
                ".mbarrier::complete_tx::bytes",
                ".bulk_group",
                ".multicast::cluster",
                ".L2::cache_hint",
            ],
        ],
        ..BASE
    },
    Family {
        name: "cp.reduce.async.bulk.tensor",
        sections: &["9.7.9.25.5.3"],
        category: Category::AsyncCopy,
        min_ptx: 80,
        min_sm: 90,
        effects: fx3(ASYNC, ATOMIC, LOAD),
        variants: &[v!([
            addr("[tensorMap, tensorCoords]", GENERIC),
            addr("[srcMem]", SP1),
            CACHE_POLICY
        ])],
        modifiers: &[
            DIMS,
            &[
                ".global",
                ".shared::cta",
                ".add",
                ".min",
                ".max",
                ".inc",
                ".dec",
                ".and",
                ".or",
                ".xor",
                ".tile",
                ".im2col_no_offs",
                ".bulk_group",
                ".L2::cache_hint",
            ],
        ],
        ..BASE
    },
    Family {
        name: "cp.async.bulk.prefetch.tensor",
        sections: &["9.7.9.25.5.4"],
        category: Category::AsyncCopy,
        min_ptx: 80,
        min_sm: 90,
        effects: fx(ASYNC, HINT),
        variants: &[v!([
            addr("[tensorMap, tensorCoords]", GENERIC),
            src("im2colInfo", U16).vec(Vecn::Frag).when(Any(&[
                ".im2col",
                ".im2col::w",
                ".im2col::w::128"
            ])),
            CACHE_POLICY
        ])],
        reqs: &[r!(
            Any(&[".tile::gather4", ".im2col::w", ".im2col::w::128"]),
            86,
            100,
            SM100_FAM
        )],
        modifiers: &[
            DIMS,
            &[
                ".L2",
                ".global",
                ".tile",
                ".tile::gather4",
                ".im2col",
                ".im2col::w",
                ".im2col::w::128",
                ".L2::cache_hint",
            ],
        ],
        ..BASE
    },
    Family {
        name: "cp.async.bulk.commit_group",
        sections: &["9.7.9.25.6.1"],
        category: Category::AsyncCopy,
        min_ptx: 80,
        min_sm: 90,
        effects: fx(ASYNC, SIDE),
        variants: NO_OPERANDS,
        ..BASE
    },
    Family {
        name: "cp.async.bulk.wait_group",
        sections: &["9.7.9.25.6.2"],
        category: Category::AsyncCopy,
        min_ptx: 80,
        min_sm: 90,
        effects: fx3(ASYNC, FENCE, SIDE),
        variants: &[v!([imm("N", U32)])],
        modifiers: &[&[".read"]],
        ..BASE
    },
    Family {
        name: "tensormap.replace",
        sections: &["9.7.9.26"],
        category: Category::DataMovement,
        min_ptx: 83,
        min_sm: 90,
        arch: SM90A_UP,
        effects: STORE,
        variants: &[
            v!(Any(&[".box_dim", ".global_dim", ".global_stride", ".element_stride"]) => [
                addr("[addr]", SP0),
                imm("ord", U32),
                src("new_val", N0),
            ]),
            v!(Any(&[".global_address", ".rank"]) => [addr("[addr]", SP0), src("new_val", N0)]),
            v!([addr("[addr]", SP0), imm("new_val", N0)]),
        ],
        reqs: &[r!(Has(".swizzle_atomicity"), 86, 100, SM100_120_FAM)],
        modifiers: &[&[
            ".tile",
            ".global_address",
            ".rank",
            ".box_dim",
            ".global_dim",
            ".global_stride",
            ".element_stride",
            ".elemtype",
            ".interleave_layout",
            ".swizzle_mode",
            ".swizzle_atomicity",
            ".fill_mode",
            ".global",
            ".shared::cta",
            ".b1024",
            ".b32",
            ".b64",
        ]],
        ..BASE
    },
    // ----- 9.7.10 Texture, 9.7.11 Surface ------------------------------------------------------
    Family {
        name: "tex",
        sections: &["9.7.10.3"],
        category: Category::Texture,
        effects: LOAD,
        variants: &[
            v!(Has(".level") => [
                dst("d", N0).vec(Vecn::FromV).pair(PredDst),
                addr("[a, b, c]", TEX),
                src("lod", N1),
                src("e", S32).vec(Vecn::Frag).opt(),
                src("f", F32).opt(),
            ]),
            v!(Has(".grad") => [
                dst("d", N0).vec(Vecn::FromV).pair(PredDst),
                addr("[a, b, c]", TEX),
                src("dPdx", F32).vec(Vecn::Frag),
                src("dPdy", F32).vec(Vecn::Frag),
                src("e", S32).vec(Vecn::Frag).opt(),
                src("f", F32).opt(),
            ]),
            v!([
                dst("d", N0).vec(Vecn::FromV).pair(PredDst),
                addr("[a, b, c]", TEX),
                src("e", S32).vec(Vecn::Frag).opt(),
                src("f", F32).opt(),
            ]),
        ],
        reqs: &[
            r!(Any(&[".a1d", ".a2d"]), 23, 0),
            r!(Any(&[".cube", ".acube"]), 30, 20),
            r!(Any(&[".base", ".level", ".grad"]), 31, 20),
            r!(Any(&[".2dms", ".a2dms"]), 32, 30),
            r!(Any(&[".f16", ".f16x2"]), 42, 53),
        ],
        modifiers: &[&[
            ".1d", ".2d", ".3d", ".a1d", ".a2d", ".cube", ".acube", ".2dms", ".a2dms", ".base",
            ".level", ".grad", ".v4", ".v2", ".u32", ".s32", ".f16", ".f32", ".f16x2",
        ]],
        ..BASE
    },
    Family {
        name: "tld4",
        sections: &["9.7.10.4"],
        category: Category::Texture,
        min_ptx: 22,
        min_sm: 20,
        effects: LOAD,
        variants: &[v!([
            dst("d", N0).vec(Vecn::FromV).pair(PredDst),
            addr("[a, b, c]", TEX),
            src("e", S32).vec(Vecn::Frag).opt(),
            src("f", F32).opt(),
        ])],
        reqs: &[r!(Any(&[".a2d", ".cube", ".acube"]), 43, 30)],
        modifiers: &[&[
            ".r", ".g", ".b", ".a", ".2d", ".a2d", ".cube", ".acube", ".v4", ".u32", ".s32", ".f32",
        ]],
        ..BASE
    },
    Family {
        name: "txq",
        sections: &["9.7.10.5"],
        category: Category::Texture,
        min_ptx: 15,
        variants: &[
            v!(Has(".level") => [dst("d", B32), addr("[a]", TEX), src("lod", S32)]),
            v!([dst("d", B32), addr("[a]", TEX)]),
        ],
        reqs: &[r!(Has(".level"), 43, 30), r!(Has(".num_samples"), 41, 30)],
        modifiers: &[&[
            ".width",
            ".height",
            ".depth",
            ".channel_data_type",
            ".channel_order",
            ".normalized_coords",
            ".array_size",
            ".num_mipmap_levels",
            ".num_samples",
            ".force_unnormalized_coords",
            ".filter_mode",
            ".addr_mode_0",
            ".addr_mode_1",
            ".addr_mode_2",
            ".level",
            ".b32",
        ]],
        ..BASE
    },
    Family {
        name: "istypep",
        sections: &["9.7.10.6"],
        category: Category::Texture,
        min_ptx: 40,
        min_sm: 30,
        variants: &[v!([pdst("p"), src("a", B64)])],
        modifiers: &[&[".texref", ".samplerref", ".surfref"]],
        ..BASE
    },
    Family {
        name: "suld",
        sections: &["9.7.11.1"],
        category: Category::Surface,
        min_ptx: 15,
        effects: LOAD,
        wide_registers: true,
        variants: &[v!([dst("d", N0).vec(Vecn::FromV), addr("[a, b]", SURF)])],
        modifiers: &[&[
            ".b", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".ca", ".cg", ".cs", ".cv", ".v2", ".v4",
            ".b8", ".b16", ".b32", ".b64", ".trap", ".clamp", ".zero",
        ]],
        uncertain: Some("wider registers assumed accepted, as for ld"),
        ..BASE
    },
    Family {
        name: "sust",
        sections: &["9.7.11.2"],
        category: Category::Surface,
        min_ptx: 15,
        effects: STORE,
        wide_registers: true,
        variants: &[v!([addr("[a, b]", SURF), src("c", N0).vec(Vecn::FromV)])],
        reqs: &[r!(Has(".p"), 20, 20)],
        modifiers: &[&[
            ".b", ".p", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".wb", ".cg", ".cs", ".wt", ".v2",
            ".v4", ".b8", ".b16", ".b32", ".b64", ".trap", ".clamp", ".zero",
        ]],
        uncertain: Some("wider registers assumed accepted, as for st"),
        ..BASE
    },
    Family {
        name: "sured",
        sections: &["9.7.11.3"],
        category: Category::Surface,
        min_ptx: 20,
        min_sm: 20,
        effects: fx(ATOMIC, STORE),
        variants: &[v!([addr("[a, b]", SURF), src("c", N0)])],
        reqs: &[r!(All(&[TypeBits(64), Any(&[".min", ".max"])]), 81, 50)],
        modifiers: &[&[
            ".b", ".p", ".add", ".min", ".max", ".and", ".or", ".1d", ".2d", ".3d", ".u32", ".u64",
            ".s32", ".s64", ".b32", ".b64", ".trap", ".clamp", ".zero",
        ]],
        ..BASE
    },
    Family {
        name: "suq",
        sections: &["9.7.11.4"],
        category: Category::Surface,
        min_ptx: 15,
        variants: &[v!([dst("d", B32), addr("[a]", SURF)])],
        modifiers: &[&[
            ".width",
            ".height",
            ".depth",
            ".channel_data_type",
            ".channel_order",
            ".array_size",
            ".memory_layout",
            ".b32",
        ]],
        ..BASE
    },
    // ----- 9.7.12 Control flow ---------------------------------------------------------------
    Family {
        name: "bra",
        sections: &["9.7.12.3"],
        category: Category::ControlFlow,
        effects: CONTROL,
        variants: &[v!([Slot::new("tgt", Label, Ty::None)])],
        modifiers: &[&[".uni"]],
        ..BASE
    },
    Family {
        name: "brx.idx",
        sections: &["9.7.12.4"],
        category: Category::ControlFlow,
        min_ptx: 60,
        min_sm: 30,
        effects: CONTROL,
        variants: &[v!([src("index", U32), Slot::new("tlist", Label, Ty::None)])],
        modifiers: &[&[".uni"]],
        ..BASE
    },
    Family {
        name: "call",
        sections: &["9.7.12.5"],
        category: Category::ControlFlow,
        effects: fx4(CONTROL, SIDE, LOAD, STORE),
        variants: &[Variant {
            when: Always,
            operands: &[Slot::new("func", Other, Ty::None)],
            variadic: true,
        }],
        modifiers: &[&[".uni"]],
        ..BASE
    },
    Family {
        name: "ret",
        sections: &["9.7.12.6"],
        category: Category::ControlFlow,
        effects: CONTROL,
        variants: NO_OPERANDS,
        modifiers: &[&[".uni"]],
        ..BASE
    },
    Family {
        name: "exit",
        sections: &["9.7.12.7"],
        category: Category::ControlFlow,
        effects: fx(CONTROL, SIDE),
        variants: NO_OPERANDS,
        ..BASE
    },
    // ----- 9.7.13 Parallel synchronization and communication ---------------------------------
    Family {
        name: "bar",
        sections: &["9.7.13.1"],
        category: Category::Synchronization,
        effects: fx(BARRIER, FENCE),
        variants: BAR_VARIANTS,
        reqs: &[
            r!(Any(&[".arrive", ".red"]), 20, 20),
            r!(Has(".cta"), 78, 0),
        ],
        modifiers: BAR_MODS,
        ..BASE
    },
    Family {
        name: "barrier",
        sections: &["9.7.13.1"],
        category: Category::Synchronization,
        min_ptx: 60,
        min_sm: 30,
        effects: fx(BARRIER, FENCE),
        variants: BAR_VARIANTS,
        reqs: &[r!(Has(".cta"), 78, 30)],
        modifiers: BAR_MODS,
        ..BASE
    },
    Family {
        name: "bar.warp.sync",
        sections: &["9.7.13.2"],
        category: Category::Synchronization,
        min_ptx: 60,
        min_sm: 30,
        effects: fx3(BARRIER, FENCE, WARP),
        variants: &[v!([MEMBERMASK])],
        ..BASE
    },
    Family {
        name: "barrier.cluster",
        sections: &["9.7.13.3"],
        category: Category::Synchronization,
        min_ptx: 78,
        min_sm: 90,
        effects: fx(BARRIER, FENCE),
        variants: NO_OPERANDS,
        reqs: &[r!(Any(&[".acquire", ".relaxed", ".release"]), 80, 90)],
        modifiers: &[&[
            ".arrive", ".wait", ".release", ".relaxed", ".acquire", ".aligned",
        ]],
        ..BASE
    },
    Family {
        name: "membar",
        sections: &["9.7.13.4"],
        category: Category::Synchronization,
        min_ptx: 14,
        effects: FENCE,
        variants: NO_OPERANDS,
        reqs: &[r!(Has(".sys"), 20, 20), r!(Has(".proxy"), 75, 60)],
        modifiers: &[&[
            ".cta",
            ".gl",
            ".sys",
            ".proxy",
            ".alias",
            ".async",
            ".global",
            ".shared::cta",
            ".shared::cluster",
        ]],
        ..BASE
    },
    Family {
        name: "fence",
        sections: &["9.7.13.4"],
        category: Category::Synchronization,
        min_ptx: 60,
        min_sm: 70,
        effects: FENCE,
        variants: &[
            v!(All(&[HasPrefix(".tensormap::"), Has(".acquire")]) => [
                addr("[addr]", SP0),
                imm("size", U32),
            ]),
            v!([]),
        ],
        reqs: &[
            r!(Has(".proxy"), 75, 70),
            r!(Has(".cluster"), 78, 90),
            r!(Has(".mbarrier_init"), 80, 90),
            r!(
                All(&[
                    Has(".proxy"),
                    AnyOf(&[Has(".async"), HasPrefix(".async::")])
                ]),
                80,
                90
            ),
            r!(HasPrefix(".tensormap::"), 83, 90),
            r!(
                All(&[Any(&[".acquire", ".release"]), Not(&Has(".proxy"))]),
                86,
                90
            ),
            r!(HasPrefix(".sync_restrict::"), 86, 90),
        ],
        modifiers: &[
            SCOPES,
            &[
                ".sc",
                ".acq_rel",
                ".acquire",
                ".release",
                ".proxy",
                ".alias",
                ".async",
                ".async::generic",
                ".global",
                ".shared::cta",
                ".shared::cluster",
                ".tensormap::generic",
                ".op_restrict",
                ".mbarrier_init",
                ".sync_restrict::shared::cluster",
                ".sync_restrict::shared::cta",
            ],
        ],
        ..BASE
    },
    Family {
        name: "atom",
        sections: &["9.7.13.5"],
        category: Category::Synchronization,
        min_ptx: 11,
        min_sm: 11,
        effects: fx3(ATOMIC, LOAD, STORE),
        variants: &[
            v!(Has(".cas") => [
                dst("d", N0),
                addr("[a]", SP0),
                src("b", N0),
                src("c", N0),
            ]),
            v!([
                dst("d", N0).vec(Vecn::FromV),
                addr("[a]", SP0),
                src("b", N0).vec(Vecn::FromV),
                CACHE_POLICY,
            ]),
        ],
        reqs: ATOM_REQS,
        effect_rules: &[e!(SEM_ACQ, FENCE), e!(SEM_REL, FENCE)],
        modifiers: &[ATOM_MODS, SCOPES, SPACES, VEC],
        ..BASE
    },
    Family {
        name: "red",
        sections: &["9.7.13.6"],
        category: Category::Synchronization,
        min_ptx: 12,
        min_sm: 11,
        effects: fx(ATOMIC, STORE),
        variants: &[v!([
            addr("[a]", SP0),
            src("b", N0).vec(Vecn::FromV),
            CACHE_POLICY
        ])],
        reqs: ATOM_REQS,
        effect_rules: &[e!(SEM_REL, FENCE)],
        modifiers: &[ATOM_MODS, SCOPES, SPACES, VEC],
        ..BASE
    },
    Family {
        name: "red.async",
        sections: &["9.7.13.7"],
        category: Category::Synchronization,
        min_ptx: 81,
        min_sm: 90,
        effects: fx3(ATOMIC, STORE, ASYNC),
        variants: &[
            v!(Any(&[".global", ".mmio", ".release"]) => [addr("[a]", SP0), src("b", N0)]),
            v!([addr("[a]", SP0), src("b", N0), addr("[mbar]", SP0)]),
        ],
        reqs: &[r!(
            Any(&[".global", ".mmio", ".release", ".gpu", ".sys"]),
            87,
            100
        )],
        effect_rules: &[e!(Has(".release"), FENCE)],
        modifiers: &[&[
            ".relaxed",
            ".release",
            ".mmio",
            ".cluster",
            ".gpu",
            ".sys",
            ".shared::cluster",
            ".global",
            ".mbarrier::complete_tx::bytes",
            ".inc",
            ".dec",
            ".min",
            ".max",
            ".and",
            ".or",
            ".xor",
            ".add",
            ".u32",
            ".s32",
            ".u64",
            ".s64",
            ".b32",
        ]],
        ..BASE
    },
    Family {
        name: "vote",
        sections: &["9.7.13.8"],
        category: Category::Synchronization,
        min_ptx: 12,
        min_sm: 12,
        effects: WARP,
        variants: &[
            v!(Has(".ballot") => [dst("d", B32), psrc("a")]),
            v!([pdst("d"), psrc("a")]),
        ],
        reqs: &[r!(Has(".ballot"), 20, 20)],
        modifiers: &[&[".all", ".any", ".uni", ".ballot", ".pred", ".b32"]],
        removed_on: Some((64, 70)),
        deprecated: Some(
            "vote without .sync is deprecated since PTX ISA 6.0 and not supported on sm_70 or \
             higher from PTX ISA 6.4: use vote.sync",
        ),
        ..BASE
    },
    Family {
        name: "vote.sync",
        sections: &["9.7.13.9"],
        category: Category::Synchronization,
        min_ptx: 60,
        min_sm: 30,
        effects: WARP,
        variants: &[
            v!(Has(".ballot") => [dst("d", B32), psrc("a"), MEMBERMASK]),
            v!([pdst("d"), psrc("a"), MEMBERMASK]),
        ],
        modifiers: &[&[".all", ".any", ".uni", ".ballot", ".pred", ".b32"]],
        ..BASE
    },
    Family {
        name: "match.sync",
        sections: &["9.7.13.10"],
        category: Category::Synchronization,
        min_ptx: 60,
        min_sm: 70,
        effects: WARP,
        variants: &[
            v!(Has(".all") => [dst("d", B32).pair(PredDst), src("a", N0), MEMBERMASK]),
            v!([dst("d", B32), src("a", N0), MEMBERMASK]),
        ],
        modifiers: &[&[".any", ".all", ".b32", ".b64"]],
        ..BASE
    },
    Family {
        name: "activemask",
        sections: &["9.7.13.11"],
        category: Category::Synchronization,
        min_ptx: 62,
        min_sm: 30,
        effects: fx(VREAD, WARP),
        variants: &[v!([dst("d", B32)])],
        modifiers: &[&[".b32"]],
        ..BASE
    },
    Family {
        name: "redux.sync",
        sections: &["9.7.13.12"],
        category: Category::Synchronization,
        min_ptx: 70,
        min_sm: 80,
        effects: WARP,
        variants: &[v!([dst("dst", N0), src("src", N0), MEMBERMASK])],
        reqs: &[r!(Any(&[".f32", ".abs", ".NaN"]), 86, 100, SM100F)],
        modifiers: &[&[
            ".add", ".min", ".max", ".and", ".or", ".xor", ".abs", ".NaN", ".u32", ".s32", ".b32",
            ".f32",
        ]],
        ..BASE
    },
    Family {
        name: "griddepcontrol",
        sections: &["9.7.13.13"],
        category: Category::Synchronization,
        min_ptx: 78,
        min_sm: 90,
        effects: SIDE,
        variants: NO_OPERANDS,
        effect_rules: &[e!(Has(".wait"), FENCE)],
        modifiers: &[&[".launch_dependents", ".wait"]],
        ..BASE
    },
    Family {
        name: "elect.sync",
        sections: &["9.7.13.14"],
        category: Category::Synchronization,
        min_ptx: 80,
        min_sm: 90,
        effects: WARP,
        variants: &[v!([dst("d", B32).pair(PredDst), MEMBERMASK])],
        ..BASE
    },
    Family {
        name: "mbarrier.init",
        sections: &["9.7.13.15.9"],
        category: Category::Mbarrier,
        min_ptx: 70,
        min_sm: 80,
        effects: fx(STORE, ASYNC),
        variants: &[v!([addr("[addr]", SP0), src("count", U32)])],
        reqs: &[r!(Has(".shared::cta"), 78, 80)],
        modifiers: &[SHARED_CTA, MBAR_TYPE],
        ..BASE
    },
    Family {
        name: "mbarrier.inval",
        sections: &["9.7.13.15.10"],
        category: Category::Mbarrier,
        min_ptx: 70,
        min_sm: 80,
        effects: fx(STORE, ASYNC),
        variants: &[v!([addr("[addr]", SP0)])],
        reqs: &[r!(Has(".shared::cta"), 78, 80)],
        modifiers: &[SHARED_CTA, MBAR_TYPE],
        ..BASE
    },
    Family {
        name: "mbarrier.expect_tx",
        sections: &["9.7.13.15.11"],
        category: Category::Mbarrier,
        min_ptx: 80,
        min_sm: 90,
        effects: fx(ATOMIC, ASYNC),
        variants: &[v!([addr("[addr]", SP0), src("txCount", U32)])],
        modifiers: &[&[
            ".relaxed",
            ".cta",
            ".cluster",
            ".shared",
            ".shared::cta",
            ".shared::cluster",
            ".b64",
        ]],
        ..BASE
    },
    Family {
        name: "mbarrier.complete_tx",
        sections: &["9.7.13.15.12"],
        category: Category::Mbarrier,
        min_ptx: 80,
        min_sm: 90,
        effects: fx(ATOMIC, ASYNC),
        variants: &[v!([addr("[addr]", SP0), src("txCount", U32)])],
        modifiers: &[&[
            ".relaxed",
            ".cta",
            ".cluster",
            ".shared",
            ".shared::cta",
            ".shared::cluster",
            ".b64",
        ]],
        ..BASE
    },
    Family {
        name: "mbarrier.arrive",
        sections: &["9.7.13.15.13"],
        category: Category::Mbarrier,
        min_ptx: 70,
        min_sm: 80,
        effects: fx3(ATOMIC, ASYNC, FENCE),
        variants: MBAR_ARRIVE_VARIANTS,
        reqs: MBAR_ARRIVE_REQS,
        modifiers: &[MBAR_ARRIVE_MODS],
        ..BASE
    },
    Family {
        name: "mbarrier.arrive_drop",
        sections: &["9.7.13.15.14"],
        category: Category::Mbarrier,
        min_ptx: 70,
        min_sm: 80,
        effects: fx3(ATOMIC, ASYNC, FENCE),
        variants: MBAR_ARRIVE_VARIANTS,
        reqs: MBAR_ARRIVE_REQS,
        modifiers: &[MBAR_ARRIVE_MODS],
        ..BASE
    },
    Family {
        name: "cp.async.mbarrier.arrive",
        sections: &["9.7.13.15.15"],
        category: Category::Mbarrier,
        min_ptx: 70,
        min_sm: 80,
        effects: fx(ATOMIC, ASYNC),
        variants: &[v!([addr("[addr]", SP0)])],
        reqs: &[r!(Has(".shared::cta"), 78, 80)],
        modifiers: &[SHARED_CTA, MBAR_TYPE, &[".noinc"]],
        ..BASE
    },
    Family {
        name: "mbarrier.test_wait",
        sections: &["9.7.13.15.16"],
        category: Category::Mbarrier,
        min_ptx: 70,
        min_sm: 80,
        effects: fx4(LOAD, VREAD, ASYNC, FENCE),
        variants: &[
            v!(Has(".parity") => [
                pdst("waitComplete"),
                addr("[addr]", SP0),
                src("phaseParity", U32),
            ]),
            v!([pdst("waitComplete"), addr("[addr]", SP0), src("state", B64)]),
        ],
        reqs: &[
            r!(Has(".parity"), 71, 80),
            r!(Has(".shared::cta"), 78, 80),
            r!(Any(&[".acquire", ".cta"]), 80, 80),
            r!(Has(".cluster"), 80, 90),
            r!(Has(".relaxed"), 86, 90),
        ],
        modifiers: &[MBAR_WAIT_MODS],
        ..BASE
    },
    Family {
        name: "mbarrier.try_wait",
        sections: &["9.7.13.15.16"],
        category: Category::Mbarrier,
        min_ptx: 78,
        min_sm: 90,
        effects: fx4(LOAD, VREAD, ASYNC, FENCE),
        variants: &[
            v!(Has(".parity") => [
                pdst("waitComplete"),
                addr("[addr]", SP0),
                src("phaseParity", U32),
                src("suspendTimeHint", U32).opt(),
            ]),
            v!([
                pdst("waitComplete"),
                addr("[addr]", SP0),
                src("state", B64),
                src("suspendTimeHint", U32).opt(),
            ]),
        ],
        reqs: &[
            r!(Any(&[".acquire", ".cta", ".cluster"]), 80, 90),
            r!(Has(".relaxed"), 86, 90),
        ],
        modifiers: &[MBAR_WAIT_MODS],
        ..BASE
    },
    Family {
        name: "mbarrier.pending_count",
        sections: &["9.7.13.15.17"],
        category: Category::Mbarrier,
        min_ptx: 70,
        min_sm: 80,
        variants: &[v!([dst("count", U32), src("state", B64)])],
        modifiers: &[MBAR_TYPE],
        ..BASE
    },
    Family {
        name: "tensormap.cp_fenceproxy",
        sections: &["9.7.13.16"],
        category: Category::Synchronization,
        min_ptx: 83,
        min_sm: 90,
        effects: fx3(LOAD, STORE, FENCE),
        variants: &[v!([
            addr("[dst]", SP0),
            addr("[src]", SP1),
            imm("size", U32)
        ])],
        modifiers: &[
            SCOPES,
            SYNC_ALIGNED,
            &[".global", ".shared::cta", ".tensormap::generic", ".release"],
        ],
        ..BASE
    },
    Family {
        name: "clusterlaunchcontrol.try_cancel",
        sections: &["9.7.13.17"],
        category: Category::Synchronization,
        min_ptx: 86,
        min_sm: 100,
        effects: fx3(ASYNC, STORE, ATOMIC),
        variants: &[v!([addr("[addr]", SP0), addr("[mbar]", SP0)])],
        reqs: &[r!(Has(".multicast::cluster::all"), 86, 100, SM100_120_FAM)],
        modifiers: &[&[
            ".async",
            ".shared::cta",
            ".mbarrier::complete_tx::bytes",
            ".multicast::cluster::all",
            ".b128",
        ]],
        ..BASE
    },
    Family {
        name: "clusterlaunchcontrol.query_cancel",
        sections: &["9.7.13.18"],
        category: Category::Synchronization,
        min_ptx: 86,
        min_sm: 100,
        variants: &[
            v!(Has(".is_canceled") => [pdst("pred"), src("try_cancel_response", B128)]),
            v!(Has(".v4") => [
                dst("{xdim, ydim, zdim, _}", B32).vec(Vecn::Fixed(4)),
                src("try_cancel_response", B128),
            ]),
            v!([dst("reg", B32), src("try_cancel_response", B128)]),
        ],
        modifiers: &[&[
            ".is_canceled",
            ".get_first_ctaid",
            ".get_first_ctaid::x",
            ".get_first_ctaid::y",
            ".get_first_ctaid::z",
            ".v4",
            ".pred",
            ".b32",
            ".b128",
        ]],
        ..BASE
    },
    // ----- 9.7.14 Warp-level matrix multiply-accumulate ---------------------------------------
    Family {
        name: "wmma.load",
        sections: &["9.7.14.4.3"],
        category: Category::WarpMatrix,
        min_ptx: 60,
        min_sm: 70,
        effects: fx(LOAD, WARP),
        variants: &[v!([
            dst("r", Ty::Frag(0)).vec(Vecn::Frag),
            addr("[p]", SP0),
            src("stride", U32).opt()
        ])],
        reqs: WMMA_REQS,
        modifiers: WMMA_MODS,
        ..BASE
    },
    Family {
        name: "wmma.store",
        sections: &["9.7.14.4.4"],
        category: Category::WarpMatrix,
        min_ptx: 60,
        min_sm: 70,
        effects: fx(STORE, WARP),
        variants: &[v!([
            addr("[p]", SP0),
            src("r", Ty::Frag(0)).vec(Vecn::Frag),
            src("stride", U32).opt()
        ])],
        reqs: WMMA_REQS,
        modifiers: WMMA_MODS,
        ..BASE
    },
    Family {
        name: "wmma.mma",
        sections: &["9.7.14.4.5"],
        category: Category::WarpMatrix,
        min_ptx: 60,
        min_sm: 70,
        effects: WARP,
        variants: &[
            v!(Types(4) => [FRAG_D, FRAG_A, FRAG_B, FRAG_C]),
            v!([
                FRAG_D,
                src("a", B32).vec(Vecn::Frag),
                src("b", B32).vec(Vecn::Frag),
                src("c", Ty::Frag(1)).vec(Vecn::Frag),
            ]),
        ],
        reqs: &[
            r!(Any(&[".m8n32k16", ".m32n8k16"]), 61, 70),
            r!(Any(&[".s8", ".u8"]), 63, 72),
            r!(Any(&[".s4", ".u4", ".b1"]), 63, 75),
            r!(
                Any(&[".f64", ".bf16", ".tf32", ".m16n16k8", ".m8n8k4"]),
                70,
                80
            ),
            r!(Has(".and"), 71, 80),
        ],
        modifiers: WMMA_MODS,
        ..BASE
    },
    Family {
        name: "mma",
        sections: &["9.7.14.5.14"],
        category: Category::WarpMatrix,
        min_ptx: 64,
        min_sm: 70,
        effects: WARP,
        variants: &[
            v!(Has(".block_scale") => [
                FRAG_D, FRAG_A, FRAG_B, FRAG_C, SCALE_A, SCALE_A_ID, SCALE_B, SCALE_B_ID,
            ]),
            v!([FRAG_D, FRAG_A, FRAG_B, FRAG_C]),
        ],
        reqs: &[
            r!(
                Any(&[".m16n8k8", ".m8n8k16", ".m8n8k32", ".m8n8k128"]),
                65,
                75
            ),
            r!(
                Any(&[
                    ".m16n8k4",
                    ".m16n8k16",
                    ".m16n8k32",
                    ".m16n8k64",
                    ".m16n8k128",
                    ".m16n8k256"
                ]),
                70,
                80
            ),
            r!(Has(".m8n8k128"), 70, 75),
            r!(Any(&[".bf16", ".tf32"]), 70, 80),
            r!(All(&[Has(".m8n8k4"), Has(".f64")]), 70, 80),
            r!(Has(".and"), 71, 80),
            r!(
                All(&[Has(".f64"), Any(&[".m16n8k4", ".m16n8k8", ".m16n8k16"])]),
                78,
                90
            ),
            r!(Any(&[".e4m3", ".e5m2"]), 84, 89),
            r!(
                All(&[
                    Any(&[".e4m3", ".e5m2"]),
                    AnyOf(&[Has(".m16n8k16"), TypeIn(0, &[".f16"])])
                ]),
                87,
                89
            ),
            r!(Any(&[".e3m2", ".e2m3", ".e2m1"]), 87, 120, SM120_FAM),
            r!(
                AnyOf(&[HasPrefix(".kind::"), Has(".block_scale")]),
                87,
                120,
                SM120_FAM
            ),
        ],
        modifiers: MMA_MODS,
        ..BASE
    },
    Family {
        name: "mma.sp",
        sections: &["9.7.14.6.3"],
        category: Category::WarpMatrix,
        min_ptx: 71,
        min_sm: 80,
        effects: WARP,
        variants: &[
            v!(Has(".block_scale") => [
                FRAG_D,
                FRAG_A,
                FRAG_B,
                FRAG_C,
                src("e", B32),
                imm("f", U32),
                SCALE_A,
                SCALE_A_ID,
                SCALE_B,
                SCALE_B_ID,
            ]),
            v!([FRAG_D, FRAG_A, FRAG_B, FRAG_C, src("e", B32), imm("f", U32)]),
        ],
        reqs: &[
            r!(Any(&[".e4m3", ".e5m2"]), 84, 89),
            r!(Has(".sp::ordered_metadata"), 85, 80),
            r!(
                All(&[
                    Any(&[".e4m3", ".e5m2"]),
                    AnyOf(&[Has(".m16n8k32"), TypeIn(0, &[".f16"])])
                ]),
                87,
                120
            ),
            r!(Any(&[".e3m2", ".e2m3", ".e2m1"]), 87, 120, SM120_FAM),
            r!(
                AnyOf(&[HasPrefix(".kind::"), Has(".block_scale")]),
                87,
                120,
                SM120_FAM
            ),
            r!(
                Any(&[".kind::mxf4", ".kind::mxf4nvf4"]),
                87,
                120,
                &[ArchTarget::a(120), ArchTarget::a(121)]
            ),
        ],
        modifiers: MMA_MODS,
        ..BASE
    },
    Family {
        name: "ldmatrix",
        sections: &["9.7.14.5.15"],
        category: Category::WarpMatrix,
        min_ptx: 65,
        min_sm: 75,
        effects: fx(LOAD, WARP),
        variants: &[v!([dst("r", B32).vec(Vecn::FromX), addr("[p]", SP0)])],
        reqs: &[
            r!(Has(".shared::cta"), 78, 75),
            r!(
                Any(&[
                    ".m16n16",
                    ".m8n16",
                    ".b8",
                    ".b8x16",
                    ".b6x16_p32",
                    ".b4x16_p64"
                ]),
                86,
                100,
                SM100_120_FAM
            ),
        ],
        modifiers: &[
            SYNC_ALIGNED,
            SHARED_CTA,
            &[
                ".m8n8",
                ".m16n16",
                ".m8n16",
                ".x1",
                ".x2",
                ".x4",
                ".trans",
                ".b16",
                ".b8",
                ".b8x16",
                ".b6x16_p32",
                ".b4x16_p64",
            ],
        ],
        uncertain: Some("register count of the .m16n16/.m8n16 shapes taken as .x1/.x2/.x4"),
        ..BASE
    },
    Family {
        name: "stmatrix",
        sections: &["9.7.14.5.16"],
        category: Category::WarpMatrix,
        min_ptx: 78,
        min_sm: 90,
        effects: fx(STORE, WARP),
        variants: &[v!([addr("[p]", SP0), src("r", B32).vec(Vecn::FromX)])],
        reqs: &[r!(Any(&[".m16n8", ".b8"]), 86, 100, SM100_120_FAM)],
        modifiers: &[
            SYNC_ALIGNED,
            SHARED_CTA,
            &[
                ".m8n8", ".m16n8", ".x1", ".x2", ".x4", ".trans", ".b16", ".b8",
            ],
        ],
        ..BASE
    },
    Family {
        name: "movmatrix",
        sections: &["9.7.14.5.17"],
        category: Category::WarpMatrix,
        min_ptx: 78,
        min_sm: 75,
        effects: WARP,
        variants: &[v!([dst("d", B32), src("a", B32)])],
        modifiers: &[SYNC_ALIGNED, &[".m8n8", ".trans", ".b16"]],
        ..BASE
    },
    // ----- 9.7.15 wgmma ------------------------------------------------------------------------
    Family {
        name: "wgmma.mma_async",
        sections: &["9.7.15.5.2"],
        category: Category::Wgmma,
        min_ptx: 80,
        min_sm: 90,
        arch: SM90A,
        effects: fx4(ASYNC, LOAD, SIDE, WARP),
        variants: &[
            v!(WG_HALF => [
                WG_D,
                WG_A,
                WG_B,
                WG_SCALE_D,
                WG_IMM_SCALE_A,
                WG_IMM_SCALE_B,
                WG_IMM_TRANS_A.opt(),
                WG_IMM_TRANS_B,
            ]),
            v!(WG_INT => [WG_D, WG_A, WG_B, WG_SCALE_D]),
            v!([WG_D, WG_A, WG_B, WG_SCALE_D, WG_IMM_SCALE_A, WG_IMM_SCALE_B]),
        ],
        reqs: &[r!(
            AnyOf(&[
                All(&[TypeIn(1, &[".u8"]), TypeIn(2, &[".s8"])]),
                All(&[TypeIn(1, &[".s8"]), TypeIn(2, &[".u8"])]),
            ]),
            84,
            90
        )],
        modifiers: WGMMA_MODS,
        ..BASE
    },
    Family {
        name: "wgmma.mma_async.sp",
        sections: &["9.7.15.6.3"],
        category: Category::Wgmma,
        min_ptx: 82,
        min_sm: 90,
        arch: SM90A,
        effects: fx4(ASYNC, LOAD, SIDE, WARP),
        variants: &[
            v!(WG_HALF => [
                WG_D,
                WG_A,
                WG_B,
                WG_SP_META,
                WG_SP_SEL,
                WG_SCALE_D,
                WG_IMM_SCALE_A,
                WG_IMM_SCALE_B,
                WG_IMM_TRANS_A.opt(),
                WG_IMM_TRANS_B,
            ]),
            v!(WG_INT => [WG_D, WG_A, WG_B, WG_SP_META, WG_SP_SEL, WG_SCALE_D]),
            v!([
                WG_D,
                WG_A,
                WG_B,
                WG_SP_META,
                WG_SP_SEL,
                WG_SCALE_D,
                WG_IMM_SCALE_A,
                WG_IMM_SCALE_B,
            ]),
        ],
        reqs: &[r!(
            AnyOf(&[
                All(&[TypeIn(1, &[".u8"]), TypeIn(2, &[".s8"])]),
                All(&[TypeIn(1, &[".s8"]), TypeIn(2, &[".u8"])]),
            ]),
            84,
            90
        )],
        modifiers: WGMMA_MODS,
        ..BASE
    },
    Family {
        name: "wgmma.fence",
        sections: &["9.7.15.7.1"],
        category: Category::Wgmma,
        min_ptx: 80,
        min_sm: 90,
        arch: SM90A,
        effects: fx4(SIDE, ASYNC, FENCE, WARP),
        variants: NO_OPERANDS,
        modifiers: &[SYNC_ALIGNED],
        ..BASE
    },
    Family {
        name: "wgmma.commit_group",
        sections: &["9.7.15.7.2"],
        category: Category::Wgmma,
        min_ptx: 80,
        min_sm: 90,
        arch: SM90A,
        effects: fx3(SIDE, ASYNC, WARP),
        variants: NO_OPERANDS,
        modifiers: &[SYNC_ALIGNED],
        ..BASE
    },
    Family {
        name: "wgmma.wait_group",
        sections: &["9.7.15.7.3"],
        category: Category::Wgmma,
        min_ptx: 80,
        min_sm: 90,
        arch: SM90A,
        effects: fx4(SIDE, ASYNC, FENCE, WARP),
        variants: &[v!([imm("N", U32)])],
        modifiers: &[SYNC_ALIGNED],
        ..BASE
    },
    // ----- 9.7.16 tcgen05 ----------------------------------------------------------------------
    Family {
        name: "tcgen05.alloc",
        sections: &["9.7.16.7.1"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx3(STORE, SIDE, WARP),
        variants: &[v!([addr("[dst]", SP0), src("nCols", U32)])],
        modifiers: &[CTA_GROUP, SYNC_ALIGNED, &[".shared::cta", ".b32"]],
        ..BASE
    },
    Family {
        name: "tcgen05.dealloc",
        sections: &["9.7.16.7.1"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(SIDE, WARP),
        variants: &[v!([src("taddr", B32), src("nCols", U32)])],
        modifiers: &[CTA_GROUP, SYNC_ALIGNED, &[".b32"]],
        ..BASE
    },
    Family {
        name: "tcgen05.relinquish_alloc_permit",
        sections: &["9.7.16.7.1"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(SIDE, WARP),
        variants: NO_OPERANDS,
        modifiers: &[CTA_GROUP, SYNC_ALIGNED],
        ..BASE
    },
    Family {
        name: "tcgen05.ld",
        sections: &["9.7.16.8.3"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: TC_EFFECTS,
        variants: &[
            v!(All(&[Has(".red"), Has(".16x32bx2")]) => [
                dst("r", N0).vec(Vecn::Tcgen05),
                dst("redval", N0),
                addr("[taddr]", TMEM),
                imm("immHalfSplitoff", U32),
            ]),
            v!(Has(".red") => [
                dst("r", N0).vec(Vecn::Tcgen05),
                dst("redval", N0),
                addr("[taddr]", TMEM),
            ]),
            v!(Has(".16x32bx2") => [
                dst("r", N0).vec(Vecn::Tcgen05),
                addr("[taddr]", TMEM),
                imm("immHalfSplitoff", U32),
            ]),
            v!([dst("r", N0).vec(Vecn::Tcgen05), addr("[taddr]", TMEM)]),
        ],
        reqs: &[r!(
            Has(".red"),
            88,
            100,
            &[
                ArchTarget::a(101),
                ArchTarget::a(110),
                ArchTarget::f(103),
                ArchTarget::f(110)
            ]
        )],
        modifiers: &[
            TC_LDST_MODS,
            SYNC_ALIGNED,
            &[
                ".red", ".min", ".max", ".abs", ".NaN", ".f32", ".u32", ".s32",
            ],
        ],
        ..BASE
    },
    Family {
        name: "tcgen05.st",
        sections: &["9.7.16.8.4"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: TC_EFFECTS,
        variants: &[
            v!(Has(".16x32bx2") => [
                addr("[taddr]", TMEM),
                imm("immHalfSplitoff", U32),
                src("r", N0).vec(Vecn::Tcgen05),
            ]),
            v!([addr("[taddr]", TMEM), src("r", N0).vec(Vecn::Tcgen05)]),
        ],
        modifiers: &[TC_LDST_MODS, SYNC_ALIGNED],
        ..BASE
    },
    Family {
        name: "tcgen05.wait",
        sections: &["9.7.16.8.5"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(TC_EFFECTS, FENCE),
        variants: NO_OPERANDS,
        modifiers: &[SYNC_ALIGNED, &[".wait::ld", ".wait::st"]],
        ..BASE
    },
    Family {
        name: "tcgen05.cp",
        sections: &["9.7.16.9.2"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(TC_EFFECTS, LOAD),
        variants: &[v!([addr("[taddr]", TMEM), src("s-desc", B64)])],
        modifiers: &[
            CTA_GROUP,
            &[
                ".128x256b",
                ".4x256b",
                ".128x128b",
                ".64x128b",
                ".32x128b",
                ".warpx2::02_13",
                ".warpx2::01_23",
                ".warpx4",
                ".b8x16",
                ".b6x16_p32",
                ".b4x16_p64",
            ],
        ],
        ..BASE
    },
    Family {
        name: "tcgen05.shift",
        sections: &["9.7.16.9.3"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: &[
            ArchTarget::a(100),
            ArchTarget::a(101),
            ArchTarget::a(103),
            ArchTarget::a(110),
        ],
        effects: TC_EFFECTS,
        variants: &[v!([addr("[taddr]", TMEM)])],
        modifiers: &[CTA_GROUP, &[".down"]],
        ..BASE
    },
    Family {
        name: "tcgen05.mma",
        sections: &["9.7.16.10.9.1"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(TC_EFFECTS, LOAD),
        variants: &[
            v!(Has(".block_scale") => [
                TC_D, TC_A, TC_B, TC_IDESC, TC_SCALE_A, TC_SCALE_B, TC_ENABLE,
            ]),
            v!([TC_D, TC_A, TC_B, TC_IDESC, TC_DISABLE, TC_ENABLE, TC_SCALE_D]),
        ],
        reqs: &[
            TC_MMA_REQS[0],
            TC_MMA_REQS[1],
            TC_MMA_REQS[2],
            TC_MMA_REQS[3],
            // The `scale-input-d` argument (7 operands): sm_100a / sm_100f only.
            r!(
                All(&[Not(&Has(".block_scale")), Operands(7)]),
                86,
                100,
                SM100F
            ),
        ],
        modifiers: &[TC_MMA_MODS],
        uncertain: Some(
            ".kind::i8 targets follow the ISA text (sm_100a/101a/110a only), where the CCCL table also lists sm_100f/103a/103f/110f; with 6 operands the 5th may be disable-output-lane or the 6th scale-input-d: only the shape of the operand tells",
        ),
        ..BASE
    },
    Family {
        name: "tcgen05.mma.sp",
        sections: &["9.7.16.10.9.2"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(TC_EFFECTS, LOAD),
        variants: &[
            v!(Has(".block_scale") => [
                TC_D, TC_A, TC_B, TC_SP_META, TC_IDESC, TC_SCALE_A, TC_SCALE_B, TC_ENABLE,
            ]),
            v!([TC_D, TC_A, TC_B, TC_SP_META, TC_IDESC, TC_DISABLE, TC_ENABLE, TC_SCALE_D]),
        ],
        reqs: &[
            TC_MMA_REQS[0],
            TC_MMA_REQS[1],
            TC_MMA_REQS[2],
            TC_MMA_REQS[3],
            r!(
                Any(&[".kind::mxf4", ".kind::mxf4nvf4"]),
                86,
                100,
                &[
                    ArchTarget::a(100),
                    ArchTarget::a(101),
                    ArchTarget::a(103),
                    ArchTarget::a(110)
                ]
            ),
        ],
        modifiers: &[TC_MMA_MODS],
        ..BASE
    },
    Family {
        name: "tcgen05.mma.ws",
        sections: &["9.7.16.10.9.3"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(TC_EFFECTS, LOAD),
        variants: &[v!([TC_D, TC_A, TC_B, TC_IDESC, TC_ENABLE, TC_ZERO_COL])],
        reqs: &[r!(Has(".kind::i8"), 86, 100, SM100A_I8)],
        modifiers: &[TC_MMA_MODS],
        ..BASE
    },
    Family {
        name: "tcgen05.mma.ws.sp",
        sections: &["9.7.16.10.9.4"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(TC_EFFECTS, LOAD),
        variants: &[v!([
            TC_D,
            TC_A,
            TC_B,
            TC_SP_META,
            TC_IDESC,
            TC_ENABLE,
            TC_ZERO_COL
        ])],
        reqs: &[r!(Has(".kind::i8"), 86, 100, SM100A_I8)],
        modifiers: &[TC_MMA_MODS],
        ..BASE
    },
    Family {
        name: "tcgen05.fence",
        sections: &["9.7.16.11.1"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx(SIDE, FENCE),
        variants: NO_OPERANDS,
        modifiers: &[&[".fence::before_thread_sync", ".fence::after_thread_sync"]],
        ..BASE
    },
    Family {
        name: "tcgen05.commit",
        sections: &["9.7.16.12.1"],
        category: Category::Tcgen05,
        min_ptx: 86,
        min_sm: 100,
        arch: SM100_FAM,
        effects: fx3(SIDE, ASYNC, ATOMIC),
        variants: &[v!([
            addr("[mbar]", SP0),
            src("ctaMask", U16).when(Has(".multicast::cluster"))
        ])],
        modifiers: &[
            CTA_GROUP,
            &[
                ".mbarrier::arrive::one",
                ".shared::cluster",
                ".multicast::cluster",
                ".b64",
            ],
        ],
        ..BASE
    },
    // ----- 9.7.17 Stack manipulation ----------------------------------------------------------
    Family {
        name: "stacksave",
        sections: &["9.7.17.1"],
        category: Category::Stack,
        min_ptx: 73,
        min_sm: 52,
        effects: SIDE,
        variants: &[v!([dst("d", N0)])],
        modifiers: &[&[".u32", ".u64"]],
        ..BASE
    },
    Family {
        name: "stackrestore",
        sections: &["9.7.17.2"],
        category: Category::Stack,
        min_ptx: 73,
        min_sm: 52,
        effects: SIDE,
        variants: &[v!([src("a", N0)])],
        modifiers: &[&[".u32", ".u64"]],
        ..BASE
    },
    Family {
        name: "alloca",
        sections: &["9.7.17.3"],
        category: Category::Stack,
        min_ptx: 73,
        min_sm: 52,
        effects: SIDE,
        variants: &[v!([
            dst("ptr", N0),
            src("size", N0),
            imm("immAlign", U32).opt()
        ])],
        modifiers: &[&[".u32", ".u64"]],
        ..BASE
    },
    // ----- 9.7.18 Video ------------------------------------------------------------------------
    video("vadd", false),
    video("vsub", false),
    video("vabsdiff", false),
    video("vmin", false),
    video("vmax", false),
    video("vshl", false),
    video("vshr", false),
    Family {
        name: "vmad",
        sections: &["9.7.18.1.3"],
        category: Category::Video,
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([dst("d", N0), src("a", N1), src("b", N2), src("c", N0)])],
        modifiers: &[&[".u32", ".s32", ".sat", ".po", ".shr7", ".shr15"]],
        ..BASE
    },
    Family {
        name: "vset",
        sections: &["9.7.18.1.4"],
        category: Category::Video,
        min_ptx: 20,
        min_sm: 20,
        variants: &[v!([
            dst("d", U32),
            src("a", N0),
            src("b", N1),
            src("c", U32).opt()
        ])],
        modifiers: &[&[
            ".u32", ".s32", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".add", ".min", ".max",
        ]],
        ..BASE
    },
    video("vadd2", true),
    video("vsub2", true),
    video("vavrg2", true),
    video("vabsdiff2", true),
    video("vmin2", true),
    video("vmax2", true),
    Family {
        name: "vset2",
        sections: &["9.7.18.2.2"],
        category: Category::Video,
        min_ptx: 30,
        min_sm: 30,
        variants: &[v!([
            dst("d", U32),
            src("a", N0),
            src("b", N1),
            src("c", U32)
        ])],
        modifiers: &[&[
            ".u32", ".s32", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".add",
        ]],
        ..BASE
    },
    video("vadd4", true),
    video("vsub4", true),
    video("vavrg4", true),
    video("vabsdiff4", true),
    video("vmin4", true),
    video("vmax4", true),
    Family {
        name: "vset4",
        sections: &["9.7.18.2.4"],
        category: Category::Video,
        min_ptx: 30,
        min_sm: 30,
        variants: &[v!([
            dst("d", U32),
            src("a", N0),
            src("b", N1),
            src("c", U32)
        ])],
        modifiers: &[&[
            ".u32", ".s32", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".add",
        ]],
        ..BASE
    },
    // ----- 9.7.19 Miscellaneous ----------------------------------------------------------------
    Family {
        name: "brkpt",
        sections: &["9.7.19.1"],
        category: Category::Miscellaneous,
        min_sm: 11,
        effects: SIDE,
        variants: NO_OPERANDS,
        ..BASE
    },
    Family {
        name: "nanosleep",
        sections: &["9.7.19.2"],
        category: Category::Miscellaneous,
        min_ptx: 63,
        min_sm: 70,
        effects: SIDE,
        variants: &[v!([src("t", U32)])],
        modifiers: &[&[".u32"]],
        ..BASE
    },
    Family {
        name: "pmevent",
        sections: &["9.7.19.3"],
        category: Category::Miscellaneous,
        min_ptx: 14,
        effects: SIDE,
        variants: &[v!([imm("a", U32)])],
        reqs: &[r!(Has(".mask"), 30, 20)],
        modifiers: &[&[".mask"]],
        ..BASE
    },
    Family {
        name: "trap",
        sections: &["9.7.19.4"],
        category: Category::Miscellaneous,
        effects: fx(SIDE, CONTROL),
        variants: NO_OPERANDS,
        ..BASE
    },
    Family {
        name: "setmaxnreg",
        sections: &["9.7.19.5"],
        category: Category::Miscellaneous,
        min_ptx: 80,
        min_sm: 90,
        arch: SM90A_UP,
        effects: fx(SIDE, WARP),
        variants: &[v!([imm("imm-reg-count", U32)])],
        modifiers: &[SYNC_ALIGNED, &[".inc", ".dec", ".u32"]],
        ..BASE
    },
];

// Defined after the table for readability.

const BAR_VARIANTS: &[Variant] = &[
    v!(All(&[Has(".red"), Has(".popc")]) => [
        dst("d", U32),
        src("a", U32),
        src("b", U32).opt(),
        psrc("c"),
    ]),
    v!(Has(".red") => [pdst("p"), src("a", U32), src("b", U32).opt(), psrc("c")]),
    v!(Has(".arrive") => [src("a", U32), src("b", U32)]),
    v!([src("a", U32), src("b", U32).opt()]),
];
const BAR_MODS: &[&[&str]] = &[&[
    ".cta", ".sync", ".arrive", ".red", ".popc", ".and", ".or", ".aligned", ".u32", ".pred",
]];

const WMMA_REQS: &[Req] = &[
    r!(Any(&[".m8n32k16", ".m32n8k16"]), 61, 70),
    r!(Any(&[".s8", ".u8"]), 63, 72),
    r!(Any(&[".s4", ".u4", ".b1", ".m8n8k32", ".m8n8k128"]), 63, 75),
    r!(
        Any(&[".f64", ".bf16", ".tf32", ".m16n16k8", ".m8n8k4"]),
        70,
        80
    ),
    r!(Has(".shared::cta"), 78, 70),
];
const WMMA_MODS: &[&[&str]] = &[
    SYNC_ALIGNED,
    &[
        ".a",
        ".b",
        ".c",
        ".d",
        ".row",
        ".col",
        ".m16n16k16",
        ".m8n32k16",
        ".m32n8k16",
        ".m16n16k8",
        ".m8n8k4",
        ".m8n8k32",
        ".m8n8k128",
        ".global",
        ".shared",
        ".shared::cta",
        ".f16",
        ".f32",
        ".f64",
        ".s32",
        ".s8",
        ".u8",
        ".s4",
        ".u4",
        ".b1",
        ".bf16",
        ".tf32",
        ".satfinite",
        ".rn",
        ".rz",
        ".rm",
        ".rp",
        ".xor",
        ".and",
        ".popc",
    ],
];
const MMA_MODS: &[&[&str]] = &[
    SYNC_ALIGNED,
    &[
        ".m8n8k4",
        ".m16n8k4",
        ".m16n8k8",
        ".m16n8k16",
        ".m16n8k32",
        ".m16n8k64",
        ".m16n8k128",
        ".m16n8k256",
        ".m8n8k16",
        ".m8n8k32",
        ".m8n8k128",
        ".row",
        ".col",
        ".satfinite",
        ".rn",
        ".xor",
        ".and",
        ".popc",
        ".kind::f8f6f4",
        ".kind::mxf4",
        ".kind::mxf4nvf4",
        ".kind::mxf8f6f4",
        ".block_scale",
        ".scale_vec::1X",
        ".scale_vec::2X",
        ".scale_vec::4X",
        ".sp::ordered_metadata",
        ".f16",
        ".f32",
        ".f64",
        ".bf16",
        ".tf32",
        ".s32",
        ".s8",
        ".u8",
        ".s4",
        ".u4",
        ".b1",
        ".e4m3",
        ".e5m2",
        ".e3m2",
        ".e2m3",
        ".e2m1",
        ".ue8m0",
        ".ue4m3",
    ],
];
const WGMMA_MODS: &[&[&str]] = &[
    SYNC_ALIGNED,
    &[
        ".m64n*k8",
        ".m64n*k16",
        ".m64n*k32",
        ".m64n*k64",
        ".m64n*k256",
        ".satfinite",
        ".f16",
        ".f32",
        ".bf16",
        ".tf32",
        ".e4m3",
        ".e5m2",
        ".s32",
        ".s8",
        ".u8",
        ".b1",
        ".and",
        ".popc",
    ],
];

/// Used by the ISA-coverage test: nothing in the table may be left without a syntax.
#[cfg(test)]
pub(crate) fn check_table() -> Vec<String> {
    let mut problems = Vec::new();
    for f in FAMILIES {
        if f.variants.is_empty() {
            problems.push(format!("{}: no variants", f.name));
        }
        if f.sections.is_empty() {
            problems.push(format!("{}: no ISA section", f.name));
        }
    }
    problems
}
