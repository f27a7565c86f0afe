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
