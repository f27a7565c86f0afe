//! `ptxguard dump`: everything the engine knows about each asm statement, as text.

use crate::cpp::{AsmOperand, AsmStatement, Target};
use crate::ptx::{Operand, OperandKind, PlaceholderTarget, StatementKind};
use crate::statements::find_asm_statements;
use crate::SourceFile;
use std::fmt::Write;

pub fn render(file: &SourceFile) -> String {
    let statements = find_asm_statements(file);
    let mut out = String::new();
    if statements.is_empty() {
        let _ = writeln!(out, "{}: no asm statements", file.path.display());
    }
    // What the file says of each statement's function, read once for all of them.
    let mut reads = FileReads {
        uses: crate::reach::FileUses::new(&file.text),
        tokens: std::cell::OnceCell::new(),
    };
    for (n, stmt) in statements.iter().enumerate() {
        render_statement(&mut out, file, n, stmt, &mut reads);
    }
    out
}

/// Whether the file uses each function, and its tokens (on first need).
struct FileReads<'a> {
    uses: crate::reach::FileUses<'a>,
    tokens: std::cell::OnceCell<Vec<crate::cpp::lexer::Token>>,
}

fn render_statement(
    out: &mut String,
    file: &SourceFile,
    n: usize,
    stmt: &AsmStatement,
    reads: &mut FileReads,
) {
    let (line, col) = file.line_col(stmt.keyword.start as usize);
    let kw = &file.text[stmt.keyword.range()];
    let quals: Vec<&str> = stmt.qualifiers.iter().map(|(q, _)| q.as_str()).collect();
    let _ = writeln!(
        out,
        "asm #{n} at {}:{line}:{col}: {kw}{}{}",
        file.path.display(),
        if quals.is_empty() { "" } else { " " },
        quals.join(" ")
    );
    if let Some(m) = &stmt.macro_name {
        let _ = writeln!(out, "  in the body of macro {m}");
    }
    let ctx = &stmt.context;
    let target = match &ctx.target {
        Some(Target::Device) => "device (PTX)".to_string(),
        Some(Target::Host(why)) => format!("host, not PTX: {why}"),
        Some(Target::Foreign(why)) => format!("another target, not PTX: {why}"),
        Some(Target::Unknown) | None => "unknown (checked as PTX)".to_string(),
    };
    let _ = writeln!(out, "  target: {target}");
    if let Some(f) = &ctx.function {
        let _ = writeln!(out, "  function: {} [{}]", f.name, f.qualifiers.join(" "));
        if stmt.python().is_some() || crate::reach::compiled_only_where_used(f) {
            let used = match reads.uses.needs_use(stmt) {
                Some(_) => "not used in this file: its findings are info unless another file of the project uses it",
                None => "used in this file",
            };
            let _ = writeln!(out, "  compiled only where used: {used}");
        }
        if crate::cpp::instantiation::worth_asking(&file.text, stmt) {
            let tokens = reads.tokens.get_or_init(|| {
                crate::cpp::lexer::lex_range(&file.text, 0, file.text.len(), false)
            });
            if let Some(u) = crate::cpp::instantiation::untaken_branch(&file.text, tokens, stmt) {
                let _ = writeln!(out, "  never instantiated: {}", u.why);
            }
        }
    }
    for c in &ctx.conditions {
        let _ = writeln!(
            out,
            "  condition: {}{}",
            if c.negated { "not " } else { "" },
            c.text
        );
    }
    for (query, branch) in &ctx.nv_target {
        let _ = writeln!(
            out,
            "  NV target: {query} ({} branch)",
            if *branch { "true" } else { "false" }
        );
    }
    if ctx.in_loop {
        let _ = writeln!(out, "  in a loop");
    }
    let partial = if stmt.template.is_partial() {
        " (partial: \\x01 marks unknown pieces)"
    } else {
        ""
    };
    if let Some(call) = stmt.python() {
        let _ = writeln!(
            out,
            "  python: {:?}, side effects: {}{}",
            call.api,
            call.has_side_effects(),
            call.pack
                .map(|(_, p)| format!(", pack: {}", p.map_or("?".to_string(), |p| p.to_string())))
                .unwrap_or_default()
        );
    }
    let _ = writeln!(out, "  template{partial}: {:?}", stmt.template.text);
    for op in stmt.operands() {
        render_operand(out, stmt, op);
    }
    if !stmt.clobbers.is_empty() {
        let list: Vec<&str> = stmt.clobbers.iter().map(|c| c.text.as_str()).collect();
        let _ = writeln!(out, "  clobbers: {}", list.join(", "));
    }
    let _ = writeln!(out, "  ptx:");
    for s in &stmt.ptx.statements {
        let indent = "  ".repeat(2 + s.depth.max(0) as usize);
        match &s.kind {
            StatementKind::Instruction(i) => {
                let guard = i.guard.as_ref().map_or(String::new(), |g| {
                    format!(
                        "@{}{} ",
                        if g.negated { "!" } else { "" },
                        operand_text(stmt, &g.predicate)
                    )
                });
                let ops: Vec<String> = i.operands.iter().map(|o| operand_text(stmt, o)).collect();
                let types = resolved_types(i);
                let _ = writeln!(
                    out,
                    "{indent}{guard}{} {}{}{}",
                    i.opcode,
                    ops.join(", "),
                    if i.terminated { ";" } else { "" },
                    types
                );
            }
            StatementKind::Directive(d) => {
                let names: Vec<&str> = d.declared.iter().map(|x| x.name.as_str()).collect();
                let mods: Vec<&str> = d.modifiers.iter().map(|m| m.text.as_str()).collect();
                let _ = writeln!(
                    out,
                    "{indent}{} {} {}",
                    d.name,
                    mods.join(" "),
                    names.join(", ")
                );
            }
            StatementKind::Label(l) => {
                let _ = writeln!(out, "{indent}{}:", l.name);
            }
            StatementKind::OpenBrace => {
                let _ = writeln!(out, "{indent}{{");
            }
            StatementKind::CloseBrace => {
                let _ = writeln!(out, "{indent}}}");
            }
        }
    }
    for e in &stmt.ptx.errors {
        let _ = writeln!(out, "  syntax: {:?} at {:?}", e.kind, e.span);
    }
}

fn render_operand(out: &mut String, stmt: &AsmStatement, op: &AsmOperand) {
    let name = op
        .name
        .as_ref()
        .map_or(String::new(), |(n, _)| format!("[{n}] "));
    let ty = op.ty.ty.as_ref().map_or("unknown type".to_string(), |t| {
        format!("{} ({} bits)", t.spelling, t.bits)
    });
    let cast = op.ty.cast.as_ref().map_or(String::new(), |c| {
        format!(
            ", cast from {}",
            c.from.as_ref().map_or("unknown", |f| &*f.spelling)
        )
    });
    let addr = if op.ty.from_address {
        ", an address"
    } else {
        ""
    };
    let constraint = if op.constraint.known {
        op.constraint.text.as_str()
    } else {
        "<macro>"
    };
    let _ = writeln!(
        out,
        "  {}{} {}: {name}\"{constraint}\" ({}) : {ty}{cast}{addr}",
        sigil(stmt),
        op.index,
        if op.is_output { "output" } else { "input" },
        op.expr
    );
}

/// How operands are written: `%0` in C++, `$0` in LLVM inline asm (Python calls).
fn sigil(stmt: &AsmStatement) -> char {
    if stmt.python().is_some() {
        '$'
    } else {
        '%'
    }
}

fn operand_text(stmt: &AsmStatement, op: &Operand) -> String {
    match &op.kind {
        OperandKind::Placeholder(p) => {
            let bound = stmt.resolve(p).map_or("?".to_string(), |o| o.expr.clone());
            match &p.target {
                PlaceholderTarget::Index(i) => format!("{}{i}<{bound}>", sigil(stmt)),
                PlaceholderTarget::Name(n) => format!("%[{n}]<{bound}>"),
            }
        }
        OperandKind::Register { name, .. } => name.clone(),
        OperandKind::Immediate(v) => v.clone(),
        OperandKind::Vector(items) => {
            let v: Vec<String> = items.iter().map(|o| operand_text(stmt, o)).collect();
            format!("{{{}}}", v.join(", "))
        }
        OperandKind::Address { base, offsets } => {
            let mut s = base
                .as_ref()
                .map_or(String::new(), |b| operand_text(stmt, b));
            for (neg, o) in offsets {
                s.push_str(if *neg { "-" } else { "+" });
                s.push_str(&operand_text(stmt, o));
            }
            format!("[{s}]")
        }
        OperandKind::AddressList(items) => {
            let v: Vec<String> = items.iter().map(|o| operand_text(stmt, o)).collect();
            format!("[{}]", v.join(", "))
        }
        OperandKind::Sink => "_".into(),
        OperandKind::Symbol(s) => s.clone(),
        OperandKind::Pair(a, b) => format!("{}|{}", operand_text(stmt, a), operand_text(stmt, b)),
        OperandKind::Not(o) => format!("!{}", operand_text(stmt, o)),
        OperandKind::Unknown => "<unknown>".into(),
    }
}

/// The operand roles and types the ISA table gives this instruction form.
fn resolved_types(instruction: &crate::ptx::Instruction) -> String {
    let Some(form) = instruction.form() else {
        return if instruction.partial {
            "    [partial: not resolved]".to_string()
        } else {
            "    [not in the ISA table]".to_string()
        };
    };
    let count = instruction.operands.len();
    let roles: Vec<String> = (0..count)
        .map(|i| match form.operand_for(i, count) {
            Some(info) => {
                let ty = info.ty.map_or(String::new(), |t| format!(" {}", t.name()));
                let space = info
                    .space
                    .map_or(String::new(), |s| format!(" {}", s.name()));
                let vector = info.vector.map_or(String::new(), |n| format!(" x{n}"));
                format!("{}:{:?}{ty}{vector}{space}", info.name, info.role)
            }
            None => "?".to_string(),
        })
        .collect();
    let arch = if form.arch_specific { "a" } else { "" };
    format!(
        "    [{}; {}; sm_{}{arch}+, PTX {}.{}]",
        form.family.name,
        roles.join(", "),
        form.min_sm,
        form.min_ptx / 10,
        form.min_ptx % 10
    )
}
