use crate::util::{diagnostic, replace_constraint_letter};
use crate::Ctx;
use ptxguard_analyzer::cpp::types::CppClass;
use ptxguard_analyzer::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Flags an operand whose constraint register size (`h` 16, `r` 32, `l` 64, `f` 32,
    /// `d` 64, `q` 128 bits) differs from the size of the C++ expression's type, when that
    /// type is known.
    ///
    /// ## Why is this bad?
    /// nvcc rejects it: `asm operand type size(8) does not match type/size implied by
    /// constraint 'r'` (measured with nvcc 13.0). A pointer, `size_t` or `unsigned long long`
    /// needs `l`; a 32-bit integer given `l` is an error too.
    ///
    /// ## Example
    /// ```cuda
    /// const float* p = ...;
    /// asm("ld.global.f32 %0, [%1];" : "=f"(v) : "r"(p));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
    /// ```
    ///
    /// ## Fix
    /// Unsafe: the letter of the right size, when there is exactly one choice.
    pub static META = {
        name: "operand-size-mismatch",
        severity: Error,
        fix: Unsafe,
        default_enabled: true,
        summary: "constraint register size differs from the C++ operand's size",
    }
}

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        for op in stmt.operands() {
            let Some(letter) = op.constraint.letter() else {
                continue;
            };
            let Some(reg_bits) = register_bits(letter) else {
                continue;
            };
            let Some(ty) = &op.ty.ty else { continue };
            // Structs and one-byte types: nvcc's rules for them were not measured.
            if ty.class == CppClass::Aggregate || ty.bits < 16 {
                continue;
            }
            if ty.bits == reg_bits {
                continue;
            }
            let right = match (ty.bits, ty.class) {
                (16, _) => Some('h'),
                (32, CppClass::Float) => Some('f'),
                (32, _) => Some('r'),
                (64, CppClass::Float) => Some('d'),
                (64, _) => Some('l'),
                (128, _) => Some('q'),
                _ => None,
            };
            let mut d = diagnostic(
                &META,
                op.constraint.span,
                format!("`{letter}` is a {reg_bits}-bit register, but `{}` is `{}` ({} bits)", op.expr, ty.spelling, ty.bits),
            )
            .with_label(op.expr_span, format!("`{}` bits", ty.bits))
            .with_note(format!("nvcc rejects it: `asm operand type size({}) does not match type/size implied by constraint '{letter}'`", ty.bits / 8));
            if let Some(right) = right {
                if let Some(edit) = replace_constraint_letter(cx.source(), op, right) {
                    d = d.with_fix(Fix::unsafe_(format!("use `{right}`"), vec![edit]));
                }
            }
            out.push(d);
        }
    }
}

pub fn register_bits(letter: char) -> Option<u16> {
    match letter {
        'h' => Some(16),
        'r' | 'f' => Some(32),
        'l' | 'd' => Some(64),
        'q' => Some(128),
        _ => None,
    }
}
