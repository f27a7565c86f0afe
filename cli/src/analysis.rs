//! One file through the engine and the configuration: what the user gets to see.

use crate::scan;
use crate::settings::Settings;
use crate::suppress;
use ptxguard_analyzer::{Diagnostic, SourceFile};
use ptxguard_rules::Options;
use std::path::Path;

/// The engine entry point; tests pass a fake.
pub type CheckFn = fn(&SourceFile, &Options) -> Vec<Diagnostic>;

/// The real engine.
pub fn engine_check(file: &SourceFile, options: &Options) -> Vec<Diagnostic> {
    ptxguard_rules::check(file, options)
}

/// Runs the rules on `file` and applies the settings for `abs_path`: rule selection,
/// per-file ignores, suppression comments, severities. The result is sorted by position.
pub fn analyze(
    file: &SourceFile,
    abs_path: &Path,
    settings: &Settings,
    check: CheckFn,
) -> Vec<Diagnostic> {
    let filter = settings.rules_for(abs_path);
    // Rules disabled for this file do not run at all.
    let mut options = Options {
        only: Some(
            ptxguard_rules::all_rules()
                .iter()
                .map(|r| r.name)
                .filter(|name| filter.is_enabled(name))
                .collect(),
        ),
        ..settings.options.clone()
    };
    crate::build_context::apply(&mut options, abs_path, settings);
    let mut diagnostics: Vec<Diagnostic> = check(file, &options)
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

/// Files without the bytes `asm` (Python: without a call name the Python front end looks
/// for) can hold no asm statement: they skip the engine.
pub fn may_hold_asm(path: &std::path::Path, bytes: &[u8]) -> bool {
    if ptxguard_analyzer::python::is_python_path(path) {
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
