// op_check.cpp — every backend op on the GPU against the CPU; see op_check.h.
#include "op_check.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../api.h"
#include "../cpu_backend.h"
#include "../json.h"
#include "../optim/registry.h"
#include "../rng.h"
#include "check_impl.h"
#include "device.h"
#include "gpu_backend.h"

namespace lnx::gpu {
namespace {

// Runs every op once on backend B, handing each output to out(op, output, storage). One function
// for both backends, so the CPU and the GPU see the same calls with the same inputs (the Rng is
// drawn in the same order). Shapes are small and deliberately not multiples of a workgroup.
template <class B, class Out>
void run_ops(Out&& out) {
  using T = typename B::Scalar;
  using A = typename B::Array;
  using P = typename B::Ptr;
  Rng rng(20261201);
  auto host = [&](size_t n, double scale = 1, double shift = 0) {
    std::vector<T> v(n);
    for (T& x : v) x = static_cast<T>(rng.normal() * scale + shift);
    return v;
  };
  auto rnd = [&](size_t n, double scale = 1, double shift = 0) { return B::array(host(n, scale, shift)); };
  auto ints = [&](int n, int V) {
    std::vector<int> v(n);
    for (int& x : v) x = static_cast<int>(rng.below(V));
    typename B::IntArray a;
    a.set(v.data(), n);
    return a;
  };
  const P none{};
  // Hands one op's outputs to out, in order: (output name, array) pairs.
  auto outs = [&](const std::string& op, std::initializer_list<std::pair<std::string, A*>> outputs) {
    for (const auto& [name, a] : outputs) out(op, name, std::move(*a));
  };
  const int N = 37, IC = 29, OC = 19;  // rows, input and output widths

  {  // gemm, at a model-like shape and transposed
    A a = rnd(size_t(N) * IC), b = rnd(size_t(IC) * OC), c = rnd(size_t(N) * OC), d = rnd(size_t(N) * OC);
    B::gemm(false, false, N, OC, IC, T(0.5), a.data(), IC, b.data(), OC, T(1), c.data(), OC);
    // Aᵀ·Bᵀ with A stored (IC, N) and B stored (OC, IC): the same buffers read the other way round
    B::gemm(true, true, N, OC, IC, T(1), a.data(), N, b.data(), IC, T(0), d.data(), OC);
    outs("gemm", {{"C (NN, beta 1)", &c}, {"C (TT, beta 0)", &d}});
  }
  {  // linear: with and without bias; backward overwriting and accumulating dinp, optional outputs null
    A inp = rnd(size_t(N) * IC), W = rnd(size_t(OC) * IC, 0.3), b = rnd(OC), y = B::zeros(size_t(N) * OC),
      y0 = B::zeros(size_t(N) * OC);
    B::linear_forward(y.data(), inp.data(), W.data(), b.data(), N, IC, OC);
    B::linear_forward(y0.data(), inp.data(), W.data(), none, N, IC, OC);
    A dout = rnd(size_t(N) * OC), dinp = rnd(size_t(N) * IC), dinp_acc = rnd(size_t(N) * IC);
    A dW = rnd(size_t(OC) * IC), db = rnd(OC), dW2 = rnd(size_t(OC) * IC);
    B::linear_backward(dinp.data(), dW.data(), db.data(), dout.data(), inp.data(), W.data(), N, IC, OC, false);
    B::linear_backward(dinp_acc.data(), dW2.data(), none, dout.data(), inp.data(), W.data(), N, IC, OC, true);
    outs("linear_forward", {{"out", &y}, {"out (no bias)", &y0}});
    outs("linear_backward",
         {{"dinp", &dinp}, {"dW (+=)", &dW}, {"db (+=)", &db}, {"dinp (+=)", &dinp_acc}, {"dW (+=, db null)", &dW2}});
  }
  {  // add_row_vector
    A x = rnd(size_t(N) * OC), b = rnd(OC);
    B::add_row_vector(x.data(), b.data(), N, OC);
    out("add_row_vector", "x", std::move(x));
  }
  {  // relu
    const long n = 1031;
    A x = rnd(n), y = B::zeros(n), dy = rnd(n), dx = B::zeros(n);
    B::relu_forward(y.data(), x.data(), n);
    B::relu_backward(dx.data(), dy.data(), x.data(), n);
    out("relu_forward", "out", std::move(y));
    out("relu_backward", "dinp", std::move(dx));
  }
  {  // layernorm (rows with an offset and a scale, as residual streams have)
    const int C = 72;
    A x = rnd(size_t(N) * C, 3, 0.7), g = rnd(C, 0.2, 1), be = rnd(C, 0.1), y = B::zeros(size_t(N) * C);
    A mean = B::zeros(N), rstd = B::zeros(N);
    B::layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), be.data(), N, C);
    A dy = rnd(size_t(N) * C), dx = rnd(size_t(N) * C), dg = rnd(C), db = rnd(C), dx2 = rnd(size_t(N) * C);
    B::layernorm_backward(dx.data(), dg.data(), db.data(), dy.data(), x.data(), mean.data(), rstd.data(), g.data(), N,
                          C);
    B::layernorm_backward(dx2.data(), none, none, dy.data(), x.data(), mean.data(), rstd.data(), g.data(), N, C);
    outs("layernorm_forward", {{"out", &y}, {"mean", &mean}, {"rstd", &rstd}});
    outs("layernorm_backward",
         {{"dinp (+=)", &dx}, {"dgamma (+=)", &dg}, {"dbeta (+=)", &db}, {"dinp (+=, dgamma and dbeta null)", &dx2}});
  }
  {  // rmsnorm
    const int C = 72;
    A x = rnd(size_t(N) * C, 2, 0.3), g = rnd(C, 0.2, 1), y = B::zeros(size_t(N) * C), rstd = B::zeros(N);
    B::rmsnorm_forward(y.data(), rstd.data(), x.data(), g.data(), N, C);
    A dy = rnd(size_t(N) * C), dx = rnd(size_t(N) * C), dg = rnd(C), dx2 = rnd(size_t(N) * C);
    B::rmsnorm_backward(dx.data(), dg.data(), dy.data(), x.data(), rstd.data(), g.data(), N, C);
    B::rmsnorm_backward(dx2.data(), none, dy.data(), x.data(), rstd.data(), g.data(), N, C);
    outs("rmsnorm_forward", {{"out", &y}, {"rstd", &rstd}});
    outs("rmsnorm_backward", {{"dinp (+=)", &dx}, {"dgamma (+=)", &dg}, {"dinp (+=, dgamma null)", &dx2}});
  }
  {  // DyT (inputs wide enough that some saturate), α away from its 0.5 start
    const int C = 72;
    const size_t NC = size_t(N) * C;
    A x = rnd(NC, 3, 0.2), g = rnd(C, 0.2, 1), be = rnd(C, 0.1), al = rnd(1, 0.1, 0.7), y = B::zeros(NC),
      act = B::zeros(NC);
    B::dyt_forward(y.data(), act.data(), x.data(), g.data(), be.data(), al.data(), N, C);
    A dy = rnd(NC), dx = rnd(NC), dg = rnd(C), db = rnd(C), da = rnd(1), dx2 = rnd(NC);
    B::dyt_backward(dx.data(), dg.data(), db.data(), da.data(), dy.data(), x.data(), act.data(), g.data(), al.data(), N,
                    C);
    B::dyt_backward(dx2.data(), none, none, none, dy.data(), x.data(), act.data(), g.data(), al.data(), N, C);
    outs("dyt_forward", {{"out", &y}, {"act", &act}});
    outs("dyt_backward", {{"dinp (+=)", &dx},
                          {"dgamma (+=)", &dg},
                          {"dbeta (+=)", &db},
                          {"dalpha (+=)", &da},
                          {"dinp (+=, parameter gradients null)", &dx2}});
  }
  {  // the residual gate: s = x + g·f; df = g·ds overwritten, dg += Σ ds·f
    const size_t n = 1111;
    A x = rnd(n), f = rnd(n), g = rnd(1, 0.3, 0.2), s2 = B::zeros(n);
    B::gate_forward(s2.data(), x.data(), f.data(), g.data(), n);
    A ds = rnd(n), df = rnd(n), dg = rnd(1), df2 = rnd(n);
    B::gate_backward(df.data(), dg.data(), ds.data(), f.data(), g.data(), n);
    B::gate_backward(df2.data(), none, ds.data(), f.data(), g.data(), n);
    out("gate_forward", "out", std::move(s2));
    outs("gate_backward", {{"df", &df}, {"dg (+=)", &dg}, {"df (dg null)", &df2}});
  }
  for (bool causal : {false, true}) {  // attention: 3 sequences of 13 tokens, width 24
    const int Bs = 3, n = 13, d = 24;
    const size_t sz = size_t(Bs) * n * d;
    A q = rnd(sz), k = rnd(sz), v = rnd(sz), o = B::zeros(sz), Pm = B::zeros(size_t(Bs) * n * n);
    B::attention_forward(o.data(), Pm.data(), q.data(), k.data(), v.data(), Bs, n, d, causal);
    A dout = rnd(sz), dq = rnd(sz), dk = rnd(sz), dv = rnd(sz);  // overwritten, so their start must not matter
    B::attention_backward(dq.data(), dk.data(), dv.data(), dout.data(), q.data(), k.data(), v.data(), Pm.data(), Bs, n,
                          d);
    const std::string tag = causal ? " (causal)" : " (bidirectional)";
    outs("attention_forward", {{"out" + tag, &o}, {"P" + tag, &Pm}});
    outs("attention_backward", {{"dq" + tag, &dq}, {"dk" + tag, &dk}, {"dv" + tag, &dv}});
  }
  {  // cross-entropy: the mean loss (a device slot on the GPU, the return value on the CPU)
    const int V = 53;
    A logits = rnd(size_t(N) * V, 2), probs = B::zeros(size_t(N) * V), dl = rnd(size_t(N) * V);
    auto target = ints(N, V);
    auto loss = B::stats(1);
    B::set_loss_target(loss, 0);
    if constexpr (std::is_void_v<typename B::Loss>) B::cross_entropy_forward(probs.data(), logits.data(), target, N, V);
    else loss[0] = B::cross_entropy_forward(probs.data(), logits.data(), target, N, V);
    B::cross_entropy_backward(dl.data(), probs.data(), target, N, V);
    out("cross_entropy_forward", "probs", std::move(probs));
    out("cross_entropy_forward", "loss", std::move(loss));
    out("cross_entropy_backward", "dlogits", std::move(dl));
  }
  {  // embedding, with repeated tokens (rows of dE summed) and the √d scale
    const int V = 11, d = 40;
    A E = rnd(size_t(V) * d), x0 = B::zeros(size_t(N) * d), dx0 = rnd(size_t(N) * d), dE = rnd(size_t(V) * d);
    auto tok = ints(N, V);
    const T s = static_cast<T>(std::sqrt(static_cast<double>(d)));
    B::embed_forward(x0.data(), E.data(), tok, N, d, V, s);
    B::embed_backward(dE.data(), dx0.data(), tok, N, d, V, s);
    out("embed_forward", "x0", std::move(x0));
    out("embed_backward", "dE (+=)", std::move(dE));
  }
  {  // elementwise
    const size_t n = 777;
    A a = rnd(n), b = rnd(n), sum = B::zeros(n), acc = rnd(n), sc = B::zeros(n), cp = B::zeros(n), z = rnd(n);
    B::add(sum.data(), a.data(), b.data(), n);
    B::accumulate(acc.data(), a.data(), n);
    B::scale(sc.data(), a.data(), T(-0.37), n);
    B::copy(cp.data(), b.data(), n);
    B::zero(z.data(), n);
    out("add", "out", std::move(sum));
    out("accumulate", "dst", std::move(acc));
    out("scale", "dst", std::move(sc));
    out("copy", "dst", std::move(cp));
    out("zero", "dst", std::move(z));
  }
  {  // run statistics: norms, mean squares, a norm of a mean, the halt flag
    const size_t n = 2053;
    A x = rnd(n), y = rnd(n, 0.5);
    auto s = B::stats(6);
    auto acc = B::accum(n);
    B::add_norm(s, 1, x.data(), n);
    B::add_norm(s, 1, y.data(), n);  // +=
    B::add_mean_square(s, 2, x.data(), 13, 79);
    B::accumulate_sum(acc, x.data(), n);
    B::accumulate_sum(acc, y.data(), n);
    B::norm_of_mean(s, 3, acc, n, 2.0);
    B::grad_norm(s, 4, y.data(), n);
    B::check_step(s, 5, 2, 4, 1e30);  // finite and under the limit: flag stays 0
    B::check_step(s, 0, 2, 4, 0.5);   // the mean square of x (≈ 1) is over 0.5: flag set
    out("statistics", "[flag, norm+norm, mean square, norm of mean, grad norm, flag]", std::move(s));
  }
  // every registered optimizer, at step 1 and at step 40 (RAdam: t = 1 is on its un-adapted branch,
  // ρ_1 ≤ 5, and t = 40 on its rectified one), from zero parameters so the output is the update
  for_each_optimizer([&](auto o) {
    using O = decltype(o);
    for (long t : {1L, 40L}) {
      const size_t n = 1500;
      A p = B::zeros(n), g = rnd(n, 0.01);
      std::vector<A> st;
      for (int j = 0; j < O::kStates; ++j) {
        std::vector<T> v = host(n, 1e-3);
        if (j == 1)
          for (T& x : v) x = x * x;  // a second moment is non-negative
        st.push_back(B::array(std::move(v)));
      }
      P states[O::kStates > 0 ? O::kStates : 1];
      for (int j = 0; j < O::kStates; ++j) states[j] = st[j].data();
      T k[O::kCoefficients];
      O::coefficients(default_hyperparameters(), 1e-3, t, k);
      auto flag = B::stats(1);
      B::template optimizer_update<O>(p.data(), g.data(), states, n, k, flag, 0);
      const std::string name = std::string("optimizer ") + O::kName;
      const std::string at = " (t = " + std::to_string(t) + ")";
      out(name, "update" + at, std::move(p));
      for (int j = 0; j < O::kStates; ++j) out(name, "state " + std::to_string(j) + at, std::move(st[j]));
    }
  });
  {  // linear onto a residual (last: its random inputs leave the other ops' as they were)
    A inp = rnd(size_t(N) * IC), W = rnd(size_t(OC) * IC, 0.3), b = rnd(OC), res = rnd(size_t(N) * OC),
      y = B::zeros(size_t(N) * OC);
    B::linear_forward_residual(y.data(), res.data(), inp.data(), W.data(), b.data(), N, IC, OC);
    out("linear_forward_residual", "out", std::move(y));
  }
  {  // an FFN's Linear and ReLU together, forward and backward (pre with both signs)
    A inp = rnd(size_t(N) * IC), W = rnd(size_t(OC) * IC, 0.3), b = rnd(OC), pre = B::zeros(size_t(N) * OC),
      h = B::zeros(size_t(N) * OC);
    B::linear_relu_forward(pre.data(), h.data(), inp.data(), W.data(), b.data(), N, IC, OC);
    A dout = rnd(size_t(N) * OC), fpre = rnd(size_t(N) * IC), d_pre = B::zeros(size_t(N) * IC),
      d_h = B::zeros(size_t(N) * IC), dW = rnd(size_t(OC) * IC), db = rnd(OC);
    B::linear_backward_relu(d_pre.data(), d_h.data(), dW.data(), db.data(), dout.data(), inp.data(), W.data(),
                            fpre.data(), N, IC, OC);
    outs("linear_relu_forward", {{"pre", &pre}, {"h", &h}});
    outs("linear_backward_relu", {{"d_pre", &d_pre}, {"dW (+=)", &dW}, {"db (+=)", &db}});
  }
}

struct Output {
  std::string op, output;
  std::vector<double> cpu;
  std::vector<float> gpu;
};

// max|a − b| / max|b| (0 when both are 0)
double max_rel(const std::vector<float>& a, const std::vector<double>& b) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(a[i]) - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

}  // namespace

struct OpCheckImpl {
  static constexpr const char* kName = "op check";
  std::vector<Output> outputs;
  std::vector<Array> keep;  // GPU outputs stay alive until their readbacks land
  std::vector<uint32_t> tickets;

  OpCheckImpl() {
    run_ops<CpuBackend<float>>([&](const std::string& op, const std::string& name, const auto& v) {
      outputs.push_back({op, name, std::vector<double>(v.begin(), v.end()), {}});
    });
    size_t i = 0;
    auto gpu_out = [&](const std::string& op, const std::string& name, Array&& a) {
      if (i >= outputs.size() || outputs[i].op != op || outputs[i].output != name)
        throw std::logic_error("op check: the CPU and GPU runs emitted different outputs");
      Output& o = outputs[i++];
      o.gpu.resize(o.cpu.size());
      if (a.size() < o.cpu.size()) throw std::logic_error("op check: " + op + " " + name + ": sizes differ");
      keep.push_back(std::move(a));
    };
    run_ops<GpuBackend>(gpu_out);
    submit();
    for (size_t j = 0; j < outputs.size(); ++j)
      tickets.push_back(read(keep[j].buffer(), 0, outputs[j].gpu.size() * 4, outputs[j].gpu.data()));
  }

  std::string result_json() const {
    json::Writer w;
    double worst = 0;
    std::vector<std::string> names;
    w.begin_object().key("ops").begin_array();
    for (const Output& o : outputs) {
      const double e = max_rel(o.gpu, o.cpu);
      worst = std::max(worst, std::isfinite(e) ? e : 1e30);
      if (std::find(names.begin(), names.end(), o.op) == names.end()) names.push_back(o.op);
      w.begin_object().key("op").value(o.op).key("output").value(o.output);
      w.key("size").value(static_cast<double>(o.cpu.size())).key("max_rel").value(e).end_object();
    }
    w.end_array().key("max_rel").value(worst).key("op_names").begin_array();
    for (const auto& n : names) w.value(n);
    w.end_array().end_object();
    return w.str();
  }
};
// OpCheck: the members of Check (check_impl.h) for this Impl.
template class Check<OpCheckImpl>;
template Check<OpCheckImpl>::Check();

}  // namespace lnx::gpu
