//! Checks every rule's fixes against what a rule cannot see in its own statement, after all
//! rules ran: syntax a macro provides, escapes an edit would run together, and the Python
//! literal that holds C++.

use crate::support::front_end::{breaks_python_literal, changes_python_escape, owns};
use ptxguard_analyzer::cpp::lexer::{lex_range, TokenKind};
use ptxguard_analyzer::cpp::{AsmStatement, Origin};
use ptxguard_analyzer::template::PieceKind;
use ptxguard_analyzer::{Diagnostic, Edit, SourceFile, Span};

/// Withholds fixes that edit the statement's own syntax (between and around its sections and
/// operands) when a macro there may provide syntax: `#define MEM : "memory"` makes a fourth
/// `:` section out of an added clobber section, `#define COMMA ,` a second comma out of an
/// added one (g++ rejects both). Then keeps C++ escapes apart: an edit right after a `\x25`
/// or a short octal escape that would bring a digit next to it (`\x25h0` with `h` removed is
/// `\x250`, out of range) re-writes the escape as the character or a 3-digit octal escape.
/// A fix whose code replacement would leave a stray `\` (operand text copied with a line
/// splice) is withheld too, and so is a fix of C++ in a Python string that could end the
/// literal ([`breaks_python_literal`]) and a fix in a Python literal that would change an
/// escape beside its edit ([`changes_python_escape`]).
/// The first C++ statement (in the slice's order) whose span holds a span, found among the
/// statements that can hold it: with the slice ordered by start, those starting at most the
/// longest statement's length before it (a file of 25,000 statements with a fix each made
/// the plain search quadratic). An unordered slice is searched whole.
struct ContainingStatement<'a> {
    statements: &'a [AsmStatement],
    ordered: bool,
    longest: u32,
}

impl<'a> ContainingStatement<'a> {
    fn new(statements: &'a [AsmStatement]) -> Self {
        ContainingStatement {
            statements,
            ordered: statements
                .windows(2)
                .all(|w| w[0].span.start <= w[1].span.start),
            longest: statements
                .iter()
                .map(|s| s.span.end.saturating_sub(s.span.start))
                .max()
                .unwrap_or(0),
        }
    }

    fn first(&self, span: Span) -> Option<usize> {
        let holds = |s: &AsmStatement| {
            s.origin == Origin::Cpp && s.span.start <= span.start && span.end <= s.span.end
        };
        let (from, to) = if self.ordered {
            let floor = span.start.saturating_sub(self.longest);
            (
                self.statements.partition_point(|s| s.span.start < floor),
                self.statements
                    .partition_point(|s| s.span.start <= span.start),
            )
        } else {
            (0, self.statements.len())
        };
        (from..to).find(|&i| holds(&self.statements[i]))
    }
}

pub(crate) fn check_fixes(file: &SourceFile, statements: &[AsmStatement], out: &mut [Diagnostic]) {
    let mut regions: Vec<Option<SyntaxRegion>> = vec![None; statements.len()];
    let any_python = statements.iter().any(AsmStatement::in_python);
    let containing = ContainingStatement::new(statements);
    for d in out.iter_mut() {
        let Some(fix) = &d.fix else { continue };
        // C++ in a Python string: an edit with a quote, a backslash or a brace could end or
        // change the literal.
        let in_python = statements
            .iter()
            .filter(|_| any_python)
            .find(|s| s.in_python() && owns(s, d.span));
        if in_python.is_some_and(|s| matches!(s.origin, Origin::CppInPython { .. }))
            && breaks_python_literal(fix)
        {
            d.fix = None;
            continue;
        }
        // Python keeps an unknown escape's backslash (`\%`): an edit beside one can pair it
        // with other text.
        if in_python.is_some()
            && fix
                .edits
                .iter()
                .any(|e| changes_python_escape(&file.text, e))
        {
            d.fix = None;
            continue;
        }
        let Some(first) = fix.edits.first() else {
            continue;
        };
        let Some(i) = containing.first(first.span) else {
            continue;
        };
        let stmt = &statements[i];
        let region = regions[i].get_or_insert_with(|| SyntaxRegion::of(&file.text, stmt));
        if !region.macros.is_empty() && fix.edits.iter().any(|e| region.is_syntax(e.span)) {
            d.fix = None;
            continue;
        }
        // A statement that does not lex as C++ gets no fix: an edit placed by a guess at its
        // sections can join them wrongly (an operand moved in without its comma).
        if region.unterminated {
            d.fix = None;
            continue;
        }
        // Operand text copied with a line splice (`p\` + newline) into a one-line
        // replacement (`f(p\)`) leaves a stray `\`, which no compiler accepts.
        if fix
            .edits
            .iter()
            .any(|e| has_stray_backslash(&e.replacement))
            && !region.is_literal_edit(fix)
        {
            d.fix = None;
            continue;
        }
        let mut edits = Vec::with_capacity(fix.edits.len());
        let mut kept = true;
        for e in &fix.edits {
            match keep_escape_apart(&file.text, region, e) {
                Some(e) => edits.push(e),
                None => kept = false,
            }
        }
        if !kept {
            d.fix = None;
        } else if let Some(fix) = &mut d.fix {
            fix.edits = edits;
        }
    }
}

/// A `\` outside the string and character literals of `code` that does not end a line.
fn has_stray_backslash(code: &str) -> bool {
    let bytes = code.as_bytes();
    let mut quote = None;
    let mut i = 0;
    while i < bytes.len() {
        match (quote, bytes[i]) {
            (Some(_), b'\\') => i += 1,
            (Some(q), b) if b == q => quote = None,
            (None, b'"' | b'\'') => quote = Some(bytes[i]),
            (None, b'\\') if !matches!(bytes.get(i + 1), Some(b'\n' | b'\r')) => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// Where a statement's syntax is, after its template: its tokens outside string literals and
/// outside the parentheses of operand expressions.
#[derive(Clone, Debug, Default)]
struct SyntaxRegion {
    /// From the end of the template to the closing parenthesis.
    after_template: Span,
    /// Operand expressions (inside their parentheses) and string literals: not syntax.
    inert: Vec<Span>,
    /// Identifiers among the syntax: macros, which may expand to `,` or `:` sections.
    macros: Vec<Span>,
    /// String literal tokens of the whole statement (for escapes).
    literals: Vec<(Span, bool)>,
    /// A string literal of the statement is not closed on its line.
    unterminated: bool,
}

impl SyntaxRegion {
    fn of(text: &str, stmt: &AsmStatement) -> SyntaxRegion {
        let start = stmt.open_paren.end as usize;
        let end = (stmt.close_paren.start as usize).min(text.len());
        let mut region = SyntaxRegion::default();
        if start > end {
            return region;
        }
        let template_end = stmt
            .template
            .pieces
            .last()
            .map_or(start, |p| p.source.end as usize)
            .clamp(start, end);
        region.after_template = Span::new(template_end, end);
        // A template that ends in a macro (`asm("..." OPERANDS)`) may take its sections from it.
        if let Some(last) = stmt.template.pieces.last() {
            if last.kind != PieceKind::Literal {
                region.macros.push(last.source);
            }
        }
        let tokens = lex_range(text, start, end, stmt.macro_name.is_some());
        let mut depth = 0usize;
        let mut open_at = 0usize;
        // Inside `[name]`: an operand's name, not a macro.
        let mut in_name = false;
        // `asm goto`'s fourth section lists C++ labels, not macros.
        let goto = stmt.qualifiers.iter().any(|(q, _)| q == "goto");
        let mut colons = 0;
        for t in &tokens {
            if t.kind == TokenKind::Str {
                let literal = &text[t.span.range()];
                let raw = literal.contains("R\"");
                region.literals.push((t.span, raw));
                // A string literal the line ends inside (`"=` newline `"(v)`; a line splice,
                // `\` before the newline, continues it): the statement is not C++ as written,
                // and where its sections are is a guess.
                region.unterminated |= !raw
                    && (literal.len() < 2
                        || !literal.ends_with('"')
                        || literal
                            .match_indices('\n')
                            .any(|(i, _)| !literal[..i].trim_end_matches('\r').ends_with('\\')));
            }
            if (t.span.start as usize) < template_end {
                continue;
            }
            let word = &text[t.span.range()];
            match (t.kind, word) {
                (TokenKind::Punct, "(") => {
                    if depth == 0 {
                        open_at = t.span.end as usize;
                    }
                    depth += 1;
                }
                (TokenKind::Punct, ")") => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        region.inert.push(Span::new(open_at, t.span.start as usize));
                    }
                }
                // Inside the quotes only: an edit before or after a literal is syntax.
                (TokenKind::Str, _) if depth == 0 => region.inert.push(Span::new(
                    t.span.start as usize + 1,
                    (t.span.end as usize)
                        .saturating_sub(1)
                        .max(t.span.start as usize + 1),
                )),
                (TokenKind::Punct, "[") if depth == 0 => in_name = true,
                (TokenKind::Punct, "]") if depth == 0 => in_name = false,
                (TokenKind::Punct, ":") if depth == 0 => colons += 1,
                (TokenKind::Punct, "::") if depth == 0 => colons += 2,
                (TokenKind::Ident, _) if depth == 0 && !in_name && !(goto && colons >= 3) => {
                    region.macros.push(t.span)
                }
                _ => {}
            }
        }
        region
    }

    /// Whether every edit of `fix` lies inside one of the statement's string literals (its
    /// replacement is literal text, where `\` starts an escape).
    fn is_literal_edit(&self, fix: &ptxguard_analyzer::Fix) -> bool {
        fix.edits.iter().all(|e| {
            self.literals
                .iter()
                .any(|(s, _)| s.start < e.span.start && e.span.end < s.end)
        })
    }

    /// Whether an edit touches the statement's syntax rather than an expression or a literal.
    fn is_syntax(&self, edit: Span) -> bool {
        self.after_template.start <= edit.start
            && edit.start <= self.after_template.end
            && !self
                .inert
                .iter()
                .any(|s| s.start <= edit.start && edit.end <= s.end)
    }
}

/// `edit`, or the same edit widened over the escape just before it when the escape would take
/// in a digit the edit brings next to it; `None` when the escape cannot be re-written.
fn keep_escape_apart(text: &str, region: &SyntaxRegion, edit: &Edit) -> Option<Edit> {
    let at = edit.span.start as usize;
    let Some(&(literal, _)) = region
        .literals
        .iter()
        .find(|(s, raw)| !raw && (s.start as usize) < at && at < s.end as usize)
    else {
        return Some(edit.clone());
    };
    let Some(escape) = escape_ending_at(text, literal, at) else {
        return Some(edit.clone());
    };
    let next = edit
        .replacement
        .bytes()
        .next()
        .or_else(|| text.as_bytes().get(edit.span.end as usize).copied());
    let absorbs = match next {
        Some(b) if escape.hex => b.is_ascii_hexdigit(),
        Some(b) => escape.octal_digits < 3 && (b'0'..=b'7').contains(&b),
        None => false,
    };
    if !absorbs {
        return Some(edit.clone());
    }
    let written = match escape.value {
        v @ 0x20..=0x7e if !matches!(v as u8, b'"' | b'\\' | b'\'' | b'?') => {
            (v as u8 as char).to_string()
        }
        v @ 0..=0o777 => format!("\\{v:03o}"),
        _ => return None,
    };
    Some(Edit::replace(
        Span::new(escape.start, edit.span.end as usize),
        format!("{written}{}", edit.replacement),
    ))
}

struct Escape {
    start: usize,
    /// `\x` (greedy over hex digits) rather than octal (at most 3 digits).
    hex: bool,
    octal_digits: usize,
    value: u32,
}

/// The `\x` or octal escape of the literal `literal` that ends exactly at `at`.
fn escape_ending_at(text: &str, literal: Span, at: usize) -> Option<Escape> {
    let bytes = text.as_bytes();
    let mut i = literal.start as usize;
    // Past the prefix and the opening quote.
    while i < at && bytes[i] != b'"' {
        i += 1;
    }
    i += 1;
    while i < at {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let start = i;
        let (end, escape) = match bytes.get(i + 1) {
            Some(b'x') => {
                let mut j = i + 2;
                let mut value: u32 = 0;
                while j < bytes.len() && bytes[j].is_ascii_hexdigit() {
                    value = value
                        .saturating_mul(16)
                        .saturating_add((bytes[j] as char).to_digit(16).unwrap_or(0));
                    j += 1;
                }
                (
                    j,
                    Some(Escape {
                        start,
                        hex: true,
                        octal_digits: 0,
                        value,
                    }),
                )
            }
            Some(b'0'..=b'7') => {
                let mut j = i + 1;
                let mut value = 0;
                while j < bytes.len() && j < i + 4 && (b'0'..=b'7').contains(&bytes[j]) {
                    value = value * 8 + u32::from(bytes[j] - b'0');
                    j += 1;
                }
                (
                    j,
                    Some(Escape {
                        start,
                        hex: false,
                        octal_digits: j - i - 1,
                        value,
                    }),
                )
            }
            _ => (i + 2, None),
        };
        if end == at {
            return escape;
        }
        i = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::statements::find_asm_statements;

    #[test]
    fn the_statement_holding_an_edit_is_found_ordered_or_not() {
        let code =
            "__device__ void f(unsigned* p) {\n  asm(\"mov.b32 %0, 1;\" : \"=r\"(p[0]));\n  \
                    asm volatile(\"mov.b32 %0, 22222222;\" : \"=r\"(p[1]));\n  int x = 0;\n  \
                    asm(\"mov.b32 %0, 3;\" : \"=r\"(p[2]));\n}\n";
        let file = SourceFile::new("t.cu", code.to_string());
        let statements = find_asm_statements(&file);
        assert_eq!(statements.len(), 3);
        let at = |needle: &str| {
            let start = code.find(needle).unwrap();
            Span::new(start, start + needle.len())
        };
        let index = ContainingStatement::new(&statements);
        assert!(index.ordered);
        assert_eq!(index.first(at("%0, 1;")), Some(0));
        assert_eq!(index.first(at("22222222")), Some(1));
        assert_eq!(index.first(at("%0, 3;")), Some(2));
        assert_eq!(index.first(at("int x")), None);
        // Out of order: every statement is searched, with the same answers.
        let reversed: Vec<AsmStatement> = statements.iter().rev().cloned().collect();
        let index = ContainingStatement::new(&reversed);
        assert!(!index.ordered);
        assert_eq!(index.first(at("22222222")), Some(1));
        assert_eq!(index.first(at("%0, 1;")), Some(2));
        assert_eq!(index.first(at("int x")), None);
    }
}
