//! Bad input and failures: files that cannot be read, one file whose analysis fails, bytes
//! kept as they were; what the run then says and how it exits.

mod common;

use common::{binary, check_in, fake_check, TestDir, FAKE_RULES, NON_VOLATILE};
use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::{Diagnostic, SourceFile};
use ptxguard_rules::Options;
use serde_json::Value;
use std::process::{Command, Stdio};

#[cfg(unix)]
#[test]
fn fifos_and_devices_named_on_the_command_line_are_refused_not_read() {
    let dir = TestDir::new("fifo");
    let fifo = dir.join("pipe.cu");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        // Nobody writes the FIFO: reading it would block forever.
        let run = binary(&dir.path, &["check", "pipe.cu"], None);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains("pipe.cu: not a regular file"),
            "{}",
            run.stderr
        );
    }
    // `/dev/zero` reports size 0 and never ends.
    let run = binary(&dir.path, &["check", "/dev/zero"], None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("/dev/zero: not a regular file"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("All checks passed"), "{}", run.stdout);
}

#[test]
fn read_errors_leave_no_all_checks_passed_and_reach_sarif() {
    let dir = TestDir::new("read-errors");
    dir.write("a.cu", "__global__ void k() { asm volatile(\"\"); }\n");
    let run = binary(&dir.path, &["check", "a.cu", "missing.cu"], None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("missing.cu: no such file"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("All checks passed"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("1 error (see above): the run is incomplete."),
        "{}",
        run.stdout
    );

    let run = binary(
        &dir.path,
        &["check", "--output-format", "sarif", "a.cu", "missing.cu"],
        None,
    );
    assert_eq!(run.code, 2);
    let log: Value = serde_json::from_str(&run.stdout).unwrap();
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notes = invocation["toolExecutionNotifications"].as_array().unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["level"], "error");
    assert!(notes[0]["message"]["text"]
        .as_str()
        .unwrap()
        .contains("missing.cu"));
    // A clean run says it succeeded.
    let run = binary(
        &dir.path,
        &["check", "--output-format", "sarif", "a.cu"],
        None,
    );
    let log: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        log["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );
}

#[test]
fn fix_on_standard_input_gives_back_the_bytes_read_when_nothing_is_fixed() {
    let dir = TestDir::new("stdin-bytes");
    for input in [
        &b"int x; // caf\xe9 \xff\xfe\n"[..],
        &b"__global__ void k() { asm volatile(\"\"); } // \xe9\n"[..],
        &b"no newline at the end \x80"[..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ptxguard"))
            .args(["check", "--fix", "-"])
            .current_dir(&dir.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.stdout,
            input,
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn asm_read_as_host_code_gets_a_note_when_nothing_else_is_said() {
    let dir = TestDir::new("host-note");
    dir.write(
        "paste.cpp",
        "void f(int x) { asm(\"mov.u32 %0, 1;\" : \"=r\"(x)); }\n",
    );
    let run = binary(&dir.path, &["check", "paste.cpp"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("note: paste.cpp: 1 asm statement read as host code, not checked"),
        "{}",
        run.stdout
    );
    // Device code: no note.
    dir.write("k.cu", "__global__ void k() { asm volatile(\"\"); }\n");
    let run = binary(&dir.path, &["check", "k.cu"], None);
    assert!(!run.stdout.contains("note:"), "{}", run.stdout);
}

/// The fake engine, except that a file named `boom.cu` panics in it.
fn panics_on_boom(
    file: &SourceFile,
    context: &AnalysisContext,
    options: &Options,
) -> Vec<Diagnostic> {
    if file.path.ends_with("boom.cu") {
        ptxguard_analyzer::phase::enter("rule", "fake-rule");
        panic!("boom");
    }
    fake_check(file, context, options)
}

#[test]
fn a_file_whose_analysis_panics_is_reported_and_the_others_are_checked() {
    let dir = TestDir::new("isolation");
    dir.write("boom.cu", format!("{NON_VOLATILE}\"\");\n"));
    dir.write("fine.cu", format!("{NON_VOLATILE}\"\");\n"));
    let run = check_in(
        &dir.path,
        panics_on_boom,
        &["--output-format", "json", "--no-config", FAKE_RULES, "."],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("boom.cu: internal error in rule fake-rule (boom)"),
        "{}",
        run.stderr
    );
    let found: Vec<Value> = serde_json::from_str(&run.stdout).unwrap();
    let rules: Vec<(&str, &str)> = found
        .iter()
        .map(|f| (f["file"].as_str().unwrap(), f["rule"].as_str().unwrap()))
        .collect();
    assert!(rules.contains(&("boom.cu", "analysis-failed")), "{rules:?}");
    assert!(
        rules.contains(&("fine.cu", "missing-volatile")),
        "{rules:?}"
    );
}

#[test]
fn output_is_the_same_for_one_and_many_threads() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cases");
    let run = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_ptxguard"))
            .args([
                "check",
                "--no-config",
                // Each run analyses: the second must not read the first's results.
                "--no-cache",
                "--output-format",
                "json",
                "--exit-zero",
                ".",
            ])
            .current_dir(&corpus)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let one = run("1");
    assert!(one.len() > 10_000, "the corpus has findings");
    assert_eq!(one, run("4"));
}
