// config.h — the engine's configuration types: the errors it throws, its enums, and the config
// structs of the model, the probe, a training run and a grid, with the checkpoint a run hands on.
// The floor of the engine: the model, the backends, the optimizers and the experiments include
// this header; the public API (api.h) builds on it. The fields of every config are declared once,
// with their bounds and docs, in configs.cpp (the schema); the member initialisers below are the
// defaults. validate() checks a config against its schema (bounds, choices, cross-field rules such
// as the memory limit) and throws ArgumentError (a RuleError for a rule across fields).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "optim/optimizer.h"

namespace lnx {

// Thrown for any invalid argument (bad enum, non-finite or out-of-range number, oversized model).
// The Embind layer turns it into a JS Error carrying what().
struct ArgumentError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A config broke one of its schema's rules across fields (configs.cpp; e.g. grid_fits_in_memory):
// the rule's name, for a caller that answers each rule in its own words (the page's forms).
struct RuleError : ArgumentError {
  RuleError(std::string rule_name, const std::string& message) : ArgumentError(message), rule(std::move(rule_name)) {}
  std::string rule;
};

// The enums' values are 0, 1, … in the order of the schema's names (configs.cpp).
enum class Attention : int { Bidirectional = 0, Causal = 1 };
enum class NormType : int { LayerNorm = 0, RmsNorm = 1 };  // the norm every placement uses
enum class FinalNorm : int { Auto = 0, On = 1, Off = 2 };  // Auto: as the placement says
enum class OutputLayer : int { Tied = 0, Untied = 1 };     // logits = final·Eᵀ, or ·Uᵀ with its own U
enum class InputScale : int { SqrtD = 0, None = 1 };       // x0 = √d·E[tok], or E[tok]
const char* to_string(Attention);

struct ModelConfig {
  int layers = 6;                  // L
  int d = 512;                     // model width
  int d_ff = 1024;                 // FFN width
  int vocab = 1000;                // V
  int seq = 32;                    // n, tokens per sequence
  int batch = 8;                   // B, sequences per batch
  std::string placement = "post";  // a name from the placement registry (placements/registry.cpp)
  Attention attention = Attention::Bidirectional;
  NormType norm_type = NormType::LayerNorm;
  FinalNorm final_norm = FinalNorm::Auto;
  OutputLayer output = OutputLayer::Tied;
  InputScale input_scale = InputScale::SqrtD;
  // A placement from a JSON spec (placements/spec.h), in its canonical form; "" for none. The
  // placement it defines is the one `placement` (or a probe's or grid's `placements`) names by the
  // spec's name.
  std::string placement_spec;
  void validate() const;  // bounds every size before anything is allocated
};

// ---- Init-time probe (Figures 2 and 3) ----
struct ProbeConfig {
  ModelConfig model;  // model.placement is ignored: the probe measures `placements`
  std::vector<std::string> placements = {"post", "pre"};
  std::vector<uint64_t> seeds = {0, 1, 2, 3, 4};  // one model (and batch stream) per seed
  int batches = 20;                               // batches per seed for the per-layer statistics
  int depth_batches = 10;                         // batches per seed for the last-layer-vs-depth sweep
  std::vector<int> depths = {6, 8, 10, 12, 14};
  void validate() const;
};

// ---- Toy warm-up experiment (Figure 4) ----
// Every registered optimizer's hyperparameters at their defaults (optim/registry.h).
Hyperparameters default_hyperparameters();

// How the learning rate rises to its peak over the warm-up (optim/schedule.h).
enum class WarmupShape : int { Linear = 0, Cosine = 1 };

struct TrainConfig {
  ModelConfig model{8, 128, 512, 256, 64, 8, "post", Attention::Causal};
  int warmup = 0;  // T_warmup; 0 = peak lr from step 1
  WarmupShape warmup_shape = WarmupShape::Linear;
  double lr = 1e-3;  // peak learning rate
  int steps = 500;
  uint64_t seed = 0;               // model init and batch sampling
  uint64_t chain_seed = 1234;      // the Markov chain's own seed
  int successors = 4;              // distinct successors per token (optimal loss ln successors)
  std::string data = "markov";     // what it learns: "markov" (the chain above) or "text" (text_data.h)
  std::string text_lang = "both";  // data = text: the article's language, "en", "zh" or "both"
  int eval_every = 20;             // data = text: steps between two validation losses (and the last)
  std::string optimizer = "adam";  // a name from the optimizer registry (optim/registry.h)
  Hyperparameters hyper = default_hyperparameters();  // only the chosen optimizer's are used
  void validate() const;
  std::vector<std::string> warnings() const;  // e.g. a warm-up longer than the run
};

// Diverged: the loss rose above 4·ln V (a model that starts near ln V and is now confidently wrong);
// NaN: the loss or the gradient stopped being finite. Both stop the run at that step.
enum class RunStatus { Running, Ok, NaN, Diverged };
const char* to_string(RunStatus);

// A run's state after step `step`, in a layout no backend's padding shows through, so that a run can
// continue on another backend (the page's WebGPU grid after a lost device continues on the CPU).
// values: the parameters, then each optimizer state array (optim/: Adam's m and v, SGD's velocity),
// each as the model's tensors in named-tensor order (E, layer1.Wq, …) back to back.
struct TrainCheckpoint {
  int step = 0;
  std::vector<float> values;
};

struct GridConfig {
  TrainConfig base;  // placement, warmup, lr and seed are set per run
  std::vector<std::string> placements = {"post", "pre"};
  std::vector<int> warmups = {0, 300};
  std::vector<double> lrs = {1e-3, 3e-3};
  std::vector<uint64_t> seeds = {0, 1};
  void validate() const;
  std::vector<std::string> warnings() const;
};

}  // namespace lnx
