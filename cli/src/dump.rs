//! `ptxguard dump FILE`: what the engine sees in a file.

use ptxguard_analyzer::SourceFile;

/// The engine's own rendering: asm statements, decoded templates, operands, parsed PTX.
pub fn render(file: &SourceFile) -> String {
    ptxguard_analyzer::dump::render(file)
}

pub fn run(path: &std::path::Path) -> i32 {
    let file = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes) {
            eprintln!("error: cannot read standard input: {e}");
            return 2;
        }
        SourceFile::from_bytes("-".into(), bytes)
    } else {
        SourceFile::read(path)
    };
    match file {
        Ok(file) => {
            print!("{}", render(&file));
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
