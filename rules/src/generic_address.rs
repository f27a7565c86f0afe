use crate::util::{address_uses, diagnostic, pointer_expression, template_span, PointerExpr};
use crate::Ctx;
use ptxguard_analyzer::isa::StateSpace;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity};

declare_rule! {
    /// ## What it does
    /// Flags a generic C++ pointer passed to an instruction that names a state space:
    /// - **warning** for `.shared` / `.shared::cta` / `.shared::cluster` instructions given a
    ///   64-bit generic pointer (`"l"(p)`, `"l"(&smem[i])`, `"l"((uint64_t)p)`);
    /// - **info** for `.global` instructions (`ld.global`, `st.global`, `atom.global`, the
    ///   global side of `cp.async`...) given a plain pointer.
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
    /// `cvta.to.global`, which is what `__cvta_generic_to_global` compiles to.
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
    pub static META = {
        name: "generic-address",
        severity: Warning,
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

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let source = cx.source();
    let mut shared_pointers: Option<bool> = None;
    for stmt in cx.ptx_statements() {
        let mut seen: Vec<usize> = Vec::new();
        for u in address_uses(stmt) {
            if u.cvta_source || seen.contains(&u.asm.index) {
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
            let Some(pointer) = pointer_expression(cx, stmt, op) else {
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
                    Severity::Warning,
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
                .with_note(if shared {
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
                d = d.with_fix(Fix::safe(
                    format!("wrap in `{convert}(...)`"),
                    vec![Edit::replace(whole, format!("{convert}({inner})"))],
                ));
            }
            out.push(d);
        }
    }
}
