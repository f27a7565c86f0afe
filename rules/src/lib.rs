//! The ptxguard rules. One file per rule; each rule's doc comment is its user documentation.
//!
//! A rule is a [`RuleMeta`] (declared with [`declare_rule!`], which keeps the doc comment as
//! the rule's documentation) and a `check` function that reads the model of one file and
//! pushes diagnostics. Rules never look at statements that are not PTX.

use ptxguard_analyzer::context::{targets, AnalysisContext};
use ptxguard_analyzer::cpp::instantiation;
use ptxguard_analyzer::cpp::lexer::{lex_range, Token, TokenKind};
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::reach;
use ptxguard_analyzer::statements::find_asm_statements_and_tokens;
use ptxguard_analyzer::{Diagnostic, Severity, SourceFile};
use std::collections::HashMap;

#[macro_use]
mod support;

mod address_register_width;
mod arch_requirement;
mod conditional_output;
mod early_clobber;
mod elementwise_side_effect;
mod generic_address;
mod missing_memory_clobber;
mod missing_operand_comma;
mod missing_volatile;
mod operand_index;
mod operand_size_mismatch;
mod operand_type_mismatch;
mod output_read_before_write;
mod pack_mismatch;
mod percent_escape;
mod prefer_cuda_ptx;
mod prefer_intrinsic;
mod ptx_syntax;
mod unscoped_declaration;
mod unsupported_constraint;
mod unsupported_modifier;
mod unused_operand;
mod write_to_input;

/// Whether a rule can offer a fix, and of which kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixAvailability {
    None,
    Safe,
    Unsafe,
    /// Some findings get a safe fix, others an unsafe one.
    Sometimes,
}

impl FixAvailability {
    pub fn as_str(self) -> &'static str {
        match self {
            FixAvailability::None => "none",
            FixAvailability::Safe => "safe",
            FixAvailability::Unsafe => "unsafe",
            FixAvailability::Sometimes => "sometimes",
        }
    }
}

/// A rule's public description.
#[derive(Debug)]
pub struct RuleMeta {
    /// Public name, used in configs and suppressions: `address-register-width`.
    pub name: &'static str,
    pub default_severity: Severity,
    pub fix: FixAvailability,
    pub default_enabled: bool,
    /// One line.
    pub summary: &'static str,
    /// The full Markdown documentation (the rule's doc comment).
    pub docs: &'static str,
}

/// A compiler besides nvcc that code must also build with: findings about code nvcc accepts
/// and it rejects are warnings for it (`portability = ["clang"]`, `--portability clang`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compiler {
    /// clang / clang++ compiling CUDA (LLVM's NVPTX back end, GCC-style asm parsing).
    Clang,
}

impl Compiler {
    pub const ALL: [Compiler; 1] = [Compiler::Clang];

    pub fn name(self) -> &'static str {
        match self {
            Compiler::Clang => "clang",
        }
    }

    pub fn parse(name: &str) -> Option<Compiler> {
        Compiler::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// Settings that change what rules report (not which rules run). How the file is built is
/// its [`AnalysisContext`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// CCCL version for `prefer-cuda-ptx` (`3.0.0`); `None` means the one CUDA 13.0 ships.
    pub cccl_version: Option<String>,
    /// When set, only these rules run (the others cost nothing); `None` runs every rule.
    pub only: Option<Vec<&'static str>>,
    /// Compilers besides nvcc the code must build with (configuration `portability`).
    pub portability: Vec<Compiler>,
}

/// What a rule reads: one file, how it is built, and its asm statements.
pub(crate) struct Ctx<'a> {
    pub(crate) file: &'a SourceFile,
    pub(crate) statements: &'a [AsmStatement],
    pub(crate) context: &'a AnalysisContext,
    pub(crate) options: &'a Options,
    /// Each statement's read/write analysis, computed once for all the rules that need it.
    flows: Vec<std::cell::OnceCell<support::dataflow::Flow<'a>>>,
    /// The file's C++ tokens, from the front end when it made them, else lexed on first need.
    tokens: std::cell::OnceCell<Vec<Token>>,
    /// The file's targets and guard evaluation, built on first need.
    targets: std::cell::OnceCell<targets::Evaluator<'a>>,
    /// Where each identifier stands among the tokens (in order), by its text as written; on
    /// first need (the calls of a function are looked up once per asm statement).
    identifiers: std::cell::OnceCell<HashMap<&'a str, Vec<u32>>>,
    /// [`support::cpp_uses::enclosing_braces`] of the tokens, on first need.
    enclosing_braces: std::cell::OnceCell<Vec<u32>>,
}

impl<'a> Ctx<'a> {
    /// The statements PTX rules may look at.
    pub(crate) fn ptx_statements(&self) -> impl Iterator<Item = &'a AsmStatement> {
        self.statements.iter().filter(|s| s.is_ptx())
    }

    pub(crate) fn source(&self) -> &'a str {
        &self.file.text
    }

    /// The file's targets and guard evaluation (shared by the rules that need them).
    pub(crate) fn targets(&self) -> &targets::Evaluator<'a> {
        self.targets
            .get_or_init(|| targets::Evaluator::new(self.file, self.tokens(), self.context))
    }

    /// The file's C++ tokens (comments skipped, directives whole).
    pub(crate) fn tokens(&self) -> &[Token] {
        self.tokens
            .get_or_init(|| lex_range(&self.file.text, 0, self.file.text.len(), false))
    }

    /// For each token index, the `{` of the innermost block around it
    /// ([`support::cpp_uses::enclosing_braces`]).
    pub(crate) fn enclosing_braces(&self) -> &[u32] {
        self.enclosing_braces
            .get_or_init(|| support::cpp_uses::enclosing_braces(self.tokens(), self.source()))
    }

    /// The token indices of the identifier `name` (as written), in order.
    pub(crate) fn identifier_positions(&self, name: &str) -> &[u32] {
        let source: &'a str = self.source();
        self.identifiers
            .get_or_init(|| {
                let mut at: HashMap<&'a str, Vec<u32>> = HashMap::new();
                for (k, t) in self.tokens().iter().enumerate() {
                    if t.kind == TokenKind::Ident {
                        at.entry(&source[t.span.range()])
                            .or_default()
                            .push(k as u32);
                    }
                }
                at
            })
            .get(name)
            .map_or(&[], Vec::as_slice)
    }

    /// Each `=` output of a statement whose analysis is complete (its template is known and
    /// parses, and which outputs every path writes is known), with that analysis: what the
    /// rules about `=` outputs judge.
    pub(crate) fn for_each_write_only_output(
        &self,
        mut each: impl FnMut(
            &'a AsmStatement,
            &'a ptxguard_analyzer::cpp::AsmOperand,
            &support::dataflow::Flow<'a>,
            &support::dataflow::MustWrite,
        ),
    ) {
        for stmt in self.ptx_statements() {
            // Statements without an `=` output need no analysis; nor do C++ ones nvcc
            // rejects for a matching constraint (`unsupported-constraint` says so).
            if !stmt.outputs.iter().any(|o| o.constraint.is_write_only())
                || support::operands::has_matching_constraint(stmt)
            {
                continue;
            }
            let flow = self.flow(stmt);
            if flow.opaque {
                continue;
            }
            let Some(must) = flow.shared_must_write() else {
                continue;
            };
            for op in stmt.outputs.iter().filter(|o| o.constraint.is_write_only()) {
                each(stmt, op, &flow, must);
            }
        }
    }

    /// The read/write analysis of a statement, shared by every rule that asks for it.
    pub(crate) fn flow(&self, stmt: &'a AsmStatement) -> FlowRef<'_, 'a> {
        let base = self.statements.as_ptr() as usize;
        let index = (stmt as *const AsmStatement as usize).wrapping_sub(base)
            / std::mem::size_of::<AsmStatement>().max(1);
        match self.flows.get(index) {
            Some(cell) if std::ptr::eq(&self.statements[index], stmt) => {
                FlowRef::Shared(cell.get_or_init(|| support::dataflow::Flow::new(stmt)))
            }
            // Not one of this file's statements: nothing to share it with.
            _ => FlowRef::Owned(Box::new(support::dataflow::Flow::new(stmt))),
        }
    }
}

/// A statement's [`support::dataflow::Flow`], shared through [`Ctx::flow`].
pub(crate) enum FlowRef<'c, 'a> {
    Shared(&'c support::dataflow::Flow<'a>),
    Owned(Box<support::dataflow::Flow<'a>>),
}

impl<'a> std::ops::Deref for FlowRef<'_, 'a> {
    type Target = support::dataflow::Flow<'a>;

    fn deref(&self) -> &Self::Target {
        match self {
            FlowRef::Shared(f) => f,
            FlowRef::Owned(f) => f,
        }
    }
}

type CheckFn = fn(&Ctx, &mut Vec<Diagnostic>);

/// Every rule with its check, in a stable (alphabetical) order.
const RULES: &[(&RuleMeta, CheckFn)] = &[
    (&address_register_width::META, address_register_width::check),
    (&arch_requirement::META, arch_requirement::check),
    (&conditional_output::META, conditional_output::check),
    (&early_clobber::META, early_clobber::check),
    (
        &elementwise_side_effect::META,
        elementwise_side_effect::check,
    ),
    (&generic_address::META, generic_address::check),
    (&missing_memory_clobber::META, missing_memory_clobber::check),
    (&missing_operand_comma::META, missing_operand_comma::check),
    (&missing_volatile::META, missing_volatile::check),
    (&operand_index::META, operand_index::check),
    (&operand_size_mismatch::META, operand_size_mismatch::check),
    (&operand_type_mismatch::META, operand_type_mismatch::check),
    (
        &output_read_before_write::META,
        output_read_before_write::check,
    ),
    (&pack_mismatch::META, pack_mismatch::check),
    (&percent_escape::META, percent_escape::check),
    (&prefer_cuda_ptx::META, prefer_cuda_ptx::check),
    (&prefer_intrinsic::META, prefer_intrinsic::check),
    (&ptx_syntax::META, ptx_syntax::check),
    (&unscoped_declaration::META, unscoped_declaration::check),
    (&unsupported_constraint::META, unsupported_constraint::check),
    (&unsupported_modifier::META, unsupported_modifier::check),
    (&unused_operand::META, unused_operand::check),
    (&write_to_input::META, write_to_input::check),
];

static ALL: std::sync::OnceLock<Vec<&'static RuleMeta>> = std::sync::OnceLock::new();

/// Every rule, in a stable order.
pub fn all_rules() -> &'static [&'static RuleMeta] {
    ALL.get_or_init(|| RULES.iter().map(|(m, _)| *m).collect())
}

pub fn rule(name: &str) -> Option<&'static RuleMeta> {
    all_rules().iter().copied().find(|r| r.name == name)
}

impl RuleMeta {
    /// The documentation as Markdown (doc-comment indentation removed).
    pub fn documentation(&self) -> String {
        self.docs
            .lines()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string()
    }
}

/// Runs the rules of `options.only` (by default every rule, default-off ones included) on one
/// file, built as `context` says. Callers filter by configuration.
pub fn check(file: &SourceFile, context: &AnalysisContext, options: &Options) -> Vec<Diagnostic> {
    ptxguard_analyzer::phase::enter("C++ front end", "");
    let (statements, tokens) = find_asm_statements_and_tokens(file);
    run_rules(file, &statements, Some(tokens), context, options)
}

/// Runs every rule on statements already found (the editor path keeps them).
pub fn check_statements(
    file: &SourceFile,
    statements: &[AsmStatement],
    context: &AnalysisContext,
    options: &Options,
) -> Vec<Diagnostic> {
    run_rules(file, statements, None, context, options)
}

fn run_rules(
    file: &SourceFile,
    statements: &[AsmStatement],
    tokens: Option<Vec<Token>>,
    context: &AnalysisContext,
    options: &Options,
) -> Vec<Diagnostic> {
    if statements.is_empty() {
        return Vec::new();
    }
    let tokens: std::cell::OnceCell<Vec<Token>> =
        tokens.map(std::cell::OnceCell::from).unwrap_or_default();
    let cpp_view = cpp_in_python_view(file, statements);
    // Branches no configuration of the file compiles are not checked.
    let evaluator = view_evaluator(cpp_view.as_ref(), context);
    let kept: Vec<AsmStatement>;
    let statements = match not_compiled(file, statements, &tokens, &evaluator, context) {
        Some(dead) => {
            kept = statements
                .iter()
                .zip(dead)
                .filter(|(_, dead)| !dead)
                .map(|(s, _)| s.clone())
                .collect();
            &kept[..]
        }
        None => statements,
    };
    let cx = Ctx {
        file,
        statements,
        context,
        options,
        flows: (0..statements.len()).map(|_| Default::default()).collect(),
        tokens,
        targets: evaluator,
        identifiers: Default::default(),
        enclosing_braces: Default::default(),
    };
    let mut out = Vec::new();
    let python_calls_only =
        !statements.is_empty() && statements.iter().all(|s| s.python().is_some());
    for (meta, check) in RULES {
        if options
            .only
            .as_ref()
            .is_some_and(|only| !only.contains(&meta.name))
            || (python_calls_only && support::front_end::NOT_FOR_PYTHON_CALLS.contains(&meta.name))
        {
            continue;
        }
        ptxguard_analyzer::phase::enter("rule", meta.name);
        check(&cx, &mut out);
    }
    support::fix_safety::check_fixes(file, statements, &mut out);
    if let Some(ev) = cx.targets.get() {
        targets::note_reads(&ev.facts.macros);
    }
    out.sort_by(|a, b| (a.span.start, a.rule).cmp(&(b.span.start, b.rule)));
    out.dedup_by(|a, b| a.rule == b.rule && a.span == b.span && a.message == b.message);
    mark_needs_use(file, statements, &mut out);
    quiet_untaken_branches(file, statements, &cx.tokens, &mut out);
    // A project built only with HIP: nvcc compiles none of its code, except what is written
    // for HIP on NVIDIA GPUs (under `__HIP_PLATFORM_NVIDIA__`), which hipcc hands to nvcc.
    if let Some(why) = context
        .build
        .as_ref()
        .and_then(|b| b.not_for_nvidia.as_deref())
    {
        for d in out.iter_mut().filter(|d| d.severity > Severity::Info) {
            let for_nvidia = statement_at(statements, d.span.start).is_some_and(|i| {
                statements[i]
                    .context
                    .conditions
                    .iter()
                    .any(|c| c.text.contains("HIP_PLATFORM_NV"))
            });
            if !for_nvidia {
                d.quiet(why.to_string());
                d.needs_use_of = None;
            }
        }
    }
    out
}

/// Makes info the findings of statements in an `if constexpr` branch that no instantiation
/// takes ([`instantiation::untaken_branch`]): no build compiles them.
fn quiet_untaken_branches(
    file: &SourceFile,
    statements: &[AsmStatement],
    tokens: &std::cell::OnceCell<Vec<Token>>,
    out: &mut [Diagnostic],
) {
    let mut decided: Vec<Option<Option<instantiation::UntakenBranch>>> =
        vec![None; statements.len()];
    for d in out.iter_mut().filter(|d| d.severity > Severity::Info) {
        let Some(i) = statement_at(statements, d.span.start) else {
            continue;
        };
        let untaken = decided[i].get_or_insert_with(|| {
            let stmt = &statements[i];
            if !instantiation::worth_asking(&file.text, stmt) {
                return None;
            }
            let tokens = tokens.get_or_init(|| lex_range(&file.text, 0, file.text.len(), false));
            instantiation::untaken_branch(&file.text, tokens, stmt)
        });
        if let Some(untaken) = untaken {
            d.quiet(untaken.note());
            d.needs_use_of = None;
        }
    }
}

/// The index of the statement (in order of start) whose span holds `at`.
fn statement_at(statements: &[AsmStatement], at: u32) -> Option<usize> {
    let i = statements.partition_point(|s| s.span.start <= at);
    i.checked_sub(1).filter(|&i| at < statements[i].span.end)
}

/// Marks each finding whose statement is in a function compiled only where used that
/// nothing else in the file uses: whether another file does is the caller's question
/// ([`ptxguard_analyzer::reach`]).
fn mark_needs_use(file: &SourceFile, statements: &[AsmStatement], out: &mut [Diagnostic]) {
    let mut decided: Vec<Option<Option<reach::NeedsUse>>> = vec![None; statements.len()];
    let mut uses = reach::FileUses::new(&file.text);
    for d in out.iter_mut() {
        let Some(i) = statement_at(statements, d.span.start) else {
            continue;
        };
        d.needs_use_of = decided[i]
            .get_or_insert_with(|| uses.needs_use(&statements[i]))
            .clone();
    }
}

/// For each statement, whether no configuration of the file compiles it (its `#if`
/// branches are false for every target, with the build's macros and the file's own);
/// `None` when every statement is compiled somewhere.
fn not_compiled<'a>(
    file: &'a SourceFile,
    statements: &[AsmStatement],
    tokens: &std::cell::OnceCell<Vec<Token>>,
    evaluator: &std::cell::OnceCell<targets::Evaluator<'a>>,
    context: &AnalysisContext,
) -> Option<Vec<bool>> {
    if statements
        .iter()
        .all(|s| s.context.conditions.is_empty() && s.context.nv_target.is_empty())
    {
        return None;
    }
    let tokens = tokens.get_or_init(|| lex_range(&file.text, 0, file.text.len(), false));
    let ev = evaluator.get_or_init(|| targets::Evaluator::new(file, tokens, context));
    let dead: Vec<bool> = statements.iter().map(|s| ev.never_compiled(s)).collect();
    dead.iter().any(|d| *d).then_some(dead)
}

/// Which statements no configuration of the file compiles (for `dump`).
pub fn statements_not_compiled(
    file: &SourceFile,
    statements: &[AsmStatement],
    context: &AnalysisContext,
) -> Vec<bool> {
    let tokens = Default::default();
    let cpp_view = cpp_in_python_view(file, statements);
    let evaluator = view_evaluator(cpp_view.as_ref(), context);
    not_compiled(file, statements, &tokens, &evaluator, context)
        .unwrap_or_else(|| vec![false; statements.len()])
}

/// For a Python file with C++ in its strings, that C++ at the file's offsets (see
/// [`ptxguard_analyzer::python::cpp_view`]): which branches and functions each target
/// compiles is a question about it, not about the Python text around it.
fn cpp_in_python_view(file: &SourceFile, statements: &[AsmStatement]) -> Option<SourceFile> {
    statements
        .iter()
        .any(|s| matches!(s.origin, ptxguard_analyzer::cpp::Origin::CppInPython { .. }))
        .then(|| ptxguard_analyzer::python::cpp_view(file))
        .flatten()
}

/// The targets evaluator, already built on that C++ view when there is one (else built from
/// the file on first need).
fn view_evaluator<'a>(
    view: Option<&'a SourceFile>,
    context: &AnalysisContext,
) -> std::cell::OnceCell<targets::Evaluator<'a>> {
    let evaluator = std::cell::OnceCell::new();
    if let Some(view) = view {
        let tokens = lex_range(&view.text, 0, view.text.len(), false);
        let _ = evaluator.set(targets::Evaluator::new(view, &tokens, context));
    }
    evaluator
}
