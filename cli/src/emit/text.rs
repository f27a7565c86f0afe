//! One-line formats: concise, gcc, and GitHub Actions workflow commands.

use super::{range1, visible, EmitOptions, FileReport};
use codespan_reporting::term::termcolor::{Buffer, Color, ColorSpec, WriteColor};
use ptxguard_analyzer::Severity;
use std::io::{self, Write};

fn severity_color(s: Severity) -> Color {
    match s {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
        Severity::Info => Color::Cyan,
    }
}

/// `file:line:col: rule [severity] message`
pub(crate) fn concise(
    reports: &[FileReport],
    out: &mut dyn Write,
    options: &EmitOptions,
) -> io::Result<()> {
    let mut buffer = if options.color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    for report in reports {
        for d in &report.diagnostics {
            let r = range1(&report.source, d.span);
            buffer.set_color(ColorSpec::new().set_bold(true))?;
            write!(
                buffer,
                "{}:{}:{}:",
                visible(&report.display),
                r.line,
                r.column
            )?;
            buffer.reset()?;
            write!(buffer, " ")?;
            buffer.set_color(
                ColorSpec::new()
                    .set_fg(Some(severity_color(d.severity)))
                    .set_bold(true),
            )?;
            write!(buffer, "{}", d.rule)?;
            buffer.reset()?;
            writeln!(buffer, " [{}] {}", d.severity.as_str(), visible(&d.message))?;
        }
    }
    out.write_all(buffer.as_slice())
}

/// `file:line:col: severity: message [rule]`; info is spelled `note` as gcc does, so that
/// editors' error formats recognise it.
pub(crate) fn gcc(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    for report in reports {
        for d in &report.diagnostics {
            let r = range1(&report.source, d.span);
            let severity = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            writeln!(
                out,
                "{}:{}:{}: {severity}: {} [{}]",
                visible(&report.display),
                r.line,
                r.column,
                visible(&d.message),
                d.rule
            )?;
        }
    }
    Ok(())
}

/// `::error file=F,line=L,col=C,endLine=..,endColumn=..,title=RULE::message`: the file name
/// escaped as GitHub unescapes it (the annotation names the real file), the message with its
/// control characters made visible first.
pub(crate) fn github(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    for report in reports {
        for d in &report.diagnostics {
            let r = range1(&report.source, d.span);
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            writeln!(
                out,
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                escape_property(&report.display),
                r.line,
                r.column,
                r.end_line,
                r.end_column,
                escape_property(d.rule),
                escape_data(&visible(&d.message))
            )?;
        }
    }
    Ok(())
}

/// GitHub's escaping for a workflow command's message.
pub(crate) fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// GitHub's escaping for a workflow command's property values.
pub(crate) fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_escapes() {
        assert_eq!(escape_data("50% of\na"), "50%25 of%0Aa");
        assert_eq!(escape_property("a,b:c%"), "a%2Cb%3Ac%25");
    }
}
