//! A second parser as referee: tree-sitter-cpp checks the C++ front end.
//!
//! For every asm statement where tree-sitter parses the statement's bytes without an ERROR or
//! MISSING node, both parsers must agree on: where the statement starts and ends (each one's
//! statements must be found by the other), its qualifiers, its outputs, inputs and clobbers
//! (count, `[name]`, constraint text, expression bytes) and the name of the function around
//! it. Regions tree-sitter cannot parse (CUDA syntax it does not know, macros it cannot see
//! through, `#if` branches that split a declaration) are skipped and counted, never judged.
//! tree-sitter is a dev-dependency only: the `check` path stays one token pass (see
//! ARCHITECTURE.md).
//!
//! Before parsing, CUDA's declaration keywords (`__global__`, `__device__`, `__host__`,
//! `__forceinline__`, `__noinline__`, `__launch_bounds__(...)`, `__grid_constant__`) are
//! overwritten with spaces of the same length: they are attributes tree-sitter does not know
//! and would otherwise turn nearly every kernel into an ERROR region. Byte offsets do not
//! change, and the words come from CUDA, not from the front end being checked.
//!
//! Differences that are not front-end bugs, and how the comparison treats them:
//! - Statements written inside a `#define` body: tree-sitter keeps the body as text. Counted
//!   as "in macro bodies", not compared.
//! - Regions tree-sitter reads with ERROR nodes: CUDA syntax not blanked (`__shared__`,
//!   `<<<...>>>`), statement lists passed to macros (`NV_IF_TARGET(q, (int r; asm(...);))`),
//!   templates given through a macro (`asm(PTX_STR : ...)`), `#if` branches that split a
//!   declaration. Skipped.
//! - An unknown macro before a function's name (`CUTLASS_DEVICE void f() {`) is an ERROR
//!   tree-sitter often recovers from, but sometimes it reads the function as a member
//!   declaration with a braced initializer. The function is compared only where tree-sitter
//!   reads the function's head cleanly (from the name to the body's `{`; where it sees no
//!   function, the whole declaration around our function's head).
//! - A destructor is named `S` by the front end and `~S` by tree-sitter: compared without `~`.
//!
//! Front-end bugs this referee found (fixed, with tests in `frontend.rs` and the corpus case
//! `frontend/constructor-initializers-operators-specializations.cu`): asm in `operator()` and
//! other operators, and in explicit specializations (`f<2>(...)`), had no enclosing function;
//! asm in a constructor with member initializers was taken to be in a function named after
//! the last initializer, without the constructor's `__device__` (so host code in a `.cu` file).
//!
//! `real_projects` (ignored; set `PTXGUARD_REFEREE_DIR`) runs the same comparison on a tree
//! of real files and prints every disagreement.

use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::statements::find_asm_statements;
use ptxguard_analyzer::SourceFile;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use tree_sitter::{Node, Parser, Tree};

/// CUDA words tree-sitter-cpp does not know, blanked before parsing.
const CUDA_ATTRIBUTES: [&str; 7] = [
    "__global__",
    "__device__",
    "__host__",
    "__forceinline__",
    "__noinline__",
    "__grid_constant__",
    "__launch_bounds__",
];

#[derive(Default, Debug)]
struct Tally {
    files: usize,
    /// Statements the front end found.
    ours: usize,
    /// Of those, written in a `#define` body (tree-sitter does not parse them).
    in_macros: usize,
    /// Statement pairs compared (position, extent, qualifiers, operands, clobbers).
    compared: usize,
    /// Statements whose bytes tree-sitter could not parse cleanly.
    skipped: usize,
    /// Enclosing functions compared (a subset of `compared`).
    functions_compared: usize,
    /// Enclosing functions not compared: tree-sitter's parse of the function's head is not
    /// clean.
    functions_skipped: usize,
    disagreements: Vec<String>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.files += other.files;
        self.ours += other.ours;
        self.in_macros += other.in_macros;
        self.compared += other.compared;
        self.skipped += other.skipped;
        self.functions_compared += other.functions_compared;
        self.functions_skipped += other.functions_skipped;
        self.disagreements.extend(other.disagreements);
    }

    fn summary(&self) -> String {
        format!(
            "{} files, {} statements: {} compared, {} skipped (not parsed cleanly by tree-sitter), \
             {} in macro bodies; functions: {} compared, {} skipped; {} disagreements",
            self.files,
            self.ours,
            self.compared,
            self.skipped,
            self.in_macros,
            self.functions_compared,
            self.functions_skipped,
            self.disagreements.len()
        )
    }
}

/// The text with CUDA's attributes blanked, byte for byte the same length.
fn blank_cuda_attributes(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for word in CUDA_ATTRIBUTES {
        let mut from = 0;
        while let Some(found) = text[from..].find(word) {
            let start = from + found;
            let mut end = start + word.len();
            from = end;
            if (start > 0 && is_word(bytes[start - 1]))
                || (end < bytes.len() && is_word(bytes[end]))
            {
                continue;
            }
            // `__launch_bounds__(256, 2)`: the arguments too.
            if word == "__launch_bounds__" {
                let mut k = end;
                while k < bytes.len() && bytes[k].is_ascii_whitespace() {
                    k += 1;
                }
                if bytes.get(k) == Some(&b'(') {
                    if let Some(close) = text[k..].find(')') {
                        end = k + close + 1;
                    }
                }
            }
            for b in &mut bytes[start..end] {
                if !b.is_ascii_whitespace() {
                    *b = b' ';
                }
            }
        }
    }
    String::from_utf8(bytes).expect("only ASCII bytes were replaced")
}

fn parse_cpp(text: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_cpp::LANGUAGE.into())
        .expect("tree-sitter-cpp matches the tree-sitter version");
    parser
        .parse(blank_cuda_attributes(text), None)
        .expect("no timeout or cancellation is set")
}

/// Every node of the tree, in order, without recursion.
fn all_nodes(tree: &Tree) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut cursor = tree.walk();
    loop {
        out.push(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// The byte ranges of tree-sitter's ERROR and MISSING nodes.
struct Errors(Vec<(usize, usize)>);

impl Errors {
    /// Whether an ERROR or MISSING node touches `start..end`.
    fn touch(&self, start: usize, end: usize) -> bool {
        self.0.iter().any(|&(s, e)| {
            if s == e {
                start <= s && s <= end
            } else {
                s < end && start < e
            }
        })
    }
}

fn text_of<'t>(text: &'t str, node: Node) -> &'t str {
    &text[node.byte_range()]
}

fn line_col(file: &SourceFile, offset: usize) -> String {
    let (line, col) = file.line_col(offset);
    format!("{}:{}:{}", file.path.display(), line + 1, col + 1)
}

/// The name tree-sitter gives a function definition, spelled as the front end does: the
/// last component of a qualified name, without template arguments.
fn function_name<'t>(text: &'t str, definition: Node) -> Option<&'t str> {
    let mut node = definition.child_by_field_name("declarator")?;
    // Down through pointer/reference declarators to the function declarator, then its name.
    while node.kind() != "function_declarator" {
        // A reference declarator (`T& name(...)`) holds its declarator without a field name.
        node = match node.child_by_field_name("declarator") {
            Some(inner) => inner,
            None => node.named_child(node.named_child_count().checked_sub(1)?)?,
        };
    }
    node = node.child_by_field_name("declarator")?;
    loop {
        match node.kind() {
            "qualified_identifier" | "template_function" | "template_method" => {
                node = node.child_by_field_name("name")?;
            }
            "destructor_name" => return Some(text_of(text, node).trim_start_matches('~').trim()),
            _ => return Some(text_of(text, node)),
        }
    }
}

fn compare_operands(
    text: &str,
    which: &str,
    ours: &[AsmOperand],
    theirs: &[Node],
    out: &mut Vec<String>,
) {
    if ours.len() != theirs.len() {
        out.push(format!(
            "{} {which}: front end {}, tree-sitter {}",
            ours.len(),
            which,
            theirs.len()
        ));
        return;
    }
    for (k, (o, t)) in ours.iter().zip(theirs).enumerate() {
        let their_name = t.child_by_field_name("symbol").map(|n| text_of(text, n));
        let our_name = o.name.as_ref().map(|(n, _)| n.as_str());
        if our_name != their_name {
            out.push(format!(
                "{which} {k} name: front end {our_name:?}, tree-sitter {their_name:?}"
            ));
        }
        let their_constraint = t
            .child_by_field_name("constraint")
            .map(|n| text_of(text, n));
        let our_constraint = text.get(o.constraint.span.range());
        if our_constraint != their_constraint {
            out.push(format!(
                "{which} {k} constraint: front end {our_constraint:?}, tree-sitter {their_constraint:?}"
            ));
        }
        let their_value = t.child_by_field_name("value").map(|n| n.byte_range());
        if their_value != Some(o.expr_span.range()) {
            out.push(format!(
                "{which} {k} expression: front end {:?}, tree-sitter {:?}",
                text.get(o.expr_span.range()),
                their_value.and_then(|r| text.get(r))
            ));
        }
    }
}

/// What differs between one statement of ours and tree-sitter's node at the same place.
fn compare_statement(text: &str, ours: &AsmStatement, theirs: Node) -> Vec<String> {
    let mut out = Vec::new();
    if ours.span.end as usize != theirs.end_byte() {
        out.push(format!(
            "ends: front end at byte {}, tree-sitter at byte {}",
            ours.span.end,
            theirs.end_byte()
        ));
    }
    let mut cursor = theirs.walk();
    let their_qualifiers: Vec<&str> = theirs
        .children(&mut cursor)
        .filter(|c| c.kind() == "gnu_asm_qualifier")
        .map(|c| text_of(text, c))
        .collect();
    let our_qualifiers: Vec<&str> = ours.qualifiers.iter().map(|(q, _)| q.as_str()).collect();
    if our_qualifiers != their_qualifiers {
        out.push(format!(
            "qualifiers: front end {our_qualifiers:?}, tree-sitter {their_qualifiers:?}"
        ));
    }
    let list = |field: &str, item: &str| -> Vec<Node> {
        theirs
            .child_by_field_name(field)
            .map(|l| {
                let mut c = l.walk();
                l.children_by_field_name(item, &mut c).collect()
            })
            .unwrap_or_default()
    };
    compare_operands(
        text,
        "outputs",
        &ours.outputs,
        &list("output_operands", "operand"),
        &mut out,
    );
    compare_operands(
        text,
        "inputs",
        &ours.inputs,
        &list("input_operands", "operand"),
        &mut out,
    );
    let their_clobbers: Vec<&str> = list("clobbers", "register")
        .into_iter()
        .map(|n| text_of(text, n))
        .collect();
    let our_clobbers: Vec<&str> = ours
        .clobbers
        .iter()
        .map(|c| text.get(c.span.range()).unwrap_or(""))
        .collect();
    if our_clobbers != their_clobbers {
        out.push(format!(
            "clobbers: front end {our_clobbers:?}, tree-sitter {their_clobbers:?}"
        ));
    }
    out
}

/// Compares the two parsers on one file.
fn referee(file: &SourceFile) -> Tally {
    let text = file.text.as_str();
    let mut tally = Tally {
        files: 1,
        ..Tally::default()
    };
    let ours = find_asm_statements(file);
    let tree = parse_cpp(text);
    let nodes = all_nodes(&tree);
    let errors = Errors(
        nodes
            .iter()
            .filter(|n| n.is_error() || n.is_missing())
            .map(|n| (n.start_byte(), n.end_byte()))
            .collect(),
    );
    // An asm label on a declaration (`register float v asm("v64");`) is no statement.
    let theirs: Vec<Node> = nodes
        .iter()
        .copied()
        .filter(|n| n.kind() == "gnu_asm_expression")
        .filter(|n| !is_asm_label(*n))
        .collect();
    let clean = |start: usize, end: usize| !errors.touch(start, end);
    let mut report = |at: usize, what: String| {
        tally
            .disagreements
            .push(format!("{}: {what}", line_col(file, at)));
    };

    // Each of tree-sitter's statements must be one of ours.
    for t in &theirs {
        let found = ours
            .iter()
            .any(|o| o.macro_name.is_none() && o.keyword.start as usize == t.start_byte());
        if !found && !t.has_error() && clean(t.start_byte(), t.end_byte()) {
            report(
                t.start_byte(),
                format!(
                    "tree-sitter finds an asm statement the front end does not: {:?}",
                    text_of(text, *t)
                ),
            );
        }
    }

    let mut counts = (0, 0, 0, 0, 0, 0);
    for o in &ours {
        counts.0 += 1;
        if o.macro_name.is_some() {
            counts.1 += 1;
            continue;
        }
        let start = o.keyword.start as usize;
        let end = o.span.end as usize;
        let matched = theirs.iter().find(|t| t.start_byte() == start);
        if matched.is_some_and(|t| t.has_error()) || !clean(start, end) {
            counts.3 += 1;
            continue;
        }
        let Some(&t) = matched else {
            report(
                start,
                format!(
                    "tree-sitter parses this asm statement's bytes cleanly but not as an asm \
                     statement: {:?}",
                    o.text(text)
                ),
            );
            continue;
        };
        counts.2 += 1;
        for what in compare_statement(text, o, t) {
            report(start, what);
        }

        // The enclosing function, where tree-sitter reads the function's head cleanly, from
        // its name to the body's `{` included (an unknown macro among the specifiers before
        // the name does not matter).
        let their_function = std::iter::successors(t.parent(), |n| n.parent())
            .find(|n| n.kind() == "function_definition");
        let our_function = o.context.function.as_ref();
        let their_head = their_function.and_then(|f| {
            let name = f.child_by_field_name("declarator")?;
            let body = f.child_by_field_name("body").unwrap_or(f);
            Some((name.start_byte(), body.start_byte() + 1))
        });
        // Where tree-sitter sees no function, its reading of the whole declaration around
        // our function's head must be clean: an unknown macro before the name can turn a
        // function into a member declaration with a braced initializer.
        let our_head = our_function.map(|f| {
            let (name, body) = (f.name_span.start as usize, f.body.start as usize + 1);
            let around = tree
                .root_node()
                .descendant_for_byte_range(name, body)
                .and_then(|n| {
                    std::iter::successors(Some(n), |n| n.parent()).find(|n| {
                        n.kind().ends_with("declaration") || n.kind() == "function_definition"
                    })
                });
            match (their_function, around) {
                (None, Some(node)) => (node.start_byte().min(name), body),
                _ => (name, body),
            }
        });
        if [their_head, our_head]
            .into_iter()
            .flatten()
            .any(|(from, to)| !clean(from, to))
        {
            counts.5 += 1;
            continue;
        }
        counts.4 += 1;
        let their_name = their_function.and_then(|f| function_name(text, f));
        let our_name = our_function.map(|f| f.name.as_str());
        if their_name != our_name {
            report(
                start,
                format!("enclosing function: front end {our_name:?}, tree-sitter {their_name:?}"),
            );
        }
    }
    tally.ours = counts.0;
    tally.in_macros = counts.1;
    tally.compared = counts.2;
    tally.skipped = counts.3;
    tally.functions_compared = counts.4;
    tally.functions_skipped = counts.5;
    tally
}

fn referee_dir(dir: &Path) -> Tally {
    let mut tally = Tally::default();
    for path in ptxguard_analyzer::source::source_files_under(dir) {
        // Python files have their own referee (tests/python_referee.rs).
        if ptxguard_analyzer::source::Language::of_path(&path).is_python() {
            continue;
        }
        let Ok(file) = SourceFile::read(&path) else {
            continue;
        };
        if !ptxguard_analyzer::cpp::may_contain_asm(file.text.as_bytes()) {
            continue;
        }
        tally.add(referee(&file));
    }
    tally
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cases")
}

#[test]
fn corpus_front_end_agrees_with_tree_sitter() {
    let tally = referee_dir(&corpus_dir());
    println!("referee on the corpus: {}", tally.summary());
    let mut listing = String::new();
    for d in &tally.disagreements {
        let _ = writeln!(listing, "  {d}");
    }
    assert!(
        tally.disagreements.is_empty(),
        "{}\n{listing}",
        tally.summary()
    );
    // The comparison must not silently compare nothing: most of the corpus parses cleanly.
    assert!(tally.files >= 300, "{}", tally.summary());
    assert!(tally.compared >= 500, "{}", tally.summary());
    assert!(tally.functions_compared >= 450, "{}", tally.summary());
    assert!(tally.compared * 4 >= tally.ours * 3, "{}", tally.summary());
}

#[test]
fn blanking_keeps_offsets_and_spares_longer_names() {
    let src = "__global__ void __launch_bounds__(256, 2) k() {} int __device__x; __device__ int y;";
    let blanked = blank_cuda_attributes(src);
    assert_eq!(blanked.len(), src.len());
    let spaces = |n| " ".repeat(n);
    assert_eq!(
        blanked,
        format!(
            "{}void{}k() {{}} int __device__x; {}int y;",
            spaces(11),
            spaces(27),
            spaces(11)
        )
    );
}

#[test]
fn referee_reports_a_statement_the_front_end_misreads() {
    // The referee itself must be able to fail: a statement read correctly agrees, and the
    // comparison of a deliberately altered model of it does not.
    let src = "__device__ void f(unsigned a, unsigned* p) {\n  asm volatile(\"st.u32 [%0], %1;\" :: \"l\"(p), \"r\"(a) : \"memory\");\n}\n";
    let file = SourceFile::new("t.cu", src);
    let tally = referee(&file);
    assert_eq!((tally.compared, tally.functions_compared), (1, 1));
    assert!(tally.disagreements.is_empty(), "{:?}", tally.disagreements);

    let tree = parse_cpp(src);
    let node = all_nodes(&tree)
        .into_iter()
        .find(|n| n.kind() == "gnu_asm_expression")
        .unwrap();
    let mut stmt = find_asm_statements(&file).remove(0);
    assert!(compare_statement(src, &stmt, node).is_empty());
    stmt.inputs.pop();
    stmt.clobbers.clear();
    assert_eq!(compare_statement(src, &stmt, node).len(), 2);
}

/// `PTXGUARD_REFEREE_DIR=/path/to/tree cargo test -p ptxguard-analyzer --test referee --
/// --ignored --nocapture`: the same comparison on real files, every disagreement printed.
#[test]
#[ignore = "needs PTXGUARD_REFEREE_DIR"]
fn real_projects() {
    let dir = std::env::var_os("PTXGUARD_REFEREE_DIR").expect("set PTXGUARD_REFEREE_DIR");
    let tally = referee_dir(Path::new(&dir));
    for d in &tally.disagreements {
        println!("{d}");
    }
    println!(
        "referee on {}: {}",
        Path::new(&dir).display(),
        tally.summary()
    );
}

/// Whether tree-sitter's asm node is a declaration's asm label: a declaration holds it before
/// any statement does.
fn is_asm_label(node: Node) -> bool {
    let mut at = node.parent();
    while let Some(p) = at {
        match p.kind() {
            "expression_statement" | "compound_statement" | "translation_unit" => return false,
            k if k.ends_with("declaration") => return true,
            _ => at = p.parent(),
        }
    }
    false
}
