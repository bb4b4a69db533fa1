// api.cpp — names, versions, thread count, and the validation of every configuration (api.h).
//
// Every size is bounded before anything is allocated: a config that would need more memory than
// kMaxModelBytes is refused with a message that says how much it would take, so a URL or a UI value
// cannot make the page allocate gigabytes.
#include <cmath>
#include <set>
#include <sstream>

#include "api.h"
#include "json.h"
#include "thread_pool.h"

#ifndef LNX_VERSION
#define LNX_VERSION "0.1.0"
#endif

namespace lnx {
namespace {

// Rough upper bound of the bytes one float model needs (params, grads, Adam m and v, activations).
double model_bytes(const ModelConfig& m) {
  const double d = m.d, F = m.d_ff, V = m.vocab, N = static_cast<double>(m.batch) * m.seq, L = m.layers;
  const double params = V * d + L * (3 * d * d + 2 * d * F + 9 * d + F) + 2 * d;
  const double acts = L * (8 * N * d + 2 * N * F + N * m.seq + 4 * N) + N * (8 * d + 2 * F + 2 * V);
  return 4.0 * (4 * params + acts);
}

constexpr double kMaxModelBytes = 1.0 * (1 << 30);  // 1 GiB: fits a wasm32 heap with room to spare

void check_range(const char* what, long v, long lo, long hi) {
  if (v < lo || v > hi) {
    std::ostringstream os;
    os << what << " = " << v << " is out of range [" << lo << ", " << hi << "]";
    throw ArgumentError(os.str());
  }
}

void check_unique(const char* what, std::vector<double> xs) {
  std::set<double> seen;
  for (double x : xs)
    if (!seen.insert(x).second) throw ArgumentError(std::string(what) + " contains a duplicate entry");
}

ModelConfig model_from_json(const json::Value& v, ModelConfig m) {
  json::read_int(v, "layers", m.layers, 1, 64);
  json::read_int(v, "d", m.d, 2, 4096);
  json::read_int(v, "d_ff", m.d_ff, 1, 16384);
  json::read_int(v, "vocab", m.vocab, 2, 65536);
  json::read_int(v, "seq", m.seq, 1, 4096);
  json::read_int(v, "batch", m.batch, 1, 4096);
  std::string s;
  json::read_string(v, "attention", s);
  if (!s.empty()) m.attention = parse_attention(s);
  s.clear();
  json::read_string(v, "norm", s);
  if (!s.empty()) m.norm = parse_norm(s);
  return m;
}

const std::vector<std::string> kModelKeys = {"layers", "d", "d_ff", "vocab", "seq", "batch", "attention", "norm"};

std::vector<std::string> with_model_keys(std::vector<std::string> keys) {
  keys.insert(keys.end(), kModelKeys.begin(), kModelKeys.end());
  return keys;
}

}  // namespace

const char* to_string(Norm n) { return n == Norm::Post ? "post" : "pre"; }
const char* to_string(Attention a) { return a == Attention::Causal ? "causal" : "bidirectional"; }

Norm parse_norm(const std::string& s) {
  if (s == "post") return Norm::Post;
  if (s == "pre") return Norm::Pre;
  throw ArgumentError("norm must be \"post\" or \"pre\"");
}
Attention parse_attention(const std::string& s) {
  if (s == "bidirectional") return Attention::Bidirectional;
  if (s == "causal") return Attention::Causal;
  throw ArgumentError("attention must be \"bidirectional\" or \"causal\"");
}

std::string engine_version() { return LNX_VERSION; }

std::string build_flavour() {
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
  return "wasm-mt";
#elif defined(__EMSCRIPTEN__)
  return "wasm-st";
#else
  return "native";
#endif
}

void set_threads(int n) {
  check_range("threads", n, 0, 256);
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  if (n > 1) throw ArgumentError("this build is single-threaded; threads must be 0 or 1");
  n = 1;
#endif
  reset_pool(n);
}
int threads() { return pool().size(); }

void ModelConfig::validate() const {
  check_range("layers", layers, 1, 64);
  check_range("d", d, 2, 4096);
  check_range("d_ff", d_ff, 1, 16384);
  check_range("vocab", vocab, 2, 65536);
  check_range("seq", seq, 1, 4096);
  check_range("batch", batch, 1, 4096);
  const double bytes = model_bytes(*this);
  if (bytes > kMaxModelBytes) {
    std::ostringstream os;
    os.precision(3);
    os << "model too large: it would need about " << bytes / (1 << 20) << " MiB; the limit is "
       << kMaxModelBytes / (1 << 20) << " MiB (reduce layers, d, d_ff, vocab, seq or batch)";
    throw ArgumentError(os.str());
  }
}

void ProbeConfig::validate() const {
  check_range("seeds", seeds, 1, 16);
  check_range("batches", batches, 1, 1000);
  check_range("depth_batches", depth_batches, 1, 1000);
  if (depths.empty() || depths.size() > 16) throw ArgumentError("depths must have 1 to 16 entries");
  std::vector<double> ds(depths.begin(), depths.end());
  check_unique("depths", ds);
  ModelConfig m = model;
  model.validate();
  for (int L : depths) {
    check_range("depths entry", L, 1, 64);
    m.layers = L;
    m.validate();
  }
}

void TrainConfig::validate() const {
  model.validate();
  check_range("steps", steps, 1, 100000);
  check_range("warmup", warmup, 0, 100000);
  check_range("successors", successors, 1, model.vocab);
  if (!std::isfinite(lr) || !(lr > 0) || lr > 10) throw ArgumentError("lr must be a finite number in (0, 10]");
  if (!(beta1 >= 0 && beta1 < 1)) throw ArgumentError("beta1 must be in [0, 1)");
  if (!(beta2 >= 0 && beta2 < 1)) throw ArgumentError("beta2 must be in [0, 1)");
  if (!(eps > 0 && eps <= 1)) throw ArgumentError("eps must be in (0, 1]");
}

void GridConfig::validate() const {
  base.validate();
  if (norms.empty() || warmups.empty() || lrs.empty() || seeds.empty())
    throw ArgumentError("norms, warmups, lrs and seeds must each have at least one entry");
  for (const auto& n : norms) parse_norm(n);
  for (int w : warmups) check_range("warmups entry", w, 0, 100000);
  for (double lr : lrs)
    if (!std::isfinite(lr) || !(lr > 0) || lr > 10) throw ArgumentError("lrs entries must be finite numbers in (0, 10]");
  const size_t runs = norms.size() * warmups.size() * lrs.size() * seeds.size();
  if (runs > 64) throw ArgumentError("the grid has " + std::to_string(runs) + " runs; at most 64 allowed");
  std::set<std::string> ns(norms.begin(), norms.end());
  if (ns.size() != norms.size()) throw ArgumentError("norms contains a duplicate entry");
  check_unique("warmups", std::vector<double>(warmups.begin(), warmups.end()));
  check_unique("lrs", lrs);
  check_unique("seeds", std::vector<double>(seeds.begin(), seeds.end()));
}

ProbeConfig probe_config_from_json(const std::string& text) {
  const json::Value v = json::parse(text);
  json::reject_unknown_keys(v, with_model_keys({"seeds", "batches", "depth_batches", "depths", "threads"}));
  ProbeConfig c;
  c.model = model_from_json(v, c.model);
  json::read_int(v, "seeds", c.seeds, 1, 16);
  json::read_int(v, "batches", c.batches, 1, 1000);
  json::read_int(v, "depth_batches", c.depth_batches, 1, 1000);
  json::read_int_list(v, "depths", c.depths, 1, 64, 16);
  c.validate();
  return c;
}

namespace {
void train_fields_from_json(const json::Value& v, TrainConfig& c) {
  c.model = model_from_json(v, c.model);
  json::read_int(v, "steps", c.steps, 1, 100000);
  json::read_u64(v, "chain_seed", c.chain_seed, (1ULL << 53));
  json::read_int(v, "successors", c.successors, 1, 65536);
  json::read_double(v, "beta1", c.beta1, 0, 0.999999, false);
  json::read_double(v, "beta2", c.beta2, 0, 0.999999999, false);
  json::read_double(v, "eps", c.eps, 0, 1, true);
}
}  // namespace

TrainConfig train_config_from_json(const std::string& text) {
  const json::Value v = json::parse(text);
  json::reject_unknown_keys(v, with_model_keys({"warmup", "lr", "steps", "seed", "chain_seed", "successors",
                                                "beta1", "beta2", "eps", "threads"}));
  TrainConfig c;
  train_fields_from_json(v, c);
  json::read_int(v, "warmup", c.warmup, 0, 100000);
  json::read_double(v, "lr", c.lr, 0, 10, true);
  json::read_u64(v, "seed", c.seed, (1ULL << 53));
  c.validate();
  return c;
}

GridConfig grid_config_from_json(const std::string& text) {
  const json::Value v = json::parse(text);
  json::reject_unknown_keys(v, with_model_keys({"norms", "warmups", "lrs", "seeds", "steps", "chain_seed",
                                                "successors", "beta1", "beta2", "eps", "threads"}));
  GridConfig c;
  train_fields_from_json(v, c.base);
  json::read_string_list(v, "norms", c.norms, 2);
  json::read_int_list(v, "warmups", c.warmups, 0, 100000, 8);
  json::read_double_list(v, "lrs", c.lrs, 0, 10, 8);
  json::read_u64_list(v, "seeds", c.seeds, (1ULL << 53), 8);
  c.validate();
  return c;
}

}  // namespace lnx
