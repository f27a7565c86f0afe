//! The ptxguard rules. One file per rule; each rule's doc comment is its user documentation.

use ptxguard_analyzer::{Diagnostic, Severity, SourceFile};

/// Whether a rule can offer a fix, and of which kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixAvailability {
    None,
    Safe,
    Unsafe,
    /// Some findings get a safe fix, others an unsafe one.
    Sometimes,
}

/// A rule's public description.
#[derive(Debug)]
pub struct RuleMeta {
    /// Public name, used in configs and suppressions: `address-register-width`.
    pub name: &'static str,
    pub default_severity: Severity,
    pub fix: FixAvailability,
    pub default_enabled: bool,
    /// One line.
    pub summary: &'static str,
    /// The full Markdown documentation (the rule's doc comment).
    pub docs: &'static str,
}

/// Settings that change what rules report (not which rules run).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// SM targets the code is built for (`sm_80`, `sm_90a`); empty means every supported one.
    pub targets: Vec<String>,
    /// CCCL version for `prefer-cuda-ptx` (`3.0.0`); `None` means the one CUDA 13.0 ships.
    pub cccl_version: Option<String>,
}

/// Every rule, in a stable order.
pub fn all_rules() -> &'static [&'static RuleMeta] {
    &[]
}

pub fn rule(name: &str) -> Option<&'static RuleMeta> {
    all_rules().iter().copied().find(|r| r.name == name)
}

/// Runs every rule (default-off ones included) on one file. Callers filter by configuration.
pub fn check(_file: &SourceFile, _options: &Options) -> Vec<Diagnostic> {
    Vec::new()
}
