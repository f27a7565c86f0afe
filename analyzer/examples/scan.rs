//! Finds every asm statement under a folder, single-threaded, and prints counts:
//! `cargo run --release -p ptxguard-analyzer --example scan DIR` (engine-only timing).
use std::path::Path;

fn main() {
    let root = std::env::args().nth(1).expect("DIR");
    let files = ptxguard_analyzer::source::source_files_under(Path::new(&root));
    let start = std::time::Instant::now();
    let (mut with_asm, mut statements, mut ptx, mut instructions, mut errors) = (0, 0, 0, 0, 0);
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        if !ptxguard_analyzer::cpp::may_contain_asm(&bytes) {
            continue;
        }
        let Ok(file) = ptxguard_analyzer::SourceFile::from_bytes(f.clone(), bytes) else {
            continue;
        };
        let s = ptxguard_analyzer::statements::find_asm_statements(&file);
        if !s.is_empty() {
            with_asm += 1;
        }
        statements += s.len();
        ptx += s.iter().filter(|x| x.is_ptx()).count();
        instructions += s
            .iter()
            .map(|x| x.ptx.instructions().count())
            .sum::<usize>();
        errors += s
            .iter()
            .filter(|x| x.is_ptx())
            .map(|x| x.ptx.errors.len())
            .sum::<usize>();
        if std::env::var("UNKNOWN").is_ok() {
            for x in s.iter().filter(|x| x.is_ptx()) {
                for o in x.operands() {
                    let simple = o
                        .expr
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_');
                    if simple && o.ty.ty.is_none() {
                        println!("UNK {} {}", o.expr, f.display());
                    }
                }
            }
        }
        if std::env::var("SHOW").is_ok() {
            for x in s.iter().filter(|x| x.is_ptx() && !x.ptx.errors.is_empty()) {
                let e = &x.ptx.errors[0];
                let t = &x.template.text;
                let a = e.span.start.saturating_sub(40).min(t.len());
                let b = (e.span.end + 20).min(t.len());
                println!(
                    "{:?} {:?} in {}: {:?}",
                    e.kind,
                    t.get(a..b),
                    f.display(),
                    x.context.target
                );
            }
        }
    }
    println!(
        "{} files, {with_asm} with asm statements, {statements} statements ({ptx} PTX), {instructions} instructions, {errors} PTX syntax errors, {:?}",
        files.len(),
        start.elapsed()
    );
}
