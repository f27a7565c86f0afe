//! The preprocessor's conditionals around a point of a function: code in another branch of
//! an `#if` group that holds the point is never compiled together with it (`#if CUDA` asm
//! `#else` a port's C++ `#endif`), so no rule reads it as code beside the point.

use ptxguard_analyzer::cpp::lexer::{Token, TokenKind};
use ptxguard_analyzer::cpp::preproc::directive_name;
use std::ops::Range;

/// Byte ranges of `body` in the other branches of the preprocessor conditionals around `at`
/// (`#if A` asm `#else` access `#endif`): no build compiles them together with `at`.
/// Conditionals that open or close outside `body` are left alone.
pub(crate) fn other_branches(
    source: &str,
    tokens: &[Token],
    body: Range<usize>,
    at: usize,
) -> Vec<Range<usize>> {
    let first = tokens.partition_point(|t| t.start() < body.start);
    let last = tokens.partition_point(|t| t.start() < body.end);
    // Each open conditional: where each of its branches starts (after its directive line) and
    // where its directives start.
    let mut open: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut out = Vec::new();
    for t in tokens[first..last]
        .iter()
        .filter(|t| t.kind == TokenKind::Directive)
    {
        match directive_name(&source[t.start()..t.end()]) {
            "if" | "ifdef" | "ifndef" => open.push(vec![(t.start(), t.end())]),
            "elif" | "elifdef" | "elifndef" | "else" => {
                if let Some(group) = open.last_mut() {
                    group.push((t.start(), t.end()));
                }
            }
            "endif" => {
                let Some(group) = open.pop() else {
                    continue;
                };
                // Branch k runs from its directive's end to the next directive's start.
                let ends: Vec<usize> = group
                    .iter()
                    .skip(1)
                    .map(|&(start, _)| start)
                    .chain(std::iter::once(t.start()))
                    .collect();
                let branches: Vec<Range<usize>> = group
                    .iter()
                    .zip(ends)
                    .map(|(&(_, from), to)| from..to)
                    .collect();
                if branches.iter().any(|b| b.contains(&at)) {
                    out.extend(branches.into_iter().filter(|b| !b.contains(&at)));
                }
            }
            _ => {}
        }
    }
    out
}

/// Byte ranges of `body` in `#if` branches (opened inside `body`) that no target the file is
/// built for compiles, the file's own and its headers' macros applied (`#define DO_LOOKUP`
/// ... `#ifndef DO_LOOKUP` plain code `#else` ...): code there is not code at all.
pub(crate) fn dead_branches(cx: &crate::Ctx, body: Range<usize>) -> Vec<Range<usize>> {
    use ptxguard_analyzer::context::targets::Guarded;
    use ptxguard_analyzer::cpp::preproc::{
        active_conditions, apply_conditional, is_conditional, parse_directive, CondFrame,
    };
    let source = cx.source();
    let tokens = cx.tokens();
    let first = tokens.partition_point(|t| t.start() < body.start);
    let last = tokens.partition_point(|t| t.start() < body.end);
    let directives: Vec<&Token> = tokens[first..last]
        .iter()
        .filter(|t| t.kind == TokenKind::Directive && is_conditional(source, t.span))
        .collect();
    if directives.is_empty() {
        return Vec::new();
    }
    let evaluator = cx.targets();
    let mut stack: Vec<CondFrame> = Vec::new();
    let mut out = Vec::new();
    for (k, t) in directives.iter().enumerate() {
        let directive = parse_directive(source, t.span);
        apply_conditional(&mut stack, source, &directive);
        let conditions = active_conditions(&stack);
        if conditions.is_empty() || evaluator.targets.is_empty() {
            continue;
        }
        let dead = evaluator
            .targets
            .iter()
            .all(|target| evaluator.conditions_guard(&conditions, target) == Guarded::Excluded);
        if dead {
            let end = directives.get(k + 1).map_or(body.end, |n| n.start());
            out.push(t.end()..end);
        }
    }
    out
}
