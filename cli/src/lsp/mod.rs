//! The language server.

pub fn run_stdio() -> i32 {
    0
}
