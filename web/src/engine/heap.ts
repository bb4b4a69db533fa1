// heap.ts — how much of an Emscripten module's heap is in use, for the memory checks (the worker's
// 'memory' reply, protocol.ts; tests/robustness). Allocates 64 KiB blocks until the heap would grow,
// then frees them: exact to one block for leaks at the top or in the middle of the heap. The scan
// may grow the heap by one step; `heapBytesAfter` is the size after it.

export interface HeapModule {
  HEAP8: Int8Array;
  _malloc(n: number): number;
  _free(p: number): void;
}

export interface HeapUse {
  /** HEAP8.length: the size of the wasm memory */
  heapBytes: number;
  /** bytes of the heap in use (allocator bookkeeping included) */
  usedBytes: number;
  /** HEAP8.length after the measurement */
  heapBytesAfter: number;
}

export function heapInUse(m: HeapModule): HeapUse {
  const size = m.HEAP8.length;
  const B = 64 << 10;
  const blocks: number[] = [];
  let free = 0;
  for (let i = 0; i < 40000; i++) {
    const p = m._malloc(B);
    if (!p) break;
    blocks.push(p);
    if (m.HEAP8.length !== size) break;
    free += B;
  }
  for (const p of blocks) m._free(p);
  return { heapBytes: size, usedBytes: size - free, heapBytesAfter: m.HEAP8.length };
}
