//! PTX: an error-tolerant lexer and parser for one asm template.
//!
//! [`parse`] never fails and never panics: what it cannot make sense of becomes a
//! [`SyntaxError`], and parsing goes on after it.

mod lexer;
pub mod model;
mod parser;

pub use model::*;

/// Stands in the template text for a piece that could not be known statically (the same byte
/// as [`crate::template::HOLE`]).
pub const HOLE: char = '\u{1}';

/// Parses one decoded asm template (`text` exactly as the compiler sees it).
pub fn parse(text: &str, mode: PercentMode) -> Ptx {
    parser::parse(text, mode)
}

/// The special registers of the PTX ISA (9.0), without the `%`. Those in
/// [`VECTOR_SPECIAL_REGISTERS`] also take a `.x`/`.y`/`.z` component.
pub const SPECIAL_REGISTERS: &[&str] = &[
    "tid",
    "ntid",
    "laneid",
    "warpid",
    "nwarpid",
    "ctaid",
    "nctaid",
    "smid",
    "nsmid",
    "gridid",
    "is_explicit_cluster",
    "clusterid",
    "nclusterid",
    "cluster_ctaid",
    "cluster_nctaid",
    "cluster_ctarank",
    "cluster_nctarank",
    "lanemask_eq",
    "lanemask_le",
    "lanemask_lt",
    "lanemask_ge",
    "lanemask_gt",
    "clock",
    "clock_hi",
    "clock64",
    "pm0",
    "pm1",
    "pm2",
    "pm3",
    "pm4",
    "pm5",
    "pm6",
    "pm7",
    "pm0_64",
    "pm1_64",
    "pm2_64",
    "pm3_64",
    "pm4_64",
    "pm5_64",
    "pm6_64",
    "pm7_64",
    "envreg0",
    "envreg1",
    "envreg2",
    "envreg3",
    "envreg4",
    "envreg5",
    "envreg6",
    "envreg7",
    "envreg8",
    "envreg9",
    "envreg10",
    "envreg11",
    "envreg12",
    "envreg13",
    "envreg14",
    "envreg15",
    "envreg16",
    "envreg17",
    "envreg18",
    "envreg19",
    "envreg20",
    "envreg21",
    "envreg22",
    "envreg23",
    "envreg24",
    "envreg25",
    "envreg26",
    "envreg27",
    "envreg28",
    "envreg29",
    "envreg30",
    "envreg31",
    "globaltimer",
    "globaltimer_lo",
    "globaltimer_hi",
    "reserved_smem_offset_begin",
    "reserved_smem_offset_end",
    "reserved_smem_offset_cap",
    "reserved_smem_offset_0",
    "reserved_smem_offset_1",
    "total_smem_size",
    "aggr_smem_size",
    "dynamic_smem_size",
    "current_graph_exec",
];

/// Special registers that are vectors: `%tid.x`, `%ctaid.y`, `%cluster_nctaid.z`.
pub const VECTOR_SPECIAL_REGISTERS: &[&str] = &[
    "tid",
    "ntid",
    "ctaid",
    "nctaid",
    "clusterid",
    "nclusterid",
    "cluster_ctaid",
    "cluster_nctaid",
];

/// True for a special register name written without its `%`: `tid.x`, `laneid`, `clock64`.
pub fn is_special_register(name: &str) -> bool {
    match name.split_once('.') {
        None => SPECIAL_REGISTERS.contains(&name),
        Some((base, component)) => {
            matches!(component, "x" | "y" | "z" | "w") && VECTOR_SPECIAL_REGISTERS.contains(&base)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hole_is_the_template_hole() {
        assert_eq!(HOLE, crate::template::HOLE);
    }

    #[test]
    fn special_register_names() {
        for name in [
            "tid.x",
            "ntid.y",
            "laneid",
            "clock64",
            "globaltimer",
            "smid",
            "warpid",
        ] {
            assert!(is_special_register(name), "{name}");
        }
        for name in [
            "lanemask_lt",
            "dynamic_smem_size",
            "cluster_ctarank",
            "envreg31",
            "pm7_64",
        ] {
            assert!(is_special_register(name), "{name}");
        }
        for name in ["tid.q", "laneid.x", "r1", "clock65", "p", ""] {
            assert!(!is_special_register(name), "{name}");
        }
    }
}
