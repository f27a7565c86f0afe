use crate::support::front_end::llvm_reads;
use crate::support::{
    diagnostics::diagnostic,
    operands::{operand_slots, placeholder_refs, target_index},
};
use crate::Ctx;
use ptxguard_analyzer::cpp::types::declares_variable;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::isa::Role;
use ptxguard_analyzer::ptx::OperandKind;
use ptxguard_analyzer::{Diagnostic, Severity};
use std::ops::Range;

declare_rule! {
    /// ## What it does
    /// Flags constraints nvcc rejects in device code: `m` and `s`, letters it does not know
    /// (x86's `a`, `b`, `c`, `d`, `S`, `D`, `x`, `g`...), more than one letter or
    /// alternative (`"rn"`, `"r,n"`), and matching constraints (`"0"`: an input in an
    /// output's register, as GCC and clang take it). Valid letters are `h r l f d q n C` with
    /// the `=`, `+` and `&` modifiers.
    ///
    /// `n` (an immediate): NVIDIA's inline-PTX guide says `m`, `s` and `n` are not
    /// guaranteed across compiler versions and should not be used; nvcc 13 accepts `n` with a
    /// constant (measured: `"n"(5)` gave the right sum). Where the operand position also
    /// takes a register it is reported as **info** (write `r`); it is never reported where
    /// the instruction needs an immediate (`cp.async.wait_group N`, a `lop3` look-up table,
    /// `setmaxnreg`...), since `n` is the only way to pass a template constant there.
    ///
    /// `n` bound to something that is certainly not a constant expression (a parameter of
    /// the enclosing function, a local variable declared without `const`/`constexpr`) is an
    /// **error**: nvcc 13.0 rejects it (measured on a parameter and on a local, `-O3` and
    /// `-G`: `error: an asm operand must be an integral constant expression`), and so does
    /// clang (`constraint 'n' expects an integer constant expression`).
    ///
    /// `C` substitutes a compile-time string into the template (`"add.%2 %0, %1, 1;"` with
    /// `"C"(T::value)` emits `add.u32` when `T::value` is a `static constexpr char[]` holding
    /// `u32`; measured with nvcc 13.0, `gpu-tests/measure/c-constraint.sh`). Its operand must
    /// be the address of such an array: a string literal (`"C"("u32")`: `did not evaluate to
    /// the address of a variable`) or a conditional expression (`"C"(s ? "u32" : "s32")`:
    /// `could not be folded`) is an **error**, both measured. The other rules leave the
    /// substituted part of the instruction unjudged.
    ///
    /// In clang's own CUDA wrapper headers (`__clang_cuda_*.h`), which only clang compiles,
    /// constraints are judged by clang's rules: its NVPTX letters `c h r l f d q` and the
    /// target-independent ones (`i`, `n`, `m`, `g`, `X`..., alternatives allowed).
    ///
    /// Host-only asm (a `__host__` function, code under `#if !defined(__CUDA_ARCH__)`, or
    /// another target's asm) is not PTX and is left alone.
    ///
    /// ## Why is this bad?
    /// nvcc 13.0: `asm constraint letter 'm' is not allowed inside a __device__/__global__
    /// function`, and `an asm operand may specify only one constraint letter in a
    /// __device__/__global__ function`. A matching constraint fails for every operand size
    /// (measured with 16-, 32- and 64-bit integers, `float` and `double`): `asm operand type
    /// size(4) does not match type/size implied by constraint '0'`; `"+r"` on the output
    /// compiles. NVRTC (cupy 14.2, CUDA 13.0) gives the same error.
    ///
    /// ## Example
    /// ```cuda
    /// asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "rn"(v));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
    /// ```
    ///
    /// ## In Python
    /// Not applied to Triton, MLIR and `inline_ptx` calls: their constraints go to LLVM, not
    /// nvcc, and LLVM takes letters nvcc rejects (`i`, `c`: int8 with `=c,c` ran right under
    /// Triton 3.6, docs/python.md; CUTLASS's DSL tutorial passes an `i` operand). C++ held in
    /// a Python string (cupy, `load_inline`, cuda.core `Program`) is checked as C++, with spans
    /// inside the Python literal.
    pub(crate) static META = {
        name: "unsupported-constraint",
        severity: Error,
        fix: None,
        default_enabled: true,
        summary: "a constraint nvcc rejects in device code (`m`, `s`, x86 letters, several letters)",
    }
}

const VALID: &str = "hrlfdqnC";

/// What clang accepts for NVPTX: its own letters (`c h r l f d q`) and the target-independent
/// ones (`i n E F m o V g X < >`), alternatives included.
const CLANG_VALID: &str = "chrlfdqinEFmoVgX<>,";

/// clang's own CUDA wrapper headers (`__clang_cuda_runtime_wrapper.h`...): only clang compiles
/// them, so their constraints are judged by clang's rules, not nvcc's.
fn clang_only_header(cx: &Ctx) -> bool {
    cx.file
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("__clang_cuda_"))
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let clang_only = clang_only_header(cx);
    // Python calls: see `front_end::NOT_FOR_PYTHON_CALLS`.
    for stmt in cx.ptx_statements().filter(|s| !llvm_reads(s)) {
        for op in stmt.operands() {
            if !op.constraint.known {
                continue;
            }
            let letters = op.constraint.letters();
            let span = op.constraint.span;
            if op.constraint.letter() == Some('n') {
                if let Some(d) = non_constant_immediate(cx, stmt, op) {
                    out.push(d);
                    continue;
                }
            }
            if clang_only {
                if let Some(bad) = letters.chars().find(|c| !CLANG_VALID.contains(*c)) {
                    out.push(diagnostic(
                        &META,
                        span,
                        format!("constraint letter `{bad}` is not one clang accepts for NVPTX"),
                    ));
                }
                continue;
            }
            if letters.contains(',')
                || letters.chars().filter(|c| c.is_ascii_alphabetic()).count() > 1
            {
                out.push(
                    diagnostic(&META, span, format!("constraint `{}` has more than one letter or alternative; device asm takes exactly one", op.constraint.text))
                        .with_note("nvcc: `an asm operand may specify only one constraint letter in a __device__/__global__ function`"),
                );
                continue;
            }
            let Some(letter) = letters.chars().next() else {
                continue;
            };
            if letter.is_ascii_digit() {
                out.push(
                    diagnostic(&META, span, format!("matching constraint `{letters}` (an input in output {letters}'s register) is not one nvcc takes"))
                        .with_note(format!("measured with nvcc 13.0 for 16-, 32- and 64-bit integers, `float` and `double`: `asm operand type size(N) does not match type/size implied by constraint '{letters}'`"))
                        .with_help("make the output read-write instead: set it to the input first and write it `\"+r\"(out)`"),
                );
                continue;
            }
            if matches!(letter, 'm' | 's') {
                out.push(
                    diagnostic(&META, span, format!("constraint `{letter}` is not allowed in device code"))
                        .with_note(format!("nvcc: `asm constraint letter '{letter}' is not allowed inside a __device__/__global__ function`"))
                        .with_help(if letter == 'm' {
                            "pass the address in a register (`\"l\"(ptr)`) and dereference it in PTX (`[%N]`)"
                        } else {
                            "pass the value in a register (`r`, `l`...) or as an immediate (`n`)"
                        }),
                );
            } else if !VALID.contains(letter) {
                out.push(
                    diagnostic(&META, span, format!("constraint letter `{letter}` is not one nvcc knows (valid: h r l f d q n C)"))
                        .with_note("this looks like a constraint of another architecture's asm"),
                );
            } else if letter == 'C' {
                if let Some(d) = c_not_a_variable(op) {
                    out.push(d);
                }
            } else if letter == 'n' {
                if let Some(d) = register_capable_immediate(stmt, op) {
                    out.push(Diagnostic {
                        severity: Severity::Info,
                        ..d
                    });
                }
            }
        }
    }
}

/// An `n` operand whose expression is certainly not a constant: a parameter of the enclosing
/// function, or a local variable declared without `const`/`constexpr` before the asm.
fn non_constant_immediate(cx: &Ctx, stmt: &AsmStatement, op: &AsmOperand) -> Option<Diagnostic> {
    let name = op.expr.trim();
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || name.starts_with(|c: char| c.is_ascii_digit())
        || stmt.context.in_lambda
    {
        return None;
    }
    let source = cx.source();
    // In a macro's body a parameter of the macro stands for whatever argument each use passes.
    if let Some(macro_name) = &stmt.macro_name {
        if macro_parameters(source, macro_name).any(|p| p == name) {
            return None;
        }
    }
    let function = stmt.context.function.as_ref()?;
    // The parameter list: between the name and the body.
    let head = source.get(function.name_span.end as usize..function.body.start as usize)?;
    let what = if parameters(head).any(|p| p == name) {
        "a function parameter"
    } else {
        let before = source.get(function.body.start as usize..stmt.span.start as usize)?;
        if !declares_variable(before, name) {
            return None;
        }
        "a variable that is not `constexpr`"
    };
    Some(
        diagnostic(
            &META,
            op.constraint.span,
            format!("`n` needs an integer constant expression, but `{name}` is {what}: nvcc rejects it"),
        )
        .with_note("measured with nvcc 13.0: `an asm operand must be an integral constant expression` (clang: `constraint 'n' expects an integer constant expression`)")
        .with_help("pass it in a register (`r`, `l`) where the instruction takes one, or make it a template parameter or `constexpr`"),
    )
}

/// The parameters of the function-like macro `name` defined in `source` (`#define
/// WAIT_GROUP(N) asm volatile(...)` gives `N`); none for an object-like one.
fn macro_parameters<'s>(source: &'s str, name: &str) -> impl Iterator<Item = &'s str> {
    let list = source
        .match_indices("define")
        .find_map(|(at, _)| {
            let rest = source[at + "define".len()..].trim_start_matches([' ', '\t']);
            let rest = rest.strip_prefix(name)?;
            let rest = rest.strip_prefix('(')?;
            rest.find(')').map(|end| &rest[..end])
        })
        .unwrap_or("");
    list.split(',').map(str::trim).filter(|p| !p.is_empty())
}

/// The names of the parameters in `(int a, unsigned b = 0) const`.
fn parameters(head: &str) -> impl Iterator<Item = &str> {
    let open = head.find('(').map_or(head.len(), |i| i + 1);
    let mut depth = 0i32;
    let mut end = head.len();
    for (i, c) in head[open..].char_indices() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' if depth > 0 => depth -= 1,
            ')' => {
                end = open + i;
                break;
            }
            _ => {}
        }
    }
    head.get(open..end)
        .unwrap_or("")
        .split(',')
        .filter_map(|p| {
            let p = p.split('=').next()?.trim_end();
            // Just after the last character that cannot be in a name (which may be multi-byte).
            let start = p
                .char_indices()
                .rfind(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            let name = &p[start..];
            // `int` alone (an unnamed parameter) has no name.
            (start > 0 && !name.is_empty()).then_some(name)
        })
}

/// For an `n` operand used where the instruction also accepts a register: an info
/// diagnostic suggesting `r`. Silent when any use needs an immediate or cannot be resolved.
fn register_capable_immediate(stmt: &AsmStatement, op: &AsmOperand) -> Option<Diagnostic> {
    if stmt.template.is_partial() {
        return None;
    }
    // Every reference to the operand in the template.
    let refs: Vec<Range<usize>> = placeholder_refs(stmt)
        .into_iter()
        .filter(|(t, _, _)| target_index(stmt, t) == Some(op.index))
        .map(|(_, r, _)| r)
        .collect();
    if refs.is_empty() {
        return None;
    }
    // Each must be a whole operand of a resolved instruction, in a slot that takes a
    // register: a source, or an element of a source vector.
    let mut found = 0;
    let mut slot_bits: Option<u16> = None;
    for (_, instr) in stmt.ptx.instructions() {
        let mut uses = Vec::new();
        for operand in &instr.operands {
            operand.walk(&mut |o| {
                if let OperandKind::Placeholder(p) = &o.kind {
                    if stmt.resolve(p).is_some_and(|a| a.index == op.index) {
                        uses.push(o.span.clone());
                    }
                }
            });
        }
        if let Some(g) = &instr.guard {
            g.predicate.walk(&mut |o| {
                if let OperandKind::Placeholder(p) = &o.kind {
                    if stmt.resolve(p).is_some_and(|a| a.index == op.index) {
                        uses.push(o.span.clone());
                    }
                }
            });
        }
        if uses.is_empty() {
            continue;
        }
        let form = instr.known_form()?;
        for (_, operand, slot) in operand_slots(instr, form) {
            let direct = matches!(&operand.kind, OperandKind::Placeholder(p)
                if stmt.resolve(p).is_some_and(|a| a.index == op.index));
            let in_vector = matches!(&operand.kind, OperandKind::Vector(items)
                if items.iter().any(|i| matches!(&i.kind, OperandKind::Placeholder(p)
                    if stmt.resolve(p).is_some_and(|a| a.index == op.index))));
            if !direct && !in_vector {
                continue;
            }
            let slot = slot?;
            if !matches!(slot.role, Role::Src | Role::DstSrc) {
                return None;
            }
            if let Some(alt) = &slot.alt {
                if alt.role == Role::Imm {
                    return None;
                }
            }
            let ty = slot.ty?;
            if ty.is_pred() {
                return None;
            }
            slot_bits = Some(slot_bits.map_or(ty.bits, |b| b.max(ty.bits)));
            found += if direct {
                1
            } else {
                match &operand.kind {
                    OperandKind::Vector(items) => items
                        .iter()
                        .filter(|i| {
                            matches!(&i.kind, OperandKind::Placeholder(p)
                            if stmt.resolve(p).is_some_and(|a| a.index == op.index))
                        })
                        .count(),
                    _ => 0,
                }
            };
        }
    }
    // A use in an address offset, a directive, a label or a guard was not accounted for.
    if found != refs.len() {
        return None;
    }
    let letter = match slot_bits? {
        16 => 'h',
        64 => 'l',
        _ => 'r',
    };
    Some(
        Diagnostic::new(
            "unsupported-constraint",
            ptxguard_analyzer::Severity::Info,
            op.constraint.span,
            format!(
                "NVIDIA's inline-PTX guide says `n` is not guaranteed across compiler versions (nvcc 13 accepts it with a constant, measured); this operand position also takes a register: `{letter}` is the documented way"
            ),
        )
        .with_note("`n` stays right where the instruction needs an immediate (`cp.async.wait_group N`, a `lop3` look-up table, `setmaxnreg`): it is never reported there"),
    )
}

/// A `"C"` operand nvcc rejects: its value must be the address of a variable (a `static
/// constexpr char[]`), so a string literal, a ternary or a pointer variable is an error
/// (measured with nvcc 13.0: `gpu-tests/measure/c-constraint.sh`).
fn c_not_a_variable(op: &AsmOperand) -> Option<Diagnostic> {
    let expr = op.expr.trim();
    let (what, nvcc) = if expr.starts_with('"') || expr.starts_with("u8\"") {
        (
            "a string literal",
            "The constant-expression for the 'C' constraint did not evaluate to the address of a variable",
        )
    } else if expr.contains('?') {
        (
            "a conditional expression",
            "The expression for the 'C' constraint could not be folded, ensure that it is a constant expression",
        )
    } else {
        return None;
    };
    Some(
        diagnostic(
            &META,
            op.expr_span,
            format!("`\"C\"` takes the address of a constant character array, not {what}"),
        )
        .with_note(format!("measured with nvcc 13.0: `{nvcc}`"))
        .with_help(
            "name a `static constexpr char NAME[] = \"...\";` (a class member works in templates)",
        ),
    )
}

#[cfg(test)]
mod tests {
    use ptxguard_analyzer::SourceFile;

    fn findings(path: &str, text: &str) -> Vec<String> {
        let file = SourceFile::new(path, text);
        crate::check(&file, &Default::default(), &Default::default())
            .into_iter()
            .filter(|d| d.rule == "unsupported-constraint")
            .map(|d| format!("{}: {}", d.severity.as_str(), d.message))
            .collect()
    }

    const CLANG_STYLE: &str = r#"
__device__ void trigger() { asm volatile("pmevent %0;" :: "i"(3)); }
__device__ void bad(int x) { asm volatile("mov.u32 %0, %0;" :: "a"(x)); }
"#;

    #[test]
    fn clang_wrapper_headers_follow_clang_rules() {
        // `i` is a target-independent immediate letter clang accepts; `a` is x86 only.
        let clang = findings("include/__clang_cuda_device_functions.h", CLANG_STYLE);
        assert_eq!(clang.len(), 1, "{clang:?}");
        assert!(
            clang[0].contains("`a` is not one clang accepts"),
            "{clang:?}"
        );
        // Anywhere else nvcc's rules apply: both letters are reported.
        let nvcc = findings("include/device_functions.h", CLANG_STYLE);
        assert_eq!(nvcc.len(), 2, "{nvcc:?}");
        assert!(nvcc[0].contains("`i` is not one nvcc knows"), "{nvcc:?}");
    }

    #[test]
    fn n_needs_a_constant_expression() {
        let text = r#"
template <int N> __device__ void a(int p, const int q) {
  int local = p;
  const int fixed = 3;
  asm volatile("cp.async.wait_group %0;" :: "n"(p));
  asm volatile("cp.async.wait_group %0;" :: "n"(q));
  asm volatile("cp.async.wait_group %0;" :: "n"(local));
  asm volatile("cp.async.wait_group %0;" :: "n"(fixed));
  asm volatile("cp.async.wait_group %0;" :: "n"(N));
  asm volatile("cp.async.wait_group %0;" :: "n"(N + 1));
  // for F = ((a & b) ^ c) then set kLut = (0xF0 & 0xCC) ^ 0xAA: a comment, not a declaration
  static constexpr unsigned kLut = (0xF0 & 0xCC) ^ 0xAA;
  asm volatile("cp.async.wait_group %0;" :: "n"(kLut));
}
"#;
        let got = findings("k.cu", text);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got[0].starts_with(
            "error: `n` needs an integer constant expression, but `p` is a function parameter"
        ));
        assert!(got[1].contains("`q` is a function parameter"));
        assert!(got[2].contains("`local` is a variable that is not `constexpr`"));
    }
}
