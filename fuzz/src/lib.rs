//! The fuzz targets and the structure-aware mutator, shared by the `fuzz` binary and the
//! regression test that replays `fuzz/regressions/`.
//!
//! No nightly toolchain is available here, so there is no `cargo fuzz`/libFuzzer coverage
//! guidance: inputs come from the corpus cases, mutated with CUDA/PTX-aware operations
//! (tokens from a dictionary, repeated ranges that build deep nesting, line splices, splices of
//! two seeds). Each target checks more than "no panic" where it can (spans inside the file,
//! fix edits inside the file, re-checking the fixed text).

use ptxguard::fix::{fix_file_from, FixMode};
use ptxguard_analyzer::context::HeaderCache;
use ptxguard_analyzer::ptx::model::PercentMode;
use ptxguard_analyzer::{Diagnostic, SourceFile};
use std::path::PathBuf;

pub mod generate;

/// Every target, by name.
pub const TARGETS: [&str; 9] = [
    "cpp",
    "template",
    "ptx",
    "suppress",
    "config",
    "pipeline",
    "python",
    "fix-cpp",
    "fix-python",
];

/// Runs `target` on `input`; `Err` describes a broken property (a panic is caught by the
/// caller).
pub fn run_target(target: &str, input: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(input).into_owned();
    match target {
        "cpp" => cpp(&text),
        "template" => cpp(&format!(
            "__global__ void k(int x) {{ asm volatile({text}); }}\n"
        )),
        "ptx" => {
            for mode in [PercentMode::WithOperands, PercentMode::Verbatim] {
                let _ = ptxguard_analyzer::ptx::parse(&text, mode);
            }
            Ok(())
        }
        "suppress" => suppress(&text),
        "config" => {
            let _ = ptxguard::config::parse_layer(&PathBuf::from("/fuzz/ptxguard.toml"), &text);
            Ok(())
        }
        "pipeline" => pipeline(&text, "fuzz.cu"),
        // The Python front end (tree-sitter, string decoding) and the rules behind it.
        "python" => pipeline(&text, "fuzz.py"),
        // Every fix keeps the file parseable and its statements in place.
        "fix-cpp" => fixes_keep_the_file(&text, "fuzz.cu").map(|_| ()),
        "fix-python" => fixes_keep_the_file(&text, "fuzz.py").map(|_| ()),
        other => Err(format!("unknown target `{other}`")),
    }
}

fn cpp(text: &str) -> Result<(), String> {
    let file = SourceFile::new("fuzz.cu", text.to_string());
    let statements = ptxguard_analyzer::statements::find_asm_statements(&file);
    for s in &statements {
        if s.span.end as usize > text.len() || s.span.start > s.span.end {
            return Err(format!("statement span {:?} outside the file", s.span));
        }
    }
    Ok(())
}

fn suppress(text: &str) -> Result<(), String> {
    let file = SourceFile::new("fuzz.cu", text.to_string());
    let scan = ptxguard::scan::scan(&file);
    for d in ptxguard::suppress::parse_directives(&file, &scan) {
        for span in std::iter::once(d.span).chain(d.names.iter().map(|n| n.1)) {
            if span.end as usize > text.len() || span.start > span.end {
                return Err(format!("directive span {span:?} outside the file"));
            }
        }
    }
    // The unused-suppression fixes are built here too.
    let (settings, headers) = (default_settings(), HeaderCache::default());
    let _ = analyzer("fuzz.cu", &settings, &headers)(&file);
    Ok(())
}

/// Spans and fix edits inside the file, then the fixes applied and the fixed text checked
/// again.
fn pipeline(text: &str, name: &str) -> Result<(), String> {
    let file = SourceFile::new(name, text.to_string());
    let (settings, headers) = (default_settings(), HeaderCache::default());
    let analyze = analyzer(name, &settings, &headers);
    let diagnostics = analyze(&file);
    check_spans(text, &diagnostics)?;
    let outcome = fix_file_from(&file, diagnostics, FixMode::SafeAndUnsafe, &analyze);
    if outcome.changed(text) {
        check_spans(&outcome.text, &outcome.diagnostics)?;
    }
    Ok(())
}

/// The fix properties, with every rule on and unsafe fixes too: after `--fix`, a file that
/// tree-sitter (C++ or Python) read without an error still reads without one, the front end
/// finds as many statements (and tree-sitter as many asm statements or calls), and fixing
/// again changes nothing. `Ok(true)` when the file had fixes and tree-sitter read it without
/// an error (the parse properties applied).
pub fn fixes_keep_the_file(text: &str, name: &str) -> Result<bool, String> {
    let file = SourceFile::new(name, text.to_string());
    let (settings, headers) = (all_rules_settings(), HeaderCache::default());
    let analyze = analyzer(name, &settings, &headers);
    let outcome = fix_file_from(&file, analyze(&file), FixMode::SafeAndUnsafe, &analyze);
    if !outcome.changed(text) {
        return Ok(false);
    }
    let applied: Vec<&str> = outcome.applied.iter().map(|a| a.rule).collect();
    let python = name.ends_with(".py");
    // The parse properties apply when tree-sitter reads both files, and the input cleanly:
    // not a text too large, or one it reads otherwise than the compiler does, or one it gave
    // up on.
    let before = (text.len() <= PARSED_MAX && !referees_read_another_file(text, python))
        .then(|| syntax_summary(text, python))
        .flatten()
        .filter(|before| before.errors == 0);
    // The fixed file too must be one the referee reads as the compiler does (a fix that
    // removes the comment after a line splice leaves the splice last in the file).
    let refereed = before
        .filter(|_| !referees_read_another_file(&outcome.text, python))
        .and_then(|before| Some((before, syntax_summary(&outcome.text, python)?)));
    if let Some((before, after)) = &refereed {
        if after.errors > 0 {
            return Err(format!(
                "the fixes of {applied:?} made the file unparseable:\n{}",
                outcome.text
            ));
        }
        if before.statements != after.statements {
            return Err(format!(
                "the fixes of {applied:?} changed tree-sitter's statements from {} to {}",
                before.statements, after.statements
            ));
        }
    }
    let count = |f: &SourceFile| ptxguard_analyzer::statements::find_asm_statements(f).len();
    let fixed = SourceFile::new(name, outcome.text.clone());
    if count(&file) != count(&fixed) {
        return Err(format!(
            "the fixes of {applied:?} changed the statements found from {} to {}",
            count(&file),
            count(&fixed)
        ));
    }
    let again = fix_file_from(
        &fixed,
        outcome.diagnostics,
        FixMode::SafeAndUnsafe,
        &analyze,
    );
    if again.changed(&outcome.text) && again.failure.is_none() {
        return Err(format!(
            "fixing twice changed the file again ({:?})",
            again.applied.iter().map(|a| a.rule).collect::<Vec<_>>()
        ));
    }
    Ok(refereed.is_some())
}

/// Whether tree-sitter, the parse properties' referee, reads `text` otherwise than the
/// compiler or CPython does, so that those properties do not apply to it:
/// - C++: a lone CR ends a line for tree-sitter-cpp but not for the C++ lexer (what nvcc's host
///   compiler makes of it was not measured); a `/*` never closed (one opened inside a
///   `#define` line runs on through the file, as in C++) is an error for the compiler, while
///   tree-sitter-cpp ends it with the directive's line.
///   A line splice inside a token: [`splice_inside_a_token`].
/// - Python (read with CPython's line ends, a lone CR included): see
///   [`not_python_tree_sitter_takes`].
fn referees_read_another_file(text: &str, python: bool) -> bool {
    if python {
        return not_python_tree_sitter_takes(text);
    }
    let lone_cr = text
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\r' && w[1] != b'\n')
        || text.ends_with('\r');
    lone_cr
        || has_unterminated_block_comment(text)
        || splice_inside_a_token(text)
        || ends_with_a_splice(text)
        || has_invalid_raw_string_delimiter(text)
        || has_unterminated_cpp_string(text)
}

/// A `"..."` string (not raw) that a line end reaches without a splice: ill-formed C++ (an
/// unterminated string literal), which tree-sitter-cpp reads on into the next line (a
/// `fix-cpp` input of 2026-12-05). Comments, character literals and raw strings are skipped.
fn has_unterminated_cpp_string(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
                continue;
            }
            b'\'' => {
                i += 1;
                while i < b.len() && b[i] != b'\'' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'"' if i > 0 && b[i - 1] == b'R' => {
                // A raw string: to `)delimiter"`.
                let Some(open) = text[i + 1..].find('(') else {
                    return false;
                };
                let delimiter = &text[i + 1..i + 1 + open];
                let close = format!("){delimiter}\"");
                i = text[i + 1 + open..]
                    .find(&close)
                    .map_or(b.len(), |n| i + 1 + open + n + close.len());
                continue;
            }
            b'"' => {
                i += 1;
                loop {
                    match b.get(i) {
                        None => return true,
                        Some(b'"') => break,
                        Some(b'\\') if b.get(i + 1) == Some(&b'\n') => i += 2,
                        Some(b'\\')
                            if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') =>
                        {
                            i += 3
                        }
                        Some(b'\\') => i += 2,
                        Some(b'\n') => return true,
                        Some(_) => i += 1,
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// A line splice ending the file (`\` + newline last): C++ reads the file as if a newline
/// followed ([lex.phases]); tree-sitter-cpp reads an error.
fn ends_with_a_splice(text: &str) -> bool {
    let t = text.trim_end_matches([' ', '\t']);
    t.ends_with("\\\n") || t.ends_with("\\\r\n") || t.ends_with('\\')
}

/// A raw string whose delimiter the standard forbids (`R"\` + newline + `(`: a backslash,
/// a blank or a parenthesis, or over 16 characters): ill-formed C++, which the compiler
/// rejects and tree-sitter-cpp reads as a raw string anyway (a `fix-cpp` input of
/// 2026-12-05: the C++ lexer reads no raw string there, and a comment after it).
fn has_invalid_raw_string_delimiter(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(1)).any(|k| {
        if !(b[k] == b'R' && b[k + 1] == b'"') {
            return false;
        }
        // `R` alone or after an encoding prefix (`u8R`, `LR`), not the end of a name.
        let prefix_start = b[..k]
            .iter()
            .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .map_or(0, |p| p + 1);
        if !matches!(&b[prefix_start..k], b"" | b"u8" | b"u" | b"U" | b"L") {
            return false;
        }
        let delimiter = b[k + 2..].iter().take(17).position(|&c| c == b'(');
        match delimiter {
            None => true,
            Some(n) => b[k + 2..k + 2 + n]
                .iter()
                .any(|&c| matches!(c, b'\\' | b' ' | b')' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)),
        }
    })
}

/// The check's analysis of a file named `name` (under `/fuzz`), with these settings.
fn analyzer<'a>(
    name: &str,
    settings: &'a ptxguard::settings::Settings,
    headers: &'a HeaderCache,
) -> impl Fn(&SourceFile) -> Vec<Diagnostic> + 'a {
    let path = PathBuf::from("/fuzz").join(name);
    move |f: &SourceFile| {
        ptxguard::analysis::analyze(
            f,
            &path,
            settings,
            headers,
            ptxguard::analysis::engine_check,
        )
    }
}

/// Python that CPython rejects and tree-sitter-python reads without an error, so that the
/// parse properties would judge a fix by a file that was never Python (the 2026-12-02
/// campaign's 23 `fix-python` reports): a control character CPython refuses (a vertical tab:
/// "invalid non-printable character"), a call in an `import` statement
/// (`from m import llvm.inline_asm(...)`), and an `import` with no name after it.
fn not_python_tree_sitter_takes(text: &str) -> bool {
    let control = text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c'));
    // Line continuations joined first: `import\` + newline + ` m.f(...)` is one statement.
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let call_in_import = joined.lines().any(|line| {
        let line = line.trim_start_matches(['\u{feff}', ' ', '\t']);
        let names = if let Some(rest) = line.strip_prefix("import ") {
            rest
        } else if let Some(at) = line.strip_prefix("from ").and_then(|r| r.find(" import ")) {
            line["from ".len() + at + " import ".len()..].trim_start()
        } else {
            return false;
        };
        // `from m import (a, b)` is Python; a `(` after a name is not, nor is nothing
        // (tree-sitter-python reads the next line's name as the import's).
        (!names.starts_with('(') && names.contains('('))
            || names.trim_end().is_empty()
            || names.starts_with('#')
    });
    control || call_in_import || has_unterminated_one_line_string(text)
}

/// A `'...'` or `"..."` string (not triple-quoted, not an f-string, whose nested quotes this
/// does not follow) that a line end reaches without a `\` before it: CPython's
/// "unterminated string literal", which tree-sitter-python reads without an error.
fn has_unterminated_one_line_string(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                let prefix_start = b[..i]
                    .iter()
                    .rposition(|c| !c.is_ascii_alphabetic())
                    .map_or(0, |p| p + 1);
                let fstring = b[prefix_start..i].iter().any(|c| matches!(c, b'f' | b'F'));
                if b[i..].starts_with(&[q, q, q]) {
                    // A triple-quoted string runs to its closing triple.
                    i += 3;
                    while i < b.len() && !b[i..].starts_with(&[q, q, q]) {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 3;
                    continue;
                }
                i += 1;
                while i < b.len() && b[i] != q {
                    match b[i] {
                        b'\\' => i += 1,
                        b'\n' if !fstring => return true,
                        b'\n' => break,
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether the C++ lexer (as the compiler reads comments) finds a `/*` with no `*/`.
/// A line splice inside a word or a two-character operator (`as\` + newline + `m`, `-\` +
/// newline + `>`): the compiler removes the splice first and reads one token; tree-sitter-cpp
/// reads two (`as m("...")`, a declaration, so a fix that adds a clobber section made an
/// ERROR of a statement the compiler reads as asm: a fix-cpp input of 2026-12-04).
fn splice_inside_a_token(text: &str) -> bool {
    const PAIRS: &[&[u8; 2]] = &[
        b"->", b"::", b"<<", b">>", b"&&", b"||", b"==", b"!=", b"<=", b">=", b"++", b"--", b"+=",
        b"-=", b"*=", b"/=", b"%=", b"&=", b"|=", b"^=", b"##", b"/*", b"*/", b"//",
    ];
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || !b.is_ascii();
    (0..bytes.len()).filter(|&k| bytes[k] == b'\\').any(|k| {
        let next = match (bytes.get(k + 1), bytes.get(k + 2)) {
            (Some(b'\n'), _) => k + 2,
            (Some(b'\r'), Some(b'\n')) => k + 3,
            _ => return false,
        };
        let (Some(&before), Some(&after)) = (k.checked_sub(1).map(|i| &bytes[i]), bytes.get(next))
        else {
            return false;
        };
        (word(before) && word(after)) || PAIRS.iter().any(|p| **p == [before, after])
    })
}

fn has_unterminated_block_comment(text: &str) -> bool {
    let comments = ptxguard_analyzer::cpp::outline::outline(text).comments;
    comments
        .last()
        .map(|c| &text[c.range()])
        .is_some_and(|c| c.starts_with("/*") && (c.len() < 4 || !c.ends_with("*/")))
}

struct SyntaxSummary {
    /// ERROR and MISSING nodes.
    errors: usize,
    /// asm statements (C++) or calls (Python).
    statements: usize,
}

/// Larger inputs (the mutator's repeated ranges) are not parsed: tree-sitter's error recovery
/// on them takes seconds, the fuzzer's limit for an input (the 2026-12-02 campaign: four
/// 6-8 KB C++ inputs took just over 2 s in tree-sitter-cpp, ptxguard 26-40 ms on each).
const PARSED_MAX: usize = 4 * 1024;

/// How long the referee may take on one text before it gives up. Some small inputs send
/// tree-sitter-cpp's ambiguity handling into a loop that neither ends nor stops growing (a
/// 954-byte fix-cpp input of 2026-12-04 ran for 31 minutes to 24 GB); ptxguard reads them in
/// milliseconds.
const REFEREE_LIMIT: std::time::Duration = std::time::Duration::from_millis(500);

/// What tree-sitter reads in `text`; `None` when it gave up ([`REFEREE_LIMIT`]).
fn syntax_summary(text: &str, python: bool) -> Option<SyntaxSummary> {
    let mut parser = tree_sitter::Parser::new();
    let language: tree_sitter::Language = if python {
        tree_sitter_python::LANGUAGE.into()
    } else {
        tree_sitter_cpp::LANGUAGE.into()
    };
    let statement_kind = if python { "call" } else { "gnu_asm_expression" };
    let mut summary = SyntaxSummary {
        errors: 0,
        statements: 0,
    };
    if parser.set_language(&language).is_err() {
        return Some(summary);
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let blanked;
    let text = if python {
        // tree-sitter-python lets a `#` comment run past a lone CR; CPython ends the line there
        // (measured with CPython 3.11), and the property is about what CPython accepts.
        blanked = text.replace("\r\n", "\n").replace('\r', "\n");
        &blanked
    } else {
        blanked = blank_cuda_qualifiers(text);
        &blanked
    };
    let started = std::time::Instant::now();
    let mut give_up = |_: &tree_sitter::ParseState| started.elapsed() > REFEREE_LIMIT;
    let bytes = text.as_bytes();
    let tree = parser.parse_with_options(
        &mut |offset, _| bytes.get(offset..).unwrap_or_default(),
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut give_up)),
    )?;
    // An explicit walk: the tree's depth follows the input.
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            summary.errors += 1;
        }
        if node.kind() == statement_kind {
            summary.statements += 1;
        }
        if cursor.goto_first_child() || cursor.goto_next_sibling() {
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                return Some(summary);
            }
            if cursor.goto_next_sibling() {
                break;
            }
        }
    }
}

/// The text with the CUDA qualifiers tree-sitter-cpp does not know blanked, byte for byte
/// (as `analyzer/tests/referee.rs` does for its comparison).
fn blank_cuda_qualifiers(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for word in [
        "__global__",
        "__device__",
        "__host__",
        "__forceinline__",
        "__noinline__",
    ] {
        for (start, _) in text.match_indices(word) {
            let end = start + word.len();
            let alone = (start == 0 || !is_word(bytes[start - 1]))
                && (end == bytes.len() || !is_word(bytes[end]));
            if alone {
                bytes[start..end].fill(b' ');
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
}

/// The settings with every rule selected.
fn all_rules_settings() -> std::sync::Arc<ptxguard::settings::Settings> {
    use ptxguard::settings::{ConfigSource, Resolver};
    let root = PathBuf::from("/fuzz");
    let layer = ptxguard::config::parse_layer(&root.join("ptxguard.toml"), "select = [\"all\"]\n")
        .expect("the configuration parses")
        .0;
    Resolver::new(ConfigSource::None, layer, &root)
        .settings_for(&root.join("fuzz.cu"), false)
        .expect("the settings resolve")
}

/// The settings without any configuration file: every default rule.
fn default_settings() -> std::sync::Arc<ptxguard::settings::Settings> {
    use ptxguard::settings::{ConfigSource, Resolver};
    let root = PathBuf::from("/fuzz");
    Resolver::new(
        ConfigSource::None,
        ptxguard::config::ConfigLayer::default(),
        &root,
    )
    .settings_for(&root.join("fuzz.cu"), false)
    .expect("the default settings resolve")
}

pub fn check_spans(text: &str, diagnostics: &[Diagnostic]) -> Result<(), String> {
    let inside = |s: ptxguard_analyzer::Span| {
        s.start <= s.end
            && (s.end as usize) <= text.len()
            && text.is_char_boundary(s.start as usize)
            && text.is_char_boundary(s.end as usize)
    };
    for d in diagnostics {
        if !inside(d.span) || d.labels.iter().any(|l| !inside(l.span)) {
            return Err(format!(
                "{}: a span outside the file or inside a character ({:?}, labels {:?}; {} bytes): {}",
                d.rule,
                d.span,
                d.labels.iter().map(|l| l.span).collect::<Vec<_>>(),
                text.len(),
                d.message
            ));
        }
        if let Some(fix) = &d.fix {
            if fix.edits.iter().any(|e| !inside(e.span)) {
                return Err(format!("{}: a fix edit outside the file", d.rule));
            }
        }
    }
    Ok(())
}

/// A small, fast, seedable generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Pieces of CUDA C++, PTX, suppression comments and configuration that random bytes never
/// reach.
const DICTIONARY: &[&str] = &[
    "asm",
    "asm volatile(",
    "__asm__ __volatile__(",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    "\"",
    "\\\"",
    "\\\n",
    "\\",
    "\n",
    ";",
    ":",
    "::",
    ",",
    "%0",
    "%1",
    "%%",
    "%=",
    "\"r\"(x)",
    "\"=r\"(y)",
    "\"l\"(p)",
    "\"memory\"",
    "#if A\n",
    "#else\n",
    "#endif\n",
    "#define M(x) ",
    "#if __CUDA_ARCH__ >= 800\n",
    "//",
    "/*",
    "*/",
    "R\"(",
    ")\"",
    "u8\"",
    "L\"",
    "\\x41",
    "\\101",
    "\\n\\t",
    "ld.global.u32 %0, [%1];",
    "st.shared.b32 [%0], %1;",
    ".reg .b32 r;",
    "{ .reg .pred p; setp.eq.u32 p, %0, 0; @p bra L; L: }",
    "mov.u32 %0, %%tid.x;",
    "// ptxguard: allow(",
    "/* ptxguard: allow-file(",
    "missing-volatile",
    "all",
    ")\n",
    "__global__ void k(",
    "__device__ ",
    "template <typename T> ",
    "auto v = ",
    "(uint32_t)",
    "reinterpret_cast<unsigned*>(",
    "static_cast<int>(",
    "[[",
    "select = [\"",
    "\"]\n",
    "target = \"sm_90a\"\n",
    "extend = \"",
    "[per-file-ignores]\n",
    "\"*.cu\" = [\"",
    "=",
    "\t",
    "\u{e9}",
    "\r\n",
    "\0",
];

/// One structure-aware mutation of `input`; `other` is another seed for splicing.
pub fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8], max_len: usize) {
    let len = input.len();
    match rng.below(9) {
        // Insert a dictionary piece.
        0..=2 => {
            let piece = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
            let at = rng.below(len + 1);
            input.splice(at..at, piece.iter().copied());
        }
        // Repeat a short range many times: deep nesting, long templates, many statements.
        3 => {
            if len > 0 {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(16)).min(len);
                let most = if rng.below(8) == 0 { 2000 } else { 8 };
                let times = 1 + rng.below(most);
                let piece = input[start..end].to_vec();
                for _ in 0..times {
                    input.splice(end..end, piece.iter().copied());
                    if input.len() > max_len {
                        break;
                    }
                }
            }
        }
        // Delete a range.
        4 => {
            if len > 0 {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(32)).min(len);
                input.drain(start..end);
            }
        }
        // Flip, set or insert a byte.
        5 => {
            if len > 0 {
                let at = rng.below(len);
                input[at] = match rng.below(3) {
                    0 => input[at] ^ (1 << rng.below(8)),
                    1 => {
                        let syntax = b"(){}[]<>\"'\\%;:,\n ";
                        syntax[rng.below(syntax.len())]
                    }
                    _ => rng.next_u64() as u8,
                };
            }
        }
        // Splice in a piece of another seed.
        6 => {
            if !other.is_empty() {
                let start = rng.below(other.len());
                let end = (start + 1 + rng.below(256)).min(other.len());
                let at = rng.below(len + 1);
                input.splice(at..at, other[start..end].iter().copied());
            }
        }
        // A line splice in the middle of something.
        7 => {
            let at = rng.below(len + 1);
            input.splice(at..at, b"\\\n".iter().copied());
        }
        // Truncate.
        _ => {
            input.truncate(rng.below(len + 1));
        }
    }
    input.truncate(max_len);
}
