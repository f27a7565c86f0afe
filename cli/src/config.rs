//! Configuration files: `ptxguard.toml` / `.ptxguard.toml`, found upward from each file.
//!
//! A file is parsed into a [`ConfigLayer`]; `extend = "path"` puts the extended file's layer
//! before it. The command line is one more layer on top. [`crate::settings`] merges layers.

use crate::registry::{self, suggest};
use ptxguard_analyzer::isa::Target;
use ptxguard_analyzer::Severity;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Component, Path, PathBuf};
use toml::Spanned;

/// Looked for in this order in each directory; the first one found wins.
pub const CONFIG_FILE_NAMES: [&str; 2] = ["ptxguard.toml", ".ptxguard.toml"];

const KEYS: [&str; 15] = [
    "extend",
    "select",
    "ignore",
    "extend-select",
    "severity",
    "per-file-ignores",
    "exclude",
    "extensions",
    "target",
    "cccl-version",
    "compile-commands",
    "cuda-version",
    "targets",
    "cache",
    "portability",
];

/// The default file extensions walked in directories.
pub const DEFAULT_EXTENSIONS: [&str; 11] = ptxguard_analyzer::source::SOURCE_EXTENSIONS;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based line and column of the offending text, when known.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => {
                write!(f, "{}:{line}:{col}: {}", self.path.display(), self.message)
            }
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

/// `all`, or one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSelector {
    All,
    Rule(&'static str),
}

impl RuleSelector {
    pub fn parse(name: &str) -> Result<RuleSelector, String> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("all") {
            return Ok(RuleSelector::All);
        }
        registry::find_rule(name)
            .map(|r| RuleSelector::Rule(r.name))
            .ok_or_else(|| registry::unknown_rule_message(name))
    }

    pub fn matches(self, rule: &str) -> bool {
        match self {
            RuleSelector::All => true,
            RuleSelector::Rule(r) => r == rule,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RuleSelector::All => "all",
            RuleSelector::Rule(r) => r,
        }
    }
}

/// One source of settings: a configuration file or the command line.
#[derive(Clone, Debug, Default)]
pub struct ConfigLayer {
    /// The file it came from; `None` for the command line.
    pub origin: Option<PathBuf>,
    /// Relative globs (`exclude`, `per-file-ignores`) are relative to this directory.
    pub dir: PathBuf,
    pub select: Option<Vec<RuleSelector>>,
    pub ignore: Vec<RuleSelector>,
    pub extend_select: Vec<RuleSelector>,
    pub severity: Vec<(RuleSelector, Severity)>,
    pub per_file_ignores: Vec<(String, Vec<RuleSelector>)>,
    pub exclude: Vec<String>,
    pub extensions: Option<Vec<String>>,
    /// `target`: names checked when read (an unknown one is an error of the configuration).
    pub target: Option<Vec<Target>>,
    pub cccl_version: Option<String>,
    /// `compile-commands`: the compilation database (absolute).
    pub compile_commands: Option<PathBuf>,
    /// `cuda-version`: the toolkit the code is built with (`12.6`).
    pub cuda_version: Option<String>,
    /// `[targets]`: targets per glob, relative to `dir`.
    pub targets_by_glob: Vec<(String, Vec<Target>)>,
    /// `cache`: whether results are kept in and taken from the result cache.
    pub cache: Option<bool>,
    /// `portability`: compilers besides nvcc the code must build with (replaces earlier layers).
    pub portability: Option<Vec<ptxguard_rules::Compiler>>,
}

/// The configuration file in `dir` itself, if any.
pub fn config_file_in(dir: &Path) -> Option<PathBuf> {
    CONFIG_FILE_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|p| p.is_file())
}

/// Reads a configuration file and everything it extends; base layers come first.
pub fn load_chain(path: &Path) -> Result<Vec<ConfigLayer>, ConfigError> {
    let mut chain: Vec<ConfigLayer> = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut next = Some(path.to_path_buf());
    while let Some(path) = next.take() {
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.contains(&key) {
            return Err(ConfigError {
                path: chain.last().and_then(|l| l.origin.clone()).unwrap_or(path),
                position: None,
                message: "`extend` forms a cycle".into(),
            });
        }
        seen.push(key);
        let text = ptxguard_analyzer::source::read_input_to_string(
            &path,
            ptxguard_analyzer::source::MAX_CONFIG_BYTES,
        )
        .map_err(|e| ConfigError {
            path: path.clone(),
            position: None,
            message: format!("cannot read configuration file: {e}"),
        })?;
        let (layer, extend) = parse_layer(&path, &text)?;
        next = extend;
        chain.push(layer);
    }
    chain.reverse();
    Ok(chain)
}

/// Parses one configuration file. Returns its layer and the absolute path it extends.
pub fn parse_layer(path: &Path, text: &str) -> Result<(ConfigLayer, Option<PathBuf>), ConfigError> {
    let err_at = |span: Option<std::ops::Range<usize>>, message: String| ConfigError {
        path: path.to_path_buf(),
        position: span.map(|s| line_col(text, s.start)),
        message,
    };
    let table: BTreeMap<Spanned<String>, Spanned<toml::Value>> =
        toml::from_str(text).map_err(|e| {
            // One line: each problem is printed on one line of its own.
            let message = e.message().trim().lines().collect::<Vec<_>>().join("; ");
            err_at(e.span(), message)
        })?;
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut layer = ConfigLayer {
        origin: Some(path.to_path_buf()),
        dir: dir.clone(),
        ..ConfigLayer::default()
    };
    let mut extend = None;
    for (key, value) in &table {
        let name = key.get_ref().as_str();
        let key_span = Some(key.span());
        let value_span = value.span();
        let ctx = ValueCtx {
            text,
            span: value_span.clone(),
            key: name,
        };
        match name {
            "extend" => {
                let target = ctx
                    .string(value.get_ref())
                    .map_err(|m| err_at(Some(value_span), m))?;
                extend = Some(normalize(&dir.join(target)));
            }
            "select" => {
                layer.select = Some(
                    ctx.selectors(value.get_ref())
                        .map_err(|(s, m)| err_at(Some(s), m))?,
                )
            }
            "ignore" => {
                layer.ignore = ctx
                    .selectors(value.get_ref())
                    .map_err(|(s, m)| err_at(Some(s), m))?
            }
            "extend-select" => {
                layer.extend_select = ctx
                    .selectors(value.get_ref())
                    .map_err(|(s, m)| err_at(Some(s), m))?
            }
            "severity" => {
                layer.severity = ctx
                    .severities(value.get_ref())
                    .map_err(|(s, m)| err_at(Some(s), m))?
            }
            "per-file-ignores" => {
                layer.per_file_ignores = ctx
                    .per_file_ignores(value.get_ref())
                    .map_err(|(s, m)| err_at(Some(s), m))?
            }
            "exclude" => {
                layer.exclude = ctx
                    .strings(value.get_ref())
                    .map_err(|m| err_at(Some(value_span), m))?
            }
            "extensions" => {
                let list = ctx
                    .strings(value.get_ref())
                    .map_err(|m| err_at(Some(value_span), m))?;
                layer.extensions = Some(list.iter().map(|e| normalize_extension(e)).collect());
            }
            "target" => {
                let list = ctx
                    .string_or_list(value.get_ref())
                    .map_err(|m| err_at(Some(value_span.clone()), m))?;
                let targets = list
                    .iter()
                    .map(|t| validate_target(t).map_err(|m| err_at(Some(ctx.find(t)), m)))
                    .collect::<Result<_, _>>()?;
                layer.target = Some(targets);
            }
            "cccl-version" => {
                let v = ctx
                    .string(value.get_ref())
                    .map_err(|m| err_at(Some(value_span.clone()), m))?;
                validate_version(&v).map_err(|m| err_at(Some(value_span), m))?;
                layer.cccl_version = Some(v);
            }
            "compile-commands" => {
                let v = ctx
                    .string(value.get_ref())
                    .map_err(|m| err_at(Some(value_span), m))?;
                layer.compile_commands = Some(normalize(&dir.join(v)));
            }
            "cuda-version" => {
                let v = ctx
                    .string(value.get_ref())
                    .map_err(|m| err_at(Some(value_span.clone()), m))?;
                validate_cuda_version(&v).map_err(|m| err_at(Some(value_span), m))?;
                layer.cuda_version = Some(v);
            }
            "portability" => {
                let list = ctx
                    .string_or_list(value.get_ref())
                    .map_err(|m| err_at(Some(value_span.clone()), m))?;
                let compilers = list
                    .iter()
                    .map(|c| parse_compiler(c).map_err(|m| err_at(Some(ctx.find(c)), m)))
                    .collect::<Result<_, _>>()?;
                layer.portability = Some(compilers);
            }
            "targets" => {
                let toml::Value::Table(table) = value.get_ref() else {
                    return Err(err_at(
                        Some(value_span),
                        "`targets` must be a table of `\"glob\" = [\"sm_90a\", ...]`".into(),
                    ));
                };
                for (glob, list) in table {
                    let list = ctx.string_or_list(list).map_err(|m| {
                        err_at(Some(ctx.find(glob)), format!("`targets.\"{glob}\"`: {m}"))
                    })?;
                    let targets = list
                        .iter()
                        .map(|t| validate_target(t).map_err(|m| err_at(Some(ctx.find(t)), m)))
                        .collect::<Result<_, _>>()?;
                    layer.targets_by_glob.push((glob.clone(), targets));
                }
            }
            "cache" => match value.get_ref() {
                toml::Value::Boolean(b) => layer.cache = Some(*b),
                other => {
                    return Err(err_at(
                        Some(value_span),
                        format!("`cache` must be true or false, not {}", other.type_str()),
                    ))
                }
            },
            _ => {
                let message = match suggest(name, KEYS) {
                    Some(s) => format!("unknown key `{name}`; did you mean `{s}`?"),
                    None => format!("unknown key `{name}`; known keys: {}", KEYS.join(", ")),
                };
                return Err(err_at(key_span, message));
            }
        }
    }
    Ok((layer, extend))
}

/// Where a value sits in the file, to point errors at the element that is wrong.
struct ValueCtx<'a> {
    text: &'a str,
    span: std::ops::Range<usize>,
    key: &'a str,
}

type SpannedError = (std::ops::Range<usize>, String);

impl ValueCtx<'_> {
    /// The span of `needle` inside this value, or the whole value.
    fn find(&self, needle: &str) -> std::ops::Range<usize> {
        let haystack = self.text.get(self.span.clone()).unwrap_or("");
        match haystack.find(needle) {
            Some(i) => {
                let start = self.span.start + i;
                start..start + needle.len()
            }
            None => self.span.clone(),
        }
    }

    fn string(&self, value: &toml::Value) -> Result<String, String> {
        match value {
            toml::Value::String(s) => Ok(s.clone()),
            other => Err(format!(
                "`{}` must be a string, not {}",
                self.key,
                other.type_str()
            )),
        }
    }

    fn strings(&self, value: &toml::Value) -> Result<Vec<String>, String> {
        let toml::Value::Array(items) = value else {
            return Err(format!(
                "`{}` must be an array of strings, not {}",
                self.key,
                value.type_str()
            ));
        };
        items
            .iter()
            .map(|item| match item {
                toml::Value::String(s) => Ok(s.clone()),
                other => Err(format!(
                    "`{}` must be an array of strings; found {}",
                    self.key,
                    other.type_str()
                )),
            })
            .collect()
    }

    /// `"sm_80,sm_90a"` or `["sm_80", "sm_90a"]`.
    fn string_or_list(&self, value: &toml::Value) -> Result<Vec<String>, String> {
        match value {
            toml::Value::String(s) => Ok(split_list(s)),
            _ => self.strings(value),
        }
    }

    fn selectors(&self, value: &toml::Value) -> Result<Vec<RuleSelector>, SpannedError> {
        let names = self.strings(value).map_err(|m| (self.span.clone(), m))?;
        names
            .iter()
            .map(|n| RuleSelector::parse(n).map_err(|m| (self.find(&format!("\"{n}\"")), m)))
            .collect()
    }

    fn severities(
        &self,
        value: &toml::Value,
    ) -> Result<Vec<(RuleSelector, Severity)>, SpannedError> {
        let toml::Value::Table(table) = value else {
            return Err((
                self.span.clone(),
                "`severity` must be a table of `rule = \"error\"|\"warning\"|\"info\"`".into(),
            ));
        };
        let mut out = Vec::new();
        for (rule, level) in table {
            let selector = RuleSelector::parse(rule).map_err(|m| (self.find(rule), m))?;
            let level_str = level.as_str().unwrap_or("");
            let severity = Severity::parse(level_str).ok_or_else(|| {
                let levels = ["error", "warning", "info"];
                let hint = suggest(level_str, levels)
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                (
                    self.find(rule),
                    format!(
                        "severity of `{rule}` must be \"error\", \"warning\" or \"info\", not {level}{hint}"
                    ),
                )
            })?;
            out.push((selector, severity));
        }
        Ok(out)
    }

    fn per_file_ignores(
        &self,
        value: &toml::Value,
    ) -> Result<Vec<(String, Vec<RuleSelector>)>, SpannedError> {
        let toml::Value::Table(table) = value else {
            return Err((
                self.span.clone(),
                "`per-file-ignores` must be a table of `\"glob\" = [\"rule\", ...]`".into(),
            ));
        };
        let mut out = Vec::new();
        for (glob, rules) in table {
            let toml::Value::Array(items) = rules else {
                return Err((
                    self.find(glob),
                    format!("`per-file-ignores.\"{glob}\"` must be an array of rule names"),
                ));
            };
            let mut selectors = Vec::new();
            for item in items {
                let name = item.as_str().ok_or_else(|| {
                    (
                        self.find(glob),
                        format!("`per-file-ignores.\"{glob}\"` must be an array of rule names"),
                    )
                })?;
                selectors.push(
                    RuleSelector::parse(name)
                        .map_err(|m| (self.find(&format!("\"{name}\"")), m))?,
                );
            }
            out.push((glob.clone(), selectors));
        }
        Ok(out)
    }
}

pub fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// `.cu` and `cu` both mean the extension `cu`.
pub fn normalize_extension(ext: &str) -> String {
    ext.trim().trim_start_matches('.').to_string()
}

/// `sm_80`, `sm_90a`, `sm_100f`, `compute_90`: the target, or why the name is none.
pub fn validate_target(target: &str) -> Result<Target, String> {
    let digits_and_suffix = target
        .strip_prefix("sm_")
        .or_else(|| target.strip_prefix("compute_"));
    let ok = digits_and_suffix.is_some_and(|rest| {
        let digits = rest.trim_end_matches(|c: char| c.is_ascii_lowercase());
        !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
            && rest.len() - digits.len() <= 1
    });
    if !ok {
        return Err(format!(
            "`{target}` is not an SM target; write it like `sm_80` or `sm_90a`"
        ));
    }
    match Target::parse(target) {
        Some(t) if ptxguard_analyzer::build::toolkit::is_known_target(&t) => Ok(t),
        _ => Err(format!(
            "`{target}` is not a target any CUDA toolkit compiles for (known: sm_75 to sm_121, with `a`/`f` forms where they exist)"
        )),
    }
}

/// A `portability` entry: a compiler besides nvcc (`clang`).
pub fn parse_compiler(name: &str) -> Result<ptxguard_rules::Compiler, String> {
    let known = ptxguard_rules::Compiler::ALL.map(|c| c.name());
    ptxguard_rules::Compiler::parse(name).ok_or_else(|| {
        let hint = suggest(name, known)
            .map(|s| format!("; did you mean `{s}`?"))
            .unwrap_or_default();
        format!(
            "`{name}` is not a compiler ptxguard checks portability to (known: {}){hint}",
            known.join(", ")
        )
    })
}

/// `12.6`, `13.0`: a CUDA toolkit whose PTX ISA version is known.
pub fn validate_cuda_version(version: &str) -> Result<(), String> {
    match ptxguard_analyzer::build::CudaVersion::parse(version) {
        Some(v) if v.major >= 11 => Ok(()),
        _ => Err(format!(
            "`{version}` is not a CUDA version ptxguard knows; write it like `12.6` (11.0 or later)"
        )),
    }
}

/// `3`, `3.0` or `3.0.0`.
pub fn validate_version(version: &str) -> Result<(), String> {
    let parts: Vec<&str> = version.split('.').collect();
    if parts.len() <= 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    {
        Ok(())
    } else {
        Err(format!(
            "`{version}` is not a version; write it like `3.0` or `3.0.0`"
        ))
    }
}

/// 1-based line and character column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// An absolute path with `.` and `..` resolved lexically (symlinks are kept as they are).
pub fn absolutize(path: &Path, cwd: &Path) -> PathBuf {
    if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&cwd.join(path))
    }
}

pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ConfigLayer, ConfigError> {
        parse_layer(Path::new("/p/ptxguard.toml"), text).map(|(l, _)| l)
    }

    #[test]
    fn parses_every_key() {
        let layer = parse(
            r#"
select = ["all"]
ignore = ["unused-suppression"]
extend-select = []
exclude = ["third_party/"]
extensions = [".cu", "cuh"]
target = "sm_80, sm_90a"
cccl-version = "3.0"
cache = false
[severity]
unused-suppression = "error"
[per-file-ignores]
"tests/**" = ["unused-suppression"]
"#,
        )
        .unwrap();
        assert_eq!(layer.select, Some(vec![RuleSelector::All]));
        assert_eq!(layer.ignore, vec![RuleSelector::Rule("unused-suppression")]);
        assert_eq!(layer.extensions, Some(vec!["cu".into(), "cuh".into()]));
        let names = layer.target.as_ref().map(|ts| {
            ts.iter()
                .map(ptxguard_analyzer::build::toolkit::target_name)
                .collect::<Vec<_>>()
        });
        assert_eq!(names, Some(vec!["sm_80".to_string(), "sm_90a".to_string()]));
        assert_eq!(layer.cache, Some(false));
        assert_eq!(layer.severity.len(), 1);
        assert_eq!(layer.per_file_ignores[0].0, "tests/**");
        assert_eq!(layer.dir, PathBuf::from("/p"));
    }

    #[test]
    fn unknown_key_suggests_and_points_at_it() {
        let err = parse("target = \"sm_80\"\nselct = []\n").unwrap_err();
        assert_eq!(err.position, Some((2, 1)));
        assert!(
            err.message
                .contains("unknown key `selct`; did you mean `select`?"),
            "{err}"
        );
    }

    #[test]
    fn unknown_rule_suggests() {
        let err = parse("ignore = [\"unused-supression\"]\n").unwrap_err();
        assert_eq!(err.position, Some((1, 11)));
        assert!(
            err.message.contains("did you mean `unused-suppression`?"),
            "{err}"
        );
        let err = parse("[severity]\nunused-suppresion = \"error\"\n").unwrap_err();
        assert!(err.message.contains("did you mean"), "{err}");
    }

    #[test]
    fn bad_values_are_errors() {
        assert!(parse("target = [\"sm80\"]")
            .unwrap_err()
            .message
            .contains("sm_80"));
        assert!(parse("cccl-version = \"three\"").is_err());
        assert!(parse("cache = \"no\"")
            .unwrap_err()
            .message
            .contains("true or false"));
        assert!(parse("select = \"all\"")
            .unwrap_err()
            .message
            .contains("array"));
        let err = parse("[severity]\nunused-suppression = \"eror\"\n").unwrap_err();
        assert!(err.message.contains("did you mean `error`?"), "{err}");
        let err = parse("select = [").unwrap_err();
        assert!(err.position.is_some(), "{err}");
    }

    #[test]
    fn targets_are_validated() {
        for ok in ["sm_80", "sm_90a", "sm_100f", "compute_90"] {
            assert!(validate_target(ok).is_ok(), "{ok}");
        }
        for bad in ["sm80", "sm_", "sm_90ab", "gfx90a"] {
            assert!(validate_target(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn normalize_resolves_dots() {
        assert_eq!(
            absolutize(Path::new("./a/../b/c.cu"), Path::new("/w")),
            PathBuf::from("/w/b/c.cu")
        );
    }
}
