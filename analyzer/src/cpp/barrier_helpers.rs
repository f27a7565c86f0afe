//! Functions that are compiler barriers: a body that runs an asm with a `"memory"` clobber, or
//! `__syncthreads()`/`__syncwarp()`/`__threadfence*()`, on every path (`__device__ void
//! warpgroup_arrive() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }`). Inlined,
//! a call of one orders the caller's memory accesses as the barrier does. Read from headers a
//! file includes, so a rule can see a barrier a header's helper hides.

use super::lexer::{lex_range, Token, TokenKind};
use crate::source::SourceFile;

/// The names (last `::` segment) of the functions of `file` that run a compiler barrier on
/// every path, in file order, each once.
pub fn barrier_helpers(file: &SourceFile) -> Vec<String> {
    let text = &file.text;
    let tokens = lex_range(text, 0, text.len(), false);
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        let name = name.rsplit("::").next().unwrap_or(name);
        if !name.is_empty() && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    };
    // Asm statements with a `"memory"` clobber, found on the tokens alone (a header is not
    // analysed: only which of its functions are barriers matters): `asm`, its qualifiers,
    // `(`, and a `"memory"` string after a `:` inside the parentheses.
    let word = |i: usize| &text[tokens[i].span.range()];
    for k in 0..tokens.len() {
        if tokens[k].kind != TokenKind::Ident || !matches!(word(k), "asm" | "__asm__" | "__asm") {
            continue;
        }
        let mut open = k + 1;
        while open < tokens.len()
            && tokens[open].kind == TokenKind::Ident
            && matches!(
                word(open),
                "volatile" | "__volatile__" | "__volatile" | "inline" | "goto"
            )
        {
            open += 1;
        }
        if open >= tokens.len() || word(open) != "(" {
            continue;
        }
        let mut depth = 0i32;
        let mut after_colon = false;
        let mut memory = false;
        for i in open..tokens.len() {
            match word(i) {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                ":" | "::" if depth == 1 => after_colon = true,
                "\"memory\"" if depth == 1 && after_colon => memory = true,
                ";" | "{" | "}" => break,
                _ => {}
            }
        }
        if !memory {
            continue;
        }
        if let Some((name, body)) = enclosing_function(text, &tokens, k) {
            if runs_on_every_path(text, &tokens, body, tokens[k].start()) {
                add(name);
            }
        }
    }
    // Wrappers of the CUDA barrier calls: the function around each, by brace matching.
    for (k, t) in tokens.iter().enumerate() {
        let word = &text[t.span.range()];
        if t.kind != TokenKind::Ident
            || !matches!(
                word,
                "__syncthreads" | "__syncwarp" | "__threadfence" | "__threadfence_block"
            )
            || tokens.get(k + 1).map(|n| &text[n.span.range()]) != Some("(")
        {
            continue;
        }
        if let Some((name, body)) = enclosing_function(text, &tokens, k) {
            if runs_on_every_path(text, &tokens, body, t.start()) {
                add(name);
            }
        }
    }
    names
}

/// The function whose body holds token `k`: the outermost `{` around it that follows a
/// parameter list's `)` (qualifiers between allowed), with its name.
fn enclosing_function<'t>(
    text: &'t str,
    tokens: &[Token],
    k: usize,
) -> Option<(&'t str, std::ops::Range<usize>)> {
    let word = |i: usize| &text[tokens[i].span.range()];
    let mut depth = 0i32;
    let mut found = None;
    let mut in_class = false;
    for i in (0..k).rev() {
        match word(i) {
            "}" => depth += 1,
            "{" if depth > 0 => depth -= 1,
            "{" => {
                // A class body around it: a method, not a free function.
                let head_start = (0..i)
                    .rev()
                    .find(|&j| matches!(word(j), ";" | "{" | "}"))
                    .map_or(0, |j| j + 1);
                in_class |=
                    (head_start..i).any(|j| matches!(word(j), "class" | "struct" | "union"));
                // Back over qualifiers (`const`, `noexcept`) to a `)`.
                let mut j = i;
                while j > 0 && tokens[j - 1].kind == TokenKind::Ident {
                    j -= 1;
                }
                if j == 0 || word(j - 1) != ")" {
                    continue;
                }
                let mut parens = 0i32;
                let open = (0..j).rev().find(|&p| {
                    match word(p) {
                        ")" => parens += 1,
                        "(" => parens -= 1,
                        _ => {}
                    }
                    parens == 0
                })?;
                if open == 0 || tokens[open - 1].kind != TokenKind::Ident {
                    continue;
                }
                let name = word(open - 1);
                if matches!(name, "if" | "for" | "while" | "switch" | "catch") {
                    continue;
                }
                found = Some((name, i, open - 1));
            }
            _ => {}
        }
    }
    let (name, open, name_at) = found?;
    if in_class || (name_at > 0 && word(name_at - 1) == "::") {
        return None;
    }
    let mut depth = 0i32;
    let close = (open..tokens.len()).find(|&i| match word(i) {
        "{" => {
            depth += 1;
            false
        }
        "}" => {
            depth -= 1;
            depth == 0
        }
        _ => false,
    })?;
    Some((name, tokens[open].start()..tokens[close].end()))
}

/// Whether the code at `at` runs whenever the body (`{ ... }`) runs: it stands at the body's
/// top level (no block, loop or branch around it, not the statement of an unbraced `if`,
/// `for`, `while` or `else`), and no `return`, `goto`, `throw` (at any depth: `if (skip) {
/// return; }`) or directive line comes before it.
fn runs_on_every_path(
    text: &str,
    tokens: &[Token],
    body: std::ops::Range<usize>,
    at: usize,
) -> bool {
    let first = tokens.partition_point(|t| t.start() <= body.start);
    let until = tokens.partition_point(|t| t.start() < at);
    let mut depth = 0i32;
    let mut parens = 0i32;
    let mut last_at_top = "{";
    for t in &tokens[first..until] {
        if t.kind == TokenKind::Directive {
            return false;
        }
        let word = &text[t.span.range()];
        match word {
            "{" => depth += 1,
            "}" => depth -= 1,
            "(" => parens += 1,
            ")" => parens -= 1,
            // Anywhere before it, a way out skips it on some path.
            "return" | "goto" | "throw" | "co_return" => return false,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
        if depth == 0 && parens == 0 && word != "}" {
            last_at_top = word;
        }
    }
    // The statement before it at the top level ended (`;` or a block's `}`), or it is first.
    depth == 0
        && parens == 0
        && (matches!(last_at_top, "{" | ";")
            || tokens[first..until]
                .last()
                .is_some_and(|t| &text[t.span.range()] == "}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helpers(text: &str) -> Vec<String> {
        barrier_helpers(&SourceFile::new("h.cuh", text.to_string()))
    }

    #[test]
    fn bodies_that_always_run_a_barrier() {
        let text = r#"
__device__ inline void warpgroup_arrive() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
template <int N>
__device__ inline void warpgroup_wait() {
    static_assert(N >= 0 && N <= 7, "bad");
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
}
__device__ void sync_all() { int x = 0; (void)x; __syncthreads(); }
__device__ void maybe(bool b) { if (b) { asm volatile("bar.sync 1;" ::: "memory"); } }
__device__ void unbraced(bool b) { if (b) asm volatile("bar.sync 1;" ::: "memory"); }
__device__ void early(bool b) { if (b) return; asm volatile("bar.sync 1;" ::: "memory"); }
__device__ void braced_early(bool b) { if (b) { return; } __syncthreads(); }
struct Stage { __device__ void sync() { __syncthreads(); } };
__device__ void no_clobber() { asm volatile("bar.sync 1;"); }
__device__ void looped(int n) { for (int i = 0; i < n; ++i) __syncwarp(); }
struct Pipe { __device__ void store(int v) { asm volatile("st.shared.u32 [0], %0;" :: "r"(v) : "memory"); } };
__device__ void Pipe2::arrive() { asm volatile("bar.arrive 1, 64;" ::: "memory"); }
"#;
        assert_eq!(
            helpers(text),
            ["warpgroup_arrive", "warpgroup_wait", "sync_all"]
        );
    }
}
