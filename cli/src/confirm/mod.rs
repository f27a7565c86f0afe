//! `ptxguard confirm FILE... [-- COMPILER FLAGS]` (and `check --confirm`): builds the files
//! with the CUDA toolkit and says, for each finding at warning or above, what the user's own
//! build shows: the toolchain rejects the code and the finding's fix alone removes the error
//! (confirmed), the machine code changes with the fix (bites), it does not (no effect), or
//! why that cannot be told; and which toolchain errors ptxguard did not predict.
//!
//! Each file's command is the flags after `--`, else its compilation database entry (run in
//! the entry's directory). Each variant of the file (as written, each finding's fix alone) is
//! built per target with `nvcc -cubin` and disassembled with `cuobjdump -sass`
//! (`ptxguard_toolchain::evidence`); the generated PTX, kept, traces every message to an asm
//! statement (`// begin inline asm` blocks after a `.loc` line).
//!
//! Without nvcc, the files are built with NVRTC, which compiles device code only and gives no
//! machine code here.
//!
//! The toolchain pieces (finding nvcc and NVRTC, building, reading their messages, tracing
//! them to asm statements, the comparison, the machine code) live in `ptxguard-toolchain`,
//! which the GPU harness uses too; this module is the command: the file's command, the
//! parallel builds, and the output.

use ptxguard_analyzer::build::Entry;
use ptxguard_analyzer::context::{AnalysisContext, HeaderCache};
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::diag::apply_edits;
use ptxguard_analyzer::statements::find_asm_statements;
use ptxguard_analyzer::{Diagnostic, SourceFile};
use ptxguard_toolchain::evidence::{
    build_device, claim_of, common_folder, judge, judge_with_the_others_fixed, merge, AtStatement,
    Claim, DeviceBuild, Judgement, ThroughUnit, FAILS_EITHER_WAY, NOT_COMPILED,
};
use ptxguard_toolchain::{
    compare, find_toolkit, findings_at_least, inline_asm_blocks, nvrtc, statement_of_block,
    targets_from_flags, toolchain_detects, Build, BuildUsed, FileReport, FindingResult, Level,
    Message, TempDir, Toolkit,
};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Exit codes.
pub const EXIT_OK: i32 = 0;
/// The build failed (the toolchain reported at least one error).
pub const EXIT_BUILD_FAILED: i32 = 1;
/// No toolkit, a file that cannot be read, or a usage error.
pub const EXIT_NO_TOOLKIT: i32 = 2;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfirmArgs {
    /// CUDA source files to build.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The nvcc to use. Default: `nvcc` on PATH, then `$CUDA_HOME/bin`, `$CUDA_PATH/bin`,
    /// `/usr/local/cuda/bin`.
    #[arg(long, value_name = "PATH", conflicts_with = "nvrtc")]
    pub nvcc: Option<PathBuf>,
    /// Build with NVRTC (device code only) even when nvcc is installed.
    #[arg(long)]
    pub nvrtc: bool,
    /// The compilation database to take each file's command from when no flags follow `--`.
    /// Default: `compile_commands.json` in the file's folder or a parent, or in their
    /// `build*/` folders, as `check` finds it.
    #[arg(long, value_name = "PATH")]
    pub compile_commands: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also build the info findings (by default only warnings and errors, what a gate
    /// counts): to see whether a finding the defaults keep quiet bites in this build.
    #[arg(long)]
    pub with_info: bool,
    /// Compiler flags, after `--`: `ptxguard confirm k.cu -- -arch=sm_90a -O3 -Iinclude`.
    /// Without them each file's command comes from the compilation database.
    #[arg(last = true, value_name = "COMPILER FLAGS")]
    pub flags: Vec<String>,
}

/// Text output for one file.
pub fn render_text(r: &FileReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: the build {}",
        r.file,
        if r.build_succeeded {
            "succeeded"
        } else {
            "failed"
        }
    );
    if let Some(note) = &r.note {
        let _ = writeln!(s, "  note: {note}");
    }
    if let Some(from) = &r.flags_from {
        let _ = writeln!(s, "  flags: {from}");
    }
    for f in &r.findings {
        let _ = writeln!(
            s,
            "  {}:{}:{}: {} [{}] {}\n      {}",
            r.file,
            f.line,
            f.column,
            f.rule,
            f.severity.as_str(),
            f.message,
            verdict_line(f)
        );
    }
    for l in &r.not_predicted {
        let _ = writeln!(
            s,
            "  {}:{}: not predicted by ptxguard: {} {}: {}",
            r.file,
            l.statement_line.unwrap_or(0),
            l.message.tool.as_str(),
            level_name(l.message.level),
            l.message.text
        );
    }
    for l in &r.elsewhere {
        let _ = writeln!(
            s,
            "  {}: {} {} not at an asm statement ({}): {}",
            r.file,
            l.message.tool.as_str(),
            level_name(l.message.level),
            l.how,
            l.message.text
        );
    }
    let count = |v: &str| r.findings.iter().filter(|f| f.verdict == v).count();
    let _ = writeln!(
        s,
        "  {} confirmed by the toolchain, {} bite in this build, {} no effect, {} not decidable, {} not reproduced; {} toolchain error(s) not predicted, {} elsewhere",
        count("confirmed"),
        count("bites"),
        count("no-effect"),
        count("not-decidable"),
        count("not-reproduced"),
        r.not_predicted.len(),
        r.elsewhere.len()
    );
    s
}

/// One line under a finding: the verdict, the target it comes from, and why.
pub fn verdict_line(f: &FindingResult) -> String {
    crate::emit::Confirmation {
        verdict: f.verdict,
        detail: f.detail.clone().unwrap_or_default(),
        target: f
            .build
            .as_ref()
            .map(|b| b.target.clone())
            .unwrap_or_default(),
    }
    .line()
}

fn level_name(l: Level) -> &'static str {
    match l {
        Level::Info => "info",
        Level::Warning => "warning",
        Level::Error => "error",
        Level::Fatal => "fatal",
    }
}

/// The toolchain `confirm` builds with.
enum Builder {
    Nvcc(Toolkit),
    /// NVRTC and its version.
    Nvrtc(String),
}

impl Builder {
    fn describe(&self) -> String {
        match self {
            Builder::Nvcc(t) => format!("nvcc {} ({})", t.version, t.nvcc.display()),
            Builder::Nvrtc(v) => format!("NVRTC {v} (device code only)"),
        }
    }
}

/// nvcc unless `--nvrtc`; NVRTC when nvcc is not found (and not named with `--nvcc`).
fn choose_builder(args: &ConfirmArgs) -> Result<Builder, String> {
    let nvrtc = || nvrtc::nvrtc_version().map(Builder::Nvrtc);
    if args.nvrtc {
        return nvrtc().ok_or_else(|| "NVRTC (libnvrtc) not found".to_string());
    }
    match find_toolkit(args.nvcc.as_deref()) {
        Ok(t) => Ok(Builder::Nvcc(t)),
        Err(e) if args.nvcc.is_some() => Err(e),
        Err(e) => nvrtc().ok_or_else(|| format!("{e}; NVRTC (libnvrtc) not found either")),
    }
}

/// The command line a file is built with: the flags after `--`, else the file's entry in the
/// compilation database (its words without the compiler, launchers, the file and the
/// output), run in the entry's directory.
#[derive(Clone, Debug, Default)]
pub struct FileCommand {
    pub flags: Vec<String>,
    pub directory: Option<PathBuf>,
    /// Where the flags came from, for the output.
    pub from: String,
    /// The build context the rules get (targets, macros, include folders).
    pub build: Option<ptxguard_analyzer::build::FileBuild>,
    /// For a header: the unit that includes it, whose command builds it.
    pub unit: Option<PathBuf>,
}

/// The database entry's words made into nvcc flags for this file.
pub fn flags_from_entry(entry: &Entry) -> Vec<String> {
    let mut words = entry.arguments.iter().peekable();
    // Launchers, then the compiler.
    while let Some(w) = words.peek() {
        let stem = Path::new(w.as_str())
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("");
        words.next();
        if !["ccache", "sccache", "distcc", "icecc", "buildcache"].contains(&stem) {
            break;
        }
    }
    words
        .filter(|w| {
            let p = Path::new(w.as_str());
            let abs = ptxguard_analyzer::build::normalize(&entry.directory.join(p));
            abs != entry.file
        })
        .cloned()
        .collect()
}

/// The command a file is built with: `flags` when given, else its compilation database entry
/// (`database`, or the one found beside it as `check` finds it).
pub fn command_for(
    path: &Path,
    flags: &[String],
    database: Option<&Path>,
    settings: Option<&crate::settings::Settings>,
) -> FileCommand {
    if !flags.is_empty() {
        return FileCommand {
            flags: flags.to_vec(),
            from: "the command line".into(),
            ..FileCommand::default()
        };
    }
    let abs = std::path::absolute(path)
        .map(|p| ptxguard_analyzer::build::normalize(&p))
        .unwrap_or_else(|_| path.to_path_buf());
    let none = |why: String| {
        command_from_build_context(&abs, settings).unwrap_or(FileCommand {
            from: why,
            ..FileCommand::default()
        })
    };
    let Some(db) = crate::build_context::database_for(&abs, database) else {
        return none(
            "no flags after `--` and no compile_commands.json found: nvcc's defaults".into(),
        );
    };
    let Some(db) = &*db else {
        return none("the compilation database cannot be read: nvcc's defaults".into());
    };
    if let Some(&first) = db.entries_for(&abs).first() {
        let entry = &db.entries[first];
        return FileCommand {
            flags: flags_from_entry(entry),
            directory: Some(entry.directory.clone()),
            from: format!("{} (entry {})", db.path.display(), first + 1),
            build: db.build_for(&abs).map(|(b, _)| b),
            unit: None,
        };
    }
    // A header is built through the first unit that includes it.
    let Some(&first) = db.includers_of(&abs).first() else {
        return none(format!(
            "{} has no entry for this file and no unit that includes it: nvcc's defaults",
            db.path.display()
        ));
    };
    let entry = &db.entries[first];
    FileCommand {
        flags: flags_from_entry(entry),
        directory: Some(entry.directory.clone()),
        from: format!(
            "{} (entry {}: {}, which includes this header)",
            db.path.display(),
            first + 1,
            entry.file.display()
        ),
        build: db.build_for(&abs).map(|(b, _)| b),
        unit: Some(entry.file.clone()),
    }
}

/// Without a database entry: the command the check's other sources give the file (build
/// files, `CUDAARCHS`/`TORCH_CUDA_ARCH_LIST`, the configuration): its targets, `-D`/`-U` and
/// include folders. `None` when they name no targets (then nvcc's defaults): targets the check
/// only inferred are a guess, not a build. `settings`: the check's for this file (`None`:
/// discovered from the current folder, as `check` would).
fn command_from_build_context(
    abs: &Path,
    settings: Option<&crate::settings::Settings>,
) -> Option<FileCommand> {
    let discovered;
    let settings = match settings {
        Some(s) => s,
        None => {
            let resolver = crate::settings::Resolver::new(
                crate::settings::ConfigSource::Discover,
                crate::config::ConfigLayer::default(),
                &std::env::current_dir().ok()?,
            );
            discovered = resolver.settings_for(abs, false).ok()?;
            &discovered
        }
    };
    let resolved = crate::build_context::resolve(abs, settings);
    if resolved.targets.is_empty() || resolved.targets_from.starts_with("inferred") {
        return None;
    }
    let mut flags = Vec::new();
    for t in &resolved.targets {
        let name = ptxguard_analyzer::build::toolkit::target_name(t);
        let n = name.strip_prefix("sm_")?;
        flags.push(format!("-gencode=arch=compute_{n},code=sm_{n}"));
    }
    flags.extend(crate::build_context::macro_words(&resolved.build));
    for dir in &resolved.build.include_dirs {
        flags.push(format!("-I{}", dir.display()));
    }
    Some(FileCommand {
        flags,
        directory: None,
        from: format!("{} (no database entry)", resolved.targets_from),
        build: Some(resolved.build),
        unit: None,
    })
}

/// What the `write-to-input` comparison builds, as the build's "fix".
const INPUT_KEPT: &str =
    "the written input copied into a scratch read-write operand, the C++ value kept";

/// For a `write-to-input` finding: the file as its author meant it, from the rule's fix
/// (`"r"(x)` made `"+r"(x)`) with the read-write operand a copy,
/// `{ auto __ptxguard_kept = (x); asm(... "+r"(__ptxguard_kept) ...); }`, so `x` keeps its
/// value. Built against the file as written, different machine code means the compiler used
/// the register the asm wrote as `x` afterwards. `None` where the statement cannot be
/// rewritten so (a macro, no `;` after it).
fn input_kept_variant(file: &SourceFile, d: &Diagnostic, fixed: &str) -> Option<String> {
    let before = find_asm_statements(file);
    let index = statement_of(d, &before)?;
    let original = &before[index];
    let fixed_file = SourceFile::new(file.path.clone(), fixed.to_string());
    let after = find_asm_statements(&fixed_file);
    if after.len() != before.len() || original.macro_name.is_some() {
        return None;
    }
    let stmt = &after[index];
    // The operand the fix made read-write: an output `+` whose expression was an input only.
    let op = stmt.outputs.iter().find(|o| {
        o.constraint.text.starts_with('+')
            && original
                .inputs
                .iter()
                .any(|i| i.expr.trim() == o.expr.trim())
            && !original
                .outputs
                .iter()
                .any(|x| x.expr.trim() == o.expr.trim())
    })?;
    let close = stmt.close_paren.end as usize;
    let semicolon = close + fixed[close..].find(|c: char| !c.is_whitespace())?;
    if !fixed[semicolon..].starts_with(';') {
        return None;
    }
    let start = stmt.span.start as usize;
    let expr = op.expr_span.range();
    Some(format!(
        "{}{{ auto __ptxguard_kept = ({}); {}__ptxguard_kept{}; }}{}",
        &fixed[..start],
        &fixed[expr.clone()],
        &fixed[start..expr.start],
        &fixed[expr.end..semicolon],
        &fixed[semicolon + 1..]
    ))
}

/// The finding's statement: the asm statement its span starts in.
fn statement_of(d: &Diagnostic, statements: &[AsmStatement]) -> Option<usize> {
    statements
        .iter()
        .position(|s| d.span.start >= s.span.start && d.span.start <= s.span.end)
}

/// The file's builds without fixes, one per target, made into one [`Build`] for tracing
/// every message to a statement.
fn merged(builds: &[&DeviceBuild]) -> Build {
    let mut messages: Vec<Message> = Vec::new();
    for b in builds {
        for m in &b.messages {
            if !messages.contains(m) {
                messages.push(m.clone());
            }
        }
    }
    Build {
        command: builds
            .first()
            .map(|b| b.command.clone())
            .unwrap_or_default(),
        success: builds.iter().all(|b| b.success),
        output: String::new(),
        messages,
        ptx: builds.iter().flat_map(|b| b.ptx.iter().cloned()).collect(),
    }
}

/// A finding's verdict, the target it comes from, and the build.
type FindingEvidence = (String, Judgement, BuildUsed);

/// The file's build as written, each finding's evidence (`None`: no fix to build with), and
/// whether the finding's statement is compiled in that build (`None`: not known).
type FileEvidence = (Build, Vec<Option<FindingEvidence>>, Vec<Option<bool>>);

/// Builds every variant (the file as written, and with each finding's fix alone) for every
/// target, in parallel; the same bytes are built once.
fn evidence_for_file(
    toolkit: &Toolkit,
    path: &Path,
    file: &SourceFile,
    findings: &[Diagnostic],
    command: &FileCommand,
    targets: &[String],
) -> Result<FileEvidence, String> {
    let mut variants: Vec<String> = vec![file.text.clone()];
    let variant_of: Vec<Option<usize>> = findings
        .iter()
        .map(|d| {
            let fix = d.fix.as_ref()?;
            let (text, applied) = apply_edits(&file.text, &fix.edits);
            if applied == 0 || text == file.text {
                return None;
            }
            // The fix of `write-to-input` gives the program the meaning the flawed machine
            // code already has; what the author meant (the input kept) is the comparison.
            let text = if d.rule == "write-to-input" {
                input_kept_variant(file, d, &text)?
            } else {
                text
            };
            Some(match variants.iter().position(|v| *v == text) {
                Some(i) => i,
                None => {
                    variants.push(text);
                    variants.len() - 1
                }
            })
        })
        .collect();
    let jobs: Vec<(usize, &String)> = (0..variants.len())
        .flat_map(|v| targets.iter().map(move |t| (v, t)))
        .collect();
    // A header: every variant is built through its unit, in a mirror of the folder that holds
    // the unit, the header and the command's folder; the header is named as the database's
    // paths are (absolute, normalized), so that the mirror finds it.
    let original = match &command.unit {
        Some(_) => std::path::absolute(path)
            .map(|p| ptxguard_analyzer::build::normalize(&p))
            .unwrap_or_else(|_| path.to_path_buf()),
        None => path.to_path_buf(),
    };
    let through = match &command.unit {
        None => None,
        Some(unit) => {
            let folders = [
                Some(unit.as_path()),
                Some(original.as_path()),
                command.directory.as_deref(),
            ];
            let root = common_folder(folders.into_iter().flatten())
                .filter(|r| r.parent().is_some())
                .ok_or_else(|| {
                    format!(
                        "{} and its unit {} share no folder to mirror",
                        path.display(),
                        unit.display()
                    )
                })?;
            Some(ThroughUnit {
                unit: unit.clone(),
                root,
            })
        }
    };
    let built: Vec<Result<DeviceBuild, String>> = jobs
        .par_iter()
        .map(|(v, t)| {
            build_device(
                toolkit,
                &original,
                &variants[*v],
                &command.flags,
                command.directory.as_deref(),
                t,
                through.as_ref(),
            )
        })
        .collect();
    let mut builds: HashMap<(usize, &str), DeviceBuild> = HashMap::new();
    for ((v, t), b) in jobs.iter().zip(built) {
        builds.insert((*v, t.as_str()), b?);
    }
    let flawed: Vec<&DeviceBuild> = targets
        .iter()
        .filter_map(|t| builds.get(&(0, t.as_str())))
        .collect();
    let statements = find_asm_statements(file);
    // The statements an inline asm block of the generated PTX came from.
    let compiled: Vec<usize> = flawed
        .iter()
        .flat_map(|b| b.ptx.iter())
        .flat_map(|(_, ptx)| inline_asm_blocks(ptx))
        .filter_map(|block| statement_of_block(file, &statements, &block))
        .collect();
    let any_ptx = flawed.iter().any(|b| !b.ptx.is_empty());
    let is_compiled: Vec<Option<bool>> = findings
        .iter()
        .map(|d| {
            let stmt = statement_of(d, &statements);
            any_ptx.then(|| stmt.is_some_and(|s| compiled.contains(&s)))
        })
        .collect();
    let mut judgements: Vec<Option<FindingEvidence>> = findings
        .iter()
        .zip(&variant_of)
        .map(|(d, v)| {
            let v = (*v)?;
            let fix = if d.rule == "write-to-input" {
                INPUT_KEPT.to_string()
            } else {
                d.fix.as_ref()?.message.clone()
            };
            let stmt = statement_of(d, &statements);
            let is_compiled = any_ptx.then(|| stmt.is_some_and(|s| compiled.contains(&s)));
            let per_target: Vec<(String, Judgement)> = targets
                .iter()
                .filter_map(|t| {
                    let (a, b) = (builds.get(&(0, t.as_str()))?, builds.get(&(v, t.as_str()))?);
                    let at_statement = |build: &DeviceBuild, text: &str| -> Vec<String> {
                        build
                            .errors_by_statement(&original, text)
                            .into_iter()
                            .filter(|(s, _)| s.is_some() && *s == stmt)
                            .map(|(_, w)| w)
                            .collect()
                    };
                    let at = AtStatement {
                        flawed: at_statement(a, &variants[0]),
                        fixed: at_statement(b, &variants[v]),
                    };
                    Some((t.clone(), judge(d.rule, a, b, is_compiled, &at)))
                })
                .collect();
            let (target, j) = merge(per_target)?;
            let used = BuildUsed {
                target: target.clone(),
                fix,
            };
            Some((target, j, used))
        })
        .collect();
    judge_errors_said_of_several(
        file,
        findings,
        &variant_of,
        &mut judgements,
        &|text: &str, target: &str| {
            build_device(
                toolkit,
                &original,
                text,
                &command.flags,
                command.directory.as_deref(),
                target,
                through.as_ref(),
            )
        },
    );
    Ok((merged(&flawed), judgements, is_compiled))
}

/// A claimed error that stays with the finding's fix alone, in a file where other findings
/// claim errors too (the same words said of each place): the file is built with every such
/// fix, and with every one but this finding's, on the target of its verdict
/// ([`judge_with_the_others_fixed`]).
fn judge_errors_said_of_several(
    file: &SourceFile,
    findings: &[Diagnostic],
    variant_of: &[Option<usize>],
    judgements: &mut [Option<FindingEvidence>],
    build: &(dyn Fn(&str, &str) -> Result<DeviceBuild, String> + Sync),
) {
    let claims_error: Vec<usize> = (0..findings.len())
        .filter(|&i| {
            variant_of[i].is_some() && matches!(claim_of(findings[i].rule), Claim::Toolchain)
        })
        .collect();
    let stuck: Vec<usize> = claims_error
        .iter()
        .copied()
        .filter(|&i| {
            matches!(&judgements[i], Some((_, j, _)) if j.verdict == "not-reproduced"
                && j.detail.starts_with(FAILS_EITHER_WAY))
        })
        .collect();
    // Findings that claim an error but have no fix: their error stays in every build.
    let unfixed = (0..findings.len())
        .filter(|&i| {
            variant_of[i].is_none() && matches!(claim_of(findings[i].rule), Claim::Toolchain)
        })
        .count();
    if stuck.is_empty() || (claims_error.len() < 2 && unfixed == 0) {
        return;
    }
    let fixed_but = |skip: Option<usize>| {
        let edits: Vec<_> = claims_error
            .iter()
            .filter(|&&i| Some(i) != skip)
            .filter_map(|&i| findings[i].fix.as_ref())
            .flat_map(|f| f.edits.iter().cloned())
            .collect();
        apply_edits(&file.text, &edits).0
    };
    let all = fixed_but(None);
    // (text, target) per build: every fix on each verdict's target, then each leave-one-out.
    let mut jobs: Vec<(String, String)> = Vec::new();
    for &i in &stuck {
        let target = judgements[i]
            .as_ref()
            .map(|(t, _, _)| t.clone())
            .unwrap_or_default();
        for text in [all.clone(), fixed_but(Some(i))] {
            if !jobs.contains(&(text.clone(), target.clone())) {
                jobs.push((text, target.clone()));
            }
        }
    }
    let built: Vec<Option<DeviceBuild>> = jobs
        .par_iter()
        .map(|(text, target)| build(text, target).ok())
        .collect();
    let find = |text: &str, target: &str| {
        jobs.iter()
            .position(|(x, t)| x == text && t == target)
            .and_then(|k| built[k].as_ref())
    };
    for &i in &stuck {
        let Some((target, _, _)) = &judgements[i] else {
            continue;
        };
        let without_text = fixed_but(Some(i));
        let (Some(with_all), Some(without_this)) =
            (find(&all, target), find(&without_text, target))
        else {
            continue;
        };
        // Whether this finding's statement is in that build's PTX (the fixes keep the
        // statements, so the index is the same).
        let variant = SourceFile::new(file.path.clone(), without_text.clone());
        let statements = find_asm_statements(&variant);
        let stmt = statement_of(&findings[i], &find_asm_statements(file));
        let compiled = (!without_this.ptx.is_empty()).then(|| {
            without_this
                .ptx
                .iter()
                .flat_map(|(_, ptx)| inline_asm_blocks(ptx))
                .any(|block| {
                    stmt.is_some() && statement_of_block(&variant, &statements, &block) == stmt
                })
        });
        if let Some(j) = judge_with_the_others_fixed(
            with_all,
            without_this,
            claims_error.len() - 1,
            unfixed,
            compiled,
        ) {
            if let Some((_, old, _)) = &mut judgements[i] {
                *old = j;
            }
        }
    }
}

/// `check --confirm`: the evidence for each diagnostic of a file at warning or above, by
/// index (info findings get none), from builds with the file's command.
pub fn confirmations(
    toolkit: &Toolkit,
    path: &Path,
    file: &SourceFile,
    diagnostics: &[Diagnostic],
    database: Option<&Path>,
    settings: Option<&crate::settings::Settings>,
) -> Result<Vec<Option<crate::emit::Confirmation>>, String> {
    let command = command_for(path, &[], database, settings);
    let mut targets = targets_from_flags(&command.flags);
    if targets.is_empty() {
        targets.push(String::new());
    }
    let wanted: Vec<usize> = (0..diagnostics.len())
        .filter(|&i| diagnostics[i].severity >= ptxguard_analyzer::Severity::Warning)
        .collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    if path.extension().is_some_and(|e| e == "py") {
        // Kernels in Python strings are compiled when the program runs, not by a build.
        let mut out = vec![None; diagnostics.len()];
        for &i in &wanted {
            out[i] = Some(crate::emit::Confirmation {
                verdict: "not-decidable",
                detail: "a Python file: its kernels are compiled when it runs".into(),
                target: String::new(),
            });
        }
        return Ok(out);
    }
    let findings: Vec<Diagnostic> = wanted.iter().map(|&i| diagnostics[i].clone()).collect();
    let (build, judgements, compiled) =
        evidence_for_file(toolkit, path, file, &findings, &command, &targets)?;
    let statements = find_asm_statements(file);
    let mut report = compare(file, &statements, &findings, &build);
    let failed_elsewhere = report
        .elsewhere
        .first()
        .filter(|_| !report.build_succeeded)
        .map(|l| format!("{}: {}", l.message.tool.as_str(), l.message.text));
    let mut out = vec![None; diagnostics.len()];
    for (((f, j), &i), compiled) in report
        .findings
        .iter_mut()
        .zip(judgements)
        .zip(&wanted)
        .zip(compiled)
    {
        let (verdict, detail, target) = match j {
            Some((target, j, _)) => (j.verdict, j.detail, target),
            None => {
                without_fix(f, failed_elsewhere.as_deref(), compiled);
                (
                    f.verdict,
                    f.detail.clone().unwrap_or_default(),
                    String::new(),
                )
            }
        };
        out[i] = Some(crate::emit::Confirmation {
            verdict,
            detail,
            target,
        });
    }
    Ok(out)
}

/// The verdict of a finding that has no fix to build with: a build error at its statement
/// confirms it; otherwise nothing can be compared.
/// `compiled`: whether an inline asm block of the build's PTX comes from the finding's
/// statement (`None`: not known); a statement not compiled can show no error.
fn without_fix(f: &mut FindingResult, failed_elsewhere: Option<&str>, compiled: Option<bool>) {
    if f.verdict == "confirmed" {
        f.detail = Some(format!(
            "the toolchain reports it: {}",
            f.evidence.join("; ")
        ));
    } else if let Some(error) = failed_elsewhere {
        f.verdict = "not-decidable";
        f.detail = Some(format!(
            "the build fails before it can tell, and no fix to build with: {error}"
        ));
    } else if compiled == Some(false) {
        f.verdict = "not-decidable";
        f.detail = Some(NOT_COMPILED.into());
    } else if toolchain_detects(f.rule) {
        f.verdict = "not-reproduced";
        f.detail = Some("no error at this statement in this build".into());
    } else {
        f.verdict = "not-decidable";
        f.detail = Some("no fix to build with, so nothing to compare".into());
    }
}

pub fn run(args: ConfirmArgs) -> i32 {
    let builder = match choose_builder(&args) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("ptxguard confirm: {e}");
            eprintln!(
                "ptxguard confirm needs the CUDA toolkit (nvcc and ptxas, or NVRTC) to build \
                 the files; install it or pass --nvcc PATH. Nothing was confirmed."
            );
            return EXIT_NO_TOOLKIT;
        }
    };
    if let Builder::Nvrtc(_) = builder {
        let ignored = nvrtc::nvrtc_flags(&args.flags).ignored;
        if !ignored.is_empty() && !args.json {
            eprintln!(
                "ptxguard confirm: NVRTC has no use for: {}",
                ignored.join(" ")
            );
        }
    }
    let mut reports = Vec::new();
    let mut code = EXIT_OK;
    let headers = HeaderCache::default();
    // On a terminal only: stderr piped or redirected gets nothing more.
    let progress = ptxguard_toolchain::progress::Progress::stderr("confirm", args.files.len());
    for path in &args.files {
        let name = path.display().to_string();
        progress.start(&name);
        let file = match SourceFile::read(path) {
            Ok(f) => f,
            Err(e) => {
                progress.clear();
                eprintln!("ptxguard confirm: {e}");
                return EXIT_NO_TOOLKIT;
            }
        };
        let command = command_for(path, &args.flags, args.compile_commands.as_deref(), None);
        for line in crate::build_context::take_messages() {
            progress.clear();
            eprintln!("ptxguard confirm: {line}");
        }
        let targets = targets_from_flags(&command.flags);
        let context = AnalysisContext {
            targets: ptxguard_toolchain::build::sm_targets_from_flags(&command.flags),
            build: command.build.clone().map(std::sync::Arc::new),
            ..AnalysisContext::new(headers.clone())
        };
        let least = if args.with_info {
            ptxguard_analyzer::Severity::Info
        } else {
            ptxguard_analyzer::Severity::Warning
        };
        let findings = findings_at_least(&file, &context, least);
        let statements = find_asm_statements(&file);
        let report = match &builder {
            Builder::Nvcc(toolkit) => {
                // One build per target; nvcc's own default when the flags name none.
                let targets = if targets.is_empty() {
                    vec![String::new()]
                } else {
                    targets.clone()
                };
                match evidence_for_file(toolkit, path, &file, &findings, &command, &targets) {
                    Ok((build, judgements, compiled)) => {
                        let mut report = compare(&file, &statements, &findings, &build);
                        // Errors not at any asm statement: the build may stop before ptxas.
                        let failed_elsewhere = report
                            .elsewhere
                            .first()
                            .filter(|_| !report.build_succeeded)
                            .map(|l| format!("{}: {}", l.message.tool.as_str(), l.message.text));
                        let findings = report.findings.iter_mut().zip(judgements);
                        for ((f, j), compiled) in findings.zip(compiled) {
                            match j {
                                Some((_, j, used)) => {
                                    f.verdict = j.verdict;
                                    f.detail = Some(j.detail);
                                    f.build = Some(used);
                                }
                                None => without_fix(f, failed_elsewhere.as_deref(), compiled),
                            }
                        }
                        report.flags_from = Some(command.from.clone());
                        report
                    }
                    Err(e) => {
                        progress.clear();
                        eprintln!("ptxguard confirm: {e}");
                        return EXIT_NO_TOOLKIT;
                    }
                }
            }
            Builder::Nvrtc(_) => {
                let dir = match TempDir::new("confirm") {
                    Ok(d) => d,
                    Err(e) => {
                        progress.clear();
                        eprintln!("ptxguard confirm: cannot make a scratch directory: {e}");
                        return EXIT_NO_TOOLKIT;
                    }
                };
                let build = match nvrtc::build_with_nvrtc(path, &file.text, &command.flags, &dir.0)
                {
                    Ok(b) => b,
                    Err(e) => {
                        progress.clear();
                        eprintln!("ptxguard confirm: {e}");
                        return EXIT_NO_TOOLKIT;
                    }
                };
                let mut report = compare(&file, &statements, &findings, &build);
                for f in &mut report.findings {
                    if f.verdict == "run-only" {
                        f.verdict = "not-decidable";
                        f.detail =
                            Some("NVRTC gives no machine code to compare: build with nvcc".into());
                    }
                }
                report.note = nvrtc::nvrtc_limit(&build);
                report.flags_from = Some(command.from.clone());
                report
            }
        };
        progress.finish(&name);
        if !report.build_succeeded {
            code = EXIT_BUILD_FAILED;
        }
        if !args.json {
            progress.clear();
            print!("{}", render_text(&report));
        }
        reports.push(report);
    }
    drop(progress);
    if args.json {
        let toolkit = match &builder {
            Builder::Nvcc(t) => {
                serde_json::json!({ "nvcc": t.nvcc.display().to_string(), "version": t.version })
            }
            Builder::Nvrtc(v) => serde_json::json!({ "nvrtc": v }),
        };
        let doc = serde_json::json!({
            "toolkit": toolkit,
            "flags": args.flags,
            "files": reports,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        println!("toolkit: {}", builder.describe());
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::Severity;
    use ptxguard_toolchain::{FindingResult, Located, Message, Tool};
    use std::path::Path;

    #[test]
    fn renders_confirmed_and_not_predicted() {
        let message = |tool, text: &str| Message {
            tool,
            level: Level::Error,
            file: None,
            line: None,
            text: text.into(),
        };
        let report = FileReport {
            file: "k.cu".into(),
            command: vec![],
            build_succeeded: false,
            findings: vec![FindingResult {
                rule: "operand-type-mismatch",
                severity: Severity::Error,
                line: 3,
                column: 3,
                message: "x".into(),
                verdict: "confirmed",
                evidence: vec!["nvcc: bad things".into()],
                detail: Some("the fix removes the error: nvcc: bad things".into()),
                build: Some(BuildUsed {
                    target: "sm_90".into(),
                    fix: "f".into(),
                }),
            }],
            not_predicted: vec![Located {
                message: message(Tool::Ptxas, "Arguments mismatch"),
                statement: Some(1),
                statement_line: Some(4),
                how: ".loc".into(),
            }],
            elsewhere: vec![],
            flags_from: None,
            note: None,
        };
        let text = render_text(&report);
        assert!(
            text.contains(
                "k.cu:3:3: operand-type-mismatch [error] x\n      confirmed by the toolchain in this build (sm_90): the fix removes the error: nvcc: bad things"
            ),
            "{text}"
        );
        assert!(
            text.contains("k.cu:4: not predicted by ptxguard: ptxas error: Arguments mismatch"),
            "{text}"
        );
        assert!(
            text.contains("1 confirmed by the toolchain, 0 bite in this build"),
            "{text}"
        );
        assert!(!text.contains("silent"), "{text}");
    }

    #[test]
    fn a_finding_without_a_fix_in_a_build_that_stops_early_is_not_decidable() {
        let mut f = FindingResult {
            rule: "arch-requirement",
            severity: Severity::Warning,
            line: 1,
            column: 1,
            message: "m".into(),
            verdict: "not-reproduced",
            evidence: vec![],
            detail: None,
            build: None,
        };
        without_fix(
            &mut f,
            Some("toolchain: nvcc fatal   : Failed to preprocess host compiler properties."),
            None,
        );
        assert_eq!(f.verdict, "not-decidable");
        assert!(f.detail.as_deref().unwrap().contains("nvcc fatal"), "{f:?}");
        let mut g = FindingResult {
            verdict: "run-only",
            ..f.clone()
        };
        without_fix(&mut g.clone(), None, None);
        // A claimed error at a statement the build does not compile: nothing to tell.
        let mut not_compiled = g.clone();
        without_fix(&mut not_compiled, None, Some(false));
        assert_eq!(not_compiled.verdict, "not-decidable");
        assert_eq!(not_compiled.detail.as_deref(), Some(NOT_COMPILED));
        without_fix(&mut g, None, Some(true));
        assert_eq!(g.verdict, "not-reproduced");
        let mut h = FindingResult {
            rule: "early-clobber",
            verdict: "run-only",
            ..f
        };
        without_fix(&mut h, None, None);
        assert_eq!(h.verdict, "not-decidable");
    }

    #[test]
    fn database_words_become_flags() {
        let entry = Entry {
            file: PathBuf::from("/p/src/k.cu"),
            directory: PathBuf::from("/p/build"),
            flags: Default::default(),
            arguments: "sccache /usr/bin/nvcc -DX -c ../src/k.cu -o k.o -arch=sm_90"
                .split(' ')
                .map(str::to_string)
                .collect(),
        };
        assert_eq!(
            flags_from_entry(&entry),
            ["-DX", "-c", "-o", "k.o", "-arch=sm_90"]
        );
    }

    #[test]
    fn no_toolkit_is_exit_2() {
        let r = find_toolkit(Some(Path::new("/nonexistent/nvcc")));
        assert!(r.is_err());
        let code = run(ConfirmArgs {
            files: vec![PathBuf::from("x.cu")],
            nvcc: Some(PathBuf::from("/nonexistent/nvcc")),
            ..Default::default()
        });
        assert_eq!(code, EXIT_NO_TOOLKIT);
    }
}
