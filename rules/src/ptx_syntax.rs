use crate::support::front_end::{template_words, ForStatement};
use crate::support::{
    diagnostics::{diagnostic, template_span},
    operands::operand_slots,
};
use crate::Ctx;
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::isa::{self, Role};
use ptxguard_analyzer::ptx::{Instruction, Operand, OperandKind, StatementKind, SyntaxErrorKind};
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Span};
use std::collections::BTreeMap;

declare_rule! {
    /// ## What it does
    /// Reports what ptxas would reject in a template:
    /// - an unknown instruction, with a suggestion (`reg` -> the directive `.reg`,
    ///   `ld.gloabl` -> `ld.global`, `mvo` -> `mov`);
    /// - a modifier the instruction does not have (`st.gloabl`, `.v3`; several in one
    ///   instruction are one report, the others labelled), and a few
    ///   combinations the ISA rules out for sure (`add.sat.u32`: `.sat` is for `.s32`;
    ///   `.ftz` or a rounding mode on an integer type; `mul.wide.u64`);
    /// - a missing `;` between two instructions, or after the template's last instruction;
    /// - the wrong number of operands (`add.u32 %0, %1`);
    /// - a vector operand whose size does not match `.vN` (`ld.v4` into `{%0, %1, %2}`);
    /// - a malformed address (`[%1+]`, `[]`), or an address written without brackets;
    /// - braces that do not balance over the function. A `{` opened in one asm statement
    ///   and closed in a later one of the same function is legal (ptxas sees the function's
    ///   PTX as a whole) and is not reported.
    ///
    /// Instructions built from pieces the analyzer cannot see (macro arguments, strings
    /// computed at compile time) and statements that are not PTX are left alone; modifier
    /// checks are made only for instruction families the ISA table is sure about.
    ///
    /// ## Why is this bad?
    /// ptxas rejects the generated file, and reports the error at a line of the `.ptx`
    /// file, not of your source. Measured with nvcc 13.0: `reg .u32 t1;` gives `Not a name
    /// of any known instruction: 'reg'` followed by `Arguments mismatch` on every use of
    /// `t1`; two instructions without `;` give `Parsing error near 'add': syntax error`, and
    /// a last instruction without `;` fails the same way at whatever the compiler emits after
    /// the asm (`asm volatile("trap")` before a label: `Parsing error near ':'`; Triton 3.6:
    /// near `.loc`);
    /// `ld.global.v4.f32 {%0, %1, %2}, [%3]` gives `Illegal vector size: 3` and `Argument
    /// vector size mismatch for instruction 'ld'`.
    ///
    /// ## Example
    /// ```cuda
    /// asm("{ reg .u32 t; add.u32 t, %1, %1  mov.u32 %0, t; }" : "=r"(r) : "r"(a));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("{ .reg .u32 t; add.u32 t, %1, %1; mov.u32 %0, t; }" : "=r"(r) : "r"(a));
    /// ```
    ///
    /// ## Fix
    /// Safe, for a last instruction without `;` whose last byte is written as is in a literal:
    /// inserts the `;` (in Python literals too). The other findings need the author.
    ///
    /// ## In Python
    /// Applies to Triton, MLIR and `inline_ptx` templates as to C++ ones, in LLVM's syntax
    /// (`$N`, `{$w0}`, `%laneid` as written): the missing `;` Python's joining of adjacent
    /// literals hides, an address without brackets, an operand count. Braces are balanced over
    /// the enclosing Python function. C++ held in a Python string (cupy, `load_inline`,
    /// cuda.core `Program`) is checked as C++; every span points inside the Python literal.
    pub(crate) static META = {
        name: "ptx-syntax",
        severity: Error,
        fix: Safe,
        default_enabled: true,
        summary: "PTX that ptxas rejects: unknown instruction or modifier, missing `;`, operand count, vector size, address, braces",
    }
}

/// The findings one statement shows at most: text that is not PTX at all (host assembly's
/// `.quad` data) would otherwise give one per word.
const MAX_PER_STATEMENT: usize = 8;

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        if stmt.template.is_partial() && !stmt.ptx.errors.is_empty() {
            // A piece we cannot see broke the parse (`.pragma "..." __FILE__ ...`).
            continue;
        }
        let before = out.len();
        parse_errors(stmt, out);
        unterminated_last(cx, stmt, out);
        for (_, instr) in stmt.ptx.instructions() {
            instruction(stmt, instr, out);
        }
        let found = out.len() - before;
        if found > MAX_PER_STATEMENT {
            out.truncate(before + MAX_PER_STATEMENT);
            if let Some(last) = out.pop() {
                let more = found - MAX_PER_STATEMENT;
                out.push(last.with_note(format!(
                    "{more} more syntax findings in this statement not shown"
                )));
            }
        }
    }
    braces(cx, out);
}

/// The errors the PTX parser recovered from (unbalanced `}` are judged over the function).
fn parse_errors(stmt: &AsmStatement, out: &mut Vec<Diagnostic>) {
    if stmt.template.is_partial() {
        return;
    }
    let text = &stmt.template.text;
    for e in &stmt.ptx.errors {
        let span = template_span(stmt, e.span.clone());
        let found = template_words(stmt, text.get(e.span.clone()).unwrap_or("").trim());
        let d = match &e.kind {
            SyntaxErrorKind::MissingSemicolon => diagnostic(
                &META,
                span,
                format!("missing `;` before `{found}`: ptxas reads the two instructions as one and fails with a parsing error"),
            )
            .note_for(stmt, "nvcc 13.0: `Parsing error near '...': syntax error`"),
            SyntaxErrorKind::Unterminated(what) => diagnostic(
                &META,
                span,
                match *what {
                    "comment" => "unterminated `/*` comment: ptxas rejects the template".to_string(),
                    other => format!("`{other}` is never closed: ptxas rejects the template"),
                },
            ),
            SyntaxErrorKind::Unexpected(tok) => diagnostic(
                &META,
                span,
                format!("unexpected `{}`: ptxas cannot parse this", template_words(stmt, tok)),
            ),
            SyntaxErrorKind::UnbalancedClose => continue,
        };
        out.push(d);
    }
}

/// The template's last instruction without its `;`: what the compiler emits after the asm
/// runs into it.
fn unterminated_last(cx: &Ctx, stmt: &AsmStatement, out: &mut Vec<Diagnostic>) {
    if stmt.template.is_partial() {
        return;
    }
    let Some(last) = stmt.ptx.statements.last() else {
        return;
    };
    let StatementKind::Instruction(instr) = &last.kind else {
        return;
    };
    if instr.terminated || !instr.is_complete() {
        return;
    }
    let end = last.span.end;
    let span = template_span(stmt, last.span.clone());
    let mut d = diagnostic(
        &META,
        span,
        format!(
            "`{}` has no `;`: ptxas reads what the compiler emits after the asm as part of it and fails",
            instr.base()
        ),
    )
    .note_for(stmt, "measured with nvcc 13.0 and Triton 3.6: `Parsing error near '...': syntax error` at the instruction that follows");
    // After the last byte when that byte is written as is in a literal.
    if end > 0 && stmt.template.is_verbatim(end - 1..end, cx.source()) {
        let at = stmt.source_span(end - 1..end).end as usize;
        d = d.with_fix(Fix::safe("add the `;`", vec![Edit::insert(at, ";")]));
    }
    out.push(d);
}

fn instruction(stmt: &AsmStatement, instr: &Instruction, out: &mut Vec<Diagnostic>) {
    if instr.partial || instr.parts.is_empty() {
        return;
    }
    let parts = opcode_parts(instr);
    let opcode_span = template_span(stmt, instr.opcode_span.clone());
    if !isa::is_known_opcode(&instr.opcode) {
        let mut d = diagnostic(
            &META,
            opcode_span,
            format!(
                "`{}` is not a PTX instruction: ptxas reports `Not a name of any known instruction`",
                template_words(stmt, instr.base())
            ),
        );
        if let Some(s) = suggestion(instr) {
            d = d.with_help(s);
        }
        out.push(d);
        return;
    }
    let Some(form) = isa::resolve(&parts) else {
        return;
    };
    let sure = form.family.uncertain.is_none();
    let bad: Vec<usize> = if sure {
        isa::invalid_modifiers(&parts)
            .into_iter()
            .filter(|&i| !looks_like_packed_type(&instr.parts[i].text))
            .collect()
    } else {
        Vec::new()
    };
    if !sure {
        return;
    }
    // One report per instruction: the first bad part carries the message, the others a label.
    if let Some((&first, rest)) = bad.split_first() {
        let part = &instr.parts[first];
        let message = if is_vector_size(&part.text) {
            format!("`{}` is not a vector size (`.v2`, `.v4`, `.v8`): ptxas reports `Illegal vector size`", part.text)
        } else {
            let others: Vec<String> = rest
                .iter()
                .filter(|&&i| !is_vector_size(&instr.parts[i].text))
                .map(|&i| format!("`{}`", instr.parts[i].text))
                .collect();
            if others.is_empty() {
                format!(
                    "`{}` is not a modifier of `{}`",
                    part.text, form.family.name
                )
            } else {
                format!(
                    "`{}` and {} are not modifiers of `{}`",
                    part.text,
                    others.join(", "),
                    form.family.name
                )
            }
        };
        let mut d = diagnostic(&META, template_span(stmt, part.span.clone()), message);
        for &i in rest {
            let other = &instr.parts[i];
            let what = if is_vector_size(&other.text) {
                "not a vector size"
            } else {
                "not a modifier either"
            };
            d = d.with_label(template_span(stmt, other.span.clone()), what);
        }
        if let Some(s) = isa::suggest_opcode(&instr.opcode) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        out.push(d);
    }
    if !bad.is_empty() {
        return;
    }
    if let Some((i, why)) = invalid_modifier_combination(instr) {
        out.push(diagnostic(
            &META,
            template_span(stmt, instr.parts[i].span.clone()),
            why,
        ));
        return;
    }
    let Some(form) = instr.known_form() else {
        return;
    };
    let count = instr.operands.len();
    if instr.terminated && !form.takes_operand_count(count) {
        let want = if form.min_operands == form.max_operands {
            format!("{}", form.min_operands)
        } else if form.max_operands == usize::MAX {
            format!("at least {}", form.min_operands)
        } else {
            format!("{} to {}", form.min_operands, form.max_operands)
        };
        let names: Vec<&str> = form.operands.iter().map(|o| o.name).collect();
        out.push(
            diagnostic(
                &META,
                opcode_span,
                format!(
                    "`{}` takes {want} operand{}, not {count}: ptxas reports `Arguments mismatch`",
                    instr.opcode,
                    if want == "1" { "" } else { "s" }
                ),
            )
            .with_note(format!("operands: {}", names.join(", "))),
        );
        return;
    }
    for (_, operand, slot) in operand_slots(instr, form) {
        let Some(slot) = slot else { continue };
        let span = template_span(stmt, operand.span.clone());
        // Vector sizes.
        if let Some(n) = slot.vector.filter(|n| *n > 1) {
            let alt_fits = slot.alt.is_some_and(|a| a.fragment);
            match &operand.kind {
                OperandKind::Vector(items) if items.len() != n as usize && !alt_fits => {
                    out.push(
                        diagnostic(
                            &META,
                            span,
                            format!(
                                "`{}` needs {n} registers here, this vector has {}: ptxas reports `Argument vector size mismatch`",
                                instr.opcode,
                                items.len()
                            ),
                        )
                        .note_for(stmt, "nvcc 13.0 on `ld.global.v4.f32 {%0, %1, %2}`: `Illegal vector size: 3`"),
                    );
                }
                OperandKind::Register { name, .. } if declared_vector(stmt, name) => {}
                OperandKind::Placeholder(_) | OperandKind::Register { .. } if !alt_fits => {
                    out.push(diagnostic(
                        &META,
                        span,
                        format!(
                            "`{}` needs a vector of {n} registers `{{...}}` here, not a single one",
                            instr.opcode
                        ),
                    ));
                }
                _ => {}
            }
        }
        // Addresses.
        let addr_slot = slot.role == Role::Addr;
        let alt_addr = slot.alt.is_some_and(|a| a.role == Role::Addr);
        if addr_slot {
            match &operand.kind {
                OperandKind::Address { .. } | OperandKind::AddressList(_) => {
                    if let Some(why) = malformed_address(&stmt.template.text, operand) {
                        out.push(diagnostic(&META, span, template_words(stmt, &why)));
                    }
                }
                OperandKind::Placeholder(_) | OperandKind::Register { .. } if !alt_addr => {
                    out.push(diagnostic(
                        &META,
                        span,
                        format!(
                            "the address operand of `{}` must be written in brackets: `[...]`",
                            instr.opcode
                        ),
                    ));
                }
                _ => {}
            }
        }
    }
}

/// A register the template declares as a vector (`.reg .v4 .f32 v;`): PTX takes it where a
/// `{...}` vector goes.
fn declared_vector(stmt: &AsmStatement, name: &str) -> bool {
    stmt.ptx.statements.iter().any(|s| match &s.kind {
        ptxguard_analyzer::ptx::StatementKind::Directive(d) => {
            d.name == ".reg"
                && d.modifiers.iter().any(|m| is_vector_size(&m.text))
                && d.declared.iter().any(|n| n.name == name)
        }
        _ => false,
    })
}

/// `.u8x4`, `.e3m4x2`: a packed type of a PTX ISA newer than the table's.
fn looks_like_packed_type(part: &str) -> bool {
    let p = part.strip_prefix('.').unwrap_or(part);
    let Some((elem, count)) = p.rsplit_once('x') else {
        return false;
    };
    !count.is_empty()
        && count.bytes().all(|b| b.is_ascii_digit())
        && elem.len() >= 2
        && elem.as_bytes()[0].is_ascii_alphabetic()
        && elem.as_bytes()[elem.len() - 1].is_ascii_digit()
}

fn is_vector_size(part: &str) -> bool {
    part.strip_prefix(".v")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A suggestion for an unknown instruction: a directive missing its dot, or the nearest
/// known opcode.
fn suggestion(instr: &Instruction) -> Option<String> {
    let base = instr.base();
    if isa::DIRECTIVES.contains(&format!(".{base}").as_str()) {
        return Some(format!(
            "`{base}` looks like the directive `.{base}`: write `.{base}`"
        ));
    }
    isa::suggest_opcode(&instr.opcode).map(|s| format!("did you mean `{s}`?"))
}

/// Braces over each function: a `{` opened in one statement may be closed in a later one.
fn braces(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let mut groups: BTreeMap<(u32, u32), Vec<&AsmStatement>> = BTreeMap::new();
    let mut loose = Vec::new();
    for stmt in cx.ptx_statements() {
        if stmt.macro_name.is_some() {
            // A macro body's order relative to other statements is not known.
            loose.push(stmt);
            continue;
        }
        match &stmt.context.function {
            Some(f) => groups
                .entry((f.body.start, f.body.end))
                .or_default()
                .push(stmt),
            None => loose.push(stmt),
        }
    }
    for stmt in loose {
        if stmt.macro_name.is_some() && stmt.ptx.open_braces_at_end != 0 {
            // Macros that open or close a scope are meant to be used in pairs.
            continue;
        }
        balance(&[stmt], out);
    }
    for (_, stmts) in groups {
        if let [only] = stmts[..] {
            if crate::support::front_end::only_a_brace(only) {
                // A function whose one asm only opens (or closes) a scope, for the asm its
                // callers run before the matching call (`nestStart()` ... `nestEnd()`):
                // balanced, if at all, across functions.
                continue;
            }
        }
        let same_conditions = stmts.windows(2).all(|w| {
            let a: Vec<&str> = w[0]
                .context
                .conditions
                .iter()
                .map(|c| c.text.as_str())
                .collect();
            let b: Vec<&str> = w[1]
                .context
                .conditions
                .iter()
                .map(|c| c.text.as_str())
                .collect();
            a == b
        });
        if !same_conditions && stmts.iter().any(|s| s.ptx.open_braces_at_end != 0) {
            // Braces spread over different #if branches: which statements are compiled
            // together is not known; judge only what balances within one statement.
            for s in &stmts {
                if s.ptx.open_braces_at_end == 0 && s.ptx.min_depth == 0 {
                    balance(&[s], out);
                }
            }
            continue;
        }
        balance(&stmts, out);
    }
}

fn balance(stmts: &[&AsmStatement], out: &mut Vec<Diagnostic>) {
    if stmts.iter().any(|s| s.template.is_partial()) {
        return;
    }
    let mut open: Vec<Span> = Vec::new();
    for stmt in stmts {
        for s in &stmt.ptx.statements {
            match s.kind {
                StatementKind::OpenBrace => open.push(template_span(stmt, s.span.clone())),
                StatementKind::CloseBrace if open.pop().is_none() => {
                    out.push(diagnostic(
                        &META,
                        template_span(stmt, s.span.clone()),
                        "`}` closes no `{` opened earlier in this function: ptxas rejects it",
                    ));
                }
                _ => {}
            }
        }
    }
    for span in open {
        out.push(diagnostic(
            &META,
            span,
            "`{` is never closed in this function: ptxas rejects the unbalanced scope",
        ));
    }
}

/// The opcode split into parts as the ISA wants them: `ld`, `.global`, `.u32`.
fn opcode_parts(instr: &Instruction) -> Vec<&str> {
    instr.parts.iter().map(|p| p.text.as_str()).collect()
}

/// Modifier combinations the PTX ISA rules out for sure, which the per-family modifier lists
/// cannot express: `.sat` on an integer type other than `.s32` (`add`/`sub`), `.ftz` or a
/// floating-point rounding mode on an integer `add`/`sub`/`mul`/`mad`/`min`/`max`, `.hi`/`.lo`/
/// `.wide` on a floating-point `mul`/`mad`, `.wide` on 64-bit types. Returns the index of the
/// offending part and the message.
fn invalid_modifier_combination(instr: &Instruction) -> Option<(usize, String)> {
    let base = instr.base();
    if !matches!(base, "add" | "sub" | "mul" | "mad" | "min" | "max") {
        return None;
    }
    let types: Vec<(usize, isa::PtxType)> = instr
        .parts
        .iter()
        .enumerate()
        .skip(1)
        .filter_map(|(i, p)| isa::PtxType::parse(&p.text).map(|t| (i, t)))
        .collect();
    // Exactly one type: mixed-precision and packed forms are left alone.
    let [(_, ty)] = types.as_slice() else {
        return None;
    };
    let integer = ty.is_integer() || ty.class == isa::TypeClass::Bits;
    let float = ty.class == isa::TypeClass::Float && matches!(ty.bits, 32 | 64);
    let name = ty.to_string();
    for (i, p) in instr.parts.iter().enumerate().skip(1) {
        let m = p.text.as_str();
        let why = match m {
            ".sat"
                if matches!(base, "add" | "sub")
                    && integer
                    && !(ty.class == isa::TypeClass::Signed && ty.bits == 32) =>
            {
                Some(format!("`.sat` is only defined for `{base}.s32` among integer types, not `{base}{name}`"))
            }
            ".ftz" | ".rn" | ".rz" | ".rm" | ".rp" if integer => Some(format!(
                "`{m}` is a floating-point modifier; `{base}{name}` is an integer instruction"
            )),
            ".hi" | ".lo" | ".wide" if float && matches!(base, "mul" | "mad") => Some(format!(
                "`{m}` is an integer modifier; `{base}{name}` is a floating-point instruction"
            )),
            ".wide" if ty.bits == 64 && matches!(base, "mul" | "mad") => Some(format!(
                "`{base}.wide` doubles the width of 16- and 32-bit operands; there is no `{base}.wide{name}`"
            )),
            _ => None,
        };
        if let Some(why) = why {
            return Some((i, why));
        }
    }
    None
}

/// Why a bracketed address is malformed (`[%1+]`, `[]`, `[+4]`, `[a++4]`), by its text.
fn malformed_address(template: &str, operand: &Operand) -> Option<String> {
    let text = template.get(operand.span.clone())?;
    if text.contains(ptxguard_analyzer::ptx::HOLE) {
        return None;
    }
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    if matches!(operand.kind, OperandKind::AddressList(_)) {
        return None;
    }
    if inner.is_empty() {
        return Some("empty address `[]`".to_string());
    }
    let compact: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.ends_with(['+', '-']) {
        return Some(format!(
            "malformed address `{text}`: nothing follows the `{}`",
            compact.chars().last().unwrap_or('+')
        ));
    }
    if compact.starts_with('+') || compact.contains("++") || compact.contains("--") {
        return Some(format!("malformed address `{text}`"));
    }
    None
}

#[cfg(test)]
mod tests {
    /// A CuTe DSL template is quoted with the operand names it writes (`{$w0}`), not the
    /// `$0` the front end decodes them to.
    #[test]
    fn cute_templates_are_quoted_as_written() {
        let text = "import cutlass.cute as cute\nfrom cutlass import Int32\n\n\n@cute.jit\ndef f(x):\n    return cute.arch.inline_ptx(\n        \"{$w0} {$r0};\",\n        write_only_types=[Int32],\n        read_only_args=[x],\n    )\n";
        let file = ptxguard_analyzer::SourceFile::new("k.py", text);
        let messages: Vec<String> = crate::check(&file, &Default::default(), &Default::default())
            .into_iter()
            .filter(|d| d.rule == super::META.name)
            .map(|d| d.message)
            .collect();
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with("`{$w0}` is not a PTX instruction")),
            "{messages:?}"
        );
    }
}
