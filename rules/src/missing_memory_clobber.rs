use crate::support::dataflow::{Flow, MemoryUse, Step};
use crate::support::{
    cuda_library::implements_cuda_intrinsics, diagnostics::template_span, operands::address_base,
    preprocessor,
};
use crate::Ctx;
use ptxguard_analyzer::cpp::declarations::{
    is_statement_keyword, plain_declaration, type_members, TypeMembers,
};
use ptxguard_analyzer::cpp::lexer::{Token, TokenKind};
use ptxguard_analyzer::cpp::types::reachable_end;
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::isa::Role;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity, Span};
use std::collections::HashMap;

mod exclusive;

declare_rule! {
    /// ## What it does
    /// Flags an asm statement that reads or writes memory through an address operand
    /// (`ld`, `st`, `atom`, `red`, `ldmatrix`, `cp.async`, `mbarrier.*`...) or orders memory
    /// (`fence`, `membar`, `bar`, `barrier`, acquire/release forms, waits on asynchronous
    /// copies), without `"memory"` in its clobber list.
    ///
    /// The severity follows what the asm is for and what stands beside it (loud only where a
    /// `"memory"` clobber changes what the compiler may do to this code):
    ///
    /// - **warning** in `volatile` asm that exists to order memory: barriers (`bar`,
    ///   `barrier`, `barrier.cluster` but not `.relaxed`), fences and `membar`, loads and
    ///   stores with `.acquire`, `.release` or `.cv`, `atom` and `red` with
    ///   `.acquire`/`.release`/`.acq_rel` (publishing or consuming a flag),
    ///   `cp.async.wait_group`/`wait_all`, `cp.async.bulk.wait_group*`, `griddepcontrol.wait`,
    ///   mbarrier `test_wait`/`try_wait` — **when C++ memory accesses it orders sit beside
    ///   it** (for the `cp.async` waits, accesses that may be of shared memory: see below):
    ///   on the side it orders (after an acquire load or a wait, before a release store,
    ///   reduction or `bar.arrive`, both sides of a fence or `bar.sync`), with no compiler
    ///   barrier between (`__syncthreads()`, `__syncwarp()`, `__threadfence()`,
    ///   `cudaGridDependencySynchronize()`, the `sync()` of a cooperative group the file
    ///   declares (`grid.sync()`, `tile.sync()`), an asm with `"memory"`, CUTLASS's `NamedBarrier::sync`/`arrive`/
    ///   `arrive_and_wait`, `fence_view_async_shared()`, `fence_barrier_init()` and CuTe's
    ///   `tma_store_wait<N>()`, whose asm carries `"memory"`, or a call of a helper of the
    ///   file, templates too, whose body runs such an asm or barrier call on every path: at
    ///   its top level, not chosen by its statement (`?:`, `&&`), with no `return`, `goto` or
    ///   `#if` before it; `if`s and loops before it end before it), in its function outside
    ///   asm (`p[i]`, `p->x`, `*p`;
    ///   not `&p[i]`, an address computed, unless it goes to an `atomic*` call; not an
    ///   element of an automatic local array, `alignas(16) float acc[4][8]`, or an element
    ///   itself of a local array of pointers, `ptrs[i] += 8` (not `*ptrs[i]`), the thread's own
    ///   memory that no other thread or grid sees; not a `volatile` access, through a name
    ///   declared `volatile` in the function or at file scope (`__shared__ volatile int
    ///   tail[8];`) or a cast to a `volatile` pointer: the compiler keeps those in order beside
    ///   volatile asm; not a trailing return type, `[&](int i) -> int* {`; not a declaration, `__shared__ float
    ///   tile[64];`; not a reference bound, `auto& bar = s.bars[i];` or `S& s =
    ///   *reinterpret_cast<S*>(raw);`; not the object of a member call, `s.bars[i].arrive()`
    ///   or `p->get()`, which is a call; not a whole argument of a call whose parameter there
    ///   is a reference, `wait(bars[i], phase)` with `void wait(uint64_t& bar, int phase)` in
    ///   the file (every definition of the name agreeing) or CuTe's `wait_barrier`,
    ///   `initialize_barrier`, `set_barrier_transaction_bytes`, `arrive_barrier`, which take
    ///   the barrier as `uint64_t&`; not a subscript of a function object made from a lambda
    ///   alone whose body accesses no memory, `auto bars = Visitor([=](int i) { return base +
    ///   i; }); bars[i]`; not in a lambda's body, which runs where it is called; not before
    ///   the asm in a block that ends with `return`, which never reaches it; not a load before
    ///   it into a local whose name the asm's operands (or the helper call's arguments) use,
    ///   `v = counts[i];` then `"r"(v)`: the asm needs the value; not a store after the spin
    ///   loop the asm (or the helper call) is in, `while (true) { asm(ld.acquire ...); if (v)
    ///   break; }` or a `do ... while`, `for (;;)`: the loop may not end, so no store is
    ///   moved above it; not an access after it in a statement naming a local the asm
    ///   writes, `out[0] = (c << 16) | a;` after `"=r"(a)`: it needs the asm's result); beside a barrier of the block or cluster (`bar.sync`,
    ///   `barrier.sync`, `bar.arrive`, `barrier.cluster.*`), which orders accesses among this
    ///   kernel's threads only, not a load of a kernel's input that nothing in the kernel
    ///   writes (a parameter declared `const T*`, no `const_cast` in the kernel, or one used
    ///   only as `p[i]` never assigned, address-taken, passed or offset whole: a table of peer
    ///   pointers, `buffer_ptrs[rank]`), nor a store to a kernel's output that nothing in it
    ///   reads (used only as `p[i] = v`, or compared with `nullptr`): the host or a later
    ///   kernel reads it, after this one ends; beside a proxy fence (`fence.proxy.async`),
    ///   which orders one thread's accesses between proxies, not a load of such an input
    ///   declared `__restrict__`, which nothing else in the kernel writes either) or, when
    ///   nothing stops the window at the function's start or return, around one of its calls
    ///   in the file (arguments aside; a definition outside its class, `void
    ///   Producer::send() {`, or after an attribute, `__global__ void __launch_bounds__(256)
    ///   k(...) {`, is not a call), and from there, where the caller's window is
    ///   open too, around its callers' calls: two calls up (`kernel` → `obj.sync()` →
    ///   `spin_wait_()`; a member call counts from the second level). An asm in a lambda
    ///   (`auto wait = [&](...) { asm(...); }`) is judged by the lambda's body and its calls
    ///   in the function that defines it (another function's lambda may share the name).
    ///   Code on a branch the asm's path never takes is not beside it: the other branches of
    ///   the `if`/`else` chains around it, and, in a warp-specialised kernel, the blocks of
    ///   the other roles (the asm in `if (warp == 0) { }`, the access in `if (warp == 1) { }`,
    ///   nothing assigning `warp` in between; `||` conditions give no role), and the other
    ///   branches of the preprocessor conditionals around it (`#if` asm `#else` a port's C++
    ///   `#endif`: no build compiles them together); the same around each call of its helper
    ///   (a call is code: the name in a comment is none). The warning points at the access
    ///   it found, the nearest one (before the asm, the nearest store when there is one: what
    ///   a release publishes; a second label, the evidence to read first).
    ///   A helper with no caller in view is **info**: nothing visible is ordered (callers in
    ///   other files are not seen).
    ///   Also a warning: any write whose object the C++ of the same function uses after the
    ///   asm, outside another asm (`tcgen05.alloc` into `&slot`, then `slot` read; a pointer
    ///   `p` written, then `p[0]` or `*p` read), looking only at code the asm can reach (not
    ///   past an unconditional `return`, not the other branches of the `if`/`else` chains
    ///   and preprocessor conditionals around it, as above); info when every such use comes after a compiler
    ///   barrier that runs on every path from the asm to it (`__syncthreads();` in a block
    ///   holding the use, no `case` or `goto` between: not one inside an `if` the use is
    ///   outside of), which the volatile asm and the use both stay on their side of;
    /// - **info** in `volatile` asm that touches memory on the side: issuing asynchronous
    ///   copies, plain stores in store helpers, mbarrier `init`/`arrive`/`expect_tx`
    ///   bookkeeping, `tensormap.replace`, `tcgen05.fence`/`wait`, plain loads (`ld.shared`,
    ///   `ldmatrix`, `ld.global`), relaxed and `.volatile` loads, stores, atomics and
    ///   reductions (`.relaxed` or no semantics: they count or accumulate, ordering nothing
    ///   else; `.volatile`: an LL packet's data and flag in one access);
    /// - in non-`volatile` asm (with outputs), which the compiler may delete, merge or hoist
    ///   (`missing-volatile` reports that): **warning** when it writes or orders memory, or
    ///   is a plain load with a C++ store beside it (the compiler may merge or move the load
    ///   across it; not through a `const T* __restrict__` pointer, whose data nothing writes
    ///   meanwhile, nor a `.global` load beside stores into `__shared__` arrays, which never
    ///   alias it), else **info**. Never an error: no toolchain rejects it.
    ///   Measured on the GPU: the C++ load after a non-volatile atomic was merged with the one
    ///   before it (`bad-nonvolatile-atomic-merged-load.cu`).
    ///
    /// `barrier.cluster.arrive.relaxed` orders nothing and is not reported. Info, not warning:
    /// `fence.mbarrier_init` (it orders only earlier `mbarrier.init`s, asm themselves), and a
    /// wait (`cp.async.wait_*`, `cp.async.bulk.wait_group*`, mbarrier waits,
    /// `griddepcontrol.wait`) or a write the C++ reads later when the next statement is
    /// `__syncthreads()`, itself a full compiler barrier (fences and releases stay warnings:
    /// earlier C++ accesses may still sink below them). The toolkit's and clang's intrinsic
    /// headers (a vendored `__clang_cuda_runtime_wrapper.h`) are not checked.
    ///
    /// Info too: an asynchronous-copy wait (`cp.async.wait_group`, `cp.async.wait_all`,
    /// `cp.async.bulk.wait_group.read`) when none of the C++ accesses beside it may be of
    /// shared memory ("no C++ access of shared memory is beside it"). Such a wait orders the
    /// copies against accesses of the shared memory they fill or drain; when only other asm
    /// `volatile` (`ld.shared`, `ldmatrix`) touches that memory, their order among themselves
    /// is kept without `"memory"`. Known not to be shared: a kernel's (`__global__`)
    /// parameters, their members (the host cannot pass a shared address), local arrays, and
    /// locals computed only from such names (`float* row = out + k`, casts included). Still a
    /// warning: an access through a `__shared__` name (any scope, `extern` too) or a local
    /// computed from one (`reinterpret_cast<float*>(tile) + k`, `auto& s =
    /// *reinterpret_cast<S*>(smem_raw)`), through another function's or a lambda's parameter
    /// (its caller may pass shared memory), a pointer a call returns or that is stored through
    /// its address, a member or a global; and a call given a shared pointer or one of unknown
    /// origin (as an argument or the object of a member call) whose body is not in the file,
    /// or whose body in the file (a function's, a named lambda's, a function-like macro's) may
    /// access shared memory itself (two calls deep). Any shared
    /// memory counts, not only the copies' buffer. Not `cp.async.bulk.wait_group` without
    /// `.read`: it also waits for the copies' writes to global memory, which C++ may read
    /// through any pointer. The same for a fence restricted to shared memory
    /// (`fence.proxy.async.shared::cta`, `.shared::cluster`, `.sync_restrict::shared::cta`:
    /// the PTX ISA limits its effect to that state space), which is a warning only where a
    /// C++ access is beside it (as for any fence) and one that may be of shared memory too.
    /// Assumed, not checked: the C++ after the wait does not write the
    /// global memory a `cp.async` of the function still reads (an in-place update whose store
    /// does not depend on the copied data).
    ///
    /// Not reported: hints that touch no memory the program sees (`prefetch`, `prefetchu`,
    /// `applypriority`, `cp.async.bulk.prefetch`), loads from memory that cannot change while
    /// the kernel runs (`ld.global.nc`, `ldu`, `.const`, `.param`, textures: no C++ store can
    /// be reordered against them), tensor memory (`tcgen05.ld`/`st` addresses are not C++
    /// memory), variables the template declares itself, and instructions whose memory traffic
    /// goes through descriptors rather than an address operand (`wgmma`), and instructions
    /// with a misspelt modifier (`ld.gloabl`: `ptx-syntax` reports it; what the instruction
    /// would touch is unknown).
    ///
    /// ## Why is this bad?
    /// Without `"memory"` the compiler assumes the asm touches no memory but what its
    /// operands say, so it keeps C++ values in registers across it, and moves or merges C++
    /// loads and stores around it. Measured with nvcc 13.0: with `x = p[0];
    /// asm("atom.global.add.u32 ...")` (no `volatile`, no `"memory"`) and `y = p[0]` after it,
    /// the second load was merged with the first: `y - x` was 0 instead of 1; with
    /// `"memory"`, 1. `volatile` keeps the statement and its order among other volatile asm
    /// statements, but does not order it against ordinary C++ memory accesses: only
    /// `"memory"` does. With `volatile`, nvcc 13 was measured conservative in the cases tried
    /// (a volatile store or load next to C++ accesses of the same location was not moved):
    /// the risk is the contract, which another compiler or version may use.
    ///
    /// Machine code (nvcc 13.0 `-O3`, `docs/memory-clobber-evidence.md`): the clobber changed
    /// the code of both non-volatile cases (loads merged) and of none of the eight volatile
    /// ordering cases: there the warning rests on the contract, not a measured miscompile.
    /// On the H200 (nvcc 13.0.88 and NVRTC, 2026-12-05, `docs/confirmations.md`) the harness
    /// ran five volatile patterns as kernels: a fence in a C++ poll loop, a release/acquire
    /// pair across blocks, a named barrier, a `cp.async` wait then a C++ read, an asm store
    /// then a C++ read back: all five computed the right result (not reproduced); the
    /// non-volatile shared load's merge was reproduced (`out[31]` 0, not 62) and the fix
    /// repaired it.
    ///
    /// On nine real projects (2026-12-01) the grading moved 758 warnings to 400 (waits,
    /// barriers, fences, acquire/release and volatile accesses, atomics; 20 of a sample of 25
    /// worth adding `"memory"`) and 252 infos to 607 (async-copy issue, mbarrier
    /// bookkeeping, plain loads and store helpers). Async-copy waits with no C++ access of
    /// shared memory beside them (2026-12-02): 33 of 105 warnings on the nine projects became
    /// info (all flashinfer `cp.async.wait_group`s whose shared memory only asm reads); the 14
    /// warnings of the tuning half and the 1 of the held-out half did not change.
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
    ///
    /// ## In Python
    /// Not applied to Triton, MLIR and `inline_ptx` calls: they order memory through their
    /// side-effect flag (`is_pure=False`, `has_side_effects=True`), which `missing-volatile`
    /// judges; what `~{memory}` adds there is not measured. C++ in Python strings: as in C++
    /// files, spans inside the Python literal, but without the fix (the quotes of
    /// `"memory"` could end the Python string).
    pub(crate) static META = {
        name: "missing-memory-clobber",
        severity: Error,
        fix: Safe,
        default_enabled: true,
        summary: "an asm that reads, writes or orders memory without a `\"memory\"` clobber",
    }
}

/// Why a memory-touching instruction matters to the C++ around it, which sets the severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Purpose {
    /// Touches memory on the side (async copy issue, plain store helper, mbarrier
    /// bookkeeping, plain load): info in `volatile` asm.
    Incidental,
    /// Exists to order memory (barrier, fence, flag polling/publishing, waits): warning.
    Orders,
}

/// What step `i` is for, or `None` when it orders nothing the program sees
/// (`barrier.cluster.arrive.relaxed`).
fn purpose(step: &Step) -> Option<Purpose> {
    let instr = step.instr;
    let family = step.form.map_or("", |f| f.family.name);
    if family == "barrier.cluster" && instr.has(".relaxed") {
        return None;
    }
    // `.relaxed` orders nothing by itself (PTX memory model): a relaxed load, store or
    // reduction only touches memory; nor does `.volatile` (a load or store the compiler keeps,
    // like an LL packet's data and flag in one access).
    let ordering_qualifier = [".acquire", ".release", ".acq_rel", ".cv"]
        .iter()
        .any(|q| instr.has(q));
    // `fence.mbarrier_init` orders only earlier `mbarrier.init`s, which are asm themselves:
    // no C++ access is ordered by it.
    if family == "fence" && instr.has(".mbarrier_init") {
        return Some(Purpose::Incidental);
    }
    // An atomic or reduction orders other data only with a semantics that says so; a relaxed
    // one (the default) counts or accumulates.
    let orders = matches!(instr.base(), "bar" | "barrier" | "membar" | "fence")
        || (matches!(instr.base(), "atom" | "red") && ordering_qualifier)
        || matches!(
            family,
            "cp.async.wait_group"
                | "cp.async.wait_all"
                | "cp.async.bulk.wait_group"
                | "mbarrier.test_wait"
                | "mbarrier.try_wait"
                | "tensormap.cp_fenceproxy"
        )
        || (family == "griddepcontrol" && instr.has(".wait"))
        || (matches!(instr.base(), "ld" | "st") && ordering_qualifier);
    Some(if orders {
        Purpose::Orders
    } else {
        Purpose::Incidental
    })
}

/// What the severity of a step rests on, which the diagnostic's note tells.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Why {
    /// The compiler contract (or, for non-volatile asm, the measured merge).
    Contract,
    /// The contract, with this C++ access (a source range) beside the asm on the side it
    /// orders and no compiler barrier between.
    Beside(std::ops::Range<usize>),
    /// C++ in the function uses this variable after the asm's write.
    Touched(String),
    /// C++ in the function uses this variable after the asm's write, but only behind a
    /// compiler barrier on every path.
    BarrierBeforeUse(String),
    /// An async-copy wait with C++ accesses beside it, none of them of shared memory.
    NoSharedAccess,
    /// An ordering asm with no C++ memory access beside it on the side it orders (up to a
    /// compiler barrier, in its function and its callers in view).
    NothingBeside,
}

/// The severity of step `i` and what it rests on.
fn judge(
    cx: &Ctx,
    file: &std::cell::OnceCell<FileScan>,
    flow: &Flow,
    i: usize,
    m: &MemoryUse,
    volatile: bool,
) -> Option<(Severity, Why)> {
    let step = &flow.steps[i];
    let purpose = purpose(step)?;
    // Loud only where the clobber changes what the compiler may do to this code: C++ memory
    // accesses it must order sit beside it, on the side it orders, with no compiler barrier
    // between (in its function, or around a call of it).
    if !volatile {
        // Everything in a non-volatile asm may be merged or moved with the C++ around it
        // (`missing-volatile` reports the statement itself). A plain load can be merged or
        // moved only across C++ stores (measured: `bad-nonvolatile-shared-load.cu`); one
        // through a `const T* __restrict__` pointer reads data nothing writes meanwhile.
        let plain_read = !m.writes && !m.orders;
        if !plain_read {
            return Some((Severity::Warning, Why::Contract));
        }
        if reads_through_const_pointer(cx, flow.stmt, step) {
            return Some((Severity::Info, Why::Contract));
        }
        // A `.global` load cannot move across a store into shared memory: they never alias.
        let writes = if step.instr.has(".global") {
            Access::WriteOutsideShared
        } else {
            Access::Write
        };
        let store = cpp_memory_access_beside(
            cx,
            file.get_or_init(|| FileScan::new(cx)),
            flow.stmt,
            Side::Both,
            writes,
            KernelDataUnordered::None,
        );
        return Some(match store {
            Some(at) => (Severity::Warning, Why::Beside(at)),
            None => (Severity::Info, Why::Contract),
        });
    }
    if purpose == Purpose::Orders {
        let file = file.get_or_init(|| FileScan::new(cx));
        let unordered = kernel_data_unordered(step);
        // A fence restricted to shared memory: loud only where a C++ access is beside it (as
        // for any fence) and one that may be of shared memory is too (a call counts there,
        // as for the async-copy waits): never louder than an unrestricted fence.
        let family = step.form.map_or("", |f| f.family.name);
        if family == "fence" && fence_restricted_to_shared(step.instr) {
            let any =
                cpp_memory_access_beside(cx, file, flow.stmt, side(step), Access::Any, unordered);
            return Some(match any {
                None => (Severity::Info, Why::NothingBeside),
                Some(_) => {
                    match cpp_memory_access_beside(
                        cx,
                        file,
                        flow.stmt,
                        side(step),
                        Access::Shared,
                        unordered,
                    ) {
                        Some(at) => (Severity::Warning, Why::Beside(at)),
                        None => (Severity::Info, Why::NoSharedAccess),
                    }
                }
            });
        }
        let access = if orders_only_shared_memory(step) {
            Access::Shared
        } else {
            Access::Any
        };
        if let Some(at) =
            cpp_memory_access_beside(cx, file, flow.stmt, side(step), access, unordered)
        {
            return Some((Severity::Warning, Why::Beside(at)));
        }
        // Say why when C++ accesses were beside it, but none of shared memory.
        if access == Access::Shared
            && cpp_memory_access_beside(cx, file, flow.stmt, side(step), Access::Any, unordered)
                .is_some()
        {
            return Some((Severity::Info, Why::NoSharedAccess));
        }
        return Some((Severity::Info, Why::NothingBeside));
    } else if m.writes && !followed_by_syncthreads(cx, flow.stmt) {
        // `__syncthreads()` right after the asm is a full compiler barrier: no later C++
        // access can move above the write.
        let file = file.get_or_init(|| FileScan::new(cx));
        match written_object_touched_by_cpp(cx, file, flow.stmt, step) {
            Some(WrittenObject::Used(var)) => return Some((Severity::Warning, Why::Touched(var))),
            Some(WrittenObject::UsedBehindBarrier(var)) => {
                return Some((Severity::Info, Why::BarrierBeforeUse(var)))
            }
            None => {}
        }
    }
    Some((Severity::Info, Why::Contract))
}

/// A wait whose ordering is about shared memory only: `cp.async.wait_group`/`wait_all` (the
/// copies write shared memory) and `cp.async.bulk.wait_group.read` (the copies are done reading
/// shared memory). Not `cp.async.bulk.wait_group` without `.read`: it also waits for the
/// copies' writes to global memory, which C++ may read through any pointer.
fn orders_only_shared_memory(step: &Step) -> bool {
    let family = step.form.map_or("", |f| f.family.name);
    matches!(family, "cp.async.wait_group" | "cp.async.wait_all")
        || (family == "cp.async.bulk.wait_group" && step.instr.has(".read"))
}

/// A fence whose effect is restricted to shared memory: a proxy fence with a shared state
/// space (`fence.proxy.async.shared::cta`, `.shared::cluster`) or a `.sync_restrict::shared::*`
/// one orders only accesses of that state space (PTX ISA, `fence`).
fn fence_restricted_to_shared(instr: &ptxguard_analyzer::ptx::Instruction) -> bool {
    instr
        .parts
        .iter()
        .skip(1)
        .any(|p| p.text.ends_with("shared::cta") || p.text.ends_with("shared::cluster"))
}

/// Which C++ accesses an ordering instruction orders: the later ones (acquire loads, waits),
/// the earlier ones (release stores and reductions, arrivals), or both (fences, barriers).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Before,
    After,
    Both,
}

/// What counts as an access: any, only writes (a plain load moves only across stores), or
/// any that may be of shared memory (what an async-copy wait orders).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Access {
    Any,
    Write,
    /// A write that may be outside shared memory (what a `.global` load can move across).
    WriteOutsideShared,
    Shared,
}

fn side(step: &Step) -> Side {
    let instr = step.instr;
    let family = step.form.map_or("", |f| f.family.name);
    let acquire = instr.has(".acquire")
        || matches!(
            family,
            "cp.async.wait_group"
                | "cp.async.wait_all"
                | "cp.async.bulk.wait_group"
                | "mbarrier.test_wait"
                | "mbarrier.try_wait"
                | "griddepcontrol"
        )
        || (family == "barrier.cluster" && instr.has(".wait"));
    let release = instr.has(".release")
        || (instr.base() == "bar" && instr.has(".arrive"))
        || (family == "barrier.cluster" && instr.has(".arrive"));
    match (acquire, release) {
        (true, false) => Side::After,
        (false, true) => Side::Before,
        _ => Side::Both,
    }
}

/// Whether C++ memory accesses sit beside the asm, on `side`, with no compiler barrier
/// between (a barrier: `__syncthreads()`, `__syncwarp()`, `__threadfence()`, a
/// cooperative-groups `grid.sync()`/`block.sync()`, or another asm with `"memory"`): in its function (or its
/// macro's body), and, where no barrier separates the asm from the function's start (or end),
/// around the function's calls in the file too (a helper inlined where its callers touch
/// memory). A helper with no caller in view orders nothing visible.
fn cpp_memory_access_beside(
    cx: &Ctx,
    file: &FileScan,
    stmt: &AsmStatement,
    side: Side,
    access: Access,
    kernel_data_unordered: KernelDataUnordered,
) -> Option<std::ops::Range<usize>> {
    let source = cx.source();
    let (at, end) = (stmt.span.start as usize, stmt.span.end as usize);
    // The code around the asm: its macro's body, or its function's body.
    let (body, name) = match (&stmt.macro_name, &stmt.context.function) {
        (Some(name), _) => (macro_body_around(source, at), name.as_str()),
        (None, Some(f)) => (
            f.body.start as usize + 1..(f.body.end as usize).min(source.len()),
            f.name.rsplit("::").next().unwrap_or(&f.name),
        ),
        (None, None) => return None,
    };
    // In a lambda (`auto wait = [&](...) { asm(...); };`) the asm runs where the lambda is
    // called, not where it is defined: its body and its calls are what stands beside it.
    // A lambda's calls are looked for in the function that defines it (another function may
    // hold a lambda of the same name).
    let outer = body.clone();
    let (body, name, scope) = match enclosing_lambda(source, at, body.clone()) {
        Some((lambda, name)) => (lambda, name, outer.clone()),
        None => (body, name, 0..source.len()),
    };
    let reach = reachable_end(source, end, body.end).max(end);
    // The locals the asm writes: an output's root name (`v`, `regs4` of `regs4[0]`), and the
    // other members of an anonymous union holding one (`union { uint64_t r8[2]; uint32_t
    // r4[4]; };`: a write of `r4[0]` is a write of `r8[0]`).
    let outputs: Vec<&str> = stmt
        .outputs
        .iter()
        .map(|o| o.expr.trim())
        .map(|e| local_output_root(source, outer.clone(), e, &file.arrays_declared))
        .filter(|e| !e.is_empty() && !e.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    let included_type_members = |name: &str| cx.targets().included_type_members(name);
    let look = Look {
        included_type_members: &included_type_members,
        call_at: None,
        source,
        tokens: cx.tokens(),
        file,
        access,
        // Code on a branch the asm's path never takes, or in a preprocessor branch no build
        // compiles with it, is not beside it.
        exclusive: exclusive_ranges(source, cx.tokens(), &file.dead, body.clone(), at),
        feeds: at..end,
        writes_pinned_from: exclusive::spin_loop_end(source, body.clone(), at)
            .unwrap_or(usize::MAX),
        outputs: &outputs,
        results: std::cell::OnceCell::new(),
        results_in: end..body.end,
        results_reach: reach,
        function: body.clone(),
        kernel_data_unordered,
    };
    let (before, after) = look.windows(at..end, body.start..reach);
    let wants_before = side != Side::After;

    let wants_after = side != Side::Before;
    let here = look.access_beside(&before, &after, wants_before, wants_after);
    if here.is_some() {
        return here;
    }
    // Open to the function's start or end: the callers' code there is beside it too.
    let open_before = wants_before && before.start == body.start;
    // Reaching a `return` (or the body's end) with no barrier: control goes back to the caller.
    let open_after = wants_after && after.end >= reach;
    if !open_before && !open_after {
        return None;
    }
    look.callers_access(name, body, scope, open_before, open_after, CALL_LEVELS)
}

/// Ranges of `body` that never run, or are never compiled, on a path through `at`, in order
/// ([`exclusive::exclusive_ranges`], [`preprocessor::other_branches`]).
fn exclusive_ranges(
    source: &str,
    tokens: &[Token],
    dead: &[std::ops::Range<usize>],
    body: std::ops::Range<usize>,
    at: usize,
) -> Vec<std::ops::Range<usize>> {
    let mut out = exclusive::exclusive_ranges(source, body.clone(), at);
    // Branches no target compiles (the file's own `#define`s decide them).
    out.extend(
        dead.iter()
            .filter(|r| r.start < body.end && r.end > body.start)
            .cloned(),
    );
    out.extend(preprocessor::other_branches(source, tokens, body, at));
    out.sort_by_key(|r| r.start);
    out
}

/// How many calls up the window is followed where no barrier closes it: a helper's asm runs
/// inlined into its caller, and a release or wait two helpers deep (`sync()` calling
/// `spin_wait_()`) orders its caller's caller's accesses as much as its own function's.
const CALL_LEVELS: usize = 2;

/// Where the identifier that ends `text` starts (`text.len()` when none does): after the last
/// character that is not one, whatever its width (a comment's `é` is two bytes).
fn trailing_identifier_start(text: &str) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// The identifier before the `(` of the parameter list whose body opens at `body_start` (just
/// after `{`): a function's name; `None` for lambdas, constructor initialisers and what is not
/// a parameter list.
fn function_name_before(source: &str, body_start: usize) -> Option<&str> {
    function_head(source, body_start).map(|(name, _)| name)
}

/// The name and the parameter list (inside the parentheses) of the function whose body opens
/// at `body_start`, as [`function_name_before`] finds them.
fn function_head(source: &str, body_start: usize) -> Option<(&str, std::ops::Range<usize>)> {
    let mut head = source.get(..body_start.checked_sub(1)?)?.trim_end();
    // Qualifiers after the parameters.
    loop {
        let word_start = trailing_identifier_start(head);
        if !QUALIFIERS_AFTER_PARAMETERS.contains(&&head[word_start..]) {
            break;
        }
        head = head[..word_start].trim_end();
    }
    let params = head.strip_suffix(')')?;
    let open = opening_paren(params)?;
    let before = params[..open].trim_end();
    let name_start = trailing_identifier_start(before);
    let name = &before[name_start..];
    let preceding = before[..name_start].trim_end();
    let control = matches!(
        name,
        "if" | "for" | "while" | "switch" | "catch" | "constexpr" | "return"
    );
    // `: m(x) {` and `, m(x) {` initialise members: the function's name is further back
    // (`A::f(` is a qualified name, not an initialiser).
    let initialiser =
        (preceding.ends_with(':') && !preceding.ends_with("::")) || preceding.ends_with(',');
    (!name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && !control
        && !initialiser)
        .then_some((name, open + 1..params.len()))
}

/// The innermost lambda around byte `at` inside `within` (a function's body): the inside of
/// its braces and the name it is assigned to (`auto name = [&](...) {`; empty when it is not
/// assigned, and then no call of it is found).
fn enclosing_lambda(
    source: &str,
    at: usize,
    within: std::ops::Range<usize>,
) -> Option<(std::ops::Range<usize>, &str)> {
    let mut block = enclosing_block(source, at);
    for _ in 0..64 {
        if block.start <= within.start || block.start < 2 {
            return None;
        }
        let mut head = source[..block.start - 1].trim_end();
        for word in ["mutable", "noexcept", "constexpr"] {
            head = head.strip_suffix(word).map_or(head, str::trim_end);
        }
        if let Some(open) = head.strip_suffix(')').and_then(opening_paren) {
            head = head[..open].trim_end();
        }
        if let Some(captures) = head.strip_suffix(']') {
            let introducer = captures.rfind('[')?;
            let before = captures[..introducer].trim_end();
            let name = before
                .strip_suffix('=')
                .filter(|b| !b.ends_with(['=', '!', '<', '>']))
                .map_or("", |b| {
                    let b = b.trim_end();
                    let start = trailing_identifier_start(b);
                    &b[start..]
                });
            return Some((block, name));
        }
        block = enclosing_block(source, block.start - 1);
    }
    None
}

/// The `(` that the `)` just after `text` closes: its byte index in `text`.
fn opening_paren(text: &str) -> Option<usize> {
    let mut depth = 1i32;
    text.char_indices().rev().find_map(|(i, c)| {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        None
    })
}

/// The end of the parenthesised list that starts at the first `(` at or after `from`.
fn matching_paren(source: &str, from: usize) -> Option<usize> {
    let open = from + source[from..].find('(')?;
    let mut depth = 0i32;
    for (i, b) in source.as_bytes()[open..].iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i + 1);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

/// The body of the `#define` the asm at `at` is written in (up to its last continued line).
fn macro_body_around(source: &str, at: usize) -> std::ops::Range<usize> {
    let start = source[..at].rfind("#define").map_or(at, |d| {
        // After the macro's name and parameters.
        source[d..at].find(')').map_or(d, |p| d + p + 1)
    });
    let bytes = source.as_bytes();
    let mut end = at;
    while end < bytes.len() {
        match bytes[end] {
            b'\n' if end == 0 || bytes[end - 1] != b'\\' => break,
            _ => end += 1,
        }
    }
    start..end
}

/// What every statement's judgment reads of the file, gathered once per file: where the asm
/// statements are, the compiler barriers (asm with `"memory"`, barrier calls), the names
/// declared `__shared__`, and the bodies of the functions called beside a wait (on first need).
struct FileScan {
    asm_spans: Vec<std::ops::Range<usize>>,
    barriers: Vec<std::ops::Range<usize>>,
    shared_names: Vec<String>,
    callee_bodies: std::cell::RefCell<HashMap<String, Vec<std::ops::Range<usize>>>>,
    /// Memos of [`Look::origin`] (name, function body, depth) and of what a call of a
    /// function may do (name, levels, strict): the same locals and helpers come up around
    /// every wait of a file.
    origins: std::cell::RefCell<HashMap<(String, usize, usize), Origin>>,
    callees_touch: std::cell::RefCell<HashMap<(String, usize, bool), bool>>,
    /// Memo of [`Look::thread_private`]'s names: (name, function body start); also `*name`
    /// (arrays of pointers), `a.b` (member arrays of locals) and `&name` (pointers declared
    /// in the file, body 0).
    automatic_arrays: std::cell::RefCell<HashMap<(String, usize), bool>>,
    /// Memo of [`Look::subscripts_callable`]: (name, function body start).
    callables: std::cell::RefCell<HashMap<(String, usize), bool>>,
    /// Memo of [`Look::kernel_data`]: (name, kernel body start).
    kernel_data: std::cell::RefCell<HashMap<(String, usize), KernelData>>,
    /// Names declared `volatile` (`__shared__ volatile int flags[8];`, `volatile int* p`),
    /// each with where, and whether at file scope.
    volatile_names: Vec<(String, usize, bool)>,
    /// Each `{` of the file and its `}`, matched once (windows skip blocks by them).
    brace_pairs: std::cell::OnceCell<HashMap<usize, usize>>,
    /// The file is C++ (its tokens tell its comments; a Python file's C++ is in strings the
    /// C++ lexer does not read as code).
    cpp_tokens: bool,
    /// `#if` branches no target compiles ([`preprocessor::dead_branches`]), in order.
    dead: Vec<std::ops::Range<usize>>,
    /// The members of the types the file defines, on first need.
    type_members: std::cell::OnceCell<TypeMembers>,
    /// Each asm statement's start, the roots of its outputs and the names its inputs read,
    /// in order: a later asm computing from an asm's result carries it on.
    asm_flows: Vec<AsmFlow>,
    arrays_declared: ArraysDeclared,
    /// Memo of [`Look::callers_access`].
    callers: std::cell::RefCell<HashMap<CallersKey, Option<std::ops::Range<usize>>>>,
}

/// What [`Look::callers_access`]'s answer depends on.
#[derive(Clone, PartialEq, Eq, Hash)]
struct CallersKey {
    name: String,
    callee: (usize, usize),
    scope: (usize, usize),
    open: (bool, bool),
    levels: usize,
    access: Access,
    kernel_data_unordered: KernelDataUnordered,
    /// Whether the asm's own window pins the stores after a spin loop.
    pinned: bool,
}

/// What an asm statement reads and writes, by local name ([`FileScan::asm_flows`]).
struct AsmFlow {
    start: usize,
    writes: Vec<String>,
    reads: Vec<String>,
}

impl FileScan {
    /// The `}` that closes the `{` at `open`, if the file has one.
    fn closing_brace(&self, source: &str, open: usize) -> Option<usize> {
        self.brace_pairs
            .get_or_init(|| {
                let mut pairs = HashMap::new();
                let mut open_at = Vec::new();
                for (i, b) in source.bytes().enumerate() {
                    match b {
                        b'{' => open_at.push(i),
                        b'}' => {
                            if let Some(o) = open_at.pop() {
                                pairs.insert(o, i);
                            }
                        }
                        _ => {}
                    }
                }
                pairs
            })
            .get(&open)
            .copied()
    }
}

impl FileScan {
    fn new(cx: &Ctx) -> FileScan {
        let span = |s: &AsmStatement| s.span.start as usize..s.span.end as usize;
        // In order, for the binary searches of `Look::accesses_in` and the helpers' scans.
        let mut asm_spans: Vec<_> = cx.statements.iter().map(span).collect();
        asm_spans.sort_by_key(|r| r.start);
        let calls: Vec<_> = barrier_calls(cx.source()).collect();
        let helper_calls = barrier_helper_calls(cx, &asm_spans, &calls);
        let dead = preprocessor::dead_branches(cx, 0..cx.source().len());
        // A barrier in a branch no target compiles bounds nothing.
        let live = |r: &std::ops::Range<usize>| !dead.iter().any(|d| d.contains(&r.start));
        let arrays_declared = ArraysDeclared::default();
        FileScan {
            cpp_tokens: !cx.file.language.is_python(),
            asm_spans,
            barriers: cx
                .statements
                .iter()
                .filter(|s| s.has_clobber("memory"))
                .map(span)
                .chain(calls)
                .chain(helper_calls)
                .filter(live)
                .collect(),
            shared_names: shared_declarations(cx.source(), cx.tokens()),
            callee_bodies: Default::default(),
            origins: Default::default(),
            callees_touch: Default::default(),
            automatic_arrays: Default::default(),
            kernel_data: Default::default(),
            brace_pairs: Default::default(),
            type_members: Default::default(),
            asm_flows: asm_flows(cx, &arrays_declared),
            arrays_declared,
            callers: Default::default(),
            callables: Default::default(),
            volatile_names: volatile_declarations(cx.source(), cx.tokens()),
            dead,
        }
    }
}

/// Calls of the file's functions that are compiler barriers themselves: a body that runs an
/// asm with `"memory"` or a barrier call on every path (`void named_barrier_sync(...) { asm
/// volatile("bar.sync %0, %1;" :: ... : "memory"); }`, `void syncwarp() { __syncwarp(); }`; no
/// `if`, loop or early `return` around it). Inlined, the call orders the caller's accesses as
/// the barrier does.
fn barrier_helper_calls(
    cx: &Ctx,
    asm_spans: &[std::ops::Range<usize>],
    barrier_calls: &[std::ops::Range<usize>],
) -> Vec<std::ops::Range<usize>> {
    let source = cx.source();
    let mut helpers: Vec<(&str, std::ops::Range<usize>)> = Vec::new();
    let mut paths = PathScans::default();
    for stmt in cx.statements.iter().filter(|s| s.has_clobber("memory")) {
        let Some(function) = &stmt.context.function else {
            continue;
        };
        let body = function.body.start as usize + 1..(function.body.end as usize).min(source.len());
        let name = function.name.rsplit("::").next().unwrap_or(&function.name);
        if stmt.macro_name.is_some()
            || stmt.in_python()
            || body.is_empty()
            || helpers.iter().any(|(n, _)| *n == name)
            || !paths.runs_on_every_path(cx, asm_spans, body.clone(), stmt.span.start as usize)
        {
            continue;
        }
        helpers.push((name, body));
    }
    // Wrappers of the barrier calls (`void syncwarp() { __syncwarp(); }`).
    for call in barrier_calls {
        let body = enclosing_function_body(source, call.start);
        let Some(name) = function_name_before(source, body.start) else {
            continue;
        };
        if body.is_empty()
            || body.start < 2
            || helpers.iter().any(|(n, _)| *n == name)
            || !paths.runs_on_every_path(cx, asm_spans, body.clone(), call.start)
        {
            continue;
        }
        helpers.push((name, body));
    }
    // The included headers' helpers (`warpgroup_wait<0>()` from `ptx.cuh`), unless the file
    // defines a function of that name itself.
    let included = cx.targets().included_barrier_helpers();
    let tokens = cx.tokens();
    let word = |k: usize| source.get(tokens[k].span.range()).unwrap_or("");
    // The functions the file defines itself (`name(...) {`, qualifiers between): a header's
    // helper of the same name is not what the file calls.
    let mut defined: std::collections::HashSet<&str> = std::collections::HashSet::new();
    if !included.is_empty() {
        let mut k = 0;
        while k + 1 < tokens.len() {
            if tokens[k].kind == TokenKind::Ident && word(k + 1) == "(" {
                let mut depth = 0i32;
                let close = (k + 1..tokens.len()).find(|&i| {
                    match word(i) {
                        "(" => depth += 1,
                        ")" => depth -= 1,
                        _ => {}
                    }
                    depth == 0 || matches!(word(i), ";" | "{" | "}")
                });
                if let Some(c) = close.filter(|&c| word(c) == ")") {
                    let mut i = c + 1;
                    while i < tokens.len() && tokens[i].kind == TokenKind::Ident {
                        i += 1;
                    }
                    if i < tokens.len() && word(i) == "{" {
                        defined.insert(word(k));
                    }
                }
            }
            k += 1;
        }
    }
    let defined_here = |name: &str| defined.contains(name);
    let helpers: Vec<(&str, std::ops::Range<usize>)> = helpers
        .into_iter()
        .chain(
            included
                .iter()
                .filter(|name| !defined_here(name))
                .map(|name| (name.as_str(), 0..0)),
        )
        .collect();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    helpers
        .iter()
        .flat_map(|(name, body)| {
            memchr::memmem::find_iter(source.as_bytes(), name).filter_map(move |at| {
                let rest = source[at + name.len()..].trim_start();
                // Template arguments: `helper<16, 2>(...)`.
                let rest = match rest
                    .starts_with('<')
                    .then(|| angle_group_len(rest))
                    .flatten()
                {
                    Some(n) => rest[n..].trim_start(),
                    None => rest,
                };
                let before = source[..at].trim_end();
                let word_before = before.rsplit(|c: char| !ident(c)).next().unwrap_or("");
                // A header's helper is a free function: `x.name(`, `p->name(`, `T::name(` call
                // something else.
                let member = source[..at].ends_with('.')
                    || source[..at].ends_with("->")
                    || source[..at].ends_with("::");
                // Code, not a comment: a token covers it.
                let k = tokens.partition_point(|t| t.start() <= at);
                let code = k > 0 && at < tokens[k - 1].end();
                let call = code
                    && !source[..at].ends_with(ident)
                    && rest.starts_with('(')
                    && !body.contains(&at)
                    && (!body.is_empty() || !member)
                    // Not a declaration: a type word before the name.
                    && (word_before.is_empty()
                        || !before.ends_with(ident)
                        || matches!(word_before, "return" | "else" | "do"));
                // The whole call: its arguments are evaluated before the barrier runs.
                call.then(|| {
                    let open = at + name.len() + (source[at + name.len()..].len() - rest.len());
                    at..matching_paren(source, open).unwrap_or(at + name.len())
                })
            })
        })
        .collect()
}

/// Whether the barrier at `at` runs on every path through the function `body`: it stands at
/// the body's top level (not inside a block, a loop, a branch or parentheses), and nothing
/// before it leaves the function (`return`, `goto`, `throw`) or hides it from a target (a
/// directive line: `#if __CUDA_ARCH__ < 700 __threadfence(); #else asm(...) #endif`).
/// `if`s and loops before it end before it, whatever they do (`if (lane == 0) { ... }
/// __syncwarp();`).
///
/// One scan per function body, carried forward from one barrier to the next in it (a
/// function with many `"memory"` statements is read once, not once per statement).
#[derive(Default)]
struct PathScans(HashMap<(usize, usize), PathScan>);

/// How far a body has been read, and the state there.
#[derive(Clone, Copy, Default)]
struct PathScan {
    /// The next token to read.
    next: usize,
    depth: i32,
    /// Its own statement chooses whether it runs (`lane == 0 ? f() : g()`, `a && f()`,
    /// `if (x) f();`).
    chosen: bool,
    /// A `return` or a conditional directive came before: nothing after it runs on every path.
    left: bool,
}

impl PathScans {
    fn runs_on_every_path(
        &mut self,
        cx: &Ctx,
        asm_spans: &[std::ops::Range<usize>],
        body: std::ops::Range<usize>,
        at: usize,
    ) -> bool {
        let tokens = cx.tokens();
        let source = cx.source();
        let first = tokens.partition_point(|t| t.start() < body.start);
        let last = tokens.partition_point(|t| t.start() < at.min(body.end));
        let scan = self.0.entry((body.start, body.end)).or_default();
        if scan.next < first || scan.next > last {
            *scan = PathScan {
                next: first,
                ..PathScan::default()
            };
        }
        for t in &tokens[scan.next..last] {
            if scan.left {
                break;
            }
            // The last asm starting at or before the token (spans do not nest).
            let k = asm_spans.partition_point(|r| r.start <= t.start());
            if k > 0 && asm_spans[k - 1].contains(&t.start()) {
                continue;
            }
            if t.kind == ptxguard_analyzer::cpp::lexer::TokenKind::Directive {
                // A conditional (`#if`, `#else`...), not a `#pragma unroll`.
                let word = source[t.span.range()].trim_start_matches('#').trim_start();
                if word.starts_with("if") || word.starts_with("el") || word.starts_with("endif") {
                    scan.left = true;
                }
                continue;
            }
            match &source[t.span.range()] {
                "{" | "(" | "[" => scan.depth += 1,
                "}" | ")" | "]" => scan.depth -= 1,
                "return" | "goto" | "throw" | "co_return" => scan.left = true,
                "?" | "&&" | "||" | "if" | "else" | "for" | "while" | "do" | "switch" | "case"
                | "default" => scan.chosen = true,
                _ => {}
            }
            if scan.depth == 0 && matches!(&source[t.span.range()], ";" | "}") {
                scan.chosen = false;
            }
        }
        scan.next = last;
        !scan.left && scan.depth == 0 && !scan.chosen
    }
}

/// How accesses are looked for around an asm or a call.
struct Look<'a> {
    source: &'a str,
    tokens: &'a [Token],
    file: &'a FileScan,
    access: Access,
    /// Ranges of the asm's function that never run on a path through it (in order).
    exclusive: Vec<std::ops::Range<usize>>,
    /// Where what the window is around (the asm, or a call of its helper) takes its values:
    /// the asm's operands, the call's arguments. A load whose value goes there cannot sink
    /// below it.
    feeds: std::ops::Range<usize>,
    /// From here on, stores cannot move above the asm: the end of the spin loop it (or the
    /// call) is in (`usize::MAX` when none).
    writes_pinned_from: usize,
    /// The locals the asm's outputs are (`"=r"(a)`, the root of `"=r"(r[0])`).
    outputs: &'a [&'a str],
    /// Those and the locals that take their values after the asm ([`written_locals`]), on
    /// first need: an access after the asm whose address or stored value names one needs the
    /// asm's result, so it stays after the asm.
    results: std::cell::OnceCell<Vec<String>>,
    /// Where the asm's path ends in its function (its code past that is not reached).
    results_reach: usize,
    /// The asm's function body.
    function: std::ops::Range<usize>,
    /// Where [`Look::results`] name those locals: the asm's function after the asm (not a
    /// callee's or another function's body scanned from here).
    results_in: std::ops::Range<usize>,
    /// Which of the kernel's inputs and outputs the asm does not order ([`Look::kernel_data`]).
    kernel_data_unordered: KernelDataUnordered,
    /// The members of a type as the headers the file includes define it
    /// (`Evaluator::included_type_members`).
    included_type_members: &'a dyn Fn(&str) -> Option<HashMap<String, u32>>,
    /// Where the call of the asm's function is, when the window is around a call: a store of
    /// its result (`state[i] = f(bar(x));`) runs after it whatever the window.
    call_at: Option<usize>,
}

impl Look<'_> {
    /// The code in `within` before `around` back to the nearest barrier, and after it up to
    /// the nearest barrier.
    fn windows(
        &self,
        around: std::ops::Range<usize>,
        within: std::ops::Range<usize>,
    ) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        // A barrier in the body of a lambda the window is not in runs where the lambda is
        // called, not here.
        let here = |b: &std::ops::Range<usize>| !self.in_other_lambda(b.start, &around, &within);
        let mut before: Vec<&std::ops::Range<usize>> = self
            .file
            .barriers
            .iter()
            .filter(|b| b.end <= around.start && b.end >= within.start)
            .collect();
        before.sort_by_key(|b| std::cmp::Reverse(b.end));
        let from = before
            .into_iter()
            .find(|b| here(b))
            .map_or(within.start, |b| b.end);
        let mut after: Vec<&std::ops::Range<usize>> = self
            .file
            .barriers
            .iter()
            .filter(|b| b.start >= around.end && b.start <= within.end)
            .collect();
        after.sort_by_key(|b| b.start);
        let to = after
            .into_iter()
            .find(|b| here(b))
            .map_or(within.end, |b| b.start);
        (from..around.start.max(from), around.end.min(to)..to)
    }

    /// Whether `at` is inside the body of a lambda that opens within `within` and does not
    /// hold `around` (climbing the blocks around `at` no further out than `within`).
    fn in_other_lambda(
        &self,
        at: usize,
        around: &std::ops::Range<usize>,
        within: &std::ops::Range<usize>,
    ) -> bool {
        let bytes = self.source.as_bytes();
        let mut k = at;
        while let Some(open) = enclosing_open_brace(bytes, k) {
            if open <= within.start {
                return false;
            }
            if exclusive::is_lambda_body(self.source, open) {
                let close = self
                    .file
                    .closing_brace(self.source, open)
                    .unwrap_or(usize::MAX);
                return !(open < around.start && around.end <= close);
            }
            k = open;
        }
        false
    }

    /// The access nearest the asm (or call) in the window `before` it (when `in_before`), else
    /// in the window `after` it (when `in_after`).
    fn access_beside(
        &self,
        before: &std::ops::Range<usize>,
        after: &std::ops::Range<usize>,
        in_before: bool,
        in_after: bool,
    ) -> Option<std::ops::Range<usize>> {
        in_before
            .then(|| self.access(before.clone(), true))
            .flatten()
            .or_else(|| {
                in_after
                    .then(|| self.access(after.clone(), false))
                    .flatten()
            })
    }

    /// The C++ access in `range` nearest to the asm (or call) it is beside: the last of a
    /// window before it (`last`), the first of one after it.
    fn access(&self, range: std::ops::Range<usize>, last: bool) -> Option<std::ops::Range<usize>> {
        self.access_in(range, CALL_LEVELS, true, last)
    }

    /// Whether the subscript at `at` (`bars[i]`, `s.bars[i]`; no `->` on the way, which may
    /// load a pointer) is a whole argument of a call whose parameter there is a reference
    /// (`wait(bars[i], phase)` with `void wait(uint64_t& bar, int phase)`): the call binds
    /// it, loading nothing. The callee is the file's (every definition of that name agrees)
    /// or, when the file defines none, one of CuTe's barrier functions, which take the
    /// barrier as `uint64_t&` (`cute/arch/copy_sm90_desc.hpp`).
    fn passed_by_reference(&self, at: usize, end: usize) -> bool {
        const CUTE_BY_REFERENCE: &[&str] = &[
            "wait_barrier",
            "initialize_barrier",
            "set_barrier_transaction_bytes",
            "arrive_barrier",
        ];
        let (source, bytes) = (self.source, self.source.as_bytes());
        let start = postfix_start(source, 0, at);
        if source[start..at].contains("->") {
            return false;
        }
        let finish = postfix_end(source, at, end);
        if !source[..start].trim_end().ends_with(['(', ','])
            || !source[finish..].trim_start().starts_with([')', ','])
        {
            return false;
        }
        // Back to the call's `(`, counting the arguments before this one.
        let (mut depth, mut index, mut k) = (0usize, 0usize, start);
        let floor = start.saturating_sub(4096);
        let open = loop {
            if k <= floor {
                return false;
            }
            k -= 1;
            match bytes[k] {
                b')' | b']' | b'}' => depth += 1,
                b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
                b'(' => break k,
                b'[' | b'{' | b';' => return false,
                b',' if depth == 0 => index += 1,
                _ => {}
            }
        };
        let head = source[..open].trim_end();
        let name = &head[trailing_identifier_start(head)..];
        if name.is_empty() || is_keyword(name) {
            return false;
        }
        let bodies = self.callee_bodies(name);
        if bodies.is_empty() {
            return index == 0 && CUTE_BY_REFERENCE.contains(&name);
        }
        bodies.iter().all(|body| {
            function_head(source, body.start).is_some_and(|(_, params)| {
                split_arguments(&source[params])
                    .get(index)
                    .is_some_and(|p| {
                        let declarator = p.split('=').next().unwrap_or("");
                        declarator.contains('&') && !declarator.contains("&&")
                    })
            })
        })
    }

    /// Whether the access starting at `start` is in the value a local is given (`T v = p[i];`,
    /// `v = *q;`) whose name the asm's operands (or the call's arguments) use: the asm needs
    /// the value, so the load stays before it.
    fn feeds_the_asm(&self, start: usize) -> bool {
        let source = self.source;
        let floor = start.saturating_sub(2048);
        let Some(text) = source.get(floor..start) else {
            return false;
        };
        let statement = text.rfind([';', '{', '}']).map_or(text, |k| &text[k + 1..]);
        let bytes = statement.as_bytes();
        // The first `=` that assigns (not `==`, `!=`, `<=`, `>=`).
        let Some(eq) = (0..bytes.len()).find(|&k| {
            bytes[k] == b'='
                && bytes.get(k + 1) != Some(&b'=')
                && (k == 0 || !matches!(bytes[k - 1], b'=' | b'!' | b'<' | b'>'))
        }) else {
            return false;
        };
        let declarator = statement[..eq].trim_end();
        let name = &declarator[trailing_identifier_start(declarator)..];
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && source
                .get(self.feeds.clone())
                .is_some_and(|feeds| occurrences(feeds, name).next().is_some())
    }

    /// Whether the access at `access` (its whole expression, after the asm in its function)
    /// depends on a local the asm writes ([`Look::results`]): its address names one
    /// (`p[a]`), or, for a store, the value assigned does (`out[0] = a << 8;` after
    /// `asm("ld.global.u8 %0, [%1];" : "=r"(a) : ...)`). Such an access needs the asm's
    /// result, so it cannot move above the asm. Names are matched on identifier tokens
    /// (comments and strings do not count); a load merely in the same statement as the
    /// result (`out[i] = data[i] + a;`: `data[i]`) is not pinned.
    fn uses_the_asm_result(&self, access: std::ops::Range<usize>, store: bool) -> bool {
        if self.outputs.is_empty() || !self.results_in.contains(&access.start) {
            return false;
        }
        let results = self.results.get_or_init(|| {
            written_locals(
                self.source,
                self.outputs,
                self.function.clone(),
                self.results_in.start..self.results_reach,
                &self.file.asm_flows,
            )
        });
        let names_a_result = |range: std::ops::Range<usize>| {
            let first = self.tokens.partition_point(|t| t.start() < range.start);
            self.tokens[first..]
                .iter()
                .take_while(|t| t.start() < range.end)
                .any(|t| {
                    t.kind == TokenKind::Ident
                        && results.iter().any(|r| r == &self.source[t.span.range()])
                })
        };
        if names_a_result(access.clone()) {
            return true;
        }
        if !store {
            return false;
        }
        assigned_value(self.source, access.end).is_some_and(names_a_result)
    }

    /// Whether the postfix expression through the `[` or `->` at `at` is a row of a
    /// multi-dimensional array member and stops there (`state->histogram[r]` with `uint32_t
    /// histogram[3][256];` in a type of the file): an address, loading nothing. Only
    /// `name->member[...]` and `name.member[...]`, with fewer subscripts than every type of the
    /// file that declares `member` gives it dimensions.
    fn partial_member_row(&self, floor: usize, at: usize, end: usize) -> bool {
        let source = self.source;
        let start = postfix_start(source, floor, at);
        let finish = postfix_end(source, at, end).max(at);
        let Some(expr) = source.get(start..finish) else {
            return false;
        };
        let expr = expr.trim();
        let name = identifier_len(expr);
        if name == 0 {
            return false;
        }
        let rest = expr[name..].trim_start();
        let Some(rest) = rest.strip_prefix("->").or_else(|| rest.strip_prefix('.')) else {
            return false;
        };
        let rest = rest.trim_start();
        let member_len = identifier_len(rest);
        if member_len == 0 {
            return false;
        }
        let member = &rest[..member_len];
        let mut rest = rest[member_len..].trim_start();
        let mut subscripts = 0;
        while rest.starts_with('[') {
            let Some(n) = delimited_len(rest, b'[', b']') else {
                return false;
            };
            subscripts += 1;
            rest = rest[n..].trim_start();
        }
        if !rest.is_empty() {
            return false;
        }
        let types = self
            .file
            .type_members
            .get_or_init(|| type_members(source, self.tokens));
        let mut declared = types.values().filter_map(|m| m.get(member)).peekable();
        declared.peek().is_some() && declared.all(|&dimensions| dimensions > subscripts)
    }

    /// Whether the value a store assigns (from the `=` after `access_end` to the statement's
    /// end) holds the call the window is around: the store needs the call's result.
    fn stores_the_call_result(&self, access_end: usize) -> bool {
        let Some(call) = self.call_at else {
            return false;
        };
        let source = self.source;
        let assignment = source
            .get(access_end..)
            .is_some_and(|rest| rest.trim_start().starts_with('='));
        assignment && assigned_value(source, access_end).is_some_and(|v| v.contains(&call))
    }

    /// Whether the access through `base` is a `volatile` one: through a name declared
    /// `volatile` in `function` (its body or parameters) or at file scope, or through a cast
    /// to a `volatile` pointer. The compiler keeps volatile accesses, in order, beside volatile
    /// asm: a flag polled or published that way needs no `"memory"`.
    fn volatile_access(
        &self,
        base: std::ops::Range<usize>,
        function: std::ops::Range<usize>,
    ) -> bool {
        let text = &self.source[base];
        if occurrences(text, "volatile").next().is_some() {
            return true;
        }
        if self.file.volatile_names.is_empty() {
            return false;
        }
        let params = function.start.saturating_sub(2048)..function.start;
        root_names(text).names.iter().any(|name| {
            self.file.volatile_names.iter().any(|(n, at, file_scope)| {
                n == name && (*file_scope || function.contains(at) || params.contains(at))
            })
        })
    }

    /// Whether the `[` at `at` calls a function object: the name before it is a local made
    /// from a lambda alone (`auto bars = PatternVisitor([=](int i) { return base + i; });`),
    /// whose body accesses no memory itself: `bars[i]` computes, loading nothing.
    fn subscripts_callable(&self, at: usize, body: std::ops::Range<usize>) -> bool {
        let source = self.source;
        let name = &source[trailing_identifier_start(&source[..at])..at];
        if name.is_empty() {
            return false;
        }
        let key = (name.to_string(), body.start);
        if let Some(&known) = self.file.callables.borrow().get(&key) {
            return known;
        }
        let known = self.made_from_lambda(name, body.start..at.min(body.end));
        self.file.callables.borrow_mut().insert(key, known);
        known
    }

    /// Whether `name` is declared in `text` (a function's body up to a use of it) as `auto
    /// name = Type([...](...) { ... });` with a body that accesses no memory.
    fn made_from_lambda(&self, name: &str, within: std::ops::Range<usize>) -> bool {
        let source = self.source;
        let body = within.clone();
        let at = within.end;
        let text = &source[within];
        let mut found = None;
        for (before, rest) in occurrences(text, name) {
            let Some(init) = rest.trim_start().strip_prefix('=') else {
                continue;
            };
            if !before.trim_end().ends_with("auto") || init.starts_with('=') {
                continue;
            }
            // `Type(` then a lambda: `[captures](params) {`.
            let init = init.trim_start();
            let type_len = identifier_len(init);
            let Some(lambda) = init[type_len..].trim_start().strip_prefix('(') else {
                continue;
            };
            let lambda = lambda.trim_start();
            if type_len == 0 || !lambda.starts_with('[') {
                continue;
            }
            // `lambda` ends where `text` does: its start in the source.
            found = Some(body.start + text.len() - lambda.len());
        }
        let Some(lambda) = found else {
            return false;
        };
        let rest = &source[lambda..at];
        let Some(open) = rest.find('{') else {
            return false;
        };
        let Some(n) = delimited_len(&rest[open..], b'{', b'}') else {
            return false;
        };
        let inner = lambda + open + 1..lambda + open + n - 1;
        // The lambda is the whole argument: `})` closes the call.
        rest[open + n..].trim_start().starts_with(')')
            && self.access_in(inner, 0, true, false).is_none()
    }

    /// Whether the `[` at `at` follows the name of an array it declares (`__shared__ float
    /// tile[64];`, `extern __shared__ char smem[];`): no access.
    fn declares_array(&self, at: usize) -> bool {
        // A later dimension (`tile[2][64]`): back over the groups before it to the name.
        let mut at = at;
        while self.source[..at].ends_with(']') {
            match matching_open_bracket(self.source, at - 1) {
                Some(open) => at = open,
                None => break,
            }
        }
        let k = self.tokens.partition_point(|t| t.start() < at);
        k > 0
            && self.tokens[k - 1].span.end as usize == at
            && self.tokens[k - 1].kind == TokenKind::Ident
            && (plain_declaration(self.source, self.tokens, k - 1).is_some()
                || later_declarator(
                    self.source,
                    at.saturating_sub(4096),
                    self.tokens[k - 1].start(),
                ))
    }

    /// Whether C++ accesses sit beside a call of `name` (outside `callee`, the function's own
    /// body) on an open side: before the call back to a barrier (`open_before`), after it up
    /// to one (`open_after`). Where a caller's window is open to its own start or end, its
    /// callers are looked at in turn, up to `levels` calls up.
    fn callers_access(
        &self,
        name: &str,
        callee: std::ops::Range<usize>,
        scope: std::ops::Range<usize>,
        open_before: bool,
        open_after: bool,
        levels: usize,
    ) -> Option<std::ops::Range<usize>> {
        // Every asm of a helper asks the same of its callers: the answer depends only on
        // these and on what the window looks for.
        let key = CallersKey {
            name: name.to_string(),
            callee: (callee.start, callee.end),
            scope: (scope.start, scope.end),
            open: (open_before, open_after),
            levels,
            access: self.access,
            kernel_data_unordered: self.kernel_data_unordered,
            pinned: self.writes_pinned_from != usize::MAX,
        };
        if let Some(known) = self.file.callers.borrow().get(&key) {
            return known.clone();
        }
        let found =
            self.callers_access_uncached(name, callee, scope, open_before, open_after, levels);
        self.file.callers.borrow_mut().insert(key, found.clone());
        found
    }

    fn callers_access_uncached(
        &self,
        name: &str,
        callee: std::ops::Range<usize>,
        scope: std::ops::Range<usize>,
        open_before: bool,
        open_after: bool,
        levels: usize,
    ) -> Option<std::ops::Range<usize>> {
        let source = self.source;
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        if levels == 0 || name.is_empty() {
            return None;
        }
        // Each calling function is followed up once, however many calls it makes: the work
        // stays one scan of the file per caller.
        let mut followed = std::collections::HashSet::new();
        find_all(&source[scope.clone()], name).find_map(|offset| {
            let call = scope.start + offset;
            let call_end = call + name.len();
            // Not a call: the definition or a declaration (a type word before the name, or
            // before its qualifiers: `inline void Producer::sendX() {`).
            let mut qualified = call;
            while let Some(before) = source[..qualified].strip_suffix("::") {
                let start = trailing_identifier_start(before);
                if start == before.len() {
                    break;
                }
                qualified = start;
            }
            let word_before = source[..qualified]
                .trim_end()
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("");
            let declared = !word_before.is_empty()
                && source[..qualified].trim_end().ends_with(ident)
                && !matches!(word_before, "return" | "else" | "do" | "case");
            // A member call (`obj.name(`, `p->name(`) is followed only above the first
            // level: there the name is a method of the helper's own object (`inter_cta_.sync()`),
            // while a first-level `x.name(` is more often another type's method of that name.
            let member = source[..call].ends_with('.') || source[..call].ends_with("->");
            // In a comment (`// before the caller's `gdc_wait()``): no call. Comments are
            // the text no token covers; a name inside a `#define` (one directive token) or
            // in C++ held in a Python string (a string token here) is code.
            let k = self.tokens.partition_point(|t| t.start() <= call);
            let code = !self.file.cpp_tokens || (k > 0 && call < self.tokens[k - 1].end());
            if !code
                || callee.contains(&call)
                || declared
                || (member && levels == CALL_LEVELS)
                || source[..call].trim_end().ends_with(['*', '&'])
                || (source[..call].trim_end().ends_with('>') && !source[..call].ends_with("->"))
                || source[..call].ends_with(ident)
                || !source[call_end..].trim_start().starts_with('(')
                || source[..call].trim_end().ends_with("define")
            {
                return None;
            }
            // The call's arguments are evaluated before it: the window after starts at `)`.
            let args_end = matching_paren(source, call_end).unwrap_or(call_end);
            // Not a call: a definition whose name follows an attribute, not a type word
            // (`__global__ void __launch_bounds__(256, 1) combine(...) {`).
            if opens_a_body(&source[args_end.min(source.len())..]) {
                return None;
            }
            let block = enclosing_function_body(source, call);
            // Code on a branch the call's path never takes is not beside it either.
            let at_call = Look {
                call_at: Some(call),
                exclusive: exclusive_ranges(
                    source,
                    self.tokens,
                    &self.file.dead,
                    block.clone(),
                    call,
                ),
                feeds: call_end..args_end,
                outputs: &[],
                results: std::cell::OnceCell::new(),
                results_in: 0..0,
                results_reach: 0,
                function: 0..0,
                // After a call whose spin loop pins the stores after it, every store after
                // the call is after that loop too.
                writes_pinned_from: if self.writes_pinned_from == usize::MAX {
                    exclusive::spin_loop_end(source, block.clone(), call).unwrap_or(usize::MAX)
                } else {
                    args_end
                },
                ..*self
            };
            let (b, a) = at_call.windows(call..args_end, block.clone());
            let here = at_call.access_beside(&b, &a, open_before, open_after);
            if here.is_some() {
                return here;
            }
            let caller_open_before = open_before && b.start == block.start;
            let caller_open_after = open_after && a.end >= block.end;
            if !(caller_open_before || caller_open_after)
                || !followed.insert((block.start, caller_open_before, caller_open_after))
            {
                return None;
            }
            let caller = function_name_before(source, block.start)?;
            if caller == name {
                return None;
            }
            at_call.callers_access(
                caller,
                block.clone(),
                0..source.len(),
                caller_open_before,
                caller_open_after,
                levels - 1,
            )
        })
    }
}

/// Whether `rest` (what follows a parenthesised list's `)`) opens a function body: `{`, perhaps after
/// the qualifiers a definition may carry (`) const {`, `) noexcept {`). A call is never
/// followed by a block.
fn opens_a_body(rest: &str) -> bool {
    let mut rest = rest.trim_start();
    loop {
        let word = identifier_len(rest);
        if !QUALIFIERS_AFTER_PARAMETERS.contains(&&rest[..word]) {
            return rest.starts_with('{');
        }
        rest = rest[word..].trim_start();
    }
}

/// The qualifiers a function definition may carry between its parameters and its body.
const QUALIFIERS_AFTER_PARAMETERS: &[&str] = &[
    "const", "noexcept", "override", "final", "volatile", "mutable",
];

/// Calls that are compiler barriers for memory (each carries a `"memory"` clobber or is a
/// full barrier to the compiler): the spans of their names.
fn barrier_calls(source: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    const NAMES: &[&str] = &[
        "__syncthreads",
        "__syncwarp",
        "__threadfence",
        "__barrier_sync",
        "grid.sync()",
        "block.sync()",
        "this_grid().sync()",
        "this_thread_block().sync()",
        // `asm volatile("griddepcontrol.wait;" ::: "memory")` in CUDA's
        // `cuda_device_runtime_api.h` (12.x and 13.x); not
        // `cudaTriggerProgrammaticLaunchCompletion()`, whose asm has no clobber.
        "cudaGridDependencySynchronize()",
    ];
    // CUTLASS's and CuTe's barrier helpers, whose asm carries `"memory"` on every path they
    // run (read in CUTLASS 7107b05: `cutlass/arch/barrier.h`, `cute/arch/copy_sm90_tma.hpp`),
    // with what a file that defines its own of that name would hold (then the file's own
    // body is judged instead). Not `cute::cp_async_wait`: its asm has no `"memory"`.
    const LIBRARY: &[(&str, &str)] = &[
        ("NamedBarrier::sync(", "NamedBarrier {"),
        ("NamedBarrier::arrive(", "NamedBarrier {"),
        ("NamedBarrier::arrive_and_wait(", "NamedBarrier {"),
        (
            "fence_view_async_shared()",
            "void fence_view_async_shared() {",
        ),
        ("fence_barrier_init()", "void fence_barrier_init() {"),
        ("tma_store_wait<", "tma_store_wait() {"),
    ];
    let library = LIBRARY
        .iter()
        .filter(move |(_, own)| memchr::memmem::find(source.as_bytes(), own.as_bytes()).is_none())
        .map(|(name, _)| *name);
    let groups = cooperative_group_syncs(source);
    NAMES
        .iter()
        .copied()
        .chain(library)
        .flat_map(move |n| {
            memchr::memmem::find_iter(source.as_bytes(), n).map(move |at| at..at + n.len())
        })
        .chain(groups)
}

/// `name.sync()` of the file's cooperative groups (`cg::thread_block_tile<32> tile = ...;`,
/// `auto tile = cg::tiled_partition<16>(block);`, `thread_block b = this_thread_block();`):
/// a group's `sync()` is `__syncthreads()`, `__syncwarp(mask)` or the grid barrier, each a
/// compiler barrier. The spans of those calls.
fn cooperative_group_syncs(source: &str) -> Vec<std::ops::Range<usize>> {
    const TYPES: &[&str] = &[
        "thread_block_tile<",
        "thread_block ",
        "grid_group ",
        "cluster_group ",
        "coalesced_group ",
        "thread_group ",
    ];
    const MAKERS: &[&str] = &[
        "tiled_partition",
        "this_thread_block()",
        "this_grid()",
        "this_cluster()",
        "coalesced_threads()",
    ];
    if !source.contains("cooperative_groups") {
        return Vec::new();
    }
    let mut names: Vec<&str> = Vec::new();
    // `Type name` (template arguments skipped), and `auto name = maker`.
    for ty in TYPES {
        for (at, _) in source.match_indices(ty) {
            let mut rest = &source[at + ty.len() - 1..];
            if ty.ends_with('<') {
                let Some(n) = angle_group_len(rest).or_else(|| delimited_len(rest, b'<', b'>'))
                else {
                    continue;
                };
                rest = &rest[n..];
            }
            let rest = rest.trim_start().trim_start_matches('&').trim_start();
            let n = identifier_len(rest);
            if n > 0 {
                names.push(&rest[..n]);
            }
        }
    }
    for maker in MAKERS {
        for (at, _) in source.match_indices(maker) {
            let before = source[..at].trim_end();
            let before = before
                .strip_suffix("cg::")
                .or_else(|| before.strip_suffix("cooperative_groups::"))
                .unwrap_or(before)
                .trim_end();
            let Some(declarator) = before.strip_suffix('=') else {
                continue;
            };
            let declarator = declarator.trim_end();
            let start = trailing_identifier_start(declarator);
            if start < declarator.len() && declarator[..start].trim_end().ends_with("auto") {
                names.push(&declarator[start..]);
            }
        }
    }
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .filter(|n| !is_keyword(n))
        .flat_map(|name| {
            occurrences(source, name)
                .filter(|(_, rest)| rest.starts_with(".sync()"))
                .map(move |(before, _)| before.len()..before.len() + name.len() + ".sync()".len())
        })
        .collect()
}

/// The names declared `volatile` in `tokens`: the last name before the declarator ends (`;`,
/// `=`, `,`, `)`, `[`, `{`), with where it is and whether at file scope (outside braces).
fn volatile_declarations(source: &str, tokens: &[Token]) -> Vec<(String, usize, bool)> {
    let text = |t: &Token| source.get(t.span.range()).unwrap_or("");
    let mut out = Vec::new();
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate() {
        match text(t) {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            "volatile" if t.kind == TokenKind::Ident => {
                // `asm volatile (`, `__asm__ volatile goto (`: a qualifier, no declaration.
                let prev = k.checked_sub(1).map_or("", |p| text(&tokens[p]));
                let next = tokens.get(k + 1).map_or("", text);
                if matches!(prev, "asm" | "__asm" | "__asm__" | "inline" | "__inline")
                    || matches!(next, "(" | "goto" | "inline")
                {
                    continue;
                }
                let mut name = None;
                for u in tokens[k + 1..].iter().take(32) {
                    match text(u) {
                        ";" | "=" | "," | ")" | "[" | "{" | ">" => break,
                        w if u.kind == TokenKind::Ident && !is_keyword(w) => {
                            name = Some((w.to_string(), u.start()));
                        }
                        _ => {}
                    }
                }
                if let Some((name, at)) = name {
                    out.push((name, at, depth == 0));
                }
            }
            _ => {}
        }
    }
    out
}

/// The body of the function around byte `at`: `{ }` blocks outward, through those of `if`,
/// `for`, `while`, `switch`, `do`, `else` and plain braces, up to the first that follows
/// another kind of `(...)` (a function's parameters) or a name.
fn enclosing_function_body(source: &str, at: usize) -> std::ops::Range<usize> {
    let mut block = enclosing_block(source, at);
    for _ in 0..64 {
        let head = source[..block.start.saturating_sub(1)].trim_end();
        let control = if let Some(before_paren) = head.strip_suffix(')') {
            // The keyword before the matching `(`.
            let mut depth = 1i32;
            let mut open = None;
            for (i, c) in before_paren.char_indices().rev() {
                match c {
                    ')' => depth += 1,
                    '(' => {
                        depth -= 1;
                        if depth == 0 {
                            open = Some(i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            open.is_some_and(|o| {
                let word = before_paren[..o]
                    .trim_end()
                    .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("");
                matches!(word, "if" | "for" | "while" | "switch" | "constexpr")
            })
        } else {
            head.ends_with("else")
                || head.ends_with("do")
                || head.ends_with(['{', '}', ';'])
                || head.ends_with("try")
        };
        if !control || block.start < 2 {
            return block;
        }
        block = enclosing_block(source, block.start - 1);
    }
    block
}

/// The `{` of the block around byte `at` (not counting a `{` at `at` itself).
fn enclosing_open_brace(bytes: &[u8], at: usize) -> Option<usize> {
    let within = &bytes[..at.min(bytes.len())];
    first_unmatched(
        memchr::memrchr2_iter(b'{', b'}', within),
        within,
        b'}',
        b'{',
    )
}

/// The `{ }` block around byte `at` (its inside), found by counting braces outward.
fn enclosing_block(source: &str, at: usize) -> std::ops::Range<usize> {
    let bytes = source.as_bytes();
    let start = enclosing_open_brace(bytes, at).map_or(0, |i| i + 1);
    let after = bytes.get(at..).unwrap_or_default();
    let end = first_unmatched(memchr::memchr2_iter(b'{', b'}', after), after, b'{', b'}')
        .map_or(bytes.len(), |i| at + i);
    start..end
}

/// The first of `positions` (walked in the order given: where `nest` or `close` are in
/// `bytes`) holding `close` with every `nest` seen before it matched: the brace that ends the
/// block, walking out of it either way.
fn first_unmatched(
    positions: impl Iterator<Item = usize>,
    bytes: &[u8],
    nest: u8,
    close: u8,
) -> Option<usize> {
    let mut depth = 0u32;
    for i in positions {
        if bytes[i] == nest {
            depth += 1;
        } else if bytes[i] == close {
            if depth == 0 {
                return Some(i);
            }
            depth -= 1;
        }
    }
    None
}

/// The locals an asm writes: its outputs' roots, the other members of an anonymous union
/// holding one (`union { uint64_t r8[2]; uint32_t r4[4]; };`: a write of `r4[0]` is one of
/// `r8[0]`), and the locals computed from those in `after` (`lo` from the asm, then `r4[1] =
/// __funnelshift_r(lo, hi, s);`, then `out[0] = r8[0];` needs the asm's result).
fn written_locals(
    source: &str,
    outputs: &[&str],
    body: std::ops::Range<usize>,
    after: std::ops::Range<usize>,
    asm_flows: &[AsmFlow],
) -> Vec<String> {
    let mut written: Vec<String> = outputs.iter().map(|o| o.to_string()).collect();
    let unions = anonymous_union_members(&source[body.clone()]);
    let add = |written: &mut Vec<String>, name: &str| {
        if !written.iter().any(|w| w == name) {
            written.push(name.to_string());
        }
        for members in unions.iter().filter(|m| m.contains(&name)) {
            for m in members {
                if !written.iter().any(|w| w == m) {
                    written.push(m.to_string());
                }
            }
        }
    };
    for name in written.clone() {
        add(&mut written, &name);
    }
    // Later asm statements computing from a result (`mma.sync` on fragments an `ldmatrix`
    // loaded) write results too; then the assignments; twice, for chains through both.
    let later_asm: Vec<&AsmFlow> = asm_flows
        .iter()
        .filter(|f| f.start > after.start && f.start < after.end)
        .collect();
    let after_range = after.clone();
    let after = source
        .get(after_range.start.min(after_range.end)..after_range.end)
        .unwrap_or("");
    for _ in 0..2 {
        for flow in &later_asm {
            if flow.reads.iter().any(|r| written.contains(r)) {
                for w in &flow.writes {
                    add(&mut written, w);
                }
            }
        }
        assigned_from_results(source, &body, after, &unions, &mut written, &add);
    }
    written
}

/// Adds to `written` the locals an assignment in `after` computes from one of them.
fn assigned_from_results(
    source: &str,
    body: &std::ops::Range<usize>,
    after: &str,
    unions: &[Vec<&str>],
    written: &mut Vec<String>,
    add: &dyn Fn(&mut Vec<String>, &str),
) {
    for statement in after.split([';', '{', '}']) {
        let Some(eq) = crate::support::cpp_uses::assignment_at(statement) else {
            continue;
        };
        let (left, right) = (&statement[..eq], &statement[eq + 1..]);
        if !identifiers_in(right).any(|n| written.iter().any(|w| w == n)) {
            continue;
        }
        let assignee = left
            .trim()
            .trim_end_matches(|c: char| "+-*/|&^<>".contains(c))
            .trim();
        let target = assignee.split(['[', '.']).next().unwrap_or("").trim();
        let root = target
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        if root.is_empty() || target.contains("->") {
            continue;
        }
        // A local takes the value: a bare name, a member of an anonymous union, or an
        // element of an array declared in the function (`out[i] = v` through a pointer is a
        // store, not a local computed from the result).
        if target == assignee
            || unions.iter().any(|m| m.contains(&root))
            || declares_array(&source[body.clone()], root)
        {
            add(written, root);
        }
    }
}

/// The value a store assigns: from the first `=` after `access_end` to the end of the
/// statement (`;`, or a brace).
fn assigned_value(source: &str, access_end: usize) -> Option<std::ops::Range<usize>> {
    let rest = source.get(access_end.min(source.len())..)?;
    let value_start = access_end + rest.find('=')? + 1;
    let value_end = source[value_start..]
        .find([';', '{', '}'])
        .map_or(source.len(), |k| value_start + k);
    Some(value_start..value_end)
}

/// [`output_root`] when it names a local the output writes: a bare name, or an array declared
/// in `body` (`frag` of `((unsigned*)(frag + 0))[1]`); not a pointer written through
/// (`((unsigned*)buf)[0]` with `buf` a parameter: memory, not a local).
fn local_output_root<'a>(
    source: &str,
    body: std::ops::Range<usize>,
    expr: &'a str,
    arrays: &ArraysDeclared,
) -> &'a str {
    let root = output_root(expr);
    if root.is_empty() || expr.trim() == root {
        return root;
    }
    let key = (body.start, body.end, root.to_string());
    let declared = *arrays.borrow_mut().entry(key).or_insert_with(|| {
        source
            .get(body)
            .is_some_and(|body| declares_array(body, root))
    });
    if declared {
        root
    } else {
        ""
    }
}

/// Memo of [`declares_array`] by (body start, body end, name): every asm of a function asks
/// it for the same output arrays.
type ArraysDeclared = std::cell::RefCell<HashMap<(usize, usize, String), bool>>;

/// The local an output expression writes: its first name (`v`, `r` of `r[0]`, `frag` of
/// `((unsigned*)(frag + 0))[1]`), past casts (`(unsigned*)`, `(float)`); empty when none.
fn output_root(expr: &str) -> &str {
    let mut e = expr.trim();
    loop {
        let len = identifier_len(e);
        if len > 0 {
            let word = &e[..len];
            return if word.starts_with(|c: char| c.is_ascii_digit()) {
                ""
            } else {
                word
            };
        }
        let Some(inner) = e.strip_prefix('(') else {
            // `*p`, `&x`: memory through a pointer, not a local.
            return "";
        };
        // `(unsigned*)`, `(const float *)`, `(float)`: a cast, skipped; else step inside.
        let cast = inner.find(')').filter(|&close| {
            let words = &inner[..close];
            words
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || " _*&:".contains(c))
                && (words.contains(['*', '&'])
                    || words.split_whitespace().all(|w| {
                        matches!(
                            w,
                            "unsigned"
                                | "signed"
                                | "int"
                                | "short"
                                | "long"
                                | "char"
                                | "float"
                                | "double"
                                | "const"
                                | "volatile"
                        )
                    }))
        });
        e = match cast {
            Some(close) => inner[close + 1..].trim_start(),
            None => inner.trim_start(),
        };
    }
}

#[cfg(test)]
#[test]
fn output_roots_past_casts() {
    assert_eq!(output_root("v"), "v");
    assert_eq!(output_root(" r[0]"), "r");
    assert_eq!(
        output_root("((unsigned*)(A_shared_warp + 0))[1]"),
        "A_shared_warp"
    );
    assert_eq!(output_root("((float *)(C_warp + 8))[0]"), "C_warp");
    assert_eq!(output_root("(float)x"), "x");
    assert_eq!(output_root("*p"), "");
    assert_eq!(output_root("(*p)"), "");
    assert_eq!(output_root("0"), "");
}

/// [`FileScan::asm_flows`]: each asm statement's output roots (`c` of `"=f"(c[0])`) and the
/// names its inputs read (with `"+r"` outputs, which are read too).
fn asm_flows(cx: &Ctx, arrays: &ArraysDeclared) -> Vec<AsmFlow> {
    let mut flows: Vec<AsmFlow> = cx
        .statements
        .iter()
        .map(|stmt| {
            let body = stmt
                .context
                .function
                .as_ref()
                .map_or(0..0, |f| f.body.start as usize..f.body.end as usize);
            let root =
                |e: &str| local_output_root(cx.source(), body.clone(), e, arrays).to_string();
            let writes = stmt
                .outputs
                .iter()
                .map(|o| root(&o.expr))
                .filter(|r| !r.is_empty() && !r.starts_with(|c: char| c.is_ascii_digit()))
                .collect();
            let reads = stmt
                .inputs
                .iter()
                .chain(
                    stmt.outputs
                        .iter()
                        .filter(|o| o.constraint.text.contains('+')),
                )
                .flat_map(|o| identifiers_in(&o.expr).map(str::to_string))
                .collect();
            AsmFlow {
                start: stmt.span.start as usize,
                writes,
                reads,
            }
        })
        .collect();
    flows.sort_by_key(|f| f.start);
    flows
}

/// Where the block holding the declaration of the local `name` in force at `range`'s end ends
/// (`T* __restrict__ dst_p = ...`: a type word before the name, an initializer or `;` after
/// it; the last such declaration in `range` whose block is still open there).
fn local_scope_end(source: &str, range: std::ops::Range<usize>, name: &str) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    let text = source.get(range.clone())?;
    occurrences(text, name)
        .filter(|(before, rest)| {
            let rest = rest.trim_start();
            let before =
                before.trim_end_matches(|c: char| c.is_whitespace() || c == '*' || c == '&');
            let word_start = last_word_start(before);
            let word = &before[word_start..];
            // The type word starts the declaration, or follows another (`const int* p`):
            // `s = scale * p[2]` is a product.
            let ahead = before[..word_start].trim_end();
            let starts = ahead.is_empty()
                || ahead.ends_with([';', '{', '}', '(', ',', '>', ')', '*', '&'])
                || ahead.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            rest.starts_with(['=', ';', '(', '{', '['])
                && !rest.starts_with("==")
                && starts
                && (before.ends_with('>')
                    || (!word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit())))
                && !matches!(
                    word,
                    "return" | "else" | "case" | "delete" | "throw" | "sizeof" | "do"
                )
        })
        .map(|(before, _)| range.start + before.len())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        // The declaration in force at the asm: in a block still open there.
        .map(|at| enclosing_block(source, at).end)
        .find(|&end| end >= range.end)
}

/// Where the identifier `text` ends with starts (its length when it ends otherwise).
fn last_word_start(text: &str) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// Whether `body` declares an array `name` (`float acc[4]`: a type word before the name).
fn declares_array(body: &str, name: &str) -> bool {
    let pattern = format!("{name}[");
    body.match_indices(&pattern).any(|(at, _)| {
        let before = &body[..at];
        let spaced = before.ends_with(|c: char| c.is_whitespace());
        let before = before.trim_end();
        let word_start = last_word_start(before);
        let word = &before[word_start..];
        spaced
            && before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '>')
            && !matches!(word, "return" | "else" | "case" | "delete" | "throw")
    })
}

/// The pointer an access expression goes through, when it is one name, perhaps cast and
/// offset: `p`, `reinterpret_cast<T2*>(p + off)`, `(T2*)(p + off)`, `(p + off)`.
fn leading_pointer(expr: &str) -> Option<&str> {
    let mut rest = expr.trim();
    for _ in 0..4 {
        let word = &rest[..identifier_len(rest)];
        if CASTS.contains(&word) {
            let after = rest[word.len()..].trim_start();
            let after = after.strip_prefix('<').map(|_| after)?;
            let after = after[angle_group_len(after)?..].trim_start();
            let inner = after.get(1..group_len(after)? - 1)?;
            rest = inner.trim();
        } else if rest.starts_with('(') {
            let len = group_len(rest)?;
            let inner = rest[1..len - 1].trim();
            let after = rest[len..].trim();
            // `(T*)p`: a C cast, the pointer after it; `(p + off)`: the group itself.
            rest = if inner.ends_with('*') && !after.is_empty() {
                after
            } else if after.is_empty() {
                inner
            } else {
                return None;
            };
        } else {
            break;
        }
    }
    let name = &rest[..identifier_len(rest)];
    let after = rest[name.len()..].trim_start();
    let offset = after.is_empty()
        || ((after.starts_with('+') || after.starts_with('-')) && !after.starts_with("->"));
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) && offset).then_some(name)
}

/// For a pointer named at `at` inside a parenthesised offset (`(p + off)`, perhaps cast):
/// `Some(true)` when the group is stored through (`(...)[i] = v`, `*(...) = v`), `Some(false)`
/// when it is read through (`(...)[i]` otherwise), `None` when it is not accessed there.
fn stored_through_offset(source: &str, at: usize) -> Option<bool> {
    let bytes = source.as_bytes();
    // The `(` the name is in, within its statement.
    let mut depth = 0i32;
    let mut open = None;
    for i in (at.saturating_sub(512)..at).rev() {
        match bytes[i] {
            b')' => depth += 1,
            b'(' if depth == 0 => {
                open = Some(i);
                break;
            }
            b'(' => depth -= 1,
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    let open = open?;
    let close = open + group_len(&source[open..])? - 1;
    // The pointer leads the group, and an offset follows it: `(p + off)`, `(p - off)`.
    let name = &source[at..at + identifier_len(&source[at..])];
    let group = source[open + 1..close].trim();
    let offset = group.strip_prefix(name).map(str::trim_start);
    if !offset.is_some_and(|o| o.starts_with(['+', '-']) && !o.starts_with("->")) {
        return None;
    }
    let after = source[close + 1..].trim_start();
    let deref = source[..open].trim_end().ends_with('*');
    let rest = if after.starts_with('[') {
        &after[bracket_group_len(after)?..]
    } else if deref {
        after
    } else {
        return None;
    };
    let rest = rest.trim_start();
    Some(rest.starts_with('=') && !rest.starts_with("=="))
}

/// The member names of each anonymous `union { ... };` in `body`, declared as locals.
fn anonymous_union_members(body: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    for (at, _) in body.match_indices("union") {
        let before_ok = !body[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let rest = &body[at + "union".len()..];
        let Some(inner) = rest.trim_start().strip_prefix('{') else {
            continue;
        };
        let Some(close) = inner.find('}') else {
            continue;
        };
        // Anonymous: nothing but `;` after the `}` (a named object, `} u;`, is one name).
        if !before_ok || !inner[close + 1..].trim_start().starts_with(';') {
            continue;
        }
        let members: Vec<&str> = inner[..close]
            .split(';')
            .filter_map(|declaration| {
                let declaration = declaration.split('[').next()?.trim_end();
                let start = last_word_start(declaration);
                let name = &declaration[start..];
                (!name.is_empty() && start > 0).then_some(name)
            })
            .collect();
        if members.len() > 1 {
            out.push(members);
        }
    }
    out
}

impl Look<'_> {
    /// Whether `range` of the source holds a C++ memory access (or, with [`Access::Write`], a
    /// write: assigned or incremented; with [`Access::Shared`], one that may be of shared
    /// memory, or a call that may make one) outside asm statements and comments: a subscript
    /// `p[i]`, `->`, a unary `*`. `calls` bounds how deep called functions are looked into;
    /// `strict` counts an access through a pointer of unknown origin as shared, which a callee
    /// given no shared or unknown pointer need not.
    fn access_in(
        &self,
        range: std::ops::Range<usize>,
        calls: usize,
        strict: bool,
        last: bool,
    ) -> Option<std::ops::Range<usize>> {
        let source = self.source;
        let mut found = None;
        // Before the asm, the nearest store is the evidence to read first (what a release
        // publishes): a nearer load is kept only when no store is in the window.
        let mut found_store = None;
        // A write: the access is assigned to, or incremented.
        let written = |from: usize| {
            let rest = &source[from.min(source.len())..];
            let close = if rest.starts_with('[') {
                rest.find(']').map_or(rest.len(), |i| i + 1)
            } else if rest.starts_with('(') {
                // `*(p + i) = v`: past the parenthesised operand.
                group_len(rest).unwrap_or(0)
            } else {
                0
            };
            let after = rest[close..].trim_start_matches(|c: char| {
                c.is_ascii_alphanumeric() || c == '_' || c == '.' || c.is_whitespace()
            });
            (after.starts_with('=') && !after.starts_with("=="))
                || ["+=", "-=", "*=", "/=", "|=", "&=", "^=", "++", "--"]
                    .iter()
                    .any(|op| after.starts_with(op))
        };
        // The function the range is in, whose parameters and locals the names are.
        let function_body = std::cell::OnceCell::new();
        let function = || {
            function_body
                .get_or_init(|| enclosing_function_body(source, range.start))
                .clone()
        };
        // Whether the access after `at`, through the pointer expression `base`, counts.
        let hit = |at: usize, base: std::ops::Range<usize>| {
            // Pinned on its side of the asm whatever the clobbers: a store after the spin loop
            // the asm is in, a load (in a window before it) whose value the asm takes.
            // An atomic given the address (`atomicCAS(&flags[i], ...)`) writes too.
            let to_atomic = || {
                // The statement's text back to at most 512 bytes, from a character's start.
                let floor = (base.start.saturating_sub(512)..=base.start)
                    .find(|&k| source.is_char_boundary(k))
                    .unwrap_or(base.start);
                source[..base.start].trim_end().ends_with('&')
                    && statement_calls_an_atomic(&source[floor..base.start])
            };
            let assigned = written(at);
            let store = assigned || to_atomic();
            // After the asm: the access's whole expression, for a dependence on its result.
            let needs_result = || {
                let access_end = postfix_end(source, at, range.end.min(source.len())).max(at);
                self.uses_the_asm_result(base.start..access_end, assigned)
            };
            let pinned = (!last && needs_result())
                || (assigned
                    && self.stores_the_call_result(
                        postfix_end(source, at, range.end.min(source.len())).max(at),
                    ))
                || if store {
                    at >= self.writes_pinned_from
                } else {
                    last && self.feeds_the_asm(base.start)
                };
            // Data of the kernel's caller that no thread of the kernel both writes and reads.
            let unordered = self.kernel_data_unordered != KernelDataUnordered::None && {
                match (
                    self.kernel_data_unordered,
                    self.kernel_data(base.clone(), function()),
                ) {
                    (KernelDataUnordered::InputsAndOutputs, KernelData::Input { .. }) => !store,
                    (KernelDataUnordered::InputsAndOutputs, KernelData::Output) => store,
                    (KernelDataUnordered::RestrictInputs, KernelData::Input { restrict }) => {
                        restrict && !store
                    }
                    _ => false,
                }
            };
            !pinned
                && !unordered
                && !self.volatile_access(base.clone(), function())
                && match self.access {
                    // A local array is the thread's own memory: no other thread sees it, so no
                    // ordering instruction is about it.
                    Access::Any => !self.thread_private(base, function()),
                    Access::Write => written(at) && !self.thread_private(base, function()),
                    Access::WriteOutsideShared => {
                        written(at)
                            && !self.thread_private(base.clone(), function())
                            && !self.known_shared(base, function())
                    }
                    Access::Shared => self.may_be_shared(base, function(), strict),
                }
        };
        let bytes = source.as_bytes();
        let end = range.end.min(bytes.len());
        let mut i = range.start;
        while i < end {
            // The last asm starting at or before `i` (spans do not nest).
            let asm_spans = &self.file.asm_spans;
            let k = asm_spans.partition_point(|r| r.start <= i);
            if k > 0 && asm_spans[k - 1].contains(&i) {
                i = asm_spans[k - 1].end;
                continue;
            }
            if let Some(skip) = self.exclusive.iter().find(|r| r.contains(&i)) {
                i = skip.end;
                continue;
            }
            match bytes[i] {
                b'{' => {
                    // A lambda's body runs where it is called (unless called right here); a
                    // block that returns never reaches the asm after it.
                    if let Some(close) = self.file.closing_brace(source, i).filter(|&c| c < end) {
                        let called_here = source[close + 1..].trim_start().starts_with('(');
                        if (exclusive::is_lambda_body(source, i) && !called_here)
                            || (last && exclusive::block_returns(source, i, close))
                        {
                            i = close + 1;
                            continue;
                        }
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    i = bytes[i..end]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(end, |n| i + n);
                    continue;
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i = source[i..end].find("*/").map_or(end, |n| i + n + 2);
                    continue;
                }
                b'"' => {
                    i += 1;
                    while i < end && bytes[i] != b'"' && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'[' if i > 0
                    && (bytes[i - 1].is_ascii_alphanumeric()
                        || matches!(bytes[i - 1], b'_' | b')' | b']'))
                    && !only_address(source, range.start, i, end)
                    && !self.partial_member_row(range.start, i, end)
                    && !self.declares_array(i)
                    && !self.passed_by_reference(i, end)
                    && !self.subscripts_callable(i, function())
                    && hit(i, postfix_start(source, range.start, i)..i) =>
                {
                    let start = postfix_start(source, range.start, i);
                    found = Some(start..postfix_end(source, i, end).max(i + 1));
                    if last && written(i) {
                        found_store = found.clone();
                    }
                }
                b'-' if bytes.get(i + 1) == Some(&b'>')
                    && !trailing_return_type(source, i)
                    && !only_address(source, range.start, i, end)
                    && !self.partial_member_row(range.start, i, end)
                    && hit(i + 2, postfix_start(source, range.start, i)..i) =>
                {
                    let start = postfix_start(source, range.start, i);
                    found = Some(start..postfix_end(source, i, end).max(i + 2));
                    if last && written(i + 2) {
                        found_store = found.clone();
                    }
                }
                b'*' => {
                    // Unary: after an operator or an opening bracket, before a name or `(`.
                    let before = source[range.start..i].trim_end();
                    let unary = before.is_empty()
                        || before.ends_with([
                            '=', '(', ',', ';', '{', '}', '+', '-', '!', '&', '|', '?', ':', '<',
                            '>', '[',
                        ])
                        || before.ends_with("return");
                    let next = bytes.get(i + 1).copied().unwrap_or(b' ');
                    let operand_end = postfix_end(source, i + 1, end);
                    if unary
                        && (next.is_ascii_alphabetic() || next == b'_' || next == b'(')
                        && !binds_reference(source, range.start, i, operand_end, end)
                        && !later_declarator(source, range.start, i)
                        && hit(i + 1, i + 1..operand_end)
                    {
                        found = Some(i..operand_end.max(i + 1));
                        if last && written(i + 1) {
                            found_store = found.clone();
                        }
                    }
                }
                // A name: a call, perhaps a member call (`tile.sum(i)`), may access shared memory.
                c if self.access == Access::Shared
                    && (c.is_ascii_alphabetic() || c == b'_')
                    && !(i > 0
                        && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
                {
                    let word_end = i + identifier_len(&source[i..]);
                    if self.call_may_touch_shared(i..word_end, function(), calls, strict) {
                        found = Some(i..word_end);
                        if !last {
                            return found;
                        }
                    }
                    i = word_end;
                    continue;
                }
                _ => {}
            }
            if found.is_some() && !last {
                return found;
            }
            i += 1;
        }
        found_store.or(found)
    }

    /// Whether the access through the pointer expression at `base` is of shared memory: every
    /// name it is computed from is (`__shared__` arrays, pointers into them).
    fn known_shared(&self, base: std::ops::Range<usize>, function: std::ops::Range<usize>) -> bool {
        let roots = root_names(&self.source[base]);
        let text_of = |t: &Token| self.source.get(t.span.range()).unwrap_or("");
        // A pointer kept in shared memory (`__shared__ float* dst;`) may point anywhere.
        // Memoised with the arrays under `&name` (the check reads the file).
        let shared_pointer = |name: &str| {
            let key = (format!("&{name}"), 0);
            if let Some(&known) = self.file.automatic_arrays.borrow().get(&key) {
                return known;
            }
            let known = self.tokens.iter().enumerate().any(|(k, t)| {
                t.kind == TokenKind::Ident
                    && text_of(t) == name
                    && plain_declaration(self.source, self.tokens, k)
                        .is_some_and(|(_, pointer)| pointer)
            });
            self.file.automatic_arrays.borrow_mut().insert(key, known);
            known
        };
        !roots.call
            && !roots.names.is_empty()
            && roots.names.iter().all(|name| {
                self.origin(name, function.clone(), ORIGIN_DEPTH) == Origin::Shared
                    && !shared_pointer(name)
            })
    }

    /// Whether the access through the pointer expression at `base` may be of shared memory:
    /// not when every name it is computed from is known not to be shared (with `strict`
    /// unset, when none is known to be shared).
    fn may_be_shared(
        &self,
        base: std::ops::Range<usize>,
        function: std::ops::Range<usize>,
        strict: bool,
    ) -> bool {
        let roots = root_names(&self.source[base.clone()]);
        // A pointer a call returns, or from nothing named: unknown.
        if strict && (roots.call || roots.names.is_empty()) {
            return true;
        }
        roots.names.iter().any(|name| {
            let origin = self.origin(name, function.clone(), ORIGIN_DEPTH);
            if strict {
                origin != Origin::NotShared
            } else {
                origin == Origin::Shared
            }
        })
    }

    /// Whether the identifier at `word` starts a call that may access shared memory: one
    /// given a shared pointer or a pointer of unknown origin (as an argument or the object
    /// of a member call) whose body is not in view, or whose body in view may access shared
    /// memory itself, `calls` levels down.
    fn call_may_touch_shared(
        &self,
        word: std::ops::Range<usize>,
        function: std::ops::Range<usize>,
        calls: usize,
        strict: bool,
    ) -> bool {
        let source = self.source;
        let name = &source[word.clone()];
        let mut rest = source[word.end..].trim_start();
        // Template arguments of a call (`load<4>(p)`); not a comparison (`a < b`).
        if rest.starts_with('<') {
            let Some(close) = angle_group_len(rest) else {
                return false;
            };
            rest = rest[close..].trim_start();
        }
        if !rest.starts_with('(') || is_keyword(name) || CASTS.contains(&name) {
            return false;
        }
        let open = source.len() - rest.len();
        let Some(close) = matching_paren(source, open) else {
            return false;
        };
        // An argument computed from a shared name or a pointer of unknown origin (not from a
        // name the function does not declare: a constant, a template parameter, a member;
        // nor from what a call returns: a value more often than a shared pointer).
        let suspect = |text: &str| {
            root_names(text).names.iter().any(|n| {
                !matches!(
                    self.origin(n, function.clone(), ORIGIN_DEPTH),
                    Origin::NotShared | Origin::Undeclared
                )
            })
        };
        let mut passes_shared = split_arguments(&source[open + 1..close - 1])
            .into_iter()
            .any(suspect);
        // The object of a member call (`tile.load(i)`, `p->sum()`) is passed too.
        let before = &source[..word.start];
        let object_end = before
            .strip_suffix('.')
            .or_else(|| before.strip_suffix("->"))
            .map(str::len);
        if let Some(object_end) = object_end {
            let object = postfix_start(source, 0, object_end)..object_end;
            passes_shared |= suspect(&source[object]);
        }
        let bodies = self.callee_bodies(name);
        if bodies.is_empty() {
            // Not in view: what it does with what it is given is unknown.
            return passes_shared;
        }
        if calls == 0 {
            return passes_shared;
        }
        // The callee's own accesses, through its parameters (unknown origin) only when it was
        // given a pointer that may be shared.
        let strict = strict && passes_shared;
        let key = (name.to_string(), calls, strict);
        if let Some(&known) = self.file.callees_touch.borrow().get(&key) {
            return known;
        }
        // A recursive call finds this entry while it is being computed.
        self.file
            .callees_touch
            .borrow_mut()
            .insert(key.clone(), false);
        let touches = bodies.iter().any(|body| {
            self.access_in(body.clone(), calls - 1, strict, false)
                .is_some()
        });
        self.file.callees_touch.borrow_mut().insert(key, touches);
        touches
    }

    /// The bodies of the file's functions (and lambdas assigned to a name) called `name`.
    fn callee_bodies(&self, name: &str) -> Vec<std::ops::Range<usize>> {
        let mut cache = self.file.callee_bodies.borrow_mut();
        cache
            .entry(name.to_string())
            .or_insert_with(|| function_bodies(self.source, name))
            .clone()
    }

    /// Where the memory an access through `name` in the function `body` may be: a
    /// `__shared__` name, a parameter of a kernel (not shared) or of another function
    /// (unknown), or a local of the function, computed from other names (looked at `depth`
    /// definitions deep).
    fn origin(&self, name: &str, body: std::ops::Range<usize>, depth: usize) -> Origin {
        if matches!(
            name,
            "threadIdx" | "blockIdx" | "blockDim" | "gridDim" | "warpSize" | "nullptr"
        ) {
            return Origin::NotShared;
        }
        if self.file.shared_names.iter().any(|n| n == name) {
            return Origin::Shared;
        }
        if depth == 0 {
            return Origin::Unknown;
        }
        let key = (name.to_string(), body.start, depth);
        if let Some(&known) = self.file.origins.borrow().get(&key) {
            return known;
        }
        let origin = match function_head(self.source, body.start) {
            Some((_, params)) if parameter_names(&self.source[params.clone()]).contains(&name) => {
                if is_kernel(self.source, self.tokens, params.start) {
                    Origin::NotShared
                } else {
                    Origin::Unknown
                }
            }
            _ => self.local_origin(name, body, depth),
        };
        self.file.origins.borrow_mut().insert(key, origin);
        origin
    }

    /// How the kernel whose `body` the pointer expression at `base` is in uses it, when it is
    /// one of the kernel's pointer parameters ([`KernelData`]).
    fn kernel_data(
        &self,
        base: std::ops::Range<usize>,
        body: std::ops::Range<usize>,
    ) -> KernelData {
        let Some(name) = leading_pointer(&self.source[base]) else {
            return KernelData::Other;
        };
        let key = (name.to_string(), body.start);
        if let Some(&known) = self.file.kernel_data.borrow().get(&key) {
            return known;
        }
        let known = self.kernel_data_uncached(name, body);
        self.file.kernel_data.borrow_mut().insert(key, known);
        known
    }

    fn kernel_data_uncached(&self, name: &str, body: std::ops::Range<usize>) -> KernelData {
        let source = self.source;
        let Some((_, params)) = function_head(source, body.start) else {
            return KernelData::Other;
        };
        if !is_kernel(source, self.tokens, params.start) {
            return KernelData::Other;
        }
        let Some(declaration) = split_arguments(&source[params])
            .into_iter()
            .find(|p| parameter_names(p).first() == Some(&name))
        else {
            return KernelData::Other;
        };
        let stars = declaration.matches('*').count();
        if stars == 0 {
            return KernelData::Other;
        }
        let const_pointee = stars == 1
            && declaration
                .split('*')
                .next()
                .is_some_and(|t| identifiers_in(t).any(|w| w == "const"));
        // `__restrict__`: nothing else in the kernel writes what it points to either.
        let restrict = identifiers_in(declaration)
            .any(|w| matches!(w, "__restrict__" | "__restrict" | "restrict"));
        if const_pointee && !source[body.clone()].contains("const_cast") {
            return KernelData::Input { restrict };
        }
        // Each use: `None` when it is not `name[i]` (perhaps with members) read or assigned.
        let (body_tokens, uses) = self.own_uses(name, body);
        let assigned = |k: usize| -> Option<bool> {
            let before = source[..body_tokens[k].start()].trim_end();
            if before.ends_with('&') || before.ends_with("++") || before.ends_with("--") {
                return None;
            }
            let open = body_tokens.get(k + 1)?.start();
            if !source[open..].starts_with('[') {
                // Through an offset pointer: `reinterpret_cast<T2*>(p + off)[0] = v`, `*(p +
                // off) = v`.
                return stored_through_offset(source, body_tokens[k].start());
            }
            let subscript = source
                .get(open..)
                .filter(|rest| rest.starts_with('['))
                .and_then(bracket_group_len)?;
            // Past the element's members (`p[i].x`).
            let mut rest = &source[open + subscript..];
            loop {
                let trimmed = rest.trim_start();
                let Some(member) = trimmed.strip_prefix('.') else {
                    rest = trimmed;
                    break;
                };
                let member = member.trim_start();
                rest = &member[identifier_len(member)..];
            }
            // Compound assignments read and write; a member call (`p[i].store(v)`) may write.
            if [
                "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=", "++", "--", "(",
            ]
            .iter()
            .any(|op| rest.starts_with(op))
            {
                return None;
            }
            // Bound to a reference (`auto& r = p[i];`), it may be written through it.
            let statement = &before[before.rfind([';', '{', '}']).map_or(0, |i| i + 1)..];
            if statement.ends_with('=') && statement.replace("&&", "").contains('&') {
                return None;
            }
            Some(rest.starts_with('=') && !rest.starts_with("=="))
        };
        // `p == nullptr` (an optional output) reads no data.
        let null_check = |k: usize| {
            let token = &body_tokens[k];
            let null = |w: &str| w.starts_with("nullptr") || w.starts_with("NULL");
            let compares = |w: &str| w.starts_with("==") || w.starts_with("!=");
            let after = source[token.span.range().end..].trim_start();
            let before = source[..token.start()].trim_end();
            let compared = before
                .strip_suffix("==")
                .or_else(|| before.strip_suffix("!="))
                .map(str::trim_end);
            (compares(after) && null(after[2..].trim_start()))
                || compared.is_some_and(|b| b.ends_with("nullptr") || b.ends_with("NULL"))
        };
        // `p += off;` moves the pointer: no data read or written.
        let offset = |k: usize| {
            let after = source[body_tokens[k].span.range().end..].trim_start();
            let starts_statement = k == 0
                || matches!(
                    source.get(body_tokens[k - 1].span.range()),
                    Some(";" | "{" | "}")
                );
            (after.starts_with("+=") || after.starts_with("-=")) && starts_statement
        };
        let uses: Option<Vec<bool>> = uses
            .iter()
            .filter(|&&k| !null_check(k) && !offset(k))
            .map(|&k| assigned(k))
            .collect();
        match uses {
            Some(uses) if uses.iter().all(|&w| !w) => KernelData::Input { restrict },
            Some(uses) if uses.iter().all(|&w| w) => KernelData::Output,
            _ => KernelData::Other,
        }
    }

    /// Whether the pointer expression at `base` is rooted only in automatic arrays of the
    /// function `body` (`float acc[4][8]` declared in it; not `static`, `extern`, shared or
    /// constant; not a parameter, which is a pointer).
    fn thread_private(&self, base: std::ops::Range<usize>, body: std::ops::Range<usize>) -> bool {
        let text = self.source[base.clone()].trim();
        // An element of a local array of pointers, itself (`ptrs[i] += 4`, not `ptrs[i][j]`
        // or `*ptrs[i]`, which go through the pointer).
        if identifier_len(text) == text.len()
            && !text.is_empty()
            && !self.file.shared_names.iter().any(|n| n == text)
        {
            let key = (format!("*{text}"), body.start);
            let known = self.file.automatic_arrays.borrow().get(&key).copied();
            let known = known.unwrap_or_else(|| {
                let known = self.automatic_array(text, body.clone(), true);
                self.file.automatic_arrays.borrow_mut().insert(key, known);
                known
            });
            if known {
                return true;
            }
        }
        if text.contains('.') {
            // Memoised with the arrays (a `.` key cannot be a name): the check reads the file.
            let key = (text.to_string(), body.start);
            let known = self.file.automatic_arrays.borrow().get(&key).copied();
            let known = known.unwrap_or_else(|| {
                let known = self.member_array_of_local(text, body.clone());
                self.file.automatic_arrays.borrow_mut().insert(key, known);
                known
            });
            if known {
                return true;
            }
        }
        let roots = root_names(&self.source[base]);
        if roots.call || roots.names.is_empty() {
            return false;
        }
        roots.names.iter().all(|name| {
            if self.file.shared_names.iter().any(|n| n == name) {
                return false;
            }
            let key = (name.to_string(), body.start);
            if let Some(&known) = self.file.automatic_arrays.borrow().get(&key) {
                return known;
            }
            let known = self.automatic_array(name, body.clone(), false)
                || self.points_into_private(name, body.clone());
            self.file.automatic_arrays.borrow_mut().insert(key, known);
            known
        })
    }

    /// Whether `name` is a local pointer into the thread's own arrays: declared a pointer in
    /// `body`, every value it is given computed from automatic local arrays (`float *frag =
    /// (float*)acc;`, `frag += 8`), and its address never taken.
    fn points_into_private(&self, name: &str, body: std::ops::Range<usize>) -> bool {
        let source = self.source;
        let text = |t: &Token| source.get(t.span.range()).unwrap_or("");
        let (body_tokens, uses) = self.own_uses(name, body.clone());
        let mut declared = false;
        let mut values: Vec<std::ops::Range<usize>> = Vec::new();
        for k in uses {
            let prev = k.checked_sub(1).map_or("", |p| text(&body_tokens[p]));
            let next = body_tokens.get(k + 1).map_or("", text);
            let after = body_tokens.get(k + 2).map_or("", text);
            if let Some(declaration) = declaration_before(source, body_tokens, k) {
                if declared || !declaration.pointer || next != "=" {
                    return false;
                }
                declared = true;
                let from = body_tokens[k + 1].span.end as usize;
                values.push(from..expression_end(source, from, body.end));
            } else if next == "=" && after != "=" {
                let from = body_tokens[k + 1].span.end as usize;
                values.push(from..expression_end(source, from, body.end));
            } else if matches!(prev, "&" | "=" | "(" | ",") && !matches!(next, "[" | "+" | "-") {
                // Its address taken, bound to a reference (`T*& r = p;`), or handed to a call
                // that may take it by reference: it may be re-seated elsewhere.
                return false;
            }
        }
        declared
            && values.iter().all(|value| {
                let roots = root_names(&source[value.clone()]);
                !roots.call
                    && !roots.names.is_empty()
                    && roots
                        .names
                        .iter()
                        .all(|n| *n == name || self.automatic_array(n, body.clone(), false))
            })
    }

    /// Whether `text` (the part before a `[`) is `local.member`, a member array of a plain
    /// local object (`ditto4 reg_w;` ... `reg_w.u32[j]`): the object lives in the thread's
    /// registers or local memory. The member must be declared an array in the file (a struct
    /// or union in view), never a pointer; the local a value, not a pointer or reference.
    fn member_array_of_local(&self, text: &str, body: std::ops::Range<usize>) -> bool {
        let Some((object, member)) = text.split_once('.') else {
            return false;
        };
        let (object, member) = (object.trim(), member.trim());
        let plain = |w: &str| identifier_len(w) == w.len() && !w.is_empty();
        if !plain(object) || !plain(member) || self.file.shared_names.iter().any(|n| n == object) {
            return false;
        }
        // The local: declared once in the body, as a value.
        let source = self.source;
        let text_of = |t: &Token| source.get(t.span.range()).unwrap_or("");
        let (body_tokens, uses) = self.own_uses(object, body);
        let declarations: Vec<(bool, bool, &str, usize)> = uses
            .iter()
            .filter_map(|&k| {
                let (storage, pointer) = plain_declaration(source, body_tokens, k)?;
                let next = body_tokens.get(k + 1).map_or("", text_of);
                Some((storage, pointer, next, k))
            })
            .collect();
        // Declared once, as a value, with no initialiser (`Ref box = g_box;` may bind a
        // reference through an alias of a reference type).
        let [(false, false, ";" | "{", k)] = declarations[..] else {
            return false;
        };
        // The member of the local's type, where the file or a header it includes defines the
        // type (`ditto4 reg_w;` and `typedef union { half2 f16x2[4]; ... } ditto4;`).
        let type_name = body_tokens[k - 1];
        if type_name.kind == TokenKind::Ident {
            let type_name = text_of(&type_name);
            let own = self
                .file
                .type_members
                .get_or_init(|| type_members(source, self.tokens));
            let members = own
                .get(type_name)
                .cloned()
                .or_else(|| (self.included_type_members)(type_name));
            if let Some(members) = members {
                return members
                    .get(member)
                    .is_some_and(|&dimensions| dimensions > 0);
            }
        }
        // A type not in view: the member is an array wherever the file declares it.
        let mut array = false;
        for (k, t) in self.tokens.iter().enumerate() {
            if t.kind != TokenKind::Ident || text_of(t) != member {
                continue;
            }
            let Some((_, pointer)) = plain_declaration(source, self.tokens, k) else {
                continue;
            };
            if pointer || self.tokens.get(k + 1).map(text_of) != Some("[") {
                return false;
            }
            array = true;
        }
        array
    }

    /// The tokens of `body`, and the indices among them where `name` is written as itself
    /// (not a member: `.name`, `->name`, `::name`).
    fn own_uses(&self, name: &str, body: std::ops::Range<usize>) -> (&[Token], Vec<usize>) {
        let (source, tokens) = (self.source, self.tokens);
        let text = |t: &Token| source.get(t.span.range()).unwrap_or("");
        let first = tokens.partition_point(|t| t.start() < body.start);
        let last = tokens.partition_point(|t| t.start() < body.end);
        let body_tokens = &tokens[first..last];
        let uses = (0..body_tokens.len())
            .filter(|&k| {
                let t = &body_tokens[k];
                t.kind == TokenKind::Ident
                    && text(t) == name
                    && !matches!(
                        k.checked_sub(1).map_or("", |p| text(&body_tokens[p])),
                        "." | "->" | "::"
                    )
            })
            .collect();
        (body_tokens, uses)
    }

    /// Whether `name` is an automatic local array of `body` (of values, or of pointers with
    /// `of_pointers`).
    fn automatic_array(&self, name: &str, body: std::ops::Range<usize>, of_pointers: bool) -> bool {
        let source = self.source;
        let text = |t: &Token| source.get(t.span.range()).unwrap_or("");
        let (body_tokens, uses) = self.own_uses(name, body.clone());
        let mut declarations = 0;
        for &k in &uses {
            let Some((storage, pointers)) = plain_declaration(source, body_tokens, k) else {
                continue;
            };
            let array = body_tokens.get(k + 1).map(text) == Some("[");
            if !array || storage || pointers != of_pointers {
                // Not an automatic array: not known.
                return false;
            }
            declarations += 1;
        }
        if declarations <= 1 {
            return declarations == 1;
        }
        // Every other occurrence that may declare the name (`auto t16 = buf;`, `for (float*
        // t16 = ...`, a lambda's `(float* t16)`: after a type word, `*` or `&`) must be one of
        // those arrays; else some use may be of a pointer of that name.
        let declaring = uses
            .iter()
            .filter(|&&k| {
                k.checked_sub(1).is_some_and(|p| {
                    let before = &body_tokens[p];
                    (before.kind == TokenKind::Ident && !is_statement_keyword(text(before)))
                        || matches!(text(before), "*" | "&" | "&&")
                })
            })
            .count();
        if declaring != declarations {
            return false;
        }
        // Declared in several blocks of the function (`float t16[16];` in sibling scopes): each
        // use is of one of them, unless a name outside the body is visible where a block's
        // declaration is not: a parameter, or a variable of device memory at file scope.
        let floor = (body.start.saturating_sub(4096)..body.start)
            .find(|&k| source.is_char_boundary(k))
            .unwrap_or(body.start);
        let head_start = source[floor..body.start]
            .rfind([';', '}'])
            .map_or(floor, |k| floor + k + 1);
        let head = &source[head_start..body.start];
        let parameter = head.match_indices(name).any(|(at, _)| {
            let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
            !head[..at].chars().next_back().is_some_and(is_word)
                && !head[at + name.len()..].chars().next().is_some_and(is_word)
        });
        let device_memory = self.tokens.iter().enumerate().any(|(k, t)| {
            t.kind == TokenKind::Ident
                && text(t) == name
                && plain_declaration(source, self.tokens, k).is_some_and(|(storage, _)| storage)
        });
        !parameter && !device_memory
    }

    /// The origin of a local `name` declared in `body`, from its declaration and every value
    /// given to it there.
    fn local_origin(&self, name: &str, body: std::ops::Range<usize>, depth: usize) -> Origin {
        let source = self.source;
        let text = |t: &Token| source.get(t.span.range()).unwrap_or("");
        let (body_tokens, uses) = self.own_uses(name, body.clone());
        let mut declared: Option<Declaration> = None;
        let mut values: Vec<std::ops::Range<usize>> = Vec::new();
        let mut address_taken = false;
        for k in uses {
            let prev = k.checked_sub(1).map_or("", |p| text(&body_tokens[p]));
            let next = body_tokens.get(k + 1).map_or("", text);
            let after = body_tokens.get(k + 2).map_or("", text);
            if let Some(declaration) = declaration_before(source, body_tokens, k) {
                let array = next == "[";
                declared = Some(Declaration {
                    pointer: declaration.pointer,
                    array,
                });
                // `T* p = v`, `T* p(v)`, `T* p{v}`, `T a[N] = {...}`.
                let init = if array {
                    body_tokens[k + 1..]
                        .iter()
                        .position(|t| matches!(text(t), "=" | ";"))
                        .map(|p| k + 1 + p)
                        .filter(|&p| text(&body_tokens[p]) == "=")
                } else {
                    matches!(next, "=" | "(" | "{").then_some(k + 1)
                };
                if let Some(p) = init {
                    let from = body_tokens[p].span.end as usize;
                    let from = if text(&body_tokens[p]) == "=" {
                        from
                    } else {
                        from - 1
                    };
                    values.push(from..expression_end(source, from, body.end));
                }
                continue;
            }
            // `p = v`, `p += v` (not `p == v`).
            let assigned =
                (next == "=" && after != "=") || (matches!(next, "+" | "-") && after == "=");
            if assigned {
                let op = &body_tokens[if next == "=" { k + 1 } else { k + 2 }];
                let from = op.span.end as usize;
                values.push(from..expression_end(source, from, body.end));
            } else if prev == "&" {
                // `&p` handed on: something may store into it.
                address_taken = true;
            }
        }
        let Some(declared) = declared else {
            return Origin::Undeclared;
        };
        if declared.array && !declared.pointer {
            // A local array: thread-local memory, never shared.
            return Origin::NotShared;
        }
        let mut unknown = address_taken || values.is_empty();
        for value in values {
            let roots = root_names(&source[value.clone()]);
            unknown |= roots.call;
            for n in roots.names.iter().filter(|n| **n != name) {
                match self.origin(n, body.clone(), depth - 1) {
                    Origin::Shared => return Origin::Shared,
                    Origin::NotShared => {}
                    Origin::Unknown | Origin::Undeclared => unknown = true,
                }
            }
        }
        // A value (not a pointer or reference) computed from no shared name holds no address
        // of shared memory.
        if unknown && declared.pointer {
            Origin::Unknown
        } else {
            Origin::NotShared
        }
    }
}

/// Whether the postfix expression that `[` or `->` at `at` continues is the operand of a unary
/// `&` (`&p[i]`, `&params.count[n]`, `&s->x`): an address computed, no memory read or written.
/// Looks back no further than `floor`.
/// Whether the `->` at `at` begins a trailing return type (`[&](int i) -> int4* {`, `auto
/// f() -> T {`): after `)`, a type up to the body's `{`.
fn trailing_return_type(source: &str, at: usize) -> bool {
    if !source[..at].trim_end().ends_with(')') {
        return false;
    }
    let rest = &source[at + 2..];
    let mut i = 0;
    let bytes = rest.as_bytes();
    while i < bytes.len() && i < 512 {
        match bytes[i] {
            b'{' => return true,
            b'<' => match angle_group_len(&rest[i..])
                .or_else(|| delimited_len(&rest[i..], b'<', b'>'))
            {
                Some(n) => i += n,
                None => return false,
            },
            c if c.is_ascii_alphanumeric()
                || c.is_ascii_whitespace()
                || matches!(c, b'_' | b':' | b'*' | b'&') =>
            {
                i += 1
            }
            _ => return false,
        }
    }
    false
}

/// Whether the subscript or `->` at `at` only computes an address, loading nothing there:
/// its address is taken (see [`address_taken`]), it initialises a reference (`auto& bar =
/// smem.bars[i];`), or it names the object of a member call (`smem.bars[i].arrive()`,
/// `p->get()`, `(&b)[i].~Barrier()`: a call, which the accesses of C++ do not count, unless
/// it goes through a pointer loaded on the way: `a[i]->f()`).
fn only_address(source: &str, floor: usize, at: usize, end: usize) -> bool {
    if address_taken(source, floor, at) {
        return true;
    }
    let bytes = source.as_bytes();
    let start = postfix_start(source, floor, at);
    if binds_reference(source, floor, start, postfix_end(source, at, end), end) {
        return true;
    }
    // The object of a member call: from this access on, only `.name` links, then `(`.
    let mut i = if bytes[at] == b'[' {
        match delimited_len(&source[at..end.max(at)], b'[', b']') {
            Some(n) => at + n,
            None => return false,
        }
    } else {
        at + 2
    };
    let mut links = usize::from(bytes[at] == b'-');
    loop {
        if bytes[at] == b'-' && i == at + 2 {
            // The name after `->`.
        } else if bytes.get(i) == Some(&b'.') {
            i += 1;
            links += 1;
        } else {
            break;
        }
        if bytes.get(i) == Some(&b'~') {
            i += 1;
        }
        let n = identifier_len(&source[i.min(source.len())..]);
        if n == 0 {
            return false;
        }
        i += n;
    }
    links > 0 && bytes.get(i) == Some(&b'(')
}

/// Whether the expression `start..finish` is the whole initialiser of a reference it
/// declares (`T& name = <expr>;`, `auto& s = *reinterpret_cast<S*>(raw);`): it binds, loading
/// nothing.
fn binds_reference(source: &str, floor: usize, start: usize, finish: usize, end: usize) -> bool {
    let Some(declarator) = source[floor..start].trim_end().strip_suffix('=') else {
        return false;
    };
    let declarator = declarator.trim_end();
    let name_start = trailing_identifier_start(declarator);
    let amp = declarator[..name_start].trim_end();
    let whole = finish >= end || source[finish..end].trim_start().starts_with([';', ',']);
    name_start < declarator.len()
        && amp.ends_with('&')
        && !amp.ends_with("&&")
        && amp.len() > 1
        && whole
}

/// The `[` matching the `]` at `close` (within 4 KiB).
fn matching_open_bracket(source: &str, close: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    for k in (close.saturating_sub(4096)..=close).rev() {
        match bytes[k] {
            b']' => depth += 1,
            b'[' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

/// Whether the `*` or name at `at` begins a later declarator of a declaration (`T *a = x, *b
/// = y;`, `__shared__ uint64_t full[N], empty[N];`): it declares, accessing nothing. The statement (back to its `;`, `{` or `}`,
/// no further than `floor`) must open with a type and a first declarator, then a top-level
/// `,` just before the `*`: an expression statement's comma operator (`a = 1, *p = 2;`) does
/// not.
fn later_declarator(source: &str, floor: usize, at: usize) -> bool {
    let floor = (floor..at)
        .find(|&k| source.is_char_boundary(k))
        .unwrap_or(at);
    let before = source[floor..at].trim_end();
    if !before.ends_with(',') {
        return false;
    }
    let statement_start = before.rfind([';', '{', '}']).map_or(0, |k| k + 1);
    // Comments between the statements (`// Declare barriers`) are not part of it.
    let statement: String = before[statement_start..]
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let statement = statement.as_str();
    let mut depth = 0i32;
    let mut first_comma = None;
    for (k, c) in statement.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            ',' if depth == 0 => {
                first_comma.get_or_insert(k);
            }
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    // The `,` just before `at` must be a top-level one too (not `f(x, *p)` inside an
    // initialiser).
    let Some(comma) = first_comma.filter(|_| depth == 0) else {
        return false;
    };
    // `uint64_t *full = s.full` less its initialiser, and `__align__(8)`, `[4]` left out: a
    // type and a name.
    let mut head = String::new();
    let mut depth = 0i32;
    for c in statement[..comma].split('=').next().unwrap_or("").chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                head.push(' ');
            }
            _ if depth == 0 => head.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = head
        .split(|c: char| c.is_whitespace() || c == '*' || c == '&')
        .filter(|w| !w.is_empty())
        .collect();
    words.len() >= 2
        && !is_statement_keyword(words[0])
        && words.iter().all(|w| {
            w.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '<' | '>' | ','))
        })
}

/// Whether the statement that `before` ends in (back to its `;`, `{` or `}`) calls an atomic
/// (`atomicAdd(`, `atomicCAS(reinterpret_cast<...>(`): an address taken there is accessed.
fn statement_calls_an_atomic(before: &str) -> bool {
    before
        .rsplit([';', '{', '}'])
        .next()
        .is_some_and(|s| s.to_ascii_lowercase().contains("atomic"))
}

fn address_taken(source: &str, floor: usize, at: usize) -> bool {
    let i = postfix_start(source, floor, at);
    let before = source[floor..i].trim_end();
    let Some(rest) = before.strip_suffix('&') else {
        return false;
    };
    // Unary, not `a & b` or `a && b`.
    let rest = rest.trim_end();
    // `atomicAdd(&p[i], 1)`, `atomicCAS(reinterpret_cast<unsigned*>(&p[i]), ...)`: the
    // address goes to an atomic in the same statement, which accesses it.
    if statement_calls_an_atomic(rest) {
        return false;
    }
    rest.is_empty()
        || rest.ends_with([
            '=', '(', ',', ';', '{', '}', '?', ':', '!', '|', '+', '-', '<', '[',
        ])
        || rest.ends_with("return")
}

/// Where the postfix expression that ends at `at` (before a `[` or `->`) starts: back over
/// names, `.`, `->`, `::` and bracketed groups, no further than `floor`.
fn postfix_start(source: &str, floor: usize, at: usize) -> usize {
    let bytes = source.as_bytes();
    let mut i = at;
    while i > floor {
        let c = bytes[i - 1];
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':') {
            i -= 1;
        } else if c == b'>' && i - 1 > floor && bytes[i - 2] == b'-' {
            i -= 2;
        } else if matches!(c, b']' | b')') {
            let (close, open) = if c == b']' {
                (b']', b'[')
            } else {
                (b')', b'(')
            };
            let mut depth = 0i32;
            let mut k = i;
            let found = loop {
                if k == floor {
                    break None;
                }
                k -= 1;
                if bytes[k] == close {
                    depth += 1;
                } else if bytes[k] == open {
                    depth -= 1;
                    if depth == 0 {
                        break Some(k);
                    }
                }
            };
            match found {
                Some(k) => i = k,
                // An unbalanced group: the expression starts after it.
                None => return at,
            }
        } else {
            break;
        }
    }
    i
}

/// Where the postfix expression that starts at `from` (the operand of a unary `*`) ends: a
/// name or a parenthesised group, then members, subscripts, calls and a cast's `<...>`.
fn postfix_end(source: &str, from: usize, end: usize) -> usize {
    let bytes = source.as_bytes();
    let mut i = from;
    while i < end {
        let c = bytes[i];
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':') {
            i += 1;
        } else if c == b'-' && bytes.get(i + 1) == Some(&b'>') {
            i += 2;
        } else if c == b'<' && CASTS.iter().any(|k| source[..i].trim_end().ends_with(k)) {
            match angle_group_len(&source[i..end]) {
                Some(n) => i += n,
                None => break,
            }
        } else if matches!(c, b'(' | b'[') {
            let close = if c == b'(' { b')' } else { b']' };
            let mut depth = 0i32;
            let Some(n) = bytes[i..end].iter().position(|&b| {
                if b == c {
                    depth += 1;
                } else if b == close {
                    depth -= 1;
                }
                depth == 0
            }) else {
                break;
            };
            i += n + 1;
        } else {
            break;
        }
    }
    i
}

/// How deep the definitions of a local are followed to the names it is computed from.
const ORIGIN_DEPTH: usize = 4;

/// The C++ casts, whose `<...>(x)` is `x` converted, not a call.
const CASTS: &[&str] = &[
    "static_cast",
    "reinterpret_cast",
    "const_cast",
    "dynamic_cast",
];

/// Which of a kernel's inputs and outputs ([`KernelData`]) an ordering asm does not order.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum KernelDataUnordered {
    /// It orders them all: a fence, an acquire or release, a wait (another kernel, GPU or the
    /// host may publish or consume that data).
    None,
    /// A barrier of the block or cluster orders accesses among the kernel's own threads:
    /// not a load of an input nothing in the kernel writes, nor a store to an output nothing
    /// in it reads (the host or a later kernel reads it, after this one ends).
    InputsAndOutputs,
    /// A proxy fence (`fence.proxy.async`) orders this thread's accesses between the generic
    /// and another proxy: not a load of a `__restrict__` input nothing in the kernel writes
    /// (an output is left alone: a bulk copy may read it through a tensor map).
    RestrictInputs,
}

/// What of the kernel's data `step` leaves unordered.
fn kernel_data_unordered(step: &Step) -> KernelDataUnordered {
    let family = step.form.map_or("", |f| f.family.name);
    if matches!(step.instr.base(), "bar" | "barrier") {
        KernelDataUnordered::InputsAndOutputs
    } else if family == "fence" && step.instr.has(".proxy") {
        KernelDataUnordered::RestrictInputs
    } else {
        KernelDataUnordered::None
    }
}

/// How a kernel uses one of its pointer parameters, as far as its body shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum KernelData {
    /// Only read: declared `const T*`, or used only as `p[i]` never assigned; `restrict`:
    /// declared `__restrict__` too, so no other name writes it in the kernel either.
    Input { restrict: bool },
    /// Only written: used only as `p[i] = v` (a result for the host or a later kernel), or
    /// compared with `nullptr`.
    Output,
    /// Anything else: both, passed on, offset, address taken, not a kernel's parameter.
    Other,
}

/// Where the memory of a C++ access through a name may be, for an async-copy wait, which
/// orders only the shared memory its copies fill or drain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// Not shared memory: a kernel's parameter (the host cannot pass a shared address), a
    /// local array, a local computed only from such names.
    NotShared,
    /// A `__shared__` name, or a local computed from one.
    Shared,
    /// Cannot tell: another function's parameter (its caller may pass shared memory), a
    /// pointer a call returns or that is stored through its address.
    Unknown,
    /// Not declared in the function: a member, a global, a template parameter, a constant.
    Undeclared,
}

/// A local's declaration: whether it is a pointer or reference (or `auto`), and an array.
struct Declaration {
    pointer: bool,
    array: bool,
}

/// Whether the name at `tokens[k]` is declared there: only declaration specifiers before it
/// back to the statement's start (`const float* __restrict__ p`, `auto& s`, `float acc[4]`;
/// not `x * p`, `return p`, `f(a, p)`), and whether the type is a pointer, reference or
/// `auto`. Comma-separated declarators after the first are not recognised.
fn declaration_before(source: &str, tokens: &[Token], k: usize) -> Option<Declaration> {
    let text = |t: &Token| source.get(t.span.range()).unwrap_or("");
    let mut pointer = false;
    let mut words = 0;
    for t in tokens[..k].iter().rev() {
        let s = text(t);
        match s {
            _ if t.kind == TokenKind::Directive => break,
            ";" | "{" | "}" | "(" => break,
            "*" | "&" => pointer = true,
            "::" | "<" | ">" => {}
            _ if t.kind == TokenKind::Number => {}
            _ if t.kind == TokenKind::Ident && !is_statement_keyword(s) => {
                words += 1;
                pointer |= matches!(s, "auto" | "decltype");
            }
            _ => return None,
        }
    }
    // The type's name right before the declared one (or `*`/`&`).
    let prev = text(tokens.get(k.checked_sub(1)?)?);
    let ends_type = tokens[k - 1].kind == TokenKind::Ident || matches!(prev, "*" | "&" | ">");
    (words > 0 && ends_type).then_some(Declaration {
        pointer,
        array: false,
    })
}

/// Words that are not names of variables: keywords and built-in types.
fn is_keyword(word: &str) -> bool {
    is_statement_keyword(word)
        || matches!(
            word,
            "if" | "for"
                | "while"
                | "switch"
                | "const"
                | "volatile"
                | "unsigned"
                | "signed"
                | "int"
                | "long"
                | "char"
                | "short"
                | "float"
                | "double"
                | "void"
                | "bool"
                | "auto"
                | "true"
                | "false"
                | "struct"
                | "typename"
                | "template"
                | "alignof"
                | "decltype"
                | "defined"
                | "__restrict__"
                | "__restrict"
                | "constexpr"
                | "static"
        )
}

/// Where the expression that starts at `from` ends: at a `;`, or a `,` or closing bracket
/// outside its own brackets, no further than `limit`.
fn expression_end(source: &str, from: usize, limit: usize) -> usize {
    let bytes = source.as_bytes();
    let mut depth = 0i32;
    let limit = limit.min(bytes.len());
    for (i, &b) in bytes.iter().enumerate().take(limit).skip(from) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return i;
                }
            }
            b',' if depth == 0 => return i,
            b';' => return i,
            _ => {}
        }
    }
    limit
}

/// The names a pointer expression is computed from, and whether a call's result may be it.
struct Roots<'s> {
    names: Vec<&'s str>,
    call: bool,
}

/// The names the pointer of `expr` is computed from: not subscripts' contents (`p[i]`: `p`),
/// members (`s.buf`: `s`), casts' types (`reinterpret_cast<T*>(p)`, `(T*)p`: `p`), keywords,
/// numbers and strings; a call (`f(p)`) makes `call` true (its result may be any pointer) and
/// its arguments count too.
fn root_names(expr: &str) -> Roots<'_> {
    let bytes = expr.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut roots = Roots {
        names: Vec::new(),
        call: false,
    };
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_digit() {
            while i < bytes.len() && (ident(bytes[i]) || bytes[i] == b'.') {
                i += 1;
            }
        } else if ident(c) {
            let start = i;
            i += identifier_len(&expr[i..]);
            let word = &expr[start..i];
            let before = expr[..start].trim_end();
            let rest = expr[i..].trim_start();
            let next_at = expr.len() - rest.len();
            if before.ends_with('.') || before.ends_with("->") || rest.starts_with("::") {
                // A member, or a namespace or class before `::`.
                continue;
            }
            if CASTS.contains(&word) || word == "sizeof" {
                if let Some(n) = rest
                    .starts_with('<')
                    .then(|| angle_group_len(rest))
                    .flatten()
                {
                    i = next_at + n;
                }
                if word == "sizeof" {
                    // Its operand is not evaluated.
                    let rest = expr[i..].trim_start();
                    if rest.starts_with('(') {
                        let open = expr.len() - rest.len();
                        i = open + group_len(&expr[open..]).unwrap_or(rest.len());
                    }
                }
                continue;
            }
            if rest.starts_with('(') || rest.starts_with('<') {
                if rest.starts_with('<') && angle_group_len(rest).is_none() {
                    // A comparison, not template arguments.
                    roots.names.push(word);
                    continue;
                }
                roots.call = true;
                continue;
            }
            if !is_keyword(word) && !word.ends_with("_t") && word != "this" {
                roots.names.push(word);
            } else if word == "this" {
                roots.call = true;
            }
        } else if c == b'[' {
            // A subscript's index is not the pointer.
            i += bracket_group_len(&expr[i..]).unwrap_or(bytes.len() - i);
        } else if c == b'(' {
            // A C-style cast's type: `(float4*)p`, `(const T*)(&x[i])`.
            let Some(n) = group_len(&expr[i..]) else {
                i += 1;
                continue;
            };
            let inside = expr[i + 1..i + n - 1].trim();
            let type_like = !inside.is_empty()
                && inside.bytes().all(|b| ident(b) || b" :<>*&,".contains(&b))
                && inside.ends_with(['*', '&']);
            i += if type_like { n } else { 1 };
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            i += 1;
        }
    }
    roots
}

/// The length of the identifier that starts `text`.
fn identifier_len(text: &str) -> usize {
    text.bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .unwrap_or(text.len())
}

/// The length of the `(...)` group that starts `text`, brackets nested.
fn group_len(text: &str) -> Option<usize> {
    delimited_len(text, b'(', b')')
}

/// The length of the `[...]` group that starts `text`.
fn bracket_group_len(text: &str) -> Option<usize> {
    delimited_len(text, b'[', b']')
}

fn delimited_len(text: &str, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0i32;
    text.bytes()
        .position(|b| {
            if b == open {
                depth += 1;
            } else if b == close {
                depth -= 1;
            }
            depth == 0
        })
        .map(|n| n + 1)
}

/// The length of template arguments `<...>` starting `text`, when they close before anything a
/// comparison would hold (`;`, `{`, `&&`, `||`) and are followed by `(` or `::`.
fn angle_group_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'<' => depth += 1,
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    let rest = text[i + 1..].trim_start();
                    return (rest.starts_with('(')
                        || rest.starts_with("::")
                        || rest.starts_with('{'))
                    .then_some(i + 1);
                }
            }
            b';' | b'{' | b'}' => return None,
            b'&' | b'|' if bytes.get(i + 1) == Some(&b) => return None,
            _ => {}
        }
    }
    None
}

/// The top-level arguments of a call's argument list (its inside).
fn split_arguments(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, b) in args.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&args[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&args[start..]);
    out
}

/// The names of a parameter list's parameters (its inside): each one's last name, before a
/// default value or array bounds.
fn parameter_names(params: &str) -> Vec<&str> {
    split_arguments(params)
        .into_iter()
        .filter_map(|param| {
            let param = param.split('=').next().unwrap_or(param);
            let param = param.split('[').next().unwrap_or(param).trim_end();
            let name = &param[trailing_identifier_start(param)..];
            (!name.is_empty() && !is_keyword(name)).then_some(name)
        })
        .collect()
}

/// Whether the function whose parameter list opens just before `params_start` is a kernel:
/// `__global__` among the words before its name (back to the previous statement, block or
/// directive; comments are not tokens).
fn is_kernel(source: &str, tokens: &[Token], params_start: usize) -> bool {
    let k = tokens.partition_point(|t| t.start() < params_start);
    tokens[..k]
        .iter()
        .rev()
        .take(64)
        .take_while(|t| {
            t.kind != TokenKind::Directive
                && !matches!(source.get(t.span.range()), Some(";" | "{" | "}"))
        })
        .any(|t| source.get(t.span.range()) == Some("__global__"))
}

/// The names the file declares `__shared__` (in any scope, `extern __shared__` included):
/// each declarator's name, before its bounds or initialiser.
fn shared_declarations(source: &str, tokens: &[Token]) -> Vec<String> {
    let text = |t: &Token| source.get(t.span.range()).unwrap_or("");
    let mut names: Vec<String> = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if t.kind != TokenKind::Ident || text(t) != "__shared__" {
            continue;
        }
        let mut depth = 0i32;
        let mut name: Option<&str> = None;
        let mut named = false;
        for t in tokens[k + 1..].iter().take(256) {
            let s = text(t);
            match s {
                "(" | "[" | "{" if depth == 0 => {
                    // `__align__(16)` before the name; bounds or an initialiser after it.
                    if s != "(" && !named {
                        names.extend(name.map(str::to_string));
                        named = true;
                    }
                    depth += 1;
                }
                "=" if depth == 0 && !named => {
                    names.extend(name.map(str::to_string));
                    named = true;
                }
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," | ";" if depth == 0 => {
                    if !named {
                        names.extend(name.map(str::to_string));
                    }
                    if s == ";" {
                        break;
                    }
                    (name, named) = (None, false);
                }
                _ if depth == 0 && t.kind == TokenKind::Ident && !named => name = Some(s),
                _ => {}
            }
            if depth < 0 {
                break;
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The bodies (insides of the braces) of the file's functions named `name`, of lambdas
/// assigned to it (`auto name = [&](...) { ... }`), and the replacement of a function-like
/// macro of that name (`#define SMEM_AT(i) smem[i]`).
fn function_bodies(source: &str, name: &str) -> Vec<std::ops::Range<usize>> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut bodies = Vec::new();
    for at in find_all(source, name) {
        let end = at + name.len();
        if source[..at].ends_with(ident) || source[end..].starts_with(ident) {
            continue;
        }
        let directive = source[..at]
            .trim_end_matches([' ', '\t'])
            .strip_suffix("define")
            .is_some_and(|d| d.trim_end_matches([' ', '\t']).ends_with('#'));
        if directive {
            if let Some(params) = source[end..]
                .starts_with('(')
                .then(|| group_len(&source[end..]))
                .flatten()
            {
                let body = macro_body_around(source, end + params);
                bodies.push(end + params..body.end.max(end + params));
            }
            continue;
        }
        let rest = source[end..].trim_start();
        let mut from = source.len() - rest.len();
        if let Some(lambda) = rest.strip_prefix('=') {
            // `name = [captures](params) {`.
            let lambda = lambda.trim_start();
            if !lambda.starts_with('[') {
                continue;
            }
            from = source.len() - lambda.len();
            match bracket_group_len(lambda) {
                Some(n) => from += n,
                None => continue,
            }
        }
        let head = source[from..].trim_start();
        if !head.starts_with('(') {
            continue;
        }
        let open = source.len() - head.len();
        let Some(close) = group_len(head).map(|n| open + n) else {
            continue;
        };
        // Qualifiers between the parameters and the body.
        let mut tail = source[close..].trim_start();
        loop {
            let word = identifier_len(tail);
            if word > 0
                && matches!(
                    &tail[..word],
                    "const" | "noexcept" | "override" | "final" | "mutable" | "constexpr"
                )
            {
                tail = tail[word..].trim_start();
            } else {
                break;
            }
        }
        if tail.starts_with('{') {
            let open = source.len() - tail.len() + 1;
            bodies.push(enclosing_block(source, open));
        }
    }
    bodies
}

/// Whether the step's address comes from a `const T* __restrict__` pointer of the function
/// (read through `p`, `p + i`, `__cvta_generic_to_global(p)`): nothing writes that data while
/// the function runs (`const` alone does not say so: a caller may write through another
/// pointer).
fn reads_through_const_pointer(cx: &Ctx, stmt: &AsmStatement, step: &Step) -> bool {
    let Some(form) = step.form else {
        return false;
    };
    let count = step.instr.operands.len();
    let Some(asm) = step
        .instr
        .operands
        .iter()
        .enumerate()
        .find(|(k, _)| {
            form.operand_for(*k, count)
                .is_some_and(|o| o.role == Role::Addr)
        })
        .and_then(|(_, operand)| address_base(operand))
        .and_then(|b| b.placeholder())
        .and_then(|p| stmt.resolve(p))
    else {
        return false;
    };
    let Some(before) = stmt.function_text_before(cx.source()) else {
        return false;
    };
    // One pointer, possibly converted or offset: `p`, `p + i`, `__cvta_generic_to_global(p)`.
    let names: Vec<&str> = identifiers(&asm.expr).map(|(_, n)| n).collect();
    let [name] = names[..] else {
        return false;
    };
    occurrences(before, name).any(|(decl, _)| {
        let start = decl.rfind(['(', ',', ';', '{', '}']).map_or(0, |i| i + 1);
        let declarator = &decl[start..];
        let words: Vec<&str> = declarator
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        declarator.contains('*')
            && words.contains(&"const")
            && words
                .iter()
                .any(|w| matches!(*w, "__restrict__" | "__restrict"))
    })
}

/// Whether the next statement after the asm, in the same block, is `__syncthreads()` (only
/// blanks, `;` and comments between; a closing brace ends the block, so no).
fn followed_by_syncthreads(cx: &Ctx, stmt: &AsmStatement) -> bool {
    let mut rest = cx.source().get(stmt.span.end as usize..).unwrap_or("");
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';');
        if let Some(comment) = rest.strip_prefix("//") {
            rest = comment.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(comment) = rest.strip_prefix("/*") {
            rest = comment.split_once("*/").map_or("", |(_, r)| r);
        } else {
            break;
        }
    }
    rest.strip_prefix("__syncthreads")
        .is_some_and(|r| r.trim_start().starts_with('('))
}

/// A variable whose memory the asm writes through its first address operand (`&slot`, a
/// pointer `p`; the ISA puts the written address first) and the C++ of the same function uses
/// after the asm (`slot`, `p[0]`, `*p`; not inside another asm, nor on a branch the asm's path
/// never takes) with no compiler barrier
/// between on every path ([`barrier_before_use`]): then the order between the two is the
/// program's logic, and only `"memory"` keeps it.
fn written_object_touched_by_cpp(
    cx: &Ctx,
    file: &FileScan,
    stmt: &AsmStatement,
    step: &Step,
) -> Option<WrittenObject> {
    let form = step.form?;
    let count = step.instr.operands.len();
    let body = stmt.context.function.as_ref()?.body;
    let from = stmt.span.end as usize;
    // Only code the asm can reach: a use after an unconditional `return` is not after it.
    let reach = reachable_end(cx.source(), from, body.end as usize);
    let after = cx.source().get(from..reach)?;
    let (_, operand) = step.instr.operands.iter().enumerate().find(|(k, _)| {
        form.operand_for(*k, count)
            .is_some_and(|o| o.role == Role::Addr)
    })?;
    let asm = address_base(operand)
        .and_then(|b| b.placeholder())
        .and_then(|p| stmt.resolve(p))?;
    let in_asm = |at: usize| {
        cx.statements
            .iter()
            .any(|s| (s.span.start as usize..s.span.end as usize).contains(&(from + at)))
    };
    // Code on a branch the asm's path never takes is not after it (`if constexpr (v) { asm }
    // else { plain store }`), nor is code in a preprocessor branch built without it
    // (`#if CUDA` asm `#else` HIP code `#endif`).
    let exclusive = std::cell::OnceCell::new();
    let elsewhere = |at: usize| {
        exclusive
            .get_or_init(|| {
                exclusive_ranges(
                    cx.source(),
                    cx.tokens(),
                    &file.dead,
                    body.start as usize + 1..(body.end as usize).min(cx.source().len()),
                    stmt.span.start as usize,
                )
            })
            .iter()
            .any(|r| r.contains(&(from + at)))
    };
    let mut behind_barrier = None;
    for (at, name) in identifiers(&asm.expr) {
        let address_of = asm.expr[..at].trim_end().ends_with('&');
        // `&smem.bar[i]`: the object is `smem.bar`, not all of `smem`.
        let name = if address_of {
            let path = &asm.expr[at..];
            let len = path
                .char_indices()
                .find(|&(i, c)| {
                    !(c.is_ascii_alphanumeric()
                        || c == '_'
                        || c == '.'
                        || (c == '-' && path[i..].starts_with("->"))
                        || (c == '>' && path[..i].ends_with('-')))
                })
                .map_or(path.len(), |(i, _)| i);
            path[..len].trim_end_matches(['.', '-'])
        } else {
            name
        };
        // A local declared in a block names another object past that block's end (a
        // sibling block's `T* dst_p = ...;` is a new variable).
        let root = &name[..identifier_len(name)];
        let in_scope = local_scope_end(
            cx.source(),
            body.start as usize..stmt.span.start as usize,
            root,
        )
        .unwrap_or(usize::MAX);
        let uses = occurrences(after, name).filter(|(before, rest)| {
            if from + before.len() >= in_scope {
                return false;
            }
            let deref = before.trim_end().strip_suffix('*').is_some_and(|b| {
                // A unary `*`, not a multiplication.
                !b.trim_end().ends_with(|c: char| {
                    c.is_ascii_alphanumeric() || c == '_' || c == ')' || c == ']'
                })
            });
            (address_of || rest.starts_with('[') || rest.starts_with("->") || deref)
                && !in_asm(before.len())
                && !elsewhere(before.len())
        });
        let mut ordered = false;
        for (before, _) in uses {
            if !barrier_before_use(cx.source(), &file.barriers, from, from + before.len()) {
                return Some(WrittenObject::Used(name.to_string()));
            }
            ordered = true;
        }
        if ordered {
            behind_barrier.get_or_insert_with(|| name.to_string());
        }
    }
    behind_barrier.map(WrittenObject::UsedBehindBarrier)
}

/// What the C++ after the asm does with the object the asm writes.
enum WrittenObject {
    /// Uses it with nothing between that orders the use after the write.
    Used(String),
    /// Uses it only behind a compiler barrier.
    UsedBehindBarrier(String),
}

/// Whether a compiler barrier (`__syncthreads()`, an asm with `"memory"`...) between `from`
/// and the use at `use_at` runs on every path from one to the other: one in a block that
/// holds the use (`__syncthreads();` then the use; not one inside an `if` or a loop the use is
/// outside of), with no `case`, `default` or `goto` between it and the use (a jump past it).
/// Neither the asm's volatile write nor the use moves across such a barrier.
fn barrier_before_use(
    source: &str,
    barriers: &[std::ops::Range<usize>],
    from: usize,
    use_at: usize,
) -> bool {
    barriers.iter().any(|b| {
        b.start >= from
            && b.end <= use_at
            && enclosing_block(source, b.start).contains(&use_at)
            && !identifiers_in(&source[b.end..use_at])
                .any(|w| matches!(w, "case" | "default" | "goto"))
    })
}

/// The identifier-like words of `text`.
fn identifiers_in(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The identifiers of a C++ expression that are not called (`f(`) and not casts or builtins.
fn identifiers(expr: &str) -> impl Iterator<Item = (usize, &str)> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in expr
        .char_indices()
        .chain(std::iter::once((expr.len(), ' ')))
    {
        match (start, ident(c)) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                let name = &expr[s..i];
                let called = expr[i..].trim_start().starts_with(['(', '<']);
                let keyword = matches!(
                    name,
                    "static_cast"
                        | "reinterpret_cast"
                        | "const_cast"
                        | "unsigned"
                        | "int"
                        | "long"
                        | "char"
                        | "short"
                        | "void"
                        | "const"
                        | "this"
                        | "size_t"
                ) || name.ends_with("_t")
                    || name.starts_with(|c: char| c.is_ascii_digit());
                let member = expr[..s].ends_with('.') || expr[..s].ends_with("->");
                if !called && !keyword && !member {
                    out.push((s, name));
                }
                start = None;
            }
            _ => {}
        }
    }
    out.into_iter()
}

/// Whole-identifier occurrences of `name` in `text`: the text before and after each.
/// Where `needle` starts in `text`, left to right, not overlapping (as `str::match_indices`,
/// searched with `memchr::memmem`; an empty needle at every character boundary).
fn find_all<'t>(text: &'t str, needle: &'t str) -> Box<dyn Iterator<Item = usize> + 't> {
    if needle.is_empty() {
        Box::new(text.match_indices(needle).map(|(at, _)| at))
    } else {
        Box::new(memchr::memmem::find_iter(
            text.as_bytes(),
            needle.as_bytes(),
        ))
    }
}

fn occurrences<'t>(text: &'t str, name: &'t str) -> impl Iterator<Item = (&'t str, &'t str)> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    find_all(text, name).filter_map(move |at| {
        let before = &text[..at];
        let rest = &text[at + name.len()..];
        (!before.ends_with(ident) && !rest.starts_with(ident) && !before.ends_with('.'))
            .then_some((before, rest))
    })
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    // The toolkit's and clang's own intrinsic headers (a vendored `__clang_cuda_*.h`): the
    // compiler's code, written to its own rules, not the project's to change.
    if implements_cuda_intrinsics(cx) {
        return;
    }
    let file = std::cell::OnceCell::new();
    for stmt in cx.ptx_statements() {
        // Python calls (Triton, MLIR) order memory through their side-effect flag, which
        // `missing-volatile` judges; what `~{memory}` adds there is not measured.
        if stmt.python().is_some() {
            continue;
        }
        if stmt.has_clobber("memory") {
            continue;
        }
        let volatile = stmt.is_volatile()
            || stmt.outputs.is_empty()
            || stmt.qualifiers.iter().any(|(q, _)| q == "goto");
        let flow = cx.flow(stmt);
        // The step with the highest severity; the first of them.
        let mut worst: Option<(usize, MemoryUse, Severity, Why)> = None;
        for i in 0..flow.steps.len() {
            let m = flow.memory_use(i);
            if !m.any() {
                continue;
            }
            let Some((severity, why)) = judge(cx, &file, &flow, i, &m, volatile) else {
                continue;
            };
            if worst.as_ref().is_none_or(|w| severity > w.2) {
                worst = Some((i, m, severity, why));
            }
        }
        let Some((i, m, severity, why)) = worst else {
            continue;
        };
        let instr = flow.steps[i].instr;
        if misspelt_modifier(instr) {
            continue;
        }
        let what = if m.writes {
            "writes memory"
        } else if m.orders {
            "orders memory"
        } else {
            "reads memory"
        };
        let message = if why == Why::NoSharedAccess {
            format!(
                "asm {what} (`{}`) without a `\"memory\"` clobber, but no C++ access of shared memory is beside it",
                instr.opcode
            )
        } else if let Why::BarrierBeforeUse(var) = &why {
            format!(
                "asm {what} (`{}`) without a `\"memory\"` clobber, but a compiler barrier orders the C++ use of `{var}` after it",
                instr.opcode
            )
        } else if why == Why::NothingBeside {
            format!(
                "asm {what} (`{}`) without a `\"memory\"` clobber, but no C++ memory access it would order is beside it",
                instr.opcode
            )
        } else {
            format!(
                "asm {what} (`{}`) without a `\"memory\"` clobber: the compiler may move or merge C++ memory accesses across it",
                instr.opcode
            )
        };
        let mut d = Diagnostic::new(META.name, severity, stmt.keyword, message).with_label(
            template_span(stmt, instr.opcode_span.clone()),
            format!("`{}` {what}", instr.opcode),
        );
        if let Why::Beside(at) = &why {
            let kind = if m.writes || m.orders {
                "access"
            } else {
                "store"
            };
            let asm = if m.writes || m.orders { "asm" } else { "load" };
            // Found beside a call of the asm's function (inlined there), not in it.
            let in_function =
                stmt.context.function.as_ref().is_some_and(|f| {
                    (f.body.start as usize..f.body.end as usize).contains(&at.start)
                });
            let what = if in_function || stmt.macro_name.is_some() {
                format!("this C++ {kind}, with no compiler barrier between, may be moved across the {asm}")
            } else {
                format!("this C++ {kind} beside a call of the asm's function, with no compiler barrier between, may be moved across the {asm} once inlined")
            };
            d = d.with_label(Span::new(at.start, at.end), what);
        }
        d = if let Why::Touched(var) = &why {
            d.with_note(format!("C++ in this function uses `{var}` after the asm: only `\"memory\"` keeps that access after the asm's write (`volatile` orders the asm only among other volatile asm)"))
        } else if matches!(why, Why::BarrierBeforeUse(_)) {
            d.with_note("a compiler barrier (`__syncthreads()`, an asm with `\"memory\"`...) runs on every path from the asm to that use: the volatile asm stays above it and the use below it")
        } else if why == Why::NoSharedAccess && fence_restricted_to_shared(instr) {
            d.with_note("a fence restricted to shared memory orders only accesses of shared memory; the C++ beside it touches only memory known not to be shared (a kernel's parameters, local arrays, locals computed from them), and `volatile` asm keeps its order among other volatile asm")
        } else if why == Why::NoSharedAccess {
            d.with_note("the wait orders the asynchronous copies against accesses of the shared memory they fill or drain; the C++ beside it touches only memory known not to be shared (a kernel's parameters, local arrays, locals computed from them), and `volatile` asm keeps its order among other volatile asm: here `\"memory\"` would order nothing more that the copies touch")
        } else if why == Why::NothingBeside {
            d.with_note("the accesses it would order are those on the side it orders, up to the nearest compiler barrier (an asm with `\"memory\"`, `__syncthreads()`...), in its function and its callers in view, leaving out branches its path never takes; there are none, and `volatile` keeps its order among other volatile asm")
        } else if volatile {
            d.with_note("`volatile` orders the asm only among other volatile asm; only `\"memory\"` promises its order against C++ loads and stores (nvcc 13 was measured conservative in the cases tried: the risk is the contract, not today's compiler)")
        } else {
            d.with_note("measured with nvcc 13: a C++ load after a non-volatile atomic without `\"memory\"` was merged with the load before it")
        };
        if let Some(edit) = add_memory_clobber(stmt) {
            d = d.with_fix(Fix::safe("add a `\"memory\"` clobber", vec![edit]));
        }
        out.push(d);
    }
}

/// A misspelt word modifier (`ld.gloabl`): `ptx-syntax` reports the instruction, which does
/// not assemble, and what it would do to memory is a guess (here, the generic `ld` it
/// resolves to). Parts with digits (packed types, vector sizes) are left to `ptx-syntax`.
fn misspelt_modifier(instr: &ptxguard_analyzer::ptx::Instruction) -> bool {
    let parts: Vec<&str> = instr.parts.iter().map(|p| p.text.as_str()).collect();
    let sure =
        ptxguard_analyzer::isa::resolve(&parts).is_some_and(|f| f.family.uncertain.is_none());
    sure && ptxguard_analyzer::isa::invalid_modifiers(&parts)
        .into_iter()
        .any(|i| !parts[i].bytes().any(|b| b.is_ascii_digit()))
}

/// Adds `"memory"` to the clobbers, creating the clobber section with the right colons; in a
/// Python call, appends `~{memory}` to the constraint string.
fn add_memory_clobber(stmt: &AsmStatement) -> Option<Edit> {
    if stmt.in_python() {
        // The clobber's quotes could end the Python string it is written in (Python calls
        // themselves are not checked).
        return None;
    }
    if stmt.close_paren.is_empty() {
        return None;
    }
    if let Some(last) = stmt.clobbers.last() {
        return Some(Edit::insert(last.span.end as usize, ", \"memory\""));
    }
    let at = stmt.close_paren.start as usize;
    let text = match stmt.colons.len() {
        0 => " ::: \"memory\"",
        1 => " :: \"memory\"",
        2 => " : \"memory\"",
        // The clobber section exists but is empty.
        _ => " \"memory\"",
    };
    if stmt.colons.len() >= 3 {
        let colon = stmt.colons[2];
        return Some(Edit::insert(colon.end as usize, text));
    }
    Some(Edit::insert(at, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::cpp::lexer::lex_range;

    #[test]
    fn later_declarators_declare() {
        let at =
            |text: &str, needle: &str| super::later_declarator(text, 0, text.find(needle).unwrap());
        assert!(at("{ uint64_t *full = s.full, *empty = s.empty;", "*empty"));
        assert!(at("{ bf16 *sA = s.A, *sB = s.B, *sC = s.C;", "*sC"));
        assert!(at(
            "; __shared__ __align__(8) uint64_t full[4], empty[4];",
            "empty"
        ));
        assert!(at("{ std::pair<int, int> *a = p, *b = q;", "*b"));
        assert!(at(
            "; // the barriers\n  uint64_t full[4], empty[4];",
            "empty"
        ));
        // A comma operator, a call's arguments, a return: accesses.
        assert!(!at("{ a = 1, *p = 2;", "*p"));
        assert!(!at("{ f(x, *p);", "*p"));
        assert!(!at("{ return a, *p;", "*p"));
        assert!(!at("{ *p = 1;", "*p"));
    }

    #[test]
    fn root_names_skip_casts_members_subscripts_and_keywords() {
        fn names(e: &str) -> Vec<&str> {
            root_names(e).names
        }
        assert_eq!(
            names("reinterpret_cast<const float*>(tile) + 4 * k"),
            ["tile", "k"]
        );
        assert_eq!(names("(float4*)(&out[row * n])"), ["out"]);
        assert_eq!(names("(const uint4 *)buf"), ["buf"]);
        assert_eq!(names("storage.scale"), ["storage"]);
        assert_eq!(names("p->next"), ["p"]);
        assert_eq!(names("sizeof(T) * n"), ["n"]);
        assert!(!root_names("p + 1").call);
        let call = root_names("get_smem(k)");
        assert!(call.call);
        assert_eq!(call.names, ["k"]);
        assert!(root_names("this->buf").call);
        // Unbalanced input is read, not a panic.
        assert_eq!(names("(p"), ["p"]);
        assert_eq!(names("x[("), ["x"]);
    }

    #[test]
    fn shared_declarations_name_every_declarator() {
        let source = "extern __shared__ __align__(16) char smem_raw[];\n\
                      __shared__ float a[4], b;\n\
                      __global__ void k() { __shared__ typename Reduce::TempStorage temp; \
                      static __shared__ int flag = 0; int local; }";
        let tokens = lex_range(source, 0, source.len(), false);
        assert_eq!(
            shared_declarations(source, &tokens),
            ["a", "b", "flag", "smem_raw", "temp"]
        );
    }

    #[test]
    fn parameter_names_are_the_last_names_before_defaults_and_bounds() {
        assert_eq!(
            parameter_names("const float* __restrict__ in, float* out, int n = 4, float w[8]"),
            ["in", "out", "n", "w"]
        );
        assert_eq!(parameter_names("void"), Vec::<&str>::new());
    }

    #[test]
    fn kernels_are_told_by_global_before_the_name_not_in_a_comment() {
        let source = "// used by __global__ kernels\n__device__ void f(float* p) {}\n\
                      template <int N> __global__ void __launch_bounds__(128) k(float* p) {}";
        let tokens = lex_range(source, 0, source.len(), false);
        let params = |name: &str| source.find(&format!("{name}(float")).unwrap() + name.len() + 1;
        assert!(!is_kernel(source, &tokens, params("f")));
        assert!(is_kernel(source, &tokens, params("k")));
    }
}
