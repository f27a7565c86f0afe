//! The reference tables' instruction-form patterns (`rules/data/*.tsv`): reading the rows,
//! expanding `{a,b}` alternatives, and matching a pattern with an instruction token by token
//! (`prefer-cuda-ptx`, `prefer-intrinsic`, the address-width exceptions).

use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::isa;
use ptxguard_analyzer::ptx::{Instruction, OperandKind, Ptx};
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

/// Whether every other instruction of the template only carries operands in or out
/// (`mov`, `cvt`, `cvta`, `selp`, `setp`), so one call (a wrapper, an intrinsic) replaces the
/// whole statement. One step of a longer template (a spin loop, a bit-twiddling sequence) is
/// not worth a suggestion: taking it out means rewriting the rest in C++.
pub(crate) fn alone_but_moves(ptx: &Ptx, instr: &Instruction) -> bool {
    ptx.instructions().all(|(_, other)| {
        std::ptr::eq(other, instr)
            || matches!(other.base(), "mov" | "cvt" | "cvta" | "selp" | "setp")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::ptx::{parse, PercentMode, Ptx};

    fn parsed(text: &str) -> Ptx {
        parse(text, PercentMode::WithOperands)
    }

    /// Whether `pattern` matches the single instruction of `text`.
    fn matches(pattern: &str, text: &str) -> bool {
        let ptx = parsed(text);
        let mut instructions = ptx.instructions();
        let (_, instr) = instructions.next().expect("one instruction");
        assert!(instructions.next().is_none());
        let pattern = FormPattern::parse(pattern);
        let by_tokens = pattern.matches_tokens(&InstrTokens::of(instr), instr);
        assert_eq!(pattern.matches(instr), by_tokens);
        by_tokens
    }

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn tsv_rows_skip_the_header_comments_blank_and_short_lines() {
        let text = "ptx\twrapper\tsince\n# a comment\nfence.sc.cta\tfence\t2.1\n\n  \nshort\tline\nld.global.nc\t__ldg\t1.0\textra\n";
        let rows: Vec<Vec<&str>> = tsv_rows(text, 3).collect();
        assert_eq!(
            rows,
            [
                vec!["fence.sc.cta", "fence", "2.1"],
                vec!["ld.global.nc", "__ldg", "1.0", "extra"],
            ]
        );
        assert_eq!(tsv_rows("header only\n", 1).count(), 0);
    }

    #[test]
    fn expand_alternatives_gives_every_combination_with_its_choices() {
        let expanded = expand_alternatives("fence.{sc,acq_rel}.{cta, gpu}");
        let texts: Vec<&str> = expanded.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "fence.sc.cta",
                "fence.sc.gpu",
                "fence.acq_rel.cta",
                "fence.acq_rel.gpu"
            ]
        );
        // The choices, group by group, with each group's alternatives (trimmed).
        assert_eq!(
            expanded[1].1,
            [
                (strings(&["sc", "acq_rel"]), "sc".to_string()),
                (strings(&["cta", "gpu"]), "gpu".to_string()),
            ]
        );
        // No group, operand braces (`{%0}` has no comma) and an unclosed brace stay as written.
        assert_eq!(
            expand_alternatives("ld.global.nc"),
            [("ld.global.nc".to_string(), vec![])]
        );
        let vector = expand_alternatives("mov.b64 {%0}, %1.{u32,s32}");
        let texts: Vec<&str> = vector.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["mov.b64 {%0}, %1.u32", "mov.b64 {%0}, %1.s32"]);
        assert_eq!(expand_alternatives("a.{b,c")[0].0, "a.{b,c");
    }

    #[test]
    fn substitute_alternatives_follows_the_pattern_choices() {
        let chosen = &expand_alternatives("redux.sync.{add,min}.{u32,s32}")[3].1;
        // The same alternatives: the same choice, wherever the group stands.
        assert_eq!(
            substitute_alternatives("__reduce_{add,min}_sync {u32,s32}", chosen),
            "__reduce_min_sync s32"
        );
        assert_eq!(
            substitute_alternatives("{u32,s32}_{add,min}", chosen),
            "s32_min"
        );
        // Other alternatives, as many as the pattern group at that position: by index.
        assert_eq!(
            substitute_alternatives("__reduce_{plus,least}_sync", chosen),
            "__reduce_least_sync"
        );
        // Neither: the group stays as written; no group: the name unchanged.
        assert_eq!(substitute_alternatives("f_{a,b,c}", chosen), "f_{a,b,c}");
        assert_eq!(substitute_alternatives("__ldg", chosen), "__ldg");
    }

    #[test]
    fn form_patterns_split_words_types_vector_and_operands() {
        let p = FormPattern::parse(" ld.global.nc.v4.u32 ");
        assert_eq!(p.words, strings(&["global", "ld", "nc"]));
        assert_eq!(p.types, strings(&["u32"]));
        assert_eq!(p.vector.as_deref(), Some("v4"));
        assert_eq!(p.operands, None);
        assert_eq!(p.special_register(), None);

        let p = FormPattern::parse("mov.u64 %0, %%clock64");
        assert_eq!(p.words, strings(&["mov"]));
        assert_eq!(p.operands, Some(strings(&["%0", "%%clock64"])));
        assert_eq!(p.special_register(), Some("clock64"));
    }

    #[test]
    fn patterns_match_whole_opcodes_never_a_prefix() {
        assert!(matches("ld.global.nc", "ld.global.nc.u32 %0, [%1];"));
        // Modifier order does not matter.
        assert!(matches("ld.global.nc", "ld.nc.global.u32 %0, [%1];"));
        // A longer or a shorter opcode is another form.
        assert!(!matches("ld.global", "ld.global.nc.u32 %0, [%1];"));
        assert!(!matches("ld.global.nc", "ld.global.u32 %0, [%1];"));
        // Types compared only when the pattern names some; the vector size always.
        assert!(matches("fma.rn.f32", "fma.rn.f32 %0, %1, %2, %3;"));
        assert!(!matches("fma.rn.f32", "fma.rn.f64 %0, %1, %2, %3;"));
        assert!(matches(
            "ld.global.nc.v2",
            "ld.global.nc.v2.f32 {%0, %1}, [%2];"
        ));
        assert!(!matches(
            "ld.global.nc",
            "ld.global.nc.v2.f32 {%0, %1}, [%2];"
        ));
    }

    #[test]
    fn special_register_patterns_take_any_mov_type_of_the_same_size() {
        let clock = "mov.u32 %0, %%clock";
        assert!(matches(clock, "mov.u32 %0, %%clock;"));
        assert!(matches(clock, "mov.b32 %0, %%clock;"));
        assert!(matches(clock, "mov.s32 r1, %%clock;"));
        assert!(!matches(clock, "mov.u64 %0, %%clock;"));
        assert!(!matches(clock, "mov.u32 %0, %%clock64;"));
        // The destination is an asm operand or a register, never an immediate or a special.
        assert!(!matches(clock, "mov.u32 4, %%clock;"));
        assert!(!matches(clock, "mov.u32 %%tid.x, %%clock;"));
        // As many operands as the pattern gives.
        assert!(!matches(clock, "mov.u32 %0, %%clock, %1;"));
    }

    #[test]
    fn immediate_operands_must_be_equal() {
        let p = "setmaxnreg.inc.sync.aligned.u32 240";
        assert!(matches(p, "setmaxnreg.inc.sync.aligned.u32 240;"));
        assert!(!matches(p, "setmaxnreg.inc.sync.aligned.u32 232;"));
        assert!(!matches(p, "setmaxnreg.inc.sync.aligned.u32 %0;"));
    }

    #[test]
    fn pattern_index_offers_only_patterns_with_the_same_words() {
        let patterns: Vec<FormPattern> =
            ["ld.global.nc", "ld.nc.global.v4", "st.global", "ld.global"]
                .iter()
                .map(|p| FormPattern::parse(p))
                .collect();
        let index = PatternIndex::new(patterns.iter());
        let ptx = parsed("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];");
        let (_, instr) = ptx.instructions().next().unwrap();
        let tokens = InstrTokens::of(instr);
        assert_eq!(index.candidates(&tokens), [0, 1]);
        let matching: Vec<usize> = index
            .candidates(&tokens)
            .iter()
            .copied()
            .filter(|&i| patterns[i].matches_tokens(&tokens, instr))
            .collect();
        assert_eq!(matching, [1]);
        let other = parsed("add.u32 %0, %1, %2;");
        let (_, add) = other.instructions().next().unwrap();
        assert!(index.candidates(&InstrTokens::of(add)).is_empty());
    }

    #[test]
    fn matched_form_points_at_the_special_register_or_the_opcode() {
        use ptxguard_analyzer::statements::find_asm_statements;
        use ptxguard_analyzer::SourceFile;
        let text = "__device__ void f(unsigned &c, unsigned &v, const unsigned *p) {\n  asm volatile(\"mov.u32 %0, %%clock;\" : \"=r\"(c));\n  asm(\"ld.global.nc.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p));\n}\n";
        let file = SourceFile::new("t.cu", text);
        let statements = find_asm_statements(&file);
        let found: Vec<(&str, String)> = statements
            .iter()
            .zip(["mov.u32 %0, %%clock", "ld.global.nc"])
            .map(|(stmt, pattern)| {
                let (_, instr) = stmt.ptx.instructions().next().unwrap();
                let (span, what) = matched_form(stmt, instr, &FormPattern::parse(pattern));
                (&text[span.range()], what)
            })
            .collect();
        assert_eq!(
            found,
            [
                ("%%clock", "reading `%clock`".to_string()),
                ("ld.global.nc.u32", "`ld.global.nc.u32`".to_string()),
            ]
        );
    }
}
