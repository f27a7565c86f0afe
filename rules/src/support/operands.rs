//! Where and how a template uses its asm operands: placeholder references, the operand
//! slots of an instruction's ISA form, the operands used as memory addresses; and which
//! operands are one rule's mistake that another leaves alone (a register of the wrong size,
//! a Triton call's inputs miscounted).

use ptxguard_analyzer::cpp::types::{CppClass, CppType};
use ptxguard_analyzer::cpp::{AsmOperand, AsmStatement, PythonApi};
use ptxguard_analyzer::isa::{register_bits, InstrForm, OperandInfo, Role, StateSpace};
use ptxguard_analyzer::ptx::{
    Instruction, Operand, OperandKind, Percent, PercentKind, PlaceholderTarget,
};
use std::ops::Range;

/// Every placeholder reference in the template, with its decoded range.
pub(crate) fn placeholder_refs(
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
pub(crate) fn target_index(stmt: &AsmStatement, target: &PlaceholderTarget) -> Option<usize> {
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

/// Each written operand with what the form expects there (`None` past the form's operands).
pub(crate) fn operand_slots<'a, 'f>(
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
pub(crate) struct AddressUse<'a> {
    pub(crate) instr: &'a Instruction,
    /// The operand of the instruction holding the address (`[%1+16]`).
    pub(crate) operand: &'a Operand,
    pub(crate) asm: &'a AsmOperand,
    /// The state space addressed.
    pub(crate) space: StateSpace,
    /// The ISA's name of the operand (`[a]`, `[srcMem]`); `a` for a `cvta` source.
    pub(crate) slot_name: &'static str,
    /// A `cvta` source register rather than a bracketed address.
    pub(crate) cvta_source: bool,
}

/// The placeholder at the base of an address operand: `[%1]`, `[%1+16]`, and the first element
/// of an address list (`[%0, {%1, %2}]`: the tensor map). `None` for symbols and immediates.
pub(crate) fn address_base(operand: &Operand) -> Option<&Operand> {
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
pub(crate) fn address_uses(stmt: &AsmStatement) -> Vec<AddressUse<'_>> {
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
                asm,
                space,
                slot_name: name,
                cvta_source: false,
            });
        }
    }
    out
}

/// A C++ statement with a matching constraint (`"0"(x)`): nvcc rejects it
/// (`unsupported-constraint`), so what its operands would do is not worth a second finding.
/// (Python calls' ties are read as the read-write outputs they are.)
pub(crate) fn has_matching_constraint(stmt: &AsmStatement) -> bool {
    !stmt.in_python()
        && stmt.inputs.iter().any(|i| {
            i.constraint.known
                && i.constraint
                    .letters()
                    .starts_with(|c: char| c.is_ascii_digit())
        })
}

/// The operand's constraint letter, its register's size and the operand's C++ type, when both
/// sizes are known and judged.
pub(crate) fn sizes(op: &AsmOperand) -> Option<(char, u16, &CppType)> {
    let letter = op.constraint.letter()?;
    let reg_bits = register_bits(letter)?;
    let ty = op.ty.ty.as_ref()?;
    // Structs and one-byte types: nvcc's rules for them were not measured.
    if ty.class == CppClass::Aggregate || ty.bits < 16 {
        return None;
    }
    Some((letter, reg_bits, ty))
}

/// The operands whose register is not their C++ type's size: `operand-size-mismatch` reports
/// them, and `operand-type-mismatch` leaves them alone (one mistake, said once).
pub(crate) fn wrong_size_operands(stmt: &AsmStatement) -> Vec<usize> {
    stmt.operands()
        .filter(|op| sizes(op).is_some_and(|(_, reg_bits, ty)| ty.bits != reg_bits))
        .map(|op| op.index)
        .collect()
}

/// Whether Triton cannot pass `inputs` registers for `args` arguments at `pack`: one each at
/// least, `pack` each at most.
pub(crate) fn input_count_wrong(inputs: usize, args: usize, pack: u32) -> bool {
    let (got, n) = (inputs as u32, args as u32);
    got < n || got > n.saturating_mul(pack)
}

/// Whether a Triton call's input constraints are too many or too few for its arguments:
/// `pack-mismatch` reports it, and `unused-operand` leaves those inputs to it (one mistake,
/// said once).
pub(crate) fn wrong_input_count(stmt: &AsmStatement) -> bool {
    let Some(call) = stmt.python() else {
        return false;
    };
    if call.api != PythonApi::TritonElementwise {
        return false;
    }
    match (call.pack, &call.args) {
        (Some((_, Some(pack))), Some(args)) if pack > 0 => {
            input_count_wrong(stmt.inputs.len(), args.len(), pack)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::ptx::{parse, PercentMode};
    use ptxguard_analyzer::statements::find_asm_statements;
    use ptxguard_analyzer::SourceFile;

    fn statement(asm: &str) -> AsmStatement {
        let text = format!("__device__ void f(int a, int b, int c, long p, long q) {{ {asm}; }}\n");
        find_asm_statements(&SourceFile::new("t.cu", text)).remove(0)
    }

    #[test]
    fn placeholder_references_and_the_operands_they_bind() {
        let stmt = statement(
            r#"asm("add.u32 %0, %1, %[x];\n mov.u32 %5, %%clock;" : "=r"(a) : "r"(b), [x] "r"(c))"#,
        );
        let refs: Vec<(&str, Option<usize>)> = placeholder_refs(&stmt)
            .iter()
            .map(|(target, range, _)| {
                (
                    &stmt.template.text[range.clone()],
                    target_index(&stmt, target),
                )
            })
            .collect();
        // `%%clock` is no placeholder; `%5` binds nothing (three operands).
        assert_eq!(
            refs,
            [
                ("%0", Some(0)),
                ("%1", Some(1)),
                ("%[x]", Some(2)),
                ("%5", None)
            ]
        );
        assert_eq!(
            target_index(&stmt, &PlaceholderTarget::Name("y".into())),
            None
        );
    }

    #[test]
    fn operand_slots_follow_the_form_and_end_with_it() {
        let stmt = statement(r#"asm("mad.lo.u32 %0, %1, %2, %0, %1;" : "+r"(a) : "r"(b), "r"(c))"#);
        let (_, instr) = stmt.ptx.instructions().next().unwrap();
        let form = instr.known_form().unwrap();
        let roles: Vec<Option<Role>> = operand_slots(instr, form)
            .iter()
            .map(|(_, _, slot)| slot.map(|s| s.role))
            .collect();
        assert_eq!(
            roles,
            [
                Some(Role::Dst),
                Some(Role::Src),
                Some(Role::Src),
                Some(Role::Src),
                None
            ]
        );
    }

    #[test]
    fn the_base_of_an_address_is_its_first_placeholder() {
        let text = "ld.u32 %0, [%1+16]; ld.u32 %0, [sym+4]; foo [%2, {%3, %4}]; ld.u32 %0, [%5];";
        let ptx = parse(text, PercentMode::WithOperands);
        let bases: Vec<Option<&str>> = ptx
            .instructions()
            .map(|(_, instr)| {
                let address = instr.operands.last().unwrap();
                address_base(address).map(|b| &text[b.span.clone()])
            })
            .collect();
        assert_eq!(bases, [Some("%1"), None, Some("%2"), Some("%5")]);
        // Not an address.
        let (_, ld) = ptx.instructions().next().unwrap();
        assert!(address_base(&ld.operands[0]).is_none());
    }

    #[test]
    fn address_uses_with_their_state_spaces() {
        let stmt = statement(
            r#"asm volatile("ld.global.u32 %0, [%1+16];\n st.shared.u32 [%2], %0;\n cvta.to.global.u64 %3, %4;\n ld.u32 %0, [sym];\n ld.u32 %0, [%1];" : "=r"(a) : "l"(p), "r"(b), "l"(q), "l"(p))"#,
        );
        let uses: Vec<(usize, StateSpace, bool, &str)> = address_uses(&stmt)
            .iter()
            .map(|u| {
                (
                    u.asm.index,
                    u.space,
                    u.cvta_source,
                    &stmt.template.text[u.operand.span.clone()],
                )
            })
            .collect();
        assert_eq!(
            uses,
            [
                (1, StateSpace::Global, false, "[%1+16]"),
                (2, StateSpace::Shared, false, "[%2]"),
                (4, StateSpace::Generic, true, "%4"),
                (1, StateSpace::Generic, false, "[%1]"),
            ]
        );
    }
}
