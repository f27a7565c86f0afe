//! Plain declarations on tokens alone (`float acc[4];`, `__shared__ T* p;`), and the shape
//! of each name a file declares: what rules ask of a local or a member without typing it,
//! also of the headers a file includes (a member's type is often declared in one).

use super::lexer::{lex_range, Token, TokenKind};
use std::collections::HashMap;

/// Whether the name at `tokens[k]` is declared there (no `&`; with `*`, a pointer), allowing
/// `alignas(16)` / `__align__(16)` / `__attribute__((...))` among the specifiers
/// (`alignas(16) float acc[4][8]`): `Some(true)` when a storage class makes it more than
/// the thread's own (`static`, `extern`, `__shared__`, `__constant__`, `__device__`), and
/// whether it is declared a pointer.
pub fn plain_declaration(source: &str, tokens: &[Token], k: usize) -> Option<(bool, bool)> {
    let text = |t: &Token| source.get(t.span.range()).unwrap_or("");
    let (mut words, mut storage, mut pointer, mut i) = (0, false, false, k);
    // Whether the token before the name, attributes aside, ends a type (a name or `>`).
    let mut ends_type = None;
    while i > 0 {
        i -= 1;
        let s = text(&tokens[i]);
        match s {
            // A directive line ends what came before it (`#endif` above a declaration).
            _ if tokens[i].kind == TokenKind::Directive => break,
            ";" | "{" | "}" => break,
            ")" => {
                // An attribute's group: back to its `(`, which must follow the attribute word.
                let mut depth = 1;
                while depth > 0 {
                    i = i.checked_sub(1)?;
                    match text(&tokens[i]) {
                        ")" => depth += 1,
                        "(" => depth -= 1,
                        _ => {}
                    }
                }
                let word = text(tokens.get(i.checked_sub(1)?)?);
                if !matches!(
                    word,
                    "alignas" | "__align__" | "__attribute__" | "__attribute" | "__declspec"
                ) {
                    return None;
                }
                i -= 1;
            }
            "::" | "<" | ">" | "," => {
                ends_type.get_or_insert(s == ">");
            }
            "*" => {
                ends_type.get_or_insert(true);
                pointer = true;
            }
            _ if tokens[i].kind == TokenKind::Number => {
                ends_type.get_or_insert(false);
            }
            _ if tokens[i].kind == TokenKind::Ident && !is_statement_keyword(s) => {
                ends_type.get_or_insert(true);
                words += 1;
                storage |= matches!(
                    s,
                    "static" | "extern" | "__shared__" | "__constant__" | "__device__"
                );
                if matches!(s, "auto" | "decltype") {
                    return None;
                }
            }
            _ => return None,
        }
    }
    (words > 0 && ends_type == Some(true)).then_some((storage, pointer))
}

/// Words that start or continue a statement without declaring anything.
pub fn is_statement_keyword(word: &str) -> bool {
    matches!(
        word,
        "return"
            | "else"
            | "case"
            | "goto"
            | "throw"
            | "new"
            | "delete"
            | "sizeof"
            | "do"
            | "co_return"
            | "co_yield"
            | "typedef"
            | "using"
    )
}

/// The data members of each class, struct or union `text` defines, by the type's names (its tag
/// and a `typedef`'s aliases): for each member, how many dimensions it has as an array of
/// values (`half2 f16x2[4];`: 1, `uint32_t histogram[3][256];`: 2), 0 when it is not one (a
/// pointer, a scalar, a nested object).
pub type TypeMembers = HashMap<String, HashMap<String, u32>>;

/// The [`TypeMembers`] of a whole text (a header, or a file's own tokens).
pub fn type_members(text: &str, tokens: &[Token]) -> TypeMembers {
    let word = |i: usize| text.get(tokens[i].span.range()).unwrap_or("");
    let mut types: TypeMembers = HashMap::new();
    for k in 0..tokens.len() {
        if tokens[k].kind != TokenKind::Ident || !matches!(word(k), "struct" | "union" | "class") {
            continue;
        }
        // `struct NAME : Base<T> {`, `union {`: the head holds names, `::`, `<>`, `,`, `:`.
        let mut open = k + 1;
        while open < tokens.len()
            && (tokens[open].kind == TokenKind::Ident
                || matches!(word(open), "::" | "<" | ">" | "," | ":"))
        {
            open += 1;
        }
        if open >= tokens.len() || word(open) != "{" {
            continue;
        }
        let tag = (k + 1 < open && tokens[k + 1].kind == TokenKind::Ident)
            .then(|| word(k + 1))
            .filter(|w| !matches!(*w, "final" | "alignas" | "__align__"));
        let mut members: HashMap<String, u32> = HashMap::new();
        let mut depth = 0u32;
        let mut close = None;
        for i in open..tokens.len() {
            match word(i) {
                "{" => depth += 1,
                "}" => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ if depth == 1 && tokens[i].kind == TokenKind::Ident => {
                    if let Some((_, pointer)) = plain_declaration(text, tokens, i) {
                        let dimensions = if pointer {
                            0
                        } else {
                            dimensions_after(text, tokens, i)
                        };
                        // Declared twice with different shapes: not known as an array.
                        let shape = members.entry(word(i).to_string()).or_insert(dimensions);
                        if *shape != dimensions {
                            *shape = 0;
                        }
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            continue;
        };
        let mut names: Vec<&str> = tag.into_iter().collect();
        // `typedef union { ... } ditto4;`: the aliases after the body.
        if k > 0 && word(k - 1) == "typedef" {
            let mut i = close + 1;
            while i < tokens.len() && word(i) != ";" {
                if tokens[i].kind == TokenKind::Ident {
                    names.push(word(i));
                }
                i += 1;
            }
        }
        for name in names {
            types
                .entry(name.to_string())
                .or_insert_with(|| members.clone());
        }
    }
    types
}

/// How many `[...]` groups follow the declared name at `tokens[name]` (`a[3][256]`: 2).
fn dimensions_after(text: &str, tokens: &[Token], name: usize) -> u32 {
    let word = |i: usize| text.get(tokens[i].span.range()).unwrap_or("");
    let (mut dimensions, mut i) = (0, name + 1);
    while i < tokens.len() && word(i) == "[" {
        let mut depth = 0i32;
        let Some(close) = (i..tokens.len()).find(|&k| {
            match word(k) {
                "[" => depth += 1,
                "]" => depth -= 1,
                _ => {}
            }
            depth == 0
        }) else {
            break;
        };
        dimensions += 1;
        i = close + 1;
    }
    dimensions
}

/// [`type_members`] of a text lexed here.
pub fn type_members_of_text(text: &str) -> TypeMembers {
    type_members(text, &lex_range(text, 0, text.len(), false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_of_tagged_and_typedef_types() {
        let types = type_members_of_text(
            "typedef union ditto { uint32_t u32; half2 f16x2; } ditto;\n\
             typedef union { uint4 v; half2 f16x2[4]; float f32[4]; } ditto4;\n\
             struct S : Base<int> { half2 *ptr; alignas(16) float acc[2][2]; struct { int x[2]; } in; };\n\
             int x = f(y[3]);",
        );
        assert_eq!(types["ditto"]["f16x2"], 0);
        assert_eq!(types["ditto4"]["f16x2"], 1);
        assert_eq!(types["ditto4"]["f32"], 1);
        assert_eq!(types["ditto4"]["v"], 0);
        assert_eq!(types["S"]["ptr"], 0);
        assert_eq!(types["S"]["acc"], 2);
        // A nested type's members are not the outer type's.
        assert!(!types["S"].contains_key("x"));
        assert!(!types.contains_key("y"));
    }
}
