//! Whether the device compiler sees a function's code at all. nvcc compiles an `inline`,
//! `static` or template device function (and a member defined in its class) only where
//! something uses it; a Python JIT (Triton, the CuTe DSL) builds a function's asm only when a
//! call reaches it. A finding in such code is loud only when something uses the function:
//! its own file is read here ([`FileUses`], in the rules' run), the other checked files by
//! [`settle`]'s caller ([`uses_name`]: the CLI and the editor, which know the tree). A use is
//! the name as a whole word anywhere, comments and strings included (any doubt keeps the
//! finding), except where a function of that name is defined. Asm in the body of a macro is
//! compiled only where the macro is expanded: one nothing names but its own `#define` is
//! asked about the same way.
//!
//! Measured with nvcc 13.0.88 (`-arch=sm_90a -cubin`, 2026-12-05, `docs/precision.md`): an
//! uncalled `__forceinline__`, `inline`, `static` and template `__device__` function holding
//! `setctarank` (which ptxas rejects) compiled cleanly, whole-program and with `-rdc=true`;
//! an uncalled plain `__device__` function compiled cleanly whole-program but failed in ptxas
//! with `-rdc=true`. Whether a build is relocatable is not modelled, so a plain function's
//! findings stay as they are, as do a kernel's (`__global__`, not a template: always
//! compiled).

use crate::cpp::{AsmStatement, Function};
use crate::{Diagnostic, Severity};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The function a finding's code is compiled only through.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NeedsUse {
    /// The function's name as a use spells it (`f` of `A::f`).
    pub name: String,
    /// Built by a Python call when the function runs (Triton, the CuTe DSL), not by nvcc.
    pub python: bool,
    /// A macro's name: its asm is compiled only where it is expanded.
    #[serde(default)]
    pub macro_name: bool,
}

impl NeedsUse {
    /// Why a finding in the function is not loud when nothing in the project uses it.
    pub fn unused_note(&self) -> String {
        if self.macro_name {
            format!(
                "nothing in the project expands `{}`, and a macro's asm is compiled only where \
                 it is expanded: reported as info until something expands it",
                self.name
            )
        } else if self.python {
            format!(
                "nothing in the project uses `{}`, and its asm is built only when it is \
                 called: reported as info until something calls it",
                self.name
            )
        } else {
            format!(
                "nothing in the project uses `{}`, and nvcc compiles an inline, static or \
                 template device function only where it is used (measured): reported as info \
                 until something calls it",
                self.name
            )
        }
    }
}

/// Words that make a C++ function compiled only where used.
const USE_COMPILED: [&str; 7] = [
    "inline",
    "__inline__",
    "__forceinline__",
    "static",
    "template",
    "constexpr",
    "consteval",
];

/// Whether nvcc compiles the C++ function `f` only where something uses it.
pub fn compiled_only_where_used(f: &Function) -> bool {
    if f.has("__global__") && !f.has("template") {
        return false;
    }
    f.defined_in_class || USE_COMPILED.iter().any(|q| f.has(q))
}

/// For each statement of one file, the function it is compiled only through, when nothing in
/// the file uses it; each name is looked for once.
pub struct FileUses<'a> {
    text: &'a [u8],
    /// The first two uses of each name looked for.
    found: HashMap<String, [Option<usize>; 2]>,
}

impl<'a> FileUses<'a> {
    pub fn new(text: &'a str) -> FileUses<'a> {
        FileUses {
            text: text.as_bytes(),
            found: HashMap::new(),
        }
    }

    pub fn needs_use(&mut self, stmt: &AsmStatement) -> Option<NeedsUse> {
        // A statement in a macro's body takes its context from one expansion; the others
        // may be anywhere: only a macro nothing expands is asked about.
        if let Some(name) = &stmt.macro_name {
            return self.macro_needs_use(stmt, name);
        }
        let f = stmt.context.function.as_ref()?;
        let python = stmt.python().is_some();
        if !python && !compiled_only_where_used(f) {
            return None;
        }
        let name = searchable_name(&f.name)?;
        let text = self.text;
        let first_two = *self.found.entry(name.to_string()).or_insert_with(|| {
            let mut at = whole_words(text, name);
            [at.next(), at.next()]
        });
        // Of two uses, one at least is not this definition's name.
        let at_definition =
            |at: usize| f.name_span.start as usize <= at && at < f.name_span.end as usize;
        let used = first_two.iter().flatten().any(|&at| !at_definition(at));
        (!used).then(|| NeedsUse {
            name: name.to_string(),
            python,
            macro_name: false,
        })
    }
}

impl FileUses<'_> {
    /// For a statement in the body of the macro `name`: the macro, when nothing in the file
    /// names it but its own `#define` (an `#ifdef` or `#undef` of it counts as a use).
    fn macro_needs_use(&mut self, stmt: &AsmStatement, name: &str) -> Option<NeedsUse> {
        let text = self.text;
        // A paste anywhere (`#define CAT(a, b) a##b`, then `CAT(WRITE, _IN)(x)`) may spell
        // the name from parts: in doubt, it is used.
        if memchr::memmem::find(text, b"##").is_some() {
            return None;
        }
        let at = stmt.span.start as usize;
        let definition = macro_definition_before(text, name, at)?;
        // The directive is the name to the end of its logical line (`\` continues it).
        let mut end = at;
        loop {
            let Some(k) = memchr::memchr(b'\n', &text[end..]) else {
                end = text.len();
                break;
            };
            end += k + 1;
            if !text[..end - 1].trim_ascii_end().ends_with(b"\\") {
                break;
            }
        }
        let used = whole_words(text, name).any(|k| !(definition..end).contains(&k));
        (!used).then(|| NeedsUse {
            name: name.to_string(),
            python: false,
            macro_name: true,
        })
    }
}

/// Where the name of the `#define` of `name` whose body holds `at` is: the last
/// `define name` before `at` with only blanks after a `#` before it.
fn macro_definition_before(text: &[u8], name: &str, at: usize) -> Option<usize> {
    let before = &text[..at.min(text.len())];
    let mut end = before.len();
    while let Some(k) = memchr::memmem::rfind(&before[..end], b"define") {
        end = k;
        let directive = before[..k]
            .trim_ascii_end()
            .strip_suffix(b"#")
            .is_some_and(|b| b.is_empty() || matches!(b.last(), Some(b'\n' | b' ' | b'\t')));
        let rest = before[k + 6..].trim_ascii_start();
        if directive && rest.starts_with(name.as_bytes()) {
            let start = before.len() - rest.len();
            return text
                .get(start + name.len())
                .is_none_or(|&b| !is_word(b))
                .then_some(start);
        }
    }
    None
}

/// The name a use of a function spells: the last part of `A::B::f`, without template
/// arguments; `None` for what is not called by name (operators, destructors).
fn searchable_name(name: &str) -> Option<&str> {
    let last = name.rsplit("::").next()?.trim();
    let last = last.split('<').next()?.trim();
    let mut chars = last.chars();
    let first = chars.next()?;
    let identifier = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    (identifier && !last.starts_with("operator")).then_some(last)
}

/// Whether `text` holds `name` as a whole word anywhere (comments and strings too: C++ held in
/// a Python string calls its functions there).
pub fn uses_name(text: &[u8], name: &str) -> bool {
    whole_words(text, name).next().is_some()
}

/// [`uses_name`] for several names at once: one pass over a text finds them all (a search of
/// the tree reads every file for the names nothing has used yet).
pub struct NameSearch<'n> {
    names: Vec<&'n str>,
    automaton: Option<aho_corasick::AhoCorasick>,
}

impl<'n> NameSearch<'n> {
    pub fn new(names: Vec<&'n str>) -> NameSearch<'n> {
        // Leftmost matching (the fast searchers): a match only says where a name may start;
        // every name is tried there (`ab` and `abc` both start at `abc`).
        let automaton = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(&names)
            .ok();
        NameSearch { names, automaton }
    }

    pub fn names(&self) -> &[&'n str] {
        &self.names
    }

    /// Which of the names `text` uses, as [`uses_name`] answers for each.
    pub fn used_in(&self, text: &[u8]) -> Vec<&'n str> {
        let Some(automaton) = &self.automaton else {
            return self
                .names
                .iter()
                .copied()
                .filter(|name| uses_name(text, name))
                .collect();
        };
        let mut used = vec![false; self.names.len()];
        let mut left = self.names.len();
        // A whole word cannot start inside another name's match (a name is one identifier:
        // the byte before would be part of a word), so the starts of the matches are every
        // place a name may be used.
        'search: for m in automaton.find_iter(text) {
            let at = m.start();
            if at > 0 && is_word(text[at - 1]) {
                continue;
            }
            for (i, name) in self.names.iter().enumerate() {
                let end = at + name.len();
                if !used[i]
                    && text[at..].starts_with(name.as_bytes())
                    && text.get(end).is_none_or(|&b| !is_word(b))
                    && !defines(text, at, end)
                {
                    used[i] = true;
                    left -= 1;
                    if left == 0 {
                        break 'search;
                    }
                }
            }
        }
        if left > 0 {
            for at in memchr::memmem::find_iter(text, b"##") {
                for (i, name) in self.names.iter().enumerate() {
                    if !used[i] && pasted_at(text, at, name) {
                        used[i] = true;
                    }
                }
            }
        }
        self.names
            .iter()
            .zip(used)
            .filter_map(|(name, used)| used.then_some(*name))
            .collect()
    }
}

/// Where `text` holds `name` as a whole word, other than where it names a function being
/// defined (a definition of another function of that name is no use of this one); and, when
/// `##` pastes a part of the name (`kind##_address`), at the paste (the name may be built
/// there).
fn whole_words<'t>(text: &'t [u8], name: &'t str) -> impl Iterator<Item = usize> + 't {
    memchr::memmem::find_iter(text, name.as_bytes())
        .filter(move |&at| {
            let end = at + name.len();
            (at == 0 || !is_word(text[at - 1]))
                && text.get(end).is_none_or(|&b| !is_word(b))
                && !defines(text, at, end)
        })
        .chain(pastes(text, name))
}

/// Where `##` joins a word that begins or ends `name` (`kind##_address` may spell
/// `remote_address`).
fn pastes<'t>(text: &'t [u8], name: &'t str) -> impl Iterator<Item = usize> + 't {
    memchr::memmem::find_iter(text, b"##").filter(move |&at| pasted_at(text, at, name))
}

/// Whether the `##` at `at` joins a word that begins or ends `name`.
fn pasted_at(text: &[u8], at: usize, name: &str) -> bool {
    let after = text[at + 2..].trim_ascii_start();
    let next = &after[..after
        .iter()
        .position(|&b| !is_word(b))
        .unwrap_or(after.len())];
    let before = text[..at].trim_ascii_end();
    let start = before
        .iter()
        .rposition(|&b| !is_word(b))
        .map_or(0, |i| i + 1);
    let previous = &before[start..];
    // A part worth the name: three bytes or more, a letter among them (`a##_##b` pastes
    // separators, not a name's part).
    let part = |p: &[u8]| p.len() >= 3 && p.iter().any(u8::is_ascii_alphabetic);
    (part(next) && name.as_bytes().ends_with(next))
        || (part(previous) && name.as_bytes().starts_with(previous))
}

/// Whether `at` is on a preprocessor directive's logical line (`\` continuations followed).
fn in_directive(text: &[u8], at: usize) -> bool {
    let mut start = memchr::memrchr(b'\n', &text[..at]).map_or(0, |n| n + 1);
    // The line before continues into this one when it ends in `\`.
    while start > 0 {
        let previous_end = start - 1;
        let line = &text[..previous_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.ends_with(b"\\") {
            break;
        }
        start = memchr::memrchr(b'\n', line).map_or(0, |n| n + 1);
    }
    text[start..at].trim_ascii_start().starts_with(b"#")
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether the name at `at..end` is the one a definition defines: Python's `def name`, or
/// C++'s `name(...)` (after template arguments, if any) followed by qualifier words and `{`.
/// Unsure is no: a use.
fn defines(text: &[u8], at: usize, end: usize) -> bool {
    if in_directive(text, at) {
        // `#define CALL(a) f(a)` is a use, whatever follows the line.
        return false;
    }
    let before = text[..at].trim_ascii_end();
    if before.len() < at
        && before.ends_with(b"def")
        && (before.len() == 3 || !is_word(before[before.len() - 4]))
    {
        return true;
    }
    // Spaces and comments.
    let skip_space = |mut i: usize| loop {
        while text.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        match (text.get(i), text.get(i + 1)) {
            (Some(b'/'), Some(b'/')) => {
                i = memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |n| i + n);
            }
            (Some(b'/'), Some(b'*')) => {
                i = memchr::memmem::find(&text[i + 2..], b"*/").map_or(text.len(), |n| i + n + 4);
            }
            _ => return i,
        }
    };
    // The end of the group that opens at `i` (`(`/`)` or `<`/`>`), when it closes within a
    // parameter list's length and before any `;`.
    let close = |i: usize, open: u8, shut: u8| {
        let mut depth = 0usize;
        for (k, &b) in text.iter().enumerate().skip(i).take(4096) {
            if b == open {
                depth += 1;
            } else if b == shut {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
                }
            } else if b == b';' || (open == b'<' && matches!(b, b'{' | b'}' | b'(')) {
                return None;
            }
        }
        None
    };
    let mut i = skip_space(end);
    if text.get(i) == Some(&b'<') {
        let Some(after) = close(i, b'<', b'>') else {
            return false;
        };
        i = skip_space(after);
    }
    if text.get(i) != Some(&b'(') {
        return false;
    }
    let Some(after) = close(i, b'(', b')') else {
        return false;
    };
    i = skip_space(after);
    // `const`, `noexcept(...)`, `__attribute__((...))`, `&&`, a macro, then the body.
    for _ in 0..16 {
        match text.get(i) {
            Some(b'{') => return true,
            Some(b'&') => i = skip_space(i + 1),
            Some(&b) if is_word(b) => {
                while text.get(i).is_some_and(|&b| is_word(b)) {
                    i += 1;
                }
                i = skip_space(i);
                if text.get(i) == Some(&b'(') {
                    let Some(after) = close(i, b'(', b')') else {
                        return false;
                    };
                    i = skip_space(after);
                }
            }
            _ => return false,
        }
    }
    false
}

/// The questions of a settle: each name, and the files whose findings need a use of it.
pub type Questions = BTreeMap<String, BTreeSet<PathBuf>>;

/// Whether `d` is loud only if something uses its function: what [`settle`] decides.
pub fn awaits_use(d: &Diagnostic) -> bool {
    d.severity > Severity::Info && d.needs_use_of.is_some()
}

/// Settles the findings of each file (its path, its findings): `uses_elsewhere` is asked, for
/// each name and file that asks, whether a file other than that one uses the name, and
/// answers with the pairs (name, asking file) that are used (the CLI reads the checked files,
/// the server its workspace's: [`users_answer`]).
pub fn settle<'a>(
    reports: impl IntoIterator<Item = (&'a Path, &'a mut Vec<Diagnostic>)>,
    uses_elsewhere: impl FnOnce(&Questions) -> HashSet<(String, PathBuf)>,
) {
    let mut pending: Vec<(&Path, &mut Diagnostic)> = reports
        .into_iter()
        .flat_map(|(home, ds)| ds.iter_mut().map(move |d| (home, d)))
        .filter(|(_, d)| awaits_use(d))
        .collect();
    if pending.is_empty() {
        return;
    }
    let mut questions = Questions::new();
    for (home, d) in &pending {
        if let Some(needs) = &d.needs_use_of {
            questions
                .entry(needs.name.clone())
                .or_default()
                .insert(home.to_path_buf());
        }
    }
    let used = uses_elsewhere(&questions);
    for (home, d) in &mut pending {
        let Some(needs) = &d.needs_use_of else {
            continue;
        };
        if used.contains(&(needs.name.clone(), home.to_path_buf())) {
            continue;
        }
        d.quiet(needs.unused_note());
    }
}

/// The answer to `questions` from the files known to use each name (`users`): a name is used
/// for a file when another file uses it.
pub fn users_answer(
    questions: &Questions,
    users: impl Fn(&str) -> Vec<PathBuf>,
) -> HashSet<(String, PathBuf)> {
    let mut used = HashSet::new();
    for (name, homes) in questions {
        let users = users(name);
        for home in homes {
            if users.iter().any(|u| u != home) {
                used.insert((name.clone(), home.clone()));
            }
        }
    }
    used
}

/// Whether the users found so far answer every asking file of a name: a user that asks
/// nothing, or two users.
pub fn answered(homes: &BTreeSet<PathBuf>, users: &[PathBuf]) -> bool {
    users.len() >= 2 || users.iter().any(|u| !homes.contains(u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statements::find_asm_statements;
    use crate::{SourceFile, Span};

    fn needs(code: &str, name: &str) -> Option<NeedsUse> {
        let file = SourceFile::new(name, code.to_string());
        let statements = find_asm_statements(&file);
        assert_eq!(statements.len(), 1, "{code}");
        FileUses::new(&file.text).needs_use(&statements[0])
    }

    const ASM: &str = r#"asm volatile("setctarank.shared.u32 %0, %1, 0;" : "=r"(r) : "r"(x));"#;

    #[test]
    fn uncalled_inline_static_template_and_member_need_a_use() {
        for head in [
            "__forceinline__ __device__ unsigned helper(unsigned x)",
            "inline __device__ unsigned helper(unsigned x)",
            "static __device__ unsigned helper(unsigned x)",
            "template <int N> __device__ unsigned helper(unsigned x)",
            "template <int N> __global__ void helper(unsigned x)",
        ] {
            let code = format!("{head} {{ unsigned r; {ASM} return r; }}\n");
            let n = needs(&code, "a.cu").unwrap_or_else(|| panic!("{head}"));
            assert_eq!(n.name, "helper");
            assert!(!n.python);
        }
        let member = format!("struct S {{ __device__ unsigned helper(unsigned x) {{ unsigned r; {ASM} return r; }} }};\n");
        assert_eq!(
            needs(&member, "a.cu").map(|n| n.name).as_deref(),
            Some("helper")
        );
    }

    #[test]
    fn asm_in_a_macro_body_is_not_judged_by_one_expansion() {
        let code = format!(
            "#define REMOTE(r, a, k) {ASM_MACRO}\n\
             inline __device__ unsigned unused_helper(unsigned x) {{ unsigned r; REMOTE(r, x, 0); return r; }}\n\
             __global__ void k(unsigned* v) {{ unsigned r; REMOTE(r, v[0], 1); v[1] = r; }}\n"
        );
        let file = SourceFile::new("a.cu", code);
        let statements = find_asm_statements(&file);
        assert!(!statements.is_empty());
        assert!(statements
            .iter()
            .all(|s| FileUses::new(&file.text).needs_use(s).is_none()));
    }

    const ASM_MACRO: &str =
        r#"asm volatile("setctarank.shared.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(k))"#;

    #[test]
    fn kernels_plain_functions_and_used_ones_do_not() {
        for code in [
            format!("__global__ void k(unsigned x) {{ unsigned r; {ASM} }}\n"),
            // Compiled with `-rdc=true` even uncalled: not modelled, left loud.
            format!("__device__ unsigned plain(unsigned x) {{ unsigned r; {ASM} return r; }}\n"),
            format!(
                "inline __device__ unsigned helper(unsigned x) {{ unsigned r; {ASM} return r; }}\n\
                 __global__ void k(unsigned* o) {{ o[0] = helper(o[1]); }}\n"
            ),
            format!(
                "template <int N> __device__ unsigned A::helper(unsigned x) {{ unsigned r; {ASM} return r; }}\n\
                 // helper is named here\n"
            ),
        ] {
            assert_eq!(needs(&code, "a.cu"), None, "{code}");
        }
    }

    #[test]
    fn python_functions_need_a_use() {
        let code = "import triton\n@triton.jit\ndef helper(x):\n    return tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r,r\", [x], dtype=tl.int32, is_pure=True, pack=1)\n";
        let n = needs(code, "a.py").expect("an unused Python helper");
        assert_eq!(n.name, "helper");
        assert!(n.python);
        let used = format!("{code}def k(x):\n    return helper(x)\n");
        assert_eq!(needs(&used, "a.py"), None);
    }

    #[test]
    fn a_macro_nothing_expands_needs_a_use() {
        let define = "#define TRIGGER(n) asm volatile(\"pmevent %0;\" :: \"n\"(n))\n";
        let n = needs(define, "a.cu").expect("never expanded");
        assert!(n.macro_name && n.name == "TRIGGER");
        assert!(n.unused_note().contains("expands `TRIGGER`"));
        // An expansion, or an `#ifdef` of it, is a use; so is one in a comment.
        for user in [
            "__global__ void k() { TRIGGER(1); }\n",
            "#ifdef TRIGGER\n#endif\n",
            "// TRIGGER(2) marks the phase\n",
        ] {
            assert_eq!(needs(&format!("{define}{user}"), "a.cu"), None, "{user}");
        }
        // A paste may spell any name from parts: in doubt, a use.
        let pasted = format!("{define}#define CAT(a, b) a##b\n");
        assert_eq!(needs(&pasted, "a.cu"), None);
        // `# define` with blanks, a body naming the macro, a stringized parameter, a
        // continued line, no newline at the end.
        let spaced = "#  define STAMP(x) asm volatile(\"pmevent \" #x \";\") \\\n /* STAMP */";
        assert!(needs(spaced, "a.cu").is_some_and(|n| n.name == "STAMP"));
    }

    fn finding(name: &str) -> Diagnostic {
        let mut d = Diagnostic::new("ptx-syntax", Severity::Error, Span::new(0, 1), "m");
        d.needs_use_of = Some(NeedsUse {
            name: name.into(),
            python: false,
            macro_name: false,
        });
        d
    }

    #[test]
    fn settle_asks_per_name_and_file_and_quiets_what_no_other_file_uses() {
        let (a, b) = (Path::new("/t/a.cuh"), Path::new("/t/b.cuh"));
        let mut in_a = vec![finding("shared"), finding("used"), finding("unused")];
        let mut in_b = vec![finding("shared")];
        let mut asked = None;
        settle([(a, &mut in_a), (b, &mut in_b)], |questions| {
            asked = Some(questions.clone());
            // `used` is used in c.cu; `shared` only in b.cuh, so only a.cuh's finding has a use
            // elsewhere.
            users_answer(questions, |name| match name {
                "used" => vec![PathBuf::from("/t/c.cu")],
                "shared" => vec![b.to_path_buf()],
                _ => Vec::new(),
            })
        });
        let asked = asked.expect("asked");
        assert_eq!(
            asked.keys().collect::<Vec<_>>(),
            ["shared", "unused", "used"]
        );
        assert_eq!(asked["shared"].len(), 2);
        let severities: Vec<Severity> = in_a.iter().chain(&in_b).map(|d| d.severity).collect();
        use Severity::*;
        assert_eq!(severities, [Error, Error, Info, Info]);
        assert!(in_a[2]
            .note
            .as_deref()
            .unwrap()
            .starts_with("nothing in the project uses `unused`"));
    }

    #[test]
    fn a_question_is_answered_by_a_user_that_asks_nothing_or_by_two_users() {
        let homes = BTreeSet::from([PathBuf::from("/t/a"), PathBuf::from("/t/b")]);
        assert!(!answered(&homes, &[]));
        assert!(!answered(&homes, &[PathBuf::from("/t/a")]));
        assert!(answered(
            &homes,
            &[PathBuf::from("/t/a"), PathBuf::from("/t/b")]
        ));
        assert!(answered(&homes, &[PathBuf::from("/t/c")]));
    }

    #[test]
    fn definitions_are_not_uses() {
        for text in [
            "__device__ inline void stas(int* p, int v) { *p = v; }",
            "template <bool B>\n__forceinline__ __device__ void stas(T* p,\n  int v) const noexcept(true) {",
            "void stas<int>(int* p) __attribute__((always_inline)) {",
            "def stas(x):\n    return x",
        ] {
            assert!(!uses_name(text.as_bytes(), "stas"), "{text}");
        }
        for text in [
            // A call ending a `#define` line, whatever comes on the next line.
            "#define REMOTE(a, r) stas(a, r)\n__global__ void k(int* p) {",
            "#define REMOTE(a, r) \\\n  stas(a, r)\nnamespace detail {",
        ] {
            assert!(uses_name(text.as_bytes(), "stas"), "{text}");
        }
        // The name built by pasting.
        for text in [
            "#define LOAD(kind) kind##_address(p)\nLOAD(remote)",
            "#define CALL(x) remote##x(p)\nCALL(_address)",
        ] {
            assert!(uses_name(text.as_bytes(), "remote_address"), "{text}");
        }
        // Separators pasted around a name's end are no part of it.
        assert!(!uses_name(b"#define J(a, b) a##_##b\n", "max3Pos_"));
        // A comment between the parameters and the body does not hide a definition.
        assert!(!uses_name(b"inline void stas(int* p) // note\n{", "stas"));
        assert!(!uses_name(
            b"inline void stas(int* p) /* a */ const {",
            "stas"
        ));
        // A mention in a comment counts: any doubt keeps the finding.
        assert!(uses_name(b"auto f = 1; // stas", "stas"));
        for text in [
            "stas(p, v);",
            "if (stas(p, v)) {",
            "x = stas<true>(p, v) + 1;",
            "void stas(int* p, int v);",
            "fn = &stas;",
            "USED = [stas]",
            "y = mod.stas(x)",
        ] {
            assert!(uses_name(text.as_bytes(), "stas"), "{text}");
        }
    }

    #[test]
    fn settle_leaves_info_findings_and_asks_nothing_without_marked_loud_ones() {
        let mut info = finding("unused");
        info.severity = Severity::Info;
        let mut ds = vec![
            info,
            Diagnostic::new("ptx-syntax", Severity::Error, Span::new(0, 1), "m"),
        ];
        settle([(Path::new("/t/a.cu"), &mut ds)], |_| {
            panic!("nothing to ask")
        });
        assert_eq!(ds[0].note, None);
        assert_eq!(ds[1].severity, Severity::Error);
    }

    #[test]
    fn whole_words_only() {
        assert!(uses_name(b"x = helper(1);", "helper"));
        assert!(!uses_name(b"x = helper2(1); my_helper();", "helper"));
        assert!(uses_name(b"helper", "helper"));
        assert!(!uses_name(b"", "helper"));
        assert_eq!(searchable_name("ns::A::f"), Some("f"));
        assert_eq!(searchable_name("f<int>"), Some("f"));
        assert_eq!(searchable_name("A::operator()"), None);
        assert_eq!(searchable_name("~A"), None);
    }

    #[test]
    fn one_search_for_many_names_finds_what_one_search_per_name_finds() {
        let names = ["ab", "abc", "b_c", "helper", "remote_address", "bc"];
        let texts: &[&[u8]] = &[
            b"abc(1); x = ab;",
            b"abcd ab_c b_c",
            b"__device__ inline void helper() { }",
            b"void helper() {} int y = helper();",
            b"#define F(kind) kind##_address\n",
            b"a##_##b ###abc",
            b"def ab(): pass\nab()",
            b"",
            b"xabc abcx _bc bc_",
        ];
        let search = NameSearch::new(names.to_vec());
        for text in texts {
            let alone: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| uses_name(text, n))
                .collect();
            assert_eq!(
                search.used_in(text),
                alone,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        // The cases above are not all empty or all full.
        let counts: Vec<usize> = texts.iter().map(|t| search.used_in(t).len()).collect();
        assert!(
            counts.contains(&0) && counts.iter().any(|&c| c >= 2),
            "{counts:?}"
        );
    }
}
