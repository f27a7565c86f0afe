use crate::support::diagnostics::{diagnostic, template_span};
use crate::support::front_end::{operand_ref, ForStatement};
use crate::Ctx;
use ptxguard_analyzer::ptx::PercentKind;
use ptxguard_analyzer::{Diagnostic, Edit, Fix};

declare_rule! {
    /// ## What it does
    /// Flags a placeholder `%N` whose number is at or past the number of operands, a
    /// `%[name]` that no operand is named, and every symbolic reference `%[name]` in device
    /// code (nvcc 13 does not support them at all).
    ///
    /// ## Why is this bad?
    /// nvcc 13.0 crashes on it with an internal compiler error ("asm operand index requested
    /// is larger than the number of asm operands provided!"); an unknown name is rejected
    /// ("invalid symbolic operand name"), and so is a known one ("symbolic operand reference
    /// not supported!", an internal compiler error; measured with nvcc 13.0 on every form).
    /// Usually an operand was removed or the numbering shifted when an output was added.
    ///
    /// ## Example
    /// ```cuda
    /// asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    /// ```
    ///
    /// ## Fix
    /// Safe, for a `%[name]` that names an operand: its number, `%N`.
    ///
    /// ## In Python
    /// Operands are `$N` (LLVM inline asm). Measured with Triton 3.6: `$2` with
    /// two operands stops compilation with LLVM's `invalid operand in inline asm`.
    /// C++ in Python strings: as in C++ files (`%N`), spans inside the Python literal.
    pub(crate) static META = {
        name: "operand-index",
        severity: Error,
        fix: Safe,
        default_enabled: true,
        summary: "`%N` past the operand count, or a `%[name]` reference (nvcc supports none)",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        let count = stmt.operand_count();
        for p in &stmt.ptx.percents {
            let span = template_span(stmt, p.span.clone());
            match &p.kind {
                // `%lN` names an `asm goto` label, numbered after the operands; unsupported-modifier reports it.
                PercentKind::Operand {
                    modifier: Some(m), ..
                } if m == "l" => {}
                PercentKind::Operand { index, .. } if *index as usize >= count => {
                    let operand = |i: usize| operand_ref(stmt, i);
                    let have = match count {
                        0 => "no operands".to_string(),
                        1 => format!("1 operand ({})", operand(0)),
                        n => format!("{n} operands ({} to {})", operand(0), operand(n - 1)),
                    };
                    out.push(
                        diagnostic(&META, span, format!("`{}` refers to operand {index}, but the statement has {have}", operand(*index as usize)))
                            .with_label(stmt.span, "operands are numbered outputs first, then inputs")
                            .note_for(stmt, "nvcc 13.0 stops with an internal compiler error on an operand index past the end"),
                    );
                }
                PercentKind::Named { name, .. } => {
                    let bound = stmt
                        .operands()
                        .find(|o| o.name.as_ref().is_some_and(|(n, _)| n == name));
                    let Some(op) = bound else {
                        let known: Vec<String> = stmt
                            .operands()
                            .filter_map(|o| o.name.as_ref().map(|(n, _)| format!("`{n}`")))
                            .collect();
                        let mut d =
                            diagnostic(&META, span, format!("no operand is named `{name}`"));
                        if !known.is_empty() {
                            d = d.with_help(format!("named operands: {}", known.join(", ")));
                        }
                        out.push(d);
                        continue;
                    };
                    // nvcc 13 stops on any symbolic reference in device code (measured).
                    let written = &cx.source()[span.range()];
                    let mut d = diagnostic(&META, span, format!("nvcc does not support symbolic operand references in device code: write `{}` for `%[{name}]`", operand_ref(stmt, op.index)))
                        .note_for(stmt, "nvcc 13.0 fails with an internal compiler error: `symbolic operand reference not supported!`");
                    if stmt.template.is_verbatim(p.span.clone(), cx.source())
                        && written.starts_with("%[")
                    {
                        d = d.cpp_fix_for(
                            stmt,
                            Fix::safe(
                                format!("use `%{}`", op.index),
                                vec![Edit::replace(span, format!("%{}", op.index))],
                            ),
                        );
                    }
                    out.push(d);
                }
                _ => {}
            }
        }
    }
}
