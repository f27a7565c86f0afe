# C++ compiled with cuda.core's Program: `st.bulk.weak` without `.shared::cta` takes a generic
# address, but `dst` is a 32-bit shared-window offset (ptxas accepts the register, so only the
# ISA says it is wrong). As in a .cu file, with no fix: which form was meant is the author's call.
from cuda.core.experimental import Program, ProgramOptions

ZERO_TILE = """
#include <cstdint>
extern "C" __global__ void zero_tile(unsigned bytes) {
    extern __shared__ char smem[];
    uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    asm volatile("st.bulk.weak [%0], %1, 0;" :: "r"(dst), "l"(uint64_t(bytes)) : "memory");  // expect: generic-address(info)
}
"""

program = Program(ZERO_TILE, code_type="c++", options=ProgramOptions(arch="sm_100a"))
