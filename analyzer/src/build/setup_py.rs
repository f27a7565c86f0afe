//! `setup.py` read statically: the torch extensions it builds (`CUDAExtension(sources=...,
//! extra_compile_args={"nvcc": [...]})`), the nvcc flags in those lists (`-gencode`, `-arch`,
//! `-D`), `TORCH_CUDA_ARCH_LIST` as the script sets it, and its build variants.
//!
//! The script is never run. A small evaluator follows what such scripts do with flags: string
//! and list literals, names bound to them, `+`, `+=`, `.append`/`.extend`, `os.getenv(NAME,
//! default)` (the default: what the script builds with when the environment says nothing),
//! `os.path.join`, `glob.glob`, and calls of the script's own functions (inlined, bounded).
//! Anything else is unknown, and unknown is never guessed: a flag list with unknown parts
//! keeps the flags it does show; sources that cannot be listed compile nothing here.
//!
//! An `if` whose condition reads the environment (`if os.getenv("DISABLE_SM90") == "1":`)
//! and whose branches hold flags is a choice between **build variants**: each branch is one,
//! evaluated on its own. Other `if`s may or may not hold: their targets are kept (the build
//! may compile for them) and their `-D`s dropped (the macro is then unknown, never assumed).

use super::env::torch_cuda_arch_list;
use super::flags::shell_words;
use super::normalize;
use super::project::{glob, is_cuda_source, nvcc_flags, read_bounded, ProjectBuild, Unit, Variant};
use crate::python::syntax::{Kind, Tokens, NONE};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// At most this many variants (the product of the choices, in file order).
const MAX_VARIANTS: usize = 8;
/// Nesting of blocks, expressions and inlined calls followed; deeper is unknown.
const MAX_DEPTH: usize = 24;
/// Inlined calls per variant (a script calling its functions in a loop stays linear).
const MAX_CALLS: usize = 256;

/// Reads a `setup.py`.
pub fn read(path: &Path) -> ProjectBuild {
    let mut notes = Vec::new();
    match read_bounded(path, &mut notes) {
        Some(text) => parse(path, &text, notes),
        None => ProjectBuild::new(path, Vec::new(), notes),
    }
}

/// The choices one evaluation went through: each `if` chain's first token and the branch
/// taken.
type Picked = Vec<(u32, usize)>;

/// A statement: its tokens (the header of a compound statement, up to its `:`) and its body.
#[derive(Debug, Default)]
struct Stmt {
    tokens: Range<u32>,
    body: Vec<Stmt>,
}

/// Reads a `setup.py`'s text (`path` locates relative sources and names it in messages).
pub fn parse(path: &Path, text: &str, mut notes: Vec<String>) -> ProjectBuild {
    let normalised = crate::python::universal_newlines(text);
    let text: &str = &normalised;
    let toks = Tokens::new(text);
    let block = statements(&toks);
    let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let env_names = env_names(&toks, &block);
    let mut choices: Vec<(u32, Vec<String>)> = Vec::new();
    find_choices(&toks, &block, &env_names, &mut choices, 0);
    // Variants: the product of the choices, as many of them as fit.
    let mut used = 0;
    let mut product = 1;
    while used < choices.len() && product * choices[used].1.len() <= MAX_VARIANTS {
        product *= choices[used].1.len();
        used += 1;
    }
    if used < choices.len() {
        notes.push(format!(
            "{}: more than {MAX_VARIANTS} build variants; the alternatives from line {} on are taken together",
            path.display(),
            line_of(text, toks.tokens[choices[used].0 as usize].start)
        ));
    }
    // Each variant's choices and units.
    let mut runs: Vec<(Picked, Vec<Unit>)> = Vec::new();
    for n in 0..product {
        let mut pick: HashMap<u32, usize> = HashMap::new();
        let mut rest = n;
        for (at, names) in &choices[..used] {
            let branch = rest % names.len();
            rest /= names.len();
            pick.insert(*at, branch);
        }
        let mut ev = Eval {
            toks: &toks,
            base: base.clone(),
            script: path.to_path_buf(),
            vars: HashMap::new(),
            defs: HashMap::new(),
            pick: &pick,
            picked: Vec::new(),
            uncertain: 0,
            depth: 0,
            calls: 0,
            returned: None,
            torch_arch: None,
            extensions: Vec::new(),
            notes: Vec::new(),
        };
        ev.block(&block);
        let units = ev.units(&mut notes);
        for n in ev.notes {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
        runs.push((ev.picked, units));
    }
    // Variants that build nothing (`if not SKIP_CUDA_BUILD:` around the extensions) are no
    // build; a choice every remaining variant makes alike names none of them.
    if runs.iter().any(|(_, u)| !u.is_empty()) {
        runs.retain(|(_, u)| !u.is_empty());
    }
    let branch_of =
        |picked: &[(u32, usize)], at: u32| picked.iter().find(|(a, _)| *a == at).map(|(_, b)| *b);
    let telling: Vec<&(u32, Vec<String>)> = choices[..used]
        .iter()
        .filter(|(at, _)| {
            let first = runs.first().map(|(p, _)| branch_of(p, *at));
            runs.iter().any(|(p, _)| Some(branch_of(p, *at)) != first)
        })
        .collect();
    let variants = runs
        .into_iter()
        .map(|(picked, units)| {
            let names: Vec<String> = telling
                .iter()
                .filter_map(|(at, names)| Some(names.get(branch_of(&picked, *at)?)?.clone()))
                .collect();
            Variant {
                name: names.join(", "),
                units,
            }
        })
        .collect();
    ProjectBuild::new(path, variants, notes)
}

/// A condition as a variant's name: `` `os.getenv("X") == "1"` `` (blanks squeezed, long
/// ones cut).
fn condition_name(cond: &str) -> String {
    let c: String = cond.split_whitespace().collect::<Vec<_>>().join(" ");
    let c = if c.len() > 80 {
        let mut cut = 77;
        while !c.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}...", &c[..cut])
    } else {
        c
    };
    format!("`{c}`")
}

fn line_of(text: &str, at: u32) -> usize {
    text.as_bytes()[..(at as usize).min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The statement tree of the logical lines (an explicit stack: indentation decides).
fn statements(toks: &Tokens) -> Vec<Stmt> {
    // (indent of the block's statements, the block being built)
    let mut stack: Vec<(Option<u32>, Vec<Stmt>)> = vec![(None, Vec::new())];
    for line in &toks.lines {
        let r = line.tokens.clone();
        if r.is_empty() {
            continue;
        }
        // Close blocks indented deeper than this line.
        while stack.len() > 1
            && stack
                .last()
                .is_some_and(|(ind, _)| ind.is_some_and(|i| line.indent < i))
        {
            close(&mut stack);
        }
        if let Some(top) = stack.last_mut() {
            if top.0.is_none() {
                top.0 = Some(line.indent);
            } else if top.0.is_some_and(|i| line.indent > i) && stack.len() > 1 {
                // An unexpected indent: part of the block anyway.
            }
        }
        // A compound statement: a header ending at a depth-0 `:` (the last one for `lambda`).
        let header_end = compound_colon(toks, r.clone());
        match header_end {
            Some(colon) if colon + 1 < r.end => {
                // `if x: y = 1`: the body on the same line.
                let stmt = Stmt {
                    tokens: r.start..colon,
                    body: vec![Stmt {
                        tokens: colon + 1..r.end,
                        body: Vec::new(),
                    }],
                };
                push(&mut stack, stmt);
            }
            Some(colon) => {
                let stmt = Stmt {
                    tokens: r.start..colon,
                    body: Vec::new(),
                };
                push(&mut stack, stmt);
                if stack.len() < MAX_DEPTH {
                    stack.push((None, Vec::new()));
                }
            }
            None => push(
                &mut stack,
                Stmt {
                    tokens: r,
                    body: Vec::new(),
                },
            ),
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    stack.pop().map(|(_, b)| b).unwrap_or_default()
}

fn push(stack: &mut [(Option<u32>, Vec<Stmt>)], stmt: Stmt) {
    if let Some(top) = stack.last_mut() {
        top.1.push(stmt);
    }
}

fn close(stack: &mut Vec<(Option<u32>, Vec<Stmt>)>) {
    if let Some((_, body)) = stack.pop() {
        if let Some(parent) = stack.last_mut().and_then(|p| p.1.last_mut()) {
            parent.body = body;
        }
    }
}

const COMPOUND: &[&str] = &[
    "if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def", "class",
    "async",
];

/// The `:` ending a compound statement's header, when the line starts one.
fn compound_colon(toks: &Tokens, r: Range<u32>) -> Option<u32> {
    let first = r.start;
    let is_compound = toks.kind(first) == Kind::Name && COMPOUND.contains(&toks.text_of(first))
        || toks.is_op(first, "@");
    if !is_compound || toks.is_op(first, "@") {
        return None;
    }
    let mut lambda = 0;
    for i in toks.top_level(r) {
        if toks.is_keyword(i, "lambda") {
            lambda += 1;
        } else if toks.is_op(i, ":") {
            if lambda == 0 {
                return Some(i);
            }
            lambda -= 1;
        }
    }
    None
}

/// Names the script binds to something read from the environment (directly or through
/// another such name), in one pass in file order.
fn env_names(toks: &Tokens, block: &[Stmt]) -> HashSet<String> {
    let mut names = HashSet::new();
    let mut work: Vec<&Stmt> = block.iter().rev().collect();
    while let Some(s) = work.pop() {
        if let Some(eq) = toks.find_op(s.tokens.clone(), "=") {
            if reads_env(toks, eq + 1..s.tokens.end, &names) {
                for i in s.tokens.start..eq {
                    if toks.is_name(i) {
                        names.insert(toks.text_of(i).to_string());
                    }
                }
            }
        }
        work.extend(s.body.iter().rev());
    }
    names
}

fn reads_env(toks: &Tokens, r: Range<u32>, env_names: &HashSet<String>) -> bool {
    r.into_iter().any(|i| {
        toks.kind(i) == Kind::Name && {
            let t = toks.text_of(i);
            t == "getenv" || t == "environ" || env_names.contains(t)
        }
    })
}

/// Whether a string in these tokens is an nvcc flag ptxguard reads (a target or a macro), or
/// the script sets `TORCH_CUDA_ARCH_LIST`.
fn holds_flags(toks: &Tokens, stmts: &[Stmt]) -> bool {
    let mut work: Vec<&Stmt> = stmts.iter().collect();
    while let Some(s) = work.pop() {
        for i in s.tokens.clone() {
            let t = toks.text_of(i);
            let hit = match toks.kind(i) {
                Kind::Str => {
                    let body = t.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                    let body = body.trim_start_matches(['"', '\'']);
                    body.starts_with("-D")
                        || body.starts_with("-U")
                        || t.contains("arch=")
                        || t.contains("-arch")
                        || t.contains("-gencode")
                        || t.contains("--generate-code")
                        || t.contains("TORCH_CUDA_ARCH_LIST")
                }
                _ => false,
            };
            if hit {
                return true;
            }
        }
        work.extend(s.body.iter());
    }
    false
}

/// The `if` chains that choose between variants: their first token, and each branch's name
/// (an implicit `else` counts).
fn find_choices(
    toks: &Tokens,
    block: &[Stmt],
    env_names: &HashSet<String>,
    out: &mut Vec<(u32, Vec<String>)>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut k = 0;
    while k < block.len() {
        let s = &block[k];
        if toks.is_keyword(s.tokens.start, "if") {
            let mut end = k + 1;
            while end < block.len()
                && (toks.is_keyword(block[end].tokens.start, "elif")
                    || toks.is_keyword(block[end].tokens.start, "else"))
            {
                end += 1;
            }
            let chain = &block[k..end];
            let has_else =
                chain.len() > 1 && toks.is_keyword(chain[chain.len() - 1].tokens.start, "else");
            let conditions_read_env = chain
                .iter()
                .filter(|c| !toks.is_keyword(c.tokens.start, "else"))
                .any(|c| reads_env(toks, c.tokens.start + 1..c.tokens.end, env_names));
            let flags = chain.iter().any(|c| holds_flags(toks, &c.body));
            if conditions_read_env && flags {
                let mut names: Vec<String> = chain
                    .iter()
                    .filter(|c| !toks.is_keyword(c.tokens.start, "else"))
                    .map(|c| condition_name(source(toks, c.tokens.start + 1..c.tokens.end)))
                    .collect();
                let none = format!("not {}", names.join(" nor "));
                names.push(none);
                debug_assert!(names.len() == chain.len() + usize::from(!has_else));
                out.push((s.tokens.start, names));
            }
            for c in chain {
                find_choices(toks, &c.body, env_names, out, depth + 1);
            }
            k = end;
            continue;
        }
        if !toks.is_keyword(s.tokens.start, "def") && !toks.is_keyword(s.tokens.start, "class") {
            find_choices(toks, &s.body, env_names, out, depth + 1);
        }
        k += 1;
    }
}

/// A string the script builds: its text when known, and whether it is there on every path
/// of the variant (a flag appended under an `if` that may not hold is not).
#[derive(Clone, Debug)]
struct Item {
    text: Option<String>,
    certain: bool,
}

#[derive(Clone, Debug)]
enum Val {
    Str(Item),
    List(Vec<Item>),
    Dict(Vec<(String, Val)>),
    Unknown,
}

/// A torch extension the script builds.
#[derive(Debug, Default)]
struct Extension {
    name: String,
    sources: Vec<PathBuf>,
    sources_unknown: bool,
    nvcc: Vec<Item>,
    include_dirs: Vec<PathBuf>,
}

struct Eval<'a, 't> {
    toks: &'a Tokens<'t>,
    base: PathBuf,
    script: PathBuf,
    vars: HashMap<String, Val>,
    defs: HashMap<String, (Vec<String>, &'a [Stmt])>,
    pick: &'a HashMap<u32, usize>,
    /// The choices this run went through, and the branch taken.
    picked: Picked,
    /// Inside this many `if`s that may or may not hold.
    uncertain: usize,
    depth: usize,
    calls: usize,
    returned: Option<Val>,
    torch_arch: Option<Item>,
    extensions: Vec<Extension>,
    notes: Vec<String>,
}

impl<'a, 't> Eval<'a, 't> {
    fn block(&mut self, block: &'a [Stmt]) {
        if self.depth > MAX_DEPTH {
            return;
        }
        self.depth += 1;
        let mut k = 0;
        while k < block.len() && self.returned.is_none() {
            let s = &block[k];
            let first = s.tokens.start;
            let word = if self.toks.kind(first) == Kind::Name {
                self.toks.text_of(first)
            } else {
                ""
            };
            match word {
                "if" => {
                    let mut end = k + 1;
                    while end < block.len() && matches!(self.keyword(&block[end]), "elif" | "else")
                    {
                        end += 1;
                    }
                    self.if_chain(&block[k..end]);
                    k = end;
                    continue;
                }
                "def" => {
                    let r = s.tokens.clone();
                    if let Some(name) = (r.start + 1 < r.end).then_some(r.start + 1) {
                        let params = self.params(r.clone());
                        self.defs
                            .insert(self.toks.text_of(name).to_string(), (params, &s.body));
                    }
                }
                "class" | "except" | "elif" | "else" | "async" => {}
                "for" | "while" | "with" | "try" | "finally" => {
                    // The loop's body once (its variable unknown); a `with` or `try` body.
                    if word == "for" {
                        if let Some(in_at) =
                            (s.tokens.clone()).find(|&i| self.toks.is_keyword(i, "in"))
                        {
                            for i in s.tokens.start + 1..in_at {
                                if self.toks.is_name(i) {
                                    self.vars
                                        .insert(self.toks.text_of(i).to_string(), Val::Unknown);
                                }
                            }
                        }
                    }
                    let loops = word == "while" || word == "for";
                    self.uncertain += usize::from(loops);
                    self.block(&s.body);
                    self.uncertain -= usize::from(loops);
                }
                _ => self.simple(s.tokens.clone()),
            }
            k += 1;
        }
        self.depth -= 1;
    }

    fn keyword(&self, s: &Stmt) -> &'t str {
        if self.toks.kind(s.tokens.start) == Kind::Name {
            self.toks.text_of(s.tokens.start)
        } else {
            ""
        }
    }

    /// `def f(a, b=1, *args)`: the parameter names.
    fn params(&self, r: Range<u32>) -> Vec<String> {
        let Some(open) = (r.clone()).find(|&i| self.toks.is_op(i, "(")) else {
            return Vec::new();
        };
        let close = self.toks.partner[open as usize];
        if close == NONE || close <= open {
            return Vec::new();
        }
        self.toks
            .split_commas(open + 1..close)
            .into_iter()
            .filter_map(|p| {
                (p.clone())
                    .find(|&i| self.toks.is_name(i))
                    .map(|i| self.toks.text_of(i).to_string())
            })
            .collect()
    }

    fn if_chain(&mut self, chain: &'a [Stmt]) {
        let at = chain[0].tokens.start;
        if let Some(&branch) = self.pick.get(&at) {
            self.picked.push((at, branch));
            // Past the last branch: the `else` the chain does not write, which does nothing.
            if let Some(b) = chain.get(branch) {
                self.block(&b.body);
            }
            return;
        }
        // Not a choice: a condition that may or may not hold. `if __name__ == "__main__"`
        // and `if True` do hold.
        let cond = &chain[0];
        let holds = {
            let t = source(self.toks, cond.tokens.start + 1..cond.tokens.end);
            t.contains("__name__") || t.trim() == "True"
        };
        if holds && chain.len() == 1 {
            self.block(&cond.body);
            return;
        }
        self.uncertain += 1;
        for c in chain {
            self.block(&c.body);
        }
        self.uncertain -= 1;
    }

    fn item(&self, text: Option<String>) -> Item {
        Item {
            text,
            certain: self.uncertain == 0,
        }
    }

    /// A statement without a body.
    fn simple(&mut self, r: Range<u32>) {
        let t = self.toks;
        if t.is_keyword(r.start, "return") {
            let v = if r.start + 1 < r.end {
                self.expr(r.start + 1..r.end)
            } else {
                Val::Unknown
            };
            self.returned = Some(v);
            return;
        }
        if t.is_keyword(r.start, "import") || t.is_keyword(r.start, "from") {
            return;
        }
        // Augmented assignment: `x += [...]`, `d["nvcc"] += [...]`.
        if let Some(op) = t.top_level(r.clone()).find(|&i| t.is_op(i, "+=")) {
            let add = self.expr(op + 1..r.end);
            let target = r.start..op;
            let old = self.lvalue(target.clone()).unwrap_or(Val::Unknown);
            let new = concat(old, add);
            self.assign(target, new);
            return;
        }
        // Assignment (`a = b = v`): the last `=` at depth 0 holds the value.
        let eqs: Vec<u32> = t
            .top_level(r.clone())
            .filter(|&i| t.is_op(i, "="))
            .collect();
        if let Some(&last) = eqs.last() {
            let value = self.expr(last + 1..r.end);
            let mut start = r.start;
            for &eq in &eqs {
                let target = start..eq;
                // `x: list = ...`
                let target = match t.find_op(target.clone(), ":") {
                    Some(colon) => target.start..colon,
                    None => target,
                };
                self.assign(target, value.clone());
                start = eq + 1;
            }
            return;
        }
        // `x.append(v)`, `x.extend(v)`, `x.insert(i, v)`, `d["nvcc"].extend(v)`.
        if let Some((object, method, args)) = self.method_call(r.clone()) {
            let args_v: Vec<Range<u32>> = t.split_commas(args);
            let add = match (method, args_v.as_slice()) {
                ("append", [a]) => Some(match self.expr(a.clone()) {
                    Val::Str(s) => Val::List(vec![s]),
                    _ => Val::List(vec![self.item(None)]),
                }),
                ("extend", [a]) => Some(self.expr(a.clone())),
                ("insert", [_, a]) => Some(match self.expr(a.clone()) {
                    Val::Str(s) => Val::List(vec![s]),
                    _ => Val::List(vec![self.item(None)]),
                }),
                _ => None,
            };
            if let Some(add) = add {
                if let Some(old) = self.lvalue(object.clone()) {
                    let new = concat(old, self.mark(add));
                    self.assign(object, new);
                    return;
                }
            }
        }
        // Anything else: evaluated for the extensions it may build.
        self.expr(r);
    }

    /// Items added under an uncertain `if` become uncertain.
    fn mark(&self, v: Val) -> Val {
        match v {
            Val::List(items) if self.uncertain > 0 => Val::List(
                items
                    .into_iter()
                    .map(|i| Item {
                        certain: false,
                        ..i
                    })
                    .collect(),
            ),
            v => v,
        }
    }

    /// `obj.method(args)` as a whole statement: the object's tokens, the method, the args.
    fn method_call(&self, r: Range<u32>) -> Option<(Range<u32>, &'t str, Range<u32>)> {
        let t = self.toks;
        let close = r.end.checked_sub(1)?;
        if !t.is_op(close, ")") {
            return None;
        }
        let open = t.partner[close as usize];
        if open == NONE || open < r.start + 2 || !t.is_op(open - 2, ".") || !t.is_name(open - 1) {
            return None;
        }
        Some((r.start..open - 2, t.text_of(open - 1), open + 1..close))
    }

    /// The current value of an assignable expression: a name, `d["key"]`.
    fn lvalue(&mut self, r: Range<u32>) -> Option<Val> {
        let t = self.toks;
        if r.len() == 1 && t.is_name(r.start) {
            return Some(
                self.vars
                    .get(t.text_of(r.start))
                    .cloned()
                    .unwrap_or(Val::Unknown),
            );
        }
        let (base, key) = self.subscript(r)?;
        match self.vars.get(&base)? {
            Val::Dict(entries) => entries
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.clone()),
            _ => None,
        }
    }

    /// `name["key"]` (a literal key).
    fn subscript(&self, r: Range<u32>) -> Option<(String, String)> {
        let t = self.toks;
        if r.len() != 4 || !t.is_name(r.start) || !t.is_op(r.start + 1, "[") {
            return None;
        }
        let key = literal(t, r.start + 2)?;
        Some((t.text_of(r.start).to_string(), key))
    }

    fn assign(&mut self, target: Range<u32>, value: Val) {
        let t = self.toks;
        if target.is_empty() {
            return;
        }
        // `os.environ["TORCH_CUDA_ARCH_LIST"] = ...`
        let text = source(t, target.clone());
        if text.contains("environ") && text.contains("TORCH_CUDA_ARCH_LIST") {
            let new = match value {
                Val::Str(s) => s.text,
                _ => None,
            };
            // Under an `if` that may not hold, one list among others: their union (the build
            // may use any).
            let text = match (self.uncertain > 0, self.torch_arch.take()) {
                (
                    true,
                    Some(Item {
                        text: Some(old), ..
                    }),
                ) => new.map(|n| {
                    if old.is_empty() {
                        n
                    } else {
                        format!("{old};{n}")
                    }
                }),
                _ => new,
            };
            self.torch_arch = Some(self.item(text));
            return;
        }
        if target.len() == 1 && t.is_name(target.start) {
            self.vars.insert(t.text_of(target.start).to_string(), value);
            return;
        }
        if let Some((base, key)) = self.subscript(target.clone()) {
            if let Some(Val::Dict(entries)) = self.vars.get_mut(&base) {
                match entries.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = value,
                    None => entries.push((key, value)),
                }
                return;
            }
        }
        // Tuple targets and the like: the names become unknown.
        for i in target {
            if t.is_name(i) {
                self.vars.insert(t.text_of(i).to_string(), Val::Unknown);
            }
        }
    }

    /// Evaluates an expression.
    fn expr(&mut self, r: Range<u32>) -> Val {
        if r.is_empty() || self.depth > MAX_DEPTH {
            return Val::Unknown;
        }
        self.depth += 1;
        let v = self.expr_inner(r);
        self.depth -= 1;
        v
    }

    fn expr_inner(&mut self, r: Range<u32>) -> Val {
        let t = self.toks;
        // `a if c else b`: unknown (both sides still evaluated for the extensions they build).
        if let Some(i) = t.top_level(r.clone()).find(|&i| t.is_keyword(i, "if")) {
            self.expr(r.start..i);
            return Val::Unknown;
        }
        // `a + b`
        let pluses: Vec<u32> = t
            .top_level(r.clone())
            .filter(|&i| t.is_op(i, "+"))
            .collect();
        if !pluses.is_empty() && pluses[0] > r.start {
            let mut acc: Option<Val> = None;
            let mut start = r.start;
            for p in pluses.iter().copied().chain(std::iter::once(r.end)) {
                let part = self.expr(start..p);
                acc = Some(match acc {
                    None => part,
                    Some(a) => concat(a, part),
                });
                start = p + 1;
            }
            return acc.unwrap_or(Val::Unknown);
        }
        self.postfix(r)
    }

    /// A primary and its `.attr`, `(call)` and `[index]` suffixes.
    fn postfix(&mut self, r: Range<u32>) -> Val {
        let t = self.toks;
        let first = r.start;
        // Adjacent string literals.
        if t.kind(first) == Kind::Str {
            let mut end = first;
            let mut text = Some(String::new());
            while end < r.end && t.kind(end) == Kind::Str {
                match (literal(t, end), text.as_mut()) {
                    (Some(s), Some(acc)) => acc.push_str(&s),
                    _ => text = None,
                }
                end += 1;
            }
            let v = Val::Str(self.item(text));
            return self.suffixes(v, end..r.end, "");
        }
        if t.is_op(first, "[") || t.is_op(first, "(") || t.is_op(first, "{") {
            let close = t.partner[first as usize];
            if close == NONE || close <= first || close >= r.end {
                return Val::Unknown;
            }
            let inner = first + 1..close;
            let v = if t.is_op(first, "{") {
                self.dict(inner)
            } else if t.top_level(inner.clone()).any(|i| t.is_keyword(i, "for")) {
                // A comprehension: evaluated for its calls, its value unknown.
                self.expr(inner);
                Val::Unknown
            } else {
                let parts = t.split_commas(inner.clone());
                if t.is_op(first, "(") && parts.len() == 1 && !t.is_op(close - 1, ",") {
                    self.expr(parts[0].clone())
                } else {
                    let mut items = Vec::new();
                    for p in parts {
                        // `*other_list`
                        let star = t.is_op(p.start, "*");
                        let p = if star { p.start + 1..p.end } else { p };
                        match self.expr(p) {
                            Val::Str(s) => items.push(s),
                            Val::List(l) if star => items.extend(l),
                            _ => items.push(self.item(None)),
                        }
                    }
                    Val::List(items)
                }
            };
            return self.suffixes(v, close + 1..r.end, "");
        }
        if t.kind(first) == Kind::Name {
            // A dotted name: `os.path.join`.
            let mut end = first + 1;
            while end + 1 < r.end && t.is_op(end, ".") && t.kind(end + 1) == Kind::Name {
                end += 2;
            }
            // The longest dotted prefix that is followed by a call is the callee.
            let dotted: String = (first..end).map(|i| t.text_of(i)).collect();
            if end < r.end && t.is_op(end, "(") {
                let close = t.partner[end as usize];
                if close == NONE || close <= end || close >= r.end {
                    return Val::Unknown;
                }
                let v = self.call(&dotted, end + 1..close);
                return self.suffixes(v, close + 1..r.end, &dotted);
            }
            // A name with attributes: `x.parent`.
            let name = t.text_of(first);
            let mut v = match name {
                "__file__" => Val::Str(self.item(Some(self.script.display().to_string()))),
                _ => self.vars.get(name).cloned().unwrap_or(Val::Unknown),
            };
            let mut i = first + 1;
            while i + 1 < end {
                v = attribute(v, t.text_of(i + 1));
                i += 2;
            }
            return self.suffixes(v, end..r.end, &dotted);
        }
        // Anything else: its calls are still evaluated.
        self.calls_within(r);
        Val::Unknown
    }

    /// Evaluates the bracketed groups of an expression we do not model, for their calls.
    fn calls_within(&mut self, r: Range<u32>) {
        let t = self.toks;
        for i in t.top_level(r) {
            let close = t.partner[i as usize];
            if close != NONE && close > i + 1 {
                for part in t.split_commas(i + 1..close) {
                    self.expr(part);
                }
            }
        }
    }

    /// `.split(";")`, `[0]`, `.parent`... after a value.
    fn suffixes(&mut self, mut v: Val, r: Range<u32>, _callee: &str) -> Val {
        let t = self.toks;
        let mut i = r.start;
        while i < r.end {
            if t.is_op(i, ".") && i + 1 < r.end && t.kind(i + 1) == Kind::Name {
                let name = t.text_of(i + 1);
                if i + 2 < r.end && t.is_op(i + 2, "(") {
                    let close = t.partner[(i + 2) as usize];
                    if close == NONE || close >= r.end {
                        return Val::Unknown;
                    }
                    let args: Vec<Val> = t
                        .split_commas(i + 3..close)
                        .into_iter()
                        .map(|a| self.expr(a))
                        .collect();
                    v = self.method(v, name, &args);
                    i = close + 1;
                } else {
                    v = attribute(v, name);
                    i += 2;
                }
            } else if t.is_op(i, "[") {
                let close = t.partner[i as usize];
                if close == NONE || close >= r.end {
                    return Val::Unknown;
                }
                v = match (&v, literal(t, i + 1)) {
                    (Val::Dict(entries), Some(key)) if close == i + 2 => entries
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map_or(Val::Unknown, |(_, v)| v.clone()),
                    _ => Val::Unknown,
                };
                i = close + 1;
            } else {
                // An operator we do not model (`==`, `and`, `%`...): the rest for its calls.
                self.calls_within(i..r.end);
                return Val::Unknown;
            }
        }
        v
    }

    fn method(&mut self, v: Val, name: &str, args: &[Val]) -> Val {
        let s = match &v {
            Val::Str(Item {
                text: Some(s),
                certain,
            }) => Some((s.clone(), *certain)),
            _ => None,
        };
        match (name, s) {
            ("split", Some((s, certain))) => {
                let parts: Vec<String> = match args.first() {
                    Some(Val::Str(Item {
                        text: Some(sep), ..
                    })) if !sep.is_empty() => s.split(sep.as_str()).map(str::to_string).collect(),
                    None => s.split_whitespace().map(str::to_string).collect(),
                    _ => return Val::Unknown,
                };
                Val::List(
                    parts
                        .into_iter()
                        .map(|p| Item {
                            text: Some(p),
                            certain,
                        })
                        .collect(),
                )
            }
            ("strip" | "lower" | "upper" | "resolve" | "absolute", Some((s, certain))) => {
                let s = match name {
                    "strip" => s.trim().to_string(),
                    "lower" => s.to_lowercase(),
                    "upper" => s.to_uppercase(),
                    _ => s,
                };
                Val::Str(Item {
                    text: Some(s),
                    certain,
                })
            }
            ("glob" | "rglob", Some((dir, _))) => match args.first() {
                Some(Val::Str(Item { text: Some(p), .. })) => {
                    let pattern = if name == "rglob" {
                        format!("**/{p}")
                    } else {
                        p.clone()
                    };
                    self.glob_list(&Path::new(&dir).join(pattern).display().to_string())
                }
                _ => Val::Unknown,
            },
            ("join", Some((sep, _))) => match args.first() {
                Some(Val::List(items)) if items.iter().all(|i| i.text.is_some()) => {
                    let parts: Vec<&str> = items.iter().filter_map(|i| i.text.as_deref()).collect();
                    Val::Str(self.item(Some(parts.join(&sep))))
                }
                _ => Val::Unknown,
            },
            ("get", _) => match (&v, args.first()) {
                (Val::Dict(entries), Some(Val::Str(Item { text: Some(k), .. }))) => {
                    entries.iter().find(|(key, _)| key == k).map_or_else(
                        || args.get(1).cloned().unwrap_or(Val::Unknown),
                        |(_, v)| v.clone(),
                    )
                }
                _ => Val::Unknown,
            },
            _ => Val::Unknown,
        }
    }

    fn glob_list(&self, pattern: &str) -> Val {
        let files = glob(&self.base, pattern);
        Val::List(
            files
                .into_iter()
                .map(|p| self.item(Some(p.display().to_string())))
                .collect(),
        )
    }

    /// `{"cxx": [...], "nvcc": [...]}` (literal keys; others make the whole dict unknown).
    fn dict(&mut self, inner: Range<u32>) -> Val {
        let t = self.toks;
        let mut entries = Vec::new();
        for part in t.split_commas(inner) {
            let Some(colon) = t.find_op(part.clone(), ":") else {
                self.expr(part);
                return Val::Unknown;
            };
            let value = self.expr(colon + 1..part.end);
            match (colon == part.start + 1)
                .then(|| literal(t, part.start))
                .flatten()
            {
                Some(k) => entries.push((k, value)),
                None => return Val::Unknown,
            }
        }
        Val::Dict(entries)
    }

    /// Keyword and positional arguments of a call, evaluated.
    fn arguments(&mut self, args: Range<u32>) -> (Vec<Val>, Vec<(String, Val)>) {
        let t = self.toks;
        let mut positional = Vec::new();
        let mut keywords = Vec::new();
        for part in t.split_commas(args) {
            if part.len() >= 2 && t.is_name(part.start) && t.is_op(part.start + 1, "=") {
                let v = self.expr(part.start + 2..part.end);
                keywords.push((t.text_of(part.start).to_string(), v));
            } else if t.is_op(part.start, "*") || t.is_op(part.start, "**") {
                self.expr(part.start + 1..part.end);
                positional.push(Val::Unknown);
            } else {
                positional.push(self.expr(part));
            }
        }
        (positional, keywords)
    }

    /// The caller's variable each positional argument names (`f(cc_flag, x + 1)`:
    /// `[Some("cc_flag"), None]`).
    fn argument_names(&self, args: Range<u32>) -> Vec<Option<String>> {
        let t = self.toks;
        t.split_commas(args)
            .into_iter()
            .filter(|p| !(p.len() >= 2 && t.is_name(p.start) && t.is_op(p.start + 1, "=")))
            .map(|p| (p.len() == 1 && t.is_name(p.start)).then(|| t.text_of(p.start).to_string()))
            .collect()
    }

    fn call(&mut self, callee: &str, args: Range<u32>) -> Val {
        let last = callee.rsplit('.').next().unwrap_or(callee);
        let (pos, kw) = self.arguments(args.clone());
        let kwarg = |name: &str| kw.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let str_of = |v: Option<&Val>| match v {
            Some(Val::Str(Item { text: Some(s), .. })) => Some(s.clone()),
            _ => None,
        };
        match (callee, last) {
            ("os.getenv" | "getenv" | "os.environ.get" | "environ.get", _) => {
                // What the script builds with when the environment says nothing.
                match pos.get(1).cloned().or_else(|| kwarg("default")) {
                    Some(Val::Str(s)) => Val::Str(self.item(s.text)),
                    _ => Val::Unknown,
                }
            }
            (_, "join") if callee.ends_with("path.join") => {
                let parts: Option<Vec<String>> = pos.iter().map(|v| str_of(Some(v))).collect();
                match parts {
                    Some(p) => {
                        let mut path = PathBuf::new();
                        for part in p {
                            path.push(part);
                        }
                        Val::Str(self.item(Some(path.display().to_string())))
                    }
                    None => Val::Unknown,
                }
            }
            (_, "dirname" | "abspath" | "realpath" | "normpath") if callee.contains("path.") => {
                match str_of(pos.first()) {
                    Some(p) if last == "dirname" => Val::Str(
                        self.item(Some(
                            Path::new(&p)
                                .parent()
                                .unwrap_or(Path::new(""))
                                .display()
                                .to_string(),
                        )),
                    ),
                    Some(p) => Val::Str(self.item(Some(p))),
                    None => Val::Unknown,
                }
            }
            ("Path" | "pathlib.Path" | "str" | "list" | "sorted" | "tuple" | "set", _) => {
                pos.first().cloned().unwrap_or(Val::Unknown)
            }
            ("glob.glob" | "glob" | "glob.iglob", _) => match str_of(pos.first()) {
                Some(p) => self.glob_list(&p),
                None => Val::Unknown,
            },
            ("shlex.split", _) => match str_of(pos.first()) {
                Some(s) => Val::List(
                    shell_words(&s)
                        .into_iter()
                        .map(|w| self.item(Some(w)))
                        .collect(),
                ),
                None => Val::Unknown,
            },
            (_, "CUDAExtension" | "CppExtension" | "Extension" | "SyclExtension") => {
                self.extension(&pos, &kw);
                Val::Unknown
            }
            _ => {
                if let Some((params, body)) = self.defs.get(callee).cloned() {
                    let names = self.argument_names(args);
                    return self.inline(&params, body, pos, kw, &names);
                }
                Val::Unknown
            }
        }
    }

    /// A call of the script's own function: its body runs with the parameters bound; a list
    /// passed by name is the caller's (what the function appends, the caller sees).
    fn inline(
        &mut self,
        params: &[String],
        body: &'a [Stmt],
        pos: Vec<Val>,
        kw: Vec<(String, Val)>,
        arg_names: &[Option<String>],
    ) -> Val {
        if self.calls >= MAX_CALLS || self.depth > MAX_DEPTH {
            return Val::Unknown;
        }
        self.calls += 1;
        let saved: Vec<(String, Option<Val>)> = params
            .iter()
            .map(|p| (p.clone(), self.vars.get(p).cloned()))
            .collect();
        for (k, p) in params.iter().enumerate() {
            let v = kw
                .iter()
                .find(|(n, _)| n == p)
                .map(|(_, v)| v.clone())
                .or_else(|| pos.get(k).cloned())
                .unwrap_or(Val::Unknown);
            self.vars.insert(p.clone(), v);
        }
        let returned = self.returned.take();
        self.block(body);
        let value = std::mem::replace(&mut self.returned, returned).unwrap_or(Val::Unknown);
        let after: Vec<Option<Val>> = params.iter().map(|p| self.vars.get(p).cloned()).collect();
        for (name, old) in saved {
            match old {
                Some(v) => self.vars.insert(name, v),
                None => self.vars.remove(&name),
            };
        }
        // A list parameter the function changed: the caller's list changed.
        for (k, now) in after.into_iter().enumerate() {
            if let (Some(Some(caller)), Some(Val::List(items))) = (arg_names.get(k), now) {
                if matches!(self.vars.get(caller), Some(Val::List(_))) {
                    self.vars.insert(caller.clone(), Val::List(items));
                }
            }
        }
        value
    }

    fn extension(&mut self, pos: &[Val], kw: &[(String, Val)]) {
        let get = |name: &str, k: usize| {
            kw.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .or_else(|| pos.get(k).cloned())
        };
        let mut ext = Extension {
            name: match get("name", 0) {
                Some(Val::Str(Item { text: Some(n), .. })) => n,
                _ => "?".into(),
            },
            ..Extension::default()
        };
        match get("sources", 1) {
            Some(Val::List(items)) => {
                for i in items {
                    match i.text {
                        Some(s) => ext.sources.push(normalize(&self.base.join(s))),
                        None => ext.sources_unknown = true,
                    }
                }
            }
            _ => ext.sources_unknown = true,
        }
        match get("extra_compile_args", usize::MAX) {
            Some(Val::Dict(entries)) => {
                if let Some((_, v)) = entries.iter().find(|(k, _)| k == "nvcc") {
                    ext.nvcc = match v {
                        Val::List(items) => items.clone(),
                        Val::Str(s) => vec![s.clone()],
                        _ => vec![self.item(None)],
                    };
                }
            }
            Some(Val::List(items)) => ext.nvcc = items,
            Some(_) => ext.nvcc = vec![self.item(None)],
            None => {}
        }
        if let Some(Val::List(items)) = get("include_dirs", usize::MAX) {
            ext.include_dirs = items
                .iter()
                .filter_map(|i| i.text.as_ref())
                .map(|d| normalize(&self.base.join(d)))
                .collect();
        }
        self.extensions.push(ext);
    }

    /// The units of this variant's extensions.
    fn units(&mut self, notes: &mut Vec<String>) -> Vec<Unit> {
        let mut out = Vec::new();
        let script = self.script.display().to_string();
        for ext in &self.extensions {
            let words = |certain_only: bool| -> Vec<String> {
                ext.nvcc
                    .iter()
                    .filter(|i| i.certain || !certain_only)
                    .filter_map(|i| i.text.as_deref())
                    .flat_map(shell_words)
                    .collect()
            };
            let unknown = ext.nvcc.iter().filter(|i| i.text.is_none()).count();
            let mut flags = nvcc_flags(&words(false), &self.base);
            flags.macros = nvcc_flags(&words(true), &self.base).macros;
            flags.include_dirs.extend(ext.include_dirs.iter().cloned());
            let has_arch_flag = words(false).iter().any(|w| {
                w.contains("-arch") || w.contains("-gencode") || w.contains("--generate-code")
            });
            if !has_arch_flag {
                // torch adds `-gencode` for each entry of TORCH_CUDA_ARCH_LIST.
                match &self.torch_arch {
                    Some(Item {
                        text: Some(list), ..
                    }) => {
                        let parsed = torch_cuda_arch_list(list);
                        flags.targets = parsed.targets;
                        for n in parsed.notes {
                            notes.push(format!("{script}: {n}"));
                        }
                    }
                    _ => notes.push(format!(
                        "{script}: extension `{}` gives no `-gencode`/`-arch` and the script does not set TORCH_CUDA_ARCH_LIST: torch builds it for the GPU of the machine that builds, so its targets are not known here",
                        ext.name
                    )),
                }
            }
            if unknown > 0 {
                notes.push(format!(
                    "{script}: {unknown} of the nvcc flags of extension `{}` are computed in a way not followed here: the others are used",
                    ext.name
                ));
            }
            if ext.sources_unknown {
                notes.push(format!(
                    "{script}: the sources of extension `{}` are computed in a way not followed here",
                    ext.name
                ));
            }
            // torch's `BuildExtension` gives `.cu` and `.cuh` sources to nvcc and the others
            // to the host compiler, which compiles no device code.
            for src in ext.sources.iter().filter(|s| is_cuda_source(s)) {
                let mut f = flags.clone();
                f.notes.clear();
                out.push(Unit {
                    file: src.clone(),
                    flags: f,
                    origin: format!("extension `{}`", ext.name),
                });
            }
        }
        out
    }
}

/// The source text of a token range ("" when empty).
fn source<'t>(t: &Tokens<'t>, r: Range<u32>) -> &'t str {
    if r.is_empty() || r.end as usize > t.tokens.len() {
        return "";
    }
    t.source(&r)
}

/// `x.parent` of a path string; other attributes are unknown.
fn attribute(v: Val, name: &str) -> Val {
    match (v, name) {
        (
            Val::Str(Item {
                text: Some(p),
                certain,
            }),
            "parent",
        ) => Val::Str(Item {
            text: Some(
                Path::new(&p)
                    .parent()
                    .unwrap_or(Path::new(""))
                    .display()
                    .to_string(),
            ),
            certain,
        }),
        (v @ Val::Dict(_), "environ") => v,
        _ => Val::Unknown,
    }
}

fn concat(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::List(mut x), Val::List(y)) => {
            x.extend(y);
            Val::List(x)
        }
        (Val::Str(x), Val::Str(y)) => Val::Str(Item {
            text: x.text.zip(y.text).map(|(a, b)| a + &b),
            certain: x.certain && y.certain,
        }),
        (Val::List(mut x), Val::Unknown) => {
            x.push(Item {
                text: None,
                certain: true,
            });
            Val::List(x)
        }
        (Val::Unknown, Val::List(mut y)) => {
            y.insert(
                0,
                Item {
                    text: None,
                    certain: true,
                },
            );
            Val::List(y)
        }
        _ => Val::Unknown,
    }
}

/// The text of a string literal token (an f-string with fields is unknown).
fn literal(t: &Tokens, i: u32) -> Option<String> {
    if (i as usize) >= t.tokens.len() || t.kind(i) != Kind::Str {
        return None;
    }
    let s = t.text_of(i);
    let quote = s.find(['"', '\''])?;
    let prefix = s[..quote].to_ascii_lowercase();
    if prefix.contains('b') {
        return None;
    }
    if prefix.contains('f') && s.contains('{') {
        return None;
    }
    let q = &s[quote..];
    let body = if q.len() >= 6 && (q.starts_with("\"\"\"") || q.starts_with("'''")) {
        q.get(3..q.len() - 3)?
    } else {
        q.get(1..q.len().checked_sub(1)?)?
    };
    if prefix.contains('r') || !body.contains('\\') {
        return Some(body.to_string());
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\n') | None => {}
            Some(c @ ('\\' | '\'' | '"')) => out.push(c),
            Some(c) => {
                out.push('\\');
                out.push(c);
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests;
