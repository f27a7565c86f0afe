//! The real `ptxguard` binary: exit codes, bad input, stdin, walking, subcommands.
//!
//! Findings here come from `unused-suppression` on made-up rule names, which the CLI reports
//! whatever the rules do, in files whose only `asm` is in a comment.

mod common;

use common::{binary, TestDir};

/// A finding that does not depend on the rules: an allow naming a rule that does not exist.
const UNKNOWN_ALLOW: &str = "// no asm statement here\nint x; // ptxguard: allow(no-such-rule)\n";
const CLEAN: &str = "// asm-free\nint x;\n";

#[test]
fn exit_codes() {
    let dir = TestDir::new("exit");
    dir.write("clean.cu", CLEAN);
    assert_eq!(binary(&dir.path, &["check"], None).code, 0);

    dir.write("bad.cu", UNKNOWN_ALLOW);
    let run = binary(&dir.path, &["check"], None);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("warning[unused-suppression]: unknown rule `no-such-rule`"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Found 1 finding (1 warning)."),
        "{}",
        run.stdout
    );

    assert_eq!(binary(&dir.path, &["check", "--exit-zero"], None).code, 0);
    assert_eq!(
        binary(&dir.path, &["check", "--fail-on", "error"], None).code,
        0
    );
    assert_eq!(
        binary(&dir.path, &["check", "--fail-on", "info"], None).code,
        1
    );

    // Usage errors.
    assert_eq!(
        binary(&dir.path, &["check", "--output-format", "xml"], None).code,
        2
    );
    assert_eq!(
        binary(&dir.path, &["check", "--no-such-flag"], None).code,
        2
    );
    assert_eq!(binary(&dir.path, &["frobnicate"], None).code, 2);
    assert_eq!(
        binary(&dir.path, &["check", "--fix", "--diff"], None).code,
        2
    );

    // I/O errors win over findings, and the other files are still checked.
    let run = binary(
        &dir.path,
        &[
            "check",
            "--output-format",
            "concise",
            "missing.cu",
            "bad.cu",
        ],
        None,
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("error: missing.cu: no such file or directory"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("bad.cu:2:"), "{}", run.stdout);
    // ...and --exit-zero does not hide them.
    assert_eq!(
        binary(&dir.path, &["check", "--exit-zero", "missing.cu"], None).code,
        2
    );
}

#[test]
fn bad_input_is_reported_and_never_panics() {
    let dir = TestDir::new("bad-input");
    dir.write("src/binary.cu", b"asm\x00\x01\x02\x7fELF");
    dir.write(
        "src/latin1.cu",
        b"// caf\xe9 asm\nint x; // ptxguard: allow(no-such-rule)\n",
    );
    dir.write(
        "src/unterminated.cu",
        "asm volatile(\"ld.global.u32 %0, [%1\n/* open comment\n",
    );
    dir.write(
        "src/halftyped.cuh",
        "__device__ void f() { asm(\"mov.u32 %0,\" : \"=r\"(",
    );
    dir.write("src/empty.cu", "");
    dir.write(
        "src/nul-late.cu",
        format!("asm(\"\");{}\0", " ".repeat(9000)),
    );
    let run = binary(
        &dir.path,
        &["check", "--output-format", "concise", "src"],
        None,
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("src/binary.cu: looks like a binary file"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("src/latin1.cu:1:7: not valid UTF-8"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("src/latin1.cu:2:"), "{}", run.stdout);
    // The binary file was not checked: the run says so, in its summary and its exit code.
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("error: src/binary.cu: looks like a binary file"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("All checks passed"), "{}", run.stdout);
    assert!(
        run.stdout.contains("the run is incomplete"),
        "{}",
        run.stdout
    );
    // A file that is only not valid UTF-8 is checked: a warning, not an error.
    let run = binary(
        &dir.path,
        &["check", "--output-format", "concise", "src/latin1.cu"],
        None,
    );
    assert_ne!(run.code, 2, "warnings are not errors: {}", run.stderr);

    // A directory named explicitly is walked.
    let run = binary(
        &dir.path,
        &[
            "check",
            "--output-format",
            "concise",
            "-q",
            "--select",
            "unused-suppression",
            "src",
        ],
        None,
    );
    assert!(run.stdout.contains("latin1.cu"), "{}", run.stdout);
}

#[cfg(unix)]
#[test]
fn unreadable_files_are_errors() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TestDir::new("unreadable");
    let path = dir.write("secret.cu", UNKNOWN_ALLOW);
    dir.write("ok.cu", UNKNOWN_ALLOW);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&path).is_ok() {
        eprintln!("SKIP: running as root, permissions are not enforced");
        return;
    }
    let run = binary(&dir.path, &["check", "--output-format", "concise"], None);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("secret.cu: cannot read: permission denied"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("ok.cu:2:"));
}

#[test]
fn stdin_with_a_file_name() {
    let dir = TestDir::new("stdin");
    dir.write(
        "sub/ptxguard.toml",
        "[severity]\nunused-suppression = \"error\"\n",
    );
    let run = binary(
        &dir.path,
        &[
            "check",
            "--output-format",
            "concise",
            "--stdin-filename",
            "sub/k.cu",
            "-",
        ],
        Some(UNKNOWN_ALLOW.as_bytes()),
    );
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout.lines().next().unwrap(),
        "sub/k.cu:2:27: unused-suppression [error] unknown rule `no-such-rule` (`ptxguard rules` lists them)"
    );
    let anonymous = binary(
        &dir.path,
        &["check", "--output-format", "gcc", "-"],
        Some(UNKNOWN_ALLOW.as_bytes()),
    );
    assert!(
        anonymous.stdout.starts_with("-:2:27: warning:"),
        "{}",
        anonymous.stdout
    );
}

#[test]
fn walking_respects_gitignore_and_hidden_files() {
    let dir = TestDir::new("walk");
    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&dir.path)
        .status();
    if !git.is_ok_and(|s| s.success()) {
        eprintln!("SKIP: git is not available");
        return;
    }
    dir.write(".gitignore", "build/\n");
    dir.write("build/gen.cu", UNKNOWN_ALLOW);
    dir.write(".hidden/h.cu", UNKNOWN_ALLOW);
    dir.write("src/k.cu", UNKNOWN_ALLOW);
    dir.write("src/notes.txt", UNKNOWN_ALLOW);
    let run = binary(
        &dir.path,
        &["check", "--output-format", "concise", "-q"],
        None,
    );
    let files: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(files, ["src/k.cu"]);
}

#[test]
fn rules_and_rule() {
    let dir = TestDir::new("rules");
    let run = binary(&dir.path, &["rules"], None);
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("RULE"));
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("unused-suppression "))
        .unwrap();
    assert!(
        line.contains("warning") && line.contains("safe") && line.contains("on"),
        "{line}"
    );
    let json = binary(&dir.path, &["rules", "--json"], None);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert!(value
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["name"] == "unused-suppression"));

    let doc = binary(&dir.path, &["rule", "unused-suppression"], None);
    assert_eq!(doc.code, 0);
    assert!(
        doc.stdout.starts_with("# unused-suppression\n"),
        "{}",
        doc.stdout
    );
    assert!(doc.stdout.contains("## Fix"));

    let typo = binary(&dir.path, &["rule", "unused-supression"], None);
    assert_eq!(typo.code, 2);
    assert_eq!(
        typo.stderr.trim(),
        "error: unknown rule `unused-supression`; did you mean `unused-suppression`?"
    );
}

#[test]
fn every_registered_rule_has_docs_reachable_from_the_cli() {
    let dir = TestDir::new("rule-docs");
    for rule in ptxguard::registry::known_rules() {
        let run = binary(&dir.path, &["rule", rule.name], None);
        assert_eq!(run.code, 0, "{}", rule.name);
        assert!(run.stdout.contains(rule.name));
    }
}

#[test]
fn dump_runs() {
    let dir = TestDir::new("dump");
    dir.write("k.cu", "__device__ void f() { asm volatile(\"trap;\"); }\n");
    let run = binary(&dir.path, &["dump", "k.cu"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.is_empty());
    assert_eq!(binary(&dir.path, &["dump", "missing.cu"], None).code, 2);
}

/// Runs the binary in `dir`, reads a few bytes of its output and closes the pipe while it is
/// still writing (more than a pipe holds); its exit code and standard error.
#[cfg(target_os = "linux")]
fn closed_early(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ptxguard"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    (child.wait().expect("wait").code(), stderr)
}

/// A reader that stops early (`dump | head`, `check | head`) ends the run quietly, a check with
/// the exit code its findings give; a full disk fails a check whose whole output was still
/// buffered (Linux: `/dev/full`).
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written() {
    let dir = TestDir::new("closed-output");
    let body: String = (0..2000)
        .map(|i| format!("__device__ void f{i}() {{ asm volatile(\"trap;\"); }}\n"))
        .collect();
    dir.write("k.cu", &body);
    let (code, stderr) = closed_early(&dir.path, &["dump", "k.cu"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let allows: String = (0..3000)
        .map(|i| format!("int x{i}; // ptxguard: allow(no-such-rule)\n"))
        .collect();
    dir.write("many.cu", format!("// no asm statement here\n{allows}"));
    let (code, stderr) = closed_early(
        &dir.path,
        &["check", "--no-config", "--no-cache", "many.cu"],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");

    dir.write("u.cu", UNKNOWN_ALLOW);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ptxguard"))
        .args(["check", "--no-config", "--no-cache", "u.cu"])
        .current_dir(&dir.path)
        .stdout(full)
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
}

/// `--config` naming a folder or a FIFO says so (a FIFO is never opened: it could block).
#[cfg(unix)]
#[test]
fn config_that_is_not_a_file() {
    let dir = TestDir::new("config-not-a-file");
    dir.write("k.cu", CLEAN);
    let fifo = dir.path.join("fifo.toml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    for (config, says) in [
        ("fifo.toml", "not a regular file"),
        (".", "is a directory"),
        ("missing.toml", "no such file"),
    ] {
        let run = binary(&dir.path, &["check", "--config", config, "k.cu"], None);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(says), "{config}: {}", run.stderr);
    }
}

#[test]
fn statistics_and_write_baseline_through_the_binary() {
    let dir = TestDir::new("bin-stats");
    dir.write("a.cu", UNKNOWN_ALLOW);
    dir.write("b.cu", UNKNOWN_ALLOW);
    let run = binary(&dir.path, &["check", "--statistics"], None);
    assert!(
        run.stdout.starts_with("     2  [*] unused-suppression\n"),
        "{}",
        run.stdout
    );
    let write = binary(&dir.path, &["check", "--write-baseline", "b.json"], None);
    assert_eq!(write.code, 0);
    assert_eq!(
        binary(&dir.path, &["check", "--baseline", "b.json"], None).code,
        0
    );
}

#[test]
fn confirm_without_a_toolkit_says_so_and_exits_2() {
    let dir = TestDir::new("confirm-none");
    dir.write(
        "k.cu",
        "__global__ void k(int *p) { asm volatile(\"st.global.u32 [%0], 1;\" :: \"l\"(p)); }\n",
    );
    let run = binary(
        &dir.path,
        &["confirm", "--nvcc", "no/such/nvcc", "k.cu"],
        None,
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("no/such/nvcc: no such file"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("Nothing was confirmed."),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);

    // Where this machine has no NVRTC (CI), asking for it is the same clear refusal.
    if !ptxguard_toolchain::nvrtc::nvrtc_available() {
        let run = binary(&dir.path, &["confirm", "--nvrtc", "k.cu"], None);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("NVRTC (libnvrtc) not found"),
            "{}",
            run.stderr
        );
    }
}
