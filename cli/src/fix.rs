//! Applying fixes: until nothing more applies, verified by re-checking, written atomically.

use ptxguard_analyzer::diag::apply_edits;
use ptxguard_analyzer::{Applicability, Diagnostic, Edit, Severity, SourceFile, Span};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

/// A file is fixed at most this many times over (each pass re-checks it).
pub const MAX_PASSES: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixMode {
    Safe,
    SafeAndUnsafe,
}

impl FixMode {
    pub fn allows(self, applicability: Applicability) -> bool {
        applicability == Applicability::Safe || self == FixMode::SafeAndUnsafe
    }
}

/// One fix that was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedFix {
    pub rule: &'static str,
    pub message: String,
}

/// A fix that made things worse, so nothing was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixFailure {
    pub rule: &'static str,
    pub fix_message: String,
    /// 1-based line and column of the finding the fix was for (in the text it was applied to).
    pub line: usize,
    pub column: usize,
    /// The new error, as `rule: message`.
    pub new_error: String,
}

#[derive(Clone, Debug)]
pub struct FixOutcome {
    /// The fixed text; the original text when a fix failed or nothing applied.
    pub text: String,
    pub applied: Vec<AppliedFix>,
    pub failure: Option<FixFailure>,
}

impl FixOutcome {
    pub fn changed(&self, original: &str) -> bool {
        self.text != original
    }
}

/// Applies every fix `mode` allows, pass after pass, until the text stops changing.
/// `analyze` returns what the user would see for a text (after configuration and suppressions).
/// If a pass makes an error appear that the original text did not have, the original text is
/// kept and the fix responsible is named.
pub fn fix_file(
    source: &SourceFile,
    mode: FixMode,
    analyze: &dyn Fn(&SourceFile) -> Vec<Diagnostic>,
) -> FixOutcome {
    let original_diagnostics = analyze(source);
    fix_file_from(source, original_diagnostics, mode, analyze)
}

/// Like [`fix_file`], with the findings on the original text already known.
pub fn fix_file_from(
    source: &SourceFile,
    original_diagnostics: Vec<Diagnostic>,
    mode: FixMode,
    analyze: &dyn Fn(&SourceFile) -> Vec<Diagnostic>,
) -> FixOutcome {
    let unchanged = |failure| FixOutcome {
        text: source.text.clone(),
        applied: Vec::new(),
        failure,
    };
    let baseline_errors = error_counts(&original_diagnostics);
    let mut current = source.clone();
    let mut diagnostics = original_diagnostics;
    let mut applied = Vec::new();
    for _ in 0..MAX_PASSES {
        let chosen = choose_fixes(&diagnostics, mode);
        if chosen.is_empty() {
            break;
        }
        let edits: Vec<Edit> = chosen.iter().flat_map(|d| fix_edits(d)).collect();
        let (text, _) = apply_edits(&current.text, &edits);
        if text == current.text {
            break;
        }
        let next = SourceFile::new(source.path.clone(), text);
        let next_diagnostics = analyze(&next);
        if let Some(new_error) = new_error(&baseline_errors, &next_diagnostics) {
            return unchanged(Some(
                blame(&current, &chosen, &baseline_errors, analyze).unwrap_or_else(|| {
                    let (line, column) = current.line_col(chosen[0].span.start as usize);
                    FixFailure {
                        rule: chosen[0].rule,
                        fix_message: format!("{} fixes applied together", chosen.len()),
                        line,
                        column,
                        new_error,
                    }
                }),
            ));
        }
        applied.extend(chosen.iter().map(|d| {
            AppliedFix {
                rule: d.rule,
                message: d
                    .fix
                    .as_ref()
                    .map(|f| f.message.clone())
                    .unwrap_or_default(),
            }
        }));
        current = next;
        diagnostics = next_diagnostics;
    }
    FixOutcome {
        text: current.text,
        applied,
        failure: None,
    }
}

fn fix_edits(d: &Diagnostic) -> Vec<Edit> {
    d.fix.as_ref().map(|f| f.edits.clone()).unwrap_or_default()
}

/// The findings whose fixes `mode` allows, skipping any fix that overlaps one already taken
/// (it is tried again on the next pass).
pub fn choose_fixes(diagnostics: &[Diagnostic], mode: FixMode) -> Vec<&Diagnostic> {
    let mut taken: Vec<Span> = Vec::new();
    let mut chosen = Vec::new();
    for d in diagnostics {
        let Some(fix) = &d.fix else { continue };
        if !mode.allows(fix.applicability) || fix.edits.is_empty() {
            continue;
        }
        let overlaps = fix.edits.iter().any(|e| {
            taken.iter().any(|t| {
                let intersect = e.span.start < t.end && t.start < e.span.end;
                // Two insertions at one point have no defined order.
                intersect || (e.span.is_empty() && t.is_empty() && e.span.start == t.start)
            })
        });
        // The same fix offered by two findings is applied once.
        let duplicate = chosen
            .iter()
            .any(|c: &&Diagnostic| c.fix.as_ref().map(|f| &f.edits) == Some(&fix.edits));
        if duplicate {
            continue;
        }
        if !overlaps {
            taken.extend(fix.edits.iter().map(|e| e.span));
            chosen.push(d);
        }
    }
    chosen
}

fn error_counts(diagnostics: &[Diagnostic]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        *counts.entry(d.rule).or_insert(0) += 1;
    }
    counts
}

/// An error of a rule that now has more errors than the original text had.
fn new_error(
    baseline: &BTreeMap<&'static str, usize>,
    diagnostics: &[Diagnostic],
) -> Option<String> {
    let counts = error_counts(diagnostics);
    let rule = counts
        .iter()
        .find(|(rule, n)| **n > baseline.get(*rule).copied().unwrap_or(0))
        .map(|(rule, _)| *rule)?;
    diagnostics
        .iter()
        .find(|d| d.rule == rule && d.severity == Severity::Error)
        .map(|d| format!("{}: {}", d.rule, d.message))
}

/// Finds which single fix brings in a new error.
fn blame(
    current: &SourceFile,
    chosen: &[&Diagnostic],
    baseline: &BTreeMap<&'static str, usize>,
    analyze: &dyn Fn(&SourceFile) -> Vec<Diagnostic>,
) -> Option<FixFailure> {
    // The new error with a subset of the fixes applied, if there is one.
    let try_fixes = |subset: &[&Diagnostic]| {
        let edits: Vec<Edit> = subset.iter().flat_map(|d| fix_edits(d)).collect();
        let (text, _) = apply_edits(&current.text, &edits);
        let diagnostics = analyze(&SourceFile::new(current.path.clone(), text));
        new_error(baseline, &diagnostics)
    };
    // Halving, so that a file with hundreds of fixes costs a few analyses, not one per fix.
    let mut suspects = chosen;
    let mut found = None;
    while suspects.len() > 1 {
        let (first, second) = suspects.split_at(suspects.len() / 2);
        if let Some(e) = try_fixes(first) {
            (suspects, found) = (first, Some(e));
        } else if let Some(e) = try_fixes(second) {
            (suspects, found) = (second, Some(e));
        } else {
            // Only fixes from both halves together break the file.
            return None;
        }
    }
    let d = suspects.first()?;
    let new_error = match found {
        Some(e) if chosen.len() > 1 => e,
        _ => try_fixes(suspects)?,
    };
    let (line, column) = current.line_col(d.span.start as usize);
    Some(FixFailure {
        rule: d.rule,
        fix_message: d
            .fix
            .as_ref()
            .map(|f| f.message.clone())
            .unwrap_or_default(),
        line,
        column,
        new_error,
    })
}

/// Replaces `path`'s contents through a temporary file in the same directory and a rename,
/// keeping its permissions. A symbolic link is followed, not replaced.
///
/// A process killed between creating the temporary file and the rename (SIGKILL) leaves it
/// behind, and the file unfixed: the next `--fix` of that file first removes the temporary
/// files of processes that are no longer running ([`remove_stale_temporaries`]).
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let target = std::fs::canonicalize(path)?;
    let permissions = std::fs::metadata(&target)?.permissions();
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale_temporaries(dir, &name);
    let mut attempt = 0u32;
    let (temp_path, mut temp) = loop {
        let candidate = dir.join(format!(
            ".{name}.ptxguard-{}-{attempt}.tmp",
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(f) => break (candidate, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1
            }
            Err(e) => return Err(e),
        }
    };
    let result = (|| {
        temp.write_all(contents)?;
        temp.sync_all()?;
        drop(temp);
        std::fs::set_permissions(&temp_path, permissions)?;
        std::fs::rename(&temp_path, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp_path);
    }
    result
}

/// Removes `.NAME.ptxguard-PID-N.tmp` files in `dir` left by a process that is gone (a
/// killed `--fix`). Where running processes cannot be listed (no `/proc`), nothing is
/// removed.
pub fn remove_stale_temporaries(dir: &Path, name: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{name}.ptxguard-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|n| n.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some(pid) = rest.split_once('-').and_then(|(pid, n)| {
            n.parse::<u32>().ok()?;
            pid.parse::<u32>().ok()
        }) else {
            continue;
        };
        let running =
            pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists();
        if !running {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A unified diff with `a/` and `b/` headers, empty when the texts are equal.
pub fn unified_diff(display_path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{display_path}"), &format!("b/{display_path}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::Fix;

    #[cfg(target_os = "linux")]
    #[test]
    fn temporaries_of_a_killed_fix_are_removed_by_the_next_one() {
        let dir = std::env::temp_dir().join(format!("ptxguard-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.cu");
        std::fs::write(&file, "old").unwrap();
        // A pid above the kernel's limit (4194304) never runs.
        let stale = dir.join(".a.cu.ptxguard-4194305-0.tmp");
        let other_file = dir.join(".b.cu.ptxguard-4194305-0.tmp");
        let live = dir.join(format!(".a.cu.ptxguard-{}-7.tmp", std::process::id()));
        for p in [&stale, &other_file, &live] {
            std::fs::write(p, "partial").unwrap();
        }
        write_atomic(&file, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        assert!(!stale.exists());
        assert!(
            other_file.exists(),
            "only the fixed file's temporaries are touched"
        );
        assert!(live.exists(), "a running process's temporary stays");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Each digit below 3 asks to be replaced by the next one.
    fn counting(file: &SourceFile) -> Vec<Diagnostic> {
        file.text
            .char_indices()
            .filter(|(_, c)| matches!(c, '1' | '2'))
            .map(|(i, c)| {
                let next = ((c as u8) + 1) as char;
                Diagnostic::new(
                    "ptx-syntax",
                    Severity::Warning,
                    Span::new(i, i + 1),
                    "count",
                )
                .with_fix(Fix::safe(
                    "count up",
                    vec![Edit::replace(Span::new(i, i + 1), next.to_string())],
                ))
            })
            .collect()
    }

    #[test]
    fn passes_repeat_until_nothing_applies() {
        let source = SourceFile::new("a.cu", "1 2 3");
        let out = fix_file(&source, FixMode::Safe, &counting);
        assert_eq!(out.text, "3 3 3");
        assert_eq!(out.applied.len(), 3);
        let again = fix_file(
            &SourceFile::new("a.cu", out.text.clone()),
            FixMode::Safe,
            &counting,
        );
        assert!(!again.changed(&out.text));
    }

    #[test]
    fn a_fix_that_never_settles_stops_after_max_passes() {
        let grow = |file: &SourceFile| {
            vec![
                Diagnostic::new("ptx-syntax", Severity::Warning, Span::new(0, 0), "grow")
                    .with_fix(Fix::safe("grow", vec![Edit::insert(file.text.len(), "a")])),
            ]
        };
        let out = fix_file(&SourceFile::new("a.cu", ""), FixMode::Safe, &grow);
        assert_eq!(out.text.len(), MAX_PASSES);
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_pass() {
        let checker = |file: &SourceFile| {
            let mut out = Vec::new();
            if let Some(i) = file.text.find("xy") {
                out.push(
                    Diagnostic::new("ptx-syntax", Severity::Warning, Span::new(i, i + 2), "xy")
                        .with_fix(Fix::safe(
                            "xy to z",
                            vec![Edit::replace(Span::new(i, i + 2), "z")],
                        )),
                );
            }
            if let Some(i) = file.text.find('y') {
                out.push(
                    Diagnostic::new("ptx-syntax", Severity::Warning, Span::new(i, i + 1), "y")
                        .with_fix(Fix::safe(
                            "y to w",
                            vec![Edit::replace(Span::new(i, i + 1), "w")],
                        )),
                );
            }
            out
        };
        let chosen_first = fix_file(&SourceFile::new("a.cu", "xyy"), FixMode::Safe, &checker);
        assert_eq!(chosen_first.text, "zw");
    }

    #[test]
    fn unsafe_fixes_need_the_mode() {
        let checker = |_: &SourceFile| {
            vec![
                Diagnostic::new("ptx-syntax", Severity::Error, Span::new(0, 1), "u")
                    .with_fix(Fix::unsafe_("u", vec![Edit::replace(Span::new(0, 1), "b")])),
            ]
        };
        let source = SourceFile::new("a.cu", "a");
        assert_eq!(fix_file(&source, FixMode::Safe, &checker).text, "a");
        // Each pass re-applies it; with the text changed the finding stays, so it stops at "b".
        assert_eq!(
            &fix_file(&source, FixMode::SafeAndUnsafe, &checker).text[..1],
            "b"
        );
    }

    /// 600 fixes, one of which (the `7` to `X`) brings an error: found by halving, in a
    /// few analyses rather than one per fix (the fuzzer's slow input: 529 fixes, 5 s).
    #[test]
    fn the_breaking_fix_is_found_in_few_analyses() {
        let analyses = std::cell::Cell::new(0usize);
        let checker = |file: &SourceFile| {
            analyses.set(analyses.get() + 1);
            let mut out = Vec::new();
            for (i, c) in file.text.char_indices() {
                let fix_to = match c {
                    '5' => "6",
                    '7' => "X",
                    'X' => {
                        out.push(Diagnostic::new(
                            "ptx-syntax",
                            Severity::Error,
                            Span::new(i, i + 1),
                            "an X",
                        ));
                        continue;
                    }
                    _ => continue,
                };
                out.push(
                    Diagnostic::new("ptx-syntax", Severity::Warning, Span::new(i, i + 1), "d")
                        .with_fix(Fix::safe(
                            format!("{c} to {fix_to}"),
                            vec![Edit::replace(Span::new(i, i + 1), fix_to)],
                        )),
                );
            }
            out
        };
        let mut text = "5 ".repeat(400);
        text.push_str("7 ");
        text.push_str(&"5 ".repeat(199));
        let out = fix_file(
            &SourceFile::new("a.cu", text.clone()),
            FixMode::Safe,
            &checker,
        );
        assert_eq!(out.text, text, "rolled back");
        let failure = out.failure.expect("the breaking fix is named");
        assert_eq!(failure.fix_message, "7 to X");
        assert_eq!((failure.line, failure.column), (1, 801));
        assert!(analyses.get() < 30, "{} analyses", analyses.get());
    }

    #[test]
    fn unified_diff_has_headers() {
        let d = unified_diff("k.cu", "a\nb\n", "a\nc\n");
        assert!(d.starts_with("--- a/k.cu\n+++ b/k.cu\n@@"), "{d}");
        assert!(d.contains("-b\n+c\n"));
        assert_eq!(unified_diff("k.cu", "x", "x"), "");
    }
}
