use crate::support::front_end::llvm_reads;
use crate::support::{
    cuda_library::implements_cuda_ptx,
    diagnostics::diagnostic,
    table_pattern::{
        expand_alternatives, matched_form, tsv_rows, FormPattern, InstrTokens, PatternIndex,
    },
};
use crate::Ctx;
use ptxguard_analyzer::ptx::Instruction;
use ptxguard_analyzer::Diagnostic;
use std::sync::OnceLock;

declare_rule! {
    /// ## What it does
    /// Points out an asm statement that is one instruction form libcu++'s `cuda::ptx`
    /// namespace (`<cuda/ptx>`) wraps in the configured CCCL version (`--cccl-version`,
    /// default 3.0, the one CUDA 13.0 ships): `fence.proxy.async` is
    /// `cuda::ptx::fence_proxy_async()`, `mbarrier.init.shared.b64` is
    /// `cuda::ptx::mbarrier_init`, `mov.u32 %0, %%laneid` is `cuda::ptx::get_sreg_laneid()`,
    /// `ld.global.L1::no_allocate` is `cuda::ptx::ld_L1_no_allocate`...
    ///
    /// Forms are matched token by token, modifiers included, after filling in what the PTX
    /// ISA says an omitted qualifier means: `.shared` is `.shared::cta`; a load or store
    /// without semantics is `.weak`; `mbarrier.arrive` is `.release.cta`, `mbarrier.expect_tx`
    /// `.relaxed.cta`, `mbarrier.test_wait`/`try_wait` `.acquire.cta`; `multimem.ld_reduce`
    /// and `multimem.st` are `.weak`, `multimem.red` is `.relaxed.sys`. Types are compared
    /// where the wrapper restricts them: the `multimem` wrappers exist for integer and bit
    /// types only. `ld.global.v2`, `ld.global.relaxed.gpu` and `barrier.cluster.arrive.aligned`
    /// are not wrapped; a wrapper that arrived after the configured CCCL version is not
    /// suggested.
    ///
    /// Not reported: a template with other instructions besides the wrapped one (moves,
    /// conversions and `selp`/`setp` that carry its operands in and out are fine: a
    /// spin loop around `mbarrier.try_wait` is not one instruction); plain integer ALU forms
    /// (`shl`, `shr`, `bmsk`, `bfind`, `prmt`), where the wrapper is no better than the C++
    /// operator or the asm; plain `ld.global`/`st.global` without cache hints, where a C++
    /// expression is the better replacement; forms that have a plain CUDA intrinsic
    /// (`shfl.sync.bfly.b32` is `__shfl_xor_sync`, `%clock` is `clock()`), which are
    /// `prefer-intrinsic`'s; and the code that implements `cuda::ptx` or the rest of libcu++
    /// (`namespace cuda::ptx`, its private headers under `cuda/__*` and `cuda/std/`: atomics,
    /// barriers).
    ///
    /// The table is `rules/data/cuda-ptx-wrappers.tsv`, from the CCCL documentation and
    /// headers, with the CCCL release each wrapper first shipped in.
    ///
    /// ## Why is this bad?
    /// The `cuda::ptx` wrappers are written and tested by NVIDIA for each form: the right
    /// constraints, address conversions, `"memory"` clobbers, and a link error instead of a
    /// ptxas failure when the target is too old. Hand-written asm for the same form repeats
    /// that work and the mistakes the other rules of this tool look for. Info: nothing is
    /// wrong with the asm as written.
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
    ///
    /// ## In Python
    /// Not applied to Triton, MLIR and `inline_ptx` calls: `cuda::ptx` is a C++ library a
    /// Python kernel cannot call. C++ held in a Python string (cupy `RawKernel`/`RawModule`,
    /// `load_inline`, cuda.core `Program`) is checked as C++, with spans inside the Python
    /// literal; flashinfer's `load_inline` source reading `%globaltimer` is one (docs/python.md).
    pub(crate) static META = {
        name: "prefer-cuda-ptx",
        severity: Info,
        fix: None,
        default_enabled: true,
        summary: "an instruction form that `cuda::ptx` wraps",
    }
}

/// The CCCL version CUDA 13.0 ships.
pub(crate) const DEFAULT_CCCL: &str = "3.0.0";

/// One row of the wrapper table, expanded (no `{a,b}` left).
#[derive(Debug)]
pub(crate) struct WrapperRow {
    pub(crate) ptx: String,
    pub(crate) pattern: FormPattern,
    pub(crate) wrapper: String,
    pub(crate) header: String,
    pub(crate) since_cccl: (u32, u32, u32),
    pub(crate) since_cccl_text: String,
    pub(crate) since_ctk: String,
}

const TABLE: &str = include_str!("../data/cuda-ptx-wrappers.tsv");

pub(crate) fn rows() -> &'static [WrapperRow] {
    static ROWS: OnceLock<Vec<WrapperRow>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut out = Vec::new();
        for cols in tsv_rows(TABLE, 5) {
            let Some(since) = parse_version(cols[3]) else {
                continue;
            };
            for (form, _) in expand_alternatives(cols[0]) {
                let mut pattern = FormPattern::parse(&form);
                with_isa_defaults(&mut pattern.words);
                out.push(WrapperRow {
                    pattern,
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

/// Fills in the qualifiers the PTX ISA gives an instruction that omits them, so that
/// `mbarrier.arrive.shared.b64` and `mbarrier.arrive.release.cta.shared::cta.b64` compare equal.
/// `words` are [`InstrTokens`] words (no dots, sorted); they stay sorted. A state space is
/// never filled in: without one, addressing is generic.
pub(crate) fn with_isa_defaults(words: &mut Vec<String>) {
    const SEMANTICS: &[&str] = &[
        "weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio",
    ];
    const SCOPES: &[&str] = &["cta", "cluster", "gpu", "sys"];
    let has = |w: &[String], t: &str| w.iter().any(|x| x == t);
    if let Some(shared) = words.iter_mut().find(|w| *w == "shared") {
        *shared = "shared::cta".to_string();
    }
    let (semantics, scope) = if has(words, "mbarrier") {
        if has(words, "test_wait") || has(words, "try_wait") {
            (Some("acquire"), Some("cta"))
        } else if has(words, "arrive") {
            // `arrive`, `arrive.expect_tx`, `arrive.noComplete`.
            (Some("release"), Some("cta"))
        } else if has(words, "expect_tx") || has(words, "complete_tx") {
            (Some("relaxed"), Some("cta"))
        } else {
            (None, None)
        }
    } else if has(words, "multimem") {
        if has(words, "red") {
            (Some("relaxed"), Some("sys"))
        } else {
            (Some("weak"), None)
        }
    } else if has(words, "ld") || has(words, "st") {
        (Some("weak"), None)
    } else {
        (None, None)
    };
    if let Some(sem) = semantics {
        if !SEMANTICS.iter().any(|s| has(words, s)) {
            words.push(sem.to_string());
        }
    }
    if let Some(scope) = scope {
        if !SCOPES.iter().any(|s| has(words, s)) {
            words.push(scope.to_string());
        }
    }
    words.sort();
}

/// The wrapper of this exact form available in `cccl`, if any.
pub(crate) fn wrapper_for(
    instr: &Instruction,
    cccl: (u32, u32, u32),
) -> Option<&'static WrapperRow> {
    // `d|p` forms are covered too (`elect.sync _|p` is `elect_sync()`, the `shfl_sync_*`
    // wrappers return the predicate). A guarded instruction is no call.
    if !instr.is_complete() || instr.guard.is_some() {
        return None;
    }
    static INDEX: std::sync::OnceLock<PatternIndex> = std::sync::OnceLock::new();
    let rows = rows();
    let index = INDEX.get_or_init(|| PatternIndex::new(rows.iter().map(|r| &r.pattern)));
    let mut tokens = InstrTokens::of(instr);
    with_isa_defaults(&mut tokens.words);
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

/// Forms whose wrapper is not worth suggesting: integer ALU instructions (the wrapper is
/// the same instruction, no safer than the asm and no clearer than the C++ operator), and
/// plain global loads and stores, for which a C++ expression is the better replacement.
fn not_worth_a_wrapper(row: &WrapperRow) -> bool {
    let words = &row.pattern.words;
    let plain_global = |op: &str| *words == ["global", op, "weak"];
    words
        .iter()
        .any(|w| matches!(w.as_str(), "shl" | "shr" | "bmsk" | "bfind" | "prmt"))
        || plain_global("ld")
        || plain_global("st")
}

/// Whether the file is part of libcu++ itself (`cuda/__barrier/`, `cuda/std/__atomic/`...:
/// the private headers under `cuda/__*` and `cuda/std/`): the library that ships the wrappers
/// writes asm where it chooses to (atomics, barriers), and a suggestion there is noise.
fn implements_libcudacxx(cx: &Ctx) -> bool {
    let path = cx.file.path.to_string_lossy().replace('\\', "/");
    path.contains("/cuda/__") || path.contains("/cuda/std/") || path.starts_with("cuda/__")
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

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    // Reads the whole file: only once a statement could be reported.
    let implements = std::cell::OnceCell::new();
    let configured = cx.options.cccl_version.as_deref().unwrap_or(DEFAULT_CCCL);
    let Some(cccl) = parse_version(configured) else {
        return;
    };
    // Python calls: see `front_end::NOT_FOR_PYTHON_CALLS`.
    for stmt in cx.ptx_statements().filter(|s| !llvm_reads(s)) {
        for (_, instr) in stmt.ptx.instructions() {
            if crate::support::intrinsics::intrinsic_for(instr).is_some() {
                continue;
            }
            let Some(row) = wrapper_for(instr, cccl) else {
                continue;
            };
            if *implements.get_or_init(|| implements_cuda_ptx(cx) || implements_libcudacxx(cx)) {
                return;
            }
            if not_worth_a_wrapper(row)
                || !crate::support::table_pattern::alone_but_moves(&stmt.ptx, instr)
            {
                continue;
            }
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

/// Parses a dotted version (`3.0`, `2.4.0`) into a comparable triple.
fn parse_version(s: &str) -> Option<(u32, u32, u32)> {
    let mut it = s.trim().trim_start_matches('v').split('.');
    let major = it.next()?.parse().ok()?;
    let minor = it.next().map_or(Some(0), |m| m.parse().ok())?;
    let patch = it.next().map_or(Some(0), |m| m.parse().ok())?;
    Some((major, minor, patch))
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

    fn canonical(form: &str) -> Vec<String> {
        let mut words = FormPattern::parse(form).words;
        with_isa_defaults(&mut words);
        words
    }

    #[test]
    fn omitted_qualifiers_take_the_isa_defaults() {
        assert_eq!(
            canonical("mbarrier.arrive.shared.b64"),
            canonical("mbarrier.arrive.release.cta.shared::cta.b64")
        );
        assert_eq!(
            canonical("mbarrier.arrive.expect_tx.shared::cta.b64"),
            canonical("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64")
        );
        assert_eq!(
            canonical("mbarrier.expect_tx.shared::cta.b64"),
            canonical("mbarrier.expect_tx.relaxed.cta.shared::cta.b64")
        );
        assert_eq!(
            canonical("mbarrier.try_wait.parity.shared::cta.b64"),
            canonical("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64")
        );
        assert_eq!(
            canonical("multimem.ld_reduce.global.add.u32"),
            canonical("multimem.ld_reduce.weak.global.add.u32")
        );
        assert_eq!(
            canonical("multimem.red.global.add.u32"),
            canonical("multimem.red.relaxed.sys.global.add.u32")
        );
        assert_eq!(canonical("ld.global.b32"), canonical("ld.weak.global.b32"));
        // Explicit qualifiers other than the defaults stay distinct.
        assert_ne!(
            canonical("mbarrier.arrive.shared::cta.b64"),
            canonical("mbarrier.arrive.relaxed.cta.shared::cta.b64")
        );
        assert_ne!(
            canonical("mbarrier.arrive.release.cluster.shared::cta.b64"),
            canonical("mbarrier.arrive.shared::cta.b64")
        );
        assert_ne!(
            canonical("ld.volatile.global.b32"),
            canonical("ld.global.b32")
        );
        // No state space means generic addressing: none is filled in.
        assert_ne!(
            canonical("mbarrier.arrive.b64"),
            canonical("mbarrier.arrive.shared::cta.b64")
        );
    }
}
