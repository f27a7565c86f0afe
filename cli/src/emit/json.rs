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

/// One report's findings, with their confirmations.
fn report_findings(r: &FileReport) -> impl Iterator<Item = JsonFinding> + '_ {
    r.diagnostics
        .iter()
        .enumerate()
        .map(move |(i, d)| JsonFinding {
            confirmation: r.confirmation(i).cloned(),
            ..json_finding(&r.display, &r.source, d)
        })
}

fn findings(reports: &[FileReport]) -> impl Iterator<Item = JsonFinding> + '_ {
    reports.iter().flat_map(report_findings)
}

/// The findings of one report, each as `serde_json::to_vec_pretty` writes an element of an
/// array (two spaces deeper: a JSON string holds no raw line break, so every line is indented).
fn array_elements(report: &FileReport) -> io::Result<Vec<Vec<u8>>> {
    report_findings(report)
        .map(|finding| {
            let alone = serde_json::to_vec_pretty(&finding)?;
            let mut element = Vec::with_capacity(alone.len() + alone.len() / 8);
            for line in alone.split(|&b| b == b'\n') {
                element.extend_from_slice(b"  ");
                element.extend_from_slice(line);
                element.push(b'\n');
            }
            element.pop();
            Ok(element)
        })
        .collect()
}

/// The same text as `serde_json::to_writer_pretty` of all findings, made per report in
/// parallel and written once (serde writes many small pieces, each a dynamic call on `out`).
pub(crate) fn emit_array(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    use rayon::prelude::*;
    let per_report: Vec<Vec<Vec<u8>>> = reports
        .par_iter()
        .map(array_elements)
        .collect::<io::Result<_>>()?;
    let elements: Vec<&Vec<u8>> = per_report.iter().flatten().collect();
    if elements.is_empty() {
        return out.write_all(b"[]\n");
    }
    let size = elements.iter().map(|e| e.len() + 2).sum::<usize>() + 4;
    let mut text = Vec::with_capacity(size);
    text.extend_from_slice(b"[\n");
    for (k, element) in elements.iter().enumerate() {
        if k > 0 {
            text.extend_from_slice(b",\n");
        }
        text.extend_from_slice(element);
    }
    text.extend_from_slice(b"\n]\n");
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

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity, Span};
    use std::sync::Arc;

    fn report(name: &str, text: &str, diagnostics: Vec<Diagnostic>) -> FileReport {
        FileReport {
            display: name.to_string(),
            source: Arc::new(SourceFile::new(name, text.to_string())),
            diagnostics,
            confirmations: Vec::new(),
        }
    }

    /// The array made per report is the text serde writes for all findings at once.
    #[test]
    fn array_is_serde_pretty_text() {
        let text = "asm(\"mov.u32 %0, 1;\" : \"=r\"(x));\n// \"quoted\"\tand \\ escapes, \u{e9}\n";
        let span = |a: u32, b: u32| Span { start: a, end: b };
        let plain = Diagnostic::new(
            "ptx-syntax",
            Severity::Error,
            span(0, 3),
            "one \"two\"\nthree".to_string(),
        );
        let rich = Diagnostic::new(
            "missing-volatile",
            Severity::Warning,
            span(5, 12),
            "m".to_string(),
        )
        .with_label(span(20, 25), "label \\ here".to_string())
        .with_note("a note")
        .with_fix(Fix::safe("add", vec![Edit::insert(3, " volatile")]));
        let reports = [
            report("a.cu", text, vec![plain.clone(), rich.clone()]),
            report("empty.cu", text, vec![]),
            report("b \"c\".cu", text, vec![rich]),
        ];
        for reports in [&reports[..], &reports[1..2], &[][..]] {
            let mut ours = Vec::new();
            emit_array(reports, &mut ours).unwrap();
            let all: Vec<JsonFinding> = findings(reports).collect();
            let mut serde = serde_json::to_vec_pretty(&all).unwrap();
            serde.push(b'\n');
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                String::from_utf8(serde).unwrap()
            );
        }
    }
}
