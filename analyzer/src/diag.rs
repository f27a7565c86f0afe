//! The diagnostic and fix model every rule returns and every emitter reads.

use crate::Span;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// Whether a fix may be applied without a human looking at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps the program's meaning where it was right and repairs it where it was wrong.
    Safe,
    /// Probably what was meant, but it changes behaviour or needs review.
    Unsafe,
}

/// Replace the bytes of `span` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

impl Edit {
    pub fn replace(span: Span, replacement: impl Into<String>) -> Edit {
        Edit {
            span,
            replacement: replacement.into(),
        }
    }

    pub fn insert(offset: usize, text: impl Into<String>) -> Edit {
        Edit::replace(Span::empty_at(offset), text)
    }

    pub fn delete(span: Span) -> Edit {
        Edit::replace(span, "")
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, imperative: "add `volatile`".
    pub message: String,
    /// Non-overlapping edits.
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn new(applicability: Applicability, message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability,
            message: message.into(),
            edits,
        }
    }

    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Safe, message, edits)
    }

    pub fn unsafe_(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Unsafe, message, edits)
    }
}

/// A secondary place that explains the finding (the C++ operand a placeholder binds...).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Diagnostic {
    /// The rule's public name, e.g. `address-register-width`.
    pub rule: &'static str,
    pub severity: Severity,
    /// The smallest thing that is wrong.
    pub span: Span,
    /// One line: what is wrong and why.
    pub message: String,
    pub labels: Vec<Label>,
    /// What nvcc, ptxas or the GPU does with this mistake.
    pub note: Option<String>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
    /// The function the finding's code is compiled only through, when nothing in its own
    /// file uses it: the finding is loud only if another checked file does
    /// ([`crate::reach`]).
    pub needs_use_of: Option<crate::reach::NeedsUse>,
}

impl Diagnostic {
    pub fn new(
        rule: &'static str,
        severity: Severity,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            rule,
            severity,
            span,
            message: message.into(),
            labels: Vec::new(),
            note: None,
            help: None,
            fix: None,
            needs_use_of: None,
        }
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(fix);
        self
    }

    /// Makes the finding info because the compiler never builds its code, `why` said first in
    /// its note.
    pub fn quiet(&mut self, why: String) {
        self.severity = Severity::Info;
        self.note = Some(match self.note.take() {
            Some(note) => format!("{why}. {note}"),
            None => why,
        });
    }
}

/// Applies edits to a text; overlapping edits after the first are skipped.
/// Returns the new text and how many edits were applied.
pub fn apply_edits(text: &str, edits: &[Edit]) -> (String, usize) {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut cursor = 0usize;
    let mut applied = 0;
    let mut last_insert_at = None;
    for edit in sorted {
        let (start, end) = (edit.span.start as usize, edit.span.end as usize);
        if start < cursor || end > text.len() || !text.is_char_boundary(start) {
            continue;
        }
        // Two identical insertions at one point are one fix reported twice.
        if start == end && last_insert_at == Some((start, &edit.replacement)) {
            continue;
        }
        out.push_str(&text[cursor..start]);
        out.push_str(&edit.replacement);
        cursor = end;
        applied += 1;
        last_insert_at = (start == end).then_some((start, &edit.replacement));
    }
    out.push_str(&text[cursor..]);
    (out, applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_in_order_and_skip_overlaps() {
        let edits = vec![
            Edit::replace(Span::new(5, 6), "l"),
            Edit::insert(0, "volatile "),
            Edit::replace(Span::new(5, 7), "zz"),
        ];
        let (out, n) = apply_edits("asm \"r\"", &edits);
        assert_eq!(out, "volatile asm \"l\"");
        assert_eq!(n, 2);
    }
}
