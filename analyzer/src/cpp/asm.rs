//! Parses one asm statement from tokens: qualifiers, template pieces, operand sections.

use super::lexer::{Token, TokenKind};
use super::model::{AsmOperand, Clobber, Constraint};
use super::preproc::{parse_directive, CondExpr, Condition, DirectiveKind};
use super::types::{type_expression, Scope, TypeInfo};
use crate::build::predefined::{front_end_truth, Compiler, Truth};
use crate::template::{PieceKind, Template};
use crate::Span;
use std::collections::HashMap;

pub const KEYWORDS: [&str; 3] = ["asm", "__asm__", "__asm"];

/// Whether the `asm` at `tokens[at]` is a declaration's asm label, not a statement: after the
/// name a declarator ends with (`register float v asm("v64");`, GCC's explicit register
/// variables and symbol names), or after a function declarator's parameters or exception
/// specification (`void* memchr(void*, int, size_t) throw() __asm__("memchr");`, as in
/// preprocessed glibc headers), or an array's bounds. A statement's `asm` follows `;`, a brace, a label's `:`, the
/// `)` of an `if`/`for`/`while`/`switch` head, `else` or `do`.
pub fn is_asm_label<'t>(
    tokens: &[Token],
    at: usize,
    word: impl Fn(usize) -> std::borrow::Cow<'t, str>,
) -> bool {
    /// How far back a `)` is matched to its `(`: a declarator's parameter list is short.
    const LOOK_BACK: usize = 4096;
    let Some(prev) = at.checked_sub(1) else {
        return false;
    };
    // A label is `asm("symbol")`: one string literal naming a symbol, no qualifiers, no
    // operands. Anything else is a statement, whatever comes before it (`FOR_LANES(i, 4) asm
    // volatile(...)` after a macro's `)`).
    let symbol_only = tokens
        .get(at + 1)
        .is_some_and(|t| word(at + 1) == "(" && t.kind == TokenKind::Punct)
        && tokens.get(at + 2).is_some_and(|t| {
            t.kind == TokenKind::Str && {
                let w = word(at + 2);
                let inner = w.trim_start_matches(|c: char| c != '"').trim_matches('"');
                !inner.is_empty()
                    && inner
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
            }
        })
        && tokens.get(at + 3).is_some_and(|_| word(at + 3) == ")");
    if !symbol_only {
        return false;
    }
    if tokens[prev].kind == TokenKind::Ident {
        return !matches!(
            word(prev).as_ref(),
            "else" | "do" | "volatile" | "__volatile__"
        );
    }
    if tokens[prev].kind != TokenKind::Punct {
        return false;
    }
    match word(prev).as_ref() {
        // `int table[4] asm("sym")`; `[[likely]] asm(...)` is a statement.
        "]" => return prev == 0 || word(prev - 1) != "]",
        ")" => {}
        _ => return false,
    }
    let mut depth = 0usize;
    let floor = prev.saturating_sub(LOOK_BACK);
    let Some(open) = (floor..=prev).rev().find(|&k| {
        if tokens[k].kind == TokenKind::Punct {
            match word(k).as_ref() {
                ")" => depth += 1,
                "(" => depth -= 1,
                _ => {}
            }
        }
        depth == 0
    }) else {
        return false;
    };
    // `f(int) asm(...)`, `f() throw() asm(...)`: a declarator; `if (c) asm(...)`: a statement,
    // and so is the body of `#define F(x) asm(...)`.
    open.checked_sub(1).is_some_and(|before| {
        let macro_parameters = before
            .checked_sub(1)
            .is_some_and(|d| matches!(word(d).as_ref(), "define" | "#define"));
        tokens[before].kind == TokenKind::Ident
            && !macro_parameters
            && !matches!(
                word(before).as_ref(),
                "if" | "for" | "while" | "switch" | "constexpr" | "consteval" | "return"
            )
    })
}
pub const QUALIFIERS: [&str; 7] = [
    "volatile",
    "__volatile__",
    "__volatile",
    "inline",
    "__inline",
    "__inline__",
    "goto",
];

/// Object-like macros of the file whose replacement is only string literals (and other
/// such macros): template pieces we can resolve.
pub type StringMacros = HashMap<String, Vec<Span>>;

/// What [`parse_asm`] found, before context is attached.
pub struct ParsedAsm {
    pub keyword: Span,
    pub qualifiers: Vec<(String, Span)>,
    pub open_paren: Span,
    pub close_paren: Span,
    pub template: Template,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<Clobber>,
    pub colons: Vec<Span>,
    /// Index of the last token of the statement.
    pub end_token: usize,
}

pub struct AsmInput<'a> {
    pub text: &'a str,
    pub tokens: &'a [Token],
    pub string_macros: &'a StringMacros,
    /// The compiler whose device pass decides `#if` branches inside the statement.
    pub compiler: Compiler,
    /// Parameters of the enclosing function-like macro, when parsing a macro body.
    pub macro_params: &'a [String],
    /// First token searched for operand declarations (the enclosing function's start).
    pub decl_search_start: usize,
    /// The enclosing class body, searched for members when the function does not declare
    /// a name.
    pub member_search: Option<std::ops::Range<usize>>,
    /// The file's function return types and identifier occurrences, built once on first need.
    pub index: &'a std::cell::OnceCell<super::types::FileIndex<'a>>,
}

fn word<'a>(input: &'a AsmInput, i: usize) -> std::borrow::Cow<'a, str> {
    input.tokens[i].text(input.text)
}

/// Whether `tokens[i]` is the punctuation `p` (cheaper than comparing [`word`]s).
#[inline]
fn is_punct(input: &AsmInput, i: usize, p: &str) -> bool {
    let t = &input.tokens[i];
    t.kind == TokenKind::Punct
        && if t.spliced {
            word(input, i) == p
        } else {
            &input.text.as_bytes()[t.span.range()] == p.as_bytes()
        }
}

/// Parses the statement whose keyword is `tokens[at]`; `None` when it is not one
/// (`asm` used as a name, a `#define asm __asm__`...).
pub fn parse_asm(input: &AsmInput, at: usize) -> Option<ParsedAsm> {
    let toks = input.tokens;
    if is_asm_label(toks, at, |k| word(input, k)) {
        return None;
    }
    let mut i = at + 1;
    let mut qualifiers = Vec::new();
    while i < toks.len()
        && toks[i].kind == TokenKind::Ident
        && QUALIFIERS.contains(&word(input, i).as_ref())
    {
        qualifiers.push((word(input, i).into_owned(), toks[i].span));
        i += 1;
    }
    if i >= toks.len() || word(input, i) != "(" {
        return None;
    }
    let open = i;
    // Content tokens up to the matching `)`. Of each `#if` group inside, the branch the
    // device pass compiles is kept: branches false for every target are skipped, and when the
    // choice depends on the target or on an unknown macro, the first live branch is kept.
    let mut content = Vec::new();
    let mut depth = 0i32;
    // Per open group: whether a branch was kept already, whether the current one is kept.
    let mut groups: Vec<(bool, bool)> = Vec::new();
    let mut close = None;
    // A top-level `:` was seen: what follows is operands, not template.
    let mut past_template = false;
    i = open + 1;
    while i < toks.len() {
        let tok = toks[i];
        if tok.kind == TokenKind::Directive {
            let dir = parse_directive(input.text, tok.span);
            let live = |expr: CondExpr| {
                let c = Condition {
                    expr,
                    negated: false,
                    text: String::new(),
                    span: tok.span,
                };
                front_end_truth(std::slice::from_ref(&c), input.compiler) != Truth::Never
            };
            match dir.kind {
                DirectiveKind::If(e) => {
                    let kept = live(e);
                    groups.push((kept, kept));
                }
                DirectiveKind::Ifdef(n) => {
                    let kept = live(CondExpr::Defined(n));
                    groups.push((kept, kept));
                }
                DirectiveKind::Ifndef(n) => {
                    let kept = live(CondExpr::Not(Box::new(CondExpr::Defined(n))));
                    groups.push((kept, kept));
                }
                DirectiveKind::Elif(e) => {
                    if let Some(g) = groups.last_mut() {
                        let kept = !g.0 && live(e);
                        *g = (g.0 || kept, kept);
                    }
                }
                DirectiveKind::Else => {
                    if let Some(g) = groups.last_mut() {
                        *g = (true, !g.0);
                    }
                }
                DirectiveKind::Endif => {
                    groups.pop();
                }
                // `asm volatile(\n#include "kernel.inc"\n : ...)`: the template goes on in
                // another file.
                DirectiveKind::Include { .. } if !past_template && groups.iter().all(|g| g.1) => {
                    content.push(i);
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        // Inside a branch not kept.
        if groups.iter().any(|g| !g.1) {
            i += 1;
            continue;
        }
        // Another asm keyword: this statement was never closed. Stopping here keeps a file of
        // nested unclosed statements linear (each would otherwise hold the rest of the file).
        if tok.kind == TokenKind::Ident && KEYWORDS.contains(&word(input, i).as_ref()) {
            break;
        }
        if tok.kind == TokenKind::Punct {
            let w = word(input, i);
            match w.as_ref() {
                "(" => depth += 1,
                ")" if depth == 0 => {
                    close = Some(i);
                    break;
                }
                ")" => depth -= 1,
                ":" | "::" if depth == 0 => past_template = true,
                // A `;` or `{` at depth 0 means the statement was never closed.
                ";" | "{" | "}" if depth == 0 => break,
                _ => {}
            }
        }
        content.push(i);
        i += 1;
    }
    let (close_span, end_token) = match close {
        Some(c) => (toks[c].span, c),
        None => {
            let last = content.last().copied().unwrap_or(open);
            (Span::empty_at(toks[last].end()), last)
        }
    };
    // Split on top-level `:`.
    let mut sections: Vec<Vec<usize>> = vec![Vec::new()];
    let mut colons = Vec::new();
    let mut depth = 0i32;
    for &k in &content {
        if toks[k].kind != TokenKind::Punct {
            sections.last_mut().expect("one section").push(k);
            continue;
        }
        let w = word(input, k);
        match w.as_ref() {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            ":" if depth == 0 && sections.len() < 5 => {
                colons.push(toks[k].span);
                sections.push(Vec::new());
                continue;
            }
            // `asm("..." :: "r"(x))`: the lexer reads `::` as one token.
            "::" if depth == 0 && sections.len() < 4 => {
                let start = toks[k].start();
                colons.push(Span::new(start, start + 1));
                colons.push(Span::new(start + 1, start + 2));
                sections.push(Vec::new());
                sections.push(Vec::new());
                continue;
            }
            _ => {}
        }
        sections.last_mut().expect("one section").push(k);
    }
    let template = decode_template(input, &sections[0]);
    // Declarations are searched before the statement; all its operands share the lookups.
    let declarations = std::cell::RefCell::new(foldhash::HashMap::default());
    let outputs = sections
        .get(1)
        .map(|s| parse_operands(input, s, true, 0, &declarations))
        .unwrap_or_default();
    let inputs = sections
        .get(2)
        .map(|s| parse_operands(input, s, false, outputs.len(), &declarations))
        .unwrap_or_default();
    let clobbers = sections
        .get(3)
        .map(|s| parse_clobbers(input, s))
        .unwrap_or_default();
    Some(ParsedAsm {
        keyword: toks[at].span,
        qualifiers,
        open_paren: toks[open].span,
        close_paren: close_span,
        template,
        outputs,
        inputs,
        clobbers,
        colons,
        end_token,
    })
}

fn decode_template(input: &AsmInput, section: &[usize]) -> Template {
    let mut template = Template::default();
    let toks = input.tokens;
    // Where each `(` of the section closes, found in one pass on first need: a scan per call
    // would make a section of many unclosed calls quadratic.
    let mut closes: Option<Vec<Option<usize>>> = None;
    let mut k = 0;
    while k < section.len() {
        let i = section[k];
        let tok = toks[i];
        match tok.kind {
            TokenKind::Str => template.push_literal(input.text, tok.span, PieceKind::Literal),
            TokenKind::Ident => {
                let name = word(input, i);
                match input.string_macros.get(name.as_ref()) {
                    Some(literals) if !input.macro_params.iter().any(|p| p == &name) => {
                        for lit in literals {
                            template.push_literal(
                                input.text,
                                *lit,
                                PieceKind::Macro(name.to_string()),
                            );
                        }
                    }
                    _ => {
                        // A call `F(x)` is one unknown piece.
                        let mut end = k;
                        if section.get(k + 1).is_some_and(|&n| word(input, n) == "(") {
                            let closes =
                                closes.get_or_insert_with(|| matching_parens(input, section));
                            if let Some(close) = closes[k + 1] {
                                end = close;
                            }
                        }
                        template.push_unknown(tok.span.cover(toks[section[end]].span));
                        k = end;
                    }
                }
            }
            TokenKind::Punct if word(input, i) == "#" => {
                // `#param`: a stringised macro parameter.
                let end = if section.get(k + 1).is_some() {
                    k + 1
                } else {
                    k
                };
                template.push_unknown(tok.span.cover(toks[section[end]].span));
                k = end;
            }
            TokenKind::Directive => template.push_included(tok.span),
            _ => template.push_unknown(tok.span),
        }
        k += 1;
    }
    template
}

/// For each position of `section`, where the `(` there closes (`None` for other tokens and
/// for an unclosed `(`).
fn matching_parens(input: &AsmInput, section: &[usize]) -> Vec<Option<usize>> {
    let mut closes = vec![None; section.len()];
    let mut open = Vec::new();
    for (m, &n) in section.iter().enumerate() {
        match word(input, n).as_ref() {
            "(" => open.push(m),
            ")" => {
                if let Some(o) = open.pop() {
                    closes[o] = Some(m);
                }
            }
            _ => {}
        }
    }
    closes
}

/// Splits an operand section into operands: `[name] "c" (expr)`, commas optional (nvcc).
fn parse_operands<'a>(
    input: &AsmInput<'a>,
    section: &[usize],
    is_output: bool,
    first_index: usize,
    declarations: &std::cell::RefCell<foldhash::HashMap<&'a str, Option<super::types::CppType>>>,
) -> Vec<AsmOperand> {
    let toks = input.tokens;
    let mut out = Vec::new();
    let first_token = section.first().copied().unwrap_or(0);
    let mut k = 0;
    let mut after_operand_end: Option<usize> = None;
    let mut saw_comma = true;
    while k < section.len() {
        if is_punct(input, section[k], ",") {
            saw_comma = true;
            k += 1;
            continue;
        }
        let start_k = k;
        // Optional `[name]`.
        let mut name = None;
        if is_punct(input, section[k], "[") {
            if let (Some(&n), Some(&c)) = (section.get(k + 1), section.get(k + 2)) {
                if word(input, c) == "]" {
                    name = Some((word(input, n).into_owned(), toks[n].span));
                    k += 3;
                }
            }
        }
        // Constraint: literal(s) or a macro, up to `(`.
        let constraint_start = k;
        while k < section.len()
            && !is_punct(input, section[k], "(")
            && !is_punct(input, section[k], ",")
        {
            k += 1;
        }
        let constraint_toks = &section[constraint_start..k];
        if k >= section.len() || !is_punct(input, section[k], "(") {
            // Malformed; skip to the next comma.
            while k < section.len() && !is_punct(input, section[k], ",") {
                k += 1;
            }
            if constraint_toks.is_empty() && k == start_k {
                k += 1;
            }
            continue;
        }
        let open_k = k;
        let mut depth = 0;
        let mut close_k = section.len() - 1;
        for (m, &n) in section.iter().enumerate().skip(open_k) {
            if toks[n].kind != TokenKind::Punct {
                continue;
            }
            match word(input, n).as_ref() {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        close_k = m;
                        break;
                    }
                }
                _ => {}
            }
        }
        let constraint = make_constraint(input, constraint_toks);
        let expr_range =
            (open_k + 1 < close_k).then(|| section[open_k + 1]..section[close_k - 1] + 1);
        let (expr, expr_span, ty) = match &expr_range {
            Some(r) => {
                let span = toks[r.start].span.cover(toks[r.end - 1].span);
                let scope = Scope {
                    text: input.text,
                    tokens: input.tokens,
                    search: input.decl_search_start..first_token,
                    use_at: first_token,
                    members: input.member_search.clone(),
                    index: input.index,
                    declarations,
                };
                // In a macro body the parameters have no declaration and stay unknown.
                let ty = type_expression(&scope, r.clone());
                (input.text[span.range()].to_string(), span, ty)
            }
            None => (
                String::new(),
                Span::empty_at(toks[section[open_k]].end()),
                TypeInfo::default(),
            ),
        };
        let missing_comma_at = (!saw_comma).then_some(after_operand_end).flatten();
        out.push(AsmOperand {
            index: first_index + out.len(),
            is_output,
            name,
            constraint,
            expr,
            expr_span,
            ty,
            missing_comma_at,
        });
        after_operand_end = Some(toks[section[close_k]].end());
        saw_comma = false;
        k = close_k + 1;
    }
    out
}

fn make_constraint(input: &AsmInput, toks_idx: &[usize]) -> Constraint {
    let toks = input.tokens;
    let Some((&first, &last)) = toks_idx.first().zip(toks_idx.last()) else {
        return Constraint {
            text: String::new(),
            span: Span::default(),
            known: false,
        };
    };
    let span = toks[first].span.cover(toks[last].span);
    // The usual constraint: one plain literal (`"=r"`), its text between the quotes.
    if let [only] = toks_idx {
        let written = &input.text[toks[*only].span.range()];
        if toks[*only].kind == TokenKind::Str
            && written.len() >= 2
            && written.starts_with('"')
            && written.ends_with('"')
            && !written.contains('\\')
        {
            return Constraint {
                text: written[1..written.len() - 1].to_string(),
                span,
                known: true,
            };
        }
    }
    let mut template = Template::default();
    let mut known = true;
    for &i in toks_idx {
        match toks[i].kind {
            TokenKind::Str => template.push_literal(input.text, toks[i].span, PieceKind::Literal),
            TokenKind::Ident => match input.string_macros.get(word(input, i).as_ref()) {
                Some(lits) => {
                    for lit in lits {
                        template.push_literal(input.text, *lit, PieceKind::Literal);
                    }
                }
                None => known = false,
            },
            _ => known = false,
        }
    }
    Constraint {
        text: if known { template.text } else { String::new() },
        span,
        known,
    }
}

fn parse_clobbers(input: &AsmInput, section: &[usize]) -> Vec<Clobber> {
    let mut out: Vec<Clobber> = Vec::new();
    // Adjacent literals are one clobber, as the compiler concatenates them (`"memor" "y"`).
    let mut previous_was_literal = false;
    for &i in section {
        let tok = input.tokens[i];
        if tok.kind == TokenKind::Str {
            let mut t = Template::default();
            t.push_literal(input.text, tok.span, PieceKind::Literal);
            match out.last_mut() {
                Some(last) if previous_was_literal => {
                    last.text.push_str(&t.text);
                    last.span = Span::new(last.span.start as usize, tok.span.end as usize);
                }
                _ => out.push(Clobber {
                    text: t.text,
                    span: tok.span,
                }),
            }
            previous_was_literal = true;
        } else {
            previous_was_literal = false;
        }
    }
    out
}
