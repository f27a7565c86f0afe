//! Machine code (`cuobjdump -sass` or `nvdisasm` text) read into functions and instructions,
//! and two builds of the same code compared by what a finding is about: the memory
//! instructions (which, how many, in which order, inside or outside loops) or the registers
//! the instructions share. Register numbers move between builds, so raw text is never
//! compared: registers are renamed in order of first use within each function.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One SASS instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// The address printed as `/*0040*/`.
    pub address: u64,
    /// `@P0`, `@!P1`, when guarded.
    pub guard: Option<String>,
    /// `ATOM.E.ADD.STRONG.GPU`.
    pub opcode: String,
    /// Operands as printed (`.reuse` removed), split at top-level commas.
    pub operands: Vec<String>,
    /// The address a branch or call goes to, when it names one.
    pub target: Option<u64>,
}

impl Instruction {
    /// The opcode without modifiers: `ATOM` for `ATOM.E.ADD.STRONG.GPU`.
    pub fn base(&self) -> &str {
        self.opcode.split('.').next().unwrap_or(&self.opcode)
    }

    /// Whether it reads or writes memory other than the constant banks (loads, stores,
    /// atomics, reductions, fences, asynchronous copies).
    pub fn is_memory(&self) -> bool {
        MEMORY_OPCODES.contains(&self.base())
    }

    fn is_branch(&self) -> bool {
        matches!(self.base(), "BRA" | "BRX" | "JMP" | "JMX")
    }
}

/// Opcodes that touch memory. `LDC`/`ULDC` read kernel parameters from a constant bank: they
/// come and go with register pressure, so they are not counted.
const MEMORY_OPCODES: &[&str] = &[
    "LD",
    "LDG",
    "LDS",
    "LDL",
    "LDSM",
    "LDGSTS",
    "LDGDEPBAR",
    "ST",
    "STG",
    "STS",
    "STL",
    "STSM",
    "ATOM",
    "ATOMG",
    "ATOMS",
    "RED",
    "REDG",
    "MEMBAR",
    "FENCE",
    "CCTL",
    "ERRBAR",
    "SYNCS",
    "UBLKCP",
    "UBLKRED",
    "UTMALDG",
    "UTMASTG",
    "UTMAREDG",
    "UTMAPF",
];

/// One function of one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// `sm_90`, from `code for sm_90` (empty when the text names none).
    pub target: String,
    /// The mangled name as printed.
    pub name: String,
    pub instructions: Vec<Instruction>,
}

impl Function {
    /// The name with the per-file hash of internal-linkage names removed
    /// (`_ZN45_INTERNAL_1a2b3c4d_7_k_cu_...`), so two builds of one file match up.
    pub fn key(&self) -> (String, String) {
        (self.target.clone(), stable_name(&self.name))
    }

    /// Address ranges `[start, end]` of loops: a branch back to an earlier address. The
    /// `BRA` to itself after the last `EXIT` is padding, not a loop.
    pub fn loops(&self) -> Vec<(u64, u64)> {
        self.instructions
            .iter()
            .filter(|i| i.is_branch())
            .filter_map(|i| i.target.filter(|&t| t < i.address).map(|t| (t, i.address)))
            .collect()
    }

    fn in_loop(&self, address: u64, loops: &[(u64, u64)]) -> bool {
        loops.iter().any(|&(s, e)| s <= address && address <= e)
    }

    /// Each instruction with its registers renamed in order of first use (`R7` -> `r0`),
    /// branch targets as instruction indices, and the encoding comments dropped.
    pub fn canonical(&self) -> Vec<String> {
        let mut names: BTreeMap<String, String> = BTreeMap::new();
        let index_of = |addr: u64| {
            self.instructions
                .iter()
                .position(|i| i.address == addr)
                .map_or_else(|| "?".to_string(), |n| format!("@{n}"))
        };
        self.instructions
            .iter()
            .map(|ins| {
                let mut s = String::new();
                if let Some(g) = &ins.guard {
                    s.push_str(&rename_registers(g, &mut names));
                    s.push(' ');
                }
                s.push_str(&ins.opcode);
                let ops: Vec<String> = if let Some(t) = ins.target {
                    ins.operands
                        .iter()
                        .map(|o| {
                            if parse_target(o) == Some(t) {
                                index_of(t)
                            } else {
                                rename_registers(o, &mut names)
                            }
                        })
                        .collect()
                } else {
                    ins.operands
                        .iter()
                        .map(|o| rename_registers(o, &mut names))
                        .collect()
                };
                if !ops.is_empty() {
                    let _ = write!(s, " {}", ops.join(", "));
                }
                s
            })
            .collect()
    }

    /// The memory instructions in order, each with whether it sits inside a loop.
    pub fn memory(&self) -> Vec<(String, bool)> {
        let loops = self.loops();
        self.instructions
            .iter()
            .filter(|i| i.is_memory())
            .map(|i| (i.opcode.clone(), self.in_loop(i.address, &loops)))
            .collect()
    }

    /// Instructions whose destination register is also one of their inputs.
    pub fn shared_registers(&self) -> usize {
        self.instructions
            .iter()
            .filter(|i| !i.is_memory() || i.base().starts_with("LD"))
            .filter(|i| {
                let regs: Vec<Vec<String>> = i.operands.iter().map(|o| registers(o)).collect();
                match regs.split_first() {
                    Some((dst, srcs)) if dst.len() == 1 => {
                        srcs.iter().flatten().any(|r| r == &dst[0])
                    }
                    _ => false,
                }
            })
            .count()
    }
}

fn stable_name(name: &str) -> String {
    // `_INTERNAL_` + 8 hex digits + `_`: the hash nvcc derives from the file.
    let Some(at) = name.find("_INTERNAL_") else {
        return name.to_string();
    };
    let rest = &name[at + "_INTERNAL_".len()..];
    let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
    if hex == 0 || !rest[hex..].starts_with('_') {
        return name.to_string();
    }
    format!("{}_INTERNAL_{}", &name[..at], &rest[hex..])
}

/// The general registers an operand names (`R2.64` is `R2`; `RZ` names none).
fn registers(operand: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = operand.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i] == b'R' && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        if starts {
            let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            let after = b.get(i + 1 + n);
            if n > 0 && !after.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                out.push(operand[i..i + 1 + n].to_string());
                i += 1 + n;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Renames `R7`, `UR4`, `P0`, `UP1`, `B0` in order of first use; `RZ`, `PT`, `URZ`, `UPT` stay.
fn rename_registers(text: &str, names: &mut BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let word_start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if word_start {
            let prefix = ["UR", "UP", "R", "P", "B"]
                .into_iter()
                .find(|p| text[i..].starts_with(p));
            if let Some(p) = prefix {
                let digits = b[i + p.len()..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                let end = i + p.len() + digits;
                let boundary = !b
                    .get(end)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
                if digits > 0 && boundary {
                    let reg = &text[i..end];
                    let n = names.len();
                    let name = names
                        .entry(reg.to_string())
                        .or_insert_with(|| format!("{}{n}", p.to_ascii_lowercase()));
                    out.push_str(name);
                    i = end;
                    continue;
                }
            }
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// `0x60`, or a label reference `` `(.L_x_0) `` resolved by the caller.
fn parse_target(operand: &str) -> Option<u64> {
    let o = operand.trim();
    let hex = o.strip_prefix("0x")?;
    u64::from_str_radix(hex, 16).ok()
}

/// Splits operands at commas outside brackets.
fn split_operands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out.into_iter().map(|o| o.replace(".reuse", "")).collect()
}

/// Reads `cuobjdump -sass` (of a cubin or of an object holding several) or `nvdisasm`
/// output. Lines it does not know are skipped; it never fails.
pub fn parse(text: &str) -> Vec<Function> {
    let mut functions: Vec<Function> = Vec::new();
    let mut target = String::new();
    // nvdisasm: label -> address of the next instruction; resolved at the end of a function.
    let mut labels: BTreeMap<String, u64> = BTreeMap::new();
    let mut pending_labels: Vec<String> = Vec::new();
    let mut label_refs: Vec<(usize, String)> = Vec::new();
    let finish = |f: Option<&mut Function>,
                  labels: &mut BTreeMap<String, u64>,
                  refs: &mut Vec<(usize, String)>| {
        if let Some(f) = f {
            for (i, l) in refs.drain(..) {
                if let (Some(ins), Some(&a)) = (f.instructions.get_mut(i), labels.get(&l)) {
                    ins.target = Some(a);
                }
            }
        }
        labels.clear();
        refs.clear();
    };
    for raw in text.lines() {
        let line = raw.trim();
        if let Some(t) = line.strip_prefix("code for ") {
            target = t.trim().to_string();
            continue;
        }
        if let Some(t) = line.strip_prefix(".target") {
            if target.is_empty() {
                target = t.trim().to_string();
            }
            continue;
        }
        let header = line
            .strip_prefix("Function :")
            .or_else(|| line.strip_prefix("Function:"))
            .map(str::trim)
            .or_else(|| {
                // nvdisasm: `//--------------------- .text._Z5countPj ---...`
                line.strip_prefix("//")
                    .map(|r| r.trim_matches(|c: char| c == '-' || c.is_whitespace()))
                    .and_then(|r| r.strip_prefix(".text."))
            });
        if let Some(name) = header {
            finish(functions.last_mut(), &mut labels, &mut label_refs);
            functions.push(Function {
                target: target.clone(),
                name: name.to_string(),
                instructions: Vec::new(),
            });
            continue;
        }
        if line.starts_with(".L") && line.ends_with(':') {
            pending_labels.push(line.trim_end_matches(':').to_string());
            continue;
        }
        let Some(rest) = line.strip_prefix("/*") else {
            continue;
        };
        let Some((addr, rest)) = rest.split_once("*/") else {
            continue;
        };
        let Ok(address) = u64::from_str_radix(addr.trim(), 16) else {
            continue;
        };
        let Some(f) = functions.last_mut() else {
            continue;
        };
        for l in pending_labels.drain(..) {
            labels.insert(l, address);
        }
        let body = rest.split(';').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let (guard, body) = match body.strip_prefix('@') {
            Some(r) => {
                let (g, b) = r.split_once(char::is_whitespace).unwrap_or((r, ""));
                (Some(format!("@{g}")), b.trim())
            }
            None => (None, body),
        };
        let (opcode, ops) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        let operands = split_operands(ops);
        let mut ins = Instruction {
            address,
            guard,
            opcode: opcode.to_string(),
            operands,
            target: None,
        };
        if matches!(
            ins.base(),
            "BRA" | "BRX" | "JMP" | "JMX" | "CALL" | "BSSY" | "SSY"
        ) {
            ins.target = ins.operands.iter().rev().find_map(|o| parse_target(o));
            if ins.target.is_none() {
                if let Some(label) = ins.operands.iter().rev().find_map(|o| {
                    o.strip_prefix("`(")
                        .and_then(|l| l.strip_suffix(')'))
                        .map(str::to_string)
                }) {
                    label_refs.push((f.instructions.len(), label));
                }
            }
        }
        if ins.opcode != "NOP" {
            f.instructions.push(ins);
        }
    }
    finish(functions.last_mut(), &mut labels, &mut label_refs);
    functions
}

/// What of the machine code a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    /// Which memory instructions, how many, in which order, inside or outside loops
    /// (`missing-volatile`, `missing-memory-clobber`).
    Memory,
    /// The whole instruction sequence with registers renamed: whether an output and an input
    /// share a register, whether the value an instruction reads is the one the C++ gave
    /// (`early-clobber`, `conditional-output`, `output-read-before-write`...).
    Registers,
}

/// What a fix changed in this build's machine code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The code differs in what the finding is about: one line saying what changed.
    Bites(String),
    /// It does not: why that is certain.
    NoEffect(String),
    /// The builds cannot say: why.
    NotDecidable(String),
}

impl Verdict {
    /// `bites`, `no-effect`, `not-decidable`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Bites(_) => "bites",
            Verdict::NoEffect(_) => "no-effect",
            Verdict::NotDecidable(_) => "not-decidable",
        }
    }

    pub fn detail(&self) -> &str {
        match self {
            Verdict::Bites(s) | Verdict::NoEffect(s) | Verdict::NotDecidable(s) => s,
        }
    }
}

/// `ATOM: 0 -> 1, LDG: 0 -> 2`: the memory instructions whose count changed.
fn count_changes(before: &[(String, bool)], after: &[(String, bool)], in_loop: bool) -> String {
    let count = |v: &[(String, bool)]| {
        let mut m: BTreeMap<String, usize> = BTreeMap::new();
        for (op, l) in v {
            if !in_loop || *l {
                let base = op.split('.').next().unwrap_or(op).to_string();
                *m.entry(base).or_default() += 1;
            }
        }
        m
    };
    let (b, a) = (count(before), count(after));
    let mut keys: Vec<&String> = b.keys().chain(a.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| b.get(*k) != a.get(*k))
        .map(|k| {
            format!(
                "{k}: {} -> {}",
                b.get(k).copied().unwrap_or(0),
                a.get(k).copied().unwrap_or(0)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What changed between two builds of one function, in the finding's aspect (`None`: nothing).
fn function_change(before: &Function, after: &Function, aspect: Aspect) -> Option<String> {
    let (mb, ma) = (before.memory(), after.memory());
    if mb != ma {
        let counts = count_changes(&mb, &ma, false);
        if !counts.is_empty() {
            return Some(format!(
                "memory instructions without the fix vs with it: {counts}"
            ));
        }
        let looped = count_changes(&mb, &ma, true);
        if !looped.is_empty() {
            return Some(format!(
                "memory instructions inside loops without the fix vs with it: {looped}"
            ));
        }
        let ops = |v: &[(String, bool)]| v.iter().map(|(o, _)| o.clone()).collect::<Vec<_>>();
        if ops(&mb) != ops(&ma) {
            return Some(format!(
                "memory instructions reordered or changed: {} without the fix, {} with it",
                ops(&mb).join(" "),
                ops(&ma).join(" ")
            ));
        }
        return Some("memory instructions moved into or out of loops".to_string());
    }
    if aspect == Aspect::Memory {
        return None;
    }
    let (cb, ca) = (before.canonical(), after.canonical());
    if cb == ca {
        return None;
    }
    let (sb, sa) = (before.shared_registers(), after.shared_registers());
    if sb != sa {
        return Some(format!(
            "instructions whose output register is also an input: {sb} without the fix, {sa} with it"
        ));
    }
    if cb.len() != ca.len() {
        return Some(format!(
            "{} instructions without the fix, {} with it",
            cb.len(),
            ca.len()
        ));
    }
    let differing = cb.iter().zip(&ca).filter(|(x, y)| x != y).count();
    Some(format!(
        "{differing} instructions read or write other registers or values (register numbers masked)"
    ))
}

/// Compares the machine code of a build without a fix (`before`) and with it (`after`).
pub fn compare(before: &[Function], after: &[Function], aspect: Aspect) -> Verdict {
    if before.is_empty() || after.is_empty() {
        return Verdict::NotDecidable("no device functions in the machine code".to_string());
    }
    let mut changes = Vec::new();
    let mut other_code_differs = false;
    for b in before {
        match after.iter().find(|a| a.key() == b.key()) {
            Some(a) => {
                if let Some(c) = function_change(b, a, aspect) {
                    changes.push(format!("{}: {c}", b.name));
                } else if b.canonical() != a.canonical() {
                    other_code_differs = true;
                }
            }
            None => changes.push(format!("{}: only without the fix", b.name)),
        }
    }
    for a in after {
        if !before.iter().any(|b| b.key() == a.key()) {
            changes.push(format!("{}: only with the fix", a.name));
        }
    }
    if let Some(first) = changes.first() {
        let more = match changes.len() {
            1 => String::new(),
            n => format!(" (and {} more functions)", n - 1),
        };
        return Verdict::Bites(format!("{first}{more}"));
    }
    Verdict::NoEffect(if other_code_differs {
        "the same memory instructions in the same order and loops (other instructions differ)"
            .to_string()
    } else {
        "the same machine code with and without the fix (register numbers masked)".to_string()
    })
}

#[cfg(test)]
mod tests;
