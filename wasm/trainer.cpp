// trainer.cpp — the toy warm-up experiment of Figure 4 (TrainRun and GridRun in api.h).
//
// One run: the causal Transformer of TrainConfig trained with the optimizer it names (optim/: Adam,
// β = (0.9, 0.98), ε = 1e-8 by default, or SGD with momentum) on fresh random walks of the Markov
// chain every step, with the warm-up schedule of optim/schedule.h. Each step records the loss, the
// global gradient norm and the learning rate; a non-finite loss or gradient stops the run with
// status "nan" at that step, a loss above 4·ln V with status "diverged" (the engine's softmax and
// cross-entropy are overflow-safe, so a blown-up Post-LN run shows huge finite losses rather than
// NaN); the stopping step is reported as stop_step and its loss is left out of the series, so a
// curve never shows a non-finite or blown-up value. The grid advances its runs in
// parallel, one run per pool thread at a time, each run's ops inline on its thread; the runs share
// one workspace per thread.
//
// Data-parallel halves. An even batch is computed as two half-batches whose gradients are summed
// in a fixed order, g = (g_first + g_second) / 2 (each half's loss is its own mean, so this is the
// gradient of the whole batch's mean). A single run with two or more pool threads computes the two
// halves at once on two model replicas (one synchronisation per step instead of one per op, which
// is what makes the second thread pay at the toy's size: the per-op splits measured 1.08× at best);
// with one thread, or inside the grid, the halves run one after the other. Either way the same
// float operations happen in the same order, so a run's curve is bit-identical for 1, 2 or 4
// threads.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "api.h"
#include "configs.h"
#include "gemm.h"
#include "json.h"
#include "markov.h"
#include "model.h"
#include "optim/registry.h"
#include "profile.h"
#include "rng.h"
#include "thread_pool.h"
#include "train_common.h"
#include "train_access.h"
#include "train_run.h"

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

// Calls f(train config) for every run of the grid, in the grid's order: placement-major, then
// warm-up, then lr, then seed.
template <class F>
void for_each_grid_run(const GridConfig& g, F&& f) {
  for (const std::string& placement : g.placements)
    for (int warmup : g.warmups)
      for (double lr : g.lrs)
        for (uint64_t seed : g.seeds) {
          TrainConfig t = g.base;
          t.model.placement = placement;
          t.warmup = warmup;
          t.lr = lr;
          t.seed = seed;
          f(t);
        }
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
    const TrainConfig& t = runs.front().train;
    plateau = MarkovChain(t.model.vocab, t.successors, t.chain_seed).stationary_entropy();
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

void write_reference_losses(json::Writer& w, double plateau, const TrainConfig& c) {
  w.key("plateau_entropy").value(plateau);
  w.key("optimal_loss").value(std::log(static_cast<double>(c.successors)));
  w.key("uniform_loss").value(std::log(static_cast<double>(c.model.vocab)));
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
  s.stop_step = stop != v.obj.end() && stop->second.kind == json::Value::Kind::Number ? static_cast<int>(stop->second.num) : 0;
  return s;
}

void write_series(json::Writer& w, int from, RunStatus status, int stop_step, const std::vector<float>& loss,
                  const std::vector<float>& grad_norm, const std::vector<float>& lr, const Handoff* handoff) {
  const int n = static_cast<int>(loss.size());
  from = std::max(0, std::min(from, n));
  w.key("status").value(to_string(status));
  const bool stopped = status == RunStatus::NaN || status == RunStatus::Diverged;
  if (stopped)
    w.key("stop_step").value(stop_step);
  else
    w.key("stop_step").null();
  w.key("steps_done").value(n);
  w.key("from").value(from);
  w.key("loss").array(loss.begin() + from, loss.end());
  w.key("grad_norm").array(grad_norm.begin() + from, grad_norm.end());
  w.key("lr_schedule").array(lr.begin() + from, lr.end());
  if (handoff && handoff->steps > 0)
    w.key("handoff").begin_object().key("backend").value(handoff->backend).key("steps").value(handoff->steps).end_object();
}

std::string train_result_json(const TrainConfig& c, double plateau, RunStatus status, int stop_step,
                              const std::vector<float>& loss, const std::vector<float>& grad_norm,
                              const std::vector<float>& lr, int from, const char* backend, const Handoff* handoff) {
  json::Writer w;
  w.begin_object();
  write_engine(w, backend);
  w.key("config").begin_object();
  config::write_fields(w, c);
  w.end_object();
  write_reference_losses(w, plateau, c);
  write_series(w, from, status, stop_step, loss, grad_norm, lr, handoff);
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
    w.key("placement").value(r.train->model.placement).key("warmup").value(r.train->warmup).key("lr").value(r.train->lr);
    w.key("seed").value(r.train->seed);
    write_series(w, from, r.status, r.stop_step, *r.loss, *r.grad_norm, *r.lr, r.handoff);
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

// Half-batches per step (see the header): 2 for an even batch, else 1.
int train_shards(const ModelConfig& m) { return m.batch % 2 == 0 ? 2 : 1; }

// The model one half-batch runs on: the same model with batch / shards sequences.
ModelConfig shard_model(const ModelConfig& m) {
  ModelConfig s = m;
  s.batch = m.batch / train_shards(m);
  return s;
}

// The CPU's loss and gradient of one batch (the primary template is in train_run.h): an even batch
// as two half-batches whose gradients are averaged in a fixed order (see the header), on two model
// replicas at once when the pool has two threads and no grid is running runs in parallel, one after
// the other otherwise.
template <>
struct GradientStep<CpuBackend<float>> {
  int shards;
  const TrainConfig& cfg;
  std::unique_ptr<Transformer<float>> replica;  // the second half's model when two threads step

  GradientStep(const TrainConfig& c, Transformer<float>&) : shards(train_shards(c.model)), cfg(c) {}

  // Forward and backward of half-batch `s` on `net`, into net's (zeroed) gradient buffer.
  double half_batch(Transformer<float>& net, int s, const std::vector<int>& inputs, const std::vector<int>& targets) {
    const long off = static_cast<long>(s) * (cfg.model.batch / shards) * cfg.model.seq;
    net.zero_grad();
    const double l = net.forward(inputs.data() + off, targets.data() + off);
    net.backward(GradScope::All);
    return l;
  }

  void run(Transformer<float>& model, const std::vector<int>& inputs, const std::vector<int>& targets,
           std::vector<double>& hist, uint32_t loss_slot, uint32_t norm_slot) {
    std::vector<float>& g = model.grads();
    if (shards == 1) {
      hist[loss_slot] = half_batch(model, 0, inputs, targets);
      CpuBackend<float>::grad_norm(hist, norm_slot, g.data(), g.size());
      return;
    }
    const long n = static_cast<long>(g.size());
    double l0 = 0, l1 = 0;
    const float* first = nullptr;   // the first half's gradient
    const float* second = nullptr;  // the second half's
    ThreadPool& p = pool();
    if (p.size() >= 2 && !in_parallel_region()) {
      if (!replica) replica = std::make_unique<Transformer<float>>(model.config(), cfg.seed);
      const float* src = model.params().data();
      float* dst = replica->params().data();
      {
        LNX_PROFILE_SCOPE("replica_copy");
        p.parallel_for(n, [&](long i0, long i1, int) { std::copy(src + i0, src + i1, dst + i0); }, 1 << 14);
      }
      p.parallel_for(2, [&](long s0, long s1, int) {
        for (long s = s0; s < s1; ++s)
          (s == 0 ? l0 : l1) = half_batch(s == 0 ? model : *replica, static_cast<int>(s), inputs, targets);
      }, 1, 2);
      first = g.data();
      second = replica->grads().data();
    } else {
      // One thread: the first half's gradient waits in a per-thread buffer (shared by the runs a
      // grid thread advances) while the second half reuses the model's. Copied, not swapped: a
      // swap saves the copy (~1% of a quick-look step) but leaves the long-lived per-thread buffer
      // wherever the last model's was, which fragments the heap run after run (the robustness
      // corpus's heap check caught it).
      static thread_local std::vector<float> first_half;
      l0 = half_batch(model, 0, inputs, targets);
      {
        LNX_PROFILE_SCOPE("half_batch_copy");
        first_half.assign(g.begin(), g.end());
      }
      l1 = half_batch(model, 1, inputs, targets);
      first = first_half.data();
      second = g.data();
    }
    // g = (first + second)/2 and its norm in one pass; the same operands in the same order on both
    // paths (inline when on one thread or in the grid).
    CpuBackend<float>::mean_and_norm(hist, norm_slot, g.data(), first, second, g.size());
    hist[loss_slot] = (l0 + l1) * 0.5;
  }
};

}  // namespace detail

const char* to_string(RunStatus s) {
  switch (s) {
    case RunStatus::Running: return "running";
    case RunStatus::Ok: return "ok";
    case RunStatus::NaN: return "nan";
    case RunStatus::Diverged: return "diverged";
  }
  return "?";
}

// On the CPU a readback lands at once: every step is read back as it is recorded.
struct TrainRun::Impl : detail::TrainRunner<CpuBackend<float>> {
  explicit Impl(const TrainConfig& c) : TrainRunner(c, 1, (c.validate(), detail::shard_model(c.model))) {}
};

Transformer<float>& detail::TrainRunAccess::model(TrainRun& r) { return r.impl_->model(); }
const std::vector<int>& detail::TrainRunAccess::last_inputs(const TrainRun& r) { return r.impl_->last_inputs(); }
const std::vector<int>& detail::TrainRunAccess::last_targets(const TrainRun& r) { return r.impl_->last_targets(); }

TrainRun::TrainRun(const TrainConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
TrainRun::~TrainRun() = default;
int TrainRun::step(int k) {
  if (k < 1) throw ArgumentError("step(k): k must be >= 1");
  return impl_->step(k);
}
int TrainRun::steps_done() const { return impl_->steps_done(); }
RunStatus TrainRun::status() const { return impl_->status(); }
int TrainRun::stop_step() const { return impl_->stop_step(); }
const std::vector<float>& TrainRun::loss() const { return impl_->loss(); }
const std::vector<float>& TrainRun::grad_norm() const { return impl_->grad_norm(); }
const std::vector<float>& TrainRun::lr() const { return impl_->lr(); }
double TrainRun::plateau_entropy() const { return impl_->plateau_entropy(); }
std::string TrainRun::result_json(int from) const { return impl_->result_json(from, nullptr); }
void TrainRun::set_checkpoint_every(int steps) {
  if (steps < 0) throw ArgumentError("checkpoint_every must be >= 0");
  impl_->set_checkpoint_every(steps);
}
bool TrainRun::take_checkpoint(TrainCheckpoint& out) { return impl_->take_checkpoint(out); }
void TrainRun::continue_from(const std::string& series_json, const TrainCheckpoint* checkpoint,
                             const std::string& backend) {
  impl_->continue_from(detail::parse_series(json::parse(series_json)), checkpoint, backend);
}

// ---- Grid ----
struct GridRun::Impl {
  GridConfig cfg;
  struct Entry {
    TrainConfig train;
    std::unique_ptr<TrainRun> run;
  };
  std::vector<Entry> runs;
  // One workspace per pool thread and placement (a placement decides which activations exist).
  std::map<std::string, std::vector<std::unique_ptr<Workspace<float>>>> workspaces;
  double plateau = 0;

  explicit Impl(const GridConfig& c) : cfg(c) {
    cfg.validate();
    detail::for_each_grid_run(cfg, [&](const TrainConfig& t) { runs.push_back({t, std::make_unique<TrainRun>(t)}); });
    plateau = runs.front().run->plateau_entropy();
  }

  bool done() const {
    for (const Entry& e : runs)
      if (e.run->status() == RunStatus::Running) return false;
    return true;
  }
  std::vector<detail::GridRunView> views() const {
    std::vector<detail::GridRunView> out;
    for (const Entry& e : runs)
      out.push_back({&e.train, e.run->status(), e.run->stop_step(), &e.run->loss(), &e.run->grad_norm(), &e.run->lr(),
                     &e.run->impl_->handoff()});
    return out;
  }
  double progress() const { return detail::grid_progress(cfg, views()); }
  void step(int k) {
    std::vector<TrainRun*> active;
    for (Entry& e : runs)
      if (e.run->status() == RunStatus::Running) active.push_back(e.run.get());
    if (active.empty()) return;
    ThreadPool& p = pool();
    for (TrainRun* r : active) {
      const ModelConfig& m = r->impl_->model().config();
      auto& per_thread = workspaces[m.placement];
      while (static_cast<int>(per_thread.size()) < p.size()) per_thread.push_back(std::make_unique<Workspace<float>>(m));
    }
    p.parallel_for(static_cast<long>(active.size()), [&](long r0, long r1, int chunk) {
      for (long r = r0; r < r1; ++r) {
        Transformer<float>& model = active[r]->impl_->model();
        model.use_workspace(workspaces.at(model.config().placement)[chunk].get());
        active[r]->step(k);
      }
    });
  }
};

GridRun::GridRun(const GridConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
GridRun::~GridRun() = default;
double GridRun::step(int k) {
  if (k < 1) throw ArgumentError("step(k): k must be >= 1");
  impl_->step(k);
  return impl_->progress();
}
void GridRun::continue_run(int run, const std::string& run_json, const TrainCheckpoint* checkpoint,
                           const std::string& backend) {
  detail::check_run_index(run, impl_->runs.size());
  const json::Value v = json::parse(run_json);
  const TrainConfig& t = impl_->runs[run].train;
  // The run of the document must be this one: the same placement, warm-up, lr and seed (the rest is
  // the grid's base config, the same for every run).
  auto key = [&](const char* k) -> const json::Value& {
    auto it = v.obj.find(k);
    if (v.kind != json::Value::Kind::Object || it == v.obj.end())
      throw ArgumentError(std::string("the run's document needs \"") + k + "\"");
    return it->second;
  };
  const json::Value &pl = key("placement"), &wu = key("warmup"), &lr = key("lr"), &seed = key("seed");
  if (pl.str != t.model.placement || wu.num != t.warmup || lr.num != t.lr || seed.num != static_cast<double>(t.seed))
    throw ArgumentError("the document's run is not run " + std::to_string(run) + " of this grid (" + t.model.placement +
                        ", warm-up " + std::to_string(t.warmup) + ", lr " + detail::number_text(t.lr) + ", seed " +
                        std::to_string(t.seed) + ")");
  impl_->runs[run].run->impl_->continue_from(detail::parse_series(v), checkpoint, backend);
}
bool GridRun::done() const { return impl_->done(); }
double GridRun::progress() const { return impl_->progress(); }
std::string GridRun::result_json(int from) const {
  return detail::grid_result_json(impl_->cfg, impl_->plateau, impl_->views(), from, nullptr);
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
    w.key("placement").value(t.model.placement).key("warmup").value(t.warmup).key("lr").value(t.lr).key("seed").value(t.seed);
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
