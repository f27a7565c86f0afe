//! `gpu-tests`: the GPU harness's command line. See the README.

use clap::{Parser, Subcommand};
use gpu_tests::{cuda, harness, probe, report, runner, util};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "gpu-tests", about = "Confirms ptxguard's rules on a GPU")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Build, run and judge every corpus case with a GPU header; write the confirmation table.
    Run {
        /// The corpus.
        #[arg(long, default_value = "corpus/cases")]
        corpus: PathBuf,
        /// Where to write the confirmation table for people.
        #[arg(long, default_value = "docs/confirmations.md")]
        markdown: PathBuf,
        /// Where to write the same data for `ptxguard rule NAME` (built into the CLI).
        #[arg(long, default_value = "cli/data/confirmations.json")]
        json: PathBuf,
        /// Only cases whose name contains this.
        #[arg(long)]
        only: Option<String>,
        /// Also run the address-width probe and write the table here.
        #[arg(long)]
        probe: Option<PathBuf>,
        /// Keep the builds here (default: a scratch directory, removed).
        #[arg(long)]
        work: Option<PathBuf>,
        #[arg(long, default_value_t = 16)]
        jobs: usize,
        /// Launches at once.
        #[arg(long, default_value_t = 4)]
        gpu_jobs: usize,
    },
    /// Assemble one kernel per address-taking instruction form with a 32-bit and a 64-bit
    /// address and write which ptxas accepts (the address-width table).
    Probe {
        /// Where to write the table.
        #[arg(long, default_value = "rules/data/address-width-probe.tsv")]
        out: PathBuf,
        /// The ptxas to use (default: beside nvcc, or on PATH).
        #[arg(long)]
        ptxas: Option<PathBuf>,
        #[arg(long, default_value_t = 16)]
        jobs: usize,
    },
    /// Assemble every probed form for each target nvcc 13 compiles for and write which
    /// ptxas accepts (the SM table `arch-requirement` is checked against).
    ProbeSm {
        #[arg(long, default_value = "rules/data/sm-probe.tsv")]
        out: PathBuf,
        #[arg(long)]
        ptxas: Option<PathBuf>,
        #[arg(long, default_value_t = 16)]
        jobs: usize,
    },
    /// Print what `run` would do for each case (headers, ptxguard's fixes); needs no GPU.
    Plan {
        #[arg(long, default_value = "corpus/cases")]
        corpus: PathBuf,
        #[arg(long)]
        only: Option<String>,
        /// Also print the fixed text of each case.
        #[arg(long)]
        diff: bool,
    },
    /// (internal) Load an image and launch a kernel as a job file says; print the result.
    Exec { job: PathBuf },
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Cmd::Run {
            corpus,
            markdown,
            json,
            only,
            probe,
            work,
            jobs,
            gpu_jobs,
        } => run(
            corpus,
            ReportPaths { markdown, json },
            only,
            probe,
            work,
            jobs,
            gpu_jobs,
        ),
        Cmd::Probe { out, ptxas, jobs } => probe_cmd(out, ptxas, jobs),
        Cmd::ProbeSm { out, ptxas, jobs } => probe_sm_cmd(out, ptxas, jobs),
        Cmd::Exec { job } => exec(job),
        Cmd::Plan { corpus, only, diff } => plan(corpus, only, diff),
    };
    std::process::exit(code);
}

fn exec(job: PathBuf) -> i32 {
    let result = match std::fs::read_to_string(&job)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str::<cuda::Job>(&t).map_err(|e| e.to_string()))
    {
        Ok(j) => cuda::execute(&j),
        Err(e) => cuda::RunResult::HarnessError {
            error: format!("{}: {e}", job.display()),
        },
    };
    println!("{}", serde_json::to_string(&result).unwrap_or_default());
    0
}

fn find_ptxas(explicit: Option<PathBuf>) -> Option<(PathBuf, String)> {
    if let Some(p) = explicit {
        return Some((p, "unknown".into()));
    }
    let tk = ptxguard_toolchain::find_toolkit(None).ok()?;
    let version = tk.version.clone();
    tk.ptxas.map(|p| (p, version))
}

fn probe_cmd(out: PathBuf, ptxas: Option<PathBuf>, jobs: usize) -> i32 {
    let Some((ptxas, version)) = find_ptxas(ptxas) else {
        println!("SKIP: no ptxas (no CUDA toolkit found); the address-width probe did not run");
        return 2;
    };
    let dir = match ptxguard_toolchain::TempDir::new("probe") {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let rows = match probe::run_probe(&ptxas, &dir.0, jobs) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let tsv = probe::render_tsv(&rows, &version, &util::today_utc());
    if let Some(parent) = out.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(e) = std::fs::write(&out, tsv) {
        eprintln!("error: {}: {e}", out.display());
        return 2;
    }
    let count = |f: &dyn Fn(&probe::Row) -> bool| rows.iter().filter(|r| f(r)).count();
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

fn probe_sm_cmd(out: PathBuf, ptxas: Option<PathBuf>, jobs: usize) -> i32 {
    let Some((ptxas, version)) = find_ptxas(ptxas) else {
        println!("SKIP: no ptxas (no CUDA toolkit found); the SM probe did not run");
        return 2;
    };
    let dir = match ptxguard_toolchain::TempDir::new("probe-sm") {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    match probe::run_sm_probe(&ptxas, &dir.0, jobs) {
        Ok(table) => {
            let text = format!(
                "# Which targets ptxas accepts each probed instruction form on (SM probe).\n# Generated by `gpu-tests probe-sm` with ptxas {version} on {}; do not edit by hand.\n{table}",
                util::today_utc()
            );
            if let Err(e) = std::fs::write(&out, text) {
                eprintln!("error: {}: {e}", out.display());
                return 2;
            }
            println!("SM probe: wrote {}", out.display());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn driver_version() -> String {
    if let Ok(t) = std::fs::read_to_string("/proc/driver/nvidia/version") {
        // NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...
        if let Some(v) = t.split_whitespace().find(|w| {
            w.chars().filter(|c| *c == '.').count() >= 1
                && w.chars().next().is_some_and(|c| c.is_ascii_digit())
        }) {
            return v.to_string();
        }
    }
    let out = std::process::Command::new("nvidia-smi")
        .args(["--query-gpu=driver_version", "--format=csv,noheader"])
        .output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => "unknown".into(),
    }
}

/// Where `run` writes the confirmation table.
struct ReportPaths {
    markdown: PathBuf,
    json: PathBuf,
}

fn run(
    corpus: PathBuf,
    out: ReportPaths,
    only: Option<String>,
    probe_out: Option<PathBuf>,
    work: Option<PathBuf>,
    jobs: usize,
    gpu_jobs: usize,
) -> i32 {
    let mut cases = harness::discover(&corpus);
    if let Some(o) = &only {
        cases.retain(|c| c.name.contains(o.as_str()));
    }
    if cases.is_empty() {
        eprintln!(
            "error: no case with a `// gpu-` header under {}",
            corpus.display()
        );
        return 2;
    }
    let device = match cuda::device_info() {
        Ok(d) => Some(d),
        Err(e) => {
            println!(
                "SKIP: no CUDA driver ({e}): nothing is launched, no launch is counted as passed"
            );
            None
        }
    };
    let nvcc = ptxguard_toolchain::find_toolkit(None).ok();
    let nvrtc = cuda::nvrtc_available();
    if device.is_none() && nvcc.is_none() && !nvrtc {
        println!("SKIP: no CUDA driver, nvcc or NVRTC here: the GPU harness did not run (run it on a GPU machine, see gpu-tests/README.md)");
        return 2;
    }
    let include = std::env::var_os("CUDA_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            nvcc.as_ref().and_then(|t| {
                t.nvcc
                    .parent()
                    .and_then(|p| p.parent())
                    .map(|p| p.to_path_buf())
            })
        })
        .map(|h| h.join("include"))
        .filter(|p| p.is_dir());
    let scratch = match &work {
        Some(w) => {
            let _ = std::fs::create_dir_all(w);
            None
        }
        None => match ptxguard_toolchain::TempDir::new("gpu-tests") {
            Ok(d) => Some(d),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
    };
    let work_dir = work
        .clone()
        .unwrap_or_else(|| scratch.as_ref().unwrap().0.clone());
    let shim_dir = env_work_shim(&work, &scratch);
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("gpu-tests"));
    let env = runner::Env {
        nvcc: nvcc.clone(),
        nvrtc,
        include,
        shim: shim_dir,
        device: device.clone(),
        exe,
        work: work_dir,
        jobs,
        gpu_jobs,
    };
    let mut skipped = Vec::new();
    if nvcc.is_none() {
        skipped.push("nvcc not found: NVRTC is the only toolchain".to_string());
    }
    if !nvrtc {
        skipped.push("NVRTC not found: no NVRTC builds".to_string());
    }
    if device.is_none() {
        skipped.push("no CUDA driver: nothing was launched".to_string());
    }
    if let Some(p) = &probe_out {
        let _ = probe_cmd(p.clone(), None, jobs);
    }
    let start = std::time::Instant::now();
    let results = runner::run_cases(&env, &cases);
    let environment = report::Environment {
        gpu: device
            .as_ref()
            .map(|d| d.name.clone())
            .unwrap_or_else(|| "none".into()),
        driver: if device.is_some() {
            driver_version()
        } else {
            "none".into()
        },
        cuda: device
            .as_ref()
            .map(|d| d.driver_cuda.clone())
            .unwrap_or_else(|| "none".into()),
        nvcc: nvcc
            .as_ref()
            .map(|t| t.version.clone())
            .unwrap_or_else(|| "none".into()),
        nvrtc: cuda::nvrtc_version().unwrap_or_else(|| "none".into()),
        date: util::today_utc(),
    };
    let json = report::json(&environment, &results, &skipped);
    let md = report::markdown(&environment, &results, &skipped);
    for (path, body) in [(&out.json, &json), (&out.markdown, &md)] {
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if let Err(e) = std::fs::write(path, body) {
            eprintln!("error: {}: {e}", path.display());
            return 2;
        }
    }
    // Every build's full output, for whoever wants to look (in the work directory: `--work`).
    let builds: Vec<serde_json::Value> = results
        .iter()
        .map(|r| serde_json::json!({ "case": r.case, "builds": r.builds }))
        .collect();
    let _ = std::fs::write(
        env.work.join("confirmations-builds.json"),
        serde_json::to_string_pretty(&builds).unwrap_or_default(),
    );
    for r in &results {
        println!(
            "{:15} {} — {}",
            r.outcome.as_str(),
            r.case,
            r.evidence.chars().take(160).collect::<String>()
        );
    }
    let c = report::counts(&results);
    println!(
        "{} cases in {:.0}s: {} fixed-ok, {} confirmed, {} not-reproduced, {} harness-error; wrote {} and {}",
        results.len(),
        start.elapsed().as_secs_f64(),
        c["fixed-ok"],
        c["confirmed"],
        c["not-reproduced"],
        c["harness-error"],
        out.markdown.display(),
        out.json.display()
    );
    0
}

fn plan(corpus: PathBuf, only: Option<String>, diff: bool) -> i32 {
    let mut cases = harness::discover(&corpus);
    if let Some(o) = &only {
        cases.retain(|c| c.name.contains(o.as_str()));
    }
    let mut bad_headers = 0;
    for c in &cases {
        let h = match &c.header {
            Ok(h) => h,
            Err(e) => {
                println!("{}: BAD HEADER: {e}", c.name);
                bad_headers += 1;
                continue;
            }
        };
        let fixed = harness::apply_fixes(&c.path, &c.text, &h.sm_targets());
        println!(
            "{} [{:?}, {}]\n  ptxguard reports: {}\n  bad: {}\n  good: {}\n  fixes: {}",
            c.name,
            c.kind,
            h.targets().join(","),
            fixed.reported.join(", "),
            h.bad
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(" ; "),
            harness::default_good(h)
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(" ; "),
            if fixed.applied.is_empty() {
                "none".to_string()
            } else {
                fixed.applied.join(" | ")
            }
        );
        if let Some(c) = &fixed.conflict {
            println!("  FIX CONFLICT: {c}");
        }
        if let Some(l) = &h.launch_text {
            println!("  launch: {l}");
        }
        if diff && !fixed.applied.is_empty() {
            for (a, b) in c.text.lines().zip(fixed.text.lines()) {
                if a != b {
                    println!("  - {a}\n  + {b}");
                }
            }
        }
    }
    println!("{} cases, {} bad headers", cases.len(), bad_headers);
    i32::from(bad_headers > 0) * 2
}

fn env_work_shim(
    work: &Option<PathBuf>,
    scratch: &Option<ptxguard_toolchain::TempDir>,
) -> Option<PathBuf> {
    let base = work
        .clone()
        .or_else(|| scratch.as_ref().map(|d| d.0.clone()))?;
    let dir = base.join("nvrtc-include");
    ptxguard_toolchain::nvrtc::write_shim_headers(&dir).ok()?;
    Some(dir)
}
