use super::*;
use crate::ptx::{OperandKind, PlaceholderTarget};
use std::path::Path;

fn find(src: &str) -> Vec<AsmStatement> {
    find_statements(&SourceFile::new("t.py", src))
}

fn source_of<'a>(src: &'a str, stmt: &AsmStatement, needle: &str) -> &'a str {
    let at = stmt.template.text.find(needle).expect("needle in template");
    &src[stmt.source_span(at..at + needle.len()).range()]
}

#[test]
fn triton_keyword_arguments() {
    let src = r#"
import triton.language as tl
@triton.jit
def k(x):
    y = tl.inline_asm_elementwise(
        asm="shf.l.wrap.b32 $0, $1, $2, 3;",
        constraints="=r,r,r",
        args=[x, x],
        dtype=tl.uint32,
        is_pure=True,
        pack=1,
    )
"#;
    let all = find(src);
    assert_eq!(all.len(), 1);
    let s = &all[0];
    assert_eq!(s.template.text, "shf.l.wrap.b32 $0, $1, $2, 3;");
    assert_eq!(s.outputs.len(), 1);
    assert_eq!(s.inputs.len(), 2);
    assert_eq!(s.outputs[0].expr, "tl.uint32");
    assert_eq!(s.inputs[1].expr, "x");
    assert_eq!(&src[s.inputs[0].constraint.span.range()], "r");
    assert!(!s.is_volatile(), "is_pure=True");
    assert_eq!(s.percent_mode(), PercentMode::Llvm);
    let call = s.python().unwrap();
    assert_eq!(call.pack.unwrap().1, Some(1));
    assert_eq!(s.context.function.as_ref().unwrap().name, "k");
    let (_, instr) = s.ptx.instructions().next().unwrap();
    assert_eq!(
        instr.operands[1].placeholder().map(|p| &p.target),
        Some(&PlaceholderTarget::Index(1))
    );
    assert_eq!(source_of(src, s, "$2"), "$2");
}

#[test]
fn triton_positional_and_names_bound_once() {
    let src = r#"
from triton.language import inline_asm_elementwise
ASM = "mov.b32 $0, %smid;"
def k(x):
    c = "=r"
    return inline_asm_elementwise(ASM, c, [], tl.int32, False, 1)
"#;
    let all = find(src);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].template.text, "mov.b32 $0, %smid;");
    assert!(all[0].is_volatile(), "is_pure=False");
    assert_eq!(source_of(src, &all[0], "%smid"), "%smid");
}

#[test]
fn names_bound_twice_or_parameters_are_unknown() {
    let src = r#"
def k(x, asm):
    c = "=r,r"
    c = "=l,l"
    tl.inline_asm_elementwise(asm, "=r,r", [x], tl.int32, True, 1)
    tl.inline_asm_elementwise("mov.b32 $0, $1;", c, [x], tl.int32, True, 1)
"#;
    let all = find(src);
    // The second call's constraints are not known: it cannot be judged.
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].template.text, "\u{1}");
    assert!(all[0].template.is_partial());
}

#[test]
fn mlir_inline_asm_through_aliases() {
    let src = r#"
from cutlass._mlir.dialects import llvm as L
import cutlass._mlir.dialects.llvm
def f(a, b):
    r = L.inline_asm(
        T.i32(), [a.ir_value()],
        "{\n .reg .pred p;\n setp.ne.b32 p, $1, 0;\n selp.b32 $0, 1, 0, p;\n}\n",
        "=r,r,~{memory}", has_side_effects=True, asm_dialect=L.AsmDialect.AD_ATT)
    cutlass._mlir.dialects.llvm.inline_asm(None, [a], 'st.shared.u32 [$0], 1;', 'r')
"#;
    let all = find(src);
    assert_eq!(all.len(), 2);
    let s = &all[0];
    assert!(s.is_volatile());
    assert!(s.has_clobber("memory"));
    assert_eq!(s.inputs[0].expr, "a.ir_value()");
    assert_eq!(s.outputs[0].expr, "T.i32()");
    let call = s.python().unwrap();
    assert_eq!(call.asm_dialect.as_ref().unwrap().0, "L.AsmDialect.AD_ATT");
    assert_eq!(source_of(src, s, "\n .reg"), "\\n .reg");
    assert!(!all[1].is_volatile(), "MLIR's default is no side effects");
    assert!(all[1].outputs.is_empty());
}

#[test]
fn other_inline_asm_calls_are_not_mlir() {
    let src = "x.inline_asm(1, 2, 'a', 'b')\nasm.inline_asm(None, [], 'mov', '')\n";
    assert!(find(src).is_empty());
}

#[test]
fn llvm_operand_syntax() {
    let src = "tl.inline_asm_elementwise('add.u32 ${0:x}, $1, $$2; // $$', '=r,r', [a], tl.int32, True, 1)";
    let all = find(src);
    let kinds: Vec<_> = all[0].ptx.percents.iter().map(|p| p.kind.clone()).collect();
    use crate::ptx::PercentKind::*;
    assert_eq!(
        kinds,
        vec![
            Operand {
                index: 0,
                modifier: Some("x".into())
            },
            Operand {
                index: 1,
                modifier: None
            },
            Escape,
        ]
    );
    let (_, instr) = all[0].ptx.instructions().next().unwrap();
    assert!(matches!(
        instr.operands[0].kind,
        OperandKind::Placeholder(_)
    ));
}

#[test]
fn cpp_in_python_strings_map_back_to_the_literal() {
    let src = "import cupy\nk = cupy.RawKernel(r'''\nextern \"C\" __global__ void f(unsigned *o) {\n  unsigned v;\n  asm(\"mov.u32 %0, %laneid;\" : \"=r\"(v));\n  *o = v;\n}\n''', 'f')\n";
    let all = find(src);
    assert_eq!(all.len(), 1);
    let s = &all[0];
    assert!(matches!(s.origin, Origin::CppInPython { .. }));
    assert_eq!(s.template.text, "mov.u32 %0, %laneid;");
    assert_eq!(source_of(src, s, "%laneid"), "%laneid");
    assert_eq!(&src[s.keyword.range()], "asm");
    assert_eq!(&src[s.outputs[0].expr_span.range()], "v");
}

#[test]
fn load_inline_cuda_sources_keyword_and_list() {
    let src = "load_inline('m', cpp_sources='', cuda_sources=['__device__ void g(){ asm volatile(\"trap;\"); }'])\n";
    let all = find(src);
    assert_eq!(all.len(), 1);
    assert!(all[0].is_volatile());
    assert_eq!(source_of(src, &all[0], "trap;"), "trap;");
}

#[test]
fn prefilter_and_paths() {
    assert!(may_contain_inline_asm(b"tl.inline_asm_elementwise("));
    assert!(!may_contain_inline_asm(b"import numpy as np\nx = 1\n"));
    use crate::source::Language;
    assert_eq!(Language::of_path(Path::new("a/b.py")), Language::Python);
    assert_eq!(Language::of_path(Path::new("a/b.cu")), Language::Cpp);
    assert_eq!(SourceFile::new("a/b.py", "").language, Language::Python);
}

#[test]
fn never_panics_on_prefixes() {
    let src = r#"
from cutlass._mlir.dialects import llvm
def f(a):
    llvm.inline_asm(T.i32(), [a], f"mov.b32 $0, {a}; // {{", "=r,r", has_side_effects=True)
    tl.inline_asm_elementwise(asm="""{ .reg .b32 t; mov.b32 t, $1; mov.b32 $0, t; }""", constraints=("=r," "r"), args=[a], dtype=(tl.int32,), is_pure=True, pack=1)
    cupy.RawModule(code="__global__ void k(){ asm(\"exit;\"); }")
"#;
    assert_eq!(find(src).len(), 3);
    for end in 0..=src.len() {
        if src.is_char_boundary(end) {
            find(&src[..end]);
        }
    }
}

#[test]
fn tied_inputs_make_their_output_read_write() {
    let src = "llvm.inline_asm(T.f32(), [a, c], 'fma.rn.f32 $0, $1, $1, $0;', '=f,f,0')";
    let all = find(src);
    assert!(all[0].outputs[0].constraint.is_read_write());
    assert_eq!(all[0].inputs[1].constraint.letters(), "0");
}

#[test]
fn known_sides_of_a_sum_stay_known() {
    let src = "llvm.inline_asm(None, [a], ('{ .reg .b32 t;'\n  # a comment\n  ' mov.b32 t, $0;') + tail + '}', 'r', has_side_effects=True)";
    let all = find(src);
    assert_eq!(all[0].template.text, "{ .reg .b32 t; mov.b32 t, $0;\u{1}}");
}

#[test]
fn strings_in_other_definitions_hide_nothing() {
    // A string holding Python text is one token: `def fake` in it opens no scope.
    let src = "import triton.language as tl\nA = 'mov.b32 $0, $1;'\n\n@triton.jit\ndef other(x):\n    s = \'\'\'\ndef fake(): pass\nA = 1\n\'\'\'\n    return x\n\n@triton.jit\ndef k(x):\n    return tl.inline_asm_elementwise(A, '=r,r', [x], tl.int32, True, 1)\n";
    let all = find(src);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].template.text, "mov.b32 $0, $1;");
    let function = all[0].context.function.as_ref().unwrap();
    assert_eq!(function.name, "k");
    assert_eq!(function.qualifiers, ["triton.jit"]);
    assert!(src[function.body.range()].starts_with("return tl.inline_asm_elementwise("));
}

#[test]
fn class_names_are_not_seen_from_methods() {
    let src = "\
ASM = 'mov.b32 $0, $1;'
class K:
    ASM = 'add.s32 $0, $1, 1;'
    def f(self, x):
        return tl.inline_asm_elementwise(ASM, '=r,r', [x], tl.int32, True, 1)
";
    assert_eq!(find(src)[0].template.text, "mov.b32 $0, $1;");
}

#[test]
fn comments_and_lambdas_inside_arguments() {
    let src = "\
def f(a, b):
    return llvm.inline_asm(
        T.i32(),
        [
            a,  # the value
            # the shift
            b,
        ],
        'shl.b32 $0, $1, $2;',
        '=r,r,r',
        has_side_effects=False,
        key=lambda p, q: p,
    )
";
    let all = find(src);
    assert_eq!(all.len(), 1);
    let s = &all[0];
    assert_eq!(s.inputs.len(), 2);
    assert_eq!(s.inputs[0].expr, "a");
    assert_eq!(s.inputs[1].expr, "b");
    assert!(!s.python().unwrap().result_discarded);
    assert_eq!(s.context.function.as_ref().unwrap().name, "f");
}

#[test]
fn assignment_forms() {
    // Chained, annotated, tuple and augmented assignments; `for` targets; one-line bodies.
    let src = "\
a = b = 'mov.b32 $0, 1;'
c: str = 'mov.b32 $0, 2;'
d, e = 'x', 'y'
g = 'mov.b32 $0, 3;'
g += ''
for h in range(2): pass
h2 = 'mov.b32 $0, 4;'
def k(): return tl.inline_asm_elementwise(b, '=r', [], tl.int32, True, 1)
def k2(): tl.inline_asm_elementwise(c, '=r', [], tl.int32, True, 1)
def k3(): return tl.inline_asm_elementwise(a, '=r', [], tl.int32, True, 1)
def k4(): return tl.inline_asm_elementwise(d, '=r', [], tl.int32, True, 1)
def k5(): return tl.inline_asm_elementwise(g, '=r', [], tl.int32, True, 1)
def k6(): return tl.inline_asm_elementwise(h2, '=r', [], tl.int32, True, 1)
";
    let texts: Vec<String> = find(src).iter().map(|s| s.template.text.clone()).collect();
    assert_eq!(
        texts,
        [
            "mov.b32 $0, 1;",
            "mov.b32 $0, 2;",
            "\u{1}",
            "\u{1}",
            "\u{1}",
            "mov.b32 $0, 4;"
        ]
    );
    let discarded: Vec<bool> = find(src)
        .iter()
        .map(|s| s.python().unwrap().result_discarded)
        .collect();
    assert_eq!(discarded, [false, true, false, false, false, false]);
}

#[test]
fn pytorch_inline_asm_elementwise_op() {
    let src = "\
from torch._higher_order_ops.inline_asm_elementwise import inline_asm_elementwise
def f(x, y):
    return inline_asm_elementwise(x, y, asm_str='add.f32 $0, $1, $2;', constraints='=f,f,f', dtype=torch.float32)
def g(*xs):
    return inline_asm_elementwise(*xs, asm_str='mov.b32 $0, $1;', constraints='=r,r', dtype=torch.int32, is_pure=False, pack=2)
";
    let all = find(src);
    assert_eq!(all.len(), 2);
    let (f, g) = (&all[0], &all[1]);
    assert_eq!(f.template.text, "add.f32 $0, $1, $2;");
    assert_eq!(f.inputs[1].expr, "y");
    assert_eq!(f.outputs[0].expr, "torch.float32");
    let call = f.python().unwrap();
    assert!(call.torch_op);
    assert_eq!(call.api, PythonApi::TritonElementwise);
    assert!(!f.is_volatile(), "is_pure defaults to True");
    assert_eq!(call.args.as_ref().map(Vec::len), Some(2));
    // A splat hides the inputs; `is_pure=False` and `pack` as written.
    let call = g.python().unwrap();
    assert!(g.is_volatile());
    assert_eq!(call.args, None);
    assert_eq!(call.pack.unwrap().1, Some(2));
}

#[test]
fn operand_types_from_mlir_types_and_dtypes() {
    let src = "\
def f(a, b, c):
    llvm.inline_asm(llvm.StructType.get_literal([ir.IntegerType.get_signless(64), ir.F32Type.get(), cutlass.Uint16.mlir_type]), [Float64(a).ir_value(loc=loc), b.ir_value(), T.i32()], 'x;', '=l,=f,=h,d,r,r')
    tl.inline_asm_elementwise('x;', '=r,=h,r', [a], dtype=(tl.int64, tl.float16), is_pure=True, pack=1)
";
    let all = find(src);
    let types = |s: &AsmStatement| -> Vec<Option<(String, u16)>> {
        s.operands()
            .map(|o| o.ty.ty.as_ref().map(|t| (t.spelling.to_string(), t.bits)))
            .collect()
    };
    let some = |name: &str, bits| Some((name.to_string(), bits));
    assert_eq!(
        types(&all[0]),
        [
            some("i64", 64),
            some("F32", 32),
            some("Uint16", 16),
            some("Float64", 64),
            None,
            some("i32", 32)
        ]
    );
    // Triton: 16-bit dtypes are packed, and inputs are tensors of unwritten dtype.
    assert_eq!(types(&all[1]), [some("int64", 64), None, None]);
}

#[test]
fn self_bound_names_deep_nesting_and_long_chains_end() {
    // `p = p` must not loop; deep parentheses, a long `+` chain, a long call chain and a long
    // line of headers must not recurse without bound.
    let n = 20_000;
    let src = format!(
        "p = p\nd = {open}'=r'{close}\nif x: {headers}pass\ndef k(x):\n    tl.inline_asm_elementwise('mov.b32 $0, 1;' {plus}, '=r', d, tl.int32, p, p)\n    a{calls}.inline_asm_elementwise('x;', '=r', [], tl.int32, True, 1)\n",
        open = "(".repeat(n),
        close = ")".repeat(n),
        headers = "if x: ".repeat(n),
        plus = "+ x ".repeat(n),
        calls = ".f()".repeat(n),
    );
    let start = std::time::Instant::now();
    let all = find(&src);
    assert!(start.elapsed().as_secs() < 10);
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].python().unwrap().pack.unwrap().1, None);
}

#[test]
fn cute_inline_ptx_named_operands() {
    let src = "\
def f(p, a, acc):
    cute.arch.inline_ptx('add.f32 {$rw0}, {$r1}, {$w0}; st.u32 [{$r0}], {$r5};', write_only_types=[Float32], read_only_args=[p, Float32(a)], read_write_args=[acc], predicate=q)
    nvvm.inline_ptx([T.f32()], [], [], 'mov.f32 {$w0}, 0f00000000;')
";
    let all = find(src);
    assert_eq!(all.len(), 1, "nvvm.inline_ptx is not this helper");
    let s = &all[0];
    // Write-only, then read-write, then read-only; a name past its list gets a number past all.
    assert_eq!(s.template.text, "add.f32 $1, $3, $0; st.u32 [$2], $4;");
    assert_eq!(source_of(src, s, "$3"), "{$r1}");
    let constraints: Vec<&str> = s.operands().map(|o| o.constraint.text.as_str()).collect();
    // Inputs get no letter: a constant one becomes an immediate.
    assert_eq!(constraints, ["=f", "+", "", ""]);
    assert_eq!(
        s.python().unwrap().operand_names,
        ["{$w0}", "{$rw0}", "{$r0}", "{$r1}", "{$r5}"]
    );
    assert!(s.is_volatile(), "side effects are not said: not judged");
}

#[test]
fn cpp_view_puts_the_decoded_cpp_where_the_strings_are() {
    let src = "import cupy\nA = cupy.RawKernel(r'''\n#if X\n__global__ void f() {}\n#endif\n''', 'f')\nx = 1  # not C++\nB = cupy.RawModule(code=\"__device__ int g() {\\n\\treturn \\\"a\\\"[0];\\n}\")\n";
    let file = SourceFile::new("t.py", src);
    let view = cpp_view(&file).expect("two C++ strings");
    assert_eq!(view.text.len(), src.len());
    // A raw string is its own text, at its own offsets.
    let raw = src.find("#if X").unwrap();
    assert_eq!(&view.text[raw..raw + 32], &src[raw..raw + 32]);
    // Python outside the strings is blank.
    assert!(!view.text.contains("cupy") && !view.text.contains("not C++"));
    // Escapes decode in place: `\n` ends a C++ line, `\t` is a tab, `\"` a quote.
    let g = src.find("__device__").unwrap();
    let decoded_line = view.text[g..].lines().nth(1).unwrap();
    assert_eq!(decoded_line.trim_matches(' '), "\treturn  \"a \"[0];");
    // A file without C++ strings has no view.
    assert!(cpp_view(&SourceFile::new(
        "t.py",
        "tl.inline_asm_elementwise('', '=r', [], tl.int32, True, 1)\n"
    ))
    .is_none());
}

/// CPython reads a lone CR as a line end (universal newlines): a `#` comment ends there and the
/// call on the next line is code, in the statements, in `outline`'s comments and in the spans.
#[test]
fn lone_carriage_return_ends_a_line() {
    let src = "import triton.language as tl\r# a comment\rdef k(x):\r    return tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r,r\", [x], dtype=tl.int32, is_pure=True, pack=1)\r";
    let all = find(src);
    assert_eq!(all.len(), 1, "the call after a CR-ended comment is found");
    let s = &all[0];
    assert_eq!(source_of(src, s, "mov.b32"), "mov.b32");
    let outline = outline(&SourceFile::new("t.py", src));
    assert_eq!(outline.comments.len(), 1);
    assert_eq!(&src[outline.comments[0].range()], "# a comment");
    assert_eq!(outline.asm_statements.len(), 1);
    // A lone CR inside a string is a line end in its value too, as CPython decodes it.
    let src = "import triton.language as tl\rdef k(x):\r    return tl.inline_asm_elementwise(\"\"\"mov.b32 $0, $1;\rmov.b32 $0, $0;\"\"\", \"=r,r\", [x], dtype=tl.int32, is_pure=True, pack=1)\r";
    assert_eq!(
        find(src)[0].template.text,
        "mov.b32 $0, $1;\nmov.b32 $0, $0;"
    );
}

/// A name at the end of a logical line and a `(` starting the next are two statements, not a
/// call (found by the fuzzer: `return llvm.inline_asm` then `(T.i32(), ...)` on its own line
/// read as a call, and the fix's keyword argument made the tuple a syntax error). Inside
/// brackets or after a `\` the line goes on, and the call is one. (Each file also holds a
/// plain call: the front end reads only files with a `name(` marker.)
#[test]
fn a_paren_starting_a_line_is_no_call() {
    let plain = "from mlir.dialects import llvm\ndef g(a):\n    return llvm.inline_asm(T.i32(), [a], \"mov.b32 $0, $1;\", \"=r,r\")\n";
    let split = |between: &str, wrapped: bool| {
        let (open, close) = if wrapped { ("(", ")") } else { ("", "") };
        format!("{plain}x = {open}llvm.inline_asm{between}(T.i32(), [a], \"add.u32 $0, $1, 1;\", \"=r,r\"){close}\n")
    };
    let templates =
        |src: &str| -> Vec<String> { find(src).into_iter().map(|s| s.template.text).collect() };
    assert_eq!(templates(&split("\n", false)), ["mov.b32 $0, $1;"]);
    assert_eq!(templates(&split("\r\n", false)), ["mov.b32 $0, $1;"]);
    assert_eq!(templates(&split("\n", true)).len(), 2);
    assert_eq!(templates(&split(" \\\n", false)).len(), 2);
    assert_eq!(templates(&split(" \\\r\n", false)).len(), 2);
}
