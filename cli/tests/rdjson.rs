//! `--output-format rdjson`: reviewdog's format. reviewdog itself cannot be installed here (a Go
//! binary from GitHub releases; not in Debian or npm), so the output is checked against our
//! schema written from reviewdog.proto, and its suggestions are applied the way the proto
//! defines them (UTF-8 byte columns, exclusive ends) and must give what the fix gives.

mod common;

use common::{binary, check_in, TestDir};
use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity, SourceFile, Span};
use ptxguard_rules::Options;
use serde_json::Value;
use std::path::Path;

/// Non-ASCII text on the asm lines, so that byte columns differ from character columns.
const KERNEL: &str = "__device__ unsigned load(unsigned* p) {\n  unsigned v; /* Größe ≤ 4 µs */ asm(\"ld.global.u32 %0, [%1];\"\n      : \"=r\"(v) : \"l\"(p));\n  return v;\n}\n";

/// A fake engine: `asm(` gets a fix with two edits on two lines (add `volatile` and a
/// `"memory"` clobber), `"=r"` a one-edit fix and a label.
fn two_edit_check(file: &SourceFile, _: &AnalysisContext, _: &Options) -> Vec<Diagnostic> {
    let text = &file.text;
    let mut out = Vec::new();
    if let (Some(asm), Some(close)) = (text.find("asm("), text.find("));")) {
        out.push(
            Diagnostic::new(
                "missing-volatile",
                Severity::Error,
                Span::new(asm, asm + 3),
                "not volatile",
            )
            .with_fix(Fix::safe(
                "add `volatile` and a clobber",
                vec![
                    Edit::insert(asm + 3, " volatile"),
                    Edit::insert(close + 1, " : \"memory\""),
                ],
            )),
        );
    }
    if let Some(at) = text.find("\"=r\"") {
        out.push(
            Diagnostic::new(
                "address-register-width",
                Severity::Warning,
                Span::new(at, at + 4),
                "made up",
            )
            .with_label(Span::new(at + 5, at + 6), "the operand")
            .with_fix(Fix::unsafe_(
                "use `l`",
                vec![Edit::replace(Span::new(at + 2, at + 3), "l")],
            )),
        );
    }
    out
}

fn schema_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(include_str!("rdjson-schema.json")).unwrap();
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, doc: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "rdjson is invalid:\n{}",
        errors.join("\n")
    );
}

/// The byte offset of a 1-based line and 1-based UTF-8 byte column (reviewdog's positions).
fn byte_offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().unwrap() as usize;
    let column = position["column"].as_u64().unwrap() as usize;
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let offset = line_start + column - 1;
    assert!(
        text.is_char_boundary(offset),
        "{position} splits a character"
    );
    offset
}

/// Applies one rdjson suggestion as reviewdog reads it.
fn apply_suggestion(text: &str, suggestion: &Value) -> String {
    let start = byte_offset(text, &suggestion["range"]["start"]);
    let end = byte_offset(text, &suggestion["range"]["end"]);
    format!(
        "{}{}{}",
        &text[..start],
        suggestion["text"].as_str().unwrap(),
        &text[end..]
    )
}

/// Applies a `--output-format json` fix (character columns) to `text`.
fn apply_json_fix(text: &str, fix: &Value) -> String {
    let file = SourceFile::new("x", text);
    let mut edits: Vec<(usize, usize, &str)> = fix["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let at = |l: &str, c: &str| {
                file.offset_of_line_col(
                    e[l].as_u64().unwrap() as usize,
                    e[c].as_u64().unwrap() as usize,
                )
            };
            (
                at("line", "column"),
                at("end_line", "end_column"),
                e["replacement"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, replacement) in edits {
        out.replace_range(start..end, replacement);
    }
    out
}

/// Every diagnostic with a fix: its rdjson suggestion, applied alone, gives the same text as
/// the fix from `--output-format json` (the same diagnostics, in the same order).
fn assert_suggestions_match_fixes(dir: &Path, rdjson: &Value, json: &Value) -> usize {
    let diagnostics = rdjson["diagnostics"].as_array().unwrap();
    let findings = json.as_array().unwrap();
    assert_eq!(diagnostics.len(), findings.len());
    let mut compared = 0;
    for (d, f) in diagnostics.iter().zip(findings) {
        assert_eq!(d["code"]["value"], f["rule"]);
        assert_eq!(d["location"]["path"], f["file"]);
        let suggestions = d["suggestions"].as_array().unwrap();
        if f["fix"].is_null() {
            assert!(suggestions.is_empty(), "{d}");
            continue;
        }
        assert_eq!(suggestions.len(), 1, "one suggestion per fix: {d}");
        let text = std::fs::read_to_string(dir.join(f["file"].as_str().unwrap())).unwrap();
        assert_eq!(
            apply_suggestion(&text, &suggestions[0]),
            apply_json_fix(&text, &f["fix"]),
            "{d}"
        );
        compared += 1;
    }
    compared
}

#[test]
fn rdjson_follows_reviewdogs_format_with_byte_columns() {
    let dir = TestDir::new("rdjson-fake");
    dir.write("k.cu", KERNEL);
    let args = |format: &'static str| {
        [
            "--output-format",
            format,
            "--no-config",
            "--extend-select=address-register-width,missing-volatile",
        ]
    };
    let run = check_in(&dir.path, two_edit_check, &args("rdjson"));
    assert_eq!(run.code, 1, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let validator = schema_validator();
    assert_valid(&validator, &doc);
    assert_eq!(doc["source"]["name"], "ptxguard");

    let diagnostics = doc["diagnostics"].as_array().unwrap();
    let volatile = &diagnostics[0];
    assert_eq!(volatile["severity"], "ERROR");
    // `asm(` follows "  unsigned v; /* Größe ≤ 4 µs */ ": 33 characters, 38 bytes.
    assert_eq!(
        volatile["location"]["range"],
        serde_json::json!({ "start": { "line": 2, "column": 39 }, "end": { "line": 2, "column": 42 } })
    );
    assert!(volatile["message"]
        .as_str()
        .unwrap()
        .contains("fix (safe): add `volatile` and a clobber"));
    // Two edits on two lines: one suggestion replacing both lines whole.
    let suggestion = &volatile["suggestions"][0];
    assert_eq!(
        suggestion["range"]["start"],
        serde_json::json!({ "line": 2, "column": 1 })
    );
    assert_eq!(
        suggestion["range"]["end"],
        serde_json::json!({ "line": 3, "column": 27 })
    );
    let width = &diagnostics[1];
    assert_eq!(width["severity"], "WARNING");
    assert_eq!(width["related_locations"][0]["message"], "the operand");
    assert_eq!(width["related_locations"][0]["location"]["path"], "k.cu");

    let json: Value =
        serde_json::from_str(&check_in(&dir.path, two_edit_check, &args("json")).stdout).unwrap();
    assert_eq!(assert_suggestions_match_fixes(&dir.path, &doc, &json), 2);
    // The two-edit suggestion, applied alone, is the file `--fix` writes.
    let fixed = apply_suggestion(KERNEL, &diagnostics[0]["suggestions"][0]);
    let run = check_in(
        &dir.path,
        two_edit_check,
        &[
            "--fix",
            "--no-config",
            "--extend-select=missing-volatile",
            "--ignore=address-register-width",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(fixed, dir.read("k.cu"));
    assert!(fixed.contains("asm volatile("), "{fixed}");
    dir.write("k.cu", KERNEL);

    // The schema does look: a 0 column, a lowercase severity and an unknown field fail.
    for (pointer, bad) in [
        ("/diagnostics/0/location/range/start/column", Value::from(0)),
        ("/diagnostics/0/severity", Value::from("error")),
        ("/diagnostics/0/location/uri", Value::from("file:///k.cu")),
    ] {
        let mut broken = doc.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        broken.pointer_mut(parent).unwrap()[key] = bad;
        assert!(!validator.is_valid(&broken), "{pointer}");
    }

    // No findings: an empty, valid result.
    let clean = TestDir::new("rdjson-clean");
    clean.write("a.cu", "int x;\n");
    let run = check_in(
        &clean.path,
        two_edit_check,
        &["--output-format", "rdjson", "--no-config"],
    );
    assert_eq!(run.code, 0);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_valid(&validator, &doc);
    assert_eq!(doc["diagnostics"], serde_json::json!([]));
}

#[test]
fn rdjson_of_the_real_engine_on_the_examples() {
    let dir = TestDir::new("rdjson-examples");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    for entry in std::fs::read_dir(&examples).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap().to_str().unwrap())).unwrap();
    }
    let run = binary(
        &dir.path,
        &["check", "--output-format", "rdjson", "--select", "all", "."],
        None,
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_valid(&schema_validator(), &doc);
    let json = binary(
        &dir.path,
        &["check", "--output-format", "json", "--select", "all", "."],
        None,
    );
    let json: Value = serde_json::from_str(&json.stdout).unwrap();
    let compared = assert_suggestions_match_fixes(&dir.path, &doc, &json);
    assert!(compared >= 5, "only {compared} fixes in the examples");
}
