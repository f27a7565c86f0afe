//! Every rule the CLI knows: the rules crate's registry plus the rules the CLI itself reports.

use ptxguard_analyzer::Severity;
use ptxguard_rules::{FixAvailability, RuleMeta};
use std::sync::OnceLock;

pub const UNUSED_SUPPRESSION: &str = "unused-suppression";

static UNUSED_SUPPRESSION_META: RuleMeta = RuleMeta {
    name: UNUSED_SUPPRESSION,
    default_severity: Severity::Warning,
    fix: FixAvailability::Safe,
    default_enabled: true,
    summary: "a `// ptxguard: allow(...)` comment that suppresses nothing",
    docs: include_str!("unused_suppression.md"),
};

/// Not a rule: how `check` reports a file whose analysis panicked or ran out of its work
/// budget. Always on; the run exits with 2.
pub const ANALYSIS_FAILED: &str = "analysis-failed";

static ANALYSIS_FAILED_META: RuleMeta = RuleMeta {
    name: ANALYSIS_FAILED,
    default_severity: Severity::Error,
    fix: FixAvailability::None,
    default_enabled: true,
    summary: "a file ptxguard could not check: an internal error or the work budget ran out",
    docs: "ptxguard reports a file it could not check (a bug in one of its phases, or a pathological input that ran past the per-file work budget) with this finding at the start of the file, naming the phase or rule. The other files are checked as usual; the run exits with 2.",
};

/// Rules reported by the CLI rather than by the rules crate.
fn cli_rules() -> [&'static RuleMeta; 2] {
    [&UNUSED_SUPPRESSION_META, &ANALYSIS_FAILED_META]
}

/// Every rule, the rules crate's first, in a stable order.
pub fn known_rules() -> &'static [&'static RuleMeta] {
    static RULES: OnceLock<Vec<&'static RuleMeta>> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut rules: Vec<&'static RuleMeta> = ptxguard_rules::all_rules().to_vec();
        for meta in cli_rules() {
            if !rules.iter().any(|r| r.name == meta.name) {
                rules.push(meta);
            }
        }
        rules
    })
}

pub fn find_rule(name: &str) -> Option<&'static RuleMeta> {
    known_rules().iter().copied().find(|r| r.name == name)
}

/// The known rule name closest to `name`, when one is close enough to be a typo.
pub fn suggest_rule(name: &str) -> Option<&'static str> {
    suggest(name, known_rules().iter().map(|r| r.name))
}

/// "unknown rule `x`; did you mean `y`?"
pub fn unknown_rule_message(name: &str) -> String {
    match suggest_rule(name) {
        Some(s) => format!("unknown rule `{name}`; did you mean `{s}`?"),
        None => format!("unknown rule `{name}` (`ptxguard rules` lists them)"),
    }
}

/// The candidate most similar to `word`, if it is similar enough to be what was meant.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word_lower = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            (
                strsim::jaro_winkler(&word_lower, &c.to_ascii_lowercase()),
                c,
            )
        })
        .filter(|&(score, _)| score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// A rule's documentation without the indentation its doc comment left on every line.
pub fn docs_text(rule: &RuleMeta) -> String {
    let indent = rule
        .docs
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let lines: Vec<&str> = rule
        .docs
        .lines()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect();
    lines.join("\n").trim().to_string() + "\n"
}

/// The first paragraph of prose in a rule's documentation (headings skipped).
pub fn first_paragraph(rule: &RuleMeta) -> String {
    let docs = docs_text(rule);
    docs.split("\n\n")
        .map(|p| {
            p.lines()
                .filter(|l| !l.trim_start().starts_with('#'))
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .find(|p| !p.is_empty())
        .unwrap_or_else(|| rule.summary.to_string())
}

pub fn fix_availability_str(fix: FixAvailability) -> &'static str {
    match fix {
        FixAvailability::None => "none",
        FixAvailability::Safe => "safe",
        FixAvailability::Unsafe => "unsafe",
        FixAvailability::Sometimes => "sometimes",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unused_suppression_is_always_known() {
        assert!(find_rule(UNUSED_SUPPRESSION).is_some());
    }

    #[test]
    fn docs_are_dedented_and_summarised() {
        let meta = RuleMeta {
            name: "x",
            default_severity: Severity::Info,
            fix: FixAvailability::None,
            default_enabled: true,
            summary: "s",
            docs: " ## What it does\n Flags a thing\n in two lines.\n\n ```cuda\n   code\n ```\n",
        };
        assert_eq!(
            docs_text(&meta),
            "## What it does\nFlags a thing\nin two lines.\n\n```cuda\n  code\n```\n"
        );
        assert_eq!(first_paragraph(&meta), "Flags a thing in two lines.");
    }

    #[test]
    fn suggestions_catch_typos_only() {
        let names = [
            "address-register-width",
            "missing-volatile",
            "unused-operand",
        ];
        assert_eq!(
            suggest("adress-register-width", names),
            Some("address-register-width")
        );
        assert_eq!(suggest("missing-volatil", names), Some("missing-volatile"));
        assert_eq!(suggest("zzz", names), None);
    }
}
