use crate::support::front_end::llvm_reads;
use crate::support::intrinsics::intrinsic_for;
use crate::support::{
    cuda_library::{implements_cuda_intrinsics, implements_cuda_ptx},
    diagnostics::diagnostic,
    table_pattern::matched_form,
};
use crate::Ctx;
use ptxguard_analyzer::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Points out an instruction (or a special-register read) that CUDA offers as an
    /// intrinsic: `ld.global.nc` is `__ldg`, `redux.sync.add.u32` is `__reduce_add_sync`,
    /// `prmt.b32` is `__byte_perm`, `mov.u64 %0, %%clock64` is `clock64()`,
    /// `mov.u32 %0, %%tid.x` is `threadIdx.x`, `fma.rn.f32` is `__fmaf_rn`,
    /// `griddepcontrol.wait` is `cudaGridDependencySynchronize()`...
    ///
    /// Only exact forms are matched, token by token (`shf.l.wrap.b32` is `__funnelshift_l`;
    /// `shf.l.clamp.b32` is `__funnelshift_lc`; `ld.global.nc.L1::no_allocate` has no
    /// intrinsic). Left alone because the intrinsic does something else: a `shfl.sync` that
    /// also writes its predicate (`%0|p`) or whose clamp operand is not the constant a
    /// `width` argument produces (`__shfl_*_sync` computes it from `width`; a runtime clamp
    /// such as a segment's last lane has no intrinsic); `mapa.shared::cluster`, which maps a
    /// 32-bit `.shared::cluster` address (`__cluster_map_shared_rank` is the generic form,
    /// `mapa.u64`). Forms only `cuda::ptx` wraps (`%laneid`, `%smid`...) are
    /// `prefer-cuda-ptx`'s. Only a template that is the instruction plus moves (`mov`, `cvt`,
    /// `cvta`, `selp`, `setp`) is reported: a `%clock64` read inside a spin loop is one step
    /// of something the intrinsic does not replace. CUDA's own headers that implement the
    /// intrinsics are skipped.
    ///
    /// The table is `rules/data/cuda-intrinsics.tsv` (sources: the CUDA Programming Guide,
    /// the CUDA Math API, the CUDA and clang CUDA headers).
    ///
    /// This rule is off by default.
    ///
    /// ## Why is this bad?
    /// Most intrinsics are compiler builtins: the compiler knows what they do, can schedule
    /// and merge them, and never gets a constraint, a `volatile` or a `"memory"` clobber
    /// wrong, while inline asm is opaque to the optimizer. The others (the cache-operator
    /// loads and stores, `__funnelshift_*`, `__nanosleep`, `cudaGridDependencySynchronize`...)
    /// are themselves inline asm in NVIDIA's headers: the same instruction, so nothing is
    /// gained in speed, but the constraints and clobbers are NVIDIA's, and the code says what
    /// it does by name.
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
    ///
    /// ## In Python
    /// Not applied to Triton, MLIR and `inline_ptx` calls: the intrinsics are CUDA C++, which
    /// a Python kernel cannot call. C++ held in a Python string (cupy, `load_inline`, cuda.core
    /// `Program`) is checked as C++, with spans inside the Python literal.
    pub(crate) static META = {
        name: "prefer-intrinsic",
        severity: Info,
        fix: None,
        default_enabled: false,
        summary: "an instruction or special-register read that has a CUDA intrinsic",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    // Reads the whole file: only once a statement could be reported.
    let implements = std::cell::OnceCell::new();
    // Python calls: see `front_end::NOT_FOR_PYTHON_CALLS`.
    for stmt in cx.ptx_statements().filter(|s| !llvm_reads(s)) {
        for (_, instr) in stmt.ptx.instructions() {
            let Some(row) = intrinsic_for(instr) else {
                continue;
            };
            if *implements.get_or_init(|| implements_cuda_intrinsics(cx) || implements_cuda_ptx(cx))
            {
                return;
            }
            if !crate::support::table_pattern::alone_but_moves(&stmt.ptx, instr) {
                continue;
            }
            let (span, what) = matched_form(stmt, instr, &row.pattern);
            // `builtin (sm_32_intrinsics.h)`, `builtin`, `<cuda_fp16.h>`.
            let header = match row.header.strip_prefix("builtin") {
                Some(rest) if row.inline_asm => {
                    let file = rest.trim().trim_start_matches('(').trim_end_matches(')');
                    if file.is_empty() {
                        "inline asm in the CUDA headers".to_string()
                    } else {
                        format!("inline asm in {file}")
                    }
                }
                Some(_) => "a compiler builtin".to_string(),
                None => format!("from {}", row.header),
            };
            let why = if row.inline_asm {
                "the same instruction, with NVIDIA's constraints and clobbers, named for what it does"
            } else {
                "the compiler can optimize it, inline asm it cannot"
            };
            let mut d = diagnostic(
                &META,
                span,
                format!(
                    "{what} is what the CUDA intrinsic `{}` does ({header}): {why}",
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
    use crate::support::intrinsics::rows;

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
