//! Command-line interface definitions.

use clap::{Args, Parser, Subcommand, ValueEnum};
use ptxguard_analyzer::Severity;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "ptxguard",
    version,
    about = "A static analyzer for inline PTX in CUDA C++ asm() statements",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check files and directories for misused inline PTX.
    Check(Box<CheckArgs>),
    /// List every rule with its default severity, fix and default state.
    Rules(RulesArgs),
    /// Print a rule's documentation.
    Rule {
        /// The rule's name, e.g. `address-register-width`.
        name: String,
    },
    /// Print every asm statement the engine finds in a file, with its decoded template and PTX.
    Dump {
        /// A CUDA source file, or `-` for standard input.
        file: PathBuf,
    },
    /// Run the language server (LSP) over standard input and output.
    Server(ServerArgs),
    /// Confirm findings with the CUDA toolchain: build with nvcc or NVRTC and compare its
    /// errors with ptxguard's findings (it only builds; nothing runs on a GPU).
    Confirm(crate::confirm::ConfirmArgs),
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// Source snippets with labels, notes and fixes.
    #[default]
    Full,
    /// One line per finding: `file:line:col: rule [severity] message`.
    Concise,
    /// A JSON array of findings.
    Json,
    /// One JSON object per line.
    JsonLines,
    /// SARIF 2.1.0, for code scanning services.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// `file:line:col: severity: message [rule]`, for editors' quickfix lists.
    Gcc,
    /// reviewdog's diagnostic format (rdjson), fixes as suggestions.
    Rdjson,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SeverityArg {
    Info,
    #[default]
    Warning,
    Error,
}

impl SeverityArg {
    pub fn severity(self) -> Severity {
        match self {
            SeverityArg::Info => Severity::Info,
            SeverityArg::Warning => Severity::Warning,
            SeverityArg::Error => Severity::Error,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Args, Debug, Clone, Default)]
pub struct CheckArgs {
    /// Files or directories to check (`-` reads standard input). Defaults to `.`.
    pub paths: Vec<PathBuf>,

    /// How findings are printed.
    #[arg(long, value_enum, default_value_t)]
    pub output_format: OutputFormat,

    /// Exit with 1 when a finding at or above this severity remains.
    #[arg(long, value_enum, default_value_t)]
    pub fail_on: SeverityArg,

    /// Exit with 0 even when findings remain (I/O and usage errors still exit with 2).
    #[arg(long)]
    pub exit_zero: bool,

    /// Print how many findings each rule produced instead of the findings.
    #[arg(long)]
    pub statistics: bool,

    /// Print findings and nothing else.
    #[arg(short, long)]
    pub quiet: bool,

    /// When to color the output.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,

    /// Rules to run, replacing the configured set (comma-separated; `all` for every rule).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub select: Option<Vec<String>>,

    /// Rules not to run (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub ignore: Vec<String>,

    /// Rules to run in addition to the configured set (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub extend_select: Vec<String>,

    /// SM targets the code is built for, e.g. `sm_80,sm_90a`; beats every other source
    /// (default: the configuration, the compilation database, `CUDAARCHS` or
    /// `TORCH_CUDA_ARCH_LIST`, else inferred from each file).
    #[arg(long, value_delimiter = ',', value_name = "SM")]
    pub target: Option<Vec<String>>,

    /// The compilation database (`compile_commands.json`) that says how each file is built
    /// (default: found as clangd does, in the checked path, its parents and their `build*/`).
    #[arg(long, value_name = "PATH")]
    pub compile_commands: Option<PathBuf>,

    /// The CUDA toolkit the code is built with, e.g. `12.6` (default: the database's nvcc, else 13.0).
    #[arg(long, value_name = "VERSION")]
    pub cuda_version: Option<String>,

    /// CCCL version for `prefer-cuda-ptx`, e.g. `3.0`.
    #[arg(long, value_name = "VERSION")]
    pub cccl_version: Option<String>,

    /// Compilers besides nvcc the code must build with, e.g. `clang`: what nvcc accepts and
    /// they reject is then a warning, not info.
    #[arg(long, value_delimiter = ',', value_name = "COMPILER")]
    pub portability: Option<Vec<String>>,

    /// Use this configuration file for every file instead of looking for one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Ignore configuration files.
    #[arg(long)]
    pub no_config: bool,

    /// Paths to exclude, gitignore-style, relative to the current directory.
    #[arg(long, value_delimiter = ',', value_name = "PATTERN")]
    pub exclude: Vec<String>,

    /// Apply excludes to files named on the command line too (for pre-commit).
    #[arg(long)]
    pub force_exclude: bool,

    /// Exit with 0 when no file is left to check (for pre-commit, which names only the
    /// changed files; they may all be excluded). Without it, a run that checks no file exits
    /// with 2.
    #[arg(long)]
    pub allow_no_files: bool,

    /// Apply safe fixes.
    #[arg(long)]
    pub fix: bool,

    /// Apply unsafe fixes too (with `--fix` or `--diff`).
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print the fixes as a unified diff and write nothing.
    #[arg(long)]
    pub diff: bool,

    /// Print the settings that apply to the first path, then exit.
    #[arg(long)]
    pub show_settings: bool,

    /// Report only findings not recorded in this baseline file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Record the current findings in this baseline file, then exit.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,

    /// The file name standard input stands for (for messages, configuration and fixes).
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
}

#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// Print the list as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug, Clone, Default)]
pub struct ServerArgs {
    /// Accepted for clients that pass it; stdio is the only transport.
    #[arg(long, hide = true)]
    pub stdio: bool,
}
