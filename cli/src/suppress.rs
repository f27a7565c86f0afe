//! `// ptxguard: allow(rule, ...)` and `// ptxguard: allow-file(rule, ...)` comments, and the
//! `unused-suppression` findings for those that suppress nothing.

use crate::registry::{self, suggest, UNUSED_SUPPRESSION};
use crate::scan::Scan;
use crate::settings::RuleFilter;
use ptxguard_analyzer::cpp::lexer::splice_len;
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
        let logical = CommentText::new(&file.text, comment);
        let mut from = 0;
        while let Some(found) = logical.text[from..].find(MARKER) {
            let marker_at = from + found;
            from = marker_at + MARKER.len();
            if let Some((d, end)) = parse_one(file, &logical, marker_at) {
                from = end;
                out.push(d);
            }
        }
    }
    out
}

/// A comment's text as the compiler reads it: line splices (`\` newline) removed, as in
/// translation phase 2, so a directive split over lines reads as one. `source[i]` is the file
/// offset of byte `i` of `text` (one more entry for the end). A front end whose comments have
/// no splices (`#` comments) gets the identity map.
struct CommentText {
    text: String,
    source: Vec<u32>,
    comment: Span,
}

impl CommentText {
    fn new(file_text: &str, comment: Span) -> Self {
        let bytes = &file_text.as_bytes()[comment.range()];
        let base = comment.start as usize;
        let mut text = Vec::with_capacity(bytes.len());
        let mut source = Vec::with_capacity(bytes.len() + 1);
        let mut i = 0;
        while i < bytes.len() {
            let n = splice_len(bytes, i);
            if n > 0 {
                i += n;
                continue;
            }
            text.push(bytes[i]);
            source.push((base + i) as u32);
            i += 1;
        }
        source.push(comment.end);
        // Splices only remove ASCII bytes, so the rest is still UTF-8.
        let text = String::from_utf8(text).unwrap_or_default();
        if text.len() + 1 != source.len() {
            return CommentText {
                text: String::new(),
                source: vec![comment.end],
                comment,
            };
        }
        CommentText {
            text,
            source,
            comment,
        }
    }

    /// The file span of `text[start..end]`.
    fn span(&self, start: usize, end: usize) -> Span {
        let last = end.saturating_sub(1).max(start);
        let end_at = if end > start {
            self.source[last] as usize + 1
        } else {
            self.source[start] as usize
        };
        Span::new(self.source[start] as usize, end_at)
    }
}

/// Parses `ptxguard: word(name, name)` at `marker_at` (in the comment's logical text); returns
/// the directive and where parsing may go on. Text that has no `word(` after the marker is
/// prose, not a directive.
fn parse_one(
    file: &SourceFile,
    logical: &CommentText,
    marker_at: usize,
) -> Option<(Directive, usize)> {
    let text = logical.text.as_str();
    let comment = logical.comment;
    let base = comment.start as usize;
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
            names.push((text[start..j].to_string(), logical.span(start, j)));
        }
    }
    let kind = match word {
        "allow" => Ok(DirectiveKind::Allow),
        "allow-file" => Ok(DirectiveKind::AllowFile),
        other => Err(other.to_string()),
    };
    let marker = logical.source[marker_at] as usize;
    let directive = Directive {
        kind,
        word: logical.span(word_start, word_start + word.len()),
        span: logical.span(marker_at, close + 1),
        comment,
        names,
        line: file.line_index(marker),
        standalone: {
            let line_start = file.line_start(file.line_index(base));
            file.text[line_start..base].trim().is_empty()
        },
    };
    Some((directive, close + 1))
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
    // Inside a multi-line string (C++ in a Python string, a raw string) no line can hold a
    // comment: the line where the string starts stands for it.
    let string_line = scan
        .multiline_string_at(start)
        .map(|s| file.line_index(s.start as usize));
    let covers_line =
        |d: &Directive, line: usize| line == d.line || d.standalone && line == d.line + 1;
    let mut suppressed = false;
    for (d, used) in directives.iter().zip(used.iter_mut()) {
        let applies = match d.kind {
            Ok(DirectiveKind::AllowFile) => true,
            Ok(DirectiveKind::Allow) => {
                covers_line(d, diag_line)
                    || statement_line.is_some_and(|l| covers_line(d, l))
                    || string_line.is_some_and(|l| covers_line(d, l))
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
    // Each comment read once, however many directives it holds (a comment with thousands
    // was quadratic).
    let mut comments: std::collections::HashMap<u32, CommentText> = Default::default();
    let mut remove_directive = |d: &Directive| {
        let logical = comments
            .entry(d.comment.start)
            .or_insert_with(|| CommentText::new(&file.text, d.comment));
        remove_directive(file, d, logical)
    };
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
        // A directive whose name list runs over lines (`allow-file(` never closed on its line,
        // in a comment never closed either) may end inside code: no edit of it is safe.
        let fixable = file
            .text
            .get(d.span.start as usize..d.span.end as usize)
            .is_some_and(|t| !t.contains('\n'));
        if d.names.is_empty() {
            let diag = Diagnostic::new(
                UNUSED_SUPPRESSION,
                severity,
                d.span,
                "this suppression names no rule",
            );
            out.push(if fixable {
                diag.with_fix(Fix::safe("remove the suppression", remove_directive(d)))
            } else {
                diag
            });
            continue;
        }
        let all_unused = unused.len() == d.names.len();
        let removal = if all_unused {
            remove_directive(d)
        } else {
            Vec::new()
        };
        for (i, message) in unused {
            let span = d.names[i].1;
            let fix = if all_unused {
                Fix::safe("remove the suppression", removal.clone())
            } else {
                Fix::safe(
                    format!("remove `{}` from the suppression", d.names[i].0),
                    vec![remove_name(file, d, i)],
                )
            };
            let mut diag = Diagnostic::new(UNUSED_SUPPRESSION, severity, span, message);
            if fixable {
                diag = diag.with_fix(fix);
            }
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
fn remove_directive(file: &SourceFile, d: &Directive, logical: &CommentText) -> Vec<Edit> {
    let text = &file.text;
    let comment = logical.text.as_str();
    let inner = comment
        .strip_prefix("//")
        .or_else(|| comment.strip_prefix('#'))
        .or_else(|| {
            comment
                .strip_prefix("/*")
                .map(|c| c.strip_suffix("*/").unwrap_or(c))
        })
        .unwrap_or_default();
    // A Python `#` comment opens with one byte, C++ comments with two.
    let prefix = match comment.len() - inner.len() {
        0 => 0,
        _ if comment.starts_with('#') => 1,
        _ => 2,
    };
    // The directive's bytes in the logical text, relative to `inner`.
    let at = |offset: u32| logical.source.partition_point(|&s| s < offset);
    let rel = at(d.span.start).saturating_sub(prefix).min(inner.len());
    let rel_end = at(d.span.end)
        .saturating_sub(prefix)
        .clamp(rel, inner.len());
    let rest_is_blank = inner.get(..rel).is_none_or(|s| s.trim().is_empty())
        && inner.get(rel_end..).is_none_or(|s| s.trim().is_empty());
    if !rest_is_blank {
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
    // A comment continued by a splice ends on a later line: only the comment goes.
    let one_line = (d.comment.end as usize) <= line_end;
    if one_line
        && before.trim().is_empty()
        && text[d.comment.end as usize..line_end].trim().is_empty()
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
/// allow already there. A line that ends inside a multi-line string literal cannot hold a
/// comment: the allow goes on a line of its own before the line where that string starts
/// (which covers the string's findings, see [`apply`]).
pub fn allow_edit(file: &SourceFile, scan: &Scan, line: usize, rule: &str) -> Edit {
    let line_start = file.line_start(line);
    let line_end = file.line_start(line + 1).min(file.text.len());
    let content_end = line_start
        + file.text[line_start..line_end]
            .trim_end_matches(['\n', '\r'])
            .len();
    if let Some(string) = scan.multiline_string_at(content_end) {
        return allow_line_before(file, scan, file.line_index(string.start as usize), rule);
    }
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
    let python = file.language.is_python();
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

/// A standalone allow before `line` (or the rule added to one already there), moved up to the
/// start of any multi-line string the line starts inside.
fn allow_line_before(file: &SourceFile, scan: &Scan, mut line: usize, rule: &str) -> Edit {
    // Each step goes to an earlier line: it ends.
    while let Some(string) = scan.multiline_string_at(file.line_start(line)) {
        line = file.line_index(string.start as usize);
    }
    if let Some(previous) = line.checked_sub(1) {
        for d in parse_directives(file, scan) {
            if d.line == previous && d.standalone && d.kind == Ok(DirectiveKind::Allow) {
                let close = d.span.end as usize - 1;
                let sep = if d.names.is_empty() { "" } else { ", " };
                return Edit::insert(close, format!("{sep}{rule}"));
            }
        }
    }
    let start = file.line_start(line);
    let text = &file.text[start..];
    let indent = &text[..text.len() - text.trim_start_matches([' ', '\t']).len()];
    let opener = if file.language.is_python() { "#" } else { "//" };
    let newline = if file.text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    Edit::insert(
        start,
        format!("{indent}{opener} ptxguard: allow({rule}){newline}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::scan;
    use std::path::PathBuf;

    fn directives(text: &str) -> (SourceFile, Vec<Directive>) {
        let file = SourceFile::new(PathBuf::from("a.cu"), text.to_string());
        let found = parse_directives(&file, &scan(&file));
        (file, found)
    }

    #[test]
    fn a_directive_continued_by_a_line_splice_reads_as_one() {
        // The 28 bytes that used to panic in `remove_directive`.
        let (file, found) = directives("asm//ptxguard:allow-file(\\\n)");
        assert_eq!(found.len(), 1);
        assert!(found[0].names.is_empty());
        assert_eq!(
            &file.text[found[0].span.range()],
            "ptxguard:allow-file(\\\n)"
        );
        let edits = remove_directive(
            &file,
            &found[0],
            &CommentText::new(&file.text, found[0].comment),
        );
        assert_eq!(edits.len(), 1);
        assert_eq!(
            &file.text[edits[0].span.range()],
            "//ptxguard:allow-file(\\\n)"
        );

        let (file, found) =
            directives("// ptxguard: allow(missing-\\\nvolatile, all)\nasm(\"\");\n");
        assert_eq!(found[0].names[0].0, "missing-volatile");
        assert_eq!(
            &file.text[found[0].names[0].1.range()],
            "missing-\\\nvolatile"
        );
        assert_eq!(found[0].names[1].0, "all");
        assert_eq!(&file.text[found[0].names[1].1.range()], "all");
    }

    #[test]
    fn splices_anywhere_in_a_directive_never_panic_and_keep_its_names() {
        let plain =
            "x; // ptxguard: allow(missing-volatile, all) rest\n/* ptxguard: allow-file(a) */\n";
        for at in 0..plain.len() {
            for splice in ["\\\n", "\\ \r\n"] {
                let text = format!("{}{splice}{}", &plain[..at], &plain[at..]);
                let (file, found) = directives(&text);
                for d in &found {
                    let _ = remove_directive(&file, d, &CommentText::new(&file.text, d.comment));
                    for i in 0..d.names.len() {
                        if d.names.len() > 1 {
                            let _ = remove_name(&file, d, i);
                        }
                    }
                    assert!(d.span.end as usize <= file.text.len());
                }
                // Splices inside the comments do not change what they say.
                let inside = at >= 5 && at <= plain.find(" rest").unwrap()
                    || at >= plain.find("/*").unwrap() + 2 && at < plain.len() - 3;
                if inside {
                    let names: Vec<_> = found
                        .iter()
                        .flat_map(|d| d.names.iter().map(|n| n.0.clone()))
                        .collect();
                    assert_eq!(names, ["missing-volatile", "all", "a"], "{text:?}");
                }
            }
        }
    }
}
