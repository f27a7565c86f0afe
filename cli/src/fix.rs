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
    /// The new error, as `rule: message`; or why the fix never settles.
    pub new_error: String,
    /// The fix was applied pass after pass and its finding stayed.
    pub never_settles: bool,
}

impl FixFailure {
    /// What went wrong, after "the fix F for RULE".
    pub fn describe(&self) -> String {
        if self.never_settles {
            format!("does not settle ({})", self.new_error)
        } else {
            format!("introduced a new error ({})", self.new_error)
        }
    }
}

#[derive(Clone, Debug)]
pub struct FixOutcome {
    /// The fixed text; the original text when a fix failed or nothing applied.
    pub text: String,
    pub applied: Vec<AppliedFix>,
    pub failure: Option<FixFailure>,
    /// The findings on `text`, from the last analysis the fixing made (no need to analyse
    /// the fixed text again).
    pub diagnostics: Vec<Diagnostic>,
}

impl FixOutcome {
    pub fn changed(&self, original: &str) -> bool {
        self.text != original
    }
}

/// Applies every fix `mode` allows, pass after pass, until the text stops changing.
/// `analyze` returns what the user would see for a text (after configuration and suppressions).
/// If a pass makes an error appear that the original text did not have, the original text is
/// kept and the fix responsible is named. Besides `analyze`'s findings, every fixed text is
/// checked with `ptx-syntax` whatever rules are selected: a fix that breaks the PTX is never
/// written because the rule that would say so was off.
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
    if choose_fixes(&original_diagnostics, mode).is_empty() {
        return FixOutcome {
            text: source.text.clone(),
            applied: Vec::new(),
            failure: None,
            diagnostics: original_diagnostics,
        };
    }
    let unchanged = |failure, diagnostics| FixOutcome {
        text: source.text.clone(),
        applied: Vec::new(),
        failure,
        diagnostics,
    };
    // What the fixed text is compared with: the selected rules' errors and `ptx-syntax`'s.
    let verify = |file: &SourceFile, diagnostics: Vec<Diagnostic>| {
        let mut all = diagnostics;
        all.extend(syntax_errors(file));
        all
    };
    let baseline = ErrorCounts::of(&verify(source, original_diagnostics.clone()));
    let mut current = source.clone();
    let mut diagnostics = original_diagnostics.clone();
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
        let checked = verify(&next, next_diagnostics.clone());
        if let Some(new_error) = baseline.new_error(&checked) {
            let analyze_all = |file: &SourceFile| verify(file, analyze(file));
            return unchanged(
                Some(
                    blame(&current, &chosen, &baseline, &analyze_all).unwrap_or_else(|| {
                        let (line, column) = current.line_col(chosen[0].span.start as usize);
                        FixFailure {
                            rule: chosen[0].rule,
                            fix_message: format!("{} fixes applied together", chosen.len()),
                            line,
                            column,
                            new_error,
                            never_settles: false,
                        }
                    }),
                ),
                original_diagnostics,
            );
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
    // Still something to apply after the last pass: a fix whose finding stays however often
    // it is applied (a clobber section the statement's parse does not see). Writing ten
    // copies of it would be worse than writing nothing.
    if let Some(d) = choose_fixes(&diagnostics, mode).first() {
        let (line, column) = current.line_col(d.span.start as usize);
        return unchanged(
            Some(FixFailure {
                rule: d.rule,
                fix_message: d
                    .fix
                    .as_ref()
                    .map(|f| f.message.clone())
                    .unwrap_or_default(),
                line,
                column,
                new_error: format!("its finding stays after {MAX_PASSES} passes"),
                never_settles: true,
            }),
            original_diagnostics,
        );
    }
    FixOutcome {
        text: current.text,
        applied,
        failure: None,
        diagnostics,
    }
}

/// `ptx-syntax`'s errors on `file`, with the default options (the same for the text before
/// and after the fixes, which is all the comparison needs).
fn syntax_errors(file: &SourceFile) -> Vec<Diagnostic> {
    let options = ptxguard_rules::Options {
        only: Some(vec![SYNTAX_RULE]),
        ..Default::default()
    };
    let nothing_known = ptxguard_analyzer::context::AnalysisContext::default();
    ptxguard_rules::check(file, &nothing_known, &options)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

const SYNTAX_RULE: &str = "ptx-syntax";

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

/// The errors of a text, counted by rule and by rule and message.
struct ErrorCounts {
    by_rule: BTreeMap<&'static str, usize>,
    by_message: BTreeMap<(&'static str, String), usize>,
}

impl ErrorCounts {
    fn of(diagnostics: &[Diagnostic]) -> ErrorCounts {
        let mut counts = ErrorCounts {
            by_rule: BTreeMap::new(),
            by_message: BTreeMap::new(),
        };
        for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
            *counts.by_rule.entry(d.rule).or_insert(0) += 1;
            *counts
                .by_message
                .entry((d.rule, d.message.clone()))
                .or_insert(0) += 1;
        }
        counts
    }

    /// An error of a rule that now has more errors than the original text had, as `rule:
    /// message`: one whose message the original had fewer times (the new one, not an old
    /// error of the same rule).
    fn new_error(&self, diagnostics: &[Diagnostic]) -> Option<String> {
        let now = ErrorCounts::of(diagnostics);
        let rule = now
            .by_rule
            .iter()
            .find(|(rule, n)| **n > self.by_rule.get(*rule).copied().unwrap_or(0))
            .map(|(rule, _)| *rule)?;
        let is_new = |d: &&Diagnostic| {
            let key = (d.rule, d.message.clone());
            now.by_message.get(&key).copied().unwrap_or(0)
                > self.by_message.get(&key).copied().unwrap_or(0)
        };
        let of_rule = || {
            diagnostics
                .iter()
                .filter(move |d| d.rule == rule && d.severity == Severity::Error)
        };
        of_rule()
            .find(is_new)
            .or_else(|| of_rule().next())
            .map(|d| format!("{}: {}", d.rule, d.message))
    }
}

/// Finds which single fix brings in a new error.
fn blame(
    current: &SourceFile,
    chosen: &[&Diagnostic],
    baseline: &ErrorCounts,
    analyze: &dyn Fn(&SourceFile) -> Vec<Diagnostic>,
) -> Option<FixFailure> {
    // The new error with a subset of the fixes applied, if there is one.
    let try_fixes = |subset: &[&Diagnostic]| {
        let edits: Vec<Edit> = subset.iter().flat_map(|d| fix_edits(d)).collect();
        let (text, _) = apply_edits(&current.text, &edits);
        let diagnostics = analyze(&SourceFile::new(current.path.clone(), text));
        baseline.new_error(&diagnostics)
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
        never_settles: false,
    })
}

/// Replaces `path`'s contents with `contents`, keeping the file what it was: its inode (hard
/// links stay linked), owner, group, mode and extended attributes. A symbolic link is
/// followed, not replaced. A read-only file (no write permission bit, which root would
/// otherwise ignore) is refused.
///
/// The new text is first written to a temporary file in the same directory (a short name,
/// `.ptxguard-PID-N.tmp`, so that a file name of up to 255 bytes never makes it too long),
/// synced and read back. Then, when the file has one link and the temporary file can take
/// its owner and group, the temporary file takes its mode and is renamed over it (atomic);
/// otherwise (hard links, an owner that cannot be given) the verified text is written into
/// the file itself and the temporary file removed.
///
/// A process killed before the rename (SIGKILL) leaves the temporary file behind, and the file
/// unfixed: the next `--fix` in that directory first removes the temporary files of processes
/// that are no longer running ([`remove_stale_temporaries`]).
pub fn write_fixes(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::{Read as _, Seek as _};
    let target = std::fs::canonicalize(path)?;
    let metadata = std::fs::metadata(&target)?;
    if metadata.permissions().readonly() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the file is read-only; make it writable to apply fixes",
        ));
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    remove_stale_temporaries(dir);
    let mut attempt = 0u32;
    let (temp_path, mut temp) = loop {
        let candidate = dir.join(temporary_name(std::process::id(), attempt));
        match std::fs::OpenOptions::new()
            .read(true)
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
        // Read back: a short write or a full disk shows here, before the file is touched.
        temp.rewind()?;
        let mut written = Vec::with_capacity(contents.len());
        temp.read_to_end(&mut written)?;
        if written != contents {
            return Err(std::io::Error::other(
                "the temporary copy does not read back as written",
            ));
        }
        if can_replace_by_rename(&temp, &metadata) {
            temp.set_permissions(metadata.permissions())?;
            drop(temp);
            return std::fs::rename(&temp_path, &target);
        }
        drop(temp);
        let mut file = std::fs::OpenOptions::new().write(true).open(&target)?;
        file.write_all(contents)?;
        file.set_len(contents.len() as u64)?;
        file.sync_all()?;
        std::fs::remove_file(&temp_path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp_path);
    }
    result
}

/// The temporary file of process `pid`'s `attempt`th try: short whatever the file's name.
fn temporary_name(pid: u32, attempt: u32) -> String {
    format!(".ptxguard-{pid}-{attempt}.tmp")
}

/// Whether renaming `temp` over the file described by `original` keeps everything but the
/// inode number: one link, and (on Unix) the same owner and group, given where needed (as
/// root).
#[cfg(unix)]
fn can_replace_by_rename(temp: &std::fs::File, original: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    if original.nlink() != 1 {
        return false;
    }
    let Ok(mine) = temp.metadata() else {
        return false;
    };
    if (mine.uid(), mine.gid()) == (original.uid(), original.gid()) {
        return true;
    }
    std::os::unix::fs::fchown(temp, Some(original.uid()), Some(original.gid())).is_ok()
}

#[cfg(not(unix))]
fn can_replace_by_rename(_temp: &std::fs::File, _original: &std::fs::Metadata) -> bool {
    true
}

/// Removes `.ptxguard-PID-N.tmp` files in `dir` left by a process that is gone (a killed
/// `--fix`). Where running processes cannot be listed (no `/proc`), nothing is removed.
pub fn remove_stale_temporaries(dir: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(".ptxguard-"))
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

    fn scratch_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ptxguard-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn temporaries_of_a_killed_fix_are_removed_by_the_next_one() {
        let dir = scratch_dir("stale");
        let file = dir.join("a.cu");
        std::fs::write(&file, "old").unwrap();
        // A pid above the kernel's limit (4194304) never runs.
        let stale = dir.join(temporary_name(4194305, 0));
        let live = dir.join(temporary_name(std::process::id(), 7));
        let unrelated = dir.join(".ptxguard-notes.tmp");
        for p in [&stale, &live, &unrelated] {
            std::fs::write(p, "partial").unwrap();
        }
        write_fixes(&file, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        assert!(!stale.exists());
        assert!(live.exists(), "a running process's temporary stays");
        assert!(unrelated.exists(), "only our own pattern is removed");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_hard_linked_file_stays_linked() {
        use std::os::unix::fs::MetadataExt as _;
        let dir = scratch_dir("hardlink");
        let file = dir.join("a.cu");
        let other = dir.join("b.cu");
        std::fs::write(&file, "old").unwrap();
        std::fs::hard_link(&file, &other).unwrap();
        write_fixes(&file, b"new text").unwrap();
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "new text");
        assert_eq!(std::fs::metadata(&file).unwrap().nlink(), 2);
        assert_eq!(
            std::fs::metadata(&file).unwrap().ino(),
            std::fs::metadata(&other).unwrap().ino()
        );
        // Shorter text: the old tail is cut.
        write_fixes(&other, b"x").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            2,
            "no temporary left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn mode_owner_and_group_are_kept() {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        let dir = scratch_dir("owner");
        let file = dir.join("a.cu");
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        // Giving a file away needs root; as another user only the mode is checked.
        let given_away = std::os::unix::fs::chown(&file, Some(65534), Some(65534)).is_ok();
        if !given_away {
            eprintln!("SKIP (owner and group part): not running as root");
        }
        write_fixes(&file, b"new").unwrap();
        let after = std::fs::metadata(&file).unwrap();
        assert_eq!(after.mode() & 0o7777, 0o640);
        if given_away {
            assert_eq!((after.uid(), after.gid()), (65534, 65534));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_file_is_refused() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = scratch_dir("readonly");
        let file = dir.join("a.cu");
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
        let error = write_fixes(&file, b"new").unwrap_err();
        assert!(error.to_string().contains("read-only"), "{error}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_name_of_255_bytes_is_written() {
        let dir = scratch_dir("longname");
        for len in [232, 255] {
            let name = format!("{}.cu", "k".repeat(len - 3));
            let file = dir.join(&name);
            std::fs::write(&file, "old").unwrap();
            write_fixes(&file, b"new").unwrap_or_else(|e| panic!("{len} bytes: {e}"));
            assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        }
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

    /// The outcome's findings are those of its text, fixed or not, so that nobody needs to
    /// analyse the fixed text again.
    #[test]
    fn the_outcome_carries_the_findings_of_its_text() {
        let key = |ds: &[Diagnostic]| -> Vec<(Span, String)> {
            ds.iter().map(|d| (d.span, d.message.clone())).collect()
        };
        // Digits count up (fixable); each `x` is a finding without a fix, which stays.
        let count_and_mark = |file: &SourceFile| {
            let mut all = counting(file);
            all.extend(file.text.match_indices('x').map(|(i, _)| {
                Diagnostic::new("ptx-syntax", Severity::Warning, Span::new(i, i + 1), "x")
            }));
            all
        };
        let fixed = fix_file(
            &SourceFile::new("a.cu", "1 x 2"),
            FixMode::Safe,
            &count_and_mark,
        );
        assert_eq!(fixed.text, "3 x 3");
        assert_eq!(
            key(&fixed.diagnostics),
            vec![(Span::new(2, 3), "x".to_string())]
        );
        let grow = |file: &SourceFile| {
            vec![
                Diagnostic::new("ptx-syntax", Severity::Warning, Span::new(0, 0), "grow")
                    .with_fix(Fix::safe("grow", vec![Edit::insert(file.text.len(), "a")])),
            ]
        };
        let source = SourceFile::new("a.cu", "b");
        let rolled_back = fix_file(&source, FixMode::Safe, &grow);
        assert!(rolled_back.failure.is_some());
        assert_eq!(key(&rolled_back.diagnostics), key(&grow(&source)));
        let nothing_to_fix = SourceFile::new("a.cu", "3 x");
        let unchanged = fix_file(&nothing_to_fix, FixMode::Safe, &count_and_mark);
        assert_eq!(
            key(&unchanged.diagnostics),
            key(&count_and_mark(&nothing_to_fix))
        );
    }

    /// A fix whose finding stays however often it is applied (the fuzzer's `: "memory"`
    /// added ten times): nothing is written, and the fix is named.
    #[test]
    fn a_fix_that_never_settles_is_rolled_back() {
        let grow = |file: &SourceFile| {
            vec![
                Diagnostic::new("ptx-syntax", Severity::Warning, Span::new(0, 0), "grow")
                    .with_fix(Fix::safe("grow", vec![Edit::insert(file.text.len(), "a")])),
            ]
        };
        let out = fix_file(&SourceFile::new("a.cu", ""), FixMode::Safe, &grow);
        assert_eq!(out.text, "");
        let failure = out.failure.expect("named");
        assert_eq!(failure.fix_message, "grow");
        assert!(failure.new_error.contains("stays"), "{}", failure.new_error);
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
        let checker = |file: &SourceFile| {
            if file.text != "a" {
                return Vec::new();
            }
            vec![
                Diagnostic::new("ptx-syntax", Severity::Error, Span::new(0, 1), "u")
                    .with_fix(Fix::unsafe_("u", vec![Edit::replace(Span::new(0, 1), "b")])),
            ]
        };
        let source = SourceFile::new("a.cu", "a");
        assert_eq!(fix_file(&source, FixMode::Safe, &checker).text, "a");
        assert_eq!(
            fix_file(&source, FixMode::SafeAndUnsafe, &checker).text,
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

    /// A fix from a selected rule that breaks the PTX, with `ptx-syntax` not selected (the
    /// fake reports nothing of it): the file is re-checked with `ptx-syntax` anyway.
    #[test]
    fn a_fix_breaking_the_ptx_is_rolled_back_whatever_the_selection() {
        let text =
            "__device__ void f(int x) {\n  asm volatile(\"mov.u32 %0, %0;\" : \"+r\"(x));\n}\n";
        let breaking = |file: &SourceFile| {
            let Some(at) = file.text.find("mov.u32") else {
                return Vec::new();
            };
            vec![Diagnostic::new(
                "missing-volatile",
                Severity::Warning,
                Span::new(at, at + 3),
                "w",
            )
            .with_fix(Fix::safe(
                "add a brace",
                vec![Edit::replace(Span::new(at, at + 3), "}mov")],
            ))]
        };
        let out = fix_file(&SourceFile::new("a.cu", text), FixMode::Safe, &breaking);
        assert_eq!(out.text, text, "rolled back");
        let failure = out.failure.expect("the breaking fix is named");
        assert_eq!(failure.fix_message, "add a brace");
        assert!(
            failure.new_error.starts_with("ptx-syntax: "),
            "{}",
            failure.new_error
        );
    }

    /// The file already has an error of the rule; the fix brings a second, different one:
    /// the rollback message names the new one.
    #[test]
    fn the_rollback_names_the_new_error_not_an_old_one() {
        let checker = |file: &SourceFile| {
            let mut out = vec![Diagnostic::new(
                "ptx-syntax",
                Severity::Error,
                Span::new(0, 1),
                "an old error",
            )];
            if let Some(at) = file.text.find('b') {
                out.push(
                    Diagnostic::new(
                        "missing-volatile",
                        Severity::Warning,
                        Span::new(at, at + 1),
                        "b",
                    )
                    .with_fix(Fix::safe(
                        "b to c",
                        vec![Edit::replace(Span::new(at, at + 1), "c")],
                    )),
                );
            }
            if file.text.contains('c') {
                out.push(Diagnostic::new(
                    "ptx-syntax",
                    Severity::Error,
                    Span::new(0, 1),
                    "the new error",
                ));
            }
            out
        };
        let out = fix_file(&SourceFile::new("a.cu", "a b"), FixMode::Safe, &checker);
        assert_eq!(out.text, "a b");
        let failure = out.failure.expect("rolled back");
        assert_eq!(failure.new_error, "ptx-syntax: the new error");
    }

    #[test]
    fn unified_diff_has_headers() {
        let d = unified_diff("k.cu", "a\nb\n", "a\nc\n");
        assert!(d.starts_with("--- a/k.cu\n+++ b/k.cu\n@@"), "{d}");
        assert!(d.contains("-b\n+c\n"));
        assert_eq!(unified_diff("k.cu", "x", "x"), "");
    }
}
