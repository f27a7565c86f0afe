//! `ptxguard check`.

use crate::analysis::{self, CheckFn};
use crate::args::{CheckArgs, ColorChoice, OutputFormat, SeverityArg};
use crate::baseline::{self, BaselineEntry, Known};
use crate::cache::{Cache, Fresh, Stamp};
use crate::config::{self, absolutize, ConfigLayer, RuleSelector};
use crate::emit::{self, EmitOptions, FileReport};
use crate::fix::{self, FixMode};
use crate::settings::{ConfigSource, Resolver};
use crate::walk::{self, io_message, Candidate};
use ptxguard_analyzer::context::HeaderCache;
use ptxguard_analyzer::SourceFile;
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const EXIT_CLEAN: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_ERROR: i32 = 2;

/// Everything a run reads from and writes to, so that tests can run it in-process.
pub struct Context<'a> {
    pub cwd: PathBuf,
    pub check: CheckFn,
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    /// Whether stdout is a terminal (for `--color auto`).
    pub stdout_is_terminal: bool,
    /// Whether the result cache may be used (`--no-cache` and the configuration decide then).
    pub cache: bool,
}

/// What happened to one file.
#[derive(Default)]
struct FileOutcome {
    report: Option<FileReport>,
    path: PathBuf,
    /// Printed on stderr; these make the run exit with 2.
    errors: Vec<String>,
    /// Printed on stderr; the exit code does not change.
    warnings: Vec<String>,
    /// Printed when nothing else is said about the run.
    notes: Vec<String>,
    diff: String,
    fixes_applied: usize,
    /// With stdin and `--fix`: the fixed text (the bytes read, when nothing was fixed),
    /// printed on stdout.
    fixed_stdin: Option<Vec<u8>>,
    /// The fingerprint of the bytes read, when the run keeps results (the reach answer's key).
    fingerprint: Option<u128>,
}

struct Job<'a> {
    args: &'a CheckArgs,
    resolver: &'a Resolver,
    check: CheckFn,
    fix_mode: Option<FixMode>,
    /// The work budget of each file (`analyzer::phase`).
    budget: std::time::Duration,
    /// The result cache, when this run uses one (not with fixes or `--diff`).
    cache: Option<&'a Cache>,
    /// The headers read for their macros, shared by the run's files.
    headers: HeaderCache,
    cwd: &'a Path,
}

impl Job<'_> {
    /// Whether every file read is fingerprinted, to key the reach answer: only when the last
    /// run searched ([`Cache::reach_wanted`]), and while the cache is still being read (the
    /// fingerprints are dropped after the walk when it did not search: [`check_all`]).
    fn fingerprints_files(&self) -> bool {
        self.cache
            .is_some_and(|cache| cache.reach_wanted_if_known().unwrap_or(true))
    }
}

pub fn run(args: &CheckArgs, ctx: &mut Context<'_>) -> i32 {
    // What is still buffered is written here: a write that fails then (a full disk) fails the
    // run as one during the report does; a reader that stopped early (`| head`) is no error.
    let result = run_inner(args, ctx).and_then(|code| written(ctx.stdout.flush()).map(|()| code));
    match result {
        Ok(code) => code,
        Err(message) => {
            let line = emit::stderr_line(args.output_format, emit::Level::Error, &message);
            let _ = writeln!(ctx.stderr, "{line}");
            EXIT_ERROR
        }
    }
}

/// A write of the report: an error fails the run, except a reader that stopped early (`| head`
/// wants no more; the exit code still says what was found).
fn written(result: std::io::Result<()>) -> Result<(), String> {
    match result {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.to_string()),
        _ => Ok(()),
    }
}

/// Why a path named as an input file is not one: missing, a folder, or not a regular file
/// (a FIFO, socket or device, which is never opened).
fn not_a_file(path: &Path) -> &'static str {
    match std::fs::metadata(path) {
        Err(_) => "no such file",
        Ok(meta) if meta.is_dir() => "is a directory",
        Ok(_) => ptxguard_analyzer::source::NOT_REGULAR,
    }
}

fn cli_layer(args: &CheckArgs, cwd: &Path) -> Result<ConfigLayer, String> {
    let selectors = |flag: &str, names: &[String]| -> Result<Vec<RuleSelector>, String> {
        names
            .iter()
            .filter(|n| !n.trim().is_empty())
            .map(|n| RuleSelector::parse(n).map_err(|m| format!("{flag}: {m}")))
            .collect()
    };
    let target = match &args.target {
        Some(list) => {
            let list: Vec<String> = list.iter().flat_map(|t| config::split_list(t)).collect();
            let targets = list
                .iter()
                .map(|t| config::validate_target(t).map_err(|m| format!("--target: {m}")))
                .collect::<Result<_, _>>()?;
            Some(targets)
        }
        None => None,
    };
    if let Some(v) = &args.cccl_version {
        config::validate_version(v).map_err(|m| format!("--cccl-version: {m}"))?;
    }
    if let Some(v) = &args.cuda_version {
        config::validate_cuda_version(v).map_err(|m| format!("--cuda-version: {m}"))?;
    }
    let portability = args
        .portability
        .as_ref()
        .map(|list| {
            list.iter()
                .flat_map(|c| config::split_list(c))
                .map(|c| config::parse_compiler(&c).map_err(|m| format!("--portability: {m}")))
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    let compile_commands = args.compile_commands.as_ref().map(|p| absolutize(p, cwd));
    if let Some(p) = &compile_commands {
        if !p.is_file() {
            return Err(format!(
                "--compile-commands: {}: {}",
                p.display(),
                not_a_file(p)
            ));
        }
    }
    Ok(ConfigLayer {
        origin: None,
        dir: cwd.to_path_buf(),
        select: args
            .select
            .as_ref()
            .map(|s| selectors("--select", s))
            .transpose()?,
        ignore: selectors("--ignore", &args.ignore)?,
        extend_select: selectors("--extend-select", &args.extend_select)?,
        severity: Vec::new(),
        per_file_ignores: Vec::new(),
        exclude: args.exclude.clone(),
        extensions: None,
        target,
        cccl_version: args.cccl_version.clone(),
        compile_commands,
        cuda_version: args.cuda_version.clone(),
        targets_by_glob: Vec::new(),
        cache: None,
        portability,
    })
}

/// What `check` does with the files once they are analysed.
enum Mode<'a> {
    /// `--diff`: print the fixes as a diff.
    Diff,
    /// `--write-baseline FILE`.
    WriteBaseline(&'a Path),
    /// Print the findings (after `--fix` wrote its fixes).
    Report,
}

impl<'a> Mode<'a> {
    fn of(args: &'a CheckArgs) -> Mode<'a> {
        if args.diff {
            Mode::Diff
        } else if let Some(path) = &args.write_baseline {
            Mode::WriteBaseline(path)
        } else {
            Mode::Report
        }
    }
}

/// The one exit-code policy of `check` (the README's Reliability section): 2 when anything
/// could not be checked or failed (unreadable, not a regular file, binary, too large, a fix
/// that could not be written, an internal error, a configuration, baseline or configured
/// database that could not be used, no file checked at all); else 1 when something fails the run (findings at `--fail-on` or above;
/// with `--diff`, fixes to apply) unless `--exit-zero`; else 0. Files checked with a caveat
/// (not valid UTF-8) only warn.
fn exit_code(problems: &emit::Problems, failing: bool, exit_zero: bool) -> i32 {
    if !problems.errors.is_empty() {
        EXIT_ERROR
    } else if failing && !exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

fn run_inner(args: &CheckArgs, ctx: &mut Context<'_>) -> Result<i32, String> {
    if args.diff && args.fix {
        return Err("`--diff` and `--fix` don't go together: `--diff` writes nothing".into());
    }
    if args.unsafe_fixes && !args.fix && !args.diff {
        return Err(
            "`--unsafe-fixes` does nothing without `--fix` (apply) or `--diff` (show)".into(),
        );
    }
    let cwd = ctx.cwd.clone();
    let source = if args.no_config {
        ConfigSource::None
    } else if let Some(path) = &args.config {
        let abs = absolutize(path, &cwd);
        if !abs.is_file() {
            return Err(format!(
                "--config: {}: {}",
                path.display(),
                not_a_file(&abs)
            ));
        }
        ConfigSource::Explicit(abs)
    } else {
        ConfigSource::Discover
    };
    // A broken configuration file in some folder is an error of the run, not the end of it.
    let resolver = Resolver::new(source, cli_layer(args, &cwd)?, &cwd).falling_back();
    let paths: Vec<PathBuf> = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let stdin_count = paths.iter().filter(|p| p.as_os_str() == "-").count();
    if stdin_count > 1 {
        return Err("`-` (standard input) can be named only once".into());
    }
    if args.show_settings {
        return show_settings(&paths[0], args, &resolver, ctx);
    }
    let Some(mut run) = check_all(args, ctx, &resolver, &paths, stdin_count == 1) else {
        return Ok(EXIT_ERROR);
    };
    let mode = Mode::of(args);
    // A baseline that cannot be read is an error of the run; every finding is then reported.
    let known = match (&mode, &args.baseline) {
        (Mode::Report, Some(path)) => match baseline::read(&absolutize(path, &cwd)) {
            Ok(file) => Some(file),
            Err(e) => {
                run.problems
                    .errors
                    .push(format!("{e} (every finding is reported)"));
                None
            }
        },
        _ => None,
    };
    run.problems.print(ctx.stderr, args.output_format);
    let failing = match mode {
        Mode::Diff => print_diff(args, &run, ctx),
        Mode::WriteBaseline(path) => write_baseline(args, path, &run, ctx)?,
        Mode::Report => report(args, known.as_ref(), &mut run, ctx, &resolver)?,
    };
    Ok(exit_code(&run.problems, failing, args.exit_zero))
}

/// Every file's outcome, and the problems of the run.
struct Run {
    outcomes: Vec<FileOutcome>,
    problems: emit::Problems,
}

/// Walks, reads and analyses every file (and standard input); `None` after configuration
/// errors (printed).
fn check_all(
    args: &CheckArgs,
    ctx: &mut Context<'_>,
    resolver: &Resolver,
    paths: &[PathBuf],
    with_stdin: bool,
) -> Option<Run> {
    let cwd = ctx.cwd.clone();
    let file_paths: Vec<PathBuf> = paths
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .cloned()
        .collect();
    let fix_mode = (args.fix || args.diff).then_some(if args.unsafe_fixes {
        FixMode::SafeAndUnsafe
    } else {
        FixMode::Safe
    });
    let cache = (ctx.cache && !args.no_cache && fix_mode.is_none())
        .then(|| Cache::open(&project_root(resolver, &cwd)))
        .flatten();
    let job = Job {
        args,
        resolver,
        check: ctx.check,
        fix_mode,
        budget: ptxguard_analyzer::phase::DEFAULT_BUDGET,
        cache: cache.as_ref(),
        headers: HeaderCache::default(),
        cwd: &cwd,
    };
    // Files are read (and most dropped: no `asm`, or results in the cache) as the walk
    // finds them.
    let (discovery, files) = walk::discover_with(
        &file_paths,
        resolver,
        args.force_exclude,
        &|c: &Candidate| read_candidate(c, &job),
    );
    let stdin_path = with_stdin.then(|| {
        args.stdin_filename
            .as_ref()
            .map(|p| absolutize(p, &cwd))
            .unwrap_or_else(|| cwd.join("-"))
    });
    let stdin_settings = stdin_path.as_ref().map(|p| resolver.settings_for(p, false));
    let mut config_errors = discovery.config_errors.clone();
    if let Some(Err(e)) = &stdin_settings {
        if !config_errors.contains(e) {
            config_errors.push(e.clone());
        }
    }
    if !config_errors.is_empty() {
        for e in &config_errors {
            let line = emit::stderr_line(args.output_format, emit::Level::Error, &e.to_string());
            let _ = writeln!(ctx.stderr, "{line}");
        }
        return None;
    }

    let mut outcomes = check_files(files, &job);
    if let Some(path) = &stdin_path {
        let outcome = match ptxguard_analyzer::source::read_bounded(&mut *ctx.stdin) {
            Ok(bytes) => {
                let display = args
                    .stdin_filename
                    .as_ref()
                    .map(|_| walk::display_path(path, &cwd))
                    .unwrap_or_else(|| "-".into());
                let candidate = Candidate {
                    display,
                    path: path.clone(),
                    cache: false,
                };
                process_bytes(&candidate, bytes, &job, true)
            }
            Err(e) => FileOutcome {
                errors: vec![format!("cannot read standard input: {e}")],
                ..FileOutcome::default()
            },
        };
        outcomes.push(outcome);
    }
    // Files fingerprinted while the cache was still being read, when the last run did not
    // search: as if none were (a reach key is made only when every file has one).
    if cache.as_ref().is_some_and(|cache| !cache.reach_wanted()) {
        for outcome in &mut outcomes {
            outcome.fingerprint = None;
        }
    }
    let mut checked: Vec<PathBuf> = file_paths.iter().map(|p| absolutize(p, &cwd)).collect();
    checked.extend(stdin_path.clone());
    settle_reach(
        &mut outcomes,
        cache.as_ref(),
        &checked,
        stdin_path.as_deref(),
        resolver,
    );
    if let Some(cache) = cache {
        cache.save();
    }
    let mut errors = resolver.take_fallbacks();
    errors.extend(crate::build_context::take_errors());
    errors.extend(discovery.io_errors.iter().cloned());
    let mut problems = emit::Problems {
        errors,
        warnings: crate::build_context::take_messages(),
        ..emit::Problems::default()
    };
    for o in &outcomes {
        problems.warnings.extend(o.warnings.iter().cloned());
        problems.errors.extend(o.errors.iter().cloned());
        problems.notes.extend(o.notes.iter().cloned());
    }
    // A gate that checked nothing must not pass (an empty folder, a wrong path in CI, every
    // file excluded): said once, unless an error already explains it.
    if outcomes.is_empty() && problems.errors.is_empty() && !args.allow_no_files {
        let named: Vec<String> = file_paths
            .iter()
            .map(|p| format!("`{}`", p.display()))
            .collect();
        problems.errors.push(format!(
            "no file was checked: {} {} no file with a checked extension that is not excluded ({})",
            named.join(", "),
            if named.len() == 1 { "holds" } else { "hold" },
            if args.force_exclude {
                "`exclude`, `--exclude` with `--force-exclude`, .gitignore"
            } else {
                "`exclude`, `--exclude`, .gitignore"
            }
        ));
    }
    Some(Run { outcomes, problems })
}

/// Findings in functions compiled only where used, settled against the text of every checked
/// file (files without asm included: they call functions too) and, when the checked paths do
/// not cover their project (a pre-commit hook names the changed files only), of every file
/// `check` would check in it ([`project_of`]): the function's callers are there whichever
/// files are checked. The texts analysed are in memory, the others are read again. Nothing
/// is done (beyond dropping a kept answer) unless a finding awaits a use.
fn settle_reach(
    outcomes: &mut [FileOutcome],
    cache: Option<&Cache>,
    checked: &[PathBuf],
    stdin_path: Option<&Path>,
    resolver: &Resolver,
) {
    let awaiting = outcomes.iter().any(|o| {
        o.report.as_ref().is_some_and(|r| {
            r.diagnostics
                .iter()
                .any(ptxguard_analyzer::reach::awaits_use)
        })
    });
    if !awaiting {
        if let Some(cache) = cache {
            cache.drop_reach();
        }
        return;
    }
    // The project of each checked path (standard input: of its name): the repository or
    // configured folder above it, read whole when the checked paths leave some of it out.
    let mut roots: Vec<PathBuf> = checked.iter().filter_map(|p| project_of(p)).collect();
    roots.sort();
    roots.dedup();
    roots.retain(|root| {
        !checked
            .iter()
            .any(|p| root.starts_with(p) && stdin_path != Some(p.as_path()))
    });
    let from_stdin = stdin_path.is_some();
    let texts: Vec<(PathBuf, Option<Arc<SourceFile>>)> = outcomes
        .iter()
        .map(|o| {
            let source = o.report.as_ref().map(|r| r.source.clone());
            // A failed analysis reports an empty text: read the file.
            (o.path.clone(), source.filter(|s| !s.text.is_empty()))
        })
        .collect();
    // Every file's fingerprint, sorted by path (a file that could not be read, or is binary,
    // uses nothing and has none); `None` when the run keeps no results, reads standard input,
    // or reads files beyond the checked ones (their state is not known here).
    let fingerprinted = outcomes.iter().any(|o| o.fingerprint.is_some());
    let fingerprints: Option<Vec<(PathBuf, u128)>> =
        (fingerprinted && !from_stdin && roots.is_empty()).then(|| {
            let mut files: Vec<(PathBuf, u128)> = outcomes
                .iter()
                .filter_map(|o| o.fingerprint.map(|f| (o.path.clone(), f)))
                .collect();
            // By the paths' bytes (normalized paths: one order, cheaper than by components).
            files.sort_unstable_by(|a, b| (a.0.as_os_str(), a.1).cmp(&(b.0.as_os_str(), b.1)));
            files
        });
    ptxguard_analyzer::reach::settle(
        outcomes.iter_mut().filter_map(|o| {
            let path = o.path.as_path();
            o.report.as_mut().map(|r| (path, &mut r.diagnostics))
        }),
        |questions| {
            // The last run's answer, when it asked the same of the same files.
            let key = fingerprints.map(|files| {
                let files: Vec<(&Path, u128)> =
                    files.iter().map(|(p, f)| (p.as_path(), *f)).collect();
                Cache::reach_key(&files, questions)
            });
            if let Some(used) = cache
                .zip(key)
                .and_then(|(cache, key)| cache.reach_answer(key))
            {
                return used;
            }
            let in_memory: Vec<(&Path, &str)> = texts
                .iter()
                .filter_map(|(p, s)| s.as_ref().map(|s| (p.as_path(), s.text.as_str())))
                .collect();
            let mut on_disk: Vec<&Path> = texts
                .iter()
                .filter(|(_, s)| s.is_none())
                .map(|(p, _)| p.as_path())
                .collect();
            let more = if roots.is_empty() {
                Vec::new()
            } else {
                walk::files_under(&roots, resolver)
            };
            let checked: HashSet<&Path> = texts.iter().map(|(p, _)| p.as_path()).collect();
            on_disk.extend(
                more.iter()
                    .map(PathBuf::as_path)
                    .filter(|p| !checked.contains(p)),
            );
            let used = crate::reach::uses_elsewhere(questions, &in_memory, &on_disk);
            // Kept keyed; unkeyed only to ask the next run to fingerprint its files (never when
            // no key can be made: standard input, files beyond the checked ones).
            if let Some(cache) = cache {
                if key.is_some() || (!cache.reach_wanted() && !from_stdin && roots.is_empty()) {
                    cache.store_reach(key, &used);
                }
            }
            used
        },
    );
}

/// The project `path` belongs to: the nearest folder at or above it that holds a repository
/// (`.git`) or a configuration file; `None` when there is none (then only the checked files
/// are the project, as far as `reach` knows).
fn project_of(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .filter(|dir| dir.is_dir())
        .find(|dir| {
            dir.join(".git").exists()
                || config::CONFIG_FILE_NAMES
                    .iter()
                    .any(|name| dir.join(name).is_file())
        })
        .map(Path::to_path_buf)
}

/// Where the result cache lives: the folder of the configuration file that applies to the
/// working directory (`--config`'s, or the nearest above), else the working directory.
fn project_root(resolver: &Resolver, cwd: &Path) -> PathBuf {
    resolver
        .settings_for(cwd, true)
        .ok()
        .and_then(|s| {
            s.config_files
                .last()
                .and_then(|f| f.parent())
                .map(Path::to_path_buf)
        })
        .unwrap_or_else(|| cwd.to_path_buf())
}

/// `--diff`: true when there are fixes to apply.
fn print_diff(args: &CheckArgs, run: &Run, ctx: &mut Context<'_>) -> bool {
    let mut changed = 0;
    for o in &run.outcomes {
        if !o.diff.is_empty() {
            changed += 1;
            let _ = ctx.stdout.write_all(o.diff.as_bytes());
        }
    }
    let fixes: usize = run.outcomes.iter().map(|o| o.fixes_applied).sum();
    if !args.quiet {
        let mut line = Vec::new();
        let _ = emit::diff_summary(&mut line, fixes, changed);
        plain_line(args, ctx, &line);
    }
    changed > 0
}

/// A line of ours on stderr that is neither an error nor a warning.
fn plain_line(args: &CheckArgs, ctx: &mut Context<'_>, line: &[u8]) {
    let text = String::from_utf8_lossy(line);
    let shown = emit::stderr_line(args.output_format, emit::Level::Plain, text.trim_end());
    let _ = writeln!(ctx.stderr, "{shown}");
}

/// `--write-baseline`: never failing (the findings are recorded, not reported).
fn write_baseline(
    args: &CheckArgs,
    path: &Path,
    run: &Run,
    ctx: &mut Context<'_>,
) -> Result<bool, String> {
    let cwd = &ctx.cwd;
    let mut entries = Vec::new();
    for o in &run.outcomes {
        let Some(report) = &o.report else { continue };
        let key = baseline::baseline_file_key(path, &o.path, cwd);
        let fingerprints = baseline::fingerprints(&report.source, &report.diagnostics);
        for (d, fingerprint) in report.diagnostics.iter().zip(fingerprints) {
            entries.push(BaselineEntry {
                file: key.clone(),
                rule: d.rule.to_string(),
                fingerprint,
                line: report.source.line_col(d.span.start as usize).0,
                message: d.message.clone(),
            });
        }
    }
    let n = entries.len();
    baseline::write(&absolutize(path, cwd), entries)?;
    let fixes: usize = run.outcomes.iter().map(|o| o.fixes_applied).sum();
    if fixes > 0 && !args.quiet {
        // `--fix` wrote files before the baseline recorded what remained: said, not hidden.
        let files = run.outcomes.iter().filter(|o| o.fixes_applied > 0).count();
        let mut line = Vec::new();
        let _ = emit::fixed_line(&mut line, fixes, files);
        plain_line(args, ctx, &line);
    }
    if !args.quiet {
        let mut line = Vec::new();
        let _ = emit::baseline_written(&mut line, n, &path.display().to_string());
        plain_line(args, ctx, &line);
    }
    Ok(false)
}

/// Prints the findings (less those in `--baseline`) in the chosen format; true when one is
/// at `--fail-on` or above.
fn report(
    args: &CheckArgs,
    baseline_file: Option<&baseline::BaselineFile>,
    run: &mut Run,
    ctx: &mut Context<'_>,
    resolver: &Resolver,
) -> Result<bool, String> {
    let cwd = ctx.cwd.clone();
    let mut in_baseline = 0;
    if let (Some(path), Some(file)) = (&args.baseline, baseline_file) {
        let mut known = Known::new(file);
        for o in &mut run.outcomes {
            let Some(report) = &mut o.report else {
                continue;
            };
            let key = baseline::baseline_file_key(path, &o.path, &cwd);
            let fingerprints = baseline::fingerprints(&report.source, &report.diagnostics);
            let diagnostics = std::mem::take(&mut report.diagnostics);
            let before = diagnostics.len();
            report.diagnostics = diagnostics
                .into_iter()
                .zip(fingerprints)
                .filter(|(d, f)| !known.take(&key, d.rule, f))
                .map(|(d, _)| d)
                .collect();
            in_baseline += before - report.diagnostics.len();
        }
    }

    if args.confirm {
        confirm_findings(args, run, resolver)?;
    } else if args.fail_on == SeverityArg::Confirmed {
        return Err(
            "`--fail-on confirmed` needs `--confirm` (the build shows what is confirmed)".into(),
        );
    }

    let stdin_fixed = run.outcomes.iter().find_map(|o| o.fixed_stdin.clone());
    let reports: Vec<FileReport> = run
        .outcomes
        .iter()
        .filter_map(|o| o.report.clone())
        .filter(|r| !r.diagnostics.is_empty())
        .collect();
    let fixes_applied: usize = run.outcomes.iter().map(|o| o.fixes_applied).sum();
    let fixed_files = run.outcomes.iter().filter(|o| o.fixes_applied > 0).count();

    // With stdin and `--fix`, stdout carries the fixed text; findings go to stderr.
    let (out, color_allowed): (&mut dyn Write, bool) = if stdin_fixed.is_some() {
        (&mut *ctx.stderr, false)
    } else {
        (&mut *ctx.stdout, ctx.stdout_is_terminal)
    };
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => color_allowed && std::env::var_os("NO_COLOR").is_none(),
    };
    let options = EmitOptions {
        color,
        root: cwd.clone(),
        problems: run.problems.clone(),
    };
    if args.statistics {
        written(emit::statistics(&reports, args.output_format, out))?;
    } else {
        written(emit::emit(args.output_format, &reports, out, &options))?;
    }
    let human = matches!(
        args.output_format,
        OutputFormat::Full | OutputFormat::Concise
    );
    if human && !args.quiet {
        let _ = emit::summary(out, &reports, fixes_applied, fixed_files, &run.problems);
    }
    // What the baseline absorbed is said, never hidden (on stderr for the machine formats).
    if in_baseline > 0 && !args.quiet {
        let line = emit::baseline_matched(in_baseline);
        if human {
            let _ = writeln!(out, "{line}");
        } else {
            plain_line(args, ctx, line.as_bytes());
        }
    }
    if let Some(bytes) = stdin_fixed {
        let _ = ctx.stdout.write_all(&bytes);
    }

    if args.fail_on == SeverityArg::Confirmed {
        return Ok(reports
            .iter()
            .flat_map(|r| r.confirmations.iter().flatten())
            .any(crate::emit::Confirmation::shows));
    }
    let fail_on = args.fail_on.severity();
    Ok(reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .any(|d| d.severity >= fail_on))
}

/// `--confirm`: the evidence from each file's own build, for the findings at warning or
/// above (files in parallel; each file's builds in parallel too).
fn confirm_findings(args: &CheckArgs, run: &mut Run, resolver: &Resolver) -> Result<(), String> {
    let toolkit = ptxguard_toolchain::find_toolkit(None)
        .map_err(|e| format!("--confirm needs the CUDA toolkit (nvcc, cuobjdump): {e}"))?;
    let errors: Vec<String> = run
        .outcomes
        .par_iter_mut()
        .filter_map(|o| {
            let report = o.report.as_mut()?;
            // Standard input has no file to build.
            if report.diagnostics.is_empty() || !o.path.is_file() {
                return None;
            }
            let settings = resolver.settings_for(&o.path, false).ok();
            let database = args
                .compile_commands
                .clone()
                .or_else(|| settings.as_ref().and_then(|s| s.compile_commands.clone()));
            match crate::confirm::confirmations(
                &toolkit,
                &o.path,
                &report.source,
                &report.diagnostics,
                database.as_deref(),
                settings.as_deref(),
            ) {
                Ok(c) => {
                    report.confirmations = c;
                    None
                }
                Err(e) => Some(format!("{}: --confirm: {e}", o.path.display())),
            }
        })
        .collect();
    match errors.first() {
        Some(e) => Err(e.clone()),
        None => Ok(()),
    }
}

fn show_settings(
    path: &Path,
    args: &CheckArgs,
    resolver: &Resolver,
    ctx: &mut Context<'_>,
) -> Result<i32, String> {
    let abs = if path.as_os_str() == "-" {
        args.stdin_filename
            .as_ref()
            .map(|p| absolutize(p, resolver.cwd()))
            .unwrap_or_else(|| resolver.cwd().join("-"))
    } else {
        absolutize(path, resolver.cwd())
    };
    let is_dir = abs.is_dir();
    let settings = resolver
        .settings_for(&abs, is_dir)
        .map_err(|e| e.to_string())?;
    let _ = write!(ctx.stdout, "{}", settings.describe(&abs));
    if !is_dir {
        let _ = write!(
            ctx.stdout,
            "{}",
            crate::build_context::describe(&abs, &settings)
        );
    }
    for m in crate::build_context::take_errors() {
        let _ = writeln!(ctx.stderr, "error: {}", emit::visible(&m));
    }
    for m in crate::build_context::take_messages() {
        let _ = writeln!(ctx.stderr, "warning: {}", emit::visible(&m));
    }
    Ok(EXIT_CLEAN)
}

/// What reading a file gave: nothing more to do, or its bytes to analyse.
enum ReadResult {
    Done(Box<FileOutcome>),
    Loaded(Vec<u8>),
    /// Read while the cache's results were still being read: looked up after the walk, so
    /// that the walk goes on meanwhile.
    Pending(Vec<u8>),
}

/// Reads a file found by the walk (cheap; most hold no `asm` and stop there, and most of the
/// others have their results in the cache on a second run).
fn read_candidate(c: &Candidate, job: &Job<'_>) -> ReadResult {
    let outcome = |bytes: &[u8]| {
        if job
            .cache
            .is_some_and(|cache| c.cache && !cache.results_ready())
        {
            return ReadResult::Pending(bytes.to_vec());
        }
        match cached_outcome(c, bytes, job) {
            Some(outcome) => ReadResult::Done(Box::new(outcome)),
            None => ReadResult::Loaded(bytes.to_vec()),
        }
    };
    let stamps = job.cache.filter(|_| c.cache);
    let read = std::fs::File::open(&c.path).and_then(|file| {
        // Taken from the open file, before its read: a write after it changes what the next
        // run sees, so a stamp never vouches for bytes it did not precede (and opened, not
        // only looked up: a file this user cannot read is reported, and a network file
        // system checks what it caches of the file on open).
        let stamp = stamps
            .and_then(|_| file.metadata().ok())
            .as_ref()
            .and_then(Stamp::of);
        // A file an earlier run read without asm, unchanged since, is not read again.
        let unchanged = stamps
            .filter(|cache| cache.has_stamps())
            .zip(stamp)
            .and_then(|(cache, stamp)| {
                cache.unchanged_without_asm(&c.path, &stamp, job.fingerprints_files())
            });
        match unchanged {
            Some(fingerprint) => Ok((None, fingerprint)),
            None => read_if_asm(
                &c.path,
                file,
                job.fingerprints_files(),
                stamps.map(|cache| (cache, stamp)),
                outcome,
            ),
        }
    });
    match read {
        Ok((Some(result), _)) => result,
        Ok((None, fingerprint)) => ReadResult::Done(Box::new(FileOutcome {
            path: c.path.clone(),
            fingerprint,
            ..FileOutcome::default()
        })),
        // Not checked, whatever the bytes hold (see `exit_code`).
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            ReadResult::Done(Box::new(FileOutcome {
                errors: vec![ptxguard_analyzer::source::LoadError::Binary(
                    c.display.clone().into(),
                )
                .to_string()],
                path: c.path.clone(),
                ..FileOutcome::default()
            }))
        }
        Err(e) => ReadResult::Done(Box::new(FileOutcome {
            errors: vec![format!("{}: cannot read: {}", c.display, io_message(&e))],
            path: c.path.clone(),
            ..FileOutcome::default()
        })),
    }
}

/// Analyses the files that were read, largest first, one file per task, so that a few huge
/// headers do not end up queued on one core. The outcomes come back in the order of `files`.
fn check_files(files: Vec<(Candidate, ReadResult)>, job: &Job<'_>) -> Vec<FileOutcome> {
    let mut outcomes: Vec<Option<FileOutcome>> = Vec::with_capacity(files.len());
    // (index, candidate, bytes, whether the cache is still to be asked)
    let mut loaded: Vec<(usize, Candidate, Vec<u8>, bool)> = Vec::new();
    for (i, (candidate, r)) in files.into_iter().enumerate() {
        match r {
            ReadResult::Done(outcome) => outcomes.push(Some(*outcome)),
            ReadResult::Loaded(bytes) => {
                outcomes.push(None);
                loaded.push((i, candidate, bytes, false));
            }
            ReadResult::Pending(bytes) => {
                outcomes.push(None);
                loaded.push((i, candidate, bytes, true));
            }
        }
    }
    loaded.sort_by_key(|(_, _, bytes, _)| std::cmp::Reverse(bytes.len()));
    let analysed: Vec<(usize, FileOutcome)> = loaded
        .into_par_iter()
        .with_max_len(1)
        .map(|(i, candidate, bytes, pending)| {
            if pending {
                if let Some(outcome) = cached_outcome(&candidate, &bytes, job) {
                    return (i, outcome);
                }
            }
            let fingerprint = job
                .fingerprints_files()
                .then(|| ptxguard_analyzer::source::fingerprint(&bytes));
            let mut outcome = process_bytes(&candidate, bytes, job, false);
            outcome.fingerprint = fingerprint;
            (i, outcome)
        })
        .collect();
    for (i, outcome) in analysed {
        outcomes[i] = Some(outcome);
    }
    outcomes
        .into_iter()
        .map(|o| o.expect("every file has an outcome"))
        .collect()
}

/// The file's outcome from the result cache, when it holds one for these bytes and this
/// file's settings. Isolated like an analysis: a panic here only means no cached outcome.
fn cached_outcome(c: &Candidate, bytes: &[u8], job: &Job<'_>) -> Option<FileOutcome> {
    let cache = job.cache.filter(|cache| cache.has(&c.path))?;
    ptxguard_analyzer::phase::isolate(None, || {
        let settings = job.resolver.settings_for(&c.path, false).ok()?;
        if !settings.cache {
            return None;
        }
        let options = analysis::runs_for(&c.path, &settings, &job.headers);
        let fingerprint = ptxguard_analyzer::source::fingerprint(bytes);
        let key = Cache::key(
            job.cwd,
            &c.path,
            &c.display,
            fingerprint,
            &options,
            &settings.rules_for(&c.path),
        );
        let hit = cache.lookup(&c.path, &c.display, key, bytes)?;
        Some(FileOutcome {
            report: hit.report,
            path: c.path.clone(),
            warnings: hit.warnings,
            notes: hit.notes,
            fingerprint: job.fingerprints_files().then_some(fingerprint),
            ..FileOutcome::default()
        })
    })
    .ok()
    .flatten()
}

/// What `on_asm` makes of the bytes of `file` (at `path`) when they may hold asm, else (when
/// `fingerprint`) the fingerprint of the bytes; an `InvalidData` error when it is binary.
/// With `stamps`, the file's stamp (taken before its read) is kept there when it holds no asm,
/// and dropped when it does.
fn read_if_asm<T>(
    path: &Path,
    file: std::fs::File,
    fingerprint: bool,
    stamps: Option<(&Cache, Option<Stamp>)>,
    on_asm: impl FnOnce(&[u8]) -> T,
) -> std::io::Result<(Option<T>, Option<u128>)> {
    read_file_in_buffer(file, |bytes, too_large| {
        let binary = ptxguard_analyzer::source::looks_binary(bytes);
        let asm = binary || too_large || analysis::may_hold_asm(path, bytes);
        if let Some((cache, _)) = stamps.filter(|_| asm) {
            cache.drop_stamp(path);
        }
        if binary {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
        if asm {
            return Ok((Some(on_asm(bytes)), None));
        }
        let fingerprint = fingerprint.then(|| ptxguard_analyzer::source::fingerprint(bytes));
        if let Some((cache, Some(stamp))) = stamps {
            cache.stamp_without_asm(path, stamp, fingerprint);
        }
        Ok((None, fingerprint))
    })?
}

/// What `with` makes of the file's bytes (at most one byte past the largest file checked, and
/// whether they reach that). Each thread reads into one buffer it keeps: most files hold no
/// asm, and a fresh buffer per file costs the kernel a zeroed page per 4 KiB.
pub(crate) fn read_in_buffer<T>(
    path: &Path,
    with: impl FnOnce(&[u8], bool) -> T,
) -> std::io::Result<T> {
    read_file_in_buffer(std::fs::File::open(path)?, with)
}

/// [`read_in_buffer`] of a file already open.
fn read_file_in_buffer<T>(
    mut file: std::fs::File,
    with: impl FnOnce(&[u8], bool) -> T,
) -> std::io::Result<T> {
    use std::io::Read as _;
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    // Plain reads into a buffer that stays initialised: `File::read_to_end` would ask the
    // file's size and position first (two more system calls per file), and reading through
    // the generic path would zero the spare capacity each time.
    BUFFER.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        if buffer.len() < 256 * 1024 {
            buffer.resize(256 * 1024, 0);
        }
        let mut filled = 0;
        // Bounded by the bytes read, not the size the file reports (`/dev/zero`): one byte
        // past the limit is enough for `SourceFile::from_bytes` to report it too large.
        let limit = ptxguard_analyzer::source::MAX_FILE_BYTES + 1;
        while filled < limit {
            if filled == buffer.len() {
                let grown = (buffer.len() * 2).min(limit);
                buffer.resize(grown, 0);
            }
            match file.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(with(&buffer[..filled], filled >= limit))
    })
}

fn process_bytes(
    candidate: &Candidate,
    bytes: Vec<u8>,
    job: &Job<'_>,
    is_stdin: bool,
) -> FileOutcome {
    let mut outcome = FileOutcome {
        path: candidate.path.clone(),
        ..FileOutcome::default()
    };
    // `check --fix -` gives back the bytes it read, byte for byte, unless it fixed something.
    let original = (is_stdin && job.args.fix).then(|| bytes.clone());
    // A panic or a spent budget stops this file only (see `analyzer::phase`).
    let isolated = ptxguard_analyzer::phase::isolate(Some(job.budget), || {
        analyse_bytes(candidate, bytes, job, is_stdin, &mut outcome)
    });
    match isolated {
        Err(failure) => {
            outcome.fixes_applied = 0;
            outcome.diff.clear();
            outcome
                .errors
                .push(format!("{}: {failure}", candidate.display));
            outcome.report = Some(analysis::failure_report(&candidate.display, &failure));
        }
        // Only a whole, error-free analysis is kept: a failure may not happen again.
        Ok(Some(fresh)) if outcome.errors.is_empty() => {
            if let (Some(cache), Some(report)) = (job.cache, &outcome.report) {
                cache.store(
                    &candidate.path,
                    fresh,
                    report,
                    &outcome.warnings,
                    &outcome.notes,
                );
            }
        }
        Ok(_) => {}
    }
    if let Some(original) = original {
        if outcome.fixes_applied == 0 {
            outcome.fixed_stdin = Some(original);
        }
    }
    outcome
}

/// Analyses one file into `outcome`. What to keep in the result cache comes back when the run
/// keeps results.
fn analyse_bytes(
    candidate: &Candidate,
    bytes: Vec<u8>,
    job: &Job<'_>,
    is_stdin: bool,
    outcome: &mut FileOutcome,
) -> Option<Fresh> {
    // Files from the walk were filtered when read; standard input is filtered here.
    if is_stdin
        && !ptxguard_analyzer::source::looks_binary(&bytes)
        && !analysis::may_hold_asm(&candidate.path, &bytes)
    {
        return None;
    }
    let settings = match job.resolver.settings_for(&candidate.path, false) {
        Ok(s) => s,
        Err(e) => {
            outcome.errors.push(e.to_string());
            return None;
        }
    };
    let cache = job.cache.filter(|_| settings.cache && !is_stdin);
    let bytes_fingerprint = cache.map(|_| ptxguard_analyzer::source::fingerprint(&bytes));
    let source = match SourceFile::from_bytes(PathBuf::from(&candidate.display), bytes) {
        Ok(source) => source,
        // Binary or too large: not checked, which the exit code says (see `exit_code`).
        Err(e) => {
            outcome.errors.push(e.to_string());
            return None;
        }
    };
    let options = analysis::runs_for(&candidate.path, &settings, &job.headers);
    let key = bytes_fingerprint.map(|bytes| {
        Cache::key(
            job.cwd,
            &candidate.path,
            &candidate.display,
            bytes,
            &options,
            &settings.rules_for(&candidate.path),
        )
    });
    if let Some(bad) = source.lossy {
        let (line, col) = source.line_col(bad);
        outcome.warnings.push(format!(
            "{}:{line}:{col}: not valid UTF-8; the invalid bytes were read as `?`",
            candidate.display
        ));
    }
    let analyze = |file: &SourceFile| {
        analysis::analyze_with(file, &candidate.path, &settings, &options, job.check)
    };
    let (mut diagnostics, reads) =
        ptxguard_analyzer::context::targets::record_reads(|| analyze(&source));
    if diagnostics.is_empty() {
        if let Some(note) = analysis::host_only_note(&source) {
            outcome.notes.push(format!("{}: {note}", candidate.display));
        }
    }
    let mut source = Arc::new(source);

    if let Some(mode) = job.fix_mode {
        if source.lossy.is_some() {
            if diagnostics.iter().any(|d| d.fix.is_some()) {
                outcome.warnings.push(format!(
                    "{}: not fixed: the file is not valid UTF-8",
                    candidate.display
                ));
            }
        } else {
            let result = fix::fix_file_from(&source, diagnostics.clone(), mode, &analyze);
            if let Some(f) = &result.failure {
                outcome.errors.push(format!(
                    "{}:{}:{}: the fix \"{}\" for {} {}; the file was left unchanged",
                    candidate.display,
                    f.line,
                    f.column,
                    f.fix_message,
                    f.rule,
                    f.describe()
                ));
            }
            if result.changed(&source.text) {
                outcome.fixes_applied = result.applied.len();
                if job.args.diff {
                    outcome.diff =
                        fix::unified_diff(&candidate.display, &source.text, &result.text);
                } else if is_stdin {
                    outcome.fixed_stdin = Some(result.text.clone().into_bytes());
                } else if let Err(e) = fix::write_fixes(&candidate.path, result.text.as_bytes()) {
                    outcome.errors.push(format!(
                        "{}: cannot write the fixes: {e}",
                        candidate.display
                    ));
                    outcome.fixes_applied = 0;
                }
                if outcome.fixes_applied > 0 && !job.args.diff {
                    source = Arc::new(SourceFile::new(source.path.clone(), result.text));
                    diagnostics = result.diagnostics;
                }
            }
        }
    }
    outcome.report = Some(FileReport {
        display: candidate.display.clone(),
        source,
        diagnostics,
        confirmations: Vec::new(),
    });
    key.map(|key| Fresh { key, reads })
}
