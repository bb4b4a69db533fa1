// registry.cpp — the list of experiments, in the order the docs and `lnx exp` list them, and
// ExperimentRun (api.h) over it. Adding an experiment: a file like output_sensitivity.cpp and one
// line in each list below (README.md, "Adding an experiment").
#include <algorithm>
#include <cctype>
#include "../api.h"
#include "../train_common.h"
#include "experiment.h"

namespace lnx {
namespace exp {

ExperimentInfo adam_first_step_info();
ExperimentInfo step_size_info();
ExperimentInfo output_sensitivity_info();
ExperimentInfo warmup_length_info();
ExperimentInfo plateau_share_info();
ExperimentInfo tied_output_info();
ExperimentInfo depth_factors_info();
ExperimentInfo sharpness_info();
ExperimentInfo phase_diagram_info();
ExperimentInfo init_profile_info();
ExperimentInfo lr_sensitivity_info();
ExperimentInfo real_text_info();
ExperimentInfo angular_update_info();

const std::vector<ExperimentInfo>& experiments() {
  static const std::vector<ExperimentInfo> all = {
      adam_first_step_info(), step_size_info(),    output_sensitivity_info(), warmup_length_info(),
      plateau_share_info(),   tied_output_info(),  depth_factors_info(),      sharpness_info(),
      phase_diagram_info(),   init_profile_info(), lr_sensitivity_info(),     real_text_info(),
      angular_update_info(),
  };
  return all;
}

const ExperimentInfo& experiment(const std::string& name) {
  for (const ExperimentInfo& e : experiments())
    if (name == e.name) return e;
  std::string known;
  for (const ExperimentInfo& e : experiments()) known += (known.empty() ? "\"" : ", \"") + std::string(e.name) + "\"";
  // the name given is echoed only when it is a plain word: a message may be shown as text of a page
  const bool plain = !name.empty() && name.size() <= 40 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
  throw ArgumentError("experiment must be one of " + known + (plain ? " (got \"" + name + "\")" : std::string()));
}

void write_engine(json::Writer& w, const char* backend) { detail::write_engine(w, backend); }

}  // namespace exp

std::vector<std::string> experiment_names() {
  std::vector<std::string> out;
  for (const exp::ExperimentInfo& e : exp::experiments()) out.push_back(e.name);
  return out;
}

struct ExperimentRun::Impl {
  std::unique_ptr<exp::Experiment> e;
};

ExperimentRun::ExperimentRun(const std::string& name, const std::string& config_json)
    : impl_(std::make_unique<Impl>(Impl{exp::experiment(name).make(config_json)})) {}
ExperimentRun::~ExperimentRun() = default;
double ExperimentRun::step(int work) { return impl_->e->step(work); }
bool ExperimentRun::done() const { return impl_->e->done(); }
double ExperimentRun::progress() const { return impl_->e->progress(); }
std::string ExperimentRun::result_json() const { return impl_->e->result_json(); }

}  // namespace lnx
