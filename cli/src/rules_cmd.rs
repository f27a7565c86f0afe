//! `ptxguard rules` and `ptxguard rule NAME`.

use crate::registry::{self, fix_availability_str};
use std::io::Write;

pub fn list(json: bool, out: &mut dyn Write) -> i32 {
    let rules = registry::known_rules();
    if json {
        let value: Vec<serde_json::Value> = rules
            .iter()
            .map(|r| {
                serde_json::json!({
                    "name": r.name,
                    "default_severity": r.default_severity.as_str(),
                    "fix": fix_availability_str(r.fix),
                    "default_enabled": r.default_enabled,
                    "summary": r.summary,
                })
            })
            .collect();
        let _ = serde_json::to_writer_pretty(&mut *out, &value);
        let _ = writeln!(out);
        return 0;
    }
    let width = rules.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "{:<width$}  {:<8}  {:<9}  {:<7}  SUMMARY",
        "RULE", "SEVERITY", "FIX", "DEFAULT"
    );
    for r in rules {
        let _ = writeln!(
            out,
            "{:<width$}  {:<8}  {:<9}  {:<7}  {}",
            r.name,
            r.default_severity.as_str(),
            fix_availability_str(r.fix),
            if r.default_enabled { "on" } else { "off" },
            r.summary
        );
    }
    0
}

pub fn show(name: &str, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let Some(rule) = registry::find_rule(name) else {
        let _ = writeln!(err, "error: {}", registry::unknown_rule_message(name));
        return 2;
    };
    let _ = writeln!(out, "# {}\n", rule.name);
    let _ = writeln!(
        out,
        "Default severity: {}. Fix: {}. {} by default.\n",
        rule.default_severity.as_str(),
        fix_availability_str(rule.fix),
        if rule.default_enabled { "On" } else { "Off" }
    );
    let _ = write!(out, "{}", registry::docs_text(rule));
    0
}
