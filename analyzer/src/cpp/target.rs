//! Whether an asm statement is PTX at all: host code, other targets' asm, device code.

use super::model::{AsmStatement, Context, Target};
use super::preproc::{CondExpr, Condition};

/// Macros that mean "not compiling for an NVIDIA GPU" when defined.
const FOREIGN_MACROS: [&str; 22] = [
    "__HIP_PLATFORM_AMD__",
    "__HIP_PLATFORM_HCC__",
    "__HIPCC__",
    "__HIP__",
    "__HIP_DEVICE_COMPILE__",
    "GGML_USE_HIP",
    "GGML_HIP_ROCWMMA_FATTN",
    "USE_ROCM",
    "__AMDGCN__",
    "__gfx90a__",
    "__x86_64__",
    "__x86_64",
    "__i386__",
    "_M_X64",
    "_M_IX86",
    "__aarch64__",
    "__arm__",
    "_M_ARM64",
    "__powerpc__",
    "__powerpc64__",
    "__SSE2__",
    "__AVX2__",
];

fn is_cuda_arch(name: &str) -> bool {
    name == "__CUDA_ARCH__"
}

/// `expr` holding implies code is compiled for the host only.
fn implies_host(c: &Condition) -> bool {
    c.implies(&|leaf, truth| match leaf {
        CondExpr::Defined(n) => is_cuda_arch(n) && !truth,
        _ => false,
    })
}

fn implies_device(c: &Condition) -> bool {
    c.implies(&|leaf, truth| match leaf {
        CondExpr::Defined(n) => is_cuda_arch(n) && truth,
        CondExpr::Compare(_, lhs, _) => {
            truth && matches!(lhs.as_ref(), CondExpr::Ident(n) if is_cuda_arch(n))
        }
        CondExpr::Ident(n) => truth && is_cuda_arch(n),
        _ => false,
    })
}

fn implies_foreign(c: &Condition) -> Option<String> {
    let hit = c.implies(&|leaf, truth| match leaf {
        CondExpr::Defined(n) | CondExpr::Ident(n) => truth && FOREIGN_MACROS.contains(&n.as_str()),
        _ => false,
    });
    hit.then(|| c.text.clone())
}

/// What the preprocessor conditions alone say.
pub fn from_conditions(conditions: &[Condition]) -> Option<Target> {
    for c in conditions {
        if let Some(text) = implies_foreign(c) {
            return Some(Target::Foreign(format!("under `{text}`")));
        }
        if implies_host(c) {
            return Some(Target::Host(format!("under `{}`", c.text)));
        }
    }
    None
}

/// Decides the target from the context gathered at the statement.
pub fn decide(context: &Context, in_device_lambda: bool) -> Target {
    if let Some(t) = from_conditions(&context.conditions) {
        return t;
    }
    for (query, true_branch) in &context.nv_target {
        let host_branch = match query.as_str() {
            "NV_IS_HOST" => *true_branch,
            "NV_IS_DEVICE" => !*true_branch,
            _ => false,
        };
        if host_branch {
            return Target::Host(format!("in the host branch of `{query}`"));
        }
    }
    if context
        .nv_target
        .iter()
        .any(|(q, t)| *t && q != "NV_IS_HOST")
    {
        return Target::Device;
    }
    if in_device_lambda || context.conditions.iter().any(implies_device) {
        return Target::Device;
    }
    let Some(function) = &context.function else {
        // Measured with nvcc 13 (gpu-tests/measure/file-scope-asm.sh): a file-scope asm went
        // into the host object, never into the PTX, even when its text was PTX.
        if context.at_file_scope {
            return Target::Host("at file scope, which nvcc gives the host compiler".into());
        }
        return Target::Unknown;
    };
    let q = |name: &str| function.has(name);
    if q("__device__") || q("__global__") {
        return Target::Device;
    }
    let macro_says_device = function.qualifiers.iter().any(|w| {
        is_macro_name(w)
            && ["DEVICE", "GLOBAL", "KERNEL", "DEV"]
                .iter()
                .any(|k| w.contains(k))
    });
    if macro_says_device {
        return Target::Device;
    }
    if q("__host__") {
        return Target::Host("in a `__host__` function".into());
    }
    let unknown_macros = function
        .qualifiers
        .iter()
        .any(|w| is_macro_name(w) || is_unknown_reserved_word(w));
    // A function without an execution space is a host function in any file that nvcc
    // compiles (a header too); a `constexpr` one may also be called from device code
    // (`--expt-relaxed-constexpr`), and a qualifier macro may say `__device__`.
    if !unknown_macros && !context.in_lambda && !q("constexpr") {
        return Target::Host(format!(
            "in `{}`, a host function (no `__device__` or `__global__`)",
            function.name
        ));
    }
    Target::Unknown
}

/// `__dpct_inline__`, `__my_device_fn`: a reserved name that is not one of the compiler's own
/// keywords is most likely a macro (which may say `__device__`).
fn is_unknown_reserved_word(w: &str) -> bool {
    w.starts_with("__")
        && !matches!(
            w,
            "__forceinline__"
                | "__inline__"
                | "__inline"
                | "__noinline__"
                | "__host__"
                | "__device__"
                | "__global__"
                | "__launch_bounds__"
                | "__attribute__"
                | "__restrict__"
                | "__restrict"
                | "__cluster_dims__"
                | "__declspec"
                | "__extension__"
        )
}

pub(crate) fn is_macro_name(w: &str) -> bool {
    w.len() > 1
        && w.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && w.chars().any(|c| c.is_ascii_uppercase())
}

const FOREIGN_MNEMONICS: [&str; 30] = [
    "rdtsc",
    "rdtscp",
    "cpuid",
    "pause",
    "mfence",
    "lfence",
    "sfence",
    "lock",
    "xchg",
    "xchgl",
    "cmpxchg",
    "xgetbv",
    "movq",
    "movl",
    "int3",
    "hlt",
    "ud2",
    "clflush",
    "prefetcht0",
    "nop",
    "dmb",
    "dsb",
    "isb",
    "yield",
    "wfe",
    "mrs",
    "ldxr",
    "stxr",
    "lwsync",
    "isync",
];

/// Whether a file shows any sign of device code; asm in a file without any is host asm.
pub fn has_device_markers(path: &std::path::Path, text: &str) -> bool {
    if path.extension().is_some_and(|e| e == "cu" || e == "cuh") {
        return true;
    }
    let bytes = text.as_bytes();
    [
        "__device__",
        "__global__",
        "__CUDA_ARCH__",
        "DEVICE",
        "cuda",
        "CUDA",
        "NV_IF_",
        "__nv",
    ]
    .iter()
    .any(|m| memchr::memmem::find(bytes, m.as_bytes()).is_some())
}

/// In a file whose asm is AMD GPU asm somewhere ([`amd_asm`]), the statements whose operands
/// take AMD's register classes (`v` VGPR, `s` SGPR, `a` AGPR: `asm volatile(" " :: "v"(x))`)
/// are AMD asm too, whatever their template: HIP device code nvcc never compiles.
pub fn amd_register_operands(statements: &mut [AsmStatement]) {
    let amd_file = statements.iter().any(
        |s| matches!(&s.context.target, Some(Target::Foreign(why)) if why.contains("AMD GPU")),
    );
    if !amd_file {
        return;
    }
    for stmt in statements.iter_mut() {
        if matches!(
            stmt.context.target,
            Some(Target::Foreign(_) | Target::Host(_))
        ) {
            continue;
        }
        if let Some(c) = constraint_letter_in(stmt, AMD_REGISTER_CLASSES) {
            stmt.context.target = Some(Target::Foreign(format!(
                "the constraint `{c}` is an AMD GPU register class, in a file of AMD GPU asm"
            )));
        }
    }
}

/// AMD's register classes as constraint letters: `v` VGPR, `s` SGPR, `a` AGPR (`s` and `a`
/// measured rejected in nvcc 13's device code, `constraint-letters.sh`; `v` is no nvcc letter).
const AMD_REGISTER_CLASSES: &[char] = &['v', 's', 'a'];

/// The first of `letters` an operand's constraint takes, if any.
fn constraint_letter_in(stmt: &AsmStatement, letters: &[char]) -> Option<char> {
    stmt.operands()
        .find_map(|o| o.constraint.letters().chars().find(|c| letters.contains(c)))
}

/// Whether the statement is AMD GPU asm by its mnemonic ([`amd_asm`]): then it is another
/// target's asm, whatever the context said.
pub fn mark_amd_asm(stmt: &mut AsmStatement) {
    if let Some(reason) = amd_asm(stmt) {
        stmt.context.target = Some(Target::Foreign(reason));
    }
}

/// AMD GPU asm, whatever the context says (HIP `__device__` functions hold it): a mnemonic no
/// PTX instruction has (`v_dot2_f32_f16`, `s_waitcnt`, `ds_swizzle_b32`...), a template that
/// opens with `;` (AMD's comment character; PTX has no such comment) and goes on with no PTX
/// instruction (`";; HotLoop Start ;;"`), or AMD register classes (`v` VGPR, `s` SGPR, `a`
/// AGPR, letters nvcc rejects) on a template with no PTX in view: empty, such a comment, or
/// another file's text (`asm volatile(\n#include "uk.inc"\n : [c0] "+v"(c0) ...)`).
pub fn amd_asm(stmt: &AsmStatement) -> Option<String> {
    let first = first_word(stmt);
    let lower = first.to_ascii_lowercase();
    if [
        "s_",
        "v_",
        "ds_",
        "buffer_",
        "flat_",
        "global_load",
        "global_store",
        "global_atomic_",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
    {
        return Some(format!("`{first}` is AMD GPU asm"));
    }
    let register_class = constraint_letter_in(stmt, AMD_REGISTER_CLASSES);
    if let (Some(c), true) = (register_class, stmt.template.is_included()) {
        return Some(format!(
            "the constraint `{c}` is an AMD GPU register class and the template is another file's"
        ));
    }
    if let Some(opening) = amd_comment(&stmt.template.text) {
        return Some(format!(
            "`;` begins a comment in AMD GPU asm, and `{opening}` is no PTX instruction"
        ));
    }
    if let (Some(c), true) = (register_class, stmt.template.text.trim().is_empty()) {
        return Some(format!(
            "the constraint `{c}` is an AMD GPU register class, on an empty template"
        ));
    }
    None
}

/// What follows the `;` a template opens with, when that is no PTX: AMD GPU asm's comment
/// (`;; HotLoop Start`, `;;# CK_ASM_SCOPE_START`, `; force move to %0`).
fn amd_comment(template: &str) -> Option<String> {
    let rest = template.trim_start().strip_prefix(';')?;
    let rest = rest.trim_start_matches(|c: char| c == ';' || c.is_whitespace());
    let opening: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ';')
        .collect();
    let word = opening.trim_start_matches('@');
    let ptx = word.starts_with(['{', '}', '.', '/'])
        || word.contains(':')
        || crate::isa::is_known_opcode(word.split('.').next().unwrap_or(""))
        || word.chars().all(|c| c == crate::template::HOLE);
    (!rest.is_empty() && !ptx).then_some(opening)
}

fn first_word(stmt: &AsmStatement) -> String {
    stmt.template
        .text
        .trim_start_matches(|c: char| c.is_whitespace() || c == '{')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// Constraint letters of other architectures' registers that neither nvcc (`h r l f d q n
/// C`) nor LLVM's NVPTX target (`b` predicates, `c`, and the generic ones) takes: x86 (`x`
/// SSE, `y` MMX, `t`/`u` x87, `a S D A` fixed registers, `k` AVX-512 masks, `v`), AArch64
/// (`w` FP/SIMD, `Q` a memory reference).
const FOREIGN_CONSTRAINT_LETTERS: &[char] =
    &['x', 'y', 't', 'u', 'a', 'S', 'D', 'A', 'k', 'v', 'w', 'Q'];

/// Content that says the asm is not PTX (used only where the context does not say).
pub fn foreign_asm(stmt: &AsmStatement) -> Option<String> {
    // The first instruction names no PTX instruction.
    if !stmt.template.is_partial() {
        if let Some((_, first)) = stmt.ptx.instructions().next() {
            if !first.partial && !crate::isa::is_known_opcode(&first.opcode) {
                if crate::isa::suggest_opcode(&first.opcode).is_none() {
                    return Some(format!("`{}` is not a PTX instruction", first.opcode));
                }
                // A word close to a PTX one (`vminps`, `pld`, `maddv.w`) with what device code
                // cannot have: symbolic operand names (nvcc stops on them in device code,
                // measured) or another architecture's register constraints.
                let named = stmt
                    .ptx
                    .percents
                    .iter()
                    .any(|p| matches!(p.kind, crate::ptx::PercentKind::Named { .. }));
                let foreign_letter = constraint_letter_in(stmt, FOREIGN_CONSTRAINT_LETTERS);
                if named || foreign_letter.is_some() {
                    let why = match foreign_letter {
                        Some(c) => format!("the constraint `{c}` is another architecture's"),
                        None => "it names its operands (`%[name]`), which device code cannot"
                            .to_string(),
                    };
                    return Some(format!(
                        "`{}` is not a PTX instruction and {why}",
                        first.opcode
                    ));
                }
            }
        }
    }
    // An empty template (a compiler barrier) whose operand takes another architecture's
    // register (`__asm__("" : "+g,x"(v))`, GCC's x86 idiom).
    if !stmt.template.is_partial() && stmt.template.text.trim().is_empty() {
        if let Some(c) = constraint_letter_in(stmt, FOREIGN_CONSTRAINT_LETTERS) {
            return Some(format!("the constraint `{c}` is another architecture's"));
        }
    }
    let first = first_word(stmt);
    if FOREIGN_MNEMONICS.contains(&first.to_ascii_lowercase().as_str()) {
        return Some(format!("`{first}` is not a PTX instruction"));
    }
    if let Some(reason) = amd_asm(stmt) {
        return Some(reason);
    }
    let x86_regs = [
        "%eax", "%rax", "%ebx", "%rbx", "%ecx", "%rcx", "%edx", "%rdx", "%rsp", "%esp", "%xmm",
        "%ymm", "%zmm",
    ];
    if x86_regs.iter().any(|r| stmt.template.text.contains(r)) {
        return Some("it names x86 registers".into());
    }
    None
}
