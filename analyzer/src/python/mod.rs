//! The Python front end: inline PTX handed to LLVM from Python.
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
//! same function or module; anything else is an unknown piece. The syntax comes from one token
//! pass (`syntax.rs`).

mod strings;
pub(crate) mod syntax;
pub mod triton;

pub use strings::push_python_literal;

use crate::cpp::types::{CppClass, CppType};
use crate::cpp::{
    AsmOperand, AsmStatement, Clobber, Constraint, Context, Function, Origin, PythonApi, PythonCall,
};
use crate::ptx::{self, PercentMode};
use crate::template::Template;
use crate::{SourceFile, Span};
use std::borrow::Cow;
use std::ops::Range;
use syntax::{Kind, Shape, Tokens, NONE};

/// The path the C++ front end sees for C++ decoded from a Python string (read as
/// [`crate::source::Language::CppInPython`]).
pub(crate) const CPP_STRING_PATH: &str = "python-string.cu";

/// Byte strings one of which a Python file must hold to be worth reading further: the calls
/// the front end looks at (`inline_asm(` also ends `llvm.inline_asm(`).
pub const MARKERS: [&[u8]; 7] = [
    b"inline_asm(",
    b"inline_asm_elementwise(",
    b"RawKernel(",
    b"RawModule(",
    b"load_inline(",
    b"Program(",
    b"inline_ptx(",
];

/// The names of the calls the front end recognises (besides aliases of `llvm.inline_asm`).
const CALL_NAMES: [&str; 7] = [
    "inline_asm",
    "inline_asm_elementwise",
    "RawKernel",
    "RawModule",
    "load_inline",
    "Program",
    "inline_ptx",
];

/// Where the markers are in the text, in order (one SIMD pass for all of them where the
/// processor has one).
fn marker_positions(bytes: &[u8], first_only: bool) -> Vec<usize> {
    static MARKER_SEARCH: std::sync::OnceLock<Option<aho_corasick::packed::Searcher>> =
        std::sync::OnceLock::new();
    let mut found = Vec::new();
    match MARKER_SEARCH.get_or_init(|| aho_corasick::packed::Searcher::new(MARKERS)) {
        Some(search) => {
            for m in search.find_iter(bytes) {
                found.push(m.start());
                if first_only {
                    break;
                }
            }
        }
        None => {
            for marker in MARKERS {
                found.extend(memchr::memmem::find_iter(bytes, marker));
            }
            found.sort_unstable();
        }
    }
    found
}

/// True when the text may hold inline asm handed over from Python (cheap pre-filter).
pub fn may_contain_inline_asm(bytes: &[u8]) -> bool {
    !marker_positions(bytes, true).is_empty()
}

/// The text as CPython's tokenizer reads it: a lone CR ends a line (universal newlines), so it
/// becomes LF. One byte for one, so every offset still points into the file's own bytes.
pub(crate) fn universal_newlines(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !memchr::memchr_iter(b'\r', bytes).any(lone_cr) {
        return Cow::Borrowed(text);
    }
    let mut normalised = bytes.to_vec();
    for i in memchr::memchr_iter(b'\r', bytes) {
        if lone_cr(i) {
            normalised[i] = b'\n';
        }
    }
    // Replacing an ASCII byte with another keeps the text UTF-8.
    Cow::Owned(String::from_utf8(normalised).expect("an ASCII byte replaced by an ASCII byte"))
}

/// The tokens of the parts of a Python file that may matter (`text` is the file's text after
/// [`universal_newlines`]): `None` without a call marker.
fn read_module(text: &str) -> Option<Tokens<'_>> {
    let markers = marker_positions(text.as_bytes(), false);
    if markers.is_empty() {
        return None;
    }
    // Top-level definitions without a call are not read at all: most of the bytes.
    let ranges = syntax::worth_reading(text, &markers);
    Some(Tokens::of_ranges(text, &ranges))
}

/// Finds and models every inline-asm call of a Python file, in source order.
pub fn find_statements(file: &SourceFile) -> Vec<AsmStatement> {
    let text = universal_newlines(&file.text);
    let Some(tokens) = read_module(&text) else {
        return Vec::new();
    };
    let module = Module::new(&tokens);
    let mut statements = Vec::new();
    for call in module.calls() {
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

/// The C++ held in the file's strings (cupy `RawKernel`, `load_inline`, cuda.core
/// `Program`), as a text with the Python file's offsets: each decoded byte stands at the end of
/// the source bytes that wrote it (an escape's last byte), everything else is blank. The
/// preprocessor and call-graph questions about C++ (which branches and functions a target
/// compiles) read it with the offsets the statements' spans have. `None` without such a string.
pub fn cpp_view(file: &SourceFile) -> Option<SourceFile> {
    let text = universal_newlines(&file.text);
    let tokens = read_module(&text)?;
    let module = Module::new(&tokens);
    let mut view = vec![b' '; file.text.len()];
    let mut any = false;
    for call in module.calls() {
        let Some(CallKind::Cpp(position, keyword)) = module.kind_of(&call.callee) else {
            continue;
        };
        let args = Args::new(module.t, call.open + 1..call.close);
        let Some(code) = args.get(position, keyword) else {
            continue;
        };
        for source in module.cpp_sources(code) {
            any = true;
            place_decoded(&source, &mut view);
        }
    }
    if !any {
        return None;
    }
    // Bytes placed one at a time from different spans can only break UTF-8 where the source
    // did; such bytes become `?`, one for one, as in any file read.
    let text = String::from_utf8(view)
        .unwrap_or_else(|e| crate::source::replace_invalid_utf8(e.as_bytes()));
    Some(
        SourceFile::new(file.path.clone(), text)
            .with_language(crate::source::Language::CppInPython),
    )
}

/// Writes each run of decoded bytes that one source span produced at the end of that span.
fn place_decoded(source: &Template, view: &mut [u8]) {
    let bytes = source.text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let Some(span) = source.byte_source(i) else {
            break;
        };
        let mut j = i + 1;
        while j < bytes.len() && source.byte_source(j) == Some(span) {
            j += 1;
        }
        let run = &bytes[i..j];
        let end = (span.end as usize).min(view.len());
        if run.len() <= span.len() && end >= run.len() {
            view[end - run.len()..end].copy_from_slice(run);
        }
        i = j;
    }
}

/// Where the `#` comments and the inline-asm calls of a Python file are (suppression comments
/// and baseline fingerprints).
pub fn outline(file: &SourceFile) -> crate::cpp::outline::Outline {
    let text = universal_newlines(&file.text);
    let tokens = Tokens::new(&text);
    let multiline_strings = tokens
        .tokens
        .iter()
        .filter(|t| t.kind == syntax::Kind::Str)
        .map(|t| Span::new(t.start as usize, t.end as usize))
        .filter(|s| text[s.range()].contains('\n'))
        .collect();
    let mut out = crate::cpp::outline::Outline {
        comments: tokens.comments,
        multiline_strings,
        ..Default::default()
    };
    out.asm_statements = find_statements(file).iter().map(|s| s.span).collect();
    out.asm_statements.sort_by_key(|s| s.start);
    out
}

/// The type a DSL or dtype name stands for: `Int32`, `Uint64`, `Float16`, `int32`, `float64`,
/// `i32`, `f32` (16, 32 and 64 bits).
fn named_type(name: &str) -> Option<CppType> {
    let lower = name.to_ascii_lowercase();
    let (class, digits) = if let Some(d) = lower.strip_prefix("uint") {
        (CppClass::Unsigned, d)
    } else if let Some(d) = lower.strip_prefix("int") {
        (CppClass::Signed, d)
    } else if let Some(d) = lower.strip_prefix("float") {
        (CppClass::Float, d)
    } else if let Some(d) = lower.strip_prefix('i') {
        (CppClass::Signed, d)
    } else if let Some(d) = lower.strip_prefix('f') {
        (CppClass::Float, d)
    } else {
        return None;
    };
    let bits: u16 = digits.parse().ok()?;
    matches!(bits, 16 | 32 | 64).then(|| CppType {
        spelling: name.into(),
        bits,
        class,
    })
}

/// The register letter MLIR's PTX builder (behind `nvvm.inline_ptx`) gives a value of this
/// type (`getRegisterType` in MLIR's `BasicPtxBuilderInterface.cpp`: i16 `h`, i32 `r`, i64 `l`,
/// f32 `f`, f64 `d`; 16-bit floats are not supported there).
fn register_letter(ty: &CppType) -> Option<char> {
    match (ty.bits, ty.class) {
        (16, CppClass::Float) => None,
        (16, _) => Some('h'),
        (32, CppClass::Float) => Some('f'),
        (32, _) => Some('r'),
        (64, CppClass::Float) => Some('d'),
        (64, _) => Some('l'),
        _ => None,
    }
}

/// `{$w0}`, `{$r12}`, `{$rw1}` at the start of `text`: (length, group, number).
fn named_operand(text: &str) -> Option<(usize, &'static str, usize)> {
    let rest = text.strip_prefix("{$")?;
    let (group, rest) = if let Some(r) = rest.strip_prefix("rw") {
        ("rw", r)
    } else if let Some(r) = rest.strip_prefix('w') {
        ("w", r)
    } else {
        ("r", rest.strip_prefix('r')?)
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || rest.as_bytes().get(digits) != Some(&b'}') {
        return None;
    }
    let number = rest[..digits].parse().ok()?;
    Some((text.len() - rest.len() + digits + 1, group, number))
}

/// How far names, parentheses and `+` are followed (`x = x` ends; deeper is unknown).
const MAX_DEPTH: u32 = 32;

/// What one call is, by its callee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CallKind {
    Triton,
    /// PyTorch's `inline_asm_elementwise(*inputs, asm_str=, constraints=, dtype=, ...)`.
    Torch,
    /// The CuTe DSL's `cute.arch.inline_ptx(ptx_code, write_only_types=, read_only_args=,
    /// read_write_args=)`, operands written `{$w0}`, `{$r0}`, `{$rw0}`.
    InlinePtx,
    Mlir,
    /// The C++ source is this positional argument or keyword.
    Cpp(usize, &'static str),
}

/// Names bound in a scope: how many times, and the value of the last plain assignment.
#[derive(Default)]
struct Binding {
    count: u32,
    value: Option<Range<u32>>,
}

/// A function (`def`) or class body, or the module (scope 0).
struct Scope {
    parent: usize,
    /// Names bound in a class body are not seen from the functions inside it.
    class: bool,
    /// For a `def`: its name token, its decorators (token ranges) and its body's bytes.
    def: Option<(u32, Vec<Range<u32>>, Span)>,
}

/// One recognised call: the callee's tokens (`llvm.inline_asm`), its parentheses.
#[derive(Clone, Debug)]
struct Call {
    callee: Range<u32>,
    open: u32,
    close: u32,
}

/// Names that end a callee when walking back from its last name: `return llvm.inline_asm(`.
fn callee_start(t: &Tokens, name: u32) -> u32 {
    let mut p = name;
    // Bounded: a long chain of calls must not make every call walk back over all of it.
    let mut steps = 0;
    while p >= 2 && t.is_op(p - 1, ".") && steps < MAX_DEPTH {
        steps += 1;
        let mut q = p - 2;
        match t.kind(q) {
            Kind::Name if t.is_name(q) => {}
            Kind::Op if matches!(t.text_of(q), ")" | "]") && t.partner[q as usize] != NONE => {
                // A trailer chain: `a(b)[0].c`.
                q = t.partner[q as usize];
                while q >= 1 && steps < MAX_DEPTH {
                    steps += 1;
                    if matches!(t.text_of(q - 1), ")" | "]")
                        && t.kind(q - 1) == Kind::Op
                        && t.partner[q as usize - 1] != NONE
                    {
                        q = t.partner[q as usize - 1];
                    } else if t.is_name(q - 1) {
                        q -= 1;
                        break;
                    } else {
                        break;
                    }
                }
            }
            _ => break,
        }
        p = q;
    }
    p
}

struct Module<'m, 't> {
    t: &'m Tokens<'t>,
    scopes: Vec<Scope>,
    /// The scope of each token.
    scope_of: Vec<u32>,
    /// `(scope, name)` -> binding.
    bindings: foldhash::HashMap<(usize, &'t str), Binding>,
    /// Token ranges that are whole statements, in order (a call that is one is thrown away).
    statements: Vec<(u32, u32)>,
    /// Names standing for the MLIR `llvm` dialect module.
    llvm_modules: Vec<&'t str>,
    /// Names standing for `llvm.inline_asm` itself.
    inline_asm_functions: Vec<&'t str>,
}

impl<'m, 't> Module<'m, 't> {
    /// One pass over the logical lines: scopes by indentation, names bound, imports.
    fn new(t: &'m Tokens<'t>) -> Module<'m, 't> {
        let mut m = Module {
            t,
            scopes: vec![Scope {
                parent: 0,
                class: false,
                def: None,
            }],
            scope_of: vec![0; t.tokens.len()],
            bindings: Default::default(),
            statements: Vec::new(),
            llvm_modules: vec!["llvm"],
            inline_asm_functions: Vec::new(),
        };
        // Open blocks: the indentation of their header, and the scope they open.
        let mut blocks: Vec<(u32, Option<usize>)> = Vec::new();
        let mut decorators: Vec<Range<u32>> = Vec::new();
        for line in &t.lines {
            while blocks
                .last()
                .is_some_and(|&(indent, _)| line.indent <= indent)
            {
                blocks.pop();
            }
            let scope = blocks.iter().rev().find_map(|b| b.1).unwrap_or(0);
            let end = t.tokens[line.tokens.end as usize - 1].end;
            for &(_, s) in &blocks {
                if let Some((_, _, body)) = s.and_then(|s| m.scopes[s].def.as_mut()) {
                    if body.start == u32::MAX {
                        body.start = t.tokens[line.tokens.start as usize].start;
                    }
                    body.end = body.end.max(end);
                }
            }
            if let Some(open) = m.statement_list(line.tokens.clone(), scope, &mut decorators) {
                blocks.push((line.indent, open));
            }
        }
        m
    }

    /// A logical line's statements (or what follows a header's `:`) in `scope`. Returns
    /// `Some(scope)` when the line ends with a header whose block follows on the next lines
    /// (`Some(None)`: a block that opens no scope).
    fn statement_list(
        &mut self,
        range: Range<u32>,
        scope: usize,
        decorators: &mut Vec<Range<u32>>,
    ) -> Option<Option<usize>> {
        let t = self.t;
        if scope != 0 {
            self.scope_of[range.start as usize..range.end as usize].fill(scope as u32);
        }
        let mut a = range.start;
        if a >= range.end {
            return None;
        }
        if t.is_op(a, "@") {
            decorators.push(range);
            return None;
        }
        let keyword_at = |i: u32| if i < range.end { t.text_of(i) } else { "" };
        if keyword_at(a) == "async" && matches!(keyword_at(a + 1), "def" | "for" | "with") {
            a += 1;
        }
        let taken = std::mem::take(decorators);
        match (t.kind(a), keyword_at(a)) {
            (Kind::Name, "def") => self.def(range.start, a, range.end, scope, taken),
            (Kind::Name, "class") => {
                let class = self.scopes.len();
                self.scopes.push(Scope {
                    parent: scope,
                    class: true,
                    def: None,
                });
                self.header(a..range.end, class, Some(class))
            }
            (Kind::Name, "for") => {
                if let Some(in_at) = t
                    .top_level(a + 1..range.end)
                    .find(|&i| t.is_keyword(i, "in"))
                {
                    self.bind(a + 1..in_at, None, scope);
                }
                self.header(a..range.end, scope, None)
            }
            (
                Kind::Name,
                "if" | "elif" | "else" | "while" | "with" | "try" | "except" | "finally",
            ) => self.header(a..range.end, scope, None),
            (Kind::Name, "match" | "case")
                if t.is_op(range.end - 1, ":") && !t.is_op(a + 1, "=") && !t.is_op(a + 1, ".") =>
            {
                self.header(a..range.end, scope, None)
            }
            _ => {
                self.simple_statements(a..range.end, scope);
                None
            }
        }
    }

    /// Simple statements separated by `;`.
    fn simple_statements(&mut self, range: Range<u32>, scope: usize) {
        let t = self.t;
        if scope != 0 {
            self.scope_of[range.start as usize..range.end as usize].fill(scope as u32);
        }
        let mut start = range.start;
        for i in t.top_level(range.clone()).chain(std::iter::once(range.end)) {
            if i == range.end || t.is_op(i, ";") {
                if i > start {
                    self.simple_statement(start..i, scope);
                }
                start = i + 1;
            }
        }
    }

    /// A compound statement's header up to its `:`; what follows on the line is its body.
    fn header(
        &mut self,
        range: Range<u32>,
        scope: usize,
        opens: Option<usize>,
    ) -> Option<Option<usize>> {
        let colon = self.t.find_op(range.clone(), ":")?;
        if colon + 1 < range.end {
            // Only simple statements follow a header's `:` on its line.
            self.simple_statements(colon + 1..range.end, scope);
            None
        } else {
            Some(opens)
        }
    }

    fn def(
        &mut self,
        start: u32,
        keyword: u32,
        end: u32,
        scope: usize,
        decorators: Vec<Range<u32>>,
    ) -> Option<Option<usize>> {
        let t = self.t;
        let name = keyword + 1;
        if name >= end || !t.is_name(name) || !t.is_op(name + 1, "(") {
            return None;
        }
        let close = t.partner[name as usize + 1];
        if close == NONE || close >= end {
            return None;
        }
        let inner = self.scopes.len();
        self.scopes.push(Scope {
            parent: scope,
            class: false,
            def: Some((
                name,
                decorators,
                Span {
                    start: u32::MAX,
                    end: 0,
                },
            )),
        });
        let _ = start;
        for param in t.split_commas(name + 2..close) {
            let mut p = param.start;
            while p < param.end && (t.is_op(p, "*") || t.is_op(p, "**")) {
                p += 1;
            }
            if p < param.end && t.is_name(p) {
                self.bind_name(p, None, inner);
            }
        }
        let colon = t.find_op(close + 1..end, ":")?;
        if colon + 1 < end {
            let body = colon + 1..end;
            if let Some((_, _, span)) = self.scopes[inner].def.as_mut() {
                *span = t.span(&body);
            }
            self.simple_statements(body, inner);
            None
        } else {
            Some(Some(inner))
        }
    }

    /// An assignment binds its targets; imports say how `llvm` is named.
    fn simple_statement(&mut self, range: Range<u32>, scope: usize) {
        let t = self.t;
        self.statements.push((range.start, range.end));
        let first = t.text_of(range.start);
        if t.kind(range.start) == Kind::Name {
            match first {
                "import" => return self.import(None, range.start + 1..range.end),
                "from" => {
                    if let Some(import) = t
                        .top_level(range.clone())
                        .find(|&i| t.is_keyword(i, "import"))
                    {
                        let module: String =
                            (range.start + 1..import).map(|i| t.text_of(i)).collect();
                        self.import(Some(module), import + 1..range.end);
                    }
                    return;
                }
                _ if KEYWORDS_NOT_ASSIGNED.contains(&first) => return,
                _ => {}
            }
        }
        // `a = b = value`, `a: T = value`, `a: T`, `a += value`; a lambda's defaults are no
        // assignment.
        let mut parts = Vec::new();
        let mut start = range.start;
        for i in t.top_level(range.clone()) {
            if t.is_keyword(i, "lambda") {
                break;
            }
            if t.kind(i) != Kind::Op {
                continue;
            }
            match t.text_of(i) {
                "=" => {
                    parts.push(start..i);
                    start = i + 1;
                }
                op if parts.is_empty()
                    && op.len() >= 2
                    && op.ends_with('=')
                    && !matches!(op, "==" | "<=" | ">=" | "!=") =>
                {
                    // Augmented assignment.
                    return self.bind(range.start..i, None, scope);
                }
                ":" if parts.is_empty() => {
                    // An annotation: `a: T = value` or `a: T`.
                    let value = t.find_op(i..range.end, "=").map(|eq| eq + 1..range.end);
                    return self.bind(range.start..i, value, scope);
                }
                _ => {}
            }
        }
        if parts.is_empty() {
            return;
        }
        let value = start..range.end;
        let last = parts.len() - 1;
        for (k, target) in parts.into_iter().enumerate() {
            self.bind(target, (k == last).then(|| value.clone()), scope);
        }
    }
}

/// Statements that start with these words assign nothing.
const KEYWORDS_NOT_ASSIGNED: [&str; 13] = [
    "return", "pass", "raise", "del", "global", "nonlocal", "assert", "break", "continue", "yield",
    "await", "print", "lambda",
];

impl<'m, 't> Module<'m, 't> {
    /// Binds the names of an assignment target (`a`, `a, b`, `(a, [b, *c])`); only a plain
    /// name gets the value.
    fn bind(&mut self, target: Range<u32>, value: Option<Range<u32>>, scope: usize) {
        let t = self.t;
        if target.len() == 1 && t.is_name(target.start) {
            return self.bind_name(target.start, value, scope);
        }
        let mut stack = vec![target];
        while let Some(range) = stack.pop() {
            for part in t.split_commas(range) {
                let mut p = part.start;
                if t.is_op(p, "*") {
                    p += 1;
                }
                if p + 1 == part.end && t.is_name(p) {
                    self.bind_name(p, None, scope);
                } else if p < part.end
                    && matches!(t.text_of(p), "(" | "[")
                    && t.partner[p as usize] == part.end - 1
                {
                    stack.push(p + 1..part.end - 1);
                }
            }
        }
    }

    fn bind_name(&mut self, name: u32, value: Option<Range<u32>>, scope: usize) {
        let binding = self
            .bindings
            .entry((scope, self.t.text_of(name)))
            .or_default();
        binding.count += 1;
        binding.value = value;
    }

    /// `import a.b as c, d` (`from` is `None`) or `from m import a as b, (c, d)`.
    fn import(&mut self, from: Option<String>, names: Range<u32>) {
        let t = self.t;
        let names = match t.top_level(names.clone()).next() {
            Some(open) if t.is_op(open, "(") && t.partner[open as usize] != NONE => {
                open + 1..t.partner[open as usize]
            }
            _ => names,
        };
        for part in t.split_commas(names) {
            let alias = t.top_level(part.clone()).find(|&i| t.is_keyword(i, "as"));
            let dotted = part.start..alias.unwrap_or(part.end);
            if dotted.is_empty() {
                continue;
            }
            let imported: String = dotted.clone().map(|i| t.text_of(i)).collect();
            // `import a.b.llvm` binds `a`: calls then spell the whole path.
            let bound = match alias {
                Some(a) if a + 1 < part.end => t.text_of(a + 1),
                Some(_) => continue,
                None => t.source(&dotted),
            };
            let full = match &from {
                Some(m) => format!("{m}.{imported}"),
                None => imported,
            };
            if full.ends_with("dialects.llvm") {
                self.llvm_modules.push(bound);
            } else if full.ends_with("dialects.llvm.inline_asm") {
                self.inline_asm_functions.push(bound);
            }
        }
    }

    /// Every call of a recognised name, in source order.
    fn calls(&self) -> Vec<Call> {
        let t = self.t;
        let mut calls = Vec::new();
        for (i, token) in t.tokens.iter().enumerate() {
            let i = i as u32;
            // A `(` that starts a logical line begins a new statement, not a call.
            if token.kind != Kind::Name || !t.is_op(i + 1, "(") || t.starts_line(i + 1) {
                continue;
            }
            let name = t.text_of(i);
            if !CALL_NAMES.contains(&name) && !self.inline_asm_functions.contains(&name) {
                continue;
            }
            if i > 0 && (t.is_keyword(i - 1, "def") || t.is_keyword(i - 1, "class")) {
                continue;
            }
            let close = t.partner[i as usize + 1];
            if close == NONE {
                continue;
            }
            calls.push(Call {
                callee: callee_start(t, i)..i + 1,
                open: i + 1,
                close,
            });
        }
        calls
    }

    fn kind_of(&self, callee: &Range<u32>) -> Option<CallKind> {
        let t = self.t;
        let name = t.text_of(callee.end - 1);
        let object = (callee.len() > 1).then(|| callee.start..callee.end - 2);
        let object_is_llvm = object.as_ref().is_some_and(|o| {
            let text = t.source(o);
            self.llvm_modules.contains(&text) || text.ends_with("dialects.llvm")
        });
        match name {
            "inline_asm_elementwise" => Some(CallKind::Triton),
            "inline_asm" if object_is_llvm => Some(CallKind::Mlir),
            n if object.is_none() && self.inline_asm_functions.contains(&n) => Some(CallKind::Mlir),
            "RawKernel" | "RawModule" | "Program" => Some(CallKind::Cpp(0, "code")),
            "load_inline" => Some(CallKind::Cpp(2, "cuda_sources")),
            // Not `nvvm.inline_ptx` (its arguments are positional, types first).
            "inline_ptx"
                if object
                    .as_ref()
                    .is_none_or(|o| t.source(o).ends_with("arch")) =>
            {
                Some(CallKind::InlinePtx)
            }
            _ => None,
        }
    }

    fn call(&self, call: Call, out: &mut Vec<AsmStatement>) {
        let Some(mut kind) = self.kind_of(&call.callee) else {
            return;
        };
        let args = Args::new(self.t, call.open + 1..call.close);
        // PyTorch's op names its template `asm_str` (Triton's is `asm`).
        if kind == CallKind::Triton && args.keyword("asm_str").is_some() {
            kind = CallKind::Torch;
        }
        match kind {
            CallKind::Triton | CallKind::Torch | CallKind::Mlir => {
                if let Some(stmt) = self.inline_asm(&call, &args, kind) {
                    out.push(stmt);
                }
            }
            CallKind::InlinePtx => {
                if let Some(stmt) = self.inline_ptx(&call, &args) {
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

    /// `cute.arch.inline_ptx`: its named operands become `$N` (write-only outputs, then
    /// read-write ones, then inputs), each register from the operand's type where the call
    /// shows it. A predicate argument is not an operand of the template as written.
    fn inline_ptx(&self, call: &Call, args: &Args) -> Option<AsmStatement> {
        let t = self.t;
        let code = args.get(0, "ptx_code")?;
        let list = |name: &str| match args.keyword(name) {
            None => Some(Vec::new()),
            Some(v) if t.shape(&v) == Shape::None => Some(Vec::new()),
            Some(v) => self.items(&v, false),
        };
        // Without the operand lists the numbering is unknown: nothing can be judged.
        let writes = list("write_only_types")?;
        let read_writes = list("read_write_args")?;
        let reads = list("read_only_args")?;
        let mut raw = Template::default();
        self.push_string(&code, &mut raw);
        let known = writes.len() + read_writes.len() + reads.len();
        let mut names: Vec<String> = (0..writes.len())
            .map(|k| format!("{{$w{k}}}"))
            .chain((0..read_writes.len()).map(|k| format!("{{$rw{k}}}")))
            .chain((0..reads.len()).map(|k| format!("{{$r{k}}}")))
            .collect();
        let mut number_of = |group: &str, k: usize| {
            let index = match group {
                "w" if k < writes.len() => k,
                "rw" if k < read_writes.len() => writes.len() + k,
                "r" if k < reads.len() => writes.len() + read_writes.len() + k,
                // Past its list: a number past every operand, for `operand-index`.
                _ => {
                    names.push(format!("{{${group}{k}}}"));
                    names.len() - 1
                }
            };
            index
        };
        let mut template = Template::default();
        for piece in &raw.pieces {
            if piece.kind == crate::template::PieceKind::Unknown {
                template.push_unknown(piece.source);
                continue;
            }
            let text = &raw.text[piece.decoded.clone()];
            let (mut out, mut spans) = (String::new(), Vec::new());
            let mut i = 0;
            while i < text.len() {
                let at = piece.decoded.start + i;
                if let Some((len, group, k)) = named_operand(&text[i..]) {
                    let written = format!("${}", number_of(group, k));
                    let span = raw.source_span(at..at + len);
                    spans.extend(std::iter::repeat_n(span, written.len()));
                    out.push_str(&written);
                    i += len;
                    continue;
                }
                let c = text[i..].chars().next()?;
                out.push(c);
                for b in 0..c.len_utf8() {
                    spans.push(raw.byte_source(at + b).unwrap_or(piece.source));
                }
                i += c.len_utf8();
            }
            template.push_decoded(&out, &spans, piece.source, piece.raw);
        }
        let operand = |index: usize, expr: &Range<u32>, ty: Option<CppType>, prefix: &str| {
            // A read-only constant becomes an immediate (`n`): inputs get no letter.
            let letter = ty
                .as_ref()
                .filter(|_| !prefix.is_empty())
                .and_then(register_letter);
            AsmOperand {
                index,
                is_output: !prefix.is_empty(),
                name: None,
                constraint: Constraint {
                    text: format!("{prefix}{}", letter.map(String::from).unwrap_or_default()),
                    span: t.span(expr),
                    known: letter.is_some(),
                },
                expr: t.source(expr).to_string(),
                expr_span: t.span(expr),
                ty: crate::cpp::types::TypeInfo {
                    ty,
                    ..Default::default()
                },
                missing_comma_at: None,
            }
        };
        let value_type = |e: &Range<u32>| {
            self.value_type(e).or_else(|| match t.shape(e) {
                // `Int32(1)`: a DSL value of that type.
                Shape::Call { function, .. } if !function.is_empty() => {
                    named_type(t.text_of(function.end - 1))
                }
                _ => None,
            })
        };
        let mut outputs = Vec::new();
        for (k, ty) in writes.iter().enumerate() {
            let named = (t.shape(ty) != Shape::Other)
                .then(|| t.text_of(ty.end - 1))
                .and_then(named_type);
            outputs.push(operand(k, ty, named, "="));
        }
        for (k, arg) in read_writes.iter().enumerate() {
            outputs.push(operand(writes.len() + k, arg, value_type(arg), "+"));
        }
        let inputs: Vec<AsmOperand> = reads
            .iter()
            .enumerate()
            .map(|(k, arg)| operand(known - reads.len() + k, arg, value_type(arg), ""))
            .collect();
        let python = PythonCall {
            api: PythonApi::CuteInlinePtx,
            side_effects: None,
            pack: None,
            result_types: Some(
                writes
                    .iter()
                    .map(|w| (t.source(w).to_string(), t.span(w)))
                    .collect(),
            ),
            args: Some(reads.iter().map(|r| t.span(r)).collect()),
            asm_dialect: None,
            asm_dialect_arg: None,
            result_discarded: self
                .statements
                .binary_search(&(call.callee.start, call.close + 1))
                .is_ok(),
            torch_op: false,
            operand_names: names,
        };
        let callee_span = t.span(&call.callee);
        let open = t.tokens[call.open as usize].start as usize;
        let close = t.tokens[call.close as usize].start as usize;
        let stmt = AsmStatement {
            span: t.span(&(call.callee.start..call.close + 1)),
            keyword: callee_span,
            // Side effects are not said in the call: not judged (taken as volatile).
            qualifiers: vec![("volatile".to_string(), callee_span)],
            open_paren: Span::new(open, open + 1),
            close_paren: Span::new(close, close + 1),
            template,
            outputs,
            inputs,
            clobbers: Vec::new(),
            colons: Vec::new(),
            context: Context {
                function: self.function(call.callee.start),
                ..Context::default()
            },
            macro_name: None,
            ptx: ptx::Ptx::default(),
            origin: Origin::Python(python),
        };
        Some(with_ptx(stmt))
    }

    /// The literal string tokens a value is made of, when it is known.
    fn literal_strings(&self, node: &Range<u32>, depth: u32, out: &mut Vec<u32>) -> bool {
        if depth > 8 {
            return false;
        }
        match self.t.shape(node) {
            Shape::Str(token) => {
                out.push(token);
                true
            }
            Shape::Strs => {
                out.extend(node.clone());
                true
            }
            Shape::Paren(inner) => self.literal_strings(&inner, depth + 1, out),
            Shape::Binary {
                left,
                right,
                plus: true,
            } => {
                self.literal_strings(&left, depth + 1, out)
                    && self.literal_strings(&right, depth + 1, out)
            }
            Shape::Name => self
                .bound_value(node.start)
                .is_some_and(|v| self.literal_strings(&v, depth + 1, out)),
            _ => false,
        }
    }

    /// The value of a name bound exactly once in the innermost scope that binds it.
    fn bound_value(&self, name: u32) -> Option<Range<u32>> {
        let text = self.t.text_of(name);
        let mut scope = self.scope_of[name as usize] as usize;
        let mut first = true;
        loop {
            // A class body's names are seen from that body only.
            if first || !self.scopes[scope].class {
                if let Some(binding) = self.bindings.get(&(scope, text)) {
                    return if binding.count == 1 {
                        binding.value.clone()
                    } else {
                        None
                    };
                }
            }
            if scope == 0 {
                return None;
            }
            first = false;
            scope = self.scopes[scope].parent;
        }
    }

    /// Appends a string-valued argument to a template: its literals, or one unknown piece.
    fn push_string(&self, node: &Range<u32>, template: &mut Template) {
        self.push_string_at(node, 0, template);
    }

    fn push_string_at(&self, node: &Range<u32>, depth: u32, template: &mut Template) {
        let mut literals = Vec::new();
        // Each level reads the whole expression again: eight is plenty for real templates.
        if depth > 8 {
            return template.push_unknown(self.t.span(node));
        }
        if !self.literal_strings(node, 0, &mut literals) {
            // `"..." + expr`: the known side stays known.
            match self.t.shape(node) {
                Shape::Binary {
                    left,
                    right,
                    plus: true,
                } => {
                    self.push_string_at(&left, depth + 1, template);
                    self.push_string_at(&right, depth + 1, template);
                }
                _ => template.push_unknown(self.t.span(node)),
            }
            return;
        }
        for literal in literals {
            let token = self.t.tokens[literal as usize];
            let fields = self.t.fields(literal);
            push_python_literal(
                self.t.text,
                token.start as usize..token.end as usize,
                &fields,
                template,
            );
        }
    }

    fn literal_bool(&self, node: &Range<u32>) -> Option<bool> {
        let mut at = node.clone();
        for _ in 0..MAX_DEPTH {
            match self.t.shape(&at) {
                Shape::True => return Some(true),
                Shape::False => return Some(false),
                Shape::Name => at = self.bound_value(at.start)?,
                _ => return None,
            }
        }
        None
    }

    fn literal_int(&self, node: &Range<u32>) -> Option<u32> {
        let mut at = node.clone();
        for _ in 0..MAX_DEPTH {
            match self.t.shape(&at) {
                Shape::Number => return self.t.source(&at).replace('_', "").parse().ok(),
                Shape::Name => at = self.bound_value(at.start)?,
                _ => return None,
            }
        }
        None
    }

    /// The items of a literal list or tuple (one item for anything else when `single`).
    fn items(&self, node: &Range<u32>, single: bool) -> Option<Vec<Range<u32>>> {
        let mut at = node.clone();
        for _ in 0..MAX_DEPTH {
            match self.t.shape(&at) {
                Shape::List(inner) | Shape::Tuple(inner) => {
                    let items = self.t.split_commas(inner);
                    // A splat makes the length unknown.
                    return (!items.iter().any(|i| self.t.shape(i) == Shape::Splat))
                        .then_some(items);
                }
                Shape::Paren(inner) => at = inner,
                Shape::Name if !single => at = self.bound_value(at.start)?,
                _ if single => return Some(vec![at]),
                _ => return None,
            }
        }
        None
    }

    fn inline_asm(&self, call: &Call, args: &Args, kind: CallKind) -> Option<AsmStatement> {
        let t = self.t;
        let torch = kind == CallKind::Torch;
        let triton = kind == CallKind::Triton || torch;
        let (asm, constraints) = match kind {
            CallKind::Torch => (args.keyword("asm_str")?, args.keyword("constraints")?),
            CallKind::Triton => (args.get(0, "asm")?, args.get(1, "constraints")?),
            _ => (args.get(2, "asm_string")?, args.get(3, "constraints")?),
        };
        let mut constraint_text = Template::default();
        self.push_string(&constraints, &mut constraint_text);
        // Without the constraints the operands are unknown: nothing can be judged.
        if constraint_text.is_partial() {
            return None;
        }
        let mut template = Template::default();
        self.push_string(&asm, &mut template);

        let (input_items, side_arg) = match kind {
            // The op's inputs are its positional arguments.
            CallKind::Torch => (args.all_positional(), args.keyword("is_pure")),
            CallKind::Triton => (
                args.get(2, "args").and_then(|a| self.items(&a, false)),
                args.get(4, "is_pure"),
            ),
            _ => (
                args.get(1, "operands_").and_then(|a| self.items(&a, false)),
                args.keyword("has_side_effects"),
            ),
        };
        let results = match kind {
            CallKind::Torch => args.keyword("dtype").and_then(|d| self.items(&d, true)),
            CallKind::Triton => args.get(3, "dtype").and_then(|d| self.items(&d, true)),
            _ => args.get(0, "res").and_then(|r| self.mlir_results(&r)),
        };
        let pack = match kind {
            CallKind::Torch => args.keyword("pack"),
            CallKind::Triton => args.get(5, "pack"),
            _ => None,
        }
        .map(|p| (t.span(&p), self.literal_int(&p)));
        let asm_dialect = args.keyword("asm_dialect");
        let call_span = t.span(&(call.callee.start..call.close + 1));
        let python = PythonCall {
            api: if triton {
                PythonApi::TritonElementwise
            } else {
                PythonApi::MlirInlineAsm
            },
            side_effects: side_arg.map(|n| (t.span(&n), self.literal_bool(&n))),
            pack,
            result_types: results.as_ref().map(|r| {
                r.iter()
                    .map(|n| (t.source(n).to_string(), t.span(n)))
                    .collect()
            }),
            args: input_items
                .as_ref()
                .map(|i| i.iter().map(|n| t.span(n)).collect()),
            asm_dialect: asm_dialect
                .as_ref()
                .map(|n| (t.source(n).to_string(), t.span(n))),
            asm_dialect_arg: args.keyword_argument("asm_dialect").map(|a| t.span(&a)),
            result_discarded: self
                .statements
                .binary_search(&(call.callee.start, call.close + 1))
                .is_ok(),
            torch_op: torch,
            operand_names: Vec::new(),
        };

        let (mut outputs, mut inputs, clobbers) = split_constraints(&constraint_text);
        // Operand expressions: Triton's results and inputs are one register each only at `pack=1`
        // with 32-bit or wider types; the labels then name them.
        let one_to_one = !triton
            || python.pack.is_some_and(|(_, p)| p == Some(1))
            || (torch && python.pack.is_none());
        // At `pack` > 1, dtypes narrower than 32 bits that fill one register each pair too.
        let pack_value = python.pack.and_then(|(_, p)| p).unwrap_or(1);
        let packed_one_each = triton
            && !torch
            && results.as_ref().is_some_and(|rs| {
                rs.iter().all(|r| {
                    triton::dtype_bits(t.source(r)).is_some_and(|b| {
                        let (count, _) = triton::registers(b, pack_value.max(1));
                        count == 1
                    })
                })
            });
        if one_to_one || packed_one_each {
            if let Some(results) = &results {
                if results.len() == outputs.len() {
                    for (op, r) in outputs.iter_mut().zip(results) {
                        op.expr = t.source(r).to_string();
                        op.expr_span = t.span(r);
                        op.ty.ty = if triton && !torch {
                            self.triton_register_type(r, pack_value)
                        } else {
                            self.value_type(r)
                        };
                    }
                }
            }
        }
        if one_to_one {
            if let Some(items) = &input_items {
                if items.len() == inputs.len() {
                    for (op, r) in inputs.iter_mut().zip(items) {
                        op.expr = t.source(r).to_string();
                        op.expr_span = t.span(r);
                        // Triton's inputs are tensors: their dtype is not in the call.
                        if !triton {
                            op.ty.ty = self.value_type(r);
                        }
                    }
                }
            }
        }
        let callee_span = t.span(&call.callee);
        let qualifiers = if python.has_side_effects() {
            vec![(
                "volatile".to_string(),
                python.side_effects.map_or(callee_span, |(s, _)| s),
            )]
        } else {
            Vec::new()
        };
        let open = t.tokens[call.open as usize].start as usize;
        let close = t.tokens[call.close as usize].start as usize;
        let stmt = AsmStatement {
            span: call_span,
            keyword: callee_span,
            qualifiers,
            open_paren: Span::new(open, open + 1),
            close_paren: Span::new(close, close + 1),
            template,
            outputs,
            inputs,
            clobbers,
            colons: Vec::new(),
            context: Context {
                function: self.function(call.callee.start),
                ..Context::default()
            },
            macro_name: None,
            ptx: ptx::Ptx::default(),
            origin: Origin::Python(python),
        };
        Some(with_ptx(stmt))
    }

    /// The register Triton gives a result of this dtype at `pack`, when it is 32 bits or wider:
    /// a narrower value (`float16` at `pack=1`, `int8` at `pack=2`) took `h`, `r` and `c`
    /// alike and came back right (measured with Triton 3.6 on an H200), so no size is claimed.
    /// Packed elements are typed as the whole register (`int16` at `pack=2`: 32 bits).
    fn triton_register_type(&self, node: &Range<u32>, pack: u32) -> Option<CppType> {
        let written = self.t.source(node);
        let bits = triton::dtype_bits(written)?;
        let (_, width) = triton::registers(bits, pack.max(1));
        if width < 32 {
            return None;
        }
        if width == bits {
            return self.value_type(node);
        }
        Some(CppType {
            spelling: format!("{} × {} (pack={pack})", width / bits, written.trim()).into(),
            bits: width as u16,
            class: CppClass::Unsigned,
        })
    }

    /// The LLVM type a result type or an operand stands for, where it is written:
    /// Triton/PyTorch dtypes (`tl.float32`, `torch.int64`), MLIR types (`T.i32()`,
    /// `ir.IntegerType.get_signless(64)`, `ir.F32Type.get()`, `Int32.mlir_type`) and CuTe DSL
    /// values (`Int32(x).ir_value()`, `cutlass.Float32(v).ir_value(loc=loc)`).
    fn value_type(&self, node: &Range<u32>) -> Option<CppType> {
        let t = self.t;
        let last_name = |range: &Range<u32>| {
            (!range.is_empty() && t.kind(range.end - 1) == Kind::Name)
                .then(|| t.text_of(range.end - 1))
        };
        match t.shape(node) {
            // `tl.float32`, `torch.int64`, `Int32.mlir_type`.
            Shape::Attribute { object, name } => match t.text_of(name) {
                "mlir_type" => last_name(&object).and_then(named_type),
                dtype => named_type(dtype),
            },
            Shape::Call {
                function,
                arguments,
            } => {
                let callee = last_name(&function)?;
                match (t.shape(&function), callee) {
                    // `T.i32()`, `ir.F32Type.get()`, `ir.IntegerType.get_signless(64)`.
                    (_, "get_signless") => {
                        let bits = t.source(&arguments).trim();
                        named_type(&format!("i{bits}"))
                    }
                    (Shape::Attribute { object, .. }, "get") => last_name(&object)
                        .and_then(|o| o.strip_suffix("Type"))
                        .and_then(named_type),
                    (Shape::Attribute { object, .. }, "ir_value") => match t.shape(&object) {
                        Shape::Call { function, .. } => last_name(&function).and_then(named_type),
                        _ => None,
                    },
                    (Shape::Attribute { .. }, name) if arguments.is_empty() && name.len() <= 4 => {
                        named_type(name)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// MLIR result types: `T.i32()`, a list of them, or `llvm.StructType.get_literal([...])`;
    /// `None` (`res=None`) is no result.
    fn mlir_results(&self, node: &Range<u32>) -> Option<Vec<Range<u32>>> {
        match self.t.shape(node) {
            Shape::None => Some(Vec::new()),
            Shape::Call {
                function,
                arguments,
            } => {
                let callee = self.t.source(&function);
                if callee.ends_with("get_literal") || callee.ends_with("StructType.get") {
                    let list = self.t.split_commas(arguments).into_iter().next()?;
                    self.items(&list, false)
                } else {
                    Some(vec![node.clone()])
                }
            }
            _ => Some(vec![node.clone()]),
        }
    }

    /// The innermost function around token `at`.
    fn function(&self, at: u32) -> Option<Function> {
        let mut scope = self.scope_of[at as usize] as usize;
        while scope != 0 && self.scopes[scope].def.is_none() {
            scope = self.scopes[scope].parent;
        }
        let (name, decorators, body) = self.scopes[scope].def.as_ref()?;
        Some(Function {
            name: self.t.text_of(*name).to_string(),
            name_span: self.t.span(&(*name..*name + 1)),
            qualifiers: decorators
                .iter()
                .map(|d| self.t.source(d).trim_start_matches('@').trim().to_string())
                .collect(),
            body: if body.start == u32::MAX {
                Span::empty_at(self.t.tokens[*name as usize].end as usize)
            } else {
                *body
            },
            defined_in_class: false,
        })
    }

    /// C++ source in a Python string: the C++ front end on the decoded text, its spans mapped
    /// back to the literal.
    fn cpp_in_string(&self, code: Range<u32>, out: &mut Vec<AsmStatement>) {
        let unit = self.t.span(&code).start;
        for decoded in self.cpp_sources(code) {
            if !crate::cpp::may_contain_asm(decoded.text.as_bytes()) {
                continue;
            }
            let inner = SourceFile::new(CPP_STRING_PATH, decoded.text.clone())
                .with_language(crate::source::Language::CppInPython);
            let map = |s: Span| decoded.source_span(s.range());
            for mut stmt in crate::cpp::cpp_statements(&inner) {
                stmt.remap(&map);
                stmt.origin = Origin::CppInPython { unit };
                out.push(stmt);
            }
        }
    }

    /// The known C++ sources of a code argument: a string, or each string of a list or tuple
    /// (`load_inline`'s `cuda_sources`), decoded with their source maps.
    fn cpp_sources(&self, code: Range<u32>) -> Vec<Template> {
        let pieces = match self.t.shape(&code) {
            Shape::List(_) | Shape::Tuple(_) => self.items(&code, false).unwrap_or_default(),
            _ => vec![code],
        };
        let mut sources = Vec::new();
        for piece in pieces {
            let mut literals = Vec::new();
            if !self.literal_strings(&piece, 0, &mut literals) {
                continue;
            }
            let mut decoded = Template::default();
            self.push_string(&piece, &mut decoded);
            sources.push(decoded);
        }
        sources
    }
}

/// The operands and clobbers of an LLVM constraint string (`=r,=&l,r,0,~{memory}`), in order.
fn split_constraints(constraints: &Template) -> (Vec<AsmOperand>, Vec<AsmOperand>, Vec<Clobber>) {
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
    /// Each positional argument, and whether it is a splat (`*a`, `**k`).
    positional: Vec<(Range<u32>, bool)>,
    /// `(name, value, the whole argument)`.
    keywords: Vec<(&'t str, Range<u32>, Range<u32>)>,
}

impl<'t> Args<'t> {
    fn new(t: &Tokens<'t>, list: Range<u32>) -> Args<'t> {
        let mut args = Args {
            positional: Vec::new(),
            keywords: Vec::new(),
        };
        for part in t.split_commas(list) {
            if part.len() >= 3 && t.is_name(part.start) && t.is_op(part.start + 1, "=") {
                args.keywords
                    .push((t.text_of(part.start), part.start + 2..part.end, part));
            } else {
                // After `*args`, positions are unknown (see `get`).
                let splat = t.is_op(part.start, "*") || t.is_op(part.start, "**");
                args.positional.push((part, splat));
            }
        }
        args
    }

    /// Every positional argument, when none is a splat.
    fn all_positional(&self) -> Option<Vec<Range<u32>>> {
        (!self.positional.iter().any(|(_, splat)| *splat))
            .then(|| self.positional.iter().map(|(r, _)| r.clone()).collect())
    }

    fn keyword(&self, name: &str) -> Option<Range<u32>> {
        self.keywords
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, v, _)| v.clone())
    }

    fn keyword_argument(&self, name: &str) -> Option<Range<u32>> {
        self.keywords
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, _, whole)| whole.clone())
    }

    /// The argument at `position`, or the keyword argument `name`.
    fn get(&self, position: usize, name: &str) -> Option<Range<u32>> {
        if let Some(v) = self.keyword(name) {
            return Some(v);
        }
        let splat_before = self.positional[..position.min(self.positional.len())]
            .iter()
            .any(|(_, splat)| *splat);
        if splat_before {
            return None;
        }
        self.positional
            .get(position)
            .filter(|(_, splat)| !splat)
            .map(|(r, _)| r.clone())
    }
}

/// The statement with its template parsed as PTX (LLVM's `$` placeholders). Triton and the
/// DSLs run on AMD GPUs too: a call holding AMD GPU asm (`s_memrealtime $0` under `if
/// IS_HIP:`) is not PTX.
fn with_ptx(mut stmt: AsmStatement) -> AsmStatement {
    stmt.ptx = ptx::parse(&stmt.template.text, PercentMode::Llvm);
    crate::cpp::target::mark_amd_asm(&mut stmt);
    stmt
}

#[cfg(test)]
mod tests;
