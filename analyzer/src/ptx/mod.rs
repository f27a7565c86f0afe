//! PTX: an error-tolerant lexer and parser for one asm template.
//!
//! [`parse`] never fails and never panics: what it cannot make sense of becomes a
//! [`SyntaxError`], and parsing goes on after it.

mod lexer;
pub mod model;
mod parser;

pub use model::*;

/// Stands in the decoded template for a piece that cannot be known statically (a stringised
/// macro parameter, a macro defined elsewhere); the parser reads it as an unknown operand.
pub const HOLE: char = '\u{1}';

/// Parses one decoded asm template (`text` exactly as the compiler sees it).
pub fn parse(text: &str, mode: PercentMode) -> Ptx {
    parser::parse(text, mode)
}
