//! Findings in the terms of the statement's front end, worded by each rule as it makes them
//! (nothing rewrites a finding afterwards). A Triton, MLIR or CuTe DSL call
//! (`AsmStatement::python`) hands its asm to LLVM, not nvcc: operands are written `$N` (the
//! CuTe DSL names them, `{$r0}`), what nvcc does is no fact about it, and fixes written for
//! C++ text do not apply. C++ in a Python string is C++ (nvcc or NVRTC reads it); its fixes
//! must not end the literal ([`breaks_python_literal`]).

use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Span};

/// Rules that say nothing about Python calls: `cuda::ptx` wrappers and CUDA intrinsics are
/// C++, and the constraint letters LLVM takes (`i`, `n`, `b`...) are not nvcc's. Each skips
/// those calls itself; a file whose statements are all Python calls does not run them.
pub(crate) const NOT_FOR_PYTHON_CALLS: &[&str] = &[
    "prefer-cuda-ptx",
    "prefer-intrinsic",
    "unsupported-constraint",
];

/// Whether LLVM, not nvcc, reads the statement's asm (a Triton, MLIR or CuTe DSL call).
pub(crate) fn llvm_reads(stmt: &AsmStatement) -> bool {
    stmt.python().is_some()
}

/// Operand `index` as the statement's own syntax writes it: `%3` in C++, `$3` in a Python
/// call, the CuTe DSL's name (`{$r1}`) where the call names its operands.
pub(crate) fn operand_ref(stmt: &AsmStatement, index: usize) -> String {
    match stmt.python() {
        None => format!("%{index}"),
        Some(call) => call
            .operand_names
            .get(index)
            .cloned()
            .unwrap_or_else(|| format!("${index}")),
    }
}

/// Template text quoted in a finding, in the statement's own terms: a CuTe DSL call's
/// placeholders (`$1`, as the front end decodes them) by the names its template writes
/// (`{$r0}`); any other text as it is.
pub(crate) fn template_words(stmt: &AsmStatement, text: &str) -> String {
    let names = match stmt.python() {
        Some(call) if !call.operand_names.is_empty() => &call.operand_names,
        _ => return text.to_string(),
    };
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

/// What a rule adds to a finding about one statement, in that statement's terms.
pub(crate) trait ForStatement: Sized {
    /// A note, unless it speaks of nvcc (what nvcc does, what was measured with it) and LLVM
    /// reads the statement: then no note.
    fn note_for(self, stmt: &AsmStatement, note: impl Into<String>) -> Self;
    /// A fix that edits the text as C++ (its operands, constraints, `asm` keywords): none for
    /// a Python call, whose text is Python.
    fn cpp_fix_for(self, stmt: &AsmStatement, fix: Fix) -> Self;
}

impl ForStatement for Diagnostic {
    fn note_for(self, stmt: &AsmStatement, note: impl Into<String>) -> Self {
        let note = note.into();
        if llvm_reads(stmt) && note.contains("nvcc") {
            // The last note said wins: an earlier one does not stand in for this one.
            return Diagnostic { note: None, ..self };
        }
        self.with_note(note)
    }

    fn cpp_fix_for(self, stmt: &AsmStatement, fix: Fix) -> Self {
        if llvm_reads(stmt) {
            return Diagnostic { fix: None, ..self };
        }
        self.with_fix(fix)
    }
}

/// Whether a fix's edits could end or change the Python literal that holds the C++ (a quote,
/// a backslash, a brace of an f-string).
pub(crate) fn breaks_python_literal(fix: &Fix) -> bool {
    fix.edits
        .iter()
        .any(|e| e.replacement.contains(['"', '\'', '\\', '{', '}']))
}

/// Whether an edit in a Python string would change an escape beside it: text placed right
/// after an escape's backslash (`\%%` with the first `%` removed reads `\` with whatever
/// follows: before a line continuation, an escaped backslash and a literal broken by the
/// newline), or a digit brought next to a short octal escape (`\4` + `5`). Python keeps an
/// unknown escape's backslash, so a template's bytes can sit right after one.
pub(crate) fn changes_python_escape(source: &str, edit: &Edit) -> bool {
    let bytes = source.as_bytes();
    let start = (edit.span.start as usize).min(bytes.len());
    let end = (edit.span.end as usize).clamp(start, bytes.len());
    let before = &bytes[..start];
    // An unescaped backslash: the last of an odd run.
    let backslashes = |text: &[u8]| text.iter().rev().take_while(|&&b| b == b'\\').count();
    if backslashes(before) % 2 == 1 {
        return true;
    }
    let next = edit
        .replacement
        .bytes()
        .next()
        .or_else(|| bytes.get(end).copied());
    let octal = |b: &u8| (b'0'..=b'7').contains(b);
    let digits = before.iter().rev().take_while(|b| octal(b)).count();
    (1..=2).contains(&digits)
        && backslashes(&before[..before.len() - digits]) % 2 == 1
        && next.as_ref().is_some_and(octal)
}

/// Whether a finding is about this statement: inside the call, or inside a literal it takes
/// through a name (a template or constraint string bound elsewhere in the file).
pub(crate) fn owns(stmt: &AsmStatement, span: Span) -> bool {
    let within = |s: Span| s.start <= span.start && span.end <= s.end;
    within(stmt.span)
        || stmt.template.pieces.iter().any(|p| within(p.source))
        || stmt.operands().any(|o| within(o.constraint.span))
}

/// A statement whose whole PTX is a lone `{` or `}` (`asm volatile("{");`): a helper that
/// opens or closes a scope for the asm its callers run between, as a scope macro does.
pub(crate) fn only_a_brace(stmt: &AsmStatement) -> bool {
    use ptxguard_analyzer::ptx::StatementKind;
    !stmt.template.is_partial()
        && matches!(
            stmt.ptx.statements.as_slice(),
            [s] if matches!(s.kind, StatementKind::OpenBrace | StatementKind::CloseBrace)
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_statement(name: &str, text: &str) -> AsmStatement {
        let file = ptxguard_analyzer::SourceFile::new(name, text.to_string());
        ptxguard_analyzer::statements::find_asm_statements(&file).remove(0)
    }

    #[test]
    fn an_edit_beside_a_python_escape_changes_it() {
        let delete =
            |src: &str, at: usize| changes_python_escape(src, &Edit::delete(Span::new(at, at + 1)));
        // `\%` + continuation + `%`: removing the first `%` makes `\\` + newline.
        let src = "x = \".a;\\%\\\n%n\"";
        let first = src.find('%').unwrap();
        assert!(delete(src, first));
        assert!(!delete(src, src.rfind('%').unwrap()));
        // An escaped backslash before the edit is no escape of it.
        let src = "x = \"\\\\%%\"";
        assert!(!delete(src, src.find('%').unwrap()));
        // A short octal escape meets a digit.
        let src = "x = \"\\4%5\"";
        assert!(delete(src, src.find('%').unwrap()));
        let src = "x = \"\\444%5\"";
        assert!(!delete(src, src.find('%').unwrap()));
    }

    #[test]
    fn operands_in_each_front_end_s_terms() {
        let cute = first_statement(
            "t.py",
            "import cutlass.cute as cute\n@cute.jit\ndef f(a, b):\n    return cute.arch.inline_ptx(\"max.s32 {$w0}, {$r0}, {$r1};\", write_only_types=[Int32], read_only_args=[a, b])\n",
        );
        assert_eq!(operand_ref(&cute, 1), "{$r0}");
        assert_eq!(operand_ref(&cute, 7), "$7");
        assert_eq!(
            template_words(&cute, "`$2` and $0, $12, $$"),
            "`{$r1}` and {$w0}, $12, $$"
        );
        let triton = first_statement(
            "t.py",
            "import triton.language as tl\ny = tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r,r\", [x], dtype=tl.int32, is_pure=True, pack=1)\n",
        );
        assert_eq!(operand_ref(&triton, 1), "$1");
        assert_eq!(template_words(&triton, "$1"), "$1");
        let cpp = first_statement(
            "k.cu",
            "__device__ void f(int x) { asm(\"mov.b32 %0, %0;\" : \"+r\"(x)); }\n",
        );
        assert_eq!(operand_ref(&cpp, 0), "%0");
        assert!(!llvm_reads(&cpp) && llvm_reads(&triton) && llvm_reads(&cute));
    }
}
