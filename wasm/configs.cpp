// configs.cpp — every field of every config, declared once (name, bounds, one-line doc; the default
// is the member initialiser in api.h), and the rules across fields. Parsing, validation, writing,
// the CLI's flags, `lnx schema --json`, the page's generated TypeScript module and the reference in
// docs/json-schema.md all come from the declarations below (schema.h says how).
//
// Every size is bounded before anything is allocated: a config that would need more memory than
// kMaxModelBytes is refused with a message that says how much it would take and which fields to
// lower, so a URL or a UI value cannot make the page allocate gigabytes.
#include "configs.h"

#include "api.h"

#include "config_fields.h"
#include "experiments/experiment.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "optim/registry.h"
#include "placements/placement.h"

namespace lnx {
namespace config {
namespace {

using namespace schema;

constexpr double kMaxModelBytes = 1.0 * (1 << 30);  // 1 GiB: fits a wasm32 heap with room to spare
constexpr int kMaxGridRuns = 64;
// What a grid's runs hold together (weights, gradients, moments; GridRun builds every run before its
// first step): the wasm32 heap is 2 GB (CMakeLists.txt MAXIMUM_MEMORY), and the per-thread activation
// workspaces need the rest.
constexpr double kMaxGridStateBytes = 1.5 * (1 << 30);

std::string mib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", bytes / (1 << 20));
  return buf;
}

}  // namespace

void check_size(const ModelConfig& m, int optimizer_states, const std::string& what, const std::string& lower) {
  const double bytes = model_bytes(m, optimizer_states);
  if (bytes > kMaxModelBytes)
    throw ArgumentError(what + " too large: it would need about " + mib(bytes) + " MiB; the limit is " +
                        mib(kMaxModelBytes) + " MiB (lower " + lower + ")");
}

void check_depths_fit(ModelConfig m, const std::vector<int>& depths) {
  for (int L : depths) {
    m.layers = L;
    check_size(m, 2, "the model at depth " + std::to_string(L), "depths, d, d_ff, vocab, seq or batch");
  }
}

std::string warmup_warning(int warmup, int steps) {
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "warmup = %d is longer than the run (%d steps): the learning rate never reaches its peak (it ends "
                "at %.2g%% of lr)",
                warmup, steps, 100.0 * steps / warmup);
  return buf;
}

std::vector<std::string> warmup_warnings(const std::vector<int>& warmups, int steps) {
  std::vector<std::string> w;
  for (int wu : warmups)
    if (wu > steps) w.push_back(warmup_warning(wu, steps));
  return w;
}

double model_bytes(const ModelConfig& m, int optimizer_states) {
  const double d = m.d, F = m.d_ff, V = m.vocab, N = static_cast<double>(m.batch) * m.seq, L = m.layers;
  const double params = V * d + L * (3 * d * d + 2 * d * F + 9 * d + F) + 2 * d;
  const double acts = L * (8 * N * d + 2 * N * F + N * m.seq + 4 * N) + N * (8 * d + 2 * F + 2 * V);
  return 4.0 * ((2 + optimizer_states) * params + acts);
}

double grid_run_state_bytes(const ModelConfig& m) {
  // model_bytes without the activations: parameters, gradients and Adam's two moments
  ModelConfig no_acts = m;
  no_acts.batch = 0;
  return model_bytes(no_acts, 2);
}

const Schema<ModelConfig>& model_schema() {
  static const Schema<ModelConfig> s = [] {
    Schema<ModelConfig> s{"model", "the Transformer: sizes, attention mask and placement", {}, {}};
    add_model_fields(s, true);
    s.rules.push_back({"model_fits_in_memory", "the model's parameters and activations fit in 1 GiB",
                       [](const ModelConfig& m) { check_size(m, 2, "model", kModelKnobs); }, nullptr});
    return s;
  }();
  return s;
}

const Schema<ProbeConfig>& probe_schema() {
  static const Schema<ProbeConfig> s = [] {
    Schema<ProbeConfig> s{"probe", "the init-time probe of Figures 2 and 3 (ProbeRun, lnx probe)", {}, {}};
    using P = ProbeConfig;
    add_model_fields(s, false);
    add_placement_spec_field(s);
    add_spec_placements_field(s, 16, "the placements to measure (placement_spec's name too)");
    add_seeds_field(s, "seeds, one model (and batch stream) each");
    schema::add_field(s, int_spec("batches", 1, 1000, "batches per seed for the per-layer statistics"),
                      &own_member<P, &P::batches>);
    schema::add_field(
        s, int_spec("depth_batches", 1, 1000, "batches per seed for the last layer's gradient against depth"),
        &own_member<P, &P::depth_batches>);
    add_depths_field(s, 16, "the depths L of the last-layer sweep");
    // Its largest job is the deepest model. The probe keeps no optimizer state, but the rule counts
    // two moment buffers as a training run does (a margin; web/src/lib/probe-settings.ts counts the
    // same, so the page's form refuses exactly what this refuses).
    s.rules.push_back({"probe_fits_in_memory", "the model at `layers` and at every depth fits in 1 GiB",
                       [](const ProbeConfig& c) {
                         check_size(c.model, 2, "model", kModelKnobs);
                         check_depths_fit(c.model, c.depths);
                       },
                       nullptr});
    return s;
  }();
  return s;
}

const Schema<TrainConfig>& train_schema() {
  static const Schema<TrainConfig> s = [] {
    Schema<TrainConfig> s{"train", "one toy training run of Figure 4 (TrainRun, lnx train)", {}, {}};
    add_model_fields(s, true);
    add_spec_used_rule<TrainConfig>(
        s, [](const TrainConfig& c) { return std::vector<std::string>{c.model.placement}; }, "placement");
    add_run_fields(s);
    add_shared_train_fields(s);
    add_data_fields(s);
    s.rules.push_back({"model_fits_in_memory", "the model, its gradients and the optimizer's state fit in 1 GiB",
                       [](const TrainConfig& c) { check_size(c.model, 2, "model", kModelKnobs); }, nullptr});
    s.rules.push_back({"warmup_reaches_peak", "a warm-up longer than the run is allowed, with a warning", nullptr,
                       [](const TrainConfig& c) {
                         std::vector<std::string> w;
                         if (c.warmup > c.steps) w.push_back(warmup_warning(c.warmup, c.steps));
                         return w;
                       }});
    return s;
  }();
  return s;
}

const Schema<GridConfig>& grid_schema() {
  static const Schema<GridConfig> s = [] {
    Schema<GridConfig> s{
        "grid", "the toy warm-up grid of Figure 4: placements × warm-ups × lrs × seeds (GridRun, lnx grid)", {}, {}};
    using G = GridConfig;
    add_model_fields(s, false);
    add_placement_spec_field(s);
    add_shared_train_fields(s);
    add_data_fields(s);
    add_spec_placements_field(s, 16, "the placements, one set of runs each (placement_spec's name too)");
    add_warmups_field(s, 8);
    schema::add_field(s, number_list_spec("lrs", 0, 10, true, 8, "peak learning rates"), &own_member<G, &G::lrs>);
    add_seeds_field(s, "seeds, one run each", 8);
    s.rules.push_back({"grid_size", "at most 64 runs",
                       [](const GridConfig& g) {
                         const size_t runs = g.placements.size() * g.warmups.size() * g.lrs.size() * g.seeds.size();
                         if (runs > static_cast<size_t>(kMaxGridRuns))
                           throw ArgumentError("the grid has " + std::to_string(runs) + " runs; at most " +
                                               std::to_string(kMaxGridRuns) + " allowed");
                       },
                       nullptr});
    s.rules.push_back({"model_fits_in_memory", "one run's model, gradients and optimizer state fit in 1 GiB",
                       [](const GridConfig& g) { check_size(g.base.model, 2, "model", kModelKnobs); }, nullptr});
    // GridRun builds every run before the first step (trainer.cpp), so their states are in memory at
    // once: a grid of 60 runs of a 500 MB model passed the rule above and ran out of memory after 8 s.
    s.rules.push_back(
        {"grid_fits_in_memory", "every run's parameters, gradients and optimizer state together fit in 1.5 GiB",
         [](const GridConfig& g) {
           const size_t runs = g.placements.size() * g.warmups.size() * g.lrs.size() * g.seeds.size();
           const double bytes = static_cast<double>(runs) * grid_run_state_bytes(g.base.model);
           if (bytes > kMaxGridStateBytes)
             throw ArgumentError("grid too large: its " + std::to_string(runs) + " runs would hold about " +
                                 mib(bytes) +
                                 " MiB of weights, gradients and "
                                 "optimizer state at once; the limit is " +
                                 mib(kMaxGridStateBytes) + " MiB (fewer runs, or lower layers, d, d_ff or vocab)");
         },
         nullptr});
    s.rules.push_back({"warmup_reaches_peak", "a warm-up longer than the run is allowed, with a warning", nullptr,
                       [](const GridConfig& g) { return warmup_warnings(g.warmups, g.base.steps); }});
    return s;
  }();
  return s;
}

void write_fields(json::Writer& w, const ProbeConfig& c) { schema::write_fields(w, probe_schema(), c); }
void write_fields(json::Writer& w, const TrainConfig& c) { schema::write_fields(w, train_schema(), c); }
void write_fields(json::Writer& w, const GridConfig& g) { schema::write_fields(w, grid_schema(), g); }

}  // namespace config

Hyperparameters default_hyperparameters() {
  Hyperparameters out;
  for (const auto& oh : all_hyperparameters()) out.emplace(oh.h.name, oh.h.value);
  return out;
}

void ModelConfig::validate() const { schema::validate(config::model_schema(), *this); }
void ProbeConfig::validate() const { schema::validate(config::probe_schema(), *this); }
void TrainConfig::validate() const { schema::validate(config::train_schema(), *this); }
void GridConfig::validate() const { schema::validate(config::grid_schema(), *this); }
std::vector<std::string> TrainConfig::warnings() const { return schema::warnings(config::train_schema(), *this); }
std::vector<std::string> GridConfig::warnings() const { return schema::warnings(config::grid_schema(), *this); }

ProbeConfig probe_config_from_json(const std::string& text) { return schema::parse(config::probe_schema(), text); }
TrainConfig train_config_from_json(const std::string& text) { return schema::parse(config::train_schema(), text); }
GridConfig grid_config_from_json(const std::string& text) { return schema::parse(config::grid_schema(), text); }

std::string check_config_json(const std::string& kind, const std::string& config_json) {
  json::Writer w;
  w.begin_object();
  try {
    json::Writer ok;  // written only once the config passed
    ok.begin_object().key("ok").value(true);
    if (kind == "probe") schema::write_warnings(ok, config::probe_schema(), probe_config_from_json(config_json));
    else if (kind == "train") schema::write_warnings(ok, config::train_schema(), train_config_from_json(config_json));
    else if (kind == "grid") schema::write_warnings(ok, config::grid_schema(), grid_config_from_json(config_json));
    else exp::experiment(kind).check(config_json, ok);  // an experiment's name (else: the known ones)
    return ok.end_object().str();
  } catch (const RuleError& e) {
    w.key("ok").value(false).key("message").value(e.what()).key("rule").value(e.rule);
  } catch (const ArgumentError& e) {
    w.key("ok").value(false).key("message").value(e.what());
  }
  w.end_object();
  return w.str();
}

}  // namespace lnx
