// unsupported-constraint (error): `"n"` bound to a local variable that is not `constexpr`.
__device__ void wait_for(bool last_stage) {
  int pending = last_stage ? 0 : 1;
  asm volatile("cp.async.wait_group %0;" :: "n"(pending) : "memory");  // expect: unsupported-constraint(error)
}
