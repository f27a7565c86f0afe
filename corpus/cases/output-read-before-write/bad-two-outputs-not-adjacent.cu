// output-read-before-write: `%0` and `%2` are read by the first instruction before anything
// writes them; `%1` is not. One finding names the two, not a range that would take in `%1`.
__device__ void step(float& a, float& b, float& c) {
  asm("add.f32 %0, %0, %2;\n mov.f32 %1, 0f00000000;\n mov.f32 %2, 0f3F800000;"  // expect: output-read-before-write
      : "=f"(a), "=f"(b), "=f"(c));
}
