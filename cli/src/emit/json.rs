//! JSON output. Tools rely on the keys `rule severity message file line column end_line
//! end_column fix` and the shape of `fix`; other keys may be added, never renamed.

use super::{applicability_str, range1, FileReport};
use ptxguard_analyzer::{Diagnostic, SourceFile};
use serde::Serialize;
use std::io::{self, Write};

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonFinding {
    pub rule: String,
    pub severity: String,
    pub message: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub fix: Option<JsonFix>,
    pub note: Option<String>,
    pub help: Option<String>,
    pub labels: Vec<JsonLabel>,
    /// `check --confirm`: the evidence from the user's build.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<super::Confirmation>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonFix {
    pub applicability: String,
    pub message: String,
    pub edits: Vec<JsonEdit>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonEdit {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub replacement: String,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonLabel {
    pub message: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

pub fn json_finding(display: &str, file: &SourceFile, d: &Diagnostic) -> JsonFinding {
    let r = range1(file, d.span);
    JsonFinding {
        rule: d.rule.to_string(),
        severity: d.severity.as_str().to_string(),
        message: d.message.clone(),
        file: display.to_string(),
        line: r.line,
        column: r.column,
        end_line: r.end_line,
        end_column: r.end_column,
        fix: d.fix.as_ref().map(|f| JsonFix {
            applicability: applicability_str(f.applicability).to_string(),
            message: f.message.clone(),
            edits: f
                .edits
                .iter()
                .map(|e| {
                    let r = range1(file, e.span);
                    JsonEdit {
                        line: r.line,
                        column: r.column,
                        end_line: r.end_line,
                        end_column: r.end_column,
                        replacement: e.replacement.clone(),
                    }
                })
                .collect(),
        }),
        note: d.note.clone(),
        help: d.help.clone(),
        labels: d
            .labels
            .iter()
            .map(|l| {
                let r = range1(file, l.span);
                JsonLabel {
                    message: l.message.clone(),
                    line: r.line,
                    column: r.column,
                    end_line: r.end_line,
                    end_column: r.end_column,
                }
            })
            .collect(),
        confirmation: None,
    }
}

fn findings(reports: &[FileReport]) -> impl Iterator<Item = JsonFinding> + '_ {
    reports.iter().flat_map(|r| {
        r.diagnostics
            .iter()
            .enumerate()
            .map(move |(i, d)| JsonFinding {
                confirmation: r.confirmation(i).cloned(),
                ..json_finding(&r.display, &r.source, d)
            })
    })
}

/// Written in memory first: serde writes many small pieces, each a dynamic call on `out`.
pub(crate) fn emit_array(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let all: Vec<JsonFinding> = findings(reports).collect();
    let mut text = serde_json::to_vec_pretty(&all)?;
    text.push(b'\n');
    out.write_all(&text)
}

pub(crate) fn emit_lines(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let mut text = Vec::new();
    for finding in findings(reports) {
        serde_json::to_writer(&mut text, &finding)?;
        text.push(b'\n');
    }
    out.write_all(&text)
}
