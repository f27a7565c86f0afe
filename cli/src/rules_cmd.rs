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
        "Default severity: {}. Fix: {}. {} by default. In code the compiler never builds (an \
         inline, static or template device function, or a Python function, that nothing in \
         the project uses; an `if constexpr` branch no allowed template argument takes) a \
         finding is info, its note saying so.\n",
        rule.default_severity.as_str(),
        fix_availability_str(rule.fix),
        if rule.default_enabled { "On" } else { "Off" }
    );
    let _ = write!(out, "{}", registry::docs_text(rule));
    let _ = write!(out, "{}", confirmation_section(rule.name));
    0
}

/// The GPU harness's results for a rule (`cli/data/confirmations.json`, built in), as Markdown.
pub fn confirmation_section(rule: &str) -> String {
    static TABLE: &str = include_str!("../data/confirmations.json");
    let Ok(table) = serde_json::from_str::<serde_json::Value>(TABLE) else {
        return String::new();
    };
    let cases: Vec<&serde_json::Value> = table["cases"]
        .as_array()
        .map(|c| c.iter().filter(|c| c["rule"] == rule).collect())
        .unwrap_or_default();
    let env = &table["environment"];
    let mut text = String::from("\n\n## GPU confirmation\n\n");
    if cases.is_empty() {
        text.push_str(
            "No corpus case of this rule was run on a GPU (see docs/confirmations.md).\n",
        );
        return text;
    }
    let count = |outcome: &str| cases.iter().filter(|c| c["outcome"] == outcome).count();
    text.push_str(&format!(
        "{} case(s) run by the GPU harness on {} with nvcc {} ({}): {} fixed-ok, {} confirmed, {} not-reproduced, {} harness-error. Details: docs/confirmations.md.\n\n",
        cases.len(),
        env["gpu"].as_str().unwrap_or("a GPU"),
        env["nvcc"].as_str().unwrap_or("?"),
        cases[0]["date"].as_str().unwrap_or("?"),
        count("fixed-ok"),
        count("confirmed"),
        count("not-reproduced"),
        count("harness-error"),
    ));
    for case in cases {
        text.push_str(&format!(
            "- `{}`: {}\n",
            case["case"].as_str().unwrap_or("?"),
            case["outcome"].as_str().unwrap_or("?")
        ));
    }
    text
}
