// experiment.h — the seam every experiment sits behind (experiments.md in ../shared/research and
// docs/experiments.md list what each one tests): a steppable computation over the CPU engine with a
// config schema of its own and a JSON result.
//
// An experiment is a class with
//   kName, kDoc, kClaim     its name (`lnx exp NAME`, ExperimentRun), what it measures, and the
//                           article's claim it tests (with the article's tag)
//   Config                  its config struct: a `TrainConfig base` (model and chain) plus its own fields
//   fields(s)               declares the Config's fields and rules (schema.h: once, with bounds and
//                           docs) into s, its schema, which already has kName and kDoc; schema_of<E>()
//                           builds that schema once
//   Exp(const Config&)      set up, cheap
//   void step_once()        advance by one unit of work (a forward pass, a training step…); called
//                           only while !done() (Erased::step loops over it, so each experiment
//                           writes one unit and never the loop)
//   bool done() const, double progress() const
//   void write(json::Writer&) const   the result's own keys, once done()
// and one line in registry.cpp. The result document is {"experiment", "engine", "config", …its keys}.
// Experiments run on the CPU engine: the page runs them there on a WebGPU page too, since each is a
// few hundred small passes whose results must be read every pass. One exception, phase-diagram, whose
// runs are whole training runs: the GPU build runs it batched (gpu/gpu_phase_diagram.h) with the same
// plan, rule and document (phase_diagram.h), and `document` below writes both engines' documents.
// Leaves out: resuming an experiment from a partial result.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "../config.h"
#include "../json.h"
#include "../schema.h"

namespace lnx::exp {

// The quick look's toy run (docs/reproduction.md, "Quick look": Figure 4's model at 6 layers, batch 2,
// sequences of 32) of `steps` steps: the base config of the experiments that train it (warmup-length,
// sharpness, real-text).
inline TrainConfig quick_look_base(int steps) {
  TrainConfig t;
  t.model.layers = 6, t.model.seq = 32, t.model.batch = 2;
  t.steps = steps;
  return t;
}

// The runs of an experiment that walks a grid of axes (placements × optimizers × … × seeds), numbered
// with the first axis outermost and the last fastest (placement-major): `axes` holds each axis's size.
// How many runs there are, and run k's index on each axis.
template <size_t N>
size_t run_count_of(const std::array<size_t, N>& axes) {
  size_t n = 1;
  for (size_t a : axes) n *= a;
  return n;
}
template <size_t N>
std::array<size_t, N> run_indices(size_t k, const std::array<size_t, N>& axes) {
  std::array<size_t, N> at{};
  for (size_t i = N; i-- > 0;) at[i] = k % axes[i], k /= axes[i];
  return at;
}

// The rule "runs" of an experiment E over the axes E::axes_of(config): at most `max` runs, refused as
// "<what> has N runs<axes>; at most <max> allowed".
template <class E>
void add_runs_rule(schema::Schema<typename E::Config>& s, size_t max, const std::string& what,
                   const std::string& axes = "") {
  s.rules.push_back({"runs", "at most " + std::to_string(max) + " runs",
                     [=](const typename E::Config& c) {
                       const size_t n = run_count_of(E::axes_of(c));
                       if (n > max)
                         throw ArgumentError(what + " has " + std::to_string(n) + " runs" + axes + "; at most " +
                                             std::to_string(max) + " allowed");
                     },
                     nullptr});
}

// What the registry and ExperimentRun ask of an experiment, whatever its type.
class Experiment {
 public:
  virtual ~Experiment() = default;
  virtual double step(int work) = 0;
  virtual bool done() const = 0;
  virtual double progress() const = 0;
  virtual std::string result_json() const = 0;
};

struct ExperimentInfo {
  const char* name;
  const char* doc;
  const char* claim;
  void (*describe)(json::Writer&);                      // the config's schema document (schema::describe)
  const schema::Spec* (*find)(const std::string& key);  // a config field by key (the CLI's flags)
  std::vector<std::string> (*keys)();                   // every config key, in declaration order
  std::string (*usage)(size_t indent);                  // the CLI's usage items
  std::unique_ptr<Experiment> (*make)(const std::string& config_json);
  // Would the experiment take this config? Parses and validates it as make does (throws the same
  // ArgumentError or RuleError), without setting anything up, then writes its warnings
  // (schema::write_warnings): check_config_json(name, …), the page's settings forms.
  void (*check)(const std::string& config_json, json::Writer& w);
};

// The registered experiments (registry.cpp), and one by name (ArgumentError naming the known ones).
const std::vector<ExperimentInfo>& experiments();
const ExperimentInfo& experiment(const std::string& name);

// The "engine" key of a document; "backend" only when not null (a document of the CPU engine has none).
void write_engine(json::Writer& w, const char* backend = nullptr);

// An experiment's document: {"experiment", "engine", "config", then what `body` writes}.
template <class E, class F>
std::string document(const typename E::Config& cfg, F&& body, const char* backend = nullptr);

// The schema of an experiment class E: its name and doc, then what E::fields declares; built once.
template <class E>
const schema::Schema<typename E::Config>& schema_of() {
  static const schema::Schema<typename E::Config> s = [] {
    schema::Schema<typename E::Config> s{E::kName, E::kDoc, {}, {}};
    E::fields(s);
    return s;
  }();
  return s;
}

template <class E, class F>
std::string document(const typename E::Config& cfg, F&& body, const char* backend) {
  json::Writer w;
  w.begin_object().key("experiment").value(E::kName);
  write_engine(w, backend);
  w.key("config").begin_object();
  schema::write_fields(w, schema_of<E>(), cfg);
  w.end_object();
  body(w);
  w.end_object();
  return w.str();
}

// The type-erased wrapper and the registry entry of an experiment class E.
template <class E>
class Erased final : public Experiment {
 public:
  explicit Erased(const typename E::Config& c) : e_(c), cfg_(c) {}
  double step(int work) override {
    if (work < 1) throw ArgumentError("step(work): work must be >= 1");
    for (int k = 0; k < work && !e_.done(); ++k) e_.step_once();
    return e_.progress();
  }
  bool done() const override { return e_.done(); }
  double progress() const override { return e_.progress(); }
  std::string result_json() const override {
    if (!e_.done()) throw ArgumentError(std::string(E::kName) + ": result requested before the experiment is done");
    return document<E>(cfg_, [&](json::Writer& w) { e_.write(w); });
  }

 private:
  E e_;
  typename E::Config cfg_;
};

template <class E>
ExperimentInfo info_of() {
  return {E::kName,
          E::kDoc,
          E::kClaim,
          [](json::Writer& w) { schema::describe(w, schema_of<E>()); },
          [](const std::string& key) -> const schema::Spec* {
            const auto* f = schema_of<E>().find(key);
            return f ? &f->spec : nullptr;
          },
          [] {
            std::vector<std::string> out;
            for (const auto& f : schema_of<E>().fields) out.push_back(f.spec.name);
            return out;
          },
          [](size_t indent) { return schema::usage(schema_of<E>(), typename E::Config{}, indent); },
          [](const std::string& text) -> std::unique_ptr<Experiment> {
            return std::make_unique<Erased<E>>(schema::parse(schema_of<E>(), text));
          },
          [](const std::string& text, json::Writer& w) {
            schema::write_warnings(w, schema_of<E>(), schema::parse(schema_of<E>(), text));
          }};
}

}  // namespace lnx::exp
