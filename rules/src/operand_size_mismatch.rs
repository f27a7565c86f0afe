use crate::support::front_end::{llvm_reads, ForStatement};
use crate::support::{
    diagnostics::diagnostic,
    fixes::replace_constraint_letter,
    operands::{operand_slots, sizes},
};
use crate::Ctx;
use ptxguard_analyzer::cpp::types::{CppClass, CppType};
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::isa::{self, Role};
use ptxguard_analyzer::ptx::OperandKind;
use ptxguard_analyzer::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Flags an operand whose constraint register size (`h` 16, `r` 32, `l` 64, `f` 32,
    /// `d` 64, `q` 128 bits) differs from the size of the C++ expression's type, when that
    /// type is known; and, at the same size, a register of the other kind: `r`/`l` on a
    /// `float`/`double`, `f`/`d` on an integer or pointer.
    ///
    /// ## Why is this bad?
    /// nvcc rejects it: `asm operand type size(8) does not match type/size implied by
    /// constraint 'r'` (measured with nvcc 13.0). A pointer, `size_t` or `unsigned long long`
    /// needs `l`; a 32-bit integer given `l` is an error too. nvcc also rejects `"r"` on a
    /// `float`, `"f"` on an `unsigned` and `"l"` on a `double` with the same message
    /// (measured), although the sizes agree.
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
    /// Unsafe: the letter of the right size and kind, when there is exactly one choice and
    /// every instruction using the operand takes that register (checked against the ISA
    /// table, so the fix never moves the error to ptxas); otherwise the help says to cast.
    ///
    /// ## In Python
    /// The size comes from the call: MLIR result types (`T.i64()`,
    /// `Int32.mlir_type`), CuTe DSL operands (`Int64(x).ir_value()`) and Triton result
    /// registers of 32 bits or more (a 32- or 64-bit dtype at `pack=1`; narrower elements
    /// packed into one 32-bit register, such as `int16` at `pack=2`, where `h` aborted LLVM,
    /// measured with Triton 3.6; narrower values took `h`, `r` and `c` alike and came back
    /// right, so they are not judged). LLVM does not reject a size mismatch on `h`/`r`/`l`: it
    /// truncates the input and zero-extends the output (measured with llc 14, NVPTX: an `i64`
    /// given `r` lost its high half); on `f`/`d` it fails ("scalar-to-vector conversion
    /// failed"). A same-size value in the other kind of register is bitcast, not reported.
    /// C++ in Python strings: as in C++ files, spans inside the Python literal.
    pub(crate) static META = {
        name: "operand-size-mismatch",
        severity: Error,
        fix: Unsafe,
        default_enabled: true,
        summary: "constraint register size differs from the C++ operand's size",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        for op in stmt.operands() {
            let Some((letter, reg_bits, ty)) = sizes(op) else {
                continue;
            };
            if ty.bits == reg_bits {
                // LLVM (Python calls) bitcasts a same-size value into the other kind of
                // register (measured with llc 14: `r` on a float, `f` on an i32).
                if stmt.in_python() {
                    continue;
                }
                if let Some(d) = kind_mismatch(cx, stmt, op, letter, ty) {
                    out.push(d);
                }
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
            .note_for(stmt, format!("nvcc rejects it: `asm operand type size({}) does not match type/size implied by constraint '{letter}'`", ty.bits / 8));
            // Only where the instruction takes the new register too; else the error moves to ptxas.
            let fits = right.is_some_and(|r| letter_fits_uses(stmt, op.index, r) == Some(true));
            if let (Some(right), true) = (right, fits) {
                if let Some(edit) = replace_constraint_letter(cx.source(), op, right) {
                    d = d.cpp_fix_for(stmt, Fix::unsafe_(format!("use `{right}`"), vec![edit]));
                }
            } else {
                let value = if llvm_reads(stmt) {
                    "the value"
                } else {
                    "the C++ value"
                };
                d = d.with_help(format!("the instruction's operand type fixes the register size: cast {value} to a type of that size"));
            }
            out.push(d);
        }
    }
}

/// Same size, other kind: nvcc 13 rejects `"r"` on a `float`, `"f"` on an `unsigned`, `"l"` on
/// a `double` (measured; the message still speaks of sizes).
fn kind_mismatch(
    cx: &Ctx,
    stmt: &AsmStatement,
    op: &AsmOperand,
    letter: char,
    ty: &CppType,
) -> Option<Diagnostic> {
    let float_register = matches!(letter, 'f' | 'd');
    let is_builtin_float = matches!(&*ty.spelling, "float" | "double");
    let integer_like = matches!(
        ty.class,
        CppClass::Signed | CppClass::Unsigned | CppClass::Bool | CppClass::Pointer
    );
    let right = if float_register && integer_like {
        if ty.bits == 64 {
            'l'
        } else {
            'r'
        }
    } else if !float_register && is_builtin_float && matches!(letter, 'r' | 'l') {
        if ty.bits == 64 {
            'd'
        } else {
            'f'
        }
    } else {
        return None;
    };
    let kind = if float_register {
        "floating-point"
    } else {
        "integer"
    };
    let mut d = diagnostic(
        &META,
        op.constraint.span,
        format!("`{letter}` is an {kind} register, but `{}` is `{}`: nvcc wants `{right}` for it", op.expr, ty.spelling),
    )
    .with_label(op.expr_span, format!("`{}`", ty.spelling))
    .with_note(format!("nvcc rejects a constraint of the other kind even at the same size: `asm operand type size({}) does not match type/size implied by constraint '{letter}'`", ty.bits / 8))
    .with_help(if float_register {
        "to pass the bits of an integer to a float operand, write `__int_as_float(x)` / `__uint_as_float(x)`"
    } else {
        "to pass a float's bits to an integer operand, write `__float_as_uint(x)`"
    });
    if letter_fits_uses(stmt, op.index, right) == Some(true) {
        if let Some(edit) = replace_constraint_letter(cx.source(), op, right) {
            d = d.with_fix(Fix::unsafe_(format!("use `{right}`"), vec![edit]));
        }
    }
    Some(d)
}

/// Whether constraint `letter` fits every use of operand `index` in the template, by the ISA's
/// operand types: `Some(true)` when every use resolves and fits, `Some(false)` when one does
/// not, `None` when a use cannot be judged (unknown form, untyped slot) or there is none.
/// Fixes that change a letter use it so they never move the error to ptxas.
fn letter_fits_uses(stmt: &AsmStatement, index: usize, letter: char) -> Option<bool> {
    let mut seen = false;
    for (_, instr) in stmt.ptx.instructions() {
        let mut uses = Vec::new();
        for (i, operand) in instr.operands.iter().enumerate() {
            operand.walk(&mut |o| {
                if let OperandKind::Placeholder(p) = &o.kind {
                    if stmt.resolve(p).is_some_and(|b| b.index == index) {
                        uses.push((i, o));
                    }
                }
            });
        }
        if uses.is_empty() {
            continue;
        }
        seen = true;
        let form = instr.known_form()?;
        let slots = operand_slots(instr, form);
        for (i, _) in uses {
            let info = slots.get(i).and_then(|(_, _, info)| *info)?;
            if info.role == Role::Addr {
                let space = info.space?;
                let fits =
                    letter == 'l' || (letter == 'r' && space.allows_32bit_address() == Some(true));
                if !fits {
                    return Some(false);
                }
                continue;
            }
            let ty = info.ty?;
            if !isa::constraint_fits(letter, ty, form.wide_registers) {
                return Some(false);
            }
        }
    }
    seen.then_some(true)
}
