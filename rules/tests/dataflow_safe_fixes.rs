//! The safe fixes of the effect and dataflow rules converge: applying one to a corpus case
//! makes its rule silent at that statement, nothing new fires, and there is nothing left to
//! apply a second time. Also for all the safe fixes of these rules applied together.

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::diag::apply_edits;
use ptxguard_analyzer::{Applicability, Diagnostic, SourceFile};
use ptxguard_rules::Options;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const RULES: &[&str] = &[
    "missing-volatile",
    "missing-memory-clobber",
    "write-to-input",
    "conditional-output",
    "output-read-before-write",
    "early-clobber",
];

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cases");
    let mut out = Vec::new();
    for rule in RULES {
        let Ok(dir) = std::fs::read_dir(root.join(rule)) else {
            continue;
        };
        for entry in dir.flatten() {
            let p = entry.path();
            if p.extension().is_some_and(|e| e == "cu") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn check(path: &Path, text: &str) -> (SourceFile, Vec<Diagnostic>) {
    let file = SourceFile::new(path.to_path_buf(), text.to_string());
    let diags = ptxguard_rules::check(&file, &AnalysisContext::default(), &Options::default());
    (file, diags)
}

/// `(rule, line)` of every diagnostic: fixes here never add or remove lines.
fn findings(file: &SourceFile, diags: &[Diagnostic]) -> BTreeSet<(&'static str, usize)> {
    diags
        .iter()
        .map(|d| (d.rule, file.line_index(d.span.start as usize)))
        .collect()
}

fn safe_fixes(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
    diags
        .iter()
        .filter(|d| RULES.contains(&d.rule))
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Safe)
        })
        .collect()
}

#[test]
fn each_safe_fix_converges() {
    let mut applied = 0;
    let mut failures = Vec::new();
    for path in cases() {
        let text = std::fs::read_to_string(&path).unwrap();
        let (file, before) = check(&path, &text);
        let before_set = findings(&file, &before);
        for d in safe_fixes(&before) {
            let fix = d.fix.as_ref().unwrap();
            let (fixed, n) = apply_edits(&text, &fix.edits);
            assert_eq!(n, fix.edits.len(), "{}: every edit applies", path.display());
            applied += 1;
            let (file2, after) = check(&path, &fixed);
            let after_set = findings(&file2, &after);
            let line = file.line_index(d.span.start as usize);
            if after_set.contains(&(d.rule, line)) {
                failures.push(format!(
                    "{}:{}: `{}` still fires after its fix:\n{fixed}",
                    path.display(),
                    line + 1,
                    d.rule
                ));
            }
            for new in after_set.difference(&before_set) {
                failures.push(format!(
                    "{}:{}: fixing `{}` made `{}` fire",
                    path.display(),
                    new.1 + 1,
                    d.rule,
                    new.0
                ));
            }
            // Nothing left to apply a second time for this rule here.
            let again = safe_fixes(&after)
                .into_iter()
                .filter(|a| a.rule == d.rule && file2.line_index(a.span.start as usize) == line)
                .count();
            if again > 0 {
                failures.push(format!(
                    "{}:{}: `{}` offers its fix again",
                    path.display(),
                    line + 1,
                    d.rule
                ));
            }
        }
    }
    assert!(
        applied >= 10,
        "only {applied} safe fixes found in the cases"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_safe_fixes_together_converge() {
    for path in cases() {
        let text = std::fs::read_to_string(&path).unwrap();
        let (file, before) = check(&path, &text);
        let fixes = safe_fixes(&before);
        if fixes.is_empty() {
            continue;
        }
        let edits: Vec<_> = fixes
            .iter()
            .flat_map(|d| d.fix.as_ref().unwrap().edits.iter().cloned())
            .collect();
        let (fixed, _) = apply_edits(&text, &edits);
        let (file2, after) = check(&path, &fixed);
        assert!(
            safe_fixes(&after).is_empty(),
            "{}: safe fixes left after applying them all:\n{fixed}",
            path.display()
        );
        let before_set = findings(&file, &before);
        let new: Vec<_> = findings(&file2, &after)
            .difference(&before_set)
            .cloned()
            .collect();
        assert!(new.is_empty(), "{}: new findings {new:?}", path.display());
    }
}
