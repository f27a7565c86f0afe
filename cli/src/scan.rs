//! A light C++ token scan: where the comments are, and where each asm statement begins and ends.
//!
//! Suppression comments and baseline fingerprints need only this much, and need it even when the
//! engine has not run. It understands comments, string, raw-string and character literals, so
//! that `asm` or `//` inside a literal is never mistaken for code.

use ptxguard_analyzer::Span;

#[derive(Debug, Default, Clone)]
pub struct Scan {
    /// `//` and `/* */` comments, delimiters included.
    pub comments: Vec<Span>,
    /// From the `asm` keyword to the closing `)`, and the `;` after it when there is one.
    pub asm_statements: Vec<Span>,
}

impl Scan {
    /// The asm statement whose text contains `offset`.
    pub fn statement_at(&self, offset: usize) -> Option<Span> {
        let i = self
            .asm_statements
            .partition_point(|s| (s.start as usize) <= offset);
        let candidate = *self.asm_statements.get(i.checked_sub(1)?)?;
        (offset < candidate.end as usize).then_some(candidate)
    }
}

const ASM_KEYWORDS: [&str; 3] = ["asm", "__asm__", "__asm"];
const ASM_QUALIFIERS: [&str; 5] = ["volatile", "__volatile__", "__volatile", "inline", "goto"];

struct AsmInProgress {
    start: usize,
    depth: usize,
}

pub fn scan(text: &str) -> Scan {
    let bytes = text.as_bytes();
    let mut out = Scan::default();
    let mut asm: Option<AsmInProgress> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = line_comment_end(bytes, i);
                out.comments.push(Span::new(i, end));
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = memchr::memmem::find(&bytes[i + 2..], b"*/")
                    .map_or(bytes.len(), |p| i + 2 + p + 2);
                out.comments.push(Span::new(i, end));
                i = end;
            }
            b'"' => {
                i = if is_raw_string_start(bytes, i) {
                    raw_string_end(bytes, i)
                } else {
                    quoted_end(bytes, i, b'"')
                };
            }
            b'\'' => {
                // `1'000` is a digit separator, not a character literal.
                let separator = i > 0 && bytes[i - 1].is_ascii_alphanumeric() && {
                    let word_start = word_start(bytes, i);
                    bytes[word_start].is_ascii_digit()
                };
                i = if separator {
                    i + 1
                } else {
                    quoted_end(bytes, i, b'\'')
                };
            }
            _ if is_ident_start(b) => {
                let start = i;
                while i < bytes.len() && is_ident_continue(bytes[i]) {
                    i += 1;
                }
                let word = &text[start..i];
                match &asm {
                    None if ASM_KEYWORDS.contains(&word) => {
                        asm = Some(AsmInProgress { start, depth: 0 });
                    }
                    Some(a) if a.depth == 0 && !ASM_QUALIFIERS.contains(&word) => {
                        // `asm` not followed by `(`: not a statement (a macro name, a member).
                        asm = ASM_KEYWORDS
                            .contains(&word)
                            .then_some(AsmInProgress { start, depth: 0 });
                    }
                    _ => {}
                }
            }
            b'(' => {
                if let Some(a) = &mut asm {
                    a.depth += 1;
                }
                i += 1;
            }
            b')' => {
                if let Some(a) = &mut asm {
                    if a.depth > 0 {
                        a.depth -= 1;
                        if a.depth == 0 {
                            let mut end = i + 1;
                            let mut j = end;
                            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                                j += 1;
                            }
                            if bytes.get(j) == Some(&b';') {
                                end = j + 1;
                            }
                            out.asm_statements.push(Span::new(a.start, end));
                            asm = None;
                        }
                    }
                }
                i += 1;
            }
            _ => {
                if !b.is_ascii_whitespace() && b != b'\\' {
                    if let Some(a) = &asm {
                        if a.depth == 0 {
                            asm = None;
                        }
                    }
                }
                i += 1;
            }
        }
    }
    out
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn word_start(bytes: &[u8], mut i: usize) -> usize {
    while i > 0 && (is_ident_continue(bytes[i - 1]) || bytes[i - 1] == b'\'') {
        i -= 1;
    }
    i
}

/// A `//` comment runs to the end of the line, and on past a backslash-newline.
fn line_comment_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start;
    loop {
        match memchr::memchr(b'\n', &bytes[i..]) {
            None => return bytes.len(),
            Some(p) => {
                let nl = i + p;
                let before = if nl > 0 && bytes[nl - 1] == b'\r' {
                    nl - 1
                } else {
                    nl
                };
                if before > start && bytes[before - 1] == b'\\' {
                    i = nl + 1;
                } else {
                    return before;
                }
            }
        }
    }
}

/// The end of a quoted literal; an unterminated one ends at the end of its line.
fn quoted_end(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// `R"`, `u8R"`, `LR"`, `uR"`, `UR"` open a raw string.
fn is_raw_string_start(bytes: &[u8], quote: usize) -> bool {
    if quote == 0 || bytes[quote - 1] != b'R' {
        return false;
    }
    let word = word_start(bytes, quote - 1);
    matches!(&bytes[word..quote], b"R" | b"u8R" | b"uR" | b"UR" | b"LR")
}

fn raw_string_end(bytes: &[u8], quote: usize) -> usize {
    let open = match memchr::memchr(b'(', &bytes[quote + 1..]) {
        Some(p) if p <= 16 => quote + 1 + p,
        _ => return quoted_end(bytes, quote, b'"'),
    };
    let mut closing = Vec::with_capacity(open - quote + 1);
    closing.push(b')');
    closing.extend_from_slice(&bytes[quote + 1..open]);
    closing.push(b'"');
    memchr::memmem::find(&bytes[open + 1..], &closing)
        .map_or(bytes.len(), |p| open + 1 + p + closing.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(text: &'a str, spans: &[Span]) -> Vec<&'a str> {
        spans.iter().map(|s| &text[s.range()]).collect()
    }

    #[test]
    fn finds_statements_and_comments() {
        let text = r#"
// asm("not code");
const char* s = "asm(no)";
__device__ void f(int* p) {
  asm volatile("ld.global.u32 %0, [%1];" /* c ) */ : "=r"(v) : "l"(p));
  __asm__ __volatile__ (
     "{ .reg .b32 t; }" ::: "memory")  ;
  int asm_count = 1'000;
  auto r = R"x(asm("no"))x";
}
"#;
        let s = scan(text);
        assert_eq!(
            texts(text, &s.asm_statements),
            vec![
                r#"asm volatile("ld.global.u32 %0, [%1];" /* c ) */ : "=r"(v) : "l"(p));"#,
                "__asm__ __volatile__ (\n     \"{ .reg .b32 t; }\" ::: \"memory\")  ;",
            ]
        );
        assert_eq!(
            texts(text, &s.comments),
            vec!["// asm(\"not code\");", "/* c ) */"]
        );
        let inside = text.find("%0").unwrap();
        assert_eq!(s.statement_at(inside), Some(s.asm_statements[0]));
        assert_eq!(s.statement_at(text.find("asm_count").unwrap()), None);
    }

    #[test]
    fn survives_unterminated_input() {
        for text in [
            "asm(\"abc",
            "/* open",
            "asm volatile(",
            "'",
            "R\"(x",
            "\"\\",
        ] {
            let _ = scan(text);
        }
    }
}
