use crate::support::dataflow::Flow;
use crate::support::{
    diagnostics::{diagnostic, template_span},
    fixes::equals_sign_span,
    front_end::{operand_ref, ForStatement},
};
use crate::Ctx;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::isa::register_bits;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity};

declare_rule! {
    /// ## What it does
    /// Flags an `=` output (without `&`) that an instruction writes before a later
    /// instruction reads an input: "later" along the control flow, so a loop that reads an
    /// input again after writing the output counts too.
    ///
    /// - **warning** when the output and the input can hold the same value at the asm, which
    ///   is when the compiler coalesces them into one register: the same variable on both
    ///   sides (`"=r"(x) : "r"(x)`), or a C++ loop around the asm that assigns the output back
    ///   to the input (`y = x;`);
    /// - **info** otherwise (the asm alone does not show it; a caller can still create it).
    ///
    /// Not reported: `"+"` outputs and outputs already marked `"=&"`, a write in the last
    /// instruction (nothing runs after it), and later reads of outputs only (outputs never
    /// share a register with each other). Only inputs with the output's constraint letter
    /// count: nvcc's PTX registers are typed (`%r` for `r`, `%f` for `f`, `%rd` for `l`, `%fd`
    /// for `d`, `%rs` for `h`), and an `=f` output was measured never to share an `r` input's
    /// register. Inputs bound with `n` (immediates) have no register and do not count. After
    /// `mov %0, %N` (same class), later reads of that same input `%N` are not reported: a
    /// shared register still holds its value.
    ///
    /// ## Why is this bad?
    /// The compiler assumes an asm reads all its inputs before it writes any output, so it may
    /// give an `=` output the same register as an input. Then the first write destroys the
    /// input and the later instruction reads the wrong value. `&` (early clobber) tells the
    /// compiler the output is written before the inputs are consumed.
    ///
    /// **Measured on an H200 with nvcc 13.0.88 (`-O3`, sm_90), GPU harness:** in a runtime loop
    /// with `y = x` after `asm("mov.u32 %0, 7; add.u32 %0, %0, %1;" : "=r"(x) : "r"(y))`, two
    /// iterations from 8 gave 14 instead of 22; the same asm in a helper called as
    /// `y = add_seven(y)` in the loop also gave 14; a shuffle-reduce step (`shfl.sync.down`
    /// into `%0`, then `@p add.u32 %0, %0, %1`) in a loop carrying the result gave 992 instead
    /// of 496. `"=&r"` fixed all three. Five single-shot kernels (no value fed back) computed
    /// the right result: the allocator gave the output its own register.
    ///
    /// On nine real projects (CUTLASS, CCCL, flashinfer, ThunderKittens, DeepGEMM, marlin,
    /// flash-attention, ggml, NCCL; 2026-12-01) this rule went from 429 warnings, 384 of them
    /// an `=f` output paired with an `r` input, to 45 infos (a sample of 20 read: all the real
    /// contract gap, none loop-carried inside its function).
    ///
    /// ## Example
    /// ```cuda
    /// asm("{ mul.lo.u32 %0, %2, %3; mul.hi.u32 %1, %2, %3; }" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("{ mul.lo.u32 %0, %2, %3; mul.hi.u32 %1, %2, %3; }" : "=&r"(lo), "=r"(hi) : "r"(a), "r"(b));
    /// ```
    ///
    /// ## Fix
    /// Safe: inserts `&` after the `=`.
    ///
    /// ## In Python
    /// Not applied to Triton, MLIR and `inline_ptx` calls: measured with Triton 3.6 on an
    /// H200 (LLVM's NVPTX back end, virtual registers), `mov.u32 $0, 7; add.u32 $0, $0, $1;`
    /// with `"=r,r"` kept the output apart from the input (107 from 100, as with `=&r`); the
    /// CuTe DSL side is not measured. C++ in Python strings: as in C++ files, the `&` fix
    /// included, spans inside the Python literal.
    pub(crate) static META = {
        name: "early-clobber",
        severity: Warning,
        fix: Safe,
        default_enabled: true,
        summary: "an output written before a later instruction reads an input, without `&`",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        // Measured with Triton 3.6 (LLVM's NVPTX back end, virtual registers): an output
        // written before an input is read did not share its register.
        if stmt.python().is_some() {
            continue;
        }
        // Only `=` outputs without `&` are judged: statements without one need no analysis.
        if stmt.inputs.is_empty()
            || !stmt
                .outputs
                .iter()
                .any(|o| o.constraint.is_write_only() && !o.constraint.is_early_clobber())
        {
            continue;
        }
        let flow = cx.flow(stmt);
        if flow.steps.len() < 2 {
            continue;
        }
        let cfg = flow.shared_cfg();
        for op in &stmt.outputs {
            let c = &op.constraint;
            if !c.is_write_only() || c.is_early_clobber() {
                continue;
            }
            let Some(bits) = c.letter().and_then(register_bits) else {
                continue;
            };
            // Inputs in a register the output could be given: one of the same class. nvcc's
            // PTX registers are typed (`%r` for `r`, `%f` for `f`, `%rd` for `l`, `%fd` for
            // `d`): measured, an `=f` output never shared an `r` input's register.
            let letter = c.letter();
            let register_input = |i: usize| {
                stmt.operand(i).is_some_and(|o| {
                    !o.is_output
                        && o.constraint.known
                        && o.constraint.letter() == letter
                        && letter.and_then(register_bits) == Some(bits)
                })
            };
            let mut found = None;
            for w in flow
                .uses_of_operand(op.index)
                .filter(|u| u.access.writes() && !u.in_guard)
            {
                let after: Vec<bool> = match cfg {
                    Some(cfg) => cfg.reachable_after(w.step),
                    None => (0..=flow.steps.len()).map(|s| s > w.step).collect(),
                };
                let copied = copied_input(&flow, w.step);
                let read = flow.uses.iter().find(|r| {
                    r.access.reads()
                        && register_input(r.operand)
                        && after.get(r.step).copied().unwrap_or(false)
                        // `mov %0, %1` leaves %1's value in a shared register.
                        && copied != Some(r.operand)
                });
                if let Some(r) = read {
                    found = Some((w, r));
                    break;
                }
            }
            let Some((w, r)) = found else {
                continue;
            };
            let input = stmt.operand(r.operand).expect("an input");
            let same_value = same_value(cx, stmt, op, input);
            let mut d = diagnostic(
                &META,
                c.span,
                format!(
                    "output {} (`{}`) is written before input {} (`{}`) is read, but is not marked early-clobber (`&`): they may share a register",
                    operand_ref(stmt, op.index), op.expr, operand_ref(stmt, input.index), input.expr
                ),
            )
            .with_label(template_span(stmt, w.span.clone()), format!("{} written here", operand_ref(stmt, op.index)))
            .with_label(template_span(stmt, r.span.clone()), format!("{} read afterwards", operand_ref(stmt, input.index)))
            .note_for(stmt, match same_value {
                Some(why) => format!("{why}, so the compiler may give both one register (measured with nvcc 13 on an H200: a loop-carried `mov %0, 7; add %0, %0, %1` computed 14 instead of 22)"),
                None => "the compiler assumes all inputs are read before any output is written, and may allocate an `=` output in an input's register (measured with nvcc 13 once the output is fed back into the input, e.g. by a caller's loop)".to_string(),
            });
            if same_value.is_none() {
                d.severity = Severity::Info;
            }
            if let Some(eq) = equals_sign_span(cx.source(), op) {
                d = d.cpp_fix_for(
                    stmt,
                    Fix::safe(
                        "mark the output early-clobber (`=&`)",
                        vec![Edit::insert(eq.end as usize, "&")],
                    ),
                );
            }
            out.push(d);
        }
    }
}

/// The input a plain unguarded `mov` copies into its destination (`mov.b32 %0, %3;`
/// gives `Some(3)`): sharing a register with that input loses nothing.
fn copied_input(flow: &Flow, step: usize) -> Option<usize> {
    let s = &flow.steps[step];
    if s.instr.base() != "mov" || s.instr.guard.is_some() || s.instr.operands.len() != 2 {
        return None;
    }
    let p = s.instr.operands[1].placeholder()?;
    let src = flow.stmt.resolve(p)?;
    let dst = s.instr.operands[0].placeholder()?;
    let dst = flow.stmt.resolve(dst)?;
    (src.constraint.letter().and_then(register_bits)
        == dst.constraint.letter().and_then(register_bits))
    .then_some(src.index)
}

/// Why the output and the input can hold the same value at the asm, which is when the
/// compiler coalesces them into one register: the same variable on both sides, or a C++ loop
/// around the asm that assigns the output back to the input (`y = x;`).
fn same_value(
    cx: &Ctx,
    stmt: &AsmStatement,
    output: &AsmOperand,
    input: &AsmOperand,
) -> Option<&'static str> {
    let out = plain_variable(&output.expr)?;
    let inp = plain_variable(&input.expr)?;
    if out == inp {
        return Some("the output and the input are the same variable");
    }
    if !stmt.context.in_loop {
        return None;
    }
    let body = stmt.context.function.as_ref()?.body;
    let text = cx.source().get(body.range())?;
    assigns(text, inp, out)
        .then_some("the loop around the asm assigns the output back to the input")
}

/// The expression when it is one identifier.
fn plain_variable(expr: &str) -> Option<&str> {
    let e = expr.trim();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    (!e.is_empty() && e.chars().all(ident) && !e.starts_with(|c: char| c.is_ascii_digit()))
        .then_some(e)
}

/// Whether `text` holds the statement `lhs = rhs;` (whole identifiers, any spacing).
fn assigns(text: &str, lhs: &str, rhs: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(lhs).any(|(at, _)| {
        if text[..at].ends_with(ident) {
            return false;
        }
        let rest = text[at + lhs.len()..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            return false;
        };
        if rest.starts_with('=') {
            return false;
        }
        let Some(rest) = rest.trim_start().strip_prefix(rhs) else {
            return false;
        };
        rest.trim_start().starts_with(';')
    })
}
