use crate::support::cpp_uses::{python_call_returned, reads_of_left_value, uses_after, After};
use crate::support::front_end::operand_ref;
use crate::support::{
    diagnostics::diagnostic,
    operands::{has_matching_constraint, placeholder_refs, target_index},
};
use crate::Ctx;
use ptxguard_analyzer::cpp::{AsmStatement, PythonApi};
use ptxguard_analyzer::{Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags an operand the template never references.
    ///
    /// ## Severity
    /// - *warning*: an `"="` output never written whose variable C++ may read after the asm
    ///   (measured: the variable holds garbage; no toolchain rejects it, so not an error). Anything the rule cannot follow (a member, an
    ///   array element, a variable a loop may read again) counts as read.
    /// - *info*: an `"="` output never written that nothing in view reads: C++ names the
    ///   variable again only to assign it, or not at all (declared in the block around the asm
    ///   and not named again there, or not named again in the rest of the function outside a
    ///   loop: a prefetch helper's `"=l"(addr) : "l"(addr)`); or a Triton/MLIR asm with side
    ///   effects whose API-required dummy result is returned (`return
    ///   tl.inline_asm_elementwise(...)`) to callers not in view.
    /// - *warning*: an input never used while the template reads one variable through two
    ///   operands (a three-way max that shipped in a real project, `max.s16x2 %0, %0, %1;`
    ///   with `"+r"(tmp) : "r"(tmp), "r"(c)`: `%1` was meant to be `c`, and the result is
    ///   wrong), or one instruction takes one placeholder as two sources (`add.u32 %0, %1,
    ///   %1;`); otherwise an ignored input changes no result by itself: *info*; also *info*
    ///   when that input is a literal constant (`"r"(0x80008000)`
    ///   left over from an earlier template) or the same expression as another input the
    ///   template uses (`args=[sel, a, b, sel]` reading only the second `sel`): no data is
    ///   ignored; *info* too when the template only copies another operand (`mov.b64 $0, $1;`
    ///   with `[ptr, token]`): the extra input is a dependency token, passed so that the
    ///   result depends on it; *info* too for a Triton call whose template reads none of its
    ///   inputs (`mov.b32 $0, 0;` with `[acc]`): Triton gives the result the broadcast shape
    ///   of the arguments, so they are there for the shape.
    ///
    /// Not reported on a statement whose template names an operand that does not exist
    /// (`%8` of eight, an unknown `%[name]`): `operand-index` reports that mistake, and the
    /// operand it meant is unused only because of it.
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
    /// produce a result, so side-effect-only asm needs a dummy one. A helper that returns that
    /// dummy (`return tl.inline_asm_elementwise(...)` with `is_pure=False`) gets info. Nor are
    /// the inputs of a Triton call whose input constraints do not match its arguments: that is
    /// `pack-mismatch`'s finding.
    /// C++ in Python strings: as in C++ files, spans inside the Python literal.
    pub(crate) static META = {
        name: "unused-operand",
        severity: Warning,
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
        // Outputs naming the same variable get the same answer, computed once.
        let mut not_read: Vec<(&str, Option<&'static str>)> = Vec::new();
        let mut used = vec![false; stmt.operand_count()];
        let mut misnumbered = false;
        for (target, _, _) in placeholder_refs(stmt) {
            match target_index(stmt, &target) {
                Some(i) => used[i] = true,
                None => misnumbered = true,
            }
        }
        // A placeholder past the operands (`%8` of eight) is `operand-index`'s error; the
        // operand it meant is then unused as a symptom of the same mistake: one finding.
        if misnumbered {
            continue;
        }
        // Input constraints that do not match a Triton call's arguments are `pack-mismatch`.
        let inputs_miscounted = crate::support::operands::wrong_input_count(stmt);
        // Triton passes every packed element of every argument: at `pack` > 1 an asm that
        // ignores some of them does so by design.
        let packed = stmt
            .python()
            .is_some_and(|call| call.pack.is_some_and(|(_, p)| p != Some(1)));
        // The same for every ignored input of the statement, worked out for the first.
        let facts = std::cell::OnceCell::new();
        for op in stmt.operands() {
            if used[op.index] || op.constraint.is_read_write() || (fence && !op.is_output) {
                continue;
            }
            if (inputs_miscounted || packed) && !op.is_output {
                continue;
            }
            // Triton and MLIR make the asm produce a result: a call whose result is thrown
            // away writes a dummy output for asm that only has side effects.
            if op.is_output && stmt.python().is_some_and(|p| p.result_discarded) {
                continue;
            }
            let d = if op.is_output {
                let why = match not_read.iter().find(|(e, _)| *e == op.expr) {
                    Some((_, why)) => *why,
                    None => {
                        let why = garbage_not_read(cx, stmt, &op.expr);
                        not_read.push((&op.expr, why));
                        why
                    }
                };
                if let Some(why) = why {
                    // Nothing in view reads the garbage: a misdeclared operand, not a wrong value.
                    let d = diagnostic(&META, op.constraint.span, format!("output {} (`{}`) is never written by the template: declared `=` for nothing ({why})", operand_ref(stmt, op.index), op.expr));
                    let mut d = d.with_note("no garbage is read in view; declare it as an input (or `+`) if the template only reads it, or drop it");
                    d.severity = Severity::Info;
                    d
                } else {
                    diagnostic(&META, op.constraint.span, format!("output {} (`{}`) is never written by the template: its value is garbage after the asm", operand_ref(stmt, op.index), op.expr))
                    .with_note("an `=` output is not loaded before the asm; whatever the register held is what the variable gets")
                }
            } else {
                // A constant nothing uses is a leftover (info); an unused variable usually means
                // the template ignores data it was meant to read (warning).
                let constant = op
                    .expr
                    .trim()
                    .starts_with(|c: char| c.is_ascii_digit() || c == '-');
                // The same value passed again as an input the template uses
                // (`args=[sel, a, b, sel]` with only `$4` read): no data is ignored.
                let passed_again = stmt.inputs.iter().any(|other| {
                    other.index != op.index
                        && used[other.index]
                        && same_expression(&other.expr, &op.expr)
                });
                let InputFacts {
                    dependency,
                    shape_only,
                    read_twice,
                } = *facts.get_or_init(|| input_facts(stmt, &used));
                let d = Diagnostic::new(
                    META.name,
                    if constant || passed_again || dependency || shape_only || !read_twice {
                        Severity::Info
                    } else {
                        Severity::Warning
                    },
                    op.constraint.span,
                    format!(
                        "input {} (`{}`) is never used by the template",
                        operand_ref(stmt, op.index),
                        op.expr
                    ),
                );
                if dependency && !constant && !passed_again {
                    d.with_note("the template only copies another operand: an input it ignores makes the result depend on that value (a dependency token), by design")
                } else if shape_only && !constant && !passed_again {
                    d.with_note("the template reads no input: Triton takes the result's shape from the arguments, so they are passed for the shape")
                } else {
                    d
                }
            };
            out.push(d.with_label(op.expr_span, "bound here"));
        }
    }
}

/// What the template says about the inputs it ignores, the same for each of them.
#[derive(Clone, Copy)]
struct InputFacts {
    /// The template only copies another operand (`mov.b64 $0, $1;` with `[ptr, token]`): an
    /// extra input makes the result depend on it, by design (a dependency token), not data
    /// the template forgot.
    dependency: bool,
    /// A Triton call whose template reads none of its inputs: Triton gives the result the
    /// broadcast shape of the arguments, so they are passed for the shape (`mov.b32 $0, 0;`
    /// with `[acc]`), not for data.
    shape_only: bool,
    /// What makes an ignored input a wrong result rather than a smell: the template reads one
    /// variable through two operands (`max.s16x2 %0, %0, %1;` with `"+r"(tmp) : "r"(tmp),
    /// "r"(c)`: `%1` was meant to be `c`), or one placeholder twice as sources. Without that,
    /// an input the template ignores changes no result.
    read_twice: bool,
}

fn input_facts(stmt: &AsmStatement, used: &[bool]) -> InputFacts {
    InputFacts {
        dependency: only_copies(stmt),
        shape_only: stmt
            .python()
            .is_some_and(|call| call.api == PythonApi::TritonElementwise)
            && stmt.inputs.iter().all(|i| !used[i.index]),
        read_twice: stmt.operands().any(|a| {
            used[a.index]
                && stmt.operands().any(|b| {
                    b.index > a.index && used[b.index] && same_expression(&a.expr, &b.expr)
                })
        }) || source_read_twice(stmt),
    }
}

/// Two operand expressions written the same, whitespace aside (`a+b` is `a + b`).
fn same_expression(a: &str, b: &str) -> bool {
    a.split_whitespace()
        .flat_map(str::chars)
        .eq(b.split_whitespace().flat_map(str::chars))
}

/// Whether one instruction takes the same placeholder as two of its sources (`add.u32 %0,
/// %1, %1;`): where an ignored input likely belonged.
fn source_read_twice(stmt: &AsmStatement) -> bool {
    use ptxguard_analyzer::ptx::OperandKind;
    stmt.ptx.instructions().any(|(_, instr)| {
        let sources: Vec<_> = instr
            .operands
            .iter()
            .skip(1)
            .filter_map(|o| match &o.kind {
                OperandKind::Placeholder(p) => Some(&p.target),
                _ => None,
            })
            .collect();
        sources
            .iter()
            .enumerate()
            .any(|(i, a)| sources[i + 1..].contains(a))
    })
}

/// Whether the template is one `mov` from an operand into an operand and nothing else:
/// `mov.b64 %0, %1;`.
fn only_copies(stmt: &AsmStatement) -> bool {
    let mut instructions = stmt.ptx.instructions();
    let Some((_, first)) = instructions.next() else {
        return false;
    };
    instructions.next().is_none()
        && first.base() == "mov"
        && first.guard.is_none()
        && first.operands.len() == 2
        && first
            .operands
            .iter()
            .all(|o| matches!(o.kind, ptxguard_analyzer::ptx::OperandKind::Placeholder(_)))
}

/// Why the garbage an unwritten `=` output leaves is not read in view, or `None` when it may be:
/// C++ never names the variable again but to assign it, or a Python asm with side effects
/// returns its API-required dummy result to callers not in view.
fn garbage_not_read(cx: &Ctx, stmt: &AsmStatement, expr: &str) -> Option<&'static str> {
    if let Some(call) = stmt.python() {
        return (call.has_side_effects() && python_call_returned(cx.source(), stmt)).then_some(
            "the asm has side effects and its dummy result is returned: no caller in view reads it",
        );
    }
    let After::Uses(uses) = uses_after(cx, stmt, expr) else {
        return None;
    };
    reads_of_left_value(&uses)
        .is_empty()
        .then_some("nothing reads the variable after the asm before it is assigned again")
}
