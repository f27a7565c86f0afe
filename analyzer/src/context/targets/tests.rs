use super::*;

fn t(s: &str) -> Target {
    Target::parse(s).unwrap()
}

#[test]
fn arch_names() {
    for n in [
        "CUTE_ARCH_MMA_SM90A_ENABLED",
        "MYLIB_HAS_SM90",
        "__CUDA_ARCH__",
        "SM_90_ENABLED",
        "FOO_SM100",
    ] {
        assert!(is_arch_name(n), "{n}");
    }
    for n in ["FOO_H", "DEBUG", "SMEM_BYTES", "USE_FAST_PATH", "ASM_OK"] {
        assert!(!is_arch_name(n), "{n}");
    }
}

#[test]
fn nv_queries() {
    assert_eq!(nv_query("NV_PROVIDES_SM_90", &t("sm_80")), Some(false));
    assert_eq!(nv_query("NV_PROVIDES_SM_90", &t("sm_100")), Some(true));
    assert_eq!(nv_query("NV_HAS_FEATURE_SM_90a", &t("sm_90")), Some(false));
    assert_eq!(nv_query("NV_HAS_FEATURE_SM_90a", &t("sm_90a")), Some(true));
    assert_eq!(
        nv_query("NV_HAS_FEATURE_SM_100f", &t("sm_103f")),
        Some(true)
    );
    assert_eq!(nv_query("SOMETHING", &t("sm_90")), None);
}

/// Macros defined under architecture conditions, each from two earlier ones: per-target
/// evaluation recurses through them, within a fixed budget (a chain of 300 would otherwise
/// take 2^300 lookups).
#[test]
fn conditional_define_chains_stay_bounded() {
    let mut text = String::from("#if __CUDA_ARCH__ >= 800\n#define M0 1\n#define M1 1\n#endif\n");
    for i in 2..300 {
        text.push_str(&format!(
            "#if M{} && M{} && __CUDA_ARCH__ >= 800\n#define M{i} 1\n#endif\n",
            i - 1,
            i - 2
        ));
    }
    text.push_str("__global__ void k() {\n#if M299\n  asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n#endif\n}\n");
    let file = SourceFile::new(std::path::PathBuf::from("chain.cu"), text.clone());
    let tokens = crate::cpp::lexer::lex_range(&text, 0, text.len(), false);
    let cx = AnalysisContext {
        targets: vec![t("sm_75"), t("sm_90")],
        ..AnalysisContext::default()
    };
    let ev = Evaluator::new(&file, &tokens, &cx);
    let stmts = crate::statements::find_asm_statements(&file);
    let start = std::time::Instant::now();
    let sm75 = ev.guarded_for(&stmts[0], &t("sm_75"));
    let sm90 = ev.guarded_for(&stmts[0], &t("sm_90"));
    assert!(start.elapsed().as_secs() < 2);
    // Too deep to resolve within the budget: in doubt, never a wrong "excluded" for sm_90.
    assert_ne!(sm90, Guarded::Excluded);
    assert_ne!(sm75, Guarded::No);
}

/// Two levels: resolved per target.
#[test]
fn conditional_defines_are_evaluated_per_target() {
    let text = "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n#define HAS_A 1\n#endif\n#if HAS_A && __CUDA_ARCH__ >= 1000\n#define HAS_B 1\n#endif\n#ifndef USE_C\n#define USE_C 0\n#endif\n__global__ void k() {\n#if HAS_B\n  asm volatile(\"membar.gl;\" ::: \"memory\");\n#endif\n#if USE_C\n  asm volatile(\"membar.cta;\" ::: \"memory\");\n#endif\n}\n";
    let file = SourceFile::new(std::path::PathBuf::from("two.cu"), text.to_string());
    let tokens = crate::cpp::lexer::lex_range(text, 0, text.len(), false);
    let cx = AnalysisContext {
        targets: vec![t("sm_90"), t("sm_100")],
        ..AnalysisContext::default()
    };
    let ev = Evaluator::new(&file, &tokens, &cx);
    let stmts = crate::statements::find_asm_statements(&file);
    assert_eq!(ev.guarded_for(&stmts[0], &t("sm_90")), Guarded::Excluded);
    assert_eq!(ev.guarded_for(&stmts[0], &t("sm_100")), Guarded::No);
    assert!(ev.never_compiled(&stmts[1]));
}

/// A folder of its own under the system's temporary folder, removed at the end.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("ptxguard-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, rel: &str, text: &str) -> std::path::PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The macros of the file at `path`, read with `cx` (whose header cache must outlive the
/// lookups the test makes).
fn facts_of(path: &std::path::Path, cx: &AnalysisContext) -> Macros {
    let text = std::fs::read_to_string(path).unwrap();
    let tokens = crate::cpp::lexer::lex_range(&text, 0, text.len(), false);
    let file = SourceFile::new(path.to_path_buf(), text.clone());
    Evaluator::new(&file, &tokens, cx).facts.macros
}

fn build_with(macros: Vec<MacroFlag>, include_dirs: Vec<std::path::PathBuf>) -> AnalysisContext {
    AnalysisContext {
        build: Some(std::sync::Arc::new(crate::build::FileBuild {
            macros: Some(macros),
            include_dirs,
            ..Default::default()
        })),
        ..AnalysisContext::default()
    }
}

/// Object-like macros come from the headers included before the directive (quoted beside
/// the file, angled through the build's include folders, and their own includes); a
/// header's `#ifndef X` default yields to the build's `-DX`.
#[test]
fn macros_from_included_headers() {
    let dir = Scratch::new("included-macros");
    dir.write(
        "cfg/config.h",
        "#pragma once\n#ifndef USE_TMA\n#define USE_TMA 0\n#endif\n#define LEVEL 2\n#include \"more.h\"\n",
    );
    dir.write(
        "cfg/more.h",
        "#ifndef MORE_H\n#define MORE_H\n#define FROM_MORE 1\n#undef LEVEL3\n#endif\n",
    );
    dir.write("sys/lib/version.h", "#define LIB_VERSION 0x0300\n");
    let main = dir.write(
        "src/k.cu",
        "#if LEVEL\n#endif\n#include \"../cfg/config.h\"\n#include <lib/version.h>\n#ifdef NOT_KNOWN_HERE\n#include \"../cfg/only-sometimes.h\"\n#endif\nint end;\n",
    );
    dir.write("cfg/only-sometimes.h", "#define SOMETIMES 1\n");
    let end = std::fs::read_to_string(&main).unwrap().len() as u32;
    let nothing_known = AnalysisContext::default();
    let plain = facts_of(&main, &nothing_known);
    assert_eq!(plain.at("LEVEL", 2), None, "not yet included");
    assert_eq!(plain.at("USE_TMA", end), Some(MacroValue::Int(0)));
    assert_eq!(plain.at("LEVEL", end), Some(MacroValue::Int(2)));
    assert_eq!(
        plain.at("FROM_MORE", end),
        Some(MacroValue::Int(1)),
        "an include's include"
    );
    assert_eq!(plain.at("LEVEL3", end), Some(MacroValue::Undefined));
    assert_eq!(
        plain.at("LIB_VERSION", end),
        None,
        "no include folders known"
    );
    assert_eq!(
        plain.at("SOMETIMES", end),
        Some(MacroValue::Unknown { arch: false }),
        "included under a condition not known"
    );
    assert_eq!(plain.at("NOWHERE", end), None);

    let built = build_with(
        vec![MacroFlag::Define("USE_TMA".into(), "1".into())],
        vec![dir.0.join("sys")],
    );
    let with_build = facts_of(&main, &built);
    assert_eq!(with_build.at("USE_TMA", end), Some(MacroValue::Int(1)));
    assert_eq!(
        with_build.at("LIB_VERSION", end),
        Some(MacroValue::Int(0x300))
    );
}

/// Headers that include each other (or themselves) without guards, and a diamond of depth
/// 40: lookups stay bounded and quick.
#[test]
fn include_cycles_and_diamonds_stay_bounded() {
    let dir = Scratch::new("include-cycles");
    dir.write("a.h", "#include \"b.h\"\n#include \"a.h\"\n");
    dir.write("b.h", "#include \"a.h\"\n");
    for i in 0..40 {
        let next = i + 1;
        dir.write(
            &format!("d{i}.h"),
            &format!("#include \"d{next}.h\"\n#include \"e{next}.h\"\n"),
        );
        dir.write(&format!("e{i}.h"), &format!("#include \"d{next}.h\"\n"));
    }
    dir.write("d40.h", "#define DEEP 7\n");
    let main = dir.write(
        "k.cu",
        "#include \"a.h\"\n#include \"d0.h\"\n#if X1 || X2 || X3\n#endif\nint end;\n",
    );
    let end = std::fs::read_to_string(&main).unwrap().len() as u32;
    let start = std::time::Instant::now();
    let cx = AnalysisContext::default();
    let m = facts_of(&main, &cx);
    for name in ["X1", "X2", "X3", "X4"] {
        assert_eq!(m.at(name, end), None);
    }
    // d0 -> d1 -> ... -> d16 is as deep as includes are followed.
    assert_eq!(m.at("DEEP", end), None);
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    dir.write("d10.h", "#define DEEP 3\n");
    cx.headers.forget();
    let again = facts_of(&main, &cx);
    assert_eq!(
        again.at("DEEP", end),
        Some(MacroValue::Int(3)),
        "an edited header is read again"
    );
}

/// Includes of files that never end or are not headers are not read: `/proc/kmsg` (size 0,
/// blocks), `/dev/zero` (not a regular file), a folder.
#[test]
fn includes_of_special_files_are_not_read() {
    let dir = Scratch::new("include-special");
    let main = dir.write(
        "k.cu",
        "#include \"/proc/kmsg\"\n#include \"/dev/zero\"\n#include \"/proc/self/status\"\n#include \"/tmp\"\nint end;\n",
    );
    let end = std::fs::read_to_string(&main).unwrap().len() as u32;
    let start = std::time::Instant::now();
    assert_eq!(
        facts_of(&main, &AnalysisContext::default()).at("ANYTHING", end),
        None
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

/// The budget of include sites is the file's own: a header read (and cached) while checking a
/// file that spent its whole budget still answers for the next file.
#[test]
fn each_file_has_its_own_include_budget() {
    let dir = Scratch::new("include-budget");
    dir.write("h.h", "#include \"child.h\"\n");
    dir.write("child.h", "#define FROM_CHILD 5\n#define OTHER 7\n");
    let mut spender = String::from("#include \"h.h\"\n");
    for i in 0..200 {
        spender.push_str(&format!("#include \"missing{i}.h\"\n"));
    }
    spender.push_str("int end;\n");
    let a = dir.write("a.cu", &spender);
    let a_end = spender.len() as u32;
    let cx = AnalysisContext::default();
    let first = facts_of(&a, &cx);
    assert_eq!(first.at("FROM_CHILD", a_end), Some(MacroValue::Int(5)));
    for j in 0..600 {
        assert_eq!(first.at(&format!("UNKNOWN_{j}"), a_end), None);
    }
    assert_eq!(
        first.at("OTHER", a_end),
        None,
        "this file's budget is spent"
    );
    let b = dir.write("b.cu", "#include \"h.h\"\nint end;\n");
    let second = facts_of(&b, &cx);
    assert_eq!(second.at("OTHER", 25), Some(MacroValue::Int(7)));
}

/// The header cache is the caller's: a run with its own cache reads a header again, even one
/// rewritten with the same size and modification time (which a cache shared by the whole
/// process took for unchanged).
#[test]
fn each_caller_has_its_own_header_cache() {
    let dir = Scratch::new("caller-cache");
    let header = dir.write("cfg.h", "#define LEVEL 1\n");
    let main = dir.write("k.cu", "#include \"cfg.h\"\nint end;\n");
    let end = std::fs::read_to_string(&main).unwrap().len() as u32;
    let first_run = AnalysisContext::default();
    assert_eq!(
        facts_of(&main, &first_run).at("LEVEL", end),
        Some(MacroValue::Int(1))
    );
    let modified = std::fs::metadata(&header).unwrap().modified().unwrap();
    std::fs::write(&header, "#define LEVEL 2\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&header)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert_eq!(
        facts_of(&main, &first_run).at("LEVEL", end),
        Some(MacroValue::Int(1)),
        "the same run keeps what it read"
    );
    let second_run = AnalysisContext::default();
    assert_eq!(
        facts_of(&main, &second_run).at("LEVEL", end),
        Some(MacroValue::Int(2)),
        "another run reads the header itself"
    );
}

/// A context reads the same (`Debug`, which the CLI's result cache keys on) whatever its
/// header cache holds: the key of a file must not depend on which files were checked first.
#[test]
fn a_context_reads_the_same_whatever_its_cache_holds() {
    let dir = Scratch::new("cache-debug");
    dir.write("cfg.h", "#define LEVEL 1\n");
    let main = dir.write("k.cu", "#include \"cfg.h\"\nint end;\n");
    let cx = AnalysisContext::default();
    let before = format!("{cx:?}");
    let end = std::fs::read_to_string(&main).unwrap().len() as u32;
    assert_eq!(
        facts_of(&main, &cx).at("LEVEL", end),
        Some(MacroValue::Int(1))
    );
    assert_eq!(format!("{cx:?}"), before);
}
