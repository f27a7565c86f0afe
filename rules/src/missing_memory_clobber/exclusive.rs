//! Code that never runs on the same path as a given point of a function: the other branches of
//! the `if`/`else` chains around it, and sibling `if (role == 2) { }` blocks when the point sits
//! in `if (role == 1) { }` and nothing assigns `role` in between (warp-specialised kernels
//! dispatch on a warp's role this way). A memory access there cannot be reordered with an asm
//! at that point in any execution, so it is not "beside" the asm.

use super::enclosing_open_brace;
use std::ops::Range;

/// Byte ranges of `source`, inside `body`, that no execution through `at` also runs.
pub(super) fn exclusive_ranges(source: &str, body: Range<usize>, at: usize) -> Vec<Range<usize>> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    // `(name, value)` of the `name == value` conjuncts of the enclosing `if`s taken.
    let mut roles: Vec<(String, u128, Range<usize>)> = Vec::new();
    let mut pos = at;
    for _ in 0..64 {
        let Some(open) = enclosing_open_brace(bytes, pos) else {
            break;
        };
        if open < body.start {
            break;
        }
        let Some(close) = matching_close(bytes, open) else {
            break;
        };
        if close >= body.end {
            break;
        }
        match branch_head(source, open) {
            Some(Head::If { condition, keyword }) => {
                if let Some(rest) = else_chain(source, close) {
                    out.push(rest);
                }
                // `else if (...) {`: the branches before it too.
                let (else_at, word) = last_word(trim_blank_end(&source[..keyword]));
                if word == "else" {
                    if let Some(before) = earlier_branches(source, else_at, body.start) {
                        out.push(before);
                    }
                }
                for (name, value) in equalities(condition) {
                    roles.push((name.to_string(), value, keyword..close + 1));
                }
            }
            Some(Head::Else { keyword }) => {
                if let Some(before) = earlier_branches(source, keyword, body.start) {
                    out.push(before);
                }
            }
            None => {}
        }
        pos = open;
    }
    // The function's `if`s, read once for every role.
    let ifs = if roles.is_empty() {
        Vec::new()
    } else {
        if_statements(source, body.clone())
    };
    for (name, value, own) in &roles {
        for (condition, keyword, then_block) in ifs.iter().cloned() {
            if then_block.contains(&at) || keyword == own.start {
                continue;
            }
            let other_value = equalities(condition)
                .into_iter()
                .any(|(n, v)| n == name && v != *value);
            if !other_value {
                continue;
            }
            let span = own.start.min(keyword)..own.end.max(then_block.end);
            if !assigned(source, span, name) {
                out.push(then_block);
            }
        }
    }
    out.sort_by_key(|r| r.start);
    out
}

enum Head<'a> {
    /// `if (condition) {` (or `if constexpr`), the `if` at `keyword`.
    If { condition: &'a str, keyword: usize },
    /// `else {`, the `else` at `keyword`.
    Else { keyword: usize },
}

/// What opens the block whose `{` is at `open`.
fn branch_head(source: &str, open: usize) -> Option<Head<'_>> {
    let head = trim_blank_end(&source[..open]);
    if let Some(before) = head.strip_suffix(')') {
        // The `)` is at `before.len()`.
        let paren = matching_backward(source.as_bytes(), before.len(), b'(', b')')?;
        let word_text = before[..paren].trim_end();
        let (word_start, word) = last_word(word_text);
        let (keyword, is_if) = match word {
            "if" => (word_start, true),
            "constexpr" => {
                let (s, w) = last_word(word_text[..word_start].trim_end());
                (s, w == "if")
            }
            _ => (0, false),
        };
        return is_if.then(|| Head::If {
            condition: &before[paren + 1..],
            keyword,
        });
    }
    let (start, word) = last_word(head);
    (word == "else").then_some(Head::Else { keyword: start })
}

/// The `else ...` chain after the `}` at `close`, to the end of its last branch (braced
/// branches only).
fn else_chain(source: &str, close: usize) -> Option<Range<usize>> {
    let bytes = source.as_bytes();
    let start = skip_space(source, close + 1);
    if !starts_with_word(&source[start..], "else") {
        return None;
    }
    let mut at = skip_space(source, start + 4);
    if starts_with_word(&source[at..], "if") {
        at = skip_space(source, at + 2);
        if starts_with_word(&source[at..], "constexpr") {
            at = skip_space(source, at + 9);
        }
        if bytes.get(at) != Some(&b'(') {
            return None;
        }
        at = skip_space(source, matching_close_paren(bytes, at)? + 1);
        if bytes.get(at) != Some(&b'{') {
            return None;
        }
        let end = matching_close(bytes, at)?;
        let tail = else_chain(source, end).map_or(end + 1, |r| r.end);
        return Some(start..tail);
    }
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    Some(start..matching_close(bytes, at)? + 1)
}

/// The branches of the chain before the `else` at `keyword`: back from it over `{ }` blocks and
/// their `if (...)` / `else if (...)` heads, not before `floor`.
fn earlier_branches(source: &str, keyword: usize, floor: usize) -> Option<Range<usize>> {
    let bytes = source.as_bytes();
    let mut start = None;
    let mut at = keyword;
    for _ in 0..64 {
        let before = trim_blank_end(&source[..at]);
        if !before.ends_with('}') {
            break;
        }
        let open = matching_open(bytes, before.len() - 1)?;
        let Some(Head::If { keyword: if_at, .. }) = branch_head(source, open) else {
            break;
        };
        if if_at < floor {
            break;
        }
        start = Some(if_at);
        // `else if (...) {`: the chain goes on before that `else`.
        let (else_at, word) = last_word(trim_blank_end(&source[..if_at]));
        if word != "else" {
            break;
        }
        at = else_at;
    }
    start.map(|s| s..keyword)
}

/// Every braced `if (condition) { }` in `body`: its condition, where its `if` is, and its
/// then-block (from `{` to after `}`).
fn if_statements(source: &str, body: Range<usize>) -> Vec<(&str, usize, Range<usize>)> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let text = &source[body.clone()];
    for (offset, _) in text.match_indices("if") {
        let keyword = body.start + offset;
        let before_ok = keyword == 0 || !is_ident(bytes[keyword - 1]);
        if !before_ok || bytes.get(keyword + 2).is_some_and(|&b| is_ident(b)) {
            continue;
        }
        let mut at = skip_space(source, keyword + 2);
        if starts_with_word(&source[at..], "constexpr") {
            at = skip_space(source, at + 9);
        }
        if bytes.get(at) != Some(&b'(') {
            continue;
        }
        let Some(close_paren) = matching_close_paren(bytes, at) else {
            continue;
        };
        let open = skip_space(source, close_paren + 1);
        if bytes.get(open) != Some(&b'{') {
            continue;
        }
        let Some(close) = matching_close(bytes, open) else {
            continue;
        };
        if close < body.end {
            out.push((&source[at + 1..close_paren], keyword, open..close + 1));
        }
    }
    out
}

/// The `name == value` conjuncts of a condition (`warp == 1 && lane < 16`), the value an
/// integer literal; none when the condition has a top-level `||` or `?`.
fn equalities(condition: &str) -> Vec<(&str, u128)> {
    let condition = strip_parens(condition.trim());
    if top_level_has(condition, &["||", "?"]) {
        return Vec::new();
    }
    split_top_level(condition, "&&")
        .into_iter()
        .filter_map(|conjunct| {
            let conjunct = strip_parens(conjunct.trim());
            let (left, right) = conjunct.split_once("==")?;
            let (left, right) = (left.trim(), right.trim());
            if right.starts_with('=') || left.ends_with(['!', '<', '>', '=']) {
                return None;
            }
            let is_name = |s: &str| {
                !s.is_empty()
                    && !s.as_bytes()[0].is_ascii_digit()
                    && s.bytes().all(|b| is_ident(b) || b == b'.')
            };
            if is_name(left) {
                Some((left, integer_literal(right)?))
            } else if is_name(right) {
                Some((right, integer_literal(left)?))
            } else {
                None
            }
        })
        .collect()
}

/// The value of a decimal, hex, octal or binary integer literal (`1`, `0x10u`, `2UL`).
fn integer_literal(text: &str) -> Option<u128> {
    let digits = text
        .trim_end_matches(['u', 'U', 'l', 'L'])
        .replace('\'', "");
    let (radix, digits) = if let Some(hex) = digits.strip_prefix("0x").or(digits.strip_prefix("0X"))
    {
        (16, hex)
    } else if let Some(bin) = digits.strip_prefix("0b").or(digits.strip_prefix("0B")) {
        (2, bin)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits.as_str())
    };
    u128::from_str_radix(digits, radix).ok()
}

/// Whether `name` may change within `span`: assigned, incremented, or its address taken.
fn assigned(source: &str, span: Range<usize>, name: &str) -> bool {
    let text = &source[span.start..span.end.min(source.len())];
    let bytes = text.as_bytes();
    text.match_indices(name).any(|(i, _)| {
        let end = i + name.len();
        if (i > 0 && (is_ident(bytes[i - 1]) || bytes[i - 1] == b'.'))
            || bytes.get(end).is_some_and(|&b| is_ident(b))
        {
            return false;
        }
        let after = text[end..].trim_start();
        let before = text[..i].trim_end();
        (after.starts_with('=') && !after.starts_with("=="))
            || [
                "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=", "++", "--",
            ]
            .iter()
            .any(|op| after.starts_with(op))
            || before.ends_with("++")
            || before.ends_with("--")
            || (before.ends_with('&') && !before.ends_with("&&"))
    })
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn starts_with_word(text: &str, word: &str) -> bool {
    text.starts_with(word)
        && !text
            .as_bytes()
            .get(word.len())
            .is_some_and(|&b| is_ident(b))
}

/// Past blanks and comments from `from` (`} // the other role` + newline + `else {`).
fn skip_space(source: &str, from: usize) -> usize {
    let mut at = from.min(source.len());
    loop {
        let rest = &source[at..];
        at += rest.len() - rest.trim_start().len();
        let rest = &source[at..];
        if rest.starts_with("//") {
            at = rest.find('\n').map_or(source.len(), |n| at + n);
        } else if rest.starts_with("/*") {
            at = rest.find("*/").map_or(source.len(), |n| at + n + 2);
        } else {
            return at;
        }
    }
}

/// `text` without the blanks and comments that end it: the code before a point.
fn trim_blank_end(text: &str) -> &str {
    let mut text = text.trim_end();
    loop {
        if text.ends_with("*/") {
            match text[..text.len() - 2].rfind("/*") {
                Some(open) => text = text[..open].trim_end(),
                None => return text,
            }
            continue;
        }
        // A `//` comment on the last line (a `//` in a string there is taken for one: the
        // point is then not seen as after a branch, which keeps the finding).
        let line_start = text.rfind('\n').map_or(0, |n| n + 1);
        match text[line_start..].find("//") {
            Some(k) => text = text[..line_start + k].trim_end(),
            None => return text,
        }
    }
}

/// The last identifier of `text` and where it starts.
fn last_word(text: &str) -> (usize, &str) {
    let start = text
        .bytes()
        .rposition(|b| !is_ident(b))
        .map_or(0, |i| i + 1);
    (start, &text[start..])
}

fn strip_parens(mut text: &str) -> &str {
    while text.starts_with('(') && matching_close_paren(text.as_bytes(), 0) == Some(text.len() - 1)
    {
        text = text[1..text.len() - 1].trim();
    }
    text
}

fn top_level_has(text: &str, needles: &[&str]) -> bool {
    let mut depth = 0i32;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ if depth == 0
                && needles
                    .iter()
                    .any(|n| text.as_bytes()[i..].starts_with(n.as_bytes())) =>
            {
                return true
            }
            _ => {}
        }
    }
    false
}

fn split_top_level<'a>(text: &'a str, separator: &str) -> Vec<&'a str> {
    let mut parts = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ if depth == 0 && bytes[i..].starts_with(separator.as_bytes()) => {
                parts.push(&text[from..i]);
                i += separator.len();
                from = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&text[from..]);
    parts
}

fn matching_close(bytes: &[u8], open: usize) -> Option<usize> {
    matching_forward(bytes, open, b'{', b'}')
}

fn matching_close_paren(bytes: &[u8], open: usize) -> Option<usize> {
    matching_forward(bytes, open, b'(', b')')
}

fn matching_forward(bytes: &[u8], open: usize, up: u8, down: u8) -> Option<usize> {
    let mut depth = 0i32;
    let from = open.min(bytes.len());
    for i in memchr::memchr2_iter(up, down, &bytes[from..]) {
        let (i, b) = (from + i, bytes[from + i]);
        if b == up {
            depth += 1;
        } else if b == down {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The `{` matching the `}` at `close`.
fn matching_open(bytes: &[u8], close: usize) -> Option<usize> {
    matching_backward(bytes, close, b'{', b'}')
}

fn matching_backward(bytes: &[u8], close: usize, up: u8, down: u8) -> Option<usize> {
    let mut depth = 0i32;
    let within = bytes.get(..=close)?;
    memchr::memrchr2_iter(up, down, within).find(|&i| {
        if bytes[i] == down {
            depth += 1;
        } else if bytes[i] == up {
            depth -= 1;
        }
        depth == 0 && bytes[i] == up
    })
}

/// Where the innermost loop around `at` (inside `body`) ends, when it is one whose end the
/// compiler cannot foresee: `while (...)`, `do { } while (...);` or `for (...; ; ...)`, with
/// `at` in its body or its condition (a spin on what the asm reads). A store after such a
/// loop cannot be moved above it: the loop has side effects (volatile asm), so the compiler
/// may not assume it ends, and a store it hoisted would run on a path that never gets there.
/// `None` for a counted `for` or no loop.
pub(super) fn spin_loop_end(source: &str, body: Range<usize>, at: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    // In a loop's head: `while (ld_acquire(flag) == 0);`.
    if let Some(open) = unmatched_paren_before(bytes, at, body.start) {
        let (word_at, word) = last_word(trim_blank_end(&source[..open]));
        match word {
            "while" => return while_end(source, word_at, open),
            "for" => {
                let close = matching_close_paren(bytes, open)?;
                return endless_for(&source[open + 1..close])
                    .then(|| statement_end(source, close + 1))
                    .flatten();
            }
            _ => {}
        }
    }
    let mut pos = at;
    for _ in 0..64 {
        let open = enclosing_open_brace(bytes, pos)?;
        if open < body.start {
            return None;
        }
        let close = matching_close(bytes, open)?;
        let head = trim_blank_end(&source[..open]);
        if last_word(head).1 == "do" {
            return do_while_end(source, close);
        }
        if let Some(before) = head.strip_suffix(')') {
            let paren = matching_backward(bytes, before.len(), b'(', b')')?;
            match last_word(trim_blank_end(&source[..paren])).1 {
                "while" => return Some(close + 1),
                "for" => return endless_for(&source[paren + 1..before.len()]).then_some(close + 1),
                _ => {}
            }
        }
        pos = open;
    }
    None
}

/// The `(` left open before `at` in its statement (not before `floor`).
fn unmatched_paren_before(bytes: &[u8], at: usize, floor: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut k = at.min(bytes.len());
    while k > floor {
        k -= 1;
        match bytes[k] {
            b')' => depth += 1,
            b'(' if depth == 0 => return Some(k),
            b'(' => depth -= 1,
            b';' | b'{' | b'}' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// A `for` header with no condition: `;;`, `int i = 0; ; ++i`.
fn endless_for(header: &str) -> bool {
    let mut parts = header.split(';');
    parts.next();
    parts.next().is_some_and(|c| c.trim().is_empty())
}

/// Where the loop whose `while` is at `word_at` (its `(` at `open`) ends: after the `;` of a
/// `do { } while (...);`, else after its body.
fn while_end(source: &str, word_at: usize, open: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let close = matching_close_paren(bytes, open)?;
    let before = trim_blank_end(&source[..word_at]);
    if before.ends_with('}') {
        let block = matching_open(bytes, before.len() - 1)?;
        if last_word(trim_blank_end(&source[..block])).1 == "do" {
            return statement_end(source, close + 1);
        }
    }
    let after = skip_space(source, close + 1);
    if bytes.get(after) == Some(&b'{') {
        return matching_close(bytes, after).map(|c| c + 1);
    }
    statement_end(source, after)
}

/// After the `}` of a `do` block at `close`: the end of its `while (...);`.
fn do_while_end(source: &str, close: usize) -> Option<usize> {
    let at = skip_space(source, close + 1);
    starts_with_word(&source[at..], "while").then_some(())?;
    let open = skip_space(source, at + "while".len());
    let paren_close = matching_close_paren(source.as_bytes(), open)?;
    statement_end(source, paren_close + 1)
}

/// After the `;` that ends the statement going on at `from`.
fn statement_end(source: &str, from: usize) -> Option<usize> {
    source[from.min(source.len())..]
        .find(';')
        .map(|n| from + n + 1)
}

/// Whether the `{` at `open` starts a lambda's body (`[&](int i) {`, `[=] {`): code that runs
/// where the lambda is called, not where it is written.
pub(super) fn is_lambda_body(source: &str, open: usize) -> bool {
    let mut head = trim_blank_end(&source[..open]);
    if last_word(head).1 == "mutable" {
        head = trim_blank_end(&head[..last_word(head).0]);
    }
    if let Some(before) = head.strip_suffix(')') {
        // A lambda's parameters are short: looked for at most 1 KB back.
        let floor = before.len().saturating_sub(1024);
        let bytes = &source.as_bytes()[floor..=before.len()];
        match matching_backward(bytes, before.len() - floor, b'(', b')') {
            Some(paren) => head = trim_blank_end(&source[..floor + paren]),
            None => return false,
        }
    }
    head.ends_with(']')
}

/// Whether the block `open..=close` ends with an unconditional `return`: code in it never
/// goes on to what follows the block.
pub(super) fn block_returns(source: &str, open: usize, close: usize) -> bool {
    let inner = trim_blank_end(&source[open + 1..close]);
    let Some(body) = inner.strip_suffix(';') else {
        return false;
    };
    let last = body
        .rfind([';', '{', '}'])
        .map_or(body, |k| &body[k + 1..])
        .trim_start();
    starts_with_word(skip_comments(last), "return")
}

/// `text` past the comments and blanks that start it.
fn skip_comments(text: &str) -> &str {
    &text[skip_space(text, 0)..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn excluded(source: &str, marker: &str) -> Vec<String> {
        let at = source.find(marker).unwrap();
        let body = source.find('{').unwrap() + 1..source.rfind('}').unwrap();
        exclusive_ranges(source, body, at)
            .into_iter()
            .map(|r| source[r].split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }

    #[test]
    fn sibling_role_blocks_with_another_value_are_exclusive() {
        let src = "void k() { int w = threadIdx.x / 32;\n if (w == 0) { A; }\n if (w == 1 && lane < 16) { HERE; }\n if (w == 2) { s[0] = 1; }\n if (lane == 2) { t[0] = 1; }\n s[1] = 2; }";
        assert_eq!(excluded(src, "HERE"), ["{ A; }", "{ s[0] = 1; }"]);
    }

    #[test]
    fn a_role_assigned_between_is_not_exclusive() {
        let src =
            "void k() { int w = 0;\n if (w == 1) { HERE; w = 2; }\n if (w == 2) { s[0] = 1; } }";
        assert!(excluded(src, "HERE").is_empty());
        let src = "void k() { int w = 0;\n if (w == 1) { HERE; }\n bump(&w);\n if (w == 2) { s[0] = 1; } }";
        assert!(excluded(src, "HERE").is_empty());
    }

    #[test]
    fn other_branches_of_the_chain_are_exclusive() {
        let src =
            "void k() { if (a) { x[0] = 1; } else if (b) { HERE; } else { y[0] = 1; } z[0] = 1; }";
        assert_eq!(
            excluded(src, "HERE"),
            ["if (a) { x[0] = 1; }", "else { y[0] = 1; }"]
        );
        let src = "void k() { if (a) { HERE; } else { y[0] = 1; } z[0] = 1; }";
        assert_eq!(excluded(src, "HERE"), ["else { y[0] = 1; }"]);
    }

    /// Found by the fuzzer: a condition with a multi-byte character was sliced inside it.
    #[test]
    fn conditions_with_multibyte_characters_are_read_whole() {
        let src = "void k() { if (w == 1 && é == 2) { HERE; }\n if (w == 2 || thréadIdx.x == é0) { s[0] = 1; }\n if (w == 3) { t[0] = 1; } }";
        assert_eq!(excluded(src, "HERE"), ["{ t[0] = 1; }"]);
    }

    #[test]
    fn disjunctions_and_inequalities_give_no_role() {
        let src = "void k() { if (w == 1 || v) { HERE; }\n if (w == 2) { s[0] = 1; } }";
        assert!(excluded(src, "HERE").is_empty());
        let src = "void k() { if (w != 1) { HERE; }\n if (w == 2) { s[0] = 1; } }";
        assert!(excluded(src, "HERE").is_empty());
        let src = "void k() { if (w == 1) { HERE; }\n if (w == 0x1u) { s[0] = 1; } }";
        assert!(excluded(src, "HERE").is_empty());
        let src = "void k() { if (w == 1) { HERE; }\n if (w == N) { s[0] = 1; } }";
        assert!(excluded(src, "HERE").is_empty());
    }

    #[test]
    fn spin_loops_are_while_do_and_endless_for_not_counted_for() {
        fn end_of(src: &str) -> Option<&str> {
            let at = src.find("HERE").unwrap();
            spin_loop_end(src, 0..src.len(), at).map(|e| &src[e..])
        }
        assert_eq!(end_of("while (1) { HERE; } after;"), Some(" after;"));
        assert_eq!(
            end_of("do { HERE; } while (x == 0); after;"),
            Some(" after;")
        );
        assert_eq!(
            end_of("do { v = f(); } while (HERE == 0); after;"),
            Some(" after;")
        );
        assert_eq!(end_of("while (HERE == 0); after;"), Some(" after;"));
        assert_eq!(
            end_of("for (;;) { if (HERE) break; } after;"),
            Some(" after;")
        );
        assert_eq!(end_of("for (int i = 0; i < n; ++i) { HERE; } after;"), None);
        assert_eq!(end_of("if (x) { HERE; } after;"), None);
    }

    #[test]
    fn lambda_bodies_and_returning_blocks_are_told_apart() {
        let open = |src: &str| src.find('{').unwrap();
        for lambda in [
            "auto f = [&](int i) { x; };",
            "auto f = [=] { x; };",
            "auto f = [&]() mutable { x; };",
        ] {
            assert!(is_lambda_body(lambda, open(lambda)), "{lambda}");
        }
        for block in ["if (x) { y; }", "int a[2] = { 1, 2 };", "void f() { y; }"] {
            assert!(!is_lambda_body(block, open(block)), "{block}");
        }
        let returns = |src: &str| block_returns(src, open(src), src.rfind('}').unwrap());
        assert!(returns("if (r) { lock[0] = 0; return; }"));
        assert!(returns("if (r) { lock[0] = 0; return x + 1; // done\n }"));
        assert!(!returns("if (r) { lock[0] = 0; if (y) return; }"));
        assert!(!returns("if (r) { lock[0] = 0; }"));
    }
}
