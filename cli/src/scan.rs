//! Where each comment and asm statement of a file is (for suppressions and baselines): the
//! engine's outline, under the names the CLI uses.

pub use ptxguard_analyzer::cpp::outline::Outline as Scan;
use ptxguard_analyzer::SourceFile;

/// The outline of a C++ file, or of a Python file (`#` comments, inline-asm calls).
pub fn scan(file: &SourceFile) -> Scan {
    if file.language.is_python() {
        ptxguard_analyzer::python::outline(file)
    } else {
        ptxguard_analyzer::cpp::outline::outline(&file.text)
    }
}
