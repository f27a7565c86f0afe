//! Settings that apply to one file: configuration layers merged, command line on top.

use crate::config::{self, absolutize, ConfigError, ConfigLayer, RuleSelector, DEFAULT_EXTENSIONS};
use crate::registry;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ptxguard_analyzer::build::toolkit::target_name;
use ptxguard_analyzer::isa::Target;
use ptxguard_analyzer::Severity;
use ptxguard_rules::Options;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Gitignore-style patterns anchored at the directory of the file that wrote them.
#[derive(Debug)]
struct PathPatterns {
    root: PathBuf,
    patterns: Vec<String>,
    matcher: Gitignore,
}

impl PathPatterns {
    fn new(root: &Path, patterns: &[String], origin: &Path) -> Result<PathPatterns, ConfigError> {
        let mut builder = GitignoreBuilder::new(root);
        for pattern in patterns {
            builder.add_line(None, pattern).map_err(|e| ConfigError {
                path: origin.to_path_buf(),
                position: None,
                message: format!("bad pattern `{pattern}`: {e}"),
            })?;
        }
        let matcher = builder.build().map_err(|e| ConfigError {
            path: origin.to_path_buf(),
            position: None,
            message: format!("bad patterns: {e}"),
        })?;
        Ok(PathPatterns {
            root: root.to_path_buf(),
            patterns: patterns.to_vec(),
            matcher,
        })
    }

    /// `path` must be absolute and normalized.
    fn matches(&self, path: &Path, is_dir: bool) -> bool {
        path.starts_with(&self.root)
            && self
                .matcher
                .matched_path_or_any_parents(path, is_dir)
                .is_ignore()
    }
}

#[derive(Debug)]
struct PerFileIgnore {
    patterns: PathPatterns,
    rules: Vec<RuleSelector>,
}

/// Everything that decides what is checked and how it is reported, for one file.
#[derive(Debug)]
pub struct Settings {
    /// The configuration files that contributed, base first.
    pub config_files: Vec<PathBuf>,
    enabled: BTreeSet<&'static str>,
    severity: BTreeMap<&'static str, Severity>,
    per_file_ignores: Vec<PerFileIgnore>,
    excludes: Vec<PathPatterns>,
    pub extensions: Vec<String>,
    pub options: Options,
    /// `target` / `--target`: the targets every file is built for (empty: not configured).
    pub targets: Vec<Target>,
    /// Where `targets` came from: a configuration file, or `--target`.
    pub target_from: Option<String>,
    /// `compile-commands` / `--compile-commands`.
    pub compile_commands: Option<PathBuf>,
    /// `cuda-version` / `--cuda-version`, with where it came from.
    pub cuda_version: Option<(String, String)>,
    /// `[targets]` globs, each with its targets and the file that wrote it (later layers first).
    targets_by_glob: Vec<(PathPatterns, Vec<Target>, String)>,
    /// `cache`: results are kept in and taken from the result cache (`--no-cache` overrides).
    pub cache: bool,
}

/// The rules that run on one file.
#[derive(Clone, Debug)]
pub struct RuleFilter<'s> {
    settings: &'s Settings,
    ignored: Vec<RuleSelector>,
}

impl RuleFilter<'_> {
    pub fn is_enabled(&self, rule: &str) -> bool {
        self.settings.enabled.contains(rule) && !self.ignored.iter().any(|s| s.matches(rule))
    }

    pub fn severity(&self, rule: &str, default: Severity) -> Severity {
        self.settings.severity.get(rule).copied().unwrap_or(default)
    }
}

impl Settings {
    /// Merges layers in order: each `select` replaces the set, `extend-select` adds, `ignore` removes.
    pub fn from_layers(layers: &[ConfigLayer]) -> Result<Settings, ConfigError> {
        let all = registry::known_rules();
        let mut enabled: BTreeSet<&'static str> = all
            .iter()
            .filter(|r| r.default_enabled)
            .map(|r| r.name)
            .collect();
        let expand = |selectors: &[RuleSelector]| -> Vec<&'static str> {
            all.iter()
                .map(|r| r.name)
                .filter(|name| selectors.iter().any(|s| s.matches(name)))
                .collect()
        };
        let mut settings = Settings {
            config_files: Vec::new(),
            enabled: BTreeSet::new(),
            severity: BTreeMap::new(),
            per_file_ignores: Vec::new(),
            excludes: Vec::new(),
            extensions: DEFAULT_EXTENSIONS.iter().map(|e| e.to_string()).collect(),
            options: Options::default(),
            targets: Vec::new(),
            target_from: None,
            compile_commands: None,
            cuda_version: None,
            targets_by_glob: Vec::new(),
            cache: true,
        };
        for layer in layers {
            let origin = layer
                .origin
                .clone()
                .unwrap_or_else(|| PathBuf::from("<command line>"));
            if let Some(path) = &layer.origin {
                settings.config_files.push(path.clone());
            }
            if let Some(select) = &layer.select {
                enabled = expand(select).into_iter().collect();
            }
            enabled.extend(expand(&layer.extend_select));
            for name in expand(&layer.ignore) {
                enabled.remove(name);
            }
            for (selector, severity) in &layer.severity {
                for name in expand(std::slice::from_ref(selector)) {
                    settings.severity.insert(name, *severity);
                }
            }
            for (pattern, rules) in &layer.per_file_ignores {
                settings.per_file_ignores.push(PerFileIgnore {
                    patterns: PathPatterns::new(
                        &layer.dir,
                        std::slice::from_ref(pattern),
                        &origin,
                    )?,
                    rules: rules.clone(),
                });
            }
            if !layer.exclude.is_empty() {
                settings
                    .excludes
                    .push(PathPatterns::new(&layer.dir, &layer.exclude, &origin)?);
            }
            if let Some(extensions) = &layer.extensions {
                settings.extensions = extensions.clone();
            }
            if let Some(target) = &layer.target {
                settings.targets = target.clone();
                settings.target_from = Some(match &layer.origin {
                    Some(p) => p.display().to_string(),
                    None => "--target".to_string(),
                });
            }
            if let Some(db) = &layer.compile_commands {
                settings.compile_commands = Some(db.clone());
            }
            if let Some(v) = &layer.cuda_version {
                let from = match &layer.origin {
                    Some(p) => p.display().to_string(),
                    None => "--cuda-version".to_string(),
                };
                settings.cuda_version = Some((v.clone(), from));
            }
            for (glob, targets) in &layer.targets_by_glob {
                let patterns = PathPatterns::new(&layer.dir, std::slice::from_ref(glob), &origin)?;
                let from = format!("{} ([targets] \"{glob}\")", origin.display());
                // Later layers win: they go first.
                settings
                    .targets_by_glob
                    .insert(0, (patterns, targets.clone(), from));
            }
            if let Some(version) = &layer.cccl_version {
                settings.options.cccl_version = Some(version.clone());
            }
            if let Some(cache) = layer.cache {
                settings.cache = cache;
            }
            if let Some(compilers) = &layer.portability {
                settings.options.portability = compilers.clone();
            }
        }
        settings.enabled = enabled;
        Ok(settings)
    }

    /// The rules for a file (absolute, normalized path), after `per-file-ignores`.
    pub fn rules_for(&self, path: &Path) -> RuleFilter<'_> {
        let ignored = self
            .per_file_ignores
            .iter()
            .filter(|p| p.patterns.matches(path, false))
            .flat_map(|p| p.rules.iter().copied())
            .collect();
        RuleFilter {
            settings: self,
            ignored,
        }
    }

    /// The `[targets]` entry for a file (absolute, normalized path): its targets and origin.
    pub fn targets_for(&self, path: &Path) -> Option<(&[Target], &str)> {
        self.targets_by_glob
            .iter()
            .find(|(p, _, _)| p.matches(path, false))
            .map(|(_, t, from)| (t.as_slice(), from.as_str()))
    }

    pub fn is_excluded(&self, path: &Path, is_dir: bool) -> bool {
        self.excludes.iter().any(|e| e.matches(path, is_dir))
    }

    pub fn has_checked_extension(&self, path: &Path) -> bool {
        path.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|ext| self.extensions.iter().any(|e| e == ext))
    }

    /// What `--show-settings` prints for a file (absolute, normalized path).
    pub fn describe(&self, path: &Path) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# Settings for {}", path.display());
        if self.config_files.is_empty() {
            let _ = writeln!(out, "config-files = []");
        } else {
            let _ = writeln!(out, "config-files = [");
            for f in &self.config_files {
                let _ = writeln!(out, "    {},", toml_str(&f.display().to_string()));
            }
            let _ = writeln!(out, "]");
        }
        let _ = writeln!(out, "excluded = {}", self.is_excluded(path, path.is_dir()));
        let targets: Vec<String> = self.targets.iter().map(target_name).collect();
        let _ = writeln!(out, "target = {}", toml_list(&targets));
        let _ = writeln!(
            out,
            "cccl-version = {}",
            toml_str(self.options.cccl_version.as_deref().unwrap_or("3.0"))
        );
        let portability: Vec<String> = self
            .options
            .portability
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        let _ = writeln!(out, "portability = {}", toml_list(&portability));
        let _ = writeln!(out, "extensions = {}", toml_list(&self.extensions));
        let _ = writeln!(out, "cache = {}", self.cache);
        let excludes: Vec<String> = self
            .excludes
            .iter()
            .flat_map(|e| {
                e.patterns
                    .iter()
                    .map(move |p| format!("{} (in {})", p, e.root.display()))
            })
            .collect();
        let _ = writeln!(out, "exclude = {}", toml_list(&excludes));
        let filter = self.rules_for(path);
        let ignored_here: Vec<String> = self
            .per_file_ignores
            .iter()
            .filter(|p| p.patterns.matches(path, false))
            .map(|p| {
                let rules: Vec<&str> = p.rules.iter().map(|r| r.as_str()).collect();
                format!("{} -> {}", p.patterns.patterns.join(" "), rules.join(", "))
            })
            .collect();
        let _ = writeln!(
            out,
            "per-file-ignores-applied = {}",
            toml_list(&ignored_here)
        );
        let _ = writeln!(out);
        let _ = writeln!(out, "[rules]");
        for rule in registry::known_rules() {
            let state = if filter.is_enabled(rule.name) {
                filter.severity(rule.name, rule.default_severity).as_str()
            } else {
                "off"
            };
            let _ = writeln!(out, "{} = {}", rule.name, toml_str(state));
        }
        out
    }
}

fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn toml_list(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| toml_str(s)).collect();
    format!("[{}]", inner.join(", "))
}

/// Where configuration comes from.
#[derive(Clone, Debug)]
pub enum ConfigSource {
    /// The closest `ptxguard.toml` / `.ptxguard.toml` above each file.
    Discover,
    /// One file for everything (`--config`).
    Explicit(PathBuf),
    /// No file (`--no-config`).
    None,
}

pub type SettingsResult = Result<Arc<Settings>, ConfigError>;

/// Finds the settings for each file, caching by directory. Safe to share between threads.
pub struct Resolver {
    source: ConfigSource,
    overrides: ConfigLayer,
    cwd: PathBuf,
    nearest_config: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
    by_config: Mutex<HashMap<Option<PathBuf>, SettingsResult>>,
    /// With [`Resolver::falling_back`]: the discovered configuration files that could not be
    /// used, each with what was used instead.
    fallbacks: Option<Mutex<Vec<String>>>,
}

impl Resolver {
    pub fn new(source: ConfigSource, overrides: ConfigLayer, cwd: &Path) -> Resolver {
        Resolver {
            source,
            overrides,
            cwd: cwd.to_path_buf(),
            nearest_config: Mutex::new(HashMap::new()),
            by_config: Mutex::new(HashMap::new()),
            fallbacks: None,
        }
    }

    /// A discovered configuration file that cannot be used (malformed, unreadable, a bad
    /// `extend`) no longer fails the files below it: they get the nearest valid
    /// configuration above it (or the defaults), and [`Resolver::take_fallbacks`] says so.
    pub fn falling_back(mut self) -> Resolver {
        self.fallbacks = Some(Mutex::new(Vec::new()));
        self
    }

    /// What [`Resolver::falling_back`] replaced, one line each (taken).
    pub fn take_fallbacks(&self) -> Vec<String> {
        self.fallbacks.as_ref().map_or_else(Vec::new, |f| {
            let mut lines = std::mem::take(&mut *f.lock().expect("no panics while locked"));
            lines.sort();
            lines
        })
    }

    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// Settings for a file or directory path (absolute and normalized).
    pub fn settings_for(&self, path: &Path, is_dir: bool) -> SettingsResult {
        let dir = if is_dir {
            path
        } else {
            path.parent().unwrap_or(path)
        };
        let config = match &self.source {
            ConfigSource::Discover => self.find_nearest(dir),
            ConfigSource::Explicit(file) => Some(absolutize(file, &self.cwd)),
            ConfigSource::None => None,
        };
        self.settings_of(config)
    }

    /// The settings of one configuration file (`None`: no file), cached.
    fn settings_of(&self, config: Option<PathBuf>) -> SettingsResult {
        if let Some(hit) = self
            .by_config
            .lock()
            .expect("no panics while locked")
            .get(&config)
        {
            return hit.clone();
        }
        let mut result = self.build(config.as_deref());
        if let (Err(e), Some(fallbacks), ConfigSource::Discover, Some(file)) =
            (&result, &self.fallbacks, &self.source, &config)
        {
            // The nearest configuration above the broken one's folder, tried the same way.
            let above = file
                .parent()
                .and_then(Path::parent)
                .and_then(|dir| self.find_nearest(dir));
            let used = match &above {
                Some(path) => format!("`{}`", path.display()),
                None => "the default settings".to_string(),
            };
            let folder = file.parent().unwrap_or(file).display().to_string();
            let fallback = self.settings_of(above);
            if fallback.is_ok() {
                let line = format!("{e} (the files under {folder} were checked with {used})");
                fallbacks.lock().expect("no panics while locked").push(line);
                result = fallback;
            }
        }
        self.by_config
            .lock()
            .expect("no panics while locked")
            .insert(config, result.clone());
        result
    }

    fn build(&self, config: Option<&Path>) -> SettingsResult {
        let mut layers = match config {
            Some(path) => config::load_chain(path)?,
            None => Vec::new(),
        };
        layers.push(self.overrides.clone());
        Settings::from_layers(&layers).map(Arc::new)
    }

    fn find_nearest(&self, dir: &Path) -> Option<PathBuf> {
        if let Some(hit) = self
            .nearest_config
            .lock()
            .expect("no panics while locked")
            .get(dir)
        {
            return hit.clone();
        }
        let found = match config::config_file_in(dir) {
            Some(file) => Some(file),
            None => dir.parent().and_then(|parent| self.find_nearest(parent)),
        };
        self.nearest_config
            .lock()
            .expect("no panics while locked")
            .insert(dir.to_path_buf(), found.clone());
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(select: Option<Vec<RuleSelector>>, ignore: Vec<RuleSelector>) -> ConfigLayer {
        ConfigLayer {
            select,
            ignore,
            dir: PathBuf::from("/p"),
            ..ConfigLayer::default()
        }
    }

    const US: RuleSelector = RuleSelector::Rule(registry::UNUSED_SUPPRESSION);

    #[test]
    fn later_layers_win() {
        let s = Settings::from_layers(&[layer(None, vec![US])]).unwrap();
        assert!(!s
            .rules_for(Path::new("/p/a.cu"))
            .is_enabled(registry::UNUSED_SUPPRESSION));
        let s =
            Settings::from_layers(&[layer(None, vec![US]), layer(Some(vec![US]), vec![])]).unwrap();
        assert!(s
            .rules_for(Path::new("/p/a.cu"))
            .is_enabled(registry::UNUSED_SUPPRESSION));
    }

    #[test]
    fn per_file_ignores_are_relative_to_their_file() {
        let mut l = layer(None, vec![]);
        l.per_file_ignores = vec![("tests/".into(), vec![US])];
        let s = Settings::from_layers(&[l]).unwrap();
        assert!(!s
            .rules_for(Path::new("/p/tests/x/a.cu"))
            .is_enabled(registry::UNUSED_SUPPRESSION));
        assert!(s
            .rules_for(Path::new("/p/src/a.cu"))
            .is_enabled(registry::UNUSED_SUPPRESSION));
        assert!(s
            .rules_for(Path::new("/q/tests/a.cu"))
            .is_enabled(registry::UNUSED_SUPPRESSION));
    }

    #[test]
    fn excludes_match_directories_and_globs() {
        let mut l = layer(None, vec![]);
        l.exclude = vec!["third_party/".into(), "*.gen.cu".into()];
        let s = Settings::from_layers(&[l]).unwrap();
        assert!(s.is_excluded(Path::new("/p/third_party"), true));
        assert!(s.is_excluded(Path::new("/p/third_party/x/y.cu"), false));
        assert!(s.is_excluded(Path::new("/p/src/k.gen.cu"), false));
        assert!(!s.is_excluded(Path::new("/p/src/k.cu"), false));
    }
}
