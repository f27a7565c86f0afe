//! A document's text after the changes the client sent, built on a worker when the document is
//! next checked: the message loop only stores each change (O(size of the change)), and a
//! burst of changes costs one copy of the text, not one per change.

use lsp_types::TextDocumentContentChangeEvent as Change;
use ptxguard_analyzer::cpp::lexer::Lexed;
use ptxguard_analyzer::SourceFile;
use std::borrow::Borrow;
use std::sync::Arc;

/// At most this many changes in a batch re-lex incrementally (each re-lexes a few lines, then
/// shifts the tokens after it); more re-lex the whole text once.
const INCREMENTAL_LEXING_MAX: usize = 16;

/// `base` with `changes` applied in order, carrying its tokens.
pub fn apply_changes<C: Borrow<Change>>(base: &SourceFile, changes: &[C]) -> SourceFile {
    // A change without a range replaces the whole text: what came before it does not matter.
    let whole = changes.iter().rposition(|c| c.borrow().range.is_none());
    let (mut text, rest, mut lexed) = match whole {
        Some(i) => (changes[i].borrow().text.clone(), &changes[i + 1..], None),
        None => (base.text.clone(), changes, base.lexed().cloned()),
    };
    if rest.len() > INCREMENTAL_LEXING_MAX {
        lexed = None;
    }
    let mut lines = LineStarts::new(&text);
    for change in rest {
        let change = change.borrow();
        let Some(range) = change.range else {
            continue;
        };
        let start = lines.offset_utf16(&text, range.start);
        let end = lines.offset_utf16(&text, range.end).max(start);
        text.replace_range(start..end, &change.text);
        lines.replace(&text, start, end, change.text.len());
        let new_end = start + change.text.len();
        lexed = lexed.map(|old| Arc::new(old.edit(&text, start, end, new_end)));
    }
    let lexed = lexed.unwrap_or_else(|| Arc::new(Lexed::new(&text)));
    SourceFile::new(base.path.clone(), text).with_lexed(lexed)
}

/// Line starts kept up to date across edits (a shift of the later lines, no rescan).
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(text: &str) -> LineStarts {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineStarts(starts)
    }

    /// The byte offset of a UTF-16 position, clamped as [`SourceFile::offset_of_utf16`] does.
    fn offset_utf16(&self, text: &str, position: lsp_types::Position) -> usize {
        let line = position.line as usize;
        let col = position.character as usize;
        let Some(&start) = self.0.get(line) else {
            return text.len();
        };
        let end = self.0.get(line + 1).copied().unwrap_or(text.len());
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= col || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    /// After `old_start..old_end` became `inserted` bytes of `text` (the new text).
    fn replace(&mut self, text: &str, start: usize, old_end: usize, inserted: usize) {
        // Lines starting inside the replaced bytes go; the inserted bytes' lines come in.
        let first = self.0.partition_point(|&s| s <= start);
        let last = self.0.partition_point(|&s| s <= old_end);
        let new_lines = memchr::memchr_iter(b'\n', &text.as_bytes()[start..start + inserted])
            .map(|i| start + i + 1);
        let delta = inserted as isize - (old_end - start) as isize;
        for s in &mut self.0[last..] {
            *s = (*s as isize + delta) as usize;
        }
        self.0.splice(first..last, new_lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    fn change(line: u32, col: u32, end_line: u32, end_col: u32, text: &str) -> Change {
        Change {
            range: Some(Range::new(
                Position::new(line, col),
                Position::new(end_line, end_col),
            )),
            range_length: None,
            text: text.into(),
        }
    }

    /// Every batch gives what applying each change to a fresh file gives, tokens included.
    #[test]
    fn a_batch_equals_the_changes_one_by_one() {
        let base = "asm(\"mov.u32 %0, 1;\" : \"=r\"(x));\n// é 😀\nint y;\n";
        let batches = [
            vec![change(0, 0, 0, 0, "x\ny\n")],
            vec![change(1, 3, 2, 1, ""), change(0, 2, 0, 2, "\n\n")],
            vec![change(1, 7, 1, 7, "ok"), change(9, 0, 9, 0, "end")],
            (0..40).map(|i| change(0, i % 5, 0, i % 5, "a\n")).collect(),
        ];
        for batch in batches {
            let mut expected = base.to_string();
            for c in &batch {
                let file = SourceFile::new("a.cu", expected.clone());
                let span = crate::lsp::convert::span(&file, c.range.unwrap());
                expected.replace_range(span.range(), &c.text);
            }
            let source = SourceFile::new("a.cu", base).with_lexed(Arc::new(Lexed::new(base)));
            let out = apply_changes(&source, &batch);
            assert_eq!(out.text, expected);
            assert_eq!(out.lexed().unwrap().tokens, Lexed::new(&expected).tokens);
        }
    }

    #[test]
    fn a_whole_text_change_resets_the_batch() {
        let source = SourceFile::new("a.cu", "old");
        let whole = Change {
            range: None,
            range_length: None,
            text: "new\n".into(),
        };
        let out = apply_changes(
            &source,
            &[change(0, 0, 0, 0, "x"), whole, change(1, 0, 1, 0, "y")],
        );
        assert_eq!(out.text, "new\ny");
    }
}
