//! `ptxguard confirm FILE... [-- COMPILER FLAGS]`: builds the files with the CUDA toolkit,
//! maps every front-end and ptxas message back to the asm statement that caused it, and says
//! which findings the toolchain confirmed, which toolchain errors ptxguard did not predict, and
//! which findings are silent miscompiles that only a run can show.
//!
//! The build is `nvcc FLAGS -lineinfo -c --keep --keep-dir TMP FILE`: nvcc runs its whole
//! pipeline with the user's flags (every `-gencode` target), keeps the generated `.ptx` files,
//! and ptxas names the `.ptx` file and line of each error. The generated PTX marks each inline
//! asm block with `// begin inline asm` / `// end inline asm`, and `-lineinfo` puts a `.loc`
//! directive (the source line of the asm statement) before it.
//!
//! Without nvcc, the files are built with NVRTC ([`nvrtc`]), which compiles device code only.
//!
//! The toolchain pieces (finding nvcc, NVRTC, reading their messages, locating inline asm
//! blocks) are public: the GPU harness (`gpu-tests`) uses them too.

pub mod nvrtc;

use ptxguard_analyzer::cpp::{find_asm_statements, AsmStatement};
use ptxguard_analyzer::{Diagnostic, Severity, SourceFile};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Exit codes.
pub const EXIT_OK: i32 = 0;
/// The build failed (the toolchain reported at least one error).
pub const EXIT_BUILD_FAILED: i32 = 1;
/// No toolkit, a file that cannot be read, or a usage error.
pub const EXIT_NO_TOOLKIT: i32 = 2;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfirmArgs {
    /// CUDA source files to build.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The nvcc to use. Default: `nvcc` on PATH, then `$CUDA_HOME/bin`, `$CUDA_PATH/bin`,
    /// `/usr/local/cuda/bin`.
    #[arg(long, value_name = "PATH", conflicts_with = "nvrtc")]
    pub nvcc: Option<PathBuf>,
    /// Build with NVRTC (device code only) even when nvcc is installed.
    #[arg(long)]
    pub nvrtc: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Compiler flags, after `--`: `ptxguard confirm k.cu -- -arch=sm_90a -O3 -Iinclude`.
    #[arg(last = true, value_name = "COMPILER FLAGS")]
    pub flags: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// The toolkit
// ---------------------------------------------------------------------------------------------

/// A CUDA toolkit found on this machine.
#[derive(Clone, Debug)]
pub struct Toolkit {
    pub nvcc: PathBuf,
    /// `ptxas` beside nvcc, if there.
    pub ptxas: Option<PathBuf>,
    /// `cuobjdump` beside nvcc, if there.
    pub cuobjdump: Option<PathBuf>,
    /// `13.0.88`, from `nvcc --version`.
    pub version: String,
}

fn is_file(p: &Path) -> bool {
    p.is_file()
}

/// The first `name` on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_file(p))
}

/// Finds nvcc: `explicit`, then PATH, `$CUDA_HOME`, `$CUDA_PATH`, `/usr/local/cuda`.
pub fn find_toolkit(explicit: Option<&Path>) -> Result<Toolkit, String> {
    let nvcc = match explicit {
        Some(p) => {
            if !is_file(p) {
                return Err(format!("{}: no such file", p.display()));
            }
            p.to_path_buf()
        }
        None => {
            let mut candidates: Vec<PathBuf> = which("nvcc").into_iter().collect();
            for var in ["CUDA_HOME", "CUDA_PATH"] {
                if let Some(home) = std::env::var_os(var) {
                    candidates.push(PathBuf::from(home).join("bin/nvcc"));
                }
            }
            candidates.push(PathBuf::from("/usr/local/cuda/bin/nvcc"));
            candidates.into_iter().find(|p| is_file(p)).ok_or_else(|| {
                "no CUDA toolkit found: nvcc is not on PATH, and not in $CUDA_HOME/bin, \
                 $CUDA_PATH/bin or /usr/local/cuda/bin"
                    .to_string()
            })?
        }
    };
    let dir = nvcc.parent().map(Path::to_path_buf).unwrap_or_default();
    let beside = |name: &str| {
        let p = dir.join(name);
        if is_file(&p) {
            Some(p)
        } else {
            which(name)
        }
    };
    let out = Command::new(&nvcc)
        .arg("--version")
        .output()
        .map_err(|e| format!("{}: cannot run: {e}", nvcc.display()))?;
    let version = parse_nvcc_version(&String::from_utf8_lossy(&out.stdout))
        .unwrap_or_else(|| "unknown".to_string());
    Ok(Toolkit {
        ptxas: beside("ptxas"),
        cuobjdump: beside("cuobjdump"),
        nvcc,
        version,
    })
}

/// `13.0.88` from nvcc's `Cuda compilation tools, release 13.0, V13.0.88`.
pub fn parse_nvcc_version(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.contains("release"))?;
    if let Some(v) = line
        .rsplit(", V")
        .next()
        .filter(|v| v.starts_with(char::is_numeric))
    {
        return Some(v.trim().to_string());
    }
    let rel = line.split("release ").nth(1)?;
    Some(rel.split(',').next()?.trim().to_string())
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/// Which part of the toolchain printed a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    /// nvcc's C++ front end (cudafe++/cicc): reports at a source line.
    FrontEnd,
    /// NVRTC's front end: the same messages, at a source line.
    Nvrtc,
    /// ptxas (or the driver's JIT, or NVRTC's ptxas): reports at a line of the PTX.
    Ptxas,
    /// nvcc itself or anything else.
    Other,
}

impl Tool {
    pub fn as_str(self) -> &'static str {
        match self {
            Tool::FrontEnd => "nvcc",
            Tool::Nvrtc => "nvrtc",
            Tool::Ptxas => "ptxas",
            Tool::Other => "toolchain",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Info,
    Warning,
    Error,
    Fatal,
}

/// One message of the toolchain.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Message {
    pub tool: Tool,
    pub level: Level,
    /// The file the message names (a source file for the front end, a `.ptx` for ptxas).
    pub file: Option<String>,
    /// 1-based line in `file`.
    pub line: Option<usize>,
    pub text: String,
}

impl Message {
    pub fn is_error(&self) -> bool {
        self.level >= Level::Error
    }

    /// `ptxas fatal : Ptx assembly aborted due to errors` and alike: only a summary.
    pub fn is_summary(&self) -> bool {
        let t = self.text.to_ascii_lowercase();
        t.contains("aborted due to errors")
            || t.contains("errors detected in the compilation")
            || t.contains("error detected in the compilation")
    }
}

fn level_of(word: &str) -> Option<Level> {
    let w = word.trim().to_ascii_lowercase();
    Some(match w.as_str() {
        "error" | "catastrophic error" | "internal error" => Level::Error,
        "fatal" | "fatal error" => Level::Fatal,
        "warning" => Level::Warning,
        "info" | "remark" | "note" => Level::Info,
        _ => return None,
    })
}

/// Reads the messages of nvcc, NVRTC, ptxas or the driver's JIT log, one per line that has
/// one; source echoes and caret lines are skipped.
pub fn parse_messages(text: &str) -> Vec<Message> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = raw.trim_end();
        if let Some(m) = parse_ptxas_line(line).or_else(|| parse_front_end_line(line)) {
            out.push(m);
        } else if line.contains("Internal Compiler Error") || line.starts_with("nvcc error") {
            out.push(Message {
                tool: Tool::Other,
                level: Level::Error,
                file: None,
                line: None,
                text: line.trim().to_string(),
            });
        }
    }
    out
}

/// `ptxas /tmp/x.ptx, line 57; error   : text`, `ptxas warning : text`,
/// `ptxas application ptx input, line 3; error : text` (JIT and NVRTC).
fn parse_ptxas_line(line: &str) -> Option<Message> {
    let rest = line.trim_start().strip_prefix("ptxas")?;
    let (head, text) = split_level(rest)?;
    let (level, head) = head;
    let (file, lineno) = match head.rsplit_once(", line ") {
        Some((file, n)) => {
            let n = n.trim().trim_end_matches(';').trim();
            (Some(file.trim().to_string()), n.parse().ok())
        }
        None => (None, None),
    };
    Some(Message {
        tool: Tool::Ptxas,
        level,
        file: file.filter(|f| !f.is_empty()),
        line: lineno,
        text,
    })
}

/// Finds `LEVEL : text` after a head; returns ((level, head), text).
fn split_level(s: &str) -> Option<((Level, &str), String)> {
    // The level is the last word before the first ` : ` or `: ` that follows one.
    let mut search = 0;
    while let Some(rel) = s[search..].find(':') {
        let colon = search + rel;
        let before = s[..colon].trim_end();
        let word_start = before.rfind([';', ',']).map(|i| i + 1).unwrap_or(0);
        let word = before[word_start..].trim();
        if let Some(level) = level_of(word) {
            let head = before[..word_start].trim().trim_end_matches(';');
            return Some(((level, head), s[colon + 1..].trim().to_string()));
        }
        search = colon + 1;
    }
    None
}

/// `file.cu(12): error: text`, `file.cu(12): warning #550-D: text`, `file.cu(3): catastrophic
/// error: text`.
fn parse_front_end_line(line: &str) -> Option<Message> {
    let open = line.find("(")?;
    let close = open + line[open..].find("): ")?;
    let n: usize = line[open + 1..close].parse().ok()?;
    let rest = &line[close + 3..];
    let (word, text) = rest.split_once(':')?;
    let word = word.split('#').next().unwrap_or("").trim();
    let level = level_of(word)?;
    let mut text = text.trim().to_string();
    // `warning #550-D: text`: the number sits between the word and the colon.
    if let Some(stripped) = text.strip_prefix("D:") {
        text = stripped.trim().to_string();
    }
    Some(Message {
        tool: Tool::FrontEnd,
        level,
        file: Some(line[..open].trim().to_string()),
        line: Some(n),
        text,
    })
}

// ---------------------------------------------------------------------------------------------
// Inline asm blocks in generated PTX
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Building a file
// ---------------------------------------------------------------------------------------------

/// Flags we remove from the user's because we set the output ourselves.
fn keep_flag(flags: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_next = false;
    for f in flags {
        if skip_next {
            skip_next = false;
            continue;
        }
        match f.as_str() {
            "-o" | "--output-file" | "--keep-dir" | "-odir" | "--output-directory" => {
                skip_next = true;
            }
            "-c"
            | "--compile"
            | "-ptx"
            | "--ptx"
            | "-cubin"
            | "--cubin"
            | "-fatbin"
            | "--fatbin"
            | "-E"
            | "--preprocess"
            | "-keep"
            | "--keep"
            | "-dc"
            | "-lineinfo"
            | "--generate-line-info" => {}
            s if s.starts_with("-o") && s.len() > 2 && !s.starts_with("-od") => {}
            s if s.starts_with("--output-file=") || s.starts_with("--keep-dir=") => {}
            _ => out.push(f.clone()),
        }
    }
    out
}

/// The SM targets the flags name (`-arch=sm_90a`, `-arch sm_80`, `-gencode arch=compute_90,
/// code=sm_90`, `--gpu-architecture=...`), as `sm_XX`.
pub fn targets_from_flags(flags: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut take_next = false;
    for f in flags {
        let value = if take_next {
            take_next = false;
            Some(f.as_str())
        } else if matches!(
            f.as_str(),
            "-arch"
                | "--gpu-architecture"
                | "-gencode"
                | "--generate-code"
                | "-code"
                | "--gpu-code"
        ) {
            take_next = true;
            None
        } else {
            f.split_once('=')
                .filter(|(k, _)| {
                    matches!(
                        *k,
                        "-arch"
                            | "--gpu-architecture"
                            | "-gencode"
                            | "--generate-code"
                            | "-code"
                            | "--gpu-code"
                    )
                })
                .map(|(_, v)| v)
        };
        let Some(v) = value else { continue };
        for part in v.split([',', '=', '[', ']', ' ']) {
            let num = part
                .strip_prefix("sm_")
                .or_else(|| part.strip_prefix("compute_"));
            if let Some(num) = num {
                let t = format!("sm_{num}");
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// A scratch directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> std::io::Result<TempDir> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "ptxguard-{tag}-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What one nvcc build said.
#[derive(Clone, Debug)]
pub struct Build {
    pub command: Vec<String>,
    pub success: bool,
    pub output: String,
    pub messages: Vec<Message>,
    /// The `.ptx` files nvcc kept, with their text.
    pub ptx: Vec<(PathBuf, String)>,
}

/// `nvcc FLAGS -lineinfo -c --keep --keep-dir DIR -o DIR/out.o FILE`.
pub fn build_with_nvcc(
    toolkit: &Toolkit,
    file: &Path,
    flags: &[String],
    dir: &Path,
) -> Result<Build, String> {
    let mut cmd = Command::new(&toolkit.nvcc);
    let flags = keep_flag(flags);
    cmd.args(&flags)
        .arg("-lineinfo")
        .arg("-c")
        .arg("--keep")
        .arg("--keep-dir")
        .arg(dir)
        .arg("-o")
        .arg(dir.join("out.o"))
        .arg(file);
    let command: Vec<String> = std::iter::once(toolkit.nvcc.display().to_string())
        .chain(cmd.get_args().map(|a| a.to_string_lossy().into_owned()))
        .collect();
    let out = cmd
        .output()
        .map_err(|e| format!("{}: cannot run: {e}", toolkit.nvcc.display()))?;
    let mut output = String::from_utf8_lossy(&out.stderr).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stdout));
    let messages = parse_messages(&output);
    let mut ptx = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
            .collect();
        paths.sort();
        for p in paths {
            if let Ok(text) = std::fs::read_to_string(&p) {
                ptx.push((p, text));
            }
        }
    }
    Ok(Build {
        command,
        success: out.status.success(),
        output,
        messages,
        ptx,
    })
}

// ---------------------------------------------------------------------------------------------
// Comparing the build with ptxguard's findings
// ---------------------------------------------------------------------------------------------

/// Rules whose findings are mistakes the toolchain rejects (when the build reaches them);
/// the others are silent: only running the code shows them. `address-register-width` is both:
/// ptxas rejects a 32-bit generic or global address of most instructions, but accepts it for
/// some (`cp.async`'s global source, `.const`, see `analyzer/data/address-width.tsv`), and then
/// only a run shows the truncated address.
pub const TOOLCHAIN_RULES: &[&str] = &[
    "arch-requirement",
    "operand-index",
    "operand-size-mismatch",
    "operand-type-mismatch",
    "percent-escape",
    "ptx-syntax",
    "unscoped-declaration",
    "unsupported-constraint",
    "unsupported-modifier",
];

/// Whether the toolchain can show a rule's findings (else only a run can).
pub fn toolchain_detects(rule: &str) -> bool {
    TOOLCHAIN_RULES.contains(&rule)
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

/// One finding and what the toolchain said about it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FindingResult {
    pub rule: &'static str,
    pub severity: Severity,
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// `confirmed`, `run-only`, or `not-reproduced`.
    pub verdict: &'static str,
    /// The toolchain messages at the same statement.
    pub evidence: Vec<String>,
}

/// The comparison for one file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FileReport {
    pub file: String,
    pub command: Vec<String>,
    pub build_succeeded: bool,
    pub findings: Vec<FindingResult>,
    /// Errors at asm statements ptxguard reported nothing on.
    pub not_predicted: Vec<Located>,
    /// Errors not traced to an asm statement (ordinary C++ errors, link errors...).
    pub elsewhere: Vec<Located>,
    /// Why the build could not reach the asm statements, when the toolchain's limits stopped it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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

fn within(d: &Diagnostic, s: &AsmStatement) -> bool {
    d.span.start >= s.span.start && d.span.start <= s.span.end
}

/// Compares a build with the findings.
pub fn compare(
    file: &SourceFile,
    statements: &[AsmStatement],
    findings: &[Diagnostic],
    build: &Build,
) -> FileReport {
    let located = locate(file, statements, build);
    let mut results = Vec::new();
    for d in findings {
        let stmt = statements.iter().position(|s| within(d, s));
        let evidence: Vec<String> = located
            .iter()
            .filter(|l| l.statement.is_some() && l.statement == stmt)
            .map(|l| format!("{}: {}", l.message.tool.as_str(), l.message.text))
            .collect();
        let verdict = if !evidence.is_empty() {
            "confirmed"
        } else if toolchain_detects(d.rule) {
            "not-reproduced"
        } else {
            "run-only"
        };
        let (line, column) = file.line_col(d.span.start as usize);
        results.push(FindingResult {
            rule: d.rule,
            severity: d.severity,
            line,
            column,
            message: d.message.clone(),
            verdict,
            evidence,
        });
    }
    let flagged: Vec<Option<usize>> = findings
        .iter()
        .map(|d| statements.iter().position(|s| within(d, s)))
        .collect();
    let (mut not_predicted, mut elsewhere) = (Vec::new(), Vec::new());
    for l in located {
        match l.statement {
            Some(i) if !flagged.contains(&Some(i)) => not_predicted.push(l),
            Some(_) => {}
            None => elsewhere.push(l),
        }
    }
    FileReport {
        file: file.path.display().to_string(),
        command: build.command.clone(),
        build_succeeded: build.success,
        findings: results,
        not_predicted,
        elsewhere,
        note: None,
    }
}

/// The findings `confirm` compares: default-enabled rules, warnings and errors.
pub fn findings_for(file: &SourceFile, targets: &[String]) -> Vec<Diagnostic> {
    let options = ptxguard_rules::Options {
        targets: targets.to_vec(),
        ..Default::default()
    };
    ptxguard_rules::check(file, &options)
        .into_iter()
        .filter(|d| d.severity >= Severity::Warning)
        .filter(|d| ptxguard_rules::rule(d.rule).is_some_and(|r| r.default_enabled))
        .collect()
}

/// Text output for one file.
pub fn render_text(r: &FileReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: the build {}",
        r.file,
        if r.build_succeeded {
            "succeeded"
        } else {
            "failed"
        }
    );
    if let Some(note) = &r.note {
        let _ = writeln!(s, "  note: {note}");
    }
    for f in &r.findings {
        let why = match f.verdict {
            "confirmed" => format!("confirmed by {}", f.evidence.join("; ")),
            "run-only" => {
                "a silent miscompile: no compiler reports it, only a run can show it".to_string()
            }
            _ => "not reproduced: this build did not fail on it".to_string(),
        };
        let _ = writeln!(
            s,
            "  {}:{}:{}: {} [{}] {}\n      {}",
            r.file,
            f.line,
            f.column,
            f.rule,
            f.severity.as_str(),
            f.message,
            why
        );
    }
    for l in &r.not_predicted {
        let _ = writeln!(
            s,
            "  {}:{}: not predicted by ptxguard: {} {}: {}",
            r.file,
            l.statement_line.unwrap_or(0),
            l.message.tool.as_str(),
            level_name(l.message.level),
            l.message.text
        );
    }
    for l in &r.elsewhere {
        let _ = writeln!(
            s,
            "  {}: {} {} not at an asm statement ({}): {}",
            r.file,
            l.message.tool.as_str(),
            level_name(l.message.level),
            l.how,
            l.message.text
        );
    }
    let count = |v: &str| r.findings.iter().filter(|f| f.verdict == v).count();
    let _ = writeln!(
        s,
        "  {} confirmed, {} silent (run-only), {} not reproduced, {} toolchain error(s) not predicted, {} elsewhere",
        count("confirmed"),
        count("run-only"),
        count("not-reproduced"),
        r.not_predicted.len(),
        r.elsewhere.len()
    );
    s
}

fn level_name(l: Level) -> &'static str {
    match l {
        Level::Info => "info",
        Level::Warning => "warning",
        Level::Error => "error",
        Level::Fatal => "fatal",
    }
}

/// The toolchain `confirm` builds with.
enum Builder {
    Nvcc(Toolkit),
    /// NVRTC and its version.
    Nvrtc(String),
}

impl Builder {
    fn describe(&self) -> String {
        match self {
            Builder::Nvcc(t) => format!("nvcc {} ({})", t.version, t.nvcc.display()),
            Builder::Nvrtc(v) => format!("NVRTC {v} (device code only)"),
        }
    }
}

/// nvcc unless `--nvrtc`; NVRTC when nvcc is not found (and not named with `--nvcc`).
fn choose_builder(args: &ConfirmArgs) -> Result<Builder, String> {
    let nvrtc = || nvrtc::nvrtc_version().map(Builder::Nvrtc);
    if args.nvrtc {
        return nvrtc().ok_or_else(|| "NVRTC (libnvrtc) not found".to_string());
    }
    match find_toolkit(args.nvcc.as_deref()) {
        Ok(t) => Ok(Builder::Nvcc(t)),
        Err(e) if args.nvcc.is_some() => Err(e),
        Err(e) => nvrtc().ok_or_else(|| format!("{e}; NVRTC (libnvrtc) not found either")),
    }
}

pub fn run(args: ConfirmArgs) -> i32 {
    let builder = match choose_builder(&args) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("ptxguard confirm: {e}");
            eprintln!(
                "ptxguard confirm needs the CUDA toolkit (nvcc and ptxas, or NVRTC) to build \
                 the files; install it or pass --nvcc PATH. Nothing was confirmed."
            );
            return EXIT_NO_TOOLKIT;
        }
    };
    if let Builder::Nvrtc(_) = builder {
        let ignored = nvrtc::nvrtc_flags(&args.flags).ignored;
        if !ignored.is_empty() && !args.json {
            eprintln!(
                "ptxguard confirm: NVRTC has no use for: {}",
                ignored.join(" ")
            );
        }
    }
    let targets = targets_from_flags(&args.flags);
    let mut reports = Vec::new();
    let mut code = EXIT_OK;
    // On a terminal only: stderr piped or redirected gets nothing more.
    let progress = crate::progress::Progress::stderr("confirm", args.files.len());
    for path in &args.files {
        let name = path.display().to_string();
        progress.start(&name);
        let file = match SourceFile::read(path) {
            Ok(f) => f,
            Err(e) => {
                progress.clear();
                eprintln!("ptxguard confirm: {e}");
                return EXIT_NO_TOOLKIT;
            }
        };
        let dir = match TempDir::new("confirm") {
            Ok(d) => d,
            Err(e) => {
                progress.clear();
                eprintln!("ptxguard confirm: cannot make a scratch directory: {e}");
                return EXIT_NO_TOOLKIT;
            }
        };
        let build = match &builder {
            Builder::Nvcc(toolkit) => build_with_nvcc(toolkit, path, &args.flags, &dir.0),
            Builder::Nvrtc(_) => nvrtc::build_with_nvrtc(path, &file.text, &args.flags, &dir.0),
        };
        let build = match build {
            Ok(b) => b,
            Err(e) => {
                progress.clear();
                eprintln!("ptxguard confirm: {e}");
                return EXIT_NO_TOOLKIT;
            }
        };
        progress.finish(&name);
        if !build.success {
            code = EXIT_BUILD_FAILED;
        }
        let statements = find_asm_statements(&file);
        let findings = findings_for(&file, &targets);
        let mut report = compare(&file, &statements, &findings, &build);
        if let Builder::Nvrtc(_) = builder {
            report.note = nvrtc::nvrtc_limit(&build);
        }
        if !args.json {
            progress.clear();
            print!("{}", render_text(&report));
        }
        reports.push(report);
    }
    drop(progress);
    if args.json {
        let toolkit = match &builder {
            Builder::Nvcc(t) => {
                serde_json::json!({ "nvcc": t.nvcc.display().to_string(), "version": t.version })
            }
            Builder::Nvrtc(v) => serde_json::json!({ "nvrtc": v }),
        };
        let doc = serde_json::json!({
            "toolkit": toolkit,
            "flags": args.flags,
            "files": reports,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        println!("toolkit: {}", builder.describe());
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_front_end_messages() {
        let text = "k.cu(5): error: asm operand type size(8) does not match type/size implied by constraint 'r'\n\
                    \x20     asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(x) : \"r\"(p));\n\
                    \x20     ^\n\n\
                    k.cu(9): warning #550-D: variable \"y\" was set but never used\n\
                    1 error detected in the compilation of \"k.cu\".\n";
        let m = parse_messages(text);
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(m[0].tool, Tool::FrontEnd);
        assert_eq!(m[0].level, Level::Error);
        assert_eq!(m[0].line, Some(5));
        assert_eq!(m[0].file.as_deref(), Some("k.cu"));
        assert!(m[0].text.starts_with("asm operand type size(8)"));
        assert_eq!(m[1].level, Level::Warning);
        assert_eq!(m[1].text, "variable \"y\" was set but never used");
    }

    #[test]
    fn reads_ptxas_messages() {
        let text = "ptxas /tmp/x/k.ptx, line 57; error   : Duplicate definition of label 'DONE'\n\
                    ptxas warning : Program uses 32-bit address on line 30 which is conflicting with .address_size 64\n\
                    ptxas application ptx input, line 12; error   : Arguments mismatch for instruction 'add'\n\
                    ptxas fatal   : Ptx assembly aborted due to errors\n";
        let m = parse_messages(text);
        assert_eq!(m.len(), 4, "{m:?}");
        assert_eq!(m[0].tool, Tool::Ptxas);
        assert_eq!(m[0].file.as_deref(), Some("/tmp/x/k.ptx"));
        assert_eq!(m[0].line, Some(57));
        assert_eq!(m[0].text, "Duplicate definition of label 'DONE'");
        assert_eq!(m[1].level, Level::Warning);
        assert_eq!(m[1].line, None);
        assert!(m[1]
            .text
            .starts_with("Program uses 32-bit address on line 30"));
        assert_eq!(m[2].file.as_deref(), Some("application ptx input"));
        assert_eq!(m[2].line, Some(12));
        assert_eq!(m[3].level, Level::Fatal);
        assert!(m[3].is_summary());
    }

    #[test]
    fn reads_internal_errors() {
        let m = parse_messages(
            "Internal Compiler Error (codegen): \"asm operand index requested is larger than the number of asm operands provided!\"\n",
        );
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].tool, Tool::Other);
        assert!(m[0].is_error());
    }

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
        let finding = Diagnostic::new(
            "operand-type-mismatch",
            Severity::Error,
            statements[0].span,
            "x",
        );
        let report = compare(&file, &statements, &[finding], &build);
        assert_eq!(report.findings[0].verdict, "confirmed");
        assert_eq!(report.not_predicted.len(), 1);
        assert_eq!(report.not_predicted[0].statement_line, Some(4));
        assert!(report.elsewhere.is_empty());
        let text = render_text(&report);
        assert!(text.contains("confirmed by nvcc: bad things"), "{text}");
        assert!(
            text.contains("not predicted by ptxguard: ptxas error"),
            "{text}"
        );
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

    #[test]
    fn verdicts_without_errors() {
        let file = source("__device__ void f(unsigned* p) { unsigned o; asm(\"atom.add.u32 %0, [%1], 1;\" : \"=r\"(o) : \"l\"(p)); }\n");
        let statements = find_asm_statements(&file);
        let build = Build {
            command: vec![],
            success: true,
            output: String::new(),
            messages: vec![],
            ptx: vec![],
        };
        let silent = Diagnostic::new("missing-volatile", Severity::Error, statements[0].span, "x");
        let loud = Diagnostic::new("arch-requirement", Severity::Error, statements[0].span, "y");
        let r = compare(&file, &statements, &[silent, loud], &build);
        assert_eq!(r.findings[0].verdict, "run-only");
        assert_eq!(r.findings[1].verdict, "not-reproduced");
    }

    #[test]
    fn flags() {
        let f = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            targets_from_flags(&f("-O3 -arch=sm_90a -gencode arch=compute_80,code=sm_80")),
            vec!["sm_90a", "sm_80"]
        );
        assert_eq!(targets_from_flags(&f("-arch sm_75")), vec!["sm_75"]);
        assert_eq!(
            targets_from_flags(&f(
                "--generate-code=arch=compute_90a,code=[sm_90a,compute_90a]"
            )),
            vec!["sm_90a"]
        );
        assert_eq!(
            keep_flag(&f("-c -o x.o -ox2.o -O3 -ptx -Iinc -odir d --keep")),
            f("-O3 -Iinc")
        );
        assert_eq!(
            parse_nvcc_version("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0\n"),
            Some("13.0.88".into())
        );
    }

    #[test]
    fn no_toolkit_is_exit_2() {
        let r = find_toolkit(Some(Path::new("/nonexistent/nvcc")));
        assert!(r.is_err());
        let code = run(ConfirmArgs {
            files: vec![PathBuf::from("x.cu")],
            nvcc: Some(PathBuf::from("/nonexistent/nvcc")),
            ..Default::default()
        });
        assert_eq!(code, EXIT_NO_TOOLKIT);
    }
}
