use crate::util::{diagnostic, instr_form, template_span};
use crate::Ctx;
use ptxguard_analyzer::cpp::lexer::{Token, TokenKind};
use ptxguard_analyzer::cpp::preproc::{
    active_conditions, apply_conditional, leaves, parse_directive, CondExpr, CondFrame,
    DirectiveKind,
};
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::isa::{special_register, ArchTarget, InstrForm, Target};
use ptxguard_analyzer::ptx::{Instruction, OperandKind};
use ptxguard_analyzer::Diagnostic;
use std::collections::HashSet;
use std::ops::Range;
use std::rc::Rc;

declare_rule! {
    /// ## What it does
    /// Flags an instruction form (or special register) that needs a newer SM or PTX ISA
    /// than some target the statement is compiled for, when no guard excludes that target.
    /// Arch-specific forms count: `wgmma` needs `sm_90a`, `tcgen05` an `sm_100a`/`sm_100f`
    /// target, `setmaxnreg` one of the `a`/`f` targets from `sm_90a` on. Forms removed from
    /// newer targets count too (`shfl`, `vote` without `.sync` on `sm_70` and later).
    ///
    /// Targets are the configured ones (`--target sm_80,sm_90a`). By default they are every
    /// real target nvcc 13.0 compiles for, without arch-specific suffix: `sm_75`, `sm_80`,
    /// `sm_86`, `sm_87`, `sm_88`, `sm_89`, `sm_90`, `sm_100`, `sm_103`, `sm_110`, `sm_120`,
    /// `sm_121`. So by default anything newer than `sm_75` must be guarded, and arch-specific
    /// forms must be guarded by a feature macro. A file whose path names an architecture
    /// (`gemm_sm90a.cu`, `kernels/sm100/...`) is taken to be built for that one, with its
    /// arch-specific features. The PTX ISA is the one nvcc 13.0 emits, 9.0.
    ///
    /// Asm is compiled only where its function is: a kernel always; another function when a
    /// call in the same file reaches it for that target (the call's own guards, and its
    /// caller's, count: a helper called only under `#if __CUDA_ARCH__ >= 800` is guarded).
    /// Helpers of headers, and helpers the file never calls, depend on code this file does
    /// not show: they count as guarded. So does asm in an `if` whose condition is about the
    /// architecture (`if (cuda::device::current_arch_traits().cluster_supported)`).
    ///
    /// A guard is evaluated for each target, and excludes it when it is false there:
    /// - a preprocessor condition on `__CUDA_ARCH__` (`#if __CUDA_ARCH__ >= 900`, `#else`
    ///   branches included);
    /// - the feature macros `__CUDA_ARCH_FEAT_SM90_ALL` (defined for `sm_90a` only),
    ///   `__CUDA_ARCH_SPECIFIC__` (`a` targets) and `__CUDA_ARCH_FAMILY_SPECIFIC__` (`a` and
    ///   `f` targets);
    /// - `NV_IF_TARGET` / `NV_IF_ELSE_TARGET` / `NV_DISPATCH_TARGET` with `NV_PROVIDES_SM_XX`,
    ///   `NV_IS_EXACTLY_SM_XX`, `NV_HAS_FEATURE_SM_XXa`.
    ///
    /// When in doubt the statement counts as guarded: a macro defined elsewhere whose name
    /// says it is an architecture guard (`CUTE_ARCH_MMA_SM90A_ENABLED`, `*_SM90_ENABLED`,
    /// `__CUDA_ARCH_...`), a macro this file defines from such conditions, a condition that
    /// cannot be evaluated. Conditions unrelated to the architecture (include guards,
    /// `#ifdef DEBUG`) exclude nothing.
    ///
    /// ## Why is this bad?
    /// ptxas rejects the whole translation unit for the older target, far from the asm.
    /// Measured with nvcc 13.0: `redux.sync` built for `sm_75` gives `Feature 'redux'
    /// requires .target sm_80 or higher`; `wgmma.fence` built for `sm_90` (not `sm_90a`)
    /// gives `Instruction 'wgmma.fence' not supported on .target 'sm_90'`. A guard of
    /// `__CUDA_ARCH__ >= 900` is not enough for `wgmma`: plain `sm_90` passes it.
    ///
    /// ## Example
    /// ```cuda
    /// __device__ void fence() {
    ///   asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    /// }
    /// ```
    /// Use instead:
    /// ```cuda
    /// __device__ void fence() {
    /// #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    ///   asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    /// #endif
    /// }
    /// ```
    pub static META = {
        name: "arch-requirement",
        severity: Warning,
        fix: None,
        default_enabled: true,
        summary: "an instruction needing a newer SM or PTX ISA than an unguarded target",
    }
}

/// The PTX ISA version nvcc 13.0 emits, x10.
pub const TOOLKIT_PTX: u16 = 90;

/// The real targets nvcc 13.0 compiles for (without `a`/`f` suffix): the default.
pub const DEFAULT_TARGETS: &[u16] = &[75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121];

/// The configured targets, or the default ones.
pub fn targets(cx: &Ctx) -> Vec<Target> {
    let configured: Vec<Target> = cx
        .options
        .targets
        .iter()
        .filter_map(|t| Target::parse(t))
        .collect();
    if !configured.is_empty() {
        return configured;
    }
    DEFAULT_TARGETS
        .iter()
        .map(|&sm| Target { sm, suffix: None })
        .collect()
}

/// The targets to check a file against: the configured ones; by default the supported
/// ones, or, when the file's path names an architecture (`gemm_sm90a.cu`,
/// `kernels/sm100/...`), that one with its arch-specific features (`sm_90a`, `sm_100a`):
/// projects that split sources by architecture build each file for its own.
pub fn file_targets(cx: &Ctx) -> Vec<Target> {
    let all = targets(cx);
    if !cx.options.targets.is_empty() {
        return all;
    }
    let path = cx.file.path.to_string_lossy().to_ascii_lowercase();
    match sm_in_path(&path) {
        // Such files are built for that architecture, with its arch-specific features.
        Some(named) => vec![Target {
            sm: named.sm,
            suffix: Some(named.suffix.unwrap_or('a')),
        }],
        None => all,
    }
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
fn in_arch_if(stmt: &AsmStatement) -> bool {
    stmt.context.if_conditions.iter().any(|cond| {
        let lower = cond.to_ascii_lowercase();
        lower.contains("arch") || lower.contains("sm_") || mentions_arch(cond)
    })
}

/// Headers are compiled as part of other files: whether their helpers are used, and for
/// which targets, is decided there.
fn is_header(cx: &Ctx) -> bool {
    cx.file
        .path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| {
            matches!(
                e,
                "h" | "hpp" | "cuh" | "hxx" | "hh" | "inl" | "inc" | "ipp"
            )
        })
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

fn feature_sm(name: &str) -> Option<u16> {
    name.strip_prefix("__CUDA_ARCH_FEAT_SM")?
        .strip_suffix("_ALL")?
        .parse()
        .ok()
}

fn defined_value(name: &str, t: &Target) -> Option<bool> {
    Some(match name {
        "__CUDA_ARCH__"
        | "__CUDACC__"
        | "__NVCC__"
        | "__CUDA_ARCH_LIST__"
        | "__CUDACC_VER_MAJOR__"
        | "CUDA_VERSION"
        | "CUDART_VERSION"
        | "__cccl_ptx_isa" => true,
        "__CUDA_ARCH_SPECIFIC__" => t.suffix == Some('a'),
        "__CUDA_ARCH_FAMILY_SPECIFIC__" => matches!(t.suffix, Some('a' | 'f')),
        _ => {
            let sm = feature_sm(name)?;
            t.sm == sm && t.suffix == Some('a')
        }
    })
}

fn ident_value(name: &str, t: &Target) -> Option<i64> {
    let arch = i64::from(t.sm) * 10;
    Some(match name {
        "__CUDA_ARCH__" => arch,
        "__CUDA_ARCH_SPECIFIC__" => {
            if t.suffix == Some('a') {
                arch
            } else {
                0
            }
        }
        "__CUDA_ARCH_FAMILY_SPECIFIC__" => {
            if matches!(t.suffix, Some('a' | 'f')) {
                arch
            } else {
                0
            }
        }
        // The toolkit: nvcc 13.0.
        "__CUDACC_VER_MAJOR__" => 13,
        "__CUDACC_VER_MINOR__" => 0,
        "CUDA_VERSION" | "CUDART_VERSION" => 13000,
        "__cccl_ptx_isa" => i64::from(TOOLKIT_PTX) * 10,
        _ => i64::from(defined_value(name, t)?),
    })
}

/// Evaluates a parsed `#if` expression for one target. `arch_macro` says whether a macro
/// this evaluation does not know is about the architecture.
pub fn eval(e: &CondExpr, t: &Target, arch_macro: &dyn Fn(&str) -> bool) -> Value {
    use Value::*;
    let unknown = |name: &str| Unknown {
        arch: arch_macro(name),
    };
    match e {
        CondExpr::Defined(n) => match defined_value(n, t) {
            Some(b) => Int(i64::from(b)),
            None => unknown(n),
        },
        CondExpr::Ident(n) => match ident_value(n, t) {
            Some(v) => Int(v),
            None => unknown(n),
        },
        CondExpr::Number(v) => Int(*v),
        CondExpr::Other(text) => unknown(text),
        CondExpr::Not(a) => match eval(a, t, arch_macro) {
            Int(v) => Int(i64::from(v == 0)),
            u => u,
        },
        CondExpr::And(a, b) => match (eval(a, t, arch_macro), eval(b, t, arch_macro)) {
            (Int(0), _) | (_, Int(0)) => Int(0),
            (Int(_), Int(_)) => Int(1),
            (x, y) => merge_unknown(x, y),
        },
        CondExpr::Or(a, b) => match (eval(a, t, arch_macro), eval(b, t, arch_macro)) {
            (Int(x), _) | (_, Int(x)) if x != 0 => Int(1),
            (Int(_), Int(_)) => Int(0),
            (x, y) => merge_unknown(x, y),
        },
        CondExpr::Compare(op, a, b) => match (eval(a, t, arch_macro), eval(b, t, arch_macro)) {
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
    /// Every identifier followed by `(` or `<` outside directives: possible calls.
    calls: Vec<CallSite<'a>>,
    /// [`FileFacts::doubtful`] by name: each statement and target asks again.
    doubtful: std::cell::RefCell<std::collections::HashMap<String, bool>>,
}

/// A place where a function may be called.
#[derive(Clone, Debug)]
struct CallSite<'a> {
    name: &'a str,
    /// The conditions in force there (shared by every call between two directives).
    conditions: Rc<[ptxguard_analyzer::cpp::preproc::Condition]>,
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

/// Gathers the defines and call sites of a file.
pub fn file_facts<'a>(text: &'a str, tokens: &[Token]) -> FileFacts<'a> {
    let mut facts = FileFacts::default();
    let mut stack: Vec<CondFrame> = Vec::new();
    let mut conditions: Rc<[ptxguard_analyzer::cpp::preproc::Condition]> = Rc::from(Vec::new());
    // Brace frames: Some((name, kernel)) for function bodies.
    let mut frames: Vec<Option<Rc<(String, bool)>>> = Vec::new();
    // Token index where the current head (since the last `;`, `{` or `}`) starts.
    let mut head_start = 0usize;
    let mut paren_depth = 0i32;
    // Paren depths at which an NV dispatch's arguments close.
    let mut nv_depths: Vec<i32> = Vec::new();
    let word = |i: usize| -> &'a str { text.get(tokens[i].span.range()).unwrap_or("") };
    for i in 0..tokens.len() {
        let tok = tokens[i];
        match tok.kind {
            TokenKind::Directive => {
                let dir = parse_directive(text, tok.span);
                if let DirectiveKind::Define(def) = &dir.kind {
                    facts.defined.insert(def.name.clone());
                    let body = text.get(def.body.range()).unwrap_or("");
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
                    if under_arch || mentions_arch(body) {
                        facts.arch_defined.insert(def.name.clone());
                    }
                }
                let conditional = !matches!(
                    dir.kind,
                    DirectiveKind::Define(_) | DirectiveKind::Undef(_) | DirectiveKind::Other
                );
                apply_conditional(&mut stack, text, &dir);
                if conditional {
                    conditions = active_conditions(&stack).into();
                }
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
                    frames.push(function_head(text, &tokens[head_start..i]).map(Rc::new));
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
                    facts.calls.push(CallSite {
                        name: w,
                        conditions: conditions.clone(),
                        in_nv_target: !nv_depths.is_empty(),
                        caller: frames.iter().rev().find_map(|f| f.clone()),
                    });
                }
            }
            _ => {}
        }
    }
    facts
}

/// Whether the tokens before a `{` declare a function: `... name(params) quals {`.
fn function_head(
    text: &str,
    head: &[ptxguard_analyzer::cpp::lexer::Token],
) -> Option<(String, bool)> {
    let w = |t: &ptxguard_analyzer::cpp::lexer::Token| text.get(t.span.range()).unwrap_or("");
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

pub fn guarded_for(stmt: &AsmStatement, t: &Target, arch_macro: &dyn Fn(&str) -> bool) -> Guarded {
    let g = conditions_guard(&stmt.context.conditions, t, arch_macro);
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
fn conditions_guard(
    conditions: &[ptxguard_analyzer::cpp::preproc::Condition],
    t: &Target,
    arch_macro: &dyn Fn(&str) -> bool,
) -> Guarded {
    let mut doubt = false;
    for c in conditions {
        let mut v = eval(&c.expr, t, arch_macro);
        if c.negated {
            v = match v {
                Value::Int(x) => Value::Int(i64::from(x == 0)),
                u => u,
            };
        }
        match v {
            Value::Int(0) => return Guarded::Excluded,
            Value::Unknown { arch: true } => doubt = true,
            // `NVHPC || __CUDA_ARCH__ >= 800`: unknown, but about the architecture.
            Value::Unknown { arch: false } if mentions_arch_leaf(&c.expr, arch_macro) => {
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

/// Whether a function whose body holds asm is compiled for a target: kernels always; other
/// functions when some call in this file admits the target (its guards, and its own
/// caller's, up to a few levels). Functions of headers and functions never called in the
/// file depend on code we cannot see: in doubt, not compiled.
fn function_admits(
    facts: &FileFacts,
    header: bool,
    name: &str,
    kernel: bool,
    t: &Target,
    depth: usize,
) -> bool {
    if kernel {
        return true;
    }
    if header || depth > 3 {
        return false;
    }
    let doubtful = |n: &str| facts.doubtful(n);
    facts
        .calls
        .iter()
        .filter(|c| c.name == name)
        .filter(|c| c.caller.as_deref().is_none_or(|(caller, _)| caller != name))
        .any(|c| {
            if c.in_nv_target {
                return false;
            }
            if conditions_guard(&c.conditions, t, &doubtful) != Guarded::No {
                return false;
            }
            match c.caller.as_deref() {
                // A call outside any function body: a declaration, or code we do not follow.
                None => false,
                Some((caller, k)) => function_admits(facts, header, caller, *k, t, depth + 1),
            }
        })
}

/// What one instruction or special register needs.
#[derive(Clone, Debug)]
struct Need<'a> {
    /// Decoded template range to point at.
    at: Range<usize>,
    /// The opcode, or the special register's name (after `%`).
    name: &'a str,
    special_register: bool,
    min_sm: u16,
    min_ptx: u16,
    arch: &'static [ArchTarget],
    /// `(ptx, sm)`: gone on targets of this SM or higher.
    removed_on: Option<(u16, u16)>,
}

impl<'a> Need<'a> {
    fn from_form(instr: &'a Instruction, form: &InstrForm) -> Need<'a> {
        Need {
            at: instr.opcode_span.clone(),
            name: &instr.opcode,
            special_register: false,
            min_sm: form.min_sm,
            min_ptx: form.min_ptx,
            arch: form.arch_targets,
            removed_on: form.family.removed_on,
        }
    }

    /// `` `ld.global.nc` `` or `` `%clusterid` ``.
    fn what(&self) -> String {
        let percent = if self.special_register { "%" } else { "" };
        format!("`{percent}{}`", self.name)
    }

    fn supported_on(&self, t: &Target) -> bool {
        if self.min_ptx > TOOLKIT_PTX || t.sm < self.min_sm {
            return false;
        }
        if let Some((ptx, sm)) = self.removed_on {
            if TOOLKIT_PTX >= ptx && t.sm >= sm {
                return false;
            }
        }
        self.arch.is_empty() || self.arch.iter().any(|a| a.accepts(t))
    }

    /// What it needs, in words: `sm_80`, `sm_90a`, `sm_100a or sm_100f`...
    fn requirement(&self) -> String {
        if let Some((_, sm)) = self.removed_on {
            return format!("a target below sm_{sm}");
        }
        if self.min_ptx > TOOLKIT_PTX {
            return format!(
                "PTX ISA {}.{} (nvcc 13.0 emits 9.0)",
                self.min_ptx / 10,
                self.min_ptx % 10
            );
        }
        if !self.arch.is_empty() {
            let names: Vec<String> = self
                .arch
                .iter()
                .map(|a| format!("sm_{}{}", a.sm, if a.family { 'f' } else { 'a' }))
                .collect();
            return match names.len() {
                1 => names[0].clone(),
                2 | 3 => format!("one of {}", names.join(", ")),
                n => format!(
                    "an arch-specific target ({}, ... {} in all)",
                    names[..2].join(", "),
                    n
                ),
            };
        }
        format!("sm_{}", self.min_sm)
    }
}

fn needs(stmt: &AsmStatement) -> Vec<Need<'_>> {
    let mut out = Vec::new();
    for (_, instr) in stmt.ptx.instructions() {
        if let Some(form) = instr_form(instr) {
            out.push(Need::from_form(instr, form));
        }
        if instr.partial {
            continue;
        }
        for operand in &instr.operands {
            operand.walk(&mut |o| {
                if let OperandKind::Register {
                    name,
                    special: true,
                } = &o.kind
                {
                    if let Some(r) = special_register(name) {
                        out.push(Need {
                            at: o.span.clone(),
                            name,
                            special_register: true,
                            min_sm: r.min_sm,
                            min_ptx: r.min_ptx,
                            arch: &[],
                            removed_on: None,
                        });
                    }
                }
            });
        }
    }
    out
}

fn target_name(t: &Target) -> String {
    match t.suffix {
        Some(c) => format!("sm_{}{c}", t.sm),
        None => format!("sm_{}", t.sm),
    }
}

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let targets = file_targets(cx);
    let header = is_header(cx);
    let mut facts: Option<FileFacts> = None;
    // Statements of one `#if` region share their guards: the last evaluation is reused.
    let mut last_guards: Option<(&AsmStatement, Vec<bool>)> = None;
    for stmt in cx.ptx_statements() {
        let needs = needs(stmt);
        if needs
            .iter()
            .all(|n| targets.iter().all(|t| n.supported_on(t)))
        {
            continue;
        }
        if in_arch_if(stmt) {
            continue;
        }
        let text = cx.source();
        let facts = facts.get_or_insert_with(|| file_facts(text, cx.tokens()));
        let arch_macro = |n: &str| facts.doubtful(n);
        let unguarded: Vec<bool> = match &last_guards {
            Some((last, unguarded))
                if last.context.conditions == stmt.context.conditions
                    && last.context.nv_target == stmt.context.nv_target =>
            {
                unguarded.clone()
            }
            _ => targets
                .iter()
                .map(|t| guarded_for(stmt, t, &arch_macro) == Guarded::No)
                .collect(),
        };
        let compiled: Vec<&Target> = targets
            .iter()
            .zip(&unguarded)
            .filter(|(_, unguarded)| **unguarded)
            .map(|(t, _)| t)
            .filter(|t| match &stmt.context.function {
                // Not in a function we recognised (or in a macro never used): in doubt.
                None => false,
                Some(f) => function_admits(facts, header, &f.name, f.has("__global__"), t, 0),
            })
            .collect();
        last_guards = Some((stmt, unguarded));
        let failing: Vec<(&Need, Vec<&Target>)> = needs
            .iter()
            .map(|n| {
                (
                    n,
                    compiled
                        .iter()
                        .copied()
                        .filter(|t| !n.supported_on(t))
                        .collect::<Vec<_>>(),
                )
            })
            .filter(|(_, ts)| !ts.is_empty())
            .collect();
        let Some((first, ts)) = failing.first() else {
            continue;
        };
        let names: Vec<String> = ts.iter().map(|t| target_name(t)).collect();
        let list = if names.len() > 4 {
            format!("{} and {} more", names[..3].join(", "), names.len() - 3)
        } else {
            names.join(", ")
        };
        let guard = stmt
            .context
            .conditions
            .iter()
            .rev()
            .find(|c| {
                let mut ls = Vec::new();
                leaves(&c.expr, &mut ls);
                ls.iter().any(|l| match l {
                    CondExpr::Defined(n) | CondExpr::Ident(n) => n.starts_with("__CUDA_ARCH"),
                    _ => false,
                })
            })
            .map(|c| c.text.trim().to_string());
        let why = match &guard {
            Some(g) => format!("`{g}` still admits {list}"),
            None => format!("nothing excludes {list}"),
        };
        let mut d = diagnostic(
            &META,
            template_span(stmt, first.at.clone()),
            format!("{} needs {}, but {why}", first.what(), first.requirement()),
        );
        for (n, _) in failing.iter().skip(1).take(4) {
            d = d.with_label(
                template_span(stmt, n.at.clone()),
                format!("{} needs {}", n.what(), n.requirement()),
            );
        }
        d = d
            .with_note(if first.arch.is_empty() {
                "ptxas rejects the file for the older target (nvcc 13.0 on `redux.sync` for sm_75: `Feature 'redux' requires .target sm_80 or higher`)".to_string()
            } else {
                "arch-specific forms exist only on their `a`/`f` targets (nvcc 13.0 on `wgmma.fence` for sm_90: `Instruction 'wgmma.fence' not supported on .target 'sm_90'`)".to_string()
            })
            .with_help(guard_help(first));
        out.push(d);
    }
}

fn guard_help(n: &Need) -> String {
    if let Some((_, sm)) = n.removed_on {
        return format!(
            "use the `.sync` form, or guard with `#if __CUDA_ARCH__ < {}`",
            sm * 10
        );
    }
    if let Some(a) = n.arch.first() {
        let sm = n.arch.iter().map(|a| a.sm).min().unwrap_or(a.sm);
        return format!(
            "guard with `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {} && defined(__CUDA_ARCH_FEAT_SM{}_ALL)` (or `__CUDA_ARCH_SPECIFIC__`/`__CUDA_ARCH_FAMILY_SPECIFIC__`), or `NV_IF_TARGET(NV_HAS_FEATURE_SM_{}a, ...)`",
            sm * 10,
            sm,
            sm
        );
    }
    format!(
        "guard with `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {}` or `NV_IF_TARGET(NV_PROVIDES_SM_{}, ...)`",
        n.min_sm * 10,
        n.min_sm
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Target {
        Target::parse(s).unwrap()
    }

    #[test]
    fn arch_names() {
        for n in [
            "CUTE_ARCH_MMA_SM90A_ENABLED",
            "MYLIB_HAS_SM90",
            "__CUDA_ARCH__",
            "SM_90_ENABLED",
            "FOO_SM100",
        ] {
            assert!(is_arch_name(n), "{n}");
        }
        for n in ["FOO_H", "DEBUG", "SMEM_BYTES", "USE_FAST_PATH", "ASM_OK"] {
            assert!(!is_arch_name(n), "{n}");
        }
    }

    #[test]
    fn nv_queries() {
        assert_eq!(nv_query("NV_PROVIDES_SM_90", &t("sm_80")), Some(false));
        assert_eq!(nv_query("NV_PROVIDES_SM_90", &t("sm_100")), Some(true));
        assert_eq!(nv_query("NV_HAS_FEATURE_SM_90a", &t("sm_90")), Some(false));
        assert_eq!(nv_query("NV_HAS_FEATURE_SM_90a", &t("sm_90a")), Some(true));
        assert_eq!(
            nv_query("NV_HAS_FEATURE_SM_100f", &t("sm_103f")),
            Some(true)
        );
        assert_eq!(nv_query("SOMETHING", &t("sm_90")), None);
    }
}
