//! tree-sitter-cpp as a second parser: where it parses a function without ERROR nodes, the
//! asm statements it finds there, their operand counts and the enclosing function must agree
//! with ptxguard's front end. On the corpus here; on real trees with
//! `cargo test -p ptxguard-fuzz --test referee -- --ignored` (`PTXGUARD_REFEREE_DIR`, default
//! `/work/real`; nothing from there is committed).

use ptxguard_analyzer::SourceFile;
use std::path::Path;

/// One asm statement as a parser sees it.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
struct Seen {
    /// Byte offset of the `asm` keyword.
    start: usize,
    outputs: usize,
    inputs: usize,
    function: Option<String>,
}

fn has_error(node: tree_sitter::Node) -> bool {
    node.has_error() || node.is_missing()
}

/// The asm statements tree-sitter finds inside function bodies that parse cleanly.
fn tree_sitter_view(text: &str) -> Vec<Seen> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_cpp::LANGUAGE.into())
        .expect("the C++ grammar loads");
    let Some(tree) = parser.parse(text, None) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "function_definition" {
            if has_error(node) {
                continue;
            }
            let name = node
                .child_by_field_name("declarator")
                .and_then(|d| function_name(d, text));
            let mut inner = vec![node];
            while let Some(n) = inner.pop() {
                if n.kind() == "gnu_asm_expression" {
                    let count = |field: &str| {
                        n.child_by_field_name(field).map_or(0, |list| {
                            let mut cursor = list.walk();
                            list.named_children(&mut cursor)
                                .filter(|c| c.kind().ends_with("_operand"))
                                .count()
                        })
                    };
                    out.push(Seen {
                        start: n.start_byte(),
                        outputs: count("output_operands"),
                        inputs: count("input_operands"),
                        function: name.clone(),
                    });
                }
                let mut cursor = n.walk();
                inner.extend(n.children(&mut cursor));
            }
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    out.sort();
    out
}

/// The identifier a function declarator names (`ns::f` -> `f`).
fn function_name(declarator: tree_sitter::Node, text: &str) -> Option<String> {
    let mut node = declarator;
    loop {
        match node.kind() {
            "identifier" | "field_identifier" | "destructor_name" | "operator_name" => {
                return Some(text[node.byte_range()].to_string())
            }
            "qualified_identifier" => node = node.child_by_field_name("name")?,
            _ => node = node.child_by_field_name("declarator")?,
        }
    }
}

/// Ours, for the statements tree-sitter saw (by the offset of the keyword).
fn our_view(path: &Path, text: &str, wanted: &[Seen]) -> Vec<Seen> {
    let file = SourceFile::new(path, text.to_string());
    let statements = ptxguard_analyzer::cpp::find_asm_statements(&file);
    let mut out: Vec<Seen> = statements
        .iter()
        .filter(|s| s.macro_name.is_none())
        .filter(|s| wanted.iter().any(|w| w.start == s.keyword.start as usize))
        .map(|s| Seen {
            start: s.keyword.start as usize,
            outputs: s.outputs.len(),
            inputs: s.inputs.len(),
            function: s.context.function.as_ref().map(|f| f.name.clone()),
        })
        .collect();
    out.sort();
    out
}

/// Disagreements in the files under `dir`, as `path: theirs vs ours` lines.
fn disagreements(files: &[std::path::PathBuf]) -> (usize, Vec<String>) {
    let mut compared = 0;
    let mut out = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if !text.contains("asm") {
            continue;
        }
        let theirs = tree_sitter_view(&text);
        let ours = our_view(path, &text, &theirs);
        compared += theirs.len();
        if theirs != ours {
            out.push(format!(
                "{}:\n  tree-sitter {theirs:?}\n  ptxguard    {ours:?}",
                path.display()
            ));
        }
    }
    (compared, out)
}

#[test]
fn the_front_end_agrees_with_tree_sitter_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cases");
    let files = ptxguard_analyzer::source::source_files_under(&root);
    let (compared, found) = disagreements(&files);
    assert!(
        compared > 100,
        "tree-sitter parsed enough statements ({compared})"
    );
    assert!(
        found.is_empty(),
        "{} disagreements:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
#[ignore = "reads fetched real projects (PTXGUARD_REFEREE_DIR, default /work/real)"]
fn the_front_end_agrees_with_tree_sitter_on_real_projects() {
    let dir = std::env::var("PTXGUARD_REFEREE_DIR").unwrap_or_else(|_| "/work/real".into());
    let files = ptxguard_analyzer::source::source_files_under(Path::new(&dir));
    let (compared, found) = disagreements(&files);
    println!(
        "{compared} statements compared, {} files disagree",
        found.len()
    );
    for f in &found {
        println!("{f}");
    }
    assert!(found.is_empty());
}
