//! PTX: an error-tolerant lexer and parser for one asm template.

pub mod model;

pub use model::*;
