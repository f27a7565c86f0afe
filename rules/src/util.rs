//! Small helpers shared by rules: spans, labels and the common fixes.

use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::ptx::{
    Instruction, Operand, OperandKind, Percent, PercentKind, PlaceholderTarget,
};
use ptxguard_analyzer::{Diagnostic, Edit, Span};
use std::ops::Range;

use crate::RuleMeta;

/// A diagnostic of `meta` at its default severity.
pub fn diagnostic(meta: &RuleMeta, span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(meta.name, meta.default_severity, span, message)
}

/// The source span of a decoded template range.
pub fn template_span(stmt: &AsmStatement, decoded: Range<usize>) -> Span {
    stmt.source_span(decoded)
}

/// A finding on an `=` output: points at its constraint and offers to make it `+` (unsafe:
/// the variable must then hold a meaningful value before the asm).
pub fn on_write_only_output(cx: &crate::Ctx, op: &AsmOperand, d: Diagnostic) -> Diagnostic {
    let d = d.with_label(op.constraint.span, "declared write-only (`=`) here");
    match equals_sign_span(cx.source(), op) {
        Some(eq) => d.with_fix(ptxguard_analyzer::Fix::unsafe_(
            "declare it read-write (`+`)",
            vec![Edit::replace(eq, "+")],
        )),
        None => d,
    }
}

/// Every placeholder reference in the template, with its decoded range.
pub fn placeholder_refs(
    stmt: &AsmStatement,
) -> Vec<(PlaceholderTarget, Range<usize>, Option<String>)> {
    stmt.ptx
        .percents
        .iter()
        .filter_map(|p: &Percent| match &p.kind {
            PercentKind::Operand { index, modifier } => Some((
                PlaceholderTarget::Index(*index),
                p.span.clone(),
                modifier.clone(),
            )),
            PercentKind::Named { name, modifier } => Some((
                PlaceholderTarget::Name(name.clone()),
                p.span.clone(),
                modifier.clone(),
            )),
            _ => None,
        })
        .collect()
}

/// The operand index a placeholder target refers to, if it binds one.
pub fn target_index(stmt: &AsmStatement, target: &PlaceholderTarget) -> Option<usize> {
    match target {
        PlaceholderTarget::Index(i) => {
            ((*i as usize) < stmt.operand_count()).then_some(*i as usize)
        }
        PlaceholderTarget::Name(n) => stmt
            .operands()
            .find(|o| o.name.as_ref().is_some_and(|(name, _)| name == n))
            .map(|o| o.index),
    }
}

/// Replaces the register letter of an operand's constraint, keeping `=`, `+`, `&`.
pub fn replace_constraint_letter(source: &str, op: &AsmOperand, letter: char) -> Option<Edit> {
    let inner = op.constraint.inner_span(source)?;
    let written = &source[inner.range()];
    let replaced: String = written
        .chars()
        .map(|c| {
            if matches!(c, '=' | '+' | '&') {
                c
            } else {
                letter
            }
        })
        .collect::<String>();
    // Keep one letter only.
    let mut seen = false;
    let replaced: String = replaced
        .chars()
        .filter(|c| {
            if matches!(c, '=' | '+' | '&') {
                true
            } else if seen {
                false
            } else {
                seen = true;
                true
            }
        })
        .collect();
    Some(Edit::replace(inner, replaced))
}

/// The `=` in an output constraint, for fixes that turn it into `+`.
pub fn equals_sign_span(source: &str, op: &AsmOperand) -> Option<Span> {
    let inner = op.constraint.inner_span(source)?;
    let at = source[inner.range()].find('=')?;
    Some(Span::new(
        inner.start as usize + at,
        inner.start as usize + at + 1,
    ))
}

// ---------------------------------------------------------------------------------------------
// Instruction forms (ISA table) and the operands written for them
// ---------------------------------------------------------------------------------------------

use ptxguard_analyzer::isa::{self, InstrForm, OperandInfo, Role, StateSpace};

/// Each written operand with what the form expects there (`None` past the form's operands).
pub fn operand_slots<'a, 'f>(
    instr: &'a Instruction,
    form: &'f InstrForm,
) -> Vec<(usize, &'a Operand, Option<&'f OperandInfo>)> {
    let count = instr.operands.len();
    let expected: Vec<&OperandInfo> = form.operands_for(count).collect();
    instr
        .operands
        .iter()
        .enumerate()
        .map(|(i, o)| (i, o, expected.get(i).copied()))
        .collect()
}

/// One place where an asm operand is used as (the base of) a memory address.
#[derive(Clone, Debug)]
pub struct AddressUse<'a> {
    pub instr: &'a Instruction,
    /// The operand of the instruction holding the address (`[%1+16]`).
    pub operand: &'a Operand,
    /// The placeholder giving the address register.
    pub placeholder: &'a Operand,
    pub asm: &'a AsmOperand,
    /// The state space addressed.
    pub space: StateSpace,
    /// The ISA's name of the operand (`[a]`, `[srcMem]`); `a` for a `cvta` source.
    pub slot_name: &'static str,
    /// A `cvta` source register rather than a bracketed address.
    pub cvta_source: bool,
}

/// The placeholder at the base of an address operand: `[%1]`, `[%1+16]`, and the first element
/// of an address list (`[%0, {%1, %2}]`: the tensor map). `None` for symbols and immediates.
pub fn address_base(operand: &Operand) -> Option<&Operand> {
    match &operand.kind {
        OperandKind::Address { base: Some(b), .. } => match &b.kind {
            OperandKind::Placeholder(_) => Some(b),
            OperandKind::Address { .. } | OperandKind::AddressList(_) => address_base(b),
            _ => None,
        },
        OperandKind::AddressList(items) => items.first().and_then(|first| match &first.kind {
            OperandKind::Placeholder(_) => Some(first),
            OperandKind::Address { .. } => address_base(first),
            _ => None,
        }),
        _ => None,
    }
}

/// Every use of an asm operand as a memory address whose state space the ISA table gives,
/// plus the address sources of `cvta` (`cvta.to.global.u64 d, a`: `a` is a generic address;
/// `cvta.global.u64 d, a`: a global one).
pub fn address_uses(stmt: &AsmStatement) -> Vec<AddressUse<'_>> {
    let mut out = Vec::new();
    for (_, instr) in stmt.ptx.instructions() {
        let Some(form) = instr.known_form() else {
            continue;
        };
        if form.family.name == "cvta" {
            // cvta{.space}.size p, a / cvta.to{.space}.size p, a: the source is an address.
            // Measured with nvcc 13.0: every cvta takes its source in a 64-bit register
            // (`cvta.to.shared.u32`, `cvta.shared.u32` and `cvta.to.local.u32` with a
            // 32-bit one all fail with `Program uses 32-bit address`): reported as generic.
            let src_space = StateSpace::Generic;
            if let Some(src) = instr.operands.get(1) {
                if let OperandKind::Placeholder(p) = &src.kind {
                    if let Some(asm) = stmt.resolve(p) {
                        out.push(AddressUse {
                            instr,
                            operand: src,
                            placeholder: src,
                            asm,
                            space: src_space,
                            slot_name: "a",
                            cvta_source: true,
                        });
                    }
                }
            }
            continue;
        }
        for (_, operand, slot) in operand_slots(instr, form) {
            let Some(slot) = slot else { continue };
            let (role, space, name) = if slot.role == Role::Addr {
                (slot.role, slot.space, slot.name)
            } else if let Some(alt) = slot.alt.filter(|a| a.role == Role::Addr) {
                (alt.role, alt.space, alt.name)
            } else {
                continue;
            };
            if role != Role::Addr
                || !matches!(
                    operand.kind,
                    OperandKind::Address { .. } | OperandKind::AddressList(_)
                )
            {
                continue;
            }
            let Some(space) = space else { continue };
            let Some(base) = address_base(operand) else {
                continue;
            };
            let Some(p) = base.placeholder() else {
                continue;
            };
            let Some(asm) = stmt.resolve(p) else { continue };
            out.push(AddressUse {
                instr,
                operand,
                placeholder: base,
                asm,
                space,
                slot_name: name,
                cvta_source: false,
            });
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Instruction-form patterns (the TSV data files)
// ---------------------------------------------------------------------------------------------

/// The alternatives of one `{a,b}` group and the one chosen.
pub type Choice = (Vec<String>, String);

/// Expands `{a,b}` alternatives: `fence.{sc,acq_rel}.cta` -> `fence.sc.cta`, `fence.acq_rel.cta`.
/// Each result comes with the alternative chosen in every group, in order.
pub fn expand_alternatives(pattern: &str) -> Vec<(String, Vec<Choice>)> {
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
pub fn substitute_alternatives(name: &str, chosen: &[Choice]) -> String {
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
pub struct FormPattern {
    /// The opcode tokens that are neither types nor vector sizes, without dots, sorted.
    pub words: Vec<String>,
    /// Type tokens in order (`u32`); empty: any type (the data files omit type overloads).
    pub types: Vec<String>,
    /// `v4`; `None`: no vector modifier.
    pub vector: Option<String>,
    /// Operands when the pattern gives them: `%0` (any), `%%clock` (that special register),
    /// `0` (that immediate).
    pub operands: Option<Vec<String>>,
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
pub struct InstrTokens {
    pub words: Vec<String>,
    pub types: Vec<String>,
    pub vector: Option<String>,
}

impl InstrTokens {
    pub fn of(instr: &Instruction) -> InstrTokens {
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
pub struct PatternIndex {
    by_words: std::collections::HashMap<Vec<String>, Vec<usize>>,
}

impl PatternIndex {
    pub fn new<'a>(patterns: impl Iterator<Item = &'a FormPattern>) -> PatternIndex {
        let mut by_words: std::collections::HashMap<Vec<String>, Vec<usize>> = Default::default();
        for (i, p) in patterns.enumerate() {
            by_words.entry(p.words.clone()).or_default().push(i);
        }
        PatternIndex { by_words }
    }

    /// Indices (in the order given to [`Self::new`]) of the patterns with these words.
    pub fn candidates(&self, tokens: &InstrTokens) -> &[usize] {
        self.by_words.get(&tokens.words).map_or(&[], Vec::as_slice)
    }
}

impl FormPattern {
    /// Parses one expanded pattern (no `{a,b}` groups left).
    pub fn parse(text: &str) -> FormPattern {
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
    pub fn matches(&self, instr: &Instruction) -> bool {
        self.matches_tokens(&InstrTokens::of(instr), instr)
    }

    /// [`Self::matches`] with the instruction's tokens split once by the caller.
    pub fn matches_tokens(&self, tokens: &InstrTokens, instr: &Instruction) -> bool {
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
    pub fn special_register(&self) -> Option<&str> {
        self.operands
            .as_ref()?
            .iter()
            .find_map(|o| o.strip_prefix("%%"))
    }
}

/// Whether the file implements `cuda::ptx` itself (libcu++'s `cuda/__ptx` headers, or code
/// in `namespace cuda::ptx`): suggestions to use `cuda::ptx` make no sense there.
pub fn implements_cuda_ptx(cx: &crate::Ctx) -> bool {
    let path = cx.file.path.to_string_lossy().replace('\\', "/");
    if path.contains("cuda/ptx") || path.contains("__ptx") || path.contains("cuda/__ptx") {
        return true;
    }
    let text = cx.source();
    text.contains("BEGIN_NAMESPACE_CUDA_PTX")
        || text.contains("namespace cuda::ptx")
        || text.contains("namespace cuda { namespace ptx")
        || contains_namespace_ptx(text)
}

fn contains_namespace_ptx(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find("namespace") {
        let after = rest[at + "namespace".len()..].trim_start();
        if let Some(tail) = after.strip_prefix("ptx") {
            if tail.trim_start().starts_with('{') {
                return true;
            }
        }
        rest = &rest[at + "namespace".len()..];
    }
    false
}

/// Whether the file is one of the CUDA headers that implement the intrinsics with inline PTX
/// (`sm_32_intrinsics.hpp`, `cuda_fp16.hpp`, clang's `__clang_cuda_*.h`...).
pub fn implements_cuda_intrinsics(cx: &crate::Ctx) -> bool {
    let path = cx.file.path.to_string_lossy().replace('\\', "/");
    let name = path.rsplit('/').next().unwrap_or("");
    (name.starts_with("sm_") && name.contains("_intrinsics"))
        || name.starts_with("sm_") && name.contains("_rt.")
        || name.starts_with("cuda_fp16")
        || name.starts_with("cuda_bf16")
        || name.starts_with("cuda_fp8")
        || name.starts_with("__clang_cuda_")
        || name.starts_with("device_functions")
        || name.starts_with("cuda_device_runtime_api")
        || path.contains("/crt/")
}

/// The data rows of a tab-separated table: the header line, `#` comments and blank lines
/// skipped; rows with fewer than `min_columns` columns dropped.
pub fn tsv_rows(text: &str, min_columns: usize) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .skip(1)
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split('\t').collect::<Vec<&str>>())
        .filter(move |cols| cols.len() >= min_columns)
}

/// Where a [`FormPattern`] match is reported and how it is named: the special register it
/// reads (`reading `%clock64``) or the opcode.
pub fn matched_form(
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
