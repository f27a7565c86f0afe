//! `--write-baseline` and `--baseline`.

mod common;

use common::{check_in, fake_check, TestDir, FAKE_RULES};
use serde_json::Value;

const ORIGINAL: &str =
    "__device__ void f(unsigned* p32) {\n  asm(\"st.global.u32 [%0], 1;\" :: \"r\"(p32));\n}\n";

fn concise(dir: &TestDir, args: &[&str]) -> common::Run {
    let mut all = vec![
        "--output-format",
        "concise",
        "-q",
        "--no-config",
        FAKE_RULES,
    ];
    all.extend_from_slice(args);
    check_in(&dir.path, fake_check, &all)
}

#[test]
fn baseline_hides_recorded_findings_even_after_code_moves() {
    let dir = TestDir::new("baseline");
    dir.write("src/k.cu", ORIGINAL);
    let write = check_in(
        &dir.path,
        fake_check,
        &[
            "--no-config",
            FAKE_RULES,
            "--write-baseline",
            "ci/baseline.json",
        ],
    );
    assert_eq!(write.code, 0, "{}", write.stderr);
    assert!(
        write.stderr.contains("Wrote 2 findings"),
        "{}",
        write.stderr
    );
    let recorded: Value = serde_json::from_str(&dir.read("ci/baseline.json")).unwrap();
    assert_eq!(recorded["findings"][0]["file"], "../src/k.cu");
    assert!(
        recorded["findings"][0]["fingerprint"]
            .as_str()
            .unwrap()
            .len()
            == 16
    );

    // Same code: nothing new.
    let run = concise(&dir, &["--baseline", "ci/baseline.json"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));

    // The statement moves down and is re-indented: still nothing new.
    let moved = format!(
        "// a new header comment\n#include <cstdint>\n\n{}",
        ORIGINAL.replace("  asm", "        asm")
    );
    dir.write("src/k.cu", &moved);
    let run = concise(&dir, &["--baseline", "ci/baseline.json"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stdout);

    // A second, new occurrence of the same mistake is reported, the recorded one is not.
    dir.write("src/k.cu", format!("{moved}{ORIGINAL}"));
    let run = concise(&dir, &["--baseline", "ci/baseline.json"]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
    assert!(
        run.stdout
            .lines()
            .all(|l| l.starts_with("src/k.cu:9:") || l.starts_with("src/k.cu:8:")),
        "{}",
        run.stdout
    );

    // Changing the statement itself makes it new.
    dir.write("src/k.cu", ORIGINAL.replace("1;", "2;"));
    let run = concise(&dir, &["--baseline", "ci/baseline.json"]);
    assert_eq!(run.code, 1);
}

#[test]
fn baseline_is_independent_of_the_working_directory() {
    let dir = TestDir::new("baseline-cwd");
    dir.write("src/k.cu", ORIGINAL);
    let write = concise(&dir, &["--write-baseline", "baseline.json", "src"]);
    assert_eq!(write.code, 0);
    let inner = check_in(
        &dir.join("src"),
        fake_check,
        &[
            "--output-format",
            "concise",
            "-q",
            "--no-config",
            FAKE_RULES,
            "--baseline",
            "../baseline.json",
            "k.cu",
        ],
    );
    assert_eq!((inner.code, inner.stdout.as_str()), (0, ""));
}

#[test]
fn bad_baselines_are_errors() {
    let dir = TestDir::new("baseline-bad");
    dir.write("k.cu", ORIGINAL);
    dir.write("b.json", "{ not json");
    let run = concise(&dir, &["--baseline", "b.json"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not a ptxguard baseline"),
        "{}",
        run.stderr
    );
    let run = concise(&dir, &["--baseline", "missing.json"]);
    assert_eq!(run.code, 2);
}
