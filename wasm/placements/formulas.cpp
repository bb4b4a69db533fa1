// formulas.cpp — the residual scales α(L), m(L) and the init scales β(role, L) of placement.h, each
// written once: the registered placements (admin.cpp, deepnorm.cpp) and a spec's placement (spec.cpp)
// name a formula and never repeat it, so both compute the same bits. ReZero's m is a parameter of the
// model (its gate, model_impl.h), not a formula: branch() is 1 for it.
#include <cmath>

#include "placement.h"

namespace lnx {

double ResidualScale::skip(int L) const {
  switch (kind) {
    case Kind::One:
    case Kind::CompleteP:
    case Kind::ReZero:
      return 1.0;
    case Kind::Admin: {
      const double N = 2.0 * L;  // residual sublayers
      return std::sqrt((N + 1) / std::log(N + 1) - 1);
    }
    case Kind::DeepNet:
      return std::pow(2.0 * L, 0.25);
  }
  return 1.0;
}

double ResidualScale::branch(int L) const {
  if (kind != Kind::CompleteP) return 1.0;
  return std::pow(l_base / L, a);
}

double InitScale::operator()(WeightRole r, int L) const {
  const bool value_ffn = r == WeightRole::Value || r == WeightRole::FfnIn || r == WeightRole::FfnOut;
  switch (kind) {
    case Kind::Xavier:
      return 1.0;
    case Kind::DeepNet:
      return value_ffn ? std::pow(8.0 * L, -0.25) : 1.0;
    case Kind::TFixup:
      return value_ffn ? std::pow(9.0 * L, -0.25) : 1.0;
    case Kind::Zero:
      return r == WeightRole::Value || r == WeightRole::FfnOut ? 0.0 : 1.0;
  }
  return 1.0;
}

}  // namespace lnx
