//! Evidence for one finding from the user's own build: the file built without and with that
//! finding's fix alone, for one target, and the two builds compared. A finding that claims a
//! build error is confirmed when the fix makes the error go away; a finding that claims a
//! miscompile is judged on the machine code ([`crate::sass`]).

use crate::build::{strip_output_flags, Build, TempDir};
use crate::compare::toolchain_detects;
use crate::locate::locate;
use crate::messages::{parse_messages, Message};
use crate::sass::{self, Aspect, Function};
use crate::toolkit::Toolkit;
use ptxguard_analyzer::statements::find_asm_statements;
use ptxguard_analyzer::SourceFile;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a rule's findings claim, and so how a build can show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The toolchain rejects the code: the error goes away with the fix.
    Toolchain,
    /// The code compiles to something else than meant: the machine code shows it.
    MachineCode(Aspect),
}

/// How a rule's findings are shown. A rule whose findings are build errors that may also
/// build fine (`unscoped-declaration`: only a second copy in one function clashes) is judged
/// on the machine code when both builds succeed.
pub fn claim_of(rule: &str) -> Claim {
    match rule {
        "missing-volatile" | "missing-memory-clobber" => Claim::MachineCode(Aspect::Memory),
        "early-clobber"
        | "conditional-output"
        | "output-read-before-write"
        | "unscoped-declaration" => Claim::MachineCode(Aspect::Registers),
        // Built against the input kept (`confirm` copies it into the read-write operand: the
        // rule's own fix gives the program the meaning the flawed build already has).
        "write-to-input" => Claim::MachineCode(Aspect::Registers),
        r if toolchain_detects(r) => Claim::Toolchain,
        _ => Claim::MachineCode(Aspect::Registers),
    }
}

/// One build of one variant of a file for one target.
#[derive(Clone, Debug)]
pub struct DeviceBuild {
    /// `sm_90`, or empty for nvcc's default target.
    pub target: String,
    /// The nvcc command as run, with the original file in place of the scratch copy and
    /// without the scratch outputs.
    pub command: Vec<String>,
    pub success: bool,
    pub messages: Vec<Message>,
    /// The `.ptx` nvcc kept, with its text.
    pub ptx: Vec<(PathBuf, String)>,
    /// The machine code (`cuobjdump -sass`); empty when the build failed or cuobjdump is
    /// missing.
    pub sass: Vec<Function>,
    /// Why there is no machine code although the build succeeded.
    pub sass_missing: Option<String>,
}

impl DeviceBuild {
    /// The errors, without the summaries (`Ptx assembly aborted due to errors`).
    pub fn errors(&self) -> Vec<&Message> {
        self.messages
            .iter()
            .filter(|m| m.is_error() && !m.is_summary())
            .collect()
    }
}

/// Removes the options that name targets (`-arch`, `-gencode`, `-code` and their long forms,
/// with `=` or a separate value): `confirm` builds one target at a time.
pub fn without_targets(flags: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_next = false;
    for f in flags {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        let name = f.split('=').next().unwrap_or(f);
        if crate::build::ARCH_OPTIONS.contains(&name) {
            skip_next = !f.contains('=');
            continue;
        }
        out.push(f.clone());
    }
    out
}

/// Builds `text` (the file's bytes, fixed or not) as `name` in a scratch folder with the
/// user's flags for one target: `nvcc -I ORIGINAL_DIR FLAGS -arch=compute_X -code=sm_X -lineinfo
/// -cubin --keep`, run in `cwd` (the compilation database's `directory`), then
/// `cuobjdump -sass`. The copy has the original's name and the original folder is searched
/// first, so quoted includes resolve as they do for the original.
pub fn build_device(
    toolkit: &Toolkit,
    original: &Path,
    text: &str,
    flags: &[String],
    cwd: Option<&Path>,
    target: &str,
    through: Option<&ThroughUnit>,
) -> Result<DeviceBuild, String> {
    let dir = TempDir::new("evidence").map_err(|e| format!("cannot make a scratch folder: {e}"))?;
    let name = original
        .file_name()
        .ok_or_else(|| format!("{}: not a file", original.display()))?;
    let src_dir = dir.0.join("src");
    let keep = dir.0.join("keep");
    for d in [&src_dir, &keep] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let cubin = dir.0.join("out.cubin");
    let mut cmd = Command::new(&toolkit.nvcc);
    // Paths in the scratch tree, and the original paths they stand for (messages and the
    // command shown name the originals).
    let mut moved: Option<(String, String)> = None;
    let src =
        match through {
            None => {
                let src = src_dir.join(name);
                std::fs::write(&src, text).map_err(|e| format!("{}: {e}", src.display()))?;
                let original_dir = original
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                let original_dir =
                    std::fs::canonicalize(original_dir).unwrap_or(original_dir.to_path_buf());
                cmd.arg("-I").arg(&original_dir);
                cmd.args(strip_output_flags(&without_targets(flags)));
                if let Some(cwd) = cwd {
                    cmd.current_dir(cwd);
                }
                src
            }
            Some(through) => {
                let tree = dir.0.join("tree");
                mirror_tree(&through.root, &tree, original, text)?;
                let (from, to) = (
                    through.root.display().to_string(),
                    tree.display().to_string(),
                );
                let unit =
                    tree.join(through.unit.strip_prefix(&through.root).map_err(|_| {
                        format!("{} is not under {}", through.unit.display(), from)
                    })?);
                let flags: Vec<String> = flags
                    .iter()
                    .map(|f| replace_path_prefix(f, &from, &to))
                    .collect();
                cmd.args(strip_output_flags(&without_targets(&flags)));
                if let Some(cwd) = cwd {
                    cmd.current_dir(replace_path_prefix(&cwd.display().to_string(), &from, &to));
                }
                moved = Some((to, from));
                unit
            }
        };
    if let Some(sm) = target.strip_prefix("sm_") {
        cmd.arg(format!("-arch=compute_{sm}"))
            .arg(format!("-code=sm_{sm}"));
    }
    cmd.arg("-lineinfo")
        .arg("-cubin")
        .arg("--keep")
        .arg("--keep-dir")
        .arg(&keep)
        .arg("-o")
        .arg(&cubin)
        .arg(&src);
    // The command as the user would type it: the original files, no scratch paths.
    let scratch = dir.0.display().to_string();
    let mut command = vec![toolkit.nvcc.display().to_string()];
    let mut args = cmd.get_args().map(|a| a.to_string_lossy().into_owned());
    while let Some(a) = args.next() {
        match (a.as_str(), &moved) {
            ("--keep", _) => {}
            ("--keep-dir" | "-o", _) => {
                args.next();
            }
            (_, Some((to, from))) => command.push(replace_path_prefix(&a, to, from)),
            _ if a.starts_with(&scratch) => command.push(original.display().to_string()),
            _ => command.push(a),
        }
    }
    let limit = crate::process::limit();
    let Some(out) = crate::process::output_within(&mut cmd, limit)
        .map_err(|e| format!("{}: cannot run: {e}", toolkit.nvcc.display()))?
    else {
        // A build that hangs tells nothing; the verdicts say why.
        return Ok(DeviceBuild {
            target: target.to_string(),
            command,
            success: false,
            messages: vec![Message {
                tool: crate::messages::Tool::Other,
                level: crate::messages::Level::Error,
                file: None,
                line: None,
                text: crate::process::timed_out(&toolkit.nvcc, limit),
            }],
            ptx: Vec::new(),
            sass: Vec::new(),
            sass_missing: None,
        });
    };
    let mut output = String::from_utf8_lossy(&out.stderr).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stdout));
    if let Some((to, from)) = &moved {
        output = output.replace(to.as_str(), from);
    }
    let success = out.status.success() && cubin.is_file();
    let mut messages = parse_messages(&output);
    if !success && !messages.iter().any(Message::is_error) {
        // A failure in words nothing above reads (a host compiler that is missing...): its
        // last line, so that the verdict can say why.
        let last = output.lines().rev().find(|l| !l.trim().is_empty());
        messages.push(Message {
            tool: crate::messages::Tool::Other,
            level: crate::messages::Level::Error,
            file: None,
            line: None,
            text: last.map_or_else(
                || format!("nvcc exited with {}", out.status),
                |l| l.trim().to_string(),
            ),
        });
    }
    let mut ptx = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&keep) {
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
            .collect();
        paths.sort();
        for p in paths {
            if let Ok(text) = std::fs::read_to_string(&p) {
                ptx.push((p, text));
            }
        }
    }
    let (sass, sass_missing) = if !success {
        (Vec::new(), None)
    } else {
        match &toolkit.cuobjdump {
            None => (
                Vec::new(),
                Some("cuobjdump not found beside nvcc".to_string()),
            ),
            Some(cuobjdump) => match crate::process::output_within(
                Command::new(cuobjdump).arg("-sass").arg(&cubin),
                limit,
            ) {
                Ok(None) => (
                    Vec::new(),
                    Some(crate::process::timed_out(cuobjdump, limit)),
                ),
                Ok(Some(o)) if o.status.success() => {
                    (sass::parse(&String::from_utf8_lossy(&o.stdout)), None)
                }
                Ok(Some(o)) => (
                    Vec::new(),
                    Some(format!(
                        "cuobjdump failed: {}",
                        String::from_utf8_lossy(&o.stderr).trim()
                    )),
                ),
                Err(e) => (Vec::new(), Some(format!("cannot run cuobjdump: {e}"))),
            },
        }
    };
    Ok(DeviceBuild {
        target: target.to_string(),
        command,
        success,
        messages,
        ptx,
        sass,
        sass_missing,
    })
}

/// A header built through a unit that includes it (the header has no command of its own).
pub struct ThroughUnit {
    /// The unit whose command builds the header.
    pub unit: PathBuf,
    /// A folder holding the unit, the header and the command's folder: mirrored for the build.
    pub root: PathBuf,
}

/// At most this many files are mirrored for one build through a unit.
const MIRROR_MAX_ENTRIES: usize = 200_000;

/// Mirrors `from` into `to` with one link per file (every folder a real folder, so that `..`
/// in a quoted include stays inside the mirror), except `replaced`, written with `text`: every
/// way the unit reaches the header (a neighbour's quoted include, an `-I` under `from`) reaches
/// the variant, and nothing of the user's tree is touched.
fn mirror_tree(from: &Path, to: &Path, replaced: &Path, text: &str) -> Result<(), String> {
    #[cfg(unix)]
    {
        let mut entries = 0usize;
        let mut pending = vec![(from.to_path_buf(), to.to_path_buf())];
        let mut written = false;
        while let Some((src, dst)) = pending.pop() {
            std::fs::create_dir_all(&dst).map_err(|e| format!("{}: {e}", dst.display()))?;
            let list = std::fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))?;
            for entry in list.flatten() {
                entries += 1;
                if entries > MIRROR_MAX_ENTRIES {
                    return Err(format!(
                        "{} holds more than {MIRROR_MAX_ENTRIES} files: too many to mirror for a build through an includer",
                        from.display()
                    ));
                }
                let (path, target) = (entry.path(), dst.join(entry.file_name()));
                let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                if is_dir {
                    if entry.file_name() != ".git" {
                        pending.push((path, target));
                    }
                } else if path == replaced {
                    std::fs::write(&target, text)
                        .map_err(|e| format!("{}: {e}", target.display()))?;
                    written = true;
                } else {
                    std::os::unix::fs::symlink(&path, &target)
                        .map_err(|e| format!("{}: {e}", target.display()))?;
                }
            }
        }
        if written {
            Ok(())
        } else {
            Err(format!(
                "{} is not under {}",
                replaced.display(),
                from.display()
            ))
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (from, to, replaced, text);
        Err("building a header through its includer needs symbolic links (Unix)".into())
    }
}

/// `text` with `from` replaced by `to` where it starts a path (followed by `/`, or the end).
fn replace_path_prefix(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let after = &rest[at + from.len()..];
        out.push_str(&rest[..at]);
        if after.is_empty() || after.starts_with('/') {
            out.push_str(to);
        } else {
            out.push_str(from);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The deepest folder holding every path given (all absolute).
pub fn common_folder<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Option<PathBuf> {
    let mut common: Option<PathBuf> = None;
    for p in paths {
        let folder = if p.is_dir() { p } else { p.parent()? };
        common = Some(match common {
            None => folder.to_path_buf(),
            Some(c) => c
                .ancestors()
                .find(|a| folder.starts_with(a))
                .map(Path::to_path_buf)?,
        });
    }
    common
}

impl DeviceBuild {
    /// As a [`Build`] (what [`crate::locate`] and [`crate::compare`] read).
    pub fn as_build(&self) -> Build {
        Build {
            command: self.command.clone(),
            success: self.success,
            output: String::new(),
            messages: self.messages.clone(),
            ptx: self.ptx.clone(),
        }
    }

    /// Each error with the asm statement of `text` (this build's bytes, read as `path`) it is
    /// traced to, in the words [`judge`] uses.
    pub fn errors_by_statement(&self, path: &Path, text: &str) -> Vec<(Option<usize>, String)> {
        let Ok(file) = SourceFile::from_bytes(path.to_path_buf(), text.as_bytes().to_vec()) else {
            return Vec::new();
        };
        let statements = find_asm_statements(&file);
        locate(&file, &statements, &self.as_build())
            .into_iter()
            .map(|l| (l.statement, words(&l.message)))
            .collect()
    }
}

/// Why a build says nothing about a statement that no inline asm block of its PTX comes from.
pub const NOT_COMPILED: &str = "no inline asm of this statement in the generated PTX: it is not compiled in this build (not instantiated, or not for this target)";

/// A finding's verdict in one build.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Judgement {
    /// `confirmed` and `not-reproduced` (a build error claimed), `bites`, `no-effect`,
    /// `not-decidable` (a miscompile claimed: the machine code).
    pub verdict: &'static str,
    /// One line: what changed, or why nothing did, or why it cannot be told.
    pub detail: String,
}

fn judgement(verdict: &'static str, detail: impl Into<String>) -> Judgement {
    Judgement {
        verdict,
        detail: detail.into(),
    }
}

fn words(m: &Message) -> String {
    format!("{}: {}", m.tool.as_str(), m.text)
}

/// How a claimed error that stays with the fix is described (and recognised).
pub const FAILS_EITHER_WAY: &str = "the build fails with and without the fix";

/// The errors the toolchain traced to the finding's statement (through the PTX's inline asm
/// blocks or the source line), in the build without the fix and in the one with it.
#[derive(Clone, Debug, Default)]
pub struct AtStatement {
    pub flawed: Vec<String>,
    pub fixed: Vec<String>,
}

/// Judges one finding from the build without its fix (`flawed`) and with it (`fixed`).
/// `compiled` says whether an inline asm block of the flawed build's PTX was traced to the
/// finding's statement (`None`: not known).
pub fn judge(
    rule: &str,
    flawed: &DeviceBuild,
    fixed: &DeviceBuild,
    compiled: Option<bool>,
    at: &AtStatement,
) -> Judgement {
    let claim = claim_of(rule);
    let flawed_errors = flawed.errors();
    // An error that goes away with this fix alone is this finding's, with or without a line
    // (ptxas' `32-Bit ABI ... is not supported` names none): one the fixed build says fewer
    // times, or the errors at the statement when none is left there (the same words may
    // stay, said of another statement).
    let mut left: Vec<&str> = fixed.errors().iter().map(|m| m.text.as_str()).collect();
    let mut gone: Vec<String> = Vec::new();
    for m in &flawed_errors {
        match left.iter().position(|t| *t == m.text) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => gone.push(words(m)),
        }
    }
    if gone.is_empty() && !at.flawed.is_empty() && at.fixed.is_empty() {
        gone = at.flawed.clone();
    }
    gone.dedup();
    if !gone.is_empty() {
        return judgement(
            "confirmed",
            format!("the fix removes the error: {}", gone.join("; ")),
        );
    }
    if let Some(first) = flawed_errors.first() {
        return match claim {
            Claim::Toolchain => judgement(
                "not-reproduced",
                format!("{FAILS_EITHER_WAY}: {}", words(first)),
            ),
            _ => judgement(
                "not-decidable",
                format!("the build fails without the fix: {}", words(first)),
            ),
        };
    }
    if !flawed.success {
        return judgement(
            "not-decidable",
            "the build failed without the fix, with no message read",
        );
    }
    let aspect = match claim {
        Claim::Toolchain => {
            return judgement(
                "not-reproduced",
                "this build accepts the code as written: no error, no warning at it",
            )
        }
        Claim::MachineCode(aspect) => aspect,
    };
    if let Some(first) = fixed.errors().first() {
        return judgement(
            "not-decidable",
            format!("the build fails with the fix: {}", words(first)),
        );
    }
    if let Some(why) = flawed.sass_missing.as_ref().or(fixed.sass_missing.as_ref()) {
        return judgement("not-decidable", format!("no machine code: {why}"));
    }
    match sass::compare(&flawed.sass, &fixed.sass, aspect) {
        sass::Verdict::Bites(d) => judgement("bites", d),
        sass::Verdict::NoEffect(_) if compiled == Some(false) => {
            judgement("not-decidable", NOT_COMPILED)
        }
        sass::Verdict::NoEffect(d) => judgement("no-effect", d),
        sass::Verdict::NotDecidable(d) => judgement("not-decidable", d),
    }
}

/// A claimed error that stays with the finding's fix alone because other findings of the
/// file say the same of other places (two unescaped `%` in one template, one unknown operand
/// name used three times): judged from the file with every such finding's fix (`all`) and with
/// every one but this one's (`all_but_this`). The error is this finding's when the first build
/// is clean and the second is not. When both are clean, the finding is not reproduced, or not
/// decidable when its statement is not compiled in the second build (`compiled`: whether an
/// inline asm block of its PTX was traced to the statement; `None`: not known). `None` when
/// the builds show nothing (every fix together still fails): the verdict stays.
pub fn judge_with_the_others_fixed(
    all: &DeviceBuild,
    all_but_this: &DeviceBuild,
    others: usize,
    unfixed: usize,
    compiled: Option<bool>,
) -> Option<Judgement> {
    if !all.errors().is_empty() || !all.success {
        // An error no fix can take away stops every build of the file: it hides this one.
        return (unfixed > 0).then(|| {
            let first = all.errors().first().map(|m| words(m)).unwrap_or_default();
            judgement(
                "not-decidable",
                format!(
                    "{FAILS_EITHER_WAY}, and with every fix applied: {unfixed} other finding(s) of the file claim an error and have no fix ({first})"
                ),
            )
        });
    }
    match all_but_this.errors().first() {
        Some(first) => Some(judgement(
            "confirmed",
            format!(
                "the error goes away with this fix and the {others} other finding(s) of the same error fixed, and stays without this one: {}",
                words(first)
            ),
        )),
        None if !all_but_this.success => None,
        None if compiled == Some(false) => Some(judgement("not-decidable", NOT_COMPILED)),
        None => Some(judgement(
            "not-reproduced",
            format!(
                "with the {others} other finding(s) of the file fixed, this build accepts this statement as written"
            ),
        )),
    }
}

/// One verdict from the verdicts of several targets: a target where the finding shows wins;
/// then one that cannot be told; the finding has no effect only where every target says so.
pub fn merge(per_target: Vec<(String, Judgement)>) -> Option<(String, Judgement)> {
    let rank = |v: &str| match v {
        "confirmed" | "bites" => 0,
        "not-decidable" => 1,
        _ => 2,
    };
    per_target.into_iter().min_by_key(|(_, j)| rank(j.verdict))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::{Level, Tool};

    fn build(errors: &[&str], sass_text: &str) -> DeviceBuild {
        DeviceBuild {
            target: "sm_90".into(),
            command: vec![],
            success: errors.is_empty(),
            messages: errors
                .iter()
                .map(|t| Message {
                    tool: Tool::Ptxas,
                    level: Level::Error,
                    file: None,
                    line: None,
                    text: t.to_string(),
                })
                .chain(std::iter::once(Message {
                    tool: Tool::Ptxas,
                    level: Level::Fatal,
                    file: None,
                    line: None,
                    text: "Ptx assembly aborted due to errors".into(),
                }))
                .filter(|_| !errors.is_empty())
                .collect(),
            ptx: vec![],
            sass: sass::parse(sass_text),
            sass_missing: None,
        }
    }

    const CODE: &str = "code for sm_90\nFunction : _Z1kPj\n/*0000*/ LDG.E R0, desc[UR4][R2.64] ;\n/*0010*/ EXIT ;\n";

    #[test]
    fn an_error_the_fix_removes_confirms_even_without_a_line() {
        let abi = "32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90 or higher architectures.";
        let j = judge(
            "address-register-width",
            &build(&[abi], ""),
            &build(&[], CODE),
            None,
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "confirmed");
        assert!(j.detail.contains("ptxas: 32-Bit ABI"), "{j:?}");
        // Another error that stays is not this finding's.
        let j = judge(
            "ptx-syntax",
            &build(&["Duplicate definition of variable 't1'"], ""),
            &build(&["Duplicate definition of variable 't1'"], ""),
            None,
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "not-reproduced");
        assert!(j.detail.contains("Duplicate definition"), "{j:?}");
    }

    #[test]
    fn the_same_words_said_of_another_statement_are_not_this_finding() {
        // Two unescaped `%` in two statements: ptxas stops at the first with the same words
        // whichever is fixed. The fix removes the error at its own statement: confirmed.
        let parse = "Parsing error near '%': syntax error";
        let at = AtStatement {
            flawed: vec![format!("ptxas: {parse}")],
            fixed: vec![],
        };
        let j = judge(
            "percent-escape",
            &build(&[parse], ""),
            &build(&[parse], ""),
            None,
            &at,
        );
        assert_eq!(j.verdict, "confirmed", "{j:?}");
        // Still there at its statement: not reproduced.
        let at = AtStatement {
            fixed: at.flawed.clone(),
            ..at
        };
        let j = judge(
            "percent-escape",
            &build(&[parse], ""),
            &build(&[parse], ""),
            None,
            &at,
        );
        assert_eq!(j.verdict, "not-reproduced", "{j:?}");
        // Said twice without the fix, once with it: one went away.
        let j = judge(
            "percent-escape",
            &build(&[parse, parse], ""),
            &build(&[parse], ""),
            None,
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "confirmed", "{j:?}");
    }

    #[test]
    fn an_error_said_of_several_findings_is_judged_with_the_others_fixed() {
        let parse = "Parsing error near '%': syntax error";
        let clean = build(&[], CODE);
        let j =
            judge_with_the_others_fixed(&clean, &build(&[parse], ""), 1, 0, None).expect("judged");
        assert_eq!(j.verdict, "confirmed");
        assert!(j.detail.contains("Parsing error near '%'"), "{j:?}");
        assert!(j.detail.contains("1 other"), "{j:?}");
        // Every fix together still fails: nothing shown.
        assert!(judge_with_the_others_fixed(
            &build(&[parse], ""),
            &build(&[parse], ""),
            1,
            0,
            None
        )
        .is_none());
        // It fails because a finding with no fix claims an error of its own: that error
        // hides this one, which is said (it read "not reproduced" before).
        let name = "invalid symbolic operand name \"carry\"";
        let j = judge_with_the_others_fixed(&build(&[name], ""), &build(&[name], ""), 2, 1, None)
            .expect("judged");
        assert_eq!(j.verdict, "not-decidable", "{j:?}");
        assert!(
            j.detail.contains("1 other finding(s)") && j.detail.contains("carry"),
            "{j:?}"
        );
        // Clean without this finding's fix as well: the error was another finding's; this
        // statement is accepted, or not compiled at all.
        let j = judge_with_the_others_fixed(&clean, &clean, 1, 0, Some(true)).expect("judged");
        assert_eq!(j.verdict, "not-reproduced", "{j:?}");
        let j = judge_with_the_others_fixed(&clean, &clean, 1, 0, Some(false)).expect("judged");
        assert_eq!(j.verdict, "not-decidable", "{j:?}");
        assert_eq!(j.detail, NOT_COMPILED);
    }

    #[test]
    fn toolchain_claims_a_clean_build_does_not_reproduce() {
        let j = judge(
            "arch-requirement",
            &build(&[], CODE),
            &build(&[], CODE),
            None,
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "not-reproduced");
    }

    #[test]
    fn miscompile_claims_read_the_machine_code() {
        let with_atom =
            format!("{CODE}/*0020*/ ATOM.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R7 ;\n");
        let j = judge(
            "missing-volatile",
            &build(&[], CODE),
            &build(&[], &with_atom),
            Some(true),
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "bites");
        assert!(j.detail.contains("ATOM: 0 -> 1"), "{j:?}");
        let j = judge(
            "missing-volatile",
            &build(&[], CODE),
            &build(&[], CODE),
            Some(true),
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "no-effect");
        // Nothing of the statement compiled: identical code proves nothing.
        let j = judge(
            "early-clobber",
            &build(&[], CODE),
            &build(&[], CODE),
            Some(false),
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "not-decidable");
        // A build that fails for another reason cannot show a miscompile.
        let j = judge(
            "early-clobber",
            &build(&["some error"], ""),
            &build(&["some error"], ""),
            None,
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "not-decidable");
        assert!(j.detail.contains("some error"), "{j:?}");
        // `write-to-input` is read from the registers (against the input kept).
        let j = judge(
            "write-to-input",
            &build(&[], CODE),
            &build(&[], CODE),
            Some(true),
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "no-effect");
    }

    #[test]
    fn unscoped_declarations_are_confirmed_by_ptxas_or_read_from_the_code() {
        let dup = "Duplicate definition of variable 't1'";
        let j = judge(
            "unscoped-declaration",
            &build(&[dup], ""),
            &build(&[], CODE),
            None,
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "confirmed");
        let j = judge(
            "unscoped-declaration",
            &build(&[], CODE),
            &build(&[], CODE),
            Some(true),
            &AtStatement::default(),
        );
        assert_eq!(j.verdict, "no-effect");
    }

    #[test]
    fn targets_merge_to_the_strongest_evidence() {
        let j = |v| judgement(v, "");
        let m = merge(vec![
            ("sm_80".into(), j("no-effect")),
            ("sm_90".into(), j("bites")),
            ("sm_100".into(), j("not-decidable")),
        ]);
        assert_eq!(
            m.map(|(t, j)| (t, j.verdict)),
            Some(("sm_90".into(), "bites"))
        );
        let m = merge(vec![
            ("sm_80".into(), j("no-effect")),
            ("sm_90".into(), j("not-decidable")),
        ]);
        assert_eq!(m.map(|(_, j)| j.verdict), Some("not-decidable"));
        assert_eq!(merge(vec![]), None);
    }

    #[test]
    fn target_options_are_removed() {
        let f = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            without_targets(&f("-O3 -arch=sm_90a -gencode arch=compute_80,code=sm_80 --gpu-architecture sm_75 -DX -code=sm_90 -Iinc")),
            f("-O3 -DX -Iinc")
        );
    }
}

#[cfg(test)]
mod through_unit_tests {
    use super::*;

    #[test]
    fn a_path_prefix_is_replaced_only_where_a_path_starts() {
        assert_eq!(
            replace_path_prefix("-I/p/src/include", "/p/src", "/t"),
            "-I/t/include"
        );
        assert_eq!(replace_path_prefix("/p/src", "/p/src", "/t"), "/t");
        // `/p/src2` is another folder.
        assert_eq!(
            replace_path_prefix("-I/p/src2", "/p/src", "/t"),
            "-I/p/src2"
        );
    }

    #[test]
    fn the_mirror_links_every_file_and_writes_the_variant() {
        let root = std::env::temp_dir().join(format!("ptxguard-mirror-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let src = root.join("src");
        std::fs::create_dir_all(src.join("inc")).unwrap();
        std::fs::create_dir_all(src.join(".git")).unwrap();
        std::fs::write(src.join("k.cu"), "unit").unwrap();
        std::fs::write(src.join("inc/h.cuh"), "original").unwrap();
        let tree = root.join("tree");
        mirror_tree(&src, &tree, &src.join("inc/h.cuh"), "variant").unwrap();
        assert_eq!(std::fs::read_to_string(tree.join("k.cu")).unwrap(), "unit");
        assert!(std::fs::symlink_metadata(tree.join("k.cu"))
            .unwrap()
            .is_symlink());
        assert_eq!(
            std::fs::read_to_string(tree.join("inc/h.cuh")).unwrap(),
            "variant"
        );
        assert!(!std::fs::symlink_metadata(tree.join("inc"))
            .unwrap()
            .is_symlink());
        assert!(!tree.join(".git").exists());
        assert_eq!(
            std::fs::read_to_string(src.join("inc/h.cuh")).unwrap(),
            "original"
        );
        assert_eq!(
            common_folder([src.join("k.cu").as_path(), src.join("inc/h.cuh").as_path()]),
            Some(src.clone())
        );
        // A header outside the mirrored folder is an error, not a silent build of the original.
        assert!(mirror_tree(&src.join("inc"), &root.join("t2"), &src.join("k.cu"), "x").is_err());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
