//! The include graph of a database's translation units: which units include each header
//! (directly or not), resolved with each unit's own include paths.

use super::Entry;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A simple condition around an `#include`: `#ifdef X`, `#ifndef X`, `#if defined(A) ||
/// defined(B)`, `#if !defined(X)`, or their `#else`: true when any of `names` is defined
/// (`want`), or none is (`!want`). Other conditions are not modelled (`names` empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub names: Vec<String>,
    pub want: bool,
}

/// One `#include "name"` (quoted: true) or `#include <name>`, with the guards around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Include {
    pub quoted: bool,
    pub name: String,
    pub guards: Vec<Guard>,
}

/// The `#include`s of `text`, in order. One pass over its directives; conditions are a
/// stack of frames, never a recursion.
pub fn include_names(text: &str) -> Vec<Include> {
    let mut out = Vec::new();
    let mut stack: Vec<Guard> = Vec::new();
    let b = text.as_bytes();
    for hash in memchr::memchr_iter(b'#', b) {
        // Only a `#` that starts its line (after blanks) begins a directive.
        let line_start = b[..hash]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        if !b[line_start..hash]
            .iter()
            .all(|c| matches!(c, b' ' | b'\t'))
        {
            continue;
        }
        let line_end = text[hash..].find('\n').map_or(text.len(), |i| hash + i);
        let rest = text[hash + 1..line_end].trim_start_matches([' ', '\t']);
        let word_end = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        let (word, args) = (&rest[..word_end], rest[word_end..].trim());
        match word {
            "ifdef" => stack.push(Guard {
                names: first_word(args),
                want: true,
            }),
            "ifndef" => stack.push(Guard {
                names: first_word(args),
                want: false,
            }),
            "if" => stack.push(simple_if(args)),
            "elif" | "elifdef" | "elifndef" => {
                if let Some(top) = stack.last_mut() {
                    top.names.clear();
                }
            }
            "else" => {
                if let Some(top) = stack.last_mut() {
                    top.want = !top.want;
                }
            }
            "endif" => {
                stack.pop();
            }
            "include" => {
                if let Some((quoted, name)) = include_operand(args) {
                    out.push(Include {
                        quoted,
                        name: name.to_string(),
                        guards: stack
                            .iter()
                            .filter(|g| !g.names.is_empty())
                            .cloned()
                            .collect(),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// What follows `include` in a directive: `"name"` (quoted: true) or `<name>`. A computed
/// include (`#include MACRO`) or an unterminated one is `None`.
pub fn include_operand(args: &str) -> Option<(bool, &str)> {
    let args = args.trim_start_matches([' ', '\t']);
    let (quoted, close) = match args.as_bytes().first() {
        Some(b'"') => (true, '"'),
        Some(b'<') => (false, '>'),
        _ => return None,
    };
    let body = &args[1..];
    let end = body.find(close).filter(|&e| e > 0)?;
    Some((quoted, &body[..end]))
}

/// The file an `#include` names, as the compiler looks for it: a quoted name beside the
/// including file first, then each include directory in order.
pub fn resolve_include(
    including_dir: &Path,
    name: &str,
    quoted: bool,
    include_dirs: &[PathBuf],
) -> Option<PathBuf> {
    quoted
        .then(|| beside(including_dir, name))
        .flatten()
        .or_else(|| on_include_path(name, include_dirs))
}

/// A quoted include's file in the including file's folder.
fn beside(including_dir: &Path, name: &str) -> Option<PathBuf> {
    Some(super::normalize(&including_dir.join(name))).filter(|p| p.is_file())
}

/// The first include directory that holds `name`.
fn on_include_path(name: &str, include_dirs: &[PathBuf]) -> Option<PathBuf> {
    include_dirs
        .iter()
        .map(|d| super::normalize(&d.join(name)))
        .find(|p| p.is_file())
}

fn first_word(args: &str) -> Vec<String> {
    args.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .find(|w| !w.is_empty())
        .map(|w| vec![w.to_string()])
        .unwrap_or_default()
}

/// `defined(A) || defined B` (want: true) or `!defined(A)` (want: false); else not modelled.
fn simple_if(args: &str) -> Guard {
    let args = args.split("//").next().unwrap_or("").trim();
    if let Some(inner) = args.strip_prefix('!') {
        let g = simple_if(inner.trim());
        if g.want && g.names.len() == 1 {
            return Guard {
                names: g.names,
                want: false,
            };
        }
        return Guard {
            names: Vec::new(),
            want: true,
        };
    }
    let mut names = Vec::new();
    for part in args.split("||") {
        let p = part
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim();
        let Some(rest) = p.strip_prefix("defined") else {
            return Guard {
                names: Vec::new(),
                want: true,
            };
        };
        let name = rest
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim();
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return Guard {
                names: Vec::new(),
                want: true,
            };
        }
        names.push(name.to_string());
    }
    Guard { names, want: true }
}

/// For each header some unit includes, the indices of those units (sorted). Files are read
/// once each; the walk is a work list, never a recursion.
///
/// An `#include` under `#ifdef X` is followed only where the unit may define `X`: macros some
/// entry of the database sets with `-D`/`-U` are configuration macros, decided by each
/// unit's command line (`-DKITTENS_HOPPER` units do not include the Blackwell headers).
pub fn includers(entries: &[Entry]) -> HashMap<PathBuf, Vec<usize>> {
    use super::MacroFlag;
    let config_macros: HashSet<&str> = entries
        .iter()
        .flat_map(|e| e.flags.macros.iter())
        .map(|m| match m {
            MacroFlag::Define(n, _) | MacroFlag::Undef(n) => n.as_str(),
        })
        .collect();
    // Files by id; each file's includes (read once) and, per include-path list, the ids
    // its includes resolve to (resolved once).
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut ids: HashMap<PathBuf, u32> = HashMap::new();
    let mut includes: Vec<Option<Vec<Include>>> = Vec::new();
    let mut children: HashMap<(u32, usize), Vec<(u32, usize)>> = HashMap::new();
    let mut lists: HashMap<&[PathBuf], usize> = HashMap::new();
    // Where a name is found on an include path, by path list: most headers are included
    // from many files, and each look is a `stat` per folder.
    let mut on_path: HashMap<(usize, String), Option<PathBuf>> = HashMap::new();
    // Quoted names beside the including file, by folder: its siblings include the same ones.
    let mut beside_in: HashMap<(PathBuf, String), Option<PathBuf>> = HashMap::new();
    let mut intern =
        |p: PathBuf, paths: &mut Vec<PathBuf>, includes: &mut Vec<Option<Vec<Include>>>| -> u32 {
            *ids.entry(p.clone()).or_insert_with(|| {
                paths.push(p);
                includes.push(None);
                (paths.len() - 1) as u32
            })
        };
    // The units' own files, read on every core: most of the reading is there.
    let mut pre_read = read_units(entries);
    // `mark[id] == unit + 1`: already reached from this unit.
    let mut mark: Vec<usize> = Vec::new();
    let mut units_of: Vec<Vec<usize>> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let next_id = lists.len();
        let list = *lists
            .entry(entry.flags.include_dirs.as_slice())
            .or_insert(next_id);
        let mut defined: HashSet<&str> = HashSet::new();
        for m in &entry.flags.macros {
            match m {
                MacroFlag::Define(n, _) => defined.insert(n.as_str()),
                MacroFlag::Undef(n) => defined.remove(n.as_str()),
            };
        }
        let follows = |g: &Guard| {
            if g.names.iter().any(|n| !config_macros.contains(n.as_str())) {
                return true;
            }
            g.names.iter().any(|n| defined.contains(n.as_str())) == g.want
        };
        let mut work: Vec<u32> = std::iter::once(entry.file.clone())
            .chain(entry.flags.forced_includes.iter().cloned())
            .map(|p| intern(p, &mut paths, &mut includes))
            .collect();
        if let Some(&unit) = work.first() {
            let slot = &mut includes[unit as usize];
            if slot.is_none() {
                *slot = Some(
                    pre_read
                        .get_mut(index)
                        .map(std::mem::take)
                        .unwrap_or_default(),
                );
            }
        }
        let mut reached: Vec<u32> = Vec::new();
        while let Some(file) = work.pop() {
            let f = file as usize;
            if includes[f].is_none() {
                includes[f] = Some(
                    super::read_header(&paths[f])
                        .map(|t| include_names(&t))
                        .unwrap_or_default(),
                );
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = children.entry((file, list)) {
                let dir = paths[f].parent().unwrap_or(Path::new("")).to_path_buf();
                let mut kids = Vec::new();
                let incs = includes[f].take().unwrap_or_default();
                for (k, inc) in incs.iter().enumerate() {
                    // `resolve_include`, each half remembered.
                    let here = if inc.quoted {
                        beside_in
                            .entry((dir.clone(), inc.name.clone()))
                            .or_insert_with(|| beside(&dir, &inc.name))
                            .clone()
                    } else {
                        None
                    };
                    let hit = here.or_else(|| {
                        on_path
                            .entry((list, inc.name.clone()))
                            .or_insert_with(|| {
                                on_include_path(&inc.name, &entry.flags.include_dirs)
                            })
                            .clone()
                    });
                    if let Some(h) = hit {
                        kids.push((intern(h, &mut paths, &mut includes), k));
                    }
                }
                includes[f] = Some(incs);
                slot.insert(kids);
            }
            let incs = includes[f].as_deref().unwrap_or(&[]);
            for &(child, k) in &children[&(file, list)] {
                if !incs[k].guards.iter().all(&follows) {
                    continue;
                }
                let c = child as usize;
                if mark.len() <= c {
                    mark.resize(paths.len().max(c + 1), 0);
                }
                if mark[c] != index + 1 {
                    mark[c] = index + 1;
                    reached.push(child);
                    work.push(child);
                }
            }
        }
        for header in reached {
            let h = header as usize;
            if units_of.len() <= h {
                units_of.resize(paths.len().max(h + 1), Vec::new());
            }
            units_of[h].push(index);
        }
    }
    let mut out: HashMap<PathBuf, Vec<usize>> = HashMap::new();
    for (id, units) in units_of.into_iter().enumerate() {
        if !units.is_empty() {
            out.insert(paths[id].clone(), units);
        }
    }
    out
}

/// The includes of each entry's own file, read in parallel.
fn read_units(entries: &[Entry]) -> Vec<Vec<Include>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    let chunk = entries.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = entries
            .chunks(chunk)
            .map(|part| {
                let len = part.len();
                let handle = scope.spawn(move || {
                    part.iter()
                        .map(|e| {
                            super::read_header(&e.file)
                                .map(|t| include_names(&t))
                                .unwrap_or_default()
                        })
                        .collect::<Vec<_>>()
                });
                (len, handle)
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|(len, h)| h.join().unwrap_or_else(|_| vec![Vec::new(); len]))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lines() {
        let text = "#include \"a.h\"\n  #  include <b/c.cuh>\nint x; #include \"no.h\"\n#include MACRO\n#include \"open\n#pragma once\n";
        let found: Vec<(bool, String)> = include_names(text)
            .into_iter()
            .map(|i| (i.quoted, i.name))
            .collect();
        assert_eq!(found, [(true, "a.h".into()), (false, "b/c.cuh".into())]);
    }

    #[test]
    fn guards_around_includes() {
        let text = "#ifdef HOPPER\n#include \"h.cuh\"\n#else\n#include \"o.cuh\"\n#endif\n#if defined(A) || defined(B)\n#include \"ab.cuh\"\n#endif\n#if X > 1\n#include \"x.cuh\"\n#endif\n";
        let incs = include_names(text);
        let guard = |names: &[&str], want: bool| Guard {
            names: names.iter().map(|n| n.to_string()).collect(),
            want,
        };
        assert_eq!(incs[0].guards, [guard(&["HOPPER"], true)]);
        assert_eq!(incs[1].guards, [guard(&["HOPPER"], false)]);
        assert_eq!(incs[2].guards, [guard(&["A", "B"], true)]);
        assert!(incs[3].guards.is_empty());
    }
}
