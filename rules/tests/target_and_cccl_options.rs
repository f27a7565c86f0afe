//! `AnalysisContext::targets` (arch-requirement) and `Options::cccl_version` (prefer-cuda-ptx).

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::isa::Target;
use ptxguard_analyzer::SourceFile;
use ptxguard_rules::{check, Options};

fn count(src: &str, rule: &str, targets: &[&str], cccl: Option<&str>) -> usize {
    let file = SourceFile::new("t.cu", src);
    let context = AnalysisContext {
        targets: targets.iter().map(|t| Target::parse(t).unwrap()).collect(),
        ..AnalysisContext::default()
    };
    let options = Options {
        cccl_version: cccl.map(str::to_string),
        ..Options::default()
    };
    check(&file, &context, &options)
        .iter()
        .filter(|d| d.rule == rule)
        .count()
}

const WGMMA: &str = r#"
__global__ void k() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
"#;

const WGMMA_ARCH_GUARD: &str = r#"
__global__ void k() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}
"#;

const WGMMA_FEATURE_GUARD: &str = r#"
__global__ void k() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}
"#;

const REDUX: &str = r#"
__global__ void k(unsigned* out, unsigned v) {
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  out[0] = r;
}
"#;

const REDUX_NV_TARGET: &str = r#"
__global__ void k(unsigned* out, unsigned v) {
  unsigned r = v;
  NV_IF_TARGET(NV_PROVIDES_SM_80, (asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));));
  out[0] = r;
}
"#;

#[test]
fn without_targets_the_file_says_what_it_is_built_for() {
    // Unguarded wgmma: an sm_90a file; unguarded redux: an sm_80-or-later file. No finding,
    // since some target builds everything (a conflict is the only finding then).
    assert_eq!(count(WGMMA, "arch-requirement", &[], None), 0);
    assert_eq!(count(WGMMA_ARCH_GUARD, "arch-requirement", &[], None), 0);
    assert_eq!(count(WGMMA_FEATURE_GUARD, "arch-requirement", &[], None), 0);
    assert_eq!(count(REDUX, "arch-requirement", &[], None), 0);
    assert_eq!(count(REDUX_NV_TARGET, "arch-requirement", &[], None), 0);
    // Built for every target nvcc 13.0 has, the same files are findings.
    let every = [
        "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103",
        "sm_110", "sm_120", "sm_121",
    ];
    assert_eq!(count(WGMMA, "arch-requirement", &every, None), 1);
    // sm_90 (no `a`) passes `__CUDA_ARCH__ >= 900`.
    assert_eq!(count(WGMMA_ARCH_GUARD, "arch-requirement", &every, None), 1);
    assert_eq!(
        count(WGMMA_FEATURE_GUARD, "arch-requirement", &every, None),
        0
    );
    assert_eq!(count(REDUX, "arch-requirement", &every, None), 1);
    assert_eq!(count(REDUX_NV_TARGET, "arch-requirement", &every, None), 0);
}

#[test]
fn configured_targets() {
    assert_eq!(count(WGMMA, "arch-requirement", &["sm_90a"], None), 0);
    assert_eq!(
        count(WGMMA, "arch-requirement", &["sm_90a", "sm_100a"], None),
        1
    );
    assert_eq!(
        count(
            WGMMA_ARCH_GUARD,
            "arch-requirement",
            &["sm_80", "sm_90a"],
            None
        ),
        0
    );
    assert_eq!(
        count(WGMMA_ARCH_GUARD, "arch-requirement", &["sm_90"], None),
        1
    );
    assert_eq!(
        count(WGMMA_FEATURE_GUARD, "arch-requirement", &["sm_90a"], None),
        0
    );
    assert_eq!(
        count(REDUX, "arch-requirement", &["sm_80", "sm_90a"], None),
        0
    );
    assert_eq!(
        count(REDUX, "arch-requirement", &["sm_75", "sm_90"], None),
        1
    );
}

#[test]
fn arch_named_files_are_built_for_their_architecture() {
    let file = SourceFile::new("kernels/gemm_sm90.cu", WGMMA);
    let found = check(&file, &AnalysisContext::default(), &Options::default())
        .iter()
        .filter(|d| d.rule == "arch-requirement")
        .count();
    assert_eq!(found, 0);
}

const ELECT: &str = r#"
__device__ unsigned elected() {
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 %0, 1, 0, p; }" : "=r"(r));
#endif
  return r;
}
"#;

#[test]
fn cccl_version_decides_which_wrappers_exist() {
    // cuda::ptx::elect_sync arrived in CCCL 3.1.
    assert_eq!(count(ELECT, "prefer-cuda-ptx", &[], None), 0);
    assert_eq!(count(ELECT, "prefer-cuda-ptx", &[], Some("3.0")), 0);
    assert_eq!(count(ELECT, "prefer-cuda-ptx", &[], Some("3.1")), 1);
    assert_eq!(count(ELECT, "prefer-cuda-ptx", &[], Some("3.2.0")), 1);
}

#[test]
fn only_the_selected_rules_run() {
    let file = SourceFile::new(
        "t.cu",
        "__device__ unsigned f(unsigned a) { unsigned r; asm(\"add.u32 %0, %0, %n1;\" : \"=r\"(r) : \"r\"(a)); return r; }",
    );
    let all = check(&file, &AnalysisContext::default(), &Options::default());
    assert!(all.iter().any(|d| d.rule == "unsupported-modifier"));
    assert!(all.iter().any(|d| d.rule == "output-read-before-write"));
    let only = Options {
        only: Some(vec!["unsupported-modifier"]),
        ..Options::default()
    };
    let some = check(&file, &AnalysisContext::default(), &only);
    assert!(!some.is_empty());
    assert!(some.iter().all(|d| d.rule == "unsupported-modifier"));
}
