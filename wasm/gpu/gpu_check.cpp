// gpu_check.cpp — GPU-vs-CPU comparisons in one module; see gpu_check.h.
#include "gpu_check.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../gemm.h"
#include "../json.h"
#include "../model.h"
#include "../rng.h"
#include "check_impl.h"
#include "device.h"
#include "gpu_backend.h"
#include "kernels.h"

namespace lnx::gpu {
namespace {

// max|a − b| / max|b| over n entries (0 when both are 0).
double max_rel(const float* a, const float* b, size_t n) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < n; ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(a[i]) - b[i]));
    scale = std::max(scale, std::abs(static_cast<double>(b[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

}  // namespace

// ---- MatmulCheck ----
struct MatmulCheckImpl {
  static constexpr const char* kName = "matmul check";
  struct Case {
    bool tA, tB;
    int M, N, K, batch;
    float alpha, beta;
    bool vec4 = false;
    std::vector<float> ref, got, rs_ref, rs_got;  // rs: the row sums of op(A) added to a vector (batch 1)
    Array c, rs;
  };
  std::vector<Case> cases;
  std::vector<uint32_t> tickets;

  MatmulCheckImpl() {
    Rng rng(2024);
    const int shapes[][4] = {{64, 64, 64, 1}, {128, 96, 160, 1}, {37, 53, 29, 1}, {16, 16, 64, 4}, {5, 7, 3, 3}};
    for (int tA = 0; tA < 2; ++tA)
      for (int tB = 0; tB < 2; ++tB)
        for (auto& s : shapes)
          for (float beta : {0.f, 1.f}) {
            Case c{tA != 0, tB != 0, s[0], s[1], s[2], s[3], 0.75f, beta};
            const int M = c.M, N = c.N, K = c.K, B = c.batch;
            const int lda = c.tA ? M : K, ldb = c.tB ? K : N, ldc = N;
            const size_t sA = size_t(M) * K, sB = size_t(K) * N, sC = size_t(M) * N;
            std::vector<float> a(sA * B), b(sB * B), cc(sC * B);
            for (auto* v : {&a, &b, &cc})
              for (float& x : *v) x = static_cast<float>(rng.normal());
            c.ref = cc;
            for (int z = 0; z < B; ++z)
              gemm<float>(c.tA, c.tB, M, N, K, c.alpha, a.data() + z * sA, lda, b.data() + z * sB, ldb, c.beta,
                          c.ref.data() + z * sC, ldc);
            if (B == 1) {  // rs[m] += Σ_k op(A)[m][k], summed as column_sums sums
              c.rs_ref.resize(M);
              for (float& x : c.rs_ref) x = static_cast<float>(rng.normal());
              c.rs = GpuBackend::array(std::vector<float>(c.rs_ref));
              for (int m = 0; m < M; ++m) {
                float sum = 0;
                for (int k = 0; k < K; ++k) sum += c.tA ? a[size_t(k) * lda + m] : a[size_t(m) * lda + k];
                c.rs_ref[m] += sum;
              }
              c.rs_got.resize(M);
            }
            Array ga = GpuBackend::array(std::move(a)), gb = GpuBackend::array(std::move(b));
            c.c = GpuBackend::array(std::vector<float>(cc));
            c.vec4 = matmul_uses_vec4(c.tA, c.tB, M, N, K, lda, ldb, B, sA, sB);
            matmul(c.tA, c.tB, M, N, K, c.alpha, ga.data(), lda, gb.data(), ldb, c.beta, c.c.data(), ldc, B, sA, sB, sC,
                   Ptr{}, B == 1 ? c.rs.data() : Ptr{}, MatmulAux::RowSums);
            c.got.resize(sC * B);
            submit();
            cases.push_back(std::move(c));
          }
    for (Case& c : cases) {
      tickets.push_back(read(c.c.buffer(), 0, c.got.size() * 4, c.got.data()));
      if (!c.rs_got.empty()) tickets.push_back(read(c.rs.buffer(), 0, c.rs_got.size() * 4, c.rs_got.data()));
    }
  }

  std::string result_json() const {
    json::Writer w;
    double worst = 0;
    w.begin_object().key("cases").begin_array();
    for (auto& c : cases) {
      double e = max_rel(c.got.data(), c.ref.data(), c.ref.size());
      if (!c.rs_ref.empty()) e = std::max(e, max_rel(c.rs_got.data(), c.rs_ref.data(), c.rs_ref.size()));
      worst = std::max(worst, std::isfinite(e) ? e : 1e30);
      w.begin_object().key("tA").value(c.tA).key("tB").value(c.tB).key("M").value(c.M).key("N").value(c.N);
      w.key("K").value(c.K).key("batch").value(c.batch).key("beta").value(c.beta).key("vec4").value(c.vec4);
      w.key("max_rel").value(e).end_object();
    }
    w.end_array().key("max_rel").value(worst).end_object();
    return w.str();
  }
};
// MatmulCheck: the members of Check (check_impl.h) for this Impl.
template class Check<MatmulCheckImpl>;
template Check<MatmulCheckImpl>::Check();

// ---- MatmulBench ----
struct MatmulBench::Impl {
  bool tA, tB;
  int M, N, K;
  Array a, b, c;
};

MatmulBench::MatmulBench(bool tA, bool tB, int M, int N, int K) {
  check();
  if (M < 1 || N < 1 || K < 1 || double(M) * N + double(M) * K + double(K) * N > 1e8)
    throw ArgumentError("matmul benchmark: sizes must be >= 1 and the operands at most 1e8 floats");
  Rng rng(7);
  auto random = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = static_cast<float>(rng.normal());
    return GpuBackend::array(std::move(v));
  };
  impl_ =
      std::make_unique<Impl>(Impl{tA, tB, M, N, K, random(size_t(M) * K), random(size_t(K) * N), Array(size_t(M) * N)});
}
MatmulBench::~MatmulBench() = default;
bool MatmulBench::vec4() const {
  const Impl& s = *impl_;
  return matmul_uses_vec4(s.tA, s.tB, s.M, s.N, s.K, s.tA ? s.M : s.K, s.tB ? s.K : s.N, 1, 0, 0);
}
void MatmulBench::run(int reps) {
  const Impl& s = *impl_;
  for (int r = 0; r < reps; ++r)
    matmul(s.tA, s.tB, s.M, s.N, s.K, 1.f, s.a.data(), s.tA ? s.M : s.K, s.b.data(), s.tB ? s.K : s.N, 0.f, s.c.data(),
           s.N);
  submit();
  check();
}

// ---- GradCheck ----
struct GradCheckImpl {
  static constexpr const char* kName = "gradient check";
  TrainConfig cfg;
  Transformer<float> cpu;
  Model<GpuBackend> gpu;
  double cpu_loss = 0;
  Buffer loss_buf{4};
  std::vector<float> gpu_loss = std::vector<float>(1), gpu_grads;
  std::vector<uint32_t> tickets;

  explicit GradCheckImpl(const TrainConfig& c) : cfg((c.validate(), c)), cpu(c.model, c.seed), gpu(c.model, c.seed) {
    const int N = c.model.batch * c.model.seq, V = c.model.vocab;
    Rng rng(stream_seed(c.seed, kStreamBatches));
    std::vector<int> tokens(N), targets(N);
    for (int r = 0; r < N; ++r) tokens[r] = static_cast<int>(rng.below(V)), targets[r] = static_cast<int>(rng.below(V));
    cpu.zero_grad();
    cpu_loss = cpu.forward(tokens.data(), targets.data());
    cpu.backward(GradScope::All);
    GpuBackend::set_loss_target(at(loss_buf), 0);
    gpu.zero_grad();
    gpu.forward(tokens.data(), targets.data());
    gpu.backward(GradScope::All);
    submit();
    gpu_grads.resize(gpu.grads().size());
    tickets.push_back(read(gpu.grads().buffer(), 0, gpu_grads.size() * 4, gpu_grads.data()));
    tickets.push_back(read(loss_buf, 0, 4, gpu_loss.data()));
  }

  std::string result_json();
};
// GradCheck: the members of Check (check_impl.h) for this Impl.
template class Check<GradCheckImpl>;
template Check<GradCheckImpl>::Check(const TrainConfig&);

std::string GradCheckImpl::result_json() {
  const auto cpu_t = cpu.named_tensors(), gpu_t = gpu.named_tensors();
  // S: the largest gradient entry of the model. A tensor whose CPU gradient stays below 1e-6·S is
  // zero up to rounding (the key bias: softmax ignores a shift of all scores of a row, so ∂ℒ/∂bk = 0
  // exactly); comparing rounding noise to rounding noise is meaningless, so such tensors are
  // reported apart, with their largest entry on either backend relative to S.
  double S = 0;
  for (const auto& [name, t] : cpu_t)
    for (size_t k = 0; k < t.size(); ++k) S = std::max(S, std::abs(static_cast<double>(cpu.grads()[t.off + k])));
  json::Writer w;
  w.begin_object();
  w.key("loss_cpu").value(cpu_loss).key("loss_gpu").value(gpu_loss[0]);
  w.key("loss_rel").value(std::abs(gpu_loss[0] - cpu_loss) / std::abs(cpu_loss));
  w.key("grad_scale").value(S);
  double worst = 0, worst_zero = 0;
  w.key("tensors").begin_array();
  for (size_t i = 0; i < cpu_t.size(); ++i) {
    const TensorRef& c = cpu_t[i].second;
    const TensorRef& g = gpu_t[i].second;
    const float* ref = cpu.grads().data() + c.off;
    const float* got = gpu_grads.data() + g.off;
    double scale = 0, gscale = 0;
    for (size_t k = 0; k < c.size(); ++k) {
      scale = std::max(scale, std::abs(static_cast<double>(ref[k])));
      gscale = std::max(gscale, std::abs(static_cast<double>(got[k])));
    }
    const bool zero = scale <= 1e-6 * S;
    const double e = max_rel(got, ref, c.size());
    if (zero) worst_zero = std::max(worst_zero, std::max(scale, gscale) / S);
    else worst = std::max(worst, std::isfinite(e) ? e : 1e30);
    w.begin_object().key("name").value(cpu_t[i].first).key("max_rel").value(e).key("max_abs_cpu").value(scale);
    w.key("max_abs_gpu").value(gscale).key("zero").value(zero).end_object();
  }
  w.end_array();
  w.key("max_rel").value(worst).key("zero_max_over_scale").value(worst_zero).end_object();
  return w.str();
}

}  // namespace lnx::gpu
