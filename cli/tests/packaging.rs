//! Packaging, end to end with the real tools: the Python wheel (scripts/build-wheel.sh)
//! installed into a fresh virtual environment, and the pre-commit hooks installing ptxguard
//! themselves (`pre-commit try-repo` on this checkout). maturin and pre-commit are installed
//! from PyPI into target/tmp/packaging-tools; without python3, or when pip cannot install
//! them, the tests print SKIP. The binary is built with the `packaging-test` profile (fast).

mod common;

use common::TestDir;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The workspace's target directory (the parent of the tests' scratch directory).
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(command: &mut Command) -> Output {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A virtual environment with maturin and pre-commit, made once and shared by the tests.
fn tools() -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("packaging-tools");
    let lock = std::fs::File::create(dir.with_extension("lock")).map_err(|e| e.to_string())?;
    lock.lock().map_err(|e| e.to_string())?;
    if dir.join("bin/maturin").is_file() && dir.join("bin/pre-commit").is_file() {
        return Ok(dir);
    }
    let venv = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&dir)
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if !venv.status.success() {
        return Err(format!(
            "python3 -m venv failed: {}",
            String::from_utf8_lossy(&venv.stderr)
        ));
    }
    let pip = run(Command::new(dir.join("bin/pip")).args([
        "install",
        "--quiet",
        "maturin>=1.5,<2",
        "pre-commit>=3.2",
    ]));
    if pip.code != 0 {
        return Err(format!(
            "pip could not install maturin and pre-commit: {}",
            pip.stderr
        ));
    }
    Ok(dir)
}

/// PATH with the tools first.
fn path_with(tools: &Path) -> std::ffi::OsString {
    let mut paths = vec![tools.join("bin")];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap()
}

/// The two tests build into the same `target/packaging-test/`, where cargo replaces the binary
/// of one build with the other's (pre-commit builds from its own copy of the sources): one at a
/// time.
static ONE_BUILD_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

macro_rules! tools_or_skip {
    () => {
        match tools() {
            Ok(t) => t,
            Err(e) => {
                common::skip("packaging", &e, "PTXGUARD_REQUIRE_PACKAGING_TOOLS");
                return;
            }
        }
    };
}

#[test]
fn wheel_installs_into_a_fresh_venv_and_checks_the_examples() {
    let tools = tools_or_skip!();
    let _one = ONE_BUILD_AT_A_TIME
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let scratch = TestDir::new("wheel");
    let wheels = scratch.join("wheels");
    let start = Instant::now();
    let build = run(Command::new(repo_root().join("scripts/build-wheel.sh"))
        .arg(&wheels)
        .env("PATH", path_with(&tools))
        .env("PTXGUARD_PROFILE", "packaging-test")
        .env("CARGO_TARGET_DIR", target_dir()));
    assert_eq!(build.code, 0, "{}\n{}", build.stdout, build.stderr);
    eprintln!("wheel built in {:.0?}", start.elapsed());
    let wheel = std::fs::read_dir(&wheels)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .expect("a wheel");
    // One version: the workspace's, in the wheel's name and in `--version`.
    let version = env!("CARGO_PKG_VERSION");
    let name = wheel.file_name().unwrap().to_str().unwrap().to_string();
    assert!(name.starts_with(&format!("ptxguard-{version}-")), "{name}");

    let venv = scratch.join("venv");
    assert_eq!(
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv)).code,
        0
    );
    let install = run(Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--no-index"])
        .arg(&wheel));
    assert_eq!(install.code, 0, "{}", install.stderr);
    let installed = venv.join("bin/ptxguard");
    assert!(
        installed.is_file(),
        "pip put no ptxguard in {}",
        venv.display()
    );
    let v = run(Command::new(&installed).arg("--version"));
    assert_eq!(v.stdout.trim(), format!("ptxguard {version}"));

    // The installed binary checks the examples exactly as the one built by cargo.
    let args = [
        "check",
        "--output-format",
        "concise",
        "--no-config",
        "examples/",
    ];
    let from_wheel = run(Command::new(&installed).args(args).current_dir(repo_root()));
    let from_cargo = run(Command::new(env!("CARGO_BIN_EXE_ptxguard"))
        .args(args)
        .current_dir(repo_root()));
    assert_eq!(from_wheel.code, 1, "{}", from_wheel.stderr);
    assert!(
        from_wheel
            .stdout
            .contains("examples/histogram.cu:7:54: address-register-width [error]"),
        "{}",
        from_wheel.stdout
    );
    assert_eq!(from_wheel.stdout, from_cargo.stdout);
}

/// One finding, fixed by the safe fix: `%laneid` must be `%%laneid` in an asm with operands
/// (a warning: the project's configuration asks for clang portability).
const BAD_KERNEL: &str = r#"__device__ unsigned lane() {
  unsigned id;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(id));
  return id;
}
"#;

fn git(dir: &Path, args: &[&str]) {
    let out = run(Command::new("git").args(args).current_dir(dir));
    assert_eq!(out.code, 0, "git {args:?}: {}", out.stderr);
}

#[test]
fn pre_commit_installs_the_hook_fails_on_a_bad_file_and_passes_after_the_fix() {
    let tools = tools_or_skip!();
    let _one = ONE_BUILD_AT_A_TIME
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let scratch = TestDir::new("pre-commit");
    let repo = scratch.join("project");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("kernel.cu"), BAD_KERNEL).unwrap();
    std::fs::write(repo.join("notes.txt"), "asm(\"not CUDA\");\n").unwrap();
    std::fs::write(repo.join("ptxguard.toml"), "portability = [\"clang\"]\n").unwrap();
    git(&repo, &["add", "."]);

    // Both hooks from this checkout, in the order of .pre-commit-hooks.yaml: `ptxguard`, then
    // `ptxguard-fix`.
    let try_repo = || {
        let start = Instant::now();
        let out = run(Command::new(tools.join("bin/pre-commit"))
            .args(["try-repo"])
            .arg(repo_root())
            .args(["--all-files", "--color", "never"])
            .current_dir(&repo)
            .env("PATH", path_with(&tools))
            .env("PRE_COMMIT_HOME", scratch.join("cache"))
            .env("MATURIN_PEP517_ARGS", "--profile packaging-test")
            .env("CARGO_TARGET_DIR", target_dir())
            .env_remove("PTXGUARD_PROFILE"));
        eprintln!("pre-commit try-repo: {:.0?}", start.elapsed());
        out
    };
    let first = try_repo();
    let log = format!("{}\n{}", first.stdout, first.stderr);
    assert_eq!(first.code, 1, "{log}");
    assert!(
        log.contains("kernel.cu:3:29: percent-escape [warning]"),
        "{log}"
    );
    assert!(!log.contains("notes.txt"), "{log}");
    assert!(log.contains("files were modified by this hook"), "{log}");
    let fixed = std::fs::read_to_string(repo.join("kernel.cu")).unwrap();
    assert!(fixed.contains("\"mov.u32 %0, %%laneid;\""), "{fixed}");

    let second = try_repo();
    let log = format!("{}\n{}", second.stdout, second.stderr);
    assert_eq!(second.code, 0, "{log}");
    assert_eq!(log.matches("Passed").count(), 2, "{log}");
}
