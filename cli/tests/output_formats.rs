//! Golden outputs for every format, on a fixed file with known (fake) findings.

mod common;

use common::{assert_golden, check_in, fake_check, TestDir, FAKE_RULES};
use serde_json::Value;

/// Non-ASCII text before the asm, so that character columns differ from byte columns.
const KERNEL: &str = r#"// Größe: ≤ 4 µs
__device__ unsigned load(unsigned* p32) {
  unsigned v;
  asm("ld.global.u32 %0, [%1];" : "=r"(v) : "r"(p32));
  return v;
}

__device__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %clock64;" : "=l"(t));
  return t;
}
"#;

fn tree() -> TestDir {
    let dir = TestDir::new("formats");
    dir.write("kernels/load.cu", KERNEL);
    dir.write("kernels/clean.cuh", "// asm-free header\nint x;\n");
    dir
}

fn run_format(format: &str) -> common::Run {
    let dir = tree();
    check_in(
        &dir.path,
        fake_check,
        &["--output-format", format, "--no-config", FAKE_RULES],
    )
}

#[test]
fn full() {
    let run = run_format("full");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_golden("full.txt", &run.stdout);
}

#[test]
fn concise() {
    let run = run_format("concise");
    assert_eq!(run.code, 1);
    assert_golden("concise.txt", &run.stdout);
}

#[test]
fn gcc() {
    let run = run_format("gcc");
    assert_eq!(run.code, 1);
    assert_golden("gcc.txt", &run.stdout);
}

#[test]
fn github() {
    let run = run_format("github");
    assert_eq!(run.code, 1);
    assert_golden("github.txt", &run.stdout);
}

#[test]
fn json() {
    let run = run_format("json");
    assert_eq!(run.code, 1);
    assert_golden("json.json", &run.stdout);
    let value: Value = serde_json::from_str(&run.stdout).unwrap();
    let first = value
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "address-register-width")
        .unwrap();
    // The documented schema, exactly.
    for key in [
        "rule",
        "severity",
        "message",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "fix",
    ] {
        assert!(first.get(key).is_some(), "missing {key}");
    }
    // `"r"` is at character 45 of line 4 (byte 45 too: the line is ASCII).
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(4), Some(45))
    );
    assert_eq!(first["fix"]["applicability"], "unsafe");
    assert_eq!(first["fix"]["edits"][0]["replacement"], "l");
    let no_fix = value
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "prefer-intrinsic")
        .unwrap();
    assert!(no_fix["fix"].is_null());
}

#[test]
fn json_lines() {
    let run = run_format("json-lines");
    assert_eq!(run.code, 1);
    assert_golden("json-lines.jsonl", &run.stdout);
    for line in run.stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(v["rule"].is_string());
    }
}

/// SARIF with the rule descriptors reduced to their ids and the run's paths made stable: the
/// rules' documentation belongs to the rules crate and changes on its own schedule.
fn stable_sarif(stdout: &str) -> String {
    let mut log: Value = serde_json::from_str(stdout).unwrap();
    let run = &mut log["runs"][0];
    let rules: Vec<Value> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].clone())
        .collect();
    for result in run["results"].as_array_mut().unwrap() {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(
            rules[index], result["ruleId"],
            "ruleIndex points at the rule"
        );
        result.as_object_mut().unwrap().remove("ruleIndex");
    }
    let driver = run["tool"]["driver"].as_object_mut().unwrap();
    driver.insert("rules".into(), Value::String("<rules>".into()));
    driver.insert("version".into(), Value::String("<version>".into()));
    driver.insert("semanticVersion".into(), Value::String("<version>".into()));
    run["originalUriBaseIds"]["%SRCROOT%"]["uri"] = Value::String("file:///ROOT/".into());
    serde_json::to_string_pretty(&log).unwrap() + "\n"
}

#[test]
fn sarif() {
    let run = run_format("sarif");
    assert_eq!(run.code, 1);
    assert_golden("sarif.json", &stable_sarif(&run.stdout));
    let log: Value = serde_json::from_str(&run.stdout).unwrap();
    let driver = &log["runs"][0]["tool"]["driver"];
    let rule = driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "address-register-width")
        .expect("rule descriptor");
    for key in [
        "name",
        "shortDescription",
        "fullDescription",
        "help",
        "defaultConfiguration",
    ] {
        assert!(rule.get(key).is_some(), "rule descriptor lacks {key}");
    }
    assert_eq!(rule["defaultConfiguration"]["level"], "error");
}

#[test]
fn sarif_validates_against_the_official_schema() {
    let run = run_format("sarif");
    let log: Value = serde_json::from_str(&run.stdout).unwrap();
    let schema: Value = serde_json::from_str(include_str!("sarif-schema-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF is invalid:\n{}",
        errors.join("\n")
    );
    // The validator does look: a wrong level is caught.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = Value::String("fatal".into());
    assert!(!validator.is_valid(&broken));
    // An empty run validates too.
    let dir = TestDir::new("sarif-empty");
    dir.write("a.cu", "int x; // asm-free\n");
    let empty = check_in(
        &dir.path,
        fake_check,
        &["--output-format", "sarif", "--no-config"],
    );
    assert_eq!(empty.code, 0);
    let log: Value = serde_json::from_str(&empty.stdout).unwrap();
    assert!(validator.is_valid(&log));
}

#[test]
fn sarif_regions_count_characters() {
    let dir = TestDir::new("sarif-chars");
    dir.write("a.cu", "// µ\nasm(\"\");\n");
    let run = check_in(
        &dir.path,
        fake_check,
        &["--output-format", "sarif", "--no-config", FAKE_RULES],
    );
    let log: Value = serde_json::from_str(&run.stdout).unwrap();
    let region = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    // "// µ\n" is 5 characters (6 bytes).
    assert_eq!(region["charOffset"], 5);
    assert_eq!(region["charLength"], 3);
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(2), Some(1))
    );
}

#[test]
fn statistics() {
    let dir = tree();
    let run = check_in(
        &dir.path,
        fake_check,
        &["--statistics", "--no-config", FAKE_RULES],
    );
    assert_eq!(run.code, 1);
    assert_golden("statistics.txt", &run.stdout);
    let json = check_in(
        &dir.path,
        fake_check,
        &[
            "--statistics",
            "--output-format",
            "json",
            "--no-config",
            FAKE_RULES,
        ],
    );
    let value: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value[0]["count"], 1);
}

#[test]
fn quiet_prints_findings_only() {
    let dir = tree();
    let run = check_in(
        &dir.path,
        fake_check,
        &[
            "-q",
            "--output-format",
            "concise",
            "--no-config",
            FAKE_RULES,
        ],
    );
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
    assert!(!run.stdout.contains("Found"));
}

#[test]
fn color_always_and_never() {
    let dir = tree();
    let always = check_in(
        &dir.path,
        fake_check,
        &["--color", "always", "--no-config", FAKE_RULES],
    );
    assert!(always.stdout.contains("\u{1b}["), "no escape codes");
    let concise = check_in(
        &dir.path,
        fake_check,
        &[
            "--color",
            "always",
            "--output-format",
            "concise",
            "--no-config",
            FAKE_RULES,
        ],
    );
    assert!(concise.stdout.contains("\u{1b}["));
    let never = check_in(
        &dir.path,
        fake_check,
        &["--color", "never", "--no-config", FAKE_RULES],
    );
    assert!(!never.stdout.contains('\u{1b}'));
}

#[test]
fn output_is_sorted_by_path_and_position() {
    let dir = TestDir::new("order");
    for name in ["b.cu", "a.cu", "c/a.cu", "a2.cu"] {
        dir.write(name, "asm(\"\");\nasm(\"\");\n");
    }
    let run = check_in(
        &dir.path,
        fake_check,
        &[
            "--output-format",
            "concise",
            "-q",
            "--no-config",
            FAKE_RULES,
        ],
    );
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split(": ").next().unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            "a.cu:1:1",
            "a.cu:2:1",
            "a2.cu:1:1",
            "a2.cu:2:1",
            "b.cu:1:1",
            "b.cu:2:1",
            "c/a.cu:1:1",
            "c/a.cu:2:1"
        ]
    );
}
