//! The fixes several rules offer: an `=` output made `+`, a constraint letter replaced.

use crate::support::front_end::ForStatement;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::{Diagnostic, Edit, Span};

/// A finding on an `=` output: points at its constraint and offers to make it `+` (unsafe:
/// the variable must then hold a meaningful value before the asm).
pub(crate) fn on_write_only_output(
    cx: &crate::Ctx,
    stmt: &AsmStatement,
    op: &AsmOperand,
    d: Diagnostic,
) -> Diagnostic {
    on_write_only_outputs(cx, stmt, &[op], d)
}

/// A finding on one or more `=` outputs: the first one's constraint labelled, one fix turning
/// every `=` into `+`.
pub(crate) fn on_write_only_outputs(
    cx: &crate::Ctx,
    stmt: &AsmStatement,
    outputs: &[&AsmOperand],
    d: Diagnostic,
) -> Diagnostic {
    let d = d.with_label(outputs[0].constraint.span, "declared write-only (`=`) here");
    let edits: Option<Vec<Edit>> = outputs
        .iter()
        .map(|op| equals_sign_span(cx.source(), op).map(|eq| Edit::replace(eq, "+")))
        .collect();
    let title = if outputs.len() == 1 {
        "declare it read-write (`+`)"
    } else {
        "declare them read-write (`+`)"
    };
    match edits {
        Some(edits) => d.cpp_fix_for(stmt, ptxguard_analyzer::Fix::unsafe_(title, edits)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::diag::apply_edits;
    use ptxguard_analyzer::statements::find_asm_statements;
    use ptxguard_analyzer::SourceFile;

    /// A file with `asm("" : OPERANDS)` in a function, and the statement's operands.
    fn statement(operands: &str) -> (String, Vec<AsmOperand>) {
        let text = format!("__device__ void f(int a, long b) {{ asm(\"\" : {operands}); }}\n");
        let file = SourceFile::new("t.cu", text.clone());
        let stmt = find_asm_statements(&file).remove(0);
        (text, stmt.operands().cloned().collect())
    }

    fn constraints_after(text: &str, edits: Vec<Edit>) -> String {
        let (fixed, _) = apply_edits(text, &edits);
        let open = fixed.find(": ").unwrap() + 2;
        let close = fixed.rfind(')').unwrap();
        fixed[open..close].to_string()
    }

    #[test]
    fn replacing_a_letter_keeps_the_modifiers_and_one_letter() {
        let (text, ops) = statement(r#""=r"(a), "+&h"(a) : "rn"(b), "l"(b)"#);
        let edits = [('l', 0), ('r', 1), ('l', 2), ('r', 3)]
            .into_iter()
            .map(|(letter, i)| replace_constraint_letter(&text, &ops[i], letter).unwrap())
            .collect();
        assert_eq!(
            constraints_after(&text, edits),
            r#""=l"(a), "+&r"(a) : "l"(b), "r"(b)"#
        );
    }

    #[test]
    fn the_equals_sign_of_an_output_and_only_of_an_output() {
        let (text, ops) = statement(r#""=&r"(a), "+r"(a) : "r"(b)"#);
        let eq = equals_sign_span(&text, &ops[0]).unwrap();
        assert_eq!(&text[eq.range()], "=");
        assert_eq!(&text[eq.start as usize - 1..eq.end as usize + 2], "\"=&r");
        assert_eq!(equals_sign_span(&text, &ops[1]), None);
        assert_eq!(equals_sign_span(&text, &ops[2]), None);
    }

    #[test]
    fn constraints_that_are_not_one_plain_literal_are_left_alone() {
        // A macro, or a literal with an escape: where the letters are is not known.
        let (text, ops) = statement(r#"CONSTRAINT(a), "=\x72"(a)"#);
        assert_eq!(ops.len(), 2);
        for op in &ops {
            assert_eq!(replace_constraint_letter(&text, op, 'l'), None);
            assert_eq!(equals_sign_span(&text, op), None);
        }
    }
}
