//! Targets and `-D`s from build files, end to end: the corpus projects with a `setup.py`
//! (variants; `TORCH_CUDA_ARCH_LIST` set by the script), a `CMakeLists.txt` (with a file's own
//! options and definitions) and a `Makefile`,
//! each checked with no configuration at all; their place below the other sources; build
//! files that cannot be read.

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

/// A copy of corpus/projects/NAME in a temporary folder (so nothing above it is a build file
/// or a database).
fn project(name: &str) -> TestDir {
    let dir = TestDir::new(name);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/projects")
        .join(name);
    let mut work = vec![root.clone()];
    while let Some(d) = work.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                work.push(p);
            } else {
                let rel = p.strip_prefix(&root).unwrap().to_str().unwrap().to_string();
                dir.write(&rel, std::fs::read(&p).unwrap());
            }
        }
    }
    dir
}

/// `file:line` of each arch-requirement finding, the JSON notes, and standard error.
fn findings(
    cwd: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Vec<String>, Vec<String>, String) {
    let mut args = vec![
        "check",
        "--output-format",
        "json",
        "--select",
        "arch-requirement",
        "--exit-zero",
    ];
    args.extend_from_slice(extra);
    args.push(".");
    let out = ptxguard(cwd, &args, env);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON output");
    let list = json
        .as_array()
        .cloned()
        .or_else(|| json["diagnostics"].as_array().cloned())
        .unwrap_or_default();
    let mut at = Vec::new();
    let mut notes = Vec::new();
    for d in list {
        let file = d["filename"]
            .as_str()
            .or_else(|| d["file"].as_str())
            .unwrap_or("?")
            .trim_start_matches("./")
            .to_string();
        let line = d["location"]["row"]
            .as_u64()
            .or_else(|| d["line"].as_u64())
            .unwrap_or(0);
        at.push(format!("{file}:{line}"));
        notes.push(d["note"].as_str().unwrap_or("").to_string());
    }
    (at, notes, out.stderr)
}

fn show_settings(cwd: &Path, file: &str, env: &[(&str, &str)]) -> String {
    let out = ptxguard(cwd, &["check", "--show-settings", file], env);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    out.stdout
}

#[test]
fn setup_py_variants_each_check_the_files_they_build() {
    let dir = project("setup-variants");
    let (at, notes, stderr) = findings(&dir.path, &[], &[]);
    // The sm_90 register read nothing excludes, in the Ampere variant only; the cluster
    // barrier under `#ifndef DISABLE_CLUSTER` is excluded there, and sm_90 has it.
    assert_eq!(at, ["csrc/cluster.cuh:13"], "{stderr}");
    assert!(
        notes[0].contains(
            "only in build variant `os.getenv(\"LEGACY_AMPERE\", \"0\") == \"1\"` of setup.py"
        ) && notes[0].contains("sm_80 -DDISABLE_CLUSTER=1"),
        "{notes:?}"
    );
    let show = show_settings(&dir.path, "csrc/ops.cu", &[]);
    assert!(
        show.contains("setup.py (extension `ops._C`, variant"),
        "{show}"
    );
    assert_eq!(show.matches("[[build.variant]]").count(), 2, "{show}");
    assert!(
        show.contains("macros = [\"-DDISABLE_CLUSTER=1\"]"),
        "{show}"
    );
    // The header gets its includer's variants.
    let show = show_settings(&dir.path, "csrc/cluster.cuh", &[]);
    assert!(show.contains("included by"), "{show}");
    assert_eq!(show.matches("[[build.variant]]").count(), 2, "{show}");
}

#[test]
fn setup_py_arch_list_default_and_macros() {
    let dir = project("setup-arch-list");
    // TORCH_CUDA_ARCH_LIST defaults to "7.5 8.0" in the script; -DWARP_REDUCE=1 (from a
    // function of the script) makes `#if WARP_REDUCE` true.
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    assert_eq!(at, ["csrc/reduce.cu:5"], "{stderr}");
    let show = show_settings(&dir.path, "csrc/reduce.cu", &[]);
    assert!(show.contains("targets = [\"sm_75\", \"sm_80\"]"), "{show}");
    assert!(show.contains("setup.py (extension `reduce._C`)"), "{show}");
    // The environment is explicit configuration: it wins over the build file.
    let (at, _, _) = findings(&dir.path, &[], &[("TORCH_CUDA_ARCH_LIST", "8.0")]);
    assert!(at.is_empty(), "{at:?}");
}

#[test]
fn cmake_architectures() {
    let dir = project("cmake-archs");
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    // redux.sync unguarded on sm_75; cp.async guarded in copy.cu.
    assert_eq!(at, ["kernels/reduce.cu:4"], "{stderr}");
    let show = show_settings(&dir.path, "kernels/copy.cu", &[]);
    assert!(
        show.contains("CMakeLists.txt (target `kernels`)")
            && show.contains("targets = [\"sm_75\", \"sm_80\"]")
            && show.contains("-DPIPELINE_STAGES=2"),
        "{show}"
    );
}

#[test]
fn cmake_source_options_and_definitions() {
    let dir = project("cmake-source-options");
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    // cluster.cu's own --generate-code adds sm_80 to the target's 90: its unguarded cluster
    // barriers fail there. hopper.cu's own -DHOPPER_ONLY=1 leaves its tcgen05 branch out.
    assert_eq!(
        at,
        ["kernels/cluster.cu:4", "kernels/cluster.cu:5"],
        "{stderr}"
    );
    let show = show_settings(&dir.path, "kernels/cluster.cu", &[]);
    assert!(
        show.contains("CMakeLists.txt (target `kernels`, the file's own properties)")
            && show.contains("targets = [\"sm_80\", \"sm_90\"]"),
        "{show}"
    );
    let show = show_settings(&dir.path, "kernels/hopper.cu", &[]);
    assert!(
        show.contains("targets = [\"sm_90\"]") && show.contains("-DHOPPER_ONLY=1"),
        "{show}"
    );
}

#[test]
fn makefile_gencode_and_defines() {
    let dir = project("makefile-gencode");
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    // -DNO_CLUSTER excludes the cluster barrier on sm_75; redux.sync fails there.
    assert_eq!(at, ["scan.cu:8"], "{stderr}");
    let show = show_settings(&dir.path, "scan.cu", &[]);
    assert!(
        show.contains("Makefile (nvcc recipe)")
            && show.contains("targets = [\"sm_75\", \"sm_90\"]"),
        "{show}"
    );
}

#[test]
fn higher_sources_win_over_build_files() {
    let dir = project("cmake-archs");
    // --target and [targets] are explicit.
    let (at, _, _) = findings(&dir.path, &["--target", "sm_80"], &[]);
    assert!(at.is_empty(), "{at:?}");
    dir.write(
        "ptxguard.toml",
        "[targets]\n\"kernels/*.cu\" = [\"sm_90\"]\n",
    );
    let (at, _, _) = findings(&dir.path, &[], &[]);
    assert!(at.is_empty(), "{at:?}");
    std::fs::remove_file(dir.join("ptxguard.toml")).unwrap();
    // A compilation database that knows the file.
    let d = dir.path.display();
    dir.write(
        "compile_commands.json",
        format!(
            r#"[{{"directory": "{d}", "file": "kernels/reduce.cu", "command": "nvcc -arch=sm_90 -c kernels/reduce.cu"}}]"#
        ),
    );
    let (at, _, _) = findings(&dir.path, &[], &[]);
    assert!(at.is_empty(), "{at:?}");
    let show = show_settings(&dir.path, "kernels/reduce.cu", &[]);
    assert!(show.contains("compile_commands.json (entry 1)"), "{show}");
}

#[test]
fn builds_without_declared_targets_give_nothing() {
    // A JIT project: the extension has no -gencode and the script sets no arch list.
    let dir = TestDir::new("jit-setup");
    dir.write(
        "setup.py",
        "from torch.utils.cpp_extension import CUDAExtension\nsetup(ext_modules=[CUDAExtension('x', ['k.cu'])])\n",
    );
    dir.write(
        "k.cu",
        "__global__ void k(unsigned* o) { unsigned r; asm volatile(\"redux.sync.min.u32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(o[0])); o[0] = r; }\n",
    );
    let (at, _, _) = findings(&dir.path, &[], &[]);
    assert!(at.is_empty(), "{at:?}");
    let show = show_settings(&dir.path, "k.cu", &[]);
    assert!(show.contains("inferred from the file"), "{show}");
}

#[test]
fn unreadable_build_files_never_stop_the_run() {
    let dir = TestDir::new("bad-build-files");
    let kernel = "__global__ void k(unsigned* o) { unsigned r; asm volatile(\"redux.sync.min.u32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(o[0])); o[0] = r; }\n";
    // Malformed Python, unterminated brackets and strings, invalid UTF-8.
    dir.write("py/setup.py", b"nvcc = [\"-gencode\", \"arch=compute_75,code=sm_75\"\nif os.getenv(\"X\":\n\xff\xfe CUDAExtension(sources=['k.cu', extra_compile_args={'nvcc': nvcc}\n\"\"\"never closed");
    dir.write("py/k.cu", kernel);
    // A CMakeLists.txt over the read limit, with unbalanced parentheses.
    let mut big =
        String::from("set(CMAKE_CUDA_ARCHITECTURES 75)\nadd_library(k k.cu)\nset(X \"(((\n");
    while big.len() < 5 << 20 {
        big.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    dir.write("cm/CMakeLists.txt", big);
    dir.write("cm/k.cu", kernel);
    // A Makefile whose variables refer to themselves.
    dir.write(
        "mk/Makefile",
        "A = $(B) -arch=sm_75\nB = $(A)\nk: k.cu\n\tnvcc $(A) -o k k.cu\n",
    );
    dir.write("mk/k.cu", kernel);
    let out = ptxguard(
        &dir.path,
        &[
            "check",
            "--select",
            "arch-requirement",
            "--output-format",
            "concise",
            "--exit-zero",
            ".",
        ],
        &[],
    );
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    // The CMake file's start is read: its target still gets sm_75; the cut is said.
    assert!(out.stdout.contains("cm/k.cu:1:"), "{}", out.stdout);
    assert!(
        out.stderr.contains("only its start is read"),
        "{}",
        out.stderr
    );
}

#[test]
fn targets_the_toolkit_cannot_build_are_no_build_of_it() {
    // sm_60 (an older toolkit's branch) is not compiled by CUDA 13.0, the default toolkit.
    let dir = TestDir::new("old-targets");
    dir.write(
        "setup.py",
        "CUDAExtension('m', ['k.cu'], extra_compile_args={'nvcc': ['-gencode', 'arch=compute_60,code=sm_60', '-gencode', 'arch=compute_80,code=sm_80']})\n",
    );
    dir.write(
        "k.cu",
        "__global__ void k(unsigned* o) { asm volatile(\"fence.acq_rel.gpu;\" ::: \"memory\"); }\n",
    );
    let show = show_settings(&dir.path, "k.cu", &[]);
    assert!(show.contains("targets = [\"sm_80\"]"), "{show}");
    let (at, _, _) = findings(&dir.path, &[], &[]);
    assert!(at.is_empty(), "{at:?}");
    // Under CUDA 11.8, sm_60 is a target: `fence.acq_rel` needs sm_70.
    let (at, _, _) = findings(&dir.path, &["--cuda-version", "11.8"], &[]);
    assert_eq!(at, ["k.cu:1"], "{at:?}");
}

#[test]
fn header_helpers_count_where_the_includers_call_them() {
    // Built for sm_80 (CMake); the header's two sm_90 helpers: one called only under an
    // `#if` of the including file (compiled where that says: nothing to report), one called
    // plainly (compiled for sm_80: a finding).
    let dir = TestDir::new("header-calls");
    dir.write(
        "CMakeLists.txt",
        "project(p LANGUAGES CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80 90)\nadd_library(k k.cu)\n",
    );
    dir.write(
        "cluster.cuh",
        "#pragma once\n__device__ inline unsigned rank_guarded() { unsigned r; asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(r)); return r; }\n__device__ inline unsigned rank_plain() { unsigned r; asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(r)); return r; }\n",
    );
    dir.write(
        "k.cu",
        "#include \"cluster.cuh\"\n__global__ void k(unsigned* o) {\n#if MY_ARCH_SM90\n  o[0] = rank_guarded();\n#endif\n  o[1] = rank_plain();\n}\n",
    );
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    assert_eq!(at, ["cluster.cuh:3"], "{stderr}");
}

#[test]
fn header_members_sharing_a_name_are_not_matched_by_the_includers_calls() {
    // mscclpp's pattern: the header's classes each have a `signal()`, one of them with an
    // sm_90 instruction; the includer calls `signal()` on another class's object. The call is
    // matched by name only, so it says nothing about which `signal()` it reaches: no finding.
    // A name only one function has is still matched (the plain helper).
    let dir = TestDir::new("header-members");
    dir.write(
        "CMakeLists.txt",
        "project(p LANGUAGES CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80 90)\nadd_library(k k.cu)\n",
    );
    dir.write(
        "sem.cuh",
        "#pragma once\nstruct Memory {\n  unsigned* flag;\n  __device__ inline void signal() { atomicAdd(flag, 1u); }\n};\nstruct Switch {\n  unsigned* flag;\n  __device__ inline void signal() { asm volatile(\"multimem.red.release.sys.global.add.u32 [%0], 1;\" :: \"l\"(flag) : \"memory\"); }\n};\n__device__ inline unsigned rank_plain() { unsigned r; asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(r)); return r; }\n",
    );
    dir.write(
        "k.cu",
        "#include \"sem.cuh\"\n__global__ void k(Memory m, unsigned* o) {\n  m.signal();\n  o[0] = rank_plain();\n}\n",
    );
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    assert_eq!(at, ["sem.cuh:10"], "{stderr}");
    // Free functions sharing a name (overloads, one definition per `#if` branch) are matched
    // as before: each call may reach them.
    dir.write(
        "ops.cuh",
        "#pragma once\n__device__ inline void fence_cluster() { asm volatile(\"fence.acq_rel.cluster;\" ::: \"memory\"); }\n__device__ inline void fence_cluster(int) { asm volatile(\"fence.acq_rel.cluster;\" ::: \"memory\"); }\n#ifdef USE_SYS_SCOPE\n__device__ inline void fence_b() { asm volatile(\"fence.sc.cluster;\" ::: \"memory\"); }\n#else\n__device__ inline void fence_b() { asm volatile(\"fence.acq_rel.cluster;\" ::: \"memory\"); }\n#endif\n",
    );
    dir.write(
        "k.cu",
        "#include \"ops.cuh\"\n__global__ void k(float* p) { fence_cluster(); fence_cluster(1); fence_b(); }\n",
    );
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    assert_eq!(at, ["ops.cuh:2", "ops.cuh:3", "ops.cuh:7"], "{stderr}");
}

#[test]
fn header_helpers_called_through_a_guarded_caller_count_where_that_guard_says() {
    // The includer's `compute` calls the header's sm_90 helper plainly, but the kernel calls
    // `compute` only under an `#if`: the helper is not compiled for sm_80 through it. A
    // second helper, reached from the kernel through an unguarded `compute_plain`, is.
    let dir = TestDir::new("header-calls-transitive");
    dir.write(
        "CMakeLists.txt",
        "project(p LANGUAGES CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80 90)\nadd_library(k k.cu)\n",
    );
    dir.write(
        "cluster.cuh",
        "#pragma once\n__device__ inline unsigned rank_a() { unsigned r; asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(r)); return r; }\n__device__ inline unsigned rank_b() { unsigned r; asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(r)); return r; }\n",
    );
    dir.write(
        "k.cu",
        "#include \"cluster.cuh\"\ntemplate <int N> __device__ unsigned compute() { return rank_a() + N; }\ntemplate <int N> __device__ unsigned compute_plain() { return rank_b() + N; }\n__global__ void k(unsigned* o) {\n#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n  o[0] = compute<1>();\n#endif\n  o[1] = compute_plain<1>();\n}\n",
    );
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    assert_eq!(at, ["cluster.cuh:3"], "{stderr}");
}

#[test]
fn header_helpers_count_for_the_targets_of_the_files_that_call_them() {
    // The header's sm_90 helper is called by a file built for sm_90 only; a file built for
    // sm_80 includes the header without calling it: nothing is compiled for sm_80.
    let dir = TestDir::new("header-calls-per-target");
    dir.write(
        "CMakeLists.txt",
        "project(p LANGUAGES CUDA)\nadd_library(host host.cu)\nset_target_properties(host PROPERTIES CUDA_ARCHITECTURES 80)\nadd_library(h90 h90.cu)\nset_target_properties(h90 PROPERTIES CUDA_ARCHITECTURES 90)\n",
    );
    dir.write(
        "cluster.cuh",
        "#pragma once\n__device__ inline unsigned rank() { unsigned r; asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(r)); return r; }\n",
    );
    dir.write("host.cu", "#include \"cluster.cuh\"\nvoid launch() {}\n");
    dir.write(
        "h90.cu",
        "#include \"cluster.cuh\"\n__global__ void k(unsigned* o) { o[0] = rank(); }\n",
    );
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    assert!(at.is_empty(), "{at:?} {stderr}");
    // Called from the sm_80 file too: a finding.
    dir.write(
        "host.cu",
        "#include \"cluster.cuh\"\n__global__ void k80(unsigned* o) { o[0] = rank(); }\n",
    );
    let (at, _, stderr) = findings(&dir.path, &[], &[]);
    assert_eq!(at, ["cluster.cuh:2"], "{stderr}");
}

#[test]
fn a_project_built_only_with_hip_gives_nvcc_nothing() {
    // rccl's pattern: a CMake project with no CUDA language that links `hip::device`, whose
    // headers keep the CUDA path of the code they were ported from in `#else` branches of
    // `#if defined(__HIPCC__)`. nvcc compiles none of it: its findings are info.
    let dir = TestDir::new("hip-only");
    let header = "#pragma once\ninline __device__ void wait_all(int n) {\n#if defined(__HIPCC__)\n  __builtin_amdgcn_s_barrier();\n#else\n  asm volatile(\"bar.sync 1, %0;\" :: \"r\"(n));\n#endif\n}\n__global__ void k(int* p, int n) { p[threadIdx.x] = 1; wait_all(n); p[n - 1 - threadIdx.x] += 1; }\n";
    dir.write("src/prims.h", header);
    dir.write("src/all_reduce.cpp", "#include \"prims.h\"\n");
    let hip = "cmake_minimum_required(VERSION 3.16)\nproject(comm CXX)\nfind_package(hip REQUIRED)\nadd_library(comm src/all_reduce.cpp)\ntarget_link_libraries(comm PRIVATE hip::device)\n";
    dir.write("CMakeLists.txt", hip);
    let check = |format: &str, file: &str| {
        ptxguard(
            &dir.path,
            &[
                "check",
                "--output-format",
                format,
                "--exit-zero",
                "--no-cache",
                file,
            ],
            &[],
        )
    };
    let out = check("json", "src/prims.h");
    let findings: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
    let clobber = findings
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "missing-memory-clobber")
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert_eq!(clobber["severity"], "info", "{clobber}");
    assert!(
        clobber["note"]
            .as_str()
            .is_some_and(|n| n.contains("builds with HIP and never with CUDA")),
        "{clobber}"
    );
    let show = show_settings(&dir.path, "src/prims.h", &[]);
    assert!(show.contains("not-for-nvidia"), "{show}");
    // Written for HIP on NVIDIA GPUs, which hipcc hands to nvcc: still loud.
    dir.write(
        "src/nv.h",
        "#pragma once\ninline __device__ void wait_nv(int n) {\n#if defined(__HIP_PLATFORM_NVIDIA__)\n  asm volatile(\"bar.sync 1, %0;\" :: \"r\"(n));\n#endif\n}\n__global__ void k2(int* p, int n) { p[threadIdx.x] = 1; wait_nv(n); p[n - 1 - threadIdx.x] += 1; }\n",
    );
    let out = check("concise", "src/nv.h");
    assert!(
        out.stdout.contains("missing-memory-clobber [warning]"),
        "{}",
        out.stdout
    );
    // The same project able to build with CUDA too (an option picks): nvcc may compile it.
    dir.write(
        "CMakeLists.txt",
        format!("{hip}if(USE_CUDA)\n  enable_language(CUDA)\nendif()\n"),
    );
    let out = check("json", "src/prims.h");
    assert!(
        out.stdout.contains("\"severity\":\"warning\"")
            || out.stdout.contains("\"severity\": \"warning\""),
        "{}",
        out.stdout
    );
}
