use crate::util::{
    diagnostic, expand_alternatives, implements_cuda_ptx, matched_form, parse_version, tsv_rows,
    FormPattern, InstrTokens, PatternIndex,
};
use crate::Ctx;
use ptxguard_analyzer::ptx::{Instruction, OperandKind};
use ptxguard_analyzer::Diagnostic;
use std::sync::OnceLock;

declare_rule! {
    /// ## What it does
    /// Points out an instruction form that libcu++'s `cuda::ptx` namespace (`<cuda/ptx>`)
    /// wraps in the configured CCCL version (`--cccl-version`, default 3.0, the one CUDA
    /// 13.0 ships): `fence.proxy.async` is `cuda::ptx::fence_proxy_async()`,
    /// `mbarrier.init.shared.b64` is `cuda::ptx::mbarrier_init`, `mov.u32 %0, %%laneid` is
    /// `cuda::ptx::get_sreg_laneid()`, `ld.global.L1::no_allocate` is
    /// `cuda::ptx::ld_L1_no_allocate`...
    ///
    /// Forms are matched token by token, modifiers and (where the table names them) types
    /// included: `ld.global.u32` is wrapped, `ld.global.v2.u32`, `ld.global.relaxed.gpu` and
    /// `barrier.cluster.arrive.aligned` are not. A wrapper that arrived after the configured
    /// CCCL version is not suggested. Forms that also have a plain CUDA intrinsic
    /// (`shfl.sync.bfly.b32` is `__shfl_xor_sync`, `prmt.b32` is `__byte_perm`, `%clock` is
    /// `clock()`) are left to `prefer-intrinsic`, which needs no header. Nothing is reported
    /// inside the code that implements `cuda::ptx` itself (`namespace cuda::ptx`, files under
    /// `cuda/__ptx`).
    ///
    /// The table is `rules/data/cuda-ptx-wrappers.tsv`, from the CCCL documentation and
    /// headers, with the CCCL release each wrapper first shipped in.
    ///
    /// This rule is off by default.
    ///
    /// **In Python** it is not applied to Triton and MLIR calls (the wrappers are C++); C++
    /// held in a Python string (cupy, `load_inline`) is checked as C++.
    ///
    /// ## Why is this bad?
    /// The `cuda::ptx` wrappers are written and tested by NVIDIA for each form: the right
    /// constraints, address conversions, `"memory"` clobbers, and a link error instead of a
    /// ptxas failure when the target is too old. Hand-written asm for the same form repeats
    /// that work and the mistakes the other rules of this tool look for.
    ///
    /// ## Example
    /// ```cuda
    /// asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    /// ```
    /// Use instead:
    /// ```cuda
    /// #include <cuda/ptx>
    /// cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    /// ```
    pub static META = {
        name: "prefer-cuda-ptx",
        severity: Info,
        fix: None,
        default_enabled: false,
        summary: "an instruction form that `cuda::ptx` wraps",
    }
}

/// The CCCL version CUDA 13.0 ships.
pub const DEFAULT_CCCL: &str = "3.0.0";

/// One row of the wrapper table, expanded (no `{a,b}` left).
#[derive(Debug)]
pub struct WrapperRow {
    pub ptx: String,
    pub pattern: FormPattern,
    pub wrapper: String,
    pub header: String,
    pub since_cccl: (u32, u32, u32),
    pub since_cccl_text: String,
    pub since_ctk: String,
}

const TABLE: &str = include_str!("../data/cuda-ptx-wrappers.tsv");

pub fn rows() -> &'static [WrapperRow] {
    static ROWS: OnceLock<Vec<WrapperRow>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut out = Vec::new();
        for cols in tsv_rows(TABLE, 5) {
            let Some(since) = parse_version(cols[3]) else {
                continue;
            };
            for (form, _) in expand_alternatives(cols[0]) {
                out.push(WrapperRow {
                    pattern: FormPattern::parse(&form),
                    ptx: form,
                    wrapper: cols[1].to_string(),
                    header: cols[2].to_string(),
                    since_cccl: since,
                    since_cccl_text: cols[3].to_string(),
                    since_ctk: cols[4].to_string(),
                });
            }
        }
        out
    })
}

/// The wrapper of this exact form available in `cccl`, if any.
pub fn wrapper_for(instr: &Instruction, cccl: (u32, u32, u32)) -> Option<&'static WrapperRow> {
    if instr.partial || instr.guard.is_some() {
        return None;
    }
    // `d|p` forms are covered too (`elect.sync _|p` is `elect_sync()`, the `shfl_sync_*`
    // wrappers return the predicate).
    if instr
        .operands
        .iter()
        .any(|o| matches!(o.kind, OperandKind::Unknown))
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
        .find(|r| {
            r.since_cccl <= cccl
                && r.pattern.matches_tokens(&tokens, instr)
                && element_size_covered(r, instr)
        })
}

/// The `ld`/`st` `.v4` wrappers are the 256-bit forms (`.v4.b64`, sm_100) only.
fn element_size_covered(row: &WrapperRow, instr: &Instruction) -> bool {
    let p = &row.pattern;
    let ldst = p.words.iter().any(|w| w == "ld" || w == "st");
    if !(ldst && p.vector.as_deref() == Some("v4")) {
        return true;
    }
    instr
        .parts
        .iter()
        .filter_map(|part| ptxguard_analyzer::isa::PtxType::parse(&part.text))
        .all(|t| t.bits == 64)
}

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    if implements_cuda_ptx(cx) {
        return;
    }
    let configured = cx.options.cccl_version.as_deref().unwrap_or(DEFAULT_CCCL);
    let Some(cccl) = parse_version(configured) else {
        return;
    };
    for stmt in cx.ptx_statements() {
        for (_, instr) in stmt.ptx.instructions() {
            if crate::prefer_intrinsic::intrinsic_for(instr).is_some() {
                continue;
            }
            let Some(row) = wrapper_for(instr, cccl) else {
                continue;
            };
            let (span, what) = matched_form(stmt, instr, &row.pattern);
            out.push(
                diagnostic(
                    &META,
                    span,
                    format!(
                        "{what} is wrapped by `{}` ({}, since CCCL {} / CUDA {})",
                        row.wrapper, row.header, row.since_cccl_text, row.since_ctk
                    ),
                )
                .with_note(format!(
                    "the wrapper covers `{}`; it is written and tested by NVIDIA, constraints and clobbers included",
                    row.ptx
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses() {
        assert!(rows().len() > 300);
        assert!(rows()
            .iter()
            .any(|r| r.ptx == "fence.acq_rel.gpu" && r.wrapper == "cuda::ptx::fence"));
        assert!(rows()
            .iter()
            .all(|r| !r.ptx.contains('{') || r.ptx.contains("{%")));
    }
}
