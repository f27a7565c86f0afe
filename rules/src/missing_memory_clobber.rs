use crate::Ctx;
use ptxguard_analyzer::Diagnostic;

declare_rule! {
    /// TODO: documentation.
    pub static META = {
        name: "missing-memory-clobber",
        severity: Error,
        fix: None,
        default_enabled: true,
        summary: "TODO",
    }
}

pub fn check(_cx: &Ctx, _out: &mut Vec<Diagnostic>) {}
