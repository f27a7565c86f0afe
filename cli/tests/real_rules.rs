//! The CLI on the real engine and rules, on corpus-like code.

mod common;

use common::{binary, TestDir};
use serde_json::Value;

const BAD_ADDRESS: &str = r#"#include <cstdint>
__device__ uint32_t load(const uint32_t* p) {
  uint32_t v;
  uint32_t p32 = (uint32_t)(size_t)p;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "r"(p32));
  return v;
}
"#;

const NON_VOLATILE_ATOMIC: &str = r#"__device__ unsigned bump(unsigned* counter) {
  unsigned old;
  asm("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counter));
  return old;
}
"#;

fn json(dir: &TestDir, args: &[&str]) -> (i32, Vec<Value>) {
    let mut all = vec!["check", "--output-format", "json"];
    all.extend_from_slice(args);
    let run = binary(&dir.path, &all, None);
    assert_ne!(run.code, 2, "{}", run.stderr);
    let found: Value = serde_json::from_str(&run.stdout).unwrap();
    (run.code, found.as_array().unwrap().clone())
}

fn rules(found: &[Value]) -> Vec<&str> {
    found.iter().map(|f| f["rule"].as_str().unwrap()).collect()
}

#[test]
fn a_32_bit_global_address_is_found() {
    let dir = TestDir::new("real-address");
    dir.write("k.cu", BAD_ADDRESS);
    let (code, found) = json(&dir, &[]);
    assert_eq!(code, 1);
    let finding = found
        .iter()
        .find(|f| f["rule"] == "address-register-width")
        .expect("address-register-width");
    assert_eq!(finding["line"], 5);
}

#[test]
fn a_suppressed_real_finding_is_quiet_and_a_stale_allow_is_reported() {
    let dir = TestDir::new("real-allow");
    dir.write(
        "k.cu",
        BAD_ADDRESS.replace(
            "  asm volatile(",
            "  // ptxguard: allow(address-register-width)\n  asm volatile(",
        ),
    );
    let (_, found) = json(&dir, &[]);
    assert!(
        !rules(&found).contains(&"address-register-width"),
        "{found:?}"
    );
    assert!(!rules(&found).contains(&"unused-suppression"), "{found:?}");

    dir.write(
        "k.cu",
        "__device__ void f() {\n  asm volatile(\"trap;\"); // ptxguard: allow(missing-volatile)\n}\n",
    );
    let (_, found) = json(&dir, &[]);
    assert_eq!(rules(&found), ["unused-suppression"]);
}

#[test]
fn safe_fixes_on_real_findings_converge() {
    let dir = TestDir::new("real-fix");
    dir.write("k.cu", NON_VOLATILE_ATOMIC);
    let (_, before) = json(&dir, &[]);
    assert!(rules(&before).contains(&"missing-volatile"), "{before:?}");
    let first = binary(&dir.path, &["check", "--fix", "-q"], None);
    assert_ne!(first.code, 2, "{}", first.stderr);
    let fixed = dir.read("k.cu");
    assert!(fixed.contains("asm volatile("), "{fixed}");
    let (_, after) = json(&dir, &[]);
    assert!(!rules(&after).contains(&"missing-volatile"), "{after:?}");
    binary(&dir.path, &["check", "--fix", "-q"], None);
    assert_eq!(dir.read("k.cu"), fixed, "a second --fix changes nothing");
}

#[test]
fn sarif_of_real_findings_validates() {
    let dir = TestDir::new("real-sarif");
    dir.write("k.cu", BAD_ADDRESS);
    dir.write("a.cu", NON_VOLATILE_ATOMIC);
    let run = binary(&dir.path, &["check", "--output-format", "sarif"], None);
    let log: Value = serde_json::from_str(&run.stdout).unwrap();
    let schema: Value = serde_json::from_str(include_str!("sarif-schema-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());
}

#[test]
fn clean_code_exits_zero_for_its_targets() {
    let dir = TestDir::new("real-clean");
    dir.write(
        "k.cu",
        r#"__device__ void cp(unsigned smem, const void* gmem) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(smem), "l"(__cvta_generic_to_global(gmem)) : "memory");
}
__global__ void k(const float* g) {
  __shared__ float s[4];
  cp(static_cast<unsigned>(__cvta_generic_to_shared(s)), g);
}
"#,
    );
    let run = binary(
        &dir.path,
        &[
            "check",
            "--output-format",
            "concise",
            "--target",
            "sm_80,sm_90a",
        ],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    // Without targets the file is taken to be built where cp.async exists: clean too.
    let inferred = binary(&dir.path, &["check", "--output-format", "concise"], None);
    assert_eq!(inferred.code, 0, "{}", inferred.stdout);
    // Built for sm_75 too, cp.async (reached from a kernel) needs sm_80: the flag reached
    // the rule.
    let old = binary(
        &dir.path,
        &[
            "check",
            "--output-format",
            "concise",
            "--target",
            "sm_75,sm_80",
        ],
        None,
    );
    assert!(old.stdout.contains("arch-requirement"), "{}", old.stdout);
}

const INLINE_HELPER: &str = r#"__forceinline__ __device__ unsigned remote(unsigned a, unsigned r) {
  unsigned v;
  asm volatile("setctarank.shared.u32 %0, %1, %2;" : "=r"(v) : "r"(a), "r"(r));
  return v;
}
"#;

const CALLER: &str = "#include \"../include/helper.cuh\"\n__global__ void k(unsigned* v) { v[0] = remote(v[1], v[2]); }\n";

fn ptx_syntax(found: &[Value]) -> &Value {
    found
        .iter()
        .find(|f| f["rule"] == "ptx-syntax")
        .expect("ptx-syntax")
}

/// nvcc compiles an inline helper only where it is called: ptxas never sees one nothing calls.
#[test]
fn a_finding_in_an_inline_helper_is_loud_only_where_a_checked_file_uses_it() {
    let dir = TestDir::new("real-reach");
    dir.write("include/helper.cuh", INLINE_HELPER);
    let (code, found) = json(&dir, &[]);
    assert_eq!(code, 0, "{found:?}");
    let finding = ptx_syntax(&found);
    assert_eq!(finding["severity"], "info");
    assert!(
        finding["note"]
            .as_str()
            .unwrap()
            .starts_with("nothing in the project uses `remote`"),
        "{finding}"
    );

    // A file with no asm calls it; the header's result comes from the cache this time.
    dir.write("src/k.cu", CALLER);
    for _ in 0..3 {
        let (code, found) = json(&dir, &[]);
        assert_eq!(code, 1, "{found:?}");
        assert_eq!(ptx_syntax(&found)["severity"], "error");
    }
    // The answer is kept, keyed by the files' fingerprints (the last run used it).
    let cache = std::fs::read_to_string(dir.join(".ptxguard_cache/results.json")).unwrap();
    let (_, body) = cache.split_once('\n').unwrap();
    let stored: Value = serde_json::from_str(body).unwrap();
    assert_eq!(
        stored["reach"]["key"].as_str().unwrap().len(),
        32,
        "{cache}"
    );
    let used = &stored["reach"]["used"];
    assert_eq!(used[0][0], "remote", "{cache}");
    assert!(
        used[0][1].as_str().unwrap().ends_with("helper.cuh"),
        "{cache}"
    );

    // The caller stops calling it: the answer the cache kept no longer holds.
    dir.write(
        "src/k.cu",
        "#include \"../include/helper.cuh\"\n__global__ void k(unsigned* v) { v[0] = v[1]; }\n",
    );
    let (code, found) = json(&dir, &[]);
    assert_eq!(code, 0, "{found:?}");
    assert_eq!(ptx_syntax(&found)["severity"], "info");

    // Checked alone (as a pre-commit hook names a changed file), the header's callers are
    // still looked for in its project: the repository it is in.
    dir.write("src/k.cu", CALLER);
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    for cwd in [dir.path.clone(), dir.join("include")] {
        let run = binary(
            &cwd,
            &[
                "check",
                "--output-format",
                "json",
                &dir.join("include/helper.cuh").to_string_lossy(),
            ],
            None,
        );
        assert_eq!(run.code, 1, "{}", run.stdout);
        let found: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(ptx_syntax(found.as_array().unwrap())["severity"], "error");
    }
}

/// Outside any repository or configured folder, the project is the checked files.
#[test]
fn a_helper_checked_alone_outside_a_project_has_no_caller() {
    let dir = TestDir::new("real-reach-alone");
    dir.write("include/helper.cuh", INLINE_HELPER);
    dir.write("src/k.cu", CALLER);
    let (code, found) = json(&dir, &["include/helper.cuh"]);
    assert_eq!(code, 0, "{found:?}");
    assert_eq!(ptx_syntax(&found)["severity"], "info");
    let (code, found) = json(&dir, &[]);
    assert_eq!(code, 1, "{found:?}");
    assert_eq!(ptx_syntax(&found)["severity"], "error");
}

/// `dump` says which statements sit in a function compiled only where used, and whether
/// their file uses it.
#[test]
fn dump_says_whether_a_helper_is_used_in_its_file() {
    let dir = TestDir::new("real-reach-dump");
    dir.write(
        "k.cu",
        format!("{INLINE_HELPER}__global__ void k(unsigned* v) {{ v[0] = v[1]; }}\n"),
    );
    let run = binary(&dir.path, &["dump", "k.cu"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("compiled only where used: not used in this file"),
        "{}",
        run.stdout
    );
    dir.write(
        "k.cu",
        format!(
            "{INLINE_HELPER}{}",
            &CALLER[CALLER.find('\n').unwrap() + 1..]
        ),
    );
    let run = binary(&dir.path, &["dump", "k.cu"], None);
    assert!(
        run.stdout
            .contains("compiled only where used: used in this file"),
        "{}",
        run.stdout
    );
}

/// `dump` says which statements sit in an `if constexpr` branch no instantiation takes, and
/// `check` reports their findings as info with the reason in the note.
#[test]
fn an_if_constexpr_branch_no_instantiation_takes_is_said_and_quiet() {
    let dir = TestDir::new("real-untaken-branch");
    let code = |limit: u32| {
        format!(
            "template <int N>\n__device__ void f(unsigned* p) {{\n  \
             static_assert(N == 1 || N == {limit}, \"N\");\n  \
             if constexpr (N == 1) {{\n    asm volatile(\"mov.b32 %0, 1;\" : \"=r\"(p[0]));\n  }} \
             else if constexpr (N == 2) {{\n    asm volatile(\"mov.b32 %0, 2;\" : \"=r\"(p[0]));\n  }} \
             else {{\n    asm volatile(\"trap\");\n  }}\n}}\n\
             __global__ void k(unsigned* p) {{ f<1>(p); f<{limit}>(p); }}\n"
        )
    };
    dir.write("k.cu", code(2));
    let run = binary(&dir.path, &["dump", "k.cu"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "never instantiated: the function's `static_assert` allows `N` only the values {1, 2}"
        ),
        "{}",
        run.stdout
    );
    let (code_now, found) = json(&dir, &[]);
    assert_eq!(code_now, 0, "{found:?}");
    let finding = ptx_syntax(&found);
    assert_eq!(finding["severity"], "info");
    assert!(
        finding["note"]
            .as_str()
            .is_some_and(|n| n.contains("C++17 [stmt.if]")),
        "{finding:?}"
    );
    // N == 3 passes the assert and reaches the `else`: the finding is loud again (and now
    // the `N == 2` branch is the one no allowed value takes).
    dir.write("k.cu", code(3));
    let run = binary(&dir.path, &["dump", "k.cu"], None);
    let sections: Vec<&str> = run.stdout.split("asm #").collect();
    assert_eq!(sections.len(), 4, "{}", run.stdout);
    assert!(sections[2].contains("never instantiated"), "{}", run.stdout);
    assert!(
        !sections[3].contains("never instantiated"),
        "{}",
        run.stdout
    );
    let (code_now, found) = json(&dir, &[]);
    assert_eq!(code_now, 1, "{found:?}");
    assert_eq!(ptx_syntax(&found)["severity"], "error");
}
