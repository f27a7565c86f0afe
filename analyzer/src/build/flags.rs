//! Compiler command lines: shell words, response files, and the flags that matter to ptxguard
//! (targets, macros, include paths). Every other flag is ignored.

use crate::isa::Target;
use std::path::{Path, PathBuf};

/// `-DNAME[=VALUE]` or `-UNAME`, in command-line order (the last one for a name wins).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MacroFlag {
    /// `-DNAME` defines `NAME` as `1`; `-DNAME=` as empty.
    Define(String, String),
    Undef(String),
}

/// What one compile command says about its translation unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileFlags {
    /// The compiler, launchers (`ccache`, `sccache`, `distcc`) skipped.
    pub compiler: String,
    /// The virtual architectures the unit is compiled for (`arch=` of `-gencode`, `-arch`,
    /// clang's `--cuda-gpu-arch`/`--offload-arch`): what decides which PTX is accepted.
    pub targets: Vec<Target>,
    pub macros: Vec<MacroFlag>,
    /// `-I`, `-isystem`, `-iquote` directories, absolute, in search order.
    pub include_dirs: Vec<PathBuf>,
    /// `-include` / `--pre-include` files, absolute.
    pub forced_includes: Vec<PathBuf>,
    /// Things worth one line to the user (`-arch=native` cannot be resolved statically, a
    /// response file that does not exist).
    pub notes: Vec<String>,
}

const LAUNCHERS: &[&str] = &["ccache", "sccache", "distcc", "icecc", "buildcache"];

/// Flags whose value is the next argument and means nothing to us.
const SKIP_VALUE: &[&str] = &[
    "-o",
    "-x",
    "-ccbin",
    "--compiler-bindir",
    "-Xcompiler",
    "--compiler-options",
    "-Xptxas",
    "--ptxas-options",
    "-Xlinker",
    "--linker-options",
    "-Xnvlink",
    "-Xarchive",
    "-Xfatbin",
    "-Xclang",
    "-MF",
    "-MT",
    "-MQ",
    "-MJ",
    "--output-file",
    "-target",
    "-L",
    "-l",
];

/// At most this many response files are read for one command (they may name each other).
const MAX_RESPONSE_FILES: usize = 64;

/// Splits a shell command line into words as `sh` does for plain commands: blanks separate,
/// `'...'` is literal, `"..."` keeps blanks and honours `\"`, `\\`, `\$`, `` \` ``, and a
/// backslash outside quotes escapes the next character.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.peek() {
                            Some(&n @ ('"' | '\\' | '$' | '`')) => {
                                word.push(n);
                                chars.next();
                            }
                            Some('\n') => {
                                chars.next();
                            }
                            _ => word.push('\\'),
                        },
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') | None => {}
                    Some(n) => word.push(n),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Reads the flags of one command (its words, compiler first), `directory` being where it
/// runs: relative paths and response files are relative to it.
pub fn parse_command(args: &[String], directory: &Path) -> CompileFlags {
    let mut flags = CompileFlags::default();
    let mut start = 0;
    while let Some(first) = args.get(start) {
        let base = Path::new(first)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("");
        if LAUNCHERS.contains(&base) {
            start += 1;
        } else {
            break;
        }
    }
    flags.compiler = args.get(start).cloned().unwrap_or_default();
    // Words still to read, response files expanded in place (front of the queue).
    let mut queue: std::collections::VecDeque<String> =
        args.iter().skip(start + 1).cloned().collect();
    let mut responses = 0;
    // Each response file is read once per command: one that names itself (directly or
    // through others) would otherwise be read until the count runs out, all of it kept.
    let mut read: Vec<PathBuf> = Vec::new();
    let abs = |p: &str| -> PathBuf {
        let p = Path::new(p);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            directory.join(p)
        }
    };
    while let Some(word) = queue.pop_front() {
        // `@file`, `--options-file F`, `-optf F`.
        let response = if let Some(f) = word.strip_prefix('@') {
            Some(f.to_string())
        } else if word == "--options-file" || word == "-optf" {
            queue.pop_front()
        } else {
            word.strip_prefix("--options-file=")
                .or_else(|| word.strip_prefix("-optf="))
                .map(str::to_string)
        };
        if let Some(file) = response {
            responses += 1;
            if responses > MAX_RESPONSE_FILES {
                if responses == MAX_RESPONSE_FILES + 1 {
                    flags
                        .notes
                        .push("more than 64 response files: the rest are not read".into());
                }
                continue;
            }
            // nvcc's `--options-file` takes a comma-separated list.
            for f in file.split(',').filter(|f| !f.is_empty()) {
                let path = abs(f);
                let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                if read.contains(&key) {
                    flags.notes.push(format!(
                        "response file {} is named again (it includes itself, directly or not): read once",
                        path.display()
                    ));
                    continue;
                }
                read.push(key);
                match crate::source::read_input_to_string(
                    &path,
                    crate::source::MAX_RESPONSE_FILE_BYTES,
                ) {
                    Ok(text) => {
                        for w in shell_words(&text).into_iter().rev() {
                            queue.push_front(w);
                        }
                    }
                    Err(e) => flags
                        .notes
                        .push(format!("cannot read response file {}: {e}", path.display())),
                }
            }
            continue;
        }
        if SKIP_VALUE.contains(&word.as_str()) {
            queue.pop_front();
            continue;
        }
        // A flag with its value glued (`-DX`), after `=` (`--define-macro=X`), or next.
        let mut value_of = |names: &[&str], glued: bool| -> Option<String> {
            for name in names {
                if word == *name {
                    return Some(queue.pop_front().unwrap_or_default());
                }
                if let Some(rest) = word.strip_prefix(name) {
                    if let Some(v) = rest.strip_prefix('=') {
                        if name.starts_with("--") || !glued {
                            return Some(v.to_string());
                        }
                    }
                    if glued && !name.starts_with("--") {
                        return Some(rest.to_string());
                    }
                }
            }
            None
        };
        if let Some(v) = value_of(&["--define-macro", "-D"], true) {
            let (name, value) = match v.split_once('=') {
                Some((n, v)) => (n.to_string(), v.to_string()),
                None => (v, "1".to_string()),
            };
            if !name.is_empty() {
                flags.macros.push(MacroFlag::Define(name, value));
            }
        } else if let Some(v) = value_of(&["--undefine-macro", "-U"], true) {
            if !v.is_empty() {
                flags.macros.push(MacroFlag::Undef(v));
            }
        } else if let Some(v) = value_of(&["--include-path", "-isystem", "-iquote", "-I"], true) {
            if !v.is_empty() {
                flags.include_dirs.push(abs(&v));
            }
        } else if let Some(v) = value_of(&["--pre-include", "-include"], false) {
            flags.forced_includes.push(abs(&v));
        } else if let Some(v) = value_of(&["--generate-code", "-gencode"], false) {
            gencode(&v, &mut flags);
        } else if let Some(v) = value_of(&["--gpu-architecture", "-arch"], false) {
            for a in v.split(',') {
                arch(a, "-arch", &mut flags);
            }
        } else if let Some(v) = value_of(&["--cuda-gpu-arch", "--offload-arch"], false) {
            for a in v.split(',') {
                arch(a, "--offload-arch", &mut flags);
            }
        }
        // `-code=`/`--gpu-code=` name the machine code built from the `-arch` PTX: what
        // the PTX must pass is decided by `-arch`, so they add no target.
    }
    flags.targets.sort_by_key(|t| (t.sm, t.suffix));
    flags.targets.dedup();
    flags
}

/// `arch=compute_90a,code=[sm_90a,compute_90a]`: the `arch=` part.
fn gencode(value: &str, flags: &mut CompileFlags) {
    let mut depth = 0;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in value.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&value[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&value[start..]);
    for part in parts {
        if let Some(a) = part.trim().strip_prefix("arch=") {
            arch(a, "-gencode", flags);
        }
    }
}

fn arch(value: &str, flag: &str, flags: &mut CompileFlags) {
    let value = value.trim().trim_matches('"');
    match value {
        "" => {}
        "native" | "all" | "all-major" => flags.notes.push(format!(
            "`{flag}={value}` depends on the machine or toolkit that builds: its targets are not known here"
        )),
        _ => match Target::parse(value).filter(|_| {
            value.starts_with("sm_") || value.starts_with("compute_")
        }) {
            Some(t) => flags.targets.push(t),
            None => flags
                .notes
                .push(format!("`{flag}`: `{value}` is not a GPU target")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        shell_words(s)
    }

    fn names(f: &CompileFlags) -> Vec<String> {
        f.targets
            .iter()
            .map(super::super::toolkit::target_name)
            .collect()
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(
            words(
                r#"nvcc "--generate-code=arch=compute_80,code=[compute_80,sm_80]" -DX='a b' a\ b "q\"x""#
            ),
            [
                "nvcc",
                "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                "-DX=a b",
                "a b",
                "q\"x"
            ]
        );
        assert!(words("   ").is_empty());
        assert_eq!(words("a 'unterminated"), ["a", "unterminated"]);
    }

    #[test]
    fn nvcc_target_spellings() {
        let dir = Path::new("/b");
        let f = parse_command(
            &words("ccache nvcc -gencode arch=compute_90a,code=sm_90a -gencode=arch=compute_80,code=[sm_80,compute_80] --generate-code=arch=compute_70,code=[compute_70,sm_70] -c x.cu"),
            dir,
        );
        assert_eq!(f.compiler, "nvcc");
        assert_eq!(names(&f), ["sm_70", "sm_80", "sm_90a"]);
        assert_eq!(
            names(&parse_command(&words("nvcc -arch=sm_90a x.cu"), dir)),
            ["sm_90a"]
        );
        assert_eq!(
            names(&parse_command(&words("nvcc -arch sm_100f x.cu"), dir)),
            ["sm_100f"]
        );
        assert_eq!(
            names(&parse_command(
                &words("nvcc --gpu-architecture=compute_80 -code=sm_86 x.cu"),
                dir
            )),
            ["sm_80"]
        );
        assert_eq!(
            names(&parse_command(
                &words("sccache clang++ --cuda-gpu-arch=sm_90a --offload-arch=sm_80 x.cu"),
                dir
            )),
            ["sm_80", "sm_90a"]
        );
        let native = parse_command(&words("nvcc -arch=native x.cu"), dir);
        assert!(native.targets.is_empty());
        assert!(
            native.notes[0].contains("-arch=native"),
            "{:?}",
            native.notes
        );
        let bad = parse_command(&words("nvcc -arch=banana x.cu"), dir);
        assert!(bad.targets.is_empty() && bad.notes[0].contains("banana"));
    }

    #[test]
    fn macros_and_includes() {
        let f = parse_command(
            &words("/usr/bin/nvcc -DA -DB=2 -D C=3 --define-macro=E=4 -UA -U F -Iinc -I /abs -isystem sys --include-path=p -include pre.h -Xcompiler -DNOT -o out.o -Wall --weird-flag x.cu"),
            Path::new("/build"),
        );
        use MacroFlag::*;
        assert_eq!(
            f.macros,
            [
                Define("A".into(), "1".into()),
                Define("B".into(), "2".into()),
                Define("C".into(), "3".into()),
                Define("E".into(), "4".into()),
                Undef("A".into()),
                Undef("F".into()),
            ]
        );
        let dirs: Vec<&str> = f.include_dirs.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(dirs, ["/build/inc", "/abs", "/build/sys", "/build/p"]);
        assert_eq!(f.forced_includes, [PathBuf::from("/build/pre.h")]);
    }

    #[test]
    fn response_files_relative_to_directory() {
        let dir = std::env::temp_dir().join(format!("ptxguard-rsp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("inc.rsp"),
            "-I\"with space\" -DFROM_RSP=1 @nested.rsp",
        )
        .unwrap();
        std::fs::write(dir.join("nested.rsp"), "-arch=sm_90a @nested.rsp").unwrap();
        std::fs::write(dir.join("opts.txt"), "-gencode arch=compute_80,code=sm_80").unwrap();
        let f = parse_command(
            &words("nvcc --options-file opts.txt @missing.rsp @inc.rsp x.cu"),
            &dir,
        );
        assert_eq!(f.include_dirs, [dir.join("with space")]);
        assert_eq!(names(&f), ["sm_80", "sm_90a"]);
        assert!(f
            .macros
            .contains(&MacroFlag::Define("FROM_RSP".into(), "1".into())));
        // The file that names itself is read once (it was read 64 times, every copy kept);
        // the missing one is said.
        assert!(
            f.notes.iter().any(|n| n.contains("missing.rsp")),
            "{:?}",
            f.notes
        );
        assert!(
            f.notes
                .iter()
                .any(|n| n.contains("nested.rsp is named again")),
            "{:?}",
            f.notes
        );
        assert!(
            !f.notes.iter().any(|n| n.contains("64 response files")),
            "{:?}",
            f.notes
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
