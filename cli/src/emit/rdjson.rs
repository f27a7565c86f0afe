//! reviewdog's diagnostic format (rdjson: one `DiagnosticResult`), so that reviewdog posts
//! findings as review comments and fixes as suggested changes. Defined by
//! <https://github.com/reviewdog/reviewdog/blob/master/proto/rdf/reviewdog.proto>: lines are
//! 1-based, columns are 1-based UTF-8 byte counts, range ends are exclusive.

use super::{applicability_str, FileReport};
use ptxguard_analyzer::{Diagnostic, Edit, Severity, SourceFile, Span};
use serde_json::{json, Value};
use std::io::{self, Write};

pub(crate) fn emit(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let diagnostics: Vec<Value> = reports
        .iter()
        .flat_map(|r| {
            r.diagnostics.iter().enumerate().map(move |(i, d)| {
                let mut v = diagnostic(&r.display, &r.source, d);
                // rdjson has no field for evidence: the review comment says it.
                if let (Some(c), Some(m)) = (r.confirmation(i), v["message"].as_str()) {
                    v["message"] = Value::String(format!("{m}\n\nconfirm: {}", c.line()));
                }
                v
            })
        })
        .collect();
    let result = json!({
        "source": { "name": "ptxguard" },
        "diagnostics": diagnostics,
    });
    serde_json::to_writer_pretty(&mut *out, &result)?;
    writeln!(out)
}

/// A 1-based line and a 1-based column in UTF-8 bytes.
fn position(file: &SourceFile, offset: usize) -> Value {
    let line = file.line_index(offset);
    let column = offset - file.line_start(line) + 1;
    json!({ "line": line + 1, "column": column })
}

fn range(file: &SourceFile, span: Span) -> Value {
    json!({
        "start": position(file, span.start as usize),
        "end": position(file, span.end as usize),
    })
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "ERROR",
        Severity::Warning => "WARNING",
        Severity::Info => "INFO",
    }
}

fn diagnostic(display: &str, file: &SourceFile, d: &Diagnostic) -> Value {
    let mut message = d.message.clone();
    for extra in [&d.note, &d.help].into_iter().flatten() {
        message.push_str("\n\n");
        message.push_str(extra);
    }
    if let Some(fix) = &d.fix {
        message.push_str(&format!(
            "\n\nfix ({}): {}",
            applicability_str(fix.applicability),
            fix.message
        ));
    }
    let suggestions: Vec<Value> = d
        .fix
        .as_ref()
        .and_then(|f| suggestion(file, &f.edits))
        .into_iter()
        .collect();
    let related: Vec<Value> = d
        .labels
        .iter()
        .map(|l| {
            json!({
                "message": l.message,
                "location": { "path": display, "range": range(file, l.span) },
            })
        })
        .collect();
    json!({
        "message": message,
        "location": { "path": display, "range": range(file, d.span) },
        "severity": severity(d.severity),
        "source": { "name": "ptxguard" },
        "code": { "value": d.rule },
        "suggestions": suggestions,
        "related_locations": related,
    })
}

/// The fix as one suggestion: reviewdog turns each suggestion into a separate suggested change,
/// so a fix with several edits becomes one replacement of the whole lines they touch.
fn suggestion(file: &SourceFile, edits: &[Edit]) -> Option<Value> {
    match edits {
        [] => None,
        [edit] => Some(json!({ "range": range(file, edit.span), "text": edit.replacement })),
        _ => {
            let text = &file.text;
            let first = edits.iter().map(|e| e.span.start as usize).min()?;
            let last = edits.iter().map(|e| e.span.end as usize).max()?;
            let start = file.line_start(file.line_index(first));
            let end = text[last..].find('\n').map_or(text.len(), |n| last + n);
            let mut sorted: Vec<&Edit> = edits.iter().collect();
            sorted.sort_by_key(|e| e.span.start);
            let mut replaced = String::new();
            let mut at = start;
            for e in sorted {
                let (s, t) = (e.span.start as usize, e.span.end as usize);
                if s < at || t > end {
                    return None; // overlapping edits: no coherent suggestion
                }
                replaced.push_str(&text[at..s]);
                replaced.push_str(&e.replacement);
                at = t;
            }
            replaced.push_str(&text[at..end]);
            let whole = Span::new(start, end);
            Some(json!({ "range": range(file, whole), "text": replaced }))
        }
    }
}
