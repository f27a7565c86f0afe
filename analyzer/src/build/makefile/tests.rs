use super::*;
use crate::build::toolkit::target_name;

fn project(files: &[(&str, &str)]) -> (PathBuf, ProjectBuild) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("ptxguard-make-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let p = read(&dir.join("k/Makefile"));
    (dir, p)
}

#[test]
fn recipes_variables_includes_and_known_conditionals() {
    let (dir, p) = project(&[
        (
            "k/Makefile",
            "GPU := H100\nSRC := k.cu\nFLAGS = -O3 \\\n  -DCOMMON\ninclude ../common.mk\n",
        ),
        (
            "common.mk",
            "NVCC := nvcc\nifeq ($(GPU),B200)\nFLAGS += -DBLACKWELL -gencode arch=compute_100a,code=sm_100a\nelse ifeq ($(GPU),H100)\nFLAGS += -DHOPPER -gencode arch=compute_90a,code=sm_90a\nendif\nifeq ($(DEBUG),1)\nFLAGS += -DDEBUG -arch=sm_80\nendif\nout: $(SRC)\n\t$(NVCC) $(SRC) $(FLAGS) -o $@\n",
        ),
        ("k/k.cu", ""),
    ]);
    let b = p.builds_for(&dir.join("k/k.cu"));
    assert_eq!(b.len(), 1);
    let t: Vec<String> = b[0].build.targets.iter().map(target_name).collect();
    // DEBUG comes from the command line: its branch may hold (sm_80 kept, -DDEBUG dropped).
    assert_eq!(t, ["sm_80", "sm_90a"]);
    let macros: Vec<String> = b[0]
        .build
        .macros
        .iter()
        .flatten()
        .map(|m| format!("{m:?}"))
        .collect();
    assert_eq!(
        macros,
        ["Define(\"COMMON\", \"1\")", "Define(\"HOPPER\", \"1\")"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pattern_rules_and_self_reference_stay_bounded() {
    let (dir, p) = project(&[
        (
            "k/Makefile",
            "A = $(A) $(A) $(A) -arch=sm_75\nGENCODE_FLAGS := -gencode arch=compute_80,code=sm_80\n%.o: %.cu\n\tnvcc $(GENCODE_FLAGS) -c $< -o $@\nx: x.cu\n\tnvcc $(A) x.cu\n",
        ),
        ("k/a.cu", ""),
        ("k/b.cu", ""),
    ]);
    for f in ["k/a.cu", "k/b.cu"] {
        let b = p.builds_for(&dir.join(f));
        assert_eq!(
            b[0].build
                .targets
                .iter()
                .map(target_name)
                .collect::<Vec<_>>(),
            ["sm_80"]
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tab-indented assignment inside a conditional before the first rule is a makefile line
/// (GNU make reads it so); it used to be taken for a recipe line and dropped, leaving the file
/// with no known targets. After a rule, a tab line is the rule's recipe until a variable
/// definition ends it.
#[test]
fn tab_indented_assignments_before_the_first_rule_count() {
    let (dir, p) = project(&[
        (
            "k/Makefile",
            "GPU := H100\nNVCC := nvcc\nNVCCFLAGS := -O3\nifeq ($(GPU), H100)\n\tNVCCFLAGS += -DKITTENS_HOPPER -gencode arch=compute_90a,code=sm_90a\nelse ifeq ($(GPU), B200)\n\tNVCCFLAGS += -gencode arch=compute_100a,code=sm_100a\nendif\nSRC := k.cu\nall: k\nk: $(SRC)\n\t$(NVCC) $(SRC) $(NVCCFLAGS) -o k\nclean:\n\trm -f k\n",
        ),
        ("k/k.cu", ""),
    ]);
    let b = p.builds_for(&dir.join("k/k.cu"));
    assert_eq!(b.len(), 1, "{p:?}");
    let t: Vec<String> = b[0].build.targets.iter().map(target_name).collect();
    assert_eq!(t, ["sm_90a"]);
    let _ = std::fs::remove_dir_all(&dir);
}
