//! The PTX model of one asm template. Every span is a byte range of the *decoded* template
//! text ([`crate::template::Template::text`]); map it to the source with the template's map.

use std::ops::Range;

/// How `%` is read: with operands nvcc substitutes placeholders and turns `%%` into `%`;
/// with none it passes the text to ptxas verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PercentMode {
    WithOperands,
    Verbatim,
    /// LLVM inline-asm syntax (Triton, MLIR's `llvm.inline_asm`): operands are `$N` or
    /// `${N:modifier}`, `$$` is a literal `$`, and `%` is an ordinary character.
    Llvm,
}

/// The parsed template.
#[derive(Clone, Debug, Default)]
pub struct Ptx {
    pub statements: Vec<Statement>,
    /// Every `%` sequence in the text, in order (placeholders, escapes, registers...).
    pub percents: Vec<Percent>,
    pub errors: Vec<SyntaxError>,
    /// Brace depth left open at the end (positive: more `{` than `}`).
    pub open_braces_at_end: i32,
    /// Lowest depth reached (negative: a `}` closed a scope opened before this template).
    pub min_depth: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Percent {
    pub span: Range<usize>,
    pub kind: PercentKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PercentKind {
    /// `%%` (in `WithOperands` mode it becomes one `%`); `$$` in `Llvm` mode.
    Escape,
    /// `%3`, or with a modifier `%n3` (`modifier` = "n"); `$3` or `${3:x}` in `Llvm` mode.
    Operand {
        index: u32,
        modifier: Option<String>,
    },
    /// `%[name]`, or `%c[name]`.
    Named {
        name: String,
        modifier: Option<String>,
    },
    /// `%=`: a number unique to each asm instance.
    Unique,
    /// `%` followed by an identifier that is not a modifier+operand: `%clock64`, `%tid.x`,
    /// `%laneid`, `%p` (a register named with `%`). `name` excludes the `%`.
    Register { name: String },
    /// A `%` followed by nothing usable (end of text, space, punctuation).
    Stray,
}

/// A syntax problem the parser recovered from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Range<usize>,
    pub kind: SyntaxErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// Two instructions on one statement: `add.u32 a, b, c  add.u32 ...` (span: the second opcode,
    /// or the label, directive, `{` or `}` that follows without a `;`).
    MissingSemicolon,
    /// `}` with no matching `{` in this template (legal across statements; rules decide).
    UnbalancedClose,
    /// An unterminated `/* ...` comment, `[` without `]`, `{` vector without `}`.
    Unterminated(&'static str),
    /// Any other token the grammar did not expect.
    Unexpected(String),
}

#[derive(Clone, Debug)]
pub struct Statement {
    pub kind: StatementKind,
    /// The whole statement including its `;` when present.
    pub span: Range<usize>,
    /// Brace depth inside this template (0 = top level) where the statement stands.
    pub depth: i32,
}

#[derive(Clone, Debug)]
pub enum StatementKind {
    Instruction(Instruction),
    Directive(Directive),
    Label(LabelDef),
    OpenBrace,
    CloseBrace,
}

#[derive(Clone, Debug)]
pub struct Instruction {
    /// `@p` / `@!p` guard.
    pub guard: Option<Guard>,
    /// The full opcode text, `ld.global.v4.u32`.
    pub opcode: String,
    pub opcode_span: Range<usize>,
    /// The opcode split on `.`: `ld`, `.global`, `.v4`, `.u32`; `::` stays inside a part
    /// (`.shared::cluster`, `.L2::cache_hint`).
    pub parts: Vec<Part>,
    pub operands: Vec<Operand>,
    /// A `;` ends the instruction.
    pub terminated: bool,
    /// The opcode or an operand contains a piece of the template that could not be known.
    pub partial: bool,
    /// The ISA form, resolved on first use: several rules ask for it.
    pub form_cache: std::sync::OnceLock<Option<crate::isa::InstrForm>>,
}

impl Instruction {
    /// Whether everything about the instruction is known: no piece of the template that could
    /// not be known touches its opcode or an operand, it has an opcode, and every operand
    /// parsed. What rules judge; the rest of the template stays unknown to them.
    pub fn is_complete(&self) -> bool {
        !self.partial
            && !self.parts.is_empty()
            && !self
                .operands
                .iter()
                .any(|o| matches!(o.kind, OperandKind::Unknown))
    }

    /// The ISA form of a complete instruction ([`Self::is_complete`]): `None` when it is not
    /// complete or the ISA does not know it. The gate every rule goes through to read an
    /// instruction's form.
    pub fn known_form(&self) -> Option<&crate::isa::InstrForm> {
        if !self.is_complete() {
            return None;
        }
        self.form()
    }

    /// The ISA form of this opcode with this many operands, resolved once, even when an
    /// operand is unknown (`dump` shows it); rules ask [`Self::known_form`].
    pub fn form(&self) -> Option<&crate::isa::InstrForm> {
        self.form_cache
            .get_or_init(|| {
                let parts = self.parts.iter().map(|p| p.text.as_str());
                crate::isa::resolve_parts(parts, self.operands.len())
            })
            .as_ref()
    }

    /// The first part (`ld`).
    pub fn base(&self) -> &str {
        self.parts.first().map_or("", |p| p.text.as_str())
    }

    /// True when the opcode has this exact modifier part (with its dot): `has(".global")`.
    pub fn has(&self, modifier: &str) -> bool {
        self.parts.iter().skip(1).any(|p| p.text == modifier)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub text: String,
    pub span: Range<usize>,
}

#[derive(Clone, Debug)]
pub struct Guard {
    pub negated: bool,
    pub predicate: Operand,
    /// From the `@` to the end of the predicate.
    pub span: Range<usize>,
}

#[derive(Clone, Debug)]
pub struct Operand {
    pub kind: OperandKind,
    pub span: Range<usize>,
}

#[derive(Clone, Debug)]
pub enum OperandKind {
    /// `%3` or `%[name]` (with `modifier` when one was written: `%n3`).
    Placeholder(Placeholder),
    /// A named register or variable: `t1`, `%r1`, `%%r1` (name without `%`),
    /// special registers `%tid.x`, `%clock64`.
    Register { name: String, special: bool },
    /// `42`, `-1`, `0x1F`, `0f3F800000`, `0d3FF0000000000000`, `1.5`.
    Immediate(String),
    /// `{a, b, c, d}`; also the `(a, b)` lists of `call`.
    Vector(Vec<Operand>),
    /// `[base]`, `[base+16]`, `[base+%2]`, `[sym]`, `[42]`.
    Address {
        base: Option<Box<Operand>>,
        /// Operands added to the base (`+16`, `+%2`), with their sign: `true` when subtracted
        /// (`[x-4]` gives `(true, 4)`; `[x+-4]` gives `(false, -4)`).
        offsets: Vec<(bool, Operand)>,
    },
    /// `[tmap, {x, y}]`, `[tex, sampler, {x, y}]`: a bracketed list (tensor maps, textures,
    /// surfaces). Each element is an operand; `a+4` in it is an `Address` without brackets.
    AddressList(Vec<Operand>),
    /// `_`
    Sink,
    /// An identifier that is not obviously a register: a label target, a symbol
    /// (`LAB_%=` keeps the `%=` in its text).
    Symbol(String),
    /// `d|p`: a destination with a predicate destination (`shfl.sync`, `setp`).
    Pair(Box<Operand>, Box<Operand>),
    /// `!p` as a source predicate.
    Not(Box<Operand>),
    /// A piece of the template that could not be known.
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placeholder {
    pub target: PlaceholderTarget,
    pub modifier: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceholderTarget {
    Index(u32),
    Name(String),
}

#[derive(Clone, Debug)]
pub struct Directive {
    /// `.reg`, `.pred`? (no: `.reg .pred p;` has name `.reg`), `.shared`, `.local`, `.param`...
    pub name: String,
    pub name_span: Range<usize>,
    /// Modifiers after the name, before the declared names: `.v4`, `.b32`, `.align 16` parts.
    pub modifiers: Vec<Part>,
    /// The names it declares: `.reg .b32 a, b;` declares `a` and `b`; `p<4>` declares a
    /// range (`count` = 4).
    pub declared: Vec<Declared>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The name without any leading `%` (`%%p` and `%p` both declare `p`).
    pub name: String,
    /// The name as written, `%` included, without `<N>` or `[N]`.
    pub span: Range<usize>,
    pub count: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelDef {
    /// As written: `L_%=` keeps its `%=`.
    pub name: String,
    /// The name without its `:` (the statement's span includes the `:`).
    pub span: Range<usize>,
}

impl Ptx {
    /// Instructions in order.
    pub fn instructions(&self) -> impl Iterator<Item = (&Statement, &Instruction)> {
        self.statements.iter().filter_map(|s| match &s.kind {
            StatementKind::Instruction(i) => Some((s, i)),
            _ => None,
        })
    }
}

impl Operand {
    /// Calls `f` on this operand and every operand nested inside it.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Operand)) {
        f(self);
        match &self.kind {
            OperandKind::Vector(items) | OperandKind::AddressList(items) => {
                items.iter().for_each(|o| o.walk(f))
            }
            OperandKind::Address { base, offsets } => {
                if let Some(b) = base {
                    b.walk(f);
                }
                offsets.iter().for_each(|(_, o)| o.walk(f));
            }
            OperandKind::Pair(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            OperandKind::Not(o) => o.walk(f),
            _ => {}
        }
    }

    pub fn placeholder(&self) -> Option<&Placeholder> {
        match &self.kind {
            OperandKind::Placeholder(p) => Some(p),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_resolves_with_the_operand_count() {
        let parts = ["mbarrier", ".arrive", ".shared", ".b64"];
        let mut pos = 0;
        let parts: Vec<Part> = parts
            .iter()
            .map(|t| {
                let p = Part {
                    text: t.to_string(),
                    span: pos..pos + t.len(),
                };
                pos += t.len();
                p
            })
            .collect();
        let operand = |s: &str| Operand {
            kind: OperandKind::Symbol(s.to_string()),
            span: 0..0,
        };
        let inst = Instruction {
            guard: None,
            opcode: "mbarrier.arrive.shared.b64".to_string(),
            opcode_span: 0..pos,
            parts,
            operands: vec![operand("s"), operand("a"), operand("c")],
            terminated: true,
            partial: false,
            form_cache: Default::default(),
        };
        let f = inst.form().unwrap();
        assert_eq!(f.family.name, "mbarrier.arrive");
        assert_eq!(f.min_sm, 90); // a count without .noComplete
    }
}
