//! `ptxguard dump FILE`: what the engine sees in a file.

use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::SourceFile;

/// The engine's own rendering: asm statements, decoded templates, operands, parsed PTX;
/// then the statements no configuration of the file compiles (no rule checks them).
pub fn render(file: &SourceFile) -> String {
    let mut out = ptxguard_analyzer::dump::render(file);
    let mut context = AnalysisContext::default();
    if let Ok(settings) = crate::settings::Settings::from_layers(&[]) {
        let abs =
            crate::config::absolutize(&file.path, &std::env::current_dir().unwrap_or_default());
        let mut options = ptxguard_rules::Options::default();
        context = crate::build_context::context(&mut options, &abs, &settings, &context.headers);
    }
    let statements = ptxguard_analyzer::statements::find_asm_statements(file);
    let dead = ptxguard_rules::statements_not_compiled(file, &statements, &context);
    for (i, (stmt, dead)) in statements.iter().zip(dead).enumerate() {
        if dead {
            let (line, _) = file.line_col(stmt.span.start as usize);
            let why = stmt
                .context
                .conditions
                .iter()
                .map(|c| c.text.trim())
                .collect::<Vec<_>>()
                .join(" / ");
            out.push_str(&format!(
                "statement {} (line {line}): not compiled for any target this file is built for ({why}): not checked\n",
                i + 1
            ));
        }
    }
    out
}

pub fn run(path: &std::path::Path) -> i32 {
    let file = if path.as_os_str() == "-" {
        match ptxguard_analyzer::source::read_bounded(std::io::stdin().lock()) {
            Ok(bytes) => SourceFile::from_bytes("-".into(), bytes),
            Err(e) => {
                eprintln!("error: cannot read standard input: {e}");
                return 2;
            }
        }
    } else {
        SourceFile::read(path)
    };
    match file {
        Ok(file) => {
            use std::io::Write as _;
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(render(&file).as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => 0,
                // A reader that stopped early (`dump | head`) wants no more.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
                Err(e) => {
                    eprintln!("error: cannot write the dump: {e}");
                    2
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
