"""Python (Triton) confirmations for ptxguard: each case runs flawed and fixed in a child
process and prints one JSON line with what happened. Written for the ptxguard project."""
import json, subprocess, sys, textwrap

PRELUDE = textwrap.dedent('''
    import torch, triton, triton.language as tl
    dev = "cuda"
''')

CASES = {}

def case(name, flawed, fixed, expect):
    CASES[name] = (flawed, fixed, expect)

# pack-mismatch: int8 with pack=4 packs four elements into one 32-bit register: one output and
# one input register, "=r,r". Declaring four of each does not match what Triton builds.
PACK = '''
@triton.jit
def k(X, Y, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", CONSTRAINTS, [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(Y + o, y)
x = torch.arange(128, dtype=torch.int8, device=dev)
y = torch.zeros_like(x)
k[(1,)](x, y, 128)
torch.cuda.synchronize()
print("RESULT", bool((y == x).all().item()))
'''
case("pack-mismatch", PACK.replace("CONSTRAINTS", '"=r,=r,=r,=r,r,r,r,r"'),
     PACK.replace("CONSTRAINTS", '"=r,r"'), "flawed: compile error or crash; fixed: y == x")

# elementwise-side-effect: a reduction in inline_asm_elementwise runs once per element the
# thread holds, replicated elements included: 32 elements in 4 warps (128 threads).
SIDE = '''
@triton.jit
def k(C, N: tl.constexpr):
    o = tl.arange(0, N)
    p = C + o * 0
    r = tl.inline_asm_elementwise("red.global.add.u32 [$1], 1; mov.u32 $0, 0;", "=r,l", [p], dtype=tl.int32, is_pure=False, pack=1)
c = torch.zeros(1, dtype=torch.int32, device=dev)
k[(1,)](c, 32, num_warps=4)
torch.cuda.synchronize()
print("RESULT", c.item())
'''
SIDE_FIXED = '''
@triton.jit
def k(C, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.atomic_add(C + o * 0, 1)
c = torch.zeros(1, dtype=torch.int32, device=dev)
k[(1,)](c, 32, num_warps=4)
torch.cuda.synchronize()
print("RESULT", c.item())
'''
case("elementwise-side-effect", SIDE, SIDE_FIXED, "32 elements: flawed counts more than 32, fixed 32")

# missing-volatile: is_pure=True with an atomic whose result is unused.
PURE = '''
@triton.jit
def k(C, N: tl.constexpr):
    o = tl.arange(0, N)
    p = C + o * 0
    r = tl.inline_asm_elementwise("atom.global.add.u32 $0, [$1], 1;", "=r,l", [p], dtype=tl.int32, is_pure=PURE, pack=1)
c = torch.zeros(1, dtype=torch.int32, device=dev)
k[(1,)](c, 128, num_warps=4)
torch.cuda.synchronize()
print("RESULT", c.item())
'''
case("missing-volatile", PURE.replace("PURE", "True"), PURE.replace("PURE", "False"), "flawed: 0 (deleted); fixed: 128")

# unscoped-declaration: 256 elements over 128 threads: the asm is emitted twice in one function.
REG = '''
@triton.jit
def k(X, Y, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.inline_asm_elementwise(ASM, "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Y + o, y)
x = torch.arange(256, dtype=torch.int32, device=dev)
y = torch.zeros_like(x)
k[(1,)](x, y, 256, num_warps=4)
torch.cuda.synchronize()
print("RESULT", bool((y == x + 1).all().item()))
'''
case("unscoped-declaration", REG.replace("ASM", '".reg .b32 t; add.u32 t, $1, 1; mov.b32 $0, t;"'),
     REG.replace("ASM", '"{ .reg .b32 t; add.u32 t, $1, 1; mov.b32 $0, t; }"'), "flawed: ptxas duplicate definition; fixed: y == x + 1 (braces under Triton's AD_ATT)")

# early-clobber: $0 written before $1 is read, without `&`.
EC = '''
@triton.jit
def k(X, Y, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.inline_asm_elementwise("mov.u32 $0, 7; add.u32 $0, $0, $1;", CONS, [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Y + o, y)
x = torch.full((128,), 100, dtype=torch.int32, device=dev)
y = torch.zeros_like(x)
k[(1,)](x, y, 128, num_warps=4)
torch.cuda.synchronize()
print("RESULT", y[0].item())
'''
case("early-clobber", EC.replace("CONS", '"=r,r"'), EC.replace("CONS", '"=&r,r"'), "107 when output and input do not share a register, 14 when they do")

# operand-index: $2 with two operands.
IDX = '''
@triton.jit
def k(X, Y, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.inline_asm_elementwise(ASM, "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Y + o, y)
x = torch.arange(128, dtype=torch.int32, device=dev)
y = torch.zeros_like(x)
k[(1,)](x, y, 128, num_warps=4)
torch.cuda.synchronize()
print("RESULT", bool((y == x).all().item()))
'''
case("operand-index", IDX.replace("ASM", '"mov.b32 $0, $2;"'), IDX.replace("ASM", '"mov.b32 $0, $1;"'), "flawed: error; fixed: y == x")

# percent-escape: `%%laneid` reaches ptxas as written; `%laneid` is right in LLVM syntax.
PCT = '''
@triton.jit
def k(Y, N: tl.constexpr):
    o = tl.arange(0, N)
    y = tl.inline_asm_elementwise(ASM, "=r", [], dtype=tl.int32, is_pure=False, pack=1)
    tl.store(Y + o, y)
y = torch.full((32,), -1, dtype=torch.int32, device=dev)
k[(1,)](y, 32, num_warps=1)
torch.cuda.synchronize()
print("RESULT", bool((y == torch.arange(32, device=dev, dtype=torch.int32)).all().item()))
'''
case("percent-escape", PCT.replace("ASM", '"mov.u32 $0, %%laneid;"'), PCT.replace("ASM", '"mov.u32 $0, %laneid;"'), "flawed: ptxas error; fixed: lane ids")

# operand-size-mismatch: int16 at pack=2 is two elements in one 32-bit register; `h` is 16 bits.
SIZE = (PACK.replace("CONSTRAINTS", "CONS").replace("tl.int8", "tl.int16")
        .replace("pack=4", "pack=2").replace("torch.int8", "torch.int16"))
case("operand-size-mismatch", SIZE.replace("CONS", '"=h,h"'), SIZE.replace("CONS", '"=r,r"'), "flawed: LLVM abort or ptxas error; fixed: y == x")

# output-read-before-write: the fma reads $0 as its addend; with "=f" nothing passes y in.
# Fixed: y tied to the output ("0").
ORBW = '''
@triton.jit
def k(A, X, Y, Z, N: tl.constexpr):
    o = tl.arange(0, N)
    a, x, y = tl.load(A + o), tl.load(X + o), tl.load(Y + o)
    z = tl.inline_asm_elementwise("fma.rn.f32 $0, $1, $2, $0;", CONS, ARGS, dtype=tl.float32, is_pure=True, pack=1)
    tl.store(Z + o, z)
a = torch.full((128,), 2.0, device=dev)
x = torch.arange(128, dtype=torch.float32, device=dev)
y = torch.full((128,), 1000.0, device=dev)
z = torch.zeros_like(x)
k[(1,)](a, x, y, z, 128, num_warps=4)
torch.cuda.synchronize()
print("RESULT", bool((z == a * x + y).all().item()), z[:3].tolist())
'''
case("output-read-before-write", ORBW.replace("CONS", '"=f,f,f"').replace("ARGS", "[a, x]"),
     ORBW.replace("CONS", '"=f,f,f,0"').replace("ARGS", "[a, x, y]"), "flawed: z != a * x + y (the addend is garbage); fixed: z == a * x + y")

# write-to-input: the asm adds 1 to $1, the register that holds x; x is used again after it.
W2I = '''
@triton.jit
def k(X, Y, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    r = tl.inline_asm_elementwise(ASM, "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Y + o, r + x)
x = torch.arange(128, dtype=torch.int32, device=dev)
y = torch.zeros_like(x)
k[(1,)](x, y, 128, num_warps=4)
torch.cuda.synchronize()
print("RESULT", bool((y == 2 * x + 1).all().item()), y[:3].tolist())
'''
case("write-to-input", W2I.replace("ASM", '"add.u32 $1, $1, 1; mov.b32 $0, $1;"'),
     W2I.replace("ASM", '"{ .reg .b32 t; add.u32 t, $1, 1; mov.b32 $0, t; }"'), "flawed: y != 2x + 1 if x's register was changed (outcome not known); fixed: y == 2x + 1")

# address-register-width: a pointer tensor given a 32-bit `r` register as ld.global's address
# (Triton's inputs carry no dtype in the call; what LLVM and ptxas do with it is not measured).
ADDR = '''
@triton.jit
def k(X, Y, N: tl.constexpr):
    o = tl.arange(0, N)
    y = tl.inline_asm_elementwise("ld.global.b32 $0, [$1];", CONS, [X + o], dtype=tl.int32, is_pure=False, pack=1)
    tl.store(Y + o, y)
x = torch.arange(128, dtype=torch.int32, device=dev)
y = torch.zeros_like(x)
k[(1,)](x, y, 128, num_warps=4)
torch.cuda.synchronize()
print("RESULT", bool((y == x).all().item()))
'''
case("address-register-width", ADDR.replace("CONS", '"=r,r"'), ADDR.replace("CONS", '"=r,l"'), "flawed: compile error, crash or wrong values; fixed: y == x")

# conditional-output: `$0` written only when the input is 34; `selp` writes it on every path.
COND = '''
@triton.jit
def k(X, Y, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.inline_asm_elementwise(ASM, "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Y + o, y)
x = torch.arange(128, dtype=torch.int32, device=dev)
y = torch.full_like(x, -1)
k[(1,)](x, y, 128, num_warps=4)
torch.cuda.synchronize()
print("RESULT", bool((y == (x == 34).int()).all().item()), y[:4].tolist(), y[34].item())
'''
case("conditional-output", COND.replace("ASM", '"{ .reg .pred p; setp.eq.s32 p, $1, 34; @p mov.s32 $0, 1; }"'),
     COND.replace("ASM", '"{ .reg .pred p; setp.eq.s32 p, $1, 34; selp.s32 $0, 1, 0, p; }"'), "flawed: y[i] for i != 34 is not 0 (whatever the register held); fixed: 1 at 34, 0 elsewhere")

def run(src):
    import tempfile, os
    # Triton reads a @jit function's source from its file.
    fd, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(fd, "w") as f:
        f.write(PRELUDE + src)
    try:
        p = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return {"rc": "timeout"}
    out = (p.stdout + p.stderr).strip().splitlines()
    result = [l for l in out if l.startswith("RESULT")]
    errors = [l for l in out if any(w in l for w in ("rror", "ssert", "fatal", "Abort", "ptxas", "LLVM"))]
    return {"rc": p.returncode, "result": result[-1] if result else None, "errors": errors[-6:]}

print(json.dumps({"torch": __import__("torch").__version__, "triton": __import__("triton").__version__,
                  "gpu": __import__("torch").cuda.get_device_name()}), flush=True)
# Named cases only when names are given (`confirm_triton.py write-to-input ...`).
for name, (flawed, fixed, expect) in CASES.items():
    if sys.argv[1:] and name not in sys.argv[1:]:
        continue
    print(json.dumps({"case": name, "expect": expect, "flawed": run(flawed), "fixed": run(fixed)}), flush=True)
