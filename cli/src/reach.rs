//! The tree's half of [`ptxguard_analyzer::reach`]: whether a file other than its own uses a
//! function that findings are compiled only through ([`uses_elsewhere`], one pass over the
//! checked files, made only when such a finding exists, stopping once every question is
//! answered), and the editor's memory of it ([`TreeIndex`]).

use ptxguard_analyzer::reach;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The answer to `questions` ([`reach::settle`]) from the checked files: the texts in memory
/// first, then the files on disk, nearest an asking file first, in parallel batches, until
/// every question is answered (unreadable and binary files use nothing).
pub fn uses_elsewhere(
    questions: &reach::Questions,
    in_memory: &[(&Path, &str)],
    on_disk: &[&Path],
) -> HashSet<(String, PathBuf)> {
    let mut users: HashMap<String, Vec<PathBuf>> = HashMap::new();
    let open = |users: &HashMap<String, Vec<PathBuf>>| -> Vec<&String> {
        questions
            .iter()
            .filter(|(name, homes)| {
                !reach::answered(homes, users.get(*name).map_or(&[][..], Vec::as_slice))
            })
            .map(|(name, _)| name)
            .collect()
    };
    // A path given twice (standard input named as a checked file) is one user.
    let add = |users: &mut HashMap<String, Vec<PathBuf>>, name: &String, path: &Path| {
        let paths = users.entry(name.clone()).or_default();
        if !paths.iter().any(|p| p == path) {
            paths.push(path.to_path_buf());
        }
    };
    let mut search: Option<reach::NameSearch> = None;
    for (path, text) in in_memory {
        let wanted = open(&users);
        if wanted.is_empty() {
            break;
        }
        // The same names are open for most files: one automaton while they are.
        if search
            .as_ref()
            .is_none_or(|s| !same_names(s.names(), &wanted))
        {
            search = Some(reach::NameSearch::new(
                wanted.iter().map(|n| n.as_str()).collect(),
            ));
        }
        if let Some(search) = &search {
            for name in search.used_in(text.as_bytes()) {
                add(&mut users, &name.to_string(), path);
            }
        }
    }
    let remaining = AtomicUsize::new(open(&users).len());
    if remaining.load(Ordering::Relaxed) > 0 {
        // Users of a function mostly sit near it: the files sharing the longest folder with
        // an asking file come first, so that the search stops early when the name is used.
        let homes: Vec<&PathBuf> = questions.values().flatten().collect();
        let shared = |path: &Path| {
            homes
                .iter()
                .map(|home| {
                    path.components()
                        .zip(home.components())
                        .take_while(|(a, b)| a == b)
                        .count()
                })
                .max()
                .unwrap_or(0)
        };
        let mut on_disk = on_disk.to_vec();
        on_disk.sort_by_cached_key(|path| std::cmp::Reverse(shared(path)));
        let users_now = Mutex::new(std::mem::take(&mut users));
        let search = |path: &Path, names: &reach::NameSearch| {
            if remaining.load(Ordering::Relaxed) == 0 {
                return;
            }
            let wanted = open(&users_now.lock().unwrap_or_else(|e| e.into_inner()));
            if wanted.is_empty() {
                return;
            }
            let hits = names_in_file(path, names);
            let mut users = users_now.lock().unwrap_or_else(|e| e.into_inner());
            // Only the names still open when the file was taken up (as a search for those
            // alone would find).
            for name in hits {
                if let Some(name) = wanted.iter().find(|w| w.as_str() == name) {
                    add(&mut users, name, path);
                }
            }
            remaining.store(open(&users).len(), Ordering::Relaxed);
        };
        // In batches, nearest first: within a batch the files go to all threads.
        for batch in on_disk.chunks(64) {
            if remaining.load(Ordering::Relaxed) == 0 {
                break;
            }
            let wanted = open(&users_now.lock().unwrap_or_else(|e| e.into_inner()));
            let names = reach::NameSearch::new(wanted.iter().map(|n| n.as_str()).collect());
            batch.par_iter().for_each(|path| search(path, &names));
        }
        users = users_now.into_inner().unwrap_or_else(|e| e.into_inner());
    }
    reach::users_answer(questions, |name| {
        users.get(name).cloned().unwrap_or_default()
    })
}

/// Whether two lists hold the same names.
fn same_names(names: &[&str], wanted: &[&String]) -> bool {
    names.len() == wanted.len() && names.iter().zip(wanted).all(|(a, b)| *a == b.as_str())
}

/// Which of `names` the file names (none when it cannot be read or is binary).
fn names_in_file<'n>(path: &Path, names: &reach::NameSearch<'n>) -> Vec<&'n str> {
    crate::check_cmd::read_in_buffer(path, |bytes, _| {
        if ptxguard_analyzer::source::looks_binary(bytes) {
            return Vec::new();
        }
        names.used_in(bytes)
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

    /// [`uses_elsewhere`] over the workspace; `list_files` lists it when it is not listed
    /// yet.
    pub fn uses_elsewhere(
        &self,
        questions: &reach::Questions,
        list_files: impl FnOnce() -> Vec<PathBuf>,
    ) -> HashSet<(String, PathBuf)> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut *guard;
        let files = state.files.get_or_insert_with(list_files);
        for name in questions.keys() {
            if state.users.contains_key(name) {
                continue;
            }
            // Every file using it, so that the answer holds whichever file asks next.
            let search = reach::NameSearch::new(vec![name.as_str()]);
            let users = files
                .par_iter()
                .filter(|path| !names_in_file(path, &search).is_empty())
                .cloned()
                .collect();
            state.users.insert(name.clone(), users);
        }
        reach::users_answer(questions, |name| {
            state.users.get(name).cloned().unwrap_or_default()
        })
    }
}
