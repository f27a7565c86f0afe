//! Build files read statically (never executed): `setup.py` (torch extensions), CMake and
//! Makefiles become the same units a compilation database has (a source file and its
//! flags), grouped by build variant, so a file (or a header, through the units that include
//! it) gets the targets and `-D`s of the builds that compile it.

use super::flags::{parse_command, CompileFlags};
use super::{normalize, Database, Entry, FileBuild};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Build files larger than this are read up to it (and said so).
pub const MAX_BUILD_FILE_BYTES: u64 = 4 << 20;

/// A glob or a folder walk stops after this many directory entries.
const MAX_WALK_ENTRIES: usize = 50_000;

/// One compilation a build file describes: a source file and its compiler flags.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Absolute and normalized.
    pub file: PathBuf,
    pub flags: CompileFlags,
    /// Where in the build file it comes from: `CUDAExtension 'ops'`, `target attention`.
    pub origin: String,
}

/// The units of one alternative of a build (`if os.getenv("X")` in a setup.py picks one arch
/// list and `-D`s, its `else` another). A build without alternatives has one, named "".
#[derive(Clone, Debug, Default)]
pub struct Variant {
    pub name: String,
    pub units: Vec<Unit>,
}

/// What a build file says, read.
#[derive(Debug)]
pub struct ProjectBuild {
    /// The build file (a CMake project's top `CMakeLists.txt`).
    pub path: PathBuf,
    /// Every variant's units in one database (one include graph for all of them), each
    /// entry's variant and origin beside it.
    db: Database,
    variant_of: Vec<usize>,
    origins: Vec<String>,
    names: Vec<String>,
    /// What could not be read or resolved: one line each.
    pub notes: Vec<String>,
    /// Why no NVIDIA compiler builds the project's files (a CMake project built only with
    /// HIP), when that is known.
    pub not_for_nvidia: Option<String>,
}

/// What one variant of a build file says about a file.
#[derive(Clone, Debug)]
pub struct VariantBuild {
    /// "" when the build has no alternatives.
    pub variant: String,
    /// The build file that says it.
    pub build_file: PathBuf,
    pub build: FileBuild,
    /// For a header: the compiled files that include it (directly or not), with their
    /// targets.
    pub includers: Vec<(PathBuf, Vec<crate::isa::Target>)>,
}

impl ProjectBuild {
    pub fn new(path: &Path, variants: Vec<Variant>, notes: Vec<String>) -> ProjectBuild {
        let mut entries = Vec::new();
        let mut variant_of = Vec::new();
        let mut origins = Vec::new();
        let mut names = Vec::new();
        for (k, v) in variants.into_iter().enumerate() {
            names.push(v.name);
            // A unit without known targets can give no file any: left out (so is its part of
            // the include graph).
            for u in v.units.into_iter().filter(|u| !u.flags.targets.is_empty()) {
                variant_of.push(k);
                origins.push(u.origin);
                entries.push(Entry {
                    directory: u.file.parent().unwrap_or(Path::new("/")).to_path_buf(),
                    file: u.file,
                    flags: u.flags,
                    // A build file gives flags, not a command to run.
                    arguments: Vec::new(),
                });
            }
        }
        ProjectBuild {
            path: path.to_path_buf(),
            db: Database::from_entries(path, entries),
            variant_of,
            origins,
            names,
            notes,
            not_for_nvidia: None,
        }
    }

    /// How many units with known targets (over all variants).
    pub fn unit_count(&self) -> usize {
        self.db.entries.len()
    }

    /// For each variant that compiles `file` (or, for a header, whose units include it), the
    /// file's build: the targets of those units, their `-D`s when they all agree, the first
    /// one's include folders. Variants that say the same are merged (names joined).
    pub fn builds_for(&self, file: &Path) -> Vec<VariantBuild> {
        let mut out: Vec<VariantBuild> = Vec::new();
        let (db, origins) = (&self.db, &self.origins);
        let all_own = db.entries_for(file);
        let all_includers: &[usize] = if all_own.is_empty() {
            db.includers_of(file)
        } else {
            &[]
        };
        for (k, name) in self.names.iter().enumerate() {
            let of_variant = |list: &[usize]| -> Vec<usize> {
                list.iter()
                    .copied()
                    .filter(|&i| self.variant_of[i] == k)
                    .collect()
            };
            let own = of_variant(all_own);
            let includers = of_variant(all_includers);
            let (units, how) = if own.is_empty() {
                (includers.as_slice(), "included by")
            } else {
                (own.as_slice(), "compiles it")
            };
            let Some(&first) = units.first() else {
                continue;
            };
            let mut targets: Vec<_> = units
                .iter()
                .flat_map(|&i| db.entries[i].flags.targets.iter().copied())
                .collect();
            targets.sort_by_key(|t| (t.sm, t.suffix));
            targets.dedup();
            let first_flags = &db.entries[first].flags;
            let macros = units
                .iter()
                .all(|&i| db.entries[i].flags.macros == first_flags.macros)
                .then(|| first_flags.macros.clone());
            let mut whats: Vec<String> = Vec::new();
            for &i in units {
                let o = &origins[i];
                if !whats.contains(o) {
                    whats.push(o.clone());
                }
            }
            let shown = whats.len().min(2);
            let more = whats.len() - shown;
            let mut what = whats[..shown].join(", ");
            if own.is_empty() {
                let unit = db.entries[first].file.display();
                what = format!("{how} {unit}{}: {what}", plural_more(units.len() - 1));
            } else if more > 0 {
                what = format!("{what} and {more} more");
            }
            let variant = if name.is_empty() {
                String::new()
            } else {
                format!(", variant {name}")
            };
            let build = FileBuild {
                targets,
                targets_from: format!("{} ({what}{variant})", self.path.display()),
                macros,
                include_dirs: first_flags.include_dirs.clone(),
                cuda: None,
                cuda_from: String::new(),
                compilers: Vec::new(),
                macros_from: format!("{} ({what}{variant})", self.path.display()),
                macros_varying: Vec::new(),
                called_by_includers: None,
                not_for_nvidia: None,
            };
            let includers = if own.is_empty() {
                units
                    .iter()
                    .map(|&i| {
                        (
                            db.entries[i].file.clone(),
                            db.entries[i].flags.targets.clone(),
                        )
                    })
                    .collect()
            } else {
                Vec::new()
            };
            match out
                .iter_mut()
                .find(|v| v.build.targets == build.targets && v.build.macros == build.macros)
            {
                Some(same) if !name.is_empty() => {
                    same.variant = format!("{} | {name}", same.variant);
                }
                Some(_) => {}
                None => out.push(VariantBuild {
                    variant: name.clone(),
                    build_file: self.path.clone(),
                    build,
                    includers,
                }),
            }
        }
        out
    }
}

fn plural_more(n: usize) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(" and {n} more")
    }
}

/// The flags of one compile command given as words after the compiler (`-gencode`, `arch=...`,
/// `-DX`), read as nvcc reads them.
pub fn nvcc_flags(words: &[String], directory: &Path) -> CompileFlags {
    let mut args = Vec::with_capacity(words.len() + 1);
    args.push("nvcc".to_string());
    args.extend(words.iter().cloned());
    parse_command(&args, directory)
}

/// A build file's text, at most [`MAX_BUILD_FILE_BYTES`], invalid UTF-8 replaced; a note when
/// it was cut or could not be read.
pub fn read_bounded(path: &Path, notes: &mut Vec<String>) -> Option<String> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            notes.push(format!("cannot read {}: {e}", path.display()));
            return None;
        }
    };
    let mut bytes = Vec::new();
    if let Err(e) = file.take(MAX_BUILD_FILE_BYTES + 1).read_to_end(&mut bytes) {
        notes.push(format!("cannot read {}: {e}", path.display()));
        return None;
    }
    if bytes.len() as u64 > MAX_BUILD_FILE_BYTES {
        bytes.truncate(MAX_BUILD_FILE_BYTES as usize);
        notes.push(format!(
            "{} is larger than {} MiB: only its start is read",
            path.display(),
            MAX_BUILD_FILE_BYTES >> 20
        ));
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Globs already walked in this process, by full pattern (projects read as their own roots
/// and as part of a larger one glob the same folders): at most this many kept.
const GLOB_CACHE_ENTRIES: usize = 4096;

/// The files a glob names, relative to `base`: `*` and `?` within a name, `**` for any depth.
/// Sorted; bounded by [`MAX_WALK_ENTRIES`] directory entries; each pattern walked once per
/// process.
pub fn glob(base: &Path, pattern: &str) -> Vec<PathBuf> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, std::sync::Arc<Vec<PathBuf>>>>> = OnceLock::new();
    let full = normalize(&base.join(pattern));
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&full).cloned()) {
        return hit.as_ref().clone();
    }
    let found = walk_glob(&full);
    if let Ok(mut c) = cache.lock() {
        if c.len() < GLOB_CACHE_ENTRIES {
            c.insert(full, std::sync::Arc::new(found.clone()));
        }
    }
    found
}

/// The globs walked (their full patterns), for tests that a glob is not walked.
#[cfg(test)]
pub(crate) static WALKED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn walk_glob(full: &Path) -> Vec<PathBuf> {
    #[cfg(test)]
    WALKED
        .lock()
        .expect("no panics while locked")
        .push(full.to_path_buf());
    // The part before the first component with a wildcard is a plain folder.
    let mut root = PathBuf::new();
    let mut rest: Vec<String> = Vec::new();
    for c in full.components() {
        let s = c.as_os_str().to_string_lossy();
        if rest.is_empty() && !s.contains(['*', '?', '[']) {
            root.push(c.as_os_str());
        } else {
            rest.push(s.into_owned());
        }
    }
    if rest.is_empty() {
        return if root.is_file() {
            vec![root]
        } else {
            Vec::new()
        };
    }
    let mut out = Vec::new();
    let mut budget = MAX_WALK_ENTRIES;
    // (folder, index of the next pattern component)
    let mut work: Vec<(PathBuf, usize)> = vec![(root, 0)];
    while let Some((dir, k)) = work.pop() {
        let Some(part) = rest.get(k) else { continue };
        let last = k + 1 == rest.len();
        // `**/NAME` at the end: one listing per folder, names matched and folders followed.
        if part == "**" && k + 2 == rest.len() {
            let name = rest[k + 1].as_bytes();
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.filter_map(Result::ok) {
                if budget == 0 {
                    return finish(out);
                }
                budget -= 1;
                let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                if is_dir {
                    work.push((e.path(), k));
                } else if wildcard_match(name, e.file_name().to_string_lossy().as_bytes()) {
                    out.push(e.path());
                }
            }
            continue;
        }
        if part == "**" {
            // Zero folders, or one more folder and `**` again.
            work.push((dir.clone(), k + 1));
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.filter_map(Result::ok) {
                if budget == 0 {
                    return finish(out);
                }
                budget -= 1;
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    work.push((e.path(), k));
                }
            }
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.filter_map(Result::ok) {
            if budget == 0 {
                return finish(out);
            }
            budget -= 1;
            let name = e.file_name().to_string_lossy().into_owned();
            if !wildcard_match(part.as_bytes(), name.as_bytes()) {
                continue;
            }
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if last && !is_dir {
                out.push(e.path());
            } else if !last && is_dir {
                work.push((e.path(), k + 1));
            }
        }
    }
    finish(out)
}

fn finish(mut out: Vec<PathBuf>) -> Vec<PathBuf> {
    out.sort();
    out.dedup();
    out
}

/// `*` and `?` (and `[...]` taken as one any character) against a name, iteratively.
pub fn wildcard_match(pattern: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(b'?') => {
                p += 1;
                n += 1;
            }
            Some(b'[') => {
                let close = pattern[p..].iter().position(|&c| c == b']');
                p += close.map_or(1, |c| c + 1);
                n += 1;
            }
            Some(&c) if c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// The functions a file calls outside any `#if` (`name(` or `name<` at preprocessor
/// depth 0, directives' own words left out), from code that is itself compiled that way: a
/// helper called only by a function the file calls under an `#if` (a kernel's `#if
/// __CUDA_ARCH__ >= 900` body calling `compute()`, which calls `helper()`) is called where
/// that condition says, not everywhere. The roots are the file's kernels, its functions no
/// other function of the file calls, and calls outside any function body.
pub fn unguarded_calls(text: &str) -> std::collections::HashSet<String> {
    use crate::cpp::lexer::{lex_range, TokenKind};
    use std::collections::{HashMap, HashSet};
    struct Function {
        name: String,
        kernel: bool,
        /// Callees, each with whether the call is under an `#if`.
        calls: Vec<(String, bool)>,
    }
    let tokens = lex_range(text, 0, text.len(), false);
    let word = |i: usize| tokens[i].text(text);
    let mut functions: Vec<Function> = Vec::new();
    // Calls outside any function body (an initializer, a macro's use at file scope).
    let mut file_scope: Vec<(String, bool)> = Vec::new();
    let mut depth = 0usize;
    let mut braces = 0usize;
    // The open function body: its index in `functions` and the brace depth inside it.
    let mut body: Option<(usize, usize)> = None;
    // Where the current declaration starts (after the last `;`, `{` or `}` outside bodies).
    let mut declaration_start = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            TokenKind::Directive => match crate::cpp::preproc::directive_name(&t.text(text)) {
                "if" | "ifdef" | "ifndef" => depth += 1,
                "endif" => depth = depth.saturating_sub(1),
                _ => {}
            },
            TokenKind::Ident => {
                let next = tokens.get(i + 1).map(|n| n.text(text));
                if matches!(next.as_deref(), Some("(" | "<")) {
                    let call = (word(i).into_owned(), depth > 0);
                    match body {
                        Some((f, _)) => functions[f].calls.push(call),
                        None => file_scope.push(call),
                    }
                }
            }
            TokenKind::Punct => match word(i).as_ref() {
                "{" => {
                    braces += 1;
                    if body.is_none() {
                        if let Some(name) = function_name_before(&tokens, text, i) {
                            let kernel = (declaration_start..i).any(|k| word(k) == "__global__");
                            functions.push(Function {
                                name,
                                kernel,
                                calls: Vec::new(),
                            });
                            body = Some((functions.len() - 1, braces));
                        } else {
                            declaration_start = i + 1;
                        }
                    }
                }
                "}" => {
                    if body.is_some_and(|(_, b)| b == braces) {
                        body = None;
                    }
                    braces = braces.saturating_sub(1);
                    if body.is_none() {
                        declaration_start = i + 1;
                    }
                }
                ";" if body.is_none() => declaration_start = i + 1,
                _ => {}
            },
            _ => {}
        }
    }
    let called_in_file: HashSet<&str> = functions
        .iter()
        .flat_map(|f| f.calls.iter().map(|c| c.0.as_str()))
        .collect();
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, f) in functions.iter().enumerate() {
        by_name.entry(f.name.as_str()).or_default().push(i);
    }
    let mut out: HashSet<String> = HashSet::new();
    let mut reached = vec![false; functions.len()];
    let mut work: Vec<usize> = Vec::new();
    let mut reach = |name: &str, out: &mut HashSet<String>, work: &mut Vec<usize>| {
        out.insert(name.to_string());
        for &f in by_name.get(name).map_or(&[][..], Vec::as_slice) {
            if !reached[f] {
                reached[f] = true;
                work.push(f);
            }
        }
    };
    for f in &functions {
        if f.kernel || !called_in_file.contains(f.name.as_str()) {
            reach(&f.name, &mut out, &mut work);
        }
    }
    // At file scope `name(` is mostly a declaration: a function the file defines is reached
    // through its callers (or as a root), not through its own declarator.
    for (name, guarded) in &file_scope {
        if !guarded && !by_name.contains_key(name.as_str()) {
            reach(name, &mut out, &mut work);
        }
    }
    while let Some(f) = work.pop() {
        for (name, guarded) in &functions[f].calls {
            if !guarded {
                reach(name, &mut out, &mut work);
            }
        }
    }
    out
}

/// The name of the function whose body the `{` at `brace` opens (`name(...) const {`,
/// `name(...) -> T {`), or `None` (a namespace, a class, an initializer).
fn function_name_before(
    tokens: &[crate::cpp::lexer::Token],
    text: &str,
    brace: usize,
) -> Option<String> {
    use crate::cpp::lexer::TokenKind;
    // Qualifiers and a trailing return type between `)` and `{`: a few tokens at most.
    let mut k = brace.checked_sub(1)?;
    let mut steps = 0;
    while tokens[k].text(text) != ")" {
        steps += 1;
        if steps > 8 || !matches!(tokens[k].kind, TokenKind::Ident | TokenKind::Punct) {
            return None;
        }
        if matches!(tokens[k].text(text).as_ref(), ";" | "{" | "}" | "=") {
            return None;
        }
        k = k.checked_sub(1)?;
    }
    let mut nesting = 0usize;
    loop {
        match tokens[k].text(text).as_ref() {
            ")" => nesting += 1,
            "(" => {
                nesting -= 1;
                if nesting == 0 {
                    break;
                }
            }
            ";" | "{" | "}" => return None,
            _ => {}
        }
        k = k.checked_sub(1)?;
    }
    let name = k.checked_sub(1)?;
    (tokens[name].kind == TokenKind::Ident)
        .then(|| tokens[name].text(text).into_owned())
        .filter(|n| !matches!(n.as_str(), "if" | "for" | "while" | "switch" | "catch"))
}

/// Whether a path is a CUDA source: build systems give it to the CUDA compiler (CMake:
/// `.cu`; torch's `BuildExtension`: `.cu`, `.cuh`) and the others to the host compiler.
pub fn is_cuda_source(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("cu" | "cuh")
    )
}

/// Whether a path is a CUDA or C++ source a build compiles (not a header).
pub fn is_compiled_source(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("cu" | "cpp" | "cc" | "cxx" | "c")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_outside_conditions() {
        let text = "#include \"h.cuh\"\n__global__ void k() {\n  a();\n#if ARCH_SM90\n  b();\n#else\n  c<int>(1);\n#endif\n  d<2>();\n}\n";
        let calls = unguarded_calls(text);
        assert!(calls.contains("a") && calls.contains("d") && calls.contains("k"));
        assert!(!calls.contains("b") && !calls.contains("c"));
    }

    #[test]
    fn calls_reached_only_through_a_guarded_call_are_not_unguarded() {
        // `helper` is called by `compute` alone, which the kernel calls under an `#if`.
        let text = "template <int N> __device__ void compute() {\n  helper<N>(1);\n}\n\
                    __device__ int other() const { return used(); }\n\
                    __global__ void k() {\n#if __CUDA_ARCH__ >= 900\n  compute<1>();\n#endif\n  direct();\n}\n";
        let calls = unguarded_calls(text);
        assert!(
            !calls.contains("helper") && !calls.contains("compute"),
            "{calls:?}"
        );
        assert!(calls.contains("direct") && calls.contains("k"));
        // A function no other function calls is a root: its calls count.
        assert!(calls.contains("other") && calls.contains("used"));
    }

    #[test]
    fn namespaces_classes_and_initializers_are_not_function_bodies() {
        let text = "namespace ns {\nstruct S { __device__ void m() { inner(); } };\n\
                    int table[] = {init(1)};\n}\n";
        let calls = unguarded_calls(text);
        assert!(calls.contains("inner") && calls.contains("m") && calls.contains("init"));
    }

    #[test]
    fn wildcards() {
        assert!(wildcard_match(b"*.cu", b"a.cu"));
        assert!(wildcard_match(b"k_*_sm?0.cu", b"k_gemm_sm80.cu"));
        assert!(!wildcard_match(b"*.cu", b"a.cuh"));
        assert!(wildcard_match(b"*", b""));
        assert!(wildcard_match(b"a[0-9].cu", b"a7.cu"));
    }

    #[test]
    fn globs_in_folders() {
        let dir = std::env::temp_dir().join(format!("ptxguard-glob-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("csrc/deep/er")).unwrap();
        for f in [
            "csrc/a.cu",
            "csrc/b.cpp",
            "csrc/deep/c.cu",
            "csrc/deep/er/d.cu",
        ] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let names = |v: Vec<PathBuf>| -> Vec<String> {
            v.iter()
                .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
                .collect()
        };
        assert_eq!(names(glob(&dir, "csrc/*.cu")), ["csrc/a.cu"]);
        assert_eq!(
            names(glob(&dir, "csrc/**/*.cu")),
            ["csrc/a.cu", "csrc/deep/c.cu", "csrc/deep/er/d.cu"]
        );
        assert_eq!(names(glob(&dir, "./csrc/b.cpp")), ["csrc/b.cpp"]);
        assert!(glob(&dir, "nowhere/*.cu").is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
