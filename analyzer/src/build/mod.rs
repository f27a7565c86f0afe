//! What a file is built with: compilation databases (`compile_commands.json`), compiler
//! flags, target lists from the environment, toolkit versions, and the include graph that
//! gives headers the targets of the units that include them. Facts only: the rules decide
//! what they mean.

pub mod cmake;
pub mod env;
pub mod flags;
pub mod includes;
pub mod makefile;
pub mod predefined;
pub mod project;
pub mod setup_py;
pub mod toolkit;

pub use flags::{CompileFlags, MacroFlag};
pub use toolkit::CudaVersion;

use crate::isa::Target;
use std::collections::HashMap;
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// Per target, function names (see [`FileBuild::called_by_includers`]). Ordered: the result
/// cache keys files by the build context's `Debug` text, which must not vary between runs.
pub type CallsByTarget = std::collections::BTreeMap<Target, std::collections::BTreeSet<String>>;

/// What is known about how one file is compiled, whatever its source (database, config,
/// environment, command line). Empty fields are unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileBuild {
    /// The targets, and where they came from (for `--show-settings` and messages).
    pub targets: Vec<Target>,
    pub targets_from: String,
    /// `-D`/`-U` of the command that compiles the file, in order; `None` when no command is
    /// known (then macros the file does not define are unknown).
    pub macros: Option<Vec<MacroFlag>>,
    /// Where the macros came from (a header: the units that include it).
    pub macros_from: String,
    /// Macros some of those commands define (or undefine) and others do not.
    pub macros_varying: Vec<String>,
    pub include_dirs: Vec<PathBuf>,
    /// The toolkit, and where its version came from.
    pub cuda: Option<CudaVersion>,
    pub cuda_from: String,
    /// The compilers of the commands that build the file (or, for a header, the units that
    /// include it), as written (`/usr/bin/clang++`, `nvcc`); empty when no command is known.
    pub compilers: Vec<String>,
    /// For a header whose targets come from the build files of the files that include it:
    /// per target, the functions the files built for it call outside any `#if` (a helper
    /// they call only under an `#if`, or not at all, is compiled where that condition says).
    /// `None`: not known.
    pub called_by_includers: Option<std::sync::Arc<CallsByTarget>>,
    /// Why no NVIDIA compiler builds the file (its project builds only with HIP), when the
    /// build files say so: its findings are then info.
    pub not_for_nvidia: Option<String>,
}

/// One `compile_commands.json` entry, read.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Absolute and normalized.
    pub file: PathBuf,
    pub directory: PathBuf,
    pub flags: CompileFlags,
    /// The command's words (`arguments`, or `command` split as `sh` does): what `confirm`
    /// builds with.
    pub arguments: Vec<String>,
}

/// A compilation database.
#[derive(Debug)]
pub struct Database {
    pub path: PathBuf,
    pub entries: Vec<Entry>,
    /// Problems with single entries (the others are still used): one line each.
    pub notes: Vec<String>,
    by_file: HashMap<PathBuf, Vec<usize>>,
    includers: OnceLock<HashMap<PathBuf, Vec<usize>>>,
}

/// A database that cannot be read at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatabaseError {
    pub path: PathBuf,
    /// 1-based line and column, when known.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for DatabaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((l, c)) => write!(f, "{}:{l}:{c}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

#[derive(serde::Deserialize)]
struct RawEntry {
    directory: String,
    file: String,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    arguments: Option<Vec<String>>,
}

impl Database {
    pub fn load(path: &Path) -> Result<Database, DatabaseError> {
        let text = crate::source::read_input_to_string(path, crate::source::MAX_DATABASE_BYTES)
            .map_err(|e| DatabaseError {
                path: path.to_path_buf(),
                position: None,
                message: format!("cannot read compilation database: {e}"),
            })?;
        Database::parse(path, &text)
    }

    /// Parses a database's text; `path` locates relative directories and names the file in
    /// messages.
    pub fn parse(path: &Path, text: &str) -> Result<Database, DatabaseError> {
        let raw: Vec<RawEntry> = serde_json::from_str(text).map_err(|e| DatabaseError {
            path: path.to_path_buf(),
            position: (e.line() > 0).then(|| (e.line(), e.column())),
            message: format!("not a compilation database (a JSON array of entries with `directory`, `file` and `command` or `arguments`): {e}"),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut db = Database {
            path: path.to_path_buf(),
            entries: Vec::with_capacity(raw.len()),
            notes: Vec::new(),
            by_file: HashMap::with_capacity(raw.len()),
            includers: OnceLock::new(),
        };
        for (n, e) in raw.into_iter().enumerate() {
            let directory = normalize(&base.join(&e.directory));
            let file = normalize(&directory.join(&e.file));
            let words = match (e.arguments, e.command) {
                (Some(args), _) => args,
                (None, Some(command)) => flags::shell_words(&command),
                (None, None) => {
                    db.notes.push(format!(
                        "entry {} ({}) has neither `command` nor `arguments`: skipped",
                        n + 1,
                        e.file
                    ));
                    continue;
                }
            };
            let flags = flags::parse_command(&words, &directory);
            for note in &flags.notes {
                db.notes
                    .push(format!("entry {} ({}): {note}", n + 1, file.display()));
            }
            db.by_file
                .entry(file.clone())
                .or_default()
                .push(db.entries.len());
            db.entries.push(Entry {
                file,
                directory,
                flags,
                arguments: words,
            });
        }
        Ok(db)
    }

    /// A database of entries made elsewhere (a build file's units); `path` names it.
    pub fn from_entries(path: &Path, entries: Vec<Entry>) -> Database {
        let mut by_file: HashMap<PathBuf, Vec<usize>> = HashMap::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            by_file.entry(e.file.clone()).or_default().push(i);
        }
        Database {
            path: path.to_path_buf(),
            entries,
            notes: Vec::new(),
            by_file,
            includers: OnceLock::new(),
        }
    }

    /// Entries that compile this file (absolute, normalized).
    pub fn entries_for(&self, file: &Path) -> &[usize] {
        self.by_file.get(file).map_or(&[], Vec::as_slice)
    }

    /// The units that include this header, directly or not (the graph is built on first
    /// need, reading each unit and header once).
    pub fn includers_of(&self, header: &Path) -> &[usize] {
        self.includers
            .get_or_init(|| includes::includers(&self.entries))
            .get(header)
            .map_or(&[], Vec::as_slice)
    }

    /// Entries for files that do not exist: one line each.
    pub fn missing_files(&self) -> Vec<String> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.file.exists())
            .map(|(n, e)| {
                format!(
                    "entry {} names {}, which does not exist",
                    n + 1,
                    e.file.display()
                )
            })
            .collect()
    }

    /// What the database says about a file: its own entries, else (for a header) the units
    /// that include it. Targets are the union; include paths those of the first entry;
    /// macros those every entry (or including unit) has.
    pub fn build_for(&self, file: &Path) -> Option<(FileBuild, Vec<usize>)> {
        let own = self.entries_for(file);
        let (units, how) = if own.is_empty() {
            (self.includers_of(file), "included by")
        } else {
            (own, "entry")
        };
        let first = &self.entries.get(*units.first()?)?.flags;
        let mut targets: Vec<Target> = units
            .iter()
            .flat_map(|&i| self.entries[i].flags.targets.iter().copied())
            .collect();
        targets.sort_by_key(|t| (t.sm, t.suffix));
        targets.dedup();
        let what = if own.is_empty() {
            let names: Vec<String> = units
                .iter()
                .take(3)
                .map(|&i| self.entries[i].file.display().to_string())
                .collect();
            let more = units.len().saturating_sub(3);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            format!("{how} {}{more}", names.join(", "))
        } else {
            let list: Vec<String> = own.iter().map(|i| (i + 1).to_string()).collect();
            format!("{how} {}", list.join(", "))
        };
        // The `-D`/`-U` every command that compiles the file (or, for a header, every unit
        // that includes it) has: those hold whichever build is meant. The others stay unknown.
        let macros: Vec<MacroFlag> = first
            .macros
            .iter()
            .filter(|m| {
                units
                    .iter()
                    .all(|&i| self.entries[i].flags.macros.contains(m))
            })
            .cloned()
            .collect();
        let mut macros_varying: Vec<String> = units
            .iter()
            .flat_map(|&i| self.entries[i].flags.macros.iter())
            .filter(|m| !macros.contains(m))
            .map(|m| match m {
                MacroFlag::Define(n, _) | MacroFlag::Undef(n) => n.clone(),
            })
            .collect();
        macros_varying.sort();
        macros_varying.dedup();
        let macros_from = if units.len() == 1 {
            what.clone()
        } else {
            format!("common to the {} commands ({what})", units.len())
        };
        let cuda = toolkit_of(&first.compiler);
        let mut compilers: Vec<String> = Vec::new();
        for &i in units {
            let compiler = &self.entries[i].flags.compiler;
            if !compilers.contains(compiler) {
                compilers.push(compiler.clone());
            }
        }
        Some((
            FileBuild {
                targets_from: format!("{} ({what})", self.path.display()),
                targets,
                macros: Some(macros),
                macros_from,
                macros_varying,
                include_dirs: first.include_dirs.clone(),
                cuda: cuda.as_ref().map(|(v, _)| *v),
                cuda_from: cuda.map(|(_, from)| from).unwrap_or_default(),
                compilers,
                called_by_includers: None,
                not_for_nvidia: None,
            },
            units.to_vec(),
        ))
    }
}

/// The version of the toolkit an nvcc path belongs to: its `version.json`, else `cuda.h`,
/// else a `cuda-X.Y` folder name. `None` for a bare `nvcc` or another compiler.
pub fn toolkit_of(compiler: &str) -> Option<(CudaVersion, String)> {
    let path = Path::new(compiler);
    if path.file_stem().and_then(|s| s.to_str()) != Some("nvcc")
        || path.parent()?.as_os_str().is_empty()
    {
        return None;
    }
    let root = path.parent()?.parent()?;
    let json = root.join("version.json");
    if let Ok(text) = read_header(&json) {
        // `"cuda" : { "name" : "CUDA SDK", "version" : "12.6.2" }`
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
            if let Some(v) = value["cuda"]["version"]
                .as_str()
                .and_then(CudaVersion::parse)
            {
                return Some((v, json.display().to_string()));
            }
        }
    }
    let header = root.join("include").join("cuda.h");
    if let Ok(text) = read_header(&header) {
        if let Some(n) = define_value(&text, "CUDA_VERSION") {
            let v = CudaVersion {
                major: (n / 1000) as u16,
                minor: ((n % 1000) / 10) as u16,
            };
            return Some((v, header.display().to_string()));
        }
    }
    let name = root.file_name()?.to_str()?;
    let v = CudaVersion::parse(name.strip_prefix("cuda-")?)?;
    Some((v, root.display().to_string()))
}

/// A toolkit file or a header, through the one bounded reader.
pub(crate) fn read_header(path: &Path) -> std::io::Result<String> {
    crate::source::read_input_to_string(path, crate::source::MAX_FILE_BYTES as u64)
}

/// The integer value of `#define NAME value` in a header.
pub fn define_value(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix('#')?.trim_start();
        let rest = rest.strip_prefix("define")?.trim_start();
        let rest = rest.strip_prefix(name)?;
        if !rest.starts_with([' ', '\t']) {
            return None;
        }
        rest.trim()
            .trim_end_matches(['u', 'U', 'l', 'L'])
            .parse()
            .ok()
    })
}

/// The CCCL version of the first `cuda/std/__cccl/version.h` on an include path: `3.0.0`.
pub fn cccl_version(include_dirs: &[PathBuf]) -> Option<(String, PathBuf)> {
    include_dirs.iter().find_map(|dir| {
        let header = dir.join("cuda/std/__cccl/version.h");
        let text = read_header(&header).ok()?;
        // `#define CCCL_VERSION 3000000`: major * 1000000 + minor * 1000 + patch.
        let n = define_value(&text, "CCCL_VERSION")?;
        Some((
            format!("{}.{}.{}", n / 1_000_000, (n / 1000) % 1000, n % 1000),
            header,
        ))
    })
}

/// `a/./b/../c` -> `a/c`, without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests;
