//! Best-effort C++ typing of asm operands. Unknown stays unknown: rules never fire on it.

use super::lexer::{openers_behind, Token, TokenKind, NO_OPENER};
use crate::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CppClass {
    Signed,
    Unsigned,
    Float,
    Bool,
    Pointer,
    /// A struct or vector type (`float4`, `uint2`).
    Aggregate,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CppType {
    /// The type as we name it (`uint32_t`, `float *`, `size_t`); shared, as declarations
    /// are looked up once and their types handed to every use.
    pub spelling: std::sync::Arc<str>,
    pub bits: u16,
    pub class: CppClass,
}

impl CppType {
    fn new(spelling: &str, bits: u16, class: CppClass) -> CppType {
        CppType {
            spelling: spelling.into(),
            bits,
            class,
        }
    }

    pub fn pointer(pointee: &str) -> CppType {
        CppType::new(&format!("{pointee} *"), 64, CppClass::Pointer)
    }

    /// Holds an address: a pointer, or a 64-bit integer made from one.
    pub fn is_pointer(&self) -> bool {
        self.class == CppClass::Pointer
    }
}

/// A cast written around the operand (`(uint32_t)x`, `static_cast<unsigned>(x)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cast {
    pub to: CppType,
    /// The type of what is being cast, when known.
    pub from: Option<CppType>,
    /// The expression inside the cast, without it.
    pub inner: Span,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeInfo {
    pub ty: Option<CppType>,
    /// The outermost cast, when the expression is one.
    pub cast: Option<Cast>,
    /// The value is an address: a pointer, `&x`, `__cvta_generic_to_*(p)`, or a cast of one.
    pub from_address: bool,
}

/// The scalar type behind a name (typedefs and CUDA types included).
pub fn named_type(words: &[&str]) -> Option<CppType> {
    use CppClass::*;
    let kept = |w: &&str| {
        !matches!(
            *w,
            "const"
                | "volatile"
                | "static"
                | "register"
                | "constexpr"
                | "__restrict__"
                | "struct"
                | "std"
                | "::"
                | "cuda"
                | "__shared__"
                | "extern"
                | "inline"
        )
    };
    // Most types are one word (`float`, `uint32_t`): no joining then.
    let mut kept_words = words.iter().filter(|w| kept(w));
    let joined: std::borrow::Cow<str> = match (kept_words.next(), kept_words.next()) {
        (None, _) => return None,
        (Some(one), None) => std::borrow::Cow::Borrowed(*one),
        _ => std::borrow::Cow::Owned(
            words
                .iter()
                .filter(|w| kept(w))
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
        ),
    };
    let t = |bits, class| Some(CppType::new(&joined, bits, class));
    match joined.as_ref() {
        "bool" => t(8, Bool),
        "char" | "signed char" | "int8_t" | "int8" => t(8, Signed),
        "unsigned char" | "uint8_t" | "uchar" | "uint8" => t(8, Unsigned),
        "short" | "short int" | "signed short" | "int16_t" | "int16" => t(16, Signed),
        "unsigned short" | "unsigned short int" | "uint16_t" | "ushort" | "uint16" => {
            t(16, Unsigned)
        }
        "__half" | "half" | "__nv_bfloat16" | "nv_bfloat16" | "__bfloat16" | "__half_raw"
        | "__nv_bfloat16_raw" => t(16, Float),
        "int" | "signed" | "signed int" | "int32_t" | "int32" => t(32, Signed),
        "unsigned" | "unsigned int" | "uint32_t" | "uint" | "uint32" | "u32" => t(32, Unsigned),
        "float" => t(32, Float),
        "__half2" | "half2" | "__nv_bfloat162" | "nv_bfloat162" => t(32, Aggregate),
        "long" | "long int" | "signed long" | "long long" | "long long int" | "int64_t"
        | "ptrdiff_t" | "intptr_t" | "ssize_t" | "int64" | "longlong" => t(64, Signed),
        "unsigned long"
        | "unsigned long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "uint64_t"
        | "size_t"
        | "uintptr_t"
        | "uint64"
        | "ulonglong"
        | "u64" => t(64, Unsigned),
        "double" => t(64, Float),
        "float2" | "int2" | "uint2" | "short4" | "ushort4" | "half4" => t(64, Aggregate),
        "float4" | "int4" | "uint4" | "double2" | "longlong2" | "ulonglong2" => t(128, Aggregate),
        _ => None,
    }
}

/// Element type of CUDA vector types, for `v.x`.
fn vector_element(spelling: &str) -> Option<&'static str> {
    Some(match spelling {
        "float2" | "float4" => "float",
        "int2" | "int4" => "int",
        "uint2" | "uint4" => "unsigned int",
        "double2" => "double",
        "longlong2" => "long long",
        "ulonglong2" => "unsigned long long",
        "short4" => "short",
        "ushort4" => "unsigned short",
        _ => return None,
    })
}

/// Return types of functions CUDA provides, for `auto` and direct use.
fn builtin_return(name: &str) -> Option<CppType> {
    let t = |s: &str| named_type(&[s]);
    match name {
        "__cvta_generic_to_shared"
        | "__cvta_generic_to_global"
        | "__cvta_generic_to_constant"
        | "__cvta_generic_to_local" => t("size_t"),
        "__float_as_uint" | "__half2_as_uint" | "__laneid" | "__activemask" | "__ballot_sync" => {
            t("unsigned int")
        }
        "__float_as_int" | "__popc" | "__clz" | "__ffs" => t("int"),
        "__int_as_float" | "__uint_as_float" => t("float"),
        "__double_as_longlong" | "clock64" => t("long long"),
        "__longlong_as_double" => t("double"),
        "__half_as_ushort" | "__bfloat16_as_ushort" => t("unsigned short"),
        "__half_as_short" | "__bfloat16_as_short" => t("short"),
        "__ushort_as_half" | "__short_as_half" | "__float2half" | "__float2half_rn" => t("__half"),
        "__floats2half2_rn" | "__float2half2_rn" | "__halves2half2" => t("__half2"),
        _ => None,
    }
}

/// What typing looks up across a file, built in one pass over its tokens.
#[derive(Debug, Default)]
pub struct FileIndex<'a> {
    /// Brace depth before each token (for class members), on first need.
    depth: std::cell::OnceCell<Vec<u32>>,
    /// `TYPE name(` with a known TYPE (for calls), on first need.
    functions: std::cell::OnceCell<std::collections::HashMap<String, CppType>>,
    /// For each token index `k`, the `(` a walk back from `k` stops at ([`list_open`]), on
    /// first need.
    list_opens: std::cell::OnceCell<Vec<u32>>,
    /// Token indices of every identifier that may be a declarator ([`may_declare`]), by name,
    /// in order.
    occurrences: foldhash::HashMap<std::borrow::Cow<'a, str>, Vec<u32>>,
}

/// Tokens of the file plus where to search for declarations.
pub struct Scope<'a, 'd> {
    pub text: &'a str,
    pub tokens: &'a [Token],
    /// Token range to search for declarations before `use_at` (function start..asm).
    pub search: std::ops::Range<usize>,
    /// Token index of the statement using the operand.
    pub use_at: usize,
    /// The enclosing class body (`{` to `}`), for members.
    pub members: Option<std::ops::Range<usize>>,
    /// The file's function return types and identifier occurrences, built on first need.
    pub index: &'a std::cell::OnceCell<FileIndex<'a>>,
    /// Declarations already looked up for this statement (operands share their bases).
    pub declarations: &'d std::cell::RefCell<foldhash::HashMap<&'a str, Option<CppType>>>,
}

impl Scope<'_, '_> {
    fn word(&self, i: usize) -> std::borrow::Cow<'_, str> {
        self.tokens[i].text(self.text)
    }
}

/// How deep typing may recurse (parentheses, casts, `*`/`&`, `auto` initialisers that name
/// other `auto` variables). Deeper expressions stay untyped: the input must not choose the
/// stack depth, and each level copies its tokens' words.
const MAX_TYPING_DEPTH: u32 = 32;

thread_local! {
    static TYPING_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Types the operand expression made of `tokens[range]`.
pub fn type_expression(scope: &Scope, range: std::ops::Range<usize>) -> TypeInfo {
    deeper(|| type_expression_at_depth(scope, range)).unwrap_or_default()
}

/// Runs `f` one typing level deeper; `None` past [`MAX_TYPING_DEPTH`]. Every recursion of
/// the typing goes through here (expressions, declarator lists).
fn deeper<T>(f: impl FnOnce() -> T) -> Option<T> {
    let depth = TYPING_DEPTH.get();
    if depth >= MAX_TYPING_DEPTH {
        return None;
    }
    // Restored on drop, so that an unwinding panic leaves the count right.
    struct Level(u32);
    impl Drop for Level {
        fn drop(&mut self) {
            TYPING_DEPTH.set(self.0);
        }
    }
    let _level = Level(depth);
    TYPING_DEPTH.set(depth + 1);
    Some(f())
}

/// `range` without the parentheses around all of it (`((x))` -> `x`): one pass, without
/// copying the tokens' words, however deep.
fn strip_parentheses(scope: &Scope, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let is = |i: usize, c: &str| {
        scope.tokens[i].kind == TokenKind::Punct && &scope.text[scope.tokens[i].span.range()] == c
    };
    let leading = range.clone().take_while(|&i| is(i, "(")).count();
    let trailing = range.clone().rev().take_while(|&i| is(i, ")")).count();
    let candidates = leading.min(trailing).min(range.len() / 2);
    if candidates == 0 {
        return range;
    }
    // Where each of the first `candidates` `(` closes.
    let mut closes = vec![usize::MAX; candidates];
    let mut open: Vec<usize> = Vec::new();
    for i in range.clone() {
        if is(i, "(") {
            open.push(i - range.start);
        } else if is(i, ")") {
            if let Some(o) = open.pop() {
                if o < candidates {
                    closes[o] = i - range.start;
                }
            }
        }
    }
    let layers = (0..candidates)
        .take_while(|&j| closes[j] == range.len() - 1 - j)
        .count();
    range.start + layers..range.end - layers
}

fn type_expression_at_depth(scope: &Scope, range: std::ops::Range<usize>) -> TypeInfo {
    let range = strip_parentheses(scope, range);
    let mut info = TypeInfo::default();
    if range.is_empty() {
        return info;
    }
    let toks = &scope.tokens[range.clone()];
    // The common operand: one declared name (`true`/`false` are literals below).
    let single_name = toks.len() == 1
        && toks[0].kind == TokenKind::Ident
        && !matches!(&scope.text[toks[0].span.range()], "true" | "false");
    if single_name {
        if let Some(ty) = declared_type(scope, range.start) {
            info.from_address = ty.is_pointer();
            info.ty = Some(ty);
        }
        return info;
    }
    let words: Vec<std::borrow::Cow<str>> = toks.iter().map(|t| t.text(scope.text)).collect();
    let w: Vec<&str> = words.iter().map(|s| s.as_ref()).collect();

    // A cast: `(T) expr`, `(T)(expr)`, `static_cast<T>(expr)`, `reinterpret_cast<T>(expr)`.
    if let Some((to, inner)) = cast_parts(&w) {
        let inner_range = range.start + inner.start..range.start + inner.end;
        let inner_info = type_expression(scope, inner_range.clone());
        let inner_span = scope.tokens[inner_range.start]
            .span
            .cover(scope.tokens[inner_range.end - 1].span);
        info.from_address =
            inner_info.from_address || inner_info.ty.as_ref().is_some_and(CppType::is_pointer);
        if let Some(to) = &to {
            if to.is_pointer() {
                info.from_address = true;
            }
        }
        info.cast = to.clone().map(|to| Cast {
            to,
            from: inner_info.ty.clone(),
            inner: inner_span,
        });
        info.ty = to;
        return info;
    }
    // `*reinterpret_cast<T*>(&x)`: the pointee.
    if w.first() == Some(&"*") {
        let inner = type_expression(scope, range.start + 1..range.end);
        if let Some(ty) = inner.ty.filter(|t| t.is_pointer()) {
            info.ty = pointee(&ty);
        }
        return info;
    }
    if w.first() == Some(&"&") && w.len() > 1 {
        let inner = type_expression(scope, range.start + 1..range.end);
        info.ty = Some(CppType::pointer(
            inner.ty.as_ref().map_or("void", |t| &*t.spelling),
        ));
        info.from_address = true;
        return info;
    }
    // Parenthesised expression.
    if w.first() == Some(&"(") && matching(&w, 0) == Some(w.len() - 1) {
        return type_expression(scope, range.start + 1..range.end - 1);
    }
    // Literals.
    if w.len() == 1 && toks[0].kind == TokenKind::Number {
        info.ty = literal_type(w[0]);
        return info;
    }
    if w.len() == 2 && w[0] == "-" && toks[1].kind == TokenKind::Number {
        info.ty = literal_type(w[1]);
        return info;
    }
    if w.len() == 1 && matches!(w[0], "true" | "false") {
        info.ty = named_type(&["bool"]);
        return info;
    }
    // A call: builtins and functions of this file.
    if w.len() >= 3
        && toks[0].kind == TokenKind::Ident
        && w[1] == "("
        && matching(&w, 1) == Some(w.len() - 1)
    {
        if let Some(ty) = named_type(&[w[0]]) {
            // A functional cast: `uint32_t(x)`.
            let inner_range = range.start + 2..range.end - 1;
            let inner = type_expression(scope, inner_range.clone());
            info.from_address =
                inner.from_address || inner.ty.as_ref().is_some_and(CppType::is_pointer);
            if !inner_range.is_empty() {
                info.cast = Some(Cast {
                    to: ty.clone(),
                    from: inner.ty,
                    inner: scope.tokens[inner_range.start]
                        .span
                        .cover(scope.tokens[inner_range.end - 1].span),
                });
            }
            info.ty = Some(ty);
        } else if let Some(ty) = builtin_return(w[0]) {
            info.from_address = w[0].starts_with("__cvta_generic_to_");
            info.ty = Some(ty);
        } else if let Some(ty) = function_return_type(scope, w[0]) {
            info.ty = Some(ty);
        }
        return info;
    }
    // `name`, `name[i]`, `name.x`, `name->x`, `this->name`.
    let (base_at, rest) = match w.as_slice() {
        ["this", "->", _, rest @ ..] => (range.start + 2, rest),
        [_, rest @ ..] if toks[0].kind == TokenKind::Ident => (range.start, rest),
        _ => return info,
    };
    let Some(mut ty) = declared_type(scope, base_at) else {
        return info;
    };
    let mut rest = rest;
    loop {
        match rest {
            [] => break,
            ["[", ..] => {
                let Some(close) = matching(rest, 0) else {
                    return TypeInfo::default();
                };
                let Some(elem) = pointee(&ty) else {
                    return TypeInfo::default();
                };
                ty = elem;
                rest = &rest[close + 1..];
            }
            [".", member, tail @ ..] => {
                let Some(elem) = vector_element(&ty.spelling)
                    .filter(|_| matches!(*member, "x" | "y" | "z" | "w"))
                    .and_then(|e| named_type(&[e]))
                else {
                    return TypeInfo::default();
                };
                ty = elem;
                rest = tail;
            }
            _ => return TypeInfo::default(),
        }
    }
    info.from_address = ty.is_pointer();
    info.ty = Some(ty);
    info
}

fn pointee(ty: &CppType) -> Option<CppType> {
    if let Some(inner) = ty.spelling.strip_suffix('*') {
        let inner = inner.trim_end();
        if inner.ends_with('*') {
            return Some(CppType::new(inner, 64, CppClass::Pointer));
        }
        let words: Vec<&str> = inner.split_whitespace().collect();
        return named_type(&words);
    }
    if let Some(inner) = ty.spelling.strip_suffix("[]") {
        let words: Vec<&str> = inner.split_whitespace().collect();
        return named_type(&words);
    }
    None
}

/// The value of an integer literal's digits, suffixes and digit separators already removed:
/// hexadecimal (`0x`), binary (`0b`), octal (a leading `0`) or decimal.
pub(crate) fn integer_digits_value(digits: &str) -> Option<u128> {
    if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        u128::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = digits
        .strip_prefix("0b")
        .or_else(|| digits.strip_prefix("0B"))
    {
        u128::from_str_radix(bin, 2).ok()
    } else if digits.len() > 1 && digits.starts_with('0') {
        u128::from_str_radix(&digits[1..], 8).ok()
    } else {
        digits.parse().ok()
    }
}

fn literal_type(lit: &str) -> Option<CppType> {
    let lower = lit.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    if !is_hex && (lower.contains('.') || lower.contains('e') || lower.ends_with('f')) {
        return named_type(&[if lower.ends_with('f') {
            "float"
        } else {
            "double"
        }]);
    }
    let suffix: String = lower
        .chars()
        .rev()
        .take_while(|c| matches!(c, 'u' | 'l'))
        .collect();
    let unsigned = suffix.contains('u');
    let longs = suffix.matches('l').count();
    let digits = lower.trim_end_matches(['u', 'l']).replace('\'', "");
    let value = integer_digits_value(&digits)?;
    // The first of int, unsigned (hex/octal only), long... that holds the value.
    let fits32 = if unsigned || is_hex {
        value <= u32::MAX as u128
    } else {
        value <= i32::MAX as u128
    };
    let name = match (longs, unsigned, fits32) {
        (0, false, true) => {
            if value > i32::MAX as u128 {
                "unsigned int"
            } else {
                "int"
            }
        }
        (0, true, true) => "unsigned int",
        (_, true, _) => "unsigned long long",
        _ => "long long",
    };
    named_type(&[name])
}

/// Index of the bracket closing the one at `open`.
fn matching(w: &[&str], open: usize) -> Option<usize> {
    let (o, c) = match *w.get(open)? {
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        "<" => ("<", ">"),
        _ => return None,
    };
    let mut depth = 0;
    for (i, word) in w.iter().enumerate().skip(open) {
        if *word == o {
            depth += 1;
        } else if *word == c {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Splits a cast into its target type and the range of the cast expression's operand.
fn cast_parts(w: &[&str]) -> Option<(Option<CppType>, std::ops::Range<usize>)> {
    if matches!(
        w.first(),
        Some(&"static_cast" | &"reinterpret_cast" | &"const_cast")
    ) && w.get(1) == Some(&"<")
    {
        let close = matching(w, 1)?;
        if w.get(close + 1) != Some(&"(") || matching(w, close + 1) != Some(w.len() - 1) {
            return None;
        }
        let ty = type_from_words(&w[2..close]);
        return Some((ty, close + 2..w.len() - 1));
    }
    if w.first() == Some(&"(") {
        let close = matching(w, 0)?;
        if close + 1 >= w.len() {
            return None;
        }
        let inside = &w[1..close];
        // `(T)` is a cast only if T is all type words.
        if inside.is_empty() || !inside.iter().all(|x| is_type_word(x)) {
            return None;
        }
        let ty = type_from_words(inside);
        ty.as_ref()?;
        return Some((ty, close + 1..w.len()));
    }
    None
}

fn is_type_word(w: &str) -> bool {
    w == "*" || w == "::" || w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// A type from its words, pointers included (`const uint32_t *`).
fn type_from_words(words: &[&str]) -> Option<CppType> {
    let stars = words.iter().filter(|w| **w == "*").count();
    let base: smallvec::SmallVec<[&str; 8]> = words
        .iter()
        .copied()
        .filter(|w| *w != "*" && *w != "&")
        .collect();
    if stars > 0 {
        let name = base
            .iter()
            .filter(|w| !matches!(**w, "const" | "volatile" | "__restrict__" | "struct"))
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let mut ty = CppType::pointer(&name);
        for _ in 1..stars {
            ty = CppType::pointer(&ty.spelling);
        }
        return Some(ty);
    }
    named_type(&base)
}

/// The declared type of `name` nearest before the use, in the search range.
/// The declared type of the name at token `name_at`, nearest before the use.
fn declared_type<'a>(scope: &Scope<'a, '_>, name_at: usize) -> Option<CppType> {
    let name = scope.tokens[name_at].text(scope.text);
    if let Some(found) = scope.declarations.borrow().get(name.as_ref()) {
        return found.clone();
    }
    let found = find_declared_type(scope, &name);
    // Names are keys as written in the text (a spliced name is looked up each time).
    if let std::borrow::Cow::Borrowed(key) = name {
        scope.declarations.borrow_mut().insert(key, found.clone());
    }
    found
}

const MAX_DECLARATION_CANDIDATES: usize = 256;

fn find_declared_type(scope: &Scope, name: &str) -> Option<CppType> {
    let end = scope.use_at.min(scope.tokens.len());
    let index = scope.index.get_or_init(|| build_index(scope));
    let occurrences = index.occurrences.get(name)?;
    // The occurrences before the use, nearest first.
    let before = occurrences.partition_point(|&i| (i as usize) < end);
    // A bound on the candidates tried, so that a function with thousands of declarator-like
    // uses of one name stays linear; real declarations are found long before it.
    for &i in occurrences[..before]
        .iter()
        .rev()
        .take(MAX_DECLARATION_CANDIDATES)
    {
        let i = i as usize;
        if i < scope.search.start {
            break;
        }
        if let Some(found) = declared_at(scope, i) {
            return found;
        }
    }
    // A data member of the enclosing class, declared directly in its body (before or after
    // the member function).
    let members = scope.members.clone()?;
    let depth = index.depth.get_or_init(|| brace_depths(scope));
    let member_depth = depth.get(members.start)? + 1;
    // Declarations in the class body are read back to the class's brace.
    let class_scope = Scope {
        text: scope.text,
        tokens: scope.tokens,
        search: members.start..scope.use_at,
        use_at: scope.use_at,
        members: None,
        index: scope.index,
        declarations: scope.declarations,
    };
    occurrences
        .iter()
        .map(|&i| i as usize)
        .filter(|i| members.contains(i) && depth.get(*i) == Some(&member_depth))
        .take(MAX_DECLARATION_CANDIDATES)
        .find_map(|i| declared_at(&class_scope, i))
        .flatten()
}

/// The declaration at an occurrence of a name, when the occurrence declares it.
fn declared_at(scope: &Scope, i: usize) -> Option<Option<CppType>> {
    if !may_declare(scope.text, scope.tokens, i) {
        return None;
    }
    declaration_before(scope, i)
}

/// Whether the identifier at `tokens[i]` stands where a declarator can: after a type word,
/// `*`, `&`, `::`, `>` or (in a list) `,`, and before what ends a declarator. A use follows
/// `(`, `=`, an operator... Most occurrences are uses: this rejects them cheaply, and the
/// file index keeps only the occurrences that pass.
fn may_declare(text: &str, tokens: &[Token], i: usize) -> bool {
    let Some(prev) = i.checked_sub(1).map(|p| &tokens[p]) else {
        return false;
    };
    let follows_type = prev.kind == TokenKind::Ident
        || matches!(&text[prev.span.range()], "*" | "&" | "::" | ">" | ",");
    if !follows_type {
        return false;
    }
    let next = tokens.get(i + 1).map(|t| t.text(text));
    matches!(
        next.as_deref(),
        Some("=" | ";" | "," | ")" | "[" | "{" | ":" | "(")
    )
}

/// If `tokens[name_at]` is declared by the words before it, its type (`Some(None)` when
/// the declaration exists but its type is unknown, such as a template parameter).
fn declaration_before(scope: &Scope, name_at: usize) -> Option<Option<CppType>> {
    let mut words: smallvec::SmallVec<[std::borrow::Cow<str>; 8]> = smallvec::SmallVec::new();
    let mut j = name_at;
    // The token before the declaration's first word.
    let mut stop = None;
    while j > scope.search.start {
        j -= 1;
        let w = scope.word(j);
        let is_word =
            scope.tokens[j].kind == TokenKind::Ident || matches!(w.as_ref(), "*" | "&" | "::");
        if !is_word {
            stop = Some(j);
            // `uint32_t a, b`: walk back over the earlier declarators.
            if w == "," && words.iter().all(|w| w == "*" || w == "&") {
                // `T a, *b`: the declaration's base type, plus this declarator's pointers.
                let stars = words.iter().filter(|w| *w == "*").count();
                // `a, b, c, ...`: each declarator looks back to the one before (bounded).
                return deeper(|| declaration_after_comma(scope, j))
                    .flatten()
                    .map(|t| {
                        t.map(|t| {
                            let mut ty = base_type(&t);
                            for _ in 0..stars {
                                ty = CppType::pointer(&ty.spelling);
                            }
                            ty
                        })
                    });
            }
            break;
        }
        if matches!(
            w.as_ref(),
            "return" | "case" | "else" | "goto" | "new" | "delete" | "sizeof" | "typedef" | "using"
        ) {
            return None;
        }
        words.push(w);
    }
    // A declaration starts with a type name (`::cuda::std::uint32_t x`): `* scale_f` after an
    // operator is no declaration.
    let leftmost = words.iter().rev().find(|w| w.as_ref() != "::");
    if !leftmost.is_some_and(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')) {
        return None;
    }
    // `off = bid_n * BLOCK_N`, `x + a * b`: a product in an expression, not `bid_n* BLOCK_N`.
    // After `(` or `,` a declaration is a parameter's, whose type is no ALL-CAPS constant
    // (`f(NUM_MULTICAST * N_EPI_THREADS)` is a call).
    if let Some(stop) = stop {
        let before = scope.word(stop);
        // `[[maybe_unused]] T* p`: an attribute's `]]` starts a declaration too.
        let attribute = before == "]" && stop > 0 && scope.word(stop - 1) == "]";
        let expression = scope.tokens[stop].kind == TokenKind::Punct
            && !attribute
            && !matches!(
                before.as_ref(),
                ";" | "{" | "}" | "(" | "," | ":" | "<" | ">" | ")"
            );
        // `arrive(NUM_MULTICAST * N)` is a call; `void f(FP32* p)` a parameter list: a call's
        // `(` follows its name, and no type comes before that name.
        let open = match before.as_ref() {
            "(" => Some(stop),
            // A later argument: back to the list's `(`.
            "," => list_open(scope, stop).filter(|&open| open >= scope.search.start),
            _ => None,
        };
        let call = open.is_some_and(|open| {
            let callee = open.checked_sub(1);
            let before_callee = callee.and_then(|c| c.checked_sub(1));
            callee.is_some_and(|c| scope.tokens[c].kind == TokenKind::Ident)
                && before_callee.is_none_or(|b| {
                    let w = scope.word(b);
                    let type_like = scope.tokens[b].kind == TokenKind::Ident
                        || matches!(w.as_ref(), ">" | "*" | "&" | "::");
                    !type_like || matches!(w.as_ref(), "return" | "else" | "case" | "do")
                })
        });
        let constant_type = call
            && words.iter().any(|w| w == "*" || w == "&")
            && leftmost.is_some_and(|w| crate::cpp::target::is_macro_name(w));
        if expression || constant_type {
            return None;
        }
    }
    words.reverse();
    let refs: smallvec::SmallVec<[&str; 8]> = words.iter().map(|w| w.as_ref()).collect();
    // `auto x = init;`
    if refs.contains(&"auto") {
        let next = scope.tokens.get(name_at + 1).map(|t| t.text(scope.text));
        if next.as_deref() == Some("=") {
            let start = name_at + 2;
            let mut k = start;
            let mut depth = 0i32;
            while k < scope.tokens.len() {
                let w = scope.word(k);
                match w.as_ref() {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth -= 1,
                    ";" | "," if depth == 0 => break,
                    _ => {}
                }
                if depth < 0 {
                    break;
                }
                k += 1;
            }
            let init = type_expression(scope, start..k);
            return Some(init.ty);
        }
        return Some(None);
    }
    let ty = type_from_words(&refs);
    // An array declaration: `uint32_t buf[4]` -> element type with `[]`.
    let next = scope.tokens.get(name_at + 1).map(|t| t.text(scope.text));
    if next.as_deref() == Some("[") {
        return Some(ty.map(|t| CppType::new(&format!("{}[]", t.spelling), 64, CppClass::Pointer)));
    }
    // Unknown type words (`T x`, `MyStruct s`) still declare the name.
    if ty.is_none()
        && refs
            .last()
            .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    {
        return Some(None);
    }
    ty.as_ref()?;
    Some(ty)
}

/// `T *a = x, *b` — a declarator after a comma has the declaration's base type.
fn declaration_after_comma(scope: &Scope, comma_at: usize) -> Option<Option<CppType>> {
    let mut depth = 0i32;
    let mut j = comma_at;
    while j > scope.search.start {
        j -= 1;
        let w = scope.word(j);
        match w.as_ref() {
            ")" | "]" | "}" => depth += 1,
            "(" | "[" | "{" if depth > 0 => depth -= 1,
            "(" | "[" | "{" | ";" => return None,
            "," if depth == 0 => {}
            _ if depth == 0 && scope.tokens[j].kind == TokenKind::Ident => {
                let next = scope.tokens.get(j + 1).map(|t| t.text(scope.text));
                if matches!(next.as_deref(), Some("=" | "," | "[")) {
                    // A declarator right after a comma is looked up through the declarators
                    // before it: its answer is final, so that each level tries at most one
                    // such candidate (trying more made the lookup exponential).
                    let mut k = j;
                    while k > scope.search.start && matches!(scope.word(k - 1).as_ref(), "*" | "&")
                    {
                        k -= 1;
                    }
                    let after_comma = k > scope.search.start && scope.word(k - 1) == ",";
                    let found = declaration_before(scope, j);
                    if found.is_some() || after_comma {
                        return found;
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// The type a declaration's other declarators share: `uint32_t *p` contributes `uint32_t`.
fn base_type(ty: &CppType) -> CppType {
    let mut ty = ty.clone();
    while ty.is_pointer() {
        match pointee(&ty) {
            Some(inner) => ty = inner,
            None => break,
        }
    }
    ty
}

/// Return type of a function defined or declared in this file: `uint32_t name(`.
fn function_return_type(scope: &Scope, name: &str) -> Option<CppType> {
    scope
        .index
        .get_or_init(|| build_index(scope))
        .functions
        .get_or_init(|| file_functions(scope))
        .get(name)
        .cloned()
}

fn build_index<'a>(scope: &Scope<'a, '_>) -> FileIndex<'a> {
    let mut occurrences: foldhash::HashMap<std::borrow::Cow<'a, str>, Vec<u32>> =
        Default::default();
    for (i, tok) in scope.tokens.iter().enumerate() {
        if tok.kind == TokenKind::Ident && may_declare(scope.text, scope.tokens, i) {
            occurrences
                .entry(tok.text(scope.text))
                .or_default()
                .push(i as u32);
        }
    }
    FileIndex {
        depth: Default::default(),
        list_opens: Default::default(),
        functions: Default::default(),
        occurrences,
    }
}

/// The `(` of the list holding token `at` (walking back from `at - 1` over balanced groups,
/// where any closer pairs with any opener, past an unpaired `[` or `{`); `None` when there
/// is none. Looked up in a table built in one pass, so that each parameter of a long list
/// does not walk back over the ones before it.
fn list_open(scope: &Scope, at: usize) -> Option<usize> {
    let index = scope.index.get_or_init(|| build_index(scope));
    let opens = index.list_opens.get_or_init(|| list_opens(scope));
    opens
        .get(at)
        .copied()
        .filter(|&o| o != NO_OPENER)
        .map(|o| o as usize)
}

/// [`list_open`] for every token index: brackets read from a punctuator's first byte (a line
/// splice right after a bracket belongs to its token: `(\` + newline).
fn list_opens(scope: &Scope) -> Vec<u32> {
    openers_behind(scope.tokens, b'(', |tok| {
        (tok.kind == TokenKind::Punct).then(|| scope.text.as_bytes()[tok.start()])
    })
}

/// The brace depth before each token.
fn brace_depths(scope: &Scope) -> Vec<u32> {
    let mut depth = Vec::with_capacity(scope.tokens.len());
    let mut level = 0u32;
    for tok in scope.tokens {
        depth.push(level);
        if tok.kind == TokenKind::Punct && tok.span.len() == 1 {
            match scope.text.as_bytes()[tok.start()] {
                b'{' => level += 1,
                b'}' => level = level.saturating_sub(1),
                _ => {}
            }
        }
    }
    depth
}

/// One pass over the file: every `TYPE name(` with a known TYPE.
fn file_functions(scope: &Scope) -> std::collections::HashMap<String, CppType> {
    let mut out = std::collections::HashMap::new();
    for i in 1..scope.tokens.len() {
        if scope.tokens[i].kind != TokenKind::Ident {
            continue;
        }
        if scope.tokens.get(i + 1).map(|t| &scope.text[t.span.range()]) != Some("(") {
            continue;
        }
        let mut words = Vec::new();
        let mut j = i;
        while j > 0 && words.len() < 8 {
            j -= 1;
            let w = scope.word(j);
            if scope.tokens[j].kind == TokenKind::Ident || w == "*" {
                words.push(w.into_owned());
            } else {
                break;
            }
        }
        words.reverse();
        // Drop CUDA qualifiers and macros before the type.
        let type_words: Vec<&str> = words
            .iter()
            .map(String::as_str)
            .filter(|w| {
                !w.starts_with("__")
                    && !w.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                    && !matches!(
                        *w,
                        "static" | "inline" | "constexpr" | "template" | "return" | "else"
                    )
            })
            .collect();
        if type_words.is_empty() || type_words.contains(&"return") {
            continue;
        }
        if let Some(ty) = type_from_words(&type_words) {
            out.entry(scope.word(i).into_owned()).or_insert(ty);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Operand expressions and declarations read as text, where the token-level typing above has
// no answer
// ---------------------------------------------------------------------------------------------

/// How an operand's expression is a generic pointer (see [`pointer_expression`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PointerExpr {
    /// The expression itself is a pointer (`p`, `&s[i]`, `out + i`).
    Plain,
    /// A cast to a 64-bit integer of the pointer written at this span (`(uint64_t)p`).
    CastOf(Span),
}

/// Whether an operand of this type passes a generic pointer: a pointer-typed expression, a
/// 64-bit integer cast of one, or pointer arithmetic (`out + i`: the typing above does not
/// type arithmetic) on a name `function_before` declares as a pointer (`uint4* out`; the
/// text of the enclosing function before the operand, parameters included). `None` when
/// nothing says so (unknown types stay unknown).
pub fn pointer_expression(
    info: &TypeInfo,
    expr: &str,
    function_before: Option<&str>,
) -> Option<PointerExpr> {
    if let Some(t) = &info.ty {
        if t.is_pointer() {
            return Some(PointerExpr::Plain);
        }
        if let Some(cast) = &info.cast {
            if t.bits == 64 && cast.from.as_ref().is_some_and(|f| f.is_pointer()) {
                return Some(PointerExpr::CastOf(cast.inner));
            }
        }
        return None;
    }
    let base = arithmetic_base(expr)?;
    function_before
        .is_some_and(|region| declares_pointer(region, base))
        .then_some(PointerExpr::Plain)
}

/// `name + ...` / `name - ...` at the top level of an expression: the name.
fn arithmetic_base(expr: &str) -> Option<&str> {
    let e = expr.trim();
    let end = e
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(e.len(), |(i, _)| i);
    let name = &e[..end];
    if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    let rest = e[end..].trim_start();
    let op = rest.chars().next()?;
    if !matches!(op, '+' | '-') || rest[1..].starts_with(['+', '-', '>', '=']) {
        return None;
    }
    // Only sums and differences at the top level: `p + i * 4`, not `p + i > q`.
    let mut depth = 0i32;
    for c in rest.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '<' | '>' | '?' | ':' | '=' | '&' | '|' | ',' if depth == 0 => return None,
            _ => {}
        }
    }
    Some(name)
}

/// Whether `region` declares `name` as a pointer (`T* name`, `T *const name`,
/// `T* __restrict__ name`).
fn declares_pointer(region: &str, name: &str) -> bool {
    let bytes = region.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut from = 0;
    while let Some(rel) = region[from..].find(name) {
        let at = from + rel;
        from = at + name.len();
        if at > 0 && is_ident(bytes[at - 1]) {
            continue;
        }
        if bytes.get(from).is_some_and(|&b| is_ident(b)) {
            continue;
        }
        // After the name: `,` `)` `=` `;` `[`.
        let after = region[from..].trim_start();
        if !after.starts_with([',', ')', '=', ';', '[']) || after.starts_with("==") {
            continue;
        }
        // Before it: qualifiers, then `*`, then a type name or `>`.
        let mut before = region[..at].trim_end();
        loop {
            let trimmed = [
                "const",
                "__restrict__",
                "__restrict",
                "restrict",
                "volatile",
            ]
            .iter()
            .find_map(|q| {
                before
                    .strip_suffix(q)
                    .filter(|b| b.is_empty() || !is_ident(*b.as_bytes().last().unwrap()))
            });
            match trimmed {
                Some(b) => before = b.trim_end(),
                None => break,
            }
        }
        let Some(b) = before.strip_suffix('*') else {
            continue;
        };
        let b = b.trim_end();
        if b.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '>' || c == '*') {
            return true;
        }
    }
    false
}

/// The operand of a cast written as text: `(size_t)p` -> `p`, `(uintptr_t)(p + 1)` ->
/// `(p + 1)`, `reinterpret_cast<uintptr_t>(p)` -> `p`. `None` when the text is not one cast.
pub fn strip_cast(text: &str) -> Option<&str> {
    let t = text.trim();
    for kw in ["reinterpret_cast", "static_cast", "const_cast"] {
        if let Some(rest) = t.strip_prefix(kw) {
            let rest = rest.trim_start().strip_prefix('<')?;
            let close = matching_close(rest, '<', '>')?;
            let args = rest[close + 1..].trim_start().strip_prefix('(')?;
            let end = matching_close(args, '(', ')')?;
            if !args[end + 1..].trim().is_empty() {
                return None;
            }
            return Some(args[..end].trim());
        }
    }
    let inner = t.strip_prefix('(')?;
    let close = matching_close(inner, '(', ')')?;
    let ty = inner[..close].trim();
    // A type: words, `::`, `*` only.
    if ty.is_empty()
        || !ty
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ' ' || c == ':' || c == '*')
    {
        return None;
    }
    let operand = inner[close + 1..].trim();
    (!operand.is_empty()).then_some(operand)
}

/// Index of the bracket closing an already opened one (`s` starts just after it).
fn matching_close(s: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Whether `text` declares `name` as a local variable without `const`/`constexpr`:
/// `unsigned name = ...;`, `int name;`, `auto name{...};`.
pub fn declares_variable(text: &str, name: &str) -> bool {
    let text = &without_comments(text);
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = &text[..at];
        let after = text[at + name.len()..].trim_start();
        if before.ends_with(ident) || after.starts_with(ident) {
            return false;
        }
        if !after.starts_with(['=', ';', '{']) || after.starts_with("==") {
            return false;
        }
        let decl_start = before.rfind([';', '{', '}', '(', ')']).map_or(0, |i| i + 1);
        let decl = before[decl_start..].trim();
        let words: Vec<&str> = decl.split_whitespace().collect();
        !words.is_empty()
            && words
                .iter()
                .all(|w| w.chars().all(|c| ident(c) || c == ':'))
            && !words.iter().any(|w| {
                matches!(
                    *w,
                    "const"
                        | "constexpr"
                        | "return"
                        | "case"
                        | "else"
                        | "goto"
                        | "static"
                        | "enum"
                        | "using"
                        | "typedef"
                        | "template"
                        | "#define"
                )
            })
    })
}

/// `text` with every `//` and `/* */` comment blanked to spaces (string literals kept), so a
/// text search does not find code in comments.
fn without_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                for o in &mut out[i..end] {
                    if *o != b'\n' {
                        *o = b' ';
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were replaced, by ASCII spaces, and multi-byte characters inside
    // comments were blanked byte by byte: the result is valid UTF-8 either way.
    String::from_utf8(out).unwrap_or_default()
}

/// Where the code reachable after byte `from` ends, within `from..end` (a function body's
/// rest): after the first `return ...;` of the block the scan is in (or of an enclosing block it
/// reaches), unless an `if (...)`/`else` makes it conditional. Comments and literals are
/// skipped; loops that lead back are not considered (the callers ask about code after).
pub fn reachable_end(source: &str, from: usize, end: usize) -> usize {
    let bytes = source.as_bytes();
    let end = end.min(bytes.len());
    let mut depth = 0i32;
    let mut level = 0i32; // the shallowest depth reached: the block the scan is in
                          // What came last outside comments: a `)` or the word `else` make a `return` conditional.
    let mut after_condition = false;
    let mut i = from;
    while i < end {
        let c = bytes[i];
        match c {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &bytes[i..end]).map_or(end, |n| i + n);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&bytes[i + 2..end], b"*/").map_or(end, |n| i + 2 + n + 2);
                continue;
            }
            _ if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < end && bytes[i] != c && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                level = level.min(depth);
            }
            _ if is_ident(c) && (i == from || !is_ident(bytes[i - 1])) => {
                let len = bytes[i..end].iter().take_while(|&&b| is_ident(b)).count();
                let word = &bytes[i..i + len];
                if word == b"return" && depth == level && !after_condition {
                    // The returned expression itself runs.
                    return memchr::memchr(b';', &bytes[i..end]).map_or(end, |n| i + n + 1);
                }
                after_condition = word == b"else";
                i += len;
                continue;
            }
            _ => {}
        }
        after_condition = c == b')';
        i += 1;
    }
    end
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpp::lexer::lex_range;

    /// Types the expression `expr` as it would be seen at the end of `decls`.
    fn ty_of(decls: &str, expr: &str) -> TypeInfo {
        let src = format!("{decls}\n@@ {expr} @@");
        let toks = lex_range(&src, 0, src.len(), false);
        let at = toks
            .iter()
            .position(|t| &src[t.span.range()] == "@")
            .unwrap();
        let end = toks
            .iter()
            .rposition(|t| &src[t.span.range()] == "@")
            .unwrap();
        let index = std::cell::OnceCell::new();
        let declarations = Default::default();
        let scope = Scope {
            text: &src,
            tokens: &toks,
            search: 0..at,
            use_at: at,
            members: None,
            index: &index,
            declarations: &declarations,
        };
        type_expression(&scope, at + 2..end - 1)
    }

    fn spelling(info: &TypeInfo) -> Option<(String, u16)> {
        info.ty.as_ref().map(|t| (t.spelling.to_string(), t.bits))
    }

    /// The walk [`list_open`] replaces: back from `at - 1` to the first unpaired `(`.
    fn list_open_walked(text: &str, toks: &[Token], at: usize) -> Option<usize> {
        let mut depth = 0i32;
        (0..at).rev().find(|&k| {
            match toks[k].text(text).as_ref() {
                ")" | "]" | "}" => depth += 1,
                "(" | "[" | "{" if depth > 0 => depth -= 1,
                "(" => return true,
                _ => {}
            }
            false
        })
    }

    #[test]
    fn list_open_is_the_walk_back_at_every_token() {
        for src in [
            "void f(float & a, float & b, int (*g)(int, int), T<x, y> c, d[2], e) { h(a, [b], {c, d}, e); }",
            "f(a, b) ) ] } (x, [y, {z, (w, v)] u, t",
            "({[(a, b], c) d, e} f, g)) h, (i, j",
            "",
            ") , ( , ] , [ , } , { ,",
            "arrive(\\\n0, NUM * N); f(a[\\\n1], {\\\r\nb, c}, ( \\\n d, e)\\\n, g",
        ] {
            let toks = lex_range(src, 0, src.len(), false);
            let index = std::cell::OnceCell::new();
            let declarations = Default::default();
            let scope = Scope {
                text: src,
                tokens: &toks,
                search: 0..toks.len(),
                use_at: toks.len(),
                members: None,
                index: &index,
                declarations: &declarations,
            };
            for at in 0..=toks.len() {
                assert_eq!(
                    list_open(&scope, at),
                    list_open_walked(src, &toks, at),
                    "{src:?} at token {at}"
                );
            }
        }
    }

    #[test]
    fn literals() {
        assert_eq!(spelling(&ty_of("", "5")), Some(("int".into(), 32)));
        assert_eq!(
            spelling(&ty_of("", "5ull")),
            Some(("unsigned long long".into(), 64))
        );
        assert_eq!(
            spelling(&ty_of("", "0xffffffff")),
            Some(("unsigned int".into(), 32))
        );
        assert_eq!(spelling(&ty_of("", "1.0f")), Some(("float".into(), 32)));
        assert_eq!(spelling(&ty_of("", "2.5")), Some(("double".into(), 64)));
    }

    #[test]
    fn casts_and_truncation() {
        let info = ty_of("void f(const float* p) {", "(unsigned)(size_t)p");
        assert_eq!(info.ty.as_ref().unwrap().bits, 32);
        assert!(info.from_address);
        let cast = info.cast.unwrap();
        assert_eq!(cast.from.unwrap().spelling.as_ref(), "size_t");
        let info = ty_of(
            "void f(int* p) {",
            "static_cast<uint32_t>(__cvta_generic_to_shared(p))",
        );
        assert_eq!(info.ty.unwrap().bits, 32);
        assert!(info.from_address);
        let info = ty_of("", "reinterpret_cast<uint64_t>(x)");
        assert_eq!(info.ty.unwrap().bits, 64);
    }

    #[test]
    fn declarations_after_commas_with_expressions() {
        let d = "void f(float s) { float a = g(x) * s, b = h(y) * s;";
        assert_eq!(spelling(&ty_of(d, "b")), Some(("float".into(), 32)));
        assert_eq!(spelling(&ty_of(d, "a")), Some(("float".into(), 32)));
    }

    #[test]
    fn declarations() {
        let d = "__device__ void f(uint32_t a, const int* p, T t) { float4 v; uint32_t x, y = 2, *q; __half h[4]; auto s = __cvta_generic_to_shared(p); unsigned long long big;";
        assert_eq!(spelling(&ty_of(d, "a")), Some(("uint32_t".into(), 32)));
        assert_eq!(ty_of(d, "p").ty.unwrap().bits, 64);
        assert!(ty_of(d, "p").from_address);
        assert_eq!(ty_of(d, "t").ty, None);
        assert_eq!(spelling(&ty_of(d, "v.x")), Some(("float".into(), 32)));
        assert_eq!(spelling(&ty_of(d, "y")), Some(("uint32_t".into(), 32)));
        assert_eq!(ty_of(d, "q").ty.unwrap().bits, 64);
        assert_eq!(spelling(&ty_of(d, "h[1]")), Some(("__half".into(), 16)));
        assert_eq!(spelling(&ty_of(d, "s")), Some(("size_t".into(), 64)));
        assert_eq!(ty_of(d, "big").ty.unwrap().bits, 64);
        assert_eq!(ty_of(d, "&v").ty.unwrap().bits, 64);
        assert_eq!(ty_of(d, "*p").ty.unwrap().spelling.as_ref(), "int");
        assert_eq!(ty_of(d, "unknown_name").ty, None);
    }

    #[test]
    fn qualified_type_names() {
        let d = "__device__ void f(::cuda::std::uint32_t a, std::uint64_t b) {";
        assert_eq!(ty_of(d, "a").ty.unwrap().bits, 32);
        assert_eq!(ty_of(d, "b").ty.unwrap().bits, 64);
    }

    #[test]
    fn shadowing_takes_the_nearest_declaration() {
        let d = "uint64_t v; void f() { uint32_t v;";
        assert_eq!(ty_of(d, "v").ty.unwrap().bits, 32);
    }

    #[test]
    fn file_functions_give_return_types() {
        let d = "__device__ __forceinline__ uint32_t smem_addr(const void* p) { return 0; } void g(int*q) {";
        assert_eq!(ty_of(d, "smem_addr(q)").ty.unwrap().bits, 32);
    }

    #[test]
    fn strip_cast_takes_the_operand_of_one_cast() {
        assert_eq!(strip_cast("(size_t)p"), Some("p"));
        assert_eq!(strip_cast(" (uintptr_t)(p + 1) "), Some("(p + 1)"));
        assert_eq!(strip_cast("(unsigned long long) ptr"), Some("ptr"));
        assert_eq!(strip_cast("reinterpret_cast<uintptr_t>(p)"), Some("p"));
        assert_eq!(
            strip_cast("static_cast<std::uint64_t>( f(a, (b)) )"),
            Some("f(a, (b))")
        );
        // Not one cast: something follows it, an expression in the parentheses, no operand.
        assert_eq!(strip_cast("reinterpret_cast<uint64_t>(p) + 4"), None);
        assert_eq!(strip_cast("(a + b) * c"), None);
        assert_eq!(strip_cast("(p)"), None);
        assert_eq!(strip_cast("f(x)"), None);
        assert_eq!(strip_cast("static_cast<int(x)"), None);
    }

    #[test]
    fn pointer_expressions_from_types_casts_and_declared_names() {
        let unknown = TypeInfo::default();
        let params = "(const uint4* __restrict__ out, int i, float *const q) {\n";
        // Arithmetic on a name declared as a pointer in the function.
        assert_eq!(
            pointer_expression(&unknown, "out + i", Some(params)),
            Some(PointerExpr::Plain)
        );
        assert_eq!(
            pointer_expression(&unknown, "q - 4 * i", Some(params)),
            Some(PointerExpr::Plain)
        );
        // Not a pointer, not a sum at the top level, not declared, no function.
        assert_eq!(pointer_expression(&unknown, "i + 1", Some(params)), None);
        assert_eq!(
            pointer_expression(&unknown, "out + i > q", Some(params)),
            None
        );
        assert_eq!(pointer_expression(&unknown, "out++", Some(params)), None);
        assert_eq!(
            pointer_expression(&unknown, "other + i", Some(params)),
            None
        );
        assert_eq!(pointer_expression(&unknown, "out + i", None), None);
        // `outer` is not `out`.
        assert_eq!(
            pointer_expression(&unknown, "out + 1", Some("(int* outer, int out) {")),
            None
        );

        // Typed: a pointer, a 64-bit cast of one (pointing at the pointer), another integer.
        let d = "void f(float* p, int n) {";
        assert_eq!(
            pointer_expression(&ty_of(d, "p"), "p", None),
            Some(PointerExpr::Plain)
        );
        let cast = ty_of(d, "(uint64_t)p");
        let Some(PointerExpr::CastOf(inner)) = pointer_expression(&cast, "(uint64_t)p", None)
        else {
            panic!("{cast:?}");
        };
        assert_eq!(cast.cast.unwrap().inner, inner);
        assert_eq!(pointer_expression(&ty_of(d, "(uint32_t)p"), "", None), None);
        // A typed integer is never looked up as a declared name.
        assert_eq!(pointer_expression(&ty_of(d, "n"), "p + 1", Some(d)), None);
    }

    #[test]
    fn declares_variable_finds_mutable_local_declarations() {
        assert!(declares_variable("unsigned x = 0;", "x"));
        assert!(declares_variable("int a; uint32_t x;", "x"));
        assert!(declares_variable("auto x{1};", "x"));
        assert!(declares_variable("std::uint32_t x = f();", "x"));
        // Constants, other names, assignments, statements, comments.
        assert!(!declares_variable("const int x = 1;", "x"));
        assert!(!declares_variable("constexpr int x = 1;", "x"));
        assert!(!declares_variable("int xy = 0; int ax = 0;", "x"));
        assert!(!declares_variable("x = 3;", "x"));
        assert!(!declares_variable("return x;", "x"));
        assert!(!declares_variable("if (int(y) == x) {}", "x"));
        assert!(!declares_variable("int y = 0; // int x = 0;", "x"));
        assert!(!declares_variable("/* int x = 0; */ int y;", "x"));
        assert!(!declares_variable("int x == 1;", "x"));
    }

    #[test]
    fn without_comments_blanks_comments_only() {
        let text = "a // b\nc /* d\ne */ \"// s\" '/' f";
        let out = without_comments(text);
        assert_eq!(out.len(), text.len());
        assert_eq!(out, "a     \nc     \n     \"// s\" '/' f");
        // Multi-byte characters in comments, an unclosed block comment.
        assert_eq!(without_comments("x /* é"), "x      ");
    }
}
