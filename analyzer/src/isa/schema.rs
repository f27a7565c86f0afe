//! The shape of the ISA table: what one instruction family says, as plain data.
//!
//! A [`Family`] lists operand [`Variant`]s (picked by the modifiers present), requirement
//! rules ([`Req`]: minimum PTX ISA / SM / arch-specific targets of forms with some modifier)
//! and effect rules. Operand [`Slot`]s say how each operand's type, vector size and state
//! space follow from the instruction's modifiers.

use super::types::{PtxType, StateSpace, TypeClass};

/// What an operand position does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Written.
    Dst,
    /// Read.
    Src,
    /// Read and written (the accumulator of `wgmma`, the state of `bar.red`...).
    DstSrc,
    /// A memory address `[...]`; its register(s) are read.
    Addr,
    /// A predicate written.
    PredDst,
    /// A predicate read (`{!}p`).
    PredSrc,
    /// A label or a list of labels (`bra`, `brx.idx`).
    Label,
    /// Must be an immediate (`cp.async.wait_group N`, a `lop3` LUT, `setmaxnreg` count...):
    /// the `"n"` constraint is the only way to pass one from C++.
    Imm,
    /// Anything else (function names and parameter lists of `call`...).
    Other,
}

impl Role {
    /// The operand is (or may be) written by the instruction.
    pub fn writes(&self) -> bool {
        matches!(self, Role::Dst | Role::DstSrc | Role::PredDst)
    }

    /// The operand is (or may be) read by the instruction.
    pub fn reads(&self) -> bool {
        matches!(
            self,
            Role::Src | Role::DstSrc | Role::Addr | Role::PredSrc | Role::Imm
        )
    }
}

/// What an instruction does besides computing its destination registers. A bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Effects(pub u16);

impl Effects {
    pub const NONE: Effects = Effects(0);
    /// Reads memory the program can see.
    pub const LOAD: Effects = Effects(1 << 0);
    /// Writes memory the program can see.
    pub const STORE: Effects = Effects(1 << 1);
    /// Read-modify-write of memory (atomics, reductions, mbarrier arrivals).
    pub const ATOMIC: Effects = Effects(1 << 2);
    /// Orders memory (fences, acquire/release semantics, waits on async completion).
    pub const FENCE: Effects = Effects(1 << 3);
    /// A barrier among threads (`bar`, `barrier`, `barrier.cluster`, `bar.warp.sync`).
    pub const BARRIER: Effects = Effects(1 << 4);
    /// Asynchronous copies, bulk operations, mbarrier and tensor-core async machinery.
    pub const ASYNC: Effects = Effects(1 << 5);
    /// Has an effect that must not be removed or merged although it may write nothing visible:
    /// `nanosleep`, `trap`, `setmaxnreg`, `griddepcontrol`, `wgmma.fence/commit/wait`,
    /// `tcgen05.*`, `cp.async.commit_group`...
    pub const SIDE_EFFECT: Effects = Effects(1 << 6);
    /// Reads state that changes over time (`ld.volatile/.relaxed/.acquire`,
    /// `mbarrier.test_wait/try_wait`, `activemask`...): two executions may differ.
    pub const VOLATILE_READ: Effects = Effects(1 << 7);
    /// Control flow (`bra`, `brx.idx`, `call`, `ret`, `exit`, `trap`).
    pub const CONTROL: Effects = Effects(1 << 8);
    /// Collective among the threads of a warp (`*.sync` warp instructions, `.sync.aligned`
    /// matrix instructions): moving it across divergent code changes its meaning.
    pub const WARP_SYNC: Effects = Effects(1 << 9);
    /// A cache or performance hint with no effect the program can observe (`prefetch`,
    /// `prefetchu`, `applypriority`, `cp.async.bulk.prefetch`).
    pub const HINT: Effects = Effects(1 << 10);

    pub const fn union(self, other: Effects) -> Effects {
        Effects(self.0 | other.0)
    }

    /// All the bits of `other` are set.
    pub const fn contains(&self, other: Effects) -> bool {
        self.0 & other.0 == other.0
    }

    /// Any bit of `other` is set.
    pub const fn intersects(&self, other: Effects) -> bool {
        self.0 & other.0 != 0
    }

    pub const fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Touches memory the program sees: loads, stores, atomics.
    pub const fn touches_memory(&self) -> bool {
        self.intersects(Effects(Self::LOAD.0 | Self::STORE.0 | Self::ATOMIC.0))
    }

    /// Writes or orders memory: stores, atomics, fences, barriers, async operations.
    pub const fn writes_or_orders_memory(&self) -> bool {
        self.intersects(Effects(
            Self::STORE.0 | Self::ATOMIC.0 | Self::FENCE.0 | Self::BARRIER.0 | Self::ASYNC.0,
        ))
    }

    /// Must stay even when its outputs are unused (what `volatile` guarantees): anything that
    /// writes or orders memory, a side effect, control flow.
    pub const fn must_not_be_deleted(&self) -> bool {
        self.writes_or_orders_memory()
            || self.intersects(Effects(Self::SIDE_EFFECT.0 | Self::CONTROL.0))
    }
}

impl std::ops::BitOr for Effects {
    type Output = Effects;
    fn bitor(self, rhs: Effects) -> Effects {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for Effects {
    fn bitor_assign(&mut self, rhs: Effects) {
        *self = self.union(rhs);
    }
}

/// The ISA chapter an instruction belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    IntegerArithmetic,
    ExtendedPrecision,
    FloatingPoint,
    HalfPrecision,
    MixedPrecision,
    Comparison,
    LogicShift,
    DataMovement,
    AsyncCopy,
    Texture,
    Surface,
    ControlFlow,
    Synchronization,
    Mbarrier,
    WarpMatrix,
    Wgmma,
    Tcgen05,
    Stack,
    Video,
    Miscellaneous,
}

/// A condition on the modifiers (the dotted parts after the opcode) of an instruction.
#[derive(Debug, Clone, Copy)]
pub enum Cond {
    Always,
    /// This exact part is present: `Has(".red")`, `Has(".L2::cache_hint")`.
    Has(&'static str),
    /// A part starting with this text is present: `HasPrefix(".kind::")`.
    HasPrefix(&'static str),
    /// Any of these exact parts is present.
    Any(&'static [&'static str]),
    All(&'static [Cond]),
    AnyOf(&'static [Cond]),
    Not(&'static Cond),
    /// The n-th type modifier (0-based, in order) is one of these (`".f16x2"`).
    TypeIn(u8, &'static [&'static str]),
    /// At least n type modifiers.
    Types(u8),
    /// A type modifier of this class is present.
    TypeClassIs(TypeClass),
    /// A type modifier of this size in bits is present.
    TypeBits(u16),
    /// The n-th state-space modifier is this space (`cp.async.bulk.global.shared::cta`: 0 is
    /// `Global`).
    SpaceAt(u8, StateSpace),
    /// The instruction has exactly this many operands (false when the count is not known:
    /// see [`super::resolve_with_count`]).
    Operands(u8),
}

/// How an operand's type follows from the instruction's type modifiers.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// Untyped, or the type cannot be known from the opcode.
    None,
    Fixed(PtxType),
    /// The n-th type modifier (0-based).
    Nth(u8),
    /// The n-th type modifier if present, else the m-th (mixed precision `add.f32.f16`).
    NthOr(u8, u8),
    /// The last type modifier.
    Last,
    /// Twice the size of the n-th type when the modifier is present (`mul.wide`).
    WideIf(u8, &'static str),
    /// The register type of a matrix fragment holding elements of the n-th type: `.f32`,
    /// `.s32`, `.f64` stay; narrower and alternate formats are packed in `.b32` registers.
    Frag(u8),
}

/// How many registers an operand is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vecn {
    /// One register or immediate.
    Scalar,
    /// `{...}` of as many elements as the `.v2`/`.v4`/`.v8` modifier says; scalar without one.
    FromV,
    /// `{...}` of as many elements as `.x1`/`.x2`/`.x4` (ldmatrix, stmatrix, movmatrix).
    FromX,
    /// Exactly n elements.
    Fixed(u8),
    /// A `{...}` fragment whose length follows from the shape (mma, wgmma, wmma).
    Frag,
    /// A scalar, or a `{...}` whose elements split the type evenly (`mov.b64 {lo, hi}, x`).
    Packable,
    /// `tcgen05.ld/st`: `.num` times the registers per element of the shape.
    Tcgen05,
}

/// How an address operand's state space follows from the modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sp {
    None,
    /// The n-th state-space modifier (`cp.async.ca.shared.global`: dst 0, src 1);
    /// generic when there is none.
    Nth(u8),
    Fixed(StateSpace),
}

/// One operand position of a syntax variant.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    /// The ISA's name for it (`d`, `a`, `cache-policy`, `membermask`).
    pub name: &'static str,
    pub role: Role,
    pub ty: Ty,
    pub vec: Vecn,
    pub space: Sp,
    /// May be left out (trailing optional operands, `src-size`...).
    pub optional: bool,
    /// The slot exists only in forms where this holds (`cache-policy` with `.L2::cache_hint`).
    pub when: Cond,
    /// May be written `x|p` with a predicate of this role after the bar.
    pub pair: Option<Role>,
    /// Another way to write this operand (`wgmma`'s A: a descriptor or a register fragment;
    /// `tcgen05.mma`'s A: a descriptor or a tensor-memory address).
    pub alt: Option<&'static Slot>,
}

impl Slot {
    pub const fn new(name: &'static str, role: Role, ty: Ty) -> Slot {
        Slot {
            name,
            role,
            ty,
            vec: Vecn::Scalar,
            space: Sp::None,
            optional: false,
            when: Cond::Always,
            pair: None,
            alt: None,
        }
    }
    pub const fn opt(self) -> Slot {
        Slot {
            optional: true,
            ..self
        }
    }
    pub const fn vec(self, vec: Vecn) -> Slot {
        Slot { vec, ..self }
    }
    pub const fn space(self, space: Sp) -> Slot {
        Slot { space, ..self }
    }
    pub const fn when(self, when: Cond) -> Slot {
        Slot { when, ..self }
    }
    pub const fn pair(self, role: Role) -> Slot {
        Slot {
            pair: Some(role),
            ..self
        }
    }
    pub const fn alt(self, alt: &'static Slot) -> Slot {
        Slot {
            alt: Some(alt),
            ..self
        }
    }
}

/// One syntax of a family, chosen when `when` holds (the first matching variant wins).
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    pub when: Cond,
    pub operands: &'static [Slot],
    /// Takes any number of further operands (`call` parameter lists).
    pub variadic: bool,
}

impl Variant {
    pub const fn new(when: Cond, operands: &'static [Slot]) -> Variant {
        Variant {
            when,
            operands,
            variadic: false,
        }
    }
}

/// A target an arch- or family-specific feature is available on: `sm_90a` is
/// `{ sm: 90, family: false }`, `sm_100f` (that SM or a higher one of the same major version,
/// with an `a` or `f` target) is `{ sm: 100, family: true }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchTarget {
    pub sm: u16,
    pub family: bool,
}

/// A compilation target: `sm_90` is `{ sm: 90, suffix: None }`, `sm_90a` has `Some('a')`,
/// `sm_100f` has `Some('f')`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Target {
    pub sm: u16,
    pub suffix: Option<char>,
}

impl Target {
    /// `sm_90a`, `sm_100f`, `compute_80`, `90a`, `80`.
    pub fn parse(s: &str) -> Option<Target> {
        let s = s.trim();
        let s = s
            .strip_prefix("sm_")
            .or_else(|| s.strip_prefix("compute_"))
            .unwrap_or(s);
        let (num, suffix) = match s.as_bytes().last()? {
            b'a' => (&s[..s.len() - 1], Some('a')),
            b'f' => (&s[..s.len() - 1], Some('f')),
            _ => (s, None),
        };
        let sm: u16 = num.parse().ok()?;
        Some(Target { sm, suffix })
    }

    /// The same major compute capability (`sm_100`/`sm_103` are one family).
    pub fn same_family(&self, sm: u16) -> bool {
        self.sm / 10 == sm / 10
    }
}

impl ArchTarget {
    pub const fn a(sm: u16) -> ArchTarget {
        ArchTarget { sm, family: false }
    }
    pub const fn f(sm: u16) -> ArchTarget {
        ArchTarget { sm, family: true }
    }

    /// Whether code built for `target` may use a feature available on this arch target.
    pub fn accepts(&self, target: &Target) -> bool {
        match target.suffix {
            Some('a') if !self.family => target.sm == self.sm,
            Some('a') | Some('f') if self.family => {
                target.same_family(self.sm) && target.sm >= self.sm
            }
            _ => false,
        }
    }
}

/// A requirement of the forms where `when` holds: the minimum PTX ISA version (x10: 78 is
/// 7.8) and SM, and, when not empty, the arch- or family-specific targets it is limited to.
#[derive(Debug, Clone, Copy)]
pub struct Req {
    pub when: Cond,
    pub ptx: u16,
    pub sm: u16,
    pub arch: &'static [ArchTarget],
}

impl Req {
    pub const fn new(when: Cond, ptx: u16, sm: u16) -> Req {
        Req {
            when,
            ptx,
            sm,
            arch: &[],
        }
    }
    pub const fn arch(when: Cond, ptx: u16, sm: u16, arch: &'static [ArchTarget]) -> Req {
        Req {
            when,
            ptx,
            sm,
            arch,
        }
    }
}

/// Effects added to the forms where `when` holds (`ld.acquire`: volatile read and fence).
#[derive(Debug, Clone, Copy)]
pub struct EffRule {
    pub when: Cond,
    pub add: Effects,
}

/// One instruction family of the PTX ISA (`ld`, `cp.async.bulk.tensor`, `mbarrier.arrive`).
#[derive(Debug, Clone, Copy)]
pub struct Family {
    /// Dotted name as the ISA's table of contents gives it.
    pub name: &'static str,
    /// ISA sections describing it (`"9.7.9.8"`); several for families split over chapters
    /// (`add`: integer, floating point, half precision, mixed precision).
    pub sections: &'static [&'static str],
    pub category: Category,
    /// Minimum PTX ISA version (x10) and SM of the plainest form; 0: all targets.
    pub min_ptx: u16,
    pub min_sm: u16,
    /// Arch-/family-specific targets the whole family is limited to (empty: none).
    pub arch: &'static [ArchTarget],
    pub effects: Effects,
    /// Accepts registers wider than the instruction type ("operand size exceeding
    /// instruction-type size", ISA 9.4.1: `ld`, `st`, `cvt` and alike).
    pub wide_registers: bool,
    pub variants: &'static [Variant],
    pub reqs: &'static [Req],
    pub effect_rules: &'static [EffRule],
    /// Valid modifiers after the name (type modifiers included), in groups so that common
    /// sets are shared. `*` in an entry matches any run of characters (`.m64n*k16`). Empty:
    /// the instruction takes no modifier beyond its name.
    pub modifiers: &'static [&'static [&'static str]],
    /// Deprecated or removed forms (`vote`, `shfl` without `.sync`: not supported on sm_70+
    /// from PTX ISA 6.4).
    pub deprecated: Option<&'static str>,
    /// `(ptx, sm)`: not supported on targets of this SM or higher from this PTX ISA version on
    /// (`vote`, `shfl`: `(64, 70)`).
    pub removed_on: Option<(u16, u16)>,
    /// Why an entry is uncertain, when it is (written from knowledge of the ISA where the
    /// documentation could not settle it).
    pub uncertain: Option<&'static str>,
}
