//! `// ptxguard: allow(...)`, `allow-file(...)` and `unused-suppression`.

mod common;

use common::{check_in, fake_check, TestDir, FAKE_RULES};
use serde_json::Value;

fn findings(dir: &TestDir, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["--output-format", "json", "--no-config", FAKE_RULES];
    args.extend_from_slice(extra);
    let run = check_in(&dir.path, fake_check, &args);
    assert_ne!(run.code, 2, "{}", run.stderr);
    serde_json::from_str::<Value>(&run.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn rules_at(found: &[Value]) -> Vec<String> {
    found
        .iter()
        .map(|f| format!("{}:{}", f["line"], f["rule"].as_str().unwrap()))
        .collect()
}

#[test]
fn allow_at_end_of_line_and_on_line_before() {
    let dir = TestDir::new("allow-lines");
    dir.write(
        "a.cu",
        "asm(\"\"); // ptxguard: allow(missing-volatile)\n\
         // ptxguard: allow(missing-volatile)\n\
         asm(\"\");\n\
         asm(\"\");\n",
    );
    assert_eq!(rules_at(&findings(&dir, &[])), ["4:missing-volatile"]);
}

#[test]
fn allow_on_the_statement_first_line_covers_the_whole_statement() {
    let dir = TestDir::new("allow-statement");
    dir.write(
        "a.cu",
        "// ptxguard: allow(address-register-width)\n\
         asm volatile(\n\
           \"ld.global.u32 %0, [%1];\"\n\
           : \"=r\"(v)\n\
           : \"r\"(p32));\n\
         asm volatile(\"\" // ptxguard: allow(address-register-width)\n\
           :: \"r\"(p32));\n\
         asm volatile(\"\"\n\
           :: \"r\"(p32));\n",
    );
    assert_eq!(rules_at(&findings(&dir, &[])), ["9:address-register-width"]);
}

#[test]
fn allow_lists_and_all() {
    let dir = TestDir::new("allow-list");
    dir.write(
        "a.cu",
        "asm(\"%clock64\" :: \"r\"(p32)); // ptxguard: allow(missing-volatile, prefer-intrinsic)\n\
         asm(\"\"); // ptxguard: allow(all)\n",
    );
    assert_eq!(rules_at(&findings(&dir, &[])), ["1:address-register-width"]);
}

#[test]
fn allow_file_covers_everything_of_its_rules() {
    let dir = TestDir::new("allow-file");
    dir.write(
        "a.cu",
        "asm(\"\");\n\n\nasm(\"\" :: \"r\"(p32));\n// ptxguard: allow-file(missing-volatile)\n",
    );
    assert_eq!(rules_at(&findings(&dir, &[])), ["4:address-register-width"]);
}

#[test]
fn unused_and_unknown_suppressions_are_reported() {
    let dir = TestDir::new("unused");
    dir.write(
        "a.cu",
        "asm volatile(\"\"); // ptxguard: allow(missing-volatile)\n\
         asm(\"\"); // ptxguard: allow(missing-volatile, prefer-intrinsic)\n\
         int asm_x; // ptxguard: allow(adress-register-width)\n\
         // ptxguard: alow(missing-volatile)\n\
         // ptxguard: this prose is not a directive\n",
    );
    let found = findings(&dir, &[]);
    assert_eq!(
        rules_at(&found),
        [
            "1:unused-suppression",
            "2:unused-suppression",
            "3:unused-suppression",
            "4:unused-suppression"
        ]
    );
    assert_eq!(
        found[0]["message"],
        "`allow(missing-volatile)` suppresses nothing here"
    );
    assert_eq!(found[0]["severity"], "warning");
    assert_eq!(found[0]["fix"]["applicability"], "safe");
    assert_eq!(
        found[1]["message"],
        "`allow(prefer-intrinsic)` suppresses nothing here"
    );
    assert_eq!(
        found[2]["message"],
        "unknown rule `adress-register-width`; did you mean `address-register-width`?"
    );
    assert!(found[3]["message"].as_str().unwrap().contains("`alow`"));
    assert_eq!(found[3]["help"], "did you mean `allow`?");
}

#[test]
fn suppressions_of_rules_that_did_not_run_are_left_alone() {
    let dir = TestDir::new("disabled");
    dir.write(
        "a.cu",
        "asm volatile(\"\"); // ptxguard: allow(missing-volatile)\n",
    );
    assert!(findings(&dir, &["--ignore", "missing-volatile"]).is_empty());
    // And `unused-suppression` itself can be turned off or allowed.
    dir.write(
        "b.cu",
        "asm volatile(\"\"); // ptxguard: allow(prefer-intrinsic)\n",
    );
    assert!(findings(&dir, &["--ignore", "unused-suppression"]).is_empty());
    std::fs::remove_file(dir.join("a.cu")).unwrap();
    dir.write(
        "b.cu",
        "asm volatile(\"\"); // ptxguard: allow(prefer-intrinsic, unused-suppression)\n",
    );
    assert!(findings(&dir, &[]).is_empty());
}

#[test]
fn fixing_unused_suppressions_removes_exactly_them() {
    let dir = TestDir::new("fix-unused");
    let original = "int a; // asm\n\
        // ptxguard: allow(missing-volatile)\n\
        asm volatile(\"\");\n\
        asm volatile(\"\"); // keep this ptxguard: allow(prefer-intrinsic)\n\
        asm(\"%clock64\"); // ptxguard: allow(missing-volatile, prefer-intrinsic, address-register-width)\n\
        asm volatile(\"\"); /* ptxguard: allow(missing-volatile) */ int y;\n";
    dir.write("a.cu", original);
    let run = check_in(&dir.path, fake_check, &["--fix", "--no-config", FAKE_RULES]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        dir.read("a.cu"),
        "int a; // asm\n\
        asm volatile(\"\");\n\
        asm volatile(\"\"); // keep this\n\
        asm(\"%clock64\"); // ptxguard: allow(missing-volatile, prefer-intrinsic)\n\
        asm volatile(\"\"); int y;\n"
    );
}
