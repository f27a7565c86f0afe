use crate::support::cpp_uses::{
    call_sites, condition_names, is_copy, parameter_names, read_after_call, reads_of_left_value,
    uses_after, value_set_before, After,
};
use crate::support::diagnostics::{diagnostic, template_span};
use crate::support::front_end::{operand_ref, ForStatement};
use crate::Ctx;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement, Origin};
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity};

declare_rule! {
    /// ## What it does
    /// Flags an instruction that writes a placeholder bound to an **input** operand: the
    /// operand is in a destination position (`Dst`/`DstSrc` in the ISA table), including an
    /// element of a `{...}` vector destination and either half of a `d|p` pair.
    ///
    /// ## Why is this bad?
    /// An input tells the compiler the asm only reads that register, so the compiler keeps
    /// using it afterwards, for the C++ variable or for any other value it decided to keep
    /// there. Writing it silently changes that value. Measured with nvcc 13.0:
    /// `asm volatile("mov.u32 %0, 5;" :: "r"(x))` followed by `return x` with `x = 1`
    /// returned 5. CUTLASS and CCCL have shipped templates like this and later fixed them.
    /// A **warning**: a measured wrong result that no toolchain rejects, when the code in view
    /// gives the compiler a reason to keep the value: the variable is read after the asm (or
    /// the asm is in a loop that reads it again), its value is a constant (which the compiler
    /// keeps in one register for every use), or it is a copy of a variable read afterwards.
    /// For a by-value parameter the callers in the file are read the same way: an argument
    /// that is a constant, is named again after the call, or is passed inside a loop (unless
    /// the call's result replaces it: `value = step(value, d);`). An output of the same asm
    /// bound to the same variable (`: "=r"(x) : "r"(x)`) replaces it too. Where
    /// none of that holds (the value is dead after the asm, or nothing in the file calls the
    /// helper), the finding is **info**: true of the contract, but nothing here makes it bite.
    /// Python calls are always a warning (Triton's values are shared across the kernel).
    ///
    /// ## Example
    /// ```cuda
    /// // Clobbers `n` while counting down.
    /// asm volatile("{ .reg .pred p; L: sub.u32 %0, %0, 1; setp.ne.u32 p, %0, 0; @p bra L; }" :: "r"(n));
    /// ```
    /// Use instead (a scratch register, or make the operand `"+r"` if the new value is wanted):
    /// ```cuda
    /// asm volatile("{ .reg .pred p; .reg .u32 t; mov.u32 t, %0; L: sub.u32 t, t, 1; setp.ne.u32 p, t, 0; @p bra L; }" :: "r"(n));
    /// ```
    ///
    /// ## Fix
    /// Unsafe, and only offered when it can be expressed without renumbering the other
    /// placeholders: the written operand is the **first** input, its expression is a plain
    /// variable, member or array element, and the constraint is a plain register literal.
    /// Then the operand moves to the end of the outputs as `"+r"` and keeps its number. It is
    /// unsafe because the C++ variable now receives the value the template leaves in it; a
    /// scratch register declared in the template is often what was meant. Otherwise no fix
    /// is offered.
    ///
    /// ## In Python
    /// On Triton, MLIR and `inline_ptx` calls it applies as on C++, except that an input tied
    /// to an output (`0` in the constraint string) shares that output's register: writing it
    /// writes the result and is not reported. Measured with Triton 3.6 on an H200: `add.u32
    /// $1, $1, 1;` changed `x` for the code after the call (`r + x` gave 2x + 2, not 2x + 1);
    /// a scratch register in `{ }` kept it. No fix there (it rewrites a C++ operand list).
    /// C++ held in a Python string is checked as C++, with spans inside the Python literal;
    /// the fix is not offered there, since it would insert quotes into the literal.
    pub(crate) static META = {
        name: "write-to-input",
        severity: Warning,
        fix: Unsafe,
        default_enabled: true,
        summary: "an instruction writes an operand declared as an input",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        if stmt.inputs.is_empty() {
            continue;
        }
        let flow = cx.flow(stmt);
        let mut reported = vec![false; stmt.operand_count()];
        for u in &flow.uses {
            if !u.access.writes() || u.in_guard || reported[u.operand] {
                continue;
            }
            let Some(op) = stmt.operand(u.operand) else {
                continue;
            };
            if op.is_output || tied_to_output(op) {
                continue;
            }
            reported[u.operand] = true;
            let instr = flow.steps[u.step].instr;
            let mut d = diagnostic(
                &META,
                template_span(stmt, u.span.clone()),
                format!(
                    "`{}` writes {}, an input (`{}`): the compiler does not expect the register to change and keeps using it",
                    instr.opcode, operand_ref(stmt, op.index), op.expr
                ),
            )
            .with_label(op.constraint.span, "declared as an input here")
            .note_for(stmt, "measured with nvcc 13: writing an input silently changed the C++ variable bound to it");
            if let Reuse::NotInView(why) = reuse(cx, stmt, op) {
                d.severity = Severity::Info;
                d = d.note_for(stmt, why);
            }
            if let Some(fix) = make_read_write(cx.source(), stmt, op) {
                d = d.cpp_fix_for(stmt, fix);
            }
            out.push(d);
        }
    }
}

/// Whether the code in view still uses the value the asm overwrites.
enum Reuse {
    /// It does (or may: the model cannot follow the value).
    Possible,
    /// Nothing in view reads it again, and why.
    NotInView(String),
}

/// What the code around a C++ asm does with an input's value after the asm (see the rule's
/// documentation for the cases).
fn reuse(cx: &Ctx, stmt: &AsmStatement, op: &AsmOperand) -> Reuse {
    let expr = op.expr.trim();
    let Some(function) = &stmt.context.function else {
        return Reuse::Possible;
    };
    if !matches!(stmt.origin, Origin::Cpp) || is_constant(expr) || !is_identifier(expr) {
        return Reuse::Possible;
    }
    let read_later = |name: &str| match uses_after(cx, stmt, name) {
        After::Unknown => true,
        After::Uses(uses) => !reads_of_left_value(&uses).is_empty(),
    };
    // `: "=r"(x) : "r"(x)`: the asm's own output replaces the variable, so later reads see
    // the output, not the input's register.
    let replaced = stmt.outputs.iter().any(|o| o.expr.trim() == expr);
    if !replaced && read_later(expr) {
        return Reuse::Possible;
    }
    if let Some(value) = value_set_before(cx, stmt, expr) {
        if is_constant(&value) {
            return Reuse::Possible;
        }
        // A copy (`T t = x;`, `t = (unsigned)x;`) may share `x`'s register; a computed value
        // is a new one.
        if is_copy(&value) && condition_names(&value).iter().any(|n| read_later(n)) {
            return Reuse::Possible;
        }
        return Reuse::NotInView(format!(
            "`{expr}` is not used after the asm and holds a value computed for it here: the write changes nothing the code reads"
        ));
    }
    let Some(index) =
        parameter_names(cx, function).and_then(|names| names.iter().position(|n| n == expr))
    else {
        return Reuse::Possible;
    };
    let sites = call_sites(cx, function);
    if called_from_a_macro(cx, &function.name) {
        // A `#define`'s uses are not followed.
        return Reuse::Possible;
    }
    if sites.is_empty() {
        return Reuse::NotInView(format!(
            "`{expr}` is not used after the asm, and nothing in this file calls `{}` to show a caller that uses the value again",
            function.name
        ));
    }
    for site in &sites {
        let Some(arg) = site.args.get(index) else {
            return Reuse::Possible;
        };
        if is_constant(arg) || read_after_call(cx, site, &condition_names(arg)) {
            return Reuse::Possible;
        }
    }
    Reuse::NotInView(format!(
        "`{expr}` is not used after the asm, and no call of `{}` in this file passes a constant or a value it uses again",
        function.name
    ))
}

/// Whether a `#define` of the file names the function: its calls through the macro are not
/// call sites [`call_sites`] sees.
fn called_from_a_macro(cx: &Ctx, name: &str) -> bool {
    use ptxguard_analyzer::cpp::lexer::TokenKind;
    let source = cx.source();
    cx.tokens().iter().any(|t| {
        t.kind == TokenKind::Directive && {
            let line = &source[t.span.range()];
            line.trim_start_matches(['#', ' ', '\t'])
                .starts_with("define")
                && line
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .skip(2)
                    .any(|w| w == name)
        }
    })
}

/// A literal (`0`, `1u`, `0.0f`, `-1`, `'a'`) or an ALL-CAPS name (a macro or constant): a
/// value the compiler may keep in one register for every use.
fn is_constant(expr: &str) -> bool {
    let e = expr.trim().trim_start_matches(['-', '+', '~']).trim();
    let Some(first) = e.chars().next() else {
        return false;
    };
    if first.is_ascii_digit() || (first == '.' && e.len() > 1) || first == '\'' {
        return true;
    }
    matches!(e, "true" | "false" | "nullptr")
        || (is_identifier(e)
            && e.chars().any(|c| c.is_ascii_uppercase())
            && !e.chars().any(|c| c.is_ascii_lowercase()))
}

fn is_identifier(expr: &str) -> bool {
    !expr.is_empty()
        && !expr.starts_with(|c: char| c.is_ascii_digit())
        && expr.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An LLVM input tied to an output (`0` in a Python call's constraints, which the front end
/// spells `+0`): it shares the output's register, so writing it writes that output.
fn tied_to_output(op: &AsmOperand) -> bool {
    op.constraint
        .text
        .strip_prefix('+')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Moves the first input to the end of the outputs as `"+X"`: its number stays the same.
fn make_read_write(source: &str, stmt: &AsmStatement, op: &AsmOperand) -> Option<Fix> {
    if op.index != stmt.outputs.len() || !op.constraint.known {
        return None;
    }
    if stmt.operands().any(|o| o.missing_comma_at.is_some()) {
        return None;
    }
    let letter = op.constraint.letter()?;
    if !"hrlfdq".contains(letter) || op.constraint.text != letter.to_string() {
        return None;
    }
    if !is_simple_lvalue(&op.expr) || op.expr_span.is_empty() {
        return None;
    }
    let inner = op.constraint.inner_span(source)?;
    // The operand as written: `[name] "r" (expr)`.
    let start = match &op.name {
        Some((_, name_span)) => source[..name_span.start as usize].rfind('[')?,
        None => op.constraint.span.start as usize,
    };
    let close = op.expr_span.end as usize + source[op.expr_span.end as usize..].find(')')? + 1;
    if !source[op.expr_span.end as usize..close - 1]
        .trim()
        .is_empty()
    {
        return None;
    }
    let new_text = format!(
        "{}+{}",
        &source[start..inner.start as usize],
        &source[inner.start as usize..close]
    );
    // What to delete: the operand and the comma after it (or nothing more when it is the
    // only input).
    let next = stmt.inputs.get(1);
    let delete_end = match next {
        Some(_) => {
            let after = &source[close..];
            let comma = after.find(',')?;
            let rest = &after[comma + 1..];
            close + comma + 1 + (rest.len() - rest.trim_start().len())
        }
        None => close,
    };
    if let Some(n) = next {
        let next_start = match &n.name {
            Some((_, s)) => source[..s.start as usize].rfind('[')?,
            None => n.constraint.span.start as usize,
        };
        if delete_end != next_start {
            return None;
        }
    }
    let insert = match stmt.outputs.last() {
        Some(last) => {
            let at =
                last.expr_span.end as usize + source[last.expr_span.end as usize..].find(')')? + 1;
            Edit::insert(at, format!(", {new_text}"))
        }
        None => {
            let colon = stmt.colons.first()?;
            let space = if source[colon.end as usize..].starts_with(':') {
                " "
            } else {
                ""
            };
            Edit::insert(colon.end as usize, format!(" {new_text}{space}"))
        }
    };
    Some(Fix::unsafe_(
        format!("make %{} a read-write output (`\"+{letter}\"`)", op.index),
        vec![
            insert,
            Edit::delete(ptxguard_analyzer::Span::new(start, delete_end)),
        ],
    ))
}

/// A variable, member or array element: something `"+r"` can bind.
fn is_simple_lvalue(expr: &str) -> bool {
    let e = expr.trim();
    if e.is_empty() || e.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let mut depth = 0i32;
    let bytes: Vec<char> = e.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            '.' | '_' => {}
            '-' if bytes.get(i + 1) == Some(&'>') => i += 1,
            ':' if bytes.get(i + 1) == Some(&':') => i += 1,
            c if c.is_alphanumeric() => {}
            c if depth > 0 && (c.is_whitespace() || "+-*".contains(c)) => {}
            _ => return false,
        }
        i += 1;
    }
    depth == 0
}

#[cfg(test)]
mod tests {
    use super::is_simple_lvalue;
    use ptxguard_analyzer::diag::apply_edits;
    use ptxguard_analyzer::SourceFile;

    /// The statement after applying the rule's fix, `None` when no fix is offered.
    fn fixed(asm: &str) -> Option<String> {
        let text = format!(
            "__device__ void f(unsigned acc, unsigned k, unsigned* p) {{ unsigned r; {asm}; }}"
        );
        let file = SourceFile::new("t.cu", text.clone());
        let diags = crate::check(&file, &Default::default(), &Default::default());
        let d = diags
            .iter()
            .find(|d| d.rule == "write-to-input")
            .expect("fires");
        let fix = d.fix.as_ref()?;
        let (out, n) = apply_edits(&text, &fix.edits);
        assert_eq!(n, fix.edits.len());
        let start = out.find("asm")?;
        Some(out[start..out.rfind(';')?].to_string())
    }

    #[test]
    fn fix_moves_the_first_input_to_the_outputs() {
        assert_eq!(
            fixed(r#"asm("mul.lo.u32 %0, %0, %1;" :: "r"(acc), "r"(k))"#).as_deref(),
            Some(r#"asm("mul.lo.u32 %0, %0, %1;" : "+r"(acc) : "r"(k))"#)
        );
        assert_eq!(
            fixed(r#"asm("mov.u32 %0, 5;" :: "r"(acc))"#).as_deref(),
            Some(r#"asm("mov.u32 %0, 5;" : "+r"(acc) : )"#)
        );
        assert_eq!(
            fixed(r#"asm("{ add.u32 %1, %1, %2; mov.u32 %0, %1; }" : "=r"(r) : [a] "r"(acc), "r"(k) : "memory")"#).as_deref(),
            Some(r#"asm("{ add.u32 %1, %1, %2; mov.u32 %0, %1; }" : "=r"(r), [a] "+r"(acc) : "r"(k) : "memory")"#)
        );
    }

    #[test]
    fn no_fix_when_numbers_would_change_or_the_operand_is_not_an_lvalue() {
        // The second input: moving it would renumber the first.
        assert_eq!(
            fixed(r#"asm("add.u32 %1, %1, %0;" :: "r"(k), "r"(acc))"#),
            None
        );
        // An expression cannot be "+r".
        assert_eq!(fixed(r#"asm("add.u32 %0, %0, 1;" :: "r"(acc + 1))"#), None);
    }

    #[test]
    fn an_input_tied_to_an_output_may_be_written() {
        let check = |constraints: &str| {
            let text = format!(
                "from cutlass._mlir.dialects import llvm\n\ndef f(acc, x):\n    return llvm.inline_asm(T.i32(), [acc, x], \"add.u32 $1, $1, $2;\", \"{constraints}\")\n"
            );
            let file = SourceFile::new("t.py", text);
            crate::check(&file, &Default::default(), &Default::default())
                .iter()
                .filter(|d| d.rule == "write-to-input")
                .count()
        };
        // `0`: $1 is $0's register, the result.
        assert_eq!(check("=r,0,r"), 0);
        // `r`: $1 is the caller's value.
        assert_eq!(check("=r,r,r"), 1);
    }

    #[test]
    fn lvalues() {
        for e in ["x", "v.x", "p->y", "a[i]", "a[i + 1].z", "ns::g"] {
            assert!(is_simple_lvalue(e), "{e}");
        }
        for e in ["x + 1", "f(x)", "(int)x", "*p", "1", "x ? y : z"] {
            assert!(!is_simple_lvalue(e), "{e}");
        }
    }
}
