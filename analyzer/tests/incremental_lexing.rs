//! The editor path's incremental lexing gives exactly the tokens and comments of lexing the
//! edited text from scratch, over our corpus files and random edits of every kind that
//! changes how the rest of a file lexes (comments, strings, raw strings, splices, directives).

use ptxguard_analyzer::cpp::lexer::{token_text, Lexed};

/// A small deterministic generator: the same edits on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "x",
    "\n",
    " ",
    "/*",
    "*/",
    "//",
    "\"",
    "'",
    "R\"(",
    ")\"",
    "\\\n",
    "#define M 1\n",
    "#",
    "{",
    "}",
    "asm volatile(\"mov.u32 %0, 1;\" : \"=r\"(x));\n",
    "u8\"s\"",
    "1.5e3f",
    "\r\n",
    "é",
    "\\",
    "\\ ",
];

/// The nearest char boundary at or before `at`.
fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn corpus_texts() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cases");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "cu" || e == "cuh") {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn edits_relex_like_a_fresh_lex() {
    let texts = corpus_texts();
    assert!(texts.len() > 100, "corpus not found");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut edits = 0;
    for (name, original) in &texts {
        let mut text = original.clone();
        let mut lexed = Lexed::new(&text);
        // A run of edits on one buffer, as a user types: each builds on the last.
        for step in 0..12 {
            let start = boundary(&text, rng.below(text.len() + 1));
            let old_end = boundary(&text, start + rng.below(if step % 3 == 0 { 40 } else { 4 }));
            let old_end = old_end.max(start);
            let insert: String = (0..rng.below(3))
                .map(|_| PIECES[rng.below(PIECES.len())])
                .collect();
            let mut next = String::with_capacity(text.len() + insert.len());
            next.push_str(&text[..start]);
            next.push_str(&insert);
            next.push_str(&text[old_end..]);
            let incremental = lexed.edit(&next, start, old_end, start + insert.len());
            let fresh = Lexed::new(&next);
            // A token not marked `spliced` is its source slice exactly.
            for t in &fresh.tokens {
                assert_eq!(
                    t.text(&next),
                    token_text(&next, t.span),
                    "{name}, edit {step}"
                );
            }
            assert_eq!(
                incremental,
                fresh,
                "{name}, edit {step}: {:?} at {start}..{old_end} replaced by {insert:?}",
                &text[start..old_end]
            );
            text = next;
            lexed = incremental;
            edits += 1;
        }
    }
    assert!(edits > 1000);
}

#[test]
fn an_edit_inside_one_function_lexes_only_nearby_lines() {
    // Not a timing: the window is observable through the tokens it keeps. An unterminated
    // block comment swallows the rest of the file; closing it brings every token back.
    let text = "int a;\nint b;\n__device__ void f() {\n  int c;\n}\nint d;\n";
    let lexed = Lexed::new(text);
    let at = text.find("int c").unwrap();
    let opened = format!("{}/*{}", &text[..at], &text[at..]);
    let swallowed = lexed.edit(&opened, at, at, at + 2);
    assert_eq!(swallowed, Lexed::new(&opened));
    assert!(swallowed.tokens.len() < lexed.tokens.len());
    let closed = format!("{}/**/{}", &text[..at], &text[at..]);
    let back = swallowed.edit(&closed, at + 2, at + 2, at + 4);
    assert_eq!(back, Lexed::new(&closed));
    assert_eq!(back.tokens.len(), lexed.tokens.len());
}

#[test]
fn a_spliced_line_is_not_a_restart_point() {
    // `#` after a splice is not at the start of a line: it is punctuation, not a directive.
    let text = "int a = 1 \\\n# x\nint b;\n";
    let lexed = Lexed::new(text);
    let at = text.find("# x").unwrap() + 2;
    let edited = format!("{}y{}", &text[..at], &text[at..]);
    assert_eq!(lexed.edit(&edited, at, at, at + 1), Lexed::new(&edited));
    // Deleting the backslash makes it a directive.
    let at = text.find('\\').unwrap();
    let edited = format!("{}{}", &text[..at], &text[at + 1..]);
    assert_eq!(lexed.edit(&edited, at, at + 1, at), Lexed::new(&edited));
}
