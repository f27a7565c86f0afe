//! How each checked file is built: the targets, macros, include paths and toolkit from the
//! compilation database, the environment, the configuration and the build files, merged by
//! priority (lowest first): inference (in the rules), build files (`setup.py`, CMake,
//! Makefiles: only when nothing below says the targets), `CUDAARCHS`,
//! `TORCH_CUDA_ARCH_LIST`, the configuration (`target`, then `[targets]`), the database,
//! `--target`. A build file with variants gives a file one build per variant.

use crate::analysis::Run;
use crate::settings::Settings;
use ptxguard_analyzer::build::env::{cudaarchs, torch_cuda_arch_list, EnvTargets};
use ptxguard_analyzer::build::project::{ProjectBuild, VariantBuild};
use ptxguard_analyzer::build::toolkit::target_name;
use ptxguard_analyzer::build::{cccl_version, CudaVersion, Database, FileBuild};
use ptxguard_analyzer::context::{AnalysisContext, HeaderCache};
use ptxguard_analyzer::isa::Target;
use ptxguard_rules::Options;
use std::collections::{HashMap, HashSet};
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
    /// Build files read (by path), and each folder's candidates, nearest first.
    build_files: Mutex<HashMap<PathBuf, Arc<OnceLock<Arc<ProjectBuild>>>>>,
    build_file_candidates: Mutex<HashMap<PathBuf, Candidates>>,
    /// The functions each compiled file calls outside any `#if`, read once.
    unguarded_calls: Mutex<HashMap<PathBuf, Arc<HashSet<String>>>>,
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

/// A folder's build files and its parents', nearest first.
type Candidates = Arc<Vec<(BuildFileKind, PathBuf)>>;

/// The kinds of build file read for targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BuildFileKind {
    SetupPy,
    CMake,
    Makefile,
}

impl Sources {
    /// The build files that may compile files of `dir`: those of the folder and of each
    /// parent, nearest first (cached per folder).
    fn build_file_candidates(&self, dir: &Path) -> Candidates {
        let mut chain: Vec<PathBuf> = Vec::new();
        let mut tail: Candidates = Arc::new(Vec::new());
        let mut at = Some(dir);
        while let Some(d) = at {
            if let Some(hit) = self
                .build_file_candidates
                .lock()
                .expect("no panics while locked")
                .get(d)
            {
                tail = hit.clone();
                break;
            }
            chain.push(d.to_path_buf());
            at = d.parent();
        }
        let mut cache = self
            .build_file_candidates
            .lock()
            .expect("no panics while locked");
        for d in chain.into_iter().rev() {
            let mut list = build_files_in(&d);
            list.extend(tail.iter().cloned());
            let list = Arc::new(list);
            cache.insert(d, list.clone());
            tail = list;
        }
        tail
    }

    /// A build file, read once for the toolkit `cuda` (threads that ask for it meanwhile
    /// wait for that one reading).
    fn build_file(&self, kind: BuildFileKind, path: &Path, cuda: CudaVersion) -> Arc<ProjectBuild> {
        let cell = self
            .build_files
            .lock()
            .expect("no panics while locked")
            .entry(path.to_path_buf())
            .or_default()
            .clone();
        cell.get_or_init(|| {
            Arc::new(match kind {
                BuildFileKind::SetupPy => ptxguard_analyzer::build::setup_py::read(path),
                BuildFileKind::CMake => ptxguard_analyzer::build::cmake::read(path, cuda),
                BuildFileKind::Makefile => ptxguard_analyzer::build::makefile::read(path),
            })
        })
        .clone()
    }

    /// What the nearest build file that compiles `path` with known targets says, one build
    /// per variant; empty when none does, then with why nvcc builds nothing there when the
    /// nearest build file without builds of it says (a HIP-only CMake project).
    fn build_files_say(
        &self,
        path: &Path,
        cuda: CudaVersion,
    ) -> (Vec<VariantBuild>, Option<String>) {
        let dir = path.parent().unwrap_or(path);
        let mut not_for_nvidia = None;
        for (kind, file) in self.build_file_candidates(dir).iter() {
            let project = self.build_file(*kind, file, cuda);
            let builds: Vec<VariantBuild> = project
                .builds_for(path)
                .into_iter()
                .filter(|b| !b.build.targets.is_empty())
                .collect();
            if builds.is_empty() {
                // A HIP-only project says why nvcc builds nothing, unless a build file
                // further up builds the file.
                if not_for_nvidia.is_none() {
                    not_for_nvidia = project.not_for_nvidia.clone();
                }
                continue;
            }
            let shown = project.notes.len().min(5);
            for n in &project.notes[..shown] {
                self.say(n.clone());
            }
            if project.notes.len() > shown {
                self.say(format!(
                    "{}: {} more things not read",
                    project.path.display(),
                    project.notes.len() - shown
                ));
            }
            return (builds, None);
        }
        (Vec::new(), not_for_nvidia)
    }
}

/// A header's includers read for their calls: at most this many (more, and the header's
/// helpers count as compiled, as with a database).
const MAX_INCLUDERS_READ: usize = 256;

impl Sources {
    /// The functions `file` calls outside any `#if` (read once, bounded).
    fn unguarded_calls(&self, file: &Path) -> Arc<HashSet<String>> {
        if let Some(c) = self
            .unguarded_calls
            .lock()
            .expect("no panics while locked")
            .get(file)
        {
            return c.clone();
        }
        let mut notes = Vec::new();
        let calls = Arc::new(
            ptxguard_analyzer::build::project::read_bounded(file, &mut notes)
                .map(|t| ptxguard_analyzer::build::project::unguarded_calls(&t))
                .unwrap_or_default(),
        );
        self.unguarded_calls
            .lock()
            .expect("no panics while locked")
            .insert(file.to_path_buf(), calls.clone());
        calls
    }

    /// For a header built through its includers: per target, what the includers built for
    /// it call outside any `#if`.
    fn called_by_includers(
        &self,
        includers: &[(PathBuf, Vec<ptxguard_analyzer::isa::Target>)],
    ) -> Option<Arc<ptxguard_analyzer::build::CallsByTarget>> {
        if includers.is_empty() || includers.len() > MAX_INCLUDERS_READ {
            return None;
        }
        let mut by_target = ptxguard_analyzer::build::CallsByTarget::new();
        for (f, targets) in includers {
            let calls = self.unguarded_calls(f);
            for t in targets {
                by_target
                    .entry(*t)
                    .or_default()
                    .extend(calls.iter().cloned());
            }
        }
        Some(Arc::new(by_target))
    }
}

/// The build files of one folder: `setup.py`, a `CMakeLists.txt` that starts a project
/// (its parent has none, or it calls `project()`), a `Makefile`.
fn build_files_in(dir: &Path) -> Vec<(BuildFileKind, PathBuf)> {
    let mut out = Vec::new();
    let setup = dir.join("setup.py");
    if setup.is_file() {
        out.push((BuildFileKind::SetupPy, setup));
    }
    let cmake = dir.join("CMakeLists.txt");
    if cmake.is_file() {
        let parent_has = dir
            .parent()
            .is_some_and(|p| p.join("CMakeLists.txt").is_file());
        let starts_project = || ptxguard_analyzer::build::cmake::mentions_project(&cmake);
        if !parent_has || starts_project() {
            out.push((BuildFileKind::CMake, cmake));
        }
    }
    for name in ["GNUmakefile", "makefile", "Makefile"] {
        let make = dir.join(name);
        if make.is_file() {
            out.push((BuildFileKind::Makefile, make));
            break;
        }
    }
    out
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

/// The names of the files a build context is read from (databases and build files): the
/// language server watches them and forgets what it read when one changes.
pub const BUILD_FILE_NAMES: &[&str] = &[
    "compile_commands.json",
    "setup.py",
    "CMakeLists.txt",
    "CMakePresets.json",
    "Makefile",
    "makefile",
    "GNUmakefile",
];

/// Forgets every compilation database and build file read, and what was found where: the
/// next check reads them again (the language server calls it when one of them changes).
pub fn forget_build_files() {
    let s = sources();
    clear_map(&s.databases);
    clear_map(&s.discovered);
    clear_map(&s.build_files);
    clear_map(&s.build_file_candidates);
    clear_map(&s.unguarded_calls);
    ptxguard_analyzer::build::cmake::forget_parsed();
}

fn clear_map<V>(m: &Mutex<HashMap<PathBuf, V>>) {
    if let Ok(mut m) = m.lock() {
        m.clear();
    }
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
    pub targets: Vec<Target>,
    pub targets_from: String,
    pub database: Option<PathBuf>,
    pub build: FileBuild,
    pub cccl: Option<(String, String)>,
    /// When the targets come from a build file with variants that build the file
    /// differently: each variant's build (`build` is then their union).
    pub variants: Vec<VariantBuild>,
}

/// Decides a file's build context (absolute, normalized path).
pub fn resolve(path: &Path, settings: &Settings) -> Resolved {
    let src = sources();
    let mut r = Resolved {
        targets_from: "inferred from the file (nothing else says)".into(),
        ..Resolved::default()
    };
    let set = |targets: Vec<Target>, from: String, r: &mut Resolved| {
        if !targets.is_empty() {
            r.targets = targets;
            r.targets_from = from;
        }
    };
    for (var, list) in [
        ("CUDAARCHS", &src.cudaarchs),
        ("TORCH_CUDA_ARCH_LIST", &src.torch),
    ] {
        if let Some(list) = list {
            for n in &list.notes {
                src.say(n.clone());
            }
            set(list.targets.clone(), format!("environment ({var})"), &mut r);
        }
    }
    // The configuration says what the project means to build; a database entry says what a
    // build of this file really compiles: it wins (as in clangd).
    if let Some(from) = &settings.target_from {
        if from != "--target" {
            set(settings.targets.clone(), from.clone(), &mut r);
        }
    }
    if let Some((targets, from)) = settings.targets_for(path) {
        set(targets.to_vec(), from.to_string(), &mut r);
    }
    let configured = settings.compile_commands.is_some();
    let db_path = settings
        .compile_commands
        .clone()
        .or_else(|| src.discover(path.parent().unwrap_or(path)));
    if let Some(db_path) = &db_path {
        if let Some(db) = &*src.database(db_path, configured) {
            if let Some((build, _)) = db.build_for(path) {
                set(build.targets.clone(), build.targets_from.clone(), &mut r);
                r.build = build;
            }
        }
        r.database = Some(db_path.clone());
    }
    if settings.target_from.as_deref() == Some("--target") {
        set(settings.targets.clone(), "--target".into(), &mut r);
    }
    // A Python file is no build file's unit and no unit includes it (its C++ strings are
    // compiled at run time): its build files are not read.
    let python = ptxguard_analyzer::source::Language::of_path(path).is_python();
    if r.targets.is_empty() && !python {
        // Targets the toolkit cannot compile for (`sm_60` under CUDA 13, from a branch of the
        // script for older toolkits) are no build of this one.
        let cuda = settings
            .cuda_version
            .as_ref()
            .and_then(|(v, _)| CudaVersion::parse(v))
            .unwrap_or(CudaVersion::DEFAULT);
        let (mut builds, not_for_nvidia) = src.build_files_say(path, cuda);
        r.build.not_for_nvidia = not_for_nvidia;
        for b in &mut builds {
            b.build.targets.retain(|t| cuda.supports(t));
            b.build.called_by_includers = src.called_by_includers(&b.includers);
        }
        builds.retain(|b| !b.build.targets.is_empty());
        match builds.as_slice() {
            [] => {}
            [one] => {
                r.targets = one.build.targets.clone();
                r.targets_from = one.build.targets_from.clone();
                r.build = one.build.clone();
            }
            several => {
                let mut union = several[0].build.clone();
                for b in &several[1..] {
                    union.targets.extend(b.build.targets.iter().copied());
                    if union.macros != b.build.macros {
                        union.macros = None;
                    }
                }
                union.targets.sort_by_key(|t| (t.sm, t.suffix));
                union.targets.dedup();
                r.targets = union.targets.clone();
                r.targets_from = format!(
                    "{} variants: {}",
                    several.len(),
                    several
                        .iter()
                        .map(|b| b.build.targets_from.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                );
                union.targets_from = r.targets_from.clone();
                r.build = union;
                r.variants = builds;
            }
        }
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

/// A file's build context (the union of a build file's variants: a branch one variant
/// compiles is not declared dead), with the CCCL version it finds put in `options`.
pub fn context(
    options: &mut Options,
    path: &Path,
    settings: &Settings,
    headers: &HeaderCache,
) -> AnalysisContext {
    let r = resolve(path, settings);
    if let Some((v, _)) = r.cccl {
        options.cccl_version = Some(v);
    }
    AnalysisContext {
        targets: r.targets,
        build: Some(Arc::new(r.build)),
        headers: headers.clone(),
    }
}

/// The rules' runs for each way the file is built: one, or one per build variant (with
/// the variant's name and build file).
pub fn variant_runs(
    options: &Options,
    path: &Path,
    settings: &Settings,
    headers: &HeaderCache,
) -> Vec<Run> {
    let r = resolve(path, settings);
    let mut base = options.clone();
    if let Some((v, _)) = &r.cccl {
        base.cccl_version = Some(v.clone());
    }
    if r.variants.is_empty() {
        let context = AnalysisContext {
            targets: r.targets,
            build: Some(Arc::new(r.build)),
            headers: headers.clone(),
        };
        return vec![Run {
            variant: None,
            context,
            options: base,
        }];
    }
    r.variants
        .into_iter()
        .map(|v| {
            let targets = v.build.targets.clone();
            let mut build = v.build;
            build.cuda = r.build.cuda;
            build.cuda_from = r.build.cuda_from.clone();
            let here = std::env::current_dir().unwrap_or_default();
            let file = v.build_file.strip_prefix(&here).unwrap_or(&v.build_file);
            let mut what: Vec<String> = build.targets.iter().map(target_name).collect();
            what.extend(macro_words(&build));
            let name = format!("{} of {} ({})", v.variant, file.display(), what.join(" "));
            Run {
                variant: Some(name),
                context: AnalysisContext {
                    targets,
                    build: Some(Arc::new(build)),
                    headers: headers.clone(),
                },
                options: base.clone(),
            }
        })
        .collect()
}

/// `-DX=1`, `-UY`: a build's macros as flags.
pub(crate) fn macro_words(build: &FileBuild) -> Vec<String> {
    build
        .macros
        .iter()
        .flatten()
        .map(|m| match m {
            ptxguard_analyzer::build::MacroFlag::Define(n, v) => format!("-D{n}={v}"),
            ptxguard_analyzer::build::MacroFlag::Undef(n) => format!("-U{n}"),
        })
        .collect()
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
    let targets: Vec<String> = r.targets.iter().map(target_name).collect();
    let _ = writeln!(out, "targets = {}", list(&targets));
    let _ = writeln!(out, "targets-from = {}", q(&r.targets_from));
    let _ = writeln!(out, "compilers = {}", list(&r.build.compilers));
    if let Some(why) = &r.build.not_for_nvidia {
        let _ = writeln!(out, "not-for-nvidia = {}", q(why));
    }
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
    let _ = writeln!(out, "macros = {}", list(&macro_words(&r.build)));
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
    // Each build variant the file is checked under.
    for v in &r.variants {
        let targets: Vec<String> = v.build.targets.iter().map(target_name).collect();
        let _ = writeln!(out);
        let _ = writeln!(out, "[[build.variant]]");
        let _ = writeln!(out, "name = {}", q(&v.variant));
        let _ = writeln!(out, "targets = {}", list(&targets));
        let _ = writeln!(out, "targets-from = {}", q(&v.build.targets_from));
        let _ = writeln!(out, "macros = {}", list(&macro_words(&v.build)));
    }
    out
}

/// The compilation database that covers a file (as `check` finds it: configured, else
/// discovered from its folder), read once.
pub fn database_for(path: &Path, configured: Option<&Path>) -> Option<Arc<Option<Database>>> {
    let src = sources();
    let db_path = configured
        .map(Path::to_path_buf)
        .or_else(|| src.discover(path.parent().unwrap_or(path)))?;
    Some(src.database(&db_path, configured.is_some()))
}
