// Front end: 64 operands (32 "+r" accumulators and 32 inputs); %64 is one past the end.
__device__ void add32(unsigned (&acc)[32], const unsigned (&d)[32]) {
  asm("{\n\t"
      "add.u32 %0, %0, %32;\n\t"
      "add.u32 %1, %1, %33;\n\t"
      "add.u32 %2, %2, %34;\n\t"
      "add.u32 %3, %3, %35;\n\t"
      "add.u32 %4, %4, %36;\n\t"
      "add.u32 %5, %5, %37;\n\t"
      "add.u32 %6, %6, %38;\n\t"
      "add.u32 %7, %7, %39;\n\t"
      "add.u32 %8, %8, %40;\n\t"
      "add.u32 %9, %9, %41;\n\t"
      "add.u32 %10, %10, %42;\n\t"
      "add.u32 %11, %11, %43;\n\t"
      "add.u32 %12, %12, %44;\n\t"
      "add.u32 %13, %13, %45;\n\t"
      "add.u32 %14, %14, %46;\n\t"
      "add.u32 %15, %15, %47;\n\t"
      "add.u32 %16, %16, %48;\n\t"
      "add.u32 %17, %17, %49;\n\t"
      "add.u32 %18, %18, %50;\n\t"
      "add.u32 %19, %19, %51;\n\t"
      "add.u32 %20, %20, %52;\n\t"
      "add.u32 %21, %21, %53;\n\t"
      "add.u32 %22, %22, %54;\n\t"
      "add.u32 %23, %23, %55;\n\t"
      "add.u32 %24, %24, %56;\n\t"
      "add.u32 %25, %25, %57;\n\t"
      "add.u32 %26, %26, %58;\n\t"
      "add.u32 %27, %27, %59;\n\t"
      "add.u32 %28, %28, %60;\n\t"
      "add.u32 %29, %29, %61;\n\t"
      "add.u32 %30, %30, %62;\n\t"
      "add.u32 %31, %31, %63;\n\t"
      "add.u32 %31, %31, %64;\n\t"  // expect: operand-index
      "}"
      : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]),
        "+r"(acc[6]), "+r"(acc[7]), "+r"(acc[8]), "+r"(acc[9]), "+r"(acc[10]), "+r"(acc[11]),
        "+r"(acc[12]), "+r"(acc[13]), "+r"(acc[14]), "+r"(acc[15]), "+r"(acc[16]), "+r"(acc[17]),
        "+r"(acc[18]), "+r"(acc[19]), "+r"(acc[20]), "+r"(acc[21]), "+r"(acc[22]), "+r"(acc[23]),
        "+r"(acc[24]), "+r"(acc[25]), "+r"(acc[26]), "+r"(acc[27]), "+r"(acc[28]), "+r"(acc[29]),
        "+r"(acc[30]), "+r"(acc[31])
      : "r"(d[0]), "r"(d[1]), "r"(d[2]), "r"(d[3]), "r"(d[4]), "r"(d[5]), "r"(d[6]), "r"(d[7]),
        "r"(d[8]), "r"(d[9]), "r"(d[10]), "r"(d[11]), "r"(d[12]), "r"(d[13]), "r"(d[14]),
        "r"(d[15]), "r"(d[16]), "r"(d[17]), "r"(d[18]), "r"(d[19]), "r"(d[20]), "r"(d[21]),
        "r"(d[22]), "r"(d[23]), "r"(d[24]), "r"(d[25]), "r"(d[26]), "r"(d[27]), "r"(d[28]),
        "r"(d[29]), "r"(d[30]), "r"(d[31]));
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned acc[32], d[32];
  for (int i = 0; i < 32; ++i) {
    acc[i] = out[threadIdx.x * 32 + i];
    d[i] = in[threadIdx.x * 32 + i];
  }
  add32(acc, d);
  for (int i = 0; i < 32; ++i) out[threadIdx.x * 32 + i] = acc[i];
}
