//! Human output with source snippets, through codespan-reporting.

use super::{applicability_str, EmitOptions, FileReport};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::Buffer};
use ptxguard_analyzer::{Applicability, Diagnostic, Severity};
use std::io::{self, Write};

pub(crate) fn emit(
    reports: &[FileReport],
    out: &mut dyn Write,
    options: &EmitOptions,
) -> io::Result<()> {
    let config = term::Config::default();
    for report in reports {
        let file = SimpleFile::new(report.display.as_str(), report.source.text.as_str());
        for (i, d) in report.diagnostics.iter().enumerate() {
            let mut buffer = if options.color {
                Buffer::ansi()
            } else {
                Buffer::no_color()
            };
            let mut cs = to_codespan(d);
            if let Some(c) = report.confirmation(i) {
                cs.notes.push(format!("confirm: {}", c.line()));
            }
            term::emit_to_write_style(&mut buffer, &config, &file, &cs)
                .map_err(io::Error::other)?;
            out.write_all(buffer.as_slice())?;
        }
    }
    Ok(())
}

pub(crate) fn to_codespan(d: &Diagnostic) -> CsDiagnostic<()> {
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Info => CsSeverity::Note,
    };
    let mut labels = vec![Label::primary((), d.span.range())];
    labels.extend(
        d.labels
            .iter()
            .map(|l| Label::secondary((), l.span.range()).with_message(&l.message)),
    );
    let mut notes = Vec::new();
    if let Some(note) = &d.note {
        notes.push(format!("note: {note}"));
    }
    if let Some(help) = &d.help {
        notes.push(format!("help: {help}"));
    }
    if let Some(fix) = &d.fix {
        let how = match fix.applicability {
            Applicability::Safe => "`--fix` applies it",
            Applicability::Unsafe => "`--fix --unsafe-fixes` applies it; review the result",
        };
        notes.push(format!(
            "help: fix available ({}): {} ({how})",
            applicability_str(fix.applicability),
            fix.message
        ));
    }
    CsDiagnostic::new(severity)
        .with_code(d.rule)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(notes)
}
