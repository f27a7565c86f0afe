//! The tree's half of [`ptxguard_analyzer::reach`]: which files of the checked tree name the
//! functions that findings are compiled only through ([`files_naming`], one pass over the
//! files, made only when such a finding exists), and the editor's memory of it
//! ([`TreeIndex`]). Every text file of the tree is read, not only the checked ones: code
//! generators call helpers from templates (`.jinja`, `.in`) and build scripts.

use ptxguard_analyzer::reach;
use rayon::prelude::*;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// For each name, the files among `files` whose text names it (unreadable files name nothing).
pub fn files_naming(names: &BTreeSet<String>, files: &[&Path]) -> HashMap<String, Vec<PathBuf>> {
    let hits: Vec<(String, PathBuf)> = files
        .par_iter()
        .flat_map_iter(|path| {
            let text = read_bounded(path)
                .filter(|bytes| !ptxguard_analyzer::source::looks_binary(bytes))
                .unwrap_or_default();
            names
                .iter()
                .filter(|name| reach::uses_name(&text, name))
                .map(|name| (name.clone(), path.to_path_buf()))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut users: HashMap<String, Vec<PathBuf>> = HashMap::new();
    for (name, path) in hits {
        users.entry(name).or_default().push(path);
    }
    users
}

/// Every file under `roots` that `.gitignore` and hidden-file rules leave (a root that is a
/// file is itself), whatever its extension.
pub fn tree_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    let Some((first, rest)) = roots.split_first() else {
        return Vec::new();
    };
    let mut builder = ignore::WalkBuilder::new(first);
    for root in rest {
        builder.add(root);
    }
    builder.threads(
        std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .min(8),
    );
    let files = Mutex::new(Vec::new());
    builder.build_parallel().run(|| {
        let files = &files;
        Box::new(move |entry| {
            if let Ok(entry) = entry {
                if entry.file_type().is_some_and(|t| t.is_file()) {
                    files
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(entry.into_path());
                }
            }
            ignore::WalkState::Continue
        })
    });
    files.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The file's bytes, when it is a regular file no larger than a checked file may be.
fn read_bounded(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::metadata(path).ok()?;
    let small = meta.len() <= ptxguard_analyzer::source::MAX_FILE_BYTES as u64;
    (meta.is_file() && small)
        .then(|| std::fs::read(path).ok())
        .flatten()
}

/// The editor's view of the workspace for [`settle`]: its files, listed once, and the files
/// naming each name asked about so far; forgotten when files change on disk.
#[derive(Default)]
pub struct TreeIndex {
    state: Mutex<TreeState>,
}

#[derive(Default)]
struct TreeState {
    files: Option<Vec<PathBuf>>,
    users: HashMap<String, Vec<PathBuf>>,
}

impl TreeIndex {
    pub fn forget(&self) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = TreeState::default();
    }

    /// The files naming each of `names`; `list_files` lists the workspace when it is not
    /// listed yet.
    pub fn users(
        &self,
        names: &BTreeSet<String>,
        list_files: impl FnOnce() -> Vec<PathBuf>,
    ) -> HashMap<String, Vec<PathBuf>> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut *guard;
        let files = state.files.get_or_insert_with(list_files);
        let files: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        let new: BTreeSet<String> = names
            .iter()
            .filter(|n| !state.users.contains_key(*n))
            .cloned()
            .collect();
        let found = if new.is_empty() {
            HashMap::new()
        } else {
            files_naming(&new, &files)
        };
        for name in new {
            let paths = found.get(&name).cloned().unwrap_or_default();
            state.users.insert(name, paths);
        }
        names
            .iter()
            .filter_map(|n| state.users.get(n).map(|p| (n.clone(), p.clone())))
            .collect()
    }
}
