//! PTX ISA knowledge as data: instruction families, operand roles and types, minimum SM/PTX.
//!
//! The table ([`families`]) holds one [`Family`] per instruction of PTX ISA 9.0, written as
//! struct literals in `table.rs`. [`resolve`] finds the family of an opcode (split into parts
//! as the PTX model does: `ld`, `.global`, `.v4`, `.u32`) and derives the exact form: each
//! operand's role, type, vector size and state space, the minimum PTX ISA / SM of this form
//! (modifier-specific requirements included), whether it needs an arch-specific target, and
//! what it does to memory and control flow.
//!
//! ```
//! use ptxguard_analyzer::isa::{resolve, Role, StateSpace, PtxType};
//! let form = resolve(&["ld", ".global", ".v4", ".u32"]).unwrap();
//! assert_eq!(form.family.name, "ld");
//! assert_eq!(form.operands[0].role, Role::Dst);
//! assert_eq!(form.operands[0].vector, Some(4));
//! assert_eq!(form.operands[0].ty, Some(PtxType::U32));
//! assert_eq!(form.operands[1].space, Some(StateSpace::Global));
//! ```

mod names;
mod schema;
mod special;
mod table;
mod types;

use std::collections::HashMap;
use std::sync::OnceLock;

pub use names::{DIRECTIVES, ISA_FAMILY_NAMES};
pub use schema::{
    ArchTarget, Category, Cond, EffRule, Effects, Family, Req, Role, Slot, Sp, Target, Ty, Variant,
    Vecn,
};
pub use special::{special_register, SpecialRegister, SPECIAL_REGISTERS};
pub use types::{constraint_fits, register_bits, register_type, PtxType, StateSpace, TypeClass};

/// Most requirements a family may list ([`InstrForm::reqs_holding`] has a bit for each).
const MAX_REQS: usize = 64;

/// Most parts an opcode is looked at (longer opcodes are cut; none in the ISA comes close).
const MAX_PARTS: usize = 32;

/// What one operand position of a resolved form expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperandInfo {
    /// The ISA's name for the operand (`d`, `[a]`, `cache-policy`).
    pub name: &'static str,
    pub role: Role,
    /// Type of the operand, or of each element when it is a vector or fragment. `None`: not
    /// known from the opcode.
    pub ty: Option<PtxType>,
    /// Must be a `{...}` of exactly this many elements (`.v4`, `.x4`, tcgen05 `.num`).
    pub vector: Option<u8>,
    /// A `{...}` of registers of `ty` whose length follows from the matrix shape (mma,
    /// wgmma, wmma); a single register is accepted where the fragment has one element.
    pub fragment: bool,
    /// A scalar of `ty`, or a `{...}` whose elements split `ty` evenly (`mov.b64 %0, {a, b}`).
    pub packable: bool,
    /// For [`Role::Addr`]: the state space addressed (`Generic` without a space modifier).
    pub space: Option<StateSpace>,
    pub optional: bool,
    /// May (or must) be written `x|p` with a predicate of this role after the bar
    /// (`shfl.sync d|p`, `setp p|q`, `elect.sync d|p`).
    pub pair: Option<Role>,
    /// Another way to write this operand, told apart by its shape: `wgmma`'s A is a 64-bit
    /// descriptor or a fragment of `.b32` registers; `tcgen05.mma`'s A a descriptor or a
    /// tensor-memory address; `cp.async`'s 4th operand a `src-size` or an `ignore-src`
    /// predicate.
    pub alt: Option<AltOperand>,
}

/// The alternative reading of an operand (see [`OperandInfo::alt`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AltOperand {
    pub name: &'static str,
    pub role: Role,
    pub ty: Option<PtxType>,
    pub fragment: bool,
    pub space: Option<StateSpace>,
}

/// A resolved instruction form: what [`resolve`] derives from one opcode.
#[derive(Debug, Clone)]
pub struct InstrForm {
    pub family: &'static Family,
    /// The operands of the form, in order, including optional ones (see [`Self::operand_for`]
    /// to map the operands actually written).
    pub operands: Vec<OperandInfo>,
    pub min_operands: usize,
    /// `usize::MAX` for variadic forms (`call`).
    pub max_operands: usize,
    /// Minimum PTX ISA version, x10 (`78` = 7.8).
    pub min_ptx: u16,
    /// Minimum SM (`80`); 0 for all targets.
    pub min_sm: u16,
    /// Needs an arch- or family-specific target (`sm_90a`, `sm_100a`, `sm_100f`...).
    pub arch_specific: bool,
    /// The arch/family-specific targets this form is available on (empty when not
    /// arch-specific). See [`Self::supported_on`].
    pub arch_targets: &'static [ArchTarget],
    /// Bit i is set when the condition of `family.reqs[i]` holds for this form: the
    /// requirements [`Self::min_sm`], [`Self::min_ptx`] and [`Self::arch_targets`] come from
    /// (see [`Self::reqs`]).
    pub reqs_holding: u64,
    pub effects: Effects,
    /// Accepts registers wider than the instruction type (ld, st, cvt...).
    pub wide_registers: bool,
    /// Bit i is set when part i belongs to the family name (`ld.global.nc`: parts 0, and the
    /// `.global` and `.nc` parts wherever they stand).
    pub name_parts: u64,
    /// Index of the syntax variant chosen within the family.
    pub variant: usize,
}

impl InstrForm {
    /// The operand expected at position `index` when the instruction has `count` operands:
    /// optional operands are filled left to right while there are operands to spare.
    pub fn operand_for(&self, index: usize, count: usize) -> Option<&OperandInfo> {
        self.operands_for(count).nth(index)
    }

    /// Whether the form takes `count` operands (ptxas: `Arguments mismatch` otherwise).
    pub fn takes_operand_count(&self, count: usize) -> bool {
        (self.min_operands..=self.max_operands).contains(&count)
    }

    /// The operands expected when the instruction has `count` operands.
    pub fn operands_for(&self, count: usize) -> impl Iterator<Item = &OperandInfo> {
        let mut spare = count.saturating_sub(self.min_operands);
        self.operands.iter().filter(move |o| {
            if !o.optional {
                return true;
            }
            if spare > 0 {
                spare -= 1;
                true
            } else {
                false
            }
        })
    }

    /// Whether code compiled for `target` may use this form (SM and arch-specific targets;
    /// the PTX ISA version is [`Self::min_ptx`]).
    pub fn supported_on(&self, target: &Target) -> bool {
        if target.sm < self.min_sm {
            return false;
        }
        if self.arch_targets.is_empty() {
            return true;
        }
        self.arch_targets.iter().any(|a| a.accepts(target))
    }

    /// The family's requirements whose condition holds for this form, in table order (the
    /// last with arch-specific targets gives [`Self::arch_targets`]).
    pub fn reqs(&self) -> impl Iterator<Item = &'static Req> + '_ {
        let family: &'static Family = self.family;
        family
            .reqs
            .iter()
            .enumerate()
            .filter(|(i, _)| self.reqs_holding & (1 << i) != 0)
            .map(|(_, r)| r)
    }

    /// Whether `req` (one of the family's) is what this form's target requirement comes from:
    /// its condition holds, the form's minimum SM is its own (or the family's, when higher),
    /// and the form's arch-specific targets are its own (or the family's, when it names
    /// none). Another requirement of the form that asks more would decide instead.
    pub fn bound_by(&self, req: &Req) -> bool {
        let arch = if req.arch.is_empty() {
            self.family.arch
        } else {
            req.arch
        };
        self.reqs().any(|r| std::ptr::eq(r, req))
            && req.sm.max(self.family.min_sm) == self.min_sm
            && self.arch_targets == arch
    }

    /// Some operand of this form writes memory, reads it, or orders it.
    pub fn has_memory_effect(&self) -> bool {
        self.effects.touches_memory() || self.effects.writes_or_orders_memory()
    }
}

/// A target requirement the table states, which `arch-requirement` may claim: a family's
/// own (its minimum SM, arch-specific targets or removal: `req` is `None`) or one of its
/// [`Req`]s. The SM probe measures each on a form it decides ([`Self::decides`]).
#[derive(Debug, Clone, Copy)]
pub struct TargetRequirement {
    pub family: &'static Family,
    pub req: Option<&'static Req>,
}

impl TargetRequirement {
    /// The requirement's condition as `{:?}` writes it (`Has(".f32x2")`), or `family` for the
    /// family's own: with [`Self::family`], what names it in lists of exemptions.
    pub fn condition(&self) -> String {
        match self.req {
            Some(r) => format!("{:?}", r.when),
            None => "family".to_string(),
        }
    }

    /// Whether this requirement decides `form`'s targets: the form is of the family, and the
    /// requirement binds it ([`InstrForm::bound_by`]), or, for the family's own, no
    /// requirement of the form asks more than the family.
    pub fn decides(&self, form: &InstrForm) -> bool {
        if !std::ptr::eq(form.family, self.family) {
            return false;
        }
        match self.req {
            Some(r) => form.bound_by(r),
            None => form.min_sm == self.family.min_sm && form.arch_targets == self.family.arch,
        }
    }
}

/// Every target requirement that excludes some target from `oldest_sm` on: a minimum SM
/// above it, arch-specific targets, a removal; in table order.
pub fn target_requirements(oldest_sm: u16) -> Vec<TargetRequirement> {
    let mut out = Vec::new();
    for family in families() {
        if family.min_sm > oldest_sm || !family.arch.is_empty() || family.removed_on.is_some() {
            out.push(TargetRequirement { family, req: None });
        }
        for req in family.reqs {
            if req.sm > oldest_sm || !req.arch.is_empty() {
                out.push(TargetRequirement {
                    family,
                    req: Some(req),
                });
            }
        }
    }
    out
}

/// The whole table.
pub fn families() -> &'static [Family] {
    table::FAMILIES
}

/// The family with exactly this dotted name.
pub fn family(name: &str) -> Option<&'static Family> {
    index().by_name.get(name).copied()
}

struct Entry {
    family: &'static Family,
    /// Name parts after the first, without dots.
    rest: Vec<&'static str>,
}

struct Index {
    /// First name part -> families starting with it, longest names first.
    by_first: HashMap<&'static str, Vec<Entry>>,
    by_name: HashMap<&'static str, &'static Family>,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut by_first: HashMap<&'static str, Vec<Entry>> = HashMap::new();
        let mut by_name = HashMap::new();
        for family in table::FAMILIES {
            let mut it = family.name.split('.');
            let first = it.next().unwrap_or("");
            let rest: Vec<&'static str> = it.collect();
            by_first
                .entry(first)
                .or_default()
                .push(Entry { family, rest });
            by_name.entry(family.name).or_insert(family);
        }
        for entries in by_first.values_mut() {
            // Longest first; the sort is stable, so table order breaks ties.
            entries.sort_by_key(|e| std::cmp::Reverse(e.rest.len()));
        }
        Index { by_first, by_name }
    })
}

fn strip_dot(p: &str) -> &str {
    p.strip_prefix('.').unwrap_or(p)
}

/// A modifier part matches a name part exactly or as `name::sub` (`.fence::after_thread_sync`
/// for `tcgen05.fence`, `.sp::ordered_metadata` for `mma.sp`).
fn part_matches_name(part: &str, name: &str) -> bool {
    strip_dot(part)
        .strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
}

/// Finds the family of an opcode and which parts spell its name. Families are matched by
/// their dotted name as a prefix of the parts; the later name parts may also stand after
/// other modifiers where the ISA puts them there (`mad.hi.cc`, `ld.global.ca.nc`).
fn find_family(parts: &[&str]) -> Option<(&'static Family, u64)> {
    let first = strip_dot(parts.first()?);
    let entries = index().by_first.get(first)?;
    let parts = &parts[..parts.len().min(MAX_PARTS)];
    // Longest name wins; among names of one length, the one whose parts stand earliest
    // (`mbarrier.arrive.expect_tx` is `mbarrier.arrive`, not `mbarrier.expect_tx`).
    let mut best: Option<(usize, u32, &'static Family, u64)> = None;
    'entries: for e in entries {
        if let Some((len, _, _, _)) = best {
            if e.rest.len() < len {
                break;
            }
        }
        let mut mask = 1u64;
        let mut pos = 1;
        let mut score = 0u32;
        for np in &e.rest {
            loop {
                if pos >= parts.len() {
                    continue 'entries;
                }
                let hit = part_matches_name(parts[pos], np);
                pos += 1;
                if hit {
                    mask |= 1 << (pos - 1);
                    score += pos as u32;
                    break;
                }
            }
        }
        if best.is_none_or(|(_, s, _, _)| score < s) {
            best = Some((e.rest.len(), score, e.family, mask));
        }
    }
    best.map(|(_, _, f, m)| (f, m))
}

/// What the modifiers of one instruction say, gathered once.
struct Ctx<'a> {
    parts: &'a [&'a str],
    types: [(PtxType, &'a str); 8],
    ntypes: usize,
    spaces: [StateSpace; 4],
    nspaces: usize,
    operands: Option<usize>,
}

impl<'a> Ctx<'a> {
    fn new(parts: &'a [&'a str], operands: Option<usize>) -> Ctx<'a> {
        let mut ctx = Ctx {
            parts,
            types: [(PtxType::PRED, ""); 8],
            ntypes: 0,
            spaces: [StateSpace::Generic; 4],
            nspaces: 0,
            operands,
        };
        for &p in parts.iter().skip(1) {
            if let Some(t) = PtxType::parse(p) {
                if ctx.ntypes < ctx.types.len() {
                    ctx.types[ctx.ntypes] = (t, p);
                    ctx.ntypes += 1;
                }
            } else if let Some(s) = StateSpace::parse(p) {
                if ctx.nspaces < ctx.spaces.len() {
                    ctx.spaces[ctx.nspaces] = s;
                    ctx.nspaces += 1;
                }
            }
        }
        ctx
    }

    fn has(&self, m: &str) -> bool {
        self.parts.iter().skip(1).any(|p| *p == m)
    }

    fn ty(&self, i: u8) -> Option<PtxType> {
        let i = i as usize;
        (i < self.ntypes).then(|| self.types[i].0)
    }

    fn eval(&self, c: &Cond) -> bool {
        match *c {
            Cond::Always => true,
            Cond::Has(m) => self.has(m),
            Cond::HasPrefix(m) => self.parts.iter().skip(1).any(|p| p.starts_with(m)),
            Cond::Any(ms) => ms.iter().any(|m| self.has(m)),
            Cond::All(cs) => cs.iter().all(|c| self.eval(c)),
            Cond::AnyOf(cs) => cs.iter().any(|c| self.eval(c)),
            Cond::Not(c) => !self.eval(c),
            Cond::TypeIn(i, names) => {
                let i = i as usize;
                i < self.ntypes && names.contains(&self.types[i].1)
            }
            Cond::Types(n) => self.ntypes >= n as usize,
            Cond::TypeClassIs(class) => {
                self.types[..self.ntypes].iter().any(|t| t.0.class == class)
            }
            Cond::TypeBits(bits) => self.types[..self.ntypes].iter().any(|t| t.0.bits == bits),
            Cond::SpaceAt(i, s) => (i as usize) < self.nspaces && self.spaces[i as usize] == s,
            Cond::Operands(n) => self.operands == Some(n as usize),
        }
    }

    fn count_modifier(&self, prefix: &str) -> Option<u8> {
        self.parts.iter().skip(1).find_map(|p| {
            p.strip_prefix(prefix)
                .and_then(|n| n.parse::<u16>().ok())
                .map(|n| n.min(255) as u8)
        })
    }

    fn type_of(&self, ty: Ty) -> Option<PtxType> {
        match ty {
            Ty::None => None,
            Ty::Fixed(t) => Some(t),
            Ty::Nth(i) => self.ty(i),
            Ty::NthOr(i, j) => self.ty(i).or_else(|| self.ty(j)),
            Ty::Last => (self.ntypes > 0).then(|| self.types[self.ntypes - 1].0),
            Ty::WideIf(i, m) => self.ty(i).map(|t| {
                if self.has(m) {
                    PtxType::new(t.class, t.bits * 2)
                } else {
                    t
                }
            }),
            Ty::Frag(i) => self.ty(i).map(|t| match (t.class, t.bits) {
                (TypeClass::Float, 32 | 64) | (TypeClass::Signed, 32) if !t.packed => t,
                _ => PtxType::B32,
            }),
        }
    }

    fn vector_of(&self, v: Vecn) -> Option<u8> {
        match v {
            Vecn::FromV => self.count_modifier(".v"),
            Vecn::FromX => self.count_modifier(".x"),
            Vecn::Fixed(n) => Some(n),
            Vecn::Tcgen05 => {
                let num = self.count_modifier(".x")? as u16;
                let per = if self.has(".16x128b") {
                    2
                } else if self.has(".16x256b") {
                    4
                } else {
                    1
                };
                Some((num * per).min(255) as u8)
            }
            Vecn::Scalar | Vecn::Frag | Vecn::Packable => None,
        }
    }

    fn space_of(&self, sp: Sp) -> Option<StateSpace> {
        match sp {
            Sp::None => None,
            Sp::Fixed(s) => Some(s),
            Sp::Nth(i) => Some(if (i as usize) < self.nspaces {
                self.spaces[i as usize]
            } else {
                StateSpace::Generic
            }),
        }
    }

    fn operand(&self, s: &Slot) -> OperandInfo {
        OperandInfo {
            name: s.name,
            role: s.role,
            ty: self.type_of(s.ty),
            vector: self.vector_of(s.vec),
            fragment: s.vec == Vecn::Frag,
            packable: s.vec == Vecn::Packable,
            space: self.space_of(s.space),
            optional: s.optional,
            pair: s.pair,
            alt: s.alt.map(|a| AltOperand {
                name: a.name,
                role: a.role,
                ty: self.type_of(a.ty),
                fragment: a.vec == Vecn::Frag,
                space: self.space_of(a.space),
            }),
        }
    }
}

/// Finds the family whose dotted name is the longest prefix of the instruction's parts
/// (`cp.async.bulk.tensor.2d...` -> `cp.async.bulk.tensor`, `cp.async.cg.shared.global` ->
/// `cp.async`, `cp.async.wait_group` -> `cp.async.wait_group`; later name parts may stand
/// after other modifiers where the ISA puts them there: `mad.hi.cc`, `ld.global.ca.nc`), then
/// derives the form: operand roles, types (from `.type`, `.dtype.atype`, `.vN`, fixed types),
/// state spaces (from `.global/.shared/.shared::cta/.shared::cluster/.local/.const/.param`,
/// generic when none), the minimum PTX/SM of this exact form, arch-specific targets, effects.
///
/// Parts are the opcode split on `.`, the first without a dot, the others with it (`::`
/// stays inside a part). Forms whose requirements depend on the operand count (`min` with
/// three inputs, `mbarrier.arrive` with a count) need [`resolve_with_count`].
pub fn resolve(parts: &[&str]) -> Option<InstrForm> {
    resolve_inner(parts, None)
}

/// [`resolve`], knowing how many operands the instruction has.
pub fn resolve_with_count(parts: &[&str], operand_count: usize) -> Option<InstrForm> {
    resolve_inner(parts, Some(operand_count))
}

/// [`resolve_with_count`] on parts given one by one, without allocating (the PTX model's
/// `Instruction::form` uses it).
pub fn resolve_parts<'a>(
    parts: impl IntoIterator<Item = &'a str>,
    operand_count: usize,
) -> Option<InstrForm> {
    let mut buf: [&str; MAX_PARTS] = [""; MAX_PARTS];
    let mut n = 0;
    for (b, p) in buf.iter_mut().zip(parts) {
        *b = p;
        n += 1;
    }
    resolve_inner(&buf[..n], Some(operand_count))
}

fn resolve_inner(parts: &[&str], operands: Option<usize>) -> Option<InstrForm> {
    let (family, name_parts) = find_family(parts)?;
    let parts = &parts[..parts.len().min(MAX_PARTS)];
    let ctx = Ctx::new(parts, operands);

    let (variant_index, variant) = family
        .variants
        .iter()
        .enumerate()
        .find(|(_, v)| ctx.eval(&v.when))
        .or_else(|| family.variants.iter().enumerate().next_back())?;

    let mut ops = Vec::with_capacity(variant.operands.len());
    for s in variant.operands {
        if ctx.eval(&s.when) {
            ops.push(ctx.operand(s));
        }
    }
    let min_operands = ops.iter().filter(|o| !o.optional).count();
    let max_operands = if variant.variadic {
        usize::MAX
    } else {
        ops.len()
    };

    let mut min_ptx = family.min_ptx;
    let mut min_sm = family.min_sm;
    let mut arch = family.arch;
    let mut reqs_holding = 0u64;
    // `MAX_REQS` bits: a test checks no family has more.
    for (i, r) in family.reqs.iter().enumerate().take(MAX_REQS) {
        if ctx.eval(&r.when) {
            reqs_holding |= 1 << i;
            min_ptx = min_ptx.max(r.ptx);
            min_sm = min_sm.max(r.sm);
            if !r.arch.is_empty() {
                arch = r.arch;
            }
        }
    }
    let mut effects = family.effects;
    for e in family.effect_rules {
        if ctx.eval(&e.when) {
            effects |= e.add;
        }
    }

    Some(InstrForm {
        family,
        operands: ops,
        min_operands,
        max_operands,
        min_ptx,
        min_sm,
        arch_specific: !arch.is_empty(),
        arch_targets: arch,
        reqs_holding,
        effects,
        wide_registers: family.wide_registers,
        name_parts,
        variant: variant_index,
    })
}

/// Whether a modifier part is valid for the family (listed among its modifiers; `*` in a
/// listed entry matches any run of characters). Families that list none take no modifier.
pub fn is_valid_modifier(family: &Family, part: &str) -> bool {
    family
        .modifiers
        .iter()
        .any(|g| g.iter().any(|m| glob_match(m, part)))
}

/// Indices of the parts that are neither part of the family name nor a listed modifier
/// (`ld.gloabl.u32` -> `[1]`). Empty when the opcode is fully valid or its family unknown.
pub fn invalid_modifiers(parts: &[&str]) -> Vec<usize> {
    let Some((family, mask)) = find_family(parts) else {
        return Vec::new();
    };
    parts
        .iter()
        .enumerate()
        .skip(1)
        .take(MAX_PARTS - 1)
        .filter(|(i, p)| mask & (1 << i) == 0 && !is_valid_modifier(family, p))
        .map(|(i, _)| i)
        .collect()
}

fn glob_match(pattern: &str, text: &str) -> bool {
    // Most patterns have no `*`: a plain comparison (patterns are short; no searcher).
    let Some(star) = pattern.bytes().position(|b| b == b'*') else {
        return pattern == text;
    };
    let (head, tail) = (&pattern[..star], &pattern[star + 1..]);
    let tail_has_star = tail.bytes().any(|b| b == b'*');
    text.len() >= head.len() + tail.len()
        && text.starts_with(head)
        && (tail_has_star && glob_match(tail, &text[head.len()..])
            || !tail_has_star && text[head.len()..].ends_with(tail))
}

/// Calls `f` with the opcode split into parts (no allocation for up to 32 parts).
fn with_parts<'s, R>(s: &'s str, f: impl FnOnce(&[&'s str]) -> R) -> R {
    let mut buf: [&'s str; MAX_PARTS] = [""; MAX_PARTS];
    let mut n = 0;
    for (i, piece) in s.split('.').enumerate() {
        if n == MAX_PARTS {
            break;
        }
        if i == 0 {
            buf[n] = piece;
        } else {
            // Re-attach the dot: slice it from the original string.
            let start = piece.as_ptr() as usize - s.as_ptr() as usize - 1;
            buf[n] = &s[start..start + piece.len() + 1];
        }
        n += 1;
    }
    f(&buf[..n])
}

/// Whether a dotted opcode (`ld.global.v4.u32`, `cp.async.wait_group`, `reg`) belongs to a
/// known instruction family. Modifiers are not checked (see [`invalid_modifiers`]).
pub fn is_known_opcode(base_dotted: &str) -> bool {
    let s = base_dotted.trim();
    !s.is_empty() && !s.starts_with('.') && with_parts(s, |parts| find_family(parts).is_some())
}

/// Suggests a correction for an unknown opcode or one with an invalid modifier:
/// `ld.gloabl.u32` -> `ld.global.u32` (edit distance on parts), `reg` -> `.reg` (a directive
/// missing its dot), `cp.async.wait_gruop` -> `cp.async.wait_group`, `mvo.u32` -> `mov.u32`.
/// `None` when nothing close enough is found or nothing needs changing.
pub fn suggest_opcode(unknown: &str) -> Option<String> {
    // A template repeats its mistakes (one misspelt opcode on every line; the fix loop
    // re-analyses the file): each word is worked out once per thread.
    thread_local! {
        static SUGGESTED: std::cell::RefCell<HashMap<String, Option<String>>> =
            std::cell::RefCell::new(HashMap::new());
    }
    const REMEMBERED: usize = 4096;
    if let Some(known) = SUGGESTED.with(|m| m.borrow().get(unknown).cloned()) {
        return known;
    }
    let suggestion = work_out_suggestion(unknown);
    SUGGESTED.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= REMEMBERED {
            m.clear();
        }
        m.insert(unknown.to_string(), suggestion.clone());
    });
    suggestion
}

fn work_out_suggestion(unknown: &str) -> Option<String> {
    let s = unknown.trim();
    if s.is_empty() {
        return None;
    }
    let dotted = format!(".{s}");
    let head = dotted.split('.').nth(1).unwrap_or("");
    if !s.starts_with('.')
        && DIRECTIVES.contains(&format!(".{head}").as_str())
        && !is_known_opcode(s)
    {
        return Some(dotted);
    }
    let idx = index();
    let mut parts: Vec<String> = Vec::new();
    with_parts(s, |p| parts.extend(p.iter().map(|x| x.to_string())));
    // No real opcode has this many parts: nothing to suggest (and no time spent on it).
    if parts.len() > MAX_SUGGESTED_PARTS {
        return None;
    }
    let mut changed = false;

    // The instruction name.
    if !idx.by_first.contains_key(strip_dot(&parts[0])) {
        let best = nearest(&parts[0], idx.by_first.keys().copied())?;
        parts[0] = best.to_string();
        changed = true;
    }

    // The modifiers: nearest valid modifier of the family or name part of a family sharing
    // the first name part.
    let first = parts[0].clone();
    let candidates: Vec<&'static str> = {
        let mut c: Vec<&'static str> = Vec::new();
        if let Some(entries) = idx.by_first.get(first.as_str()) {
            for e in entries {
                for g in e.family.modifiers {
                    c.extend(g.iter().filter(|m| !m.contains('*')).copied());
                }
            }
        }
        c.sort_unstable();
        c.dedup();
        c
    };
    let name_candidates: Vec<String> = idx
        .by_first
        .get(first.as_str())
        .map(|entries| {
            entries
                .iter()
                .flat_map(|e| e.rest.iter().map(|r| format!(".{r}")))
                .collect()
        })
        .unwrap_or_default();
    let bad: Vec<usize> = {
        let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
        match find_family(&refs) {
            Some(_) => invalid_modifiers(&refs),
            None => (1..refs.len()).collect(),
        }
    };
    for i in bad {
        let known = candidates.iter().any(|c| *c == parts[i])
            || name_candidates.iter().any(|c| *c == parts[i]);
        if known {
            continue;
        }
        let pool = candidates
            .iter()
            .copied()
            .chain(name_candidates.iter().map(String::as_str));
        if let Some(best) = nearest(&parts[i], pool) {
            parts[i] = best.to_string();
            changed = true;
        }
    }
    if !changed {
        return None;
    }
    let out = parts.concat();
    (out != s).then_some(out)
}

/// The most parts (`ld`, `.global`, `.u32`...) an opcode may have for a suggestion.
const MAX_SUGGESTED_PARTS: usize = 24;

/// The closest candidate by edit distance (with transpositions), if close enough: at most 1
/// edit for words up to 4 characters, 2 beyond, and fewer edits than the word has letters.
fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let w = strip_dot(word);
    let limit = if w.len() <= 4 { 1 } else { 2 };
    let chars = w.chars().count();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let c_chars = strip_dot(c).chars().count();
        // The distance is at least the difference in length: most candidates stop here.
        if chars.abs_diff(c_chars) > limit {
            continue;
        }
        let d = edit_distance(w, strip_dot(c));
        if d == 0 || d > limit || d >= w.len() {
            continue;
        }
        if best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance (Levenshtein plus adjacent transpositions), on three
/// rolling rows: it runs for every unknown opcode against every candidate of its length.
fn edit_distance(a: &str, b: &str) -> usize {
    if a.is_ascii() && b.is_ascii() {
        osa_distance(a.as_bytes(), b.as_bytes())
    } else {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        osa_distance(&a, &b)
    }
}

fn osa_distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let m = b.len();
    let mut before: Vec<usize> = vec![0; m + 1];
    let mut previous: Vec<usize> = (0..=m).collect();
    let mut row: Vec<usize> = vec![0; m + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (previous[j] + 1)
                .min(row[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(before[j - 2] + 1);
            }
            row[j] = v;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut row);
    }
    previous[m]
}

#[cfg(test)]
mod tests;
