use crate::util::{diagnostic, placeholder_refs, target_index};
use crate::Ctx;
use ptxguard_analyzer::{Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags an operand the template never references: an `"="` output never written is an
    /// error, an input never used is a warning.
    ///
    /// An empty template with operands is the deliberate register-fence idiom
    /// (`asm volatile("" : "+f"(x) :: "memory")`): its `"+"` operands and inputs are left
    /// alone, but an `"="` output there is still garbage and is reported. `"+"` operands are
    /// never reported (they are read and written by definition), nor are templates with
    /// pieces that cannot be known (a macro defined elsewhere might use the operand).
    ///
    /// **In Python** operands are `$N`; a Triton input at `pack` > 1 is not reported (Triton
    /// passes every packed element, and an asm may ignore some by design).
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
    pub static META = {
        name: "unused-operand",
        severity: Error,
        fix: None,
        default_enabled: true,
        summary: "an operand the template never references",
    }
}

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        if stmt.template.is_partial() {
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
        for op in stmt.operands() {
            if used[op.index] || op.constraint.is_read_write() || (fence && !op.is_output) {
                continue;
            }
            let d = if op.is_output {
                diagnostic(&META, op.constraint.span, format!("output %{} (`{}`) is never written by the template: its value is garbage after the asm", op.index, op.expr))
                    .with_note("an `=` output is not loaded before the asm; whatever the register held is what the variable gets")
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
