use crate::support::diagnostics::{diagnostic, template_span};
use crate::support::front_end::ForStatement;
use crate::Ctx;
use ptxguard_analyzer::ptx::{PercentKind, PercentMode};
use ptxguard_analyzer::{Diagnostic, Edit, Fix};

declare_rule! {
    /// ## What it does
    /// Flags an operand modifier between `%` and the operand: `%n1`, `%c0`, `%a0`, `%l0`
    /// (from `asm goto`), `%c[name]`.
    ///
    /// ## Why is this bad?
    /// GCC-style modifiers mean nothing to nvcc. nvcc 13.0 rejects the statement:
    /// `Asm operand modifier not supported at "%n", try removing modifier or escaping with %`;
    /// an `asm goto` label reference `%l0` reaches ptxas as `Unknown symbol '%l0'`.
    ///
    /// ## Example
    /// ```cuda
    /// asm("add.u32 %0, %0, %n1;" : "+r"(x) : "n"(4));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("add.u32 %0, %0, %1;" : "+r"(x) : "n"(4));
    /// ```
    ///
    /// ## Fix
    /// Unsafe: removes the modifier letter; check that the plain operand is what was meant.
    /// No fix for `%l` in `asm goto`: nvcc substitutes no label reference at all (measured),
    /// so the branch has to move to C++.
    ///
    /// ## In Python
    /// Not applied to Triton, MLIR and `inline_ptx` calls: their templates are LLVM inline asm,
    /// where operands are `$N` and `%` is an ordinary character, so `%c0` or `%n1` is a PTX
    /// register name; LLVM's own `${N:modifier}` is read as operand N and its modifier is not
    /// judged (what the NVPTX back end accepts there is not measured). C++ held in a Python
    /// string (cupy, `load_inline`, cuda.core `Program`) is checked as C++, with the span and
    /// the fix inside the Python literal.
    pub(crate) static META = {
        name: "unsupported-modifier",
        severity: Error,
        fix: Unsafe,
        default_enabled: true,
        summary: "an operand modifier (`%n1`, `%c0`) that nvcc does not support",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        if stmt.percent_mode() != PercentMode::WithOperands {
            continue;
        }
        for p in &stmt.ptx.percents {
            let modifier = match &p.kind {
                PercentKind::Operand {
                    modifier: Some(m), ..
                }
                | PercentKind::Named {
                    modifier: Some(m), ..
                } => m,
                _ => continue,
            };
            let span = template_span(stmt, p.span.clone());
            let modifier_span =
                template_span(stmt, p.span.start + 1..p.span.start + 1 + modifier.len());
            let written = &cx.source()[span.range()];
            let goto_label = modifier == "l" && stmt.qualifiers.iter().any(|(q, _)| q == "goto");
            if goto_label {
                // Measured: nvcc never substitutes asm goto labels, with or without the `l`.
                out.push(
                    diagnostic(&META, span, format!("`{written}` refers to an asm goto label, which nvcc does not substitute"))
                        .with_note("ptxas fails with `Unknown symbol '%l0'`; removing the `l` gives `Unknown symbol '%0'`")
                        .with_help("branch in C++ on a predicate the asm returns as an output instead of using asm goto"),
                );
                continue;
            }
            out.push(
                diagnostic(
                    &META,
                    span,
                    format!(
                        "operand modifier `%{modifier}` in `{written}` is not supported by nvcc"
                    ),
                )
                .note_for(
                    stmt,
                    "nvcc rejects it: `Asm operand modifier not supported`",
                )
                .cpp_fix_for(
                    stmt,
                    Fix::unsafe_(
                        format!("remove the modifier `{modifier}`"),
                        vec![Edit::delete(modifier_span)],
                    ),
                ),
            );
        }
    }
}
