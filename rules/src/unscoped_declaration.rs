use crate::support::diagnostics::{diagnostic, template_span};
use crate::support::front_end::ForStatement;
use crate::Ctx;
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::ptx::{StatementKind, SyntaxErrorKind};
use ptxguard_analyzer::template::PieceKind;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity};

declare_rule! {
    /// ## What it does
    /// Flags declarations (`.reg`, `.pred` registers, `.local`, `.shared`...) and labels at
    /// the top level of a template, outside `{ }`.
    ///
    /// ## Why is this bad?
    /// An asm statement is pasted into the function's PTX each time it is instantiated. When
    /// the function is inlined twice, a loop is unrolled, or a macro expands twice, the same
    /// name is defined twice in one scope and ptxas stops: `Duplicate definition of variable
    /// 't1'` / `Duplicate definition of label 'DONE'` (measured with nvcc 13.0). It compiles
    /// today only because the statement happens to appear once. In a loop it does not even
    /// need a second call: nvcc 13 -O3 copied such an asm, and ptxas failed, in every loop tried
    /// (a runtime trip count, a constant one, `#pragma unroll 4`) and in a helper inlined twice
    /// (`gpu-tests/measure/labels-in-loops.sh`); written once outside loops, it compiled.
    ///
    /// One finding per statement: one fix scopes every name, so the others are labels on it.
    ///
    /// Labels that contain `%=` are unique per instance and are not reported, nor is an asm
    /// written directly in a `__global__` function's body outside loops and macros (a kernel
    /// is emitted once: it is never inlined), nor a template the parser could not read.
    ///
    /// A name another asm statement of the function uses without declaring it (`.reg .f32
    /// acc;` in one, `mov.b32 $0, acc;` in a later one; in Python, of the file) is shared on
    /// purpose: `{ }` would hide it
    /// from the other statement, so the finding is *info*, without a fix.
    ///
    /// ## Example
    /// ```cuda
    /// asm(".reg .u32 t1;\n mov.u32 t1, %1;\n add.u32 %0, t1, 1;" : "=r"(y) : "r"(x));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("{\n .reg .u32 t1;\n mov.u32 t1, %1;\n add.u32 %0, t1, 1;\n}" : "=r"(y) : "r"(x));
    /// ```
    ///
    /// ## Fix
    /// Safe: wraps the template in `{ }`.
    ///
    /// ## In Python
    /// Triton emits an `inline_asm_elementwise` asm once per group of `pack`
    /// elements each thread holds: a `.reg` outside `{ }` is defined twice as soon as a thread
    /// holds two groups. Measured with Triton 3.6: 256 elements over 128 threads, ptxas
    /// `Duplicate definition of variable 't'`; with `{ }` the values were right.
    /// C++ in Python strings: as in C++ files, spans inside the Python literal.
    pub(crate) static META = {
        name: "unscoped-declaration",
        severity: Warning,
        fix: Safe,
        default_enabled: true,
        summary: "a declaration or label outside `{ }` that breaks when the asm is instantiated twice",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    // Braces may be opened by one statement and closed by a later one in the same function.
    let mut open_before: i32 = 0;
    let mut current_function = None;
    // A statement that only opens a scope, for the asm its callers run after it.
    let scope_helper = cx
        .statements
        .iter()
        .find(|s| crate::support::front_end::only_a_brace(s) && s.ptx.open_braces_at_end > 0)
        .map(|s| cx.file.line_col(s.span.start as usize).0);
    for stmt in cx.statements {
        let function = stmt.context.function.as_ref().map(|f| f.body);
        if function != current_function {
            open_before = 0;
            current_function = function;
        }
        let inherited = open_before;
        open_before = (open_before + stmt.ptx.open_braces_at_end).max(0);
        if !stmt.is_ptx() || inherited > 0 || emitted_once(stmt) || unreliable(stmt) {
            continue;
        }
        let mut fix = wrap_in_braces(stmt);
        // The names one fix covers, reported together: one finding per statement.
        let mut unscoped: Vec<(&str, String, std::ops::Range<usize>)> = Vec::new();
        for s in &stmt.ptx.statements {
            if s.depth != 0 {
                continue;
            }
            let (what, name, span) = match &s.kind {
                StatementKind::Directive(d) if is_declaration(&d.name) => {
                    let names: Vec<&str> = d.declared.iter().map(|n| n.name.as_str()).collect();
                    if names.is_empty()
                        || names
                            .iter()
                            .all(|n| n.contains("%=") || n.contains('\u{1}'))
                    {
                        continue;
                    }
                    ("declaration", names.join(", "), d.name_span.clone())
                }
                StatementKind::Label(l) => {
                    if l.name.contains("%=") || l.name.contains('\u{1}') {
                        continue;
                    }
                    ("label", l.name.clone(), l.span.clone())
                }
                _ => continue,
            };
            if let Some(helper) = scope_helper.filter(|_| runs_inside_a_callers_scope(cx, stmt)) {
                // Its callers may run it inside a scope another function's asm opens.
                let mut d = diagnostic(&META, template_span(stmt, span), format!("{what} of `{name}` outside `{{ }}`: a second instance of this asm in one function defines it twice, unless its callers run it inside the scope a helper opens"))
                    .note_for(stmt, format!("the file opens PTX scopes from a helper (`{{` alone at line {helper}): whether this asm runs inside one depends on its callers, which are not followed"));
                d.severity = Severity::Info;
                out.push(d);
                continue;
            }
            if let Some(other) = shared_with(cx, stmt, &name) {
                // Declared here for another asm statement to use: `{ }` would hide it from that
                // one, so there is no fix, and the author means it.
                let mut d = diagnostic(&META, template_span(stmt, span), format!("{what} of `{name}` outside `{{ }}` is shared with the asm at line {other}: it compiles only while this asm is emitted once per function"))
                    .with_note("ptxas reports `Duplicate definition` once the statement is inlined, unrolled or expanded twice");
                d.severity = Severity::Info;
                out.push(d);
                // `{ }` around the template would hide this name from the other asm too.
                fix = None;
                continue;
            }
            unscoped.push((what, name, span));
        }
        let Some((what, name, span)) = unscoped.first().cloned() else {
            continue;
        };
        let more = match unscoped.len() - 1 {
            0 => String::new(),
            1 => format!(" and the {} of `{}`", unscoped[1].0, unscoped[1].1),
            n => {
                let kinds = |w: &str| unscoped[1..].iter().all(|(what, _, _)| *what == w);
                let plural = if kinds("label") {
                    "labels"
                } else if kinds("declaration") {
                    "declarations"
                } else {
                    "declarations or labels"
                };
                format!(" and {n} more {plural}")
            }
        };
        let them = if more.is_empty() { "it" } else { "them" };
        let mut d = diagnostic(&META, template_span(stmt, span), format!("{what} of `{name}`{more} outside `{{ }}`: a second instance of this asm in one function defines {them} twice"))
            .with_note("ptxas reports `Duplicate definition` once the statement is inlined, unrolled or expanded twice");
        // The others, each where it is written (the first few: one fix covers all).
        const SHOWN: usize = 4;
        for (what, name, span) in unscoped.iter().skip(1).take(SHOWN) {
            d = d.with_label(
                template_span(stmt, span.clone()),
                format!("{what} of `{name}`, also outside `{{ }}`"),
            );
        }
        if unscoped.len() > SHOWN + 1 {
            d = d.with_note(format!(
                "{} more not shown; wrapping the template in `{{ }}` scopes them all",
                unscoped.len() - SHOWN - 1
            ));
        }
        if let Some(fix) = &fix {
            d = d.cpp_fix_for(stmt, fix.clone());
        }
        out.push(d);
    }
}

/// Whether the statement only declares (no instruction, no label): in a file with scope
/// helpers, such a statement exists to declare into the scope its caller opened. A statement
/// that declares and computes is self-contained and should carry its own braces.
fn runs_inside_a_callers_scope(_cx: &Ctx, stmt: &AsmStatement) -> bool {
    stmt.context.function.is_some()
        && stmt
            .ptx
            .statements
            .iter()
            .all(|s| matches!(&s.kind, StatementKind::Directive(d) if is_declaration(&d.name)))
}

/// The line of another PTX statement of the same function (of the file, for Python calls:
/// a kernel's helpers share its registers once inlined) that names one of `names` (a register
/// or label this statement declares) without declaring it: a name shared across statements
/// (`.reg .f32 acc;` in one, `mov.b32 $0, acc;` in a later one).
fn shared_with(cx: &Ctx, stmt: &AsmStatement, names: &str) -> Option<usize> {
    let names: Vec<&str> = names.split(", ").collect();
    // Statements are in source order: those of the function are one run of them.
    let (from, to) = match stmt.context.function.as_ref() {
        Some(f) if stmt.python().is_none() => (f.body.start, f.body.end),
        _ => (0, u32::MAX),
    };
    let first = cx.statements.partition_point(|s| s.span.start < from);
    let last = cx.statements.partition_point(|s| s.span.start < to);
    cx.statements[first..last.max(first)]
        .iter()
        .filter(|other| other.is_ptx() && other.span != stmt.span)
        .find(|other| {
            names.iter().any(|n| {
                names_word(&other.template.text, n)
                    && !other.ptx.statements.iter().any(|s| match &s.kind {
                        StatementKind::Directive(d) => d.declared.iter().any(|x| x.name == *n),
                        StatementKind::Label(l) => l.name == *n,
                        _ => false,
                    })
            })
        })
        .map(|other| cx.file.line_col(other.span.start as usize).0)
}

/// Whether `text` holds `name` as a whole PTX word (`lo`, not the `.lo` of `mul.lo`).
fn names_word(text: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '%' | '.');
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(is_word)
            && !text[at + name.len()..].chars().next().is_some_and(is_word)
    })
}

/// An asm written directly in a kernel's body, outside any loop and macro, is emitted once:
/// a kernel is never inlined into another function.
fn emitted_once(stmt: &AsmStatement) -> bool {
    let kernel = stmt
        .context
        .function
        .as_ref()
        .is_some_and(|f| f.has("__global__"));
    kernel && !stmt.context.in_loop && !stmt.context.in_lambda && stmt.macro_name.is_none()
}

/// Text the parser could not read as statements (an unterminated string, stray tokens) may
/// look like labels; stay silent rather than guess.
fn unreliable(stmt: &AsmStatement) -> bool {
    stmt.ptx
        .errors
        .iter()
        .any(|e| !matches!(e.kind, SyntaxErrorKind::UnbalancedClose))
}

fn is_declaration(directive: &str) -> bool {
    matches!(
        directive,
        ".reg"
            | ".local"
            | ".shared"
            | ".param"
            | ".const"
            | ".global"
            | ".tex"
            | ".surf"
            | ".sampler"
    )
}

/// Inserts `{ ` after the first decoded byte's source and ` }` after the last one, when both
/// ends are written in the statement itself.
fn wrap_in_braces(stmt: &AsmStatement) -> Option<Fix> {
    let first = stmt.template.pieces.first()?;
    let last = stmt.template.pieces.last()?;
    if first.kind != PieceKind::Literal
        || last.kind != PieceKind::Literal
        || stmt.template.text.is_empty()
    {
        return None;
    }
    if stmt.ptx.min_depth < 0 || stmt.ptx.open_braces_at_end != 0 {
        return None;
    }
    let start = stmt.template.byte_source(0)?.start as usize;
    // A `//` comment on the template's last line would swallow a `}` put after it: the `}`
    // goes before the comment.
    let text = &stmt.template.text;
    let last_line = text.rfind('\n').map_or(0, |i| i + 1);
    let close = match text[last_line..].find("//") {
        Some(comment) => Edit::insert(
            stmt.template.byte_source(last_line + comment)?.start as usize,
            "} ",
        ),
        None => Edit::insert(
            stmt.template.byte_source(text.len() - 1)?.end as usize,
            " }",
        ),
    };
    Some(Fix::safe(
        "wrap the template in `{ }`",
        vec![Edit::insert(start, "{ "), close],
    ))
}
