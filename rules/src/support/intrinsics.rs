//! The CUDA intrinsics table (`data/cuda-intrinsics.tsv`) and the matching of an instruction
//! to the intrinsic that does exactly what it does: `prefer-intrinsic` reports it, and
//! `prefer-cuda-ptx` stays silent where an intrinsic is the better suggestion.

use crate::support::table_pattern::{
    expand_alternatives, substitute_alternatives, tsv_rows, FormPattern, InstrTokens, PatternIndex,
};
use ptxguard_analyzer::ptx::{Instruction, OperandKind};
use std::sync::OnceLock;

/// One row of the intrinsics table, expanded (no `{a,b}` left).
#[derive(Debug)]
pub(crate) struct IntrinsicRow {
    pub(crate) ptx: String,
    pub(crate) pattern: FormPattern,
    pub(crate) intrinsic: String,
    pub(crate) header: String,
    pub(crate) notes: String,
    /// The CUDA header implements the intrinsic with this same instruction as inline asm
    /// (no optimizer advantage), rather than as a compiler builtin.
    pub(crate) inline_asm: bool,
}

const TABLE: &str = include_str!("../../data/cuda-intrinsics.tsv");

/// The rows of `cuda-intrinsics.tsv` that name a CUDA intrinsic (rows that name a
/// `cuda::ptx` wrapper are `prefer-cuda-ptx`'s).
pub(crate) fn rows() -> &'static [IntrinsicRow] {
    static ROWS: OnceLock<Vec<IntrinsicRow>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut out = Vec::new();
        for cols in tsv_rows(TABLE, 4) {
            let (ptx, intrinsic, header) = (cols[0], cols[1], cols[2]);
            if intrinsic.starts_with("cuda::ptx::") {
                continue;
            }
            let notes = cols.get(4).copied().unwrap_or("");
            let inline_asm = cols.get(5).is_some_and(|c| c.trim() == "asm");
            for (form, chosen) in expand_alternatives(ptx) {
                out.push(IntrinsicRow {
                    pattern: FormPattern::parse(&form),
                    intrinsic: substitute_alternatives(intrinsic, &chosen),
                    ptx: form,
                    header: header.to_string(),
                    notes: notes.to_string(),
                    inline_asm,
                });
            }
        }
        out
    })
}

/// The intrinsic that does exactly what this instruction does, if there is one.
pub(crate) fn intrinsic_for(instr: &Instruction) -> Option<&'static IntrinsicRow> {
    if instr.partial || instr.guard.is_some() {
        return None;
    }
    // An intrinsic returns one value: forms that also write a predicate (`d|p`) differ.
    if instr
        .operands
        .iter()
        .any(|o| matches!(o.kind, OperandKind::Pair(..) | OperandKind::Unknown))
    {
        return None;
    }
    static INDEX: std::sync::OnceLock<PatternIndex> = std::sync::OnceLock::new();
    let rows = rows();
    let index = INDEX.get_or_init(|| PatternIndex::new(rows.iter().map(|r| &r.pattern)));
    let tokens = InstrTokens::of(instr);
    index
        .candidates(&tokens)
        .iter()
        .map(|&i| &rows[i])
        .find(|r| r.pattern.matches_tokens(&tokens, instr))
        .filter(|_| instr.base() != "shfl" || shuffle_clamp_is_a_width(instr))
}

/// Whether a `shfl.sync` clamp operand (`c`, the fourth) is the constant `__shfl_*_sync`
/// builds from a `width` argument: `((32 - width) << 8)`, with `0x1f` in the low bits for
/// every mode but `up` (clang's and CUDA's headers). Anything else, a runtime value above
/// all, has no intrinsic.
fn shuffle_clamp_is_a_width(instr: &Instruction) -> bool {
    let Some(OperandKind::Immediate(text)) = instr.operands.get(3).map(|o| &o.kind) else {
        return false;
    };
    let Some(clamp) = parse_int(text) else {
        return false;
    };
    let low = if instr.has(".up") { 0 } else { 0x1f };
    (0..=5).any(|log2| clamp == (((32 - (1u64 << log2)) << 8) | low))
}

fn parse_int(text: &str) -> Option<u64> {
    let t = text.trim().trim_end_matches(['U', 'u']);
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}
