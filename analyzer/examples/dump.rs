//! Prints what the engine sees in a file: `cargo run -p ptxguard-analyzer --example dump FILE`.
fn main() {
    for path in std::env::args().skip(1) {
        match ptxguard_analyzer::SourceFile::read(std::path::Path::new(&path)) {
            Ok(file) => print!("{}", ptxguard_analyzer::dump::render(&file)),
            Err(e) => eprintln!("{e}"),
        }
    }
}
