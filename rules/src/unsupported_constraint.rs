use crate::util::diagnostic;
use crate::Ctx;
use ptxguard_analyzer::{Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags constraints nvcc rejects in device code: `m` and `s`, letters it does not know
    /// (x86's `a`, `b`, `c`, `d`, `S`, `D`, `x`, `g`...), and more than one letter or
    /// alternative (`"rn"`, `"r,n"`). Valid letters are `h r l f d q n C` with the `=`,
    /// `+` and `&` modifiers.
    ///
    /// `n` (an immediate) works in nvcc 13 but NVIDIA does not document it: where the
    /// operand position also takes a register it is reported as info (write `r`); it is
    /// never reported where the instruction needs an immediate (`cp.async.wait_group N`, a
    /// `lop3` look-up table, `setmaxnreg`...), since `n` is the only way to pass a template
    /// constant there.
    ///
    /// Host-only asm (a `__host__` function, code under `#if !defined(__CUDA_ARCH__)`, or
    /// another target's asm) is not PTX and is left alone.
    ///
    /// **In Python** it is not applied: LLVM's constraint letters (`i`, `n`, `b`...) are not
    /// nvcc's.
    ///
    /// ## Why is this bad?
    /// nvcc 13.0: `asm constraint letter 'm' is not allowed inside a __device__/__global__
    /// function`, and `an asm operand may specify only one constraint letter in a
    /// __device__/__global__ function`.
    ///
    /// ## Example
    /// ```cuda
    /// asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "rn"(v));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
    /// ```
    pub static META = {
        name: "unsupported-constraint",
        severity: Error,
        fix: None,
        default_enabled: true,
        summary: "a constraint nvcc rejects in device code (`m`, `s`, x86 letters, several letters)",
    }
}

const VALID: &str = "hrlfdqnC";

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        for op in stmt.operands() {
            if !op.constraint.known {
                continue;
            }
            let letters = op.constraint.letters();
            let span = op.constraint.span;
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
                // Matching constraints ("0") are not measured; stay silent.
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
            } else if letter == 'n' {
                if let Some(d) = crate::util::register_capable_immediate(cx, stmt, op) {
                    out.push(Diagnostic {
                        severity: Severity::Info,
                        ..d
                    });
                }
            }
        }
    }
}
