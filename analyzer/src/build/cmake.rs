//! CMake projects read statically: `CMAKE_CUDA_ARCHITECTURES` (set in a `CMakeLists.txt` or
//! a preset's cache variables), the `CUDA_ARCHITECTURES` target property, `-gencode`/`-arch`
//! in `CMAKE_CUDA_FLAGS` and compile options, compile definitions, include folders, and the
//! sources of each target (`add_library`, `add_executable`, `target_sources`, `file(GLOB)`),
//! each source file's own options and definitions (see [`SourceProps`]), following
//! `add_subdirectory` and `include` of project files.
//!
//! Nothing is configured or run. Variables are expanded (`${X}`); `if()` conditions are
//! decided only on known values (see [`condition`]): otherwise every branch is read, the
//! architectures and flags of any branch count (the build may use them) and the definitions
//! made inside a branch are dropped (unknown, never assumed). A `foreach` over known items is
//! unrolled, bounded; an undecided `if()` inside it makes the loop variables unknown there (it
//! may filter the items). Function and macro bodies are not followed. A target's
//! architectures are `CMAKE_CUDA_ARCHITECTURES` as it stands where the target is created, as
//! CMake does.

use super::env::cudaarchs;
use super::flags::{shell_words, CompileFlags, MacroFlag};
use super::normalize;
use super::project::{
    glob, is_compiled_source, is_cuda_source, nvcc_flags, read_bounded, ProjectBuild, Unit, Variant,
};
use super::toolkit::CudaVersion;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// At most this many CMake files are read for one project.
const MAX_FILES: usize = 512;
/// `add_subdirectory`/`include` nesting followed.
const MAX_NESTING: usize = 32;
/// Variable references replaced in one argument (`${${X}}` and variables naming variables
/// count each), and the longest an expanded argument may grow.
const MAX_EXPANSIONS: usize = 256;
const MAX_EXPANDED_BYTES: usize = 64 * 1024;

/// The value of something not known here (a `foreach` variable): whatever holds it is
/// unknown too (a target whose architectures hold it has no known targets).
const UNKNOWN: &str = "\u{1}";

/// A variable's value longer than this is unknown: what a build file really sets is far
/// shorter, and a value built from itself could otherwise double with every command.
const MAX_VALUE_BYTES: usize = 1 << 20;

/// A target name as the user reads it: a part whose value is not known here (a loop variable
/// under an undecided `if`) shows as `…`, never as the marker character.
fn shown_name(name: &str) -> String {
    name.replace(UNKNOWN, "…")
}

/// Reads the CMake project whose top `CMakeLists.txt` is `path`, for the toolkit `cuda`
/// (`CMAKE_CUDA_COMPILER_VERSION`, `CUDAToolkit_VERSION`...: `if()`s comparing them are
/// decided).
pub fn read(path: &Path, cuda: CudaVersion) -> ProjectBuild {
    let root = path.parent().unwrap_or(Path::new("/")).to_path_buf();
    let mut r = Reader::new(presets(&root));
    let mut scope = Scope::default();
    for (k, v) in [
        ("CMAKE_SOURCE_DIR", &root),
        ("PROJECT_SOURCE_DIR", &root),
        ("CMAKE_CURRENT_LIST_DIR", &root),
        ("CMAKE_CURRENT_SOURCE_DIR", &root),
    ] {
        scope.put(k, v.display().to_string());
    }
    // The toolkit's version under every name a project compares: the compiler's, and what
    // `find_package(CUDAToolkit)` (and the older `find_package(CUDA)`) set.
    let version = format!("{}.{}", cuda.major, cuda.minor);
    for name in [
        "CMAKE_CUDA_COMPILER_VERSION",
        "CUDAToolkit_VERSION",
        "CUDA_VERSION",
        "CUDA_VERSION_STRING",
    ] {
        scope.put(name, version.clone());
    }
    for (name, value) in [
        ("CUDAToolkit_VERSION_MAJOR", cuda.major),
        ("CUDAToolkit_VERSION_MINOR", cuda.minor),
        ("CUDA_VERSION_MAJOR", cuda.major),
        ("CUDA_VERSION_MINOR", cuda.minor),
    ] {
        scope.put(name, value.to_string());
    }
    if let Some(a) = &r.preset_archs {
        scope
            .vars
            .insert("CMAKE_CUDA_ARCHITECTURES".into(), a.clone());
    }
    r.directory(path, &mut scope, 0);
    let units = r.units();
    // A `.cu` source compiled by a target is CUDA.
    let languages = GpuLanguages {
        cuda: r.languages.cuda || !units.is_empty(),
        ..r.languages
    };
    let mut project = ProjectBuild::new(
        path,
        vec![Variant {
            name: String::new(),
            units,
        }],
        r.notes,
    );
    if languages.hip && !languages.cuda {
        project.not_for_nvidia = Some(format!(
            "{} builds with HIP and never with CUDA (no CUDA language, package or `.cu` source): nvcc compiles none of its files",
            path.display()
        ));
    }
    project
}

/// `CMAKE_CUDA_ARCHITECTURES` of the configure presets (`CMakePresets.json`,
/// `CMakeUserPresets.json`), all of them together.
fn presets(root: &Path) -> Option<String> {
    let mut all: Vec<String> = Vec::new();
    for name in ["CMakePresets.json", "CMakeUserPresets.json"] {
        let mut notes = Vec::new();
        let path = root.join(name);
        if !path.is_file() {
            continue;
        }
        let Some(text) = read_bounded(&path, &mut notes) else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        for preset in json["configurePresets"].as_array().into_iter().flatten() {
            let v = &preset["cacheVariables"]["CMAKE_CUDA_ARCHITECTURES"];
            let v = v.as_str().or_else(|| v["value"].as_str());
            if let Some(v) = v {
                if !v.contains("${") {
                    all.push(v.to_string());
                }
            }
        }
    }
    (!all.is_empty()).then(|| all.join(";"))
}

/// What a directory's commands see: variables, and the directory-wide options. Variables
/// are changed only through its methods, which note what a subdirectory changes.
#[derive(Default)]
struct Scope {
    vars: HashMap<String, String>,
    /// `add_compile_options`, `add_definitions`, `add_compile_definitions`,
    /// `include_directories` (definitions as `-DX` words), each with whether it is certain.
    options: Vec<(String, bool)>,
    /// Inside this many `if()`/`foreach()` blocks.
    uncertain: usize,
    /// Variables set under conditions that may not hold: their value is one of several
    /// (conditions on them are not decided).
    uncertain_vars: std::collections::HashSet<String>,
    /// While a subdirectory is read in this scope: what it changes, put back after (a copy
    /// of every variable for each of CCCL's hundreds of folders was a quarter of the time).
    undo: Option<Undo>,
}

/// Each variable changed, once, with its value and whether it was uncertain before.
#[derive(Default)]
struct Undo {
    vars: Vec<(String, Option<String>, bool)>,
    seen: std::collections::HashSet<String>,
}

impl Scope {
    fn remember(&mut self, var: &str) {
        if let Some(undo) = &mut self.undo {
            if !undo.seen.contains(var) {
                undo.seen.insert(var.to_string());
                undo.vars.push((
                    var.to_string(),
                    self.vars.get(var).cloned(),
                    self.uncertain_vars.contains(var),
                ));
            }
        }
    }

    /// Sets a variable; its old value.
    fn put(&mut self, var: &str, value: String) -> Option<String> {
        self.remember(var);
        self.vars.insert(var.to_string(), value)
    }

    fn unset(&mut self, var: &str) {
        self.remember(var);
        self.vars.remove(var);
    }

    /// A variable's value to change in place (empty when it was not set).
    fn value_mut(&mut self, var: &str) -> &mut String {
        self.remember(var);
        self.vars.entry(var.to_string()).or_default()
    }

    fn mark_uncertain(&mut self, var: &str) {
        self.remember(var);
        self.uncertain_vars.insert(var.to_string());
    }

    fn mark_certain(&mut self, var: &str) {
        self.remember(var);
        self.uncertain_vars.remove(var);
    }

    /// Reads the subdirectory `list` (its folder `dir`) in this scope, as in a copy of it:
    /// what it changes is put back after.
    fn in_subdirectory(&mut self, dir: &Path, certain: bool, read: impl FnOnce(&mut Scope)) {
        let saved_options = self.options.clone();
        let saved_uncertain = self.uncertain;
        let outer = self.undo.replace(Undo::default());
        let d = dir.display().to_string();
        self.put("CMAKE_CURRENT_SOURCE_DIR", d.clone());
        self.put("CMAKE_CURRENT_LIST_DIR", d);
        self.uncertain = 0;
        // A subdirectory added under an `if()` may not be built: its definitions are not
        // certain.
        if !certain {
            for o in &mut self.options {
                o.1 = false;
            }
            self.uncertain = 1;
        }
        read(self);
        let undo = std::mem::replace(&mut self.undo, outer).unwrap_or_default();
        for (var, value, uncertain) in undo.vars.into_iter().rev() {
            match value {
                Some(v) => self.vars.insert(var.clone(), v),
                None => self.vars.remove(&var),
            };
            if uncertain {
                self.uncertain_vars.insert(var);
            } else {
                self.uncertain_vars.remove(&var);
            }
        }
        self.options = saved_options;
        self.uncertain = saved_uncertain;
    }
}

#[derive(Default)]
struct Target {
    name: String,
    dir: PathBuf,
    sources: Vec<PathBuf>,
    /// `CUDA_ARCHITECTURES`: from the variable at creation, or the property.
    archs: Vec<String>,
    /// Compile options and definitions (`-DX`) as words, with whether each is certain.
    words: Vec<(String, bool)>,
    cuda_flags: String,
    /// The architectures depend on something not known here.
    archs_unknown: bool,
}

struct Reader {
    targets: Vec<Target>,
    by_name: HashMap<String, usize>,
    files: usize,
    notes: Vec<String>,
    preset_archs: Option<String>,
    /// Source file properties, by (the folder whose targets see them, the file).
    source_props: HashMap<(PathBuf, PathBuf), SourceProps>,
    /// Commands loops may still run (item by item) in this project.
    loop_budget: usize,
    /// Which GPU languages the project may build with: CUDA (`project(... CUDA)`,
    /// `enable_language(CUDA)`, `find_package(CUDA|CUDAToolkit)`, `CUDA::` libraries,
    /// `cuda_add_*`, a `.cu` source) and HIP (the same for `HIP`/`hip`, `hip::device`).
    languages: GpuLanguages,
}

/// Whether a command's `LANGUAGE` value is written through a variable (`LANGUAGE ${LANG}`).
fn language_from_variable(args: &[(String, bool)]) -> bool {
    args.windows(2)
        .any(|w| w[0].0 == "LANGUAGE" && w[1].0.contains("${"))
}

/// The GPU languages a CMake project names (in any branch it may take).
#[derive(Default, Clone, Copy)]
struct GpuLanguages {
    cuda: bool,
    hip: bool,
}

impl GpuLanguages {
    /// What one command (its name and its arguments as written) says.
    fn note(&mut self, name: &str, args: &[(String, bool)]) {
        let words = || args.iter().map(|(a, _)| a.as_str());
        match name {
            "project" | "enable_language" => {
                // A language named through a variable may be CUDA.
                self.cuda |= words().any(|a| a == "CUDA" || a.contains("${"));
                self.hip |= words().any(|a| a == "HIP");
            }
            "find_package" => match words().next() {
                Some("CUDA" | "CUDAToolkit") => self.cuda = true,
                Some("hip" | "HIP") => self.hip = true,
                _ => {}
            },
            "target_link_libraries" => {
                self.cuda |= words().any(|a| a.starts_with("CUDA::"));
                self.hip |= words().any(|a| a.starts_with("hip::device"));
            }
            "cuda_add_library" | "cuda_add_executable" => self.cuda = true,
            "set_source_files_properties" | "set_property" => {
                let mut it = words();
                while it.by_ref().any(|a| a == "LANGUAGE") {
                    match it.next() {
                        Some("HIP") => self.hip = true,
                        // `CUDA`, or a language named through a variable.
                        Some(other) if other == "CUDA" || other.contains("${") => self.cuda = true,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        // HIP on NVIDIA GPUs (`CMAKE_HIP_PLATFORM nvidia`, `HIP_PLATFORM=nvidia`) compiles
        // with nvcc.
        if words().any(|a| a.contains("HIP_PLATFORM"))
            && words().any(|a| {
                let a = a.to_ascii_lowercase();
                a.contains("nvidia") || a.contains("nvcc")
            })
        {
            self.cuda = true;
        }
    }
}

/// A source file's own `COMPILE_OPTIONS`/`COMPILE_FLAGS` and `COMPILE_DEFINITIONS`: CMake
/// puts them on that file's command after the target's (measured with CMake 4.4 and nvcc
/// 13.0, `gpu-tests/measure/cmake-per-source.sh`: the target's
/// `--generate-code=arch=compute_90,...` then the file's `--generate-code=arch=compute_80,...`
/// or `-arch=sm_80`, and nvcc builds each of them; the definitions with the target's `-D`s).
#[derive(Default)]
struct SourceProps {
    /// Option words, each with whether it is certain.
    options: Vec<(String, bool)>,
    /// Definitions as `-DX` words, each with whether it is certain.
    definitions: Vec<(String, bool)>,
    /// Its `LANGUAGE` values (`CUDA`, `CXX`), each with whether it is certain.
    language: Vec<(String, bool)>,
}

impl SourceProps {
    /// Whether a `LANGUAGE` value says which compiler builds the file: `Some(true)` for nvcc
    /// (`CUDA` in any branch), `Some(false)` for a certain other language, `None` unsaid.
    fn compiled_as_cuda(&self) -> Option<bool> {
        // A value may be a list (`HIP;CUDA`: `set()` under `if`/`else`) or unknown (a
        // variable the project does not set): only known values decide against CUDA.
        let values = || {
            self.language
                .iter()
                .flat_map(|(l, certain)| l.split(';').map(move |v| (v.trim(), *certain)))
        };
        if values().any(|(v, _)| v == "CUDA") {
            return Some(true);
        }
        if values().any(|(v, _)| v.is_empty() || v.contains(UNKNOWN)) {
            return None;
        }
        values().any(|(_, certain)| certain).then_some(false)
    }
}

/// An `if()` or loop frame: `holds` `Some(false)` skips, `None` may or may not hold (a loop
/// not unrolled: the body once, its variable unknown); `held`: a branch held already;
/// `may_have_held`: an earlier branch may have held. `hidden`: loop variables made unknown
/// inside it, with the values to restore.
struct Frame {
    holds: Option<bool>,
    held: bool,
    may_have_held: bool,
    hidden: Vec<(String, Option<String>)>,
}

/// A loop's items, and whether the loop surely runs over each (its list was not set under
/// an undecided condition).
struct LoopItems {
    var: String,
    values: Vec<String>,
    certain: bool,
}

/// At most this many items in one unrolled loop, and this many commands run by loops in one
/// project: beyond, a loop's body is read once with its variable unknown.
const MAX_LOOP_ITEMS: usize = 4096;
const MAX_LOOP_COMMANDS: usize = 50_000;
/// Loops nested deeper than this are not unrolled.
const MAX_LOOP_DEPTH: usize = 8;

/// One command: its name (lower case) and its arguments, unexpanded, with whether each was
/// quoted.
#[derive(Debug)]
struct Command {
    name: String,
    args: Vec<(String, bool)>,
}

impl Reader {
    /// A reader with nothing read yet; `preset_archs`: the configure presets' architectures.
    fn new(preset_archs: Option<String>) -> Reader {
        Reader {
            targets: Vec::new(),
            by_name: HashMap::new(),
            files: 0,
            notes: Vec::new(),
            preset_archs,
            source_props: HashMap::new(),
            loop_budget: MAX_LOOP_COMMANDS,
            languages: GpuLanguages::default(),
        }
    }

    /// Reads one `CMakeLists.txt` (or included file) in `scope`.
    fn directory(&mut self, file: &Path, scope: &mut Scope, nesting: usize) {
        if nesting > MAX_NESTING {
            return;
        }
        if self.files >= MAX_FILES {
            if self.files == MAX_FILES {
                self.notes.push(format!(
                    "more than {MAX_FILES} CMake files: the rest are not read"
                ));
                self.files += 1;
            }
            return;
        }
        self.files += 1;
        let parsed = parsed(file);
        self.notes.extend(parsed.notes.iter().cloned());
        let Some(commands) = &parsed.commands else {
            return;
        };
        let dir = file.parent().unwrap_or(Path::new("/")).to_path_buf();
        self.run(commands, &dir, scope, nesting, &[]);
    }

    /// Runs `commands` (a file's, or a loop body's once per item) in `scope`. `loop_vars`:
    /// the variables of the loops iterated around them.
    fn run(
        &mut self,
        commands: &[Command],
        dir: &Path,
        scope: &mut Scope,
        nesting: usize,
        loop_vars: &[String],
    ) {
        let dir = dir.to_path_buf();
        // Function and macro bodies are skipped (depth of `function`...`endfunction`).
        let mut in_function = 0usize;
        // `if()` and unrolled-loop frames of these commands.
        let mut frames: Vec<Frame> = Vec::new();
        let outer_uncertain = scope.uncertain;
        let mut at = 0;
        while at < commands.len() {
            let cmd = &commands[at];
            at += 1;
            let name = cmd.name.as_str();
            match name {
                "function" | "macro" => {
                    in_function += 1;
                    continue;
                }
                "endfunction" | "endmacro" => {
                    in_function = in_function.saturating_sub(1);
                    continue;
                }
                _ if in_function > 0 => continue,
                _ => {}
            }
            let skipping = frames.iter().any(|f| f.holds == Some(false));
            match name {
                "if" => {
                    let taken = if skipping {
                        Some(false)
                    } else {
                        condition(&cmd.args, scope)
                    };
                    let mut frame = Frame {
                        holds: taken,
                        held: taken == Some(true),
                        may_have_held: false,
                        hidden: Vec::new(),
                    };
                    // An undecided condition in an unrolled loop (`if(arch MATCHES "^90")`,
                    // `if(POS GREATER -1)` after a `string(FIND)` on the item) may filter
                    // the items: inside it the loop variables are unknown, so what it
                    // gathers is unknown, never every item.
                    if taken.is_none() {
                        for v in loop_vars {
                            let old = scope.put(v, UNKNOWN.to_string());
                            frame.hidden.push((v.clone(), old));
                        }
                    }
                    frames.push(frame);
                }
                "elseif" | "else" => {
                    let parent_skips = frames.len() > 1
                        && frames[..frames.len() - 1]
                            .iter()
                            .any(|f| f.holds == Some(false));
                    if let Some(top) = frames.last_mut() {
                        top.may_have_held |= top.holds.is_none();
                        let next = if top.held || parent_skips {
                            Some(false)
                        } else {
                            let holds = if name == "elseif" {
                                condition(&cmd.args, scope)
                            } else {
                                Some(true)
                            };
                            // After a branch that may have held, this one may not.
                            match holds {
                                Some(true) if top.may_have_held => None,
                                h => h,
                            }
                        };
                        top.held |= next == Some(true);
                        top.holds = next;
                    }
                }
                "foreach" | "while" => {
                    if name == "foreach" && !skipping {
                        let end = loop_end(commands, at);
                        let body = &commands[at..end];
                        // A body with nothing read here (CCCL's call a function per test
                        // file) is skipped: its list (a glob of 900 folders) is not walked.
                        if !body_matters(body) {
                            at = (end + 1).min(commands.len());
                            continue;
                        }
                        if let Some(items) = self.loop_items(cmd, scope, body.len(), loop_vars) {
                            let var = items.var;
                            let old = scope.vars.get(&var).cloned();
                            let mut inner = loop_vars.to_vec();
                            inner.push(var.clone());
                            let was = scope.uncertain;
                            // Items of a list set under conditions may not be in it.
                            if !items.certain {
                                scope.uncertain += 1;
                            }
                            for item in items.values {
                                scope.put(&var, item);
                                self.run(body, &dir, scope, nesting, &inner);
                            }
                            scope.uncertain = was;
                            match old {
                                Some(v) => {
                                    scope.put(&var, v);
                                }
                                None => scope.unset(&var),
                            }
                            at = (end + 1).min(commands.len());
                            continue;
                        }
                        // The loop variable's value is not known: the body once.
                        if let Some((var, _)) = cmd.args.first() {
                            scope.put(var, UNKNOWN.to_string());
                        }
                    }
                    frames.push(Frame {
                        holds: if skipping { Some(false) } else { None },
                        held: false,
                        may_have_held: false,
                        hidden: Vec::new(),
                    });
                }
                "endif" | "endforeach" | "endwhile" => {
                    if let Some(f) = frames.pop() {
                        restore(scope, f.hidden);
                    }
                }
                _ => {
                    if skipping {
                        continue;
                    }
                }
            }
            scope.uncertain = outer_uncertain + frames.iter().filter(|f| f.holds.is_none()).count();
            if matches!(
                name,
                "if" | "elseif"
                    | "else"
                    | "endif"
                    | "foreach"
                    | "endforeach"
                    | "while"
                    | "endwhile"
            ) {
                continue;
            }
            self.languages.note(name, &cmd.args);
            // Most commands (messages, installs, function calls...) are not read here: their
            // arguments are not expanded (a glob they name is not walked).
            if !ACTED_ON.contains(&name) {
                continue;
            }
            let args = self.expand_args(&cmd.args, scope);
            let certain = scope.uncertain == 0;
            match name {
                "set" => {
                    let Some((var, values)) = args.split_first() else {
                        continue;
                    };
                    let values: Vec<&String> = values
                        .iter()
                        .take_while(|v| !matches!(v.as_str(), "CACHE" | "PARENT_SCOPE"))
                        .collect();
                    let value = values
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(";");
                    self.set(scope, var, value);
                }
                "list" if args.first().map(String::as_str) == Some("APPEND") => {
                    if let Some(var) = args.get(1) {
                        // Appended in place: a list grown item by item is not copied each time.
                        let value = scope.value_mut(var);
                        if value.contains(GLOB_MARK) {
                            *value = globbed(value).into_owned();
                        }
                        for a in &args[2..] {
                            if !value.is_empty() {
                                value.push(';');
                            }
                            value.push_str(a);
                        }
                        if !certain {
                            scope.mark_uncertain(var);
                        }
                    }
                }
                "list" if args.first().map(String::as_str) == Some("FIND") => {
                    // list(FIND L item out): on L's value as read here (the one its targets
                    // come from), so lists split out of it agree with those targets.
                    if let (Some(var), Some(item), Some(out)) =
                        (args.get(1), args.get(2), args.get(3))
                    {
                        let value = value_of(scope, var);
                        let index = if value.contains(UNKNOWN) {
                            UNKNOWN.to_string()
                        } else {
                            value
                                .split(';')
                                .position(|v| v == item)
                                .map_or("-1".to_string(), |i| i.to_string())
                        };
                        self.set(scope, out, index);
                    }
                }
                "list" if args.first().map(String::as_str) == Some("REMOVE_ITEM") => {
                    // Under an undecided `if()` the items may stay: kept (the union).
                    if let Some(var) = args.get(1).filter(|_| certain) {
                        let value = value_of(scope, var);
                        let kept: Vec<&str> = value
                            .split(';')
                            .filter(|v| !v.is_empty() && !args[2..].iter().any(|a| a == v))
                            .collect();
                        let kept = kept.join(";");
                        scope.put(var, kept);
                    }
                }
                "set_source_files_properties" => {
                    // set_source_files_properties(f... [DIRECTORY d...] [TARGET_DIRECTORY
                    // t...] PROPERTIES name value ...): each value replaces the property. A
                    // language named through a variable may be any (and its list's items
                    // shift the pairs): not certain.
                    let certain = certain && !language_from_variable(&cmd.args);
                    let Some(p) = args.iter().position(|a| a == "PROPERTIES") else {
                        continue;
                    };
                    let (files, dirs) = self.source_scope(&args[..p], &dir);
                    let mut k = p + 1;
                    while k + 1 < args.len() {
                        let (prop, value) = (&args[k], &args[k + 1]);
                        self.set_source_property(
                            &files,
                            &dirs,
                            prop,
                            std::slice::from_ref(value),
                            false,
                            certain,
                        );
                        k += 2;
                    }
                }
                "set_property" if args.first().map(String::as_str) == Some("SOURCE") => {
                    // set_property(SOURCE f... [DIRECTORY d...] [TARGET_DIRECTORY t...]
                    // [APPEND|APPEND_STRING] PROPERTY name value...)
                    let certain = certain && !language_from_variable(&cmd.args);
                    let Some(p) = args.iter().position(|a| a == "PROPERTY") else {
                        continue;
                    };
                    let append = args[1..p]
                        .iter()
                        .any(|a| matches!(a.as_str(), "APPEND" | "APPEND_STRING"));
                    let names: Vec<String> = args[1..p]
                        .iter()
                        .filter(|a| !matches!(a.as_str(), "APPEND" | "APPEND_STRING"))
                        .cloned()
                        .collect();
                    let (files, dirs) = self.source_scope(&names, &dir);
                    if let Some(prop) = args.get(p + 1) {
                        self.set_source_property(
                            &files,
                            &dirs,
                            prop,
                            &args[p + 2..],
                            append,
                            certain,
                        );
                    }
                }
                "option" => {
                    // A default the command line may change: conditions on it are not decided.
                    if let (Some(var), Some(v)) = (args.first(), args.get(2)) {
                        scope.mark_uncertain(var);
                        if !scope.vars.contains_key(var) {
                            scope.put(var, v.clone());
                        }
                    }
                }
                "file"
                    if matches!(
                        args.first().map(String::as_str),
                        Some("GLOB" | "GLOB_RECURSE")
                    ) =>
                {
                    let recurse = args[0] == "GLOB_RECURSE";
                    let Some(var) = args.get(1) else { continue };
                    let mut patterns = Vec::new();
                    let mut relative: Option<PathBuf> = None;
                    let mut k = 2;
                    while k < args.len() {
                        match args[k].as_str() {
                            "CONFIGURE_DEPENDS" | "LIST_DIRECTORIES" | "FOLLOW_SYMLINKS" => {
                                if args[k] == "LIST_DIRECTORIES" {
                                    k += 1;
                                }
                            }
                            "RELATIVE" => {
                                relative = args.get(k + 1).map(PathBuf::from);
                                k += 1;
                            }
                            pattern => {
                                let pattern = if recurse {
                                    let p = Path::new(pattern);
                                    let parent = p.parent().unwrap_or(Path::new(""));
                                    let name = p
                                        .file_name()
                                        .map(|n| n.to_string_lossy().into_owned())
                                        .unwrap_or_default();
                                    parent.join("**").join(name).display().to_string()
                                } else {
                                    pattern.to_string()
                                };
                                patterns.push(pattern);
                            }
                        }
                        k += 1;
                    }
                    let _ = relative;
                    scope.put(var, deferred_glob(&dir, &patterns));
                }
                "add_subdirectory" => {
                    if let Some(sub) = args.first() {
                        let sub_dir = normalize(&dir.join(sub));
                        let list = sub_dir.join("CMakeLists.txt");
                        if list.is_file() {
                            scope.in_subdirectory(&sub_dir, certain, |child| {
                                self.directory(&list, child, nesting + 1)
                            });
                        }
                    }
                }
                "include" => {
                    if let Some(f) = args.first() {
                        let path = normalize(&dir.join(f));
                        if f.ends_with(".cmake") && path.is_file() {
                            let saved = scope.vars.get("CMAKE_CURRENT_LIST_DIR").cloned();
                            if let Some(parent) = path.parent() {
                                scope.put("CMAKE_CURRENT_LIST_DIR", parent.display().to_string());
                            }
                            self.directory(&path, scope, nesting + 1);
                            if let Some(s) = saved {
                                scope.put("CMAKE_CURRENT_LIST_DIR", s);
                            }
                        }
                    }
                }
                "add_compile_options" => {
                    scope
                        .options
                        .extend(args.iter().map(|a| (a.clone(), certain)));
                }
                "add_definitions" => {
                    scope
                        .options
                        .extend(args.iter().map(|a| (a.clone(), certain)));
                }
                "add_compile_definitions" => {
                    scope
                        .options
                        .extend(args.iter().map(|a| (format!("-D{}", strip_d(a)), certain)));
                }
                "include_directories" => {
                    for a in args
                        .iter()
                        .filter(|a| !matches!(a.as_str(), "SYSTEM" | "BEFORE" | "AFTER"))
                    {
                        let d = normalize(&dir.join(a));
                        scope.options.push((format!("-I{}", d.display()), certain));
                    }
                }
                "add_library" | "add_executable" | "cuda_add_library" | "cuda_add_executable" => {
                    let Some((tname, rest)) = args.split_first() else {
                        continue;
                    };
                    if rest
                        .iter()
                        .any(|a| matches!(a.as_str(), "IMPORTED" | "ALIAS" | "INTERFACE"))
                    {
                        continue;
                    }
                    let archs = value_of(scope, "CMAKE_CUDA_ARCHITECTURES");
                    let mut t = Target {
                        name: tname.clone(),
                        dir: dir.clone(),
                        archs_unknown: archs.contains(UNKNOWN),
                        archs: split_list(&archs),
                        words: scope.options.clone(),
                        cuda_flags: value_of(scope, "CMAKE_CUDA_FLAGS"),
                        ..Target::default()
                    };
                    for s in rest {
                        if matches!(
                            s.as_str(),
                            "STATIC"
                                | "SHARED"
                                | "MODULE"
                                | "OBJECT"
                                | "EXCLUDE_FROM_ALL"
                                | "WIN32"
                                | "MACOSX_BUNDLE"
                        ) {
                            continue;
                        }
                        t.sources.extend(sources(&dir, s));
                    }
                    let i = self.targets.len();
                    self.by_name.insert(tname.clone(), i);
                    self.targets.push(t);
                }
                "target_sources" => {
                    if let Some(i) = args.first().and_then(|n| self.by_name.get(n)).copied() {
                        for s in &args[1..] {
                            if !matches!(s.as_str(), "PRIVATE" | "PUBLIC" | "INTERFACE") {
                                let found = sources(&dir, s);
                                self.targets[i].sources.extend(found);
                            }
                        }
                    }
                }
                "target_compile_options" => {
                    if let Some(i) = args.first().and_then(|n| self.by_name.get(n)).copied() {
                        for a in &args[1..] {
                            if !matches!(a.as_str(), "PRIVATE" | "PUBLIC" | "INTERFACE" | "BEFORE")
                            {
                                self.targets[i].words.push((a.clone(), certain));
                            }
                        }
                    }
                }
                "target_compile_definitions" => {
                    if let Some(i) = args.first().and_then(|n| self.by_name.get(n)).copied() {
                        for a in &args[1..] {
                            if !matches!(a.as_str(), "PRIVATE" | "PUBLIC" | "INTERFACE") {
                                self.targets[i]
                                    .words
                                    .push((format!("-D{}", strip_d(a)), certain));
                            }
                        }
                    }
                }
                "target_include_directories" => {
                    if let Some(i) = args.first().and_then(|n| self.by_name.get(n)).copied() {
                        for a in &args[1..] {
                            if !matches!(
                                a.as_str(),
                                "PRIVATE" | "PUBLIC" | "INTERFACE" | "SYSTEM" | "BEFORE" | "AFTER"
                            ) {
                                let d = normalize(&dir.join(a));
                                self.targets[i]
                                    .words
                                    .push((format!("-I{}", d.display()), certain));
                            }
                        }
                    }
                }
                "set_target_properties" => {
                    let Some(p) = args.iter().position(|a| a == "PROPERTIES") else {
                        continue;
                    };
                    let names = &args[..p];
                    let mut k = p + 1;
                    while k + 1 < args.len() {
                        if args[k] == "CUDA_ARCHITECTURES" {
                            self.set_archs(names, &args[k + 1]);
                        }
                        k += 2;
                    }
                }
                "set_property" => {
                    // set_property(TARGET a b [APPEND] PROPERTY CUDA_ARCHITECTURES v...)
                    if args.first().map(String::as_str) != Some("TARGET") {
                        continue;
                    }
                    let Some(p) = args.iter().position(|a| a == "PROPERTY") else {
                        continue;
                    };
                    if args.get(p + 1).map(String::as_str) == Some("CUDA_ARCHITECTURES") {
                        let names: Vec<String> = args[1..p]
                            .iter()
                            .filter(|a| !matches!(a.as_str(), "APPEND" | "APPEND_STRING"))
                            .cloned()
                            .collect();
                        let value = args[p + 2..].join(";");
                        self.set_archs(&names, &value);
                    }
                }
                _ => {}
            }
        }
        for f in frames.into_iter().rev() {
            restore(scope, f.hidden);
        }
        scope.uncertain = outer_uncertain;
    }

    /// A loop's items when they are known (`foreach(v a b)`, `foreach(v ${L})`,
    /// `foreach(v IN LISTS L... ITEMS a...)`), within the bounds; else `None` (`RANGE`,
    /// `ZIP_LISTS`, a list not set here, an unknown item, too many).
    fn loop_items(
        &mut self,
        cmd: &Command,
        scope: &Scope,
        body_len: usize,
        loop_vars: &[String],
    ) -> Option<LoopItems> {
        if loop_vars.len() >= MAX_LOOP_DEPTH {
            return None;
        }
        let (var, rest) = cmd.args.split_first()?;
        let var = var.0.clone();
        let mut values = Vec::new();
        let mut certain = true;
        let refs_uncertain = |raw: &str| {
            raw.split("${")
                .skip(1)
                .filter_map(|r| r.split('}').next())
                .any(|n| scope.uncertain_vars.contains(n))
        };
        if rest.first().is_some_and(|a| a.0 == "IN" && !a.1) {
            let mut mode = "";
            for (a, quoted) in &rest[1..] {
                if !quoted && matches!(a.as_str(), "LISTS" | "ITEMS" | "ZIP_LISTS") {
                    mode = a.as_str();
                    continue;
                }
                match mode {
                    "LISTS" => {
                        let name = expand(a, &scope.vars);
                        if !scope.vars.contains_key(&name) {
                            return None;
                        }
                        certain &= !scope.uncertain_vars.contains(&name);
                        let value = value_of(scope, &name);
                        values.extend(
                            value
                                .split(';')
                                .filter(|v| !v.is_empty())
                                .map(str::to_string),
                        );
                    }
                    "ITEMS" => {
                        certain &= !refs_uncertain(a);
                        values.extend(self.expand_args(&[(a.clone(), *quoted)], scope));
                    }
                    _ => return None,
                }
            }
        } else {
            if rest.first().is_some_and(|a| a.0 == "RANGE" && !a.1) {
                return None;
            }
            for (a, _) in rest {
                certain &= !refs_uncertain(a);
            }
            values = self.expand_args(rest, scope);
        }
        if values.iter().any(|v| v.contains(UNKNOWN)) || values.len() > MAX_LOOP_ITEMS {
            return None;
        }
        let cost = values.len().saturating_mul(body_len.max(1));
        if cost > self.loop_budget {
            let n = format!(
                "loops run more than {MAX_LOOP_COMMANDS} commands: the rest are read once, their variable unknown"
            );
            if !self.notes.contains(&n) {
                self.notes.push(n);
            }
            return None;
        }
        self.loop_budget -= cost;
        Some(LoopItems {
            var,
            values,
            certain,
        })
    }

    /// The files of a source property command (`f... [DIRECTORY d...] [TARGET_DIRECTORY
    /// t...]`), absolute, and the folders whose targets see the property (the current one
    /// unless named).
    fn source_scope(&self, args: &[String], dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        let mut mode = "";
        for a in args {
            match a.as_str() {
                "SOURCE" | "DIRECTORY" | "TARGET_DIRECTORY" => {
                    mode = a.as_str();
                    continue;
                }
                _ => {}
            }
            match mode {
                "DIRECTORY" => dirs.push(normalize(&dir.join(a))),
                "TARGET_DIRECTORY" => {
                    if let Some(&i) = self.by_name.get(a) {
                        dirs.push(self.targets[i].dir.clone());
                    }
                }
                _ => files.extend(sources(dir, a)),
            }
        }
        if dirs.is_empty() {
            dirs.push(dir.to_path_buf());
        }
        (files, dirs)
    }

    /// A source property's values: `COMPILE_OPTIONS` and `COMPILE_DEFINITIONS` (lists),
    /// `COMPILE_FLAGS` (a command-line string), `LANGUAGE`; other properties are not read.
    fn set_source_property(
        &mut self,
        files: &[PathBuf],
        dirs: &[PathBuf],
        prop: &str,
        values: &[String],
        append: bool,
        certain: bool,
    ) {
        let words: Vec<String> = match prop {
            "COMPILE_OPTIONS" => values
                .iter()
                .flat_map(|v| v.split(';'))
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect(),
            "COMPILE_FLAGS" => values.to_vec(),
            "COMPILE_DEFINITIONS" => values
                .iter()
                .flat_map(|v| v.split(';'))
                .filter(|w| !w.is_empty())
                .map(|w| format!("-D{}", strip_d(w)))
                .collect(),
            "LANGUAGE" => values.iter().map(|v| v.trim().to_string()).collect(),
            _ => return,
        };
        for d in dirs {
            for f in files {
                let props = self.source_props.entry((d.clone(), f.clone())).or_default();
                let list = match prop {
                    "COMPILE_DEFINITIONS" => &mut props.definitions,
                    "LANGUAGE" => &mut props.language,
                    _ => &mut props.options,
                };
                if !append {
                    if certain {
                        list.clear();
                    } else {
                        // Replaced only where the condition holds: the old words may stay.
                        for w in list.iter_mut() {
                            w.1 = false;
                        }
                    }
                }
                list.extend(words.iter().map(|w| (w.clone(), certain)));
            }
        }
    }

    fn set(&mut self, scope: &mut Scope, var: &str, value: String) {
        // A value built from itself (`set(X "-a ${X} -b")` in a loop or under many `if()`s)
        // may double with each command: past a bound it is unknown (taichi's CMake grew one
        // to 0.8 GB).
        let value = self.bounded(var, value);
        // Under `if()`, a value is one possibility among others: the union is kept (the
        // build may use any; an unknown part stays unknown).
        if scope.uncertain == 0 {
            scope.mark_certain(var);
            scope.put(var, value);
            return;
        }
        scope.mark_uncertain(var);
        let old = value_of(scope, var);
        if !old.is_empty() && old != value {
            // `set(X "${X} -more")` under `if()`: the union of both is the new value. Joined
            // instead, each such line would double X (ggml's CMAKE_C_FLAGS grew to 0.9 MB).
            if extends_words(&value, &old) {
                scope.put(var, value);
                return;
            }
            let sep = if var.ends_with("_FLAGS") { " " } else { ";" };
            let union = self.bounded(var, format!("{old}{sep}{value}"));
            scope.put(var, union);
            return;
        }
        scope.put(var, value);
    }

    /// `value`, or unknown (said once per variable) when it is longer than
    /// [`MAX_VALUE_BYTES`].
    fn bounded(&mut self, var: &str, value: String) -> String {
        if value.len() <= MAX_VALUE_BYTES {
            return value;
        }
        if !self.notes.iter().any(|n| n.contains(&format!("`{var}`"))) {
            self.notes.push(format!(
                "the value of `{var}` grew past {MAX_VALUE_BYTES} bytes: taken as unknown"
            ));
        }
        UNKNOWN.to_string()
    }

    /// The `CUDA_ARCHITECTURES` property: it replaces what the target had (usually set
    /// right after the target is created, under the same conditions).
    fn set_archs(&mut self, names: &[String], value: &str) {
        for n in names {
            if let Some(&i) = self.by_name.get(n) {
                let t = &mut self.targets[i];
                t.archs_unknown = value.contains(UNKNOWN) || value.is_empty();
                t.archs = split_list(value);
            }
        }
    }

    fn expand_args(&self, args: &[(String, bool)], scope: &Scope) -> Vec<String> {
        let mut out = Vec::new();
        for (a, quoted) in args {
            let v = expand(a, &scope.vars);
            if *quoted {
                out.push(v);
            } else {
                // An unquoted argument that expands to a list is several arguments.
                out.extend(v.split(';').filter(|s| !s.is_empty()).map(str::to_string));
            }
        }
        out
    }

    fn units(&mut self) -> Vec<Unit> {
        let mut out = Vec::new();
        let mut notes = std::mem::take(&mut self.notes);
        for t in &self.targets {
            let mut words: Vec<String> = shell_words(&t.cuda_flags)
                .into_iter()
                .filter(|w| !w.contains(UNKNOWN))
                .collect();
            let mut certain_words: Vec<String> = Vec::new();
            add_words(&t.words, &mut words, &mut certain_words);
            let flags = unit_flags(t, &words, &certain_words, &mut notes);
            for s in &t.sources {
                if !is_compiled_source(s) {
                    continue;
                }
                let props = self.source_props.get(&(t.dir.clone(), s.clone()));
                // CMake builds a `.cu` file with the CUDA compiler and a `.cpp`, `.cc`, `.c`
                // one with the host compiler, which compiles no device code, unless the file's
                // `LANGUAGE` property says otherwise.
                let cuda = props
                    .and_then(SourceProps::compiled_as_cuda)
                    .unwrap_or_else(|| is_cuda_source(s));
                if !cuda {
                    continue;
                }
                let origin = format!("target `{}`", shown_name(&t.name));
                // The file's own options come after the target's on its command.
                let Some(props) = props else {
                    out.push(Unit {
                        file: s.clone(),
                        flags: flags.clone(),
                        origin,
                    });
                    continue;
                };
                let (mut words, mut certain_words) = (words.clone(), certain_words.clone());
                add_words(&props.options, &mut words, &mut certain_words);
                add_words(&props.definitions, &mut words, &mut certain_words);
                let own = unit_flags(t, &words, &certain_words, &mut notes);
                let origin = if own.targets != flags.targets || own.macros != flags.macros {
                    format!("{origin}, the file's own properties")
                } else {
                    origin
                };
                out.push(Unit {
                    file: s.clone(),
                    flags: own,
                    origin,
                });
            }
        }
        self.notes = notes;
        out
    }
}

/// A unit's flags from its command's words (and the certain ones, whose definitions count)
/// and its target's architectures.
fn unit_flags(
    t: &Target,
    words: &[String],
    certain_words: &[String],
    notes: &mut Vec<String>,
) -> CompileFlags {
    let mut push_note = |n: String| {
        if !notes.contains(&n) {
            notes.push(n);
        }
    };
    let mut flags = nvcc_flags(words, &t.dir);
    flags.macros = nvcc_flags(certain_words, &t.dir)
        .macros
        .into_iter()
        .filter(|m| matches!(m, MacroFlag::Define(..) | MacroFlag::Undef(..)))
        .collect();
    let archs = cudaarchs(&t.archs.join(";"));
    let off = t.archs.iter().any(|a| a.eq_ignore_ascii_case("OFF"));
    if t.archs_unknown && !off {
        let n = format!(
            "target `{}`: its CUDA_ARCHITECTURES are computed in a way not followed here",
            shown_name(&t.name)
        );
        push_note(n);
    } else if !off {
        flags.targets.extend(archs.targets);
        for n in archs.notes {
            push_note(format!("target `{}`: {n}", shown_name(&t.name)));
        }
    }
    flags.targets.sort_by_key(|x| (x.sm, x.suffix));
    flags.targets.dedup();
    flags.notes.clear();
    flags
}

/// Each word's parts (generator expressions about the language resolved, unknown parts
/// left out) into `words`, and the certain ones into `certain_words` too.
fn add_words(from: &[(String, bool)], words: &mut Vec<String>, certain_words: &mut Vec<String>) {
    for (w, certain) in from {
        let Some(w) = generator_expression(w) else {
            continue;
        };
        for part in shell_words(&w).into_iter().filter(|p| !p.contains(UNKNOWN)) {
            if *certain {
                certain_words.push(part.clone());
            }
            words.push(part);
        }
    }
}

/// Puts back the loop variables a frame made unknown.
fn restore(scope: &mut Scope, hidden: Vec<(String, Option<String>)>) {
    for (v, old) in hidden.into_iter().rev() {
        match old {
            Some(o) => {
                scope.put(&v, o);
            }
            None => scope.unset(&v),
        }
    }
}

/// The index of the `endforeach` that closes the loop whose body starts at `start` (the
/// end of the commands when none does).
fn loop_end(commands: &[Command], start: usize) -> usize {
    let mut depth = 0usize;
    for (i, c) in commands.iter().enumerate().skip(start) {
        match c.name.as_str() {
            "foreach" => depth += 1,
            "endforeach" if depth == 0 => return i,
            "endforeach" => depth -= 1,
            _ => {}
        }
    }
    commands.len()
}

/// Whether a loop body holds a command this reader acts on (outside function bodies).
fn body_matters(body: &[Command]) -> bool {
    let mut in_function = 0usize;
    body.iter().any(|c| match c.name.as_str() {
        "function" | "macro" => {
            in_function += 1;
            false
        }
        "endfunction" | "endmacro" => {
            in_function = in_function.saturating_sub(1);
            false
        }
        name => in_function == 0 && ACTED_ON.contains(&name),
    })
}

/// The commands [`Reader::run`] acts on, besides `if`/`foreach` structure.
const ACTED_ON: &[&str] = &[
    "set",
    "list",
    "option",
    "file",
    "add_subdirectory",
    "include",
    "add_compile_options",
    "add_definitions",
    "add_compile_definitions",
    "include_directories",
    "add_library",
    "add_executable",
    "cuda_add_library",
    "cuda_add_executable",
    "target_sources",
    "target_compile_options",
    "target_compile_definitions",
    "target_include_directories",
    "set_target_properties",
    "set_property",
    "set_source_files_properties",
];

/// An `if()` condition decided when its operands are known: `A OP B` (`VERSION_LESS`,
/// `STREQUAL`, `EQUAL`... and their `NOT`), each operand a literal or a variable the
/// project sets (`CMAKE_CUDA_COMPILER_VERSION` is the toolkit's), or `if(<variable>)`,
/// `if(<constant>)` (see [`truth`]). Else `None`.
fn condition(args: &[(String, bool)], scope: &Scope) -> Option<bool> {
    let (negate, args) = match args.first() {
        Some((w, false)) if w == "NOT" => (true, &args[1..]),
        _ => (false, args),
    };
    if let [(w, false)] = args {
        return truth(w, scope).map(|t| t != negate);
    }
    let [(a, aq), (op, false), (b, bq)] = args else {
        return None;
    };
    let value = |w: &str, quoted: bool| -> Option<String> {
        let names: Vec<&str> = if w.contains("${") {
            w.split("${")
                .skip(1)
                .filter_map(|r| r.split('}').next())
                .collect()
        } else {
            vec![w]
        };
        if names.iter().any(|n| scope.uncertain_vars.contains(*n)) {
            return None;
        }
        // An unquoted name of a variable is its value; `${X}` is expanded.
        if !quoted && !w.contains("${") {
            if let Some(v) = scope.vars.get(w) {
                return Some(globbed(v).into_owned());
            }
            // A name the project does not set may be set on the command line.
            if w.bytes()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
                && w.bytes().any(|c| c.is_ascii_uppercase())
            {
                return None;
            }
        }
        if w.contains("${") {
            let names_known = w.split("${").skip(1).all(|r| {
                r.split('}')
                    .next()
                    .is_some_and(|n| scope.vars.contains_key(n))
            });
            if !names_known {
                return None;
            }
        }
        let v = expand(w, &scope.vars);
        (!v.contains(UNKNOWN)).then_some(v)
    };
    let (x, y) = (value(a, *aq)?, value(b, *bq)?);
    let version = |v: &str| -> Vec<u64> {
        v.split('.')
            .map(|p| p.trim().parse().unwrap_or(0))
            .collect()
    };
    let cmp_versions = || {
        let (mut vx, mut vy) = (version(&x), version(&y));
        let n = vx.len().max(vy.len());
        vx.resize(n, 0);
        vy.resize(n, 0);
        vx.cmp(&vy)
    };
    use std::cmp::Ordering::*;
    let number = |v: &str| v.trim().parse::<f64>().ok();
    let result = match op.as_str() {
        "VERSION_LESS" => cmp_versions() == Less,
        "VERSION_GREATER" => cmp_versions() == Greater,
        "VERSION_EQUAL" => cmp_versions() == Equal,
        "VERSION_LESS_EQUAL" => cmp_versions() != Greater,
        "VERSION_GREATER_EQUAL" => cmp_versions() != Less,
        "STREQUAL" => x == y,
        "EQUAL" | "LESS" | "GREATER" | "LESS_EQUAL" | "GREATER_EQUAL" => {
            let (nx, ny) = (number(&x)?, number(&y)?);
            match op.as_str() {
                "EQUAL" => nx == ny,
                "LESS" => nx < ny,
                "GREATER" => nx > ny,
                "LESS_EQUAL" => nx <= ny,
                _ => nx >= ny,
            }
        }
        _ => return None,
    };
    Some(result != negate)
}

/// `if(<constant>)` and `if(<variable>)` as CMake decides them, for a variable the project
/// sets outside undecided conditions; `None` for one it does not set (the command line may).
fn truth(w: &str, scope: &Scope) -> Option<bool> {
    if let Some(t) = constant_truth(w) {
        return Some(t);
    }
    if w.contains("${") || scope.uncertain_vars.contains(w) {
        return None;
    }
    let v = globbed(scope.vars.get(w)?).into_owned();
    if v.contains(UNKNOWN) {
        return None;
    }
    Some(constant_truth(&v) != Some(false))
}

/// CMake's true and false constants (case-insensitive; a number is true unless zero); `None`
/// for any other word.
fn constant_truth(w: &str) -> Option<bool> {
    let u = w.to_ascii_uppercase();
    match u.as_str() {
        "1" | "ON" | "YES" | "TRUE" | "Y" => Some(true),
        "" | "0" | "OFF" | "NO" | "FALSE" | "N" | "IGNORE" | "NOTFOUND" => Some(false),
        _ if u.ends_with("-NOTFOUND") => Some(false),
        _ => u.parse::<f64>().ok().map(|n| n != 0.0),
    }
}

/// `-DX` and `X` both name the definition `X` in CMake's definition commands.
fn strip_d(a: &str) -> &str {
    a.strip_prefix("-D").unwrap_or(a)
}

/// `$<$<COMPILE_LANGUAGE:CUDA>:-gencode arch=...>` -> its value when the condition is about
/// the language or configuration (the value may apply), else `None`; plain words unchanged.
fn generator_expression(w: &str) -> Option<String> {
    if !w.contains("$<") {
        return Some(w.to_string());
    }
    let inner = w.strip_prefix("$<")?.strip_suffix('>')?;
    // The condition is everything up to the `:` at depth 0.
    let mut depth = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ':' if depth == 0 => {
                let (cond, value) = (&inner[..i], &inner[i + 1..]);
                let about_language = cond.contains("COMPILE_LANGUAGE:CUDA")
                    || cond.contains("COMPILE_LANG_AND_ID:CUDA")
                    || cond.contains("CONFIG");
                return (about_language && !value.contains("$<")).then(|| value.to_string());
            }
            _ => {}
        }
    }
    None
}

/// A target's source argument: a file (relative to the folder), or nothing for a generator
/// expression.
fn sources(dir: &Path, s: &str) -> Vec<PathBuf> {
    if s.contains("$<") || s.is_empty() || s.contains(UNKNOWN) {
        return Vec::new();
    }
    vec![normalize(&dir.join(s))]
}

/// Whether `value` is `old` with more words before or after it (split at `;` or a blank, as
/// lists and flags are): its words include all of `old`'s. Not said of text with quotes,
/// whose words a blank may not separate.
fn extends_words(value: &str, old: &str) -> bool {
    let is_sep = |c: Option<char>| matches!(c, Some(';' | ' '));
    !old.contains(['"', '\''])
        && ((value.starts_with(old) && is_sep(value[old.len()..].chars().next()))
            || (value.ends_with(old)
                && is_sep(value[..value.len() - old.len()].chars().next_back())))
}

fn split_list(v: &str) -> Vec<String> {
    v.split([';', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `${X}`, `$ENV{X}` (unknown), innermost first, a bounded number of passes.
fn expand(s: &str, vars: &HashMap<String, String>) -> String {
    let mut s = s.to_string();
    for _ in 0..MAX_EXPANSIONS {
        if s.len() > MAX_EXPANDED_BYTES {
            break;
        }
        let Some(close) = s.find('}') else { break };
        let Some(open) = s[..close].rfind("{") else {
            break;
        };
        let (start, name) = if open >= 1 && s[..open].ends_with('$') {
            (open - 1, &s[open + 1..close])
        } else if open >= 4 && s[..open].ends_with("$ENV") {
            (open - 4, "")
        } else {
            break;
        };
        // A variable the project does not set may come from the command line or CMake
        // itself: unknown (`$ENV{X}` too).
        let value = match vars.get(name) {
            Some(v) if !name.is_empty() => globbed(v).into_owned(),
            _ => UNKNOWN.to_string(),
        };
        s.replace_range(start..=close, &value);
    }
    s
}

/// A `file(GLOB)` result is walked when the variable is first read, not where it is set:
/// CCCL globs its 900 test folders for a list only a `foreach` reads (its body is not
/// followed). Until then the variable holds this mark, the folder and the patterns.
const GLOB_MARK: char = '\u{2}';
const GLOB_PART: char = '\u{3}';

fn deferred_glob(dir: &Path, patterns: &[String]) -> String {
    // A folder whose name is not UTF-8 could not be written back exactly: walked now.
    let Some(dir_text) = dir.to_str() else {
        let found: Vec<String> = patterns
            .iter()
            .flat_map(|p| glob(dir, p))
            .map(|p| p.display().to_string())
            .collect();
        return found.join(";");
    };
    let mut out = String::from(GLOB_MARK);
    out.push_str(dir_text);
    for p in patterns {
        out.push(GLOB_PART);
        out.push_str(p);
    }
    out.push(GLOB_MARK);
    out
}

/// The value with each deferred glob replaced by the files it names (`;`-separated, each
/// pattern's files in turn, as `file(GLOB)` lists them).
fn globbed(value: &str) -> std::borrow::Cow<'_, str> {
    if !value.contains(GLOB_MARK) {
        return std::borrow::Cow::Borrowed(value);
    }
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find(GLOB_MARK) {
        let after = &rest[start + GLOB_MARK.len_utf8()..];
        let Some(len) = after.find(GLOB_MARK) else {
            break;
        };
        out.push_str(&rest[..start]);
        let mut parts = after[..len].split(GLOB_PART);
        let dir = Path::new(parts.next().unwrap_or(""));
        let found: Vec<String> = parts
            .flat_map(|p| glob(dir, p))
            .map(|p| p.display().to_string())
            .collect();
        out.push_str(&found.join(";"));
        rest = &after[len + GLOB_MARK.len_utf8()..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// A variable's value as the project set it (empty when unset), globs walked.
fn value_of(scope: &Scope, var: &str) -> String {
    scope
        .vars
        .get(var)
        .map(|v| globbed(v).into_owned())
        .unwrap_or_default()
}

/// A CMake file read and split into commands (`None`: it could not be read), with the notes
/// its reading gave.
#[derive(Debug)]
struct Parsed {
    commands: Option<Vec<Command>>,
    notes: Vec<String>,
    /// The text holds `project(` in any case (see [`mentions_project`]).
    mentions_project: bool,
}

/// Whether a `CMakeLists.txt` holds `project(` (in any case): with its parent folder's, one
/// that does starts a project of its own. Read through the parse cache, so a file is read
/// once for both questions.
pub fn mentions_project(file: &Path) -> bool {
    parsed(file).mentions_project
}

/// Files parsed in this process, by path: nested projects (cccl's, each read as its own root
/// and as part of the one above) read the same files, up to five times each. At most this
/// many kept.
const PARSED_CACHE_ENTRIES: usize = 4096;

fn parsed_cache() -> &'static Mutex<HashMap<PathBuf, Arc<Parsed>>> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<Parsed>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// A CMake file's commands, parsed once per process (see [`forget_parsed`]).
fn parsed(file: &Path) -> Arc<Parsed> {
    if let Some(hit) = parsed_cache()
        .lock()
        .ok()
        .and_then(|c| c.get(file).cloned())
    {
        return hit;
    }
    let mut notes = Vec::new();
    let text = read_bounded(file, &mut notes);
    let mentions_project = text.as_deref().is_some_and(|t| {
        memchr::memmem::find(t.to_ascii_lowercase().as_bytes(), b"project(").is_some()
    });
    let commands = text.map(|text| commands(&text));
    let parsed = Arc::new(Parsed {
        commands,
        notes,
        mentions_project,
    });
    if let Ok(mut c) = parsed_cache().lock() {
        if c.len() < PARSED_CACHE_ENTRIES {
            c.insert(file.to_path_buf(), parsed.clone());
        }
    }
    parsed
}

/// Forgets the CMake files parsed: the next read parses them again (the language server
/// calls it when a build file changes).
pub fn forget_parsed() {
    if let Ok(mut c) = parsed_cache().lock() {
        c.clear();
    }
}

/// The commands of a CMake file: `name(args)`, arguments split as CMake does (blanks,
/// `"quoted"`, `[[bracket]]`, nested parentheses kept), comments skipped. Never fails.
fn commands(text: &str) -> Vec<Command> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'#' {
            i = skip_comment(b, i);
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let name = text[start..i].to_ascii_lowercase();
            while i < b.len() && matches!(b[i], b' ' | b'\t') {
                i += 1;
            }
            if i < b.len() && b[i] == b'(' {
                let (args, end) = arguments(text, i + 1);
                out.push(Command { name, args });
                i = end;
            }
            continue;
        }
        i += 1;
    }
    out
}

fn skip_comment(b: &[u8], i: usize) -> usize {
    // `#[[ ... ]]` (or `#[=[ ... ]=]`) is a bracket comment.
    if let Some(end) = bracket_end(b, i + 1) {
        return end;
    }
    memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n)
}

/// At `[[` or `[=*[`: the index after the matching close, else `None`.
fn bracket_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let mut j = i + 1;
    while b.get(j) == Some(&b'=') {
        j += 1;
    }
    if b.get(j) != Some(&b'[') {
        return None;
    }
    let equals = j - i - 1;
    let mut close = Vec::with_capacity(equals + 2);
    close.push(b']');
    close.extend(std::iter::repeat_n(b'=', equals));
    close.push(b']');
    let body = j + 1;
    let found =
        memchr::memmem::find(&b[body..], &close).map_or(b.len(), |n| body + n + close.len());
    Some(found)
}

/// The arguments from just after `(` to the matching `)`, and the index after it.
fn arguments(text: &str, mut i: usize) -> (Vec<(String, bool)>, usize) {
    let b = text.as_bytes();
    let mut args = Vec::new();
    let mut depth = 0usize;
    let mut word = String::new();
    let mut in_word = false;
    while i < b.len() {
        let c = b[i];
        match c {
            b'#' => {
                if in_word {
                    args.push((std::mem::take(&mut word), false));
                    in_word = false;
                }
                i = skip_comment(b, i);
                continue;
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut s = String::new();
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' && j + 1 < b.len() && b[j + 1].is_ascii() {
                        match b[j + 1] {
                            b'\n' => {}
                            b'n' => s.push('\n'),
                            b'"' | b'\\' | b'$' | b';' => s.push(b[j + 1] as char),
                            other => {
                                s.push('\\');
                                s.push(other as char);
                            }
                        }
                        j += 2;
                        continue;
                    }
                    let ch_len = utf8_len(b[j]);
                    s.push_str(&text[j..(j + ch_len).min(b.len())]);
                    j += ch_len;
                }
                args.push((s, true));
                i = (j + 1).min(b.len());
                continue;
            }
            b'[' if !in_word => {
                if let Some(end) = bracket_end(b, i) {
                    // `[` `=`* `[` ... `]` `=`* `]`
                    let equals = b[i + 1..].iter().take_while(|&&x| x == b'=').count();
                    let inner_start = (i + equals + 2).min(end);
                    let inner_end = end.saturating_sub(equals + 2).max(inner_start);
                    args.push((
                        text.get(inner_start..inner_end).unwrap_or("").to_string(),
                        true,
                    ));
                    i = end;
                    continue;
                }
            }
            b'(' => depth += 1,
            b')' => {
                if depth == 0 {
                    if in_word {
                        args.push((word, false));
                    }
                    return (args, i + 1);
                }
                depth -= 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                if in_word {
                    args.push((std::mem::take(&mut word), false));
                    in_word = false;
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        let ch_len = utf8_len(c);
        word.push_str(&text[i..(i + ch_len).min(b.len())]);
        in_word = true;
        i += ch_len;
    }
    if in_word {
        args.push((word, false));
    }
    (args, b.len())
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests;
