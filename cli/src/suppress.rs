//! `// ptxguard: allow(rule, ...)` and `// ptxguard: allow-file(rule, ...)` comments, and the
//! `unused-suppression` findings for those that suppress nothing.

use crate::registry::{self, suggest, UNUSED_SUPPRESSION};
use crate::scan::Scan;
use crate::settings::RuleFilter;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity, SourceFile, Span};

const MARKER: &str = "ptxguard:";
const DIRECTIVES: [&str; 2] = ["allow", "allow-file"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectiveKind {
    /// Covers its own line and the next one.
    Allow,
    /// Covers the whole file.
    AllowFile,
}

#[derive(Clone, Debug)]
pub struct Directive {
    pub kind: Result<DirectiveKind, String>,
    /// The word after `ptxguard:` (`allow`).
    pub word: Span,
    /// From `ptxguard:` to the closing `)`.
    pub span: Span,
    /// The comment that holds it.
    pub comment: Span,
    /// Rule names with their spans.
    pub names: Vec<(String, Span)>,
    /// 0-based line of the directive.
    pub line: usize,
    /// Alone on its line (nothing but blanks before the comment): it covers the next line.
    /// After code, it covers its own line only.
    pub standalone: bool,
}

/// Every directive in the comments of a file.
pub fn parse_directives(file: &SourceFile, scan: &Scan) -> Vec<Directive> {
    let mut out = Vec::new();
    for &comment in &scan.comments {
        let text = &file.text[comment.range()];
        let mut from = 0;
        while let Some(found) = text[from..].find(MARKER) {
            let marker_at = from + found;
            from = marker_at + MARKER.len();
            if let Some(d) = parse_one(file, comment, marker_at) {
                from = d.span.end as usize - comment.start as usize;
                out.push(d);
            }
        }
    }
    out
}

/// Parses `ptxguard: word(name, name)` at `marker_at` (relative to the comment). Text that has
/// no `word(` after the marker is prose, not a directive.
fn parse_one(file: &SourceFile, comment: Span, marker_at: usize) -> Option<Directive> {
    let base = comment.start as usize;
    let text = &file.text[comment.range()];
    let bytes = text.as_bytes();
    let mut i = marker_at + MARKER.len();
    while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    let word_start = i;
    while i < bytes.len()
        && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'-' || bytes[i] == b'_')
    {
        i += 1;
    }
    let word = &text[word_start..i];
    if word.is_empty() {
        return None;
    }
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return None;
    }
    let close = text[i..].find(')').map(|p| i + p)?;
    let mut names = Vec::new();
    let mut j = i + 1;
    while j < close {
        while j < close && (bytes[j] == b',' || bytes[j].is_ascii_whitespace()) {
            j += 1;
        }
        let start = j;
        while j < close && bytes[j] != b',' && !bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        if j > start {
            names.push((
                text[start..j].to_string(),
                Span::new(base + start, base + j),
            ));
        }
    }
    let kind = match word {
        "allow" => Ok(DirectiveKind::Allow),
        "allow-file" => Ok(DirectiveKind::AllowFile),
        other => Err(other.to_string()),
    };
    Some(Directive {
        kind,
        word: Span::new(base + word_start, base + word_start + word.len()),
        span: Span::new(base + marker_at, base + close + 1),
        comment,
        names,
        line: file.line_index(base + marker_at),
        standalone: {
            let line_start = file.line_start(file.line_index(base));
            file.text[line_start..base].trim().is_empty()
        },
    })
}

/// Drops suppressed findings and adds an `unused-suppression` finding for each rule name that
/// suppressed nothing. `diagnostics` must already be limited to the rules enabled by `filter`.
pub fn apply(
    file: &SourceFile,
    scan: &Scan,
    diagnostics: Vec<Diagnostic>,
    filter: &RuleFilter<'_>,
) -> Vec<Diagnostic> {
    let directives = parse_directives(file, scan);
    if directives.is_empty() {
        return diagnostics;
    }
    let mut used: Vec<Vec<bool>> = directives
        .iter()
        .map(|d| vec![false; d.names.len()])
        .collect();
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diag in diagnostics {
        if !suppress(file, scan, &directives, &mut used, &diag) {
            kept.push(diag);
        }
    }
    if filter.is_enabled(UNUSED_SUPPRESSION) {
        let unused = unused_findings(file, &directives, &used, filter);
        // An `unused-suppression` can itself be allowed; that allow is then used.
        for diag in unused {
            if !suppress(file, scan, &directives, &mut used, &diag) {
                kept.push(diag);
            }
        }
    }
    kept
}

/// Marks every directive that covers `diag`; true when at least one does.
fn suppress(
    file: &SourceFile,
    scan: &Scan,
    directives: &[Directive],
    used: &mut [Vec<bool>],
    diag: &Diagnostic,
) -> bool {
    let start = diag.span.start as usize;
    let diag_line = file.line_index(start);
    let statement_line = statement_first_line(file, scan, start);
    let covers_line =
        |d: &Directive, line: usize| line == d.line || d.standalone && line == d.line + 1;
    let mut suppressed = false;
    for (d, used) in directives.iter().zip(used.iter_mut()) {
        let applies = match d.kind {
            Ok(DirectiveKind::AllowFile) => true,
            Ok(DirectiveKind::Allow) => {
                covers_line(d, diag_line) || statement_line.is_some_and(|l| covers_line(d, l))
            }
            Err(_) => false,
        };
        if !applies {
            continue;
        }
        for ((name, _), used) in d.names.iter().zip(used.iter_mut()) {
            if name == diag.rule || name.eq_ignore_ascii_case("all") {
                *used = true;
                suppressed = true;
            }
        }
    }
    suppressed
}

/// The first line of the asm statement around `offset`.
// TODO(engine): use the engine's statement spans once `ptxguard_analyzer` exposes them; the
// token scan finds the same statements except inside macro expansions.
fn statement_first_line(file: &SourceFile, scan: &Scan, offset: usize) -> Option<usize> {
    scan.statement_at(offset)
        .map(|s| file.line_index(s.start as usize))
}

fn unused_findings(
    file: &SourceFile,
    directives: &[Directive],
    used: &[Vec<bool>],
    filter: &RuleFilter<'_>,
) -> Vec<Diagnostic> {
    let severity = filter.severity(UNUSED_SUPPRESSION, Severity::Warning);
    let mut out = Vec::new();
    for (d, used) in directives.iter().zip(used) {
        let kind = match &d.kind {
            Ok(kind) => *kind,
            Err(word) => {
                let mut diag = Diagnostic::new(
                    UNUSED_SUPPRESSION,
                    severity,
                    d.word,
                    format!("unknown ptxguard directive `{word}`: this comment suppresses nothing"),
                );
                if let Some(s) = suggest(word, DIRECTIVES) {
                    diag = diag.with_help(format!("did you mean `{s}`?"));
                } else {
                    diag = diag
                        .with_help("write `ptxguard: allow(rule)` or `ptxguard: allow-file(rule)`");
                }
                out.push(diag);
                continue;
            }
        };
        // Names whose rule did not run here can't be judged: they are left alone.
        let unused: Vec<(usize, String)> = d
            .names
            .iter()
            .zip(used)
            .enumerate()
            .filter(|(_, (_, used))| !**used)
            .filter_map(|(i, ((name, _), _))| {
                if name.eq_ignore_ascii_case("all") {
                    return Some((
                        i,
                        format!("`{}` suppresses nothing here", directive_text(kind, name)),
                    ));
                }
                match registry::find_rule(name) {
                    None => Some((i, registry::unknown_rule_message(name))),
                    Some(rule) if filter.is_enabled(rule.name) => Some((
                        i,
                        format!("`{}` suppresses nothing here", directive_text(kind, name)),
                    )),
                    Some(_) => None,
                }
            })
            .collect();
        if d.names.is_empty() {
            out.push(
                Diagnostic::new(
                    UNUSED_SUPPRESSION,
                    severity,
                    d.span,
                    "this suppression names no rule",
                )
                .with_fix(Fix::safe(
                    "remove the suppression",
                    remove_directive(file, d),
                )),
            );
            continue;
        }
        let all_unused = unused.len() == d.names.len();
        for (i, message) in unused {
            let span = d.names[i].1;
            let fix = if all_unused {
                Fix::safe("remove the suppression", remove_directive(file, d))
            } else {
                Fix::safe(
                    format!("remove `{}` from the suppression", d.names[i].0),
                    vec![remove_name(file, d, i)],
                )
            };
            let mut diag =
                Diagnostic::new(UNUSED_SUPPRESSION, severity, span, message).with_fix(fix);
            if kind == DirectiveKind::Allow && registry::find_rule(&d.names[i].0).is_some() {
                diag = diag.with_note(
                    "an allow after code covers findings that start on its line; alone on a line, it covers the next line; either way also the asm statement that starts there",
                );
            }
            out.push(diag);
        }
    }
    out
}

fn directive_text(kind: DirectiveKind, name: &str) -> String {
    match kind {
        DirectiveKind::Allow => format!("allow({name})"),
        DirectiveKind::AllowFile => format!("allow-file({name})"),
    }
}

/// Removes one name and the separator next to it.
fn remove_name(file: &SourceFile, d: &Directive, index: usize) -> Edit {
    let bytes = file.text.as_bytes();
    let span = d.names[index].1;
    if index + 1 < d.names.len() {
        // `a, b` -> `b`: up to the next name.
        Edit::delete(Span::new(
            span.start as usize,
            d.names[index + 1].1.start as usize,
        ))
    } else {
        // `a, b` -> `a`: back to the end of the previous name.
        let mut start = span.start as usize;
        let prev_end = d.names[index - 1].1.end as usize;
        while start > prev_end
            && (bytes[start - 1] == b',' || bytes[start - 1].is_ascii_whitespace())
        {
            start -= 1;
        }
        Edit::delete(Span::new(start, span.end as usize))
    }
}

/// Removes a whole directive: its comment when nothing else is in it, its line when the line is
/// then empty.
fn remove_directive(file: &SourceFile, d: &Directive) -> Vec<Edit> {
    let text = &file.text;
    let comment = &text[d.comment.range()];
    // A Python `#` comment opens with one byte, C++ comments with two.
    let opener = if comment.starts_with('#') { 1 } else { 2 };
    let inner = comment
        .strip_prefix("//")
        .or_else(|| comment.strip_prefix('#'))
        .map(|c| c.to_string())
        .or_else(|| {
            comment
                .strip_prefix("/*")
                .map(|c| c.strip_suffix("*/").unwrap_or(c).to_string())
        })
        .unwrap_or_default();
    let rel = (d.span.start - d.comment.start) as usize - opener;
    let rel_end = (d.span.end - d.comment.start) as usize - opener;
    let rest = format!(
        "{}{}",
        &inner[..rel.min(inner.len())],
        &inner[rel_end.min(inner.len())..]
    );
    if !rest.trim().is_empty() {
        // Other words share the comment: take out the directive and the blanks on one side.
        let (mut start, mut end) = (d.span.start as usize, d.span.end as usize);
        let comment_end = d.comment.end as usize;
        if text[end..comment_end].trim().is_empty() {
            while start > d.comment.start as usize
                && matches!(text.as_bytes()[start - 1], b' ' | b'\t')
            {
                start -= 1;
            }
        } else {
            while end < comment_end && matches!(text.as_bytes()[end], b' ' | b'\t') {
                end += 1;
            }
        }
        return vec![Edit::delete(Span::new(start, end))];
    }
    let line = file.line_index(d.comment.start as usize);
    let line_start = file.line_start(line);
    let line_end = file.line_start(line + 1).min(text.len());
    let before = &text[line_start..d.comment.start as usize];
    let after = &text[d.comment.end as usize..line_end];
    if before.trim().is_empty()
        && after.trim().is_empty()
        && file.line_index(d.comment.end as usize) == line
    {
        return vec![Edit::delete(Span::new(line_start, line_end))];
    }
    let mut start = d.comment.start as usize;
    while start > line_start && matches!(text.as_bytes()[start - 1], b' ' | b'\t') {
        start -= 1;
    }
    vec![Edit::delete(Span::new(start, d.comment.end as usize))]
}

/// The edit that puts `// ptxguard: allow(rule)` at the end of a line, or adds the rule to an
/// allow already there.
pub fn allow_edit(file: &SourceFile, scan: &Scan, line: usize, rule: &str) -> Edit {
    let line_start = file.line_start(line);
    let line_end = file.line_start(line + 1).min(file.text.len());
    for d in parse_directives(file, scan) {
        if d.line == line && d.kind == Ok(DirectiveKind::Allow) {
            let close = d.span.end as usize - 1;
            let sep = if d.names.is_empty() { "" } else { ", " };
            return Edit::insert(close, format!("{sep}{rule}"));
        }
    }
    let content = file.text[line_start..line_end].trim_end_matches(['\n', '\r']);
    let mut end = line_start + content.len();
    while end > line_start && matches!(file.text.as_bytes()[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    // Inside a `#define` continuation the comment must come before the backslash.
    let python = ptxguard_analyzer::python::is_python_path(&file.path);
    if !python && end > line_start && file.text.as_bytes()[end - 1] == b'\\' {
        return Edit::insert(end - 1, format!("/* ptxguard: allow({rule}) */ "));
    }
    let opener = if python { "#" } else { "//" };
    let in_line_comment = scan.comments.iter().any(|c| {
        (c.start as usize) < end
            && (c.end as usize) >= end
            && file.text[c.range()].starts_with(opener)
    });
    let sep = if end == line_start { "" } else { " " };
    if in_line_comment {
        Edit::insert(end, format!(" ptxguard: allow({rule})"))
    } else {
        Edit::insert(end, format!("{sep}{opener} ptxguard: allow({rule})"))
    }
}
