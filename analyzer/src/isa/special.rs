//! PTX special registers (ISA chapter 10).

use super::types::{PtxType, TypeClass};

/// A special register: `%tid.x`, `%clock64`, `%laneid`...
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecialRegister {
    /// Name without `%` and without a component (`tid`, `clock64`, `pm3`, `envreg7`).
    pub name: &'static str,
    /// Type of the value read (of one component for vector registers).
    pub ty: PtxType,
    /// A `.v4` register read by component (`%tid.x`, `.y`, `.z`; `.w` is unused).
    pub vector: bool,
    /// The value changes while the thread runs (`%clock`, `%clock64`, `%globaltimer`,
    /// performance counters): two reads may differ, so the reading asm must be `volatile`.
    pub changes_over_time: bool,
    /// The ISA warns the value may change during execution without being a clock
    /// (`%smid`, `%warpid`: the thread may be rescheduled on another SM or warp slot).
    pub may_change: bool,
    pub min_ptx: u16,
    pub min_sm: u16,
}

const U32: PtxType = PtxType::new(TypeClass::Unsigned, 32);
const U64: PtxType = PtxType::new(TypeClass::Unsigned, 64);
const B32: PtxType = PtxType::new(TypeClass::Bits, 32);

const fn reg(name: &'static str, ty: PtxType, min_ptx: u16, min_sm: u16) -> SpecialRegister {
    SpecialRegister {
        name,
        ty,
        vector: false,
        changes_over_time: false,
        may_change: false,
        min_ptx,
        min_sm,
    }
}
const fn vec4(name: &'static str, min_ptx: u16, min_sm: u16) -> SpecialRegister {
    SpecialRegister {
        vector: true,
        ..reg(name, U32, min_ptx, min_sm)
    }
}
const fn clock(name: &'static str, ty: PtxType, min_ptx: u16, min_sm: u16) -> SpecialRegister {
    SpecialRegister {
        changes_over_time: true,
        ..reg(name, ty, min_ptx, min_sm)
    }
}
const fn moving(name: &'static str, min_ptx: u16) -> SpecialRegister {
    SpecialRegister {
        may_change: true,
        ..reg(name, U32, min_ptx, 0)
    }
}

/// Every special register of PTX ISA 9.0 (the numbered families `%pm0..7`, `%pm0_64..7_64`,
/// `%envreg0..31` are matched by prefix).
pub static SPECIAL_REGISTERS: &[SpecialRegister] = &[
    vec4("tid", 20, 0),
    vec4("ntid", 20, 0),
    reg("laneid", U32, 13, 0),
    moving("warpid", 13),
    reg("nwarpid", U32, 20, 20),
    vec4("ctaid", 20, 0),
    vec4("nctaid", 20, 0),
    moving("smid", 13),
    reg("nsmid", U32, 20, 20),
    reg("gridid", U64, 30, 0),
    reg("is_explicit_cluster", PtxType::PRED, 78, 90),
    vec4("clusterid", 78, 90),
    vec4("nclusterid", 78, 90),
    vec4("cluster_ctaid", 78, 90),
    vec4("cluster_nctaid", 78, 90),
    reg("cluster_ctarank", U32, 78, 90),
    reg("cluster_nctarank", U32, 78, 90),
    reg("lanemask_eq", U32, 20, 20),
    reg("lanemask_le", U32, 20, 20),
    reg("lanemask_lt", U32, 20, 20),
    reg("lanemask_ge", U32, 20, 20),
    reg("lanemask_gt", U32, 20, 20),
    clock("clock", U32, 10, 0),
    clock("clock_hi", U32, 50, 20),
    clock("clock64", U64, 20, 20),
    clock("globaltimer", U64, 31, 0),
    clock("globaltimer_lo", U32, 31, 0),
    clock("globaltimer_hi", U32, 31, 0),
    reg("reserved_smem_offset_begin", B32, 76, 0),
    reg("reserved_smem_offset_end", B32, 76, 0),
    reg("reserved_smem_offset_cap", B32, 76, 0),
    reg("reserved_smem_offset_0", B32, 76, 0),
    reg("reserved_smem_offset_1", B32, 76, 0),
    reg("total_smem_size", U32, 41, 20),
    reg("aggr_smem_size", U32, 81, 90),
    reg("dynamic_smem_size", U32, 41, 20),
    reg("current_graph_exec", U64, 80, 50),
];

static PM32: SpecialRegister = clock("pm", U32, 13, 0);
static PM64: SpecialRegister = clock("pm_64", U64, 40, 0);
static ENVREG: SpecialRegister = reg("envreg", B32, 21, 0);

/// Looks up a special register by name, with or without `%` (or `%%`), with or without a
/// component: `%tid.x`, `tid`, `%%clock64`, `%pm3`, `%pm0_64`, `%envreg5`.
pub fn special_register(name: &str) -> Option<SpecialRegister> {
    let name = name.trim_start_matches('%');
    let (base, component) = match name.split_once('.') {
        Some((b, c)) => (b, Some(c)),
        None => (name, None),
    };
    if let Some(r) = SPECIAL_REGISTERS.iter().find(|r| r.name == base) {
        return match component {
            None => Some(*r),
            Some("x" | "y" | "z" | "w") if r.vector => Some(*r),
            Some(_) => None,
        };
    }
    if component.is_some() {
        return None;
    }
    // `%pm3`, `%envreg31`: the number written plainly (no sign, no leading zero).
    let numbered = |prefix: &str, suffix: &str, max: u32| -> bool {
        base.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()) && (*n == "0" || !n.starts_with('0')))
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n < max)
    };
    if numbered("pm", "_64", 8) {
        return Some(PM64);
    }
    if numbered("pm", "", 8) {
        return Some(PM32);
    }
    if numbered("envreg", "", 32) {
        return Some(ENVREG);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_registers() {
        let tid = special_register("%tid.x").unwrap();
        assert_eq!(tid.ty, U32);
        assert!(tid.vector && !tid.changes_over_time);
        assert!(special_register("%tid.q").is_none());
        let c = special_register("%%clock64").unwrap();
        assert_eq!(c.ty, U64);
        assert!(c.changes_over_time);
        assert!(special_register("clock").unwrap().changes_over_time);
        assert!(special_register("%globaltimer").unwrap().changes_over_time);
        assert!(special_register("%laneid").is_some());
        assert!(!special_register("%laneid").unwrap().changes_over_time);
        assert!(special_register("%smid").unwrap().may_change);
        assert_eq!(special_register("%pm3").unwrap().ty, U32);
        assert_eq!(special_register("%pm7_64").unwrap().ty, U64);
        assert!(special_register("%pm8").is_none());
        assert!(special_register("%envreg31").is_some());
        assert!(special_register("%envreg32").is_none());
        assert_eq!(
            special_register("%is_explicit_cluster").unwrap().ty,
            PtxType::PRED
        );
        assert_eq!(special_register("%cluster_ctarank").unwrap().min_sm, 90);
        assert!(special_register("%r1").is_none());
        // `%reserved_smem_offset_<2>` in the ISA declares `_0` and `_1`.
        assert!(special_register("%reserved_smem_offset_1").is_some());
        assert!(special_register("%reserved_smem_offset_2").is_none());
        for name in ["pm+3", "pm03", "envreg", "pm_64", "laneid.x", "clock65", ""] {
            assert!(special_register(name).is_none(), "{name}");
        }
        assert!(special_register("tid.w").is_some());
        assert!(special_register("pm0").is_some());
    }

    #[test]
    fn each_special_register_is_listed_once() {
        let mut names: Vec<&str> = SPECIAL_REGISTERS.iter().map(|r| r.name).collect();
        names.extend([PM32.name, PM64.name, ENVREG.name]);
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "a special register is listed twice");
    }
}
