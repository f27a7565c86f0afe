//! The little Python syntax the front end needs, from one token pass: tokens (names, numbers,
//! strings with their prefixes, operators) with bracket partners, `#` comments, logical lines
//! with their indentation, and expressions as token ranges classified on demand.
//!
//! A hand-written pass, not a grammar: tree-sitter-python parsed the files that hold a call at
//! about 5 MB/s here, several times the cost of checking all the C++ of the benchmark tree
//! (docs/python.md); this pass reads them at memory speed. tree-sitter-python referees it in
//! the tests (`analyzer/tests/python_referee.rs`).

use crate::Span;
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Name,
    Number,
    /// A string literal, prefix and quotes included.
    Str,
    Op,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: u32,
    pub end: u32,
}

/// A logical line: its tokens and the column of its first one.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub tokens: Range<u32>,
    pub indent: u32,
}

/// No partner: the token is not a bracket, or its partner is missing.
pub(crate) const NONE: u32 = u32::MAX;

pub(crate) struct Tokens<'t> {
    pub text: &'t str,
    pub tokens: Vec<Token>,
    /// For each bracket token, the index of its partner ([`NONE`] if unmatched or not one).
    pub partner: Vec<u32>,
    pub comments: Vec<Span>,
    pub lines: Vec<Line>,
}

/// Python's keywords: never a name that can be bound or called.
pub(crate) const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Whether a name is a keyword (the longest is 8 bytes: most names are longer).
pub(crate) fn is_keyword(name: &str) -> bool {
    name.len() <= 8 && KEYWORDS.contains(&name)
}

const STRING_PREFIXES: [&str; 11] = ["r", "u", "f", "b", "t", "br", "rb", "fr", "rf", "tr", "rt"];

/// The length of the operator at the start of `rest`: `**=`, `//=`, `>>=`, `<<=`, `...`; `**`,
/// `//`, `>>`, `<<`, `->` and the two-byte `X=` ones (`<=`, `==`, `!=`, `:=`, `+=`, ...); else
/// one byte.
fn operator_len(rest: &[u8]) -> usize {
    let at = |k: usize| rest.get(k).copied().unwrap_or(0);
    match (at(0), at(1), at(2)) {
        (b'*', b'*', b'=') | (b'/', b'/', b'=') | (b'>', b'>', b'=') | (b'<', b'<', b'=') => 3,
        (b'.', b'.', b'.') => 3,
        (b'*', b'*', _) | (b'/', b'/', _) | (b'>', b'>', _) | (b'<', b'<', _) | (b'-', b'>', _) => {
            2
        }
        (
            b'<' | b'>' | b'=' | b'!' | b':' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|'
            | b'^' | b'@',
            b'=',
            _,
        ) => 2,
        _ => 1,
    }
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_name_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Where the string literal whose opening quote is at `quote` ends (after its closing quote;
/// an unterminated one-line string ends before its newline).
fn string_end(bytes: &[u8], quote: usize) -> usize {
    let q = bytes[quote];
    let triple = bytes.get(quote + 1) == Some(&q) && bytes.get(quote + 2) == Some(&q);
    let mut i = quote + if triple { 3 } else { 1 };
    // From one byte that can end the string (or skip one) to the next.
    while i < bytes.len() {
        let rest = &bytes[i..];
        let next = if triple {
            memchr::memchr2(q, b'\\', rest)
        } else {
            memchr::memchr3(q, b'\\', b'\n', rest)
        };
        let Some(n) = next else {
            return bytes.len();
        };
        i += n;
        match bytes[i] {
            // Skips the escaped character; in a raw string too, where `\"` does not end it.
            b'\\' => i += 2,
            b'\n' => return i,
            _ => {
                if !triple {
                    return i + 1;
                }
                if bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q) {
                    return i + 3;
                }
                i += 1;
            }
        }
    }
    bytes.len()
}

/// Where the string literal whose opening quote is at `quote` ends, reading the prefix before
/// the quote: an f-string (or a t-string) has replacement fields, where (Python 3.12, PEP 701)
/// quotes open nested strings and `#` starts a comment that may hold the closing quotes.
fn literal_end(bytes: &[u8], quote: usize) -> usize {
    literal_end_with(bytes, quote, string_end)
}

fn literal_end_with(bytes: &[u8], quote: usize, plain: fn(&[u8], usize) -> usize) -> usize {
    match string_prefix(bytes, quote) {
        Some(prefix) if prefix.iter().any(|b| matches!(b | 0x20, b'f' | b't')) => {
            let raw = prefix.iter().any(|b| b | 0x20 == b'r');
            fstring_end(bytes, quote, raw)
        }
        _ => plain(bytes, quote),
    }
}

/// The prefix letters of the string literal whose quote is at `quote` (empty for none).
fn string_prefix(bytes: &[u8], quote: usize) -> Option<&[u8]> {
    let mut start = quote;
    while start > 0 && quote - start < 3 && is_name_continue(bytes[start - 1]) {
        start -= 1;
    }
    let prefix = &bytes[start..quote];
    if prefix.is_empty() {
        return Some(prefix);
    }
    let valid = (start == 0 || !is_name_continue(bytes[start - 1]))
        && STRING_PREFIXES
            .iter()
            .any(|p| p.as_bytes().eq_ignore_ascii_case(prefix));
    valid.then_some(prefix)
}

/// Where an f-string opened at `quote` ends. An explicit stack of what is open (strings,
/// replacement fields, format specs): nesting costs no recursion.
fn fstring_end(bytes: &[u8], quote: usize, raw: bool) -> usize {
    enum Open {
        /// The literal part of an f-string: its quote, whether tripled, whether raw.
        Text { q: u8, triple: bool, raw: bool },
        /// A replacement field's expression, with its bracket depth.
        Field { depth: u32 },
        /// A format spec after `:`: text up to the field's `}`.
        Spec,
    }
    let opened = |i: usize, raw: bool| {
        let q = bytes[i];
        let triple = bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q);
        (
            Open::Text { q, triple, raw },
            i + if triple { 3 } else { 1 },
        )
    };
    let (first, mut i) = opened(quote, raw);
    let mut stack = vec![first];
    while i < bytes.len() {
        let b = bytes[i];
        let Some(top) = stack.last_mut() else {
            return i;
        };
        match top {
            Open::Text { q, triple, raw } => {
                let (q, triple, raw) = (*q, *triple, *raw);
                match b {
                    b'\\' if !raw => i += 2,
                    b'\n' if !triple => return i,
                    b'{' if bytes.get(i + 1) == Some(&b'{') => i += 2,
                    b'{' => {
                        stack.push(Open::Field { depth: 0 });
                        i += 1;
                    }
                    _ if b == q
                        && (!triple
                            || (bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q))) =>
                    {
                        stack.pop();
                        i += if triple { 3 } else { 1 };
                        if stack.is_empty() {
                            return i;
                        }
                    }
                    _ => i += 1,
                }
            }
            Open::Field { depth } => match b {
                b'(' | b'[' | b'{' => {
                    *depth += 1;
                    i += 1;
                }
                b'}' if *depth == 0 => {
                    stack.pop();
                    i += 1;
                }
                b')' | b']' | b'}' => {
                    *depth = depth.saturating_sub(1);
                    i += 1;
                }
                b':' if *depth == 0 => {
                    *top = Open::Spec;
                    i += 1;
                }
                b'#' => i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n),
                b'"' | b'\'' => match string_prefix(bytes, i) {
                    Some(prefix) if prefix.iter().any(|b| matches!(b | 0x20, b'f' | b't')) => {
                        let raw = prefix.iter().any(|b| b | 0x20 == b'r');
                        let (open, next) = opened(i, raw);
                        stack.push(open);
                        i = next;
                    }
                    _ => i = string_end(bytes, i).max(i + 1),
                },
                _ => i += 1,
            },
            Open::Spec => match b {
                b'{' => {
                    stack.push(Open::Field { depth: 0 });
                    i += 1;
                }
                b'}' => {
                    stack.pop();
                    i += 1;
                }
                _ => i += 1,
            },
        }
    }
    bytes.len()
}

/// The column of byte `at`: tabs advance to the next multiple of 8, as Python counts them.
fn column(bytes: &[u8], at: usize) -> u32 {
    // The first line starts after a byte order mark.
    let line = memchr::memrchr(b'\n', &bytes[..at])
        .map_or_else(|| crate::source::bom_len(bytes).min(at), |n| n + 1);
    bytes[line..at].iter().fold(0, |col, &b| match b {
        b'\t' => (col / 8 + 1) * 8,
        b'\x0c' => 0,
        _ => col + 1,
    })
}

impl<'t> Tokens<'t> {
    /// The tokens of the whole text.
    pub(crate) fn new(text: &'t str) -> Tokens<'t> {
        Tokens::of_ranges(text, std::slice::from_ref(&(0..text.len())))
    }

    /// The tokens of the given byte ranges of the text, each starting at a top-level statement
    /// (brackets do not continue from one range to the next).
    pub(crate) fn of_ranges(text: &'t str, ranges: &[Range<usize>]) -> Tokens<'t> {
        let size: usize = ranges.iter().map(|r| r.len()).sum();
        let mut t = Tokens {
            text,
            tokens: Vec::with_capacity(size / 6),
            partner: Vec::with_capacity(size / 6),
            comments: Vec::new(),
            lines: Vec::new(),
        };
        let mut line_first = 0u32;
        for range in ranges {
            t.lex(&text.as_bytes()[..range.end], range.start, &mut line_first);
        }
        t
    }

    /// The tokens of `bytes[start..]`.
    fn lex(&mut self, bytes: &[u8], start: usize, line_first: &mut u32) {
        let t = self;
        let mut open: Vec<u32> = Vec::new();
        let mut indent = 0u32;
        // A byte order mark starting the file is not a token (Python reads it as nothing).
        let mut i = if start == 0 {
            crate::source::bom_len(bytes)
        } else {
            start
        };
        while i < bytes.len() {
            let b = bytes[i];
            let (kind, end) = match b {
                b'\n' => {
                    if open.is_empty() {
                        t.end_line(line_first, indent);
                    }
                    i += 1;
                    continue;
                }
                b' ' | b'\t' | b'\r' | b'\x0c' => {
                    i += 1;
                    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\x0c') {
                        i += 1;
                    }
                    continue;
                }
                b'#' => {
                    let end = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                    t.comments.push(Span::new(i, end));
                    i = end;
                    continue;
                }
                // A line continuation: the logical line goes on past the line end (or a
                // stray backslash).
                b'\\' => {
                    i += 1;
                    if bytes[i..].starts_with(b"\r\n") {
                        i += 2;
                    } else if bytes.get(i) == Some(&b'\n') {
                        i += 1;
                    }
                    continue;
                }
                b'"' | b'\'' => (Kind::Str, literal_end(bytes, i)),
                b'0'..=b'9' => (Kind::Number, number_end(bytes, i)),
                b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    (Kind::Number, number_end(bytes, i))
                }
                _ if is_name_start(b) => {
                    let mut end = i + 1;
                    while end < bytes.len() && is_name_continue(bytes[end]) {
                        end += 1;
                    }
                    let prefix = end - i <= 2
                        && matches!(bytes.get(end), Some(b'"' | b'\''))
                        && STRING_PREFIXES
                            .iter()
                            .any(|p| p.as_bytes().eq_ignore_ascii_case(&bytes[i..end]));
                    if prefix {
                        (Kind::Str, literal_end(bytes, end))
                    } else {
                        (Kind::Name, end)
                    }
                }
                b'(' | b')' | b'[' | b']' | b'{' | b'}' | b',' | b';' | b'~' => (Kind::Op, i + 1),
                b'.' if !bytes[i..].starts_with(b"...") => (Kind::Op, i + 1),
                _ => (Kind::Op, i + operator_len(&bytes[i..])),
            };
            let index = t.tokens.len() as u32;
            if index == *line_first {
                indent = column(bytes, i);
            }
            t.tokens.push(Token {
                kind,
                start: i as u32,
                end: end as u32,
            });
            t.partner.push(NONE);
            match b {
                b'(' | b'[' | b'{' => open.push(index),
                b')' | b']' | b'}' => {
                    if let Some(o) = open.pop() {
                        t.partner[o as usize] = index;
                        t.partner[index as usize] = o;
                    }
                }
                _ => {}
            }
            i = end;
        }
        t.end_line(line_first, indent);
    }

    fn end_line(&mut self, line_first: &mut u32, indent: u32) {
        let end = self.tokens.len() as u32;
        if end > *line_first {
            self.lines.push(Line {
                tokens: *line_first..end,
                indent,
            });
        }
        *line_first = end;
    }

    pub(crate) fn text_of(&self, token: u32) -> &'t str {
        let t = self.tokens[token as usize];
        &self.text[t.start as usize..t.end as usize]
    }

    pub(crate) fn kind(&self, token: u32) -> Kind {
        self.tokens[token as usize].kind
    }

    /// Whether token `i` exists and is the operator `op`.
    pub(crate) fn is_op(&self, i: u32, op: &str) -> bool {
        (i as usize) < self.tokens.len() && self.kind(i) == Kind::Op && self.text_of(i) == op
    }

    /// Whether token `i` is a name that is not a keyword.
    /// Whether token `i` starts a logical line (`name` NEWLINE `(`: the `(` is no call of it).
    pub(crate) fn starts_line(&self, i: u32) -> bool {
        let k = self.lines.partition_point(|l| l.tokens.start < i);
        self.lines.get(k).is_some_and(|l| l.tokens.start == i)
    }

    pub(crate) fn is_name(&self, i: u32) -> bool {
        self.kind(i) == Kind::Name && !is_keyword(self.text_of(i))
    }

    pub(crate) fn is_keyword(&self, i: u32, keyword: &str) -> bool {
        self.kind(i) == Kind::Name && self.text_of(i) == keyword
    }

    /// The token after the bracket group that starts at `i`, or after token `i`.
    pub(crate) fn skip(&self, i: u32) -> u32 {
        match self.partner[i as usize] {
            p if p != NONE && p > i => p + 1,
            _ => i + 1,
        }
    }

    /// The tokens at bracket depth 0 in `range`, in order.
    pub(crate) fn top_level(&self, range: Range<u32>) -> impl Iterator<Item = u32> + '_ {
        let mut i = range.start;
        std::iter::from_fn(move || {
            if i >= range.end {
                return None;
            }
            let at = i;
            i = self.skip(i).min(range.end);
            Some(at)
        })
    }

    /// The first operator `op` at depth 0 in `range`.
    pub(crate) fn find_op(&self, range: Range<u32>, op: &str) -> Option<u32> {
        self.top_level(range).find(|&i| self.is_op(i, op))
    }

    /// `range` split at its depth-0 commas, empty parts (a trailing comma) left out. The
    /// parameters of a `lambda` are skipped: their commas split nothing.
    pub(crate) fn split_commas(&self, range: Range<u32>) -> Vec<Range<u32>> {
        let mut parts = Vec::new();
        let mut start = range.start;
        let mut in_lambda = false;
        for i in self.top_level(range.clone()) {
            if self.is_keyword(i, "lambda") {
                in_lambda = true;
            } else if in_lambda && self.is_op(i, ":") {
                in_lambda = false;
            } else if !in_lambda && self.is_op(i, ",") {
                if i > start {
                    parts.push(start..i);
                }
                start = i + 1;
            }
        }
        if range.end > start {
            parts.push(start..range.end);
        }
        parts
    }

    pub(crate) fn span(&self, range: &Range<u32>) -> Span {
        let first = self.tokens[range.start as usize];
        let last = self.tokens[range.end as usize - 1];
        Span {
            start: first.start,
            end: last.end,
        }
    }

    pub(crate) fn source(&self, range: &Range<u32>) -> &'t str {
        &self.text[self.span(range).range()]
    }

    /// The byte ranges of an f-string's `{...}` replacement fields (`{{` is a brace).
    pub(crate) fn fields(&self, token: u32) -> Vec<Range<usize>> {
        let t = self.tokens[token as usize];
        let bytes = &self.text.as_bytes()[t.start as usize..t.end as usize];
        let Some(quote) = bytes.iter().position(|b| matches!(b, b'"' | b'\'')) else {
            return Vec::new();
        };
        let prefix = &bytes[..quote];
        if !prefix
            .iter()
            .any(|b| matches!(b, b'f' | b'F' | b't' | b'T'))
        {
            return Vec::new();
        }
        let mut fields = Vec::new();
        let mut i = quote + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'{' if bytes.get(i + 1) == Some(&b'{') => i += 2,
                b'{' => {
                    let start = i;
                    let mut depth = 0;
                    while i < bytes.len() {
                        match bytes[i] {
                            b'{' => depth += 1,
                            b'}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                    i = (i + 1).min(bytes.len());
                    let at = t.start as usize;
                    fields.push(at + start..at + i);
                }
                b'\\' if !prefix.iter().any(|b| matches!(b, b'r' | b'R')) => i += 2,
                _ => i += 1,
            }
        }
        fields
    }
}

fn number_end(bytes: &[u8], start: usize) -> usize {
    let hex = bytes[start..].starts_with(b"0x") || bytes[start..].starts_with(b"0X");
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        let exponent_sign = matches!(b, b'+' | b'-') && !hex && matches!(bytes[i - 1], b'e' | b'E');
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || exponent_sign {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// What an expression is, as far as the front end cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Name,
    Number,
    True,
    False,
    None,
    /// One string literal (token index).
    Str(u32),
    /// Adjacent string literals.
    Strs,
    /// `( inner )`.
    Paren(Range<u32>),
    /// `( items )` with a comma, or `()`.
    Tuple(Range<u32>),
    /// `[ items ]`.
    List(Range<u32>),
    /// `left + right` (`plus`) or `left - right`, the last such operator at depth 0.
    Binary {
        left: Range<u32>,
        right: Range<u32>,
        plus: bool,
    },
    /// `function(arguments)`.
    Call {
        function: Range<u32>,
        arguments: Range<u32>,
    },
    /// `object.name`.
    Attribute {
        object: Range<u32>,
        name: u32,
    },
    /// `*x` or `**x`.
    Splat,
    Other,
}

/// Words that bind more loosely than `+`: an expression holding one at depth 0 is none of
/// the shapes above.
const LOOSER: [&str; 12] = [
    "if", "else", "lambda", "and", "or", "not", "in", "is", "for", "await", "yield", "async",
];
const LOOSER_OPS: [&str; 13] = [
    "<", ">", "==", "!=", "<=", ">=", "|", "^", "&", "<<", ">>", ":=", ",",
];

impl Tokens<'_> {
    /// Whether token `i` ends an operand (so a `+`/`-` after it is binary).
    fn ends_operand(&self, i: u32) -> bool {
        match self.kind(i) {
            Kind::Number | Kind::Str => true,
            Kind::Name => {
                let t = self.text_of(i);
                !is_keyword(t) || matches!(t, "True" | "False" | "None")
            }
            Kind::Op => matches!(self.text_of(i), ")" | "]" | "}"),
        }
    }

    pub(crate) fn shape(&self, range: &Range<u32>) -> Shape {
        let (a, b) = (range.start, range.end);
        if b <= a {
            return Shape::Other;
        }
        if b - a == 1 {
            return match (self.kind(a), self.text_of(a)) {
                (Kind::Str, _) => Shape::Str(a),
                (Kind::Number, _) => Shape::Number,
                (Kind::Name, "True") => Shape::True,
                (Kind::Name, "False") => Shape::False,
                (Kind::Name, "None") => Shape::None,
                (Kind::Name, t) if !is_keyword(t) => Shape::Name,
                _ => Shape::Other,
            };
        }
        if (a..b).all(|i| self.kind(i) == Kind::Str) {
            return Shape::Strs;
        }
        let mut binary = None;
        let mut other_binary = false;
        for i in self.top_level(a..b) {
            let t = self.text_of(i);
            match self.kind(i) {
                Kind::Name if t.len() <= 6 && LOOSER.contains(&t) => return Shape::Other,
                Kind::Op if LOOSER_OPS.contains(&t) || t.ends_with('=') && t.len() <= 3 => {
                    return Shape::Other
                }
                Kind::Op if i > a && self.ends_operand(i - 1) => match t {
                    "+" | "-" => binary = Some(i),
                    "*" | "/" | "%" | "@" | "//" | "**" => other_binary = true,
                    _ => {}
                },
                _ => {}
            }
        }
        if let Some(op) = binary {
            return Shape::Binary {
                left: a..op,
                right: op + 1..b,
                plus: self.text_of(op) == "+",
            };
        }
        if other_binary {
            return Shape::Other;
        }
        if self.is_op(a, "*") || self.is_op(a, "**") {
            return Shape::Splat;
        }
        let last = b - 1;
        let open = self.partner[last as usize];
        match self.text_of(last) {
            ")" | "]" if self.kind(last) == Kind::Op && open != NONE && open >= a => {
                let inner = open + 1..last;
                let comprehension = self
                    .top_level(inner.clone())
                    .any(|i| self.is_keyword(i, "for") || self.is_keyword(i, "yield"));
                if open > a {
                    if self.text_of(last) == ")" {
                        return Shape::Call {
                            function: a..open,
                            arguments: inner,
                        };
                    }
                    return Shape::Other;
                }
                if comprehension {
                    return Shape::Other;
                }
                if self.text_of(last) == "]" {
                    return Shape::List(inner);
                }
                if inner.is_empty() || self.find_op(inner.clone(), ",").is_some() {
                    Shape::Tuple(inner)
                } else {
                    Shape::Paren(inner)
                }
            }
            _ if self.is_name(last) && last > a + 1 && self.is_op(last - 1, ".") => {
                Shape::Attribute {
                    object: a..last - 1,
                    name: last,
                }
            }
            _ => Shape::Other,
        }
    }
}

const LOW_SEVEN: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

const fn every_byte(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// The high bit of each byte of the word `x` the skim must look at: line ends, comments,
/// quotes, backslashes, brackets (`\n # " ' \\ ( ) [ ] { }`). Eight bytes at a time in plain
/// integer arithmetic on their low seven bits (no byte carries into the next); bytes from
/// 0x80 up are none of them.
fn skim_word(x: u64) -> u64 {
    let y = x & LOW_SEVEN;
    let equal = |c: u8| !((y ^ every_byte(c)) + LOW_SEVEN);
    let at_least = |c: u8| y + every_byte(0x80 - c);
    let line_end = equal(b'\n');
    let quote_or_hash = !(((y & every_byte(0x7e)) ^ every_byte(b'"')) + LOW_SEVEN);
    let quote_or_parens = at_least(b'\'') & !at_least(b')' + 1);
    let square_or_backslash = at_least(b'[') & !at_least(b']' + 1);
    let braces = equal(b'{') | equal(b'}');
    (line_end | quote_or_hash | quote_or_parens | square_or_backslash | braces) & !x & HIGH_BITS
}

/// [`skim_word`] of the eight bytes at `bytes[at..]` (none past the end).
fn skim_mask(bytes: &[u8], at: usize) -> u64 {
    let word = match bytes.get(at..at + 8) {
        Some(eight) => u64::from_le_bytes(eight.try_into().expect("8 bytes")),
        None => {
            let mut padded = [0u8; 8];
            let rest = &bytes[at.min(bytes.len())..];
            padded[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(padded)
        }
    };
    skim_word(word)
}

/// Where the top-level statements start: lines at column 0 outside brackets, strings and
/// line continuations (an `else:`/`elif`/`except`/`finally` line continues its statement).
/// A fast pass that only follows quotes, comments and brackets, eight bytes at a time: most
/// bytes are none of them.
pub(crate) fn top_level_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut depth = 0u32;
    // `mask` holds the bytes still to look at in `bytes[base..base + 8]`.
    let mut base = 0;
    let mut mask = skim_mask(bytes, 0);
    loop {
        if mask == 0 {
            base += 8;
            if base >= bytes.len() {
                break;
            }
            mask = skim_mask(bytes, base);
            continue;
        }
        let i = base + mask.trailing_zeros() as usize / 8;
        mask &= mask - 1;
        // Bytes that move the skim past others go on from there.
        let next = match bytes[i] {
            b'\n' => {
                let line = i + 1;
                if depth == 0 && line < bytes.len() && starts_statement(&bytes[line..]) {
                    starts.push(line);
                }
                continue;
            }
            b'#' => memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n),
            b'"' | b'\'' => literal_end(bytes, i),
            // A continuation: the next line goes on with this statement.
            b'\\' => i + 2,
            b'(' | b'[' | b'{' => {
                depth += 1;
                continue;
            }
            _ => {
                depth = depth.saturating_sub(1);
                continue;
            }
        };
        if next >= bytes.len() {
            break;
        }
        base = next;
        mask = skim_mask(bytes, next);
    }
    starts
}

fn starts_statement(line: &[u8]) -> bool {
    if matches!(line[0], b' ' | b'\t' | b'\r' | b'\n' | b'#' | b'\x0c') {
        return false;
    }
    !["else", "elif", "except", "finally"].iter().any(|k| {
        line.starts_with(k.as_bytes()) && !line.get(k.len()).is_some_and(|&b| is_name_continue(b))
    })
}

/// The byte ranges worth reading: everything but the top-level `def`s and `class`es (with
/// their decorators) that hold none of the `markers` (sorted byte offsets). Their names are
/// their own (a class body's are not seen from its methods): they cannot bind a name a call
/// elsewhere uses.
pub(crate) fn worth_reading(text: &str, markers: &[usize]) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let starts = top_level_starts(bytes);
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut k = 0;
    while k < starts.len() {
        let start = starts[k];
        // Decorators belong to the definition after them.
        let mut head = k;
        while bytes[starts[head]] == b'@' && head + 1 < starts.len() {
            head += 1;
        }
        let end = starts.get(head + 1).copied().unwrap_or(bytes.len());
        let line = &bytes[starts[head]..end];
        let definition = ["def", "async", "class"].iter().any(|w| {
            line.starts_with(w.as_bytes())
                && line.get(w.len()).is_some_and(|b| !is_name_continue(*b))
        });
        let first_marker = markers.partition_point(|&m| m < start);
        let holds_marker = markers.get(first_marker).is_some_and(|&m| m < end);
        if !definition || holds_marker {
            match ranges.last_mut() {
                Some(last) if last.end == start => last.end = end,
                _ => ranges.push(start..end),
            }
        }
        k = head + 1;
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The skim's bytes, one at a time: what `skim_word` must find eight at a time.
    fn skim_byte(b: u8) -> bool {
        b"\n#\"'\\()[]{}".contains(&b)
    }

    #[test]
    fn word_skim_marks_exactly_the_skim_bytes() {
        // Every byte value at every position of the word, among neighbours that are and are
        // not skim bytes (a wrong carry would mark or hide a neighbour).
        for b in 0..=255u8 {
            for at in 0..8 {
                for fill in [b'a', b'(', 0x80, 0xff, b'\n', 0] {
                    let mut word = [fill; 8];
                    word[at] = b;
                    let mask = skim_mask(&word, 0);
                    for (k, &w) in word.iter().enumerate() {
                        assert_eq!(
                            mask >> (8 * k + 7) & 1 == 1,
                            skim_byte(w),
                            "byte {w:#04x} at {k} in {word:?}"
                        );
                    }
                }
            }
        }
        // Past the end counts as nothing.
        assert_eq!(skim_mask(b"(#", 0), 0x8080);
        assert_eq!(skim_mask(b"(#", 2), 0);
    }

    /// `top_level_starts` one byte at a time.
    fn starts_byte_by_byte(bytes: &[u8]) -> Vec<usize> {
        let mut starts = vec![0];
        let mut depth = 0u32;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => {
                    i += 1;
                    if depth == 0 && i < bytes.len() && starts_statement(&bytes[i..]) {
                        starts.push(i);
                    }
                }
                b'#' => i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n),
                b'"' | b'\'' => i = literal_end_with(bytes, i, string_end_byte_by_byte),
                b'\\' => i += 2,
                b'(' | b'[' | b'{' => {
                    depth += 1;
                    i += 1;
                }
                b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    i += 1;
                }
                _ => i += 1,
            }
        }
        starts
    }

    fn string_end_byte_by_byte(bytes: &[u8], quote: usize) -> usize {
        let q = bytes[quote];
        let triple = bytes.get(quote + 1) == Some(&q) && bytes.get(quote + 2) == Some(&q);
        let mut i = quote + if triple { 3 } else { 1 };
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'\n' if !triple => return i,
                c if c == q => {
                    if !triple {
                        return i + 1;
                    }
                    if bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q) {
                        return i + 3;
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
        bytes.len()
    }

    /// PEP 701 (Python 3.12): quotes inside a replacement field open nested strings, and a
    /// comment in a multi-line field may hold the closing quotes; neither ends the f-string.
    #[test]
    fn f_strings_end_after_their_replacement_fields() {
        let cases: [(&str, &str); 9] = [
            ("f\"{x[\"a\"]}\" + 1", "f\"{x[\"a\"]}\""),
            (
                "f\"\"\"{\n  x  # a comment with \"\"\" in it\n}\"\"\" tail",
                "f\"\"\"{\n  x  # a comment with \"\"\" in it\n}\"\"\"",
            ),
            ("f'{{not a field}}' x", "f'{{not a field}}'"),
            ("f'{x:{width}.{p}}' x", "f'{x:{width}.{p}}'"),
            ("F'{f\"{y}\"}' x", "F'{f\"{y}\"}'"),
            ("rf'\\{x}' x", "rf'\\{x}'"),
            ("f'{d[\"}\"]}' x", "f'{d[\"}\"]}'"),
            ("f'unterminated\nx = 1", "f'unterminated"),
            ("t'{x!r}' x", "t'{x!r}'"),
        ];
        for (text, literal) in cases {
            let quote = text.find(['"', '\'']).unwrap();
            assert_eq!(
                &text[..literal_end(text.as_bytes(), quote)],
                literal,
                "{text:?}"
            );
        }
        // The tokens after such a string are read as code: the call after it is found.
        let text = "s = f\"\"\"{\n  x  # \"\"\"\n}\"\"\"\ncall(1)\n";
        let tokens = Tokens::new(text);
        assert!(
            (0..tokens.tokens.len() as u32).any(|t| tokens.text_of(t) == "call"),
            "the tokenizer lost its way"
        );
        assert_eq!(
            top_level_starts(text.as_bytes()),
            [0, text.find("call").unwrap()]
        );
    }

    #[test]
    fn skim_and_strings_agree_with_a_byte_by_byte_reading() {
        let pieces: [&[u8]; 24] = [
            b"x = 1\n",
            b"def f(a,\nb):\n",
            b"    return a\n",
            b"class C:\n",
            b"s = '''a\n'''\n",
            b"t = \"\"\"\ndef g(): pass\n\"\"\"\n",
            b"u = 'it\\'s'\n",
            b"v = \"open\n",
            b"w = [1,\n2]\n",
            b"# comment ( [ {\n",
            b"y = 1 + \\\n2\n",
            b"else:\n",
            b"  z = {'a': (1)}\n",
            b"\xc3\xa9 = '\xe2\x80\x9c'\n",
            b"r'\\'\n",
            b")\n",
            b"'''\n",
            b"\"\n",
            b"\\",
            b"x\t= (\n",
            b"@dec\n",
            b"f'{x}'\n",
            b"\n\n",
            b"]]}}\n",
        ];
        // Every short sequence of pieces, and some long ones: every byte at every alignment.
        let mut checked = 0;
        for a in 0..pieces.len() {
            for b in 0..pieces.len() {
                for c in [0, 5, 7, 16, 18] {
                    let text = [pieces[a], pieces[b], pieces[c], pieces[a]].concat();
                    for skip in 0..8.min(text.len()) {
                        let text = &text[skip..];
                        assert_eq!(
                            top_level_starts(text),
                            starts_byte_by_byte(text),
                            "{:?}",
                            String::from_utf8_lossy(text)
                        );
                        for (q, _) in text.iter().enumerate().filter(|(_, b)| b"\"'".contains(b)) {
                            assert_eq!(string_end(text, q), string_end_byte_by_byte(text, q));
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
