//! What the C++ around an asm statement does with an output's variable afterwards: where the
//! function names it again, whether that is under an `if` (and which condition), whether it
//! is returned. Token-level, like the rest of the C++ side: no full parse, and anything it
//! cannot read is [`After::Unknown`], which rules must treat as "may be read".

use crate::Ctx;
use ptxguard_analyzer::cpp::lexer::{Token, TokenKind};
use ptxguard_analyzer::cpp::types::declares_variable;
use ptxguard_analyzer::cpp::{AsmStatement, Origin};

/// One place after the asm where the variable is named.
#[derive(Clone, Debug)]
pub(crate) struct LaterUse {
    /// Byte offset of the name.
    pub(crate) at: usize,
    /// A plain assignment `name = ...`: the old value is not read there.
    pub(crate) assigned: bool,
    /// Part of a `return` statement: the value leaves the function.
    pub(crate) returned: bool,
    /// The conditions of the `if`s the use sits in that open after the asm (`if (c) { ... }`
    /// or `if (c) stmt;`), innermost first, as written between the parentheses; an `else`
    /// branch adds `else`.
    pub(crate) conditions: Vec<String>,
}

impl LaterUse {
    /// The value the asm left may be read here.
    pub(crate) fn reads(&self) -> bool {
        !self.assigned
    }
}

/// What follows the asm for one output variable.
#[derive(Clone, Debug)]
pub(crate) enum After {
    /// The operand is not a plain local variable of a known C++ function (a member, an array
    /// element, a macro body, C++ held in a Python string...), or a loop may read it again
    /// before the asm: nothing can be said.
    Unknown,
    /// Every place the function names the variable after the asm (empty: it is dead).
    Uses(Vec<LaterUse>),
}

/// The uses of `expr` (an operand's C++ expression) after `stmt` in its function: to the end
/// of the block that declares it, else (outside a loop) to the end of the function.
pub(crate) fn uses_after(cx: &Ctx, stmt: &AsmStatement, expr: &str) -> After {
    let name = expr.trim();
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || name.starts_with(|c: char| c.is_ascii_digit())
        || !matches!(stmt.origin, Origin::Cpp)
    {
        return After::Unknown;
    }
    let Some(function) = &stmt.context.function else {
        return After::Unknown;
    };
    let source = cx.source();
    let (start, end) = (stmt.span.start as usize, stmt.span.end as usize);
    let body = function.body.start as usize..function.body.end as usize;
    if !(body.start <= start && end <= body.end) || body.end > source.len() {
        return After::Unknown;
    }
    let tokens = cx.tokens();
    let first = tokens.partition_point(|t| t.start() <= body.start);
    let last = tokens.partition_point(|t| t.start() < body.end);
    let body_tokens = &tokens[first..last];
    let text = |t: &Token| &source[t.span.range()];
    let is = |t: &Token, p: &str| t.kind == TokenKind::Punct && text(t) == p;
    let after = body_tokens.partition_point(|t| t.start() < end);
    let before = body_tokens.partition_point(|t| t.start() < start);
    // The innermost `{ }` around the statement.
    let mut depth = 0i32;
    let block_open = body_tokens[..before].iter().rposition(|t| {
        if is(t, "}") {
            depth += 1;
        } else if is(t, "{") {
            if depth == 0 {
                return true;
            }
            depth -= 1;
        }
        false
    });
    depth = 0;
    let block_close = body_tokens[after..]
        .iter()
        .position(|t| {
            if is(t, "{") {
                depth += 1;
            } else if is(t, "}") {
                if depth == 0 {
                    return true;
                }
                depth -= 1;
            }
            false
        })
        .map(|i| after + i);
    let block_start = block_open.map_or(body.start, |i| body_tokens[i].end());
    let range_end = if declares_variable(&source[block_start..start], name) {
        block_close.unwrap_or(body_tokens.len())
    } else if stmt.context.in_loop {
        return After::Unknown;
    } else {
        body_tokens.len()
    };
    let mut uses = Vec::new();
    for i in after..range_end {
        let t = &body_tokens[i];
        if t.kind != TokenKind::Ident || text(t) != name {
            continue;
        }
        // `x.name`, `p->name`, `ns::name` are other objects.
        if i > 0 && [".", "->", "::"].iter().any(|p| is(&body_tokens[i - 1], p)) {
            continue;
        }
        let next = |k: usize| body_tokens.get(i + k);
        let assigned = next(1).is_some_and(|t| is(t, "="))
            && !next(2).is_some_and(|t| is(t, "="))
            && statement_start(body_tokens, i, source) == Some(i);
        let (returned, conditions) = context_of(body_tokens, i, after, source);
        uses.push(LaterUse {
            at: t.start(),
            assigned,
            returned,
            conditions,
        });
    }
    After::Uses(uses)
}

/// The index of the first token of the statement holding token `i` (`None` when the walk
/// reaches the function body's start without a boundary).
fn statement_start(tokens: &[Token], i: usize, source: &str) -> Option<usize> {
    let mut parens = 0i32;
    for k in (0..i).rev() {
        let t = &source[tokens[k].span.range()];
        if tokens[k].kind != TokenKind::Punct {
            continue;
        }
        match t {
            ")" => parens += 1,
            // An enclosing `(`: the token is an argument or a condition; keep walking.
            "(" if parens == 0 => {}
            "(" => {
                parens -= 1;
                if parens == 0 && k > 0 && is_control(&source[tokens[k - 1].span.range()]) {
                    // `if (c) stmt;`: the statement starts after the `)`.
                    return matching_close(tokens, k, source).map(|c| c + 1);
                }
            }
            ";" | "{" | "}" if parens == 0 => return Some(k + 1),
            _ => {}
        }
    }
    None
}

fn is_control(word: &str) -> bool {
    matches!(word, "if" | "while" | "for" | "switch")
}

/// The `)` matching the `(` at `open`.
fn matching_close(tokens: &[Token], open: usize, source: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (k, t) in tokens.iter().enumerate().skip(open) {
        if t.kind != TokenKind::Punct {
            continue;
        }
        match &source[t.span.range()] {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The `(` matching the `)` at `close`.
fn matching_open(tokens: &[Token], close: usize, source: &str) -> Option<usize> {
    let mut depth = 0i32;
    for k in (0..=close).rev() {
        let t = &tokens[k];
        if t.kind != TokenKind::Punct {
            continue;
        }
        match &source[t.span.range()] {
            ")" => depth += 1,
            "(" => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether token `i` is in a `return` statement, and the `if` conditions around it that open
/// at or after token `from`.
fn context_of(tokens: &[Token], i: usize, from: usize, source: &str) -> (bool, Vec<String>) {
    let text = |k: usize| &source[tokens[k].span.range()];
    let mut conditions = Vec::new();
    let start = statement_start(tokens, i, source).unwrap_or(0);
    let returned = tokens.get(start).is_some_and(|_| text(start) == "return");
    // What opens the statement or block starting at `at`: `if (c)`, or `else`.
    let unbraced = |at: usize, conditions: &mut Vec<String>| {
        if at == 0 || at <= from {
            return;
        }
        if text(at - 1) == "else" {
            conditions.push("else".to_string());
            return;
        }
        if text(at - 1) != ")" {
            return;
        }
        if let Some(open) = matching_open(tokens, at - 1, source) {
            if open > from && text(open - 1) == "if" {
                conditions.push(source[tokens[open].end()..tokens[at - 1].start()].to_string());
            }
        }
    };
    unbraced(start, &mut conditions);
    // Enclosing blocks, innermost first.
    let mut depth = 0i32;
    for k in (from..start).rev() {
        if tokens[k].kind != TokenKind::Punct {
            continue;
        }
        match text(k) {
            "}" => depth += 1,
            "{" if depth > 0 => depth -= 1,
            "{" => unbraced(k, &mut conditions),
            _ => {}
        }
    }
    (returned, conditions)
}

/// The identifiers of an operand expression that can stand for a condition the C++ tests
/// (`in_bounds`, `i`, `n` of `i < n`): names that are not called, not members, not keywords.
pub(crate) fn condition_names(expr: &str) -> Vec<String> {
    let tokens = ptxguard_analyzer::cpp::lexer::lex_range(expr, 0, expr.len(), false);
    let mut names = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        let word = &expr[t.span.range()];
        if t.kind != TokenKind::Ident || is_keyword(word) {
            continue;
        }
        let prev = k.checked_sub(1).map(|p| &expr[tokens[p].span.range()]);
        let next = tokens.get(k + 1).map(|n| &expr[n.span.range()]);
        if matches!(prev, Some("." | "->" | "::")) || matches!(next, Some("(" | "::")) {
            continue;
        }
        if !names.iter().any(|n| n == word) {
            names.push(word.to_string());
        }
    }
    names
}

fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "int"
            | "unsigned"
            | "signed"
            | "long"
            | "short"
            | "char"
            | "bool"
            | "float"
            | "double"
            | "auto"
            | "const"
            | "true"
            | "false"
            | "nullptr"
            | "static_cast"
            | "reinterpret_cast"
            | "sizeof"
    ) || word.ends_with("_t")
}

/// Whether a condition as written tests one of `names` (and not only its negation).
pub(crate) fn tests_any(condition: &str, names: &[String]) -> bool {
    names.iter().any(|name| {
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        condition.match_indices(name.as_str()).any(|(at, _)| {
            let before = &condition[..at];
            let after = &condition[at + name.len()..];
            !before.ends_with(ident) && !after.starts_with(ident) && !before.trim_end().ends_with('!')
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::SourceFile;

    fn uses(text: &str, expr: &str) -> After {
        let file = SourceFile::new("t.cu", text.to_string());
        let statements = ptxguard_analyzer::statements::find_asm_statements(&file);
        let options = crate::Options::default();
        let cx = Ctx {
            file: &file,
            statements: &statements,
            options: &options,
            flows: (0..statements.len()).map(|_| Default::default()).collect(),
            tokens: Default::default(),
            targets: Default::default(),
        };
        uses_after(&cx, &statements[0], expr)
    }

    #[test]
    fn later_uses_with_their_conditions_and_returns() {
        let text = "__device__ unsigned f(unsigned p) {\n  unsigned v = 0;\n  asm(\"mov.u32 %0, 1;\" : \"=r\"(v));\n  if (p) { out(v); }\n  if (p != 0) use(v);\n  v = 3;\n  return v + 1;\n}\n";
        let After::Uses(found) = uses(text, "v") else {
            panic!("a plain local is readable");
        };
        let summary: Vec<(bool, bool, Vec<String>)> = found
            .iter()
            .map(|u| (u.assigned, u.returned, u.conditions.clone()))
            .collect();
        assert_eq!(
            summary,
            [
                (false, false, vec!["p".to_string()]),
                (false, false, vec!["p != 0".to_string()]),
                (true, false, vec![]),
                (false, true, vec![]),
            ]
        );
        assert!(matches!(uses(text, "v.x"), After::Unknown));
    }

    #[test]
    fn a_variable_of_the_block_is_dead_at_its_end_and_loops_say_nothing() {
        let block = "__device__ void f(int n) {\n  { unsigned v;\n    asm volatile(\"\" : \"=r\"(v));\n  }\n  int v = n;\n  g(v);\n}\n";
        assert!(matches!(uses(block, "v"), After::Uses(u) if u.is_empty()));
        let looped = "__device__ void f(int n) {\n  unsigned v;\n  for (int i = 0; i < n; ++i) {\n    g(v);\n    asm volatile(\"\" : \"=r\"(v));\n  }\n}\n";
        assert!(matches!(uses(looped, "v"), After::Unknown));
    }

    #[test]
    fn condition_names_skip_calls_members_and_types() {
        assert_eq!(condition_names("(int)in_bounds"), ["in_bounds"]);
        assert_eq!(condition_names("i < n"), ["i", "n"]);
        assert_eq!(condition_names("static_cast<uint32_t>(x.valid)"), ["x"]);
        assert!(tests_any("is_leading && k > 0", &["is_leading".into()]));
        assert!(!tests_any("!is_leading", &["is_leading".into()]));
        assert!(!tests_any("is_leading_thread", &["is_leading".into()]));
    }
}
