// model.h — the reference Transformer of the article, its forward and its hand-written backward,
// composed from the placement a config names (placements/placement.h: Post-LN, Pre-LN, …).
//
// Setup (article, "minimal implementation"; Xiong et al. 2020 §3 and Table 1): single-head attention
// with biased Wq, Wk, Wv and no output projection, scores scaled by 1/√d; FFN W1 (d→d_ff), ReLU,
// W2 (d_ff→d); LayerNorm γ = 1, β = 0, eps 1e-5. Xavier-normal weights (times the placement's init
// scale), zero biases, embedding E ~ N(0, 1/d), input x0 = √d·E[tok] (so ‖x0‖² ≈ d), tied output
// logits = final(x)·Eᵀ, mean cross-entropy. Each layer is two sublayers, attention then FFN, each
// wrapped in the placement's norms and residual (placement.h has the one formula); a placement from a
// spec may also make the norms DyT or the identity, add a QK-norm, a learnable residual gate (ReZero)
// or the B2T skip (docs/engine.md, "A placement from a spec").
//
// Dimension letters: B sequences, n tokens each, N = B·n rows, d width, F = d_ff, V vocab, L layers.
// All parameters live in one flat buffer (and the gradients in a second one of the same layout), so
// the optimizer and the gradient norm see one array. The model is written once, against the op
// interface of op_interface.h: Model<CpuBackend<T>> (= Transformer<T>) runs on the host,
// Model<GpuBackend> on the GPU (wasm/gpu/); the definitions are in model_impl.h. Leaves out:
// multi-head attention, dropout, an output projection, biases on logits.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "cpu_backend.h"
#include "placements/placement.h"

namespace lnx {

// Which parameter gradients backward() computes. Probes need only W² (all layers, or the last one).
enum class GradScope { All, W2Only, LastW2Only };

struct TensorRef {
  size_t off = 0;
  int rows = 0, cols = 1;
  size_t size() const { return static_cast<size_t>(rows) * cols; }
};

// The two sublayers of a layer, and where in a sublayer a norm sits (placement.h).
enum SublayerIndex { kAttention = 0, kFfn = 1 };
enum NormSlot { kNormInput = 0, kNormBranch = 1, kNormAfter = 2 };

struct NormParams {
  TensorRef gamma, beta;  // size 0 where the placement has no norm (β also for RMSNorm, both for none)
  TensorRef alpha;        // DyT's α (one element); size 0 for the other norms
};

struct LayerParams {
  TensorRef Wq, bq, Wk, bk, Wv, bv, W1, b1, W2, b2;
  NormParams norm[2][3];  // [sublayer][slot]
  NormParams qk[2];       // the QK-norm on q and on k (size 0 without one)
  TensorRef gate[2];      // ReZero's gate per sublayer (one element; both the same tensor when shared per layer)
};

// Activations one layer keeps for its backward. `A` is the backend's Array type (host vectors on the
// CPU, device buffers on the GPU); arrays of norms the placement lacks stay empty.
template <class A>
struct NormCache {
  A out, mean, rstd;  // mean and rstd: LayerNorm's and RMSNorm's (mean unused by RMSNorm)
  A act;              // DyT: tanh(α·x) (N, d)
};
template <class A>
struct SublayerCache {
  NormCache<A> norm[3];  // [slot]
  A branch;              // the FFN's output before its branch norm (only with norm_branch or m ≠ 1)
  A sum;                 // α·x + F(u): the residual stream before any norm after the add
};
template <class A>
struct LayerCache {
  A q, k, v, att_p, att_out;  // att_p: softmax probabilities (B, n, n); att_out = F(u) of attention
  A ffn_pre, ffn_h;           // W1·u + b1 and ReLU of it (N, F)
  NormCache<A> qk[2];         // with a QK-norm: q and k above are the projections, these the normed ones
  SublayerCache<A> sub[2];
};

// Everything a forward/backward pass writes besides the gradients: the per-layer caches and the
// backward scratch. Kept apart from the parameters so that many models (the 16 runs of the toy grid)
// can share one workspace per thread instead of holding 16 sets of activations.
template <class B>
struct ModelWorkspace {
  using Array = typename B::Array;
  explicit ModelWorkspace(const ModelConfig& cfg);
  typename B::IntArray tokens, targets;
  Array x0, probs;
  NormCache<Array> final;  // the norm before the output layer, where there is one
  std::vector<LayerCache<Array>> caches;
  // backward scratch: d_sum (the gradient at a sublayer's residual sum), d_mid (between the two
  // sublayers), d_u (at a normed sublayer input), d_branch (before a branch norm), dq/dk/dv (N,d);
  // the stream gradient ping-pong (N,d) ×2, (N,F) ×2, logits (N,V)
  Array d_sum, d_mid, d_u, d_branch, d_q, d_k, d_v, d_h, d_pre, d_logits;
  Array d_stream[2];
  Array scaled;   // m·f' and its gradient m·ds, only where the branch scale m ≠ 1 (CompleteP) or a gate
  Array d_qk[2];  // with a QK-norm: the gradient at the projections q, k (N, d)
  Array d_skip;   // with B2T: the gradient at the FFN's sum, which the layer's input also gets (N, d)
};

// The model, written once against the op interface of op_interface.h; B = CpuBackend<T> or GpuBackend.
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
  // What a backward pass sees at each sublayer, for the experiments that look inside it
  // (depth-factors): called after sublayer k (kAttention, kFfn) of layer l with the gradient at its
  // output (dout), at its residual sum before a norm after the add (ds; dout itself when there is
  // none) and at its input (dx), each (N, d). None by default; a tap changes no number.
  using BackwardTap = std::function<void(int layer, int sublayer, CPtr dout, CPtr ds, CPtr dx)>;
  void set_backward_tap(BackwardTap tap) { tap_ = std::move(tap); }
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
  // The output matrix: E when tied, U when untied.
  const TensorRef& output_matrix() const { return untied_ ? U_ : E_; }
  // Every parameter tensor with a readable name ("layer3.W2", "E", "final.gamma"), for checks.
  std::vector<std::pair<std::string, TensorRef>> named_tensors() const;

  // The residual stream the probes measure after layer l (0-based): the FFN sublayer's sum
  // (Post-LN x5, before LN2; Pre-LN the layer output).
  CPtr stream(int l) const { return ws_->caches[l].sub[kFfn].sum.data(); }
  const Placement& placement() const { return *pl_; }
  // The norm this model's norms use: the placement's own (a spec's `norm`), else the config's.
  static NormKind norm_kind(const ModelConfig& cfg, const Placement& pl) {
    return pl.norm != NormKind::FromConfig ? pl.norm : static_cast<NormKind>(cfg.norm_type);
  }
  static bool uses_rmsnorm(const ModelConfig& cfg, const Placement& pl) {
    return norm_kind(cfg, pl) == NormKind::RmsNorm;
  }
  // The input of the final LN (Pre-LN) or of the output layer (Post-LN): x_L.
  CPtr last_output() const;
  // Layer l's FFN pre-activation W1·u + b1 (N, F) of the last forward pass; gradient checks keep
  // it away from ReLU's kink.
  CPtr ffn_preactivation(int l) const { return ws_->caches[l].ffn_pre.data(); }
  // The logits (N, V) of the last forward pass; valid until the next backward(), which reuses the
  // buffer for their gradient. The softmax probabilities (N, V) stay until the next forward.
  CPtr logits() const { return ws_->d_logits.data(); }
  // The q and k (N, d) the attention of layer l read in the last forward pass: after the QK-norm
  // when the placement has one (the attention-logit measurement, experiments/measure.h).
  CPtr attention_q(int l) const {
    return qk_norm_ != NormKind::None ? ws_->caches[l].qk[0].out.data() : ws_->caches[l].q.data();
  }
  CPtr attention_k(int l) const {
    return qk_norm_ != NormKind::None ? ws_->caches[l].qk[1].out.data() : ws_->caches[l].k.data();
  }
  CPtr probs() const { return ws_->probs.data(); }

 private:
  void layer_forward(int l, CPtr x_in);
  CPtr sublayer_forward(int l, int k, CPtr x, CPtr skip);
  void norm_forward(NormKind kind, NormCache<Array>& c, const NormParams& p, CPtr x);
  void norm_backward(NormKind kind, Ptr dinp, bool grads, const NormParams& p, const NormCache<Array>& c, CPtr dout,
                     CPtr x);
  NormParams alloc_norm(NormKind kind);
  CPtr branch_output(int l, int k) const;
  typename B::Scalar input_scale() const;
  void residual(Ptr dst, CPtr x, size_t n);
  void add_branch(Ptr sum, CPtr f, size_t n);
  bool layer_backward(int l, CPtr x_in, CPtr dout, Ptr dx_in, GradScope scope);
  bool sublayer_backward(int l, int k, CPtr x, CPtr dout, Ptr dx, GradScope scope);
  CPtr layer_output(int l) const;
  TensorRef alloc(int rows, int cols);
  ModelWorkspace<B>& ws();

  ModelConfig cfg_;
  std::shared_ptr<const Placement> pl_;  // the registry's (not owned) or a spec's (placements/spec.h)
  double alpha_ = 1;                     // the placement's residual scale at this depth (on x)
  double branch_ = 1;                    // the placement's branch scale at this depth (on f'; CompleteP)
  NormKind norm_ = NormKind::LayerNorm;  // the norm of every slot and of the final norm
  NormKind qk_norm_ = NormKind::None;    // the QK-norm's (None: no QK-norm)
  bool gate_ = false;                    // ReZero: s = x + g·f' with a learnable g per sublayer (or layer)
  bool final_norm_ = false;              // a norm before the output layer
  bool untied_ = false;                  // an output matrix U of its own
  int N_;
  size_t size_ = 0;  // parameter count, including alignment padding (none on the CPU)
  Array params_, grads_;
  TensorRef E_, U_;
  NormParams final_;  // allocated whether used or not (but none for norm "none"): one layout either way
  std::vector<LayerParams> layers_;
  std::unique_ptr<ModelWorkspace<B>> own_ws_;
  ModelWorkspace<B>* ws_ = nullptr;
  BackwardTap tap_;
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
