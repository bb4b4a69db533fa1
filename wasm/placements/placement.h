// placement.h — where the LayerNorms sit: a placement describes how each layer of the Transformer
// is composed around its two sublayers (attention, then the FFN), and the model (model_impl.h) asks
// it instead of branching on a placement's name. A placement is data plus two small functions:
//
//   one sublayer with input x and branch F (attention or FFN):
//     u   = norm_input  ? LN(x) : x          (Pre-LN)
//     f   = F(u)
//     f'  = norm_branch ? LN(f) : f          (Peri-LN's output norm)
//     s   = α·x + f'                         (α = residual_scale(L); 1 for Post and Pre)
//     out = norm_after  ? LN(s) : s          (Post-LN)
//   and after the last layer, a final LN when final_norm (Pre-LN).
//
// init_scale(role, L) multiplies the Xavier-normal std of a weight (DeepNet's β); 1 for Post and Pre.
// The residual stream the probes measure after a layer is the FFN sublayer's s (Post-LN: x5 before
// LN2; Pre-LN: the layer output), the quantity of Xiong et al.'s Lemma 2.
//
// Each placement lives in its own file (post.cpp, pre.cpp) and is listed once in registry.cpp.
// Leaves out: the norm's own formula (ops/layernorm.h), per-layer placements (every layer alike).
#pragma once
#include <string>
#include <vector>

namespace lnx {

// The weights a placement may scale at initialisation.
enum class WeightRole { Query, Key, Value, FfnIn, FfnOut };

struct Sublayer {
  bool norm_input = false;      // LN on the sublayer's input
  bool norm_branch = false;     // LN on the branch output, before the residual add
  bool norm_after = false;      // LN after the residual add
  int norms() const { return int(norm_input) + int(norm_branch) + int(norm_after); }
};

struct Placement {
  const char* name;   // the key in configs and result documents: "post", "pre"
  const char* label;  // how people write it: "Post-LN"
  const char* doc;    // one line: where the norms sit
  Sublayer attention, ffn;
  bool final_norm = false;  // an LN between the last layer and the output
  double (*residual_scale)(int layers) = nullptr;          // α; nullptr = 1
  double (*init_scale)(WeightRole, int layers) = nullptr;  // β; nullptr = 1
  double alpha(int layers) const { return residual_scale ? residual_scale(layers) : 1.0; }
  double beta(WeightRole r, int layers) const { return init_scale ? init_scale(r, layers) : 1.0; }
};

// Every placement in registration order (the engine's own, then any a test registered).
const std::vector<const Placement*>& placements();
std::vector<std::string> placement_names();
// The placement called `name`; ArgumentError naming the known ones otherwise.
const Placement& placement(const std::string& name);
// Adds a placement defined outside the engine (tests); its name must be new.
void register_placement(const Placement& p);

}  // namespace lnx
