//! The machine-readable GPU header of a corpus case.
//!
//! Lines of their own, in `//` comments, anywhere in the file (by convention at the top, under
//! the plain-English `// gpu:` line that describes the experiment):
//!
//! ```text
//! // gpu-arch: sm_75                         targets to build for (default sm_90); the first is run
//! // gpu-launch: count<<<1, 128>>>(counter: u32[1] = 0)
//! // gpu-bad: counter[0] != 128              what the flawed case shows (all such lines must hold)
//! // gpu-good: counter[0] == 128             what the fixed case (or a good-* case) shows
//! // gpu-flags: -std=c++20                   extra compiler flags (nvcc and NVRTC)
//! ```
//!
//! Launch arguments are device buffers `name: TYPE[N] = INIT` (INIT a value, `{1, 2, 3}` or
//! `iota`), read back after the launch, or scalars passed by value `name: TYPE = VALUE`.
//! TYPE is one of `u8 u16 u32 u64 i8 i16 i32 i64 f32 f64`.
//!
//! An expectation (`gpu-bad` / `gpu-good`) is one of:
//! - `nvcc "TEXT"`: the C++ front end (nvcc or NVRTC) reports a message containing TEXT;
//! - `ptxas "TEXT"`: ptxas (nvcc's, NVRTC's, or the driver's JIT) reports TEXT;
//! - `compiles`: every toolchain builds it without an error;
//! - `fault`: the launch fails (illegal address, trap...); `hang`: it does not finish in time;
//! - `ptx has "TEXT"` / `ptx lacks "TEXT"`, `sass has "TEXT"` / `sass lacks "TEXT"`;
//! - after the launch, conditions on the buffers: `out[0] == 6`, `out[*] != 0` (every element),
//!   several joined with `&&`; operators `== != < <= > >=`.

use std::fmt;

/// Element type of a launch argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
}

impl Elem {
    pub fn parse(s: &str) -> Option<Elem> {
        Some(match s {
            "u8" => Elem::U8,
            "u16" => Elem::U16,
            "u32" => Elem::U32,
            "u64" => Elem::U64,
            "i8" => Elem::I8,
            "i16" => Elem::I16,
            "i32" => Elem::I32,
            "i64" => Elem::I64,
            "f32" => Elem::F32,
            "f64" => Elem::F64,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Elem::U8 => "u8",
            Elem::U16 => "u16",
            Elem::U32 => "u32",
            Elem::U64 => "u64",
            Elem::I8 => "i8",
            Elem::I16 => "i16",
            Elem::I32 => "i32",
            Elem::I64 => "i64",
            Elem::F32 => "f32",
            Elem::F64 => "f64",
        }
    }

    pub fn size(self) -> usize {
        match self {
            Elem::U8 | Elem::I8 => 1,
            Elem::U16 | Elem::I16 => 2,
            Elem::U32 | Elem::I32 | Elem::F32 => 4,
            Elem::U64 | Elem::I64 | Elem::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64)
    }

    /// Little-endian bytes of `v` as this type (integers wrap, floats round).
    pub fn encode(self, v: Value) -> Vec<u8> {
        let i = v.as_i128();
        let f = v.as_f64();
        match self {
            Elem::U8 | Elem::I8 => vec![i as u8],
            Elem::U16 | Elem::I16 => (i as u16).to_le_bytes().to_vec(),
            Elem::U32 | Elem::I32 => (i as u32).to_le_bytes().to_vec(),
            Elem::U64 | Elem::I64 => (i as u64).to_le_bytes().to_vec(),
            Elem::F32 => (f as f32).to_le_bytes().to_vec(),
            Elem::F64 => f.to_le_bytes().to_vec(),
        }
    }

    /// Reads one element from little-endian bytes (`bytes.len() == self.size()`).
    pub fn decode(self, b: &[u8]) -> Value {
        match self {
            Elem::U8 => Value::Int(b[0] as i128),
            Elem::I8 => Value::Int(b[0] as i8 as i128),
            Elem::U16 => Value::Int(u16::from_le_bytes([b[0], b[1]]) as i128),
            Elem::I16 => Value::Int(i16::from_le_bytes([b[0], b[1]]) as i128),
            Elem::U32 => Value::Int(u32::from_le_bytes(b[..4].try_into().unwrap()) as i128),
            Elem::I32 => Value::Int(i32::from_le_bytes(b[..4].try_into().unwrap()) as i128),
            Elem::U64 => Value::Int(u64::from_le_bytes(b[..8].try_into().unwrap()) as i128),
            Elem::I64 => Value::Int(i64::from_le_bytes(b[..8].try_into().unwrap()) as i128),
            Elem::F32 => Value::Float(f32::from_le_bytes(b[..4].try_into().unwrap()) as f64),
            Elem::F64 => Value::Float(f64::from_le_bytes(b[..8].try_into().unwrap())),
        }
    }
}

/// A number written in a header or read back from the GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i128),
    Float(f64),
}

impl Value {
    pub fn parse(s: &str) -> Option<Value> {
        let s = s.trim();
        let (neg, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let int = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            i128::from_str_radix(hex, 16).ok()
        } else {
            body.parse::<i128>().ok()
        };
        if let Some(i) = int {
            return Some(Value::Int(if neg { -i } else { i }));
        }
        let f: f64 = s.parse().ok()?;
        Some(Value::Float(f))
    }

    pub fn as_i128(self) -> i128 {
        match self {
            Value::Int(i) => i,
            Value::Float(f) => f as i128,
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Fill(Value),
    List(Vec<Value>),
    /// 0, 1, 2, ...
    Iota,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A device buffer of `len` elements, passed as a pointer and read back after the launch.
    Buffer {
        name: String,
        elem: Elem,
        len: usize,
        init: Init,
    },
    /// A value passed by value.
    Scalar {
        name: String,
        elem: Elem,
        value: Value,
    },
}

impl Arg {
    pub fn name(&self) -> &str {
        match self {
            Arg::Buffer { name, .. } | Arg::Scalar { name, .. } => name,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// The kernel's name as written in the source (`count`, `ns::k`), or a mangled name.
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub args: Vec<Arg>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }

    pub fn holds(self, a: Value, b: Value) -> bool {
        let ord = match (a, b) {
            (Value::Int(x), Value::Int(y)) => x.partial_cmp(&y),
            _ => a.as_f64().partial_cmp(&b.as_f64()),
        };
        let Some(ord) = ord else {
            // NaN: only != holds.
            return self == Op::Ne;
        };
        use std::cmp::Ordering::*;
        match self {
            Op::Eq => ord == Equal,
            Op::Ne => ord != Equal,
            Op::Lt => ord == Less,
            Op::Le => ord != Greater,
            Op::Gt => ord == Greater,
            Op::Ge => ord != Less,
        }
    }
}

/// An index into a buffer: one element, or every element (`*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Index {
    At(usize),
    All,
}

/// `buf[i] OP value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cond {
    pub buffer: String,
    pub index: Index,
    pub op: Op,
    pub value: Value,
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Index::At(i) => write!(f, "{}[{i}]", self.buffer)?,
            Index::All => write!(f, "{}[*]", self.buffer)?,
        }
        write!(f, " {} {}", self.op.as_str(), self.value)
    }
}

/// Which tool a message expectation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The C++ front end: nvcc (cudafe/cicc) or NVRTC.
    FrontEnd,
    /// PTX assembly: ptxas, NVRTC's ptxas, or the driver's JIT.
    Ptxas,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::FrontEnd => "nvcc",
            Stage::Ptxas => "ptxas",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Artifact {
    Ptx,
    Sass,
}

impl Artifact {
    pub fn as_str(self) -> &'static str {
        match self {
            Artifact::Ptx => "ptx",
            Artifact::Sass => "sass",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// A toolchain message containing the text.
    Message {
        stage: Stage,
        text: String,
    },
    /// Every toolchain builds it without an error.
    Compiles,
    Fault,
    Hang,
    /// The generated code contains (`present`) or lacks the text.
    Contains {
        artifact: Artifact,
        text: String,
        present: bool,
    },
    /// Conditions on the buffers after the launch, all of which must hold.
    Result(Vec<Cond>),
}

impl Expect {
    /// Needs the kernel to run.
    pub fn needs_launch(&self) -> bool {
        matches!(self, Expect::Fault | Expect::Hang | Expect::Result(_))
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expect::Message { stage, text } => write!(f, "{} {:?}", stage.as_str(), text),
            Expect::Compiles => f.write_str("compiles"),
            Expect::Fault => f.write_str("fault"),
            Expect::Hang => f.write_str("hang"),
            Expect::Contains {
                artifact,
                text,
                present,
            } => write!(
                f,
                "{} {} {:?}",
                artifact.as_str(),
                if *present { "has" } else { "lacks" },
                text
            ),
            Expect::Result(conds) => {
                let parts: Vec<String> = conds.iter().map(|c| c.to_string()).collect();
                f.write_str(&parts.join(" && "))
            }
        }
    }
}

/// Everything a case's header says.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Header {
    /// The plain-English `// gpu:` lines.
    pub english: Vec<String>,
    /// Targets (`sm_90`, `sm_90a`, `sm_75`); empty means `sm_90`.
    pub arch: Vec<String>,
    pub launch: Option<Launch>,
    /// The `// gpu-launch:` text as written (the child process parses it again).
    pub launch_text: Option<String>,
    pub bad: Vec<Expect>,
    pub good: Vec<Expect>,
    pub flags: Vec<String>,
}

impl Header {
    /// Whether the case asks the GPU harness for anything.
    pub fn is_runnable(&self) -> bool {
        !self.bad.is_empty() || !self.good.is_empty()
    }

    /// The targets, `sm_90` when none is named.
    pub fn targets(&self) -> Vec<String> {
        if self.arch.is_empty() {
            vec!["sm_90".to_string()]
        } else {
            self.arch.clone()
        }
    }

    /// [`Header::targets`], typed (each name was checked when the header was read).
    pub fn sm_targets(&self) -> Vec<ptxguard_analyzer::isa::Target> {
        self.targets()
            .iter()
            .filter_map(|t| ptxguard_analyzer::isa::Target::parse(t))
            .collect()
    }
}

/// A header line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for HeaderError {}

/// Reads the `// gpu...` lines of a case.
pub fn parse(text: &str) -> Result<Header, HeaderError> {
    let mut h = Header::default();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix("//") else {
            continue;
        };
        let rest = rest.trim_start();
        let err = |message: String| HeaderError {
            line: i + 1,
            message,
        };
        if let Some(english) = rest.strip_prefix("gpu:") {
            h.english.push(english.trim().to_string());
            continue;
        }
        let Some(rest) = rest.strip_prefix("gpu-") else {
            continue;
        };
        let Some((key, value)) = rest.split_once(':') else {
            return Err(err(format!("`// gpu-{rest}` has no `:`")));
        };
        let value = value.trim();
        match key.trim() {
            "arch" => {
                for a in value.split([',', ' ']).filter(|s| !s.is_empty()) {
                    let num = a
                        .strip_prefix("sm_")
                        .or_else(|| a.strip_prefix("compute_"))
                        .unwrap_or(a);
                    let digits = num.trim_end_matches(['a', 'f']);
                    if digits.is_empty()
                        || !digits.bytes().all(|b| b.is_ascii_digit())
                        || num.len() > digits.len() + 1
                    {
                        return Err(err(format!("unknown target `{a}`")));
                    }
                    h.arch.push(format!("sm_{num}"));
                }
            }
            "launch" => {
                if h.launch.is_some() {
                    return Err(err("a second `gpu-launch`".into()));
                }
                h.launch = Some(parse_launch(value).map_err(err)?);
                h.launch_text = Some(value.to_string());
            }
            "bad" => h.bad.push(parse_expect(value).map_err(err)?),
            "good" => h.good.push(parse_expect(value).map_err(err)?),
            "flags" => h.flags.extend(value.split_whitespace().map(str::to_string)),
            other => return Err(err(format!("unknown header `gpu-{other}`"))),
        }
    }
    let needs_launch = h.bad.iter().chain(&h.good).any(Expect::needs_launch);
    if needs_launch && h.launch.is_none() {
        return Err(HeaderError {
            line: 1,
            message: "an expectation needs a run but there is no `// gpu-launch:`".into(),
        });
    }
    if let Some(launch) = &h.launch {
        for e in h.bad.iter().chain(&h.good) {
            if let Expect::Result(conds) = e {
                for c in conds {
                    let buf = launch.args.iter().find(|a| a.name() == c.buffer);
                    match buf {
                        Some(Arg::Buffer { len, .. }) => {
                            if let Index::At(i) = c.index {
                                if i >= *len {
                                    return Err(HeaderError {
                                        line: 1,
                                        message: format!(
                                            "`{c}`: index past the {len} elements of `{}`",
                                            c.buffer
                                        ),
                                    });
                                }
                            }
                        }
                        _ => {
                            return Err(HeaderError {
                                line: 1,
                                message: format!("`{c}`: `{}` is not a buffer argument", c.buffer),
                            })
                        }
                    }
                }
            }
        }
    }
    Ok(h)
}

fn parse_dim(s: &str) -> Result<[u32; 3], String> {
    let s = s.trim();
    let inner = s
        .strip_prefix("dim3(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| s.strip_prefix('(').and_then(|r| r.strip_suffix(')')))
        .unwrap_or(s);
    let mut out = [1u32; 3];
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("bad dimension `{s}`"));
    }
    for (k, p) in parts.iter().enumerate() {
        out[k] = p
            .parse()
            .ok()
            .filter(|&n: &u32| n > 0)
            .ok_or_else(|| format!("bad dimension `{s}`"))?;
    }
    Ok(out)
}

/// Splits on commas that are not inside `()`, `{}` or `[]`.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// `kernel<<<grid, block>>>(arg, ...)`.
pub fn parse_launch(s: &str) -> Result<Launch, String> {
    let (kernel, rest) = s
        .split_once("<<<")
        .ok_or_else(|| format!("`{s}`: expected `KERNEL<<<GRID, BLOCK>>>(ARGS)`"))?;
    let kernel = kernel.trim();
    if kernel.is_empty()
        || !kernel
            .chars()
            .all(|c| c.is_alphanumeric() || "_:$".contains(c))
    {
        return Err(format!("bad kernel name `{kernel}`"));
    }
    let (config, rest) = rest
        .split_once(">>>")
        .ok_or_else(|| "missing `>>>`".to_string())?;
    let dims = split_top(config);
    if dims.len() != 2 {
        return Err(format!(
            "`<<<{config}>>>`: give the grid and block (shared memory is not supported)"
        ));
    }
    let grid = parse_dim(dims[0])?;
    let block = parse_dim(dims[1])?;
    let rest = rest.trim();
    let args_text = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(|| format!("`{rest}`: expected `(ARGS)`"))?;
    let mut args = Vec::new();
    if !args_text.trim().is_empty() {
        for a in split_top(args_text) {
            args.push(parse_arg(a.trim())?);
        }
    }
    let mut names: Vec<&str> = args.iter().map(Arg::name).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return Err("two arguments share a name".into());
    }
    Ok(Launch {
        kernel: kernel.to_string(),
        grid,
        block,
        args,
    })
}

fn parse_arg(s: &str) -> Result<Arg, String> {
    let (name, rest) = s
        .split_once(':')
        .ok_or_else(|| format!("`{s}`: expected `name: TYPE[N] = INIT` or `name: TYPE = VALUE`"))?;
    let name = name.trim().to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(format!("bad argument name `{name}`"));
    }
    let (ty, init) = match rest.split_once('=') {
        Some((t, i)) => (t.trim(), Some(i.trim())),
        None => (rest.trim(), None),
    };
    if let Some((elem, len)) = ty.split_once('[') {
        let elem =
            Elem::parse(elem.trim()).ok_or_else(|| format!("unknown type `{}`", elem.trim()))?;
        let len: usize = len
            .trim()
            .strip_suffix(']')
            .and_then(|n| n.trim().parse().ok())
            .filter(|&n| n > 0 && n <= 1 << 24)
            .ok_or_else(|| format!("bad length in `{ty}`"))?;
        let init = match init {
            None => Init::Fill(Value::Int(0)),
            Some("iota") => Init::Iota,
            Some(list) if list.starts_with('{') => {
                let inner = list
                    .strip_prefix('{')
                    .and_then(|l| l.strip_suffix('}'))
                    .ok_or_else(|| format!("bad list `{list}`"))?;
                let values = inner
                    .split(',')
                    .map(|v| Value::parse(v).ok_or_else(|| format!("bad value `{}`", v.trim())))
                    .collect::<Result<Vec<_>, _>>()?;
                if values.len() > len {
                    return Err(format!("{} values for {len} elements", values.len()));
                }
                Init::List(values)
            }
            Some(v) => Init::Fill(Value::parse(v).ok_or_else(|| format!("bad value `{v}`"))?),
        };
        Ok(Arg::Buffer {
            name,
            elem,
            len,
            init,
        })
    } else {
        let elem = Elem::parse(ty).ok_or_else(|| format!("unknown type `{ty}`"))?;
        let v = init.ok_or_else(|| format!("scalar `{name}` needs `= VALUE`"))?;
        let value = Value::parse(v).ok_or_else(|| format!("bad value `{v}`"))?;
        Ok(Arg::Scalar { name, elem, value })
    }
}

fn quoted(s: &str) -> Result<String, String> {
    let s = s.trim();
    let inner = s
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("expected a quoted text, found `{s}`"))?;
    if inner.is_empty() {
        return Err("empty text".into());
    }
    Ok(inner.replace("\\\"", "\""))
}

/// One expectation (see the module documentation).
pub fn parse_expect(s: &str) -> Result<Expect, String> {
    let s = s.trim();
    let word_end = s.find(|c: char| c.is_whitespace()).unwrap_or(s.len());
    let (word, rest) = (&s[..word_end], s[word_end..].trim());
    match word {
        "nvcc" | "nvrtc" | "frontend" => Ok(Expect::Message {
            stage: Stage::FrontEnd,
            text: quoted(rest)?,
        }),
        "ptxas" => Ok(Expect::Message {
            stage: Stage::Ptxas,
            text: quoted(rest)?,
        }),
        "compiles" if rest.is_empty() => Ok(Expect::Compiles),
        "fault" if rest.is_empty() => Ok(Expect::Fault),
        "hang" if rest.is_empty() => Ok(Expect::Hang),
        "ptx" | "sass" => {
            let artifact = if word == "ptx" {
                Artifact::Ptx
            } else {
                Artifact::Sass
            };
            let (verb, text) = rest.split_once(char::is_whitespace).ok_or_else(|| {
                format!("expected `{word} has \"TEXT\"` or `{word} lacks \"TEXT\"`")
            })?;
            let present = match verb {
                "has" => true,
                "lacks" => false,
                _ => return Err(format!("expected `has` or `lacks`, found `{verb}`")),
            };
            Ok(Expect::Contains {
                artifact,
                text: quoted(text)?,
                present,
            })
        }
        _ => {
            let conds = s
                .split("&&")
                .map(|c| parse_cond(c.trim()))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Expect::Result(conds))
        }
    }
}

fn parse_cond(s: &str) -> Result<Cond, String> {
    const OPS: [(&str, Op); 6] = [
        ("==", Op::Eq),
        ("!=", Op::Ne),
        ("<=", Op::Le),
        (">=", Op::Ge),
        ("<", Op::Lt),
        (">", Op::Gt),
    ];
    let (at, op, len) = OPS
        .iter()
        .filter_map(|(t, op)| s.find(t).map(|at| (at, *op, t.len())))
        .min_by_key(|(at, _, len)| (*at, std::cmp::Reverse(*len)))
        .ok_or_else(|| {
            format!("`{s}`: not an expectation (nvcc/ptxas \"...\", compiles, fault, hang, ptx/sass has/lacks, or BUF[I] OP VALUE)")
        })?;
    let lhs = s[..at].trim();
    let rhs = s[at + len..].trim();
    let (buffer, index) = lhs
        .strip_suffix(']')
        .and_then(|l| l.split_once('['))
        .ok_or_else(|| format!("`{lhs}`: expected `BUF[INDEX]`"))?;
    let index = match index.trim() {
        "*" => Index::All,
        n => Index::At(n.parse().map_err(|_| format!("bad index `{n}`"))?),
    };
    let value = Value::parse(rhs).ok_or_else(|| format!("bad value `{rhs}`"))?;
    Ok(Cond {
        buffer: buffer.trim().to_string(),
        index,
        op,
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_result_case() {
        let text = "// missing-volatile: ...\n\
            // gpu: launch count<<<1,128>>>(counter) ...\n\
            // gpu-launch: count<<<1, 128>>>(counter: u32[1] = 0)\n\
            // gpu-bad: counter[0] != 128\n\
            // gpu-good: counter[0] == 128\n\
            __global__ void count(unsigned* c) {}\n";
        let h = parse(text).unwrap();
        assert_eq!(h.english.len(), 1);
        let l = h.launch.clone().unwrap();
        assert_eq!(l.kernel, "count");
        assert_eq!(l.grid, [1, 1, 1]);
        assert_eq!(l.block, [128, 1, 1]);
        assert_eq!(
            l.args,
            vec![Arg::Buffer {
                name: "counter".into(),
                elem: Elem::U32,
                len: 1,
                init: Init::Fill(Value::Int(0))
            }]
        );
        assert_eq!(
            h.bad,
            vec![Expect::Result(vec![Cond {
                buffer: "counter".into(),
                index: Index::At(0),
                op: Op::Ne,
                value: Value::Int(128)
            }])]
        );
        assert_eq!(h.good[0].to_string(), "counter[0] == 128");
        assert_eq!(h.targets(), vec!["sm_90"]);
    }

    #[test]
    fn reads_toolchain_cases() {
        let text = "// gpu-arch: sm_75\n\
            // gpu-bad: ptxas \"Feature 'redux' requires .target sm_80 or higher\"\n\
            // gpu-bad: nvcc \"asm operand type size(8)\"\n\
            // gpu-good: compiles\n\
            // gpu-bad: ptx lacks \"atom.add\"\n";
        let h = parse(text).unwrap();
        assert_eq!(h.arch, vec!["sm_75"]);
        assert_eq!(
            h.bad[0],
            Expect::Message {
                stage: Stage::Ptxas,
                text: "Feature 'redux' requires .target sm_80 or higher".into()
            }
        );
        assert_eq!(
            h.bad[1],
            Expect::Message {
                stage: Stage::FrontEnd,
                text: "asm operand type size(8)".into()
            }
        );
        assert_eq!(h.good, vec![Expect::Compiles]);
        assert_eq!(
            h.bad[2],
            Expect::Contains {
                artifact: Artifact::Ptx,
                text: "atom.add".into(),
                present: false
            }
        );
        assert!(h.launch.is_none());
    }

    #[test]
    fn launch_arguments() {
        let l = parse_launch(
            "ns::k<<<dim3(2, 2), 64>>>(p: f32[4] = {1.5, 2, -3}, n: i32 = -7, q: u64[8] = iota, r: u16[2] = 0xffff)",
        )
        .unwrap();
        assert_eq!(l.grid, [2, 2, 1]);
        assert_eq!(l.block, [64, 1, 1]);
        assert_eq!(l.args.len(), 4);
        assert_eq!(
            l.args[1],
            Arg::Scalar {
                name: "n".into(),
                elem: Elem::I32,
                value: Value::Int(-7)
            }
        );
        match &l.args[0] {
            Arg::Buffer {
                init: Init::List(v),
                ..
            } => {
                assert_eq!(v, &[Value::Float(1.5), Value::Int(2), Value::Int(-3)])
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            &l.args[2],
            Arg::Buffer {
                init: Init::Iota,
                len: 8,
                ..
            }
        ));
        assert!(matches!(
            &l.args[3],
            Arg::Buffer {
                init: Init::Fill(Value::Int(65535)),
                ..
            }
        ));
    }

    #[test]
    fn rejects_bad_headers() {
        for (text, needle) in [
            ("// gpu-bad: out[0] == 1\n", "no `// gpu-launch:`"),
            (
                "// gpu-launch: k<<<1,1>>>(out: u32[1])\n// gpu-bad: out[3] == 1\n",
                "index past",
            ),
            (
                "// gpu-launch: k<<<1,1>>>(out: u32[1])\n// gpu-bad: x[0] == 1\n",
                "not a buffer",
            ),
            ("// gpu-bad: ptxas Duplicate\n", "quoted"),
            ("// gpu-bogus: 1\n", "unknown header"),
            ("// gpu-arch: sm_x\n", "unknown target"),
            ("// gpu-launch: k<<<1>>>()\n", "grid and block"),
            ("// gpu-launch: k<<<1,1>>>(a: u33[1])\n", "unknown type"),
            (
                "// gpu-launch: k<<<1,1>>>(a: u32[1], a: u32[1])\n",
                "share a name",
            ),
            ("// gpu-bad: banana\n", "not an expectation"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.message.contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn ops_and_values() {
        assert!(Op::Ne.holds(Value::Int(0), Value::Int(128)));
        assert!(Op::Eq.holds(Value::Float(2.0), Value::Int(2)));
        assert!(Op::Ge.holds(Value::Int(11), Value::Int(11)));
        assert!(!Op::Lt.holds(Value::Int(11), Value::Int(11)));
        assert!(Op::Ne.holds(Value::Float(f64::NAN), Value::Int(1)));
        assert!(!Op::Eq.holds(Value::Float(f64::NAN), Value::Float(f64::NAN)));
        assert_eq!(
            Elem::I32.decode(&Elem::I32.encode(Value::Int(-5))),
            Value::Int(-5)
        );
        assert_eq!(
            Elem::U32.decode(&Elem::U32.encode(Value::Int(-1))),
            Value::Int(u32::MAX as i128)
        );
        assert_eq!(
            Elem::F32.decode(&Elem::F32.encode(Value::Float(1.5))),
            Value::Float(1.5)
        );
        assert_eq!(Value::parse("-0x10"), Some(Value::Int(-16)));
        assert_eq!(parse_cond("y[0] >= 2").unwrap().op, Op::Ge);
        assert_eq!(parse_cond("y[*]!=-1").unwrap().index, Index::All);
    }

    #[test]
    fn ignores_ordinary_comments() {
        let h = parse("// a comment about gpu-bad: things\nint x; // gpu-ish\n").unwrap();
        assert!(!h.is_runnable());
        assert!(h.english.is_empty());
    }
}
