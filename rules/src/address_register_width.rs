use crate::support::{
    address_width::{
        override_in, overrides, too_narrow_addresses, truncated_generic_in_window, truncating_cast,
    },
    diagnostics::{diagnostic, template_span},
    fixes::replace_constraint_letter,
    front_end::ForStatement,
    operands::AddressUse,
};
use crate::Ctx;
use ptxguard_analyzer::cpp::types::strip_cast;
use ptxguard_analyzer::isa::StateSpace;
use ptxguard_analyzer::Severity;
use ptxguard_analyzer::{Diagnostic, Edit, Fix};
use std::sync::OnceLock;

declare_rule! {
    /// ## What it does
    /// Flags a 32-bit (`"r"`) or 16-bit (`"h"`) operand used as an address that ptxas needs
    /// in a 64-bit register: a generic address (an instruction without a state space) or a
    /// `.global` one. That covers `ld`, `st`, `atom`, `red`, `prefetch`, `ld.global.nc`, the
    /// global side of `cp.async` and `cp.async.bulk`, generic `mbarrier` operations, the
    /// tensor map of `cp.async.bulk.tensor`, and the source of every `cvta`.
    ///
    /// 32-bit addresses are right for `.shared`, `.shared::cta`, `.shared::cluster`,
    /// `.local`, `.const`, `.param` and tensor memory, and for instructions ptxas treats as
    /// shared memory whatever they say (`ldmatrix`/`stmatrix` without a state space,
    /// `cp.async.mbarrier.arrive.b64`). A 64-bit shared address
    /// (`"l"(__cvta_generic_to_shared(p))`) is right too. The measured per-form exceptions
    /// live in `rules/data/address-width.tsv`, which the GPU harness regenerates.
    ///
    /// A 32-bit `.local`, `.const` or `.param` address is reported only when it is visibly a
    /// generic pointer cut to 32 bits (`"r"((unsigned)(size_t)&coeffs[i])`): the low bits of
    /// a generic address are not an address of that window; `__cvta_generic_to_constant`
    /// (or `_local`) makes one.
    ///
    /// The finding names the truncating cast that made the 32-bit value when there is one:
    /// `(unsigned)(size_t)p`, `(uint32_t)__cvta_generic_to_global(p)`,
    /// `static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p))`. An operand whose C++ type is
    /// 64-bit with `"r"` is `operand-size-mismatch`'s finding and is not repeated here.
    ///
    /// The severity follows what was measured for the form (`gpu-tests probe`, ptxas 13.0,
    /// `rules/data/address-width-probe.tsv`): **error** where ptxas rejects a 32-bit register
    /// as this address; where it accepts one (`clusterlaunchcontrol.try_cancel` and `wmma`
    /// without a state space) or the form was not probed, **warning** when a truncating cast
    /// of a 64-bit value feeds the operand (a truncated address faults: measured with
    /// cp.async's global source), else **info**.
    ///
    /// ## Why is this bad?
    /// nvcc 13 only has the 64-bit ABI. Measured with nvcc 13.0: ptxas warns `Program uses
    /// 32-bit address on line N which is conflicting with .address_size 64`, then fails
    /// with `32-Bit ABI ... is not supported on sm_90 or higher` (`32-Bit compilation is no
    /// longer supported` for sm_80); the same for generic `mbarrier.init`/`arrive`/`try_wait`,
    /// `prefetch.global`, `atom` and `cvta.to.shared.u32`. Older toolchains truncated the
    /// address and the kernel faulted, or silently touched the wrong memory. (`.local`,
    /// `.const` and `.param` addresses in 32-bit registers were accepted.)
    ///
    /// ## Example
    /// ```cuda
    /// asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)(size_t)p));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_global(p)));
    /// // shared memory: 32-bit is right
    /// uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    /// asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(s));
    /// ```
    ///
    /// ## Fix
    /// Unsafe, offered when a truncating cast of a 64-bit value feeds the operand: `"l"`, and
    /// the cast dropped; a generic pointer used as a `.global` address is converted with
    /// `__cvta_generic_to_global` (`"r"((unsigned)(size_t)p)` becomes
    /// `"l"(__cvta_generic_to_global(p))`). Without such a cast the 64-bit address has to
    /// come from elsewhere, which only the author knows.
    ///
    /// ## In Python
    /// Applies to Triton and MLIR calls, without nvcc in the message and without a fix. A
    /// Triton pointer argument has no dtype in the call, so `"=r,r"` on `ld.global.b32 $0,
    /// [$1];` is this rule's finding (measured with Triton 3.6 on an H200: ptxas stops with
    /// `32-Bit ABI ... is not supported on sm_90 or higher`, `"=r,l"` runs right); an MLIR
    /// operand typed 64-bit (`Int64(a).ir_value()`) in `r` is `operand-size-mismatch`'s.
    /// `inline_ptx`'s read-only arguments have no constraint letter: not judged. C++ in
    /// Python strings: as in C++ files (fix included), spans inside the Python literal.
    pub(crate) static META = {
        name: "address-register-width",
        severity: Error,
        fix: Unsafe,
        default_enabled: true,
        summary: "a 32- or 16-bit register as a generic or `.global` address",
    }
}

/// One row of the GPU harness's address-width probe (`rules/data/address-width-probe.tsv`):
/// what ptxas 13.0 did with a 32-bit register as this address.
#[derive(Debug)]
pub(crate) struct ProbeRow {
    pub(crate) family: String,
    pub(crate) operand: String,
    pub(crate) space: String,
    pub(crate) opcode: String,
    /// `ok`, `warning` or `error`.
    pub(crate) addr32: String,
    pub(crate) message: String,
}

const PROBE: &str = include_str!("../data/address-width-probe.tsv");

/// The probe table. It tells whether ptxas accepts a 32-bit register; accepting is not
/// being right (cp.async's global source is accepted and faults), so it explains findings
/// and the curated `rules/data/address-width.tsv` decides.
pub(crate) fn probe() -> &'static [ProbeRow] {
    static ROWS: OnceLock<Vec<ProbeRow>> = OnceLock::new();
    ROWS.get_or_init(|| {
        PROBE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("family\t"))
            .filter_map(|l| {
                let c: Vec<&str> = l.split('\t').collect();
                (c.len() >= 7 && !(c[5] == "error" && c[6] == "error")).then(|| ProbeRow {
                    family: c[0].to_string(),
                    operand: c[1].to_string(),
                    space: c[2].to_string(),
                    opcode: c[3].to_string(),
                    addr32: c[5].to_string(),
                    message: c.get(8).copied().unwrap_or("").to_string(),
                })
            })
            .collect()
    })
}

/// The probe's verdict for a use: the row of the same family, operand and space.
pub(crate) fn probe_verdict(u: &AddressUse) -> Option<&'static ProbeRow> {
    let form = u.instr.known_form()?;
    let space = u.space.key();
    probe()
        .iter()
        .find(|r| r.family == form.family.name && r.operand == u.slot_name && r.space == space)
}

/// The 64-bit expression to pass instead of a truncated one: the cast's operand, converted
/// with `__cvta_generic_to_global` when it is a generic pointer used as a `.global` address
/// (`(unsigned)(size_t)p` -> `__cvta_generic_to_global(p)`).
fn widened_expression(
    u: &AddressUse,
    cast: &ptxguard_analyzer::cpp::types::Cast,
    inner: &str,
) -> String {
    let inner = inner.trim();
    if u.space != StateSpace::Global || inner.contains("__cvta_generic_to_") {
        return inner.to_string();
    }
    let from_pointer = cast.from.as_ref().is_some_and(|f| f.is_pointer());
    if from_pointer {
        return format!("__cvta_generic_to_global({inner})");
    }
    match strip_cast(inner) {
        Some(ptr) if u.asm.ty.from_address => {
            let ptr = ptr
                .strip_prefix('(')
                .and_then(|p| p.strip_suffix(')'))
                .filter(|p| !p.contains(['(', ')']))
                .unwrap_or(ptr);
            format!("__cvta_generic_to_global({ptr})")
        }
        _ => inner.to_string(),
    }
}

fn space_words(u: &AddressUse) -> String {
    match u.space {
        StateSpace::Generic => "a generic address".to_string(),
        s => format!("a `{}` address", s.name()),
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let source = cx.source();
    for stmt in cx.ptx_statements() {
        for uses in too_narrow_addresses(stmt) {
            let first = &uses[0];
            let op = first.asm;
            let letter = op.constraint.letter().unwrap_or('r');
            let bits = if letter == 'h' { 16 } else { 32 };
            let what = if first.cvta_source {
                format!(
                    "the source of `{}` (cvta converts 64-bit addresses)",
                    first.instr.opcode
                )
            } else {
                format!("the address of `{}`", first.instr.opcode)
            };
            if truncated_generic_in_window(first) {
                let convert = match first.space {
                    StateSpace::Const => "__cvta_generic_to_constant",
                    StateSpace::Local => "__cvta_generic_to_local",
                    _ => "the matching `__cvta_generic_to_*`",
                };
                out.push(
                    diagnostic(
                        &META,
                        op.constraint.span,
                        format!(
                            "{what} must be {}, but `{}` is a generic pointer cut to {bits} bits: its low bits are not {}",
                            space_words(first),
                            op.expr.trim(),
                            space_words(first)
                        ),
                    )
                    .with_label(
                        template_span(stmt, first.operand.span.clone()),
                        space_words(first),
                    )
                    .note_for(stmt, "measured with nvcc 13.0: ptxas accepts a 32-bit `.const` address, but `(unsigned)(size_t)&coeffs[i]` read 0.0 instead of the constant")
                    .with_help(format!("convert the pointer with `{convert}(p)` (a 32-bit `\"r\"` of it is fine)")),
                );
                continue;
            }
            // Triton and MLIR hand the asm to LLVM, not nvcc: no nvcc ABI to speak of there.
            let python_call = stmt.python().is_some();
            let why = if python_call {
                ", which is 64 bits"
            } else {
                ": 64 bits in the only ABI nvcc 13 has"
            };
            let mut d = diagnostic(
                &META,
                op.constraint.span,
                format!(
                    "`{letter}` is a {bits}-bit register, but it is {what}, {}{why}",
                    space_words(first)
                ),
            );
            for u in &uses {
                let label = if u.cvta_source {
                    format!("{} (64-bit)", space_words(u))
                } else {
                    format!("{} (64-bit) of `{}`", space_words(u), u.instr.opcode)
                };
                d = d.with_label(template_span(stmt, u.operand.span.clone()), label);
            }
            let cast = truncating_cast(op);
            if let Some(cast) = cast {
                let from = cast
                    .from
                    .as_ref()
                    .map_or("the 64-bit address".to_string(), |f| {
                        format!("the 64-bit `{}`", f.spelling)
                    });
                d = d.with_label(
                    op.expr_span,
                    format!("the cast to `{}` truncates {from}", cast.to.spelling),
                );
            }
            // Loud only with evidence: an error where ptxas was measured rejecting this
            // form's 32-bit address; where it accepts it (or was not probed), a warning when a
            // 64-bit value is visibly truncated (measured to fault with cp.async's global
            // source), else info.
            let overridden = override_in(overrides(), first);
            let verdict = probe_verdict(first);
            let rejected = overridden.is_some_and(|o| !o.accepts_32bit)
                || verdict.is_some_and(|p| p.addr32 == "error");
            d.severity = if rejected {
                Severity::Error
            } else if cast.is_some() {
                Severity::Warning
            } else {
                Severity::Info
            };
            d = d.note_for(stmt, match (overridden, verdict) {
                (Some(o), _) if !o.source.is_empty() => o.source.clone(),
                (_, Some(p)) if p.addr32 == "ok" => format!(
                    "ptxas accepts a 32-bit register here (measured on `{}`), but it cannot hold a 64-bit address: the truncated address faults (measured with cp.async's global source)",
                    p.opcode
                ),
                (_, Some(p)) => format!(
                    "ptxas rejects it (measured with ptxas 13.0.88 on `{}`: {})",
                    p.opcode,
                    p.message.split(" (after warning").next().unwrap_or("")
                ),
                _ => "this form was not probed (`gpu-tests probe`): ptxas 13.0 rejects 32-bit generic and `.global` addresses of most forms probed, and accepts them for some".to_string(),
            });
            match cast.filter(|_| !first.cvta_source) {
                Some(cast) => {
                    let inner = source.get(cast.inner.range()).unwrap_or("");
                    let replacement = widened_expression(first, cast, inner);
                    if let Some(letter_edit) = replace_constraint_letter(source, op, 'l') {
                        if !replacement.is_empty() {
                            d = d.cpp_fix_for(
                                stmt,
                                Fix::unsafe_(
                                    format!(
                                        "pass the 64-bit value with `l`: `\"l\"({replacement})`"
                                    ),
                                    vec![letter_edit, Edit::replace(op.expr_span, replacement)],
                                ),
                            );
                        }
                    }
                }
                None if python_call => {
                    d = d.with_help("pass the 64-bit pointer or address with `l`");
                }
                None => {
                    d = d.with_help(
                        "pass the 64-bit pointer (or `__cvta_generic_to_global(p)`) with `\"l\"`",
                    );
                }
            }
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_table_parses() {
        assert!(probe().len() > 100);
        assert!(probe()
            .iter()
            .any(|r| r.opcode == "ld.global.u32" && r.addr32 == "error"));
    }

    /// The ISA's `allows_32bit_address` agrees with the measurement: no space it says takes 32
    /// bits had a 32-bit address rejected by ptxas, and each space it says needs 64 had one
    /// rejected (texture and surface handles were not probed).
    #[test]
    fn isa_address_widths_match_the_probe() {
        let spaces = [
            StateSpace::Generic,
            StateSpace::Global,
            StateSpace::Shared,
            StateSpace::SharedCluster,
            StateSpace::Const,
            StateSpace::Local,
            StateSpace::Param,
            StateSpace::Tmem,
        ];
        for space in spaces {
            let rows: Vec<&ProbeRow> = probe().iter().filter(|r| r.space == space.key()).collect();
            assert!(!rows.is_empty(), "{space:?} was probed");
            let rejected = rows.iter().any(|r| r.addr32 == "error");
            assert_eq!(Some(!rejected), space.allows_32bit_address(), "{space:?}");
        }
    }

    /// On a Triton call the finding speaks of the 64-bit address, not of nvcc's ABI or C++'s
    /// `__cvta_generic_to_global`.
    #[test]
    fn python_calls_are_told_in_their_own_terms() {
        let text = "import triton.language as tl\n\
                    y = tl.inline_asm_elementwise(\"ld.global.b32 $0, [$1];\", \"=r,r\", [p], dtype=tl.int32, is_pure=False, pack=1)\n";
        let file = ptxguard_analyzer::SourceFile::new("t.py", text.to_string());
        let found: Vec<_> = crate::check(&file, &Default::default(), &Default::default())
            .into_iter()
            .filter(|d| d.rule == META.name)
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        let d = &found[0];
        assert_eq!(&text[d.span.range()], "r");
        assert!(
            d.message.ends_with("a `.global` address, which is 64 bits"),
            "{}",
            d.message
        );
        assert_eq!(
            d.help.as_deref(),
            Some("pass the 64-bit pointer or address with `l`")
        );
    }
}
