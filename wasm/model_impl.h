// model_impl.h — forward and backward of the reference Transformer (see model.h), written once
// against the op interface of op_interface.h. Included only by the files that instantiate a backend:
// model.cpp (CpuBackend<float>, CpuBackend<double>) and gpu/gpu_model.cpp (gpu::GpuBackend).
// Leaves out: the optimizer, the probe statistics, anything that reads memory on the host.
#pragma once
#include <algorithm>
#include <cmath>

#include "model.h"
#include "placements/spec.h"
#include "rng.h"

namespace lnx {

// A norm's cache (model.h NormCache): LayerNorm and RMSNorm keep the output, mean and rstd per row;
// DyT the output and tanh(α·x); none the output only.
template <class B>
NormCache<typename B::Array> norm_cache(NormKind kind, size_t N, size_t Nd) {
  NormCache<typename B::Array> c;
  c.out = B::zeros(Nd);
  if (kind == NormKind::LayerNorm || kind == NormKind::RmsNorm) c.mean = B::zeros(N), c.rstd = B::zeros(N);
  if (kind == NormKind::DyT) c.act = B::zeros(Nd);
  return c;
}

template <class B>
ModelWorkspace<B>::ModelWorkspace(const ModelConfig& cfg) {
  const std::shared_ptr<const Placement> pl_ref = resolve_placement(cfg.placement, cfg.placement_spec);
  const Placement& pl = *pl_ref;
  const NormKind norm = Model<B>::norm_kind(cfg, pl);
  const bool scaled_branch = pl.branch_scale(cfg.layers) != 1.0 || pl.residual_scale.learnable();
  const size_t N = static_cast<size_t>(cfg.batch) * cfg.seq;
  const size_t Nd = N * cfg.d, NF = N * cfg.d_ff;
  caches.resize(cfg.layers);
  for (auto& c : caches) {
    for (auto* v : {&c.q, &c.k, &c.v, &c.att_out}) *v = B::zeros(Nd);
    c.att_p = B::zeros(N * cfg.seq);
    c.ffn_pre = B::zeros(NF);
    c.ffn_h = B::zeros(NF);
    if (pl.qk_norm != NormKind::None)
      for (auto& qk : c.qk) qk = norm_cache<B>(pl.qk_norm, N, Nd);
    for (int k = 0; k < 2; ++k) {
      const Sublayer& S = k == kAttention ? pl.attention : pl.ffn;
      const bool has[3] = {S.norm_input, S.norm_branch, S.norm_after};
      SublayerCache<Array>& sc = c.sub[k];
      sc.sum = B::zeros(Nd);
      for (int slot = 0; slot < 3; ++slot)
        if (has[slot]) sc.norm[slot] = norm_cache<B>(norm, N, Nd);
      if (k == kFfn && (S.norm_branch || scaled_branch)) sc.branch = B::zeros(Nd);
    }
  }
  x0 = B::zeros(Nd);
  final = norm_cache<B>(norm, N, Nd);
  probs = B::zeros(N * cfg.vocab);
  for (auto* v : {&d_sum, &d_mid, &d_u, &d_q, &d_k, &d_v, &d_stream[0], &d_stream[1]}) *v = B::zeros(Nd);
  if (pl.attention.norm_branch || pl.ffn.norm_branch) d_branch = B::zeros(Nd);
  if (scaled_branch) scaled = B::zeros(Nd);
  if (pl.qk_norm != NormKind::None) d_qk[0] = B::zeros(Nd), d_qk[1] = B::zeros(Nd);
  if (pl.b2t) d_skip = B::zeros(Nd);
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

// A norm's parameters: γ (and β) for LayerNorm, γ for RMSNorm, γ, β and α for DyT, none for none.
template <class B>
NormParams Model<B>::alloc_norm(NormKind kind) {
  NormParams n;
  if (kind == NormKind::None) return n;
  n.gamma = alloc(cfg_.d, 1);
  if (kind != NormKind::RmsNorm) n.beta = alloc(cfg_.d, 1);
  if (kind == NormKind::DyT) n.alpha = alloc(1, 1);
  return n;
}

template <class B>
Model<B>::Model(const ModelConfig& cfg, uint64_t seed) : cfg_(cfg) {
  using T = typename B::Scalar;
  cfg_.validate();
  pl_ = resolve_placement(cfg_.placement, cfg_.placement_spec);
  const int d = cfg_.d, F = cfg_.d_ff, V = cfg_.vocab, L = cfg_.layers;
  alpha_ = pl_->alpha(L);
  branch_ = pl_->branch_scale(L);
  norm_ = norm_kind(cfg_, *pl_);
  qk_norm_ = pl_->qk_norm;
  gate_ = pl_->residual_scale.learnable();
  final_norm_ = cfg_.final_norm == FinalNorm::Auto ? pl_->final_norm : cfg_.final_norm == FinalNorm::On;
  untied_ = cfg_.output == OutputLayer::Untied;
  N_ = cfg_.batch * cfg_.seq;
  E_ = alloc(V, d);
  layers_.resize(L);
  for (auto& p : layers_) {
    p.Wq = alloc(d, d), p.bq = alloc(d, 1);
    p.Wk = alloc(d, d), p.bk = alloc(d, 1);
    p.Wv = alloc(d, d), p.bv = alloc(d, 1);
    p.W1 = alloc(F, d), p.b1 = alloc(F, 1);
    p.W2 = alloc(d, F), p.b2 = alloc(d, 1);
    for (int k = 0; k < 2; ++k) {
      const Sublayer& S = k == kAttention ? pl_->attention : pl_->ffn;
      const bool has[3] = {S.norm_input, S.norm_branch, S.norm_after};
      for (int slot = 0; slot < 3; ++slot)
        if (has[slot]) p.norm[k][slot] = alloc_norm(norm_);
    }
    if (qk_norm_ != NormKind::None) p.qk[0] = alloc_norm(qk_norm_), p.qk[1] = alloc_norm(qk_norm_);
    if (gate_) {
      p.gate[kAttention] = alloc(1, 1);
      p.gate[kFfn] = pl_->residual_scale.per_layer ? p.gate[kAttention] : alloc(1, 1);
    }
  }
  final_ = alloc_norm(norm_);  // allocated whether used or not: one layout for every placement
  if (untied_) U_ = alloc(V, d);
  size_ = (size_ + B::kAlign - 1) / B::kAlign * B::kAlign;

  // Initialisation on the host, in a fixed order from one stream: E ~ N(0, 1/d) (fairseq), then per
  // layer the Xavier-normal weights std = β·√(2/(fan_in + fan_out)) (Xiong et al. §3.3; β is the
  // placement's init scale, 1 for Post and Pre); biases 0, γ 1, β 0, DyT's α = alpha0, a gate g0
  // (constants: no draw). The same numbers on every backend; padding (GPU alignment) stays 0.
  std::vector<T> init(size_, T(0));
  Rng rng(stream_seed(seed, kStreamModel));
  auto fill_normal = [&](const TensorRef& t, double stddev) {
    T* p = init.data() + t.off;
    for (size_t i = 0; i < t.size(); ++i) p[i] = static_cast<T>(stddev * rng.normal());
  };
  auto fill = [&](const TensorRef& t, double v) {
    std::fill(init.begin() + t.off, init.begin() + t.off + t.size(), T(v));
  };
  auto init_norm = [&](const NormParams& n) {
    fill(n.gamma, 1);
    fill(n.alpha, pl_->alpha0);
  };
  auto xavier = [&](const TensorRef& W, WeightRole role) {
    fill_normal(W, pl_->beta(role, L) * std::sqrt(2.0 / (W.rows + W.cols)));
  };
  fill_normal(E_, 1.0 / std::sqrt(static_cast<double>(d)));
  for (auto& p : layers_) {
    xavier(p.Wq, WeightRole::Query), xavier(p.Wk, WeightRole::Key), xavier(p.Wv, WeightRole::Value);
    xavier(p.W1, WeightRole::FfnIn), xavier(p.W2, WeightRole::FfnOut);
    for (auto& sub : p.norm)
      for (auto& n : sub) init_norm(n);
    for (auto& n : p.qk) init_norm(n);
    for (auto& g : p.gate) fill(g, pl_->residual_scale.g0);
  }
  init_norm(final_);
  if (untied_) {  // U ~ N(0, 1/d) like E, from a stream of its own (a tied model draws the same as before)
    Rng out_rng(stream_seed(seed, kStreamOutput));
    T* u = init.data() + U_.off;
    const double stddev = 1.0 / std::sqrt(static_cast<double>(d));
    for (size_t i = 0; i < U_.size(); ++i) u[i] = static_cast<T>(stddev * out_rng.normal());
  }
  params_ = B::array(std::move(init));
  grads_ = B::zeros(size_);
}

template <class B>
std::vector<std::pair<std::string, TensorRef>> Model<B>::named_tensors() const {
  std::vector<std::pair<std::string, TensorRef>> out{{"E", E_}};
  for (size_t l = 0; l < layers_.size(); ++l) {
    const auto& p = layers_[l];
    const std::string s = "layer" + std::to_string(l + 1) + ".";
    for (auto& kv : std::vector<std::pair<const char*, TensorRef>>{{"Wq", p.Wq},
                                                                   {"bq", p.bq},
                                                                   {"Wk", p.Wk},
                                                                   {"bk", p.bk},
                                                                   {"Wv", p.Wv},
                                                                   {"bv", p.bv},
                                                                   {"W1", p.W1},
                                                                   {"b1", p.b1},
                                                                   {"W2", p.W2},
                                                                   {"b2", p.b2}})
      out.emplace_back(s + kv.first, kv.second);
    auto norm = [&](const std::string& name, const NormParams& n) {
      if (n.gamma.size()) out.emplace_back(name + ".gamma", n.gamma);
      if (n.beta.size()) out.emplace_back(name + ".beta", n.beta);
      if (n.alpha.size()) out.emplace_back(name + ".alpha", n.alpha);
    };
    // A sublayer's norms are "ln1", "ln1b", "ln1c" (attention) and "ln2", … (FFN), in slot order.
    for (int k = 0; k < 2; ++k) {
      int nth = 0;
      for (const NormParams& n : p.norm[k]) {
        if (!n.gamma.size()) continue;
        std::string name = "ln" + std::to_string(k + 1);
        if (nth > 0) name += static_cast<char>('a' + nth);
        norm(s + name, n);
        ++nth;
      }
    }
    norm(s + "qnorm", p.qk[0]);
    norm(s + "knorm", p.qk[1]);
    if (gate_ && pl_->residual_scale.per_layer) {
      out.emplace_back(s + "gate", p.gate[kAttention]);
    } else if (gate_) {
      out.emplace_back(s + "gate1", p.gate[kAttention]);
      out.emplace_back(s + "gate2", p.gate[kFfn]);
    }
  }
  if (final_norm_) {
    if (final_.gamma.size()) out.emplace_back("final.gamma", final_.gamma);
    if (final_.beta.size()) out.emplace_back("final.beta", final_.beta);
    if (final_.alpha.size()) out.emplace_back("final.alpha", final_.alpha);
  }
  if (untied_) out.emplace_back("U", U_);
  return out;
}

template <class B>
void Model<B>::zero_grad() {
  B::zero(grads_.data(), size_);
}

template <class B>
typename B::CPtr Model<B>::layer_output(int l) const {
  const SublayerCache<Array>& sc = ws_->caches[l].sub[kFfn];
  return pl_->ffn.norm_after ? sc.norm[kNormAfter].out.data() : sc.sum.data();
}

template <class B>
typename B::CPtr Model<B>::last_output() const {
  const ModelWorkspace<B>& W = *ws_;
  return cfg_.layers > 0 ? layer_output(cfg_.layers - 1) : W.x0.data();
}

template <class B>
void Model<B>::norm_forward(NormKind kind, NormCache<Array>& c, const NormParams& p, CPtr x) {
  const size_t Nd = static_cast<size_t>(N_) * cfg_.d;
  switch (kind) {
    case NormKind::RmsNorm:
      B::rmsnorm_forward(c.out.data(), c.rstd.data(), x, param(p.gamma), N_, cfg_.d);
      break;
    case NormKind::DyT:
      B::dyt_forward(c.out.data(), c.act.data(), x, param(p.gamma), param(p.beta), param(p.alpha), N_, cfg_.d);
      break;
    case NormKind::None:
      B::copy(c.out.data(), x, Nd);
      break;
    default:
      B::layernorm_forward(c.out.data(), c.mean.data(), c.rstd.data(), x, param(p.gamma), param(p.beta), N_, cfg_.d);
  }
}

// dinp += d norm(x) given d(out); the norm's parameter gradients too when `grads`.
template <class B>
void Model<B>::norm_backward(NormKind kind, Ptr dinp, bool grads, const NormParams& p, const NormCache<Array>& c,
                             CPtr dout, CPtr x) {
  auto g = [&](const TensorRef& t) { return grads ? grad(t) : Ptr{}; };
  switch (kind) {
    case NormKind::RmsNorm:
      B::rmsnorm_backward(dinp, g(p.gamma), dout, x, c.rstd.data(), param(p.gamma), N_, cfg_.d);
      break;
    case NormKind::DyT:
      B::dyt_backward(dinp, g(p.gamma), g(p.beta), g(p.alpha), dout, x, c.act.data(), param(p.gamma), param(p.alpha),
                      N_, cfg_.d);
      break;
    case NormKind::None:
      B::accumulate(dinp, dout, static_cast<size_t>(N_) * cfg_.d);
      break;
    default:
      B::layernorm_backward(dinp, g(p.gamma), g(p.beta), dout, x, c.mean.data(), c.rstd.data(), param(p.gamma), N_,
                            cfg_.d);
  }
}

// The input scale: √d (Xiong et al.'s x0 = √d·E[tok], so ‖x0‖² ≈ d), or 1.
template <class B>
typename B::Scalar Model<B>::input_scale() const {
  using T = typename B::Scalar;
  return cfg_.input_scale == InputScale::SqrtD ? std::sqrt(T(cfg_.d)) : T(1);
}

// dst = α·x (the residual path of a sublayer; a plain copy for α = 1).
template <class B>
void Model<B>::residual(Ptr dst, CPtr x, size_t n) {
  if (alpha_ == 1.0) B::copy(dst, x, n);
  else B::scale(dst, x, static_cast<typename B::Scalar>(alpha_), n);
}

// sum += m·f (the branch of a sublayer, m = 1 for every placement but CompleteP's).
template <class B>
void Model<B>::add_branch(Ptr sum, CPtr f, size_t n) {
  if (branch_ == 1.0) {
    B::accumulate(sum, f, n);
  } else {
    ModelWorkspace<B>& W = ws();
    B::scale(W.scaled.data(), f, static_cast<typename B::Scalar>(branch_), n);
    B::accumulate(sum, W.scaled.data(), n);
  }
}

// The branch output f' of sublayer k of layer l as the residual add read it (after its branch norm).
template <class B>
typename B::CPtr Model<B>::branch_output(int l, int k) const {
  const LayerCache<Array>& c = ws_->caches[l];
  const SublayerCache<Array>& sc = c.sub[k];
  const Sublayer& S = k == kAttention ? pl_->attention : pl_->ffn;
  if (S.norm_branch) return sc.norm[kNormBranch].out.data();
  return k == kAttention ? c.att_out.data() : sc.branch.data();
}

// One sublayer (placement.h): u = [N](x); f = F(u); f' = [N](f); s = α·x + m·f' (or x + g·f');
// s += skip (B2T, the FFN sublayer); out = [N](s).
template <class B>
typename B::CPtr Model<B>::sublayer_forward(int l, int k, CPtr x, CPtr skip) {
  using T = typename B::Scalar;
  ModelWorkspace<B>& W = ws();
  const int d = cfg_.d, F = cfg_.d_ff, N = N_;
  const size_t Nd = static_cast<size_t>(N) * d;
  const Sublayer& S = k == kAttention ? pl_->attention : pl_->ffn;
  const LayerParams& p = layers_[l];
  LayerCache<Array>& c = W.caches[l];
  SublayerCache<Array>& sc = c.sub[k];
  CPtr u = x;
  if (S.norm_input) {
    norm_forward(norm_, sc.norm[kNormInput], p.norm[k][kNormInput], x);
    u = sc.norm[kNormInput].out.data();
  }
  // s = α·x + m·f' (or x + g·f' with a gate)
  auto residual_add = [&](CPtr f) {
    if (gate_) {
      B::gate_forward(sc.sum.data(), x, f, param(p.gate[k]), Nd);
    } else if (alpha_ == 1.0 && branch_ == 1.0) {
      B::add(sc.sum.data(), x, f, Nd);  // s = x + f
    } else {
      residual(sc.sum.data(), x, Nd);
      add_branch(sc.sum.data(), f, Nd);
    }
  };
  if (k == kAttention) {  // f = softmax(q kᵀ/√d) v with q, k, v from u (q, k normed first with a QK-norm)
    B::linear_forward(c.q.data(), u, param(p.Wq), param(p.bq), N, d, d);
    B::linear_forward(c.k.data(), u, param(p.Wk), param(p.bk), N, d, d);
    B::linear_forward(c.v.data(), u, param(p.Wv), param(p.bv), N, d, d);
    CPtr q = c.q.data(), kk = c.k.data();
    if (qk_norm_ != NormKind::None) {
      norm_forward(qk_norm_, c.qk[0], p.qk[0], q);
      norm_forward(qk_norm_, c.qk[1], p.qk[1], kk);
      q = c.qk[0].out.data(), kk = c.qk[1].out.data();
    }
    B::attention_forward(c.att_out.data(), c.att_p.data(), q, kk, c.v.data(), cfg_.batch, cfg_.seq, d,
                         cfg_.attention == Attention::Causal);
    CPtr f = c.att_out.data();
    if (S.norm_branch) {
      norm_forward(norm_, sc.norm[kNormBranch], p.norm[k][kNormBranch], f);
      f = sc.norm[kNormBranch].out.data();
    }
    residual_add(f);
  } else {  // f = W2·ReLU(W1·u + b1) + b2
    B::linear_relu_forward(c.ffn_pre.data(), c.ffn_h.data(), u, param(p.W1), param(p.b1), N, d, F);
    if (S.norm_branch || branch_ != 1.0 || gate_) {
      B::linear_forward(sc.branch.data(), c.ffn_h.data(), param(p.W2), param(p.b2), N, F, d);
      CPtr f = sc.branch.data();
      if (S.norm_branch) {
        norm_forward(norm_, sc.norm[kNormBranch], p.norm[k][kNormBranch], f);
        f = sc.norm[kNormBranch].out.data();
      }
      if (gate_) {
        residual_add(f);
      } else {
        residual(sc.sum.data(), x, Nd);
        add_branch(sc.sum.data(), f, Nd);
      }
    } else if (alpha_ == 1.0) {  // s = x + W2·h + b2 in one op (on the GPU one dispatch: no copy, no bias pass)
      B::linear_forward_residual(sc.sum.data(), x, c.ffn_h.data(), param(p.W2), param(p.b2), N, F, d);
    } else {  // the residual first, then the FFN accumulated into it by the GEMM (β = 1)
      residual(sc.sum.data(), x, Nd);
      B::gemm(false, true, N, d, F, T(1), c.ffn_h.data(), F, param(p.W2), F, T(1), sc.sum.data(), d);
      B::add_row_vector(sc.sum.data(), param(p.b2), N, d);
    }
  }
  if (skip) B::accumulate(sc.sum.data(), skip, Nd);  // B2T: s += x_layer
  if (!S.norm_after) return sc.sum.data();
  norm_forward(norm_, sc.norm[kNormAfter], p.norm[k][kNormAfter], sc.sum.data());
  return sc.norm[kNormAfter].out.data();
}

template <class B>
void Model<B>::layer_forward(int l, CPtr x_in) {
  sublayer_forward(l, kFfn, sublayer_forward(l, kAttention, x_in, CPtr{}), pl_->b2t ? x_in : CPtr{});
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
  B::embed_forward(W.x0.data(), E, W.tokens, N, d, V, input_scale());  // x0 = √d·E[tok]: ‖x0‖² ≈ d as the paper assumes
  CPtr x = W.x0.data();
  for (int l = 0; l < cfg_.layers; ++l) {
    layer_forward(l, x);
    x = layer_output(l);
  }
  CPtr final_in = x;
  if (final_norm_) {
    norm_forward(norm_, W.final, final_, x);
    final_in = W.final.out.data();
  }
  Array& logits = W.d_logits;  // the logits are only needed until the softmax
  B::linear_forward(logits.data(), final_in, param(output_matrix()), CPtr{}, N, d, V);  // logits = final·Eᵀ (or ·Uᵀ)
  return B::cross_entropy_forward(W.probs.data(), logits.data(), W.targets, N, V);
}

// The backward of sublayer_forward: d(out) → d(x) in dx. Returns false once the only gradient asked
// for (GradScope::LastW2Only, the last layer's W²) is done. With B2T (the FFN sublayer) the gradient
// at the sum, which the layer's input gets too, is left in W.d_skip for layer_backward.
template <class B>
bool Model<B>::sublayer_backward(int l, int k, CPtr x, CPtr dout, Ptr dx, GradScope scope) {
  ModelWorkspace<B>& W = ws();
  const int d = cfg_.d, F = cfg_.d_ff, N = N_;
  const size_t Nd = static_cast<size_t>(N) * d;
  const Sublayer& S = k == kAttention ? pl_->attention : pl_->ffn;
  const LayerParams& p = layers_[l];
  const LayerCache<Array>& c = W.caches[l];
  const SublayerCache<Array>& sc = c.sub[k];
  const bool all = scope == GradScope::All;
  const bool last_only = scope == GradScope::LastW2Only;
  auto g = [&](const TensorRef& t) { return all ? grad(t) : Ptr{}; };           // gradients outside W²
  auto norm_backward = [&](Ptr dinp, int slot, CPtr dnorm_out, CPtr norm_in) {  // dinp += d N(norm_in)
    this->norm_backward(norm_, dinp, all, p.norm[k][slot], sc.norm[slot], dnorm_out, norm_in);
  };
  // out = N(s)
  CPtr ds = dout;
  if (S.norm_after) {
    B::zero(W.d_sum.data(), Nd);
    norm_backward(W.d_sum.data(), kNormAfter, dout, sc.sum.data());
    ds = W.d_sum.data();
  }
  // s += x_layer (B2T)
  if (k == kFfn && pl_->b2t) B::copy(W.d_skip.data(), ds, Nd);
  // s = α·x + m·f' (or x + g·f') ; f' = N(f)
  CPtr df = ds;
  if (gate_) {
    B::gate_backward(W.scaled.data(), g(p.gate[k]), ds, branch_output(l, k), param(p.gate[k]), Nd);
    df = W.scaled.data();
  } else if (branch_ != 1.0) {
    B::scale(W.scaled.data(), ds, static_cast<typename B::Scalar>(branch_), Nd);
    df = W.scaled.data();
  }
  if (S.norm_branch) {
    B::zero(W.d_branch.data(), Nd);
    norm_backward(W.d_branch.data(), kNormBranch, df, k == kAttention ? c.att_out.data() : sc.branch.data());
    df = W.d_branch.data();
  }
  // f = F(u): d(u) goes straight into dx (after its residual part) when u = x, else into d_u first.
  CPtr u = S.norm_input ? sc.norm[kNormInput].out.data() : x;
  Ptr du = S.norm_input ? W.d_u.data() : dx;
  const bool accumulate = !S.norm_input;
  if (!S.norm_input) residual(dx, ds, Nd);
  if (k == kFfn) {
    // f = ffn_h·W2ᵀ + b2
    if (last_only) {
      B::linear_backward(Ptr{}, grad(p.W2), g(p.b2), df, c.ffn_h.data(), param(p.W2), N, F, d, false);
      return false;
    }
    // d_pre = ReLU'(pre) ⊙ df·W2 (through d_h on the CPU)
    B::linear_backward_relu(W.d_pre.data(), W.d_h.data(), grad(p.W2), g(p.b2), df, c.ffn_h.data(), param(p.W2),
                            c.ffn_pre.data(), N, F, d);
    B::linear_backward(du, g(p.W1), g(p.b1), W.d_pre.data(), u, param(p.W1), N, d, F, accumulate);
  } else {
    Ptr dq = W.d_q.data(), dk = W.d_k.data(), dv = W.d_v.data();
    const bool qk = qk_norm_ != NormKind::None;
    CPtr q = qk ? c.qk[0].out.data() : c.q.data(), kk = qk ? c.qk[1].out.data() : c.k.data();
    B::attention_backward(dq, dk, dv, df, q, kk, c.v.data(), c.att_p.data(), cfg_.batch, cfg_.seq, d);
    if (qk) {  // q = N_qk(q_proj), k = N_qk(k_proj)
      for (int j = 0; j < 2; ++j) {
        B::zero(W.d_qk[j].data(), Nd);
        this->norm_backward(qk_norm_, W.d_qk[j].data(), all, p.qk[j], c.qk[j], j == 0 ? CPtr(dq) : CPtr(dk),
                            j == 0 ? c.q.data() : c.k.data());
      }
      dq = W.d_qk[0].data(), dk = W.d_qk[1].data();
    }
    B::linear_backward(du, g(p.Wq), g(p.bq), dq, u, param(p.Wq), N, d, d, accumulate);
    B::linear_backward(du, g(p.Wk), g(p.bk), dk, u, param(p.Wk), N, d, d, true);
    B::linear_backward(du, g(p.Wv), g(p.bv), dv, u, param(p.Wv), N, d, d, true);
  }
  // u = N(x)
  if (S.norm_input) {
    residual(dx, ds, Nd);
    norm_backward(dx, kNormInput, W.d_u.data(), x);
  }
  if (tap_) tap_(l, k, dout, ds, dx);
  return true;
}

template <class B>
bool Model<B>::layer_backward(int l, CPtr x_in, CPtr dout, Ptr dx_in, GradScope scope) {
  ModelWorkspace<B>& W = ws();
  const SublayerCache<Array>& att = W.caches[l].sub[kAttention];
  // the FFN sublayer's input is the attention sublayer's output
  CPtr mid = pl_->attention.norm_after ? att.norm[kNormAfter].out.data() : att.sum.data();
  if (!sublayer_backward(l, kFfn, mid, dout, W.d_mid.data(), scope)) return false;
  if (!sublayer_backward(l, kAttention, x_in, W.d_mid.data(), dx_in, scope)) return false;
  // B2T: the layer's input also reached the FFN's sum directly
  if (pl_->b2t) B::accumulate(dx_in, W.d_skip.data(), static_cast<size_t>(N_) * cfg_.d);
  return true;
}

template <class B>
void Model<B>::backward(GradScope scope) {
  ModelWorkspace<B>& W = ws();
  const int d = cfg_.d, N = N_, V = cfg_.vocab, L = cfg_.layers;
  const bool all = scope == GradScope::All;
  const size_t Nd = static_cast<size_t>(N) * d;
  B::cross_entropy_backward(W.d_logits.data(), W.probs.data(), W.targets, N, V);
  CPtr x_L = last_output();
  CPtr final_in = final_norm_ ? CPtr(W.final.out.data()) : x_L;
  Ptr dcur = W.d_stream[0].data();
  Ptr dnext = W.d_stream[1].data();
  // logits = final·Eᵀ (tied) or final·Uᵀ
  const TensorRef& out = output_matrix();
  B::linear_backward(dcur, all ? grad(out) : Ptr{}, Ptr{}, W.d_logits.data(), final_in, param(out), N, d, V, false);
  if (final_norm_) {  // final = LN_f(x_L): the gradient is scaled by ≈ √d/‖x_L‖ here (Lemma 3)
    B::zero(dnext, Nd);
    norm_backward(norm_, dnext, all, final_, W.final, dcur, x_L);
    std::swap(dcur, dnext);
  }
  for (int l = L - 1; l >= 0; --l) {
    CPtr x_in = l == 0 ? CPtr(W.x0.data()) : layer_output(l - 1);
    if (!layer_backward(l, x_in, dcur, dnext, scope)) return;
    std::swap(dcur, dnext);
  }
  if (!all) return;
  // x0 = s·E[tok]: scatter-add into the embedding rows.
  B::embed_backward(grad(E_), dcur, W.tokens, N, d, V, input_scale());
}

}  // namespace lnx
