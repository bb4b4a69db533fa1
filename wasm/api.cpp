// api.cpp — names, versions, the thread count and the schema document (api.h). The configs' fields
// and their validation are in configs.cpp.
#include "api.h"

#include "configs.h"
#include "experiments/experiment.h"
#include "gemm.h"
#include "json.h"
#include "optim/registry.h"
#include "placements/placement.h"
#include "placements/presets.h"
#include "placements/spec.h"
#include "schema.h"
#include "thread_pool.h"

#ifndef LNX_VERSION
#define LNX_VERSION "0.1.0"
#endif

namespace lnx {

const char* to_string(Attention a) { return a == Attention::Causal ? "causal" : "bidirectional"; }

std::string engine_version() { return LNX_VERSION; }

std::string build_flavour() {
  // The FMA flavour links the same objects as its plain one with a GEMM that has the fused kernel.
  const std::string fma = gemm_fma_available() ? "-fma" : "";
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
  return "wasm-mt" + fma;
#elif defined(__EMSCRIPTEN__)
  return "wasm-st" + fma;
#else
  return "native";
#endif
}

void set_threads(int n) {
  if (n < 0 || n > 256) throw ArgumentError("threads = " + std::to_string(n) + " is out of range [0, 256]");
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  if (n > 1) throw ArgumentError("this build is single-threaded; threads must be 0 or 1");
  n = 1;
#endif
  reset_pool(n);
}
int threads() { return pool().size(); }

namespace {

void write_sublayer(json::Writer& w, const char* key, const Sublayer& s) {
  w.key(key).begin_object().key("norm_input").value(s.norm_input).key("norm_branch").value(s.norm_branch);
  w.key("norm_after").value(s.norm_after).end_object();
}

}  // namespace

std::string schema_json() {
  json::Writer w;
  w.begin_object();
  w.key("engine").begin_object().key("version").value(engine_version()).end_object();
  w.key("configs").begin_array();
  schema::describe(w, config::model_schema());
  schema::describe(w, config::probe_schema());
  schema::describe(w, config::train_schema());
  schema::describe(w, config::grid_schema());
  w.end_array();
  w.key("placements").begin_array();
  for (const Placement* p : placements()) {
    w.begin_object().key("name").value(p->name).key("label").value(p->label).key("doc").value(p->doc);
    write_sublayer(w, "attention", p->attention);
    write_sublayer(w, "ffn", p->ffn);
    w.key("final_norm").value(p->final_norm);
    w.key("residual_scale").value(p->residual_scale.kind != ResidualScale::Kind::One ? "depends on layers" : "1");
    w.key("init_scale").value(p->init_scale.kind != InitScale::Kind::Xavier ? "depends on layers" : "1");
    w.end_object();
  }
  w.end_array();
  // The named specs a reader can start from (placements/presets.h): each a canonical placement_spec.
  w.key("placement_presets").begin_array();
  for (const PlacementPreset& p : placement_presets()) {
    w.begin_object().key("name").value(p.name).key("label").value(p.label).key("doc").value(p.doc);
    w.key("source").value(p.source).key("spec").raw(p.spec).end_object();
  }
  w.end_array();
  w.key("placement_spec_fields");
  describe_placement_spec_fields(w);
  w.key("placement_spec_rules");
  describe_placement_spec_rules(w);
  w.key("experiments").begin_array();
  for (const exp::ExperimentInfo& e : exp::experiments()) {
    w.begin_object().key("name").value(e.name).key("doc").value(e.doc).key("claim").value(e.claim).key("config");
    e.describe(w);
    w.end_object();
  }
  w.end_array();
  w.key("optimizers").begin_array();
  for_each_optimizer([&](auto o) {
    using O = decltype(o);
    w.begin_object().key("name").value(O::kName).key("doc").value(O::kDoc).key("states").value(O::kStates);
    w.key("suggested_lr").value(O::kSuggestedLr);
    w.key("hyperparameters").begin_array();
    for (const Hyperparameter& h : O::hyperparameters()) w.value(h.name);
    w.end_array().end_object();
  });
  w.end_array();
  w.end_object();
  return w.str();
}

}  // namespace lnx
