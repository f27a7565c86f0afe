//! Python string literals decoded exactly as Python reads them, each decoded byte keeping the
//! source bytes that produced it: prefixes `r b u f` in any case and combination, single and
//! triple quotes, escapes, line continuations. f-string replacement fields are unknown pieces.

use crate::template::Template;
use crate::Span;
use std::ops::Range;

/// Appends the literal `text[node]` (prefix and quotes included) to `template`;
/// `fields` are the byte ranges of an f-string's `{...}` replacement fields.
pub fn push_python_literal(
    text: &str,
    node: Range<usize>,
    fields: &[Range<usize>],
    template: &mut Template,
) {
    let bytes = text.as_bytes();
    let Some(quote_at) = (node.start..node.end).find(|&i| matches!(bytes[i], b'"' | b'\'')) else {
        template.push_unknown(Span::new(node.start, node.end));
        return;
    };
    let prefix = text[node.start..quote_at].to_ascii_lowercase();
    let raw = prefix.contains('r');
    let formatted = prefix.contains('f') || prefix.contains('t');
    let bytes_literal = prefix.contains('b');
    let q = bytes[quote_at];
    let triple = bytes.get(quote_at + 1) == Some(&q)
        && bytes.get(quote_at + 2) == Some(&q)
        && node.end >= quote_at + 6;
    let open = quote_at + if triple { 3 } else { 1 };
    let close_len = if triple { 3 } else { 1 };
    let close = if node.end >= open + close_len
        && bytes[node.end - close_len..node.end]
            .iter()
            .all(|&b| b == q)
    {
        node.end - close_len
    } else {
        node.end
    };
    let mut out = String::new();
    let mut spans: Vec<Span> = Vec::new();
    let flush = |out: &mut String, spans: &mut Vec<Span>, template: &mut Template| {
        if !out.is_empty() {
            let source = spans[0].cover(spans[spans.len() - 1]);
            template.push_decoded(out, spans, source, raw);
            out.clear();
            spans.clear();
        }
    };
    let mut i = open;
    let mut fields = fields
        .iter()
        .filter(|f| f.start >= open && f.end <= close)
        .peekable();
    while i < close {
        if let Some(field) = fields.peek() {
            if field.start == i {
                flush(&mut out, &mut spans, template);
                template.push_unknown(Span::new(field.start, field.end));
                i = field.end.max(i + 1);
                fields.next();
                continue;
            }
        }
        // A run of plain characters (up to a byte decoded otherwise, the next field or the
        // close) at once: each byte its own source, as one at a time below.
        let limit = fields.peek().map_or(close, |f| f.start.min(close));
        let run = bytes[i..limit.max(i)]
            .iter()
            .position(|&b| b == b'\\' || b == b'\r' || formatted && (b == b'{' || b == b'}'))
            .unwrap_or(limit.max(i) - i);
        if run > 0 {
            out.push_str(&text[i..i + run]);
            spans.extend((i..i + run).map(|k| Span::new(k, k + 1)));
            i += run;
            continue;
        }
        let b = bytes[i];
        if formatted && (b == b'{' || b == b'}') && bytes.get(i + 1) == Some(&b) && i + 1 < close {
            out.push(b as char);
            spans.push(Span::new(i, i + 2));
            i += 2;
            continue;
        }
        if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            out.push('\n');
            spans.push(Span::new(i, i + 2));
            i += 2;
            continue;
        }
        if b != b'\\' || raw {
            // A raw string keeps the backslash and the character after it (even a quote).
            let len = if b == b'\\' && i + 1 < close {
                1
            } else {
                char_len(text, i)
            };
            for k in i..i + len {
                spans.push(Span::new(k, k + 1));
            }
            out.push_str(&text[i..i + len]);
            i += len;
            continue;
        }
        let (decoded, len) = escape(bytes, i, close, bytes_literal);
        let span = Span::new(i, i + len);
        let before = out.len();
        match decoded {
            Escape::Char(c) => out.push(c),
            Escape::Kept => out.push('\\'),
            Escape::Nothing => {}
        }
        spans.extend(std::iter::repeat_n(span, out.len() - before));
        i += if matches!(decoded, Escape::Kept) {
            1
        } else {
            len
        };
    }
    flush(&mut out, &mut spans, template);
}

fn char_len(text: &str, i: usize) -> usize {
    text[i..].chars().next().map_or(1, char::len_utf8)
}

enum Escape {
    Char(char),
    /// An unknown escape: the backslash stays, the next character is read on its own.
    Kept,
    /// A line continuation.
    Nothing,
}

/// The escape at `bytes[i]` (a backslash) and its length.
fn escape(bytes: &[u8], i: usize, end: usize, bytes_literal: bool) -> (Escape, usize) {
    let Some(&c) = bytes.get(i + 1).filter(|_| i + 1 < end) else {
        return (Escape::Kept, 1);
    };
    let simple = match c {
        b'\n' => return (Escape::Nothing, 2),
        b'\r' => {
            let len = if bytes.get(i + 2) == Some(&b'\n') {
                3
            } else {
                2
            };
            return (Escape::Nothing, len);
        }
        b'\\' => '\\',
        b'\'' => '\'',
        b'"' => '"',
        b'a' => '\x07',
        b'b' => '\x08',
        b'f' => '\x0c',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'v' => '\x0b',
        b'0'..=b'7' => {
            let mut j = i + 1;
            let mut value = 0u32;
            while j < end && j < i + 4 && (b'0'..=b'7').contains(&bytes[j]) {
                value = value * 8 + u32::from(bytes[j] - b'0');
                j += 1;
            }
            return (Escape::Char(char::from_u32(value).unwrap_or('?')), j - i);
        }
        b'x' | b'u' | b'U' if !(bytes_literal && c != b'x') => {
            let digits = match c {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let stop = i + 2 + digits;
            if stop > end || !bytes[i + 2..stop].iter().all(u8::is_ascii_hexdigit) {
                // Python rejects the file; read the hex digits that are there (never into a
                // multi-byte character: found by the fuzzer).
                let present = bytes[i + 2..stop.min(end)]
                    .iter()
                    .take_while(|b| b.is_ascii_hexdigit())
                    .count();
                return (Escape::Char('?'), 2 + present);
            }
            let hex = std::str::from_utf8(&bytes[i + 2..stop]).unwrap_or("0");
            let ch = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
            return (Escape::Char(ch.unwrap_or('?')), stop - i);
        }
        b'N' if !bytes_literal && bytes.get(i + 2) == Some(&b'{') => {
            let close = (i + 3..end)
                .find(|&k| bytes[k] == b'}')
                .map_or(end, |k| k + 1);
            // A named character: never part of valid PTX.
            return (Escape::Char('?'), close - i);
        }
        _ => return (Escape::Kept, 1),
    };
    (Escape::Char(simple), 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(src: &str) -> Template {
        let mut t = Template::default();
        push_python_literal(src, 0..src.len(), &[], &mut t);
        t
    }

    fn source_of<'a>(src: &'a str, t: &Template, needle: &str) -> &'a str {
        let at = t.text.find(needle).expect("needle in decoded text");
        &src[t.source_span(at..at + needle.len()).range()]
    }

    /// A short `\x`/`\u` escape before a multi-byte character (a fuzzer's panic).
    #[test]
    fn short_hex_escapes_stop_at_the_digits() {
        for src in ["'\\x\u{fffd}a'", "'\\u1\u{e9}'", "'\\U0000\u{fffd}'"] {
            let t = decode(src);
            for (at, ch) in t.text.char_indices() {
                let span = t.source_span(at..at + ch.len_utf8());
                assert!(
                    src.is_char_boundary(span.start as usize),
                    "{src:?}: {span:?}"
                );
                assert!(src.is_char_boundary(span.end as usize), "{src:?}: {span:?}");
            }
        }
    }

    #[test]
    fn quotes_and_prefixes() {
        assert_eq!(decode("'a\"b'").text, "a\"b");
        assert_eq!(decode("\"a'b\"").text, "a'b");
        assert_eq!(decode("'''x\ny'''").text, "x\ny");
        assert_eq!(decode("\"\"\"x\"y\"\"\"").text, "x\"y");
        assert_eq!(decode("R'a\\nb'").text, "a\\nb");
        assert_eq!(decode("Rb'a\\'b'").text, "a\\'b");
        assert_eq!(decode("u'\\u0041'").text, "A");
        assert_eq!(decode("b'\\u0041'").text, "\\u0041");
        assert_eq!(decode("''").text, "");
        assert_eq!(decode("''''''").text, "");
    }

    #[test]
    fn escapes_map_to_their_source() {
        let src = r"'mov.u32 $0, %tid.x;\n\tadd\x2e'";
        let t = decode(src);
        assert_eq!(t.text, "mov.u32 $0, %tid.x;\n\tadd.");
        assert_eq!(source_of(src, &t, "\n"), "\\n");
        assert_eq!(source_of(src, &t, "."), ".");
        assert_eq!(source_of(src, &t, "$0"), "$0");
        let dot = t.text.rfind('.').unwrap();
        assert_eq!(&src[t.source_span(dot..dot + 1).range()], "\\x2e");
        assert_eq!(decode(r"'\101\q'").text, "A\\q");
    }

    #[test]
    fn line_continuation_and_crlf() {
        let src = "'ld.glo\\\nbal'";
        let t = decode(src);
        assert_eq!(t.text, "ld.global");
        assert_eq!(source_of(src, &t, "ld.global"), "ld.glo\\\nbal");
        assert_eq!(decode("'''a\r\nb'''").text, "a\nb");
    }

    #[test]
    fn fstring_fields_are_unknown_and_doubled_braces_single() {
        let src = "f'{{ mov.u32 $0, {x}; }}'";
        let field = src.find("{x}").unwrap();
        let mut t = Template::default();
        let fields: Vec<Range<usize>> = std::iter::once(field..field + 3).collect();
        push_python_literal(src, 0..src.len(), &fields, &mut t);
        assert_eq!(t.text, "{ mov.u32 $0, \u{1}; }");
        assert!(t.is_partial());
        let hole = t.text.find('\u{1}').unwrap();
        assert_eq!(&src[t.source_span(hole..hole + 1).range()], "{x}");
    }

    /// Plain characters are copied a run at a time: each keeps its own bytes as its source,
    /// up to the bytes decoded otherwise (escapes, doubled braces, CRLF, fields).
    #[test]
    fn plain_runs_keep_each_byte_its_source() {
        let src = "f'a\u{e9}{{b}}\\tc\r\nd{x}e\u{1f600}\\'";
        let field = src.find("{x}").unwrap();
        let mut t = Template::default();
        push_python_literal(
            src,
            0..src.len(),
            std::slice::from_ref(&(field..field + 3)),
            &mut t,
        );
        assert_eq!(t.text, "a\u{e9}{b}\tc\nd\u{1}e\u{1f600}\\");
        for (at, ch) in t.text.char_indices() {
            let source = &src[t.source_span(at..at + ch.len_utf8()).range()];
            let expected = match ch {
                '{' => "{{",
                '}' => "}}",
                '\t' => "\\t",
                '\n' => "\r\n",
                '\u{1}' => "{x}",
                '\\' => "\\",
                _ => &src[src.find(ch).unwrap()..][..ch.len_utf8()],
            };
            assert_eq!(source, expected, "{ch:?}");
        }
        // A raw string keeps its backslashes, each its own byte.
        let src = "r'a\\\u{e9}\\'";
        assert_eq!(decode(src).text, "a\\\u{e9}\\");
        assert_eq!(source_of(src, &decode(src), "\u{e9}"), "\u{e9}");
    }

    #[test]
    fn never_panics_on_prefixes_of_literals() {
        let src = "rb'''a\\\u{e9}\\x4'''";
        for end in 0..=src.len() {
            if src.is_char_boundary(end) {
                let mut t = Template::default();
                push_python_literal(src, 0..end, &[], &mut t);
            }
        }
    }
}
