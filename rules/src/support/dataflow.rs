//! The read/write analysis shared by the operand rules (`write-to-input`,
//! `conditional-output`, `output-read-before-write`, `early-clobber`) and the effect rules
//! (`missing-volatile`, `missing-memory-clobber`).
//!
//! [`Flow::new`] walks a template's instructions in order and classifies every placeholder
//! occurrence as a read or a write of the asm operand it binds, from the operand roles of the
//! ISA table: `Dst`/`PredDst` are writes (each element of a `{...}` vector, both halves of a
//! `d|p` pair), `DstSrc` is both, `Src`/`PredSrc`/`Imm` are reads, every register inside an
//! address `[...]` is read, and a guard `@%0` is read. An instruction the table does not know,
//! or one with a piece of the template that cannot be known, makes its placeholders
//! [`Access::Unknown`]: rules must not draw conclusions from them.
//!
//! On top of that, [`Flow::cfg`] builds the control flow between the instructions (`bra`,
//! labels, `ret`/`exit`/`trap`) and [`Flow::must_write`] computes, for every instruction and
//! for the end of the template, which operands are written on every path that reaches it.
//! A write under a guard `@p` counts only once the same operand has also been written under
//! `@!p` with `p` unchanged in between.

use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::isa::{self, InstrForm, Role};
use ptxguard_analyzer::ptx::{Instruction, Operand, OperandKind, StatementKind};
use ptxguard_analyzer::template::HOLE;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use super::operands::{placeholder_refs, target_index};

/// What an instruction does to one placeholder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
    /// Read, then written (`DstSrc`: `wgmma` accumulators, `bar.red` state...).
    ReadWrite,
    /// The instruction or the operand position is not known: anything may happen.
    Unknown,
}

impl Access {
    /// Known to read.
    pub(crate) fn reads(self) -> bool {
        matches!(self, Access::Read | Access::ReadWrite)
    }

    /// Known to write.
    pub(crate) fn writes(self) -> bool {
        matches!(self, Access::Write | Access::ReadWrite)
    }

    fn of_role(role: Role) -> Access {
        match role {
            Role::Dst | Role::PredDst => Access::Write,
            Role::DstSrc => Access::ReadWrite,
            Role::Src | Role::Addr | Role::PredSrc | Role::Imm => Access::Read,
            Role::Label | Role::Other => Access::Unknown,
        }
    }
}

/// One placeholder occurrence in an instruction.
#[derive(Clone, Debug)]
pub(crate) struct Use {
    /// The asm operand (`%N` number) it binds.
    pub(crate) operand: usize,
    /// The placeholder's decoded template range.
    pub(crate) span: Range<usize>,
    pub(crate) access: Access,
    /// Index into [`Flow::steps`].
    pub(crate) step: usize,
    /// The placeholder is the instruction's guard predicate (`@%0`).
    pub(crate) in_guard: bool,
}

/// How control leaves an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Control {
    /// Falls through to the next instruction.
    Next,
    /// `bra target` (`conditional` when guarded: it may also fall through).
    Branch { target: String, conditional: bool },
    /// `ret`, `exit`, `trap`: the path ends (`conditional` when guarded).
    End { conditional: bool },
    /// Cannot be known (`brx.idx`, an opcode with an unknown piece, a computed target).
    Unknown,
}

/// A register the template names, or an asm operand, as one number: operands are their
/// index, registers are numbered by [`Flow::register_key`] after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct RegKey(u32);

impl RegKey {
    /// Register keys start here; operand keys are below.
    const FIRST_REGISTER: u32 = 1 << 24;
    /// A placeholder that names no operand.
    const UNRESOLVED: RegKey = RegKey(u32::MAX - 1);
    /// Anything else (an immediate, an address).
    const NONE: RegKey = RegKey(u32::MAX);

    pub(crate) fn operand(index: usize) -> RegKey {
        RegKey(index as u32)
    }
}

/// A guard predicate (a register, or an operand for `@%1`) and whether it is negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct GuardKey {
    pub(crate) predicate: RegKey,
    pub(crate) negated: bool,
}

/// One instruction of the template with what the analysis knows about it.
pub(crate) struct Step<'a> {
    pub(crate) instr: &'a Instruction,
    /// The resolved ISA form; `None` when unknown, partial, or the operand count does not fit.
    pub(crate) form: Option<&'a InstrForm>,
    pub(crate) guard: Option<GuardKey>,
    pub(crate) control: Control,
    /// Range into [`Flow::uses`].
    pub(crate) uses: Range<usize>,
    /// Registers and placeholders (as guard keys name them) the instruction is known to write.
    pub(crate) writes_names: Vec<RegKey>,
}

impl Step<'_> {
    /// The form's effects, when resolved.
    pub(crate) fn effects(&self) -> Option<isa::Effects> {
        self.form.as_ref().map(|f| f.effects)
    }

    /// Loads from memory that cannot change while the kernel runs: the non-coherent path
    /// (`ld.global.nc`, `__ldg`), `ldu`, `.const`, `.param`, textures. Moving or merging them
    /// cannot change what they read.
    pub(crate) fn reads_read_only_memory(&self) -> bool {
        let Some(form) = &self.form else {
            return false;
        };
        if matches!(form.family.name, "ld.global.nc" | "ldu") || self.instr.has(".nc") {
            return true;
        }
        let count = self.instr.operands.len();
        let mut spaces = form
            .operands_for(count)
            .filter(|o| o.role == Role::Addr)
            .map(|o| o.space)
            .peekable();
        spaces.peek().is_some()
            && spaces.all(|s| {
                matches!(
                    s,
                    Some(isa::StateSpace::Const | isa::StateSpace::Param | isa::StateSpace::Tex)
                )
            })
    }
}

/// The read/write analysis of one asm statement.
pub(crate) struct Flow<'a> {
    pub(crate) stmt: &'a AsmStatement,
    pub(crate) steps: Vec<Step<'a>>,
    pub(crate) uses: Vec<Use>,
    /// Operands referenced somewhere the analysis cannot classify (a directive, text the parser
    /// did not read as an instruction operand).
    pub(crate) stray: Vec<bool>,
    /// Part of the template cannot be known (a macro defined elsewhere), or it does not parse:
    /// instructions may be missing from [`Self::steps`]. Rules that reason about the absence
    /// of a write must stay silent.
    pub(crate) opaque: bool,
    /// [`Self::cfg`] and [`Self::must_write`], computed once for every rule that asks.
    cfg_cache: std::cell::OnceCell<Option<Cfg>>,
    must_cache: std::cell::OnceCell<Option<MustWrite>>,
    /// [`Self::declared_names`] as a set, for [`Self::memory_use`] on every step.
    declared_cache: std::cell::OnceCell<std::collections::HashSet<&'a str>>,
    /// The registers keys were given to, in order (see [`RegKey`]).
    registers: Vec<&'a str>,
}

impl<'a> Flow<'a> {
    pub(crate) fn new(stmt: &'a AsmStatement) -> Flow<'a> {
        let mut flow = Flow {
            stmt,
            steps: Vec::new(),
            uses: Vec::new(),
            stray: vec![false; stmt.operand_count()],
            opaque: stmt.template.is_partial() || !stmt.ptx.errors.is_empty(),
            cfg_cache: Default::default(),
            must_cache: Default::default(),
            declared_cache: Default::default(),
            registers: Vec::new(),
        };
        for (_, instr) in stmt.ptx.instructions() {
            flow.add_step(instr);
        }
        // Placeholder references the walk above did not reach: a reference is reached when a
        // use's span covers its start. Spans sorted by start, with the furthest end so far.
        let mut covered: Vec<(usize, usize)> = flow
            .uses
            .iter()
            .map(|u| (u.span.start, u.span.end.max(u.span.start + 1)))
            .collect();
        covered.sort_unstable();
        let mut furthest = 0;
        for span in &mut covered {
            furthest = furthest.max(span.1);
            span.1 = furthest;
        }
        for (target, span, _) in placeholder_refs(stmt) {
            let Some(index) = target_index(stmt, &target) else {
                continue;
            };
            let before = covered.partition_point(|&(start, _)| start <= span.start);
            let reached = before > 0 && covered[before - 1].1 > span.start;
            if !reached {
                flow.stray[index] = true;
            }
        }
        flow
    }

    fn add_step(&mut self, instr: &'a Instruction) {
        let step = self.steps.len();
        let start = self.uses.len();
        // Roles by position mean something only when the operand count fits the form.
        let form = instr
            .known_form()
            .filter(|f| f.takes_operand_count(instr.operands.len()));
        if instr.partial {
            self.opaque = true;
        }
        let mut writes_names = Vec::new();
        let guard = instr.guard.as_ref().map(|g| {
            self.walk(&g.predicate, Access::Read, step, true);
            GuardKey {
                predicate: self.key_of(&g.predicate),
                negated: g.negated,
            }
        });
        let count = instr.operands.len();
        for (i, op) in instr.operands.iter().enumerate() {
            let (access, pair) = match form.as_ref().and_then(|f| f.operand_for(i, count)) {
                Some(info) => {
                    let mut access = Access::of_role(info.role);
                    if let Some(alt) = &info.alt {
                        if Access::of_role(alt.role) != access {
                            access = Access::Unknown;
                        }
                    }
                    (access, info.pair.map(Access::of_role))
                }
                None => (Access::Unknown, None),
            };
            self.classify(op, access, pair, step, &mut writes_names);
        }
        let control = control_of(instr, guard.is_some());
        self.steps.push(Step {
            instr,
            form,
            guard,
            control,
            uses: start..self.uses.len(),
            writes_names,
        });
    }

    /// Classifies the placeholders of one instruction operand written at a position of the
    /// given access (`pair`: the access of the predicate after a `|`).
    fn classify(
        &mut self,
        op: &'a Operand,
        access: Access,
        pair: Option<Access>,
        step: usize,
        writes: &mut Vec<RegKey>,
    ) {
        match &op.kind {
            OperandKind::Placeholder(_) | OperandKind::Register { .. } => {
                if access.writes() {
                    writes.push(self.key_of(op));
                }
                self.walk(op, access, step, false);
            }
            OperandKind::Vector(items) => {
                for item in items {
                    self.classify(item, access, None, step, writes);
                }
            }
            OperandKind::Pair(a, b) => {
                self.classify(a, access, None, step, writes);
                self.classify(b, pair.unwrap_or(Access::Unknown), None, step, writes);
            }
            // Every register in an address is read; `!p` is a read.
            OperandKind::Address { .. } | OperandKind::AddressList(_) | OperandKind::Not(_) => {
                let access = if access == Access::Unknown {
                    Access::Unknown
                } else {
                    Access::Read
                };
                self.walk(op, access, step, false);
            }
            _ => self.walk(op, access, step, false),
        }
    }

    /// Records every placeholder inside `op` with one access.
    fn walk(&mut self, op: &Operand, access: Access, step: usize, in_guard: bool) {
        let stmt = self.stmt;
        let mut found = Vec::new();
        op.walk(&mut |o| {
            if let OperandKind::Placeholder(p) = &o.kind {
                if let Some(bound) = stmt.resolve(p) {
                    found.push((bound.index, o.span.clone()));
                }
            }
        });
        for (operand, span) in found {
            self.uses.push(Use {
                operand,
                span,
                access,
                step,
                in_guard,
            });
        }
    }

    fn key_of(&mut self, op: &'a Operand) -> RegKey {
        match &op.kind {
            OperandKind::Register { name, .. } => {
                let at = match self.registers.iter().position(|r| *r == name.as_str()) {
                    Some(at) => at,
                    None => {
                        self.registers.push(name);
                        self.registers.len() - 1
                    }
                };
                RegKey(RegKey::FIRST_REGISTER + at as u32)
            }
            OperandKind::Placeholder(p) => match self.stmt.resolve(p) {
                Some(o) => RegKey::operand(o.index),
                None => RegKey::UNRESOLVED,
            },
            OperandKind::Not(inner) => self.key_of(inner),
            _ => RegKey::NONE,
        }
    }

    /// The key of a register the template names, if any instruction wrote or tested it.
    pub(crate) fn register_key(&self, name: &str) -> Option<RegKey> {
        self.registers
            .iter()
            .position(|r| *r == name)
            .map(|at| RegKey(RegKey::FIRST_REGISTER + at as u32))
    }

    /// The uses of one step.
    pub(crate) fn uses_of(&self, step: usize) -> &[Use] {
        &self.uses[self.steps[step].uses.clone()]
    }

    /// Every use of one operand, in template order.
    pub(crate) fn uses_of_operand(&self, operand: usize) -> impl Iterator<Item = &Use> {
        self.uses.iter().filter(move |u| u.operand == operand)
    }

    /// Some occurrence of the operand cannot be classified.
    pub(crate) fn uncertain(&self, operand: usize) -> bool {
        self.stray.get(operand).copied().unwrap_or(true)
            || self
                .uses_of_operand(operand)
                .any(|u| u.access == Access::Unknown)
    }

    /// The control flow between the steps; `None` when it cannot be known (a computed
    /// branch, a target that is not a label of this template, a label defined twice).
    /// The template's control flow, computed once.
    pub(crate) fn shared_cfg(&self) -> Option<&Cfg> {
        self.cfg_cache.get_or_init(|| self.cfg()).as_ref()
    }

    /// What is written on every path, computed once (`None` when the control flow is unknown).
    pub(crate) fn shared_must_write(&self) -> Option<&MustWrite> {
        self.must_cache
            .get_or_init(|| self.shared_cfg().map(|cfg| self.must_write(cfg)))
            .as_ref()
    }

    pub(crate) fn cfg(&self) -> Option<Cfg> {
        let n = self.steps.len();
        // Label -> index of the step that follows it (n: the end of the template).
        let mut labels: HashMap<&str, usize> = HashMap::new();
        let mut seen = 0usize;
        for s in &self.stmt.ptx.statements {
            match &s.kind {
                StatementKind::Instruction(_) => seen += 1,
                StatementKind::Label(l) if labels.insert(l.name.as_str(), seen).is_some() => {
                    return None;
                }
                _ => {}
            }
        }
        let mut succ = vec![Vec::new(); n + 1];
        for (i, step) in self.steps.iter().enumerate() {
            match &step.control {
                Control::Next => succ[i].push(i + 1),
                Control::Branch {
                    target,
                    conditional,
                } => {
                    let &to = labels.get(target.as_str())?;
                    succ[i].push(to);
                    if *conditional && to != i + 1 {
                        succ[i].push(i + 1);
                    }
                }
                Control::End { conditional } => {
                    if *conditional {
                        succ[i].push(i + 1);
                    }
                }
                Control::Unknown => return None,
            }
        }
        Some(Cfg { succ })
    }

    /// Which operands are written on every path reaching each step and the end.
    pub(crate) fn must_write(&self, cfg: &Cfg) -> MustWrite {
        let n = self.steps.len();
        let ops = self.stmt.operand_count();
        let mut state: Vec<Option<State>> = vec![None; n + 1];
        state[0] = Some(State {
            written: vec![false; ops],
            guarded: BTreeSet::new(),
        });
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                let Some(entry) = state[i].clone() else {
                    continue;
                };
                let out = self.transfer(i, entry);
                for &to in &cfg.succ[i] {
                    let merged = match &state[to] {
                        None => out.clone(),
                        Some(old) => old.meet(&out),
                    };
                    if state[to].as_ref() != Some(&merged) {
                        state[to] = Some(merged);
                        changed = true;
                    }
                }
            }
        }
        MustWrite {
            before: state.into_iter().map(|s| s.map(|s| s.written)).collect(),
        }
    }

    fn transfer(&self, i: usize, mut s: State) -> State {
        let step = &self.steps[i];
        for u in self.uses_of(i) {
            if u.in_guard || !(u.access.writes() || u.access == Access::Unknown) {
                continue;
            }
            match (&step.guard, u.access) {
                (Some(g), Access::Write | Access::ReadWrite) => {
                    let other = (
                        u.operand,
                        GuardKey {
                            predicate: g.predicate,
                            negated: !g.negated,
                        },
                    );
                    if s.guarded.contains(&other) {
                        s.written[u.operand] = true;
                    } else {
                        s.guarded.insert((u.operand, *g));
                    }
                }
                // Unknown accesses count as writes: the rules must not report them.
                _ => s.written[u.operand] = true,
            }
        }
        // A redefined predicate no longer pairs with writes guarded by its old value.
        if !step.writes_names.is_empty() {
            s.guarded
                .retain(|(_, g)| !step.writes_names.contains(&g.predicate));
        }
        s
    }
}

/// What a step does to memory the C++ program can see, for the effect rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MemoryUse {
    /// Reads memory through an address operand (not memory that is read-only while the kernel
    /// runs: see [`Step::reads_read_only_memory`]).
    pub(crate) reads: bool,
    /// Writes memory through an address operand (stores, atomics, reductions, async copies,
    /// mbarrier operations: the ISA table gives each of them STORE or ATOMIC).
    pub(crate) writes: bool,
    /// Orders memory (fences, barriers, acquire/release, waits on async completion).
    pub(crate) orders: bool,
}

impl MemoryUse {
    pub(crate) fn any(&self) -> bool {
        self.reads || self.writes || self.orders
    }
}

impl<'a> Flow<'a> {
    /// What step `i` does to memory the program sees; all false when its form is unknown.
    /// Hints (`prefetch`, `applypriority`, `cp.async.bulk.prefetch`), tensor memory
    /// (`tcgen05.ld`) and variables the template declares itself (`.local`, `.param` of a
    /// `call` sequence) are not memory the program sees.
    pub(crate) fn memory_use(&self, i: usize) -> MemoryUse {
        use isa::Effects as E;
        let step = &self.steps[i];
        let Some(form) = &step.form else {
            return MemoryUse::default();
        };
        let e = form.effects;
        let ordering = e.intersects(E::FENCE.union(E::BARRIER));
        if e.contains(E::HINT) && !ordering && !e.intersects(E::STORE.union(E::ATOMIC)) {
            return MemoryUse::default();
        }
        let declared = self
            .declared_cache
            .get_or_init(|| self.declared_names().into_iter().collect());
        let count = step.instr.operands.len();
        let addressed = step.instr.operands.iter().enumerate().any(|(k, op)| {
            form.operand_for(k, count).is_some_and(|info| {
                info.role == Role::Addr
                    && info.space != Some(isa::StateSpace::Tmem)
                    && !is_declared_symbol(op, declared)
            })
        });
        MemoryUse {
            reads: addressed && e.contains(E::LOAD) && !step.reads_read_only_memory(),
            writes: addressed && e.intersects(E::STORE.union(E::ATOMIC)),
            orders: ordering,
        }
    }

    /// Names the template declares (`.reg`, `.local`, `.param`, `.shared`...).
    pub(crate) fn declared_names(&self) -> Vec<&'a str> {
        self.stmt
            .ptx
            .statements
            .iter()
            .filter_map(|s| match &s.kind {
                StatementKind::Directive(d) => Some(d.declared.iter().map(|n| n.name.as_str())),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// Special registers read by step `i` whose value changes over time (`%clock`,
    /// `%clock64`, `%globaltimer`, performance counters), with their decoded ranges.
    pub(crate) fn changing_registers(&self, i: usize) -> Vec<(String, Range<usize>)> {
        let mut out = Vec::new();
        let mut visit = |o: &Operand| {
            if let OperandKind::Register {
                name,
                special: true,
            } = &o.kind
            {
                if isa::special_register(name).is_some_and(|r| r.changes_over_time) {
                    out.push((name.clone(), o.span.clone()));
                }
            }
        };
        let instr = self.steps[i].instr;
        for op in &instr.operands {
            op.walk(&mut visit);
        }
        out
    }
}

/// `[buf]`, `[buf+4]` where `buf` is declared by the template itself.
fn is_declared_symbol(op: &Operand, declared: &std::collections::HashSet<&str>) -> bool {
    match &op.kind {
        OperandKind::Address {
            base: Some(base),
            offsets,
        } => {
            matches!(&base.kind, OperandKind::Symbol(s) if declared.contains(&s.as_str()))
                && offsets
                    .iter()
                    .all(|(_, o)| matches!(o.kind, OperandKind::Immediate(_)))
        }
        OperandKind::Symbol(s) => declared.contains(&s.as_str()),
        _ => false,
    }
}

fn control_of(instr: &Instruction, guarded: bool) -> Control {
    if instr.parts.iter().any(|p| p.text.contains(HOLE)) {
        return Control::Unknown;
    }
    match instr.base() {
        "bra" => match instr.operands.first().map(|o| &o.kind) {
            Some(OperandKind::Symbol(target)) if instr.operands.len() == 1 => Control::Branch {
                target: target.clone(),
                conditional: guarded,
            },
            _ => Control::Unknown,
        },
        "brx" | "jmp" => Control::Unknown,
        "ret" | "exit" | "trap" => Control::End {
            conditional: guarded,
        },
        _ => Control::Next,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    written: Vec<bool>,
    /// Operands written under a guard that has not (yet) been complemented.
    guarded: BTreeSet<(usize, GuardKey)>,
}

impl State {
    fn meet(&self, other: &State) -> State {
        State {
            written: self
                .written
                .iter()
                .zip(&other.written)
                .map(|(a, b)| *a && *b)
                .collect(),
            guarded: self.guarded.intersection(&other.guarded).cloned().collect(),
        }
    }
}

/// Control flow between the steps of a [`Flow`]: node `i` is step `i`, node `steps.len()` is
/// the end of the template.
#[derive(Clone, Debug)]
pub(crate) struct Cfg {
    pub(crate) succ: Vec<Vec<usize>>,
}

impl Cfg {
    /// Steps that can run after step `from` has run (itself included when a loop leads back).
    pub(crate) fn reachable_after(&self, from: usize) -> Vec<bool> {
        let mut seen = vec![false; self.succ.len()];
        let mut stack: Vec<usize> = self.succ[from].clone();
        while let Some(n) = stack.pop() {
            if seen[n] {
                continue;
            }
            seen[n] = true;
            stack.extend(self.succ[n].iter().copied());
        }
        seen
    }
}

/// The result of [`Flow::must_write`].
#[derive(Clone, Debug)]
pub(crate) struct MustWrite {
    /// Per node: the operands written on every path reaching it; `None` when unreachable.
    before: Vec<Option<Vec<bool>>>,
}

impl MustWrite {
    /// Whether `operand` is written on every path before step `step` runs; `None` when the
    /// step cannot be reached.
    pub(crate) fn written_before(&self, step: usize, operand: usize) -> Option<bool> {
        self.before
            .get(step)?
            .as_ref()
            .map(|w| w.get(operand).copied().unwrap_or(true))
    }

    /// Whether `operand` is written on every path that reaches the end of the template;
    /// `None` when no path reaches it.
    pub(crate) fn written_at_end(&self, operand: usize) -> Option<bool> {
        self.written_before(self.before.len() - 1, operand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxguard_analyzer::statements::find_asm_statements;
    use ptxguard_analyzer::SourceFile;

    fn stmt(asm: &str) -> AsmStatement {
        let text = format!("__device__ void f(int a, int b, int* p) {{ int x, y; {asm}; }}\n");
        let file = SourceFile::new("t.cu", text);
        let mut all = find_asm_statements(&file);
        assert_eq!(all.len(), 1, "one statement in {asm}");
        all.remove(0)
    }

    /// `(operand, access)` of every use, in order.
    fn accesses(flow: &Flow) -> Vec<(usize, Access)> {
        flow.uses.iter().map(|u| (u.operand, u.access)).collect()
    }

    fn text_of<'s>(stmt: &'s AsmStatement, u: &Use) -> &'s str {
        &stmt.template.text[u.span.clone()]
    }

    #[test]
    fn destination_sources_and_address() {
        let s = stmt(r#"asm("ld.global.u32 %0, [%1+4];" : "=r"(x) : "l"(p))"#);
        let f = Flow::new(&s);
        assert_eq!(accesses(&f), vec![(0, Access::Write), (1, Access::Read)]);
        assert_eq!(text_of(&s, &f.uses[0]), "%0");
        assert!(!f.opaque);
        let s = stmt(r#"asm("add.u32 %0, %1, %2;" : "=r"(x) : "r"(a), "r"(b))"#);
        let f = Flow::new(&s);
        assert_eq!(
            accesses(&f),
            vec![(0, Access::Write), (1, Access::Read), (2, Access::Read)]
        );
    }

    #[test]
    fn vectors_pairs_and_guards() {
        let s = stmt(r#"asm("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a))"#);
        let f = Flow::new(&s);
        assert_eq!(
            accesses(&f),
            vec![(0, Access::Write), (1, Access::Write), (2, Access::Read)]
        );
        let s = stmt(r#"asm("st.global.v2.u32 [%2], {%0, %1};" :: "r"(x), "r"(y), "l"(p))"#);
        let f = Flow::new(&s);
        assert!(f.uses.iter().all(|u| u.access == Access::Read));
        let s = stmt(
            r#"asm("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %1, 0, 31, -1; @q mov.u32 %0, 0; }" : "=r"(x) : "r"(a))"#,
        );
        let f = Flow::new(&s);
        assert_eq!(accesses(&f)[0], (0, Access::Write));
        let q = f.register_key("q").unwrap();
        assert_eq!(f.steps[0].writes_names, vec![RegKey::operand(0), q]);
        assert_eq!(f.register_key("p"), None);
        assert_eq!(
            f.steps[1].guard,
            Some(GuardKey {
                predicate: q,
                negated: false
            })
        );
    }

    #[test]
    fn packable_mov_writes_each_element() {
        let s = stmt(r#"asm("mov.b64 {%0, %1}, %2;" : "=r"(x), "=r"(y) : "l"(p))"#);
        let f = Flow::new(&s);
        assert_eq!(
            accesses(&f),
            vec![(0, Access::Write), (1, Access::Write), (2, Access::Read)]
        );
    }

    #[test]
    fn unknown_instructions_are_unknown() {
        let s = stmt(r#"asm("frobnicate.u32 %0, %1;" : "=r"(x) : "r"(a))"#);
        let f = Flow::new(&s);
        assert!(f.uses.iter().all(|u| u.access == Access::Unknown));
        assert!(f.uncertain(0) && f.uncertain(1));
        // Wrong operand count: not this form.
        let s = stmt(r#"asm("add.u32 %0, %1;" : "=r"(x) : "r"(a))"#);
        let f = Flow::new(&s);
        assert!(f.uses.iter().all(|u| u.access == Access::Unknown));
    }

    #[test]
    fn straight_line_must_write() {
        let s =
            stmt(r#"asm("{ mov.u32 %0, 1; add.u32 %1, %0, %2; }" : "=r"(x), "=r"(y) : "r"(a))"#);
        let f = Flow::new(&s);
        let cfg = f.cfg().unwrap();
        let m = f.must_write(&cfg);
        assert_eq!(m.written_before(0, 0), Some(false));
        assert_eq!(m.written_before(1, 0), Some(true));
        assert_eq!(m.written_before(1, 1), Some(false));
        assert_eq!(m.written_at_end(0), Some(true));
        assert_eq!(m.written_at_end(1), Some(true));
    }

    #[test]
    fn guarded_write_is_not_a_must_write() {
        let s = stmt(
            r#"asm("{ .reg .pred p; setp.eq.s32 p, %1, 34; @p mov.s32 %0, 1; }" : "=r"(x) : "r"(a))"#,
        );
        let f = Flow::new(&s);
        let m = f.must_write(&f.cfg().unwrap());
        assert_eq!(m.written_at_end(0), Some(false));
    }

    #[test]
    fn complementary_guards_make_a_must_write() {
        let s = stmt(
            r#"asm("{ .reg .pred p; setp.eq.s32 p, %1, 34; @p mov.s32 %0, 1; @!p mov.s32 %0, 0; }" : "=r"(x) : "r"(a))"#,
        );
        let f = Flow::new(&s);
        let m = f.must_write(&f.cfg().unwrap());
        assert_eq!(m.written_at_end(0), Some(true));
        // The predicate redefined in between: not complementary.
        let s = stmt(
            r#"asm("{ .reg .pred p; setp.eq.s32 p, %1, 34; @p mov.s32 %0, 1; setp.eq.s32 p, %1, 35; @!p mov.s32 %0, 0; }" : "=r"(x) : "r"(a))"#,
        );
        let f = Flow::new(&s);
        let m = f.must_write(&f.cfg().unwrap());
        assert_eq!(m.written_at_end(0), Some(false));
    }

    #[test]
    fn branches_and_labels() {
        // Skipped by a conditional branch.
        let s = stmt(
            r#"asm("{ .reg .pred p; setp.ne.s32 p, %1, 0; @p bra DONE_%=; mov.u32 %0, 1; DONE_%=: }" : "=r"(x) : "r"(a))"#,
        );
        let f = Flow::new(&s);
        let cfg = f.cfg().unwrap();
        assert_eq!(cfg.succ[1], vec![3, 2]);
        let m = f.must_write(&cfg);
        assert_eq!(m.written_at_end(0), Some(false));
        // If/else with an unconditional branch over the else part.
        let s = stmt(
            r#"asm("{ .reg .pred p; setp.ne.s32 p, %1, 0; @p bra ELSE; mov.u32 %0, 1; bra.uni END; ELSE: mov.u32 %0, 2; END: }" : "=r"(x) : "r"(a))"#,
        );
        let f = Flow::new(&s);
        let m = f.must_write(&f.cfg().unwrap());
        assert_eq!(m.written_at_end(0), Some(true));
        // A loop whose body always runs once.
        let s = stmt(
            r#"asm("{ .reg .pred p; LOOP: ld.volatile.global.u32 %0, [%1]; setp.eq.u32 p, %0, 0; @p bra LOOP; }" : "=r"(x) : "l"(p))"#,
        );
        let f = Flow::new(&s);
        let cfg = f.cfg().unwrap();
        let m = f.must_write(&cfg);
        assert_eq!(m.written_at_end(0), Some(true));
        assert_eq!(m.written_before(1, 0), Some(true));
        // The load runs again after it wrote %0.
        assert!(cfg.reachable_after(0)[0]);
    }

    #[test]
    fn exits_end_paths_and_unknown_targets_give_up() {
        let s = stmt(
            r#"asm("{ .reg .pred p; setp.ne.s32 p, %1, 0; @p exit; mov.u32 %0, 1; }" : "=r"(x) : "r"(a))"#,
        );
        let f = Flow::new(&s);
        let m = f.must_write(&f.cfg().unwrap());
        assert_eq!(m.written_at_end(0), Some(true));
        let s = stmt(r#"asm("bra ELSEWHERE;" : "=r"(x))"#);
        assert!(Flow::new(&s).cfg().is_none());
    }

    #[test]
    fn partial_templates_are_opaque() {
        let text = "__device__ void f(int a) { int x; asm(SOMETHING \"mov.u32 %0, %1;\" : \"=r\"(x) : \"r\"(a)); }\n";
        let file = SourceFile::new("t.cu", text);
        let all = find_asm_statements(&file);
        let f = Flow::new(&all[0]);
        assert!(f.opaque);
    }

    fn memory(asm: &str) -> MemoryUse {
        let s = stmt(asm);
        let f = Flow::new(&s);
        let mut m = MemoryUse::default();
        for i in 0..f.steps.len() {
            let u = f.memory_use(i);
            m.reads |= u.reads;
            m.writes |= u.writes;
            m.orders |= u.orders;
        }
        m
    }

    #[test]
    fn memory_uses() {
        let none = MemoryUse::default();
        let m = memory(r#"asm("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(a))"#);
        assert!(m.reads && !m.writes && !m.orders);
        let m = memory(r#"asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(a))"#);
        assert!(m.writes && !m.reads);
        let m = memory(r#"asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(x) : "l"(p))"#);
        assert!(m.writes && m.reads);
        assert!(memory(r#"asm volatile("bar.sync 0;")"#).orders);
        assert!(memory(r#"asm volatile("fence.acq_rel.gpu;")"#).orders);
        assert!(
            memory(r#"asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(x) : "l"(p))"#).orders
        );
        // Read-only memory.
        assert_eq!(
            memory(r#"asm("ld.global.nc.u32 %0, [%1];" : "=r"(x) : "l"(p))"#),
            none
        );
        assert_eq!(
            memory(r#"asm("ld.const.u32 %0, [%1];" : "=r"(x) : "l"(p))"#),
            none
        );
        // Hints and registers only.
        assert_eq!(
            memory(r#"asm volatile("prefetch.global.L2 [%0];" :: "l"(p))"#),
            none
        );
        assert_eq!(
            memory(r#"asm volatile("prefetchu.L1 [%0];" :: "l"(p))"#),
            none
        );
        assert_eq!(
            memory(
                r#"asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" :: "l"(p), "r"(a))"#
            ),
            none
        );
        assert_eq!(
            memory(r#"asm("add.u32 %0, %1, %2;" : "=r"(x) : "r"(a), "r"(b))"#),
            none
        );
        assert_eq!(
            memory(r#"asm("cvta.to.global.u64 %0, %1;" : "=l"(p) : "l"(p))"#),
            none
        );
        // Tensor memory is not C++ memory.
        assert_eq!(
            memory(
                r#"asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(x) : "r"(a))"#
            ),
            none
        );
        // A buffer the template declares.
        assert_eq!(
            memory(
                r#"asm volatile("{ .local .b32 buf; st.local.u32 [buf], %1; ld.local.u32 %0, [buf]; }" : "=r"(x) : "r"(a))"#
            ),
            none
        );
    }

    #[test]
    fn changing_registers() {
        let s = stmt(r#"asm("mov.u64 %0, %%clock64;" : "=l"(p))"#);
        let f = Flow::new(&s);
        let regs = f.changing_registers(0);
        assert_eq!(regs.len(), 1);
        assert_eq!(regs[0].0, "clock64");
        // A single `%` (nvcc passes it through when there are operands).
        let s = stmt(r#"asm("mov.u32 %0, %clock;" : "=r"(x))"#);
        assert_eq!(Flow::new(&s).changing_registers(0)[0].0, "clock");
        let s = stmt(r#"asm("mov.u32 %0, %%laneid;" : "=r"(x))"#);
        assert!(Flow::new(&s).changing_registers(0).is_empty());
    }

    #[test]
    fn placeholders_outside_instructions_are_stray() {
        let s = stmt(r#"asm("{ .reg .b32 r<%1>; mov.u32 %0, 1; }" : "=r"(x) : "n"(4))"#);
        let f = Flow::new(&s);
        assert!(f.uncertain(1));
        assert!(!f.uncertain(0));
    }
}
