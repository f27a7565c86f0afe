use super::*;

fn names(ts: &[Target]) -> Vec<String> {
    ts.iter().map(toolkit::target_name).collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxguard-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn command_and_arguments_forms() {
    let text = r#"[
      {"directory": "/p/build", "file": "../src/a.cu",
       "command": "/usr/local/cuda-12.6/bin/nvcc -DX=1 \"--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]\" -c ../src/a.cu"},
      {"directory": "/p/build", "file": "/p/src/b.cu",
       "arguments": ["ccache", "clang++", "--cuda-gpu-arch=sm_80", "-c", "/p/src/b.cu"]},
      {"directory": "/p/build", "file": "c.cu"}
    ]"#;
    let db = Database::parse(Path::new("/p/cmake-output/compile_commands.json"), text).unwrap();
    assert_eq!(db.entries.len(), 2);
    assert_eq!(db.entries_for(Path::new("/p/src/a.cu")), [0]);
    assert_eq!(names(&db.entries[1].flags.targets), ["sm_80"]);
    let (build, units) = db.build_for(Path::new("/p/src/a.cu")).unwrap();
    assert_eq!(units, [0]);
    assert_eq!(names(&build.targets), ["sm_90a"]);
    assert_eq!(
        build.macros,
        Some(vec![MacroFlag::Define("X".into(), "1".into())])
    );
    // No version.json here: the folder name says 12.6.
    assert_eq!(build.cuda, CudaVersion::parse("12.6"));
    assert!(db.notes[0].contains("entry 3") && db.notes[0].contains("neither"));
}

#[test]
fn malformed_databases_name_file_and_position() {
    let path = Path::new("/p/compile_commands.json");
    let e = Database::parse(path, "[\n  {\"directory\": \"/p\",\n   \"file\": 3}\n]").unwrap_err();
    assert_eq!(e.position.map(|p| p.0), Some(3), "{e}");
    assert!(
        e.to_string().starts_with("/p/compile_commands.json:3:"),
        "{e}"
    );
    let e = Database::parse(path, "{\"not\": \"a list\"}").unwrap_err();
    assert!(e.message.contains("JSON array"), "{e}");
    let e = Database::parse(path, "[{\"directory\": \"/p\", \"file\": \"a.cu\"").unwrap_err();
    assert!(e.position.is_some(), "{e}");
    let e = Database::load(Path::new("/nonexistent/compile_commands.json")).unwrap_err();
    assert!(e.message.contains("cannot read"), "{e}");
}

#[test]
fn headers_get_the_targets_of_their_includers() {
    let dir = scratch("headers");
    std::fs::create_dir_all(dir.join("inc/lib")).unwrap();
    std::fs::write(
        dir.join("inc/lib/top.cuh"),
        "#include \"deep.cuh\"\n#ifdef BLACKWELL\n#include \"bw.cuh\"\n#endif\n",
    )
    .unwrap();
    std::fs::write(dir.join("inc/lib/bw.cuh"), "").unwrap();
    std::fs::write(dir.join("c.cu"), "#include <lib/top.cuh>\n").unwrap();
    std::fs::write(dir.join("inc/lib/deep.cuh"), "#include \"top.cuh\"\n").unwrap();
    std::fs::write(dir.join("a.cu"), "#include <lib/top.cuh>\n").unwrap();
    std::fs::write(dir.join("b.cu"), "#include \"inc/lib/deep.cuh\"\n").unwrap();
    let db = format!(
        r#"[{{"directory": "{d}", "file": "a.cu", "arguments": ["nvcc", "-Iinc", "-arch=sm_90a", "a.cu"]}},
            {{"directory": "{d}", "file": "b.cu", "arguments": ["nvcc", "-arch=sm_80", "b.cu"]}},
            {{"directory": "{d}", "file": "c.cu", "arguments": ["nvcc", "-Iinc", "-DBLACKWELL", "-arch=sm_100a", "c.cu"]}}]"#,
        d = dir.display()
    );
    let db = Database::parse(&dir.join("compile_commands.json"), &db).unwrap();
    // `deep.cuh` includes `top.cuh` back: the cycle ends.
    let (deep, units) = db.build_for(&dir.join("inc/lib/deep.cuh")).unwrap();
    assert_eq!(units, [0, 1, 2]);
    assert_eq!(names(&deep.targets), ["sm_80", "sm_90a", "sm_100a"]);
    // Only the unit that defines BLACKWELL includes bw.cuh.
    let (bw, units) = db.build_for(&dir.join("inc/lib/bw.cuh")).unwrap();
    assert_eq!(units, [2]);
    assert_eq!(names(&bw.targets), ["sm_100a"]);
    // The three units share no -D: the header gets none of them.
    assert_eq!(deep.macros, Some(vec![]));
    // bw.cuh is included only by the unit with -DBLACKWELL: it gets the macro.
    assert_eq!(
        bw.macros,
        Some(vec![crate::build::MacroFlag::Define(
            "BLACKWELL".into(),
            "1".into()
        )])
    );
    assert!(bw.macros_from.contains("c.cu"), "{}", bw.macros_from);
    assert_eq!(deep.compilers, ["nvcc"]);
    let (top, _) = db.build_for(&dir.join("inc/lib/top.cuh")).unwrap();
    assert_eq!(names(&top.targets), ["sm_80", "sm_90a", "sm_100a"]);
    assert!(db.build_for(&dir.join("other.cuh")).is_none());
    assert!(db.missing_files().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rules ask whether clang builds the file (its portability findings are then warnings):
/// every compiler of its entries, launchers skipped, each once.
#[test]
fn the_compilers_that_build_a_file_are_listed() {
    let db = Database::parse(
        Path::new("/p/compile_commands.json"),
        r#"[{"directory": "/p", "file": "a.cu", "command": "ccache /usr/bin/clang++ --cuda-gpu-arch=sm_80 -c a.cu"},
            {"directory": "/p", "file": "a.cu", "command": "nvcc -arch=sm_90 -c a.cu"},
            {"directory": "/p", "file": "a.cu", "command": "nvcc -arch=sm_100a -c a.cu"}]"#,
    )
    .unwrap();
    let (build, _) = db.build_for(Path::new("/p/a.cu")).unwrap();
    assert_eq!(build.compilers, ["/usr/bin/clang++", "nvcc"]);
}

#[test]
fn entries_for_missing_files_are_reported() {
    let db = Database::parse(
        Path::new("/nonexistent/compile_commands.json"),
        r#"[{"directory": "/nonexistent", "file": "gone.cu", "command": "nvcc -arch=sm_80 gone.cu"}]"#,
    )
    .unwrap();
    let missing = db.missing_files();
    assert_eq!(missing.len(), 1);
    assert!(missing[0].contains("/nonexistent/gone.cu"), "{missing:?}");
}

#[test]
fn toolkit_and_cccl_versions_from_files() {
    let dir = scratch("toolkit");
    std::fs::create_dir_all(dir.join("cuda/bin")).unwrap();
    std::fs::write(
        dir.join("cuda/version.json"),
        r#"{"cuda": {"name": "CUDA SDK", "version": "12.6.3"}}"#,
    )
    .unwrap();
    let nvcc = dir.join("cuda/bin/nvcc");
    let (v, from) = toolkit_of(nvcc.to_str().unwrap()).unwrap();
    assert_eq!(v, CudaVersion::parse("12.6").unwrap());
    assert!(from.ends_with("version.json"));
    assert!(toolkit_of("nvcc").is_none() && toolkit_of("/usr/bin/clang++").is_none());
    std::fs::create_dir_all(dir.join("inc/cuda/std/__cccl")).unwrap();
    std::fs::write(
        dir.join("inc/cuda/std/__cccl/version.h"),
        "#pragma once\n#define CCCL_VERSION 2008001\n#define CCCL_MAJOR_VERSION (CCCL_VERSION / 1000000)\n",
    )
    .unwrap();
    let (cccl, _) = cccl_version(&[dir.join("nope"), dir.join("inc")]).unwrap();
    assert_eq!(cccl, "2.8.1");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The database real CMake 4.4.3 and nvcc 13.0 wrote for `corpus/projects/two-targets`.
#[test]
fn reads_the_database_cmake_wrote() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/projects/two-targets");
    let root = normalize(&root);
    let written_in = "/work/main/.dev/build-context/two-targets";
    let text = std::fs::read_to_string(root.join("cmake-output/compile_commands.json"))
        .unwrap()
        .replace(written_in, root.to_str().unwrap());
    let db = Database::parse(&root.join("cmake-output/compile_commands.json"), &text).unwrap();
    // The include paths are in the response files CMake wrote beside the database.
    assert!(db.notes.is_empty(), "{:?}", db.notes);
    let source_dir = root.display();
    let softmax = db
        .build_for(Path::new(&format!("{source_dir}/attention/softmax.cu")))
        .unwrap()
        .0;
    assert_eq!(names(&softmax.targets), ["sm_80", "sm_90a"]);
    assert_eq!(
        softmax.macros,
        Some(vec![MacroFlag::Define("USE_FAST_EXP".into(), "1".into())])
    );
    assert_eq!(
        softmax.include_dirs,
        [PathBuf::from(format!("{written_in}/include"))]
    );
    let mma = db
        .build_for(Path::new(&format!("{source_dir}/tensor/mma.cu")))
        .unwrap()
        .0;
    assert_eq!(names(&mma.targets), ["sm_100a"]);
}
