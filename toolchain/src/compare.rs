//! ptxguard's findings held against what the toolchain said: which it confirmed, which only a
//! run can show, and which errors ptxguard did not predict (`ptxguard confirm` and the GPU
//! harness both use it).

use crate::build::Build;
use crate::locate::{locate, Located};
use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::{Diagnostic, Severity, SourceFile};

/// Rules whose findings are mistakes the toolchain rejects (when the build reaches them);
/// the others are silent: only running the code shows them. `address-register-width` is both:
/// ptxas rejects a 32-bit generic or global address of most instructions, but accepts it for
/// some (`cp.async`'s global source, `.const`, see `rules/data/address-width-probe.tsv`), and then
/// only a run shows the truncated address.
pub const TOOLCHAIN_RULES: &[&str] = &[
    "arch-requirement",
    "operand-index",
    "operand-size-mismatch",
    "operand-type-mismatch",
    "percent-escape",
    "ptx-syntax",
    "unscoped-declaration",
    "unsupported-constraint",
    "unsupported-modifier",
];

/// Whether the toolchain can show a rule's findings (else only a run can).
pub fn toolchain_detects(rule: &str) -> bool {
    TOOLCHAIN_RULES.contains(&rule)
}

/// One finding and what the toolchain said about it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FindingResult {
    pub rule: &'static str,
    pub severity: Severity,
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// `confirmed`, `run-only`, or `not-reproduced` from the messages of one build;
    /// `ptxguard confirm` replaces it with the finding's own evidence
    /// ([`crate::evidence::judge`]: also `bites`, `no-effect`, `not-decidable`).
    pub verdict: &'static str,
    /// The toolchain messages at the same statement.
    pub evidence: Vec<String>,
    /// One line on the verdict: what changed, or why nothing did, or why it cannot be told.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The build the verdict comes from: its target and the command without the fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build: Option<BuildUsed>,
}

/// The build a verdict came from.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BuildUsed {
    /// `sm_90`; empty for nvcc's default. The file's `command` is the build (for its first
    /// target; the others differ only in `-arch`/`-code`).
    pub target: String,
    /// The fix applied alone for the second build.
    pub fix: String,
}

/// The comparison for one file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FileReport {
    pub file: String,
    pub command: Vec<String>,
    pub build_succeeded: bool,
    pub findings: Vec<FindingResult>,
    /// Errors at asm statements ptxguard reported nothing on.
    pub not_predicted: Vec<Located>,
    /// Errors not traced to an asm statement (ordinary C++ errors, link errors...).
    pub elsewhere: Vec<Located>,
    /// Where the build's flags came from (`confirm`: the command line or a compilation
    /// database entry).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags_from: Option<String>,
    /// Why the build could not reach the asm statements, when the toolchain's limits stopped it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn within(d: &Diagnostic, s: &AsmStatement) -> bool {
    d.span.start >= s.span.start && d.span.start <= s.span.end
}

/// Compares a build with the findings.
pub fn compare(
    file: &SourceFile,
    statements: &[AsmStatement],
    findings: &[Diagnostic],
    build: &Build,
) -> FileReport {
    let located = locate(file, statements, build);
    let mut results = Vec::new();
    for d in findings {
        let stmt = statements.iter().position(|s| within(d, s));
        let evidence: Vec<String> = located
            .iter()
            .filter(|l| l.statement.is_some() && l.statement == stmt)
            .map(|l| format!("{}: {}", l.message.tool.as_str(), l.message.text))
            .collect();
        let verdict = if !evidence.is_empty() {
            "confirmed"
        } else if toolchain_detects(d.rule) {
            "not-reproduced"
        } else {
            "run-only"
        };
        let (line, column) = file.line_col(d.span.start as usize);
        results.push(FindingResult {
            rule: d.rule,
            severity: d.severity,
            line,
            column,
            message: d.message.clone(),
            verdict,
            evidence,
            detail: None,
            build: None,
        });
    }
    let flagged: Vec<Option<usize>> = findings
        .iter()
        .map(|d| statements.iter().position(|s| within(d, s)))
        .collect();
    let (mut not_predicted, mut elsewhere) = (Vec::new(), Vec::new());
    for l in located {
        match l.statement {
            Some(i) if !flagged.contains(&Some(i)) => not_predicted.push(l),
            Some(_) => {}
            None => elsewhere.push(l),
        }
    }
    FileReport {
        file: file.path.display().to_string(),
        command: build.command.clone(),
        build_succeeded: build.success,
        findings: results,
        not_predicted,
        elsewhere,
        flags_from: None,
        note: None,
    }
}

/// The findings `confirm` compares: default-enabled rules, warnings and errors.
pub fn findings_for(
    file: &SourceFile,
    targets: &[ptxguard_analyzer::isa::Target],
) -> Vec<Diagnostic> {
    let context = AnalysisContext {
        targets: targets.to_vec(),
        ..AnalysisContext::default()
    };
    findings_with(file, &context)
}

/// The same with a build context (a compilation database's).
pub fn findings_with(file: &SourceFile, context: &AnalysisContext) -> Vec<Diagnostic> {
    findings_at_least(file, context, Severity::Warning)
}

/// The findings of the default rules at `least` or above.
pub fn findings_at_least(
    file: &SourceFile,
    context: &AnalysisContext,
    least: Severity,
) -> Vec<Diagnostic> {
    ptxguard_rules::check(file, context, &ptxguard_rules::Options::default())
        .into_iter()
        .filter(|d| d.severity >= least)
        .filter(|d| ptxguard_rules::rule(d.rule).is_some_and(|r| r.default_enabled))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::statements::find_asm_statements;

    #[test]
    fn verdicts_without_errors() {
        let file = SourceFile::new("/src/k.cu", "__device__ void f(unsigned* p) { unsigned o; asm(\"atom.add.u32 %0, [%1], 1;\" : \"=r\"(o) : \"l\"(p)); }\n");
        let statements = find_asm_statements(&file);
        let build = Build {
            command: vec![],
            success: true,
            output: String::new(),
            messages: vec![],
            ptx: vec![],
        };
        let silent = Diagnostic::new("missing-volatile", Severity::Error, statements[0].span, "x");
        let loud = Diagnostic::new("arch-requirement", Severity::Error, statements[0].span, "y");
        let r = compare(&file, &statements, &[silent, loud], &build);
        assert_eq!(r.findings[0].verdict, "run-only");
        assert_eq!(r.findings[1].verdict, "not-reproduced");
    }
}
