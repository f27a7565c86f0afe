# Two results at pack=4: int32 takes four registers, float32 four more; the uint8 input is
# packed into one register and the float32 input takes four.
import triton
import triton.language as tl


@triton.jit
def widen(A, B, C, D, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    c, d = tl.inline_asm_elementwise(
        asm="""
        {
            .reg .b8 t<4>;
            mov.b32 {t0, t1, t2, t3}, $8;
            cvt.u32.u8 $0, t0;
            cvt.u32.u8 $1, t1;
            cvt.u32.u8 $2, t2;
            cvt.u32.u8 $3, t3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """,
        constraints=("=r,=r,=r,=r,=r,=r,=r,=r,"
                     "r,r,r,r,r"),
        args=[a, b],
        dtype=(tl.int32, tl.float32),
        is_pure=True,
        pack=4,
    )
    tl.store(C + offs, c)
    tl.store(D + offs, d)
