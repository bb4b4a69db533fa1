// placement.h — where the LayerNorms sit: a placement describes how each layer of the Transformer
// is composed around its two sublayers (attention, then the FFN), and the model (model_impl.h) asks
// it instead of branching on a placement's name. A placement is data:
//
//   one sublayer with input x and branch F (attention or FFN):
//     u   = norm_input  ? N(x) : x           (Pre-LN)
//     f   = F(u)                             (attention: q, k through N_qk first when qk_norm)
//     f'  = norm_branch ? N(f) : f           (Peri-LN's output norm)
//     s   = α·x + m·f'                       (α, m from residual_scale(L); 1 for Post and Pre;
//                                             ReZero: α = 1 and m = g, a learnable scalar)
//     s  += x_layer  (FFN sublayer, b2t)     (B2T: the layer's input skips to its last norm)
//     out = norm_after  ? N(s) : s           (Post-LN)
//   and after the last layer, a final N when final_norm (Pre-LN).
// N is the placement's norm: LayerNorm, RMSNorm, DyT (γ·tanh(α·x) + β, α learnable) or none (the
// identity), or the config's norm_type when the placement names none; N_qk the QK-norm's.
//
// init_scale(role, L) multiplies the Xavier-normal std of a weight (DeepNet's β); 1 for Post and Pre.
// Both are small tagged formulas (ResidualScale, InitScale below), each formula written once: the
// registered placements (post.cpp, …, one file each, listed in registry.cpp) and a placement read
// from a JSON spec (spec.h) go through the same code, so a spec that says what a registered
// placement says computes its results to the last bit.
// The residual stream the probes measure after a layer is the FFN sublayer's s (Post-LN: x5 before
// LN2; Pre-LN: the layer output), the quantity of Xiong et al.'s Lemma 2.
//
// Leaves out: the norms' own formulas (ops/layernorm.h, rmsnorm.h, dyt.h), per-layer placements
// (every layer alike).
#pragma once
#include <string>
#include <vector>

namespace lnx {

// The weights a placement may scale at initialisation.
enum class WeightRole { Query, Key, Value, FfnIn, FfnOut };

struct Sublayer {
  bool norm_input = false;   // LN on the sublayer's input
  bool norm_branch = false;  // LN on the branch output, before the residual add
  bool norm_after = false;   // LN after the residual add
  int norms() const { return int(norm_input) + int(norm_branch) + int(norm_after); }
};

// The residual scale at depth L: α on the skip path x, or m on the branch f' (s = α·x + m·f').
struct ResidualScale {
  enum class Kind {
    One,        // α = m = 1 (Post-LN, Pre-LN, Peri-LN)
    Admin,      // α = ω, ω² = (N + 1)/ln(N + 1) − 1, N = 2L (admin-torch's closed form; admin.cpp)
    DeepNet,    // α = (2L)^¼ (DeepNet, arXiv 2203.00555, encoder-only; deepnorm.cpp)
    CompleteP,  // m = (L_base/L)^a on the branch (CompleteP, arXiv 2505.01618: h ← h + (L/L_base)^−a·F(h))
    ReZero,     // m = g, a learnable scalar from g0 (ReZero, arXiv 2003.04887; SkipInit, De & Smith 2020)
  };
  Kind kind = Kind::One;
  double l_base = 1, a = 1;         // CompleteP's base depth and exponent (a = 1 is CompleteP; 0.5 the √L rule)
  double g0 = 0;                    // ReZero: the gate's initial value
  bool per_layer = false;           // ReZero: one gate shared by a layer's two sublayers (ReZero's code), else one each
  double skip(int layers) const;    // α
  double branch(int layers) const;  // m (ReZero: 1 here; the gate is a parameter, learnable())
  bool learnable() const { return kind == Kind::ReZero; }
};

// The init scale β(role, L) that multiplies a weight's Xavier-normal std.
struct InitScale {
  enum class Kind {
    Xavier,   // β = 1
    DeepNet,  // β = (8L)^−¼ on Wv, W1, W2 (DeepNet's encoder-only β; no output projection here)
    TFixup,   // β = (9L)^−¼ on Wv, W1, W2 (T-Fixup, Huang et al., ICML 2020: its decoder's (9N)^−¼, N = L)
    Zero,     // β = 0 on each branch's last weight (Wv, W2): every branch starts as the zero function
  };
  Kind kind = Kind::Xavier;
  double operator()(WeightRole r, int layers) const;
};

// The norm a placement's norm slots hold. The values of LayerNorm and RmsNorm are NormType's (config.h).
enum class NormKind : int {
  FromConfig = -1,  // the config's norm_type
  LayerNorm = 0,
  RmsNorm = 1,
  DyT = 2,   // γ·tanh(α·x) + β, α a learnable scalar per norm from alpha0 (Zhu et al. 2025, arXiv 2503.10622)
  None = 3,  // the identity: the slot is there, nothing is normalised (no parameters)
};

struct Placement {
  const char* name;   // the key in configs and result documents: "post", "pre"
  const char* label;  // how people write it: "Post-LN"
  const char* doc;    // one line: where the norms sit
  Sublayer attention, ffn;
  bool final_norm = false;  // an LN between the last layer and the output
  ResidualScale residual_scale = {};
  InitScale init_scale = {};
  // The norm this placement's norms use (a spec's `norm`); FromConfig: the config's norm_type.
  NormKind norm = NormKind::FromConfig;
  double alpha0 = 0.5;                // DyT: every norm's α starts here
  NormKind qk_norm = NormKind::None;  // a norm on q and on k before the scores (None: no QK-norm)
  bool b2t = false;                   // B2T: the layer's input added before the FFN's norm after the add
  double alpha(int layers) const { return residual_scale.skip(layers); }
  double branch_scale(int layers) const { return residual_scale.branch(layers); }
  double beta(WeightRole r, int layers) const { return init_scale(r, layers); }
};

// Every placement in registration order (the engine's own, then any a test registered).
const std::vector<const Placement*>& placements();
std::vector<std::string> placement_names();
// The placement called `name`; ArgumentError naming the known ones otherwise.
const Placement& placement(const std::string& name);
// Adds a placement defined outside the engine (tests); its name must be new.
void register_placement(const Placement& p);

}  // namespace lnx
