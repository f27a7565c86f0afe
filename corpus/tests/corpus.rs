//! Runs every corpus case and checks its expectations; fails listing every mismatch.

use ptxguard_analyzer::SourceFile;
use ptxguard_corpus::{case_files, cases_root, check_case, compare, expectations, snapshot};

#[test]
fn every_case_matches_its_expectations() {
    let files = case_files(&cases_root());
    let mut failures = Vec::new();
    for path in &files {
        let file = SourceFile::read(path).expect("readable case");
        let expected = match expectations(&file.text) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let diagnostics = check_case(&file);
        for problem in compare(&file, &diagnostics, &expected) {
            failures.push(format!(
                "{}: {problem}",
                path.strip_prefix(cases_root()).unwrap_or(path).display()
            ));
        }
    }
    println!("{} corpus files checked", files.len());
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_has_cases_that_fire_and_cases_that_stay_quiet() {
    let root = cases_root();
    let mut missing = Vec::new();
    for rule in ptxguard_rules::all_rules() {
        let dir = root.join(rule.name);
        let files = case_files(&dir);
        let bad = files
            .iter()
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("bad"))
            .count();
        let good = files
            .iter()
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("good"))
            .count();
        if bad < 3 || good < 3 {
            missing.push(format!("{}: {bad} bad, {good} good", rule.name));
        }
    }
    assert!(
        missing.is_empty(),
        "rules without 3 bad and 3 good cases:\n{}",
        missing.join("\n")
    );
}

/// Each bad case's concise output and safe-fixed text match the files beside it
/// (`bad-x.cu.out`, `bad-x.cu.fixed`); `PTXGUARD_BLESS=1` rewrites them instead.
#[test]
fn every_bad_case_matches_its_expected_output() {
    let bless = std::env::var(snapshot::BLESS_VARIABLE).is_ok_and(|v| v != "0");
    let root = cases_root();
    let mut problems = Vec::new();
    for path in case_files(&root)
        .iter()
        .filter(|p| snapshot::has_snapshot(p))
    {
        let file = SourceFile::read(path).expect("readable case");
        let diagnostics = check_case(&file);
        if diagnostics.is_empty() {
            problems.push(format!(
                "{}: a bad case whose rules say nothing (an empty snapshot)",
                path.display()
            ));
        }
        problems.extend(snapshot::check_case(path, &file, &diagnostics, bless));
    }
    for orphan in snapshot::orphans(&root) {
        if bless {
            let _ = std::fs::remove_file(&orphan);
        } else {
            problems.push(format!("{}: its case is gone", orphan.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "{} expected-output file(s) differ from what the rules say now:\n{}\n\nIf the change is intended, rewrite them with:\n    {}\nand review the diff.",
        problems.len(),
        problems.join("\n"),
        snapshot::BLESS_COMMAND
    );
}
