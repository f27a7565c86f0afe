//! The address-width probe: one tiny kernel per address-taking instruction form, assembled by
//! ptxas with a 32-bit and with a 64-bit register as the address. The result, which widths
//! ptxas accepts for each (family, operand, state space), is committed as
//! `rules/data/address-width-probe.tsv` for the `address-register-width` rule.
//!
//! The forms are written here by hand (a valid instruction needs compatible modifiers and
//! operands, which the ISA table does not spell out); [`check_forms`] resolves every one with
//! the ISA table, and a test makes sure every family with an address operand has a form.

use ptxguard_analyzer::isa::{self, InstrForm, Role, StateSpace};
use ptxguard_analyzer::ptx::{self, PercentMode};

/// The operand under test: `@A`. Other addresses: `@O`, `@M` (64-bit registers).
pub const FORMS: &[(&str, &str)] = &[
    // ld / st / ldu / ld.global.nc
    ("ld.u32 %r1, [@A];", "sm_90"),
    ("ld.global.u32 %r1, [@A];", "sm_90"),
    ("ld.global.v2.u32 {%r1, %r2}, [@A];", "sm_90"),
    ("ld.volatile.global.u32 %r1, [@A];", "sm_90"),
    ("ld.acquire.gpu.global.u32 %r1, [@A];", "sm_90"),
    ("ld.relaxed.gpu.u32 %r1, [@A];", "sm_90"),
    ("ld.global.L2::cache_hint.u32 %r1, [@A], %rd13;", "sm_90"),
    ("ld.shared.u32 %r1, [@A];", "sm_90"),
    ("ld.shared::cta.u32 %r1, [@A];", "sm_90"),
    ("ld.shared::cluster.u32 %r1, [@A];", "sm_90"),
    ("ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [@A];", "sm_90"),
    ("ld.local.u32 %r1, [@A];", "sm_90"),
    ("ld.const.u32 %r1, [@A];", "sm_90"),
    ("ld.param.u32 %r1, [@A];", "sm_90"),
    ("ld.global.nc.u32 %r1, [@A];", "sm_90"),
    ("ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [@A];", "sm_90"),
    ("ldu.global.u32 %r1, [@A];", "sm_90"),
    ("ldu.u32 %r1, [@A];", "sm_90"),
    ("st.u32 [@A], %r1;", "sm_90"),
    ("st.global.u32 [@A], %r1;", "sm_90"),
    ("st.global.v2.u32 [@A], {%r1, %r2};", "sm_90"),
    ("st.release.gpu.global.u32 [@A], %r1;", "sm_90"),
    ("st.volatile.u32 [@A], %r1;", "sm_90"),
    ("st.shared.u32 [@A], %r1;", "sm_90"),
    ("st.shared::cta.u32 [@A], %r1;", "sm_90"),
    ("st.shared::cluster.u32 [@A], %r1;", "sm_90"),
    ("st.local.u32 [@A], %r1;", "sm_90"),
    // st.async / st.bulk
    (
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [@A], %r1, [@O];",
        "sm_90",
    ),
    (
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [@O], %r1, [@A];",
        "sm_90",
    ),
    ("st.bulk.weak.shared::cta [@A], %rd13, 0;", "sm_100a"),
    // multimem
    (
        "multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [@A];",
        "sm_90",
    ),
    ("multimem.st.relaxed.sys.global.u32 [@A], %r1;", "sm_90"),
    ("multimem.red.relaxed.sys.global.add.u32 [@A], %r1;", "sm_90"),
    ("multimem.ld_reduce.relaxed.sys.add.u32 %r1, [@A];", "sm_90"),
    ("multimem.st.relaxed.sys.u32 [@A], %r1;", "sm_90"),
    ("multimem.red.relaxed.sys.add.u32 [@A], %r1;", "sm_90"),
    // prefetch and cache control
    ("prefetch.L1 [@A];", "sm_90"),
    ("prefetch.global.L2 [@A];", "sm_90"),
    ("prefetch.global.L2::evict_last [@A];", "sm_90"),
    ("prefetch.local.L1 [@A];", "sm_90"),
    ("prefetch.tensormap [@A];", "sm_90"),
    ("prefetch.const.tensormap [@A];", "sm_90"),
    ("prefetchu.L1 [@A];", "sm_90"),
    ("applypriority.global.L2::evict_normal [@A], 128;", "sm_90"),
    ("discard.global.L2 [@A], 128;", "sm_90"),
    (
        "createpolicy.range.global.L2::evict_last.L2::evict_unchanged.b64 %rd1, [@A], %r1, %r2;",
        "sm_90",
    ),
    (
        "createpolicy.range.L2::evict_last.L2::evict_unchanged.b64 %rd1, [@A], %r1, %r2;",
        "sm_90",
    ),
    // cp.async
    ("cp.async.ca.shared.global [@A], [@O], 4;", "sm_90"),
    ("cp.async.ca.shared.global [@O], [@A], 4;", "sm_90"),
    ("cp.async.cg.shared.global [@A], [@O], 16;", "sm_90"),
    ("cp.async.cg.shared.global [@O], [@A], 16;", "sm_90"),
    ("cp.async.ca.shared::cta.global [@A], [@O], 8;", "sm_90"),
    // bulk copies
    (
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [@A], [@O], 16, [@M];",
        "sm_90",
    ),
    (
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [@O], [@A], 16, [@M];",
        "sm_90",
    ),
    (
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [@O], [@M], 16, [@A];",
        "sm_90",
    ),
    (
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [@A], [@O], 16, [@M];",
        "sm_90",
    ),
    (
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [@O], [@A], 16, [@M];",
        "sm_90",
    ),
    ("cp.async.bulk.global.shared::cta.bulk_group [@A], [@O], 16;", "sm_90"),
    ("cp.async.bulk.global.shared::cta.bulk_group [@O], [@A], 16;", "sm_90"),
    (
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [@A], [@O], 16;",
        "sm_90",
    ),
    (
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [@O], [@A], 16;",
        "sm_90",
    ),
    (
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [@A], [@O], 16, [@M];",
        "sm_90",
    ),
    ("cp.async.bulk.prefetch.L2.global [@A], 16;", "sm_90"),
    // tensor copies: the tensor map is a generic 64-bit address
    (
        "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [@O], [@A, {%r1}], [@M];",
        "sm_90",
    ),
    (
        "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [@A], [@O, {%r1}], [@M];",
        "sm_90",
    ),
    (
        "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [@O], [@M, {%r1}], [@A];",
        "sm_90",
    ),
    (
        "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [@A, {%r1}], [@O];",
        "sm_90",
    ),
    (
        "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [@O, {%r1}], [@A];",
        "sm_90",
    ),
    (
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [@A, {%r1}], [@O];",
        "sm_90",
    ),
    (
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [@O, {%r1}], [@A];",
        "sm_90",
    ),
    (
        "cp.async.bulk.prefetch.tensor.1d.L2.global.tile [@A, {%r1}];",
        "sm_90",
    ),
    // tensormap
    (
        "tensormap.replace.tile.global_address.global.b1024.b64 [@A], %rd13;",
        "sm_90a",
    ),
    (
        "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [@A], %rd13;",
        "sm_90a",
    ),
    (
        "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [@A], [@O], 128;",
        "sm_90",
    ),
    (
        "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [@O], [@A], 128;",
        "sm_90",
    ),
    ("fence.proxy.tensormap::generic.acquire.gpu [@A], 128;", "sm_90"),
    // atomics and reductions
    ("atom.add.u32 %r1, [@A], %r2;", "sm_90"),
    ("atom.global.add.u32 %r1, [@A], %r2;", "sm_90"),
    ("atom.global.cas.b32 %r1, [@A], %r2, %r3;", "sm_90"),
    ("atom.global.add.u64 %rd1, [@A], %rd2;", "sm_90"),
    ("atom.acq_rel.gpu.global.exch.b32 %r1, [@A], %r2;", "sm_90"),
    ("atom.shared.add.u32 %r1, [@A], %r2;", "sm_90"),
    ("atom.shared::cta.add.u32 %r1, [@A], %r2;", "sm_90"),
    ("atom.shared::cluster.add.u32 %r1, [@A], %r2;", "sm_90"),
    ("red.add.u32 [@A], %r1;", "sm_90"),
    ("red.global.add.u32 [@A], %r1;", "sm_90"),
    ("red.shared.add.u32 [@A], %r1;", "sm_90"),
    ("red.shared::cluster.add.u32 [@A], %r1;", "sm_90"),
    (
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [@A], %r1, [@O];",
        "sm_90",
    ),
    (
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [@O], %r1, [@A];",
        "sm_90",
    ),
    // mbarrier
    ("mbarrier.init.b64 [@A], %r1;", "sm_90"),
    ("mbarrier.init.shared.b64 [@A], %r1;", "sm_90"),
    ("mbarrier.init.shared::cta.b64 [@A], %r1;", "sm_90"),
    ("mbarrier.inval.b64 [@A];", "sm_90"),
    ("mbarrier.inval.shared.b64 [@A];", "sm_90"),
    ("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [@A], %r1;", "sm_90"),
    (
        "mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [@A], %r1;",
        "sm_90",
    ),
    ("mbarrier.expect_tx.relaxed.cta.b64 [@A], %r1;", "sm_90"),
    ("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [@A], %r1;", "sm_90"),
    ("mbarrier.complete_tx.relaxed.cta.b64 [@A], %r1;", "sm_90"),
    ("mbarrier.arrive.b64 %rd1, [@A];", "sm_90"),
    ("mbarrier.arrive.shared.b64 %rd1, [@A];", "sm_90"),
    ("mbarrier.arrive.shared::cta.b64 %rd1, [@A];", "sm_90"),
    (
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [@A];",
        "sm_90",
    ),
    (
        "mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [@A], %r1;",
        "sm_90",
    ),
    ("mbarrier.arrive.expect_tx.b64 %rd1, [@A], %r1;", "sm_90"),
    ("mbarrier.arrive_drop.b64 %rd1, [@A];", "sm_90"),
    ("mbarrier.arrive_drop.shared.b64 %rd1, [@A];", "sm_90"),
    ("cp.async.mbarrier.arrive.b64 [@A];", "sm_90"),
    ("cp.async.mbarrier.arrive.shared.b64 [@A];", "sm_90"),
    ("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [@A];", "sm_90"),
    ("mbarrier.test_wait.b64 %p1, [@A], %rd1;", "sm_90"),
    ("mbarrier.test_wait.shared.b64 %p1, [@A], %rd1;", "sm_90"),
    (
        "mbarrier.test_wait.parity.shared::cta.b64 %p1, [@A], %r1;",
        "sm_90",
    ),
    ("mbarrier.try_wait.b64 %p1, [@A], %rd1;", "sm_90"),
    ("mbarrier.try_wait.shared::cta.b64 %p1, [@A], %rd1;", "sm_90"),
    (
        "mbarrier.try_wait.parity.shared::cta.b64 %p1, [@A], %r1;",
        "sm_90",
    ),
    (
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [@A], %r1;",
        "sm_90",
    ),
    // cluster launch control
    (
        "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [@A], [@O];",
        "sm_100a",
    ),
    (
        "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [@O], [@A];",
        "sm_100a",
    ),
    // the same without a state space: generic addresses for both operands (PTX ISA 9.0)
    (
        "clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.b128 [@A], [@O];",
        "sm_100a",
    ),
    (
        "clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.b128 [@O], [@A];",
        "sm_100a",
    ),
    (
        "clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [@A], [@O];",
        "sm_100a",
    ),
    (
        "clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [@O], [@A];",
        "sm_100a",
    ),
    // matrix loads and stores
    (
        "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [@A];",
        "sm_90",
    ),
    (
        "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [@A];",
        "sm_90",
    ),
    (
        "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [@A];",
        "sm_90",
    ),
    (
        "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [@A], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};",
        "sm_90",
    ),
    (
        "wmma.store.d.sync.aligned.row.m16n16k16.f32 [@A], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};",
        "sm_90",
    ),
    ("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [@A];", "sm_90"),
    ("ldmatrix.sync.aligned.m8n8.x1.b16 {%r1}, [@A];", "sm_90"),
    ("stmatrix.sync.aligned.m8n8.x1.shared.b16 [@A], {%r1};", "sm_90"),
    ("stmatrix.sync.aligned.m8n8.x1.b16 [@A], {%r1};", "sm_90"),
    // tensor memory (sm_100a)
    (
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [@A], 32;",
        "sm_100a",
    ),
    ("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [@A];", "sm_100a"),
    (
        "tcgen05.alloc.cta_group::1.sync.aligned.b32 [@A], 32;",
        "sm_100a",
    ),
    (
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [@A];",
        "sm_100a",
    ),
    ("st.bulk.weak [@A], %rd13, 0;", "sm_100a"),
    ("tcgen05.st.sync.aligned.32x32b.x1.b32 [@A], {%r1};", "sm_100a"),
    ("tcgen05.cp.cta_group::1.128x256b [@A], %rd13;", "sm_100a"),
    ("tcgen05.shift.cta_group::1.down [@A];", "sm_100a"),
    (
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [@A];",
        "sm_100a",
    ),
    (
        "tcgen05.mma.cta_group::1.kind::f16 [@A], %rd13, %rd14, %r1, %p1;",
        "sm_100a",
    ),
    (
        "tcgen05.mma.cta_group::1.kind::f16 [%r11], [@A], %rd14, %r1, %p1;",
        "sm_100a",
    ),
    (
        "tcgen05.mma.sp.cta_group::1.kind::f16 [@A], %rd13, %rd14, [%r11], %r1, %p1;",
        "sm_100a",
    ),
    (
        "tcgen05.mma.sp.cta_group::1.kind::f16 [%r11], %rd13, %rd14, [@A], %r1, %p1;",
        "sm_100a",
    ),
    (
        "tcgen05.mma.ws.cta_group::1.kind::f16 [@A], %rd13, %rd14, %r1, %p1;",
        "sm_100a",
    ),
    (
        "tcgen05.mma.ws.sp.cta_group::1.kind::f16 [@A], %rd13, %rd14, [%r11], %r1, %p1;",
        "sm_100a",
    ),
];

/// Families with address operands the probe leaves out, and why.
pub const NOT_PROBED: &[(&str, &str)] = &[
    (
        "tex",
        "the address is a texture handle, not a memory address",
    ),
    (
        "tld4",
        "the address is a texture handle, not a memory address",
    ),
    (
        "txq",
        "the address is a texture handle, not a memory address",
    ),
    (
        "suld",
        "the address is a surface handle, not a memory address",
    ),
    (
        "sust",
        "the address is a surface handle, not a memory address",
    ),
    (
        "sured",
        "the address is a surface handle, not a memory address",
    ),
    (
        "suq",
        "the address is a surface handle, not a memory address",
    ),
];

/// The 32-bit register the probe puts in place of `@A`.
pub const REG32: &str = "%r10";
/// The 64-bit register the probe puts in place of `@A`.
pub const REG64: &str = "%rd10";

/// One probe form, checked against the ISA table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The instruction with `@A` (and `@O`, `@M`).
    pub template: &'static str,
    pub arch: &'static str,
    /// The ISA family.
    pub family: &'static str,
    /// The dotted opcode.
    pub opcode: String,
    /// The ISA's name for the operand under test (`[a]`, `[mbar]`, `[dstMem]`).
    pub operand: &'static str,
    /// Position of the operand under test (0-based).
    pub position: usize,
    /// State space of the operand under test.
    pub space: StateSpace,
}

/// The operands of an instruction, split on commas outside `[]` and `{}`.
pub fn split_operands(rest: &str) -> Vec<&str> {
    let rest = rest.trim().trim_end_matches(';').trim();
    if rest.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in rest.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(rest[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(rest[start..].trim());
    out
}

fn dotted_parts(opcode: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, c) in opcode.char_indices() {
        if c == '.' && i > 0 {
            parts.push(&opcode[start..i]);
            start = i;
        }
    }
    parts.push(&opcode[start..]);
    parts
}

/// Resolves every form with the ISA table: its family, and the operand under test must be an
/// address.
pub fn check_forms() -> Result<Vec<Form>, String> {
    let mut out = Vec::new();
    for &(template, arch) in FORMS {
        let (opcode, rest) = template
            .split_once(char::is_whitespace)
            .ok_or_else(|| format!("`{template}`: no operands"))?;
        let ops = split_operands(rest);
        let position = ops
            .iter()
            .position(|o| o.contains("@A"))
            .ok_or_else(|| format!("`{template}`: no @A"))?;
        let parts = dotted_parts(opcode);
        let form = isa::resolve_with_count(&parts, ops.len())
            .ok_or_else(|| format!("`{template}`: the ISA table does not know `{opcode}`"))?;
        let info = form
            .operand_for(position, ops.len())
            .ok_or_else(|| format!("`{template}`: the ISA table has no operand {position}"))?;
        let (name, role, space) = match (info.role, info.alt) {
            (Role::Addr, _) => (info.name, info.role, info.space),
            (_, Some(alt)) if alt.role == Role::Addr => (alt.name, alt.role, alt.space),
            _ => (info.name, info.role, info.space),
        };
        if role != Role::Addr {
            return Err(format!(
                "`{template}`: operand {position} is `{name}`, not an address, in the ISA table"
            ));
        }
        out.push(Form {
            template,
            arch,
            family: form.family.name,
            opcode: opcode.to_string(),
            operand: name,
            position,
            space: space.unwrap_or(StateSpace::Generic),
        });
    }
    Ok(out)
}

/// The instruction with `@A` as `reg` and the other addresses as 64-bit registers.
pub fn instantiate(template: &str, reg: &str) -> String {
    template
        .replace("@A", reg)
        .replace("@O", "%rd11")
        .replace("@M", "%rd12")
}

/// A whole PTX module around one instruction.
pub fn kernel(instruction: &str, arch: &str) -> String {
    format!(
        "//\n// ptxguard address-width probe\n//\n\
.version 9.0\n.target {arch}\n.address_size 64\n\n\
.visible .entry probe(\n\t.param .u64 probe_param_0\n)\n{{\n\
\t.reg .pred %p<4>;\n\t.reg .b16 %h<4>;\n\t.reg .b32 %r<16>;\n\t.reg .f32 %f<16>;\n\
\t.reg .b64 %rd<16>;\n\t.reg .f64 %fd<16>;\n\t.reg .b128 %q<2>;\n\n\
\tld.param.u64 %rd10, [probe_param_0];\n\
\tcvt.u32.u64 %r10, %rd10;\n\
\tadd.s64 %rd11, %rd10, 64;\n\
\tadd.s64 %rd12, %rd10, 128;\n\
\tmov.u32 %r1, 1;\n\tmov.u32 %r2, 2;\n\tmov.u32 %r3, 3;\n\
\tmov.u64 %rd13, 0;\n\tmov.u64 %rd14, 0;\n\tsetp.ne.u32 %p1, %r1, 0;\n\
\t{instruction}\n\
\tret;\n}}\n"
    )
}

/// How ptxas took one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    /// Accepted with a warning.
    Warning(String),
    Error(String),
}

impl Verdict {
    pub fn key(&self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Warning(_) => "warning",
            Verdict::Error(_) => "error",
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Verdict::Ok => "",
            Verdict::Warning(m) | Verdict::Error(m) => m,
        }
    }

    /// From ptxas's exit status and output.
    pub fn from_ptxas(success: bool, output: &str) -> Verdict {
        let msgs = ptxguard_toolchain::parse_messages(output);
        let first_error = msgs
            .iter()
            .find(|m| m.is_error() && !m.is_summary())
            .or_else(|| msgs.iter().find(|m| m.is_error()));
        let first_warning = msgs
            .iter()
            .find(|m| m.level == ptxguard_toolchain::Level::Warning);
        let clean = |s: &str| s.replace(['\t', '\n'], " ");
        if !success {
            let text = first_error
                .map(|m| m.text.clone())
                .unwrap_or_else(|| output.lines().next().unwrap_or("failed").to_string());
            let warn = first_warning
                .map(|w| format!(" (after warning: {})", w.text))
                .unwrap_or_default();
            return Verdict::Error(clean(&format!("{text}{warn}")));
        }
        match first_warning {
            Some(w) => Verdict::Warning(clean(&w.text)),
            None => Verdict::Ok,
        }
    }
}

/// One line of the table.
#[derive(Clone, Debug)]
pub struct Row {
    pub form: Form,
    pub r32: Verdict,
    pub r64: Verdict,
}

pub const TSV_COLUMNS: &str =
    "family\toperand\tspace\topcode\tarch\taddr32\taddr64\tinstruction\tptxas32\tptxas64";

/// The committed table.
pub fn render_tsv(rows: &[Row], ptxas_version: &str, date: &str) -> String {
    let mut s = String::new();
    s.push_str("# Which address register widths ptxas accepts, per instruction form (address-width probe).\n");
    s.push_str(&format!(
        "# Generated by `gpu-tests probe` with ptxas {ptxas_version} on {date}; do not edit by hand.\n"
    ));
    s.push_str(
        "# Each row: one kernel (.address_size 64) assembled twice with `ptxas -arch=ARCH`, the\n",
    );
    s.push_str("# operand under test given as a 32-bit register (%r10, a .b32) and as a 64-bit one (%rd10).\n");
    s.push_str("# family/operand/space: as ptxguard_analyzer::isa resolves the opcode (operand = the ISA's\n");
    s.push_str("# name of the address operand, space = generic|global|shared::cta|shared::cluster|const|local|param|tmem).\n");
    s.push_str(
        "# addr32/addr64: ok (accepted), warning (accepted with a warning), error (rejected).\n",
    );
    s.push_str(
        "# Tensor memory (tmem) addresses are 32-bit: there addr64 is an error and addr32 ok.\n",
    );
    s.push_str("# A row where both are errors is a probe that is itself wrong: do not read it.\n");
    s.push_str(TSV_COLUMNS);
    s.push('\n');
    for r in rows {
        let show = instantiate(r.form.template, "ADDR");
        s.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            r.form.family,
            r.form.operand,
            r.form.space.key(),
            r.form.opcode,
            r.form.arch,
            r.r32.key(),
            r.r64.key(),
            show,
            r.r32.message(),
            r.r64.message()
        ));
    }
    s
}

/// Assembles every form twice with `ptxas` (in parallel) and returns the rows.
pub fn run_probe(
    ptxas: &std::path::Path,
    dir: &std::path::Path,
    jobs: usize,
) -> Result<Vec<Row>, String> {
    let forms = check_forms()?;
    let mut work = Vec::new();
    for i in 0..forms.len() {
        for (w, reg) in [(32, REG32), (64, REG64)] {
            work.push((i, w, reg));
        }
    }
    let results = crate::util::parallel_map(&work, jobs, |&(i, w, reg)| {
        let f = &forms[i];
        let ptx = dir.join(format!("probe{i}_{w}.ptx"));
        let cubin = dir.join(format!("probe{i}_{w}.cubin"));
        if let Err(e) = std::fs::write(&ptx, kernel(&instantiate(f.template, reg), f.arch)) {
            return Verdict::Error(format!("harness: cannot write {}: {e}", ptx.display()));
        }
        let mut cmd = std::process::Command::new(ptxas);
        cmd.arg(format!("-arch={}", f.arch))
            .arg(&ptx)
            .arg("-o")
            .arg(&cubin);
        match crate::util::run_with_limit(cmd, std::time::Duration::from_secs(60)) {
            Ok(o) => Verdict::from_ptxas(o.success, &o.text),
            Err(e) => Verdict::Error(format!("harness: cannot run ptxas: {e}")),
        }
    });
    let mut rows = Vec::new();
    for (i, f) in forms.into_iter().enumerate() {
        rows.push(Row {
            form: f,
            r32: results[2 * i].clone(),
            r64: results[2 * i + 1].clone(),
        });
    }
    Ok(rows)
}

/// Forms for the SM probe beyond [`FORMS`], written with the probe kernel's registers: for
/// every target requirement of the ISA table above the oldest target nvcc 13 compiles for
/// (`isa::target_requirements`: a family's minimum SM, arch-specific targets or removal, and
/// each conditional requirement, a `cvt` type pair, `.bf16` on `add`, a `::cluster` scope...),
/// a form where that requirement decides the targets, so that each claim `arch-requirement`
/// can make is measured on a form it is the reason for (`every_target_requirement_is_probed`).
pub const SM_FORMS: &[&str] = &[
    // Arithmetic on newer types and modifiers.
    "add.rn.bf16 %h1, %h2, %h3;",
    "add.u16x2 %r1, %r2, %r3;",
    "add.rn.f32x2 %rd1, %rd2, %rd3;",
    "sub.rn.bf16x2 %r1, %r2, %r3;",
    "mul.rn.bf16 %h1, %h2, %h3;",
    "abs.bf16 %h1, %h2;",
    "neg.bf16x2 %r1, %r2;",
    "min.NaN.f32 %f1, %f2, %f3;",
    "min.xorsign.abs.f16 %h1, %h2, %h3;",
    "max.relu.s16x2 %r1, %r2, %r3;",
    "max.f32 %f1, %f2, %f3, %f4;",
    "fma.rn.relu.f16 %h1, %h2, %h3, %h1;",
    "fma.rn.bf16 %h1, %h2, %h3, %h1;",
    "fma.rn.f32x2 %rd1, %rd2, %rd3, %rd4;",
    "ex2.approx.ftz.bf16 %h1, %h2;",
    "tanh.approx.f32 %f1, %f2;",
    "tanh.approx.bf16 %h1, %h2;",
    "setp.gt.bf16 %p2, %h1, %h2;",
    "set.gt.u32.bf16 %r1, %h1, %h2;",
    // Conversions.
    "cvt.rn.bf16.f32 %h1, %f1;",
    "cvt.rn.relu.f16.f32 %h1, %f1;",
    "cvt.rna.tf32.f32 %r1, %f1;",
    "cvt.rn.f16x2.f32 %r1, %f1, %f2;",
    "cvt.f32.bf16 %f1, %h1;",
    "cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;",
    // Addresses and clusters.
    "isspacep.shared::cluster %p2, %rd10;",
    "cvta.shared::cluster.u64 %rd1, %rd10;",
    "mapa.u64 %rd1, %rd10, %r1;",
    "getctarank.u64 %r4, %rd10;",
    "barrier.cluster.arrive;",
    "barrier.cluster.wait;",
    "barrier.cluster.arrive.release;",
    // Asynchronous copies: groups.
    "cp.async.commit_group;",
    "cp.async.wait_group 0;",
    "cp.async.wait_all;",
    "cp.async.bulk.commit_group;",
    "cp.async.bulk.wait_group 0;",
    "cp.async.bulk.prefetch.L2.global [%rd10], 128;",
    // Fences, votes, shuffles, reductions, launch control.
    "fence.sc.gpu;",
    "fence.acq_rel.cluster;",
    "fence.proxy.async;",
    "fence.mbarrier_init.release.cluster;",
    "vote.all.pred %p2, %p1;",
    "shfl.down.b32 %r4, %r1, 1, 0x1f;",
    "redux.sync.add.u32 %r4, %r1, 0xffffffff;",
    "redux.sync.max.f32 %f4, %f1, 0xffffffff;",
    "griddepcontrol.wait;",
    "griddepcontrol.launch_dependents;",
    "elect.sync %r4|%p2, 0xffffffff;",
    "mbarrier.pending_count.b64 %r4, %rd13;",
    "setmaxnreg.inc.sync.aligned.u32 240;",
    // Matrix instructions.
    "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15};",
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5}, {%f4, %f5, %f6, %f7};",
    "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2}, {%f4, %f5, %f6, %f7};",
    "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5}, {%f4, %f5, %f6, %f7};",
    "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%f4, %f5, %f6, %f7}, %r8, 0x0;",
    "wgmma.fence.sync.aligned;",
    "wgmma.commit_group.sync.aligned;",
    "wgmma.wait_group.sync.aligned 0;",
    "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd10, %rd11, %p1, 1, 1, 0, 0;",
    "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd10, %rd11, %r1, 0, %p1, 1, 1, 0, 0;",
    "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p2, %q1;",
    "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;",
    "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
    "tcgen05.wait::ld.sync.aligned;",
    "tcgen05.fence::before_thread_sync;",
    // One form per conditional requirement: each decides its form's target (the test
    // `every_target_requirement_is_probed`). Arithmetic:
    "add.rn.f32.f16 %f1, %h1, %f2;",
    "sub.rn.f32x2 %rd1, %rd2, %rd3;",
    "sub.rn.f32.bf16 %f1, %h1, %f2;",
    "mul.rn.f32x2 %rd1, %rd2, %rd3;",
    "min.u16x2 %r1, %r2, %r3;",
    "min.f32 %f1, %f2, %f3, %f4;",
    "min.f16 %h1, %h2, %h3;",
    "max.NaN.f32 %f1, %f2, %f3;",
    "max.bf16 %h1, %h2, %h3;",
    "max.xorsign.abs.f16 %h1, %h2, %h3;",
    "fma.rn.oob.f16 %h1, %h2, %h3, %h0;",
    "fma.rn.f32.f16 %f1, %h1, %h2, %f2;",
    // Loads and stores.
    "ld.relaxed.cluster.global.u32 %r1, [%rd10];",
    // ptxas 13.0 takes `.L2::evict_*` only on 256-bit accesses (`.v8.b32`/`.v4.b64`).
    "ld.global.L2::evict_last.v8.b32 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd10];",
    "ld.global.v8.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd10];",
    "ld.global.v4.u64 {%rd0, %rd1, %rd2, %rd3}, [%rd10];",
    "ld.global.nc.L2::256B.u32 %r1, [%rd10];",
    "ld.global.nc.L2::evict_last.v8.b32 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd10];",
    "ld.global.nc.v8.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd10];",
    "ld.global.nc.v4.u64 {%rd0, %rd1, %rd2, %rd3}, [%rd10];",
    "st.relaxed.cluster.global.u32 [%rd10], %r1;",
    "st.global.L2::cache_hint.u32 [%rd10], %r1, %rd13;",
    "st.global.L2::evict_last.v8.b32 [%rd10], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};",
    "st.global.v8.f32 [%rd10], {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};",
    "st.global.v4.u64 [%rd10], {%rd0, %rd1, %rd2, %rd3};",
    "st.async.release.gpu.global.u32 [%rd10], %r1;",
    "multimem.ld_reduce.relaxed.sys.global.add.acc::f32.f16x2 %r1, [%rd10];",
    "multimem.ld_reduce.relaxed.sys.global.add.acc::f16.e5m2x4 %r1, [%rd10];",
    "multimem.st.relaxed.sys.global.e5m2x4 [%rd10], %r1;",
    // Conversions.
    "cvt.rn.bf16.f16 %h1, %h2;",
    "cvt.ftz.f32.bf16 %f1, %h1;",
    "cvt.rn.satfinite.f16x2.f32 %r1, %f1, %f2;",
    "cvt.rn.satfinite.tf32.f32 %r1, %f1;",
    "cvt.rn.satfinite.e2m3x2.f32 %h1, %f1, %f2;",
    "cvt.rs.f16x2.f32 %r1, %f1, %f2, %r3;",
    // Asynchronous copies.
    "cp.async.cg.shared.global.L2::128B [%rd10], [%rd11], 16;",
    "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd10], [%rd11], 16, [%rd12];",
    "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd10], [%rd11], 16, %h1;",
    "cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd10], [%rd11, {%r1}], [%rd12];",
    "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes [%rd10], [%rd11, {%r1, %r2, %r3, %r4, %r5}], [%rd12];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [%rd10], [%rd11, {%r1, %r2, %r3, %r4, %r5}], [%rd12];",
    "cp.async.bulk.tensor.3d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes [%rd10], [%rd11, {%r1, %r2, %r3}], [%rd12], {%h1, %h2};",
    "cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes [%rd10], [%rd11, {%r1, %r2, %r3}], [%rd12], {%h1, %h2};",
    "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::1 [%rd10], [%rd11, {%r1}], [%rd12];",
    "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [%rd10, {%r1, %r2, %r3, %r4, %r5}];",
    "tensormap.replace.tile.swizzle_atomicity.global.b1024.b32 [%rd10], 1;",
    // Fences, atomics, reductions.
    "fence.acquire.sync_restrict::shared::cluster.cluster;",
    "atom.global.add.L2::cache_hint.u32 %r1, [%rd10], %r2, %rd13;",
    "atom.global.add.noftz.bf16 %h1, [%rd10], %h2;",
    "atom.relaxed.cluster.global.add.u32 %r1, [%rd10], %r2;",
    "atom.global.add.v2.f32 {%f1, %f2}, [%rd10], {%f3, %f4};",
    "atom.global.exch.b128 %q0, [%rd10], %q1;",
    "atom.relaxed.sys.global.exch.b128 %q0, [%rd10], %q1;",
    "red.global.add.L2::cache_hint.u32 [%rd10], %r1, %rd13;",
    "red.global.add.noftz.bf16 [%rd10], %h1;",
    "red.relaxed.cluster.global.add.u32 [%rd10], %r1;",
    "red.global.add.v2.f32 [%rd10], {%f1, %f2};",
    "red.async.release.gpu.global.add.u32 [%rd10], %r1;",
    // mbarrier.
    "mbarrier.inval.shared::cta.b64 [%rd10];",
    "mbarrier.arrive.shared.b64 %rd1, [%rd10], %r1;",
    "mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [%rd10];",
    "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [%rd10];",
    "mbarrier.arrive_drop.shared::cta.b64 %rd1, [%rd10];",
    "mbarrier.arrive_drop.shared.b64 %rd1, [%rd10], %r1;",
    "mbarrier.arrive_drop.expect_tx.shared::cta.b64 %rd1, [%rd10], %r1;",
    "mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [%rd10];",
    "mbarrier.arrive_drop.release.cta.shared::cta.b64 %rd1, [%rd10];",
    "mbarrier.arrive_drop.relaxed.cta.shared::cta.b64 %rd1, [%rd10];",
    "mbarrier.test_wait.acquire.cta.shared::cta.b64 %p2, [%rd10], %rd1;",
    "mbarrier.test_wait.acquire.cluster.shared::cta.b64 %p2, [%rd10], %rd1;",
    "mbarrier.test_wait.relaxed.cta.shared::cta.b64 %p2, [%rd10], %rd1;",
    "mbarrier.try_wait.relaxed.cta.shared::cta.b64 %p2, [%rd10], %rd1;",
    // Matrix instructions.
    "wmma.load.a.sync.aligned.row.m16n16k16.global.bf16 {%r0, %r1, %r2, %r3}, [%rd10];",
    "wmma.store.d.sync.aligned.row.m8n8k4.global.f64 [%rd10], {%fd0, %fd1};",
    "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64 {%fd0, %fd1}, {%fd2}, {%fd3}, {%fd4, %fd5};",
    "wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r0, %r1}, {%r2}, {%r3}, {%r4, %r5};",
    "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd0, %fd1}, {%fd2}, {%fd3}, {%fd4, %fd5};",
    "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc {%r0, %r1}, {%r2}, {%r3}, {%r4, %r5};",
    "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%fd0, %fd1, %fd2, %fd3}, {%fd4, %fd5}, {%fd6}, {%fd7, %fd8, %fd9, %fd10};",
    "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2}, {%f4, %f5, %f6, %f7};",
    "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e3m2.e2m1.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5}, {%f4, %f5, %f6, %f7};",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%f4, %f5, %f6, %f7}, %r8, 0x0;",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%f4, %f5, %f6, %f7}, %r8, 0x0;",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f16.e4m3.e4m3.f16 {%r0, %r1}, {%r2, %r3, %r4, %r5}, {%r6, %r7, %r8, %r9}, {%r10, %r11}, %r12, 0x0;",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e3m2.e2m1.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%f4, %f5, %f6, %f7}, %r8, 0x0;",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r4, %r5, %r6, %r7}, {%f4, %f5, %f6, %f7}, %r8, 0x0, %r9, {0, 0}, %r10, {0, 0};",
    "ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b4x16_p64 {%r1}, [%rd10];",
    "stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%rd10], {%r1};",
    "wgmma.mma_async.sync.aligned.m64n8k32.s32.u8.s8 {%r0, %r1, %r2, %r3}, %rd10, %rd11, %p1;",
    "wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.u8.s8 {%r0, %r1, %r2, %r3}, %rd10, %rd11, %r4, 0, %p1;",
    // Tensor memory and tcgen05.mma kinds.
    "tcgen05.ld.red.sync.aligned.32x32b.x2.min.f32 {%f1, %f2}, %f3, [%r11];",
    "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16 [%r11], %rd13, %rd14, %r1, [%r12], [%r13], %p1;",
    "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32 [%r11], %rd13, %rd14, %r1, [%r12], [%r13], %p1;",
    "tcgen05.mma.cta_group::1.kind::i8 [%r11], %rd13, %rd14, %r1, %p1;",
    "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%r11], %rd13, %rd14, %r1, [%r12], [%r13], %p1;",
    "tcgen05.mma.cta_group::1.kind::f16 [%r11], %rd13, %rd14, %r1, {%r2, %r3, %r4, %r5}, %p1, 1;",
    "tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale.block32 [%r11], %rd13, %rd14, [%r12], %r1, [%r13], [%r14], %p1;",
    "tcgen05.mma.sp.cta_group::1.kind::i8 [%r11], %rd13, %rd14, [%r12], %r1, %p1;",
    "tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%r11], %rd13, %rd14, [%r12], %r1, [%r13], [%r14], %p1;",
    "tcgen05.mma.sp.cta_group::1.kind::mxf4.block_scale.block32 [%r11], %rd13, %rd14, [%r12], %r1, [%r13], [%r14], %p1;",
    "tcgen05.mma.ws.cta_group::1.kind::i8 [%r11], %rd13, %rd14, %r1, %p1;",
    "tcgen05.mma.ws.sp.cta_group::1.kind::i8 [%r11], %rd13, %rd14, [%r12], %r1, %p1;",
];

/// The line of the SM table that names a requirement left out ([`SM_NOT_PROBED`]), for the
/// rules crate's test of the table.
pub const NOT_PROBED_MARK: &str = "# not probed";

/// Requirements of the ISA table that no form of [`FORMS`] or [`SM_FORMS`] measures, and
/// why: `(family, condition as `{:?}` writes it, reason)`. Kept as small as possible.
pub const SM_NOT_PROBED: &[(&str, &str, &str)] = &[
    (
        "ld.global.nc",
        "Has(\".cluster\")",
        "ld.global.nc takes no scope (the requirements are ld's and st's, shared)",
    ),
    (
        "ld.global.nc",
        "Has(\".shared::cluster\")",
        "ld.global.nc reads .global only (the requirements are ld's and st's, shared)",
    ),
    (
        "red",
        "Has(\".b128\")",
        "red has no .b128 type, only atom's .exch and .cas (the requirements are atom's, shared)",
    ),
    (
        "red",
        "All([Has(\".b128\"), Has(\".sys\")])",
        "red has no .b128 type, only atom's .exch and .cas (the requirements are atom's, shared)",
    ),
    (
        "cp.async.bulk",
        "Has(\".ignore_oob\")",
        "PTX ISA 9.2: the probe's ptxas 13.0 (PTX ISA 9.0) does not know it",
    ),
    (
        "cvt",
        "Has(\".scaled::n2::ue8m0\")",
        "PTX ISA 9.2: the probe's ptxas 13.0 (PTX ISA 9.0) does not know it",
    ),
    (
        "tcgen05.mma.sp",
        "Has(\".kind::mxf4nvf4\")",
        "every .kind::mxf4nvf4 form of tcgen05.mma.sp is also bound by the arch-specific \
         .kind::mxf4/.kind::mxf4nvf4 requirement, which decides its targets",
    ),
];

/// The ISA form `arch-requirement` reads for one probe instruction: parsed by the PTX parser
/// and resolved by `Instruction::known_form`, as the rule does.
pub fn rule_form(instruction: &str) -> Result<(String, InstrForm), String> {
    let ptx = ptx::parse(instruction, PercentMode::Verbatim);
    let mut found = ptx.instructions().map(|(_, i)| i);
    match (found.next(), found.next()) {
        (Some(i), None) => i
            .known_form()
            .map(|f| (i.opcode.clone(), f.clone()))
            .ok_or_else(|| {
                format!(
                    "`{instruction}`: the ISA table does not know `{}` with {} operands",
                    i.opcode,
                    i.operands.len()
                )
            }),
        _ => Err(format!("`{instruction}`: not one instruction")),
    }
}

/// One form of the SM probe.
#[derive(Clone, Debug)]
pub struct SmForm {
    /// The instruction as assembled.
    pub instruction: String,
    /// The dotted opcode.
    pub opcode: String,
    /// The ISA form `arch-requirement` reads for it ([`rule_form`]).
    pub form: InstrForm,
}

/// Every form of the SM probe: the address forms of [`FORMS`] (64-bit addresses; tensor
/// memory addresses are 32 bits wide, ptxas rejects a 64-bit one on every target), then
/// [`SM_FORMS`].
pub fn sm_probe_forms() -> Result<Vec<SmForm>, String> {
    let mut instructions: Vec<String> = check_forms()?
        .into_iter()
        .map(|f| {
            let reg = if f.space == StateSpace::Tmem {
                REG32
            } else {
                REG64
            };
            instantiate(f.template, reg)
        })
        .collect();
    instructions.extend(SM_FORMS.iter().map(|s| s.to_string()));
    instructions
        .into_iter()
        .map(|instruction| {
            let (opcode, form) = rule_form(&instruction)?;
            Ok(SmForm {
                instruction,
                opcode,
                form,
            })
        })
        .collect()
}

/// The targets the SM probe assembles every form for: each architecture nvcc 13 compiles
/// for, plain and arch-specific.
pub const SM_PROBE_TARGETS: &[&str] = &[
    "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_100f",
    "sm_103a", "sm_110a", "sm_120", "sm_120a", "sm_121a",
];

/// The SM probe: every form of [`sm_probe_forms`] assembled by ptxas for each of
/// [`SM_PROBE_TARGETS`]. One row per form: the family, the opcode, the instruction, and per
/// target `ok` or `error`; before them, a `# not probed` line per [`SM_NOT_PROBED`] entry.
/// `arch-requirement` may claim a form needs a target only where this table says ptxas
/// rejects it elsewhere (`rules/data/sm-probe.tsv`, checked by a test there).
pub fn run_sm_probe(
    ptxas: &std::path::Path,
    dir: &std::path::Path,
    jobs: usize,
) -> Result<String, String> {
    let forms = sm_probe_forms()?;
    let mut work = Vec::new();
    for i in 0..forms.len() {
        for t in 0..SM_PROBE_TARGETS.len() {
            work.push((i, t));
        }
    }
    let results = crate::util::parallel_map(&work, jobs, |&(i, t)| {
        let arch = SM_PROBE_TARGETS[t];
        let ptx = dir.join(format!("sm{i}_{t}.ptx"));
        let cubin = dir.join(format!("sm{i}_{t}.cubin"));
        if let Err(e) = std::fs::write(&ptx, kernel(&forms[i].instruction, arch)) {
            return Verdict::Error(format!("harness: cannot write {}: {e}", ptx.display()));
        }
        let mut cmd = std::process::Command::new(ptxas);
        cmd.arg(format!("-arch={arch}"))
            .arg(&ptx)
            .arg("-o")
            .arg(&cubin);
        match crate::util::run_with_limit(cmd, std::time::Duration::from_secs(60)) {
            Ok(o) => Verdict::from_ptxas(o.success, &o.text),
            Err(e) => Verdict::Error(format!("harness: cannot run ptxas: {e}")),
        }
    });
    let mut out = String::new();
    for (family, when, reason) in SM_NOT_PROBED {
        out.push_str(&format!("{NOT_PROBED_MARK}\t{family}\t{when}\t{reason}\n"));
    }
    out.push_str(&format!(
        "family\topcode\tinstruction\t{}\n",
        SM_PROBE_TARGETS.join("\t")
    ));
    for (i, f) in forms.iter().enumerate() {
        let verdicts: Vec<&str> = (0..SM_PROBE_TARGETS.len())
            .map(|t| match &results[i * SM_PROBE_TARGETS.len() + t] {
                Verdict::Error(_) => "error",
                _ => "ok",
            })
            .collect();
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            f.form.family.name,
            f.opcode,
            f.instruction,
            verdicts.join("\t")
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_resolves_to_an_address_operand() {
        let forms = check_forms().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(forms.len(), FORMS.len());
        let ld = &forms[1];
        assert_eq!(ld.family, "ld");
        assert_eq!(ld.operand, "[a]");
        assert_eq!(ld.space, StateSpace::Global);
        assert_eq!(ld.position, 1);
    }

    #[test]
    fn every_family_with_an_address_operand_is_probed() {
        let forms = check_forms().unwrap();
        let mut missing = Vec::new();
        for f in isa::families() {
            let has_addr = f.variants.iter().any(|v| {
                v.operands
                    .iter()
                    .any(|s| s.role == Role::Addr || s.alt.is_some_and(|a| a.role == Role::Addr))
            });
            if !has_addr || NOT_PROBED.iter().any(|(n, _)| *n == f.name) {
                continue;
            }
            if !forms.iter().any(|p| p.family == f.name) {
                missing.push(f.name);
            }
        }
        assert!(
            missing.is_empty(),
            "families with no probe form: {missing:?}"
        );
    }

    /// Every target requirement of the ISA table that `arch-requirement` can claim (a
    /// requirement above the oldest probed target, an arch-specific one, a family's minimum
    /// SM, arch-specific targets or removal) has a probe form whose requirement it decides, as
    /// the rule resolves the form (`InstrForm::bound_by`): where ptxas rejects that form, the
    /// requirement is the reason. Or an entry of [`SM_NOT_PROBED`] says why not.
    #[test]
    fn every_target_requirement_is_probed() {
        let forms = sm_probe_forms().unwrap_or_else(|e| panic!("{e}"));
        let oldest = SM_PROBE_TARGETS
            .iter()
            .filter_map(|t| isa::Target::parse(t))
            .map(|t| t.sm)
            .min()
            .unwrap();
        assert_eq!(oldest, 75);
        let requirements = isa::target_requirements(oldest);
        assert!(requirements.len() > 200, "{}", requirements.len());
        let mut missing = Vec::new();
        let mut exempted = 0;
        for r in &requirements {
            if forms.iter().any(|p| r.decides(&p.form)) {
                continue;
            }
            let condition = r.condition();
            if SM_NOT_PROBED
                .iter()
                .any(|(f, c, _)| *f == r.family.name && *c == condition)
            {
                exempted += 1;
                continue;
            }
            missing.push(format!("{}: {condition}", r.family.name));
        }
        assert!(
            missing.is_empty(),
            "target requirements no probe form exercises ({}):\n{}",
            missing.len(),
            missing.join("\n")
        );
        // No stale exemption: each names a requirement no form exercises.
        assert_eq!(exempted, SM_NOT_PROBED.len(), "{SM_NOT_PROBED:?}");
    }

    /// What the test above reads is what the rule reads: the family's reqs that hold for the
    /// form as the PTX parser gives it (`max` with three inputs needs sm_100 by its operand
    /// count, which `rule_form` sees).
    #[test]
    fn probe_forms_resolve_as_the_rule_resolves_them() {
        let (opcode, form) = rule_form("max.f32 %f1, %f2, %f3, %f4;").unwrap();
        assert_eq!(opcode, "max.f32");
        assert_eq!(form.min_sm, 100);
        assert!(form.reqs().any(|r| r.sm == 100));
        let (_, form) = rule_form("max.f32 %f1, %f2, %f3;").unwrap();
        assert_eq!(form.min_sm, 0);
        assert!(rule_form("max.f32 %f1, %f2; max.f32 %f1, %f2, %f3;").is_err());
        assert!(rule_form("nosuch.op %r1;").is_err());
    }

    #[test]
    fn kernels_are_whole_modules() {
        let k = kernel(&instantiate("ld.global.u32 %r1, [@A];", REG32), "sm_90");
        assert!(k.contains(".address_size 64"));
        assert!(k.contains("ld.global.u32 %r1, [%r10];"));
        assert!(k.contains(".target sm_90"));
        assert_eq!(
            split_operands("[%rd11], [%r10, {%r1}], [%rd12];"),
            vec!["[%rd11]", "[%r10, {%r1}]", "[%rd12]"]
        );
    }

    #[test]
    fn verdicts_from_ptxas_output() {
        assert_eq!(Verdict::from_ptxas(true, ""), Verdict::Ok);
        let w = "ptxas warning : Program uses 32-bit address on line 20 which is conflicting with .address_size 64\n";
        assert_eq!(Verdict::from_ptxas(true, w).key(), "warning");
        let e = format!("{w}ptxas fatal   : 32-Bit ABI (--machine 32 or .address_size 32) is not supported on sm_90 or higher\n");
        let v = Verdict::from_ptxas(false, &e);
        assert_eq!(v.key(), "error");
        assert!(v.message().starts_with("32-Bit ABI"), "{v:?}");
        assert!(v.message().contains("after warning: Program uses"), "{v:?}");
    }
}
