use crate::support::cpp_uses::{
    call_sites, condition_names, parameter_names, python_call_returned, python_function_called,
    reads_of_left_value, tests_any, uses_after, After,
};
use crate::support::dataflow::{Control, Flow, MustWrite, RegKey};
use crate::support::{
    diagnostics::{diagnostic, template_span},
    fixes::on_write_only_output,
    front_end::{operand_ref, ForStatement},
};
use crate::Ctx;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement, PythonApi};
use ptxguard_analyzer::ptx::OperandKind;
use ptxguard_analyzer::{Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags an output declared with `=` that the template writes only under a predicate
    /// guard (`@p mov.u32 %0, 1;`) or only on some paths through it (a conditional branch
    /// `@p bra DONE;` can jump over the write). A write under `@p` followed by one under
    /// `@!p` (with `p` unchanged in between) counts as a write on every path, and paths that
    /// end in `exit`, `ret` or `trap` do not count.
    ///
    /// Also left alone: the "valid flag" idiom, where another output is always set from the
    /// same predicate (`selp.u32 %0, 1, 0, p;`, or `@p mov.u32 %0, 1;` with `@!p mov.u32 %0,
    /// 0;`, next to `@p mov.u32 %1, ...`): the caller can tell when the conditional output
    /// holds nothing.
    ///
    /// ## Severity
    /// - *warning* when the unwritten value may be used: C++ reads the variable after the asm
    ///   outside an `if` on the condition, or returns it to a caller in the file that does,
    ///   or a loop may read it again. Measured: the
    ///   variable gets garbage (a wrong result whose precondition, the skipped write, depends
    ///   on the data; no toolchain rejects the code, so never an error).
    /// - *info* when the rule cannot follow the variable (a member, `data.x`; an array
    ///   element): whether the garbage is used is not known, and the finding says so.
    /// - *info* when nothing in view uses it unwritten. The condition that skips the write is
    ///   computed from the asm's inputs only (`setp.ne.u32 p, %2, 0` on `"r"(in_bounds)`), and
    ///   every read of the variable after the asm is under an `if` testing one of those inputs
    ///   (`if (in_bounds) out[i] = v;`); or the function returns it and every call in the file
    ///   passes an argument for that input and reads the result only under an `if` on it; or
    ///   no caller is in view (a masked-load helper: the caller holds the condition, as with
    ///   `tl.load` without `other`); or nothing reads the variable after the asm. A Python
    ///   result is followed only that far: a helper returning it that nothing in the file
    ///   calls.
    ///
    /// `"+"` outputs are left alone: the compiler loads their old value before the asm, so a
    /// conditional write keeps it when the predicate is false. Templates with pieces that
    /// cannot be known, instructions the ISA table does not know touching the output, and
    /// computed branches (`brx.idx`) keep the rule silent.
    ///
    /// ## Why is this bad?
    /// An `=` output is write-only: the compiler does not put the variable's current value in
    /// the register before the asm, so when the write does not happen the variable receives
    /// whatever the register held. Measured with nvcc 13.0: `asm("{ .reg .pred %p; setp.eq.s32
    /// %p, %1, 34; @%p mov.s32 %0, 1; }" : "=r"(y) : "r"(x))` with `y = 77` before and
    /// `x != 34` returned 0, not 77.
    ///
    /// ## Example
    /// ```cuda
    /// int y = 77;
    /// asm("{ .reg .pred p; setp.eq.s32 p, %1, 34; @p mov.s32 %0, 1; }" : "=r"(y) : "r"(x));
    /// ```
    /// Use instead:
    /// ```cuda
    /// int y = 77;
    /// asm("{ .reg .pred p; setp.eq.s32 p, %1, 34; @p mov.s32 %0, 1; }" : "+r"(y) : "r"(x));
    /// ```
    /// (or write the output on every path: `selp.s32 %0, 1, %2, p;`).
    ///
    /// ## Fix
    /// Unsafe: turns `=` into `+`. The variable must then hold a meaningful value before the
    /// asm (reading an uninitialized one is undefined), which only a human can check.
    ///
    /// ## In Python
    /// Applies to Triton, MLIR and `inline_ptx` calls, at *info*: an output written only
    /// under `@p` or on some paths leaves the result undefined, but no wrong value was
    /// measured (below). No fix (LLVM's constraints have no `+`):
    /// the help says to write it on every path (`selp`) or to tie an input holding the value
    /// to keep (`0` in the constraints; `read_write_args` for `inline_ptx`). Not reproduced
    /// with Triton 3.6 on an H200: a predicated `mov` under a false predicate gave 0, as
    /// `selp` does; the value is still not defined. C++ in Python strings: as in C++ files
    /// (the `+` fix included), spans inside the Python literal.
    pub(crate) static META = {
        name: "conditional-output",
        severity: Warning,
        fix: Unsafe,
        default_enabled: true,
        summary: "an `=` output written only under a predicate or on some paths",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    cx.for_each_write_only_output(|stmt, op, flow, must| {
        if flow.uncertain(op.index) || must.written_at_end(op.index) != Some(false) {
            return;
        }
        if flagged_by_another_output(flow, must, op.index) {
            return;
        }
        let writes: Vec<_> = flow
            .uses_of_operand(op.index)
            .filter(|u| u.access.writes() && !u.in_guard)
            .collect();
        // Triton and MLIR results have no prior value, and their constraints no `+`.
        let python_call = stmt.python().is_some();
        // Never written: `unused-operand` or `output-read-before-write` speak for it.
        let Some(first) = writes.first() else {
            return;
        };
        // The first guarded write, else the first write on a conditional path.
        let guarded = writes
            .iter()
            .find(|u| flow.steps[u.step].instr.guard.is_some());
        let (u, message, label) = match guarded {
            Some(u) => {
                let g = flow.steps[u.step].instr.guard.as_ref().expect("guarded");
                (
                    *u,
                    format!(
                        "output {} (`{}`) is declared `=` but written only under a predicate: when it is false {}",
                        operand_ref(stmt, op.index),
                        op.expr,
                        if python_call {
                            "the result is garbage"
                        } else {
                            "the variable gets garbage, not its old value"
                        }
                    ),
                    Some((template_span(stmt, g.span.clone()), "written only when this predicate holds".to_string())),
                )
            }
            None => {
                let branch = flow
                    .steps
                    .iter()
                    .find(|s| {
                        matches!(
                            s.control,
                            Control::Branch {
                                conditional: true,
                                ..
                            }
                        )
                    })
                    .or_else(|| {
                        flow.steps
                            .iter()
                            .find(|s| matches!(s.control, Control::Branch { .. }))
                    });
                (
                    *first,
                    format!(
                        "output {} (`{}`) is declared `=` but written only on some paths through the template: on the others {}",
                        operand_ref(stmt, op.index),
                        op.expr,
                        if python_call {
                            "the result is garbage"
                        } else {
                            "the variable gets garbage"
                        }
                    ),
                    branch.map(|s| {
                        (
                            template_span(stmt, s.instr.opcode_span.clone()),
                            "this branch can skip the write".to_string(),
                        )
                    }),
                )
            }
        };
        let mut d = on_write_only_output(
            cx,
            stmt,
            op,
            diagnostic(&META, template_span(stmt, u.span.clone()), message),
        );
        match unused_when_unwritten(cx, stmt, op, flow) {
            Some(why) => {
                d.severity = Severity::Info;
                d = d.note_for(stmt, if python_call {
                    format!("nothing in view reads it unwritten: {why}")
                } else {
                    format!("nothing in view reads it unwritten: {why}; still, an `=` output is not loaded before the asm (measured with nvcc 13: 0 instead of the prior 77)")
                });
            }
            // The wrong value is measured for C++ only: Triton gave 0, as `selp` does.
            None if python_call => {
                d.severity = Severity::Info;
                d = d.with_note("the result is undefined when the write is skipped, but no wrong value was measured: with Triton 3.6 on an H200 a skipped predicated write gave 0");
            }
            None => {
                d = d.note_for(stmt, "an `=` output is not loaded before the asm; measured with nvcc 13: 0 instead of the prior 77");
            }
        }
        if let Some((span, text)) = label {
            d = d.with_label(span, text);
        }
        match stmt.python().map(|c| c.api) {
            Some(PythonApi::CuteInlinePtx) => {
                d = d.with_help("write it on every path (`selp`), or pass the value to keep in `read_write_args`");
            }
            Some(_) => {
                d = d.with_help("write it on every path (`selp`), or tie an input holding the value to keep to it (`0` in the constraints)");
            }
            None => {}
        }
        out.push(d);
    });
}

/// Why nothing in view reads the output when the template leaves it unwritten, or `None` when
/// something may: the asm's skipping condition is computed from its inputs only, and every
/// read of the variable after the asm is under an `if` testing one of them, or the value is
/// returned and every caller in the file reads the result only under such an `if` (no
/// caller in view: the caller holds the condition, as with a masked load).
fn unused_when_unwritten(
    cx: &Ctx,
    stmt: &AsmStatement,
    op: &AsmOperand,
    flow: &Flow,
) -> Option<String> {
    let inputs = condition_inputs(flow, op.index);
    let names: Vec<String> = inputs
        .iter()
        .flatten()
        .filter_map(|&i| stmt.operand(i))
        .flat_map(|o| condition_names(&o.expr))
        .collect();
    if stmt.python().is_some() {
        // Python uses are not followed: only a helper nothing in the file calls is quiet.
        return (inputs.is_some()
            && python_call_returned(cx.source(), stmt)
            && python_function_called(cx.source(), stmt) == Some(false))
        .then(|| {
            "the result is returned and the condition that skips the write is the caller's own input; no caller is in view".to_string()
        });
    }
    let After::Uses(uses) = uses_after(cx, stmt, &op.expr) else {
        // A member or an element (`data.x`, `v[i]`): where it is read is not followed, so
        // nothing says the garbage is used.
        let plain = op.expr.trim();
        return (!plain.is_empty()
            && !plain.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| {
            format!(
                "`{}` is not a plain variable, whose reads this rule follows",
                op.expr
            )
        });
    };
    let reads = reads_of_left_value(&uses);
    if reads.is_empty() {
        return Some("nothing reads the variable after the asm".into());
    }
    let guarded =
        |conditions: &[String], names: &[String]| conditions.iter().any(|c| tests_any(c, names));
    let mut returned = false;
    for u in &reads {
        if inputs.is_some() && guarded(&u.conditions, &names) {
            continue;
        }
        if u.returned && inputs.is_some() && u.conditions.is_empty() {
            returned = true;
            continue;
        }
        return None;
    }
    if !returned {
        return Some(format!(
            "every read of `{}` after the asm is under an `if` on `{}`, the condition of the write",
            op.expr,
            names.join("`, `")
        ));
    }
    // Returned: the callers must test the argument they pass for the condition.
    let function = stmt.context.function.as_ref()?;
    let params = parameter_names(cx, function)?;
    let positions: Vec<usize> = params
        .iter()
        .enumerate()
        .filter(|(_, p)| names.contains(p))
        .map(|(i, _)| i)
        .collect();
    if positions.is_empty() {
        return None;
    }
    let sites = call_sites(cx, function);
    for site in &sites {
        let arg_names: Vec<String> = positions
            .iter()
            .filter_map(|&i| site.args.get(i))
            .flat_map(|a| condition_names(a))
            .collect();
        if arg_names.is_empty() {
            return None;
        }
        if guarded(&site.conditions, &arg_names) {
            continue;
        }
        let uses = site.result_uses.as_ref()?;
        if !reads_of_left_value(uses)
            .iter()
            .all(|u| guarded(&u.conditions, &arg_names))
        {
            return None;
        }
    }
    Some(if sites.is_empty() {
        format!(
            "`{}` returns it and its callers pass the condition (`{}`): none is in view",
            function.name,
            names.join("`, `")
        )
    } else {
        format!(
            "every caller of `{}` in this file reads the result only under an `if` on the condition it passes",
            function.name
        )
    })
}

/// The predicates that can skip `operand`'s write: those guarding its writes and those of the
/// template's conditional branches.
fn skipping_predicates(flow: &Flow, operand: usize) -> Vec<RegKey> {
    let mut predicates: Vec<RegKey> = flow
        .uses_of_operand(operand)
        .filter(|u| u.access.writes())
        .filter_map(|u| flow.steps[u.step].guard.as_ref())
        .map(|g| g.predicate)
        .collect();
    predicates.extend(flow.steps.iter().filter_map(|s| match s.control {
        Control::Branch {
            conditional: true, ..
        } => s.guard.as_ref().map(|g| g.predicate),
        _ => None,
    }));
    predicates
}

/// The asm inputs the conditions that can skip `operand`'s write are computed from (the
/// predicates guarding its writes and the template's conditional branches, each set by
/// instructions reading only inputs and immediates); `None` when some condition comes from
/// anything else.
fn condition_inputs(flow: &Flow, operand: usize) -> Option<Vec<usize>> {
    let predicates = skipping_predicates(flow, operand);
    let is_input = |i: usize| flow.stmt.operand(i).is_some_and(|o| !o.is_output);
    let mut inputs = Vec::new();
    for key in predicates {
        if let Some(i) = (0..flow.stmt.operand_count()).find(|&i| RegKey::operand(i) == key) {
            if !is_input(i) {
                return None;
            }
            inputs.push(i);
            continue;
        }
        let writers: Vec<usize> = (0..flow.steps.len())
            .filter(|&i| flow.steps[i].writes_names.contains(&key))
            .collect();
        if writers.is_empty() {
            return None;
        }
        for w in writers {
            let step = &flow.steps[w];
            if step.guard.is_some() {
                return None;
            }
            for source in step.instr.operands.iter().skip(1) {
                match &source.kind {
                    OperandKind::Immediate(_) => {}
                    OperandKind::Placeholder(p) => {
                        let bound = flow.stmt.resolve(p)?;
                        if !is_input(bound.index) {
                            return None;
                        }
                        inputs.push(bound.index);
                    }
                    _ => return None,
                }
            }
        }
    }
    (!inputs.is_empty()).then_some(inputs)
}

/// The "valid flag" idiom: another output is always written from a predicate (`selp.u32 %0,
/// 1, 0, p;`) that also guards this output's writes or a conditional branch of the template,
/// so the caller can tell when this output holds nothing (CUTLASS and ThunderKittens read
/// `clusterlaunchcontrol` results this way).
fn flagged_by_another_output(flow: &Flow, must: &MustWrite, operand: usize) -> bool {
    let predicates = skipping_predicates(flow, operand);
    // `selp.u32 %1, 1, 0, p;`, or `@p mov.u32 %1, 1;` with its `@!p` twin (complementary
    // guards make the flag written on every path).
    let sets_flag = |s: &crate::support::dataflow::Step| {
        let selp = s.instr.base() == "selp"
            && s.instr.guard.is_none()
            && s.instr.operands.len() == 4
            && matches!(&s.instr.operands[3].kind,
                OperandKind::Register { name, .. }
                    if flow.register_key(name).is_some_and(|k| predicates.contains(&k)));
        let guarded_constant = s.instr.base() == "mov"
            && s.guard.is_some_and(|g| predicates.contains(&g.predicate))
            && s.instr.operands.len() == 2
            && matches!(s.instr.operands[1].kind, OperandKind::Immediate(_));
        selp || guarded_constant
    };
    flow.steps.iter().enumerate().any(|(i, s)| {
        sets_flag(s)
            && flow.uses_of(i).iter().any(|u| {
                u.access.writes()
                    && u.operand != operand
                    && flow.stmt.operand(u.operand).is_some_and(|o| o.is_output)
                    && must.written_at_end(u.operand) == Some(true)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(text: &str) -> Vec<Diagnostic> {
        let file = ptxguard_analyzer::SourceFile::new("t.py", text.to_string());
        crate::check(&file, &Default::default(), &Default::default())
            .into_iter()
            .filter(|d| d.rule == META.name)
            .collect()
    }

    /// Python results have no old value and LLVM's constraints no `+`: the finding says so and
    /// points to the forms that do exist there.
    #[test]
    fn python_calls_get_their_own_wording_and_help() {
        let triton = findings(
            "import triton.language as tl\n\
             y = tl.inline_asm_elementwise(\"{ .reg .pred p; setp.eq.s32 p, $1, 3; @p mov.s32 $0, 1; }\", \"=r,r\", [x], dtype=tl.int32, is_pure=True, pack=1)\n",
        );
        assert_eq!(triton.len(), 1, "{triton:?}");
        assert!(triton[0]
            .message
            .ends_with("when it is false the result is garbage"));
        assert!(triton[0].fix.is_none());
        assert!(triton[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("`0` in the constraints")));
        let cute = findings(
            "import cutlass.cute as cute\n\
             y = cute.arch.inline_ptx(\"{ .reg .pred p; setp.eq.s32 p, {$r0}, 3; @p mov.s32 {$w0}, 1; }\", write_only_types=[Int32], read_only_args=[x])\n",
        );
        assert_eq!(cute.len(), 1, "{cute:?}");
        assert!(cute[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("read_write_args")));
    }
}
