use crate::util::{
    diagnostic, expand_alternatives, implements_cuda_intrinsics, implements_cuda_ptx, matched_form,
    substitute_alternatives, tsv_rows, FormPattern, InstrTokens, PatternIndex,
};
use crate::Ctx;
use ptxguard_analyzer::ptx::{Instruction, OperandKind};
use ptxguard_analyzer::Diagnostic;
use std::sync::OnceLock;

declare_rule! {
    /// ## What it does
    /// Points out an instruction (or a special-register read) that CUDA offers as an
    /// intrinsic: `ld.global.nc` is `__ldg`, `redux.sync.add.u32` is `__reduce_add_sync`,
    /// `prmt.b32` is `__byte_perm`, `mov.u64 %0, %%clock64` is `clock64()`,
    /// `mov.u32 %0, %%tid.x` is `threadIdx.x`, `fma.rn.f32` is `__fmaf_rn`...
    ///
    /// Only exact forms are matched, token by token (`shf.l.wrap.b32` is `__funnelshift_l`;
    /// `shf.l.clamp.b32` is `__funnelshift_lc`; `ld.global.nc.L1::no_allocate` has no
    /// intrinsic), and a `shfl.sync` that also writes its predicate (`%0|p`) is left alone
    /// since the intrinsic drops it. Forms only `cuda::ptx` wraps (`%laneid`, `%smid`...)
    /// are `prefer-cuda-ptx`'s. CUDA's own headers that implement the intrinsics are skipped.
    ///
    /// The table is `rules/data/cuda-intrinsics.tsv` (sources: the CUDA Programming Guide,
    /// the CUDA Math API, clang's CUDA headers).
    ///
    /// This rule is off by default.
    ///
    /// **In Python** it is not applied to Triton and MLIR calls (the intrinsics are C++); C++
    /// held in a Python string is checked as C++.
    ///
    /// ## Why is this bad?
    /// The compiler knows what an intrinsic does: it can schedule it, merge it, keep it out
    /// of the way of the register allocator, and it never gets a constraint, a `volatile` or
    /// a `"memory"` clobber wrong. Inline asm is opaque to the optimizer, and every rule of
    /// this tool exists because it is easy to get those details wrong.
    ///
    /// ## Example
    /// ```cuda
    /// float v;
    /// asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    /// long long t;
    /// asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    /// ```
    /// Use instead:
    /// ```cuda
    /// float v = __ldg(p);
    /// long long t = clock64();
    /// ```
    pub static META = {
        name: "prefer-intrinsic",
        severity: Info,
        fix: None,
        default_enabled: false,
        summary: "an instruction or special-register read that has a CUDA intrinsic",
    }
}

/// One row of the intrinsics table, expanded (no `{a,b}` left).
#[derive(Debug)]
pub struct IntrinsicRow {
    pub ptx: String,
    pub pattern: FormPattern,
    pub intrinsic: String,
    pub header: String,
    pub notes: String,
}

const TABLE: &str = include_str!("../data/cuda-intrinsics.tsv");

/// The rows of `cuda-intrinsics.tsv` that name a CUDA intrinsic (rows that name a
/// `cuda::ptx` wrapper are `prefer-cuda-ptx`'s).
pub fn rows() -> &'static [IntrinsicRow] {
    static ROWS: OnceLock<Vec<IntrinsicRow>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut out = Vec::new();
        for cols in tsv_rows(TABLE, 4) {
            let (ptx, intrinsic, header) = (cols[0], cols[1], cols[2]);
            if intrinsic.starts_with("cuda::ptx::") {
                continue;
            }
            let notes = cols.get(4).copied().unwrap_or("");
            for (form, chosen) in expand_alternatives(ptx) {
                out.push(IntrinsicRow {
                    pattern: FormPattern::parse(&form),
                    intrinsic: substitute_alternatives(intrinsic, &chosen),
                    ptx: form,
                    header: header.to_string(),
                    notes: notes.to_string(),
                });
            }
        }
        out
    })
}

/// The intrinsic that does exactly what this instruction does, if there is one.
pub fn intrinsic_for(instr: &Instruction) -> Option<&'static IntrinsicRow> {
    if instr.partial || instr.guard.is_some() {
        return None;
    }
    // An intrinsic returns one value: forms that also write a predicate (`d|p`) differ.
    if instr
        .operands
        .iter()
        .any(|o| matches!(o.kind, OperandKind::Pair(..) | OperandKind::Unknown))
    {
        return None;
    }
    static INDEX: std::sync::OnceLock<PatternIndex> = std::sync::OnceLock::new();
    let rows = rows();
    let index = INDEX.get_or_init(|| PatternIndex::new(rows.iter().map(|r| &r.pattern)));
    let tokens = InstrTokens::of(instr);
    index
        .candidates(&tokens)
        .iter()
        .map(|&i| &rows[i])
        .find(|r| r.pattern.matches_tokens(&tokens, instr))
}

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    if implements_cuda_intrinsics(cx) || implements_cuda_ptx(cx) {
        return;
    }
    for stmt in cx.ptx_statements() {
        for (_, instr) in stmt.ptx.instructions() {
            let Some(row) = intrinsic_for(instr) else {
                continue;
            };
            let (span, what) = matched_form(stmt, instr, &row.pattern);
            let header = if row.header.starts_with("builtin") {
                format!("a {}", row.header.split(" (").next().unwrap_or("builtin"))
            } else {
                format!("from {}", row.header)
            };
            let mut d = diagnostic(
                &META,
                span,
                format!(
                    "{what} is what the CUDA intrinsic `{}` does ({header}): the compiler can optimize it, inline asm it cannot",
                    row.intrinsic
                ),
            );
            let note = row
                .notes
                .split(" [")
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            if !note.is_empty() {
                d = d.with_note(format!("`{}`: {note}", row.ptx));
            }
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_expands_alternatives_positionally() {
        let find = |ptx: &str| {
            rows()
                .iter()
                .find(|r| r.ptx == ptx)
                .map(|r| r.intrinsic.clone())
        };
        assert_eq!(find("fma.rz.f32").as_deref(), Some("__fmaf_rz"));
        assert_eq!(find("mov.u32 %0, %%tid.y").as_deref(), Some("threadIdx.y"));
        assert_eq!(
            find("redux.sync.min.s32").as_deref(),
            Some("__reduce_min_sync")
        );
        assert!(find("mov.u32 %0, %%laneid").is_none());
        assert!(rows().len() > 100);
    }
}
