// lnx.cpp — the command-line front end of the engine: `lnx probe | train | grid | exp NAME | schema | version`.
//
// The flags of a command are the fields of its config schema (configs.cpp), so adding a field adds a
// flag and its usage text. Flags are turned into the same JSON config the WebAssembly module receives
// and parsed by the same functions (api.h), so the CLI and the page validate identically. `--json` prints the result
// document (docs/json-schema.md); without it a short human-readable summary is printed.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "../api.h"
#include "../configs.h"
#include "../experiments/experiment.h"
#include "../json.h"
#include "../optim/registry.h"
#include "../placements/placement.h"
#include "../placements/presets.h"
#include "../placements/spec.h"
#include "../schema.h"

namespace {

// The flags of each command are the fields of its config (configs.cpp): --d-ff sets "d_ff", a list
// field takes comma-separated values, numbers stay numbers.
struct Command {
  const char* name;
  const char* what;
  std::string (*flags)();  // the usage line of its config's fields
};

template <class C>
std::string flags_of(const lnx::schema::Schema<C>& s) {
  return lnx::schema::usage(s, C{}, 12);
}

const Command kCommands[] = {
    {"probe", "Figures 2-3: W2 gradients, residual-stream norms, Final-LN multiplier at initialization",
     [] { return flags_of(lnx::config::probe_schema()); }},
    {"train", "one toy run of Figure 4", [] { return flags_of(lnx::config::train_schema()); }},
    {"grid", "Figure 4: the warm-up grid (placements x warm-ups x lrs x seeds), runs in parallel",
     [] { return flags_of(lnx::config::grid_schema()); }},
};

const char* const kRunFlags = "            [--threads N] [--json] [--progress]\n";

std::string command_usage(const Command& c) {
  return "  lnx " + std::string(c.name) + std::string(6 - std::strlen(c.name), ' ') + c.what + "\n" + c.flags() + "\n" +
         kRunFlags;
}

std::string experiment_usage(const lnx::exp::ExperimentInfo& e) {
  return "    " + std::string(e.name) + "\n" + e.usage(12) + "\n";
}

std::string usage() {
  std::string u = "lnx — LayerNorm placement at initialization, and the toy warm-up experiment\n\nusage:\n";
  for (const Command& c : kCommands) u += command_usage(c);
  u += "  lnx exp NAME  an experiment on one of the article's own inferences (docs/experiments.md):\n";
  for (const lnx::exp::ExperimentInfo& e : lnx::exp::experiments()) u += experiment_usage(e);
  u += kRunFlags;
  u += "  lnx schema [--json]   every config's fields: type, default, bounds, doc; the placement presets\n";
  u += "                        (docs/json-schema.md)\n";
  u += "  lnx version\n\n";
  u += "--threads 0 (default) uses every core. --json prints the full result (docs/json-schema.md).\n";
  u += "--data text learns the article's text (public/data/text/article.{en,zh}.txt; --text-dir DIR reads them from "
       "DIR).\n";
  u += "Placements: ";
  for (const auto& n : lnx::placement_names()) u += n + " ";
  u += "\nOptimizers: ";
  for (const auto& n : lnx::optimizer_names()) u += n + " ";
  u += "\nPlacement presets (lnx schema lists them; docs/engine.md): --placement-spec "
       "wasm/placements/presets/NAME.json,\n  NAME = ";
  for (const auto& p : lnx::placement_presets())
    if (p.source != "registry") u += p.name + " ";
  return u + "\n";
}

struct Args {
  std::string command;
  std::string experiment;  // lnx exp NAME
  std::string config_json = "{}";
  bool json = false, progress = false;
  int threads = 0;
  std::string text_dir;  // --text-dir: the folder of article.en.txt and article.zh.txt ("" = the shipped one)
};

// A path as messages quote it: its first 80 characters, the unprintable ones as '?'.
std::string printable(const std::string& path) {
  std::string safe;
  for (size_t i = 0; i < path.size() && i < 80; ++i) safe += (path[i] >= 0x20 && path[i] < 0x7f) ? path[i] : '?';
  return safe;
}

// The bytes of a file, at most `limit` + one buffer; false when it cannot be opened or read.
bool read_file(const std::string& path, size_t limit, std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && text.size() <= limit) text.append(buf, n);
  const bool err = std::ferror(f);
  std::fclose(f);
  return !err;
}

// Registers the article's texts (data = text; text_data.h) from `dir`, or from the shipped folder
// public/data/text (under the working directory or one level up, as from build/). A folder that
// --text-dir names must exist and hold at least one of article.en.txt and article.zh.txt; a file
// of it that is missing, unreadable or empty is recorded as such (set_text_corpus_missing), so a
// run that needs that language is refused with the reason, naming text_lang and --text-dir (a run
// on the other language goes ahead). Without --text-dir a shipped file that is absent is skipped
// (a text run then says which text is not loaded).
void load_texts(const std::string& dir) {
  constexpr size_t kMaxText = 64u << 20;
  const bool named = !dir.empty();
  if (named) {
    struct stat st;
    if (stat(dir.c_str(), &st) != 0)
      throw lnx::ArgumentError("--text-dir: there is no folder '" + printable(dir) + "'");
    if (!S_ISDIR(st.st_mode)) throw lnx::ArgumentError("--text-dir: '" + printable(dir) + "' is a file, not a folder");
  }
  int found = 0;
  for (const char* lang : {"en", "zh"}) {
    const std::string file = std::string("article.") + lang + ".txt";
    for (const std::string& d :
         named ? std::vector<std::string>{dir} : std::vector<std::string>{"public/data/text", "../public/data/text"}) {
      const std::string path = d + "/" + file;
      struct stat st;
      const bool exists = stat(path.c_str(), &st) == 0;
      if (!named && !exists) continue;
      found += exists;
      std::string text;
      std::string why;
      if (!exists) why = "the folder --text-dir names ('" + printable(dir) + "') has no " + file;
      else if (S_ISDIR(st.st_mode) || !read_file(path, kMaxText, text))
        why = "--text-dir: cannot read the file '" + printable(path) + "'";
      else if (text.size() > kMaxText) throw lnx::ArgumentError("--text-dir: '" + printable(path) + "' is over 64 MiB");
      else if (text.empty()) why = "the file '" + printable(path) + "' (--text-dir) is empty";
      if (why.empty()) lnx::set_text_corpus(lang, text);
      else if (named) lnx::set_text_corpus_missing(lang, why);
      break;
    }
  }
  if (named && found == 0)
    throw lnx::ArgumentError("--text-dir: the folder '" + printable(dir) +
                             "' has neither article.en.txt nor article.zh.txt");
}

// The text of the file a flag names (at most 64 KiB: the field refuses more than a few KiB itself).
std::string read_flag_file(const std::string& flag, const std::string& path) {
  std::string text;
  if (!read_file(path, 64u << 10, text))
    throw lnx::ArgumentError(flag + ": cannot read the file '" + printable(path) + "'");
  return text;
}

// Flags → the JSON config: `find` looks a key up in the command's schema, `keys` lists them all.
template <class Find, class Keys>
std::string flags_to_json(Find find, Keys keys, const std::vector<std::pair<std::string, std::string>>& kv) {
  std::string body;
  for (const auto& [flag, val] : kv) {
    const std::string key = lnx::schema::key_of_flag(flag);
    const lnx::schema::Spec* spec = find(key);
    if (!spec) {
      std::string known;
      for (const auto& k : keys()) known += (known.empty() ? "" : ", ") + lnx::schema::flag_of(k);
      throw lnx::ArgumentError("unknown flag " + flag + " (flags of this command: " + known +
                               ", --threads, --json, --progress)");
    }
    lnx::json::Writer k;
    k.value(key);
    std::string value;
    if (spec->type == lnx::schema::Type::Object) {  // a file holding the object (--placement-spec FILE)
      lnx::json::Writer t;
      t.value(read_flag_file(flag, val));
      value = t.str();  // as a string: its text is parsed by the field, whose messages name it
    } else {
      value = lnx::schema::cli_value_json(*spec, val);
    }
    body += (body.empty() ? "" : ",") + k.str() + ":" + value;
  }
  return "{" + body + "}";
}

template <class C>
std::string flags_to_json(const lnx::schema::Schema<C>& s, const std::vector<std::pair<std::string, std::string>>& kv) {
  return flags_to_json(
      [&](const std::string& key) -> const lnx::schema::Spec* {
        const auto* f = s.find(key);
        return f ? &f->spec : nullptr;
      },
      [&] {
        std::vector<std::string> out;
        for (const auto& f : s.fields) out.push_back(f.spec.name);
        return out;
      },
      kv);
}

Args parse_args(int argc, char** argv) {
  Args a;
  if (argc < 2) throw lnx::ArgumentError("missing command");
  a.command = argv[1];
  int first = 2;
  if (a.command == "exp") {
    if (argc < 3 || std::string(argv[2]).rfind("--", 0) == 0) {
      std::string known;
      for (const auto& e : lnx::exp::experiments()) known += (known.empty() ? "" : ", ") + std::string(e.name);
      throw lnx::ArgumentError("lnx exp needs an experiment's name: " + known);
    }
    a.experiment = argv[2];
    lnx::exp::experiment(a.experiment);  // an unknown name is refused before its flags are read
    first = 3;
  }
  std::vector<std::pair<std::string, std::string>> kv;
  for (int i = first; i < argc; ++i) {
    std::string f = argv[i];
    if (f == "--json") {
      a.json = true;
      continue;
    }
    if (f == "--progress") {
      a.progress = true;
      continue;
    }
    if (f.rfind("--", 0) != 0) throw lnx::ArgumentError("unexpected argument '" + f + "'");
    if (i + 1 >= argc) throw lnx::ArgumentError("flag " + f + " needs a value");
    const std::string val = argv[++i];
    if (f == "--threads") {
      char* end = nullptr;
      const long n = std::strtol(val.c_str(), &end, 10);
      if (val.empty() || *end || n < 0 || n > 256) throw lnx::ArgumentError("--threads needs an integer in [0, 256]");
      a.threads = static_cast<int>(n);
      continue;
    }
    if (f == "--text-dir") {
      if (val.empty()) throw lnx::ArgumentError("--text-dir needs a folder");
      a.text_dir = val;
      continue;
    }
    kv.emplace_back(f, val);
  }
  if (a.command == "probe") a.config_json = flags_to_json(lnx::config::probe_schema(), kv);
  else if (a.command == "train") a.config_json = flags_to_json(lnx::config::train_schema(), kv);
  else if (a.command == "grid") a.config_json = flags_to_json(lnx::config::grid_schema(), kv);
  else if (a.command == "exp") {
    const lnx::exp::ExperimentInfo& e = lnx::exp::experiment(a.experiment);
    a.config_json = flags_to_json(e.find, e.keys, kv);
  } else if (!kv.empty()) throw lnx::ArgumentError("lnx " + a.command + " takes no flags but --json");
  return a;
}

// Does the command read the article's text? (--text-dir elsewhere would be silently ignored, so it
// is refused.) train and grid with data = text, and an experiment that takes the text's languages
// (`langs`: real-text).
bool reads_text(const Args& a) {
  if (a.command == "train") return lnx::train_config_from_json(a.config_json).data == "text";
  if (a.command == "grid") return lnx::grid_config_from_json(a.config_json).base.data == "text";
  if (a.command == "exp") return lnx::exp::experiment(a.experiment).find("langs") != nullptr;
  return false;
}

void print_warnings(const std::vector<std::string>& ws) {
  for (const auto& w : ws) std::fprintf(stderr, "lnx: warning: %s\n", w.c_str());
}

void progress_line(double f, double elapsed) {
  std::fprintf(stderr, "\r%5.1f%%  %.1fs", 100 * f, elapsed);
  if (f >= 1) std::fprintf(stderr, "\n");
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Steps a run that counts its own progress (ProbeRun, GridRun, ExperimentRun) to its end, `work`
// units a call, with a progress line on stderr when asked; its result document.
template <class Run>
std::string run_to_end(Run& run, int work, bool progress, std::chrono::steady_clock::time_point t0) {
  while (!run.done()) {
    const double f = run.step(work);
    if (progress) progress_line(f, seconds_since(t0));
  }
  return run.result_json();
}

// --json: the result document on stdout, and the command's exit status.
int print_json(const std::string& out) {
  std::cout << out << "\n";
  return 0;
}

int cmd_probe(const Args& a) {
  const lnx::ProbeConfig cfg = lnx::probe_config_from_json(a.config_json);
  lnx::ProbeRun run(cfg);
  auto t0 = std::chrono::steady_clock::now();
  const std::string out = run_to_end(run, 1, a.progress, t0);
  if (a.json) return print_json(out);
  const lnx::json::Value v = lnx::json::parse(out);
  for (const auto& norm : cfg.placements) {
    const auto& s = v.obj.at("placements").obj.at(norm).obj;
    std::printf("%s   layer  W2(paper)  W2(per-batch)  |h|^2/d\n",
                lnx::resolve_placement(norm, cfg.model.placement_spec)->label);
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
  print_warnings(cfg.warnings());
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
    const std::vector<int> vs = run.val_steps();
    const std::vector<float> vl = run.val_loss();
    for (size_t i = 0; i < vs.size(); ++i) std::printf("step %5d  validation loss %.4f\n", vs[i], vl[i]);
    std::printf("status %s; plateau entropy %.3f; %.1f s\n", lnx::to_string(run.status()), run.plateau_entropy(),
                seconds_since(t0));
  }
  return run.status() == lnx::RunStatus::Ok ? 0 : 3;  // 3: the run stopped (nan or diverged)
}

int cmd_grid(const Args& a) {
  const lnx::GridConfig cfg = lnx::grid_config_from_json(a.config_json);
  print_warnings(cfg.warnings());
  lnx::GridRun run(cfg);
  auto t0 = std::chrono::steady_clock::now();
  const std::string out = run_to_end(run, 10, a.progress, t0);
  if (a.json) return print_json(out);
  const lnx::json::Value v = lnx::json::parse(out);
  // the text has no optimal loss (data = text: its plateau is the text's unigram entropy)
  const auto opt = v.obj.find("optimal_loss");
  if (opt != v.obj.end())
    std::printf("plateau entropy %.3f, ln %d = %.3f\n", v.obj.at("plateau_entropy").num, cfg.base.successors,
                opt->second.num);
  else std::printf("plateau (the text's unigram entropy) %.3f\n", v.obj.at("plateau_entropy").num);
  for (const auto& r : v.obj.at("runs").arr) {
    const auto& o = r.obj;
    const auto& loss = o.at("loss").arr;
    std::printf("%-8s warmup %4.0f lr %.0e seed %.0f  %s  final loss %s\n", o.at("placement").str.c_str(),
                o.at("warmup").num, o.at("lr").num, o.at("seed").num, o.at("status").str.c_str(),
                loss.empty() ? "-" : std::to_string(loss.back().num).c_str());
  }
  std::printf("%.1f s (%d threads)\n", seconds_since(t0), lnx::threads());
  return 0;
}

// An experiment: the full document with --json; otherwise its name, claim and a note of where the
// result's keys are documented (the numbers are for the docs' tables and the page's figures).
int cmd_exp(const Args& a) {
  const lnx::exp::ExperimentInfo& info = lnx::exp::experiment(a.experiment);
  lnx::ExperimentRun run(a.experiment, a.config_json);
  auto t0 = std::chrono::steady_clock::now();
  const std::string out = run_to_end(run, 1, a.progress, t0);
  if (a.json) return print_json(out);
  std::printf(
      "%s: %s\nclaim: %s\n%.1f s (%d threads); %zu bytes of results (--json prints them; docs/json-schema.md)\n",
      info.name, info.doc, info.claim, seconds_since(t0), lnx::threads(), out.size());
  return 0;
}

int cmd_schema(const Args& a) {
  const lnx::json::Value v = lnx::json::parse(lnx::schema_json());
  if (a.json) return print_json(lnx::schema_json());
  for (const auto& c : v.obj.at("configs").arr) {
    std::printf("%s — %s\n", c.obj.at("name").str.c_str(), c.obj.at("doc").str.c_str());
    for (const auto& f : c.obj.at("fields").arr)
      std::printf("  %-14s %-9s %s\n", f.obj.at("name").str.c_str(), f.obj.at("type").str.c_str(),
                  f.obj.at("doc").str.c_str());
  }
  std::printf("placement presets — specs to start from (--json prints each spec)\n");
  for (const auto& p : v.obj.at("placement_presets").arr)
    std::printf("  %-14s %-22s %s\n", p.obj.at("name").str.c_str(), p.obj.at("source").str.c_str(),
                p.obj.at("doc").str.c_str());
  return 0;
}

// What follows an argument error: the usage of the command the arguments name (an experiment's for
// `lnx exp NAME`), so that the message stays in view; all of it where they name none.
std::string usage_after_error(int argc, char** argv) {
  const std::string command = argc >= 2 ? argv[1] : "";
  const std::string more = "\n(lnx --help lists every command and flag)\n";
  for (const Command& c : kCommands)
    if (command == c.name) return "usage:\n" + command_usage(c) + more;
  if (command == "exp" && argc >= 3)
    for (const lnx::exp::ExperimentInfo& e : lnx::exp::experiments())
      if (e.name == std::string(argv[2]))
        return "usage:\n  lnx exp " + std::string(e.name) + "\n" + e.usage(12) + "\n" + kRunFlags + more;
  return usage();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc >= 2 &&
        (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help"))) {
      std::cout << usage();
      return 0;
    }
    Args a = parse_args(argc, argv);
    lnx::set_threads(a.threads);
    if (!a.text_dir.empty() && !reads_text(a))
      throw lnx::ArgumentError(
          "--text-dir names the folder of the article's text, which this command does not read "
          "(it goes with --data text, and with lnx exp real-text)");
    load_texts(a.text_dir);
    if (a.command == "version") {
      std::cout << "lnx " << lnx::engine_version() << " (" << lnx::build_flavour() << ")\n";
      return 0;
    }
    if (a.command == "schema") return cmd_schema(a);
    if (a.command == "probe") return cmd_probe(a);
    if (a.command == "train") return cmd_train(a);
    if (a.command == "grid") return cmd_grid(a);
    if (a.command == "exp") return cmd_exp(a);
    throw lnx::ArgumentError("unknown command '" + a.command + "'");
  } catch (const lnx::ArgumentError& e) {
    std::cerr << "lnx: " << e.what() << "\n\n" << usage_after_error(argc, argv);
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "lnx: " << e.what() << "\n";
    return 1;
  }
}
