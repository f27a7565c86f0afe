//! `--fix`, `--unsafe-fixes`, `--diff`: what is applied, convergence, rollback, atomic writes.

mod common;

use common::{breaking_check, check_in, check_with_stdin, fake_check, TestDir, FAKE_RULES};
use std::os::unix::fs::PermissionsExt;

const KERNEL: &str =
    "__device__ void f(unsigned* p32) {\n  asm(\"st.global.u32 [%0], 1;\" :: \"r\"(p32));\n}\n";

fn fix(dir: &TestDir, args: &[&str]) -> common::Run {
    let mut all = vec!["--no-config", FAKE_RULES, "--output-format", "concise"];
    all.extend_from_slice(args);
    check_in(&dir.path, fake_check, &all)
}

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn fix_applies_safe_fixes_only_and_reports_the_rest() {
    let dir = TestDir::new("fix-safe");
    dir.write("k.cu", KERNEL);
    let run = fix(&dir, &["--fix"]);
    assert_eq!(dir.read("k.cu"), KERNEL.replace("asm(", "asm volatile("));
    assert_eq!(run.code, 1, "the unsafe one remains");
    assert!(
        run.stdout.contains("address-register-width"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("missing-volatile"), "{}", run.stdout);
    assert!(
        run.stdout.contains("Fixed 1 finding in 1 file."),
        "{}",
        run.stdout
    );
}

#[test]
fn unsafe_fixes_add_the_others() {
    let dir = TestDir::new("fix-unsafe");
    dir.write("k.cu", KERNEL);
    let run = fix(&dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        dir.read("k.cu"),
        KERNEL
            .replace("asm(", "asm volatile(")
            .replace("\"r\"(p32)", "\"l\"(p32)")
    );
}

#[test]
fn fixes_converge_so_a_second_fix_changes_nothing() {
    let dir = TestDir::new("fix-converge");
    // Three statements on one line: their fixes touch each other's neighbourhood.
    let text = "asm(\"\");asm(\"\");asm(\"\" :: \"r\"(p32));\n";
    dir.write("k.cu", text);
    fix(&dir, &["--fix", "--unsafe-fixes"]);
    let once = dir.read("k.cu");
    assert_eq!(
        once,
        "asm volatile(\"\");asm volatile(\"\");asm volatile(\"\" :: \"l\"(p32));\n"
    );
    let second = fix(&dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(dir.read("k.cu"), once);
    assert_eq!(second.code, 0);
    assert!(!second.stdout.contains("Fixed"));
}

#[test]
fn diff_prints_and_writes_nothing() {
    let dir = TestDir::new("diff");
    dir.write("k.cu", KERNEL);
    let run = fix(&dir, &["--diff"]);
    assert_eq!(dir.read("k.cu"), KERNEL);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "--- a/k.cu\n+++ b/k.cu\n@@ -1,3 +1,3 @@\n __device__ void f(unsigned* p32) {\n-  asm(\"st.global.u32 [%0], 1;\" :: \"r\"(p32));\n+  asm volatile(\"st.global.u32 [%0], 1;\" :: \"r\"(p32));\n }\n"
    );
    assert!(
        run.stderr.contains("1 fix would be applied to 1 file."),
        "{}",
        run.stderr
    );
    // Nothing to fix: no diff, exit 0.
    dir.write("k.cu", "int x; // asm\n");
    let run = fix(&dir, &["--diff"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
}

#[test]
fn a_fix_that_brings_a_new_error_is_rolled_back_and_named() {
    let dir = TestDir::new("rollback");
    dir.write("k.cu", KERNEL);
    let run = check_in(
        &dir.path,
        breaking_check,
        &[
            "--no-config",
            FAKE_RULES,
            "--fix",
            "--output-format",
            "concise",
        ],
    );
    assert_eq!(dir.read("k.cu"), KERNEL, "left as it was");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "k.cu:2:3: the fix \"add `volatile`\" for missing-volatile introduced a new error (ptx-syntax: made-up error for the rollback test); the file was left unchanged"
        ),
        "{}",
        run.stderr
    );
    // The findings are still reported.
    assert!(run.stdout.contains("missing-volatile"));
}

#[test]
fn writes_are_atomic_and_keep_permissions_and_links() {
    let dir = TestDir::new("atomic");
    let path = dir.write("real.cu", KERNEL);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink("real.cu", dir.join("link.cu")).unwrap();
    let run = fix(&dir, &["--fix", "link.cu"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(std::fs::symlink_metadata(dir.join("link.cu"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(dir.read("real.cu"), KERNEL.replace("asm(", "asm volatile("));
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(
        files_in(&dir.path),
        ["link.cu", "real.cu"],
        "no temporary file left"
    );
}

#[test]
fn unwritable_directory_is_an_error_and_the_file_is_intact() {
    if is_root() {
        eprintln!("SKIP: running as root, permissions are not enforced");
        return;
    }
    let dir = TestDir::new("readonly");
    dir.write("ro/k.cu", KERNEL);
    std::fs::set_permissions(dir.join("ro"), std::fs::Permissions::from_mode(0o555)).unwrap();
    let run = fix(&dir, &["--fix"]);
    std::fs::set_permissions(dir.join("ro"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("cannot write the fixes"),
        "{}",
        run.stderr
    );
    assert_eq!(dir.read("ro/k.cu"), KERNEL);
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}

#[test]
fn fix_on_stdin_prints_the_fixed_text() {
    let dir = TestDir::new("stdin-fix");
    let run = check_with_stdin(
        &dir.path,
        fake_check,
        &[
            "--no-config",
            FAKE_RULES,
            "--fix",
            "--stdin-filename",
            "k.cu",
            "-",
        ],
        KERNEL.as_bytes(),
    );
    assert_eq!(run.stdout, KERNEL.replace("asm(", "asm volatile("));
    assert!(
        run.stderr.contains("address-register-width"),
        "{}",
        run.stderr
    );
    assert_eq!(run.code, 1);
}

#[test]
fn files_that_are_not_utf8_are_checked_but_not_fixed() {
    let dir = TestDir::new("latin1");
    let mut bytes = b"// caf\xe9\n".to_vec();
    bytes.extend_from_slice(KERNEL.as_bytes());
    dir.write("k.cu", &bytes);
    let run = fix(&dir, &["--fix"]);
    assert_eq!(std::fs::read(dir.join("k.cu")).unwrap(), bytes);
    assert!(
        run.stderr.contains("k.cu:1:7: not valid UTF-8"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("not fixed"), "{}", run.stderr);
    assert_eq!(run.code, 1);
}
