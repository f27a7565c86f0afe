//! Targets and guards (the rules' `arch-requirement` and `ptx-syntax` read them, and the
//! rules' runner drops what no target compiles): which targets a file is built for, how `#if`
//! conditions (with the build's `-D`/`-U`, the file's own integer macros and the per-target
//! `__CUDA_ARCH__` and feature macros) and `NV_IF_TARGET` queries treat each target, and which
//! functions are compiled for which target. No diagnostics here.

use super::AnalysisContext;
use crate::build::predefined::{device_pass, Compiler, Predefined};
use crate::build::{CudaVersion, MacroFlag};
use crate::cpp::lexer::{Token, TokenKind};
use crate::cpp::preproc::{
    active_conditions, apply_conditional, leaves, parse_directive, CondExpr, CondFrame, Condition,
    DirectiveKind,
};
use crate::cpp::AsmStatement;
use crate::isa::Target;
use crate::SourceFile;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

pub(crate) mod includes;
use includes::IncludeSite;
pub use includes::{
    header_fingerprint, note_reads, record_reads, HeaderCache, HeaderReads, IncludeContext,
};

/// Where a file's targets come from, from the most to the least certain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetSource {
    /// Configuration, database, environment or `--target`.
    Known,
    /// The file's path names an architecture or a product (`gemm_sm90a.cu`, `h100/`).
    Path,
    /// Nothing: the caller infers them from the file itself.
    Unknown,
}

/// The targets a file is built for, and how they are known. With [`TargetSource::Unknown`]
/// the list is every target the toolkit compiles for (with `a`/`f` forms).
pub fn file_targets(file: &SourceFile, cx: &AnalysisContext) -> (Vec<Target>, TargetSource) {
    if !cx.targets.is_empty() {
        return (cx.targets.clone(), TargetSource::Known);
    }
    let path = file.path.to_string_lossy().to_ascii_lowercase();
    if let Some(named) = sm_in_path(&path).or_else(|| product_in_path(&path)) {
        // Such files are built for that architecture, with its arch-specific features.
        let t = Target {
            sm: named.sm,
            suffix: Some(named.suffix.unwrap_or('a')),
        };
        return (vec![t], TargetSource::Path);
    }
    (cx.toolkit().all_targets(), TargetSource::Unknown)
}

/// Product names in a path (`h100`, `gh200`, `b200`, `gb300`, `rtx5090`...): the SM of that
/// product, from NVIDIA's compute capability table.
fn product_in_path(path: &str) -> Option<Target> {
    const PRODUCTS: &[(&str, u16)] = &[
        ("gh200", 90),
        ("h100", 90),
        ("h200", 90),
        ("h800", 90),
        ("h20", 90),
        ("gb200", 100),
        ("b200", 100),
        ("gb300", 103),
        ("b300", 103),
        ("a100", 80),
        ("a800", 80),
        ("a10g", 86),
        ("l40s", 89),
        ("l40", 89),
        ("l4", 89),
        ("rtx5090", 120),
        ("rtx4090", 89),
        ("rtx3090", 86),
        ("dgx_spark", 121),
        ("gb10", 121),
    ];
    let b = path.as_bytes();
    let mut best: Option<Target> = None;
    for (name, sm) in PRODUCTS {
        for (i, _) in path.match_indices(name) {
            let end = i + name.len();
            // A whole word: `h100_kernel.cu`, `kernels/b200/`, not `bh1000` or `blah200`.
            let before_ok = i == 0 || !b[i - 1].is_ascii_alphanumeric();
            let after_ok = end == b.len() || !b[end].is_ascii_alphanumeric();
            if before_ok && after_ok && best.is_none_or(|t| *sm < t.sm) {
                best = Some(Target {
                    sm: *sm,
                    suffix: None,
                });
            }
        }
    }
    best
}

/// `sm90a`, `sm_100`, `sm120f` in a path (the lowest when there are several).
fn sm_in_path(path: &str) -> Option<Target> {
    let b = path.as_bytes();
    let mut best: Option<Target> = None;
    let mut i = 0;
    while i + 2 < b.len() {
        let starts =
            b[i] == b's' && b[i + 1] == b'm' && (i == 0 || !b[i - 1].is_ascii_alphabetic());
        if starts {
            let mut j = i + 2;
            if b.get(j) == Some(&b'_') {
                j += 1;
            }
            let d0 = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j - d0 >= 2 && j - d0 <= 3 {
                let sm: u16 = path[d0..j].parse().unwrap_or(0);
                let suffix = match b.get(j) {
                    Some(b'a') if !b.get(j + 1).is_some_and(u8::is_ascii_alphabetic) => Some('a'),
                    Some(b'f') if !b.get(j + 1).is_some_and(u8::is_ascii_alphabetic) => Some('f'),
                    _ => None,
                };
                if (50..=130).contains(&sm) && best.is_none_or(|b| sm < b.sm) {
                    best = Some(Target { sm, suffix });
                }
            }
        }
        i += 1;
    }
    best
}

/// Whether the statement sits in an `if (...)` block whose condition is about the
/// architecture (`if (cuda::device::current_arch_traits().cluster_supported)`,
/// `if constexpr (Arch >= 90)`): the compiler drops the branch for targets where it is
/// false, so it is a guard we cannot evaluate.
pub fn in_arch_if(stmt: &AsmStatement) -> bool {
    stmt.context.if_conditions.iter().any(|cond| {
        let lower = cond.to_ascii_lowercase();
        lower.contains("arch") || lower.contains("sm_") || mentions_arch(cond)
    })
}

/// Headers are compiled as part of other files: whether their helpers are used, and for
/// which targets, is decided there.
pub fn is_header(file: &SourceFile) -> bool {
    file.path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(is_header_extension)
}

/// `h`, `cuh`, `hpp`...: the extensions of files that are included, not compiled.
pub fn is_header_extension(extension: &str) -> bool {
    matches!(
        extension,
        "h" | "hpp" | "cuh" | "hxx" | "hh" | "inl" | "inc" | "ipp"
    )
}

/// A value of a preprocessor expression for one target: a number, or unknown (`arch`: the
/// unknown part is about the architecture, so it may be what excludes the target).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Unknown { arch: bool },
}

/// Whether a macro name says it is about the architecture: `__CUDA_ARCH__`,
/// `CUTE_ARCH_MMA_SM90A_ENABLED`, `MYLIB_HAS_SM90`, `HOPPER_ENABLED`...
pub fn is_arch_name(name: &str) -> bool {
    // Case-insensitive and without allocating (every word of every `#define` body comes
    // through here): at each byte, only the words starting with that letter are tried.
    let b = name.as_bytes();
    let at = |i: usize, word: &[u8]| {
        b.len() - i >= word.len() && b[i..i + word.len()].eq_ignore_ascii_case(word)
    };
    (0..b.len()).any(|i| {
        let words: &[&[u8]] = match b[i].to_ascii_uppercase() {
            b'A' => &[b"ARCH", b"AMPERE"],
            b'N' => &[b"NV_PROVIDES", b"NV_HAS_FEATURE", b"NV_IS_EXACTLY"],
            b'H' => &[b"HOPPER"],
            b'B' => &[b"BLACKWELL"],
            b'V' => &[b"VOLTA"],
            b'T' => &[b"TURING", b"TCGEN05"],
            b'L' => &[b"LOVELACE"],
            b'W' => &[b"WGMMA"],
            b'C' => &[b"COMPUTE_CAPABILITY"],
            // SM followed by a number: SM90, SM_90, SM90A.
            b'S' => {
                return b.get(i + 1).is_some_and(|m| m.eq_ignore_ascii_case(&b'M'))
                    && (i == 0 || !b[i - 1].is_ascii_alphabetic())
                    && b.get(i + 2).is_some_and(|&d| {
                        d.is_ascii_digit()
                            || (d == b'_' && b.get(i + 3).is_some_and(u8::is_ascii_digit))
                    })
            }
            _ => return false,
        };
        words.iter().any(|w| at(i, w))
    })
}

/// Macros whose value depends on the target.
fn is_target_macro(name: &str) -> bool {
    name.starts_with("__CUDA_ARCH")
}

/// Whether the device pass defines a macro for `t` (`None`: it does not decide).
fn defined_value(name: &str, t: &Target, cuda: CudaVersion, compiler: Compiler) -> Option<bool> {
    if name == "__cccl_ptx_isa" {
        return Some(true);
    }
    device_pass(name, t, cuda, compiler).map(|v| v != Predefined::Undefined)
}

/// A macro's value in the device pass for `t` (`None`: not decided there, or not an integer).
fn ident_value(name: &str, t: &Target, cuda: CudaVersion, compiler: Compiler) -> Option<i64> {
    if name == "__cccl_ptx_isa" {
        // CCCL's headers define it from the toolkit.
        return Some(i64::from(cuda.ptx_isa()) * 10);
    }
    match device_pass(name, t, cuda, compiler)? {
        Predefined::Int(v) => Some(v),
        Predefined::Undefined => Some(0),
        Predefined::Defined => None,
    }
}

/// What a macro is at some point of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacroValue {
    Int(i64),
    /// Defined, to something that is not an integer.
    Defined,
    Undefined,
    /// Defined or not depending on something not known (`arch`: on the architecture).
    Unknown {
        arch: bool,
    },
}

/// The file's own `#define`/`#undef` of object-like macros, by name, in file order, and the
/// build's `-D`/`-U`.
#[derive(Default)]
pub struct Macros {
    events: HashMap<String, Vec<MacroEvent>>,
    build: Vec<(String, MacroValue)>,
    /// The file's `#include`s, in file order, and where they are looked for (`None`: not
    /// followed).
    include_sites: Vec<IncludeSite>,
    includes: Option<IncludeContext>,
    /// The compiler whose device pass predefines macros (NVRTC or nvcc for C++ in Python
    /// strings: `Either`).
    compiler: Compiler,
    /// The build's `-D`/`-U` are known (a compile command): a macro it does not name is not
    /// defined on the command line.
    build_known: bool,
    /// Macros some of the commands (or includers) define and others do not: unknown.
    build_varying: Vec<String>,
}

/// One `#define`/`#undef`.
struct MacroEvent {
    at: u32,
    /// The value for any target.
    value: MacroValue,
    /// A define under conditions about the architecture (`#if __CUDA_ARCH__ >= 800`
    /// `#define HAS_CP_ASYNC 1`): the conditions and the value when they hold, so each target
    /// can evaluate them.
    per_target: Option<(Arc<[Condition]>, MacroValue)>,
}

/// How many macro lookups one `#if` evaluation may spend on conditional defines (chains of
/// them are evaluated recursively; a pathological file must stay linear).
const CONDITIONAL_LOOKUPS: u32 = 64;

impl Macros {
    fn from_build(flags: Option<&[MacroFlag]>) -> Macros {
        let mut m = Macros {
            build_known: flags.is_some(),
            ..Macros::default()
        };
        for f in flags.unwrap_or(&[]) {
            match f {
                MacroFlag::Define(n, v) => m.build.push((n.clone(), literal_value(v))),
                MacroFlag::Undef(n) => m.build.push((n.clone(), MacroValue::Undefined)),
            }
        }
        m
    }

    /// The macro's value just before byte `at`, when the file, a header it included before
    /// or the build says.
    pub fn at(&self, name: &str, at: u32) -> Option<MacroValue> {
        if let Some(events) = self.events.get(name) {
            let before = events.partition_point(|e| e.at < at);
            if before > 0 {
                return Some(events[before - 1].value);
            }
        }
        self.outside_value(name, at)
    }

    /// Whether nothing defines the macro at `at`: not the file before it, not the command
    /// line (known), not the headers included before it (all found). Then it is 0 in `#if`,
    /// as in C++.
    fn nothing_defines(&self, name: &str, at: u32) -> bool {
        self.build_known && !self.build_varying.iter().any(|n| n == name) && self.includes_found(at)
    }

    /// The value from outside the file's own directives: its headers, else the build.
    fn outside_value(&self, name: &str, at: u32) -> Option<MacroValue> {
        self.included_value(name, at)
            .0
            .or_else(|| self.build_value(name))
    }

    /// The value the file's last `#define`/`#undef` of the macro gives it, for any target.
    fn own_last(&self, name: &str) -> Option<MacroValue> {
        self.events.get(name)?.last().map(|e| e.value)
    }

    fn build_value(&self, name: &str) -> Option<MacroValue> {
        self.build
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
    }

    /// The macro's value just before `env.at` for `env`'s target: a define under
    /// architecture conditions counts where they hold. When every define before is under
    /// conditions false for the target, the macro is undefined (unless the build defines it).
    fn for_target(&self, name: &str, env: &Env) -> Option<MacroValue> {
        let Some(events) = self.events.get(name) else {
            return self.outside_value(name, env.at);
        };
        let before = events.partition_point(|e| e.at < env.at);
        for e in events[..before].iter().rev() {
            let Some((conditions, value)) = &e.per_target else {
                return Some(e.value);
            };
            let spent = env.lookups.get();
            if spent == 0 {
                return Some(e.value);
            }
            env.lookups.set(spent - 1);
            match conditions_hold(conditions, env) {
                Some(true) => return Some(*value),
                Some(false) => continue,
                None => return Some(e.value),
            }
        }
        if before > 0 {
            return Some(self.build_value(name).unwrap_or(MacroValue::Undefined));
        }
        self.outside_value(name, env.at)
    }

    /// Whether the conditions of an `#include` hold (for any target; `None`: not known).
    fn site_holds(&self, site: &IncludeSite, cuda: CudaVersion) -> Option<bool> {
        let no_arch = |_: &str| false;
        let lookups = std::cell::Cell::new(CONDITIONAL_LOOKUPS);
        let env = Env {
            target: None,
            cuda,
            macros: self,
            at: 0,
            arch_macro: &no_arch,
            default_of: None,
            lookups: &lookups,
        };
        conditions_hold(&site.conditions, &env)
    }
}

/// `1`, `0x10`, `(2)`, `-1`, `1u`: an integer; anything else is just defined.
fn literal_value(body: &str) -> MacroValue {
    let mut s = body.trim();
    while let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        s = inner.trim();
    }
    let (neg, digits) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim()),
        None => (false, s),
    };
    let digits = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        i64::from_str_radix(hex, 16).ok()
    } else {
        digits.parse::<i64>().ok()
    };
    match v {
        Some(v) => MacroValue::Int(if neg { -v } else { v }),
        None => MacroValue::Defined,
    }
}

/// What an `#if` expression is evaluated with: one target (or none: target macros unknown),
/// the toolkit, the macros known at the directive.
pub struct Env<'e> {
    pub target: Option<&'e Target>,
    pub cuda: CudaVersion,
    pub macros: &'e Macros,
    pub at: u32,
    /// Whether a macro this evaluation does not know is about the architecture.
    pub arch_macro: &'e dyn Fn(&str) -> bool,
    /// A macro taken as undefined when nothing says otherwise: the one a `#ifndef X`
    /// `#define X 0` default defines (the build may override it; then it says so).
    pub default_of: Option<&'e str>,
    /// Lookups of conditional defines left (see [`CONDITIONAL_LOOKUPS`]).
    pub lookups: &'e std::cell::Cell<u32>,
}

/// Evaluates a parsed `#if` expression. The expression's depth is bounded by the parser's
/// own limit on nesting.
pub fn eval(e: &CondExpr, env: &Env) -> Value {
    use Value::*;
    let unknown = |name: &str| Unknown {
        arch: (env.arch_macro)(name),
    };
    let macro_value = |n: &str| match env.target {
        Some(_) => env.macros.for_target(n, env),
        None => env.macros.at(n, env.at),
    };
    let any_target = Target {
        sm: 0,
        suffix: None,
    };
    match e {
        CondExpr::Defined(n) => {
            if is_target_macro(n) {
                return match env.target {
                    Some(t) => defined_value(n, t, env.cuda, env.macros.compiler)
                        .map_or(unknown(n), |b| Int(i64::from(b))),
                    None => Unknown { arch: true },
                };
            }
            if let Some(b) = defined_value(n, &any_target, env.cuda, env.macros.compiler) {
                return Int(i64::from(b));
            }
            match macro_value(n) {
                Some(MacroValue::Int(_) | MacroValue::Defined) => Int(1),
                Some(MacroValue::Undefined) => Int(0),
                Some(MacroValue::Unknown { arch }) => Unknown {
                    arch: arch || (env.arch_macro)(n),
                },
                None if env.default_of == Some(n.as_str()) => Int(0),
                None if env.macros.nothing_defines(n, env.at) => Int(0),
                None => unknown(n),
            }
        }
        CondExpr::Ident(n) => {
            if is_target_macro(n) {
                return match env.target {
                    Some(t) => {
                        ident_value(n, t, env.cuda, env.macros.compiler).map_or(unknown(n), Int)
                    }
                    None => Unknown { arch: true },
                };
            }
            if let Some(v) = ident_value(n, &any_target, env.cuda, env.macros.compiler) {
                return Int(v);
            }
            match macro_value(n) {
                Some(MacroValue::Int(v)) => Int(v),
                Some(MacroValue::Undefined) => Int(0),
                Some(MacroValue::Unknown { arch }) => Unknown {
                    arch: arch || (env.arch_macro)(n),
                },
                None if env.macros.nothing_defines(n, env.at) => Int(0),
                Some(MacroValue::Defined) | None => unknown(n),
            }
        }
        CondExpr::Number(v) => Int(*v),
        CondExpr::Other(text) => unknown(text),
        CondExpr::Not(a) => match eval(a, env) {
            Int(v) => Int(i64::from(v == 0)),
            u => u,
        },
        CondExpr::And(a, b) => match (eval(a, env), eval(b, env)) {
            (Int(0), _) | (_, Int(0)) => Int(0),
            (Int(_), Int(_)) => Int(1),
            (x, y) => merge_unknown(x, y),
        },
        CondExpr::Or(a, b) => match (eval(a, env), eval(b, env)) {
            (Int(x), _) | (_, Int(x)) if x != 0 => Int(1),
            (Int(_), Int(_)) => Int(0),
            (x, y) => merge_unknown(x, y),
        },
        CondExpr::Compare(op, a, b) => match (eval(a, env), eval(b, env)) {
            (Int(x), Int(y)) => Int(i64::from(match *op {
                "==" => x == y,
                "!=" => x != y,
                "<" => x < y,
                "<=" => x <= y,
                ">" => x > y,
                ">=" => x >= y,
                _ => return Unknown { arch: true },
            })),
            (x, y) => merge_unknown(x, y),
        },
    }
}

/// Whether all of `conditions` hold for `env`'s target, each evaluated where it stands
/// (`None`: one could not be evaluated and none is false).
fn conditions_hold(conditions: &[Condition], env: &Env) -> Option<bool> {
    let mut holds = Some(true);
    for c in conditions {
        let at_condition = Env {
            at: c.span.start,
            ..*env
        };
        match eval_condition(c, &at_condition) {
            Value::Int(0) => return Some(false),
            Value::Int(_) => {}
            Value::Unknown { .. } => holds = None,
        }
    }
    holds
}

/// Evaluates one active condition (an `#else` branch holds its `#if` negated).
fn eval_condition(c: &Condition, env: &Env) -> Value {
    match eval(&c.expr, env) {
        Value::Int(x) if c.negated => Value::Int(i64::from(x == 0)),
        v => v,
    }
}

fn merge_unknown(x: Value, y: Value) -> Value {
    let arch = |v: Value| matches!(v, Value::Unknown { arch: true });
    Value::Unknown {
        arch: arch(x) || arch(y),
    }
}

/// Evaluates an `NV_IF_TARGET` query for one target (`None`: not known).
pub fn nv_query(query: &str, t: &Target) -> Option<bool> {
    let q = query.trim();
    let num = |rest: &str| -> Option<(u16, Option<char>)> {
        let (digits, suffix) = match rest.as_bytes().last()? {
            b'a' => (&rest[..rest.len() - 1], Some('a')),
            b'f' => (&rest[..rest.len() - 1], Some('f')),
            _ => (rest, None),
        };
        Some((digits.parse().ok()?, suffix))
    };
    Some(match q {
        "NV_IS_DEVICE" | "NV_ANY_TARGET" => true,
        "NV_IS_HOST" | "NV_NO_TARGET" => false,
        _ => {
            if let Some(rest) = q.strip_prefix("NV_PROVIDES_SM_") {
                let (sm, _) = num(rest)?;
                t.sm >= sm
            } else if let Some(rest) = q.strip_prefix("NV_IS_EXACTLY_SM_") {
                let (sm, _) = num(rest)?;
                t.sm == sm
            } else if let Some(rest) = q.strip_prefix("NV_HAS_FEATURE_SM_") {
                let (sm, suffix) = num(rest)?;
                match suffix {
                    Some('f') => {
                        matches!(t.suffix, Some('a' | 'f')) && t.same_family(sm) && t.sm >= sm
                    }
                    _ => t.suffix == Some('a') && t.sm == sm,
                }
            } else {
                return None;
            }
        }
    })
}

/// What the file says about macros and calls, gathered once per file.
#[derive(Default)]
pub struct FileFacts<'a> {
    /// Every macro the file `#define`s.
    pub defined: HashSet<String>,
    /// Macros defined under an architecture condition, or from one (`#if __CUDA_ARCH__ >=
    /// 900` `#define HAS_SM90 1`).
    pub arch_defined: HashSet<String>,
    /// The values of object-like macros through the file.
    pub macros: Macros,
    /// `#ifndef X` conditions that are include guards (`#define X` right after): true.
    include_guards: HashSet<u32>,
    /// Every identifier followed by `(` or `<` outside directives: possible calls.
    calls: Vec<CallSite<'a>>,
    /// Every function body: name and whether it is a kernel.
    functions: Vec<Rc<(String, bool)>>,
    /// For each of [`FileFacts::functions`], the class whose body defines it (a member
    /// defined in its class), when one does.
    function_classes: Vec<Option<String>>,
    /// [`FileFacts::doubtful`] by name: each statement and target asks again.
    doubtful: std::cell::RefCell<std::collections::HashMap<String, bool>>,
}

/// A place where a function may be called.
#[derive(Clone, Debug)]
struct CallSite<'a> {
    name: &'a str,
    /// The conditions in force there (shared by every call between two directives).
    conditions: Rc<[crate::cpp::preproc::Condition]>,
    /// Inside the arguments of `NV_IF_TARGET`-style dispatch.
    in_nv_target: bool,
    /// The function whose body holds the call, and whether it is a kernel.
    caller: Option<Rc<(String, bool)>>,
}

impl FileFacts<'_> {
    /// Whether an unknown macro may be what excludes a target: its name says it is about
    /// the architecture, the file defines it from architecture conditions, or the file does
    /// not define it at all (a configuration or feature macro from elsewhere). Macros the
    /// file defines plainly (include guards) exclude nothing.
    pub fn doubtful(&self, name: &str) -> bool {
        let name = name[..name.bytes().position(|b| b == b'(').unwrap_or(name.len())].trim();
        if let Some(&known) = self.doubtful.borrow().get(name) {
            return known;
        }
        let doubtful =
            is_arch_name(name) || self.arch_defined.contains(name) || !self.defined.contains(name);
        self.doubtful
            .borrow_mut()
            .insert(name.to_string(), doubtful);
        doubtful
    }
}

const NOT_FUNCTIONS: &[&str] = &[
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "return",
    "sizeof",
    "alignof",
    "decltype",
    "noexcept",
    "defined",
    "__launch_bounds__",
    "__attribute__",
    "__declspec",
    "alignas",
    "static_assert",
    "requires",
];

const NV_DISPATCH: &[&str] = &["NV_IF_TARGET", "NV_IF_ELSE_TARGET", "NV_DISPATCH_TARGET"];

/// Gathers the defines and call sites of a file: one pass over its tokens.
pub fn file_facts<'a>(
    text: &'a str,
    tokens: &[Token],
    build: Option<&[MacroFlag]>,
    cuda: CudaVersion,
    includes: Option<IncludeContext>,
    compiler: Compiler,
) -> FileFacts<'a> {
    let mut facts = FileFacts {
        macros: Macros {
            compiler,
            ..Macros::from_build(build)
        },
        ..FileFacts::default()
    };
    let follow_includes = includes.is_some();
    // A header's own pass does not look into its includes (that would nest one header's
    // pass in another's, as deep as the include chain); lookups made later do.
    let (during_pass, after_pass) = match includes {
        Some(c) if !c.in_header => {
            includes::start_file();
            (Some(c), None)
        }
        later => (None, later),
    };
    facts.macros.includes = during_pass;
    let mut stack: Vec<CondFrame> = Vec::new();
    let mut conditions: Rc<[Condition]> = Rc::from(Vec::new());
    // Rebuilt from `stack` only when read after a change: rebuilding at every `#if` would take
    // time quadratic in the nesting depth.
    let mut conditions_stale = false;
    let refresh = |conditions: &mut Rc<[Condition]>, stale: &mut bool, stack: &[CondFrame]| {
        if std::mem::take(stale) {
            *conditions = active_conditions(stack).into();
        }
    };
    // What each open brace is the body of.
    let mut frames: Vec<Brace> = Vec::new();
    // Token index where the current head (since the last `;`, `{` or `}`) starts.
    let mut head_start = 0usize;
    let mut paren_depth = 0i32;
    // Paren depths at which an NV dispatch's arguments close.
    let mut nv_depths: Vec<i32> = Vec::new();
    // The `#ifndef X` just read (name, directive start), for include guards.
    let mut last_ifndef: Option<(String, u32)> = None;
    let word = |i: usize| -> &'a str { text.get(tokens[i].span.range()).unwrap_or("") };
    for i in 0..tokens.len() {
        let tok = tokens[i];
        match tok.kind {
            TokenKind::Directive => {
                let dir = parse_directive(text, tok.span);
                let ifndef = last_ifndef.take();
                if matches!(dir.kind, DirectiveKind::Define(_) | DirectiveKind::Undef(_)) {
                    refresh(&mut conditions, &mut conditions_stale, &stack);
                }
                match &dir.kind {
                    DirectiveKind::Define(def) => {
                        let body = text.get(def.body.range()).unwrap_or("");
                        // `#ifndef X_H` `#define X_H`: an include guard (not a default value
                        // like `#define X 0`, which the build may override).
                        if body.trim().is_empty()
                            && ifndef.as_ref().is_some_and(|(n, _)| *n == def.name)
                            && facts.macros.at(&def.name, tok.span.start).is_none()
                        {
                            facts.include_guards.insert(ifndef.map_or(0, |(_, at)| at));
                        }
                        facts.defined.insert(def.name.clone());
                        let under_arch = conditions.iter().any(|c| {
                            let mut ls = Vec::new();
                            leaves(&c.expr, &mut ls);
                            ls.iter().any(|l| match l {
                                CondExpr::Defined(n) | CondExpr::Ident(n) | CondExpr::Other(n) => {
                                    is_arch_name(n)
                                }
                                _ => false,
                            })
                        });
                        let arch = under_arch || mentions_arch(body);
                        if arch {
                            facts.arch_defined.insert(def.name.clone());
                        }
                        if def.params.is_none() {
                            let value = if mentions_arch(body) {
                                MacroValue::Unknown { arch: true }
                            } else {
                                match literal_value(body) {
                                    // `#define A B`: B's value now.
                                    MacroValue::Defined
                                        if !body.trim().is_empty()
                                            && body.trim().bytes().all(|b| {
                                                b.is_ascii_alphanumeric() || b == b'_'
                                            }) =>
                                    {
                                        match facts.macros.at(body.trim(), tok.span.start) {
                                            Some(MacroValue::Int(v)) => MacroValue::Int(v),
                                            _ => MacroValue::Unknown { arch: false },
                                        }
                                    }
                                    v => v,
                                }
                            };
                            record(
                                &mut facts,
                                &conditions,
                                &def.name,
                                tok.span.start,
                                value,
                                under_arch,
                                cuda,
                            );
                        }
                    }
                    DirectiveKind::Undef(name) => {
                        record(
                            &mut facts,
                            &conditions,
                            name,
                            tok.span.start,
                            MacroValue::Undefined,
                            false,
                            cuda,
                        );
                    }
                    DirectiveKind::Ifndef(name) => {
                        last_ifndef = Some((name.clone(), tok.span.start))
                    }
                    DirectiveKind::If(CondExpr::Not(inner)) => {
                        if let CondExpr::Defined(name) = inner.as_ref() {
                            last_ifndef = Some((name.clone(), tok.span.start));
                        }
                    }
                    DirectiveKind::Include { quoted, name } if follow_includes => {
                        refresh(&mut conditions, &mut conditions_stale, &stack);
                        let guards = &facts.include_guards;
                        facts.macros.include_sites.push(IncludeSite {
                            at: tok.span.start,
                            quoted: *quoted,
                            name: name.clone(),
                            conditions: conditions
                                .iter()
                                .filter(|c| !guards.contains(&c.span.start))
                                .cloned()
                                .collect(),
                            header: std::sync::OnceLock::new(),
                        });
                    }
                    _ => {}
                }
                let conditional = !matches!(
                    dir.kind,
                    DirectiveKind::Define(_)
                        | DirectiveKind::Undef(_)
                        | DirectiveKind::Include { .. }
                        | DirectiveKind::Other
                );
                apply_conditional(&mut stack, text, &dir);
                conditions_stale |= conditional;
            }
            TokenKind::Punct => match word(i) {
                "(" => paren_depth += 1,
                ")" => {
                    paren_depth -= 1;
                    while nv_depths.last().is_some_and(|&d| paren_depth < d) {
                        nv_depths.pop();
                    }
                }
                "{" => {
                    let head = &tokens[head_start..i];
                    let brace = match function_head(text, head).map(Rc::new) {
                        Some(f) => {
                            facts.functions.push(f.clone());
                            facts.function_classes.push(match frames.last() {
                                Some(Brace::Class(class)) => Some(class.clone()),
                                _ => None,
                            });
                            Brace::Function(f)
                        }
                        None => class_head(text, head).map_or(Brace::Other, Brace::Class),
                    };
                    frames.push(brace);
                    head_start = i + 1;
                }
                "}" => {
                    frames.pop();
                    head_start = i + 1;
                }
                ";" => head_start = i + 1,
                _ => {}
            },
            TokenKind::Ident => {
                let w = word(i);
                let next = tokens
                    .get(i + 1)
                    .map(|t| text.get(t.span.range()).unwrap_or(""));
                if w.starts_with("NV_") && NV_DISPATCH.contains(&w) && next == Some("(") {
                    nv_depths.push(paren_depth + 1);
                    continue;
                }
                if matches!(next, Some("(") | Some("<")) {
                    refresh(&mut conditions, &mut conditions_stale, &stack);
                    facts.calls.push(CallSite {
                        name: w,
                        conditions: conditions.clone(),
                        in_nv_target: !nv_depths.is_empty(),
                        caller: frames.iter().rev().find_map(|f| match f {
                            Brace::Function(f) => Some(f.clone()),
                            _ => None,
                        }),
                    });
                }
            }
            _ => {}
        }
    }
    if after_pass.is_some() {
        facts.macros.includes = after_pass;
    }
    facts
}

/// Records a `#define`/`#undef` at `at` under `conditions`: as it is when they hold, not at
/// all when one is false, unknown when one cannot be evaluated (for any target; where the
/// conditions are about the architecture, each target evaluates them later). Under
/// `#ifndef X` (or `#if !defined(X) && ...`), X is taken as undefined: the define is the
/// file's default.
#[allow(
    clippy::too_many_arguments,
    reason = "one call site, in file order; a struct would only rename them"
)]
fn record(
    facts: &mut FileFacts,
    conditions: &[Condition],
    name: &str,
    at: u32,
    value: MacroValue,
    under_arch: bool,
    cuda: CudaVersion,
) {
    let no_arch = |_: &str| false;
    let lookups = std::cell::Cell::new(CONDITIONAL_LOOKUPS);
    let mut result = Some(if under_arch {
        MacroValue::Unknown { arch: true }
    } else {
        value
    });
    let mut per_target: Vec<Condition> = Vec::new();
    for c in conditions {
        if facts.include_guards.contains(&c.span.start) {
            continue;
        }
        per_target.push(c.clone());
        let env = Env {
            target: None,
            cuda,
            macros: &facts.macros,
            at: c.span.start,
            arch_macro: &no_arch,
            default_of: Some(name),
            lookups: &lookups,
        };
        match eval_condition(c, &env) {
            Value::Int(0) => {
                result = None;
                break;
            }
            Value::Int(_) => {}
            Value::Unknown { arch } => {
                result = Some(MacroValue::Unknown {
                    arch: arch || matches!(result, Some(MacroValue::Unknown { arch: true })),
                })
            }
        }
    }
    if let Some(v) = result {
        let per_target =
            (v == MacroValue::Unknown { arch: true }).then(|| (Arc::from(per_target), value));
        facts
            .macros
            .events
            .entry(name.to_string())
            .or_default()
            .push(MacroEvent {
                at,
                value: v,
                per_target,
            });
    }
}

/// Whether the tokens before a `{` declare a function: `... name(params) quals {`.
/// What a `{` opens: a function's body (its name and whether it is a kernel), a class's
/// (its name), or anything else (a namespace, a block, an initializer).
enum Brace {
    Function(Rc<(String, bool)>),
    Class(String),
    Other,
}

/// The name of the class whose body a `{` after `head` opens (`struct S {`, `class S : B {`,
/// `template <...> struct S<T> {`), or `None`.
fn class_head(text: &str, head: &[crate::cpp::lexer::Token]) -> Option<String> {
    let w = |t: &crate::cpp::lexer::Token| text.get(t.span.range()).unwrap_or("");
    let k = head
        .iter()
        .rposition(|t| matches!(w(t), "struct" | "class" | "union"))?;
    head[k + 1..]
        .iter()
        .find(|t| t.kind == TokenKind::Ident && !matches!(w(t), "alignas" | "final"))
        .map(|t| w(t).to_string())
}

fn function_head(text: &str, head: &[crate::cpp::lexer::Token]) -> Option<(String, bool)> {
    let w = |t: &crate::cpp::lexer::Token| text.get(t.span.range()).unwrap_or("");
    let close = head.iter().rposition(|t| w(t) == ")")?;
    let mut depth = 0;
    let mut open = None;
    for k in (0..=close).rev() {
        match w(&head[k]) {
            ")" => depth += 1,
            "(" => {
                depth -= 1;
                if depth == 0 {
                    open = Some(k);
                    break;
                }
            }
            _ => {}
        }
    }
    let open = open?;
    let name_tok = head.get(open.checked_sub(1)?)?;
    if name_tok.kind != TokenKind::Ident {
        return None;
    }
    let name = w(name_tok);
    if NOT_FUNCTIONS.contains(&name) {
        return None;
    }
    // `= [...] (...) {` lambdas and `x = f(...) {`-like heads are not definitions.
    if head[..open]
        .iter()
        .any(|t| matches!(w(t), "=" | "]" | "return"))
    {
        return None;
    }
    let kernel = head.iter().any(|t| w(t) == "__global__");
    Some((name.to_string(), kernel))
}

fn mentions_arch(body: &str) -> bool {
    body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| !w.is_empty() && is_arch_name(w))
}

fn mentions_arch_leaf(e: &CondExpr, arch_macro: &dyn Fn(&str) -> bool) -> bool {
    let mut ls = Vec::new();
    leaves(e, &mut ls);
    ls.iter().any(|l| match l {
        CondExpr::Defined(n) | CondExpr::Ident(n) | CondExpr::Other(n) => {
            arch_macro(n) || n.starts_with("__CUDA_ARCH")
        }
        _ => false,
    })
}

/// How the statement's guards treat one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guarded {
    /// The statement is compiled for the target.
    No,
    /// A guard is false for the target.
    Excluded,
    /// A guard about the architecture could not be evaluated: counts as guarded.
    InDoubt,
}

/// Guard evaluation for one file: its facts, toolkit and targets, and which functions each
/// target compiles (computed once per target).
pub struct Evaluator<'a> {
    pub facts: FileFacts<'a>,
    pub cuda: CudaVersion,
    pub targets: Vec<Target>,
    pub source: TargetSource,
    header: bool,
    /// See [`crate::build::FileBuild::called_by_includers`].
    called_by_includers: Option<Arc<crate::build::CallsByTarget>>,
    /// Per target: the functions compiled for it.
    compiled: RefCell<HashMap<Target, Rc<HashSet<String>>>>,
}

impl<'a> Evaluator<'a> {
    pub fn new(file: &'a SourceFile, tokens: &[Token], cx: &AnalysisContext) -> Evaluator<'a> {
        let cuda = cx.toolkit();
        let build = cx.macros();
        let (targets, source) = file_targets(file, cx);
        let include_dirs = cx
            .build
            .as_ref()
            .map_or(&[][..], |b| b.include_dirs.as_slice());
        let includes = IncludeContext::for_file(&file.path, include_dirs, build, cuda, &cx.headers);
        let mut facts = file_facts(
            &file.text,
            tokens,
            build,
            cuda,
            includes,
            crate::cpp::compiler_of(file),
        );
        facts.macros.build_varying = cx
            .build
            .as_ref()
            .map_or_else(Vec::new, |b| b.macros_varying.clone());
        Evaluator {
            facts,
            cuda,
            targets,
            source,
            header: is_header(file),
            called_by_includers: cx
                .build
                .as_ref()
                .and_then(|b| b.called_by_includers.clone()),
            compiled: RefCell::new(HashMap::new()),
        }
    }

    /// The functions of the headers the file includes (and theirs) that are compiler
    /// barriers: a call of one orders memory as the barrier in its body does.
    pub fn included_barrier_helpers(&self) -> Vec<String> {
        self.facts.macros.included_barrier_helpers()
    }

    /// The members of the type `name` as the headers the file includes (and theirs) define it:
    /// for each, its dimensions as an array of values (0: not one). `None` when no header defines it.
    pub fn included_type_members(&self, name: &str) -> Option<HashMap<String, u32>> {
        self.facts.macros.included_type_members(name)
    }

    /// How the statement's guards treat one target.
    pub fn guarded_for(&self, stmt: &AsmStatement, t: &Target) -> Guarded {
        let g = self.conditions_guard(&stmt.context.conditions, t);
        if g == Guarded::Excluded {
            return g;
        }
        let mut doubt = g == Guarded::InDoubt;
        for (query, true_branch) in &stmt.context.nv_target {
            match nv_query(query, t) {
                Some(b) if b != *true_branch => return Guarded::Excluded,
                Some(_) => {}
                None => doubt = true,
            }
        }
        if doubt {
            Guarded::InDoubt
        } else {
            Guarded::No
        }
    }

    /// How a list of preprocessor conditions treats one target.
    pub fn conditions_guard(&self, conditions: &[Condition], t: &Target) -> Guarded {
        let arch_macro = |n: &str| self.facts.doubtful(n);
        let mut doubt = false;
        for c in conditions {
            if self.facts.include_guards.contains(&c.span.start) {
                continue;
            }
            let lookups = std::cell::Cell::new(CONDITIONAL_LOOKUPS);
            let env = Env {
                target: Some(t),
                cuda: self.cuda,
                macros: &self.facts.macros,
                at: c.span.start,
                arch_macro: &arch_macro,
                default_of: None,
                lookups: &lookups,
            };
            match eval_condition(c, &env) {
                Value::Int(0) => return Guarded::Excluded,
                Value::Unknown { arch: true } => doubt = true,
                // `NVHPC || __CUDA_ARCH__ >= 800`: unknown, but about the architecture.
                Value::Unknown { arch: false } if mentions_arch_leaf(&c.expr, &arch_macro) => {
                    doubt = true
                }
                _ => {}
            }
        }
        if doubt {
            Guarded::InDoubt
        } else {
            Guarded::No
        }
    }

    /// Whether no target the file may be built for compiles the statement: its `#if`
    /// branches (or `NV_IF_TARGET` queries) are false for every one.
    pub fn never_compiled(&self, stmt: &AsmStatement) -> bool {
        if stmt.context.conditions.is_empty() && stmt.context.nv_target.is_empty() {
            return false;
        }
        self.targets
            .iter()
            .all(|t| self.guarded_for(stmt, t) == Guarded::Excluded)
    }

    /// Whether a function whose body holds asm is compiled for a target: kernels always;
    /// other functions when a call from a compiled function admits the target. With known
    /// targets, helpers the file never calls (and a header's helpers) count as compiled;
    /// otherwise they depend on code we cannot see and count as not compiled.
    pub fn function_compiled(&self, name: &str, kernel: bool, t: &Target) -> bool {
        if kernel {
            return true;
        }
        let set = self.compiled.borrow().get(t).cloned();
        let set = match set {
            Some(s) => s,
            None => {
                let s = Rc::new(self.compiled_functions(t));
                self.compiled.borrow_mut().insert(*t, s.clone());
                s
            }
        };
        set.contains(name)
    }

    /// The functions compiled for `t`: a walk over the call graph from the roots (kernels,
    /// and with known targets the functions nothing in the file calls), along calls whose
    /// guards admit `t`. Linear in the calls; a work list, never a recursion.
    fn compiled_functions(&self, t: &Target) -> HashSet<String> {
        let facts = &self.facts;
        let known = self.source == TargetSource::Known;
        let defined: HashSet<&str> = facts.functions.iter().map(|f| f.0.as_str()).collect();
        let mut calls_by_caller: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut called: HashSet<&str> = HashSet::new();
        for (i, c) in facts.calls.iter().enumerate() {
            let Some(caller) = &c.caller else { continue };
            if caller.0 == c.name || !defined.contains(c.name) {
                continue;
            }
            called.insert(c.name);
            calls_by_caller
                .entry(caller.0.as_str())
                .or_default()
                .push(i);
        }
        let mut compiled: HashSet<String> = HashSet::new();
        let mut work: Vec<&str> = Vec::new();
        // A header's helpers its includers call only under an `#if` (or never) are compiled
        // where those files say, when the build files say which files include it.
        let includers_call = self.called_by_includers.as_deref().map(|by_target| {
            let calls = by_target.get(t);
            move |name: &str| calls.is_some_and(|c| c.contains(name))
        });
        // The classes whose members have each name: the includers' calls are matched by name,
        // so a call of a name members of several classes share (mscclpp's three `signal()`s)
        // says nothing about which one it reaches. Free functions of one name (overloads, a
        // definition per `#if` branch) are matched as before.
        let mut classes: HashMap<&str, HashSet<&str>> = HashMap::new();
        for (f, class) in facts.functions.iter().zip(&facts.function_classes) {
            if let Some(class) = class {
                classes
                    .entry(f.0.as_str())
                    .or_default()
                    .insert(class.as_str());
            }
        }
        let shared_by_classes = |name: &str| classes.get(name).is_some_and(|c| c.len() > 1);
        for f in &facts.functions {
            let root = f.1
                || (known
                    && !called.contains(f.0.as_str())
                    && includers_call.as_ref().is_none_or(|calls| {
                        calls(f.0.as_str()) && !shared_by_classes(f.0.as_str())
                    }));
            if root && compiled.insert(f.0.clone()) {
                work.push(f.0.as_str());
            }
        }
        if self.header && !known {
            // A header's helpers are compiled where its includers call them.
            return compiled;
        }
        while let Some(caller) = work.pop() {
            for &i in calls_by_caller.get(caller).map_or(&[][..], Vec::as_slice) {
                let c = &facts.calls[i];
                if c.in_nv_target || compiled.contains(c.name) {
                    continue;
                }
                if self.conditions_guard(&c.conditions, t) == Guarded::No {
                    compiled.insert(c.name.to_string());
                    work.push(c.name);
                }
            }
        }
        compiled
    }

    /// Whether the statement is compiled for `t`: no guard excludes it (or leaves it in
    /// doubt), and its function is compiled for `t`.
    pub fn compiled_on(&self, stmt: &AsmStatement, t: &Target) -> bool {
        if in_arch_if(stmt) || self.guarded_for(stmt, t) != Guarded::No {
            return false;
        }
        match &stmt.context.function {
            // Not in a function we recognised (or in a macro never used): in doubt.
            None => false,
            Some(f) => self.function_compiled(&f.name, f.has("__global__"), t),
        }
    }
}

#[cfg(test)]
mod tests;
