//! Where the comments and the asm statements of a file are, without analysing anything:
//! what suppression comments and baseline fingerprints need.

use super::asm::{is_asm_label, KEYWORDS, QUALIFIERS};
use super::lexer::{lex_with_comments, Token, TokenKind};
use crate::Span;

#[derive(Debug, Default, Clone)]
pub struct Outline {
    /// `//` and `/* */` comments, delimiters included, in order.
    pub comments: Vec<Span>,
    /// From the `asm` keyword to the closing `)`, and the `;` after it when there is one,
    /// in order (statements inside `#define` bodies included).
    pub asm_statements: Vec<Span>,
    /// String literals that hold a line break (raw strings, Python's triple-quoted strings),
    /// in order: a comment cannot be added at the end of a line inside one.
    pub multiline_strings: Vec<Span>,
}

impl Outline {
    /// The asm statement whose text contains `offset`.
    pub fn statement_at(&self, offset: usize) -> Option<Span> {
        let i = self
            .asm_statements
            .partition_point(|s| (s.start as usize) <= offset);
        let candidate = *self.asm_statements.get(i.checked_sub(1)?)?;
        (offset < candidate.end as usize).then_some(candidate)
    }

    /// The multi-line string literal that holds `offset` after its opening quote (so that a
    /// line ending at `offset` ends inside it).
    pub fn multiline_string_at(&self, offset: usize) -> Option<Span> {
        let i = self
            .multiline_strings
            .partition_point(|s| (s.start as usize) < offset);
        let candidate = *self.multiline_strings.get(i.checked_sub(1)?)?;
        (offset < candidate.end as usize).then_some(candidate)
    }
}

pub fn outline(text: &str) -> Outline {
    let mut out = Outline::default();
    let (tokens, comments) = lex_with_comments(text, 0, text.len(), false);
    out.comments = comments;
    out.multiline_strings = tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Str && text[t.span.range()].contains('\n'))
        .map(|t| t.span)
        .collect();
    collect_statements(text, &tokens, &mut out.asm_statements);
    for tok in tokens.iter().filter(|t| t.kind == TokenKind::Directive) {
        // Skip the `#`; the body is lexed as a directive body.
        let (body, comments) = lex_with_comments(text, tok.start() + 1, tok.end(), true);
        out.comments.extend(comments);
        collect_statements(text, &body, &mut out.asm_statements);
    }
    out.comments.sort_by_key(|s| s.start);
    out.asm_statements.sort_by_key(|s| s.start);
    out
}

fn collect_statements(text: &str, tokens: &[Token], out: &mut Vec<Span>) {
    let word = |i: usize| tokens[i].text(text);
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].kind != TokenKind::Ident
            || !KEYWORDS.contains(&word(i).as_ref())
            || is_asm_label(tokens, i, word)
        {
            i += 1;
            continue;
        }
        let start = tokens[i].start();
        let mut k = i + 1;
        while k < tokens.len()
            && tokens[k].kind == TokenKind::Ident
            && QUALIFIERS.contains(&word(k).as_ref())
        {
            k += 1;
        }
        if k >= tokens.len() || word(k) != "(" {
            i += 1;
            continue;
        }
        let mut depth = 0;
        let mut close = None;
        for (m, tok) in tokens.iter().enumerate().skip(k) {
            if tok.kind != TokenKind::Punct {
                continue;
            }
            match &text[tok.span.range()] {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(m);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            i = k;
            continue;
        };
        let mut end = tokens[close].end();
        if tokens
            .get(close + 1)
            .is_some_and(|t| &text[t.span.range()] == ";")
        {
            end = tokens[close + 1].end();
        }
        out.push(Span::new(start, end));
        i = close + 1;
    }
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
#define F() asm("trap;") /* ptxguard: allow(x) */
"#;
        let s = outline(text);
        assert_eq!(
            texts(text, &s.asm_statements),
            vec![
                r#"asm volatile("ld.global.u32 %0, [%1];" /* c ) */ : "=r"(v) : "l"(p));"#,
                "__asm__ __volatile__ (\n     \"{ .reg .b32 t; }\" ::: \"memory\")  ;",
                "asm(\"trap;\")",
            ]
        );
        assert_eq!(
            texts(text, &s.comments),
            vec![
                "// asm(\"not code\");",
                "/* c ) */",
                "/* ptxguard: allow(x) */"
            ]
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
            "#define X asm(\\",
        ] {
            let _ = outline(text);
        }
    }
}
