//! Macros a file gets from the headers it includes (`#include "config.h"` defining
//! `USE_TMA 0`), read on first need: only a macro the file neither defines nor gets from the
//! build sends the lookup into its includes, and each header is read, lexed and gathered once
//! per [`HeaderCache`] (keyed by path, size and modification time; the caller owns it: one per
//! `check` run, the language server's emptied when files change on disk). [`record_reads`] says which headers (and which paths
//! found empty) a file's answers came from, for a result cache.

use super::{file_facts, MacroValue, Macros};
use crate::build::includes::include_candidates;
use crate::build::predefined::Compiler;
use crate::build::{CudaVersion, MacroFlag};
use crate::cpp::preproc::Condition;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// Deeper include chains are not followed (a header including itself without a guard).
/// The C++ side of the engine keeps recursion bounded the same way.
const MAX_INCLUDE_DEPTH: u32 = 16;
/// Include sites one file's lookups may visit, all headers together: a file of thousands of
/// `#include`s asked about thousands of names stays linear. Counted per thread and reset when
/// a file's analysis starts ([`start_file`]): a file is analysed on one thread, and a cached
/// header must not carry the budget of the file that first read it.
const SITE_VISITS: u32 = 100_000;

thread_local! {
    static VISITS_LEFT: std::cell::Cell<u32> = const { std::cell::Cell::new(SITE_VISITS) };
}

/// A new file's lookups start with the whole budget.
pub(crate) fn start_file() {
    VISITS_LEFT.with(|v| v.set(SITE_VISITS));
}

fn spend_visit() -> bool {
    VISITS_LEFT.with(|v| match v.get() {
        0 => false,
        n => {
            v.set(n - 1);
            true
        }
    })
}
/// Larger headers are not read for their macros.
const MAX_HEADER_BYTES: u64 = 8 * 1024 * 1024;

/// One `#include` of the file, with the conditions in force there.
pub(crate) struct IncludeSite {
    pub(crate) at: u32,
    pub(crate) quoted: bool,
    pub(crate) name: String,
    /// Without the file's include guard.
    pub(crate) conditions: Arc<[Condition]>,
    /// The header, resolved and gathered on first need.
    pub(crate) header: OnceLock<Lookup>,
}

/// What an include site's lookup found.
pub(crate) struct Lookup {
    /// The file the include names (`None`: not found).
    path: Option<PathBuf>,
    /// Its macros (`None`: not found, or not read: empty, too large, unreadable).
    header: Option<Arc<HeaderMacros>>,
}

/// Where a file's includes are looked for, and what its headers are read with.
#[derive(Clone)]
pub struct IncludeContext {
    /// The including file's folder (quoted includes are looked for there first).
    pub dir: PathBuf,
    /// The build's `-I`/`-isystem` folders, in order.
    pub include_dirs: Arc<[PathBuf]>,
    /// The build's `-D`/`-U` (headers see them too).
    pub build: Option<Arc<[MacroFlag]>>,
    pub cuda: CudaVersion,
    /// A header's context, not the checked file's: its own pass does not follow its
    /// includes (lookups made after it do; how deep is counted by [`Nesting`]).
    pub in_header: bool,
    /// Where the headers read are kept: the caller's [`HeaderCache`], not owned here (the
    /// cached headers hold contexts like this one; a strong reference would be a cycle).
    cache: Weak<Mutex<HashMap<HeaderKey, Cached>>>,
}

impl IncludeContext {
    /// The context of the file at `path` (`None` when it has no folder: standard input).
    pub fn for_file(
        path: &Path,
        include_dirs: &[PathBuf],
        build: Option<&[MacroFlag]>,
        cuda: CudaVersion,
        cache: &HeaderCache,
    ) -> Option<IncludeContext> {
        let dir = path.parent()?;
        if path.as_os_str().is_empty() || path == Path::new("-") {
            return None;
        }
        Some(IncludeContext {
            dir: dir.to_path_buf(),
            include_dirs: include_dirs.into(),
            build: build.map(Arc::from),
            cuda,
            in_header: false,
            cache: Arc::downgrade(&cache.0),
        })
    }
}

/// How deep this thread is in lookups through includes: every path into a header (its
/// includes, the conditions around them, their macros) goes through one counter, so cycles
/// of any shape stop at [`MAX_INCLUDE_DEPTH`].
struct Nesting;

thread_local! {
    static NESTING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

impl Nesting {
    fn enter() -> Option<Nesting> {
        NESTING.with(|n| {
            let depth = n.get();
            (depth < MAX_INCLUDE_DEPTH).then(|| {
                n.set(depth + 1);
                Nesting
            })
        })
    }
}

impl Drop for Nesting {
    fn drop(&mut self) {
        NESTING.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// A header's own macros (and, through them, its includes'), with the answers already given.
pub(crate) struct HeaderMacros {
    macros: Macros,
    /// The fingerprint of the bytes the macros were read from.
    fingerprint: u128,
    /// Whether every include of the header (and of its headers) was found: see
    /// [`Macros::includes_found`].
    includes_found: OnceLock<bool>,
    /// Answers by name; `None` inside: the header chain does not define it.
    answers: Mutex<HashMap<String, Option<MacroValue>>>,
    /// Where it was read from, for [`HeaderMacros::barrier_helpers`].
    path: PathBuf,
    /// Its functions that are compiler barriers, read on first need.
    barrier_helpers: OnceLock<Arc<[String]>>,
    /// The members of the types it defines, read on first need.
    type_members: OnceLock<Arc<crate::cpp::declarations::TypeMembers>>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct HeaderKey {
    path: PathBuf,
    include_dirs: Arc<[PathBuf]>,
    build: Option<Arc<[MacroFlag]>>,
    cuda: CudaVersion,
}

struct Cached {
    len: u64,
    modified: Option<std::time::SystemTime>,
    header: Option<Arc<HeaderMacros>>,
}

/// The headers read for their macros, by path and the build they were read with, each kept
/// while its size and modification time stay the same. A handle: clones share the headers.
/// The caller owns it (one per `check` run, one per language server session), so no reads
/// outlive the run that made them.
#[derive(Clone, Default)]
pub struct HeaderCache(Arc<Mutex<HashMap<HeaderKey, Cached>>>);

/// Says nothing of what is cached: a context's `Debug` is part of the CLI's result-cache key,
/// which must not change with the headers other files happened to read first.
impl std::fmt::Debug for HeaderCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HeaderCache")
    }
}

impl HeaderCache {
    /// Forgets every header read: the language server calls it when files are saved or change
    /// on disk (a header's includes and answers are kept with it, so a changed header deep in
    /// a chain is only seen once the whole cache is dropped).
    pub fn forget(&self) {
        if let Ok(mut c) = self.0.lock() {
            c.clear();
        }
    }
}

/// The header at `path`, gathered with `ctx`'s build (from the cache when unchanged).
fn header(path: &Path, ctx: &IncludeContext) -> Option<Arc<HeaderMacros>> {
    let meta = std::fs::metadata(path).ok()?;
    let (len, modified) = (meta.len(), meta.modified().ok());
    let key = HeaderKey {
        path: path.to_path_buf(),
        include_dirs: ctx.include_dirs.clone(),
        build: ctx.build.clone(),
        cuda: ctx.cuda,
    };
    // Gone only when the caller dropped it mid-check: the header is read without keeping it.
    let cache = ctx.cache.upgrade();
    if let Some(cache) = &cache {
        if let Some(c) = cache.lock().ok()?.get(&key) {
            if c.len == len && c.modified == modified {
                return c.header.clone();
            }
        }
    }
    let header = read_header(path, &meta).map(|bytes| {
        let text = String::from_utf8_lossy(&bytes);
        // Only the directives: a header's macros are all this needs.
        let tokens = crate::cpp::lexer::directives(&text);
        let inner = IncludeContext {
            dir: path.parent().unwrap_or(Path::new("")).to_path_buf(),
            in_header: true,
            ..ctx.clone()
        };
        let facts = file_facts(
            &text,
            &tokens,
            ctx.build.as_deref(),
            ctx.cuda,
            Some(inner),
            Compiler::Nvcc,
        );
        Arc::new(HeaderMacros {
            macros: facts.macros,
            fingerprint: crate::source::fingerprint(&bytes),
            includes_found: OnceLock::new(),
            answers: Mutex::default(),
            path: path.to_path_buf(),
            barrier_helpers: OnceLock::new(),
            type_members: OnceLock::new(),
        })
    });
    if let Some(Ok(mut c)) = cache.as_ref().map(|c| c.lock()) {
        c.insert(
            key,
            Cached {
                len,
                modified,
                header: header.clone(),
            },
        );
    }
    header
}

/// A header's bytes, when it is read at all. An empty header defines nothing, and files that
/// say they are empty may never end (`/proc/kmsg` blocks): neither is read. Reads stop at the
/// size limit whatever the file claims.
fn read_header(path: &Path, meta: &std::fs::Metadata) -> Option<Vec<u8>> {
    let len = meta.len();
    (meta.is_file() && len > 0 && len <= MAX_HEADER_BYTES)
        .then(|| crate::source::read_input(path, MAX_HEADER_BYTES).ok())
        .flatten()
}

/// The fingerprint of what a lookup reads from the header at `path` now (`None`: it would not
/// be read), to compare with [`HeaderReads::found`].
pub fn header_fingerprint(path: &Path) -> Option<u128> {
    let meta = std::fs::metadata(path).ok()?;
    read_header(path, &meta).map(|bytes| crate::source::fingerprint(&bytes))
}

/// The files a check's answers came from besides the checked file, paths as the check saw
/// them: every header found through an include it followed (directly or through other
/// headers), with the fingerprint of the bytes read (`None`: not read), and every path tried
/// before one was found, or for an include not found, none of which was a file. Checking the
/// same file with the same options gives the same answers while each found header gives the
/// same fingerprint and no absent path is a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeaderReads {
    pub found: BTreeMap<PathBuf, Option<u128>>,
    pub absent: BTreeSet<PathBuf>,
}

thread_local! {
    static RECORDING: RefCell<Option<HeaderReads>> = const { RefCell::new(None) };
}

/// Runs `f` (one file's check on this thread) and returns what its answers read
/// ([`HeaderReads`]).
pub fn record_reads<T>(f: impl FnOnce() -> T) -> (T, HeaderReads) {
    /// Puts back the recording this one interrupted, also when `f` panics.
    struct Restore(Option<HeaderReads>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            RECORDING.with(|r| *r.borrow_mut() = outer);
        }
    }
    let outer = RECORDING.with(|r| r.borrow_mut().replace(HeaderReads::default()));
    let restore = Restore(outer);
    let value = f();
    let reads = RECORDING
        .with(|r| r.borrow_mut().take())
        .unwrap_or_default();
    drop(restore);
    (value, reads)
}

/// Adds what the answers from `macros` (a checked file's) read to the recording, if one is
/// running. Called when the file's check is done: a lookup resolves each include before its
/// answer is given, so every header an answer came from is reachable from the file by then.
pub fn note_reads(macros: &Macros) {
    RECORDING.with(|r| {
        if let Some(reads) = r.borrow_mut().as_mut() {
            macros.headers_read(reads);
        }
    });
}

impl Macros {
    /// Every lookup made from these macros and the headers they reached (a work list: include
    /// chains are as deep as the input makes them).
    fn headers_read(&self, reads: &mut HeaderReads) {
        let mut seen: HashSet<*const HeaderMacros> = HashSet::new();
        let mut work: Vec<Arc<HeaderMacros>> = Vec::new();
        let mut visit = |m: &Macros, work: &mut Vec<Arc<HeaderMacros>>| {
            let Some(ctx) = &m.includes else {
                return;
            };
            for site in &m.include_sites {
                let Some(lookup) = site.header.get() else {
                    continue;
                };
                for tried in
                    include_candidates(&ctx.dir, &site.name, site.quoted, &ctx.include_dirs)
                {
                    if Some(&tried) == lookup.path.as_ref() {
                        break;
                    }
                    reads.absent.insert(tried);
                }
                if let Some(path) = &lookup.path {
                    let fingerprint = lookup.header.as_ref().map(|h| h.fingerprint);
                    reads.found.insert(path.clone(), fingerprint);
                }
                if let Some(h) = &lookup.header {
                    if seen.insert(Arc::as_ptr(h)) {
                        work.push(h.clone());
                    }
                }
            }
        };
        visit(self, &mut work);
        while let Some(h) = work.pop() {
            visit(&h.macros, &mut work);
        }
    }

    /// Looks for the header of an include site once.
    fn lookup<'s>(&self, site: &'s IncludeSite, ctx: &IncludeContext) -> &'s Lookup {
        site.header.get_or_init(|| {
            let path = include_candidates(&ctx.dir, &site.name, site.quoted, &ctx.include_dirs)
                .find(|p| p.is_file());
            let header = path.as_deref().and_then(|p| header(p, ctx));
            Lookup { path, header }
        })
    }
}

impl HeaderMacros {
    /// The header's functions that run a compiler barrier on every path
    /// ([`crate::cpp::barrier_helpers`]): the header is read again and its asm statements
    /// found, once, and only when its text names a barrier at all.
    fn barrier_helpers(&self) -> Arc<[String]> {
        self.barrier_helpers
            .get_or_init(|| {
                let Some(bytes) = std::fs::metadata(&self.path)
                    .ok()
                    .and_then(|meta| read_header(&self.path, &meta))
                else {
                    return Arc::from([]);
                };
                let names_a_barrier =
                    ["\"memory\"", "__syncthreads", "__syncwarp", "__threadfence"]
                        .iter()
                        .any(|needle| memchr::memmem::find(&bytes, needle.as_bytes()).is_some());
                if !names_a_barrier {
                    return Arc::from([]);
                }
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let file = crate::source::SourceFile::new(self.path.clone(), text);
                Arc::from(crate::cpp::barrier_helpers::barrier_helpers(&file))
            })
            .clone()
    }

    /// The members of the types the header defines
    /// ([`crate::cpp::declarations::type_members`]): the header read again and lexed, once.
    fn type_members(&self) -> Arc<crate::cpp::declarations::TypeMembers> {
        self.type_members
            .get_or_init(|| {
                let Some(bytes) = std::fs::metadata(&self.path)
                    .ok()
                    .and_then(|meta| read_header(&self.path, &meta))
                else {
                    return Arc::default();
                };
                let text = String::from_utf8_lossy(&bytes);
                Arc::new(crate::cpp::declarations::type_members_of_text(&text))
            })
            .clone()
    }

    /// The macro's value at the end of the header: its own last `#define`/`#undef`, else
    /// what its includes say. The second value: the answer was cut short (depth or visits)
    /// and must not be remembered.
    fn value(&self, name: &str) -> (Option<MacroValue>, bool) {
        if let Some(known) = self.answers.lock().ok().and_then(|a| a.get(name).copied()) {
            return (known, false);
        }
        let (value, cut) = match self.macros.own_last(name) {
            Some(v) => (Some(v), false),
            None => self.macros.included_value(name, u32::MAX),
        };
        if !cut {
            if let Ok(mut a) = self.answers.lock() {
                a.insert(name.to_string(), value);
            }
        }
        (value, cut)
    }
}

impl Macros {
    /// The value a header included before `at` gives the macro (the last one that says).
    /// An include under conditions that cannot be evaluated makes the value unknown; one
    /// under false conditions is skipped.
    /// Whether every `#include` before `at` that could define a project's macro was found
    /// and read, and so were theirs: then a macro none of them defines is not defined by any
    /// header. Standard and toolkit headers (`<cstdint>`, `<cuda/ptx>`) are not followed and
    /// define no project macro.
    pub(crate) fn includes_found(&self, at: u32) -> bool {
        let before = self.include_sites.partition_point(|s| s.at < at);
        let sites = &self.include_sites[..before];
        if sites.iter().all(is_toolkit_or_standard) {
            return true;
        }
        let Some(ctx) = &self.includes else {
            return false;
        };
        let Some(_level) = Nesting::enter() else {
            return false;
        };
        for site in sites.iter().filter(|s| !is_toolkit_or_standard(s)) {
            if !spend_visit() {
                return false;
            }
            let Some(h) = &self.lookup(site, ctx).header else {
                return false;
            };
            if !*h
                .includes_found
                .get_or_init(|| h.macros.includes_found(u32::MAX))
            {
                return false;
            }
        }
        true
    }

    /// Visits the headers this file includes, and theirs (standard and toolkit headers
    /// aside), each once, until `visit` says stop. Bounded like the macro lookups.
    fn for_each_included_header(&self, mut visit: impl FnMut(&HeaderMacros) -> bool) {
        let mut seen: HashSet<*const HeaderMacros> = HashSet::new();
        let mut work: Vec<(Arc<HeaderMacros>, u32)> = Vec::new();
        let mut push_includes =
            |m: &Macros, depth: u32, work: &mut Vec<(Arc<HeaderMacros>, u32)>| {
                let Some(ctx) = &m.includes else {
                    return;
                };
                if depth >= MAX_INCLUDE_DEPTH {
                    return;
                }
                for site in m
                    .include_sites
                    .iter()
                    .filter(|s| !is_toolkit_or_standard(s))
                {
                    if !spend_visit() {
                        return;
                    }
                    if let Some(h) = &m.lookup(site, ctx).header {
                        if seen.insert(Arc::as_ptr(h)) {
                            work.push((h.clone(), depth + 1));
                        }
                    }
                }
            };
        push_includes(self, 0, &mut work);
        while let Some((h, depth)) = work.pop() {
            if !visit(&h) {
                return;
            }
            push_includes(&h.macros, depth, &mut work);
        }
    }

    /// The compiler-barrier functions of the headers this file includes, and of theirs,
    /// each name once.
    pub(crate) fn included_barrier_helpers(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        self.for_each_included_header(|h| {
            for name in h.barrier_helpers().iter() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
            true
        });
        names
    }

    /// The members of the type `name` as the first header this file includes (and theirs)
    /// that defines it says ([`crate::cpp::declarations::type_members`]); `None` when none does.
    pub(crate) fn included_type_members(&self, name: &str) -> Option<HashMap<String, u32>> {
        let mut found = None;
        self.for_each_included_header(|h| {
            found = h.type_members().get(name).cloned();
            found.is_none()
        });
        found
    }

    pub(crate) fn included_value(&self, name: &str, at: u32) -> (Option<MacroValue>, bool) {
        let Some(ctx) = &self.includes else {
            return (None, false);
        };
        let Some(_level) = Nesting::enter() else {
            return (None, true);
        };
        let before = self.include_sites.partition_point(|s| s.at < at);
        let mut cut = false;
        for site in self.include_sites[..before].iter().rev() {
            if !spend_visit() {
                return (None, true);
            }
            let Some(h) = &self.lookup(site, ctx).header else {
                continue;
            };
            let (value, was_cut) = h.value(name);
            cut |= was_cut;
            let Some(value) = value else {
                continue;
            };
            return match self.site_holds(site, ctx.cuda) {
                Some(true) => (Some(value), cut),
                Some(false) => continue,
                None => (Some(MacroValue::Unknown { arch: false }), cut),
            };
        }
        (None, cut)
    }
}

/// `<cstdint>`, `<cuda_runtime.h>`, `<cuda/ptx>`, `<cub/cub.cuh>`: headers of the C++ library
/// and the CUDA toolkit, which define no macro of the project's.
fn is_toolkit_or_standard(site: &IncludeSite) -> bool {
    const TOOLKIT_DIRS: &[&str] = &[
        "cuda",
        "cub",
        "thrust",
        "nv",
        "cooperative_groups",
        "crt",
        "sys",
        "bits",
    ];
    const C_HEADERS: &[&str] = &[
        "assert.h",
        "float.h",
        "limits.h",
        "math.h",
        "stddef.h",
        "stdint.h",
        "stdio.h",
        "stdlib.h",
        "string.h",
        "mma.h",
        "vector_types.h",
        "device_launch_parameters.h",
        "cooperative_groups.h",
        "curand_kernel.h",
    ];
    if site.quoted {
        return false;
    }
    match site.name.split_once('/') {
        // `<vector>`, `<cstdint>`: the C++ library has no extensions.
        None => {
            !site.name.contains('.')
                || site.name.starts_with("cuda")
                || site.name.starts_with("cublas")
                || C_HEADERS.contains(&site.name.as_str())
        }
        Some((dir, _)) => TOOLKIT_DIRS.contains(&dir),
    }
}
