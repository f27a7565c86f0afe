//! Preprocessor directives: conditions kept as parsed expressions, and `#define`s.

use super::lexer::{lex_range, Token, TokenKind};
use crate::Span;

/// A parsed `#if` expression. Unknown shapes stay as text, never guessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CondExpr {
    Defined(String),
    Not(Box<CondExpr>),
    And(Box<CondExpr>, Box<CondExpr>),
    Or(Box<CondExpr>, Box<CondExpr>),
    /// `lhs op rhs` with op one of `== != < <= > >=`.
    Compare(&'static str, Box<CondExpr>, Box<CondExpr>),
    Ident(String),
    Number(i64),
    /// A function-like macro call or other expression we do not model.
    Other(String),
}

/// One condition that holds where a statement stands: `expr` is true (or, when `negated`,
/// false: the statement is in an `#else`/later `#elif` branch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub expr: CondExpr,
    pub negated: bool,
    /// The directive as written (`#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800`).
    pub text: String,
    pub span: Span,
}

impl Condition {
    /// Whether this condition being in force implies `pred` holds for the named macro test.
    pub fn implies(&self, pred: &dyn Fn(&CondExpr, bool) -> bool) -> bool {
        implies(&self.expr, !self.negated, pred)
    }
}

/// Does `expr == truth` imply something `pred` recognises? `pred(leaf, truth)` judges leaves.
pub fn implies(expr: &CondExpr, truth: bool, pred: &dyn Fn(&CondExpr, bool) -> bool) -> bool {
    match expr {
        CondExpr::Not(inner) => implies(inner, !truth, pred),
        CondExpr::And(a, b) if truth => implies(a, true, pred) || implies(b, true, pred),
        CondExpr::And(a, b) => implies(a, false, pred) && implies(b, false, pred),
        CondExpr::Or(a, b) if truth => implies(a, true, pred) && implies(b, true, pred),
        CondExpr::Or(a, b) => implies(a, false, pred) || implies(b, false, pred),
        leaf => pred(leaf, truth),
    }
}

/// Every leaf of an expression, for "does it mention X" questions.
pub fn leaves<'a>(expr: &'a CondExpr, out: &mut Vec<&'a CondExpr>) {
    match expr {
        CondExpr::Not(a) => leaves(a, out),
        CondExpr::And(a, b) | CondExpr::Or(a, b) => {
            leaves(a, out);
            leaves(b, out);
        }
        CondExpr::Compare(_, a, b) => {
            out.push(expr);
            leaves(a, out);
            leaves(b, out);
        }
        leaf => out.push(leaf),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectiveKind {
    If(CondExpr),
    Ifdef(String),
    Ifndef(String),
    Elif(CondExpr),
    Else,
    Endif,
    Define(Define),
    Undef(String),
    /// `#include "name"` (quoted) or `#include <name>`; a computed include is `Other`.
    Include {
        quoted: bool,
        name: String,
    },
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Define {
    pub name: String,
    pub name_span: Span,
    /// `Some` for function-like macros.
    pub params: Option<Vec<String>>,
    /// The replacement list (may span continuation lines).
    pub body: Span,
}

pub struct Directive {
    pub kind: DirectiveKind,
    pub span: Span,
}

/// The name of a directive (`if` of `#  if X`, `endif` of `#endif // X`): the word after the
/// `#`, cheaply, without parsing the rest.
pub fn directive_name(directive: &str) -> &str {
    directive
        .trim_start_matches('#')
        .trim_start()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("")
}

/// Whether a directive token is `#if`, `#ifdef`, `#ifndef`, `#elif...`, `#else` or `#endif`
/// (cheap: looks at the first letters only).
pub fn is_conditional(text: &str, span: Span) -> bool {
    let body = text[span.range()]
        .trim_start_matches('#')
        .trim_start_matches([' ', '\t']);
    body.starts_with("if") || body.starts_with("el") || body.starts_with("endif")
}

/// Parses one directive token.
pub fn parse_directive(text: &str, span: Span) -> Directive {
    let toks = lex_range(text, span.start as usize + 1, span.end as usize, true);
    let kind = parse_kind(text, &toks, span);
    Directive { kind, span }
}

fn parse_kind(text: &str, toks: &[Token], span: Span) -> DirectiveKind {
    let Some(first) = toks.first().filter(|t| t.kind == TokenKind::Ident) else {
        return DirectiveKind::Other;
    };
    let name = first.text(text);
    let rest = &toks[1..];
    let ident_at = |i: usize| {
        rest.get(i)
            .filter(|t| t.kind == TokenKind::Ident)
            .map(|t| t.text(text).into_owned())
    };
    match name.as_ref() {
        "if" => DirectiveKind::If(parse_condition(text, rest)),
        "elif" => DirectiveKind::Elif(parse_condition(text, rest)),
        "ifdef" => DirectiveKind::Ifdef(ident_at(0).unwrap_or_default()),
        "ifndef" => DirectiveKind::Ifndef(ident_at(0).unwrap_or_default()),
        "elifdef" => DirectiveKind::Elif(CondExpr::Defined(ident_at(0).unwrap_or_default())),
        "elifndef" => DirectiveKind::Elif(CondExpr::Not(Box::new(CondExpr::Defined(
            ident_at(0).unwrap_or_default(),
        )))),
        "else" => DirectiveKind::Else,
        "endif" => DirectiveKind::Endif,
        "undef" => DirectiveKind::Undef(ident_at(0).unwrap_or_default()),
        "include" => text
            .get(first.end()..span.end as usize)
            .and_then(crate::build::includes::include_operand)
            .map_or(DirectiveKind::Other, |(quoted, name)| {
                DirectiveKind::Include {
                    quoted,
                    name: name.to_string(),
                }
            }),
        "define" => match rest.first() {
            Some(name_tok) if name_tok.kind == TokenKind::Ident => {
                let mut body_start = name_tok.end();
                let mut params = None;
                // Function-like only when `(` touches the name.
                if let Some(open) = rest.get(1) {
                    if open.start() == name_tok.end() && &text[open.span.range()] == "(" {
                        let mut list = Vec::new();
                        let mut close = None;
                        for t in &rest[2..] {
                            match &text[t.span.range()] {
                                ")" => {
                                    close = Some(t.end());
                                    break;
                                }
                                "," => {}
                                _ => list.push(t.text(text).into_owned()),
                            }
                        }
                        body_start = close.unwrap_or(span.end as usize);
                        params = Some(list);
                    }
                }
                DirectiveKind::Define(Define {
                    name: name_tok.text(text).into_owned(),
                    name_span: name_tok.span,
                    params,
                    body: Span::new(body_start.min(span.end as usize), span.end as usize),
                })
            }
            _ => DirectiveKind::Other,
        },
        _ => DirectiveKind::Other,
    }
}

/// Parses a condition; whatever it cannot read becomes [`CondExpr::Other`].
/// Conditions longer than this many tokens, or nested deeper than [`MAX_NESTING`], stay text:
/// the parser, `implies` and `leaves` recurse over the expression, and real conditions are
/// far smaller.
const MAX_CONDITION_TOKENS: usize = 512;
const MAX_NESTING: u32 = 32;

pub fn parse_condition(text: &str, toks: &[Token]) -> CondExpr {
    let words: Vec<String> = toks.iter().map(|t| t.text(text).into_owned()).collect();
    if words.len() > MAX_CONDITION_TOKENS {
        return CondExpr::Other(words.join(" "));
    }
    let mut parser = CondParser {
        words: &words,
        pos: 0,
        nesting: 0,
        nesting_exceeded: false,
    };
    let expr = parser.or();
    if parser.pos < words.len() || parser.nesting_exceeded {
        return CondExpr::Other(words.join(" "));
    }
    expr
}

struct CondParser<'a> {
    words: &'a [String],
    pos: usize,
    /// `(` and `!` levels open; past [`MAX_NESTING`] the rest is not parsed.
    nesting: u32,
    nesting_exceeded: bool,
}

impl<'a> CondParser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.pos).map(String::as_str)
    }

    /// `&&`, `||`, `==` etc. arrive as two one-character tokens.
    fn eat_op(&mut self, op: &str) -> bool {
        let chars: Vec<char> = op.chars().collect();
        for (k, c) in chars.iter().enumerate() {
            match self.words.get(self.pos + k) {
                Some(w) if w.len() == 1 && w.starts_with(*c) => {}
                _ => return false,
            }
        }
        // `<` must not be the start of `<=` when asked for `<` alone, etc.
        if chars.len() == 1 && matches!(chars[0], '<' | '>' | '=' | '!') {
            if let Some(next) = self.words.get(self.pos + 1) {
                if next == "=" {
                    return false;
                }
            }
        }
        self.pos += chars.len();
        true
    }

    fn or(&mut self) -> CondExpr {
        let mut lhs = self.and();
        while self.eat_op("||") {
            let rhs = self.and();
            lhs = CondExpr::Or(Box::new(lhs), Box::new(rhs));
        }
        lhs
    }

    fn and(&mut self) -> CondExpr {
        let mut lhs = self.compare();
        while self.eat_op("&&") {
            let rhs = self.compare();
            lhs = CondExpr::And(Box::new(lhs), Box::new(rhs));
        }
        lhs
    }

    fn compare(&mut self) -> CondExpr {
        let lhs = self.unary();
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if self.eat_op(op) {
                let rhs = self.unary();
                return CondExpr::Compare(op, Box::new(lhs), Box::new(rhs));
            }
        }
        lhs
    }

    fn unary(&mut self) -> CondExpr {
        if self.nesting >= MAX_NESTING {
            // Left unparsed: `parse_condition` keeps the whole condition as text.
            self.pos = self.words.len();
            self.nesting_exceeded = true;
            return CondExpr::Other(String::new());
        }
        self.nesting += 1;
        let expr = self.unary_inner();
        self.nesting -= 1;
        expr
    }

    fn unary_inner(&mut self) -> CondExpr {
        match self.peek() {
            Some("!") if self.words.get(self.pos + 1).map(String::as_str) != Some("=") => {
                self.pos += 1;
                CondExpr::Not(Box::new(self.unary()))
            }
            Some("(") => {
                self.pos += 1;
                let inner = self.or();
                if self.peek() == Some(")") {
                    self.pos += 1;
                }
                inner
            }
            Some("defined") => {
                self.pos += 1;
                let paren = self.peek() == Some("(");
                if paren {
                    self.pos += 1;
                }
                let name = self.peek().unwrap_or_default().to_string();
                self.pos += 1;
                if paren && self.peek() == Some(")") {
                    self.pos += 1;
                }
                CondExpr::Defined(name)
            }
            Some(word) => {
                let word = word.to_string();
                self.pos += 1;
                if let Some(n) = parse_int(&word) {
                    return CondExpr::Number(n);
                }
                if word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                    if self.peek() == Some("(") {
                        // A macro call: keep its text.
                        let start = self.pos - 1;
                        let mut depth = 0;
                        while let Some(w) = self.peek() {
                            self.pos += 1;
                            match w {
                                "(" => depth += 1,
                                ")" => {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                }
                                _ => {}
                            }
                        }
                        return CondExpr::Other(self.words[start..self.pos].join(""));
                    }
                    return CondExpr::Ident(word);
                }
                CondExpr::Other(word)
            }
            None => CondExpr::Other(String::new()),
        }
    }
}

fn parse_int(word: &str) -> Option<i64> {
    let w = word.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()
    } else {
        w.parse().ok()
    }
}

/// One open `#if` group while scanning: the conditions of its earlier branches (now false)
/// and of the current one.
#[derive(Clone, Debug, Default)]
pub struct CondFrame {
    pub earlier: Vec<Condition>,
    pub current: Option<Condition>,
}

/// The conditions in force, outermost first.
pub fn active_conditions(stack: &[CondFrame]) -> Vec<Condition> {
    let mut out = Vec::new();
    for frame in stack {
        for c in &frame.earlier {
            out.push(Condition {
                negated: !c.negated,
                ..c.clone()
            });
        }
        if let Some(c) = &frame.current {
            out.push(c.clone());
        }
    }
    out
}

/// Applies a conditional directive to the stack.
pub fn apply_conditional(stack: &mut Vec<CondFrame>, text: &str, dir: &Directive) {
    let written = text[dir.span.range()].trim_end().to_string();
    let make = |expr: CondExpr| Condition {
        expr,
        negated: false,
        text: written.clone(),
        span: dir.span,
    };
    match &dir.kind {
        DirectiveKind::If(e) => stack.push(CondFrame {
            earlier: vec![],
            current: Some(make(e.clone())),
        }),
        DirectiveKind::Ifdef(n) => stack.push(CondFrame {
            earlier: vec![],
            current: Some(make(CondExpr::Defined(n.clone()))),
        }),
        DirectiveKind::Ifndef(n) => stack.push(CondFrame {
            earlier: vec![],
            current: Some(make(CondExpr::Not(Box::new(CondExpr::Defined(n.clone()))))),
        }),
        DirectiveKind::Elif(e) => {
            if let Some(top) = stack.last_mut() {
                if let Some(c) = top.current.take() {
                    top.earlier.push(c);
                }
                top.current = Some(make(e.clone()));
            }
        }
        DirectiveKind::Else => {
            if let Some(top) = stack.last_mut() {
                if let Some(c) = top.current.take() {
                    top.earlier.push(c);
                }
            }
        }
        DirectiveKind::Endif => {
            stack.pop();
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cond(src: &str) -> CondExpr {
        match parse_directive(src, Span::new(0, src.len())).kind {
            DirectiveKind::If(e) | DirectiveKind::Elif(e) => e,
            other => panic!("not a condition: {other:?}"),
        }
    }

    #[test]
    fn deep_or_long_conditions_stay_text_without_deep_recursion() {
        let deep = format!("#if {}A{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(matches!(cond(&deep), CondExpr::Other(_)));
        let nots = format!("#if {}A", "!".repeat(100_000));
        assert!(matches!(cond(&nots), CondExpr::Other(_)));
        let chain = format!("#if A{}", " && A".repeat(100_000));
        assert!(matches!(cond(&chain), CondExpr::Other(_)));
        // Within the limits the condition is still understood.
        let fine = format!("#if {}A{}", "(".repeat(20), ")".repeat(20));
        assert_eq!(cond(&fine), CondExpr::Ident("A".into()));
    }

    #[test]
    fn parses_cuda_arch_conditions() {
        let e = cond("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800");
        assert_eq!(
            e,
            CondExpr::And(
                Box::new(CondExpr::Defined("__CUDA_ARCH__".into())),
                Box::new(CondExpr::Compare(
                    ">=",
                    Box::new(CondExpr::Ident("__CUDA_ARCH__".into())),
                    Box::new(CondExpr::Number(800))
                ))
            )
        );
        assert_eq!(
            cond("#if !defined __CUDA_ARCH__"),
            CondExpr::Not(Box::new(CondExpr::Defined("__CUDA_ARCH__".into())))
        );
        assert!(matches!(
            cond("#if (A || B) && C != 0x10"),
            CondExpr::And(..)
        ));
    }

    #[test]
    fn defines_with_params_and_continuations() {
        let src = "#define LOAD(mod, x) \\\n  asm(\"ld.\" #mod : : \"l\"(x))";
        let d = parse_directive(src, Span::new(0, src.len()));
        let DirectiveKind::Define(def) = d.kind else {
            panic!()
        };
        assert_eq!(def.name, "LOAD");
        assert_eq!(def.params, Some(vec!["mod".into(), "x".into()]));
        assert!(src[def.body.range()].trim_start().starts_with("\\\n  asm"));
        let src = "#define X (1)";
        let DirectiveKind::Define(def) = parse_directive(src, Span::new(0, src.len())).kind else {
            panic!()
        };
        assert_eq!(def.params, None);
    }

    #[test]
    fn includes_name_their_header() {
        let kind = |src: &str| parse_directive(src, Span::new(0, src.len())).kind;
        let include = |quoted, name: &str| DirectiveKind::Include {
            quoted,
            name: name.into(),
        };
        assert_eq!(kind("#include \"cfg/a.h\""), include(true, "cfg/a.h"));
        assert_eq!(kind("#  include <lib/v.h>"), include(false, "lib/v.h"));
        assert_eq!(kind("#include CONFIG_HEADER"), DirectiveKind::Other);
        assert_eq!(kind("#include \"open"), DirectiveKind::Other);
    }

    #[test]
    fn else_branches_negate_earlier_conditions() {
        let src = "#ifdef A\n#elif B\n#else\n";
        let mut stack = Vec::new();
        for line in src.lines() {
            let start = src.find(line).unwrap();
            let d = parse_directive(src, Span::new(start, start + line.len()));
            apply_conditional(&mut stack, src, &d);
        }
        let active = active_conditions(&stack);
        assert_eq!(active.len(), 2);
        assert!(active.iter().all(|c| c.negated));
    }
}
