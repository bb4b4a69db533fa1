// phase_diagram.cpp — `phase-diagram`: which toy runs train, which stall on the plateau, which
// diverge, over placements × warm-ups × depths × peak lrs × seeds (the article's open question of a
// placement with Post-LN's quality and Pre-LN's stability; its claims 9, Pre-LN's warm-up as
// insurance, and 10, DeepNorm without warm-up, are slots of it on the page).
//
// Each run is the Figure-4 toy run (TrainRun, trainer.cpp) of its placement, depth, peak lr,
// warm-up and seed (a placement may be placement_spec's, by its name: only that placement's runs
// carry the spec, train_common.h set_run_placement), classified by a rule fixed here before any result it judges:
//   diverged  the trainer stopped it: a non-finite loss or gradient norm, or a step's loss above
//             4·ln V (train_common.h diverge_loss; the stopping step's loss is not in the series);
//   trained   otherwise, when it escaped the plateau: some 10-step mean loss at least 0.5 below
//             the plateau, the entropy of the chain's stationary (unigram) distribution
//             (measure.h escape_step, the same escape step as warmup-length's);
//   plateau   otherwise: it never escaped (stuck on the plateau, or above it, to its last step).
// Early exit (`early_exit` "on", the default): a run that escaped stops `settle` steps after its
// escape step (its outcome is then settled as trained unless the trainer stops it first); a
// diverged run stops where the trainer stops it; a run that never escapes runs every step. Each run
// reports why it stopped (`stopped`: "end", "settled", "nan", "diverged"), the step it stopped at
// (`stop_step`: for "nan" and "diverged" the trainer's stopping step, whose loss is not recorded), and
// its final loss, the mean of its last 10 recorded losses (at the stop, not at `steps`, for a
// settled run). With "off" every run runs to `steps` (or the trainer's stop), so a run that
// escapes and diverges later reads "diverged" there and "trained" with early exit: the one way the
// two can differ (tests/cpp/experiment_test.cpp checks they agree on a set of cells).
//
// The plan, the rule and the document are PhasePlan's (phase_diagram.h), which the WebGPU runner
// (gpu/gpu_phase_diagram.cpp) shares: it advances the runs of one shape as one batch instead.
// Here the runs advance in parallel over the pool, `threads` runs at a time (each run's ops inline on its
// thread, as in GridRun), one step each per unit of work, in order of depth; every run draws its
// model and batches from its own seed, so each run's numbers are the same for any thread count.
// Per cell (placement, warm-up, depth, lr): each seed's run with its loss curve decimated to at
// most 100 points (bucket means, to 4 decimals: a curve to draw, the page's hover), the cell's
// outcome (the majority over seeds, or "mixed"), the count of each outcome, and the mean escape
// step (over the seeds that escaped) and final loss (over those that did not diverge).
#include "phase_diagram.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../json.h"
#include "../thread_pool.h"
#include "../train_common.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {
namespace {

constexpr int kEscapeWindow = 10;      // the escape step's window (measure.h escape_step)
constexpr double kEscapeMargin = 0.5;  // nats below the plateau (measure.h escape_step)
constexpr int kFinalWindow = 10;       // the final loss: the mean of the last 10 recorded losses
constexpr size_t kMaxRuns = 512;

struct PhaseDiagram {
  static constexpr const char* kName = "phase-diagram";
  static constexpr const char* kDoc =
      "toy runs over placements x warm-ups x depths x peak lrs x seeds, each classified trained (left the plateau), "
      "plateau (never left it) or diverged (stopped by the trainer), with early exit once the outcome is settled";
  static constexpr const char* kClaim =
      "where warm-up is needed: trainability against depth and peak lr per placement (the article's open question; "
      "claims 9, Pre-LN's warm-up as insurance, and 10, DeepNorm without warm-up, inferred)";

  using Config = PhaseConfig;

  // The runs' axes: placements x warm-ups x depths x lrs x seeds.
  static std::array<size_t, 5> axes_of(const Config& c) {
    return {c.placements.size(), c.warmups.size(), c.depths.size(), c.lrs.size(), c.seeds.size()};
  }

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false, {"layers"});
    add_placement_spec_field(s);
    add_shared_train_fields(s);
    add_spec_placements_field(s, 8, "the placements (placement_spec's name too)");
    add_depths_field(s, 8);
    schema::add_field(s, schema::number_list_spec("lrs", 0, 10, true, 12, "the peak learning rates"),
                      &own_member<Config, &Config::lrs>);
    add_warmups_field(s, 4, "the warm-up lengths");
    add_seeds_field(s, "seeds, one run per cell each", 8);
    schema::add_field(
        s,
        schema::enum_spec("early_exit", {"on", "off"},
                          "stop a run once its outcome is settled (on), or run every run to its last step (off)"),
        &own_member<Config, &Config::early_exit>);
    schema::add_field(
        s,
        schema::int_spec("settle", 1, kMaxSteps, "with early_exit on, the steps a run goes on after its escape step"),
        &own_member<Config, &Config::settle>);
    add_runs_rule<PhaseDiagram>(s, kMaxRuns, "the phase diagram", " (placements x warmups x depths x lrs x seeds)");
    s.rules.push_back({"fits_in_memory",
                       "the model at every depth, its gradients and the optimizer's state fit in 1 GiB",
                       [](const Config& c) { check_depths_fit(c.base.model, c.depths); }, nullptr});
    s.rules.push_back({"warmup_reaches_peak", "a warm-up longer than the run is allowed, with a warning", nullptr,
                       [](const Config& c) { return warmup_warnings(c.warmups, c.base.steps); }});
  }

  explicit PhaseDiagram(const Config& c) : cfg_(c), plan_(c) {
    for (size_t i = 0; i < plan_.run_count(); ++i) total_ += static_cast<double>(plan_.layers(i)) * c.base.steps;
  }

  // A unit: one step of each live run (up to the pool's size, started in execution order), in
  // parallel; then the runs whose outcome is settled stop and free their place.
  void step_once() {
    const size_t width = static_cast<size_t>(std::max(1, pool().size()));
    const std::vector<size_t>& order = plan_.order();
    while (live_.size() < width && next_ < order.size()) {
      const size_t i = order[next_++];
      live_.push_back({i, std::make_unique<TrainRun>(plan_.train_config(i))});
    }
    // record() touches only its own run's record, so the runs advance on separate threads
    pool().parallel_for(static_cast<long>(live_.size()), [&](long a, long b, int) {
      for (long j = a; j < b; ++j) {
        Live& l = live_[j];
        l.run->step(1);
        plan_.record(l.index, l.run->loss(), l.run->status(), l.run->stop_step());
      }
    });
    // progress: each step taken counts its run's depth; a run that stops early counts the steps it
    // skipped as done too
    for (Live& l : live_) {
      const int L = plan_.layers(l.index);
      done_ += L;
      if (plan_.finished(l.index)) done_ += static_cast<double>(L) * (cfg_.base.steps - plan_.stop_step(l.index));
    }
    live_.erase(std::remove_if(live_.begin(), live_.end(), [&](const Live& l) { return plan_.finished(l.index); }),
                live_.end());
  }
  bool done() const { return next_ >= plan_.order().size() && live_.empty(); }
  double progress() const { return done() ? 1.0 : std::min(0.999, done_ / total_); }

  void write(json::Writer& w) const { plan_.write(w); }

 private:
  struct Live {
    size_t index;
    std::unique_ptr<TrainRun> run;
  };
  Config cfg_;
  PhasePlan plan_;
  size_t next_ = 0;
  std::vector<Live> live_;
  double done_ = 0, total_ = 0;
};

}  // namespace

// ---- PhasePlan ----

PhasePlan::PhasePlan(const PhaseConfig& c) : cfg_(c) {
  for (const auto& p : c.placements)
    for (int w : c.warmups)
      for (int L : c.depths)
        for (double lr : c.lrs) cells_.push_back({p, w, L, lr});
  for (size_t i = 0; i < cells_.size(); ++i)
    for (uint64_t s : c.seeds) runs_.push_back({i, s, cells_[i].layers});
  for (size_t i = 0; i < runs_.size(); ++i) order_.push_back(i);
  std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return runs_[a].layers < runs_[b].layers; });
  plateau_ = MarkovChain(c.base.model.vocab, c.base.successors, c.base.chain_seed).stationary_entropy();
}

TrainConfig PhasePlan::train_config(size_t run) const {
  const Run& r = runs_.at(run);
  TrainConfig t = cfg_.base;
  const Cell& c = cells_[r.cell];
  detail::set_run_placement(t.model, c.placement);
  t.model.layers = c.layers;
  t.lr = c.lr;
  t.warmup = c.warmup;
  t.seed = r.seed;
  return t;
}

// Each step k not read yet, as if read right after it (the CPU runner's way): its escape step, then,
// with early exit, settled `settle` steps past it (before the last step, where "end" comes first);
// after the last landed step, the trainer's verdict: stopped (nan, diverged: the stopping step's loss
// is not in the series) or at its last step.
bool PhasePlan::record(size_t run, const std::vector<float>& loss, RunStatus status, int trainer_stop_step) {
  Run& r = runs_.at(run);
  if (!r.stopped.empty()) return true;
  const int n = static_cast<int>(loss.size());
  for (int k = r.seen + 1; k <= n; ++k) {
    if (r.escape == 0)
      r.escape =
          escape_step(std::vector<double>(loss.begin(), loss.begin() + k), plateau_, kEscapeWindow, kEscapeMargin);
    if (cfg_.early_exit == EarlyExit::On && r.escape > 0 && k >= r.escape + cfg_.settle && k < cfg_.base.steps) {
      r.stopped = "settled", r.stop_step = k;
      r.loss.assign(loss.begin(), loss.begin() + k);
      return true;
    }
  }
  r.seen = n;
  if (status == RunStatus::NaN || status == RunStatus::Diverged)
    r.stopped = to_string(status), r.stop_step = trainer_stop_step;
  else if (status == RunStatus::Ok) r.stopped = "end", r.stop_step = n;
  else return false;
  r.loss = loss;
  return true;
}

void PhasePlan::write(json::Writer& w) const {
  const double V = cfg_.base.model.vocab;
  w.key("plateau_entropy").value(plateau_);
  w.key("uniform_loss").value(std::log(V));
  w.key("divergence_loss").value(4 * std::log(V));
  w.key("escape").begin_object().key("window").value(kEscapeWindow).key("margin").value(kEscapeMargin).end_object();
  w.key("cells").begin_array();
  for (size_t i = 0; i < cells_.size(); ++i) write_cell(w, i);
  w.end_array();
}

const char* PhasePlan::outcome(const Run& r) {
  if (r.stopped == "nan" || r.stopped == "diverged") return "diverged";
  return r.escape > 0 ? "trained" : "plateau";
}
double PhasePlan::final_loss(const Run& r) {
  const size_t n = r.loss.size(), k = std::min<size_t>(n, kFinalWindow);
  if (k == 0) return NAN;
  double s = 0;
  for (size_t t = n - k; t < n; ++t) s += r.loss[t];
  return s / k;
}

void PhasePlan::write_cell(json::Writer& w, size_t i) const {
  const Cell& c = cells_[i];
  std::vector<const Run*> rs;
  for (const Run& r : runs_)
    if (r.cell == i) rs.push_back(&r);
  const char* kinds[] = {"trained", "plateau", "diverged"};
  int counts[3] = {0, 0, 0};
  std::vector<double> escapes, finals;
  for (const Run* r : rs) {
    const std::string o = outcome(*r);
    for (int k = 0; k < 3; ++k) counts[k] += o == kinds[k];
    if (r->escape > 0) escapes.push_back(r->escape);
    if (o != "diverged" && std::isfinite(final_loss(*r))) finals.push_back(final_loss(*r));
  }
  std::string majority = "mixed";
  for (int k = 0; k < 3; ++k)
    if (2 * counts[k] > static_cast<int>(rs.size())) majority = kinds[k];
  auto mean_or_null = [&](const char* key, const std::vector<double>& xs) {
    w.key(key);
    if (xs.empty()) w.null();
    else w.value(mean_std(xs).mean);
  };
  w.begin_object().key("placement").value(c.placement).key("warmup").value(c.warmup).key("layers").value(c.layers);
  w.key("lr").value(c.lr).key("outcome").value(majority);
  w.key("counts").begin_object();
  for (int k = 0; k < 3; ++k) w.key(kinds[k]).value(counts[k]);
  w.end_object();
  mean_or_null("escape_step", escapes);
  mean_or_null("final_loss", finals);
  w.key("runs").begin_array();
  for (const Run* r : rs) write_run(w, *r);
  w.end_array();
  w.end_object();
}

void PhasePlan::write_run(json::Writer& w, const Run& r) {
  w.begin_object().key("seed").value(r.seed).key("outcome").value(outcome(r)).key("stopped").value(r.stopped);
  w.key("escape_step");
  if (r.escape > 0) w.value(r.escape);
  else w.null();
  w.key("stop_step").value(r.stop_step);
  w.key("final_loss").value(final_loss(r));
  // The curve: means of `every` consecutive recorded losses, to 1e-4 (measure.h write_curve).
  const size_t every = curve_every(r.loss.size());
  w.key("every").value(static_cast<int>(every));
  w.key("curve");
  write_curve(w, r.loss, every);
  w.end_object();
}

PhaseConfig phase_config_from_json(const std::string& json) { return schema::parse(schema_of<PhaseDiagram>(), json); }

std::string phase_result_json(const PhaseConfig& c, const PhasePlan& plan, const char* backend) {
  return document<PhaseDiagram>(
      c, [&](json::Writer& w) { plan.write(w); }, backend);
}

ExperimentInfo phase_diagram_info() { return info_of<PhaseDiagram>(); }

}  // namespace lnx::exp
