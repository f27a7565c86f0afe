//! SARIF 2.1.0, as code scanning services read it.

use super::{range1, FileReport};
use crate::baseline;
use crate::registry::{self, fix_availability_str};
use ptxguard_analyzer::{Severity, SourceFile, Span};
use serde_json::{json, Value};
use std::path::Path;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// `address-register-width` -> `AddressRegisterWidth`.
fn pascal_case(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Character (code point) offsets: SARIF's `charOffset` counts characters, not bytes.
struct CharIndex<'a> {
    file: &'a SourceFile,
    line_char_starts: Vec<usize>,
}

impl<'a> CharIndex<'a> {
    fn new(file: &'a SourceFile) -> CharIndex<'a> {
        let mut starts = Vec::with_capacity(file.line_count());
        let mut chars = 0;
        for line in 0..file.line_count() {
            starts.push(chars);
            let from = file.line_start(line);
            let to = file.line_start(line + 1).min(file.text.len());
            chars += file.text[from..to].chars().count();
        }
        CharIndex {
            file,
            line_char_starts: starts,
        }
    }

    fn offset(&self, byte: usize) -> usize {
        let (line, col) = self.file.line_col(byte);
        self.line_char_starts[line - 1] + col - 1
    }

    fn region(&self, span: Span) -> Value {
        let r = range1(self.file, span);
        let start = self.offset(span.start as usize);
        let end = self.offset(span.end as usize);
        json!({
            "startLine": r.line,
            "startColumn": r.column,
            "endLine": r.end_line,
            "endColumn": r.end_column,
            "charOffset": start,
            "charLength": end - start,
        })
    }
}

/// A relative, `/`-separated, percent-encoded URI reference for a displayed path.
pub(crate) fn uri_for(display: &str) -> (String, bool) {
    let absolute = Path::new(display).is_absolute();
    let path = display.replace('\\', "/");
    let encoded = percent_encode_path(&path);
    if absolute {
        (format!("file://{encoded}"), true)
    } else {
        (encoded, false)
    }
}

pub fn percent_encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn artifact_location(display: &str) -> Value {
    let (uri, absolute) = uri_for(display);
    if absolute {
        json!({ "uri": uri })
    } else {
        json!({ "uri": uri, "uriBaseId": "%SRCROOT%" })
    }
}

pub fn sarif_log(reports: &[FileReport], root: &Path) -> Value {
    sarif_log_with(reports, root, &super::Problems::default())
}

/// The log with the run's problems as `invocations`: whether it succeeded, and a notification
/// for each file it could not check.
pub(crate) fn sarif_log_with(
    reports: &[FileReport],
    root: &Path,
    problems: &super::Problems,
) -> Value {
    let rules = registry::known_rules();
    let rule_descriptors: Vec<Value> = rules
        .iter()
        .map(|r| {
            json!({
                "id": r.name,
                "name": pascal_case(r.name),
                "shortDescription": { "text": r.summary },
                "fullDescription": { "text": registry::first_paragraph(r) },
                "help": { "text": registry::docs_text(r), "markdown": registry::docs_text(r) },
                "defaultConfiguration": {
                    "level": level(r.default_severity),
                    "enabled": r.default_enabled,
                },
                "properties": {
                    "fix": fix_availability_str(r.fix),
                    "tags": ["ptx", "cuda"],
                },
            })
        })
        .collect();
    let mut results = Vec::new();
    for report in reports {
        let index = CharIndex::new(&report.source);
        let fingerprints = baseline::fingerprints(&report.source, &report.diagnostics);
        for (i, (d, fingerprint)) in report.diagnostics.iter().zip(fingerprints).enumerate() {
            let mut result = json!({
                "ruleId": d.rule,
                "level": level(d.severity),
                "message": { "text": sarif_message(d) },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": artifact_location(&report.display),
                        "region": index.region(d.span),
                    }
                }],
                "partialFingerprints": { "ptxguardFingerprint/v1": fingerprint },
            });
            if let Some(i) = rules.iter().position(|r| r.name == d.rule) {
                result["ruleIndex"] = json!(i);
            }
            if !d.labels.is_empty() {
                result["relatedLocations"] = Value::Array(
                    d.labels
                        .iter()
                        .enumerate()
                        .map(|(i, l)| {
                            json!({
                                "id": i,
                                "message": { "text": l.message },
                                "physicalLocation": {
                                    "artifactLocation": artifact_location(&report.display),
                                    "region": index.region(l.span),
                                }
                            })
                        })
                        .collect(),
                );
            }
            if let Some(c) = report.confirmation(i) {
                // A property bag: SARIF has no field for evidence from a build.
                result["properties"] = json!({ "confirmation": c });
            }
            if let Some(fix) = &d.fix {
                result["fixes"] = json!([{
                    "description": { "text": fix.message },
                    "artifactChanges": [{
                        "artifactLocation": artifact_location(&report.display),
                        "replacements": fix.edits.iter().map(|e| json!({
                            "deletedRegion": index.region(e.span),
                            "insertedContent": { "text": e.replacement },
                        })).collect::<Vec<_>>(),
                    }],
                    "properties": { "applicability": super::applicability_str(fix.applicability) },
                }]);
            }
            results.push(result);
        }
    }
    let root_uri = format!(
        "file://{}/",
        percent_encode_path(root.to_string_lossy().trim_end_matches('/'))
    );
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "ptxguard",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rule_descriptors,
                }
            },
            "originalUriBaseIds": { "%SRCROOT%": { "uri": root_uri } },
            "columnKind": "unicodeCodePoints",
            "invocations": [invocation(problems)],
            "results": results,
        }]
    })
}

fn invocation(problems: &super::Problems) -> Value {
    let notifications: Vec<Value> = [("error", &problems.errors), ("warning", &problems.warnings)]
        .into_iter()
        .flat_map(|(level, lines)| {
            lines
                .iter()
                .map(move |line| json!({ "level": level, "message": { "text": line } }))
        })
        .collect();
    let mut invocation = json!({ "executionSuccessful": problems.errors.is_empty() });
    if !notifications.is_empty() {
        invocation["toolExecutionNotifications"] = Value::Array(notifications);
    }
    invocation
}

/// The message with its note and help, which SARIF viewers show in full.
fn sarif_message(d: &ptxguard_analyzer::Diagnostic) -> String {
    let mut text = d.message.clone();
    if let Some(note) = &d.note {
        text.push_str(&format!("\nnote: {note}"));
    }
    if let Some(help) = &d.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_uris() {
        assert_eq!(
            pascal_case("address-register-width"),
            "AddressRegisterWidth"
        );
        assert_eq!(uri_for("src/a b.cu"), ("src/a%20b.cu".into(), false));
        assert_eq!(uri_for("/x/é.cu").0, "file:///x/%C3%A9.cu");
    }
}
