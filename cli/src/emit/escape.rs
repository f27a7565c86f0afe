//! Text from files and file names reaches a terminal or a CI log only escaped: control
//! characters (ESC and OSC sequences, a newline that forges an output line, a carriage return
//! that hides one) and bidirectional overrides are shown, never obeyed.

use crate::args::OutputFormat;
use std::borrow::Cow;

/// Whether a character would act on a terminal instead of being shown: C0 controls but tab
/// and newline, DEL, C1 controls (U+009B is a CSI on its own) and the bidirectional
/// overrides that reorder what is shown.
fn acts_on_terminal(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// One line of text with every control character written as an escape (`\n`, `\r`,
/// `\x1b`, `\u{202e}`).
pub fn visible(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c == '\n' || acts_on_terminal(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 && acts_on_terminal(c) => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if acts_on_terminal(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A file's text as a source snippet shows it: each control character (but tab, newline and
/// the `\r` of a `\r\n`) replaced by a visible symbol (U+2400's control pictures, U+FFFD for
/// the others), with the map of byte offsets into it. `None` when nothing needs replacing.
pub struct VisibleSource {
    pub text: String,
    /// For each replaced character: its offset in the original text and how many bytes the
    /// replacements up to and including it added.
    shifts: Vec<(usize, usize)>,
}

impl VisibleSource {
    pub fn of(text: &str) -> Option<VisibleSource> {
        let bytes = text.as_bytes();
        let replaced = |at: usize, c: char| {
            acts_on_terminal(c) && !(c == '\r' && bytes.get(at + 1) == Some(&b'\n'))
        };
        if !text.char_indices().any(|(at, c)| replaced(at, c)) {
            return None;
        }
        let mut out = String::with_capacity(text.len() + 16);
        let mut shifts = Vec::new();
        let mut added = 0;
        for (at, c) in text.char_indices() {
            if !replaced(at, c) {
                out.push(c);
                continue;
            }
            let shown = match c as u32 {
                n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
                0x7f => '\u{2421}',
                _ => '\u{fffd}',
            };
            out.push(shown);
            added += shown.len_utf8() - c.len_utf8();
            shifts.push((at, added));
        }
        Some(VisibleSource { text: out, shifts })
    }

    /// Where an offset of the original text is in [`VisibleSource::text`].
    pub fn map(&self, offset: usize) -> usize {
        let before = self.shifts.partition_point(|&(at, _)| at < offset);
        offset + before.checked_sub(1).map_or(0, |i| self.shifts[i].1)
    }
}

/// How much a line printed on stderr says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Plain,
}

/// A line of ours for stderr, control characters made visible. With `--output-format
/// github` the runner reads workflow commands from stderr too, so errors and warnings are
/// `::error::`/`::warning::` commands with escaped data (a file name holding a newline and
/// `::error ...` cannot start a line of its own), and the `##[` of the older syntax, read
/// anywhere in a line, is broken up in plain lines.
pub fn stderr_line(format: OutputFormat, level: Level, text: &str) -> String {
    let shown = visible(text);
    match (format, level) {
        (OutputFormat::Github, Level::Error) => {
            format!("::error::{}", super::text::escape_data(&shown))
        }
        (OutputFormat::Github, Level::Warning) => {
            format!("::warning::{}", super::text::escape_data(&shown))
        }
        (OutputFormat::Github, Level::Plain) => shown.replace("##[", "##\\["),
        (_, Level::Error) => format!("error: {shown}"),
        (_, Level::Warning) => format!("warning: {shown}"),
        (_, Level::Plain) => shown.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_not_obeyed() {
        assert_eq!(visible("plain\ttab"), "plain\ttab");
        assert_eq!(
            visible("a\nb\r\x1b]8;;x\x07\u{9b}\u{202e}"),
            "a\\nb\\r\\x1b]8;;x\\x07\\u{9b}\\u{202e}"
        );
    }

    #[test]
    fn source_offsets_map_past_replacements() {
        let v = VisibleSource::of("a\x1bb\r\nc\u{9b}d").unwrap();
        assert_eq!(v.text, "a\u{241b}b\r\nc\u{fffd}d");
        // `b` was at 2, now after a 3-byte picture.
        assert_eq!(&v.text[v.map(2)..v.map(3)], "b");
        assert_eq!(&v.text[v.map(5)..v.map(8)], "c\u{fffd}");
        assert_eq!(&v.text[v.map(8)..v.map(9)], "d");
        assert!(VisibleSource::of("clean\r\ntext\n").is_none());
    }

    #[test]
    fn github_stderr_lines_are_commands() {
        let line = stderr_line(
            OutputFormat::Github,
            Level::Error,
            "a\n::error file=x::forged\n.cu: cannot read",
        );
        assert_eq!(line.lines().count(), 1);
        assert!(line.starts_with("::error::a\\n::error"), "{line}");
        assert_eq!(
            stderr_line(OutputFormat::Github, Level::Plain, "##[error]x 50%"),
            "##\\[error]x 50%"
        );
    }
}
