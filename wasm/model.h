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
// Adam and the gradient norm see one array. The model is written once, against the op interface of
// backend.h: Model<CpuBackend<T>> (= Transformer<T>) runs on the host, Model<gpu::GpuBackend> on the
// GPU (wasm/gpu/); the definitions are in model_impl.h. Leaves out: multi-head attention, dropout,
// an output projection, biases on logits.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api.h"
#include "cpu_backend.h"

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

// Activations one layer keeps for its backward, named as in the forward lines above. `A` is the
// backend's Array type (host vectors on the CPU, device buffers on the GPU).
template <class A>
struct LayerCache {
  A ln1_out, ln1_mean, ln1_rstd;  // Post: LN1(sum1) = x1 ; Pre: LN1(x_in)
  A q, k, v, att_p, att_out;      // att_p: softmax probabilities (B, n, n)
  A sum1;                         // Post: x_in + Attn(x_in) ; Pre: x_in + Attn(LN1(x_in))
  A ln2_out, ln2_mean, ln2_rstd;  // Post: LN2(x5) = layer output ; Pre: LN2(sum1) = FFN input
  A ffn_pre, ffn_h;               // W1·x + b1 and ReLU of it (N, F)
  A sum2;                         // Post: x5 = x1 + FFN(x1) ; Pre: sum1 + FFN(..) = layer output
};

// Everything a forward/backward pass writes besides the gradients: the per-layer caches and the
// backward scratch. Kept apart from the parameters so that many models (the 16 runs of the toy grid)
// can share one workspace per thread instead of holding 16 sets of activations.
template <class B>
struct ModelWorkspace {
  using Array = typename B::Array;
  explicit ModelWorkspace(const ModelConfig& cfg);
  typename B::IntArray tokens, targets;
  Array x0, final_out, final_mean, final_rstd, probs;
  std::vector<LayerCache<Array>> caches;
  // backward scratch: (N,d) ×6, the stream gradient ping-pong (N,d) ×2, (N,F) ×2, logits (N,V)
  Array d_a, d_b, d_c, d_q, d_k, d_v, d_h, d_pre, d_logits;
  Array d_stream[2];
};

// The model, written once against the op interface of backend.h; B = CpuBackend<T> or GpuBackend.
template <class B>
class Model {
 public:
  using Ptr = typename B::Ptr;
  using CPtr = typename B::CPtr;
  using Array = typename B::Array;
  using Loss = typename B::Loss;

  Model(const ModelConfig& cfg, uint64_t seed);

  const ModelConfig& config() const { return cfg_; }
  // Forward pass over N = B·n tokens; caches activations; returns the mean cross-entropy (CPU), or
  // leaves it in the backend's loss slot (GPU).
  Loss forward(const int* tokens, const int* targets);
  // Adds d(loss)/d(params) for `scope` into grads(); call zero_grad() first for a fresh gradient.
  void backward(GradScope scope = GradScope::All);
  void zero_grad();
  // Runs the next passes in `ws` (shape-compatible with this model) instead of the model's own
  // workspace; nullptr goes back to the own one, allocated on first use.
  void use_workspace(ModelWorkspace<B>* ws) { ws_ = ws; }

  Array& params() { return params_; }
  Array& grads() { return grads_; }
  const Array& grads() const { return grads_; }
  Ptr param(const TensorRef& t) { return params_.data() + t.off; }
  Ptr grad(const TensorRef& t) { return grads_.data() + t.off; }
  const LayerParams& layer(int l) const { return layers_[l]; }
  const TensorRef& embedding() const { return E_; }
  // Every parameter tensor with a readable name ("layer3.W2", "E", "final.gamma"), for checks.
  std::vector<std::pair<std::string, TensorRef>> named_tensors() const;

  // The residual stream the probes measure after layer l (0-based): Post-LN x5, Pre-LN the output.
  CPtr stream(int l) const { return ws_->caches[l].sum2.data(); }
  // The input of the final LN (Pre-LN) or of the output layer (Post-LN): x_L.
  CPtr last_output() const;

 private:
  void layer_forward(int l, CPtr x_in);
  void layer_backward(int l, CPtr x_in, CPtr dout, Ptr dx_in, GradScope scope);
  CPtr layer_output(int l) const;
  TensorRef alloc(int rows, int cols);
  ModelWorkspace<B>& ws();

  ModelConfig cfg_;
  int N_;
  size_t size_ = 0;  // parameter count, including alignment padding (none on the CPU)
  Array params_, grads_;
  TensorRef E_, lnf_g_, lnf_b_;
  std::vector<LayerParams> layers_;
  std::unique_ptr<ModelWorkspace<B>> own_ws_;
  ModelWorkspace<B>* ws_ = nullptr;
};

// The CPU model and its workspace under the names the rest of the engine uses.
template <class T>
using Transformer = Model<CpuBackend<T>>;
template <class T>
using Workspace = ModelWorkspace<CpuBackend<T>>;

extern template struct ModelWorkspace<CpuBackend<float>>;
extern template struct ModelWorkspace<CpuBackend<double>>;
extern template class Model<CpuBackend<float>>;
extern template class Model<CpuBackend<double>>;

}  // namespace lnx
