use super::*;
use crate::build::toolkit::target_name;

fn read_text(text: &str) -> ProjectBuild {
    parse(Path::new("/p/setup.py"), text, Vec::new())
}

/// Per variant: (name, targets, defined macros) of the build of `file`.
fn builds(p: &ProjectBuild, file: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
    p.builds_for(Path::new(file))
        .into_iter()
        .map(|v| {
            let macros = v
                .build
                .macros
                .unwrap_or_default()
                .iter()
                .map(|m| format!("{m:?}"))
                .collect();
            (
                v.variant,
                v.build.targets.iter().map(target_name).collect(),
                macros,
            )
        })
        .collect()
}

#[test]
fn flags_lists_and_their_operations() {
    let p = read_text(
        r#"
import os
cc_flag = []
cc_flag.append("-gencode")
cc_flag.append("arch=compute_80,code=sm_80")
extra = ["-DA=1"] + ["-DB"]
extra += ['-DC']
setup(ext_modules=[CUDAExtension(name="m", sources=["k.cu", "./sub/../x.cu"],
      extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3"] + cc_flag + extra})])
"#,
    );
    let b = builds(&p, "/p/k.cu");
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].1, ["sm_80"]);
    assert_eq!(b[0].2.len(), 3, "{:?}", b[0].2);
    assert_eq!(builds(&p, "/p/x.cu").len(), 1);
}

#[test]
fn functions_are_inlined_and_change_the_callers_lists() {
    let p = read_text(
        r#"
def add_gencodes(cc_flag, archs):
    if "80" in archs:
        cc_flag += ["-gencode", "arch=compute_80,code=sm_80"]
    cc_flag += ["-gencode", "arch=compute_90a,code=sm_90a"]

def sources():
    return ["a.cu"]

flags = []
add_gencodes(flags, os.getenv("ARCHS", "80;90").split(";"))
ext = CUDAExtension("m", sources(), extra_compile_args={"nvcc": flags})
"#,
    );
    assert_eq!(builds(&p, "/p/a.cu")[0].1, ["sm_80", "sm_90a"]);
}

#[test]
fn environment_ifs_with_flags_are_variants() {
    let p = read_text(
        r#"
import os
nvcc = []
if os.getenv("OLD", "0") == "1":
    nvcc += ["-arch=sm_80", "-DNO_TMA"]
elif os.environ.get("BLACKWELL"):
    nvcc += ["-arch=sm_100a"]
else:
    nvcc += ["-arch=sm_90a"]
if sys.platform == "win32":
    nvcc.append("-DWINDOWS")
CUDAExtension("m", ["k.cu"], extra_compile_args={"nvcc": nvcc})
"#,
    );
    let b = builds(&p, "/p/k.cu");
    let names: Vec<&str> = b.iter().map(|v| v.0.as_str()).collect();
    assert_eq!(b.len(), 3, "{b:?}");
    assert!(names[0].starts_with("`os.getenv(\"OLD\""), "{names:?}");
    assert_eq!(b[0].1, ["sm_80"]);
    // -DWINDOWS is under a condition that may not hold: not assumed.
    assert_eq!(b[0].2, ["Define(\"NO_TMA\", \"1\")"]);
    assert_eq!(b[1].1, ["sm_100a"]);
    assert_eq!(b[2].1, ["sm_90a"]);
    assert!(b[2].2.is_empty());
}

#[test]
fn torch_arch_list_default_and_unknown_targets() {
    let p = read_text(
        "import os\nos.environ[\"TORCH_CUDA_ARCH_LIST\"] = os.getenv(\"TORCH_CUDA_ARCH_LIST\", \"8.0;9.0a\")\nCUDAExtension('m', ['k.cu'])\n",
    );
    assert_eq!(builds(&p, "/p/k.cu")[0].1, ["sm_80", "sm_90a"]);
    // Lists picked by conditions that may not hold (the toolkit's version): their union.
    let p = read_text(
        "if not torch.cuda.is_available():\n    if v >= Version('13.0'):\n        os.environ['TORCH_CUDA_ARCH_LIST'] = '7.5;9.0'\n    else:\n        os.environ['TORCH_CUDA_ARCH_LIST'] = '6.0;7.0'\nCUDAExtension('m', ['k.cu'])\n",
    );
    assert_eq!(
        builds(&p, "/p/k.cu")[0].1,
        ["sm_60", "sm_70", "sm_75", "sm_90"]
    );
    // No arch flag, no list: the GPU of the building machine; no targets, said.
    let p = read_text("CUDAExtension('m', ['k.cu'])\n");
    assert!(builds(&p, "/p/k.cu").is_empty());
    assert!(p.notes[0].contains("TORCH_CUDA_ARCH_LIST"), "{:?}", p.notes);
    // Computed sources: said, nothing compiled.
    let p = read_text(
        "CUDAExtension('m', [s for s in things], extra_compile_args={'nvcc': ['-arch=sm_80']})\n",
    );
    assert!(
        p.unit_count() == 0 && p.notes.iter().any(|n| n.contains("sources")),
        "{:?}",
        p.notes
    );
}

#[test]
fn every_prefix_of_a_script_reads_without_panicking() {
    let text = r#"
import os, glob
def f(x, *a, **k):
    return [x] if x else []
nvcc = ["-O3", f"-DV={os.getenv('V')}", r"-DRAW\n", """-DT"""] + f(1)
if os.getenv("A"): nvcc += ["-arch=sm_80"]
for s in glob.glob("*.cu"):
    nvcc.extend([s])
try:
    with open("x") as fh:
        nvcc.insert(0, "-DW")
except Exception:
    pass
CUDAExtension(name="é", sources=sorted(glob.glob("csrc/**/*.cu", recursive=True)), extra_compile_args={"nvcc": nvcc}, include_dirs=["inc"])
"#;
    for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
        let _ = read_text(&text[..end]);
    }
    // Deep nesting stays bounded.
    let deep = format!("x = {}1{}\n", "[".repeat(5000), "]".repeat(5000));
    let _ = read_text(&deep);
    let mut nested = String::new();
    for i in 0..200 {
        nested.push_str(&" ".repeat(i));
        nested.push_str("if os.getenv('X'):\n");
    }
    nested.push_str(&" ".repeat(200));
    nested.push_str("f = ['-DX']\n");
    let _ = read_text(&nested);
}

#[test]
fn cpp_sources_go_to_the_host_compiler() {
    // torch's BuildExtension gives `.cu`/`.cuh` sources to nvcc, the others to the host
    // compiler: a binding `.cpp` compiles no device code for any target.
    let p = read_text(
        r#"
setup(ext_modules=[CUDAExtension(name="m", sources=["bind.cpp", "k.cu"],
      extra_compile_args={"nvcc": ["-gencode", "arch=compute_80,code=sm_80"]})])
"#,
    );
    assert_eq!(builds(&p, "/p/k.cu")[0].1, ["sm_80"]);
    assert!(builds(&p, "/p/bind.cpp").is_empty());
}
