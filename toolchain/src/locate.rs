//! Tracing toolchain messages to the asm statements that caused them: the inline asm blocks of
//! the generated PTX (`// begin inline asm` ... `// end inline asm`, with the `.loc` line that
//! `-lineinfo` puts before each), source lines, macro uses.

use crate::build::Build;
use crate::messages::{Message, Tool};
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::SourceFile;
use std::path::Path;

/// One `// begin inline asm` ... `// end inline asm` block of generated PTX.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AsmBlock {
    /// 0-based, in PTX order.
    pub index: usize,
    /// 1-based PTX lines of the markers.
    pub begin: usize,
    pub end: usize,
    /// The source file and 1-based line of the last `.loc` before the block (`-lineinfo`).
    pub loc: Option<(String, usize)>,
    /// The block's text (without the markers).
    pub text: String,
}

/// Finds the inline asm blocks of a PTX file.
pub fn inline_asm_blocks(ptx: &str) -> Vec<AsmBlock> {
    let mut files: Vec<(u32, String)> = Vec::new();
    let mut loc: Option<(u32, usize)> = None;
    let mut open: Option<(usize, Option<(u32, usize)>)> = None;
    let mut text = String::new();
    let mut out = Vec::new();
    for (i, raw) in ptx.lines().enumerate() {
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix(".file") {
            let mut it = rest.trim().splitn(2, char::is_whitespace);
            if let (Some(n), Some(name)) = (it.next(), it.next()) {
                if let Ok(n) = n.parse() {
                    let name = name.trim();
                    let name = name.split('"').nth(1).unwrap_or(name).to_string();
                    files.push((n, name));
                }
            }
        } else if let Some(rest) = line.strip_prefix(".loc") {
            let mut it = rest.split(|c: char| c.is_whitespace() || c == ',');
            let nums: Vec<&str> = it.by_ref().filter(|s| !s.is_empty()).take(2).collect();
            if let [f, l] = nums[..] {
                if let (Ok(f), Ok(l)) = (f.parse(), l.parse()) {
                    loc = Some((f, l));
                }
            }
        } else if line == "// begin inline asm" {
            open = Some((i + 1, loc));
            text.clear();
        } else if line == "// end inline asm" {
            if let Some((begin, at)) = open.take() {
                let loc = at.and_then(|(f, l)| {
                    files
                        .iter()
                        .find(|(n, _)| *n == f)
                        .map(|(_, name)| (name.clone(), l))
                });
                out.push(AsmBlock {
                    index: out.len(),
                    begin,
                    end: i + 1,
                    loc,
                    text: std::mem::take(&mut text),
                });
            }
        } else if open.is_some() {
            text.push_str(raw);
            text.push('\n');
        }
    }
    out
}

/// The block holding a PTX line, if any.
pub fn block_at(blocks: &[AsmBlock], ptx_line: usize) -> Option<&AsmBlock> {
    blocks
        .iter()
        .find(|b| b.begin <= ptx_line && ptx_line <= b.end)
}

fn same_file(loc_file: &str, path: &Path) -> bool {
    let a = Path::new(loc_file);
    match (a.file_name(), path.file_name()) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// The opcodes (first word of each instruction) of a piece of PTX text.
fn opcodes(text: &str) -> Vec<String> {
    text.split([';', '\n', '{', '}'])
        .filter_map(|ins| {
            let ins = ins.trim();
            let ins = if ins.starts_with('@') {
                ins.split_once(char::is_whitespace)?.1.trim()
            } else {
                ins
            };
            let word = ins.split_whitespace().next()?;
            (word.starts_with(|c: char| c.is_ascii_alphabetic())).then(|| word.to_string())
        })
        .collect()
}

/// The asm statement a PTX block came from: by its `.loc` line where the block has one, else
/// by the instructions it holds (the statement whose decoded template has the same opcodes).
pub fn statement_of_block(
    file: &SourceFile,
    statements: &[AsmStatement],
    block: &AsmBlock,
) -> Option<usize> {
    if let Some((loc_file, line)) = &block.loc {
        if same_file(loc_file, &file.path) {
            if let Some(i) = statement_at_line(file, statements, *line) {
                return Some(i);
            }
        }
    }
    let ops = opcodes(&block.text);
    if ops.is_empty() {
        return None;
    }
    let mut best: Option<(usize, usize)> = None;
    let mut tie = false;
    for (i, s) in statements.iter().enumerate() {
        let theirs = opcodes(&s.template.text);
        if theirs == ops {
            match best {
                Some((_, score)) if score == usize::MAX => tie = true,
                _ => best = Some((i, usize::MAX)),
            }
        }
    }
    if tie {
        return None;
    }
    best.map(|(i, _)| i)
}

/// The statement whose text covers a 1-based source line (the innermost, the first one that
/// starts on it).
pub fn statement_at_line(
    file: &SourceFile,
    statements: &[AsmStatement],
    line: usize,
) -> Option<usize> {
    statements.iter().position(|s| {
        let (first, _) = file.line_col(s.span.start as usize);
        let (last, _) = file.line_col((s.span.end as usize).saturating_sub(1));
        first <= line && line <= last
    })
}

/// A toolchain message with the asm statement it was traced to.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Located {
    pub message: Message,
    /// Index into the file's asm statements.
    #[serde(skip)]
    pub statement: Option<usize>,
    /// 1-based source line of that statement.
    pub statement_line: Option<usize>,
    /// How it was traced: `source line`, `.loc`, `opcodes`, or why not.
    pub how: String,
}

/// Traces each error of a build to an asm statement of `file`.
pub fn locate(file: &SourceFile, statements: &[AsmStatement], build: &Build) -> Vec<Located> {
    let mut out = Vec::new();
    for (k, m) in build.messages.iter().enumerate() {
        if !m.is_error() || m.is_summary() {
            continue;
        }
        // `ptxas fatal : 32-Bit ABI ... is not supported` names no line; the warning before it
        // does (`Program uses 32-bit address on line '44'`).
        let mut m = m.clone();
        if m.tool == Tool::Ptxas && m.line.is_none() {
            if let Some(n) = build.messages[..k]
                .iter()
                .rev()
                .find_map(|p| quoted_line(&p.text))
            {
                m.line = Some(n);
                m.file = build.ptx.first().map(|(p, _)| p.display().to_string());
            }
        }
        let (statement, how) = match (m.tool, &m.file, m.line) {
            (Tool::FrontEnd | Tool::Nvrtc, Some(f), Some(line)) if same_file(f, &file.path) => {
                match statement_at_line(file, statements, line) {
                    Some(i) => (Some(i), "source line".to_string()),
                    None => match statement_of_macro_use(file, statements, line) {
                        Some(i) => (Some(i), "macro expansion".to_string()),
                        None => (None, format!("line {line} is not in an asm statement")),
                    },
                }
            }
            (Tool::FrontEnd | Tool::Nvrtc, Some(f), _) => (None, format!("in {f}")),
            (Tool::Ptxas, Some(f), Some(line)) => {
                let ptx = build
                    .ptx
                    .iter()
                    .find(|(p, _)| same_file(f, p))
                    .map(|(_, t)| t.as_str());
                match ptx {
                    None => (None, format!("{f} was not kept")),
                    Some(ptx) => {
                        let blocks = inline_asm_blocks(ptx);
                        // A syntax error (an unclosed brace) shows at the next token, after
                        // the block that caused it.
                        let syntax =
                            m.text.contains("Parsing error") || m.text.contains("syntax error");
                        let found = block_at(&blocks, line).or_else(|| {
                            syntax
                                .then(|| blocks.iter().rev().find(|b| b.end <= line))
                                .flatten()
                        });
                        match found {
                            None => (None, format!("PTX line {line} is not in inline asm")),
                            Some(b) => match statement_of_block(file, statements, b) {
                                Some(i) => (
                                    Some(i),
                                    if b.loc.is_some() { ".loc" } else { "opcodes" }.to_string(),
                                ),
                                None => {
                                    (None, format!("inline asm block {} not traced", b.index + 1))
                                }
                            },
                        }
                    }
                }
            }
            _ => (None, "no location".to_string()),
        };
        let statement_line = statement.map(|i| file.line_col(statements[i].span.start as usize).0);
        // Each target of a build repeats its messages: say each once.
        let repeated = out.iter().any(|l: &Located| {
            l.message.tool == m.tool
                && l.message.level == m.level
                && l.message.text == m.text
                && l.statement == statement
                && (statement.is_some() || (l.message.file == m.file && l.message.line == m.line))
        });
        if repeated {
            continue;
        }
        out.push(Located {
            message: m,
            statement,
            statement_line,
            how,
        });
    }
    out
}

/// `... on line '44' ...` -> 44.
fn quoted_line(text: &str) -> Option<usize> {
    let rest = &text[text.find("line '")? + "line '".len()..];
    rest[..rest.find('\'')?].parse().ok()
}

/// The statement written in a macro whose name is used on a 1-based source line (the front end
/// reports errors of a macro's asm at the line where the macro is used).
fn statement_of_macro_use(
    file: &SourceFile,
    statements: &[AsmStatement],
    line: usize,
) -> Option<usize> {
    let start = file.line_start(line.checked_sub(1)?);
    let end = file.line_start(line);
    let text = file.text.get(start..end)?;
    let hits: Vec<usize> = statements
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.macro_name.as_deref().is_some_and(|name| {
                text.match_indices(name).any(|(at, _)| {
                    let before = text[..at].chars().next_back();
                    let after = text[at + name.len()..].chars().next();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                        && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
        })
        .map(|(i, _)| i)
        .collect();
    match hits.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::parse_messages;
    use ptxguard_analyzer::statements::find_asm_statements;
    use std::path::PathBuf;

    const PTX: &str = "\
.version 9.0
.target sm_90
.address_size 64
\t.file\t1 \"/home/u/k.cu\"
.visible .entry _Z1kPj(
\t.param .u64 _Z1kPj_param_0
)
{
\t.loc\t1 12 3
\t// begin inline asm
\t{ .reg .u32 t1; add.u32 t1, %r1, 1; }
\t// end inline asm
\t.loc\t1 20 5, function_name $L__info_string0, inlined_at 1 30 2
\t// begin inline asm
\tmov.u32 %r2, 5;
\t// end inline asm
\tret;
}
";

    #[test]
    fn finds_inline_asm_blocks() {
        let b = inline_asm_blocks(PTX);
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].begin, b[0].end), (10, 12));
        assert_eq!(b[0].loc, Some(("/home/u/k.cu".to_string(), 12)));
        assert!(b[0].text.contains("add.u32"));
        assert_eq!(b[1].loc, Some(("/home/u/k.cu".to_string(), 20)));
        assert_eq!(block_at(&b, 11).map(|b| b.index), Some(0));
        assert_eq!(block_at(&b, 15).map(|b| b.index), Some(1));
        assert!(block_at(&b, 17).is_none());
    }

    #[test]
    fn opcodes_of_templates_and_blocks() {
        assert_eq!(
            opcodes("{ .reg .pred p; setp.eq.s32 p, %r1, 34; @p mov.s32 %r2, 1; }"),
            vec!["setp.eq.s32", "mov.s32"]
        );
    }

    fn source(text: &str) -> SourceFile {
        SourceFile::from_bytes(PathBuf::from("/src/k.cu"), text.as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn traces_errors_to_statements() {
        let text = "__device__ unsigned f(unsigned x) {\n\
                    \x20 unsigned r;\n\
                    \x20 asm(\"add.u32 %0, %1, 1;\" : \"=r\"(r) : \"r\"(x));\n\
                    \x20 asm volatile(\"mov.u32 %0, 5;\" : \"=r\"(r));\n\
                    \x20 return r;\n\
                    }\n";
        let file = source(text);
        let statements = find_asm_statements(&file);
        assert_eq!(statements.len(), 2);
        assert_eq!(statement_at_line(&file, &statements, 3), Some(0));
        assert_eq!(statement_at_line(&file, &statements, 4), Some(1));
        assert_eq!(statement_at_line(&file, &statements, 5), None);
        // By opcodes when there is no .loc.
        let block = AsmBlock {
            index: 0,
            begin: 1,
            end: 3,
            loc: None,
            text: "\tmov.u32 %r7, 5;\n".into(),
        };
        assert_eq!(statement_of_block(&file, &statements, &block), Some(1));
        // By .loc.
        let block = AsmBlock {
            loc: Some(("/elsewhere/k.cu".into(), 3)),
            ..block
        };
        assert_eq!(statement_of_block(&file, &statements, &block), Some(0));

        let ptx = "\t.file\t1 \"/src/k.cu\"\n\t.loc\t1 4 3\n\t// begin inline asm\n\tmov.u32 %r1, 5;\n\t// end inline asm\n";
        let build = Build {
            command: vec![],
            success: false,
            output: String::new(),
            messages: parse_messages(
                "k.cu(3): error: bad things\nptxas /tmp/d/k.ptx, line 4; error   : Arguments mismatch for instruction 'mov'\nptxas fatal   : Ptx assembly aborted due to errors\n",
            ),
            ptx: vec![(PathBuf::from("/tmp/d/k.ptx"), ptx.to_string())],
        };
        let located = locate(&file, &statements, &build);
        assert_eq!(located.len(), 2);
        assert_eq!(located[0].statement, Some(0));
        assert_eq!(located[0].how, "source line");
        assert_eq!(located[1].statement, Some(1));
        assert_eq!(located[1].how, ".loc");

        // A finding on statement 0 is confirmed; the error at statement 1 was not predicted.
        let finding = ptxguard_analyzer::Diagnostic::new(
            "operand-type-mismatch",
            ptxguard_analyzer::Severity::Error,
            statements[0].span,
            "x",
        );
        let report = crate::compare(&file, &statements, &[finding], &build);
        assert_eq!(report.findings[0].verdict, "confirmed");
        assert_eq!(report.findings[0].evidence, ["nvcc: bad things"]);
        assert_eq!(report.not_predicted.len(), 1);
        assert_eq!(report.not_predicted[0].statement_line, Some(4));
        assert!(report.elsewhere.is_empty());
    }

    #[test]
    fn a_message_repeated_by_each_target_is_said_once() {
        let file = source("__device__ void f(float *p) {\n  asm volatile(\"st.global.f32 [%0], 1.0;\" :: \"r\"(p));\n}\n");
        let statements = find_asm_statements(&file);
        let ptx = |n: usize| {
            (
                PathBuf::from(format!("/tmp/d/k.compute_{n}.ptx")),
                "\t.file\t1 \"/src/k.cu\"\n\t.loc\t1 2 3\n\t// begin inline asm\n\tst.global.f32 [%r1], 1.0;\n\t// end inline asm\n".to_string(),
            )
        };
        let build = Build {
            command: vec![],
            success: false,
            output: String::new(),
            messages: parse_messages(
                "k.cu(2): error: size mismatch\nk.cu(2): error: size mismatch\n\
                 ptxas /tmp/d/k.compute_80.ptx, line 4; error   : Arguments mismatch\n\
                 ptxas /tmp/d/k.compute_90.ptx, line 4; error   : Arguments mismatch\n\
                 k.cu(9): error: elsewhere\nk.cu(9): error: elsewhere\nk.cu(10): error: elsewhere\n",
            ),
            ptx: vec![ptx(80), ptx(90)],
        };
        let located = locate(&file, &statements, &build);
        let said: Vec<(Option<usize>, &str)> = located
            .iter()
            .map(|l| (l.message.line, l.message.text.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                (Some(2), "size mismatch"),
                (Some(4), "Arguments mismatch"),
                (Some(9), "elsewhere"),
                (Some(10), "elsewhere"),
            ]
        );
    }

    #[test]
    fn fatal_without_line_uses_the_warning_before_it() {
        let file = source("__device__ unsigned f(const unsigned* p) {\n  unsigned v;\n  asm volatile(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"r\"((unsigned)(size_t)p));\n  return v;\n}\n");
        let statements = find_asm_statements(&file);
        let ptx = "\t.file\t1 \"/src/k.cu\"\n\t.loc\t1 3 3\n\t// begin inline asm\n\tld.global.u32 %r1, [%r2];\n\t// end inline asm\n";
        let build = Build {
            command: vec![],
            success: false,
            output: String::new(),
            messages: parse_messages("ptxas warning : Program uses 32-bit address on line '4' which is conflicting with .address_size 64\nptxas fatal   :  32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90 or higher architectures.\n"),
            ptx: vec![(PathBuf::from("/tmp/d/k.ptx"), ptx.to_string())],
        };
        let located = locate(&file, &statements, &build);
        assert_eq!(located.len(), 1);
        assert_eq!(located[0].statement, Some(0), "{located:?}");
        assert_eq!(quoted_line("on line '44' which"), Some(44));
    }

    #[test]
    fn macro_use_and_syntax_errors_after_a_block() {
        let text = "#define ADD(r, a) asm(\"add.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(a))\n__device__ unsigned f(unsigned a) {\n  unsigned r;\n  ADD(r, a);\n  return r;\n}\n";
        let file = source(text);
        let statements = find_asm_statements(&file);
        assert_eq!(statements.len(), 1);
        if statements[0].macro_name.as_deref() == Some("ADD") {
            assert_eq!(statement_of_macro_use(&file, &statements, 4), Some(0));
        }
        let ptx = "\t// begin inline asm\n\t{ add.u32 %r1, %r2, 1;\n\t// end inline asm\n\t.file 2 \"x\"\n";
        let build = Build {
            command: vec![],
            success: false,
            output: String::new(),
            messages: parse_messages(
                "ptxas /tmp/d/k.ptx, line 4; fatal   : Parsing error near '.file': syntax error\n",
            ),
            ptx: vec![(PathBuf::from("/tmp/d/k.ptx"), ptx.to_string())],
        };
        let located = locate(&file, &statements, &build);
        assert_eq!(located[0].statement, Some(0), "{located:?}");
    }
}
