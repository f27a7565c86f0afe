use crate::support::diagnostics::{diagnostic, template_span};
use crate::Ctx;
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::cpp::PythonApi;
use ptxguard_analyzer::isa::Effects;
use ptxguard_analyzer::{Diagnostic, Severity};

declare_rule! {
    /// ## What it does
    /// Flags an atomic or a reduction (`atom`, `red`, `mbarrier.arrive`...) inside a Triton
    /// `inline_asm_elementwise` call (or PyTorch's op of that name, which Inductor lowers to
    /// it).
    ///
    /// ## Why is this bad?
    /// Triton runs the asm once for every group of `pack` elements each thread holds, and a
    /// tensor smaller than the thread block is replicated: several threads hold the same
    /// element and each runs the asm. A store of an element's own value is idempotent, so it
    /// is not reported; a read-modify-write is not. Measured with Triton 3.6 on an H200: a
    /// `red.global.add.u32 [$1], 1;` over 32 elements in 4 warps added 128, not 32;
    /// `tl.atomic_add` over the same 32 elements added 32 (Triton masks replicated copies for
    /// its own atomics).
    ///
    /// When every input is a parameter of the function holding the call (a helper such as
    /// `send_signal(addrs)`), the caller decides which threads hold which elements, and may
    /// guard the call by thread (`if tid < world_size:`): the finding is then an info, not a
    /// warning (torchao's four signal helpers are such a case, and correct); and so is a call
    /// directly under such a guard in its own function (`if flat_tid < WORLD_SIZE:`). So is an input
    /// a helper call computes from parameters (`saddr = _ptr_to_shared_u32(mbar_ptr)`), unless
    /// the helper, defined in the file, makes tensors (`tl.arange`...) that could replicate it.
    ///
    /// ## Example
    /// ```python
    /// tl.inline_asm_elementwise("red.global.add.u32 [$1], 1; mov.u32 $0, 0;", "=r,l",
    ///                           [counter + offs * 0], dtype=tl.int32, is_pure=False, pack=1)
    /// ```
    /// Use instead:
    /// ```python
    /// tl.atomic_add(counter + offs * 0, 1)
    /// ```
    pub(crate) static META = {
        name: "elementwise-side-effect",
        severity: Warning,
        fix: None,
        default_enabled: true,
        summary: "an atomic or reduction in Triton's `inline_asm_elementwise`, run once per replicated element",
    }
}

pub(crate) fn check(cx: &Ctx, out: &mut Vec<Diagnostic>) {
    for stmt in cx.ptx_statements() {
        if stmt.python().map(|c| c.api) != Some(PythonApi::TritonElementwise) {
            continue;
        }
        let flow = cx.flow(stmt);
        for step in &flow.steps {
            let Some(effects) = step.effects() else {
                continue;
            };
            if !effects.contains(Effects::ATOMIC) {
                continue;
            }
            let opcode = &step.instr.opcode;
            let mut d = diagnostic(
                    &META,
                    template_span(stmt, step.instr.opcode_span.clone()),
                    format!("`{opcode}` in `inline_asm_elementwise` runs once per element each thread holds, replicated copies included"),
                )
                .with_note("measured with Triton 3.6: a `red.global.add` over 32 elements in 4 warps added 128")
                .with_help("use `tl.atomic_add` (or another `tl.atomic_*`), which masks replicated elements");
            // PyTorch's op is called from host code: no caller there picks threads.
            let torch_op = stmt.python().is_some_and(|c| c.torch_op);
            if !torch_op && inputs_are_parameters(cx, stmt) {
                d.severity = Severity::Info;
                d = d.with_note("every input is a parameter of the enclosing function: its callers decide which threads run it");
            } else if let Some(condition) = thread_guard(cx.source(), stmt) {
                d.severity = Severity::Info;
                d = d.with_note(format!("the call runs under `if {condition}:`, which picks threads by their index: which copies run is the guard's choice, not replication"));
            }
            out.push(d);
            break;
        }
    }
}

/// The condition of the `if` the call sits directly in, when it picks threads by their
/// index (`if flat_tid < WORLD_SIZE:`, `if tid == 0:`: a name the function assigns from
/// something reading the thread index, compared with `<`, `<=` or `==`).
fn thread_guard<'s>(source: &'s str, stmt: &AsmStatement) -> Option<&'s str> {
    let start = stmt.span.start as usize;
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = |line: &str| line.len() - line.trim_start().len();
    let own = indent(&source[line_start..start]);
    // The nearest line above with less indentation (blank lines and comments aside).
    let head =
        source[..line_start].lines().rev().take(64).find(|l| {
            !l.trim().is_empty() && !l.trim_start().starts_with('#') && indent(l) < own
        })?;
    let condition = head.trim().strip_prefix("if ")?.strip_suffix(':')?.trim();
    // `name < N`, `name <= N`, `name == N`, the thread index on the left.
    let (left, _) = ["<=", "<", "=="]
        .iter()
        .find_map(|op| condition.split_once(op))?;
    let name = left.trim();
    if condition.contains(" or ")
        || name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    // The name holds the thread's index: the function assigns it from something that reads
    // one (`flat_tid = get_flat_tid()`, an asm reading `%tid`), not a program id.
    let function_start = source[..line_start]
        .rfind("\ndef ")
        .or_else(|| source[..line_start].rfind("def "))
        .unwrap_or(0);
    let assigned = source[function_start..line_start].lines().any(|l| {
        let l = l.trim();
        let Some(value) = l
            .strip_prefix(name)
            .and_then(|r| r.trim_start().strip_prefix('='))
        else {
            return false;
        };
        let value = value.to_ascii_lowercase();
        !value.starts_with('=')
            && (value.contains("tid") || value.contains("thread"))
            && !value.contains("program_id")
    });
    assigned.then_some(condition)
}

/// Whether the call has inputs and each is a bare name among the enclosing function's
/// parameters (`def send_signal(addrs, sem: tl.constexpr):` ... `[addrs]`).
fn inputs_are_parameters(cx: &Ctx, stmt: &AsmStatement) -> bool {
    let Some(before) = stmt.function_text_before(cx.source()) else {
        return false;
    };
    let Some(open) = before.find('(') else {
        return false;
    };
    let mut depth = 0usize;
    let mut close = None;
    for (i, c) in before[open..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(close) = close else {
        return false;
    };
    let parameters: Vec<&str> = before[open + 1..close]
        .split(',')
        .map(|p| {
            p.split([':', '='])
                .next()
                .unwrap_or("")
                .trim()
                .trim_start_matches('*')
        })
        .filter(|p| !p.is_empty())
        .collect();
    let body = &before[close..];
    !stmt.inputs.is_empty()
        && stmt.inputs.iter().all(|op| {
            let name = op.expr.trim();
            parameters.contains(&name)
                || helper_result_of_parameters(cx.source(), body, name, &parameters)
        })
}

/// Whether `name` is assigned once in `body`, by a call of a helper (a bare name, not a
/// `tl.` function: `tl.arange` and the like make tensors) whose arguments are parameters or
/// literals: `saddr = _ptr_to_shared_u32(mbar_ptr, _semantic=_semantic)`. The helper's
/// callers still decide which threads hold what; a helper defined in the file that makes
/// tensors of its own does not count.
fn helper_result_of_parameters(file: &str, body: &str, name: &str, parameters: &[&str]) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if name.is_empty() || !name.chars().all(is_word) {
        return false;
    }
    let mut assignments = body.lines().filter_map(|line| {
        let rest = line.trim_start().strip_prefix(name)?;
        let rest = rest.trim_start().strip_prefix('=')?;
        (!rest.starts_with('=')).then_some(rest.trim())
    });
    let (Some(value), None) = (assignments.next(), assignments.next()) else {
        return false;
    };
    let Some((callee, args)) = value.split_once('(') else {
        return false;
    };
    let Some(args) = args.strip_suffix(')') else {
        return false;
    };
    let callee = callee.trim();
    if callee.is_empty() || !callee.chars().all(is_word) {
        return false;
    }
    let arguments_known = args.split(',').map(str::trim).all(|arg| {
        let value = arg.split_once('=').map_or(arg, |(_, v)| v.trim());
        parameters.contains(&value)
            || value.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '"')
            || matches!(value, "True" | "False" | "None")
    });
    arguments_known && !makes_tensors(file, callee)
}

/// Whether a function of the file named `callee` makes tensors (`tl.arange`, `tl.full`...),
/// which could replicate what it returns.
fn makes_tensors(file: &str, callee: &str) -> bool {
    let Some(at) = file.find(&format!("def {callee}(")) else {
        return false;
    };
    let rest = &file[at..];
    let end = rest[1..].find("\ndef ").map_or(rest.len(), |e| e + 1);
    [
        "arange",
        "full(",
        "zeros",
        "ones(",
        "broadcast",
        "expand_dims",
        "reshape",
    ]
    .iter()
    .any(|m| rest[..end].contains(m))
}
