// sharpness.cpp — `sharpness`: does warm-up keep Adam under its stability threshold, and does
// GI-Adam remove the need for warm-up? (Cohen et al. 2022, "Adaptive Gradient Methods at the Edge of
// Stability"; Kalra & Barkeshli 2024, "Why Warmup the Learning Rate?"; the article's reading of why
// warm-up helps: Adam's early steps.)
//
// Toy runs over placements × optimizers × warm-ups × seeds (the float training run of train_run.h,
// unchanged). At step 1 and every `every` steps the experiment measures the preconditioned sharpness
// of the step: λ_t = λ_max(P_t⁻¹·H(θ_{t−1})), the Hessian H of the loss at the parameters step t
// started from, P_t the diagonal preconditioner step t divided by (optim/adam.h: the optimizer states
// it, from its state after step t: P = (1−β1ᵗ)·(√v̂ + ε)), against the optimizer's stability threshold
// at that step's lr η_t ((2 + 2β1)/((1 − β1)·η_t) for Adam and GI-Adam). At t = 1 this is Kalra &
// Barkeshli's initial preconditioned sharpness (Adam: v̂₁ = g₁²; GI-Adam: v̂₁ = g₁²/(1−β2)).
//
// λ is the top (algebraic) eigenvalue of the symmetric A = P^{-1/2}·H·P^{-1/2}, which has the
// eigenvalues of P⁻¹H, by the Lanczos iteration (Lanczos below: stopped when the top Ritz value's
// residual bound is at most `lanczos_tol` times it, after at most `lanczos_steps` products). Each
// product needs H·v, from central differences of the gradient, (∇L(θ + h·v̂) − ∇L(θ − h·v̂))·‖v‖/(2h),
// v̂ = v/‖v‖, h = `fd_step`, computed in double on a Transformer<double> holding the run's float
// parameters, on the batch step t trained on, so that H and P belong to the same loss (a fixed batch
// of its own paired P with another batch's H: docs/experiments.md). Each estimate starts from a
// normal random vector (the seed's kStreamPerturbation stream, drawn on in turn). The parameters and
// the state are read through the run's checkpoint (TrainRun::set_checkpoint_every, api.h): the
// experiment only observes the run.
// An estimate that does not meet its tolerance within `lanczos_steps` products is done again with the
// step h/10, then h/100 (kRetries), from a fresh start vector: a ReLU kink crossed within ±h makes the
// differenced operator jump, and no Ritz value's residual then falls, while a smaller step crosses
// fewer kinks (docs/experiments.md: one such estimate read 705 times the threshold at h = 1e-7 and
// 0.0353 at 1e-8 and 1e-9). The document gives each estimate's step (`fd_step`), its products over all
// attempts (`iterations`) and whether the last attempt met the tolerance (`converged`).
//
// One unit of work is one training step or one Lanczos product. The optimizers offered are
// those of the registry that state a preconditioner and a threshold (optimizer.h).
// Leaves out: the Hessian of the full (expected) loss (one batch stands for it), the plain sharpness
// λ_max(H) beside the preconditioned one, and ReLU's kinks (a kink crossed within ±h adds its jump to
// the difference; fd_step is chosen where the estimate does not move with h: docs/experiments.md).
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <Eigen/Eigenvalues>

#include "../api.h"
#include "../config_fields.h"
#include "../configs.h"
#include "../json.h"
#include "../markov.h"
#include "../optim/registry.h"
#include "../optim/schedule.h"
#include "../rng.h"
#include "../train_access.h"
#include "experiment.h"
#include "measure.h"

namespace lnx::exp {

// ---- the estimator (external linkage: tests/cpp/experiment_test.cpp declares and checks it) ----

// hv = H·v for the loss whose top preconditioned eigenvalue is sought.
using Hvp = std::function<void(const std::vector<double>& v, std::vector<double>& hv)>;

// The top eigenvalue of A = S·H·S, S = diag(s) (s = P^{-1/2}; all ones for the plain λ_max(H)), by
// the Lanczos iteration, one product A·q per step() (so an experiment can interleave it with other
// work). After k products the top eigenvalue θ of the k×k tridiagonal T_k (α on the diagonal, β
// beside it) is the estimate, and β_k·|y_k| (y the eigenvector of θ in T_k, y_k its last entry) is
// the norm of the residual A·x − θ·x of its Ritz vector x, so some eigenvalue of A lies within it;
// the iteration stops when that is at most `tol`·|θ|, or after `max_products`. Three vectors of the
// parameters' size, no reorthogonalisation: lost orthogonality makes copies of a converged
// eigenvalue, never a larger one. (Power iteration, which the issue names, finds the eigenvalue of
// largest magnitude; early in Adam runs that is a negative one, and the shifted power iteration that
// would then find the top one stalled: docs/experiments.md.)
class Lanczos {
 public:
  Lanczos(Hvp hvp, std::vector<double> s, std::vector<double> q0, int max_products, double tol)
      : hvp_(std::move(hvp)), s_(std::move(s)), q_(std::move(q0)), max_(max_products), tol_(tol) {
    const double n = norm(q_);
    for (double& a : q_) a /= n;
  }
  bool done() const { return done_; }
  void step() {
    const size_t n = q_.size();
    for (size_t i = 0; i < n; ++i) v_[i] = s_[i] * q_[i];
    hvp_(v_, w_);
    double a = 0;
    for (size_t i = 0; i < n; ++i) w_[i] *= s_[i], a += q_[i] * w_[i];
    for (size_t i = 0; i < n; ++i) w_[i] -= a * q_[i] + beta_prev_ * q_prev_[i];
    const double b = norm(w_);
    alpha_.push_back(a);
    const int k = static_cast<int>(alpha_.size());
    Eigen::VectorXd diag = Eigen::Map<const Eigen::VectorXd>(alpha_.data(), k);
    Eigen::VectorXd sub = Eigen::Map<const Eigen::VectorXd>(beta_.data(), k - 1);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es;
    es.computeFromTridiagonal(diag, sub, Eigen::ComputeEigenvectors);
    lambda_ = es.eigenvalues()(k - 1);  // ascending
    residual_ = b * std::fabs(es.eigenvectors()(k - 1, k - 1));
    if (!std::isfinite(lambda_)) return finish(false);
    if (residual_ <= tol_ * std::fabs(lambda_) || !(b > 1e-300))
      return finish(true);  // b = 0: an invariant subspace, exact
    if (k >= max_) return finish(false);
    beta_.push_back(b);
    q_prev_.swap(q_);
    for (size_t i = 0; i < n; ++i) q_[i] = w_[i] / b;
    beta_prev_ = b;
  }
  double lambda() const { return lambda_; }
  double residual() const { return residual_; }
  int iterations() const { return static_cast<int>(alpha_.size()); }
  bool converged() const { return converged_; }

 private:
  void finish(bool converged) { done_ = true, converged_ = converged; }
  static double norm(const std::vector<double>& x) {
    double ss = 0;
    for (double a : x) ss += a * a;
    return std::sqrt(ss);
  }

  Hvp hvp_;
  std::vector<double> s_, q_;
  std::vector<double> q_prev_ = std::vector<double>(q_.size()), v_ = q_prev_, w_ = q_prev_;
  std::vector<double> alpha_, beta_;
  int max_;
  double tol_, beta_prev_ = 0, lambda_ = NAN, residual_ = NAN;
  bool done_ = false, converged_ = false;
};

// The top eigenvalue of S·H·S from the start vector q0, run to the end (the tests' entry; the
// experiment steps a Lanczos). `products`, when given, receives the number of products A·q.
double top_eigenvalue(const Hvp& hvp, const std::vector<double>& s, const std::vector<double>& q0, int max_products,
                      double tol, int* products) {
  Lanczos l(hvp, s, q0, max_products, tol);
  while (!l.done()) l.step();
  if (products) *products = l.iterations();
  return l.lambda();
}

// H·v by central differences of the gradient of one batch (set_batch), in double, at parameters θ
// (theta()), with step h (set_step).
class FiniteDifferenceHvp {
 public:
  FiniteDifferenceHvp(const ModelConfig& mc, uint64_t seed, double h) : model_(mc, seed), h_(h) {}
  std::vector<double>& theta() { return theta_; }
  void set_step(double h) { h_ = h; }
  double step() const { return h_; }
  void set_batch(const std::vector<int>& in, const std::vector<int>& tg) { in_ = in, tg_ = tg; }
  void operator()(const std::vector<double>& v, std::vector<double>& hv) {
    double nv = 0;
    for (double a : v) nv += a * a;
    nv = std::sqrt(nv);
    hv.assign(v.size(), 0.0);
    if (!(nv > 0)) return;
    const double c = h_ / nv;
    gradient_at(+c, v, gp_);
    gradient_at(-c, v, gm_);
    const double scale = nv / (2 * h_);
    for (size_t i = 0; i < v.size(); ++i) hv[i] = (gp_[i] - gm_[i]) * scale;
  }
  size_t size() { return model_.params().size(); }

 private:
  void gradient_at(double c, const std::vector<double>& v, std::vector<double>& g) {
    std::vector<double>& p = model_.params();
    for (size_t i = 0; i < p.size(); ++i) p[i] = theta_[i] + c * v[i];
    model_.forward(in_.data(), tg_.data());
    model_.zero_grad();
    model_.backward(GradScope::All);
    g = model_.grads();
  }
  Transformer<double> model_;
  std::vector<int> in_, tg_;
  double h_;
  std::vector<double> theta_, gp_, gm_;
};

namespace {

template <class O, class = void>
struct StatesStability : std::false_type {};
template <class O>
struct StatesStability<O, std::void_t<decltype(&O::stability_threshold)>> : std::true_type {};

// The registry's optimizers that state a preconditioner and a stability threshold (optimizer.h).
std::vector<std::string> preconditioned_optimizer_names() {
  std::vector<std::string> out;
  for_each_optimizer([&](auto o) {
    if constexpr (StatesStability<decltype(o)>::value) out.push_back(decltype(o)::kName);
  });
  return out;
}

struct Sharpness {
  static constexpr const char* kName = "sharpness";
  static constexpr const char* kDoc =
      "toy runs over placements x optimizers x warm-ups x seeds: at step 1 and every `every` steps the "
      "preconditioned sharpness lambda_max(P^-1 H) by the Lanczos iteration on finite-difference Hessian-vector "
      "products, against the optimizer's stability threshold at that step's lr; the loss per step";
  static constexpr const char* kClaim =
      "warm-up keeps Adam's early steps under the stability threshold (2 + 2 beta1)/((1 - beta1) lr); GI-Adam "
      "(v0 = g^2) removes the need for it (Cohen et al. 2022; Kalra & Barkeshli 2024)";

  struct Config {
    TrainConfig base = quick_look_base(50);
    std::vector<std::string> placements = {"post", "pre"};
    std::vector<std::string> optimizers = {"adam", "gi-adam"};
    std::vector<int> warmups = {0, 25};
    std::vector<uint64_t> seeds = {0, 1};
    int every = 5;
    int lanczos_steps = 30;
    double lanczos_tol = 1e-2;
    double fd_step = 1e-7;
  };

  // The runs' axes: placement-major, then optimizer, warm-up, seed.
  static std::array<size_t, 4> axes_of(const Config& c) {
    return {c.placements.size(), c.optimizers.size(), c.warmups.size(), c.seeds.size()};
  }

  static void fields(schema::Schema<Config>& s) {
    using namespace config;
    add_model_fields(s, false);
    add_steps_field(s);
    add_warmup_shape_field(s);
    add_chain_fields(s);
    add_run_fields(s, {"warmup", "seed"});  // lr: the peak
    add_placements_field(s, "the placements");
    schema::add_field(s,
                      schema::choice_list_spec("optimizers", preconditioned_optimizer_names, 8,
                                               "the optimizers (those that state a preconditioner), each at its "
                                               "default settings"),
                      &own_member<Config, &Config::optimizers>);
    add_warmups_field(s, 8);
    add_seeds_field(s, "seeds, one run each", 8);
    schema::add_field(s, schema::int_spec("every", 1, 1000, "measure at step 1 and every this many steps"),
                      &own_member<Config, &Config::every>);
    schema::add_field(
        s, schema::int_spec("lanczos_steps", 1, 200, "Lanczos: at most this many Hessian-vector products per estimate"),
        &own_member<Config, &Config::lanczos_steps>);
    schema::add_field(
        s,
        schema::number_spec("lanczos_tol", 0, 1, true,
                            "Lanczos: stop when the top eigenvalue's residual bound is at most this times it"),
        &own_member<Config, &Config::lanczos_tol>);
    schema::add_field(
        s,
        schema::number_spec("fd_step", 0, 1, true,
                            "finite-difference step h: H v = (grad(theta + h v/|v|) - grad(theta - h v/|v|)) |v| / 2h"),
        &own_member<Config, &Config::fd_step>);
    add_runs_rule<Sharpness>(s, 64, "the experiment");
    s.rules.push_back({"model_fits_in_memory",
                       "the run, its double-precision twin and the Lanczos vectors fit in 1 GiB",
                       [](const Config& c) { check_size(c.base.model, 24, "model", kModelKnobs); }, nullptr});
    s.rules.push_back({"warmup_longer_than_run", "a warm-up longer than the run never reaches the peak lr", nullptr,
                       [](const Config& c) { return warmup_warnings(c.warmups, c.base.steps); }});
  }

  struct Run {
    std::string placement, optimizer, status = "running";
    int warmup = 0, stop_step = 0;
    uint64_t seed = 0;
    std::vector<int> steps, iterations, converged;
    std::vector<double> sharpness, threshold, lr, fd_step;
    std::vector<float> loss;
  };

  explicit Sharpness(const Config& c) : cfg_(c), chain_(c.base.model.vocab, c.base.successors, c.base.chain_seed) {
    total_ = 0;
    const double measured = 1 + c.base.steps / c.every;
    total_ = run_count_of(axes_of(c)) * (c.base.steps + measured * c.lanczos_steps);
  }

  void step_once() {
    if (!run_) return start();
    if (lanczos_) {
      lanczos_->step();
      ++done_units_;
      if (lanczos_->done()) lanczos_->converged() || attempt_ == kRetries ? record() : retry();
      return;
    }
    train_step();
  }
  bool done() const { return next_ >= run_count_of(axes_of(cfg_)) && !run_; }
  double progress() const { return done() ? 1.0 : std::min(0.999, done_units_ / total_); }

  void write(json::Writer& w) const {
    w.key("plateau_entropy").value(chain_.stationary_entropy());
    w.key("runs").begin_array();
    for (const Run& r : out_) {
      w.begin_object().key("placement").value(r.placement).key("optimizer").value(r.optimizer);
      w.key("warmup").value(r.warmup).key("seed").value(static_cast<double>(r.seed));
      w.key("status").value(r.status).key("stop_step").value(r.stop_step);
      w.key("steps").array(r.steps.begin(), r.steps.end());
      w.key("sharpness").array(r.sharpness.begin(), r.sharpness.end());
      w.key("threshold").array(r.threshold.begin(), r.threshold.end());
      w.key("lr").array(r.lr.begin(), r.lr.end());
      w.key("iterations").array(r.iterations.begin(), r.iterations.end());
      w.key("converged").array(r.converged.begin(), r.converged.end());
      w.key("fd_step").array(r.fd_step.begin(), r.fd_step.end());
      w.key("loss").array(r.loss.begin(), r.loss.end());
      w.end_object();
    }
    w.end_array();
  }

 private:
  // Run `next_`, in the order of axes_of.
  void start() {
    const auto [p, o, wu, s] = run_indices(next_++, axes_of(cfg_));
    Run r;
    r.placement = cfg_.placements[p], r.optimizer = cfg_.optimizers[o];
    r.warmup = cfg_.warmups[wu], r.seed = cfg_.seeds[s];
    TrainConfig t = cfg_.base;
    t.model.placement = r.placement, t.optimizer = r.optimizer, t.warmup = r.warmup, t.seed = r.seed;
    run_ = std::make_unique<TrainRun>(t);
    hvp_ = std::make_shared<FiniteDifferenceHvp>(t.model, r.seed, cfg_.fd_step);
    start_rng_ = Rng(stream_seed(r.seed, kStreamPerturbation));
    train_ = t;
    out_.push_back(std::move(r));
  }

  bool measured(int t) const { return t == 1 || t % cfg_.every == 0; }

  // One step of the run; a measured step keeps θ_{t−1} and reads the state after it, then the Lanczos
  // iteration on that step's preconditioned Hessian starts.
  void train_step() {
    Run& r = out_.back();
    const int t = run_->steps_done() + 1;
    const bool m = measured(t);
    if (m) {
      const std::vector<float>& p = detail::TrainRunAccess::model(*run_).params();
      hvp_->theta().assign(p.begin(), p.end());
      run_->set_checkpoint_every(1);
    }
    run_->step(1);
    ++done_units_;
    if (run_->steps_done() < t || run_->status() == RunStatus::NaN || run_->status() == RunStatus::Diverged)
      return stop();
    if (m) {
      TrainCheckpoint ck;
      if (!run_->take_checkpoint(ck))
        throw std::logic_error("sharpness: the run's checkpoint of step " + std::to_string(t) + " did not land");
      hvp_->set_batch(detail::TrainRunAccess::last_inputs(*run_), detail::TrainRunAccess::last_targets(*run_));
      run_->set_checkpoint_every(0);
      std::vector<double> s;
      double threshold = 0;
      with_optimizer(r.optimizer, [&](auto o) {
        using O = decltype(o);
        if constexpr (StatesStability<O>::value) {
          s = inverse_sqrt_preconditioner<O>(ck, t);
          threshold = O::stability_threshold(train_.hyper, scheduled_lr(train_, t));
        }
      });
      threshold_ = threshold;
      s_ = std::move(s);
      attempt_ = 0, products_ = 0;
      hvp_->set_step(cfg_.fd_step);
      start_lanczos();
      pending_step_ = t;
      return;
    }
    if (run_->status() == RunStatus::Ok) finish();
  }

  // P^{-1/2} of step t from a checkpoint (packed: the parameters, then each state array, each as the
  // model's tensors in named-tensor order; api.h TrainCheckpoint), in the model's raw layout.
  template <class O>
  std::vector<double> inverse_sqrt_preconditioner(const TrainCheckpoint& ck, int t) const {
    Transformer<float>& model = detail::TrainRunAccess::model(*run_);
    const size_t n = model.params().size();
    std::vector<std::vector<float>> state(O::kStates, std::vector<float>(n, 0.0f));
    size_t packed = 0;
    const auto tensors = model.named_tensors();
    for (const auto& [name, tr] : tensors) packed += tr.size();  // the parameters come first
    for (int j = 0; j < O::kStates; ++j)
      for (const auto& [name, tr] : tensors) {
        std::copy_n(ck.values.data() + packed, tr.size(), state[j].data() + tr.off);
        packed += tr.size();
      }
    const float* sp[O::kStates];
    for (int j = 0; j < O::kStates; ++j) sp[j] = state[j].data();
    std::vector<double> s(n);
    for (size_t i = 0; i < n; ++i) s[i] = 1 / std::sqrt(O::preconditioner(train_.hyper, t, sp, i));
    return s;
  }

  // A Lanczos iteration on the current measurement's S·H·S from a fresh normal start vector.
  void start_lanczos() {
    auto hvp = hvp_;
    std::vector<double> q0(s_.size());
    for (double& x : q0) x = start_rng_.normal();
    lanczos_ =
        std::make_unique<Lanczos>([hvp](const std::vector<double>& v, std::vector<double>& hv) { (*hvp)(v, hv); }, s_,
                                  std::move(q0), cfg_.lanczos_steps, cfg_.lanczos_tol);
  }

  // The estimate did not meet its tolerance: again with a ten times smaller step (the header).
  void retry() {
    products_ += lanczos_->iterations();
    ++attempt_;
    hvp_->set_step(hvp_->step() / 10);
    start_lanczos();
  }

  void record() {
    Run& r = out_.back();
    r.steps.push_back(pending_step_);
    r.sharpness.push_back(lanczos_->lambda());
    r.threshold.push_back(threshold_);
    r.lr.push_back(scheduled_lr(train_, pending_step_));
    r.iterations.push_back(products_ + lanczos_->iterations());
    r.converged.push_back(lanczos_->converged() ? 1 : 0);
    r.fd_step.push_back(hvp_->step());
    // what the measurement did not use of its budget counts as done
    done_units_ += cfg_.lanczos_steps - std::min(cfg_.lanczos_steps, lanczos_->iterations());
    lanczos_.reset();
    if (run_->status() == RunStatus::Ok) finish();
  }

  void stop() {
    Run& r = out_.back();
    r.status = to_string(run_->status());
    r.stop_step = run_->stop_step();
    const int left = cfg_.base.steps - run_->steps_done();
    done_units_ += left + (left / cfg_.every) * cfg_.lanczos_steps;
    finish();
  }

  void finish() {
    Run& r = out_.back();
    if (r.status == "running") r.status = to_string(run_->status());
    r.loss = run_->loss();
    run_.reset();
    hvp_.reset();
  }

  Config cfg_;
  MarkovChain chain_;
  TrainConfig train_;
  std::unique_ptr<TrainRun> run_;
  std::shared_ptr<FiniteDifferenceHvp> hvp_;
  std::unique_ptr<Lanczos> lanczos_;
  Rng start_rng_{0};
  static constexpr int kRetries = 2;  // an unconverged estimate is done again at h/10, then h/100
  std::vector<double> s_;             // P^{-1/2} of the measurement under way
  int attempt_ = 0, products_ = 0;    // its attempt (0 = at fd_step) and the products of earlier attempts
  double threshold_ = 0;
  int pending_step_ = 0;
  size_t next_ = 0;
  double done_units_ = 0, total_ = 1;
  std::vector<Run> out_;
};

}  // namespace

ExperimentInfo sharpness_info() { return info_of<Sharpness>(); }

}  // namespace lnx::exp
