//! Where the Python front end's time goes on a tree: files read, prefilter, tree-sitter parse,
//! and the whole front end. `cargo run -p ptxguard-analyzer --example python_phases -- DIR`.

use ptxguard_analyzer::{python, SourceFile};
use std::time::{Duration, Instant};

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".to_string());
    let files: Vec<_> = ptxguard_analyzer::source::source_files_under(std::path::Path::new(&dir))
        .into_iter()
        .filter(|p| python::is_python_path(p))
        .collect();
    let (mut read, mut filter, mut parse, mut front) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    let (mut lex, mut parse_ranges) = (Duration::ZERO, Duration::ZERO);
    let (mut kept, mut bytes, mut statements) = (0, 0, 0);
    for path in &files {
        let t = Instant::now();
        let Ok(data) = std::fs::read(path) else {
            continue;
        };
        read += t.elapsed();
        let t = Instant::now();
        let hit = python::may_contain_inline_asm(&data);
        filter += t.elapsed();
        if !hit {
            continue;
        }
        kept += 1;
        bytes += data.len();
        let file = SourceFile::new(path.clone(), String::from_utf8_lossy(&data).into_owned());
        let t = Instant::now();
        let mut parser = tree_sitter::Parser::new();
        let _ = parser.set_language(&tree_sitter_python::LANGUAGE.into());
        let _ = parser.parse(&file.text, None);
        parse += t.elapsed();
        let t = Instant::now();
        let ranges = python::regions(&file.text);
        lex += t.elapsed();
        let t = Instant::now();
        let _ = parser.set_included_ranges(&ranges);
        let _ = parser.parse(&file.text, None);
        parse_ranges += t.elapsed();
        let t = Instant::now();
        statements += python::find_statements(&file).len();
        front += t.elapsed();
    }
    println!(
        "{} .py files, {kept} past the prefilter ({bytes} bytes), {statements} statements",
        files.len()
    );
    println!("read {read:?}, prefilter {filter:?}, whole-file parse {parse:?}, regions {lex:?}, parse of the regions {parse_ranges:?}, front end (all included) {front:?}");
}
