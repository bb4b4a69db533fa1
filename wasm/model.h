// model.h — the reference Transformer of the article (Post-LN or Pre-LN), its forward and its
// hand-written backward.
//
// Setup (article, "minimal implementation"; Xiong et al. 2020 §3 and Table 1): single-head attention
// with biased Wq, Wk, Wv and no output projection, scores scaled by 1/√d; FFN W1 (d→d_ff), ReLU,
// W2 (d_ff→d); LayerNorm γ = 1, β = 0, eps 1e-5. Xavier-normal weights, zero biases, embedding
// E ~ N(0, 1/d), input x0 = √d·E[tok] (so ‖x0‖² ≈ d), tied output logits = final(x)·Eᵀ, mean
// cross-entropy. Post-LN: x ← LN1(x + Attn(x)); x5 ← x + FFN(x); x ← LN2(x5). Pre-LN:
// x ← x + Attn(LN1(x)); x ← x + FFN(LN2(x)); a final LN before the output.
//
// Dimension letters: B sequences, n tokens each, N = B·n rows, d width, F = d_ff, V vocab, L layers.
// All parameters live in one flat buffer (and the gradients in a second one of the same layout), so
// Adam, the gradient norm and a GPU backend see one array. The model is written against the ops in
// wasm/ops/ only. Leaves out: multi-head attention, dropout, an output projection, biases on logits.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api.h"

namespace lnx {

// Which parameter gradients backward() computes. Probes need only W² (all layers, or the last one).
enum class GradScope { All, W2Only, LastW2Only };

struct TensorRef {
  size_t off = 0;
  int rows = 0, cols = 1;
  size_t size() const { return static_cast<size_t>(rows) * cols; }
};

struct LayerParams {
  TensorRef Wq, bq, Wk, bk, Wv, bv, W1, b1, W2, b2, ln1_g, ln1_b, ln2_g, ln2_b;
};

// Activations one layer keeps for its backward, named as in the forward lines above.
template <class T>
struct LayerCache {
  std::vector<T> ln1_out, ln1_mean, ln1_rstd;  // Post: LN1(sum1) = x1 ; Pre: LN1(x_in)
  std::vector<T> q, k, v, att_p, att_out;      // att_p: softmax probabilities (B, n, n)
  std::vector<T> sum1;                         // Post: x_in + Attn(x_in) ; Pre: x_in + Attn(LN1(x_in))
  std::vector<T> ln2_out, ln2_mean, ln2_rstd;  // Post: LN2(x5) = layer output ; Pre: LN2(sum1) = FFN input
  std::vector<T> ffn_pre, ffn_h;               // W1·x + b1 and ReLU of it (N, F)
  std::vector<T> sum2;                         // Post: x5 = x1 + FFN(x1) ; Pre: sum1 + FFN(..) = layer output
};

// Everything a forward/backward pass writes besides the gradients: the per-layer caches and the
// backward scratch. Kept apart from the parameters so that many models (the 16 runs of the toy grid)
// can share one workspace per thread instead of holding 16 sets of activations.
template <class T>
struct Workspace {
  explicit Workspace(const ModelConfig& cfg);
  std::vector<int> tokens, targets;
  std::vector<T> x0, final_out, final_mean, final_rstd, probs;
  std::vector<LayerCache<T>> caches;
  // backward scratch: (N,d) ×6, the stream gradient ping-pong (N,d) ×2, (N,F) ×2, logits (N,V)
  std::vector<T> d_a, d_b, d_c, d_q, d_k, d_v, d_h, d_pre, d_logits;
  std::vector<T> d_stream[2];
};

template <class T>
class Transformer {
 public:
  Transformer(const ModelConfig& cfg, uint64_t seed);

  const ModelConfig& config() const { return cfg_; }
  // Forward pass over N = B·n tokens; caches activations; returns the mean cross-entropy.
  double forward(const int* tokens, const int* targets);
  // Adds d(loss)/d(params) for `scope` into grads(); call zero_grad() first for a fresh gradient.
  void backward(GradScope scope = GradScope::All);
  void zero_grad();
  // Runs the next passes in `ws` (shape-compatible with this model) instead of the model's own
  // workspace; nullptr goes back to the own one, allocated on first use.
  void use_workspace(Workspace<T>* ws) { ws_ = ws; }

  std::vector<T>& params() { return params_; }
  std::vector<T>& grads() { return grads_; }
  const std::vector<T>& grads() const { return grads_; }
  T* param(const TensorRef& t) { return params_.data() + t.off; }
  T* grad(const TensorRef& t) { return grads_.data() + t.off; }
  const LayerParams& layer(int l) const { return layers_[l]; }
  const TensorRef& embedding() const { return E_; }
  // Every parameter tensor with a readable name ("layer3.W2", "E", "final.gamma"), for checks.
  std::vector<std::pair<std::string, TensorRef>> named_tensors() const;

  // The residual stream the probes measure after layer l (0-based): Post-LN x5, Pre-LN the output.
  const T* stream(int l) const { return ws_->caches[l].sum2.data(); }
  // The input of the final LN (Pre-LN) or of the output layer (Post-LN): x_L.
  const T* last_output() const;

 private:
  void layer_forward(int l, const T* x_in);
  void layer_backward(int l, const T* x_in, const T* dout, T* dx_in, GradScope scope);
  const T* layer_output(int l) const;
  TensorRef alloc(int rows, int cols);
  Workspace<T>& ws();

  ModelConfig cfg_;
  int N_;
  std::vector<T> params_, grads_;
  TensorRef E_, lnf_g_, lnf_b_;
  std::vector<LayerParams> layers_;
  std::unique_ptr<Workspace<T>> own_ws_;
  Workspace<T>* ws_ = nullptr;
};

extern template struct Workspace<float>;
extern template struct Workspace<double>;
extern template class Transformer<float>;
extern template class Transformer<double>;

}  // namespace lnx
