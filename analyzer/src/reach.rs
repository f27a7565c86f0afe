//! Whether the device compiler sees a function's code at all. nvcc compiles an `inline`,
//! `static` or template device function (and a member defined in its class) only where
//! something uses it; a Python JIT (Triton, the CuTe DSL) builds a function's asm only when a
//! call reaches it. A finding in such code is loud only when something uses the function:
//! its own file is read here ([`needs_use`], in the rules' run), the other checked files by
//! the caller ([`uses_name`]: the CLI and the editor, which know the tree).
//!
//! Measured with nvcc 13.0.88 (`-arch=sm_90a -cubin`, 2026-12-05, `docs/precision.md`): an
//! uncalled `__forceinline__`, `inline`, `static` and template `__device__` function holding
//! `setctarank` (which ptxas rejects) compiled cleanly, whole-program and with `-rdc=true`;
//! an uncalled plain `__device__` function compiled cleanly whole-program but failed in ptxas
//! with `-rdc=true`. Whether a build is relocatable is not modelled, so a plain function's
//! findings stay as they are, as do a kernel's (`__global__`, not a template: always
//! compiled).

use crate::cpp::{AsmStatement, Function};
use crate::{Diagnostic, Severity, Span};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The function a finding's code is compiled only through.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NeedsUse {
    /// The function's name as a use spells it (`f` of `A::f`).
    pub name: String,
    /// Built by a Python call when the function runs (Triton, the CuTe DSL), not by nvcc.
    pub python: bool,
}

impl NeedsUse {
    /// Why a finding in the function is not loud when nothing in the checked files uses it.
    pub fn unused_note(&self) -> String {
        if self.python {
            format!(
                "nothing in the checked files uses `{}`, and its asm is built only when it is \
                 called: reported as info until something calls it",
                self.name
            )
        } else {
            format!(
                "nothing in the checked files uses `{}`, and nvcc compiles an inline, static or \
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

/// The function `stmt` is compiled only through, when nothing in `text` (its file) but the
/// function's own name at its definition names it.
pub fn needs_use(stmt: &AsmStatement, text: &str) -> Option<NeedsUse> {
    let f = stmt.context.function.as_ref()?;
    let python = stmt.python().is_some();
    if !python && !compiled_only_where_used(f) {
        return None;
    }
    let name = searchable_name(&f.name)?;
    let used = uses_name_outside(text.as_bytes(), name, Some(f.name_span));
    (!used).then(|| NeedsUse {
        name: name.to_string(),
        python,
    })
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
    uses_name_outside(text, name, None)
}

fn uses_name_outside(text: &[u8], name: &str, except: Option<Span>) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    memchr::memmem::find_iter(text, name.as_bytes()).any(|at| {
        let end = at + name.len();
        let whole = (at == 0 || !word(text[at - 1])) && text.get(end).is_none_or(|&b| !word(b));
        whole && except.is_none_or(|s| !(s.start as usize <= at && at < s.end as usize))
    })
}

/// Settles the findings of each file (its path, its findings); `users` tells, for each name
/// asked about, the files that name it (the CLI reads the checked files).
pub fn settle<'a>(
    reports: impl IntoIterator<Item = (&'a Path, &'a mut Vec<Diagnostic>)>,
    users: impl FnOnce(&BTreeSet<String>) -> HashMap<String, Vec<PathBuf>>,
) {
    let mut pending: Vec<(&Path, &mut Diagnostic)> = reports
        .into_iter()
        .flat_map(|(home, ds)| ds.iter_mut().map(move |d| (home, d)))
        .filter(|(_, d)| d.severity > Severity::Info && d.needs_use_of.is_some())
        .collect();
    if pending.is_empty() {
        return;
    }
    let names: BTreeSet<String> = pending
        .iter()
        .filter_map(|(_, d)| d.needs_use_of.as_ref().map(|n| n.name.clone()))
        .collect();
    let users = users(&names);
    for (home, d) in &mut pending {
        let Some(needs) = &d.needs_use_of else {
            continue;
        };
        let used = users
            .get(&needs.name)
            .is_some_and(|paths| paths.iter().any(|p| p != home));
        if !used {
            let why = needs.unused_note();
            d.severity = Severity::Info;
            d.note = Some(match d.note.take() {
                Some(note) => format!("{why}. {note}"),
                None => why,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statements::find_asm_statements;
    use crate::SourceFile;

    fn needs(code: &str, name: &str) -> Option<NeedsUse> {
        let file = SourceFile::new(name, code.to_string());
        let statements = find_asm_statements(&file);
        assert_eq!(statements.len(), 1, "{code}");
        needs_use(&statements[0], &file.text)
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
}
