use crate::support::{
    diagnostics::diagnostic,
    operands::{has_matching_constraint, placeholder_refs, target_index},
};
use crate::Ctx;
use ptxguard_analyzer::cpp::types::{declares_variable, reachable_end};
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::{Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags an operand the template never references: an `"="` output never written is an
    /// **error**, or a **warning** when nothing reads the variable after the asm (declared in
    /// the block around it and not named again there, or not named again in the rest of the
    /// function outside a loop: a prefetch helper's `"=l"(addr) : "l"(addr)`); an input never
    /// used is a warning.
    ///
    /// An empty template with operands is the deliberate register-fence idiom
    /// (`asm volatile("" : "+f"(x) :: "memory")`): its `"+"` operands and inputs are left
    /// alone, but an `"="` output there is still garbage and is reported. `"+"` operands are
    /// never reported (they are read and written by definition), nor are templates with
    /// pieces that cannot be known (a macro defined elsewhere might use the operand).
    ///
    /// ## Why is this bad?
    /// An `"="` output tells the compiler the asm sets the variable; if the template never
    /// writes it, the variable holds garbage afterwards (measured: 16776640 instead of 9).
    /// An unused input is usually a bug in the template: a three-way max that ignored its
    /// third argument shipped in a real project.
    ///
    /// ## Example
    /// ```cuda
    /// asm("max.s32 %0, %1, %2;" : "=r"(m) : "r"(a), "r"(b), "r"(c));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("{ .reg .s32 t; max.s32 t, %1, %2; max.s32 %0, t, %3; }" : "=r"(m) : "r"(a), "r"(b), "r"(c));
    /// ```
    ///
    /// ## In Python
    /// Operands are `$N`; a Triton input at `pack` > 1 is not reported (Triton
    /// passes every packed element, and an asm may ignore some by design), nor is the output
    /// of a call whose result is thrown away (`tl.inline_asm_elementwise("bar.sync 0;", "=r",
    /// [], dtype=tl.int32, is_pure=False, pack=1)` as a statement): both APIs make the asm
    /// produce a result, so side-effect-only asm needs a dummy one. Nor are the inputs of a
    /// Triton call whose input constraints do not match its arguments: that is
    /// `pack-mismatch`'s finding.
    /// C++ in Python strings: as in C++ files, spans inside the Python literal.
    pub(crate) static META = {
        name: "unused-operand",
        severity: Error,
        fix: None,
        default_enabled: true,
        summary: "an operand the template never references",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        if stmt.template.is_partial() || has_matching_constraint(stmt) {
            continue;
        }
        // The register-fence idiom: only its `=` outputs are wrong (measured garbage).
        let fence = stmt.template.text.trim().is_empty();
        let mut used = vec![false; stmt.operand_count()];
        for (target, _, _) in placeholder_refs(stmt) {
            if let Some(i) = target_index(stmt, &target) {
                used[i] = true;
            }
        }
        // Input constraints that do not match a Triton call's arguments are `pack-mismatch`.
        let inputs_miscounted = crate::pack_mismatch::wrong_input_count(stmt);
        for op in stmt.operands() {
            if used[op.index] || op.constraint.is_read_write() || (fence && !op.is_output) {
                continue;
            }
            if inputs_miscounted && !op.is_output {
                continue;
            }
            // Triton and MLIR make the asm produce a result: a call whose result is thrown
            // away writes a dummy output for asm that only has side effects.
            if op.is_output && stmt.python().is_some_and(|p| p.result_discarded) {
                continue;
            }
            let d = if op.is_output {
                if dead_after(cx.source(), stmt, &op.expr) {
                    // Nothing reads the garbage: a misdeclared operand, not a wrong value.
                    let d = diagnostic(&META, op.constraint.span, format!("output %{} (`{}`) is never written by the template: declared `=` for nothing (nothing reads it after the asm)", op.index, op.expr));
                    let mut d = d.with_note("nothing reads the variable after the asm, so no garbage is used today; declare it as an input (or `+`) if the template only reads it");
                    d.severity = Severity::Warning;
                    d
                } else {
                    diagnostic(&META, op.constraint.span, format!("output %{} (`{}`) is never written by the template: its value is garbage after the asm", op.index, op.expr))
                    .with_note("an `=` output is not loaded before the asm; whatever the register held is what the variable gets")
                }
            } else {
                Diagnostic::new(
                    META.name,
                    Severity::Warning,
                    op.constraint.span,
                    format!(
                        "input %{} (`{}`) is never used by the template",
                        op.index, op.expr
                    ),
                )
            };
            out.push(d.with_label(op.expr_span, "bound here"));
        }
    }
}

/// Whether the variable `expr` names is certainly not used after the asm: declared in the
/// block around it and not named again before that block ends, or (outside a loop) not named
/// again in the rest of the function.
fn dead_after(source: &str, stmt: &AsmStatement, expr: &str) -> bool {
    let name = expr.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return false;
    }
    let Some(function) = &stmt.context.function else {
        return false;
    };
    let (start, end) = (stmt.span.start as usize, stmt.span.end as usize);
    let body = function.body.start as usize..function.body.end as usize;
    if !(body.start <= start && end <= body.end) {
        return false;
    }
    let bytes = source.as_bytes();
    // The innermost `{ }` around the statement.
    let mut depth = 0i32;
    let block_start = (body.start..start)
        .rev()
        .find(|&i| {
            match bytes[i] {
                b'}' => depth += 1,
                b'{' if depth == 0 => return true,
                b'{' => depth -= 1,
                _ => {}
            }
            false
        })
        .unwrap_or(body.start);
    depth = 0;
    let block_end = (end..body.end)
        .find(|&i| {
            match bytes[i] {
                b'{' => depth += 1,
                b'}' if depth == 0 => return true,
                b'}' => depth -= 1,
                _ => {}
            }
            false
        })
        .unwrap_or(body.end);
    let named = |range: std::ops::Range<usize>| {
        let text = &source[range];
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        text.match_indices(name).any(|(at, _)| {
            !text[..at].ends_with(ident) && !text[at + name.len()..].starts_with(ident)
        })
    };
    // A read after an unconditional `return` is not a read after the asm.
    let reach = reachable_end(source, end, body.end);
    if declares_variable(&source[block_start..start], name) {
        return !named(end..block_end.min(reach));
    }
    !stmt.context.in_loop && !named(end..reach)
}
