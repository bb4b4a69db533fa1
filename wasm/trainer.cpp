// trainer.cpp — the toy warm-up experiment of Figure 4 on the CPU (TrainRun and GridRun in api.h; their
// documents and the grid's plan are train_documents.cpp's).
//
// One run: the causal Transformer of TrainConfig trained with the optimizer it names (optim/: Adam,
// β = (0.9, 0.98), ε = 1e-8 by default, or SGD with momentum) on fresh random walks of the Markov
// chain every step, with the warm-up schedule of optim/schedule.h. Each step records the loss, the
// global gradient norm and the learning rate; a non-finite loss or gradient stops the run with
// status "nan" at that step, a loss above 4·ln V with status "diverged" (the engine's softmax and
// cross-entropy are overflow-safe, so a blown-up Post-LN run shows huge finite losses rather than
// NaN); the stopping step is reported as stop_step and its loss is left out of the series, so a
// curve never shows a non-finite or blown-up value. The grid advances its runs in parallel, its
// active runs split over the pool's threads (a thread advances several runs one after the other
// when runs outnumber threads; a run gets a team of threads, which split each of its ops, when
// threads outnumber runs); the runs share one workspace per chunk of that split.
//
// Data-parallel halves on teams. An even batch is computed as two half-batches whose gradients are
// summed in a fixed order, g = (g_first + g_second) / 2 (each half's loss is its own mean, so this
// is the gradient of the whole batch's mean). When the calling thread's team (thread_pool.h) has two
// threads or more, the halves run at once on two model replicas, each on half of the team, and every
// op of a half splits over that half's threads (its rows, its columns, its sequences); with a team of
// one, or in the grid, the halves run one after the other (each op over the run's team). Any op gives the same bits on
// any number of threads, and both paths do the same float operations in the same order, so a run's curve is
// bit-identical for any thread count (tests/cpp/threads_test.cpp, tests/wasm/threads.test.ts). Why halves on teams
// rather than splitting every op over the whole pool, or a batch cut into more pieces: docs/engine.md,
// "Threads".
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
#include "train_access.h"
#include "train_common.h"
#include "train_run.h"

namespace lnx {
namespace detail {

// Half-batches per step (see the header): 2 for an even batch, else 1.
int train_shards(const ModelConfig& m) { return m.batch % 2 == 0 ? 2 : 1; }

// The model one half-batch runs on: the same model with batch / shards sequences.
ModelConfig shard_model(const ModelConfig& m) {
  ModelConfig s = m;
  s.batch = m.batch / train_shards(m);
  return s;
}

// The CPU's loss and gradient of one batch (the primary template is in train_run.h): an even batch
// as two half-batches whose gradients are averaged in a fixed order (see the header). When the
// calling thread's team (thread_pool.h) has two threads or more, the halves run at once on two model
// replicas, each on half of the team, whose threads split each of its ops; with a team of one, or
// in a grid of several runs (which share workspaces, and must not each hold a replica), they run one
// after the other, each op over the whole team.
template <>
struct GradientStep<CpuBackend<float>> {
  int shards;
  const TrainConfig& cfg;
  std::unique_ptr<Transformer<float>> replica;  // the second half's model, made when first needed
  bool halves_at_once = true;                   // false in a grid of several runs

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
    if (halves_at_once && p.team_size() >= 2) {
      if (!replica) replica = std::make_unique<Transformer<float>>(model.config(), cfg.seed);
      Transformer<float>& other = *replica;
      const float* src = model.params().data();
      float* dst = other.params().data();
      {
        LNX_PROFILE_SCOPE("replica_copy");
        p.parallel_for(
            n, [&](long i0, long i1, int) { std::copy(src + i0, src + i1, dst + i0); }, 1 << 14);
      }
      p.parallel_for(
          2,
          [&](long s0, long s1, int) {
            for (long s = s0; s < s1; ++s)
              (s == 0 ? l0 : l1) = half_batch(s == 0 ? model : other, static_cast<int>(s), inputs, targets);
          },
          1, 2);
      first = g.data();
      second = other.grads().data();
    } else {
      // One after the other: the first half's gradient waits in a per-thread buffer (shared by the
      // runs a grid thread advances) while the second half reuses the model's. Copied, not swapped: a
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
    // paths, over the whole team.
    CpuBackend<float>::mean_and_norm(hist, norm_slot, g.data(), first, second, g.size());
    hist[loss_slot] = (l0 + l1) * 0.5;
  }
};

}  // namespace detail

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
std::vector<int> TrainRun::val_steps() const { return impl_->val() ? impl_->val()->step : std::vector<int>{}; }
std::vector<float> TrainRun::val_loss() const { return impl_->val() ? impl_->val()->loss : std::vector<float>{}; }
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
  // One workspace per chunk of the split over runs and placement (a placement decides which
  // activations exist).
  std::map<std::string, std::vector<std::unique_ptr<Workspace<float>>>> workspaces;
  double plateau = 0;

  explicit Impl(const GridConfig& c) : cfg(c) {
    cfg.validate();
    detail::for_each_grid_run(cfg, [&](const TrainConfig& t) { runs.push_back({t, std::make_unique<TrainRun>(t)}); });
    // Runs that share workspaces hold no replicas; a grid of one run holds no other run's state, so
    // its halves run at once on a replica as a TrainRun's do (the same bits, and the memory of a
    // TrainRun: the model's size rule covers it). Before, a grid of one on two threads split each op
    // over both: in the page's threaded engine, 1.5 times the CPU of a TrainRun for its 40 steps, and
    // no faster than one thread.
    if (runs.size() > 1)
      for (Entry& e : runs) e.run->impl_->gradient().halves_at_once = false;
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
                     &e.run->impl_->handoff(), e.run->impl_->val()});
    return out;
  }
  double progress() const { return detail::grid_progress(cfg, views()); }
  void step(int k) {
    std::vector<TrainRun*> active;
    for (Entry& e : runs)
      if (e.run->status() == RunStatus::Running) active.push_back(e.run.get());
    if (active.empty()) return;
    ThreadPool& p = pool();
    const int chunks = std::min(p.team_size(), static_cast<int>(active.size()));
    for (TrainRun* r : active) {
      const ModelConfig& m = r->impl_->model().config();
      auto& per_chunk = workspaces[m.placement];
      while (static_cast<int>(per_chunk.size()) < chunks) per_chunk.push_back(std::make_unique<Workspace<float>>(m));
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

}  // namespace lnx
