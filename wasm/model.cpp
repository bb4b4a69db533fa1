// model.cpp — forward and backward of the reference Transformer (see model.h).
#include "model.h"

#include <algorithm>
#include <cmath>

#include "ops/attention.h"
#include "ops/cross_entropy.h"
#include "ops/layernorm.h"
#include "ops/linear.h"
#include "ops/relu.h"
#include "rng.h"
#include "thread_pool.h"

namespace lnx {

template <class T>
Workspace<T>::Workspace(const ModelConfig& cfg) {
  const size_t N = static_cast<size_t>(cfg.batch) * cfg.seq;
  const size_t Nd = N * cfg.d, NF = N * cfg.d_ff;
  caches.resize(cfg.layers);
  for (auto& c : caches) {
    for (auto* v : {&c.ln1_out, &c.q, &c.k, &c.v, &c.att_out, &c.sum1, &c.ln2_out, &c.sum2}) v->resize(Nd);
    for (auto* v : {&c.ln1_mean, &c.ln1_rstd, &c.ln2_mean, &c.ln2_rstd}) v->resize(N);
    c.att_p.resize(N * cfg.seq);
    c.ffn_pre.resize(NF);
    c.ffn_h.resize(NF);
  }
  x0.resize(Nd);
  final_out.resize(Nd);
  final_mean.resize(N);
  final_rstd.resize(N);
  probs.resize(N * cfg.vocab);
  for (auto* v : {&d_a, &d_b, &d_c, &d_q, &d_k, &d_v, &d_stream[0], &d_stream[1]}) v->resize(Nd);
  d_h.resize(NF);
  d_pre.resize(NF);
  d_logits.resize(N * cfg.vocab);
}

template <class T>
Workspace<T>& Transformer<T>::ws() {
  if (!ws_) {
    if (!own_ws_) own_ws_ = std::make_unique<Workspace<T>>(cfg_);
    ws_ = own_ws_.get();
  }
  return *ws_;
}

template <class T>
TensorRef Transformer<T>::alloc(int rows, int cols) {
  TensorRef t{params_.size(), rows, cols};
  params_.resize(params_.size() + t.size(), T(0));
  return t;
}

template <class T>
Transformer<T>::Transformer(const ModelConfig& cfg, uint64_t seed) : cfg_(cfg) {
  cfg_.validate();
  const int d = cfg_.d, F = cfg_.d_ff, V = cfg_.vocab;
  N_ = cfg_.batch * cfg_.seq;
  E_ = alloc(V, d);
  layers_.resize(cfg_.layers);
  for (auto& p : layers_) {
    p.Wq = alloc(d, d), p.bq = alloc(d, 1);
    p.Wk = alloc(d, d), p.bk = alloc(d, 1);
    p.Wv = alloc(d, d), p.bv = alloc(d, 1);
    p.W1 = alloc(F, d), p.b1 = alloc(F, 1);
    p.W2 = alloc(d, F), p.b2 = alloc(d, 1);
    p.ln1_g = alloc(d, 1), p.ln1_b = alloc(d, 1);
    p.ln2_g = alloc(d, 1), p.ln2_b = alloc(d, 1);
  }
  lnf_g_ = alloc(d, 1), lnf_b_ = alloc(d, 1);

  // Initialisation, in a fixed order from one stream: E ~ N(0, 1/d) (fairseq), then per layer the
  // Xavier-normal weights std = √(2/(fan_in + fan_out)) (Xiong et al. §3.3); biases 0, γ 1, β 0.
  Rng rng(stream_seed(seed, kStreamModel));
  auto fill_normal = [&](const TensorRef& t, double stddev) {
    T* p = param(t);
    for (size_t i = 0; i < t.size(); ++i) p[i] = static_cast<T>(stddev * rng.normal());
  };
  auto fill_ones = [&](const TensorRef& t) { std::fill(param(t), param(t) + t.size(), T(1)); };
  auto xavier = [&](const TensorRef& W) { fill_normal(W, std::sqrt(2.0 / (W.rows + W.cols))); };
  fill_normal(E_, 1.0 / std::sqrt(static_cast<double>(d)));
  for (auto& p : layers_) {
    xavier(p.Wq), xavier(p.Wk), xavier(p.Wv), xavier(p.W1), xavier(p.W2);
    fill_ones(p.ln1_g), fill_ones(p.ln2_g);
  }
  fill_ones(lnf_g_);
  grads_.assign(params_.size(), T(0));

}


template <class T>
std::vector<std::pair<std::string, TensorRef>> Transformer<T>::named_tensors() const {
  std::vector<std::pair<std::string, TensorRef>> out{{"E", E_}};
  for (size_t l = 0; l < layers_.size(); ++l) {
    const auto& p = layers_[l];
    const std::string s = "layer" + std::to_string(l + 1) + ".";
    for (auto& kv : std::vector<std::pair<const char*, TensorRef>>{
             {"Wq", p.Wq}, {"bq", p.bq}, {"Wk", p.Wk}, {"bk", p.bk}, {"Wv", p.Wv}, {"bv", p.bv},
             {"W1", p.W1}, {"b1", p.b1}, {"W2", p.W2}, {"b2", p.b2}, {"ln1.gamma", p.ln1_g},
             {"ln1.beta", p.ln1_b}, {"ln2.gamma", p.ln2_g}, {"ln2.beta", p.ln2_b}})
      out.emplace_back(s + kv.first, kv.second);
  }
  if (cfg_.norm == Norm::Pre) {
    out.emplace_back("final.gamma", lnf_g_);
    out.emplace_back("final.beta", lnf_b_);
  }
  return out;
}

template <class T>
void Transformer<T>::zero_grad() {
  std::fill(grads_.begin(), grads_.end(), T(0));
}

template <class T>
const T* Transformer<T>::layer_output(int l) const {
  const Workspace<T>& W = *ws_;
  return cfg_.norm == Norm::Post ? W.caches[l].ln2_out.data() : W.caches[l].sum2.data();
}

template <class T>
const T* Transformer<T>::last_output() const {
  const Workspace<T>& W = *ws_;
  return cfg_.layers > 0 ? layer_output(cfg_.layers - 1) : W.x0.data();
}

template <class T>
void Transformer<T>::layer_forward(int l, const T* x_in) {
  Workspace<T>& W = ws();
  const int d = cfg_.d, F = cfg_.d_ff, N = N_;
  const bool causal = cfg_.attention == Attention::Causal;
  const LayerParams& p = layers_[l];
  LayerCache<T>& c = W.caches[l];
  const size_t Nd = static_cast<size_t>(N) * d;
  auto attention = [&](const T* inp) {  // c.att_out = softmax(q kᵀ/√d) v with q, k, v from inp
    ops::linear_forward(c.q.data(), inp, param(p.Wq), param(p.bq), N, d, d);
    ops::linear_forward(c.k.data(), inp, param(p.Wk), param(p.bk), N, d, d);
    ops::linear_forward(c.v.data(), inp, param(p.Wv), param(p.bv), N, d, d);
    ops::attention_forward(c.att_out.data(), c.att_p.data(), c.q.data(), c.k.data(), c.v.data(), cfg_.batch,
                           cfg_.seq, d, causal);
  };
  auto ffn_into = [&](T* sum, const T* inp) {  // sum += W2·ReLU(W1·inp + b1) + b2 ; sum holds the residual
    ops::linear_forward(c.ffn_pre.data(), inp, param(p.W1), param(p.b1), N, d, F);
    ops::relu_forward(c.ffn_h.data(), c.ffn_pre.data(), static_cast<long>(N) * F);
    gemm<T>(false, true, N, d, F, T(1), c.ffn_h.data(), F, param(p.W2), F, T(1), sum, d);
    ops::add_row_vector(sum, param(p.b2), N, d);
  };
  if (cfg_.norm == Norm::Post) {
    attention(x_in);
    for (size_t i = 0; i < Nd; ++i) c.sum1[i] = x_in[i] + c.att_out[i];  // x + Attn(x)
    ops::layernorm_forward(c.ln1_out.data(), c.ln1_mean.data(), c.ln1_rstd.data(), c.sum1.data(),
                           param(p.ln1_g), param(p.ln1_b), N, d);  // x1 = LN1(x + Attn(x))
    std::copy(c.ln1_out.begin(), c.ln1_out.end(), c.sum2.begin());
    ffn_into(c.sum2.data(), c.ln1_out.data());  // x5 = x1 + FFN(x1)
    ops::layernorm_forward(c.ln2_out.data(), c.ln2_mean.data(), c.ln2_rstd.data(), c.sum2.data(),
                           param(p.ln2_g), param(p.ln2_b), N, d);  // out = LN2(x5)
  } else {
    ops::layernorm_forward(c.ln1_out.data(), c.ln1_mean.data(), c.ln1_rstd.data(), x_in, param(p.ln1_g),
                           param(p.ln1_b), N, d);  // LN1(x)
    attention(c.ln1_out.data());
    for (size_t i = 0; i < Nd; ++i) c.sum1[i] = x_in[i] + c.att_out[i];  // x + Attn(LN1(x))
    ops::layernorm_forward(c.ln2_out.data(), c.ln2_mean.data(), c.ln2_rstd.data(), c.sum1.data(),
                           param(p.ln2_g), param(p.ln2_b), N, d);  // LN2(sum1)
    std::copy(c.sum1.begin(), c.sum1.end(), c.sum2.begin());
    ffn_into(c.sum2.data(), c.ln2_out.data());  // out = sum1 + FFN(LN2(sum1))
  }
}

template <class T>
double Transformer<T>::forward(const int* tokens, const int* targets) {
  Workspace<T>& W = ws();
  const int d = cfg_.d, N = N_, V = cfg_.vocab;
  W.tokens.assign(tokens, tokens + N);
  W.targets.assign(targets, targets + N);
  for (int r = 0; r < N; ++r)
    if (tokens[r] < 0 || tokens[r] >= V || targets[r] < 0 || targets[r] >= V)
      throw ArgumentError("token id out of range [0, vocab)");
  const T scale = std::sqrt(T(d));
  const T* E = param(E_);
  for (int r = 0; r < N; ++r)  // x0 = √d·E[tok], so ‖x0‖² ≈ d as the paper assumes
    for (int c = 0; c < d; ++c) W.x0[static_cast<size_t>(r) * d + c] = scale * E[static_cast<size_t>(tokens[r]) * d + c];
  const T* x = W.x0.data();
  for (int l = 0; l < cfg_.layers; ++l) {
    layer_forward(l, x);
    x = layer_output(l);
  }
  const T* final_in = x;
  if (cfg_.norm == Norm::Pre) {
    ops::layernorm_forward(W.final_out.data(), W.final_mean.data(), W.final_rstd.data(), x, param(lnf_g_),
                           param(lnf_b_), N, d);
    final_in = W.final_out.data();
  }
  std::vector<T>& logits = W.d_logits;  // the logits are only needed until the softmax
  ops::linear_forward<T>(logits.data(), final_in, E, nullptr, N, d, V);  // tied output layer
  return ops::cross_entropy_forward(W.probs.data(), logits.data(), W.targets.data(), N, V);
}

template <class T>
void Transformer<T>::layer_backward(int l, const T* x_in, const T* dout, T* dx_in, GradScope scope) {
  Workspace<T>& W = ws();
  const int d = cfg_.d, F = cfg_.d_ff, N = N_;
  const LayerParams& p = layers_[l];
  const LayerCache<T>& c = W.caches[l];
  const size_t Nd = static_cast<size_t>(N) * d;
  const bool all = scope == GradScope::All;
  const bool last_only = scope == GradScope::LastW2Only;
  auto g = [&](const TensorRef& t) { return all ? grad(t) : nullptr; };  // gradients outside W²
  T *da = W.d_a.data(), *db = W.d_b.data(), *dc = W.d_c.data();
  T *dq = W.d_q.data(), *dk = W.d_k.data(), *dv = W.d_v.data();

  // Backward through the FFN branch, given d(sum2) = dsum2; writes d(FFN input) into dffn_in (+= when
  // accumulate) and returns false when only the last W² gradient was wanted.
  auto ffn_backward = [&](const T* dsum2, const T* ffn_in, T* dffn_in, bool accumulate) {
    // sum2 = residual + ffn_h·W2ᵀ + b2
    ops::linear_backward<T>(last_only ? nullptr : W.d_h.data(), grad(p.W2), g(p.b2), dsum2, c.ffn_h.data(),
                            param(p.W2), N, F, d, false);
    if (last_only) return false;
    ops::relu_backward(W.d_pre.data(), W.d_h.data(), c.ffn_pre.data(), static_cast<long>(N) * F);
    ops::linear_backward<T>(dffn_in, g(p.W1), g(p.b1), W.d_pre.data(), ffn_in, param(p.W1), N, d, F, accumulate);
    return true;
  };
  // Backward through q, k, v = inp·Wᵀ + b given dq, dk, dv; d(inp) into dinp (+= when accumulate).
  auto qkv_backward = [&](const T* inp, T* dinp, bool accumulate) {
    ops::linear_backward<T>(dinp, g(p.Wq), g(p.bq), dq, inp, param(p.Wq), N, d, d, accumulate);
    ops::linear_backward<T>(dinp, g(p.Wk), g(p.bk), dk, inp, param(p.Wk), N, d, d, true);
    ops::linear_backward<T>(dinp, g(p.Wv), g(p.bv), dv, inp, param(p.Wv), N, d, d, true);
  };

  if (cfg_.norm == Norm::Post) {
    // out = LN2(x5)
    std::fill(da, da + Nd, T(0));
    ops::layernorm_backward(da, g(p.ln2_g), g(p.ln2_b), dout, c.sum2.data(), c.ln2_mean.data(), c.ln2_rstd.data(),
                            param(p.ln2_g), N, d);  // da = d x5
    // x5 = x1 + FFN(x1)
    std::copy(da, da + Nd, db);
    if (!ffn_backward(da, c.ln1_out.data(), db, true)) return;  // db = d x1
    // x1 = LN1(sum1)
    std::fill(dc, dc + Nd, T(0));
    ops::layernorm_backward(dc, g(p.ln1_g), g(p.ln1_b), db, c.sum1.data(), c.ln1_mean.data(), c.ln1_rstd.data(),
                            param(p.ln1_g), N, d);  // dc = d sum1
    // sum1 = x_in + Attn(x_in)
    ops::attention_backward(dq, dk, dv, dc, c.q.data(), c.k.data(), c.v.data(), c.att_p.data(), cfg_.batch,
                            cfg_.seq, d);
    std::copy(dc, dc + Nd, dx_in);
    qkv_backward(x_in, dx_in, true);
  } else {
    // out = sum1 + FFN(LN2(sum1))
    if (!ffn_backward(dout, c.ln2_out.data(), da, false)) return;  // da = d LN2(sum1)
    std::copy(dout, dout + Nd, db);
    ops::layernorm_backward(db, g(p.ln2_g), g(p.ln2_b), da, c.sum1.data(), c.ln2_mean.data(), c.ln2_rstd.data(),
                            param(p.ln2_g), N, d);  // db = d sum1
    // sum1 = x_in + Attn(LN1(x_in))
    ops::attention_backward(dq, dk, dv, db, c.q.data(), c.k.data(), c.v.data(), c.att_p.data(), cfg_.batch,
                            cfg_.seq, d);
    qkv_backward(c.ln1_out.data(), dc, false);  // dc = d LN1(x_in)
    std::copy(db, db + Nd, dx_in);
    ops::layernorm_backward(dx_in, g(p.ln1_g), g(p.ln1_b), dc, x_in, c.ln1_mean.data(), c.ln1_rstd.data(),
                            param(p.ln1_g), N, d);
  }
}

template <class T>
void Transformer<T>::backward(GradScope scope) {
  Workspace<T>& W = ws();
  const int d = cfg_.d, N = N_, V = cfg_.vocab, L = cfg_.layers;
  const bool all = scope == GradScope::All;
  const size_t Nd = static_cast<size_t>(N) * d;
  ops::cross_entropy_backward(W.d_logits.data(), W.probs.data(), W.targets.data(), N, V);
  const T* x_L = last_output();
  const T* final_in = cfg_.norm == Norm::Pre ? W.final_out.data() : x_L;
  T* dcur = W.d_stream[0].data();
  T* dnext = W.d_stream[1].data();
  // logits = final·Eᵀ
  ops::linear_backward<T>(dcur, all ? grad(E_) : nullptr, nullptr, W.d_logits.data(), final_in, param(E_), N, d, V,
                          false);
  if (cfg_.norm == Norm::Pre) {  // final = LN_f(x_L): the gradient is scaled by ≈ √d/‖x_L‖ here (Lemma 3)
    std::fill(dnext, dnext + Nd, T(0));
    ops::layernorm_backward(dnext, all ? grad(lnf_g_) : nullptr, all ? grad(lnf_b_) : nullptr, dcur, x_L,
                            W.final_mean.data(), W.final_rstd.data(), param(lnf_g_), N, d);
    std::swap(dcur, dnext);
  }
  for (int l = L - 1; l >= 0; --l) {
    const T* x_in = l == 0 ? W.x0.data() : layer_output(l - 1);
    layer_backward(l, x_in, dcur, dnext, scope);
    if (scope == GradScope::LastW2Only) return;
    std::swap(dcur, dnext);
  }
  if (!all) return;
  // x0 = √d·E[tok]: scatter-add into the embedding rows. Split over columns so rows that share a
  // token are summed in a fixed order whatever the thread count.
  T* gE = grad(E_);
  const T scale = std::sqrt(T(d));
  pool().parallel_for(d, [&](long c0, long c1, int) {
    for (int r = 0; r < N; ++r)
      for (long c = c0; c < c1; ++c)
        gE[static_cast<size_t>(W.tokens[r]) * d + c] += scale * dcur[static_cast<size_t>(r) * d + c];
  }, 16);
}

template struct Workspace<float>;
template struct Workspace<double>;
template class Transformer<float>;
template class Transformer<double>;

}  // namespace lnx
