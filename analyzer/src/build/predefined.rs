//! The macros nvcc's device pass predefines, and an evaluator of `#if` conditions against
//! them for the targets a file may be built for. One home for these facts: the front end
//! (string macros, `#if` inside an asm statement) and the rules' per-target evaluator read
//! them here.
//!
//! Measured with nvcc 13.0.88 on x86_64 Linux, gcc 13 as host compiler
//! (`gpu-tests/measure/device-pass-macros.sh`: the device-side preprocessing command of
//! `nvcc --dryrun` rerun with `-dM`, for sm_75, sm_80, sm_90, sm_90a, sm_100a, sm_100f and
//! sm_120):
//! - every device pass: `__CUDACC__` 1, `__NVCC__` 1, `__CUDA_ARCH__` (`sm` x 10),
//!   `__CUDA_ARCH_LIST__`, `__CUDACC_VER_MAJOR__`/`MINOR__`/`BUILD__` (the toolkit),
//!   `__LP64__` 1, `__linux__` 1, and the host compiler's own (`__GNUC__`, `__x86_64__`);
//! - `a` targets add `__CUDA_ARCH_SPECIFIC__`, `__CUDA_ARCH_FAMILY_SPECIFIC__` (both
//!   `sm` x 10) and `__CUDA_ARCH_FEAT_SM<sm>_ALL` 1; `f` targets add only
//!   `__CUDA_ARCH_FAMILY_SPECIFIC__`;
//! - never: `_WIN32`, `_WIN64`, `_MSC_VER`, `__CUDACC_RTC__` (NVRTC defines it instead),
//!   `__clang__`, `__CUDA__` (clang's CUDA mode), HIP's macros.
//!
//! The host's architecture (`__x86_64__`, `__aarch64__`, `__PPC64__`) depends on the machine
//! that builds: not known here.

use super::CudaVersion;
use crate::cpp::preproc::{CondExpr, Condition};
use crate::isa::Target;

/// Which compiler reads the code: nvcc (C++ files), NVRTC (cupy, cuda.core), or either (C++
/// in Python strings whose API is not told apart: `load_inline` runs nvcc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compiler {
    #[default]
    Nvcc,
    Nvrtc,
    Either,
}

/// What the device pass says of a macro.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predefined {
    Int(i64),
    /// Defined, to something that is not an integer (`__GNUC_PREREQ(maj, min)`).
    Defined,
    Undefined,
}

/// Names the device pass never defines on Linux.
const NEVER: &[&str] = &[
    "_WIN32",
    "_WIN64",
    "_MSC_VER",
    "__clang__",
    "__CUDA__",
    "__HIP__",
    "__HIPCC__",
    "__HIP_PLATFORM_AMD__",
    "__HIP_DEVICE_COMPILE__",
    "__APPLE__",
];

/// The value of a predefined macro in the device pass for `target`, or `None` when the
/// device pass does not decide it (the file, the build or the host does).
pub fn device_pass(
    name: &str,
    target: &Target,
    cuda: CudaVersion,
    compiler: Compiler,
) -> Option<Predefined> {
    use Predefined::*;
    let arch = i64::from(target.sm) * 10;
    let specific = target.suffix == Some('a');
    let family = matches!(target.suffix, Some('a' | 'f'));
    Some(match name {
        "__CUDA_ARCH__" | "__CUDA_ARCH_LIST__" => Int(arch),
        "__CUDA_ARCH_SPECIFIC__" if specific => Int(arch),
        "__CUDA_ARCH_FAMILY_SPECIFIC__" if family => Int(arch),
        "__CUDA_ARCH_SPECIFIC__" | "__CUDA_ARCH_FAMILY_SPECIFIC__" => Undefined,
        "__CUDACC__" | "__LP64__" | "__linux__" | "__linux" | "linux" => Int(1),
        "__NVCC__" | "__CUDACC_RTC__" if compiler == Compiler::Either => return None,
        "__NVCC__" if compiler == Compiler::Nvcc => Int(1),
        "__CUDACC_RTC__" if compiler == Compiler::Nvrtc => Int(1),
        "__NVCC__" | "__CUDACC_RTC__" => Undefined,
        "__CUDACC_VER_MAJOR__" => Int(i64::from(cuda.major)),
        "__CUDACC_VER_MINOR__" => Int(i64::from(cuda.minor)),
        "__CUDACC_VER_BUILD__" | "__GNUC__" => Defined,
        // From the toolkit's headers (`cuda.h`, `cuda_runtime_api.h`), which CUDA code includes.
        "CUDA_VERSION" | "CUDART_VERSION" => {
            Int(i64::from(cuda.major) * 1000 + i64::from(cuda.minor) * 10)
        }
        _ if NEVER.contains(&name) => Undefined,
        _ => {
            let sm: u16 = name
                .strip_prefix("__CUDA_ARCH_FEAT_SM")?
                .strip_suffix("_ALL")?
                .parse()
                .ok()?;
            if specific && sm == target.sm {
                Int(1)
            } else {
                Undefined
            }
        }
    })
}

/// A condition's truth across the targets a file may be built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    /// True for every target.
    Always,
    /// False for every target: the branch is dead.
    Never,
    /// True for some targets and false for others, or not known.
    Depends,
}

/// What the file itself says of a macro at a condition (its own `#define`s before it).
pub type FileMacro<'a> = &'a dyn Fn(&str) -> Option<Predefined>;

/// Evaluates conditions (all must hold) for each target in the device pass: predefined
/// macros from [`device_pass`], the file's own through `file`, anything else unknown.
pub fn conditions_truth(
    conditions: &[Condition],
    targets: &[Target],
    cuda: CudaVersion,
    compiler: Compiler,
    file: FileMacro,
) -> Truth {
    // Per target: Some(true) holds, Some(false) excluded, None not known.
    let per_target = targets.iter().map(|t| {
        let mut holds = Some(true);
        for c in conditions {
            match eval(&c.expr, t, cuda, compiler, file) {
                Some(v) if (v != 0) == c.negated => return Some(false),
                Some(_) => {}
                None => holds = None,
            }
        }
        holds
    });
    let (mut always, mut never) = (!targets.is_empty(), !targets.is_empty());
    for holds in per_target {
        always &= holds == Some(true);
        never &= holds == Some(false);
        if !always && !never {
            return Truth::Depends;
        }
    }
    if always {
        Truth::Always
    } else if never {
        Truth::Never
    } else {
        Truth::Depends
    }
}

/// [`conditions_truth`] for the front end, which does not know the file's build: every
/// target of the default toolkit (a branch dead for all of them is dead for any subset), and
/// no macro of the file.
pub fn front_end_truth(conditions: &[Condition], compiler: Compiler) -> Truth {
    static TARGETS: std::sync::OnceLock<Vec<Target>> = std::sync::OnceLock::new();
    let targets = TARGETS.get_or_init(|| CudaVersion::DEFAULT.all_targets());
    conditions_truth(conditions, targets, CudaVersion::DEFAULT, compiler, &|_| {
        None
    })
}

fn value(
    name: &str,
    t: &Target,
    cuda: CudaVersion,
    compiler: Compiler,
    file: FileMacro,
) -> Option<Predefined> {
    file(name).or_else(|| device_pass(name, t, cuda, compiler))
}

/// One expression for one target; `None`: not known.
fn eval(
    e: &CondExpr,
    t: &Target,
    cuda: CudaVersion,
    compiler: Compiler,
    file: FileMacro,
) -> Option<i64> {
    match e {
        CondExpr::Number(n) => Some(*n),
        CondExpr::Defined(n) => match value(n, t, cuda, compiler, file)? {
            Predefined::Undefined => Some(0),
            _ => Some(1),
        },
        CondExpr::Ident(n) => match value(n, t, cuda, compiler, file)? {
            Predefined::Int(v) => Some(v),
            Predefined::Undefined => Some(0),
            Predefined::Defined => None,
        },
        CondExpr::Not(a) => eval(a, t, cuda, compiler, file).map(|v| i64::from(v == 0)),
        CondExpr::And(a, b) => {
            match (
                eval(a, t, cuda, compiler, file),
                eval(b, t, cuda, compiler, file),
            ) {
                (Some(0), _) | (_, Some(0)) => Some(0),
                (Some(_), Some(_)) => Some(1),
                _ => None,
            }
        }
        CondExpr::Or(a, b) => {
            match (
                eval(a, t, cuda, compiler, file),
                eval(b, t, cuda, compiler, file),
            ) {
                (Some(x), _) | (_, Some(x)) if x != 0 => Some(1),
                (Some(_), Some(_)) => Some(0),
                _ => None,
            }
        }
        CondExpr::Compare(op, a, b) => {
            let (x, y) = (
                eval(a, t, cuda, compiler, file)?,
                eval(b, t, cuda, compiler, file)?,
            );
            Some(i64::from(match *op {
                "==" => x == y,
                "!=" => x != y,
                "<" => x < y,
                "<=" => x <= y,
                ">" => x > y,
                ">=" => x >= y,
                _ => return None,
            }))
        }
        CondExpr::Other(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpp::lexer::lex_range;
    use crate::cpp::preproc::parse_condition;

    fn cond(text: &str, negated: bool) -> Condition {
        let toks = lex_range(text, 0, text.len(), true);
        Condition {
            expr: parse_condition(text, &toks),
            negated,
            text: text.to_string(),
            span: crate::Span::new(0, 0),
        }
    }

    fn truth(text: &str, negated: bool) -> Truth {
        let targets = CudaVersion::DEFAULT.all_targets();
        conditions_truth(
            &[cond(text, negated)],
            &targets,
            CudaVersion::DEFAULT,
            Compiler::Nvcc,
            &|_| None,
        )
    }

    #[test]
    fn the_device_pass_is_64_bit_linux_nvcc() {
        assert_eq!(
            truth("defined(__LP64__) || defined(_WIN64)", false),
            Truth::Always
        );
        assert_eq!(
            truth("defined(__LP64__) || defined(_WIN64)", true),
            Truth::Never
        );
        assert_eq!(truth("defined(__CUDACC_RTC__)", false), Truth::Never);
        assert_eq!(truth("defined(_MSC_VER)", false), Truth::Never);
    }

    #[test]
    fn old_architectures_are_dead_branches() {
        // No target of CUDA 13 is below sm_75.
        assert_eq!(truth("__CUDA_ARCH__ >= 350", false), Truth::Always);
        assert_eq!(truth("__CUDA_ARCH__ >= 350", true), Truth::Never);
        assert_eq!(truth("__CUDA_ARCH__ >= 900", false), Truth::Depends);
    }

    #[test]
    fn unknown_macros_stay_unknown() {
        assert_eq!(truth("defined(USE_OLD)", false), Truth::Depends);
        assert_eq!(truth("defined(__x86_64__)", false), Truth::Depends);
    }

    #[test]
    fn nvrtc_defines_its_own_macro() {
        let targets = CudaVersion::DEFAULT.all_targets();
        let t = conditions_truth(
            &[cond("defined(__CUDACC_RTC__)", false)],
            &targets,
            CudaVersion::DEFAULT,
            Compiler::Nvrtc,
            &|_| None,
        );
        assert_eq!(t, Truth::Always);
    }
}
