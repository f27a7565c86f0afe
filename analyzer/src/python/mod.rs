//! The Python front end: inline PTX handed to LLVM from Python, found on a tree-sitter parse.
//!
//! - Triton `tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)`;
//! - MLIR / CuTe DSL `llvm.inline_asm(res, operands_, asm_string, constraints,
//!   has_side_effects=, asm_dialect=, ...)`, however the `llvm` dialect module was imported;
//! - CUDA C++ held in Python strings (cupy `RawKernel`/`RawModule`, torch
//!   `load_inline(cuda_sources=...)`, cuda.core `Program`): the C++ front end runs on the
//!   decoded string and its spans are mapped back into the Python literal.
//!
//! Each call becomes the same [`AsmStatement`] the C++ side makes, in LLVM inline-asm syntax
//! ([`PercentMode::Llvm`]), so the PTX rules apply unchanged. A string argument is known when
//! it is a literal, a concatenation of literals, or a name bound once, to such a value, in the
//! same function or module; anything else is an unknown piece.

mod strings;

pub use strings::push_python_literal;

use crate::cpp::{
    AsmOperand, AsmStatement, Clobber, Constraint, Context, Function, Origin, PythonApi, PythonCall,
};
use crate::ptx::{self, PercentMode};
use crate::template::Template;
use crate::{SourceFile, Span};
use std::collections::HashMap;
use std::path::Path;
use tree_sitter::{Node, Parser};

/// Byte strings one of which a Python file must hold to be worth parsing: the calls the
/// front end looks at (`inline_asm(` also ends `llvm.inline_asm(`).
pub const MARKERS: [&[u8]; 6] = [
    b"inline_asm(",
    b"inline_asm_elementwise(",
    b"RawKernel(",
    b"RawModule(",
    b"load_inline(",
    b"Program(",
];

/// Whether the path names a Python source file.
pub fn is_python_path(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "py")
}

/// True when the text may hold inline asm handed over from Python (cheap pre-filter).
pub fn may_contain_inline_asm(bytes: &[u8]) -> bool {
    static FINDERS: std::sync::OnceLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::OnceLock::new();
    FINDERS
        .get_or_init(|| MARKERS.iter().map(memchr::memmem::Finder::new).collect())
        .iter()
        .any(|f| f.find(bytes).is_some())
}

/// Finds and models every inline-asm call of a Python file, in source order.
pub fn find_statements(file: &SourceFile) -> Vec<AsmStatement> {
    if !may_contain_inline_asm(file.text.as_bytes()) {
        return Vec::new();
    }
    let Some(tree) = parse(&file.text) else {
        return Vec::new();
    };
    let module = Module::new(&file.text, tree.root_node());
    let mut statements = Vec::new();
    for &call in &module.calls {
        module.call(call, &mut statements);
    }
    statements.sort_by_key(|s| {
        (
            s.span.start,
            s.template.pieces.first().map(|p| p.source.start),
        )
    });
    statements
}

/// Where the `#` comments and the inline-asm calls of a Python file are (suppression comments
/// and baseline fingerprints).
pub fn outline(file: &SourceFile) -> crate::cpp::outline::Outline {
    let mut out = crate::cpp::outline::Outline::default();
    out.comments = comments(&file.text);
    out.asm_statements = find_statements(file).iter().map(|s| s.span).collect();
    out.asm_statements.sort_by_key(|s| s.start);
    out
}

/// Parses the parts of the file that can matter (see [`regions`]).
fn parse(text: &str) -> Option<tree_sitter::Tree> {
    thread_local! {
        static PARSER: std::cell::RefCell<Option<Parser>> = const { std::cell::RefCell::new(None) };
    }
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let parser = slot.get_or_insert_with(|| {
            let mut p = Parser::new();
            // The grammar is built with this crate: setting it cannot fail.
            let _ = p.set_language(&tree_sitter_python::LANGUAGE.into());
            p
        });
        // Parsing is most of the cost: only the top-level statements that can matter are
        // parsed (the whole file when the ranges cannot be set).
        let ranges = regions(text);
        if parser.set_included_ranges(&ranges).is_err() {
            let _ = parser.set_included_ranges(&[]);
        }
        // tree-sitter's error recovery can take seconds per 10 KB on text that is far from
        // Python: the parse stops with the file's budget (then `enter` reports it).
        let bytes = text.as_bytes();
        let mut stop = |_: &tree_sitter::ParseState| crate::phase::should_stop();
        let tree = parser.parse_with_options(
            &mut |at, _| bytes.get(at..).unwrap_or_default(),
            None,
            Some(tree_sitter::ParseOptions::new().progress_callback(&mut stop)),
        );
        if tree.is_none() {
            parser.reset();
            crate::phase::enter("Python front end", "");
        }
        tree
    })
}

/// Whether a top-level statement that is not a definition may bind a name a call uses: an
/// import, an assignment, a `try:` (guarded imports). Docstrings, `if __name__` blocks and
/// expression statements are skipped.
fn binds_names(block: &[u8]) -> bool {
    if [&b"import "[..], b"from ", b"try:", b"#"]
        .iter()
        .any(|p| block.starts_with(p))
    {
        return true;
    }
    let name_end = block
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .unwrap_or(block.len());
    let rest = &block[name_end..];
    let rest = &rest[rest.iter().position(|b| *b != b' ').unwrap_or(rest.len())..];
    name_end > 0 && (rest.starts_with(b":") || (rest.starts_with(b"=") && !rest.starts_with(b"==")))
}

/// The byte ranges worth parsing: the top-level imports and assignments (they bind the names
/// calls use), and the statements, `def`s and `class`es (with their decorators) that hold a
/// call marker.
pub fn regions(text: &str) -> Vec<tree_sitter::Range> {
    let (starts, row) = top_level(text, &mut Vec::new());
    ranges_of(text, starts, row)
}

/// The `#` comments of a Python file, by the same small lexer (no parse: tree-sitter's error
/// recovery on text far from Python takes seconds per 10 KB).
pub fn comments(text: &str) -> Vec<Span> {
    let mut comments = Vec::new();
    top_level(text, &mut comments);
    comments
}

/// Top-level statement starts (byte, row) and the number of rows; `#` comments go to
/// `comments`.
fn top_level(text: &str, comments: &mut Vec<Span>) -> (Vec<(usize, usize)>, usize) {
    let bytes = text.as_bytes();
    // Top-level statement starts: (byte, row), found by a small lexer that knows strings,
    // comments, brackets and line continuations.
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let (mut depth, mut row, mut i) = (0i32, 0usize, 0usize);
    let mut line_start = true;
    let mut continued = false;
    while i < bytes.len() {
        let b = bytes[i];
        if line_start {
            line_start = false;
            let dedent_keyword = ["else", "elif", "except", "finally", "case"]
                .iter()
                .any(|k| bytes[i..].starts_with(k.as_bytes()));
            if depth == 0
                && !continued
                && !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'#' | b'\x0c')
                && !dedent_keyword
            {
                starts.push((i, row));
            }
            continued = false;
        }
        match b {
            b'\n' => {
                row += 1;
                line_start = true;
                i += 1;
            }
            b'\\' => {
                continued = bytes.get(i + 1) == Some(&b'\n')
                    || (bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n'));
                i += 2;
                if continued {
                    row += 1;
                    line_start = true;
                    i += usize::from(bytes.get(i - 1) == Some(&b'\r'));
                }
            }
            b'#' => {
                let end = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                // Without the line end (tree-sitter's comment node, for the same spans).
                let end = if end > i && bytes[end - 1] == b'\r' {
                    end - 1
                } else {
                    end
                };
                comments.push(Span::new(i, end));
                i = end.max(i + 1);
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b')' | b']' | b'}' => {
                depth = (depth - 1).max(0);
                i += 1;
            }
            b'"' | b'\'' => {
                let triple = bytes.get(i + 1) == Some(&b) && bytes.get(i + 2) == Some(&b);
                let raw = i > 0 && matches!(bytes[i - 1], b'r' | b'R')
                    || i > 1
                        && matches!(bytes[i - 2], b'r' | b'R')
                        && bytes[i - 1].is_ascii_alphabetic();
                i += if triple { 3 } else { 1 };
                while i < bytes.len() {
                    let c = bytes[i];
                    if c == b'\\'
                        && !(raw
                            && bytes.get(i + 1) != Some(&b)
                            && bytes.get(i + 1) != Some(&b'\\'))
                    {
                        row += usize::from(bytes.get(i + 1) == Some(&b'\n'));
                        i += 2;
                        continue;
                    }
                    if c == b'\n' {
                        row += 1;
                        if !triple {
                            break;
                        }
                    }
                    if c == b
                        && (!triple
                            || (bytes.get(i + 1) == Some(&b) && bytes.get(i + 2) == Some(&b)))
                    {
                        i += if triple { 3 } else { 1 };
                        break;
                    }
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    if starts.first().is_none_or(|&(at, _)| at != 0) {
        // Leading comments and blank lines (an `allow-file` comment may be there).
        starts.insert(0, (0, 0));
    }
    (starts, row)
}

/// The ranges of the statements worth parsing, from [`top_level`]'s starts.
fn ranges_of(text: &str, starts: Vec<(usize, usize)>, row: usize) -> Vec<tree_sitter::Range> {
    let bytes = text.as_bytes();
    let mut ranges: Vec<tree_sitter::Range> = Vec::new();
    let mut k = 0;
    while k < starts.len() {
        let (start, start_row) = starts[k];
        // A decorator belongs to the definition after it.
        let mut next = k + 1;
        while bytes[starts[next - 1].0] == b'@' && next < starts.len() {
            next += 1;
        }
        let (end, end_row) = starts.get(next).copied().unwrap_or((bytes.len(), row));
        let block = &bytes[start..end];
        let head = &bytes[starts[next - 1].0..end];
        let definition = block.starts_with(b"@")
            || head.starts_with(b"def ")
            || head.starts_with(b"async ")
            || head.starts_with(b"class ");
        if (!definition && binds_names(block)) || may_contain_inline_asm(block) {
            match ranges.last_mut() {
                Some(last) if last.end_byte == start => {
                    last.end_byte = end;
                    last.end_point = tree_sitter::Point::new(end_row, 0);
                }
                _ => ranges.push(tree_sitter::Range {
                    start_byte: start,
                    end_byte: end,
                    start_point: tree_sitter::Point::new(start_row, 0),
                    end_point: tree_sitter::Point::new(end_row, 0),
                }),
            }
        }
        k = next;
    }
    if let Some(last) = ranges.last_mut() {
        if last.end_byte == bytes.len() {
            // The end point of the last range: its row and column.
            let line = text[..bytes.len()].rfind('\n').map_or(0, |n| n + 1);
            last.end_point = tree_sitter::Point::new(row, bytes.len() - line);
        }
    }
    ranges
}

/// What one call is, by its callee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CallKind {
    Triton,
    Mlir,
    /// The C++ source is this positional argument or keyword.
    Cpp(usize, &'static str),
}

/// Names bound in a scope: how many times, and the value of the last plain assignment.
#[derive(Default)]
struct Binding<'t> {
    count: u32,
    value: Option<Node<'t>>,
}

struct Module<'t> {
    text: &'t str,
    /// `(scope start byte, name)` -> binding; the module scope starts at 0 (function scopes
    /// at their `def`, which is never byte 0 of a module with a call in it).
    bindings: HashMap<(usize, &'t str), Binding<'t>>,
    /// Names standing for the MLIR `llvm` dialect module.
    llvm_modules: Vec<&'t str>,
    /// Names standing for `llvm.inline_asm` itself.
    inline_asm_functions: Vec<&'t str>,
    /// Every call, in the order of the walk.
    calls: Vec<Node<'t>>,
    /// The scope of the node the walk is at (the start of its innermost enclosing function
    /// or lambda, 0 for the module), kept by the walk: asking each node for its parents costs
    /// the depth each time, and nesting is the input's to choose.
    current_scope: usize,
    /// Every function and lambda's byte range, in walk order (so by start).
    functions: Vec<(usize, usize)>,
    /// Name lookups left for the call being modelled: names bound to themselves or to each
    /// other (`p = p`, `a = b` `b = a`) would otherwise be followed forever.
    lookups: std::cell::Cell<u32>,
    /// Per call (by node id): its enclosing function or lambda, and whether it is a whole
    /// expression statement (its result discarded). Kept by the walk for the same reason.
    call_facts: HashMap<usize, (Option<Node<'t>>, bool)>,
}

impl<'t> Module<'t> {
    fn new(text: &'t str, root: Node<'t>) -> Module<'t> {
        let mut module = Module {
            text,
            bindings: HashMap::new(),
            llvm_modules: vec!["llvm"],
            inline_asm_functions: Vec::new(),
            calls: Vec::new(),
            current_scope: 0,
            call_facts: HashMap::new(),
            functions: Vec::new(),
            lookups: std::cell::Cell::new(0),
        };
        // One pass with one cursor: calls are judged once every name is bound.
        let mut cursor = root.walk();
        // The nodes from the root to the cursor (the cursor's own depth query walks its
        // stack, so the depth is kept here too).
        let mut path: Vec<Node<'t>> = Vec::new();
        let mut depth = 0usize;
        // Enclosing functions and lambdas: (node, depth).
        let mut scopes: Vec<(Node<'t>, usize)> = Vec::new();
        'walk: loop {
            let node = cursor.node();
            path.truncate(depth);
            path.push(node);
            while scopes.last().is_some_and(|&(_, d)| d >= depth) {
                scopes.pop();
            }
            // A function's own node belongs to the scope around it.
            let function = scopes.last().map(|&(f, _)| f);
            module.current_scope = function.map_or(0, |f| f.start_byte().max(1));
            if matches!(node.kind(), "function_definition" | "lambda") {
                scopes.push((node, depth));
                module.functions.push((node.start_byte(), node.end_byte()));
            }
            match node.kind() {
                "call" => {
                    let statement = depth > 0 && path[depth - 1].kind() == "expression_statement";
                    module.call_facts.insert(node.id(), (function, statement));
                    module.calls.push(node);
                }
                "assignment" => module.assignment(node),
                "augmented_assignment" | "for_statement" => {
                    if let Some(left) = node.child_by_field_name("left") {
                        module.bind(left, None);
                    }
                }
                "parameters" => {
                    let mut params = node.walk();
                    for p in node.named_children(&mut params) {
                        let name = if p.kind() == "identifier" {
                            Some(p)
                        } else {
                            p.child_by_field_name("name")
                                .or_else(|| p.named_child(0))
                                .filter(|n| n.kind() == "identifier")
                        };
                        if let Some(name) = name {
                            module.bind(name, None);
                        }
                    }
                }
                "import_statement" | "import_from_statement" => module.import(node),
                _ => {}
            }
            // Strings and comments hold nothing to look at.
            let leaf = matches!(node.kind(), "string" | "comment" | "concatenated_string");
            if !leaf && cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
                depth -= 1;
            }
        }
        module
    }

    fn text_of(&self, node: Node) -> &'t str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    fn assignment(&mut self, node: Node<'t>) {
        let Some(left) = node.child_by_field_name("left") else {
            return;
        };
        // `a = b = "..."` nests the second assignment as the value.
        let right = node
            .child_by_field_name("right")
            .filter(|r| r.kind() != "assignment");
        self.bind(left, right);
    }

    fn bind(&mut self, target: Node<'t>, value: Option<Node<'t>>) {
        let mut names = Vec::new();
        let mut stack = vec![target];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "identifier" => names.push(n),
                "pattern_list" | "tuple_pattern" | "list_pattern" | "list_splat_pattern" => {
                    let mut cursor = n.walk();
                    stack.extend(n.named_children(&mut cursor));
                }
                _ => {}
            }
        }
        let single = names.len() == 1 && target.kind() == "identifier";
        for name in names {
            let key = (self.current_scope, self.text_of(name));
            let binding = self.bindings.entry(key).or_default();
            binding.count += 1;
            binding.value = if single { value } else { None };
        }
    }

    fn import(&mut self, node: Node<'t>) {
        let from = node
            .child_by_field_name("module_name")
            .map(|m| self.text_of(m));
        let mut cursor = node.walk();
        for child in node.children_by_field_name("name", &mut cursor) {
            let (imported, bound) = match child.kind() {
                "aliased_import" => {
                    let name = child.child_by_field_name("name").map(|n| self.text_of(n));
                    let alias = child.child_by_field_name("alias").map(|n| self.text_of(n));
                    match (name, alias) {
                        (Some(n), Some(a)) => (n, a),
                        _ => continue,
                    }
                }
                // `import a.b.llvm` binds `a`: calls then spell the whole path.
                "dotted_name" => (self.text_of(child), self.text_of(child)),
                _ => continue,
            };
            let full = match from {
                Some(m) => format!("{m}.{imported}"),
                None => imported.to_string(),
            };
            if full.ends_with("dialects.llvm") {
                self.llvm_modules.push(bound);
            } else if full.ends_with("dialects.llvm.inline_asm") {
                self.inline_asm_functions.push(bound);
            }
        }
    }

    fn kind_of(&self, callee: Node) -> Option<CallKind> {
        let (object, name) = match callee.kind() {
            "identifier" => (None, self.text_of(callee)),
            "attribute" => (
                callee.child_by_field_name("object"),
                self.text_of(callee.child_by_field_name("attribute")?),
            ),
            _ => return None,
        };
        let object_is_llvm = object.is_some_and(|o| {
            let text = self.text_of(o);
            self.llvm_modules.contains(&text) || text.ends_with("dialects.llvm")
        });
        match name {
            "inline_asm_elementwise" => Some(CallKind::Triton),
            "inline_asm" if object_is_llvm => Some(CallKind::Mlir),
            n if object.is_none() && self.inline_asm_functions.contains(&n) => Some(CallKind::Mlir),
            "RawKernel" | "RawModule" | "Program" => Some(CallKind::Cpp(0, "code")),
            "load_inline" => Some(CallKind::Cpp(2, "cuda_sources")),
            _ => None,
        }
    }

    fn call(&self, node: Node<'t>, out: &mut Vec<AsmStatement>) {
        self.lookups.set(NAME_LOOKUPS_PER_CALL);
        let (Some(callee), Some(arguments)) = (
            node.child_by_field_name("function"),
            node.child_by_field_name("arguments"),
        ) else {
            return;
        };
        let Some(kind) = self.kind_of(callee) else {
            return;
        };
        if arguments.kind() != "argument_list" {
            return;
        }
        let args = Args::new(self, arguments);
        match kind {
            CallKind::Triton | CallKind::Mlir => {
                if let Some(stmt) = self.inline_asm(node, callee, arguments, &args, kind) {
                    out.push(stmt);
                }
            }
            CallKind::Cpp(position, keyword) => {
                if let Some(code) = args.get(position, keyword) {
                    self.cpp_in_string(code, out);
                }
            }
        }
    }

    /// The literal string nodes a value is made of, when it is known.
    fn literal_strings(&self, node: Node<'t>, depth: u32, out: &mut Vec<Node<'t>>) -> bool {
        if depth > 8 {
            return false;
        }
        match node.kind() {
            "string" => {
                out.push(node);
                true
            }
            "concatenated_string" => {
                let mut cursor = node.walk();
                // Comments may stand between the pieces of a parenthesised concatenation.
                let parts: Vec<Node> = node
                    .named_children(&mut cursor)
                    .filter(|p| p.kind() != "comment")
                    .collect();
                parts
                    .into_iter()
                    .all(|p| self.literal_strings(p, depth + 1, out))
            }
            "parenthesized_expression" => node
                .named_child(0)
                .is_some_and(|inner| self.literal_strings(inner, depth + 1, out)),
            "binary_operator" => {
                let is_plus = node
                    .child_by_field_name("operator")
                    .is_some_and(|o| o.kind() == "+");
                is_plus
                    && node
                        .child_by_field_name("left")
                        .is_some_and(|l| self.literal_strings(l, depth + 1, out))
                    && node
                        .child_by_field_name("right")
                        .is_some_and(|r| self.literal_strings(r, depth + 1, out))
            }
            "identifier" => self
                .bound_value(node)
                .is_some_and(|v| self.literal_strings(v, depth + 1, out)),
            _ => false,
        }
    }

    /// The value of a name bound exactly once in the innermost scope that binds it.
    fn bound_value(&self, name: Node<'t>) -> Option<Node<'t>> {
        let left = self.lookups.get();
        if left == 0 {
            return None;
        }
        self.lookups.set(left - 1);
        let text = self.text_of(name);
        let (start, end) = (name.start_byte(), name.end_byte());
        // The scopes around the name, innermost first (functions nest, so the ones holding
        // it, latest start first), then the module.
        let mut scopes: Vec<usize> = self
            .functions
            .iter()
            .filter(|&&(s, e)| s <= start && end <= e && (s, e) != (start, end))
            .map(|&(s, _)| s.max(1))
            .collect();
        scopes.reverse();
        scopes.push(0);
        for scope in scopes {
            if let Some(binding) = self.bindings.get(&(scope, text)) {
                return if binding.count == 1 {
                    binding.value
                } else {
                    None
                };
            }
        }
        None
    }

    /// Appends a string-valued argument to a template: its literals, or one unknown piece.
    fn push_string(&self, node: Node<'t>, template: &mut Template) {
        let mut literals = Vec::new();
        if !self.literal_strings(node, 0, &mut literals) {
            // `"..." + expr`: the known side stays known.
            let is_plus = node.kind() == "binary_operator"
                && node
                    .child_by_field_name("operator")
                    .is_some_and(|o| o.kind() == "+");
            match (
                is_plus,
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            ) {
                (true, Some(left), Some(right)) => {
                    self.push_string(left, template);
                    self.push_string(right, template);
                }
                _ => template.push_unknown(span_of(node)),
            }
            return;
        }
        for literal in literals {
            let mut cursor = literal.walk();
            let fields: Vec<std::ops::Range<usize>> = literal
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "interpolation")
                .map(|c| c.byte_range())
                .collect();
            push_python_literal(self.text, literal.byte_range(), &fields, template);
        }
    }

    fn literal_bool(&self, node: Node<'t>) -> Option<bool> {
        match node.kind() {
            "true" => Some(true),
            "false" => Some(false),
            "identifier" => self.bound_value(node).and_then(|v| self.literal_bool(v)),
            _ => None,
        }
    }

    fn literal_int(&self, node: Node<'t>) -> Option<u32> {
        match node.kind() {
            "integer" => self.text_of(node).replace('_', "").parse().ok(),
            "identifier" => self.bound_value(node).and_then(|v| self.literal_int(v)),
            _ => None,
        }
    }

    /// The items of a literal list or tuple (one item for anything else when `single`).
    fn items(&self, node: Node<'t>, single: bool) -> Option<Vec<Node<'t>>> {
        match node.kind() {
            "list" | "tuple" => {
                let mut cursor = node.walk();
                let items: Vec<Node> = node.named_children(&mut cursor).collect();
                // A splat makes the length unknown.
                (!items.iter().any(|i| i.kind().contains("splat"))).then_some(items)
            }
            "parenthesized_expression" => node.named_child(0).and_then(|n| self.items(n, single)),
            "identifier" if !single => self.bound_value(node).and_then(|v| self.items(v, false)),
            _ if single => Some(vec![node]),
            _ => None,
        }
    }

    fn inline_asm(
        &self,
        call: Node<'t>,
        callee: Node<'t>,
        arguments: Node<'t>,
        args: &Args<'t>,
        kind: CallKind,
    ) -> Option<AsmStatement> {
        let triton = kind == CallKind::Triton;
        let (asm, constraints) = if triton {
            (args.get(0, "asm")?, args.get(1, "constraints")?)
        } else {
            (args.get(2, "asm_string")?, args.get(3, "constraints")?)
        };
        let mut constraint_text = Template::default();
        self.push_string(constraints, &mut constraint_text);
        // Without the constraints the operands are unknown: nothing can be judged.
        if constraint_text.is_partial() {
            return None;
        }
        let mut template = Template::default();
        self.push_string(asm, &mut template);

        let (inputs_arg, side_arg) = if triton {
            (args.get(2, "args"), args.get(4, "is_pure"))
        } else {
            (args.get(1, "operands_"), args.keyword("has_side_effects"))
        };
        let input_items: Option<Vec<Node>> = inputs_arg.and_then(|a| self.items(a, false));
        let results = if triton {
            args.get(3, "dtype").and_then(|d| self.items(d, true))
        } else {
            args.get(0, "res").and_then(|r| self.mlir_results(r))
        };
        let pack = if triton {
            args.get(5, "pack")
                .map(|p| (span_of(p), self.literal_int(p)))
        } else {
            None
        };
        let asm_dialect = args.keyword("asm_dialect");
        let python = PythonCall {
            api: if triton {
                PythonApi::TritonElementwise
            } else {
                PythonApi::MlirInlineAsm
            },
            side_effects: side_arg.map(|n| (span_of(n), self.literal_bool(n))),
            pack,
            result_types: results.as_ref().map(|r| {
                r.iter()
                    .map(|n| (self.text_of(*n).to_string(), span_of(*n)))
                    .collect()
            }),
            args: input_items
                .as_ref()
                .map(|i| i.iter().map(|n| span_of(*n)).collect()),
            asm_dialect: asm_dialect.map(|n| (self.text_of(n).to_string(), span_of(n))),
            constraints_end: constraints_end(self, constraints),
            asm_dialect_arg: args.keyword_argument("asm_dialect").map(span_of),
            result_discarded: self.call_facts.get(&call.id()).is_some_and(|f| f.1),
        };

        let (mut outputs, mut inputs, clobbers) = split_constraints(&constraint_text, self.text);
        // Operand expressions: Triton's results and inputs are one register each only at `pack=1`
        // with 32-bit or wider types; the labels then name them.
        let one_to_one = !triton || python.pack.is_some_and(|(_, p)| p == Some(1));
        if one_to_one {
            if let Some(results) = &results {
                if results.len() == outputs.len() {
                    for (op, r) in outputs.iter_mut().zip(results) {
                        op.expr = self.text_of(*r).to_string();
                        op.expr_span = span_of(*r);
                    }
                }
            }
            if let Some(items) = &input_items {
                if items.len() == inputs.len() {
                    for (op, r) in inputs.iter_mut().zip(items) {
                        op.expr = self.text_of(*r).to_string();
                        op.expr_span = span_of(*r);
                    }
                }
            }
        }
        let qualifiers = if python.has_side_effects() {
            vec![(
                "volatile".to_string(),
                python.side_effects.map_or(span_of(callee), |(s, _)| s),
            )]
        } else {
            Vec::new()
        };
        let open = arguments.start_byte();
        let close = arguments.end_byte();
        let mut stmt = AsmStatement {
            span: span_of(call),
            keyword: span_of(callee),
            qualifiers,
            open_paren: Span::new(open, open + 1),
            close_paren: if self.text.as_bytes().get(close.saturating_sub(1)) == Some(&b')') {
                Span::new(close - 1, close)
            } else {
                Span::empty_at(close)
            },
            template,
            outputs: std::mem::take(&mut outputs),
            inputs: std::mem::take(&mut inputs),
            clobbers,
            colons: Vec::new(),
            context: Context {
                function: self
                    .call_facts
                    .get(&call.id())
                    .and_then(|f| f.0)
                    .and_then(|f| self.function(f)),
                ..Context::default()
            },
            macro_name: None,
            ptx: ptx::Ptx::default(),
            origin: Origin::Python(python),
        };
        stmt.ptx = ptx::parse(&stmt.template.text, PercentMode::Llvm);
        Some(stmt)
    }

    /// MLIR result types: `T.i32()`, a list of them, or `llvm.StructType.get_literal([...])`;
    /// `None` (`res=None`) is no result.
    fn mlir_results(&self, node: Node<'t>) -> Option<Vec<Node<'t>>> {
        match node.kind() {
            "none" => Some(Vec::new()),
            "call" => {
                let callee = self.text_of(node.child_by_field_name("function")?);
                if callee.ends_with("get_literal") || callee.ends_with("StructType.get") {
                    let list = node.child_by_field_name("arguments")?.named_child(0)?;
                    self.items(list, false)
                } else {
                    Some(vec![node])
                }
            }
            _ => Some(vec![node]),
        }
    }

    fn function(&self, def: Node<'t>) -> Option<Function> {
        let name = def.child_by_field_name("name")?;
        let body = def.child_by_field_name("body")?;
        let qualifiers = match def.parent() {
            Some(p) if p.kind() == "decorated_definition" => {
                let mut cursor = p.walk();
                p.named_children(&mut cursor)
                    .filter(|c| c.kind() == "decorator")
                    .map(|d| self.text_of(d).trim_start_matches('@').trim().to_string())
                    .collect()
            }
            _ => Vec::new(),
        };
        Some(Function {
            name: self.text_of(name).to_string(),
            name_span: span_of(name),
            qualifiers,
            body: span_of(body),
        })
    }

    /// C++ source in a Python string: the C++ front end on the decoded text, its spans mapped
    /// back to the literal.
    fn cpp_in_string(&self, code: Node<'t>, out: &mut Vec<AsmStatement>) {
        let pieces = match code.kind() {
            "list" | "tuple" => self.items(code, false).unwrap_or_default(),
            _ => vec![code],
        };
        for piece in pieces {
            let mut literals = Vec::new();
            if !self.literal_strings(piece, 0, &mut literals) {
                continue;
            }
            let mut decoded = Template::default();
            self.push_string(piece, &mut decoded);
            if !crate::cpp::may_contain_asm(decoded.text.as_bytes()) {
                continue;
            }
            let inner = SourceFile::new("python-string.cu", decoded.text.clone());
            let map = |s: Span| decoded.source_span(s.range());
            for mut stmt in crate::cpp::find_asm_statements(&inner) {
                stmt.remap(&map);
                stmt.origin = Origin::CppInPython;
                out.push(stmt);
            }
        }
    }
}

/// Where the constraint string's text ends, when its last piece is a plain literal: the byte
/// before its closing quote.
fn constraints_end(module: &Module, node: Node) -> Option<usize> {
    let mut literals = Vec::new();
    if !module.literal_strings(node, 0, &mut literals) {
        return None;
    }
    let last = *literals.last()?;
    let text = module.text_of(last);
    let quote = text.bytes().last()?;
    (matches!(quote, b'"' | b'\'') && text.len() >= 2).then(|| {
        let triple = text.len() >= 6
            && text.ends_with(&std::iter::repeat_n(quote as char, 3).collect::<String>());
        last.end_byte() - if triple { 3 } else { 1 }
    })
}

/// The operands and clobbers of an LLVM constraint string (`=r,=&l,r,0,~{memory}`), in order.
fn split_constraints(
    constraints: &Template,
    _source: &str,
) -> (Vec<AsmOperand>, Vec<AsmOperand>, Vec<Clobber>) {
    let (mut outputs, mut inputs, mut clobbers) = (Vec::new(), Vec::new(), Vec::new());
    let text = &constraints.text;
    let mut start = 0;
    for end in text
        .match_indices(',')
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
    {
        let raw = &text[start..end];
        let lead = raw.len() - raw.trim_start().len();
        let piece = raw.trim();
        let range = start + lead..start + lead + piece.len();
        start = end + 1;
        if piece.is_empty() {
            continue;
        }
        let span = constraints.source_span(range);
        if let Some(clobber) = piece.strip_prefix("~{").and_then(|c| c.strip_suffix('}')) {
            clobbers.push(Clobber {
                text: clobber.to_string(),
                span,
            });
            continue;
        }
        let is_output = piece.starts_with('=');
        let op = AsmOperand {
            index: 0,
            is_output,
            name: None,
            constraint: Constraint {
                text: piece.to_string(),
                span,
                known: true,
            },
            // Replaced by the argument or dtype where the call pairs them one to one.
            expr: piece.to_string(),
            expr_span: span,
            ty: Default::default(),
            missing_comma_at: None,
        };
        if is_output {
            outputs.push(op);
        } else {
            inputs.push(op);
        }
    }
    for (i, op) in outputs.iter_mut().chain(inputs.iter_mut()).enumerate() {
        op.index = i;
    }
    // An input tied to output N (`0`) hands its value in through that output's register:
    // the output is read and written, which C++ spells `+`; the input is used through it.
    for input in &mut inputs {
        let text = &input.constraint.text;
        let Some(tied) = text
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| text.parse::<usize>().ok())
            .flatten()
        else {
            continue;
        };
        if let Some(output) = outputs.get_mut(tied) {
            output.constraint.text = output.constraint.text.replacen('=', "+", 1);
            input.constraint.text = format!("+{}", input.constraint.text);
        }
    }
    (outputs, inputs, clobbers)
}

/// A call's arguments: positional ones in order, keyword ones by name.
struct Args<'t> {
    positional: Vec<Node<'t>>,
    keywords: Vec<(&'t str, Node<'t>, Node<'t>)>,
}

impl<'t> Args<'t> {
    fn new(module: &Module<'t>, list: Node<'t>) -> Args<'t> {
        let mut args = Args {
            positional: Vec::new(),
            keywords: Vec::new(),
        };
        let mut cursor = list.walk();
        for child in list.named_children(&mut cursor) {
            match child.kind() {
                "keyword_argument" => {
                    if let (Some(name), Some(value)) = (
                        child.child_by_field_name("name"),
                        child.child_by_field_name("value"),
                    ) {
                        args.keywords.push((module.text_of(name), value, child));
                    }
                }
                "comment" => {}
                // After `*args`, positions are unknown.
                "list_splat" | "dictionary_splat" => args.positional.push(child),
                _ => args.positional.push(child),
            }
        }
        args
    }

    fn keyword(&self, name: &str) -> Option<Node<'t>> {
        self.keywords
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, v, _)| *v)
    }

    fn keyword_argument(&self, name: &str) -> Option<Node<'t>> {
        self.keywords
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, _, whole)| *whole)
    }

    /// The argument at `position`, or the keyword argument `name`.
    fn get(&self, position: usize, name: &str) -> Option<Node<'t>> {
        if let Some(v) = self.keyword(name) {
            return Some(v);
        }
        let splat_before = self.positional[..position.min(self.positional.len())]
            .iter()
            .any(|n| n.kind().contains("splat"));
        if splat_before {
            return None;
        }
        self.positional
            .get(position)
            .copied()
            .filter(|n| !n.kind().contains("splat"))
    }
}

/// Name lookups one call's arguments may make (real code needs a handful).
const NAME_LOOKUPS_PER_CALL: u32 = 256;

fn span_of(node: Node) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

#[cfg(test)]
mod tests;
