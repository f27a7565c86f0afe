use crate::util::{add_memory_clobber, template_span};
use crate::Ctx;
use ptxguard_analyzer::{Diagnostic, Fix, Severity};

declare_rule! {
    /// ## What it does
    /// Flags an asm statement that reads or writes memory through an address operand
    /// (`ld`, `st`, `atom`, `red`, `ldmatrix`, `cp.async`, `mbarrier.*`...) or orders memory
    /// (`fence`, `membar`, `bar`, `barrier`, acquire/release forms, waits on asynchronous
    /// copies), without `"memory"` in its clobber list.
    ///
    /// - **error** when the asm is not `volatile` (an asm with outputs and no `volatile`);
    /// - **warning** when it is `volatile` (explicitly, or implicitly because it has no
    ///   outputs) and writes or orders memory: stores, atomics, reductions, asynchronous
    ///   copies, mbarrier operations, fences, barriers;
    /// - **info** when it is `volatile` and only reads memory.
    ///
    /// Not reported: hints that touch no memory the program sees (`prefetch`, `prefetchu`,
    /// `applypriority`, `cp.async.bulk.prefetch`), loads from memory that cannot change while
    /// the kernel runs (`ld.global.nc`, `ldu`, `.const`, `.param`, textures: no C++ store can
    /// be reordered against them), tensor memory (`tcgen05.ld`/`st` addresses are not C++
    /// memory), variables the template declares itself, and instructions whose memory traffic
    /// goes through descriptors rather than an address operand (`wgmma`).
    ///
    /// **In Python** it is not applied: Triton and MLIR calls order memory through their
    /// side-effect flag (`missing-volatile` judges it); what `~{memory}` adds there is not
    /// measured.
    ///
    /// ## Why is this bad?
    /// Without `"memory"` the compiler assumes the asm touches no memory but what its
    /// operands say, so it keeps C++ values in registers across it, and moves or merges C++
    /// loads and stores around it. Measured with nvcc 13.0: with `x = p[0];
    /// asm("atom.global.add.u32 ...")` (no `volatile`, no `"memory"`) and `y = p[0]` after it,
    /// the second load was merged with the first: `y - x` was 0 instead of 1; with
    /// `"memory"`, 1. `volatile` keeps the statement and its order among other volatile asm
    /// statements, but does not order it against ordinary C++ memory accesses: only
    /// `"memory"` does.
    ///
    /// ## Example
    /// ```cuda
    /// asm volatile("st.shared.u32 [%0], %1;" :: "r"(addr), "r"(v));
    /// ```
    /// Use instead:
    /// ```cuda
    /// asm volatile("st.shared.u32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
    /// ```
    ///
    /// ## Fix
    /// Safe: adds `"memory"` to the clobbers, creating the clobber list with the right number
    /// of colons (`asm volatile("bar.sync 0;")` becomes `asm volatile("bar.sync 0;" :::
    /// "memory")`).
    pub static META = {
        name: "missing-memory-clobber",
        severity: Error,
        fix: Safe,
        default_enabled: true,
        summary: "an asm that reads, writes or orders memory without a `\"memory\"` clobber",
    }
}

pub fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        // Python calls (Triton, MLIR) order memory through their side-effect flag, which
        // `missing-volatile` judges; what `~{memory}` adds there is not measured.
        if stmt.python().is_some() {
            continue;
        }
        if stmt.has_clobber("memory") {
            continue;
        }
        let flow = cx.flow(stmt);
        // The first instruction that writes or orders memory, else the first that reads it.
        let mut strongest: Option<(usize, crate::dataflow::MemoryUse)> = None;
        for i in 0..flow.steps.len() {
            let m = flow.memory_use(i);
            if !m.any() {
                continue;
            }
            let stronger = |m: &crate::dataflow::MemoryUse| m.writes || m.orders;
            match &strongest {
                None => strongest = Some((i, m)),
                Some((_, old)) if !stronger(old) && stronger(&m) => strongest = Some((i, m)),
                _ => {}
            }
        }
        let Some((i, m)) = strongest else {
            continue;
        };
        let volatile = stmt.is_volatile()
            || stmt.outputs.is_empty()
            || stmt.qualifiers.iter().any(|(q, _)| q == "goto");
        let severity = if !volatile {
            Severity::Error
        } else if m.writes || m.orders {
            Severity::Warning
        } else {
            Severity::Info
        };
        let instr = flow.steps[i].instr;
        let what = if m.writes {
            "writes memory"
        } else if m.orders {
            "orders memory"
        } else {
            "reads memory"
        };
        let mut d = Diagnostic::new(
            META.name,
            severity,
            stmt.keyword,
            format!(
                "asm {what} (`{}`) without a `\"memory\"` clobber: the compiler may move or merge C++ memory accesses across it",
                instr.opcode
            ),
        )
        .with_label(
            template_span(stmt, instr.opcode_span.clone()),
            format!("`{}` {what}", instr.opcode),
        );
        d = if volatile {
            d.with_note("`volatile` keeps the statement, but only `\"memory\"` orders it against C++ loads and stores")
        } else {
            d.with_note("measured with nvcc 13: a C++ load after a non-volatile atomic without `\"memory\"` was merged with the load before it")
        };
        if let Some(edit) = add_memory_clobber(stmt) {
            d = d.with_fix(Fix::safe("add a `\"memory\"` clobber", vec![edit]));
        }
        out.push(d);
    }
}
