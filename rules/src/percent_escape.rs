use crate::support::diagnostics::{diagnostic, template_span};
use crate::support::portability::portability_finding;
use crate::Ctx;
use ptxguard_analyzer::ptx::{PercentKind, PercentMode};
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity, Span};

declare_rule! {
    /// ## What it does
    /// Checks that every `%` in a template is written the way the compiler reads it.
    ///
    /// In an asm statement **with operands**, `%` introduces a placeholder (`%0`, `%[name]`,
    /// `%=`) and a literal `%` must be written `%%`. A `%` before a name (`%clock`, `%tid.x`,
    /// `%laneid`, a register `%p`) is a portability finding; a lone `%` before nothing usable
    /// is a warning.
    ///
    /// In an asm statement **without operands** (`asm("...")`, or clobbers only), the
    /// compiler does not substitute anything: `%%` reaches ptxas as two characters and is
    /// reported as an error; write a single `%`.
    ///
    /// ## Severity
    /// - *error*: `%%` with no operands, and in LLVM inline asm (Python) `%%` or `%0`: ptxas
    ///   or LLVM rejects them (measured).
    /// - *info* for `%clock` with operands: nvcc passes it through and ptxas accepts it
    ///   (measured with nvcc 13.0 and NVRTC), so only another compiler is hurt. It is a
    ///   *warning* when clang builds the file (an entry of the compilation database whose
    ///   compiler is `clang`/`clang++`) or the configuration asks for clang portability
    ///   (`portability = ["clang"]`, `--portability clang`).
    /// - *warning* for a lone `%` with operands (what nvcc does with it is not measured).
    ///
    /// ## Why is this bad?
    /// nvcc passes `%clock` through when there are operands and ptxas accepts it, but clang
    /// and GCC-style compilers read `%c` as an operand modifier and reject the file: CUTLASS,
    /// CCCL and PyTorch each shipped this and later fixed it. With no operands, nvcc passes
    /// the text verbatim and ptxas fails with `Parsing error near '%'` (measured with nvcc 13.0).
    ///
    /// ## Example
    /// ```cuda
    /// asm volatile("mov.u32 %0, %laneid;" : "=r"(lane));   // info (warning for clang)
    /// asm volatile("mov.u32 %%r1, %%clock;" ::: "memory");  // error: no operands
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    /// asm volatile("{ .reg .u32 r1; mov.u32 r1, %clock; }" ::: "memory");
    /// ```
    ///
    /// ## Fix
    /// Safe: doubles the `%` (with operands) or removes the extra one (without).
    ///
    /// ## In Python
    /// On Triton `inline_asm_elementwise` and MLIR `llvm.inline_asm` calls the template is
    /// LLVM inline asm: operands are `$0`, `${0:modifier}`, a literal `$` is `$$`, and `%` is an
    /// ordinary character. `%laneid` is right there; `%%laneid` reaches ptxas as written and is
    /// an error; `%0` is a register name, not an operand (an error, with `$0` as the fix).
    /// C++ in Python strings: as in C++ files (`%%` with operands), spans inside the Python
    /// literal; NVRTC (cupy) passes `%laneid` with operands through as nvcc does (measured).
    pub(crate) static META = {
        name: "percent-escape",
        severity: Info,
        fix: Safe,
        default_enabled: true,
        summary: "a `%` not escaped the way the compiler reads it",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        let mode = stmt.percent_mode();
        for p in &stmt.ptx.percents {
            let first_percent = template_span(stmt, p.span.start..p.span.start + 1);
            match (&p.kind, mode) {
                (PercentKind::Register { name }, PercentMode::WithOperands) => {
                    let span = template_span(stmt, p.span.clone());
                    let d = diagnostic(&META, span, format!("`%{name}` must be written `%%{name}` in an asm with operands: `%` starts a placeholder here"))
                        .with_fix(Fix::safe("escape the `%`", vec![Edit::insert(first_percent.start as usize, "%")]));
                    out.push(portability_finding(
                        cx,
                        stmt,
                        d,
                        "nvcc passes it through (measured), but clang and GCC-style compilers read `%c`, `%l`... as operand modifiers and reject the statement",
                    ));
                }
                (PercentKind::Stray, PercentMode::WithOperands) => {
                    out.push(
                        Diagnostic::new(
                            META.name,
                            Severity::Warning,
                            first_percent,
                            "a lone `%` in an asm with operands: write `%%` for a literal `%`",
                        )
                        .with_fix(Fix::safe(
                            "escape the `%`",
                            vec![Edit::insert(first_percent.start as usize, "%")],
                        )),
                    );
                }
                (PercentKind::Escape, PercentMode::Llvm)
                    if stmt.template.text.as_bytes().get(p.span.start) == Some(&b'%') =>
                {
                    let span = template_span(stmt, p.span.clone());
                    let mut d = Diagnostic::new(META.name, Severity::Error, span, "`%%` reaches ptxas unchanged in LLVM inline asm (operands are `$N`): write a single `%`");
                    if !first_percent.is_empty() {
                        d = d.with_fix(Fix::safe(
                            "remove the extra `%`",
                            vec![Edit::delete(first_percent)],
                        ));
                    }
                    out.push(d);
                }
                (PercentKind::Register { name }, PercentMode::Llvm)
                    if name.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    let span = template_span(stmt, p.span.clone());
                    out.push(
                        Diagnostic::new(META.name, Severity::Error, span, format!("`%{name}` is not an operand in LLVM inline asm: operands are written `${name}`"))
                            .with_fix(Fix::safe(format!("write `${name}`"), vec![Edit::replace(first_percent, "$")])),
                    );
                }
                (PercentKind::Escape, PercentMode::Verbatim) => {
                    let span = template_span(stmt, p.span.clone());
                    let mut d = Diagnostic::new(META.name, Severity::Error, span, "`%%` in an asm without operands reaches ptxas unchanged: write a single `%`")
                        .with_note("with no operands nvcc does not substitute anything; ptxas fails with `Parsing error near '%'`");
                    if !first_percent.is_empty() {
                        d = d.with_fix(Fix::safe(
                            "remove the extra `%`",
                            vec![Edit::delete(Span::new(
                                first_percent.start as usize,
                                first_percent.end as usize,
                            ))],
                        ));
                    }
                    out.push(d);
                }
                _ => {}
            }
        }
    }
}
