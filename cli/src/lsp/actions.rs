//! Code actions: each fix as a quick fix, "suppress this rule here", and fix-all.

use super::convert;
use super::hover::touches;
use crate::fix::{self, FixMode};
use crate::registry::UNUSED_SUPPRESSION;
use crate::scan;
use crate::suppress;
use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Uri, WorkspaceEdit};
use ptxguard_analyzer::{Applicability, Diagnostic, Edit, SourceFile, Span};
use std::collections::HashMap;

pub const FIX_ALL_KIND: &str = "source.fixAll.ptxguard";

/// Whether an action of `kind` was asked for (`only` lists kinds and their parents).
fn wanted(only: Option<&Vec<CodeActionKind>>, kind: &str) -> bool {
    match only {
        None => true,
        Some(kinds) => kinds.iter().any(|k| {
            let k = k.as_str();
            kind == k || kind.starts_with(&format!("{k}."))
        }),
    }
}

fn workspace_edit(uri: &Uri, edits: Vec<lsp_types::TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

pub fn code_actions(
    file: &SourceFile,
    uri: &Uri,
    diagnostics: &[Diagnostic],
    range: Span,
    only: Option<&Vec<CodeActionKind>>,
    analyze: &dyn Fn(&SourceFile) -> Vec<Diagnostic>,
) -> Vec<CodeActionOrCommand> {
    let mut actions = Vec::new();
    let in_range: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| {
            let s = d.span;
            s.start <= range.end && range.start <= s.end || touches(s, range.start as usize)
        })
        .collect();
    if wanted(only, CodeActionKind::QUICKFIX.as_str()) {
        let file_scan = scan::scan(file);
        for d in &in_range {
            let lsp_diagnostic = convert::diagnostic(file, uri, d);
            if let Some(f) = &d.fix {
                let safe = f.applicability == Applicability::Safe;
                let title = if safe {
                    format!("{} ({})", capitalize(&f.message), d.rule)
                } else {
                    format!("{} ({}, unsafe: review it)", capitalize(&f.message), d.rule)
                };
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![lsp_diagnostic.clone()]),
                    edit: Some(workspace_edit(
                        uri,
                        f.edits
                            .iter()
                            .map(|e| convert::text_edit(file, e))
                            .collect(),
                    )),
                    is_preferred: Some(safe),
                    ..CodeAction::default()
                }));
            }
            if d.rule != UNUSED_SUPPRESSION {
                let start = d.span.start as usize;
                let line = file_scan.statement_at(start).map_or_else(
                    || file.line_index(start),
                    |s| file.line_index(s.start as usize),
                );
                let edit = suppress::allow_edit(file, &file_scan, line, d.rule);
                actions.push(
                    CodeAction {
                        title: format!("Suppress {} here", d.rule),
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![lsp_diagnostic]),
                        edit: Some(workspace_edit(uri, vec![convert::text_edit(file, &edit)])),
                        is_preferred: Some(false),
                        ..CodeAction::default()
                    }
                    .into(),
                );
            }
        }
    }
    if wanted(only, FIX_ALL_KIND) {
        let any_safe = diagnostics.iter().any(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Safe)
        });
        if any_safe {
            if let Some(edit) = fix_all_edit(file, analyze) {
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: "Fix all safe ptxguard findings in this file".into(),
                    kind: Some(CodeActionKind::new(FIX_ALL_KIND)),
                    edit: Some(workspace_edit(uri, vec![convert::text_edit(file, &edit)])),
                    ..CodeAction::default()
                }));
            }
        }
    }
    actions
}

/// Every safe fix, applied pass after pass as `--fix` does, as one edit over the changed part.
pub fn fix_all_edit(
    file: &SourceFile,
    analyze: &dyn Fn(&SourceFile) -> Vec<Diagnostic>,
) -> Option<Edit> {
    let outcome = fix::fix_file(file, FixMode::Safe, analyze);
    if outcome.failure.is_some() || !outcome.changed(&file.text) {
        return None;
    }
    Some(minimal_edit(&file.text, &outcome.text))
}

/// One edit that turns `old` into `new`, covering only what differs.
pub fn minimal_edit(old: &str, new: &str) -> Edit {
    let mut prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let max_suffix = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    Edit::replace(
        Span::new(prefix, old.len() - suffix),
        &new[prefix..new.len() - suffix],
    )
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_edit_covers_the_difference() {
        let e = minimal_edit("asm(\"x\");", "asm volatile(\"x\");");
        assert_eq!(e.span, Span::new(3, 3));
        assert_eq!(e.replacement, " volatile");
        let e = minimal_edit("aé b", "aé c");
        assert_eq!(&"aé b"[e.span.range()], "b");
        let e = minimal_edit("aaa", "aa");
        let (out, _) = ptxguard_analyzer::diag::apply_edits("aaa", &[e]);
        assert_eq!(out, "aa");
    }
}
