//! Single-pass lexer over the template bytes: words, punctuation and strings, with every `%`
//! sequence recorded on the way (comments excluded).

use super::model::{Percent, PercentKind, PercentMode, SyntaxError, SyntaxErrorKind};

const HOLE_BYTE: u8 = super::HOLE as u8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// An identifier-like run: opcodes with their dotted parts, names, numbers, placeholders,
    /// `%%` escapes and labels such as `L_%=`. Holes sit inside words.
    Word,
    /// One ASCII punctuation byte: `; , { } [ ] ( ) @ ! | : + - < > =` and others.
    Punct(u8),
    /// A `"..."` string (`.pragma "nounroll"`).
    Str,
    /// A character PTX has no use for (non-ASCII, control byte).
    Other,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
    /// A newline (or a comment spanning one) separates this token from the previous one.
    pub newline_before: bool,
    pub has_hole: bool,
    /// Index range into the percents list of the `%` sequences inside this token.
    pub percents_start: u32,
    pub percents_end: u32,
}

impl Token {
    pub(crate) fn is_punct(&self, byte: u8) -> bool {
        self.kind == TokenKind::Punct(byte)
    }

    pub(crate) fn span(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub percents: Vec<Percent>,
    pub errors: Vec<SyntaxError>,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

/// Reads the `%` sequence at `bytes[at]` (which is `%`): its length and meaning.
pub(crate) fn read_percent(bytes: &[u8], at: usize, mode: PercentMode) -> (usize, PercentKind) {
    let next = |k: usize| bytes.get(at + k).copied().unwrap_or(0);
    let digits_from = |k: usize| {
        let mut end = at + k;
        let mut value: u32 = 0;
        while let Some(&d) = bytes.get(end).filter(|d| d.is_ascii_digit()) {
            value = value.saturating_mul(10).saturating_add(u32::from(d - b'0'));
            end += 1;
        }
        (end - at, value)
    };
    // `[name]` starting at offset k: the length up to and including `]`, and the name.
    let bracket_name_from = |k: usize| -> Option<(usize, String)> {
        let mut end = at + k + 1;
        while bytes.get(end).is_some_and(|&b| is_ident_byte(b)) {
            end += 1;
        }
        let name = &bytes[at + k + 1..end];
        if name.is_empty() || bytes.get(end) != Some(&b']') {
            return None;
        }
        Some((end + 1 - at, String::from_utf8_lossy(name).into_owned()))
    };
    if mode == PercentMode::Llvm {
        // `%` is not special in LLVM inline asm: `%%` and `%0` reach ptxas as written.
        return match next(1) {
            b'%' => (2, PercentKind::Escape),
            b if is_ident_byte(b) => read_register(bytes, at),
            _ => (1, PercentKind::Stray),
        };
    }
    match next(1) {
        b'%' => (2, PercentKind::Escape),
        b'=' => (2, PercentKind::Unique),
        d if d.is_ascii_digit() => {
            let (len, index) = digits_from(1);
            (
                len,
                PercentKind::Operand {
                    index,
                    modifier: None,
                },
            )
        }
        b'[' => match bracket_name_from(1) {
            Some((len, name)) => (
                len,
                PercentKind::Named {
                    name,
                    modifier: None,
                },
            ),
            None => (1, PercentKind::Stray),
        },
        letter if letter.is_ascii_alphabetic() && mode == PercentMode::WithOperands => {
            // nvcc reads `%` + one letter + an operand as a modifier (`%n1`, `%c[x]`).
            let modifier = Some((letter as char).to_string());
            if next(2).is_ascii_digit() {
                let (len, index) = digits_from(2);
                return (len, PercentKind::Operand { index, modifier });
            }
            if next(2) == b'[' {
                if let Some((len, name)) = bracket_name_from(2) {
                    return (len, PercentKind::Named { name, modifier });
                }
            }
            read_register(bytes, at)
        }
        b if is_ident_start(b) => read_register(bytes, at),
        _ => (1, PercentKind::Stray),
    }
}

/// Reads the `$` sequence at `bytes[at]` in LLVM inline asm: `$N`, `${N:modifier}`, `$$`,
/// `${:uid}` (unique per instance); `None` when the `$` is an ordinary character.
pub(crate) fn read_dollar(bytes: &[u8], at: usize) -> Option<(usize, PercentKind)> {
    let digits_end = |from: usize| {
        let mut end = from;
        while bytes.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        end
    };
    let number = |from: usize, to: usize| {
        bytes[from..to].iter().fold(0u32, |v, d| {
            v.saturating_mul(10).saturating_add(u32::from(d - b'0'))
        })
    };
    match bytes.get(at + 1).copied() {
        Some(b'$') => Some((2, PercentKind::Escape)),
        Some(d) if d.is_ascii_digit() => {
            let end = digits_end(at + 1);
            Some((
                end - at,
                PercentKind::Operand {
                    index: number(at + 1, end),
                    modifier: None,
                },
            ))
        }
        Some(b'{') => {
            let close = at + 2 + memchr::memchr(b'}', bytes.get(at + 2..)?)?;
            let inner = &bytes[at + 2..close];
            let (index, modifier) = match memchr::memchr(b':', inner) {
                Some(c) => (&inner[..c], Some(&inner[c + 1..])),
                None => (inner, None),
            };
            let len = close + 1 - at;
            if index.is_empty() && modifier == Some(b"uid".as_slice()) {
                return Some((len, PercentKind::Unique));
            }
            if index.is_empty() || !index.iter().all(u8::is_ascii_digit) {
                return None;
            }
            Some((
                len,
                PercentKind::Operand {
                    index: number(at + 2, at + 2 + index.len()),
                    modifier: modifier.map(|m| String::from_utf8_lossy(m).into_owned()),
                },
            ))
        }
        _ => None,
    }
}

/// `%name`, with a `.x`/`.y`/`.z`/`.w` component (`%tid.x`).
fn read_register(bytes: &[u8], at: usize) -> (usize, PercentKind) {
    let mut end = at + 1;
    while bytes.get(end).is_some_and(|&b| is_ident_byte(b)) {
        end += 1;
    }
    if bytes.get(end) == Some(&b'.')
        && bytes
            .get(end + 1)
            .is_some_and(|b| matches!(b, b'x' | b'y' | b'z' | b'w'))
        && !bytes.get(end + 2).is_some_and(|&b| is_ident_byte(b))
    {
        end += 2;
    }
    let name = String::from_utf8_lossy(&bytes[at + 1..end]).into_owned();
    (end - at, PercentKind::Register { name })
}

/// Numbers that may carry an exponent sign: decimal floats, not `0x`/`0f`/`0d`/`0b` forms.
fn is_decimal_number(word: &[u8]) -> bool {
    match word {
        [b'0', b'x' | b'X' | b'f' | b'F' | b'd' | b'D' | b'b' | b'B', ..] => false,
        [first, ..] => first.is_ascii_digit(),
        [] => false,
    }
}

pub(crate) fn lex(text: &str, mode: PercentMode) -> Lexed {
    let bytes = text.as_bytes();
    let mut tokens = Vec::with_capacity(bytes.len() / 3 + 4);
    let mut percents = Vec::new();
    let mut errors = Vec::new();
    let mut newline = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                newline = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                match memchr::memmem::find(&bytes[i + 2..], b"*/") {
                    Some(n) => {
                        newline |= memchr::memchr(b'\n', &bytes[i + 2..i + 2 + n]).is_some();
                        i += n + 4;
                    }
                    None => {
                        errors.push(SyntaxError {
                            span: i..i + 2,
                            kind: SyntaxErrorKind::Unterminated("comment"),
                        });
                        i = bytes.len();
                    }
                }
            }
            b'"' => {
                let start = i;
                let percents_start = percents.len() as u32;
                let mut has_hole = false;
                i += 1;
                let mut closed = false;
                while i < bytes.len() {
                    match bytes[i] {
                        b'"' => {
                            i += 1;
                            closed = true;
                            break;
                        }
                        b'\n' => break,
                        b'\\' if i + 1 < bytes.len() && bytes[i + 1] != b'\n' => i += 2,
                        b'%' => {
                            let (len, kind) = read_percent(bytes, i, mode);
                            percents.push(Percent {
                                span: i..i + len,
                                kind,
                            });
                            i += len;
                        }
                        HOLE_BYTE => {
                            has_hole = true;
                            i += 1;
                        }
                        _ => i += 1,
                    }
                }
                // A `\` escape may have stepped into a multi-byte character.
                while !text.is_char_boundary(i) {
                    i += 1;
                }
                if !closed && !has_hole {
                    errors.push(SyntaxError {
                        span: start..start + 1,
                        kind: SyntaxErrorKind::Unterminated("string"),
                    });
                }
                tokens.push(Token {
                    kind: TokenKind::Str,
                    start,
                    end: i,
                    newline_before: std::mem::take(&mut newline),
                    has_hole,
                    percents_start,
                    percents_end: percents.len() as u32,
                });
            }
            _ if is_word_start(bytes, i) => {
                let start = i;
                let percents_start = percents.len() as u32;
                let mut has_hole = false;
                while i < bytes.len() {
                    let c = bytes[i];
                    if c == b'$' && mode == PercentMode::Llvm {
                        if let Some((len, kind)) = read_dollar(bytes, i) {
                            percents.push(Percent {
                                span: i..i + len,
                                kind,
                            });
                            i += len;
                        } else {
                            i += 1;
                        }
                    } else if is_ident_byte(c) || c == b'.' {
                        i += 1;
                    } else if c == HOLE_BYTE {
                        has_hole = true;
                        i += 1;
                    } else if c == b':' && bytes.get(i + 1) == Some(&b':') && i > start {
                        i += 2;
                    } else if c == b'%' {
                        let (len, kind) = read_percent(bytes, i, mode);
                        if kind == PercentKind::Stray && i > start {
                            break; // the stray `%` becomes its own token
                        }
                        percents.push(Percent {
                            span: i..i + len,
                            kind,
                        });
                        i += len;
                    } else if (c == b'-' || c == b'+')
                        && matches!(bytes[i - 1], b'e' | b'E')
                        && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
                        && is_decimal_number(&bytes[start..i])
                    {
                        i += 1; // exponent sign: `1e-3`
                    } else {
                        break;
                    }
                }
                tokens.push(Token {
                    kind: TokenKind::Word,
                    start,
                    end: i,
                    newline_before: std::mem::take(&mut newline),
                    has_hole,
                    percents_start,
                    percents_end: percents.len() as u32,
                });
            }
            _ => {
                let start = i;
                let kind = if b.is_ascii_punctuation() {
                    i += 1;
                    TokenKind::Punct(b)
                } else {
                    i += 1;
                    while !text.is_char_boundary(i) {
                        i += 1;
                    }
                    TokenKind::Other
                };
                let at = percents.len() as u32;
                tokens.push(Token {
                    kind,
                    start,
                    end: i,
                    newline_before: std::mem::take(&mut newline),
                    has_hole: false,
                    percents_start: at,
                    percents_end: at,
                });
            }
        }
    }
    Lexed {
        tokens,
        percents,
        errors,
    }
}

fn is_word_start(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        b'%' | HOLE_BYTE => true,
        b'.' => bytes
            .get(i + 1)
            .is_some_and(|&b| is_ident_byte(b) || b == HOLE_BYTE || b == b'%'),
        b => is_ident_byte(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<&str> {
        lex(text, PercentMode::WithOperands)
            .tokens
            .iter()
            .map(|t| &text[t.span()])
            .collect()
    }

    #[test]
    fn splits_words_and_punctuation() {
        assert_eq!(
            words("ld.global.v4.u32 {%0,%1}, [%2+16];"),
            [
                "ld.global.v4.u32",
                "{",
                "%0",
                ",",
                "%1",
                "}",
                ",",
                "[",
                "%2",
                "+",
                "16",
                "]",
                ";"
            ]
        );
    }

    #[test]
    fn keeps_double_colons_labels_and_exponents_in_words() {
        assert_eq!(
            words("cp.async.bulk.shared::cluster L_%=: 1e-3 0x1e-3 LAB:"),
            [
                "cp.async.bulk.shared::cluster",
                "L_%=",
                ":",
                "1e-3",
                "0x1e",
                "-",
                "3",
                "LAB",
                ":"
            ]
        );
    }

    #[test]
    fn percent_kinds_in_both_modes() {
        let text = "%0 %12 %[x] %= %% %n1 %c[y] %rd1 %tid.x %r1 % ";
        let with = lex(text, PercentMode::WithOperands).percents;
        let kinds: Vec<_> = with
            .iter()
            .map(|p| (&text[p.span.clone()], &p.kind))
            .collect();
        assert_eq!(
            kinds[5],
            (
                "%n1",
                &PercentKind::Operand {
                    index: 1,
                    modifier: Some("n".into())
                }
            )
        );
        assert_eq!(
            kinds[6],
            (
                "%c[y]",
                &PercentKind::Named {
                    name: "y".into(),
                    modifier: Some("c".into())
                }
            )
        );
        assert_eq!(
            kinds[7],
            ("%rd1", &PercentKind::Register { name: "rd1".into() })
        );
        assert_eq!(
            kinds[8],
            (
                "%tid.x",
                &PercentKind::Register {
                    name: "tid.x".into()
                }
            )
        );
        assert_eq!(kinds[10], ("%", &PercentKind::Stray));
        assert_eq!(kinds[4], ("%%", &PercentKind::Escape));
        assert_eq!(kinds[3], ("%=", &PercentKind::Unique));
        let verbatim = lex(text, PercentMode::Verbatim).percents;
        let r1 = verbatim.iter().find(|p| &text[p.span.clone()] == "%r1");
        assert_eq!(
            r1.map(|p| &p.kind),
            Some(&PercentKind::Register { name: "r1".into() })
        );
    }

    #[test]
    fn comments_hide_percents_and_mark_newlines() {
        let lexed = lex(
            "a // %0 here\n b /* %1 \n */ c /* x */ d",
            PercentMode::WithOperands,
        );
        assert!(lexed.percents.is_empty());
        let newlines: Vec<bool> = lexed.tokens.iter().map(|t| t.newline_before).collect();
        assert_eq!(newlines, [false, true, true, false]);
        let open = lex("a /* %0", PercentMode::WithOperands);
        assert_eq!(open.errors[0].span, 2..4);
        assert_eq!(
            open.errors[0].kind,
            SyntaxErrorKind::Unterminated("comment")
        );
    }

    #[test]
    fn non_ascii_and_escapes_stay_on_char_boundaries() {
        for text in ["é;%", "\"\\é", "%é", ".é", "a\u{1}é", "\"%[é]\""] {
            for mode in [PercentMode::WithOperands, PercentMode::Verbatim] {
                for t in lex(text, mode).tokens {
                    let _ = &text[t.span()];
                }
            }
        }
    }
}
