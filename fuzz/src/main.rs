//! `cargo run -p ptxguard-fuzz -- TARGET SECONDS [SEED]`: mutates the corpus cases for
//! SECONDS and runs TARGET on each input; prints the number of inputs and writes every failing
//! input (a panic, a broken property, or one input slower than `SLOW`) to
//! `target/fuzz-failures/TARGET/`. `fuzz/run.sh` runs every target.
//!
//! The `fix-cpp` and `fix-python` targets mutate files of the structure-aware generator
//! (`generate.rs`) instead of the corpus.
//!
//! `... -- generate DIR COUNT [SEED]` writes COUNT mutated files (`.cu`, `.cuh`, `.py`) into
//! DIR, for whole-process runs of `ptxguard check DIR`.
//!
//! `FUZZ_ROOT` names the checkout whose corpus seeds the mutations (default: this one, where
//! it was built) and `FUZZ_FAILURES` the folder for failing inputs: both for running the
//! binary on another machine.

use ptxguard_fuzz::{mutate, run_target, Rng, TARGETS};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// An input that takes longer than this is a failure (a hang, or worse than linear time).
const SLOW: Duration = Duration::from_secs(2);
/// The largest input tried.
const MAX_LEN: usize = 64 * 1024;

thread_local! {
    /// Panics inside a target are failures reported with their input; others are bugs here.
    static IN_TARGET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// User + system time of this process (Linux: `/proc/self/stat`; elsewhere zero, so that
/// only wall time counts).
fn cpu_time() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // Fields after the command name (which may hold spaces) start after the last `)`.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name; 100 Hz.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

fn seeds(root: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut stack = vec![root.join("corpus/cases"), root.join("fuzz/regressions")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push(bytes);
            }
        }
    }
    out.push(b"[tool]\nselect = [\"all\"]\nignore = [\"missing-volatile\"]\n".to_vec());
    out.sort();
    out
}

/// The seeds of `target`: the fix targets start from the generator's files (CUDA or
/// Python), the others from the corpus and the regression inputs.
fn seeds_for(target: &str, root: &Path) -> Vec<Vec<u8>> {
    let generated: fn(&mut Rng) -> String = match target {
        "fix-cpp" => ptxguard_fuzz::generate::cuda_file,
        "fix-python" => ptxguard_fuzz::generate::python_file,
        _ => return seeds(root),
    };
    let mut rng = Rng::new(0x5eed);
    (0..1000)
        .map(|_| generated(&mut rng).into_bytes())
        .collect()
}

/// The next input of a run: a seed mutated 1 to 8 times, and which seed it started from. The
/// fuzzing loop, `--nth` and `generate` all draw from the generator in this one order, so a
/// run's Nth input can be rebuilt from its seed.
fn next_input(rng: &mut Rng, seeds: &[Vec<u8>]) -> (usize, Vec<u8>) {
    let first = rng.below(seeds.len());
    let mut input = seeds[first].clone();
    let other = &seeds[rng.below(seeds.len())];
    for _ in 0..1 + rng.below(8) {
        mutate(rng, &mut input, other, MAX_LEN);
    }
    (first, input)
}

/// Writes `count` mutated seeds into `dir`, named by their number, each with the extension of
/// its first seed (`extensions[i]` for `seeds[i]`: Python seeds stay Python).
fn generate(dir: &Path, count: usize, seed: u64, seeds: &[Vec<u8>], extensions: &[&str]) {
    std::fs::create_dir_all(dir).expect("the output folder can be made");
    let mut rng = Rng::new(seed);
    for n in 0..count {
        let (first, input) = next_input(&mut rng, seeds);
        let ext = extensions[first];
        let sub = dir.join(format!("{:03}", n / 1000));
        if n % 1000 == 0 {
            std::fs::create_dir_all(&sub).expect("the output folder can be made");
        }
        std::fs::write(sub.join(format!("m{n}.{ext}")), &input).expect("the file is written");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = std::env::var_os("FUZZ_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."));
    if args.first().map(String::as_str) == Some("generate") {
        let (Some(dir), Some(count)) = (args.get(1), args.get(2).and_then(|c| c.parse().ok()))
        else {
            eprintln!("usage: fuzz generate DIR COUNT [SEED]");
            std::process::exit(2);
        };
        let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
        let seeds = seeds(&root);
        let extensions: Vec<&str> = seeds
            .iter()
            .map(|s| {
                let python = s.starts_with(b"#") || s.windows(7).any(|w| w == b"import ");
                if python {
                    "py"
                } else if s.len() % 5 == 0 {
                    "cuh"
                } else {
                    "cu"
                }
            })
            .collect();
        generate(Path::new(dir), count, seed, &seeds, &extensions);
        return;
    }
    // `fuzz TARGET --nth SEED N FILE`: writes the Nth input of a run with SEED (as its
    // failure file names them) without running anything, to fetch it from another machine's run.
    if args.get(1).map(String::as_str) == Some("--nth") {
        let (Some(seed), Some(n), Some(file)) = (
            args.get(2).and_then(|s| s.parse::<u64>().ok()),
            args.get(3).and_then(|s| s.parse::<u64>().ok()),
            args.get(4),
        ) else {
            eprintln!("usage: fuzz TARGET --nth SEED N FILE");
            std::process::exit(2);
        };
        let seeds = seeds_for(&args[0], &root);
        let mut rng = Rng::new(seed);
        let mut input = Vec::new();
        for _ in 0..n {
            input = next_input(&mut rng, &seeds).1;
        }
        std::fs::write(file, &input).expect("the input is written");
        return;
    }
    // `fuzz TARGET --replay FILE`: one input, timed.
    if args.get(1).map(String::as_str) == Some("--replay") {
        let (target, file) = (&args[0], &args[2]);
        let input = std::fs::read(file).expect("the input file reads");
        let started = Instant::now();
        let result = run_target(target, &input);
        println!("{target}: {:?} in {:?}", result, started.elapsed());
        return;
    }
    let (Some(target), Some(seconds)) = (args.first(), args.get(1).and_then(|s| s.parse().ok()))
    else {
        eprintln!(
            "usage: fuzz TARGET SECONDS [SEED]   (targets: {})",
            TARGETS.join(", ")
        );
        std::process::exit(2);
    };
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    // `FUZZ_KEEP_CURRENT=1`: write each input before running it (slower; for aborts).
    let keep_current = std::env::var_os("FUZZ_KEEP_CURRENT").is_some();
    let seeds = seeds_for(target, &root);
    let out_dir = std::env::var_os("FUZZ_FAILURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/fuzz-failures"))
        .join(target);
    // Panics are reported as failures with their input; the default message would repeat.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !IN_TARGET.get() {
            default_hook(info);
        }
    }));
    let mut rng = Rng::new(seed);
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    // `FUZZ_INPUTS=N`: stop after N inputs (a campaign of a set size), or at the deadline.
    let most: u64 = std::env::var("FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    // `FUZZ_SKIP=K`: draw the first K inputs without running them, so that several processes
    // can share one seed's run (a failure's number stays its place in the whole run).
    let skip: u64 = std::env::var("FUZZ_SKIP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    for _ in 0..skip {
        next_input(&mut rng, &seeds);
    }
    let (mut inputs, mut failures) = (skip, 0u64);
    let most = most.saturating_add(skip);
    while inputs < most && Instant::now() < deadline {
        let (_, input) = next_input(&mut rng, &seeds);
        // A stack overflow aborts the process: the input it was on is left here.
        if keep_current {
            let _ = std::fs::create_dir_all(&out_dir);
            let _ = std::fs::write(out_dir.join("current.in"), &input);
        }
        let started = Instant::now();
        let cpu_before = cpu_time();
        IN_TARGET.set(true);
        let result = std::panic::catch_unwind(|| run_target(target, &input));
        IN_TARGET.set(false);
        let took = started.elapsed();
        inputs += 1;
        let failure = match result {
            Err(payload) => Some(
                payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".into()),
            ),
            Ok(Err(broken)) => Some(broken),
            // Wall time first (cheap), then the CPU time the process spent: under `nice` on a
            // busy machine, wall time alone flags inputs that are not slow.
            Ok(Ok(())) if took > SLOW && cpu_time().saturating_sub(cpu_before) > SLOW => {
                Some(format!("slow: {took:?} for {} bytes", input.len()))
            }
            Ok(Ok(())) => None,
        };
        if let Some(why) = failure {
            failures += 1;
            let _ = std::fs::create_dir_all(&out_dir);
            let name = out_dir.join(format!("{target}-{seed}-{inputs}.in"));
            let _ = std::fs::write(&name, &input);
            eprintln!("{target}: FAILURE ({why}): {}", name.display());
        }
    }
    println!(
        "{target}: {} inputs, {failures} failures (seed {seed}, {seconds} s)",
        inputs - skip
    );
    std::process::exit(i32::from(failures > 0));
}
