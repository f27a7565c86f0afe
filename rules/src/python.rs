//! What the C++-minded rules say, adapted to statements written in Python.

use ptxguard_analyzer::cpp::{AsmStatement, Origin};
use ptxguard_analyzer::{Diagnostic, Span};

/// Rules whose fixes know Python (the others edit as if the text were C++).
const PYTHON_FIXES: &[&str] = &[
    "missing-volatile",
    "percent-escape",
    "pack-mismatch",
    // Its one fix inserts a `;`, right in any literal.
    "ptx-syntax",
];

/// Rules that say nothing about Python calls: `cuda::ptx` wrappers and CUDA intrinsics are
/// C++, and the constraint letters LLVM takes (`i`, `n`, `b`...) are not nvcc's. A file whose
/// statements are all Python calls does not run them.
pub(crate) const NOT_FOR_PYTHON_CALLS: &[&str] = &[
    "prefer-cuda-ptx",
    "prefer-intrinsic",
    "unsupported-constraint",
];

/// For findings on Python calls: `prefer-*` advice (C++ wrappers) is dropped, operands are spelled `$N` in messages and labels, notes about
/// what nvcc does are dropped (Triton and MLIR hand the asm to LLVM, not nvcc), and fixes
/// written for C++ text are dropped. For C++ in a Python string, fixes that insert quotes,
/// backslashes or braces are dropped (they could end or change the Python literal).
pub(crate) fn adapt(statements: &[AsmStatement], out: &mut Vec<Diagnostic>) {
    // Triton passes every packed element of every argument: at `pack` > 1 an asm that
    // ignores some of them does so by design.
    out.retain(|d| {
        !statements.iter().any(|s| {
            let Some(call) = s.python() else {
                return false;
            };
            let packed = call.pack.is_some_and(|(_, p)| p != Some(1));
            owns(s, d.span)
                && (NOT_FOR_PYTHON_CALLS.contains(&d.rule)
                    || (d.rule == "unused-operand"
                        && packed
                        && s.inputs.iter().any(|i| i.constraint.span == d.span)))
        })
    });
    for d in out.iter_mut() {
        let Some(stmt) = statements.iter().find(|s| s.in_python() && owns(s, d.span)) else {
            continue;
        };
        if matches!(stmt.origin, Origin::CppInPython { .. }) {
            let unsafe_text = |t: &str| t.contains(['"', '\'', '\\', '{', '}']);
            if d.fix
                .as_ref()
                .is_some_and(|f| f.edits.iter().any(|e| unsafe_text(&e.replacement)))
            {
                d.fix = None;
            }
            continue;
        }
        d.message = dollar_operands(&d.message);
        for label in &mut d.labels {
            label.message = dollar_operands(&label.message);
        }
        // The CuTe DSL's `inline_ptx` names its operands (`{$r0}`): say them so.
        if let Some(names) = stmt.python().map(|c| &c.operand_names) {
            if !names.is_empty() {
                d.message = named_operands(&d.message, names);
                for label in &mut d.labels {
                    label.message = named_operands(&label.message, names);
                }
            }
        }
        if d.note.as_ref().is_some_and(|n| n.contains("nvcc")) {
            d.note = None;
        }
        if let Some(help) = &mut d.help {
            *help = help.replace("the C++ value", "the value");
        }
        if !PYTHON_FIXES.contains(&d.rule) {
            d.fix = None;
        }
    }
}

/// Whether a finding is about this statement: inside the call, or inside a literal it takes
/// through a name (a template or constraint string bound elsewhere in the file).
fn owns(stmt: &AsmStatement, span: Span) -> bool {
    let within = |s: Span| s.start <= span.start && span.end <= s.end;
    within(stmt.span)
        || stmt.template.pieces.iter().any(|p| within(p.source))
        || stmt.operands().any(|o| within(o.constraint.span))
}

/// `%3` -> `$3` (operands in LLVM inline-asm syntax); `%%`, `%name` stay.
fn dollar_operands(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let operand = c == '%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
            && (i == 0 || bytes[i - 1] != b'%');
        out.push(if operand { '$' } else { c });
    }
    out
}

/// `$3` -> `names[3]` (`{$r1}`) where the name is known.
fn named_operands(text: &str, names: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let digits = rest[at + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let name = rest[at + 1..at + 1 + digits]
            .parse::<usize>()
            .ok()
            .and_then(|n| names.get(n));
        match name {
            Some(name) => out.push_str(name),
            None => out.push_str(&rest[at..at + 1 + digits]),
        }
        rest = &rest[at + 1 + digits..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_operands_replace_numbers() {
        let names = ["{$w0}".to_string(), "{$r0}".to_string()];
        assert_eq!(
            named_operands("input $1 (`x`) unused; $0 and $12, $$", &names),
            "input {$r0} (`x`) unused; {$w0} and $12, $$"
        );
    }

    #[test]
    fn operands_spelled_with_dollar() {
        assert_eq!(
            dollar_operands("output %0 (`x`) before %12; %%r1 %clock"),
            "output $0 (`x`) before $12; %%r1 %clock"
        );
    }
}
