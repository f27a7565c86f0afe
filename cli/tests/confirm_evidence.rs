//! `ptxguard confirm` end to end with a stand-in toolkit (CI has no CUDA): a shell `nvcc` that
//! records how it was called and fails where a real ptxas would, and a `cuobjdump` that prints
//! machine code recorded with nvcc 13.0 (`missing-volatile/bad-deleted-atomic.cu`: the atomic
//! is there only when the asm is `volatile`). What is tested is ptxguard's part: the command
//! taken from the compilation database, one build per finding's fix, and the verdicts.
#![cfg(unix)]

mod common;

use common::{binary, fake_toolkit as toolkit, TestDir};
use std::os::unix::fs::PermissionsExt;

const ATOMIC: &str = "__device__ void bump(unsigned* c) {\n  unsigned old;\n  asm(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(old) : \"l\"(c));\n}\n__global__ void count(unsigned* c) { bump(c); }\n";

#[test]
fn flags_come_from_the_database_and_each_fix_is_built_alone() {
    let dir = TestDir::new("confirm-evidence");
    let nvcc = toolkit(&dir);
    dir.write("src/k.cu", ATOMIC);
    std::fs::create_dir_all(dir.join("build")).unwrap();
    dir.write(
        "build/compile_commands.json",
        format!(
            r#"[{{"directory": "{}", "file": "../src/k.cu", "command": "ccache /usr/local/cuda/bin/nvcc -DFOO=1 -Iinclude -arch=sm_90 -O3 -c ../src/k.cu -o k.o"}}]"#,
            dir.join("build").display()
        ),
    );
    let run = binary(&dir.path, &["confirm", "--nvcc", &nvcc, "src/k.cu"], None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // No flags typed: the database's entry, run in its directory, one target at a time.
    assert!(run.stdout.contains("flags: "), "{}", run.stdout);
    assert!(
        run.stdout.contains("compile_commands.json (entry 1)"),
        "{}",
        run.stdout
    );
    let calls = dir.read("cuda/bin/calls.log");
    let first = calls.lines().next().unwrap();
    assert!(
        first.contains(&format!("cwd={}", dir.join("build").display())),
        "{calls}"
    );
    for flag in [
        "-DFOO=1",
        "-Iinclude",
        "-O3",
        "-arch=compute_90",
        "-code=sm_90",
        "-cubin",
    ] {
        assert!(
            first.split_whitespace().any(|w| w == flag),
            "{flag}: {calls}"
        );
    }
    for gone in ["-arch=sm_90", "../src/k.cu", "k.o", "ccache", "-c"] {
        assert!(
            !first.split_whitespace().any(|w| w == gone),
            "{gone}: {calls}"
        );
    }
    // As written, with `volatile` alone, with the clobber alone: three builds.
    assert_eq!(calls.lines().count(), 3, "{calls}");
    // `volatile` brings the atomic back; the clobber alone does not.
    assert!(
        run.stdout.contains("missing-volatile [error]")
            || run.stdout.contains("missing-volatile [warning]"),
        "{}",
        run.stdout
    );
    let verdict_of = |rule: &str| {
        let at = run.stdout.find(&format!(": {rule} [")).expect(rule);
        run.stdout[at..].lines().nth(1).unwrap().trim().to_string()
    };
    assert_eq!(
        verdict_of("missing-volatile"),
        "bites in this build (sm_90): _Z5countPj: memory instructions without the fix vs with it: ATOM: 0 -> 1"
    );
    assert!(
        verdict_of("missing-memory-clobber").starts_with("no effect in this build (sm_90)"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("only a run can show"),
        "{}",
        run.stdout
    );

    // The JSON carries the verdict and the build it came from.
    let run = binary(
        &dir.path,
        &["confirm", "--json", "--nvcc", &nvcc, "src/k.cu"],
        None,
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect(&run.stdout);
    let finding = doc["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "missing-volatile")
        .unwrap();
    assert_eq!(finding["verdict"], "bites");
    assert_eq!(finding["build"]["target"], "sm_90");
    assert_eq!(finding["build"]["fix"], "add `volatile`");
    // The file's command is the user's: the original file, no scratch paths.
    let command: Vec<&str> = doc["files"][0]["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(command[0].ends_with("nvcc"), "{command:?}");
    assert_eq!(command.last(), Some(&"src/k.cu"), "{command:?}");
    assert!(
        !command.iter().any(|w| w.contains("ptxguard-evidence")),
        "{command:?}"
    );
}

/// A stand-in nvcc that "preprocesses": the quoted includes of the unit, read relative to the
/// unit's folder as a compiler reads them, then the unit.
const FAKE_NVCC_WITH_INCLUDES: &str = r#"#!/bin/sh
if [ "$1" = "--version" ]; then
  echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0
fi
out=""; prev=""; src=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a; src=$a
done
echo "cwd=$(pwd) src=$src" >> "$(dirname "$0")/calls.log"
: > "$out"
sed -n 's/^#include "\(.*\)"/\1/p' "$src" | while read h; do cat "$(dirname "$src")/$h" >> "$out"; done
cat "$src" >> "$out"
"#;

/// A finding in a header (no database entry of its own) is built through a unit that includes
/// it: each variant of the header in a mirror of the tree, the user's files untouched.
#[test]
fn a_header_is_built_through_a_unit_that_includes_it() {
    let dir = TestDir::new("confirm-header");
    let nvcc = toolkit(&dir);
    let p = dir.write("cuda/bin/nvcc", FAKE_NVCC_WITH_INCLUDES);
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    let header = "__device__ inline void bump(unsigned* c) {\n  unsigned old;\n  asm(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(old) : \"l\"(c));\n}\n";
    dir.write("src/inc/bump.cuh", header);
    dir.write(
        "src/k.cu",
        "#include \"inc/bump.cuh\"\n__global__ void count(unsigned* c) { bump(c); }\n",
    );
    std::fs::create_dir_all(dir.join("build")).unwrap();
    dir.write(
        "build/compile_commands.json",
        format!(
            r#"[{{"directory": "{}", "file": "../src/k.cu", "command": "nvcc -arch=sm_90 -O3 -c ../src/k.cu -o k.o"}}]"#,
            dir.join("build").display()
        ),
    );
    let run = binary(
        &dir.path,
        &["confirm", "--nvcc", &nvcc, "src/inc/bump.cuh"],
        None,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("which includes this header"),
        "{}",
        run.stdout
    );
    let at = run.stdout.find(": missing-volatile [").expect(&run.stdout);
    assert_eq!(
        run.stdout[at..].lines().nth(1).unwrap().trim(),
        "bites in this build (sm_90): _Z5countPj: memory instructions without the fix vs with it: ATOM: 0 -> 1",
        "{}",
        run.stdout
    );
    // Every build ran on the unit in a mirror (in the mirrored build folder), never in place.
    let calls = dir.read("cuda/bin/calls.log");
    assert!(calls.lines().count() >= 2, "{calls}");
    for call in calls.lines() {
        assert!(call.contains("/tree/"), "{calls}");
        assert!(call.ends_with("/src/k.cu"), "{calls}");
        assert!(
            !call.contains(&format!("src={}", dir.path.display())),
            "{calls}"
        );
    }
    assert_eq!(
        dir.read("src/inc/bump.cuh"),
        header,
        "the user's header is untouched"
    );
}

#[test]
fn a_fatal_error_without_a_line_is_confirmed_when_the_fix_removes_it() {
    let dir = TestDir::new("confirm-abi");
    let nvcc = toolkit(&dir);
    dir.write(
        "k.cu",
        "#include <cstdint>\n#include <cstddef>\n__global__ void k(unsigned* p, unsigned* out) {\n  unsigned v;\n  asm volatile(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"r\"((unsigned)(size_t)p));\n  *out = v;\n}\n",
    );
    let run = binary(
        &dir.path,
        &["confirm", "--nvcc", &nvcc, "k.cu", "--", "-arch=sm_90"],
        None,
    );
    assert_eq!(
        run.code, 1,
        "the build as written fails: {}{}",
        run.stdout, run.stderr
    );
    let at = run
        .stdout
        .find(": address-register-width [error]")
        .expect(&run.stdout);
    let verdict = run.stdout[at..].lines().nth(1).unwrap().trim();
    assert!(
        verdict.starts_with("confirmed by the toolchain in this build (sm_90): the fix removes the error: ptxas: 32-Bit ABI"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("flags: the command line"),
        "{}",
        run.stdout
    );
}

fn check(dir: &TestDir, args: &[&str]) -> (i32, String, String) {
    let path = format!(
        "{}:{}",
        dir.join("cuda/bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ptxguard"))
        .args(args)
        .current_dir(&dir.path)
        .env("PATH", path)
        .env_remove("CUDA_HOME")
        .env_remove("CUDA_PATH")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_confirm_carries_the_evidence_and_fail_on_confirmed_counts_only_what_the_build_showed() {
    let dir = TestDir::new("check-confirm");
    toolkit(&dir);
    dir.write("k.cu", ATOMIC);
    dir.write(
        "compile_commands.json",
        format!(
            r#"[{{"directory": "{}", "file": "k.cu", "arguments": ["nvcc", "-arch=sm_90", "-c", "k.cu"]}}]"#,
            dir.path.display()
        ),
    );
    let (code, stdout, stderr) = check(
        &dir,
        &[
            "check",
            "--no-config",
            "--confirm",
            "--output-format",
            "json",
            "k.cu",
        ],
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    let findings: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
    let of = |rule: &str| {
        findings
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["rule"] == rule)
            .unwrap_or_else(|| panic!("{rule}: {stdout}"))
            .clone()
    };
    assert_eq!(of("missing-volatile")["confirmation"]["verdict"], "bites");
    assert_eq!(of("missing-volatile")["confirmation"]["target"], "sm_90");
    assert_eq!(
        of("missing-memory-clobber")["confirmation"]["verdict"],
        "no-effect"
    );

    // SARIF: a property bag on the result.
    let (_, sarif, _) = check(
        &dir,
        &[
            "check",
            "--no-config",
            "--confirm",
            "--output-format",
            "sarif",
            "k.cu",
        ],
    );
    let log: serde_json::Value = serde_json::from_str(&sarif).expect(&sarif);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|r| r["properties"]["confirmation"]["verdict"] == "bites"),
        "{sarif}"
    );

    // rdjson: the review comment says it.
    let (_, rdjson, _) = check(
        &dir,
        &[
            "check",
            "--no-config",
            "--confirm",
            "--output-format",
            "rdjson",
            "k.cu",
        ],
    );
    assert!(
        rdjson.contains("confirm: bites in this build (sm_90)"),
        "{rdjson}"
    );

    // The full output prints it under the finding.
    let (_, full, _) = check(&dir, &["check", "--no-config", "--confirm", "k.cu"]);
    assert!(
        full.contains("= confirm: bites in this build (sm_90): _Z5countPj: memory instructions without the fix vs with it: ATOM: 0 -> 1"),
        "{full}"
    );

    // `--fail-on confirmed`: the atomic bites, so the run fails ...
    let (code, _, stderr) = check(
        &dir,
        &[
            "check",
            "--no-config",
            "--confirm",
            "--fail-on",
            "confirmed",
            "k.cu",
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    // ... and where the build compiles the same code either way (the stand-in cuobjdump
    // prints the same machine code), the findings have no effect in this build: it passes,
    // although a warning remains.
    dir.write("k.cu", format!("// compiled the same\n{ATOMIC}"));
    let (code, out, stderr) = check(
        &dir,
        &[
            "check",
            "--no-config",
            "--confirm",
            "--fail-on",
            "confirmed",
            "k.cu",
        ],
    );
    assert!(out.contains("warning[missing-volatile]"), "{out}");
    assert!(
        out.contains("confirm: no effect in this build (sm_90)"),
        "{out}"
    );
    assert_eq!(code, 0, "{out}{stderr}");
    let (code, _, _) = check(&dir, &["check", "--no-config", "k.cu"]);
    assert_eq!(
        code, 1,
        "without --fail-on confirmed the warning fails the run"
    );

    // Kernels in Python strings are built when the program runs: nothing to build here.
    dir.write(
        "k.py",
        format!("import cupy\nsrc = r'''\n{ATOMIC}'''\nm = cupy.RawModule(code=src)\n"),
    );
    let calls_before = dir.read("cuda/bin/calls.log").lines().count();
    let (_, out, stderr) = check(
        &dir,
        &[
            "check",
            "--no-config",
            "--confirm",
            "--output-format",
            "json",
            "k.py",
        ],
    );
    let findings: serde_json::Value = serde_json::from_str(&out).expect(&stderr);
    let first = &findings.as_array().expect(&out)[0];
    assert_eq!(first["confirmation"]["verdict"], "not-decidable", "{out}");
    assert_eq!(dir.read("cuda/bin/calls.log").lines().count(), calls_before);

    // Without `--confirm` there is nothing to count.
    let (code, _, stderr) = check(
        &dir,
        &["check", "--no-config", "--fail-on", "confirmed", "k.cu"],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("needs `--confirm`"), "{stderr}");
}

/// An nvcc that hangs is stopped at `PTXGUARD_BUILD_TIMEOUT` and the finding reads
/// not-decidable, saying why; the run ends.
#[test]
fn a_build_that_hangs_is_stopped_and_said() {
    let dir = TestDir::new("confirm-timeout");
    let nvcc = toolkit(&dir);
    let p = dir.write(
        "cuda/bin/nvcc",
        "#!/bin/sh\nif [ \"$1\" = \"--version\" ]; then echo \"Cuda compilation tools, release 13.0, V13.0.88\"; exit 0; fi\nsleep 60\n",
    );
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir.write("k.cu", ATOMIC);
    let started = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ptxguard"))
        .args([
            "confirm",
            "--json",
            "--nvcc",
            &nvcc,
            "k.cu",
            "--",
            "-arch=sm_90",
        ])
        .current_dir(&dir.path)
        .env("PTXGUARD_BUILD_TIMEOUT", "0.5")
        .output()
        .unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
    let findings = doc["files"][0]["findings"].as_array().unwrap();
    assert!(!findings.is_empty(), "{stdout}");
    for f in findings {
        assert_eq!(f["verdict"], "not-decidable", "{stdout}");
        assert!(
            f["detail"]
                .as_str()
                .unwrap()
                .contains("did not finish within 0.5 s"),
            "{stdout}"
        );
    }
}

/// `--with-info` also builds the findings the defaults keep at info (a gate counts only
/// warnings and errors, so by default they are not built).
#[test]
fn with_info_also_builds_info_findings() {
    let dir = TestDir::new("confirm-with-info");
    let nvcc = toolkit(&dir);
    dir.write(
        "k.cu",
        "__global__ void k(unsigned* p) {\n  p[0] = 1;\n  asm volatile(\"fence.proxy.async;\" ::: \"memory\");\n}\n",
    );
    let rules_of = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["confirm", "--json", "--nvcc", &nvcc];
        args.extend_from_slice(extra);
        args.extend(["k.cu", "--", "-arch=sm_90"]);
        let run = binary(&dir.path, &args, None);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect(&run.stdout);
        doc["files"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(!rules_of(&[]).contains(&"prefer-cuda-ptx".to_string()));
    assert!(rules_of(&["--with-info"]).contains(&"prefer-cuda-ptx".to_string()));
}

/// No compilation database: the command comes from what the check knows from the build files
/// (a torch extension's setup.py: its nvcc -gencode and -D), not nvcc's defaults.
#[test]
fn without_a_database_the_build_files_give_the_command() {
    let dir = TestDir::new("confirm-build-files");
    let nvcc = toolkit(&dir);
    dir.write(
        "setup.py",
        "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension, BuildExtension\nsetup(name='k', ext_modules=[CUDAExtension('k', ['csrc/k.cu'], extra_compile_args={'nvcc': ['-O3', '-gencode', 'arch=compute_90a,code=sm_90a', '-DUSE_FAST=1']})], cmdclass={'build_ext': BuildExtension})\n",
    );
    dir.write("csrc/k.cu", ATOMIC);
    let run = binary(&dir.path, &["confirm", "--nvcc", &nvcc, "csrc/k.cu"], None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("setup.py"), "{}", run.stdout);
    let calls = dir.read("cuda/bin/calls.log");
    let first = calls.lines().next().unwrap();
    for flag in ["-DUSE_FAST=1", "-arch=compute_90a", "-code=sm_90a"] {
        assert!(
            first.split_whitespace().any(|w| w == flag),
            "{flag}: {calls}"
        );
    }
}

/// `write-to-input` is built against what the author meant (the input copied into a scratch
/// read-write operand, `x` kept), not the rule's own fix: the machine code differs when the
/// compiler used the register the asm wrote as `x` afterwards (the stand-in `cuobjdump` prints
/// the extra copy the kept input needs, as nvcc does for `bad-mov-to-input.cu`).
#[test]
fn write_to_input_is_built_against_the_input_kept() {
    let dir = TestDir::new("confirm-write-to-input");
    toolkit(&dir);
    stand_in_nvcc(&dir, "cat \"$src\" >> \"$(dirname \"$0\")/sources.log\"\n");
    let cuobjdump = dir.write(
        "cuda/bin/cuobjdump",
        "#!/bin/sh\necho \"\tcode for sm_90\"\necho \"\t\tFunction : _Z1kPKiPi\"\necho \"        /*0000*/                   LDG.E R2, desc[UR4][R2.64] ;\"\nif grep -q '__ptxguard_kept' \"$2\"; then echo \"        /*0010*/                   MOV R5, R2 ;\"; echo \"        /*0020*/                   MOV R5, 0x5 ;\"; else echo \"        /*0020*/                   MOV R2, 0x5 ;\"; fi\necho \"        /*0030*/                   STG.E desc[UR4][R4.64], R2 ;\"\necho \"        /*0040*/                   EXIT ;\"\n",
    );
    std::fs::set_permissions(&cuobjdump, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir.write(
        "k.cu",
        "__global__ void k(const int* in, int* out) {\n  int x = in[0];\n  asm volatile(\"mov.u32 %0, 5;\" :: \"r\"(x));\n  out[0] = x;\n}\n",
    );
    let (doc, _) = confirm_json(&dir);
    let finding = doc["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "write-to-input")
        .unwrap()
        .clone();
    assert_eq!(finding["verdict"], "bites", "{finding}");
    assert!(
        finding["build"]["fix"]
            .as_str()
            .unwrap()
            .contains("input kept")
            || finding["build"]["fix"]
                .as_str()
                .unwrap()
                .contains("C++ value kept"),
        "{finding}"
    );
    let sources = dir.read("cuda/bin/sources.log");
    assert!(
        sources.contains(
            "{ auto __ptxguard_kept = (x); asm volatile(\"mov.u32 %0, 5;\" : \"+r\"(__ptxguard_kept) : ); }"
        ),
        "{sources}"
    );
}

/// Two findings claim the same error in one template (`%%` twice where nothing escapes it):
/// either fix alone leaves the other, so the build fails with and without it. With both fixes
/// the build is clean and with all but one it fails: each finding is confirmed (it read
/// "not reproduced" before).
#[test]
fn an_error_said_of_several_findings_is_confirmed_with_the_others_fixed() {
    let dir = TestDir::new("confirm-several");
    toolkit(&dir);
    stand_in_nvcc(
        &dir,
        "if grep -q '%%' \"$src\"; then echo \"ptxas /tmp/x/k.ptx, line 30; error   : Parsing error near '%': syntax error\" >&2; echo \"ptxas fatal   : Ptx assembly aborted due to errors\" >&2; exit 1; fi\n",
    );
    dir.write(
        "k.cu",
        "__device__ void arrive() {\n  asm volatile(\"{\\n\\t.reg .u32 %%one;\\n\\tmov.u32 %%one, 1;\\n\\t}\" ::: \"memory\");\n}\n__global__ void k(float* out) { arrive(); out[0] = 0.0f; }\n",
    );
    let (doc, run) = confirm_json(&dir);
    let findings: Vec<_> = doc["files"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "percent-escape")
        .cloned()
        .collect();
    assert_eq!(findings.len(), 2, "{}", run.stdout);
    for f in &findings {
        assert_eq!(f["verdict"], "confirmed", "{f}");
        assert!(
            f["detail"].as_str().unwrap().contains("1 other finding"),
            "{f}"
        );
    }
}

/// A finding with no fix (`%[carry]` names no operand) keeps every build failing: the other
/// findings of the statement (symbolic references, each with a fix) cannot be shown either
/// way, which is said instead of "not reproduced".
#[test]
fn an_error_no_fix_removes_makes_the_others_not_decidable() {
    let dir = TestDir::new("confirm-unfixable");
    toolkit(&dir);
    stand_in_nvcc(
        &dir,
        "if grep -q 'carry' \"$src\"; then echo \"$src(3): error: invalid symbolic operand name \\\"carry\\\"\" >&2; exit 1; fi\n",
    );
    dir.write(
        "k.cu",
        "__device__ unsigned add(unsigned a) {\n  unsigned r;\n  asm(\"add.u32 %[out], %[a], %[carry];\" : [out] \"=r\"(r) : [a] \"r\"(a));\n  return r;\n}\n__global__ void k(unsigned* v) { v[0] = add(v[1]); }\n",
    );
    let (doc, run) = confirm_json(&dir);
    let findings = doc["files"][0]["findings"].as_array().unwrap();
    let symbolic: Vec<_> = findings
        .iter()
        .filter(|f| {
            f["rule"] == "operand-index" && f["message"].as_str().unwrap().contains("symbolic")
        })
        .collect();
    assert_eq!(symbolic.len(), 2, "{}", run.stdout);
    for f in symbolic {
        assert_eq!(f["verdict"], "not-decidable", "{f}");
        assert!(f["detail"].as_str().unwrap().contains("have no fix"), "{f}");
    }
}

/// A stand-in `nvcc` under `cuda/bin` that answers `--version` as 13.0, runs `on_source` (shell,
/// with the source in `$src`; it may fail the build) and copies the source to its `-o` output.
fn stand_in_nvcc(dir: &TestDir, on_source: &str) {
    let nvcc = dir.write(
        "cuda/bin/nvcc",
        format!("#!/bin/sh\nif [ \"$1\" = \"--version\" ]; then echo \"Cuda compilation tools, release 13.0, V13.0.88\"; exit 0; fi\nout=\"\"; prev=\"\"; src=\"\"\nfor a in \"$@\"; do [ \"$prev\" = \"-o\" ] && out=$a; prev=$a; src=$a; done\n{on_source}cp \"$src\" \"$out\"\n"),
    );
    std::fs::set_permissions(&nvcc, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `ptxguard confirm --json` of `k.cu` with the stand-in `nvcc`, for sm_90: the document and the run.
fn confirm_json(dir: &TestDir) -> (serde_json::Value, common::Run) {
    let nvcc = dir.path.join("cuda/bin/nvcc").display().to_string();
    let run = binary(
        &dir.path,
        &[
            "confirm",
            "--json",
            "--nvcc",
            &nvcc,
            "k.cu",
            "--",
            "-arch=sm_90",
        ],
        None,
    );
    let doc = serde_json::from_str(&run.stdout).expect(&run.stdout);
    (doc, run)
}
