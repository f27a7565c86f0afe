use crate::support::diagnostics::diagnostic;
use crate::support::front_end::{operand_ref, ForStatement};
use crate::support::portability::portability_finding;
use crate::Ctx;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Span};

declare_rule! {
    /// ## What it does
    /// Flags asm operands written one after another with no comma between them:
    /// `: "r"(a) "l"(b)`.
    ///
    /// ## Severity
    /// *Info* by default: nvcc accepts the list and binds both operands (measured: the sum
    /// was right), so only another compiler is hurt. A *warning* when clang builds the file
    /// (an entry of the compilation database whose compiler is `clang`/`clang++`) or the
    /// configuration asks for clang portability (`portability = ["clang"]`,
    /// `--portability clang`).
    ///
    /// ## Why is this bad?
    /// Because nvcc accepts it, the mistake survives for years; clang and GCC reject the
    /// statement, so the file cannot be built with another compiler or checked by
    /// clang-based tools. Real projects carry dozens.
    ///
    /// ## Example
    /// ```cuda
    /// asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a) "r"(b));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    /// ```
    ///
    /// ## Fix
    /// Safe: inserts the comma.
    ///
    /// ## In Python
    /// Nothing to read on Triton, MLIR and `inline_ptx` calls: their operands are Python
    /// lists and their constraints one string. C++ in Python strings: as in C++ files (the
    /// comma fix included), spans inside the Python literal; what NVRTC (cupy, cuda.core)
    /// does with such a list is not measured.
    pub(crate) static META = {
        name: "missing-operand-comma",
        severity: Info,
        fix: Safe,
        default_enabled: true,
        summary: "asm operands with no comma between them",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    // nvcc reads the list the same way for host asm; other compilers reject it everywhere.
    for stmt in cx.statements {
        for op in stmt.operands() {
            let Some(at) = op.missing_comma_at else {
                continue;
            };
            let d = diagnostic(
                &META,
                op.constraint.span,
                format!(
                    "missing comma before operand {}",
                    operand_ref(stmt, op.index)
                ),
            )
            .with_label(Span::empty_at(at), "a comma belongs here")
            .cpp_fix_for(stmt, Fix::safe("insert `,`", vec![Edit::insert(at, ",")]));
            out.push(portability_finding(
                cx,
                stmt,
                d,
                "nvcc binds both operands (measured), but clang and GCC reject the statement",
            ));
        }
    }
}
