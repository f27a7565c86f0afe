//! The C++ side: finding asm statements, their operands and their context.
//!
//! One linear token pass over the file (no full C++ parse): it tracks `#if` conditions,
//! scopes (functions, classes, loops, lambdas) and macro-call arguments, and parses each
//! asm statement where its keyword appears, so CUDA syntax a C++ grammar does not know
//! (`__global__`, `<<<g, b>>>`, attributes) never hides one.

pub mod asm;
pub mod barrier_helpers;
pub mod declarations;
pub mod instantiation;
pub mod lexer;
pub mod model;
pub mod outline;
pub mod preproc;
pub mod target;
pub mod types;

pub use model::*;

use crate::build::predefined::{self, Compiler};
use crate::source::Language;
use crate::{ptx, SourceFile, Span};
use asm::{parse_asm, AsmInput, StringMacros, KEYWORDS};
use lexer::{lex_range, Token, TokenKind};
use preproc::{
    active_conditions, apply_conditional, parse_directive, CondFrame, Define, DirectiveKind,
};
use std::collections::{HashMap, HashSet};

/// True when the text may contain an asm statement (cheap pre-filter): the word `asm`,
/// `__asm` or `__asm__` standing alone, not inside a longer name (`plasma`, `wasm`, `asm_x`),
/// or a line splice that may join one (`a\` + newline + `sm`: the compiler removes splices
/// before it reads words).
pub fn may_contain_asm(bytes: &[u8]) -> bool {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    let finder = FINDER.get_or_init(|| memchr::memmem::Finder::new(b"asm"));
    let standing_alone = finder.find_iter(bytes).any(|at| {
        let mut start = at;
        // `__asm`: step over the leading underscores.
        while start > 0 && bytes[start - 1] == b'_' && at - start < 2 {
            start -= 1;
        }
        let mut end = at + 3;
        if start < at && bytes[end..].starts_with(b"__") {
            end += 2;
        }
        let before_ok = start == 0 || !lexer::is_ident_continue(bytes[start - 1]);
        let after_ok =
            end >= bytes.len() || !lexer::is_ident_continue(bytes[end]) || bytes[end] == b'\\';
        before_ok && after_ok
    });
    standing_alone || splice_may_join_asm(bytes)
}

/// Whether a line splice ([`lexer::splice_len`]: `\`, blanks the compiler allows, a newline)
/// has a letter of `__asm__` on both sides (a further splice after it counts too): the words it
/// joins are read by the full lexer.
fn splice_may_join_asm(bytes: &[u8]) -> bool {
    let part = |b: Option<&u8>| matches!(b, Some(b'a' | b's' | b'm' | b'_'));
    memchr::memchr_iter(b'\\', bytes).any(|k| {
        let len = lexer::splice_len(bytes, k);
        len > 0
            && k > 0
            && part(bytes.get(k - 1))
            && (part(bytes.get(k + len)) || bytes.get(k + len) == Some(&b'\\'))
    })
}

/// Finds and models every asm statement of a C++ file, in source order (any file:
/// [`crate::statements::find_asm_statements`]).
pub fn cpp_statements(file: &SourceFile) -> Vec<AsmStatement> {
    cpp_statements_and_tokens(file).0
}

/// [`cpp_statements`], also returning the file's tokens (empty when the file cannot hold
/// asm) for callers that look further at the file.
pub fn cpp_statements_and_tokens(file: &SourceFile) -> (Vec<AsmStatement>, Vec<Token>) {
    if !may_contain_asm(file.text.as_bytes()) {
        return (Vec::new(), Vec::new());
    }
    let text = file.text.as_str();
    let tokens = match file.lexed() {
        Some(lexed) => lexed.tokens.clone(),
        None => lex_range(text, 0, text.len(), false),
    };
    let statements = statements_from_tokens(file, &tokens);
    (statements, tokens)
}

fn statements_from_tokens(file: &SourceFile, tokens: &[Token]) -> Vec<AsmStatement> {
    let text = file.text.as_str();
    let compiler = compiler_of(file);
    let (defines, define_conditions) = collect_defines(text, tokens);
    let string_macros = string_macros(text, &defines, &define_conditions, compiler);
    let qualifier_macros = qualifier_macros(text, &defines);
    let asm_macros: foldhash::HashMap<&str, &Define> = defines
        .iter()
        .filter(|d| may_contain_asm(text[d.body.range()].as_bytes()))
        .map(|d| (d.name.as_str(), d))
        .collect();

    let mut scanner = Scanner {
        text,
        tokens,
        qualifier_macros: &qualifier_macros,
        cond_stack: Vec::new(),
        scopes: Vec::new(),
        functions: Vec::new(),
        parens: Vec::new(),
        branches: Vec::new(),
        brace_ends: Default::default(),
    };
    let file_index = std::cell::OnceCell::new();
    let alternatives = groups_with_alternatives(text, tokens);
    let device_file = target::has_device_markers(&file.path, text);
    let mut statements = Vec::new();
    let mut macro_uses: HashMap<String, Context> = HashMap::new();
    let mut i = 0;
    while i < tokens.len() {
        let tok = tokens[i];
        match tok.kind {
            TokenKind::Directive if preproc::is_conditional(text, tok.span) => {
                let dir = parse_directive(text, tok.span);
                scanner.branch(&dir.kind, alternatives.contains(&i));
                apply_conditional(&mut scanner.cond_stack, text, &dir);
            }
            TokenKind::Punct => scanner.punct(i),
            // Only `asm`, `__asm`, `__asm__` and macros that hold asm matter here.
            TokenKind::Ident
                if matches!(text.as_bytes()[tok.start()], b'a' | b'_')
                    || !asm_macros.is_empty() =>
            {
                let w = tok.text(text);
                if matches!(w.len(), 3 | 5 | 7) && KEYWORDS.contains(&w.as_ref()) {
                    // A budget check per statement (see `phase`).
                    crate::phase::enter("C++ front end", "");
                    let input = AsmInput {
                        text,
                        tokens,
                        string_macros: &string_macros,
                        compiler,
                        macro_params: &[],
                        decl_search_start: scanner.function_start_token(),
                        member_search: scanner.member_search(),
                        index: &file_index,
                    };
                    if let Some(parsed) = parse_asm(&input, i) {
                        let context = scanner.context(i);
                        statements.push(finish(device_file, parsed, context, None));
                    }
                } else if asm_macros.contains_key(w.as_ref())
                    && !macro_uses.contains_key(w.as_ref())
                {
                    macro_uses.insert(w.into_owned(), scanner.context(i));
                }
            }
            _ => {}
        }
        i += 1;
    }

    // Statements written inside macro bodies take their context from the first use.
    for def in asm_macros.values() {
        let body = lex_range(text, def.body.start as usize, def.body.end as usize, true);
        let params = def.params.clone().unwrap_or_default();
        let macro_index = std::cell::OnceCell::new();
        let mut k = 0;
        while k < body.len() {
            let w = body[k].text(text);
            if body[k].kind == TokenKind::Ident && KEYWORDS.contains(&w.as_ref()) {
                let input = AsmInput {
                    text,
                    tokens: &body,
                    string_macros: &string_macros,
                    compiler,
                    macro_params: &params,
                    decl_search_start: 0,
                    member_search: None,
                    index: &macro_index,
                };
                if let Some(parsed) = parse_asm(&input, k) {
                    let end = parsed.end_token;
                    let mut context = macro_uses.get(&def.name).cloned().unwrap_or_default();
                    // A macro used at file scope that defines a function around its asm
                    // (`#define DEFINE_LOADER(...) __device__ T f(...) { asm(...); }`).
                    let braced = body[..k]
                        .iter()
                        .filter(|t| t.kind == TokenKind::Punct)
                        .fold(0i32, |depth, t| match t.text(text).as_ref() {
                            "{" => depth + 1,
                            "}" => depth - 1,
                            _ => depth,
                        })
                        > 0;
                    if context.at_file_scope && braced {
                        context.at_file_scope = false;
                        context.target = Some(target::decide(&context, false));
                    }
                    let directive_conditions =
                        conditions_at(text, tokens, def.name_span.start as usize);
                    if context.conditions.is_empty() {
                        context.conditions = directive_conditions;
                    }
                    if context.target.is_none() {
                        context.target = target::from_conditions(&context.conditions);
                    }
                    statements.push(finish(device_file, parsed, context, Some(def.name.clone())));
                    k = end;
                }
            }
            k += 1;
        }
    }
    statements.sort_by_key(|s| s.span.start);
    target::amd_register_operands(&mut statements);
    statements
}

fn finish(
    device_file: bool,
    parsed: asm::ParsedAsm,
    context: Context,
    macro_name: Option<String>,
) -> AsmStatement {
    let mut stmt = AsmStatement {
        span: parsed.keyword.cover(parsed.close_paren),
        keyword: parsed.keyword,
        qualifiers: parsed.qualifiers,
        open_paren: parsed.open_paren,
        close_paren: parsed.close_paren,
        template: parsed.template,
        outputs: parsed.outputs,
        inputs: parsed.inputs,
        clobbers: parsed.clobbers,
        colons: parsed.colons,
        context: Context::default(),
        macro_name,
        ptx: ptx::Ptx::default(),
        origin: Default::default(),
    };
    stmt.context = context;
    // At file scope only a basic asm is allowed (no operands, no qualifiers): an extended one
    // there means the scopes were misread (a kernel whose braces a macro writes), so its
    // target is not known.
    if stmt.context.at_file_scope && (!stmt.colons.is_empty() || !stmt.qualifiers.is_empty()) {
        stmt.context.at_file_scope = false;
        stmt.context.target = Some(target::decide(&stmt.context, false));
    }
    stmt.ptx = ptx::parse(&stmt.template.text, stmt.percent_mode());
    if matches!(stmt.context.target, Some(Target::Device)) {
        // HIP device code is `__device__` too.
        target::mark_amd_asm(&mut stmt);
    }
    if matches!(stmt.context.target, None | Some(Target::Unknown)) {
        if let Some(reason) = target::foreign_asm(&stmt) {
            stmt.context.target = Some(Target::Foreign(reason));
        } else if !device_file {
            stmt.context.target = Some(Target::Host("in a file with no device code".into()));
        }
    }
    stmt
}

/// The tokens of the `#if`s whose group has an `#elif` or `#else`.
fn groups_with_alternatives(text: &str, tokens: &[Token]) -> foldhash::HashSet<usize> {
    let mut open = Vec::new();
    let mut with = foldhash::HashSet::default();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != TokenKind::Directive || !preproc::is_conditional(text, t.span) {
            continue;
        }
        match preproc::directive_name(&text[t.span.range()]) {
            "if" | "ifdef" | "ifndef" => open.push(i),
            "elif" | "elifdef" | "elifndef" | "else" => {
                if let Some(&at) = open.last() {
                    with.insert(at);
                }
            }
            "endif" => {
                open.pop();
            }
            _ => {}
        }
    }
    with
}

/// Conditions in force at a byte offset (for `#define`s).
fn conditions_at(text: &str, tokens: &[Token], offset: usize) -> Vec<preproc::Condition> {
    let mut stack = Vec::new();
    for tok in tokens {
        if tok.start() >= offset {
            break;
        }
        if tok.kind == TokenKind::Directive
            && tok.end() < offset
            && preproc::is_conditional(text, tok.span)
        {
            apply_conditional(&mut stack, text, &parse_directive(text, tok.span));
        }
    }
    active_conditions(&stack)
}

/// Which compiler reads the file: C++ held in Python strings goes to NVRTC (cupy, cuda.core)
/// or nvcc (`load_inline`).
pub fn compiler_of(file: &SourceFile) -> Compiler {
    match file.language {
        Language::Cpp => Compiler::Nvcc,
        Language::Python | Language::CppInPython => Compiler::Either,
    }
}

/// The file's `#define`s, each with the `#if` conditions in force where it stands.
fn collect_defines(text: &str, tokens: &[Token]) -> (Vec<Define>, Vec<Vec<preproc::Condition>>) {
    let mut stack = Vec::new();
    let mut defines = Vec::new();
    let mut conditions = Vec::new();
    for t in tokens.iter().filter(|t| t.kind == TokenKind::Directive) {
        if preproc::is_conditional(text, t.span) {
            apply_conditional(&mut stack, text, &parse_directive(text, t.span));
        } else if text[t.span.range()].contains("define") {
            if let DirectiveKind::Define(d) = parse_directive(text, t.span).kind {
                defines.push(d);
                conditions.push(active_conditions(&stack));
            }
        }
    }
    (defines, conditions)
}

/// Object-like macros that expand to string literals only (possibly via other such macros).
///
/// A macro defined in several `#if` branches takes the value of the branches the device pass
/// can compile: a define under conditions false for every target (`#else` of
/// `defined(__LP64__)`, of `__CUDA_ARCH__ >= 350`) is dead. When the live defines disagree,
/// the macro is left unresolved (an unknown piece), not guessed.
fn string_macros(
    text: &str,
    defines: &[Define],
    conditions: &[Vec<preproc::Condition>],
    compiler: Compiler,
) -> StringMacros {
    let mut pieces: HashMap<String, Vec<Result<Span, String>>> = HashMap::new();
    let mut disagree: HashSet<String> = HashSet::new();
    for (d, conds) in defines.iter().zip(conditions) {
        if d.params.is_some() {
            continue;
        }
        if predefined::front_end_truth(conds, compiler) == predefined::Truth::Never {
            continue;
        }
        let toks = lex_range(text, d.body.start as usize, d.body.end as usize, true);
        if toks.is_empty() {
            continue;
        }
        let mut list = Vec::new();
        let mut ok = true;
        for t in &toks {
            match t.kind {
                TokenKind::Str => list.push(Ok(t.span)),
                TokenKind::Ident => list.push(Err(t.text(text).into_owned())),
                _ => ok = false,
            }
        }
        if !ok || !list.iter().any(|p| p.is_ok()) {
            // A live define that is not a string: the name is not a string macro everywhere.
            disagree.insert(d.name.clone());
            continue;
        }
        let same_text = |a: &[Result<Span, String>], b: &[Result<Span, String>]| {
            a.len() == b.len()
                && a.iter().zip(b).all(|(x, y)| match (x, y) {
                    (Ok(x), Ok(y)) => text[x.range()] == text[y.range()],
                    (Err(x), Err(y)) => x == y,
                    _ => false,
                })
        };
        match pieces.get(&d.name) {
            Some(earlier) if !same_text(earlier, &list) => {
                disagree.insert(d.name.clone());
            }
            Some(_) => {}
            None => {
                pieces.insert(d.name.clone(), list);
            }
        }
    }
    for name in &disagree {
        pieces.remove(name);
    }
    let mut resolved = StringMacros::new();
    for name in pieces.keys() {
        let mut out = Vec::new();
        if expand(name, &pieces, &mut out, 0) {
            resolved.insert(name.clone(), out);
        }
    }
    resolved
}

fn expand(
    name: &str,
    pieces: &HashMap<String, Vec<Result<Span, String>>>,
    out: &mut Vec<Span>,
    depth: u32,
) -> bool {
    if depth > 16 {
        return false;
    }
    let Some(list) = pieces.get(name) else {
        return false;
    };
    for p in list {
        match p {
            Ok(span) => out.push(*span),
            Err(inner) => {
                if !expand(inner, pieces, out, depth + 1) {
                    return false;
                }
            }
        }
    }
    true
}

/// Object-like macros whose replacement is function qualifiers (`#define DEV __device__ inline`).
fn qualifier_macros(text: &str, defines: &[Define]) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for d in defines.iter().filter(|d| d.params.is_none()) {
        let toks = lex_range(text, d.body.start as usize, d.body.end as usize, true);
        let words: Vec<String> = toks
            .iter()
            .filter(|t| t.kind == TokenKind::Ident)
            .map(|t| t.text(text).into_owned())
            .collect();
        if words.iter().any(|w| {
            matches!(
                w.as_str(),
                "__device__" | "__global__" | "__host__" | "__forceinline__"
            )
        }) {
            out.insert(d.name.clone(), words);
        }
    }
    out
}

#[derive(Clone, Debug)]
enum ScopeKind {
    Function(Function),
    Lambda {
        device: bool,
    },
    Class,
    /// A loop body; for a `for`, the tokens of its `(` and `)`.
    Loop {
        header: Option<(usize, usize)>,
    },
    /// `if (cond) {`: the tokens of `(` and `)`, and where its local constants are looked
    /// for (none for a macro that expands to `if`). The text is made only for the blocks
    /// around an asm statement ([`Scanner::if_condition`]).
    If {
        open: usize,
        close: usize,
        constants_from: Option<usize>,
    },
    Block,
}

#[derive(Clone, Debug)]
struct ScopeFrame {
    kind: ScopeKind,
    /// Token index where the function's signature starts (for declaration search); for a
    /// class, its `{`.
    decl_start: usize,
    /// For a class: the token index just past its `}` (members are searched up to there).
    end: usize,
}

#[derive(Clone)]
struct ParenFrame {
    /// The identifier before `(` is an `NV_IF_TARGET`-style dispatch macro.
    nv_target: bool,
    /// Index of the `(` token.
    open: usize,
    /// Index of the argument being read (commas seen at this depth).
    arg: usize,
}

struct Scanner<'a> {
    text: &'a str,
    tokens: &'a [Token],
    qualifier_macros: &'a HashMap<String, Vec<String>>,
    cond_stack: Vec<CondFrame>,
    scopes: Vec<ScopeFrame>,
    /// Indices in `scopes` of the function frames, innermost last: each `{` asks for the
    /// innermost function, and a walk down `scopes` would make deep nesting quadratic.
    functions: Vec<usize>,
    parens: Vec<ParenFrame>,
    /// Per open `#if` group: the scopes when it opened (for a group with another branch), and
    /// after its first branch.
    branches: Vec<(Option<Nesting>, Option<Nesting>)>,
    /// For each `{` token, the end offset of its `}` (the text's end when unclosed): found
    /// in one pass on first need, not by a scan per brace.
    brace_ends: std::cell::OnceCell<HashMap<u32, usize>>,
}

/// The scanner's open scopes, functions and parentheses at one point.
#[derive(Clone)]
struct Nesting {
    scopes: Vec<ScopeFrame>,
    functions: Vec<usize>,
    parens: Vec<ParenFrame>,
}

const MAX_BLOCKS_READ: usize = 256;

const NV_TARGET_MACROS: [&str; 4] = [
    "NV_IF_TARGET",
    "NV_IF_ELSE_TARGET",
    "NV_DISPATCH_TARGET",
    "_NV_TARGET_DISPATCH",
];

impl Scanner<'_> {
    fn word(&self, i: usize) -> std::borrow::Cow<'_, str> {
        self.tokens[i].text(self.text)
    }

    /// The index of the non-directive token before `i`.
    fn prev(&self, i: usize) -> Option<usize> {
        (0..i)
            .rev()
            .find(|&k| self.tokens[k].kind != TokenKind::Directive)
    }

    fn nesting(&self) -> Nesting {
        Nesting {
            scopes: self.scopes.clone(),
            functions: self.functions.clone(),
            parens: self.parens.clone(),
        }
    }

    fn restore(&mut self, nesting: Nesting) {
        self.scopes = nesting.scopes;
        self.functions = nesting.functions;
        self.parens = nesting.parens;
    }

    /// One build compiles one branch of an `#if` group: each branch starts from the scopes open
    /// at the `#if`, and after the `#endif` the first branch's count for all (`#if A` `f(int
    /// a) {` `#else` `f(long a) {` `#endif` opens one function body, not two).
    /// Only a group with another branch (`alternatives`: it has an `#elif` or `#else`) needs
    /// the scopes copied at its `#if` (include guards and most groups have none).
    fn branch(&mut self, kind: &DirectiveKind, alternatives: bool) {
        match kind {
            DirectiveKind::If(_) | DirectiveKind::Ifdef(_) | DirectiveKind::Ifndef(_) => {
                let at_if = alternatives.then(|| self.nesting());
                self.branches.push((at_if, None));
            }
            DirectiveKind::Elif(_) | DirectiveKind::Else => {
                let now = self.nesting();
                if let Some((Some(at_if), after_first)) = self.branches.last_mut() {
                    if after_first.is_none() {
                        *after_first = Some(now);
                    }
                    let at_if = at_if.clone();
                    self.restore(at_if);
                }
            }
            DirectiveKind::Endif => {
                if let Some((_, Some(after_first))) = self.branches.pop() {
                    self.restore(after_first);
                }
            }
            _ => {}
        }
    }

    fn punct(&mut self, i: usize) {
        // Only one-byte punctuation matters here; `::`, `->` and `##` are two bytes.
        let tok = self.tokens[i];
        if tok.span.len() != 1 {
            return;
        }
        match self.text.as_bytes()[tok.start()] {
            b'{' => {
                let frame = self.classify_brace(i);
                if matches!(frame.kind, ScopeKind::Function(_)) {
                    self.functions.push(self.scopes.len());
                }
                self.scopes.push(frame);
            }
            b'}' => {
                self.scopes.pop();
                if self.functions.last() == Some(&self.scopes.len()) {
                    self.functions.pop();
                }
            }
            b'(' => {
                let nv_target = self
                    .prev(i)
                    .filter(|&p| self.tokens[p].kind == TokenKind::Ident)
                    .is_some_and(|p| {
                        let name = self.word(p);
                        name.starts_with("NV_") && NV_TARGET_MACROS.contains(&name.as_ref())
                    });
                self.parens.push(ParenFrame {
                    nv_target,
                    open: i,
                    arg: 0,
                });
            }
            b')' => {
                self.parens.pop();
            }
            b',' => {
                if let Some(top) = self.parens.last_mut() {
                    top.arg += 1;
                }
            }
            b';' => {
                // Parens never span statements; recover from unbalanced ones.
                if self.parens.iter().any(|p| p.nv_target) {
                    return;
                }
                self.parens.clear();
            }
            _ => {}
        }
    }

    /// Index of the token matching the `)` at `close`, scanning backwards.
    fn matching_open(&self, close: usize) -> Option<usize> {
        let mut depth = 0;
        let mut k = close + 1;
        while k > 0 {
            k -= 1;
            match self.word(k).as_ref() {
                ")" => depth += 1,
                "(" => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                "{" | "}" if k != close => return None,
                _ => {}
            }
        }
        None
    }

    fn classify_brace(&self, brace: usize) -> ScopeFrame {
        let block = |kind| {
            // A class body's members are searched from its brace to its end.
            let class = matches!(kind, ScopeKind::Class);
            ScopeFrame {
                decl_start: if class {
                    brace
                } else {
                    self.function_start_token()
                },
                end: if class {
                    let close = self.matching_close(brace);
                    self.tokens.partition_point(|t| t.end() <= close)
                } else {
                    0
                },
                kind,
            }
        };
        let Some(mut p) = self.prev(brace) else {
            return block(ScopeKind::Block);
        };
        // Skip trailing qualifiers: `) const noexcept {`, `) mutable {`, `-> T {`.
        let mut guard = 0;
        while self.tokens[p].kind == TokenKind::Ident
            && matches!(
                self.word(p).as_ref(),
                "const"
                    | "noexcept"
                    | "override"
                    | "final"
                    | "mutable"
                    | "volatile"
                    | "__device__"
                    | "__host__"
            )
            && guard < 8
        {
            match self.prev(p) {
                Some(q) => p = q,
                None => break,
            }
            guard += 1;
        }
        let w = self.word(p).into_owned();
        match w.as_str() {
            "else" | "try" => return block(ScopeKind::Block),
            "do" => return block(ScopeKind::Loop { header: None }),
            "]" => return block(ScopeKind::Lambda { device: false }),
            _ => {}
        }
        if w == ")" {
            let Some(open) = self.matching_open(p) else {
                return block(ScopeKind::Block);
            };
            let Some(mut before) = self.prev(open) else {
                return block(ScopeKind::Block);
            };
            let mut before_word = self.word(before).into_owned();
            if before_word == "constexpr" {
                if let Some(b) = self.prev(before) {
                    before = b;
                    before_word = self.word(b).into_owned();
                }
            }
            match before_word.as_str() {
                "for" => {
                    return block(ScopeKind::Loop {
                        header: Some((open, p)),
                    })
                }
                "while" => return block(ScopeKind::Loop { header: None }),
                "if" => {
                    // Local constants are declared a few lines above their use: a bounded
                    // look back, within the function.
                    const LOOK_BACK_TOKENS: usize = 1024;
                    let constants_from = self
                        .function_start_token()
                        .max(open.saturating_sub(LOOK_BACK_TOKENS));
                    return block(ScopeKind::If {
                        open,
                        close: p,
                        constants_from: Some(constants_from),
                    });
                }
                "switch" | "catch" => return block(ScopeKind::Block),
                "]" => return block(ScopeKind::Lambda { device: false }),
                "__device__" | "__host__" => {
                    // `[=] __device__ (args) {`
                    let device = before_word == "__device__";
                    if self.prev(before).is_some_and(|b| {
                        matches!(self.word(b).as_ref(), "]" | "__host__" | "__device__")
                    }) {
                        return block(ScopeKind::Lambda { device });
                    }
                }
                _ => {}
            }
            // `_CCCL_IF_CONSTEXPR (N == 1) {` starting a statement in a function body is a
            // macro that expands to `if`, not a function definition (which would need a
            // return type before its name; braces unbalanced by `#if` branches make "in a
            // body" alone unreliable).
            let in_body = !self.functions.is_empty()
                && !matches!(self.scopes.last().map(|f| &f.kind), Some(ScopeKind::Class));
            let starts_statement = self
                .prev(before)
                .is_some_and(|b| matches!(self.word(b).as_ref(), ";" | "{" | "}"));
            if in_body
                && starts_statement
                && self.tokens[before].kind == TokenKind::Ident
                && target::is_macro_name(&self.word(before))
            {
                return block(ScopeKind::If {
                    open,
                    close: p,
                    constants_from: None,
                });
            }
            if let Some(name) = self.declarator_name(before) {
                // A constructor: `S(int a) : a_(a), b_(0) {` is `S`, not `b_`.
                if let Some((colon, params_close)) = self.member_initializers(name.0) {
                    let ctor = self
                        .matching_open(params_close)
                        .and_then(|open| self.prev(open))
                        .and_then(|b| self.declarator_name(b));
                    if let Some(ctor) = ctor {
                        return self.function_frame(ctor, params_close, colon, brace);
                    }
                }
                return self.function_frame(name, p, brace, brace);
            }
            return block(ScopeKind::Block);
        }
        // `class X : public Y {`, `namespace n {`, `struct {`.
        let mut k = p;
        for _ in 0..32 {
            let word = self.word(k);
            match word.as_ref() {
                "class" | "struct" | "union" | "namespace" | "enum" => {
                    return block(ScopeKind::Class)
                }
                ";" | "{" | "}" | ")" | "=" => break,
                _ => {}
            }
            match self.prev(k) {
                Some(q) => k = q,
                None => break,
            }
        }
        if self.tokens[p].kind == TokenKind::Str {
            // extern "C" {
            return block(ScopeKind::Class);
        }
        block(ScopeKind::Block)
    }

    /// The first and last token of the function name that the `(` of a parameter list
    /// follows (`before` is the token just before it): `f`, `f<2>` (an explicit
    /// specialization: the name is `f`), `operator()`, `operator+=`, `operator float`.
    fn declarator_name(&self, before: usize) -> Option<(usize, usize)> {
        // `operator` and up to three punctuation tokens (`>>=`) or one type word.
        let mut k = before;
        for _ in 0..4 {
            if self.word(k) == "operator" {
                return Some((k, before));
            }
            if self.tokens[k].kind != TokenKind::Punct && k != before {
                break;
            }
            k = self.prev(k)?;
        }
        if self.tokens[before].kind == TokenKind::Ident {
            return Some((before, before));
        }
        if self.word(before) != ">" {
            return None;
        }
        // `name<args>(`: back to the matching `<`.
        let mut depth = 0;
        let mut k = before;
        for _ in 0..256 {
            match self.word(k).as_ref() {
                ">" => depth += 1,
                "<" => {
                    depth -= 1;
                    if depth == 0 {
                        let name = self.prev(k)?;
                        let ident = self.tokens[name].kind == TokenKind::Ident
                            && !matches!(self.word(name).as_ref(), "template" | "operator");
                        return ident.then_some((name, name));
                    }
                }
                ";" | "{" | "}" => return None,
                // `f<(1 > 2)>`
                ")" => k = self.matching_open(k)?,
                _ => {}
            }
            k = self.prev(k)?;
        }
        None
    }

    /// When the `name(...)` starting at `name_at` is the last of a constructor's member
    /// initializers: the `:` that starts them and the `)` of the constructor's parameters.
    fn member_initializers(&self, name_at: usize) -> Option<(usize, usize)> {
        let mut k = name_at;
        for _ in 0..256 {
            let sep = self.prev(k)?;
            match self.word(sep).as_ref() {
                ":" => {
                    // `) noexcept :`, `) const :`...
                    let mut close = self.prev(sep)?;
                    for _ in 0..4 {
                        if self.tokens[close].kind != TokenKind::Ident {
                            break;
                        }
                        close = self.prev(close)?;
                    }
                    return (self.word(close) == ")").then_some((sep, close));
                }
                "," => {
                    let close = self.prev(sep)?;
                    if self.word(close) != ")" {
                        return None;
                    }
                    let open = self.matching_open(close)?;
                    k = self.declarator_name(self.prev(open)?)?.0;
                }
                _ => return None,
            }
        }
        None
    }

    /// A function body: gather the qualifiers before the name and after the parameters
    /// (`close` is their `)`, `head_end` the `{` or the `:` of member initializers).
    fn function_frame(
        &self,
        (name_at, name_last): (usize, usize),
        close: usize,
        head_end: usize,
        brace: usize,
    ) -> ScopeFrame {
        let mut qualifiers = Vec::new();
        let mut k = name_at;
        let mut start = name_at;
        let mut angle_depth = 0i32;
        let mut paren_depth = 0i32;
        while let Some(q) = self.prev(k) {
            let tok = self.tokens[q];
            if q + 1 < self.tokens.len()
                && self.tokens[q + 1..k]
                    .iter()
                    .any(|t| t.kind == TokenKind::Directive)
                && paren_depth == 0
            {
                break;
            }
            let w = self.word(q);
            match w.as_ref() {
                ")" => paren_depth += 1,
                "(" if paren_depth > 0 => paren_depth -= 1,
                ">" => angle_depth += 1,
                "<" if angle_depth > 0 => angle_depth -= 1,
                ";" | "{" | "}" if paren_depth == 0 => break,
                ":" if paren_depth == 0 && angle_depth == 0 => break,
                "(" => break,
                _ => {}
            }
            if tok.kind == TokenKind::Ident && paren_depth == 0 && angle_depth == 0 {
                qualifiers.push(w.into_owned());
            }
            start = q;
            k = q;
        }
        // Qualifiers after the parameter list: `) const __attribute__((...))`.
        for t in close + 1..head_end {
            if self.tokens[t].kind == TokenKind::Ident {
                qualifiers.push(self.word(t).into_owned());
            }
        }
        let mut expanded = Vec::new();
        for q in qualifiers {
            if let Some(words) = self.qualifier_macros.get(&q) {
                expanded.extend(words.iter().cloned());
            }
            expanded.push(q);
        }
        let body_end = self.matching_close(brace);
        ScopeFrame {
            kind: ScopeKind::Function(Function {
                name: if name_at == name_last {
                    self.word(name_at).into_owned()
                } else {
                    self.text[self.tokens[name_at].start()..self.tokens[name_last].end()]
                        .to_string()
                },
                name_span: self.tokens[name_at].span.cover(self.tokens[name_last].span),
                qualifiers: expanded,
                body: Span::new(self.tokens[brace].start(), body_end),
                defined_in_class: matches!(
                    self.scopes.last().map(|s| &s.kind),
                    Some(ScopeKind::Class)
                ),
            }),
            decl_start: start,
            end: 0,
        }
    }

    fn matching_close(&self, brace: usize) -> usize {
        let ends = self.brace_ends.get_or_init(|| {
            let mut ends = HashMap::new();
            let mut open: Vec<u32> = Vec::new();
            for (i, t) in self.tokens.iter().enumerate() {
                if t.kind != TokenKind::Punct || t.span.len() != 1 {
                    continue;
                }
                match self.text.as_bytes()[t.start()] {
                    b'{' => open.push(i as u32),
                    b'}' => {
                        if let Some(o) = open.pop() {
                            ends.insert(o, t.end());
                        }
                    }
                    _ => {}
                }
            }
            ends
        });
        ends.get(&(brace as u32))
            .copied()
            .unwrap_or(self.text.len())
    }

    /// First token of the innermost enclosing function (0 at file scope).
    /// The body of the class whose member function encloses the statement: `{` to `}`
    /// token indices.
    fn member_search(&self) -> Option<std::ops::Range<usize>> {
        let f = *self.functions.last()?;
        let class = self.scopes.get(f.checked_sub(1)?)?;
        if !matches!(class.kind, ScopeKind::Class) {
            return None;
        }
        Some(class.decl_start..class.end)
    }

    /// An `if`'s condition, `(` to `)`, followed by the initializers of the function's
    /// local constants it names (`constexpr bool has_fp4 = ARCH_HAS_FP4; if constexpr
    /// (has_fp4)` is a guard about the architecture).
    fn if_condition(&self, open: usize, close: usize, constants_from: Option<usize>) -> String {
        let mut condition =
            self.text[self.tokens[open].start()..self.tokens[close].end()].to_string();
        let Some(from) = constants_from else {
            return condition;
        };
        for name_at in open + 1..close {
            if self.tokens[name_at].kind != TokenKind::Ident {
                continue;
            }
            let name = self.word(name_at);
            let declared = (from..open).rev().find(|&k| {
                self.tokens[k].kind == TokenKind::Ident
                    && self.word(k) == name
                    && k + 1 < open
                    && self.word(k + 1) == "="
                    && (k.saturating_sub(4).max(from)..k)
                        .any(|q| matches!(self.word(q).as_ref(), "constexpr" | "const"))
            });
            let Some(k) = declared else { continue };
            let Some(end) = (k + 2..open).find(|&e| self.word(e) == ";") else {
                continue;
            };
            if end > k + 2 {
                condition.push_str(&format!(
                    " [{name} = {}]",
                    &self.text[self.tokens[k + 2].start()..self.tokens[end - 1].end()]
                ));
            }
        }
        condition
    }

    fn function_start_token(&self) -> usize {
        self.functions
            .last()
            .map_or(0, |&f| self.scopes[f].decl_start)
    }

    fn context(&self, at: usize) -> Context {
        let innermost_function = self.functions.last().copied();
        let function = innermost_function.and_then(|f| match &self.scopes[f].kind {
            ScopeKind::Function(f) => Some(f.clone()),
            _ => None,
        });
        // The blocks inside the function, at most the innermost `MAX_BLOCKS_READ` (loops,
        // lambdas and `if`s deeper than real code nests), so that each statement's context
        // costs the same however deep the nesting.
        let inner = &self.scopes[innermost_function.map_or(0, |i| i + 1)..];
        let inner = &inner[inner.len().saturating_sub(MAX_BLOCKS_READ)..];
        let mut in_loop = inner
            .iter()
            .any(|s| matches!(s.kind, ScopeKind::Loop { .. }));
        // The innermost loop's: a poll (`while (v == 0)`) inside `for (i ...)` loads from an
        // address `i` does not change while it polls.
        let mut loop_variables = Vec::new();
        if let Some(ScopeKind::Loop {
            header: Some((open, close)),
        }) = inner
            .iter()
            .rev()
            .map(|s| &s.kind)
            .find(|k| matches!(k, ScopeKind::Loop { .. }))
        {
            self.for_variables(*open, *close, &mut loop_variables);
        }
        // A loop body without braces: `while (!done) asm(...)`.
        if let Some(p) = self.prev(at) {
            let w = self.word(p);
            if w == "do" {
                in_loop = true;
            } else if w == ")" {
                if let Some(open) = self.matching_open(p) {
                    match self.prev(open).map(|b| self.word(b)) {
                        Some(w) if w == "for" => {
                            in_loop = true;
                            loop_variables.clear();
                            self.for_variables(open, p, &mut loop_variables);
                        }
                        Some(w) if w == "while" => {
                            in_loop = true;
                            loop_variables.clear();
                        }
                        _ => {}
                    }
                }
            }
        }
        let lambdas: Vec<bool> = inner
            .iter()
            .filter_map(|s| match s.kind {
                ScopeKind::Lambda { device } => Some(device),
                _ => None,
            })
            .collect();
        let if_conditions = inner
            .iter()
            .filter_map(|s| match &s.kind {
                ScopeKind::If {
                    open,
                    close,
                    constants_from,
                } => Some(self.if_condition(*open, *close, *constants_from)),
                _ => None,
            })
            .collect();
        let mut nv_target = Vec::new();
        for frame in &self.parens {
            if !frame.nv_target || frame.arg == 0 {
                continue;
            }
            let query = self.first_argument(frame.open);
            nv_target.push((query, frame.arg == 1));
        }
        let conditions = active_conditions(&self.cond_stack);
        let mut context = Context {
            function,
            conditions,
            in_loop,
            loop_variables,
            in_lambda: !lambdas.is_empty(),
            if_conditions,
            target: None,
            nv_target,
            // Namespace, `extern "C"` and class bodies are read as classes; any other block
            // (a function the outline did not recognise) is not file scope.
            at_file_scope: self
                .scopes
                .iter()
                .all(|s| matches!(s.kind, ScopeKind::Class)),
        };
        context.target = Some(target::decide(&context, lambdas.iter().any(|d| *d)));
        context
    }

    /// The names a `for` header declares or steps (`for (int u = 0; u < n; ++u)`, `for (auto&
    /// x : xs)`): they change from one iteration to the next.
    fn for_variables(&self, open: usize, close: usize, out: &mut Vec<String>) {
        let mut clause = 0;
        let mut depth = 0i32;
        for k in open + 1..close {
            let w = self.word(k);
            match w.as_ref() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                ";" if depth == 0 => clause += 1,
                _ => {}
            }
            if self.tokens[k].kind != TokenKind::Ident {
                continue;
            }
            let next = self.word(k + 1);
            let prev = self.prev(k).map(|q| self.word(q));
            let declared = clause == 0 && depth == 0 && matches!(next.as_ref(), "=" | ":");
            let stepped = clause == 2
                && (matches!(
                    next.as_ref(),
                    "++" | "--" | "=" | "+=" | "-=" | "*=" | "/=" | "<<=" | ">>="
                ) || prev.is_some_and(|p| p == "++" || p == "--"));
            if (declared || stepped) && !out.iter().any(|v| v == w.as_ref()) {
                out.push(w.into_owned());
            }
        }
    }

    fn first_argument(&self, open: usize) -> String {
        let mut out = String::new();
        let mut depth = 0;
        for k in open + 1..self.tokens.len() {
            let w = self.word(k);
            match w.as_ref() {
                "(" => depth += 1,
                ")" if depth == 0 => break,
                ")" => depth -= 1,
                "," if depth == 0 => break,
                _ => {}
            }
            out.push_str(&w);
        }
        out
    }
}
