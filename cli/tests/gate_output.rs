//! Output that cannot be abused (issue 23, item 5): file names and source text cannot forge
//! workflow commands in `--output-format github` (on stdout or stderr), nor send control
//! sequences to a terminal or forge lines in the terminal formats.

mod common;

use common::{binary, TestDir};

/// A file name that, printed raw, is three lines: the middle one a workflow command.
const FORGED_NAME: &str = "a\n::error file=x.cu,line=1::forged\n.cu";
/// A binary file (reported on stderr) whose name masks a secret when printed raw.
const MASKING_NAME: &str = "b\n::add-mask::secret\n.cu";

fn tree() -> TestDir {
    let dir = TestDir::new("escape");
    // `missing-memory-clobber` on line 2; an OSC title sequence and a newline-free ESC in
    // the source text.
    dir.write(
        FORGED_NAME,
        "__global__ void k(int *p) { int v;\n  asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); } // \x1b]0;pwned\x07\n",
    );
    dir.write(
        "esc.cu",
        "__global__ void k(int *p) { int v;\n  asm(\"ld.global.u32 %0, [%1];\x1b[2J\" : \"=r\"(v) : \"l\"(p)); }\n",
    );
    dir.write(MASKING_NAME, b"\x00asm");
    dir
}

#[test]
fn github_output_forges_no_workflow_command_on_any_stream() {
    let dir = tree();
    let run = binary(
        &dir.path,
        &["check", "--no-config", "--output-format", "github", "."],
        None,
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        for line in text.lines() {
            // The runner reads `::command` at the start of a (trimmed) line, and `##[` anywhere.
            let trimmed = line.trim();
            assert!(
                trimmed.starts_with("::error ")
                    || trimmed.starts_with("::error::")
                    || trimmed.starts_with("::notice ")
                    || trimmed.starts_with("::warning "),
                "{stream}: a line that is not one of ours: {line:?}"
            );
            assert!(!line.contains('\x1b'), "{stream}: {line:?}");
        }
        assert!(!text.contains("\n::add-mask::"), "{stream}: {text}");
        assert!(!text.contains("\n::error file=x.cu"), "{stream}: {text}");
    }
    // The file property still names the real file once unescaped, and messages say what the
    // source held.
    assert!(
        run.stdout
            .contains(" file=a%0A%3A%3Aerror file=x.cu%2Cline=1%3A%3Aforged%0A.cu,line=2,"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("`\\x1b`"), "{}", run.stdout);
    assert!(
        run.stderr
            .starts_with("::error::b\\n::add-mask::secret\\n.cu: looks like a binary"),
        "{}",
        run.stderr
    );
}

#[test]
fn terminal_formats_show_control_characters_and_never_split_a_line() {
    let dir = tree();
    for format in ["full", "concise", "gcc"] {
        let run = binary(
            &dir.path,
            &[
                "check",
                "--no-config",
                "--color",
                "never",
                "--output-format",
                format,
                ".",
            ],
            None,
        );
        assert_eq!(run.code, 2, "{format}: {}", run.stderr);
        for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            assert!(
                !text.bytes().any(|b| b < 0x20 && b != b'\n'),
                "{format} {stream}: a control byte reached the terminal: {text:?}"
            );
            // No line of output starts with a forged location or command.
            assert!(
                !text
                    .lines()
                    .any(|l| l.starts_with("::") || l.starts_with(".cu")),
                "{format} {stream}: {text}"
            );
        }
        assert!(
            run.stdout
                .contains("a\\n::error file=x.cu,line=1::forged\\n.cu:2:"),
            "{format}: {}",
            run.stdout
        );
        assert!(
            run.stderr
                .contains("b\\n::add-mask::secret\\n.cu: looks like a binary"),
            "{format}: {}",
            run.stderr
        );
    }
    // The snippet shows the escape character as a symbol, under the right columns.
    let run = binary(
        &dir.path,
        &["check", "--no-config", "--color", "never", "esc.cu"],
        None,
    );
    assert!(run.stdout.contains("[%1];\u{241b}[2J\""), "{}", run.stdout);
}
