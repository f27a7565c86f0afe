# C++ in a cupy RawModule: the grid-dependency wait sits in a helper the kernel calls right
# before loading the producer's output; the call is code in the Python string (the twin of
# `bad-info-wait-helper-named-only-in-a-comment.cu`, where the name is only in a comment).
import cupy

MODULE = cupy.RawModule(code=r'''
__device__ __forceinline__ void wait_for_producer() { asm volatile("griddepcontrol.wait;"); }  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
extern "C" __global__ void consume(const float* produced, float* out) {
  wait_for_producer();
  out[threadIdx.x] = produced[threadIdx.x];
}
''')
