// kernels.cpp — host-side launchers of the WGSL kernels; see kernels.h. The WGSL sources are
// embedded at build time (cmake/embed_wgsl.cmake → wgsl_sources.h).
#include "kernels.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "wgsl_sources.h"

namespace lnx::gpu {
namespace {

constexpr uint32_t kWg = 256;  // workgroup size of the one-thread-per-element kernels

Kernel K(const char* src, const char* entry, const char* constants = "{}") { return {src, entry, constants}; }

// Bytes a binding of n elements occupies: at least 16 (a vec4), a multiple of 16.
uint32_t binding_bytes(size_t n) {
  const size_t bytes = std::max<size_t>(16, (n * 4 + 15) / 16 * 16);
  if (bytes > max_binding_bytes())
    throw DeviceError("a tensor of " + std::to_string(bytes >> 20) +
                      " MiB is larger than this device's storage "
                      "binding limit (" +
                      std::to_string(max_binding_bytes() >> 20) + " MiB)");
  return static_cast<uint32_t>(bytes);
}

Binding bind(uint32_t slot, Ptr p, size_t n) {
  if (!p) throw std::logic_error("null GPU pointer bound");
  return {slot, p.buf, static_cast<uint32_t>(p.off * 4), binding_bytes(n)};
}

size_t groups(size_t n, size_t per) { return (n + per - 1) / per; }

// Splits [0, n) into pieces that fit one binding; offsets stay 64-element aligned.
template <class F>
void for_chunks(size_t n, F f) {
  const size_t chunk = std::max<size_t>(64, std::min<size_t>(max_binding_bytes() / 4, size_t(1) << 28) / 64 * 64);
  for (size_t off = 0; off < n; off += chunk) f(off, std::min(chunk, n - off));
}

// Scratch for the first stage of the reductions: 256 partial sums per chunk.
Ptr partials(size_t count) { return at(scratch_buffer(Scratch::Partials, count * 4)); }

void elementwise(const char* entry, Ptr out, Ptr x, Ptr y, size_t n, uint32_t C = 0, float value = 0) {
  const Kernel k = K(wgsl::elementwise, entry);
  for_chunks(n, [&](size_t off, size_t len) {
    const Uniforms u = Uniforms().u(static_cast<uint32_t>(len)).u(C).f(value).u(0);
    if (y) dispatch_1d(k, {bind(1, out + off, len), bind(2, x + off, len), bind(3, y + off, len)}, u, groups(len, kWg));
    else if (x) dispatch_1d(k, {bind(1, out + off, len), bind(2, x + off, len)}, u, groups(len, kWg));
    else dispatch_1d(k, {bind(1, out + off, len)}, u, groups(len, kWg));
  });
}

// The 2 matmul pipelines: scalar and vec4 (the transpositions are uniforms).
const Kernel& matmul_kernel(bool vec4) {
  static const Kernel kernels[2] = {K(wgsl::matmul, "matmul_scalar"), K(wgsl::matmul, "matmul_vec4")};
  return kernels[vec4];
}

}  // namespace

bool matmul_uses_vec4(bool tA, bool tB, int M, int N, int K, int lda, int ldb, int batch, size_t sA, size_t sB) {
  const bool a = lda % 4 == 0 && (batch == 1 || sA % 4 == 0) && (tA ? M : K) % 4 == 0;
  const bool b = ldb % 4 == 0 && (batch == 1 || sB % 4 == 0) && (tB ? K : N) % 4 == 0;
  return a && b;
}

void matmul(bool tA, bool tB, int M, int N, int K, float alpha, Ptr A, int lda, Ptr B, int ldb, float beta, Ptr C,
            int ldc, int batch, size_t sA, size_t sB, size_t sC, Ptr bias, Ptr aux, MatmulAux aux_mode, Ptr cin,
            MatmulCin cin_mode) {
  if (!aux) aux_mode = MatmulAux::None;
  if (!cin) cin_mode = MatmulCin::None;
  if (M <= 0 || N <= 0 || batch <= 0) return;
  if ((bias || aux_mode != MatmulAux::None || cin_mode != MatmulCin::None) && batch != 1)
    throw std::logic_error("matmul with a bias, row sums or C read elsewhere over a batch (the model never asks)");
  if (K <= 0) throw std::logic_error("matmul with K = 0 (the model never multiplies over an empty dimension)");
  // Extents of the three operands over all batches, in elements.
  const size_t extA = size_t(batch - 1) * sA + (tA ? size_t(K - 1) * lda + M : size_t(M - 1) * lda + K);
  const size_t extB = size_t(batch - 1) * sB + (tB ? size_t(N - 1) * ldb + K : size_t(K - 1) * ldb + N);
  const size_t extC = size_t(batch - 1) * sC + size_t(M - 1) * ldc + N;
  const bool vec4 = matmul_uses_vec4(tA, tB, M, N, K, lda, ldb, batch, sA, sB);
  const Uniforms u = Uniforms()
                         .u(M)
                         .u(N)
                         .u(K)
                         .u(lda)
                         .u(ldb)
                         .u(ldc)
                         .u(static_cast<uint32_t>(aux_mode))
                         .u(static_cast<uint32_t>(cin_mode))
                         .u(bias ? 1 : 0)
                         .u(static_cast<uint32_t>(sA))
                         .u(static_cast<uint32_t>(sB))
                         .u(static_cast<uint32_t>(sC))
                         .f(alpha)
                         .f(beta)
                         .u(tA)
                         .u(tB);
  // binding 4: the bias, or A again (read only, as at binding 1) when there is none; binding 5: the row
  // sums, or a scratch float the kernel leaves alone (a writable binding must not alias C); binding 6:
  // where beta·C is read from, or A again when that is C itself
  dispatch(matmul_kernel(vec4),
           {bind(1, A, extA), bind(2, B, extB), bind(3, C, extC), bias ? bind(4, bias, size_t(N)) : bind(4, A, extA),
            aux_mode == MatmulAux::RowSums ? bind(5, aux, size_t(M))
            : aux_mode == MatmulAux::Relu  ? bind(5, aux, extC)
                                           : bind(5, at(scratch_buffer(Scratch::Unbound, 4)), 1),
            cin_mode != MatmulCin::None ? bind(6, cin, extC) : bind(6, A, extA)},
           u, static_cast<uint32_t>(groups(N, 64)), static_cast<uint32_t>(groups(M, 64)), static_cast<uint32_t>(batch));
}

void layernorm_forward(Ptr out, Ptr mean, Ptr rstd, Ptr inp, Ptr gamma, Ptr beta, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch_1d(
      K(wgsl::layernorm, "layernorm_forward"),
      {bind(1, out, NC), bind(2, mean, N), bind(3, rstd, N), bind(4, inp, NC), bind(5, gamma, C), bind(6, beta, C)},
      Uniforms().u(N).u(C), N);
}

void layernorm_backward(Ptr dinp, Ptr dout, Ptr inp, Ptr mean, Ptr rstd, Ptr gamma, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch_1d(
      K(wgsl::layernorm, "layernorm_backward"),
      {bind(1, dinp, NC), bind(2, dout, NC), bind(3, inp, NC), bind(4, mean, N), bind(5, rstd, N), bind(6, gamma, C)},
      Uniforms().u(N).u(C), N);
}

void layernorm_param_backward(Ptr dgamma, Ptr dbeta, Ptr dout, Ptr inp, Ptr mean, Ptr rstd, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch(
      K(wgsl::layernorm, "layernorm_param_backward"),
      {bind(1, dgamma, C), bind(2, dbeta, C), bind(3, dout, NC), bind(4, inp, NC), bind(5, mean, N), bind(6, rstd, N)},
      Uniforms().u(N).u(C), static_cast<uint32_t>(groups(C, 64)));
}

void rmsnorm_forward(Ptr out, Ptr rstd, Ptr inp, Ptr gamma, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch_1d(K(wgsl::layernorm, "rmsnorm_forward"),
              {bind(1, out, NC), bind(3, rstd, N), bind(4, inp, NC), bind(5, gamma, C)}, Uniforms().u(N).u(C), N);
}

void rmsnorm_backward(Ptr dinp, Ptr dout, Ptr inp, Ptr rstd, Ptr gamma, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch_1d(K(wgsl::layernorm, "rmsnorm_backward"),
              {bind(1, dinp, NC), bind(2, dout, NC), bind(3, inp, NC), bind(5, rstd, N), bind(6, gamma, C)},
              Uniforms().u(N).u(C), N);
}

void rmsnorm_param_backward(Ptr dgamma, Ptr dout, Ptr inp, Ptr rstd, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch(K(wgsl::layernorm, "rmsnorm_param_backward"),
           {bind(1, dgamma, C), bind(3, dout, NC), bind(4, inp, NC), bind(6, rstd, N)}, Uniforms().u(N).u(C),
           static_cast<uint32_t>(groups(C, 64)));
}

void dyt_forward(Ptr out, Ptr act, Ptr inp, Ptr gamma, Ptr beta, Ptr alpha, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch_1d(
      K(wgsl::dyt, "dyt_forward"),
      {bind(1, out, NC), bind(2, act, NC), bind(3, inp, NC), bind(4, gamma, C), bind(5, beta, C), bind(6, alpha, 1)},
      Uniforms().u(N).u(C), groups(NC, kWg));
}

void dyt_backward(Ptr dinp, Ptr dout, Ptr act, Ptr gamma, Ptr alpha, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch_1d(K(wgsl::dyt, "dyt_backward"),
              {bind(1, dinp, NC), bind(2, dout, NC), bind(3, act, NC), bind(4, gamma, C), bind(5, alpha, 1)},
              Uniforms().u(N).u(C), groups(NC, kWg));
}

void dyt_param_backward(Ptr dgamma, Ptr dbeta, Ptr dout, Ptr act, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch(K(wgsl::dyt, "dyt_param_backward"),
           {bind(1, dgamma, C), bind(2, dbeta, C), bind(3, dout, NC), bind(4, act, NC)}, Uniforms().u(N).u(C),
           static_cast<uint32_t>(groups(C, 64)));
}

void softmax_forward(Ptr S, int rows, int n, bool causal) {
  dispatch_1d(K(wgsl::attention, "softmax_forward"), {bind(1, S, size_t(rows) * n)},
              Uniforms().u(rows).u(n).u(causal ? 1 : 0), rows);
}

void softmax_backward(Ptr dS, Ptr P, int rows, int n) {
  dispatch_1d(K(wgsl::attention, "softmax_backward"), {bind(1, dS, size_t(rows) * n), bind(2, P, size_t(rows) * n)},
              Uniforms().u(rows).u(n), rows);
}

void cross_entropy_forward(Ptr probs, Ptr row_loss, Ptr logits, Ptr target, int N, int V) {
  const size_t NV = size_t(N) * V;
  dispatch_1d(K(wgsl::cross_entropy, "cross_entropy_forward"),
              {bind(1, probs, NV), bind(2, logits, NV), bind(3, target, N), bind(4, row_loss, N)}, Uniforms().u(N).u(V),
              N);
}

void cross_entropy_backward(Ptr dlogits, Ptr probs, Ptr target, int N, int V) {
  const size_t NV = size_t(N) * V;
  dispatch_1d(K(wgsl::cross_entropy, "cross_entropy_backward"),
              {bind(1, dlogits, NV), bind(2, probs, NV), bind(3, target, N)}, Uniforms().u(N).u(V), groups(NV, kWg));
}

void embed_forward(Ptr x0, Ptr E, Ptr tokens, int N, int d, int V, float scale) {
  dispatch_1d(K(wgsl::embedding, "embed_forward"),
              {bind(1, x0, size_t(N) * d), bind(2, E, size_t(V) * d), bind(3, tokens, N)},
              Uniforms().u(N).u(d).f(scale), groups(size_t(N) * d, kWg));
}

void embed_backward(Ptr dE, Ptr dx0, Ptr tokens, int N, int d, int V, float scale) {
  dispatch(K(wgsl::embedding, "embed_backward"),
           {bind(1, dE, size_t(V) * d), bind(2, dx0, size_t(N) * d), bind(3, tokens, N)}, Uniforms().u(N).u(d).f(scale),
           static_cast<uint32_t>(groups(d, 64)));
}

void relu_forward(Ptr out, Ptr inp, size_t n) { elementwise("relu_forward", out, inp, Ptr{}, n); }
void relu_backward(Ptr dinp, Ptr dout, Ptr inp, size_t n) { elementwise("relu_backward", dinp, dout, inp, n); }
void add(Ptr out, Ptr a, Ptr b, size_t n) { elementwise("add", out, a, b, n); }
void copy(Ptr dst, Ptr src, size_t n) { elementwise("copy", dst, src, Ptr{}, n); }
void scale(Ptr dst, Ptr src, float alpha, size_t n) { elementwise("scale", dst, src, Ptr{}, n, 0, alpha); }
void fill(Ptr dst, size_t n, float value) { elementwise("fill", dst, Ptr{}, Ptr{}, n, 0, value); }
void accumulate(Ptr dst, Ptr src, size_t n) { elementwise("accumulate", dst, src, Ptr{}, n); }

void add_row_vector(Ptr x, Ptr b, int N, int C) {
  const size_t NC = size_t(N) * C;
  dispatch_1d(K(wgsl::elementwise, "add_row_vector"), {bind(1, x, NC), bind(2, b, C)},
              Uniforms().u(static_cast<uint32_t>(NC)).u(C), groups(NC, kWg));
}

void column_sums(Ptr acc, Ptr x, int N, int C) {
  dispatch(K(wgsl::reduce, "column_sums"), {bind(1, acc, C), bind(2, x, size_t(N) * C)}, Uniforms().u(N).u(C),
           static_cast<uint32_t>(groups(C, 64)));
}

namespace {
// reduce.wgsl's `finish` over count values of src into dst[slot]. dst is bound as the 64 floats
// around the slot (device buffers are whole multiples of 64 floats, so they are there), with the
// slot counted from there: a run's history slots then share one binding per 32 steps and its bind
// group, and only the uniform changes from step to step (command_list.h).
void finish(Ptr dst, uint32_t slot, Ptr src, size_t count, float scale, bool root, bool accum) {
  const uint32_t base = slot / 64 * 64;
  dispatch(K(wgsl::reduce, "finish"), {bind(1, dst + base, 64), bind(2, src, count)},
           Uniforms().u(static_cast<uint32_t>(count)).u(0).u(0).u(slot - base).f(scale).u(root).u(accum).u(0), 1);
}
}  // namespace

void sumsq(Ptr dst, uint32_t slot, Ptr x, size_t n, float scale, bool root, bool accum) {
  // Stage 1 writes 256 partial sums per chunk (a chunk is as large as one binding allows, ≥ 32M
  // floats, so every chunk but the last uses all 256 workgroups); stage 2 sums the written ones.
  size_t chunks = 0;
  for_chunks(n, [&](size_t, size_t) { ++chunks; });
  const Ptr part = partials(chunks * 256);
  size_t c = 0, count = 0;
  for_chunks(n, [&](size_t off, size_t len) {
    const size_t g = std::min<size_t>(256, groups(len, 256));
    dispatch(K(wgsl::reduce, "sumsq_partial"), {bind(1, part, chunks * 256), bind(2, x + off, len)},
             Uniforms().u(static_cast<uint32_t>(len)).u(0).u(static_cast<uint32_t>(c * 256)), static_cast<uint32_t>(g));
    count = c * 256 + g;
    ++c;
  });
  finish(dst, slot, part, count, scale, root, accum);
}

void sum(Ptr dst, uint32_t slot, Ptr x, size_t n, float scale, bool accum) {
  finish(dst, slot, x, n, scale, false, accum);
}

// Σ x·y: up to 256 partial sums (one binding: the model's activations), then `finish`. The scratch
// is asked for at sumsq's size, 256 (a batch sizes each scratch by its first request: device_batch.h).
void dot(Ptr dst, uint32_t slot, Ptr x, Ptr y, size_t n, bool accum) {
  const size_t g = std::min<size_t>(256, groups(n, 256));
  const Ptr part = partials(256);
  dispatch(K(wgsl::reduce, "dot_partial"), {bind(1, part, g), bind(2, x, n), bind(3, y, n)},
           Uniforms().u(static_cast<uint32_t>(n)).u(0).u(0), static_cast<uint32_t>(g));
  finish(dst, slot, part, g, 1.f, false, accum);
}

void dyt_alpha_backward(Ptr dalpha, Ptr dout, Ptr inp, Ptr act, Ptr gamma, int N, int C) {
  const size_t NC = size_t(N) * C, g = std::min<size_t>(256, groups(NC, 256));
  const Ptr part = partials(256);  // as dot()
  dispatch(K(wgsl::dyt, "dyt_alpha_partial"),
           {bind(1, part, g), bind(2, dout, NC), bind(3, inp, NC), bind(4, act, NC), bind(5, gamma, C)},
           Uniforms().u(N).u(C).u(0), static_cast<uint32_t>(g));
  finish(dalpha, 0, part, g, 1.f, false, true);
}

void gate_forward(Ptr out, Ptr x, Ptr f, Ptr g, size_t n) {
  dispatch_1d(K(wgsl::gate, "gate_forward"), {bind(1, out, n), bind(2, x, n), bind(3, f, n), bind(4, g, 1)},
              Uniforms().u(static_cast<uint32_t>(n)), groups(n, kWg));
}

void gate_scale(Ptr out, Ptr x, Ptr g, size_t n) {
  dispatch_1d(K(wgsl::gate, "gate_scale"), {bind(1, out, n), bind(2, x, n), bind(4, g, 1)},
              Uniforms().u(static_cast<uint32_t>(n)), groups(n, kWg));
}

void optimizer_update(const char* name, const char* body, Ptr param, Ptr grad, const Ptr* states, int n_states,
                      size_t n, const float* k, int n_k, Ptr stats, uint32_t flag) {
  if (n_k > 12 || n_states > 4) throw std::logic_error("optimizer_update: too many coefficients or states");
  // One kernel source per optimizer, made once; its address keys the pipeline cache (device.cpp).
  static std::map<std::string, std::string> sources;
  auto it = sources.find(name);
  if (it == sources.end()) {
    std::string src = wgsl::optimizer, bindings;
    for (int j = 0; j < n_states; ++j)
      bindings += "@group(0) @binding(" + std::to_string(4 + j) + ") var<storage, read_write> s" + std::to_string(j) +
                  ": array<f32>;\n";
    src.replace(src.find("//STATES"), 8, bindings);
    src.replace(src.find("//UPDATE"), 8, body);
    it = sources.emplace(name, std::move(src)).first;
  }
  const Kernel kernel = K(it->second.c_str(), "update");
  for_chunks(n, [&](size_t off, size_t len) {
    Uniforms u = Uniforms().u(static_cast<uint32_t>(len)).u(flag).u(0).u(0);
    for (int j = 0; j < 12; ++j) u.f(j < n_k ? k[j] : 0.f);
    Binding b[8] = {bind(1, param + off, len), bind(2, grad + off, len), bind(3, stats, flag + 1)};
    for (int j = 0; j < n_states; ++j) b[3 + j] = bind(4 + j, states[j] + off, len);
    switch (n_states) {  // dispatch takes an initializer list
      case 1:
        dispatch_1d(kernel, {b[0], b[1], b[2], b[3]}, u, groups(len, kWg));
        break;
      case 2:
        dispatch_1d(kernel, {b[0], b[1], b[2], b[3], b[4]}, u, groups(len, kWg));
        break;
      case 3:
        dispatch_1d(kernel, {b[0], b[1], b[2], b[3], b[4], b[5]}, u, groups(len, kWg));
        break;
      case 4:
        dispatch_1d(kernel, {b[0], b[1], b[2], b[3], b[4], b[5], b[6]}, u, groups(len, kWg));
        break;
      default:
        dispatch_1d(kernel, {b[0], b[1], b[2]}, u, groups(len, kWg));
    }
  });
}

void check_step(Ptr stats, size_t stats_n, uint32_t flag, uint32_t loss_slot, uint32_t norm_slot, float limit) {
  if (std::max({flag, loss_slot, norm_slot}) >= stats_n)
    throw std::logic_error("check_step: a slot past the statistics");
  const Uniforms u = Uniforms().u(0).u(flag).u(loss_slot).u(norm_slot).f(limit).u(0).u(0).u(0);
  dispatch(K(wgsl::check_step, "check_step"), {bind(5, stats, stats_n)}, u, 1);  // the whole array: one bind group
}

}  // namespace lnx::gpu
