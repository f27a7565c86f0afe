use crate::support::{
    diagnostics::{diagnostic, template_span},
    fixes::on_write_only_outputs,
    front_end::{operand_ref, ForStatement},
};
use crate::Ctx;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement, PythonApi};
use ptxguard_analyzer::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Flags an output declared with `=` that the template reads (as a source, inside an
    /// address, as a guard, or as the accumulator of a read-write operand such as `wgmma`'s
    /// `d`) before writing it on every path that leads there. A read in the same instruction
    /// as the write counts as before it (`add.u32 %0, %0, %1;`).
    ///
    /// Outputs one instruction reads unwritten (a `wgmma` accumulator of 128 `"=f"`
    /// registers with `scale-d` 1) are one finding, with one fix for all of them.
    ///
    /// Writing the output first and reading it afterwards is fine, as are `"+"` outputs.
    /// Templates with pieces that cannot be known, instructions the ISA table does not know
    /// touching the output, and computed branches keep the rule silent.
    ///
    /// ## Why is this bad?
    /// An `=` output is write-only: the compiler does not load the variable into the register
    /// before the asm, so the template reads whatever the register happened to hold. Measured
    /// with nvcc 13.0: `x = 5; asm("add.u32 %0, %0, %1;" : "=r"(x) : "r"(a))` with `a = 1`
    /// returned 1, not 6. A **warning**: a measured wrong result that no toolchain rejects.
    ///
    /// ## Example
    /// ```cuda
    /// asm("add.u32 %0, %0, %1;" : "=r"(x) : "r"(a));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("add.u32 %0, %0, %1;" : "+r"(x) : "r"(a));
    /// ```
    ///
    /// ## Fix
    /// Unsafe: turns `=` into `+`, which makes the compiler load the variable first. Check
    /// that it is initialized, and that reading it was intended rather than a wrong operand
    /// number.
    ///
    /// ## In Python
    /// On Triton, MLIR and `inline_ptx` calls it applies as on C++, with LLVM's constraints:
    /// an input tied to an output (`0`, `1`... in the constraint string) brings a value in
    /// through that output's register and makes it read-write, as `+` does in C++ (flashinfer's
    /// tied mma accumulators were 106 false errors before that: docs/python.md). For
    /// `inline_ptx` a `{$w0}` (`write_only_types`) is write-only and a `{$rw0}` read-write.
    /// The message says no value is passed in, the help names the tie or `read_write_args`;
    /// no fix. Measured with Triton 3.6 on an H200: `fma.rn.f32 $0, $1, $2, $0;` with
    /// `"=f,f,f"` added garbage (2.35e-38 where 1000 was meant); tied (`"=f,f,f,0"`), right.
    /// C++ held in a Python string is checked as C++, with the spans and the fix inside the
    /// Python literal.
    pub(crate) static META = {
        name: "output-read-before-write",
        severity: Warning,
        fix: Unsafe,
        default_enabled: true,
        summary: "an `=` output that the template reads before writing it",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    // Outputs one instruction reads unwritten (a `wgmma` accumulator of 128 `=f` registers)
    // are one mistake: one finding per statement, instruction and kind of read.
    let mut found: Vec<Found> = Vec::new();
    cx.for_each_write_only_output(|stmt, op, flow, must| {
        if flow.stray[op.index] {
            return;
        }
        let Some(read) = flow
            .uses_of_operand(op.index)
            .find(|u| u.access.reads() && must.written_before(u.step, op.index) == Some(false))
        else {
            return;
        };
        let written_later = flow
            .uses_of_operand(op.index)
            .any(|u| u.access.writes() && !u.in_guard);
        match found.last_mut() {
            Some(last)
                if std::ptr::eq(last.stmt, stmt)
                    && last.step == read.step
                    && last.written_later == written_later =>
            {
                last.outputs.push(op);
            }
            _ => found.push(Found {
                stmt,
                outputs: vec![op],
                step: read.step,
                read: read.span.clone(),
                written_later,
            }),
        }
    });
    for f in found {
        out.push(report(cx, f));
    }
}

/// Outputs of one statement that one instruction reads before they are written.
struct Found<'a> {
    stmt: &'a AsmStatement,
    outputs: Vec<&'a AsmOperand>,
    step: usize,
    /// Where the first of them is read, in the decoded template.
    read: std::ops::Range<usize>,
    written_later: bool,
}

fn report(cx: &Ctx, f: Found) -> Diagnostic {
    let stmt = f.stmt;
    let op = f.outputs[0];
    let when = match (f.written_later, f.outputs.len()) {
        (true, 1) => "read before the template writes it",
        (true, _) => "read before the template writes them",
        (false, _) => "only read by the template",
    };
    // A Python call has no variable behind an output, and no `+`: a value comes in
    // through an input tied to it (Triton, MLIR) or a read-write argument (`inline_ptx`).
    let api = stmt.python().map(|call| call.api);
    let declared = if api == Some(PythonApi::CuteInlinePtx) {
        "write-only (`write_only_types`)"
    } else {
        "declared `=`"
    };
    let garbage = match (api.is_some(), f.outputs.len()) {
        (true, 1) => "no value is passed in, so it holds garbage",
        (true, _) => "no value is passed in, so they hold garbage",
        (false, 1) => "it holds garbage, not the variable's value",
        (false, _) => "they hold garbage, not the variables' values",
    };
    let message = match f.outputs.as_slice() {
        [one] => format!(
            "output {} (`{}`) is {declared} but {when}: {garbage}",
            operand_ref(stmt, one.index),
            one.expr
        ),
        [first, .., last] if last.index - first.index + 1 == f.outputs.len() => format!(
            "{} outputs, {} (`{}`) to {} (`{}`), are {declared} but {when}: {garbage}",
            f.outputs.len(),
            operand_ref(stmt, first.index),
            first.expr,
            operand_ref(stmt, last.index),
            last.expr
        ),
        // Not a run: each named (`%0 (`a`), %2 (`c`)`).
        several => format!(
            "outputs {} are {declared} but {when}: {garbage}",
            several
                .iter()
                .map(|o| format!("{} (`{}`)", operand_ref(stmt, o.index), o.expr))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let d = on_write_only_outputs(
        cx,
        stmt,
        &f.outputs,
        diagnostic(&META, template_span(stmt, f.read), message),
    )
    .note_for(
        stmt,
        "an `=` output is not loaded before the asm; measured with nvcc 13: 1 instead of 6",
    );
    match api {
        Some(PythonApi::CuteInlinePtx) => {
            d.with_help("pass the value in `read_write_args` (`{$rwN}`) instead")
        }
        Some(_) if f.outputs.len() == 1 => d.with_help(format!(
            "pass the value as an input tied to this output (constraint `{}`)",
            op.index
        )),
        Some(_) => {
            d.with_help("pass each value as an input tied to its output (constraints `0`, `1`...)")
        }
        None => d,
    }
}
