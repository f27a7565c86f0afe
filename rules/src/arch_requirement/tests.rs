use crate::{check, Options};
use ptxguard_analyzer::context::AnalysisContext;
use ptxguard_analyzer::isa::Target;
use ptxguard_analyzer::SourceFile;
use std::path::PathBuf;

/// Only this rule.
fn options() -> Options {
    Options {
        only: Some(vec!["arch-requirement"]),
        ..Options::default()
    }
}

/// A build for `targets` (known names), with `build` when given.
fn built_for(
    targets: &[&str],
    build: Option<ptxguard_analyzer::build::FileBuild>,
) -> AnalysisContext {
    AnalysisContext {
        targets: targets.iter().map(|t| Target::parse(t).unwrap()).collect(),
        build: build.map(std::sync::Arc::new),
        ..AnalysisContext::default()
    }
}

fn run(name: &str, text: &str, targets: &[&str]) -> Vec<String> {
    let file = SourceFile::new(PathBuf::from(name), text.to_string());
    check(&file, &built_for(targets, None), &options())
        .into_iter()
        .map(|d| d.message)
        .collect()
}

/// issue 10: two functions calling each other 80 times took 16 s (each level re-walked
/// every call per asm and target). The walk is now linear.
#[test]
fn mutual_recursion_is_linear() {
    let mut text = String::from("__device__ void b();\n__device__ void a() {\n  asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n");
    for _ in 0..80 {
        text.push_str("  b();\n");
    }
    text.push_str("}\n__device__ void b() {\n");
    for _ in 0..80 {
        text.push_str("  a();\n");
    }
    text.push_str("}\n__global__ void k() { a(); }\n");
    let start = std::time::Instant::now();
    let found = run("mutual.cu", &text, &["sm_75", "sm_80"]);
    let took = start.elapsed();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("sm_75"), "{found:?}");
    // Generous: the old walk needed seconds; the linear one takes milliseconds.
    assert!(took.as_secs() < 2, "took {took:?}");
    // Without the kernel no walk succeeds: the old one explored every path (18.9 s, measured with
    // the binary of ed763b4 on this input); now nothing is compiled, at once.
    let helpers_only = text.replace("__global__ void k() { a(); }\n", "");
    let start = std::time::Instant::now();
    assert!(run("mutual.cu", &helpers_only, &["sm_75", "sm_80"]).is_empty());
    let took = start.elapsed();
    assert!(took.as_secs() < 2, "took {took:?}");
}

const TCGEN05_AND_CP_ASYNC: &str = r#"
__global__ void k(unsigned long long* bar, unsigned dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src) : "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
"#;

#[test]
fn inferred_targets_need_no_guard_for_what_they_all_have() {
    // A tcgen05 file is an sm_100a/sm_100f file: its cp.async needs no guard.
    assert!(run("kernel.cu", TCGEN05_AND_CP_ASYNC, &[]).is_empty());
    // Built for sm_80 too, both are findings... only tcgen05 fails on sm_100a.
    let found = run("kernel.cu", TCGEN05_AND_CP_ASYNC, &["sm_80", "sm_100a"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("tcgen05") && found[0].contains("sm_80"),
        "{found:?}"
    );
}

#[test]
fn inferred_targets_conflict() {
    let text = r#"
__global__ void k() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
"#;
    let found = run("kernel.cu", text, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("`tcgen05.fence::before_thread_sync` needs")
            && found[0].contains("`wgmma.fence.sync.aligned` (line 3) needs sm_90a")
            && found[0].contains("no target builds both"),
        "{found:?}"
    );
}

#[test]
fn toolkit_version_decides_the_ptx_isa() {
    // `cp.async.bulk.shared::cta.global` needs PTX ISA 8.6; CUDA 12.6 emits 8.5.
    let text = r#"
__global__ void k(unsigned dst, const void* src, unsigned bar) {
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" :: "r"(dst), "l"(src), "r"(bar) : "memory");
}
"#;
    let file = SourceFile::new(PathBuf::from("k.cu"), text.to_string());
    assert!(check(&file, &built_for(&[], None), &options()).is_empty());
    let cuda_12_6 = built_for(
        &[],
        Some(ptxguard_analyzer::build::FileBuild {
            cuda: ptxguard_analyzer::build::CudaVersion::parse("12.6"),
            ..Default::default()
        }),
    );
    let found: Vec<String> = check(&file, &cuda_12_6, &options())
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("PTX ISA 8.6 (CUDA 12.6 emits 8.5)"),
        "{found:?}"
    );
}

#[test]
fn known_targets_count_header_and_uncalled_helpers() {
    let text = "__device__ void helper() {\n  asm volatile(\"st.bulk.weak [%0], 64, 0;\" :: \"l\"(0ull) : \"memory\");\n}\n";
    // Nothing known: the header's helper depends on its includers.
    assert!(run("lib.cuh", text, &[]).is_empty());
    let found = run("lib.cuh", text, &["sm_90"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("st.bulk") && found[0].contains("sm_90"),
        "{found:?}"
    );
    // A helper called only under a guard stays guarded.
    let guarded = "__device__ void helper() {\n  asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n}\n__global__ void k() {\n#if __CUDA_ARCH__ >= 800\n  helper();\n#endif\n}\n";
    assert!(run("k.cu", guarded, &["sm_75", "sm_80"]).is_empty());
}

#[test]
fn file_macros_and_build_macros_decide_branches() {
    let text = "#define USE_CP_ASYNC 0\n__global__ void k() {\n#if USE_CP_ASYNC\n  asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n#endif\n}\n";
    assert!(run("k.cu", text, &["sm_75"]).is_empty());
    assert_eq!(
        run("k.cu", &text.replace(" 0\n", " 1\n"), &["sm_75"]).len(),
        1
    );
    // A macro from elsewhere may be an architecture guard: in doubt, guarded (as before).
    let unknown = text.replace("#define USE_CP_ASYNC 0\n", "");
    assert!(run("k.cu", &unknown, &["sm_75"]).is_empty());
    // `-DUSE_CP_ASYNC=0` from the build.
    let file = SourceFile::new(PathBuf::from("k.cu"), unknown.clone());
    let off = built_for(
        &["sm_75"],
        Some(ptxguard_analyzer::build::FileBuild {
            macros: Some(vec![ptxguard_analyzer::build::MacroFlag::Define(
                "USE_CP_ASYNC".into(),
                "0".into(),
            )]),
            ..Default::default()
        }),
    );
    assert!(check(&file, &off, &options()).is_empty());
    // A default that the build overrides: `#ifndef X / #define X 0` with -DX=1.
    let defaulted = format!("#ifndef USE_CP_ASYNC\n#define USE_CP_ASYNC 0\n#endif\n{unknown}");
    let on = built_for(
        &["sm_75"],
        Some(ptxguard_analyzer::build::FileBuild {
            macros: Some(vec![ptxguard_analyzer::build::MacroFlag::Define(
                "USE_CP_ASYNC".into(),
                "1".into(),
            )]),
            ..Default::default()
        }),
    );
    let file = SourceFile::new(PathBuf::from("k.cu"), defaulted.clone());
    assert_eq!(check(&file, &on, &options()).len(), 1);
    // Without a build that says otherwise, the file's default holds: the branch is compiled by
    // no configuration (flashinfer's internal-PTX branches, measured noise before).
    assert!(run("k.cu", &defaulted, &["sm_75"]).is_empty());
    // Include guards do not hide what they enclose.
    let guarded =
        format!("#ifndef K_CUH\n#define K_CUH\n#define USE_CP_ASYNC 0\n{unknown}#endif\n");
    assert!(run("k.cu", &guarded, &["sm_75"]).is_empty());
    assert_eq!(
        run("k.cu", &guarded.replace("ASYNC 0", "ASYNC 1"), &["sm_75"]).len(),
        1
    );
}

/// Triton and MLIR calls are compiled when they run, for the GPU present: the file's targets
/// and toolkit are those of its C++ (here in a cupy string), which alone is judged, and the
/// unknown-target finding lands on that C++, not on the Triton call before it.
#[test]
fn python_calls_are_not_judged_against_the_files_targets() {
    let text = r#"import cupy
import triton.language as tl

def warp_sum(x):
    return tl.inline_asm_elementwise("redux.sync.add.u32 $0, $1, 0xffffffff;", "=r,r", [x], dtype=tl.uint32, is_pure=False, pack=1)

K = cupy.RawKernel(r'''
extern "C" __global__ void sum(const unsigned *in, unsigned *out) {
    unsigned v;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(v) : "r"(in[threadIdx.x]));
    out[threadIdx.x] = v;
}
''', 'sum')
"#;
    let file = SourceFile::new(PathBuf::from("k.py"), text.to_string());
    let cpp_line = text[..text.find("asm volatile").unwrap()].lines().count();
    let lines = |cx: &AnalysisContext| -> Vec<(usize, String)> {
        check(&file, cx, &options())
            .into_iter()
            .map(|d| (file.line_col(d.span.start as usize).0, d.message))
            .collect()
    };
    let found = lines(&built_for(&["sm_75"], None));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, cpp_line, "{found:?}");
    assert!(found[0].1.contains("needs sm_80"), "{found:?}");
    // A target CUDA 12.6 cannot compile for: said once, at the C++.
    let found = lines(&built_for(
        &["sm_100a"],
        Some(ptxguard_analyzer::build::FileBuild {
            cuda: ptxguard_analyzer::build::CudaVersion::parse("12.6"),
            ..Default::default()
        }),
    ));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, cpp_line, "{found:?}");
    assert!(found[0].1.contains("does not compile for"), "{found:?}");
}

/// What [`check_sm_probe`] found in an SM table.
struct ProbeCheck {
    rows: usize,
    /// (form, target) pairs the ISA table claims unsupported.
    claimed: usize,
    problems: Vec<String>,
}

/// Holds an SM table (`gpu-tests probe-sm`) against the ISA table, reading each probed
/// instruction as the rule does (PTX parser, `Instruction::known_form`):
/// - every (form, target) the rule would call unsupported (a minimum SM, arch-specific
///   targets, a removal) is one where ptxas rejected the form;
/// - no form assembles nowhere (a broken probe), unless it is a removed one;
/// - every target requirement of the ISA table (`isa::target_requirements`) is decided by a
///   probed form, or the table names it as not probed (`# not probed` lines, from
///   `SM_NOT_PROBED` in `gpu-tests/src/probe.rs`).
fn check_sm_probe(table: &str) -> ProbeCheck {
    use ptxguard_analyzer::isa::{target_requirements, InstrForm};
    use ptxguard_analyzer::ptx::{parse, PercentMode};
    // The probe's kernels say `.version 9.0`: removals from an older PTX ISA apply.
    const PROBE_PTX: u16 = 90;
    let mut check = ProbeCheck {
        rows: 0,
        claimed: 0,
        problems: Vec::new(),
    };
    let mut exempt: Vec<(&str, &str)> = Vec::new();
    let mut header: Option<Vec<&str>> = None;
    let mut forms: Vec<InstrForm> = Vec::new();
    for line in table.lines() {
        if let Some(rest) = line.strip_prefix("# not probed\t") {
            let cols: Vec<&str> = rest.split('\t').collect();
            if cols.len() >= 2 {
                exempt.push((cols[0], cols[1]));
            }
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let Some(head) = &header else {
            header = Some(cols);
            continue;
        };
        let column = |name: &str| head.iter().position(|h| *h == name);
        let (Some(family_col), Some(instruction_col)) = (column("family"), column("instruction"))
        else {
            check.problems.push(
                "the table has no instruction column: regenerate it with `gpu-tests probe-sm`"
                    .to_string(),
            );
            return check;
        };
        let instruction = cols.get(instruction_col).copied().unwrap_or("");
        let ptx = parse(instruction, PercentMode::Verbatim);
        let Some(form) = ptx.instructions().next().and_then(|(_, i)| i.known_form()) else {
            check.problems.push(format!(
                "the ISA table does not resolve the probed `{instruction}`"
            ));
            continue;
        };
        if cols.get(family_col) != Some(&form.family.name) {
            check.problems.push(format!(
                "`{instruction}` is `{}` in the ISA table, `{}` in the SM table: regenerate it",
                form.family.name,
                cols.get(family_col).unwrap_or(&"")
            ));
        }
        check.rows += 1;
        let mut assembles_somewhere = false;
        for (i, name) in head.iter().enumerate() {
            let Some(t) = name
                .starts_with("sm_")
                .then(|| Target::parse(name))
                .flatten()
            else {
                continue;
            };
            let verdict = cols.get(i).copied().unwrap_or("");
            assembles_somewhere |= verdict == "ok";
            let removed = form
                .family
                .removed_on
                .is_some_and(|(ptx, sm)| PROBE_PTX >= ptx && t.sm >= sm);
            if form.supported_on(&t) && !removed {
                continue;
            }
            check.claimed += 1;
            if verdict == "ok" {
                check.problems.push(format!(
                    "the ISA table claims `{instruction}` needs another target than {name}, but ptxas accepts it there"
                ));
            }
        }
        // A form ptxas takes on no target is a broken probe (it measures nothing), unless the
        // form is one removed from every target nvcc 13 builds for.
        if !assembles_somewhere && form.family.removed_on.is_none() {
            check.problems.push(format!(
                "`{instruction}` assembles on no target: the probe's form is wrong"
            ));
        }
        forms.push(form.clone());
    }
    let oldest = header
        .iter()
        .flatten()
        .filter(|h| h.starts_with("sm_"))
        .filter_map(|h| Target::parse(h))
        .map(|t| t.sm)
        .min()
        .unwrap_or(0);
    for r in target_requirements(oldest) {
        let condition = r.condition();
        if !forms.iter().any(|f| r.decides(f))
            && !exempt.contains(&(r.family.name, condition.as_str()))
        {
            check.problems.push(format!(
                "no probed form measures `{}: {condition}`: add one to SM_FORMS (gpu-tests/src/probe.rs) and regenerate",
                r.family.name
            ));
        }
    }
    check
}

/// Every SM requirement the rule can claim is measured on a form it decides, and holds:
/// where the ISA table says a form is unsupported on a target, ptxas 13.0 rejected it there
/// (`rules/data/sm-probe.tsv`, `gpu-tests probe-sm` on the GPU machine).
#[test]
fn claimed_requirements_match_the_sm_probe() {
    const PROBE: &str = include_str!("../../data/sm-probe.tsv");
    let check = check_sm_probe(PROBE);
    assert!(
        check.problems.is_empty(),
        "rules/data/sm-probe.tsv against the ISA table ({} problems):\n{}",
        check.problems.len(),
        check.problems.join("\n")
    );
    assert!(check.rows > 100, "{} rows", check.rows);
    // Not vacuous: many (form, target) pairs are claimed unsupported, each measured.
    assert!(
        check.claimed > 300,
        "{} claimed requirements",
        check.claimed
    );
}

/// The check of the SM table fails where it should: a claim ptxas contradicts, a
/// requirement no row measures (only rows that requirement decides count), a stale family.
#[test]
fn the_sm_probe_check_finds_unmeasured_and_wrong_claims() {
    let head = "family\topcode\tinstruction\tsm_75\tsm_90\tsm_100\n";
    let f32x2 = "`add: Has(\".f32x2\")`";
    let unmeasured = |table: &str| {
        check_sm_probe(table)
            .problems
            .iter()
            .any(|p| p.starts_with("no probed form measures") && p.contains(f32x2))
    };
    let measured =
        format!("{head}add\tadd.rn.f32x2\tadd.rn.f32x2 %rd1, %rd2, %rd3;\terror\terror\tok\n");
    assert!(!unmeasured(&measured));
    assert!(check_sm_probe(&measured)
        .problems
        .iter()
        .all(|p| !p.contains("add.rn.f32x2")));
    // A row of the family that the requirement does not decide measures nothing of it.
    let other = format!("{head}add\tadd.u32\tadd.u32 %r1, %r2, %r3;\tok\tok\tok\n");
    assert!(unmeasured(&other));
    // The exemption line of the probe names it.
    let exempted = format!("# not probed\tadd\tHas(\".f32x2\")\twhy\n{other}");
    assert!(!unmeasured(&exempted));
    // ptxas accepting the form where the ISA table says it is unsupported.
    let wrong = format!("{head}add\tadd.rn.f32x2\tadd.rn.f32x2 %rd1, %rd2, %rd3;\tok\terror\tok\n");
    let problems = check_sm_probe(&wrong).problems;
    assert!(
        problems
            .iter()
            .any(|p| p.contains("than sm_75, but ptxas accepts")),
        "{problems:?}"
    );
    // A stale family name, and a form that assembles nowhere.
    let stale =
        format!("{head}sub\tadd.rn.f32x2\tadd.rn.f32x2 %rd1, %rd2, %rd3;\terror\terror\terror\n");
    let problems = check_sm_probe(&stale).problems;
    assert!(
        problems.iter().any(|p| p.contains("regenerate it")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("assembles on no target")),
        "{problems:?}"
    );
    // The table before it had an instruction column.
    let old = "family\topcode\tsm_75\nadd\tadd.u32\tok\n";
    assert!(check_sm_probe(old).problems[0].contains("no instruction column"));
}

/// issue 23: `shfl` without `.sync` was told it "needs a target below sm_70" with a note
/// about `redux.sync`, as if building for an older GPU were the fix.
#[test]
fn removed_forms_point_at_their_sync_replacement() {
    let text = "__device__ int f(int x) {\n  int y;\n  asm volatile(\"shfl.down.b32 %0, %1, 1, 0x1f;\" : \"=r\"(y) : \"r\"(x));\n  return y;\n}\n";
    let file = SourceFile::new(PathBuf::from("k.cu"), text.to_string());
    let found = check(&file, &built_for(&["sm_80"], None), &options());
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert!(
        d.message.contains("removed for sm_70 and later"),
        "{}",
        d.message
    );
    let help = d.help.as_deref().unwrap_or("");
    assert!(help.starts_with("use `shfl.sync`"), "{help}");
    let note = d.note.as_deref().unwrap_or("");
    assert!(
        note.contains("shfl without .sync") && !note.contains("redux"),
        "{note}"
    );
}
