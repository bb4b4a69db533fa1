// train_documents.cpp — the toy runs' documents (docs/json-schema.md: Train and Grid): writing a
// run's and a grid's document, reading a run's back (a grid continued from another backend's work),
// the Grid document of runs the caller advances itself (GridDocument), and the grid's plan
// (grid_plan_json). Nothing here trains: the CPU runs are trainer.cpp's, the GPU's gpu/.
#include <algorithm>
#include <cmath>
#include <memory>

#include "api.h"
#include "configs.h"
#include "gemm.h"
#include "json.h"
#include "markov.h"
#include "thread_pool.h"
#include "train_common.h"

namespace lnx {
namespace detail {

// A number as the documents print it (for messages).
std::string number_text(double x) {
  json::Writer w;
  w.value(x);
  return w.str();
}

// Throws unless `run` indexes one of a grid's `count` runs (GridDocument, GridRun::continue_run).
void check_run_index(int run, size_t count) {
  if (run < 0 || static_cast<size_t>(run) >= count)
    throw ArgumentError("run = " + std::to_string(run) + " is out of range [0, " + std::to_string(count - 1) + "]");
}

std::string train_shape_key(const TrainConfig& c) {
  TrainConfig k = c;
  const TrainConfig fed;  // the host-fed fields at their defaults
  k.lr = fed.lr, k.warmup = fed.warmup, k.warmup_shape = fed.warmup_shape, k.seed = fed.seed;
  k.chain_seed = fed.chain_seed, k.successors = fed.successors, k.hyper = fed.hyper;
  json::Writer w;
  w.begin_object();
  config::write_fields(w, k);
  w.end_object();
  return w.str();
}

void write_engine(json::Writer& w, const char* backend) {
  w.key("engine").begin_object().key("version").value(engine_version()).key("build").value(build_flavour());
  w.key("threads").value(threads());
  if (backend) w.key("backend").value(backend);
  // Only when set, so documents of the deterministic arithmetic keep their bytes (docs/engine.md).
  if (gemm_fma()) w.key("fma").value(true);
  w.end_object();
}

void write_grid_config(json::Writer& w, const GridConfig& g) {
  w.begin_object();
  config::write_fields(w, g);
  w.end_object();
}

}  // namespace detail

// ---- Grid document (runs advanced by the caller) ----
struct GridDocument::Impl {
  GridConfig cfg;
  struct Run {
    TrainConfig train;
    RunStatus status = RunStatus::Running;
    int stop_step = 0;
    std::vector<float> loss, grad_norm, lr;
  };
  std::vector<Run> runs;
  double plateau = 0;

  explicit Impl(const GridConfig& c) : cfg(c) {
    cfg.validate();
    detail::for_each_grid_run(cfg, [&](const TrainConfig& t) { runs.push_back({t}); });
    plateau = detail::data_plateau(runs.front().train);
  }
  Run& at(int run) {
    detail::check_run_index(run, runs.size());
    return runs[run];
  }
  std::vector<detail::GridRunView> views() const {
    std::vector<detail::GridRunView> out;
    for (const Run& r : runs) out.push_back({&r.train, r.status, r.stop_step, &r.loss, &r.grad_norm, &r.lr});
    return out;
  }
};

GridDocument::GridDocument(const GridConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
GridDocument::~GridDocument() = default;
int GridDocument::runs() const { return static_cast<int>(impl_->runs.size()); }
int GridDocument::steps_held(int run) const { return static_cast<int>(impl_->at(run).loss.size()); }
bool GridDocument::done() const {
  for (const auto& r : impl_->runs)
    if (r.status == RunStatus::Running) return false;
  return true;
}
double GridDocument::progress() const { return detail::grid_progress(impl_->cfg, impl_->views()); }
std::string GridDocument::result_json(int from, const char* backend) const {
  return detail::grid_result_json(impl_->cfg, impl_->plateau, impl_->views(), from, backend);
}
void GridDocument::append(int run, const std::string& train_json) {
  Impl::Run& r = impl_->at(run);
  const detail::Series s = detail::parse_series(json::parse(train_json));
  if (s.from > static_cast<int>(r.loss.size()))
    throw ArgumentError("the Train document starts at step " + std::to_string(s.from) + ", after the " +
                        std::to_string(r.loss.size()) + " steps held");
  if (s.from + s.loss.size() > static_cast<size_t>(impl_->cfg.base.steps))
    throw ArgumentError("a Train document has more steps than the grid's runs");
  auto append_to = [&](std::vector<float>& dst, const std::vector<float>& src) {
    dst.resize(static_cast<size_t>(s.from));
    dst.insert(dst.end(), src.begin(), src.end());
  };
  append_to(r.loss, s.loss);
  append_to(r.grad_norm, s.grad_norm);
  append_to(r.lr, s.lr);
  r.status = s.status;
  r.stop_step = s.stop_step;
}

namespace detail {

std::shared_ptr<const TextData> text_of(const TrainConfig& c) {
  return c.data == "text" ? TextData::of(c.text_lang, c.model.seq) : nullptr;
}

double data_plateau(const TrainConfig& c) {
  if (auto text = text_of(c)) return text->unigram_entropy();
  return MarkovChain(c.model.vocab, c.successors, c.chain_seed).stationary_entropy();
}

void write_reference_losses(json::Writer& w, double plateau, const TrainConfig& c) {
  w.key("plateau_entropy").value(plateau);
  if (c.data != "text") w.key("optimal_loss").value(std::log(static_cast<double>(c.successors)));
  w.key("uniform_loss").value(std::log(static_cast<double>(c.model.vocab)));
  if (auto text = text_of(c)) {
    w.key("text");
    text->write(w);
  }
}

Series parse_series(const json::Value& v) {
  if (v.kind != json::Value::Kind::Object) throw ArgumentError("a run's document must be a JSON object");
  auto number = [&](const char* key) -> double {
    auto it = v.obj.find(key);
    if (it == v.obj.end() || it->second.kind != json::Value::Kind::Number)
      throw ArgumentError(std::string("a run's document needs a number \"") + key + "\"");
    return it->second.num;
  };
  auto series = [&](const char* key, std::vector<float>& dst) {
    auto it = v.obj.find(key);
    if (it == v.obj.end() || it->second.kind != json::Value::Kind::Array)
      throw ArgumentError(std::string("a run's document needs a list \"") + key + "\"");
    for (const json::Value& x : it->second.arr) {
      if (x.kind != json::Value::Kind::Number) throw ArgumentError("a run's series must hold numbers");
      dst.push_back(static_cast<float>(x.num));  // the document printed floats exactly (9 digits)
    }
  };
  auto status = v.obj.find("status");
  if (status == v.obj.end() || status->second.kind != json::Value::Kind::String)
    throw ArgumentError("a run's document needs a \"status\"");
  Series s;
  const double from = number("from");
  if (!(from >= 0 && from <= 1e7) || from != std::floor(from))
    throw ArgumentError("a run's document has \"from\" = " + detail::number_text(from) + ", not a step count");
  s.from = static_cast<int>(from);
  series("loss", s.loss);
  series("grad_norm", s.grad_norm);
  series("lr_schedule", s.lr);
  if (s.grad_norm.size() != s.loss.size() || s.lr.size() != s.loss.size())
    throw ArgumentError("a run's loss, grad_norm and lr_schedule must have the same length");
  s.status = parse_run_status(status->second.str);
  const auto stop = v.obj.find("stop_step");
  s.stop_step =
      stop != v.obj.end() && stop->second.kind == json::Value::Kind::Number ? static_cast<int>(stop->second.num) : 0;
  return s;
}

void write_series(json::Writer& w, int from, RunStatus status, int stop_step, const std::vector<float>& loss,
                  const std::vector<float>& grad_norm, const std::vector<float>& lr, const Handoff* handoff,
                  const ValSeries* val) {
  const int n = static_cast<int>(loss.size());
  from = std::max(0, std::min(from, n));
  w.key("status").value(to_string(status));
  const bool stopped = status == RunStatus::NaN || status == RunStatus::Diverged;
  if (stopped) w.key("stop_step").value(stop_step);
  else w.key("stop_step").null();
  w.key("steps_done").value(n);
  w.key("from").value(from);
  w.key("loss").array(loss.begin() + from, loss.end());
  w.key("grad_norm").array(grad_norm.begin() + from, grad_norm.end());
  w.key("lr_schedule").array(lr.begin() + from, lr.end());
  if (val) {
    w.key("val_step").array(val->step.begin(), val->step.end());
    w.key("val_loss").array(val->loss.begin(), val->loss.end());
  }
  if (handoff && handoff->steps > 0)
    w.key("handoff")
        .begin_object()
        .key("backend")
        .value(handoff->backend)
        .key("steps")
        .value(handoff->steps)
        .end_object();
}

std::string train_result_json(const TrainConfig& c, double plateau, RunStatus status, int stop_step,
                              const std::vector<float>& loss, const std::vector<float>& grad_norm,
                              const std::vector<float>& lr, int from, const char* backend, const Handoff* handoff,
                              const ValSeries* val) {
  json::Writer w;
  w.begin_object();
  write_engine(w, backend);
  w.key("config").begin_object();
  config::write_fields(w, c);
  w.end_object();
  write_reference_losses(w, plateau, c);
  write_series(w, from, status, stop_step, loss, grad_norm, lr, handoff, val);
  w.end_object();
  return w.str();
}

double grid_progress(const GridConfig& g, const std::vector<GridRunView>& runs) {
  double total = 0, got = 0;
  for (const GridRunView& r : runs) {
    total += g.base.steps;
    got += r.status == RunStatus::Running ? r.loss->size() : g.base.steps;
  }
  return total > 0 ? got / total : 1.0;
}

std::string grid_result_json(const GridConfig& g, double plateau, const std::vector<GridRunView>& runs, int from,
                             const char* backend) {
  json::Writer w;
  w.begin_object();
  write_engine(w, backend);
  w.key("config");
  write_grid_config(w, g);
  write_reference_losses(w, plateau, g.base);
  w.key("progress").value(grid_progress(g, runs));
  w.key("runs").begin_array();
  for (const GridRunView& r : runs) {
    w.begin_object();
    w.key("placement")
        .value(r.train->model.placement)
        .key("warmup")
        .value(r.train->warmup)
        .key("lr")
        .value(r.train->lr);
    w.key("seed").value(r.train->seed);
    write_series(w, from, r.status, r.stop_step, *r.loss, *r.grad_norm, *r.lr, r.handoff, r.val);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.str();
}

RunStatus parse_run_status(const std::string& s) {
  for (RunStatus r : {RunStatus::Running, RunStatus::Ok, RunStatus::NaN, RunStatus::Diverged})
    if (s == to_string(r)) return r;
  throw ArgumentError("a run's status must be \"running\", \"ok\", \"nan\" or \"diverged\"");
}

}  // namespace detail

const char* to_string(RunStatus s) {
  switch (s) {
    case RunStatus::Running:
      return "running";
    case RunStatus::Ok:
      return "ok";
    case RunStatus::NaN:
      return "nan";
    case RunStatus::Diverged:
      return "diverged";
  }
  return "?";
}

std::string grid_plan_json(const std::string& config_json) {
  const GridConfig g = grid_config_from_json(config_json);
  json::Writer w;
  w.begin_object();
  w.key("config");
  detail::write_grid_config(w, g);
  w.key("runs").begin_array();
  std::vector<std::string> shapes;  // distinct shape keys, in plan order
  detail::for_each_grid_run(g, [&](const TrainConfig& t) {
    const std::string key = detail::train_shape_key(t);
    auto it = std::find(shapes.begin(), shapes.end(), key);
    if (it == shapes.end()) it = shapes.insert(shapes.end(), key);
    w.begin_object();
    w.key("placement")
        .value(t.model.placement)
        .key("warmup")
        .value(t.warmup)
        .key("lr")
        .value(t.lr)
        .key("seed")
        .value(t.seed);
    w.key("shape").value(static_cast<int>(it - shapes.begin()));
    w.key("train").begin_object();
    config::write_fields(w, t);
    w.end_object();
    w.end_object();
  });
  w.end_array();
  w.end_object();
  return w.str();
}

}  // namespace lnx
