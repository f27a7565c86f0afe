//! The ptxguard engine: everything between a CUDA source file and the model the rules read.
//!
//! Data flows one way:
//! `source` (file loading) -> `cpp` (asm statements and their C++ context)
//! -> `template` (decoded text + source map) -> `ptx` (PTX model, typed by `isa`)
//! -> rules (separate crate) -> `diag` (diagnostics and fixes).
//! Python files take `python` instead of `cpp` and meet the same model; `context` is how a file
//! is compiled (targets, macros, toolkit), which the rules read per file.

pub mod build;
pub mod context;
pub mod cpp;
pub mod diag;
pub mod dump;
pub mod isa;
pub mod phase;
pub mod ptx;
pub mod python;
pub mod reach;
pub mod source;
pub mod span;
pub mod statements;
pub mod template;

pub use diag::{Applicability, Diagnostic, Edit, Fix, Label, Severity};
pub use source::{Language, SourceFile};
pub use span::Span;
