//! Every asm statement of a file, whichever front end reads it: Python files go to
//! [`crate::python`], the rest to the C++ front end ([`crate::cpp`]). Here, above both, so that
//! neither front end imports the other for dispatch (the Python one reads C++ held in Python
//! strings through the C++ one).

use crate::cpp::lexer::Token;
use crate::cpp::AsmStatement;
use crate::SourceFile;

/// Finds and models every asm statement of a file, in source order.
pub fn find_asm_statements(file: &SourceFile) -> Vec<AsmStatement> {
    find_asm_statements_and_tokens(file).0
}

/// [`find_asm_statements`], also returning the C++ file's tokens (empty when the file cannot
/// hold asm, and for Python files) for callers that look further at the file.
pub fn find_asm_statements_and_tokens(file: &SourceFile) -> (Vec<AsmStatement>, Vec<Token>) {
    if file.language.is_python() {
        return (crate::python::find_statements(file), Vec::new());
    }
    crate::cpp::cpp_statements_and_tokens(file)
}
