//! Where the Python front end's time goes on a tree: files read, prefilter, the front end,
//! and (for comparison) a tree-sitter parse of the files that pass the prefilter, and of the
//! text of each call found (what a front end that only hands the calls to tree-sitter parses). Each phase
//! after the read runs five times over the files in memory; the best time is printed.
//! `cargo run --profile release -p ptxguard-analyzer --example python_phases -- DIR`.

use ptxguard_analyzer::{python, SourceFile};
use std::time::{Duration, Instant};

fn best<T>(mut phase: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..5 {
        let t = Instant::now();
        let result = phase();
        best = best.min(t.elapsed());
        out = Some(result);
    }
    (best, out.expect("five runs"))
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".to_string());
    let mut paths = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(&dir)];
    while let Some(d) = dirs.pop() {
        for path in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = path.path();
            if path.is_dir() {
                dirs.push(path);
            } else if ptxguard_analyzer::source::Language::of_path(&path).is_python() {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let t = Instant::now();
    let data: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let read = t.elapsed();
    let all_bytes: usize = data.iter().map(Vec::len).sum();
    let (filter, hits) = best(|| {
        data.iter()
            .map(|d| python::may_contain_inline_asm(d))
            .collect::<Vec<_>>()
    });
    let kept: Vec<SourceFile> = data
        .iter()
        .zip(&paths)
        .zip(hits)
        .filter(|(_, hit)| *hit)
        .map(|((d, p), _)| SourceFile::new(p.clone(), String::from_utf8_lossy(d).into_owned()))
        .collect();
    let kept_bytes: usize = kept.iter().map(|f| f.text.len()).sum();
    let (front, found) = best(|| {
        kept.iter()
            .map(|f| python::find_statements(f).len())
            .collect::<Vec<_>>()
    });
    let statements: usize = found.iter().sum();
    let empty = found.iter().filter(|n| **n == 0).count();
    let mut parser = tree_sitter::Parser::new();
    let _ = parser.set_language(&tree_sitter_python::LANGUAGE.into());
    let (tree_sitter, _) = best(|| {
        for f in &kept {
            if std::env::var_os("PYTHON_PHASES_NO_TREE_SITTER").is_none() {
                let _ = parser.parse(&f.text, None);
            }
        }
    });
    let spans: Vec<String> = kept
        .iter()
        .flat_map(|f| {
            python::find_statements(f)
                .into_iter()
                .map(|s| f.text[s.span.start as usize..s.span.end as usize].to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    let span_bytes: usize = spans.iter().map(String::len).sum();
    let (calls_ts, _) = best(|| {
        for s in &spans {
            let _ = parser.parse(s, None);
        }
    });
    println!(
        "the {} calls found hold {span_bytes} bytes; best of five: a tree-sitter parse of each call's text alone {calls_ts:?}",
        spans.len()
    );
    println!(
        "{} .py files ({all_bytes} bytes), {} past the prefilter ({kept_bytes} bytes; {empty} of them without a call), {statements} statements",
        paths.len(),
        kept.len()
    );
    println!("read {read:?}; best of five: prefilter {filter:?}, front end {front:?}, a tree-sitter parse of the same files {tree_sitter:?}");
}
