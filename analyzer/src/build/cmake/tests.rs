use super::*;
use crate::build::toolkit::target_name;
use crate::build::CudaVersion;

fn project(files: &[(&str, &str)]) -> (PathBuf, ProjectBuild) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("ptxguard-cmake-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let p = read(&dir.join("CMakeLists.txt"), CudaVersion::DEFAULT);
    (dir, p)
}

fn targets(p: &ProjectBuild, file: &Path) -> Vec<String> {
    p.builds_for(file)
        .first()
        .map(|b| b.build.targets.iter().map(target_name).collect())
        .unwrap_or_default()
}

#[test]
fn architectures_properties_flags_and_subdirectories() {
    let (dir, p) = project(&[
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.24)\nproject(p LANGUAGES CUDA) # comment\n#[[ add_library(ghost ghost.cu) ]]\nset(CMAKE_CUDA_ARCHITECTURES 75 80)\nset(SRCS a.cu)\nadd_library(a STATIC ${SRCS})\ntarget_compile_definitions(a PRIVATE X=1 -DY)\nif(WITH_Z)\n  target_compile_definitions(a PRIVATE Z)\nendif()\nadd_executable(b b.cu)\nset_target_properties(b PROPERTIES CUDA_ARCHITECTURES \"90a-real\")\nadd_subdirectory(sub)\nfunction(f)\n  add_library(in_function f.cu)\nendfunction()\n",
        ),
        (
            "sub/CMakeLists.txt",
            "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -gencode arch=compute_100a,code=sm_100a\")\nset(CMAKE_CUDA_ARCHITECTURES OFF)\nfile(GLOB KS ${CMAKE_CURRENT_SOURCE_DIR}/k*.cu)\nadd_library(c ${KS})\ntarget_compile_options(c PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-DFROM_GENEX>)\n",
        ),
        ("sub/k1.cu", ""),
    ]);
    assert_eq!(targets(&p, &dir.join("a.cu")), ["sm_75", "sm_80"]);
    let a = &p.builds_for(&dir.join("a.cu"))[0].build;
    // Z is defined only when WITH_Z holds: not assumed.
    assert_eq!(a.macros.as_ref().map(Vec::len), Some(2), "{:?}", a.macros);
    assert_eq!(targets(&p, &dir.join("b.cu")), ["sm_90a"]);
    assert_eq!(targets(&p, &dir.join("sub/k1.cu")), ["sm_100a"]);
    let c = &p.builds_for(&dir.join("sub/k1.cu"))[0].build;
    assert!(
        c.macros
            .iter()
            .flatten()
            .any(|m| format!("{m:?}").contains("FROM_GENEX")),
        "{:?}",
        c.macros
    );
    assert!(p.builds_for(&dir.join("ghost.cu")).is_empty());
    assert!(p.builds_for(&dir.join("f.cu")).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn presets_native_and_malformed_text() {
    let (dir, p) = project(&[
        (
            "CMakeLists.txt",
            "project(p)\nadd_library(a a.cu)\nadd_library(n n.cu)\nset_property(TARGET n PROPERTY CUDA_ARCHITECTURES native)\n",
        ),
        (
            "CMakePresets.json",
            r#"{"version": 3, "configurePresets": [{"name": "x", "cacheVariables": {"CMAKE_CUDA_ARCHITECTURES": {"type": "STRING", "value": "86"}}}]}"#,
        ),
    ]);
    assert_eq!(targets(&p, &dir.join("a.cu")), ["sm_86"]);
    assert!(targets(&p, &dir.join("n.cu")).is_empty());
    assert!(
        p.notes.iter().any(|n| n.contains("native")),
        "{:?}",
        p.notes
    );
    let _ = std::fs::remove_dir_all(&dir);
    // Malformed: every prefix of a file full of CMake's quoting forms.
    let text = "set(A \"x;\\\"y\\\" ${B}\" [==[raw ]] ]==] é)\n#[=[ c ]=]\nadd_library(t ${A} $<IF:$<CONFIG:Debug>,d.cu,r.cu>) ${${X}}\n";
    for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
        let _ = commands(&text[..end]);
    }
    let mut vars = HashMap::new();
    vars.insert("A".to_string(), "${A}${A}".to_string());
    assert!(expand("${A}", &vars).len() <= 2 * MAX_EXPANDED_BYTES);
}

#[test]
fn architectures_computed_in_loops_are_unknown() {
    // Architectures bucketed in a `foreach` (whose variable is not known here): the
    // target's property is unknown, not the project-wide list it was created with.
    let (dir, p) = project(&[
        (
            "CMakeLists.txt",
            "project(p)\nset(CMAKE_CUDA_ARCHITECTURES 70-real 90a-real)\nset(SM90 \"\")\nforeach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)\n  if(arch MATCHES \"^90\")\n    list(APPEND SM90 \"${arch}\")\n  endif()\nendforeach()\nif(NOT SM90)\n  set(SM90 \"90\")\nendif()\nadd_library(k90 k90.cu)\nset_target_properties(k90 PROPERTIES CUDA_ARCHITECTURES \"${SM90}\")\nadd_library(all all.cu)\n",
        ),
    ]);
    assert!(targets(&p, &dir.join("k90.cu")).is_empty());
    assert!(p.notes.iter().any(|n| n.contains("k90")), "{:?}", p.notes);
    assert_eq!(targets(&p, &dir.join("all.cu")), ["sm_70", "sm_90a"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `find_package(CUDAToolkit)` names the toolkit's version `CUDAToolkit_VERSION`: a project
/// that picks its default architectures on it gets the list of the toolkit it is built with
/// (it used to take the branch for toolkits before 12.8 as well).
#[test]
fn the_cuda_toolkit_package_version_is_the_toolkit() {
    let (dir, p) = project(&[(
        "CMakeLists.txt",
        "project(p)\nfind_package(CUDAToolkit)\nif(CUDAToolkit_VERSION VERSION_LESS 12.8)\n  set(CMAKE_CUDA_ARCHITECTURES 70 80)\nelse()\n  set(CMAKE_CUDA_ARCHITECTURES 75 80 90 100 120)\nendif()\nif(CUDAToolkit_VERSION_MAJOR LESS 13)\n  list(APPEND CMAKE_CUDA_ARCHITECTURES 72)\nendif()\nadd_library(k k.cu)\n",
    )]);
    assert_eq!(
        targets(&p, &dir.join("k.cu")),
        ["sm_75", "sm_80", "sm_90", "sm_100", "sm_120"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conditions_on_the_toolkit_version_are_decided() {
    let (dir, p) = project(&[(
        "CMakeLists.txt",
        "project(p)\nset(CMAKE_CUDA_ARCHITECTURES \"\")\nif (${CMAKE_CUDA_COMPILER_VERSION} VERSION_LESS \"13.0\")\n  list(APPEND CMAKE_CUDA_ARCHITECTURES 75-real)\nendif()\nif(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)\n  list(APPEND CMAKE_CUDA_ARCHITECTURES 90a-real)\nelseif(UNSET_OPTION)\n  list(APPEND CMAKE_CUDA_ARCHITECTURES 70)\nelse()\n  list(APPEND CMAKE_CUDA_ARCHITECTURES 60)\nendif()\nif(ARCH STREQUAL \"aarch64\")\n  list(APPEND CMAKE_CUDA_ARCHITECTURES 87)\nendif()\nif(UNSET_OPTION)\n  set(HOST \"x86\")\nelse()\n  set(HOST \"arm\")\nendif()\nif(HOST STREQUAL \"x86\")\n  list(APPEND CMAKE_CUDA_ARCHITECTURES 80)\nendif()\noption(WITH_89 \"\" OFF)\nif(WITH_89 STREQUAL \"ON\")\n  list(APPEND CMAKE_CUDA_ARCHITECTURES 89)\nendif()\nadd_library(k k.cu)\n",
    )]);
    // 75 only below CUDA 13; 87 depends on ARCH, not set here: kept; 80 on a variable set
    // under a condition that may not hold, 89 on an option: kept.
    assert_eq!(
        targets(&p, &dir.join("k.cu")),
        ["sm_80", "sm_87", "sm_89", "sm_90a"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flags_appended_under_conditions_grow_by_what_is_appended() {
    // `set(X "${X} -more")` in many `if()`s (ggml's CMAKE_C_FLAGS): each value is the
    // earlier one plus a word; kept as one union, X grows linearly, not doubling per line
    // (0.9 MB before).
    let mut r = Reader::new(None);
    let mut scope = Scope::default();
    r.set(&mut scope, "CMAKE_C_FLAGS", "-O2".into());
    scope.uncertain = 1;
    for k in 0..12 {
        let old = scope.vars["CMAKE_C_FLAGS"].clone();
        r.set(&mut scope, "CMAKE_C_FLAGS", format!("{old} -m{k}"));
    }
    let flags = &scope.vars["CMAKE_C_FLAGS"];
    assert!(flags.len() < 100, "{} bytes", flags.len());
    assert!(flags.starts_with("-O2 -m0 -m1 ") && flags.ends_with(" -m11"));
    // Another value is still a second possibility, kept beside the first.
    r.set(&mut scope, "CMAKE_C_FLAGS", "-O3".into());
    assert!(scope.vars["CMAKE_C_FLAGS"].ends_with(" -m11 -O3"));
    r.set(&mut scope, "ARCHS", "80".into());
    r.set(&mut scope, "ARCHS", "800".into());
    assert_eq!(scope.vars["ARCHS"], "80;800");
    r.set(&mut scope, "ARCHS", "70;80;800".into());
    assert_eq!(scope.vars["ARCHS"], "70;80;800");
}

#[test]
fn files_are_parsed_once_until_forgotten() {
    // A nested project is read as its own root and as part of the one above: its files are
    // parsed once. A changed file counts only after `forget_parsed` (the language server's).
    let (dir, p) = project(&[(
        "CMakeLists.txt",
        "project(p)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nadd_library(k k.cu)\n",
    )]);
    assert_eq!(targets(&p, &dir.join("k.cu")), ["sm_80"]);
    let list = dir.join("CMakeLists.txt");
    std::fs::write(
        &list,
        "project(p)\nset(CMAKE_CUDA_ARCHITECTURES 90)\nadd_library(k k.cu)\n",
    )
    .unwrap();
    let again = read(&list, CudaVersion::DEFAULT);
    assert_eq!(targets(&again, &dir.join("k.cu")), ["sm_80"]);
    forget_parsed();
    let changed = read(&list, CudaVersion::DEFAULT);
    assert_eq!(targets(&changed, &dir.join("k.cu")), ["sm_90"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn globs_are_walked_when_read() {
    // CCCL globs 900 test folders into a list only a `foreach` reads, whose body calls a
    // function (not followed): not walked. A glob a target, a `list(APPEND)` or a condition
    // reads is walked then, with the same files.
    let (dir, p) = project(&[
        (
            "CMakeLists.txt",
            "project(p)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nfile(GLOB_RECURSE unused RELATIVE ${CMAKE_CURRENT_LIST_DIR} tests/*.cu)\nforeach(t IN LISTS unused)\n  add_test_for(${t})\nendforeach()\nfile(GLOB used ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cu)\nfile(GLOB none ${CMAKE_CURRENT_SOURCE_DIR}/nowhere/*.cu)\nlist(APPEND none extra.cu)\nif(none STREQUAL \"extra.cu\")\n  set(CMAKE_CUDA_ARCHITECTURES 90)\nendif()\nadd_library(k ${used} ${none})\n",
        ),
        ("src/a.cu", ""),
        ("src/b.cu", ""),
        ("tests/deep/t.cu", ""),
    ]);
    assert_eq!(targets(&p, &dir.join("src/a.cu")), ["sm_90"]);
    assert_eq!(targets(&p, &dir.join("src/b.cu")), ["sm_90"]);
    assert_eq!(targets(&p, &dir.join("extra.cu")), ["sm_90"]);
    let walked = crate::build::project::WALKED.lock().unwrap().clone();
    assert!(walked.iter().any(|w| w.starts_with(dir.join("src"))));
    assert!(
        !walked.iter().any(|w| w.starts_with(dir.join("tests"))),
        "{walked:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn globs_in_a_folder_whose_name_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let base = std::env::temp_dir().join(format!("ptxguard-cmake-glob-{}", std::process::id()));
    let dir = base.join(std::ffi::OsStr::from_bytes(b"bad\xffname"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("CMakeLists.txt"),
        "project(p)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nfile(GLOB S *.cu)\nadd_library(k ${S})\n",
    )
    .unwrap();
    std::fs::write(dir.join("k.cu"), "").unwrap();
    // The folder is walked as it is named (a glob kept for later is written as text).
    let p = read(&dir.join("CMakeLists.txt"), CudaVersion::DEFAULT);
    assert_eq!(p.unit_count(), 1);
    let _ = std::fs::remove_dir_all(&base);
}

fn macros(p: &ProjectBuild, file: &Path) -> Vec<String> {
    p.builds_for(file)
        .first()
        .and_then(|b| b.build.macros.clone())
        .unwrap_or_default()
        .iter()
        .map(|m| format!("{m:?}"))
        .collect()
}

#[test]
fn source_properties_add_their_targets_and_definitions() {
    // TransformerEngine's pattern: the target's architectures OFF, each file's
    // `--generate-code`s set in loops over lists built with `list(APPEND)`, standard
    // architectures split from the list with `list(FIND)`/`list(REMOVE_ITEM)`.
    let (dir, p) = project(&[
        (
            "CMakeLists.txt",
            "project(p LANGUAGES CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80 90 100)\nset(GENERIC)\nlist(FIND CMAKE_CUDA_ARCHITECTURES \"100\" i100)\nif(NOT i100 EQUAL -1)\n  list(REMOVE_ITEM CMAKE_CUDA_ARCHITECTURES \"100\")\n  list(APPEND GENERIC \"100\")\nendif()\nlist(FIND CMAKE_CUDA_ARCHITECTURES \"110\" i110)\nif(NOT i110 EQUAL -1)\n  list(APPEND GENERIC \"110\")\nendif()\nset(STANDARD ${CMAKE_CUDA_ARCHITECTURES})\nset(srcs)\nlist(APPEND srcs a.cu b.cu)\nforeach(src IN LISTS srcs)\n  set(opts)\n  foreach(arch IN LISTS STANDARD GENERIC)\n    list(APPEND opts \"--generate-code=arch=compute_${arch},code=sm_${arch}\")\n  endforeach()\n  set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS ${opts})\nendforeach()\nadd_library(k a.cu b.cu c.cu d.cu e.cu)\nset_target_properties(k PROPERTIES CUDA_ARCHITECTURES OFF)\nset_source_files_properties(b.cu c.cu PROPERTIES COMPILE_OPTIONS \"-arch=sm_75;-lineinfo\" COMPILE_DEFINITIONS \"FAST=1;-DNO_TMA\")\nforeach(f d.cu)\n  set_source_files_properties(${f} PROPERTIES COMPILE_FLAGS \"-gencode arch=compute_90a,code=sm_90a\")\nendforeach()\nadd_library(m e.cu)\nset_target_properties(m PROPERTIES CUDA_ARCHITECTURES 86)\nset_property(SOURCE e.cu APPEND PROPERTY COMPILE_OPTIONS -arch=sm_80)\nadd_subdirectory(sub)\n",
        ),
        (
            "sub/CMakeLists.txt",
            "set_source_files_properties(../e.cu PROPERTIES COMPILE_OPTIONS -arch=sm_120)\n",
        ),
    ]);
    assert_eq!(targets(&p, &dir.join("a.cu")), ["sm_80", "sm_90", "sm_100"]);
    // Replaced by set_source_files_properties: its -arch only (the target's are OFF).
    assert_eq!(targets(&p, &dir.join("b.cu")), ["sm_75"]);
    assert_eq!(targets(&p, &dir.join("c.cu")), ["sm_75"]);
    assert_eq!(
        macros(&p, &dir.join("c.cu")),
        [
            "Define(\"FAST\", \"1\")".to_string(),
            "Define(\"NO_TMA\", \"1\")".to_string()
        ]
    );
    assert_eq!(targets(&p, &dir.join("d.cu")), ["sm_90a"]);
    // The target's 86 and the file's 80; a folder's source properties are its own targets'.
    assert_eq!(targets(&p, &dir.join("e.cu")), ["sm_80", "sm_86"]);
    let origin = &p.builds_for(&dir.join("e.cu"))[0].build.targets_from;
    assert!(origin.contains("the file's own properties"), "{origin}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loops_are_bounded() {
    // 10,000 items in three nested loops: not unrolled (a note), read at once.
    let items: Vec<String> = (0..10_000).map(|i| format!("f{i}.cu")).collect();
    let text = format!(
        "project(p)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nset(L {})\nforeach(a IN LISTS L)\n  foreach(b IN LISTS L)\n    foreach(c IN LISTS L)\n      set_property(SOURCE ${{c}} APPEND PROPERTY COMPILE_OPTIONS -arch=sm_90)\n    endforeach()\n  endforeach()\nendforeach()\nset(M {})\nforeach(a IN LISTS M)\n  foreach(b IN LISTS M)\n    foreach(c IN LISTS M)\n      set_property(SOURCE ${{c}} APPEND PROPERTY COMPILE_OPTIONS -arch=sm_90)\n    endforeach()\n  endforeach()\nendforeach()\nadd_library(k f1.cu)\n",
        items.join(" "),
        items[..100].join(" ")
    );
    let start = std::time::Instant::now();
    let (dir, p) = project(&[("CMakeLists.txt", text.as_str())]);
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    // The 100-item loops run until the budget is spent, then once with c unknown.
    assert_eq!(targets(&p, &dir.join("f1.cu")), ["sm_80", "sm_90"]);
    assert!(
        p.notes.iter().any(|n| n.contains("loops run more than")),
        "{:?}",
        p.notes
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn undecided_conditions_in_unrolled_loops_hide_the_item() {
    // FasterTransformer's pattern: each item is kept when `string(FIND)` (not followed here)
    // finds it in a variable the command line sets: which items are kept is unknown, so the
    // flags gathered in the loop are too (not every item). `if(<variable>)` on a variable the
    // project sets is decided: TransformerEngine's `if(opts)` guards its `set_property`.
    let (dir, p) = project(&[(
        "CMakeLists.txt",
        "project(p)\nset(SETS 75 80 90)\nforeach(n IN LISTS SETS)\n  string(FIND \"${SM}\" \"${n}\" pos)\n  if(pos GREATER -1)\n    set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -gencode=arch=compute_${n},code=sm_${n}\")\n  endif()\nendforeach()\nset(CMAKE_CUDA_ARCHITECTURES OFF)\nadd_library(k k.cu)\nforeach(f u.cu)\n  set(opts)\n  list(APPEND opts -arch=sm_86)\n  if(opts)\n    set_property(SOURCE ${f} APPEND PROPERTY COMPILE_DEFINITIONS SEEN)\n  endif()\n  if(NOT opts)\n    set_property(SOURCE ${f} APPEND PROPERTY COMPILE_DEFINITIONS NOT_SEEN)\n  endif()\n  set_property(SOURCE ${f} APPEND PROPERTY COMPILE_OPTIONS ${opts})\nendforeach()\nif(0)\n  add_library(never never.cu)\nendif()\nadd_library(u u.cu)\n",
    )]);
    assert!(targets(&p, &dir.join("k.cu")).is_empty());
    assert_eq!(targets(&p, &dir.join("u.cu")), ["sm_86"]);
    assert_eq!(
        macros(&p, &dir.join("u.cu")),
        ["Define(\"SEEN\", \"1\")".to_string()]
    );
    assert!(p.builds_for(&dir.join("never.cu")).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A target named from a loop variable under an undecided `if` (cccl's
/// `dialect.cpp${dialect}` under `if("cxx_std_${dialect}" IN_LIST ...)`) is named in notes
/// with `…` for the unknown part, not with the marker character it is kept under.
#[test]
fn notes_name_a_target_with_an_unknown_part_readably() {
    let (dir, p) = project(&[(
        "CMakeLists.txt",
        "project(p)\nforeach(d 14 17)\n  if(\"cxx_std_${d}\" IN_LIST CMAKE_CXX_COMPILE_FEATURES)\n    add_library(t.cpp${d} OBJECT k.cu)\n    set_target_properties(t.cpp${d} PROPERTIES CUDA_ARCHITECTURES \"${ARCHS_${d}}\")\n  endif()\nendforeach()\n",
    )]);
    let named: Vec<&String> = p.notes.iter().filter(|n| n.contains("t.cpp")).collect();
    assert!(!named.is_empty(), "{:?}", p.notes);
    assert!(
        named
            .iter()
            .all(|n| !n.contains('\u{1}') && n.contains("t.cpp…")),
        "{named:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn host_sources_give_no_targets_unless_their_language_is_cuda() {
    // CMake builds `.cpp`/`.cc` sources with the host compiler: they compile no device code,
    // so a header they include gets no targets from them (mscclpp's host `.cc` files include
    // its device headers), unless the source's `LANGUAGE` property is `CUDA`.
    let (dir, p) = project(&[
        (
            "CMakeLists.txt",
            "project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80 90)\nadd_library(k host.cc device.cpp kernel.cu)\nset_source_files_properties(device.cpp PROPERTIES LANGUAGE CUDA)\nadd_library(h only_host.cc)\n",
        ),
        ("host.cc", "#include \"shared.hpp\"\n"),
        ("only_host.cc", "#include \"host_only.hpp\"\n"),
        ("device.cpp", ""),
        ("kernel.cu", ""),
        ("shared.hpp", ""),
        ("host_only.hpp", ""),
    ]);
    assert!(p.builds_for(&dir.join("host.cc")).is_empty());
    assert_eq!(targets(&p, &dir.join("device.cpp")), ["sm_80", "sm_90"]);
    assert_eq!(targets(&p, &dir.join("kernel.cu")), ["sm_80", "sm_90"]);
    assert!(targets(&p, &dir.join("host_only.hpp")).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hip_only_projects_are_not_for_nvidia() {
    let hip_only = [
        "project(p CXX)\nfind_package(hip REQUIRED)\nadd_library(k k.cpp)\ntarget_link_libraries(k hip::device)\n",
        "project(p LANGUAGES HIP)\nadd_library(k k.hip)\n",
    ];
    for text in hip_only {
        let (dir, p) = project(&[("CMakeLists.txt", text)]);
        assert!(p.not_for_nvidia.is_some(), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let maybe_cuda = [
        // CUDA under an option, a package, a library, a language named by a variable, a `.cu`.
        "project(p CXX)\nfind_package(hip)\nif(WITH_CUDA)\n  enable_language(CUDA)\nendif()\n",
        "project(p CXX)\nfind_package(hip)\nfind_package(CUDAToolkit)\n",
        "project(p CXX)\nfind_package(hip)\nadd_library(k k.cpp)\ntarget_link_libraries(k CUDA::cudart)\n",
        "project(p LANGUAGES CXX ${GPU_LANGUAGE})\nfind_package(hip)\n",
        "project(p CXX)\nfind_package(hip)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nadd_library(k k.cu)\n",
        // No HIP at all.
        "project(p CXX)\nadd_library(k k.cpp)\n",
        // HIP on NVIDIA GPUs compiles with nvcc.
        "project(p LANGUAGES HIP)\nset(CMAKE_HIP_PLATFORM nvidia)\n",
        // A source language through a variable the project does not set.
        "project(p CXX)\nfind_package(hip)\nset_source_files_properties(k.cpp PROPERTIES LANGUAGE ${GPU_LANG})\n",
    ];
    for text in maybe_cuda {
        let (dir, p) = project(&[("CMakeLists.txt", text), ("k.cu", "")]);
        assert!(p.not_for_nvidia.is_none(), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_language_the_reader_cannot_know_keeps_a_cuda_source() {
    // `${GPU_LANG}` is never set; `LANG` is `HIP` or `CUDA` depending on an option.
    let (dir, p) = project(&[
        (
            "CMakeLists.txt",
            "project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nif(USE_HIP)\n  set(LANG HIP)\nelse()\n  set(LANG CUDA)\nendif()\nadd_library(k a.cu b.cu c.cu)\nset_source_files_properties(a.cu PROPERTIES LANGUAGE ${GPU_LANG})\nset_source_files_properties(b.cu PROPERTIES LANGUAGE ${LANG})\nset_source_files_properties(c.cu PROPERTIES LANGUAGE CXX)\n",
        ),
        ("a.cu", ""),
        ("b.cu", ""),
        ("c.cu", ""),
    ]);
    assert_eq!(targets(&p, &dir.join("a.cu")), ["sm_80"]);
    assert_eq!(targets(&p, &dir.join("b.cu")), ["sm_80"]);
    assert!(targets(&p, &dir.join("c.cu")).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_value_past_the_bound_is_unknown() {
    // taichi's `set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -Wall ")` lines, in both branches of
    // undecided `if()`s, doubled the union with each line (0.8 GB, out of memory, before the
    // bound). A value past the bound is unknown, said once.
    let mut r = Reader::new(None);
    let mut scope = Scope::default();
    let big = "-W ".repeat(MAX_VALUE_BYTES / 3 + 1);
    r.set(&mut scope, "CMAKE_CXX_FLAGS", big.clone());
    assert_eq!(value_of(&scope, "CMAKE_CXX_FLAGS"), UNKNOWN);
    // Under an undecided `if()`, a union past the bound is unknown too.
    r.set(&mut scope, "X", "-a".into());
    scope.uncertain = 1;
    r.set(&mut scope, "X", big[..MAX_VALUE_BYTES - 10].to_string());
    r.set(
        &mut scope,
        "X",
        format!("-b {}", &big[..MAX_VALUE_BYTES - 10]),
    );
    assert_eq!(value_of(&scope, "X"), UNKNOWN);
    assert_eq!(
        r.notes.iter().filter(|n| n.contains("grew past")).count(),
        2,
        "{:?}",
        r.notes
    );
}
