//! `ptxguard confirm FILE... [-- COMPILER FLAGS]`: builds the files with the CUDA toolkit,
//! maps every front-end and ptxas message back to the asm statement that caused it, and says
//! which findings the toolchain confirmed, which toolchain errors ptxguard did not predict, and
//! which findings are silent miscompiles that only a run can show.
//!
//! The build is `nvcc FLAGS -lineinfo -c --keep --keep-dir TMP FILE`: nvcc runs its whole
//! pipeline with the user's flags (every `-gencode` target), keeps the generated `.ptx` files,
//! and ptxas names the `.ptx` file and line of each error. The generated PTX marks each inline
//! asm block with `// begin inline asm` / `// end inline asm`, and `-lineinfo` puts a `.loc`
//! directive (the source line of the asm statement) before it.
//!
//! Without nvcc, the files are built with NVRTC, which compiles device code only.
//!
//! The toolchain pieces (finding nvcc and NVRTC, building, reading their messages, tracing
//! them to asm statements, the comparison) live in `ptxguard-toolchain`, which the GPU harness
//! uses too; this module is the command: choosing the toolchain, the loop over the files, and
//! the output.

use ptxguard_analyzer::statements::find_asm_statements;
use ptxguard_analyzer::SourceFile;
use ptxguard_toolchain::{
    build_with_nvcc, compare, find_toolkit, findings_for, nvrtc, targets_from_flags, FileReport,
    Level, TempDir, Toolkit,
};
use std::fmt::Write as _;
use std::path::PathBuf;

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
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Compiler flags, after `--`: `ptxguard confirm k.cu -- -arch=sm_90a -O3 -Iinclude`.
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
    for f in &r.findings {
        let why = match f.verdict {
            "confirmed" => format!("confirmed by {}", f.evidence.join("; ")),
            "run-only" => {
                "a silent miscompile: no compiler reports it, only a run can show it".to_string()
            }
            _ => "not reproduced: this build did not fail on it".to_string(),
        };
        let _ = writeln!(
            s,
            "  {}:{}:{}: {} [{}] {}\n      {}",
            r.file,
            f.line,
            f.column,
            f.rule,
            f.severity.as_str(),
            f.message,
            why
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
        "  {} confirmed, {} silent (run-only), {} not reproduced, {} toolchain error(s) not predicted, {} elsewhere",
        count("confirmed"),
        count("run-only"),
        count("not-reproduced"),
        r.not_predicted.len(),
        r.elsewhere.len()
    );
    s
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
    let targets = targets_from_flags(&args.flags);
    let mut reports = Vec::new();
    let mut code = EXIT_OK;
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
        let dir = match TempDir::new("confirm") {
            Ok(d) => d,
            Err(e) => {
                progress.clear();
                eprintln!("ptxguard confirm: cannot make a scratch directory: {e}");
                return EXIT_NO_TOOLKIT;
            }
        };
        let build = match &builder {
            Builder::Nvcc(toolkit) => build_with_nvcc(toolkit, path, &args.flags, &dir.0),
            Builder::Nvrtc(_) => nvrtc::build_with_nvrtc(path, &file.text, &args.flags, &dir.0),
        };
        let build = match build {
            Ok(b) => b,
            Err(e) => {
                progress.clear();
                eprintln!("ptxguard confirm: {e}");
                return EXIT_NO_TOOLKIT;
            }
        };
        progress.finish(&name);
        if !build.success {
            code = EXIT_BUILD_FAILED;
        }
        let statements = find_asm_statements(&file);
        let findings = findings_for(&file, &targets);
        let mut report = compare(&file, &statements, &findings, &build);
        if let Builder::Nvrtc(_) = builder {
            report.note = nvrtc::nvrtc_limit(&build);
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
            }],
            not_predicted: vec![Located {
                message: message(Tool::Ptxas, "Arguments mismatch"),
                statement: Some(1),
                statement_line: Some(4),
                how: ".loc".into(),
            }],
            elsewhere: vec![],
            note: None,
        };
        let text = render_text(&report);
        assert!(
            text.contains(
                "k.cu:3:3: operand-type-mismatch [error] x\n      confirmed by nvcc: bad things"
            ),
            "{text}"
        );
        assert!(
            text.contains("k.cu:4: not predicted by ptxguard: ptxas error: Arguments mismatch"),
            "{text}"
        );
        assert!(text.contains("1 confirmed, 0 silent (run-only)"), "{text}");
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
