//! The fixes several rules offer: an `=` output made `+`, a constraint letter replaced.

use ptxguard_analyzer::cpp::AsmOperand;
use ptxguard_analyzer::{Diagnostic, Edit, Span};

/// A finding on an `=` output: points at its constraint and offers to make it `+` (unsafe:
/// the variable must then hold a meaningful value before the asm).
pub(crate) fn on_write_only_output(cx: &crate::Ctx, op: &AsmOperand, d: Diagnostic) -> Diagnostic {
    let d = d.with_label(op.constraint.span, "declared write-only (`=`) here");
    match equals_sign_span(cx.source(), op) {
        Some(eq) => d.with_fix(ptxguard_analyzer::Fix::unsafe_(
            "declare it read-write (`+`)",
            vec![Edit::replace(eq, "+")],
        )),
        None => d,
    }
}

/// The `=` in an output constraint, for fixes that turn it into `+`.
pub(crate) fn equals_sign_span(source: &str, op: &AsmOperand) -> Option<Span> {
    let inner = op.constraint.inner_span(source)?;
    let at = source[inner.range()].find('=')?;
    Some(Span::new(
        inner.start as usize + at,
        inner.start as usize + at + 1,
    ))
}

/// Replaces the register letter of an operand's constraint, keeping `=`, `+`, `&`.
pub(crate) fn replace_constraint_letter(
    source: &str,
    op: &AsmOperand,
    letter: char,
) -> Option<Edit> {
    let inner = op.constraint.inner_span(source)?;
    let written = &source[inner.range()];
    let replaced: String = written
        .chars()
        .map(|c| {
            if matches!(c, '=' | '+' | '&') {
                c
            } else {
                letter
            }
        })
        .collect::<String>();
    // Keep one letter only.
    let mut seen = false;
    let replaced: String = replaced
        .chars()
        .filter(|c| {
            if matches!(c, '=' | '+' | '&') {
                true
            } else if seen {
                false
            } else {
                seen = true;
                true
            }
        })
        .collect();
    Some(Edit::replace(inner, replaced))
}
