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
