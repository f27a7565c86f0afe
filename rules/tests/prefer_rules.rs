//! `prefer-cuda-ptx` and `prefer-intrinsic`: what is suggested, where, and how it is worded.

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::{Diagnostic, SourceFile};
use ptxguard_rules::{check, Options};

fn findings(path: &str, src: &str, rule: &str) -> Vec<Diagnostic> {
    let file = SourceFile::new(path, src);
    check(&file, &AnalysisContext::default(), &Options::default())
        .into_iter()
        .filter(|d| d.rule == rule)
        .collect()
}

const FENCE: &str = r#"
__device__ void publish() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
"#;

#[test]
fn prefer_cuda_ptx_is_on_by_default_at_info() {
    let found = findings("k.cu", FENCE, "prefer-cuda-ptx");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity.as_str(), "info");
    assert!(found[0].message.contains("cuda::ptx::fence_proxy_async"));
}

#[test]
fn libcudacxx_itself_is_not_told_to_use_cuda_ptx() {
    for path in [
        "libcudacxx/include/cuda/std/__atomic/functions/cuda_ptx_generated.h",
        "libcudacxx/include/cuda/__barrier/barrier_arrive_tx.h",
        "cuda/__functional/for_each_canceled.h",
    ] {
        assert!(
            findings(path, FENCE, "prefer-cuda-ptx").is_empty(),
            "{path}"
        );
    }
    assert_eq!(
        findings("cuda/atomic_user.cuh", FENCE, "prefer-cuda-ptx").len(),
        1
    );
}

#[test]
fn mbarrier_forms_match_through_the_isa_defaults() {
    let src = r#"
__device__ void f(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
  asm volatile("mbarrier.expect_tx.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
  asm volatile("mbarrier.arrive.expect_tx.relaxed.cluster.shared::cluster.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
"#;
    let found = findings("k.cu", src, "prefer-cuda-ptx");
    let wrappers: Vec<&str> = found
        .iter()
        .map(|d| {
            if d.message.contains("mbarrier_arrive_expect_tx") {
                "arrive_expect_tx"
            } else if d.message.contains("mbarrier_expect_tx") {
                "expect_tx"
            } else {
                "other"
            }
        })
        .collect();
    // The third is wrapped too (CCCL 2.8: relaxed.cluster.shared::cluster).
    assert_eq!(
        wrappers,
        ["arrive_expect_tx", "expect_tx", "arrive_expect_tx"]
    );
}

#[test]
fn multimem_wrappers_cover_integer_types_only() {
    let src = r#"
__device__ void f(unsigned long long mc, unsigned u, float x) {
  unsigned r; float g;
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.u32 %0, [%1];" : "=r"(r) : "l"(mc) : "memory");
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.f32 %0, [%1];" : "=f"(g) : "l"(mc) : "memory");
  asm volatile("multimem.red.release.gpu.global.min.s32 [%0], %1;" :: "l"(mc), "r"(u) : "memory");
  asm volatile("multimem.red.release.gpu.global.add.f16x2 [%0], %1;" :: "l"(mc), "r"(u) : "memory");
  asm volatile("multimem.st.global.v4.f32 [%0], {%1, %1, %1, %1};" :: "l"(mc), "f"(x) : "memory");
}
"#;
    let lines: Vec<usize> = findings("k.cu", src, "prefer-cuda-ptx")
        .iter()
        .map(|d| src[..d.span.start as usize].lines().count())
        .collect();
    assert_eq!(lines, [4, 6]);
}

#[test]
fn cache_operator_intrinsics_are_not_said_to_optimize_better() {
    let src = r#"
__device__ float f(const float* p, unsigned v) {
  float x; unsigned r;
  asm volatile("ld.global.cs.f32 %0, [%1];" : "=f"(x) : "l"(p) : "memory");
  asm("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  return x + r;
}
"#;
    let found = findings("k.cu", src, "prefer-intrinsic");
    assert_eq!(found.len(), 2);
    let ldcs = found.iter().find(|d| d.message.contains("__ldcs")).unwrap();
    assert!(!ldcs.message.contains("optimize"), "{}", ldcs.message);
    assert!(
        ldcs.message.contains("same instruction"),
        "{}",
        ldcs.message
    );
    let redux = found
        .iter()
        .find(|d| d.message.contains("__reduce_add_sync"))
        .unwrap();
    assert!(redux.message.contains("optimize"), "{}", redux.message);
}

#[test]
fn shuffles_match_an_intrinsic_only_with_a_width_clamp() {
    let src = r#"
__device__ unsigned f(unsigned v, unsigned d, unsigned c) {
  unsigned a, b, e, g;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(a) : "r"(v), "r"(d));
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(b) : "r"(v), "r"(d), "r"(c));
  asm volatile("shfl.sync.up.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(e) : "r"(v), "r"(d));
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x71f, 0xffffffff;" : "=r"(g) : "r"(v), "r"(d));
  return a + b + e + g;
}
"#;
    let lines = |rule: &str| -> Vec<usize> {
        findings("k.cu", src, rule)
            .iter()
            .map(|d| src[..d.span.start as usize].lines().count())
            .collect()
    };
    // 0x1f on `down`: width 32. A register clamp, 0x1f on `up` (an up-shuffle's clamp has no
    // 0x1f) and 0x71f (width 25, not a power of two) are no intrinsic's.
    assert_eq!(lines("prefer-intrinsic"), [4]);
    // cuda::ptx::shfl_sync_* take the clamp as an argument.
    assert_eq!(lines("prefer-cuda-ptx"), [5, 6, 7]);
}

#[test]
fn mapa_suggests_map_shared_rank_only_for_the_generic_form() {
    let src = r#"
__device__ void f(unsigned long long p, unsigned a, unsigned rank) {
  unsigned long long g; unsigned s;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(g) : "l"(p), "r"(rank));
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(s) : "r"(a), "r"(rank));
}
"#;
    let found = findings("k.cu", src, "prefer-intrinsic");
    assert_eq!(found.len(), 1);
    assert!(found[0].message.contains("__cluster_map_shared_rank"));
    assert_eq!(src[..found[0].span.start as usize].lines().count(), 4);
}
