//! A gate that can be trusted with its inputs (issue 23, items 1-3): a run that checks
//! nothing fails, a byte order mark hides nothing, binary files are treated one way, one
//! broken configuration or baseline loses nothing else, and no input blocks or grows
//! without bound.

mod common;

use common::{binary, Run, TestDir};
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A kernel with findings from the real rules on line 3 (`missing-memory-clobber`,
/// `generic-address`).
const KERNEL: &str = "__global__ void k(int *p) {\n  int v;\n  asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n}\n";

/// The real binary, killed after 30 s (reading a FIFO nobody writes blocked forever).
fn binary_within(cwd: &std::path::Path, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxguard"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ptxguard runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ptxguard {args:?} still running after 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// (rule, line, column) of each finding of a JSON run.
fn findings(run: &Run) -> Vec<(String, u64, u64)> {
    let found: Vec<Value> = serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}\n{}", run.stdout, run.stderr);
    });
    found
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn json(dir: &TestDir, file: &str) -> Run {
    binary(
        &dir.path,
        &["check", "--no-config", "--output-format", "json", file],
        None,
    )
}

#[test]
fn a_run_that_checks_no_file_fails() {
    let dir = TestDir::new("nothing-checked");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    dir.write("docs/readme.txt", "asm(\"\");\n");
    for path in ["empty", "docs"] {
        let run = binary(&dir.path, &["check", path], None);
        assert_eq!(run.code, 2, "{path}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("error: no file was checked"),
            "{}",
            run.stderr
        );
        assert!(!run.stdout.contains("All checks passed"), "{}", run.stdout);
        // Machine formats say it too: SARIF's invocation failed.
        let run = binary(
            &dir.path,
            &["check", "--output-format", "sarif", path],
            None,
        );
        assert_eq!(run.code, 2);
        let log: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(
            log["runs"][0]["invocations"][0]["executionSuccessful"],
            false
        );
    }
    // `--force-exclude` removing the only file named.
    dir.write("src/k.cu", KERNEL);
    dir.write("ptxguard.toml", "exclude = [\"src/\"]\n");
    let run = binary(&dir.path, &["check", "--force-exclude", "src/k.cu"], None);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("no file was checked"), "{}", run.stderr);
    // pre-commit names only the changed files, which may all be excluded.
    let run = binary(
        &dir.path,
        &["check", "--force-exclude", "--allow-no-files", "src/k.cu"],
        None,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // A file without asm is a file checked.
    dir.write("plain/x.cu", "int x;\n");
    let run = binary(&dir.path, &["check", "plain"], None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("All checks passed"), "{}", run.stdout);
}

#[test]
fn a_byte_order_mark_hides_nothing() {
    let dir = TestDir::new("bom");
    dir.write("plain.cu", KERNEL);
    dir.write("bom.cu", format!("\u{feff}{KERNEL}"));
    let plain = findings(&json(&dir, "plain.cu"));
    assert!(
        plain.iter().any(|f| f.0 == "missing-memory-clobber"),
        "{plain:?}"
    );
    // The BOM joined `__global__` into one name: the kernel was host code, no finding.
    assert_eq!(findings(&json(&dir, "bom.cu")), plain);

    // A BOM before `#if 0`: the dead code stays dead.
    dir.write("dead.cu", format!("\u{feff}#if 0\n{KERNEL}#endif\n"));
    assert_eq!(findings(&json(&dir, "dead.cu")), []);

    // A fix keeps the BOM and lands on the right bytes.
    let run = binary(
        &dir.path,
        &["check", "--no-config", "--fix", "--exit-zero", "bom.cu"],
        None,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let fixed = std::fs::read(dir.join("bom.cu")).unwrap();
    assert!(fixed.starts_with("\u{feff}__global__".as_bytes()));
    assert!(
        String::from_utf8(fixed).unwrap().contains(": \"memory\")"),
        "the clobber was added"
    );

    // Python reads a BOM as nothing too.
    let py = "import triton.language as tl\n\ndef k(C, offs):\n    tl.inline_asm_elementwise(\"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\", [C + offs * 0], tl.int32, True, 1)\n";
    dir.write("plain.py", py);
    dir.write("bom.py", format!("\u{feff}{py}"));
    let plain = findings(&json(&dir, "plain.py"));
    assert!(!plain.is_empty());
    assert_eq!(findings(&json(&dir, "bom.py")), plain);
}

#[test]
fn binary_files_are_not_checked_whatever_their_bytes() {
    let dir = TestDir::new("binary-one-way");
    // No "asm" in the bytes: this one passed silently.
    dir.write("blob.cu", b"\x7fELF\x02\x01\x01\x00\x00\x00");
    dir.write("k.cu", "int x;\n");
    for args in [&["check", "blob.cu"][..], &["check", "."][..]] {
        let run = binary(&dir.path, args, None);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("error: blob.cu: looks like a binary file"),
            "{}",
            run.stderr
        );
    }
    dir.write("blob.cu", b"asm\x00");
    let run = binary(&dir.path, &["check", "."], None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    // Standard input the same way.
    let run = binary(&dir.path, &["check", "-"], Some(b"\x00\x01"));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("looks like a binary file"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_broken_configuration_in_a_folder_loses_nothing_else() {
    let dir = TestDir::new("broken-config");
    dir.write("ptxguard.toml", "ignore = [\"generic-address\"]\n");
    dir.write("a.cu", KERNEL);
    dir.write("sub/b.cu", KERNEL);
    dir.write("sub/ptxguard.toml", "select = [\n");
    dir.write("sub/deeper/c.cu", KERNEL);
    let run = binary(&dir.path, &["check", "--output-format", "json"], None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("sub/ptxguard.toml:2:1:")
            && run.stderr.contains("were checked with")
            && run.stderr.matches("error:").count() == 1,
        "{}",
        run.stderr
    );
    let found: Vec<Value> = serde_json::from_str(&run.stdout).unwrap();
    let files: Vec<(&str, &str)> = found
        .iter()
        .map(|f| (f["file"].as_str().unwrap(), f["rule"].as_str().unwrap()))
        .collect();
    // Every file checked, the broken folder with the root's configuration.
    for file in ["a.cu", "sub/b.cu", "sub/deeper/c.cu"] {
        assert!(
            files.contains(&(file, "missing-memory-clobber")),
            "{file}: {files:?}"
        );
    }
    assert!(
        !files.iter().any(|(_, rule)| *rule == "generic-address"),
        "{files:?}"
    );
    // No valid configuration above: the defaults.
    std::fs::remove_file(dir.join("ptxguard.toml")).unwrap();
    let run = binary(&dir.path, &["check", "--output-format", "json"], None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("checked with the default settings"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("sub/b.cu") && run.stdout.contains("a.cu"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_broken_baseline_is_an_error_and_every_finding_is_reported() {
    let dir = TestDir::new("broken-baseline");
    dir.write("a.cu", KERNEL);
    dir.write("baseline.json", "{ \"version\": 1, \"findings\": [");
    let run = binary(
        &dir.path,
        &[
            "check",
            "--no-config",
            "--output-format",
            "concise",
            "--baseline",
            "baseline.json",
            "a.cu",
        ],
        None,
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("baseline.json: not a ptxguard baseline")
            && run.stderr.contains("every finding is reported"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("a.cu:3:3: missing-memory-clobber"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_broken_configured_database_is_an_error_and_every_file_is_checked() {
    let dir = TestDir::new("broken-database");
    dir.write("a.cu", KERNEL);
    dir.write(
        "db.json",
        "[\n  {\"directory\": \"/x\",\n   \"file\": 3}\n]\n",
    );
    for args in [
        &[
            "check",
            "--output-format",
            "concise",
            "--compile-commands",
            "db.json",
            "a.cu",
        ][..],
        &["check", "--output-format", "concise", "a.cu"][..],
    ] {
        if args.len() == 4 {
            dir.write("ptxguard.toml", "compile-commands = \"db.json\"\n");
        }
        let run = binary(&dir.path, args, None);
        // The build the user named is not the one checked against: the run says so.
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("error: ")
                && run.stderr.contains("db.json:3:")
                && run.stderr.contains("checked without the database"),
            "{}",
            run.stderr
        );
        assert!(run.stdout.contains("a.cu:3:3:"), "{}", run.stdout);
    }
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_wherever_input_is_read() {
    let dir = TestDir::new("fifo-everywhere");
    dir.write("a.cu", KERNEL);
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let not_regular = "not a regular file (a FIFO, socket or device)";
    for device in ["pipe", "/dev/zero"] {
        // `compile-commands` named in the configuration: checked without it.
        dir.write(
            "ptxguard.toml",
            format!("compile-commands = \"{device}\"\n"),
        );
        let run = binary_within(&dir.path, &["check", "--output-format", "concise", "a.cu"]);
        assert_eq!(run.code, 2);
        assert!(run.stderr.contains(not_regular), "{device}: {}", run.stderr);
        assert!(run.stdout.contains("a.cu:3:3:"), "{}", run.stdout);
        std::fs::remove_file(dir.join("ptxguard.toml")).unwrap();
        // `--baseline`: an error, the findings reported.
        let run = binary_within(
            &dir.path,
            &[
                "check",
                "--output-format",
                "concise",
                "--baseline",
                device,
                "a.cu",
            ],
        );
        assert_eq!(run.code, 2);
        assert!(run.stderr.contains(not_regular), "{device}: {}", run.stderr);
        assert!(run.stdout.contains("a.cu:3:3:"), "{}", run.stdout);
        // `dump`.
        let run = binary_within(&dir.path, &["dump", device]);
        assert_eq!(run.code, 2);
        assert!(run.stderr.contains(not_regular), "{device}: {}", run.stderr);
    }
    // A response file that is a FIFO, and one that names itself, from a database.
    dir.write("self.rsp", "-arch=sm_90a @self.rsp\n");
    dir.write(
        "compile_commands.json",
        format!(
            r#"[{{"directory": "{0}", "file": "a.cu", "command": "nvcc @pipe @self.rsp -c a.cu"}}]"#,
            dir.path.display()
        ),
    );
    let run = binary_within(&dir.path, &["check", "--output-format", "concise", "a.cu"]);
    assert!(
        run.stderr.contains("cannot read response file") && run.stderr.contains(not_regular),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("self.rsp is named again"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("a.cu:3:3:"), "{}", run.stdout);
}
