//! One file through the engine and the configuration: what the user gets to see.

use crate::emit::FileReport;
use crate::scan;
use crate::settings::Settings;
use crate::suppress;
use ptxguard_analyzer::context::{AnalysisContext, HeaderCache};
use ptxguard_analyzer::{Diagnostic, SourceFile};
use ptxguard_rules::Options;
use std::path::{Path, PathBuf};

/// The engine entry point; tests pass a fake.
pub type CheckFn = fn(&SourceFile, &AnalysisContext, &Options) -> Vec<Diagnostic>;

/// The real engine.
pub fn engine_check(
    file: &SourceFile,
    context: &AnalysisContext,
    options: &Options,
) -> Vec<Diagnostic> {
    ptxguard_rules::check(file, context, options)
}

/// Runs the rules on `file` and applies the settings for `abs_path`: rule selection,
/// per-file ignores, suppression comments, severities. The result is sorted by position.
/// Headers are read into `headers`, the caller's.
pub fn analyze(
    file: &SourceFile,
    abs_path: &Path,
    settings: &Settings,
    headers: &HeaderCache,
    check: CheckFn,
) -> Vec<Diagnostic> {
    let runs = runs_for(abs_path, settings, headers);
    analyze_with(file, abs_path, settings, &runs, check)
}

/// One run of the rules over a file: how it is built (one build variant, named when the
/// file has several) and the rules' options.
#[derive(Clone, Debug)]
pub struct Run {
    pub variant: Option<String>,
    pub context: AnalysisContext,
    pub options: Options,
}

/// The rules' runs over a file: one per build variant (one when the build has no variants).
pub type Runs = Vec<Run>;

/// The rules' runs for the file at `abs_path`: the rules enabled for it (the others do not
/// run at all) and its build context, per build variant.
pub fn runs_for(abs_path: &Path, settings: &Settings, headers: &HeaderCache) -> Runs {
    let filter = settings.rules_for(abs_path);
    // Rules disabled for this file do not run at all.
    let options = Options {
        only: Some(
            ptxguard_rules::all_rules()
                .iter()
                .map(|r| r.name)
                .filter(|name| filter.is_enabled(name))
                .collect(),
        ),
        ..settings.options.clone()
    };
    crate::build_context::variant_runs(&options, abs_path, settings, headers)
}

/// [`analyze`] with the runs already made by [`runs_for`].
pub fn analyze_with(
    file: &SourceFile,
    abs_path: &Path,
    settings: &Settings,
    runs: &Runs,
    check: CheckFn,
) -> Vec<Diagnostic> {
    let filter = settings.rules_for(abs_path);
    let mut diagnostics: Vec<Diagnostic> = check_variants(file, runs, check)
        .into_iter()
        .filter(|d| filter.is_enabled(d.rule))
        .collect();
    if has_directives(&file.text) {
        let scan = scan::scan(file);
        diagnostics = suppress::apply(file, &scan, diagnostics, &filter);
    }
    for d in &mut diagnostics {
        d.severity = filter.severity(d.rule, d.severity);
    }
    sort_diagnostics(&mut diagnostics);
    diagnostics
}

/// The findings of every build of the file: one run, or one per build variant; a finding
/// only some variants have says which.
fn check_variants(file: &SourceFile, runs: &[Run], check: CheckFn) -> Vec<Diagnostic> {
    if let [run] = runs {
        return check(file, &run.context, &run.options);
    }
    // Each distinct finding, and the variants that have it.
    let mut found: Vec<(Diagnostic, Vec<&str>)> = Vec::new();
    for run in runs {
        for d in check(file, &run.context, &run.options) {
            let variant = run.variant.as_deref().unwrap_or("");
            match found
                .iter_mut()
                .find(|(f, _)| f.rule == d.rule && f.span == d.span && f.message == d.message)
            {
                Some((_, names)) => names.push(variant),
                None => found.push((d, vec![variant])),
            }
        }
    }
    found
        .into_iter()
        .map(|(mut d, names)| {
            if names.len() < runs.len() {
                let which = format!("only in build variant {}", names.join("; "));
                d.note = Some(match d.note.take() {
                    Some(n) => format!("{which}. {n}"),
                    None => which,
                });
            }
            d
        })
        .collect()
}

/// The report of a file whose analysis failed: one `analysis-failed` error at its start,
/// so that every output format (and the editor) shows it at the file.
pub fn failure_report(display: &str, failure: &ptxguard_analyzer::phase::Failure) -> FileReport {
    let source = SourceFile::new(PathBuf::from(display), String::new());
    let diagnostic = Diagnostic::new(
        crate::registry::ANALYSIS_FAILED,
        ptxguard_analyzer::Severity::Error,
        ptxguard_analyzer::Span::new(0, 0),
        failure.to_string(),
    );
    FileReport {
        display: display.to_string(),
        source: std::sync::Arc::new(source),
        diagnostics: vec![diagnostic],
        confirmations: Vec::new(),
    }
}

/// A file whose asm statements are all read as host code says nothing, which looks like a
/// clean result: the one-line note `check` prints then. `None` when the file shows device
/// code or has no asm statement.
pub fn host_only_note(file: &SourceFile) -> Option<String> {
    // Python hands its asm to a GPU compiler: never host code.
    if file.language.is_python()
        || ptxguard_analyzer::cpp::target::has_device_markers(&file.path, &file.text)
    {
        return None;
    }
    let count = scan::scan(file).asm_statements.len();
    (count > 0).then(|| {
        format!(
            "{count} asm statement{} read as host code, not checked: the file is not `.cu`/`.cuh` and shows no `__device__`, `__global__` or `__CUDA_ARCH__`",
            if count == 1 { "" } else { "s" }
        )
    })
}

/// Files without the bytes `asm` (Python: without a call name the Python front end looks
/// for) can hold no asm statement: they skip the engine.
pub fn may_hold_asm(path: &std::path::Path, bytes: &[u8]) -> bool {
    if ptxguard_analyzer::source::Language::of_path(path).is_python() {
        return ptxguard_analyzer::python::may_contain_inline_asm(bytes);
    }
    ptxguard_analyzer::cpp::may_contain_asm(bytes)
}

/// Whether the text may hold a suppression comment.
pub fn has_directives(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), b"ptxguard:").is_some()
}

pub fn sort_diagnostics(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(|a, b| {
        (a.span.start, a.span.end, a.rule, &a.message).cmp(&(
            b.span.start,
            b.span.end,
            b.rule,
            &b.message,
        ))
    });
    diagnostics.dedup();
}
