//! What `check` prints besides the findings: problems on stderr, the closing summary, the
//! `--diff` and `--write-baseline` lines, `--statistics`.

use super::{visible, FileReport, Level, Tally};
use crate::args::OutputFormat;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Files a run was asked to check and did not (or only warned about): each line is printed
/// on stderr as it is, after `error: ` or `warning: `.
#[derive(Clone, Debug, Default)]
pub struct Problems {
    /// Files that could not be checked, and other failures: the run exits with 2.
    pub errors: Vec<String>,
    /// Checked, with a caveat (not valid UTF-8, not fixed); the exit code does not change.
    pub warnings: Vec<String>,
    /// Said only when nothing else is (asm read as host code).
    pub notes: Vec<String>,
}

impl Problems {
    /// Each line as [`super::stderr_line`] writes it for `format`.
    pub fn print(&self, stderr: &mut dyn Write, format: OutputFormat) {
        for (level, lines) in [
            (Level::Error, &self.errors),
            (Level::Warning, &self.warnings),
        ] {
            for line in lines {
                let _ = writeln!(stderr, "{}", super::stderr_line(format, level, line));
            }
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The closing lines of a human-readable report: fixes applied, findings, and what could not
/// be checked. "All checks passed!" only when everything was checked.
pub fn summary(
    out: &mut dyn Write,
    reports: &[FileReport],
    fixes_applied: usize,
    fixed_files: usize,
    problems: &Problems,
) -> io::Result<()> {
    if fixes_applied > 0 {
        fixed_line(out, fixes_applied, fixed_files)?;
    }
    let tally = Tally::of(reports);
    let failed = problems.errors.len();
    if failed == 0 {
        if tally.total() == 0 {
            for note in &problems.notes {
                writeln!(out, "note: {}", visible(note))?;
            }
        }
        return write!(out, "{}", tally.summary());
    }
    if tally.total() > 0 {
        write!(out, "{}", tally.summary())?;
    } else {
        writeln!(out, "No findings in the files that were checked.")?;
    }
    writeln!(
        out,
        "{} (see above): the run is incomplete.",
        plural(failed, "error", "errors")
    )
}

/// "Fixed 3 findings in 2 files."
pub fn fixed_line(out: &mut dyn Write, fixes: usize, files: usize) -> io::Result<()> {
    writeln!(
        out,
        "Fixed {} in {}.",
        plural(fixes, "finding", "findings"),
        plural(files, "file", "files")
    )
}

/// How many findings `--baseline` kept from the report.
pub fn baseline_matched(findings: usize) -> String {
    format!(
        "{} in the baseline not shown.",
        plural(findings, "finding", "findings")
    )
}

/// The line after `--diff`.
pub fn diff_summary(out: &mut dyn Write, fixes: usize, changed: usize) -> io::Result<()> {
    writeln!(
        out,
        "{} would be applied to {}.",
        plural(fixes, "fix", "fixes"),
        plural(changed, "file", "files")
    )
}

/// The line after `--write-baseline`.
pub fn baseline_written(out: &mut dyn Write, findings: usize, path: &str) -> io::Result<()> {
    writeln!(
        out,
        "Wrote {} to {path}.",
        plural(findings, "finding", "findings")
    )
}

/// `--statistics`: findings per rule, most frequent first.
pub fn statistics(
    reports: &[FileReport],
    format: OutputFormat,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for d in reports.iter().flat_map(|r| &r.diagnostics) {
        let entry = counts.entry(d.rule).or_default();
        entry.0 += 1;
        if d.fix.is_some() {
            entry.1 += 1;
        }
    }
    let mut rows: Vec<(&str, usize, usize)> =
        counts.into_iter().map(|(r, (n, f))| (r, n, f)).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    match format {
        OutputFormat::Json | OutputFormat::JsonLines | OutputFormat::Sarif => {
            let value: Vec<serde_json::Value> = rows
                .iter()
                .map(|(rule, n, fixable)| serde_json::json!({ "rule": rule, "count": n, "fixable": fixable }))
                .collect();
            serde_json::to_writer_pretty(&mut *out, &value)?;
            writeln!(out)
        }
        _ => {
            for (rule, n, fixable) in rows {
                let mark = if fixable > 0 { "[*]" } else { "   " };
                writeln!(out, "{n:>6}  {mark} {rule}")?;
            }
            Ok(())
        }
    }
}
