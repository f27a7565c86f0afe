//! `ptxguard confirm`: owned by another engineer; this stub keeps the CLI wired.

#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfirmArgs {}

pub fn run(args: ConfirmArgs) -> i32 {
    let _ = args;
    eprintln!("ptxguard confirm: not built yet");
    2
}
