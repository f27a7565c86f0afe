use crate::dataflow::Flow;
use crate::util::{diagnostic, equals_sign_span, template_span};
use crate::Ctx;
use ptxguard_analyzer::isa::register_bits;
use ptxguard_analyzer::{Diagnostic, Edit, Fix};

declare_rule! {
    /// ## What it does
    /// Flags an `=` output (without `&`) that an instruction writes before a later
    /// instruction reads an input: "later" along the control flow, so a loop that reads an
    /// input again after writing the output counts too.
    ///
    /// Not reported: `"+"` outputs and outputs already marked `"=&"`, a write in the last
    /// instruction (nothing runs after it), and later reads of outputs only (outputs never
    /// share a register with each other). Only inputs whose register has the output's size
    /// count (`h` 16, `r`/`f` 32, `l`/`d` 64, `q` 128 bits): PTX registers are typed, so a
    /// 32-bit output never shares a 64-bit address register. Inputs bound with `n`
    /// (immediates) have no register and do not count. After `mov %0, %N` (same size), later
    /// reads of that same input `%N` are not reported: a shared register still holds its value.
    ///
    /// **In Python** it is not applied: measured with Triton 3.6 (LLVM's NVPTX back end,
    /// virtual registers), an output written before an input is read did not share its
    /// register.
    ///
    /// ## Why is this bad?
    /// The compiler assumes an asm reads all its inputs before it writes any output, so it may
    /// give an `=` output the same register as an input. Then the first write destroys the
    /// input and the later instruction reads the wrong value. `&` (early clobber) tells the
    /// compiler the output is written before the inputs are consumed.
    ///
    /// **Not reproduced on the GPU.** The GPU harness ran five such kernels on an H200 with
    /// nvcc 13.0.88 and all computed the right result: nvcc's register allocator happened to
    /// give the output its own register. It is still reported, as a warning, because the
    /// asm contract allows the sharing: any change of inlining, register pressure or
    /// compiler (clang compiles CUDA and follows the GCC rule) can turn it into a wrong
    /// value with no error anywhere.
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
    pub static META = {
        name: "early-clobber",
        severity: Warning,
        fix: Safe,
        default_enabled: true,
        summary: "an output written before a later instruction reads an input, without `&`",
    }
}

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
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
            // Inputs in a register the output could be given: one of the same size.
            let register_input = |i: usize| {
                stmt.operand(i).is_some_and(|o| {
                    !o.is_output
                        && o.constraint.known
                        && o.constraint.letter().and_then(register_bits) == Some(bits)
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
            let mut d = diagnostic(
                &META,
                c.span,
                format!(
                    "output %{} (`{}`) is written before input %{} (`{}`) is read, but is not marked early-clobber (`&`): they may share a register",
                    op.index, op.expr, input.index, input.expr
                ),
            )
            .with_label(template_span(stmt, w.span.clone()), format!("%{} written here", op.index))
            .with_label(template_span(stmt, r.span.clone()), format!("%{} read afterwards", input.index))
            .with_note("the compiler assumes all inputs are read before any output is written, and may allocate an `=` output in an input's register");
            if let Some(eq) = equals_sign_span(cx.source(), op) {
                d = d.with_fix(Fix::safe(
                    "mark the output early-clobber (`=&`)",
                    vec![Edit::insert(eq.end as usize, "&")],
                ));
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
