//! Build-aware checking end to end: the two-targets project of the corpus (two folders built
//! for different GPUs) checked with and without its compilation database, with
//! `TORCH_CUDA_ARCH_LIST`, with `[targets]`, and with bad databases.

mod common;

use common::TestDir;
use std::path::Path;
use std::process::{Command, Stdio};

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn ptxguard(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ptxguard"));
    cmd.args(args)
        .current_dir(cwd)
        .env_remove("CUDAARCHS")
        .env_remove("TORCH_CUDA_ARCH_LIST")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("ptxguard runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `file:line rule` for each arch-requirement finding.
fn findings(cwd: &Path, extra: &[&str], env: &[(&str, &str)]) -> (Vec<String>, String) {
    let mut args = vec![
        "check",
        "--output-format",
        "concise",
        "--select",
        "arch-requirement",
        "--exit-zero",
    ];
    args.extend_from_slice(extra);
    args.push(".");
    let out = ptxguard(cwd, &args, env);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let lines = out
        .stdout
        .lines()
        .filter(|l| l.contains("arch-requirement"))
        .map(|l| {
            let mut parts = l.splitn(3, ':');
            format!("{}:{}", parts.next().unwrap(), parts.next().unwrap())
        })
        .collect();
    (lines, out.stderr)
}

/// A copy of corpus/projects/two-targets (without the CMake output).
fn project(name: &str) -> TestDir {
    let dir = TestDir::new(name);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/projects/two-targets");
    for rel in [
        "attention/softmax.cu",
        "tensor/mma.cu",
        "include/reduce.cuh",
    ] {
        dir.write(rel, std::fs::read(root.join(rel)).unwrap());
    }
    dir
}

/// The database CMake writes for the project (as in cmake-output/, with this copy's paths),
/// in the `command` form, include paths in a response file as CMake 3.29+ does.
fn write_database(dir: &TestDir, at: &str) {
    let d = dir.path.display();
    dir.write(
        &format!("{at}/CMakeFiles/attention.dir/includes_CUDA.rsp"),
        format!("-I\"{d}/include\"\n"),
    );
    dir.write(
        &format!("{at}/compile_commands.json"),
        format!(
            r#"[
{{ "directory": "{d}/{at}",
   "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DUSE_FAST_EXP=1 --options-file CMakeFiles/attention.dir/includes_CUDA.rsp \"--generate-code=arch=compute_80,code=[compute_80,sm_80]\" \"--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]\" -x cu -c {d}/attention/softmax.cu -o x.o",
   "file": "{d}/attention/softmax.cu" }},
{{ "directory": "{d}/{at}",
   "arguments": ["ccache", "/usr/local/cuda/bin/nvcc", "-I{d}/include", "-gencode", "arch=compute_100a,code=sm_100a", "--some-unknown-flag", "-c", "{d}/tensor/mma.cu"],
   "file": "{d}/tensor/mma.cu" }}
]"#
        ),
    );
}

const ELECT_ON_SM80: &str = "attention/softmax.cu:25";

#[test]
fn without_anything_known_the_files_say_what_they_are_built_for() {
    let dir = project("bc-none");
    let (found, stderr) = findings(&dir.path, &[], &[]);
    assert!(found.is_empty(), "{found:?}\n{stderr}");
}

#[test]
fn the_database_gives_each_folder_its_targets() {
    let dir = project("bc-db");
    write_database(&dir, "build");
    // Found as clangd finds it (build/ under a parent of the files).
    let (found, stderr) = findings(&dir.path, &[], &[]);
    // Only the form nvcc really rejected (measured: `Feature 'elect' requires .target sm_90
    // or higher` in the sm_80 build of the CMake project); the header's redux.sync is built
    // for the units that include it (sm_80, sm_90a) and is fine there.
    assert_eq!(found, [ELECT_ON_SM80], "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let show = ptxguard(
        &dir.path,
        &["check", "--show-settings", "include/reduce.cuh"],
        &[],
    );
    assert!(
        show.stdout.contains("targets = [\"sm_80\", \"sm_90a\"]"),
        "{}",
        show.stdout
    );
    assert!(show.stdout.contains("included by"), "{}", show.stdout);
    let show = ptxguard(
        &dir.path,
        &["check", "--show-settings", "attention/softmax.cu"],
        &[],
    );
    assert!(show.stdout.contains("(entry 1)"), "{}", show.stdout);
    assert!(show.stdout.contains("-DUSE_FAST_EXP=1"), "{}", show.stdout);
    // An explicit database elsewhere, and the same answer.
    std::fs::rename(dir.join("build"), dir.join("elsewhere")).unwrap();
    let (found, _) = findings(&dir.path, &[], &[]);
    assert!(found.is_empty());
    let (found, _) = findings(
        &dir.path,
        &["--compile-commands", "elsewhere/compile_commands.json"],
        &[],
    );
    // The targets are the entries'; the response file stayed behind (said on stderr).
    assert_eq!(found, [ELECT_ON_SM80]);
}

#[test]
fn environment_lists_and_priorities() {
    let dir = project("bc-env");
    // Every file built for sm_80 and sm_90a: tcgen05 breaks both.
    let (found, _) = findings(&dir.path, &[], &[("TORCH_CUDA_ARCH_LIST", "8.0 9.0a+PTX")]);
    assert_eq!(found, [ELECT_ON_SM80, "tensor/mma.cu:4", "tensor/mma.cu:5"]);
    let all_three = [ELECT_ON_SM80, "tensor/mma.cu:4", "tensor/mma.cu:5"];
    let (found, _) = findings(&dir.path, &[], &[("CUDAARCHS", "80-real;90a")]);
    assert_eq!(found, all_three);
    // TORCH_CUDA_ARCH_LIST beats CUDAARCHS.
    let both = [("CUDAARCHS", "80"), ("TORCH_CUDA_ARCH_LIST", "10.0a")];
    let (found, _) = findings(&dir.path, &[], &both);
    assert!(found.is_empty(), "{found:?}");
    // The database beats the environment.
    write_database(&dir, "build");
    let (found, _) = findings(&dir.path, &[], &[("TORCH_CUDA_ARCH_LIST", "8.0")]);
    assert_eq!(found, [ELECT_ON_SM80]);
    // The database beats the configuration: an entry says what a build really compiles.
    dir.write(
        "ptxguard.toml",
        "target = [\"sm_80\"]\n[targets]\n\"attention/**\" = [\"sm_90a\"]\n",
    );
    let (found, _) = findings(&dir.path, &[], &[]);
    assert_eq!(found, [ELECT_ON_SM80]);
    // Without a database the configuration decides, `[targets]` before the `target` key.
    std::fs::remove_dir_all(dir.join("build")).unwrap();
    let (found, _) = findings(&dir.path, &[], &[]);
    assert_eq!(found, ["tensor/mma.cu:4", "tensor/mma.cu:5"]);
    let show = ptxguard(
        &dir.path,
        &["check", "--show-settings", "attention/softmax.cu"],
        &[],
    );
    assert!(
        show.stdout.contains("ptxguard.toml ([targets]") && show.stdout.contains("attention/**"),
        "{}",
        show.stdout
    );
    // `--target` beats everything.
    let (found, _) = findings(&dir.path, &["--target", "sm_80"], &[]);
    assert_eq!(found, all_three);
}

#[test]
fn bad_input_is_said_clearly_and_the_run_goes_on() {
    let dir = project("bc-bad");
    dir.write(
        "build/compile_commands.json",
        "[\n  {\"directory\": \"/x\",\n   \"file\": 3}\n]\n",
    );
    let out = ptxguard(
        &dir.path,
        &["check", "--select", "arch-requirement", "."],
        &[],
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("build/compile_commands.json:3:")
            && out.stderr.contains("checked without the database"),
        "{}",
        out.stderr
    );
    // An entry for a file that does not exist, a response file that does not exist.
    dir.write(
        "build/compile_commands.json",
        format!(
            r#"[{{"directory": "{d}", "file": "gone.cu", "command": "nvcc -arch=sm_80 @missing.rsp gone.cu"}}]"#,
            d = dir.path.display()
        ),
    );
    let out = ptxguard(
        &dir.path,
        &["check", "--select", "arch-requirement", "."],
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("missing.rsp") && out.stderr.contains("gone.cu, which does not exist"),
        "{}",
        out.stderr
    );
    let out = ptxguard(
        &dir.path,
        &["check", "--compile-commands", "nope.json", "."],
        &[],
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--compile-commands") && out.stderr.contains("nope.json"),
        "{}",
        out.stderr
    );
    let out = ptxguard(&dir.path, &["check", "--target", "sm_999", "."], &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("`sm_999` is not a target"),
        "{}",
        out.stderr
    );
    dir.write("ptxguard.toml", "cuda-version = \"twelve\"\n");
    let out = ptxguard(&dir.path, &["check", "."], &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("ptxguard.toml:1:") && out.stderr.contains("not a CUDA version"),
        "{}",
        out.stderr
    );
    dir.write("ptxguard.toml", "cuda-version = \"12.6\"\n");
    let show = ptxguard(
        &dir.path,
        &["check", "--show-settings", "tensor/mma.cu"],
        &[],
    );
    assert!(show.stdout.contains("ptx-isa = \"8.5\""), "{}", show.stdout);
    let out = ptxguard(
        &dir.path,
        &[
            "check",
            "--cuda-version",
            "12.6",
            "--target",
            "sm_100a",
            "--select",
            "arch-requirement",
            "tensor",
        ],
        &[],
    );
    // A finding at the file's first instruction, once, and no per-statement noise for it.
    let findings: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("[arch-requirement]"))
        .collect();
    assert_eq!(findings.len(), 1, "{}", out.stdout);
    assert!(
        findings[0].contains(
            "built for sm_100a (--target), which CUDA 12.6 (--cuda-version) does not compile for"
        ),
        "{}",
        out.stdout
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
}

#[test]
fn dump_names_the_branches_no_target_compiles() {
    let dir = TestDir::new("bc-dump");
    dir.write(
        "k.cu",
        "#define USE_WGMMA 0\n__global__ void k() {\n#if USE_WGMMA\n  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n#endif\n  asm volatile(\"membar.gl;\" ::: \"memory\");\n}\n",
    );
    let out = ptxguard(&dir.path, &["dump", "k.cu"], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("statement 1 (line 4): not compiled for any target this file is built for (#if USE_WGMMA): not checked"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("statement 2 (line"), "{}", out.stdout);
}

/// Macros from the headers a file includes decide its `#if` branches: a feature the
/// project's header turns on is compiled (so its arch need is reported for the database's
/// target), one it turns off by default is not checked. Without the include folder the
/// header is not found and both branches stay undecided, as before.
#[test]
fn macros_from_included_headers_decide_branches() {
    let dir = TestDir::new("bc-included-macros");
    dir.write(
        "include/features.cuh",
        "#pragma once\n#define USE_BULK_STORE 1\n#ifndef USE_OLD_PATH\n#define USE_OLD_PATH 0\n#endif\n",
    );
    dir.write(
        "src/kernel.cu",
        "#include <features.cuh>\n__global__ void k() {\n#if USE_BULK_STORE\n  asm volatile(\"st.bulk.weak.shared::cta [%0], 128, 0;\" :: \"r\"(0) : \"memory\");\n#endif\n#if USE_OLD_PATH\n  asm volatile(\"not.an.instruction %0;\" :: \"r\"(0));\n#endif\n}\n",
    );
    let d = dir.path.display();
    let database = |include: &str| {
        format!(
            r#"[{{ "directory": "{d}", "arguments": ["nvcc", {include}"-arch=sm_90", "-c", "src/kernel.cu"], "file": "src/kernel.cu" }}]"#
        )
    };
    let lines = |args: &[&str]| {
        let mut all = vec!["check", "--output-format", "concise", "--exit-zero"];
        all.extend_from_slice(args);
        all.push("src/kernel.cu");
        let out = ptxguard(&dir.path, &all, &[]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let mut rules: Vec<String> = out
            .stdout
            .lines()
            .filter_map(|l| {
                let rule = l.split(": ").nth(1)?.split(' ').next()?;
                Some(format!("{}:{rule}", l.split(':').nth(1)?))
            })
            .collect();
        rules.sort();
        rules
    };
    dir.write("build/compile_commands.json", database("\"-Iinclude\", "));
    assert_eq!(
        lines(&["--select", "arch-requirement,ptx-syntax"]),
        ["4:arch-requirement"]
    );
    dir.write("build/compile_commands.json", database(""));
    assert_eq!(
        lines(&["--select", "arch-requirement,ptx-syntax"]),
        ["7:ptx-syntax"]
    );
}

/// A header gets the `-D` its includers are compiled with: `-DDISABLE_SM90_FEATURES` on the
/// sm_80 unit removes the header's sm_90 code from that build (no finding); without it, the
/// unguarded `elect.sync` in the header is reported for sm_80.
#[test]
fn headers_get_the_macros_of_the_units_that_include_them() {
    let dir = TestDir::new("bc-header-macros");
    dir.write(
        "include/elect.cuh",
        "#pragma once\n__device__ inline unsigned elect() {\n  unsigned r = 0;\n#ifndef DISABLE_SM90_FEATURES\n  asm volatile(\"{\\n .reg .pred p;\\n elect.sync _|p, 0xffffffff;\\n selp.u32 %0, 1, 0, p;\\n}\" : \"=r\"(r));\n#endif\n  return r;\n}\n",
    );
    dir.write(
        "src/kernel.cu",
        "#include <elect.cuh>\n__global__ void k(unsigned* out) { out[0] = elect(); }\n",
    );
    let d = dir.path.display();
    let database = |define: &str| {
        format!(
            r#"[{{ "directory": "{d}", "arguments": ["nvcc", "-Iinclude", {define}"-arch=sm_80", "-c", "src/kernel.cu"], "file": "src/kernel.cu" }}]"#
        )
    };
    let header_findings = || {
        let out = ptxguard(
            &dir.path,
            &[
                "check",
                "--output-format",
                "concise",
                "--select",
                "arch-requirement",
                "--exit-zero",
                "include/elect.cuh",
            ],
            &[],
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
            .lines()
            .filter(|l| l.contains("arch-requirement"))
            .count()
    };
    dir.write(
        "build/compile_commands.json",
        database("\"-DDISABLE_SM90_FEATURES\", "),
    );
    assert_eq!(header_findings(), 0);
    let settings = ptxguard(
        &dir.path,
        &["check", "--show-settings", "include/elect.cuh"],
        &[],
    );
    assert!(
        settings.stdout.contains("-DDISABLE_SM90_FEATURES")
            && settings.stdout.contains("macros-from"),
        "{}",
        settings.stdout
    );
    dir.write("build/compile_commands.json", database(""));
    assert_eq!(header_findings(), 1);
}

/// What nvcc accepts and clang rejects (`%clock` with operands, operands without a comma) is
/// info; a warning where clang builds the file (the database says so) or where the
/// configuration or the command line asks for clang portability.
#[test]
fn portability_findings_are_warnings_only_where_clang_matters() {
    let dir = TestDir::new("bc-portability");
    dir.write(
        "k.cu",
        "__global__ void k(unsigned* out, unsigned a, unsigned b) {\n  unsigned t;\n  asm volatile(\"mov.u32 %0, %clock;\" : \"=r\"(t));\n  unsigned s;\n  asm(\"add.u32 %0, %1, %2;\" : \"=r\"(s) : \"r\"(a) \"r\"(b));\n  out[0] = t + s;\n}\n",
    );
    let severities = |extra: &[&str]| -> Vec<String> {
        let mut args = vec![
            "check",
            "--output-format",
            "concise",
            "--select",
            "percent-escape,missing-operand-comma",
            "--exit-zero",
        ];
        args.extend_from_slice(extra);
        args.push("k.cu");
        let out = ptxguard(&dir.path, &args, &[]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        out.stdout
            .lines()
            .filter(|l| l.starts_with("k.cu:"))
            .map(|l| {
                let rule = l.split(' ').nth(1).unwrap_or("");
                let severity = l.split('[').nth(1).and_then(|s| s.split(']').next());
                format!("{rule} {}", severity.unwrap_or(""))
            })
            .collect()
    };
    let info = ["percent-escape info", "missing-operand-comma info"];
    let warning = ["percent-escape warning", "missing-operand-comma warning"];
    assert_eq!(severities(&[]), info);
    assert_eq!(severities(&["--portability", "clang"]), warning);
    // Info never fails the default gate.
    let gate = ptxguard(&dir.path, &["check", "-q", "k.cu"], &[]);
    assert_eq!(gate.code, 0, "{}", gate.stdout);

    dir.write("ptxguard.toml", "portability = [\"clang\"]\n");
    assert_eq!(severities(&[]), warning);
    let show = ptxguard(&dir.path, &["check", "--show-settings", "k.cu"], &[]);
    assert!(
        show.stdout.contains("portability = [\"clang\"]"),
        "{}",
        show.stdout
    );
    dir.write("ptxguard.toml", "portability = [\"clang++\"]\n");
    let bad = ptxguard(&dir.path, &["check", "k.cu"], &[]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("did you mean `clang`?"),
        "{}",
        bad.stderr
    );
    let bad = ptxguard(
        &dir.path,
        &["check", "--no-config", "--portability", "gcc", "k.cu"],
        &[],
    );
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--portability"), "{}", bad.stderr);
    std::fs::remove_file(dir.join("ptxguard.toml")).unwrap();

    // A database entry compiled by nvcc changes nothing; one compiled by clang++ does.
    let database = |compiler: &str| {
        format!(
            r#"[{{"directory": "{}", "file": "k.cu", "arguments": ["{compiler}", "--cuda-gpu-arch=sm_80", "-c", "k.cu"]}}]"#,
            dir.path.display()
        )
    };
    dir.write(
        "compile_commands.json",
        database("/usr/local/cuda/bin/nvcc"),
    );
    assert_eq!(severities(&[]), info);
    dir.write("compile_commands.json", database("/usr/bin/clang++"));
    assert_eq!(severities(&[]), warning);
    let full = ptxguard(&dir.path, &["check", "--exit-zero", "k.cu"], &[]);
    assert!(
        full.stdout
            .contains("the compilation database builds this file with `/usr/bin/clang++`"),
        "{}",
        full.stdout
    );
    let show = ptxguard(&dir.path, &["check", "--show-settings", "k.cu"], &[]);
    assert!(
        show.stdout.contains("compilers = [\"/usr/bin/clang++\"]"),
        "{}",
        show.stdout
    );
}

/// A helper in an included header whose body always runs an asm with `"memory"` is a compiler
/// barrier where it is called: the wait's window stops at the call, so the store past it is
/// not evidence (info). Without the clobber in the header, the same kernel is loud again, also
/// from the result cache (the header's bytes are part of the key).
#[test]
fn barrier_helpers_in_included_headers_close_the_window() {
    let dir = TestDir::new("bc-header-barrier-helper");
    let header = |clobber: &str| {
        format!("#pragma once\n__device__ inline void fence_all() {{\n  asm volatile(\"fence.proxy.async.shared::cta;\" ::: {clobber});\n}}\n")
    };
    dir.write("include/helpers.cuh", header("\"memory\""));
    dir.write(
        "kernel.cu",
        "#include \"include/helpers.cuh\"\n__global__ void k(float* out) {\n  __shared__ float tile[128];\n  asm volatile(\"cp.async.bulk.wait_group.read 0;\");\n  fence_all();\n  tile[threadIdx.x] = 1.0f;\n  __syncthreads();\n  out[threadIdx.x] = tile[127 - threadIdx.x];\n}\n",
    );
    let severity = || {
        let out = ptxguard(
            &dir.path,
            &[
                "check",
                "--output-format",
                "concise",
                "--select",
                "missing-memory-clobber",
                "--exit-zero",
                "kernel.cu",
            ],
            &[],
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
            .lines()
            .find(|l| l.starts_with("kernel.cu:4:"))
            .map(|l| {
                l.split('[')
                    .nth(1)
                    .unwrap_or("")
                    .split(']')
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .unwrap_or_default()
    };
    assert_eq!(severity(), "info");
    dir.write("include/helpers.cuh", header(""));
    assert_eq!(severity(), "warning");
}

/// A store into a member array of a local whose type a project header defines is the thread's
/// own: not cited beside a load asm without `"memory"`. The header says which type: another
/// union reusing the member's name as a scalar does not decide, and once the member is a
/// pointer the store may reach memory and is cited (the cached result too).
#[test]
fn member_arrays_of_locals_typed_in_included_headers_are_private() {
    let dir = TestDir::new("bc-header-member-arrays");
    let header = |member: &str| {
        format!("#pragma once\n#include <cuda_fp16.h>\ntypedef union pair {{ unsigned u; half2 h; }} pair;\ntypedef union words {{ uint4 v; {member}; }} words;\n")
    };
    dir.write("include/words.h", header("half2 h[4]"));
    dir.write(
        "kernel.cu",
        "#include \"include/words.h\"\n__device__ unsigned load_weight(const unsigned* p) {\n  unsigned out;\n  asm(\"ld.global.L1::evict_last.u32 %0, [%1];\" : \"=r\"(out) : \"l\"(p));\n  return out;\n}\n__global__ void k(const unsigned* w, const half2* book, float* y) {\n  words reg;\n  for (int j = 0; j < 4; ++j) {\n    unsigned idx = load_weight(w + j);\n    reg.h[j] = book[idx & 255];\n  }\n  y[threadIdx.x] = __low2float(reg.h[0]);\n}\n",
    );
    let cited = || {
        let out = ptxguard(
            &dir.path,
            &[
                "check",
                "--select",
                "missing-memory-clobber",
                "--exit-zero",
                "kernel.cu",
            ],
            &[],
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.contains("kernel.cu:4:"), "{}", out.stdout);
        out.stdout.contains("11 │")
    };
    assert!(!cited());
    dir.write("include/words.h", header("half2* h"));
    assert!(cited());
}

/// Only a header's free functions that run their barrier on every path are barriers at their
/// calls: a braced early return skips it on some path, a method of the same name is another
/// function, and a name in a comment is no call. Each kernel stays loud.
#[test]
fn header_helpers_that_are_not_barriers_everywhere_do_not_close_the_window() {
    let dir = TestDir::new("bc-header-not-barriers");
    dir.write(
        "include/util.cuh",
        "#pragma once\n__device__ inline void maybe_sync(bool skip) {\n  if (skip) { return; }\n  __syncthreads();\n}\nstruct Pipeline {\n  __device__ void wait() { __syncthreads(); }\n};\n__device__ inline void fence_all() { asm volatile(\"fence.acq_rel.gpu;\" ::: \"memory\"); }\n",
    );
    dir.write(
        "kernels.cu",
        "#include \"include/util.cuh\"\n__device__ void wait(int n);\n__device__ float a(const float* p, bool skip) {\n  asm volatile(\"fence.acq_rel.gpu;\");\n  maybe_sync(skip);\n  return *p;\n}\n__device__ float b(const float* p) {\n  asm volatile(\"fence.acq_rel.gpu;\");\n  wait(10);\n  return *p;\n}\n__device__ float c(const float* p) {\n  asm volatile(\"fence.acq_rel.gpu;\");\n  // fence_all() would order it\n  return *p;\n}\n",
    );
    let out = ptxguard(
        &dir.path,
        &[
            "check",
            "--output-format",
            "concise",
            "--select",
            "missing-memory-clobber",
            "--exit-zero",
            "--no-cache",
            "kernels.cu",
        ],
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let loud: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("[warning]"))
        .map(|l| l.split(':').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(loud, ["4", "9", "14"], "{}", out.stdout);
}
