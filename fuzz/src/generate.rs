//! A structure-aware generator of valid-looking sources that attack the fixes: CUDA C++ with
//! asm statements whose syntax comes partly from macros (a comma, a `: "memory"` section),
//! templates with `\x25` escapes, raw strings and trailing PTX `//` comments; Python with
//! Triton, MLIR and cupy calls, trailing `#` comments and `\` continuations inside the call,
//! PEP 701 f-strings whose fields hold comments and quotes; either with a UTF-8 BOM or CRLF
//! line ends. The mutator then breaks them further (`fix-cpp`, `fix-python` targets).

use crate::Rng;

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// Templates: declarations outside `{ }`, modifiers, escapes, trailing comments.
const TEMPLATES: &[&str] = &[
    "\"atom.global.add.u32 %0, [%1], 1;\"",
    "\"ld.global.u32 %0, [%1];\"",
    "\".reg .u32 t1;\\n\\tmov.u32 t1, %2;\\n\\tadd.u32 %0, t1, 1; // the result\"",
    "\".reg .u32 t1;\\n\\t\" \"add.u32 %0, %2, 1;\"",
    "\"mov.b32 \\x25h0, %2;\"",
    "\"mov.b32 %0, \\45h2;\"",
    "\"add.u32 %0, %1, %2;\"",
    "R\"(\n    atom.global.add.u32 %0, [%1], 1;\n  )\"",
    "\"st.global.u32 [%1], %2; // store\"",
    "\"mov.u32 %0, %%tid.x;\"",
    "\"{ .reg .pred p; setp.eq.u32 p, %2, 0; @p bra L; L: }\"",
];

/// Operand and clobber sections, some of them (partly) from the macros of `PRELUDE`.
const SECTIONS: &[&str] = &[
    ": \"=r\"(v) : \"l\"(p), \"r\"(a)",
    ": \"=r\"(v) : \"l\"(p) \"r\"(a)",
    ": \"=r\"(v) : \"l\"(p) COMMA \"r\"(a)",
    ": \"=r\"(v) : \"l\"(p), \"r\"(a) MEM",
    ": \"=r\"(v) : \"r\"(p32), \"r\"(a)",
    ": \"=r\"(v) : \"l\"(p), \"r\"(a) : \"memory\"",
    ": [out] \"=r\"(v) : [ptr] \"l\"(p), [val] \"r\"(a)",
    "OPERANDS",
    ": \"=f\"(f) : \"l\"(p), \"f\"(g)",
];

const PRELUDE: &str = "#include <cstdint>\n#define MEM : \"memory\"\n#define COMMA ,\n#define OPERANDS : \"=r\"(v) : \"l\"(p), \"r\"(a)\n";

/// A CUDA file of a few functions, each with a few asm statements.
pub fn cuda_file(rng: &mut Rng) -> String {
    let mut out = String::from(PRELUDE);
    for f in 0..1 + rng.below(3) {
        let qualifier = pick(
            rng,
            &["__device__", "__device__ __forceinline__", "__global__"],
        );
        out.push_str(&format!(
            "{qualifier} void f{f}(int* p, unsigned p32, int a, float g) {{\n  int v; float f;\n"
        ));
        for _ in 0..1 + rng.below(4) {
            let keyword = pick(rng, &["asm", "asm volatile", "__asm__ __volatile__", "asm"]);
            let template = pick(rng, TEMPLATES);
            let sections = pick(rng, SECTIONS);
            let wrapped = rng.below(4) == 0;
            if wrapped {
                out.push_str("  for (int i = 0; i < 4; ++i) {\n  ");
            }
            out.push_str(&format!("  {keyword}({template} {sections});"));
            if rng.below(3) == 0 {
                out.push_str(" // a comment");
            }
            out.push('\n');
            if wrapped {
                out.push_str("  }\n");
            }
        }
        out.push_str("}\n");
    }
    finish(rng, out)
}

/// Python calls, and f-strings that used to desynchronise the tokenizer.
const PYTHON_CALLS: &[&str] = &[
    "    return llvm.inline_asm(T.i32(), [a], \"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\")\n",
    "    return llvm.inline_asm(T.i32(), [a], \"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\"  # constraints\n    )\n",
    "    return llvm.inline_asm(T.i32(), [a], \"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\" \\\n    )\n",
    "    return llvm.inline_asm(T.i32(), [a], \"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\",\n    )\n",
    "    return tl.inline_asm_elementwise(\"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\", [C + offs * 0], dtype=tl.int32, is_pure=True, pack=1)\n",
    "    return tl.inline_asm_elementwise(\".reg .u32 t;\\n mov.u32 t, $1;\\n add.u32 $0, t, 1;\", \"=r,r\", [x], dtype=tl.int32, is_pure=True, pack=1)  # note\n",
    "    k = cp.RawKernel(r'''\nextern \"C\" __global__ void k(int* p) {\n  int v;\n  asm(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(v) : \"l\"(p));\n}\n''', \"k\")\n",
];

const F_STRINGS: &[&str] = &[
    "note = f\"\"\"{\n    len(x)  # a comment with \"\"\" in it\n}\"\"\"\n",
    "note = f\"{x[\"a\"]} and {y!r:>{w}}\"\n",
    "note = f'{{literal}} {f\"{z}\"}'\n",
    "note = rf\"\\{x}\"\n",
];

/// A Python file with imports, f-strings and a few functions holding inline-asm calls.
pub fn python_file(rng: &mut Rng) -> String {
    let mut out = String::from(
        "import triton.language as tl\nimport cupy as cp\nfrom mlir.dialects import llvm\n",
    );
    for f in 0..1 + rng.below(3) {
        if rng.below(2) == 0 {
            out.push_str(pick(rng, F_STRINGS));
        }
        out.push_str(&format!("def f{f}(a, x, C, offs):\n"));
        out.push_str(pick(rng, PYTHON_CALLS));
    }
    if rng.below(2) == 0 {
        out.push_str(pick(rng, F_STRINGS));
    }
    out.push_str("label = \"=r\"\n");
    finish(rng, out)
}

/// A BOM in front, or CRLF line ends, now and then.
fn finish(rng: &mut Rng, mut text: String) -> String {
    if rng.below(6) == 0 {
        text = text.replace('\n', "\r\n");
    }
    if rng.below(6) == 0 {
        text.insert(0, '\u{feff}');
    }
    text
}
