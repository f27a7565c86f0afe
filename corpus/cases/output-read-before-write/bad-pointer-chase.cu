// output-read-before-write: a linked-list step that loads the next pointer through the "=l"
// output itself: the address is garbage, the pointer was never loaded into the register.
struct Node {
  Node* next;
  int value;
};

__device__ Node* step(Node* n) {
  asm volatile("ld.u64 %0, [%0];"  // expect: output-read-before-write
               : "=l"(n)
               :
               : "memory");
  return n;
}

__global__ void k(Node* head, int* out) {
  out[threadIdx.x] = step(head)->value;
}
