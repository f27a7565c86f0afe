use super::*;

fn t(s: &str) -> Target {
    Target::parse(s).unwrap()
}

#[test]
fn arch_names() {
    for n in [
        "CUTE_ARCH_MMA_SM90A_ENABLED",
        "MYLIB_HAS_SM90",
        "__CUDA_ARCH__",
        "SM_90_ENABLED",
        "FOO_SM100",
    ] {
        assert!(is_arch_name(n), "{n}");
    }
    for n in ["FOO_H", "DEBUG", "SMEM_BYTES", "USE_FAST_PATH", "ASM_OK"] {
        assert!(!is_arch_name(n), "{n}");
    }
}

#[test]
fn nv_queries() {
    assert_eq!(nv_query("NV_PROVIDES_SM_90", &t("sm_80")), Some(false));
    assert_eq!(nv_query("NV_PROVIDES_SM_90", &t("sm_100")), Some(true));
    assert_eq!(nv_query("NV_HAS_FEATURE_SM_90a", &t("sm_90")), Some(false));
    assert_eq!(nv_query("NV_HAS_FEATURE_SM_90a", &t("sm_90a")), Some(true));
    assert_eq!(
        nv_query("NV_HAS_FEATURE_SM_100f", &t("sm_103f")),
        Some(true)
    );
    assert_eq!(nv_query("SOMETHING", &t("sm_90")), None);
}

/// Macros defined under architecture conditions, each from two earlier ones: per-target
/// evaluation recurses through them, within a fixed budget (a chain of 300 would otherwise
/// take 2^300 lookups).
#[test]
fn conditional_define_chains_stay_bounded() {
    let mut text = String::from("#if __CUDA_ARCH__ >= 800\n#define M0 1\n#define M1 1\n#endif\n");
    for i in 2..300 {
        text.push_str(&format!(
            "#if M{} && M{} && __CUDA_ARCH__ >= 800\n#define M{i} 1\n#endif\n",
            i - 1,
            i - 2
        ));
    }
    text.push_str("__global__ void k() {\n#if M299\n  asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n#endif\n}\n");
    let file = SourceFile::new(std::path::PathBuf::from("chain.cu"), text.clone());
    let tokens = ptxguard_analyzer::cpp::lexer::lex_range(&text, 0, text.len(), false);
    let options = Options {
        targets: vec!["sm_75".into(), "sm_90".into()],
        ..Options::default()
    };
    let ev = Evaluator::new(&file, &tokens, &options);
    let stmts = ptxguard_analyzer::statements::find_asm_statements(&file);
    let start = std::time::Instant::now();
    let sm75 = ev.guarded_for(&stmts[0], &t("sm_75"));
    let sm90 = ev.guarded_for(&stmts[0], &t("sm_90"));
    assert!(start.elapsed().as_secs() < 2);
    // Too deep to resolve within the budget: in doubt, never a wrong "excluded" for sm_90.
    assert_ne!(sm90, Guarded::Excluded);
    assert_ne!(sm75, Guarded::No);
}

/// Two levels: resolved per target.
#[test]
fn conditional_defines_are_evaluated_per_target() {
    let text = "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n#define HAS_A 1\n#endif\n#if HAS_A && __CUDA_ARCH__ >= 1000\n#define HAS_B 1\n#endif\n#ifndef USE_C\n#define USE_C 0\n#endif\n__global__ void k() {\n#if HAS_B\n  asm volatile(\"membar.gl;\" ::: \"memory\");\n#endif\n#if USE_C\n  asm volatile(\"membar.cta;\" ::: \"memory\");\n#endif\n}\n";
    let file = SourceFile::new(std::path::PathBuf::from("two.cu"), text.to_string());
    let tokens = ptxguard_analyzer::cpp::lexer::lex_range(text, 0, text.len(), false);
    let options = Options {
        targets: vec!["sm_90".into(), "sm_100".into()],
        ..Options::default()
    };
    let ev = Evaluator::new(&file, &tokens, &options);
    let stmts = ptxguard_analyzer::statements::find_asm_statements(&file);
    assert_eq!(ev.guarded_for(&stmts[0], &t("sm_90")), Guarded::Excluded);
    assert_eq!(ev.guarded_for(&stmts[0], &t("sm_100")), Guarded::No);
    assert!(ev.never_compiled(&stmts[1]));
}
