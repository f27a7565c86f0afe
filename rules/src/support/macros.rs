/// Declares a rule's metadata; the doc comment above it becomes its documentation.
///
/// ```ignore
/// declare_rule! {
///     /// ## What it does
///     /// ...
///     pub static META = {
///         name: "percent-escape",
///         severity: Warning,
///         fix: Safe,
///         default_enabled: true,
///         summary: "a `%` that is not escaped the way the compiler reads it",
///     }
/// }
/// ```
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $vis:vis static $ident:ident = {
            name: $name:literal,
            severity: $sev:ident,
            fix: $fix:ident,
            default_enabled: $enabled:literal,
            summary: $summary:literal $(,)?
        }
    ) => {
        $vis static $ident: $crate::RuleMeta = $crate::RuleMeta {
            name: $name,
            default_severity: ptxguard_analyzer::Severity::$sev,
            fix: $crate::FixAvailability::$fix,
            default_enabled: $enabled,
            summary: $summary,
            docs: concat!($($doc, "\n"),*),
        };
    };
}
