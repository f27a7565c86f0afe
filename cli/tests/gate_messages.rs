//! Messages a user can act on (issue 23, item 7), with the real binary and rules.

mod common;

use common::{binary, TestDir};

const KERNEL: &str = "__global__ void k(int *p) {\n  int v;\n  asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n}\n";

#[test]
fn full_output_calls_the_lowest_severity_info_as_everywhere_else() {
    let dir = TestDir::new("info-not-note");
    dir.write("k.cu", KERNEL);
    for color in ["never", "always"] {
        let run = binary(
            &dir.path,
            &["check", "--no-config", "--color", color, "k.cu"],
            None,
        );
        assert!(
            run.stdout.contains("info[generic-address]"),
            "{}",
            run.stdout
        );
        assert!(
            !run.stdout.contains("note[generic-address]"),
            "{}",
            run.stdout
        );
    }
}

#[test]
fn a_misspelt_opcode_gets_the_syntax_error_alone() {
    let dir = TestDir::new("misspelt");
    dir.write("k.cu", KERNEL.replace("ld.global", "ld.gloabl"));
    let run = binary(
        &dir.path,
        &["check", "--no-config", "--output-format", "concise", "k.cu"],
        None,
    );
    assert!(
        run.stdout
            .contains("ptx-syntax [error] `.gloabl` is not a modifier of `ld`"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("missing-memory-clobber"),
        "{}",
        run.stdout
    );
}

#[test]
fn flags_that_would_do_nothing_or_something_unsaid_are_said() {
    let dir = TestDir::new("flags");
    dir.write("k.cu", KERNEL);
    // `--unsafe-fixes` alone did nothing, silently.
    let run = binary(&dir.path, &["check", "--unsafe-fixes", "k.cu"], None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("`--unsafe-fixes` does nothing without `--fix`"),
        "{}",
        run.stderr
    );
    // `--write-baseline --fix` wrote fixes without a word.
    let run = binary(
        &dir.path,
        &[
            "check",
            "--no-config",
            "--fix",
            "--write-baseline",
            "baseline.json",
            "k.cu",
        ],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("Fixed 2 findings in 1 file."),
        "{}",
        run.stderr
    );
    assert!(dir.read("k.cu").contains("\"memory\""));
}

#[test]
fn a_baseline_says_how_many_findings_it_absorbed() {
    let dir = TestDir::new("baseline-count");
    dir.write("k.cu", KERNEL);
    let run = binary(
        &dir.path,
        &["check", "--no-config", "--write-baseline", "b.json", "k.cu"],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = binary(
        &dir.path,
        &["check", "--no-config", "--baseline", "b.json", "k.cu"],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("All checks passed!")
            && run.stdout.contains("2 findings in the baseline not shown."),
        "{}",
        run.stdout
    );
    // Machine formats keep stdout clean and say it on stderr.
    let run = binary(
        &dir.path,
        &[
            "check",
            "--no-config",
            "--output-format",
            "json",
            "--baseline",
            "b.json",
            "k.cu",
        ],
        None,
    );
    assert_eq!(run.stdout.trim(), "[]");
    assert!(
        run.stderr.contains("2 findings in the baseline not shown."),
        "{}",
        run.stderr
    );
}

#[test]
fn help_texts_say_what_the_commands_do() {
    let dir = TestDir::new("help");
    let run = binary(&dir.path, &["check", "--help"], None);
    assert!(
        run.stdout.contains("inferred from each file"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("every supported one"),
        "{}",
        run.stdout
    );
    let run = binary(&dir.path, &["--help"], None);
    assert!(!run.stdout.contains("on a GPU."), "{}", run.stdout);
    assert!(
        run.stdout.contains("nothing runs on a GPU"),
        "{}",
        run.stdout
    );
}

/// One mistake in a Triton constraint string, one finding: `"=h,h,h"` at `pack=2` gave four
/// (the output's size, then each operand's type), an extra `r` at `pack=1` two.
#[test]
fn one_wrong_constraint_string_is_not_four_findings() {
    let dir = TestDir::new("pack-string");
    let call = |template: &str, constraints: &str, args: &str, dtype: &str, pack: u32| {
        format!(
            "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(X, Y, N: tl.constexpr):\n    offs = tl.arange(0, N)\n    x = tl.load(X + offs)\n    y = tl.inline_asm_elementwise(\n        \"{template}\",\n        \"{constraints}\",\n        [{args}],\n        dtype=tl.{dtype},\n        is_pure=True,\n        pack={pack},\n    )\n    tl.store(Y + offs, y)\n"
        )
    };
    let rules = |file: &str| -> Vec<String> {
        let run = binary(
            &dir.path,
            &["check", "--no-config", "--output-format", "json", file],
            None,
        );
        let found: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
        found
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_string())
            .collect()
    };
    dir.write(
        "h.py",
        call("add.f16x2 $0, $1, $2;", "=h,h,h", "x, x", "float16", 2),
    );
    assert_eq!(
        rules("h.py"),
        ["operand-size-mismatch", "operand-type-mismatch"]
    );
    dir.write(
        "extra.py",
        call("mov.b32 $0, $1;", "=r,r,r", "x", "float32", 1),
    );
    assert_eq!(rules("extra.py"), ["pack-mismatch"]);
}
