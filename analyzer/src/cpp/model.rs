//! What the front end knows about one asm statement.

use super::preproc::{CondExpr, Condition};
use super::types::TypeInfo;
use crate::ptx::{PercentMode, Placeholder, PlaceholderTarget, Ptx};
use crate::template::Template;
use crate::Span;
use std::ops::Range;

#[derive(Clone, Debug)]
pub struct AsmStatement {
    /// From the `asm` keyword to the closing parenthesis.
    pub span: Span,
    /// `asm`, `__asm__` or `__asm`.
    pub keyword: Span,
    /// `volatile`, `__volatile__`, `inline`, `goto`... with their spans.
    pub qualifiers: Vec<(String, Span)>,
    pub open_paren: Span,
    /// Empty at the end of the text when the statement is not closed.
    pub close_paren: Span,
    pub template: Template,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<Clobber>,
    /// The `:` separators present (0 to 4).
    pub colons: Vec<Span>,
    pub context: Context,
    /// Set when the statement is written in the body of this `#define`.
    pub macro_name: Option<String>,
    /// The PTX parsed from the template.
    pub ptx: Ptx,
    /// What wrote the statement: a C++ `asm`, or a Python call (see [`Origin`]).
    pub origin: Origin,
}

/// What wrote an asm statement.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    /// A C++ `asm` statement in a C++ file.
    #[default]
    Cpp,
    /// A C++ `asm` statement in C++ source held in a Python string (cupy `RawKernel`,
    /// `load_inline(cuda_sources=...)`, cuda.core `Program`): spans point into the Python file.
    /// `unit` is where the call's code argument starts: statements with the same `unit` are
    /// compiled together, others separately (each string is its own compilation).
    CppInPython { unit: u32 },
    /// A Python call handing PTX to LLVM (LLVM inline-asm syntax: `$N`, `%` literal).
    Python(PythonCall),
}

/// The Python call behind an asm statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PythonCall {
    pub api: PythonApi,
    /// The argument saying whether the asm has side effects (`is_pure=` for Triton,
    /// `has_side_effects=` for MLIR): the value's span and its value when it is a literal.
    pub side_effects: Option<(Span, Option<bool>)>,
    /// Triton's `pack` argument: span and value when literal.
    pub pack: Option<(Span, Option<u32>)>,
    /// Triton's result dtypes as written (`tl.float32`), or MLIR's result types (`T.i32()`);
    /// `None` when they cannot be listed.
    pub result_types: Option<Vec<(String, Span)>>,
    /// The input arguments (`args=[...]`, `operands_=[...]`); `None` when not a literal list.
    pub args: Option<Vec<Span>>,
    /// `asm_dialect=...` as written (MLIR).
    pub asm_dialect: Option<(String, Span)>,
    /// The whole keyword argument `asm_dialect=...` (for its removal).
    pub asm_dialect_arg: Option<Span>,
    /// The call is a statement of its own: its results are thrown away (both APIs make the
    /// asm produce one, so a dummy output is how side-effect-only asm is written).
    pub result_discarded: bool,
    /// PyTorch's `inline_asm_elementwise(*inputs, asm_str=, constraints=, dtype=, is_pure=True,
    /// pack=1)` higher-order op (Triton's semantics under Inductor; `is_pure` defaults to true).
    pub torch_op: bool,
    /// How the template names each operand when not `$N` (the CuTe DSL's `inline_ptx`:
    /// `{$w0}`, `{$rw0}`, `{$r0}`), by operand number.
    pub operand_names: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PythonApi {
    /// `tl.inline_asm_elementwise`: the asm runs once per group of `pack` elements.
    TritonElementwise,
    /// `llvm.inline_asm` of MLIR's Python bindings (the CuTe DSL among them).
    MlirInlineAsm,
    /// The CuTe DSL's `cute.arch.inline_ptx` (operands `{$w0}`, `{$r0}`, `{$rw0}`).
    CuteInlinePtx,
}

impl PythonCall {
    /// Whether the call says the asm has side effects (unknown values count as yes).
    pub fn has_side_effects(&self) -> bool {
        match (self.api, &self.side_effects) {
            (_, Some((_, None))) => true,
            (PythonApi::TritonElementwise, Some((_, Some(pure)))) => !pure,
            (PythonApi::MlirInlineAsm, Some((_, Some(side)))) => *side,
            // Triton requires `is_pure` (PyTorch's op defaults it to true); MLIR's default is
            // no side effects.
            (PythonApi::TritonElementwise, None) => !self.torch_op,
            (PythonApi::MlirInlineAsm, None) => false,
            // The call does not say: not judged.
            (PythonApi::CuteInlinePtx, _) => true,
        }
    }
}

#[derive(Clone, Debug)]
pub struct AsmOperand {
    /// `%N` number: outputs first, then inputs.
    pub index: usize,
    pub is_output: bool,
    /// `[name]`.
    pub name: Option<(String, Span)>,
    pub constraint: Constraint,
    /// The C++ expression between the parentheses, as written.
    pub expr: String,
    pub expr_span: Span,
    pub ty: TypeInfo,
    /// Set when no comma separates this operand from the one before it: where the comma
    /// belongs (just after the previous operand's `)`).
    pub missing_comma_at: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Constraint {
    /// Decoded text (`=r`, `+l`, `=&r`); empty and `known == false` when it comes from a macro.
    pub text: String,
    /// The literal(s) as written, quotes included.
    pub span: Span,
    pub known: bool,
}

impl Constraint {
    /// The letters without the `=`, `+`, `&` modifiers.
    pub fn letters(&self) -> String {
        self.text
            .chars()
            .filter(|c| !matches!(c, '=' | '+' | '&'))
            .collect()
    }

    /// The single register/immediate letter when there is exactly one.
    pub fn letter(&self) -> Option<char> {
        let mut chars = self.text.chars().filter(|c| !matches!(c, '=' | '+' | '&'));
        let first = chars.next()?;
        chars.next().is_none().then_some(first)
    }

    pub fn is_read_write(&self) -> bool {
        self.text.contains('+')
    }

    /// An `=` output (written, never read as an input): known, with `=` and without `+`.
    pub fn is_write_only(&self) -> bool {
        self.known && self.text.contains('=') && !self.is_read_write()
    }

    pub fn is_early_clobber(&self) -> bool {
        self.text.contains('&')
    }

    /// The span of the letters inside the quotes, when the constraint is one plain literal.
    pub fn inner_span(&self, source: &str) -> Option<Span> {
        let written = source.get(self.span.range())?;
        if !written.starts_with('"') || !written.ends_with('"') || written.len() < 2 {
            return None;
        }
        if written[1..written.len() - 1].contains(['"', '\\']) {
            return None;
        }
        Some(Span::new(
            self.span.start as usize + 1,
            self.span.end as usize - 1,
        ))
    }
}

#[derive(Clone, Debug)]
pub struct Clobber {
    pub text: String,
    pub span: Span,
}

/// Where the statement is compiled, as far as the file says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// In a `__device__`/`__global__` function or a device-only branch.
    Device,
    /// Host code: a host function, `#if !defined(__CUDA_ARCH__)`, `NV_IF_TARGET(NV_IS_HOST, ...)`.
    Host(String),
    /// Another target's asm (AMD GCN, x86...), with the reason.
    Foreign(String),
    /// Nothing says; treated as PTX.
    Unknown,
}

#[derive(Clone, Debug, Default)]
pub struct Context {
    pub function: Option<Function>,
    /// Preprocessor conditions in force, outermost first.
    pub conditions: Vec<Condition>,
    /// Inside a `for`/`while`/`do` body.
    pub in_loop: bool,
    /// The names the header of the innermost loop around the statement declares or steps,
    /// when it is a `for` (`u` of `for (int u = 0; u < 4; ++u)`): their values change every
    /// iteration of that loop.
    pub loop_variables: Vec<String>,
    pub in_lambda: bool,
    /// Conditions of the `if (...) { }` blocks around the statement in its function,
    /// outermost first, as written (`(Arch >= 90)`), each followed by the initializers of the
    /// local constants it names (`constexpr bool has_x = ARCH_HAS_X; if (has_x)`).
    pub if_conditions: Vec<String>,
    pub target: Option<Target>,
    /// Enclosing `NV_IF_TARGET`/`NV_IF_ELSE_TARGET`/`NV_DISPATCH_TARGET` branches:
    /// the target query (`NV_PROVIDES_SM_90`) and whether the statement is in its true branch.
    pub nv_target: Vec<(String, bool)>,
    /// Outside every function, lambda and block (namespaces and `extern "C"` aside): an asm
    /// declaration at file scope, which nvcc gives the host compiler only.
    pub at_file_scope: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub name_span: Span,
    /// Words before the name and after the parameters (`__device__`, `__forceinline__`,
    /// `static`, `CUTLASS_DEVICE`...), as written.
    pub qualifiers: Vec<String>,
    /// The body braces.
    pub body: Span,
    /// Defined inside its class's body (so implicitly `inline`).
    pub defined_in_class: bool,
}

impl Function {
    pub fn has(&self, qualifier: &str) -> bool {
        self.qualifiers.iter().any(|q| q == qualifier)
    }
}

impl AsmStatement {
    pub fn is_volatile(&self) -> bool {
        self.qualifiers
            .iter()
            .any(|(q, _)| matches!(q.as_str(), "volatile" | "__volatile__" | "__volatile"))
    }

    /// Operands in `%N` order: outputs, then inputs.
    pub fn operands(&self) -> impl Iterator<Item = &AsmOperand> {
        self.outputs.iter().chain(self.inputs.iter())
    }

    pub fn operand_count(&self) -> usize {
        self.outputs.len() + self.inputs.len()
    }

    pub fn operand(&self, index: usize) -> Option<&AsmOperand> {
        self.operands().nth(index)
    }

    /// The operand a placeholder binds.
    pub fn resolve(&self, placeholder: &Placeholder) -> Option<&AsmOperand> {
        match &placeholder.target {
            PlaceholderTarget::Index(i) => self.operand(*i as usize),
            PlaceholderTarget::Name(n) => self
                .operands()
                .find(|o| o.name.as_ref().is_some_and(|(name, _)| name == n)),
        }
    }

    /// How `%` is read: nvcc substitutes operands only when the statement has operands
    /// (or goto labels); clobbers alone do not count.
    pub fn percent_mode(&self) -> PercentMode {
        if self.python().is_some() {
            return PercentMode::Llvm;
        }
        let goto = self.qualifiers.iter().any(|(q, _)| q == "goto");
        if self.operand_count() > 0 || goto {
            PercentMode::WithOperands
        } else {
            PercentMode::Verbatim
        }
    }

    /// The Python call, when a Python call wrote the statement.
    pub fn python(&self) -> Option<&PythonCall> {
        match &self.origin {
            Origin::Python(call) => Some(call),
            _ => None,
        }
    }

    /// Whether the statement is written in Python (a call, or C++ in a Python string): fixes
    /// made for C++ text do not apply there.
    pub fn in_python(&self) -> bool {
        self.origin != Origin::Cpp
    }

    pub fn has_clobber(&self, name: &str) -> bool {
        self.clobbers.iter().any(|c| c.text.trim() == name)
    }

    /// The source span of a decoded template range.
    pub fn source_span(&self, decoded: Range<usize>) -> Span {
        self.template.source_span(decoded)
    }

    /// The enclosing function's text from its name to this statement (its parameters and
    /// the declarations before the statement); `None` outside a function.
    pub fn function_text_before<'s>(&self, source: &'s str) -> Option<&'s str> {
        let function = self.context.function.as_ref()?;
        let start = function.name_span.end as usize;
        let end = (self.span.start as usize).min(source.len());
        if start >= end {
            return None;
        }
        source.get(start..end)
    }

    /// Whether PTX rules may look at this statement.
    pub fn is_ptx(&self) -> bool {
        !matches!(
            self.context.target,
            Some(Target::Host(_)) | Some(Target::Foreign(_))
        )
    }

    /// Moves every source span through `f`: the statement was found in text decoded from
    /// another file's string literal (C++ in a Python string), and `f` maps that text's
    /// positions to the file's. Spans into the decoded template are left as they are.
    pub fn remap(&mut self, f: &impl Fn(Span) -> Span) {
        for span in [
            &mut self.span,
            &mut self.keyword,
            &mut self.open_paren,
            &mut self.close_paren,
        ] {
            *span = f(*span);
        }
        self.qualifiers.iter_mut().for_each(|(_, s)| *s = f(*s));
        self.colons.iter_mut().for_each(|s| *s = f(*s));
        self.clobbers.iter_mut().for_each(|c| c.span = f(c.span));
        self.template.remap(f);
        for op in self.outputs.iter_mut().chain(self.inputs.iter_mut()) {
            if let Some((_, s)) = &mut op.name {
                *s = f(*s);
            }
            op.constraint.span = f(op.constraint.span);
            op.expr_span = f(op.expr_span);
            if let Some(cast) = &mut op.ty.cast {
                cast.inner = f(cast.inner);
            }
            op.missing_comma_at = op
                .missing_comma_at
                .map(|at| f(Span::empty_at(at)).start as usize);
        }
        if let Some(function) = &mut self.context.function {
            function.name_span = f(function.name_span);
            function.body = f(function.body);
        }
        self.context
            .conditions
            .iter_mut()
            .for_each(|c| c.span = f(c.span));
    }

    /// The statement's text from the keyword to the closing parenthesis.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        source.get(self.span.range()).unwrap_or("")
    }
}

impl Context {
    /// Conditions mentioning an identifier (`__CUDA_ARCH__`, feature macros...).
    pub fn condition_mentions(&self, pred: impl Fn(&str) -> bool) -> bool {
        self.conditions.iter().any(|c| {
            let mut leaves = Vec::new();
            super::preproc::leaves(&c.expr, &mut leaves);
            leaves.iter().any(|l| match l {
                CondExpr::Defined(n) | CondExpr::Ident(n) | CondExpr::Other(n) => pred(n),
                _ => false,
            })
        })
    }
}
