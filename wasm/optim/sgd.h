// sgd.h — SGD with momentum, as PyTorch's torch.optim.SGD with dampening 0, no Nesterov, no weight
// decay:  b = μ·b + g ; θ −= lr·b  (b starts at 0, so the first step is θ −= lr·g). Unlike Adam it
// moves each weight in proportion to its gradient, so the gradient scale at initialization reaches
// the update directly — the control of Xiong et al.'s Figure 2 (right panels). The optimizer seam
// is optimizer.h.
#pragma once
#include <vector>

#include "optimizer.h"

namespace lnx {

struct Sgd {
  static constexpr const char* kName = "sgd";
  static constexpr const char* kDoc =
      "SGD with momentum (PyTorch's formula, dampening 0, no Nesterov, no weight decay)";
  static constexpr int kStates = 1;  // the momentum buffer b
  static constexpr int kCoefficients = 2;
  static constexpr double kSuggestedLr = 0.05;  // a peak lr at which the toy learns (the lab's default)

  static std::vector<Hyperparameter> hyperparameters() {
    return {{"momentum", 0.9, 0, 0.999999, false, "SGD: momentum mu (0 = plain SGD)"}};
  }

  // k = {μ, lr}
  template <class T>
  static void coefficients(const Hyperparameters& h, double lr, long /*t*/, T* k) {
    k[0] = T(h.at("momentum")), k[1] = T(lr);
  }

  template <class T>
  static void update(long i0, long i1, T* param, const T* grad, T* const* s, const T* k) {
    T* __restrict p = param;  // vectorisable, bit-identical (adam.h says why)
    const T* __restrict g = grad;
    T* __restrict b = s[0];
    const T mu = k[0], lr = k[1];
    for (long i = i0; i < i1; ++i) {
      const T bi = mu * b[i] + g[i];
      b[i] = bi;
      p[i] -= lr * bi;
    }
  }

  static constexpr const char* kWgsl = R"(
  s0[i] = k(0u) * s0[i] + g;
  param[i] -= k(1u) * s0[i];
)";
};

}  // namespace lnx
