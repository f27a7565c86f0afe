//! Which files a `check` looks at: named files as they are, directories walked (respecting
//! `.gitignore`, the configured `exclude` and `extensions`).

use crate::config::{absolutize, ConfigError};
use crate::settings::Resolver;
use ignore::{WalkBuilder, WalkState};
use rayon::slice::ParallelSliceMut;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file to check.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    /// As shown to the user (first, so that sorting sorts by it).
    pub display: String,
    /// Absolute, normalized.
    pub path: PathBuf,
    /// Whether the settings that apply to it let the result cache keep what it learns of it.
    pub cache: bool,
}

/// What a walk met besides the files.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Paths that could not be read (missing, permission denied...).
    pub io_errors: Vec<String>,
    pub config_errors: Vec<ConfigError>,
}

/// The path as shown: relative to `cwd` when below it.
pub fn display_path(abs: &Path, cwd: &Path) -> String {
    match abs.strip_prefix(cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().into_owned(),
        _ => abs.to_string_lossy().into_owned(),
    }
}

/// The files `check` would check under `roots`, read for nothing else.
pub fn files_under(roots: &[PathBuf], resolver: &Resolver) -> Vec<PathBuf> {
    let (_, files) = discover_with(roots, resolver, false, &|_| ());
    files.into_iter().map(|(c, _)| c.path).collect()
}

/// The files to check: named files as they are, directories walked. `visit` is called on
/// each file as it is found (on the walker's threads, so that reading files overlaps walking
/// directories); the files come back sorted, each once, with what `visit` returned.
pub fn discover_with<T: Send>(
    paths: &[PathBuf],
    resolver: &Resolver,
    force_exclude: bool,
    visit: &(dyn Fn(&Candidate) -> T + Sync),
) -> (Discovery, Vec<(Candidate, T)>) {
    let cwd = resolver.cwd().to_path_buf();
    let found = Mutex::new(Discovery::default());
    let visited: Mutex<Vec<(Candidate, T)>> = Mutex::new(Vec::new());
    let add = |candidate: Candidate| {
        let value = visit(&candidate);
        visited
            .lock()
            .expect("no panics while locked")
            .push((candidate, value));
    };
    let record_config = |result: &Result<_, ConfigError>| {
        if let Err(e) = result {
            let mut d = found.lock().expect("no panics while locked");
            if !d.config_errors.contains(e) {
                d.config_errors.push(e.clone());
            }
        }
    };
    let mut roots = Vec::new();
    for path in paths {
        let abs = absolutize(path, &cwd);
        match std::fs::metadata(&abs) {
            Err(e) => found
                .lock()
                .expect("no panics while locked")
                .io_errors
                .push(format!("{}: {}", path.display(), io_message(&e))),
            Ok(meta) if meta.is_dir() => {
                let settings = resolver.settings_for(&abs, false);
                record_config(&settings);
                let excluded = settings.is_ok_and(|s| force_exclude && s.is_excluded(&abs, true));
                if !excluded {
                    roots.push(abs);
                }
            }
            // A FIFO or a device may never end (`/dev/zero`) or block (a FIFO nobody writes).
            Ok(meta) if !meta.is_file() => found
                .lock()
                .expect("no panics while locked")
                .io_errors
                .push(format!(
                    "{}: {} (use `-` for standard input)",
                    path.display(),
                    ptxguard_analyzer::source::NOT_REGULAR
                )),
            Ok(_) => {
                let settings = resolver.settings_for(&abs, false);
                record_config(&settings);
                let excluded = settings
                    .as_ref()
                    .is_ok_and(|s| force_exclude && s.is_excluded(&abs, false));
                if !excluded {
                    add(Candidate {
                        display: display_path(&abs, &cwd),
                        cache: settings.is_ok_and(|s| s.cache),
                        path: abs,
                    });
                }
            }
        }
    }
    if let Some((first, rest)) = roots.split_first() {
        let mut builder = WalkBuilder::new(first);
        for root in rest {
            builder.add(root);
        }
        builder.threads(
            std::thread::available_parallelism()
                .map_or(2, |n| n.get())
                .min(8),
        );
        builder.build_parallel().run(|| {
            let found = &found;
            let add = &add;
            let cwd = &cwd;
            let record_config = &record_config;
            // Entries come a directory at a time: its settings are looked up once.
            let mut last_dir: Option<(std::path::PathBuf, crate::settings::SettingsResult)> = None;
            Box::new(move |entry| {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        found
                            .lock()
                            .expect("no panics while locked")
                            .io_errors
                            .push(e.to_string());
                        return WalkState::Continue;
                    }
                };
                if entry.depth() == 0 {
                    return WalkState::Continue;
                }
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                let is_file = entry.file_type().is_some_and(|t| t.is_file());
                if !is_dir && !is_file {
                    return WalkState::Continue;
                }
                // The settings of the directory that holds the entry decide about it.
                let dir = entry.path().parent();
                let settings = match &last_dir {
                    Some((last, settings)) if dir == Some(last.as_path()) => settings.clone(),
                    _ => {
                        let settings = resolver.settings_for(entry.path(), false);
                        record_config(&settings);
                        if let Some(dir) = dir {
                            last_dir = Some((dir.to_path_buf(), settings.clone()));
                        }
                        settings
                    }
                };
                let Ok(settings) = settings else {
                    return WalkState::Continue;
                };
                if settings.is_excluded(entry.path(), is_dir) {
                    return if is_dir {
                        WalkState::Skip
                    } else {
                        WalkState::Continue
                    };
                }
                if is_file && settings.has_checked_extension(entry.path()) {
                    let path = entry.into_path();
                    add(Candidate {
                        display: display_path(&path, cwd),
                        path,
                        cache: settings.cache,
                    });
                }
                WalkState::Continue
            })
        });
    }
    let mut discovery = found.into_inner().expect("no panics while locked");
    let mut files = visited.into_inner().expect("no panics while locked");
    // In parallel, unstable: candidates are totally ordered, and equal ones (a file reached
    // from two roots) are the same file, each with what the same read gave.
    files.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // Paths are normalized ([`absolutize`]): their bytes compare as their components do.
    files.dedup_by(|a, b| a.0.path.as_os_str() == b.0.path.as_os_str());
    discovery.io_errors.sort();
    (discovery, files)
}

/// An I/O error's message without the `(os error N)` noise.
pub fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
