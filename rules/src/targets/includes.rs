//! Macros a file gets from the headers it includes (`#include "config.h"` defining
//! `USE_TMA 0`), read on first need: only a macro the file neither defines nor gets from the
//! build sends the lookup into its includes, and each header is read, lexed and gathered once
//! per process (a cache keyed by path, size and modification time, which the language server
//! empties when files change on disk).

use super::{file_facts, MacroValue, Macros};
use ptxguard_analyzer::build::includes::resolve_include;
use ptxguard_analyzer::build::predefined::Compiler;
use ptxguard_analyzer::build::{CudaVersion, MacroFlag};
use ptxguard_analyzer::cpp::preproc::Condition;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

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
    /// The header, resolved and gathered on first need (`None`: not found or not readable).
    pub(crate) header: OnceLock<Option<Arc<HeaderMacros>>>,
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
}

impl IncludeContext {
    /// The context of the file at `path` (`None` when it has no folder: standard input).
    pub fn for_file(
        path: &Path,
        include_dirs: &[PathBuf],
        build: Option<&[MacroFlag]>,
        cuda: CudaVersion,
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
    /// Whether every include of the header (and of its headers) was found: see
    /// [`Macros::includes_found`].
    includes_found: OnceLock<bool>,
    /// Answers by name; `None` inside: the header chain does not define it.
    answers: Mutex<HashMap<String, Option<MacroValue>>>,
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

/// Forgets every header read: the language server calls it when files are saved or change
/// on disk (a header's includes and answers are kept with it, so a changed header deep in a
/// chain is only seen once the whole cache is dropped).
pub fn forget_headers() {
    if let Ok(mut c) = cache().lock() {
        c.clear();
    }
}

fn cache() -> &'static Mutex<HashMap<HeaderKey, Cached>> {
    static CACHE: OnceLock<Mutex<HashMap<HeaderKey, Cached>>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
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
    if let Some(c) = cache().lock().ok()?.get(&key) {
        if c.len == len && c.modified == modified {
            return c.header.clone();
        }
    }
    // An empty header defines nothing, and files that say they are empty may never end
    // (`/proc/kmsg` blocks): neither is read. Reads stop at the size limit whatever the
    // file claims.
    let header = (meta.is_file() && len > 0 && len <= MAX_HEADER_BYTES)
        .then(|| ptxguard_analyzer::source::read_input(path, MAX_HEADER_BYTES).ok())
        .flatten()
        .map(|bytes| {
            let text = String::from_utf8_lossy(&bytes);
            // Only the directives: a header's macros are all this needs.
            let tokens = ptxguard_analyzer::cpp::lexer::directives(&text);
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
                includes_found: OnceLock::new(),
                answers: Mutex::default(),
            })
        });
    if let Ok(mut c) = cache().lock() {
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

impl HeaderMacros {
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
            let found = site.header.get_or_init(|| {
                let path = resolve_include(&ctx.dir, &site.name, site.quoted, &ctx.include_dirs)?;
                header(&path, ctx)
            });
            let Some(h) = found else {
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
            let found = site.header.get_or_init(|| {
                let path = resolve_include(&ctx.dir, &site.name, site.quoted, &ctx.include_dirs)?;
                header(&path, ctx)
            });
            let Some(h) = found else {
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
