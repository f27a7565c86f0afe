use crate::support::diagnostics::{diagnostic, template_span};
use crate::support::front_end::ForStatement;
use crate::Ctx;
use ptxguard_analyzer::build::toolkit::target_name;
use ptxguard_analyzer::build::CudaVersion;
use ptxguard_analyzer::context::targets::{in_arch_if, Guarded, TargetSource};
use ptxguard_analyzer::cpp::preproc::{leaves, CondExpr};
use ptxguard_analyzer::cpp::{AsmStatement, Origin};
use ptxguard_analyzer::isa::{special_register, ArchTarget, InstrForm, Target};
use ptxguard_analyzer::ptx::{Instruction, OperandKind};
use ptxguard_analyzer::Diagnostic;
use std::ops::Range;

declare_rule! {
    /// ## What it does
    /// Flags an instruction form (or special register) that needs a newer SM or PTX ISA
    /// than some target the statement is compiled for, when no guard excludes that target.
    /// Arch-specific forms count: `wgmma` needs `sm_90a`, `tcgen05` an `sm_100a`/`sm_100f`
    /// target, `setmaxnreg` one of the `a`/`f` targets from `sm_90a` on. Forms removed from
    /// newer targets count too (`shfl`, `vote` without `.sync` on `sm_70` and later); for
    /// them the help is the `.sync` form, not an older target.
    ///
    /// Targets are what the file is really built for, from (lowest priority first) the file
    /// itself, the build files (`setup.py` torch extensions, CMake, Makefiles, read statically
    /// and only when nothing else names the targets), `CUDAARCHS`, `TORCH_CUDA_ARCH_LIST`, the
    /// configuration (`target`, `[targets]` per glob), the compilation database
    /// (`compile_commands.json`: `-gencode`, `-arch`, `--offload-arch`...; a header gets the
    /// targets of the units that include it; an entry says what a build really compiles, so it
    /// wins over the configuration) and `--target`. `ptxguard check --show-settings FILE` says which
    /// applied, and names the build file and variant. A `setup.py` that picks different
    /// targets and `-D`s on an environment variable has build variants: the file is checked
    /// under each, and a finding only some variants have says which in its note.
    ///
    /// When none of these says anything, the targets are inferred: a file whose path names an
    /// architecture (`gemm_sm90a.cu`, `kernels/sm100/...`) or a product (`h100`, `gh200`:
    /// sm_90; `b200`: sm_100; `gb300`: sm_103) is built for that one, with its arch-specific
    /// features; otherwise the file is taken to be built for every target on which all the
    /// unguarded statements its kernels reach can build (a file using `tcgen05` unguarded is an
    /// `sm_100a`/`sm_100f` file, and its `cp.async` needs no guard). Then the only finding is a
    /// conflict: two unguarded forms no single target has (`wgmma`, sm_90a only, beside
    /// `tcgen05`), or a form the toolkit cannot emit at all. Or the file's own evidence: a
    /// guard that keeps an instruction from some targets (`#if __CUDA_ARCH__ >= 800` around
    /// `cp.async`, `NV_IF_TARGET(NV_PROVIDES_SM_90, ...)`) shows the file is built for one of
    /// them, so a statement its kernels compile that fails on every target that guard excludes
    /// (an unguarded `redux.sync` beside that `cp.async` guard) is a finding. A guard of
    /// `__CUDA_ARCH__ >= 900` says nothing about an unguarded `redux.sync`: the older target
    /// may be sm_80.
    ///
    /// The toolkit is CUDA 13.0 (PTX ISA 9.0) unless `cuda-version` (or `--cuda-version`) says
    /// otherwise or the database's nvcc belongs to another one (its `version.json`): under
    /// CUDA 12.6 (PTX ISA 8.5), a form that needs PTX ISA 8.6 is a finding.
    ///
    /// Asm is compiled only where its function is: a kernel always; another function when a
    /// call from a compiled function in the same file reaches it for that target (the call's
    /// own guards count: a helper called only under `#if __CUDA_ARCH__ >= 800` is guarded).
    /// With known targets, helpers of headers and helpers the file never calls count as
    /// compiled for every target (a header whose targets come from build files: for each
    /// target, those that the files built for it and including it call outside any `#if`;
    /// calls are matched by name, so a name members of several of the header's classes share
    /// is matched by none; free functions of one name, overloads or one per `#if` branch,
    /// are matched);
    /// without, they depend on code this file does not show and count as guarded. So does asm in an `if` whose condition is about the architecture
    /// (`if (cuda::device::current_arch_traits().cluster_supported)`).
    ///
    /// A guard is evaluated for each target, and excludes it when it is false there:
    /// - a preprocessor condition on `__CUDA_ARCH__` (`#if __CUDA_ARCH__ >= 900`, `#else`
    ///   branches included);
    /// - the feature macros `__CUDA_ARCH_FEAT_SM90_ALL` (defined for `sm_90a` only),
    ///   `__CUDA_ARCH_SPECIFIC__` (`a` targets) and `__CUDA_ARCH_FAMILY_SPECIFIC__` (`a` and
    ///   `f` targets);
    /// - `NV_IF_TARGET` / `NV_IF_ELSE_TARGET` / `NV_DISPATCH_TARGET` with `NV_PROVIDES_SM_XX`,
    ///   `NV_IS_EXACTLY_SM_XX`, `NV_HAS_FEATURE_SM_XXa`.
    ///
    /// `#if` conditions are evaluated with the build's `-D`/`-U` and the integer macros the
    /// file defines before them (`#define USE_TMA 0` makes `#if USE_TMA` false; a default,
    /// `#ifndef USE_TMA` `#define USE_TMA 0`, counts unless the build defines the macro), or
    /// that a header it includes before them defines (quoted includes beside the file, the
    /// others through the build's include folders; read only for a macro the file and the
    /// build leave unknown, at most 16 includes deep). A macro the file defines under architecture conditions (`#if __CUDA_ARCH__ >= 800`
    /// `#define HAS_CP_ASYNC 1`) is defined for the targets where they hold and undefined for
    /// the others. A branch that no target compiles is not checked by any rule (`ptxguard
    /// dump` says so).
    ///
    /// When in doubt the statement counts as guarded: a macro defined elsewhere whose name
    /// says it is an architecture guard (`CUTE_ARCH_MMA_SM90A_ENABLED`, `*_SM90_ENABLED`,
    /// `__CUDA_ARCH_...`), a macro this file defines from such conditions, a condition that
    /// cannot be evaluated. Conditions unrelated to the architecture (include guards,
    /// `#ifdef DEBUG`) exclude nothing.
    ///
    /// ## Why is this bad?
    /// ptxas rejects the whole translation unit for the older target, far from the asm.
    /// Measured with nvcc 13.0: `redux.sync` built for `sm_75` gives `Feature 'redux'
    /// requires .target sm_80 or higher`; `wgmma.fence` built for `sm_90` (not `sm_90a`)
    /// gives `Instruction 'wgmma.fence' not supported on .target 'sm_90'`. A guard of
    /// `__CUDA_ARCH__ >= 900` is not enough for `wgmma`: plain `sm_90` passes it.
    ///
    /// ## Example
    /// ```cuda
    /// __device__ void fence() {
    ///   asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    /// }
    /// ```
    /// Use instead:
    /// ```cuda
    /// __device__ void fence() {
    /// #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    ///   asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    /// #endif
    /// }
    /// ```
    ///
    /// ## In Python
    /// Not applied to Triton, MLIR and `inline_ptx` calls: the DSL compiles a kernel when it
    /// runs, for the GPU present, and Python may pick kernels by device at run time, which no
    /// guard shows. C++ in Python strings is judged as a C++ file: targets from the
    /// configuration, `--target`, `CUDAARCHS`, `TORCH_CUDA_ARCH_LIST` or the path (not the
    /// call's own `options=("-arch=...",)`, `extra_cuda_cflags`, `ProgramOptions(arch=)`).
    /// The C++ is read as C++ where the strings hold it (its `#if`s, functions and calls, with
    /// escapes decoded), not the Python around it. Each call's code is its own compilation (a
    /// `load_inline` source list is one): without configured targets, only statements of one
    /// compilation can conflict, so a kernel string per device is not reported.
    pub(crate) static META = {
        name: "arch-requirement",
        severity: Warning,
        fix: None,
        default_enabled: true,
        summary: "an instruction needing a newer SM or PTX ISA than an unguarded target",
    }
}

/// What one instruction or special register needs.
#[derive(Clone, Debug)]
struct Need<'a> {
    /// Decoded template range to point at.
    at: Range<usize>,
    /// The opcode, or the special register's name (after `%`).
    name: &'a str,
    special_register: bool,
    min_sm: u16,
    min_ptx: u16,
    arch: &'static [ArchTarget],
    /// `(ptx, sm)`: gone on targets of this SM or higher.
    removed_on: Option<(u16, u16)>,
    /// The instruction family (`shfl`), whose `.sync` form replaces a removed one.
    family: &'static str,
    /// What the ISA says of a deprecated form.
    deprecated: Option<&'static str>,
}

impl<'a> Need<'a> {
    fn from_form(instr: &'a Instruction, form: &InstrForm) -> Need<'a> {
        Need {
            at: instr.opcode_span.clone(),
            name: &instr.opcode,
            special_register: false,
            min_sm: form.min_sm,
            min_ptx: form.min_ptx,
            arch: form.arch_targets,
            removed_on: form.family.removed_on,
            family: form.family.name,
            deprecated: form.family.deprecated,
        }
    }

    /// `` `ld.global.nc` `` or `` `%clusterid` ``.
    fn what(&self) -> String {
        let percent = if self.special_register { "%" } else { "" };
        format!("`{percent}{}`", self.name)
    }

    fn supported_on(&self, t: &Target, cuda: CudaVersion) -> bool {
        let ptx_isa = cuda.ptx_isa();
        if self.min_ptx > ptx_isa || t.sm < self.min_sm {
            return false;
        }
        if let Some((ptx, sm)) = self.removed_on {
            if ptx_isa >= ptx && t.sm >= sm {
                return false;
            }
        }
        self.arch.is_empty() || self.arch.iter().any(|a| a.accepts(t))
    }

    /// What it needs, in words: `sm_80`, `sm_90a`, `sm_100a or sm_100f`...
    fn requirement(&self, cuda: CudaVersion) -> String {
        if let Some((ptx, sm)) = self.removed_on {
            return format!(
                "a target below sm_{sm} (it was removed for sm_{sm} and later in PTX ISA {}.{})",
                ptx / 10,
                ptx % 10
            );
        }
        let ptx_isa = cuda.ptx_isa();
        if self.min_ptx > ptx_isa {
            return format!(
                "PTX ISA {}.{} (CUDA {cuda} emits {}.{})",
                self.min_ptx / 10,
                self.min_ptx % 10,
                ptx_isa / 10,
                ptx_isa % 10
            );
        }
        if !self.arch.is_empty() {
            let names: Vec<String> = self
                .arch
                .iter()
                .map(|a| format!("sm_{}{}", a.sm, if a.family { 'f' } else { 'a' }))
                .collect();
            return match names.len() {
                1 => names[0].clone(),
                2 | 3 => format!("one of {}", names.join(", ")),
                n => format!(
                    "an arch-specific target ({}, ... {} in all)",
                    names[..2].join(", "),
                    n
                ),
            };
        }
        format!("sm_{}", self.min_sm)
    }
}

fn needs(stmt: &AsmStatement) -> Vec<Need<'_>> {
    let mut out = Vec::new();
    for (_, instr) in stmt.ptx.instructions() {
        if let Some(form) = instr.known_form() {
            out.push(Need::from_form(instr, form));
        }
        if instr.partial {
            continue;
        }
        for operand in &instr.operands {
            operand.walk(&mut |o| {
                if let OperandKind::Register {
                    name,
                    special: true,
                } = &o.kind
                {
                    if let Some(r) = special_register(name) {
                        out.push(Need {
                            at: o.span.clone(),
                            name,
                            special_register: true,
                            min_sm: r.min_sm,
                            min_ptx: r.min_ptx,
                            arch: &[],
                            removed_on: None,
                            family: "",
                            deprecated: None,
                        });
                    }
                }
            });
        }
    }
    out
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let ev = cx.targets();
    let cuda = ev.cuda;
    unknown_targets(cx, out);
    // Each statement's needs, and per target whether it is compiled there and fails.
    let mut rows: Vec<(&AsmStatement, Vec<Need>, Vec<bool>)> = Vec::new();
    // Statements whose guard excludes targets where they would fail: with inferred targets,
    // the file's own evidence that it is built for some of those targets.
    let mut evidence: Vec<Evidence> = Vec::new();
    let mut last: Option<(&AsmStatement, Vec<Guarded>)> = None;
    for stmt in cx.ptx_statements().filter(|s| !compiled_at_run_time(s)) {
        let needs = needs(stmt);
        if needs
            .iter()
            .all(|n| ev.targets.iter().all(|t| n.supported_on(t, cuda)))
        {
            continue;
        }
        // Statements of one `#if` region share their guards: the last evaluation is reused.
        let guards: Vec<Guarded> = match &last {
            Some((prev, g))
                if prev.context.conditions == stmt.context.conditions
                    && prev.context.nv_target == stmt.context.nv_target =>
            {
                g.clone()
            }
            _ => ev.targets.iter().map(|t| ev.guarded_for(stmt, t)).collect(),
        };
        let in_if = in_arch_if(stmt);
        let failing: Vec<bool> = ev
            .targets
            .iter()
            .zip(&guards)
            .map(|(t, &g)| {
                g == Guarded::No
                    && !in_if
                    && !needs.iter().all(|n| n.supported_on(t, cuda))
                    && match &stmt.context.function {
                        // Not in a function we recognised (or in a macro never used): in doubt.
                        None => false,
                        Some(f) => ev.function_compiled(&f.name, f.has("__global__"), t),
                    }
            })
            .collect();
        if ev.source == TargetSource::Unknown {
            if let Some(e) = Evidence::of(cx, stmt, &needs, &guards) {
                evidence.push(e);
            }
        }
        last = Some((stmt, guards));
        rows.push((stmt, needs, failing));
    }
    if ev.source == TargetSource::Unknown {
        // Each compilation apart: two C++ strings of one Python file are built separately
        // (a kernel per device is normal there), a C++ file is one unit.
        let mut units: Vec<(Option<u32>, Vec<_>)> = Vec::new();
        for row in rows {
            let u = unit(row.0);
            match units.iter_mut().find(|(v, _)| *v == u) {
                Some((_, in_unit)) => in_unit.push(row),
                None => units.push((u, vec![row])),
            }
        }
        for (u, in_unit) in &units {
            let in_unit_evidence: Vec<&Evidence> =
                evidence.iter().filter(|e| e.unit == *u).collect();
            let reported = own_evidence(cx, in_unit, &in_unit_evidence, out);
            let rest: Vec<_> = in_unit
                .iter()
                .filter(|(s, _, _)| !reported.iter().any(|r| std::ptr::eq(*r, *s)))
                .map(|(s, n, f)| (*s, n.clone(), f.clone()))
                .collect();
            conflicts(cx, &rest, out);
        }
        return;
    }
    // A target the known toolkit cannot compile for has its own finding (`unknown_targets`).
    let toolkit_known = cx.context.build.as_ref().is_some_and(|b| b.cuda.is_some());
    for (stmt, needs, failing) in &rows {
        let compiled: Vec<&Target> = ev
            .targets
            .iter()
            .zip(failing)
            .filter(|(t, f)| **f && (!toolkit_known || cuda.supports(t)))
            .map(|(t, _)| t)
            .collect();
        report(stmt, needs, &compiled, cuda, out);
    }
}

/// The compilation a statement belongs to: its C++ string in a Python file, else the file.
fn unit(stmt: &AsmStatement) -> Option<u32> {
    match stmt.origin {
        Origin::CppInPython { unit } => Some(unit),
        _ => None,
    }
}

/// Triton and CuTe DSL calls: compiled when the kernel runs, for the GPU present, with the
/// DSL's own toolchain, and Python picks kernels by device at run time (no guard shows it).
/// The file's targets and toolkit are its C++'s (in Python strings), not theirs.
fn compiled_at_run_time(stmt: &AsmStatement) -> bool {
    stmt.python().is_some()
}

/// Known targets the known toolkit does not compile for (`sm_100a` under CUDA 12.6): nvcc
/// stops before ptxas sees any asm. One finding per file, at its first PTX instruction.
fn unknown_targets(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    let ev = cx.targets();
    let Some(build) = cx.context.build.as_deref().filter(|b| b.cuda.is_some()) else {
        return;
    };
    if ev.source != TargetSource::Known {
        return;
    }
    let unknown: Vec<String> = ev
        .targets
        .iter()
        .filter(|t| !ev.cuda.supports(t))
        .map(target_name)
        .collect();
    let Some((stmt, instr)) = cx
        .ptx_statements()
        .filter(|s| !compiled_at_run_time(s))
        .find_map(|s| s.ptx.instructions().next().map(|(_, i)| (s, i)))
    else {
        return;
    };
    if unknown.is_empty() {
        return;
    }
    let from = if build.targets_from.is_empty() {
        String::new()
    } else {
        format!(" ({})", build.targets_from)
    };
    let cuda_from = if build.cuda_from.is_empty() {
        String::new()
    } else {
        format!(" ({})", build.cuda_from)
    };
    out.push(
        diagnostic(
            &META,
            template_span(stmt, instr.opcode_span.clone()),
            format!(
                "this file is built for {}{from}, which CUDA {}{cuda_from} does not compile for",
                unknown.join(", "),
                ev.cuda
            ),
        )
        .with_note("nvcc rejects the target before any asm is compiled; the statements are checked for the other targets only".to_string())
        .with_help("build with a toolkit that knows the target (`cuda-version`), or drop the target from the build".to_string()),
    );
}

/// A statement whose guard excludes targets where it would fail: the file shows it is built
/// for at least one of those targets (else the guard would not be needed).
struct Evidence {
    unit: Option<u32>,
    /// Per target of the evaluator: whether the guard excludes it.
    excluded: Vec<bool>,
    /// The guarded need, the guard's text and the statement's line.
    what: String,
    guard: String,
    line: usize,
}

impl Evidence {
    fn of(cx: &Ctx, stmt: &AsmStatement, needs: &[Need], guards: &[Guarded]) -> Option<Evidence> {
        let ev = cx.targets();
        let excluded: Vec<bool> = guards.iter().map(|g| *g == Guarded::Excluded).collect();
        // A guard about the architecture (it excludes some targets, not all) that keeps the
        // statement from a target where one of its needs fails.
        if excluded.iter().all(|e| *e) || !excluded.iter().any(|e| *e) {
            return None;
        }
        let need = needs.iter().find(|n| {
            ev.targets
                .iter()
                .zip(&excluded)
                .any(|(t, e)| *e && !n.supported_on(t, ev.cuda))
        })?;
        let guard = arch_guard(stmt)
            .map(|text| format!("`{text}`"))
            .or_else(|| {
                stmt.context
                    .nv_target
                    .first()
                    .map(|(q, _)| format!("`NV_IF_TARGET({q})`"))
            })?;
        Some(Evidence {
            unit: unit(stmt),
            excluded,
            what: need.what(),
            guard,
            line: cx.file.line_col(stmt.span.start as usize).0,
        })
    }
}

/// Inferred targets, and the file guards an instruction for its targets: it is built for
/// some target that guard excludes. A statement that fails on every target such a guard
/// excludes fails on the build. Returns the statements reported.
fn own_evidence<'s>(
    cx: &Ctx,
    rows: &[(&'s AsmStatement, Vec<Need>, Vec<bool>)],
    evidence: &[&Evidence],
    out: &mut Vec<Diagnostic>,
) -> Vec<&'s AsmStatement> {
    let ev = cx.targets();
    let cuda = ev.cuda;
    let mut reported = Vec::new();
    for (stmt, needs, failing) in rows {
        let Some(e) = evidence.iter().find(|e| {
            e.excluded
                .iter()
                .zip(failing)
                .all(|(excluded, fails)| !excluded || *fails)
        }) else {
            continue;
        };
        // The need that fails on those targets, and the oldest of them (for the message).
        let older: Vec<&Target> = ev
            .targets
            .iter()
            .zip(&e.excluded)
            .filter(|(_, x)| **x)
            .map(|(t, _)| t)
            .collect();
        let Some(first) = needs
            .iter()
            .find(|n| older.iter().all(|t| !n.supported_on(t, cuda)))
            .or_else(|| {
                needs
                    .iter()
                    .find(|n| older.iter().any(|t| !n.supported_on(t, cuda)))
            })
        else {
            continue;
        };
        let d = diagnostic(
            &META,
            template_span(stmt, first.at.clone()),
            format!(
                "{} needs {}, but this file is also built for older targets: line {} guards {} with {}",
                first.what(),
                first.requirement(cuda),
                e.line,
                e.what,
                e.guard
            ),
        )
        .with_note("with no configured targets, the file's own guard is the evidence: a file built only for the targets that guard admits would not need it; ptxas rejects the file for the others".to_string())
        .with_help(format!(
            "{}; or, if the file is only built for newer targets, say so (`compile-commands`, `[targets]` in ptxguard.toml, `--target`)",
            guard_help(first)
        ));
        out.push(d);
        reported.push(*stmt);
    }
    reported
}

/// Inferred targets: the file is built for every target on which all its compiled
/// statements build. A finding only where no target is left: the statement that empties the
/// set, naming an earlier one it cannot share a target with.
fn conflicts(cx: &Ctx, rows: &[(&AsmStatement, Vec<Need>, Vec<bool>)], out: &mut Vec<Diagnostic>) {
    let ev = cx.targets();
    let cuda = ev.cuda;
    let mut feasible: Vec<bool> = vec![true; ev.targets.len()];
    for (j, (stmt, needs, failing)) in rows.iter().enumerate() {
        let before = feasible.iter().any(|f| *f);
        for (f, fails) in feasible.iter_mut().zip(failing) {
            *f &= !fails;
        }
        if !before || feasible.iter().any(|f| *f) {
            continue;
        }
        // Targets where this statement is compiled and builds: none at all means the
        // toolkit cannot emit it.
        let builds_somewhere = ev
            .targets
            .iter()
            .zip(failing)
            .any(|(t, fails)| !fails && ev.compiled_on(stmt, t));
        let Some(first) = needs
            .iter()
            .find(|n| ev.targets.iter().any(|t| !n.supported_on(t, cuda)))
        else {
            continue;
        };
        if !builds_somewhere && ev.targets.iter().all(|t| !first.supported_on(t, cuda)) {
            let mut d = diagnostic(
                &META,
                template_span(stmt, first.at.clone()),
                format!(
                    "{} needs {}: no target CUDA {cuda} compiles for has it",
                    first.what(),
                    first.requirement(cuda)
                ),
            );
            d = d.with_help(format!(
                "build with a newer toolkit (`cuda-version` in the configuration says which one is used), or guard with `#if __CUDACC_VER_MAJOR__ > {}`",
                cuda.major
            ));
            out.push(d);
            continue;
        }
        // An earlier statement sharing no target with this one.
        let other = rows[..j]
            .iter()
            .find(|(_, _, f)| f.iter().zip(failing).all(|(a, b)| *a || *b));
        let (other_stmt, other_first) = match other {
            Some((s, n, _)) => (*s, n.first()),
            None if j > 0 => (rows[j - 1].0, rows[j - 1].1.first()),
            // The first statement alone: two of its own needs share no target (found by
            // the fuzzer: `rows[j - 1]` with `j == 0`).
            None => (
                *stmt,
                needs.iter().find(|n| {
                    !ev.targets
                        .iter()
                        .any(|t| first.supported_on(t, cuda) && n.supported_on(t, cuda))
                }),
            ),
        };
        let Some(other_first) = other_first else {
            continue;
        };
        let line = cx.file.line_col(other_stmt.span.start as usize).0;
        let mut d = diagnostic(
            &META,
            template_span(stmt, first.at.clone()),
            format!(
                "{} needs {}, but {} (line {line}) needs {}: no target builds both",
                first.what(),
                first.requirement(cuda),
                other_first.what(),
                other_first.requirement(cuda)
            ),
        );
        d = d
            .with_label(
                template_span(other_stmt, other_first.at.clone()),
                format!("{} needs {}", other_first.what(), other_first.requirement(cuda)),
            )
            .with_note("with no configured targets, the file is taken to be built for the targets all its unguarded statements build on; here there is none".to_string())
            .with_help(format!(
                "guard one of them for its targets ({}), or say which targets the file is built for (`compile-commands`, `[targets]` in ptxguard.toml, `--target`)",
                guard_help(first)
            ));
        out.push(d);
    }
}

/// A finding for a statement compiled for `failing` targets where some need is not met.
fn report(
    stmt: &AsmStatement,
    needs: &[Need],
    failing: &[&Target],
    cuda: CudaVersion,
    out: &mut Vec<Diagnostic>,
) {
    if failing.is_empty() {
        return;
    }
    let failing: Vec<(&Need, Vec<&Target>)> = needs
        .iter()
        .map(|n| {
            (
                n,
                failing
                    .iter()
                    .copied()
                    .filter(|t| !n.supported_on(t, cuda))
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, ts)| !ts.is_empty())
        .collect();
    let Some((first, ts)) = failing.first() else {
        return;
    };
    let names: Vec<String> = ts.iter().map(|t| target_name(t)).collect();
    let list = if names.len() > 4 {
        format!("{} and {} more", names[..3].join(", "), names.len() - 3)
    } else {
        names.join(", ")
    };
    let guard = arch_guard(stmt).map(str::to_string);
    let why = match &guard {
        Some(g) => format!("`{g}` still admits {list}"),
        None => format!("nothing excludes {list}"),
    };
    let mut d = diagnostic(
        &META,
        template_span(stmt, first.at.clone()),
        format!(
            "{} needs {}, but {why}",
            first.what(),
            first.requirement(cuda)
        ),
    );
    for (n, _) in failing.iter().skip(1).take(4) {
        d = d.with_label(
            template_span(stmt, n.at.clone()),
            format!("{} needs {}", n.what(), n.requirement(cuda)),
        );
    }
    d = d
        .note_for(stmt, if let Some(isa) = first.deprecated.filter(|_| first.removed_on.is_some()) {
            format!("the PTX ISA: {isa}")
        } else if first.arch.is_empty() {
            "ptxas rejects the file for the older target (nvcc 13.0 on `redux.sync` for sm_75: `Feature 'redux' requires .target sm_80 or higher`)".to_string()
        } else {
            "arch-specific forms exist only on their `a`/`f` targets (nvcc 13.0 on `wgmma.fence` for sm_90: `Instruction 'wgmma.fence' not supported on .target 'sm_90'`)".to_string()
        })
        .with_help(guard_help(first));
    out.push(d);
}

fn guard_help(n: &Need) -> String {
    if let Some((_, sm)) = n.removed_on {
        // The way forward is the replacement, not an old target.
        return format!(
            "use `{}.sync`, which takes a member mask of the lanes taking part (`0xffffffff` for a whole warp); only code built for targets below sm_{sm} alone may keep `{}`",
            n.family, n.family
        );
    }
    if let Some(a) = n.arch.first() {
        let sm = n.arch.iter().map(|a| a.sm).min().unwrap_or(a.sm);
        return format!(
            "guard with `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {} && defined(__CUDA_ARCH_FEAT_SM{}_ALL)` (or `__CUDA_ARCH_SPECIFIC__`/`__CUDA_ARCH_FAMILY_SPECIFIC__`), or `NV_IF_TARGET(NV_HAS_FEATURE_SM_{}a, ...)`",
            sm * 10,
            sm,
            sm
        );
    }
    format!(
        "guard with `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {}` or `NV_IF_TARGET(NV_PROVIDES_SM_{}, ...)`",
        n.min_sm * 10,
        n.min_sm
    )
}

/// The innermost `#if` around the statement that tests `__CUDA_ARCH__` (or a feature macro
/// of that family), as written.
fn arch_guard(stmt: &AsmStatement) -> Option<&str> {
    stmt.context
        .conditions
        .iter()
        .rev()
        .find(|c| {
            let mut ls = Vec::new();
            leaves(&c.expr, &mut ls);
            ls.iter().any(|l| match l {
                CondExpr::Defined(n) | CondExpr::Ident(n) => n.starts_with("__CUDA_ARCH"),
                _ => false,
            })
        })
        .map(|c| c.text.trim())
}

#[cfg(test)]
mod tests;
