//! The comparison on machine code recorded with nvcc 13.0.88 (`-O3 -arch=sm_90 -cubin`,
//! `cuobjdump -sass`, on the H200 machine) from corpus cases, without and with ptxguard's fix
//! (NOPs and encoding comments trimmed, except in `DELETED_ATOMIC_*`).

use super::*;

/// missing-volatile/bad-hoisted-poll.cu as written: the load is hoisted out of the loop.
const HOISTED_POLL_BEFORE: &str = r#"
	code for sm_90
	.target	sm_90
		Function : _Z4pollPjS_
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0020*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0030*/                   LD.E R2, desc[UR4][R2.64] ;
        /*0040*/                   IMAD.MOV.U32 R0, RZ, RZ, RZ ;
        /*0050*/                   ISETP.EQ.AND P2, PT, R2, RZ, PT ;
        /*0060*/                   VIADD R0, R0, 0x1 ;
        /*0070*/                   ISETP.NE.AND P0, PT, R0.reuse, 0xa, PT ;
        /*0080*/                   ISETP.GE.U32.AND P1, PT, R0, 0xf4240, PT ;
        /*0090*/               @P0 BRA 0xd0 ;
        /*00a0*/                   LDC.64 R2, c[0x0][0x210] ;
        /*00b0*/                   IMAD.MOV.U32 R5, RZ, RZ, 0x1 ;
        /*00c0*/                   ATOMG.E.EXCH.STRONG.GPU PT, RZ, desc[UR4][R2.64], R5 ;
        /*00d0*/              @!P1 BRA P2, 0x60 ;
        /*00e0*/                   LDC.64 R2, c[0x0][0x218] ;
        /*00f0*/                   STG.E desc[UR4][R2.64], R0 ;
        /*0100*/                   EXIT ;
        /*0110*/                   BRA 0x110;
"#;

/// The same with `volatile`: the load is inside the loop.
const HOISTED_POLL_AFTER: &str = r#"
	code for sm_90
	.target	sm_90
		Function : _Z4pollPjS_
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0020*/                   IMAD.MOV.U32 R0, RZ, RZ, RZ ;
        /*0030*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0040*/                   LD.E R4, desc[UR4][R2.64] ;
        /*0050*/                   VIADD R0, R0, 0x1 ;
        /*0060*/                   ISETP.NE.AND P0, PT, R0.reuse, 0xa, PT ;
        /*0070*/                   ISETP.GE.U32.AND P1, PT, R0, 0xf4240, PT ;
        /*0080*/                   ISETP.EQ.AND P2, PT, R4, RZ, PT ;
        /*0090*/               @P0 BRA 0xc0 ;
        /*00a0*/                   IMAD.MOV.U32 R5, RZ, RZ, 0x1 ;
        /*00b0*/                   ATOMG.E.EXCH.STRONG.GPU PT, RZ, desc[UR4][R2.64], R5 ;
        /*00c0*/              @!P1 BRA P2, 0x40 ;
        /*00d0*/                   LDC.64 R2, c[0x0][0x218] ;
        /*00e0*/                   STG.E desc[UR4][R2.64], R0 ;
        /*00f0*/                   EXIT ;
        /*0100*/                   BRA 0x100;
"#;

/// missing-memory-clobber/bad-nonvolatile-atomic-merged-load.cu as written.
const MERGED_LOAD_BEFORE: &str = r#"
	code for sm_90
	.target	sm_90
		Function : _Z1kPjS_
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R5, SR_LANEID ;
        /*0020*/                   VOTEU.ANY UR6, UPT, PT ;
        /*0030*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0040*/                   FLO.U32 R0, UR6 ;
        /*0050*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0060*/                   POPC R9, UR6 ;
        /*0070*/                   ISETP.EQ.U32.AND P0, PT, R0, R5, PT ;
        /*0080*/               @P0 ATOM.E.ADD.STRONG.GPU PT, R3, desc[UR4][R2.64], R9 ;
        /*0090*/                   LDC.64 R4, c[0x0][0x218] ;
        /*00a0*/                   S2R R6, SR_LTMASK ;
        /*00b0*/                   STG.E desc[UR4][R4.64], RZ ;
        /*00c0*/                   LOP3.LUT R6, R6, UR6, RZ, 0xc0, !PT ;
        /*00d0*/                   POPC R6, R6 ;
        /*00e0*/                   SHFL.IDX PT, R7, R3, R0, 0x1f ;
        /*00f0*/                   IMAD.IADD R7, R7, 0x1, R6 ;
        /*0100*/                   STG.E desc[UR4][R4.64+0x4], R7 ;
        /*0110*/                   EXIT ;
        /*0120*/                   BRA 0x120;
"#;

/// The same with the `"memory"` clobber: the loads around the atomic are kept.
const MERGED_LOAD_AFTER: &str = r#"
	code for sm_90
	.target	sm_90
		Function : _Z1kPjS_
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R5, SR_LANEID ;
        /*0020*/                   VOTEU.ANY UR6, UPT, PT ;
        /*0030*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0040*/                   FLO.U32 R6, UR6 ;
        /*0050*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0060*/                   POPC R11, UR6 ;
        /*0070*/                   LDG.E R0, desc[UR4][R2.64] ;
        /*0080*/                   ISETP.EQ.U32.AND P0, PT, R6, R5, PT ;
        /*0090*/               @P0 ATOM.E.ADD.STRONG.GPU PT, R11, desc[UR4][R2.64], R11 ;
        /*00a0*/                   LDG.E R7, desc[UR4][R2.64] ;
        /*00b0*/                   S2R R8, SR_LTMASK ;
        /*00c0*/                   LDC.64 R4, c[0x0][0x218] ;
        /*00d0*/                   LOP3.LUT R8, R8, UR6, RZ, 0xc0, !PT ;
        /*00e0*/                   POPC R13, R8 ;
        /*00f0*/                   SHFL.IDX PT, R6, R11, R6, 0x1f ;
        /*0100*/                   IMAD.IADD R9, R7, 0x1, -R0 ;
        /*0110*/                   STG.E desc[UR4][R4.64], R9 ;
        /*0120*/                   IMAD.IADD R7, R6, 0x1, R13 ;
        /*0130*/                   STG.E desc[UR4][R4.64+0x4], R7 ;
        /*0140*/                   EXIT ;
        /*0150*/                   BRA 0x150;
"#;

/// early-clobber/bad-warning-loop-carried-mov-add.cu as written: output and input share a register.
const LOOP_CARRIED_BEFORE: &str = r#"
	code for sm_90
	.target	sm_90
		Function : _Z1kPjj
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R5, SR_TID.X ;
        /*0020*/                   LDC R7, c[0x0][0x218] ;
        /*0030*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0040*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0050*/                   ISETP.NE.AND P0, PT, R7, RZ, PT ;
        /*0060*/                   IMAD.WIDE.U32 R2, R5, 0x4, R2 ;
        /*0070*/                   LDG.E R5, desc[UR4][R2.64] ;
        /*0080*/              @!P0 BRA 0x250 ;
        /*0090*/                   VIADD R0, R7, 0xffffffff ;
        /*00a0*/                   ISETP.GE.U32.AND P0, PT, R0, 0x3, PT ;
        /*00b0*/                   LOP3.LUT R0, R7, 0x3, RZ, 0xc0, !PT ;
        /*00c0*/              @!P0 BRA 0x220 ;
        /*00d0*/                   IMAD.IADD R4, R7, 0x1, -R0 ;
        /*00e0*/                   ISETP.GT.AND P0, PT, R4, RZ, PT ;
        /*00f0*/              @!P0 BRA 0x1e0 ;
        /*0100*/                   ISETP.GT.AND P1, PT, R4, 0xc, PT ;
        /*0110*/                   PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0 ;
        /*0120*/              @!P1 BRA 0x180 ;
        /*0130*/                   PLOP3.LUT P0, PT, PT, PT, PT, 0x8, 0x0 ;
        /*0140*/                   VIADD R4, R4, 0xfffffff0 ;
        /*0150*/                   VIADD R5, R5, 0x70 ;
        /*0160*/                   ISETP.GT.AND P1, PT, R4, 0xc, PT ;
        /*0170*/               @P1 BRA 0x140 ;
        /*0180*/                   ISETP.GT.AND P1, PT, R4, 0x4, PT ;
        /*0190*/               @P1 VIADD R4, R4, 0xfffffff8 ;
        /*01a0*/               @P1 PLOP3.LUT P0, PT, PT, PT, PT, 0x8, 0x0 ;
        /*01b0*/               @P1 VIADD R5, R5, 0x38 ;
        /*01c0*/                   ISETP.NE.OR P0, PT, R4, RZ, P0 ;
        /*01d0*/              @!P0 BRA 0x220 ;
        /*01e0*/                   VIADD R4, R4, 0xfffffffc ;
        /*01f0*/                   VIADD R5, R5, 0x1c ;
        /*0200*/                   ISETP.NE.AND P0, PT, R4, RZ, PT ;
        /*0210*/               @P0 BRA 0x1e0 ;
        /*0220*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0230*/              @!P0 BRA 0x250 ;
        /*0240*/                   IMAD.MOV.U32 R5, RZ, RZ, 0xe ;
        /*0250*/                   STG.E desc[UR4][R2.64], R5 ;
        /*0260*/                   EXIT ;
        /*0270*/                   BRA 0x270;
"#;

/// The same with `=&r`.
const LOOP_CARRIED_AFTER: &str = r#"
	code for sm_90
	.target	sm_90
		Function : _Z1kPjj
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R5, SR_TID.X ;
        /*0020*/                   LDC R7, c[0x0][0x218] ;
        /*0030*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0040*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0050*/                   ISETP.NE.AND P0, PT, R7, RZ, PT ;
        /*0060*/                   IMAD.WIDE.U32 R2, R5, 0x4, R2 ;
        /*0070*/                   LDG.E R5, desc[UR4][R2.64] ;
        /*0080*/              @!P0 BRA 0x280 ;
        /*0090*/                   VIADD R0, R7, 0xffffffff ;
        /*00a0*/                   ISETP.GE.U32.AND P0, PT, R0, 0x3, PT ;
        /*00b0*/                   LOP3.LUT R0, R7, 0x3, RZ, 0xc0, !PT ;
        /*00c0*/              @!P0 BRA 0x220 ;
        /*00d0*/                   IMAD.IADD R4, R7, 0x1, -R0 ;
        /*00e0*/                   ISETP.GT.AND P0, PT, R4, RZ, PT ;
        /*00f0*/              @!P0 BRA 0x1e0 ;
        /*0100*/                   ISETP.GT.AND P1, PT, R4, 0xc, PT ;
        /*0110*/                   PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0 ;
        /*0120*/              @!P1 BRA 0x180 ;
        /*0130*/                   PLOP3.LUT P0, PT, PT, PT, PT, 0x8, 0x0 ;
        /*0140*/                   VIADD R4, R4, 0xfffffff0 ;
        /*0150*/                   VIADD R5, R5, 0x70 ;
        /*0160*/                   ISETP.GT.AND P1, PT, R4, 0xc, PT ;
        /*0170*/               @P1 BRA 0x140 ;
        /*0180*/                   ISETP.GT.AND P1, PT, R4, 0x4, PT ;
        /*0190*/               @P1 VIADD R4, R4, 0xfffffff8 ;
        /*01a0*/               @P1 PLOP3.LUT P0, PT, PT, PT, PT, 0x8, 0x0 ;
        /*01b0*/               @P1 VIADD R5, R5, 0x38 ;
        /*01c0*/                   ISETP.NE.OR P0, PT, R4, RZ, P0 ;
        /*01d0*/              @!P0 BRA 0x220 ;
        /*01e0*/                   VIADD R4, R4, 0xfffffffc ;
        /*01f0*/                   VIADD R5, R5, 0x1c ;
        /*0200*/                   ISETP.NE.AND P0, PT, R4, RZ, PT ;
        /*0210*/               @P0 BRA 0x1e0 ;
        /*0220*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0230*/              @!P0 BRA 0x280 ;
        /*0240*/                   VIADD R0, R0, 0xffffffff ;
        /*0250*/                   VIADD R5, R5, 0x7 ;
        /*0260*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0270*/               @P0 BRA 0x240 ;
        /*0280*/                   STG.E desc[UR4][R2.64], R5 ;
        /*0290*/                   EXIT ;
        /*02a0*/                   BRA 0x2a0;
"#;

/// missing-volatile/bad-deleted-atomic.cu as written, as `cuobjdump -sass` prints it (with the
/// encodings): the atomic whose result is unused is gone.
const DELETED_ATOMIC_BEFORE: &str = r#"
	code for sm_90
	.target	sm_90

		Function : _Z5countPj
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;         /* 0x00000a00ff017b82 */
                                                                  /* 0x000fe20000000800 */
        /*0010*/                   MOV R2, 0x30 ;                 /* 0x0000003000027802 */
                                                                  /* 0x000fce0000000f00 */
        /*0020*/                   CALL.REL.NOINC 0x40 ;          /* 0x0000000000047944 */
                                                                  /* 0x000fea0003c00000 */
        /*0030*/                   EXIT ;                         /* 0x000000000000794d */
                                                                  /* 0x000fea0003800000 */
        /*0040*/                   HFMA2.MMA R3, -RZ, RZ, 0, 0 ;  /* 0x00000000ff037435 */
                                                                  /* 0x000fcc00000001ff */
        /*0050*/                   RET.REL.NODEC R2 0x0 ;         /* 0xfffffffc02e87950 */
                                                                  /* 0x000fea0003c3ffff */
        /*0060*/                   BRA 0x60;                      /* 0xfffffffc00fc7947 */
                                                                  /* 0x000fc0000383ffff */
        /*0070*/                   NOP;                           /* 0x0000000000007918 */
                                                                  /* 0x000fc00000000000 */
		..........
"#;

/// The same with `volatile`.
const DELETED_ATOMIC_AFTER: &str = r#"
	code for sm_90
	.target	sm_90

		Function : _Z5countPj
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                                /* 0x00000a00ff017b82 */
        /*0010*/                   MOV R4, 0x30 ;                                        /* 0x0000003000047802 */
        /*0020*/                   CALL.REL.NOINC 0x40 ;                                 /* 0x0000000000047944 */
        /*0030*/                   EXIT ;                                                /* 0x000000000000794d */
        /*0040*/                   LDC.64 R2, c[0x0][0x210] ;                            /* 0x00008400ff027b82 */
        /*0050*/                   IMAD.MOV.U32 R7, RZ, RZ, 0x1 ;                        /* 0x00000001ff077424 */
        /*0060*/                   HFMA2.MMA R5, -RZ, RZ, 0, 0 ;                         /* 0x00000000ff057435 */
        /*0070*/                   ULDC.64 UR4, c[0x0][0x208] ;                          /* 0x0000820000047ab9 */
        /*0080*/                   ATOM.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R7 ;  /* 0x0000000702ff798a */
        /*0090*/                   RET.REL.NODEC R4 0x0 ;                                /* 0xfffffffc04d87950 */
        /*00a0*/                   BRA 0xa0;                                             /* 0xfffffffc00fc7947 */
        /*00b0*/                   NOP;                                                  /* 0x0000000000007918 */
		..........
"#;

/// `nvdisasm -c` of the same cubin: labels instead of addresses.
const NVDISASM: &str = r#"
	.target	sm_90
//--------------------- .text._Z5countPj          --------------------------
	.section	.text._Z5countPj,"ax",@progbits
_Z5countPj:
.text._Z5countPj:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   MOV R2, 0x30 ;
        /*0020*/                   CALL.REL.NOINC `($_Z5countPj$_Z4bumpPj) ;
        /*0030*/                   EXIT ;
$_Z5countPj$_Z4bumpPj:
        /*0040*/                   HFMA2.MMA R3, -RZ, RZ, 0, 0 ;
.L_x_3:
        /*0050*/                   LDG.E R5, desc[UR4][R2.64] ;
        /*0060*/                   ISETP.NE.AND P0, PT, R5, RZ, PT ;
        /*0070*/               @P0 BRA `(.L_x_3) ;
        /*0080*/                   RET.REL.NODEC R2 `(_Z5countPj) ;
.L_x_0:
        /*0090*/                   BRA `(.L_x_0);
        /*00a0*/                   NOP;
.L_x_1:
//--------------------- SYMBOLS --------------------------
"#;

fn verdict(before: &str, after: &str, aspect: Aspect) -> Verdict {
    compare(&parse(before), &parse(after), aspect)
}

#[test]
fn parses_cuobjdump_with_encodings() {
    let f = parse(DELETED_ATOMIC_AFTER);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].target, "sm_90");
    assert_eq!(f[0].name, "_Z5countPj");
    let atom = &f[0].instructions[8];
    assert_eq!(atom.address, 0x80);
    assert_eq!(atom.opcode, "ATOM.E.ADD.STRONG.GPU");
    assert_eq!(atom.operands, ["PT", "RZ", "desc[UR4][R2.64]", "R7"]);
    assert!(atom.is_memory());
    assert_eq!(f[0].instructions[2].target, Some(0x40));
    // NOPs are padding, not code.
    assert!(f[0].instructions.iter().all(|i| i.opcode != "NOP"));
}

#[test]
fn deleted_atomic_bites() {
    let v = verdict(DELETED_ATOMIC_BEFORE, DELETED_ATOMIC_AFTER, Aspect::Memory);
    assert_eq!(v.name(), "bites", "{v:?}");
    assert!(v.detail().contains("ATOM: 0 -> 1"), "{v:?}");
    assert!(v.detail().starts_with("_Z5countPj: "), "{v:?}");
}

#[test]
fn hoisted_poll_bites_by_loop_placement() {
    // The same memory instructions in the same order: only the loop tells them apart.
    let (b, a) = (parse(HOISTED_POLL_BEFORE), parse(HOISTED_POLL_AFTER));
    let ops = |f: &Function| f.memory().into_iter().map(|(o, _)| o).collect::<Vec<_>>();
    assert_eq!(ops(&b[0]), ops(&a[0]));
    assert_eq!(b[0].loops(), [(0x60, 0xd0)]);
    let v = compare(&b, &a, Aspect::Memory);
    assert_eq!(v.name(), "bites", "{v:?}");
    assert!(v.detail().contains("inside loops"), "{v:?}");
    assert!(v.detail().contains("LD: 0 -> 1"), "{v:?}");
}

#[test]
fn merged_loads_bite() {
    let v = verdict(MERGED_LOAD_BEFORE, MERGED_LOAD_AFTER, Aspect::Memory);
    assert_eq!(v.name(), "bites", "{v:?}");
    assert!(v.detail().contains("LDG: 0 -> 2"), "{v:?}");
}

#[test]
fn shared_register_bites_only_for_the_register_aspect() {
    let v = verdict(LOOP_CARRIED_BEFORE, LOOP_CARRIED_AFTER, Aspect::Registers);
    assert_eq!(v.name(), "bites", "{v:?}");
    // The memory instructions are the same: a memory finding would not bite here.
    let m = verdict(LOOP_CARRIED_BEFORE, LOOP_CARRIED_AFTER, Aspect::Memory);
    assert_eq!(m.name(), "no-effect", "{m:?}");
    assert!(m.detail().contains("other instructions differ"), "{m:?}");
}

#[test]
fn renumbered_registers_are_no_effect() {
    // The same code with other register numbers: what a rebuild may print.
    let renumbered = LOOP_CARRIED_BEFORE
        .replace("R5", "R9")
        .replace("R4", "R5")
        .replace("R9", "R4")
        .replace("P1", "P3");
    assert_ne!(renumbered, LOOP_CARRIED_BEFORE);
    let v = verdict(LOOP_CARRIED_BEFORE, &renumbered, Aspect::Registers);
    assert_eq!(v.name(), "no-effect", "{v:?}");
    assert!(v.detail().contains("same machine code"), "{v:?}");
    // A different immediate is a different program.
    let other = LOOP_CARRIED_BEFORE.replace("0xe ;", "0xf ;");
    assert_eq!(
        verdict(LOOP_CARRIED_BEFORE, &other, Aspect::Registers).name(),
        "bites"
    );
}

#[test]
fn reads_nvdisasm_labels() {
    let f = parse(NVDISASM);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].name, "_Z5countPj");
    assert_eq!(f[0].target, "sm_90");
    // `@P0 BRA .L_x_3` goes back to the load: a loop; `BRA .L_x_0` to itself is padding.
    assert_eq!(f[0].loops(), [(0x50, 0x70)]);
    assert_eq!(f[0].memory(), [("LDG.E".to_string(), true)]);
}

#[test]
fn functions_match_across_targets_and_internal_names() {
    let two = format!(
        "Fatbin elf code:\n================\narch = sm_80\n{}\n{}",
        DELETED_ATOMIC_BEFORE.replace("sm_90", "sm_80"),
        DELETED_ATOMIC_AFTER
    );
    let f = parse(&two);
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].target.as_str(), f[1].target.as_str()),
        ("sm_80", "sm_90")
    );
    // Each target is compared with the same target only.
    let v = compare(&f, &f, Aspect::Memory);
    assert_eq!(v.name(), "no-effect", "{v:?}");
    let a = Function {
        target: "sm_90".into(),
        name: "_ZN45_INTERNAL_1a2b3c4d_7_k_cu_5f3e0d1a4pollEPj".into(),
        instructions: vec![],
    };
    let b = Function {
        name: "_ZN45_INTERNAL_99990000_7_k_cu_5f3e0d1a4pollEPj".into(),
        ..a.clone()
    };
    assert_eq!(a.key(), b.key());
}

#[test]
fn nothing_to_compare_is_not_decidable() {
    assert_eq!(
        verdict("", DELETED_ATOMIC_AFTER, Aspect::Memory).name(),
        "not-decidable"
    );
    assert_eq!(
        verdict("garbage\n/*zz*/ X ;\n", "", Aspect::Registers).name(),
        "not-decidable"
    );
}

#[test]
fn a_function_only_one_build_has_bites() {
    let other = DELETED_ATOMIC_AFTER.replace("_Z5countPj", "_Z5otherPj");
    let v = verdict(DELETED_ATOMIC_AFTER, &other, Aspect::Memory);
    assert_eq!(v.name(), "bites", "{v:?}");
    assert!(v.detail().contains("only without the fix"), "{v:?}");
}
