//! The confirmation table: `docs/confirmations.md` for people, and the same data as
//! `cli/data/confirmations.json`, which `ptxguard rule NAME` shows.

use crate::harness::{Kind, Outcome};
use crate::runner::CaseResult;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Where and with what the table was made.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Environment {
    pub gpu: String,
    pub driver: String,
    /// The CUDA version the driver supports.
    pub cuda: String,
    pub nvcc: String,
    pub nvrtc: String,
    pub date: String,
}

/// One row of the table (what the JSON keeps of a case).
#[derive(Clone, Debug, Serialize)]
pub struct Row<'a> {
    pub rule: &'a str,
    pub case: &'a str,
    pub kind: Kind,
    pub outcome: &'static str,
    pub evidence: &'a str,
    pub fix: &'a str,
    pub also: &'a [String],
    pub ptxguard: &'a [String],
    pub rule_reported: Option<bool>,
    pub confirm: Option<&'a str>,
    pub gpu: &'a str,
    pub driver: &'a str,
    pub cuda: &'a str,
    pub date: &'a str,
    pub expect_bad: &'a [String],
    pub expect_good: &'a [String],
    pub english: &'a [String],
}

pub fn counts(results: &[CaseResult]) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for o in [
        Outcome::Confirmed,
        Outcome::FixedOk,
        Outcome::NotReproduced,
        Outcome::HarnessError,
    ] {
        m.insert(
            o.as_str(),
            results.iter().filter(|r| r.outcome == o).count(),
        );
    }
    m
}

/// The JSON document.
pub fn json(env: &Environment, results: &[CaseResult], skipped: &[String]) -> String {
    let rows: Vec<Row> = results
        .iter()
        .map(|r| Row {
            rule: &r.rule,
            case: &r.case,
            kind: r.kind,
            outcome: r.outcome.as_str(),
            evidence: &r.evidence,
            fix: &r.fix,
            also: &r.also,
            ptxguard: &r.ptxguard,
            rule_reported: r.rule_reported,
            confirm: r.confirm.as_deref(),
            gpu: &env.gpu,
            driver: &env.driver,
            cuda: &env.cuda,
            date: &env.date,
            expect_bad: &r.expect_bad,
            expect_good: &r.expect_good,
            english: &r.english,
        })
        .collect();
    let doc = serde_json::json!({
        "environment": env,
        "summary": counts(results),
        "cases": rows,
        "not_run": skipped,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

fn cell(s: &str) -> String {
    let s = s.replace('|', "\\|").replace('\n', " ");
    if s.chars().count() > 400 {
        let cut: String = s.chars().take(400).collect();
        format!("{cut}…")
    } else {
        s
    }
}

/// The Markdown document.
pub fn markdown(env: &Environment, results: &[CaseResult], skipped: &[String]) -> String {
    let mut s = String::new();
    s.push_str("# GPU confirmations\n\n");
    s.push_str(
        "What the toolchain and the GPU did with each corpus case that carries a GPU header, made by \
         the GPU harness (`gpu-tests run`, see `gpu-tests/README.md`). Generated: do not edit by hand; \
         the same data is in `cli/data/confirmations.json`.\n\n",
    );
    s.push_str(
        "What `ptxguard confirm` says in a user's own build (per rule: findings confirmed by the \
         toolchain, biting in the machine code, without effect, not decidable, and the time), on \
         these cases and on real projects built by their own build systems: \
         [confirm-evidence.md](confirm-evidence.md).\n\n",
    );
    let _ = writeln!(s, "| | |\n|---|---|");
    let _ = writeln!(s, "| GPU | {} |", cell(&env.gpu));
    let _ = writeln!(
        s,
        "| driver | {} (CUDA {}) |",
        cell(&env.driver),
        cell(&env.cuda)
    );
    let _ = writeln!(s, "| nvcc | {} |", cell(&env.nvcc));
    let _ = writeln!(s, "| NVRTC | {} |", cell(&env.nvrtc));
    let _ = writeln!(s, "| date | {} |\n", cell(&env.date));
    s.push_str(
        "Outcomes: **fixed-ok**: the flaw showed and ptxguard's own fixes (all of them, safe and \
         unsafe, applied through the library) made the code compile and run right; **confirmed**: \
         the flaw showed (for a `bad-*` case; the *fix* column says whether ptxguard offered a fix \
         and what became of it) or the correct form behaved as the case says (other cases); \
         **not-reproduced**: the toolchain or GPU did not do what the case says; **harness-error**: \
         the case could not be judged. The primary toolchain is nvcc + ptxas (`-arch` as the case \
         names, `-O3`); NVRTC's verdict is listed under *also*.\n\n",
    );
    let c = counts(results);
    let _ = writeln!(
        s,
        "**{} cases**: {} fixed-ok, {} confirmed, {} not-reproduced, {} harness-error.\n",
        results.len(),
        c["fixed-ok"],
        c["confirmed"],
        c["not-reproduced"],
        c["harness-error"]
    );

    // Per rule.
    let mut by_rule: BTreeMap<&str, Vec<&CaseResult>> = BTreeMap::new();
    for r in results {
        by_rule.entry(&r.rule).or_default().push(r);
    }
    s.push_str("## By rule\n\n| rule | cases | fixed-ok | confirmed | not-reproduced | harness-error |\n|---|---|---|---|---|---|\n");
    for (rule, rs) in &by_rule {
        let n = |o: Outcome| rs.iter().filter(|r| r.outcome == o).count();
        let _ = writeln!(
            s,
            "| `{rule}` | {} | {} | {} | {} | {} |",
            rs.len(),
            n(Outcome::FixedOk),
            n(Outcome::Confirmed),
            n(Outcome::NotReproduced),
            n(Outcome::HarnessError)
        );
    }
    let confirmed_rules: Vec<&str> = by_rule
        .iter()
        .filter(|(_, rs)| {
            rs.iter().any(|r| {
                r.kind == Kind::Bad && matches!(r.outcome, Outcome::Confirmed | Outcome::FixedOk)
            })
        })
        .map(|(k, _)| *k)
        .collect();
    let missing: Vec<&str> = ptxguard_rules::all_rules()
        .iter()
        .map(|r| r.name)
        .filter(|n| !confirmed_rules.contains(n))
        .collect();
    if !missing.is_empty() {
        let _ = writeln!(
            s,
            "\nRules with no confirmed `bad-*` case in this run: {}. (Triton confirms the \
             Python-only rules: `gpu-tests/python/confirm_triton.py`, `docs/python.md`.)\n",
            missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let broken: Vec<&CaseResult> = results
        .iter()
        .filter(|r| r.fix.starts_with("DID NOT REPAIR"))
        .collect();
    if !broken.is_empty() {
        s.push_str("\n## Fixes that did not repair the code\n\n");
        for r in broken {
            let _ = writeln!(s, "- `{}`: {}", r.case, cell(&r.fix));
        }
    }
    let unreported: Vec<&CaseResult> = results
        .iter()
        .filter(|r| r.rule_reported == Some(false))
        .collect();
    if !unreported.is_empty() {
        s.push_str("\n## Cases where ptxguard did not report the case's rule\n\n");
        for r in unreported {
            let _ = writeln!(
                s,
                "- `{}` (reported: {})",
                r.case,
                if r.ptxguard.is_empty() {
                    "nothing".to_string()
                } else {
                    r.ptxguard.join(", ")
                }
            );
        }
    }

    s.push_str("\n## Cases\n\n| rule | case | outcome | evidence | fix | also |\n|---|---|---|---|---|---|\n");
    for r in results {
        let _ = writeln!(
            s,
            "| `{}` | `{}` | **{}** | {} | {} | {} |",
            r.rule,
            r.case,
            r.outcome.as_str(),
            cell(&r.evidence),
            cell(&r.fix),
            cell(&r.also.join("; "))
        );
    }
    let confirms: Vec<&CaseResult> = results.iter().filter(|r| r.confirm.is_some()).collect();
    if !confirms.is_empty() {
        s.push_str("\n## `ptxguard confirm` on the bad cases\n\nWhat `ptxguard confirm` (nvcc `-lineinfo --keep`, messages traced to asm statements) says about each `bad-*` case.\n\n| case | confirm |\n|---|---|\n");
        for r in confirms {
            let _ = writeln!(
                s,
                "| `{}` | {} |",
                r.case,
                cell(r.confirm.as_deref().unwrap_or(""))
            );
        }
    }
    if !skipped.is_empty() {
        s.push_str("\n## Not run\n\n");
        for k in skipped {
            let _ = writeln!(s, "- {k}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(rule: &str, case: &str, kind: Kind, outcome: Outcome, fix: &str) -> CaseResult {
        CaseResult {
            rule: rule.into(),
            case: case.into(),
            kind,
            outcome,
            evidence: "nvcc: counter[0] = 0 | pipe".into(),
            fix: fix.into(),
            also: vec!["nvrtc: confirmed (same)".into()],
            ptxguard: vec![rule.into()],
            rule_reported: Some(true),
            confirm: Some("build succeeded; missing-volatile run-only".into()),
            english: vec![],
            expect_bad: vec!["counter[0] != 128".into()],
            expect_good: vec![],
            builds: vec![],
        }
    }

    #[test]
    fn tables() {
        let env = Environment {
            gpu: "NVIDIA H200".into(),
            driver: "580.159.04".into(),
            cuda: "13.0".into(),
            nvcc: "13.0.88".into(),
            nvrtc: "13.0".into(),
            date: "2026-11-29".into(),
        };
        let rs = vec![
            result(
                "missing-volatile",
                "missing-volatile/bad-deleted-atomic.cu",
                Kind::Bad,
                Outcome::FixedOk,
                "ok (add volatile)",
            ),
            result(
                "missing-volatile",
                "missing-volatile/good-x.cu",
                Kind::Good,
                Outcome::Confirmed,
                "-",
            ),
            result(
                "ptx-syntax",
                "ptx-syntax/bad-y.cu",
                Kind::Bad,
                Outcome::Confirmed,
                "DID NOT REPAIR (x): nvcc: ptxas said",
            ),
        ];
        let md = markdown(&env, &rs, &["SKIP: something".into()]);
        assert!(md.contains("| GPU | NVIDIA H200 |"));
        assert!(
            md.contains("**3 cases**: 1 fixed-ok, 2 confirmed, 0 not-reproduced, 0 harness-error.")
        );
        assert!(md.contains("| `missing-volatile` | 2 | 1 | 1 | 0 | 0 |"));
        assert!(md.contains("counter[0] = 0 \\| pipe"));
        assert!(md.contains("## Fixes that did not repair the code"));
        assert!(md.contains("Rules with no confirmed `bad-*` case"));
        assert!(
            !md.contains("`missing-volatile`, "),
            "missing-volatile is confirmed"
        );
        let js = json(&env, &rs, &[]);
        let v: serde_json::Value = serde_json::from_str(&js).unwrap();
        assert_eq!(v["summary"]["fixed-ok"], 1);
        assert_eq!(v["cases"][0]["outcome"], "fixed-ok");
        assert_eq!(v["cases"][0]["gpu"], "NVIDIA H200");
        assert_eq!(v["cases"][0]["driver"], "580.159.04");
        assert_eq!(v["cases"][0]["date"], "2026-11-29");
    }
}
