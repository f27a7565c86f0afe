//! Hover text: the findings under the cursor with their rule's documentation, and what a
//! placeholder (`%2`, `%[name]`) binds.

use crate::registry;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::isa::register_type;
use ptxguard_analyzer::ptx::PercentKind;
use ptxguard_analyzer::statements::find_asm_statements;
use ptxguard_analyzer::{Diagnostic, SourceFile, Span};
use std::fmt::Write as _;

/// The cursor is on a span when it sits in it or just after it.
pub fn touches(span: Span, offset: usize) -> bool {
    (span.start as usize) <= offset && offset <= span.end as usize
}

/// Markdown for the findings whose span holds `offset`.
pub fn diagnostics_hover(diagnostics: &[Diagnostic], offset: usize) -> Option<String> {
    let here: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| touches(d.span, offset))
        .collect();
    if here.is_empty() {
        return None;
    }
    let mut out = String::new();
    for (i, d) in here.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n---\n\n");
        }
        let _ = write!(
            out,
            "**ptxguard** `{}` ({}): {}",
            d.rule,
            d.severity.as_str(),
            d.message
        );
        if let Some(note) = &d.note {
            let _ = write!(out, "\n\n*Note:* {note}");
        }
        if let Some(help) = &d.help {
            let _ = write!(out, "\n\n*Help:* {help}");
        }
        if let Some(fix) = &d.fix {
            let _ = write!(
                out,
                "\n\n*Fix ({}):* {}",
                crate::emit::applicability_str(fix.applicability),
                fix.message
            );
        }
        if let Some(rule) = registry::find_rule(d.rule) {
            let _ = write!(
                out,
                "\n\n<details><summary>Rule documentation (<code>ptxguard rule {}</code>)</summary>\n\n{}\n\n</details>",
                rule.name,
                registry::docs_text(rule).trim_end()
            );
        }
    }
    Some(out)
}

/// The engine's asm statements of a file, for [`placeholder_hover`].
pub fn statements(file: &SourceFile) -> Vec<AsmStatement> {
    find_asm_statements(file)
}

/// Markdown describing the operand that the placeholder under `offset` binds.
pub fn placeholder_hover(
    file: &SourceFile,
    statements: &[AsmStatement],
    offset: usize,
) -> Option<String> {
    let statement = statements.iter().find(|s| s.span.contains(offset))?;
    for percent in &statement.ptx.percents {
        let span = statement.source_span(percent.span.clone());
        if !touches(span, offset) {
            continue;
        }
        let written = file.text.get(span.range()).unwrap_or("%");
        let operand = match &percent.kind {
            PercentKind::Operand { index, .. } => statement.operand(*index as usize),
            PercentKind::Named { name, .. } => statement
                .operands()
                .find(|o| o.name.as_ref().is_some_and(|(n, _)| n == name)),
            PercentKind::Unique => {
                return Some(format!(
                "`{written}`: a number unique to each instance of this asm statement (for labels)"
            ))
            }
            _ => return None,
        };
        return Some(match operand {
            Some(op) => describe_operand(written, statement, op, file),
            None => format!(
                "`{written}` binds no operand: this statement has {} operand{}",
                statement.operand_count(),
                if statement.operand_count() == 1 {
                    ""
                } else {
                    "s"
                }
            ),
        });
    }
    None
}

fn describe_operand(
    written: &str,
    statement: &AsmStatement,
    op: &AsmOperand,
    file: &SourceFile,
) -> String {
    let kind = if op.is_output { "output" } else { "input" };
    let constraint_text = file.text.get(op.constraint.span.range()).unwrap_or("");
    let mut out = format!(
        "`{written}` binds {kind} operand {}: `{}({})`",
        op.index,
        constraint_text,
        op.expr.trim()
    );
    if let Some((name, _)) = &op.name {
        let _ = write!(out, " named `[{name}]`");
    }
    let letters = op.constraint.letters();
    if op.constraint.known {
        let size = match op.constraint.letter() {
            Some('n') => " (immediate)".to_string(),
            letter => letter.and_then(register_type).map_or(String::new(), |t| {
                let float = if t.is_float() { "float " } else { "" };
                format!(" ({}-bit {float}register)", t.bits)
            }),
        };
        let _ = write!(out, "\n\nConstraint: `{}`{size}", op.constraint.text);
        if op.constraint.is_read_write() {
            out.push_str(", read and written");
        }
        if op.constraint.is_early_clobber() {
            out.push_str(", early clobber");
        }
    } else if letters.is_empty() {
        out.push_str("\n\nConstraint: from a macro (unknown)");
    }
    match &op.ty.ty {
        Some(ty) => {
            let _ = write!(out, "\n\nC++ type: `{}` ({} bits)", ty.spelling, ty.bits);
        }
        None => out.push_str("\n\nC++ type: unknown"),
    }
    if let Some(cast) = &op.ty.cast {
        if let Some(from) = &cast.from {
            let _ = write!(out, ", cast from `{}`", from.spelling);
        }
    }
    if !statement.is_ptx() {
        out.push_str("\n\n(this statement is not PTX: PTX rules do not look at it)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hover_names_the_operand_a_placeholder_binds() {
        let text = "__device__ void f(unsigned* p32) {\n  unsigned v;\n  asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p32));\n}\n";
        let file = SourceFile::new("a.cu", text);
        let at = text.find("%1").unwrap() + 1;
        let statements = statements(&file);
        let hover = placeholder_hover(&file, &statements, at).expect("hover on %1");
        assert!(
            hover.contains("`%1` binds input operand 1: `\"l\"(p32)`"),
            "{hover}"
        );
        assert!(hover.contains("64-bit register"), "{hover}");
        let at0 = text.find("%0").unwrap();
        let hover0 = placeholder_hover(&file, &statements, at0).unwrap();
        assert!(hover0.contains("output operand 0"), "{hover0}");
        assert!(placeholder_hover(&file, &statements, text.find("ld.global").unwrap()).is_none());
    }
}
