"""C++ in Python strings, confirmed through cupy (NVRTC, not nvcc): each case's C++ runs
flawed and fixed in a child process and prints one JSON line with what happened. Written for
the ptxguard project. `confirm_cupy.py NAME...` runs the named cases only."""
import json, subprocess, sys, textwrap

PRELUDE = textwrap.dedent('''
    import cupy as cp
    def launch(code, name, args, n=1):
        k = cp.RawKernel(code, name)
        k((1,), (n,), args)
        cp.cuda.runtime.deviceSynchronize()
''')

CASES = {}

def case(name, flawed, fixed, expect):
    CASES[name] = (flawed, fixed, expect)

# address-register-width: a global address cut to 32 bits ("r") for ld.global.
ADDR = r'''
code = r"""
extern "C" __global__ void k(const unsigned *p, unsigned *out) {
    unsigned v;
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : OPERAND);
    out[0] = v;
}
"""
src = cp.full(1, 42, dtype=cp.uint32); out = cp.zeros(1, dtype=cp.uint32)
launch(code, "k", (src, out))
print("RESULT", int(out[0]))
'''
case("address-register-width", ADDR.replace("OPERAND", '"r"((unsigned)(size_t)p)'),
     ADDR.replace("OPERAND", '"l"(p)'), "flawed: compile or load error; fixed: 42")

# unsupported-constraint: a matching constraint ("0"), measured rejected by nvcc 13.0.
TIE = r'''
code = r"""
extern "C" __global__ void k(unsigned *out, unsigned x, unsigned y) {
    BODY
    out[0] = r;
}
"""
out = cp.zeros(1, dtype=cp.uint32)
launch(code, "k", (out, cp.uint32(40), cp.uint32(2)))
print("RESULT", int(out[0]))
'''
case("unsupported-constraint", TIE.replace("BODY", 'unsigned r; asm("add.u32 %0, %0, %2;" : "=r"(r) : "0"(x), "r"(y));'),
     TIE.replace("BODY", 'unsigned r = x; asm("add.u32 %0, %0, %1;" : "+r"(r) : "r"(y));'), "flawed: NVRTC error; fixed: 42")

# percent-escape: `%laneid` needs `%%` in C++ asm (one `%` starts an operand reference).
LANE = r'''
code = r"""
extern "C" __global__ void k(unsigned *out) {
    unsigned v;
    asm volatile(ASM : "=r"(v));
    out[threadIdx.x] = v;
}
"""
out = cp.zeros(32, dtype=cp.uint32)
launch(code, "k", (out,), 32)
print("RESULT", bool((out == cp.arange(32, dtype=cp.uint32)).all()))
'''
case("percent-escape", LANE.replace("ASM", '"mov.u32 %0, %laneid;"'),
     LANE.replace("ASM", '"mov.u32 %0, %%laneid;"'), "flawed: NVRTC or ptxas error; fixed: lane ids")

# write-to-input: the asm adds 1 to the register of input x, and x is used after it.
W2I = r'''
code = r"""
extern "C" __global__ void k(const unsigned *in, unsigned *out) {
    unsigned x = in[threadIdx.x], r;
    asm volatile(ASM : "=r"(r) : "r"(x));
    out[threadIdx.x] = r + x;
}
"""
inp = cp.arange(32, dtype=cp.uint32); out = cp.zeros(32, dtype=cp.uint32)
launch(code, "k", (inp, out), 32)
print("RESULT", bool((out == 2 * inp + 1).all()), out[:3].tolist())
'''
case("write-to-input", W2I.replace("ASM", '"add.u32 %1, %1, 1; mov.b32 %0, %1;"'),
     W2I.replace("ASM", '"{ .reg .b32 t; add.u32 t, %1, 1; mov.b32 %0, t; }"'), "flawed: 2x + 2 if x's register changed; fixed: 2x + 1")

def run(src):
    try:
        p = subprocess.run([sys.executable, "-c", PRELUDE + src], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return {"rc": "timeout"}
    out = (p.stdout + p.stderr).strip().splitlines()
    result = [l for l in out if l.startswith("RESULT")]
    errors = [l for l in out if any(w in l for w in ("rror", "ssert", "fatal", "ptxas"))]
    return {"rc": p.returncode, "result": result[-1] if result else None, "errors": errors[-4:]}

print(json.dumps({"cupy": __import__("cupy").__version__}), flush=True)
for name, (flawed, fixed, expect) in CASES.items():
    if sys.argv[1:] and name not in sys.argv[1:]:
        continue
    print(json.dumps({"case": name, "expect": expect, "flawed": run(flawed), "fixed": run(fixed)}), flush=True)
