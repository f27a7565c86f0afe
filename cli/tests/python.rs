//! Python files end to end with the real binary: walked by default or named, `#`
//! suppressions, fixes, baselines.

mod common;

use common::{binary, TestDir};

const KERNEL: &str = concat!(
    "import triton.language as tl\n\n",
    "def k(C, offs):\n",
    "    tl.inline_asm_elementwise(\"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\", [C + offs * 0], tl.int32, True, 1)\n",
    // Used: a function's asm is built only when something calls it.
    "\nKERNELS = [k]\n",
);

/// Checks `dir` with Python files walked (`extensions` in its configuration).
fn concise(dir: &TestDir, extra: &[&str]) -> (i32, String) {
    dir.write("ptxguard.toml", "extensions = [\"cu\", \"py\"]\n");
    let mut args = vec!["check", "--output-format", "concise"];
    args.extend_from_slice(extra);
    let run = binary(&dir.path, &args, None);
    (run.code, run.stdout)
}

#[test]
fn python_files_are_walked_and_checked() {
    let dir = TestDir::new("python-walk");
    dir.write("kernels/k.py", KERNEL);
    dir.write(
        "other.py",
        "import numpy\nprint('inline asm is not here')\n",
    );
    let (code, out) = concise(&dir, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("k.py:4:5: missing-volatile"), "{out}");
    assert!(out.contains("k.py:4:32: elementwise-side-effect"), "{out}");
    assert!(!out.contains("other.py"), "{out}");
}

#[test]
fn python_files_are_walked_by_default_unless_configured_out() {
    let dir = TestDir::new("python-default-walk");
    dir.write("kernels/k.py", KERNEL);
    let run = binary(
        &dir.path,
        &["check", "--no-config", "--output-format", "concise"],
        None,
    );
    assert!(
        run.stdout.contains("k.py:4:5: missing-volatile"),
        "{}",
        run.stdout
    );
    dir.write("ptxguard.toml", "extensions = [\"cu\"]\n");
    let run = binary(&dir.path, &["check", "--output-format", "concise"], None);
    assert!(!run.stdout.contains("k.py"), "{}", run.stdout);
    // Named on the command line, a file is checked whatever the configuration says.
    let run = binary(
        &dir.path,
        &["check", "--output-format", "concise", "kernels/k.py"],
        None,
    );
    assert!(
        run.stdout.contains("k.py:4:5: missing-volatile"),
        "{}",
        run.stdout
    );
}

#[test]
fn hash_comments_suppress() {
    let dir = TestDir::new("python-allow");
    dir.write(
        "k.py",
        KERNEL.replace(
            "True, 1)\n",
            "True, 1)  # ptxguard: allow(missing-volatile, elementwise-side-effect)\n",
        ),
    );
    let (code, out) = concise(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    dir.write(
        "k.py",
        format!("{KERNEL}# ptxguard: allow(operand-index)\n"),
    );
    let (_, out) = concise(&dir, &[]);
    assert!(out.contains("unused-suppression"), "{out}");
}

#[test]
fn fix_sets_the_side_effect_flag() {
    let dir = TestDir::new("python-fix");
    dir.write("k.py", KERNEL);
    let run = binary(&dir.path, &["check", "--no-config", "--fix", "k.py"], None);
    assert_ne!(run.code, 2, "{}", run.stderr);
    let fixed = dir.read("k.py");
    assert!(fixed.contains("tl.int32, False, 1)"), "{fixed}");
    let (_, out) = concise(&dir, &[]);
    assert!(!out.contains("missing-volatile"), "{out}");
}

#[test]
fn baselines_record_python_findings() {
    let dir = TestDir::new("python-baseline");
    dir.write("k.py", KERNEL);
    dir.write("ptxguard.toml", "extensions = [\"py\"]\n");
    let run = binary(&dir.path, &["check", "--write-baseline", "b.json"], None);
    assert_ne!(run.code, 2, "{}", run.stderr);
    dir.write("k.py", format!("# moved\n\n{KERNEL}"));
    let (code, out) = concise(&dir, &["--baseline", "b.json"]);
    assert_eq!(code, 0, "{out}");
}

/// PEP 701: a comment holding `"""` inside a multi-line f-string replacement field does not
/// end the f-string; the call after it is found, and `--fix` edits that call, not a later
/// string literal.
#[test]
fn an_f_string_field_comment_holding_quotes_keeps_the_tokenizer_in_step() {
    let dir = TestDir::new("python-pep701");
    let text = concat!(
        "from mlir.dialects import llvm\n",
        "note = f\"\"\"{\n",
        "    len(x)  # a comment with \"\"\" in it\n",
        "}\"\"\"\n",
        "def f(a):\n",
        "    return llvm.inline_asm(T.i32(), [a], \"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\")\n",
        "label = \"=r\"\n",
    );
    dir.write("k.py", text);
    let (_, out) = concise(&dir, &[]);
    assert!(out.contains("k.py:6:12: missing-volatile"), "{out}");
    concise(&dir, &["--fix"]);
    assert_eq!(
        dir.read("k.py"),
        text.replace("\"=r,l\")", "\"=r,l\", has_side_effects=True)")
    );
}

/// The MLIR fix goes after the call's last token: not into a trailing `# comment` (where it
/// was added again on every run) nor after a `\` continuation (a SyntaxError).
#[test]
fn the_side_effect_argument_goes_before_comments_and_continuations() {
    let dir = TestDir::new("python-mlir-tokens");
    let text = concat!(
        "from mlir.dialects import llvm\n",
        "def f(a):\n",
        "    return llvm.inline_asm(T.i32(), [a], \"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\"  # constraints\n",
        "    )\n",
        "def g(a):\n",
        "    return llvm.inline_asm(T.i32(), [a], \"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\" \\\n",
        "    )\n",
    );
    dir.write("k.py", text);
    concise(&dir, &["--fix"]);
    let expected = text
        .replace(
            "\"=r,l\"  # constraints",
            "\"=r,l\", has_side_effects=True  # constraints",
        )
        .replace("\"=r,l\" \\", "\"=r,l\", has_side_effects=True \\");
    assert_eq!(dir.read("k.py"), expected);
    // Idempotent: nothing left to fix.
    let (code, out) = concise(&dir, &["--fix"]);
    assert_eq!(dir.read("k.py"), expected);
    assert_eq!(code, 0, "{out}");
}
