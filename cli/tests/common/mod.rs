//! Shared test helpers: temporary trees, a fake engine, in-process and binary runs.
#![allow(dead_code, reason = "each test crate uses some of the helpers")]

use ptxguard::analysis::CheckFn;
use ptxguard::args::{Cli, Command};
use ptxguard::check_cmd::{self, Context};
use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity, SourceFile, Span};
use ptxguard_rules::Options;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A temporary directory removed on drop.
pub(crate) struct TestDir {
    pub path: PathBuf,
}

impl TestDir {
    pub(crate) fn new(name: &str) -> TestDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path =
            std::env::temp_dir().join(format!("ptxguard-test-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        // Canonical, so that paths compare equal to what the tool computes.
        TestDir {
            path: std::fs::canonicalize(&path).unwrap(),
        }
    }

    pub(crate) fn write(&self, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        path
    }

    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path.join(rel)).unwrap()
    }

    pub(crate) fn join(&self, rel: &str) -> PathBuf {
        self.path.join(rel)
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The marker texts the fake engine reports on.
pub(crate) const BAD_ADDRESS: &str = "\"r\"(p32)";
pub(crate) const NON_VOLATILE: &str = "asm(";
pub(crate) const CLOCK: &str = "%clock64";

/// A fake engine with fixed, known findings, so that CLI behaviour is tested apart from the
/// rules:
/// - each `"r"(p32)`: `address-register-width` error, label, note, help, unsafe fix `r` -> `l`;
/// - each `asm(`: `missing-volatile` error with a safe fix inserting ` volatile`;
/// - each `%clock64`: `prefer-intrinsic` info, no fix.
pub(crate) fn fake_check(file: &SourceFile, _: &AnalysisContext, _: &Options) -> Vec<Diagnostic> {
    let text = &file.text;
    let mut out = Vec::new();
    for (at, _) in text.match_indices(BAD_ADDRESS) {
        out.push(
            Diagnostic::new(
                "address-register-width",
                Severity::Error,
                Span::new(at, at + 3),
                "a 32-bit `r` operand is the address of a 64-bit `.global` access",
            )
            .with_label(Span::new(at + 4, at + 7), "this is a 64-bit pointer")
            .with_note("ptxas reads the upper half of the address from an undefined register")
            .with_help("pass the pointer with `l`")
            .with_fix(Fix::unsafe_(
                "use `l`",
                vec![Edit::replace(Span::new(at + 1, at + 2), "l")],
            )),
        );
    }
    for (at, _) in text.match_indices(NON_VOLATILE) {
        out.push(
            Diagnostic::new(
                "missing-volatile",
                Severity::Error,
                Span::new(at, at + 3),
                "an asm with side effects and outputs is not `volatile`",
            )
            .with_fix(Fix::safe(
                "add `volatile`",
                vec![Edit::insert(at + 3, " volatile")],
            )),
        );
    }
    for (at, _) in text.match_indices(CLOCK) {
        out.push(Diagnostic::new(
            "prefer-intrinsic",
            Severity::Info,
            Span::new(at, at + CLOCK.len()),
            "`%clock64` has an intrinsic: `clock64()`",
        ));
    }
    out
}

/// Like [`fake_check`], and a `ptx-syntax` error on every `asm volatile(`: the safe fix of
/// `missing-volatile` then brings in a new error.
pub(crate) fn breaking_check(
    file: &SourceFile,
    context: &AnalysisContext,
    options: &Options,
) -> Vec<Diagnostic> {
    let mut out = fake_check(file, context, options);
    for (at, _) in file.text.match_indices("asm volatile(") {
        out.push(Diagnostic::new(
            "ptx-syntax",
            Severity::Error,
            Span::new(at, at + 3),
            "made-up error for the rollback test",
        ));
    }
    out
}

/// The fake's rules, enabled whatever their defaults become.
pub(crate) const FAKE_RULES: &str =
    "--extend-select=address-register-width,missing-volatile,prefer-intrinsic,ptx-syntax";

pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `ptxguard check ARGS` in-process with `cwd` as the working directory.
pub(crate) fn check_in(cwd: &Path, check: CheckFn, args: &[&str]) -> Run {
    check_with_stdin(cwd, check, args, b"")
}

pub(crate) fn check_with_stdin(cwd: &Path, check: CheckFn, args: &[&str], stdin: &[u8]) -> Run {
    let mut argv = vec!["ptxguard", "check"];
    argv.extend_from_slice(args);
    let cli = <Cli as clap::Parser>::try_parse_from(&argv).expect("valid arguments");
    let Command::Check(check_args) = cli.command else {
        unreachable!()
    };
    let mut stdin = stdin;
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let code = {
        let mut ctx = Context {
            cwd: cwd.to_path_buf(),
            check,
            stdin: &mut stdin,
            stdout: &mut stdout,
            stderr: &mut stderr,
            stdout_is_terminal: false,
            // The fake engines' results are not the engine's: never cached.
            cache: false,
        };
        check_cmd::run(&check_args, &mut ctx)
    };
    Run {
        code,
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

/// Runs the real `ptxguard` binary.
pub(crate) fn binary(cwd: &Path, args: &[&str], stdin: Option<&[u8]>) -> Run {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ptxguard"))
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ptxguard runs");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Compares with `cli/tests/golden/NAME`; `UPDATE_GOLDEN=1` rewrites it.
pub(crate) fn assert_golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing golden file {}; run with UPDATE_GOLDEN=1",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "output differs from {}\n--- expected\n{expected}\n--- actual\n{actual}\n(run with UPDATE_GOLDEN=1 to accept)",
            path.display()
        );
    }
}

/// A test that cannot run here (a tool is missing) says so where it is seen: libtest hides
/// what a passing test prints, so the line goes to the process's stderr itself. Where the
/// tool is expected (`.ci/run` sets `required_by` to `1` after installing it), a skip is a
/// failure instead of a silent `ok`.
pub(crate) fn skip(test: &str, why: &str, required_by: &str) {
    if std::env::var_os(required_by).is_some_and(|v| v == "1") {
        panic!("{test} cannot run ({why}), but {required_by}=1 says it must");
    }
    use std::io::Write;
    // Not `eprintln!`: the test harness captures that.
    let _ = writeln!(std::io::stderr().lock(), "SKIP {test}: {why}");
}

#[cfg(unix)]
const FAKE_NVCC: &str = r#"#!/bin/sh
if [ "$1" = "--version" ]; then
  echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0
fi
out=""; prev=""; src=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a; src=$a
done
echo "cwd=$(pwd) args=$*" >> "$(dirname "$0")/calls.log"
if grep -q '"r"((unsigned)(size_t)' "$src"; then
  echo "ptxas fatal   : 32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90 or higher architectures." >&2
  exit 1
fi
cp "$src" "$out"
"#;

#[cfg(unix)]
const FAKE_CUOBJDUMP: &str = r#"#!/bin/sh
cubin=$2
echo "	code for sm_90"
echo "		Function : _Z5countPj"
echo "        /*0000*/                   LDC R1, c[0x0][0x28] ;"
if grep -q 'asm volatile' "$cubin" && ! grep -q 'compiled the same' "$cubin"; then
  echo "        /*0010*/                   ATOM.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R7 ;"
fi
echo "        /*0020*/                   EXIT ;"
"#;

/// A stand-in CUDA toolkit under `dir/cuda/bin` (CI has no CUDA): an `nvcc` that records how
/// it was called (`calls.log`) and fails where a real ptxas would, and a `cuobjdump` that
/// prints machine code recorded with nvcc 13.0 (`missing-volatile/bad-deleted-atomic.cu`: the
/// atomic is there only when the asm is `volatile`). Returns the nvcc's path.
#[cfg(unix)]
#[allow(dead_code, reason = "used by some test crates only")]
pub(crate) fn fake_toolkit(dir: &TestDir) -> String {
    use std::os::unix::fs::PermissionsExt;
    for (name, text) in [("nvcc", FAKE_NVCC), ("cuobjdump", FAKE_CUOBJDUMP)] {
        let p = dir.write(&format!("cuda/bin/{name}"), text);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir.join("cuda/bin/nvcc").display().to_string()
}
