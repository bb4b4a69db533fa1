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
#include "json.h"
#include "markov.h"
#include "model.h"
#include "optim/registry.h"
#include "rng.h"
#include "thread_pool.h"
#include "train_common.h"

namespace lnx {
namespace detail {

void write_engine(json::Writer& w, const char* backend) {
  w.key("engine").begin_object().key("version").value(engine_version()).key("build").value(build_flavour());
  w.key("threads").value(threads());
  if (backend) w.key("backend").value(backend);
  w.end_object();
}

void write_grid_config(json::Writer& w, const GridConfig& g) {
  w.begin_object();
  config::write_fields(w, g);
  w.end_object();
}

// Calls f(norm, warmup, lr, seed, train config) for every run of the grid, in the grid's order.
template <class F>
void for_each_grid_run(const GridConfig& g, F&& f) {
  for (const std::string& norm : g.placements)
    for (int warmup : g.warmups)
      for (double lr : g.lrs)
        for (uint64_t seed : g.seeds) {
          TrainConfig t = g.base;
          t.model.placement = norm;
          t.warmup = warmup;
          t.lr = lr;
          t.seed = seed;
          f(norm, warmup, lr, seed, t);
        }
}

void write_reference_losses(json::Writer& w, double plateau, const TrainConfig& c) {
  w.key("plateau_entropy").value(plateau);
  w.key("optimal_loss").value(std::log(static_cast<double>(c.successors)));
  w.key("uniform_loss").value(std::log(static_cast<double>(c.model.vocab)));
}

void write_series(json::Writer& w, int from, const char* lr_key, RunStatus status, int stop_step,
                  const std::vector<float>& loss, const std::vector<float>& grad_norm, const std::vector<float>& lr) {
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
  w.key(lr_key).array(lr.begin() + from, lr.end());
}

std::string train_result_json(const TrainConfig& c, double plateau, RunStatus status, int stop_step,
                              const std::vector<float>& loss, const std::vector<float>& grad_norm,
                              const std::vector<float>& lr, int from, const char* backend) {
  json::Writer w;
  w.begin_object();
  write_engine(w, backend);
  w.key("config").begin_object();
  config::write_fields(w, c);
  w.end_object();
  write_reference_losses(w, plateau, c);
  write_series(w, from, "lr", status, stop_step, loss, grad_norm, lr);
  w.end_object();
  return w.str();
}

// Half-batches per step (see the header): 2 for an even batch, else 1.
int train_shards(const ModelConfig& m) { return m.batch % 2 == 0 ? 2 : 1; }

// The model one half-batch runs on: the same model with batch / shards sequences.
ModelConfig shard_model(const ModelConfig& m) {
  ModelConfig s = m;
  s.batch = m.batch / train_shards(m);
  return s;
}

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

struct TrainRun::Impl {
  TrainConfig cfg;
  int shards;
  MarkovChain chain;
  Transformer<float> model;                      // one half-batch (detail::shard_model)
  std::unique_ptr<Transformer<float>> replica;   // the second half's model when two threads step
  bool replica_current = false;                  // replica's parameters equal model's
  Rng batch_rng;
  std::vector<std::vector<float>> opt_state;  // the optimizer's state arrays (optim/optimizer.h)
  std::vector<int> inputs, targets;
  std::vector<float> loss, grad_norm, lr;
  RunStatus status = RunStatus::Running;
  int stop_step = 0;
  double plateau = 0;
  double diverge_loss = 0;

  explicit Impl(const TrainConfig& c)
      : cfg((c.validate(), c)),
        shards(detail::train_shards(c.model)),
        chain(c.model.vocab, c.successors, c.chain_seed),
        model(detail::shard_model(c.model), c.seed),
        batch_rng(stream_seed(c.seed, kStreamBatches)) {
    with_optimizer(cfg.optimizer, [&](auto o) {
      opt_state.assign(decltype(o)::kStates, std::vector<float>(model.params().size(), 0.f));
    });
    plateau = chain.stationary_entropy();
    diverge_loss = detail::diverge_loss(cfg);
    loss.reserve(cfg.steps), grad_norm.reserve(cfg.steps), lr.reserve(cfg.steps);
  }

  double lr_at(int t) const { return scheduled_lr(cfg, t); }  // t counts from 1

  // Forward and backward of half-batch `s` on `net`, into net's (zeroed) gradient buffer.
  double half_batch(Transformer<float>& net, int s) {
    const long off = static_cast<long>(s) * (cfg.model.batch / shards) * cfg.model.seq;
    net.zero_grad();
    const double l = net.forward(inputs.data() + off, targets.data() + off);
    net.backward(GradScope::All);
    return l;
  }

  // Leaves the whole batch's mean loss in the return value and its gradient in model.grads().
  double loss_and_gradient() {
    if (shards == 1) return half_batch(model, 0);
    std::vector<float>& g = model.grads();
    const long n = static_cast<long>(g.size());
    double l0 = 0, l1 = 0;
    const float* first = nullptr;   // the first half's gradient
    const float* second = nullptr;  // the second half's
    ThreadPool& p = pool();
    if (p.size() >= 2 && !in_parallel_region()) {
      if (!replica) replica = std::make_unique<Transformer<float>>(detail::shard_model(cfg.model), cfg.seed);
      if (!replica_current) {
        const float* src = model.params().data();
        float* dst = replica->params().data();
        p.parallel_for(n, [&](long i0, long i1, int) { std::copy(src + i0, src + i1, dst + i0); }, 1 << 14);
        replica_current = true;
      }
      p.parallel_for(2, [&](long s0, long s1, int) {
        for (long s = s0; s < s1; ++s) (s == 0 ? l0 : l1) = half_batch(s == 0 ? model : *replica, static_cast<int>(s));
      }, 1, 2);
      first = g.data();
      second = replica->grads().data();
    } else {
      // One thread: the first half's gradient waits in a per-thread buffer (shared by the runs a
      // grid thread advances) while the second half reuses the model's.
      static thread_local std::vector<float> first_half;
      l0 = half_batch(model, 0);
      first_half.assign(g.begin(), g.end());
      l1 = half_batch(model, 1);
      first = first_half.data();
      second = g.data();
    }
    // Same operands in the same order on both paths (inline when on one thread or in the grid).
    float* out = g.data();
    p.parallel_for(n, [&](long i0, long i1, int) {
      for (long i = i0; i < i1; ++i) out[i] = (first[i] + second[i]) * 0.5f;
    }, 1 << 14);
    return (l0 + l1) * 0.5;
  }

  // ‖g‖₂ summed in double over fixed blocks (partial sums in parallel, then added in block order),
  // so the value does not depend on the thread count.
  static double grad_norm_of(const std::vector<float>& g) {
    constexpr long kBlock = 1 << 14;
    const long n = static_cast<long>(g.size()), blocks = (n + kBlock - 1) / kBlock;
    std::vector<double> partial(blocks, 0.0);
    pool().parallel_for(blocks, [&](long b0, long b1, int) {
      for (long b = b0; b < b1; ++b) {
        double ss = 0;
        for (long i = b * kBlock, e = std::min(n, i + kBlock); i < e; ++i) ss += static_cast<double>(g[i]) * g[i];
        partial[b] = ss;
      }
    });
    double ss = 0;
    for (double x : partial) ss += x;
    return std::sqrt(ss);
  }

  void one_step() {
    const int t = static_cast<int>(loss.size()) + 1;
    chain.sample(batch_rng, cfg.model.batch, cfg.model.seq, inputs, targets);
    const double l = loss_and_gradient();
    const double gn = grad_norm_of(model.grads());
    if (!std::isfinite(l) || !std::isfinite(gn) || l > diverge_loss) {
      status = std::isfinite(l) && std::isfinite(gn) ? RunStatus::Diverged : RunStatus::NaN;
      stop_step = t;
      return;
    }
    const double rate = lr_at(t);
    with_optimizer(cfg.optimizer, [&](auto o) {
      using O = decltype(o);
      float k[O::kCoefficients];
      O::coefficients(cfg.hyper, rate, t, k);
      float* states[O::kStates];
      for (int j = 0; j < O::kStates; ++j) states[j] = opt_state[j].data();
      CpuBackend<float>::optimizer_update<O>(model.params().data(), model.grads().data(), states,
                                              model.params().size(), k);
    });
    replica_current = false;
    loss.push_back(static_cast<float>(l));
    grad_norm.push_back(static_cast<float>(gn));
    lr.push_back(static_cast<float>(rate));
    if (static_cast<int>(loss.size()) == cfg.steps) status = RunStatus::Ok;
  }

  int step(int k) {
    for (int i = 0; i < k && status == RunStatus::Running; ++i) one_step();
    return static_cast<int>(loss.size());
  }

  // The per-run fields shared by `lnx train` and each run of `lnx grid`.
  void write_series(json::Writer& w, int from, const char* lr_key) const {
    detail::write_series(w, from, lr_key, status, stop_step, loss, grad_norm, lr);
  }
};

TrainRun::TrainRun(const TrainConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
TrainRun::~TrainRun() = default;
int TrainRun::step(int k) {
  if (k < 1) throw ArgumentError("step(k): k must be >= 1");
  return impl_->step(k);
}
int TrainRun::steps_done() const { return static_cast<int>(impl_->loss.size()); }
RunStatus TrainRun::status() const { return impl_->status; }
int TrainRun::stop_step() const { return impl_->stop_step; }
const std::vector<float>& TrainRun::loss() const { return impl_->loss; }
const std::vector<float>& TrainRun::grad_norm() const { return impl_->grad_norm; }
const std::vector<float>& TrainRun::lr() const { return impl_->lr; }
double TrainRun::plateau_entropy() const { return impl_->plateau; }
std::string TrainRun::result_json(int from) const {
  const Impl& r = *impl_;
  return detail::train_result_json(r.cfg, r.plateau, r.status, r.stop_step, r.loss, r.grad_norm, r.lr, from, nullptr);
}

// ---- Grid ----
struct GridRun::Impl {
  GridConfig cfg;
  struct Entry {
    std::string norm;
    int warmup;
    double lr;
    uint64_t seed;
    std::unique_ptr<TrainRun> run;
  };
  std::vector<Entry> runs;
  // One workspace per pool thread and placement (a placement decides which activations exist).
  std::map<std::string, std::vector<std::unique_ptr<Workspace<float>>>> workspaces;
  double plateau = 0;

  explicit Impl(const GridConfig& c) : cfg(c) {
    cfg.validate();
    detail::for_each_grid_run(cfg, [&](const std::string& norm, int warmup, double lr, uint64_t seed, const TrainConfig& t) {
      runs.push_back({norm, warmup, lr, seed, std::make_unique<TrainRun>(t)});
    });
    plateau = runs.front().run->plateau_entropy();
  }

  bool done() const {
    for (const Entry& e : runs)
      if (e.run->status() == RunStatus::Running) return false;
    return true;
  }
  double progress() const {
    double total = 0, got = 0;
    for (const Entry& e : runs) {
      total += cfg.base.steps;
      got += e.run->status() == RunStatus::Running ? e.run->steps_done() : cfg.base.steps;
    }
    return got / total;
  }
  void step(int k) {
    std::vector<TrainRun*> active;
    for (Entry& e : runs)
      if (e.run->status() == RunStatus::Running) active.push_back(e.run.get());
    if (active.empty()) return;
    ThreadPool& p = pool();
    for (TrainRun* r : active) {
      const ModelConfig& m = r->impl_->model.config();
      auto& per_thread = workspaces[m.placement];
      while (static_cast<int>(per_thread.size()) < p.size()) per_thread.push_back(std::make_unique<Workspace<float>>(m));
    }
    p.parallel_for(static_cast<long>(active.size()), [&](long r0, long r1, int chunk) {
      for (long r = r0; r < r1; ++r) {
        Transformer<float>& model = active[r]->impl_->model;
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
bool GridRun::done() const { return impl_->done(); }
double GridRun::progress() const { return impl_->progress(); }
std::string GridRun::result_json(int from) const {
  const GridConfig& g = impl_->cfg;
  json::Writer w;
  w.begin_object();
  detail::write_engine(w, nullptr);
  w.key("config");
  detail::write_grid_config(w, g);
  detail::write_reference_losses(w, impl_->plateau, g.base);
  w.key("progress").value(impl_->progress());
  w.key("runs").begin_array();
  for (const auto& e : impl_->runs) {
    w.begin_object();
    w.key("norm").value(e.norm).key("warmup").value(e.warmup).key("lr").value(e.lr).key("seed").value(e.seed);
    e.run->impl_->write_series(w, from, "lr_schedule");
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.str();
}

std::string grid_plan_json(const std::string& config_json) {
  const GridConfig g = grid_config_from_json(config_json);
  json::Writer w;
  w.begin_object();
  w.key("config");
  detail::write_grid_config(w, g);
  w.key("runs").begin_array();
  detail::for_each_grid_run(g, [&](const std::string& norm, int warmup, double lr, uint64_t seed, const TrainConfig& t) {
    w.begin_object();
    w.key("norm").value(norm).key("warmup").value(warmup).key("lr").value(lr).key("seed").value(seed);
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
