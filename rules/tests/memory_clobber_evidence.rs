//! `missing-memory-clobber` warnings point at the C++ access they rest on: the nearest one on
//! the side the asm orders, in the asm's function or around a call of its helper.

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::{Diagnostic, SourceFile};
use ptxguard_rules::{check, Options};

fn memory_clobber(src: &str) -> Vec<Diagnostic> {
    let file = SourceFile::new("k.cu", src);
    check(&file, &AnalysisContext::default(), &Options::default())
        .into_iter()
        .filter(|d| d.rule == "missing-memory-clobber")
        .collect()
}

/// The source text of each label whose message speaks of the C++ access.
fn evidence<'s>(src: &'s str, d: &Diagnostic) -> Vec<&'s str> {
    d.labels
        .iter()
        .filter(|l| l.message.contains("C++"))
        .map(|l| &src[l.span.start as usize..l.span.end as usize])
        .collect()
}

#[test]
fn a_release_names_the_store_nearest_before_it() {
    let src = r#"
__global__ void publish(int* flag, float* data, float* out) {
  float seen = out[0];
  data[threadIdx.x] = seen;
  asm volatile("st.release.gpu.global.u32 [%0], 1;" :: "l"(flag));
}
"#;
    let found = memory_clobber(src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity.as_str(), "warning");
    assert_eq!(evidence(src, &found[0]), vec!["data[threadIdx.x]"]);
}

#[test]
fn a_wait_names_the_first_load_after_it_and_skips_declarations_and_references() {
    let src = r#"
struct Storage { float tile[128]; };
__global__ void consume(const float* in, float* out) {
  extern __shared__ char smem[];
  asm volatile("griddepcontrol.wait;");
  __shared__ float scratch[32];
  Storage& s = *reinterpret_cast<Storage*>(smem);
  float x = in[threadIdx.x];
  out[threadIdx.x] = x + s.tile[0] + scratch[0];
}
"#;
    let found = memory_clobber(src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity.as_str(), "warning");
    assert_eq!(evidence(src, &found[0]), vec!["in[threadIdx.x]"]);
}

#[test]
fn a_helper_names_the_access_beside_its_call() {
    let src = r#"
__device__ void wait_flag(const int* flag) {
  int v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag));
}
__global__ void consume(const int* flag, const float* data, float* out) {
  wait_flag(flag);
  out[threadIdx.x] = data[threadIdx.x];
}
"#;
    let found = memory_clobber(src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity.as_str(), "warning");
    assert_eq!(evidence(src, &found[0]), vec!["out[threadIdx.x]"]);
}

#[test]
fn info_findings_name_no_access() {
    let src = r#"
__global__ void consume(const float* in, float* out) {
  asm volatile("griddepcontrol.wait;");
  __syncthreads();
  out[threadIdx.x] = in[threadIdx.x];
}
"#;
    let found = memory_clobber(src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity.as_str(), "info");
    assert!(evidence(src, &found[0]).is_empty());
}

#[test]
fn multibyte_text_before_an_atomic_after_a_spin_loop_is_read_whole() {
    // The statement text looked back over starts 512 bytes back, wherever that falls among
    // two-byte characters: every offset must land on a character's start.
    for pad in 0..4 {
        let src = format!(
            "__global__ void k(const unsigned* ready, unsigned* slots) {{\n  while (true) {{ unsigned v; asm volatile(\"ld.acquire.gpu.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(ready)); if (v) break; }}\n  // {}{}\n  atomicCAS(&slots[0], 7u, 0u);\n}}\n",
            "é".repeat(300),
            "x".repeat(pad)
        );
        let found = memory_clobber(&src);
        assert_eq!(found.len(), 1, "{pad}");
        assert_eq!(found[0].severity.as_str(), "info", "{pad}");
    }
}
