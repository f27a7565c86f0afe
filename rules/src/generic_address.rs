use crate::support::front_end::ForStatement;
use crate::support::{
    diagnostics::{diagnostic, template_span},
    operands::address_uses,
};
use crate::Ctx;
use ptxguard_analyzer::cpp::types::{pointer_expression, PointerExpr};
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::isa::StateSpace;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a generic C++ pointer passed to an instruction that names a state space, and a
    /// state-space address passed to one that takes a generic address. All **info**: the ISA
    /// asks for the conversion, but no wrong result was measured (a generic pointer given to
    /// `ld.shared` ran right on sm_90; real-project warnings were judged noise, 12 of 12,
    /// `docs/precision.md`):
    /// - `.shared` / `.shared::cta` / `.shared::cluster` instructions given a
    ///   64-bit generic pointer (`"l"(p)`, `"l"(&smem[i])`, `"l"((uint64_t)p)`);
    /// - `.global` instructions (`ld.global`, `st.global`, `atom.global`, the
    ///   global side of `cp.async`...) given a plain pointer;
    /// - an instruction without a state space (generic addressing: `st.bulk.weak
    ///   [%0]`, `ld.u32`, `cp.async.mbarrier.arrive.b64`) given a `.shared` window address
    ///   (`"r"((uint32_t)__cvta_generic_to_shared(p))`, `cute::cast_smem_ptr_to_uint(p)`, or a
    ///   variable initialised from one). Where ptxas rejects the 32-bit register,
    ///   `address-register-width` reports it instead; `ldmatrix`/`stmatrix` without a state
    ///   space are left alone (measured: ptxas takes their 32-bit address as shared).
    ///
    /// Converted addresses are right: `"l"(__cvta_generic_to_global(p))`,
    /// `"r"((uint32_t)__cvta_generic_to_shared(p))`, `"l"(__cvta_generic_to_shared(p))`.
    /// Instructions without a state space (`ld.u32`, `atom.add.u32`) take generic pointers,
    /// and so does `isspacep`, which exists to test one. Files that keep shared-window
    /// addresses in pointer variables (NCCL converts with `cvta.to.shared.u64` into a
    /// `uint64_t*`) get the `.shared` warning only for visibly generic pointers (`&smem[i]`).
    ///
    /// ## Why is this bad?
    /// A state-space instruction takes an address in that space's window. A generic pointer
    /// to shared memory is not a shared address: measured with nvcc 13.0, `ld.shared` given
    /// one "ran right on sm_90", by accident of the current address map, not by what the
    /// instruction specifies. Global addresses coincide with generic ones on current GPUs
    /// (a generic pointer given to `ld.global` ran right), but the ISA asks for
    /// `cvta.to.global`, which is what `__cvta_generic_to_global` compiles to. The other way
    /// round is never right: with no state space the ISA takes a generic address, and a
    /// shared-window offset (a few KiB) is not the generic address of that memory; ptxas 13.0
    /// accepts `st.bulk.weak [%r1]` with a 32-bit register (measured, sm_100a), so nothing
    /// else reports it.
    ///
    /// ## Example
    /// ```cuda
    /// __shared__ float s[128];
    /// asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "l"(&s[i]));
    /// asm volatile("ld.global.f32 %0, [%1];" : "=f"(w) : "l"(p));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "l"(__cvta_generic_to_shared(&s[i])));
    /// asm volatile("ld.global.f32 %0, [%1];" : "=f"(w) : "l"(__cvta_generic_to_global(p)));
    /// ```
    ///
    /// ## Fix
    /// Safe: wraps the pointer in the conversion (`__cvta_generic_to_shared` or
    /// `__cvta_generic_to_global`), keeping `"l"`: the result is a 64-bit address of the
    /// instruction's window, which is valid for shared memory too. (A 32-bit
    /// `"r"((uint32_t)__cvta_generic_to_shared(p))` saves a register but changes the
    /// constraint; do it by hand if you want it.)
    ///
    /// ## In Python
    /// Silent on Triton, MLIR and `inline_ptx` calls: a generic pointer is known by its C++
    /// (a pointer type, `&smem[i]`, a `__cvta_generic_to_*` call), and their operands (a
    /// Triton tensor, `Int64(a).ir_value()`) do not show what they hold. C++ in Python
    /// strings: as in C++ files (the `__cvta_generic_to_*` fix included), spans inside the
    /// Python literal.
    pub(crate) static META = {
        name: "generic-address",
        severity: Info,
        fix: Safe,
        default_enabled: true,
        summary: "a generic pointer given to a state-space instruction (`.shared`, `.global`)",
    }
}

/// Whether the file keeps shared-window addresses in pointer variables (NCCL's
/// `cvta.to.shared.u64 %0, %1` into a `uint64_t*`, `(T*)__cvta_generic_to_shared(p)`): there
/// a pointer given to a `.shared` instruction may well be a shared address already.
fn pointers_hold_shared_addresses(cx: &Ctx) -> bool {
    let text = cx.source();
    let cast_to_pointer = text
        .match_indices("__cvta_generic_to_shared")
        .any(|(at, _)| {
            let before = text[..at].trim_end();
            let before = before.strip_suffix('(').unwrap_or(before).trim_end();
            before.ends_with("*)") || before.ends_with("*>")
        });
    cast_to_pointer
        || cx.ptx_statements().any(|stmt| {
            stmt.ptx.instructions().any(|(_, instr)| {
                instr.base() == "cvta"
                    && instr.has(".to")
                    && instr.has(".shared")
                    && instr.operands.first().is_some_and(|o| {
                        o.placeholder()
                            .and_then(|p| stmt.resolve(p))
                            .and_then(|op| op.ty.ty.as_ref())
                            .is_some_and(|t| t.is_pointer())
                    })
            })
        })
}

/// Functions that turn a generic pointer into a `.shared` window address.
const TO_SHARED: &[&str] = &[
    "__cvta_generic_to_shared",
    "__nvvm_get_smem_pointer",
    "cast_smem_ptr_to_uint",
];

/// How the operand's expression shows a `.shared` window address: it calls a conversion
/// itself, or is a variable initialised from one earlier in the function.
fn shared_window_address(cx: &Ctx, stmt: &AsmStatement, op: &AsmOperand) -> Option<&'static str> {
    let converts = |text: &str| TO_SHARED.iter().find(|f| text.contains(&format!("{f}(")));
    if let Some(f) = converts(&op.expr) {
        return Some(f);
    }
    let name = op.expr.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let body = stmt.context.function.as_ref()?.body;
    let before = cx
        .source()
        .get(body.start as usize..stmt.span.start as usize)?;
    // The last `name = ...;` before the asm.
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let (at, _) = before.rmatch_indices(name).find(|(at, _)| {
        let rest = before[at + name.len()..].trim_start();
        !before[..*at].ends_with(ident) && rest.starts_with('=') && !rest.starts_with("==")
    })?;
    let init = &before[at..];
    let init = &init[..init.find(';').unwrap_or(init.len())];
    converts(init).copied()
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let source = cx.source();
    let mut shared_pointers: Option<bool> = None;
    for stmt in cx.ptx_statements() {
        let mut seen: Vec<usize> = Vec::new();
        let width_findings = crate::support::address_width::too_narrow_addresses(stmt);
        for u in address_uses(stmt) {
            if u.cvta_source || seen.contains(&u.asm.index) {
                continue;
            }
            if u.space == StateSpace::Generic {
                // address-register-width reports a 32-bit register ptxas rejects here.
                let reported = width_findings.iter().any(|v| v[0].asm.index == u.asm.index);
                let shared_by_ptxas = matches!(u.instr.base(), "ldmatrix" | "stmatrix");
                if reported || shared_by_ptxas || !u.asm.constraint.known {
                    continue;
                }
                if let Some(f) = shared_window_address(cx, stmt, u.asm) {
                    seen.push(u.asm.index);
                    out.push(
                        diagnostic(
                            &META,
                            u.asm.expr_span,
                            format!(
                                "`{}` has no state space, so its address is generic, but `{}` is a `.shared` window address (from `{f}`)",
                                u.instr.opcode, u.asm.expr
                            ),
                        )
                        .with_label(template_span(stmt, u.operand.span.clone()), "a generic address")
                        .with_note("the ISA: with no state space the address is generic, and a shared-window offset is not a generic address of that memory (ptxas accepts the 32-bit register for `st.bulk`, measured with ptxas 13.0, so nothing reports it)")
                        .with_help("name the state space in the instruction (`st.bulk.weak.shared::cta`), or pass the generic pointer (`\"l\"(p)`)"),
                    );
                }
                continue;
            }
            let op = u.asm;
            if op.constraint.letter() != Some('l') || !op.constraint.known {
                continue;
            }
            let (shared, convert) = match u.space {
                StateSpace::Shared | StateSpace::SharedCluster => {
                    (true, "__cvta_generic_to_shared")
                }
                StateSpace::Global => (false, "__cvta_generic_to_global"),
                _ => continue,
            };
            let Some(pointer) =
                pointer_expression(&op.ty, &op.expr, stmt.function_text_before(cx.source()))
            else {
                continue;
            };
            if shared
                && !op.expr.trim_start().starts_with('&')
                && *shared_pointers.get_or_insert_with(|| pointers_hold_shared_addresses(cx))
            {
                continue;
            }
            seen.push(op.index);
            let space = u.space.name();
            let (severity, message) = if shared {
                (
                    Severity::Info,
                    format!(
                        "`{}` takes a `{space}` address, but `{}` is a generic pointer: it works only by accident of the address map",
                        u.instr.opcode, op.expr
                    ),
                )
            } else {
                (
                    Severity::Info,
                    format!(
                        "`{}` takes a `.global` address, but `{}` is a generic pointer: convert it with `{convert}`",
                        u.instr.opcode, op.expr
                    ),
                )
            };
            let mut d = diagnostic(&META, op.expr_span, message)
                .with_label(
                    template_span(stmt, u.operand.span.clone()),
                    format!("a `{space}` address"),
                )
                .note_for(stmt, if shared {
                    "measured with nvcc 13.0: ld.shared given a generic pointer ran right on sm_90, but it is not what the instruction specifies"
                } else {
                    "global and generic addresses coincide on current GPUs, but the ISA asks for `cvta.to.global`, which the conversion compiles to"
                });
            d.severity = severity;
            let (inner, whole) = match &pointer {
                PointerExpr::Plain => (op.expr.trim().to_string(), op.expr_span),
                PointerExpr::CastOf(span) => (
                    source.get(span.range()).unwrap_or("").to_string(),
                    op.expr_span,
                ),
            };
            let volatile = inner.contains("volatile")
                || op
                    .ty
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.spelling.contains("volatile"));
            if !inner.is_empty() && !volatile && source.get(whole.range()).is_some() {
                d = d.cpp_fix_for(
                    stmt,
                    Fix::safe(
                        format!("wrap in `{convert}(...)`"),
                        vec![Edit::replace(whole, format!("{convert}({inner})"))],
                    ),
                );
            }
            out.push(d);
        }
    }
}
