//! Planning, building, running and judging the corpus cases that carry a GPU header.
//!
//! For each case: the original text and, for a `bad-*` case, the text with every ptxguard fix
//! applied (safe and unsafe, through `ptxguard_rules::check` and `apply_edits`). Each variant is
//! built with every toolchain found (nvcc + ptxas; NVRTC, whose own ptxas makes the CUBIN),
//! launched where the header says how, and judged against the header's expectations.

use crate::cuda::RunResult;
use crate::header::{self, Artifact, Expect, Header, Index, Stage};
use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::diag::apply_edits;
use ptxguard_analyzer::isa::Target;
use ptxguard_analyzer::{Edit, SourceFile};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// What a case is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `bad-*`: the flaw must show; the fixed text must be right.
    Bad,
    /// Anything else: the text must show the `gpu-good` expectations.
    Good,
}

/// One corpus case with a header.
#[derive(Clone, Debug)]
pub struct Case {
    pub path: PathBuf,
    /// Relative to the corpus directory: `missing-volatile/bad-deleted-atomic.cu`.
    pub name: String,
    /// The folder's rule, or `-`.
    pub rule: String,
    pub kind: Kind,
    pub text: String,
    pub header: Result<Header, header::HeaderError>,
}

/// Every `.cu` case under `corpus` with a `// gpu-` header line, sorted by name.
pub fn discover(corpus: &Path) -> Vec<Case> {
    let mut files = Vec::new();
    let mut stack = vec![corpus.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() && !name.starts_with('.') {
                stack.push(p);
            } else if name.ends_with(".cu") {
                files.push(p);
            }
        }
    }
    let mut cases = Vec::new();
    for p in files {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        if !text.lines().any(|l| l.trim_start().starts_with("// gpu-")) {
            continue;
        }
        let name = p
            .strip_prefix(corpus)
            .unwrap_or(&p)
            .to_string_lossy()
            .replace('\\', "/");
        let folder = name.split('/').next().unwrap_or("");
        let rule = if ptxguard_rules::rule(folder).is_some() {
            folder.to_string()
        } else {
            "-".to_string()
        };
        let file_name = name.rsplit('/').next().unwrap_or("");
        let kind = if file_name.starts_with("bad-") {
            Kind::Bad
        } else {
            Kind::Good
        };
        let header = header::parse(&text);
        cases.push(Case {
            path: p,
            name,
            rule,
            kind,
            text,
            header,
        });
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

/// ptxguard's findings on a text and the text with all their fixes.
#[derive(Clone, Debug, Default)]
pub struct Fixed {
    /// Rules reported on the original text.
    pub reported: Vec<String>,
    /// The text after every fix (safe and unsafe) was applied, up to 4 rounds.
    pub text: String,
    /// What each applied fix said it does, with its rule.
    pub applied: Vec<String>,
    /// Set when a round of fixes brought back an earlier text (fixes undoing each other);
    /// `text` is then the text before that round.
    pub conflict: Option<String>,
}

/// Runs the rules and applies every fix they offer, until none is left (at most 4 rounds).
pub fn apply_fixes(path: &Path, text: &str, targets: &[Target]) -> Fixed {
    let options = ptxguard_rules::Options::default();
    let context = AnalysisContext {
        targets: targets.to_vec(),
        ..AnalysisContext::default()
    };
    let mut out = Fixed {
        text: text.to_string(),
        ..Default::default()
    };
    let mut seen = vec![out.text.clone()];
    for round in 0..4 {
        let Ok(file) = SourceFile::from_bytes(path.to_path_buf(), out.text.clone().into_bytes())
        else {
            break;
        };
        let diags = ptxguard_rules::check(&file, &context, &options);
        if round == 0 {
            let mut rules: Vec<String> = diags.iter().map(|d| d.rule.to_string()).collect();
            rules.sort();
            rules.dedup();
            out.reported = rules;
        }
        let mut edits: Vec<Edit> = Vec::new();
        let mut messages = Vec::new();
        for d in &diags {
            if let Some(f) = &d.fix {
                edits.extend(f.edits.iter().cloned());
                messages.push(format!("{}: {}", d.rule, f.message));
            }
        }
        if edits.is_empty() {
            break;
        }
        let (new_text, applied) = apply_edits(&out.text, &edits);
        if applied == 0 || new_text == out.text {
            break;
        }
        if seen.contains(&new_text) {
            out.conflict = Some(format!(
                "round {} of fixes ({}) brings back an earlier text: the fixes undo each other",
                round + 1,
                messages.join("; ")
            ));
            break;
        }
        seen.push(new_text.clone());
        out.text = new_text;
        for m in messages {
            if !out.applied.contains(&m) {
                out.applied.push(m);
            }
        }
    }
    out
}

/// Which toolchain built a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Toolchain {
    /// nvcc (front end to PTX) then ptxas (PTX to CUBIN).
    Nvcc,
    /// NVRTC (to PTX, and to a CUBIN with its own ptxas); the driver JIT for other targets.
    Nvrtc,
}

impl Toolchain {
    pub fn as_str(self) -> &'static str {
        match self {
            Toolchain::Nvcc => "nvcc",
            Toolchain::Nvrtc => "nvrtc",
        }
    }
}

/// What one step printed.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Step {
    pub ok: bool,
    pub text: String,
}

/// One toolchain's build (and run) of one variant.
#[derive(Clone, Debug, Serialize)]
pub struct Build {
    pub toolchain: Toolchain,
    /// The C++ front end (nvcc -ptx, NVRTC to compute_XX).
    pub front_end: Step,
    /// ptxas (nvcc's) or NVRTC to sm_XX; `None` when the front end failed.
    pub assemble: Option<Step>,
    #[serde(skip)]
    pub ptx: Option<String>,
    #[serde(skip)]
    pub sass: Option<String>,
    /// The file to load: a CUBIN, or PTX for the driver to JIT.
    #[serde(skip)]
    pub image: Option<PathBuf>,
    pub run: Option<RunResult>,
    /// Why part of this build could not be judged (a header NVRTC cannot open...).
    pub unusable: Option<String>,
}

/// Tri-state verdict of expectations against a build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    Holds(String),
    Fails(String),
    Unknown(String),
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first line of `text` containing `needle` (whitespace-insensitive).
fn line_with<'a>(text: &'a str, needle: &str) -> Option<&'a str> {
    let n = squash(needle);
    text.lines().find(|l| squash(l).contains(&n)).map(str::trim)
}

/// `/tmp/w/x/k.cu(6): error: ...` -> `k.cu(6): error: ...` (scratch directories say nothing).
pub fn strip_dirs(line: &str) -> String {
    if let Some(rest) = line.strip_prefix("ptxas /") {
        if let Some((_, after)) = rest.split_once(", line ") {
            return format!("ptxas line {after}");
        }
    }
    match line.find(".cu(") {
        Some(at) => {
            let start = line[..at].rfind('/').map(|i| i + 1).unwrap_or(0);
            let prefix_end = line[..start]
                .rfind(char::is_whitespace)
                .map(|i| i + 1)
                .unwrap_or(0);
            format!("{}{}", &line[..prefix_end], &line[start..])
        }
        None => line.to_string(),
    }
}

/// The first line that looks like an error.
pub fn first_error(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| {
            let l = l.to_ascii_lowercase();
            (l.contains("error") || l.contains("fatal"))
                && !l.contains("aborted due to errors")
                && !l.contains("detected in the compilation")
        })
        .or_else(|| text.lines().map(str::trim).find(|l| !l.is_empty()))
        .map(strip_dirs)
        .unwrap_or_else(|| "(no message)".to_string())
        .chars()
        .take(300)
        .collect()
}

fn short_run(r: &RunResult) -> String {
    match r {
        RunResult::Finished { .. } => "ran to the end".into(),
        RunResult::Fault { error } => format!("faulted ({error})"),
        RunResult::Hang => "did not finish (killed)".into(),
        RunResult::LoadError { error, log } => {
            format!("did not load: {error} {}", first_error(log))
        }
        RunResult::HarnessError { error } => format!("harness: {error}"),
    }
}

/// Why a build did not reach a run.
fn why_no_run(b: &Build) -> String {
    if let Some(u) = &b.unusable {
        return u.clone();
    }
    if !b.front_end.ok {
        return format!(
            "{} front end failed: {}",
            b.toolchain.as_str(),
            first_error(&b.front_end.text)
        );
    }
    if let Some(a) = &b.assemble {
        if !a.ok {
            return format!(
                "{} ptxas failed: {}",
                b.toolchain.as_str(),
                first_error(&a.text)
            );
        }
    }
    "not run".into()
}

/// One expectation against one build.
pub fn eval(e: &Expect, b: &Build) -> Eval {
    let tc = b.toolchain.as_str();
    if let Some(u) = &b.unusable {
        return Eval::Unknown(format!("{tc}: {u}"));
    }
    match e {
        Expect::Message {
            stage: Stage::FrontEnd,
            text,
        } => match line_with(&b.front_end.text, text) {
            Some(l) => Eval::Holds(format!("{tc}: {}", strip_dirs(l))),
            None if b.front_end.ok => Eval::Fails(format!("{tc} front end accepted it")),
            None => Eval::Fails(format!(
                "{tc} said instead: {}",
                first_error(&b.front_end.text)
            )),
        },
        Expect::Message {
            stage: Stage::Ptxas,
            text,
        } => {
            let mut logs = String::new();
            if let Some(a) = &b.assemble {
                logs.push_str(&a.text);
            }
            if let Some(RunResult::LoadError { log, .. }) = &b.run {
                logs.push_str(log);
            }
            if let Some(l) = line_with(&logs, text) {
                let l = l.replace('\t', " ");
                let l = match l.split_once(", line ") {
                    // Drop the scratch path ptxas names.
                    Some((_, rest)) => format!("ptxas line {rest}"),
                    None => l,
                };
                return Eval::Holds(format!("{tc}: {}", squash(&l)));
            }
            if !b.front_end.ok {
                return Eval::Fails(format!(
                    "{tc} front end failed first: {}",
                    first_error(&b.front_end.text)
                ));
            }
            match &b.assemble {
                None => Eval::Unknown(format!("{tc}: not assembled")),
                Some(a) if a.ok => Eval::Fails(format!("{tc}: ptxas accepted it")),
                Some(a) => Eval::Fails(format!(
                    "{tc}: ptxas said instead: {}",
                    first_error(&a.text)
                )),
            }
        }
        Expect::Compiles => {
            if !b.front_end.ok {
                return Eval::Fails(format!("{tc}: {}", first_error(&b.front_end.text)));
            }
            match &b.assemble {
                Some(a) if !a.ok => Eval::Fails(format!("{tc}: {}", first_error(&a.text))),
                None => Eval::Unknown(format!("{tc}: not assembled")),
                Some(_) => match &b.run {
                    Some(r @ RunResult::LoadError { .. }) => {
                        Eval::Fails(format!("{tc}: {}", short_run(r)))
                    }
                    _ => Eval::Holds(format!("{tc}: compiles")),
                },
            }
        }
        Expect::Fault | Expect::Hang => match &b.run {
            None => Eval::Unknown(format!("{tc}: {}", why_no_run(b))),
            Some(RunResult::HarnessError { error }) => Eval::Unknown(format!("{tc}: {error}")),
            Some(r) => {
                let want_fault = matches!(e, Expect::Fault);
                let hit = match r {
                    RunResult::Fault { .. } => want_fault,
                    RunResult::Hang => !want_fault,
                    _ => false,
                };
                if hit {
                    Eval::Holds(format!("{tc}: {}", short_run(r)))
                } else {
                    Eval::Fails(format!("{tc}: {}", short_run(r)))
                }
            }
        },
        Expect::Contains {
            artifact,
            text,
            present,
        } => {
            let body = match artifact {
                Artifact::Ptx => b.ptx.as_deref(),
                Artifact::Sass => b.sass.as_deref(),
            };
            let Some(body) = body else {
                return Eval::Unknown(format!("{tc}: no {}", artifact.as_str()));
            };
            let found = body.contains(text.as_str());
            let what = format!(
                "{tc}: the {} {} `{text}`",
                artifact.as_str().to_uppercase(),
                if found { "has" } else { "lacks" }
            );
            if found == *present {
                Eval::Holds(what)
            } else {
                Eval::Fails(what)
            }
        }
        Expect::Result(conds) => {
            let Some(r) = &b.run else {
                return Eval::Unknown(format!("{tc}: {}", why_no_run(b)));
            };
            if !matches!(r, RunResult::Finished { .. }) {
                return match r {
                    RunResult::HarnessError { .. } => {
                        Eval::Unknown(format!("{tc}: {}", short_run(r)))
                    }
                    _ => Eval::Fails(format!("{tc}: {}", short_run(r))),
                };
            }
            let mut seen = Vec::new();
            let mut all = true;
            for c in conds {
                let Some(values) = r.buffer(&c.buffer) else {
                    return Eval::Unknown(format!("{tc}: no buffer `{}`", c.buffer));
                };
                let (holds, shown) = match c.index {
                    Index::At(i) => match values.get(i) {
                        Some(v) => (c.op.holds(*v, c.value), format!("{}[{i}] = {v}", c.buffer)),
                        None => return Eval::Unknown(format!("{tc}: `{}` too short", c.buffer)),
                    },
                    Index::All => {
                        let bad = values.iter().position(|v| !c.op.holds(*v, c.value));
                        match bad {
                            None => (
                                true,
                                format!("{}[*] {} {}", c.buffer, c.op.as_str(), c.value),
                            ),
                            Some(i) => (false, format!("{}[{i}] = {}", c.buffer, values[i])),
                        }
                    }
                };
                all &= holds;
                seen.push(shown);
            }
            let what = if seen.is_empty() {
                format!("{tc}: ran to the end")
            } else {
                format!("{tc}: {}", seen.join(", "))
            };
            if all {
                Eval::Holds(what)
            } else {
                Eval::Fails(what)
            }
        }
    }
}

/// All expectations against one build: holds if all hold, fails if any fails.
pub fn eval_all(es: &[Expect], b: &Build) -> Eval {
    let mut holds = Vec::new();
    let mut unknown = None;
    for e in es {
        match eval(e, b) {
            Eval::Holds(s) => holds.push(s),
            f @ Eval::Fails(_) => return f,
            Eval::Unknown(s) => unknown = unknown.or(Some(s)),
        }
    }
    match unknown {
        Some(u) => Eval::Unknown(u),
        None => Eval::Holds(dedup_join(holds)),
    }
}

fn dedup_join(v: Vec<String>) -> String {
    let mut out: Vec<String> = Vec::new();
    for s in v {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out.join("; ")
}

/// The four outcomes of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The flaw showed (bad case; ptxguard's fix, if any, is in `fix`) or the good case
    /// behaved as it says.
    Confirmed,
    /// The flaw showed and ptxguard's fixed text compiled and ran right.
    FixedOk,
    /// The toolchain or GPU did not show what the case says.
    NotReproduced,
    /// The case could not be judged (bad header, missing toolchain, a build that failed for
    /// another reason).
    HarnessError,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Confirmed => "confirmed",
            Outcome::FixedOk => "fixed-ok",
            Outcome::NotReproduced => "not-reproduced",
            Outcome::HarnessError => "harness-error",
        }
    }
}

/// What the default expectation of fixed code is: it compiles, and runs to the end when the
/// header launches it.
pub fn default_good(h: &Header) -> Vec<Expect> {
    if h.good.is_empty() {
        let mut v = vec![Expect::Compiles];
        if h.launch.is_some() {
            v.push(Expect::Result(Vec::new()));
        }
        v
    } else {
        h.good.clone()
    }
}

/// The verdicts one case needs, from the primary toolchain's builds (nvcc when present).
#[derive(Clone, Debug)]
pub struct Judged {
    pub outcome: Outcome,
    pub evidence: String,
    pub fix: String,
}

/// Classifies a case from its evaluations. `bad`: the flawed text against `gpu-bad` (bad
/// cases) or the text against `gpu-good` (good cases); `fixed`: the fixed text against the
/// good expectations, `None` when ptxguard offered no fix.
pub fn classify(kind: Kind, bad: &Eval, fixed: Option<&Eval>, fixes: &[String]) -> Judged {
    match (kind, bad) {
        (_, Eval::Unknown(why)) => Judged {
            outcome: Outcome::HarnessError,
            evidence: why.clone(),
            fix: "-".into(),
        },
        (_, Eval::Fails(what)) => Judged {
            outcome: Outcome::NotReproduced,
            evidence: what.clone(),
            fix: "-".into(),
        },
        (Kind::Good, Eval::Holds(what)) => Judged {
            outcome: Outcome::Confirmed,
            evidence: what.clone(),
            fix: "-".into(),
        },
        (Kind::Bad, Eval::Holds(what)) => {
            let applied = fixes.join("; ");
            match fixed {
                None => Judged {
                    outcome: Outcome::Confirmed,
                    evidence: what.clone(),
                    fix: "none offered".into(),
                },
                Some(Eval::Holds(ok)) => Judged {
                    outcome: Outcome::FixedOk,
                    evidence: format!("{what}; fixed: {ok}"),
                    fix: format!("ok ({applied})"),
                },
                Some(Eval::Fails(why)) => Judged {
                    outcome: Outcome::Confirmed,
                    evidence: what.clone(),
                    fix: format!("DID NOT REPAIR ({applied}): {why}"),
                },
                Some(Eval::Unknown(why)) => Judged {
                    outcome: Outcome::Confirmed,
                    evidence: what.clone(),
                    fix: format!("not checked ({applied}): {why}"),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn build(
        front_ok: bool,
        front: &str,
        asm: Option<(bool, &str)>,
        run: Option<RunResult>,
    ) -> Build {
        Build {
            toolchain: Toolchain::Nvcc,
            front_end: Step {
                ok: front_ok,
                text: front.into(),
            },
            assemble: asm.map(|(ok, t)| Step { ok, text: t.into() }),
            ptx: Some(".entry _Z1kPj( ld.global.u32".into()),
            sass: None,
            image: None,
            run,
            unusable: None,
        }
    }

    fn finished(name: &str, values: &[&str]) -> RunResult {
        let mut b = BTreeMap::new();
        b.insert(
            name.to_string(),
            values.iter().map(|s| s.to_string()).collect(),
        );
        RunResult::Finished { buffers: b }
    }

    fn expect(s: &str) -> Expect {
        header::parse_expect(s).unwrap()
    }

    #[test]
    fn messages() {
        let b = build(
            true,
            "",
            Some((false, "ptxas /tmp/x/k.ptx, line 59; error   : Duplicate definition of label 'CLAMP_DONE'\nptxas fatal   : Ptx assembly aborted due to errors\n")),
            None,
        );
        assert_eq!(
            eval(
                &expect("ptxas \"Duplicate definition of label 'CLAMP_DONE'\""),
                &b
            ),
            Eval::Holds(
                "nvcc: ptxas line 59; error : Duplicate definition of label 'CLAMP_DONE'".into()
            )
        );
        assert!(matches!(
            eval(&expect("ptxas \"Arguments mismatch\""), &b),
            Eval::Fails(_)
        ));
        assert!(matches!(eval(&expect("compiles"), &b), Eval::Fails(_)));
        let fe = build(false, "k.cu(7): error: asm constraint letter 'm' is not allowed inside a __device__/__global__ function\n", None, None);
        assert!(matches!(
            eval(&expect("nvcc \"asm constraint letter 'm'\""), &fe),
            Eval::Holds(_)
        ));
        match eval(&expect("ptxas \"anything\""), &fe) {
            Eval::Fails(s) => assert!(s.contains("front end failed first"), "{s}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn results_and_runs() {
        let b = build(
            true,
            "",
            Some((true, "")),
            Some(finished("counter", &["0"])),
        );
        assert_eq!(
            eval(&expect("counter[0] != 128"), &b),
            Eval::Holds("nvcc: counter[0] = 0".into())
        );
        assert_eq!(
            eval(&expect("counter[0] == 128"), &b),
            Eval::Fails("nvcc: counter[0] = 0".into())
        );
        assert!(matches!(eval(&expect("compiles"), &b), Eval::Holds(_)));
        assert!(matches!(eval(&expect("fault"), &b), Eval::Fails(_)));
        let all = build(
            true,
            "",
            Some((true, "")),
            Some(finished("out", &["1", "1", "2"])),
        );
        assert_eq!(
            eval(&expect("out[*] == 1"), &all),
            Eval::Fails("nvcc: out[2] = 2".into())
        );
        let f = build(
            true,
            "",
            Some((true, "")),
            Some(RunResult::Fault {
                error: "CUDA_ERROR_ILLEGAL_ADDRESS".into(),
            }),
        );
        assert!(matches!(eval(&expect("fault"), &f), Eval::Holds(_)));
        assert!(matches!(eval(&expect("out[0] == 1"), &f), Eval::Fails(_)));
        let none = build(false, "k.cu(1): error: nope", None, None);
        assert!(matches!(
            eval(&expect("out[0] == 1"), &none),
            Eval::Unknown(_)
        ));
        assert!(matches!(
            eval(&expect("ptx lacks \"atom.add\""), &b),
            Eval::Holds(_)
        ));
        assert!(matches!(
            eval(&expect("ptx has \"atom.add\""), &b),
            Eval::Fails(_)
        ));
        assert!(matches!(
            eval(&expect("sass lacks \"ATOM\""), &b),
            Eval::Unknown(_)
        ));
        // An empty result (the default for fixed code) needs only a finished run.
        assert!(matches!(eval(&Expect::Result(vec![]), &b), Eval::Holds(_)));
    }

    #[test]
    fn scratch_paths_are_dropped() {
        assert_eq!(
            strip_dirs("/tmp/w/a_b/k.cu(6): error: x"),
            "k.cu(6): error: x"
        );
        assert_eq!(
            strip_dirs("nvcc: /tmp/w/k.cu(6): error: x"),
            "nvcc: k.cu(6): error: x"
        );
        assert_eq!(
            strip_dirs("ptxas /tmp/w/n.ptx, line 28; error : y"),
            "ptxas line 28; error : y"
        );
        assert_eq!(strip_dirs("plain"), "plain");
    }

    #[test]
    fn outcomes() {
        let holds = Eval::Holds("nvcc: counter[0] = 0".into());
        let fails = Eval::Fails("nvcc: counter[0] = 128".into());
        let unknown = Eval::Unknown("no nvcc".into());
        let fix = vec!["missing-volatile: add `volatile`".to_string()];
        assert_eq!(
            classify(Kind::Bad, &holds, None, &[]).outcome,
            Outcome::Confirmed
        );
        assert_eq!(classify(Kind::Bad, &holds, None, &[]).fix, "none offered");
        let ok = classify(
            Kind::Bad,
            &holds,
            Some(&Eval::Holds("nvcc: counter[0] = 128".into())),
            &fix,
        );
        assert_eq!(ok.outcome, Outcome::FixedOk);
        assert!(ok.fix.starts_with("ok (missing-volatile"));
        let broken = classify(Kind::Bad, &holds, Some(&fails), &fix);
        assert_eq!(broken.outcome, Outcome::Confirmed);
        assert!(broken.fix.starts_with("DID NOT REPAIR"));
        assert_eq!(
            classify(Kind::Bad, &fails, None, &[]).outcome,
            Outcome::NotReproduced
        );
        assert_eq!(
            classify(Kind::Bad, &unknown, None, &[]).outcome,
            Outcome::HarnessError
        );
        assert_eq!(
            classify(Kind::Good, &holds, None, &[]).outcome,
            Outcome::Confirmed
        );
        assert_eq!(
            classify(Kind::Good, &fails, None, &[]).outcome,
            Outcome::NotReproduced
        );
    }

    #[test]
    fn fixes_are_applied_through_the_library() {
        // Whatever the rules offer today, the text only changes through their edits.
        let text = "__device__ void f(unsigned* p) { unsigned o; asm(\"atom.add.u32 %0, [%1], 1;\" : \"=r\"(o) : \"l\"(p)); }\n";
        let fixed = apply_fixes(Path::new("k.cu"), text, &[Target::parse("sm_90").unwrap()]);
        if fixed.applied.is_empty() {
            assert_eq!(fixed.text, text);
        } else {
            assert_ne!(fixed.text, text);
        }
    }

    #[test]
    fn discovers_the_corpus() {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cases");
        let cases = discover(&corpus);
        for c in &cases {
            if let Err(e) = &c.header {
                panic!("{}: bad GPU header: {e}", c.name);
            }
            let h = c.header.as_ref().unwrap();
            assert!(
                h.is_runnable(),
                "{}: a gpu- header with no gpu-bad/gpu-good line",
                c.name
            );
            if c.kind == Kind::Bad {
                assert!(
                    !h.bad.is_empty(),
                    "{}: a bad case needs `// gpu-bad:`",
                    c.name
                );
            } else {
                assert!(
                    !h.good.is_empty(),
                    "{}: a good case needs `// gpu-good:`",
                    c.name
                );
            }
        }
    }
}
