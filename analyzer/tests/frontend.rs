//! Front end and source map: every idiom of real CUDA code, checked against exact bytes.

use ptxguard_analyzer::cpp::{AsmStatement, Target};
use ptxguard_analyzer::ptx::PercentKind;
use ptxguard_analyzer::statements::find_asm_statements;
use ptxguard_analyzer::SourceFile;

fn parse_named(name: &str, src: &str) -> Vec<AsmStatement> {
    find_asm_statements(&SourceFile::new(name, src))
}

fn parse(src: &str) -> Vec<AsmStatement> {
    parse_named("t.cuh", src)
}

/// The source text that produced the first occurrence of `needle` in the decoded template.
fn source_of<'a>(src: &'a str, stmt: &AsmStatement, needle: &str) -> &'a str {
    let at = stmt
        .template
        .text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in {:?}", stmt.template.text));
    &src[stmt.source_span(at..at + needle.len()).range()]
}

/// Byte offset in `src` of the source of `needle`.
fn source_offset(stmt: &AsmStatement, needle: &str) -> usize {
    let at = stmt.template.text.find(needle).unwrap();
    stmt.source_span(at..at + needle.len()).start as usize
}

const DEV: &str = "__device__ void f(unsigned a, unsigned b, unsigned* p) {\n";

#[test]
fn every_keyword_spelling_and_qualifier() {
    for (kw, q) in [
        ("asm", ""),
        ("asm", "volatile"),
        ("__asm__", "__volatile__"),
        ("__asm", "__volatile"),
        ("asm", "inline"),
        ("__asm__", "volatile inline"),
    ] {
        let src = format!("{DEV} {kw} {q} (\"mov.u32 %0, %1;\" : \"=r\"(a) : \"r\"(b));\n}}");
        let s = parse(&src);
        assert_eq!(s.len(), 1, "{kw} {q}");
        assert_eq!(&src[s[0].keyword.range()], kw);
        assert_eq!(s[0].is_volatile(), q.contains("olatile"));
        assert_eq!(s[0].operand_count(), 2);
    }
}

#[test]
fn asm_as_an_identifier_is_not_a_statement() {
    assert!(parse("int asm_count; void asm_x(); struct S { int asm; };").is_empty());
}

#[test]
fn concatenated_literals_map_each_piece() {
    let src = format!("{DEV} asm(\"mov.u32 %0, \"\n    /* c */ \"%1;\" // x\n    \"add.u32 %0, %0, %n1;\" : \"=r\"(a) : \"r\"(b));\n}}");
    let s = &parse(&src)[0];
    assert_eq!(s.template.text, "mov.u32 %0, %1;add.u32 %0, %0, %n1;");
    assert_eq!(source_of(&src, s, "%n1"), "%n1");
    assert_eq!(source_of(&src, s, "%1;"), "%1;");
    assert_eq!(s.template.pieces.len(), 3);
}

#[test]
fn escape_sequences_point_at_their_bytes() {
    let src = format!(
        "{DEV} asm(\"mov.u32 %0, %1;\\n\\tadd.u32 %0, %0, \\x25n1;\" : \"=r\"(a) : \"r\"(b));\n}}"
    );
    let s = &parse(&src)[0];
    assert_eq!(source_of(&src, s, "\n"), "\\n");
    assert_eq!(source_of(&src, s, "\t"), "\\t");
    assert_eq!(source_of(&src, s, "%n1"), "\\x25n1");
}

#[test]
fn octal_escape_percent() {
    let src = format!("{DEV} asm(\"mov.u32 %0, \\0451;\" : \"=r\"(a) : \"r\"(b));\n}}");
    let s = &parse(&src)[0];
    assert_eq!(s.template.text, "mov.u32 %0, %1;");
    assert_eq!(source_of(&src, s, "%1"), "\\0451");
}

#[test]
fn escaped_quotes_and_backslashes() {
    let src = format!("{DEV} asm(\".pragma \\\"nounroll\\\";\\\\\" ::: \"memory\");\n}}");
    let s = &parse(&src)[0];
    assert_eq!(s.template.text, ".pragma \"nounroll\";\\");
    assert_eq!(source_of(&src, s, "\"nounroll\""), "\\\"nounroll\\\"");
    assert_eq!(s.clobbers.len(), 1);
}

#[test]
fn backslash_newline_inside_a_literal() {
    let src = format!("{DEV} asm(\"mov.u32 %0, \\\n%1;\" : \"=r\"(a) : \"r\"(b));\n}}");
    let s = &parse(&src)[0];
    assert_eq!(s.template.text, "mov.u32 %0, %1;");
    assert_eq!(source_of(&src, s, "%1"), "%1");
    assert_eq!(source_of(&src, s, ", %1"), ", \\\n%1");
}

#[test]
fn backslash_newline_between_tokens() {
    let src =
        format!("{DEV} asm vol\\\natile(\"mov.u32 %0, %1;\" \\\n : \"=r\"(a) : \"r\"(b));\n}}");
    let s = &parse(&src)[0];
    assert!(s.is_volatile());
    assert_eq!(s.operand_count(), 2);
}

#[test]
fn raw_strings_with_and_without_delimiters() {
    let src = format!("{DEV} asm volatile(R\"(\n{{ .reg .b32 t;\n mov.u32 t, %1; mov.u32 %0, t; }}\n)\" : \"=r\"(a) : \"r\"(b));\n asm(R\"ptx(add.u32 %0, %0, %n1;)ptx\" : \"+r\"(a) : \"r\"(b));\n}}");
    let s = parse(&src);
    assert_eq!(s.len(), 2);
    assert_eq!(source_of(&src, &s[0], ".reg"), ".reg");
    assert!(s[0].template.pieces[0].raw);
    assert_eq!(source_of(&src, &s[1], "%n1"), "%n1");
}

#[test]
fn encoding_prefixes() {
    let src = format!("{DEV} asm(u8\"mov.u32 %0, \" L\"%1;\" : \"=r\"(a) : \"r\"(b));\n}}");
    let s = &parse(&src)[0];
    assert_eq!(s.template.text, "mov.u32 %0, %1;");
    assert_eq!(source_of(&src, s, "%1"), "%1");
}

#[test]
fn utf8_text_before_the_statement_keeps_byte_offsets() {
    let src =
        format!("// é 😀 ünïcödé\n{DEV} asm(\"mov.u32 %0, %n1;\" : \"=r\"(a) : \"r\"(b));\n}}");
    let s = &parse(&src)[0];
    assert_eq!(source_of(&src, s, "%n1"), "%n1");
    let file = SourceFile::new("t.cu", src.clone());
    let (line, col) = file.line_col(source_offset(s, "%n1"));
    assert_eq!(line, 3);
    assert_eq!(col, src.lines().nth(2).unwrap().find("%n1").unwrap() + 1);
}

#[test]
fn string_macros_resolve_and_map_to_the_define() {
    let src = format!("#define FENCE \"fence.proxy.async;\"\n#define BAR \"bar.sync 0;\" FENCE\n{DEV} asm volatile(BAR \"\\n\" FENCE ::: \"memory\");\n}}");
    let s = &parse(&src)[0];
    assert_eq!(
        s.template.text,
        "bar.sync 0;fence.proxy.async;\nfence.proxy.async;"
    );
    assert!(!s.template.is_partial());
    assert_eq!(source_of(&src, s, "bar.sync"), "bar.sync");
    assert!(source_offset(s, "bar.sync") < src.find("__device__").unwrap());
}

#[test]
fn unknown_macros_make_the_template_partial() {
    let src = format!(
        "{DEV} asm volatile(SOME_EXTERNAL_MACRO \"mov.u32 %0, %n1;\" : \"=r\"(a) : \"r\"(b));\n}}"
    );
    let s = &parse(&src)[0];
    assert!(s.template.is_partial());
    assert!(s.template.text.starts_with('\u{1}'));
    assert_eq!(source_of(&src, s, "%n1"), "%n1");
    let hole = s.source_span(0..1);
    assert_eq!(&src[hole.range()], "SOME_EXTERNAL_MACRO");
}

#[test]
fn macro_bodies_with_continuations_and_stringised_params() {
    let src = "#define LDG(mod, v, p) \\\n  asm volatile(\"ld.global.\" #mod \".u32 %0, [%1];\" \\\n    : \"=r\"(v) : \"l\"(p))\n__device__ void g(unsigned* p) { unsigned v; LDG(cg, v, p); }\n";
    let s = parse(src);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].macro_name.as_deref(), Some("LDG"));
    assert_eq!(s[0].template.text, "ld.global.\u{1}.u32 %0, [%1];");
    assert_eq!(&src[s[0].source_span(10..11).range()], "#mod");
    assert_eq!(source_of(src, &s[0], "[%1]"), "[%1]");
    assert_eq!(s[0].context.target, Some(Target::Device));
    assert_eq!(s[0].context.function.as_ref().unwrap().name, "g");
}

#[test]
fn unused_macro_with_asm_is_still_checked() {
    let src = "#define FENCE_ASM() asm volatile(\"fence.acq_rel.gpu;\" ::: \"memory\")\n";
    let s = parse(src);
    assert_eq!(s.len(), 1);
    assert!(s[0].is_ptx());
}

#[test]
fn missing_comma_between_operands() {
    let src = format!("{DEV} asm(\"add.u32 %0, %1, %2;\" : \"=r\"(a) : \"r\"(a) \"r\"(b));\n}}");
    let s = &parse(&src)[0];
    assert_eq!(s.inputs.len(), 2);
    let at = s.inputs[1].missing_comma_at.expect("comma missing");
    assert_eq!(&src[at - 3..at], "(a)");
    assert!(s.inputs[0].missing_comma_at.is_none());
}

#[test]
fn many_operands() {
    let outs: Vec<String> = (0..70).map(|i| format!("\"=r\"(d[{i}])")).collect();
    let ins: Vec<String> = (0..69).map(|i| format!("\"r\"(s[{i}])")).collect();
    let src = format!(
        "__device__ void f(unsigned* d, unsigned* s) {{ asm volatile(\"\" : {} : {}); }}",
        outs.join(", "),
        ins.join(", ")
    );
    let s = &parse(&src)[0];
    assert_eq!(s.operand_count(), 139);
    assert_eq!(s.operand(138).unwrap().expr, "s[68]");
    assert_eq!(s.operand(138).unwrap().ty.ty.as_ref().unwrap().bits, 32);
}

#[test]
fn preprocessor_branches_inside_the_statement() {
    let src = format!("{DEV} asm volatile(\n#if __CUDA_ARCH__ >= 800\n \"mov.u32 %0, %1;\"\n#else\n \"bogus\"\n#endif\n : \"=r\"(a)\n#ifdef EXTRA\n : \"r\"(b)\n#else\n : \"r\"(a)\n#endif\n);\n}}");
    let s = &parse(&src)[0];
    assert_eq!(s.template.text, "mov.u32 %0, %1;");
    assert_eq!(s.inputs.len(), 1);
    assert_eq!(s.inputs[0].expr, "b");
}

#[test]
fn asm_as_a_macro_argument() {
    let src = "__device__ void f(unsigned* p) {\n NV_IF_ELSE_TARGET(NV_PROVIDES_SM_90,\n  (asm volatile(\"fence.proxy.async;\" ::: \"memory\");),\n  (asm volatile(\"membar.gl;\" ::: \"memory\");))\n}\nvoid h() { NV_IF_TARGET(NV_IS_HOST, (asm volatile(\"rdtsc\");)) }\n";
    let s = parse(src);
    assert_eq!(s.len(), 3);
    assert_eq!(
        s[0].context.nv_target,
        vec![("NV_PROVIDES_SM_90".to_string(), true)]
    );
    assert_eq!(
        s[1].context.nv_target,
        vec![("NV_PROVIDES_SM_90".to_string(), false)]
    );
    assert!(matches!(s[2].context.target, Some(Target::Host(_))));
}

#[test]
fn comments_inside_the_ptx_text_are_kept_for_the_ptx_parser() {
    let src = format!("{DEV} asm(\"mov.u32 %0, %1; // copy\\n\" \"add.u32 %0, %0, 1;\" : \"=r\"(a) : \"r\"(b));\n}}");
    let s = &parse(&src)[0];
    assert_eq!(s.ptx.instructions().count(), 2);
}

#[test]
fn empty_template_register_fence() {
    let src = format!("{DEV} float x = 1; asm volatile(\"\" : \"+f\"(x) :: \"memory\");\n}}");
    let s = &parse(&src)[0];
    assert!(s.template.text.is_empty());
    assert_eq!(s.outputs.len(), 1);
    assert!(s.has_clobber("memory"));
    assert_eq!(
        s.outputs[0].ty.ty.as_ref().unwrap().spelling.as_ref(),
        "float"
    );
}

#[test]
fn cuda_syntax_never_hides_a_statement() {
    let src = "template <int N> __global__ void __launch_bounds__(256, 2) k(float* p) {\n  [[likely]] if constexpr (N > 1) { asm volatile(\"trap;\"); }\n  auto lam = [=] __device__ (int x) { asm volatile(\"exit;\"); };\n}\nstruct S { __device__ __attribute__((always_inline)) void m() { __asm__(\"nanosleep.u32 10;\"); } };\nnamespace ns { __device__ inline void z() { asm(\"membar.cta;\"); } }\nint main() { k<2><<<dim3(1), 128, 0, stream>>>(nullptr); asm(\"nop\"); }\n";
    let s = parse_named("k.cu", src);
    assert_eq!(s.len(), 5);
    for stmt in &s[..4] {
        assert_eq!(
            stmt.context.target,
            Some(Target::Device),
            "{}",
            stmt.template.text
        );
    }
    assert!(s[1].context.in_lambda);
    assert!(matches!(s[4].context.target, Some(Target::Host(_))));
}

#[test]
fn host_and_foreign_asm_is_not_ptx() {
    let src = "#if !defined(__CUDA_ARCH__)\ninline unsigned long long t() { unsigned lo, hi; asm volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi)); return lo; }\n#endif\n#if defined(GGML_USE_HIP) && defined(__HIP_PLATFORM_AMD__)\n__device__ void w() { asm volatile(\"s_waitcnt vmcnt(0)\"); }\n#else\n__device__ void w() { asm volatile(\"membar.gl;\"); }\n#endif\n__host__ void h() { asm(\"mfence\"); }\n";
    let s = parse(src);
    assert_eq!(s.len(), 4);
    assert!(matches!(s[0].context.target, Some(Target::Host(_))));
    assert!(matches!(s[1].context.target, Some(Target::Foreign(_))));
    assert_eq!(s[2].context.target, Some(Target::Device));
    assert!(matches!(s[3].context.target, Some(Target::Host(_))));
}

#[test]
fn x86_asm_in_an_unqualified_header_function_is_not_ptx() {
    let src = "static inline unsigned long long cycles() { unsigned lo, hi; __asm__ __volatile__(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi)); return lo; }\n";
    let s = parse(src);
    assert!(!s[0].is_ptx());
}

/// A function without `__device__`/`__global__` is host code in a header too (nvcc compiles
/// it for the host only), whatever its asm looks like; `constexpr` functions and qualifier
/// macros of unknown meaning stay undecided.
#[test]
fn unqualified_functions_in_headers_are_host_code() {
    let src = "static void spin(int* p) { asm volatile(\"membar.gl;\" ::: \"memory\"); }\n\
               constexpr int k() { asm(\"membar.gl;\"); return 0; }\n\
               LIB_INLINE void g() { asm volatile(\"membar.gl;\"); }\n";
    let file = ptxguard_analyzer::SourceFile::new("lib/barrier.cuh", src);
    let s = ptxguard_analyzer::cpp::cpp_statements(&file);
    assert_eq!(s.len(), 3);
    assert!(matches!(s[0].context.target, Some(Target::Host(_))));
    assert!(s[1].is_ptx());
    assert!(s[2].is_ptx());
}

#[test]
fn conditions_are_kept_parsed() {
    let src = "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n__device__ void f() { asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\"); }\n#endif\n";
    let s = &parse(src)[0];
    assert_eq!(s.context.conditions.len(), 1);
    assert!(!s.context.conditions[0].negated);
    assert!(s.context.condition_mentions(|n| n == "__CUDA_ARCH__"));
}

#[test]
fn loops_are_detected() {
    let src = "__device__ void f(unsigned* p) { unsigned v = 0;\n while (v == 0) { asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); }\n for (;;) asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n do { if (v) { asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); } } while (!v);\n asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n}";
    let s = parse(src);
    let loops: Vec<bool> = s.iter().map(|x| x.context.in_loop).collect();
    assert_eq!(loops, vec![true, true, true, false]);
}

#[test]
fn operand_names_constraints_and_types() {
    let src = "__device__ void f(const float* p, __half h) { uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(p));\n asm volatile(\"ld.shared.u32 %[v], [%[a]];\" : [v] \"=r\"(smem) : [a] \"r\"(smem), \"h\"(h), \"l\"((unsigned)(size_t)p));\n}";
    let s = &parse(src)[0];
    assert_eq!(s.outputs[0].name.as_ref().unwrap().0, "v");
    assert_eq!(s.outputs[0].constraint.text, "=r");
    assert_eq!(s.outputs[0].constraint.letter(), Some('r'));
    assert_eq!(&src[s.outputs[0].constraint.span.range()], "\"=r\"");
    assert_eq!(
        &src[s.outputs[0].constraint.inner_span(src).unwrap().range()],
        "=r"
    );
    assert_eq!(s.inputs[1].ty.ty.as_ref().unwrap().bits, 16);
    let cast = s.inputs[2].ty.cast.as_ref().unwrap();
    assert_eq!(cast.to.bits, 32);
    assert_eq!(&src[cast.inner.range()], "(size_t)p");
    assert!(s.inputs[2].ty.from_address);
}

#[test]
fn placeholders_map_through_named_operands() {
    let src = "__device__ void f(unsigned a) { asm(\"mov.u32 %[out], %[in];\" : [out] \"=r\"(a) : [in] \"r\"(a)); }";
    let s = &parse(src)[0];
    let names: Vec<_> = s
        .ptx
        .percents
        .iter()
        .filter_map(|p| match &p.kind {
            PercentKind::Named { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(names, vec!["out", "in"]);
    let first = &s.ptx.percents[0];
    assert_eq!(&src[s.source_span(first.span.clone()).range()], "%[out]");
}

#[test]
fn brace_opened_in_one_statement_closed_in_another() {
    let src = "__device__ void f() { asm volatile(\"{\\n .reg .pred p;\"); asm volatile(\"}\"); }";
    let s = parse(src);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].ptx.open_braces_at_end, 1);
    assert_eq!(s[1].ptx.min_depth, -1);
}

#[test]
fn unterminated_and_half_typed_code_never_panics() {
    let inputs = [
        "asm(",
        "asm volatile(\"mov.u32 %0",
        "asm(\"x\" : \"=r\"(",
        "__device__ void f() { asm(\"add.u32 %0, %1;\" : \"=r\"(a) : ",
        "#define X asm(\\",
        "asm(R\"(unterminated",
        "asm(\"\\x\" \"\\",
        "/* asm(\"x\")",
        "asm :: ( ) : \"r\" ) ) ) {{{ }",
        "asm(\"%\" : : : : : : :)",
    ];
    for src in inputs {
        let _ = parse(src);
        for cut in 0..src.len() {
            if src.is_char_boundary(cut) {
                let _ = parse(&src[..cut]);
            }
        }
    }
}

#[test]
fn statement_span_covers_keyword_to_close_paren() {
    let src = format!("{DEV} asm volatile (\"trap;\");\n}}");
    let s = &parse(&src)[0];
    assert_eq!(&src[s.span.range()], "asm volatile (\"trap;\")");
}

#[test]
fn clobber_only_statement_is_verbatim_mode() {
    let src = format!("{DEV} asm volatile(\"mov.u32 %%r1, %%clock;\" ::: \"memory\");\n}}");
    let s = &parse(&src)[0];
    assert_eq!(
        s.percent_mode(),
        ptxguard_analyzer::ptx::PercentMode::Verbatim
    );
    assert!(s.ptx.percents.iter().any(|p| p.kind == PercentKind::Escape));
}

#[test]
fn files_without_asm_are_skipped_cheaply() {
    assert!(!ptxguard_analyzer::cpp::may_contain_asm(
        b"int main() { return 0; }"
    ));
    assert!(parse("int main() { return 0; }").is_empty());
}

/// The compiler removes line splices before it reads words: `a\` + newline + `sm` is the
/// keyword, even in a file with no `asm` spelled whole (a fuzz input whose only other `asm`, in a
/// comment, was removed by a fix: the statement vanished from the fixed file).
#[test]
fn a_keyword_split_by_a_line_splice_is_not_skipped() {
    let src = format!("{DEV} a\\\nsm volatile(\"trap;\");\n}}");
    assert!(ptxguard_analyzer::cpp::may_contain_asm(src.as_bytes()));
    assert_eq!(parse(&src).len(), 1);
    let crlf = format!("{DEV} __a\\\r\nsm__ volatile(\"trap;\");\n}}");
    assert_eq!(parse(&crlf).len(), 1);
    // Blanks between the backslash and the newline, as the lexer allows.
    let blanks = format!("{DEV} as\\ \t\nm volatile(\"trap;\");\n}}");
    assert_eq!(parse(&blanks).len(), 1);
    // A splice between other words is no reason to read the file.
    assert!(!ptxguard_analyzer::cpp::may_contain_asm(
        b"#define ADD(a, b) \\\n  ((a) + (b))\nint x = 1; \\\nint y;"
    ));
}

#[test]
fn enclosing_if_conditions_are_recorded() {
    let src = "template <int Arch> __device__ void f() {\n if constexpr (Arch >= 90) {\n  if (threadIdx.x == 0) { asm volatile(\"fence.proxy.async;\" ::: \"memory\"); }\n } else { asm volatile(\"membar.cta;\" ::: \"memory\"); }\n}";
    let s = parse(src);
    assert_eq!(
        s[0].context.if_conditions,
        vec!["(Arch >= 90)", "(threadIdx.x == 0)"]
    );
    assert!(s[1].context.if_conditions.is_empty());
}

#[test]
fn prefilter_needs_the_word_asm() {
    use ptxguard_analyzer::cpp::may_contain_asm;
    for yes in [
        "asm(\"x\")",
        "x; __asm__ volatile",
        "__asm(",
        "f(){asm\n(",
        "#define A asm",
    ] {
        assert!(may_contain_asm(yes.as_bytes()), "{yes}");
    }
    for no in [
        "plasma",
        "wasm_module",
        "asm_count",
        "my_asm",
        "fasm",
        "ASM",
    ] {
        assert!(!may_contain_asm(no.as_bytes()), "{no}");
    }
}

#[test]
fn amd_asm_in_a_hip_device_function_is_not_ptx() {
    let src = "#ifdef V_DOT2_AVAILABLE\n__device__ void mad(float& acc, half2 v, half2 u) { asm volatile(\"v_dot2_f32_f16 %0, %1, %2, %0\" : \"+v\"(acc) : \"v\"(v), \"v\"(u)); }\n#endif\n";
    let s = parse(src);
    assert!(matches!(s[0].context.target, Some(Target::Foreign(_))));
}

#[test]
fn class_data_members_are_typed() {
    let src = "struct Barrier {\n  uint32_t addr;\n  __device__ void arrive() { asm volatile(\"mbarrier.arrive.shared.b64 _, [%0];\" :: \"r\"(addr) : \"memory\"); }\n  __device__ void local() { uint64_t addr = 0; asm volatile(\"st.u64 [%0], %0;\" :: \"l\"(addr) : \"memory\"); }\n  uint64_t later;\n  __device__ void after() { asm volatile(\"st.u64 [%0], %0;\" :: \"l\"(later) : \"memory\"); }\n};";
    let s = parse(src);
    assert_eq!(s[0].inputs[0].ty.ty.as_ref().unwrap().bits, 32);
    assert_eq!(s[1].inputs[0].ty.ty.as_ref().unwrap().bits, 64);
    assert_eq!(s[2].inputs[0].ty.ty.as_ref().unwrap().bits, 64);
}

#[test]
fn adjacent_clobber_literals_are_one_clobber() {
    // The compiler concatenates adjacent literals: `"memor" "y"` is the "memory" clobber.
    let src = format!("{DEV} asm volatile(\"red.global.add.u32 [%0], 1;\" :: \"l\"(p) : \"memor\" \"y\", \"cc\");\n}}");
    let s = &parse(&src)[0];
    let names: Vec<&str> = s.clobbers.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(names, ["memory", "cc"]);
    assert!(s.has_clobber("memory"));
}

#[test]
fn constructors_operators_and_specializations_name_their_function() {
    let src = "struct A {\n  unsigned v, s;\n  __device__ A(unsigned a, unsigned b) noexcept : v(a), s(b) { asm(\"trap;\"); }\n  __device__ unsigned operator()(unsigned x) const { asm(\"trap;\"); return x; }\n  __device__ A& operator+=(A o) { asm(\"trap;\"); return *this; }\n  __device__ operator unsigned() const { asm(\"trap;\"); return v; }\n};\ntemplate <int N> __device__ void f();\ntemplate <> __device__ void f<sizeof(int) * 2>() { asm(\"trap;\"); }\ntemplate <> __device__ void f<(1 > 2)>() { asm(\"trap;\"); }\n";
    let s = parse_named("k.cu", src);
    let names: Vec<&str> = s
        .iter()
        .map(|st| st.context.function.as_ref().map_or("", |f| f.name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            "A",
            "operator()",
            "operator+=",
            "operator unsigned",
            "f",
            "f"
        ]
    );
    for st in &s {
        let f = st.context.function.as_ref().unwrap();
        assert_eq!(&src[f.name_span.range()], f.name);
        assert!(f.has("__device__"), "{}: {:?}", f.name, f.qualifiers);
        assert_eq!(st.context.target, Some(Target::Device), "{}", f.name);
    }
    // The constructor's initializers are not qualifiers.
    assert!(!s[0].context.function.as_ref().unwrap().has("v"));
}

#[test]
fn reachable_code_ends_at_an_unconditional_return() {
    use ptxguard_analyzer::cpp::types::reachable_end;
    let body = "asm(\"x\"); if (a) return; y = 1; { return; } z = 2; } w = 3; return; v = 4;";
    let from = body.find(';').unwrap() + 1;
    let end = reachable_end(body, from, body.len());
    // The conditional return and the nested block's return do not end it; the one after the
    // block closes does.
    assert_eq!(&body[end..], " v = 4;");
    // A comment ending in `)` does not make the next `return` conditional.
    let text = "asm(\"x\"); // see f(x)\n return 0; } use(p);";
    let end = reachable_end(text, 9, text.len());
    assert_eq!(&text[end..], " } use(p);");
    let text = "asm(\"x\"); // return here\n s = \"return\"; else_thing = 1; return x;";
    let end = reachable_end(text, 9, text.len());
    assert_eq!(
        &text[..end],
        "asm(\"x\"); // return here\n s = \"return\"; else_thing = 1; return x;"
    );
}

/// A macro that expands to `if constexpr` opens a block of the function, not a function of
/// its own: the asm keeps its function's `__device__`.
#[test]
fn an_if_macro_in_a_body_is_not_a_function() {
    let src = "template <int N>\n__device__ void store(unsigned* a, unsigned v) {\n  _CCCL_IF_CONSTEXPR (N == 1) {\n    asm volatile(\"st.global.u32 [%0], %1;\" :: \"l\"(a), \"r\"(v));\n  }\n}\n#if defined(FOO)\n__device__ void f(int a) {\n#else\n__device__ void f(long a) {\n#endif\n  asm volatile(\"membar.gl;\");\n}\nvoid host_fn() { asm volatile(\"membar.gl;\"); }\n";
    let s = parse(src);
    assert_eq!(s.len(), 3);
    assert_eq!(s[0].context.function.as_ref().unwrap().name, "store");
    assert_eq!(s[0].context.target, Some(Target::Device));
    // Braces left unbalanced by `#if` branches do not swallow the next functions.
    assert_eq!(s[2].context.function.as_ref().unwrap().name, "host_fn");
    assert!(matches!(s[2].context.target, Some(Target::Host(_))));
}

/// One build compiles one branch of an `#if` group: a signature written once per branch opens
/// one function body, so the code after it is at file scope again (before, every later
/// statement was read as inside `pick`).
#[test]
fn one_branch_of_an_if_group_counts_for_braces() {
    let src = r#"
template <typename T>
#if !defined __CUDACC_RTC__
__device__ inline T pick(T a, T b) {
#else
__device__ T pick(T a, T b) {
#endif
  return a < b ? a : b;
}

__device__ void after(unsigned* p) {
  asm volatile("st.global.u32 [%0], 1;" :: "l"(p) : "memory");
}

#define DEFINE_STORE(NAME) \
  __device__ void NAME(unsigned* p) { asm volatile("st.global.u32 [%0], 1;" :: "l"(p) : "memory"); }
DEFINE_STORE(store_one)
"#;
    let s = parse(src);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].context.function.as_ref().unwrap().name, "after");
    // The macro's statement takes its context from its use, at file scope.
    assert!(
        s[1].context
            .function
            .as_ref()
            .is_none_or(|f| f.name != "pick"),
        "{:?}",
        s[1].context.function
    );
}

/// The names a `for` header declares or steps change every iteration; a `while` gives none.
#[test]
fn loop_variables_are_the_for_headers_names() {
    let src = r#"
__device__ void copy(unsigned* dst, const unsigned* src, int n) {
  for (int j = threadIdx.x, k = 0; j < n; j += blockDim.x, ++k) {
    unsigned v;
    asm("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(src + j));
    dst[j] = v;
  }
  while (n-- > 0) {
    unsigned w;
    asm("ld.global.u32 %0, [%1];" : "=r"(w) : "l"(src));
    dst[0] = w;
  }
}
"#;
    let s = parse(src);
    assert_eq!(s[0].context.loop_variables, ["j", "k"]);
    assert!(s[1].context.in_loop);
    assert!(s[1].context.loop_variables.is_empty());
}

/// An `#include` inside the parentheses continues the template with another file's text:
/// the template is partial, and known to be included.
#[test]
fn an_include_inside_the_asm_is_another_files_template() {
    let src = "__device__ void k(int& c) {\n  asm volatile(\n#include \"body.inc\"\n      : \"+r\"(c));\n}\n";
    let s = parse(src);
    assert_eq!(s.len(), 1);
    assert!(s[0].template.is_partial());
    assert!(s[0].template.is_included());
    assert_eq!(s[0].outputs.len(), 1);
}

/// Only the innermost loop's header counts: a poll inside `for (i ...)` loads while `i` stands
/// still.
#[test]
fn loop_variables_are_the_innermost_loops() {
    let src = r#"
__device__ unsigned wait_all(const unsigned* flags, int n) {
  unsigned v = 0;
  for (int i = 0; i < n; ++i) {
    do {
      asm("ld.u32 %0, [%1];" : "=r"(v) : "l"(flags + i));
    } while (v == 0);
    for (int k = 0; k < 2; ++k) asm("ld.u32 %0, [%1];" : "=r"(v) : "l"(flags + k));
  }
  return v;
}
"#;
    let s = parse(src);
    assert!(s[0].context.in_loop);
    assert!(s[0].context.loop_variables.is_empty());
    assert_eq!(s[1].context.loop_variables, ["k"]);
}
