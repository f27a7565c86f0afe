//! The `ptxguard` command line: `check`, `rules`, `rule`, `dump`, `server`, `confirm`.

pub mod analysis;
pub mod args;
pub mod baseline;
pub mod build_context;
pub mod cache;
pub mod check_cmd;
pub mod config;
pub mod confirm;
pub mod dump;
pub mod emit;
pub mod fix;
pub mod lsp;
pub mod reach;
pub mod registry;
pub mod rules_cmd;
pub mod scan;
pub mod settings;
pub mod suppress;
pub mod walk;

use args::{Cli, Command};
use clap::Parser;
use std::io::IsTerminal;

/// How the process ends: its exit code, and whether it may end at once (`_exit`: nothing
/// left to flush or join; only `check`, whose output is written and whose threads are done).
pub struct Exit {
    pub code: i32,
    pub at_once: bool,
}

impl From<i32> for Exit {
    fn from(code: i32) -> Exit {
        Exit {
            code,
            at_once: false,
        }
    }
}

/// Runs the command line and says how the process ends.
pub fn cli_main() -> Exit {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap uses 0 for --help/--version and 2 for usage errors.
            return e.exit_code().into();
        }
    };
    match cli.command {
        Command::Check(args) => {
            let cwd = match std::env::current_dir() {
                Ok(cwd) => cwd,
                Err(e) => {
                    eprintln!("error: cannot read the current directory: {e}");
                    return check_cmd::EXIT_ERROR.into();
                }
            };
            ptxguard_analyzer::phase::quiet_budget_panics();
            let stdout = std::io::stdout();
            let mut ctx = check_cmd::Context {
                cwd,
                check: analysis::engine_check,
                stdin: &mut std::io::stdin().lock(),
                stdout_is_terminal: stdout.is_terminal(),
                stdout: &mut std::io::BufWriter::new(stdout.lock()),
                stderr: &mut std::io::stderr().lock(),
                cache: true,
            };
            let code = check_cmd::run(&args, &mut ctx);
            let _ = ctx.stdout.flush();
            Exit {
                code,
                at_once: true,
            }
        }
        Command::Rules(args) => rules_cmd::list(args.json, &mut std::io::stdout().lock()).into(),
        Command::Rule { name } => rules_cmd::show(
            &name,
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
        )
        .into(),
        Command::Dump { file } => dump::run(&file).into(),
        // Its writer thread holds standard output until the last check in flight ends.
        Command::Server(_) => lsp::run_stdio().into(),
        Command::Confirm(args) => confirm::run(args).into(),
    }
}
