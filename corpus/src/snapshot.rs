//! Expected-output files beside the bad cases, so that every change of a message or a fix
//! shows in review (as clippy's `.stderr`/`.fixed` and ruff's snapshots do):
//! - `bad-x.cu.out`: what the rules report on `bad-x.cu`, one line per diagnostic in the
//!   concise format (`bad-x.cu:LINE:COL: RULE [SEVERITY] MESSAGE`), each fix's message on the
//!   line below it;
//! - `bad-x.cu.fixed`: the text after every safe fix is applied, where there is one.
//!
//! Neither name ends in `.cu`, so nothing that walks the cases reads them as a case.
//! [`BLESS_COMMAND`] rewrites them all.

use ptxguard_analyzer::diag::apply_edits;
use ptxguard_analyzer::{Applicability, Diagnostic, SourceFile};
use std::path::{Path, PathBuf};

/// The one command that rewrites every expected-output file from what the rules say now.
pub const BLESS_COMMAND: &str = "PTXGUARD_BLESS=1 cargo test -p ptxguard-corpus";

/// Set (to anything but `0`) to rewrite the files instead of comparing.
pub const BLESS_VARIABLE: &str = "PTXGUARD_BLESS";

/// Whether the cases that have expected-output files: every `bad-*` case.
pub fn has_snapshot(case: &Path) -> bool {
    case.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("bad-"))
}

/// `bad-x.cu` -> `bad-x.cu.out`.
pub fn output_path(case: &Path) -> PathBuf {
    with_suffix(case, ".out")
}

/// `bad-x.cu` -> `bad-x.cu.fixed`.
pub fn fixed_path(case: &Path) -> PathBuf {
    with_suffix(case, ".fixed")
}

fn with_suffix(case: &Path, suffix: &str) -> PathBuf {
    let mut name = case.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The concise output of a case: one line per diagnostic, its fix's message below it.
pub fn render(file: &SourceFile, diagnostics: &[Diagnostic]) -> String {
    let name = file
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = String::new();
    for d in diagnostics {
        let (line, col) = file.line_col(d.span.start as usize);
        out.push_str(&format!(
            "{name}:{line}:{col}: {} [{}] {}\n",
            d.rule,
            d.severity.as_str(),
            d.message
        ));
        if let Some(fix) = &d.fix {
            let kind = match fix.applicability {
                Applicability::Safe => "safe",
                Applicability::Unsafe => "unsafe",
            };
            out.push_str(&format!("    fix ({kind}): {}\n", fix.message));
        }
    }
    out
}

/// The text with every safe fix applied at once, or `None` when no diagnostic has one.
pub fn safe_fixed(file: &SourceFile, diagnostics: &[Diagnostic]) -> Option<String> {
    let edits: Vec<_> = diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| f.applicability == Applicability::Safe)
        .flat_map(|f| f.edits.iter().cloned())
        .collect();
    if edits.is_empty() {
        return None;
    }
    Some(apply_edits(&file.text, &edits).0)
}

/// Compares (or, when blessing, writes) the expected-output files of one case. Returns the
/// problems found; each names the file and the differing line.
pub fn check_case(
    case: &Path,
    file: &SourceFile,
    diagnostics: &[Diagnostic],
    bless: bool,
) -> Vec<String> {
    let wanted = [
        (output_path(case), Some(render(file, diagnostics))),
        (fixed_path(case), safe_fixed(file, diagnostics)),
    ];
    let mut problems = Vec::new();
    for (path, text) in wanted {
        let on_disk = std::fs::read_to_string(&path).ok();
        if on_disk == text {
            continue;
        }
        if bless {
            let result = match &text {
                Some(t) => std::fs::write(&path, t),
                None => std::fs::remove_file(&path),
            };
            if let Err(e) = result {
                problems.push(format!("{}: {e}", path.display()));
            }
            continue;
        }
        problems.push(match (&on_disk, &text) {
            (None, _) => format!("{}: missing", path.display()),
            (_, None) => format!(
                "{}: no safe fix any more, the file should go",
                path.display()
            ),
            (Some(old), Some(new)) => format!("{}: {}", path.display(), first_difference(old, new)),
        });
    }
    problems
}

/// Expected-output files whose case is gone (or is not a bad case).
pub fn orphans(root: &Path) -> Vec<PathBuf> {
    crate::files_under(root, |path| {
        let name = path.to_string_lossy();
        let case = name
            .strip_suffix(".out")
            .or_else(|| name.strip_suffix(".fixed"))
            .map(Path::new);
        case.is_some_and(|case| !case.is_file() || !has_snapshot(case))
    })
}

/// `line N: expected `old line`, got `new line``.
fn first_difference(old: &str, new: &str) -> String {
    let (mut a, mut b) = (old.lines(), new.lines());
    let mut n = 1;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (x, y) => {
                return format!(
                    "line {n}: expected `{}`, got `{}`",
                    x.unwrap_or("<end>"),
                    y.unwrap_or("<end>")
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::{Edit, Fix, Severity, Span};

    fn case() -> (SourceFile, Vec<Diagnostic>) {
        let file = SourceFile::new("/x/bad-one.cu", "asm(\"mov.u32 %0, 1;\");\n");
        let d = Diagnostic::new("missing-volatile", Severity::Warning, Span::new(0, 3), "m")
            .with_fix(Fix::safe(
                "add `volatile`",
                vec![Edit {
                    span: Span::new(3, 3),
                    replacement: " volatile".into(),
                }],
            ));
        (file, vec![d])
    }

    #[test]
    fn renders_the_concise_line_and_the_fix() {
        let (file, ds) = case();
        assert_eq!(
            render(&file, &ds),
            "bad-one.cu:1:1: missing-volatile [warning] m\n    fix (safe): add `volatile`\n"
        );
        assert_eq!(
            safe_fixed(&file, &ds).as_deref(),
            Some("asm volatile(\"mov.u32 %0, 1;\");\n")
        );
        assert_eq!(safe_fixed(&file, &[]), None);
    }

    #[test]
    fn names_the_files_beside_the_case() {
        let case = Path::new("cases/r/bad-x.cu");
        assert_eq!(output_path(case), Path::new("cases/r/bad-x.cu.out"));
        assert_eq!(fixed_path(case), Path::new("cases/r/bad-x.cu.fixed"));
        assert!(has_snapshot(case));
        assert!(!has_snapshot(Path::new("cases/r/good-x.cu")));
    }

    #[test]
    fn a_difference_names_its_line() {
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n"),
            "line 2: expected `b`, got `c`"
        );
        assert_eq!(
            first_difference("a\n", "a\nb\n"),
            "line 2: expected `<end>`, got `b`"
        );
    }
}
