//! Findings about code nvcc accepts (measured) but clang rejects: info by default, warnings
//! where clang builds the file (a compilation database entry says so) or the configuration
//! asks for clang portability (`portability = ["clang"]`, `--portability clang`).

use crate::support::front_end::ForStatement;
use crate::{Compiler, Options};
use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::{Diagnostic, Severity};
use std::path::Path;

/// Why clang matters for this file, in words for the finding's note; `None` when nothing says
/// anything but nvcc builds it.
pub(crate) fn clang_builds(context: &AnalysisContext, options: &Options) -> Option<String> {
    if options.portability.contains(&Compiler::Clang) {
        return Some("the configuration asks for clang portability".into());
    }
    let build = context.build.as_ref()?;
    build
        .compilers
        .iter()
        .find(|c| is_clang(c))
        .map(|c| format!("the compilation database builds this file with `{c}`"))
}

/// `clang`, `clang++`, `clang++-18`, `/usr/bin/clang`.
fn is_clang(compiler: &str) -> bool {
    Path::new(compiler)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("clang"))
}

/// A portability finding (`note`: what nvcc and clang do) at its evidence's severity: a warning
/// saying why clang matters here, else info saying what would make it one.
pub(crate) fn portability_finding(
    cx: &crate::Ctx,
    stmt: &AsmStatement,
    d: Diagnostic,
    note: &str,
) -> Diagnostic {
    match clang_builds(cx.context, cx.options) {
        Some(reason) => {
            let mut d = d.note_for(stmt, format!("{note}; {reason}"));
            d.severity = Severity::Warning;
            d
        }
        None => {
            let mut d = d.note_for(stmt, format!(
                "{note}; info while only nvcc builds the file: a warning with `portability = [\"clang\"]` or a clang entry in compile_commands.json"
            ));
            d.severity = Severity::Info;
            d
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::build::FileBuild;
    use std::sync::Arc;

    fn built_with(compilers: &[&str]) -> AnalysisContext {
        AnalysisContext {
            build: Some(Arc::new(FileBuild {
                compilers: compilers.iter().map(|c| c.to_string()).collect(),
                ..Default::default()
            })),
            ..AnalysisContext::default()
        }
    }

    #[test]
    fn clang_is_recognised_by_configuration_or_database_only() {
        let nvcc_only = Options::default();
        let nothing_known = AnalysisContext::default();
        assert_eq!(clang_builds(&nothing_known, &nvcc_only), None);
        assert_eq!(
            clang_builds(&built_with(&["/usr/local/cuda/bin/nvcc"]), &nvcc_only),
            None
        );
        assert!(
            clang_builds(&built_with(&["nvcc", "/usr/bin/clang++-18"]), &nvcc_only)
                .is_some_and(|r| r.contains("`/usr/bin/clang++-18`"))
        );
        let configured = Options {
            portability: vec![Compiler::Clang],
            ..Options::default()
        };
        assert!(
            clang_builds(&nothing_known, &configured).is_some_and(|r| r.contains("configuration"))
        );
    }
}
