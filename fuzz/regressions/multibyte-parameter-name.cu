template <int Bytes>
__device__ void copy(unsigned dst, const void* séc) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(dst), "l"(src), "n"(Bytes) : "memory");
}
