//! Between ptxguard's byte spans and the protocol's UTF-16 positions and URIs.

use ptxguard_analyzer::{Diagnostic, Edit, Severity, SourceFile, Span};
use std::path::{Path, PathBuf};
use std::str::FromStr;

pub fn position(file: &SourceFile, offset: usize) -> lsp_types::Position {
    let (line, character) = file.line_col_utf16(offset);
    lsp_types::Position::new(line as u32, character as u32)
}

pub fn range(file: &SourceFile, span: Span) -> lsp_types::Range {
    lsp_types::Range::new(
        position(file, span.start as usize),
        position(file, span.end as usize),
    )
}

pub fn offset(file: &SourceFile, position: lsp_types::Position) -> usize {
    file.offset_of_utf16(position.line as usize, position.character as usize)
}

pub fn span(file: &SourceFile, range: lsp_types::Range) -> Span {
    let start = offset(file, range.start);
    let end = offset(file, range.end).max(start);
    Span::new(start, end)
}

pub fn severity(s: Severity) -> lsp_types::DiagnosticSeverity {
    match s {
        Severity::Error => lsp_types::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp_types::DiagnosticSeverity::WARNING,
        Severity::Info => lsp_types::DiagnosticSeverity::INFORMATION,
    }
}

pub fn diagnostic(
    file: &SourceFile,
    uri: &lsp_types::Uri,
    d: &Diagnostic,
) -> lsp_types::Diagnostic {
    let related = (!d.labels.is_empty()).then(|| {
        d.labels
            .iter()
            .map(|l| lsp_types::DiagnosticRelatedInformation {
                location: lsp_types::Location::new(uri.clone(), range(file, l.span)),
                message: l.message.clone(),
            })
            .collect()
    });
    lsp_types::Diagnostic {
        range: range(file, d.span),
        severity: Some(severity(d.severity)),
        code: Some(lsp_types::NumberOrString::String(d.rule.to_string())),
        code_description: None,
        source: Some("ptxguard".into()),
        message: d.message.clone(),
        related_information: related,
        tags: None,
        data: None,
    }
}

/// A finding with the evidence of the user's build (confirming on save): the verdict line
/// under the message, and the verdict in `data.confirmation` as in the JSON output.
pub fn confirmed_diagnostic(
    file: &SourceFile,
    uri: &lsp_types::Uri,
    d: &Diagnostic,
    confirmation: Option<&crate::emit::Confirmation>,
) -> lsp_types::Diagnostic {
    let mut out = diagnostic(file, uri, d);
    if let Some(c) = confirmation {
        out.message = format!("{}\n{}", out.message, c.line());
        out.data = Some(serde_json::json!({
            "confirmation": {
                "verdict": c.verdict,
                "detail": c.detail,
                "target": c.target,
            }
        }));
    }
    out
}

pub fn text_edit(file: &SourceFile, edit: &Edit) -> lsp_types::TextEdit {
    lsp_types::TextEdit::new(range(file, edit.span), edit.replacement.clone())
}

/// The local path of a `file:` URI.
pub fn uri_to_path(uri: &lsp_types::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://localhost/x` and `file:///x` name the same file.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    percent_decode(path).map(PathBuf::from)
}

pub fn path_to_uri(path: &Path) -> lsp_types::Uri {
    let encoded = crate::emit::percent_encode_path(&path.to_string_lossy());
    lsp_types::Uri::from_str(&format!("file://{encoded}")).expect("an encoded path is a valid URI")
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip() {
        let path = Path::new("/tmp/a dir/é.cu");
        let uri = path_to_uri(path);
        assert_eq!(uri.as_str(), "file:///tmp/a%20dir/%C3%A9.cu");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
        let odd = lsp_types::Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(uri_to_path(&odd), None);
    }

    #[test]
    fn positions_count_utf16_units() {
        let file = SourceFile::new("a.cu", "// é😀\nasm(\"x\");");
        let at = file.text.find("asm").unwrap();
        assert_eq!(position(&file, at), lsp_types::Position::new(1, 0));
        let smile = file.text.find('😀').unwrap();
        assert_eq!(position(&file, smile), lsp_types::Position::new(0, 4));
        assert_eq!(offset(&file, lsp_types::Position::new(0, 4)), smile);
    }
}
