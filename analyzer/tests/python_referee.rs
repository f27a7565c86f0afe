//! A second parser as referee: tree-sitter-python checks the Python front end (one token
//! pass, `analyzer/src/python/syntax.rs`).
//!
//! On every file, both must agree on each inline-asm call the front end models: the call's
//! bytes, the callee's, the parentheses', the input list's items (where it is a literal list)
//! and the name of the function around it. Conversely, every Triton `inline_asm_elementwise`
//! call and every `llvm.inline_asm` call tree-sitter finds whose constraints argument is a
//! plain string literal must be modelled. Files tree-sitter reads with ERROR nodes are
//! skipped. tree-sitter is a dev-dependency only: it parsed these files at about 5 MB/s, most
//! of the cost of walking `.py` (docs/python.md).
//!
//! `real_projects` (ignored; set `PTXGUARD_REFEREE_DIR`) runs the same comparison on a tree
//! of real files and prints every disagreement.

use ptxguard_analyzer::cpp::{AsmStatement, Origin};
use ptxguard_analyzer::{python, SourceFile, Span};
use std::path::{Path, PathBuf};
use tree_sitter::{Node, Parser};

fn span_of(node: Node) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

fn all_nodes(root: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        out.push(n);
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    out
}

fn enclosing_function_name<'t>(text: &'t str, node: Node) -> Option<&'t str> {
    let mut at = node.parent();
    while let Some(n) = at {
        if n.kind() == "function_definition" {
            return n.child_by_field_name("name").map(|x| &text[x.byte_range()]);
        }
        at = n.parent();
    }
    None
}

/// Whether tree-sitter's call is one the front end must model: Triton's call, or
/// `llvm.inline_asm`, with a plain string literal as constraints.
fn must_be_modelled(text: &str, call: Node) -> bool {
    let (Some(function), Some(arguments)) = (
        call.child_by_field_name("function"),
        call.child_by_field_name("arguments"),
    ) else {
        return false;
    };
    let callee = &text[function.byte_range()];
    let (position, keyword) = if callee.ends_with("inline_asm_elementwise") {
        (1, "constraints")
    } else if callee == "llvm.inline_asm" {
        (3, "constraints")
    } else {
        return false;
    };
    let mut cursor = arguments.walk();
    let args: Vec<Node> = arguments
        .named_children(&mut cursor)
        .filter(|a| a.kind() != "comment")
        .collect();
    // PyTorch's op names its constraints too, but with `asm_str=`.
    let keywords: Vec<(&str, Node)> = args
        .iter()
        .filter(|a| a.kind() == "keyword_argument")
        .filter_map(|a| {
            Some((
                &text[a.child_by_field_name("name")?.byte_range()],
                a.child_by_field_name("value")?,
            ))
        })
        .collect();
    if args.iter().any(|a| a.kind().contains("splat")) {
        return false;
    }
    let constraints = keywords
        .iter()
        .find(|(n, _)| *n == keyword)
        .map(|(_, v)| *v)
        .or_else(|| {
            (!keywords.iter().any(|(n, _)| *n == "asm_str"))
                .then(|| args.get(position).copied())
                .flatten()
                .filter(|a| a.kind() != "keyword_argument")
        });
    constraints.is_some_and(|c| c.kind() == "string" && !text[c.byte_range()].contains('{'))
}

/// The disagreements on one file; `None` when tree-sitter cannot read it cleanly.
fn referee(file: &SourceFile) -> Option<Vec<String>> {
    let text = file.text.as_str();
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_python::LANGUAGE.into())
        .expect("grammar");
    let tree = parser.parse(text, None)?;
    if tree.root_node().has_error() {
        return None;
    }
    let ours: Vec<AsmStatement> = python::find_statements(file)
        .into_iter()
        .filter(|s| matches!(s.origin, Origin::Python(_)))
        .collect();
    let calls: Vec<Node> = all_nodes(tree.root_node())
        .into_iter()
        .filter(|n| n.kind() == "call")
        .collect();
    let at = |s: Span| {
        let (line, col) = file.line_col(s.start as usize);
        format!("{}:{line}:{col}", file.path.display())
    };
    let mut problems = Vec::new();
    for stmt in &ours {
        let Some(call) = calls.iter().find(|c| span_of(**c) == stmt.span) else {
            problems.push(format!("{}: tree-sitter sees no call there", at(stmt.span)));
            continue;
        };
        let function = call.child_by_field_name("function").map(span_of);
        let arguments = call.child_by_field_name("arguments").map(span_of);
        if function != Some(stmt.keyword) {
            problems.push(format!(
                "{}: callee {:?} vs {function:?}",
                at(stmt.span),
                stmt.keyword
            ));
        }
        if arguments != Some(stmt.open_paren.cover(stmt.close_paren)) {
            problems.push(format!("{}: parentheses differ", at(stmt.span)));
        }
        let theirs = enclosing_function_name(text, *call);
        let name = stmt.context.function.as_ref().map(|f| f.name.as_str());
        if theirs != name {
            problems.push(format!(
                "{}: function {name:?} vs {theirs:?}",
                at(stmt.span)
            ));
        }
        let Some(items) = stmt.python().and_then(|c| c.args.clone()) else {
            continue;
        };
        // The input list, where it is written in the call: its items, comments left out.
        let list = all_nodes(*call).into_iter().find(|n| {
            n.kind() == "list"
                && items
                    .first()
                    .is_some_and(|i| span_of(*n).contains(i.start as usize))
        });
        if let Some(list) = list {
            let mut cursor = list.walk();
            let theirs: Vec<Span> = list
                .named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
                .map(span_of)
                .collect();
            if theirs != items {
                problems.push(format!("{}: input items differ", at(stmt.span)));
            }
        }
    }
    for call in calls.iter().filter(|c| must_be_modelled(text, **c)) {
        if !ours.iter().any(|s| s.span == span_of(*call)) {
            problems.push(format!("{}: call not modelled", at(span_of(*call))));
        }
    }
    Some(problems)
}

fn python_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            python_files(&path, out);
        } else if ptxguard_analyzer::source::Language::of_path(&path).is_python() {
            out.push(path);
        }
    }
}

/// (files compared, files skipped, disagreements).
fn referee_dir(dir: &Path) -> (usize, usize, Vec<String>) {
    let mut files = Vec::new();
    python_files(dir, &mut files);
    files.sort();
    let (mut compared, mut skipped, mut problems) = (0, 0, Vec::new());
    for path in files {
        let Ok(file) = SourceFile::read(&path) else {
            continue;
        };
        if !python::may_contain_inline_asm(file.text.as_bytes()) {
            continue;
        }
        match referee(&file) {
            Some(p) => {
                compared += 1;
                problems.extend(p);
            }
            None => skipped += 1,
        }
    }
    (compared, skipped, problems)
}

#[test]
fn corpus_front_end_agrees_with_tree_sitter() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cases");
    let (compared, skipped, problems) = referee_dir(&corpus);
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(
        compared >= 25,
        "{compared} files compared, {skipped} skipped"
    );
}

#[test]
fn referee_reports_a_call_the_front_end_misreads() {
    // A call the front end does not read (the prefilter wants the name right before its
    // parenthesis) is reported.
    let src = "def k(x):\n    return tl.inline_asm_elementwise('mov.b32 $0, $1;', '=r,r', [x], tl.int32, True, 1)\n";
    let file = SourceFile::new("t.py", src);
    assert_eq!(referee(&file), Some(Vec::new()));
    let hidden = src.replace("inline_asm_elementwise(", "inline_asm_elementwise (");
    let problems = referee(&SourceFile::new("t.py", hidden)).expect("parses");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("call not modelled"), "{problems:?}");
}

#[test]
#[ignore]
fn real_projects() {
    let dir = std::env::var_os("PTXGUARD_REFEREE_DIR").expect("set PTXGUARD_REFEREE_DIR");
    let (compared, skipped, problems) = referee_dir(Path::new(&dir));
    for p in &problems {
        println!("{p}");
    }
    println!(
        "{compared} files compared, {skipped} skipped, {} disagreements",
        problems.len()
    );
    assert!(problems.is_empty());
}
