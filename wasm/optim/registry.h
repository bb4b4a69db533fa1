// registry.h — the list of optimizers (one line each in `Optimizers`), and what the rest of the
// engine asks of it: the names, every hyperparameter with its default, and a call of a generic
// function with the optimizer type a config names. Adding an optimizer: a header like adam.h and
// one entry below (README.md, "Adding an optimizer").
#pragma once
#include <string>
#include <vector>

#include "../config.h"
#include "adam.h"
#include "gi_adam.h"
#include "optimizer.h"
#include "radam.h"
#include "sgd.h"

namespace lnx {

template <class... Opts>
struct OptimizerList {};
using Optimizers = OptimizerList<Adam, Sgd, RAdam, GiAdam>;

namespace detail {
template <class F, class... Opts>
void for_each_optimizer(OptimizerList<Opts...>, F&& f) {
  (f(Opts{}), ...);
}
}  // namespace detail

// f(Opt{}) for every optimizer, in registry order.
template <class F>
void for_each_optimizer(F&& f) {
  detail::for_each_optimizer(Optimizers{}, f);
}

inline std::vector<std::string> optimizer_names() {
  std::vector<std::string> out;
  for_each_optimizer([&](auto o) { out.push_back(decltype(o)::kName); });
  return out;
}

// f(Opt{}) for the optimizer called `name`; ArgumentError naming the known ones otherwise.
template <class F>
void with_optimizer(const std::string& name, F&& f) {
  bool found = false;
  for_each_optimizer([&](auto o) {
    if (!found && name == decltype(o)::kName) {
      found = true;
      f(o);
    }
  });
  if (!found) {
    std::string known;
    for (const auto& n : optimizer_names()) known += (known.empty() ? "\"" : ", \"") + n + "\"";
    throw ArgumentError("optimizer must be one of " + known);
  }
}

// Every optimizer's hyperparameters with the optimizer it belongs to, in registry order; a name two
// optimizers share is listed once per optimizer.
struct OwnedHyperparameter {
  std::string optimizer;
  Hyperparameter h;
};
inline std::vector<OwnedHyperparameter> all_hyperparameters() {
  std::vector<OwnedHyperparameter> out;
  for_each_optimizer([&](auto o) {
    for (const Hyperparameter& h : decltype(o)::hyperparameters()) out.push_back({decltype(o)::kName, h});
  });
  return out;
}

}  // namespace lnx
