//! The tree's half of [`ptxguard_analyzer::reach`]: whether a file other than its own names a
//! function that findings are compiled only through ([`named_elsewhere`], one pass over the
//! checked files, made only when such a finding exists, stopping once every name is found),
//! and the editor's memory of it ([`TreeIndex`]).

use ptxguard_analyzer::reach;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Which names of `lone` (name → the one file whose findings need it) a file other than that
/// one names: the texts in memory first, then the files on disk, in parallel, until every
/// name is found (unreadable and binary files name nothing).
pub fn named_elsewhere(
    lone: &BTreeMap<String, PathBuf>,
    in_memory: &[(&Path, &str)],
    on_disk: &[&Path],
) -> HashSet<String> {
    let mut found = HashSet::new();
    for (path, text) in in_memory {
        for (name, home) in lone {
            if home != path && !found.contains(name) && reach::uses_name(text.as_bytes(), name) {
                found.insert(name.clone());
            }
        }
    }
    let remaining = AtomicUsize::new(lone.len() - found.len());
    if remaining.load(Ordering::Relaxed) == 0 {
        return found;
    }
    // Users of a function mostly sit near it: the files sharing the longest folder with a
    // home come first, so that the search stops early when the name is used.
    let mut on_disk = on_disk.to_vec();
    let shared = |path: &Path| {
        lone.values()
            .map(|home| {
                path.components()
                    .zip(home.components())
                    .take_while(|(a, b)| a == b)
                    .count()
            })
            .max()
            .unwrap_or(0)
    };
    on_disk.sort_by_cached_key(|path| std::cmp::Reverse(shared(path)));
    let found = Mutex::new(found);
    let search = |path: &Path| {
        if remaining.load(Ordering::Relaxed) == 0 {
            return;
        }
        let wanted: Vec<&String> = {
            let found = found.lock().unwrap_or_else(|e| e.into_inner());
            lone.iter()
                .filter(|(name, home)| home.as_path() != path && !found.contains(*name))
                .map(|(name, _)| name)
                .collect()
        };
        if wanted.is_empty() {
            return;
        }
        let hits = names_in_file(path, wanted);
        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
        for name in hits {
            if found.insert(name.clone()) {
                remaining.fetch_sub(1, Ordering::Relaxed);
            }
        }
    };
    // In batches, nearest first: within a batch the files go to all threads.
    for batch in on_disk.chunks(64) {
        if remaining.load(Ordering::Relaxed) == 0 {
            break;
        }
        batch.par_iter().for_each(|path| search(path));
    }
    found.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Which of `names` the file names (none when it cannot be read or is binary).
fn names_in_file<'n>(path: &Path, names: Vec<&'n String>) -> Vec<&'n String> {
    crate::check_cmd::read_in_buffer(path, |bytes, _| {
        if ptxguard_analyzer::source::looks_binary(bytes) {
            return Vec::new();
        }
        names
            .into_iter()
            .filter(|name| reach::uses_name(bytes, name))
            .collect()
    })
    .unwrap_or_default()
}

/// The editor's view of the workspace for [`reach::settle`]: its files, listed once, and the
/// files naming each name asked about so far; forgotten when files change on disk.
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

    /// [`named_elsewhere`] over the workspace; `list_files` lists it when it is not listed yet.
    pub fn named_elsewhere(
        &self,
        lone: &BTreeMap<String, PathBuf>,
        list_files: impl FnOnce() -> Vec<PathBuf>,
    ) -> HashSet<String> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut *guard;
        let files = state.files.get_or_insert_with(list_files);
        for name in lone.keys() {
            if state.users.contains_key(name) {
                continue;
            }
            // Every file naming it, so that the answer holds whichever file asks next.
            let users = files
                .par_iter()
                .filter(|path| !names_in_file(path, vec![name]).is_empty())
                .cloned()
                .collect();
            state.users.insert(name.clone(), users);
        }
        lone.iter()
            .filter(|(name, home)| {
                state
                    .users
                    .get(*name)
                    .is_some_and(|paths| paths.iter().any(|p| p != *home))
            })
            .map(|(name, _)| name.clone())
            .collect()
    }
}
