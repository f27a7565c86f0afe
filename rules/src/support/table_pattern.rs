//! The reference tables' instruction-form patterns (`rules/data/*.tsv`): reading the rows,
//! expanding `{a,b}` alternatives, and matching a pattern with an instruction token by token
//! (`prefer-cuda-ptx`, `prefer-intrinsic`, the address-width exceptions).

use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::isa;
use ptxguard_analyzer::ptx::{Instruction, OperandKind};
use ptxguard_analyzer::Span;

use super::diagnostics::template_span;

/// The data rows of a tab-separated table: the header line, `#` comments and blank lines
/// skipped; rows with fewer than `min_columns` columns dropped.
pub(crate) fn tsv_rows(text: &str, min_columns: usize) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .skip(1)
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split('\t').collect::<Vec<&str>>())
        .filter(move |cols| cols.len() >= min_columns)
}

/// The alternatives of one `{a,b}` group and the one chosen.
pub(crate) type Choice = (Vec<String>, String);

/// Expands `{a,b}` alternatives: `fence.{sc,acq_rel}.cta` -> `fence.sc.cta`, `fence.acq_rel.cta`.
/// Each result comes with the alternative chosen in every group, in order.
pub(crate) fn expand_alternatives(pattern: &str) -> Vec<(String, Vec<Choice>)> {
    let Some(open) = pattern.find('{') else {
        return vec![(pattern.to_string(), Vec::new())];
    };
    let Some(close_rel) = pattern[open..].find('}') else {
        return vec![(pattern.to_string(), Vec::new())];
    };
    let close = open + close_rel;
    let inner = &pattern[open + 1..close];
    if !inner.contains(',') {
        // `{%0}`-like text is not an alternative group; keep it.
        return expand_alternatives(&pattern[close + 1..])
            .into_iter()
            .map(|(t, g)| (format!("{}{}", &pattern[..=close], t), g))
            .collect();
    }
    let alts: Vec<String> = inner.split(',').map(|s| s.trim().to_string()).collect();
    let mut out = Vec::new();
    for alt in &alts {
        for (tail, mut groups) in expand_alternatives(&pattern[close + 1..]) {
            groups.insert(0, (alts.clone(), alt.clone()));
            out.push((format!("{}{}{}", &pattern[..open], alt, tail), groups));
        }
    }
    out
}

/// Substitutes into `name` the alternatives chosen for `pattern` (see [`expand_alternatives`]):
/// a group of `name` takes the choice of the pattern group with the same alternatives (or
/// the one at the same position with as many).
pub(crate) fn substitute_alternatives(name: &str, chosen: &[Choice]) -> String {
    let mut out = String::new();
    let mut rest = name;
    let mut index = 0;
    while let Some(open) = rest.find('{') {
        let Some(close_rel) = rest[open..].find('}') else {
            break;
        };
        let close = open + close_rel;
        let alts: Vec<String> = rest[open + 1..close]
            .split(',')
            .map(|s| s.trim().to_string())
            .collect();
        out.push_str(&rest[..open]);
        let pick = chosen
            .iter()
            .find(|(a, _)| *a == alts)
            .or_else(|| chosen.get(index).filter(|(a, _)| a.len() == alts.len()))
            .and_then(|(a, c)| a.iter().position(|x| x == c).map(|i| alts[i].clone()));
        match pick {
            Some(p) => out.push_str(&p),
            None => out.push_str(&rest[open..=close]),
        }
        rest = &rest[close + 1..];
        index += 1;
    }
    out.push_str(rest);
    out
}

/// An instruction form as the data files write it (`ld.global.nc`, `redux.sync.min.u32`,
/// `mov.u32 %0, %%clock`): compared token by token with an instruction, never as a prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FormPattern {
    /// The opcode tokens that are neither types nor vector sizes, without dots, sorted.
    pub(crate) words: Vec<String>,
    /// Type tokens in order (`u32`); empty: any type (the data files omit type overloads).
    pub(crate) types: Vec<String>,
    /// `v4`; `None`: no vector modifier.
    pub(crate) vector: Option<String>,
    /// Operands when the pattern gives them: `%0` (any), `%%clock` (that special register),
    /// `0` (that immediate).
    pub(crate) operands: Option<Vec<String>>,
}

impl FormPattern {
    /// Parses one expanded pattern (no `{a,b}` groups left).
    pub(crate) fn parse(text: &str) -> FormPattern {
        let text = text.trim();
        let (opcode, operands) = match text.split_once(char::is_whitespace) {
            Some((o, rest)) => (
                o,
                Some(
                    rest.split(',')
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty())
                        .collect::<Vec<_>>(),
                ),
            ),
            None => (text, None),
        };
        let (words, types, vector) = split_tokens(opcode.split('.'));
        FormPattern {
            words,
            types,
            vector,
            operands,
        }
    }

    /// Whether the instruction's opcode is exactly this form (types compared only when the
    /// pattern names some; special-register `mov` patterns accept any `mov` type of the same
    /// size). Operands are compared when the pattern gives them.
    pub(crate) fn matches(&self, instr: &Instruction) -> bool {
        self.matches_tokens(&InstrTokens::of(instr), instr)
    }

    /// [`Self::matches`] with the instruction's tokens split once by the caller.
    pub(crate) fn matches_tokens(&self, tokens: &InstrTokens, instr: &Instruction) -> bool {
        let InstrTokens {
            words,
            types,
            vector,
        } = tokens;
        if *words != self.words || *vector != self.vector {
            return false;
        }
        let sreg = self
            .operands
            .as_ref()
            .is_some_and(|ops| ops.iter().any(|o| o.starts_with("%%")));
        if sreg && words.len() == 1 && words[0] == "mov" {
            let bits = |ts: &[String]| -> Vec<u16> {
                ts.iter()
                    .filter_map(|t| isa::PtxType::parse(t))
                    .map(|t| t.bits)
                    .collect()
            };
            if bits(types) != bits(&self.types) {
                return false;
            }
        } else if !self.types.is_empty() && *types != self.types {
            return false;
        }
        let Some(ops) = &self.operands else {
            return true;
        };
        if ops.len() != instr.operands.len() {
            return false;
        }
        ops.iter().zip(&instr.operands).all(|(want, got)| {
            if let Some(reg) = want.strip_prefix("%%") {
                matches!(&got.kind, OperandKind::Register { name, .. } if name == reg)
            } else if want.starts_with('%') {
                // The destination: an asm operand, or a register of the template.
                matches!(
                    &got.kind,
                    OperandKind::Placeholder(_) | OperandKind::Register { special: false, .. }
                )
            } else {
                matches!(&got.kind, OperandKind::Immediate(v) if v == want)
            }
        })
    }

    /// The special register the pattern reads (`mov.u32 %0, %%clock` -> `clock`).
    pub(crate) fn special_register(&self) -> Option<&str> {
        self.operands
            .as_ref()?
            .iter()
            .find_map(|o| o.strip_prefix("%%"))
    }
}

fn is_vector_token(t: &str) -> bool {
    matches!(t, "v2" | "v4" | "v8")
}

fn split_tokens<'a>(
    tokens: impl Iterator<Item = &'a str>,
) -> (Vec<String>, Vec<String>, Option<String>) {
    let mut words = Vec::new();
    let mut types = Vec::new();
    let mut vector = None;
    for t in tokens {
        let t = t.strip_prefix('.').unwrap_or(t);
        if t.is_empty() {
            continue;
        }
        if is_vector_token(t) {
            vector = Some(t.to_string());
        } else if isa::PtxType::parse(t).is_some() {
            types.push(t.to_string());
        } else {
            words.push(t.to_string());
        }
    }
    words.sort();
    (words, types, vector)
}

/// An instruction's opcode split the way [`FormPattern`]s compare it.
pub(crate) struct InstrTokens {
    pub(crate) words: Vec<String>,
    pub(crate) types: Vec<String>,
    pub(crate) vector: Option<String>,
}

impl InstrTokens {
    pub(crate) fn of(instr: &Instruction) -> InstrTokens {
        let (words, types, vector) = split_tokens(instr.parts.iter().map(|p| p.text.as_str()));
        InstrTokens {
            words,
            types,
            vector,
        }
    }
}

/// Patterns grouped by their opcode words, so an instruction is compared only with the
/// patterns that can match it.
pub(crate) struct PatternIndex {
    by_words: std::collections::HashMap<Vec<String>, Vec<usize>>,
}

impl PatternIndex {
    pub(crate) fn new<'a>(patterns: impl Iterator<Item = &'a FormPattern>) -> PatternIndex {
        let mut by_words: std::collections::HashMap<Vec<String>, Vec<usize>> = Default::default();
        for (i, p) in patterns.enumerate() {
            by_words.entry(p.words.clone()).or_default().push(i);
        }
        PatternIndex { by_words }
    }

    /// Indices (in the order given to [`Self::new`]) of the patterns with these words.
    pub(crate) fn candidates(&self, tokens: &InstrTokens) -> &[usize] {
        self.by_words.get(&tokens.words).map_or(&[], Vec::as_slice)
    }
}

/// Where a [`FormPattern`] match is reported and how it is named: the special register it
/// reads (`reading `%clock64``) or the opcode.
pub(crate) fn matched_form(
    stmt: &AsmStatement,
    instr: &Instruction,
    pattern: &FormPattern,
) -> (Span, String) {
    match pattern.special_register() {
        Some(reg) => {
            let at = instr
                .operands
                .iter()
                .find(|o| matches!(&o.kind, OperandKind::Register { name, .. } if name == reg))
                .map_or(instr.opcode_span.clone(), |o| o.span.clone());
            (template_span(stmt, at), format!("reading `%{reg}`"))
        }
        None => (
            template_span(stmt, instr.opcode_span.clone()),
            format!("`{}`", instr.opcode),
        ),
    }
}
