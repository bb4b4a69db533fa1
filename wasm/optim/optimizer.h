// optimizer.h — the seam every optimizer sits behind, on the CPU and on the GPU alike.
//
// An optimizer is a struct with only static members (adam.h and sgd.h are the examples):
//   kName, kDoc            its name in configs ("adam") and one line on what it is
//   kStates                how many arrays of state it keeps, each the parameters' size (Adam: m, v)
//   kCoefficients          how many per-step scalars its update reads
//   kSuggestedLr           a peak learning rate at which the toy learns with it (the lab's default
//                          when a reader picks it, and the tests' setting)
//   hyperparameters()      its settings: name, default, bounds, doc (the config schema lists them)
//   coefficients<T>(h, lr, t, k)  the step-t scalars, computed on the host (bias corrections…) and
//                          given to every element in the scalar type T; lr is the schedule's value
//   update<T>(i0, i1, p, g, s, k)  the CPU update of elements [i0, i1): p parameters, g gradient,
//                          s[0..kStates) states, k coefficients
//   kWgsl                  the same update as WGSL statements for one element i, with `g` the
//                          gradient, `param[i]`, `s0[i]`, `s1[i]`… and the coefficient `k(j)`
//                          (gpu/kernels.cpp wraps it into a kernel that skips halted runs)
// and, optionally, what the `sharpness` experiment needs to measure the optimizer's stability
// (adam.h; an optimizer without them is not offered there):
//   preconditioner<T>(h, t, s, i)   P_ii of step t, read from the state after step t, where the step
//                          is θ −= lr·P⁻¹·m with m an exponential moving average of g
//   stability_threshold(h, lr)      the λ_max(P⁻¹H) above which that iteration is unstable on a
//                          quadratic with Hessian H
// The list of optimizers is optim/registry.h; a trainer never names one.
// Leaves out: weight decay, gradient clipping, per-tensor settings.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace lnx {

struct Hyperparameter {
  const char* name;
  double value;  // the default
  double min, max;
  bool min_exclusive;
  const char* doc;
};

// The values of every registered optimizer's hyperparameters, by name (a name two optimizers share,
// such as a future RAdam's beta1, is one setting).
using Hyperparameters = std::map<std::string, double>;

}  // namespace lnx
