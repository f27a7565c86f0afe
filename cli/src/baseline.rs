//! Baselines: record today's findings, report only new ones later.
//!
//! A finding's fingerprint is its rule, its file, the whitespace-collapsed text of the asm
//! statement around it (or of its source lines outside any statement), the text of its own span,
//! and how many identical findings came before it in the file. No line number: code that moves
//! up or down keeps its fingerprint.

use crate::config::{absolutize, normalize};
use crate::scan::{self, Scan};
use ptxguard_analyzer::{Diagnostic, SourceFile};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub const BASELINE_VERSION: u32 = 1;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct BaselineEntry {
    /// Relative to the baseline file's directory, with `/` separators.
    pub file: String,
    pub rule: String,
    pub fingerprint: String,
    /// For people reading the file; not used for matching.
    #[serde(default)]
    pub line: usize,
    #[serde(default)]
    pub message: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct BaselineFile {
    pub version: u32,
    pub findings: Vec<BaselineEntry>,
}

/// Fingerprints of `diagnostics` (sorted by position), in the same order.
pub fn fingerprints(file: &SourceFile, diagnostics: &[Diagnostic]) -> Vec<String> {
    if diagnostics.is_empty() {
        return Vec::new();
    }
    let scan = scan::scan(file);
    let mut seen: HashMap<String, usize> = HashMap::new();
    diagnostics
        .iter()
        .map(|d| {
            let key = format!(
                "{}\0{}\0{}",
                d.rule,
                collapse_whitespace(context_text(file, &scan, d)),
                collapse_whitespace(file.text.get(d.span.range()).unwrap_or(""))
            );
            let occurrence = seen.entry(key.clone()).or_insert(0);
            let fingerprint = format!(
                "{:016x}",
                fnv1a64(format!("{key}\0{occurrence}").as_bytes())
            );
            *occurrence += 1;
            fingerprint
        })
        .collect()
}

/// The asm statement around the finding, or the lines it spans.
fn context_text<'a>(file: &'a SourceFile, scan: &Scan, d: &Diagnostic) -> &'a str {
    let start = d.span.start as usize;
    if let Some(statement) = scan.statement_at(start) {
        return &file.text[statement.range()];
    }
    let first = file.line_index(start);
    let last = file.line_index((d.span.end as usize).max(start));
    let from = file.line_start(first);
    let to = file.line_start(last + 1).min(file.text.len());
    &file.text[from..to]
}

pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// FNV-1a: stable across Rust versions and platforms, unlike `DefaultHasher`.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// How a file is named inside a baseline stored at `baseline_path`.
pub fn baseline_file_key(baseline_path: &Path, file_abs: &Path, cwd: &Path) -> String {
    let base_dir = absolutize(baseline_path, cwd)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("/"));
    relative_path(&base_dir, &normalize(file_abs))
}

/// `to` relative to the directory `from` (both absolute), with `..` where needed.
fn relative_path(from: &Path, to: &Path) -> String {
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let ups = std::iter::repeat_n("..".to_string(), from.len() - common);
    let downs = to[common..]
        .iter()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    ups.chain(downs).collect::<Vec<_>>().join("/")
}

pub fn read(path: &Path) -> Result<BaselineFile, String> {
    let text = ptxguard_analyzer::source::read_input_to_string(
        path,
        ptxguard_analyzer::source::MAX_BASELINE_BYTES,
    )
    .map_err(|e| format!("{}: cannot read baseline: {e}", path.display()))?;
    let file: BaselineFile = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a ptxguard baseline: {e}", path.display()))?;
    if file.version != BASELINE_VERSION {
        return Err(format!(
            "{}: baseline version {} is not supported (expected {BASELINE_VERSION}); write it again with --write-baseline",
            path.display(),
            file.version
        ));
    }
    Ok(file)
}

pub fn write(path: &Path, mut entries: Vec<BaselineEntry>) -> Result<(), String> {
    entries.sort_by(|a, b| {
        (&a.file, a.line, &a.rule, &a.fingerprint).cmp(&(&b.file, b.line, &b.rule, &b.fingerprint))
    });
    let file = BaselineFile {
        version: BASELINE_VERSION,
        findings: entries,
    };
    let mut text = serde_json::to_string_pretty(&file).expect("baseline serializes");
    text.push('\n');
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("{}: cannot write baseline: {e}", path.display()))?;
    }
    std::fs::write(path, text)
        .map_err(|e| format!("{}: cannot write baseline: {e}", path.display()))
}

/// The findings of a baseline, counted, to subtract from a run.
#[derive(Debug, Default)]
pub struct Known {
    counts: HashMap<(String, String, String), usize>,
}

impl Known {
    pub fn new(file: &BaselineFile) -> Known {
        let mut counts = HashMap::new();
        for e in &file.findings {
            *counts
                .entry((e.file.clone(), e.rule.clone(), e.fingerprint.clone()))
                .or_insert(0) += 1;
        }
        Known { counts }
    }

    /// True (and forgets one) when the baseline holds this finding.
    pub fn take(&mut self, file_key: &str, rule: &str, fingerprint: &str) -> bool {
        match self.counts.get_mut(&(
            file_key.to_string(),
            rule.to_string(),
            fingerprint.to_string(),
        )) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::{Severity, Span};

    fn diag_on(text: &str, needle: &str) -> Diagnostic {
        let at = text.find(needle).unwrap();
        Diagnostic::new(
            "operand-index",
            Severity::Error,
            Span::new(at, at + needle.len()),
            "m",
        )
    }

    #[test]
    fn fingerprint_survives_moving_and_reindenting() {
        let a = "void f() {\n  asm(\"mov.u32 %5, 0;\" : \"=r\"(x));\n}\n";
        let b =
            "// new\n// lines\nvoid f() {\n\n      asm(\"mov.u32 %5, 0;\"\n   : \"=r\"(x));\n}\n";
        let fa = fingerprints(&SourceFile::new("a.cu", a), &[diag_on(a, "%5")]);
        let fb = fingerprints(&SourceFile::new("a.cu", b), &[diag_on(b, "%5")]);
        assert_eq!(fa, fb);
        let c = a.replace("%5", "%6");
        let fc = fingerprints(&SourceFile::new("a.cu", &c), &[diag_on(&c, "%6")]);
        assert_ne!(fa, fc);
    }

    #[test]
    fn identical_findings_get_distinct_fingerprints() {
        let text = "asm(\"x\");\nasm(\"x\");\n";
        let first = diag_on(text, "\"x\"");
        let mut second = first.clone();
        second.span = Span::new(
            text.rfind("\"x\"").unwrap(),
            text.rfind("\"x\"").unwrap() + 3,
        );
        let f = fingerprints(&SourceFile::new("a.cu", text), &[first, second]);
        assert_ne!(f[0], f[1]);
    }

    #[test]
    fn file_keys_are_relative_to_the_baseline() {
        assert_eq!(
            baseline_file_key(
                Path::new("ci/baseline.json"),
                Path::new("/w/ci/src/a.cu"),
                Path::new("/w")
            ),
            "src/a.cu"
        );
        assert_eq!(
            baseline_file_key(
                Path::new("/w/b.json"),
                Path::new("/w/./x/../a.cu"),
                Path::new("/")
            ),
            "a.cu"
        );
        assert_eq!(
            baseline_file_key(
                Path::new("ci/b.json"),
                Path::new("/w/src/a.cu"),
                Path::new("/w")
            ),
            "../src/a.cu"
        );
    }
}
