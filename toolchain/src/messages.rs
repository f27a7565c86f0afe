//! The toolchain's messages (nvcc's front end, NVRTC, ptxas), read into one shape.

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
        } else if line.contains("Internal Compiler Error")
            || line.starts_with("nvcc error")
            || line.starts_with("nvcc fatal")
        {
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
    fn reads_nvcc_fatal_errors() {
        let m = parse_messages(
            "nvcc fatal   : Could not set up the environment for Microsoft Visual Studio\n",
        );
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].tool, Tool::Other);
        assert!(m[0].is_error());
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
}
