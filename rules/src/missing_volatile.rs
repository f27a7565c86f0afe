use crate::support::cpp_uses::{
    assignment_at, call_context, call_sites, matching_open, CallContext,
};
use crate::support::dataflow::Flow;
use crate::support::{
    cuda_library::implements_cuda_intrinsics,
    diagnostics::{diagnostic, template_span},
    operands::address_uses,
};
use crate::Ctx;
use ptxguard_analyzer::cpp::lexer::TokenKind;
use ptxguard_analyzer::cpp::model::Function;
use ptxguard_analyzer::cpp::{AsmStatement, PythonApi};
use ptxguard_analyzer::isa::Effects;
use ptxguard_analyzer::{Diagnostic, Edit, Fix, Severity, Span};
use std::collections::HashMap;

declare_rule! {
    /// ## What it does
    /// Flags an asm statement **with outputs** that has neither `volatile` nor a `"memory"`
    /// clobber although running it matters beyond computing its outputs:
    ///
    /// - it has a side effect: a store, atomic or reduction (`st`, `atom`, `red`), a barrier
    ///   or fence (`bar`, `barrier`, `membar`, `fence`), an `mbarrier` operation, an
    ///   asynchronous copy (`cp.async*`, `cp.reduce.async*`), `wgmma.fence`/`commit_group`/
    ///   `wait_group`, `tcgen05.*`, `nanosleep`, `trap`, `griddepcontrol`, `setmaxnreg`...
    ///   (the effects come from the ISA table);
    /// - it reads state that changes: `%clock`, `%clock64`, `%globaltimer` (and the other
    ///   clock and performance-counter registers), `ld.volatile`/`.relaxed`/`.acquire`/`.cv`,
    ///   `mbarrier.test_wait`/`try_wait`, `activemask`;
    ///   A `.relaxed` load outside a loop is **info**: it orders nothing, so reading one
    ///   value for two loads of the same address, or dropping one whose value is unused, is
    ///   what the memory model allows; only moving it across synchronization could bite, and
    ///   that is not measured (Megatron-LM's `is_pure=True` `multimem.ld_reduce.relaxed`);
    /// - it loads memory and stands inside a loop (the polling pattern). Loads that cannot
    ///   change during the kernel (`ld.global.nc`, `ldu`, `.const`, `.param`, textures) are
    ///   not reported, nor a load whose address changes every iteration (it names a variable
    ///   a `for` header declares or steps, `[source + j]`, or a local assigned from one
    ///   before the asm): the compiler cannot hoist it, and it is no poll.
    ///
    /// A clock read, or a `.volatile`/`.cv` load, is a **warning** only where it runs
    /// in a loop: the asm itself, or a call of its function (or of a `#define` holding it) in a
    /// loop, following the callers the file defines. Measured with nvcc 13.0 -O3
    /// (`gpu-tests/measure/changing-reads.sh`, PTX and SASS counts): a non-volatile clock read
    /// in a loop was hoisted out of it, and a spin until a deadline (`do { t = clock; } while
    /// (t - t0 < wait);`) read the clock once and never ended; two reads in straight-line code
    /// were both kept, whether back to back, around work, from a helper called twice or a macro
    /// used twice, and so were two `ld.global.cv`, `ld.volatile.global` or `ld.acquire.gpu`
    /// loads through a helper called twice. Elsewhere the read is **info**, with a note (an
    /// `.acquire` load also orders memory, and is reported for that wherever it is).
    ///
    /// A PTX `call` is **info** when nothing else in the template must stay: what the called
    /// function does is not in view. The OptiX SDK calls its getters (`call (%0),
    /// _optix_get_launch_index_x, ();`) without `volatile` on purpose and marks the calls with
    /// effects (trace, report intersection, payload writes) `volatile`; a store or atomic
    /// beside the call is still a warning, and so is an MLIR op without results (deleted
    /// unless it has side effects, whatever it calls).
    ///
    /// An asm without outputs is implicitly volatile and is never reported, nor is
    /// `asm goto`, nor anything in the toolkit's and clang's intrinsic headers (a vendored
    /// `__clang_cuda_runtime_wrapper.h`: the compiler's code, written to its own rules).
    ///
    /// With a `"memory"` clobber but no `volatile`, nvcc keeps the statement (measured), and
    /// the `cuda::ptx` wrappers are written that way: it is not reported, except as **info**
    /// for a clock read, since `"memory"` does not stop the compiler from moving the read
    /// across the arithmetic it is meant to time.
    ///
    /// ## Why is this bad?
    /// Without `volatile` the compiler treats the asm as a pure function of its inputs: it
    /// deletes it when its outputs are unused, merges two identical ones, and hoists it out of
    /// loops. Measured with nvcc 13.0: `asm("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) :
    /// "l"(p))` with `old` unused was deleted (counter 0 instead of 128); a non-volatile
    /// `ld.u32` polled in a loop was hoisted out of it (the loop ran 1,000,000 times instead
    /// of 11). With `volatile` both behave. A **warning**: a measured miscompile that no
    /// toolchain rejects.
    ///
    /// ## Example
    /// ```cuda
    /// unsigned old;
    /// asm("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counter));
    /// ```
    /// Use instead:
    /// ```cuda
    /// unsigned old;
    /// asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counter) : "memory");
    /// ```
    ///
    /// ## Fix
    /// Safe: adds `volatile` after the `asm` keyword. (`missing-memory-clobber` separately
    /// offers the `"memory"` clobber where the asm touches memory.)
    ///
    /// ## In Python
    /// The flag is `is_pure=True` (Triton `inline_asm_elementwise`) or a
    /// missing `has_side_effects=True` (MLIR `llvm.inline_asm`, whose default is no side
    /// effects): such an op is a pure value to the compiler. An MLIR op without results is
    /// reported too, since without side effects nothing keeps it. The fix sets the flag.
    /// PyTorch's `inline_asm_elementwise` op is pure unless it says `is_pure=False` (its
    /// default is true); no fix is offered there when the argument is not written.
    /// C++ in Python strings: as in C++ files, spans inside the Python literal.
    pub(crate) static META = {
        name: "missing-volatile",
        severity: Warning,
        fix: Safe,
        default_enabled: true,
        summary: "an asm with outputs and side effects (or a changing read) without `volatile`",
    }
}

/// Why the statement must not be deleted, merged or hoisted.
struct Reason {
    /// Where (the instruction or the register), in the source.
    span: Span,
    /// What it does, for the message: "writes memory (`atom.add.u32`)".
    what: String,
    /// The label on `span`.
    label: String,
    /// A `.relaxed` load outside a loop: what the compiler may do to it the memory model
    /// allows anyway (info).
    relaxed_read: bool,
    /// A clock or counter register read, and nothing else.
    clock: bool,
    /// A load of a value that changes (`.volatile`, `.cv`), and nothing else.
    changing_read: bool,
    /// A PTX `call` of a function whose body is not in view, and nothing else that must stay.
    unknown_callee: bool,
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    // The toolkit's and clang's own intrinsic headers (a vendored `__clang_cuda_*.h`): the
    // compiler's code, written to its own rules, not the project's to change.
    if implements_cuda_intrinsics(cx) {
        return;
    }
    // Which functions of the file are called in a loop (through their callers), by name.
    let mut loops: HashMap<String, bool> = HashMap::new();
    for stmt in cx.ptx_statements() {
        // In C++ an asm without outputs is implicitly volatile; in MLIR an op without results
        // and without side effects is dead code.
        if (stmt.outputs.is_empty() && stmt.python().is_none()) || is_volatile(stmt) {
            continue;
        }
        let flow = cx.flow(stmt);
        let has_memory = stmt.has_clobber("memory");
        let varies = |expr: &str| varies_per_iteration(cx, stmt, expr);
        let Some(reason) = reason(&flow, has_memory, &varies) else {
            continue;
        };
        let fix = add_volatile(cx.file, stmt).map(|edit| {
            let title = match stmt.python() {
                Some(_) => "say the asm has side effects",
                None => "add `volatile`",
            };
            Fix::safe(title, vec![edit])
        });
        let d = if let Some(call) = stmt.python() {
            let said = match (call.api, call.side_effects) {
                // Only PyTorch's op: Triton's own call requires `is_pure`.
                (PythonApi::TritonElementwise, None) => {
                    "is pure by default (`is_pure` defaults to True)"
                }
                (PythonApi::TritonElementwise, _) => "is marked pure (`is_pure=True`)",
                (PythonApi::MlirInlineAsm, Some(_)) => "has `has_side_effects=False`",
                (PythonApi::MlirInlineAsm, None) => "does not say `has_side_effects=True`",
                // Taken as having side effects (the call does not say): never reached.
                (PythonApi::CuteInlinePtx, _) => "is taken as pure",
            };
            diagnostic(
                &META,
                stmt.keyword,
                format!("asm {} but {said}: the compiler may delete it when its results are unused, merge two of them, or move it", reason.what),
            )
        } else if has_memory {
            Diagnostic::new(
                META.name,
                Severity::Info,
                stmt.keyword,
                format!("asm {} without `volatile`: `\"memory\"` does not stop the compiler from merging two reads or moving one across the code being timed", reason.what),
            )
        } else {
            diagnostic(
                &META,
                stmt.keyword,
                format!("asm with outputs {} but is not `volatile`: the compiler may delete it when its outputs are unused, merge it, or hoist it out of a loop", reason.what),
            )
            .with_note("measured with nvcc 13: a non-volatile atomic whose result was unused was deleted, and a polled load was hoisted out of its loop")
        };
        let d = if reason.relaxed_read {
            let mut d = d;
            d.severity = Severity::Info;
            d.with_note("a `.relaxed` load orders nothing: reading one value for two loads of the same address, or none when it is unused, is allowed by the memory model; only a poll in a loop needs each load kept (then this is reported at the rule's severity)")
        } else {
            d
        };
        // An op without results (MLIR) is deleted unless it has side effects, whatever it
        // calls: only a call whose results may be left unused is in doubt.
        let d = if reason.unknown_callee && !stmt.outputs.is_empty() {
            let mut d = d;
            d.severity = Severity::Info;
            d.with_note("the called function is not in view: it may have side effects or be a pure getter (the OptiX SDK calls its getters without `volatile` on purpose); saying the asm has side effects keeps every call where it is")
        } else {
            d
        };
        let repeated_read = reason.clock || (reason.changing_read && !reason.relaxed_read);
        let d = if repeated_read && stmt.python().is_none() && !runs_in_a_loop(cx, stmt, &mut loops)
        {
            let mut d = d;
            d.severity = Severity::Info;
            d.with_note("no loop runs it here (nor, in this file, a call of its function): measured with nvcc 13, such reads outside loops were kept, even two identical ones; in a loop a read was hoisted out of it")
        } else {
            d
        };
        let d = d.with_label(reason.span, reason.label);
        out.push(match fix {
            Some(fix) => d.with_fix(fix),
            None => d,
        });
    }
}

/// How many callers up a read's function is followed to a loop.
const CALLER_LEVELS: u32 = 4;

/// Whether a read of changing state (a clock register, a `.volatile`/`.cv` load)
/// runs in a loop, where the compiler hoists it or merges it with the read before (measured:
/// module docs): the asm is in one, or its function (or its `#define`) is called in one,
/// through the callers the file defines. A read whose callers are not in view is not known
/// to loop.
fn runs_in_a_loop(cx: &Ctx, stmt: &AsmStatement, memo: &mut HashMap<String, bool>) -> bool {
    if stmt.context.in_loop {
        return true;
    }
    let function = match (&stmt.macro_name, &stmt.context.function) {
        // A macro's uses look like calls; its definition is a directive, not a call.
        (Some(name), _) => Function {
            name: name.clone(),
            name_span: Span {
                start: u32::MAX,
                end: u32::MAX,
            },
            qualifiers: Vec::new(),
            body: Span {
                start: u32::MAX,
                end: u32::MAX,
            },
            defined_in_class: false,
        },
        (None, Some(function)) => function.clone(),
        (None, None) => return false,
    };
    called_in_loop(cx, &function, CALLER_LEVELS, memo)
}

/// Whether a call of `function` in the file sits in a loop, or in a function (not a kernel)
/// whose own calls do, `levels` callers up.
fn called_in_loop(
    cx: &Ctx,
    function: &Function,
    levels: u32,
    memo: &mut HashMap<String, bool>,
) -> bool {
    // Memoised per file by function name: layered helpers (each calling every function of the
    // layer below) would otherwise be walked once per call path. A name being walked counts as
    // not looping (recursion).
    if let Some(&known) = memo.get(&function.name) {
        return known;
    }
    memo.insert(function.name.clone(), false);
    let looped = called_in_loop_uncached(cx, function, levels, memo);
    memo.insert(function.name.clone(), looped);
    looped
}

fn called_in_loop_uncached(
    cx: &Ctx,
    function: &Function,
    levels: u32,
    memo: &mut HashMap<String, bool>,
) -> bool {
    let source = cx.source();
    let tokens = cx.tokens();
    call_sites(cx, function).iter().any(|site| {
        let Some(call) = call_context(cx, site) else {
            return false;
        };
        if call.in_loop {
            return true;
        }
        // A named lambda's body (`auto ready = [&]() { return read_flag(f) != 0; };`): it
        // runs where the lambda is called (`while (!ready())`).
        if let Some(lambda) = site.close.and_then(|close| named_lambda_around(cx, close)) {
            if levels > 0 && called_in_loop(cx, &lambda, levels - 1, memo) {
                return true;
            }
        }
        let head = &tokens[call.head.clone()];
        let kernel = head.iter().any(|t| &source[t.span.range()] == "__global__");
        if kernel || levels == 0 {
            return false;
        }
        caller(cx, &call).is_some_and(|caller| called_in_loop(cx, &caller, levels - 1, memo))
    })
}

/// The named lambda whose body holds the token `at` (`auto NAME = [...](...) { ... }`), as a
/// function of that name, when the innermost block around it is such a body.
fn named_lambda_around(cx: &Ctx, at: usize) -> Option<Function> {
    /// How far back the lambda's `{` is looked for.
    const LOOK_BACK: usize = 4096;
    let source = cx.source();
    let tokens = cx.tokens();
    let text = |k: usize| &source[tokens[k].span.range()];
    let mut depth = 0usize;
    let open = (at.saturating_sub(LOOK_BACK)..at).rev().find(|&k| {
        match text(k) {
            "}" => depth += 1,
            "{" if depth > 0 => depth -= 1,
            "{" => return true,
            _ => {}
        }
        false
    })?;
    // `] (params) mutable -> T {`: back over qualifiers to the parameters' `)`.
    let mut k = open.checked_sub(1)?;
    while tokens[k].kind == TokenKind::Ident {
        k = k.checked_sub(1)?;
    }
    if text(k) != ")" {
        return None;
    }
    let params = matching_open(tokens, k, source)?;
    let capture_close = params.checked_sub(1).filter(|&c| text(c) == "]")?;
    let capture_open = (capture_close.saturating_sub(64)..capture_close)
        .rev()
        .find(|&c| text(c) == "[")?;
    let equals = capture_open.checked_sub(1).filter(|&e| text(e) == "=")?;
    let name = equals
        .checked_sub(1)
        .filter(|&n| tokens[n].kind == TokenKind::Ident)?;
    Some(Function {
        name: text(name).to_string(),
        name_span: tokens[name].span,
        qualifiers: Vec::new(),
        body: tokens[open].span,
        defined_in_class: false,
    })
}

/// The function whose body holds a call: its name is the word before the parameter list
/// that ends its head (`void stamp(unsigned* out, int i) const {`).
fn caller(cx: &Ctx, call: &CallContext) -> Option<Function> {
    let source = cx.source();
    let tokens = cx.tokens();
    let text = |k: usize| &source[tokens[k].span.range()];
    // The last group of the head, back over `noexcept(...)`, `throw()`, attributes and a
    // trailing `-> decltype(...)` to the parameters.
    let mut close = call.head.clone().rev().find(|&k| text(k) == ")")?;
    let name = loop {
        let open = matching_open(tokens, close, source)?;
        let name = open.checked_sub(1).filter(|&n| n >= call.head.start)?;
        let specifier = matches!(
            text(name),
            "noexcept" | "throw" | "decltype" | "__attribute__" | "__launch_bounds__" | "alignas"
        ) || text(name) == "(";
        if !specifier {
            break name;
        }
        close = (call.head.start..name).rev().find(|&k| text(k) == ")")?;
    };
    if tokens[name].kind != TokenKind::Ident {
        return None;
    }
    let (body_open, body_close) = (&tokens[call.body.start], &tokens[call.body.end]);
    Some(Function {
        name: text(name).to_string(),
        name_span: tokens[name].span,
        qualifiers: Vec::new(),
        body: body_open.span.cover(body_close.span),
        defined_in_class: false,
    })
}

/// `volatile`, or `asm goto` (implicitly volatile).
fn is_volatile(stmt: &AsmStatement) -> bool {
    stmt.is_volatile() || stmt.qualifiers.iter().any(|(q, _)| q == "goto")
}

/// Whether an operand's value changes from one iteration of the loops around the asm to the
/// next: it names a variable a `for` header declares or steps (`source + j`), or a local
/// assigned from one before the asm (`src4 = (uint32_t*)(src + unroll * stride)`).
fn varies_per_iteration(cx: &Ctx, stmt: &AsmStatement, expr: &str) -> bool {
    let variables = &stmt.context.loop_variables;
    if variables.is_empty() {
        return false;
    }
    let names = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
            .map(str::to_string)
            .collect()
    };
    let in_expr = names(expr);
    if in_expr.iter().any(|n| variables.contains(n)) {
        return true;
    }
    let Some(before) = stmt.function_text_before(cx.source()) else {
        return false;
    };
    // One level of locals: `T* p = base + j;` or `p = base + j;`, near the asm (a local
    // computed in the loop's body; a bounded look back keeps many asm in one function linear).
    const LOOK_BACK: usize = 2048;
    let from = (before.len().saturating_sub(LOOK_BACK)..before.len())
        .find(|&k| before.is_char_boundary(k))
        .unwrap_or(before.len());
    before[from..].split([';', '{', '}']).any(|statement| {
        let Some(at) = assignment_at(statement) else {
            return false;
        };
        let (left, right) = (&statement[..at], &statement[at + 1..]);
        names(left)
            .last()
            .is_some_and(|assigned| in_expr.contains(assigned))
            && names(right).iter().any(|n| variables.contains(n))
    })
}

fn reason(flow: &Flow, has_memory: bool, varies: &dyn Fn(&str) -> bool) -> Option<Reason> {
    let stmt = flow.stmt;
    let addresses = std::cell::OnceCell::new();
    let mut clock = None;
    let mut changing = None;
    let mut polled = None;
    let mut called = None;
    for (i, step) in flow.steps.iter().enumerate() {
        let opcode = &step.instr.opcode;
        let opcode_span = template_span(stmt, step.instr.opcode_span.clone());
        if clock.is_none() {
            if let Some((name, span)) = flow.changing_registers(i).into_iter().next() {
                clock = Some(Reason {
                    span: template_span(stmt, span),
                    what: format!("reads `%{name}`"),
                    label: format!("`%{name}` changes while the thread runs"),
                    relaxed_read: false,
                    clock: true,
                    changing_read: false,
                    unknown_callee: false,
                });
            }
        }
        let Some(e) = step.effects() else {
            continue;
        };
        if has_memory {
            continue;
        }
        // The callee's effects are not in the template: a pure getter (the OptiX SDK's
        // `_optix_get_*` calls are written without `volatile` on purpose) or a side effect.
        if step.instr.base() == "call" {
            called.get_or_insert_with(|| Reason {
                span: opcode_span,
                what: format!("calls a function (`{opcode}`)"),
                label: "what the called function does is not in view".to_string(),
                relaxed_read: false,
                clock: false,
                changing_read: false,
                unknown_callee: true,
            });
            continue;
        }
        if side_effect(e, step.instr.base()) {
            let what = if e.intersects(Effects::STORE.union(Effects::ATOMIC)) {
                "writes memory"
            } else if e.contains(Effects::VOLATILE_READ) {
                "reads a value that changes"
            } else if e.intersects(Effects::FENCE.union(Effects::BARRIER)) {
                "orders memory"
            } else {
                "has a side effect"
            };
            return Some(Reason {
                span: opcode_span,
                what: format!("{what} (`{opcode}`)"),
                label: format!("`{opcode}` {what}"),
                relaxed_read: false,
                clock: false,
                changing_read: false,
                unknown_callee: false,
            });
        }
        if changing.is_none() && e.contains(Effects::VOLATILE_READ) {
            // A relaxed load orders nothing: deleting it when its value is unused, or reading
            // one value for two loads of the same address, is what the memory model allows.
            // Only a poll (a loop) needs each execution kept.
            let relaxed = step.instr.has(".relaxed")
                && ![".acquire", ".volatile", ".cv"]
                    .iter()
                    .any(|q| step.instr.has(q))
                && !stmt.context.in_loop;
            changing = Some(Reason {
                span: opcode_span,
                what: format!("reads a value that changes (`{opcode}`)"),
                label: "two executions may read different values".to_string(),
                relaxed_read: relaxed,
                clock: false,
                changing_read: true,
                unknown_callee: false,
            });
        }
        // A load whose address changes every iteration (`[source + j]`) is no poll: the
        // compiler cannot hoist it, and its outputs are used.
        let moving = || {
            let mut here = addresses
                .get_or_init(|| address_uses(stmt))
                .iter()
                .filter(|u| std::ptr::eq(u.instr, step.instr))
                .peekable();
            here.peek().is_some() && here.all(|u| varies(&u.asm.expr))
        };
        if polled.is_none() && stmt.context.in_loop && flow.memory_use(i).reads && !moving() {
            polled = Some(Reason {
                span: opcode_span,
                what: format!("loads memory inside a loop (`{opcode}`)"),
                label: "a load the compiler may hoist out of the loop".to_string(),
                relaxed_read: false,
                clock: false,
                changing_read: false,
                unknown_callee: false,
            });
        }
    }
    if has_memory {
        return clock;
    }
    changing.or(clock).or(polled).or(called)
}

/// Must stay even when its outputs are unused. A branch inside the template is not a side
/// effect of the statement.
fn side_effect(e: Effects, base: &str) -> bool {
    e.writes_or_orders_memory()
        || e.contains(Effects::SIDE_EFFECT)
        || (e.contains(Effects::CONTROL) && !matches!(base, "bra" | "brx"))
}

/// Inserts `volatile` after the asm keyword; in a Python call, says the asm has side
/// effects (`is_pure=False`, `has_side_effects=True`).
fn add_volatile(file: &ptxguard_analyzer::SourceFile, stmt: &AsmStatement) -> Option<Edit> {
    let Some(call) = stmt.python() else {
        return Some(Edit::insert(stmt.keyword.end as usize, " volatile"));
    };
    match (call.api, call.side_effects) {
        (PythonApi::TritonElementwise, Some((span, Some(true)))) => {
            Some(Edit::replace(span, "False"))
        }
        (PythonApi::MlirInlineAsm, Some((span, Some(false)))) => Some(Edit::replace(span, "True")),
        (PythonApi::MlirInlineAsm, None) => {
            python_keyword_argument(file, stmt, "has_side_effects=True")
        }
        _ => None,
    }
}

/// Inserts `name=value` as the last argument of a Python call, right after its last token
/// (after a trailing comma if any): never into a `#` comment or after a `\` line
/// continuation between that token and the `)`.
fn python_keyword_argument(
    file: &ptxguard_analyzer::SourceFile,
    stmt: &AsmStatement,
    argument: &str,
) -> Option<Edit> {
    if stmt.close_paren.is_empty() {
        return None;
    }
    let source = file.text.as_str();
    let comments = ptxguard_analyzer::python::outline(file).comments;
    let bytes = source.as_bytes();
    let mut end = stmt.close_paren.start as usize;
    loop {
        while end > 0 && matches!(bytes[end - 1], b' ' | b'\t' | b'\r' | b'\n' | b'\x0c') {
            end -= 1;
        }
        if let Some(comment) = comments
            .iter()
            .find(|c| (c.start as usize) < end && end <= c.end as usize)
        {
            end = comment.start as usize;
        } else if end > 0 && bytes[end - 1] == b'\\' {
            end -= 1;
        } else {
            break;
        }
    }
    if source.get(..end)?.ends_with(',') {
        Some(Edit::insert(end, format!(" {argument},")))
    } else {
        Some(Edit::insert(end, format!(", {argument}")))
    }
}
