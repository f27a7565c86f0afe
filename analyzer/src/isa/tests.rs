use super::*;

fn form(op: &str) -> InstrForm {
    with_parts(op, resolve).unwrap_or_else(|| panic!("{op} did not resolve"))
}

fn form_n(op: &str, n: usize) -> InstrForm {
    with_parts(op, |p| resolve_with_count(p, n)).unwrap_or_else(|| panic!("{op} did not resolve"))
}

fn t(name: &str) -> Option<PtxType> {
    PtxType::parse(name)
}

fn target(s: &str) -> Target {
    Target::parse(s).unwrap()
}

#[test]
fn isa_coverage() {
    let mut missing = Vec::new();
    let mut covered = 0;
    for &name in ISA_FAMILY_NAMES {
        let direct = family(name).is_some();
        // `mma.sp::ordered_metadata` is the `.sp::ordered_metadata` spelling of `mma.sp`.
        let via_resolve = with_parts(name, |p| {
            find_family(p)
                .is_some_and(|(f, _)| name == f.name || name.split("::").next() == Some(f.name))
        });
        if direct || via_resolve {
            covered += 1;
        } else {
            missing.push(name);
        }
    }
    println!(
        "ISA coverage: {covered} of {} PTX ISA 9.0 instruction families",
        ISA_FAMILY_NAMES.len()
    );
    assert!(
        missing.is_empty(),
        "families missing from the table: {missing:?}"
    );
    // Never below what is reached today.
    assert!(covered >= 194, "coverage dropped to {covered}");
    // And the table holds nothing the ISA does not name.
    for f in families() {
        assert!(
            ISA_FAMILY_NAMES.contains(&f.name),
            "{} is not an ISA family name",
            f.name
        );
    }
    assert!(
        table::check_table().is_empty(),
        "{:?}",
        table::check_table()
    );
}

#[test]
fn every_family_resolves_to_itself() {
    for f in families() {
        let got = with_parts(f.name, |p| find_family(p).map(|(g, _)| g.name));
        assert_eq!(got, Some(f.name), "{}", f.name);
    }
}

#[test]
fn type_parsing() {
    assert_eq!(t(".u32"), Some(PtxType::new(TypeClass::Unsigned, 32)));
    assert_eq!(t(".pred"), Some(PtxType::new(TypeClass::Pred, 1)));
    // Packed halves are their own type, not `.f32` (ptxas rejects `.f32` registers for them).
    let f16x2 = t(".f16x2").unwrap();
    assert_eq!(
        (f16x2.class, f16x2.bits, f16x2.packed),
        (TypeClass::Float, 32, true)
    );
    assert_ne!(Some(f16x2), t(".f32"));
    assert_eq!(f16x2.to_string(), ".f16x2");
    assert_eq!(t(".f32").unwrap().to_string(), ".f32");
    assert_eq!(t(".b128"), Some(PtxType::new(TypeClass::Bits, 128)));
    assert_eq!(t(".bf16"), Some(PtxType::new(TypeClass::AltFloat, 16)));
    assert_eq!(t(".shared"), None);
}

#[test]
fn longest_prefix_resolution() {
    let name = |op: &str| form(op).family.name;
    assert_eq!(
        name("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"),
        "cp.async.bulk.tensor"
    );
    assert_eq!(name("cp.async.cg.shared.global"), "cp.async");
    assert_eq!(name("cp.async.wait_group"), "cp.async.wait_group");
    assert_eq!(
        name("cp.async.bulk.wait_group.read"),
        "cp.async.bulk.wait_group"
    );
    assert_eq!(
        name("cp.async.bulk.prefetch.tensor.2d.L2.global"),
        "cp.async.bulk.prefetch.tensor"
    );
    assert_eq!(
        name("cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group"),
        "cp.reduce.async.bulk.tensor"
    );
    assert_eq!(
        name("cp.async.mbarrier.arrive.noinc.shared.b64"),
        "cp.async.mbarrier.arrive"
    );
    assert_eq!(name("ld.global.nc.v4.f32"), "ld.global.nc");
    assert_eq!(name("ld.global.ca.nc.f32"), "ld.global.nc");
    assert_eq!(name("ld.global.v4.f32"), "ld");
    assert_eq!(name("mad.hi.cc.u32"), "mad.cc");
    assert_eq!(name("mad.lo.u32"), "mad");
    assert_eq!(name("madc.hi.cc.u32"), "madc");
    assert_eq!(name("add.cc.u32"), "add.cc");
    assert_eq!(name("bar.warp.sync"), "bar.warp.sync");
    assert_eq!(name("bar.sync"), "bar");
    assert_eq!(name("barrier.cluster.arrive.release"), "barrier.cluster");
    assert_eq!(name("barrier.sync.aligned"), "barrier");
    assert_eq!(name("tcgen05.fence::before_thread_sync"), "tcgen05.fence");
    assert_eq!(name("tcgen05.wait::ld.sync.aligned"), "tcgen05.wait");
    assert_eq!(
        name("tcgen05.mma.ws.sp.cta_group::1.kind::f16"),
        "tcgen05.mma.ws.sp"
    );
    assert_eq!(
        name("tcgen05.mma.sp.cta_group::1.kind::f16"),
        "tcgen05.mma.sp"
    );
    assert_eq!(name("tcgen05.mma.cta_group::1.kind::f16"), "tcgen05.mma");
    assert_eq!(
        name("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32"),
        "mma.sp"
    );
    assert_eq!(
        name("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
        "mma"
    );
    assert_eq!(
        name("mbarrier.try_wait.parity.shared::cta.b64"),
        "mbarrier.try_wait"
    );
    assert_eq!(
        name("mbarrier.arrive_drop.shared.b64"),
        "mbarrier.arrive_drop"
    );
    assert_eq!(name("rcp.approx.ftz.f64"), "rcp.approx.ftz.f64");
    assert_eq!(name("rcp.rn.f64"), "rcp");
    assert_eq!(
        name("clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128"),
        "clusterlaunchcontrol.query_cancel"
    );
    assert_eq!(name("shfl.sync.bfly.b32"), "shfl.sync");
    assert_eq!(name("fence.proxy.async.shared::cta"), "fence");
    assert!(resolve(&["reg"]).is_none());
    assert!(resolve(&[]).is_none());
}

#[test]
fn ld_st_roles_types_spaces() {
    let f = form("ld.global.v4.u32");
    assert_eq!(f.operands.len(), 2);
    assert_eq!(f.operands[0].role, Role::Dst);
    assert_eq!(f.operands[0].ty, t(".u32"));
    assert_eq!(f.operands[0].vector, Some(4));
    assert_eq!(f.operands[1].role, Role::Addr);
    assert_eq!(f.operands[1].space, Some(StateSpace::Global));
    assert!(f.wide_registers);
    assert!(f.effects.contains(Effects::LOAD));
    assert!(!f.effects.contains(Effects::VOLATILE_READ));

    assert_eq!(form("ld.u32").operands[1].space, Some(StateSpace::Generic));
    assert_eq!(
        form("ld.shared::cluster.u32").operands[1].space,
        Some(StateSpace::SharedCluster)
    );
    assert_eq!(
        form("ld.shared.u32").operands[1].space,
        Some(StateSpace::Shared)
    );
    assert_eq!(
        form("ld.shared::cta.u32").operands[1].space,
        Some(StateSpace::Shared)
    );
    assert_eq!(
        form("ld.param.u64").operands[1].space,
        Some(StateSpace::Param)
    );

    let v = form("ld.volatile.global.u32");
    assert!(v.effects.contains(Effects::VOLATILE_READ));
    let a = form("ld.acquire.gpu.global.u32");
    assert!(a.effects.contains(Effects::VOLATILE_READ | Effects::FENCE));
    assert_eq!((a.min_ptx, a.min_sm), (60, 70));

    // Cache hint: the 64-bit cache-policy operand, and newer PTX.
    let h = form("ld.global.L2::cache_hint.u32");
    assert_eq!(h.operands.len(), 3);
    assert_eq!(h.operands[2].name, "cache-policy");
    assert_eq!(h.operands[2].ty, Some(PtxType::B64));
    assert_eq!((h.min_ptx, h.min_sm), (74, 80));
    assert_eq!(form("ld.global.v8.f32").min_sm, 100);
    assert_eq!(form("ld.global.v4.u64").min_ptx, 88);
    assert_eq!(form("ld.global.v4.u32").min_ptx, 10);

    let s = form("st.global.v2.f32");
    assert_eq!(s.operands[0].role, Role::Addr);
    assert_eq!(s.operands[0].space, Some(StateSpace::Global));
    assert_eq!(s.operands[1].role, Role::Src);
    assert_eq!(s.operands[1].vector, Some(2));
    assert_eq!(s.operands[1].ty, t(".f32"));
    assert!(s.effects.contains(Effects::STORE));
    assert!(s.wide_registers);
    assert!(form("st.release.gpu.global.u32")
        .effects
        .contains(Effects::FENCE));

    let nc = form("ld.global.nc.L1::no_allocate.v4.s32");
    assert_eq!(nc.operands[1].space, Some(StateSpace::Global));
    assert_eq!((nc.min_ptx, nc.min_sm), (74, 70));
}

#[test]
fn atom_red() {
    let f = form("atom.global.add.u32");
    assert_eq!(f.operands.len(), 3);
    assert_eq!(f.operands[0].role, Role::Dst);
    assert_eq!(f.operands[1].role, Role::Addr);
    assert_eq!(f.operands[1].space, Some(StateSpace::Global));
    assert_eq!(f.operands[2].role, Role::Src);
    assert_eq!(f.operands[2].ty, t(".u32"));
    assert!(f.effects.contains(Effects::ATOMIC));
    assert!(!f.effects.contains(Effects::FENCE));

    let cas = form("atom.shared.cas.b64");
    assert_eq!(cas.operands.len(), 4);
    assert_eq!(cas.operands[3].ty, t(".b64"));
    assert_eq!(cas.operands[1].space, Some(StateSpace::Shared));

    let acq = form("atom.acquire.gpu.global.exch.b32");
    assert!(acq.effects.contains(Effects::FENCE));
    assert_eq!(acq.min_sm, 70);

    let bf = form("atom.global.add.noftz.bf16x2");
    assert_eq!((bf.min_ptx, bf.min_sm), (78, 90));
    assert_eq!(form("atom.add.f64").min_sm, 60);
    assert_eq!(
        form("atom.add.u32").operands[1].space,
        Some(StateSpace::Generic)
    );

    let r = form("red.global.add.u32");
    assert_eq!(r.operands.len(), 2);
    assert_eq!(r.operands[0].role, Role::Addr);
    assert_eq!(r.operands[1].role, Role::Src);
    assert!(r.effects.contains(Effects::ATOMIC));

    let ra = form("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32");
    assert_eq!(ra.operands.len(), 3);
    assert_eq!(ra.operands[2].space, Some(StateSpace::SharedCluster));
}

#[test]
fn cvt_types() {
    let f = form("cvt.rn.f32.f16");
    assert_eq!(f.operands[0].ty, t(".f32"));
    assert_eq!(f.operands[1].ty, t(".f16"));
    assert!(f.wide_registers);
    assert!(constraint_fits(
        'r',
        f.operands[1].ty.unwrap(),
        f.wide_registers
    ));

    let p = form("cvt.rn.f16x2.f32");
    assert_eq!(p.operands.len(), 3);
    assert_eq!(p.operands[0].ty, t(".f16x2"));
    assert_eq!(p.operands[2].ty, t(".f32"));
    assert_eq!(p.min_sm, 80);

    let bf = form("cvt.rn.bf16x2.f32");
    assert_eq!(bf.operands.len(), 3);
    let u = form("cvt.u32.u64");
    assert_eq!((u.operands[0].ty, u.operands[1].ty), (t(".u32"), t(".u64")));
    assert_eq!(form("cvt.rn.satfinite.e4m3x2.f32").min_sm, 89);
    let fp4 = form("cvt.rn.satfinite.e2m1x2.f32");
    assert!(fp4.arch_specific);
    assert!(fp4.supported_on(&target("sm_100a")));
    assert!(fp4.supported_on(&target("sm_120a")));
    assert!(!fp4.supported_on(&target("sm_100")));
    let rs = form("cvt.rs.satfinite.e4m3x4.f32");
    assert_eq!(rs.operands[1].vector, Some(4));
    assert_eq!(rs.operands[2].ty, Some(PtxType::U32));
    let pk = form("cvt.pack.sat.u4.s32.b32");
    assert_eq!(pk.family.name, "cvt.pack");
    assert_eq!(pk.operands.len(), 4);
    assert_eq!(form("cvt.pack.sat.u16.s32").operands.len(), 3);
}

#[test]
fn mma_fragments() {
    let f = form("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    assert_eq!(f.operands.len(), 4);
    assert_eq!(f.operands[0].role, Role::Dst);
    assert!(f.operands[0].fragment);
    assert_eq!(f.operands[0].ty, t(".f32"));
    // f16 elements come packed in .b32 registers.
    assert_eq!(f.operands[1].ty, Some(PtxType::B32));
    assert_eq!(f.operands[2].ty, Some(PtxType::B32));
    assert_eq!(f.operands[3].role, Role::Src);
    assert_eq!(f.operands[3].ty, t(".f32"));
    assert_eq!((f.min_ptx, f.min_sm), (70, 80));
    assert!(!f.arch_specific);

    let h = form("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
    assert_eq!(h.operands[0].ty, Some(PtxType::B32));
    let d = form("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
    assert_eq!(d.operands[1].ty, t(".f64"));
    let i = form("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32");
    assert_eq!(i.operands[0].ty, t(".s32"));
    assert_eq!(i.operands[1].ty, Some(PtxType::B32));
    assert_eq!(
        form("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32").min_sm,
        89
    );
    let f8h = form("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16");
    assert_eq!((f8h.min_ptx, f8h.min_sm), (87, 89));
    assert_eq!(
        form("mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32").min_sm,
        89
    );
    assert_eq!(
        form("mma.sp.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32").min_sm,
        120
    );
    assert!(form("multimem.st.relaxed.gpu.global.e4m3x4").supported_on(&target("sm_121a")));
    assert!(form("cvt.pack.sat.s8.s32.b32").wide_registers);
    let bs =
        form("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0");
    assert_eq!(bs.operands.len(), 8);
    assert!(bs.arch_specific);
    assert!(bs.supported_on(&target("sm_120a")));
    assert!(!bs.supported_on(&target("sm_100a")));

    let sp = form("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
    assert_eq!(sp.operands.len(), 6);
    assert_eq!(sp.operands[5].role, Role::Imm);
    assert_eq!(
        form("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32").min_ptx,
        85
    );

    let ldm = form("ldmatrix.sync.aligned.m8n8.x4.shared.b16");
    assert_eq!(ldm.operands[0].vector, Some(4));
    assert_eq!(ldm.operands[0].ty, Some(PtxType::B32));
    assert_eq!(ldm.operands[1].space, Some(StateSpace::Shared));
    assert_eq!((ldm.min_ptx, ldm.min_sm), (65, 75));
    assert_eq!(
        form("ldmatrix.sync.aligned.m8n8.x2.trans.b16").operands[1].space,
        Some(StateSpace::Generic)
    );
    let stm = form("stmatrix.sync.aligned.m8n8.x4.shared.b16");
    assert_eq!(stm.operands[0].role, Role::Addr);
    assert_eq!(stm.operands[1].vector, Some(4));
    assert!(stm.effects.contains(Effects::STORE));

    let w = form("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32");
    assert_eq!(w.operands[0].ty, t(".f32"));
    assert_eq!(w.operands[1].ty, Some(PtxType::B32));
    let wl = form("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16");
    assert_eq!(wl.operands[1].space, Some(StateSpace::Shared));
    assert_eq!(wl.operands.len(), 3);
    assert_eq!(wl.min_operands, 2);
}

#[test]
fn cp_async_spaces_and_requirements() {
    let f = form("cp.async.ca.shared.global");
    assert_eq!(f.operands[0].role, Role::Addr);
    assert_eq!(f.operands[0].space, Some(StateSpace::Shared));
    assert_eq!(f.operands[1].space, Some(StateSpace::Global));
    assert_eq!(f.operands[2].role, Role::Imm);
    assert!(f.operands[3].optional);
    assert_eq!(f.operands[3].alt.unwrap().role, Role::PredSrc);
    assert_eq!((f.min_operands, f.max_operands), (3, 4));
    assert_eq!((f.min_ptx, f.min_sm), (70, 80));
    assert!(f.effects.contains(Effects::ASYNC));

    let h = form("cp.async.cg.shared.global.L2::cache_hint");
    assert_eq!((h.min_operands, h.max_operands), (4, 5));
    assert_eq!(h.operand_for(3, 4).unwrap().name, "cache-policy");
    assert_eq!(h.operand_for(3, 5).unwrap().name, "src-size");
    assert_eq!(h.operand_for(4, 5).unwrap().name, "cache-policy");

    let w = form("cp.async.wait_group");
    assert_eq!(w.operands.len(), 1);
    assert_eq!(w.operands[0].role, Role::Imm);
    assert!(w.effects.contains(Effects::FENCE));
    assert!(form("cp.async.commit_group")
        .effects
        .contains(Effects::SIDE_EFFECT));
    assert_eq!(form("cp.async.wait_all").operands.len(), 0);

    let b = form("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes");
    assert_eq!(b.operands.len(), 4);
    assert_eq!(b.operands[0].space, Some(StateSpace::SharedCluster));
    assert_eq!(b.operands[1].space, Some(StateSpace::Global));
    assert_eq!(b.operands[3].space, Some(StateSpace::SharedCluster));
    assert_eq!((b.min_ptx, b.min_sm), (80, 90));
    let bg = form("cp.async.bulk.global.shared::cta.bulk_group");
    assert_eq!(bg.operands.len(), 3);
    assert_eq!(bg.operands[0].space, Some(StateSpace::Global));
    assert_eq!(bg.operands[1].space, Some(StateSpace::Shared));
    assert_eq!(
        form("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes").min_ptx,
        86
    );

    let tm =
        form("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes");
    assert_eq!(tm.operands.len(), 3);
    assert_eq!(tm.operands[0].space, Some(StateSpace::SharedCluster));
    assert_eq!(tm.operands[1].space, Some(StateSpace::Generic));
    assert!(!tm.arch_specific);
    let cg = form(
        "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::2",
    );
    assert!(cg.arch_specific);
    assert!(cg.supported_on(&target("sm_100a")));
    assert!(cg.supported_on(&target("sm_103f")));
    assert!(!cg.supported_on(&target("sm_90a")));
    let st = form("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group");
    assert_eq!(st.operands.len(), 2);
    assert_eq!(st.operands[1].space, Some(StateSpace::Shared));
}

#[test]
fn mbarrier_forms() {
    let i = form("mbarrier.init.shared::cta.b64");
    assert_eq!(i.operands[0].role, Role::Addr);
    assert_eq!(i.operands[0].space, Some(StateSpace::Shared));
    assert_eq!(i.operands[1].ty, Some(PtxType::U32));
    assert_eq!((i.min_ptx, i.min_sm), (78, 80));
    assert_eq!(
        form("mbarrier.init.b64").operands[0].space,
        Some(StateSpace::Generic)
    );

    let a = form("mbarrier.arrive.shared.b64");
    assert_eq!(a.operands[0].role, Role::Dst);
    assert_eq!(a.operands[0].ty, Some(PtxType::B64));
    assert_eq!((a.min_operands, a.max_operands), (2, 3));
    assert_eq!(a.min_sm, 80);
    assert_eq!(form_n("mbarrier.arrive.shared.b64", 3).min_sm, 90);
    let e = form("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64");
    assert_eq!(e.operands[2].name, "txCount");
    assert_eq!((e.min_ptx, e.min_sm), (80, 90));
    assert!(a.effects.contains(Effects::ATOMIC | Effects::ASYNC));

    let w = form("mbarrier.try_wait.parity.shared::cta.b64");
    assert_eq!(w.operands[0].role, Role::PredDst);
    assert_eq!(w.operands[2].name, "phaseParity");
    assert!(w.operands[3].optional);
    assert!(w.effects.contains(Effects::VOLATILE_READ));
    assert_eq!((w.min_ptx, w.min_sm), (78, 90));
    let tw = form("mbarrier.test_wait.shared.b64");
    assert_eq!(tw.operands[2].name, "state");
    assert_eq!(tw.min_sm, 80);
    assert_eq!(form("mbarrier.test_wait.parity.shared.b64").min_ptx, 71);
    let ex = form("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64");
    assert_eq!(ex.operands[0].space, Some(StateSpace::SharedCluster));
    let pc = form("mbarrier.pending_count.b64");
    assert!(pc.effects.is_empty());
}

#[test]
fn setp_selp_and_predicates() {
    let f = form("setp.lt.s32");
    assert_eq!(f.operands.len(), 3);
    assert_eq!(f.operands[0].role, Role::PredDst);
    assert_eq!(f.operands[0].ty, Some(PtxType::PRED));
    assert_eq!(f.operands[0].pair, Some(Role::PredDst));
    assert_eq!(f.operands[1].ty, t(".s32"));
    let b = form("setp.eq.and.u32");
    assert_eq!(b.operands.len(), 4);
    assert_eq!(b.operands[3].role, Role::PredSrc);
    assert_eq!(form("setp.ne.bf16x2").min_sm, 90);
    let s = form("selp.b32");
    assert_eq!(s.operands[3].role, Role::PredSrc);
    let set = form("set.lt.u32.f32");
    assert_eq!(set.operands[0].ty, t(".u32"));
    assert_eq!(set.operands[1].ty, t(".f32"));
}

#[test]
fn shfl_vote_redux_elect() {
    let f = form("shfl.sync.bfly.b32");
    assert_eq!(f.operands.len(), 5);
    assert_eq!(f.operands[0].role, Role::Dst);
    assert_eq!(f.operands[0].pair, Some(Role::PredDst));
    assert_eq!(f.operands[4].name, "membermask");
    assert_eq!((f.min_ptx, f.min_sm), (60, 30));
    assert!(f.effects.contains(Effects::WARP_SYNC));
    assert!(form("shfl.up.b32").family.deprecated.is_some());
    assert_eq!(form("vote.any.pred").family.removed_on, Some((64, 70)));

    let r = form("redux.sync.add.u32");
    assert_eq!((r.min_ptx, r.min_sm), (70, 80));
    assert!(!r.arch_specific);
    let rf = form("redux.sync.min.f32");
    assert_eq!(rf.min_sm, 100);
    assert!(rf.arch_specific);
    assert!(rf.supported_on(&target("sm_100a")));
    assert!(rf.supported_on(&target("sm_103f")));
    assert!(!rf.supported_on(&target("sm_100")));
    assert!(!rf.supported_on(&target("sm_120a")));

    let e = form("elect.sync");
    assert_eq!((e.min_ptx, e.min_sm), (80, 90));
    assert_eq!(e.operands[0].pair, Some(Role::PredDst));
    let v = form("vote.sync.ballot.b32");
    assert_eq!(v.operands[0].ty, Some(PtxType::B32));
    assert_eq!(v.operands[1].role, Role::PredSrc);
    assert_eq!(form("vote.sync.any.pred").operands[0].role, Role::PredDst);
    assert_eq!(form("match.all.sync.b64").operands[1].ty, t(".b64"));
    assert!(form("activemask.b32")
        .effects
        .contains(Effects::VOLATILE_READ));
}

#[test]
fn wgmma_forms() {
    let f = form("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16");
    assert_eq!(f.operands.len(), 8);
    assert_eq!(f.min_operands, 7);
    assert_eq!(f.operands[0].role, Role::DstSrc);
    assert!(f.operands[0].fragment);
    assert_eq!(f.operands[0].ty, t(".f32"));
    assert_eq!(f.operands[1].ty, Some(PtxType::B64));
    let alt = f.operands[1].alt.unwrap();
    assert!(alt.fragment);
    assert_eq!(alt.ty, Some(PtxType::B32));
    assert_eq!(f.operands[3].role, Role::PredSrc);
    assert_eq!(f.operands[4].role, Role::Imm);
    assert_eq!(f.operand_for(6, 7).unwrap().name, "imm-trans-b");
    assert_eq!(f.operand_for(6, 8).unwrap().name, "imm-trans-a");
    assert!(f.arch_specific);
    assert_eq!((f.min_ptx, f.min_sm), (80, 90));
    assert!(f.supported_on(&target("sm_90a")));
    assert!(!f.supported_on(&target("sm_90")));
    assert!(!f.supported_on(&target("sm_100a")));
    assert!(f.effects.contains(Effects::SIDE_EFFECT));

    let tf = form("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32");
    assert_eq!(tf.operands.len(), 6);
    let i = form("wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8");
    assert_eq!(i.operands.len(), 4);
    assert_eq!(i.operands[0].ty, t(".s32"));
    assert_eq!(
        form("wgmma.mma_async.sync.aligned.m64n64k32.s32.u8.s8").min_ptx,
        84
    );
    let h = form("wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16");
    assert_eq!(h.operands[0].ty, Some(PtxType::B32));

    let fence = form("wgmma.fence.sync.aligned");
    assert!(fence.arch_specific);
    assert_eq!(fence.min_sm, 90);
    assert_eq!(fence.min_ptx, 80);
    assert!(fence.effects.contains(Effects::SIDE_EFFECT));
    assert!(fence.operands.is_empty());
    let wait = form("wgmma.wait_group.sync.aligned");
    assert_eq!(wait.operands[0].role, Role::Imm);
    assert!(form("wgmma.commit_group.sync.aligned").arch_specific);
    let sp = form("wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.bf16.bf16");
    assert_eq!(sp.family.name, "wgmma.mma_async.sp");
    assert_eq!(sp.operands.len(), 10);
}

#[test]
fn tcgen05_forms() {
    let a = form("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32");
    assert_eq!((a.min_ptx, a.min_sm), (86, 100));
    assert!(a.arch_specific);
    assert_eq!(a.operands[0].space, Some(StateSpace::Shared));
    assert!(a.supported_on(&target("sm_100a")));
    assert!(a.supported_on(&target("sm_100f")));
    assert!(a.supported_on(&target("sm_103a")));
    assert!(a.supported_on(&target("sm_110a")));
    assert!(!a.supported_on(&target("sm_100")));
    assert!(!a.supported_on(&target("sm_90a")));
    assert!(!a.supported_on(&target("sm_120a")));

    let ld = form("tcgen05.ld.sync.aligned.32x32b.x8.b32");
    assert_eq!(ld.operands[0].vector, Some(8));
    assert_eq!(ld.operands[1].space, Some(StateSpace::Tmem));
    assert_eq!(
        form("tcgen05.ld.sync.aligned.16x256b.x2.b32").operands[0].vector,
        Some(8)
    );
    assert_eq!(
        form("tcgen05.ld.sync.aligned.16x32bx2.x1.b32")
            .operands
            .len(),
        3
    );
    let red = form("tcgen05.ld.red.sync.aligned.32x32b.x2.f32.min");
    assert_eq!(red.min_ptx, 88);
    assert!(!red.supported_on(&target("sm_100a")));
    assert!(red.supported_on(&target("sm_103a")));
    let st = form("tcgen05.st.sync.aligned.32x32b.x4.b32");
    assert_eq!(st.operands[0].role, Role::Addr);
    assert_eq!(st.operands[1].vector, Some(4));

    let mma = form("tcgen05.mma.cta_group::1.kind::f16");
    assert_eq!(mma.min_operands, 5);
    assert_eq!(mma.operands[0].space, Some(StateSpace::Tmem));
    assert_eq!(mma.operands[1].alt.unwrap().space, Some(StateSpace::Tmem));
    assert_eq!(mma.operand_for(4, 5).unwrap().name, "enable-input-d");
    let i8 = form("tcgen05.mma.cta_group::1.kind::i8");
    assert!(i8.supported_on(&target("sm_100a")));
    assert!(!i8.supported_on(&target("sm_100f")));
    assert!(!i8.supported_on(&target("sm_103a")));

    let w = form("tcgen05.wait::ld.sync.aligned");
    assert!(w.effects.contains(Effects::SIDE_EFFECT | Effects::FENCE));
    assert!(form("tcgen05.fence::after_thread_sync").arch_specific);
    let c = form("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64");
    assert_eq!(c.operands[0].space, Some(StateSpace::SharedCluster));
    assert_eq!(c.operands.len(), 1);
    assert_eq!(
        form("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64")
            .operands
            .len(),
        2
    );
    let sh = form("tcgen05.shift.cta_group::1.down");
    assert!(sh.supported_on(&target("sm_103a")));
    assert!(!sh.supported_on(&target("sm_100f")));
}

#[test]
fn minimum_arch_examples() {
    let rs = form("redux.sync.add.s32");
    assert_eq!(rs.min_sm, 80);
    assert!(!rs.supported_on(&target("sm_75")));
    assert!(rs.supported_on(&target("sm_80")));
    assert_eq!(form("cp.async.ca.shared.global").min_sm, 80);
    assert_eq!(form("elect.sync").min_sm, 90);
    assert_eq!(form("griddepcontrol.wait").min_sm, 90);
    assert_eq!(form("fence.proxy.async.shared::cta").min_sm, 90);
    assert_eq!(form("fence.acq_rel.gpu").min_sm, 70);
    assert_eq!(form("fence.acq_rel.cluster").min_sm, 90);
    assert_eq!(
        form("fence.proxy.tensormap::generic.release.gpu").min_ptx,
        83
    );
    assert_eq!(
        form("fence.release.sync_restrict::shared::cta.cluster").min_ptx,
        86
    );
    assert_eq!(
        form("fence.proxy.tensormap::generic.acquire.gpu")
            .operands
            .len(),
        2
    );
    let smr = form("setmaxnreg.inc.sync.aligned.u32");
    assert!(smr.arch_specific);
    assert!(smr.supported_on(&target("sm_90a")));
    assert!(smr.supported_on(&target("sm_120a")));
    assert!(!smr.supported_on(&target("sm_90")));
    assert_eq!(smr.operands[0].role, Role::Imm);
    assert_eq!(form("min.f32").min_sm, 0);
    assert_eq!(form_n("min.f32", 4).min_sm, 100);
    assert_eq!(form("add.rn.f32.f16").min_sm, 100);
    assert_eq!(form("add.rn.f32.f16").operands[1].ty, t(".f16"));
    assert_eq!(form("add.f16x2").min_sm, 53);
    assert_eq!(form("add.u32").min_sm, 0);
    assert_eq!(form("mov.b128").min_ptx, 83);
    assert_eq!(form("lop3.b32").operands[4].role, Role::Imm);
    assert_eq!(form("lop3.or.b32").operands.len(), 6);
    assert_eq!(form("nanosleep.u32").min_sm, 70);
    assert_eq!(form("tanh.approx.f32").min_sm, 75);
    assert_eq!(form("ex2.approx.ftz.bf16x2").min_sm, 90);
    assert_eq!(form("dp4a.u32.s32").min_sm, 61);
    let tr = form("tensormap.replace.tile.global_address.shared::cta.b1024.b64");
    assert!(tr.arch_specific);
    assert_eq!(tr.operands[1].ty, t(".b64"));
    assert_eq!(
        form("tensormap.replace.tile.box_dim.global.b1024.b32").operands[1].role,
        Role::Imm
    );
    assert_eq!(form("stmatrix.sync.aligned.m8n8.x1.shared.b16").min_sm, 90);
    let ldm16 = form("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8");
    assert!(ldm16.arch_specific);
}

#[test]
fn integer_forms() {
    let m = form("mul.wide.u32");
    assert_eq!(m.operands[0].ty, t(".u64"));
    assert_eq!(m.operands[1].ty, t(".u32"));
    let md = form("mad.wide.s32");
    assert_eq!(md.operands[3].ty, t(".s64"));
    assert_eq!(form("mul.lo.u32").operands[0].ty, t(".u32"));
    assert_eq!(form("shl.b64").operands[2].ty, Some(PtxType::U32));
    assert_eq!(form("bfe.u64").operands[2].ty, Some(PtxType::U32));
    assert_eq!(form("popc.b64").operands[0].ty, Some(PtxType::U32));
    assert_eq!(form("add.cc.u64").min_ptx, 43);
    assert_eq!(form("prmt.b32.f4e").operands.len(), 4);
    let mv = form("mov.b64");
    assert!(mv.operands[0].packable && mv.operands[1].packable);
    assert!(!mv.wide_registers);
    assert!(!form("add.u32").wide_registers);
}

#[test]
fn misc_effects() {
    assert!(form("nanosleep.u32").effects.contains(Effects::SIDE_EFFECT));
    assert!(form("trap").effects.contains(Effects::SIDE_EFFECT));
    assert!(form("griddepcontrol.launch_dependents")
        .effects
        .contains(Effects::SIDE_EFFECT));
    assert!(form("bar.sync").effects.contains(Effects::BARRIER));
    assert!(form("membar.gl").effects.contains(Effects::FENCE));
    assert!(form("prefetch.global.L2").effects.contains(Effects::HINT));
    assert!(!form("prefetch.global.L2").effects.touches_memory());
    assert!(form("bra.uni").effects.contains(Effects::CONTROL));
    assert!(form("add.u32").effects.is_empty());
    assert!(form("st.global.u32").effects.must_not_be_deleted());
    assert!(!form("ld.global.u32").effects.must_not_be_deleted());
    let b = form("bar.red.popc.u32");
    assert_eq!(b.operands.len(), 4);
    assert_eq!(b.operand_for(2, 3).unwrap().role, Role::PredSrc);
    assert_eq!(form("bar.sync").min_operands, 1);
    assert_eq!(form("bra").operands[0].role, Role::Label);
    assert_eq!(form("call.uni").max_operands, usize::MAX);
}

#[test]
fn known_opcodes_and_suggestions() {
    assert!(is_known_opcode("ld.global.u32"));
    assert!(is_known_opcode("ld.gloabl.u32"));
    assert!(is_known_opcode("cp.async.wait_group"));
    assert!(is_known_opcode("tcgen05.fence::before_thread_sync"));
    assert!(!is_known_opcode("reg"));
    assert!(!is_known_opcode(".reg"));
    assert!(!is_known_opcode("foo.bar"));
    assert!(!is_known_opcode(""));

    assert_eq!(suggest_opcode("ld.gloabl").as_deref(), Some("ld.global"));
    assert_eq!(
        suggest_opcode("ld.gloabl.u32").as_deref(),
        Some("ld.global.u32")
    );
    assert_eq!(suggest_opcode("reg").as_deref(), Some(".reg"));
    assert_eq!(suggest_opcode("mvo.u32").as_deref(), Some("mov.u32"));
    assert_eq!(
        suggest_opcode("cp.async.wait_gruop").as_deref(),
        Some("cp.async.wait_group")
    );
    assert_eq!(
        suggest_opcode("st.shraed.u32").as_deref(),
        Some("st.shared.u32")
    );
    assert_eq!(suggest_opcode("ld.global.u32"), None);
    assert_eq!(suggest_opcode("xyzzy"), None);

    assert_eq!(with_parts("ld.gloabl.u32", invalid_modifiers), vec![1]);
    assert!(with_parts("ld.global.nc.L1::no_allocate.v4.s32", invalid_modifiers).is_empty());
    assert!(with_parts(
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
        invalid_modifiers
    )
    .is_empty());
    assert!(with_parts("mad.hi.cc.u32", invalid_modifiers).is_empty());
    assert_eq!(with_parts("add.u33", invalid_modifiers), vec![1]);
    assert_eq!(
        with_parts("cp.async.commit_group.x", invalid_modifiers),
        vec![3]
    );
    assert!(with_parts("rcp.approx.ftz.f64", invalid_modifiers).is_empty());
    assert!(with_parts("tcgen05.fence::before_thread_sync", invalid_modifiers).is_empty());
}

#[test]
fn operand_type_rules_on_forms() {
    // "r" on add.f32 is accepted; "f" on and.b32 too; "f" on add.u32 not.
    let add_f32 = form("add.f32");
    assert!(constraint_fits(
        'r',
        add_f32.operands[1].ty.unwrap(),
        add_f32.wide_registers
    ));
    let and_b32 = form("and.b32");
    assert!(constraint_fits(
        'f',
        and_b32.operands[1].ty.unwrap(),
        and_b32.wide_registers
    ));
    let add_u32 = form("add.u32");
    assert!(!constraint_fits(
        'f',
        add_u32.operands[1].ty.unwrap(),
        add_u32.wide_registers
    ));
    // ld.global.u16 into "r", ld.u32 into "l".
    let ld16 = form("ld.global.u16");
    assert!(constraint_fits(
        'r',
        ld16.operands[0].ty.unwrap(),
        ld16.wide_registers
    ));
    let ld32 = form("ld.u32");
    assert!(constraint_fits(
        'l',
        ld32.operands[0].ty.unwrap(),
        ld32.wide_registers
    ));
    // add.u16 with "r" is rejected.
    let add16 = form("add.u16");
    assert!(!constraint_fits(
        'r',
        add16.operands[0].ty.unwrap(),
        add16.wide_registers
    ));
    // mov.b32 with an "l" source is rejected.
    let mov32 = form("mov.b32");
    assert!(!constraint_fits(
        'l',
        mov32.operands[1].ty.unwrap(),
        mov32.wide_registers
    ));
}

#[test]
fn targets() {
    assert_eq!(
        target("sm_90a"),
        Target {
            sm: 90,
            suffix: Some('a')
        }
    );
    assert_eq!(
        target("sm_100f"),
        Target {
            sm: 100,
            suffix: Some('f')
        }
    );
    assert_eq!(
        target("compute_80"),
        Target {
            sm: 80,
            suffix: None
        }
    );
    assert!(Target::parse("sm_x").is_none());
}

#[test]
fn lookup_is_fast() {
    let ops = [
        "ld.global.v4.u32",
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
        "cp.async.cg.shared.global.L2::cache_hint",
        "add.u32",
        "mbarrier.try_wait.parity.shared::cta.b64",
    ];
    let split: Vec<Vec<&str>> = ops.iter().map(|o| with_parts(o, |p| p.to_vec())).collect();
    let start = std::time::Instant::now();
    let mut n = 0usize;
    for _ in 0..10_000 {
        for p in &split {
            n += resolve(p).map_or(0, |f| f.operands.len());
        }
    }
    let elapsed = start.elapsed();
    assert!(n > 0);
    // 50,000 resolutions; generous bound for slow CI machines and debug builds.
    assert!(
        elapsed.as_secs_f64() < 2.0,
        "50k resolutions took {elapsed:?}"
    );
}

/// Measured with ptxas 13.0 (one instruction per file, `.f32` registers where `f` is bound):
/// `Arguments mismatch` for every packed `.f16x2` operand; `.b32` registers are accepted.
#[test]
fn f_register_never_fits_packed_f16x2() {
    for op in [
        "add.rn.f16x2",
        "cvt.rn.f16x2.f32",
        "multimem.ld_reduce.relaxed.sys.global.add.f16x2",
        "multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v4.f16x2",
        "multimem.red.relaxed.sys.global.add.f16x2",
        "multimem.st.relaxed.sys.global.f16x2",
    ] {
        let f = form(op);
        let packed = f
            .operands
            .iter()
            .filter_map(|o| o.ty)
            .find(|t| t.packed)
            .unwrap_or_else(|| panic!("{op}: no .f16x2 operand in {:?}", f.operands));
        assert!(!constraint_fits('f', packed, f.wide_registers), "{op}");
        assert!(constraint_fits('r', packed, f.wide_registers), "{op}");
    }
}

/// Measured with ptxas 13.0 on sm_80 and sm_90 (2026-12-01): the lowest target each
/// mbarrier form assembles for.
#[test]
fn mbarrier_minimum_targets_match_ptxas() {
    let sm80 = [
        "mbarrier.init.shared::cta.b64",
        "mbarrier.init.b64",
        "mbarrier.inval.shared::cta.b64",
        "mbarrier.arrive.shared::cta.b64",
        "mbarrier.arrive.release.cta.shared::cta.b64",
        "mbarrier.arrive.noComplete.shared::cta.b64",
        "mbarrier.arrive_drop.release.cta.shared::cta.b64",
        "mbarrier.test_wait.shared::cta.b64",
        "mbarrier.test_wait.parity.shared::cta.b64",
        "mbarrier.test_wait.acquire.cta.shared::cta.b64",
        "mbarrier.pending_count.b64",
        "cp.async.mbarrier.arrive.noinc.shared::cta.b64",
    ];
    let sm90 = [
        "mbarrier.arrive.release.cluster.shared::cta.b64",
        "mbarrier.arrive.release.cluster.shared::cluster.b64",
        "mbarrier.arrive.relaxed.cta.shared::cta.b64",
        "mbarrier.arrive.expect_tx.shared::cta.b64",
        "mbarrier.arrive_drop.expect_tx.shared::cta.b64",
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64",
        "mbarrier.complete_tx.relaxed.cta.shared::cta.b64",
        "mbarrier.test_wait.acquire.cluster.shared::cta.b64",
        "mbarrier.test_wait.relaxed.cta.shared::cta.b64",
        "mbarrier.try_wait.shared::cta.b64",
        "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64",
    ];
    for op in sm80 {
        assert_eq!(form(op).min_sm, 80, "{op}");
    }
    for op in sm90 {
        assert_eq!(form(op).min_sm, 90, "{op}");
    }
}

/// `InstrForm::reqs_holding` has one bit per requirement of a family.
#[test]
fn every_familys_requirements_fit_the_holding_bits() {
    for f in families() {
        assert!(
            f.reqs.len() <= MAX_REQS,
            "{}: {} reqs",
            f.name,
            f.reqs.len()
        );
    }
}

/// The requirements a form reports holding are the ones its minimum SM comes from.
#[test]
fn a_form_names_the_requirements_that_hold_for_it() {
    let plain = form("add.f32");
    assert_eq!(plain.reqs().count(), 0);
    let bf16 = form("add.rn.bf16");
    let held: Vec<u16> = bf16.reqs().map(|r| r.sm).collect();
    assert!(!held.is_empty());
    assert_eq!(held.iter().copied().max(), Some(bf16.min_sm));
    assert_eq!(bf16.min_sm, 90);
}

/// `.tile::gather4` / `.im2col::w` into `.shared::cluster` are family features of sm_100:
/// ptxas 13.0 assembles them for sm_110a too (the SM probe). They were taken as sm_100a /
/// sm_100f only, a false finding on sm_110a builds.
#[test]
fn gather4_into_the_cluster_is_a_blackwell_family_feature() {
    for op in [
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes",
        "cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes",
    ] {
        let f = form(op);
        for (t, ok) in [
            ("sm_100a", true),
            ("sm_103a", true),
            ("sm_110a", true),
            ("sm_100f", true),
            ("sm_100", false),
            ("sm_120a", false),
        ] {
            assert_eq!(
                f.supported_on(&Target::parse(t).unwrap()),
                ok,
                "{op} on {t}"
            );
        }
    }
}

#[test]
fn edit_distance_counts_substitutions_insertions_and_transpositions() {
    use super::edit_distance;
    assert_eq!(edit_distance("global", "global"), 0);
    assert_eq!(edit_distance("gloabl", "global"), 1);
    assert_eq!(edit_distance("shraed", "shared"), 1);
    assert_eq!(edit_distance("mov", "mvo"), 1);
    assert_eq!(edit_distance("ld", "ldu"), 1);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("abc", ""), 3);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    // Characters, not bytes, off ASCII.
    assert_eq!(edit_distance("glöbal", "global"), 1);
    assert_eq!(edit_distance("ab", "ba"), 1);
    assert_eq!(edit_distance("abcd", "badc"), 2);
}

#[test]
fn a_repeated_unknown_opcode_gets_the_same_suggestion() {
    for _ in 0..3 {
        assert_eq!(suggest_opcode("mvo.u32").as_deref(), Some("mov.u32"));
        assert_eq!(suggest_opcode("setpp"), suggest_opcode("setpp"));
    }
}
