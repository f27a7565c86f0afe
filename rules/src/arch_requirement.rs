use crate::util::{diagnostic, instr_form, template_span};
use crate::Ctx;
use ptxguard_analyzer::cpp::lexer::{lex_range, TokenKind};
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
    /// forms must be guarded by a feature macro. The PTX ISA is the one nvcc 13.0 emits, 9.0.
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
    let u = name.to_ascii_uppercase();
    if u.contains("ARCH")
        || u.contains("NV_PROVIDES")
        || u.contains("NV_HAS_FEATURE")
        || u.contains("NV_IS_EXACTLY")
    {
        return true;
    }
    if [
        "HOPPER",
        "BLACKWELL",
        "AMPERE",
        "VOLTA",
        "TURING",
        "LOVELACE",
        "WGMMA",
        "TCGEN05",
        "COMPUTE_CAPABILITY",
    ]
    .iter()
    .any(|w| u.contains(w))
    {
        return true;
    }
    // SM followed by a number: SM90, SM_90, SM90A.
    let b = u.as_bytes();
    (0..b.len().saturating_sub(2)).any(|i| {
        b[i] == b'S'
            && b[i + 1] == b'M'
            && (i == 0 || !b[i - 1].is_ascii_alphabetic())
            && (b[i + 2].is_ascii_digit()
                || (b[i + 2] == b'_' && b.get(i + 3).is_some_and(u8::is_ascii_digit)))
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
        "__CUDA_ARCH__" | "__CUDACC__" | "__NVCC__" | "__CUDA_ARCH_LIST__" => true,
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

/// Macros this file defines from architecture conditions (`#if __CUDA_ARCH__ >= 900`
/// `#define HAS_SM90 1`), or whose replacement mentions the architecture.
pub fn file_arch_macros(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    if !text.contains("#define") && !text.contains("# define") {
        return out;
    }
    let tokens = lex_range(text, 0, text.len(), false);
    let mut stack: Vec<CondFrame> = Vec::new();
    for tok in tokens.iter().filter(|t| t.kind == TokenKind::Directive) {
        let dir = parse_directive(text, tok.span);
        if let DirectiveKind::Define(def) = &dir.kind {
            let body = text.get(def.body.range()).unwrap_or("");
            let under_arch = active_conditions(&stack).iter().any(|c| {
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
                out.insert(def.name.clone());
            }
        }
        apply_conditional(&mut stack, text, &dir);
    }
    out
}

fn mentions_arch(body: &str) -> bool {
    body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| !w.is_empty() && is_arch_name(w))
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
    let mut doubt = false;
    for c in &stmt.context.conditions {
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
            _ => {}
        }
    }
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

/// What one instruction or special register needs.
#[derive(Clone, Debug)]
struct Need {
    /// Decoded template range to point at.
    at: Range<usize>,
    what: String,
    min_sm: u16,
    min_ptx: u16,
    arch: &'static [ArchTarget],
    /// `(ptx, sm)`: gone on targets of this SM or higher.
    removed_on: Option<(u16, u16)>,
}

impl Need {
    fn from_form(instr: &Instruction, form: &InstrForm) -> Need {
        Need {
            at: instr.opcode_span.clone(),
            what: format!("`{}`", instr.opcode),
            min_sm: form.min_sm,
            min_ptx: form.min_ptx,
            arch: form.arch_targets,
            removed_on: form.family.removed_on,
        }
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
            return if names.len() == 1 {
                names[0].clone()
            } else {
                format!("one of {}", names.join(", "))
            };
        }
        format!("sm_{}", self.min_sm)
    }
}

fn needs(stmt: &AsmStatement) -> Vec<Need> {
    let mut out = Vec::new();
    for (_, instr) in stmt.ptx.instructions() {
        if let Some(form) = instr_form(instr) {
            out.push(Need::from_form(instr, &form));
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
                            what: format!("`%{name}`"),
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
    let targets = targets(cx);
    let mut file_macros: Option<HashSet<String>> = None;
    for stmt in cx.ptx_statements() {
        let needs = needs(stmt);
        if needs
            .iter()
            .all(|n| targets.iter().all(|t| n.supported_on(t)))
        {
            continue;
        }
        let text = cx.source();
        let macros = file_macros.get_or_insert_with(|| file_arch_macros(text));
        let arch_macro = |n: &str| is_arch_name(n) || macros.contains(n);
        let compiled: Vec<&Target> = targets
            .iter()
            .filter(|t| guarded_for(stmt, t, &arch_macro) == Guarded::No)
            .collect();
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
            format!("{} needs {}, but {why}", first.what, first.requirement()),
        );
        for (n, _) in failing.iter().skip(1).take(4) {
            d = d.with_label(
                template_span(stmt, n.at.clone()),
                format!("{} needs {}", n.what, n.requirement()),
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
