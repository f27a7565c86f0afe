//! The result cache of `check` (`.ptxguard_cache/` in the project, as ruff keeps
//! `.ruff_cache/`): each file's findings, notes and warnings, kept under a key made of
//! everything they depend on, so that re-checking an unchanged tree skips the analysis.
//!
//! A file's key: its bytes, its path (absolute and as shown) and the working directory, its
//! build context and rule options as the rules get them (targets, macros, include folders,
//! toolkit, CCCL version, the rules that run: [`ptxguard_rules::Options`]), the state of every
//! rule after the configuration (on or off, severity). Besides the key, an entry keeps what
//! the analysis read outside the file ([`ptxguard_analyzer::context::targets::HeaderReads`]): a hit needs
//! each header to give the same fingerprint and each path found empty to still be no file.
//! The whole cache belongs to one build of ptxguard: its version and its executable's size
//! and modification time head the file, and another build starts afresh.
//!
//! One file, read at the start and written (whole, then renamed into place) at the end when
//! anything changed; entries not used for [`MAX_UNUSED_DAYS`] are dropped. A cache that
//! cannot be read, does not parse, or whose checksum does not match its contents is ignored;
//! one that cannot be written is left as it was. Neither is said: the output of a run is the
//! same with and without the cache.

use crate::emit::FileReport;
use ptxguard_analyzer::context::targets::{header_fingerprint, HeaderReads};
use ptxguard_analyzer::reach::NeedsUse;
use ptxguard_analyzer::source::fingerprint;
use ptxguard_analyzer::{Diagnostic, Fix, Label, Severity, SourceFile, Span};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The cache's folder, in the project's root.
pub const CACHE_DIR_NAME: &str = ".ptxguard_cache";
/// The file in it that holds the results.
const RESULTS_FILE: &str = "results.json";
/// The file in it that holds the stamps of the files read without asm ([`Stamp`]).
const STAMPS_FILE: &str = "stamps";
/// The first word of the stamps file; the number changes with its layout.
const STAMPS_MAGIC: &str = "ptxguard-stamps-1";
/// A file changed this recently before the run (or after its start) is not stamped: a write
/// in the same tick of the file system's clock as the read would leave its stamp as it was.
const RACY_SECONDS: i64 = 2;
/// The first word of the file; the number changes with the layout.
const MAGIC: &str = "ptxguard-cache-2";
/// The largest results file read (a tree of 1,000 files with asm makes about 2 MB).
const MAX_RESULTS_BYTES: u64 = 512 * 1024 * 1024;
/// Entries not used by any run for this long are dropped.
pub const MAX_UNUSED_DAYS: u64 = 30;

/// One file's results and what they depend on.
#[derive(Clone, Serialize, Deserialize)]
struct Entry {
    /// Hex of [`Cache::key`].
    key: String,
    /// Headers read, with the hex of their fingerprint (`None`: found, not read).
    headers: Vec<(String, Option<String>)>,
    /// Paths tried for an include that were not files.
    absent: Vec<String>,
    diagnostics: Vec<StoredDiagnostic>,
    warnings: Vec<String>,
    notes: Vec<String>,
    /// Days since 1970 when a run last used the entry.
    used: u64,
}

/// What the results file holds: each file's entry, and the last answer of the tree's
/// [`ptxguard_analyzer::reach`] search; with the stamps file's stamps.
#[derive(Default, Serialize, Deserialize)]
struct Stored {
    entries: HashMap<String, Entry>,
    reach: Option<ReachAnswer>,
}

/// A value read on a thread of its own: [`Loading::get`] waits for it, [`Loading::if_ready`]
/// does not. Read in place when no thread can be started.
struct Loading<T> {
    value: OnceLock<T>,
    thread: Mutex<Option<std::thread::JoinHandle<T>>>,
}

impl<T: Default + Send + 'static> Loading<T> {
    fn start(read: impl Fn() -> T + Send + Clone + 'static) -> Loading<T> {
        let value = OnceLock::new();
        let thread = match std::thread::Builder::new().spawn(read.clone()) {
            Ok(handle) => Some(handle),
            Err(_) => {
                let _ = value.set(read());
                None
            }
        };
        Loading {
            value,
            thread: Mutex::new(thread),
        }
    }

    fn get(&self) -> &T {
        self.value.get_or_init(|| {
            let handle = self.thread.lock().ok().and_then(|mut h| h.take());
            handle.and_then(|h| h.join().ok()).unwrap_or_default()
        })
    }

    fn if_ready(&self) -> Option<&T> {
        if let Some(value) = self.value.get() {
            return Some(value);
        }
        let ended = self
            .thread
            .lock()
            .is_ok_and(|handle| handle.as_ref().is_none_or(|h| h.is_finished()));
        ended.then(|| self.get())
    }

    fn into_inner(self) -> T {
        self.get();
        self.value.into_inner().unwrap_or_default()
    }
}

/// What a file's metadata said when it was read and held no asm (and was not binary, nor too
/// large): while they say the same, the file is unchanged and is not read again, as git's
/// index trusts them. The change time is part of it: no tool sets it back, so a write that
/// restores the size and the modification time still shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
    inode: u64,
    device: u64,
}

impl Stamp {
    /// The stamp of these metadata (`None` where the platform does not give them all).
    #[cfg(unix)]
    pub fn of(meta: &std::fs::Metadata) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        meta.is_file().then(|| Stamp {
            len: meta.len(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
            inode: meta.ino(),
            device: meta.dev(),
        })
    }

    #[cfg(not(unix))]
    pub fn of(_meta: &std::fs::Metadata) -> Option<Stamp> {
        None
    }
}

/// A stamp as kept: the file's fingerprint when the run that stamped it took one (the reach
/// answer's key needs it), and the day a run last used it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamped {
    stamp: Stamp,
    fingerprint: Option<u128>,
    used: u64,
}

/// Which functions some other checked file names, for one state of the checked tree and one
/// set of questions (`key`: the hex of [`Cache::reach_key`]).
#[derive(Clone, Serialize, Deserialize)]
struct ReachAnswer {
    key: String,
    /// The names used elsewhere, each with the asking file.
    used: Vec<(String, PathBuf)>,
}

/// [`Diagnostic`] as stored (its rule name is found again among the known rules).
#[derive(Clone, Serialize, Deserialize)]
struct StoredDiagnostic {
    rule: String,
    severity: Severity,
    span: Span,
    message: String,
    labels: Vec<Label>,
    note: Option<String>,
    help: Option<String>,
    fix: Option<Fix>,
    needs_use_of: Option<NeedsUse>,
}

/// What a check of one file gave, for [`Cache::store`].
pub struct Fresh {
    pub key: u128,
    pub reads: HeaderReads,
}

/// The cached results of one file.
pub struct Hit {
    /// `None` when there is nothing to report (the file's text is then not even decoded).
    pub report: Option<FileReport>,
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
}

/// The cache of one run. Lookups and stores come from every analysis thread.
pub struct Cache {
    dir: PathBuf,
    /// The build of ptxguard the entries belong to.
    build: String,
    today: u64,
    /// The results and the stamps as read at the start, each on a thread of its own while the
    /// walk begins (the walk needs the stamps first); never changed during the run.
    loaded: Loading<Stored>,
    stamps: Loading<HashMap<String, Stamped>>,
    /// The reach answer made by this run: written at the end. `Some(None)`: this run asked
    /// nothing, so the last answer is dropped.
    reach: Mutex<Option<Option<ReachAnswer>>>,
    /// Entries made by this run, or used by it for the first time today: written at the end.
    updated: Mutex<HashMap<String, Entry>>,
    /// Each header's current fingerprint, and each absent path's state, computed once.
    headers_now: Mutex<HashMap<PathBuf, Option<u128>>>,
    files_now: Mutex<HashMap<PathBuf, bool>>,
    /// Stamps made by this run, or used by it for the first time today: written at the end.
    stamps_updated: Mutex<HashMap<String, Stamped>>,
    /// Stamps that no longer hold (the file changed): dropped at the end unless made again.
    stamps_dropped: Mutex<Vec<String>>,
    /// The run's start (nanoseconds since 1970): files changed since a little before are
    /// not stamped ([`RACY_SECONDS`]).
    started: i128,
}

impl Cache {
    /// The cache under `root`, read when there is a usable one. `None` when this build of
    /// ptxguard cannot name itself (its executable unknown): nothing is cached then.
    pub fn open(root: &Path) -> Option<Cache> {
        let build = build_identity()?;
        let dir = root.join(CACHE_DIR_NAME);
        let results = dir.join(RESULTS_FILE);
        let stamps = dir.join(STAMPS_FILE);
        let expected = build.clone();
        let loaded = Loading::start(move || {
            ptxguard_analyzer::source::read_input(&results, MAX_RESULTS_BYTES)
                .ok()
                .and_then(|bytes| parse(&bytes, &expected))
                .unwrap_or_default()
        });
        let expected = build.clone();
        let stamps = Loading::start(move || {
            ptxguard_analyzer::source::read_input(&stamps, MAX_RESULTS_BYTES)
                .ok()
                .and_then(|bytes| parse_stamps(&bytes, &expected))
                .unwrap_or_default()
        });
        Some(Cache {
            dir,
            build,
            today: today(),
            loaded,
            stamps,
            updated: Mutex::default(),
            reach: Mutex::default(),
            headers_now: Mutex::default(),
            files_now: Mutex::default(),
            stamps_updated: Mutex::default(),
            stamps_dropped: Mutex::default(),
            started: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as i128),
        })
    }

    /// Whether files stamped by an earlier run are known by now (the walk does not wait for
    /// the cache's read: the first files it meets are read as without stamps).
    pub fn has_stamps(&self) -> bool {
        self.stamps
            .if_ready()
            .is_some_and(|stamps| !stamps.is_empty())
    }

    /// Whether the results of the last run are read by now (asking for them would not wait).
    pub fn results_ready(&self) -> bool {
        self.loaded.if_ready().is_some()
    }

    /// [`Cache::reach_wanted`] if known by now; `None` while the cache is being read.
    pub fn reach_wanted_if_known(&self) -> Option<bool> {
        self.loaded.if_ready().map(|stored| stored.reach.is_some())
    }

    /// When the file at `path` (absolute) still has the stamp it had when read without asm:
    /// `Some` of its fingerprint then (`Some(None)` when none is needed). A stamp without a
    /// fingerprint does not answer when `fingerprint` is wanted.
    pub fn unchanged_without_asm(
        &self,
        path: &Path,
        stamp: &Stamp,
        fingerprint: bool,
    ) -> Option<Option<u128>> {
        let name = path.to_str()?;
        let stamped = self.stamps.get().get(name)?;
        if stamped.stamp != *stamp {
            self.drop_stamp(path);
            return None;
        }
        if fingerprint && stamped.fingerprint.is_none() {
            return None;
        }
        if stamped.used != self.today {
            if let Ok(mut updated) = self.stamps_updated.lock() {
                updated.insert(
                    name.to_string(),
                    Stamped {
                        used: self.today,
                        ..*stamped
                    },
                );
            }
        }
        Some(if fingerprint {
            stamped.fingerprint
        } else {
            None
        })
    }

    /// Forgets the stamp of a file that changed, or was read with asm.
    pub fn drop_stamp(&self, path: &Path) {
        if let (Some(name), Ok(mut dropped)) = (path.to_str(), self.stamps_dropped.lock()) {
            dropped.push(name.to_string());
        }
    }

    /// Keeps the stamp of a file read without asm (taken before the read), unless it changed
    /// too recently for the stamp to tell a later write ([`RACY_SECONDS`]).
    pub fn stamp_without_asm(&self, path: &Path, stamp: Stamp, fingerprint: Option<u128>) {
        let settled = |(seconds, nanos): (i64, i64)| {
            i128::from(seconds) * 1_000_000_000 + i128::from(nanos)
                < self.started - i128::from(RACY_SECONDS) * 1_000_000_000
        };
        let Some(name) = path.to_str() else {
            return;
        };
        // A name the stamps file could not give back as it is (a line end, a control
        // character) is not stamped.
        if !settled(stamp.modified) || !settled(stamp.changed) || name.contains(char::is_control) {
            return;
        }
        if let Ok(mut updated) = self.stamps_updated.lock() {
            updated.insert(
                name.to_string(),
                Stamped {
                    stamp,
                    fingerprint,
                    used: self.today,
                },
            );
        }
    }

    /// The key of one file's results: everything its findings depend on but the headers.
    /// `bytes` is the fingerprint of the file's bytes.
    pub fn key(
        cwd: &Path,
        path: &Path,
        display: &str,
        bytes: u128,
        options: &crate::analysis::Runs,
        rules: &crate::settings::RuleFilter<'_>,
    ) -> u128 {
        let mut text = String::new();
        // `Debug` of the options names every field and value: a field added to them is in
        // the key without a change here. The cache belongs to one build, so its spelling
        // may change between builds.
        let _ = write!(
            text,
            "{cwd:?}\n{path:?}\n{display:?}\n{bytes:032x}\n{options:?}\n"
        );
        for rule in crate::registry::known_rules() {
            let state = if rules.is_enabled(rule.name) {
                rules.severity(rule.name, rule.default_severity).as_str()
            } else {
                "off"
            };
            let _ = writeln!(text, "{} {state}", rule.name);
        }
        fingerprint(text.as_bytes())
    }

    /// Whether the cache holds results for the file at `path` (absolute), whatever their key.
    pub fn has(&self, path: &Path) -> bool {
        path.to_str()
            .is_some_and(|name| self.loaded.get().entries.contains_key(name))
    }

    /// The cached results of the file at `path` (absolute) under `key`, when the headers it
    /// read are unchanged. `bytes` are the file's, for the report's source.
    pub fn lookup(&self, path: &Path, display: &str, key: u128, bytes: &[u8]) -> Option<Hit> {
        let name = path.to_str()?;
        let entry = self.loaded.get().entries.get(name)?;
        if entry.key != hex(key) || !self.reads_unchanged(entry) {
            return None;
        }
        let report = if entry.diagnostics.is_empty() {
            None
        } else {
            let source = SourceFile::from_bytes(PathBuf::from(display), bytes.to_vec()).ok()?;
            let diagnostics = entry
                .diagnostics
                .iter()
                .map(|d| restore(d, &source.text))
                .collect::<Option<Vec<Diagnostic>>>()?;
            Some(FileReport {
                display: display.to_string(),
                source: std::sync::Arc::new(source),
                diagnostics,
                confirmations: Vec::new(),
            })
        };
        let hit = Hit {
            report,
            warnings: entry.warnings.clone(),
            notes: entry.notes.clone(),
        };
        if entry.used != self.today {
            self.keep(
                name,
                Entry {
                    used: self.today,
                    ..entry.clone()
                },
            );
        }
        Some(hit)
    }

    /// Keeps a file's fresh results.
    pub fn store(
        &self,
        path: &Path,
        fresh: Fresh,
        report: &FileReport,
        warnings: &[String],
        notes: &[String],
    ) {
        let Some(name) = path.to_str() else {
            return;
        };
        let mut headers = Vec::with_capacity(fresh.reads.found.len());
        for (header, fp) in &fresh.reads.found {
            let Some(h) = header.to_str() else {
                return;
            };
            headers.push((h.to_string(), fp.map(hex)));
        }
        let mut absent = Vec::with_capacity(fresh.reads.absent.len());
        for a in &fresh.reads.absent {
            let Some(a) = a.to_str() else {
                return;
            };
            absent.push(a.to_string());
        }
        let diagnostics = report
            .diagnostics
            .iter()
            .map(|d| StoredDiagnostic {
                rule: d.rule.to_string(),
                severity: d.severity,
                span: d.span,
                message: d.message.clone(),
                labels: d.labels.clone(),
                note: d.note.clone(),
                help: d.help.clone(),
                fix: d.fix.clone(),
                needs_use_of: d.needs_use_of.clone(),
            })
            .collect();
        self.keep(
            name,
            Entry {
                key: hex(fresh.key),
                headers,
                absent,
                diagnostics,
                warnings: warnings.to_vec(),
                notes: notes.to_vec(),
                used: self.today,
            },
        );
    }

    fn keep(&self, name: &str, entry: Entry) {
        if let Ok(mut updated) = self.updated.lock() {
            updated.insert(name.to_string(), entry);
        }
    }

    /// Whether every header the entry read gives the same fingerprint and every path found
    /// empty is still no file (each looked at once per run).
    fn reads_unchanged(&self, entry: &Entry) -> bool {
        let headers_same = entry.headers.iter().all(|(path, fp)| {
            let path = PathBuf::from(path);
            let known = self
                .headers_now
                .lock()
                .ok()
                .and_then(|m| m.get(&path).copied());
            let now = known.unwrap_or_else(|| {
                let now = header_fingerprint(&path);
                if let Ok(mut m) = self.headers_now.lock() {
                    m.insert(path, now);
                }
                now
            });
            now.map(hex) == *fp
        });
        headers_same
            && entry.absent.iter().all(|path| {
                let path = PathBuf::from(path);
                let known = self
                    .files_now
                    .lock()
                    .ok()
                    .and_then(|m| m.get(&path).copied());
                let is_file = known.unwrap_or_else(|| {
                    let is_file = path.is_file();
                    if let Ok(mut m) = self.files_now.lock() {
                        m.insert(path, is_file);
                    }
                    is_file
                });
                !is_file
            })
    }

    /// The key of a reach question: the checked files with the fingerprint of each (every
    /// file of the tree: `files` sorted by path), and the names asked with the file that asks.
    pub fn reach_key(
        files: &[(&Path, u128)],
        questions: &ptxguard_analyzer::reach::Questions,
    ) -> u128 {
        // Each path's bytes and a NUL (which no path holds), then its fingerprint.
        let mut text: Vec<u8> = Vec::with_capacity(files.len() * 96);
        for (path, bytes) in files {
            text.extend_from_slice(path.as_os_str().as_encoded_bytes());
            text.push(0);
            text.extend_from_slice(&bytes.to_le_bytes());
        }
        text.extend_from_slice(format!("{questions:?}\n").as_bytes());
        fingerprint(&text)
    }

    /// The names the last run found named elsewhere, when it asked the same question of the
    /// same tree ([`Cache::reach_key`]).
    pub fn reach_answer(&self, key: u128) -> Option<std::collections::HashSet<(String, PathBuf)>> {
        let answer = self.loaded.get().reach.as_ref()?;
        (answer.key == hex(key)).then(|| answer.used.iter().cloned().collect())
    }

    /// Keeps this run's answer (`key`: `None` when the files were not fingerprinted: the next
    /// run then fingerprints them, see [`Cache::reach_wanted`]).
    pub fn store_reach(
        &self,
        key: Option<u128>,
        used: &std::collections::HashSet<(String, PathBuf)>,
    ) {
        let mut used: Vec<(String, PathBuf)> = used.iter().cloned().collect();
        used.sort();
        if let Ok(mut reach) = self.reach.lock() {
            *reach = Some(Some(ReachAnswer {
                key: key.map(hex).unwrap_or_default(),
                used,
            }));
        }
    }

    /// This run asked nothing: the next one need not fingerprint every file.
    pub fn drop_reach(&self) {
        if self.reach_wanted() {
            if let Ok(mut reach) = self.reach.lock() {
                *reach = Some(None);
            }
        }
    }

    /// Whether the last run searched the tree for reach: only then does this one fingerprint
    /// every file it reads, to key the answer (most trees never search).
    pub fn reach_wanted(&self) -> bool {
        self.loaded.get().reach.is_some()
    }

    /// Writes the cache when anything changed: the entries of this run, the others read at
    /// the start unless unused for too long. Failures are silent (see the module's doc).
    pub fn save(self) {
        let updated = self.updated.into_inner().unwrap_or_default();
        let reach = self.reach.into_inner().unwrap_or_default();
        let loaded = self.loaded.into_inner();
        let mut stamps = self.stamps.into_inner();
        let dropped = self.stamps_dropped.into_inner().unwrap_or_default();
        let changed = dropped
            .iter()
            .filter(|name| stamps.remove(*name).is_some())
            .count()
            > 0;
        save_stamps(
            &self.dir,
            &self.build,
            self.today,
            stamps,
            self.stamps_updated.into_inner().unwrap_or_default(),
            changed,
        );
        let stale_dropped = loaded
            .entries
            .values()
            .any(|e| self.today.saturating_sub(e.used) > MAX_UNUSED_DAYS);
        if updated.is_empty() && !stale_dropped && reach.is_none() {
            return;
        }
        let mut entries: BTreeMap<String, Entry> = loaded
            .entries
            .into_iter()
            .filter(|(_, e)| self.today.saturating_sub(e.used) <= MAX_UNUSED_DAYS)
            .collect();
        entries.extend(updated);
        let stored = StoredRef {
            entries: &entries,
            reach: match &reach {
                Some(answer) => answer.as_ref(),
                None => loaded.reach.as_ref(),
            },
        };
        let Ok(body) = serde_json::to_vec(&stored) else {
            return;
        };
        let mut bytes =
            format!("{MAGIC} {:032x} {}\n", fingerprint(&body), self.build).into_bytes();
        bytes.extend_from_slice(&body);
        let _ = write_files(&self.dir, &bytes);
    }
}

/// The folder with its `.gitignore` (everything in it) and `CACHEDIR.TAG` (backup tools skip
/// it), and the results written beside and renamed into place.
fn write_files(dir: &Path, results: &[u8]) -> std::io::Result<()> {
    prepare(dir)?;
    write_file(dir, RESULTS_FILE, results)
}

/// The folder with its `.gitignore` and `CACHEDIR.TAG`.
fn prepare(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let gitignore = dir.join(".gitignore");
    if !gitignore.exists() {
        std::fs::write(
            &gitignore,
            "# Created by ptxguard: the result cache is not for version control.\n*\n",
        )?;
    }
    let tag = dir.join("CACHEDIR.TAG");
    if !tag.exists() {
        std::fs::write(
            &tag,
            "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by ptxguard.\n",
        )?;
    }
    Ok(())
}

/// Writes `name` in `dir` (made by [`prepare`]) beside and renames it into place.
fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = dir.join(format!("{name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes)?;
    let renamed = std::fs::rename(&temporary, dir.join(name));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    renamed
}

/// Writes the stamps when anything changed: this run's, and the others read at the start
/// unless unused for too long. One line a file, its path last:
/// `len mtime mtime_ns ctime ctime_ns inode device used fingerprint|- path`.
fn save_stamps(
    dir: &Path,
    build: &str,
    today: u64,
    loaded: HashMap<String, Stamped>,
    updated: HashMap<String, Stamped>,
    dropped: bool,
) {
    let fresh = |s: &Stamped| today.saturating_sub(s.used) <= MAX_UNUSED_DAYS;
    // A file read before the stamps were known is stamped again, as it was.
    let changed = dropped || updated.iter().any(|(name, s)| loaded.get(name) != Some(s));
    if !changed && loaded.values().all(fresh) {
        return;
    }
    let mut stamps: BTreeMap<String, Stamped> =
        loaded.into_iter().filter(|(_, s)| fresh(s)).collect();
    stamps.extend(updated);
    let mut body = String::with_capacity(stamps.len() * 120);
    for (name, s) in &stamps {
        let Stamp {
            len,
            modified,
            changed,
            inode,
            device,
        } = s.stamp;
        let _ = writeln!(
            body,
            "{len} {} {} {} {} {inode} {device} {} {} {name}",
            modified.0,
            modified.1,
            changed.0,
            changed.1,
            s.used,
            s.fingerprint.map_or_else(|| "-".to_string(), hex),
        );
    }
    let mut bytes = format!(
        "{STAMPS_MAGIC} {:032x} {build}\n",
        fingerprint(body.as_bytes())
    )
    .into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    let _ = prepare(dir).and_then(|()| write_file(dir, STAMPS_FILE, &bytes));
}

/// The stamps of a stamps file written by this build; `None` for anything else.
fn parse_stamps(bytes: &[u8], build: &str) -> Option<HashMap<String, Stamped>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let (head, body) = text.split_once('\n')?;
    let mut words = head.splitn(3, ' ');
    if words.next()? != STAMPS_MAGIC {
        return None;
    }
    let checksum = words.next()?;
    if words.next()? != build || checksum != hex(fingerprint(body.as_bytes())) {
        return None;
    }
    let mut stamps = HashMap::new();
    // Lines end at `\n` only: a name is never cut at another character.
    for line in body.split_terminator('\n') {
        let mut fields = line.splitn(10, ' ');
        let mut signed = || fields.next()?.parse::<i64>().ok();
        let (len, ms, mns, cs, cns) = (signed()?, signed()?, signed()?, signed()?, signed()?);
        let mut unsigned = || fields.next()?.parse::<u64>().ok();
        let (inode, device, used) = (unsigned()?, unsigned()?, unsigned()?);
        let fp = fields.next()?;
        let name = fields.next()?;
        if name.contains(char::is_control) {
            return None;
        }
        let fingerprint = match fp {
            "-" => None,
            hex => Some(u128::from_str_radix(hex, 16).ok()?),
        };
        stamps.insert(
            name.to_string(),
            Stamped {
                stamp: Stamp {
                    len: u64::try_from(len).ok()?,
                    modified: (ms, mns),
                    changed: (cs, cns),
                    inode,
                    device,
                },
                fingerprint,
                used,
            },
        );
    }
    Some(stamps)
}

/// [`Stored`] as written (the entries sorted).
#[derive(Serialize)]
struct StoredRef<'a> {
    entries: &'a BTreeMap<String, Entry>,
    reach: Option<&'a ReachAnswer>,
}

/// The contents of a results file written by this build; `None` for anything else.
fn parse(bytes: &[u8], build: &str) -> Option<Stored> {
    let newline = memchr::memchr(b'\n', bytes)?;
    let head = std::str::from_utf8(&bytes[..newline]).ok()?;
    let body = &bytes[newline + 1..];
    let mut words = head.splitn(3, ' ');
    if words.next()? != MAGIC {
        return None;
    }
    let checksum = words.next()?;
    if words.next()? != build || checksum != hex(fingerprint(body)) {
        return None;
    }
    serde_json::from_slice(body).ok()
}

/// The diagnostic, when its rule is known and its spans lie on the text's characters.
fn restore(d: &StoredDiagnostic, text: &str) -> Option<Diagnostic> {
    let rule = crate::registry::find_rule(&d.rule)?.name;
    let fits = |s: &Span| {
        s.start <= s.end
            && text.is_char_boundary(s.start as usize)
            && text.is_char_boundary(s.end as usize)
    };
    let spans_fit = fits(&d.span)
        && d.labels.iter().all(|l| fits(&l.span))
        && d.fix
            .as_ref()
            .is_none_or(|f| f.edits.iter().all(|e| fits(&e.span)));
    spans_fit.then(|| Diagnostic {
        rule,
        severity: d.severity,
        span: d.span,
        message: d.message.clone(),
        labels: d.labels.clone(),
        note: d.note.clone(),
        help: d.help.clone(),
        fix: d.fix.clone(),
        needs_use_of: d.needs_use_of.clone(),
    })
}

fn hex(n: u128) -> String {
    format!("{n:032x}")
}

fn today() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400)
}

/// This build of ptxguard: its version, and its executable's size and modification time (a
/// rebuild changes them; the rules may change without a new version number).
fn build_identity() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "{} {} {}",
        env!("CARGO_PKG_VERSION"),
        meta.len(),
        modified.as_nanos()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamps_file(body: &str) -> Vec<u8> {
        format!(
            "{STAMPS_MAGIC} {:032x} build\n{body}",
            fingerprint(body.as_bytes())
        )
        .into_bytes()
    }

    #[test]
    fn stamps_read_back_with_large_numbers_and_names_with_spaces() {
        let body = "12 1 2 3 4 18446744073709551615 18446744073709551614 20000 - /a b/c d.cu\n\
                    7 -1 0 5 6 1 2 20000 0000000000000000000000000000002a /x.cu\n";
        let stamps = parse_stamps(&stamps_file(body), "build").expect("read");
        let s = stamps["/a b/c d.cu"];
        assert_eq!(s.stamp.inode, u64::MAX);
        assert_eq!(s.stamp.device, u64::MAX - 1);
        assert_eq!(s.fingerprint, None);
        assert_eq!(stamps["/x.cu"].fingerprint, Some(42));
        // Another build's, a damaged checksum, a name with a carriage return: not used.
        assert!(parse_stamps(&stamps_file(body), "other").is_none());
        let mut damaged = stamps_file(body);
        let last = damaged.len() - 2;
        damaged[last] = b'y';
        assert!(parse_stamps(&damaged, "build").is_none());
        assert!(parse_stamps(&stamps_file("1 1 1 1 1 1 1 1 - /k.py\r\n"), "build").is_none());
        assert!(parse_stamps(&stamps_file("1 1 1 x 1 1 1 1 - /k.cu\n"), "build").is_none());
    }
}
