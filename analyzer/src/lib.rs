//! The ptxguard engine: everything between a CUDA source file and the model the rules read.
//!
//! Data flows one way:
//! `source` (file loading) -> `cpp` (asm statements and their C++ context)
//! -> `template` (decoded text + source map) -> `ptx` (PTX model, typed by `isa`)
//! -> rules (separate crate) -> `diag` (diagnostics and fixes).
//! Python files take `python` (tree-sitter) instead of `cpp` and meet the same model.

pub mod build;
pub mod cpp;
pub mod diag;
pub mod dump;
pub mod isa;
pub mod phase;
pub mod ptx;
pub mod python;
pub mod source;
pub mod span;
pub mod statements;
pub mod template;

pub use diag::{Applicability, Diagnostic, Edit, Fix, Label, Severity};
pub use source::SourceFile;
pub use span::Span;
