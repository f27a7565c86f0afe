//! Building diagnostics: a rule's finding at its default severity, and where a template
//! range is in the source.

use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::{Diagnostic, Span};
use std::ops::Range;

use crate::RuleMeta;

/// A diagnostic of `meta` at its default severity.
pub(crate) fn diagnostic(meta: &RuleMeta, span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(meta.name, meta.default_severity, span, message)
}

/// The source span of a decoded template range.
pub(crate) fn template_span(stmt: &AsmStatement, decoded: Range<usize>) -> Span {
    stmt.source_span(decoded)
}
