// model_impl.h — forward and backward of the reference Transformer (see model.h), written once
// against the op interface of backend.h. Included only by the files that instantiate a backend:
// model.cpp (CpuBackend<float>, CpuBackend<double>) and gpu/gpu_model.cpp (gpu::GpuBackend).
// Leaves out: the optimizer, the probe statistics, anything that reads memory on the host.
#pragma once
#include <algorithm>
#include <cmath>

#include "model.h"
#include "rng.h"

namespace lnx {

template <class B>
ModelWorkspace<B>::ModelWorkspace(const ModelConfig& cfg) {
  const size_t N = static_cast<size_t>(cfg.batch) * cfg.seq;
  const size_t Nd = N * cfg.d, NF = N * cfg.d_ff;
  caches.resize(cfg.layers);
  for (auto& c : caches) {
    for (auto* v : {&c.ln1_out, &c.q, &c.k, &c.v, &c.att_out, &c.sum1, &c.ln2_out, &c.sum2}) *v = B::zeros(Nd);
    for (auto* v : {&c.ln1_mean, &c.ln1_rstd, &c.ln2_mean, &c.ln2_rstd}) *v = B::zeros(N);
    c.att_p = B::zeros(N * cfg.seq);
    c.ffn_pre = B::zeros(NF);
    c.ffn_h = B::zeros(NF);
  }
  x0 = B::zeros(Nd);
  final_out = B::zeros(Nd);
  final_mean = B::zeros(N);
  final_rstd = B::zeros(N);
  probs = B::zeros(N * cfg.vocab);
  for (auto* v : {&d_a, &d_b, &d_c, &d_q, &d_k, &d_v, &d_stream[0], &d_stream[1]}) *v = B::zeros(Nd);
  d_h = B::zeros(NF);
  d_pre = B::zeros(NF);
  d_logits = B::zeros(N * cfg.vocab);
}

template <class B>
ModelWorkspace<B>& Model<B>::ws() {
  if (!ws_) {
    if (!own_ws_) own_ws_ = std::make_unique<ModelWorkspace<B>>(cfg_);
    ws_ = own_ws_.get();
  }
  return *ws_;
}

template <class B>
TensorRef Model<B>::alloc(int rows, int cols) {
  size_ = (size_ + B::kAlign - 1) / B::kAlign * B::kAlign;
  TensorRef t{size_, rows, cols};
  size_ += t.size();
  return t;
}

template <class B>
Model<B>::Model(const ModelConfig& cfg, uint64_t seed) : cfg_(cfg) {
  using T = typename B::Scalar;
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
  size_ = (size_ + B::kAlign - 1) / B::kAlign * B::kAlign;

  // Initialisation on the host, in a fixed order from one stream: E ~ N(0, 1/d) (fairseq), then per
  // layer the Xavier-normal weights std = √(2/(fan_in + fan_out)) (Xiong et al. §3.3); biases 0,
  // γ 1, β 0. The same numbers on every backend; padding (GPU alignment) stays 0.
  std::vector<T> init(size_, T(0));
  Rng rng(stream_seed(seed, kStreamModel));
  auto fill_normal = [&](const TensorRef& t, double stddev) {
    T* p = init.data() + t.off;
    for (size_t i = 0; i < t.size(); ++i) p[i] = static_cast<T>(stddev * rng.normal());
  };
  auto fill_ones = [&](const TensorRef& t) { std::fill(init.begin() + t.off, init.begin() + t.off + t.size(), T(1)); };
  auto xavier = [&](const TensorRef& W) { fill_normal(W, std::sqrt(2.0 / (W.rows + W.cols))); };
  fill_normal(E_, 1.0 / std::sqrt(static_cast<double>(d)));
  for (auto& p : layers_) {
    xavier(p.Wq), xavier(p.Wk), xavier(p.Wv), xavier(p.W1), xavier(p.W2);
    fill_ones(p.ln1_g), fill_ones(p.ln2_g);
  }
  fill_ones(lnf_g_);
  params_ = B::array(std::move(init));
  grads_ = B::zeros(size_);
}

template <class B>
std::vector<std::pair<std::string, TensorRef>> Model<B>::named_tensors() const {
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

template <class B>
void Model<B>::zero_grad() {
  B::zero(grads_.data(), size_);
}

template <class B>
typename B::CPtr Model<B>::layer_output(int l) const {
  const ModelWorkspace<B>& W = *ws_;
  return cfg_.norm == Norm::Post ? W.caches[l].ln2_out.data() : W.caches[l].sum2.data();
}

template <class B>
typename B::CPtr Model<B>::last_output() const {
  const ModelWorkspace<B>& W = *ws_;
  return cfg_.layers > 0 ? layer_output(cfg_.layers - 1) : W.x0.data();
}

template <class B>
void Model<B>::layer_forward(int l, CPtr x_in) {
  using T = typename B::Scalar;
  ModelWorkspace<B>& W = ws();
  const int d = cfg_.d, F = cfg_.d_ff, N = N_;
  const bool causal = cfg_.attention == Attention::Causal;
  const LayerParams& p = layers_[l];
  LayerCache<Array>& c = W.caches[l];
  const size_t Nd = static_cast<size_t>(N) * d;
  auto attention = [&](CPtr inp) {  // c.att_out = softmax(q kᵀ/√d) v with q, k, v from inp
    B::linear_forward(c.q.data(), inp, param(p.Wq), param(p.bq), N, d, d);
    B::linear_forward(c.k.data(), inp, param(p.Wk), param(p.bk), N, d, d);
    B::linear_forward(c.v.data(), inp, param(p.Wv), param(p.bv), N, d, d);
    B::attention_forward(c.att_out.data(), c.att_p.data(), c.q.data(), c.k.data(), c.v.data(), cfg_.batch, cfg_.seq,
                         d, causal);
  };
  auto ffn_into = [&](Ptr sum, CPtr inp) {  // sum += W2·ReLU(W1·inp + b1) + b2 ; sum holds the residual
    B::linear_forward(c.ffn_pre.data(), inp, param(p.W1), param(p.b1), N, d, F);
    B::relu_forward(c.ffn_h.data(), c.ffn_pre.data(), static_cast<long>(N) * F);
    B::gemm(false, true, N, d, F, T(1), c.ffn_h.data(), F, param(p.W2), F, T(1), sum, d);
    B::add_row_vector(sum, param(p.b2), N, d);
  };
  if (cfg_.norm == Norm::Post) {
    attention(x_in);
    B::add(c.sum1.data(), x_in, c.att_out.data(), Nd);  // x + Attn(x)
    B::layernorm_forward(c.ln1_out.data(), c.ln1_mean.data(), c.ln1_rstd.data(), c.sum1.data(), param(p.ln1_g),
                         param(p.ln1_b), N, d);  // x1 = LN1(x + Attn(x))
    B::copy(c.sum2.data(), c.ln1_out.data(), Nd);
    ffn_into(c.sum2.data(), c.ln1_out.data());  // x5 = x1 + FFN(x1)
    B::layernorm_forward(c.ln2_out.data(), c.ln2_mean.data(), c.ln2_rstd.data(), c.sum2.data(), param(p.ln2_g),
                         param(p.ln2_b), N, d);  // out = LN2(x5)
  } else {
    B::layernorm_forward(c.ln1_out.data(), c.ln1_mean.data(), c.ln1_rstd.data(), x_in, param(p.ln1_g),
                         param(p.ln1_b), N, d);  // LN1(x)
    attention(c.ln1_out.data());
    B::add(c.sum1.data(), x_in, c.att_out.data(), Nd);  // x + Attn(LN1(x))
    B::layernorm_forward(c.ln2_out.data(), c.ln2_mean.data(), c.ln2_rstd.data(), c.sum1.data(), param(p.ln2_g),
                         param(p.ln2_b), N, d);  // LN2(sum1)
    B::copy(c.sum2.data(), c.sum1.data(), Nd);
    ffn_into(c.sum2.data(), c.ln2_out.data());  // out = sum1 + FFN(LN2(sum1))
  }
}

template <class B>
typename B::Loss Model<B>::forward(const int* tokens, const int* targets) {
  ModelWorkspace<B>& W = ws();
  const int d = cfg_.d, N = N_, V = cfg_.vocab;
  for (int r = 0; r < N; ++r)
    if (tokens[r] < 0 || tokens[r] >= V || targets[r] < 0 || targets[r] >= V)
      throw ArgumentError("token id out of range [0, vocab)");
  W.tokens.set(tokens, N);
  W.targets.set(targets, N);
  CPtr E = param(E_);
  B::embed_forward(W.x0.data(), E, W.tokens, N, d, V);  // x0 = √d·E[tok], so ‖x0‖² ≈ d as the paper assumes
  CPtr x = W.x0.data();
  for (int l = 0; l < cfg_.layers; ++l) {
    layer_forward(l, x);
    x = layer_output(l);
  }
  CPtr final_in = x;
  if (cfg_.norm == Norm::Pre) {
    B::layernorm_forward(W.final_out.data(), W.final_mean.data(), W.final_rstd.data(), x, param(lnf_g_),
                         param(lnf_b_), N, d);
    final_in = W.final_out.data();
  }
  Array& logits = W.d_logits;  // the logits are only needed until the softmax
  B::linear_forward(logits.data(), final_in, E, CPtr{}, N, d, V);  // tied output layer
  return B::cross_entropy_forward(W.probs.data(), logits.data(), W.targets, N, V);
}

template <class B>
void Model<B>::layer_backward(int l, CPtr x_in, CPtr dout, Ptr dx_in, GradScope scope) {
  ModelWorkspace<B>& W = ws();
  const int d = cfg_.d, F = cfg_.d_ff, N = N_;
  const LayerParams& p = layers_[l];
  const LayerCache<Array>& c = W.caches[l];
  const size_t Nd = static_cast<size_t>(N) * d;
  const bool all = scope == GradScope::All;
  const bool last_only = scope == GradScope::LastW2Only;
  auto g = [&](const TensorRef& t) { return all ? grad(t) : Ptr{}; };  // gradients outside W²
  Ptr da = W.d_a.data(), db = W.d_b.data(), dc = W.d_c.data();
  Ptr dq = W.d_q.data(), dk = W.d_k.data(), dv = W.d_v.data();

  // Backward through the FFN branch, given d(sum2) = dsum2; writes d(FFN input) into dffn_in (+= when
  // accumulate) and returns false when only the last W² gradient was wanted.
  auto ffn_backward = [&](CPtr dsum2, CPtr ffn_in, Ptr dffn_in, bool accumulate) {
    // sum2 = residual + ffn_h·W2ᵀ + b2
    B::linear_backward(last_only ? Ptr{} : W.d_h.data(), grad(p.W2), g(p.b2), dsum2, c.ffn_h.data(), param(p.W2), N,
                       F, d, false);
    if (last_only) return false;
    B::relu_backward(W.d_pre.data(), W.d_h.data(), c.ffn_pre.data(), static_cast<long>(N) * F);
    B::linear_backward(dffn_in, g(p.W1), g(p.b1), W.d_pre.data(), ffn_in, param(p.W1), N, d, F, accumulate);
    return true;
  };
  // Backward through q, k, v = inp·Wᵀ + b given dq, dk, dv; d(inp) into dinp (+= when accumulate).
  auto qkv_backward = [&](CPtr inp, Ptr dinp, bool accumulate) {
    B::linear_backward(dinp, g(p.Wq), g(p.bq), dq, inp, param(p.Wq), N, d, d, accumulate);
    B::linear_backward(dinp, g(p.Wk), g(p.bk), dk, inp, param(p.Wk), N, d, d, true);
    B::linear_backward(dinp, g(p.Wv), g(p.bv), dv, inp, param(p.Wv), N, d, d, true);
  };

  if (cfg_.norm == Norm::Post) {
    // out = LN2(x5)
    B::zero(da, Nd);
    B::layernorm_backward(da, g(p.ln2_g), g(p.ln2_b), dout, c.sum2.data(), c.ln2_mean.data(), c.ln2_rstd.data(),
                          param(p.ln2_g), N, d);  // da = d x5
    // x5 = x1 + FFN(x1)
    B::copy(db, da, Nd);
    if (!ffn_backward(da, c.ln1_out.data(), db, true)) return;  // db = d x1
    // x1 = LN1(sum1)
    B::zero(dc, Nd);
    B::layernorm_backward(dc, g(p.ln1_g), g(p.ln1_b), db, c.sum1.data(), c.ln1_mean.data(), c.ln1_rstd.data(),
                          param(p.ln1_g), N, d);  // dc = d sum1
    // sum1 = x_in + Attn(x_in)
    B::attention_backward(dq, dk, dv, dc, c.q.data(), c.k.data(), c.v.data(), c.att_p.data(), cfg_.batch, cfg_.seq,
                          d);
    B::copy(dx_in, dc, Nd);
    qkv_backward(x_in, dx_in, true);
  } else {
    // out = sum1 + FFN(LN2(sum1))
    if (!ffn_backward(dout, c.ln2_out.data(), da, false)) return;  // da = d LN2(sum1)
    B::copy(db, dout, Nd);
    B::layernorm_backward(db, g(p.ln2_g), g(p.ln2_b), da, c.sum1.data(), c.ln2_mean.data(), c.ln2_rstd.data(),
                          param(p.ln2_g), N, d);  // db = d sum1
    // sum1 = x_in + Attn(LN1(x_in))
    B::attention_backward(dq, dk, dv, db, c.q.data(), c.k.data(), c.v.data(), c.att_p.data(), cfg_.batch, cfg_.seq,
                          d);
    qkv_backward(c.ln1_out.data(), dc, false);  // dc = d LN1(x_in)
    B::copy(dx_in, db, Nd);
    B::layernorm_backward(dx_in, g(p.ln1_g), g(p.ln1_b), dc, x_in, c.ln1_mean.data(), c.ln1_rstd.data(),
                          param(p.ln1_g), N, d);
  }
}

template <class B>
void Model<B>::backward(GradScope scope) {
  ModelWorkspace<B>& W = ws();
  const int d = cfg_.d, N = N_, V = cfg_.vocab, L = cfg_.layers;
  const bool all = scope == GradScope::All;
  const size_t Nd = static_cast<size_t>(N) * d;
  B::cross_entropy_backward(W.d_logits.data(), W.probs.data(), W.targets, N, V);
  CPtr x_L = last_output();
  CPtr final_in = cfg_.norm == Norm::Pre ? CPtr(W.final_out.data()) : x_L;
  Ptr dcur = W.d_stream[0].data();
  Ptr dnext = W.d_stream[1].data();
  // logits = final·Eᵀ
  B::linear_backward(dcur, all ? grad(E_) : Ptr{}, Ptr{}, W.d_logits.data(), final_in, param(E_), N, d, V, false);
  if (cfg_.norm == Norm::Pre) {  // final = LN_f(x_L): the gradient is scaled by ≈ √d/‖x_L‖ here (Lemma 3)
    B::zero(dnext, Nd);
    B::layernorm_backward(dnext, all ? grad(lnf_g_) : Ptr{}, all ? grad(lnf_b_) : Ptr{}, dcur, x_L,
                          W.final_mean.data(), W.final_rstd.data(), param(lnf_g_), N, d);
    std::swap(dcur, dnext);
  }
  for (int l = L - 1; l >= 0; --l) {
    CPtr x_in = l == 0 ? CPtr(W.x0.data()) : layer_output(l - 1);
    layer_backward(l, x_in, dcur, dnext, scope);
    if (scope == GradScope::LastW2Only) return;
    std::swap(dcur, dnext);
  }
  if (!all) return;
  // x0 = √d·E[tok]: scatter-add into the embedding rows.
  B::embed_backward(grad(E_), dcur, W.tokens, N, d, V);
}

}  // namespace lnx
