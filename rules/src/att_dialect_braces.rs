use crate::support::diagnostics::{diagnostic, template_span};
use crate::Ctx;
use ptxguard_analyzer::cpp::PythonApi;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Span};

declare_rule! {
    /// ## What it does
    /// Flags an MLIR `llvm.inline_asm(..., asm_dialect=...AD_ATT)` call (CuTe DSL) whose
    /// template holds `{`, `|` or `}`: the characters of AT&T-style dialect alternatives
    /// (`{att|intel}`).
    ///
    /// **Off by default, and not confirmed.** A public report (Dao-AILab/quack pull request
    /// 98, nvidia-cutlass-dsl 4.4.1) says ptxas failed with `Parsing error near '.reg'` on such
    /// templates and passed once `asm_dialect` was removed. Against it: LLVM's inline-asm
    /// printer reads only `$(`, `$|` and `$)` as dialect alternatives; Triton builds every
    /// `inline_asm_elementwise` with `AD_ATT`, and a `{ .reg ... }` template compiled and ran
    /// right under it (measured, Triton 3.6); flashinfer ships hundreds of such CuTe DSL calls.
    /// We could not run the CuTe DSL on the GPU machine to decide. Enable it where the report
    /// matches what you see.
    ///
    /// ## Why is this bad?
    /// Where the dialect rewriting happens, a scope `{ .reg .b32 t; ... }` or a vector
    /// `{$0, $1}` is taken apart before ptxas sees it. PTX is neither AT&T nor Intel syntax:
    /// leaving `asm_dialect` out passes the text unchanged.
    ///
    /// ## Example
    /// ```python
    /// llvm.inline_asm(T.i32(), [a], "{ .reg .b32 t; mov.b32 t, $1; mov.b32 $0, t; }", "=r,r",
    ///                 asm_dialect=llvm.AsmDialect.AD_ATT)
    /// ```
    /// Use instead:
    /// ```python
    /// llvm.inline_asm(T.i32(), [a], "{ .reg .b32 t; mov.b32 t, $1; mov.b32 $0, t; }", "=r,r")
    /// ```
    ///
    /// ## Fix
    /// Unsafe (not measured): removes the `asm_dialect=` argument.
    pub(crate) static META = {
        name: "att-dialect-braces",
        severity: Warning,
        fix: Unsafe,
        default_enabled: false,
        summary: "`asm_dialect=AD_ATT` on a CuTe DSL asm whose PTX uses `{`, `|` or `}`",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        let Some(call) = stmt.python() else {
            continue;
        };
        if call.api != PythonApi::MlirInlineAsm {
            continue;
        }
        let Some((dialect, dialect_span)) = &call.asm_dialect else {
            continue;
        };
        if !dialect.contains("AD_ATT") {
            continue;
        }
        let Some(at) = stmt.template.text.find(['{', '|', '}']) else {
            continue;
        };
        let mut d = diagnostic(
            &META,
            template_span(stmt, at..at + 1),
            format!("`{}` under `asm_dialect=AD_ATT`: a dialect-alternative character, reported to be rewritten before ptxas sees it", &stmt.template.text[at..at + 1]),
        )
        .with_label(*dialect_span, "AT&T dialect");
        if let Some(arg) = call.asm_dialect_arg {
            let source = cx.source();
            // Take the comma before the argument with it.
            let before = source[..arg.start as usize].trim_end();
            let start = if before.ends_with(',') {
                before.len() - 1
            } else {
                arg.start as usize
            };
            d = d.with_fix(Fix::unsafe_(
                "remove `asm_dialect=` (PTX needs no dialect)",
                vec![Edit::delete(Span::new(start, arg.end as usize))],
            ));
        }
        out.push(d);
    }
}
