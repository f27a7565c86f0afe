//! What the C++ around an asm statement does with an output's variable afterwards: where the
//! function names it again, whether that is under an `if` (and which condition), whether it
//! is returned. Token-level, like the rest of the C++ side: no full parse, and anything it
//! cannot read is [`After::Unknown`], which rules must treat as "may be read".

use crate::Ctx;
use ptxguard_analyzer::cpp::lexer::{openers_behind, Token, TokenKind, NO_OPENER};
use ptxguard_analyzer::cpp::types::declares_variable;
use ptxguard_analyzer::cpp::{AsmStatement, Function, Origin};

/// One place after the asm where the variable is named.
#[derive(Clone, Debug)]
pub(crate) struct LaterUse {
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
    // A use in another branch of an `#if` group around the asm is never compiled with it.
    let elsewhere = super::preprocessor::other_branches(source, tokens, body, start);
    scan_uses(body_tokens, source, after, range_end, name, &elsewhere)
        .map_or(After::Unknown, After::Uses)
}

/// More uses than this after one asm and the variable is taken as read: the work per output
/// stays bounded on pathological input.
const MAX_USES: usize = 32;

/// The places `tokens[from..to]` name `name`, seen from token `from`; `None` past
/// [`MAX_USES`].
fn scan_uses(
    tokens: &[Token],
    source: &str,
    from: usize,
    to: usize,
    name: &str,
    elsewhere: &[std::ops::Range<usize>],
) -> Option<Vec<LaterUse>> {
    let text = |t: &Token| &source[t.span.range()];
    let is = |t: &Token, p: &str| t.kind == TokenKind::Punct && text(t) == p;
    let mut uses = Vec::new();
    for i in from..to.min(tokens.len()) {
        let t = &tokens[i];
        if t.kind != TokenKind::Ident
            || text(t) != name
            || elsewhere.iter().any(|r| r.contains(&t.start()))
        {
            continue;
        }
        // `x.name`, `p->name`, `ns::name` are other objects.
        if i > 0 && [".", "->", "::"].iter().any(|p| is(&tokens[i - 1], p)) {
            continue;
        }
        let next = |k: usize| tokens.get(i + k);
        if uses.len() == MAX_USES {
            return None;
        }
        let assigned = next(1).is_some_and(|t| is(t, "="))
            && !next(2).is_some_and(|t| is(t, "="))
            && statement_start(tokens, i, from, source) == Some(i);
        let (returned, conditions) = context_of(tokens, i, from, source, None);
        uses.push(LaterUse {
            assigned,
            returned,
            conditions,
        });
    }
    Some(uses)
}

/// The reads of the value the asm left: uses up to the first assignment made on every path
/// after it (later reads see the new value).
pub(crate) fn reads_of_left_value(uses: &[LaterUse]) -> Vec<&LaterUse> {
    let mut reads = Vec::new();
    for u in uses {
        if u.reads() {
            reads.push(u);
        } else if u.conditions.is_empty() {
            break;
        }
    }
    reads
}

/// How a call of a function uses its result, seen from the call site.
#[derive(Clone, Debug)]
pub(crate) struct CallSite {
    /// The argument expressions, as written.
    pub(crate) args: Vec<String>,
    /// The conditions of the `if`s around the call statement (all of them, innermost first).
    pub(crate) conditions: Vec<String>,
    /// `T r = f(...)...;`: the uses of `r` after the statement, to the end of its block;
    /// `None` when the result is used in the statement itself (an argument, a store).
    pub(crate) result_uses: Option<Vec<LaterUse>>,
    /// The token of the call's closing `)` (`None` for the stand-in past [`MAX_USES`]).
    pub(crate) close: Option<usize>,
}

/// The parameter names of a function, in order (`None` when the list cannot be read).
pub(crate) fn parameter_names(cx: &Ctx, function: &Function) -> Option<Vec<String>> {
    let source = cx.source();
    let tokens = cx.tokens();
    let name_at = tokens.partition_point(|t| t.start() < function.name_span.start as usize);
    let open = name_at + 1;
    if tokens.get(open).map(|t| &source[t.span.range()]) != Some("(") {
        return None;
    }
    let close = matching_close(tokens, open, source)?;
    let mut names = Vec::new();
    let mut depth = 0i32;
    let mut last_ident: Option<&str> = None;
    let mut in_default = false;
    for t in &tokens[open + 1..close] {
        let word = &source[t.span.range()];
        match (t.kind, word) {
            (TokenKind::Punct, "(" | "<" | "[") => depth += 1,
            (TokenKind::Punct, ")" | ">" | "]") => depth -= 1,
            (TokenKind::Punct, ",") if depth == 0 => {
                names.push(last_ident.take().unwrap_or("").to_string());
                in_default = false;
            }
            (TokenKind::Punct, "=") if depth == 0 => in_default = true,
            (TokenKind::Ident, w) if depth == 0 && !in_default => last_ident = Some(w),
            _ => {}
        }
    }
    if close > open + 1 {
        names.push(last_ident.unwrap_or("").to_string());
    }
    Some(names)
}

/// The calls of `function` in the file (its name followed by `(`, not its own declaration).
pub(crate) fn call_sites(cx: &Ctx, function: &Function) -> Vec<CallSite> {
    let source = cx.source();
    let tokens = cx.tokens();
    let text = |k: usize| &source[tokens[k].span.range()];
    let mut sites = Vec::new();
    // Too many to judge each: one that reads the result unguarded stands for them.
    let too_many = CallSite {
        args: Vec::new(),
        conditions: Vec::new(),
        result_uses: None,
        close: None,
    };
    for k in cx
        .identifier_positions(&function.name)
        .iter()
        .map(|&k| k as usize)
    {
        if sites.len() > MAX_USES {
            break;
        }
        if tokens[k].kind != TokenKind::Ident
            || text(k) != function.name
            || tokens[k].start() == function.name_span.start as usize
            || tokens.get(k + 1).map(|t| &source[t.span.range()]) != Some("(")
        {
            continue;
        }
        let Some(close) = matching_close(tokens, k + 1, source) else {
            continue;
        };
        // A declaration elsewhere (`T name(...);` or `T name(...) {`) is not a call.
        if k > 0 && tokens[k - 1].kind == TokenKind::Ident && text(k - 1) != "return" {
            continue;
        }
        let mut args = Vec::new();
        let mut depth = 0i32;
        let mut arg_start = tokens[k + 1].end();
        for t in &tokens[k + 2..close] {
            match (t.kind, &source[t.span.range()]) {
                (TokenKind::Punct, "(" | "[" | "{") => depth += 1,
                (TokenKind::Punct, ")" | "]" | "}") => depth -= 1,
                (TokenKind::Punct, ",") if depth == 0 => {
                    args.push(source[arg_start..t.start()].trim().to_string());
                    arg_start = t.end();
                }
                _ => {}
            }
        }
        args.push(source[arg_start..tokens[close].start()].trim().to_string());
        let start = statement_start(tokens, k, 0, source).unwrap_or(0);
        let (_, conditions) = context_of(tokens, k, 0, source, Some(cx.enclosing_braces()));
        // `T r = f(...)...;` declares `r` in the block around it.
        let declared = (k >= start + 2
            && text(k - 1) == "="
            && tokens[k - 2].kind == TokenKind::Ident
            && k - 2 > start)
            .then(|| text(k - 2).to_string());
        let result_uses = declared.and_then(|r| {
            let end = (close..tokens.len()).find(|&i| text(i) == ";")?;
            let mut depth = 0i32;
            let block_end = (end..tokens.len())
                .find(|&i| match text(i) {
                    "{" => {
                        depth += 1;
                        false
                    }
                    "}" if depth == 0 => true,
                    "}" => {
                        depth -= 1;
                        false
                    }
                    _ => false,
                })
                .unwrap_or(tokens.len());
            scan_uses(tokens, source, end + 1, block_end, &r, &[])
        });
        sites.push(CallSite {
            args,
            conditions,
            result_uses,
            close: Some(close),
        });
    }
    if sites.len() > MAX_USES {
        sites.push(too_many);
    }
    sites
}

/// Where a call sits in its caller, as far as the tokens show.
pub(crate) struct CallContext {
    /// The call's statement is in a loop (its body, braced or not, an `if` between allowed).
    pub(crate) in_loop: bool,
    /// The caller's body tokens, its `{` to its `}`.
    pub(crate) body: std::ops::Range<usize>,
    /// The caller's head, its name to its body's `{` (`__global__ void k(...)`: which
    /// qualifiers it has, which parameters).
    pub(crate) head: std::ops::Range<usize>,
    /// The statement holding the call: its first token.
    pub(crate) statement: usize,
}

/// How far back a call's caller is looked for (tokens): a bound on the work per call site.
const CALLER_LOOK_BACK: usize = 200_000;

/// The context of a call site ([`CallContext`]); `None` when it cannot be read.
pub(crate) fn call_context(cx: &Ctx, site: &CallSite) -> Option<CallContext> {
    let close = site.close?;
    let source = cx.source();
    let tokens = cx.tokens();
    let text = |k: usize| &source[tokens[k].span.range()];
    let floor = close.saturating_sub(CALLER_LOOK_BACK);
    // Whether what opens the block or statement starting at token `at` is a loop, climbing
    // through unbraced `if (c)` / `else` heads (`for (...) if (c) f(a);`).
    let opens_loop = |mut at: usize| -> bool {
        for _ in 0..64 {
            if at <= floor {
                return false;
            }
            match text(at - 1) {
                "do" => return true,
                "else" => at -= 1,
                ")" => match matching_open(tokens, at - 1, source) {
                    Some(open) if open > floor => match text(open - 1) {
                        "for" | "while" => return true,
                        "if" => at = open - 1,
                        _ => return false,
                    },
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    };
    let statement = statement_start(tokens, close, floor, source)?;
    let mut in_loop = opens_loop(statement) || in_loop_head(cx, close, floor);
    // The blocks around the call, innermost first, back to the function's body: the
    // outermost one that is no namespace, class or linkage block.
    let mut depth = 0i32;
    let mut body_open = None;
    for k in (floor..statement).rev() {
        if tokens[k].kind != TokenKind::Punct {
            continue;
        }
        match text(k) {
            "}" => depth += 1,
            "{" if depth > 0 => depth -= 1,
            "{" => {
                let head_start = (floor..k)
                    .rev()
                    .find(|&i| matches!(text(i), ";" | "{" | "}"))
                    .map_or(floor, |i| i + 1);
                let container = (head_start..k).any(|i| {
                    tokens[i].kind == TokenKind::Str
                        || matches!(
                            text(i),
                            "namespace" | "class" | "struct" | "union" | "enum" | "extern"
                        )
                });
                if container {
                    break;
                }
                in_loop |= opens_loop(k);
                body_open = Some((k, head_start));
            }
            _ => {}
        }
    }
    let (open, head_start) = body_open?;
    let mut depth = 0i32;
    let end = (open..tokens.len()).find(|&i| match text(i) {
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
    Some(CallContext {
        in_loop,
        body: open..end,
        head: head_start..open,
        statement,
    })
}

/// Whether the call whose `)` is `tokens[close]` sits in the parentheses of a `for`/`while`
/// head, or of a `do`'s closing `while (...)`: the loop's own condition, run every turn
/// (`while (read_flag(f) == 0)`).
fn in_loop_head(cx: &Ctx, close: usize, floor: usize) -> bool {
    /// How far back the enclosing parentheses are looked for.
    const LOOK_BACK: usize = 512;
    let source = cx.source();
    let tokens = cx.tokens();
    let text = |k: usize| &source[tokens[k].span.range()];
    let Some(open) = matching_open(tokens, close, source) else {
        return false;
    };
    let stop = open.saturating_sub(LOOK_BACK).max(floor);
    let mut depth = 0usize;
    for k in (stop..open).rev() {
        if tokens[k].kind != TokenKind::Punct {
            continue;
        }
        match text(k) {
            ")" => depth += 1,
            "(" if depth > 0 => depth -= 1,
            // An enclosing group: a loop's head, or keep looking outward.
            "(" if k > 0 && matches!(text(k - 1), "while" | "for") => return true,
            "{" | "}" if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// Whether the code after the call (to the end of the function holding it) may read one of
/// `names` (the argument's variables) again: it names one, the call sits in a loop, whose next
/// turn runs it again, or a name is the caller's own parameter (its callers are not
/// followed). A local the caller copied from another variable (`T c = a;`, `c = (T)a;`)
/// stands for that variable too. `true` when it cannot tell.
pub(crate) fn read_after_call(cx: &Ctx, site: &CallSite, names: &[String]) -> bool {
    let Some(close) = site.close else {
        return true;
    };
    let Some(call) = call_context(cx, site) else {
        return true;
    };
    let source = cx.source();
    let tokens = cx.tokens();
    let text = |k: usize| &source[tokens[k].span.range()];
    // `value = f(value, ...);`, the call the whole value: the result replaces the value
    // passed, so no later read (nor the next turn of a loop) sees the old one.
    let start = call.statement;
    let replaced = (tokens[start].kind == TokenKind::Ident
        && tokens
            .get(start + 1)
            .is_some_and(|_| text(start + 1) == "=")
        && tokens
            .get(start + 2)
            .is_some_and(|_| text(start + 2) != "=")
        && tokens
            .get(close + 1)
            .is_some_and(|_| text(close + 1) == ";"))
    .then(|| text(start));
    let mut watched: Vec<String> = Vec::new();
    for name in names {
        if Some(name.as_str()) == replaced {
            continue;
        }
        watched.push(name.clone());
        // One level of copies in the caller: `T c = a;` before the call.
        for k in call.body.start..start {
            if text(k) == name
                && tokens.get(k + 1).is_some_and(|_| text(k + 1) == "=")
                && !matches!(text(k - 1), "." | "->" | "::")
            {
                let value_end = (k + 2..start).find(|&i| matches!(text(i), ";" | ","));
                if let Some(value_end) = value_end {
                    let value = &source[tokens[k + 2].start()..tokens[value_end - 1].end()];
                    if is_copy(value) {
                        watched.extend(condition_names(value));
                    }
                }
            }
        }
    }
    if watched.is_empty() {
        // Every argument's value is replaced by the call's result.
        return false;
    }
    if call.in_loop {
        return true;
    }
    // An argument that is a parameter of the caller: the caller's callers may read it.
    let head_names = match call.head.clone() {
        head if head.is_empty() => "",
        head => &source[tokens[head.start].start()..tokens[head.end - 1].end()],
    };
    if names.iter().any(|n| {
        Some(n.as_str()) != replaced
            && head_names
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == n)
    }) {
        return true;
    }
    (close + 1..call.body.end).any(|i| {
        tokens[i].kind == TokenKind::Ident
            && watched.iter().any(|n| n == text(i))
            && !matches!(text(i - 1), "." | "->" | "::")
    })
}

/// A value that is another variable as it is: a name, member or element, perhaps behind a
/// cast (`(unsigned)a`, `static_cast<uint32_t>(a)`).
pub(crate) fn is_copy(value: &str) -> bool {
    let mut v = value.trim();
    loop {
        if let Some(rest) = v.strip_prefix('(') {
            // `(T)x`: a cast whose parenthesised type is followed by the operand.
            if let Some(close) = rest.find(')') {
                let after = rest[close + 1..].trim();
                if !after.is_empty()
                    && rest[..close]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_: *<>".contains(c))
                {
                    v = after;
                    continue;
                }
                if after.is_empty() {
                    v = rest[..close].trim();
                    continue;
                }
            }
            return false;
        }
        if let Some(rest) = ["static_cast<", "reinterpret_cast<", "const_cast<"]
            .iter()
            .find_map(|p| v.strip_prefix(p))
        {
            let Some(gt) = rest.find(">(") else {
                return false;
            };
            v = rest[gt + 2..].trim().strip_suffix(')').unwrap_or("").trim();
            continue;
        }
        break;
    }
    !v.is_empty()
        && !v.starts_with(|c: char| c.is_ascii_digit())
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c) || c == ' ')
}

/// The value a local held when the asm ran, as the last mention of it before the asm in its
/// function sets it: `T name = value;`, `name = value;` or `T name{value};` gives `value`.
/// `None` when the last mention is anything else (a read, an increment, its address taken)
/// or there is none.
pub(crate) fn value_set_before(cx: &Ctx, stmt: &AsmStatement, name: &str) -> Option<String> {
    let function = stmt.context.function.as_ref()?;
    let source = cx.source();
    let tokens = cx.tokens();
    let text = |k: usize| &source[tokens[k].span.range()];
    let first = tokens.partition_point(|t| t.start() <= function.body.start as usize);
    let before = tokens.partition_point(|t| t.start() < stmt.span.start as usize);
    let k = (first..before).rev().find(|&k| {
        tokens[k].kind == TokenKind::Ident
            && text(k) == name
            && !matches!(text(k - 1), "." | "->" | "::")
    })?;
    // Set on every path to the asm: not in a block closed before it, nor the statement of an
    // unbraced `if`/`else`/loop head (`if (c) x = 0;`).
    let mut depth = 0i32;
    for t in &tokens[k..before] {
        match &source[t.span.range()] {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            _ => {}
        }
    }
    let head = statement_start(tokens, k, first.saturating_sub(1), source)?;
    if head != k || matches!(text(k - 1), ")" | "else" | "do") {
        // `T x = v` starts at the type; `x = v` at `x`. An `if (c) x = v;` starts after `)`.
        // `T x = v` (a type before the name), or a later declarator (`T a = 1, x = v`).
        let declared = text(k - 1) == ","
            || tokens[head..k].iter().all(|t| {
                t.kind == TokenKind::Ident
                    || matches!(&source[t.span.range()], "*" | "::" | "<" | ">")
            });
        if !declared || matches!(text(head - 1), ")" | "else" | "do") {
            return None;
        }
    }
    let (opener, closer) = match tokens.get(k + 1).map(|_| text(k + 1))? {
        "=" if tokens.get(k + 2).is_some_and(|_| text(k + 2) != "=") => ("=", ";"),
        "{" => ("{", "}"),
        _ => return None,
    };
    let mut depth = 0i32;
    let end = (k + 2..before).find(|&i| match text(i) {
        "(" | "[" | "{" => {
            depth += 1;
            false
        }
        ")" | "]" | "}" if depth > 0 => {
            depth -= 1;
            false
        }
        t => depth == 0 && (t == closer || (opener == "=" && t == ",")),
    })?;
    (end > k + 2).then(|| source[tokens[k + 2].start()..tokens[end - 1].end()].to_string())
}

/// Whether the Python function around `stmt` (`def name(`) is called elsewhere in the file
/// (`name(`); `None` when the statement is in no function.
pub(crate) fn python_function_called(source: &str, stmt: &AsmStatement) -> Option<bool> {
    let start = stmt.span.start as usize;
    let def_line = source[..start]
        .lines()
        .rev()
        .map(str::trim_start)
        .find(|l| l.starts_with("def ") || l.starts_with("async def "))?;
    let name = def_line
        .trim_start_matches("async ")
        .strip_prefix("def ")?
        .split('(')
        .next()?
        .trim();
    if name.is_empty() {
        return None;
    }
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let call = format!("{name}(");
    Some(source.match_indices(&call).any(|(at, _)| {
        let before = &source[..at];
        !before.ends_with(ident) && !before.trim_end().ends_with("def")
    }))
}

/// `return <call>` in Python: the call is the whole returned expression.
pub(crate) fn python_call_returned(source: &str, stmt: &AsmStatement) -> bool {
    let start = stmt.span.start as usize;
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    source[line_start..start].trim() == "return"
        && source[stmt.span.end as usize..]
            .lines()
            .next()
            .is_some_and(|rest| rest.trim().is_empty() || rest.trim_start().starts_with('#'))
}

/// The index of the first token of the statement holding token `i`, looking back no further
/// than token `floor` (`None` when the walk reaches it without a boundary).
fn statement_start(tokens: &[Token], i: usize, floor: usize, source: &str) -> Option<usize> {
    let mut parens = 0i32;
    for k in (floor..i).rev() {
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
pub(crate) fn matching_open(tokens: &[Token], close: usize, source: &str) -> Option<usize> {
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
fn context_of(
    tokens: &[Token],
    i: usize,
    from: usize,
    source: &str,
    enclosing: Option<&[u32]>,
) -> (bool, Vec<String>) {
    let text = |k: usize| &source[tokens[k].span.range()];
    let mut conditions = Vec::new();
    let start = statement_start(tokens, i, from, source).unwrap_or(from);
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
    // Enclosing blocks, innermost first: from the file's table when there is one.
    if let Some(enclosing) = enclosing {
        let mut at = start;
        while let Some(&open) = enclosing.get(at) {
            let open = open as usize;
            if open == NO_OPENER as usize || open < from {
                break;
            }
            unbraced(open, &mut conditions);
            at = open;
        }
        return (returned, conditions);
    }
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

/// For each token index, the `{` [`context_of`]'s walk back from it stops at (the innermost
/// block around it; braces as written, as that walk reads them), or `NO_OPENER`.
pub(crate) fn enclosing_braces(tokens: &[Token], source: &str) -> Vec<u32> {
    openers_behind(tokens, b'{', |t| match (t.kind, &source[t.span.range()]) {
        (TokenKind::Punct, "{") => Some(b'{'),
        (TokenKind::Punct, "}") => Some(b'}'),
        _ => None,
    })
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
            !before.ends_with(ident)
                && !after.starts_with(ident)
                && !before.trim_end().ends_with('!')
        })
    })
}

/// Where a C++ statement's assignment `=` is (not one of `==`, `<=`, `>=`, `!=`; a compound
/// `+=` counts, at its `=`).
pub(crate) fn assignment_at(statement: &str) -> Option<usize> {
    let bytes = statement.as_bytes();
    (0..bytes.len()).find(|&i| {
        bytes[i] == b'='
            && bytes.get(i + 1) != Some(&b'=')
            && (i == 0 || !matches!(bytes[i - 1], b'=' | b'<' | b'>' | b'!'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::SourceFile;

    /// The table gives the conditions the walk back gives, at every token and floor.
    #[test]
    fn enclosing_braces_give_the_walks_conditions() {
        for text in [
            "void f(bool c) { if (c) { g(); } else { while (x) { if (y) { h(); } } } }",
            "} } { if (a) { { } } else { k(); } } { if (b) { } } } {",
            "namespace n { void f() { if (p) { if (q) m(); } } } if (z) { w(); }",
            "",
        ] {
            let tokens = ptxguard_analyzer::cpp::lexer::lex_range(text, 0, text.len(), false);
            let table = enclosing_braces(&tokens, text);
            for i in 0..tokens.len() {
                for from in [0, i / 2, i] {
                    assert_eq!(
                        context_of(&tokens, i, from, text, Some(&table)),
                        context_of(&tokens, i, from, text, None),
                        "{text:?} at token {i} from {from}"
                    );
                }
            }
        }
    }

    fn uses(text: &str, expr: &str) -> After {
        with_cx(text, |cx| uses_after(cx, &cx.statements[0], expr))
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

    fn with_cx<R>(text: &str, f: impl FnOnce(&Ctx) -> R) -> R {
        let file = SourceFile::new("t.cu", text.to_string());
        let statements = ptxguard_analyzer::statements::find_asm_statements(&file);
        let options = crate::Options::default();
        let context = ptxguard_analyzer::context::AnalysisContext::default();
        let cx = Ctx {
            file: &file,
            statements: &statements,
            context: &context,
            options: &options,
            flows: (0..statements.len()).map(|_| Default::default()).collect(),
            tokens: Default::default(),
            targets: Default::default(),
            identifiers: Default::default(),
            enclosing_braces: Default::default(),
        };
        f(&cx)
    }

    #[test]
    fn the_value_a_local_was_last_set_to() {
        let text = "__device__ void f(unsigned a) {\n  unsigned t = a ^ 3, u{7};\n  unsigned v = 0;\n  g(v);\n  asm(\"\" :: \"r\"(t), \"r\"(u), \"r\"(v));\n}\n";
        with_cx(text, |cx| {
            let stmt = &cx.statements[0];
            assert_eq!(value_set_before(cx, stmt, "t").as_deref(), Some("a ^ 3"));
            assert_eq!(value_set_before(cx, stmt, "u").as_deref(), Some("7"));
            // Last named in a call: not a value set.
            assert_eq!(value_set_before(cx, stmt, "v"), None);
            assert_eq!(value_set_before(cx, stmt, "a"), None);
        });
    }

    #[test]
    fn arguments_read_after_a_call_or_passed_in_a_loop() {
        let text = "__device__ void h(unsigned x) { asm(\"\" :: \"r\"(x)); }\n\
            __global__ void k(unsigned* p) {\n  unsigned a = p[0], b = p[1], c = p[2], d = p[3];\n\
            h(a);\n  p[4] = b;\n  h(b);\n  for (int i = 0; i < 2; ++i) h(c);\n  if (a) { h(d); }\n\
            for (int i = 0; i < 2; ++i) d = h(d);\n}\n\
            namespace n { struct S { __device__ void m(unsigned e) { h(e); } }; }\n";
        with_cx(text, |cx| {
            let function = cx.statements[0].context.function.as_ref().unwrap();
            let sites = call_sites(cx, function);
            let read: Vec<bool> = sites
                .iter()
                .map(|s| read_after_call(cx, s, &condition_names(&s.args[0])))
                .collect();
            // a: named in `if (a)` later; b: not after its call; c: in a loop; d: named by the
            // loop after it, where the call's result replaces it (not read again); e: a
            // parameter of its caller, whose callers are not followed.
            assert_eq!(read, [true, false, true, true, false, true]);
        });
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
