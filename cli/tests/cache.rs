//! The result cache end to end, with the real binary: a second run takes unchanged files'
//! results from `.ptxguard_cache/` (shown by planting a message there), and every input that
//! decides findings (the file, a header it reads, a header appearing earlier on the include
//! path, a `-D`, a target, the configuration) makes the file be checked again. Output is the
//! same with and without the cache; a damaged cache is ignored.

mod common;

use common::TestDir;
use std::path::Path;
use std::process::{Command, Stdio};

const RESULTS: &str = ".ptxguard_cache/results.json";

/// `file:line: rule [severity] message` lines and the exit code.
fn run(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxguard"))
        .args(args)
        .current_dir(cwd)
        .env_remove("CUDAARCHS")
        .env_remove("TORCH_CUDA_ARCH_LIST")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .expect("ptxguard runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn concise(cwd: &Path, extra: &[&str]) -> String {
    let mut args = vec!["check", "--output-format", "concise", "--exit-zero"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run(cwd, &args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    stdout
}

/// A project whose kernel's `#if` is decided by a header on the include path, built for
/// sm_90 with `-Iinclude` (a database in `build/`).
fn project(name: &str, use_bulk_store: u32) -> TestDir {
    let dir = TestDir::new(name);
    dir.write(
        "include/features.cuh",
        format!("#pragma once\n#include \"detail/switches.cuh\"\n#define USE_BULK_STORE {use_bulk_store}\n"),
    );
    dir.write(
        "include/detail/switches.cuh",
        "#pragma once\n#define USE_OLD_PATH 0\n",
    );
    dir.write(
        "src/kernel.cu",
        "#include \"features.cuh\"\n__global__ void k() {\n#if USE_BULK_STORE\n  asm volatile(\"st.bulk.weak.shared::cta [%0], 128, 0;\" :: \"r\"(0) : \"memory\");\n#endif\n#if USE_OLD_PATH\n  asm volatile(\"not.an.instruction %0;\" :: \"r\"(0));\n#endif\n}\n",
    );
    write_database(&dir, "");
    dir
}

fn write_database(dir: &TestDir, extra_flag: &str) {
    let d = dir.path.display();
    dir.write(
        "build/compile_commands.json",
        format!(
            r#"[{{ "directory": "{d}", "arguments": ["nvcc", "-Iinclude", {extra_flag}"-arch=sm_90", "-c", "src/kernel.cu"], "file": "src/kernel.cu" }}]"#
        ),
    );
}

/// The rules of the findings, by line: `4:arch-requirement`.
fn rules_by_line(stdout: &str) -> Vec<String> {
    let mut out: Vec<String> = stdout
        .lines()
        .filter_map(|l| {
            let mut parts = l.splitn(4, ':');
            let _file = parts.next()?;
            let line = parts.next()?;
            let _col = parts.next()?;
            let rule = parts.next()?.trim().split(' ').next()?;
            Some(format!("{line}:{rule}"))
        })
        .collect();
    out.sort();
    out
}

/// Rewrites the cache's results with `edit` and a matching checksum (as ptxguard would have
/// written them), so that what a run prints shows whether it took them from the cache.
fn plant(dir: &TestDir, edit: impl Fn(&str) -> String) {
    let text = dir.read(RESULTS);
    let (head, body) = text.split_once('\n').expect("a head line");
    let body = edit(body);
    let mut words: Vec<&str> = head.splitn(3, ' ').collect();
    let checksum = format!(
        "{:032x}",
        ptxguard_analyzer::source::fingerprint(body.as_bytes())
    );
    words[1] = &checksum;
    dir.write(RESULTS, format!("{}\n{body}", words.join(" ")));
}

const PLANTED: &str = "PLANTED: taken from the cache";

fn plant_message(dir: &TestDir) {
    plant(dir, |body| {
        let start = body.find("\"message\":\"").expect("a stored finding") + 11;
        let end = start + body[start..].find('"').unwrap();
        format!("{}{PLANTED}{}", &body[..start], &body[end..])
    });
}

#[test]
fn unchanged_files_come_from_the_cache_and_a_changed_header_is_checked_again() {
    let dir = project("cache-header", 1);
    let select = ["--select", "arch-requirement,ptx-syntax", "."];
    let cold = concise(&dir.path, &select);
    assert_eq!(rules_by_line(&cold), ["4:arch-requirement"], "{cold}");
    assert!(dir.join(RESULTS).is_file());
    assert_eq!(concise(&dir.path, &select), cold);

    // The second run printed what the cache holds.
    plant_message(&dir);
    assert!(concise(&dir.path, &select).contains(PLANTED));
    // `--no-cache` neither reads it...
    assert!(!concise(&dir.path, &["--no-cache"]).contains(PLANTED));

    // A header two includes away changes: the file is checked again.
    dir.write(
        "include/detail/switches.cuh",
        "#pragma once\n#define USE_OLD_PATH 1\n",
    );
    let after = concise(&dir.path, &select);
    assert!(!after.contains(PLANTED), "{after}");
    assert_eq!(
        rules_by_line(&after),
        ["4:arch-requirement", "7:ptx-syntax"],
        "{after}"
    );

    // The header the file includes directly changes.
    plant_message(&dir);
    dir.write(
        "include/features.cuh",
        "#pragma once\n#include \"detail/switches.cuh\"\n#define USE_BULK_STORE 0\n",
    );
    let after = concise(&dir.path, &select);
    assert_eq!(rules_by_line(&after), ["7:ptx-syntax"], "{after}");
}

/// `#include "features.cuh"` was found on the include path; a file of that name appearing
/// beside the source is the one the compiler takes from then on.
#[test]
fn a_header_appearing_earlier_on_the_search_path_is_seen() {
    let dir = project("cache-shadow", 1);
    let select = ["--select", "arch-requirement", "."];
    assert_eq!(
        rules_by_line(&concise(&dir.path, &select)),
        ["4:arch-requirement"]
    );
    plant_message(&dir);
    assert!(concise(&dir.path, &select).contains(PLANTED));
    dir.write(
        "src/features.cuh",
        "#pragma once\n#define USE_BULK_STORE 0\n",
    );
    let after = concise(&dir.path, &select);
    assert!(rules_by_line(&after).is_empty(), "{after}");
}

#[test]
fn a_define_a_target_or_the_configuration_changing_checks_again() {
    let dir = project("cache-context", 1);
    let select = ["--select", "arch-requirement,ptx-syntax", "."];
    assert_eq!(
        rules_by_line(&concise(&dir.path, &select)),
        ["4:arch-requirement"]
    );

    // A macro only the command line may set (nothing defines it: 0 with a known command).
    dir.write(
        "src/kernel.cu",
        "#include \"features.cuh\"\n__global__ void k() {\n#if USE_BULK_STORE && !DISABLE_BULK\n  asm volatile(\"st.bulk.weak.shared::cta [%0], 128, 0;\" :: \"r\"(0) : \"memory\");\n#endif\n}\n",
    );
    assert_eq!(
        rules_by_line(&concise(&dir.path, &select)),
        ["4:arch-requirement"]
    );
    plant_message(&dir);
    write_database(&dir, "\"-DDISABLE_BULK=1\", ");
    let after = concise(&dir.path, &select);
    assert!(rules_by_line(&after).is_empty(), "{after}");
    write_database(&dir, "");
    assert_eq!(
        rules_by_line(&concise(&dir.path, &select)),
        ["4:arch-requirement"]
    );

    // A target: sm_100a has the instruction.
    plant_message(&dir);
    let after = concise(
        &dir.path,
        &["--target", "sm_100a", "--select", "arch-requirement", "."],
    );
    assert!(rules_by_line(&after).is_empty(), "{after}");

    // The configuration: a severity, then the rule turned off.
    assert!(concise(&dir.path, &["."]).contains("arch-requirement [warning]"));
    plant_message(&dir);
    assert!(concise(&dir.path, &["."]).contains(PLANTED));
    dir.write(
        "ptxguard.toml",
        "[severity]\narch-requirement = \"error\"\n",
    );
    let after = concise(&dir.path, &["."]);
    assert!(
        after.contains("arch-requirement [error]") && !after.contains(PLANTED),
        "{after}"
    );
    dir.write("ptxguard.toml", "ignore = [\"arch-requirement\"]\n");
    let after = concise(&dir.path, &["."]);
    assert!(!after.contains("arch-requirement"), "{after}");
}

/// Every output format prints the same bytes from the cache as from a fresh check.
#[test]
fn output_is_the_same_with_and_without_the_cache() {
    let dir = project("cache-same", 1);
    dir.write(
        "src/other.cu",
        "__global__ void k(int* p) {\n  int v;\n  asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"r\"(p));\n  // ptxguard: allow(missing-volatile)\n  asm volatile(\"membar.gl;\");\n}\n",
    );
    dir.write("src/host.cpp", "void f() { asm(\"nop\"); }\n");
    dir.write("src/bad.cu", b"\xff\xfe asm volatile(\"trap;\");\n");
    for format in [
        "full", "concise", "json", "sarif", "github", "gcc", "rdjson",
    ] {
        let args = ["check", "--output-format", format, "--color", "always", "."];
        let fresh = run(&dir.path, &[&args[..], &["--no-cache"]].concat());
        let cold = run(&dir.path, &args);
        let warm = run(&dir.path, &args);
        assert_eq!(cold, fresh, "{format}");
        assert_eq!(warm, fresh, "{format}");
    }
    let stats = ["check", "--statistics", "."];
    assert_eq!(
        run(&dir.path, &stats),
        run(&dir.path, &[&stats[..], &["--no-cache"]].concat())
    );
}

#[test]
fn a_damaged_cache_is_ignored() {
    let dir = project("cache-damaged", 1);
    let args = ["--select", "arch-requirement", "."];
    let expected = concise(&dir.path, &args);
    assert!(!expected.is_empty());
    // Edited without the checksum following: not used.
    let text = dir.read(RESULTS);
    dir.write(RESULTS, text.replacen("needs sm_100", "needs sm_1000", 1));
    assert_eq!(concise(&dir.path, &args), expected);
    // A planted finding whose rule no longer exists, or whose span is past the file's end.
    plant(&dir, |b| {
        b.replacen("\"arch-requirement\"", "\"no-such-rule\"", 1)
    });
    assert_eq!(concise(&dir.path, &args), expected);
    plant(&dir, |b| b.replacen("\"start\":", "\"start\":99999", 1));
    assert_eq!(concise(&dir.path, &args), expected);
    for garbage in [
        &b""[..],
        b"ptxguard-cache-1",
        b"\xff\x00\n{",
        b"ptxguard-cache-1 0 x\n[]",
    ] {
        dir.write(RESULTS, garbage);
        assert_eq!(concise(&dir.path, &args), expected);
    }
    // A folder where the results file goes: nothing read, nothing written, same output.
    std::fs::remove_file(dir.join(RESULTS)).unwrap();
    std::fs::create_dir(dir.join(RESULTS)).unwrap();
    assert_eq!(concise(&dir.path, &args), expected);
    assert_eq!(concise(&dir.path, &args), expected);
    // A FIFO nobody writes: not waited on.
    std::fs::remove_dir(dir.join(RESULTS)).unwrap();
    let made = Command::new("mkfifo").arg(dir.join(RESULTS)).status();
    if made.is_ok_and(|s| s.success()) {
        assert_eq!(concise(&dir.path, &args), expected);
    } else {
        eprintln!("SKIP: mkfifo is not available; the FIFO case did not run");
    }
}

#[test]
fn no_cache_and_the_config_key_turn_it_off_and_git_ignores_it() {
    let dir = project("cache-off", 1);
    concise(&dir.path, &["--no-cache", "."]);
    assert!(!dir.join(".ptxguard_cache").exists());
    dir.write("ptxguard.toml", "cache = false\n");
    concise(&dir.path, &["."]);
    assert!(!dir.join(".ptxguard_cache").exists());
    // `--fix` and `--diff` never use it.
    std::fs::remove_file(dir.join("ptxguard.toml")).unwrap();
    run(&dir.path, &["check", "--diff", "."]);
    assert!(!dir.join(".ptxguard_cache").exists());
    concise(&dir.path, &["."]);
    assert_eq!(
        dir.read(".ptxguard_cache/.gitignore").lines().last(),
        Some("*")
    );
    // Walking the project does not look inside it.
    let (_, stdout, _) = run(
        &dir.path,
        &["check", "--output-format", "concise", "--statistics", "."],
    );
    assert!(!stdout.contains("ptxguard_cache"), "{stdout}");
}

/// The cache lives beside the configuration file that applies to the working directory.
#[test]
fn the_cache_is_kept_at_the_project_root() {
    let dir = project("cache-root", 1);
    dir.write("ptxguard.toml", "");
    concise(&dir.path.join("src"), &["kernel.cu"]);
    assert!(dir.join(RESULTS).is_file());
    assert!(!dir.join("src/.ptxguard_cache").exists());
}

const STAMPS: &str = ".ptxguard_cache/stamps";

/// A kernel without asm, and one of the same length whose asm lacks its `;` (an error).
const WITHOUT_ASM: &str = "__global__ void k(int* p) { p[0] = 1; /* a long enough comment */ }\n";
const WITH_ASM: &str = "__global__ void k(int* p) { asm volatile(\"trap\"); /* a comment */ }\n";

/// A file read without asm is stamped (its size, times, inode), and a later run does not read
/// it while the stamp holds; any write changes the stamp (the change time, which no tool sets
/// back, included), and the file is read again.
#[test]
fn a_file_stamped_without_asm_is_read_again_once_it_changes() {
    assert_eq!(WITHOUT_ASM.len(), WITH_ASM.len());
    let dir = TestDir::new("cache-stamps");
    dir.write("a.cu", WITHOUT_ASM);
    dir.write("b.cu", WITHOUT_ASM);
    // A name the stamps file could not give back as it is: never stamped.
    dir.write("c\r.cu", WITHOUT_ASM);
    let stamped = |dir: &TestDir| -> Vec<String> {
        let text = std::fs::read_to_string(dir.join(STAMPS)).unwrap_or_default();
        let mut names: Vec<String> = text
            .split_terminator('\n')
            .skip(1)
            .filter_map(|l| l.rsplit('/').next().map(str::to_string))
            .collect();
        names.sort();
        names
    };
    // Written just now: a write in the same tick of the clock could hide, so no stamp yet.
    assert_eq!(concise(&dir.path, &["."]), "All checks passed!\n");
    assert!(stamped(&dir).is_empty(), "{:?}", stamped(&dir));
    std::thread::sleep(std::time::Duration::from_millis(2600));
    assert_eq!(concise(&dir.path, &["."]), "All checks passed!\n");
    assert_eq!(stamped(&dir), ["a.cu", "b.cu"]);
    let before = std::fs::metadata(dir.join("a.cu"))
        .unwrap()
        .modified()
        .unwrap();
    // Same length, the modification time set back: the change time still tells.
    dir.write("a.cu", WITH_ASM);
    std::fs::File::options()
        .write(true)
        .open(dir.join("a.cu"))
        .unwrap()
        .set_modified(before)
        .unwrap();
    assert_eq!(
        std::fs::metadata(dir.join("a.cu")).unwrap().len() as usize,
        WITHOUT_ASM.len()
    );
    let found = concise(&dir.path, &["."]);
    assert!(found.contains("a.cu:1:43: ptx-syntax [error]"), "{found}");
    // b.cu, unchanged, kept its stamp; a.cu now holds asm and has none.
    assert_eq!(stamped(&dir), ["b.cu"]);
    // Identical output with the cache off, and from a damaged stamps file.
    assert_eq!(concise(&dir.path, &["--no-cache", "."]), found);
    let text = dir.read(STAMPS);
    dir.write(STAMPS, text.replacen(" 0 ", " 1 ", 1));
    assert_eq!(concise(&dir.path, &["."]), found);
    dir.write(STAMPS, "ptxguard-stamps-1 0 x\n1 2 3\n");
    assert_eq!(concise(&dir.path, &["."]), found);
}
