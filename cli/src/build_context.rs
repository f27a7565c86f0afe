//! How each checked file is built: the targets, macros, include paths and toolkit from the
//! compilation database, the environment and the configuration, merged by priority (lowest
//! first): inference (in the rules), `CUDAARCHS`, `TORCH_CUDA_ARCH_LIST`, the database,
//! the configuration (`target`, then `[targets]`), `--target`.

use crate::settings::Settings;
use ptxguard_analyzer::build::env::{cudaarchs, torch_cuda_arch_list, EnvTargets};
use ptxguard_analyzer::build::toolkit::target_name;
use ptxguard_analyzer::build::{cccl_version, CudaVersion, Database, FileBuild};
use ptxguard_rules::Options;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

pub const DATABASE_NAME: &str = "compile_commands.json";

/// What the process reads once: the environment's lists, the databases, and what was found
/// where. Shared by every thread.
#[derive(Default)]
pub struct Sources {
    cudaarchs: Option<EnvTargets>,
    torch: Option<EnvTargets>,
    databases: Mutex<HashMap<PathBuf, Arc<Option<Database>>>>,
    discovered: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
    /// Lines for standard error, each said once.
    messages: Mutex<Vec<String>>,
    /// Errors of the run, each said once: a configured database that cannot be read.
    errors: Mutex<Vec<String>>,
}

static SOURCES: OnceLock<Sources> = OnceLock::new();

impl Sources {
    pub fn from_env() -> Sources {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Sources {
            cudaarchs: var("CUDAARCHS").map(|v| cudaarchs(&v)),
            torch: var("TORCH_CUDA_ARCH_LIST").map(|v| torch_cuda_arch_list(&v)),
            ..Sources::default()
        }
    }

    fn say(&self, line: String) {
        let mut m = self.messages.lock().expect("no panics while locked");
        if !m.contains(&line) {
            m.push(line);
        }
    }

    /// A database, read once; `None` (and a message) when it cannot be read: an error when
    /// it was configured (`compile-commands`, `--compile-commands`: the build the user named
    /// is not the one checked against), a warning when it was only found.
    fn database(&self, path: &Path, configured: bool) -> Arc<Option<Database>> {
        if let Some(db) = self
            .databases
            .lock()
            .expect("no panics while locked")
            .get(path)
        {
            return db.clone();
        }
        let db = match Database::load(path) {
            Ok(db) => {
                let mut notes = db.notes.clone();
                notes.extend(db.missing_files());
                let shown = notes.len().min(5);
                for n in &notes[..shown] {
                    self.say(format!("{}: {n}", path.display()));
                }
                if notes.len() > shown {
                    self.say(format!(
                        "{}: {} more problems with entries (the other entries are used)",
                        path.display(),
                        notes.len() - shown
                    ));
                }
                Some(db)
            }
            Err(e) => {
                let line = format!("{e} (files are checked without the database)");
                if configured {
                    let mut errors = self.errors.lock().expect("no panics while locked");
                    if !errors.contains(&line) {
                        errors.push(line);
                    }
                } else {
                    self.say(line);
                }
                None
            }
        };
        let db = Arc::new(db);
        self.databases
            .lock()
            .expect("no panics while locked")
            .insert(path.to_path_buf(), db.clone());
        db
    }

    /// The database for a file when none is configured: `compile_commands.json` in its
    /// folder or a parent, or in their `build*/` folders (as clangd looks).
    fn discover(&self, dir: &Path) -> Option<PathBuf> {
        let mut chain = Vec::new();
        let mut found = None;
        let mut at = Some(dir);
        while let Some(d) = at {
            if let Some(hit) = self
                .discovered
                .lock()
                .expect("no panics while locked")
                .get(d)
            {
                found = hit.clone();
                break;
            }
            chain.push(d.to_path_buf());
            if let Some(db) = database_in(d) {
                found = Some(db);
                break;
            }
            at = d.parent();
        }
        let mut cache = self.discovered.lock().expect("no panics while locked");
        for d in chain {
            cache.insert(d, found.clone());
        }
        found
    }
}

fn database_in(dir: &Path) -> Option<PathBuf> {
    let here = dir.join(DATABASE_NAME);
    if here.is_file() {
        return Some(here);
    }
    let mut builds: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("build"))
        .map(|e| e.path().join(DATABASE_NAME))
        .filter(|p| p.is_file())
        .collect();
    builds.sort();
    builds.into_iter().next()
}

/// The process's sources (read from the environment on first use).
pub fn sources() -> &'static Sources {
    SOURCES.get_or_init(Sources::from_env)
}

/// Lines to print on standard error (once each), taken.
pub fn take_messages() -> Vec<String> {
    std::mem::take(&mut *sources().messages.lock().expect("no panics while locked"))
}

/// Errors of the run (once each), taken: the run exits with 2.
pub fn take_errors() -> Vec<String> {
    std::mem::take(&mut *sources().errors.lock().expect("no panics while locked"))
}

/// Everything decided for one file, with where it came from.
#[derive(Clone, Debug, Default)]
pub struct Resolved {
    pub targets: Vec<String>,
    pub targets_from: String,
    pub database: Option<PathBuf>,
    pub build: FileBuild,
    pub cccl: Option<(String, String)>,
}

/// Decides a file's build context (absolute, normalized path).
pub fn resolve(path: &Path, settings: &Settings) -> Resolved {
    let src = sources();
    let mut r = Resolved {
        targets_from: "inferred from the file (nothing else says)".into(),
        ..Resolved::default()
    };
    let set = |targets: Vec<String>, from: String, r: &mut Resolved| {
        if !targets.is_empty() {
            r.targets = targets;
            r.targets_from = from;
        }
    };
    let names = |e: &EnvTargets| e.targets.iter().map(target_name).collect::<Vec<_>>();
    for (var, list) in [
        ("CUDAARCHS", &src.cudaarchs),
        ("TORCH_CUDA_ARCH_LIST", &src.torch),
    ] {
        if let Some(list) = list {
            for n in &list.notes {
                src.say(n.clone());
            }
            set(names(list), format!("environment ({var})"), &mut r);
        }
    }
    let configured = settings.compile_commands.is_some();
    let db_path = settings
        .compile_commands
        .clone()
        .or_else(|| src.discover(path.parent().unwrap_or(path)));
    if let Some(db_path) = &db_path {
        if let Some(db) = &*src.database(db_path, configured) {
            if let Some((build, _)) = db.build_for(path) {
                let targets = build.targets.iter().map(target_name).collect();
                set(targets, build.targets_from.clone(), &mut r);
                r.build = build;
            }
        }
        r.database = Some(db_path.clone());
    }
    if let Some(from) = &settings.target_from {
        if from != "--target" {
            set(settings.options.targets.clone(), from.clone(), &mut r);
        }
    }
    if let Some((targets, from)) = settings.targets_for(path) {
        set(targets.to_vec(), from.to_string(), &mut r);
    }
    if settings.target_from.as_deref() == Some("--target") {
        set(settings.options.targets.clone(), "--target".into(), &mut r);
    }
    if let Some((v, from)) = &settings.cuda_version {
        r.build.cuda = CudaVersion::parse(v);
        r.build.cuda_from = from.clone();
    }
    if settings.options.cccl_version.is_none() {
        r.cccl = cccl_version(&r.build.include_dirs)
            .map(|(v, header)| (v, header.display().to_string()));
    }
    // The file's targets may come from elsewhere than the database: say where, for messages.
    r.build.targets_from = r.targets_from.clone();
    r
}

/// Puts a file's build context into the rules' options.
pub fn apply(options: &mut Options, path: &Path, settings: &Settings) {
    let r = resolve(path, settings);
    options.targets = r.targets;
    if let Some((v, _)) = r.cccl {
        options.cccl_version = Some(v);
    }
    options.build = Some(Arc::new(r.build));
}

/// What `--show-settings` adds for a file: the database and entry, the targets and where
/// they came from, the toolkit, the macros.
pub fn describe(path: &Path, settings: &Settings) -> String {
    let r = resolve(path, settings);
    let mut out = String::new();
    let q = |s: &str| toml::Value::String(s.to_string()).to_string();
    let list = |items: &[String]| {
        let inner: Vec<String> = items.iter().map(|s| q(s)).collect();
        format!("[{}]", inner.join(", "))
    };
    let _ = writeln!(out);
    let _ = writeln!(out, "[build]");
    let _ = writeln!(
        out,
        "compile-commands = {}",
        q(&r.database
            .as_ref()
            .map_or("none found".to_string(), |p| p.display().to_string()))
    );
    let _ = writeln!(out, "targets = {}", list(&r.targets));
    let _ = writeln!(out, "targets-from = {}", q(&r.targets_from));
    let _ = writeln!(out, "compilers = {}", list(&r.build.compilers));
    let cuda = r.build.cuda.unwrap_or(CudaVersion::DEFAULT);
    let _ = writeln!(out, "cuda-version = {}", q(&cuda.to_string()));
    let from = if r.build.cuda.is_some() {
        r.build.cuda_from.clone()
    } else {
        "default (nvcc 13.0)".into()
    };
    let _ = writeln!(out, "cuda-version-from = {}", q(&from));
    let _ = writeln!(
        out,
        "ptx-isa = {}",
        q(&format!("{}.{}", cuda.ptx_isa() / 10, cuda.ptx_isa() % 10))
    );
    let macros: Vec<String> = r
        .build
        .macros
        .iter()
        .flatten()
        .map(|m| match m {
            ptxguard_analyzer::build::MacroFlag::Define(n, v) => format!("-D{n}={v}"),
            ptxguard_analyzer::build::MacroFlag::Undef(n) => format!("-U{n}"),
        })
        .collect();
    let _ = writeln!(out, "macros = {}", list(&macros));
    if !r.build.macros_from.is_empty() {
        let _ = writeln!(out, "macros-from = {}", q(&r.build.macros_from));
    }
    let dirs: Vec<String> = r
        .build
        .include_dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    let _ = writeln!(out, "include-dirs = {}", list(&dirs));
    if let Some((v, from)) = &r.cccl {
        let _ = writeln!(out, "cccl-version = {} # from {}", q(v), from);
    }
    out
}
