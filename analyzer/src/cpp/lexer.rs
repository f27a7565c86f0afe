//! A fast, tolerant C++ token scanner: one pass over the bytes, no allocation per token.
//!
//! It knows what the asm front end needs and nothing more: identifiers, numbers, string
//! and character literals (with prefixes and raw strings), punctuation, comments (skipped),
//! line splices (invisible, as in translation phase 2) and preprocessor directives (one
//! token each; their contents are lexed again on demand with [`lex_range`]).

use crate::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Ident,
    Number,
    /// A string literal, prefix and quotes included.
    Str,
    Char,
    Punct,
    /// A whole preprocessor directive line (`#` to the end of the logical line).
    Directive,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// A string, character literal or raw string that was never closed.
    pub unterminated: bool,
    /// The token may hold a line splice: its text needs [`token_text`] (else it is the
    /// source slice as is).
    pub spliced: bool,
}

impl Token {
    pub fn start(&self) -> usize {
        self.span.start as usize
    }
    pub fn end(&self) -> usize {
        self.span.end as usize
    }

    /// The token's text, splices removed: the source slice unless the token holds one.
    #[inline]
    pub fn text<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        if self.spliced {
            token_text(text, self.span)
        } else {
            std::borrow::Cow::Borrowed(&text[self.span.range()])
        }
    }
}

/// Byte classes for the hot loops: bit 0 starts an identifier, bit 1 continues one.
const IDENT_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let alpha = c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80;
        if alpha {
            table[b] = 3;
        } else if c.is_ascii_digit() {
            table[b] = 2;
        }
        b += 1;
    }
    table
};

#[inline(always)]
pub fn is_ident_start(b: u8) -> bool {
    IDENT_CLASS[b as usize] & 1 != 0
}

#[inline(always)]
pub fn is_ident_continue(b: u8) -> bool {
    IDENT_CLASS[b as usize] & 2 != 0
}

/// Length of a line splice (`\` newline, `\` CR LF) at `i`, or 0.
#[inline]
pub fn splice_len(bytes: &[u8], i: usize) -> usize {
    if bytes.get(i) != Some(&b'\\') {
        return 0;
    }
    // Trailing spaces between the backslash and the newline are accepted by GCC/nvcc.
    let mut j = i + 1;
    while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
        j += 1;
    }
    match bytes.get(j) {
        Some(b'\n') => j + 1 - i,
        Some(b'\r') if bytes.get(j + 1) == Some(&b'\n') => j + 2 - i,
        Some(b'\r') => j + 1 - i,
        _ => 0,
    }
}

/// The text of a token with line splices removed (borrowed when there are none).
pub fn token_text(text: &str, span: Span) -> std::borrow::Cow<'_, str> {
    let slice = &text[span.range()];
    // Short tokens (most of them) are cheaper to scan by hand than through memchr.
    let has_backslash = if slice.len() < 24 {
        slice.bytes().any(|b| b == b'\\')
    } else {
        memchr::memchr(b'\\', slice.as_bytes()).is_some()
    };
    if !has_backslash {
        return std::borrow::Cow::Borrowed(slice);
    }
    let bytes = slice.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let n = splice_len(bytes, i);
        if n > 0 {
            i += n;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    std::borrow::Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    end: usize,
    /// Line splices skipped so far: a token that saw one is marked `spliced`.
    splices: u32,
}

impl Cursor<'_> {
    /// Skips splices at the cursor; returns the byte there (if any).
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.pos).filter(|_| self.pos < self.end)?;
        if b != b'\\' {
            return Some(b);
        }
        self.peek_past_splices()
    }

    #[cold]
    fn peek_past_splices(&mut self) -> Option<u8> {
        loop {
            if self.pos >= self.end {
                return None;
            }
            let b = self.bytes[self.pos];
            if b == b'\\' {
                let n = splice_len(self.bytes, self.pos);
                if n > 0 && self.pos + n <= self.end {
                    self.pos += n;
                    self.splices += 1;
                    continue;
                }
            }
            return Some(b);
        }
    }

    /// The byte after the one at the cursor, looking through splices.
    fn peek2(&mut self) -> Option<u8> {
        self.peek()?;
        let mut j = self.pos + 1;
        loop {
            if j >= self.end {
                return None;
            }
            let n = splice_len(self.bytes, j);
            if n > 0 {
                j += n;
                continue;
            }
            return Some(self.bytes[j]);
        }
    }

    #[inline]
    fn bump(&mut self) {
        self.pos += 1;
    }
}

/// No opener stands behind the token ([`openers_behind`]).
pub const NO_OPENER: u32 = u32::MAX;

/// For each token index `p` (`0..=tokens.len()`), where a walk back from token `p - 1` stops:
/// the first `target` opener not closed before `p`, or [`NO_OPENER`]. The walk steps over
/// bracket groups (a closer pairs with the nearest unpaired opener before it, of any kind)
/// and past an unpaired opener of another kind. `bracket` says which bracket a token is
/// (`(`, `[`, `{`, `)`, `]`, `}`), if any. One forward pass: a walk per token was quadratic
/// in long lists and large files.
pub fn openers_behind(
    tokens: &[Token],
    target: u8,
    bracket: impl Fn(&Token) -> Option<u8>,
) -> Vec<u32> {
    let n = tokens.len();
    // `open[p]`: where the walk from `p - 1` stops at depth 0; `group[p]`: where it stops at
    // depth 1 (the opener a closer at `p - 1` pairs with, once past it).
    let mut open = vec![NO_OPENER; n + 1];
    let mut group = vec![NO_OPENER; n + 1];
    for p in 1..=n {
        let q = p - 1;
        match bracket(&tokens[q]) {
            Some(b @ (b'(' | b'[' | b'{')) => {
                group[p] = q as u32;
                open[p] = if b == target { q as u32 } else { open[q] };
            }
            Some(b')' | b']' | b'}') => {
                // Past the closer's group, then on from its opener.
                let paired = group[q];
                if paired != NO_OPENER {
                    open[p] = open[paired as usize];
                    group[p] = group[paired as usize];
                }
            }
            _ => {
                open[p] = open[q];
                group[p] = group[q];
            }
        }
    }
    open
}

/// Lexes `text[start..end]`. In `directive_body` mode `#` is punctuation, not a directive.
pub fn lex_range(text: &str, start: usize, end: usize, directive_body: bool) -> Vec<Token> {
    lex(text, start, end, directive_body, None)
}

/// Only the preprocessor directives of `text` (a `#` first on its line, to the end of the
/// logical line), found without lexing the rest: for reading a header's macros. Unlike
/// [`lex_range`] a `#` line inside a block comment or a raw string counts.
pub fn directives(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = memchr::memchr(b'#', &bytes[from..]) {
        let hash = from + found;
        let line_start = memchr::memrchr(b'\n', &bytes[..hash])
            .map_or_else(|| crate::source::bom_len(bytes), |i| i + 1);
        if bytes[line_start..hash]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t'))
        {
            let end = directive_end(bytes, hash, bytes.len());
            out.push(Token {
                kind: TokenKind::Directive,
                span: Span::new(hash, end),
                unterminated: false,
                spliced: memchr::memchr(b'\\', &bytes[hash..end]).is_some(),
            });
            from = end.max(hash + 1);
        } else {
            from = hash + 1;
        }
    }
    out
}

/// Like [`lex_range`], also returning the spans of the comments it skipped.
pub fn lex_with_comments(
    text: &str,
    start: usize,
    end: usize,
    directive_body: bool,
) -> (Vec<Token>, Vec<Span>) {
    let mut comments = Vec::new();
    let tokens = lex(text, start, end, directive_body, Some(&mut comments));
    (tokens, comments)
}

/// A file's tokens and the comments between them, as the editor path keeps them from one
/// edit to the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub comments: Vec<Span>,
}

impl Lexed {
    pub fn new(text: &str) -> Lexed {
        let (tokens, comments) = lex_with_comments(text, 0, text.len(), false);
        Lexed { tokens, comments }
    }

    /// The tokens of `text`, made by replacing `old[start..old_end]` with `text[start..new_end]`,
    /// lexing again only from the last line start before the edit to the first line start
    /// after it where the new tokens line up with the old ones (a comment or string opened by
    /// the edit extends the window). Equal to [`Lexed::new`] on the new text.
    pub fn edit(&self, text: &str, start: usize, old_end: usize, new_end: usize) -> Lexed {
        let bytes = text.as_bytes();
        let (start, new_end) = (start.min(bytes.len()), new_end.min(bytes.len()));
        let delta = new_end as i64 - old_end as i64;
        // Restart at a line start before the edit that the old lexing crossed in plain code.
        let mut restart = line_start_at_or_before(bytes, start);
        while !self.boundary(bytes, restart, 0) {
            restart = line_start_at_or_before(bytes, restart - 1);
        }
        // Stop at a line start after the edit's line, where the old lexing was in plain code
        // too and the new lexing ends the window cleanly; widen the window until it does.
        let mut stop = next_line_start(bytes, next_line_start(bytes, new_end));
        let window = loop {
            if stop >= bytes.len() {
                break None;
            }
            if self.boundary(bytes, stop, delta) {
                let (tokens, comments) = lex_with_comments(text, restart, stop, false);
                let clean = tokens.last().is_none_or(|t| t.end() < stop)
                    && comments.last().is_none_or(|c| (c.end as usize) < stop);
                if clean {
                    break Some((tokens, comments, stop));
                }
            }
            let target = stop + (stop - restart).max(256);
            stop = next_line_start(bytes, target.min(bytes.len()));
        };
        let before_tokens = self.tokens.partition_point(|t| t.start() < restart);
        let before_comments = self
            .comments
            .partition_point(|c| (c.start as usize) < restart);
        let mut tokens = self.tokens[..before_tokens].to_vec();
        let mut comments = self.comments[..before_comments].to_vec();
        match window {
            None => {
                let (t, c) = lex_with_comments(text, restart, bytes.len(), false);
                tokens.extend(t);
                comments.extend(c);
            }
            Some((t, c, stop)) => {
                tokens.extend(t);
                comments.extend(c);
                let old_stop = (stop as i64 - delta) as usize;
                let shift = |span: Span| {
                    Span::new(
                        (span.start as i64 + delta) as usize,
                        (span.end as i64 + delta) as usize,
                    )
                };
                let from = self.tokens.partition_point(|t| t.start() < old_stop);
                tokens.extend(self.tokens[from..].iter().map(|t| Token {
                    span: shift(t.span),
                    ..*t
                }));
                let from = self
                    .comments
                    .partition_point(|c| (c.start as usize) < old_stop);
                comments.extend(self.comments[from..].iter().map(|c| shift(*c)));
            }
        }
        Lexed { tokens, comments }
    }

    /// Whether the old lexing was in plain code at the line start `at` (new coordinates,
    /// `delta` from the old ones): after an unspliced newline no token or comment covered.
    fn boundary(&self, bytes: &[u8], at: usize, delta: i64) -> bool {
        if at == 0 {
            return true;
        }
        if bytes.get(at - 1) != Some(&b'\n') || ends_with_splice(bytes, at - 1) {
            return false;
        }
        let old = at as i64 - delta;
        if old <= 0 {
            return false;
        }
        let old = old as usize;
        // The last token and the last comment starting before the line must end before it.
        let t = self.tokens.partition_point(|t| t.start() < old);
        let c = self.comments.partition_point(|c| (c.start as usize) < old);
        let token_ends = t.checked_sub(1).map_or(0, |t| self.tokens[t].end());
        let comment_ends = c
            .checked_sub(1)
            .map_or(0, |c| self.comments[c].end as usize);
        token_ends < old && comment_ends < old
    }
}

/// The start of the line holding `at`.
fn line_start_at_or_before(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..at.min(bytes.len())]).map_or(0, |i| i + 1)
}

/// The start of the line after the one holding `at` (the end of the text on the last line).
fn next_line_start(bytes: &[u8], at: usize) -> usize {
    let at = at.min(bytes.len());
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1)
}

/// Whether the newline at `newline` ends a line splice (`\` and optional blanks before it).
fn ends_with_splice(bytes: &[u8], newline: usize) -> bool {
    let mut i = newline;
    if i > 0 && bytes[i - 1] == b'\r' {
        i -= 1;
    }
    while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    i > 0 && bytes[i - 1] == b'\\'
}

/// The end of the run of bytes from `from` that satisfy `class`.
#[inline(always)]
fn run_end(bytes: &[u8], from: usize, class: impl Fn(u8) -> bool) -> usize {
    let mut p = from;
    while let Some(&b) = bytes.get(p) {
        if !class(b) {
            break;
        }
        p += 1;
    }
    p
}

fn lex(
    text: &str,
    start: usize,
    end: usize,
    directive_body: bool,
    mut comments: Option<&mut Vec<Span>>,
) -> Vec<Token> {
    let bytes = text.as_bytes();
    // A byte order mark starting the file is not a token (it would join the first name).
    let skip_bom = if start == 0 {
        crate::source::bom_len(&bytes[..end])
    } else {
        0
    };
    let mut c = Cursor {
        bytes,
        pos: start + skip_bom,
        end,
        splices: 0,
    };
    let mut tokens = Vec::with_capacity((end - start) / 6);
    // True while only whitespace has been seen since the last newline.
    let mut line_start = true;
    while let Some(b) = c.peek() {
        let tok_start = c.pos;
        let splices_before = c.splices;
        let push = |tokens: &mut Vec<Token>, kind, start, end, unterminated, c: &Cursor| {
            tokens.push(Token {
                kind,
                span: Span::new(start, end),
                unterminated,
                spliced: c.splices != splices_before,
            });
        };
        // Identifiers first: the most common token.
        if is_ident_start(b) {
            loop {
                // Plain identifier bytes in a run (in locals, which the compiler keeps in
                // registers); `peek` only for what may be a splice.
                c.pos = run_end(&bytes[..c.end], c.pos, is_ident_continue);
                if !c.peek().is_some_and(is_ident_continue) {
                    break;
                }
            }
            // Encoding prefixes and raw strings: u8"..", L"..", R"(..)", u8R"x(..)x".
            let next = c.peek();
            let prefix_like = matches!(next, Some(b'"' | b'\'')) && c.pos - tok_start <= 3;
            let ident = if prefix_like {
                token_text(text, Span::new(tok_start, c.pos))
            } else {
                std::borrow::Cow::Borrowed("")
            };
            if next == Some(b'"') && is_string_prefix(&ident) {
                let unterminated = if ident.ends_with('R') {
                    let unterminated = lex_raw_string(&mut c);
                    // Splices are not skipped inside; the text may still hold one.
                    if memchr::memchr(b'\\', &bytes[tok_start..c.pos]).is_some() {
                        c.splices += 1;
                    }
                    unterminated
                } else {
                    lex_quoted(&mut c, b'"')
                };
                push(
                    &mut tokens,
                    TokenKind::Str,
                    tok_start,
                    c.pos,
                    unterminated,
                    &c,
                );
            } else if c.peek() == Some(b'\'') && is_char_prefix(&ident) {
                let unterminated = lex_quoted(&mut c, b'\'');
                push(
                    &mut tokens,
                    TokenKind::Char,
                    tok_start,
                    c.pos,
                    unterminated,
                    &c,
                );
            } else {
                push(&mut tokens, TokenKind::Ident, tok_start, c.pos, false, &c);
            }
            line_start = false;
            continue;
        }
        match b {
            b'\n' => {
                // A newline and the indentation after it, in one go.
                line_start = true;
                c.pos = run_end(&bytes[..c.end], c.pos + 1, |b| {
                    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
                });
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {
                c.pos = run_end(&bytes[..c.end], c.pos + 1, |b| {
                    matches!(b, b' ' | b'\t' | b'\r')
                });
            }
            b'/' if c.peek2() == Some(b'/') => {
                skip_line_comment(&mut c);
                if let Some(list) = comments.as_deref_mut() {
                    list.push(Span::new(tok_start, c.pos));
                }
            }
            b'/' if c.peek2() == Some(b'*') => {
                skip_block_comment(&mut c);
                if let Some(list) = comments.as_deref_mut() {
                    list.push(Span::new(tok_start, c.pos));
                }
            }
            b'#' if line_start && !directive_body => {
                let dir_end = directive_end(bytes, c.pos, end);
                tokens.push(Token {
                    kind: TokenKind::Directive,
                    span: Span::new(tok_start, dir_end),
                    unterminated: false,
                    // Directives are rare: a backslash may be a splice.
                    spliced: memchr::memchr(b'\\', &bytes[tok_start..dir_end]).is_some(),
                });
                c.pos = dir_end;
            }
            b'"' => {
                let unterminated = lex_quoted(&mut c, b'"');
                push(
                    &mut tokens,
                    TokenKind::Str,
                    tok_start,
                    c.pos,
                    unterminated,
                    &c,
                );
                line_start = false;
            }
            b'\'' => {
                let unterminated = lex_quoted(&mut c, b'\'');
                push(
                    &mut tokens,
                    TokenKind::Char,
                    tok_start,
                    c.pos,
                    unterminated,
                    &c,
                );
                line_start = false;
            }
            b'0'..=b'9' => {
                lex_number(&mut c);
                push(&mut tokens, TokenKind::Number, tok_start, c.pos, false, &c);
                line_start = false;
            }
            b'.' if c.peek2().is_some_and(|n| n.is_ascii_digit()) => {
                lex_number(&mut c);
                push(&mut tokens, TokenKind::Number, tok_start, c.pos, false, &c);
                line_start = false;
            }
            _ => {
                c.bump();
                // Two-character punctuators the front end cares about.
                let second = c.peek();
                let pair = matches!(
                    (b, second),
                    (b':', Some(b':')) | (b'-', Some(b'>')) | (b'#', Some(b'#'))
                );
                if pair {
                    c.bump();
                }
                push(&mut tokens, TokenKind::Punct, tok_start, c.pos, false, &c);
                line_start = false;
            }
        }
    }
    tokens
}

fn is_string_prefix(ident: &str) -> bool {
    matches!(
        ident,
        "u8" | "u" | "U" | "L" | "R" | "u8R" | "uR" | "UR" | "LR"
    )
}

fn is_char_prefix(ident: &str) -> bool {
    matches!(ident, "u8" | "u" | "U" | "L")
}

fn skip_line_comment(c: &mut Cursor) {
    // To the next newline that is not part of a splice (which continues the comment).
    let bytes = c.bytes;
    loop {
        let Some(k) = memchr::memchr(b'\n', &bytes[c.pos..c.end]) else {
            c.pos = c.end;
            return;
        };
        let newline = c.pos + k;
        if ends_with_splice(bytes, newline) && newline > c.pos {
            c.pos = newline + 1;
            continue;
        }
        c.pos = newline;
        return;
    }
}

fn skip_block_comment(c: &mut Cursor) {
    c.pos += 2;
    let rest = &c.bytes[c.pos..c.end];
    match memchr::memmem::find(rest, b"*/") {
        Some(i) => c.pos += i + 2,
        None => c.pos = c.end,
    }
}

/// A string or character literal from its opening quote; returns true when it is
/// unterminated (ends at a newline or the end).
fn lex_quoted(c: &mut Cursor, quote: u8) -> bool {
    c.bump(); // opening quote
    let bytes = c.bytes;
    loop {
        // Jump to the next byte that matters: a backslash, a newline or the quote.
        let Some(k) = memchr::memchr3(b'\\', b'\n', quote, &bytes[c.pos..c.end]) else {
            c.pos = c.end;
            return true;
        };
        c.pos += k;
        match bytes[c.pos] {
            b'\\' => {
                let splice = splice_len(bytes, c.pos);
                if splice > 0 && c.pos + splice <= c.end {
                    c.pos += splice;
                    c.splices += 1;
                    continue;
                }
                // An escape: the backslash and the next byte (through splices), unless a
                // newline ends the unterminated literal there.
                c.bump();
                if c.peek().is_some_and(|n| n != b'\n') {
                    c.bump();
                }
            }
            b'\n' => return true,
            _ => {
                c.bump();
                return false;
            }
        }
    }
}

/// Raw strings ignore splices and escapes inside: `R"delim( ... )delim"`.
fn lex_raw_string(c: &mut Cursor) -> bool {
    let bytes = c.bytes;
    let open = c.pos; // at the quote
    let mut i = open + 1;
    while i < c.end && i - open <= 17 && bytes[i] != b'(' {
        if matches!(bytes[i], b' ' | b')' | b'\\' | b'\n' | b'"') {
            c.pos = i;
            return true;
        }
        i += 1;
    }
    if i >= c.end || bytes[i] != b'(' {
        // A delimiter over 16 bytes stops anywhere, perhaps inside a character: the token
        // ends before that character (spans stay on character boundaries).
        let mut end = i.min(c.end);
        while end > open && end < bytes.len() && bytes[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        c.pos = end;
        return true;
    }
    let delim = &bytes[open + 1..i];
    let mut closing = Vec::with_capacity(delim.len() + 2);
    closing.push(b')');
    closing.extend_from_slice(delim);
    closing.push(b'"');
    match memchr::memmem::find(&bytes[i + 1..c.end], &closing) {
        Some(k) => {
            c.pos = i + 1 + k + closing.len();
            false
        }
        None => {
            c.pos = c.end;
            true
        }
    }
}

fn lex_number(c: &mut Cursor) {
    // pp-number: digits, letters, dots, ', and exponent signs.
    let mut prev = 0u8;
    while let Some(b) = c.peek() {
        let sign_after_exponent =
            (b == b'+' || b == b'-') && matches!(prev, b'e' | b'E' | b'p' | b'P');
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'\'' || sign_after_exponent
        {
            prev = b;
            c.bump();
        } else {
            break;
        }
    }
}

/// End of the preprocessor directive starting at `start` (exclusive; before the newline).
pub fn directive_end(bytes: &[u8], start: usize, end: usize) -> usize {
    let mut i = start;
    while i < end {
        match bytes[i] {
            b'\n' => return i,
            b'\\' => {
                let n = splice_len(bytes, i);
                i += n.max(1);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // A block comment may run over lines without ending the directive.
                match memchr::memmem::find(&bytes[i + 2..end], b"*/") {
                    Some(k) => i += 2 + k + 2,
                    None => return end,
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                // Runs to the end of the logical line.
                i += 2;
                while i < end && bytes[i] != b'\n' {
                    i += splice_len(bytes, i).max(1);
                }
                return i.min(end);
            }
            b'"' | b'\'' => {
                let quote = bytes[i];
                i += 1;
                while i < end && bytes[i] != quote && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += splice_len(bytes, i).max(2);
                    } else {
                        i += 1;
                    }
                }
                if i < end && bytes[i] == quote {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    end
}

#[cfg(test)]
mod tests {
    #[test]
    fn directives_alone_match_the_lexer_outside_comments() {
        let text = "#pragma once\n  #  define A 1 \\\n  + 2\nint x = a # b;\n#if A\n# include \"x.h\"\n#endif\n#";
        let lexed: Vec<Span> = lex_range(text, 0, text.len(), false)
            .into_iter()
            .filter(|t| t.kind == TokenKind::Directive)
            .map(|t| t.span)
            .collect();
        let alone: Vec<Span> = directives(text).into_iter().map(|t| t.span).collect();
        assert_eq!(alone, lexed);
        assert_eq!(alone.len(), 6);
    }

    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, String)> {
        lex_range(src, 0, src.len(), false)
            .iter()
            .map(|t| (t.kind, src[t.span.range()].to_string()))
            .collect()
    }

    #[test]
    fn strings_prefixes_and_raw() {
        let toks = kinds(r#"asm(u8"a" R"x(q)"z)x" L"b");"#);
        let strs: Vec<_> = toks
            .iter()
            .filter(|(k, _)| *k == TokenKind::Str)
            .map(|(_, s)| s.as_str())
            .collect();
        assert_eq!(strs, vec![r#"u8"a""#, r#"R"x(q)"z)x""#, r#"L"b""#]);
    }

    #[test]
    fn directives_span_continuations_and_comments() {
        let src = "#define X \\\n  asm(\"a\")\nint y; // c\n/* d */ #x";
        let toks = kinds(src);
        assert_eq!(
            toks[0],
            (TokenKind::Directive, "#define X \\\n  asm(\"a\")".into())
        );
        assert_eq!(toks[1].1, "int");
        // A comment is whitespace: `#` after it still starts a directive.
        assert_eq!(
            toks.last().unwrap(),
            &(TokenKind::Directive, "#x".to_string())
        );
        let toks = kinds("a #x");
        assert_eq!(toks[1], (TokenKind::Punct, "#".to_string()));
    }

    #[test]
    fn splices_are_invisible_in_identifiers() {
        let src = "as\\\nm volatile";
        let toks = lex_range(src, 0, src.len(), false);
        assert_eq!(token_text(src, toks[0].span), "asm");
        assert_eq!(toks.len(), 2);
    }

    #[test]
    fn unterminated_inputs_do_not_panic() {
        for src in [
            "\"abc",
            "R\"x(abc",
            "/* abc",
            "'a",
            "#define X \\",
            "\\",
            "u8",
        ] {
            let _ = lex_range(src, 0, src.len(), false);
        }
        let toks = lex_range("\"abc\nx", 0, 6, false);
        assert!(toks[0].unterminated);
    }
}
