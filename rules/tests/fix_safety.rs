//! Fixes never break what the rule cannot see in its own statement: syntax a macro provides
//! (a comma, a whole `: "memory"` section) and escapes written before the edit.

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::diag::apply_edits;
use ptxguard_analyzer::SourceFile;
use ptxguard_rules::{all_rules, check, Options};

fn every_rule() -> Options {
    Options {
        only: Some(all_rules().iter().map(|r| r.name).collect()),
        ..Options::default()
    }
}

/// The fixes offered on `text`, by rule, with the text each one gives.
fn fixes(text: &str) -> Vec<(&'static str, String)> {
    let file = SourceFile::new("k.cu", text);
    check(&file, &AnalysisContext::default(), &every_rule())
        .into_iter()
        .filter_map(|d| {
            let fix = d.fix?;
            Some((d.rule, apply_edits(text, &fix.edits).0))
        })
        .collect()
}

#[test]
fn no_fix_edits_syntax_a_macro_may_provide() {
    let text = "#define MEM : \"memory\"\n#define COMMA ,\n__device__ void f(int* p, int a, int b) {\n  int v;\n  asm volatile(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(v) : \"l\"(p) MEM);\n  asm volatile(\"add.u32 %0, %1, %2;\" : \"=r\"(v) : \"r\"(a) COMMA \"r\"(b));\n}\n";
    let offered = fixes(text);
    for (rule, fixed) in &offered {
        let statements: String = fixed.lines().filter(|l| l.contains("asm")).collect();
        assert!(
            !statements.contains(": \"memory\"")
                && !statements.contains("MEM,")
                && !statements.contains(", COMMA"),
            "{rule} edits around a macro:\n{fixed}"
        );
    }
    // Edits inside an operand's expression stay offered.
    assert!(
        offered
            .iter()
            .any(|(rule, fixed)| *rule == "generic-address"
                && fixed.contains("(__cvta_generic_to_global(p)) MEM")),
        "{offered:?}"
    );
}

/// `asm goto`'s labels are C++ labels, not macros: its fixes stay offered.
#[test]
fn goto_labels_are_not_macros() {
    let text = "__device__ void f(int* p, int a) {\n  asm goto(\"atom.global.add.u32 %0, [%0], 1;\" :: \"l\"(p) :: done);\ndone:\n  return;\n}\n";
    let rules: Vec<&str> = fixes(text).into_iter().map(|(r, _)| r).collect();
    assert!(rules.contains(&"missing-memory-clobber"), "{rules:?}");
}

#[test]
fn the_same_fixes_without_macros_are_offered() {
    let text = "__device__ void f(int* p, int a, int b) {\n  int v;\n  asm volatile(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(v) : \"l\"(p));\n  asm volatile(\"add.u32 %0, %1, %2;\" : \"=r\"(v) : \"r\"(a) \"r\"(b));\n}\n";
    let rules: Vec<&str> = fixes(text).into_iter().map(|(r, _)| r).collect();
    assert!(rules.contains(&"missing-memory-clobber"), "{rules:?}");
    assert!(rules.contains(&"missing-operand-comma"), "{rules:?}");
}

#[test]
fn removing_a_modifier_never_joins_an_escape_and_a_digit() {
    let text = "__device__ void g(float a) {\n  float v;\n  asm volatile(\"mov.b32 \\x25h0, %1;\" : \"=f\"(v) : \"f\"(a));\n  asm volatile(\"mov.b32 %0, \\45h1;\" : \"=f\"(v) : \"f\"(a));\n}\n";
    let fixed: Vec<String> = fixes(text)
        .into_iter()
        .filter(|(rule, _)| *rule == "unsupported-modifier")
        .map(|(_, t)| t)
        .collect();
    assert_eq!(fixed.len(), 2, "{fixed:?}");
    assert!(fixed[0].contains("\"mov.b32 %0, %1;\""), "{}", fixed[0]);
    assert!(fixed[1].contains("\"mov.b32 %0, %1;\""), "{}", fixed[1]);
    for f in &fixed {
        assert!(!f.contains("\\x250") && !f.contains("\\451"), "{f}");
    }
}

/// An operand written across a line splice (`p\` + newline): a fix that copies its text into
/// a one-line replacement would leave a stray `\` (`__cvta_generic_to_global(p\)`, found by
/// the `fix-cpp` fuzz target); such a fix is withheld.
#[test]
fn no_fix_leaves_a_stray_backslash() {
    let text = "__device__ void f(int* p, float g) {\n  float f;\n  asm volatile(\"atom.global.add.u32 %0, [%1], 1;\" : \"=f\"(f) : \"l\"(p\\\n), \"f\"(g) : \"memory\");\n}\n";
    for (rule, fixed) in fixes(text) {
        let stray = fixed.match_indices('\\').any(|(i, _)| {
            !fixed[i + 1..].starts_with('\n') && !fixed[..i].ends_with("%0, [%1], 1;")
        });
        assert!(!stray, "{rule}:\n{fixed}");
    }
}
