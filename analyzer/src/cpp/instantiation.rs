//! `if constexpr` branches that no instantiation of their function template takes. A template
//! compiles only the branches its arguments select; when the function's `static_assert`s
//! allow only values that an earlier branch of the chain takes (`static_assert(N == 1 || N ==
//! 2); if constexpr (N == 1) ... else if constexpr (N == 2) ... else { asm("trap"); }`), the
//! last branch is compiled for no instantiation that builds, and ptxas never sees its asm.
//!
//! The language rule (C++17 [stmt.if]/2: a discarded statement is not instantiated) is what
//! compilers follow: measured with g++ 12.2 on the host (2026-12-05), an `asm` no assembler
//! accepts in the last branch of such a chain compiled while every allowed value was
//! instantiated, and failed once the assert allowed a value reaching it. nvcc is not measured
//! yet: the GPU cases (`ptx-syntax/*if-constexpr*`) are written for it and wait for a device.
//!
//! Only what can be evaluated is used: conditions and assertions over the function's own
//! integer and `bool` template parameters, with literals and C++ operators (anything else,
//! such as a type trait or another name, is unknown and may take the branch). An integer
//! parameter is tried from -1024 to 16384 and at far values; when an assertion allows a far
//! value, nothing is claimed.

use super::lexer::{Token, TokenKind};
use super::model::AsmStatement;

/// Why no instantiation compiles a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UntakenBranch {
    /// What rules the branch out, said for a finding's note.
    pub why: String,
}

impl UntakenBranch {
    /// Why a finding in the branch is not loud.
    pub fn note(&self) -> String {
        format!(
            "{}: a template instantiates only the `if constexpr` branches its arguments \
             take (C++17 [stmt.if]), so no build compiles this asm: reported as info",
            self.why
        )
    }
}

/// The values an integer parameter is tried at, besides the far probes.
const LOW: i128 = -1024;
const HIGH: i128 = 16384;
/// At most this many `bool` parameters beside one integer parameter (each doubles the work).
const MAX_BOOLS: usize = 3;
/// Expressions longer than this are not read (real conditions are a few dozen tokens).
const MAX_EXPRESSION_TOKENS: usize = 256;
/// Bounds on what one statement's question reads (a generated file may hold thousands of
/// statements in one function): the body's tokens, the conditions and the assertions.
const MAX_BODY_TOKENS: usize = 50_000;
const MAX_EXPRESSIONS: usize = 64;

/// Whether [`untaken_branch`] may answer yes (without the file's tokens): C++ in a function
/// template, with `constexpr` written in its body before the asm.
pub fn worth_asking(text: &str, stmt: &AsmStatement) -> bool {
    if stmt.python().is_some() || stmt.in_python() || stmt.macro_name.is_some() {
        return false;
    }
    let Some(f) = stmt.context.function.as_ref() else {
        return false;
    };
    let (body_start, at) = (f.body.start as usize, stmt.span.start as usize);
    f.has("template")
        && body_start < at
        && text
            .get(body_start..at)
            .is_some_and(|t| t.contains("constexpr"))
}

/// Whether `stmt` (in `text`, lexed as `tokens`) sits in an `if constexpr` branch that no
/// allowed value of its function template's parameters takes.
pub fn untaken_branch(text: &str, tokens: &[Token], stmt: &AsmStatement) -> Option<UntakenBranch> {
    if !worth_asking(text, stmt) {
        return None;
    }
    let f = stmt.context.function.as_ref()?;
    let (body_start, at) = (f.body.start as usize, stmt.span.start as usize);
    let code = Code { text, tokens };
    let body_open = tokens.partition_point(|t| t.start() < body_start);
    let asm_at = tokens.partition_point(|t| t.start() < at);
    let body_close = tokens.partition_point(|t| t.start() < f.body.end as usize);
    if code.word(body_open) != "{" || body_close.saturating_sub(body_open) > MAX_BODY_TOKENS {
        return None;
    }
    let name_at = tokens.partition_point(|t| t.start() < f.name_span.start as usize);
    let params = template_parameters(&code, name_at)?;

    // The blocks around the asm, outermost (the body) first.
    let mut blocks = Vec::new();
    for i in body_open..asm_at {
        match code.word(i) {
            "{" => blocks.push(i),
            "}" => {
                blocks.pop();
            }
            _ => {}
        }
    }
    if blocks.first() != Some(&body_open) {
        return None;
    }
    let mut branch = Vec::new();
    for &open in &blocks[1..] {
        if let Some(links) = chain_links(&code, open, body_open) {
            branch.extend(links);
        }
    }
    if branch.is_empty() {
        return None;
    }
    let asserts = static_asserts(&code, &blocks, body_open, body_close.min(tokens.len()));
    if branch.len() + asserts.len() > MAX_EXPRESSIONS {
        return None;
    }

    let parse = |range: &std::ops::Range<usize>| Expr::parse(&code, range.clone(), &params);
    let branch: Vec<(Expr, bool)> = branch.iter().map(|(r, want)| (parse(r), *want)).collect();
    let asserts: Vec<Expr> = asserts.iter().map(parse).collect();
    let mut used = vec![false; params.len()];
    for e in branch.iter().map(|(e, _)| e).chain(&asserts) {
        e.mark_used(&mut used);
    }
    let integers: Vec<usize> = (0..params.len())
        .filter(|&p| used[p] && params[p].kind != ParamKind::Bool)
        .collect();
    let bools: Vec<usize> = (0..params.len())
        .filter(|&p| used[p] && params[p].kind == ParamKind::Bool)
        .collect();
    if integers.len() > 1 || bools.len() > MAX_BOOLS {
        return None;
    }
    let unsigned = params.iter().any(|p| p.kind == ParamKind::Unsigned);
    let integer_values: Vec<(i128, bool)> = match integers.first() {
        Some(&p) => candidate_values(params[p].kind),
        None => vec![(0, false)],
    };
    let mut env = vec![0i128; params.len()];
    let mut allowed_values = Vec::new();
    for &(value, far) in &integer_values {
        if let Some(&p) = integers.first() {
            env[p] = value;
        }
        let mut allowed_here = false;
        for mask in 0..1u32 << bools.len() {
            for (k, &p) in bools.iter().enumerate() {
                env[p] = i128::from(mask >> k & 1);
            }
            let eval = |e: &Expr| e.eval(&env, unsigned);
            // An assertion that cannot be evaluated may hold.
            if asserts.iter().any(|a| eval(a) == Some(0)) {
                continue;
            }
            if far {
                // An allowed value past the tried range: what lies between is unknown.
                return None;
            }
            allowed_here = true;
            let takes = branch
                .iter()
                .all(|(c, want)| eval(c).is_none_or(|v| (v != 0) == *want));
            if takes {
                return None;
            }
        }
        if allowed_here && !integers.is_empty() {
            allowed_values.push(value);
        }
    }
    let names: Vec<&str> = integers
        .iter()
        .chain(&bools)
        .map(|&p| params[p].name.as_str())
        .collect();
    let why = match (integers.first(), asserts.is_empty()) {
        (Some(&p), false) if allowed_values.is_empty() => format!(
            "no value of `{}` passes the function's `static_assert`",
            params[p].name
        ),
        (Some(&p), false) => format!(
            "the function's `static_assert` allows `{}` only {}, and none of them takes this \
             `if constexpr` branch",
            params[p].name,
            describe(&allowed_values)
        ),
        _ if names.is_empty() => "this `if constexpr` branch is never taken".to_string(),
        _ => format!(
            "no value of {} takes this `if constexpr` branch",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Some(UntakenBranch { why })
}

/// A list of values as a note says it: `in {1, 2, 4}`, `128 values from 1 to 128`.
fn describe(values: &[i128]) -> String {
    match values {
        [v] => format!("the value {v}"),
        _ if values.len() <= 12 => format!(
            "the values {{{}}}",
            values
                .iter()
                .map(i128::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => format!(
            "{} values from {} to {}",
            values.len(),
            values[0],
            values[values.len() - 1]
        ),
    }
}

/// The values an integer parameter of `kind` is tried at: the range, then far probes
/// (marked `true`).
fn candidate_values(kind: ParamKind) -> Vec<(i128, bool)> {
    let low = if kind == ParamKind::Unsigned { 0 } else { LOW };
    let mut values: Vec<(i128, bool)> = (low..=HIGH).map(|v| (v, false)).collect();
    for k in 15..63 {
        for v in [1i128 << k, (1i128 << k) - 1, (1i128 << k) + 1] {
            if v > HIGH {
                values.push((v, true));
            }
            if kind != ParamKind::Unsigned && -v < LOW {
                values.push((-v, true));
            }
        }
    }
    values
}

struct Code<'a> {
    text: &'a str,
    tokens: &'a [Token],
}

impl<'a> Code<'a> {
    fn word(&self, i: usize) -> &'a str {
        self.tokens
            .get(i)
            .and_then(|t| self.text.get(t.span.range()))
            .unwrap_or("")
    }

    /// The opening token matching the closing one at `close`, searching back to `floor`.
    fn opening(&self, close: usize, floor: usize) -> Option<usize> {
        let (open, shut) = match self.word(close) {
            ")" => ("(", ")"),
            "}" => ("{", "}"),
            _ => return None,
        };
        let mut depth = 0usize;
        for i in (floor..=close).rev() {
            let w = self.word(i);
            if w == shut {
                depth += 1;
            } else if w == open {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        None
    }

    /// The closing token matching the opening one at `open`, searching up to `end`.
    fn closing(&self, open: usize, end: usize) -> Option<usize> {
        let (open_word, shut) = match self.word(open) {
            "(" => ("(", ")"),
            "<" => ("<", ">"),
            _ => return None,
        };
        let mut depth = 0usize;
        for i in open..end.min(self.tokens.len()) {
            let w = self.word(i);
            if w == open_word {
                depth += 1;
            } else if w == shut {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            } else if shut == ">" && w == ">>" {
                depth = depth.saturating_sub(2);
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        None
    }
}

/// What the block opening at `open` requires, when it is a branch of an `if constexpr`
/// chain: each condition (its tokens) with the truth the branch needs. `None` for any other
/// block (a loop, a run-time `if`, a chain with a run-time link).
fn chain_links(
    code: &Code,
    open: usize,
    floor: usize,
) -> Option<Vec<(std::ops::Range<usize>, bool)>> {
    let before = open.checked_sub(1).filter(|&b| b > floor)?;
    let mut links = Vec::new();
    let else_at = match code.word(before) {
        ")" => {
            let paren = code.opening(before, floor)?;
            let if_at = constexpr_if(code, paren, floor)?;
            links.push((paren + 1..before, true));
            match if_at.checked_sub(1) {
                Some(e) if e > floor && code.word(e) == "else" => e,
                _ => return Some(links),
            }
        }
        "else" => before,
        _ => return None,
    };
    // The earlier links: `} else`, back through `if constexpr (c) {`.
    let mut else_at = else_at;
    loop {
        let close = else_at.checked_sub(1).filter(|&c| c > floor)?;
        if code.word(close) != "}" {
            return None;
        }
        let block = code.opening(close, floor)?;
        let paren_close = block.checked_sub(1).filter(|&p| p > floor)?;
        if code.word(paren_close) != ")" {
            return None;
        }
        let paren = code.opening(paren_close, floor)?;
        let if_at = constexpr_if(code, paren, floor)?;
        links.push((paren + 1..paren_close, false));
        if links.len() > MAX_EXPRESSIONS {
            return None;
        }
        match if_at.checked_sub(1) {
            Some(e) if e > floor && code.word(e) == "else" => else_at = e,
            _ => return Some(links),
        }
    }
}

/// The `if` of `if constexpr (` whose `(` is at `paren`.
fn constexpr_if(code: &Code, paren: usize, floor: usize) -> Option<usize> {
    let constexpr_at = paren.checked_sub(1).filter(|&c| c > floor)?;
    let if_at = constexpr_at.checked_sub(1).filter(|&i| i > floor)?;
    (code.word(constexpr_at) == "constexpr" && code.word(if_at) == "if").then_some(if_at)
}

/// The conditions of the `static_assert`s an instantiation of the asm's blocks evaluates:
/// those directly in one of `blocks` (the asm's enclosing blocks, the body first).
fn static_asserts(
    code: &Code,
    blocks: &[usize],
    body_open: usize,
    body_close: usize,
) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut open = vec![body_open];
    let mut i = body_open + 1;
    while i < body_close {
        match code.word(i) {
            "{" => open.push(i),
            "}" => {
                open.pop();
                if open.is_empty() {
                    break;
                }
            }
            "static_assert"
                if open.last().is_some_and(|o| blocks.contains(o)) && code.word(i + 1) == "(" =>
            {
                if let Some(close) = code.closing(i + 1, body_close) {
                    // The condition ends at the message's comma.
                    let mut depth = 0i32;
                    let mut end = close;
                    for k in i + 2..close {
                        match code.word(k) {
                            "(" | "[" | "{" => depth += 1,
                            ")" | "]" | "}" => depth -= 1,
                            "," if depth == 0 => {
                                end = k;
                                break;
                            }
                            _ => {}
                        }
                    }
                    out.push(i + 2..end);
                    i = close;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ParamKind {
    Bool,
    Signed,
    Unsigned,
}

#[derive(Debug)]
struct Param {
    name: String,
    kind: ParamKind,
}

/// The template parameters of the function whose name is at `name_at`: `template <int N,
/// bool B, typename T>` before its head. Type parameters and others are listed with no
/// kind of value (`None` entries are left out: their names evaluate to unknown).
fn template_parameters(code: &Code, name_at: usize) -> Option<Vec<Param>> {
    // Back over the head to `template <`: a bounded look, stopping at what ends a declaration.
    let mut i = name_at;
    let mut steps = 0;
    let template_at = loop {
        i = i.checked_sub(1)?;
        steps += 1;
        let w = code.word(i);
        if steps > 256
            || matches!(w, ";" | "{" | "}")
            || code.tokens[i].kind == TokenKind::Directive
        {
            return None;
        }
        if w == "template" && code.word(i + 1) == "<" {
            break i;
        }
        if w == ">" || w == ">>" {
            // Skip a template argument list (`Foo<int>` in a return type) by its opening.
            continue;
        }
    };
    let open = template_at + 1;
    let close = code.closing(open, name_at)?;
    let mut params = Vec::new();
    let mut start = open + 1;
    let mut depth = 0i32;
    for k in open + 1..=close {
        let w = code.word(k);
        match w {
            "<" | "(" => depth += 1,
            ">" | ")" if k != close => depth -= 1,
            _ => {}
        }
        if (w == "," && depth == 0) || k == close {
            if let Some(p) = parameter(code, start..k) {
                params.push(p);
            }
            start = k + 1;
        }
    }
    Some(params)
}

/// One template parameter's kind and name: `int N`, `unsigned int N = 4`, `bool B`.
fn parameter(code: &Code, range: std::ops::Range<usize>) -> Option<Param> {
    let words: Vec<&str> = range.map(|k| code.word(k)).collect();
    let words = match words.iter().position(|w| *w == "=") {
        Some(e) => &words[..e],
        None => &words[..],
    };
    let (name, type_words) = words.split_last()?;
    let type_words: Vec<&str> = type_words
        .iter()
        .copied()
        .filter(|w| !matches!(*w, "const" | "std" | "::" | "cuda"))
        .collect();
    let kind = match type_words.as_slice() {
        ["bool"] => ParamKind::Bool,
        ["int"]
        | ["signed"]
        | ["signed", "int"]
        | ["long"]
        | ["long", "long"]
        | ["short"]
        | ["int8_t"]
        | ["int16_t"]
        | ["int32_t"]
        | ["int64_t"]
        | ["ptrdiff_t"] => ParamKind::Signed,
        ["unsigned"]
        | ["unsigned", "int"]
        | ["unsigned", "long"]
        | ["unsigned", "long", "long"]
        | ["unsigned", "short"]
        | ["uint8_t"]
        | ["uint16_t"]
        | ["uint32_t"]
        | ["uint64_t"]
        | ["size_t"] => ParamKind::Unsigned,
        _ => return None,
    };
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    valid.then(|| Param {
        name: name.to_string(),
        kind,
    })
}

/// A constant expression over the parameters.
#[derive(Debug)]
enum Expr {
    Number(i128),
    Param(usize),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Choice(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Something not modelled (a call, a type trait, another name).
    Unknown,
}

const BINARY: &[(&str, u8)] = &[
    ("||", 1),
    ("&&", 2),
    ("|", 3),
    ("^", 4),
    ("&", 5),
    ("==", 6),
    ("!=", 6),
    ("<", 7),
    ("<=", 7),
    (">", 7),
    (">=", 7),
    ("<<", 8),
    (">>", 8),
    ("+", 9),
    ("-", 9),
    ("*", 10),
    ("/", 10),
    ("%", 10),
];

struct Parser<'c, 'a> {
    code: &'c Code<'a>,
    pos: usize,
    end: usize,
    params: &'c [Param],
    depth: u32,
}

impl Expr {
    fn parse(code: &Code, range: std::ops::Range<usize>, params: &[Param]) -> Expr {
        if range.is_empty() || range.len() > MAX_EXPRESSION_TOKENS {
            return Expr::Unknown;
        }
        let mut p = Parser {
            code,
            pos: range.start,
            end: range.end,
            params,
            depth: 0,
        };
        match p.expression(0) {
            Some(e) if p.pos == p.end => e,
            _ => Expr::Unknown,
        }
    }

    fn mark_used(&self, used: &mut [bool]) {
        match self {
            Expr::Param(p) => used[*p] = true,
            Expr::Unary(_, a) => a.mark_used(used),
            Expr::Binary(_, a, b) => {
                a.mark_used(used);
                b.mark_used(used);
            }
            Expr::Choice(a, b, c) => {
                a.mark_used(used);
                b.mark_used(used);
                c.mark_used(used);
            }
            Expr::Number(_) | Expr::Unknown => {}
        }
    }

    /// The value, `None` when unknown. With an unsigned parameter about, a negative value
    /// is unknown (C++ would wrap it).
    fn eval(&self, env: &[i128], unsigned: bool) -> Option<i128> {
        let fits = |v: i128| {
            (i128::from(i64::MIN)..=i128::from(u64::MAX)).contains(&v) && !(unsigned && v < 0)
        };
        let v = match self {
            Expr::Number(n) => *n,
            Expr::Param(p) => env[*p],
            Expr::Unknown => return None,
            Expr::Unary(op, a) => {
                let a = a.eval(env, unsigned)?;
                match *op {
                    "!" => i128::from(a == 0),
                    "-" => -a,
                    "+" => a,
                    "~" if !unsigned => !a,
                    _ => return None,
                }
            }
            Expr::Choice(c, a, b) => {
                if c.eval(env, unsigned)? != 0 {
                    a.eval(env, unsigned)?
                } else {
                    b.eval(env, unsigned)?
                }
            }
            Expr::Binary(op, a, b) => {
                let a = a.eval(env, unsigned);
                // `&&` and `||` decide on one side when they can.
                match (*op, a) {
                    ("&&", Some(0)) => return Some(0),
                    ("||", Some(x)) if x != 0 => return Some(1),
                    _ => {}
                }
                let b = b.eval(env, unsigned);
                match (*op, b) {
                    ("&&", Some(0)) => return Some(0),
                    ("||", Some(x)) if x != 0 => return Some(1),
                    _ => {}
                }
                let (a, b) = (a?, b?);
                match *op {
                    "||" => i128::from(a != 0 || b != 0),
                    "&&" => i128::from(a != 0 && b != 0),
                    "|" => a | b,
                    "^" => a ^ b,
                    "&" => a & b,
                    "==" => i128::from(a == b),
                    "!=" => i128::from(a != b),
                    "<" => i128::from(a < b),
                    "<=" => i128::from(a <= b),
                    ">" => i128::from(a > b),
                    ">=" => i128::from(a >= b),
                    "<<" if (0..63).contains(&b) => a.checked_shl(b as u32)?,
                    ">>" if (0..63).contains(&b) => a >> b,
                    "+" => a + b,
                    "-" => a - b,
                    "*" => a.checked_mul(b)?,
                    "/" if b != 0 => a / b,
                    "%" if b != 0 => a % b,
                    _ => return None,
                }
            }
        };
        fits(v).then_some(v)
    }
}

impl<'a> Parser<'_, 'a> {
    fn peek(&self) -> Option<&'a str> {
        (self.pos < self.end).then(|| self.code.word(self.pos))
    }

    /// The operator at the position and how many tokens it takes: the lexer keeps most
    /// punctuators one character a token, so `==` is `=` `=` side by side.
    fn operator(&self) -> Option<(&'a str, usize)> {
        let first = self
            .code
            .tokens
            .get(self.pos)
            .filter(|_| self.pos < self.end)?;
        if let Some(second) = self.code.tokens.get(self.pos + 1) {
            if self.pos + 1 < self.end
                && first.kind == TokenKind::Punct
                && second.kind == TokenKind::Punct
                && first.end() == second.start()
            {
                let pair = self.code.text.get(first.start()..second.end())?;
                if matches!(pair, "==" | "!=" | "<=" | ">=" | "&&" | "||" | "<<" | ">>") {
                    return Some((pair, 2));
                }
            }
        }
        Some((self.code.word(self.pos), 1))
    }

    fn expression(&mut self, min: u8) -> Option<Expr> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let mut lhs = self.unary()?;
        while let Some((op, width)) = self.operator() {
            if op == "?" && min == 0 {
                self.pos += 1;
                let a = self.expression(0)?;
                if self.peek() != Some(":") {
                    return None;
                }
                self.pos += 1;
                let b = self.expression(0)?;
                lhs = Expr::Choice(Box::new(lhs), Box::new(a), Box::new(b));
                continue;
            }
            let Some(&(op, prec)) = BINARY.iter().find(|(o, _)| *o == op) else {
                break;
            };
            if prec <= min {
                break;
            }
            self.pos += width;
            let rhs = self.expression(prec)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        self.depth -= 1;
        Some(lhs)
    }

    fn unary(&mut self) -> Option<Expr> {
        let w = self.peek()?;
        let token = self.code.tokens[self.pos];
        self.pos += 1;
        match w {
            "(" => {
                let e = self.expression(0)?;
                (self.peek() == Some(")")).then(|| self.pos += 1)?;
                Some(e)
            }
            "!" | "-" | "+" | "~" => {
                let op = ["!", "-", "+", "~"].into_iter().find(|o| *o == w)?;
                Some(Expr::Unary(op, Box::new(self.unary()?)))
            }
            "true" => Some(Expr::Number(1)),
            "false" => Some(Expr::Number(0)),
            _ if token.kind == TokenKind::Number => number(w).map(Expr::Number),
            _ if token.kind == TokenKind::Ident => {
                let param = self.params.iter().position(|p| p.name == w);
                // A call, a template or a qualified name is not modelled: a call is unknown,
                // skipped whole so that the expression around it still parses; the others
                // make the whole expression unknown.
                match (self.peek(), param) {
                    (Some("("), _) => {
                        let close = self.code.closing(self.pos, self.end)?;
                        self.pos = close + 1;
                        Some(Expr::Unknown)
                    }
                    (Some("::" | "." | "->" | "["), _) | (Some("<"), None) => None,
                    (_, Some(p)) => Some(Expr::Param(p)),
                    (_, None) => Some(Expr::Unknown),
                }
            }
            _ => None,
        }
    }
}

/// An integer literal's value: decimal, hex, octal or binary, digit separators and suffixes
/// (`u`, `l`, `ll`, `z`) allowed.
fn number(literal: &str) -> Option<i128> {
    let digits = literal
        .trim_end_matches(['u', 'U', 'l', 'L', 'z', 'Z'])
        .replace('\'', "");
    super::types::integer_digits_value(&digits)
        .filter(|v| *v <= u128::from(u64::MAX))
        .map(|v| v as i128)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statements::find_asm_statements;
    use crate::SourceFile;

    fn untaken(code: &str) -> Vec<Option<String>> {
        let file = SourceFile::new("t.cu", code.to_string());
        let statements = find_asm_statements(&file);
        let tokens = crate::cpp::lexer::lex_range(code, 0, code.len(), false);
        statements
            .iter()
            .map(|s| untaken_branch(code, &tokens, s).map(|u| u.why))
            .collect()
    }

    const CHAIN: &str = r#"
template <int N>
__device__ void copy(unsigned *dst, unsigned src) {
  static_assert(N > 0 && (N & (N - 1)) == 0 && N <= 4, "N must be 1, 2 or 4");
  if constexpr (N == 1) {
    asm volatile("mov.b32 %0, %1;" : "=r"(dst[0]) : "r"(src));
  } else if constexpr (N == 2) {
    asm volatile("mov.b32 %0, %1;" : "=r"(dst[1]) : "r"(src));
  } else if constexpr (N == 4) {
    asm volatile("mov.b32 %0, %1;" : "=r"(dst[3]) : "r"(src));
  } else {
    asm volatile("trap");
  }
}
"#;

    #[test]
    fn a_last_branch_the_assertion_leaves_no_value_for_is_untaken() {
        let found = untaken(CHAIN);
        assert_eq!(found.len(), 4);
        assert_eq!(found[..3], [None, None, None]);
        let why = found[3].as_deref().expect("the else branch is untaken");
        assert!(why.contains("`N` only the values {1, 2, 4}"), "{why}");
    }

    #[test]
    fn a_value_the_assertion_allows_that_reaches_the_branch_keeps_it() {
        // N == 8 passes the assertion and reaches the `else`.
        let code = CHAIN.replace("N <= 4", "N <= 8");
        assert_eq!(untaken(&code), vec![None; 4]);
        // No assertion: every other N reaches the `else`.
        let code = CHAIN.replace("static_assert(", "(void)(");
        assert_eq!(untaken(&code), vec![None; 4]);
        // An assertion allowing values past the tried range says nothing of them.
        let code = CHAIN.replace("N <= 4", "N != 3");
        assert_eq!(untaken(&code), vec![None; 4]);
    }

    #[test]
    fn run_time_ifs_type_traits_and_other_names_are_unknown() {
        // A run-time `if` chooses at run time: both branches are compiled.
        let code = CHAIN.replace("if constexpr", "if");
        assert_eq!(untaken(&code), vec![None; 4]);
        // A condition naming something other than the parameters may be true.
        let code = CHAIN.replace("(N == 4)", "(N == 4 && kExtra)");
        assert_eq!(untaken(&code), vec![None; 4]);
        // ... unless the known side decides: `N == 4 || kExtra` holds for N == 4.
        let code = CHAIN.replace("(N == 4)", "(N == 4 || kExtra)");
        assert!(untaken(&code)[3].is_some());
        let code = CHAIN.replace("(N == 4)", "(std::is_same_v<T, float>)");
        assert_eq!(untaken(&code), vec![None; 4]);
        // Not a template: `N` is no parameter.
        let code = CHAIN.replace("template <int N>", "constexpr int N = 4;");
        assert_eq!(untaken(&code), vec![None; 4]);
    }

    #[test]
    fn bool_parameters_and_assertions_inside_the_branch() {
        let code = r#"
template <bool A, int N>
__device__ void f(unsigned *p) {
  if constexpr (A) {
    asm volatile("mov.b32 %0, 1;" : "=r"(p[0]));
  } else if constexpr (!A) {
    asm volatile("mov.b32 %0, 2;" : "=r"(p[0]));
  } else {
    asm volatile("trap");
  }
  if constexpr (N > 2) {
    static_assert(N == 1, "unreachable");
    asm volatile("trap");
  }
}
"#;
        let found = untaken(code);
        assert_eq!(found[..2], [None, None]);
        assert!(
            found[2].as_deref().is_some_and(|w| w.contains("`A`")),
            "{found:?}"
        );
        let why = found[3]
            .as_deref()
            .expect("N > 2 and N == 1 never hold together");
        assert!(why.contains("`N` only the value 1,"), "{why}");
    }

    #[test]
    fn unsigned_wrap_around_is_unknown() {
        // For unsigned N, `N - 1 >= 0` always holds in C++; arithmetic on integers would say
        // N == 0 fails it. Unknown keeps the branch.
        let code = r#"
template <unsigned N>
__device__ void f(unsigned *p) {
  static_assert(N - 1 >= 0 && N < 2, "");
  if constexpr (N == 1) {
    asm volatile("mov.b32 %0, 1;" : "=r"(p[0]));
  } else {
    asm volatile("trap");
  }
}
"#;
        assert_eq!(untaken(code), vec![None, None]);
    }

    #[test]
    fn literals() {
        assert_eq!(number("0x10u"), Some(16));
        assert_eq!(number("1'024"), Some(1024));
        assert_eq!(number("010"), Some(8));
        assert_eq!(number("0b101"), Some(5));
        assert_eq!(number("128ull"), Some(128));
        assert_eq!(number("1.5f"), None);
    }
}
