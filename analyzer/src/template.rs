//! Template decoding and the source map.
//!
//! The template is decoded exactly as the compiler sees it: adjacent literals concatenated,
//! escapes decoded, line splices removed, raw strings taken verbatim, string macros from the
//! same file expanded. Each byte of the decoded text remembers the source bytes that produced
//! it, so a diagnostic on decoded bytes underlines exactly those bytes in the file.

use crate::cpp::lexer::splice_len;
use crate::Span;
use std::ops::Range;

/// Stands in the decoded text for a piece that cannot be known (the PTX parser's [`HOLE`]).
pub use crate::ptx::HOLE;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceKind {
    /// A string literal written in the statement.
    Literal,
    /// A string literal reached through an object-like macro of the same file.
    Macro(String),
    /// Something whose text cannot be known; decoded as one [`HOLE`].
    Unknown,
    /// An `#include` inside the statement's parentheses: the template continues with another
    /// file's text, not read here; decoded as one [`HOLE`].
    Included,
}

/// One piece of the template as written in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub kind: PieceKind,
    /// Where the piece is written in the statement (a literal, or the macro's name).
    pub source: Span,
    /// The bytes it produced in the decoded text.
    pub decoded: Range<usize>,
    /// A raw string literal.
    pub raw: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Template {
    /// The decoded text; unknown pieces appear as a single [`HOLE`] each.
    pub text: String,
    /// For each decoded byte, the source bytes that produced it.
    map: Vec<Span>,
    pub pieces: Vec<Piece>,
}

impl Template {
    /// True when part of the template could not be known.
    pub fn is_partial(&self) -> bool {
        self.pieces
            .iter()
            .any(|p| matches!(p.kind, PieceKind::Unknown | PieceKind::Included))
    }

    /// True when part of the template is another file's text (an `#include` in the asm).
    pub fn is_included(&self) -> bool {
        self.pieces.iter().any(|p| p.kind == PieceKind::Included)
    }

    /// The source bytes that produced the decoded range (an empty range maps to the
    /// point before the byte it starts at).
    pub fn source_span(&self, decoded: Range<usize>) -> Span {
        if self.map.is_empty() {
            return Span::default();
        }
        let start = decoded.start.min(self.map.len());
        if decoded.end <= decoded.start {
            return match self.map.get(start) {
                Some(s) => Span::empty_at(s.start as usize),
                None => Span::empty_at(self.map[self.map.len() - 1].end as usize),
            };
        }
        let end = decoded.end.min(self.map.len());
        let first = self.map[start];
        let last = self.map[end - 1];
        if last.end >= first.start {
            first.cover(last)
        } else {
            // The range crosses into a macro piece defined earlier in the file.
            first
        }
    }

    /// The source span of one decoded byte.
    pub fn byte_source(&self, decoded: usize) -> Option<Span> {
        self.map.get(decoded).copied()
    }

    /// True when every decoded byte of the range is written verbatim in one literal of the
    /// statement (no escape, splice or macro): its source text can be replaced by new text.
    pub fn is_verbatim(&self, decoded: Range<usize>, source: &str) -> bool {
        let Some(piece) = self.piece_at(decoded.start) else {
            return false;
        };
        if piece.kind != PieceKind::Literal || decoded.end > piece.decoded.end {
            return false;
        }
        let span = self.source_span(decoded.clone());
        span.len() == decoded.len() && source.get(span.range()) == self.text.get(decoded)
    }

    pub fn piece_at(&self, decoded: usize) -> Option<&Piece> {
        self.pieces
            .iter()
            .find(|p| p.decoded.start <= decoded && decoded < p.decoded.end)
    }

    /// Appends a literal token's decoded bytes (`text[token]` is the whole literal,
    /// prefix and quotes included).
    pub fn push_literal(&mut self, text: &str, token: Span, kind: PieceKind) {
        let start = self.text.len();
        let raw = decode_literal(text, token, &mut self.text, &mut self.map);
        self.pieces.push(Piece {
            kind,
            source: token,
            decoded: start..self.text.len(),
            raw,
        });
    }

    /// Appends a piece decoded by another front end (Python literals): its text, with the
    /// source span of each of its bytes.
    pub fn push_decoded(&mut self, text: &str, spans: &[Span], source: Span, raw: bool) {
        debug_assert_eq!(text.len(), spans.len());
        let start = self.text.len();
        self.text.push_str(text);
        self.map.extend_from_slice(spans);
        self.map.resize(self.text.len(), source);
        self.pieces.push(Piece {
            kind: PieceKind::Literal,
            source,
            decoded: start..self.text.len(),
            raw,
        });
    }

    /// Moves every source span through `f` (a template found in text that was itself decoded
    /// from another file's literal).
    pub fn remap(&mut self, f: &impl Fn(Span) -> Span) {
        self.map.iter_mut().for_each(|s| *s = f(*s));
        self.pieces.iter_mut().for_each(|p| p.source = f(p.source));
    }

    /// Appends a piece that cannot be known.
    pub fn push_unknown(&mut self, source: Span) {
        self.push_hole(source, PieceKind::Unknown);
    }

    /// Appends an `#include`d file's text, not read.
    pub fn push_included(&mut self, source: Span) {
        self.push_hole(source, PieceKind::Included);
    }

    fn push_hole(&mut self, source: Span, kind: PieceKind) {
        let start = self.text.len();
        self.text.push(HOLE);
        self.map.push(source);
        self.pieces.push(Piece {
            kind,
            source,
            decoded: start..start + 1,
            raw: false,
        });
    }
}

/// Decodes one literal into `out`, recording the source span of each byte; returns whether
/// it was a raw string.
fn decode_literal(text: &str, token: Span, out: &mut String, map: &mut Vec<Span>) -> bool {
    let bytes = text.as_bytes();
    let (start, end) = (token.start as usize, token.end as usize);
    out.reserve(end - start);
    map.reserve(end - start);
    let Some(quote) = memchr::memchr(b'"', &bytes[start..end]).map(|i| start + i) else {
        return false;
    };
    let raw = bytes[start..quote].ends_with(b"R");
    if raw {
        let Some(open) = memchr::memchr(b'(', &bytes[quote..end]).map(|i| quote + i) else {
            return true;
        };
        let delim_len = open - quote - 1;
        // `)delim"` closes it; an unterminated raw string runs to the end of the token.
        let close = if end >= open + 1 + delim_len + 2
            && bytes[end - 1] == b'"'
            && bytes[end - 2 - delim_len] == b')'
        {
            end - 2 - delim_len
        } else {
            end
        };
        let body = &text[open + 1..close.max(open + 1)];
        out.push_str(body);
        map.extend((open + 1..close.max(open + 1)).map(|i| Span::new(i, i + 1)));
        return true;
    }
    let close = if end > quote + 1
        && bytes[end - 1] == b'"'
        && !ends_in_escape(bytes, quote + 1, end - 1)
    {
        end - 1
    } else {
        end
    };
    let mut i = quote + 1;
    while i < close {
        // Up to the next backslash, the text is copied as is; each byte maps to itself.
        let run_end = memchr::memchr(b'\\', &bytes[i..close]).map_or(close, |k| i + k);
        if run_end > i {
            match text.get(i..run_end) {
                Some(run) => out.push_str(run),
                // Not at character boundaries (cannot happen: both ends are ASCII bytes).
                None => out.extend(std::iter::repeat_n('?', run_end - i)),
            }
            map.extend((i..run_end).map(|k| Span::new(k, k + 1)));
            i = run_end;
            continue;
        }
        let splice = splice_len(bytes, i);
        if splice > 0 {
            i += splice;
            continue;
        }
        let (value, len) = decode_escape(bytes, i, close);
        let span = Span::new(i, i + len);
        let before = out.len();
        match value {
            Some(c) => out.push(c),
            None => out.push('?'),
        }
        map.extend(std::iter::repeat_n(span, out.len() - before));
        i += len;
    }
    false
}

/// Whether the byte before `end` is an escaping backslash (so the quote at `end` is escaped).
fn ends_in_escape(bytes: &[u8], start: usize, end: usize) -> bool {
    let mut n = 0;
    let mut i = end;
    while i > start && bytes[i - 1] == b'\\' {
        n += 1;
        i -= 1;
    }
    n % 2 == 1
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// Decodes the escape at `i` (a backslash); returns its character and source length.
fn decode_escape(bytes: &[u8], i: usize, end: usize) -> (Option<char>, usize) {
    let Some(&c) = bytes.get(i + 1).filter(|_| i + 1 < end) else {
        return (Some('\\'), 1);
    };
    let simple = match c {
        b'n' => Some('\n'),
        b't' => Some('\t'),
        b'r' => Some('\r'),
        b'\\' => Some('\\'),
        b'"' => Some('"'),
        b'\'' => Some('\''),
        b'?' => Some('?'),
        b'a' => Some('\x07'),
        b'b' => Some('\x08'),
        b'f' => Some('\x0c'),
        b'v' => Some('\x0b'),
        b'e' => Some('\x1b'),
        _ => None,
    };
    if let Some(ch) = simple {
        return (Some(ch), 2);
    }
    match c {
        b'0'..=b'7' => {
            let mut j = i + 1;
            let mut value = 0u32;
            while j < end && j < i + 4 && (b'0'..=b'7').contains(&bytes[j]) {
                value = value * 8 + (bytes[j] - b'0') as u32;
                j += 1;
            }
            (byte_char(value), j - i)
        }
        b'x' => {
            let mut j = i + 2;
            let mut value = 0u32;
            while j < end && bytes[j].is_ascii_hexdigit() {
                value = value
                    .saturating_mul(16)
                    .saturating_add((bytes[j] as char).to_digit(16).unwrap_or(0));
                j += 1;
            }
            (byte_char(value), j - i)
        }
        b'u' | b'U' => {
            let digits = if c == b'u' { 4 } else { 8 };
            // Only hex digits belong to it (`\u32 ` is short: an error, and the rest is text;
            // never a cut through a multi-byte character).
            let mut stop = i + 2;
            while stop < (i + 2 + digits).min(end) && bytes[stop].is_ascii_hexdigit() {
                stop += 1;
            }
            let hex = std::str::from_utf8(&bytes[i + 2..stop]).unwrap_or("");
            let ch = (stop - i - 2 == digits)
                .then(|| u32::from_str_radix(hex, 16).ok().and_then(char::from_u32))
                .flatten();
            (ch, stop - i)
        }
        _ => {
            // Unknown escape: compilers keep the character and warn.
            let len = utf8_len(c);
            let ch = std::str::from_utf8(&bytes[i + 1..(i + 1 + len).min(end)])
                .ok()
                .and_then(|s| s.chars().next());
            (ch, 1 + len)
        }
    }
}

/// Escapes that name one byte: ASCII decodes as itself; others cannot be represented in the
/// UTF-8 decoded text and become `?` (PTX is ASCII).
fn byte_char(value: u32) -> Option<char> {
    (value < 0x80).then_some(value as u8 as char)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(src: &str) -> Template {
        let mut t = Template::default();
        let mut pos = 0;
        // Every literal in `src`, in order, as pieces of one template.
        let toks = crate::cpp::lexer::lex_range(src, 0, src.len(), false);
        for tok in toks {
            if tok.kind == crate::cpp::lexer::TokenKind::Str {
                t.push_literal(src, tok.span, PieceKind::Literal);
            }
            pos = tok.end();
        }
        let _ = pos;
        t
    }

    fn source_of<'a>(src: &'a str, t: &Template, needle: &str) -> &'a str {
        let at = t.text.find(needle).expect("needle in decoded text");
        &src[t.source_span(at..at + needle.len()).range()]
    }

    /// A short universal character name stops at its last hex digit (found by the fuzzer: a
    /// span ended inside the multi-byte character after `\u32 `).
    #[test]
    fn short_universal_character_names_stop_at_the_digits() {
        let src = "\"\\u32 \u{fffd}0;\"";
        let t = decode(src);
        for (at, ch) in t.text.char_indices() {
            let span = t.source_span(at..at + ch.len_utf8());
            assert!(src.is_char_boundary(span.start as usize), "{span:?}");
            assert!(src.is_char_boundary(span.end as usize), "{span:?}");
        }
        assert!(t.text.ends_with(" \u{fffd}0;"), "{:?}", t.text);
    }

    #[test]
    fn concatenation_across_lines_and_comments() {
        let src = "\"mov.u32 %0, \" /* c */\n  \"%1;\"";
        let t = decode(src);
        assert_eq!(t.text, "mov.u32 %0, %1;");
        assert_eq!(source_of(src, &t, "%1"), "%1");
        assert_eq!(t.pieces.len(), 2);
    }

    #[test]
    fn escapes_map_to_their_characters() {
        let src = r#""a\n\tb\"c\\d\x25n1\045e""#;
        let t = decode(src);
        assert_eq!(t.text, "a\n\tb\"c\\d%n1%e");
        assert_eq!(source_of(src, &t, "\n"), "\\n");
        assert_eq!(source_of(src, &t, "%n1"), "\\x25n1");
        let at = t.text.rfind('%').unwrap();
        assert_eq!(&src[t.source_span(at..at + 1).range()], "\\045");
    }

    #[test]
    fn splice_inside_literal_is_removed() {
        let src = "\"ld.glo\\\nbal.u32 %0;\"";
        let t = decode(src);
        assert_eq!(t.text, "ld.global.u32 %0;");
        assert_eq!(source_of(src, &t, "ld.global"), "ld.glo\\\nbal");
        assert_eq!(source_of(src, &t, "%0"), "%0");
    }

    #[test]
    fn raw_strings_are_verbatim() {
        let src = "R\"ptx(\n{ .reg .b32 t; }\\n)ptx\" \"x\"";
        let t = decode(src);
        assert_eq!(t.text, "\n{ .reg .b32 t; }\\nx");
        assert_eq!(source_of(src, &t, ".reg"), ".reg");
        assert!(t.pieces[0].raw);
    }

    #[test]
    fn prefixes_are_skipped() {
        let src = "u8\"a\" L\"b\" u8R\"(c)\"";
        assert_eq!(decode(src).text, "abc");
    }

    #[test]
    fn holes_map_to_their_source() {
        let src = "\"ld.\" #mod \".v4\"";
        let toks = crate::cpp::lexer::lex_range(src, 0, src.len(), true);
        let mut t = Template::default();
        t.push_literal(src, toks[0].span, PieceKind::Literal);
        t.push_unknown(toks[1].span.cover(toks[2].span));
        t.push_literal(src, toks[3].span, PieceKind::Literal);
        assert_eq!(t.text, "ld.\u{1}.v4");
        assert!(t.is_partial());
        assert_eq!(&src[t.source_span(3..4).range()], "#mod");
    }

    #[test]
    fn verbatim_ranges_allow_text_edits() {
        let src = r#""a%clock\x25b""#;
        let t = decode(src);
        assert!(t.is_verbatim(1..7, src));
        assert!(!t.is_verbatim(7..8, src));
    }

    #[test]
    fn unterminated_literal_decodes_what_is_there() {
        let src = "\"abc";
        assert_eq!(decode(src).text, "abc");
    }
}
