//! Configuration files: discovery, `extend`, every key, errors, command-line overrides.

mod common;

use common::{check_in, fake_check, TestDir};
use serde_json::Value;

const BOTH: &str = "asm(\"\" :: \"r\"(p32));\n";

fn rules_by_file(dir: &TestDir, args: &[&str]) -> Vec<String> {
    let mut all = vec!["--output-format", "json"];
    all.extend_from_slice(args);
    let run = check_in(&dir.path, fake_check, &all);
    assert_ne!(run.code, 2, "{}", run.stderr);
    serde_json::from_str::<Value>(&run.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {}",
                f["file"].as_str().unwrap(),
                f["rule"].as_str().unwrap(),
                f["severity"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn closest_config_wins() {
    let dir = TestDir::new("closest");
    dir.write("ptxguard.toml", "ignore = [\"missing-volatile\"]\n");
    dir.write(
        "sub/.ptxguard.toml",
        "ignore = [\"address-register-width\"]\n",
    );
    dir.write("a.cu", BOTH);
    dir.write("sub/b.cu", BOTH);
    dir.write("sub/deeper/c.cu", BOTH);
    assert_eq!(
        rules_by_file(&dir, &[]),
        [
            "a.cu address-register-width error",
            "sub/b.cu missing-volatile error",
            "sub/deeper/c.cu missing-volatile error"
        ]
    );
}

#[test]
fn extend_inherits_and_paths_stay_relative_to_their_file() {
    let dir = TestDir::new("extend");
    dir.write(
        "base/ptxguard.toml",
        "ignore = [\"missing-volatile\"]\nexclude = [\"generated/\"]\n[severity]\naddress-register-width = \"warning\"\n",
    );
    dir.write(
        "proj/ptxguard.toml",
        "extend = \"../base/ptxguard.toml\"\nexclude = [\"vendor/\"]\n",
    );
    dir.write("proj/a.cu", BOTH);
    dir.write("proj/vendor/v.cu", BOTH);
    // `generated/` is relative to base/, so proj/generated is not excluded.
    dir.write("proj/generated/g.cu", BOTH);
    dir.write("base/generated/g.cu", BOTH);
    assert_eq!(
        rules_by_file(&dir, &["proj", "base"]),
        [
            "proj/a.cu address-register-width warning",
            "proj/generated/g.cu address-register-width warning"
        ]
    );
}

#[test]
fn extend_cycles_are_errors() {
    let dir = TestDir::new("cycle");
    dir.write("ptxguard.toml", "extend = \"other.toml\"\n");
    dir.write("other.toml", "extend = \"ptxguard.toml\"\n");
    dir.write("a.cu", BOTH);
    let run = check_in(&dir.path, fake_check, &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cycle"), "{}", run.stderr);
}

#[test]
fn select_extend_select_and_severity() {
    let dir = TestDir::new("select");
    dir.write(
        "ptxguard.toml",
        "select = [\"address-register-width\"]\n[severity]\naddress-register-width = \"info\"\n",
    );
    dir.write("a.cu", BOTH);
    // The fake's --extend-select is a command-line layer applied after the file's select.
    let run = check_in(&dir.path, fake_check, &["--output-format", "json"]);
    let found: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(found.as_array().unwrap().len(), 1);
    assert_eq!(found[0]["severity"], "info");
    // Info is below the default --fail-on.
    assert_eq!(run.code, 0);
    let strict = check_in(&dir.path, fake_check, &["--fail-on", "info", "-q"]);
    assert_eq!(strict.code, 1);
    // extend-select in the file adds to its select.
    dir.write(
        "ptxguard.toml",
        "select = [\"address-register-width\"]\nextend-select = [\"missing-volatile\"]\n",
    );
    let run = check_in(&dir.path, fake_check, &["--output-format", "json"]);
    let found: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(found.as_array().unwrap().len(), 2);
}

#[test]
fn command_line_overrides_files() {
    let dir = TestDir::new("override");
    dir.write("ptxguard.toml", "ignore = [\"address-register-width\"]\n");
    dir.write("a.cu", BOTH);
    assert_eq!(rules_by_file(&dir, &[]), ["a.cu missing-volatile error"]);
    assert_eq!(
        rules_by_file(&dir, &["--select", "address-register-width"]),
        ["a.cu address-register-width error"]
    );
    assert_eq!(
        rules_by_file(&dir, &["--ignore", "missing-volatile"]),
        Vec::<String>::new()
    );
    assert_eq!(rules_by_file(&dir, &["--no-config"]).len(), 2);
    dir.write("other.toml", "ignore = [\"missing-volatile\"]\n");
    assert_eq!(
        rules_by_file(&dir, &["--config", "other.toml"]),
        ["a.cu address-register-width error"]
    );
}

#[test]
fn per_file_ignores_and_exclude_globs() {
    let dir = TestDir::new("globs");
    dir.write(
        "ptxguard.toml",
        "exclude = [\"third_party/\", \"*.gen.cu\"]\n[per-file-ignores]\n\"tests/**\" = [\"missing-volatile\"]\n\"*.cuh\" = [\"all\"]\n",
    );
    dir.write("src/a.cu", BOTH);
    dir.write("src/a.gen.cu", BOTH);
    dir.write("src/h.cuh", BOTH);
    dir.write("tests/t.cu", BOTH);
    dir.write("third_party/x.cu", BOTH);
    assert_eq!(
        rules_by_file(&dir, &[]),
        [
            "src/a.cu missing-volatile error",
            "src/a.cu address-register-width error",
            "tests/t.cu address-register-width error"
        ]
    );
    // A file named explicitly is checked even when excluded, unless --force-exclude.
    assert_eq!(rules_by_file(&dir, &["third_party/x.cu"]).len(), 2);
    assert!(rules_by_file(
        &dir,
        &["--force-exclude", "--allow-no-files", "third_party/x.cu"]
    )
    .is_empty());
    // --exclude adds to the configured excludes.
    assert_eq!(rules_by_file(&dir, &["--exclude", "tests"]).len(), 2);
}

#[test]
fn extensions_choose_the_walked_files() {
    let dir = TestDir::new("extensions");
    dir.write("a.cu", BOTH);
    dir.write("b.ptxinc", BOTH);
    dir.write("c.txt", BOTH);
    assert_eq!(
        rules_by_file(&dir, &["--select", "missing-volatile"]),
        ["a.cu missing-volatile error"]
    );
    dir.write("ptxguard.toml", "extensions = [\".ptxinc\"]\n");
    assert_eq!(
        rules_by_file(&dir, &["--select", "missing-volatile"]),
        ["b.ptxinc missing-volatile error"]
    );
    // Named explicitly, any extension is checked.
    assert_eq!(
        rules_by_file(&dir, &["--select", "missing-volatile", "c.txt"]),
        ["c.txt missing-volatile error"]
    );
}

#[test]
fn errors_point_at_the_mistake_and_suggest() {
    let dir = TestDir::new("errors");
    dir.write("a.cu", BOTH);
    let cases = [
        ("selct = []\n", "ptxguard.toml:1:1: unknown key `selct`; did you mean `select`?"),
        (
            "ignore = [\"adress-register-width\"]\n",
            "ptxguard.toml:1:11: unknown rule `adress-register-width`; did you mean `address-register-width`?",
        ),
        ("[severity]\nmissing-volatile = \"fatal\"\n", "severity of `missing-volatile` must be"),
        ("target = \"sm80\"\n", "`sm80` is not an SM target"),
        ("cccl-version = \"x\"\n", "`x` is not a version"),
        ("select = [\n", "ptxguard.toml:"),
        ("[per-file-ignores]\n\"x\" = \"missing-volatile\"\n", "must be an array"),
    ];
    for (text, expected) in cases {
        dir.write("ptxguard.toml", text);
        let run = check_in(&dir.path, fake_check, &[]);
        assert_eq!(run.code, 2, "{text}");
        assert!(run.stderr.contains(expected), "{text}: {}", run.stderr);
        // The file is still checked, with the default settings.
        assert!(
            run.stderr.contains("checked with the default settings"),
            "{}",
            run.stderr
        );
        assert!(run.stdout.contains("a.cu"), "{}", run.stdout);
    }
}

#[test]
fn command_line_rule_names_are_checked_too() {
    let dir = TestDir::new("cli-errors");
    dir.write("a.cu", BOTH);
    let run = check_in(&dir.path, fake_check, &["--select", "missing-volatil"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--select: unknown rule `missing-volatil`; did you mean `missing-volatile`?"),
        "{}",
        run.stderr
    );
    let run = check_in(&dir.path, fake_check, &["--target", "sm_80,gfx90a"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("gfx90a"));
}

#[test]
fn show_settings_prints_what_applies() {
    let dir = TestDir::new("show");
    dir.write(
        "ptxguard.toml",
        "target = [\"sm_80\", \"sm_90a\"]\ncccl-version = \"2.8\"\nignore = [\"prefer-intrinsic\"]\n[severity]\nmissing-volatile = \"warning\"\n[per-file-ignores]\n\"tests/\" = [\"address-register-width\"]\n",
    );
    dir.write("tests/a.cu", BOTH);
    let run = check_in(&dir.path, fake_check, &["--show-settings", "tests/a.cu"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains(&format!("\"{}\"", dir.join("ptxguard.toml").display())),
        "{out}"
    );
    assert!(out.contains("target = [\"sm_80\", \"sm_90a\"]"), "{out}");
    assert!(out.contains("cccl-version = \"2.8\""), "{out}");
    assert!(out.contains("missing-volatile = \"warning\""), "{out}");
    assert!(out.contains("prefer-intrinsic = \"off\""), "{out}");
    assert!(out.contains("address-register-width = \"off\""), "{out}");
    assert!(out.contains("tests/ -> address-register-width"), "{out}");
    // The settings reach the engine.
    let _ = toml::from_str::<toml::Table>(out.split("[rules]").nth(1).unwrap())
        .expect("rules table is TOML");
}

#[test]
fn target_and_cccl_version_reach_the_engine() {
    use ptxguard_analyzer::build::toolkit::target_name;
    use ptxguard_analyzer::context::AnalysisContext;
    use ptxguard_analyzer::{Diagnostic, Severity, SourceFile, Span};
    use ptxguard_rules::Options;
    fn echo_options(
        _: &SourceFile,
        context: &AnalysisContext,
        options: &Options,
    ) -> Vec<Diagnostic> {
        let targets: Vec<String> = context.targets.iter().map(target_name).collect();
        vec![Diagnostic::new(
            "arch-requirement",
            Severity::Warning,
            Span::new(0, 3),
            format!("{targets:?} {:?}", options.cccl_version),
        )]
    }
    let dir = TestDir::new("options");
    dir.write(
        "ptxguard.toml",
        "target = \"sm_80\"\ncccl-version = \"2.8\"\n",
    );
    dir.write("a.cu", "asm;\n");
    let run = check_in(
        &dir.path,
        echo_options,
        &[
            "--output-format",
            "concise",
            "--extend-select",
            "arch-requirement",
        ],
    );
    assert!(
        run.stdout.contains("[\"sm_80\"] Some(\"2.8\")"),
        "{}",
        run.stdout
    );
    let run = check_in(
        &dir.path,
        echo_options,
        &[
            "--output-format",
            "concise",
            "--extend-select",
            "arch-requirement",
            "--target",
            "sm_90a,sm_100a",
            "--cccl-version",
            "3.1",
        ],
    );
    assert!(
        run.stdout
            .contains("[\"sm_90a\", \"sm_100a\"] Some(\"3.1\")"),
        "{}",
        run.stdout
    );
}
