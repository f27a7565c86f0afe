use crate::support::diagnostics::diagnostic;
use crate::support::operands::input_count_wrong;
use crate::Ctx;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement, PythonApi, PythonCall};
use ptxguard_analyzer::{Diagnostic, Span};

declare_rule! {
    /// ## What it does
    /// Checks a Triton `inline_asm_elementwise` call's constraint string against what Triton
    /// builds from `dtype` and `pack`. Each result dtype of `b` bits takes
    /// `pack / min(32 / b, pack)` output registers (elements narrower than 32 bits are packed
    /// into 32-bit registers, `pack` at most), so `dtype=tl.int8, pack=4` is one `=r` and
    /// `dtype=tl.float32, pack=4` is four. Each input argument takes between one register and
    /// `pack` registers (its dtype decides; it is not written in the call), so the input
    /// constraints must number at least the arguments and at most `pack` times as many.
    ///
    /// MLIR's `llvm.inline_asm` passes each operand of its `operands_` list in one register:
    /// its input constraints (tied ones included) must number exactly the operands.
    ///
    /// Calls whose `pack`, `dtype`, `args`/`operands_` or constraints are not literals (or
    /// names bound once to literals) are not judged.
    ///
    /// ## Why is this bad?
    /// Triton hands LLVM an asm whose result type and operand list do not match the
    /// constraints. Measured with Triton 3.6 on an H200: `dtype=tl.int8, pack=4` with
    /// `"=r,=r,=r,=r,r,r,r,r"` aborted the Python process in LLVM (`UNREACHABLE executed`,
    /// exit by SIGABRT) while compiling; `"=r,r"` computed the right values. For MLIR,
    /// LLVM's verifier rejects a call whose constraints do not match its operands (`invalid
    /// type for inline asm constraint string`, measured with llc 14 on the LLVM IR such a
    /// call becomes; the CuTe DSL itself is not measured). A lost comma (`"=r,r" "r"` is
    /// `=r,rr`) or an operand commented out of the list leaves such a call.
    ///
    /// ## Example
    /// ```python
    /// y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,=r,=r,=r,r,r,r,r", [x],
    ///                               dtype=tl.int8, is_pure=True, pack=4)
    /// ```
    /// Use instead:
    /// ```python
    /// y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x],
    ///                               dtype=tl.int8, is_pure=True, pack=4)
    /// ```
    pub(crate) static META = {
        name: "pack-mismatch",
        severity: Error,
        fix: None,
        default_enabled: true,
        summary: "Constraints that do not match the registers Triton's `dtype` and `pack` make, or MLIR's operands",
    }
}

use ptxguard_analyzer::python::triton::dtype_bits as triton_dtype_bits;

fn registers(bits: u32, pack: u32) -> u32 {
    ptxguard_analyzer::python::triton::registers(bits, pack).0
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        let Some(call) = stmt.python() else {
            continue;
        };
        if call.api == PythonApi::MlirInlineAsm {
            mlir_operands(stmt, call, out);
            continue;
        }
        if call.api != PythonApi::TritonElementwise {
            continue;
        }
        let Some((pack_span, Some(pack))) = call.pack else {
            continue;
        };
        if pack == 0 {
            continue;
        }
        if let Some(types) = &call.result_types {
            let bits: Option<Vec<u32>> = types.iter().map(|(t, _)| triton_dtype_bits(t)).collect();
            if let Some(bits) = bits {
                let expected: u32 = bits.iter().map(|&b| registers(b, pack)).sum();
                if stmt.outputs.len() as u32 != expected {
                    let mut d = diagnostic(
                        &META,
                        constraints_of(stmt, &stmt.outputs),
                        format!(
                            "{} output constraint(s), but `dtype` with `pack={pack}` makes {expected} output register(s)",
                            stmt.outputs.len()
                        ),
                    )
                    .with_label(pack_span, format!("`pack={pack}`"));
                    for ((t, s), b) in types.iter().zip(&bits) {
                        d = d.with_label(*s, format!("`{t}`: {} register(s)", registers(*b, pack)));
                    }
                    out.push(d.with_note("Triton packs elements narrower than 32 bits into 32-bit registers, `pack` at most per register"));
                }
            }
        }
        if let Some(args) = &call.args {
            let n = args.len() as u32;
            let got = stmt.inputs.len() as u32;
            if input_count_wrong(stmt.inputs.len(), args.len(), pack) {
                let range = if pack == 1 {
                    format!("{n}")
                } else {
                    format!("{n} to {}", n * pack)
                };
                let mut d = diagnostic(
                    &META,
                    constraints_of(stmt, &stmt.inputs),
                    format!("{got} input constraint(s) for {n} argument(s) at `pack={pack}`: Triton passes {range} input register(s)"),
                )
                .with_label(pack_span, format!("`pack={pack}`"));
                if let Some(all) = cover(args.iter().copied()) {
                    d = d.with_label(all, "the arguments");
                }
                out.push(d);
            }
        }
    }
}

/// MLIR's `llvm.inline_asm` passes each operand of `operands_` in one register: the input
/// constraints must number exactly the operands (a lost comma, `"=r,r" "r"`, joins two).
fn mlir_operands(stmt: &AsmStatement, call: &PythonCall, out: &mut Vec<Diagnostic>) {
    let Some(args) = &call.args else {
        return;
    };
    let (n, got) = (args.len(), stmt.inputs.len());
    if n == got {
        return;
    }
    let mut d = diagnostic(
        &META,
        constraints_of(stmt, &stmt.inputs),
        format!(
            "{got} input constraint(s) for {n} operand(s): LLVM takes one constraint per operand"
        ),
    );
    if let Some(all) = cover(args.iter().copied()) {
        d = d.with_label(all, "the operands");
    }
    out.push(d);
}

/// Where a finding about some constraints goes: theirs, else the whole constraint string's
/// operands, else the call.
fn constraints_of(stmt: &AsmStatement, operands: &[AsmOperand]) -> Span {
    cover(operands.iter().map(|o| o.constraint.span))
        .or_else(|| cover(stmt.operands().map(|o| o.constraint.span)))
        .unwrap_or(stmt.keyword)
}

fn cover(spans: impl Iterator<Item = Span>) -> Option<Span> {
    spans.reduce(|a, b| a.cover(b))
}
