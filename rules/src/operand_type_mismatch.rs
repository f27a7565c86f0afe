use crate::support::front_end::ForStatement;
use crate::support::{
    diagnostics::{diagnostic, template_span},
    fixes::replace_constraint_letter,
    operands::operand_slots,
};
use crate::Ctx;
use ptxguard_analyzer::cpp::types::CppClass;
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement};
use ptxguard_analyzer::isa::{
    constraint_fits, register_bits, register_type, InstrForm, OperandInfo, PtxType, Role, TypeClass,
};
use ptxguard_analyzer::ptx::{Instruction, Operand, OperandKind};
use ptxguard_analyzer::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Flags an operand whose constraint's register class does not fit the PTX type the
    /// instruction expects at that position, by the type-checking rules ptxas applies:
    /// - `h`, `r`, `l`, `q` are `.b16`, `.b32`, `.b64`, `.b128` registers: a bit type agrees
    ///   with any type of the same size, so `"r"` on an `.f32` operand is fine;
    /// - `f` is an `.f32` register and fits only `.f32` and `.b32`, not packed `.f16x2`
    ///   (measured with ptxas 13.0: `Arguments mismatch` in `add`, `cvt`,
    ///   `multimem.ld_reduce`, `multimem.red`, `multimem.st`); `d` is `.f64` and fits only
    ///   `.f64` and `.b64`. Alternate formats such as `.bf16x2` are bit-typed and accept `f`
    ///   (ptxas accepts `.f32` registers for `multimem.ld_reduce ... .bf16x2`);
    /// - `ld`, `st`, `cvt` (and the other instructions the ISA allows) accept a register
    ///   wider than the instruction type: `ld.global.u16` into `"r"`, `ld.u32` into `"l"`,
    ///   `cvt.f32.f16` from `"r"`;
    /// - vector operands are checked element by element (`ld.v4.f32 {%0, %1, %2, %3}`).
    ///
    /// Instructions the ISA table cannot resolve, and operands whose type the opcode does
    /// not say, are left alone. A 32-bit register used as a 64-bit address is
    /// `address-register-width`'s finding, and a register whose size differs from its C++
    /// operand's (or, in Python, from the call's dtype and `pack`) `operand-size-mismatch`'s.
    /// In a Python call the same wrong letter on several operands is one finding, at the
    /// first (the constraints are one string: a misread `pack` repeats one mistake).
    ///
    /// ## Why is this bad?
    /// ptxas rejects it with `Arguments mismatch for instruction '...'`, reported at a line
    /// of the generated `.ptx`, not of your source. Measured with nvcc 13.0: `add.f64` with
    /// `"r"` inputs, `add.u64` with an `"r"` input, `add.u32` with an `"f"` input, `add.u16`
    /// with `"r"`, `add.u32` with `"h"`, `mov.b32` with an `"l"` source.
    ///
    /// ## Example
    /// ```cuda
    /// unsigned r; float b;
    /// asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "f"(b));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(__float_as_uint(b)));
    /// ```
    ///
    /// ## Fix
    /// Unsafe: the letter that fits both the PTX type and the size of the C++ operand, when
    /// there is exactly one (`"d"` on `add.u64` becomes `"l"`). Changing the letter changes
    /// how the value is passed; check that the bits are what the instruction should see.
    ///
    /// ## In Python
    /// Applies to Triton, MLIR and `inline_ptx` calls as on C++: the register class is the
    /// constraint letter's (`f` is `.f32`, `r` `.b32`...), for `inline_ptx` the one MLIR picks
    /// from the type (`Int64` is `l`). No fix on those calls (it edits the C++ constraint).
    /// In flashinfer's Python it found one (`cvta.to.shared.u32` from an `l` source,
    /// docs/python.md). C++ held
    /// in a Python string is checked as C++, with the span (and the fix, where one is
    /// offered) inside the literal.
    pub(crate) static META = {
        name: "operand-type-mismatch",
        severity: Error,
        fix: Unsafe,
        default_enabled: true,
        summary: "constraint register class does not fit the PTX operand type",
    }
}

/// One mismatching use of an asm operand.
struct Mismatch<'a> {
    instr: &'a Instruction,
    placeholder: &'a Operand,
    ty: PtxType,
    wide: bool,
    slot_name: &'static str,
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let source = cx.source();
    for stmt in cx.ptx_statements() {
        let mut skip: Vec<usize> = crate::support::address_width::too_narrow_addresses(stmt)
            .iter()
            .map(|uses| uses[0].asm.index)
            .collect();
        skip.extend(crate::support::operands::wrong_size_operands(stmt));
        let mut found: Vec<(&AsmOperand, Vec<Mismatch>)> = Vec::new();
        for (_, instr) in stmt.ptx.instructions() {
            let Some(form) = instr.known_form() else {
                continue;
            };
            for m in mismatches(stmt, instr, form) {
                let Some(p) = m.placeholder.placeholder() else {
                    continue;
                };
                let Some(op) = stmt.resolve(p) else { continue };
                if skip.contains(&op.index) {
                    continue;
                }
                match found.iter_mut().find(|(o, _)| o.index == op.index) {
                    Some((_, v)) => v.push(m),
                    None => found.push((op, vec![m])),
                }
            }
        }
        // In Python the constraints are one string: the same wrong letter through it (a
        // `pack` misread) is one mistake, reported once at its first operand.
        let mut groups: Vec<Vec<(&AsmOperand, Vec<Mismatch>)>> = Vec::new();
        for (op, uses) in found {
            let same = |g: &Vec<(&AsmOperand, Vec<Mismatch>)>| {
                stmt.in_python()
                    && g[0].0.constraint.letter() == op.constraint.letter()
                    && g[0].1[0].ty == uses[0].ty
            };
            match groups.iter_mut().find(|g| same(g)) {
                Some(g) => g.push((op, uses)),
                None => groups.push(vec![(op, uses)]),
            }
        }
        for mut group in groups {
            let others = group.split_off(1);
            let (op, uses) = group.pop().expect("a group has a first operand");
            let letter = op.constraint.letter().unwrap_or('?');
            let first = &uses[0];
            let class = match register_type(letter) {
                Some(t) if t.is_float() => format!("an `{t}` register"),
                Some(t) => format!("a {}-bit `{t}` register", t.bits),
                None => "a register".to_string(),
            };
            let why = if register_bits(letter).is_some_and(|b| b == first.ty.bits) {
                format!("`{letter}` is {class}, which does not fit `{}`", first.ty)
            } else if register_bits(letter).is_some_and(|b| b > first.ty.bits) && !first.wide {
                format!(
                    "`{letter}` is {class}; `{}` expects a {}-bit `{}` and takes no wider register",
                    first.instr.base(),
                    first.ty.bits,
                    first.ty
                )
            } else {
                format!(
                    "`{letter}` is {class}; `{}` expects a {}-bit `{}`",
                    first.instr.base(),
                    first.ty.bits,
                    first.ty
                )
            };
            let mut d = diagnostic(
                &META,
                op.constraint.span,
                format!(
                    "{why} (operand `{}` of `{}`)",
                    first.slot_name, first.instr.opcode
                ),
            )
            .with_note(format!(
                "ptxas rejects it: `Arguments mismatch for instruction '{}'`",
                first.instr.base()
            ));
            for m in uses.iter().chain(others.iter().flat_map(|(_, u)| u)) {
                d = d.with_label(
                    template_span(stmt, m.placeholder.span.clone()),
                    format!("`{}` expects `{}` here", m.instr.opcode, m.ty),
                );
            }
            for (other, _) in &others {
                d = d.with_label(other.constraint.span, format!("`{letter}` here too"));
            }
            // One fix for the group: each operand's letter, when one letter fits them all.
            let right = right_letter(op, &uses);
            let all = others
                .iter()
                .all(|(o, u)| right.is_some() && right_letter(o, u) == right);
            if let (Some(right), true) = (right, all) {
                if right != letter {
                    let edits: Option<Vec<_>> = std::iter::once(op)
                        .chain(others.iter().map(|(o, _)| *o))
                        .map(|o| replace_constraint_letter(source, o, right))
                        .collect();
                    if let Some(edits) = edits {
                        d = d.cpp_fix_for(stmt, Fix::unsafe_(format!("use `{right}`"), edits));
                    }
                }
            }
            out.push(d);
        }
    }
}

/// The register letters, with the type nvcc declares for each.
const LETTERS: &[char] = &['h', 'r', 'l', 'q', 'f', 'd'];

/// The one letter that fits every use and the C++ operand's size, if there is exactly one.
fn right_letter(op: &AsmOperand, uses: &[Mismatch]) -> Option<char> {
    let cpp = op.ty.ty.as_ref();
    let mut candidates: Vec<char> = LETTERS
        .iter()
        .copied()
        .filter(|&l| uses.iter().all(|m| constraint_fits(l, m.ty, false)))
        .filter(|&l| match cpp {
            Some(t) => register_bits(l) == Some(t.bits),
            None => true,
        })
        // nvcc wants a float register for `float`/`double` and an integer one for integers,
        // even at the same size (operand-size-mismatch's rule).
        .filter(|&l| match cpp {
            Some(t) if matches!(&*t.spelling, "float" | "double") => matches!(l, 'f' | 'd'),
            Some(t)
                if matches!(
                    t.class,
                    CppClass::Signed | CppClass::Unsigned | CppClass::Bool | CppClass::Pointer
                ) =>
            {
                !matches!(l, 'f' | 'd')
            }
            _ => true,
        })
        .collect();
    if candidates.len() > 1 {
        if let Some(t) = cpp {
            let float = t.class == CppClass::Float;
            candidates.retain(|l| matches!(l, 'f' | 'd') == float);
        }
    }
    match candidates.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// The uses of asm operands in this instruction whose register class does not fit.
fn mismatches<'a>(
    stmt: &'a AsmStatement,
    instr: &'a Instruction,
    form: &InstrForm,
) -> Vec<Mismatch<'a>> {
    let mut out = Vec::new();
    for (_, operand, slot) in operand_slots(instr, form) {
        let Some(slot) = slot else { continue };
        for (placeholder, types, name) in typed_placeholders(operand, slot) {
            let Some(p) = placeholder.placeholder() else {
                continue;
            };
            let Some(op) = stmt.resolve(p) else { continue };
            if !op.constraint.known {
                continue;
            }
            let Some(letter) = op.constraint.letter() else {
                continue;
            };
            if register_bits(letter).is_none() {
                continue;
            }
            // Predicates never take an asm register (a different mistake), and sub-byte
            // types are not judged.
            if types.iter().any(|t| t.is_pred() || t.bits < 8) {
                continue;
            }
            if types
                .iter()
                .any(|&t| constraint_fits(letter, t, form.wide_registers))
            {
                continue;
            }
            out.push(Mismatch {
                instr,
                placeholder,
                ty: types[0],
                wide: form.wide_registers,
                slot_name: name,
            });
        }
    }
    out
}

/// The placeholders written at one operand position, each with the PTX types that may be
/// expected for it (the slot's reading and, where the ISA allows another, that one).
fn typed_placeholders<'a>(
    operand: &'a Operand,
    slot: &OperandInfo,
) -> Vec<(&'a Operand, Vec<PtxType>, &'static str)> {
    let mut out = Vec::new();
    if !matches!(slot.role, Role::Dst | Role::Src | Role::DstSrc) {
        return out;
    }
    let alt = slot
        .alt
        .filter(|a| matches!(a.role, Role::Dst | Role::Src | Role::DstSrc));
    match &operand.kind {
        OperandKind::Placeholder(_) => {
            // A scalar where a vector of several registers is expected is ptx-syntax's.
            if slot.vector.is_some_and(|n| n > 1) {
                return out;
            }
            let Some(ty) = slot.ty else { return out };
            let mut types = vec![ty];
            if let Some(a) = &slot.alt {
                match (a.role, a.ty) {
                    (Role::Dst | Role::Src | Role::DstSrc, Some(t)) => types.push(t),
                    // Another kind of operand (an address, a predicate): not judged.
                    _ => return out,
                }
            }
            out.push((operand, types, slot.name));
        }
        OperandKind::Vector(items) => {
            let (ty, per_element) = if slot.vector.is_some() || slot.fragment {
                (slot.ty, true)
            } else if slot.packable {
                (slot.ty, false)
            } else if let Some(a) = alt.filter(|a| a.fragment) {
                (a.ty, true)
            } else {
                return out;
            };
            let Some(ty) = ty else { return out };
            let elem = if per_element {
                ty
            } else {
                if items.is_empty() || ty.bits % items.len() as u16 != 0 {
                    return out;
                }
                PtxType::new(TypeClass::Bits, ty.bits / items.len() as u16)
            };
            for item in items {
                if matches!(item.kind, OperandKind::Placeholder(_)) {
                    out.push((item, vec![elem], slot.name));
                }
            }
        }
        OperandKind::Pair(first, _) => {
            if let (OperandKind::Placeholder(_), Some(ty)) = (&first.kind, slot.ty) {
                out.push((first.as_ref(), vec![ty], slot.name));
            }
        }
        _ => {}
    }
    out
}
