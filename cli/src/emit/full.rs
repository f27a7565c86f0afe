//! Human output with source snippets, through codespan-reporting.

use super::{applicability_str, visible, EmitOptions, FileReport, VisibleSource};
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
        // The snippet shows control characters of the source, never sends them.
        let shown = VisibleSource::of(&report.source.text);
        let text = shown
            .as_ref()
            .map_or(report.source.text.as_str(), |s| &s.text);
        let map = |offset: usize| shown.as_ref().map_or(offset, |s| s.map(offset));
        let name = visible(&report.display);
        let file = SimpleFile::new(name.as_ref(), text);
        for d in &report.diagnostics {
            let mut buffer = if options.color {
                Buffer::ansi()
            } else {
                Buffer::no_color()
            };
            term::emit_to_write_style(&mut buffer, &config, &file, &to_codespan(d, &map))
                .map_err(io::Error::other)?;
            out.write_all(&info_not_note(buffer.as_slice(), d.severity))?;
        }
    }
    Ok(())
}

/// codespan calls the lowest severity `note`; everywhere else (the summary, `--fail-on`,
/// `[severity]`, JSON, SARIF's rules) it is `info`.
fn info_not_note(rendered: &[u8], severity: Severity) -> std::borrow::Cow<'_, [u8]> {
    if severity != Severity::Info {
        return rendered.into();
    }
    match memchr::memmem::find(rendered, b"note[") {
        Some(at) => {
            let mut out = rendered.to_vec();
            out[at..at + 4].copy_from_slice(b"info");
            out.into()
        }
        None => rendered.into(),
    }
}

fn to_codespan(d: &Diagnostic, map: &dyn Fn(usize) -> usize) -> CsDiagnostic<()> {
    let range = |span: ptxguard_analyzer::Span| map(span.start as usize)..map(span.end as usize);
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Info => CsSeverity::Note,
    };
    let mut labels = vec![Label::primary((), range(d.span))];
    labels.extend(
        d.labels
            .iter()
            .map(|l| Label::secondary((), range(l.span)).with_message(visible(&l.message))),
    );
    let mut notes = Vec::new();
    if let Some(note) = &d.note {
        notes.push(format!("note: {}", visible(note)));
    }
    if let Some(help) = &d.help {
        notes.push(format!("help: {}", visible(help)));
    }
    if let Some(fix) = &d.fix {
        let how = match fix.applicability {
            Applicability::Safe => "`--fix` applies it",
            Applicability::Unsafe => "`--fix --unsafe-fixes` applies it; review the result",
        };
        notes.push(format!(
            "help: fix available ({}): {} ({how})",
            applicability_str(fix.applicability),
            visible(&fix.message)
        ));
    }
    CsDiagnostic::new(severity)
        .with_code(d.rule)
        .with_message(visible(&d.message))
        .with_labels(labels)
        .with_notes(notes)
}
