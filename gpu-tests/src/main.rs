//! `gpu-tests`: the GPU harness's command line. See the README.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "gpu-tests", about = "Confirms ptxguard's rules on a GPU")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Assemble one kernel per address-taking instruction form with a 32-bit and a 64-bit
    /// address and write which ptxas accepts (the address-width table).
    Probe {
        /// Where to write the table.
        #[arg(long, default_value = "analyzer/data/address-width.tsv")]
        out: PathBuf,
        /// The ptxas to use (default: beside nvcc, or on PATH).
        #[arg(long)]
        ptxas: Option<PathBuf>,
        #[arg(long, default_value_t = 16)]
        jobs: usize,
    },
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Cmd::Probe { out, ptxas, jobs } => probe(out, ptxas, jobs),
    };
    std::process::exit(code);
}

fn find_ptxas(explicit: Option<PathBuf>) -> Option<(PathBuf, String)> {
    if let Some(p) = explicit {
        return Some((p, "unknown".into()));
    }
    let tk = ptxguard::confirm::find_toolkit(None).ok()?;
    let version = tk.version.clone();
    tk.ptxas.map(|p| (p, version))
}

fn probe(out: PathBuf, ptxas: Option<PathBuf>, jobs: usize) -> i32 {
    let Some((ptxas, version)) = find_ptxas(ptxas) else {
        println!("SKIP: no ptxas (no CUDA toolkit found); the address-width probe did not run");
        return 2;
    };
    let dir = match ptxguard::confirm::TempDir::new("probe") {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let rows = match gpu_tests::probe::run_probe(&ptxas, &dir.0, jobs) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let tsv = gpu_tests::probe::render_tsv(&rows, &version, &gpu_tests::util::today_utc());
    if let Some(parent) = out.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(e) = std::fs::write(&out, tsv) {
        eprintln!("error: {}: {e}", out.display());
        return 2;
    }
    let count = |f: &dyn Fn(&gpu_tests::probe::Row) -> bool| rows.iter().filter(|r| f(r)).count();
    println!(
        "address-width probe: {} forms; 32-bit accepted {}, 32-bit rejected {}, both rejected (a wrong probe) {}; wrote {}",
        rows.len(),
        count(&|r| r.r32.key() != "error"),
        count(&|r| r.r64.key() != "error" && r.r32.key() == "error"),
        count(&|r| r.r64.key() == "error" && r.r32.key() == "error"),
        out.display()
    );
    0
}
