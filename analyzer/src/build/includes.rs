//! The include graph of a database's translation units: which units include each header
//! (directly or not), resolved with each unit's own include paths.

use super::Entry;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// `#include "name"` (quoted: true) or `#include <name>` in `text`, in order.
pub fn include_names(text: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
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
        let rest = text[hash + 1..].trim_start_matches([' ', '\t']);
        let Some(rest) = rest.strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim_start_matches([' ', '\t']);
        let (quoted, close) = match rest.as_bytes().first() {
            Some(b'"') => (true, '"'),
            Some(b'<') => (false, '>'),
            _ => continue,
        };
        let body = &rest[1..];
        let end = body.find(['\n', close]).unwrap_or(body.len());
        if body[end..].starts_with(close) && end > 0 {
            out.push((quoted, &body[..end]));
        }
    }
    out
}

/// For each header some unit includes, the indices of those units (sorted). Files are read
/// once each; the walk is a work list, never a recursion.
pub fn includers(entries: &[Entry]) -> HashMap<PathBuf, Vec<usize>> {
    // Include lists per file, read once.
    let mut names: HashMap<PathBuf, Vec<(bool, String)>> = HashMap::new();
    // Resolutions per (including directory for quoted names, search list, name).
    let mut resolved: HashMap<(Option<PathBuf>, usize, String), Option<PathBuf>> = HashMap::new();
    let mut lists: HashMap<&[PathBuf], usize> = HashMap::new();
    let mut out: HashMap<PathBuf, Vec<usize>> = HashMap::new();
    for (index, entry) in entries.iter().enumerate() {
        let next_id = lists.len();
        let list = *lists
            .entry(entry.flags.include_dirs.as_slice())
            .or_insert(next_id);
        let mut seen: HashSet<PathBuf> = HashSet::new();
        let mut work: Vec<PathBuf> = vec![entry.file.clone()];
        work.extend(entry.flags.forced_includes.iter().cloned());
        while let Some(file) = work.pop() {
            let includes = names.entry(file.clone()).or_insert_with(|| {
                std::fs::read_to_string(&file)
                    .map(|t| {
                        include_names(&t)
                            .into_iter()
                            .map(|(q, n)| (q, n.to_string()))
                            .collect()
                    })
                    .unwrap_or_default()
            });
            let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
            for (quoted, name) in includes.iter() {
                let key = (quoted.then(|| dir.clone()), list, name.clone());
                let hit = resolved
                    .entry(key)
                    .or_insert_with(|| {
                        let here = quoted.then(|| dir.join(name));
                        here.into_iter()
                            .chain(entry.flags.include_dirs.iter().map(|d| d.join(name)))
                            .map(|p| super::normalize(&p))
                            .find(|p| p.is_file())
                    })
                    .clone();
                if let Some(header) = hit {
                    if seen.insert(header.clone()) {
                        work.push(header);
                    }
                }
            }
        }
        for header in seen {
            out.entry(header).or_default().push(index);
        }
    }
    for units in out.values_mut() {
        units.sort_unstable();
        units.dedup();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lines() {
        let text = "#include \"a.h\"\n  #  include <b/c.cuh>\nint x; #include \"no.h\"\n#include MACRO\n#include \"open\n#pragma once\n";
        assert_eq!(include_names(text), [(true, "a.h"), (false, "b/c.cuh")]);
    }
}
