//! Prints what the rules report on the files named in `PTXGUARD_FILES` (space-separated) or listed in the file `PTXGUARD_FILE_LIST`,
//! optionally only the rules named in `PTXGUARD_RULES` (comma-separated) and with the
//! targets in `PTXGUARD_TARGETS`. A debugging aid: `PTXGUARD_FILES=x.cu cargo test -p
//! ptxguard-rules --test print_diagnostics -- --nocapture`.

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::isa::Target;
use ptxguard_analyzer::SourceFile;
use ptxguard_rules::Options;

#[test]
fn print_diagnostics() {
    let files = match (
        std::env::var("PTXGUARD_FILES"),
        std::env::var("PTXGUARD_FILE_LIST"),
    ) {
        (Ok(f), _) => f,
        (_, Ok(list)) => std::fs::read_to_string(list).unwrap_or_default(),
        _ => return,
    };
    let rules: Vec<String> = std::env::var("PTXGUARD_RULES")
        .map(|r| r.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    let mut targets = Vec::new();
    for name in std::env::var("PTXGUARD_TARGETS")
        .unwrap_or_default()
        .split(',')
    {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        match Target::parse(name) {
            Some(t) => targets.push(t),
            None => panic!("PTXGUARD_TARGETS: `{name}` is not a target"),
        }
    }
    let context = AnalysisContext {
        targets,
        ..AnalysisContext::default()
    };
    let options = Options {
        cccl_version: std::env::var("PTXGUARD_CCCL").ok(),
        ..Options::default()
    };
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for path in files.split_whitespace() {
        let Ok(file) = SourceFile::read(std::path::Path::new(path)) else {
            continue;
        };
        for d in ptxguard_rules::check(&file, &context, &options) {
            if !rules.is_empty() && !rules.iter().any(|r| r == d.rule) {
                continue;
            }
            *counts.entry(d.rule).or_default() += 1;
            let (line, col) = file.line_col(d.span.start as usize);
            let text = &file.text[d.span.range()];
            println!(
                "{path}:{line}:{col}: {} [{}] {} `{}`",
                d.severity.as_str(),
                d.rule,
                d.message,
                text.chars().take(60).collect::<String>()
            );
        }
    }
    println!("counts: {counts:?}");
}
