# Not loud: the signalling CAS runs only in the threads the guard picks by their index
# (`if flat_tid < WORLD_SIZE:`), one per peer: which replicated copies run is the author's
# choice here, not Triton's layout (info).
import triton
import triton.language as tl


@triton.jit
def get_flat_tid():
    return tl.inline_asm_elementwise("mov.u32 $0, %tid.x;", "=r", [], dtype=tl.int32, is_pure=True, pack=1)


@triton.jit
def barrier(signal_pads, RANK: tl.constexpr, WORLD_SIZE: tl.constexpr):
    remote_ranks = tl.arange(0, WORLD_SIZE)
    send_addrs = tl.load(signal_pads + remote_ranks).to(tl.pointer_type(tl.uint32)) + RANK
    flat_tid = get_flat_tid()
    if flat_tid < WORLD_SIZE:
        tl.inline_asm_elementwise(  # expect@+6: elementwise-side-effect(info)
            """
            {
                .reg .u32 old;
                .reg .pred done;
            send:
                atom.global.release.sys.cas.b32 old, [$1], 0, 1;
                setp.eq.u32 done, old, 0;
                @!done bra send;
            }
            """,
            "=r, l",
            [send_addrs],
            dtype=tl.int32,
            is_pure=False,
            pack=1,
        )


USED = [barrier]
