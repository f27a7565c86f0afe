//! Output formats. Every emitter reads the same [`FileReport`]s.

mod escape;
mod full;
mod json;
mod rdjson;
mod sarif;
mod summary;
mod text;

use crate::args::OutputFormat;
use ptxguard_analyzer::{Applicability, Diagnostic, Severity, SourceFile, Span};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;

pub use escape::{stderr_line, visible, Level, VisibleSource};
pub use json::{json_finding, JsonFinding};
pub use sarif::{percent_encode_path, sarif_log};
pub use summary::{
    baseline_matched, baseline_written, diff_summary, fixed_line, statistics, summary, Problems,
};

/// One file's findings, ready to print.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The path as shown: relative to the working directory when the file is under it.
    pub display: String,
    pub source: Arc<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug)]
pub struct EmitOptions {
    pub color: bool,
    /// The directory relative paths are relative to (SARIF's `%SRCROOT%`).
    pub root: PathBuf,
    /// Files not checked and other errors of the run (SARIF's `invocations`).
    pub problems: Problems,
}

pub fn emit(
    format: OutputFormat,
    reports: &[FileReport],
    out: &mut dyn Write,
    options: &EmitOptions,
) -> io::Result<()> {
    match format {
        OutputFormat::Full => full::emit(reports, out, options),
        OutputFormat::Concise => text::concise(reports, out, options),
        OutputFormat::Gcc => text::gcc(reports, out),
        OutputFormat::Github => text::github(reports, out),
        OutputFormat::Json => json::emit_array(reports, out),
        OutputFormat::JsonLines => json::emit_lines(reports, out),
        OutputFormat::Rdjson => rdjson::emit(reports, out),
        OutputFormat::Sarif => {
            let log = sarif::sarif_log_with(reports, &options.root, &options.problems);
            serde_json::to_writer_pretty(&mut *out, &log)?;
            writeln!(out)
        }
    }
}

/// 1-based lines and columns (columns in characters); the end is exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range1 {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

pub fn range1(file: &SourceFile, span: Span) -> Range1 {
    let (line, column) = file.line_col(span.start as usize);
    let (end_line, end_column) = file.line_col(span.end as usize);
    Range1 {
        line,
        column,
        end_line,
        end_column,
    }
}

pub fn applicability_str(a: Applicability) -> &'static str {
    match a {
        Applicability::Safe => "safe",
        Applicability::Unsafe => "unsafe",
    }
}

/// Counts per severity and fixability, for the closing summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub safe_fixes: usize,
    pub unsafe_fixes: usize,
}

impl Tally {
    pub fn of(reports: &[FileReport]) -> Tally {
        let mut t = Tally::default();
        for d in reports.iter().flat_map(|r| &r.diagnostics) {
            match d.severity {
                Severity::Error => t.errors += 1,
                Severity::Warning => t.warnings += 1,
                Severity::Info => t.infos += 1,
            }
            match d.fix.as_ref().map(|f| f.applicability) {
                Some(Applicability::Safe) => t.safe_fixes += 1,
                Some(Applicability::Unsafe) => t.unsafe_fixes += 1,
                None => {}
            }
        }
        t
    }

    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.infos
    }

    /// "Found 3 findings (1 error, 2 warnings).\n2 fixable with `--fix`.\n"
    pub fn summary(&self) -> String {
        if self.total() == 0 {
            return "All checks passed!\n".into();
        }
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let parts: Vec<String> = [
            (self.errors, "error", "errors"),
            (self.warnings, "warning", "warnings"),
            (self.infos, "info", "info"),
        ]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| plural(n, one, many))
        .collect();
        let mut s = format!(
            "Found {} ({}).\n",
            plural(self.total(), "finding", "findings"),
            parts.join(", ")
        );
        match (self.safe_fixes, self.unsafe_fixes) {
            (0, 0) => {}
            (safe, 0) => s += &format!("{safe} fixable with `--fix`.\n"),
            (0, unsafe_) => s += &format!("{unsafe_} fixable with `--fix --unsafe-fixes`.\n"),
            (safe, unsafe_) => {
                s += &format!(
                    "{safe} fixable with `--fix` ({unsafe_} more with `--fix --unsafe-fixes`).\n"
                )
            }
        }
        s
    }
}
