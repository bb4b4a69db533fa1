// config_fields.h — the building blocks of a config schema (schema.h) that several configs share:
// the model's fields, the toy run's, the optimizer's, and the rules that go with them. configs.cpp
// declares the engine's configs with them, and each experiment (experiments/) its own, so a model
// field is declared once for every config that has a model.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "config.h"
#include "optim/registry.h"
#include "placements/placement.h"
#include "placements/spec.h"
#include "schema.h"
#include "text_data.h"

namespace lnx::config {

constexpr uint64_t kMaxSeed = 1ULL << 53;  // JSON numbers carry integers exactly up to here
constexpr int kMaxSteps = 100000;
constexpr int kMaxLayers = 64;  // a model's layers, and a depth sweep's depths
inline const char* kModelKnobs = "layers, d, d_ff, vocab, seq or batch";

// Refuses a model over the memory limit, naming what to lower (`lower`) and how much it would need.
void check_size(const ModelConfig& m, int optimizer_states, const std::string& what, const std::string& lower);
// Refuses a sweep whose model at one of `depths` is over the memory limit (the probe, the experiments).
void check_depths_fit(ModelConfig m, const std::vector<int>& depths);
// "warmup = 600 is longer than the run (500 steps): …"
std::string warmup_warning(int warmup, int steps);
// One warning per warm-up in `warmups` longer than a run of `steps` (a sweep's warm-up rule).
std::vector<std::string> warmup_warnings(const std::vector<int>& warmups, int steps);

// Where a config keeps its model and its toy-run settings: a member `model`, or a `base` TrainConfig
// (a config has one or the other, or is one). The field accessors go through these.
inline ModelConfig& model_of(ModelConfig& c) { return c; }
template <class C>
auto model_of(C& c) -> decltype((c.model)) {
  return c.model;
}
template <class C>
auto model_of(C& c) -> decltype((c.base.model)) {
  return c.base.model;
}
inline TrainConfig& train_of(TrainConfig& c) { return c; }
template <class C>
auto train_of(C& c) -> decltype((c.base)) {
  return c.base;
}

template <class C, auto M>
void* model_member(C& c, const schema::Spec&) {
  return &(model_of(c).*M);
}
template <class C, auto M>
void* train_member(C& c, const schema::Spec&) {
  return &(train_of(c).*M);
}
template <class C, auto M>
void* own_member(C& c, const schema::Spec&) {
  return &(c.*M);
}
template <class C>
void* hyperparameter(C& c, const schema::Spec& s) {
  return &train_of(c).hyper.find(s.name)->second;
}

// The name a config's placement spec gives its placement, as an extra choice of `placement` and
// `placements` (none without a spec).
template <class C>
std::vector<std::string> spec_choice(const C& c) {
  const std::string& spec = model_of(const_cast<C&>(c)).placement_spec;
  if (spec.empty()) return {};
  return {placement_spec_name(spec)};
}

inline std::string canonical_placement_spec(const json::Value& v) {
  const auto s = read_placement_spec(v);
  return placement_spec_json(s->p);
}

// `placement_spec`: a placement from a JSON spec (placements/spec.h), named by its `name`.
template <class C>
void add_placement_spec_field(schema::Schema<C>& s) {
  schema::add_field(s,
                    schema::object_spec("placement_spec", canonical_placement_spec,
                                        "a placement from a JSON spec (docs/engine.md, \"A placement from a spec\"): "
                                        "an extra placement, named by the spec's name (default \"custom\")"),
                    &model_member<C, &ModelConfig::placement_spec>);
}

// A spec whose placement no run uses is a mistake (a flag that would be silently ignored). `used`:
// the placement names the config runs.
template <class C>
void add_spec_used_rule(schema::Schema<C>& s, std::vector<std::string> (*used)(const C&), const char* where) {
  s.rules.push_back({"placement_spec_is_used", "a placement_spec's placement is one the config runs (by its name)",
                     [used, where](const C& c) {
                       const std::vector<std::string> name = spec_choice(c);
                       if (name.empty()) return;
                       const std::vector<std::string> u = used(c);
                       if (std::find(u.begin(), u.end(), name[0]) == u.end())
                         throw ArgumentError("placement_spec defines the placement \"" + name[0] + "\", which " +
                                             where + " does not name (add \"" + name[0] + "\" to it)");
                     },
                     nullptr});
}

// `except`: model fields a config sets itself (an experiment that sweeps the depth, or the output layer).
template <class C>
void add_model_fields(schema::Schema<C>& s, bool with_placement, const std::vector<std::string>& except = {}) {
  const size_t first = s.fields.size();
  schema::add_field(s, schema::int_spec("layers", 1, kMaxLayers, "number of layers L"),
                    &model_member<C, &ModelConfig::layers>);
  schema::add_field(s, schema::int_spec("d", 2, 4096, "model width d"), &model_member<C, &ModelConfig::d>);
  schema::add_field(s, schema::int_spec("d_ff", 1, 16384, "FFN width"), &model_member<C, &ModelConfig::d_ff>);
  schema::add_field(s, schema::int_spec("vocab", 2, 65536, "vocabulary size V"), &model_member<C, &ModelConfig::vocab>);
  schema::add_field(s, schema::int_spec("seq", 1, 4096, "tokens per sequence n"), &model_member<C, &ModelConfig::seq>);
  schema::add_field(s, schema::int_spec("batch", 1, 4096, "sequences per batch B"),
                    &model_member<C, &ModelConfig::batch>);
  schema::add_field(s,
                    schema::enum_spec("attention", {"bidirectional", "causal"},
                                      "attention mask: every token sees every token, or only earlier ones"),
                    &model_member<C, &ModelConfig::attention>);
  if (with_placement) {
    schema::add_field(s,
                      schema::choice_spec("placement", placement_names,
                                          "where the LayerNorms sit (a placement's name, or placement_spec's)"),
                      &model_member<C, &ModelConfig::placement>, &spec_choice<C>);
    add_placement_spec_field(s);
  }
  schema::add_field(s,
                    schema::enum_spec("norm_type", {"layernorm", "rmsnorm"},
                                      "the norm every placement uses: LayerNorm, or RMSNorm (no centring, no beta)"),
                    &model_member<C, &ModelConfig::norm_type>);
  schema::add_field(
      s,
      schema::enum_spec("final_norm", {"auto", "on", "off"},
                        "a norm before the output layer: as the placement says (auto), or forced on or off"),
      &model_member<C, &ModelConfig::final_norm>);
  schema::add_field(s,
                    schema::enum_spec("output", {"tied", "untied"},
                                      "the output layer: the embedding matrix E (tied), or a matrix of its own"),
                    &model_member<C, &ModelConfig::output>);
  schema::add_field(
      s, schema::enum_spec("input_scale", {"sqrt_d", "none"}, "the input x0 = sqrt(d)*E[token], or E[token]"),
      &model_member<C, &ModelConfig::input_scale>);
  if (!except.empty())
    s.fields.erase(std::remove_if(s.fields.begin() + first, s.fields.end(),
                                  [&](const schema::Field<C>& f) {
                                    return std::find(except.begin(), except.end(), f.spec.name) != except.end();
                                  }),
                   s.fields.end());
}

// The optimizer and its hyperparameters: one field per name (a name two optimizers share once), each
// applying to the optimizers that declare it.
template <class C>
void add_optimizer_fields(schema::Schema<C>& s) {
  schema::add_field(
      s, schema::choice_spec("optimizer", optimizer_names, "the optimizer (a name from the optimizer registry)"),
      &train_member<C, &TrainConfig::optimizer>);
  std::vector<std::string> seen;
  for (const OwnedHyperparameter& oh : all_hyperparameters()) {
    if (std::find(seen.begin(), seen.end(), oh.h.name) != seen.end()) continue;
    seen.push_back(oh.h.name);
    std::vector<std::string> owners;
    for (const OwnedHyperparameter& o2 : all_hyperparameters())
      if (seen.back() == o2.h.name) owners.push_back(o2.optimizer);
    schema::add_field(
        s,
        schema::only_when(schema::number_spec(oh.h.name, oh.h.min, oh.h.max, oh.h.min_exclusive, oh.h.doc), "optimizer",
                          owners),
        &hyperparameter<C>);
  }
  // A hyperparameter of another optimizer, set away from its default, would be silently ignored.
  s.rules.push_back({"hyperparameters_match_optimizer",
                     "a setting that belongs to another optimizer than the chosen one must keep its default",
                     [](const C& c) {
                       const TrainConfig& tc = train_of(const_cast<C&>(c));
                       for (const OwnedHyperparameter& oh : all_hyperparameters()) {
                         bool used = false;
                         for (const OwnedHyperparameter& o2 : all_hyperparameters())
                           used |= o2.optimizer == tc.optimizer && std::string(o2.h.name) == oh.h.name;
                         if (!used && tc.hyper.at(oh.h.name) != oh.h.value)
                           throw ArgumentError(std::string(oh.h.name) + " is a setting of " + oh.optimizer +
                                               "; this run uses " + tc.optimizer);
                       }
                     },
                     nullptr});
}

// The Markov chain the toy learns (and the experiments measure on): its seed and its successors.
template <class C>
void add_chain_fields(schema::Schema<C>& s) {
  schema::add_field(s, schema::uint_spec("chain_seed", kMaxSeed, "seed of the Markov chain the toy learns"),
                    &train_member<C, &TrainConfig::chain_seed>);
  schema::add_field(
      s, schema::int_spec("successors", 1, 65536, "distinct successors per token (the best loss is ln successors)"),
      &train_member<C, &TrainConfig::successors>);
  s.rules.push_back({"successors_within_vocab", "successors is at most vocab",
                     [](const C& c) {
                       const TrainConfig& tc = train_of(const_cast<C&>(c));
                       if (tc.successors > tc.model.vocab)
                         throw ArgumentError("successors = " + std::to_string(tc.successors) +
                                             " is out of range [1, vocab = " + std::to_string(tc.model.vocab) + "]");
                     },
                     nullptr});
}

// A text run's validation period (the field `eval_every` of the train and grid configs, and of the
// real-text experiment's).
inline schema::Spec eval_every_spec() {
  return schema::int_spec("eval_every", 1, kMaxSteps,
                          "steps between two validation losses on the held-out text (and one at the last step)");
}

// What the toy learns: the Markov chain, or the article's text (text_data.h), and the rule that each
// keeps the other's settings at their defaults (a setting that would be silently ignored) and that
// text has vocab 256. Only the train and grid configs have it: an experiment measures on the chain.
template <class C>
void add_data_fields(schema::Schema<C>& s) {
  schema::add_field(s,
                    schema::choice_spec("data", data_names,
                                        "what the toy learns: the Markov chain, or byte-level text of the page's "
                                        "article (vocab 256, a held-out tenth; docs/engine.md, \"Real text\")"),
                    &train_member<C, &TrainConfig::data>);
  schema::add_field(
      s,
      schema::only_when(schema::choice_spec("text_lang", text_lang_names,
                                            "the language of the article's text (both: English and Chinese)"),
                        "data", {"text"}),
      &train_member<C, &TrainConfig::text_lang>);
  schema::add_field(s, schema::only_when(eval_every_spec(), "data", {"text"}),
                    &train_member<C, &TrainConfig::eval_every>);
  s.rules.push_back(
      {"text_data", "data = text has vocab 256; each data's own settings keep their defaults under the other",
       [](const C& c) {
         const TrainConfig& t = train_of(const_cast<C&>(c));
         const TrainConfig d;
         if (t.data == "text") {
           if (t.model.vocab != 256)
             throw ArgumentError("vocab = " + std::to_string(t.model.vocab) +
                                 " conflicts with data = text: byte-level text has vocab 256");
           if (t.successors != d.successors || t.chain_seed != d.chain_seed)
             throw ArgumentError(std::string(t.successors != d.successors ? "successors" : "chain_seed") +
                                 " is a setting of the Markov chain (data = markov); this run learns text");
         } else if (t.text_lang != d.text_lang || t.eval_every != d.eval_every) {
           throw ArgumentError(std::string(t.text_lang != d.text_lang ? "text_lang" : "eval_every") +
                               " is a setting of data = text; this run learns the Markov chain");
         }
       },
       nullptr});
}

// The toy run's fields that a grid shares across its runs.
template <class C>
void add_steps_field(schema::Schema<C>& s) {
  schema::add_field(s, schema::int_spec("steps", 1, kMaxSteps, "optimizer steps"),
                    &train_member<C, &TrainConfig::steps>);
}

// The warm-up's shape (optim/schedule.h); its length is a run field (warmup) or a grid's list (warmups).
template <class C>
void add_warmup_shape_field(schema::Schema<C>& s) {
  schema::add_field(
      s,
      schema::enum_spec("warmup_shape", {"linear", "cosine"},
                        "how the learning rate rises over the warm-up: a straight line, or a half-cosine ramp"),
      &train_member<C, &TrainConfig::warmup_shape>);
}

template <class C>
void add_shared_train_fields(schema::Schema<C>& s) {
  add_steps_field(s);
  add_warmup_shape_field(s);
  add_chain_fields(s);
  add_optimizer_fields(s);
}

// The fields of an init-time sweep over placements × depths × seeds (the experiments'), C's members
// `placements`, `depths` and `seeds` (an experiment at one depth takes the first and the last alone).
template <class C>
void add_placements_field(schema::Schema<C>& s, const char* doc = "the placements to measure") {
  schema::add_field(s, schema::choice_list_spec("placements", placement_names, 16, doc),
                    &own_member<C, &C::placements>);
}
// `placements` with placement_spec's name among its choices, and the rule that a spec names one of them.
template <class C>
void add_spec_placements_field(schema::Schema<C>& s, int max_items, const char* doc) {
  schema::add_field(s, schema::choice_list_spec("placements", placement_names, max_items, doc),
                    &own_member<C, &C::placements>, &spec_choice<C>);
  add_spec_used_rule<C>(
      s, [](const C& c) { return c.placements; }, "placements");
}
// C's `seeds` (one model, batch stream or run each, as `doc` says), `depths` (a sweep's L) and `warmups`
// (a grid's warm-up lengths), each a list of at most `max_items`.
template <class C>
void add_seeds_field(schema::Schema<C>& s, const char* doc, int max_items = 16) {
  schema::add_field(s, schema::uint_list_spec("seeds", kMaxSeed, max_items, doc), &own_member<C, &C::seeds>);
}
template <class C>
void add_depths_field(schema::Schema<C>& s, int max_items, const char* doc = "the depths L") {
  schema::add_field(s, schema::int_list_spec("depths", 1, kMaxLayers, max_items, doc), &own_member<C, &C::depths>);
}
template <class C>
void add_warmups_field(schema::Schema<C>& s, int max_items, const char* doc = "warm-up lengths") {
  schema::add_field(s, schema::int_list_spec("warmups", 0, kMaxSteps, max_items, doc), &own_member<C, &C::warmups>);
}
template <class C>
void add_sweep_fields(schema::Schema<C>& s, const char* seeds_doc) {
  add_placements_field(s);
  add_depths_field(s, 16);
  add_seeds_field(s, seeds_doc);
}

// The rule of a sweep whose model is `model_of(c)` at each of c.depths.
template <class C>
void add_depths_fit_rule(schema::Schema<C>& s) {
  s.rules.push_back({"fits_in_memory", "the model at every depth fits in 1 GiB",
                     [](const C& c) { check_depths_fit(model_of(const_cast<C&>(c)), c.depths); }, nullptr});
}

// An init-time sweep of the toy over depths: its model but the depth, its chain, placements × depths
// × seeds, and the rule that the model fits at every depth (output_sensitivity.cpp, step_size.cpp).
template <class C>
void add_toy_depth_sweep_fields(schema::Schema<C>& s, const char* seeds_doc) {
  add_model_fields(s, false, {"layers"});
  add_chain_fields(s);
  add_sweep_fields(s, seeds_doc);
  add_depths_fit_rule(s);
}

// The fields of one run that a grid varies (placement is a model field): warm-up, peak lr, seed.
template <class C>
void add_run_fields(schema::Schema<C>& s, const std::vector<std::string>& except = {}) {
  auto wanted = [&](const char* k) { return std::find(except.begin(), except.end(), k) == except.end(); };
  if (wanted("warmup"))
    schema::add_field(s,
                      schema::int_spec("warmup", 0, kMaxSteps,
                                       "warm-up steps T_warmup (0 = the peak lr from step 1; its shape: warmup_shape)"),
                      &train_member<C, &TrainConfig::warmup>);
  if (wanted("lr"))
    schema::add_field(s, schema::number_spec("lr", 0, 10, true, "peak learning rate"),
                      &train_member<C, &TrainConfig::lr>);
  if (wanted("seed"))
    schema::add_field(s, schema::uint_spec("seed", kMaxSeed, "seed of the model's initialisation and of the batches"),
                      &train_member<C, &TrainConfig::seed>);
}

}  // namespace lnx::config
