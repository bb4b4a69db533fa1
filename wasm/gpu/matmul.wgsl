// matmul.wgsl — C = alpha·op(A)·op(B) + beta·C, row-major with leading dimensions, batched over
// workgroup z (per-batch element strides), as gemm.h on the CPU. op(A) is M×K (A is M×K, or K×M
// when TA); op(B) is K×N (B is K×N, or N×K when TB). beta = 0 never reads C. With P.bias set, then
// C[row][col] += Bias[col] (a Linear layer's bias: before, an add_row_vector dispatch of its own;
// the same operations in the same order, so the same bits; the host binds A there when there is none).
// Binding 5, Aux (batch 1 only; a scratch float the kernel leaves alone when P.aux = 0):
//   P.aux = 1: Aux[row] += Σ_k op(A)[row][k] (a Linear layer's bias gradient, summed over the rows of
//              dout in the dW product: before, a column_sums dispatch of its own; the same additions in
//              the same order, k = 0, 1, …, into a sum that starts at 0 and is then added to Aux)
//   P.aux = 2: Aux[i] = ReLU(C[i]) as relu_forward writes it (an FFN's first Linear: C = pre, Aux = h)
// Binding 6, Cin (batch 1 only; A again when P.cin = 0):
//   P.cin = 1: β·C reads C's old values from Cin (a sublayer's sum: out = res + inp·Wᵀ + b, where the
//              model copied res into C first)
//   P.cin = 2: C[i] = C[i] where Cin[i] > 0, else 0, as relu_backward writes it (dout·W2 of an FFN
//              masked by the forward's pre: d_pre without d_h)
// Each is the same operations in the same order as the dispatches it replaces: the same bits.
//
// Tiling: a workgroup computes a 64×64 tile of C with 16×16 threads, each a 4×4 block; K advances
// 16 at a time through two workgroup tiles As (16×64) and Bs (16×64), stored as vec4 along m / n so
// the inner loop is 16 vec4 multiply-adds per k. Global loads: `matmul_vec4` reads A and B as
// vec4 along their contiguous dimension (needs that dimension, the leading dimension and the
// offsets to be multiples of 4; the host checks); `matmul_scalar` reads the same tiles one float
// at a time with bounds checks on every element, for any shape.
// TA / TB are uniforms (P.tA, P.tB; the same in every thread, so a branch on them does not diverge),
// not override constants: 2 pipelines instead of 8. Compiling a pipeline of this kernel is what costs
// (about 0.85 CPU-s each on SwiftShader, the same with both transpositions' code in it), and the
// start-up self-test compiles every one it tests: 7.2 → 2.2 CPU-s for the matmul check there, the
// same bits (tests/gpu-node/compare-builds.mjs, 2026-12-07).
// Leaves out: split-K, register double buffering, subgroup ops, f16.
struct Params {
  M: u32, N: u32, K: u32, lda: u32,
  ldb: u32, ldc: u32, aux: u32, cin: u32,
  bias: u32, strideA: u32, strideB: u32, strideC: u32,
  alpha: f32, beta: f32, tA: u32, tB: u32,
};

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> A4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> B4: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> A1: array<f32>;
@group(0) @binding(2) var<storage, read> B1: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
@group(0) @binding(4) var<storage, read> Bias: array<f32>;
@group(0) @binding(5) var<storage, read_write> Aux: array<f32>;
@group(0) @binding(6) var<storage, read> Cin: array<f32>;

var<workgroup> As: array<vec4<f32>, 256>;  // [k * 16 + m / 4][m % 4]
var<workgroup> Bs: array<vec4<f32>, 256>;  // [k * 16 + n / 4][n % 4]

// Where thread lid of workgroup wid works: its 4×4 block (tx, ty) of the 64×64 tile of C at row m0,
// column n0 of batch element z; t, its index in the workgroup (what it loads of the A and B tiles);
// baseA and baseB, where batch element z starts in A and B.
struct Tile { tx: u32, ty: u32, t: u32, m0: u32, n0: u32, z: u32, baseA: u32, baseB: u32 };

fn tile_of(lid: vec3<u32>, wid: vec3<u32>) -> Tile {
  let z = wid.z;
  return Tile(lid.x, lid.y, lid.y * 16u + lid.x, wid.y * 64u, wid.x * 64u, z, z * P.strideA, z * P.strideB);
}

// Which element of a 64×16 (or 16×64) tile thread t loads: along the contiguous dimension 4 at a
// time. "Row-contiguous" tiles (contiguous along k): row t / 4, k (t % 4)·4. "Column-contiguous"
// (contiguous along m or n): k t / 16, column (t % 16)·4.
fn store_k_contig(dst_is_a: bool, row: u32, k: u32, v: vec4<f32>) {
  for (var i = 0u; i < 4u; i++) {
    if (dst_is_a) { As[(k + i) * 16u + row / 4u][row % 4u] = v[i]; }
    else { Bs[(k + i) * 16u + row / 4u][row % 4u] = v[i]; }
  }
}

// Thread (tx, ty)'s 4×4 block of C += the As and Bs tiles' 16 steps of k, once every thread has
// stored its part of the tiles; the second barrier keeps them until every thread has read them.
// With P.aux = 1, the threads of column 0 of the first column of tiles also add their 4 rows of the
// As tile, k in order, into rs (the tiles are 0 past K: adding 0 changes no sum).
fn multiply_tiles(w: Tile, acc: ptr<function, array<vec4<f32>, 4>>, rs: ptr<function, vec4<f32>>) {
  workgroupBarrier();
  for (var k = 0u; k < 16u; k++) {
    let a = As[k * 16u + w.ty];
    let b = Bs[k * 16u + w.tx];
    (*acc)[0] += a.x * b;
    (*acc)[1] += a.y * b;
    (*acc)[2] += a.z * b;
    (*acc)[3] += a.w * b;
  }
  if (sums_rows(w)) {
    for (var k = 0u; k < 16u; k++) { *rs += As[k * 16u + w.ty]; }
  }
  workgroupBarrier();
}

fn sums_rows(w: Tile) -> bool { return P.aux == 1u && w.n0 == 0u && w.tx == 0u; }

fn epilogue(w: Tile, acc: array<vec4<f32>, 4>, rs: vec4<f32>) {
  for (var i = 0u; i < 4u; i++) {
    let row = w.m0 + w.ty * 4u + i;
    if (row >= P.M) { continue; }
    if (sums_rows(w)) { Aux[row] += rs[i]; }
    for (var j = 0u; j < 4u; j++) {
      let col = w.n0 + w.tx * 4u + j;
      if (col >= P.N) { continue; }
      let idx = w.z * P.strideC + row * P.ldc + col;
      var c = P.alpha * acc[i][j];
      if (P.cin == 1u) { c += P.beta * Cin[idx]; }
      else if (P.beta != 0.0) { c += P.beta * C[idx]; }
      if (P.bias != 0u) { c += Bias[col]; }
      if (P.cin == 2u) { c = select(0.0, c, Cin[idx] > 0.0); }
      C[idx] = c;
      if (P.aux == 2u) { Aux[idx] = select(0.0, c, c > 0.0); }
    }
  }
}

@compute @workgroup_size(16, 16)
fn matmul_vec4(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = tile_of(lid, wid);
  var acc: array<vec4<f32>, 4>;
  var rs = vec4<f32>(0.0);
  for (var k0 = 0u; k0 < P.K; k0 += 16u) {
    // A tile
    if (P.tA != 0u) {  // A is K×M: contiguous along m
      let k = w.t / 16u;
      let m = (w.t % 16u) * 4u;
      var v = vec4<f32>(0.0);
      if (k0 + k < P.K && w.m0 + m < P.M) { v = A4[(w.baseA + (k0 + k) * P.lda + w.m0 + m) / 4u]; }
      As[k * 16u + m / 4u] = v;
    } else {  // A is M×K: contiguous along k
      let m = w.t / 4u;
      let k = (w.t % 4u) * 4u;
      var v = vec4<f32>(0.0);
      if (w.m0 + m < P.M && k0 + k < P.K) { v = A4[(w.baseA + (w.m0 + m) * P.lda + k0 + k) / 4u]; }
      store_k_contig(true, m, k, v);
    }
    // B tile
    if (P.tB != 0u) {  // B is N×K: contiguous along k
      let n = w.t / 4u;
      let k = (w.t % 4u) * 4u;
      var v = vec4<f32>(0.0);
      if (w.n0 + n < P.N && k0 + k < P.K) { v = B4[(w.baseB + (w.n0 + n) * P.ldb + k0 + k) / 4u]; }
      store_k_contig(false, n, k, v);
    } else {  // B is K×N: contiguous along n
      let k = w.t / 16u;
      let n = (w.t % 16u) * 4u;
      var v = vec4<f32>(0.0);
      if (k0 + k < P.K && w.n0 + n < P.N) { v = B4[(w.baseB + (k0 + k) * P.ldb + w.n0 + n) / 4u]; }
      Bs[k * 16u + n / 4u] = v;
    }
    multiply_tiles(w, &acc, &rs);
  }
  epilogue(w, acc, rs);
}

// op(A)[m][k] and op(B)[k][n] with zero outside the matrix.
fn load_a(base: u32, m: u32, k: u32) -> f32 {
  if (m >= P.M || k >= P.K) { return 0.0; }
  if (P.tA != 0u) { return A1[base + k * P.lda + m]; }
  return A1[base + m * P.lda + k];
}
fn load_b(base: u32, k: u32, n: u32) -> f32 {
  if (k >= P.K || n >= P.N) { return 0.0; }
  if (P.tB != 0u) { return B1[base + n * P.ldb + k]; }
  return B1[base + k * P.ldb + n];
}

@compute @workgroup_size(16, 16)
fn matmul_scalar(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = tile_of(lid, wid);
  var acc: array<vec4<f32>, 4>;
  var rs = vec4<f32>(0.0);
  for (var k0 = 0u; k0 < P.K; k0 += 16u) {
    // the same tile shapes as matmul_vec4, element by element
    if (P.tA != 0u) {
      let k = w.t / 16u;
      let m = (w.t % 16u) * 4u;
      As[k * 16u + m / 4u] = vec4<f32>(load_a(w.baseA, w.m0 + m, k0 + k), load_a(w.baseA, w.m0 + m + 1u, k0 + k),
                                       load_a(w.baseA, w.m0 + m + 2u, k0 + k), load_a(w.baseA, w.m0 + m + 3u, k0 + k));
    } else {
      let m = w.t / 4u;
      let k = (w.t % 4u) * 4u;
      store_k_contig(true, m, k,
                     vec4<f32>(load_a(w.baseA, w.m0 + m, k0 + k), load_a(w.baseA, w.m0 + m, k0 + k + 1u),
                               load_a(w.baseA, w.m0 + m, k0 + k + 2u), load_a(w.baseA, w.m0 + m, k0 + k + 3u)));
    }
    if (P.tB != 0u) {
      let n = w.t / 4u;
      let k = (w.t % 4u) * 4u;
      store_k_contig(false, n, k,
                     vec4<f32>(load_b(w.baseB, k0 + k, w.n0 + n), load_b(w.baseB, k0 + k + 1u, w.n0 + n),
                               load_b(w.baseB, k0 + k + 2u, w.n0 + n), load_b(w.baseB, k0 + k + 3u, w.n0 + n)));
    } else {
      let k = w.t / 16u;
      let n = (w.t % 16u) * 4u;
      Bs[k * 16u + n / 4u] = vec4<f32>(load_b(w.baseB, k0 + k, w.n0 + n), load_b(w.baseB, k0 + k, w.n0 + n + 1u),
                                       load_b(w.baseB, k0 + k, w.n0 + n + 2u), load_b(w.baseB, k0 + k, w.n0 + n + 3u));
    }
    multiply_tiles(w, &acc, &rs);
  }
  epilogue(w, acc, rs);
}
