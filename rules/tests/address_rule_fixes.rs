//! Fixes of generic-address (safe), address-register-width and operand-type-mismatch (unsafe):
//! applying each one makes its finding go away, brings no new finding of any rule, and
//! applying the rule's fixes again changes nothing.

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::diag::apply_edits;
use ptxguard_analyzer::{Applicability, Diagnostic, SourceFile};
use ptxguard_rules::{check, Options};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn cases(rule: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/cases")
        .join(rule);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| p.extension().is_some_and(|e| e == "cu"));
    out.sort();
    out
}

fn counts(ds: &[Diagnostic]) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for d in ds {
        *m.entry(d.rule).or_default() += 1;
    }
    m
}

/// Applies every fix of `rule` of the given applicability, one diagnostic at a time, and
/// checks convergence. Returns how many fixes were applied.
fn converge(name: &str, text: &str, rule: &str, applicability: Applicability) -> usize {
    let options = Options::default();
    let file = SourceFile::new(name, text);
    let before = check(&file, &AnalysisContext::default(), &options);
    let fixable: Vec<&Diagnostic> = before
        .iter()
        .filter(|d| d.rule == rule)
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == applicability)
        })
        .collect();
    let mut applied = 0;
    for d in &fixable {
        let fix = d.fix.as_ref().unwrap();
        let (fixed, n) = apply_edits(text, &fix.edits);
        assert_eq!(n, fix.edits.len(), "{name}: every edit applies");
        let after_file = SourceFile::new(name, fixed.clone());
        let after = check(&after_file, &AnalysisContext::default(), &options);
        let (b, a) = (counts(&before), counts(&after));
        assert_eq!(
            a.get(rule).copied().unwrap_or(0) + 1,
            b.get(rule).copied().unwrap_or(0),
            "{name}: the fixed finding of {rule} is gone:\n{fixed}\n{after:#?}"
        );
        for (r, n) in &a {
            assert!(
                *n <= b.get(r).copied().unwrap_or(0),
                "{name}: fixing {rule} made `{r}` fire:\n{fixed}\n{after:#?}"
            );
        }
        applied += 1;
    }
    // All at once, then again: the second round changes nothing.
    let edits: Vec<_> = fixable
        .iter()
        .flat_map(|d| d.fix.as_ref().unwrap().edits.clone())
        .collect();
    let (once, _) = apply_edits(text, &edits);
    let file = SourceFile::new(name, once.clone());
    let again: Vec<_> = check(&file, &AnalysisContext::default(), &options)
        .into_iter()
        .filter(|d| d.rule == rule)
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == applicability)
        })
        .flat_map(|d| d.fix.unwrap().edits)
        .collect();
    let (twice, _) = apply_edits(&once, &again);
    assert_eq!(
        once, twice,
        "{name}: applying the fixes twice changes nothing more"
    );
    applied
}

#[test]
fn generic_address_safe_fixes_converge() {
    let mut total = 0;
    for path in cases("generic-address") {
        let text = std::fs::read_to_string(&path).unwrap();
        total += converge(
            &path.display().to_string(),
            &text,
            "generic-address",
            Applicability::Safe,
        );
    }
    let extra = r#"
#include <cstdint>
__device__ float get(float* base, int i, const float* g) {
  float v, w;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "l"(base + i) : "memory");
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(w) : "l"((uint64_t)g) : "memory");
  return v + w;
}
"#;
    total += converge("extra.cu", extra, "generic-address", Applicability::Safe);
    assert!(total >= 7, "fixes applied: {total}");
}

#[test]
fn generic_address_fix_text() {
    let src = "__device__ void f(float* p, float v) {\n  asm volatile(\"st.shared.f32 [%0], %1;\" :: \"l\"(p), \"f\"(v) : \"memory\");\n}\n";
    let file = SourceFile::new("x.cu", src);
    let d = check(&file, &AnalysisContext::default(), &Options::default())
        .into_iter()
        .find(|d| d.rule == "generic-address")
        .expect("fires");
    let (fixed, _) = apply_edits(src, &d.fix.unwrap().edits);
    assert!(
        fixed.contains("\"l\"(__cvta_generic_to_shared(p))"),
        "{fixed}"
    );
}

#[test]
fn address_register_width_fixes_converge() {
    let mut total = 0;
    for path in cases("address-register-width") {
        let text = std::fs::read_to_string(&path).unwrap();
        total += converge(
            &path.display().to_string(),
            &text,
            "address-register-width",
            Applicability::Unsafe,
        );
    }
    // The truncating casts: (unsigned)(size_t)p, (uint32_t)__cvta_generic_to_global(p),
    // static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p)).
    assert!(total >= 3, "fixes applied: {total}");
    let src = "__device__ void f(const unsigned* p, unsigned& v) {\n  asm volatile(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"r\"((unsigned)(size_t)p) : \"memory\");\n}\n";
    let file = SourceFile::new("x.cu", src);
    let d = check(&file, &AnalysisContext::default(), &Options::default())
        .into_iter()
        .find(|d| d.rule == "address-register-width")
        .expect("fires");
    let (fixed, _) = apply_edits(src, &d.fix.unwrap().edits);
    assert!(
        fixed.contains("\"l\"(__cvta_generic_to_global(p))"),
        "{fixed}"
    );
}

#[test]
fn operand_type_mismatch_fixes_converge() {
    let mut total = 0;
    for path in cases("operand-type-mismatch") {
        let text = std::fs::read_to_string(&path).unwrap();
        total += converge(
            &path.display().to_string(),
            &text,
            "operand-type-mismatch",
            Applicability::Unsafe,
        );
    }
    // Unknown C++ type: the one letter that fits `.u32` is `r`.
    let src = "__device__ unsigned f(Opaque s, unsigned a) {\n  unsigned r;\n  asm(\"add.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(a), \"f\"(s.bits));\n  return r;\n}\n";
    total += converge(
        "inline.cu",
        src,
        "operand-type-mismatch",
        Applicability::Unsafe,
    );
    assert!(total >= 1, "fixes applied: {total}");
}

/// `address-register-width` and the safety check of constraint-changing fixes read one ISA
/// fact: a `.local`, `.const` or `.param` address fits a 32-bit register (measured, nvcc 13),
/// a `.global` one does not. A 32-bit offset given `"l"` gets the `"r"` fix only where `"r"`
/// is a valid address, and the fixed code brings no address-register-width finding.
#[test]
fn size_fix_to_r_follows_the_isa_address_width() {
    for (space, fixable) in [
        ("local", true),
        ("const", true),
        ("param", true),
        ("shared", true),
        ("global", false),
    ] {
        let src = format!("__device__ void f(unsigned off, unsigned& v) {{\n  asm volatile(\"ld.{space}.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(off) : \"memory\");\n}}\n");
        let file = SourceFile::new("x.cu", src.as_str());
        let d = check(&file, &AnalysisContext::default(), &Options::default())
            .into_iter()
            .find(|d| d.rule == "operand-size-mismatch")
            .expect("fires");
        assert_eq!(d.fix.is_some(), fixable, "{space}: {d:#?}");
        if let Some(fix) = d.fix {
            let (fixed, _) = apply_edits(&src, &fix.edits);
            assert!(fixed.contains("\"r\"(off)"), "{fixed}");
            let after = check(
                &SourceFile::new("x.cu", fixed.as_str()),
                &AnalysisContext::default(),
                &Options::default(),
            );
            assert!(
                after.iter().all(
                    |d| d.rule != "address-register-width" && d.rule != "operand-size-mismatch"
                ),
                "{space}: {after:#?}"
            );
        }
    }
}
