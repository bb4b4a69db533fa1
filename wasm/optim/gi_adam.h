// gi_adam.h — GI-Adam, "gradient-initialised Adam" (Kalra & Barkeshli 2024, "Why Warmup the Learning
// Rate? Underlying Mechanisms and Improvements", arXiv 2406.09405, §6): Adam (adam.h) with the second
// moment started at the squared first gradient instead of 0,
//   v₀ = g₁² ; then for t = 1, 2, … Adam's step as written in adam.h, bias corrections included:
//   m = β1·m + (1−β1)·g ; v = β2·v + (1−β2)·g² ; m̂ = m/(1−β1ᵗ) ; v̂ = v/(1−β2ᵗ) ; θ −= lr·m̂/(√v̂ + ε).
// g₁ is the gradient step 1 computes at the initial parameters (the paper's g₀, "the gradient at
// initialisation": the same point, the first step's batch), so v₁ = β2·g₁² + (1−β2)·g₁² = g₁² and
// v̂₁ = g₁²/(1−β2). The first step is therefore −lr·g/(|g|/√(1−β2) + ε) ≈ −lr·√(1−β2)·sign(g):
// 0.141·lr per coordinate at β2 = 0.98 (0.0316·lr at 0.999), not Adam's lr; while v stays near g₁²
// the kept bias correction 1/(1−β2ᵗ) acts as a built-in warm-up of the step, ∝ √(1−β2ᵗ). Adam's
// sign-like step is gone, and with it the tiny denominators that give Adam its large preconditioned
// sharpness at initialisation (the paper's motivation; the `sharpness` experiment measures it).
// Implementation: coefficient k[8] is 1 at t = 1 and 0 after; at t = 1 the update sets v = g²
// before the moment update, so a run continued from a checkpoint (t > 1) is plain Adam on the state
// it was given. Shares Adam's settings (beta1, beta2, eps, declared alike)
// and Adam's preconditioner and stability threshold. The optimizer seam is optimizer.h.
#pragma once
#include <vector>

#include "adam.h"
#include "optimizer.h"

namespace lnx {

struct GiAdam : AdamFamily {  // Adam's states, settings and suggested lr
  static constexpr const char* kName = "gi-adam";
  static constexpr const char* kDoc =
      "GI-Adam (Kalra & Barkeshli 2024: Adam with v0 = g1^2, the squared first gradient; bias corrections kept)";
  static constexpr int kCoefficients = 9;

  // k = {β1, 1−β1, β2, 1−β2, 1/(1−β1ᵗ), 1/(1−β2ᵗ), lr, ε} as Adam's, and k[8] = 1 at t = 1 (v₀ = g²), else 0
  template <class T>
  static void coefficients(const Hyperparameters& h, double lr, long t, T* k) {
    Adam::coefficients(h, lr, t, k);
    k[8] = T(t == 1 ? 1 : 0);
  }

  // Adam::update (k[0..7] are Adam's) after v₀ = g² on the first step, that choice taken once
  // outside the loop.
  template <class T>
  static void update(long i0, long i1, T* param, const T* grad, T* const* s, const T* k) {
    if (k[8] > T(0)) {
      T* __restrict v = s[1];
      const T* __restrict g = grad;
      for (long i = i0; i < i1; ++i) v[i] = g[i] * g[i];  // v₀ = g₁²
    }
    Adam::update(i0, i1, param, grad, s, k);
  }

  // v₀ = g² on the first step, then Adam's WGSL (k[0..7] are Adam's), as update() does on the CPU
  static constexpr const char* kWgsl = R"(
  s1[i] = select(s1[i], g * g, k(8u) > 0.0);)" LNX_ADAM_MOMENTS_WGSL R"(
  let v_hat = s1[i] * k(5u);
  param[i] -= k(6u) * m_hat / (sqrt(v_hat) + k(7u));
)";

  template <class T>
  static double preconditioner(const Hyperparameters& h, long t, const T* const* s, size_t i) {
    return Adam::preconditioner(h, t, s, i);
  }
  static double stability_threshold(const Hyperparameters& h, double lr) { return Adam::stability_threshold(h, lr); }
};

}  // namespace lnx
