// lnx.cpp — the command-line front end of the engine: `lnx probe | train | grid | version`.
//
// Flags are turned into the same JSON config the WebAssembly module receives and parsed by the
// same functions (api.h), so the CLI and the page validate identically. `--json` prints the result
// document (docs/json-schema.md); without it a short human-readable summary is printed.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "../api.h"
#include "../json.h"

namespace {

const char* kUsage = R"(lnx — LayerNorm placement at initialization, and the toy warm-up experiment

usage:
  lnx probe [--layers 6] [--d 512] [--d-ff 1024] [--vocab 1000] [--seq 32] [--batch 8]
            [--seeds 5] [--batches 20] [--depth-batches 10] [--depths 6,8,10,12,14]
            [--attention bidirectional|causal] [--threads N] [--json] [--progress]
  lnx train [--norm post|pre] [--warmup 0] [--lr 1e-3] [--seed 0] [--steps 500] [--chain-seed 1234]
            [--layers 8] [--d 128] [--d-ff 512] [--vocab 256] [--seq 64] [--batch 8]
            [--threads N] [--json] [--progress]
  lnx grid  [--norms post,pre] [--warmups 0,300] [--lrs 1e-3,3e-3] [--seeds 0,1] [--steps 500]
            [--threads N] [--json] [--progress]
  lnx version

--threads 0 (default) uses every core. --json prints the full result (docs/json-schema.md).
)";

bool is_number(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

std::string json_scalar(const std::string& s) {
  if (is_number(s)) return s;
  lnx::json::Writer w;
  w.value(s);
  return w.str();
}

// Keys whose value is always a list, even with one entry ("seeds" is a count for probe, a list for grid).
bool is_list_key(const std::string& command, const std::string& k) {
  if (command == "probe") return k == "depths";
  if (command == "grid")
    for (const char* l : {"norms", "warmups", "lrs", "seeds"})
      if (k == l) return true;
  return false;
}

struct Args {
  std::string command;
  std::string config_json = "{}";
  bool json = false, progress = false;
  int threads = 0;
};

Args parse_args(int argc, char** argv) {
  Args a;
  if (argc < 2) throw lnx::ArgumentError("missing command");
  a.command = argv[1];
  std::string body;
  for (int i = 2; i < argc; ++i) {
    std::string f = argv[i];
    if (f == "--json") { a.json = true; continue; }
    if (f == "--progress") { a.progress = true; continue; }
    if (f.rfind("--", 0) != 0) throw lnx::ArgumentError("unexpected argument '" + f + "'");
    if (i + 1 >= argc) throw lnx::ArgumentError("flag " + f + " needs a value");
    std::string key = f.substr(2), val = argv[++i];
    for (char& c : key)
      if (c == '-') c = '_';
    if (key == "threads") {
      if (!is_number(val)) throw lnx::ArgumentError("--threads needs a number");
      a.threads = std::stoi(val);
      continue;
    }
    std::string rendered;
    if (is_list_key(a.command, key)) {
      rendered = "[";
      size_t start = 0;
      for (;;) {
        size_t comma = val.find(',', start);
        rendered += json_scalar(val.substr(start, comma - start));
        if (comma == std::string::npos) break;
        rendered += ",";
        start = comma + 1;
      }
      rendered += "]";
    } else {
      rendered = json_scalar(val);
    }
    body += (body.empty() ? "" : ",") + json_scalar(key) + ":" + rendered;
  }
  a.config_json = "{" + body + "}";
  return a;
}

void progress_line(double f, double elapsed) {
  std::fprintf(stderr, "\r%5.1f%%  %.1fs", 100 * f, elapsed);
  if (f >= 1) std::fprintf(stderr, "\n");
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int cmd_probe(const Args& a) {
  const lnx::ProbeConfig cfg = lnx::probe_config_from_json(a.config_json);
  lnx::ProbeRun run(cfg);
  auto t0 = std::chrono::steady_clock::now();
  while (!run.done()) {
    double f = run.step(1);
    if (a.progress) progress_line(f, seconds_since(t0));
  }
  const std::string out = run.result_json();
  if (a.json) {
    std::cout << out << "\n";
    return 0;
  }
  const lnx::json::Value v = lnx::json::parse(out);
  for (const char* norm : {"post", "pre"}) {
    const auto& s = v.obj.at(norm).obj;
    std::printf("%s-LN   layer  W2(paper)  W2(per-batch)  |h|^2/d\n", norm);
    const auto& wp = s.at("W2_per_layer").obj.at("mean").arr;
    const auto& wb = s.at("W2_per_batch").obj.at("mean").arr;
    const auto& nn = s.at("norm2_over_d").obj.at("mean").arr;
    for (size_t l = 0; l < wp.size(); ++l)
      std::printf("         %5zu  %9.3f  %13.3f  %7.3f\n", l + 1, wp[l].num, wb[l].num, nn[l].num);
    std::printf("  final-LN multiplier sqrt(d)/|h_L| = %.3f\n", s.at("final_ln_gain").obj.at("mean").num);
    std::printf("  last-layer W2 vs depth (per-batch):");
    for (const auto& kv : s.at("lastW2_vs_L").obj)
      std::printf("  L=%s %.3f", kv.first.c_str(), kv.second.obj.at("W2_per_batch").obj.at("mean").num);
    std::printf("\n\n");
  }
  std::printf("%.1f s (%d threads)\n", seconds_since(t0), lnx::threads());
  return 0;
}

int cmd_train(const Args& a) {
  const lnx::TrainConfig cfg = lnx::train_config_from_json(a.config_json);
  lnx::TrainRun run(cfg);
  auto t0 = std::chrono::steady_clock::now();
  while (run.status() == lnx::RunStatus::Running) {
    run.step(10);
    if (a.progress) progress_line(static_cast<double>(run.steps_done()) / cfg.steps, seconds_since(t0));
  }
  if (a.json) {
    std::cout << run.result_json() << "\n";
  } else {
    for (size_t t = 0; t < run.loss().size(); ++t)
      if ((t + 1) % 50 == 0 || t == 0)
        std::printf("step %5zu  loss %.4f  |g| %.3f  lr %.2e\n", t + 1, run.loss()[t], run.grad_norm()[t], run.lr()[t]);
    std::printf("status %s; plateau entropy %.3f; %.1f s\n", lnx::to_string(run.status()), run.plateau_entropy(),
                seconds_since(t0));
  }
  return run.status() == lnx::RunStatus::Ok ? 0 : 3;  // 3: the run stopped (nan or diverged)
}

int cmd_grid(const Args& a) {
  const lnx::GridConfig cfg = lnx::grid_config_from_json(a.config_json);
  lnx::GridRun run(cfg);
  auto t0 = std::chrono::steady_clock::now();
  while (!run.done()) {
    double f = run.step(10);
    if (a.progress) progress_line(f, seconds_since(t0));
  }
  const std::string out = run.result_json();
  if (a.json) {
    std::cout << out << "\n";
    return 0;
  }
  const lnx::json::Value v = lnx::json::parse(out);
  std::printf("plateau entropy %.3f, ln 4 = %.3f\n", v.obj.at("plateau_entropy").num, v.obj.at("optimal_loss").num);
  for (const auto& r : v.obj.at("runs").arr) {
    const auto& o = r.obj;
    const auto& loss = o.at("loss").arr;
    std::printf("%-4s warmup %4.0f lr %.0e seed %.0f  %s  final loss %s\n", o.at("norm").str.c_str(),
                o.at("warmup").num, o.at("lr").num, o.at("seed").num, o.at("status").str.c_str(),
                loss.empty() ? "-" : std::to_string(loss.back().num).c_str());
  }
  std::printf("%.1f s (%d threads)\n", seconds_since(t0), lnx::threads());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help"))) {
      std::cout << kUsage;
      return 0;
    }
    Args a = parse_args(argc, argv);
    lnx::set_threads(a.threads);
    if (a.command == "version") {
      std::cout << "lnx " << lnx::engine_version() << " (" << lnx::build_flavour() << ")\n";
      return 0;
    }
    if (a.command == "probe") return cmd_probe(a);
    if (a.command == "train") return cmd_train(a);
    if (a.command == "grid") return cmd_grid(a);
    throw lnx::ArgumentError("unknown command '" + a.command + "'");
  } catch (const lnx::ArgumentError& e) {
    std::cerr << "lnx: " << e.what() << "\n\n" << kUsage;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "lnx: " << e.what() << "\n";
    return 1;
  }
}
