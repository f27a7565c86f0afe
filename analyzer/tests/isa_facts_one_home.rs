//! Each ISA fact has one home, `analyzer/src/isa/`: this test reads the workspace's sources
//! and fails where one is written again elsewhere (a function of the same name, the special
//! register list, constraint letter widths, the state-space names of the address table).
//! Facts listed twice inside the ISA are caught by the uniqueness tests beside each table.

use ptxguard_analyzer::isa::SPECIAL_REGISTERS;
use std::path::{Path, PathBuf};

/// Functions that answer an ISA question; a second definition is a second copy of the answer.
const ISA_FUNCTIONS: &[&str] = &[
    "register_bits",
    "register_type",
    "constraint_fits",
    "special_register",
    "is_special_register",
    "allows_32bit_address",
];

/// The state-space names the address-width table uses (`StateSpace::key`).
const SPACE_KEYS: &[&str] = &[
    "generic",
    "global",
    "shared::cta",
    "shared::cluster",
    "const",
    "local",
    "param",
    "tmem",
];

/// The copies of ISA facts in one file's code (its `#[cfg(test)]` part left out: tests
/// name registers and spaces to check them).
fn copies_in(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for f in ISA_FUNCTIONS {
        // A free function (a method of another type, `fn special_register(&self)`, answers
        // another question).
        let defined = code.match_indices(&format!("fn {f}")).any(|(at, m)| {
            let rest = &code[at + m.len()..];
            (rest.starts_with('(') || rest.starts_with('<'))
                && !rest[1..].trim_start().starts_with("&self")
                && !rest[1..].trim_start().starts_with("self")
        });
        if defined {
            found.push(format!("defines `{f}`"));
        }
    }
    let quoted = |s: &str| code.contains(&format!("\"{s}\""));
    let registers: Vec<&str> = SPECIAL_REGISTERS
        .iter()
        .map(|r| r.name)
        .filter(|n| quoted(n))
        .collect();
    if registers.len() >= 3 {
        found.push(format!("lists special registers {registers:?}"));
    }
    let spaces: Vec<&str> = SPACE_KEYS.iter().copied().filter(|k| quoted(k)).collect();
    if spaces.len() >= 4 {
        found.push(format!("names state spaces {spaces:?}"));
    }
    let width_arms = code.lines().filter(|l| is_letter_width_arm(l)).count();
    if width_arms >= 2 {
        found.push(format!(
            "maps constraint letters to widths ({width_arms} arms)"
        ));
    }
    found
}

/// A match arm from constraint letters to their register width: `'l' | 'd' => Some(64),`.
fn is_letter_width_arm(line: &str) -> bool {
    let Some((pattern, value)) = line.split_once("=>") else {
        return false;
    };
    let width = |letter: char| match letter {
        'h' => "16",
        'r' | 'f' => "32",
        'l' | 'd' => "64",
        _ => "128",
    };
    let numbers: Vec<&str> = value
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .collect();
    ['h', 'r', 'l', 'f', 'd', 'q']
        .iter()
        .any(|&c| pattern.contains(&format!("'{c}'")) && numbers == [width(c)])
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn isa_facts_are_written_only_in_the_isa() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let isa = root.join("analyzer/src/isa");
    let mut files = Vec::new();
    for member in std::fs::read_dir(&root).unwrap().flatten() {
        rust_files(&member.path().join("src"), &mut files);
    }
    assert!(files.len() > 50, "found the workspace's sources");
    let mut problems = Vec::new();
    for path in files.iter().filter(|p| !p.starts_with(&isa)) {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for copy in copies_in(&text) {
            problems.push(format!("{}: {copy}", path.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "ISA facts written outside analyzer/src/isa (use the ISA's):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_copies_this_test_exists_for_are_caught() {
    // The constraint letter widths a rule once kept beside the ISA's.
    let widths = "pub fn register_bits(letter: char) -> Option<u16> {\n    match letter {\n        'h' => Some(16),\n        'r' | 'f' => Some(32),\n        'l' | 'd' => Some(64),\n        'q' => Some(128),\n        _ => None,\n    }\n}\n";
    let found = copies_in(widths);
    assert!(
        found.iter().any(|c| c.contains("register_bits")),
        "{found:?}"
    );
    assert!(found.iter().any(|c| c.contains("4 arms")), "{found:?}");
    // The parser's own list of special registers.
    let list =
        "pub const SPECIAL_REGISTERS: &[&str] = &[\"tid\", \"ntid\", \"laneid\", \"clock64\"];";
    assert_eq!(copies_in(list).len(), 1);
    // The address table's space names spelled out again.
    let keys = "match s { Generic => \"generic\", Global => \"global\", Shared => \"shared::cta\", Local => \"local\" }";
    assert_eq!(copies_in(keys).len(), 1);
    // Tests may name them; one register or a message is not a copy.
    assert!(copies_in("#[cfg(test)]\nmod tests { \"tid\" \"ntid\" \"laneid\" }").is_empty());
    assert!(copies_in("fn special_register(&self) -> Option<&str> { None }").is_empty());
    assert!(
        copies_in("let r = special_register(\"%clock64\");\nformat!(\"`r` => {bits}\")").is_empty()
    );
}
