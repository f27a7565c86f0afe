//! Makefiles read statically: the nvcc commands of their recipes, with the variables they
//! use (`NVCC_FLAGS`, `GENCODE_FLAGS`...) expanded, give the targets and `-D`s of the `.cu`
//! files those commands compile.
//!
//! Nothing is run. Assignments (`=`, `:=`, `?=`, `+=`) and `include` of project files are
//! followed; `ifeq`/`ifneq`/`ifdef`/`ifndef` are evaluated when their operands are known,
//! otherwise every branch is read: the flags of any branch count (the build may use them),
//! and a `-D` made inside such a branch is dropped (unknown, never assumed). `$(shell ...)`
//! and other functions are unknown (empty), but `$(wildcard ...)`.
//! A recipe's `$<`/`$^` are its rule's prerequisites; a pattern rule (`%.o: %.cu`) compiles
//! every `.cu` file of the Makefile's folder.

use super::flags::{parse_command, shell_words};
use super::normalize;
use super::project::{glob, read_bounded, ProjectBuild, Unit, Variant};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// `include` nesting followed, and files read.
const MAX_INCLUDES: usize = 32;
/// Expansion depth of one variable reference (`$(A)` naming `$(B)`...).
const MAX_EXPANSION_DEPTH: usize = 16;
/// An expansion longer than this stops growing (a variable that appends to itself).
const MAX_EXPANSION_BYTES: usize = 64 * 1024;
/// Variable references expanded while reading one Makefile (a variable naming itself several
/// times must stay linear).
const MAX_REFERENCES: usize = 100_000;

/// Reads a Makefile.
pub fn read(path: &Path) -> ProjectBuild {
    let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
    let mut m = Make {
        dir: dir.clone(),
        vars: HashMap::new(),
        uncertain_words: HashSet::new(),
        recipes: Vec::new(),
        notes: Vec::new(),
        files: 0,
        references: std::cell::Cell::new(0),
    };
    m.file(path, 0);
    let units = m.units();
    ProjectBuild::new(
        path,
        vec![Variant {
            name: String::new(),
            units,
        }],
        m.notes,
    )
}

/// A variable: its value, and whether it expands when used (`=`) or was expanded when set.
#[derive(Clone)]
struct Var {
    value: String,
    recursive: bool,
}

/// A recipe line running nvcc, with its rule's prerequisites.
struct Recipe {
    line: String,
    prerequisites: Vec<String>,
    pattern: bool,
}

struct Make {
    dir: PathBuf,
    vars: HashMap<String, Var>,
    /// Words assigned inside conditionals that could not be evaluated.
    uncertain_words: HashSet<String>,
    recipes: Vec<Recipe>,
    notes: Vec<String>,
    files: usize,
    /// References expanded so far (see [`MAX_REFERENCES`]).
    references: std::cell::Cell<usize>,
}

/// One frame of `ifeq`...`endif`: whether its branch is read (`Some(false)`: skipped) or may
/// or may not hold (`None`).
#[derive(Clone, Copy)]
struct Frame {
    taken: Option<bool>,
    /// A branch of this chain was taken already (an `else` after it is skipped).
    done: bool,
}

impl Make {
    fn file(&mut self, path: &Path, nesting: usize) {
        if nesting > MAX_INCLUDES || self.files > MAX_INCLUDES {
            return;
        }
        self.files += 1;
        let Some(text) = read_bounded(path, &mut self.notes) else {
            return;
        };
        // Line continuations joined.
        let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
        let mut frames: Vec<Frame> = Vec::new();
        let mut rule: Option<(Vec<String>, bool)> = None;
        for raw in joined.lines() {
            let skipping = frames.iter().any(|f| f.taken == Some(false));
            let uncertain = frames.iter().any(|f| f.taken.is_none());
            // A tab starts a recipe line only after a rule; before the first rule (or after
            // a variable definition ends the rule's recipe) it is a makefile line, as GNU make
            // reads it (`\tNVCCFLAGS += -gencode ...` inside an `ifeq` at the top).
            if let (Some(recipe), Some((pre, pattern))) = (raw.strip_prefix('\t'), &rule) {
                if !skipping && (recipe.contains("nvcc") || recipe.contains("NVCC")) {
                    self.recipes.push(Recipe {
                        line: recipe.to_string(),
                        prerequisites: pre.clone(),
                        pattern: *pattern,
                    });
                }
                continue;
            }
            let line = strip_comment(raw).trim();
            if line.is_empty() {
                continue;
            }
            let (word, rest) = line
                .split_once(|c: char| c.is_whitespace())
                .map_or((line, ""), |(w, r)| (w, r.trim()));
            match word {
                "ifeq" | "ifneq" | "ifdef" | "ifndef" => {
                    let taken = if skipping {
                        Some(false)
                    } else {
                        self.condition(word, rest)
                    };
                    frames.push(Frame {
                        taken,
                        done: taken == Some(true),
                    });
                    continue;
                }
                "else" => {
                    if let Some(f) = frames.last_mut() {
                        // `else ifeq (...)`: another condition.
                        let (w2, r2) = rest
                            .split_once(|c: char| c.is_whitespace())
                            .map_or((rest, ""), |(w, r)| (w, r.trim()));
                        let next = if f.done {
                            Some(false)
                        } else if matches!(w2, "ifeq" | "ifneq" | "ifdef" | "ifndef") {
                            self.condition(w2, r2)
                        } else {
                            f.taken.map(|t| !t)
                        };
                        f.done |= next == Some(true);
                        f.taken = if f.done && next != Some(true) {
                            Some(false)
                        } else {
                            next
                        };
                    }
                    continue;
                }
                "endif" => {
                    frames.pop();
                    continue;
                }
                _ => {}
            }
            if skipping {
                continue;
            }
            if matches!(word, "include" | "-include" | "sinclude") {
                for f in self.expand(rest, 0).split_whitespace() {
                    let p = normalize(&self.dir.join(f));
                    if p.is_file() {
                        self.file(&p, nesting + 1);
                    }
                }
                continue;
            }
            if let Some((name, op, value)) = assignment(line) {
                // A variable definition ends the rule's recipe.
                rule = None;
                let value = value.trim().to_string();
                if uncertain {
                    for w in shell_words(&value) {
                        self.uncertain_words.insert(w);
                    }
                }
                match op {
                    ":=" | "::=" | ":::=" => {
                        let v = self.expand(&value, 0);
                        self.vars.insert(
                            name,
                            Var {
                                value: v,
                                recursive: false,
                            },
                        );
                    }
                    "?=" => {
                        self.vars.entry(name).or_insert(Var {
                            value,
                            recursive: true,
                        });
                    }
                    "+=" => {
                        let entry = self.vars.get(&name).cloned();
                        let v = match entry {
                            Some(Var {
                                value: old,
                                recursive: false,
                            }) => Var {
                                value: format!("{old} {}", self.expand(&value, 0)),
                                recursive: false,
                            },
                            Some(Var {
                                value: old,
                                recursive: true,
                            }) => Var {
                                value: format!("{old} {value}"),
                                recursive: true,
                            },
                            None => Var {
                                value,
                                recursive: true,
                            },
                        };
                        self.vars.insert(name, v);
                    }
                    _ => {
                        self.vars.insert(
                            name,
                            Var {
                                value,
                                recursive: true,
                            },
                        );
                    }
                }
                continue;
            }
            // A rule: `targets: prerequisites`.
            if let Some((targets, pre)) = line.split_once(':') {
                if !targets.contains('=') {
                    let pre = pre.split(';').next().unwrap_or("");
                    let pre = self.expand(pre, 0);
                    rule = Some((
                        pre.split_whitespace().map(str::to_string).collect(),
                        targets.contains('%'),
                    ));
                }
            }
        }
    }

    /// `ifeq (a,b)`, `ifeq "a" "b"`, `ifdef X`: `None` when an operand is not known.
    fn condition(&self, word: &str, rest: &str) -> Option<bool> {
        match word {
            "ifdef" | "ifndef" => {
                let name = rest.trim();
                let set = self.vars.get(name).map(|v| !v.value.trim().is_empty());
                // A variable the Makefile never sets may come from the command line.
                let set = set?;
                Some(set == (word == "ifdef"))
            }
            _ => {
                let (a, b) =
                    if let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
                        split_comma(inner)?
                    } else {
                        let mut parts = rest.split_whitespace();
                        let a = parts.next()?.trim_matches(['"', '\'']);
                        let b = parts.next()?.trim_matches(['"', '\'']);
                        (a.to_string(), b.to_string())
                    };
                if !self.known(&a) || !self.known(&b) {
                    return None;
                }
                let equal = self.expand(&a, 0).trim() == self.expand(&b, 0).trim();
                Some(equal == (word == "ifeq"))
            }
        }
    }

    /// Whether every variable `s` names is set by the Makefile (and uses no function).
    fn known(&self, s: &str) -> bool {
        let mut rest = s;
        while let Some(at) = rest.find('$') {
            let after = &rest[at + 1..];
            let Some(open) = after.chars().next() else {
                return false;
            };
            let close = match open {
                '(' => ')',
                '{' => '}',
                _ => return false,
            };
            let Some(end) = after.find(close) else {
                return false;
            };
            let name = &after[1..end];
            if name.contains([' ', '$']) || !self.vars.contains_key(name) {
                return false;
            }
            rest = &after[end + 1..];
        }
        true
    }

    /// Expands `$(VAR)`, `${VAR}` and `$(wildcard ...)`; other functions and automatic
    /// variables are empty.
    fn expand(&self, s: &str, depth: usize) -> String {
        if depth > MAX_EXPANSION_DEPTH || !s.contains('$') {
            return s.to_string();
        }
        let spent = self.references.get();
        if spent >= MAX_REFERENCES {
            return String::new();
        }
        self.references.set(spent + 1);
        let mut out = String::with_capacity(s.len());
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if out.len() > MAX_EXPANSION_BYTES {
                break;
            }
            if b[i] != b'$' {
                let next = s[i..].find('$').map_or(s.len(), |n| i + n);
                out.push_str(&s[i..next]);
                i = next;
                continue;
            }
            let Some(&open) = b.get(i + 1) else {
                break;
            };
            let close = match open {
                b'(' => b')',
                b'{' => b'}',
                b'$' => {
                    out.push('$');
                    i += 2;
                    continue;
                }
                _ => {
                    // `$@`, `$<`, `$X`: one character.
                    let name_len = s[i + 1..].chars().next().map_or(1, char::len_utf8);
                    let name = &s[i + 1..i + 1 + name_len];
                    if let Some(v) = self.vars.get(name) {
                        out.push_str(&self.value(v, depth));
                    } else if matches!(name, "<" | "^") {
                        out.push_str(&format!("$${name}"));
                    }
                    i += 1 + name_len;
                    continue;
                }
            };
            // The matching close, counting nested references.
            let mut d = 0;
            let mut j = i + 1;
            let mut end = None;
            while j < b.len() {
                if b[j] == open {
                    d += 1;
                } else if b[j] == close {
                    d -= 1;
                    if d == 0 {
                        end = Some(j);
                        break;
                    }
                }
                j += 1;
            }
            let Some(end) = end else {
                break;
            };
            let inner = &s[i + 2..end];
            if let Some(pattern) = inner.strip_prefix("wildcard ") {
                let found: Vec<String> = self
                    .expand(pattern, depth + 1)
                    .split_whitespace()
                    .flat_map(|p| glob(&self.dir, p))
                    .map(|p| p.display().to_string())
                    .collect();
                out.push_str(&found.join(" "));
            } else if !inner.contains([' ', ',']) {
                let name = self.expand(inner, depth + 1);
                if let Some(v) = self.vars.get(name.as_str()) {
                    out.push_str(&self.value(v, depth));
                }
            }
            i = end + 1;
        }
        out
    }

    fn value(&self, v: &Var, depth: usize) -> String {
        if v.recursive {
            self.expand(&v.value, depth + 1)
        } else {
            v.value.clone()
        }
    }

    fn units(&mut self) -> Vec<Unit> {
        let mut out = Vec::new();
        for r in &self.recipes {
            let mut line = self.expand(&r.line, 0);
            // `$<` and `$^`: the rule's prerequisites.
            line = line
                .replace("$$<", r.prerequisites.first().map_or("", String::as_str))
                .replace("$$^", &r.prerequisites.join(" "));
            let words = shell_words(&line);
            let Some(start) = words.iter().position(|w| {
                Path::new(w)
                    .file_name()
                    .is_some_and(|n| n == "nvcc" || n == "nvcc.exe")
            }) else {
                continue;
            };
            let words = &words[start..];
            let mut flags = parse_command(words, &self.dir);
            let certain: Vec<String> = words
                .iter()
                .filter(|w| !self.uncertain_words.contains(*w))
                .cloned()
                .collect();
            flags.macros = parse_command(&certain, &self.dir).macros;
            flags.notes.clear();
            let mut sources: Vec<PathBuf> = words[1..]
                .iter()
                .filter(|w| w.ends_with(".cu") && !w.contains('%'))
                .map(|w| normalize(&self.dir.join(w)))
                .collect();
            if sources.is_empty() && r.pattern {
                sources = glob(&self.dir, "*.cu");
            }
            for s in sources {
                out.push(Unit {
                    file: s,
                    flags: flags.clone(),
                    origin: "nvcc recipe".into(),
                });
            }
        }
        out
    }
}

/// `NAME op value` with op one of `=`, `:=`, `::=`, `?=`, `+=` (after `override`/`export`).
fn assignment(line: &str) -> Option<(String, &'static str, &str)> {
    let line = line
        .strip_prefix("override ")
        .or_else(|| line.strip_prefix("export "))
        .unwrap_or(line)
        .trim_start();
    let eq = line.find('=')?;
    let before = &line[..eq];
    let (name, op) = if let Some(n) = before.strip_suffix(":::") {
        (n, ":::=")
    } else if let Some(n) = before.strip_suffix("::") {
        (n, "::=")
    } else if let Some(n) = before.strip_suffix(':') {
        (n, ":=")
    } else if let Some(n) = before.strip_suffix('?') {
        (n, "?=")
    } else if let Some(n) = before.strip_suffix('+') {
        (n, "+=")
    } else {
        (before, "=")
    };
    let name = name.trim();
    if name.is_empty() || name.contains([' ', '\t', ':', '$', '(']) {
        return None;
    }
    Some((name.to_string(), op, &line[eq + 1..]))
}

fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(i) if !line[..i].ends_with('\\') => &line[..i],
        _ => line,
    }
}

/// `a,b` at depth 0 (parentheses of references count).
fn split_comma(s: &str) -> Option<(String, String)> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                return Some((s[..i].trim().to_string(), s[i + 1..].trim().to_string()))
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests;
