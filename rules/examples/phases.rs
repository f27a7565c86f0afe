//! Where the time of a whole-tree check goes, single-threaded: reading, the prefilter, the
//! C++ front end, and the rules (all of them, default-off ones included; `PER_RULE=1` times each
//! alone). `cargo run --release -p ptxguard-rules --example phases DIR`.
use ptxguard_analyzer::cpp::lexer::lex_range;
use ptxguard_analyzer::cpp::may_contain_asm;
use ptxguard_analyzer::statements::find_asm_statements_and_tokens;
use ptxguard_analyzer::SourceFile;
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let root = std::env::args().nth(1).expect("DIR");
    let files = ptxguard_analyzer::source::source_files_under(Path::new(&root));
    let (mut read, mut filter, mut decode, mut front, mut rules) = Default::default();
    let (mut lex, mut token_count) = (Duration::ZERO, 0usize);
    let mut per_file: Vec<(Duration, usize, String)> = Vec::new();
    let mut no_statements = (0usize, 0usize, Duration::ZERO);
    let mut per_rule: Vec<(&str, Duration)> = Vec::new();
    let timed = |what: &mut Duration, start: Instant| *what += start.elapsed();
    let (mut checked, mut bytes_checked) = (0usize, 0usize);
    for f in &files {
        let t = Instant::now();
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        timed(&mut read, t);
        let t = Instant::now();
        let hit = may_contain_asm(&bytes);
        timed(&mut filter, t);
        if !hit {
            continue;
        }
        checked += 1;
        bytes_checked += bytes.len();
        let t = Instant::now();
        let Ok(file) = SourceFile::from_bytes(f.clone(), bytes) else {
            continue;
        };
        timed(&mut decode, t);
        let t = Instant::now();
        let tokens = lex_range(&file.text, 0, file.text.len(), false);
        timed(&mut lex, t);
        token_count += tokens.len();
        drop(tokens);
        let t = Instant::now();
        let (statements, _tokens) = find_asm_statements_and_tokens(&file);
        timed(&mut front, t);
        per_file.push((t.elapsed(), statements.len(), f.display().to_string()));
        if statements.is_empty() {
            no_statements.0 += 1;
            no_statements.1 += file.text.len();
            no_statements.2 += t.elapsed();
        }
        let t = Instant::now();
        let _ = ptxguard_rules::check_statements(
            &file,
            &statements,
            &Default::default(),
            &Default::default(),
        );
        timed(&mut rules, t);
        if std::env::var_os("PER_RULE").is_none() {
            continue;
        }
        for meta in ptxguard_rules::all_rules() {
            let options = ptxguard_rules::Options {
                only: Some(vec![meta.name]),
                ..Default::default()
            };
            let r = Instant::now();
            let _ =
                ptxguard_rules::check_statements(&file, &statements, &Default::default(), &options);
            match per_rule.iter_mut().find(|(n, _)| *n == meta.name) {
                Some((_, d)) => *d += r.elapsed(),
                None => per_rule.push((meta.name, r.elapsed())),
            }
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{} files, {checked} checked ({} MB)",
        files.len(),
        bytes_checked >> 20
    );
    println!(
        "lexing alone {:.0} ms ({token_count} tokens), included in the front end",
        ms(lex)
    );
    println!(
        "read {:.0} ms, prefilter {:.0} ms, decode {:.0} ms, front end {:.0} ms, rules {:.0} ms",
        ms(read),
        ms(filter),
        ms(decode),
        ms(front),
        ms(rules)
    );
    per_file.sort_by_key(|f| std::cmp::Reverse(f.0));
    println!(
        "files passing the prefilter with no asm statement: {} ({} KB, front end {:.0} ms)",
        no_statements.0,
        no_statements.1 >> 10,
        ms(no_statements.2)
    );
    println!("slowest front ends:");
    for (d, n, name) in per_file.iter().take(8) {
        println!("  {:.1} ms, {n} statements: {name}", ms(*d));
    }
    per_rule.sort_by_key(|r| std::cmp::Reverse(r.1));
    // Each rule alone, so shared work (tokens, control flow) is counted in every rule using it.
    for (name, d) in per_rule {
        println!("  {name:<28} {:.1} ms", ms(d));
    }
}
