//! The corpus runner: reads the expectations written in our CUDA test cases and compares
//! them with what the rules report.
//!
//! Expectation syntax (in comments of the case files):
//! - `// expect: rule-a, rule-b` or `/* expect: rule */`: a diagnostic of each rule starts
//!   on this line; `rule(warning)` also checks its severity.
//! - `// expect@+N: rule` / `// expect@-N: rule`: on the line N below / above.
//! - In Python cases the comments are `# expect: rule`.
//!
//! Every diagnostic must be expected and every expectation met.

pub mod snapshot;

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::isa::Target;
use ptxguard_analyzer::{Diagnostic, Severity, SourceFile};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// 1-based line where the diagnostic must start.
    pub line: usize,
    pub rule: String,
    pub severity: Option<Severity>,
}

/// Reads the expectations of a case file.
pub fn expectations(text: &str) -> Result<Vec<Expectation>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("expect") {
            let after = &rest[at + "expect".len()..];
            rest = after;
            let before = &line[..line.len() - after.len() - "expect".len()];
            let before = before.trim_end();
            if !(before.ends_with("//") || before.ends_with("/*") || before.ends_with('#')) {
                continue;
            }
            let (offset, after) = if let Some(rel) = after.strip_prefix('@') {
                let end = rel
                    .find(':')
                    .ok_or_else(|| format!("line {}: `expect@` without `:`", i + 1))?;
                let n: i64 = rel[..end]
                    .trim()
                    .trim_start_matches('+')
                    .parse()
                    .map_err(|_| format!("line {}: bad offset `{}`", i + 1, &rel[..end]))?;
                (n, &rel[end..])
            } else {
                (0, after)
            };
            let Some(list) = after.strip_prefix(':') else {
                continue;
            };
            let list = list.split("*/").next().unwrap_or("");
            let target = (i as i64 + 1 + offset) as usize;
            for item in list.split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                let (rule, severity) = match item.split_once('(') {
                    Some((r, s)) => {
                        let s = s.trim_end_matches(')');
                        (
                            r.trim(),
                            Some(Severity::parse(s).ok_or_else(|| {
                                format!("line {}: unknown severity `{s}`", i + 1)
                            })?),
                        )
                    }
                    None => (item, None),
                };
                if ptxguard_rules::rule(rule).is_none() {
                    return Err(format!("line {}: unknown rule `{rule}`", i + 1));
                }
                out.push(Expectation {
                    line: target,
                    rule: rule.to_string(),
                    severity,
                });
            }
        }
    }
    Ok(out)
}

/// The findings of a case, as `ptxguard check CASE` reports them: the file checked alone, so a
/// function compiled only where used that the case does not use is nobody's
/// ([`ptxguard_analyzer::reach`]).
pub fn check_case(file: &ptxguard_analyzer::SourceFile) -> Vec<ptxguard_analyzer::Diagnostic> {
    let (context, options) = case_options(&file.text);
    let mut diagnostics = ptxguard_rules::check(file, &context, &options);
    ptxguard_analyzer::reach::settle([(file.path.as_path(), &mut diagnostics)], |_| {
        Default::default()
    });
    diagnostics
}

/// How a case is checked, from its header lines: `// targets: sm_75, sm_80` (what it is
/// built for; else inferred, as in `check`; a name that is no target fails the test) and
/// `// portability: clang` (as the configuration's `portability`). `#` instead of `//` in
/// Python cases.
pub fn case_options(text: &str) -> (AnalysisContext, ptxguard_rules::Options) {
    let header = |key: &str| -> Vec<String> {
        text.lines()
            .find_map(|l| {
                let l = l.trim();
                let l = l.strip_prefix("//").or_else(|| l.strip_prefix('#'))?;
                l.trim_start().strip_prefix(key)
            })
            .map(|list| {
                list.split(',')
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    };
    let context = AnalysisContext {
        targets: header("targets:")
            .iter()
            .map(|t| Target::parse(t).unwrap_or_else(|| panic!("`// targets: {t}`: not a target")))
            .collect(),
        ..AnalysisContext::default()
    };
    let options = ptxguard_rules::Options {
        portability: header("portability:")
            .iter()
            .filter_map(|c| ptxguard_rules::Compiler::parse(c))
            .collect(),
        ..Default::default()
    };
    (context, options)
}

/// Compares a file's diagnostics with its expectations; returns the problems found.
pub fn compare(
    file: &SourceFile,
    diagnostics: &[Diagnostic],
    expected: &[Expectation],
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut by_line: BTreeMap<(usize, &str), Vec<&Diagnostic>> = BTreeMap::new();
    for d in diagnostics {
        let (line, _) = file.line_col(d.span.start as usize);
        by_line.entry((line, d.rule)).or_default().push(d);
    }
    for e in expected {
        match by_line.get(&(e.line, e.rule.as_str())) {
            None => problems.push(format!(
                "line {}: expected `{}`, got nothing",
                e.line, e.rule
            )),
            Some(found) => {
                if let Some(sev) = e.severity {
                    if !found.iter().any(|d| d.severity == sev) {
                        problems.push(format!(
                            "line {}: expected `{}` as {}, got {}",
                            e.line,
                            e.rule,
                            sev.as_str(),
                            found[0].severity.as_str()
                        ));
                    }
                }
            }
        }
    }
    for ((line, rule), found) in &by_line {
        if !expected.iter().any(|e| e.line == *line && e.rule == *rule) {
            for d in found {
                problems.push(format!(
                    "line {line}: unexpected `{rule}` ({}): {}",
                    d.severity.as_str(),
                    d.message
                ));
            }
        }
    }
    problems
}

/// Every `.cu`/`.cuh`/`.py` case under a folder, sorted.
pub fn case_files(root: &Path) -> Vec<PathBuf> {
    files_under(root, |p| {
        p.extension()
            .is_some_and(|e| e == "cu" || e == "cuh" || e == "py")
    })
}

/// Every file under a folder that `keep` accepts, sorted.
pub fn files_under(root: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if keep(&path) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

pub fn cases_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cases")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_expectation_form() {
        let text = "a // expect: percent-escape, operand-index(error)\nb /* expect: unused-operand */ \\\nc\n// expect@-3: missing-volatile\n// expect@+1: ptx-syntax\n";
        let e = expectations(text).unwrap();
        let got: Vec<(usize, &str)> = e.iter().map(|x| (x.line, x.rule.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (1, "percent-escape"),
                (1, "operand-index"),
                (2, "unused-operand"),
                (1, "missing-volatile"),
                (6, "ptx-syntax")
            ]
        );
        assert_eq!(e[1].severity, Some(Severity::Error));
    }

    #[test]
    fn unknown_rules_are_errors() {
        assert!(expectations("// expect: no-such-rule").is_err());
        let py =
            expectations("x = 1  # expect: pack-mismatch\n# expect@+1: percent-escape\n").unwrap();
        assert_eq!(py.len(), 2);
        assert_eq!((py[1].line, py[1].rule.as_str()), (3, "percent-escape"));
    }

    #[test]
    fn compare_reports_missing_and_unexpected() {
        let file = SourceFile::new("x.cu", "line1\nline2\n");
        let d = Diagnostic::new(
            "operand-index",
            Severity::Error,
            ptxguard_analyzer::Span::new(6, 7),
            "m",
        );
        let exp = vec![Expectation {
            line: 1,
            rule: "percent-escape".into(),
            severity: None,
        }];
        let problems = compare(&file, &[d], &exp);
        assert_eq!(problems.len(), 2, "{problems:?}");
    }
}
